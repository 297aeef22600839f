__constant float filter[3][3] = { {1, 2, 1}, {2, 4, 2}, {1, 2, 1} };
__kernel void conv(__global const float *in, __global float *out, int w, int h)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x < 1 || y < 1 || x >= w - 1 || y >= h - 1) return;
    float s = 0;
    for (int j = -1; j <= 1; j++)
        for (int i = -1; i <= 1; i++)
            s += filter[j + 1][i + 1] * in[(y + j) * w + (x + i)];
    out[y * w + x] = s / 16.0f;
}
