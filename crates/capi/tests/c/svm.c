/* Shared virtual memory through the ICD loader (API 5.6): CL_DEVICE_SVM_CAPABILITIES,
 * clSVMAlloc/clSVMFree and their failures, a linked list built by the host in coarse-grained
 * SVM and walked by a kernel, a kernel storing pointers the host follows, atomics on a
 * fine-grained SVM counter, clEnqueueSVMMemcpy/MemFill/Map/Unmap/MigrateMem/Free with their
 * command types and error codes, clSetKernelArgSVMPointer and clSetKernelExecInfo errors,
 * CL_MEM_USES_SVM_POINTER, an out-of-range SVM access reported as an error, and fine-grained
 * system SVM (stack and malloc'ed memory used by kernels; read-only and unmapped memory errors).
 * Expected values are computed here. */
#include "common.h"

static const char *source =
    "typedef struct node { long value; global struct node *next; } node;\n"
    "kernel void walk(global node *head, global long *out) {\n"
    "    long sum = 0;\n"
    "    for (global node *n = head; n; n = n->next) sum += n->value;\n"
    "    out[get_global_id(0)] = sum + (long)get_global_id(0);\n"
    "}\n"
    "kernel void link(global node *nodes, int n) {\n"
    "    int i = get_global_id(0);\n"
    "    nodes[i].value = (long)i * i;\n"
    "    nodes[i].next = i + 1 < n ? &nodes[i + 1] : 0;\n"
    "}\n"
    "kernel void count(global int *counter, global int *sum) {\n"
    "    atomic_inc(counter);\n"
    "    atomic_add(sum, (int)get_global_id(0));\n"
    "}\n"
    "kernel void poke(global int *p, long index) { p[index] = 1; }\n"
    "kernel void scale(global int *data, local int *tmp) {\n"
    "    tmp[get_local_id(0)] = data[get_global_id(0)];\n"
    "    data[get_global_id(0)] = 3 * tmp[get_local_id(0)];\n"
    "}\n";

typedef struct node {
    cl_long value;
    struct node *next;
} node;

static int freed_count = 0;
static void *freed_first = NULL;
static void CL_CALLBACK free_callback(cl_command_queue q, cl_uint n, void **ptrs, void *data) {
    (void)q;
    freed_count = (int)n;
    freed_first = ptrs[0];
    for (cl_uint i = 0; i < n; i++) clSVMFree((cl_context)data, ptrs[i]);
}

static cl_uint command_type(cl_event e) {
    cl_uint t = 0;
    clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof t, &t, NULL);
    clReleaseEvent(e);
    return t;
}

int main(void) {
    cl_platform_id platform = oxcl_platform();
    cl_device_id device;
    cl_int err;
    clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL);
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);

    cl_device_svm_capabilities caps = 0;
    EXPECT_CODE(clGetDeviceInfo(device, CL_DEVICE_SVM_CAPABILITIES, sizeof caps, &caps, NULL),
                CL_SUCCESS);
    CHECK(caps == (CL_DEVICE_SVM_COARSE_GRAIN_BUFFER | CL_DEVICE_SVM_FINE_GRAIN_BUFFER |
                   CL_DEVICE_SVM_FINE_GRAIN_SYSTEM | CL_DEVICE_SVM_ATOMICS),
          "CL_DEVICE_SVM_CAPABILITIES %#llx", (unsigned long long)caps);

    /* clSVMAlloc failures return NULL. */
    CHECK(clSVMAlloc(NULL, CL_MEM_READ_WRITE, 64, 0) == NULL, "no context");
    CHECK(clSVMAlloc(ctx, CL_MEM_READ_WRITE, 0, 0) == NULL, "size 0");
    CHECK(clSVMAlloc(ctx, CL_MEM_READ_WRITE | CL_MEM_SVM_ATOMICS, 64, 0) == NULL,
          "atomics without fine grain");
    CHECK(clSVMAlloc(ctx, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 64, 0) == NULL, "RO|WO");
    CHECK(clSVMAlloc(ctx, CL_MEM_READ_WRITE, 64, 3) == NULL, "alignment 3");
    CHECK(clSVMAlloc(ctx, CL_MEM_USE_HOST_PTR, 64, 0) == NULL, "buffer-only flag");
    void *aligned = clSVMAlloc(ctx, CL_MEM_READ_WRITE, 64, 4096);
    CHECK(aligned != NULL && ((size_t)aligned % 4096) == 0, "alignment 4096: %p", aligned);
    clSVMFree(ctx, aligned);
    clSVMFree(ctx, NULL);

    cl_program prog = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
    err = clBuildProgram(prog, 1, &device, "", NULL, NULL);
    if (err != CL_SUCCESS) {
        char log[8192] = {0};
        clGetProgramBuildInfo(prog, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        printf("FAIL build %d:\n%s\n", err, log);
        return 1;
    }
    cl_kernel walk = clCreateKernel(prog, "walk", &err);
    cl_kernel link = clCreateKernel(prog, "link", &err);
    cl_kernel count = clCreateKernel(prog, "count", &err);
    cl_kernel poke = clCreateKernel(prog, "poke", &err);
    cl_kernel scale = clCreateKernel(prog, "scale", &err);

    /* A linked list built by the host in coarse-grained SVM, walked by a kernel. */
    enum { NODES = 8, ITEMS = 4 };
    node *nodes = clSVMAlloc(ctx, CL_MEM_READ_WRITE, NODES * sizeof(node), 0);
    cl_long *out = clSVMAlloc(ctx, CL_MEM_READ_WRITE, ITEMS * sizeof(cl_long), 0);
    CHECK(nodes != NULL && out != NULL, "clSVMAlloc");
    cl_event e;
    EXPECT_CODE(clEnqueueSVMMap(q, CL_TRUE, CL_MAP_WRITE, nodes, NODES * sizeof(node), 0, NULL, &e),
                CL_SUCCESS);
    CHECK(command_type(e) == CL_COMMAND_SVM_MAP, "map command type");
    int order[] = {3, 0, 7, 5, 1};
    cl_long expected = 0;
    for (int k = 0; k < 5; k++) {
        int i = order[k];
        nodes[i].value = 10 * (i + 1);
        nodes[i].next = k + 1 < 5 ? &nodes[order[k + 1]] : NULL;
        expected += 10 * (i + 1);
    }
    EXPECT_CODE(clEnqueueSVMUnmap(q, nodes, 0, NULL, &e), CL_SUCCESS);
    CHECK(command_type(e) == CL_COMMAND_SVM_UNMAP, "unmap command type");
    EXPECT_CODE(clSetKernelArgSVMPointer(walk, 0, &nodes[3]), CL_SUCCESS);
    EXPECT_CODE(clSetKernelArgSVMPointer(walk, 1, out), CL_SUCCESS);
    EXPECT_CODE(clSetKernelExecInfo(walk, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof(void *),
                                    (void *[]){nodes}),
                CL_SUCCESS);
    size_t global = ITEMS;
    EXPECT_CODE(clEnqueueNDRangeKernel(q, walk, 1, NULL, &global, NULL, 0, NULL, NULL),
                CL_SUCCESS);
    EXPECT_CODE(clEnqueueSVMMap(q, CL_TRUE, CL_MAP_READ, out, ITEMS * sizeof(cl_long), 0, NULL,
                                NULL),
                CL_SUCCESS);
    for (int g = 0; g < ITEMS; g++)
        CHECK(out[g] == expected + g, "walk out[%d] = %lld, expected %lld", g,
              (long long)out[g], (long long)(expected + g));
    clEnqueueSVMUnmap(q, out, 0, NULL, NULL);

    /* A kernel storing pointers the host follows. */
    enum { LINKED = 16 };
    node *chain = clSVMAlloc(ctx, CL_MEM_READ_WRITE, LINKED * sizeof(node), 0);
    cl_int n = LINKED;
    clSetKernelArgSVMPointer(link, 0, chain);
    clSetKernelArg(link, 1, sizeof n, &n);
    global = LINKED;
    EXPECT_CODE(clEnqueueNDRangeKernel(q, link, 1, NULL, &global, NULL, 0, NULL, NULL),
                CL_SUCCESS);
    clEnqueueSVMMap(q, CL_TRUE, CL_MAP_READ, chain, LINKED * sizeof(node), 0, NULL, NULL);
    int walked = 0, good = 1;
    for (node *at = chain; at != NULL && walked <= LINKED; at = at->next, walked++) {
        if (at != &chain[walked] || at->value != (cl_long)walked * walked) good = 0;
    }
    CHECK(good && walked == LINKED, "host walked %d nodes the kernel linked (good %d)", walked,
          good);
    clEnqueueSVMUnmap(q, chain, 0, NULL, NULL);

    /* Atomics on fine-grained SVM with CL_MEM_SVM_ATOMICS: no map needed. */
    cl_int *counter =
        clSVMAlloc(ctx, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS,
                   2 * sizeof(cl_int), 0);
    CHECK(counter != NULL, "fine-grained clSVMAlloc");
    counter[0] = 0;
    counter[1] = 0;
    clSetKernelArgSVMPointer(count, 0, counter);
    clSetKernelArgSVMPointer(count, 1, &counter[1]);
    global = 1000;
    size_t local = 10;
    EXPECT_CODE(clEnqueueNDRangeKernel(q, count, 1, NULL, &global, &local, 0, NULL, NULL),
                CL_SUCCESS);
    clFinish(q);
    CHECK(counter[0] == 1000 && counter[1] == 1000 * 999 / 2, "atomics: count %d sum %d",
          counter[0], counter[1]);

    /* Memcpy and fill, with their command types. */
    cl_int *a = clSVMAlloc(ctx, CL_MEM_READ_WRITE, 64 * sizeof(cl_int), 0);
    cl_int *b = clSVMAlloc(ctx, CL_MEM_READ_WRITE, 64 * sizeof(cl_int), 0);
    cl_int pattern = 0x01020304;
    EXPECT_CODE(clEnqueueSVMMemFill(q, a, &pattern, sizeof pattern, 64 * sizeof(cl_int), 0,
                                    NULL, &e),
                CL_SUCCESS);
    CHECK(command_type(e) == CL_COMMAND_SVM_MEMFILL, "fill command type");
    EXPECT_CODE(clEnqueueSVMMemcpy(q, CL_TRUE, b, a, 64 * sizeof(cl_int), 0, NULL, &e),
                CL_SUCCESS);
    CHECK(command_type(e) == CL_COMMAND_SVM_MEMCPY, "memcpy command type");
    clEnqueueSVMMap(q, CL_TRUE, CL_MAP_READ, b, 64 * sizeof(cl_int), 0, NULL, NULL);
    int same = 1;
    for (int i = 0; i < 64; i++) same &= b[i] == pattern;
    CHECK(same, "fill + memcpy");
    clEnqueueSVMUnmap(q, b, 0, NULL, NULL);
    EXPECT_CODE(clEnqueueSVMMemcpy(q, CL_TRUE, a + 1, a, 8, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
    EXPECT_CODE(clEnqueueSVMMemcpy(q, CL_TRUE, NULL, a, 8, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_CODE(clEnqueueSVMMemcpy(q, CL_TRUE, b, NULL, 8, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_CODE(clEnqueueSVMMemcpy(NULL, CL_TRUE, b, a, 8, 0, NULL, NULL),
                CL_INVALID_COMMAND_QUEUE);
    EXPECT_CODE(clEnqueueSVMMemcpy(q, CL_TRUE, b, a, 8, 1, NULL, NULL),
                CL_INVALID_EVENT_WAIT_LIST);
    EXPECT_CODE(clEnqueueSVMMemFill(q, a, &pattern, 3, 12, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_CODE(clEnqueueSVMMemFill(q, a, &pattern, 256, 256, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_CODE(clEnqueueSVMMemFill(q, (char *)a + 2, &pattern, 4, 8, 0, NULL, NULL),
                CL_INVALID_VALUE);
    EXPECT_CODE(clEnqueueSVMMemFill(q, a, &pattern, 4, 6, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_CODE(clEnqueueSVMMemFill(q, a, NULL, 4, 8, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_CODE(clEnqueueSVMMemFill(q, NULL, &pattern, 4, 8, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_CODE(clEnqueueSVMMap(q, CL_TRUE, CL_MAP_READ, a, 0, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_CODE(clEnqueueSVMMap(q, CL_TRUE, CL_MAP_READ, NULL, 4, 0, NULL, NULL),
                CL_INVALID_VALUE);
    EXPECT_CODE(clEnqueueSVMMap(q, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, a, 4, 0,
                                NULL, NULL),
                CL_INVALID_VALUE);
    EXPECT_CODE(clEnqueueSVMUnmap(q, NULL, 0, NULL, NULL), CL_INVALID_VALUE);

    /* Migration. */
    const void *ptrs[] = {a, b};
    size_t sizes[] = {16, 0};
    EXPECT_CODE(clEnqueueSVMMigrateMem(q, 2, ptrs, sizes, CL_MIGRATE_MEM_OBJECT_HOST, 0, NULL, &e),
                CL_SUCCESS);
    CHECK(command_type(e) == CL_COMMAND_SVM_MIGRATE_MEM, "migrate command type");
    size_t too_big[] = {65 * sizeof(cl_int), 0};
    EXPECT_CODE(clEnqueueSVMMigrateMem(q, 2, ptrs, too_big, 0, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_CODE(clEnqueueSVMMigrateMem(q, 0, ptrs, sizes, 0, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_CODE(clEnqueueSVMMigrateMem(q, 2, NULL, sizes, 0, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_CODE(clEnqueueSVMMigrateMem(q, 2, ptrs, sizes, 8, 0, NULL, NULL), CL_INVALID_VALUE);

    /* Kernel argument and exec-info errors. */
    EXPECT_CODE(clSetKernelArgSVMPointer(NULL, 0, a), CL_INVALID_KERNEL);
    EXPECT_CODE(clSetKernelArgSVMPointer(poke, 2, a), CL_INVALID_ARG_INDEX);
    EXPECT_CODE(clSetKernelArgSVMPointer(poke, 1, a), CL_INVALID_ARG_VALUE);
    EXPECT_CODE(clSetKernelArgSVMPointer(scale, 1, a), CL_INVALID_ARG_VALUE);
    cl_bool yes = CL_TRUE, no = CL_FALSE;
    EXPECT_CODE(clSetKernelExecInfo(poke, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof yes,
                                    &yes),
                CL_SUCCESS);
    EXPECT_CODE(clSetKernelExecInfo(poke, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof no,
                                    &no),
                CL_SUCCESS);
    EXPECT_CODE(clSetKernelExecInfo(poke, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, 1, &no),
                CL_INVALID_VALUE);
    EXPECT_CODE(clSetKernelExecInfo(poke, 0x4242, sizeof no, &no), CL_INVALID_VALUE);
    EXPECT_CODE(clSetKernelExecInfo(poke, CL_KERNEL_EXEC_INFO_SVM_PTRS, 8, NULL),
                CL_INVALID_VALUE);
    EXPECT_CODE(clSetKernelExecInfo(NULL, CL_KERNEL_EXEC_INFO_SVM_PTRS, 8, ptrs),
                CL_INVALID_KERNEL);

    /* A buffer using SVM memory, and one that does not. */
    cl_mem on_svm = clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, 64 * sizeof(cl_int), a, &err);
    CHECK(on_svm != NULL && err == CL_SUCCESS, "buffer on SVM: %d", err);
    cl_bool uses = CL_FALSE;
    clGetMemObjectInfo(on_svm, CL_MEM_USES_SVM_POINTER, sizeof uses, &uses, NULL);
    CHECK(uses == CL_TRUE, "CL_MEM_USES_SVM_POINTER of a buffer on SVM");
    cl_mem plain = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &err);
    clGetMemObjectInfo(plain, CL_MEM_USES_SVM_POINTER, sizeof uses, &uses, NULL);
    CHECK(uses == CL_FALSE, "CL_MEM_USES_SVM_POINTER of a plain buffer");
    cl_mem too_large = clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, 65 * sizeof(cl_int), a, &err);
    CHECK(too_large == NULL && err == CL_INVALID_BUFFER_SIZE, "buffer larger than SVM: %d", err);
    /* The kernel sees the SVM memory through the buffer. */
    clSetKernelArg(scale, 0, sizeof on_svm, &on_svm);
    clSetKernelArg(scale, 1, 16 * sizeof(cl_int), NULL);
    global = 64;
    local = 16;
    EXPECT_CODE(clEnqueueNDRangeKernel(q, scale, 1, NULL, &global, &local, 0, NULL, NULL),
                CL_SUCCESS);
    clEnqueueSVMMap(q, CL_TRUE, CL_MAP_READ, a, 64 * sizeof(cl_int), 0, NULL, NULL);
    CHECK(a[0] == 3 * pattern && a[63] == 3 * pattern, "kernel through a buffer on SVM: %#x",
          a[0]);
    clEnqueueSVMUnmap(q, a, 0, NULL, NULL);
    clReleaseMemObject(on_svm);
    clReleaseMemObject(plain);

    /* Out-of-range SVM accesses fail the command; the process goes on. */
    cl_long index = 64;
    clSetKernelArgSVMPointer(poke, 0, a);
    clSetKernelArg(poke, 1, sizeof index, &index);
    global = 1;
    cl_event bad;
    EXPECT_CODE(clEnqueueNDRangeKernel(q, poke, 1, NULL, &global, NULL, 0, NULL, &bad),
                CL_SUCCESS);
    clWaitForEvents(1, &bad);
    cl_int status = 0;
    clGetEventInfo(bad, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
    CHECK(status < 0, "out-of-range SVM store: status %d", status);
    clReleaseEvent(bad);

    /* Fine-grained system SVM: the stack and malloc'ed memory are SVM memory. */
    int on_stack = 0;
    clSetKernelArgSVMPointer(poke, 0, &on_stack);
    index = 0;
    clSetKernelArg(poke, 1, sizeof index, &index);
    EXPECT_CODE(clEnqueueNDRangeKernel(q, poke, 1, NULL, &global, NULL, 0, NULL, &bad),
                CL_SUCCESS);
    clWaitForEvents(1, &bad);
    clGetEventInfo(bad, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
    CHECK(status == CL_COMPLETE && on_stack == 1, "system SVM store to the stack: status %d, "
          "value %d", status, on_stack);
    clReleaseEvent(bad);
    /* A list in malloc'ed nodes, walked by the kernel through pointers the host stored. */
    enum { SYSTEM_NODES = 5 };
    node *heap_nodes[SYSTEM_NODES];
    cl_long heap_sum = 0;
    for (int i = SYSTEM_NODES - 1; i >= 0; i--) {
        heap_nodes[i] = malloc(sizeof(node));
        heap_nodes[i]->value = 11 * (i + 1);
        heap_nodes[i]->next = i + 1 < SYSTEM_NODES ? heap_nodes[i + 1] : NULL;
        heap_sum += 11 * (i + 1);
    }
    cl_long *heap_out = calloc(4, sizeof(cl_long));
    clSetKernelArgSVMPointer(walk, 0, heap_nodes[0]);
    clSetKernelArgSVMPointer(walk, 1, heap_out);
    global = 4;
    EXPECT_CODE(clEnqueueNDRangeKernel(q, walk, 1, NULL, &global, NULL, 0, NULL, NULL),
                CL_SUCCESS);
    clFinish(q);
    for (int g = 0; g < 4; g++)
        CHECK(heap_out[g] == heap_sum + g, "system SVM walk out[%d] = %lld, expected %lld", g,
              (long long)heap_out[g], (long long)(heap_sum + g));
    for (int i = 0; i < SYSTEM_NODES; i++) free(heap_nodes[i]);
    free(heap_out);
    global = 1;
    /* A store into read-only data (a string literal) and one to an address nothing maps fail
     * the command; the process goes on and the literal is unchanged. */
    static const char *literal = "read-only text";
    void *wrong[2] = {(void *)literal, (void *)(size_t)0x1000};
    for (int w = 0; w < 2; w++) {
        clSetKernelArgSVMPointer(poke, 0, wrong[w]);
        EXPECT_CODE(clEnqueueNDRangeKernel(q, poke, 1, NULL, &global, NULL, 0, NULL, &bad),
                    CL_SUCCESS);
        clWaitForEvents(1, &bad);
        clGetEventInfo(bad, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
        CHECK(status < 0, "store %d outside writable memory: status %d", w, status);
        clReleaseEvent(bad);
    }
    CHECK(literal[0] == 'r', "the literal is unchanged");

    /* clEnqueueSVMFree: with a callback, and without. */
    void *to_free[] = {b};
    EXPECT_CODE(clEnqueueSVMFree(q, 1, to_free, free_callback, ctx, 0, NULL, &e), CL_SUCCESS);
    clFinish(q);
    CHECK(command_type(e) == CL_COMMAND_SVM_FREE, "free command type");
    CHECK(freed_count == 1 && freed_first == b, "free callback: %d %p", freed_count, freed_first);
    void *rest[] = {a, nodes, out, chain};
    EXPECT_CODE(clEnqueueSVMFree(q, 4, rest, NULL, NULL, 0, NULL, NULL), CL_SUCCESS);
    EXPECT_CODE(clEnqueueSVMFree(q, 0, rest, NULL, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_CODE(clEnqueueSVMFree(q, 1, NULL, NULL, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
    clFinish(q);
    clSVMFree(ctx, counter);

    clReleaseKernel(walk);
    clReleaseKernel(link);
    clReleaseKernel(count);
    clReleaseKernel(poke);
    clReleaseKernel(scale);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return finish();
}
