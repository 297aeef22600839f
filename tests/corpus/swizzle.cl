//! kernel: swizzle
//! global: 64
//! arg: float4[64] rand(-8,8)
//! arg: float4[64] zeros
//! arg: float8[64] zeros
//! arg: float2[64] zeros
// Every swizzle form: letters, numeric .sN, .lo/.hi/.even/.odd, swizzles as lvalues, vector literals.
__kernel void swizzle(__global const float4 *in, __global float4 *out4, __global float8 *out8, __global float2 *out2)
{
    size_t i = get_global_id(0);
    float4 v = in[i];
    float4 r = v.wzyx;
    r.xy = v.zz;
    r.s3 = v.s0 + v.S1;
    out4[i] = r + (float4)(v.lo, v.hi.yx);
    float8 w = (float8)(v, v.odd, v.even);
    w.s7 = 42.0f;
    w.hi.lo = (float2)(1.0f, 2.0f);
    out8[i] = w;
    out2[i] = v.xw + v.s12;
}
