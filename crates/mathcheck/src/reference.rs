//! Correctly rounded references from MPFR for every OpenCL.std math function, by instruction
//! name. Each result is computed at [`Kind::reference_precision`] bits (64 more than the type) so
//! the error of a result can be measured to within 2^-60 ulp; MPFR also says whether the value
//! is exact, which the edge-case check uses. Where OpenCL defines a function differently from
//! MPFR (002 "Additional Requirements Beyond ISO/IEC 9899:TC2"), the OpenCL rule is applied here.

use core::ffi::{c_int, c_long};

use gmp_mpfr_sys::mpfr::{self, mpfr_t, rnd_t};
use rug::Float;

use crate::kind::Kind;
use crate::subject::Input;

/// One real result: the MPFR value and whether it is exact.
#[derive(Clone, Debug)]
pub struct RefValue {
    pub value: Float,
    pub exact: bool,
}

/// How an integer result (frexp's exponent, ilogb, remquo's quotient, lgamma_r's sign) is
/// checked.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum IntCheck {
    /// No integer result, or any value is allowed.
    Any,
    /// Exactly this value.
    Exact(i32),
    /// remquo: the sign of x/y and at least its seven low bits (OpenCL C 2.0 §6.13.2).
    Quotient(i32),
}

/// The reference results of one call.
#[derive(Clone, Debug)]
pub struct Reference {
    /// The real results, in the order the function returns them.
    pub values: Vec<RefValue>,
    pub int: IntCheck,
    /// Other results allowed for `values[0]` (exact values of the type): `mad` computed as a
    /// multiply then an add, `rsqrt(-0)` as either infinity.
    pub alternatives: Vec<f64>,
}

impl Reference {
    fn one(value: RefValue) -> Reference {
        Reference {
            values: vec![value],
            int: IntCheck::Any,
            alternatives: Vec::new(),
        }
    }
}

type Mp1 = unsafe extern "C" fn(*mut mpfr_t, *const mpfr_t, rnd_t) -> c_int;
type Mp2 = unsafe extern "C" fn(*mut mpfr_t, *const mpfr_t, *const mpfr_t, rnd_t) -> c_int;

/// The MPFR function of one argument for an OpenCL.std name.
fn mp1_for(name: &str) -> Option<Mp1> {
    Some(match name {
        "acos" => mpfr::acos,
        "acosh" => mpfr::acosh,
        "acospi" => mpfr::acospi,
        "asin" => mpfr::asin,
        "asinh" => mpfr::asinh,
        "asinpi" => mpfr::asinpi,
        "atan" => mpfr::atan,
        "atanh" => mpfr::atanh,
        "atanpi" => mpfr::atanpi,
        "cbrt" => mpfr::cbrt,
        "ceil" => mpfr::rint_ceil,
        "cos" => mpfr::cos,
        "cosh" => mpfr::cosh,
        "cospi" => mpfr::cospi,
        "erf" => mpfr::erf,
        "erfc" => mpfr::erfc,
        "exp" => mpfr::exp,
        "exp2" => mpfr::exp2,
        "exp10" => mpfr::exp10,
        "expm1" => mpfr::expm1,
        "fabs" => mpfr::abs,
        "floor" => mpfr::rint_floor,
        "log" => mpfr::log,
        "log2" => mpfr::log2,
        "log10" => mpfr::log10,
        "log1p" => mpfr::log1p,
        "rint" => mpfr::rint,
        "round" => mpfr::rint_round,
        "rsqrt" => mpfr::rec_sqrt,
        "sin" => mpfr::sin,
        "sinh" => mpfr::sinh,
        "sinpi" => mpfr::sinpi,
        "sqrt" => mpfr::sqrt,
        "tan" => mpfr::tan,
        "tanh" => mpfr::tanh,
        "tanpi" => mpfr::tanpi,
        "tgamma" => mpfr::gamma,
        "trunc" => mpfr::rint_trunc,
        _ => return None,
    })
}

/// The MPFR function of two arguments for an OpenCL.std name.
fn mp2_for(name: &str) -> Option<Mp2> {
    Some(match name {
        "atan2" => mpfr::atan2,
        "atan2pi" => mpfr::atan2pi,
        "fdim" => mpfr::dim,
        "fmax" => mpfr::max,
        "fmin" => mpfr::min,
        "fmod" => mpfr::fmod,
        "hypot" => mpfr::hypot,
        "pow" => mpfr::pow,
        "powr" => mpfr::powr,
        "remainder" => mpfr::remainder,
        "divide" => mpfr::div,
        _ => return None,
    })
}

/// The OpenCL.std function that `half_*`/`native_*` variants approximate (`half_divide` →
/// `divide`, `half_recip` → `recip`), or `name` itself.
pub fn base_name(name: &str) -> &str {
    name.strip_prefix("half_")
        .or_else(|| name.strip_prefix("native_"))
        .unwrap_or(name)
}

/// An exact MPFR copy of `x`.
fn mp(x: f64) -> Float {
    Float::with_val(53, x)
}

fn apply1(f: Mp1, x: f64, prec: u32) -> RefValue {
    let xf = mp(x);
    let mut r = Float::new(prec);
    // SAFETY: `r` and `xf` are initialised MPFR numbers that outlive the call.
    let t = unsafe { f(r.as_raw_mut(), xf.as_raw(), rnd_t::RNDN) };
    RefValue {
        value: r,
        exact: t == 0,
    }
}

fn apply2(f: Mp2, x: f64, y: f64, prec: u32) -> RefValue {
    let (xf, yf) = (mp(x), mp(y));
    let mut r = Float::new(prec);
    // SAFETY: as in `apply1`.
    let t = unsafe { f(r.as_raw_mut(), xf.as_raw(), yf.as_raw(), rnd_t::RNDN) };
    RefValue {
        value: r,
        exact: t == 0,
    }
}

/// A result the specification leaves undefined: anything is accepted.
fn undefined() -> Reference {
    Reference {
        values: Vec::new(),
        int: IntCheck::Any,
        alternatives: Vec::new(),
    }
}

/// An exact integer (0 or 1) result.
fn int_result(v: bool) -> Reference {
    Reference {
        values: Vec::new(),
        int: IntCheck::Exact(i32::from(v)),
        alternatives: Vec::new(),
    }
}

/// An exactly known value (exact in `f64`).
fn exact(x: f64) -> RefValue {
    RefValue {
        value: mp(x),
        exact: true,
    }
}

/// The reference for the function `name` (OpenCL.std name; `half_*`/`native_*` use their base
/// function) of type `kind` on `input`, or `None` for a name this module does not know.
// islessgreater is written as its definition, `x < y || x > y`: clippy's `x != y` is true for
// NaN operands.
#[allow(clippy::double_comparisons)]
pub fn reference(name: &str, kind: Kind, input: &Input) -> Option<Reference> {
    let prec = kind.reference_precision();
    let [x, y, z] = input.x;
    let n = input.n;
    let name = base_name(name);
    if let Some(f) = mp1_for(name) {
        let mut r = Reference::one(apply1(f, x, prec));
        // OpenCL defines rsqrt as 1/sqrt(x) and MPFR (after IEEE 754 rSqrt) gives +∞ for -0;
        // 002 prescribes neither, so both infinities are accepted.
        if name == "rsqrt" && x == 0.0 {
            r.alternatives = vec![f64::INFINITY, f64::NEG_INFINITY];
        }
        return Some(r);
    }
    if name == "copysign" {
        // C99 7.12.11.1: the sign bit of y, also when y is a NaN (MPFR's NaNs carry no sign).
        return Some(Reference::one(exact(x.copysign(y))));
    }
    if name == "powr" && (x.is_nan() || y.is_nan()) {
        // 002: powr(x, NaN) returns the NaN for x >= 0, powr(NaN, y) returns the NaN (MPFR,
        // after IEEE 754 powr, gives powr(1, NaN) = 1). For x < 0 it is a NaN anyway.
        return Some(Reference::one(exact(f64::NAN)));
    }
    if let Some(f) = mp2_for(name) {
        return Some(Reference::one(apply2(f, x, y, prec)));
    }
    let r = match name {
        "recip" => Reference::one(apply2(mpfr::div, 1.0, x, prec)),
        "lgamma" => Reference::one(lgamma(x, prec).0),
        "lgamma_r" => {
            let (v, sign) = lgamma(x, prec);
            Reference {
                values: vec![v],
                int: sign,
                alternatives: Vec::new(),
            }
        }
        "logb" => Reference::one(exact(logb(x))),
        "nan" => Reference {
            values: Vec::new(),
            int: IntCheck::Exact(1), // a quiet NaN
            alternatives: Vec::new(),
        },
        "ilogb" => Reference {
            values: Vec::new(),
            int: IntCheck::Exact(ilogb(x)),
            alternatives: Vec::new(),
        },
        "frexp" => {
            let (m, e) = frexp(x);
            Reference {
                values: vec![exact(m)],
                int: IntCheck::Exact(e),
                alternatives: Vec::new(),
            }
        }
        "ldexp" => {
            let xf = mp(x);
            let mut r = Float::new(prec);
            // SAFETY: as in `apply1`.
            let t =
                unsafe { mpfr::mul_2si(r.as_raw_mut(), xf.as_raw(), c_long::from(n), rnd_t::RNDN) };
            Reference::one(RefValue {
                value: r,
                exact: t == 0,
            })
        }
        "pown" => {
            let xf = mp(x);
            let mut r = Float::new(prec);
            // SAFETY: as in `apply1`.
            let t =
                unsafe { mpfr::pow_si(r.as_raw_mut(), xf.as_raw(), c_long::from(n), rnd_t::RNDN) };
            Reference::one(RefValue {
                value: r,
                exact: t == 0,
            })
        }
        "rootn" => {
            // 002: rootn(x, 0) returns a NaN.
            if n == 0 {
                Reference::one(exact(f64::NAN))
            } else {
                let xf = mp(x);
                let mut r = Float::new(prec);
                // SAFETY: as in `apply1`.
                let t = unsafe {
                    mpfr::rootn_si(r.as_raw_mut(), xf.as_raw(), c_long::from(n), rnd_t::RNDN)
                };
                Reference::one(RefValue {
                    value: r,
                    exact: t == 0,
                })
            }
        }
        "remquo" => remquo(x, y, prec),
        "fract" => fract(kind, x, prec),
        "modf" => {
            // 002 "Changes to ISO/IEC 9899: TC2": iptr = trunc(x), result = copysign(isinf(x) ? 0
            // : x - trunc(x), x). Both are exact.
            let ip = x.trunc();
            let frac = if x.is_infinite() { 0.0 } else { x - ip };
            Reference {
                values: vec![exact(frac.copysign(x)), exact(ip)],
                int: IntCheck::Any,
                alternatives: Vec::new(),
            }
        }
        "sincos" => Reference {
            values: vec![apply1(mpfr::sin, x, prec), apply1(mpfr::cos, x, prec)],
            int: IntCheck::Any,
            alternatives: Vec::new(),
        },
        "fma" => Reference::one(fma(x, y, z, prec)),
        "mad" => {
            // 002: mad may be a correctly rounded fma or a multiply and an add each rounded.
            let product = kind.round_mp(&Float::with_val(2 * prec, &mp(x) * &mp(y)));
            let sum = Float::with_val(prec, mp(product) + mp(z));
            let mut r = Reference::one(fma(x, y, z, prec));
            r.alternatives.push(kind.round_mp(&sum));
            r
        }
        "degrees" | "radians" => {
            // 180/π × x and π/180 × x, rounded once from 64 bits more than the reference.
            let pi = Float::with_val(prec + 64, rug::float::Constant::Pi);
            let xf = mp(x);
            let factor = if name == "degrees" {
                Float::with_val(prec + 64, 180 / pi)
            } else {
                Float::with_val(prec + 64, pi / 180)
            };
            // (Operations on references are evaluated at the precision of the result.)
            let r = Float::with_val(prec, &xf * &factor);
            Reference::one(RefValue {
                value: r,
                exact: x == 0.0 || !x.is_finite(),
            })
        }
        // §6.13.4 sign: 1.0, -1.0, ±0 (the zero itself), 0.0 for a NaN.
        "sign" => Reference::one(exact(if x.is_nan() {
            0.0
        } else if x > 0.0 {
            1.0
        } else if x < 0.0 {
            -1.0
        } else {
            x
        })),
        "fmax_common" | "fmin_common" => {
            // §6.13.4: undefined for infinite or NaN arguments; y if x < y else x (max).
            if !x.is_finite() || !y.is_finite() {
                return Some(undefined());
            }
            let (v, other) = if name == "fmax_common" {
                (if x < y { y } else { x }, if x < y { x } else { y })
            } else {
                (if y < x { y } else { x }, if y < x { x } else { y })
            };
            let mut r = Reference::one(exact(v));
            if v == 0.0 && other == 0.0 {
                r.alternatives.push(other); // max(-0, +0): either zero
            }
            r
        }
        // §6.13.4 step: 0.0 if x < edge, else 1.0.
        "step" => Reference::one(exact(if y < x { 0.0 } else { 1.0 })),
        "fclamp" => {
            // §6.13.4: fmin(fmax(x, minval), maxval); undefined when minval > maxval.
            if y.is_nan() || z.is_nan() || y > z {
                return Some(undefined());
            }
            let v = x.max(y).min(z);
            let mut r = Reference::one(exact(v));
            if v == 0.0 {
                r.alternatives.push(-v); // fmax/fmin of zeros: either zero
            }
            r
        }
        "mix" => {
            // §6.13.4: x + (y - x) × a, undefined for a outside [0, 1]; exact in MPFR.
            // Also where the spec's own formula overflows (y - x beyond the type's range).
            let overflows = !kind.round(y - x).is_finite();
            if !(x.is_finite() && y.is_finite() && (0.0..=1.0).contains(&z)) || overflows {
                return Some(undefined());
            }
            let wide = 2200;
            let (xf, yf, zf) = (mp(x), mp(y), mp(z));
            let d = Float::with_val(wide, &yf - &xf);
            let p = Float::with_val(wide, &d * &zf);
            let v = Float::with_val(wide, &p + &xf);
            Reference::one(RefValue {
                value: Float::with_val(prec, &v),
                exact: Float::with_val(prec, &v) == v,
            })
        }
        "smoothstep" => {
            // §6.13.4: t = clamp((x - e0)/(e1 - e0), 0, 1), t²(3 - 2t); undefined unless
            // e0 < e1.
            let overflows = !(kind.round(y - x).is_finite() && kind.round(z - x).is_finite());
            if !(x.is_finite() && y.is_finite() && z.is_finite() && x < y) || overflows {
                return Some(undefined());
            }
            let wide = prec + 128;
            let (e0, e1, xf) = (mp(x), mp(y), mp(z));
            let t = Float::with_val(wide, &xf - &e0) / Float::with_val(wide, &e1 - &e0);
            let t = t.clamp(&0, &1);
            let three_minus = Float::with_val(wide, 3 - Float::with_val(wide, &t * 2u32));
            let v = Float::with_val(wide, &t * &t) * three_minus;
            Reference::one(RefValue {
                value: Float::with_val(prec, &v),
                exact: false,
            })
        }
        "bitselect" => {
            // §6.13.6: each bit from y where z has a 1, else from x.
            let (a, b, c) = (kind.to_bits(x), kind.to_bits(y), kind.to_bits(z));
            Reference::one(exact(kind.from_bits((a & !c) | (b & c))))
        }
        "isfinite" | "isinf" | "isnan" | "isnormal" | "signbit" => {
            // §6.13.6: scalar results are 1 (true) or 0.
            let v = match name {
                "isfinite" => x.is_finite(),
                "isinf" => x.is_infinite(),
                "isnan" => x.is_nan(),
                "isnormal" => x.is_finite() && x.abs() >= 2f64.powi(1 - kind.bias()),
                _ => x.is_sign_negative(),
            };
            int_result(v)
        }
        "isequal" => int_result(x == y),
        "isnotequal" => int_result(x != y),
        "isgreater" => int_result(x > y),
        "isgreaterequal" => int_result(x >= y),
        "isless" => int_result(x < y),
        "islessequal" => int_result(x <= y),
        "islessgreater" => int_result(x < y || x > y),
        "isordered" => int_result(!x.is_nan() && !y.is_nan()),
        "isunordered" => int_result(x.is_nan() || y.is_nan()),
        "maxmag" => Reference::one(exact(maxmag(x, y))),
        "minmag" => Reference::one(exact(minmag(x, y))),
        "nextafter" => Reference::one(exact(nextafter(kind, x, y))),
        _ => return None,
    };
    Some(r)
}

fn fma(x: f64, y: f64, z: f64, prec: u32) -> RefValue {
    let (xf, yf, zf) = (mp(x), mp(y), mp(z));
    let mut r = Float::new(prec);
    // SAFETY: as in `apply1`.
    let t = unsafe {
        mpfr::fma(
            r.as_raw_mut(),
            xf.as_raw(),
            yf.as_raw(),
            zf.as_raw(),
            rnd_t::RNDN,
        )
    };
    RefValue {
        value: r,
        exact: t == 0,
    }
}

/// log|Γ(x)| and the sign check for lgamma_r: 002 says the sign is 0 for zero or a negative
/// integer; for NaN and ±∞ any sign is accepted.
fn lgamma(x: f64, prec: u32) -> (RefValue, IntCheck) {
    let xf = mp(x);
    let mut r = Float::new(prec);
    let mut sign: c_int = 0;
    // SAFETY: as in `apply1`; `sign` is a valid out-pointer.
    let t = unsafe { mpfr::lgamma(r.as_raw_mut(), &mut sign, xf.as_raw(), rnd_t::RNDN) };
    let check = if !x.is_finite() {
        IntCheck::Any
    } else if x == 0.0 || (x < 0.0 && x.trunc() == x) {
        IntCheck::Exact(0)
    } else {
        IntCheck::Exact(sign.signum())
    };
    (
        RefValue {
            value: r,
            exact: t == 0,
        },
        check,
    )
}

/// C99 logb (subnormals use their true exponent): logb(±0) = -∞, logb(±∞) = +∞.
fn logb(x: f64) -> f64 {
    if x.is_nan() {
        x
    } else if x == 0.0 {
        f64::NEG_INFINITY
    } else if x.is_infinite() {
        f64::INFINITY
    } else {
        f64::from(mp_exponent(x) - 1)
    }
}

/// MPFR's exponent of a finite nonzero `x`: x = m × 2^e with 0.5 ≤ |m| < 1.
fn mp_exponent(x: f64) -> i32 {
    mp(x).get_exp().unwrap_or(0)
}

/// ilogb with clang's FP_ILOGB0 = INT_MIN, FP_ILOGBNAN = INT_MAX, and INT_MAX for ±∞.
fn ilogb(x: f64) -> i32 {
    if x.is_nan() {
        devlib::math::FP_ILOGBNAN
    } else if x == 0.0 {
        devlib::math::FP_ILOGB0
    } else if x.is_infinite() {
        i32::MAX
    } else {
        mp_exponent(x) - 1
    }
}

/// frexp: 002 frexp(±∞) = ±∞ and frexp(NaN) = NaN with exponent 0; C99 frexp(±0) = ±0, 0.
fn frexp(x: f64) -> (f64, i32) {
    if x == 0.0 || !x.is_finite() {
        return (x, 0);
    }
    let e = mp_exponent(x);
    let m = Float::with_val(53, mp(x) >> e);
    (m.to_f64(), e)
}

/// remquo: the remainder, and the quotient's sign and low bits; 002: NaN and 0 in quo when x is
/// ±∞, y is 0, or either is NaN.
fn remquo(x: f64, y: f64, prec: u32) -> Reference {
    if x.is_infinite() || y == 0.0 || x.is_nan() || y.is_nan() {
        return Reference {
            values: vec![exact(f64::NAN)],
            int: IntCheck::Exact(0),
            alternatives: Vec::new(),
        };
    }
    let (xf, yf) = (mp(x), mp(y));
    let mut r = Float::new(prec);
    let mut q: c_long = 0;
    // SAFETY: as in `apply1`; `q` is a valid out-pointer.
    let t = unsafe {
        mpfr::remquo(
            r.as_raw_mut(),
            &mut q,
            xf.as_raw(),
            yf.as_raw(),
            rnd_t::RNDN,
        )
    };
    // MPFR gives the sign and low bits of the quotient in a long; keep the sign and 31 bits.
    let low = (q.unsigned_abs() & 0x7fff_ffff) as i32;
    let quotient = if q < 0 { -low } else { low };
    Reference {
        values: vec![RefValue {
            value: r,
            exact: t == 0,
        }],
        int: IntCheck::Quotient(quotient),
        alternatives: Vec::new(),
    }
}

/// fract (OpenCL C 2.0 §6.13.2): `fmin(x - floor(x), largest value below 1)` and floor(x), with
/// the edge cases of 002.
fn fract(kind: Kind, x: f64, prec: u32) -> Reference {
    let two = |a: f64, b: f64| Reference {
        values: vec![exact(a), exact(b)],
        int: IntCheck::Any,
        alternatives: Vec::new(),
    };
    if x.is_nan() {
        return two(f64::NAN, f64::NAN);
    }
    if x.is_infinite() {
        return two(0f64.copysign(x), x);
    }
    if x == 0.0 {
        return two(x, x);
    }
    let floor = x.floor();
    let diff = Float::with_val(prec, mp(x) - mp(floor));
    let below_one = kind.from_bits(kind.to_bits(1.0) - 1);
    let value = if kind.round_mp(&diff) >= 1.0 {
        exact(below_one)
    } else {
        RefValue {
            exact: diff == mp(x) - mp(floor),
            value: diff,
        }
    };
    Reference {
        values: vec![value, exact(floor)],
        int: IntCheck::Any,
        alternatives: Vec::new(),
    }
}

/// C99 fmax on values: a NaN operand is ignored; fmax(-0, +0) = +0.
fn fmax(x: f64, y: f64) -> f64 {
    if x.is_nan() {
        y
    } else if y.is_nan() || x > y || (x == y && x.is_sign_positive()) {
        x
    } else {
        y
    }
}

/// C99 fmin on values: a NaN operand is ignored; fmin(-0, +0) = -0.
fn fmin(x: f64, y: f64) -> f64 {
    if x.is_nan() {
        y
    } else if y.is_nan() || x < y || (x == y && x.is_sign_negative()) {
        x
    } else {
        y
    }
}

/// OpenCL maxmag: x if |x| > |y|, y if |y| > |x|, otherwise fmax(x, y).
fn maxmag(x: f64, y: f64) -> f64 {
    if x.abs() > y.abs() {
        x
    } else if y.abs() > x.abs() {
        y
    } else {
        fmax(x, y)
    }
}

/// OpenCL minmag: x if |x| < |y|, y if |y| < |x|, otherwise fmin(x, y).
fn minmag(x: f64, y: f64) -> f64 {
    if x.abs() < y.abs() {
        x
    } else if y.abs() < x.abs() {
        y
    } else {
        fmin(x, y)
    }
}

/// C99 nextafter in the type `kind`, with 002's ±0 → smallest subnormal of y's direction.
fn nextafter(kind: Kind, x: f64, y: f64) -> f64 {
    if x.is_nan() || y.is_nan() {
        return f64::NAN;
    }
    if x == y {
        return y;
    }
    if x == 0.0 {
        return kind.min_subnormal().copysign(y - x);
    }
    let bits = kind.to_bits(x);
    let away_from_zero = (y > x) == (x > 0.0);
    kind.from_bits(if away_from_zero { bits + 1 } else { bits - 1 })
}

#[cfg(test)]
mod tests {
    //! The OpenCL rules that differ from C99 or that MPFR might not share, one assertion per
    //! line of 002 "Additional Requirements Beyond ISO/IEC 9899:TC2".
    use super::*;

    fn value(name: &str, x: [f64; 3], n: i32) -> f64 {
        let r = reference(name, Kind::Double, &Input { x, n }).expect("known function");
        Kind::Double.round_mp(&r.values[0].value)
    }
    fn v1(name: &str, x: f64) -> f64 {
        value(name, [x, 0.0, 0.0], 0)
    }
    fn v2(name: &str, x: f64, y: f64) -> f64 {
        value(name, [x, y, 0.0], 0)
    }
    fn vn(name: &str, x: f64, n: i32) -> f64 {
        value(name, [x, 0.0, 0.0], n)
    }
    fn same(a: f64, b: f64) -> bool {
        (a.is_nan() && b.is_nan()) || a.to_bits() == b.to_bits()
    }
    const INF: f64 = f64::INFINITY;

    #[test]
    fn pi_functions_follow_002() {
        assert!(same(v1("acospi", 1.0), 0.0));
        assert!(v1("acospi", 1.5).is_nan());
        assert!(same(v1("asinpi", -0.0), -0.0));
        assert!(same(v1("atanpi", -0.0), -0.0));
        assert!(same(v1("atanpi", -INF), -0.5));
        assert!(same(v2("atan2pi", -0.0, -0.0), -1.0));
        assert!(same(v2("atan2pi", 0.0, 0.0), 0.0));
        assert!(same(v2("atan2pi", -0.0, -3.0), -1.0));
        assert!(same(v2("atan2pi", -0.0, 3.0), -0.0));
        assert!(same(v2("atan2pi", -2.0, 0.0), -0.5));
        assert!(same(v2("atan2pi", 2.0, -0.0), 0.5));
        assert!(same(v2("atan2pi", -2.0, -INF), -1.0));
        assert!(same(v2("atan2pi", 2.0, INF), 0.0));
        assert!(same(v2("atan2pi", -INF, 7.0), -0.5));
        assert!(same(v2("atan2pi", INF, -INF), 0.75));
        assert!(same(v2("atan2pi", -INF, INF), -0.25));
        assert!(same(v1("cospi", -0.0), 1.0));
        assert!(same(v1("cospi", -2.5), 0.0));
        assert!(same(v1("cospi", 7.5), 0.0));
        assert!(v1("cospi", INF).is_nan());
        assert!(same(v1("sinpi", -0.0), -0.0));
        assert!(same(v1("sinpi", 3.0), 0.0));
        assert!(same(v1("sinpi", -3.0), -0.0));
        assert!(v1("sinpi", -INF).is_nan());
        assert!(same(v1("tanpi", -0.0), -0.0));
        assert!(v1("tanpi", INF).is_nan());
        assert!(same(v1("tanpi", 4.0), 0.0));
        assert!(same(v1("tanpi", -4.0), -0.0));
        assert!(same(v1("tanpi", 3.0), -0.0));
        assert!(same(v1("tanpi", -3.0), 0.0));
        assert!(same(v1("tanpi", 2.5), INF));
        assert!(same(v1("tanpi", 1.5), -INF));
    }

    #[test]
    fn other_functions_follow_002() {
        assert!(same(v1("ceil", -0.5), -0.0));
        assert!(same(v1("exp10", -0.0), 1.0));
        assert!(same(v1("exp10", -INF), 0.0));
        assert!(same(v1("exp10", INF), INF));
        assert!(v2("fdim", 1.0, f64::NAN).is_nan());
        assert!(v2("fdim", f64::NAN, 1.0).is_nan());
        assert!(v2("fmod", -0.0, f64::NAN).is_nan());
        assert!(same(v1("rint", -0.5), -0.0));
        assert!(same(v1("round", -0.25), -0.0));
        assert!(same(v1("trunc", -0.75), -0.0));
        assert!(same(v2("pow", -0.0, -INF), INF));
        assert!(same(v2("nextafter", -0.0, 1.0), 5e-324));
        assert!(same(v2("nextafter", 0.0, -1.0), -5e-324));
    }

    #[test]
    fn pown_powr_rootn_follow_002() {
        for x in [0.0, -0.0, f64::NAN, INF, -INF, 3.0] {
            assert!(same(vn("pown", x, 0), 1.0), "pown({x}, 0)");
        }
        assert!(same(vn("pown", -0.0, -3), -INF));
        assert!(same(vn("pown", -0.0, -2), INF));
        assert!(same(vn("pown", -0.0, 2), 0.0));
        assert!(same(vn("pown", -0.0, 3), -0.0));
        assert!(same(v2("powr", 5.0, -0.0), 1.0));
        assert!(same(v2("powr", -0.0, -3.0), INF));
        assert!(same(v2("powr", 0.0, -INF), INF));
        assert!(same(v2("powr", -0.0, 2.0), 0.0));
        assert!(same(v2("powr", 1.0, 1e300), 1.0));
        assert!(v2("powr", -2.0, 2.0).is_nan());
        assert!(v2("powr", 0.0, -0.0).is_nan());
        assert!(v2("powr", INF, 0.0).is_nan());
        assert!(v2("powr", 1.0, -INF).is_nan());
        assert!(v2("powr", 2.0, f64::NAN).is_nan());
        assert!(v2("powr", f64::NAN, 2.0).is_nan());
        assert!(same(vn("rootn", -0.0, -3), -INF));
        assert!(same(vn("rootn", -0.0, -2), INF));
        assert!(same(vn("rootn", -0.0, 2), 0.0));
        assert!(same(vn("rootn", -0.0, 3), -0.0));
        assert!(vn("rootn", -8.0, 2).is_nan());
        assert!(vn("rootn", 8.0, 0).is_nan());
        assert!(same(vn("rootn", -8.0, 3), -2.0));
    }

    #[test]
    fn results_with_integers_follow_002() {
        let r = |name: &str, x: f64, y: f64| {
            reference(
                name,
                Kind::Float,
                &Input {
                    x: [x, y, 0.0],
                    n: 0,
                },
            )
            .expect("known")
        };
        assert_eq!(r("frexp", INF, 0.0).int, IntCheck::Exact(0));
        assert_eq!(r("frexp", 12.0, 0.0).int, IntCheck::Exact(4));
        assert_eq!(
            Kind::Float.round_mp(&r("frexp", 12.0, 0.0).values[0].value),
            0.75
        );
        assert_eq!(r("lgamma_r", -3.0, 0.0).int, IntCheck::Exact(0));
        assert_eq!(r("lgamma_r", 0.0, 0.0).int, IntCheck::Exact(0));
        assert_eq!(r("lgamma_r", -2.5, 0.0).int, IntCheck::Exact(-1));
        assert_eq!(r("remquo", INF, 1.0).int, IntCheck::Exact(0));
        assert_eq!(r("remquo", 1.0, 0.0).int, IntCheck::Exact(0));
        assert_eq!(r("remquo", 7.0, -2.0).int, IntCheck::Quotient(-4));
        assert_eq!(r("ilogb", 0.0, 0.0).int, IntCheck::Exact(i32::MIN));
        assert_eq!(r("ilogb", 2f64.powi(-149), 0.0).int, IntCheck::Exact(-149));
        let fract = r("fract", -1e-30, 0.0);
        assert_eq!(
            Kind::Float.round_mp(&fract.values[0].value),
            1.0 - 2f64.powi(-24)
        );
        let fract = r("fract", -0.0, 0.0);
        assert!(same(Kind::Float.round_mp(&fract.values[0].value), -0.0));
        let modf = r("modf", -INF, 0.0);
        assert!(same(Kind::Float.round_mp(&modf.values[0].value), -0.0));
    }
}
