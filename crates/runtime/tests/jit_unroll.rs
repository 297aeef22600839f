//! The unrolled vectorised row loop (`exec::jit::compile::vector::unroll`): several
//! iterations per trip of the unchecked loop, the ordinary loop for the rest of the row, and
//! splats of `f32` parameters computed once per row. Row lengths that are not multiples of
//! the trip (4, 8, 16 work-items), row prefixes ending inside a trip, iterations abandoned in
//! the middle of a trip, out-of-bounds accesses reported for the same work-item as the
//! interpreter; results against Rust references and the interpreter (bit-identical).

mod jit_harness;

use jit_harness::*;

const SAXPY: &str = "__kernel void saxpy(float a, __global const float *x, __global float *y) {
    size_t i = get_global_id(0);
    y[i] = a * x[i] + y[i];
}";

fn pattern(len: usize, seed: usize) -> Vec<f32> {
    (0..len)
        .map(|k| (((k + seed) * 53 % 97) as f32) / 8.0 - 5.0)
        .collect()
}

fn f32v(x: f32) -> Arg {
    Arg::Val(x.to_le_bytes().to_vec())
}

#[test]
fn saxpy_rows_of_every_length() {
    // Rows shorter than a trip, a trip plus every remainder, long rows, fused groups.
    for (n, local) in [
        (3usize, 3usize),
        (4, 4),
        (7, 7),
        (8, 8),
        (13, 13),
        (16, 16),
        (17, 17),
        (21, 21),
        (31, 31),
        (33, 33),
        (250, 250),
        (1000, 40),
        (999, 333),
        (4099, 1),
        (1021, 1021),
    ] {
        let (xs, ys) = (pattern(n, 1), pattern(n, 5));
        let a = -1.75f32;
        let (r, bufs) = both(
            SAXPY,
            "saxpy",
            &[f32v(a), Arg::Buf(f32s(&xs)), Arg::Buf(f32s(&ys))],
            &[n],
            &[local],
        );
        r.expect("runs");
        let expect: Vec<f32> = xs.iter().zip(&ys).map(|(&x, &y)| a * x + y).collect();
        assert_eq!(to_f32s(&bufs[1]), expect, "n = {n}");
    }
}

#[test]
fn an_out_of_bounds_store_is_reported_for_its_work_item() {
    // `y` is shorter than the launch: the work-item at `len` fails, at every position it can
    // take in a trip of the loop; every earlier work-item stored its result.
    for len in [37usize, 38, 40, 41, 45, 46, 47, 48] {
        let n = 64usize;
        let (xs, ys) = (pattern(n, 2), pattern(len, 3));
        let a = 0.5f32;
        let (r, bufs) = both(
            SAXPY,
            "saxpy",
            &[f32v(a), Arg::Buf(f32s(&xs)), Arg::Buf(f32s(&ys))],
            &[n],
            &[n],
        );
        let err = r.expect_err("out of bounds");
        assert!(err.contains(&format!("work-item [{len}, 0, 0]")), "{err}");
        let out = to_f32s(&bufs[1]);
        for i in 0..len {
            assert_eq!(out[i], a * xs[i] + ys[i], "len = {len}, i = {i}");
        }
    }
}

#[test]
fn an_out_of_bounds_row_after_unrolled_rows() {
    // 2-D: the rows before the last are in bounds (unrolled); the last row reads past `in`.
    const SRC: &str = "__kernel void shift(int n, __global const float *in, __global float *out) {
        int x = get_global_id(0), y = get_global_id(1);
        out[y * n + x] = 2.0f * in[y * n + x + 3];
    }";
    let (n, rows) = (40usize, 5usize);
    let input = pattern(n * rows, 7);
    let (r, bufs) = both(
        SRC,
        "shift",
        &[
            i32v(n as i32),
            Arg::Buf(f32s(&input)),
            Arg::Buf(vec![0; 4 * n * rows]),
        ],
        &[n, rows],
        &[n, 1],
    );
    let err = r.expect_err("out of bounds");
    assert!(
        err.contains(&format!("work-item [{}, {}, 0]", n - 3, rows - 1)),
        "{err}"
    );
    let out = to_f32s(&bufs[1]);
    for i in 0..n * (rows - 1) {
        assert_eq!(out[i], 2.0 * input[i + 3], "i = {i}");
    }
}

#[test]
fn iterations_abandoned_in_the_middle_of_a_trip() {
    // A branch on loaded data before the store: an iteration whose work-items disagree is
    // run by the scalar loop, wherever it lies in a trip.
    const SRC: &str = "__kernel void pick(__global const float *x, __global float *y) {
        int i = get_global_id(0);
        float v = x[i];
        if (v > 0.0f) {
            y[i] = v * 3.0f;
            return;
        }
        y[i] = v - 1.0f;
    }";
    for (n, runs) in [(67usize, 1usize), (64, 4), (131, 3), (200, 16)] {
        // Runs of `runs` positive values, then negative ones.
        let xs: Vec<f32> = (0..n)
            .map(|k| {
                let v = (k % 11) as f32 + 0.5;
                if (k / runs) % 2 == 0 {
                    v
                } else {
                    -v
                }
            })
            .collect();
        let (r, bufs) = both(
            SRC,
            "pick",
            &[Arg::Buf(f32s(&xs)), Arg::Buf(vec![0; 4 * n])],
            &[n],
            &[n],
        );
        r.expect("runs");
        let expect: Vec<f32> = xs
            .iter()
            .map(|&v| if v > 0.0 { v * 3.0 } else { v - 1.0 })
            .collect();
        assert_eq!(to_f32s(&bufs[1]), expect, "n = {n}, runs = {runs}");
    }
}

#[test]
fn stencil_prefixes_ending_inside_a_trip() {
    // The row prefix ends before x = n − 1, at every remainder of the trip.
    for n in [5usize, 9, 18, 35, 36, 37, 38, 67] {
        let input = pattern(n * n, n);
        let (r, bufs) = both(
            STENCIL,
            "stencil",
            &[
                i32v(n as i32),
                Arg::Buf(f32s(&input)),
                Arg::Buf(vec![0; 4 * n * n]),
            ],
            &[n, n],
            &[n, 1],
        );
        r.expect("runs");
        assert_eq!(to_f32s(&bufs[1]), stencil_reference(n, &input), "n = {n}");
    }
}

#[test]
fn wider_elements_and_integers() {
    // float4 and int elements (not kept as one f32x4 per iteration) in the unrolled loop.
    const SRC: &str =
        "__kernel void mixed(float s, __global const float4 *a, __global const int *b,
                                   __global float4 *c, __global int *d) {
        int i = get_global_id(0);
        c[i] = a[i] * s + (float4)(1.0f, 2.0f, 3.0f, 4.0f);
        d[i] = b[i] * 3 - i;
    }";
    for n in [5usize, 19, 64, 77] {
        let a = pattern(4 * n, 9);
        let b: Vec<i32> = (0..n as i32).map(|k| k * 7 - 20).collect();
        let bb: Vec<u8> = b.iter().flat_map(|x| x.to_le_bytes()).collect();
        let s = 1.5f32;
        let (r, bufs) = both(
            SRC,
            "mixed",
            &[
                f32v(s),
                Arg::Buf(f32s(&a)),
                Arg::Buf(bb),
                Arg::Buf(vec![0; 16 * n]),
                Arg::Buf(vec![0; 4 * n]),
            ],
            &[n],
            &[n],
        );
        r.expect("runs");
        let c = to_f32s(&bufs[2]);
        for k in 0..4 * n {
            assert_eq!(c[k], a[k] * s + (k % 4 + 1) as f32, "n = {n}, c[{k}]");
        }
        let d: Vec<i32> = bufs[3]
            .chunks(4)
            .map(|x| i32::from_le_bytes([x[0], x[1], x[2], x[3]]))
            .collect();
        for (k, &v) in d.iter().enumerate() {
            assert_eq!(v, b[k] * 3 - k as i32, "n = {n}, d[{k}]");
        }
    }
}

#[test]
fn row_tests_assumed_for_the_unchecked_loop() {
    // `y != 2` and `get_group_id(1) != 3` are assumed true before the unchecked loop: rows 2
    // and 3 run the checked loop; `flag == 1` (no work-item id) is not assumed.
    const SRC: &str =
        "__kernel void rows(int n, int flag, __global const float *in, __global float *out) {
        int x = get_global_id(0), y = get_global_id(1);
        int i = y * n + x;
        float v = in[i];
        if (y != 2 && get_group_id(1) != 3)
            v = v * 2.0f;
        if (flag == 1 || y == 5)
            v = v + 1.0f;
        out[i] = v;
    }";
    for (n, flag) in [(21usize, 0i32), (40, 1), (67, 0)] {
        let rows = 8usize;
        let input = pattern(n * rows, 4);
        let (r, bufs) = both(
            SRC,
            "rows",
            &[
                i32v(n as i32),
                i32v(flag),
                Arg::Buf(f32s(&input)),
                Arg::Buf(vec![0; 4 * n * rows]),
            ],
            &[n, rows],
            &[n, 1],
        );
        r.expect("runs");
        let out = to_f32s(&bufs[1]);
        for y in 0..rows {
            for x in 0..n {
                let mut v = input[y * n + x];
                if y != 2 && y != 3 {
                    v *= 2.0;
                }
                if flag == 1 || y == 5 {
                    v += 1.0;
                }
                assert_eq!(out[y * n + x], v, "n = {n}, ({x}, {y})");
            }
        }
    }
}
