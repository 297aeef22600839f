//! End to end: OpenCL C compiled by clang-15 + llvm-spirv-15 (DESIGN.md's working line),
//! validated by `spv::valid`, lowered by `kir::lower`, run by the interpreter. Expected values
//! come from plain Rust in each test. Skips (with a printed reason) when the tools are absent.

mod common;

use common::{build, build_for};
use exec::{ArgValue, Engine, Interpreter, Launch, NdRange, RunStats};

fn launch(module: &kir::Module, kernel: &str, args: &[ArgValue], nd: NdRange) -> RunStats {
    let (index, _) = module
        .kernel(kernel)
        .unwrap_or_else(|| panic!("no kernel {kernel}"));
    Interpreter {
        checked: true,
        ..Interpreter::new()
    }
    .run(&Launch {
        module,
        kernel: index,
        args,
        nd,
        threads: 2,
    })
    .unwrap_or_else(|e| panic!("run failed: {e}\n{module}"))
}

fn buffer(bytes: &mut [u8]) -> ArgValue {
    ArgValue::Buffer {
        ptr: bytes.as_mut_ptr(),
        len: bytes.len(),
    }
}

fn to_bytes<T: Copy, const N: usize>(values: &[T], f: impl Fn(T) -> [u8; N]) -> Vec<u8> {
    values.iter().flat_map(|&v| f(v)).collect()
}

#[test]
fn saxpy_with_a_scalar_argument() {
    let Some(m) = build(
        "kernel void saxpy(global const float *x, global float *y, float a) {
             size_t i = get_global_id(0);
             y[i] = a * x[i] + y[i];
         }",
    ) else {
        return;
    };
    let n = 300;
    let x: Vec<f32> = (0..n).map(|i| i as f32 * 0.25).collect();
    let y: Vec<f32> = (0..n).map(|i| 1000.0 - i as f32).collect();
    let (mut xb, mut yb) = (
        to_bytes(&x, f32::to_le_bytes),
        to_bytes(&y, f32::to_le_bytes),
    );
    let args = [
        buffer(&mut xb),
        buffer(&mut yb),
        ArgValue::Bytes(3.5f32.to_le_bytes().to_vec()),
    ];
    launch(&m, "saxpy", &args, NdRange::new_1d(n as u64, 32));
    let got: Vec<f32> = yb
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    // OpenCL C may contract a * x + y into an fma (FP_CONTRACT); clang -O0 emits fmul + fadd.
    let expected: Vec<f32> = x.iter().zip(&y).map(|(xi, yi)| 3.5 * xi + yi).collect();
    assert_eq!(got, expected);
}

#[test]
fn local_reduction_with_barriers() {
    let Some(m) = build(
        "kernel void sum(global const int *in, global int *out, local int *tmp) {
             size_t lid = get_local_id(0);
             tmp[lid] = in[get_global_id(0)];
             barrier(CLK_LOCAL_MEM_FENCE);
             for (size_t s = get_local_size(0) / 2; s > 0; s /= 2) {
                 if (lid < s) tmp[lid] += tmp[lid + s];
                 barrier(CLK_LOCAL_MEM_FENCE);
             }
             if (lid == 0) out[get_group_id(0)] = tmp[0];
         }",
    ) else {
        return;
    };
    let (groups, local) = (6usize, 64usize);
    let input: Vec<i32> = (0..groups * local)
        .map(|i| (i as i32 * 37) % 101 - 50)
        .collect();
    let mut inb = to_bytes(&input, i32::to_le_bytes);
    let mut outb = vec![0u8; groups * 4];
    let args = [
        buffer(&mut inb),
        buffer(&mut outb),
        ArgValue::Local(local * 4),
    ];
    launch(
        &m,
        "sum",
        &args,
        NdRange::new_1d((groups * local) as u64, local as u64),
    );
    let got: Vec<i32> = outb
        .chunks_exact(4)
        .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    let expected: Vec<i32> = input.chunks(local).map(|c| c.iter().sum()).collect();
    assert_eq!(got, expected);
}

#[test]
fn math_builtins_vectors_and_atomics() {
    let Some(m) = build(
        "kernel void k(global float4 *v, global int *count, global float *s) {
             size_t i = get_global_id(0);
             float4 x = v[i];
             v[i] = sqrt(x) + (float4)(1.0f, 2.0f, 3.0f, 4.0f);
             int e;
             s[i] = frexp(x.y, &e) + (float)e;
             atomic_add(count, (int)i);
         }",
    ) else {
        return;
    };
    let n = 40usize;
    let v: Vec<f32> = (0..n * 4).map(|i| i as f32 + 0.5).collect();
    let mut vb = to_bytes(&v, f32::to_le_bytes);
    let mut count = vec![0u32; 1];
    let mut sb = vec![0u8; n * 4];
    let args = [
        buffer(&mut vb),
        ArgValue::Buffer {
            ptr: count.as_mut_ptr().cast(),
            len: 4,
        },
        buffer(&mut sb),
    ];
    launch(&m, "k", &args, NdRange::new_1d(n as u64, 8));
    let got: Vec<f32> = vb
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    let expected: Vec<f32> = v
        .iter()
        .enumerate()
        .map(|(j, x)| x.sqrt() + (j % 4 + 1) as f32)
        .collect();
    assert_eq!(got, expected);
    let s: Vec<f32> = sb
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    for (i, si) in s.iter().enumerate() {
        let y = v[i * 4 + 1];
        // frexp by hand: y = m * 2^e with m in [0.5, 1).
        let e = y.log2().floor() as i32 + 1;
        let mantissa = y / 2f32.powi(e);
        assert_eq!(*si, mantissa + e as f32, "work-item {i}");
    }
    assert_eq!(count[0] as usize, (0..n).sum::<usize>());
}

#[test]
fn thirty_two_bit_module_with_private_array_and_2d_range() {
    let Some(m) = build_for(
        "kernel void t(global int *out, int w) {
             int x = get_global_id(0), y = get_global_id(1);
             int acc[4];
             for (int k = 0; k < 4; k++) acc[k] = x * k + y;
             out[y * w + x] = acc[x % 4] - acc[3 - x % 4];
         }",
        "spir",
    ) else {
        return;
    };
    assert_eq!(m.address_bits, 32);
    let (w, h) = (9usize, 5usize);
    let mut out = vec![0u8; w * h * 4];
    let args = [
        buffer(&mut out),
        ArgValue::Bytes((w as i32).to_le_bytes().to_vec()),
    ];
    let nd = NdRange {
        work_dim: 2,
        global_offset: [0; 3],
        global_size: [w as u64, h as u64, 1],
        local_size: [4, 2, 1],
    };
    launch(&m, "t", &args, nd);
    let got: Vec<i32> = out
        .chunks_exact(4)
        .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    for y in 0..h as i32 {
        for x in 0..w as i32 {
            let acc = |k: i32| x * k + y;
            assert_eq!(
                got[(y * w as i32 + x) as usize],
                acc(x % 4) - acc(3 - x % 4),
                "({x}, {y})"
            );
        }
    }
}

#[test]
fn generic_pointers_and_vec3_loads() {
    let Some(m) = build(
        "void bump(int *p, int by) { *p += by; }
         int sum(const int *p, int n) { int s = 0; for (int k = 0; k < n; k++) s += p[k]; return s; }
         kernel void k(global int *g, global float *v) {
             local int l[4];
             size_t i = get_global_id(0), li = get_local_id(0);
             int priv[3] = { (int)i, 2 * (int)i, 3 };
             l[li] = (int)i + 1;
             barrier(CLK_LOCAL_MEM_FENCE);
             bump(&g[i], sum(priv, 3) + sum(l, 4));
             barrier(CLK_LOCAL_MEM_FENCE);
             if (li == 0) bump(&l[1], 100);
             barrier(CLK_LOCAL_MEM_FENCE);
             g[i] += l[1];
             float3 x = vload3(i, v);
             vstore3(x.zxy * 2.0f + (float3)(1.0f, 2.0f, 3.0f), i, v);
         }",
    ) else {
        return;
    };
    let n = 8usize;
    let g: Vec<i32> = (0..n as i32).map(|i| i * 10).collect();
    let v: Vec<f32> = (0..n * 3).map(|i| i as f32 * 0.5).collect();
    let (mut gb, mut vb) = (
        to_bytes(&g, i32::to_le_bytes),
        to_bytes(&v, f32::to_le_bytes),
    );
    launch(
        &m,
        "k",
        &[buffer(&mut gb), buffer(&mut vb)],
        NdRange::new_1d(n as u64, 4),
    );
    let got_g: Vec<i32> = gb
        .chunks_exact(4)
        .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    let got_v: Vec<f32> = vb
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    for i in 0..n {
        let group = i / 4;
        // l holds group * 4 + 1 ..= group * 4 + 4 before the bump; l[1] then gains 100.
        let l_sum: i32 = (0..4).map(|k| (group * 4 + k + 1) as i32).sum();
        let l1 = (group * 4 + 2) as i32 + 100;
        let priv_sum = i as i32 + 2 * i as i32 + 3;
        assert_eq!(got_g[i], g[i] + priv_sum + l_sum + l1, "g[{i}]");
        let x = &v[i * 3..i * 3 + 3];
        assert_eq!(
            &got_v[i * 3..i * 3 + 3],
            &[x[2] * 2.0 + 1.0, x[0] * 2.0 + 2.0, x[1] * 2.0 + 3.0],
            "v[{i}]"
        );
    }
}

#[test]
fn half_loads_and_stores_with_rounding_modes() {
    let Some(m) = build(
        "kernel void k(global const half *in, global float *out, global half *rte, global half *rtz) {
             size_t i = get_global_id(0);
             float v = vload_half(i, in);
             out[i] = v * 2.0f;
             vstore_half(v / 3.0f, i, rte);
             vstore_half_rtz(v / 3.0f, i, rtz);
         }",
    ) else {
        return;
    };
    let inputs: Vec<u16> = (0..64u16)
        .map(|i| i.wrapping_mul(0x0bd3) ^ 0x3c00)
        .filter(|b| (b >> 10) & 0x1f != 0x1f)
        .collect();
    let n = inputs.len();
    let mut inb: Vec<u8> = inputs.iter().flat_map(|b| b.to_le_bytes()).collect();
    let (mut outb, mut rteb, mut rtzb) = (vec![0u8; n * 4], vec![0u8; n * 2], vec![0u8; n * 2]);
    launch(
        &m,
        "k",
        &[
            buffer(&mut inb),
            buffer(&mut outb),
            buffer(&mut rteb),
            buffer(&mut rtzb),
        ],
        NdRange::new_1d(n as u64, 1),
    );
    for (i, &bits) in inputs.iter().enumerate() {
        let v = half::f16::from_bits(bits).to_f32();
        let out = f32::from_le_bytes(outb[i * 4..i * 4 + 4].try_into().unwrap());
        assert_eq!(out.to_bits(), (v * 2.0).to_bits(), "out[{i}]");
        let q = v / 3.0;
        let nearest = half::f16::from_f32(q);
        let rte = u16::from_le_bytes(rteb[i * 2..i * 2 + 2].try_into().unwrap());
        assert_eq!(rte, nearest.to_bits(), "rte[{i}] of {q}");
        // Toward zero: the nearest value, stepped one ulp toward zero if it rounded away.
        let toward_zero = if nearest.to_f32().abs() > q.abs() {
            nearest.to_bits() - 1
        } else {
            nearest.to_bits()
        };
        let rtz = u16::from_le_bytes(rtzb[i * 2..i * 2 + 2].try_into().unwrap());
        assert_eq!(rtz, toward_zero, "rtz[{i}] of {q}");
    }
}

#[test]
fn work_group_collectives_and_async_copies() {
    let Some(m) = build(
        "kernel void k(global const int *in, global int *out, local int *tile) {
             size_t l = get_local_id(0), g = get_global_id(0);
             event_t e = async_work_group_copy(tile, in + get_group_id(0) * get_local_size(0), get_local_size(0), 0);
             wait_group_events(1, &e);
             int v = tile[get_local_size(0) - 1 - l];
             int sum = work_group_reduce_add(v);
             int mx = work_group_reduce_max(v);
             int scan = work_group_scan_inclusive_add(v);
             int first = work_group_broadcast(v, 0);
             int pos = work_group_any(v < 0) + 2 * work_group_all(v < 1000);
             out[g * 5 + 0] = sum;
             out[g * 5 + 1] = mx;
             out[g * 5 + 2] = scan;
             out[g * 5 + 3] = first;
             out[g * 5 + 4] = pos;
         }",
    ) else {
        return;
    };
    let (groups, local) = (3usize, 16usize);
    let input: Vec<i32> = (0..groups * local)
        .map(|i| ((i * 37) % 50) as i32 - 10)
        .collect();
    let mut inb = to_bytes(&input, i32::to_le_bytes);
    let mut outb = vec![0u8; groups * local * 20];
    launch(
        &m,
        "k",
        &[
            buffer(&mut inb),
            buffer(&mut outb),
            ArgValue::Local(local * 4),
        ],
        NdRange::new_1d((groups * local) as u64, local as u64),
    );
    let got: Vec<i32> = outb
        .chunks_exact(4)
        .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    for grp in 0..groups {
        let tile = &input[grp * local..(grp + 1) * local];
        // Work-item l sees tile[local - 1 - l].
        let v: Vec<i32> = (0..local).map(|l| tile[local - 1 - l]).collect();
        let sum: i32 = v.iter().sum();
        let mx = *v.iter().max().unwrap();
        let any = v.iter().any(|&x| x < 0) as i32;
        let all = v.iter().all(|&x| x < 1000) as i32;
        for l in 0..local {
            let g = grp * local + l;
            let scan: i32 = v[..=l].iter().sum();
            assert_eq!(
                &got[g * 5..g * 5 + 5],
                &[sum, mx, scan, v[0], any + 2 * all],
                "work-item {g}"
            );
        }
    }
}
