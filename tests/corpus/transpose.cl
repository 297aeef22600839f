//! kernel: transpose
//! global: 64,32
//! local: 16,16
//! arg: float[2048] rand(-1,1)
//! arg: float[2048] zeros
// Matrix transpose (32 rows x 64 columns) through a padded __local tile.
#define T 16
__kernel void transpose(__global const float *in, __global float *out)
{
    __local float tile[T][T + 1];
    int gx = get_group_id(0), gy = get_group_id(1);
    int lx = get_local_id(0), ly = get_local_id(1);
    int w = get_global_size(0), h = get_global_size(1);
    tile[ly][lx] = in[(gy * T + ly) * w + gx * T + lx];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[(gx * T + ly) * h + gy * T + lx] = tile[lx][ly];
}
