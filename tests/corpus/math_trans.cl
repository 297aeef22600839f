//! kernel: math_trans
//! global: 1024
//! compare: ulp 4
//! arg: float[1024] rand(-10,10)
//! arg: float[1024] rand(0.01,20)
//! arg: float[1024] zeros
//! arg: float[1024] zeros
//! arg: float[1024] zeros
//! arg: float[1024] zeros
//! arg: float[1024] zeros
// Transcendental functions: results of two implementations may differ within the spec's bounds.
__kernel void math_trans(__global const float *a, __global const float *b,
                         __global float *s, __global float *c, __global float *e, __global float *l, __global float *p)
{
    size_t i = get_global_id(0);
    float x = a[i], y = b[i];
    s[i] = sin(x);
    c[i] = cos(x);
    e[i] = exp(x);
    l[i] = log(y);
    p[i] = pow(y, x * 0.25f);
}
