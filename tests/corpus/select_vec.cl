//! kernel: select_vec
//! global: 256
//! arg: int4[256] rand(-5,5)
//! arg: int4[256] rand(-5,5)
//! arg: int4[256] zeros
//! arg: int4[256] zeros
//! arg: int[256] zeros
// Vector comparisons give -1/0, select on vector conditions, ?: with vector conditions, any/all.
__kernel void select_vec(__global const int4 *a, __global const int4 *b, __global int4 *cmp, __global int4 *sel, __global int *red)
{
    size_t i = get_global_id(0);
    int4 x = a[i], y = b[i];
    int4 lt = x < y;
    cmp[i] = lt + (x == y) * 10 + (x >= y) * 100 + (!x) * 1000;
    sel[i] = select(x, y, lt) + (lt ? x : y) * 2 + ((x != 0) && (y != 0));
    red[i] = any(lt) + all(lt) * 2 + (x.x > y.x) * 4 + (x.y == y.y ? 8 : 0);
}
