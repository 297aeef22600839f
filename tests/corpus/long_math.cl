//! kernel: long_math
//! global: 512
//! arg: ulong[512] bits
//! arg: long[512] bits
//! arg: ulong[512] zeros
//! arg: long[512] zeros
// 64-bit integers: multiply, shifts, unsigned division, signed comparisons.
__kernel void long_math(__global const ulong *a, __global const long *b, __global ulong *o, __global long *p)
{
    size_t i = get_global_id(0);
    ulong x = a[i];
    long y = b[i];
    o[i] = x * 0x9e3779b97f4a7c15UL + (x >> 17) + (x << (i % 64)) + x / ((ulong)(y & 0xffff) + 1);
    p[i] = (y >> 5) + (y < 0 ? -1L : 1L) * (long)(x % 1000) + mul_hi(y, (long)x);
}
