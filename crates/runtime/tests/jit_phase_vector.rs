//! The JIT's vectorised phase loop (kernels with barriers, 4 work-items per iteration of a
//! phase) against the interpreter and values computed in Rust: a tree reduction whose last
//! steps split iterations (run on the scalar phase loop), a tiled matrix product, values set
//! differently by the work-items of an iteration and kept across a barrier, per-work-item
//! integers kept across barriers, barrier divergence and out-of-bounds accesses reported for
//! the same work-items as the scalar loop reports them.

mod jit_harness;

use jit_harness::{both, engines, f32s, to_f32s, to_i32s, Arg};

const SUM: &str = "__kernel void sum(__global const float *in, __global float *partial,
                                     __local float *scratch) {
    size_t lid = get_local_id(0);
    scratch[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (lid < s)
            scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        partial[get_group_id(0)] = scratch[0];
}";

/// The kernel's tree, step by step, in f32.
fn tree_sum(x: &[f32]) -> f32 {
    let mut s = x.to_vec();
    let mut half = s.len() / 2;
    while half > 0 {
        for i in 0..half {
            s[i] += s[i + half];
        }
        half /= 2;
    }
    s[0]
}

#[test]
fn tree_reduction_in_groups_of_64_and_256() {
    for local in [64usize, 256] {
        let n = 4 * local;
        let x: Vec<f32> = (0..n)
            .map(|i| ((i * 37) % 101) as f32 * 0.013 - 0.4)
            .collect();
        let (r, bufs) = both(
            SUM,
            "sum",
            &[
                Arg::Buf(f32s(&x)),
                Arg::Buf(vec![0; 4 * (n / local)]),
                Arg::Local(4 * local),
            ],
            &[n],
            &[local],
        );
        assert_eq!(r, Ok(()));
        let want: Vec<f32> = x.chunks(local).map(tree_sum).collect();
        assert_eq!(to_f32s(&bufs[1]), want);
    }
}

#[test]
fn tiled_matrix_product() {
    let src = "#define TS 8
    __kernel void mm(int n, __global const float *A, __global const float *B,
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
    let n = 24usize;
    let a: Vec<f32> = (0..n * n)
        .map(|i| ((i * 7) % 13) as f32 * 0.37 - 2.0)
        .collect();
    let b: Vec<f32> = (0..n * n)
        .map(|i| ((i * 5) % 11) as f32 * 0.21 - 1.0)
        .collect();
    let (r, bufs) = both(
        src,
        "mm",
        &[
            Arg::Val((n as i32).to_le_bytes().to_vec()),
            Arg::Buf(f32s(&a)),
            Arg::Buf(f32s(&b)),
            Arg::Buf(vec![0; 4 * n * n]),
        ],
        &[n, n],
        &[8, 8],
    );
    assert_eq!(r, Ok(()));
    let mut want = vec![0f32; n * n];
    for row in 0..n {
        for col in 0..n {
            let mut acc = 0f32;
            for k in 0..n {
                acc += a[row * n + k] * b[k * n + col];
            }
            want[row * n + col] = acc;
        }
    }
    assert_eq!(to_f32s(&bufs[2]), want);
}

#[test]
fn values_set_apart_by_the_work_items_of_an_iteration_survive_a_barrier() {
    // `x` is a join of two constants (the same shape for every work-item of an iteration
    // that goes one way), `v` and `p` per-work-item integers, all kept across barriers.
    let src = "__kernel void k(__global int *out, __local int *tmp) {
        size_t lid = get_local_id(0);
        int x;
        if (lid % 3 == 0) x = 5; else x = 7;
        int v = (int)(lid * lid) - 9;
        size_t p = lid * 2 + 1;
        tmp[lid] = v;
        barrier(CLK_LOCAL_MEM_FENCE);
        int w = tmp[(lid + 1) % get_local_size(0)];
        barrier(CLK_LOCAL_MEM_FENCE);
        out[get_global_id(0)] = x * 1000 + v + w + (int)p;
    }";
    let local = 12usize;
    let n = 3 * local;
    let (r, bufs) = both(
        src,
        "k",
        &[Arg::Buf(vec![0; 4 * n]), Arg::Local(4 * local)],
        &[n],
        &[local],
    );
    assert_eq!(r, Ok(()));
    let want: Vec<i32> = (0..n)
        .map(|g| {
            let lid = (g % local) as i32;
            let x = if lid % 3 == 0 { 5 } else { 7 };
            let v = lid * lid - 9;
            let next = (lid + 1) % local as i32;
            x * 1000 + v + (next * next - 9) + lid * 2 + 1
        })
        .collect();
    assert_eq!(to_i32s(&bufs[0]), want);
}

#[test]
fn groups_whose_rows_are_not_a_multiple_of_four() {
    let (r, bufs) = both(
        SUM,
        "sum",
        &[
            Arg::Buf(f32s(&[1.5; 12])),
            Arg::Buf(vec![0; 8]),
            Arg::Local(4 * 6),
        ],
        &[12],
        &[6],
    );
    assert_eq!(r, Ok(()));
    // 6 / 2 = 3, 3 / 2 = 1: the kernel adds items 0..3 and 3..6 pairwise, then 0 and 1.
    assert_eq!(to_f32s(&bufs[1]), vec![6.0, 6.0]);
}

#[test]
fn divergence_between_iterations_names_the_first_diverging_work_item() {
    // Work-items 8.. return before the barrier that 0..8 wait at: every iteration of 4
    // agrees, the rows do not.
    let src = "__kernel void k(__global int *out) {
        size_t lid = get_local_id(0);
        if (lid >= 8) return;
        barrier(CLK_LOCAL_MEM_FENCE);
        out[get_global_id(0)] = 1;
    }";
    let (r, _) = both(src, "k", &[Arg::Buf(vec![0; 4 * 16])], &[16], &[16]);
    let err = r.expect_err("barrier divergence");
    assert!(err.contains("[8, 0, 0]"), "{err}");
}

#[test]
fn divergence_inside_an_iteration_is_reported_as_the_scalar_loop_does() {
    let src = "__kernel void k(__global int *out) {
        size_t lid = get_local_id(0);
        if (lid == 6) return;
        barrier(CLK_LOCAL_MEM_FENCE);
        out[get_global_id(0)] = 1;
    }";
    let (r, _) = both(src, "k", &[Arg::Buf(vec![0; 4 * 16])], &[16], &[16]);
    let err = r.expect_err("barrier divergence");
    assert!(err.contains("[6, 0, 0]"), "{err}");
}

#[test]
fn out_of_bounds_after_a_barrier_before_and_after_an_effect() {
    // A read past the local buffer by the last work-item (before any effect of the phase:
    // the iteration runs on the scalar loop), then a store past the output buffer after a
    // store of the same phase.
    let read = "__kernel void k(__global float *out, __local float *tmp) {
        size_t lid = get_local_id(0);
        tmp[lid] = (float)lid;
        barrier(CLK_LOCAL_MEM_FENCE);
        out[get_global_id(0)] = tmp[lid + 1];
    }";
    let (r, bufs) = both(
        read,
        "k",
        &[Arg::Buf(vec![0; 4 * 8]), Arg::Local(4 * 8)],
        &[8],
        &[8],
    );
    let err = r.expect_err("out of bounds");
    assert!(err.contains("work-item [7, 0, 0]"), "{err}");
    assert_eq!(to_f32s(&bufs[0])[..7], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]);
    let write = "__kernel void k(__global int *out, __global int *other, __local int *tmp) {
        size_t lid = get_local_id(0);
        tmp[lid] = (int)lid;
        barrier(CLK_LOCAL_MEM_FENCE);
        other[lid] = tmp[lid] + 1;
        out[lid * 2] = 3;
    }";
    // Work-items 4..7 run in lock step (work-items are unordered between barriers), so
    // their first stores have happened when work-item 4 fails, unlike on the scalar loop:
    // only the error and the stores of work-items before 4 are compared.
    let (_, (r, bufs)) = engines(
        write,
        "k",
        &[
            Arg::Buf(vec![0; 4 * 8]),
            Arg::Buf(vec![0; 4 * 8]),
            Arg::Local(4 * 8),
        ],
        &[8],
        &[8],
    );
    let err = r.expect_err("out of bounds");
    assert!(err.contains("work-item [4, 0, 0]"), "{err}");
    assert_eq!(to_i32s(&bufs[1])[..4], [1, 2, 3, 4]);
}
