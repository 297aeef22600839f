//! Tiled kernels on the JIT's vectorised phase loop, whose work-item ids, their conversions
//! and constants are translated again in every block that reads them after a barrier
//! (`exec::jit::compile::vector::block_remat`): the bench's `sgemm_tiled` (16 × 16 tiles),
//! a padded tiled product for sizes that are not multiples of the tile, a loop of phases
//! that reads converted ids on both sides of a branch, against Rust references and the
//! interpreter (bit-identical), and tile loads leaving their buffer: the same error, for the
//! same work-item, as on the interpreter.

mod jit_harness;

use jit_harness::*;

const TS: usize = 16;

/// The bench's kernel (`oxcl bench`'s sgemm_tiled): no padding, `n` a multiple of 16.
const SGEMM_TILED: &str = "#define TS 16
__kernel void sgemm_tiled(int n, __global const float *A, __global const float *B,
                          __global float *C) {
    __local float As[TS][TS];
    __local float Bs[TS][TS];
    int lr = get_local_id(1), lc = get_local_id(0);
    int row = get_global_id(1), col = get_global_id(0);
    float acc = 0.0f;
    for (int t = 0; t < n; t += TS) {
        As[lr][lc] = A[row * n + t + lc];
        Bs[lr][lc] = B[(t + lr) * n + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TS; k++)
            acc += As[lr][k] * Bs[k][lc];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    C[row * n + col] = acc;
}";

/// Zero padding where the tile leaves the matrix (any `n`).
const PADDED: &str = "#define TS 16
__kernel void padded(int n, __global const float *A, __global const float *B,
                     __global float *C) {
    __local float As[TS][TS];
    __local float Bs[TS][TS];
    int lr = get_local_id(1), lc = get_local_id(0);
    int row = get_global_id(1), col = get_global_id(0);
    float acc = 0.0f;
    for (int t = 0; t < n; t += TS) {
        As[lr][lc] = (row < n && t + lc < n) ? A[row * n + t + lc] : 0.0f;
        Bs[lr][lc] = (t + lr < n && col < n) ? B[(t + lr) * n + col] : 0.0f;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TS; k++)
            acc += As[lr][k] * Bs[k][lc];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (row < n && col < n)
        C[row * n + col] = acc;
}";

fn product_args(n: i32, a: &[f32], b: &[f32], c_len: usize) -> Vec<Arg> {
    vec![
        i32v(n),
        Arg::Buf(f32s(a)),
        Arg::Buf(f32s(b)),
        Arg::Buf(vec![0; 4 * c_len]),
    ]
}

#[test]
fn bench_kernel_matches_the_reference() {
    for n in [16usize, 32, 48] {
        let (a, b) = (floats(n * n, 1), floats(n * n, 2));
        let (r, bufs) = both(
            SGEMM_TILED,
            "sgemm_tiled",
            &product_args(n as i32, &a, &b, n * n),
            &[n, n],
            &[TS, TS],
        );
        r.expect("runs");
        assert_eq!(to_f32s(&bufs[2]), tiled_reference(n, TS, &a, &b), "n = {n}");
    }
}

#[test]
fn padded_tiles_of_sizes_not_multiple_of_the_tile() {
    for n in [1usize, 5, 17, 20, 37] {
        let (a, b) = (floats(n * n, 3), floats(n * n, 4));
        let g = n.div_ceil(TS) * TS;
        let (r, bufs) = both(
            PADDED,
            "padded",
            &product_args(n as i32, &a, &b, n * n),
            &[g, g],
            &[TS, TS],
        );
        r.expect("runs");
        assert_eq!(to_f32s(&bufs[2]), tiled_reference(n, TS, &a, &b), "n = {n}");
    }
}

#[test]
fn tile_loads_leaving_the_buffer_fail_for_the_interpreters_work_item() {
    // n = 20 without padding on 32 × 32 work-items. In group (0, 0), the second tile step
    // (t = 16) loads B[(16 + lr) · 20 + col]: with B holding 402 floats, (lr, col) = (4, 2)
    // is the first work-item (x fastest) whose index (402) leaves it, the third lane of an
    // iteration of four; A[row · 20 + 16 + lc] stays below 332 in that group.
    let n = 20usize;
    let (a, b) = (floats(n * n, 5), floats(n * n + 2, 6));
    let (r, _) = both(
        SGEMM_TILED,
        "sgemm_tiled",
        &product_args(n as i32, &a, &b, 32 * 32),
        &[32, 32],
        &[TS, TS],
    );
    let err = r.expect_err("out of bounds");
    assert!(err.contains("work-item [2, 4, 0]"), "{err}");
    // A one float short: row 15, t = 16, lc = 3 of group (0, 0) reads A[319] first
    // (15 · 20 + 16 + 3 = 319 = the length), before any B load fails.
    let (a, b) = (floats(319, 7), floats(32 * 32 * 2, 8));
    let (r, _) = both(
        SGEMM_TILED,
        "sgemm_tiled",
        &product_args(n as i32, &a, &b, 32 * 32),
        &[32, 32],
        &[TS, TS],
    );
    let err = r.expect_err("out of bounds");
    assert!(err.contains("work-item [3, 15, 0]"), "{err}");
}

/// Converted ids read after each barrier on both sides of a uniform branch.
const BRANCHES: &str = "__kernel void branches(int n, __global const int *in, __global int *out) {
    __local int tmp[64];
    int l = get_local_id(0);
    long g = get_global_id(0);
    uint lu = get_local_id(0);
    int acc = 0;
    for (int t = 0; t < n; t++) {
        tmp[l] = in[g + t];
        barrier(CLK_LOCAL_MEM_FENCE);
        if (t & 1)
            acc += tmp[(l + 1) % 64] * (int)lu;
        else
            acc -= tmp[63 - l] + (int)g;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[g] = acc;
}";

#[test]
fn converted_ids_read_on_both_sides_of_a_branch() {
    let (groups, n) = (3usize, 5usize);
    let len = 64 * groups;
    let input: Vec<i32> = (0..len + n)
        .map(|i| (i as i32).wrapping_mul(7919) % 1000 - 500)
        .collect();
    let bytes: Vec<u8> = input.iter().flat_map(|x| x.to_le_bytes()).collect();
    let (r, bufs) = both(
        BRANCHES,
        "branches",
        &[i32v(n as i32), Arg::Buf(bytes), Arg::Buf(vec![0; 4 * len])],
        &[len],
        &[64],
    );
    r.expect("runs");
    let mut expect = vec![0i32; len];
    for (g, e) in expect.iter_mut().enumerate() {
        let (base, l) = (g - g % 64, g % 64);
        let mut acc = 0i32;
        for t in 0..n {
            let tmp = |j: usize| input[base + j + t];
            if t & 1 == 1 {
                acc = acc.wrapping_add(tmp((l + 1) % 64).wrapping_mul(l as i32));
            } else {
                acc = acc.wrapping_sub(tmp(63 - l).wrapping_add(g as i32));
            }
        }
        *e = acc;
    }
    let got: Vec<i32> = bufs[1]
        .chunks(4)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    assert_eq!(got, expect);
}
