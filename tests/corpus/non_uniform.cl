//! kernel: non_uniform
//! global: 1000
//! local: 64
//! options: -cl-std=CL2.0
//! arg: uint[1000] zeros
//! arg: uint[1000] zeros
// OpenCL 2.0 non-uniform work-groups: the last group has 1000 - 15*64 = 40 work-items.
__kernel void non_uniform(__global uint *sizes, __global uint *ids)
{
    size_t i = get_global_id(0);
    sizes[i] = get_local_size(0) * 1000 + get_enqueued_local_size(0);
    ids[i] = get_group_id(0) * 100000 + get_local_id(0) * 10 + get_num_groups(0);
}
