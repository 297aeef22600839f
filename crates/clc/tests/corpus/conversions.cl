#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void conversions(__global float *f, __global int *i, __global uchar *c, __global double *d, __global short4 *s4)
{
    size_t g = get_global_id(0);
    float x = f[g];
    i[g] = convert_int(x) + convert_int_sat_rte(x * 1000.0f) + (int)x;
    c[g] = convert_uchar_sat(i[g]) + convert_uchar(x);
    d[g] = convert_double(x) + (double)i[g] + 0.5;
    f[g] = convert_float_rtz(d[g]) + as_float(as_uint(x) ^ 0x80000000u);
    float4 v = (float4)(x, 1.5f, -2.5f, 3.0f);
    int4 iv = convert_int4_rtn(v);
    s4[g] = convert_short4_sat(iv) + as_short4(convert_int2(v.xy));
    uint3 u3 = as_uint3(v.xyz + 1.0f);
    i[g] += u3.x;
    long l = (long)x;
    ulong ul = convert_ulong_sat(l);
    f[g] += (float)ul + convert_float(iv.w) + (float)(char)g;
}
