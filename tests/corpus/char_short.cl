//! kernel: char_short
//! global: 512
//! arg: char[512] bits
//! arg: uchar[512] bits
//! arg: short[512] bits
//! arg: short[512] zeros
//! arg: uchar[512] zeros
// Narrow integer types: promotions to int, wrapping on store, comparisons across signedness.
__kernel void char_short(__global const char *a, __global const uchar *b, __global const short *c, __global short *o, __global uchar *p)
{
    size_t i = get_global_id(0);
    char x = a[i];
    uchar y = b[i];
    short z = c[i];
    o[i] = x * y + z;
    p[i] = (uchar)(x + y) + (x < y) + (uchar)(z >> 8);
}
