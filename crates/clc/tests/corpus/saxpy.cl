__kernel void saxpy(float a, __global const float *x, __global float *y)
{
    size_t i = get_global_id(0);
    y[i] = a * x[i] + y[i];
}

__kernel void saxpy4(float a, __global const float4 *x, __global float4 *y)
{
    size_t i = get_global_id(0);
    y[i] = mad((float4)(a), x[i], y[i]);
}
