//! kernel: work_item
//! global: 40,12
//! local: 8,4
//! arg: ulong[480] zeros
//! arg: uint[480] zeros
// Work-item queries in 2D, get_global_offset (0 here) and a dynamic dimension index.
__kernel void work_item(__global ulong *g, __global uint *misc)
{
    size_t x = get_global_id(0), y = get_global_id(1);
    size_t idx = y * get_global_size(0) + x;
    uint d = (uint)(idx % 3);
    g[idx] = get_global_id(d) + get_global_size(d) * 100 + get_local_size(d) * 10000;
    misc[idx] = get_num_groups(0) + get_num_groups(1) * 10 + get_global_offset(0) * 100 + get_group_id(1) * 1000;
}
