//! kernel: mandelbrot
//! global: 96,64
//! arg: uchar[6144] zeros
//! arg: int 200
#pragma OPENCL FP_CONTRACT OFF
// Escape-time fractal: iteration counts per pixel.
__kernel void mandelbrot(__global uchar *out, int max_iter)
{
    int px = get_global_id(0), py = get_global_id(1);
    float cx = -2.0f + 2.5f * px / get_global_size(0);
    float cy = -1.0f + 2.0f * py / get_global_size(1);
    float x = 0.0f, y = 0.0f;
    int i = 0;
    while (x * x + y * y <= 4.0f && i < max_iter) {
        float t = x * x - y * y + cx;
        y = 2.0f * x * y + cy;
        x = t;
        i++;
    }
    out[py * get_global_size(0) + px] = (uchar)min(i, 255);
}
