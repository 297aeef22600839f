//! End to end through the consumer: OpenCL C → clang-15 + llvm-spirv-15 → `spv::valid` →
//! `kir::lower` → the interpreter, with expected values computed in Rust in each test. Skips
//! (printing why) when clang-15 or llvm-spirv-15 is absent.

#[path = "../../kir/tests/lower_common/mod.rs"]
mod lower_common;
use exec::{ArgValue, Engine, Interpreter, Launch, NdRange};

fn run(src: &str, kernel: &str, args: &mut [ArgValue], nd: NdRange) -> Option<kir::Module> {
    let m = lower_common::lower_source(src)?;
    let (idx, _) = m.kernel(kernel).unwrap();
    let launch = Launch {
        module: &m,
        kernel: idx,
        args,
        nd,
        threads: 1,
    };
    Interpreter::new()
        .run(&launch)
        .unwrap_or_else(|e| panic!("{e}\n{m}"));
    Some(m)
}

fn buf<T>(v: &mut Vec<T>) -> ArgValue {
    ArgValue::Buffer {
        ptr: v.as_mut_ptr() as *mut u8,
        len: v.len() * std::mem::size_of::<T>(),
    }
}

#[test]
fn vadd() {
    let src = r#"__kernel void vadd(__global const float *a, __global const float *b, __global float *c, int n) {
        size_t i = get_global_id(0); if (i < n) c[i] = a[i] + b[i]; }"#;
    let mut a: Vec<f32> = (0..64).map(|i| i as f32).collect();
    let mut b: Vec<f32> = (0..64).map(|i| (i * 2) as f32).collect();
    let mut c = vec![0f32; 64];
    let mut args = vec![
        buf(&mut a),
        buf(&mut b),
        buf(&mut c),
        ArgValue::Bytes(60i32.to_le_bytes().to_vec()),
    ];
    if run(src, "vadd", &mut args, NdRange::new_1d(64, 16)).is_none() {
        return;
    }
    for i in 0..64 {
        assert_eq!(c[i], if i < 60 { (3 * i) as f32 } else { 0.0 }, "i={i}");
    }
}

#[test]
fn loops_structs_switch() {
    let src = r#"
typedef struct { char c; float4 v; int i; } S;
int sq(int x) { return x * x; }
__kernel void k(__global int *o, S s, int n) {
  int gid = get_global_id(0);
  int acc = 0;
  for (int k = 0; k < n + gid; k++) { if (k % 3 == 0) continue; acc += sq(k); }
  int arr[4] = {1, 2, 3, 4};
  int4 v = (int4)(1, 2, 3, 4);
  v.xy = v.zw;
  int r = acc + arr[(n + gid) & 3] + v.x * 100 + s.i * 1000 + (int)s.v.w * 10000 + s.c;
  switch (gid) { case 1: r += 7; break; case 2: r -= 7; default: r *= 2; }
  int m = gid;
  do { m++; } while (m < 5);
  r += m * 100000;
  o[gid] = r;
}"#;
    let mut o = vec![0i32; 8];
    let mut sbytes = vec![0u8; 48];
    sbytes[0] = 5; // c
    sbytes[16 + 12..16 + 16].copy_from_slice(&3.0f32.to_le_bytes()); // v.w
    sbytes[32..36].copy_from_slice(&2i32.to_le_bytes()); // i
    let n = 4;
    let mut args = vec![
        buf(&mut o),
        ArgValue::Bytes(sbytes),
        ArgValue::Bytes((n as i32).to_le_bytes().to_vec()),
    ];
    if run(src, "k", &mut args, NdRange::new_1d(8, 4)).is_none() {
        return;
    }
    for gid in 0..8i32 {
        let mut acc = 0;
        for k in 0..n + gid {
            if k % 3 == 0 {
                continue;
            }
            acc += k * k;
        }
        let arr = [1, 2, 3, 4];
        let mut r = acc + arr[((n + gid) & 3) as usize] + 3 * 100 + 2 * 1000 + 3 * 10000 + 5;
        match gid {
            1 => r += 7,
            2 => {
                r -= 7;
                r *= 2
            }
            _ => r *= 2,
        }
        let mut m = gid;
        loop {
            m += 1;
            if m >= 5 {
                break;
            }
        }
        r += m * 100000;
        assert_eq!(o[gid as usize], r, "gid {gid}");
    }
}

#[test]
fn local_memory_barrier_reduction() {
    let src = r#"
__kernel void k(__global const float *in, __global float *out, __local float *tmp) {
  size_t l = get_local_id(0);
  tmp[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (l < s) tmp[l] += tmp[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) out[get_group_id(0)] = tmp[0];
}"#;
    let mut input: Vec<f32> = (0..64).map(|i| i as f32).collect();
    let mut out = vec![0f32; 4];
    let mut args = vec![buf(&mut input), buf(&mut out), ArgValue::Local(16 * 4)];
    if run(src, "k", &mut args, NdRange::new_1d(64, 16)).is_none() {
        return;
    }
    for g in 0..4 {
        let e: f32 = (g * 16..g * 16 + 16).map(|i| i as f32).sum();
        assert_eq!(out[g], e);
    }
}

#[test]
fn vectors_conversions_atomics_async_copy() {
    let src = r#"
__kernel void k(__global float *f, __global int *o, __global const float *in, __local float *tmp) {
  size_t g = get_global_id(0);
  float4 v = vload4(g, in);
  vstore4(v.wzyx * 2.0f, g, f);
  o[g] = convert_int_sat_rte(v.x * 1000.5f) + (int)dot(v, v);
  atomic_add(&o[64], 1);
  event_t e = async_work_group_copy(tmp, in + get_group_id(0) * 16, 16, 0);
  wait_group_events(1, &e);
  o[65 + g] = (int)tmp[get_local_id(0)];
}"#;
    let mut input: Vec<f32> = (0..64).map(|i| i as f32 * 0.5).collect();
    let mut f = vec![0f32; 64];
    let mut o = vec![0i32; 65 + 16];
    let mut args = vec![
        buf(&mut f),
        buf(&mut o),
        buf(&mut input),
        ArgValue::Local(16 * 4),
    ];
    if run(src, "k", &mut args, NdRange::new_1d(16, 4)).is_none() {
        return;
    }
    for g in 0..16usize {
        let v: Vec<f32> = (0..4).map(|k| input[g * 4 + k]).collect();
        for k in 0..4 {
            assert_eq!(f[g * 4 + k], v[3 - k] * 2.0);
        }
        let x = (v[0] * 1000.5f32).round_ties_even() as i32;
        let d = v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3];
        assert_eq!(o[g], x + d as i32, "g={g}");
        let group = g / 4;
        assert_eq!(o[65 + g], input[group * 16 + g % 4] as i32);
    }
    assert_eq!(o[64], 16);
}

#[test]
fn saturating_conversions_and_selects() {
    let src = r#"
__kernel void k(__global const int *in, __global uchar *u, __global char *c, __global int *o, __global const uint *uin) {
  size_t g = get_global_id(0);
  int x = in[g];
  u[g] = convert_uchar_sat(x);
  c[g] = convert_char_sat(uin[g]);
  int4 v = (int4)(x, -x, x * 2, 7);
  int4 w = select(v, (int4)(0), v > 3);
  o[g * 4 + 0] = w.x + w.y + w.z + w.w;
  o[g * 4 + 1] = any(v < 0) + 2 * all(v != 0);
  int4 s = shuffle(v, (uint4)(3, 2, 1, 0));
  o[g * 4 + 2] = s.x * 1000 + s.w;
  o[g * 4 + 3] = convert_int_sat((long)x * 100000000L) + (int)convert_ushort_sat(-x);
}"#;
    let mut input: Vec<i32> = vec![
        -300, -1, 0, 1, 5, 200, 255, 256, 1000, -129, 127, 128, 70000, -70000, 3, 4,
    ];
    let mut uin: Vec<u32> = vec![
        0,
        1,
        126,
        127,
        128,
        255,
        256,
        1000,
        3_000_000_000,
        u32::MAX,
        5,
        6,
        7,
        8,
        9,
        10,
    ];
    let n = input.len();
    let mut u = vec![0u8; n];
    let mut c = vec![0i8; n];
    let mut o = vec![0i32; n * 4];
    let mut args = vec![
        buf(&mut input),
        buf(&mut u),
        buf(&mut c),
        buf(&mut o),
        buf(&mut uin),
    ];
    if run(src, "k", &mut args, NdRange::new_1d(n as u64, 4)).is_none() {
        return;
    }
    for g in 0..n {
        let x = input[g];
        assert_eq!(u[g], x.clamp(0, 255) as u8, "u g={g}");
        assert_eq!(c[g], uin[g].min(127) as i8, "c g={g}");
        let v = [x, x.wrapping_neg(), x.wrapping_mul(2), 7];
        let w: Vec<i32> = v.iter().map(|&e| if e > 3 { 0 } else { e }).collect();
        assert_eq!(o[g * 4], w.iter().sum::<i32>(), "sel g={g}");
        let any = v.iter().any(|&e| e < 0) as i32;
        let all = v.iter().all(|&e| e != 0) as i32;
        assert_eq!(o[g * 4 + 1], any + 2 * all, "anyall g={g}");
        assert_eq!(o[g * 4 + 2], v[3] * 1000 + v[0], "shuffle g={g}");
        let sat = ((x as i64) * 100000000).clamp(i32::MIN as i64, i32::MAX as i64) as i32;
        let us = (-(x as i64)).clamp(0, 65535) as i32;
        assert_eq!(o[g * 4 + 3], sat.wrapping_add(us), "sat g={g}");
    }
}

#[test]
fn private_memory_functions_and_half() {
    let src = r#"
typedef struct { int a[4]; float f; } T;
void fill(T *t, int v) { for (int i = 0; i < 4; i++) t->a[i] = v + i; t->f = v * 0.5f; }
int total(__generic int *p, int n) { int s = 0; for (int i = 0; i < n; i++) s += p[i]; return s; }
__kernel void k(__global int *o, __global half *h, __global float *f) {
  size_t g = get_global_id(0);
  T t; fill(&t, (int)g);
  T copy = t;
  copy.a[g & 3] = 100;
  int tmp[8];
  for (int i = 0; i < 8; i++) tmp[i] = i * (int)g;
  o[g] = total(copy.a, 4) + total(tmp, 8) + (int)(copy.f * 4.0f);
  float x = (float)g * 0.25f + 1.0f;
  vstore_half(x, g, h);
  f[g] = vload_half(g, h) + vload3(0, (__global float *)f).x * 0.0f;
  float3 q = (float3)(x, x * 2.0f, x * 3.0f);
  vstore3(q, g + 16, f);
}"#;
    let n = 8usize;
    let mut o = vec![0i32; n];
    let mut h = vec![0u16; n];
    let mut f = vec![0f32; 16 + (n + 16) * 3];
    let mut args = vec![buf(&mut o), buf(&mut h), buf(&mut f)];
    if run(src, "k", &mut args, NdRange::new_1d(n as u64, 4)).is_none() {
        return;
    }
    for g in 0..n {
        let gi = g as i32;
        let mut a = [gi, gi + 1, gi + 2, gi + 3];
        a[g & 3] = 100;
        let tmp: i32 = (0..8).map(|i| i * gi).sum();
        let fv = gi as f32 * 0.5;
        assert_eq!(
            o[g],
            a.iter().sum::<i32>() + tmp + (fv * 4.0) as i32,
            "g={g}"
        );
        let x = g as f32 * 0.25 + 1.0; // exactly representable in half
        assert_eq!(f[g], x, "half g={g}");
        let base = (g + 16) * 3;
        assert_eq!(&f[base..base + 3], &[x, x * 2.0, x * 3.0], "vstore3 g={g}");
    }
}

#[test]
fn kernel_calls_kernel_with_struct_by_value() {
    let src = r#"
typedef struct { int a; int b; } P;
__kernel void inner(__global int *o, P p) { o[get_global_id(0)] = p.a * 10 + p.b; }
__kernel void outer(__global int *o, P p) { p.a += 1; inner(o, p); o[8 + get_global_id(0)] = p.a; }"#;
    let mut o = vec![0i32; 16];
    let mut p = Vec::new();
    p.extend(3i32.to_le_bytes());
    p.extend(4i32.to_le_bytes());
    let mut args = vec![buf(&mut o), ArgValue::Bytes(p)];
    if run(src, "outer", &mut args, NdRange::new_1d(8, 8)).is_none() {
        return;
    }
    for g in 0..8 {
        assert_eq!(o[g], 44);
        assert_eq!(o[8 + g], 4);
    }
}

#[test]
fn work_group_collectives() {
    let src = r#"
__kernel void k(__global int *o, __global float *f, __global const float *in) {
  size_t g = get_global_id(0);
  int x = (int)g * 3 % 7 - 2;
  o[g * 7 + 0] = work_group_reduce_add(x);
  o[g * 7 + 1] = work_group_scan_inclusive_max(x);
  o[g * 7 + 2] = work_group_scan_exclusive_add(x);
  o[g * 7 + 3] = work_group_broadcast(x, 2);
  o[g * 7 + 4] = work_group_all(x > -3) + 2 * work_group_any(x == 4);
  o[g * 7 + 5] = (int)work_group_reduce_min((uint)x);
  o[g * 7 + 6] = work_group_scan_exclusive_min(x);
  f[g] = work_group_reduce_add(in[g]) + work_group_scan_inclusive_add(in[g]) * 100.0f;
}"#;
    let n = 16usize;
    let wg = 8usize;
    let mut o = vec![0i32; n * 7];
    let mut f = vec![0f32; n];
    let mut input: Vec<f32> = (0..n).map(|i| 0.1 * i as f32).collect();
    let mut args = vec![buf(&mut o), buf(&mut f), buf(&mut input)];
    if run(src, "k", &mut args, NdRange::new_1d(n as u64, wg as u64)).is_none() {
        return;
    }
    for g in 0..n {
        let grp: Vec<usize> = (g / wg * wg..g / wg * wg + wg).collect();
        let xs: Vec<i32> = grp.iter().map(|&i| i as i32 * 3 % 7 - 2).collect();
        let l = g % wg;
        let x = xs[l];
        assert_eq!(o[g * 7], xs.iter().sum::<i32>(), "reduce g={g}");
        assert_eq!(o[g * 7 + 1], *xs[..=l].iter().max().unwrap(), "imax g={g}");
        assert_eq!(o[g * 7 + 2], xs[..l].iter().sum::<i32>(), "eadd g={g}");
        assert_eq!(o[g * 7 + 3], xs[2], "bcast g={g}");
        let all = xs.iter().all(|&v| v > -3) as i32;
        let any = xs.iter().any(|&v| v == 4) as i32;
        assert_eq!(o[g * 7 + 4], all + 2 * any, "vote g={g}");
        assert_eq!(
            o[g * 7 + 5] as u32,
            xs.iter().map(|&v| v as u32).min().unwrap(),
            "umin g={g}"
        );
        assert_eq!(
            o[g * 7 + 6],
            xs[..l].iter().copied().min().unwrap_or(i32::MAX),
            "emin g={g}"
        );
        let _ = x;
        let fs: Vec<f32> = grp.iter().map(|&i| input[i]).collect();
        let total = fs.iter().fold(0.0f32, |a, b| a + b);
        let incl = fs[..=l].iter().fold(0.0f32, |a, b| a + b);
        assert_eq!(f[g], total + incl * 100.0, "f g={g}");
    }
}

#[test]
fn promoted_struct_parts_long_switch_and_unsigned_compare() {
    let src = r#"
typedef struct { char c; int4 v; long l; float f[3]; } S;
__kernel void k(__global long *o) {
  size_t g = get_global_id(0);
  S s;
  s.c = (char)g;
  s.v = (int4)(1, 2, 3, 4);
  s.v.z = (int)g * 10;
  s.l = (long)g << 40;
  s.f[0] = 1.5f; s.f[2] = (float)g;
  int4 w = s.v;
  w.y = -5;
  long r = s.c + w.x + w.y + w.z + w.w + s.l + (long)(s.f[0] * 2.0f) + (long)s.f[2];
  switch ((int)(s.l >> 40)) { case 0: r += 1; break; case 1: r += 2; break; case 3: r += 3; break; default: r -= 1; }
  uint u = (uint)g - 2u;
  if (u > 5u) r += 1000;
  o[g] = r;
}"#;
    let n = 6usize;
    let mut o = vec![0i64; n];
    let mut args = vec![buf(&mut o)];
    if run(src, "k", &mut args, NdRange::new_1d(n as u64, 2)).is_none() {
        return;
    }
    for g in 0..n as i64 {
        let l = g << 40;
        let mut r = g + 1 + (-5) + g * 10 + 4 + l + 3 + g;
        r += match l {
            0 => 1,
            x if x == 1 << 40 => 2,
            x if x == 3 << 40 => 3,
            _ => -1,
        };
        if (g as u32).wrapping_sub(2) > 5 {
            r += 1000;
        }
        assert_eq!(o[g as usize], r, "g={g}");
    }
}

#[test]
fn thirty_two_bit_kernel_runs() {
    let src = r#"
typedef struct { char c; __global int *p; int i; } S;
__kernel void k(__global int *o, __global int *src, __local int *l) {
  size_t g = get_global_id(0);
  S s; s.c = 1; s.p = src + g; s.i = 3;
  l[get_local_id(0)] = *s.p * s.i + s.c;
  barrier(CLK_LOCAL_MEM_FENCE);
  o[g] = l[get_local_id(0)] + (int)sizeof(size_t) * 100 + (int)sizeof(S) * 1000;
}"#;
    let Some(bytes) = lower_common::compile_with(src, &["-target", "spir"]) else {
        return;
    };
    let env = spv::valid::Env::opencl(spv::valid::ClVersion::Cl20, spv::valid::Profile::Full, 32);
    let valid = lower_common::validate_for(&bytes, &env);
    let m = kir::lower::lower(&valid).expect("lowers");
    let mut o = vec![0i32; 8];
    let mut s: Vec<i32> = (0..8).map(|i| i * 7).collect();
    let args = vec![buf(&mut o), buf(&mut s), ArgValue::Local(4 * 4)];
    let (idx, _) = m.kernel("k").unwrap();
    let launch = Launch {
        module: &m,
        kernel: idx,
        args: &args,
        nd: NdRange::new_1d(8, 4),
        threads: 1,
    };
    Interpreter::new()
        .run(&launch)
        .unwrap_or_else(|e| panic!("{e}\n{m}"));
    for g in 0..8 {
        assert_eq!(o[g], (g as i32 * 7) * 3 + 1 + 400 + 12000, "g={g}");
    }
}

#[test]
fn tiled_matrix_multiply_2d() {
    let src = r#"
#define TS 4
__kernel void mm(__global const float *A, __global const float *B, __global float *C, int N) {
    __local float As[TS][TS];
    __local float Bs[TS][TS];
    int row = get_local_id(1), col = get_local_id(0);
    int gr = get_global_id(1), gc = get_global_id(0);
    float acc = 0.0f;
    for (int t = 0; t < N / TS; t++) {
        As[row][col] = A[gr * N + t * TS + col];
        Bs[row][col] = B[(t * TS + row) * N + gc];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TS; k++) acc += As[row][k] * Bs[k][col];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    C[gr * N + gc] = acc;
}"#;
    let n = 8usize;
    let mut a: Vec<f32> = (0..n * n).map(|i| (i % 7) as f32).collect();
    let mut b: Vec<f32> = (0..n * n).map(|i| (i % 5) as f32 - 2.0).collect();
    let mut c = vec![0f32; n * n];
    let mut args = vec![
        buf(&mut a),
        buf(&mut b),
        buf(&mut c),
        ArgValue::Bytes((n as i32).to_le_bytes().to_vec()),
    ];
    let nd = NdRange {
        work_dim: 2,
        global_offset: [0; 3],
        global_size: [n as u64, n as u64, 1],
        local_size: [4, 4, 1],
    };
    if run(src, "mm", &mut args, nd).is_none() {
        return;
    }
    for r in 0..n {
        for col in 0..n {
            let mut acc = 0f32;
            for t in 0..n / 4 {
                for k in 0..4 {
                    acc += a[r * n + t * 4 + k] * b[(t * 4 + k) * n + col];
                }
            }
            assert_eq!(c[r * n + col], acc, "({r},{col})");
        }
    }
}

#[test]
fn histogram_local_atomics() {
    let src = r#"
__kernel void hist(__global const uchar *data, int n, __global uint *bins, __local uint *lb) {
    for (int i = get_local_id(0); i < 256; i += get_local_size(0)) lb[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = get_global_id(0); i < n; i += get_global_size(0)) atomic_inc(&lb[data[i]]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = get_local_id(0); i < 256; i += get_local_size(0)) atomic_add(&bins[i], lb[i]);
}"#;
    let n = 1000usize;
    let mut data: Vec<u8> = (0..n).map(|i| ((i * 37 + 11) % 251) as u8).collect();
    let mut bins = vec![0u32; 256];
    let mut args = vec![
        buf(&mut data),
        ArgValue::Bytes((n as i32).to_le_bytes().to_vec()),
        buf(&mut bins),
        ArgValue::Local(256 * 4),
    ];
    if run(src, "hist", &mut args, NdRange::new_1d(64, 16)).is_none() {
        return;
    }
    let mut expect = vec![0u32; 256];
    for &d in &data {
        expect[d as usize] += 1;
    }
    assert_eq!(bins, expect);
}

#[test]
fn extended_arithmetic_structs() {
    let asm = r#"
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %pair = OpTypeStruct %uint %uint
     %ptr_gu = OpTypePointer CrossWorkgroup %uint
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
     %uint_3 = OpConstant %uint 3
     %uint_4 = OpConstant %uint 4
     %uint_5 = OpConstant %uint 5
     %uint_6 = OpConstant %uint 6
     %uint_7 = OpConstant %uint 7
         %fn = OpTypeFunction %void %ptr_gu %uint %uint
          %k = OpFunction %void None %fn
        %out = OpFunctionParameter %ptr_gu
          %a = OpFunctionParameter %uint
          %b = OpFunctionParameter %uint
          %l = OpLabel
         %s1 = OpIAddCarry %pair %a %b
         %s2 = OpISubBorrow %pair %a %b
         %s3 = OpUMulExtended %pair %a %b
         %s4 = OpSMulExtended %pair %a %b
         %x0 = OpCompositeExtract %uint %s1 0
         %x1 = OpCompositeExtract %uint %s1 1
         %x2 = OpCompositeExtract %uint %s2 0
         %x3 = OpCompositeExtract %uint %s2 1
         %x4 = OpCompositeExtract %uint %s3 0
         %x5 = OpCompositeExtract %uint %s3 1
         %x6 = OpCompositeExtract %uint %s4 0
         %x7 = OpCompositeExtract %uint %s4 1
               OpStore %out %x0 Aligned 4
         %p1 = OpInBoundsPtrAccessChain %ptr_gu %out %uint_1
               OpStore %p1 %x1 Aligned 4
         %p2 = OpInBoundsPtrAccessChain %ptr_gu %out %uint_2
               OpStore %p2 %x2 Aligned 4
         %p3 = OpInBoundsPtrAccessChain %ptr_gu %out %uint_3
               OpStore %p3 %x3 Aligned 4
         %p4 = OpInBoundsPtrAccessChain %ptr_gu %out %uint_4
               OpStore %p4 %x4 Aligned 4
         %p5 = OpInBoundsPtrAccessChain %ptr_gu %out %uint_5
               OpStore %p5 %x5 Aligned 4
         %p6 = OpInBoundsPtrAccessChain %ptr_gu %out %uint_6
               OpStore %p6 %x6 Aligned 4
         %p7 = OpInBoundsPtrAccessChain %ptr_gu %out %uint_7
               OpStore %p7 %x7 Aligned 4
               OpReturn
               OpFunctionEnd
"#;
    let Some(m) = lower_common::lower_asm(asm) else {
        return;
    };
    let m = m.expect("lowers");
    for (a, b) in [
        (0xffff_fff0u32, 0x20u32),
        (5, 7),
        (0x8000_0000, 0x8000_0000),
    ] {
        let mut o = vec![0u32; 8];
        let args = vec![
            buf(&mut o),
            ArgValue::Bytes(a.to_le_bytes().to_vec()),
            ArgValue::Bytes(b.to_le_bytes().to_vec()),
        ];
        let launch = Launch {
            module: &m,
            kernel: 0,
            args: &args,
            nd: NdRange::new_1d(1, 1),
            threads: 1,
        };
        Interpreter::new()
            .run(&launch)
            .unwrap_or_else(|e| panic!("{e}\n{m}"));
        let (s, c) = a.overflowing_add(b);
        let (d, br) = a.overflowing_sub(b);
        let um = (a as u64) * (b as u64);
        let sm = (a as i32 as i64) * (b as i32 as i64);
        assert_eq!(
            o,
            vec![
                s,
                c as u32,
                d,
                br as u32,
                um as u32,
                (um >> 32) as u32,
                sm as u32,
                (sm >> 32) as u32
            ],
            "a={a:#x} b={b:#x}"
        );
    }
}

#[test]
fn extended_arithmetic_add_sub_only() {
    let asm = r#"
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %pair = OpTypeStruct %uint %uint
     %ptr_gu = OpTypePointer CrossWorkgroup %uint
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
     %uint_3 = OpConstant %uint 3
     %uint_4 = OpConstant %uint 4
     %uint_5 = OpConstant %uint 5
     %uint_6 = OpConstant %uint 6
     %uint_7 = OpConstant %uint 7
         %fn = OpTypeFunction %void %ptr_gu %uint %uint
          %k = OpFunction %void None %fn
        %out = OpFunctionParameter %ptr_gu
          %a = OpFunctionParameter %uint
          %b = OpFunctionParameter %uint
          %l = OpLabel
         %s1 = OpIAddCarry %pair %a %b
         %s2 = OpISubBorrow %pair %a %b
         %s3 = OpIAddCarry %pair %a %b
         %s4 = OpISubBorrow %pair %a %b
         %x0 = OpCompositeExtract %uint %s1 0
         %x1 = OpCompositeExtract %uint %s1 1
         %x2 = OpCompositeExtract %uint %s2 0
         %x3 = OpCompositeExtract %uint %s2 1
         %x4 = OpCompositeExtract %uint %s3 0
         %x5 = OpCompositeExtract %uint %s3 1
         %x6 = OpCompositeExtract %uint %s4 0
         %x7 = OpCompositeExtract %uint %s4 1
               OpStore %out %x0 Aligned 4
         %p1 = OpInBoundsPtrAccessChain %ptr_gu %out %uint_1
               OpStore %p1 %x1 Aligned 4
         %p2 = OpInBoundsPtrAccessChain %ptr_gu %out %uint_2
               OpStore %p2 %x2 Aligned 4
         %p3 = OpInBoundsPtrAccessChain %ptr_gu %out %uint_3
               OpStore %p3 %x3 Aligned 4
         %p4 = OpInBoundsPtrAccessChain %ptr_gu %out %uint_4
               OpStore %p4 %x4 Aligned 4
         %p5 = OpInBoundsPtrAccessChain %ptr_gu %out %uint_5
               OpStore %p5 %x5 Aligned 4
         %p6 = OpInBoundsPtrAccessChain %ptr_gu %out %uint_6
               OpStore %p6 %x6 Aligned 4
         %p7 = OpInBoundsPtrAccessChain %ptr_gu %out %uint_7
               OpStore %p7 %x7 Aligned 4
               OpReturn
               OpFunctionEnd
"#;
    let Some(m) = lower_common::lower_asm(asm) else {
        return;
    };
    let m = m.expect("lowers");
    for (a, b) in [
        (0xffff_fff0u32, 0x20u32),
        (5, 7),
        (0x8000_0000, 0x8000_0000),
    ] {
        let mut o = vec![0u32; 8];
        let args = vec![
            buf(&mut o),
            ArgValue::Bytes(a.to_le_bytes().to_vec()),
            ArgValue::Bytes(b.to_le_bytes().to_vec()),
        ];
        let launch = Launch {
            module: &m,
            kernel: 0,
            args: &args,
            nd: NdRange::new_1d(1, 1),
            threads: 1,
        };
        Interpreter::new()
            .run(&launch)
            .unwrap_or_else(|e| panic!("{e}\n{m}"));
        let (s, c) = a.overflowing_add(b);
        let (d, br) = a.overflowing_sub(b);
        let um = (a as u64) * (b as u64);
        let sm = (a as i32 as i64) * (b as i32 as i64);
        let _ = (um, sm);
        assert_eq!(
            o,
            vec![s, c as u32, d, br as u32, s, c as u32, d, br as u32],
            "a={a:#x} b={b:#x}"
        );
    }
}

#[test]
fn printf_output() {
    let src = r#"__kernel void k(__global int *o) { int g = get_global_id(0); printf("g=%d v=%d f=%.2f\n", g, o[g], 0.5f * g); }"#;
    let Some(m) = lower_common::lower_source(src) else {
        return;
    };
    let mut o: Vec<i32> = vec![10, 20, 30, 40];
    let args = vec![buf(&mut o)];
    let (idx, _) = m.kernel("k").unwrap();
    let launch = Launch {
        module: &m,
        kernel: idx,
        args: &args,
        nd: NdRange::new_1d(4, 2),
        threads: 1,
    };
    let stats = Interpreter::new()
        .run(&launch)
        .unwrap_or_else(|e| panic!("{e}\n{m}"));
    let text = String::from_utf8(stats.printf).unwrap();
    assert_eq!(
        text,
        "g=0 v=10 f=0.00\ng=1 v=20 f=0.50\ng=2 v=30 f=1.00\ng=3 v=40 f=1.50\n"
    );
}

#[test]
fn sub_group_functions_on_single_work_item_sub_groups() {
    let src = r#"
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
__kernel void k(__global int *o) {
  int x = get_global_id(0);
  o[x] = sub_group_reduce_add(x) + sub_group_scan_exclusive_add(x) * 100 + sub_group_broadcast(x, 0) * 10000
       + sub_group_any(x == 3) + get_sub_group_size() * 1000000;
  sub_group_barrier(CLK_LOCAL_MEM_FENCE);
}"#;
    let Some(bytes) = lower_common::compile(src) else {
        return;
    };
    let env = spv::valid::Env::from_target_env("opencl2.0")
        .unwrap()
        .with_extension("cl_khr_subgroups");
    let valid = lower_common::validate_for(&bytes, &env);
    let m = kir::lower::lower(&valid).expect("lowers");
    let mut o = vec![0i32; 8];
    let args = vec![buf(&mut o)];
    let (idx, _) = m.kernel("k").unwrap();
    let launch = Launch {
        module: &m,
        kernel: idx,
        args: &args,
        nd: NdRange::new_1d(8, 4),
        threads: 1,
    };
    Interpreter::new()
        .run(&launch)
        .unwrap_or_else(|e| panic!("{e}\n{m}"));
    for x in 0..8 {
        assert_eq!(
            o[x as usize],
            x + x * 10000 + (x == 3) as i32 + 1000000,
            "x={x}"
        );
    }
}
