//! kernel: vector_convert
//! global: 256
//! arg: float4[256] rand(-300,300)
//! arg: int4[256] zeros
//! arg: uchar4[256] zeros
//! arg: float4[256] zeros
// Vector conversions with rounding and saturation.
__kernel void vector_convert(__global const float4 *in, __global int4 *i4, __global uchar4 *u4, __global float4 *f4)
{
    size_t i = get_global_id(0);
    float4 v = in[i];
    i4[i] = convert_int4_rtn(v) + convert_int4(v) * 1000;
    u4[i] = convert_uchar4_sat_rte(v);
    f4[i] = convert_float4(convert_short4_sat(v * 200.0f));
}
