//! Row versioning of the JIT's vectorised loop (`exec::jit::compile::vector::row_proof`):
//! contiguous accesses proven in bounds once per row run unchecked, rows without the proof
//! run the checked loop. Results against Rust references and the interpreter, and errors
//! (out of bounds, indices that wrap in the middle of a row, clamps leaving their bounds)
//! reported for the same work-item as on the scalar loop.

mod jit_harness;

use jit_harness::*;

#[test]
fn stencil_rows_with_borders() {
    // Rows of 12 and 10 work-items (the latter with a scalar tail); border rows and the
    // border columns of the first and last groups take the other paths.
    for (n, local) in [(24usize, [12usize, 2usize]), (30, [10, 3])] {
        let input: Vec<f32> = (0..n * n).map(|k| ((k * 29 % 97) as f32) / 8.0).collect();
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
fn stencil_input_too_short_fails_where_the_scalar_loop_does() {
    // The input lacks its last 5 floats: in[i + n] of row 14 fails from x = 11 (x = 15 is
    // a border); the rows before run with their proof. Both engines must report the same
    // work-item and leave the same output.
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
        &[8, 2],
    );
    let err = r.expect_err("out of bounds");
    assert!(err.contains("work-item [11, 14, 0]"), "{err}");
    let mut padded = input.clone();
    padded.resize(n * n, 0.0);
    let reference = stencil_reference(n, &padded);
    let out = to_f32s(&bufs[1]);
    // Every group before the failing one (groups run in order on one thread) is complete.
    for y in 0..14 {
        for x in 0..n {
            assert_eq!(out[y * n + x], reference[y * n + x], "out[{y}][{x}]");
        }
    }
}

#[test]
fn index_wrapping_in_the_middle_of_a_row() {
    // i = gid + 0x7ffffff6 wraps to INT_MIN at work-item 10 (the third iteration): the row
    // has no proof, work-items 0..9 store and work-item 10 fails, as on the scalar loop.
    let src = "__kernel void k(__global float *out) {
        int i = (int)get_global_id(0) + 0x7ffffff6;
        __global float *q = out - 0x7ffffff6;
        q[i] = 5.0f;
    }";
    let (r, bufs) = both(src, "k", &[Arg::Buf(vec![0; 4 * 16])], &[16], &[16]);
    let err = r.expect_err("out of bounds");
    assert!(err.contains("work-item [10, 0, 0]"), "{err}");
    let out = to_f32s(&bufs[0]);
    assert!(out[..10].iter().all(|&v| v == 5.0), "{out:?}");
    assert!(out[10..].iter().all(|&v| v == 0.0), "{out:?}");
}

#[test]
fn short_index_wrapping_along_the_row_is_exact() {
    // A ushort index wraps at work-item 2^16 − 7 + … inside the row: with `(ushort)` the
    // wrap is the kernel's semantics (it re-reads index 0 onwards), not an error.
    let src = "__kernel void k(__global const int *in, __global int *out) {
        ushort s = (ushort)(get_global_id(0) + 65530);
        out[get_global_id(0)] = in[s] * 3;
    }";
    let input: Vec<i32> = (0..65536).map(|k| k * 7 - 1000).collect();
    let bytes: Vec<u8> = input.iter().flat_map(|v| v.to_le_bytes()).collect();
    let (r, bufs) = both(
        src,
        "k",
        &[Arg::Buf(bytes), Arg::Buf(vec![0; 4 * 32])],
        &[32],
        &[32],
    );
    r.expect("runs");
    for g in 0..32usize {
        let s = (g + 65530) as u16 as usize;
        let v = i32::from_le_bytes(bufs[1][4 * g..4 * g + 4].try_into().unwrap());
        assert_eq!(v, input[s] * 3, "out[{g}]");
    }
}

#[test]
fn clamped_columns_and_int2_accesses() {
    // A clamp on x + d (identity in the middle of the row, not at its ends) and an `int2`
    // copy (the non-f32 path), over groups where the proof holds and where it does not.
    let src = "__kernel void k(int n, int d, __global const float *in, __global float *out,
                            __global const int2 *a, __global int2 *b) {
        int x = get_global_id(0), y = get_global_id(1);
        int xx = clamp(x + d, 0, n - 1);
        out[y * n + x] = in[y * n + xx] * 2.0f;
        b[y * n + x] = a[y * n + x] + (int2)(x, y);
    }";
    let n = 20usize;
    let input: Vec<f32> = (0..n * n).map(|k| k as f32 * 0.5).collect();
    let a: Vec<i32> = (0..2 * n * n).map(|k| (k as i32) * 3 - 7).collect();
    let a_bytes: Vec<u8> = a.iter().flat_map(|v| v.to_le_bytes()).collect();
    for d in [-3i32, 0, 5] {
        let (r, bufs) = both(
            src,
            "k",
            &[
                i32v(n as i32),
                i32v(d),
                Arg::Buf(f32s(&input)),
                Arg::Buf(vec![0; 4 * n * n]),
                Arg::Buf(a_bytes.clone()),
                Arg::Buf(vec![0; 8 * n * n]),
            ],
            &[n, n],
            &[10, 2],
        );
        r.expect("runs");
        let out = to_f32s(&bufs[1]);
        let b: Vec<i32> = bufs[3]
            .chunks(4)
            .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        for y in 0..n {
            for x in 0..n {
                let xx = (x as i32 + d).clamp(0, n as i32 - 1) as usize;
                assert_eq!(
                    out[y * n + x],
                    input[y * n + xx] * 2.0,
                    "d {d} out[{y}][{x}]"
                );
                let i = y * n + x;
                assert_eq!(b[2 * i], a[2 * i] + x as i32, "b[{i}].x");
                assert_eq!(b[2 * i + 1], a[2 * i + 1] + y as i32, "b[{i}].y");
            }
        }
    }
}

#[test]
fn store_region_too_short_after_an_effect() {
    // The first store's region is long enough, the second's lacks its last 6 floats: the
    // row fails its proof and the checked loop reports work-item 10 (of the second row).
    let src = "__kernel void k(int n, __global float *a, __global float *b) {
        int i = get_global_id(1) * n + get_global_id(0);
        a[i] = 1.0f;
        b[i] = 2.0f;
    }";
    // Work-items 8..11 run in lock step, so work-item 11's first store has happened when
    // work-item 10 fails (a legal schedule): only the error and `b` are compared.
    let n = 16usize;
    let args = [
        i32v(n as i32),
        Arg::Buf(vec![0; 4 * 2 * n]),
        Arg::Buf(vec![0; 4 * (2 * n - 6)]),
    ];
    let reference = run(EngineKind::Interpreter, src, "k", &args, &[n, 2], &[n, 1]);
    let (r, bufs) = run(EngineKind::JitStrict, src, "k", &args, &[n, 2], &[n, 1]);
    assert_eq!(r, reference.0);
    let err = r.expect_err("out of bounds");
    assert!(err.contains("work-item [10, 1, 0]"), "{err}");
    assert_eq!(bufs[1], reference.1[1]);
    assert!(to_f32s(&bufs[1]).iter().all(|&v| v == 2.0));
}

#[test]
fn equality_branches_decided_for_the_whole_row() {
    // `x == c` and `x != d` are false (true) for most rows and decide a branch; rows where
    // they hold somewhere, and a `uchar` id that wraps (so `x == 3` holds after the wrap
    // although 3 lies below the row's first value), take the checked loop.
    let src = "__kernel void k(int c, int d, __global const float *in, __global float *out) {
        int x = get_global_id(0);
        uchar u = (uchar)get_global_id(0);
        float v = in[x];
        if (x == c)
            v = -v;
        if (x != d)
            v = v + 1.0f;
        if (u == 3)
            v = v * 4.0f;
        out[x] = v;
    }";
    let n = 600usize;
    let input: Vec<f32> = (0..n).map(|k| k as f32 * 0.25 - 9.0).collect();
    for (c, d) in [(-1i32, 1000i32), (13, 14), (599, 0), (250, 251)] {
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
            &[40],
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
            if x as u8 == 3 {
                v *= 4.0;
            }
            assert_eq!(out[x], v, "c {c} d {d} out[{x}]");
        }
    }
}
