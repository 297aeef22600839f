//! kernel: logic_ops
//! global: 512
//! arg: int[512] rand(-3,3)
//! arg: int[512] zeros
//! arg: int[512] zeros
// Short-circuit && and || with side effects, !, the comma operator, compound assignments, ++/--.
__kernel void logic_ops(__global const int *in, __global int *o, __global int *side)
{
    int i = get_global_id(0);
    int x = in[i];
    int count = 0;
    int r = (x > 0 && ++count > 0) || (x < -1 && (count += 10) > 0);
    r += !x + (x ? 5 : 6);
    int y = (count++, count * 3);
    y <<= 2;
    y |= 1;
    y -= x--;
    y %= 7 + (x & 3);
    o[i] = r * 100 + y;
    side[i] = count + x;
}
