/* The API from several threads at once (API 3.3 "all OpenCL API calls are thread-safe" except
 * clSetKernelArg on one kernel object): each thread has its own queue and kernel object over a
 * shared context, program and input buffer, and checks its own results. */
#include "common.h"
#include <pthread.h>

#define THREADS 4
#define N 512

static const char *SOURCE =
    "__kernel void affine(__global const int *in, __global int *out, int m, int c) {\n"
    "    size_t i = get_global_id(0);\n"
    "    out[i] = in[i] * m + c;\n"
    "}\n";

static cl_context ctx;
static cl_device_id device;
static cl_program prog;
static cl_mem input;
static int host_in[N];
static int thread_failures[THREADS];

static void *worker(void *arg) {
    int t = (int)(size_t)arg;
    cl_int err;
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
    cl_kernel k = clCreateKernel(prog, "affine", &err);
    cl_mem out = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, sizeof host_in, NULL, &err);
    int m = t + 2, c = 100 * t;
    for (int round = 0; round < 5 && err == CL_SUCCESS; round++) {
        clSetKernelArg(k, 0, sizeof input, &input);
        clSetKernelArg(k, 1, sizeof out, &out);
        clSetKernelArg(k, 2, sizeof m, &m);
        clSetKernelArg(k, 3, sizeof c, &c);
        size_t global = N;
        err = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL);
        int result[N];
        if (err == CL_SUCCESS) err = clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof result, result, 0, NULL, NULL);
        for (int i = 0; i < N && err == CL_SUCCESS; i++)
            if (result[i] != host_in[i] * m + c) thread_failures[t]++;
        c += 1;
    }
    if (err != CL_SUCCESS) thread_failures[t] += 1000;
    clReleaseMemObject(out);
    clReleaseKernel(k);
    clReleaseCommandQueue(q);
    return NULL;
}

int main(void) {
    cl_platform_id platform = oxcl_platform();
    cl_int err;
    clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
    ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    prog = clCreateProgramWithSource(ctx, 1, &SOURCE, NULL, &err);
    CHECK(clBuildProgram(prog, 0, NULL, NULL, NULL, NULL) == CL_SUCCESS, "build");
    for (int i = 0; i < N; i++) host_in[i] = i - 200;
    input = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof host_in, host_in, &err);
    pthread_t threads[THREADS];
    for (int t = 0; t < THREADS; t++) pthread_create(&threads[t], NULL, worker, (void *)(size_t)t);
    for (int t = 0; t < THREADS; t++) pthread_join(threads[t], NULL);
    for (int t = 0; t < THREADS; t++) CHECK(thread_failures[t] == 0, "thread %d: %d failures", t, thread_failures[t]);
    clReleaseMemObject(input);
    clReleaseProgram(prog);
    clReleaseContext(ctx);
    return finish();
}
