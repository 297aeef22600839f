//! kernel: prefix_scan
//! global: 1024
//! local: 256
//! arg: int[1024] rand(-100,100)
//! arg: int[1024] zeros
//! arg: local 1024
//! arg: local 1024
// Hillis-Steele inclusive scan per work-group, double-buffered in __local memory.
__kernel void prefix_scan(__global const int *in, __global int *out, __local int *a, __local int *b)
{
    int lid = get_local_id(0);
    int n = get_local_size(0);
    a[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    __local int *src = a, *dst = b;
    for (int offset = 1; offset < n; offset *= 2) {
        dst[lid] = lid >= offset ? src[lid] + src[lid - offset] : src[lid];
        barrier(CLK_LOCAL_MEM_FENCE);
        __local int *t = src;
        src = dst;
        dst = t;
    }
    out[get_global_id(0)] = src[lid];
}
