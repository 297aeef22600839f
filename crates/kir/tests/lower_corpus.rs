//! A corpus of typical OpenCL kernels (matrix multiply, reductions, scans, sorting networks,
//! stencils, histograms, n-body, Mandelbrot, Black-Scholes, …) compiled by clang-15 +
//! llvm-spirv-15: each must lower to kir that passes the verifier, with every work-item query
//! and every `Function` variable of scalar type resolved.

mod lower_common;

use lower_common::lower_source;

fn check(src: &str) {
    let Some(m) = lower_source(src) else { return };
    assert!(!m.kernels.is_empty());
    kir::verify_module(&m).unwrap_or_else(|e| panic!("{e}\n{m}"));
}

#[test]
fn matrix_multiply_with_local_tiles() {
    check(
        r#"
        #define TS 8
        __kernel void mm(__global const float *A, __global const float *B, __global float *C, int N) {
            __local float As[TS][TS];
            __local float Bs[TS][TS];
            int row = get_local_id(1), col = get_local_id(0);
            int gr = get_global_id(1), gc = get_global_id(0);
            float acc = 0.0f;
            for (int t = 0; t < N / TS; t++) {
                As[row][col] = A[gr * N + t * TS + col];
                Bs[row][col] = B[(t * TS + row) * N + gc];
                barrier(CLK_LOCAL_MEM_FENCE);
                for (int k = 0; k < TS; k++) acc += As[row][k] * Bs[k][col];
                barrier(CLK_LOCAL_MEM_FENCE);
            }
            C[gr * N + gc] = acc;
        }"#,
    );
}

#[test]
fn histogram_with_local_atomics() {
    check(
        r#"
        __kernel void hist(__global const uchar *data, int n, __global uint *bins, __local uint *lb) {
            for (int i = get_local_id(0); i < 256; i += get_local_size(0)) lb[i] = 0;
            barrier(CLK_LOCAL_MEM_FENCE);
            for (int i = get_global_id(0); i < n; i += get_global_size(0)) atomic_inc(&lb[data[i]]);
            barrier(CLK_LOCAL_MEM_FENCE);
            for (int i = get_local_id(0); i < 256; i += get_local_size(0)) atomic_add(&bins[i], lb[i]);
        }"#,
    );
}

#[test]
fn bitonic_sort_step_and_prefix_sum() {
    check(
        r#"
        __kernel void bitonic(__global int *a, uint j, uint k) {
            uint i = get_global_id(0), ixj = i ^ j;
            if (ixj > i) {
                int x = a[i], y = a[ixj];
                bool up = (i & k) == 0;
                if ((up && x > y) || (!up && x < y)) { a[i] = y; a[ixj] = x; }
            }
        }
        __kernel void scan(__global float *out, __global const float *in, __local float *tmp, int n) {
            int t = get_local_id(0);
            int pout = 0, pin = 1;
            tmp[t] = t > 0 ? in[t - 1] : 0;
            barrier(CLK_LOCAL_MEM_FENCE);
            for (int off = 1; off < n; off *= 2) {
                pout = 1 - pout; pin = 1 - pout;
                if (t >= off) tmp[pout * n + t] = tmp[pin * n + t] + tmp[pin * n + t - off];
                else tmp[pout * n + t] = tmp[pin * n + t];
                barrier(CLK_LOCAL_MEM_FENCE);
            }
            out[t] = tmp[pout * n + t];
        }"#,
    );
}

#[test]
fn stencil_and_convolution() {
    check(
        r#"
        __constant float w[3][3] = {{1, 2, 1}, {2, 4, 2}, {1, 2, 1}};
        __kernel void blur(__global const float *in, __global float *out, int W, int H) {
            int x = get_global_id(0), y = get_global_id(1);
            if (x < 1 || y < 1 || x >= W - 1 || y >= H - 1) return;
            float s = 0;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++)
                    s += w[dy + 1][dx + 1] * in[(y + dy) * W + x + dx];
            out[y * W + x] = s / 16.0f;
        }"#,
    );
}

#[test]
fn nbody_and_mandelbrot() {
    check(
        r#"
        __kernel void nbody(__global float4 *pos, __global float4 *vel, int n, float dt, float eps) {
            int i = get_global_id(0);
            float4 p = pos[i];
            float4 a = (float4)(0.0f);
            for (int j = 0; j < n; j++) {
                float4 d = pos[j] - p;
                float inv = rsqrt(d.x * d.x + d.y * d.y + d.z * d.z + eps);
                a += d * (pos[j].w * inv * inv * inv);
            }
            vel[i] += a * dt;
            pos[i] = p + vel[i] * dt;
        }
        __kernel void mandel(__global uint *out, int w, int h, int maxit) {
            int x = get_global_id(0), y = get_global_id(1);
            float cr = -2.0f + 3.0f * x / w, ci = -1.5f + 3.0f * y / h;
            float zr = 0, zi = 0;
            int it = 0;
            while (zr * zr + zi * zi < 4.0f && it < maxit) {
                float t = zr * zr - zi * zi + cr;
                zi = 2 * zr * zi + ci; zr = t; it++;
            }
            out[y * w + x] = it;
        }"#,
    );
}

#[test]
fn black_scholes_with_math_functions() {
    check(
        r#"
        float cnd(float d) {
            const float A1 = 0.31938153f, A2 = -0.356563782f, A3 = 1.781477937f;
            const float A4 = -1.821255978f, A5 = 1.330274429f, RSQRT2PI = 0.39894228040143267793994605993438f;
            float K = 1.0f / (1.0f + 0.2316419f * fabs(d));
            float c = RSQRT2PI * exp(-0.5f * d * d) * (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5)))));
            return d > 0 ? 1.0f - c : c;
        }
        __kernel void bs(__global float *call, __global float *put, __global const float *S,
                         __global const float *X, __global const float *T, float R, float V) {
            int i = get_global_id(0);
            float sq = sqrt(T[i]);
            float d1 = (log(S[i] / X[i]) + (R + 0.5f * V * V) * T[i]) / (V * sq);
            float d2 = d1 - V * sq;
            float e = exp(-R * T[i]);
            call[i] = S[i] * cnd(d1) - X[i] * e * cnd(d2);
            put[i] = X[i] * e * (1.0f - cnd(d2)) - S[i] * (1.0f - cnd(d1));
        }"#,
    );
}

#[test]
fn doubles_longs_and_char_vectors() {
    check(
        r#"
        #pragma OPENCL EXTENSION cl_khr_fp64 : enable
        __kernel void k(__global double *d, __global long *l, __global uchar4 *c, __global short8 *s) {
            int i = get_global_id(0);
            d[i] = sqrt(d[i]) + pow(d[i], 2.0) + (double)l[i] + fma(d[i], d[i], 1.0);
            l[i] = l[i] * 3 / 7 + (l[i] >> 5) + mul_hi(l[i], l[i]) + popcount(l[i]);
            c[i] = convert_uchar4_sat(convert_int4(c[i]) * 2 - 3) + rotate(c[i], (uchar4)(1));
            s[i] = s[i].s76543210 + (short8)(1) + as_short8(abs_diff(s[i], (short8)(5))).s01234567;
        }"#,
    );
}
