//! OpenCL.std math for `double` (OpenCL C 2.0 §6.13.2, 002 ULP table "Float64" column).
//!
//! Most transcendental functions come from the `libm` crate (a pure-Rust port of musl/FreeBSD
//! msun, each within about 1 ulp, and deterministic on every host). Functions whose textbook
//! formula would lose accuracy are written here: sinpi/cospi/tanpi (exact reduction, π applied
//! in double-double), acospi/asinpi/atanpi/atan2pi, exp10 (`2^(x·log2 10)` with the product in
//! double-double), pown/rootn (double-double powers), powr (OpenCL edge cases), remquo (OpenCL
//! edge cases), and every edge case of 002 "Edge Case Behavior".

use super::dd::{self, Dd};
use core::f64::consts::PI;

crate::math::dispatch_tables!(f64; unary: []; binary: []);
crate::math::per_type_functions!(f64, u64);

pub fn acos(x: f64) -> f64 {
    libm::acos(x)
}
/// acosh; NaN for x < 1 (checked here: the musl algorithm returns finite values for some
/// large negative x).
pub fn acosh(x: f64) -> f64 {
    if x < 1.0 {
        return f64::NAN;
    }
    libm::acosh(x)
}
/// acos(x) / π; 002: acospi(1) = +0, NaN for |x| > 1.
pub fn acospi(x: f64) -> f64 {
    libm::acos(x) / PI
}
pub fn asin(x: f64) -> f64 {
    libm::asin(x)
}
pub fn asinh(x: f64) -> f64 {
    libm::asinh(x)
}
/// asin(x) / π; 002: asinpi(±0) = ±0, NaN for |x| > 1.
pub fn asinpi(x: f64) -> f64 {
    libm::asin(x) / PI
}
pub fn atan(x: f64) -> f64 {
    libm::atan(x)
}
pub fn atan2(y: f64, x: f64) -> f64 {
    libm::atan2(y, x)
}
pub fn atanh(x: f64) -> f64 {
    libm::atanh(x)
}
/// atan(x) / π; 002: atanpi(±0) = ±0, atanpi(±∞) = ±0.5.
pub fn atanpi(x: f64) -> f64 {
    if x.is_infinite() {
        return 0.5f64.copysign(x);
    }
    libm::atan(x) / PI
}
/// atan2(y, x) / π with the 002 edge cases.
pub fn atan2pi(y: f64, x: f64) -> f64 {
    if y.is_nan() || x.is_nan() {
        return y + x;
    }
    if y.is_infinite() && x.is_infinite() {
        // 002: atan2pi(±∞, -∞) = ±0.75, atan2pi(±∞, +∞) = ±0.25.
        let v: f64 = if x < 0.0 { 0.75 } else { 0.25 };
        return v.copysign(y);
    }
    if y.is_infinite() {
        return 0.5f64.copysign(y); // 002: atan2pi(±∞, finite x) = ±0.5
    }
    if y == 0.0 {
        // 002: atan2pi(±0, -0 or x<0) = ±1; atan2pi(±0, +0 or x>0) = ±0.
        return if x.is_sign_negative() {
            1.0f64.copysign(y)
        } else {
            y
        };
    }
    if x == 0.0 {
        return 0.5f64.copysign(y); // 002: atan2pi(y, ±0) = ±0.5
    }
    if x.is_infinite() {
        // 002: atan2pi(±y, -∞) = ±1, atan2pi(±y, +∞) = ±0 for finite y > 0.
        return if x < 0.0 {
            1.0f64.copysign(y)
        } else {
            0.0f64.copysign(y)
        };
    }
    libm::atan2(y, x) / PI
}
pub fn cbrt(x: f64) -> f64 {
    libm::cbrt(x)
}
pub fn ceil(x: f64) -> f64 {
    x.ceil()
}
pub fn cos(x: f64) -> f64 {
    libm::cos(x)
}
pub fn cosh(x: f64) -> f64 {
    libm::cosh(x)
}

/// sin(π r) for |r| ≤ 0.25, with π r formed in double-double: sin(hi) + lo·cos(hi), where
/// cos(hi) ≈ 1 - hi²/2 is ample for a correction term below half an ulp (|hi| ≤ π/4).
fn sin_pi_small(r: f64) -> f64 {
    let a = dd::PI.mul_f64(r);
    libm::sin(a.hi) + a.lo * (1.0 - 0.5 * a.hi * a.hi)
}

/// cos(π r) for |r| ≤ 0.25, with π r formed in double-double: cos(hi) - lo·sin(hi), where
/// sin(hi) ≈ hi - hi³/6 is ample for the correction term.
fn cos_pi_small(r: f64) -> f64 {
    let a = dd::PI.mul_f64(r);
    libm::cos(a.hi) - a.lo * (a.hi - a.hi * a.hi * a.hi / 6.0)
}

/// tan(π r) for |r| ≤ 0.25, with π r formed in double-double.
fn tan_pi_small(r: f64) -> f64 {
    let a = dd::PI.mul_f64(r);
    let t = libm::tan(a.hi);
    t + a.lo * (1.0 + t * t)
}

/// cos(π x) with exact argument reduction; 002: cospi(±0) = 1, cospi(n + 0.5) = +0,
/// cospi(±∞) = NaN.
pub fn cospi(x: f64) -> f64 {
    if !x.is_finite() {
        return f64::NAN + x; // NaN stays that NaN, ±∞ gives a NaN
    }
    let ax = x.abs();
    if ax >= 9007199254740992.0 {
        return 1.0; // 2^53 and above: even integers
    }
    let mut r = ax % 2.0; // exact
    if r > 1.0 {
        r = 2.0 - r; // cos(π(2 - r)) = cos(π r), exact
    }
    // r in [0, 1]: cos(π r) = -cos(π (1 - r))
    let (r, negate) = if r > 0.5 { (1.0 - r, true) } else { (r, false) };
    if r == 0.5 {
        return 0.0;
    }
    let v = if r <= 0.25 {
        cos_pi_small(r)
    } else {
        sin_pi_small(0.5 - r)
    };
    if negate {
        -v
    } else {
        v
    }
}

pub fn erfc(x: f64) -> f64 {
    libm::erfc(x)
}
pub fn erf(x: f64) -> f64 {
    libm::erf(x)
}
pub fn exp(x: f64) -> f64 {
    libm::exp(x)
}
pub fn exp2(x: f64) -> f64 {
    libm::exp2(x)
}
/// 10^x = 2^(x·log2 10) with the product formed in double-double:
/// `exp2(hi) × (1 + lo·ln 2)`, about 1 ulp. 002: exp10(±0) = 1, exp10(-∞) = +0,
/// exp10(+∞) = +∞.
pub fn exp10(x: f64) -> f64 {
    const LOG2_10_HI: f64 = f64::from_bits(0x400a_934f_0979_a371);
    const LOG2_10_LO: f64 = f64::from_bits(0x3ca7_f249_5fb7_fa6d);
    if x.is_nan() {
        return x;
    }
    if x > 1000.0 {
        return f64::INFINITY;
    }
    if x < -1000.0 {
        return 0.0;
    }
    let p = dd::two_prod(x, LOG2_10_HI);
    let lo = p.lo + x * LOG2_10_LO;
    let s = p.hi + lo; // renormalize so the argument of exp2 carries the rounding
    let lo = lo - (s - p.hi);
    let e = libm::exp2(s);
    if e.is_infinite() {
        return e;
    }
    e + e * (lo * core::f64::consts::LN_2)
}
pub fn expm1(x: f64) -> f64 {
    libm::expm1(x)
}
/// x - y if x > y, +0 otherwise; 002: NaN if either operand is NaN.
pub fn fdim(x: f64, y: f64) -> f64 {
    if x.is_nan() || y.is_nan() {
        return x + y;
    }
    if x > y {
        x - y
    } else {
        0.0
    }
}
pub fn floor(x: f64) -> f64 {
    x.floor()
}
/// Correctly rounded fused multiply-add.
pub fn fma(a: f64, b: f64, c: f64) -> f64 {
    libm::fma(a, b, c)
}
/// C99 fmod (exact); 002: fmod(±0, NaN) = NaN.
pub fn fmod(x: f64, y: f64) -> f64 {
    libm::fmod(x, y)
}
pub fn hypot(x: f64, y: f64) -> f64 {
    libm::hypot(x, y)
}
/// x × 2^n, correctly rounded (also into the subnormal range).
pub fn ldexp(x: f64, n: i32) -> f64 {
    libm::scalbn(x, n)
}
pub fn lgamma(x: f64) -> f64 {
    libm::lgamma_r(x).0
}
/// Returns `(lgamma(x), sign of gamma(x))`; 002: the sign is 0 for zero or a negative integer.
pub fn lgamma_r(x: f64) -> (f64, i32) {
    let (v, s) = libm::lgamma_r(x);
    if x.is_nan() || x == 0.0 || (x < 0.0 && x == x.floor()) {
        (v, 0)
    } else {
        (v, s)
    }
}
pub fn log(x: f64) -> f64 {
    libm::log(x)
}
pub fn log2(x: f64) -> f64 {
    libm::log2(x)
}
pub fn log10(x: f64) -> f64 {
    libm::log10(x)
}
pub fn log1p(x: f64) -> f64 {
    libm::log1p(x)
}
/// mad is implemented as a correctly rounded fma (002 allows either).
pub fn mad(a: f64, b: f64, c: f64) -> f64 {
    fma(a, b, c)
}
/// C99 pow (F.9.4.4 edge cases; 002: pow(±0, -∞) = +∞).
pub fn pow(x: f64, y: f64) -> f64 {
    libm::pow(x, y)
}

/// x^n for integer n, in double-double with a separate exponent (no intermediate overflow).
/// 002: pown(x, 0) = 1 for every x; pown(±0, n) per the parity of n.
pub fn pown(x: f64, n: i32) -> f64 {
    if n == 0 {
        return 1.0;
    }
    if x.is_nan() {
        return x;
    }
    let odd = n & 1 != 0;
    let negative_result = x.is_sign_negative() && odd;
    if x == 0.0 {
        return match (n < 0, odd) {
            (true, true) => f64::INFINITY.copysign(x),
            (true, false) => f64::INFINITY,
            (false, true) => x,
            (false, false) => 0.0,
        };
    }
    if x.is_infinite() {
        let mag = if n > 0 { f64::INFINITY } else { 0.0 };
        return if negative_result { -mag } else { mag };
    }
    let mag = match dd::powi_dd_in_range(x.abs(), i64::from(n)) {
        Some(p) => p.hi + p.lo,
        None => dd::powi_wide(x.abs(), i64::from(n)).to_f64(),
    };
    if negative_result {
        -mag
    } else {
        mag
    }
}

/// x^y for x ≥ 0 only, with the 002 powr edge cases.
pub fn powr(x: f64, y: f64) -> f64 {
    if x.is_nan() {
        return x; // 002: powr(NaN, y) returns the NaN
    }
    if x < 0.0 {
        return f64::NAN; // 002: powr(x, y) is NaN for x < 0
    }
    if y.is_nan() {
        return y; // 002: powr(x, NaN) returns the NaN for x >= 0
    }
    if x == 0.0 {
        return if y == 0.0 {
            f64::NAN // powr(±0, ±0)
        } else if y < 0.0 {
            f64::INFINITY // powr(±0, y<0 or -∞) = +∞
        } else {
            0.0 // powr(±0, y>0) = +0
        };
    }
    if x.is_infinite() {
        return if y == 0.0 {
            f64::NAN // powr(+∞, ±0)
        } else if y < 0.0 {
            0.0
        } else {
            f64::INFINITY
        };
    }
    if x == 1.0 {
        return if y.is_infinite() { f64::NAN } else { 1.0 }; // powr(+1, ±∞) = NaN
    }
    if y == 0.0 {
        return 1.0; // powr(x, ±0) = 1 for finite x > 0
    }
    libm::pow(x, y)
}

/// C99 remainder (exact).
pub fn remainder(x: f64, y: f64) -> f64 {
    libm::remainder(x, y)
}
/// Returns `(remainder, quotient bits)`: the sign and at least the low 7 bits of the integral
/// quotient. 002: NaN and 0 when x is ±∞, y is 0 or either is NaN.
pub fn remquo(x: f64, y: f64) -> (f64, i32) {
    if x.is_nan() || y.is_nan() || x.is_infinite() || y == 0.0 {
        return (f64::NAN + x + y, 0);
    }
    libm::remquo(x, y)
}
/// Round to nearest even regardless of any mode (002).
pub fn rint(x: f64) -> f64 {
    x.round_ties_even()
}

/// The n-th root, refined by one Newton step with a double-double power.
/// 002 edge cases for ±0, negative x with even n, n = 0.
pub fn rootn(x: f64, n: i32) -> f64 {
    rootn_impl(x, n, true)
}

/// rootn without the Newton refinement: `pow(|x|, 1/n)` is within about `|ln x / n| × 2^-53`
/// relative (≤ 2^-46), plenty for the narrow types, which round it once.
pub(crate) fn rootn_unrefined(x: f64, n: i32) -> f64 {
    rootn_impl(x, n, false)
}

fn rootn_impl(x: f64, n: i32, refine: bool) -> f64 {
    if n == 0 || x.is_nan() {
        return f64::NAN + x;
    }
    let odd = n & 1 != 0;
    if x < 0.0 && !odd {
        return f64::NAN;
    }
    if x == 0.0 {
        return match (n < 0, odd) {
            (true, true) => f64::INFINITY.copysign(x),
            (true, false) => f64::INFINITY,
            (false, true) => x,
            (false, false) => 0.0,
        };
    }
    if x.is_infinite() {
        return if n > 0 { x } else { 0.0f64.copysign(x) };
    }
    if n == 1 {
        return x;
    }
    if n == -1 {
        return 1.0 / x;
    }
    let ax = x.abs();
    let r0 = libm::pow(ax, 1.0 / f64::from(n));
    let r = if !refine || r0 == 0.0 || r0.is_infinite() {
        r0
    } else {
        // ratio = ax / r0^n ≈ 1; r = r0 × (1 + (ratio - 1) / n).
        let p = dd::powi_wide(r0, i64::from(n));
        let (mx, ex) = libm::frexp(ax);
        let q = Dd::from_f64(mx).div(p.dd);
        let scale = (i64::from(ex) - p.exp).clamp(-8, 8) as i32;
        let ratio_hi = libm::scalbn(q.hi, scale);
        let ratio_lo = libm::scalbn(q.lo, scale);
        let d = (ratio_hi - 1.0) + ratio_lo;
        r0 + r0 * (d / f64::from(n))
    };
    r.copysign(x)
}

/// Round half away from zero.
pub fn round(x: f64) -> f64 {
    x.round()
}
/// 1 / sqrt(x), refined by one Newton step with the residual `1 - x·r²` formed exactly
/// (two roundings alone can reach 1.5 ulp; the refined result is within about 0.5 ulp).
/// The argument is first scaled by an even power of two into [1, 4), exactly.
pub fn rsqrt(x: f64) -> f64 {
    if x.is_nan() || x <= 0.0 || x.is_infinite() {
        return 1.0 / x.sqrt(); // ±0 → ±∞, +∞ → +0, negative or NaN → NaN
    }
    let k = libm::ilogb(x).div_euclid(2);
    let xs = libm::scalbn(x, -2 * k); // in [1, 4), exact
    let r = 1.0 / xs.sqrt();
    let sq = dd::two_prod(r, r);
    let q_hi = xs * sq.hi;
    let q_lo = xs.mul_add(sq.hi, -q_hi) + xs * sq.lo;
    let e = (1.0 - q_hi) - q_lo;
    libm::scalbn(r + r * (0.5 * e), -k)
}
pub fn sin(x: f64) -> f64 {
    libm::sin(x)
}
/// Returns `(sin x, cos x)`.
pub fn sincos(x: f64) -> (f64, f64) {
    libm::sincos(x)
}
pub fn sinh(x: f64) -> f64 {
    libm::sinh(x)
}

/// sin(π x) with exact argument reduction; 002: sinpi(±0) = ±0, sinpi(+n) = +0,
/// sinpi(-n) = -0, sinpi(±∞) = NaN.
pub fn sinpi(x: f64) -> f64 {
    if !x.is_finite() {
        return f64::NAN + x;
    }
    let ax = x.abs();
    if ax >= 4503599627370496.0 {
        return 0.0f64.copysign(x); // 2^52 and above: integers
    }
    let mut r = ax % 2.0; // exact
    let mut negate = x < 0.0;
    if r >= 1.0 {
        r -= 1.0; // sin(π(r + 1)) = -sin(π r), exact
        negate = !negate;
    }
    if r == 0.0 {
        return 0.0f64.copysign(x);
    }
    if r > 0.5 {
        r = 1.0 - r; // exact (Sterbenz)
    }
    let v = if r <= 0.25 {
        sin_pi_small(r)
    } else {
        cos_pi_small(0.5 - r)
    };
    if negate {
        -v
    } else {
        v
    }
}

/// Correctly rounded square root.
pub fn sqrt(x: f64) -> f64 {
    x.sqrt()
}
pub fn tan(x: f64) -> f64 {
    libm::tan(x)
}
pub fn tanh(x: f64) -> f64 {
    libm::tanh(x)
}

/// tan(π x) with exact argument reduction and the 002 edge cases for integers and
/// half-integers.
pub fn tanpi(x: f64) -> f64 {
    if !x.is_finite() {
        return f64::NAN + x;
    }
    let ax = x.abs();
    // tanpi is odd: compute for |x| and apply the sign of x.
    let v = if ax >= 9007199254740992.0 {
        0.0 // 2^53 and above: even integers
    } else {
        let r = ax % 2.0; // exact
        let odd = r >= 1.0;
        let f = if odd { r - 1.0 } else { r }; // [0, 1), exact
        if f == 0.0 {
            if odd {
                -0.0
            } else {
                0.0
            }
        } else if f == 0.5 {
            if odd {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            }
        } else {
            // tan has period π: tan(π f) = tan(π (f - 1)); fold into (-0.5, 0.5).
            let g = if f > 0.5 { f - 1.0 } else { f };
            let ag = g.abs();
            let t = if ag <= 0.25 {
                tan_pi_small(ag)
            } else {
                1.0 / tan_pi_small(0.5 - ag)
            };
            t.copysign(g)
        }
    };
    if x.is_sign_negative() {
        -v
    } else {
        v
    }
}

pub fn tgamma(x: f64) -> f64 {
    libm::tgamma(x)
}
pub fn trunc(x: f64) -> f64 {
    x.trunc()
}
