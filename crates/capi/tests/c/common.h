/* Shared helpers of the C tests: pick the oxcl platform by name, count checks. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0, passes = 0;

#define CHECK(cond, ...)                                                  \
    do {                                                                  \
        if (cond) {                                                       \
            passes++;                                                     \
        } else {                                                          \
            failures++;                                                   \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                   \
            printf(__VA_ARGS__);                                          \
            printf("\n");                                                 \
        }                                                                 \
    } while (0)

#define EXPECT_CODE(expr, code)                                           \
    do {                                                                  \
        cl_int got_ = (expr);                                             \
        CHECK(got_ == (code), "%s returned %d, expected %s (%d)", #expr,  \
              got_, #code, code);                                         \
    } while (0)

/* The platform named "oxcl", or exit with a failure. */
static cl_platform_id oxcl_platform(void) {
    cl_uint n = 0;
    if (clGetPlatformIDs(0, NULL, &n) != CL_SUCCESS || n == 0) {
        printf("FAIL no platforms\n");
        exit(1);
    }
    cl_platform_id *ps = malloc(n * sizeof *ps);
    clGetPlatformIDs(n, ps, NULL);
    for (cl_uint i = 0; i < n; i++) {
        char name[256] = {0};
        clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
        if (strcmp(name, "oxcl") == 0) {
            cl_platform_id p = ps[i];
            free(ps);
            return p;
        }
    }
    printf("FAIL no oxcl platform among %u\n", n);
    exit(1);
}

static int finish(void) {
    printf("%d passed, %d failed\n", passes, failures);
    return failures == 0 ? 0 : 1;
}
