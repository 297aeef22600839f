//! Work-group fusion in the JIT (`exec::jit::fuse`): kernels blind to the work-group structure
//! run consecutive groups as long rows. Results are checked against a Rust reference and the
//! interpreter, across many groups with uneven last groups and offsets, in 1D and 2D; errors
//! must name the work-item the per-group order names (in 2D, a failure in a later group of a
//! fused line gives way to one of an earlier group in a later line); kernels that observe the
//! groups (local ids, atomics in 2D groups) keep the per-group order.

mod jit_harness;

use jit_harness::{engines_with, f32s, to_f32s, to_u32s, Arg, Launch, Outcome};

/// The kernels here are built as OpenCL C 2.0.
const OPTIONS: &str = "-cl-std=CL2.0";

/// Runs on the interpreter and the JIT: the statuses (error text included) must be identical,
/// and so must the buffers when the run succeeded (after an error, the work-items other
/// threads ran may differ). Returns the JIT's run.
fn both(source: &str, kernel: &str, args: &[Arg], launch: &Launch<'_>) -> Outcome {
    let (reference, jit) = engines_with(source, kernel, args, launch);
    if jit.0.is_ok() {
        jit_harness::assert_same_buffers(kernel, &reference, &jit);
    }
    jit
}

const SAXPY: &str = "__kernel void saxpy(float a, __global const float *x, __global float *y) {
    size_t i = get_global_id(0) - get_global_offset(0);
    y[i] = a * x[i] + y[i];
}";

#[test]
fn saxpy_across_uneven_groups_and_offsets() {
    // 1000 work-items in groups of 64 (the last one 40), offset 7, on one thread and on all.
    let n = 1000;
    let x: Vec<f32> = (0..n).map(|i| (i as f32 * 0.37).sin()).collect();
    let y: Vec<f32> = (0..n).map(|i| 3.0 - i as f32 * 0.01).collect();
    for threads in [1, 0] {
        for (local, offset) in [(64, 7), (1, 0), (256, 0), (1000, 3)] {
            let (r, bufs) = both(
                SAXPY,
                "saxpy",
                &[
                    Arg::Val(2.5f32.to_le_bytes().to_vec()),
                    Arg::Buf(f32s(&x)),
                    Arg::Buf(f32s(&y)),
                ],
                &Launch {
                    global: &[n],
                    local: &[local],
                    offset: Some(&[offset]),
                    threads,
                    options: OPTIONS,
                },
            );
            r.expect("runs");
            let out = to_f32s(&bufs[1]);
            for i in 0..n {
                assert_eq!(out[i], 2.5 * x[i] + y[i], "y[{i}] local {local}");
            }
        }
    }
}

const IDS_2D: &str = "__kernel void ids(__global uint *out, __global const float *in,
                                     __global float *res, uint w) {
    size_t x = get_global_id(0) - get_global_offset(0);
    size_t y = get_global_id(1) - get_global_offset(1);
    size_t i = y * w + x;
    out[i] = (uint)get_global_linear_id() * 3u + (uint)get_global_id(0) * 1000u
        + (uint)get_global_id(1);
    float left = x > 0 ? in[i - 1] : 0.0f;
    res[i] = in[i] * 2.0f + left;
}";

#[test]
fn two_dimensional_lines_across_groups() {
    // 130 x 37 work-items in 16 x 4 groups (uneven in both dimensions), offset (3, 2).
    let (w, h) = (130usize, 37usize);
    let input: Vec<f32> = (0..w * h).map(|i| (i % 97) as f32 * 0.5 - 7.0).collect();
    for threads in [1, 0] {
        for local in [[16, 4], [64, 1], [1, 8], [130, 2]] {
            let (r, bufs) = both(
                IDS_2D,
                "ids",
                &[
                    Arg::Buf(vec![0; 4 * w * h]),
                    Arg::Buf(f32s(&input)),
                    Arg::Buf(vec![0; 4 * w * h]),
                    Arg::Val((w as u32).to_le_bytes().to_vec()),
                ],
                &Launch {
                    global: &[w, h],
                    local: &local,
                    offset: Some(&[3, 2]),
                    threads,
                    options: OPTIONS,
                },
            );
            r.expect("runs");
            let out = to_u32s(&bufs[0]);
            let res = to_f32s(&bufs[2]);
            for y in 0..h {
                for x in 0..w {
                    let i = y * w + x;
                    let linear = (y * w + x) as u32;
                    let expect = linear * 3 + (x as u32 + 3) * 1000 + (y as u32 + 2);
                    assert_eq!(out[i], expect, "out[{x}, {y}] local {local:?}");
                    let left = if x > 0 { input[i - 1] } else { 0.0 };
                    assert_eq!(res[i], input[i] * 2.0 + left, "res[{x}, {y}]");
                }
            }
        }
    }
}

#[test]
fn out_of_bounds_in_one_dimension_names_the_first_work_item() {
    // y has 900 elements: work-item 900 (group 14 of 64) is the first to fail, on both engines.
    let n = 1000;
    let x = vec![1.0f32; n];
    let y = vec![2.0f32; 900];
    for threads in [1, 0] {
        let (r, _) = both(
            SAXPY,
            "saxpy",
            &[
                Arg::Val(2.0f32.to_le_bytes().to_vec()),
                Arg::Buf(f32s(&x)),
                Arg::Buf(f32s(&y)),
            ],
            &Launch {
                global: &[n],
                local: &[64],
                offset: None,
                threads,
                options: OPTIONS,
            },
        );
        let e = r.expect_err("out of bounds");
        assert!(e.contains("work-item [900, 0, 0]"), "{e}");
    }
}

const FAIL_2D: &str = "__kernel void fail(__global float *out, uint w, uint ax, uint ay,
                                       uint bx, uint by) {
    size_t x = get_global_id(0);
    size_t y = get_global_id(1);
    size_t i = y * w + x;
    if ((x == ax && y == ay) || (x == bx && y == by))
        i += 1000000;
    out[i] = (float)(x + y);
}";

fn fail_2d(a: [u32; 2], b: [u32; 2], threads: usize) -> String {
    let (w, h) = (64usize, 8usize);
    let val = |v: u32| Arg::Val(v.to_le_bytes().to_vec());
    let (r, _) = both(
        FAIL_2D,
        "fail",
        &[
            Arg::Buf(vec![0; 4 * w * h]),
            val(w as u32),
            val(a[0]),
            val(a[1]),
            val(b[0]),
            val(b[1]),
        ],
        &Launch {
            global: &[w, h],
            local: &[16, 4],
            offset: None,
            threads,
            options: OPTIONS,
        },
    );
    r.expect_err("out of bounds")
}

#[test]
fn out_of_bounds_in_two_dimensions_keeps_the_group_order() {
    // Groups of 16 x 4: (40, 0) is in group 2's first line, (20, 3) in group 1's last line.
    // Group 1 runs (and fails) before group 2 in the per-group order.
    let e = fail_2d([40, 0], [20, 3], 1);
    assert!(e.contains("work-item [20, 3, 0]"), "{e}");
    // Only the later group fails.
    let e = fail_2d([40, 0], [999, 999], 1);
    assert!(e.contains("work-item [40, 0, 0]"), "{e}");
    // Two failures in one group: its first line's.
    let e = fail_2d([21, 2], [20, 3], 1);
    assert!(e.contains("work-item [21, 2, 0]"), "{e}");
    // The first group of a line fails later than a later group's line.
    let e = fail_2d([5, 3], [60, 1], 1);
    assert!(e.contains("work-item [5, 3, 0]"), "{e}");
    // A failure in the second row of groups, after a clean first row.
    let e = fail_2d([50, 6], [30, 7], 1);
    assert!(e.contains("work-item [30, 7, 0]"), "{e}");
}

#[test]
fn kernels_reading_local_ids_keep_their_groups() {
    let src = "__kernel void lid(__global uint *out) {
        size_t i = get_global_id(0);
        out[i] = (uint)get_local_id(0) + 1000u * (uint)get_group_id(0)
            + 100000u * (uint)get_local_size(0);
    }";
    let n = 1000;
    let (r, bufs) = both(
        src,
        "lid",
        &[Arg::Buf(vec![0; 4 * n])],
        &Launch {
            global: &[n],
            local: &[64],
            offset: None,
            threads: 0,
            options: OPTIONS,
        },
    );
    r.expect("runs");
    let out = to_u32s(&bufs[0]);
    for (i, &v) in out.iter().enumerate() {
        let size = if i >= 960 { 40 } else { 64 };
        let expect = (i % 64) as u32 + 1000 * (i / 64) as u32 + 100000 * size;
        assert_eq!(v, expect, "out[{i}]");
    }
}

#[test]
fn atomics_in_two_dimensional_groups_keep_the_group_order() {
    // One thread: each work-item takes the next ticket, in the per-group order.
    let src = "__kernel void tickets(__global uint *out, volatile __global uint *next, uint w) {
        size_t i = get_global_id(1) * w + get_global_id(0);
        out[i] = atomic_inc(next);
    }";
    let (w, h) = (40usize, 6usize);
    let local = [8usize, 3usize];
    let (r, bufs) = both(
        src,
        "tickets",
        &[
            Arg::Buf(vec![0; 4 * w * h]),
            Arg::Buf(vec![0; 4]),
            Arg::Val((w as u32).to_le_bytes().to_vec()),
        ],
        &Launch {
            global: &[w, h],
            local: &local,
            offset: None,
            threads: 1,
            options: OPTIONS,
        },
    );
    r.expect("runs");
    let out = to_u32s(&bufs[0]);
    let mut expect = vec![0u32; w * h];
    let mut ticket = 0;
    for gy in 0..h / local[1] {
        for gx in 0..w / local[0] {
            for ly in 0..local[1] {
                for lx in 0..local[0] {
                    expect[(gy * local[1] + ly) * w + gx * local[0] + lx] = ticket;
                    ticket += 1;
                }
            }
        }
    }
    assert_eq!(out, expect);
    assert_eq!(to_u32s(&bufs[1]), vec![ticket]);
}

#[test]
fn two_dimensional_kernels_with_loops_and_borders() {
    // A 3x3 box filter with clamped borders (a loop: 2D groups keep their order) and a
    // stencil with border tests (fused; the ND-range's first and last groups run apart).
    let src = "__kernel void box3(int w, int h, __global const float *in, __global float *out) {
        int x = get_global_id(0), y = get_global_id(1);
        float acc = 0.0f;
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++)
                acc += in[clamp(y + dy, 0, h - 1) * w + clamp(x + dx, 0, w - 1)];
        out[y * w + x] = acc;
    }
    __kernel void stencil(int w, int h, __global const float *in, __global float *out) {
        int x = get_global_id(0), y = get_global_id(1);
        int i = y * w + x;
        if (x == 0 || y == 0 || x == w - 1 || y == h - 1) {
            out[i] = in[i];
            return;
        }
        out[i] = 0.5f * in[i] + 0.125f * (in[i - 1] + in[i + 1] + in[i - w] + in[i + w]);
    }";
    let (w, h) = (203usize, 21usize);
    let input: Vec<f32> = (0..w * h)
        .map(|i| ((i * 7919) % 1013) as f32 / 64.0)
        .collect();
    let at = |x: i64, y: i64| {
        let x = x.clamp(0, w as i64 - 1) as usize;
        let y = y.clamp(0, h as i64 - 1) as usize;
        input[y * w + x]
    };
    for threads in [1, 0] {
        for kernel in ["box3", "stencil"] {
            let (r, bufs) = both(
                src,
                kernel,
                &[
                    Arg::Val((w as i32).to_le_bytes().to_vec()),
                    Arg::Val((h as i32).to_le_bytes().to_vec()),
                    Arg::Buf(f32s(&input)),
                    Arg::Buf(vec![0; 4 * w * h]),
                ],
                &Launch {
                    global: &[w, h],
                    local: &[16, 4],
                    offset: None,
                    threads,
                    options: OPTIONS,
                },
            );
            r.expect("runs");
            let out = to_f32s(&bufs[1]);
            for y in 0..h as i64 {
                for x in 0..w as i64 {
                    let expect = if kernel == "box3" {
                        let mut acc = 0.0f32;
                        for dy in -1..=1 {
                            for dx in -1..=1 {
                                acc += at(x + dx, y + dy);
                            }
                        }
                        acc
                    } else if x == 0 || y == 0 || x == w as i64 - 1 || y == h as i64 - 1 {
                        at(x, y)
                    } else {
                        0.5 * at(x, y)
                            + 0.125 * (at(x - 1, y) + at(x + 1, y) + at(x, y - 1) + at(x, y + 1))
                    };
                    assert_eq!(
                        out[(y * w as i64 + x) as usize],
                        expect,
                        "{kernel} [{x}, {y}]"
                    );
                }
            }
        }
    }
}
