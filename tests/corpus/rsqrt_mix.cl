//! kernel: rsqrt_mix
//! global: 512
//! compare: ulp 4
//! arg: float4[512] rand(0.1,10)
//! arg: float4[512] rand(0,1)
//! arg: float4[512] zeros
//! arg: float[512] zeros
//! arg: float4[512] zeros
// Vector math: rsqrt, mix, clamp, dot, length, normalize on float4.
#pragma OPENCL FP_CONTRACT OFF
__kernel void rsqrt_mix(__global const float4 *a, __global const float4 *t, __global float4 *o, __global float *d, __global float4 *n)
{
    size_t i = get_global_id(0);
    float4 x = a[i];
    o[i] = rsqrt(x) + mix(x, (float4)(1.0f), t[i]) + clamp(x, 0.5f, 2.0f);
    d[i] = dot(x, t[i]) + length(x);
    n[i] = normalize(x);
}
