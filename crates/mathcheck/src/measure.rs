//! Comparing one result with its MPFR reference: the error in ulps (002 "Relative Error as
//! ULPs", the same definition as `devlib::ulp`, computed here against the high-precision value
//! rather than an `f64`), and the edge-case rules of 002 "Edge Case Behavior" that allow no
//! error at all (NaN, ±∞ and ±0 results, exact results prescribed by C99 F.9).

use rug::Float;

use crate::kind::Kind;
use crate::reference::{IntCheck, RefValue, Reference};
use crate::subject::{Input, Output, Shape};

/// The outcome of comparing one call.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    /// The largest error of the real results, in ulps (+∞ for a NaN/∞ mismatch).
    pub error: f64,
    /// Why the result breaks an exact edge-case rule, if it does.
    pub special: Option<String>,
}

/// ulp(r) of 002 in the format `kind`: 2^(e - mantissa bits) with e the exponent of |r| clamped
/// to the normal range, so subnormal and zero references use the subnormal spacing and values
/// beyond the largest finite value the spacing at the top.
fn ulp_exponent(kind: Kind, r: &Float) -> i32 {
    let emin = 1 - kind.bias();
    let emax = kind.bias();
    let e = match r.get_exp() {
        Some(e) => e - 1,
        None => emin,
    };
    e.clamp(emin, emax) - kind.mant_bits() as i32
}

/// ulp(r) of 002 in the format `kind`, as a number.
pub fn ulp_of(kind: Kind, r: &Float) -> f64 {
    2f64.powi(ulp_exponent(kind, r))
}

/// |got − r| in ulps of `kind` at the real value `r`. Special values: 0 when both are NaN or
/// when `got` is the infinity that `r` correctly rounds to; any other NaN or ∞ mismatch is +∞.
pub fn ulp_error(kind: Kind, got: f64, r: &Float) -> f64 {
    if got.is_nan() || r.is_nan() {
        return if got.is_nan() && r.is_nan() {
            0.0
        } else {
            f64::INFINITY
        };
    }
    if r.is_infinite() {
        return if got.is_infinite() && got.is_sign_negative() == r.is_sign_negative() {
            0.0
        } else {
            f64::INFINITY
        };
    }
    if got.is_infinite() {
        let rounded = kind.round_mp(r);
        return if rounded == got { 0.0 } else { f64::INFINITY };
    }
    let diff = Float::with_val(64, r - got);
    let scaled = Float::with_val(64, diff.abs() >> ulp_exponent(kind, r));
    scaled.to_f64()
}

/// The pre-screen of the exhaustive mode for `half`/`float`: the error of `got` for the
/// argument `x` judged from an `f64` approximation `r` of the real value, or `None` where the
/// `f64` cannot decide and MPFR must (special arguments, NaN/∞/zero mismatches, `double`).
pub fn prescreen_error(kind: Kind, x: f64, got: f64, r: f64) -> Option<f64> {
    if kind == Kind::Double || x == 0.0 || !x.is_finite() {
        return None;
    }
    if got.is_nan() || r.is_nan() {
        return (got.is_nan() && r.is_nan()).then_some(0.0);
    }
    if got.is_infinite() && r.is_finite() {
        // ∞ is correctly rounded beyond the largest value plus half an ulp there (with a
        // margin of 2^-30 relative for the f64 error).
        let boundary = kind.max_finite() + 2f64.powi(kind.bias() - kind.mant_bits() as i32 - 1);
        let beyond = r.abs() > boundary * (1.0 + 2f64.powi(-30));
        return (beyond && got.is_sign_negative() == r.is_sign_negative()).then_some(0.0);
    }
    if got.is_infinite() || r.is_infinite() {
        // An f64 overflow is far beyond the largest half/float value: ∞ is then correct.
        return (got == r).then_some(0.0);
    }
    if r == 0.0 {
        // An f64 underflow, or an exact zero whose sign 002 prescribes (sinpi(-2) = -0): the
        // f64 functions give both signs right, so a zero of the same sign is correct.
        let same_zero = got == 0.0 && got.is_sign_negative() == r.is_sign_negative();
        return same_zero.then_some(0.0);
    }
    if got == 0.0 && got.is_sign_negative() != r.is_sign_negative() {
        return None;
    }
    let biased = ((r.to_bits() >> 52) & 0x7ff) as i32;
    // Just above a power of two the real value may lie below it, where the ulp is half as
    // large: measure with the smaller ulp there, which can only overstate the error. f64
    // subnormals are far below every half/float value and take the bottom exponent.
    let mantissa = r.to_bits() & ((1u64 << 52) - 1);
    let near_above = mantissa < 1u64 << 13;
    let e = if biased == 0 {
        -1023
    } else {
        biased - 1023 - i32::from(near_above)
    };
    let exponent = e.clamp(1 - kind.bias(), kind.bias()) - kind.mant_bits() as i32;
    Some((got - r).abs() * 2f64.powi(-exponent))
}

fn same_value(a: f64, b: f64) -> bool {
    (a.is_nan() && b.is_nan()) || a.to_bits() == b.to_bits()
}

fn describe(value: f64) -> String {
    if value.is_nan() {
        "NaN".to_string()
    } else if value == 0.0 {
        if value.is_sign_negative() { "-0" } else { "+0" }.to_string()
    } else {
        format!("{value:e}")
    }
}

/// Whether 002 prescribes an exact result when the reference is exact: the arguments include
/// ±0, ±∞ or NaN, or a power function has base ±1 (C99 F.9.4.4: pow(+1, y) = 1, pow(-1, ±∞) = 1).
fn prescribes_exact(name: &str, shape: Shape, input: &Input) -> bool {
    let args = &input.x[..shape.real_args()];
    if args.iter().any(|a| *a == 0.0 || !a.is_finite()) {
        return true;
    }
    let base = crate::reference::base_name(name);
    matches!(base, "pow" | "powr" | "pown" | "rootn") && input.x[0].abs() == 1.0
}

/// The edge-case rule a real result breaks, if any.
fn special_rule(kind: Kind, got: f64, r: &RefValue, prescribed: bool) -> Option<String> {
    let v = &r.value;
    if v.is_nan() != got.is_nan() {
        return Some(format!(
            "expected {}, got {}",
            if v.is_nan() {
                "NaN".to_string()
            } else {
                describe(kind.round_mp(v))
            },
            describe(got)
        ));
    }
    if v.is_infinite() && !same_value(got, kind.round_mp(v)) {
        return Some(format!(
            "expected {}, got {}",
            describe(kind.round_mp(v)),
            describe(got)
        ));
    }
    if v.is_zero() && !same_value(got, kind.round_mp(v)) {
        return Some(format!(
            "expected {}, got {}",
            describe(kind.round_mp(v)),
            describe(got)
        ));
    }
    if prescribed && r.exact && !v.is_nan() {
        let rounded = kind.round_mp(v);
        if *v == rounded && !same_value(got, rounded) {
            return Some(format!(
                "expected exactly {}, got {}",
                describe(rounded),
                describe(got)
            ));
        }
    }
    None
}

/// Compares the output of one call of `name` with its reference.
pub fn compare(
    kind: Kind,
    name: &str,
    shape: Shape,
    input: &Input,
    got: &Output,
    reference: &Reference,
) -> Verdict {
    let prescribed = prescribes_exact(name, shape, input);
    let mut error: f64 = 0.0;
    let mut special = None;
    for (i, r) in reference
        .values
        .iter()
        .enumerate()
        .take(shape.real_results())
    {
        let g = got.v[i];
        if i == 0 && reference.alternatives.iter().any(|a| same_value(*a, g)) {
            continue;
        }
        error = error.max(ulp_error(kind, g, &r.value));
        if special.is_none() {
            special = special_rule(kind, g, r, prescribed).map(|s| {
                if i == 0 {
                    s
                } else {
                    format!("result {}: {s}", i + 1)
                }
            });
        }
    }
    match reference.int {
        IntCheck::Any => {}
        IntCheck::Exact(k) => {
            if got.k != k && special.is_none() {
                special = Some(format!("integer result: expected {k}, got {}", got.k));
            }
        }
        IntCheck::Quotient(q) => {
            // OpenCL C 2.0 §6.13.2 remquo: the sign of x/y and at least its seven low bits.
            let low = |v: i32| v.unsigned_abs() & 0x7f;
            let sign_ok = q == 0 || got.k == 0 && low(q) == 0 || got.k.signum() == q.signum();
            if (low(got.k) != low(q) || !sign_ok) && special.is_none() {
                special = Some(format!("quotient: expected {q} (mod 128), got {}", got.k));
            }
        }
    }
    Verdict { error, special }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_match_devlib_ulp_definition() {
        // A Rust reference: devlib's f64-based definition agrees where the f64 is exact.
        for (got, r) in [
            (1.0f32, 1.0000001f64),
            (3.0, 2.9999999),
            (1e-45, 0.0),
            (0.0, 1e-45),
            (16777216.0, 16777215.0),
        ] {
            let ours = ulp_error(Kind::Float, f64::from(got), &Float::with_val(53, r));
            let devlib = devlib::ulp::ulp_error::<f32>(got, r);
            assert!(
                (ours - devlib).abs() < 1e-9,
                "{got} vs {r}: {ours} != {devlib}"
            );
        }
    }

    #[test]
    fn hand_computed_errors() {
        // 1 + 2^-23 against 1: one float ulp. Against 1 - 2^-25 (below the power of two, where
        // the float spacing is 2^-24): (2^-23 + 2^-25) / 2^-24 = 2.5 ulp.
        assert_eq!(
            ulp_error(Kind::Float, 1.0 + 2f64.powi(-23), &Float::with_val(53, 1.0)),
            1.0
        );
        assert_eq!(
            ulp_error(
                Kind::Float,
                1.0 + 2f64.powi(-23),
                &Float::with_val(53, 1.0 - 2f64.powi(-25))
            ),
            2.5
        );
        // Half: spacing at 1 is 2^-10.
        assert_eq!(
            ulp_error(Kind::Half, 1.0, &Float::with_val(53, 1.0 + 2f64.powi(-12))),
            0.25
        );
        // Overflow: +inf for a reference beyond the rounding threshold is exact.
        assert_eq!(
            ulp_error(Kind::Half, f64::INFINITY, &Float::with_val(53, 65520.0)),
            0.0
        );
        assert_eq!(
            ulp_error(Kind::Half, f64::INFINITY, &Float::with_val(53, 65519.0)),
            f64::INFINITY
        );
        assert_eq!(
            ulp_error(Kind::Half, f64::NAN, &Float::with_val(53, 1.0)),
            f64::INFINITY
        );
    }

    #[test]
    fn prescreen_is_conservative() {
        // Hand computed: float ulp at 1.5 is 2^-23.
        assert_eq!(
            prescreen_error(Kind::Float, 0.3, 1.5, 1.5 + 2f64.powi(-25)),
            Some(0.25)
        );
        // Just above 1 the estimate uses the ulp below 1 (2^-24).
        assert_eq!(
            prescreen_error(Kind::Float, 0.3, 1.0, 1.0 + 2f64.powi(-40)),
            Some(2f64.powi(-16))
        );
        assert_eq!(prescreen_error(Kind::Float, 0.0, 1.0, 1.0), None);
        assert_eq!(prescreen_error(Kind::Float, -2.0, 0.0, -0.0), None);
        assert_eq!(prescreen_error(Kind::Float, -200.5, 0.0, 0.0), Some(0.0));
        assert_eq!(prescreen_error(Kind::Float, -200.5, -0.0, 0.0), None);
        assert_eq!(
            prescreen_error(Kind::Float, 100.0, f64::INFINITY, f64::INFINITY),
            Some(0.0)
        );
        assert_eq!(
            prescreen_error(Kind::Float, 100.0, 3.4028234663852886e38, f64::INFINITY),
            None
        );
        // Float overflow threshold: 2^128 (1 - 2^-25).
        assert_eq!(
            prescreen_error(Kind::Float, 100.0, f64::INFINITY, 1e39),
            Some(0.0)
        );
        assert_eq!(
            prescreen_error(Kind::Float, 100.0, f64::INFINITY, -1e39),
            None
        );
        assert_eq!(
            prescreen_error(Kind::Float, 100.0, f64::INFINITY, 3.4028235e38),
            None
        );
        assert_eq!(
            prescreen_error(Kind::Float, -1.5, f64::NAN, f64::NAN),
            Some(0.0)
        );
        assert_eq!(prescreen_error(Kind::Float, -1.5, 1.0, f64::NAN), None);
    }

    #[test]
    fn zero_sign_is_an_edge_case() {
        let r = Reference {
            values: vec![RefValue {
                value: Float::with_val(53, -0.0),
                exact: true,
            }],
            int: IntCheck::Any,
            alternatives: Vec::new(),
        };
        let input = Input {
            x: [-0.0, 0.0, 0.0],
            n: 0,
        };
        let bad = compare(
            Kind::Float,
            "sin",
            Shape::Unary,
            &input,
            &Output {
                v: [0.0, 0.0],
                k: 0,
            },
            &r,
        );
        assert_eq!(bad.error, 0.0);
        assert!(bad.special.is_some());
        let good = compare(
            Kind::Float,
            "sin",
            Shape::Unary,
            &input,
            &Output {
                v: [-0.0, 0.0],
                k: 0,
            },
            &r,
        );
        assert_eq!(good.special, None);
    }
}
