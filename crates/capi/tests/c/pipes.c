/* Pipes through the ICD loader (API 5.4): clCreatePipe and its errors, clGetPipeInfo,
 * clGetMemObjectInfo on a pipe, the CL_DEVICE_PIPE_* queries, clSetKernelArg with a pipe, and a
 * producer and a consumer kernel (argv[1]: their SPIR-V made by clang + llvm-spirv, or "-" to
 * skip) passing data through the pipe. Expected values are computed here. */
#include "common.h"

static cl_int read_file(const char *path, unsigned char **out, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    fseek(f, 0, SEEK_END);
    *len = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    *out = malloc(*len);
    size_t got = fread(*out, 1, *len, f);
    fclose(f);
    return got == *len ? 0 : -1;
}

#define N 512

int main(int argc, char **argv) {
    cl_platform_id platform = oxcl_platform();
    cl_device_id device;
    cl_int err;
    clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);

    cl_bool support = CL_FALSE;
    EXPECT_CODE(clGetDeviceInfo(device, CL_DEVICE_PIPE_SUPPORT, sizeof support, &support, NULL),
                CL_SUCCESS);
    CHECK(support == CL_TRUE, "CL_DEVICE_PIPE_SUPPORT %u", support);
    cl_uint max_args = 0, reservations = 0, packet = 0;
    clGetDeviceInfo(device, CL_DEVICE_MAX_PIPE_ARGS, sizeof max_args, &max_args, NULL);
    clGetDeviceInfo(device, CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS, sizeof reservations,
                    &reservations, NULL);
    clGetDeviceInfo(device, CL_DEVICE_PIPE_MAX_PACKET_SIZE, sizeof packet, &packet, NULL);
    /* Full-profile minimums of the Device Queries table. */
    CHECK(max_args >= 16, "CL_DEVICE_MAX_PIPE_ARGS %u", max_args);
    CHECK(reservations >= 1, "CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS %u", reservations);
    CHECK(packet >= 1024, "CL_DEVICE_PIPE_MAX_PACKET_SIZE %u", packet);

    /* clCreatePipe errors. */
    cl_mem bad = clCreatePipe(ctx, 0, 0, 4, NULL, &err);
    CHECK(bad == NULL && err == CL_INVALID_PIPE_SIZE, "packet size 0: %d", err);
    bad = clCreatePipe(ctx, 0, packet + 1, 4, NULL, &err);
    CHECK(bad == NULL && err == CL_INVALID_PIPE_SIZE, "packet size too large: %d", err);
    bad = clCreatePipe(ctx, 0, 4, 0, NULL, &err);
    CHECK(bad == NULL && err == CL_INVALID_PIPE_SIZE, "0 packets: %d", err);
    bad = clCreatePipe(ctx, CL_MEM_READ_ONLY, 4, 4, NULL, &err);
    CHECK(bad == NULL && err == CL_INVALID_VALUE, "CL_MEM_READ_ONLY: %d", err);
    cl_pipe_properties props[] = {0};
    bad = clCreatePipe(ctx, 0, 4, 4, props, &err);
    CHECK(bad == NULL && err == CL_INVALID_VALUE, "properties: %d", err);
    bad = clCreatePipe(NULL, 0, 4, 4, NULL, &err);
    CHECK(bad == NULL && err == CL_INVALID_CONTEXT, "no context: %d", err);

    cl_mem pipe = clCreatePipe(ctx, 0, sizeof(cl_int), N, NULL, &err);
    CHECK(pipe != NULL && err == CL_SUCCESS, "clCreatePipe %d", err);
    cl_uint value = 0;
    EXPECT_CODE(clGetPipeInfo(pipe, CL_PIPE_PACKET_SIZE, sizeof value, &value, NULL), CL_SUCCESS);
    CHECK(value == sizeof(cl_int), "CL_PIPE_PACKET_SIZE %u", value);
    EXPECT_CODE(clGetPipeInfo(pipe, CL_PIPE_MAX_PACKETS, sizeof value, &value, NULL), CL_SUCCESS);
    CHECK(value == N, "CL_PIPE_MAX_PACKETS %u", value);
    size_t size_ret = 99;
    EXPECT_CODE(clGetPipeInfo(pipe, CL_PIPE_PROPERTIES, 0, NULL, &size_ret), CL_SUCCESS);
    CHECK(size_ret == 0, "CL_PIPE_PROPERTIES size %zu", size_ret);
    EXPECT_CODE(clGetPipeInfo(pipe, 0x4242, sizeof value, &value, NULL), CL_INVALID_VALUE);
    cl_mem_object_type type = 0;
    clGetMemObjectInfo(pipe, CL_MEM_TYPE, sizeof type, &type, NULL);
    CHECK(type == CL_MEM_OBJECT_PIPE, "CL_MEM_TYPE %x", type);
    cl_mem_flags flags = 0;
    clGetMemObjectInfo(pipe, CL_MEM_FLAGS, sizeof flags, &flags, NULL);
    CHECK(flags == (CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS), "CL_MEM_FLAGS %lx",
          (unsigned long)flags);

    int data[N];
    for (int i = 0; i < N; i++) data[i] = 3 * i - 100;
    cl_mem src = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof data, data,
                                &err);
    cl_mem dst = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof data, NULL, &err);
    /* A buffer is not a pipe, and a pipe is not a buffer. */
    EXPECT_CODE(clGetPipeInfo(src, CL_PIPE_PACKET_SIZE, sizeof value, &value, NULL),
                CL_INVALID_MEM_OBJECT);
    EXPECT_CODE(clEnqueueReadBuffer(q, pipe, CL_TRUE, 0, 4, data, 0, NULL, NULL),
                CL_INVALID_MEM_OBJECT);

    if (argc > 1 && strcmp(argv[1], "-") != 0) {
        unsigned char *il;
        size_t len;
        CHECK(read_file(argv[1], &il, &len) == 0, "read %s", argv[1]);
        cl_program p = clCreateProgramWithIL(ctx, il, len, &err);
        CHECK(err == CL_SUCCESS, "clCreateProgramWithIL %d", err);
        err = clBuildProgram(p, 1, &device, "", NULL, NULL);
        if (err != CL_SUCCESS) {
            char log[4096] = {0};
            clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
            printf("build log: %s\n", log);
        }
        CHECK(err == CL_SUCCESS, "build from IL %d", err);
        cl_kernel produce = clCreateKernel(p, "produce", &err);
        CHECK(err == CL_SUCCESS, "produce %d", err);
        cl_kernel consume = clCreateKernel(p, "consume", &err);
        CHECK(err == CL_SUCCESS, "consume %d", err);
        EXPECT_CODE(clSetKernelArg(produce, 0, sizeof src, &src), CL_SUCCESS);
        /* A buffer for a pipe argument, a pipe for a buffer argument, a bad size. */
        EXPECT_CODE(clSetKernelArg(produce, 1, sizeof src, &src), CL_INVALID_MEM_OBJECT);
        EXPECT_CODE(clSetKernelArg(produce, 1, 4, &pipe), CL_INVALID_ARG_SIZE);
        EXPECT_CODE(clSetKernelArg(consume, 1, sizeof pipe, &pipe), CL_INVALID_MEM_OBJECT);
        EXPECT_CODE(clSetKernelArg(produce, 1, sizeof pipe, &pipe), CL_SUCCESS);
        EXPECT_CODE(clSetKernelArg(consume, 0, sizeof pipe, &pipe), CL_SUCCESS);
        EXPECT_CODE(clSetKernelArg(consume, 1, sizeof dst, &dst), CL_SUCCESS);
        size_t g = N, l = 32;
        EXPECT_CODE(clEnqueueNDRangeKernel(q, produce, 1, NULL, &g, &l, 0, NULL, NULL),
                    CL_SUCCESS);
        EXPECT_CODE(clEnqueueNDRangeKernel(q, consume, 1, NULL, &g, &l, 0, NULL, NULL),
                    CL_SUCCESS);
        int out[N];
        EXPECT_CODE(clEnqueueReadBuffer(q, dst, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL),
                    CL_SUCCESS);
        /* Every packet arrives once, in some order: compare counts of each value + 1 (the
         * consumer adds 1). */
        static int seen[N];
        int wrong = 0;
        for (int i = 0; i < N; i++) {
            int k = out[i] - 1 + 100;
            if (k % 3 != 0 || k < 0 || k / 3 >= N) {
                wrong++;
                continue;
            }
            seen[k / 3]++;
        }
        for (int i = 0; i < N; i++) wrong += seen[i] != 1;
        CHECK(wrong == 0, "%d packets lost, duplicated or wrong", wrong);
        clReleaseKernel(produce);
        clReleaseKernel(consume);
        clReleaseProgram(p);
    }
    clReleaseMemObject(src);
    clReleaseMemObject(dst);
    EXPECT_CODE(clReleaseMemObject(pipe), CL_SUCCESS);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    printf("%d passed, %d failed\n", passes, failures);
    return failures != 0;
}
