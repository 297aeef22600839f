//! Differential tests: the same OpenCL C kernel and inputs on PoCL (compiled from source by
//! PoCL) and on oxcl (clang-15 → SPIR-V → spv::valid → kir::lower → interpreter). Kernels are
//! chosen so that OpenCL defines every result bit (integer arithmetic, conversions, correctly
//! rounded float operations, control flow, local memory, atomics, printf), so the outputs must
//! be identical. Skips with a printed reason when clang, llvm-spirv, a C compiler or PoCL is
//! missing.

mod common;

use common::pocl::{self, Arg, Outcome};
use exec::{ArgValue, Engine, Interpreter, Launch, NdRange};

/// Runs on oxcl.
fn run_oxcl(
    source: &str,
    kernel: &str,
    global: &[u64],
    local: &[u64],
    args: &[Arg],
) -> Option<Outcome> {
    let module = common::build(source)?;
    Some(run_module(&module, kernel, global, local, args))
}

/// Runs a built module on oxcl.
fn run_module(
    module: &kir::Module,
    kernel: &str,
    global: &[u64],
    local: &[u64],
    args: &[Arg],
) -> Outcome {
    let (index, _) = module
        .kernel(kernel)
        .unwrap_or_else(|| panic!("no kernel {kernel}"));
    let mut buffers: Vec<Vec<u8>> = args
        .iter()
        .map(|a| match a {
            Arg::Buffer(b) => b.clone(),
            _ => Vec::new(),
        })
        .collect();
    let values: Vec<ArgValue> = args
        .iter()
        .zip(buffers.iter_mut())
        .map(|(a, storage)| match a {
            Arg::Buffer(_) => ArgValue::Buffer {
                ptr: storage.as_mut_ptr(),
                len: storage.len(),
            },
            Arg::Local(n) => ArgValue::Local(*n),
            Arg::Scalar(bytes) => ArgValue::Bytes(bytes.clone()),
        })
        .collect();
    let mut nd = NdRange {
        work_dim: global.len() as u32,
        global_offset: [0; 3],
        global_size: [1; 3],
        local_size: [1; 3],
    };
    nd.global_size[..global.len()].copy_from_slice(global);
    nd.local_size[..local.len()].copy_from_slice(local);
    // Checked mode: the kernels are race-free, so it must not report anything.
    let stats = Interpreter {
        checked: true,
        ..Interpreter::new()
    }
    .run(&Launch {
        module,
        kernel: index,
        args: &values,
        nd,
        threads: 2,
    })
    .unwrap_or_else(|e| panic!("oxcl run failed: {e}"));
    let buffers = args
        .iter()
        .zip(buffers)
        .filter(|(a, _)| matches!(a, Arg::Buffer(_)))
        .map(|(_, b)| b)
        .collect();
    Outcome {
        buffers,
        printf: String::from_utf8_lossy(&stats.printf).into_owned(),
    }
}

/// Runs on both and compares.
fn diff(source: &str, kernel: &str, global: &[u64], local: &[u64], args: &[Arg]) {
    let Some(theirs) = pocl::run(source, kernel, global, local, args) else {
        return;
    };
    let Some(ours) = run_oxcl(source, kernel, global, local, args) else {
        return;
    };
    compare(&theirs, &ours);
}

fn compare(theirs: &Outcome, ours: &Outcome) {
    for (i, (a, b)) in theirs.buffers.iter().zip(&ours.buffers).enumerate() {
        if a != b {
            let first = a.iter().zip(b).position(|(x, y)| x != y).unwrap_or(0);
            panic!(
                "buffer {i} differs from byte {first}: PoCL {:?} vs oxcl {:?}",
                &a[first..(first + 16).min(a.len())],
                &b[first..(first + 16).min(b.len())]
            );
        }
    }
    assert_eq!(theirs.printf, ours.printf, "printf output");
}

fn bytes_i32(values: impl IntoIterator<Item = i32>) -> Vec<u8> {
    values.into_iter().flat_map(i32::to_le_bytes).collect()
}

fn bytes_f32(values: impl IntoIterator<Item = f32>) -> Vec<u8> {
    values.into_iter().flat_map(f32::to_le_bytes).collect()
}

/// Interesting 32-bit patterns: edges of every integer type and special floats.
fn patterns(n: usize) -> Vec<i32> {
    let specials = [
        0,
        1,
        -1,
        2,
        -2,
        127,
        -128,
        255,
        256,
        32767,
        -32768,
        65535,
        i32::MAX,
        i32::MIN,
        0x7f80_0000,
        0x7fc0_0000,
        -8388608,
        0x3f80_0000,
    ];
    let mut x: u32 = 12345;
    (0..n)
        .map(|i| {
            if i < specials.len() {
                specials[i]
            } else {
                x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                x as i32
            }
        })
        .collect()
}

#[test]
fn integer_arithmetic_of_every_width() {
    let src = "
        kernel void k(global const int *a, global const int *b, global int *out) {
            size_t i = get_global_id(0);
            int x = a[i], y = b[i];
            char cx = (char)x, cy = (char)y;
            short sx = (short)x, sy = (short)y;
            uint ux = (uint)x, uy = (uint)y;
            long lx = (long)x * 3 + y;
            out[i * 16 + 0] = x + y;
            out[i * 16 + 1] = x * y;
            out[i * 16 + 2] = y != 0 && !(x == INT_MIN && y == -1) ? x / y : 0;
            out[i * 16 + 3] = y != 0 && !(x == INT_MIN && y == -1) ? x % y : 0;
            out[i * 16 + 4] = uy != 0 ? ux / uy : 0;
            out[i * 16 + 5] = x >> (y & 31);
            out[i * 16 + 6] = (int)(ux >> (uy & 31));
            out[i * 16 + 7] = x << (y & 31);
            out[i * 16 + 8] = (char)(cx * cy) + (short)(sx - sy);
            out[i * 16 + 9] = (uchar)cx / ((uchar)cy | 1);
            out[i * 16 + 10] = (int)(lx >> 7) ^ (int)(lx % 1000);
            out[i * 16 + 11] = mul_hi(x, y) + (int)mul_hi(ux, uy);
            out[i * 16 + 12] = add_sat(x, y) ^ sub_sat(cx, cy);
            out[i * 16 + 13] = clz(x) + popcount(y) * 64 + rotate(x, y);
            out[i * 16 + 14] = abs_diff(sx, sy) + (int)upsample(sx, (ushort)sy);
            out[i * 16 + 15] = hadd(x, y) - rhadd(ux, uy) + mad24(x, y, 5) + clamp(x, -100, 100);
        }";
    let n = 64;
    let a = patterns(n);
    let b: Vec<i32> = patterns(n + 7).into_iter().rev().take(n).collect();
    diff(
        src,
        "k",
        &[n as u64],
        &[16],
        &[
            Arg::Buffer(bytes_i32(a)),
            Arg::Buffer(bytes_i32(b)),
            Arg::Buffer(vec![0; n * 64]),
        ],
    );
}

#[test]
fn conversions_with_rounding_and_saturation() {
    let src = "
        #pragma OPENCL FP_CONTRACT OFF
        kernel void k(global const float *f, global const int *n, global int *out) {
            size_t i = get_global_id(0);
            float x = f[i];
            int v = n[i];
            out[i * 12 + 0] = convert_int_sat(x);
            // Out-of-range conversions without _sat are implementation-defined: clamp first.
            float r = clamp(x, -1e9f, 1e9f);
            out[i * 12 + 1] = convert_int_rtn(r);
            out[i * 12 + 2] = convert_int_sat_rtp(x);
            out[i * 12 + 3] = convert_uchar_sat(x);
            out[i * 12 + 4] = convert_short_sat_rte(x) + convert_int_rte(r) + convert_int_rtz(r);
            out[i * 12 + 5] = as_int(convert_float_rtz(v));
            out[i * 12 + 6] = as_int(convert_float_rtp(v)) ^ as_int(convert_float_rtn((uint)v));
            out[i * 12 + 7] = convert_uchar_sat(v) | (convert_char_sat(v) << 8) | (convert_ushort_sat(v) << 16);
            out[i * 12 + 8] = as_int((float)v);
            out[i * 12 + 9] = as_int(x * 3.0f - 1.0f);
            out[i * 12 + 10] = as_int(x / 7.0f);
            out[i * 12 + 11] = as_int(sqrt(fabs(x)));
        }";
    let n = 64;
    let bits = patterns(n);
    let floats: Vec<f32> = bits
        .iter()
        .enumerate()
        .map(|(i, &b)| {
            if i % 2 == 0 {
                f32::from_bits(b as u32)
            } else {
                (b as f32) / 65536.0
            }
        })
        // NaN conversions are implementation-defined without _sat; keep NaNs out.
        .map(|f| if f.is_nan() { 0.5 } else { f })
        .collect();
    diff(
        src,
        "k",
        &[n as u64],
        &[8],
        &[
            Arg::Buffer(bytes_f32(floats)),
            Arg::Buffer(bytes_i32(bits)),
            Arg::Buffer(vec![0; n * 48]),
        ],
    );
}

#[test]
fn vectors_swizzles_and_shuffles() {
    let src = "
        kernel void k(global const int4 *a, global int8 *out) {
            size_t i = get_global_id(0);
            int4 x = a[i];
            int4 y = x.wzyx * (int4)(1, 2, 3, 4) + x.s0;
            int8 z = (int8)(x.lo, y.hi, x.odd, y.even);
            z = z + shuffle2(x, y, (uint8)(7, 6, 5, 4, 3, 2, 1, 0));
            int4 c = x > y;
            z.s0123 ^= select(x, y, c);
            out[i] = z + (int8)(any(c), all(c), 0, 0, 0, 0, 0, 1);
        }";
    let n = 32;
    diff(
        src,
        "k",
        &[n as u64],
        &[4],
        &[
            Arg::Buffer(bytes_i32(patterns(n * 4))),
            Arg::Buffer(vec![0; n * 32]),
        ],
    );
}

#[test]
fn control_flow_local_memory_and_atomics() {
    let src = "
        typedef struct { int key; short tag; char flags[3]; } item;
        int classify(int v) {
            switch (v & 7) {
                case 0: return 10;
                case 1: case 2: return v >> 1;
                case 5: return -v;
                default: break;
            }
            int r = 0;
            for (int k = 0; k < (v & 15); k++) { if (k == 9) break; r += k; }
            return r;
        }
        kernel void k(global const int *in, global int *out, global int *hist, local int *scratch, item it) {
            size_t l = get_local_id(0), g = get_global_id(0);
            scratch[l] = classify(in[g]) + it.key + it.tag + it.flags[2];
            barrier(CLK_LOCAL_MEM_FENCE);
            int acc = 0;
            for (size_t j = 0; j < get_local_size(0); j++) acc += scratch[(l + j) % get_local_size(0)] * (int)j;
            out[g] = acc;
            atomic_inc(&hist[in[g] & 15]);
            local int lmax;
            if (l == 0) lmax = INT_MIN;
            barrier(CLK_LOCAL_MEM_FENCE);
            atomic_max(&lmax, in[g]);
            barrier(CLK_LOCAL_MEM_FENCE);
            if (l == 0) out[get_global_size(0) + get_group_id(0)] = lmax;
        }";
    let (n, local) = (128usize, 32usize);
    // struct item { int key; short tag; char flags[3]; } is 12 bytes with padding.
    let mut item = Vec::new();
    item.extend(7i32.to_le_bytes());
    item.extend((-3i16).to_le_bytes());
    item.extend([1u8, 2, 0x85, 0, 0, 0]);
    diff(
        src,
        "k",
        &[n as u64],
        &[local as u64],
        &[
            Arg::Buffer(bytes_i32(patterns(n))),
            Arg::Buffer(vec![0; (n + n / local) * 4]),
            Arg::Buffer(vec![0; 16 * 4]),
            Arg::Local(local * 4),
            Arg::Scalar(item),
        ],
    );
}

#[test]
fn printf_formats_like_pocl() {
    let src = r#"
        kernel void k(int i, float f, long l) {
            printf("int %d %5i %-4d| %u %x %#X %o\n", i, i, -i, (uint)i, i, i, i);
            printf("float %f %.2f %e %g %G %a\n", f, f, f, f, f * 1e9f, f);
            printf("long %ld char %c str %s %.3s %%\n", l, 'q', "hello", "abcdef");
            printf("vec %v4hld %v2hlf\n", (int4)(1, -2, 3, -4), (float2)(0.5f, -1.25f));
        }"#;
    let args = [
        Arg::Scalar(123i32.to_le_bytes().to_vec()),
        Arg::Scalar(1234.5678f32.to_le_bytes().to_vec()),
        Arg::Scalar((-9_000_000_000i64).to_le_bytes().to_vec()),
    ];
    diff(src, "k", &[1], &[1], &args);
}

#[test]
fn exact_float_functions_and_relations() {
    let src = "
        #pragma OPENCL FP_CONTRACT OFF
        kernel void k(global const float4 *a, global const float4 *b, global int4 *out) {
            size_t i = get_global_id(0);
            float4 x = a[i], y = b[i];
            int4 e;
            float4 ip;
            out[i * 16 + 0] = as_int4(fmin(x, y)) ^ as_int4(fmax(x, y));
            out[i * 16 + 1] = as_int4(floor(x)) + as_int4(ceil(y));
            out[i * 16 + 2] = as_int4(trunc(x)) + as_int4(round(y)) + as_int4(rint(x));
            out[i * 16 + 3] = as_int4(fma(x, y, x));
            out[i * 16 + 4] = as_int4(copysign(x, y)) ^ as_int4(fabs(y));
            out[i * 16 + 5] = as_int4(frexp(x, &e)) + e;
            out[i * 16 + 6] = as_int4(modf(y, &ip)) ^ as_int4(ip);
            out[i * 16 + 7] = ilogb(x) ^ as_int4(logb(y));
            out[i * 16 + 8] = as_int4(ldexp(x, (int4)(3, -2, 100, -150)));
            out[i * 16 + 9] = isnan(x) + 2 * isinf(y) + 4 * signbit(x) + 8 * isnormal(y);
            out[i * 16 + 10] = (x < y) + 2 * (x == y) + 4 * isunordered(x, y) + 8 * islessgreater(x, y);
            out[i * 16 + 11] = as_int4(nextafter(x, y));
            out[i * 16 + 12] = as_int4(x + y) ^ as_int4(x - y);
            out[i * 16 + 13] = as_int4(x * y) ^ as_int4(x / y);
            out[i * 16 + 14] = as_int4(sqrt(x)) ^ as_int4(maxmag(x, y)) ^ as_int4(minmag(x, y));
            out[i * 16 + 15] = as_int4(fdim(x, y)) ^ as_int4(fmod(x, y)) ^ as_int4(remainder(x, y));
        }";
    let n = 32;
    let bits = patterns(n * 8);
    let floats: Vec<f32> = bits
        .iter()
        .enumerate()
        .map(|(i, &b)| {
            if i % 3 == 0 {
                f32::from_bits(b as u32)
            } else {
                (b as f32) / 1048576.0
            }
        })
        // NaN payloads of results are not specified: keep NaN operands to the relational lanes.
        .map(|f| if f.is_nan() { -0.0 } else { f })
        .collect();
    let (a, b) = floats.split_at(n * 4);
    diff(
        src,
        "k",
        &[n as u64],
        &[8],
        &[
            Arg::Buffer(bytes_f32(a.to_vec())),
            Arg::Buffer(bytes_f32(b.to_vec())),
            Arg::Buffer(vec![0; n * 16 * 16]),
        ],
    );
}

#[test]
fn doubles_longs_and_their_atomics() {
    let src = "
        #pragma OPENCL EXTENSION cl_khr_fp64 : enable
        #pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
        #pragma OPENCL FP_CONTRACT OFF
        kernel void k(global const long *a, global long *out, global long *acc) {
            size_t i = get_global_id(0);
            long x = a[i], y = a[(i + 1) % get_global_size(0)];
            ulong ux = x, uy = y;
            double d = (double)x / 3.0, f = (double)(y >> 11);
            int ex;
            out[i * 8 + 0] = x * y + (y != 0 && !(x == LONG_MIN && y == -1) ? x / y : 7);
            out[i * 8 + 1] = mul_hi(x, y) ^ (long)mul_hi(ux, uy);
            out[i * 8 + 2] = as_long(d * f + sqrt(fabs(d)));
            out[i * 8 + 3] = convert_long_sat(d * 1e6) ^ as_long(convert_double_rtz(x)) ^ as_long((double)ux);
            out[i * 8 + 4] = (x >> (y & 63)) ^ (long)(ux >> (uy & 63)) ^ clz(x) ^ popcount(y);
            out[i * 8 + 5] = as_long(fma(d, f, 1.0)) ^ as_long(floor(d)) ^ as_long(frexp(f, &ex));
            out[i * 8 + 7] = ex;
            out[i * 8 + 6] = add_sat(x, y) ^ sub_sat(ux, uy) ^ abs_diff(x, y);
            atom_add(&acc[0], x);
            atom_xor(&acc[1], y);
            atom_max(&acc[2], x);
        }";
    let n = 48;
    let longs: Vec<u8> = patterns(n * 2)
        .chunks(2)
        .flat_map(|c| (((c[0] as i64) << 32) ^ c[1] as i64).to_le_bytes())
        .collect();
    diff(
        src,
        "k",
        &[n as u64],
        &[8],
        &[
            Arg::Buffer(longs),
            Arg::Buffer(vec![0; n * 64]),
            Arg::Buffer(vec![0; 24]),
        ],
    );
}

/// PoCL 3.1 has no generic address space and no vload3 on CL2.0 here, so this kernel passes
/// only private pointers to functions (generic pointers are covered in `opencl_c.rs`).
#[test]
fn private_arrays_function_calls_and_loops() {
    let src = "
        void bump(int *p, int by) { *p += by; }
        int sum(const int *p, int n) { int s = 0; for (int k = 0; k < n; k++) s += p[k]; return s; }
        kernel void k(global int *g) {
            local int l[8];
            size_t i = get_global_id(0), li = get_local_id(0);
            int priv[10];
            for (int k = 0; k < 10; k++) priv[k] = (int)i * k - k * k;
            l[li] = (int)i;
            barrier(CLK_LOCAL_MEM_FENCE);
            int total = g[i];
            bump(&total, sum(priv, 10));
            bump(&priv[i % 10], 1000);
            if (li == 0) l[0] += 5;
            barrier(CLK_LOCAL_MEM_FENCE);
            for (int k = 0; k < 8; k++) { if (k == 6) continue; total += l[k]; }
            g[i] = total + priv[i % 10];
            do { g[i] ^= 0x55; } while ((g[i] & 3) == 0 && g[i] != 0);
        }";
    let n = 32;
    diff(
        src,
        "k",
        &[n as u64],
        &[8],
        &[Arg::Buffer(bytes_i32(patterns(n)))],
    );
}

#[test]
fn narrow_vectors_structs_and_exchange_atomics() {
    let src = "
        typedef struct { char c; int i; short s[3]; float f; } rec;
        rec make(int v) { rec r = { (char)v, v * 3, { (short)v, (short)(v >> 8), 7 }, (float)v * 0.5f }; return r; }
        kernel void k(global const char16 *a, global short8 *s, global ulong2 *u, global rec *recs, global int *cell) {
            size_t i = get_global_id(0);
            char16 x = a[i];
            char16 y = x.sfedcba9876543210;
            short8 z = convert_short8(x.lo) * convert_short8(y.hi) - (short8)(1, 2, 3, 4, 5, 6, 7, 8);
            s[i] = z + convert_short8_sat(convert_int8(x.hi) * 300) + (z >> (short8)3) + convert_short8(x.lo < y.lo);
            ulong2 w = (ulong2)((ulong)(uchar)x.s0 << 40, (ulong)as_uint(convert_int4(x.s0123).x));
            u[i] = w * (ulong2)(3, 5) + rotate(w, (ulong2)(13, 61)) + convert_ulong2_sat(convert_long2(x.s45) - 100);
            recs[i] = make(x.s7 * 1000 + x.s8);
            // Deterministic whatever the order: every exchange stores 9, one cmpxchg succeeds.
            int old = atomic_xchg(&cell[0], 9);
            atomic_cmpxchg(&cell[1], -1, (int)i * 0 + 7);
            atomic_min(&cell[2], old);
        }";
    let n = 16usize;
    let a: Vec<u8> = patterns(n * 4)
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    diff(
        src,
        "k",
        &[n as u64],
        &[4],
        &[
            Arg::Buffer(a),
            Arg::Buffer(vec![0; n * 16]),
            Arg::Buffer(vec![0; n * 16]),
            Arg::Buffer(vec![0; n * 20]),
            Arg::Buffer(bytes_i32([-5, -1, i32::MAX])),
        ],
    );
}
