//! kernel: matmul
//! global: 48,32
//! local: 16,8
//! arg: float[2048] rand(-1,1)
//! arg: float[3072] rand(-1,1)
//! arg: float[1536] zeros
//! arg: int 64
//! arg: int 48
#pragma OPENCL FP_CONTRACT OFF
// C (32x48) = A (32x64) * B (64x48), one work-item per element of C.
__kernel void matmul(__global const float *A, __global const float *B, __global float *C, int K, int N)
{
    int col = get_global_id(0);
    int row = get_global_id(1);
    float acc = 0.0f;
    for (int k = 0; k < K; k++)
        acc += A[row * K + k] * B[k * N + col];
    C[row * N + col] = acc;
}
