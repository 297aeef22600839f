/* Native kernels (API 5.10, clEnqueueNativeKernel): the device reports CL_EXEC_NATIVE_KERNEL;
 * a host function gets a copy of its argument block with each memory object replaced by the
 * address of its memory, runs in queue order after a kernel that fills its input and before a
 * read of its output, and the documented error codes. Expected values are computed here. */
#include "common.h"

typedef struct {
    cl_mem in;  /* becomes an int * */
    cl_mem out; /* becomes an int * */
    int n;
    int scale;
} sum_args;

static void CL_CALLBACK native_sum(void *p) {
    sum_args *a = p;
    const int *in = (const int *)a->in;
    int *out = (int *)a->out;
    long s = 0;
    for (int i = 0; i < a->n; i++) s += in[i];
    out[0] = (int)(s * a->scale);
    out[1] = a->n;
}

static void CL_CALLBACK nothing(void *p) { (void)p; }

int main(void) {
    cl_platform_id platform = oxcl_platform();
    cl_device_id device;
    cl_int err;
    clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
    cl_device_exec_capabilities caps = 0;
    clGetDeviceInfo(device, CL_DEVICE_EXECUTION_CAPABILITIES, sizeof caps, &caps, NULL);
    CHECK(caps == (CL_EXEC_KERNEL | CL_EXEC_NATIVE_KERNEL), "execution capabilities %#llx",
          (unsigned long long)caps);
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);

    /* A kernel fills `in` with 0..n-1, the native kernel sums it. */
    enum { N = 1000 };
    const char *src = "kernel void fill(global int *p) { p[get_global_id(0)] = get_global_id(0); }";
    cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    CHECK(clBuildProgram(prog, 1, &device, "", NULL, NULL) == CL_SUCCESS, "build");
    cl_kernel fill = clCreateKernel(prog, "fill", &err);
    cl_mem in = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * sizeof(int), NULL, &err);
    cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 2 * sizeof(int), NULL, &err);
    clSetKernelArg(fill, 0, sizeof in, &in);
    size_t global = N;
    EXPECT_CODE(clEnqueueNDRangeKernel(q, fill, 1, NULL, &global, NULL, 0, NULL, NULL),
                CL_SUCCESS);
    sum_args args = {in, out, N, 3};
    const void *locs[2] = {&args.in, &args.out};
    cl_mem mems[2] = {in, out};
    cl_event e;
    EXPECT_CODE(clEnqueueNativeKernel(q, native_sum, &args, sizeof args, 2, mems, locs, 0, NULL,
                                      &e),
                CL_SUCCESS);
    /* The block was copied at enqueue time: changing it now changes nothing. */
    args.n = 1;
    args.scale = 100;
    int result[2] = {0, 0};
    EXPECT_CODE(clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof result, result, 0, NULL, NULL),
                CL_SUCCESS);
    CHECK(result[0] == 3 * (N * (N - 1) / 2) && result[1] == N, "native sum %d (n %d)", result[0],
          result[1]);
    cl_command_type type = 0;
    clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL);
    CHECK(type == CL_COMMAND_NATIVE_KERNEL, "command type %#x", type);
    cl_int status = 1;
    clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
    CHECK(status == CL_COMPLETE, "status %d", status);
    clReleaseEvent(e);
    /* Without memory objects or arguments. */
    EXPECT_CODE(clEnqueueNativeKernel(q, nothing, NULL, 0, 0, NULL, NULL, 0, NULL, NULL),
                CL_SUCCESS);
    EXPECT_CODE(clFinish(q), CL_SUCCESS);

    /* Errors (API 5.10). */
    EXPECT_CODE(clEnqueueNativeKernel(NULL, nothing, NULL, 0, 0, NULL, NULL, 0, NULL, NULL),
                CL_INVALID_COMMAND_QUEUE);
    EXPECT_CODE(clEnqueueNativeKernel(q, NULL, NULL, 0, 0, NULL, NULL, 0, NULL, NULL),
                CL_INVALID_VALUE);
    EXPECT_CODE(clEnqueueNativeKernel(q, nothing, NULL, 8, 0, NULL, NULL, 0, NULL, NULL),
                CL_INVALID_VALUE);
    EXPECT_CODE(clEnqueueNativeKernel(q, nothing, &args, 0, 0, NULL, NULL, 0, NULL, NULL),
                CL_INVALID_VALUE);
    EXPECT_CODE(clEnqueueNativeKernel(q, nothing, NULL, 0, 1, mems, locs, 0, NULL, NULL),
                CL_INVALID_VALUE);
    EXPECT_CODE(clEnqueueNativeKernel(q, nothing, &args, sizeof args, 2, NULL, locs, 0, NULL,
                                      NULL),
                CL_INVALID_VALUE);
    EXPECT_CODE(clEnqueueNativeKernel(q, nothing, &args, sizeof args, 2, mems, NULL, 0, NULL,
                                      NULL),
                CL_INVALID_VALUE);
    EXPECT_CODE(clEnqueueNativeKernel(q, nothing, &args, sizeof args, 0, mems, NULL, 0, NULL,
                                      NULL),
                CL_INVALID_VALUE);
    cl_mem bogus[2] = {in, (cl_mem)q};
    EXPECT_CODE(clEnqueueNativeKernel(q, nothing, &args, sizeof args, 2, bogus, locs, 0, NULL,
                                      NULL),
                CL_INVALID_MEM_OBJECT);
    cl_mem pipe = clCreatePipe(ctx, CL_MEM_READ_WRITE, 4, 4, NULL, &err);
    CHECK(pipe != NULL && err == CL_SUCCESS, "pipe %d", err);
    cl_mem not_buffers[2] = {in, pipe};
    EXPECT_CODE(clEnqueueNativeKernel(q, nothing, &args, sizeof args, 2, not_buffers, locs, 0,
                                      NULL, NULL),
                CL_INVALID_MEM_OBJECT);
    /* A location outside the argument block. */
    int elsewhere = 0;
    const void *outside[2] = {&args.in, &elsewhere};
    EXPECT_CODE(clEnqueueNativeKernel(q, nothing, &args, sizeof args, 2, mems, outside, 0, NULL,
                                      NULL),
                CL_INVALID_VALUE);
    cl_event none = NULL;
    EXPECT_CODE(clEnqueueNativeKernel(q, nothing, NULL, 0, 0, NULL, NULL, 1, &none, NULL),
                CL_INVALID_EVENT_WAIT_LIST);

    clReleaseMemObject(pipe);
    clReleaseMemObject(in);
    clReleaseMemObject(out);
    clReleaseKernel(fill);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return finish();
}
