__kernel void mandelbrot(__global uint *out, int width, int height, int max_iter)
{
    int x = get_global_id(0);
    int y = get_global_id(1);
    if (x >= width || y >= height)
        return;
    float cr = -2.0f + 3.0f * x / (float)width;
    float ci = -1.5f + 3.0f * y / (float)height;
    float zr = 0.0f, zi = 0.0f;
    int it = 0;
    while (zr * zr + zi * zi <= 4.0f && it < max_iter) {
        float t = zr * zr - zi * zi + cr;
        zi = 2.0f * zr * zi + ci;
        zr = t;
        it++;
    }
    out[y * width + x] = it;
}
