//! Conversions: every pair of OpenCL scalar types (OpenCL C 2.0 §6.2.3), with the default
//! rounding, `_rte`, `_rtz`, `_rtp`, `_rtn` and, for integer destinations, `_sat`; and the
//! float ↔ half conversions of `vload_half`/`vstore_half` in the four rounding modes. The
//! references are exact: MPFR (`rug`) rounds the exact source value to the destination format in
//! the requested direction (subnormals and overflow handled here per IEEE 754), integer results
//! come from exact integer arithmetic (`rug::Integer`, `i128`).
//!
//! Compared with devlib: equal bit patterns, except NaN (any NaN) and what the specification
//! leaves open — out-of-range float → integer without `_sat` (numerical compliance
//! "Out-of-Range Conversions": implementation-defined), which is not compared.

use std::time::Instant;

use devlib::convert::{self, Rounding, ScalarKind};
use rug::float::Round;
use rug::{Float, Integer};

use crate::inputs::Rng;

/// Every scalar kind, in report order.
pub const KINDS: [ScalarKind; 11] = [
    ScalarKind::I8,
    ScalarKind::U8,
    ScalarKind::I16,
    ScalarKind::U16,
    ScalarKind::I32,
    ScalarKind::U32,
    ScalarKind::I64,
    ScalarKind::U64,
    ScalarKind::F16,
    ScalarKind::F32,
    ScalarKind::F64,
];

/// The rounding suffixes: none (the default), `_rte`, `_rtz`, `_rtp`, `_rtn`.
const ROUNDINGS: [Option<Rounding>; 5] = [
    None,
    Some(Rounding::Rte),
    Some(Rounding::Rtz),
    Some(Rounding::Rtp),
    Some(Rounding::Rtn),
];

/// OpenCL C name of a scalar kind.
pub fn kind_name(kind: ScalarKind) -> &'static str {
    match kind {
        ScalarKind::I8 => "char",
        ScalarKind::U8 => "uchar",
        ScalarKind::I16 => "short",
        ScalarKind::U16 => "ushort",
        ScalarKind::I32 => "int",
        ScalarKind::U32 => "uint",
        ScalarKind::I64 => "long",
        ScalarKind::U64 => "ulong",
        ScalarKind::F16 => "half",
        ScalarKind::F32 => "float",
        ScalarKind::F64 => "double",
    }
}

fn suffix(rounding: Option<Rounding>, saturate: bool) -> String {
    let r = match rounding {
        None => "",
        Some(Rounding::Rte) => "_rte",
        Some(Rounding::Rtz) => "_rtz",
        Some(Rounding::Rtp) => "_rtp",
        Some(Rounding::Rtn) => "_rtn",
    };
    format!("{}{r}", if saturate { "_sat" } else { "" })
}

/// Random inputs per source type for `samples` random inputs per math function (conversions
/// are cheap per call but there are 11 × 11 pairs in 5–10 modes each).
pub fn samples_for(samples: usize) -> usize {
    (samples / 10).max(100)
}

/// The result of checking one source → destination pair in every mode.
#[derive(Clone, Debug)]
pub struct ConversionReport {
    /// `convert_<to>(<from>)` or `vstore_half(<from>)`.
    pub name: String,
    pub tried: u64,
    pub failures: u64,
    /// The first failure: the call (with its suffix), the input and what was wrong.
    pub first_failure: Option<String>,
    pub seconds: f64,
}

impl ConversionReport {
    pub fn passed(&self) -> bool {
        self.failures == 0
    }
}

/// The exact value of a bit pattern of `kind`: `None` for NaN, `Err(sign)` for ±∞.
enum Exact {
    Nan,
    Inf(bool),
    Value(Float),
}

/// Precision holding every value of every scalar type exactly (64-bit integers, 53-bit floats;
/// MPFR exponents are unbounded here).
const EXACT_PREC: u32 = 128;

fn exact_value(bits: u64, kind: ScalarKind) -> Exact {
    let f = match kind {
        ScalarKind::F16 => half::f16::from_bits(bits as u16).to_f64(),
        ScalarKind::F32 => f64::from(f32::from_bits(bits as u32)),
        ScalarKind::F64 => f64::from_bits(bits),
        _ => return Exact::Value(Float::with_val(EXACT_PREC, int_value(bits, kind))),
    };
    if f.is_nan() {
        Exact::Nan
    } else if f.is_infinite() {
        Exact::Inf(f < 0.0)
    } else {
        Exact::Value(Float::with_val(EXACT_PREC, f))
    }
}

/// The integer value of an integer bit pattern (sign-extended for signed kinds).
fn int_value(bits: u64, kind: ScalarKind) -> i128 {
    let width = kind.bits();
    let masked = if width == 64 {
        bits
    } else {
        bits & ((1u64 << width) - 1)
    };
    if kind.is_signed_int() && masked >> (width - 1) & 1 == 1 {
        i128::from(masked) - (1i128 << width)
    } else {
        i128::from(masked)
    }
}

fn round_of(mode: Rounding) -> Round {
    match mode {
        Rounding::Rte => Round::Nearest,
        Rounding::Rtz => Round::Zero,
        Rounding::Rtp => Round::Up,
        Rounding::Rtn => Round::Down,
    }
}

/// (precision, exponent of the smallest normal, largest finite) of a float kind.
fn format_of(kind: ScalarKind) -> (u32, i32, f64) {
    match kind {
        ScalarKind::F16 => (11, -14, 65504.0),
        ScalarKind::F32 => (24, -126, f64::from(f32::MAX)),
        _ => (53, -1022, f64::MAX),
    }
}

/// `v` (exact, finite) rounded to the float format of `kind` in direction `mode`, as an `f64`
/// (which holds every value of every format exactly); ±∞ on overflow where IEEE 754 says so.
fn round_to_float(v: &Float, kind: ScalarKind, mode: Rounding) -> f64 {
    let (prec, emin, max) = format_of(kind);
    let negative = v.is_sign_negative();
    let subnormal_limit = Float::with_val(EXACT_PREC, Float::i_exp(1, emin));
    let r = if v.clone().abs() < subnormal_limit {
        // Fixed quantum 2^(emin - prec + 1): round v / quantum to an integer.
        let shift = prec as i32 - 1 - emin;
        let scaled = Float::with_val(EXACT_PREC, v << shift);
        let (k, _) = scaled
            .to_integer_round(round_of(mode))
            .unwrap_or((Integer::new(), core::cmp::Ordering::Equal));
        let k = Float::with_val(EXACT_PREC, k) >> shift;
        k.to_f64()
    } else {
        let (r, _) = Float::with_val_round(prec, v, round_of(mode));
        r.to_f64()
    };
    let r = if r == 0.0 && negative { -0.0 } else { r };
    if r.abs() > max || r.is_infinite() {
        // Overflow: ±∞ when rounding away from zero or to nearest, else the largest finite.
        let to_inf = match mode {
            Rounding::Rte => true,
            Rounding::Rtz => false,
            Rounding::Rtp => !negative,
            Rounding::Rtn => negative,
        };
        let mag = if to_inf { f64::INFINITY } else { max };
        return if negative { -mag } else { mag };
    }
    r
}

fn float_bits(x: f64, kind: ScalarKind) -> u64 {
    match kind {
        ScalarKind::F16 => u64::from(half::f16::from_f64(x).to_bits()),
        ScalarKind::F32 => u64::from((x as f32).to_bits()),
        _ => x.to_bits(),
    }
}

fn is_nan_bits(bits: u64, kind: ScalarKind) -> bool {
    match kind {
        ScalarKind::F16 => half::f16::from_bits(bits as u16).is_nan(),
        ScalarKind::F32 => f32::from_bits(bits as u32).is_nan(),
        ScalarKind::F64 => f64::from_bits(bits).is_nan(),
        _ => false,
    }
}

fn int_range(kind: ScalarKind) -> (i128, i128) {
    let bits = kind.bits();
    if kind.is_signed_int() {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    }
}

fn int_bits(v: i128, kind: ScalarKind) -> u64 {
    let width = kind.bits();
    let low = v as u64; // two's complement low 64 bits
    if width == 64 {
        low
    } else {
        low & ((1u64 << width) - 1)
    }
}

/// What the conversion must return: exact bits, any NaN, or anything (unspecified).
#[derive(Debug, PartialEq)]
enum Expected {
    Bits(u64),
    AnyNan,
    Unspecified,
}

/// The reference result (OpenCL C 2.0 §6.2.3.2–6.2.3.3; 002 "Rounding Modes for Conversions",
/// "Out-of-Range Conversions").
fn expected(
    bits: u64,
    from: ScalarKind,
    to: ScalarKind,
    rounding: Option<Rounding>,
    saturate: bool,
) -> Expected {
    let value = exact_value(bits, from);
    if to.is_float() {
        // Default rounding to a float type: round to nearest even.
        let mode = rounding.unwrap_or(Rounding::Rte);
        return match value {
            Exact::Nan => Expected::AnyNan,
            Exact::Inf(neg) => Expected::Bits(float_bits(
                if neg {
                    f64::NEG_INFINITY
                } else {
                    f64::INFINITY
                },
                to,
            )),
            Exact::Value(v) => Expected::Bits(float_bits(round_to_float(&v, to, mode), to)),
        };
    }
    let (min, max) = int_range(to);
    if !from.is_float() {
        let v = int_value(bits, from);
        // §6.2.3.3: _sat clamps; otherwise C99 conversion (modular for the low bits).
        return Expected::Bits(int_bits(if saturate { v.clamp(min, max) } else { v }, to));
    }
    // Float → integer: default rounding toward zero.
    let mode = rounding.unwrap_or(Rounding::Rtz);
    let integer = match value {
        Exact::Nan => {
            // §6.2.3.3: NaN converts to 0 with _sat; unspecified without.
            return if saturate {
                Expected::Bits(0)
            } else {
                Expected::Unspecified
            };
        }
        Exact::Inf(neg) => {
            if neg {
                min - 1
            } else {
                max + 1
            }
        }
        Exact::Value(v) => match v.to_integer_round(round_of(mode)) {
            Some((i, _)) => i.to_i128().unwrap_or(if v.is_sign_negative() {
                min - 1
            } else {
                max + 1
            }),
            None => return Expected::Unspecified,
        },
    };
    if integer < min || integer > max {
        return if saturate {
            Expected::Bits(int_bits(integer.clamp(min, max), to))
        } else {
            Expected::Unspecified // 002 "Out-of-Range Conversions": implementation-defined
        };
    }
    Expected::Bits(int_bits(integer, to))
}

/// Inputs for a source kind: edge values of every destination (each with neighbours), special
/// values, and `samples` random bit patterns.
fn inputs(from: ScalarKind, samples: usize, rng: &mut Rng) -> Vec<u64> {
    let mut out: Vec<u64> = Vec::new();
    let width = from.bits();
    let mask = if width == 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    };
    if from.is_float() {
        let mut values: Vec<f64> = vec![
            0.0,
            1.0,
            0.5,
            1.5,
            2.5,
            0.49999999999999994,
            f64::INFINITY,
            f64::NAN,
            f64::MIN_POSITIVE,
            f64::MAX,
            5e-324,
            f64::from(f32::MIN_POSITIVE),
            f64::from(f32::MAX),
            1.401298464324817e-45,
            65504.0,
            65520.0,
            6.103515625e-05,
            5.960464477539063e-08,
            2.9802322387695312e-08,
        ];
        // Integer range limits of every destination, ±0.5 and ±1 around them.
        for k in KINDS.iter().filter(|k| !k.is_float()) {
            let (min, max) = int_range(*k);
            for b in [min as f64, max as f64] {
                values.extend([b, b + 1.0, b - 1.0, b + 0.5, b - 0.5]);
            }
        }
        for v in values {
            for s in [v, -v] {
                let b = float_bits(s, from);
                out.extend([b, b.wrapping_add(1) & mask, b.wrapping_sub(1) & mask]);
            }
        }
    } else {
        for k in KINDS {
            if k.is_float() {
                // Where integers stop being exact in each float format, and its neighbours.
                let (prec, _, _) = format_of(k);
                for p in [prec, prec + 1, prec + 2] {
                    if p < width {
                        let b = 1u64 << p;
                        out.extend([b, b + 1, b - 1, b + 2, b + 3]);
                    }
                }
            } else {
                let (min, max) = int_range(k);
                for v in [min, max, min + 1, max - 1, 0, 1, -1] {
                    out.push(int_bits(v, from));
                }
            }
        }
    }
    for _ in 0..samples {
        let r = rng.next_u64();
        // Half the samples in the low range of magnitudes, where roundings differ most often.
        let b = if out.len() & 1 == 0 {
            r
        } else {
            r >> (r % u64::from(width))
        };
        out.push(b & mask);
    }
    for b in &mut out {
        *b &= mask;
    }
    out
}

fn describe(bits: u64, kind: ScalarKind) -> String {
    match kind {
        ScalarKind::F16 => format!("{:e}", half::f16::from_bits(bits as u16).to_f64()),
        ScalarKind::F32 => format!("{:e}", f32::from_bits(bits as u32)),
        ScalarKind::F64 => format!("{:e}", f64::from_bits(bits)),
        _ => format!("{}", int_value(bits, kind)),
    }
}

/// Checks one call against its reference; `Some(message)` when wrong.
fn check_one(
    name: &str,
    bits: u64,
    from: ScalarKind,
    to: ScalarKind,
    got: u64,
    want: Expected,
) -> Option<String> {
    let ok = match want {
        Expected::Unspecified => true,
        Expected::AnyNan => is_nan_bits(got, to),
        Expected::Bits(b) => got == b,
    };
    (!ok).then(|| {
        format!(
            "{name}({}) = {}, expected {}",
            describe(bits, from),
            describe(got, to),
            match want {
                Expected::Bits(b) => describe(b, to),
                _ => "NaN".to_string(),
            }
        )
    })
}

/// Checks `convert_<to>[_sat][_rounding](<from>)` for every pair of scalar types, and the
/// `vstore_half` conversions (float and double to half in the four rounding modes).
pub fn check_conversions(samples: usize, seed: u64) -> Vec<ConversionReport> {
    let mut reports = Vec::new();
    for from in KINDS {
        let mut rng = Rng::new(seed ^ u64::from(from.bits()) ^ (from as u64) << 8);
        let xs = inputs(from, samples, &mut rng);
        for to in KINDS {
            let start = Instant::now();
            let mut report = ConversionReport {
                name: format!("convert_{}({})", kind_name(to), kind_name(from)),
                tried: 0,
                failures: 0,
                first_failure: None,
                seconds: 0.0,
            };
            for rounding in ROUNDINGS {
                // §6.2.3.3: _sat applies to integer destinations only.
                for saturate in [false, true] {
                    if saturate && to.is_float() {
                        continue;
                    }
                    let call = format!("convert_{}{}", kind_name(to), suffix(rounding, saturate));
                    for &b in &xs {
                        let got = convert::convert(b, from, to, rounding, saturate);
                        let want = expected(b, from, to, rounding, saturate);
                        report.tried += 1;
                        if let Some(m) = check_one(&call, b, from, to, got, want) {
                            report.failures += 1;
                            report.first_failure.get_or_insert(m);
                        }
                    }
                }
            }
            report.seconds = start.elapsed().as_secs_f64();
            reports.push(report);
        }
        // vstore_half{,_rte,_rtz,_rtp,_rtn} from float and double.
        if matches!(from, ScalarKind::F32 | ScalarKind::F64) {
            let start = Instant::now();
            let mut report = ConversionReport {
                name: format!("vstore_half({})", kind_name(from)),
                tried: 0,
                failures: 0,
                first_failure: None,
                seconds: 0.0,
            };
            for rounding in ROUNDINGS {
                let call = format!("vstore_half{}", suffix(rounding, false));
                for &b in &xs {
                    let got = u64::from(if from == ScalarKind::F32 {
                        convert::vstore_half_f32(f32::from_bits(b as u32), rounding)
                    } else {
                        convert::vstore_half_f64(f64::from_bits(b), rounding)
                    });
                    let want = expected(b, from, ScalarKind::F16, rounding, false);
                    report.tried += 1;
                    if let Some(m) = check_one(&call, b, from, ScalarKind::F16, got, want) {
                        report.failures += 1;
                        report.first_failure.get_or_insert(m);
                    }
                }
            }
            report.seconds = start.elapsed().as_secs_f64();
            reports.push(report);
        }
    }
    // vload_half: every half bit pattern to float, exactly.
    let start = Instant::now();
    let mut report = ConversionReport {
        name: "vload_half".to_string(),
        tried: 0,
        failures: 0,
        first_failure: None,
        seconds: 0.0,
    };
    for h in 0..=u16::MAX {
        let got = u64::from(convert::vload_half(h).to_bits());
        let want = expected(u64::from(h), ScalarKind::F16, ScalarKind::F32, None, false);
        report.tried += 1;
        if let Some(m) = check_one(
            "vload_half",
            u64::from(h),
            ScalarKind::F16,
            ScalarKind::F32,
            got,
            want,
        ) {
            report.failures += 1;
            report.first_failure.get_or_insert(m);
        }
    }
    report.seconds = start.elapsed().as_secs_f64();
    reports.push(report);
    reports
}

/// The conversion results as a table.
pub fn table(reports: &[ConversionReport]) -> String {
    let mut s = format!(
        "{:<26} {:>8} {:>8}  result\n",
        "conversion", "tried", "wrong"
    );
    for r in reports {
        s.push_str(&format!(
            "{:<26} {:>8} {:>8}  {}\n",
            r.name,
            r.tried,
            r.failures,
            match &r.first_failure {
                None => "pass".to_string(),
                Some(m) => format!("FAIL: {m}"),
            }
        ));
    }
    let failed = reports.iter().filter(|r| !r.passed()).count();
    s.push_str(&format!(
        "{} conversions passed, {failed} failed\n",
        reports.len() - failed
    ));
    s
}

/// The conversion results as JSON.
pub fn json(reports: &[ConversionReport]) -> serde_json::Value {
    let rows: Vec<serde_json::Value> = reports
        .iter()
        .map(|r| {
            serde_json::json!({
                "conversion": r.name,
                "inputs_tried": r.tried,
                "failures": r.failures,
                "first_failure": r.first_failure,
                "seconds": r.seconds,
                "pass": r.passed(),
            })
        })
        .collect();
    serde_json::Value::Array(rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ScalarKind::*;

    fn f32b(x: f32) -> u64 {
        u64::from(x.to_bits())
    }

    #[test]
    fn hand_computed_references() {
        let r = |b, from, to, mode, sat| expected(b, from, to, mode, sat);
        // Float → integer: default toward zero, directed modes, _sat.
        assert_eq!(r(f32b(1.5), F32, I32, None, false), Expected::Bits(1));
        assert_eq!(
            r(f32b(1.5), F32, I32, Some(Rounding::Rtp), false),
            Expected::Bits(2)
        );
        assert_eq!(
            r(f32b(2.5), F32, I32, Some(Rounding::Rte), false),
            Expected::Bits(2)
        );
        assert_eq!(r(f32b(-1.5), F32, I8, None, false), Expected::Bits(0xff));
        assert_eq!(
            r(f32b(-1.5), F32, I8, Some(Rounding::Rtn), false),
            Expected::Bits(0xfe)
        );
        assert_eq!(r(f32b(300.0), F32, U8, None, true), Expected::Bits(255));
        assert_eq!(r(f32b(300.0), F32, U8, None, false), Expected::Unspecified);
        assert_eq!(r(f32b(f32::NAN), F32, I32, None, true), Expected::Bits(0));
        // Integer → integer: _sat clamps, otherwise the low bits.
        assert_eq!(r(300, I32, U8, None, true), Expected::Bits(255));
        assert_eq!(r(300, I32, U8, None, false), Expected::Bits(44));
        assert_eq!(r(0xffff_ffff, I32, U16, None, true), Expected::Bits(0));
        // Integer → float: 2^24 + 1 is between two floats.
        let odd = (1u64 << 24) + 1;
        assert_eq!(
            r(odd, I32, F32, None, false),
            Expected::Bits(f32b(16777216.0))
        );
        assert_eq!(
            r(odd, I32, F32, Some(Rounding::Rtp), false),
            Expected::Bits(f32b(16777218.0))
        );
        // Float → half: 65520 is the midpoint above 65504 (ties to even → ∞).
        let h = |x: f64| u64::from(half::f16::from_f64(x).to_bits());
        assert_eq!(
            r(f32b(65520.0), F32, F16, None, false),
            Expected::Bits(h(f64::INFINITY))
        );
        assert_eq!(
            r(f32b(65520.0), F32, F16, Some(Rounding::Rtz), false),
            Expected::Bits(h(65504.0))
        );
        // The smallest half subnormal is 2^-24; 2^-26 rounds up to it only toward +∞.
        let tiny = f32b(2f32.powi(-26));
        assert_eq!(
            r(tiny, F32, F16, Some(Rounding::Rtp), false),
            Expected::Bits(h(2f64.powi(-24)))
        );
        assert_eq!(r(tiny, F32, F16, None, false), Expected::Bits(h(0.0)));
    }

    #[test]
    fn a_wrong_result_is_reported() {
        let m = check_one("convert_int", f32b(1.5), F32, I32, 2, Expected::Bits(1));
        assert_eq!(m.as_deref(), Some("convert_int(1.5e0) = 2, expected 1"));
    }
}
