//! Phase loops specialised to one resume point (`exec::jit::compile::phase_entry`): tree
//! reductions (one barrier in a loop, groups of 64, 96 and 256), values of several types kept
//! across different barriers, a kernel with more barriers than get copies (the generic loops),
//! against values computed in Rust and the interpreter (bit-identical buffers, same errors):
//! barrier divergence and an out-of-bounds access in a later phase.

mod jit_harness;

use jit_harness::{both, f32s, i32v, to_f32s, Arg};

fn i32s(v: &[i32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn to_i32s(b: &[u8]) -> Vec<i32> {
    b.chunks(4)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

const TREE: &str = r#"
__kernel void tree(__global const float *in, __global float *out) {
    __local float scratch[256];
    size_t lid = get_local_id(0);
    scratch[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (lid < s)
            scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        out[get_group_id(0)] = scratch[0];
}
"#;

/// The kernel's tree over one group, in Rust.
fn tree_group(x: &[f32]) -> f32 {
    let mut t = x.to_vec();
    let mut s = t.len() / 2;
    while s > 0 {
        for lid in 0..s {
            t[lid] += t[lid + s];
        }
        s >>= 1;
    }
    t[0]
}

#[test]
fn tree_reductions_in_groups_of_64_96_and_256() {
    for local in [64usize, 96, 256] {
        let groups = 5;
        let x: Vec<f32> = (0..local * groups)
            .map(|i| ((i * 37 % 101) as f32) * 0.25 - 7.0)
            .collect();
        let (r, bufs) = both(
            TREE,
            "tree",
            &[Arg::Buf(f32s(&x)), Arg::Buf(f32s(&vec![0.0; groups]))],
            &[local * groups],
            &[local],
        );
        assert_eq!(r, Ok(()));
        let want: Vec<f32> = x.chunks(local).map(tree_group).collect();
        assert_eq!(to_f32s(&bufs[1]), want, "groups of {local}");
    }
}

const STAGED: &str = r#"
__kernel void staged(__global const int *in, __global int *out, __global float *fout) {
    __local int a[64];
    __local int b[64];
    int lid = get_local_id(0);
    int ls = get_local_size(0);
    int x = in[get_global_id(0)];
    float f = (float)x * 0.5f;
    a[lid] = x;
    barrier(CLK_LOCAL_MEM_FENCE);
    int y = a[(lid + 1) % ls] + x;
    b[lid] = y;
    barrier(CLK_LOCAL_MEM_FENCE);
    int z = b[(lid + 3) % ls] * 3 - y;
    a[lid] = z;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = a[ls - 1 - lid] + z;
    fout[get_global_id(0)] = f + (float)y;
}
"#;

#[test]
fn values_of_several_types_kept_across_different_barriers() {
    for local in [8usize, 12, 64] {
        let groups = 3;
        let n = local * groups;
        let x: Vec<i32> = (0..n as i32).map(|i| i * 7 - 40).collect();
        let (r, bufs) = both(
            STAGED,
            "staged",
            &[
                Arg::Buf(i32s(&x)),
                Arg::Buf(i32s(&vec![0; n])),
                Arg::Buf(f32s(&vec![0.0; n])),
            ],
            &[n],
            &[local],
        );
        assert_eq!(r, Ok(()));
        let mut out = Vec::new();
        let mut fout = Vec::new();
        for g in x.chunks(local) {
            let y: Vec<i32> = (0..local).map(|l| g[(l + 1) % local] + g[l]).collect();
            let z: Vec<i32> = (0..local).map(|l| y[(l + 3) % local] * 3 - y[l]).collect();
            for l in 0..local {
                out.push(z[local - 1 - l] + z[l]);
                fout.push(g[l] as f32 * 0.5 + y[l] as f32);
            }
        }
        assert_eq!(to_i32s(&bufs[1]), out, "groups of {local}");
        assert_eq!(to_f32s(&bufs[2]), fout, "groups of {local}");
    }
}

const ROTATE: &str = r#"
#define STEP(k) barrier(CLK_LOCAL_MEM_FENCE); \
    { int v = t[(lid + k) & 31]; barrier(CLK_LOCAL_MEM_FENCE); t[lid] = v + lid; }
__kernel void rotations(__global int *io) {
    __local int t[32];
    int lid = get_local_id(0);
    t[lid] = io[get_global_id(0)];
    STEP(1) STEP(2) STEP(3) STEP(4) STEP(5)
    barrier(CLK_LOCAL_MEM_FENCE);
    io[get_global_id(0)] = t[lid];
}
"#;

#[test]
fn a_kernel_with_more_barriers_than_copies_runs_on_the_generic_loops() {
    let groups = 4;
    let x: Vec<i32> = (0..32 * groups as i32).map(|i| i * i - 300).collect();
    let (r, bufs) = both(
        ROTATE,
        "rotations",
        &[Arg::Buf(i32s(&x))],
        &[32 * groups],
        &[32],
    );
    assert_eq!(r, Ok(()));
    let mut want = Vec::new();
    for g in x.chunks(32) {
        let mut t = g.to_vec();
        for k in 1..=5 {
            t = (0..32).map(|l| t[(l + k) & 31] + l as i32).collect();
        }
        want.extend(t);
    }
    assert_eq!(to_i32s(&bufs[0]), want);
}

const DIVERGE: &str = r#"
__kernel void diverge(__global int *io) {
    int lid = get_local_id(0);
    io[get_global_id(0)] += 1;
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (lid == 5)
        return;
    barrier(CLK_GLOBAL_MEM_FENCE);
    io[get_global_id(0)] += 1;
}
"#;

#[test]
fn divergence_in_a_later_phase_names_the_first_diverging_work_item() {
    let (r, _) = both(
        DIVERGE,
        "diverge",
        &[Arg::Buf(i32s(&[0; 16]))],
        &[16],
        &[16],
    );
    let err = r.expect_err("barrier divergence");
    assert!(err.contains("[5, 0, 0]"), "{err}");
}

const OOB: &str = r#"
__kernel void oob(__global float *io, int n) {
    __local float t[16];
    int lid = get_local_id(0);
    t[lid] = io[lid];
    barrier(CLK_LOCAL_MEM_FENCE);
    float v = t[15 - lid];
    barrier(CLK_LOCAL_MEM_FENCE);
    io[lid * n] = v;
}
"#;

#[test]
fn out_of_bounds_after_the_second_barrier_names_the_work_item() {
    let x: Vec<f32> = (0..16).map(|i| i as f32 + 0.5).collect();
    let (r, bufs) = both(OOB, "oob", &[Arg::Buf(f32s(&x)), i32v(2)], &[16], &[16]);
    let err = r.expect_err("out of bounds");
    assert!(err.contains("work-item [8, 0, 0]"), "{err}");
    let mut want = x.clone();
    for k in 0..8 {
        want[2 * k] = x[15 - k];
    }
    assert_eq!(to_f32s(&bufs[0]), want);
}
