//! kernel: math_basic
//! global: 1024
//! arg: float[1024] rand(-100,100)
//! arg: float[1024] rand(0.001,50)
//! arg: float[1024] zeros
//! arg: float[1024] zeros
//! arg: float[1024] zeros
// Correctly rounded or exact functions: sqrt, fabs, floor, ceil, fma, fmin/fmax, min/max, copysign, trunc, round.
__kernel void math_basic(__global const float *a, __global const float *b, __global float *o1, __global float *o2, __global float *o3)
{
    size_t i = get_global_id(0);
    float x = a[i], y = b[i];
    o1[i] = sqrt(y) + fabs(x);
    o2[i] = floor(x) * 3.0f + ceil(y) + trunc(x * 0.5f) + round(y * 0.25f);
    o3[i] = fma(x, y, 1.5f) + max(x, y) - min(x, -y) + copysign(y, x);
}
