//! kernel: histogram
//! global: 256
//! local: 64
//! arg: uchar[4096] bits
//! arg: uint[64] zeros
//! arg: local 256
// A per-group histogram without atomics: each work-item owns one bin and scans the group's data.
__kernel void histogram(__global const uchar *data, __global uint *hist, __local uint *bins)
{
    int lid = get_local_id(0);
    int group = get_group_id(0);
    int per_group = 4096 / get_num_groups(0);
    uint count = 0;
    for (int k = 0; k < per_group; k++)
        count += (data[group * per_group + k] >> 2) == lid;
    bins[lid] = count;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (group == 0) {
        hist[lid] = bins[lid];
    }
}
