//! kernel: as_type
//! global: 256
//! arg: float[256] rand(-1000,1000)
//! arg: uint[256] zeros
//! arg: float[256] zeros
//! arg: uchar4[256] zeros
// Reinterpreting bits: as_uint, as_float, as_uchar4, and sign manipulation through bits.
__kernel void as_type(__global const float *in, __global uint *bits, __global float *neg, __global uchar4 *bytes)
{
    size_t i = get_global_id(0);
    uint u = as_uint(in[i]);
    bits[i] = u;
    neg[i] = as_float(u ^ 0x80000000u);
    bytes[i] = as_uchar4(u);
}
