//! Short counted loops unrolled for the JIT's vectorised row loop
//! (`exec::jit::compile::vector::counted_unroll`): nested taps (a convolution), the other
//! comparisons and steps, a counter and a header value used after the loop, `i64` counters,
//! loops too long to unroll, loops whose body branches; rows whose length is not a multiple of
//! 4; out-of-bounds accesses inside an unrolled copy reported as by the interpreter (same
//! work-item, same instruction). Results against Rust references and the interpreter (bit for
//! bit, `jit_harness::both`).

mod jit_harness;

use jit_harness::*;

fn pattern(len: usize) -> Vec<f32> {
    (0..len)
        .map(|k| ((k * 37 % 101) as f32) / 8.0 - 5.0)
        .collect()
}

/// A 3×3 filter with clamped borders and `mad`-free arithmetic; `k` steps the taps backwards.
const CONV3: &str = "__kernel void conv3(int n, __constant float *filt, __global const float *in,
                    __global float *out) {
    int x = get_global_id(0), y = get_global_id(1);
    float acc = 0.0f;
    for (int dy = 1; dy >= -1; dy--) {
        for (int dx = -1; dx < 2; dx += 1) {
            int xx = clamp(x + dx, 0, n - 1);
            int yy = clamp(y + dy, 0, n - 1);
            acc += filt[(dy + 1) * 3 + dx + 1] * in[yy * n + xx];
        }
    }
    out[y * n + x] = acc;
}";

fn conv3_reference(n: usize, filt: &[f32], input: &[f32]) -> Vec<f32> {
    let mut out = vec![0.0f32; n * n];
    let n = n as i32;
    for y in 0..n {
        for x in 0..n {
            let mut acc = 0.0f32;
            for dy in [1i32, 0, -1] {
                for dx in -1..2i32 {
                    let xx = (x + dx).clamp(0, n - 1);
                    let yy = (y + dy).clamp(0, n - 1);
                    acc += filt[((dy + 1) * 3 + dx + 1) as usize] * input[(yy * n + xx) as usize];
                }
            }
            out[(y * n + x) as usize] = acc;
        }
    }
    out
}

#[test]
fn nested_taps_match_the_reference() {
    let filt: Vec<f32> = (0..9).map(|k| (k as f32 - 4.0) / 8.0 + 0.03).collect();
    for (n, local) in [(32usize, [32usize, 1usize]), (23, [23, 1]), (30, [10, 3])] {
        let input = pattern(n * n);
        let (r, bufs) = both(
            CONV3,
            "conv3",
            &[
                i32v(n as i32),
                Arg::Buf(f32s(&filt)),
                Arg::Buf(f32s(&input)),
                Arg::Buf(vec![0; 4 * n * n]),
            ],
            &[n, n],
            &local,
        );
        r.expect("runs");
        assert_eq!(
            to_f32s(&bufs[2]),
            conv3_reference(n, &filt, &input),
            "n = {n}"
        );
    }
}

/// Counters compared every way, stepping by more than one, a counter and a value computed
/// in the header used after the loop, a 64-bit counter, a loop too long to unroll.
const SHAPES: &str = "__kernel void shapes(__global const float *in, __global float *out,
                     __global int *ks) {
    int i = get_global_id(0);
    float a = in[i];
    float s = 0.0f;
    int k;
    for (k = 0; k != 6; k += 2) s = s * a + (float)k;
    int h;
    for (h = 10; 3 < h; h -= 3) s = s + a * (float)h;
    for (uint u = 1u; u <= 4u; u++) s = s - (float)u / a;
    for (long l = -3; l < 2; l++) s = s * 0.5f + (float)l;
    for (int m = 0; m < 40; m++) s = s + 0.25f * a;
    out[i] = s;
    ks[i] = k * 100 + h;
}";

fn shapes_reference(a: f32) -> (f32, i32) {
    let mut s = 0.0f32;
    let mut k = 0;
    while k != 6 {
        s = s * a + k as f32;
        k += 2;
    }
    let mut h = 10;
    while 3 < h {
        s += a * h as f32;
        h -= 3;
    }
    for u in 1u32..=4 {
        s -= u as f32 / a;
    }
    for l in -3i64..2 {
        s = s * 0.5 + l as f32;
    }
    for _ in 0..40 {
        s += 0.25 * a;
    }
    (s, k * 100 + h)
}

#[test]
fn loop_shapes_match_the_reference() {
    for (n, local) in [(64usize, 64usize), (37, 37), (6, 6)] {
        let input: Vec<f32> = (0..n).map(|k| 0.75 + k as f32 * 0.125).collect();
        let (r, bufs) = both(
            SHAPES,
            "shapes",
            &[
                Arg::Buf(f32s(&input)),
                Arg::Buf(vec![0; 4 * n]),
                Arg::Buf(vec![0; 4 * n]),
            ],
            &[n],
            &[local],
        );
        r.expect("runs");
        let out = to_f32s(&bufs[1]);
        let ks: Vec<i32> = bufs[2]
            .chunks(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        for (i, &a) in input.iter().enumerate() {
            let (s, k) = shapes_reference(a);
            assert_eq!(out[i].to_bits(), s.to_bits(), "n = {n}, item {i}");
            assert_eq!(ks[i], k, "n = {n}, item {i}");
        }
    }
}

/// A body with a branch on the work-item (taken by some lanes only) and a `?:` inside.
const BRANCHY: &str = "__kernel void branchy(__global const float *in, __global float *out) {
    int i = get_global_id(0);
    float a = in[i];
    float s = 1.0f;
    for (int k = 0; k < 4; k++) {
        if (a > (float)k) s = s * a; else s = s + 1.0f;
        s = s > 50.0f ? s - 50.0f : s;
    }
    out[i] = s;
}";

#[test]
fn branching_bodies_match_the_reference() {
    let n = 45;
    let input: Vec<f32> = (0..n).map(|k| (k % 7) as f32 * 0.9 - 0.5).collect();
    let (r, bufs) = both(
        BRANCHY,
        "branchy",
        &[Arg::Buf(f32s(&input)), Arg::Buf(vec![0; 4 * n])],
        &[n],
        &[n],
    );
    r.expect("runs");
    let out = to_f32s(&bufs[1]);
    for (i, &a) in input.iter().enumerate() {
        let mut s = 1.0f32;
        for k in 0..4 {
            s = if a > k as f32 { s * a } else { s + 1.0 };
            s = if s > 50.0 { s - 50.0 } else { s };
        }
        assert_eq!(out[i].to_bits(), s.to_bits(), "item {i}");
    }
}

/// Loads of an unrolled loop after the work-item's first store: the third copy runs past the
/// buffer for the last work-items.
const AFTER_STORE: &str = "__kernel void after_store(__global const float *in, __global float *out,
                          int stride) {
    int i = get_global_id(0);
    out[i] = -1.0f;
    float acc = 0.0f;
    for (int d = 0; d < 3; d++) acc += in[i + d * stride];
    out[i] = acc;
}";

#[test]
fn out_of_bounds_in_a_copy_is_reported_as_by_the_interpreter() {
    let n = 32;
    let input = pattern(n + 20);
    // In bounds: every copy's access is fine.
    let (r, bufs) = both(
        AFTER_STORE,
        "after_store",
        &[Arg::Buf(f32s(&input)), Arg::Buf(vec![0; 4 * n]), i32v(10)],
        &[n],
        &[n],
    );
    r.expect("runs");
    let out = to_f32s(&bufs[1]);
    for (i, &o) in out.iter().enumerate() {
        let acc = 0.0f32 + input[i] + input[i + 10] + input[i + 20];
        assert_eq!(o.to_bits(), acc.to_bits(), "item {i}");
    }
    // Past the end from work-item 12 on (12 + 2 × 20 = 52 ≥ 52): the same error as the
    // interpreter (the text names the work-item and the instruction). The buffers may differ:
    // after an effect, the work-items after the failing one in its iteration may have made
    // their first store (a legal schedule), so only the statuses are compared.
    let args = [Arg::Buf(f32s(&input)), Arg::Buf(vec![0; 4 * n]), i32v(20)];
    let reference = run(
        EngineKind::Interpreter,
        AFTER_STORE,
        "after_store",
        &args,
        &[n],
        &[n],
    );
    let jit = run(
        EngineKind::JitStrict,
        AFTER_STORE,
        "after_store",
        &args,
        &[n],
        &[n],
    );
    let e = reference.0.expect_err("out of bounds");
    assert_eq!(jit.0, Err(e));
    // Before any store of the iteration (the loop bails to the scalar loop).
    let (r, _) = both(
        CONV3,
        "conv3",
        &[
            i32v(40),
            Arg::Buf(f32s(&[0.5; 9])),
            Arg::Buf(f32s(&pattern(32 * 32))),
            Arg::Buf(vec![0; 4 * 32 * 32]),
        ],
        &[32, 32],
        &[32, 1],
    );
    r.expect_err("out of bounds");
}

#[test]
fn short_constant_filters_fail_as_on_the_interpreter() {
    // The filter has 8 of its 9 taps: the uniform `__constant` load of the last tap fails the
    // row's proof (`uniform_proof`), the checked loop reports it for the first work-item.
    let n = 24;
    let (r, _) = both(
        CONV3,
        "conv3",
        &[
            i32v(n as i32),
            Arg::Buf(f32s(&[0.25; 8])),
            Arg::Buf(f32s(&pattern(n * n))),
            Arg::Buf(vec![0; 4 * n * n]),
        ],
        &[n, n],
        &[n, 1],
    );
    r.expect_err("out of bounds");
}
