/* Runs one OpenCL C kernel on the first OpenCL CPU device (PoCL here) for oxcl's differential
 * tests. Usage: harness source.cl kernel g0[,g1[,g2]] l0[,l1[,l2]] args...
 * where each arg is b:PATH (a buffer initialised from PATH and written back to it after the
 * run), l:SIZE (a __local buffer) or s:HEX (by-value bytes). Exit 77: no device. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); exit(2); }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *buf = malloc(n + 1);
    if (fread(buf, 1, n, f) != (size_t)n) { perror(path); exit(2); }
    buf[n] = 0;
    fclose(f);
    *len = (size_t)n;
    return buf;
}

static int parse_sizes(const char *text, size_t *out) {
    int n = 0;
    const char *p = text;
    while (*p && n < 3) {
        out[n++] = strtoull(p, (char **)&p, 10);
        if (*p == ',') p++;
    }
    return n;
}

#define CHECK(x) do { cl_int e_ = (x); if (e_ != CL_SUCCESS) { fprintf(stderr, "%s failed: %d\n", #x, e_); exit(2); } } while (0)

int main(int argc, char **argv) {
    if (argc < 5) { fprintf(stderr, "usage\n"); return 2; }
    cl_platform_id platform;
    cl_uint np = 0;
    if (clGetPlatformIDs(1, &platform, &np) != CL_SUCCESS || np == 0) return 77;
    cl_device_id device;
    cl_uint nd = 0;
    if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, &nd) != CL_SUCCESS || nd == 0) return 77;
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
    CHECK(err);
    size_t src_len;
    char *src = (char *)read_file(argv[1], &src_len);
    cl_program prog = clCreateProgramWithSource(ctx, 1, (const char **)&src, &src_len, &err);
    CHECK(err);
    if (clBuildProgram(prog, 1, &device, "-cl-std=CL2.0 -cl-fp32-correctly-rounded-divide-sqrt", NULL, NULL) != CL_SUCCESS) {
        char log[65536];
        clGetProgramBuildInfo(prog, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "build failed:\n%s\n", log);
        return 3;
    }
    cl_kernel k = clCreateKernel(prog, argv[2], &err);
    CHECK(err);
    size_t global[3] = {1, 1, 1}, local[3] = {1, 1, 1};
    int dims = parse_sizes(argv[3], global);
    parse_sizes(argv[4], local);
    int nargs = argc - 5;
    cl_mem *mems = calloc(nargs + 1, sizeof(cl_mem));
    size_t *lens = calloc(nargs + 1, sizeof(size_t));
    for (int i = 0; i < nargs; i++) {
        const char *a = argv[5 + i];
        if (a[0] == 'b') {
            unsigned char *data = read_file(a + 2, &lens[i]);
            mems[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, lens[i] ? lens[i] : 1, data, &err);
            CHECK(err);
            CHECK(clSetKernelArg(k, i, sizeof(cl_mem), &mems[i]));
            free(data);
        } else if (a[0] == 'l') {
            CHECK(clSetKernelArg(k, i, strtoull(a + 2, NULL, 10), NULL));
        } else {
            size_t n = strlen(a + 2) / 2;
            unsigned char bytes[256];
            for (size_t j = 0; j < n && j < sizeof bytes; j++) {
                unsigned v;
                sscanf(a + 2 + 2 * j, "%2x", &v);
                bytes[j] = (unsigned char)v;
            }
            CHECK(clSetKernelArg(k, i, n, bytes));
        }
    }
    CHECK(clEnqueueNDRangeKernel(q, k, dims, NULL, global, local, 0, NULL, NULL));
    CHECK(clFinish(q));
    for (int i = 0; i < nargs; i++) {
        if (argv[5 + i][0] != 'b') continue;
        unsigned char *data = malloc(lens[i] + 1);
        CHECK(clEnqueueReadBuffer(q, mems[i], CL_TRUE, 0, lens[i], data, 0, NULL, NULL));
        FILE *f = fopen(argv[5 + i] + 2, "wb");
        fwrite(data, 1, lens[i], f);
        fclose(f);
        free(data);
    }
    fflush(stdout);
    return 0;
}
