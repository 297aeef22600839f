/* Consistency of what the device reports (API 4.2 and the OpenCL C 3.0 "Features" table):
 * every optional feature is reported the same way by each query that describes it, its
 * OpenCL C feature macro is defined exactly when the device reports it, and the extensions
 * that name a supported feature are listed. The rules come from the query descriptions of
 * the API specification (for example "CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS ... 0 if the
 * device does not support read-write images"). Run with images on and off. */
#include "common.h"
#include <CL/cl_ext.h> /* CL_DEVICE_HALF_FP_CONFIG (cl_khr_fp16) */

static cl_device_id device;
static cl_context ctx;
static char extensions[8192];

static int has_extension(const char *name) {
    size_t n = strlen(name);
    for (const char *p = extensions; (p = strstr(p, name)) != NULL; p += n) {
        int starts = p == extensions || p[-1] == ' ';
        int ends = p[n] == '\0' || p[n] == ' ';
        if (starts && ends) return 1;
    }
    return 0;
}

static cl_ulong info_ulong(cl_device_info q) {
    cl_ulong v = 0;
    size_t size = 0;
    cl_int err = clGetDeviceInfo(device, q, sizeof v, &v, &size);
    CHECK(err == CL_SUCCESS, "query %#x: %d", q, err);
    return size == 4 ? (cl_ulong)(cl_uint)v : v;
}

/* The feature names of CL_DEVICE_OPENCL_C_FEATURES. */
static cl_name_version features[64];
static cl_uint feature_count = 0;

static int has_feature(const char *name) {
    for (cl_uint i = 0; i < feature_count; i++)
        if (strcmp(features[i].name, name) == 0) return 1;
    return 0;
}

/* Whether `-cl-std=CL3.0` defines the macro `name` (a kernel that fails to build otherwise). */
static int macro_defined(const char *name) {
    char src[512];
    snprintf(src, sizeof src,
             "#ifndef %s\n#error \"not defined\"\n#endif\nkernel void k(global int *p) { *p = 1; }\n",
             name);
    const char *s = src;
    cl_int err;
    cl_program p = clCreateProgramWithSource(ctx, 1, &s, NULL, &err);
    err = clBuildProgram(p, 1, &device, "-cl-std=CL3.0", NULL, NULL);
    clReleaseProgram(p);
    return err == CL_SUCCESS;
}

static cl_uint format_count(cl_mem_flags flags, cl_mem_object_type type, cl_uint order) {
    cl_uint n = 0;
    clGetSupportedImageFormats(ctx, flags, type, 0, NULL, &n);
    if (order == 0 || n == 0) return n;
    cl_image_format *f = malloc(n * sizeof *f);
    clGetSupportedImageFormats(ctx, flags, type, n, f, NULL);
    cl_uint matching = 0;
    for (cl_uint i = 0; i < n; i++) matching += f[i].image_channel_order == order;
    free(f);
    return matching;
}

int main(void) {
    cl_platform_id platform = oxcl_platform();
    cl_int err;
    clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
    ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err == CL_SUCCESS, "context: %d", err);
    clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, sizeof extensions, extensions, NULL);
    size_t size = 0;
    clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES, sizeof features, features, &size);
    feature_count = (cl_uint)(size / sizeof(cl_name_version));
    CHECK(feature_count > 0, "CL_DEVICE_OPENCL_C_FEATURES is empty");

    /* Every reported feature's macro is defined, and a feature not reported is not. */
    static const char *all_features[] = {
        "__opencl_c_3d_image_writes", "__opencl_c_atomic_order_acq_rel",
        "__opencl_c_atomic_order_seq_cst", "__opencl_c_atomic_scope_device",
        "__opencl_c_atomic_scope_all_devices", "__opencl_c_device_enqueue",
        "__opencl_c_generic_address_space", "__opencl_c_fp64", "__opencl_c_images",
        "__opencl_c_int64", "__opencl_c_pipes", "__opencl_c_program_scope_global_variables",
        "__opencl_c_read_write_images", "__opencl_c_subgroups",
        "__opencl_c_work_group_collective_functions",
    };
    for (size_t i = 0; i < sizeof all_features / sizeof *all_features; i++) {
        const char *f = all_features[i];
        CHECK(macro_defined(f) == has_feature(f), "%s: macro %d, reported %d", f,
              macro_defined(f), has_feature(f));
    }

    /* Features and the queries that describe them (API 4.2, clGetDeviceInfo). */
    CHECK(has_feature("__opencl_c_generic_address_space") ==
              (info_ulong(CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT) == CL_TRUE),
          "generic address space");
    CHECK(has_feature("__opencl_c_work_group_collective_functions") ==
              (info_ulong(CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT) == CL_TRUE),
          "work-group collective functions");
    int pipes = info_ulong(CL_DEVICE_PIPE_SUPPORT) == CL_TRUE;
    CHECK(has_feature("__opencl_c_pipes") == pipes, "pipes");
    CHECK(pipes == (info_ulong(CL_DEVICE_MAX_PIPE_ARGS) != 0), "pipe args");
    CHECK(pipes == (info_ulong(CL_DEVICE_PIPE_MAX_PACKET_SIZE) != 0), "pipe packet size");
    CHECK(!pipes || info_ulong(CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT) == CL_TRUE,
          "pipes need the generic address space");
    cl_ulong dse = info_ulong(CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES);
    CHECK(has_feature("__opencl_c_device_enqueue") == (dse != 0), "device enqueue");
    CHECK((dse != 0) == (info_ulong(CL_DEVICE_MAX_ON_DEVICE_QUEUES) != 0), "on-device queues");
    CHECK(!(dse & CL_DEVICE_QUEUE_REPLACEABLE_DEFAULT) || (dse & CL_DEVICE_QUEUE_SUPPORTED),
          "replaceable default without queues");
    CHECK(dse == 0 || (has_feature("__opencl_c_generic_address_space") &&
                       has_feature("__opencl_c_program_scope_global_variables")),
          "device enqueue needs the generic address space and program-scope globals");
    CHECK(has_feature("__opencl_c_program_scope_global_variables") ==
              (info_ulong(CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE) != 0),
          "program-scope global variables");
    CHECK(has_feature("__opencl_c_subgroups") == (info_ulong(CL_DEVICE_MAX_NUM_SUB_GROUPS) != 0),
          "sub-groups");
    CHECK(has_feature("__opencl_c_subgroups") == has_extension("cl_khr_subgroups"),
          "cl_khr_subgroups");
    CHECK(has_feature("__opencl_c_fp64") == has_extension("cl_khr_fp64"), "fp64");
    CHECK(has_extension("cl_khr_fp64") == (info_ulong(CL_DEVICE_DOUBLE_FP_CONFIG) != 0),
          "double config");
    cl_ulong half_config = 0;
    err = clGetDeviceInfo(device, CL_DEVICE_HALF_FP_CONFIG, sizeof half_config, &half_config,
                          NULL);
    CHECK(has_extension("cl_khr_fp16") == (err == CL_SUCCESS && half_config != 0),
          "half config: %d %#llx", err, (unsigned long long)half_config);
    CHECK(has_extension("cl_khr_fp16") ==
              (info_ulong(CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF) != 0),
          "half vector width");
    CHECK(has_feature("__opencl_c_int64"), "full profile devices have 64-bit integers");

    /* Atomic capabilities and the atomic features (OpenCL C 3.0 feature table). */
    cl_ulong atomics = info_ulong(CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES);
    CHECK((atomics & (CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP)) ==
              (CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP),
          "minimum atomic capabilities");
    CHECK(has_feature("__opencl_c_atomic_order_acq_rel") ==
              !!(atomics & CL_DEVICE_ATOMIC_ORDER_ACQ_REL), "acq_rel");
    CHECK(has_feature("__opencl_c_atomic_order_seq_cst") ==
              !!(atomics & CL_DEVICE_ATOMIC_ORDER_SEQ_CST), "seq_cst");
    CHECK(has_feature("__opencl_c_atomic_scope_device") ==
              !!(atomics & CL_DEVICE_ATOMIC_SCOPE_DEVICE), "device scope");
    CHECK(has_feature("__opencl_c_atomic_scope_all_devices") ==
              !!(atomics & CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES), "all-devices scope");

    /* IL programs. */
    char il[256] = {0};
    clGetDeviceInfo(device, CL_DEVICE_IL_VERSION, sizeof il, il, NULL);
    size = 0;
    clGetDeviceInfo(device, CL_DEVICE_ILS_WITH_VERSION, 0, NULL, &size);
    CHECK((il[0] != 0) == (size != 0), "IL version and ILs with version");
    CHECK((il[0] != 0) == has_extension("cl_khr_il_program"), "cl_khr_il_program");

    /* Images. */
    int images = info_ulong(CL_DEVICE_IMAGE_SUPPORT) == CL_TRUE;
    CHECK(has_feature("__opencl_c_images") == images, "images");
    cl_uint rw_formats = 0;
    cl_mem_object_type types[] = {CL_MEM_OBJECT_IMAGE1D,       CL_MEM_OBJECT_IMAGE1D_BUFFER,
                                  CL_MEM_OBJECT_IMAGE2D,       CL_MEM_OBJECT_IMAGE3D,
                                  CL_MEM_OBJECT_IMAGE1D_ARRAY, CL_MEM_OBJECT_IMAGE2D_ARRAY};
    for (int i = 0; i < 6; i++) rw_formats += format_count(CL_MEM_KERNEL_READ_AND_WRITE, types[i], 0);
    int rw_images = info_ulong(CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS) != 0;
    CHECK(rw_images == (rw_formats != 0), "read-write image args %d, formats %u", rw_images,
          rw_formats);
    CHECK(has_feature("__opencl_c_read_write_images") == rw_images, "read-write images");
    cl_uint writes_3d = format_count(CL_MEM_WRITE_ONLY, CL_MEM_OBJECT_IMAGE3D, 0) +
                        format_count(CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE3D, 0) +
                        format_count(CL_MEM_KERNEL_READ_AND_WRITE, CL_MEM_OBJECT_IMAGE3D, 0);
    CHECK((writes_3d != 0) == has_extension("cl_khr_3d_image_writes"), "3D image writes");
    CHECK(has_feature("__opencl_c_3d_image_writes") == has_extension("cl_khr_3d_image_writes"),
          "3D image writes feature");
    cl_uint depth = format_count(CL_MEM_WRITE_ONLY, CL_MEM_OBJECT_IMAGE2D, CL_DEPTH) +
                    format_count(CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, CL_DEPTH) +
                    format_count(CL_MEM_KERNEL_READ_AND_WRITE, CL_MEM_OBJECT_IMAGE2D, CL_DEPTH);
    CHECK((depth != 0) == has_extension("cl_khr_depth_images"), "depth images");
    int from_buffer = info_ulong(CL_DEVICE_IMAGE_PITCH_ALIGNMENT) != 0 &&
                      info_ulong(CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT) != 0;
    CHECK(from_buffer == has_extension("cl_khr_image2d_from_buffer"), "2D images from buffers");
    if (from_buffer) {
        /* Then a 2D image is made from a buffer. */
        cl_mem buffer = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4 * 4 * 4, NULL, &err);
        cl_image_format format = {CL_RGBA, CL_UNORM_INT8};
        cl_image_desc desc = {0};
        desc.image_type = CL_MEM_OBJECT_IMAGE2D;
        desc.image_width = 4;
        desc.image_height = 4;
        desc.mem_object = buffer;
        cl_mem image = clCreateImage(ctx, CL_MEM_READ_WRITE, &format, &desc, NULL, &err);
        CHECK(image != NULL && err == CL_SUCCESS, "2D image from a buffer: %d", err);
        if (image) clReleaseMemObject(image);
        clReleaseMemObject(buffer);
    }

    /* SVM: what the capabilities claim works. */
    cl_ulong svm = info_ulong(CL_DEVICE_SVM_CAPABILITIES);
    void *p = clSVMAlloc(ctx, CL_MEM_READ_WRITE, 64, 0);
    CHECK((svm != 0) == (p != NULL), "SVM capabilities %#llx, clSVMAlloc %p",
          (unsigned long long)svm, p);
    if (p) clSVMFree(ctx, p);
    if (svm & CL_DEVICE_SVM_FINE_GRAIN_BUFFER) {
        p = clSVMAlloc(ctx, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER, 64, 0);
        CHECK(p != NULL, "fine-grained SVM allocation");
        if (p) clSVMFree(ctx, p);
    }

    /* The OpenCL C versions: 2.0 only with every feature 2.0 made mandatory. */
    cl_name_version versions[16];
    size = 0;
    clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_ALL_VERSIONS, sizeof versions, versions, &size);
    int has_20 = 0, has_12 = 0, has_30 = 0;
    for (size_t i = 0; i < size / sizeof *versions; i++) {
        has_20 |= versions[i].version == CL_MAKE_VERSION(2, 0, 0);
        has_12 |= versions[i].version == CL_MAKE_VERSION(1, 2, 0);
        has_30 |= versions[i].version == CL_MAKE_VERSION(3, 0, 0);
    }
    CHECK(has_12 && has_30, "OpenCL C 1.2 and 3.0 are listed");
    int all_20 = has_feature("__opencl_c_generic_address_space") && has_feature("__opencl_c_pipes") &&
                 has_feature("__opencl_c_device_enqueue") &&
                 has_feature("__opencl_c_program_scope_global_variables") &&
                 has_feature("__opencl_c_work_group_collective_functions") &&
                 has_feature("__opencl_c_atomic_order_seq_cst") &&
                 has_feature("__opencl_c_atomic_scope_all_devices");
    CHECK(!has_20 || all_20, "OpenCL C 2.0 listed without all of its features");
    if (has_20) {
        const char *src = "kernel void k(global int *p) { p[get_global_id(0)] = "
                          "work_group_reduce_add(1); }";
        cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
        err = clBuildProgram(prog, 1, &device, "-cl-std=CL2.0", NULL, NULL);
        CHECK(err == CL_SUCCESS, "-cl-std=CL2.0 builds: %d", err);
        clReleaseProgram(prog);
    }
    clReleaseContext(ctx);
    return finish();
}
