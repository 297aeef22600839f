/* Documented error codes of the API, called through the ICD loader. A handle of the wrong
 * kind is passed where the loader will dispatch it to oxcl (a context for a device, …), so the
 * check under test is oxcl's own. */
#include "common.h"

static const char *GOOD = "__kernel void k(__global int *p, int v) { p[get_global_id(0)] = v; }\n";
static const char *BAD = "__kernel void k(__global int *p) { p[0] = undeclared; }\n";

int main(void) {
    cl_platform_id platform = oxcl_platform();
    cl_device_id device;
    cl_int err;
    char buf[256];
    cl_uint n;

    /* Platforms and devices (API 4.1, 4.2). */
    EXPECT_CODE(clGetPlatformInfo(platform, 0xFFFF, sizeof buf, buf, NULL), CL_INVALID_VALUE);
    EXPECT_CODE(clGetPlatformInfo(platform, CL_PLATFORM_NAME, 2, buf, NULL), CL_INVALID_VALUE);
    EXPECT_CODE(clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &device, &n), CL_DEVICE_NOT_FOUND);
    EXPECT_CODE(clGetDeviceIDs(platform, (cl_device_type)1 << 40, 1, &device, &n), CL_INVALID_DEVICE_TYPE);
    EXPECT_CODE(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, &device, NULL), CL_INVALID_VALUE);
    EXPECT_CODE(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL), CL_SUCCESS);
    EXPECT_CODE(clGetDeviceInfo(device, 0xFFFF, sizeof buf, buf, NULL), CL_INVALID_VALUE);
    EXPECT_CODE(clGetDeviceInfo(device, CL_DEVICE_NAME, 1, buf, NULL), CL_INVALID_VALUE);
    size_t size = 0;
    EXPECT_CODE(clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_ITEM_SIZES, 0, NULL, &size), CL_SUCCESS);
    CHECK(size == 3 * sizeof(size_t), "size of CL_DEVICE_MAX_WORK_ITEM_SIZES %zu", size);
    cl_bool image_support = 1;
    clGetDeviceInfo(device, CL_DEVICE_IMAGE_SUPPORT, sizeof image_support, &image_support, NULL);
    CHECK(image_support == CL_FALSE, "image support claimed");

    /* Contexts (API 4.4). */
    cl_context_properties bad_props[] = {0x7777, 1, 0};
    clCreateContext(bad_props, 1, &device, NULL, NULL, &err);
    CHECK(err == CL_INVALID_PROPERTY, "unknown context property: %d", err);
    int user_data = 0;
    clCreateContext(NULL, 1, &device, NULL, &user_data, &err);
    CHECK(err == CL_INVALID_VALUE, "user_data without pfn_notify: %d", err);
    clCreateContextFromType(NULL, CL_DEVICE_TYPE_GPU, NULL, NULL, &err);
    CHECK(err == CL_DEVICE_NOT_FOUND, "context from GPU type: %d", err);
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0};
    cl_context ctx = clCreateContext(props, 1, &device, NULL, NULL, &err);
    CHECK(err == CL_SUCCESS, "clCreateContext %d", err);
    /* A context where a device belongs: oxcl sees a context handle and says CL_INVALID_DEVICE. */
    EXPECT_CODE(clGetDeviceInfo((cl_device_id)ctx, CL_DEVICE_NAME, sizeof buf, buf, NULL), CL_INVALID_DEVICE);
    EXPECT_CODE(clGetContextInfo(ctx, 0xFFFF, sizeof buf, buf, NULL), CL_INVALID_VALUE);
    cl_uint refs = 0;
    clGetContextInfo(ctx, CL_CONTEXT_REFERENCE_COUNT, sizeof refs, &refs, NULL);
    CHECK(refs == 1, "context reference count %u", refs);

    /* Queues (API 5.1). */
    clCreateCommandQueue(ctx, device, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_ON_DEVICE, &err);
    CHECK(err == CL_INVALID_QUEUE_PROPERTIES, "on-device queue: %d", err);
    clCreateCommandQueue(ctx, device, (cl_command_queue_properties)1 << 20, &err);
    CHECK(err == CL_INVALID_VALUE, "undefined queue property: %d", err);
    clCreateCommandQueue((cl_context)device, device, 0, &err);
    CHECK(err == CL_INVALID_CONTEXT, "device as context: %d", err);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
    CHECK(err == CL_SUCCESS, "queue %d", err);

    /* Buffers (API 5.2). */
    int host[64] = {0};
    clCreateBuffer(ctx, 0, 0, NULL, &err);
    CHECK(err == CL_INVALID_BUFFER_SIZE, "size 0: %d", err);
    clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 16, NULL, &err);
    CHECK(err == CL_INVALID_VALUE, "read-only and write-only: %d", err);
    clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR, 16, host, &err);
    CHECK(err == CL_INVALID_VALUE, "use and copy host ptr: %d", err);
    clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, 16, NULL, &err);
    CHECK(err == CL_INVALID_HOST_PTR, "use host ptr without one: %d", err);
    clCreateBuffer(ctx, 0, 16, host, &err);
    CHECK(err == CL_INVALID_HOST_PTR, "host ptr without a flag: %d", err);
    cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof host, NULL, &err);
    cl_mem no_host = clCreateBuffer(ctx, CL_MEM_HOST_NO_ACCESS, 16, NULL, &err);
    EXPECT_CODE(clEnqueueReadBuffer(q, b, CL_TRUE, 200, 100, host, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_CODE(clEnqueueReadBuffer(q, b, CL_TRUE, 0, 16, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_CODE(clEnqueueReadBuffer(q, no_host, CL_TRUE, 0, 16, host, 0, NULL, NULL), CL_INVALID_OPERATION);
    EXPECT_CODE(clEnqueueReadBuffer(q, (cl_mem)ctx, CL_TRUE, 0, 16, host, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
    EXPECT_CODE(clEnqueueReadBuffer(q, b, CL_TRUE, 0, 16, host, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
    EXPECT_CODE(clEnqueueCopyBuffer(q, b, b, 0, 8, 16, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
    int pattern = 7;
    EXPECT_CODE(clEnqueueFillBuffer(q, b, &pattern, 3, 0, 12, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_CODE(clEnqueueFillBuffer(q, b, &pattern, 4, 2, 12, 0, NULL, NULL), CL_INVALID_VALUE);
    clEnqueueMapBuffer(q, b, CL_TRUE, CL_MAP_READ, 0, 0, 0, NULL, NULL, &err);
    CHECK(err == CL_INVALID_VALUE, "map of 0 bytes: %d", err);
    EXPECT_CODE(clEnqueueUnmapMemObject(q, b, host, 0, NULL, NULL), CL_INVALID_VALUE);
    cl_buffer_region misaligned = {4, 16}, outside = {128, 256}, ok = {0, 64};
    clCreateSubBuffer(b, 0, CL_BUFFER_CREATE_TYPE_REGION, &misaligned, &err);
    CHECK(err == CL_MISALIGNED_SUB_BUFFER_OFFSET, "misaligned sub-buffer: %d", err);
    clCreateSubBuffer(b, 0, CL_BUFFER_CREATE_TYPE_REGION, &outside, &err);
    CHECK(err == CL_INVALID_VALUE, "sub-buffer out of bounds: %d", err);
    cl_mem sub = clCreateSubBuffer(b, 0, CL_BUFFER_CREATE_TYPE_REGION, &ok, &err);
    CHECK(err == CL_SUCCESS, "sub-buffer %d", err);
    clCreateSubBuffer(sub, 0, CL_BUFFER_CREATE_TYPE_REGION, &ok, &err);
    CHECK(err == CL_INVALID_MEM_OBJECT, "sub-buffer of a sub-buffer: %d", err);
    size_t o[3] = {0, 0, 0}, r0[3] = {0, 1, 1};
    EXPECT_CODE(clEnqueueReadBufferRect(q, b, CL_TRUE, o, o, r0, 0, 0, 0, 0, host, 0, NULL, NULL), CL_INVALID_VALUE);
    cl_image_format fmt = {CL_RGBA, CL_UNORM_INT8};
    cl_image_desc desc = {0};
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = desc.image_height = 4;
    clCreateImage(ctx, 0, &fmt, &desc, NULL, &err);
    CHECK(err == CL_INVALID_OPERATION, "image on a device without images: %d", err);

    /* Programs and kernels (API 5.8, 5.9). */
    cl_program bad = clCreateProgramWithSource(ctx, 1, &BAD, NULL, &err);
    EXPECT_CODE(clBuildProgram(bad, 0, NULL, NULL, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
    size_t log_size = 0;
    clGetProgramBuildInfo(bad, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &log_size);
    CHECK(log_size > 1, "empty build log after a failed build");
    cl_build_status status = 0;
    clGetProgramBuildInfo(bad, device, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, NULL);
    CHECK(status == CL_BUILD_ERROR, "build status %d", status);
    clCreateKernel(bad, "k", &err);
    CHECK(err == CL_INVALID_PROGRAM_EXECUTABLE, "kernel of a failed program: %d", err);
    clCreateProgramWithSource(ctx, 0, &GOOD, NULL, &err);
    CHECK(err == CL_INVALID_VALUE, "count 0: %d", err);
    cl_program prog = clCreateProgramWithSource(ctx, 1, &GOOD, NULL, &err);
    EXPECT_CODE(clBuildProgram(prog, 0, NULL, "-no-such-option", NULL, NULL), CL_INVALID_BUILD_OPTIONS);
    EXPECT_CODE(clGetProgramInfo(prog, CL_PROGRAM_NUM_KERNELS, sizeof size, &size, NULL), CL_INVALID_PROGRAM_EXECUTABLE);
    EXPECT_CODE(clBuildProgram(prog, 0, NULL, "", NULL, NULL), CL_SUCCESS);
    clCreateKernel(prog, "nope", &err);
    CHECK(err == CL_INVALID_KERNEL_NAME, "unknown kernel: %d", err);
    clCreateKernel(prog, NULL, &err);
    CHECK(err == CL_INVALID_VALUE, "null kernel name: %d", err);
    cl_kernel k = clCreateKernel(prog, "k", &err);
    EXPECT_CODE(clBuildProgram(prog, 0, NULL, "", NULL, NULL), CL_INVALID_OPERATION);
    size_t global = 64, local = 2000, big_local[3] = {32, 32, 2}, g3[3] = {64, 64, 2};
    EXPECT_CODE(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL), CL_INVALID_KERNEL_ARGS);
    EXPECT_CODE(clSetKernelArg(k, 2, sizeof b, &b), CL_INVALID_ARG_INDEX);
    EXPECT_CODE(clSetKernelArg(k, 0, 4, &b), CL_INVALID_ARG_SIZE);
    EXPECT_CODE(clSetKernelArg(k, 0, sizeof q, &q), CL_INVALID_MEM_OBJECT);
    EXPECT_CODE(clSetKernelArg(k, 1, 8, &pattern), CL_INVALID_ARG_SIZE);
    EXPECT_CODE(clSetKernelArg(k, 1, 4, NULL), CL_INVALID_ARG_VALUE);
    EXPECT_CODE(clSetKernelArg(k, 0, sizeof b, &b), CL_SUCCESS);
    EXPECT_CODE(clSetKernelArg(k, 1, sizeof pattern, &pattern), CL_SUCCESS);
    EXPECT_CODE(clEnqueueNDRangeKernel(q, k, 4, NULL, &global, NULL, 0, NULL, NULL), CL_INVALID_WORK_DIMENSION);
    EXPECT_CODE(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL), CL_INVALID_WORK_ITEM_SIZE);
    EXPECT_CODE(clEnqueueNDRangeKernel(q, k, 3, NULL, g3, big_local, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
    EXPECT_CODE(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL), CL_SUCCESS);
    clEnqueueReadBuffer(q, b, CL_TRUE, 0, sizeof host, host, 0, NULL, NULL);
    CHECK(host[0] == 7 && host[63] == 7, "kernel result %d %d", host[0], host[63]);
    EXPECT_CODE(clGetKernelWorkGroupInfo(k, device, CL_KERNEL_GLOBAL_WORK_SIZE, sizeof g3, g3, NULL), CL_INVALID_VALUE);

    /* Events (API 5.11, 5.14). */
    EXPECT_CODE(clWaitForEvents(0, NULL), CL_INVALID_VALUE);
    cl_event user = clCreateUserEvent(ctx, &err);
    EXPECT_CODE(clSetUserEventStatus(user, 1), CL_INVALID_VALUE);
    cl_event blocked;
    EXPECT_CODE(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 1, &user, &blocked), CL_SUCCESS);
    EXPECT_CODE(clSetUserEventStatus(user, -1234), CL_SUCCESS);
    EXPECT_CODE(clSetUserEventStatus(user, CL_COMPLETE), CL_INVALID_OPERATION);
    EXPECT_CODE(clWaitForEvents(1, &blocked), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    EXPECT_CODE(clEnqueueReadBuffer(q, b, CL_TRUE, 0, 16, host, 1, &user, NULL), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    cl_ulong t;
    EXPECT_CODE(clGetEventProfilingInfo(blocked, CL_PROFILING_COMMAND_END, sizeof t, &t, NULL), CL_PROFILING_INFO_NOT_AVAILABLE);
    EXPECT_CODE(clSetEventCallback(blocked, CL_QUEUED, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_CODE(clGetEventInfo((cl_event)q, CL_EVENT_COMMAND_TYPE, sizeof n, &n, NULL), CL_INVALID_EVENT);
    EXPECT_CODE(clFinish(q), CL_SUCCESS);

    clReleaseEvent(blocked);
    clReleaseEvent(user);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    clReleaseProgram(bad);
    clReleaseMemObject(sub);
    clReleaseMemObject(b);
    clReleaseMemObject(no_host);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return finish();
}
