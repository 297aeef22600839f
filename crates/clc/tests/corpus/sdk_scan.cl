__kernel void scan(__global int *data, __local int *tmp, int n)
{
    int lid = get_local_id(0);
    int offset = 1;
    tmp[2 * lid] = data[2 * lid];
    tmp[2 * lid + 1] = data[2 * lid + 1];
    for (int d = n >> 1; d > 0; d >>= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < d) {
            int ai = offset * (2 * lid + 1) - 1, bi = offset * (2 * lid + 2) - 1;
            tmp[bi] += tmp[ai];
        }
        offset *= 2;
    }
    if (lid == 0) tmp[n - 1] = 0;
    for (int d = 1; d < n; d *= 2) {
        offset >>= 1;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < d) {
            int ai = offset * (2 * lid + 1) - 1, bi = offset * (2 * lid + 2) - 1;
            int t = tmp[ai]; tmp[ai] = tmp[bi]; tmp[bi] += t;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    data[2 * lid] = tmp[2 * lid];
    data[2 * lid + 1] = tmp[2 * lid + 1];
}
