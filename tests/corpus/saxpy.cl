//! kernel: saxpy
//! global: 4096
//! arg: float 2.5
//! arg: float[4096] rand(-10,10)
//! arg: float[4096] rand(-10,10)
#pragma OPENCL FP_CONTRACT OFF
__kernel void saxpy(float a, __global const float *x, __global float *y)
{
    int i = get_global_id(0);
    y[i] = a * x[i] + y[i];
}
