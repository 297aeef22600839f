//! kernel: conversions
//! global: 512
//! arg: float[512] rand(-400,400)
//! arg: int[512] zeros
//! arg: uchar[512] zeros
//! arg: int[512] zeros
//! arg: float[512] zeros
//! arg: short[512] zeros
// Explicit conversions with saturation and rounding modes, and implicit ones.
__kernel void conversions(__global const float *in, __global int *o_int, __global uchar *o_uchar,
                          __global int *o_round, __global float *o_float, __global short *o_short)
{
    size_t i = get_global_id(0);
    float f = in[i] * 1.0e7f;
    o_int[i] = convert_int_sat(f);
    o_uchar[i] = convert_uchar_sat(in[i]);
    o_round[i] = convert_int_rte(in[i]) + convert_int_rtn(in[i]) * 1000 + convert_int_rtp(in[i]) * 1000000 + (int)in[i];
    o_float[i] = convert_float((int)(in[i] * 100000.0f)) + (float)(uint)i;
    o_short[i] = convert_short_sat(convert_int_sat_rtz(f));
}
