__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void reduce(__global const float *in, __global float *out, __local float *scratch)
{
    __local float tile[64];
    size_t lid = get_local_id(0);
    size_t gid = get_global_id(0);
    tile[lid] = in[gid];
    scratch[lid] = 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (lid < s)
            tile[lid] += tile[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    }
    if (lid == 0)
        out[get_group_id(0)] = tile[0];
    mem_fence(CLK_GLOBAL_MEM_FENCE);
}
