//! The JIT's compute-bound paths of the vectorised row loop against a Rust reference and the
//! interpreter: varying `float` values defined before a loop and used inside it (packed to
//! `f32x4` once, `vector/packed.rs`), and dead `float` block parameters around a loop passed
//! as uniform zeros (`vector/dead_params.rs`), counted loops `k ≤ C` from a folded constant
//! (`vector/loop_proof.rs`); rows whose length is not a multiple of 4, and
//! out-of-bounds accesses reported for the same work-item as before.

mod jit_harness;

use jit_harness::{both, conv5_reference, f32s, i32v, to_f32s, Arg, CONV5};

/// The bench's nbody kernel: `p` (a varying `float4`) is read in the `j` loop, and `dx`, `r2`,
/// `inv` … go around the loop as dead block parameters.
const NBODY: &str = "__kernel void nbody(int n, float eps2, __global const float4 *pos,
                                         __global float4 *acc) {
    int i = get_global_id(0);
    float4 p = pos[i];
    float ax = 0.0f, ay = 0.0f, az = 0.0f;
    for (int j = 0; j < n; j++) {
        float4 q = pos[j];
        float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
        float r2 = dx * dx + dy * dy + dz * dz + eps2;
        float inv = 1.0f / sqrt(r2);
        float s = q.w * inv * inv * inv;
        ax += s * dx;
        ay += s * dy;
        az += s * dz;
    }
    acc[i] = (float4)(ax, ay, az, 0.0f);
}";

/// Deterministic positions in [-1, 1) and masses in [0.5, 1.1).
fn bodies(n: usize) -> Vec<f32> {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut out = Vec::new();
    for i in 0..n {
        for _ in 0..3 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            out.push((state >> 40) as f32 / (1u64 << 23) as f32 - 1.0);
        }
        out.push(0.5 + (i % 7) as f32 * 0.1);
    }
    out
}

/// The kernel's arithmetic in the source's order (no contraction), per body.
fn nbody_reference(pos: &[f32], count: usize, n: usize, eps2: f32) -> Vec<f32> {
    let mut out = Vec::new();
    for i in 0..count {
        let p = &pos[4 * i..4 * i + 4];
        let (mut ax, mut ay, mut az) = (0.0f32, 0.0f32, 0.0f32);
        for j in 0..n {
            let q = &pos[4 * j..4 * j + 4];
            let (dx, dy, dz) = (q[0] - p[0], q[1] - p[1], q[2] - p[2]);
            let r2 = dx * dx + dy * dy + dz * dz + eps2;
            let inv = 1.0f32 / r2.sqrt();
            let s = q[3] * inv * inv * inv;
            ax += s * dx;
            ay += s * dy;
            az += s * dz;
        }
        out.extend([ax, ay, az, 0.0]);
    }
    out
}

#[test]
fn nbody_matches_the_reference_with_a_row_tail() {
    // 22 work-items in groups of 11: every row ends with a partial iteration.
    let count = 22;
    let pos = bodies(count);
    let eps2 = 0.01f32;
    let (r, bufs) = both(
        NBODY,
        "nbody",
        &[
            i32v(count as i32),
            Arg::Val(eps2.to_le_bytes().to_vec()),
            Arg::Buf(f32s(&pos)),
            Arg::Buf(vec![0; 16 * count]),
        ],
        &[count],
        &[11],
    );
    assert_eq!(r, Ok(()));
    let got = to_f32s(&bufs[1]);
    let want = nbody_reference(&pos, count, count, eps2);
    for (k, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(g.to_bits(), w.to_bits(), "component {k}: {g} vs {w}");
    }
}

#[test]
fn nbody_reading_past_the_buffer_fails_for_the_same_work_item() {
    // `n` beyond the bodies: the first work-item's loop reads past `pos`.
    let count = 8;
    let pos = bodies(count);
    let (r, bufs) = both(
        NBODY,
        "nbody",
        &[
            i32v(count as i32 + 1),
            Arg::Val(0.01f32.to_le_bytes().to_vec()),
            Arg::Buf(f32s(&pos)),
            Arg::Buf(vec![0; 16 * count]),
        ],
        &[count],
        &[8],
    );
    assert!(r.is_err(), "an out-of-bounds read must fail");
    // Nothing was stored before the failing read of work-item 0.
    assert!(bufs[1].iter().all(|&b| b == 0));
}

#[test]
fn varying_lanes_of_a_float4_used_in_a_loop_and_after_it() {
    // `v.y` is defined before the loop, used inside (as an `f32x4`) and after it (per lane).
    let src = "__kernel void k(int n, __global const float4 *in, __global float *out) {
        int i = get_global_id(0);
        float4 v = in[i];
        float a = v.x;
        for (int j = 0; j < n; j++) {
            a = a * v.y + v.z;
        }
        out[i] = a - v.y * v.w;
    }";
    let count = 13;
    let data: Vec<f32> = (0..4 * count).map(|x| 0.25 + x as f32 * 0.125).collect();
    let n = 5;
    let (r, bufs) = both(
        src,
        "k",
        &[i32v(n), Arg::Buf(f32s(&data)), Arg::Buf(vec![0; 4 * count])],
        &[count],
        &[13],
    );
    assert_eq!(r, Ok(()));
    let got = to_f32s(&bufs[1]);
    for (i, g) in got.iter().enumerate() {
        let v = &data[4 * i..4 * i + 4];
        let mut a = v[0];
        for _ in 0..n {
            a = a * v[1] + v[2];
        }
        let want = a - v[1] * v[3];
        assert_eq!(g.to_bits(), want.to_bits(), "work-item {i}");
    }
}

#[test]
fn dead_float_parameters_around_two_loops() {
    // `t` and `w` (a float and a float2) keep their last values around both loops without
    // being read afterwards.
    let src = "__kernel void k(int n, __global const float *x, __global float *out) {
        int i = get_global_id(0);
        float acc = 0.0f;
        for (int a = 0; a < n; a++) {
            for (int b = 0; b < 3; b++) {
                float t = x[i] * (float)(a + b);
                float2 w = (float2)(t, t + 1.0f);
                acc += w.y;
            }
        }
        out[i] = acc;
    }";
    let count = 10;
    let x: Vec<f32> = (0..count).map(|v| 1.5 - v as f32 * 0.375).collect();
    let n = 4;
    let (r, bufs) = both(
        src,
        "k",
        &[i32v(n), Arg::Buf(f32s(&x)), Arg::Buf(vec![0; 4 * count])],
        &[count],
        &[5],
    );
    assert_eq!(r, Ok(()));
    let got = to_f32s(&bufs[1]);
    for (i, g) in got.iter().enumerate() {
        let mut acc = 0.0f32;
        for a in 0..n {
            for b in 0..3 {
                let t = x[i] * (a + b) as f32;
                acc += t + 1.0;
            }
        }
        assert_eq!(g.to_bits(), acc.to_bits(), "work-item {i}");
    }
}

#[test]
fn conv5_matches_the_reference_with_borders_and_a_row_tail() {
    // 18 columns in groups of 9: borders at both ends and a partial iteration per row.
    let n = 18;
    let filt: Vec<f32> = (0..25).map(|k| 0.01 + k as f32 * 0.003).collect();
    let input: Vec<f32> = (0..n * n)
        .map(|v| ((v * 37) % 101) as f32 / 101.0)
        .collect();
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
        &[9, 2],
    );
    assert_eq!(r, Ok(()));
    let got = to_f32s(&bufs[2]);
    let want = conv5_reference(n, &filt, &input);
    for (k, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(g.to_bits(), w.to_bits(), "pixel {k}: {g} vs {w}");
    }
}

#[test]
fn conv5_with_a_short_filter_fails_for_the_same_work_item() {
    // 24 taps instead of 25: the last tap of the first work-item reads past `filt`.
    let n = 16;
    let filt: Vec<f32> = (0..24).map(|k| k as f32 * 0.01).collect();
    let input: Vec<f32> = (0..n * n).map(|v| v as f32 * 0.5).collect();
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
        &[8, 2],
    );
    assert!(r.is_err(), "reading past the filter must fail");
    assert!(bufs[2].iter().all(|&b| b == 0));
}

#[test]
fn inclusive_counted_loop_with_a_parameter_start_is_not_proven_but_runs() {
    // `k ≤ 3` from a non-constant start and `k ≤ m` with a parameter bound: checked accesses,
    // the same results.
    let src = "__kernel void k(int s, int m, __global const float *t, __global float *out) {
        int i = get_global_id(0);
        float acc = 0.0f;
        for (int k = s; k <= 3; k++) acc += t[k] * (float)i;
        for (int k = 0; k <= m; k++) acc += t[k];
        out[i] = acc;
    }";
    let t: Vec<f32> = (0..6).map(|k| 1.0 + k as f32 * 0.5).collect();
    let count = 7;
    let (r, bufs) = both(
        src,
        "k",
        &[
            i32v(1),
            i32v(4),
            Arg::Buf(f32s(&t)),
            Arg::Buf(vec![0; 4 * count]),
        ],
        &[count],
        &[7],
    );
    assert_eq!(r, Ok(()));
    let got = to_f32s(&bufs[1]);
    for (i, g) in got.iter().enumerate() {
        let mut acc = 0.0f32;
        for tk in &t[1..=3] {
            acc += tk * i as f32;
        }
        for tk in &t[0..=4] {
            acc += tk;
        }
        assert_eq!(g.to_bits(), acc.to_bits(), "work-item {i}");
    }
    // Past the end with the parameter bound: the same error on both engines.
    let (r, _) = both(
        src,
        "k",
        &[
            i32v(1),
            i32v(6),
            Arg::Buf(f32s(&t)),
            Arg::Buf(vec![0; 4 * count]),
        ],
        &[count],
        &[7],
    );
    assert!(r.is_err());
}
