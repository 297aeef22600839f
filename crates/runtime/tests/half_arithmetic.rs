//! `half` arithmetic with cl_khr_fp16 (OpenCL C 2.0 §6.1.1.1, the extension's built-ins),
//! which the device claims, on both engines: the four operations, comparisons, conversions
//! to and from `float` and `int`, `half4` vectors and some OpenCL.std functions. Expected
//! values by the `half` crate and Rust's `f64` functions rounded once to `half` (the device
//! library is correctly rounded for these; the operations are exact in `f32` before the one
//! rounding, §7.4 ULP table: 0 ulp for the operations).

use half::f16;
use runtime::{Buffer, Context, EngineKind, MemFlags, NdRange, Platform, Program, Queue};

const SOURCE: &str = r#"
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#ifndef cl_khr_fp16
#error "the device claims cl_khr_fp16: its macro must be defined"
#endif
#define OUTS 14
kernel void k(global const half *a, global const half *b, global half *out, global int *iout) {
    size_t i = get_global_id(0);
    half x = a[i], y = b[i];
    global half *o = out + i * OUTS;
    o[0] = x + y;
    o[1] = x - y;
    o[2] = x * y;
    o[3] = x / y;
    o[4] = sqrt(fabs(x));
    o[5] = fma(x, y, (half)0.1h);
    o[6] = exp(x);
    o[7] = log(fabs(x));
    o[8] = sin(x);
    o[9] = fmax(x, y) - fmin(x, y);
    o[10] = (half)((float)x * 0.3f);
    half4 v = (half4)(x, y, x * 2.0h, -y);
    half4 w = v * v + (half4)(1.0h);
    o[11] = w.x + w.y + w.z + w.w;
    o[12] = convert_half((int)(x * 10.0h));
    o[13] = (x < y) ? x : y;
    iout[i * 3 + 0] = convert_int_rtz(x * 100.0h);
    iout[i * 3 + 1] = isless(x, y) + 2 * isnan(x / y);
    iout[i * 3 + 2] = as_ushort(x);
}
"#;

const OUTS: usize = 14;

fn halves(v: &[f16]) -> Vec<u8> {
    v.iter().flat_map(|h| h.to_le_bytes()).collect()
}

/// Rounds an `f64` (the exact result, or one within an `f64` ulp) to the nearest `half`, ties
/// to even: `f16::from_f64` may round through `f32` (twice), so its neighbours are compared.
fn r(x: f64) -> f16 {
    let c = f16::from_f64(x);
    if !x.is_finite() || !c.is_finite() {
        return c;
    }
    let step = |h: f16, up: bool| {
        let b = h.to_bits();
        let positive = b & 0x8000 == 0;
        match (up == positive, b & 0x7fff) {
            (false, 0) => f16::from_bits((b ^ 0x8000) + 1),
            (false, _) => f16::from_bits(b - 1),
            (true, _) => f16::from_bits(b + 1),
        }
    };
    let mut best = c;
    for n in [step(c, true), step(c, false)] {
        if !n.is_finite() {
            continue;
        }
        let (dn, db) = ((n.to_f64() - x).abs(), (best.to_f64() - x).abs());
        if dn < db || (dn == db && n.to_bits() & 1 == 0) {
            best = n;
        }
    }
    best
}

/// What the kernel writes for inputs `x`, `y`.
fn expected(x: f16, y: f16) -> ([f16; OUTS], [i32; 3]) {
    let (xd, yd) = (x.to_f64(), y.to_f64());
    let h = |v: f16| v.to_f64();
    // x * 2.0h, and the half4 of the kernel, each operation rounded to half.
    let v = [x, y, r(xd * 2.0), -y];
    let w: f64 = v
        .iter()
        .map(|&c| h(r(h(r(h(c) * h(c))) + 1.0)))
        .fold(0.0, |acc, t| {
            // w.x + w.y + w.z + w.w: left to right, each sum rounded.
            h(r(acc + t))
        });
    let max = if xd >= yd { xd } else { yd };
    let min = if xd <= yd { xd } else { yd };
    let out = [
        r(xd + yd),
        r(xd - yd),
        r(xd * yd),
        r(xd / yd),
        r(xd.abs().sqrt()),
        // 0.1h is the half nearest 0.1; the product of two halves is exact in f64.
        r(xd * yd + f16::from_f64(0.1).to_f64()),
        r(xd.exp()),
        r(xd.abs().ln()),
        r(xd.sin()),
        r(max - min),
        // (float)x * 0.3f rounded to float, then to half.
        r((x.to_f32() * 0.3f32) as f64),
        r(w),
        r((h(r(xd * 10.0)) as i32) as f64),
        if xd < yd { x } else { y },
    ];
    let ints = [
        h(r(xd * 100.0)) as i32,
        (xd < yd) as i32 + 2 * (xd / yd).is_nan() as i32,
        x.to_bits() as i32,
    ];
    (out, ints)
}

#[test]
fn half_arithmetic_matches_a_reference_on_both_engines() {
    let ctx = Context::new(Platform::get().devices().remove(0));
    let program = Program::from_source(&ctx, SOURCE, "half_arithmetic.cl");
    program
        .build("")
        .unwrap_or_else(|e| panic!("{e}: {}", program.build_log()));
    // Normal, subnormal, zero and large inputs of both signs (no infinities: the reference
    // of `fmax - fmin` and the vector sums would need the NaN rules spelled out).
    let mut xs = Vec::new();
    let mut ys = Vec::new();
    for i in 0..256u32 {
        let x = (i as f64 - 128.0) * 0.173 + if i % 7 == 0 { 0.0 } else { 0.01 };
        let y = ((i * 37) % 256) as f64 * 0.061 - 5.0;
        xs.push(f16::from_f64(x));
        ys.push(f16::from_f64(y));
    }
    xs.extend([
        f16::from_bits(1),
        f16::from_bits(0x8003),
        f16::from_f64(0.25),
        f16::from_f64(600.0),
    ]);
    ys.extend([
        f16::from_f64(0.5),
        f16::from_bits(0x0200),
        f16::NEG_ZERO,
        f16::from_f64(-0.004),
    ]);
    let n = xs.len();
    for engine in [EngineKind::Interpreter, EngineKind::JitStrict] {
        let k = program.kernel("k").expect("kernel");
        let a = Buffer::new(&ctx, MemFlags::default(), n * 2).unwrap();
        a.write(0, &halves(&xs)).expect("write");
        let b = Buffer::new(&ctx, MemFlags::default(), n * 2).unwrap();
        b.write(0, &halves(&ys)).expect("write");
        let out = Buffer::new(&ctx, MemFlags::default(), n * OUTS * 2).unwrap();
        let iout = Buffer::new(&ctx, MemFlags::default(), n * 12).unwrap();
        for (idx, buf) in [&a, &b, &out, &iout].into_iter().enumerate() {
            k.set_arg_buffer(idx as u32, Some(buf)).unwrap();
        }
        Queue::new(&ctx)
            .with_engine(engine)
            .nd_range(&k, &NdRange::new(&[n], None, None))
            .expect("launch");
        let got: Vec<f16> = out
            .to_vec()
            .chunks_exact(2)
            .map(|c| f16::from_le_bytes([c[0], c[1]]))
            .collect();
        let igot: Vec<i32> = iout
            .to_vec()
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        for i in 0..n {
            let (want, iwant) = expected(xs[i], ys[i]);
            for (j, w) in want.iter().enumerate() {
                let g = got[i * OUTS + j];
                let same = g.to_bits() == w.to_bits() || (g.is_nan() && w.is_nan());
                assert!(
                    same,
                    "{engine:?}: output {j} for x = {} ({:#06x}), y = {}: got {g} ({:#06x}), want {w} ({:#06x})",
                    xs[i],
                    xs[i].to_bits(),
                    ys[i],
                    g.to_bits(),
                    w.to_bits()
                );
            }
            assert_eq!(
                &igot[i * 3..i * 3 + 3],
                &iwant,
                "{engine:?}: x = {}, y = {}",
                xs[i],
                ys[i]
            );
        }
    }
}
