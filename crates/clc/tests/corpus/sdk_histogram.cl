__kernel void histogram(__global const uchar *data, uint n, __global uint *bins, __local uint *local_bins)
{
    uint lid = get_local_id(0), lsz = get_local_size(0);
    for (uint i = lid; i < 256; i += lsz) local_bins[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = get_global_id(0); i < n; i += get_global_size(0))
        atomic_inc(&local_bins[data[i]]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = lid; i < 256; i += lsz) atomic_add(&bins[i], local_bins[i]);
}
