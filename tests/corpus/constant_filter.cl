//! kernel: constant_filter
//! global: 500
//! arg: float[512] rand(-1,1)
//! arg: float[5] rand(0,1)
//! arg: float[500] zeros
#pragma OPENCL FP_CONTRACT OFF
// A 1D convolution with the weights in a __constant buffer.
__kernel void constant_filter(__global const float *in, __constant float *weights, __global float *out)
{
    int i = get_global_id(0);
    float acc = 0.0f;
    for (int k = 0; k < 5; k++) acc += in[i + k] * weights[k];
    out[i] = acc;
}
