//! Corpus cases written in OpenCL C, compiled by clang-15 + llvm-spirv-15. Expected outputs are
//! computed in plain Rust beside each kernel.

use std::collections::BTreeSet;

use super::harness::{f32s, run_cl, u32s, u64s, Arg, Case};
use spv::Op;

const INTEGERS: &str = r#"
typedef struct { int a; long b; char c[3]; } S;
constant int table[4] = {3, 1, 4, 1};
global int counter = 7;
int helper(int x, S *s) { return x * s->a + (int)s->b + s->c[2]; }
kernel void k(global int *out, global long *lout, int n) {
    int i = get_global_id(0);
    S s = { i + 1, (long)i * 1000L, {1, 2, 3} };
    int acc = 0;
    for (int j = 0; j < n; ++j) {
        switch ((i + j) % 4) {
        case 0: acc += j; break;
        case 1: acc -= 2 * j; break;
        case 2: acc ^= j << 3; break;
        default: acc = acc * 3 + table[j & 3];
        }
    }
    out[i * 8 + 0] = acc;
    out[i * 8 + 1] = helper(i, &s);
    out[i * 8 + 2] = (i - 5) / 3;
    out[i * 8 + 3] = (i - 5) % 3;
    out[i * 8 + 4] = (uint)(i + 7) / 3u + (uint)(i + 7) % 3u;
    out[i * 8 + 5] = (i > 3 && i < 10) || i == 0;
    out[i * 8 + 6] = ((uint)0x80000000 >> (i & 31)) | ((-i >> 1) ^ (i << 2));
    out[i * 8 + 7] = counter + table[i & 3] + (char)(i * 50) + (short)(i * 5000) + (uchar)(i * 50);
    lout[i] = (long)i * -3L + (long)((ulong)i * 5UL) - (long)(~(ulong)i >> 60);
}
"#;

fn integers_expected(n_items: i32, n: i32) -> (Vec<i32>, Vec<i64>) {
    let table = [3, 1, 4, 1];
    let mut out = Vec::new();
    let mut lout = Vec::new();
    for i in 0..n_items {
        let mut acc: i32 = 0;
        for j in 0..n {
            match (i + j) % 4 {
                0 => acc += j,
                1 => acc -= 2 * j,
                2 => acc ^= j << 3,
                _ => acc = acc * 3 + table[(j & 3) as usize],
            }
        }
        out.push(acc);
        out.push(i * (i + 1) + (i as i64 * 1000) as i32 + 3);
        out.push((i - 5) / 3);
        out.push((i - 5) % 3);
        out.push(((i + 7) as u32 / 3 + (i + 7) as u32 % 3) as i32);
        out.push(((i > 3 && i < 10) || i == 0) as i32);
        out.push(((0x8000_0000u32 >> (i & 31)) as i32) | ((-i >> 1) ^ (i << 2)));
        out.push(
            7 + table[(i & 3) as usize]
                + (i * 50) as i8 as i32
                + (i * 5000) as i16 as i32
                + (i * 50) as u8 as i32,
        );
        lout.push(i as i64 * -3 + (i as u64 * 5) as i64 - (!(i as u64) >> 60) as i64);
    }
    (out, lout)
}

const FLOATS: &str = r#"
kernel void k(global float *f, global int *o, global float4 *v, global double *d) {
    int i = get_global_id(0);
    float x = (float)i * 0.75f - 2.0f;
    f[i * 4 + 0] = x * x + 1.0f;
    f[i * 4 + 1] = x / 4.0f - x;
    f[i * 4 + 2] = (float)(uint)i + (float)(-i);
    f[i * 4 + 3] = (float)((double)x * 2.0);
    d[i] = (double)x / 8.0 + (double)(long)i;
    o[i * 8 + 0] = (int)x;
    o[i * 8 + 1] = (int)(uint)(x + 10.0f);
    o[i * 8 + 2] = convert_int_sat(x * 1e10f);
    o[i * 8 + 3] = convert_uchar_sat(i * 40) + convert_char_sat(-i * 40);
    o[i * 8 + 4] = isnan(x) + 2 * isinf(x) + 4 * (x != 0.5f) + 8 * (x == 1.0f) + 16 * (x <= 0.0f)
        + 32 * (x >= 0.25f) + 64 * (x < 1.0f) + 128 * (x > -1.0f);
    o[i * 8 + 5] = isless(x, 0.5f) + 2 * isgreaterequal(x, 1.0f) + 4 * isunordered(x, x)
        + 8 * isordered(x, 1.0f) + 16 * islessgreater(x, 0.5f) + 32 * signbit(x)
        + 64 * isnormal(x) + 128 * isfinite(x);
    float4 a = (float4)(x, 1.0f, 2.0f, 3.0f);
    float4 b = a.wzyx * 2.0f;
    v[i] = b + (float4)(dot(a, b)) - a * x;
    o[i * 8 + 6] = any((int4)(i, 0, 0, 0) > 2) + 2 * all((int4)(i, 1, 1, 1) > 0);
    o[i * 8 + 7] = as_int(x) ^ (-x < 0.0f);
}
"#;

fn floats_expected(n: usize) -> (Vec<f32>, Vec<i32>, Vec<f32>, Vec<f64>) {
    let (mut f, mut o, mut v, mut d) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for i in 0..n as i32 {
        let x = i as f32 * 0.75 - 2.0;
        f.extend([
            x * x + 1.0,
            x / 4.0 - x,
            i as u32 as f32 + (-i) as f32,
            (x as f64 * 2.0) as f32,
        ]);
        d.push(x as f64 / 8.0 + i as f64);
        let sat = |v: f32| {
            if v.is_nan() {
                0
            } else {
                v.clamp(i32::MIN as f32, i32::MAX as f32) as i32
            }
        };
        o.push(x as i32);
        o.push((x + 10.0) as u32 as i32);
        o.push(sat(x * 1e10));
        o.push((i * 40).clamp(0, 255) + (-i * 40).clamp(-128, 127));
        o.push(
            x.is_nan() as i32
                + 2 * x.is_infinite() as i32
                + 4 * (x != 0.5) as i32
                + 8 * (x == 1.0) as i32
                + 16 * (x <= 0.0) as i32
                + 32 * (x >= 0.25) as i32
                + 64 * (x < 1.0) as i32
                + 128 * (x > -1.0) as i32,
        );
        o.push(
            (x < 0.5) as i32
                + 2 * (x >= 1.0) as i32
                + 4 * x.is_nan() as i32
                + 8
                + 16 * (x != 0.5) as i32
                + 32 * x.is_sign_negative() as i32
                + 64 * x.is_normal() as i32
                + 128,
        );
        let a = [x, 1.0, 2.0, 3.0];
        let b = [a[3] * 2.0, a[2] * 2.0, a[1] * 2.0, a[0] * 2.0];
        let dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
        for k in 0..4 {
            v.push(b[k] + dot - a[k] * x);
        }
        o.push((i > 2) as i32 + 2 * (i > 0) as i32);
        o.push(x.to_bits() as i32 ^ (-x < 0.0) as i32);
    }
    (f, o, v, d)
}

const SYNC: &str = r#"
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
kernel void k(global int *cnt, global uint *o, global long *l, local int *tmp) {
    int i = get_global_id(0);
    int lid = get_local_id(0);
    atomic_inc(&cnt[0]);
    atomic_dec(&cnt[1]);
    atomic_add(&cnt[2], i);
    atomic_sub(&cnt[3], i);
    atomic_min(&cnt[4], i - 5);
    atomic_max(&cnt[5], i);
    atomic_and(&cnt[6], ~(1 << i));
    atomic_or(&cnt[7], 1 << i);
    atomic_xor(&cnt[8], i);
    atomic_min((global uint *)&cnt[9], (uint)i + 3u);
    atomic_max((global uint *)&cnt[10], (uint)i + 3u);
    atomic_xchg(&cnt[11], 5);
    atomic_cmpxchg((global int *)&o[i * 8 + 0], 0, i + 1);
    atomic_fetch_add_explicit((global atomic_int *)&cnt[12], 2, memory_order_relaxed,
                              memory_scope_work_group);
    int expected = 0;
    atomic_compare_exchange_strong((global atomic_int *)&o[i * 8 + 1], &expected, 40 + i);
    expected = 1;
    atomic_compare_exchange_weak((global atomic_int *)&o[i * 8 + 2], &expected, 50);
    atomic_store((global atomic_int *)&o[i * 8 + 3], atomic_load((global atomic_int *)&cnt[13]) + 1);
    o[i * 8 + 4] = atomic_flag_test_and_set((global atomic_flag *)&cnt[14]) ? 1u : 0u;
    atom_add(&l[0], (long)i << 33);
    atom_max(&l[1], (long)i - 100);
    tmp[lid] = i * 3;
    barrier(CLK_LOCAL_MEM_FENCE);
    o[i * 8 + 5] = tmp[(lid + 1) % get_local_size(0)];
    work_group_barrier(CLK_GLOBAL_MEM_FENCE);
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    o[i * 8 + 6] = work_group_reduce_add(i) + 1000 * work_group_all(i >= 0)
        + 2000 * work_group_any(i == 3) + 10000 * work_group_broadcast(i, 2);
    o[i * 8 + 7] = work_group_scan_inclusive_max(i) + 100 * work_group_scan_exclusive_add(1)
        + 1000 * sub_group_reduce_add(1) + 10000 * get_sub_group_size();
    int priv = i;
    int *gp = &priv;
    l[2 + i] = (to_global(gp) == 0) + 2 * (to_private(gp) != 0) + 4 * (to_local(gp) == 0)
        + 8 * (*gp == i);
}
"#;

const ASYNC: &str = r#"
kernel void k(global const uint *in, global uint *out, local uint *tmp) {
    event_t e = async_work_group_copy(tmp, in + get_group_id(0) * 4, 4, 0);
    wait_group_events(1, &e);
    uint lid = get_local_id(0);
    out[get_global_id(0)] = tmp[3 - lid] * 2u;
    event_t e2 = async_work_group_strided_copy(out + 8 + get_group_id(0) * 4, tmp, 4, 1, 0);
    wait_group_events(1, &e2);
}
"#;

const BUILTINS: &str = r#"
kernel void k(global uint *o, global half *h, global float *f) {
    uint i = get_global_id(0);
    o[i * 8 + 0] = popcount(i * 0x1234u) + clz(i + 1u) * 100u;
    o[i * 8 + 1] = rotate(i + 0x80000001u, 3u);
    o[i * 8 + 2] = abs_diff((int)i, 5) + add_sat(0xfffffff0u, i * 4u);
    o[i * 8 + 3] = mad24(i, 3u, 7u) + hadd(i, 9u) + (uint)upsample((ushort)i, (ushort)7);
    o[i * 8 + 4] = bitselect(0xff00ff00u, 0x12345678u, 0x0f0f0f0fu) + select(1u, 2u, (uint)i & 1u);
    uint4 s = shuffle((uint4)(10u, 20u, 30u, 40u), (uint4)(3u, 2u, 1u, i & 3u));
    o[i * 8 + 5] = s.x + s.y * 2u + s.z * 3u + s.w * 4u;
    o[i * 8 + 6] = (uint)(fabs(-(float)i) + floor(2.5f) + fmin((float)i, 3.0f)) + max(i, 4u) + min(i, 2u);
    vstore_half((float)i * 1.5f, i, h);
    f[i] = vload_half(i, h) + vload4(0, (global float *)((global uint *)o + 64))[i & 3];
    o[i * 8 + 7] = clamp(i, 1u, 3u) + mul_hi(i + 0x10000u, 0x20000u);
    printf("item %u %v2hld %s\n", i, (int2)((int)i, -(int)i), "ok");
}
"#;

const CL30: &str = r#"
int sum_generic(int *p, int n) {
    int s = 0;
    for (int k = 0; k < n; ++k) s += p[k];
    return s;
}
kernel void k(global int *g, local int *tmp) {
    int i = get_global_id(0);
    int priv[3] = {i, i + 1, i + 2};
    tmp[get_local_id(0)] = 5 * i;
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    g[i] = sum_generic(priv, 3) + sum_generic(&tmp[get_local_id(0)], 1) + sum_generic(g + 32 + i, 1);
}
"#;

const GROUP_MIN_MAX: &str = r#"
kernel void k(global float *f, global uint *u, global int *s) {
    int i = get_global_id(0);
    float x = (float)((i * 7) % 5) - 1.5f;
    f[i * 3 + 0] = work_group_reduce_add(x);
    f[i * 3 + 1] = work_group_reduce_min(x);
    f[i * 3 + 2] = work_group_scan_inclusive_max(x);
    u[i * 2 + 0] = work_group_reduce_min((uint)(i * 3 % 7));
    u[i * 2 + 1] = work_group_reduce_max((uint)(i * 3 % 7));
    s[i] = work_group_reduce_min(3 - i);
}
"#;

/// Runs every OpenCL C case; returns the opcodes of the modules that ran correctly.
pub fn run_all() -> BTreeSet<Op> {
    let mut ops = BTreeSet::new();

    let (n_items, n) = (12usize, 9);
    let (out, lout) = integers_expected(n_items as i32, n);
    let case = Case::new(
        "integers",
        vec![
            Arg::Buffer(
                vec![0; n_items * 32],
                u32s(&out.iter().map(|&v| v as u32).collect::<Vec<_>>()),
            ),
            Arg::Buffer(
                vec![0; n_items * 8],
                u64s(&lout.iter().map(|&v| v as u64).collect::<Vec<_>>()),
            ),
            Arg::Value(n.to_le_bytes().to_vec()),
        ],
    )
    .range(n_items as u64, 4);
    ops.extend(run_cl(INTEGERS, "CL2.0", &case));

    let n = 8usize;
    let (f, o, v, d) = floats_expected(n);
    let case = Case::new(
        "floats",
        vec![
            Arg::Buffer(vec![0; n * 16], f32s(&f)),
            Arg::Buffer(
                vec![0; n * 32],
                u32s(&o.iter().map(|&x| x as u32).collect::<Vec<_>>()),
            ),
            Arg::Buffer(vec![0; n * 16], f32s(&v)),
            Arg::Buffer(
                vec![0; n * 8],
                d.iter().flat_map(|x| x.to_le_bytes()).collect(),
            ),
        ],
    )
    .range(n as u64, 4);
    ops.extend(run_cl(FLOATS, "CL2.0", &case));

    // SYNC: 16 work-items in two groups of 8; sub-groups have one work-item (oxcl's size).
    let items = 16i32;
    let mut cnt = vec![0i32; 16];
    cnt[4] = 100;
    cnt[6] = -1;
    cnt[9] = 1000;
    cnt[13] = 41;
    let mut cnt_after = cnt.clone();
    cnt_after[0] = items;
    cnt_after[1] = -items;
    cnt_after[2] = (0..items).sum();
    cnt_after[3] = -(0..items).sum::<i32>();
    cnt_after[4] = -5;
    cnt_after[5] = items - 1;
    cnt_after[6] = !((1 << items) - 1);
    cnt_after[7] = (1 << items) - 1;
    cnt_after[8] = (0..items).fold(0, |a, b| a ^ b);
    cnt_after[9] = 3;
    cnt_after[10] = items + 2;
    cnt_after[11] = 5;
    cnt_after[12] = 2 * items;
    cnt_after[14] = 1;
    let mut o = vec![0u32; items as usize * 8];
    for i in 0..items as u32 {
        let g = i / 8;
        let lid = i % 8;
        let base = i as usize * 8;
        o[base] = i + 1;
        o[base + 1] = 40 + i;
        o[base + 2] = 0;
        o[base + 3] = 42;
        o[base + 4] = u32::from(i != 0);
        o[base + 5] = (g * 8 + (lid + 1) % 8) * 3;
        let ids = g * 8..g * 8 + 8;
        o[base + 6] = ids.clone().sum::<u32>()
            + 1000
            + 2000 * u32::from(ids.clone().any(|x| x == 3))
            + 10000 * (g * 8 + 2);
        o[base + 7] = i + 100 * lid + 1000 + 10000;
    }
    let mut l = vec![0i64; 2 + items as usize];
    l[1] = -1000;
    let mut l_after = l.clone();
    l_after[0] = (0..items as i64).map(|i| i << 33).sum();
    l_after[1] = items as i64 - 1 - 100;
    for i in 0..items as usize {
        l_after[2 + i] = 1 + 2 + 4 + 8;
    }
    let case = Case::new(
        "atomics_barriers_collectives_generic",
        vec![
            Arg::Buffer(
                u32s(&cnt.iter().map(|&v| v as u32).collect::<Vec<_>>()),
                u32s(&cnt_after.iter().map(|&v| v as u32).collect::<Vec<_>>()),
            ),
            Arg::Buffer(vec![0; o.len() * 4], u32s(&o)),
            Arg::Buffer(
                u64s(&l.iter().map(|&v| v as u64).collect::<Vec<_>>()),
                u64s(&l_after.iter().map(|&v| v as u64).collect::<Vec<_>>()),
            ),
            Arg::Local(8 * 4),
        ],
    )
    .range(items as u64, 8);
    ops.extend(run_cl(SYNC, "CL2.0", &case));

    let input: Vec<u32> = (1..=8).map(|v| v * 11).collect();
    let mut out = vec![0u32; 16];
    for g in 0..2 {
        for lid in 0..4 {
            out[g * 4 + lid] = input[g * 4 + 3 - lid] * 2;
            out[8 + g * 4 + lid] = input[g * 4 + lid];
        }
    }
    let case = Case::new(
        "async_copy",
        vec![
            Arg::Buffer(u32s(&input), u32s(&input)),
            Arg::Buffer(vec![0; 64], u32s(&out)),
            Arg::Local(16),
        ],
    )
    .range(8, 4);
    ops.extend(run_cl(ASYNC, "CL2.0", &case));

    let n = 4u32;
    let mut o = vec![0u32; 64 + 4];
    o[64..].copy_from_slice(&[7, 8, 9, 10].map(|v: u32| (v as f32).to_bits()));
    let mut o_after = o.clone();
    let mut text = String::new();
    let mut h_after = Vec::new();
    let mut f_after = Vec::new();
    for i in 0..n {
        let b = i as usize * 8;
        o_after[b] = (i * 0x1234).count_ones() + (i + 1).leading_zeros() * 100;
        o_after[b + 1] = (i + 0x8000_0001).rotate_left(3);
        o_after[b + 2] = (i as i32 - 5).unsigned_abs() + 0xffff_fff0u32.saturating_add(i * 4);
        o_after[b + 3] = (i * 3 + 7) + ((i + 9) >> 1) + ((i << 16) | 7);
        o_after[b + 4] = ((0xff00_ff00u32 & !0x0f0f_0f0f) | (0x1234_5678 & 0x0f0f_0f0f))
            + if i & 1 != 0 { 2 } else { 1 };
        let src = [10u32, 20, 30, 40];
        let mask = [3, 2, 1, i & 3];
        o_after[b + 5] = (0..4).map(|k| src[mask[k] as usize] * (k as u32 + 1)).sum();
        o_after[b + 6] = (i as f32 + 2.0 + (i as f32).min(3.0)) as u32 + i.max(4) + i.min(2);
        o_after[b + 7] = i.clamp(1, 3) + (((i as u64 + 0x10000) * 0x20000) >> 32) as u32;
        h_after.extend(half::f16::from_f32(i as f32 * 1.5).to_le_bytes());
        f_after.push(i as f32 * 1.5 + [7.0, 8.0, 9.0, 10.0][(i & 3) as usize]);
        text.push_str(&format!("item {i} {},{} ok\n", i as i32, -(i as i32)));
    }
    let case = Case::new(
        "builtins_half_printf",
        vec![
            Arg::Buffer(u32s(&o), u32s(&o_after)),
            Arg::Buffer(vec![0; 2 * n as usize], h_after),
            Arg::Buffer(vec![0; 4 * n as usize], f32s(&f_after)),
        ],
    )
    .range(n as u64, 2)
    .printf(&text);
    ops.extend(run_cl(BUILTINS, "CL2.0", &case));

    let mut g = vec![0i32; 64];
    for (k, v) in g.iter_mut().enumerate().skip(32) {
        *v = k as i32;
    }
    let mut g_after = g.clone();
    for i in 0..8i32 {
        g_after[i as usize] = 3 * i + 3 + 5 * i + (32 + i);
    }
    let case = Case::new(
        "generic_cl30",
        vec![
            Arg::Buffer(
                u32s(&g.iter().map(|&v| v as u32).collect::<Vec<_>>()),
                u32s(&g_after.iter().map(|&v| v as u32).collect::<Vec<_>>()),
            ),
            Arg::Local(16),
        ],
    )
    .range(8, 4);
    ops.extend(run_cl(CL30, "CL3.0", &case));

    let (items, local) = (12usize, 6usize);
    let (mut f, mut u, mut s) = (Vec::new(), Vec::new(), Vec::new());
    for i in 0..items {
        let group = i / local * local..i / local * local + local;
        let x = |j: usize| ((j * 7) % 5) as f32 - 1.5;
        let ux = |j: usize| (j * 3 % 7) as u32;
        f.push(group.clone().map(x).fold(0.0f32, |a, b| a + b));
        f.push(group.clone().map(x).fold(f32::INFINITY, f32::min));
        f.push((group.start..=i).map(x).fold(f32::NEG_INFINITY, f32::max));
        u.push(group.clone().map(ux).min().unwrap_or(0));
        u.push(group.clone().map(ux).max().unwrap_or(0));
        s.push(group.map(|j| 3 - j as i32).min().unwrap_or(0));
    }
    let case = Case::new(
        "work_group_min_max",
        vec![
            Arg::Buffer(vec![0; items * 12], f32s(&f)),
            Arg::Buffer(vec![0; items * 8], u32s(&u)),
            Arg::Buffer(
                vec![0; items * 4],
                u32s(&s.iter().map(|&v| v as u32).collect::<Vec<_>>()),
            ),
        ],
    )
    .range(items as u64, local as u64);
    ops.extend(run_cl(GROUP_MIN_MAX, "CL2.0", &case));
    ops
}
