__kernel void copy_tile(__global const float4 *src, __global float4 *dst, __local float4 *tile, __global uint4 *m)
{
    event_t e = async_work_group_copy(tile, src + get_group_id(0) * 64, 64, 0);
    wait_group_events(1, &e);
    event_t e2 = async_work_group_strided_copy(dst, tile, 32, 2, 0);
    wait_group_events(1, &e2);
    prefetch(src, 16);
    float4 v = tile[get_local_id(0)];
    uint4 mask = m[0];
    dst[get_global_id(0)] = shuffle(v, mask) + shuffle2(v, v, mask).wzyx;
    float8 w = shuffle(v, (uint8)(0, 1, 2, 3, 3, 2, 1, 0));
    dst[0] = w.lo + w.hi;
}
