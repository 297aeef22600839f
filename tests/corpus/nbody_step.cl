//! kernel: nbody_step
//! global: 128
//! local: 32
//! compare: ulp 2
//! arg: float4[128] rand(-1,1)
//! arg: float4[128] zeros
//! arg: local 512
// One n-body acceleration step with positions staged through __local memory (float4 = x,y,z,mass).
#pragma OPENCL FP_CONTRACT OFF
__kernel void nbody_step(__global const float4 *pos, __global float4 *acc, __local float4 *tile)
{
    int i = get_global_id(0);
    int lid = get_local_id(0);
    float4 p = pos[i];
    float3 a = (float3)(0.0f);
    for (int t = 0; t < get_num_groups(0); t++) {
        tile[lid] = pos[t * get_local_size(0) + lid];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int j = 0; j < get_local_size(0); j++) {
            float4 q = tile[j];
            float3 d = q.xyz - p.xyz;
            float r2 = d.x * d.x + d.y * d.y + d.z * d.z + 0.01f;
            float inv = 1.0f / sqrt(r2);
            a += d * (fabs(q.w) * inv * inv * inv);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    acc[i] = (float4)(a, 0.0f);
}
