//! kernel: local_array
//! global: 512
//! local: 64
//! arg: int[512] rand(-1000,1000)
//! arg: int[512] zeros
// A __local array declared in the kernel body: reverse each work-group's block.
__kernel void local_array(__global const int *in, __global int *out)
{
    __local int tile[64];
    int lid = get_local_id(0);
    int base = get_group_id(0) * get_local_size(0);
    tile[lid] = in[base + lid];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[base + lid] = tile[get_local_size(0) - 1 - lid] * 2 + tile[lid];
}
