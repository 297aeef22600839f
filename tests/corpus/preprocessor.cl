//! kernel: preprocessor
//! global: 64
//! options: -DSCALE=3 -DUSE_OFFSET
//! arg: int[64] iota
//! arg: int[64] zeros
// Object- and function-like macros, # and ##, #if with defined, -D options.
#define CAT(a, b) a##b
#define STR(x) #x
#define SQUARE(x) ((x) * (x))
#define APPLY(f, x) f(x)
#if defined(USE_OFFSET) && SCALE > 2
#define OFFSET 1000
#else
#define OFFSET 0
#endif
#ifndef SCALE
#error SCALE must be defined
#endif

__kernel void preprocessor(__global const int *in, __global int *out)
{
    int CAT(val, ue) = in[get_global_id(0)];
    out[get_global_id(0)] = APPLY(SQUARE, value) * SCALE + OFFSET + (int)sizeof(STR(ab)) + __OPENCL_C_VERSION__ * 0;
}
