//! kernel: vadd_int4
//! global: 256
//! local: 64
//! arg: int4[256] bits
//! arg: int4[256] bits
//! arg: int4[256] zeros
//! arg: int4[256] zeros
// Integer vectors: wrapping add, multiply, unary minus and complement per component.
__kernel void vadd_int4(__global const int4 *a, __global const int4 *b, __global int4 *sum, __global int4 *other)
{
    size_t i = get_global_id(0);
    int4 x = a[i], y = b[i];
    sum[i] = x + y;
    other[i] = (x * y) ^ (-x) ^ ~y;
}
