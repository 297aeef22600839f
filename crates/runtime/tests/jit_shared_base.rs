//! Shared bases and row-invariant values of the JIT's vectorised loop
//! (`exec::jit::compile::vector::shared_base`, `vector::invariant`): neighbouring accesses
//! (`in[i − 1]`, `in[i]`, `in[i + 1]`, the same access in two branches) share one address
//! plus a constant, checked before the row; kernel parameters are the row's values and
//! branches on proven comparisons are jumps. Results against Rust references and the
//! interpreter (bit-identical), errors for the same work-item as the interpreter.

mod jit_harness;

use jit_harness::*;

const THREE_POINT: &str =
    "__kernel void blur(int n, __global const float *in, __global float *out) {
    int i = get_global_id(0);
    if (i == 0 || i == n - 1) {
        out[i] = in[i];
        return;
    }
    out[i] = 0.25f * in[i - 1] + 0.5f * in[i] + 0.25f * in[i + 1];
}";

fn three_point_reference(input: &[f32]) -> Vec<f32> {
    let n = input.len();
    (0..n)
        .map(|i| {
            if i == 0 || i == n - 1 {
                input[i]
            } else {
                0.25 * input[i - 1] + 0.5 * input[i] + 0.25 * input[i + 1]
            }
        })
        .collect()
}

fn pattern(len: usize) -> Vec<f32> {
    (0..len)
        .map(|k| ((k * 53 % 97) as f32) / 8.0 - 5.0)
        .collect()
}

#[test]
fn neighbours_share_a_base() {
    // Long rows (one group) and rows of several groups, with and without a scalar tail.
    for (n, local) in [
        (64usize, 64usize),
        (203, 203),
        (1024, 256),
        (1000, 8),
        (37, 37),
    ] {
        let input = pattern(n);
        let (r, bufs) = both(
            THREE_POINT,
            "blur",
            &[
                i32v(n as i32),
                Arg::Buf(f32s(&input)),
                Arg::Buf(vec![0; 4 * n]),
            ],
            &[n],
            &[local],
        );
        r.expect("runs");
        assert_eq!(to_f32s(&bufs[1]), three_point_reference(&input), "n = {n}");
    }
}

#[test]
fn a_shared_access_out_of_bounds_is_reported_as_before() {
    // in[i + 1] reads one float past `in` for the last work-item (no border test here).
    const SRC: &str = "__kernel void next(__global const float *in, __global float *out) {
        int i = get_global_id(0);
        out[i] = in[i] + in[i + 1] - in[i - 0];
    }";
    let n = 96usize;
    let input = pattern(n);
    let (r, bufs) = both(
        SRC,
        "next",
        &[Arg::Buf(f32s(&input)), Arg::Buf(vec![0; 4 * n])],
        &[n],
        &[32],
    );
    let err = r.expect_err("out of bounds");
    assert!(err.contains("work-item [95, 0, 0]"), "{err}");
    // Every earlier work-item stored its sum (the interpreter agrees, checked by `both`).
    let out = to_f32s(&bufs[1]);
    for i in 0..64 {
        assert_eq!(out[i], input[i] + input[i + 1] - input[i], "i = {i}");
    }
}

#[test]
fn narrow_indices_that_wrap() {
    // (ushort)(x + 1) wraps to 0 at x = 65535: the neighbour is not a constant away there.
    const SRC: &str = "__kernel void wrap(__global const float *in, __global float *out) {
        uint x = get_global_id(0);
        out[x] = in[x] + 2.0f * in[(ushort)(x + 1)];
    }";
    let n = 65536 + 64;
    let input = pattern(n + 1);
    let (r, bufs) = both(
        SRC,
        "wrap",
        &[Arg::Buf(f32s(&input)), Arg::Buf(vec![0; 4 * n])],
        &[n],
        &[64],
    );
    r.expect("runs");
    let out = to_f32s(&bufs[1]);
    for x in 0..n {
        let next = (x + 1) % 65536;
        assert_eq!(out[x], input[x] + 2.0 * input[next], "x = {x}");
    }
}

#[test]
fn uniform_branches_on_parameters() {
    // The branch on `a` is the same for the whole launch (parameters are the row's values).
    const SRC: &str =
        "__kernel void axpy(float a, int flip, __global const float *x, __global float *y) {
        int i = get_global_id(0);
        if (flip != 0)
            y[i] = a * x[i] - y[i];
        else
            y[i] = a * x[i] + y[i];
    }";
    let n = 300usize;
    let (xs, ys) = (pattern(n), pattern(n + 7)[7..].to_vec());
    for (a, flip) in [(2.5f32, 0i32), (-1.25, 1)] {
        let (r, bufs) = both(
            SRC,
            "axpy",
            &[
                Arg::Val(a.to_le_bytes().to_vec()),
                i32v(flip),
                Arg::Buf(f32s(&xs)),
                Arg::Buf(f32s(&ys)),
            ],
            &[n],
            &[100],
        );
        r.expect("runs");
        let expect: Vec<f32> = xs
            .iter()
            .zip(&ys)
            .map(|(&x, &y)| if flip != 0 { a * x - y } else { a * x + y })
            .collect();
        assert_eq!(to_f32s(&bufs[1]), expect, "a = {a}");
    }
}

#[test]
fn stencil_rows_across_groups() {
    // Rows of 4 groups (fused lines): in[i ± 1] share in[i]'s base, in[i ± n] do not.
    let n = 128usize;
    let input = pattern(n * n);
    let (r, bufs) = both(
        STENCIL,
        "stencil",
        &[
            i32v(n as i32),
            Arg::Buf(f32s(&input)),
            Arg::Buf(vec![0; 4 * n * n]),
        ],
        &[n, n],
        &[32, 4],
    );
    r.expect("runs");
    assert_eq!(to_f32s(&bufs[1]), stencil_reference(n, &input));
}
