//! kernel: matmul_tiled
//! global: 64,64
//! local: 16,16
//! options: -DTILE=16
//! arg: float[4096] rand(-1,1)
//! arg: float[4096] rand(-1,1)
//! arg: float[4096] zeros
//! arg: int 64
#pragma OPENCL FP_CONTRACT OFF
// Square matrix multiplication with __local tiles and two barriers per tile.
__kernel void matmul_tiled(__global const float *A, __global const float *B, __global float *C, int n)
{
    __local float As[TILE][TILE];
    __local float Bs[TILE][TILE];
    int tx = get_local_id(0), ty = get_local_id(1);
    int col = get_global_id(0), row = get_global_id(1);
    float acc = 0.0f;
    for (int t = 0; t < n / TILE; t++) {
        As[ty][tx] = A[row * n + t * TILE + tx];
        Bs[ty][tx] = B[(t * TILE + ty) * n + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TILE; k++)
            acc += As[ty][k] * Bs[k][tx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    C[row * n + col] = acc;
}
