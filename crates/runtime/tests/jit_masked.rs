//! Loops with branches that depend on the work-item (a varying exit, `&&`, `||` and `?:`
//! inside), which the JIT's vectorised row loop runs under lane masks, against the
//! interpreter and a Rust reference: lanes leaving at different rounds, loop-carried `int`,
//! `bool`, `float` and `long` values, exits in the middle of the body, rows whose length is not
//! a multiple of 4, loops with effects (run by the scalar loop), and an out-of-bounds store
//! after a masked loop, reported for the same work-item as the scalar loop reports it.

mod jit_harness;

use jit_harness::{both, i32v as val_i32, to_f32s, to_i32s as i32s, Arg};

const MANDELBROT: &str = "__kernel void mandelbrot(int w, int maxit, __global uint *out) {
    int x = get_global_id(0), y = get_global_id(1);
    float cr = -2.0f + 3.0f * x / w;
    float ci = -1.5f + 3.0f * y / w;
    float zr = 0.0f, zi = 0.0f;
    int it = 0;
    while (it < maxit && zr * zr + zi * zi < 4.0f) {
        float t = zr * zr - zi * zi + cr;
        zi = 2.0f * zr * zi + ci;
        zr = t;
        it++;
    }
    out[y * w + x] = it;
}";

/// The bench's mandelbrot in Rust (the same `f32` operations in the same order).
fn mandelbrot_ref(w: usize, h: usize, maxit: i32) -> Vec<i32> {
    let mut out = Vec::new();
    for y in 0..h {
        for x in 0..w {
            let cr = -2.0f32 + 3.0f32 * x as f32 / w as f32;
            let ci = -1.5f32 + 3.0f32 * y as f32 / w as f32;
            let (mut zr, mut zi, mut it) = (0.0f32, 0.0f32, 0);
            while it < maxit && zr * zr + zi * zi < 4.0 {
                let t = zr * zr - zi * zi + cr;
                zi = 2.0 * zr * zi + ci;
                zr = t;
                it += 1;
            }
            out.push(it);
        }
    }
    out
}

#[test]
fn mandelbrot_lanes_leave_at_different_rounds() {
    // 13 columns: three iterations of 4 and a tail of one per row.
    let (w, h, maxit) = (13usize, 7usize, 40);
    let (r, bufs) = both(
        MANDELBROT,
        "mandelbrot",
        &[
            val_i32(w as i32),
            val_i32(maxit),
            Arg::Buf(vec![0; 4 * w * h]),
        ],
        &[w, h],
        &[13, 1],
    );
    r.expect("runs");
    let expected = mandelbrot_ref(w, h, maxit);
    assert!(expected.iter().any(|&i| i == maxit) && expected.iter().any(|&i| i < 3));
    assert_eq!(i32s(&bufs[0]), expected);
}

#[test]
fn mandelbrot_store_out_of_bounds_after_the_loop() {
    // The output holds 2 rows and 5 columns of the third: work-item (5, 2) fails after its
    // loop, as on the scalar loop.
    let (w, maxit) = (8usize, 30);
    let (r, bufs) = both(
        MANDELBROT,
        "mandelbrot",
        &[
            val_i32(w as i32),
            val_i32(maxit),
            Arg::Buf(vec![0; 4 * (2 * w + 5)]),
        ],
        &[w, 4],
        &[8, 1],
    );
    let err = r.expect_err("out of bounds");
    assert!(err.contains("work-item [5, 2, 0]"), "{err}");
    let expected = mandelbrot_ref(w, 4, maxit);
    assert_eq!(i32s(&bufs[0]), expected[..2 * w + 5]);
}

#[test]
fn collatz_with_int_ops_or_and_select() {
    // Varying exit with `||`-free `&&`, `?:` on ints, shifts, and, multiply.
    let src = "__kernel void k(int cap, __global int *out) {
        uint n = get_global_id(0) + 1;
        int steps = 0;
        bool odd_seen = false;
        while (n != 1 && steps < cap) {
            odd_seen = odd_seen || (n & 1) == 1;
            n = (n & 1) ? 3 * n + 1 : n >> 1;
            steps++;
        }
        out[get_global_id(0)] = steps * 1000 + (int)(n & 0xff) + (odd_seen ? 500000 : 0);
    }";
    let (g, cap) = (30usize, 60);
    let (r, bufs) = both(
        src,
        "k",
        &[val_i32(cap), Arg::Buf(vec![0; 4 * g])],
        &[g],
        &[g],
    );
    r.expect("runs");
    let out = i32s(&bufs[0]);
    for (i, &o) in out.iter().enumerate() {
        let mut n = i as u32 + 1;
        let (mut steps, mut odd) = (0, false);
        while n != 1 && steps < cap {
            odd = odd || n & 1 == 1;
            n = if n & 1 != 0 {
                3u32.wrapping_mul(n).wrapping_add(1)
            } else {
                n >> 1
            };
            steps += 1;
        }
        let e = steps * 1000 + (n & 0xff) as i32 + if odd { 500000 } else { 0 };
        assert_eq!(o, e, "out[{i}]");
    }
}

#[test]
fn exit_in_the_middle_of_the_body_and_long_carried() {
    // The exit test sits between two parts of the body; a `long` is carried per lane.
    let src = "__kernel void k(float c, __global float *out, __global long *cnt) {
        int i = get_global_id(0);
        float x = (float)i * 0.75f + 1.0f;
        long acc = 0;
        for (;;) {
            x = x * 0.5f + c;
            if (x < 1.0f)
                break;
            acc += (long)i * 3 + 1;
        }
        out[i] = x;
        cnt[i] = acc;
    }";
    let g = 23usize;
    let c = 0.25f32;
    let (r, bufs) = both(
        src,
        "k",
        &[
            Arg::Val(c.to_le_bytes().to_vec()),
            Arg::Buf(vec![0; 4 * g]),
            Arg::Buf(vec![0; 8 * g]),
        ],
        &[g],
        &[g],
    );
    r.expect("runs");
    let out = to_f32s(&bufs[0]);
    let cnt: Vec<i64> = bufs[1]
        .chunks(8)
        .map(|b| i64::from_le_bytes(b.try_into().expect("8 bytes")))
        .collect();
    for i in 0..g {
        let mut x = i as f32 * 0.75 + 1.0;
        let mut acc = 0i64;
        loop {
            x = x * 0.5 + c;
            if x < 1.0 {
                break;
            }
            acc += i as i64 * 3 + 1;
        }
        assert_eq!(out[i], x, "out[{i}]");
        assert_eq!(cnt[i], acc, "cnt[{i}]");
    }
}

#[test]
fn uniform_trip_count_with_varying_branches_inside() {
    let src = "__kernel void k(int n, __global float *out) {
        int i = get_global_id(0);
        float x = (float)i;
        float s = 0.0f;
        for (int j = 0; j < n; j++) {
            if (x > (float)j || j == 3)
                s += x;
            else
                s -= 0.5f;
            s = s > 10.0f ? s * 0.5f : s;
        }
        out[i] = s;
    }";
    let (g, n) = (18usize, 9);
    let (r, bufs) = both(
        src,
        "k",
        &[val_i32(n), Arg::Buf(vec![0; 4 * g])],
        &[g],
        &[g],
    );
    r.expect("runs");
    let out = to_f32s(&bufs[0]);
    for i in 0..g {
        let x = i as f32;
        let mut s = 0.0f32;
        for j in 0..n {
            if x > j as f32 || j == 3 {
                s += x;
            } else {
                s -= 0.5;
            }
            s = if s > 10.0 { s * 0.5 } else { s };
        }
        assert_eq!(out[i], s, "out[{i}]");
    }
}

#[test]
fn varying_loop_with_a_store_runs_on_the_scalar_loop() {
    // A store in the loop: not masked (the scalar loop runs it), results unchanged.
    let src = "__kernel void k(__global int *out) {
        int i = get_global_id(0);
        int n = i;
        while (n > 0) {
            out[i * 8 + n % 8] += n;
            n -= 3;
        }
    }";
    let g = 9usize;
    let (r, bufs) = both(src, "k", &[Arg::Buf(vec![0; 4 * 8 * g])], &[g], &[g]);
    r.expect("runs");
    let out = i32s(&bufs[0]);
    let mut e = vec![0i32; 8 * g];
    for i in 0..g as i32 {
        let mut n = i;
        while n > 0 {
            e[(i * 8 + n % 8) as usize] += n;
            n -= 3;
        }
    }
    assert_eq!(out, e);
}

#[test]
fn loads_after_a_varying_loop_and_division_inside() {
    // Integer division by a lane's own (possibly zero) value inside the loop: kir division
    // does not trap, so lanes computing it past their exit are harmless.
    let src = "__kernel void k(__global const int *d, __global int *out) {
        int i = get_global_id(0);
        int v = d[i];
        int q = 1000;
        int k = 0;
        while (k < v) {
            q = q / (v - k) + 7;
            k++;
        }
        out[i] = q + d[(i + 1) % 16];
    }";
    let d: Vec<i32> = (0..16).map(|i| (i * 7) % 11).collect();
    let bytes: Vec<u8> = d.iter().flat_map(|x| x.to_le_bytes()).collect();
    let (r, bufs) = both(
        src,
        "k",
        &[Arg::Buf(bytes), Arg::Buf(vec![0; 64])],
        &[16],
        &[16],
    );
    r.expect("runs");
    let out = i32s(&bufs[1]);
    for i in 0..16 {
        let v = d[i];
        let (mut q, mut k) = (1000, 0);
        while k < v {
            q = q / (v - k) + 7;
            k += 1;
        }
        assert_eq!(out[i], q + d[(i + 1) % 16], "out[{i}]");
    }
}

#[test]
fn masked_loop_inside_a_uniform_loop_with_stores() {
    // The inner loop's exit varies; the outer loop (uniform) stores every round.
    let src = "__kernel void k(int n, __global float *out) {
        int i = get_global_id(0);
        float x = (float)i * 0.5f + 1.0f;
        for (int j = 0; j < n; j++) {
            int steps = 0;
            while (x > 2.0f) {
                x = x * 0.75f;
                steps++;
            }
            x = x + (float)(steps + j);
            out[i * n + j] = x;
        }
    }";
    let (g, n) = (14usize, 5usize);
    let (r, bufs) = both(
        src,
        "k",
        &[val_i32(n as i32), Arg::Buf(vec![0; 4 * g * n])],
        &[g],
        &[g],
    );
    r.expect("runs");
    let out = to_f32s(&bufs[0]);
    for i in 0..g {
        let mut x = i as f32 * 0.5 + 1.0;
        for j in 0..n {
            let mut steps = 0;
            while x > 2.0 {
                x *= 0.75;
                steps += 1;
            }
            x += (steps + j as i32) as f32;
            assert_eq!(out[i * n + j], x, "out[{i}][{j}]");
        }
    }
}
