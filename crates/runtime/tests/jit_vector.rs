//! The JIT's vectorised row loop (4 work-items per iteration) against the interpreter and
//! hand-computed values: contiguous and gathered accesses, rows whose length is not a multiple
//! of 4, uniform branches and loops, `f32x4` arithmetic, affine indices that wrap, and
//! out-of-bounds accesses that must be reported for the same work-item as the scalar loop
//! reports them, with the same memory effects before.

mod jit_harness;

use jit_harness::{both, engines, f32s, to_f32s, Arg};

#[test]
fn saxpy_with_a_row_tail() {
    let src = "__kernel void k(float a, __global const float *x, __global float *y) {
        size_t i = get_global_id(0);
        y[i] = a * x[i] + y[i];
    }";
    let n = 30;
    let x: Vec<f32> = (0..n).map(|i| i as f32 * 0.25).collect();
    let y: Vec<f32> = (0..n).map(|i| 100.0 - i as f32).collect();
    let (r, bufs) = both(
        src,
        "k",
        &[
            Arg::Val(3.0f32.to_le_bytes().to_vec()),
            Arg::Buf(f32s(&x)),
            Arg::Buf(f32s(&y)),
        ],
        &[n],
        &[10],
    );
    r.expect("runs");
    let out = to_f32s(&bufs[1]);
    for i in 0..n {
        assert_eq!(out[i], 3.0 * x[i] + y[i], "y[{i}]");
    }
}

#[test]
fn loops_gathers_and_uniform_branches() {
    // nbody-like accumulation over a uniform loop, a clamped (gathered) neighbour, a uniform
    // branch on a parameter and an int index converted to a pointer offset.
    let src = "__kernel void k(int n, int mode, __global const float4 *p, __global float *out) {
        int i = get_global_id(0);
        float4 me = p[i];
        float ax = 0.0f;
        for (int j = 0; j < n; j++) {
            float4 q = p[j];
            float dx = q.x - me.x, dy = q.y - me.y;
            float r2 = dx * dx + dy * dy + 0.01f;
            ax += q.w * dx / sqrt(r2);
        }
        int left = clamp(i - 1, 0, n - 1);
        float g = p[left].z;
        if (mode > 0)
            ax = -ax;
        out[i] = ax + g;
    }";
    let n = 22usize;
    let p: Vec<f32> = (0..4 * n)
        .map(|k| ((k * 37 % 101) as f32 - 50.0) / 7.0)
        .collect();
    for mode in [0i32, 1] {
        let (r, bufs) = both(
            src,
            "k",
            &[
                Arg::Val((n as i32).to_le_bytes().to_vec()),
                Arg::Val(mode.to_le_bytes().to_vec()),
                Arg::Buf(f32s(&p)),
                Arg::Buf(vec![0; 4 * n]),
            ],
            &[n],
            &[n],
        );
        r.expect("runs");
        let out = to_f32s(&bufs[1]);
        for i in 0..n {
            let mut ax = 0.0f32;
            for j in 0..n {
                let dx = p[4 * j] - p[4 * i];
                let dy = p[4 * j + 1] - p[4 * i + 1];
                let r2 = dx * dx + dy * dy + 0.01;
                ax += p[4 * j + 3] * dx / r2.sqrt();
            }
            if mode > 0 {
                ax = -ax;
            }
            let left = (i as i32 - 1).clamp(0, n as i32 - 1) as usize;
            assert_eq!(out[i], ax + p[4 * left + 2], "mode {mode}, out[{i}]");
        }
    }
}

#[test]
fn out_of_bounds_load_reports_the_scalar_work_item() {
    // Work-item 10 reads past the 10-float input; work-items 0..9 (8 and 9 share its
    // iteration) must have stored, as on the scalar loop.
    let src = "__kernel void k(__global const float *a, __global float *b) {
        size_t i = get_global_id(0);
        b[i] = a[i] + 1.0f;
    }";
    let a: Vec<f32> = (0..10).map(|i| i as f32).collect();
    let (r, bufs) = both(
        src,
        "k",
        &[Arg::Buf(f32s(&a)), Arg::Buf(vec![0; 64])],
        &[16],
        &[16],
    );
    let err = r.expect_err("out of bounds");
    assert!(err.contains("work-item [10, 0, 0]"), "{err}");
    let b = to_f32s(&bufs[1]);
    for i in 0..10 {
        assert_eq!(b[i], i as f32 + 1.0, "b[{i}]");
    }
    assert!(b[10..].iter().all(|&x| x == 0.0));
}

#[test]
fn store_after_an_effect_reports_the_failing_work_item() {
    // The first store succeeds for every work-item; the second overflows from work-item 6.
    // Work-items 4..7 run in lock step (a legal schedule: work-items are unordered), so
    // work-item 7's first store has happened when work-item 6 fails, unlike on the scalar
    // loop: only the error and the stores of work-items before 6 are compared.
    let src = "__kernel void k(__global float *a, __global float *b) {
        size_t i = get_global_id(0);
        a[i] = 1.0f;
        b[i] = 2.0f;
    }";
    let (reference, (r, bufs)) = engines(
        src,
        "k",
        &[Arg::Buf(vec![0; 32]), Arg::Buf(vec![0; 24])],
        &[8],
        &[8],
    );
    let err = r.expect_err("out of bounds");
    assert!(
        err.contains("work-item [6, 0, 0]") && err.contains("store"),
        "{err}"
    );
    assert_eq!(bufs[1], reference.1[1]);
    assert!(to_f32s(&bufs[1]).iter().all(|&x| x == 2.0));
    assert!(to_f32s(&bufs[0])[..7].iter().all(|&x| x == 1.0));
}

#[test]
fn wrapping_int_index_is_not_taken_as_contiguous() {
    // i = gid + 0x7ffffffd wraps to INT_MIN at work-item 3: q[i] with q = out − 0x7ffffffd
    // is in bounds for work-items 0..2 and far out of bounds from work-item 3 on.
    let src = "__kernel void k(__global float *out) {
        int i = (int)get_global_id(0) + 0x7ffffffd;
        __global float *q = out - 0x7ffffffd;
        q[i] = 5.0f;
    }";
    let (r, bufs) = both(src, "k", &[Arg::Buf(vec![0; 64])], &[8], &[8]);
    let err = r.expect_err("out of bounds");
    assert!(err.contains("work-item [3, 0, 0]"), "{err}");
    let out = to_f32s(&bufs[0]);
    assert_eq!(&out[..4], &[5.0, 5.0, 5.0, 0.0]);
}

#[test]
fn per_work_item_values_of_wrapping_ints() {
    let src = "__kernel void k(__global long *out) {
        int i = (int)get_global_id(0) + 0x7ffffffd;
        out[get_global_id(0)] = (long)i;
    }";
    let (r, bufs) = both(src, "k", &[Arg::Buf(vec![0; 64])], &[8], &[8]);
    r.expect("runs");
    let out: Vec<i64> = bufs[0]
        .chunks(8)
        .map(|c| i64::from_le_bytes(c.try_into().unwrap()))
        .collect();
    for (g, &v) in out.iter().enumerate() {
        assert_eq!(
            v,
            i64::from((g as i32).wrapping_add(0x7ffffffd)),
            "out[{g}]"
        );
    }
}
