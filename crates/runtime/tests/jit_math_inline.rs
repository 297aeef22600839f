//! The JIT's inlining of small pure functions (`kir::inline`: calls, branches in them turned
//! into selects) and its vector `exp`/`log` (`exec::jit::compile::vector::math`): results bit
//! for bit those of the interpreter and of devlib's scalar functions (swept over float bit
//! patterns with a stride, plus special values), within bounds of a Rust `f64` reference, and
//! errors in called functions that are not inlined reported as before.

mod jit_harness;

use jit_harness::{f32s, to_f32s, Arg, EngineKind, Outcome};

/// Runs `kernel` of `source` on `engine` in one dimension; returns every buffer after the run,
/// or the error.
fn run(
    engine: EngineKind,
    source: &str,
    kernel: &str,
    args: &[Arg],
    global: usize,
    local: usize,
) -> Outcome {
    jit_harness::run(engine, source, kernel, args, &[global], &[local])
}

/// Runs on the interpreter and the (strict) JIT in one dimension: statuses, error texts and
/// buffers must be identical; returns the JIT's.
fn both(source: &str, kernel: &str, args: &[Arg], global: usize, local: usize) -> Outcome {
    jit_harness::both(source, kernel, args, &[global], &[local])
}

/// Deterministic floats in `[lo, hi)` (xorshift).
fn floats(n: usize, seed: u64, lo: f32, hi: f32) -> Vec<f32> {
    let mut s = seed | 1;
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            lo + (hi - lo) * ((s >> 40) as f32 / (1u64 << 24) as f32)
        })
        .collect()
}

const BLACKSCHOLES: &str = r#"
float cnd(float d) {
    const float A1 = 0.31938153f, A2 = -0.356563782f, A3 = 1.781477937f;
    const float A4 = -1.821255978f, A5 = 1.330274429f;
    float k = 1.0f / (1.0f + 0.2316419f * fabs(d));
    float c = 0.3989422804f * exp(-0.5f * d * d) * (k * (A1 + k * (A2 + k * (A3 + k * (A4 + k * A5)))));
    return d > 0.0f ? 1.0f - c : c;
}

__kernel void bs(float r, float v, __global const float *S, __global const float *X,
                 __global const float *T, __global float *call, __global float *put) {
    int i = get_global_id(0);
    float s = S[i], x = X[i], t = T[i];
    float sq = sqrt(t);
    float d1 = (log(s / x) + (r + 0.5f * v * v) * t) / (v * sq);
    float d2 = d1 - v * sq;
    float e = exp(-r * t);
    call[i] = s * cnd(d1) - x * e * cnd(d2);
    put[i] = x * e * cnd(-d2) - s * cnd(-d1);
}
"#;

/// The cumulative normal distribution in f64 (Abramowitz–Stegun 26.2.17, as the kernel).
fn cnd64(d: f64) -> f64 {
    let k = 1.0 / (1.0 + 0.2316419 * d.abs());
    let poly = k
        * (0.31938153
            + k * (-0.356563782 + k * (1.781477937 + k * (-1.821255978 + k * 1.330274429))));
    let c = 0.3989422804 * (-0.5 * d * d).exp() * poly;
    if d > 0.0 {
        1.0 - c
    } else {
        c
    }
}

#[test]
fn black_scholes_calls_inlined_match_interpreter_and_f64() {
    // 1030 options: rows with a tail (local 206 is not a multiple of 4).
    let n = 1030;
    let s = floats(n, 11, 5.0, 30.0);
    let x = floats(n, 12, 1.0, 100.0);
    let t = floats(n, 13, 0.25, 10.0);
    let (r, v) = (0.02f32, 0.3f32);
    let (st, bufs) = both(
        BLACKSCHOLES,
        "bs",
        &[
            Arg::Val(r.to_le_bytes().to_vec()),
            Arg::Val(v.to_le_bytes().to_vec()),
            Arg::Buf(f32s(&s)),
            Arg::Buf(f32s(&x)),
            Arg::Buf(f32s(&t)),
            Arg::Buf(vec![0; 4 * n]),
            Arg::Buf(vec![0; 4 * n]),
        ],
        n,
        206,
    );
    st.expect("runs");
    let (call, put) = (to_f32s(&bufs[3]), to_f32s(&bufs[4]));
    for i in 0..n {
        let (s, x, t) = (f64::from(s[i]), f64::from(x[i]), f64::from(t[i]));
        let (r, v) = (f64::from(r), f64::from(v));
        let sq = t.sqrt();
        let d1 = ((s / x).ln() + (r + 0.5 * v * v) * t) / (v * sq);
        let d2 = d1 - v * sq;
        let e = (-r * t).exp();
        let c = s * cnd64(d1) - x * e * cnd64(d2);
        let p = x * e * cnd64(-d2) - s * cnd64(-d1);
        // float evaluation of the same formula: a few float ulps of the operands' size.
        let tol = 1e-4 * (s + x);
        assert!(
            (f64::from(call[i]) - c).abs() <= tol,
            "call[{i}] {} vs {c}",
            call[i]
        );
        assert!(
            (f64::from(put[i]) - p).abs() <= tol,
            "put[{i}] {} vs {p}",
            put[i]
        );
    }
}

#[test]
fn nested_calls_loops_and_switches_in_pure_functions() {
    // `poly` loops, `pick` switches, `clampish` is a triangle (one arm), `outer` nests calls.
    let src = r#"
    float poly(float x, int n) {
        float acc = 0.0f;
        for (int i = 0; i < n; i++) acc = acc * x + (float)(i + 1);
        return acc;
    }
    float pick(int m, float x) {
        switch (m & 3) {
            case 0: return x;
            case 1: return -x;
            case 2: return x * x;
            default: return log(fabs(x) + 1.0f);
        }
    }
    float clampish(float x) {
        float y = x;
        if (y > 2.0f) y = 2.0f + exp(2.0f - y);
        return y;
    }
    float outer(float x, int i) { return clampish(pick(i, x)) + poly(x, 3); }
    __kernel void k(__global const float *in, __global float *out) {
        int i = get_global_id(0);
        out[i] = outer(in[i], i);
    }
    "#;
    let n = 203;
    let input = floats(n, 5, -3.0, 3.0);
    let (st, bufs) = both(
        src,
        "k",
        &[Arg::Buf(f32s(&input)), Arg::Buf(vec![0; 4 * n])],
        n,
        n,
    );
    st.expect("runs");
    let out = to_f32s(&bufs[1]);
    for i in 0..n {
        let x = f64::from(input[i]);
        let p = match i & 3 {
            0 => x,
            1 => -x,
            2 => x * x,
            _ => (x.abs() + 1.0).ln(),
        };
        let c = if p > 2.0 { 2.0 + (2.0 - p).exp() } else { p };
        let want = c + ((x + 2.0) * x + 3.0);
        assert!(
            (f64::from(out[i]) - want).abs() <= 1e-5 * (1.0 + want.abs()),
            "out[{i}] {} vs {want}",
            out[i]
        );
    }
}

#[test]
fn errors_in_called_functions_still_name_the_callee() {
    // `get` loads (not inlined): the out-of-bounds read of work-item 37 is reported in `get`
    // by both engines, the pure `twice` around it being inlined.
    let src = r#"
    float twice(float x) { return x + x; }
    float get(__global const float *p, int i) { return p[i]; }
    __kernel void k(__global const float *in, __global float *out, int bad) {
        int i = get_global_id(0);
        int j = i == bad ? 1000000 : i;
        out[i] = twice(get(in, j));
    }
    "#;
    let n = 64;
    let input = floats(n, 7, 0.0, 1.0);
    let args = [
        Arg::Buf(f32s(&input)),
        Arg::Buf(vec![0; 4 * n]),
        Arg::Val(37i32.to_le_bytes().to_vec()),
    ];
    // Statuses only: the work-items run with 37 in lock step may or may not have stored (a
    // legal schedule either way; see the exec crate's vectorised loop).
    let reference = run(EngineKind::Interpreter, src, "k", &args, n, n);
    let (st, _) = run(EngineKind::JitStrict, src, "k", &args, n, n);
    assert_eq!(st, reference.0);
    let e = st.expect_err("out of bounds");
    assert!(e.contains("[37, 0, 0]") && e.contains("\"get\""), "{e}");
}

/// Special and boundary arguments of `exp` and the logarithms (the fast paths' limits).
fn specials() -> Vec<f32> {
    let mut v = vec![
        0.0,
        -0.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        -f32::NAN,
        f32::from_bits(0x7fc0_1234),
        f32::from_bits(0x7f80_0001),
        f32::MIN_POSITIVE,
        f32::from_bits(1),
        f32::from_bits(0x007f_ffff),
        -f32::from_bits(1),
        f32::MAX,
        f32::MIN,
        1.0,
        -1.0,
        std::f32::consts::LN_2,
        88.72283,
        88.72284,
        -87.33654,
        -103.97208,
        -103.97209,
        -149.0,
        708.0,
        -708.0,
        709.0,
        -746.0,
        1.0e-9,
        -1.0e-9,
    ];
    // The reduction thresholds of msun exp (0.5 ln2, 1.5 ln2, 2^-28) and their neighbours.
    for t in [0.346_573_6_f32, 1.039_720_8, 3.725_290_3e-9] {
        for d in -3i32..=3 {
            let x = f32::from_bits((t.to_bits() as i32 + d) as u32);
            v.push(x);
            v.push(-x);
        }
    }
    v
}

/// `exp`, `log`, `log2` and `log10` of every `stride`-th float bit pattern (and the specials) on the JIT's
/// vector loop, against devlib's scalar functions bit for bit.
#[test]
fn vector_exp_and_logs_are_bit_identical_to_devlib() {
    let src = r#"
    __kernel void k(__global const float *in, __global float *e, __global float *l,
                    __global float *ne, __global float *hl, __global float *l2,
                    __global float *l10, __global float *nl2) {
        int i = get_global_id(0);
        float x = in[i];
        e[i] = exp(x);
        l[i] = log(x);
        ne[i] = native_exp(x);
        hl[i] = half_log(x);
        l2[i] = log2(x);
        l10[i] = log10(x);
        nl2[i] = native_log2(x);
    }
    "#;
    // A prime (every mantissa residue is visited); `OXCL_VEC_MATH_STRIDE` sets another (1:
    // every float, for a long run by hand).
    let stride: u64 = std::env::var("OXCL_VEC_MATH_STRIDE")
        .ok()
        .and_then(|s| s.parse().ok())
        .filter(|&s| s > 0)
        .unwrap_or(4093);
    let count = (1u64 << 32).div_ceil(stride);
    // Runs of at most 4M inputs (a stride-1 sweep is a thousand of them).
    let chunk = 1u64 << 22;
    let mut start = 0;
    while start < count {
        let end = (start + chunk).min(count);
        let mut input: Vec<f32> = (start..end)
            .map(|i| f32::from_bits((i * stride) as u32))
            .collect();
        if start == 0 {
            input.extend(specials());
            // Dense where exp's result is a finite float, and where log's argument is typical.
            input.extend(floats(1 << 16, 21, -104.0, 89.0));
            input.extend(floats(1 << 16, 22, 0.0, 4.0));
        }
        check_vector_math(src, input);
        start = end;
    }
}

/// Runs `src` (one input, seven outputs) on `input` and compares with devlib bit for bit.
fn check_vector_math(src: &str, mut input: Vec<f32>) {
    while !input.len().is_multiple_of(256) {
        input.push(1.5);
    }
    let n = input.len();
    let mut args = vec![Arg::Buf(f32s(&input))];
    for _ in 0..7 {
        args.push(Arg::Buf(vec![0; 4 * n]));
    }
    let (st, bufs) = run(EngineKind::JitStrict, src, "k", &args, n, 256);
    st.expect("runs");
    let outs: Vec<Vec<f32>> = bufs[1..].iter().map(|b| to_f32s(b)).collect();
    for (i, &x) in input.iter().enumerate() {
        let e = devlib::math::f32::exp(x);
        let l = devlib::math::f32::log(x);
        let l2 = devlib::math::f32::log2(x);
        let l10 = devlib::math::f32::log10(x);
        for (k, want) in [(0, e), (1, l), (2, e), (3, l), (4, l2), (5, l10), (6, l2)] {
            let got = outs[k][i];
            assert_eq!(
                got.to_bits(),
                want.to_bits(),
                "output {k} of {x:e} ({:#010x}): {got:e} vs devlib {want:e}",
                x.to_bits()
            );
        }
    }
}

/// The vector forms against the interpreter in a kernel mixing them with a user function and
/// `float4` values (four `f32x4` per value), with a bound from the `f64` functions.
#[test]
fn vector_math_on_float4_and_in_called_functions() {
    let src = r#"
    float4 soft(float4 x) { return log(1.0f + exp(x)); }
    __kernel void k(__global const float4 *in, __global float4 *out) {
        int i = get_global_id(0);
        out[i] = soft(in[i]);
    }
    "#;
    let n = 130;
    let input = floats(4 * n, 9, -20.0, 20.0);
    let (st, bufs) = both(
        src,
        "k",
        &[Arg::Buf(f32s(&input)), Arg::Buf(vec![0; 16 * n])],
        n,
        65,
    );
    st.expect("runs");
    let out = to_f32s(&bufs[1]);
    for i in 0..4 * n {
        let x = f64::from(input[i]);
        let want = (1.0 + x.exp()).ln();
        assert!(
            (f64::from(out[i]) - want).abs() <= 4.0 * f64::from(f32::EPSILON) * want.max(1.0),
            "out[{i}] {} vs {want}",
            out[i]
        );
    }
}

/// Math without a vector form (`exp2`, `exp10`, `pow`, `sin`, `expm1`) stays per work-item
/// inside inlined functions: the engines agree, and the values are within a bound of `f64`.
#[test]
fn other_math_in_inlined_functions() {
    let src = r#"
    float f(float x) { return exp2(x) + exp10(0.1f * x) + pow(fabs(x) + 1.0f, 1.5f); }
    float g(float x) { return x < 0.0f ? sin(x) : expm1(0.5f * x); }
    __kernel void k(__global const float *in, __global float *out) {
        int i = get_global_id(0);
        out[i] = f(in[i]) - g(in[i]);
    }
    "#;
    let n = 262;
    let input = floats(n, 17, -8.0, 8.0);
    let (st, bufs) = both(
        src,
        "k",
        &[Arg::Buf(f32s(&input)), Arg::Buf(vec![0; 4 * n])],
        n,
        131,
    );
    st.expect("runs");
    let out = to_f32s(&bufs[1]);
    for i in 0..n {
        let x = f64::from(input[i]);
        let f = x.exp2() + 10f64.powf(0.1 * x) + (x.abs() + 1.0).powf(1.5);
        let g = if x < 0.0 { x.sin() } else { (0.5 * x).exp_m1() };
        let want = f - g;
        assert!(
            (f64::from(out[i]) - want).abs() <= 1e-5 * (f.abs() + g.abs() + 1.0),
            "out[{i}] {} vs {want}",
            out[i]
        );
    }
}
