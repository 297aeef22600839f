__kernel void swizzles(__global float4 *out, __global const float4 *in, __global int8 *iout)
{
    size_t i = get_global_id(0);
    float4 v = in[i];
    float4 r = v.wzyx;
    r.xy = v.zw;
    r.s3 = v.S0 + v.s1;
    float2 lo = v.lo, hi = v.hi;
    r.zw += lo * hi;
    float3 t = (float3)(v.x, v.yz);
    r.x += t.z + v.even.y + v.odd.x;
    float4 q = (float4)(lo, 1.0f, 2.0f);
    q.odd = q.even;
    r += q;
    out[i] = r;
    int8 w = (int8)(1, 2, 3, 4, 5, 6, 7, 8);
    w.hi = w.lo.wzyx;
    w.s7 = w.s70[0];
    w.s01 = (int2)(w.s2);
    iout[i] = w;
    float4 e = in[i];
    e.x = e[2];
    e[1] = 3.0f;
    out[i + 1] = e;
}
