//! Range proofs of the JIT's vectorised loop (`exec::jit::compile::vector::range_proof`):
//! contiguous accesses inside counted loops (`for (d = -2; d <= 2; d++)`) whose pointers
//! depend on the loop variables, proven in bounds with their guards once per row by
//! intervals. Convolutions with clamped and unclamped borders, loops with other steps and
//! bounds, loop variables used after their loop, parameters that make the proof fail;
//! results against Rust references and the interpreter (bit-identical), errors reported for
//! the same work-item as the interpreter.

mod jit_harness;

use jit_harness::*;

fn pattern(len: usize) -> Vec<f32> {
    (0..len)
        .map(|k| ((k * 41 % 103) as f32) / 16.0 - 3.0)
        .collect()
}

#[test]
fn conv5_groups_and_rows() {
    // Groups in the middle of a row (proof holds), at the clamped borders (it does not),
    // whole rows (the proof covers the part between the borders, `row_prefix`), widths that
    // are not multiples of 4.
    let filt: Vec<f32> = (0..25).map(|k| (k as f32 - 12.0) / 32.0).collect();
    for (n, local) in [
        (32usize, [16usize, 2usize]),
        (40, [8, 4]),
        (27, [9, 3]),
        (21, [21, 1]),
        (70, [70, 1]),
    ] {
        let input = pattern(n * n);
        let (r, bufs) = both(
            CONV5,
            "conv5",
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
            conv5_reference(n, &filt, &input),
            "n = {n}"
        );
    }
}

#[test]
fn conv5_input_too_short_in_the_middle() {
    // The input lacks its last 40 floats: taps of the last rows read past it from the
    // middle groups too; the error names the interpreter's work-item.
    let n = 32usize;
    let filt: Vec<f32> = (0..25).map(|k| k as f32 / 25.0).collect();
    let input = pattern(n * n - 40);
    let (r, _) = both(
        CONV5,
        "conv5",
        &[
            i32v(n as i32),
            Arg::Buf(f32s(&filt)),
            Arg::Buf(f32s(&input)),
            Arg::Buf(vec![0; 4 * n * n]),
        ],
        &[n, n],
        &[16, 2],
    );
    let err = r.expect_err("out of bounds");
    assert!(err.contains("work-item"), "{err}");
}

#[test]
fn unclamped_taps_run_off_the_row() {
    // Without clamps, x + d reads in[-1] at the first work-item (and past the end at the
    // last): the proof fails there, the error names the interpreter's work-item; with a
    // padded input (offset 3) every tap is in bounds.
    let src = "__kernel void k(int pad, __global const float *in, __global float *out) {
        int x = get_global_id(0);
        float acc = 0.0f;
        for (int d = -3; d < 4; d += 2)
            acc += in[pad + x + d] * (float)(d + 5);
        out[x] = acc;
    }";
    let n = 64usize;
    for (pad, len) in [(3i32, n + 6), (0, n + 6), (3, n + 3)] {
        let input = pattern(len);
        let (r, bufs) = both(
            src,
            "k",
            &[i32v(pad), Arg::Buf(f32s(&input)), Arg::Buf(vec![0; 4 * n])],
            &[n],
            &[32],
        );
        if pad == 3 && len == n + 6 {
            r.expect("runs");
            let out = to_f32s(&bufs[1]);
            for x in 0..n as i32 {
                let mut acc = 0.0f32;
                let mut d = -3;
                while d < 4 {
                    acc += input[(pad + x + d) as usize] * (d + 5) as f32;
                    d += 2;
                }
                assert_eq!(out[x as usize], acc, "pad {pad} out[{x}]");
            }
        } else {
            let err = r.expect_err("out of bounds");
            assert!(err.contains("work-item"), "{err}");
        }
    }
}

#[test]
fn loop_variable_used_after_its_loop() {
    // `d` after the loop is its exit value (3): its range inside the loop does not hold
    // there, and the access after the loop must keep its checks (in[x + d] past the end
    // for the last work-items of a short input).
    let src = "__kernel void k(__global const float *in, __global float *out) {
        int x = get_global_id(0);
        float acc = 0.0f;
        int d = 0;
        for (d = 0; d <= 2; d++)
            acc += in[x + d];
        out[x] = acc + in[x + d];
    }";
    let n = 48usize;
    for len in [n + 3, n + 2] {
        let input = pattern(len);
        let (r, bufs) = both(
            src,
            "k",
            &[Arg::Buf(f32s(&input)), Arg::Buf(vec![0; 4 * n])],
            &[n],
            &[n],
        );
        if len == n + 3 {
            r.expect("runs");
            let out = to_f32s(&bufs[1]);
            for x in 0..n {
                let acc = input[x] + input[x + 1] + input[x + 2];
                assert_eq!(out[x], acc + input[x + 3], "out[{x}]");
            }
        } else {
            let err = r.expect_err("out of bounds");
            assert!(err.contains("work-item [47, 0, 0]"), "{err}");
        }
    }
}

#[test]
fn products_of_ranges_that_overflow() {
    // dy × n with a huge n: the 32-bit product wraps at dy = 2, so the interval proof must
    // fail and the checked loop report the interpreter's error (at dy = 1 already).
    let src = "__kernel void k(int n, __global const float *in, __global float *out) {
        int x = get_global_id(0);
        float acc = 0.0f;
        for (int dy = 0; dy <= 2; dy++)
            acc += in[dy * n + x];
        out[x] = acc;
    }";
    let m = 40usize;
    let input = pattern(3 * m);
    for n in [m as i32, 0x4000_0000] {
        let (r, bufs) = both(
            src,
            "k",
            &[i32v(n), Arg::Buf(f32s(&input)), Arg::Buf(vec![0; 4 * m])],
            &[m],
            &[m],
        );
        if n == m as i32 {
            r.expect("runs");
            let out = to_f32s(&bufs[1]);
            for x in 0..m {
                assert_eq!(
                    out[x],
                    input[x] + input[m + x] + input[2 * m + x],
                    "out[{x}]"
                );
            }
        } else {
            let err = r.expect_err("out of bounds");
            assert!(err.contains("work-item [0, 0, 0]"), "{err}");
        }
    }
}
