//! kernel: bitops
//! global: 1024
//! arg: uint[1024] bits
//! arg: uint[1024] bits
//! arg: uint[1024] zeros
//! arg: uint[1024] zeros
//! arg: uint[1024] zeros
// Shifts (amounts taken modulo 32), rotates, bit counts, masks.
__kernel void bitops(__global const uint *a, __global const uint *b, __global uint *o1, __global uint *o2, __global uint *o3)
{
    size_t i = get_global_id(0);
    uint x = a[i], y = b[i];
    o1[i] = (x << y) ^ (x >> (y & 7)) ^ ((int)x >> 3);
    o2[i] = rotate(x, y) + popcount(x) * 65536u + clz(y);
    o3[i] = (x & ~y) | (y & 0xff00ffu) ^ (x | y) >> 16;
}
