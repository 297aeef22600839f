__kernel void nbody(__global float4 *pos, __global float4 *vel, int n, float dt, float eps, __local float4 *cache)
{
    int gid = get_global_id(0), lid = get_local_id(0), ls = get_local_size(0);
    float4 p = pos[gid];
    float4 a = (float4)(0.0f);
    for (int tile = 0; tile < n / ls; tile++) {
        cache[lid] = pos[tile * ls + lid];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int j = 0; j < ls; j++) {
            float4 d = cache[j] - p;
            float inv = rsqrt(d.x * d.x + d.y * d.y + d.z * d.z + eps);
            float s = cache[j].w * inv * inv * inv;
            a.xyz += s * d.xyz;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    float4 v = vel[gid] + a * dt;
    pos[gid] = p + v * dt;
    vel[gid] = v;
}
