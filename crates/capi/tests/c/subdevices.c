/* Sub-devices (API 4.3, clCreateSubDevices): partitions equally and by counts, the queries of
 * root and sub-devices, reference counting, a second-level partition, a kernel run on a
 * sub-device's queue, and the documented error codes. Expected values are computed here from
 * the root device's compute units. */
#include "common.h"

static cl_uint units_of(cl_device_id d) {
    cl_uint u = 0;
    clGetDeviceInfo(d, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof u, &u, NULL);
    return u;
}

static cl_uint refs_of(cl_device_id d) {
    cl_uint r = 0;
    clGetDeviceInfo(d, CL_DEVICE_REFERENCE_COUNT, sizeof r, &r, NULL);
    return r;
}

int main(void) {
    cl_platform_id platform = oxcl_platform();
    cl_device_id root;
    cl_int err;
    clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &root, NULL);
    cl_uint cu = units_of(root);
    CHECK(cu >= 1, "compute units %u", cu);

    /* The root device. */
    cl_uint max_sub = 0;
    clGetDeviceInfo(root, CL_DEVICE_PARTITION_MAX_SUB_DEVICES, sizeof max_sub, &max_sub, NULL);
    CHECK(max_sub == cu, "max sub-devices %u", max_sub);
    cl_device_partition_property props[8] = {0};
    size_t size = 0;
    clGetDeviceInfo(root, CL_DEVICE_PARTITION_PROPERTIES, sizeof props, props, &size);
    int equally = 0, by_counts = 0;
    for (size_t i = 0; i < size / sizeof *props; i++) {
        equally |= props[i] == CL_DEVICE_PARTITION_EQUALLY;
        by_counts |= props[i] == CL_DEVICE_PARTITION_BY_COUNTS;
    }
    CHECK(equally && by_counts, "partition properties");
    cl_device_id parent = (cl_device_id)1;
    clGetDeviceInfo(root, CL_DEVICE_PARENT_DEVICE, sizeof parent, &parent, NULL);
    CHECK(parent == NULL, "root parent %p", (void *)parent);
    size = 99;
    clGetDeviceInfo(root, CL_DEVICE_PARTITION_TYPE, 0, NULL, &size);
    CHECK(size == 0, "root partition type size %zu", size);
    CHECK(refs_of(root) == 1, "root reference count");
    EXPECT_CODE(clRetainDevice(root), CL_SUCCESS);
    EXPECT_CODE(clReleaseDevice(root), CL_SUCCESS);
    CHECK(refs_of(root) == 1, "root reference count unchanged");

    /* Equally, one compute unit each: as many sub-devices as compute units. */
    cl_device_partition_property eq1[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
    cl_uint n = 0;
    EXPECT_CODE(clCreateSubDevices(root, eq1, 0, NULL, &n), CL_SUCCESS);
    CHECK(n == cu, "equally 1: %u sub-devices", n);
    cl_device_id *subs = calloc(n, sizeof *subs);
    EXPECT_CODE(clCreateSubDevices(root, eq1, n, subs, NULL), CL_SUCCESS);
    for (cl_uint i = 0; i < n; i++) {
        CHECK(units_of(subs[i]) == 1, "sub-device %u units", i);
        clGetDeviceInfo(subs[i], CL_DEVICE_PARENT_DEVICE, sizeof parent, &parent, NULL);
        CHECK(parent == root, "sub-device %u parent", i);
        cl_device_partition_property type[4] = {0};
        clGetDeviceInfo(subs[i], CL_DEVICE_PARTITION_TYPE, sizeof type, type, &size);
        CHECK(size == 3 * sizeof *type && type[0] == CL_DEVICE_PARTITION_EQUALLY && type[1] == 1 &&
                  type[2] == 0,
              "sub-device %u partition type", i);
        CHECK(refs_of(subs[i]) == 1, "sub-device %u count", i);
    }
    EXPECT_CODE(clRetainDevice(subs[0]), CL_SUCCESS);
    CHECK(refs_of(subs[0]) == 2, "retained sub-device");
    EXPECT_CODE(clReleaseDevice(subs[0]), CL_SUCCESS);
    CHECK(refs_of(subs[0]) == 1, "released once");

    /* A kernel on the first sub-device. */
    cl_context ctx = clCreateContext(NULL, 1, &subs[0], NULL, NULL, &err);
    CHECK(ctx != NULL && err == CL_SUCCESS, "context on a sub-device: %d", err);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, subs[0], NULL, &err);
    CHECK(q != NULL && err == CL_SUCCESS, "queue on a sub-device: %d", err);
    cl_device_id qdev = NULL;
    clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof qdev, &qdev, NULL);
    CHECK(qdev == subs[0], "queue device");
    const char *src = "kernel void sq(global int *p) { int i = get_global_id(0); p[i] = i * i; }";
    cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    EXPECT_CODE(clBuildProgram(prog, 1, &subs[0], "", NULL, NULL), CL_SUCCESS);
    cl_kernel k = clCreateKernel(prog, "sq", &err);
    enum { N = 4096 };
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * sizeof(int), NULL, &err);
    clSetKernelArg(k, 0, sizeof buf, &buf);
    size_t global = N, local = 64;
    EXPECT_CODE(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL),
                CL_SUCCESS);
    int *out = malloc(N * sizeof(int));
    EXPECT_CODE(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, N * sizeof(int), out, 0, NULL, NULL),
                CL_SUCCESS);
    int good = 1;
    for (int i = 0; i < N; i++) good &= out[i] == i * i;
    CHECK(good, "kernel on a sub-device");
    free(out);
    clReleaseMemObject(buf);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);

    /* A second-level partition of a one-unit sub-device. */
    cl_device_id grand = NULL;
    EXPECT_CODE(clCreateSubDevices(subs[0], eq1, 1, &grand, &n), CL_SUCCESS);
    CHECK(n == 1 && units_of(grand) == 1, "second level: %u", n);
    clGetDeviceInfo(grand, CL_DEVICE_PARENT_DEVICE, sizeof parent, &parent, NULL);
    CHECK(parent == subs[0], "second-level parent");
    EXPECT_CODE(clReleaseDevice(grand), CL_SUCCESS);

    /* By counts. */
    cl_device_partition_property counts1[] = {CL_DEVICE_PARTITION_BY_COUNTS, 1,
                                              CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
    cl_device_id one = NULL;
    EXPECT_CODE(clCreateSubDevices(root, counts1, 1, &one, &n), CL_SUCCESS);
    CHECK(n == 1 && units_of(one) == 1, "by counts {1}");
    cl_device_partition_property type[6] = {0};
    clGetDeviceInfo(one, CL_DEVICE_PARTITION_TYPE, sizeof type, type, &size);
    CHECK(size == 4 * sizeof *type && type[0] == CL_DEVICE_PARTITION_BY_COUNTS && type[1] == 1 &&
              type[2] == CL_DEVICE_PARTITION_BY_COUNTS_LIST_END && type[3] == 0,
          "by counts partition type");
    EXPECT_CODE(clReleaseDevice(one), CL_SUCCESS);
    if (cu >= 2) {
        cl_device_partition_property counts11[] = {CL_DEVICE_PARTITION_BY_COUNTS, 1, 1,
                                                   CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
        cl_device_id two[2] = {NULL, NULL};
        EXPECT_CODE(clCreateSubDevices(root, counts11, 2, two, &n), CL_SUCCESS);
        CHECK(n == 2 && units_of(two[0]) == 1 && units_of(two[1]) == 1, "by counts {1, 1}");
        clReleaseDevice(two[0]);
        clReleaseDevice(two[1]);
    }

    /* Errors (API 4.3). */
    cl_device_id dummy[64];
    EXPECT_CODE(clCreateSubDevices(NULL, eq1, 1, dummy, NULL), CL_INVALID_DEVICE);
    EXPECT_CODE(clCreateSubDevices(root, NULL, 1, dummy, NULL), CL_INVALID_VALUE);
    cl_device_partition_property eq0[] = {CL_DEVICE_PARTITION_EQUALLY, 0, 0};
    EXPECT_CODE(clCreateSubDevices(root, eq0, 64, dummy, NULL), CL_INVALID_VALUE);
    cl_device_partition_property eq_big[] = {CL_DEVICE_PARTITION_EQUALLY, (cl_int)cu + 1, 0};
    EXPECT_CODE(clCreateSubDevices(root, eq_big, 64, dummy, NULL), CL_DEVICE_PARTITION_FAILED);
    cl_device_partition_property counts_big[] = {CL_DEVICE_PARTITION_BY_COUNTS, (cl_int)cu + 1,
                                                 CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
    EXPECT_CODE(clCreateSubDevices(root, counts_big, 64, dummy, NULL),
                CL_INVALID_DEVICE_PARTITION_COUNT);
    cl_device_partition_property counts_neg[] = {CL_DEVICE_PARTITION_BY_COUNTS, -1,
                                                 CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
    EXPECT_CODE(clCreateSubDevices(root, counts_neg, 64, dummy, NULL),
                CL_INVALID_DEVICE_PARTITION_COUNT);
    EXPECT_CODE(clCreateSubDevices(root, eq1, 0, dummy, NULL), CL_INVALID_VALUE);
    cl_device_partition_property unknown[] = {0x4242, 1, 0};
    EXPECT_CODE(clCreateSubDevices(root, unknown, 64, dummy, NULL), CL_INVALID_VALUE);
    cl_device_partition_property affinity[] = {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
                                               CL_DEVICE_AFFINITY_DOMAIN_NUMA, 0};
    EXPECT_CODE(clCreateSubDevices(root, affinity, 64, dummy, NULL), CL_INVALID_VALUE);

    /* Releasing: the context keeps its sub-device; the others go. */
    for (cl_uint i = 0; i < cu; i++) EXPECT_CODE(clReleaseDevice(subs[i]), CL_SUCCESS);
    CHECK(units_of(subs[0]) == 1, "a sub-device its context holds stays valid");
    EXPECT_CODE(clReleaseDevice(subs[0]), CL_INVALID_DEVICE);
    clReleaseContext(ctx);
    free(subs);
    return finish();
}
