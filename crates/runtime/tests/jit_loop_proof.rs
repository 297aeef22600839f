//! Accesses of counted loops proven in bounds once for the whole loop
//! (`exec::jit::compile::vector::loop_proof`): matrix products (tiled through `__local`
//! memory, naive through `__global` memory) with sizes that are not multiples of the tile or
//! of the vector width, against Rust references and the interpreter (bit-identical), and loop
//! bounds that make an access leave its buffer or an index wrap: the same error, for the same
//! work-item, as on the interpreter.

mod jit_harness;

use jit_harness::*;

const TS: usize = 8;

/// The tiled product with zero padding where the tile leaves the matrix, and an inner loop
/// bound `kt` (the tile size, or more to leave the `__local` tiles).
const TILED: &str = "#define TS 8
__kernel void tiled(int n, int kt, __global const float *A, __global const float *B,
                    __global float *C) {
    __local float As[TS * TS];
    __local float Bs[TS * TS];
    int lr = get_local_id(1), lc = get_local_id(0);
    int row = get_global_id(1), col = get_global_id(0);
    float acc = 0.0f;
    for (int t = 0; t < n; t += TS) {
        As[lr * TS + lc] = (row < n && t + lc < n) ? A[row * n + t + lc] : 0.0f;
        Bs[lr * TS + lc] = (t + lr < n && col < n) ? B[(t + lr) * n + col] : 0.0f;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < kt; k++)
            acc += As[lr * TS + k] * Bs[k * TS + lc];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (row < n && col < n)
        C[row * n + col] = acc;
}";

fn tiled_args(n: usize, kt: i32, a: &[f32], b: &[f32]) -> Vec<Arg> {
    vec![
        i32v(n as i32),
        i32v(kt),
        Arg::Buf(f32s(a)),
        Arg::Buf(f32s(b)),
        Arg::Buf(vec![0; 4 * n * n]),
    ]
}

#[test]
fn tiled_products_match_the_reference() {
    for n in [8usize, 13, 24, 30] {
        let (a, b) = (floats(n * n, 1), floats(n * n, 2));
        let g = n.div_ceil(TS) * TS;
        let (r, bufs) = both(
            TILED,
            "tiled",
            &tiled_args(n, TS as i32, &a, &b),
            &[g, g],
            &[TS, TS],
        );
        r.expect("runs");
        assert_eq!(to_f32s(&bufs[2]), tiled_reference(n, TS, &a, &b), "n = {n}");
    }
}

#[test]
fn tiled_inner_loop_leaving_the_tile_fails_like_the_interpreter() {
    // k runs to 2 TS − 1: Bs[k * TS + lc] leaves Bs at k = TS for every work-item, As at
    // lr = 7 only; the first work-item's error is reported by both engines.
    let n = 16usize;
    let (a, b) = (floats(n * n, 3), floats(n * n, 4));
    for kt in [TS as i32 + 1, 2 * TS as i32] {
        let (r, _) = both(
            TILED,
            "tiled",
            &tiled_args(n, kt, &a, &b),
            &[n, n],
            &[TS, TS],
        );
        let err = r.expect_err("out of bounds");
        assert!(err.contains("work-item"), "{err}");
    }
    // Empty and shorter inner loops: only the first kt columns of each tile count.
    for kt in [0, -3, 5] {
        let (r, bufs) = both(
            TILED,
            "tiled",
            &tiled_args(n, kt, &a, &b),
            &[n, n],
            &[TS, TS],
        );
        r.expect("runs");
        let mut expect = vec![0.0f32; n * n];
        for row in 0..n {
            for col in 0..n {
                let mut acc = 0.0f32;
                for t in (0..n).step_by(TS) {
                    for k in 0..kt.max(0) as usize {
                        acc += a[row * n + t + k] * b[(t + k) * n + col];
                    }
                }
                expect[row * n + col] = acc;
            }
        }
        assert_eq!(to_f32s(&bufs[2]), expect, "kt = {kt}");
    }
}

/// The naive product with a separate loop bound `kn` and a row stride `m` of B.
const NAIVE: &str =
    "__kernel void naive(int n, int kn, int m, __global const float *A, __global const float *B,
                    __global float *C) {
    int row = get_global_id(1), col = get_global_id(0);
    float acc = 0.0f;
    for (int k = 0; k < kn; k++)
        acc += A[row * n + k] * B[k * m + col];
    C[row * n + col] = acc;
}";

fn naive_args(n: usize, kn: i32, m: i32, a: &[f32], b: &[f32]) -> Vec<Arg> {
    vec![
        i32v(n as i32),
        i32v(kn),
        i32v(m),
        Arg::Buf(f32s(a)),
        Arg::Buf(f32s(b)),
        Arg::Buf(vec![0; 4 * n * n]),
    ]
}

#[test]
fn naive_products_match_the_reference() {
    // Rows of 6 work-items: one vectorised iteration and a scalar tail.
    for (n, local) in [(12usize, [6usize, 3usize]), (18, [6, 2]), (16, [16, 1])] {
        let (a, b) = (floats(n * n, 5), floats(n * n, 6));
        let (r, bufs) = both(
            NAIVE,
            "naive",
            &naive_args(n, n as i32, n as i32, &a, &b),
            &[n, n],
            &local,
        );
        r.expect("runs");
        let mut expect = vec![0.0f32; n * n];
        for row in 0..n {
            for col in 0..n {
                let mut acc = 0.0f32;
                for k in 0..n {
                    acc += a[row * n + k] * b[k * n + col];
                }
                expect[row * n + col] = acc;
            }
        }
        assert_eq!(to_f32s(&bufs[2]), expect, "n = {n}");
    }
}

#[test]
fn naive_loop_past_the_matrix_fails_like_the_interpreter() {
    // kn = n + 1: B[n * n + col] leaves B at the last k of every work-item, A[row * n + n]
    // only in the last row; the first failing work-item is the same on both engines.
    let n = 12usize;
    let (a, b) = (floats(n * n, 7), floats(n * n, 8));
    let (r, _) = both(
        NAIVE,
        "naive",
        &naive_args(n, n as i32 + 1, n as i32, &a, &b),
        &[n, n],
        &[6, 2],
    );
    let err = r.expect_err("out of bounds");
    assert!(err.contains("work-item [0, 0, 0]"), "{err}");
}

#[test]
fn naive_index_wrapping_inside_the_loop_fails_like_the_interpreter() {
    // m = INT_MIN: k * m is 0 at k = 0 and k = 2 (it wraps) but INT_MIN at k = 1, out of B.
    // The ends of the range are in bounds: only the no-wrap check refuses the proof.
    let n = 8usize;
    let (a, b) = (floats(n * n, 9), floats(n * n, 10));
    let (r, _) = both(
        NAIVE,
        "naive",
        &naive_args(n, 3, i32::MIN, &a, &b),
        &[n, n],
        &[8, 1],
    );
    let err = r.expect_err("out of bounds");
    assert!(err.contains("work-item [0, 0, 0]"), "{err}");
    // m = 0: every k reads row 0 of B (in bounds).
    let (r, bufs) = both(
        NAIVE,
        "naive",
        &naive_args(n, 3, 0, &a, &b),
        &[n, n],
        &[8, 1],
    );
    r.expect("runs");
    let mut expect = vec![0.0f32; n * n];
    for row in 0..n {
        for col in 0..n {
            let mut acc = 0.0f32;
            for k in 0..3 {
                acc += a[row * n + k] * b[col];
            }
            expect[row * n + col] = acc;
        }
    }
    assert_eq!(to_f32s(&bufs[2]), expect);
}
