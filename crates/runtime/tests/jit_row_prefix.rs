//! Row prefixes of the JIT's vectorised loop (`exec::jit::compile::vector::row_prefix`):
//! rows with borders (`x == 0`, `x == n − 1`, clamps leaving their bounds) run their proof
//! on the part before the border and resume after it. Long rows (whole image rows in one
//! work-group), widths that are not multiples of 4, borders anywhere in the row; results
//! against Rust references and the interpreter (bit-identical), errors reported for the same
//! work-item as the interpreter. Also dead loop parameters (`vector::dead_params`).

mod jit_harness;

use jit_harness::*;

fn pattern(len: usize) -> Vec<f32> {
    (0..len)
        .map(|k| ((k * 37 % 101) as f32) / 16.0 - 2.5)
        .collect()
}

#[test]
fn stencil_whole_rows() {
    // One work-group per image row: both borders in every row, widths with and without a
    // scalar tail, and a row where x = n − 1 falls inside the last vectorised iteration.
    for n in [8usize, 13, 24, 30, 67, 130] {
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
            &[n, 1],
        );
        r.expect("runs");
        assert_eq!(to_f32s(&bufs[1]), stencil_reference(n, &input), "n = {n}");
    }
}

#[test]
fn stencil_groups_at_the_borders() {
    // Groups of 16 or 20 work-items: the first and last groups of each row hold a border.
    for (n, local) in [(48usize, [16usize, 2usize]), (60, [20, 3]), (41, [41, 1])] {
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
            &local,
        );
        r.expect("runs");
        assert_eq!(to_f32s(&bufs[1]), stencil_reference(n, &input), "n = {n}");
    }
}

#[test]
fn stencil_input_too_short_on_whole_rows() {
    // The input lacks its last 5 floats: in[i + n] of row 14 fails at x = 11 (x = 15 is a
    // border) on whole-row groups: the proof of that row's prefix fails, and the checked
    // loop reports the work-item the interpreter reports.
    let n = 16usize;
    let input: Vec<f32> = (0..n * n - 5).map(|k| k as f32).collect();
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
    let err = r.expect_err("out of bounds");
    assert!(err.contains("work-item [11, 14, 0]"), "{err}");
    let mut padded = input.clone();
    padded.resize(n * n, 0.0);
    let reference = stencil_reference(n, &padded);
    let out = to_f32s(&bufs[1]);
    for y in 0..14 {
        for x in 0..n {
            assert_eq!(out[y * n + x], reference[y * n + x], "out[{y}][{x}]");
        }
    }
}

#[test]
fn equality_borders_anywhere_in_a_long_row() {
    // `x == c` (and `x != d`) decide branches in one row of 203 work-items: the border at
    // the start, the end, inside an iteration, on an iteration boundary, twice, or never.
    let src = "__kernel void k(int c, int d, __global const float *in, __global float *out) {
        int x = get_global_id(0);
        float v = in[x];
        if (x == c)
            v = -v;
        if (x != d)
            v = v + 1.0f;
        out[x] = v;
    }";
    let n = 203usize;
    let input = pattern(n);
    for (c, d) in [
        (0i32, 202i32),
        (202, 0),
        (5, 6),
        (8, 100),
        (-1, 1000),
        (199, 200),
        (100, 100),
    ] {
        let (r, bufs) = both(
            src,
            "k",
            &[
                i32v(c),
                i32v(d),
                Arg::Buf(f32s(&input)),
                Arg::Buf(vec![0; 4 * n]),
            ],
            &[n],
            &[n],
        );
        r.expect("runs");
        let out = to_f32s(&bufs[1]);
        for x in 0..n {
            let mut v = input[x];
            if x as i32 == c {
                v = -v;
            }
            if x as i32 != d {
                v += 1.0;
            }
            assert_eq!(out[x], v, "c {c} d {d} out[{x}]");
        }
    }
}

#[test]
fn decreasing_index_with_a_border() {
    // A stride −1 index: the border `j == c` approached from above.
    let src = "__kernel void k(int n, int c, __global const float *in, __global float *out) {
        int j = n - 1 - (int)get_global_id(0);
        float v = in[get_global_id(0)];
        if (j == c)
            v = 100.0f;
        out[get_global_id(0)] = v * 3.0f;
    }";
    let n = 150usize;
    let input = pattern(n);
    for c in [0i32, 7, 77, 149, 500] {
        let (r, bufs) = both(
            src,
            "k",
            &[
                i32v(n as i32),
                i32v(c),
                Arg::Buf(f32s(&input)),
                Arg::Buf(vec![0; 4 * n]),
            ],
            &[n],
            &[n],
        );
        r.expect("runs");
        let out = to_f32s(&bufs[1]);
        for x in 0..n {
            let j = n as i32 - 1 - x as i32;
            let v = if j == c { 100.0 } else { input[x] };
            assert_eq!(out[x], v * 3.0, "c {c} out[{x}]");
        }
    }
}

#[test]
fn clamp_leaving_its_bounds_in_a_long_row() {
    // clamp(x + d, lo, hi) is the identity on a part of the row only: before lo, inside,
    // past hi (a long clamped tail), on rows of 157 work-items.
    let src = "__kernel void k(int d, int lo, int hi, __global const float *in,
                            __global float *out) {
        int x = get_global_id(0), y = get_global_id(1);
        int xx = clamp(x + d, lo, hi);
        out[y * 157 + x] = in[y * 157 + xx] + 0.5f;
    }";
    let (w, h) = (157usize, 3usize);
    let input = pattern(w * h);
    for (d, lo, hi) in [
        (-2i32, 0i32, 156i32),
        (2, 0, 156),
        (0, 10, 40),
        (-30, 0, 156),
        (7, 3, 150),
    ] {
        let (r, bufs) = both(
            src,
            "k",
            &[
                i32v(d),
                i32v(lo),
                i32v(hi),
                Arg::Buf(f32s(&input)),
                Arg::Buf(vec![0; 4 * w * h]),
            ],
            &[w, h],
            &[w, 1],
        );
        r.expect("runs");
        let out = to_f32s(&bufs[1]);
        for y in 0..h {
            for x in 0..w {
                let xx = (x as i32 + d).clamp(lo, hi) as usize;
                assert_eq!(
                    out[y * w + x],
                    input[y * w + xx] + 0.5,
                    "{d} {lo} {hi} [{y}][{x}]"
                );
            }
        }
    }
}

#[test]
fn out_of_bounds_after_a_border() {
    // The store's region ends at work-item 57, after the border at x == 20: the prefix
    // before the border is proven, the rest of the row fails at work-item 57 as on the
    // interpreter, with everything before it stored.
    let src = "__kernel void k(int c, __global const float *in, __global float *out) {
        int x = get_global_id(0);
        float v = in[x];
        if (x == c)
            v = 0.0f;
        out[x] = v * 2.0f;
    }";
    let n = 96usize;
    let input = pattern(n);
    for c in [20i32, 57, 60, 0] {
        let (r, bufs) = both(
            src,
            "k",
            &[i32v(c), Arg::Buf(f32s(&input)), Arg::Buf(vec![0; 4 * 57])],
            &[n],
            &[n],
        );
        let err = r.expect_err("out of bounds");
        assert!(err.contains("work-item [57, 0, 0]"), "c {c}: {err}");
        let out = to_f32s(&bufs[1]);
        for x in 0..57 {
            let v = if x as i32 == c { 0.0 } else { input[x] };
            assert_eq!(out[x], v * 2.0, "c {c} out[{x}]");
        }
    }
}

#[test]
fn conv5_clamped_borders() {
    let filt: Vec<f32> = (0..25).map(|k| (k as f32 - 12.0) / 32.0).collect();
    for (n, local) in [(13usize, [13usize, 1usize]), (24, [8, 2]), (37, [37, 1])] {
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
fn conv5_input_too_short() {
    // n larger than the image: the clamped reads run past the input; the error names the
    // work-item the interpreter names.
    let n = 12usize;
    let filt: Vec<f32> = (0..25).map(|k| k as f32 / 25.0).collect();
    let input = pattern(n * n - 30);
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
        &[n, 1],
    );
    let err = r.expect_err("out of bounds");
    assert!(err.contains("work-item"), "{err}");
}

#[test]
fn dead_and_live_loop_parameters() {
    // `last` and `lastf` go around the loop without being read afterwards in `dead` (dead
    // block parameters of an affine and a varying value); in `live` they are stored after
    // the loop and must keep every work-item's value.
    let src = "__kernel void dead(int n, __global const float *in, __global float *out) {
        int x = get_global_id(0);
        int last = 0;
        float lastf = 0.0f, acc = 0.0f;
        for (int k = 0; k < 3; k++) {
            last = clamp(x + k, 0, n - 1);
            lastf = in[last] * 2.0f;
            acc += in[last];
        }
        out[x] = acc;
    }
    __kernel void live(int n, __global const float *in, __global float *out,
                       __global int *idx) {
        int x = get_global_id(0);
        int last = 0;
        float lastf = 0.0f, acc = 0.0f;
        for (int k = 0; k < 3; k++) {
            last = clamp(x + k, 0, n - 1);
            lastf = in[last] * 2.0f;
            acc += in[last];
        }
        out[x] = acc + lastf;
        idx[x] = last;
    }";
    let n = 70usize;
    let input = pattern(n);
    let (r, bufs) = both(
        src,
        "dead",
        &[
            i32v(n as i32),
            Arg::Buf(f32s(&input)),
            Arg::Buf(vec![0; 4 * n]),
        ],
        &[n],
        &[n],
    );
    r.expect("runs");
    let out = to_f32s(&bufs[1]);
    for x in 0..n {
        let mut acc = 0.0f32;
        for k in 0..3 {
            acc += input[(x + k).min(n - 1)];
        }
        assert_eq!(out[x], acc, "dead out[{x}]");
    }
    let (r, bufs) = both(
        src,
        "live",
        &[
            i32v(n as i32),
            Arg::Buf(f32s(&input)),
            Arg::Buf(vec![0; 4 * n]),
            Arg::Buf(vec![0; 4 * n]),
        ],
        &[n],
        &[n],
    );
    r.expect("runs");
    let out = to_f32s(&bufs[1]);
    for x in 0..n {
        let mut acc = 0.0f32;
        for k in 0..3 {
            acc += input[(x + k).min(n - 1)];
        }
        let last = (x + 2).min(n - 1);
        assert_eq!(out[x], acc + input[last] * 2.0, "live out[{x}]");
        let i = i32::from_le_bytes(bufs[2][4 * x..4 * x + 4].try_into().unwrap());
        assert_eq!(i, last as i32, "live idx[{x}]");
    }
}
