//! kernel: offset_3d
//! global: 8,6,4
//! local: 4,3,2
//! offset: 2,1,3
//! arg: uint[192] zeros
//! arg: uint[192] zeros
// A 3-dimensional range with a global offset: work-item queries in every dimension.
__kernel void offset_3d(__global uint *lin, __global uint *info)
{
    size_t x = get_global_id(0) - get_global_offset(0), y = get_global_id(1) - get_global_offset(1);
    size_t z = get_global_id(2) - get_global_offset(2);
    size_t w = get_global_size(0), h = get_global_size(1);
    size_t idx = (z * h + y) * w + x;
    lin[idx] = get_local_id(0) + get_local_id(1) * 10 + get_local_id(2) * 100 + get_work_dim() * 1000;
    info[idx] = get_group_id(0) + get_group_id(1) * 10 + get_group_id(2) * 100 + get_num_groups(2) * 1000 + get_local_size(2) * 10000 + get_global_id(2) * 100000;
}
