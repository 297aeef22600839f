//! kernel: reduce_local
//! global: 4096
//! local: 128
//! arg: int[4096] rand(-1000,1000)
//! arg: int[32] zeros
//! arg: local 512
// Tree reduction in __local memory with a barrier inside the loop.
__kernel void reduce_local(__global const int *in, __global int *partial, __local int *scratch)
{
    size_t lid = get_local_id(0);
    scratch[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (lid < s) scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) partial[get_group_id(0)] = scratch[0];
}
