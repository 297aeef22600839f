/* Programs from IL (argv[1]: a SPIR-V module made by clang + llvm-spirv, or "-" to skip),
 * clCompileProgram with an embedded header and clLinkProgram, event callbacks, an
 * out-of-order queue with a user event, markers and barriers, rectangular writes and copies. */
#include "common.h"

static int callback_status = 1;
static void CL_CALLBACK on_complete(cl_event e, cl_int status, void *data) {
    (void)e;
    *(int *)data += 1;
    callback_status = status;
}

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

int main(int argc, char **argv) {
    cl_platform_id platform = oxcl_platform();
    cl_device_id device;
    cl_int err;
    clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
    int data[16];
    for (int i = 0; i < 16; i++) data[i] = i;
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof data, data, &err);

    /* IL from another producer. */
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
        size_t il_size = 0;
        clGetProgramInfo(p, CL_PROGRAM_IL, 0, NULL, &il_size);
        CHECK(il_size == len, "CL_PROGRAM_IL size %zu", il_size);
        cl_kernel k = clCreateKernel(p, "times3", &err);
        CHECK(err == CL_SUCCESS, "kernel from IL %d", err);
        clSetKernelArg(k, 0, sizeof buf, &buf);
        size_t g = 16;
        clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL);
        int out[16];
        clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL);
        int bad = 0;
        for (int i = 0; i < 16; i++) bad += out[i] != 3 * i;
        CHECK(bad == 0, "IL kernel results");
        clEnqueueWriteBuffer(q, buf, CL_TRUE, 0, sizeof data, data, 0, NULL, NULL);
        clReleaseKernel(k);
        clReleaseProgram(p);
        free(il);
    }

    /* clCompileProgram with an embedded header, then clLinkProgram. */
    const char *header_src = "#define FACTOR 5\n";
    const char *main_src = "#include \"factor.h\"\n__kernel void scale(__global int *p) { p[get_global_id(0)] *= FACTOR; }\n";
    cl_program header = clCreateProgramWithSource(ctx, 1, &header_src, NULL, &err);
    cl_program unit = clCreateProgramWithSource(ctx, 1, &main_src, NULL, &err);
    const char *names[] = {"factor.h"};
    err = clCompileProgram(unit, 1, &device, "", 1, &header, names, NULL, NULL);
    CHECK(err == CL_SUCCESS, "clCompileProgram %d", err);
    cl_program_binary_type bt = 0;
    clGetProgramBuildInfo(unit, device, CL_PROGRAM_BINARY_TYPE, sizeof bt, &bt, NULL);
    CHECK(bt == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT, "binary type %u", (unsigned)bt);
    cl_program linked = clLinkProgram(ctx, 1, &device, "", 1, &unit, NULL, NULL, &err);
    CHECK(err == CL_SUCCESS && linked != NULL, "clLinkProgram %d", err);
    cl_kernel scale = clCreateKernel(linked, "scale", &err);
    CHECK(err == CL_SUCCESS, "kernel of the linked program %d", err);
    clSetKernelArg(scale, 0, sizeof buf, &buf);
    size_t g16 = 16;
    cl_event done;
    clEnqueueNDRangeKernel(q, scale, 1, NULL, &g16, NULL, 0, NULL, &done);
    int calls = 0;
    err = clSetEventCallback(done, CL_COMPLETE, on_complete, &calls);
    CHECK(err == CL_SUCCESS, "clSetEventCallback %d", err);
    clFinish(q);
    clWaitForEvents(1, &done);
    int out[16];
    clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL);
    int bad = 0;
    for (int i = 0; i < 16; i++) bad += out[i] != 5 * i;
    CHECK(bad == 0, "compiled and linked kernel results (out[3]=%d)", out[3]);
    CHECK(calls == 1 && callback_status == CL_COMPLETE, "callback calls %d status %d", calls, callback_status);
    EXPECT_CODE(clCompileProgram(linked, 0, NULL, "", 0, NULL, NULL, NULL, NULL), CL_INVALID_OPERATION);
    EXPECT_CODE(clCompileProgram(unit, 0, NULL, "", 1, NULL, names, NULL, NULL), CL_INVALID_VALUE);
    const char *broken_src = "__kernel void k(__global int *p) { p[0] = missing; }\n";
    cl_program broken = clCreateProgramWithSource(ctx, 1, &broken_src, NULL, &err);
    EXPECT_CODE(clCompileProgram(broken, 0, NULL, "", 0, NULL, NULL, NULL, NULL), CL_COMPILE_PROGRAM_FAILURE);
    clLinkProgram(ctx, 0, NULL, "", 1, &broken, NULL, NULL, &err);
    CHECK(err == CL_INVALID_OPERATION, "linking a failed compile: %d", err);

    /* Out-of-order queue: a command gated by a user event does not hold back later ones. */
    cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
    cl_command_queue ooo = clCreateCommandQueueWithProperties(ctx, device, props, &err);
    CHECK(err == CL_SUCCESS, "out-of-order queue %d", err);
    cl_event gate = clCreateUserEvent(ctx, &err);
    int a_host[4] = {1, 2, 3, 4}, b_host[4] = {5, 6, 7, 8};
    cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof a_host, NULL, &err);
    cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof b_host, NULL, &err);
    cl_event gated, free_ev;
    clEnqueueWriteBuffer(ooo, a, CL_FALSE, 0, sizeof a_host, a_host, 1, &gate, &gated);
    clEnqueueWriteBuffer(ooo, b, CL_FALSE, 0, sizeof b_host, b_host, 0, NULL, &free_ev);
    EXPECT_CODE(clWaitForEvents(1, &free_ev), CL_SUCCESS);
    cl_int st;
    clGetEventInfo(gated, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
    CHECK(st > CL_COMPLETE, "gated write ran before its user event (%d)", st);
    cl_event barrier;
    clEnqueueBarrierWithWaitList(ooo, 0, NULL, &barrier);
    clSetUserEventStatus(gate, CL_COMPLETE);
    clWaitForEvents(1, &barrier);
    clGetEventInfo(gated, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
    CHECK(st == CL_COMPLETE, "barrier completed before the command it follows (%d)", st);
    cl_event marker;
    EXPECT_CODE(clEnqueueMarkerWithWaitList(ooo, 1, &gated, &marker), CL_SUCCESS);
    EXPECT_CODE(clWaitForEvents(1, &marker), CL_SUCCESS);
    cl_command_type ct = 0;
    clGetEventInfo(marker, CL_EVENT_COMMAND_TYPE, sizeof ct, &ct, NULL);
    CHECK(ct == CL_COMMAND_MARKER, "marker command type %x", ct);
    EXPECT_CODE(clFinish(ooo), CL_SUCCESS);

    /* Rectangular write and copy: a 3x2 block of 4-byte rows. */
    unsigned char grid[8 * 4] = {0}, block[6] = {1, 2, 3, 4, 5, 6}, result[8 * 4];
    cl_mem g1 = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof grid, grid, &err);
    cl_mem g2 = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof grid, grid, &err);
    size_t origin[3] = {1, 1, 0}, zero[3] = {0, 0, 0}, region[3] = {3, 2, 1}, dst_origin[3] = {0, 5, 0};
    EXPECT_CODE(clEnqueueWriteBufferRect(q, g1, CL_TRUE, origin, zero, region, 4, 0, 3, 0, block, 0, NULL, NULL), CL_SUCCESS);
    EXPECT_CODE(clEnqueueCopyBufferRect(q, g1, g2, origin, dst_origin, region, 4, 0, 4, 0, 0, NULL, NULL), CL_SUCCESS);
    clEnqueueReadBuffer(q, g2, CL_TRUE, 0, sizeof result, result, 0, NULL, NULL);
    unsigned char expect[8 * 4] = {0};
    for (int r = 0; r < 2; r++)
        for (int c = 0; c < 3; c++) expect[(5 + r) * 4 + c] = block[r * 3 + c];
    CHECK(memcmp(result, expect, sizeof expect) == 0, "rect write then copy");
    EXPECT_CODE(clEnqueueCopyBufferRect(q, g1, g1, zero, origin, region, 4, 0, 4, 0, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);

    clReleaseEvent(gate);
    clReleaseEvent(gated);
    clReleaseEvent(free_ev);
    clReleaseEvent(barrier);
    clReleaseEvent(marker);
    clReleaseEvent(done);
    clReleaseKernel(scale);
    clReleaseProgram(linked);
    clReleaseProgram(unit);
    clReleaseProgram(header);
    clReleaseProgram(broken);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseMemObject(g1);
    clReleaseMemObject(g2);
    clReleaseMemObject(buf);
    clReleaseCommandQueue(ooo);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return finish();
}
