#define TILE 16
__kernel void matmul(__global const float *A, __global const float *B, __global float *C, int M, int N, int K)
{
    __local float As[TILE][TILE];
    __local float Bs[TILE][TILE];
    int row = get_global_id(1), col = get_global_id(0);
    int lr = get_local_id(1), lc = get_local_id(0);
    float acc = 0.0f;
    for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
        int ac = t * TILE + lc, br = t * TILE + lr;
        As[lr][lc] = (row < M && ac < K) ? A[row * K + ac] : 0.0f;
        Bs[lr][lc] = (br < K && col < N) ? B[br * N + col] : 0.0f;
        barrier(CLK_LOCAL_MEM_FENCE);
        #pragma unroll
        for (int k = 0; k < TILE; ++k)
            acc += As[lr][k] * Bs[k][lc];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}
