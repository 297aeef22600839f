//! The fast path of the exhaustive `float` sweeps: each result is first judged against an
//! `f64` estimate of the real value (glibc's `double` functions, see [`crate::glibc`], or the
//! exact value where `f64` computes it exactly: floor, frexp, fract, ilogb, the predicates, …).
//! The estimate decides an input only where its error in ulps is clear of 0.5 by
//! [`MARGIN`] (so the count of misrounded inputs is exact) and no special rule applies;
//! everything else (±0, ±∞ and NaN arguments, results near 0.5 ulp or near a power of two,
//! wrong integer results, zero-sign questions) is decided by MPFR. No allocation, no MPFR call
//! and no `powi` on the fast path.

use crate::glibc;
use crate::kind::Kind;
use crate::reference::base_name;
use crate::subject::{Output, Shape};

/// An `f64` estimate of one call's results: up to two real values and, when the function has
/// one, the integer result it must give exactly.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Estimate {
    pub values: [f64; 2],
    pub count: usize,
    pub int: Option<i32>,
    /// The values are the exact real results (floor, fract, frexp, …): errors are then exact,
    /// also at 0.5 ulp and near powers of two.
    pub exact: bool,
}

impl Estimate {
    fn one(v: f64) -> Estimate {
        Estimate {
            values: [v, 0.0],
            count: 1,
            int: None,
            exact: false,
        }
    }
    fn two(a: f64, b: f64) -> Estimate {
        Estimate {
            values: [a, b],
            count: 2,
            int: None,
            exact: false,
        }
    }
    fn with_int(v: f64, k: i32) -> Estimate {
        Estimate {
            values: [v, 0.0],
            count: 1,
            int: Some(k),
            exact: false,
        }
    }
    fn int(k: i32) -> Estimate {
        Estimate {
            values: [0.0; 2],
            count: 0,
            int: Some(k),
            exact: true,
        }
    }
    fn exact(self) -> Estimate {
        Estimate {
            exact: true,
            ..self
        }
    }
}

/// The estimator of one function (of `float` arguments widened to `f64`).
pub type Estimator = Box<dyn Fn(f64) -> Estimate + Send + Sync>;

/// How far from 0.5 ulp an estimated error must be to be trusted: glibc's `double` functions
/// are within a few ulps of `double` (2^-50 relative), far below 2^-16 `float` ulps.
pub const MARGIN: f64 = 1.0 / 65536.0;

/// The estimator of the `float` function `name` of shape `shape`, if there is one.
pub fn estimator(kind: Kind, name: &str, shape: Shape) -> Option<Estimator> {
    if kind != Kind::Float {
        return None;
    }
    let base = base_name(name);
    match shape {
        Shape::Unary => {
            if let Some(f) = glibc::double_reference(base) {
                return Some(Box::new(move |x| Estimate::one(f(x))));
            }
            let f: fn(f64) -> f64 = match base {
                "degrees" => |x| x * (180.0 / core::f64::consts::PI),
                "radians" => |x| x * (core::f64::consts::PI / 180.0),
                // The relaxed run's `1.0 / x` (one division: within half an `f64` ulp).
                "recip" => |x| 1.0 / x,
                "logb" => return Some(Box::new(|x| Estimate::one(f64::from(exponent(x))).exact())),
                "sign" => return Some(Box::new(|x| Estimate::one(x.signum()).exact())),
                _ => return None,
            };
            Some(Box::new(move |x| Estimate::one(f(x))))
        }
        Shape::Pair => match base {
            "sincos" => Some(Box::new(|x| {
                let (s, c) = glibc::sin_cos(x);
                Estimate::two(s, c)
            })),
            "fract" => Some(Box::new(|x| {
                let floor = x.floor();
                // OpenCL C 2.0 §6.13.2: fmin(x - floor(x), 0x1.fffffep-1f).
                let below_one = f64::from(f32::from_bits(0x3f7f_ffff));
                let v = x - floor;
                // x - floor(x) is exact in f64 unless it rounds to 1 in float.
                Estimate::two(if (v as f32) >= 1.0 { below_one } else { v }, floor).exact()
            })),
            "modf" => Some(Box::new(|x| {
                let ip = x.trunc();
                Estimate::two((x - ip).copysign(x), ip).exact()
            })),
            _ => None,
        },
        Shape::WithInt => match base {
            "frexp" => Some(Box::new(|x| {
                let e = exponent(x) + 1;
                Estimate::with_int(x * pow2(-e), e).exact()
            })),
            "lgamma_r" => Some(Box::new(|x| {
                let (v, sign) = glibc::lgamma_sign(x);
                // 002: the sign is 0 at the poles (zero and the negative integers).
                let sign = if x.trunc() == x && x <= 0.0 { 0 } else { sign };
                Estimate::with_int(v, sign)
            })),
            _ => None,
        },
        Shape::IntResult => {
            let f: fn(f64) -> i32 = match base {
                "ilogb" => exponent,
                // The nancode is the argument's bits; the result must be a quiet NaN.
                "nan" => |_| 1,
                "isfinite" => |x| i32::from(x.is_finite()),
                "isinf" => |x| i32::from(x.is_infinite()),
                "isnan" => |x| i32::from(x.is_nan()),
                "isnormal" => |x| i32::from(x.abs() >= f64::from(f32::MIN_POSITIVE)),
                "signbit" => |x| i32::from(x.is_sign_negative()),
                _ => return None,
            };
            Some(Box::new(move |x| Estimate::int(f(x))))
        }
        _ => None,
    }
}

/// The exponent e of a finite nonzero `x` (2^e ≤ |x| < 2^(e+1)); `float` subnormals are normal
/// in `f64`.
fn exponent(x: f64) -> i32 {
    ((x.to_bits() >> 52) & 0x7ff) as i32 - 1023
}

/// 2^e for -1022 ≤ e ≤ 1023, built from its bits.
fn pow2(e: i32) -> f64 {
    f64::from_bits(((e + 1023) as u64) << 52)
}

/// The error of `got` in ulps of `kind` against the estimate `r`, or `None` where `r` cannot
/// decide (a zero result of the wrong sign, NaN/∞ mismatches, errors of 0.5 ulp or more with `r`
/// within 2^-39 of a power of two, where the ulp changes). Errors are measured as [`crate::measure::ulp_error`] does.
pub fn estimate_error(kind: Kind, got: f64, r: f64, exact: bool) -> Option<f64> {
    if got.to_bits() == r.to_bits() {
        // Equal values (also equal NaN bit patterns and same-sign zeros and infinities).
        return Some(0.0);
    }
    if got.is_nan() || r.is_nan() {
        return (got.is_nan() && r.is_nan()).then_some(0.0);
    }
    if !got.is_finite() || !r.is_finite() || r == 0.0 {
        // Overflow and underflow decisions: the conservative pre-screen rules.
        return crate::measure::prescreen_error(kind, 1.0, got, r);
    }
    if got == 0.0 && got.is_sign_negative() != r.is_sign_negative() {
        return None;
    }
    let bits = r.to_bits();
    let mantissa = bits & ((1u64 << 52) - 1);
    let e = ((bits >> 52) & 0x7ff) as i32 - 1023;
    let ulp_exponent = |e: i32| e.clamp(1 - kind.bias(), kind.bias()) - kind.mant_bits() as i32;
    let difference = (got - r).abs();
    // Within 2^-39 of a power of two the real value may lie on either side of it, where the
    // ulps differ: the smaller ulp bounds the error from above, which decides small errors.
    let below = if exact {
        return Some(difference * pow2(-ulp_exponent(e)));
    } else if mantissa < 1 << 13 {
        e - 1
    } else if mantissa >= (1u64 << 52) - (1 << 13) {
        e
    } else {
        return Some(difference * pow2(-ulp_exponent(e)));
    };
    let upper = difference * pow2(-ulp_exponent(below));
    (upper < 0.5 - MARGIN).then_some(upper)
}

/// The error of `got` for the argument `x` judged from `estimate`, when the estimate decides it:
/// `x` finite and nonzero, the integer result right, every real result's error known and at
/// least [`MARGIN`] away from 0.5 ulp.
pub fn decide(kind: Kind, x: f64, got: &Output, estimate: &Estimate) -> Option<f64> {
    if x == 0.0 || !x.is_finite() {
        return None;
    }
    if let Some(k) = estimate.int {
        if got.k != k {
            return None;
        }
    }
    let mut error: f64 = 0.0;
    for i in 0..estimate.count {
        let value = estimate.values[i];
        error = error.max(estimate_error(kind, got.v[i], value, estimate.exact)?);
    }
    (estimate.exact || (error - 0.5).abs() >= MARGIN).then_some(error)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn out(v: f64) -> Output {
        Output { v: [v, 0.0], k: 0 }
    }

    #[test]
    fn errors_in_float_ulps() {
        let err = |got: f64, r: f64| estimate_error(Kind::Float, got, r, false);
        // Hand computed: the float ulp at 1.5 is 2^-23.
        assert_eq!(err(1.5, 1.5 + 2f64.powi(-25)), Some(0.25));
        assert_eq!(err(1.5, 1.5 - 3.0 * 2f64.powi(-23)), Some(3.0));
        // Subnormal results use the subnormal spacing 2^-149.
        assert_eq!(err(2f64.powi(-149), 1.5 * 2f64.powi(-150)), Some(0.25));
        // Near a power of two the ulp changes: small errors are bounded with the ulp below
        // it (2^-24 at 1), larger ones are left to MPFR.
        assert_eq!(err(1.0, 1.0 + 2f64.powi(-45)), Some(2f64.powi(-21)));
        assert_eq!(err(1.0, 1.0 - 2f64.powi(-48)), Some(2f64.powi(-24)));
        assert_eq!(err(1.0 + 2f64.powi(-23), 1.0 + 2f64.powi(-45)), None);
        assert_eq!(err(2.0, 2.0), Some(0.0));
        assert_eq!(err(-0.0, 1e-50), None);
        assert_eq!(err(f64::NAN, 1.0), None);
        // An exact value decides also at 0.5 ulp next to a power of two (ulp 2^-24 below 1).
        assert_eq!(
            estimate_error(Kind::Float, 1.0, 1.0 - 2f64.powi(-25), true),
            Some(0.5)
        );
    }

    #[test]
    fn decisions_keep_clear_of_half_an_ulp() {
        let e = Estimate::one(1.5 + 2f64.powi(-24) * (1.0 - 1e-9));
        assert_eq!(decide(Kind::Float, 0.7, &out(1.5), &e), None);
        let e = Estimate::one(1.5 + 2f64.powi(-25));
        assert_eq!(decide(Kind::Float, 0.7, &out(1.5), &e), Some(0.25));
        assert_eq!(decide(Kind::Float, 0.0, &out(1.5), &e), None);
        assert_eq!(decide(Kind::Float, f64::NAN, &out(1.5), &e), None);
        // A misrounded result far from 0.5 is decided too: 1.25 ulp.
        let e = Estimate::one(1.5 + 5.0 * 2f64.powi(-25));
        assert_eq!(decide(Kind::Float, 0.7, &out(1.5), &e), Some(1.25));
    }

    #[test]
    fn exact_estimates() {
        let est = |name: &str, shape: Shape, x: f64| {
            estimator(Kind::Float, name, shape).expect("estimator")(x)
        };
        // frexp(12) = 0.75 × 2^4; ilogb(12) = 3; logb(2^-149) = -149.
        assert_eq!(
            est("frexp", Shape::WithInt, 12.0),
            Estimate::with_int(0.75, 4).exact()
        );
        assert_eq!(est("ilogb", Shape::IntResult, 12.0), Estimate::int(3));
        assert_eq!(
            est("logb", Shape::Unary, 2f64.powi(-149)),
            Estimate::one(-149.0).exact()
        );
        // fract(-2^-30) rounds up to 1 in float: the largest float below 1 instead.
        assert_eq!(
            est("fract", Shape::Pair, -(2f64.powi(-30))),
            Estimate::two(1.0 - 2f64.powi(-24), -1.0).exact()
        );
        assert_eq!(
            est("fract", Shape::Pair, -2.25),
            Estimate::two(0.75, -3.0).exact()
        );
        assert_eq!(
            est("modf", Shape::Pair, -2.25),
            Estimate::two(-0.25, -2.0).exact()
        );
        assert_eq!(
            est("isnormal", Shape::IntResult, 2f64.powi(-127)),
            Estimate::int(0)
        );
        assert_eq!(
            est("isnormal", Shape::IntResult, 2f64.powi(-126)),
            Estimate::int(1)
        );
        // lgamma_r: Γ(-2.5) < 0; the poles have sign 0.
        assert_eq!(est("lgamma_r", Shape::WithInt, -2.5).int, Some(-1));
        assert_eq!(est("lgamma_r", Shape::WithInt, -3.0).int, Some(0));
        assert!(estimator(Kind::Double, "exp", Shape::Unary).is_none());
    }
}
