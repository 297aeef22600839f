__kernel __attribute__((work_group_size_hint(8, 4, 1))) __attribute__((vec_type_hint(float4)))
void hinted(__global float4 *restrict out, __global const float4 *restrict in)
{
    size_t i = get_global_id(0);
    __attribute__((opencl_unroll_hint(4)))
    for (int k = 0; k < 4; k++)
        out[i] += in[i] * (float)k;
}

__kernel void __attribute__((reqd_work_group_size(16, 2, 1))) fixed(__global int *p)
{
    p[get_local_id(0) + 16 * get_local_id(1)] = (int)get_local_size(1);
}
