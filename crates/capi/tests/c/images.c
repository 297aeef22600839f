/* Images and samplers through the ICD loader (API 5.3, 5.8), with OXCL_IMAGE_SUPPORT=1: image
 * creation of several types and formats, read/write/copy/fill/map, image<->buffer copies, the
 * info queries, samplers, and the documented error codes. Every expected byte is worked out by
 * hand in the comments beside it. No kernel runs here. */
#include "common.h"

static cl_command_queue q;

static int bytes_equal(const unsigned char *a, const unsigned char *b, size_t n) {
    return memcmp(a, b, n) == 0;
}

static void device_queries(cl_device_id device) {
    cl_bool support = 0;
    clGetDeviceInfo(device, CL_DEVICE_IMAGE_SUPPORT, sizeof support, &support, NULL);
    CHECK(support == CL_TRUE, "CL_DEVICE_IMAGE_SUPPORT %u", support);
    /* Full-profile minimums (API 4.2, table of device queries). */
    struct { cl_device_info name; size_t min; const char *what; } sizes[] = {
        {CL_DEVICE_IMAGE2D_MAX_WIDTH, 16384, "IMAGE2D_MAX_WIDTH"},
        {CL_DEVICE_IMAGE2D_MAX_HEIGHT, 16384, "IMAGE2D_MAX_HEIGHT"},
        {CL_DEVICE_IMAGE3D_MAX_WIDTH, 2048, "IMAGE3D_MAX_WIDTH"},
        {CL_DEVICE_IMAGE3D_MAX_HEIGHT, 2048, "IMAGE3D_MAX_HEIGHT"},
        {CL_DEVICE_IMAGE3D_MAX_DEPTH, 2048, "IMAGE3D_MAX_DEPTH"},
        {CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, 65536, "IMAGE_MAX_BUFFER_SIZE"},
        {CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, 2048, "IMAGE_MAX_ARRAY_SIZE"},
    };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        size_t v = 0;
        clGetDeviceInfo(device, sizes[i].name, sizeof v, &v, NULL);
        CHECK(v >= sizes[i].min, "%s = %zu", sizes[i].what, v);
    }
    struct { cl_device_info name; cl_uint min; const char *what; } uints[] = {
        {CL_DEVICE_MAX_SAMPLERS, 16, "MAX_SAMPLERS"},
        {CL_DEVICE_MAX_READ_IMAGE_ARGS, 128, "MAX_READ_IMAGE_ARGS"},
        {CL_DEVICE_MAX_WRITE_IMAGE_ARGS, 64, "MAX_WRITE_IMAGE_ARGS"},
        {CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS, 64, "MAX_READ_WRITE_IMAGE_ARGS"},
        {CL_DEVICE_IMAGE_PITCH_ALIGNMENT, 1, "IMAGE_PITCH_ALIGNMENT"},
        {CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT, 1, "IMAGE_BASE_ADDRESS_ALIGNMENT"},
    };
    for (size_t i = 0; i < sizeof uints / sizeof uints[0]; i++) {
        cl_uint v = 0;
        clGetDeviceInfo(device, uints[i].name, sizeof v, &v, NULL);
        CHECK(v >= uints[i].min, "%s = %u", uints[i].what, v);
    }
}

static void supported_formats(cl_context ctx) {
    cl_uint n = 0;
    EXPECT_CODE(clGetSupportedImageFormats(ctx, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0, NULL, &n), CL_SUCCESS);
    CHECK(n > 0, "no formats");
    cl_image_format *f = calloc(n, sizeof *f);
    cl_uint n2 = 0;
    EXPECT_CODE(clGetSupportedImageFormats(ctx, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, n, f, &n2), CL_SUCCESS);
    CHECK(n2 == n, "count %u then %u", n, n2);
    /* The minimum list of API 5.3.2.1 for read-write images. */
    cl_image_format need[] = {{CL_RGBA, CL_UNORM_INT8}, {CL_RGBA, CL_FLOAT}, {CL_RGBA, CL_SIGNED_INT32},
                              {CL_RGBA, CL_UNSIGNED_INT16}, {CL_BGRA, CL_UNORM_INT8}, {CL_R, CL_FLOAT}};
    for (size_t k = 0; k < sizeof need / sizeof need[0]; k++) {
        int found = 0;
        for (cl_uint i = 0; i < n; i++)
            found |= f[i].image_channel_order == need[k].image_channel_order &&
                     f[i].image_channel_data_type == need[k].image_channel_data_type;
        CHECK(found, "format %#x/%#x missing", need[k].image_channel_order, need[k].image_channel_data_type);
    }
    /* sRGB is read-only: listed for CL_MEM_READ_ONLY, not for CL_MEM_WRITE_ONLY. */
    int srgb_ro = 0, srgb_wo = 0;
    cl_uint m = 0;
    clGetSupportedImageFormats(ctx, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 0, NULL, &m);
    cl_image_format *g = calloc(m, sizeof *g);
    clGetSupportedImageFormats(ctx, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, m, g, NULL);
    for (cl_uint i = 0; i < m; i++) srgb_ro |= g[i].image_channel_order == CL_sRGBA;
    free(g);
    clGetSupportedImageFormats(ctx, CL_MEM_WRITE_ONLY, CL_MEM_OBJECT_IMAGE2D, 0, NULL, &m);
    g = calloc(m, sizeof *g);
    clGetSupportedImageFormats(ctx, CL_MEM_WRITE_ONLY, CL_MEM_OBJECT_IMAGE2D, m, g, NULL);
    for (cl_uint i = 0; i < m; i++) srgb_wo |= g[i].image_channel_order == CL_sRGBA;
    free(g);
    CHECK(srgb_ro && !srgb_wo, "sRGBA read-only %d write-only %d", srgb_ro, srgb_wo);
    /* Fewer entries than formats: only num_entries are written. */
    cl_image_format one[2] = {{0, 0}, {0xdead, 0xbeef}};
    EXPECT_CODE(clGetSupportedImageFormats(ctx, 0, CL_MEM_OBJECT_IMAGE3D, 1, one, NULL), CL_SUCCESS);
    CHECK(one[0].image_channel_order != 0 && one[1].image_channel_order == 0xdead, "num_entries respected");
    EXPECT_CODE(clGetSupportedImageFormats(ctx, 0, CL_MEM_OBJECT_BUFFER, 0, NULL, &n), CL_INVALID_VALUE);
    EXPECT_CODE(clGetSupportedImageFormats(ctx, 0, CL_MEM_OBJECT_IMAGE2D, 0, f, &n), CL_INVALID_VALUE);
    EXPECT_CODE(clGetSupportedImageFormats(ctx, (cl_mem_flags)1 << 40, CL_MEM_OBJECT_IMAGE2D, 0, NULL, &n), CL_INVALID_VALUE);
    free(f);
}

static void rgba8_2d(cl_context ctx) {
    cl_int err;
    /* 3×2 RGBA8 from host rows of 16 bytes (4 bytes of padding). Texel (x, y) channel c holds
     * 16y + 4x + c. */
    unsigned char host[32];
    for (int i = 0; i < 32; i++) host[i] = (unsigned char)i;
    cl_image_format fmt = {CL_RGBA, CL_UNORM_INT8};
    cl_image_desc desc = {0};
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = 3;
    desc.image_height = 2;
    desc.image_row_pitch = 16;
    cl_mem img = clCreateImage(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &fmt, &desc, host, &err);
    CHECK(err == CL_SUCCESS, "clCreateImage %d", err);

    unsigned char out[24];
    size_t origin[3] = {0, 0, 0}, region[3] = {3, 2, 1};
    EXPECT_CODE(clEnqueueReadImage(q, img, CL_TRUE, origin, region, 0, 0, out, 0, NULL, NULL), CL_SUCCESS);
    unsigned char expect[24];
    for (int y = 0; y < 2; y++)
        for (int i = 0; i < 12; i++) expect[12 * y + i] = (unsigned char)(16 * y + i);
    CHECK(bytes_equal(out, expect, 24), "read back of a pitched copy");

    /* Queries: the image is stored tightly packed (row pitch 12). */
    size_t v = 0;
    clGetImageInfo(img, CL_IMAGE_ROW_PITCH, sizeof v, &v, NULL);
    CHECK(v == 12, "CL_IMAGE_ROW_PITCH %zu", v);
    clGetImageInfo(img, CL_IMAGE_SLICE_PITCH, sizeof v, &v, NULL);
    CHECK(v == 0, "CL_IMAGE_SLICE_PITCH of a 2D image %zu", v);
    clGetImageInfo(img, CL_IMAGE_ELEMENT_SIZE, sizeof v, &v, NULL);
    CHECK(v == 4, "CL_IMAGE_ELEMENT_SIZE %zu", v);
    clGetImageInfo(img, CL_IMAGE_WIDTH, sizeof v, &v, NULL);
    CHECK(v == 3, "CL_IMAGE_WIDTH %zu", v);
    clGetImageInfo(img, CL_IMAGE_HEIGHT, sizeof v, &v, NULL);
    CHECK(v == 2, "CL_IMAGE_HEIGHT %zu", v);
    clGetImageInfo(img, CL_IMAGE_DEPTH, sizeof v, &v, NULL);
    CHECK(v == 0, "CL_IMAGE_DEPTH %zu", v);
    clGetImageInfo(img, CL_IMAGE_ARRAY_SIZE, sizeof v, &v, NULL);
    CHECK(v == 0, "CL_IMAGE_ARRAY_SIZE %zu", v);
    cl_image_format got = {0, 0};
    clGetImageInfo(img, CL_IMAGE_FORMAT, sizeof got, &got, NULL);
    CHECK(got.image_channel_order == CL_RGBA && got.image_channel_data_type == CL_UNORM_INT8, "CL_IMAGE_FORMAT");
    cl_mem buf_of = (cl_mem)1;
    clGetImageInfo(img, CL_IMAGE_BUFFER, sizeof buf_of, &buf_of, NULL);
    CHECK(buf_of == NULL, "CL_IMAGE_BUFFER of a plain image");
    cl_uint levels = 9;
    clGetImageInfo(img, CL_IMAGE_NUM_MIP_LEVELS, sizeof levels, &levels, NULL);
    CHECK(levels == 0, "CL_IMAGE_NUM_MIP_LEVELS %u", levels);
    cl_mem_object_type type = 0;
    clGetMemObjectInfo(img, CL_MEM_TYPE, sizeof type, &type, NULL);
    CHECK(type == CL_MEM_OBJECT_IMAGE2D, "CL_MEM_TYPE %#x", type);
    clGetMemObjectInfo(img, CL_MEM_SIZE, sizeof v, &v, NULL);
    CHECK(v == 24, "CL_MEM_SIZE %zu", v);
    EXPECT_CODE(clGetImageInfo(img, 0xFFFF, sizeof v, &v, NULL), CL_INVALID_VALUE);

    /* Write texel (1, 1) and read a 2×1 region at (1, 1) into host rows. */
    unsigned char texel[4] = {200, 201, 202, 203};
    size_t o11[3] = {1, 1, 0}, r11[3] = {1, 1, 1}, r21[3] = {2, 1, 1};
    EXPECT_CODE(clEnqueueWriteImage(q, img, CL_TRUE, o11, r11, 0, 0, texel, 0, NULL, NULL), CL_SUCCESS);
    unsigned char two[8];
    EXPECT_CODE(clEnqueueReadImage(q, img, CL_TRUE, o11, r21, 0, 0, two, 0, NULL, NULL), CL_SUCCESS);
    unsigned char expect_two[8] = {200, 201, 202, 203, 24, 25, 26, 27};
    CHECK(bytes_equal(two, expect_two, 8), "texels (1,1) and (2,1)");

    /* Fill the right column with (0.5, 1.2, -1, 0.25): 127.5 rounds to even 128, 1.2 saturates to
     * 255, -1 to 0, 63.75 rounds to 64. */
    float color[4] = {0.5f, 1.2f, -1.0f, 0.25f};
    size_t o20[3] = {2, 0, 0}, r12[3] = {1, 2, 1};
    EXPECT_CODE(clEnqueueFillImage(q, img, color, o20, r12, 0, NULL, NULL), CL_SUCCESS);
    EXPECT_CODE(clEnqueueReadImage(q, img, CL_TRUE, origin, region, 0, 0, out, 0, NULL, NULL), CL_SUCCESS);
    unsigned char filled[4] = {128, 255, 0, 64};
    CHECK(bytes_equal(out + 8, filled, 4) && bytes_equal(out + 20, filled, 4), "fill of UNORM_INT8");
    CHECK(out[0] == 0 && out[16] == 200, "fill stays in its region");

    /* Image -> buffer (tightly packed at offset 4) and buffer -> image. */
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &err);
    unsigned char zero[64] = {0};
    clEnqueueWriteBuffer(q, buf, CL_TRUE, 0, 64, zero, 0, NULL, NULL);
    EXPECT_CODE(clEnqueueCopyImageToBuffer(q, img, buf, o11, r21, 4, 0, NULL, NULL), CL_SUCCESS);
    unsigned char bb[64];
    clEnqueueReadBuffer(q, buf, CL_TRUE, 0, 64, bb, 0, NULL, NULL);
    unsigned char expect_bb[8] = {200, 201, 202, 203, 128, 255, 0, 64};
    CHECK(bytes_equal(bb + 4, expect_bb, 8) && bb[3] == 0 && bb[12] == 0, "image to buffer");
    EXPECT_CODE(clEnqueueCopyBufferToImage(q, buf, img, 4, origin, r21, 0, NULL, NULL), CL_SUCCESS);
    EXPECT_CODE(clEnqueueReadImage(q, img, CL_TRUE, origin, r21, 0, 0, two, 0, NULL, NULL), CL_SUCCESS);
    CHECK(bytes_equal(two, expect_bb, 8), "buffer to image");
    /* Buffer range errors: "CL_INVALID_VALUE if ... dst_offset + dst_cb refer to a region outside". */
    EXPECT_CODE(clEnqueueCopyImageToBuffer(q, img, buf, origin, region, 48, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_CODE(clEnqueueCopyBufferToImage(q, buf, img, 60, origin, r21, 0, NULL, NULL), CL_INVALID_VALUE);
    /* An image is not a buffer, a buffer is not an image. */
    EXPECT_CODE(clEnqueueReadBuffer(q, img, CL_TRUE, 0, 4, bb, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
    EXPECT_CODE(clEnqueueReadImage(q, buf, CL_TRUE, origin, r11, 0, 0, bb, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
    EXPECT_CODE(clGetImageInfo(buf, CL_IMAGE_WIDTH, sizeof v, &v, NULL), CL_INVALID_MEM_OBJECT);
    EXPECT_CODE(clEnqueueCopyImageToBuffer(q, img, img, origin, r11, 0, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);

    /* Region rules (API 5.3.3). */
    size_t bad_origin[3] = {0, 0, 1}, big[3] = {4, 1, 1}, zero_region[3] = {0, 1, 1}, o_last[3] = {2, 1, 0};
    EXPECT_CODE(clEnqueueReadImage(q, img, CL_TRUE, bad_origin, r11, 0, 0, out, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_CODE(clEnqueueReadImage(q, img, CL_TRUE, origin, big, 0, 0, out, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_CODE(clEnqueueReadImage(q, img, CL_TRUE, origin, zero_region, 0, 0, out, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_CODE(clEnqueueReadImage(q, img, CL_TRUE, o_last, r21, 0, 0, out, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_CODE(clEnqueueReadImage(q, img, CL_TRUE, NULL, r11, 0, 0, out, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_CODE(clEnqueueReadImage(q, img, CL_TRUE, origin, r11, 0, 0, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
    /* "if image is a 1D or 2D image and slice_pitch ... is not zero"; a row pitch under width × 4. */
    EXPECT_CODE(clEnqueueReadImage(q, img, CL_TRUE, origin, region, 0, 24, out, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_CODE(clEnqueueWriteImage(q, img, CL_TRUE, origin, region, 8, 0, out, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_CODE(clEnqueueFillImage(q, img, NULL, origin, r11, 0, NULL, NULL), CL_INVALID_VALUE);
    /* Overlapping copy within one image; different formats. */
    EXPECT_CODE(clEnqueueCopyImage(q, img, img, origin, o11, region, 0, NULL, NULL), CL_INVALID_VALUE);
    size_t o10[3] = {1, 0, 0};
    EXPECT_CODE(clEnqueueCopyImage(q, img, img, origin, o10, r21, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
    EXPECT_CODE(clEnqueueCopyImage(q, img, img, origin, o11, r11, 0, NULL, NULL), CL_SUCCESS);
    cl_image_format other = {CL_RGBA, CL_UNSIGNED_INT8};
    cl_mem img2 = clCreateImage(ctx, 0, &other, &(cl_image_desc){.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 3, .image_height = 2}, NULL, &err);
    CHECK(err == CL_SUCCESS, "second image %d", err);
    EXPECT_CODE(clEnqueueCopyImage(q, img, img2, origin, origin, r11, 0, NULL, NULL), CL_IMAGE_FORMAT_MISMATCH);
    clReleaseMemObject(img2);
    clReleaseMemObject(buf);
    clReleaseMemObject(img);
}

static void fills_of_other_formats(cl_context ctx) {
    cl_int err;
    size_t origin[3] = {0, 0, 0}, region[3] = {2, 1, 1};
    /* R UNSIGNED_INT16 from a uint4: 70000 clamps to 65535 = ff ff; 258 = 02 01. */
    cl_image_format fmt = {CL_RG, CL_UNSIGNED_INT16};
    cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE1D, .image_width = 2};
    cl_mem img = clCreateImage(ctx, 0, &fmt, &desc, NULL, &err);
    CHECK(err == CL_SUCCESS, "1D RG16UI %d", err);
    cl_uint ucolor[4] = {70000, 258, 1, 2};
    EXPECT_CODE(clEnqueueFillImage(q, img, ucolor, origin, region, 0, NULL, NULL), CL_SUCCESS);
    unsigned char out[8];
    EXPECT_CODE(clEnqueueReadImage(q, img, CL_TRUE, origin, region, 0, 0, out, 0, NULL, NULL), CL_SUCCESS);
    unsigned char e1[8] = {0xff, 0xff, 0x02, 0x01, 0xff, 0xff, 0x02, 0x01};
    CHECK(bytes_equal(out, e1, 8), "fill of RG UNSIGNED_INT16");
    clReleaseMemObject(img);
    /* BGRA SIGNED_INT8 from an int4 (R, G, B, A) = (-200, 5, 100, 127): stored B, G, R, A =
     * 100, 5, -128 (clamped), 127. */
    cl_image_format fmt2 = {CL_BGRA, CL_SIGNED_INT8};
    img = clCreateImage(ctx, 0, &fmt2, &desc, NULL, &err);
    CHECK(err == CL_SUCCESS, "1D BGRA8I %d", err);
    cl_int icolor[4] = {-200, 5, 100, 127};
    EXPECT_CODE(clEnqueueFillImage(q, img, icolor, origin, region, 0, NULL, NULL), CL_SUCCESS);
    clEnqueueReadImage(q, img, CL_TRUE, origin, region, 0, 0, out, 0, NULL, NULL);
    unsigned char e2[8] = {100, 5, 0x80, 127, 100, 5, 0x80, 127};
    CHECK(bytes_equal(out, e2, 8), "fill of BGRA SIGNED_INT8");
    clReleaseMemObject(img);
    /* RGBA HALF_FLOAT: 1.0 = 0x3c00, -2.0 = 0xc000, 0.5 = 0x3800, 0 = 0. */
    cl_image_format fmt3 = {CL_RGBA, CL_HALF_FLOAT};
    desc.image_width = 1;
    img = clCreateImage(ctx, 0, &fmt3, &desc, NULL, &err);
    CHECK(err == CL_SUCCESS, "1D RGBA16F %d", err);
    float fcolor[4] = {1.0f, -2.0f, 0.5f, 0.0f};
    size_t one[3] = {1, 1, 1};
    EXPECT_CODE(clEnqueueFillImage(q, img, fcolor, origin, one, 0, NULL, NULL), CL_SUCCESS);
    clEnqueueReadImage(q, img, CL_TRUE, origin, one, 0, 0, out, 0, NULL, NULL);
    unsigned char e3[8] = {0x00, 0x3c, 0x00, 0xc0, 0x00, 0x38, 0x00, 0x00};
    CHECK(bytes_equal(out, e3, 8), "fill of RGBA HALF_FLOAT");
    clReleaseMemObject(img);
}

static void arrays_3d_and_map(cl_context ctx) {
    cl_int err;
    /* A 2D array of 2 layers of 3×2 R8; layer l, texel (x, y) = 100l + 10y + x. */
    unsigned char host[12];
    for (int l = 0; l < 2; l++)
        for (int y = 0; y < 2; y++)
            for (int x = 0; x < 3; x++) host[6 * l + 3 * y + x] = (unsigned char)(100 * l + 10 * y + x);
    cl_image_format fmt = {CL_R, CL_UNSIGNED_INT8};
    cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE2D_ARRAY, .image_width = 3, .image_height = 2, .image_array_size = 2};
    cl_mem arr = clCreateImage(ctx, CL_MEM_COPY_HOST_PTR, &fmt, &desc, host, &err);
    CHECK(err == CL_SUCCESS, "2D array %d", err);
    size_t v = 0;
    clGetImageInfo(arr, CL_IMAGE_ARRAY_SIZE, sizeof v, &v, NULL);
    CHECK(v == 2, "CL_IMAGE_ARRAY_SIZE %zu", v);
    clGetImageInfo(arr, CL_IMAGE_SLICE_PITCH, sizeof v, &v, NULL);
    CHECK(v == 6, "CL_IMAGE_SLICE_PITCH %zu", v);
    /* Map texels (1..3, 1, layer 1): row pitch 3, slice pitch 6, first byte 111. */
    size_t origin[3] = {1, 1, 1}, region[3] = {2, 1, 1}, row = 0, slice = 0;
    unsigned char *p = clEnqueueMapImage(q, arr, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, origin, region, &row, &slice, 0, NULL, NULL, &err);
    CHECK(err == CL_SUCCESS && p != NULL, "map %d", err);
    if (p) {
        CHECK(row == 3 && slice == 6, "mapped pitches %zu %zu", row, slice);
        CHECK(p[0] == 111 && p[1] == 112, "mapped texels %u %u", p[0], p[1]);
        p[1] = 77;
        cl_uint count = 0;
        clGetMemObjectInfo(arr, CL_MEM_MAP_COUNT, sizeof count, &count, NULL);
        CHECK(count == 1, "map count %u", count);
        EXPECT_CODE(clEnqueueUnmapMemObject(q, arr, p, 0, NULL, NULL), CL_SUCCESS);
        clFinish(q);
        unsigned char t = 0;
        size_t o[3] = {2, 1, 1}, r1[3] = {1, 1, 1};
        clEnqueueReadImage(q, arr, CL_TRUE, o, r1, 0, 0, &t, 0, NULL, NULL);
        CHECK(t == 77, "write through the mapping %u", t);
        EXPECT_CODE(clEnqueueUnmapMemObject(q, arr, p, 0, NULL, NULL), CL_INVALID_VALUE);
    }
    /* "CL_INVALID_VALUE if image is a ... 2D image array object and image_slice_pitch is NULL";
     * "if image_row_pitch is NULL". */
    clEnqueueMapImage(q, arr, CL_TRUE, CL_MAP_READ, origin, region, &row, NULL, 0, NULL, NULL, &err);
    CHECK(err == CL_INVALID_VALUE, "map without slice pitch %d", err);
    clEnqueueMapImage(q, arr, CL_TRUE, CL_MAP_READ, origin, region, NULL, &slice, 0, NULL, NULL, &err);
    CHECK(err == CL_INVALID_VALUE, "map without row pitch %d", err);
    /* Read layer 1 of both rows into host slices of 8 bytes with rows of 4: 100 101 102 _ 110... */
    unsigned char out[16];
    memset(out, 0xEE, sizeof out);
    size_t o0[3] = {0, 0, 0}, all[3] = {3, 2, 2};
    EXPECT_CODE(clEnqueueReadImage(q, arr, CL_TRUE, o0, all, 4, 8, out, 0, NULL, NULL), CL_SUCCESS);
    unsigned char expect[16] = {0, 1, 2, 0xEE, 10, 11, 12, 0xEE, 100, 101, 102, 0xEE, 110, 111, 77, 0xEE};
    CHECK(bytes_equal(out, expect, 16), "pitched read of a 2D array");
    /* A slice pitch smaller than row pitch × height. */
    EXPECT_CODE(clEnqueueReadImage(q, arr, CL_TRUE, o0, all, 4, 7, out, 0, NULL, NULL), CL_INVALID_VALUE);
    clReleaseMemObject(arr);

    /* clCreateImage3D (deprecated): 2×2×2 RGBA FLOAT, zeroed, write one texel of slice 1. */
    cl_image_format ffmt = {CL_RGBA, CL_FLOAT};
    cl_mem vol = clCreateImage3D(ctx, CL_MEM_READ_WRITE, &ffmt, 2, 2, 2, 0, 0, NULL, &err);
    CHECK(err == CL_SUCCESS, "clCreateImage3D %d", err);
    float texel[4] = {1.5f, -2.0f, 3.25f, 4.0f}, back[4] = {0};
    size_t o3[3] = {1, 0, 1}, r1[3] = {1, 1, 1};
    EXPECT_CODE(clEnqueueWriteImage(q, vol, CL_TRUE, o3, r1, 0, 0, texel, 0, NULL, NULL), CL_SUCCESS);
    EXPECT_CODE(clEnqueueReadImage(q, vol, CL_TRUE, o3, r1, 0, 0, back, 0, NULL, NULL), CL_SUCCESS);
    CHECK(memcmp(texel, back, 16) == 0, "3D texel round trip");
    cl_mem_object_type type = 0;
    clGetMemObjectInfo(vol, CL_MEM_TYPE, sizeof type, &type, NULL);
    CHECK(type == CL_MEM_OBJECT_IMAGE3D, "CL_MEM_TYPE %#x", type);
    clGetImageInfo(vol, CL_IMAGE_DEPTH, sizeof v, &v, NULL);
    CHECK(v == 2, "CL_IMAGE_DEPTH %zu", v);
    clReleaseMemObject(vol);

    /* clCreateImage2D (deprecated) with CL_MEM_USE_HOST_PTR: the host rows are the image. */
    unsigned char rows[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    cl_image_format f8 = {CL_R, CL_UNSIGNED_INT8};
    cl_mem use = clCreateImage2D(ctx, CL_MEM_USE_HOST_PTR, &f8, 3, 2, 4, rows, &err);
    CHECK(err == CL_SUCCESS, "clCreateImage2D %d", err);
    void *hp = NULL;
    clGetMemObjectInfo(use, CL_MEM_HOST_PTR, sizeof hp, &hp, NULL);
    CHECK(hp == rows, "CL_MEM_HOST_PTR");
    unsigned char px = 99;
    size_t o21[3] = {2, 1, 0}, one[3] = {1, 1, 1};
    EXPECT_CODE(clEnqueueWriteImage(q, use, CL_TRUE, o21, one, 0, 0, &px, 0, NULL, NULL), CL_SUCCESS);
    CHECK(rows[6] == 99 && rows[7] == 8, "USE_HOST_PTR write lands at row 1 byte 2");
    clGetImageInfo(use, CL_IMAGE_ROW_PITCH, sizeof v, &v, NULL);
    CHECK(v == 4, "row pitch of a USE_HOST_PTR image %zu", v);
    clReleaseMemObject(use);
}

static void buffer_images(cl_context ctx) {
    cl_int err;
    unsigned char data[32];
    for (int i = 0; i < 32; i++) data[i] = (unsigned char)(3 * i);
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, 32, data, &err);
    /* A 1D image buffer of 8 RGBA8 texels over the buffer: texel 2 is bytes 8..12. */
    cl_image_format fmt = {CL_RGBA, CL_UNORM_INT8};
    cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER, .image_width = 8, .buffer = buf};
    cl_mem img = clCreateImage(ctx, 0, &fmt, &desc, NULL, &err);
    CHECK(err == CL_SUCCESS, "1D image buffer %d", err);
    unsigned char t[4];
    size_t o[3] = {2, 0, 0}, r[3] = {1, 1, 1};
    EXPECT_CODE(clEnqueueReadImage(q, img, CL_TRUE, o, r, 0, 0, t, 0, NULL, NULL), CL_SUCCESS);
    unsigned char expect[4] = {24, 27, 30, 33};
    CHECK(bytes_equal(t, expect, 4), "1D image buffer reads the buffer");
    unsigned char w[4] = {1, 2, 3, 4};
    clEnqueueWriteImage(q, img, CL_TRUE, o, r, 0, 0, w, 0, NULL, NULL);
    unsigned char back[4];
    clEnqueueReadBuffer(q, buf, CL_TRUE, 8, 4, back, 0, NULL, NULL);
    CHECK(bytes_equal(back, w, 4), "1D image buffer writes the buffer");
    cl_mem assoc = NULL;
    clGetImageInfo(img, CL_IMAGE_BUFFER, sizeof assoc, &assoc, NULL);
    CHECK(assoc == buf, "CL_IMAGE_BUFFER");
    clGetMemObjectInfo(img, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, NULL);
    CHECK(assoc == buf, "CL_MEM_ASSOCIATED_MEMOBJECT");
    /* The image keeps the buffer alive. */
    clReleaseMemObject(buf);
    EXPECT_CODE(clEnqueueReadImage(q, img, CL_TRUE, o, r, 0, 0, t, 0, NULL, NULL), CL_SUCCESS);
    /* Too wide for the buffer: 9 texels need 36 bytes. */
    cl_mem buf2 = clCreateBuffer(ctx, CL_MEM_READ_ONLY, 32, NULL, &err);
    desc.buffer = buf2;
    desc.image_width = 9;
    clCreateImage(ctx, 0, &fmt, &desc, NULL, &err);
    CHECK(err == CL_INVALID_IMAGE_SIZE, "1D image buffer larger than its buffer %d", err);
    /* "mem_object was created with CL_MEM_READ_ONLY and flags specifies CL_MEM_READ_WRITE";
     * "flags specifies CL_MEM_USE_HOST_PTR ...". */
    desc.image_width = 8;
    clCreateImage(ctx, CL_MEM_READ_WRITE, &fmt, &desc, NULL, &err);
    CHECK(err == CL_INVALID_VALUE, "read-only buffer as a read-write image %d", err);
    /* A 2D image over the buffer, rows of 16 bytes: 4×2 R8. */
    cl_image_format f8 = {CL_R, CL_UNSIGNED_INT8};
    cl_image_desc d2 = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 4, .image_height = 2, .image_row_pitch = 16, .buffer = buf2};
    cl_mem img2 = clCreateImage(ctx, 0, &f8, &d2, NULL, &err);
    CHECK(err == CL_SUCCESS, "2D image from a buffer %d", err);
    cl_mem_flags flags = 0;
    clGetMemObjectInfo(img2, CL_MEM_FLAGS, sizeof flags, &flags, NULL);
    CHECK(flags & CL_MEM_READ_ONLY, "flags inherited from the buffer %#llx", (unsigned long long)flags);
    /* A row pitch that breaks the rules of a 2D image from a buffer: the format descriptor
     * error (API 5.3.1). */
    d2.image_row_pitch = 3;
    clCreateImage(ctx, 0, &f8, &d2, NULL, &err);
    CHECK(err == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, "row pitch under the width %d", err);
    clReleaseMemObject(img2);
    clReleaseMemObject(buf2);
    clReleaseMemObject(img);

    /* An sRGBA view of an RGBA image shares its texels; BGRA is not a compatible order. */
    cl_image_format rgba = {CL_RGBA, CL_UNORM_INT8}, srgba = {CL_sRGBA, CL_UNORM_INT8}, bgra = {CL_BGRA, CL_UNORM_INT8};
    cl_image_desc d3 = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 2, .image_height = 1};
    cl_mem lin = clCreateImage(ctx, CL_MEM_READ_ONLY, &rgba, &d3, NULL, &err);
    d3.mem_object = lin;
    cl_mem view = clCreateImage(ctx, 0, &srgba, &d3, NULL, &err);
    CHECK(err == CL_SUCCESS, "sRGBA view %d", err);
    unsigned char px[4] = {9, 8, 7, 6}, seen[4] = {0};
    size_t o0[3] = {0, 0, 0}, r1[3] = {1, 1, 1};
    clEnqueueWriteImage(q, lin, CL_TRUE, o0, r1, 0, 0, px, 0, NULL, NULL);
    EXPECT_CODE(clEnqueueReadImage(q, view, CL_TRUE, o0, r1, 0, 0, seen, 0, NULL, NULL), CL_SUCCESS);
    CHECK(bytes_equal(px, seen, 4), "the view shares the texels");
    assoc = NULL;
    clGetMemObjectInfo(view, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, NULL);
    CHECK(assoc == lin, "CL_MEM_ASSOCIATED_MEMOBJECT of a view");
    clCreateImage(ctx, 0, &bgra, &d3, NULL, &err);
    CHECK(err == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, "BGRA view of RGBA %d", err);
    d3.image_width = 1;
    clCreateImage(ctx, 0, &srgba, &d3, NULL, &err);
    CHECK(err == CL_INVALID_IMAGE_DESCRIPTOR, "view of another size %d", err);
    clReleaseMemObject(view);
    clReleaseMemObject(lin);
}

static void creation_errors(cl_context ctx) {
    cl_int err;
    cl_image_format fmt = {CL_RGBA, CL_UNORM_INT8};
    cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 4, .image_height = 4};
    clCreateImage(ctx, 0, NULL, &desc, NULL, &err);
    CHECK(err == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, "null format %d", err);
    cl_image_format bad = {0x1234, CL_UNORM_INT8};
    clCreateImage(ctx, 0, &bad, &desc, NULL, &err);
    CHECK(err == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, "unknown order %d", err);
    cl_image_format rgb8 = {CL_RGB, CL_UNORM_INT8};
    clCreateImage(ctx, 0, &rgb8, &desc, NULL, &err);
    CHECK(err == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, "CL_RGB with UNORM_INT8 %d", err);
    cl_image_format ds = {CL_DEPTH_STENCIL, CL_UNORM_INT24};
    clCreateImage(ctx, 0, &ds, &desc, NULL, &err);
    CHECK(err == CL_IMAGE_FORMAT_NOT_SUPPORTED, "depth-stencil %d", err);
    cl_image_format depth = {CL_DEPTH, CL_FLOAT};
    cl_image_desc d3 = {.image_type = CL_MEM_OBJECT_IMAGE3D, .image_width = 2, .image_height = 2, .image_depth = 2};
    clCreateImage(ctx, 0, &depth, &d3, NULL, &err);
    CHECK(err == CL_IMAGE_FORMAT_NOT_SUPPORTED, "3D depth image %d", err);
    cl_mem dimg = clCreateImage(ctx, 0, &depth, &desc, NULL, &err);
    CHECK(err == CL_SUCCESS, "2D depth image %d", err);
    clReleaseMemObject(dimg);
    clCreateImage(ctx, 0, &fmt, NULL, NULL, &err);
    CHECK(err == CL_INVALID_IMAGE_DESCRIPTOR, "null descriptor %d", err);
    cl_image_desc d = desc;
    d.image_type = CL_MEM_OBJECT_BUFFER;
    clCreateImage(ctx, 0, &fmt, &d, NULL, &err);
    CHECK(err == CL_INVALID_IMAGE_DESCRIPTOR, "buffer type %d", err);
    /* cl_khr_mipmap_image: a 4x4 image has at most log2(4) + 1 = 3 levels. */
    d = desc;
    d.num_mip_levels = 2;
    cl_mem mip = clCreateImage(ctx, 0, &fmt, &d, NULL, &err);
    CHECK(err == CL_SUCCESS, "2 mip levels %d", err);
    clReleaseMemObject(mip);
    d.num_mip_levels = 4;
    clCreateImage(ctx, 0, &fmt, &d, NULL, &err);
    CHECK(err == CL_INVALID_IMAGE_DESCRIPTOR, "4 mip levels of a 4x4 image %d", err);
    /* A mipmapped 3D image names its level in origin[3] (4-element origins): level 1 of a
       4x4x4 image is 2x2x2 (4-byte texels); write it whole, read it back, level 0 stays zero. */
    cl_image_desc m3 = {.image_type = CL_MEM_OBJECT_IMAGE3D, .image_width = 4, .image_height = 4,
                        .image_depth = 4, .num_mip_levels = 2};
    cl_mem mip3 = clCreateImage(ctx, 0, &fmt, &m3, NULL, &err);
    CHECK(err == CL_SUCCESS, "mipmapped 3D image %d", err);
    unsigned char lv1[32], lv1_back[32], lv0_back[32];
    for (int k = 0; k < 32; k++) lv1[k] = (unsigned char)(3 * k + 1);
    size_t level1[4] = {0, 0, 0, 1}, level0[4] = {0, 0, 0, 0}, level2[4] = {0, 0, 0, 2};
    size_t r222[3] = {2, 2, 2};
    EXPECT_CODE(clEnqueueWriteImage(q, mip3, CL_TRUE, level1, r222, 0, 0, lv1, 0, NULL, NULL), CL_SUCCESS);
    EXPECT_CODE(clEnqueueReadImage(q, mip3, CL_TRUE, level1, r222, 0, 0, lv1_back, 0, NULL, NULL), CL_SUCCESS);
    CHECK(memcmp(lv1, lv1_back, 32) == 0, "level 1 of a mipmapped 3D image round trip");
    EXPECT_CODE(clEnqueueReadImage(q, mip3, CL_TRUE, level0, r222, 0, 0, lv0_back, 0, NULL, NULL), CL_SUCCESS);
    int zero_level0 = 1;
    for (int k = 0; k < 32; k++) zero_level0 &= lv0_back[k] == 0;
    CHECK(zero_level0, "level 0 untouched by a level 1 write");
    EXPECT_CODE(clEnqueueReadImage(q, mip3, CL_TRUE, level2, r222, 0, 0, lv0_back, 0, NULL, NULL), CL_INVALID_MIP_LEVEL);
    clReleaseMemObject(mip3);
    d = desc;
    d.image_row_pitch = 16;
    clCreateImage(ctx, 0, &fmt, &d, NULL, &err);
    CHECK(err == CL_INVALID_IMAGE_DESCRIPTOR, "row pitch without host_ptr %d", err);
    unsigned char host[256];
    d.image_row_pitch = 15;
    clCreateImage(ctx, CL_MEM_COPY_HOST_PTR, &fmt, &d, host, &err);
    CHECK(err == CL_INVALID_IMAGE_DESCRIPTOR, "row pitch under width x 4 %d", err);
    d = desc;
    d.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER;
    clCreateImage(ctx, 0, &fmt, &d, NULL, &err);
    CHECK(err == CL_INVALID_IMAGE_DESCRIPTOR, "1D image buffer without a buffer %d", err);
    d = desc;
    d.image_width = 0;
    clCreateImage(ctx, 0, &fmt, &d, NULL, &err);
    CHECK(err == CL_INVALID_IMAGE_SIZE, "width 0 %d", err);
    d.image_width = 1 << 20;
    clCreateImage(ctx, 0, &fmt, &d, NULL, &err);
    CHECK(err == CL_INVALID_IMAGE_SIZE, "width over the maximum %d", err);
    clCreateImage(ctx, 0, &fmt, &desc, host, &err);
    CHECK(err == CL_INVALID_HOST_PTR, "host_ptr without a flag %d", err);
    clCreateImage(ctx, CL_MEM_USE_HOST_PTR, &fmt, &desc, NULL, &err);
    CHECK(err == CL_INVALID_HOST_PTR, "USE_HOST_PTR without host_ptr %d", err);
    clCreateImage(ctx, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, &fmt, &desc, NULL, &err);
    CHECK(err == CL_INVALID_VALUE, "two access flags %d", err);
    clCreateImage((cl_context)q, 0, &fmt, &desc, NULL, &err);
    CHECK(err == CL_INVALID_CONTEXT, "queue as context %d", err);
    cl_mem_properties props[] = {0x7777, 0};
    clCreateImageWithProperties(ctx, props, 0, &fmt, &desc, NULL, &err);
    CHECK(err == CL_INVALID_PROPERTY, "unknown image property %d", err);
    cl_mem_properties none[] = {0};
    cl_mem ok = clCreateImageWithProperties(ctx, none, 0, &fmt, &desc, NULL, &err);
    CHECK(err == CL_SUCCESS, "clCreateImageWithProperties %d", err);
    size_t psize = 99;
    clGetMemObjectInfo(ok, CL_MEM_PROPERTIES, 0, NULL, &psize);
    CHECK(psize == sizeof(cl_mem_properties), "CL_MEM_PROPERTIES size %zu", psize);
    /* Host access flags. */
    cl_mem hna = clCreateImage(ctx, CL_MEM_HOST_NO_ACCESS, &fmt, &desc, NULL, &err);
    unsigned char px[4];
    size_t o[3] = {0, 0, 0}, r[3] = {1, 1, 1}, row;
    EXPECT_CODE(clEnqueueReadImage(q, hna, CL_TRUE, o, r, 0, 0, px, 0, NULL, NULL), CL_INVALID_OPERATION);
    EXPECT_CODE(clEnqueueWriteImage(q, hna, CL_TRUE, o, r, 0, 0, px, 0, NULL, NULL), CL_INVALID_OPERATION);
    clEnqueueMapImage(q, hna, CL_TRUE, CL_MAP_READ, o, r, &row, NULL, 0, NULL, NULL, &err);
    CHECK(err == CL_INVALID_OPERATION, "map of a host-no-access image %d", err);
    clReleaseMemObject(hna);
    clReleaseMemObject(ok);
}

static void samplers(cl_context ctx) {
    cl_int err;
    cl_sampler s = clCreateSampler(ctx, CL_TRUE, CL_ADDRESS_REPEAT, CL_FILTER_LINEAR, &err);
    CHECK(err == CL_SUCCESS, "clCreateSampler %d", err);
    cl_bool norm = 0;
    cl_addressing_mode am = 0;
    cl_filter_mode fm = 0;
    cl_uint refs = 0;
    cl_context c = NULL;
    clGetSamplerInfo(s, CL_SAMPLER_NORMALIZED_COORDS, sizeof norm, &norm, NULL);
    clGetSamplerInfo(s, CL_SAMPLER_ADDRESSING_MODE, sizeof am, &am, NULL);
    clGetSamplerInfo(s, CL_SAMPLER_FILTER_MODE, sizeof fm, &fm, NULL);
    clGetSamplerInfo(s, CL_SAMPLER_CONTEXT, sizeof c, &c, NULL);
    CHECK(norm == CL_TRUE && am == CL_ADDRESS_REPEAT && fm == CL_FILTER_LINEAR && c == ctx, "sampler info");
    EXPECT_CODE(clRetainSampler(s), CL_SUCCESS);
    clGetSamplerInfo(s, CL_SAMPLER_REFERENCE_COUNT, sizeof refs, &refs, NULL);
    CHECK(refs == 2, "sampler reference count %u", refs);
    EXPECT_CODE(clReleaseSampler(s), CL_SUCCESS);
    EXPECT_CODE(clGetSamplerInfo(s, 0xFFFF, sizeof refs, &refs, NULL), CL_INVALID_VALUE);
    EXPECT_CODE(clReleaseSampler(s), CL_SUCCESS);
    EXPECT_CODE(clGetSamplerInfo((cl_sampler)ctx, CL_SAMPLER_REFERENCE_COUNT, sizeof refs, &refs, NULL), CL_INVALID_SAMPLER);

    /* With properties: defaults are normalized, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST. */
    cl_sampler_properties props[] = {CL_SAMPLER_NORMALIZED_COORDS, CL_FALSE, CL_SAMPLER_ADDRESSING_MODE,
                                     CL_ADDRESS_CLAMP_TO_EDGE, 0};
    s = clCreateSamplerWithProperties(ctx, props, &err);
    CHECK(err == CL_SUCCESS, "clCreateSamplerWithProperties %d", err);
    clGetSamplerInfo(s, CL_SAMPLER_NORMALIZED_COORDS, sizeof norm, &norm, NULL);
    clGetSamplerInfo(s, CL_SAMPLER_ADDRESSING_MODE, sizeof am, &am, NULL);
    clGetSamplerInfo(s, CL_SAMPLER_FILTER_MODE, sizeof fm, &fm, NULL);
    CHECK(norm == CL_FALSE && am == CL_ADDRESS_CLAMP_TO_EDGE && fm == CL_FILTER_NEAREST, "sampler properties");
    cl_sampler_properties back[5] = {0};
    size_t size = 0;
    clGetSamplerInfo(s, CL_SAMPLER_PROPERTIES, sizeof back, back, &size);
    CHECK(size == sizeof props && memcmp(back, props, sizeof props) == 0, "CL_SAMPLER_PROPERTIES %zu", size);
    clReleaseSampler(s);
    s = clCreateSamplerWithProperties(ctx, NULL, &err);
    CHECK(err == CL_SUCCESS, "sampler without properties %d", err);
    clGetSamplerInfo(s, CL_SAMPLER_NORMALIZED_COORDS, sizeof norm, &norm, NULL);
    clGetSamplerInfo(s, CL_SAMPLER_ADDRESSING_MODE, sizeof am, &am, NULL);
    CHECK(norm == CL_TRUE && am == CL_ADDRESS_CLAMP, "sampler defaults");
    clGetSamplerInfo(s, CL_SAMPLER_PROPERTIES, 0, NULL, &size);
    CHECK(size == 0, "no properties given: size %zu", size);
    clReleaseSampler(s);

    cl_sampler_properties dup[] = {CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, 0};
    clCreateSamplerWithProperties(ctx, dup, &err);
    CHECK(err == CL_INVALID_VALUE, "duplicate sampler property %d", err);
    cl_sampler_properties unknown[] = {0x7777, 1, 0};
    clCreateSamplerWithProperties(ctx, unknown, &err);
    CHECK(err == CL_INVALID_VALUE, "unknown sampler property %d", err);
    cl_sampler_properties bad_mode[] = {CL_SAMPLER_ADDRESSING_MODE, 0x1200, 0};
    clCreateSamplerWithProperties(ctx, bad_mode, &err);
    CHECK(err == CL_INVALID_VALUE, "bad addressing mode %d", err);
    clCreateSampler(ctx, CL_TRUE, CL_ADDRESS_CLAMP, 0x1234, &err);
    CHECK(err == CL_INVALID_VALUE, "bad filter mode %d", err);
    clCreateSampler((cl_context)q, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err);
    CHECK(err == CL_INVALID_CONTEXT, "queue as context %d", err);
}

static void kernel_args(cl_context ctx, cl_device_id device) {
    cl_int err;
    const char *src = "__kernel void k(__global int *p) { p[0] = 1; }\n";
    cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    EXPECT_CODE(clBuildProgram(prog, 1, &device, "", NULL, NULL), CL_SUCCESS);
    cl_kernel k = clCreateKernel(prog, "k", &err);
    cl_image_format fmt = {CL_R, CL_FLOAT};
    cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE1D, .image_width = 4};
    cl_mem img = clCreateImage(ctx, 0, &fmt, &desc, NULL, &err);
    /* An image given for a buffer argument. */
    EXPECT_CODE(clSetKernelArg(k, 0, sizeof img, &img), CL_INVALID_MEM_OBJECT);
    clReleaseKernel(k);
    clReleaseProgram(prog);

    /* A sampler_t argument takes a cl_sampler (API 5.9.2). */
    const char *ssrc = "__kernel void s(sampler_t smp, __global int *p) { p[get_global_id(0)] = 5; }\n";
    prog = clCreateProgramWithSource(ctx, 1, &ssrc, NULL, &err);
    EXPECT_CODE(clBuildProgram(prog, 1, &device, "", NULL, NULL), CL_SUCCESS);
    k = clCreateKernel(prog, "s", &err);
    CHECK(err == CL_SUCCESS, "sampler kernel %d", err);
    cl_sampler smp = clCreateSampler(ctx, CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST, &err);
    EXPECT_CODE(clSetKernelArg(k, 0, 4, &smp), CL_INVALID_ARG_SIZE);
    EXPECT_CODE(clSetKernelArg(k, 0, sizeof smp, &img), CL_INVALID_SAMPLER);
    EXPECT_CODE(clSetKernelArg(k, 0, sizeof smp, NULL), CL_INVALID_SAMPLER);
    EXPECT_CODE(clSetKernelArg(k, 1, sizeof smp, &smp), CL_INVALID_MEM_OBJECT);
    EXPECT_CODE(clSetKernelArg(k, 0, sizeof smp, &smp), CL_SUCCESS);
    cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 8, NULL, &err);
    EXPECT_CODE(clSetKernelArg(k, 1, sizeof out, &out), CL_SUCCESS);
    size_t global = 2;
    EXPECT_CODE(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL), CL_SUCCESS);
    cl_int res[2] = {0, 0};
    EXPECT_CODE(clEnqueueReadBuffer(q, out, CL_TRUE, 0, 8, res, 0, NULL, NULL), CL_SUCCESS);
    CHECK(res[0] == 5 && res[1] == 5, "kernel with a sampler argument ran: %d %d", res[0], res[1]);
    clReleaseMemObject(out);
    clReleaseSampler(smp);
    clReleaseMemObject(img);
    clReleaseKernel(k);
    clReleaseProgram(prog);
}

int main(void) {
    cl_platform_id platform = oxcl_platform();
    cl_device_id device;
    cl_int err;
    clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err == CL_SUCCESS, "context %d", err);
    q = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
    CHECK(err == CL_SUCCESS, "queue %d", err);
    device_queries(device);
    supported_formats(ctx);
    rgba8_2d(ctx);
    fills_of_other_formats(ctx);
    arrays_3d_and_map(ctx);
    buffer_images(ctx);
    creation_errors(ctx);
    samplers(ctx);
    kernel_args(ctx, device);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return finish();
}
