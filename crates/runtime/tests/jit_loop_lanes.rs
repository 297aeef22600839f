//! Loop proofs of the vectorised loops standing for the lanes' guards
//! (`exec::jit::compile::vector::loop_proof`): a contiguous access inside a counted loop is
//! proven once for the whole loop and all `WIDTH` work-items of an iteration, so the proof must
//! also show that the widened 32-bit indices of every work-item do not wrap (inside the loop,
//! depending on `k` or not, and before it). Indices that wrap for the last work-items of an
//! iteration only, at the last `k` only, must give the interpreter's error for the same
//! work-item; indices that do not wrap, the Rust reference's sums (bit-identical to the
//! interpreter), with and without a barrier before the loop (row loop and phase loop).

mod jit_harness;

use jit_harness::*;

/// `out[x] = Σ_{k<n} in[x + k]`, the index widened in three places: `inner_k` widens
/// `x + k + base` inside the loop, `inner` widens `x + base` inside the loop, `outer` before
/// it; `barrier_inner_k` is `inner_k` after a barrier (the phase loop). `base` only shifts the
/// 32-bit value (subtracted again after widening): it wraps where `x + k + base` passes
/// `INT_MAX`.
const LANES: &str = "
__kernel void inner_k(int base, int n, __global const float *in, __global float *out) {
    int x = get_global_id(0);
    float acc = 0.0f;
    for (int k = 0; k < n; k++)
        acc += in[(long)(x + k + base) - (long)base];
    out[x] = acc;
}
__kernel void inner(int base, int n, __global const float *in, __global float *out) {
    int x = get_global_id(0);
    float acc = 0.0f;
    for (int k = 0; k < n; k++)
        acc += in[(long)(x + base) - (long)base + k];
    out[x] = acc;
}
__kernel void outer(int base, int n, __global const float *in, __global float *out) {
    int x = get_global_id(0);
    long i = (long)(x + base) - (long)base;
    float acc = 0.0f;
    for (int k = 0; k < n; k++)
        acc += in[i + k];
    out[x] = acc;
}
__kernel void barrier_inner_k(int base, int n, __global const float *in, __global float *out) {
    __local float seen[8];
    int x = get_global_id(0), l = get_local_id(0);
    seen[l] = in[x];
    barrier(CLK_LOCAL_MEM_FENCE);
    float acc = seen[7 - l];
    for (int k = 0; k < n; k++)
        acc += in[(long)(x + k + base) - (long)base];
    out[x] = acc;
}";

const KERNELS: [&str; 4] = ["inner_k", "inner", "outer", "barrier_inner_k"];

/// Work-items per run (one group of 8: two vectorised iterations per row).
const ITEMS: usize = 8;

fn args(base: i32, n: i32, input: &[f32]) -> Vec<Arg> {
    vec![
        i32v(base),
        i32v(n),
        Arg::Buf(f32s(input)),
        Arg::Buf(vec![0; 4 * ITEMS]),
    ]
}

/// The Rust reference of `kernel` when no index wraps.
fn reference(kernel: &str, n: usize, input: &[f32]) -> Vec<f32> {
    (0..ITEMS)
        .map(|x| {
            let mut acc = if kernel == "barrier_inner_k" {
                // The group is the whole range: work-item 7 − l's element.
                input[ITEMS - 1 - x]
            } else {
                0.0f32
            };
            for k in 0..n {
                acc += input[x + k];
            }
            acc
        })
        .collect()
}

#[test]
fn indices_that_do_not_wrap_sum_like_the_reference() {
    let n = 9usize;
    let input = floats(ITEMS + n, 1);
    // The last work-item's last index is INT_MAX exactly with the largest base.
    let top = i32::MAX - (ITEMS + n - 2) as i32;
    for kernel in KERNELS {
        for base in [0, -5, 1000, top] {
            let (r, bufs) = both(LANES, kernel, &args(base, n as i32, &input), &[ITEMS], &[8]);
            r.expect("runs");
            assert_eq!(
                to_f32s(&bufs[1]),
                reference(kernel, n, &input),
                "{kernel}, base {base}"
            );
        }
    }
}

#[test]
fn index_wrapping_for_a_later_work_item_fails_like_the_interpreter() {
    // x + k + base passes INT_MAX first for work-item 2 at the last k (inner_k), or for
    // work-item 2 at every k (inner, outer): its widened index is then about −2³², out of
    // `in`. Work-item 0's indices (all the loop proof computes directly) stay in bounds at
    // both ends of the loop, so only the lanes' no-wrap checks refuse the proof.
    let n = 9usize;
    let input = floats(ITEMS + n, 2);
    for kernel in KERNELS {
        let wraps_at_last_k = kernel.ends_with("inner_k");
        let base = if wraps_at_last_k {
            i32::MAX - (n as i32 - 1) - 1
        } else {
            i32::MAX - 1
        };
        let (r, _) = both(LANES, kernel, &args(base, n as i32, &input), &[ITEMS], &[8]);
        let err = r.expect_err("out of bounds");
        assert!(err.contains("work-item [2, 0, 0]"), "{kernel}: {err}");
    }
}

#[test]
fn index_wrapping_in_the_second_iteration_only_fails_like_the_interpreter() {
    // Work-items 0..3 stay below INT_MAX; work-item 6 is the first to pass it (at the last
    // k for inner_k): the first iteration runs proven, the second one must not.
    let n = 5usize;
    let input = floats(ITEMS + n, 3);
    for kernel in KERNELS {
        let base = if kernel.ends_with("inner_k") {
            i32::MAX - (n as i32 - 1) - 5
        } else {
            i32::MAX - 5
        };
        let (r, _) = both(LANES, kernel, &args(base, n as i32, &input), &[ITEMS], &[8]);
        let err = r.expect_err("out of bounds");
        assert!(err.contains("work-item [6, 0, 0]"), "{kernel}: {err}");
    }
}

/// Loops whose proof fails at the entry although every access they make is in bounds (a
/// `break` before the end of the range), or whose iteration has an effect before the loop
/// (the proof is then checked at each access instead of at the entry).
const ENTRY: &str = "
__kernel void early_exit(int n, int stop, __global const float *in, __global float *out) {
    int x = get_global_id(0);
    float acc = 0.0f;
    for (int k = 0; k < n; k++) {
        if (k == stop)
            break;
        acc += in[x + k];
    }
    out[x] = acc;
}
__kernel void stored_first(int n, int stop, __global const float *in, __global float *out) {
    int x = get_global_id(0);
    out[x] = -1.0f;
    float acc = 0.0f;
    for (int k = 0; k < n; k++) {
        if (k == stop)
            break;
        acc += in[x + k];
    }
    out[x] = acc;
}";

/// `Σ_{k < min(n, stop)} in[x + k]` per work-item.
fn prefix_sums(n: usize, stop: usize, input: &[f32]) -> Vec<f32> {
    (0..ITEMS)
        .map(|x| {
            let mut acc = 0.0f32;
            for k in 0..n.min(stop) {
                acc += input[x + k];
            }
            acc
        })
        .collect()
}

#[test]
fn loops_leaving_before_an_unprovable_end_sum_like_the_reference() {
    // n = 1000 would leave `in` (ITEMS + 6 elements): the proof fails, the loop stops at
    // k = stop in bounds; with n = 6 the proof holds.
    let input = floats(ITEMS + 6, 4);
    for kernel in ["early_exit", "stored_first"] {
        for (n, stop) in [(1000, 6), (1000, 0), (6, 6), (6, 1000), (3, 1000)] {
            let (r, bufs) = both(
                ENTRY,
                kernel,
                &args(n as i32, stop as i32, &input),
                &[ITEMS],
                &[8],
            );
            r.expect("runs");
            assert_eq!(
                to_f32s(&bufs[1]),
                prefix_sums(n, stop, &input),
                "{kernel}, n {n}, stop {stop}"
            );
        }
    }
}

#[test]
fn loops_leaving_the_buffer_fail_like_the_interpreter() {
    // k reaches 7 (stop 8): in[x + 7] leaves the 14 elements first for work-item 7; the
    // work-items before it finished (early_exit, bit-identical buffers). In stored_first
    // the store of −1 precedes the loop: the error is the same, but the work-items of the
    // failing iteration may have made their stores or not (a legal schedule), so only the
    // statuses are compared.
    let input = floats(ITEMS + 6, 5);
    let (r, bufs) = both(ENTRY, "early_exit", &args(1000, 8, &input), &[ITEMS], &[8]);
    let err = r.expect_err("out of bounds");
    assert!(err.contains("work-item [7, 0, 0]"), "{err}");
    let finished: Vec<f32> = (0..7)
        .map(|x| (0..8).fold(0.0f32, |acc, k| acc + input[x + k]))
        .collect();
    assert_eq!(&to_f32s(&bufs[1])[..7], &finished[..]);
    let a = args(1000, 8, &input);
    let reference = run(
        EngineKind::Interpreter,
        ENTRY,
        "stored_first",
        &a,
        &[ITEMS],
        &[8],
    );
    let jit = run(
        EngineKind::JitStrict,
        ENTRY,
        "stored_first",
        &a,
        &[ITEMS],
        &[8],
    );
    assert_eq!(jit.0, reference.0);
    let err = jit.0.expect_err("out of bounds");
    assert!(err.contains("work-item [7, 0, 0]"), "{err}");
    assert_eq!(&to_f32s(&jit.1[1])[..4], &finished[..4]);
}
