/* Runs kernels on oxcl through the ICD loader and compares with values computed here. */
#include "common.h"
#include <math.h>

static const char *SOURCE =
    "__kernel void vadd(__global const float *a, __global const float *b, __global float *c) {\n"
    "    size_t i = get_global_id(0);\n"
    "    c[i] = a[i] + b[i];\n"
    "}\n"
    "__kernel void saxpy(float alpha, __global const float *x, __global float *y) {\n"
    "    size_t i = get_global_id(0);\n"
    "    y[i] = alpha * x[i] + y[i];\n"
    "}\n"
    "__kernel void group_sum(__global const int *in, __global int *out, __local int *scratch) {\n"
    "    size_t lid = get_local_id(0);\n"
    "    scratch[lid] = in[get_global_id(0)];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (size_t s = get_local_size(0) / 2; s > 0; s /= 2) {\n"
    "        if (lid < s) scratch[lid] += scratch[lid + s];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    if (lid == 0) out[get_group_id(0)] = scratch[0];\n"
    "}\n"
    "__kernel void shift_left(__global int *p) {\n"
    "    __local int tile[32];\n"
    "    size_t lid = get_local_id(0);\n"
    "    tile[lid] = p[get_global_id(0)];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    p[get_global_id(0)] = tile[(lid + 1) % get_local_size(0)];\n"
    "}\n";

#define N 1000

int main(void) {
    cl_platform_id platform = oxcl_platform();
    cl_device_id device;
    cl_int err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, &device, NULL);
    CHECK(err == CL_SUCCESS, "clGetDeviceIDs: %d", err);
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err == CL_SUCCESS, "clCreateContext: %d", err);
    cl_command_queue q = clCreateCommandQueue(ctx, device, CL_QUEUE_PROFILING_ENABLE, &err);
    CHECK(err == CL_SUCCESS, "clCreateCommandQueue: %d", err);

    cl_program prog = clCreateProgramWithSource(ctx, 1, &SOURCE, NULL, &err);
    CHECK(err == CL_SUCCESS, "clCreateProgramWithSource: %d", err);
    err = clBuildProgram(prog, 1, &device, "-cl-kernel-arg-info", NULL, NULL);
    if (err != CL_SUCCESS) {
        char log[8192] = {0};
        clGetProgramBuildInfo(prog, device, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
        printf("FAIL clBuildProgram %d:\n%s\n", err, log);
        return 1;
    }
    char names[256] = {0};
    clGetProgramInfo(prog, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, NULL);
    CHECK(strcmp(names, "vadd;saxpy;group_sum;shift_left") == 0, "kernel names '%s'", names);

    /* Vector add. */
    float a[N], b[N], c[N];
    for (int i = 0; i < N; i++) {
        a[i] = (float)i * 0.5f;
        b[i] = 1000.0f - (float)i;
    }
    cl_mem da = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof a, a, &err);
    CHECK(err == CL_SUCCESS, "buffer a: %d", err);
    cl_mem db = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, sizeof b, b, &err);
    CHECK(err == CL_SUCCESS, "buffer b: %d", err);
    cl_mem dc = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY | CL_MEM_ALLOC_HOST_PTR, sizeof c, NULL, &err);
    CHECK(err == CL_SUCCESS, "buffer c: %d", err);
    cl_kernel vadd = clCreateKernel(prog, "vadd", &err);
    CHECK(err == CL_SUCCESS, "clCreateKernel vadd: %d", err);
    clSetKernelArg(vadd, 0, sizeof da, &da);
    clSetKernelArg(vadd, 1, sizeof db, &db);
    clSetKernelArg(vadd, 2, sizeof dc, &dc);
    size_t global = N;
    cl_event kev;
    err = clEnqueueNDRangeKernel(q, vadd, 1, NULL, &global, NULL, 0, NULL, &kev);
    CHECK(err == CL_SUCCESS, "vadd launch: %d", err);
    err = clEnqueueReadBuffer(q, dc, CL_TRUE, 0, sizeof c, c, 0, NULL, NULL);
    CHECK(err == CL_SUCCESS, "read c: %d", err);
    int bad = 0;
    for (int i = 0; i < N; i++) bad += c[i] != a[i] + b[i];
    CHECK(bad == 0, "vadd: %d wrong values (c[1]=%f)", bad, c[1]);

    /* Profiling of the kernel's event. */
    cl_ulong t[4];
    clGetEventProfilingInfo(kev, CL_PROFILING_COMMAND_QUEUED, 8, &t[0], NULL);
    clGetEventProfilingInfo(kev, CL_PROFILING_COMMAND_SUBMIT, 8, &t[1], NULL);
    clGetEventProfilingInfo(kev, CL_PROFILING_COMMAND_START, 8, &t[2], NULL);
    err = clGetEventProfilingInfo(kev, CL_PROFILING_COMMAND_END, 8, &t[3], NULL);
    CHECK(err == CL_SUCCESS && t[0] <= t[1] && t[1] <= t[2] && t[2] <= t[3], "profiling %d", err);
    cl_int status;
    clGetEventInfo(kev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
    CHECK(status == CL_COMPLETE, "event status %d", status);
    clReleaseEvent(kev);

    /* saxpy with a by-value argument, a non-blocking write and a user event gate. */
    float x[N], y[N], expect[N];
    float alpha = 2.5f;
    for (int i = 0; i < N; i++) {
        x[i] = (float)(i % 17) - 8.0f;
        y[i] = (float)(i % 5);
        expect[i] = alpha * x[i] + y[i];
    }
    cl_mem dx = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof x, NULL, &err);
    cl_mem dy = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof y, NULL, &err);
    cl_event gate = clCreateUserEvent(ctx, &err);
    CHECK(err == CL_SUCCESS, "clCreateUserEvent %d", err);
    cl_event wrote;
    clEnqueueWriteBuffer(q, dx, CL_FALSE, 0, sizeof x, x, 1, &gate, &wrote);
    clEnqueueWriteBuffer(q, dy, CL_FALSE, 0, sizeof y, y, 0, NULL, NULL);
    clGetEventInfo(wrote, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
    CHECK(status != CL_COMPLETE, "a write waiting for a user event completed early");
    err = clSetUserEventStatus(gate, CL_COMPLETE);
    CHECK(err == CL_SUCCESS, "clSetUserEventStatus %d", err);
    cl_kernel saxpy = clCreateKernel(prog, "saxpy", &err);
    clSetKernelArg(saxpy, 0, sizeof alpha, &alpha);
    clSetKernelArg(saxpy, 1, sizeof dx, &dx);
    clSetKernelArg(saxpy, 2, sizeof dy, &dy);
    size_t local = 8;
    err = clEnqueueNDRangeKernel(q, saxpy, 1, NULL, &global, &local, 1, &wrote, NULL);
    CHECK(err == CL_SUCCESS, "saxpy launch: %d", err);
    /* Changing the argument after enqueue must not affect the queued launch. */
    float other = 100.0f;
    clSetKernelArg(saxpy, 0, sizeof other, &other);
    float *mapped = clEnqueueMapBuffer(q, dy, CL_TRUE, CL_MAP_READ, 0, sizeof y, 0, NULL, NULL, &err);
    CHECK(err == CL_SUCCESS && mapped != NULL, "map: %d", err);
    bad = 0;
    for (int i = 0; mapped && i < N; i++) bad += mapped[i] != expect[i];
    CHECK(bad == 0, "saxpy: %d wrong values", bad);
    cl_uint map_count = 0;
    clGetMemObjectInfo(dy, CL_MEM_MAP_COUNT, sizeof map_count, &map_count, NULL);
    CHECK(map_count == 1, "map count %u", map_count);
    err = clEnqueueUnmapMemObject(q, dy, mapped, 0, NULL, NULL);
    CHECK(err == CL_SUCCESS, "unmap %d", err);
    clFinish(q);
    clReleaseEvent(wrote);
    clReleaseEvent(gate);

    /* Local-memory reduction: groups of 64 over 1024 ints. */
    enum { M = 1024, G = 64 };
    int in[M], sums[M / G];
    for (int i = 0; i < M; i++) in[i] = (i * 7) % 13 - 6;
    cl_mem din = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in, in, &err);
    cl_mem dsum = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, sizeof sums, NULL, &err);
    cl_kernel gsum = clCreateKernel(prog, "group_sum", &err);
    clSetKernelArg(gsum, 0, sizeof din, &din);
    clSetKernelArg(gsum, 1, sizeof dsum, &dsum);
    err = clSetKernelArg(gsum, 2, G * sizeof(int), NULL);
    CHECK(err == CL_SUCCESS, "local arg %d", err);
    size_t mg = M, ml = G;
    err = clEnqueueNDRangeKernel(q, gsum, 1, NULL, &mg, &ml, 0, NULL, NULL);
    CHECK(err == CL_SUCCESS, "group_sum launch %d", err);
    clEnqueueReadBuffer(q, dsum, CL_TRUE, 0, sizeof sums, sums, 0, NULL, NULL);
    bad = 0;
    for (int g = 0; g < M / G; g++) {
        int s = 0;
        for (int i = 0; i < G; i++) s += in[g * G + i];
        bad += sums[g] != s;
    }
    CHECK(bad == 0, "group_sum: %d wrong sums", bad);

    /* Fill, copy, sub-buffer, rectangular read. */
    cl_mem big = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 1024, NULL, &err);
    cl_uint pattern = 0xA1B2C3D4u;
    err = clEnqueueFillBuffer(q, big, &pattern, 4, 0, 1024, 0, NULL, NULL);
    CHECK(err == CL_SUCCESS, "fill %d", err);
    cl_buffer_region region = {256, 256};
    cl_mem sub = clCreateSubBuffer(big, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    CHECK(err == CL_SUCCESS, "sub-buffer %d", err);
    unsigned char bytes[256];
    for (int i = 0; i < 256; i++) bytes[i] = (unsigned char)i;
    clEnqueueWriteBuffer(q, sub, CL_TRUE, 0, 256, bytes, 0, NULL, NULL);
    unsigned char whole[1024];
    clEnqueueReadBuffer(q, big, CL_TRUE, 0, 1024, whole, 0, NULL, NULL);
    CHECK(whole[256] == 0 && whole[511] == 255 && whole[0] == 0xD4 && whole[512] == 0xD4, "sub-buffer write seen in parent");
    size_t offset = 0;
    clGetMemObjectInfo(sub, CL_MEM_OFFSET, sizeof offset, &offset, NULL);
    CHECK(offset == 256, "CL_MEM_OFFSET %zu", offset);
    cl_mem copy = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 256, NULL, &err);
    clEnqueueCopyBuffer(q, sub, copy, 0, 0, 256, 0, NULL, NULL);
    unsigned char back[256];
    clEnqueueReadBuffer(q, copy, CL_TRUE, 0, 256, back, 0, NULL, NULL);
    CHECK(memcmp(back, bytes, 256) == 0, "copy from sub-buffer");
    /* A 4x3 rectangle at (2,1) of the sub-buffer seen as 16-byte rows. */
    size_t bo[3] = {2, 1, 0}, ho[3] = {0, 0, 0}, rg[3] = {4, 3, 1};
    unsigned char rect[12];
    err = clEnqueueReadBufferRect(q, sub, CL_TRUE, bo, ho, rg, 16, 0, 4, 0, rect, 0, NULL, NULL);
    CHECK(err == CL_SUCCESS, "read rect %d", err);
    bad = 0;
    for (int r = 0; r < 3; r++)
        for (int col = 0; col < 4; col++) bad += rect[r * 4 + col] != (unsigned char)((1 + r) * 16 + 2 + col);
    CHECK(bad == 0, "rect values");

    /* Binary round trip: the binary builds into a program that runs. */
    size_t bin_size = 0;
    clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof bin_size, &bin_size, NULL);
    unsigned char *bin = malloc(bin_size);
    clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL);
    cl_int bin_status = -1;
    const unsigned char *cbin = bin;
    cl_program prog2 = clCreateProgramWithBinary(ctx, 1, &device, &bin_size, &cbin, &bin_status, &err);
    CHECK(err == CL_SUCCESS && bin_status == CL_SUCCESS, "from binary %d %d", err, bin_status);
    err = clBuildProgram(prog2, 0, NULL, NULL, NULL, NULL);
    CHECK(err == CL_SUCCESS, "build from binary %d", err);
    cl_kernel ks[4];
    cl_uint nk = 0;
    err = clCreateKernelsInProgram(prog2, 4, ks, &nk);
    CHECK(err == CL_SUCCESS && nk == 4, "clCreateKernelsInProgram %d %u", err, nk);
    cl_kernel vadd2 = clCloneKernel(vadd, &err);
    CHECK(err == CL_SUCCESS, "clCloneKernel %d", err);
    memset(c, 0, sizeof c);
    clEnqueueWriteBuffer(q, dc, CL_TRUE, 0, sizeof c, c, 0, NULL, NULL);
    clEnqueueTask(q, vadd2, 0, NULL, NULL);
    clEnqueueReadBuffer(q, dc, CL_TRUE, 0, sizeof c, c, 0, NULL, NULL);
    CHECK(c[0] == a[0] + b[0] && c[1] == 0.0f, "clEnqueueTask on a cloned kernel ran one work-item");
    free(bin);

    /* Argument info (from source). */
    char arg_name[64] = {0}, type_name[64] = {0};
    cl_kernel_arg_address_qualifier aq = 0;
    clGetKernelArgInfo(saxpy, 1, CL_KERNEL_ARG_NAME, sizeof arg_name, arg_name, NULL);
    clGetKernelArgInfo(saxpy, 1, CL_KERNEL_ARG_TYPE_NAME, sizeof type_name, type_name, NULL);
    clGetKernelArgInfo(saxpy, 1, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL);
    CHECK(strcmp(arg_name, "x") == 0 && aq == CL_KERNEL_ARG_ADDRESS_GLOBAL, "arg info '%s' '%s' %x", arg_name, type_name, aq);
    size_t wg = 0;
    clGetKernelWorkGroupInfo(vadd, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL);
    CHECK(wg >= 1, "CL_KERNEL_WORK_GROUP_SIZE %zu", wg);

    /* CL_KERNEL_LOCAL_MEM_SIZE: __local arguments as set, plus __local variables. */
    cl_ulong lmem = 0;
    clGetKernelWorkGroupInfo(gsum, device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof lmem, &lmem, NULL);
    CHECK(lmem == G * sizeof(int), "group_sum local memory %llu", (unsigned long long)lmem);
    clGetKernelWorkGroupInfo(ks[3], device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof lmem, &lmem, NULL);
    CHECK(lmem == 32 * sizeof(int), "shift_left local memory %llu", (unsigned long long)lmem);
    /* shift_left: each group of 8 shifts its values left by one, cyclically. */
    int rot[16];
    for (int i = 0; i < 16; i++) rot[i] = i * 10;
    cl_mem drot = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof rot, rot, &err);
    clSetKernelArg(ks[3], 0, sizeof drot, &drot);
    size_t rot_global = 16, rot_local = 8;
    err = clEnqueueNDRangeKernel(q, ks[3], 1, NULL, &rot_global, &rot_local, 0, NULL, NULL);
    CHECK(err == CL_SUCCESS, "shift_left launch %d", err);
    int rot_out[16];
    clEnqueueReadBuffer(q, drot, CL_TRUE, 0, sizeof rot_out, rot_out, 0, NULL, NULL);
    bad = 0;
    for (int i = 0; i < 16; i++) bad += rot_out[i] != rot[(i / 8) * 8 + (i % 8 + 1) % 8];
    CHECK(bad == 0, "shift_left: %d wrong values", bad);
    clReleaseMemObject(drot);
    for (int i = 0; i < 4; i++) clReleaseKernel(ks[i]);
    clReleaseKernel(vadd2);
    clReleaseKernel(vadd);
    clReleaseKernel(saxpy);
    clReleaseKernel(gsum);
    clReleaseProgram(prog2);
    clReleaseProgram(prog);
    cl_mem mems[] = {da, db, dc, dx, dy, din, dsum, sub, big, copy};
    for (size_t i = 0; i < sizeof mems / sizeof mems[0]; i++) clReleaseMemObject(mems[i]);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return finish();
}
