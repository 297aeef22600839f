#define BLOCK 16
__kernel void transpose(__global float *out, __global const float *in, int w, int h, __local float *block)
{
    uint x = get_global_id(0), y = get_global_id(1);
    if (x < w && y < h)
        block[get_local_id(1) * (BLOCK + 1) + get_local_id(0)] = in[y * w + x];
    barrier(CLK_LOCAL_MEM_FENCE);
    x = get_group_id(1) * BLOCK + get_local_id(0);
    y = get_group_id(0) * BLOCK + get_local_id(1);
    if (x < h && y < w)
        out[y * h + x] = block[get_local_id(0) * (BLOCK + 1) + get_local_id(1)];
}
