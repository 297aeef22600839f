//! Phases whose work-items are mostly idle (`exec::jit::compile::vector::idle`): tree
//! reductions, a scan and tiled kernels whose guards (`lid < s`, `s > lid`, `lid >= s`,
//! `lid == k`, `lid != k`, `int` ids, local linear ids of 2D groups) leave the rest of a row
//! idle, in groups of several sizes (non-powers of two, rows not a multiple of 4, uneven last
//! groups), against values computed in Rust and the interpreter (bit-identical buffers, same
//! errors): barrier divergence and out-of-bounds accesses by work-items after an idle one.

mod jit_harness;

use jit_harness::{f32s, to_f32s, to_i32s, Arg, Launch, Outcome};

/// The kernels here are built as OpenCL C 2.0.
const OPTIONS: &str = "-cl-std=CL2.0";

/// Runs on the interpreter and the JIT: statuses (error text included) and buffers must be
/// identical; returns the JIT's.
fn both(source: &str, kernel: &str, args: &[Arg], global: &[usize], local: &[usize]) -> Outcome {
    jit_harness::both_with(
        source,
        kernel,
        args,
        &Launch::new(global, local).options(OPTIONS),
    )
}

/// The tree of `sum` over a group's values, step by step in f32 (`s = n / 2; s > 0; s /= 2`).
fn tree(x: &[f32]) -> f32 {
    let mut a = x.to_vec();
    let mut s = a.len() / 2;
    while s > 0 {
        for i in 0..s {
            a[i] += a[i + s];
        }
        s /= 2;
    }
    a[0]
}

fn data(n: usize) -> Vec<f32> {
    (0..n)
        .map(|i| ((i * 53) % 97) as f32 * 0.031 - 1.3)
        .collect()
}

/// Per group of `local` (the last one shorter when `n` is not a multiple): the tree.
fn group_trees(x: &[f32], local: usize) -> Vec<f32> {
    x.chunks(local).map(tree).collect()
}

const SUM: &str = "__kernel void sum(__global const float *in, __global float *partial,
                                     __local float *scratch) {
    size_t lid = get_local_id(0);
    scratch[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (lid < s)
            scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        partial[get_group_id(0)] = scratch[0];
}";

fn check_sum(source: &str, kernel: &str, n: usize, local: usize) {
    let x = data(n);
    let groups = n.div_ceil(local);
    let (r, bufs) = both(
        source,
        kernel,
        &[
            Arg::Buf(f32s(&x)),
            Arg::Buf(vec![0; 4 * groups]),
            Arg::Local(4 * local),
        ],
        &[n],
        &[local],
    );
    r.unwrap_or_else(|e| panic!("{kernel} n {n} local {local}: {e}"));
    let want = group_trees(&x, local);
    let got = to_f32s(&bufs[1]);
    for (g, (a, b)) in got.iter().zip(&want).enumerate() {
        assert_eq!(
            a.to_bits(),
            b.to_bits(),
            "{kernel} n {n} local {local} group {g}"
        );
    }
}

#[test]
fn tree_sums_in_groups_of_many_sizes() {
    for local in [1usize, 2, 3, 4, 6, 8, 12, 64, 96, 100, 256] {
        check_sum(SUM, "sum", 3 * local, local);
    }
}

#[test]
fn tree_sums_with_an_uneven_last_group() {
    for (n, local) in [(1000usize, 256usize), (70, 32), (45, 16), (13, 8)] {
        check_sum(SUM, "sum", n, local);
    }
}

#[test]
fn guards_of_other_shapes() {
    // The bound on the left, a signed `int` id, the idle edge as the `then` edge.
    let sources = [
        ("sum", SUM.replace("if (lid < s)", "if (s > lid)")),
        (
            "sum",
            SUM.replace(
                "size_t lid = get_local_id(0);",
                "int lid = (int)get_local_id(0);",
            )
            .replace("size_t s", "int s")
            .replace("if (lid < s)", "if (lid < s)"),
        ),
        (
            "sum",
            SUM.replace("if (lid < s)\n", "if (lid >= s) {} else\n"),
        ),
        ("sum", SUM.replace("if (lid == 0)", "if (!(lid != 0))")),
        (
            "sum",
            SUM.replace(
                "size_t lid = get_local_id(0);",
                "size_t lid = get_local_linear_id();",
            ),
        ),
    ];
    for (kernel, src) in &sources {
        for (n, local) in [(768usize, 256usize), (300, 100), (40, 10)] {
            check_sum(src, kernel, n, local);
        }
    }
}

#[test]
fn a_guard_on_an_id_equal_to_a_bound_in_the_middle_of_the_row() {
    // Only work-item k stores; the others reach the barrier (or return) idle.
    let src = "__kernel void k(__global int *out, int k) {
        size_t lid = get_local_id(0);
        if (lid == (size_t)k)
            out[get_group_id(0)] = (int)lid + 100;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid != (size_t)(k + 1))
            return;
        out[get_num_groups(0) + get_group_id(0)] = (int)lid;
    }";
    for (local, k) in [(16usize, 5i32), (16, 0), (16, 15), (13, 7), (64, 40)] {
        let groups = 3;
        let (r, bufs) = both(
            src,
            "k",
            &[
                Arg::Buf(vec![0; 4 * 2 * groups]),
                Arg::Val(k.to_le_bytes().to_vec()),
            ],
            &[groups * local],
            &[local],
        );
        r.unwrap_or_else(|e| panic!("local {local} k {k}: {e}"));
        let got = to_i32s(&bufs[0]);
        let next = if (k as usize + 1) < local { k + 1 } else { 0 };
        for g in 0..groups {
            assert_eq!(got[g], k + 100, "local {local} k {k}");
            assert_eq!(got[groups + g], next, "local {local} k {k}");
        }
    }
}

#[test]
fn rows_of_a_two_dimensional_group() {
    // A reduction along x in every row of an 8 x 4 (and 6 x 3) group, guarded by
    // `get_local_id(0)`, and one over the whole group by the local linear id.
    let rows = "__kernel void rows(__global const float *in, __global float *out,
                                   __local float *t) {
        size_t x = get_local_id(0), y = get_local_id(1), w = get_local_size(0);
        size_t gx = get_global_id(0), gy = get_global_id(1);
        t[y * w + x] = in[gy * get_global_size(0) + gx];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (size_t s = w / 2; s > 0; s >>= 1) {
            if (x < s)
                t[y * w + x] += t[y * w + x + s];
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        if (x == 0)
            out[gy * get_num_groups(0) + get_group_id(0)] = t[y * w];
    }";
    let whole = "__kernel void whole(__global const float *in, __global float *out,
                                    __local float *t) {
        size_t l = get_local_linear_id();
        size_t n = get_local_size(0) * get_local_size(1);
        t[l] = in[get_global_id(1) * get_global_size(0) + get_global_id(0)];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (size_t s = n / 2; s > 0; s >>= 1) {
            if (l < s)
                t[l] += t[l + s];
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        if (l == 0)
            out[get_group_id(1) * get_num_groups(0) + get_group_id(0)] = t[0];
    }";
    for (lx, ly) in [(8usize, 4usize), (6, 3)] {
        let (gx, gy) = (2 * lx, 3 * ly);
        let x = data(gx * gy);
        let (r, bufs) = both(
            rows,
            "rows",
            &[
                Arg::Buf(f32s(&x)),
                Arg::Buf(vec![0; 4 * gy * 2]),
                Arg::Local(4 * lx * ly),
            ],
            &[gx, gy],
            &[lx, ly],
        );
        r.expect("rows");
        let got = to_f32s(&bufs[1]);
        for row in 0..gy {
            for g in 0..2 {
                let want = tree(&x[row * gx + g * lx..row * gx + (g + 1) * lx]);
                assert_eq!(
                    got[row * 2 + g].to_bits(),
                    want.to_bits(),
                    "row {row} g {g}"
                );
            }
        }
        let (r, bufs) = both(
            whole,
            "whole",
            &[
                Arg::Buf(f32s(&x)),
                Arg::Buf(vec![0; 4 * 6]),
                Arg::Local(4 * lx * ly),
            ],
            &[gx, gy],
            &[lx, ly],
        );
        r.expect("whole");
        let got = to_f32s(&bufs[1]);
        for gj in 0..3 {
            for gi in 0..2 {
                let mut v = Vec::new();
                for y in 0..ly {
                    let at = (gj * ly + y) * gx + gi * lx;
                    v.extend_from_slice(&x[at..at + lx]);
                }
                assert_eq!(got[gj * 2 + gi].to_bits(), tree(&v).to_bits(), "{gi} {gj}");
            }
        }
    }
}

#[test]
fn work_efficient_scan() {
    // Blelloch's exclusive scan of ints: the up-sweep's and down-sweep's `lid < d` guards.
    let src = "__kernel void scan(__global const int *in, __global int *out, __local int *t) {
        int lid = (int)get_local_id(0);
        int n = (int)get_local_size(0);
        t[lid] = in[get_global_id(0)];
        int off = 1;
        for (int d = n >> 1; d > 0; d >>= 1) {
            barrier(CLK_LOCAL_MEM_FENCE);
            if (lid < d) {
                int ai = off * (2 * lid + 1) - 1, bi = off * (2 * lid + 2) - 1;
                t[bi] += t[ai];
            }
            off *= 2;
        }
        if (lid == 0)
            t[n - 1] = 0;
        for (int d = 1; d < n; d *= 2) {
            off >>= 1;
            barrier(CLK_LOCAL_MEM_FENCE);
            if (lid < d) {
                int ai = off * (2 * lid + 1) - 1, bi = off * (2 * lid + 2) - 1;
                int x = t[ai];
                t[ai] = t[bi];
                t[bi] += x;
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        out[get_global_id(0)] = t[lid];
    }";
    for local in [8usize, 64, 256] {
        let n = 3 * local;
        let x: Vec<i32> = (0..n as i32).map(|i| (i * 7919) % 1013 - 500).collect();
        let bytes: Vec<u8> = x.iter().flat_map(|v| v.to_le_bytes()).collect();
        let (r, bufs) = both(
            src,
            "scan",
            &[
                Arg::Buf(bytes),
                Arg::Buf(vec![0; 4 * n]),
                Arg::Local(4 * local),
            ],
            &[n],
            &[local],
        );
        r.expect("scan");
        let got = to_i32s(&bufs[1]);
        for g in 0..3 {
            let mut acc = 0i32;
            for i in 0..local {
                assert_eq!(got[g * local + i], acc, "local {local} group {g} item {i}");
                acc = acc.wrapping_add(x[g * local + i]);
            }
        }
    }
}

#[test]
fn values_of_each_work_item_kept_across_idle_phases() {
    // `mine` (per work-item, from memory) is kept across the tree's barriers: no phase may
    // leave the rest of a row out.
    let src = "__kernel void k(__global const float *in, __global float *out,
                              __local float *t) {
        size_t lid = get_local_id(0);
        float mine = in[get_global_id(0)];
        t[lid] = mine;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
            if (lid < s)
                t[lid] += t[lid + s];
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        out[get_global_id(0)] = mine * 2.0f + t[0];
    }";
    for local in [16usize, 20] {
        let n = 2 * local;
        let x = data(n);
        let (r, bufs) = both(
            src,
            "k",
            &[
                Arg::Buf(f32s(&x)),
                Arg::Buf(vec![0; 4 * n]),
                Arg::Local(4 * local),
            ],
            &[n],
            &[local],
        );
        r.expect("kept");
        let got = to_f32s(&bufs[1]);
        for (i, v) in got.iter().enumerate() {
            let total = tree(&x[i / local * local..(i / local + 1) * local]);
            assert_eq!(v.to_bits(), (x[i] * 2.0 + total).to_bits(), "item {i}");
        }
    }
}

#[test]
fn divergence_after_an_idle_work_item_is_reported_for_it() {
    // Work-items below 5 (9) wait at one barrier, the others at another: the first idle
    // work-item is the first to diverge (inside an iteration of 4 and at an iteration's
    // start).
    for (k, at) in [(5, "[5, 0, 0]"), (8, "[8, 0, 0]"), (0, "[0, 0, 0]")] {
        let src = format!(
            "__kernel void k(__global int *out) {{
                size_t lid = get_local_id(0);
                if (lid < {k}) {{
                    barrier(CLK_LOCAL_MEM_FENCE);
                    out[lid] = 1;
                }} else {{
                    barrier(CLK_LOCAL_MEM_FENCE);
                    out[lid] = 2;
                }}
            }}"
        );
        let (r, _) = both(&src, "k", &[Arg::Buf(vec![0; 4 * 16])], &[16], &[16]);
        if k == 0 {
            r.expect("no divergence: every work-item waits at the second barrier");
            continue;
        }
        let err = r.expect_err("barrier divergence");
        assert!(err.contains(at), "{k}: {err}");
    }
}

#[test]
fn out_of_bounds_in_a_phase_with_idle_work_items() {
    // The tree reads past the local buffer at its first step (work-item 0 of the second
    // half's partner), and the last phase's store fails for work-item 0 after the others
    // went idle.
    let short = SUM.replace(
        "scratch[lid] += scratch[lid + s];",
        "scratch[lid] += scratch[lid + 2 * s];",
    );
    let x = data(64);
    let (r, _) = both(
        &short,
        "sum",
        &[Arg::Buf(f32s(&x)), Arg::Buf(vec![0; 4]), Arg::Local(4 * 64)],
        &[64],
        &[64],
    );
    let err = r.expect_err("out of bounds");
    assert!(err.contains("work-item [0, 0, 0]"), "{err}");
    let late = SUM.replace("partial[get_group_id(0)]", "partial[get_group_id(0) + 7]");
    let (r, _) = both(
        &late,
        "sum",
        &[Arg::Buf(f32s(&x)), Arg::Buf(vec![0; 4]), Arg::Local(4 * 64)],
        &[64],
        &[64],
    );
    let err = r.expect_err("out of bounds");
    assert!(err.contains("work-item [0, 0, 0]"), "{err}");
}

#[test]
fn tiled_products_with_ids_converted_and_local_arrays_kept_across_barriers() {
    // `int`, `short` (two conversions) and `size_t` ids and the kernel's `__local` arrays
    // are live across both barriers of every tile; tiles of 8 x 8 and 4 x 4 (one row of 4
    // work-items per iteration) and a 12 x 4 group of 4 x 4 tiles along y.
    let src = "#define TS 8
    __kernel void mm(int n, __global const float *A, __global const float *B,
                     __global float *C) {
        __local float As[TS][TS];
        __local float Bs[TS][TS];
        short lr = (short)get_local_id(1);
        int lc = get_local_id(0);
        int row = get_global_id(1);
        size_t col = get_global_id(0);
        float acc = 0.0f;
        for (int t = 0; t < n; t += TS) {
            As[lr][lc] = A[row * n + t + lc];
            Bs[lr][lc] = B[(t + lr) * n + col];
            barrier(CLK_LOCAL_MEM_FENCE);
            for (int k = 0; k < TS; k++)
                acc += As[lr][k] * Bs[k][lc];
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        C[row * n + col] = acc;
    }";
    for ts in [8usize, 4] {
        let source = src.replace("#define TS 8", &format!("#define TS {ts}"));
        let n = 4 * ts;
        let a: Vec<f32> = (0..n * n)
            .map(|i| ((i * 13) % 29) as f32 * 0.25 - 3.0)
            .collect();
        let b: Vec<f32> = (0..n * n)
            .map(|i| ((i * 7) % 31) as f32 * 0.125 - 1.5)
            .collect();
        let (r, bufs) = both(
            &source,
            "mm",
            &[
                Arg::Val((n as i32).to_le_bytes().to_vec()),
                Arg::Buf(f32s(&a)),
                Arg::Buf(f32s(&b)),
                Arg::Buf(vec![0; 4 * n * n]),
            ],
            &[n, n],
            &[ts, ts],
        );
        r.expect("mm");
        let got = to_f32s(&bufs[2]);
        for row in 0..n {
            for col in 0..n {
                let mut acc = 0.0f32;
                for t in (0..n).step_by(ts) {
                    for k in 0..ts {
                        acc += a[row * n + t + k] * b[(t + k) * n + col];
                    }
                }
                assert_eq!(
                    got[row * n + col].to_bits(),
                    acc.to_bits(),
                    "ts {ts} [{row}][{col}]"
                );
            }
        }
    }
}

#[test]
fn ids_computed_again_after_barriers_in_rows_not_a_multiple_of_four() {
    // Work-item ids converted to `int` / `uchar` and a `__local` array's address are kept
    // across a barrier in rows of 6 and 7 work-items (scalar loop) and 8 (vectorised).
    let src = "__kernel void k(__global int *out) {
        __local int tmp[64];
        int x = (int)get_local_id(0);
        uchar y = (uchar)get_local_id(1);
        int g = (int)get_global_id(0) + 1000 * (int)get_global_id(1);
        tmp[y * get_local_size(0) + x] = g;
        barrier(CLK_LOCAL_MEM_FENCE);
        int w = (int)get_local_size(0);
        out[g % 1000 + 1000 * (g / 1000)] = tmp[y * w + (w - 1 - x)] * 3 + x - y;
    }";
    for (lx, ly) in [(6usize, 2usize), (7, 3), (8, 2)] {
        let (gx, gy) = (2 * lx, 2 * ly);
        let (r, bufs) = both(
            src,
            "k",
            &[Arg::Buf(vec![0; 4 * 1000 * gy])],
            &[gx, gy],
            &[lx, ly],
        );
        r.expect("ids");
        let got = to_i32s(&bufs[0]);
        for y in 0..gy {
            for x in 0..gx {
                let (lxi, lyi) = (x % lx, y % ly);
                let partner = (x - lxi + (lx - 1 - lxi)) as i32 + 1000 * y as i32;
                let want = partner * 3 + lxi as i32 - lyi as i32;
                assert_eq!(got[x + 1000 * y], want, "{lx}x{ly} [{x}][{y}]");
            }
        }
    }
}

#[test]
fn work_items_idle_in_one_phase_and_busy_in_the_next() {
    // `s` grows: the work-items left idle at one barrier run the next phases with the `s`
    // they would have kept.
    let src = "__kernel void grow(__global int *out, __local int *t) {
        uint lid = get_local_id(0), n = get_local_size(0);
        t[lid] = (int)lid + 1;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint s = 1; s < n; s <<= 1) {
            if (lid < s)
                t[lid] = t[lid] * 3 + (int)s;
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        out[get_global_id(0)] = t[lid];
    }";
    for local in [5usize, 24, 64, 100] {
        let n = 2 * local;
        let (r, bufs) = both(
            src,
            "grow",
            &[Arg::Buf(vec![0; 4 * n]), Arg::Local(4 * local)],
            &[n],
            &[local],
        );
        r.expect("grow");
        let mut t: Vec<i32> = (1..=local as i32).collect();
        let mut s = 1;
        while s < local {
            for v in t.iter_mut().take(s) {
                *v = v.wrapping_mul(3).wrapping_add(s as i32);
            }
            s <<= 1;
        }
        let got = to_i32s(&bufs[0]);
        for g in 0..2 {
            assert_eq!(got[g * local..(g + 1) * local], t[..], "local {local}");
        }
    }
}
