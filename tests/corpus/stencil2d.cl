//! kernel: stencil2d
//! global: 64,48
//! arg: float[3072] rand(0,1)
//! arg: float[3072] zeros
#pragma OPENCL FP_CONTRACT OFF
// 5-point stencil with clamped borders.
__kernel void stencil2d(__global const float *in, __global float *out)
{
    int x = get_global_id(0), y = get_global_id(1);
    int w = get_global_size(0), h = get_global_size(1);
    int xl = max(x - 1, 0), xr = min(x + 1, w - 1);
    int yu = max(y - 1, 0), yd = min(y + 1, h - 1);
    float c = in[y * w + x];
    out[y * w + x] = 0.5f * c + 0.125f * (in[y * w + xl] + in[y * w + xr] + in[yu * w + x] + in[yd * w + x]);
}
