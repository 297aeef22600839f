//! The slow paths of the correctly rounded `float` functions: for an argument whose `f64`
//! value lies too close to a midpoint between two floats (`rounding::f64_to_f32_if_clear`),
//! the function evaluated once more in double-double (relative error 2^-58 to 2^-100, far
//! below the distance of any float function value from a midpoint found so far) and rounded
//! once (`rounding::dd_to_f32`), or decided exactly where the function is algebraic: cbrt,
//! rsqrt and hypot compare the cube, square or sum of squares of the midpoint with the
//! argument in exact arithmetic; pow recognises results that are exactly a midpoint.
//!
//! Every function here is called for finite results near a rounding boundary of `float`: in
//! the normal range, in the subnormal range (spacing 2^-149, `dd_to_f32` rounds there once
//! too) or at the overflow threshold; and with the arguments the `f64` function saw, after its
//! edge cases.

use super::dd::{self, Dd};
use super::exp_log::{self, exp_dd, expm1_dd, log1p_dd, log_dd};
use super::inverse_trig;
use super::rounding::dd_to_f32;
use super::trig_dd;

/// 1 / ln 2 as a double-double (mpmath, 300 bits).
const INV_LN2: Dd = Dd {
    hi: core::f64::consts::LOG2_E,
    lo: 2.0355273740931033e-17,
};
/// 1 / ln 10 as a double-double (mpmath, 300 bits).
const INV_LN10: Dd = Dd {
    hi: core::f64::consts::LOG10_E,
    lo: 1.098319650216765e-17,
};
/// 2 / √π as a double-double (mpmath, 300 bits).
const TWO_OVER_SQRT_PI: Dd = Dd {
    hi: core::f64::consts::FRAC_2_SQRT_PI,
    lo: 1.533545961316588e-17,
};

/// `m × 2^k` rounded once to `f32` (`m` a double-double near [1, 2), `k` in the `float`
/// exponent range and a little beyond, where the scaling is exact).
fn scaled_to_f32(m: Dd, k: i32) -> f32 {
    dd_to_f32(m.mul_pow2(libm::scalbn(1.0, k)))
}

/// The sign of `x` on the `f32` result `r` (odd functions).
fn with_sign_of(r: f32, x: f32) -> f32 {
    if x.is_sign_negative() {
        -r
    } else {
        r
    }
}

/// asin in double-double (`inverse_trig::asin_dd`, msun's rational with the reduction and
/// final sums in double-double, about 2^-58).
#[cold]
pub(crate) fn asin(x: f32) -> f32 {
    dd_to_f32(inverse_trig::asin_dd(f64::from(x)))
}

/// asin(x)/π: [`asin`]'s double-double divided by π in double-double.
#[cold]
pub(crate) fn asinpi(x: f32) -> f32 {
    dd_to_f32(inverse_trig::asin_dd(f64::from(x)).div(dd::PI))
}

/// acos(x)/π: `inverse_trig::acos_dd` divided by π in double-double.
#[cold]
pub(crate) fn acospi(x: f32) -> f32 {
    dd_to_f32(inverse_trig::acos_dd(f64::from(x)).div(dd::PI))
}

/// atan in double-double (`inverse_trig::atan_dd`, about 2^-58).
#[cold]
pub(crate) fn atan(x: f32) -> f32 {
    dd_to_f32(inverse_trig::atan_dd(f64::from(x)))
}

/// atan(x)/π: [`atan`]'s double-double divided by π in double-double.
#[cold]
pub(crate) fn atanpi(x: f32) -> f32 {
    dd_to_f32(inverse_trig::atan_dd(f64::from(x)).div(dd::PI))
}

/// atan2 for finite non-zero operands (the `f64` function's edge cases give exact or
/// non-normal values, which are never ambiguous; others fall back to its rounding).
#[cold]
pub(crate) fn atan2(y: f32, x: f32, fallback: f64) -> f32 {
    if !(y.is_finite() && x.is_finite()) || y == 0.0 || x == 0.0 {
        return fallback as f32;
    }
    dd_to_f32(inverse_trig::atan2_dd(f64::from(y), f64::from(x)))
}

/// atan2pi as [`atan2`].
#[cold]
pub(crate) fn atan2pi(y: f32, x: f32, fallback: f64) -> f32 {
    if !(y.is_finite() && x.is_finite()) || y == 0.0 || x == 0.0 {
        return fallback as f32;
    }
    dd_to_f32(inverse_trig::atan2_dd(f64::from(y), f64::from(x)).div(dd::PI))
}

/// atanh(x) = sign(x)·log1p(2|x| / (1 - |x|)) / 2, for 3.7e-9 ≤ |x| < 1 (the `f64`
/// function returns x itself below, exact and clear of every midpoint).
#[cold]
pub(crate) fn atanh(x: f32, fallback: f64) -> f32 {
    let ax = f64::from(x.abs());
    if !(3.7e-9..1.0).contains(&ax) {
        return fallback as f32;
    }
    let u = Dd::from_f64(2.0 * ax).div(dd::two_sum(1.0, -ax));
    with_sign_of(dd_to_f32(log1p_dd(u).mul_pow2(0.5)), x)
}

/// Of the two floats around the correctly rounded candidate `y` (an `f64` within a fraction
/// of a float ulp of the exact positive result), the lower and the upper neighbour and their
/// midpoint (exact in `f64`: 25 significant bits).
fn bracket(y: f64) -> (f32, f32, f64) {
    let r = y as f32;
    let (lo, hi) = if y >= f64::from(r) {
        (r, f32::from_bits(r.to_bits() + 1))
    } else {
        (f32::from_bits(r.to_bits() - 1), r)
    };
    (lo, hi, 0.5 * (f64::from(lo) + f64::from(hi)))
}

/// Correctly rounded cube root, decided exactly: with m the midpoint next to the `f64` cube
/// root, m³ (m² exact in `f64`, m²·m exact as a double-double) is compared with |x|. The
/// cube root of a float is never a midpoint (m³ has 73 or more significant bits).
#[cold]
pub(crate) fn cbrt(x: f32, y: f64) -> f32 {
    let ax = f64::from(x.abs());
    let (lo, hi, m) = bracket(y.abs());
    let p = dd::two_prod(m * m, m);
    // p.hi - ax is exact (Sterbenz: within a factor 2); the sum's sign is the exact sign.
    let d = (p.hi - ax) + p.lo;
    with_sign_of(if d > 0.0 { lo } else { hi }, x)
}

/// Correctly rounded 1/√x for finite x > 0, decided exactly: m²·x (m² exact in `f64`, the
/// product exact as a double-double) against 1. Never a midpoint (m²·x = 1 would make m a
/// power of two).
#[cold]
pub(crate) fn rsqrt(x: f32, y: f64) -> f32 {
    let (lo, hi, m) = bracket(y);
    let p = dd::two_prod(m * m, f64::from(x));
    let d = (p.hi - 1.0) + p.lo;
    if d > 0.0 {
        lo
    } else {
        hi
    }
}

/// Correctly rounded √(x² + y²), decided exactly: both operands scaled by the same power of
/// two so that the larger is in [1, 2) (exact: at most 276 binades apart, the squares stay
/// normal `f64`s of 48 bits), x² + y² as an exact double-double S, then the square of the
/// midpoint next to √S (exact in `f64`) compared with S; an exact midpoint (a Pythagorean
/// triple) rounds to even. Both operands subnormal: in units of 2^-149 (integers below 2^23),
/// the root of i² + j² < 2^47 rounded to an integer, which is the `float` grid there (below
/// 2^-125).
#[cold]
pub(crate) fn hypot(x: f32, y: f32, fallback: f64) -> f32 {
    let (a, b) = (f64::from(x.abs()), f64::from(y.abs()));
    let (big, small) = if a >= b { (a, b) } else { (b, a) };
    if !big.is_finite() || small == 0.0 {
        return fallback as f32;
    }
    if big < f64::from(f32::MIN_POSITIVE) {
        return subnormal_hypot(x.abs().to_bits(), y.abs().to_bits());
    }
    let e = libm::ilogb(big);
    let (bs, ss) = (libm::scalbn(big, -e), libm::scalbn(small, -e));
    let s = dd::two_sum(bs * bs, ss * ss);
    let root = libm::scalbn(fallback, -e);
    let (lo, hi, m) = bracket(root);
    let d = (s.hi - m * m) + s.lo;
    let r = if d < 0.0 {
        lo
    } else if d > 0.0 {
        hi
    } else if lo.to_bits() & 1 == 0 {
        lo
    } else {
        hi
    };
    libm::scalbnf(r, e)
}

/// √(i² + j²)·2^-149 correctly rounded, for the subnormal floats i·2^-149 and j·2^-149 (bit
/// patterns below 2^23): k = ⌊√n⌋ exactly (the `f64` root of n < 2^47, corrected by one step),
/// then k + 1 when n > k² + k, i.e. √n above k + ½ ((k + ½)² = k² + k + ¼ is never an integer,
/// so never a tie). k·2^-149 is a float (k < 2^24).
fn subnormal_hypot(i: u32, j: u32) -> f32 {
    let n = u64::from(i) * u64::from(i) + u64::from(j) * u64::from(j);
    let mut k = (n as f64).sqrt() as u64; // n exact in f64
    while k * k > n {
        k -= 1;
    }
    while (k + 1) * (k + 1) <= n {
        k += 1;
    }
    if n > k * k + k {
        k += 1;
    }
    (k as f32) * f32::from_bits(1)
}

/// cosh(x) = (e^|x| + e^-|x|)/2 in double-double (as the `f64` function, without its
/// rounding), for 7.4e-9 ≤ |x| (the `f64` function gives exactly 1 below).
#[cold]
pub(crate) fn cosh(x: f32, fallback: f64) -> f32 {
    let ax = f64::from(x.abs());
    if ax < 7.4e-9 {
        return fallback as f32;
    }
    let (m, k) = exp_dd(Dd::from_f64(ax));
    let sum = if k > 60 {
        m
    } else {
        m.add(Dd::from_f64(1.0).div(m).mul_pow2(libm::scalbn(1.0, -2 * k)))
    };
    scaled_to_f32(sum, k - 1)
}

/// sinh(x) = (e^|x| - e^-|x|)/2 in double-double (as the `f64` function); below 2^-10 its
/// series, `x` plus the rest (below 2^-21 of x, rounded once: 2^-74 of the result).
#[cold]
pub(crate) fn sinh(x: f32) -> f32 {
    let xd = f64::from(x);
    let ax = xd.abs();
    if ax < 1.0 / 1024.0 {
        let z = xd * xd;
        let rest =
            xd * z * (1.0 / 6.0 + z * (1.0 / 120.0 + z * (1.0 / 5040.0 + z * (1.0 / 362880.0))));
        return dd_to_f32(dd::fast_two_sum(xd, rest));
    }
    let (m, k) = exp_dd(Dd::from_f64(ax));
    let difference = if k > 60 {
        m
    } else {
        m.sub(Dd::from_f64(1.0).div(m).mul_pow2(libm::scalbn(1.0, -2 * k)))
    };
    with_sign_of(scaled_to_f32(difference, k - 1), x)
}

/// tanh(|x|) = -e / (2 + e) with e = expm1(-2|x|) in double-double, for 3.7e-9 ≤ |x| ≤ 22
/// (the `f64` function gives x below and ±1 above, never ambiguous).
#[cold]
pub(crate) fn tanh(x: f32, fallback: f64) -> f32 {
    let ax = f64::from(x.abs());
    if !(3.7e-9..=22.0).contains(&ax) {
        return fallback as f32;
    }
    let e = expm1_dd(Dd::from_f64(-2.0 * ax));
    with_sign_of(dd_to_f32(e.neg().div(e.add_f64(2.0))), x)
}

/// erf(x) = 2/√π · Σ (-1)^n x^(2n+1) / (n! (2n+1)) in double-double for |x| ≤ 4.5 (the
/// largest term, about 2^25 at 4.5, costs at most 2^-79 absolute against a result near 1;
/// summed until the terms fall below 2^-112). Beyond, erf rounds to ±1 clear of any
/// midpoint and the `f64` value's rounding is returned.
#[cold]
pub(crate) fn erf(x: f32, fallback: f64) -> f32 {
    let ax = f64::from(x.abs());
    if ax > 4.5 {
        return fallback as f32;
    }
    let x2 = dd::two_prod(ax, ax);
    let mut term = Dd::from_f64(ax); // x^(2n+1) / n!
    let mut sum = term;
    let mut n = 1.0f64;
    while n < 400.0 {
        term = term.mul(x2).div(Dd::from_f64(n));
        let t = term.div(Dd::from_f64(2.0 * n + 1.0));
        sum = if n % 2.0 == 1.0 {
            sum.sub(t)
        } else {
            sum.add(t)
        };
        if t.hi < sum.hi * f64::from_bits(0x38f0_0000_0000_0000) {
            // 2^-112 relative
            break;
        }
        n += 1.0;
    }
    with_sign_of(dd_to_f32(sum.mul(TWO_OVER_SQRT_PI)), x)
}

/// e^x = m·2^k by the double-double table exp (`exp_dd`, about 2^-77).
#[cold]
pub(crate) fn exp(x: f32) -> f32 {
    let (m, k) = exp_dd(Dd::from_f64(f64::from(x)));
    scaled_to_f32(m, k)
}

/// 2^x = e^(x ln 2), the product in double-double (error 2^-99 absolute for |x| < 150);
/// integers exactly (2^-150 is the midpoint between 0 and the smallest float: it rounds to
/// even, 0, where the double-double value's error could fall on either side).
#[cold]
pub(crate) fn exp2(x: f32) -> f32 {
    if x == x.trunc() {
        return libm::scalbn(1.0, x.clamp(-1100.0, 1100.0) as i32) as f32;
    }
    let (m, k) = exp_dd(exp_log::ln2().mul_f64(f64::from(x)));
    scaled_to_f32(m, k)
}

/// e^x - 1 by `expm1_dd` (about 2^-70 relative).
#[cold]
pub(crate) fn expm1(x: f32) -> f32 {
    dd_to_f32(expm1_dd(Dd::from_f64(f64::from(x))))
}

/// log2(x) = log(x) · (1/ln 2) in double-double, for finite x > 0.
#[cold]
pub(crate) fn log2(x: f32) -> f32 {
    dd_to_f32(log_dd(f64::from(x)).mul(INV_LN2))
}

/// log10(x) = log(x) · (1/ln 10) in double-double, for finite x > 0.
#[cold]
pub(crate) fn log10(x: f32) -> f32 {
    dd_to_f32(log_dd(f64::from(x)).mul(INV_LN10))
}

/// log1p(x) in double-double, for finite x > -1.
#[cold]
pub(crate) fn log1p(x: f32) -> f32 {
    dd_to_f32(log1p_dd(Dd::from_f64(f64::from(x))))
}

/// sin(π r) for r in [0, 0.5] in double-double: the series at π r up to r = 0.25, cos(π (0.5
/// - r)) above (0.5 - r exact).
fn sinpi_dd(r: f64) -> Dd {
    if r <= 0.25 {
        trig_dd::series(dd::PI.mul_f64(r), 1)
    } else {
        trig_dd::series(dd::PI.mul_f64(0.5 - r), 0)
    }
}

/// cos(π r) for r in [0, 0.5] in double-double.
fn cospi_dd(r: f64) -> Dd {
    if r <= 0.25 {
        trig_dd::series(dd::PI.mul_f64(r), 0)
    } else {
        trig_dd::series(dd::PI.mul_f64(0.5 - r), 1)
    }
}

/// sin(π x) with the exact reduction of the `f64` sinpi (floats from 2^23 up are integers,
/// whose exact zero the `f64` function returns).
#[cold]
pub(crate) fn sinpi(x: f32, fallback: f64) -> f32 {
    let ax = f64::from(x.abs());
    if ax >= 8388608.0 {
        return fallback as f32;
    }
    let mut r = ax % 2.0; // exact
    let mut negate = x < 0.0;
    if r >= 1.0 {
        r -= 1.0;
        negate = !negate;
    }
    if r > 0.5 {
        r = 1.0 - r; // exact
    }
    let v = dd_to_f32(sinpi_dd(r));
    if negate {
        -v
    } else {
        v
    }
}

/// cos(π x) with the exact reduction of the `f64` cospi.
#[cold]
pub(crate) fn cospi(x: f32, fallback: f64) -> f32 {
    let ax = f64::from(x.abs());
    if ax >= 8388608.0 {
        return fallback as f32;
    }
    let mut r = ax % 2.0; // exact
    if r > 1.0 {
        r = 2.0 - r;
    }
    let (r, negate) = if r > 0.5 { (1.0 - r, true) } else { (r, false) };
    let v = dd_to_f32(cospi_dd(r));
    if negate {
        -v
    } else {
        v
    }
}

/// tan(π x) with the exact reduction of the `f64` tanpi: tan(π g) = sin(π g) / cos(π g) for
/// |g| ≤ 0.25, cos(π h) / sin(π h) with h = 0.5 - |g| above (exact).
#[cold]
pub(crate) fn tanpi(x: f32, fallback: f64) -> f32 {
    let ax = f64::from(x.abs());
    if ax >= 8388608.0 {
        return fallback as f32;
    }
    let r = ax % 2.0;
    let f = if r >= 1.0 { r - 1.0 } else { r };
    let g = if f > 0.5 { f - 1.0 } else { f };
    let ag = g.abs();
    let t = if ag <= 0.25 {
        let a = dd::PI.mul_f64(ag);
        trig_dd::series(a, 1).div(trig_dd::series(a, 0))
    } else {
        let a = dd::PI.mul_f64(0.5 - ag);
        trig_dd::series(a, 0).div(trig_dd::series(a, 1))
    };
    let v = dd_to_f32(t);
    // tanpi is odd in x, and tan(π g) has the sign of g.
    let v = if g < 0.0 { -v } else { v };
    if x.is_sign_negative() {
        -v
    } else {
        v
    }
}

/// Whether `ax^y` (ax > 0 a float, y a float) is exactly `mid` (a positive `f64` with an odd
/// integer mantissa of at most 25 bits: a midpoint between two floats, normal or subnormal,
/// e.g. (k + ½)·2^-149 or 2^-150). With y = n/2^j (n odd when j > 0), x = ux·2^ex and mid =
/// um·2^em (ux, um odd), that is ux^n = um^(2^j) and ex·n = em·2^j; by unique factorisation
/// the first holds exactly when ux = w^(2^j) and um = w^n for an integer w: w = 1 (x and the
/// midpoint powers of two: um = 1, any n) or w ≥ 3 and n ≥ 1 (w^n = um > 1 needs n > 0).
/// Integer arithmetic, overflow meaning "no" (um < 2^25).
fn pow_is_exactly(ax: f32, y: f32, mid: f64) -> bool {
    fn odd_split(v: f64) -> Option<(u64, i64)> {
        // v = u·2^e with u odd (v finite, positive).
        let (m, e) = libm::frexp(v); // v = m·2^e, m in [0.5, 1)
        let int = (m * 9007199254740992.0) as u64; // m·2^53, exact
        if int == 0 {
            return None;
        }
        let tz = int.trailing_zeros();
        Some((int >> tz, i64::from(e) - 53 + i64::from(tz)))
    }
    let (Some((ux, ex)), Some((uy, ey)), Some((um, em))) = (
        odd_split(f64::from(ax)),
        odd_split(f64::from(y.abs())),
        odd_split(mid),
    ) else {
        return false;
    };
    // |y| = uy·2^ey = |n| / 2^j.
    let (abs_n, j) = if ey >= 0 {
        if ey > 16 {
            // |n| ≥ 2^17: w ≥ 3 would make w^n far beyond 25 bits; w = 1 needs |ex·n| =
            // |em|·2^j ≤ 150·2^8 (or ex = 0: x = 1, whose powers are no midpoint).
            return false;
        }
        (uy << ey, 0u32)
    } else {
        (uy, (-ey) as u32)
    };
    if j > 8 {
        // w = 1: 2^j divides ex·n with n odd, so 2^j ≤ |ex| < 2^8; w ≥ 3: w^(2^j) ≤ 2^24.
        return false;
    }
    // w: the exact 2^j-th root of ux (ux < 2^24: j ≤ 4 unless w = 1).
    let mut w = ux;
    for _ in 0..j {
        if w == 1 {
            break;
        }
        let root = (w as f64).sqrt() as u64; // exact for perfect squares below 2^53
        if root * root != w {
            return false;
        }
        w = root;
    }
    let power_matches = if w == 1 {
        um == 1
    } else {
        if y < 0.0 {
            return false;
        }
        let mut p: u64 = 1;
        for _ in 0..abs_n {
            p = match p.checked_mul(w) {
                Some(v) if v <= um => v,
                _ => return false,
            };
        }
        p == um
    };
    let n = if y < 0.0 {
        -(abs_n as i64)
    } else {
        abs_n as i64
    };
    power_matches && ex.checked_mul(n) == em.checked_mul(1 << j)
}

/// |x|^y = e^(y·log|x|) in double-double (log_dd's 2^-74 relative error times |y log x| ≤
/// 150 for a normal result: 2^-67 of the result), rounded once; a result exactly on a
/// midpoint (an exact power: y = n/2^j with x a perfect 2^j-th power, see [`pow_is_exactly`];
/// subnormal midpoints such as 2^-150 = 2^(-75·2) included) rounds to even.
/// `negative` gives the result's sign (a negative x with an odd integer y).
fn pow_magnitude(ax: f32, y: f32, negative: bool) -> f32 {
    let l = log_dd(f64::from(ax)).mul_f64(f64::from(y));
    let (m, k) = exp_dd(l);
    let v = m.mul_pow2(libm::scalbn(1.0, k));
    let (lo, hi, mid) = bracket(v.hi);
    let near = ((v.hi - mid) + v.lo).abs() <= mid * f64::from_bits(0x3c00_0000_0000_0000); // 2^-63
    let r = if near && pow_is_exactly(ax, y, mid) {
        if lo.to_bits() & 1 == 0 {
            lo
        } else {
            hi
        }
    } else {
        dd_to_f32(v)
    };
    if negative {
        -r
    } else {
        r
    }
}

/// pow(x, y) for finite non-zero x and finite y (others are the `f64` function's edge cases,
/// exact or non-normal, returned as rounded).
#[cold]
pub(crate) fn pow(x: f32, y: f32, fallback: f64) -> f32 {
    if !(x.is_finite() && y.is_finite()) || x == 0.0 || y == 0.0 {
        return fallback as f32;
    }
    let negative = if x < 0.0 {
        // Only integer y give a number; odd ones a negative result.
        if y != y.trunc() {
            return fallback as f32;
        }
        (y * 0.5) != (y * 0.5).trunc()
    } else {
        false
    };
    pow_magnitude(x.abs(), y, negative)
}

/// powr(x, y) for finite x > 0 and finite non-zero y.
#[cold]
pub(crate) fn powr(x: f32, y: f32, fallback: f64) -> f32 {
    if !(x.is_finite() && y.is_finite()) || x <= 0.0 || y == 0.0 {
        return fallback as f32;
    }
    pow_magnitude(x, y, false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::f64 as d;

    /// Pseudo-random float bit patterns (xorshift), every sign and exponent.
    fn patterns(count: usize) -> impl Iterator<Item = f32> {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        (0..count).map(move |_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            f32::from_bits((state >> 32) as u32)
        })
    }

    /// The `f64` value `y` rounded to `f32` where it is a normal float far (2^12 `f64` ulps)
    /// from any midpoint: then that is the correct rounding (the `f64` functions are within a
    /// few ulps), which the slow path must give too.
    fn clear(y: f64) -> Option<f32> {
        crate::math::rounding::f64_to_f32_if_clear(y, 1 << 12)
            .filter(|r| r.is_normal() && y.is_normal() && y.abs() >= f64::from(f32::MIN_POSITIVE))
    }

    type Unary = (&'static str, fn(f64) -> f64, fn(f32, f64) -> f32);

    /// Every slow path agrees with the `f64` function wherever that is clearly rounded: a check
    /// of each double-double evaluation and exact comparison over its whole domain.
    #[test]
    fn slow_paths_agree_with_the_f64_functions_where_those_are_clear() {
        let unary: [Unary; 21] = [
            ("acospi", d::acospi, |x, _| acospi(x)),
            ("asin", d::asin, |x, _| asin(x)),
            ("asinpi", d::asinpi, |x, _| asinpi(x)),
            ("atan", d::atan, |x, _| atan(x)),
            ("atanh", d::atanh, atanh),
            ("atanpi", d::atanpi, |x, _| atanpi(x)),
            ("cbrt", d::cbrt, cbrt),
            ("cosh", d::cosh, cosh),
            ("cospi", d::cospi, cospi),
            ("erf", d::erf, erf),
            ("exp", d::exp, |x, _| exp(x)),
            ("exp2", d::exp2, |x, _| exp2(x)),
            ("expm1", d::expm1, |x, _| expm1(x)),
            ("log2", d::log2, |x, _| log2(x)),
            ("log10", d::log10, |x, _| log10(x)),
            ("log1p", d::log1p, |x, _| log1p(x)),
            ("rsqrt", d::rsqrt, rsqrt),
            ("sinh", d::sinh, |x, _| sinh(x)),
            ("sinpi", d::sinpi, sinpi),
            ("tanh", d::tanh, tanh),
            ("tanpi", d::tanpi, tanpi),
        ];
        for (name, wide, slow) in unary {
            let mut checked = 0;
            // Arguments in [-8, 8] (the interesting range of most) and over every exponent.
            let small = patterns(4000).map(|x| x.clamp(-1.0, 1.0) * 8.0);
            for x in patterns(6000).chain(small) {
                let y = wide(f64::from(x));
                if let Some(want) = clear(y) {
                    let got = slow(x, y);
                    assert_eq!(
                        got.to_bits(),
                        want.to_bits(),
                        "{name}({x:e}): {got:e} vs {want:e}"
                    );
                    checked += 1;
                }
            }
            assert!(checked > 500, "{name}: only {checked} arguments checked");
        }
        type Binary = (&'static str, fn(f64, f64) -> f64, fn(f32, f32, f64) -> f32);
        let binary: [Binary; 5] = [
            ("atan2", d::atan2, atan2),
            ("atan2pi", d::atan2pi, atan2pi),
            ("hypot", d::hypot, hypot),
            ("pow", d::pow, pow),
            ("powr", d::powr, powr),
        ];
        for (name, wide, slow) in binary {
            let mut checked = 0;
            let xs: Vec<f32> = patterns(3000).collect();
            let ys = patterns(3000).skip(1000).map(|y| y.clamp(-1.0, 1.0) * 40.0);
            for (&x, y) in xs.iter().zip(ys) {
                for (a, b) in [(x, y), (x.abs().clamp(0.0, 4.0), y), (y, x)] {
                    let v = wide(f64::from(a), f64::from(b));
                    if let Some(want) = clear(v) {
                        let got = slow(a, b, v);
                        assert_eq!(
                            got.to_bits(),
                            want.to_bits(),
                            "{name}({a:e}, {b:e}): {got:e} vs {want:e}"
                        );
                        checked += 1;
                    }
                }
            }
            assert!(checked > 500, "{name}: only {checked} arguments checked");
        }
    }

    /// Results that are exactly a midpoint between two floats round to the even one (hand
    /// computation: 257³, 11⁷, 4097² and 17002001 = √(14997999² + 8008000²) are odd 25-bit
    /// integers, halfway between the floats around them, which are the even integers).
    #[test]
    fn exact_midpoints_round_to_even() {
        // pow(66049, 1.5) = 257³ = 16974593: 16974592 has the even mantissa (≡ 0 mod 4).
        assert_eq!(pow(66049.0, 1.5, d::pow(66049.0, 1.5)), 16974592.0);
        // pow(14641, 1.75) = 11⁷ = 19487171: 19487172 ≡ 0 mod 4.
        assert_eq!(pow(14641.0, 1.75, d::pow(14641.0, 1.75)), 19487172.0);
        // pow(4097, 2) = 16785409: 16785408 ≡ 0 mod 4; also with a negative base.
        assert_eq!(pow(4097.0, 2.0, d::pow(4097.0, 2.0)), 16785408.0);
        assert_eq!(pow(-4097.0, 2.0, d::pow(-4097.0, 2.0)), 16785408.0);
        assert_eq!(powr(4097.0, 2.0, d::powr(4097.0, 2.0)), 16785408.0);
        // pow(-257, 3) = -16974593.
        assert_eq!(pow(-257.0, 3.0, d::pow(-257.0, 3.0)), -16974592.0);
        let (a, b) = (14997999.0f32, 8008000.0f32);
        assert_eq!(
            hypot(a, b, d::hypot(f64::from(a), f64::from(b))),
            17002000.0
        );
        // Scaled by powers of two (exactly), the same rounding.
        let (a, b) = (a * 2f32.powi(-100), b * 2f32.powi(-100));
        let want = 17002000.0 * 2f32.powi(-100);
        assert_eq!(hypot(a, b, d::hypot(f64::from(a), f64::from(b))), want);
    }
}
