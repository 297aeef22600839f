//! OpenCL.std math for `double` (OpenCL C 2.0 §6.13.2, 002 ULP table "Float64" column).
//!
//! Most transcendental functions come from the `libm` crate (a pure-Rust port of musl/FreeBSD
//! msun, each within about 1 ulp, and deterministic on every host). Functions where `libm` or
//! the textbook formula would exceed 1 ulp are written with double-double intermediates so that
//! only the last step rounds: sinpi/cospi/tanpi (exact reduction, π applied in double-double,
//! msun kernels with the tail of the argument), acospi/asinpi/atanpi/atan2/atan2pi
//! ([`inverse_trig`](super::inverse_trig)), cosh/tanh/asinh/acosh/atanh (double-double exp and
//! log of [`exp_log`](super::exp_log)), tgamma ([`gamma`](super::gamma)), erfc
//! ([`erfc`](super::erfc)), exp10 and sinh (the double-double exp),
//! pown/rootn (double-double powers); also powr and remquo (OpenCL edge cases) and every edge
//! case of 002 "Edge Case Behavior".

// The constants keep the digits of their sources (FreeBSD msun, fdlibm).
#![allow(clippy::excessive_precision)]

use super::dd::{self, Dd};
use super::exp_log::{self, exp_dd, expm1_dd, log1p_dd, log_dd};
use super::inverse_trig;

crate::math::dispatch_tables!(f64; unary: []; binary: []);
crate::math::per_type_functions!(f64, u64);

pub fn acos(x: f64) -> f64 {
    libm::acos(x)
}
/// acosh(x) = log(x + sqrt(x² - 1)) with the sum in double-double (log1p of `x - 1 + sqrt(…)`
/// below 2); NaN for x < 1, acosh(1) = +0, acosh(+∞) = +∞.
pub fn acosh(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    if x < 1.0 {
        return f64::NAN;
    }
    if x.is_infinite() {
        return x;
    }
    acosh_dd(x).to_f64()
}

/// acosh(x) as a double-double, for finite x ≥ 1 (see [`acosh`]).
pub(crate) fn acosh_dd(x: f64) -> Dd {
    if x > 2.7e8 {
        // log(2x) - 1/(4x²), the latter below 2^-58 relative.
        return log_dd(x).add(exp_log::ln2());
    }
    let root = dd::two_prod(x, x).add_f64(-1.0).sqrt();
    if x < 2.0 {
        log1p_dd(root.add_f64(x - 1.0)) // x - 1 exact
    } else {
        let w = root.add_f64(x);
        log_dd(w.hi).add_f64(w.lo / w.hi)
    }
}
/// acos(x) / π; 002: acospi(1) = +0, NaN for |x| > 1.
pub fn acospi(x: f64) -> f64 {
    if x.is_nan() || x.abs() > 1.0 {
        return f64::NAN + x;
    }
    inverse_trig::acos_dd(x).div(dd::PI).to_f64()
}
pub fn asin(x: f64) -> f64 {
    libm::asin(x)
}
/// asinh(x) = sign(x)·log(|x| + sqrt(x² + 1)), the sum carried in double-double; below 0.5 as
/// log1p(|x| + x²/(1 + sqrt(1 + x²))).
pub fn asinh(x: f64) -> f64 {
    let ax = x.abs();
    if !x.is_finite() || ax < 3.7e-9 {
        return x; // asinh(x) = x(1 - x²/6): within half an ulp below 2^-28
    }
    asinh_dd(ax).to_f64().copysign(x)
}

/// asinh(x) as a double-double for finite x with |x| ≥ 3.7e-9 (sign included): the value
/// [`asinh`] rounds once to `f64`, and `float` asinh rounds once to `f32` where the `libm` value is
/// ambiguous.
pub(crate) fn asinh_dd(x: f64) -> Dd {
    let ax = x.abs();
    let r = if ax > 2.7e8 {
        // log(2|x|) + 1/(4x²), the latter below 2^-58 relative.
        log_dd(ax).add(exp_log::ln2())
    } else {
        let x2 = dd::two_prod(ax, ax);
        let root = x2.add_f64(1.0).sqrt();
        if ax >= 0.5 {
            let w = root.add_f64(ax);
            log_dd(w.hi).add_f64(w.lo / w.hi)
        } else {
            log1p_dd(x2.div(root.add_f64(1.0)).add_f64(ax))
        }
    };
    if x < 0.0 {
        r.neg()
    } else {
        r
    }
}
/// asin(x) / π; 002: asinpi(±0) = ±0, NaN for |x| > 1.
pub fn asinpi(x: f64) -> f64 {
    if x.is_nan() || x.abs() > 1.0 {
        return f64::NAN + x;
    }
    if x == 0.0 {
        return x;
    }
    inverse_trig::asin_dd(x).div(dd::PI).to_f64()
}
pub fn atan(x: f64) -> f64 {
    libm::atan(x)
}
/// atan2 with the final sum in double-double (C99 F.9.1.4 edge cases from `libm`).
pub fn atan2(y: f64, x: f64) -> f64 {
    if !(y.is_finite() && x.is_finite()) || y == 0.0 || x == 0.0 {
        return libm::atan2(y, x);
    }
    inverse_trig::atan2_dd(y, x).to_f64()
}
/// atanh(x) = sign(x)·log1p(2|x| / (1 - |x|)) / 2 in double-double; 002/F.9.2.3:
/// atanh(±1) = ±∞, NaN for |x| > 1.
pub fn atanh(x: f64) -> f64 {
    let ax = x.abs();
    if !(3.7e-9..1.0).contains(&ax) {
        return libm::atanh(x); // the edge cases; x itself below 2^-28
    }
    let u = Dd::from_f64(2.0 * ax).div(dd::two_sum(1.0, -ax));
    (0.5 * log1p_dd(u).to_f64()).copysign(x)
}
/// atan(x) / π; 002: atanpi(±0) = ±0, atanpi(±∞) = ±0.5.
pub fn atanpi(x: f64) -> f64 {
    if x.is_infinite() {
        return 0.5f64.copysign(x);
    }
    if x == 0.0 || x.is_nan() {
        return x;
    }
    inverse_trig::atan_dd(x).div(dd::PI).to_f64()
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
    inverse_trig::atan2_dd(y, x).div(dd::PI).to_f64()
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
/// cosh(x) = (e^|x| + e^-|x|)/2 with e^|x| = m·2^k in double-double, rounded once.
pub fn cosh(x: f64) -> f64 {
    let ax = x.abs();
    if !x.is_finite() {
        return ax; // NaN stays NaN, ±∞ → +∞
    }
    if ax < 7.4e-9 {
        return 1.0; // 1 + x²/2 rounds to 1 below 2^-27
    }
    if ax > 711.0 {
        return f64::INFINITY;
    }
    let (m, k) = exp_dd(Dd::from_f64(ax));
    let sum = if k > 60 {
        m
    } else {
        let inverse = Dd::from_f64(1.0).div(m).mul_pow2(libm::scalbn(1.0, -2 * k));
        m.add(inverse)
    };
    // One rounding to 53 bits, then an exact scaling (or overflow).
    libm::scalbn(sum.to_f64(), k - 1)
}

/// msun k_sin.c / k_cos.c coefficients (sin and cos on |x| ≤ π/4).
const SIN_S: [f64; 6] = [
    -1.66666666666666324348e-01,
    8.33333333332248946124e-03,
    -1.98412698298579493134e-04,
    2.75573137070700676789e-06,
    -2.50507602534068634195e-08,
    1.58969099521155010221e-10,
];
const COS_C: [f64; 6] = [
    4.16666666666666019037e-02,
    -1.38888888888741095749e-03,
    2.48015872894767294178e-05,
    -2.75573143513906633035e-07,
    2.08757232129817482790e-09,
    -1.13596475577881948265e-11,
];

/// sin(π r) for 0 ≤ r ≤ 0.25: the msun kernel on π r formed in double-double, its final
/// sum kept unrounded until the one rounding of `to_f64`.
fn sin_pi_small(r: f64) -> f64 {
    let a = dd::PI.mul_f64(r);
    let (x, y) = (a.hi, a.lo);
    let s = &SIN_S;
    let z = x * x;
    let w = z * z;
    let p = s[1] + z * (s[2] + z * s[3]) + z * w * (s[4] + z * s[5]);
    let v = z * x;
    let tail = -((z * (0.5 * y - v * p) - y) - v * s[0]);
    dd::fast_two_sum(x, tail).to_f64()
}

/// cos(π r) for 0 ≤ r ≤ 0.25: the msun kernel on π r in double-double, with x² exact.
fn cos_pi_small(r: f64) -> f64 {
    let a = dd::PI.mul_f64(r);
    let (x, y) = (a.hi, a.lo);
    let c = &COS_C;
    let zz = dd::two_prod(x, x);
    let z = zz.hi;
    let w = z * z;
    let p = z * (c[0] + z * (c[1] + z * c[2])) + w * w * (c[3] + z * (c[4] + z * c[5]));
    let hz = 0.5 * z;
    let one_minus = 1.0 - hz;
    let tail = ((1.0 - one_minus) - hz) + (z * p - x * y - 0.5 * zz.lo);
    dd::fast_two_sum(one_minus, tail).to_f64()
}

/// msun k_tan.c coefficients: tan(x) = x + x³·T0 + x⁵·(T1 + …) for |x| ≤ 0.6744.
const TAN_T: [f64; 13] = [
    3.33333333333334091986e-01,
    1.33333333333201242699e-01,
    5.39682539762260521377e-02,
    2.18694882948595424599e-02,
    8.86323982359930005737e-03,
    3.59207910759131235356e-03,
    1.45620945432529025516e-03,
    5.88041240820264096874e-04,
    2.46463134818469906812e-04,
    7.81794442939557092300e-05,
    7.14072491382608190305e-05,
    -1.85586374855275456654e-05,
    2.59073051863633712884e-05,
];

/// tan of a double-double `a` with 0 ≤ a ≤ 0.6744 as a double-double (the msun polynomial,
/// its sum with `a.hi` left unrounded).
fn tan_kernel_dd(a: Dd) -> Dd {
    let (x, y) = (a.hi, a.lo);
    let z = x * x;
    let w = z * z;
    let t = &TAN_T;
    let r = t[1] + w * (t[3] + w * (t[5] + w * (t[7] + w * (t[9] + w * t[11]))));
    let v = z * (t[2] + w * (t[4] + w * (t[6] + w * (t[8] + w * (t[10] + w * t[12])))));
    let s = z * x;
    let r = y + z * (s * (r + v) + y) + s * t[0];
    dd::fast_two_sum(x, r)
}

/// tan(π g) for 0 ≤ g ≤ 0.25 as a double-double; above π g = 0.6742 through
/// tan(π/4 - u) = (1 - tan u) / (1 + tan u) with u = π (0.25 - g), 0.25 - g exact.
fn tan_pi_small_dd(g: f64) -> Dd {
    if g <= 0.2146 {
        return tan_kernel_dd(dd::PI.mul_f64(g));
    }
    let t = tan_kernel_dd(dd::PI.mul_f64(0.25 - g));
    let one = Dd::from_f64(1.0);
    one.sub(t).div(one.add(t))
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

/// erfc within 1 ulp: see [`erfc`](super::erfc).
pub fn erfc(x: f64) -> f64 {
    super::erfc::erfc(x)
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
/// 10^x = e^(x·ln 10) with the product in double-double and the double-double exp, rounded
/// once (then scaled exactly, or rounded once more into the subnormal range). 002:
/// exp10(±0) = 1, exp10(-∞) = +0, exp10(+∞) = +∞.
pub fn exp10(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    if x > 308.5 {
        return f64::INFINITY; // 10^308.5 > 2^1024
    }
    if x < -324.5 {
        return 0.0; // 10^-324.5 < 2^-1077, a quarter of the smallest subnormal
    }
    let (m, k) = exp10_dd(x);
    libm::scalbn(m.to_f64(), k)
}

/// 10^x = m × 2^k with m a double-double (relative error about 2^-75) for x in
/// [-324.5, 308.5]: the value [`exp10`] rounds once, and `float` exp10 rounds once to `f32`
/// where the `libm` value is ambiguous.
pub(crate) fn exp10_dd(x: f64) -> (Dd, i32) {
    const LN_10: Dd = Dd {
        hi: core::f64::consts::LN_10,
        lo: -2.1707562233822494e-16,
    };
    exp_dd(LN_10.mul_f64(x))
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
/// log|Γ(x)| within 1 ulp: see [`gamma::lgamma_r`](super::gamma::lgamma_r).
pub fn lgamma(x: f64) -> f64 {
    lgamma_r(x).0
}
/// Returns `(lgamma(x), sign of gamma(x))`; 002: the sign is 0 for zero or a negative integer.
pub fn lgamma_r(x: f64) -> (f64, i32) {
    super::gamma::lgamma_r(x)
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
        // ratio = ax / r0^n ≈ 1; r = r0 × (1 + (ratio - 1) / n). The power in double-double
        // when it stays in the normal range (then ax is normal too), otherwise with a
        // separate exponent.
        let d = if let Some(p) = dd::powi_dd_in_range(r0, i64::from(n)) {
            let q = Dd::from_f64(ax).div(p);
            (q.hi - 1.0) + q.lo
        } else {
            let p = dd::powi_wide(r0, i64::from(n));
            let (mx, ex) = libm::frexp(ax);
            let q = Dd::from_f64(mx).div(p.dd);
            let scale = (i64::from(ex) - p.exp).clamp(-8, 8) as i32;
            let ratio_hi = libm::scalbn(q.hi, scale);
            let ratio_lo = libm::scalbn(q.lo, scale);
            (ratio_hi - 1.0) + ratio_lo
        };
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
    let q_lo = dd::two_prod(xs, sq.hi).lo + xs * sq.lo;
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
/// sinh(x) = (e^|x| - e^-|x|)/2 with e^|x| = m·2^k in double-double, rounded once; below
/// 2^-10 its series (`x` plus the rest in `f64`). NaN, ±0 and ±∞ are returned as they are.
pub fn sinh(x: f64) -> f64 {
    let ax = x.abs();
    if !x.is_finite() || x == 0.0 {
        return x;
    }
    if ax > 711.0 {
        return f64::INFINITY.copysign(x);
    }
    if ax < 1.0 / 1024.0 {
        // x³/6 + x⁵/120 + x⁷/5040 + x⁹/362880 relative to x: below 2^-21, so its f64
        // rounding is below 2^-74 of the result; the next term is below 2^-95.
        let z = x * x;
        let rest =
            x * z * (1.0 / 6.0 + z * (1.0 / 120.0 + z * (1.0 / 5040.0 + z * (1.0 / 362880.0))));
        return x + rest;
    }
    let (m, k) = exp_dd(Dd::from_f64(ax));
    let difference = if k > 60 {
        m
    } else {
        // m - 2^-2k/m: for |x| ≥ 2^-10 the cancellation costs at most 11 bits of the
        // double-double's 2^-77.
        let inverse = Dd::from_f64(1.0).div(m).mul_pow2(libm::scalbn(1.0, -2 * k));
        m.sub(inverse)
    };
    // One rounding to 53 bits, then an exact scaling (or overflow).
    libm::scalbn(difference.to_f64(), k - 1).copysign(x)
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
/// tanh(|x|) = -e / (2 + e) with e = expm1(-2|x|) in double-double, rounded once.
pub fn tanh(x: f64) -> f64 {
    let ax = x.abs();
    if x.is_nan() || ax < 3.7e-9 {
        return x; // tanh(x) = x(1 - x²/3): within half an ulp below 2^-28
    }
    if ax > 22.0 {
        return 1.0f64.copysign(x); // 1 - 2e^-44 rounds to 1; ±∞ → ±1
    }
    let e = expm1_dd(Dd::from_f64(-2.0 * ax));
    e.neg().div(e.add_f64(2.0)).to_f64().copysign(x)
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
                tan_pi_small_dd(ag).to_f64()
            } else {
                Dd::from_f64(1.0).div(tan_pi_small_dd(0.5 - ag)).to_f64()
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

/// Γ(x), within 1 ulp: see [`gamma`](super::gamma).
pub fn tgamma(x: f64) -> f64 {
    super::gamma::tgamma(x)
}
pub fn trunc(x: f64) -> f64 {
    x.trunc()
}
