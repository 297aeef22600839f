//! kernel: double_math
//! global: 256
//! arg: double[256] rand(-1000,1000)
//! arg: double[256] rand(0.5,100)
//! arg: double[256] zeros
//! arg: long[256] zeros
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
// Double precision arithmetic (cl_khr_fp64): correctly rounded operations and conversions.
__kernel void double_math(__global const double *a, __global const double *b, __global double *o, __global long *p)
{
    size_t i = get_global_id(0);
    double x = a[i], y = b[i];
    o[i] = x / y + sqrt(y) * x - floor(x) + fabs(x - y) + (double)(float)x;
    p[i] = convert_long(x * 1e9) + (long)(y * 3.0);
}
