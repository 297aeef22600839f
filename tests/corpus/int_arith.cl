//! kernel: int_arith
//! global: 1024
//! arg: int[1024] bits
//! arg: int[1024] rand(-50,50)
//! arg: int[1024] zeros
//! arg: int[1024] zeros
//! arg: uint[1024] zeros
// Signed division and remainder (truncating), mul_hi, abs, min/max, clamp, saturating add.
__kernel void int_arith(__global const int *a, __global const int *b, __global int *q, __global int *r, __global uint *m)
{
    size_t i = get_global_id(0);
    int x = a[i], y = b[i];
    if (y == 0) y = 7;
    if (x == INT_MIN && y == -1) y = 1;
    q[i] = x / y + mul_hi(x, y);
    r[i] = x % y + clamp(x, -1000, 1000) + max(x, y) - min(x, y);
    m[i] = abs(x) + abs_diff(x, y) + (uint)add_sat(x, y * 1000000) + (uint)sub_sat(x, 5) + hadd(x, y);
}
