//! The spill words of work-items a phase left idle, copied lazily (`exec::jit::idle_rows`):
//! phases that run every work-item after one that left most of them idle read what each would
//! have kept at the barrier, in groups of several sizes (rows not a multiple of 4, 2D groups),
//! against values computed in Rust and the interpreter (bit-identical buffers, same errors):
//! barrier divergence and out-of-bounds accesses by work-items past the idle ones.

mod jit_harness;

use jit_harness::*;

fn to_i32s(b: &[u8]) -> Vec<i32> {
    b.chunks(4)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// After every halving step of a tree, every work-item writes what it kept (`s`, `k`, a
/// float `f`) and its slot.
const HALVE: &str = "__kernel void halve(__global int *out, float scale) {
    __local int t[256];
    uint lid = get_local_id(0), n = get_local_size(0);
    uint gid = get_global_id(0);
    t[lid] = (int)gid;
    barrier(CLK_LOCAL_MEM_FENCE);
    int k = 0;
    float f = scale;
    for (uint s = n / 2; s > 0; s >>= 1) {
        if (lid < s)
            t[lid] += t[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
        out[gid * 9 + k] = (int)s * 7 + t[lid] + (int)f;
        k++;
        f = f * 1.5f;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[gid * 9 + 8] = k;
}";

/// `HALVE` in Rust over groups of `local` of a 1D range of `n`.
fn halve_reference(n: usize, local: usize, scale: f32) -> Vec<i32> {
    let mut out = vec![0i32; 9 * n];
    for g in 0..n / local {
        let mut t: Vec<i32> = (g * local..(g + 1) * local).map(|x| x as i32).collect();
        let mut s = local / 2;
        let mut k = 0;
        let mut f = scale;
        while s > 0 {
            for i in 0..s {
                t[i] = t[i].wrapping_add(t[i + s]);
            }
            for (lid, v) in t.iter().enumerate() {
                let gid = g * local + lid;
                out[gid * 9 + k] = (s as i32 * 7).wrapping_add(*v).wrapping_add(f as i32);
            }
            k += 1;
            f *= 1.5;
            s >>= 1;
        }
        for lid in 0..local {
            out[(g * local + lid) * 9 + 8] = k as i32;
        }
    }
    out
}

#[test]
fn every_work_item_reads_what_it_kept_after_idle_phases() {
    for local in [1usize, 4, 6, 8, 10, 12, 64, 100, 256] {
        let n = 3 * local;
        let scale = 2.25f32;
        let (r, bufs) = both(
            HALVE,
            "halve",
            &[
                Arg::Buf(vec![0; 4 * 9 * n]),
                Arg::Val(scale.to_le_bytes().to_vec()),
            ],
            &[n],
            &[local],
        );
        r.unwrap_or_else(|e| panic!("local {local}: {e}"));
        assert_eq!(
            to_i32s(&bufs[0]),
            halve_reference(n, local, scale),
            "local {local}"
        );
    }
}

#[test]
fn rows_of_a_two_dimensional_group_read_what_they_kept() {
    // Each row halves with its own bound (`lid < s` on the x id): idle from different places.
    let src = "__kernel void rows(__global int *out) {
        __local int t[16][32];
        uint x = get_local_id(0), y = get_local_id(1), n = get_local_size(0);
        t[y][x] = (int)(x + 100 * y);
        barrier(CLK_LOCAL_MEM_FENCE);
        int k = 0;
        for (uint s = n / 2; s > 0; s >>= 1) {
            if (x < s)
                t[y][x] += t[y][x + s];
            barrier(CLK_LOCAL_MEM_FENCE);
            out[(get_global_id(1) * get_global_size(0) + get_global_id(0)) * 6 + k]
                = (int)s + t[y][x];
            k++;
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    }";
    for (lx, ly) in [(8usize, 2usize), (12, 3), (32, 4), (20, 1)] {
        let (gx, gy) = (2 * lx, 2 * ly);
        let (r, bufs) = both(
            src,
            "rows",
            &[Arg::Buf(vec![0; 4 * 6 * gx * gy])],
            &[gx, gy],
            &[lx, ly],
        );
        r.unwrap_or_else(|e| panic!("{lx}x{ly}: {e}"));
        let mut want = vec![0i32; 6 * gx * gy];
        for gy0 in (0..gy).step_by(ly) {
            for gx0 in (0..gx).step_by(lx) {
                for y in 0..ly {
                    let mut t: Vec<i32> = (0..lx).map(|x| (x + 100 * y) as i32).collect();
                    let (mut s, mut k) = (lx / 2, 0);
                    while s > 0 {
                        for i in 0..s {
                            t[i] += t[i + s];
                        }
                        for (x, v) in t.iter().enumerate() {
                            let g = (gy0 + y) * gx + gx0 + x;
                            want[g * 6 + k] = s as i32 + v;
                        }
                        k += 1;
                        s >>= 1;
                    }
                }
            }
        }
        assert_eq!(to_i32s(&bufs[0]), want, "{lx}x{ly}");
    }
}

#[test]
fn divergence_past_the_idle_work_items_is_reported_for_the_first_of_them() {
    // After the idle phase, the last work-item (never run by it) stops at another barrier.
    let src = "__kernel void split(__global int *out) {
        __local int t[256];
        uint lid = get_local_id(0), n = get_local_size(0);
        t[lid] = (int)lid;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint s = n / 2; s > 0; s >>= 1) {
            if (lid < s)
                t[lid] += t[lid + s];
            barrier(CLK_LOCAL_MEM_FENCE);
            if (lid == n - 1 && s < n / 2) {
                out[lid] = (int)s;
                barrier(CLK_LOCAL_MEM_FENCE);
            }
            out[lid] += t[lid];
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    }";
    for local in [8usize, 12, 64] {
        let (r, _) = both(
            src,
            "split",
            &[Arg::Buf(vec![0; 4 * local])],
            &[local],
            &[local],
        );
        let e = r.expect_err("barrier divergence");
        assert!(
            e.contains("diverge") || e.contains("barrier"),
            "local {local}: {e}"
        );
    }
}

#[test]
fn out_of_bounds_past_the_idle_work_items_is_reported_for_the_same_work_item() {
    // The last work-item of the second group writes past the buffer in a phase after an idle
    // one; the interpreter reports the same work-item.
    let src = "__kernel void oob(__global int *out, int limit) {
        __local int t[64];
        uint lid = get_local_id(0), n = get_local_size(0);
        t[lid] = (int)lid;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint s = n / 2; s > 0; s >>= 1) {
            if (lid < s)
                t[lid] += t[lid + s];
            barrier(CLK_LOCAL_MEM_FENCE);
            int at = (int)get_global_id(0) + (s == 1 ? 1000 : 0);
            if (at < limit || lid == n - 1)
                out[at] = t[lid] + (int)s;
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    }";
    for local in [8usize, 12, 64] {
        let n = 2 * local;
        let (r, _) = both(
            src,
            "oob",
            &[Arg::Buf(vec![0; 4 * n]), i32v(n as i32)],
            &[n],
            &[local],
        );
        let e = r.expect_err("out of bounds");
        let last = local - 1;
        assert!(e.contains(&format!("{last}")), "local {local}: {e}");
    }
}

#[test]
fn many_words_kept_across_an_idle_phase() {
    // Twenty row-uniform values live across the idle barrier (more than the driver keeps on
    // its stack): every work-item after the idle ones reads them in the next phase.
    let decls: String = (0..20)
        .map(|j| format!("int a{j} = {};\n", j + 1))
        .collect();
    let steps: String = (0..20)
        .map(|j| format!("a{j} = a{j} * 3 + (int)s + {j};\n"))
        .collect();
    let total: String = (0..20)
        .map(|j| format!("a{j}"))
        .collect::<Vec<_>>()
        .join(" ^ ");
    let src = format!(
        "__kernel void many(__global int *out) {{
            __local int t[64];
            uint lid = get_local_id(0), n = get_local_size(0);
            t[lid] = (int)lid;
            {decls}
            barrier(CLK_LOCAL_MEM_FENCE);
            int k = 0;
            for (uint s = n / 2; s > 0; s >>= 1) {{
                {steps}
                if (lid < s)
                    t[lid] += t[lid + s];
                barrier(CLK_LOCAL_MEM_FENCE);
                out[get_global_id(0) * 6 + k] = ({total}) + t[lid];
                k++;
                barrier(CLK_LOCAL_MEM_FENCE);
            }}
        }}"
    );
    for local in [8usize, 12, 64] {
        let n = 2 * local;
        let (r, bufs) = both(
            &src,
            "many",
            &[Arg::Buf(vec![0; 4 * 6 * n])],
            &[n],
            &[local],
        );
        r.unwrap_or_else(|e| panic!("local {local}: {e}"));
        let mut want = vec![0i32; 6 * n];
        for g in 0..2 {
            let mut t: Vec<i32> = (0..local as i32).collect();
            let mut a: Vec<i32> = (1..=20).collect();
            let (mut s, mut k) = (local / 2, 0);
            while s > 0 {
                for (j, v) in a.iter_mut().enumerate() {
                    *v = v.wrapping_mul(3).wrapping_add(s as i32 + j as i32);
                }
                for i in 0..s {
                    t[i] += t[i + s];
                }
                let x = a.iter().fold(0, |acc, v| acc ^ v);
                for (lid, v) in t.iter().enumerate() {
                    want[(g * local + lid) * 6 + k] = x.wrapping_add(*v);
                }
                k += 1;
                s >>= 1;
            }
        }
        assert_eq!(to_i32s(&bufs[0]), want, "local {local}");
    }
}
