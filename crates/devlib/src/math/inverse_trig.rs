//! atan, asin, acos and atan2 for `double` as double-double values (relative error about
//! 2^-58 before the one final rounding), so that atan2 and the `…pi` functions (divided by π
//! in double-double) round once: within 1 ulp (002 table: 5–6 ulp).
//!
//! The polynomial and rational approximations are those of FreeBSD msun (s_atan.c, e_asin.c,
//! through the `libm` crate); the argument transformations and the final sums are carried in
//! double-double here, which removes the roundings that make the plain versions reach 1 ulp.

// The constants keep the digits of their sources (FreeBSD msun, fdlibm).
#![allow(clippy::excessive_precision)]

use super::dd::{self, Dd};

/// atan of the reduction points 0.5, 1, 1.5, ∞ (hi + lo).
const ATAN_HI: [f64; 4] = [
    4.63647609000806093515e-01,
    core::f64::consts::FRAC_PI_4,
    9.82793723247329054082e-01,
    core::f64::consts::FRAC_PI_2,
];
const ATAN_LO: [f64; 4] = [
    2.26987774529616870924e-17,
    3.06161699786838301793e-17,
    1.39033110312309984516e-17,
    6.12323399573676603587e-17,
];
const AT: [f64; 11] = [
    3.33333333333329318027e-01,
    -1.99999999998764832476e-01,
    1.42857142725034663711e-01,
    -1.11111104054623557880e-01,
    9.09088713343650656196e-02,
    -7.69187620504482999495e-02,
    6.66107313738753120669e-02,
    -5.83357013379057348645e-02,
    4.97687799461593236017e-02,
    -3.65315727442169155270e-02,
    1.62858201153657823623e-02,
];

/// `t³·(…)` such that atan(t) = t - atan_poly(t), for |t| ≤ 0.4375.
fn atan_poly(t: f64) -> f64 {
    let z = t * t;
    let w = z * z;
    let s1 = z * (AT[0] + w * (AT[2] + w * (AT[4] + w * (AT[6] + w * (AT[8] + w * AT[10])))));
    let s2 = w * (AT[1] + w * (AT[3] + w * (AT[5] + w * (AT[7] + w * AT[9]))));
    t * (s1 + s2)
}

/// atan of a double-double `t` with |t| ≤ 0.4375 (the tail enters as lo / (1 + t²)).
fn atan_small(t: Dd) -> Dd {
    let corr = t.lo / (1.0 + t.hi * t.hi) - atan_poly(t.hi);
    dd::fast_two_sum(t.hi, corr)
}

/// atan(x) for finite `x ≥ 0` as a double-double.
fn atan_nonneg(x: f64) -> Dd {
    if x < 0.4375 {
        return atan_small(Dd::from_f64(x));
    }
    let (id, t) = if x < 0.6875 {
        // (2x - 1) / (2 + x): 2x - 1 is exact here.
        (0, Dd::from_f64(2.0 * x - 1.0).div(dd::two_sum(2.0, x)))
    } else if x < 1.1875 {
        (1, Dd::from_f64(x - 1.0).div(dd::two_sum(x, 1.0)))
    } else if x < 2.4375 {
        // (x - 1.5) / (1 + 1.5x): x - 1.5 exact, 1.5x + 1 formed exactly.
        let den = dd::two_prod(1.5, x).add_f64(1.0);
        (2, Dd::from_f64(x - 1.5).div(den))
    } else if x < 1.0e300 {
        (3, Dd::from_f64(-1.0).div(Dd::from_f64(x)))
    } else {
        (3, Dd::from_f64(-1.0 / x))
    };
    let a = atan_small(t);
    Dd {
        hi: ATAN_HI[id],
        lo: ATAN_LO[id],
    }
    .add(a)
}

/// atan(x) as a double-double; `x` finite or infinite, not NaN.
pub(crate) fn atan_dd(x: f64) -> Dd {
    if x.is_infinite() {
        return if x > 0.0 {
            dd::FRAC_PI_2
        } else {
            dd::FRAC_PI_2.neg()
        };
    }
    let a = atan_nonneg(x.abs());
    if x.is_sign_negative() {
        a.neg()
    } else {
        a
    }
}

/// atan of a positive double-double argument `q` (|lo| tiny against hi).
fn atan_dd_arg(q: Dd) -> Dd {
    let a = atan_nonneg(q.hi);
    a.add_f64(q.lo / (1.0 + q.hi * q.hi))
}

/// atan2(y, x) for finite, non-zero x and y (the edge cases are the callers'), as a
/// double-double.
pub(crate) fn atan2_dd(y: f64, x: f64) -> Dd {
    let ey = libm::ilogb(y);
    let ex = libm::ilogb(x);
    let pi = dd::PI;
    // Quotient far beyond 2^60: ±π/2 up to far less than an ulp.
    if ey - ex > 60 {
        let r = dd::FRAC_PI_2.add_f64(-(x / y));
        return if y < 0.0 { r.neg() } else { r };
    }
    let quotient_tiny = ex - ey > 60;
    // Scale both by the same power of two so the quotient and its remainder stay normal.
    let k = -ex;
    let (ys, xs) = (scale(y, k), scale(x, k));
    let a = if !ys.is_normal() {
        // The quotient is subnormal: one rounding of the unscaled quotient (scaling a
        // subnormal y down would already round).
        Dd::from_f64(y.abs() / x.abs())
    } else if quotient_tiny {
        dd::div_f64(ys.abs(), xs.abs()) // atan(t) = t to far below an ulp
    } else {
        atan_dd_arg(dd::div_f64(ys.abs(), xs.abs()))
    };
    let r = if x < 0.0 { pi.sub(a) } else { a };
    if y < 0.0 {
        r.neg()
    } else {
        r
    }
}

/// x·2^k in two exact steps (k may exceed the exponent range of one power of two).
fn scale(x: f64, k: i32) -> f64 {
    let h = k / 2;
    libm::scalbn(libm::scalbn(x, h), k - h)
}

const P_S: [f64; 6] = [
    1.66666666666666657415e-01,
    -3.25565818622400915405e-01,
    2.01212532134862925881e-01,
    -4.00555345006794114027e-02,
    7.91534994289814532176e-04,
    3.47933107596021167570e-05,
];
const Q_S: [f64; 4] = [
    -2.40339491173441421878e+00,
    2.02094576023350569471e+00,
    -6.88283971605453293030e-01,
    7.70381505559019352791e-02,
];

/// R(z) with asin(x) = x + x·R(x²) for |x| ≤ 0.5 (msun e_asin.c).
fn asin_r(z: f64) -> f64 {
    let p = z * (P_S[0] + z * (P_S[1] + z * (P_S[2] + z * (P_S[3] + z * (P_S[4] + z * P_S[5])))));
    let q = 1.0 + z * (Q_S[0] + z * (Q_S[1] + z * (Q_S[2] + z * Q_S[3])));
    p / q
}

/// asin(x) for |x| ≤ 0.5 as a double-double.
fn asin_small(x: f64) -> Dd {
    dd::fast_two_sum(x, x * asin_r(x * x))
}

/// 2·asin(sqrt(z)) for 0 ≤ z ≤ 0.25 as a double-double (z = (1 - |x|)/2, exact).
fn two_asin_sqrt(z: f64) -> Dd {
    let s = Dd::from_f64(z).sqrt();
    let w = s.add_f64(s.hi * asin_r(z));
    w.mul_pow2(2.0)
}

/// asin(x) for |x| ≤ 1 as a double-double.
pub(crate) fn asin_dd(x: f64) -> Dd {
    let ax = x.abs();
    let r = if ax <= 0.5 {
        asin_small(ax)
    } else {
        // asin(x) = π/2 - 2 asin(sqrt((1 - x)/2))
        dd::FRAC_PI_2.sub(two_asin_sqrt((1.0 - ax) * 0.5))
    };
    if x.is_sign_negative() {
        r.neg()
    } else {
        r
    }
}

/// acos(x) for |x| ≤ 1 as a double-double.
pub(crate) fn acos_dd(x: f64) -> Dd {
    if x.abs() <= 0.5 {
        return dd::FRAC_PI_2.sub(asin_small(x.abs()).mul_pow2(x.signum()));
    }
    let w = two_asin_sqrt((1.0 - x.abs()) * 0.5);
    if x > 0.0 {
        w
    } else {
        dd::PI.sub(w)
    }
}
