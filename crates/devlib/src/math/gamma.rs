//! tgamma for `double` within 1 ulp (002 table: 16 ulp): Stirling's series in double-double
//! for arguments of at least 12, and below that `Γ(x) = Γ(x + n) / (x (x+1) … (x+n-1))` with
//! the product in double-double (which also covers negative x, without a reflection through a
//! rounded sin(πx)). Only the last step rounds.

// The constants keep the digits of their sources (FreeBSD msun, fdlibm).
#![allow(clippy::excessive_precision)]

use super::dd::{self, Dd};
use super::exp_log::{exp_dd, exp_fast, ln2, log_dd};
use super::lgamma_table::{FIRST_CENTRE_32THS, LGAMMA_TAYLOR};
use super::lgamma_zeros::LGAMMA_ZEROS;
use super::log_fast::log_fast;

/// sqrt(2π) as a double-double.
const SQRT_2PI: Dd = Dd {
    hi: 2.5066282746310007,
    lo: -1.8328579980459167e-16,
};

/// log π as a double-double.
const LOG_PI: Dd = Dd {
    hi: 1.1447298858494002,
    lo: 1.0265951162707826e-17,
};

/// ½ log 2π as a double-double.
const LOG_SQRT_2PI: Dd = Dd {
    hi: 0.9189385332046728,
    lo: -3.8782941580672414e-17,
};

/// B_2k / (2k (2k - 1)), k = 1 … 10: log Γ(y) = (y - ½) log y - y + ½ log 2π + Σ c_k y^(1-2k).
const STIRLING: [f64; 10] = [
    0.08333333333333333,
    -0.002777777777777778,
    0.0007936507936507937,
    -0.0005952380952380953,
    0.0008417508417508417,
    -0.0019175269175269176,
    0.00641025641025641,
    -0.029550653594771242,
    0.17964437236883057,
    -1.3924322169059011,
];

/// Where Stirling's series (10 terms) is accurate to about 2^-70.
const STIRLING_FROM: f64 = 12.0;

/// log Γ(y) - ½ log 2π for a double-double y ≥ 12 (finite) by Stirling's series, absolute
/// error about 2^-100 · (y log y). `FAST`: 1/y from one division and its fma residual (relative
/// error about 2^-100, as the double-double division's but one division instead of three).
#[inline(always)]
fn stirling_core<const FAST: bool>(y: Dd) -> Dd {
    let (inv, first) = if FAST {
        let inv = recip(y);
        (inv.hi, inv.mul(ONE_TWELFTH))
    } else {
        // The first term, 1/(12y) (up to 0.007), in double-double: in f64 its rounding
        // alone would be 2^-60 absolute.
        (1.0 / y.hi, Dd::from_f64(1.0).div(y.mul_f64(12.0)))
    };
    let z = inv * inv;
    // The other terms (below 2^-21) in f64.
    let rest = if FAST {
        // Estrin's scheme: four independent pairs instead of a chain of nine.
        let c = &STIRLING;
        let (z2, z4) = (z * z, z * z * (z * z));
        let q0 = z.mul_add(c[2], c[1]) + z2 * z.mul_add(c[4], c[3]);
        let q1 = z.mul_add(c[6], c[5]) + z2 * z.mul_add(c[8], c[7]);
        q0 + z4 * (q1 + z4 * c[9])
    } else {
        let mut rest = 0.0;
        for c in STIRLING[1..].iter().rev() {
            rest = rest * z + c;
        }
        rest
    };
    let rest = rest * z * inv;
    // The fast logarithm's absolute error (2^-71) is enough for both users of FAST: lgamma
    // (a result above 0.013 outside the Taylor series around zeros) and tgamma (2^-62 relative
    // error for (y - ½) log y ≤ 2^10).
    let log_y = if FAST { log_fast(y.hi) } else { log_dd(y.hi) }.add_f64(y.lo * inv);
    // (y - ½) log y - y written as (y - ½)(log y - 1) - ½: no intermediate above the result.
    y.add_f64(-0.5)
        .mul(log_y.add_f64(-1.0))
        .add_f64(-0.5)
        .add(first)
        .add_f64(rest)
}

/// 1/12 as a double-double.
const ONE_TWELFTH: Dd = Dd {
    hi: 0.08333333333333333,
    lo: 4.625929269271485e-18,
};

/// 1/y for a double-double y (|y.hi| normal, 1/y.hi too), relative error about 2^-100: the
/// residual 1 - y·(1/y.hi) is exact in its leading part (two_prod, Sterbenz).
#[inline(always)]
fn recip(y: Dd) -> Dd {
    let inv = 1.0 / y.hi;
    let p = dd::two_prod(y.hi, inv);
    let e = ((1.0 - p.hi) - p.lo) - y.lo * inv;
    dd::fast_two_sum(inv, inv * e)
}

/// Γ(y) = m × 2^k for a double-double y ≥ 12 (y.hi ≤ 172).
#[inline(always)]
fn stirling<const FAST: bool>(y: Dd) -> (Dd, i32) {
    let core = stirling_core::<FAST>(y);
    // The double-double exp: about 2^-77; the fast one: 2^-60, a 2^-7 ulp of the result.
    let (m, k) = if FAST { exp_fast(core) } else { exp_dd(core) };
    (m.mul(SQRT_2PI), k)
}

/// log Γ(y) for a double-double y ≥ 12 (`FAST`: absolute error about 2^-68, else
/// 2^-95).
#[inline(always)]
fn stirling_log<const FAST: bool>(y: Dd) -> Dd {
    stirling_core::<FAST>(y).add(LOG_SQRT_2PI)
}

/// `d` as `m × 2^e` with |m.hi| in [1, 2) (`d.hi` finite, normal and nonzero): exact.
#[inline(always)]
fn normalized(d: Dd) -> (Dd, i32) {
    let e = ((d.hi.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    // 2^-e is normal for the magnitudes here (|e| ≤ 2^9).
    let scale = f64::from_bits(((1023 - e) as u64) << 52);
    (d.mul_pow2(scale), e)
}

/// Γ(x) = q × 2^e for a finite non-integer x < 12 with |x| ≥ 8.7e-19 and x > -190, q within
/// about 2^-75 relative.
#[inline(always)]
fn shifted<const FAST: bool>(x: f64) -> (Dd, i32) {
    let (p, pe, y) = shift_product(x);
    let (m, k) = stirling::<FAST>(y);
    (m.div(p), k - pe)
}

/// log|Γ(x)| for a finite non-integer x > -190 with |x| ≥ 8.7e-19, absolute error
/// about 2^-68 with `FAST` (the logarithms of [`log_fast`]), else 2^-95 (`log_dd`).
#[inline(always)]
fn log_abs_gamma<const FAST: bool>(x: f64) -> Dd {
    if x >= STIRLING_FROM {
        return stirling_log::<FAST>(Dd::from_f64(x));
    }
    let (p, pe, y) = shift_product(x);
    let p = if p.hi < 0.0 { p.neg() } else { p };
    let log_p = if FAST { log_fast(p.hi) } else { log_dd(p.hi) }
        .add_f64(p.lo / p.hi)
        .add(ln2().mul_f64(f64::from(pe)));
    stirling_log::<FAST>(y).sub(log_p)
}

/// For x < 12 (finite, not an integer, |x| ≥ 8.7e-19, x > -190): the product
/// ∏_{j<n} (x + j) = p × 2^pe and y = x + n ≥ 12 (n = ⌈12 - x⌉), so Γ(x) = Γ(y) / (p 2^pe).
#[inline(always)]
fn shift_product(x: f64) -> (Dd, i32, Dd) {
    // Γ(x) = Γ(x + n) / ∏_{j<n} (x + j), each factor exact as a double-double. The product
    // runs as four independent chains (factors j ≡ 0, 1, 2, 3 mod 4), whose latencies
    // overlap. A chain holds at most 51 factors of magnitude below 2^8; the factors below 1/2
    // are at most one, the distance from x to an integer, at least 2^-60 (an ulp of x, or
    // |x| ≥ 8.7e-19 near 0). So no chain, nor the product of two, overflows or underflows;
    // those two products are normalised and combined with a separate binary exponent pe.
    let n = (STIRLING_FROM - x).ceil();
    let mut chains = [Dd::from_f64(1.0); 4];
    let mut j = 0.0;
    while j + 3.0 < n {
        for (k, chain) in chains.iter_mut().enumerate() {
            *chain = chain.mul(dd::two_sum(x, j + k as f64));
        }
        j += 4.0;
    }
    let mut k = 0;
    while j < n {
        chains[k] = chains[k].mul(dd::two_sum(x, j));
        j += 1.0;
        k += 1;
    }
    let (c0, e0) = normalized(chains[0].mul(chains[1]));
    let (c1, e1) = normalized(chains[2].mul(chains[3]));
    let p = c0.mul(c1);
    (p, e0 + e1, dd::two_sum(x, n))
}

dd::fma_dispatch! {
    /// Γ(x) with the edge cases of C99 F.9.5.4 and 002: Γ(±0) = ±∞, Γ(negative integer) =
    /// NaN, Γ(-∞) = NaN, Γ(+∞) = +∞.
    pub(crate) fn tgamma(x: f64) -> f64 = tgamma_body::<true>
}

dd::fma_dispatch! {
    /// Γ(x) as [`tgamma`] with the double-double exp, rounded to odd (`Dd::to_f64_odd`) so that
    /// one more rounding to `float` or `half` is correct: the fallback of the correctly rounded
    /// `float` and `half` tgamma. Rounding to nearest first misrounded tgamma(0x1.bd0d52p-48)
    /// and tgamma(0x1.c0a8eap-48) (found by scanning every float).
    pub(crate) fn tgamma_accurate(x: f64) -> f64 = tgamma_body::<false>
}

#[inline(always)]
fn tgamma_body<const FAST: bool>(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    if x == f64::INFINITY {
        return x;
    }
    if x == 0.0 {
        return f64::INFINITY.copysign(x);
    }
    if x < 0.0 && (x.is_infinite() || x == x.floor()) {
        return f64::NAN;
    }
    if x > 171.7 {
        return f64::INFINITY;
    }
    if x.abs() < 8.7e-19 {
        return 1.0 / x; // Γ(x) = 1/x - γ + O(x): γ is far below an ulp of 1/x here
    }
    if x < -190.0 {
        // |Γ(x)| < 2^-1100: a zero with the sign of Γ, negative where floor(x) is odd.
        return if floor_is_odd(x) { -0.0 } else { 0.0 };
    }
    if x >= STIRLING_FROM {
        let (m, k) = stirling::<FAST>(Dd::from_f64(x));
        return libm::scalbn(m.to_f64_nearest_or_odd::<FAST>(), k);
    }
    if FAST && x > 0.0 && x < 3.0 {
        // Γ(x) = e^lgamma(x) with lgamma's Taylor series (absolute error about 2^-64: that
        // of the series' part, at most 0.21, and log_fast's 2^-71) and the fast exponential
        // (2^-60 relative): no shift product.
        let (m, k) = exp_fast(lgamma_below_3_dd(x));
        return scale_once::<FAST>(m, k);
    }
    let (q, e) = if FAST && x < REFLECT_TGAMMA_BELOW {
        // Γ(x) = π / (sin(πx) Γ(1 - x)), 1 - x ≥ 12 exact as a double-double: no shift
        // product (up to 200 factors). The sine's relative error (about 2^-66) and the fast
        // exponential's (2^-60) stay far below an ulp.
        let (m, k) = stirling::<FAST>(dd::two_sum(1.0, -x));
        let q = dd::PI.div(abs_sin_pi_fast(x).mul(m));
        (if floor_is_odd(x) { q.neg() } else { q }, -k)
    } else {
        shifted::<FAST>(x)
    };
    scale_once::<FAST>(q, e)
}

/// q × 2^e rounded once, also into the subnormal range (q.hi normal, e any); normal results
/// rounded to odd for the accurate variant (`!FAST`, see [`tgamma_accurate`]).
#[inline(always)]
fn scale_once<const FAST: bool>(q: Dd, e: i32) -> f64 {
    // 2^s turns the subnormal spacing 2^-1074 of the result into 1 at q's scale.
    let s = 1074 + e;
    if libm::ilogb(q.hi) + e >= -1022 || s <= -60 {
        // A normal result, scaled in two exact steps (e may exceed one power of two's
        // range), or one below half of 2^-1074 (rounds to zero either way).
        let q = q.to_f64_nearest_or_odd::<FAST>();
        return libm::scalbn(libm::scalbn(q, e / 2), e - e / 2);
    }
    // Subnormal: round q × 2^s (below 2^52, exact as a double) to an integer k from the
    // double-double, then k × 2^-1074 is exact (rounding q first would round twice).
    let a = libm::scalbn(q.hi, s);
    let b = libm::scalbn(q.lo, s);
    // |a| < 2^52 may exceed `dd::round_to_int`'s range (2^51); a rare path.
    let mut k = a.round_ties_even();
    let r = (a - k) + b;
    if r > 0.5 {
        k += 1.0;
    } else if r < -0.5 {
        k -= 1.0;
    }
    k * f64::from_bits(1)
}

/// Below this, the fast tgamma takes the reflection formula (1 - x ≥ 12 needs no shift).
const REFLECT_TGAMMA_BELOW: f64 = -11.0;

/// Whether ⌊x⌋ is odd (|x| < 2^52): Γ(x) < 0 for x < 0 exactly there.
#[inline(always)]
fn floor_is_odd(x: f64) -> bool {
    let f = x.floor();
    (f * 0.5).floor() * 2.0 != f
}

/// Where lgamma takes the Taylor series around a zero x0: |lgamma| ≈ |c1 (x - x0)| < 2^-12.
/// Farther out the double-double log Γ's error (about 2^-95 absolute) is far below an ulp of
/// the result.
const NEAR_ZERO: f64 = 1.0 / 4096.0;

/// Below this, lgamma takes the reflection formula: (-17, -2) holds every zero of lgamma with
/// doubles near it, where the formula cancels; below, the closest approach of a result to 0
/// is |lgamma| ≈ 0.24 (next to -17), a cancellation of 2^7 at most.
const REFLECT_LGAMMA_BELOW: f64 = -17.0;

dd::fma_dispatch! {
    /// `(lgamma(x), sign of Γ(x))` within 1 ulp (msun's reaches 2 ulp, e.g. x ≈ 0.71, 11.3,
    /// below -190, and 10^15 ulp near the negative zeros): log|Γ(x)| in double-double, rounded
    /// once, for x ≥ 12 Stirling's series, for 0 < x < 3 Taylor series at the centres j/32
    /// ([`lgamma_below_3`], also next to the zeros 1 and 2), for 3 ≤ x < 12 and -17 < x < 0
    /// the shift product (`log Γ(x + n) - log|x (x+1) … (x+n-1)|`), next to each of the 29
    /// negative zeros with doubles near them lgamma's Taylor series with x0 as three doubles
    /// (`lgamma_zeros.rs`), below -17 the reflection formula `log π - log|sin πx| -
    /// log Γ(1 - x)`; `-log|x|` for |x| ≤ 8.7e-19. The sign is 0 for NaN, zero and the negative integers (002).
    pub(crate) fn lgamma_r(x: f64) -> (f64, i32) = lgamma_r_body::<true>
}

dd::fma_dispatch! {
    /// [`lgamma_r`] with its double-double values rounded to odd (`Dd::to_f64_odd`), so that
    /// one more rounding to `float` or `half` is correct: the fallback of the correctly
    /// rounded narrow lgamma. Rounding to nearest first misrounded lgamma(0x1.f8a754p-9) and
    /// lgamma(-0x1.ade594p-30) (found by scanning every float).
    pub(crate) fn lgamma_r_odd(x: f64) -> (f64, i32) = lgamma_r_body::<false>
}

#[inline(always)]
fn lgamma_r_body<const NEAREST: bool>(x: f64) -> (f64, i32) {
    if x > 8.7e-19 && x < 3.0 {
        return (lgamma_below_3::<NEAREST>(x), 1);
    }
    // One test for the usual arguments; everything else (NaN, ±0, ±∞, tiny, huge, the
    // negative integers) in `lgamma_edge`.
    let usual = if x > 0.0 {
        x > 8.7e-19 && x < f64::INFINITY
    } else {
        x < -8.7e-19 && x > -4.503599627370496e15 && x != x.floor()
    };
    if !usual {
        return lgamma_edge::<NEAREST>(x);
    }
    if x >= STIRLING_FROM {
        // lgamma overflows from about 2.5563e305 on: there the product (y - ½)(log y - 1)
        // rounds to ∞ and the double-double sum to ∞ or NaN (∞ - ∞).
        let v = Dd::to_f64_nearest_or_odd::<NEAREST>(stirling_log::<true>(Dd::from_f64(x)));
        return (if v.is_finite() { v } else { f64::INFINITY }, 1);
    }
    if x > 0.0 {
        // 3 ≤ x < 12: |lgamma| ≥ 0.69, so the fast log Γ's 2^-68 suffices.
        return (
            Dd::to_f64_nearest_or_odd::<NEAREST>(log_abs_gamma::<true>(x)),
            1,
        );
    }
    let sign = if floor_is_odd(x) { -1 } else { 1 };
    if x < REFLECT_LGAMMA_BELOW {
        // log|Γ(x)| = log π - log|sin πx| - log Γ(1 - x), 1 - x exact as a double-double; each
        // term within about 2^-66 relative, the cancellation at most 2^7.
        let s = abs_sin_pi_fast(x);
        let v = LOG_PI
            .sub(log_fast(s.hi).add_f64(s.lo / s.hi))
            .sub(stirling_log::<true>(dd::two_sum(1.0, -x)));
        return (Dd::to_f64_nearest_or_odd::<NEAREST>(v), sign);
    }
    (lgamma_negative_near::<NEAREST>(x), sign)
}

/// lgamma for 8.7e-19 < x < 3 by the Taylor series of lgamma at the nearest centre c = j/32
/// (`lgamma_table.rs`, |t| = |x - c| ≤ 1/64, degree 13: the first omitted term is below 2^-80
/// of the result): from 0.75 on directly, below as lgamma(1 + x) - log x (t = x - (c - 1)
/// exact, so 1 + x is never rounded; -log x > 0.28 dominates the sum, which stays above 0.2,
/// so `log_fast`'s 2^-71 absolute error is 2^-68 of it). c₀ + t (c₁ + c₂t + t²·tail) with
/// c₀, c₁ in double-double, c₂t exact and the tail (c₃ + c₄t + …) in `f64` by Estrin's
/// scheme: about 2^-64 of the result, also next to the zeros 1 and 2, which are centres with
/// c₀ = 0 (the result is t times a sum that does not cancel).
#[inline(always)]
fn lgamma_below_3<const NEAREST: bool>(x: f64) -> f64 {
    Dd::to_f64_nearest_or_odd::<NEAREST>(lgamma_below_3_dd(x))
}

/// The double-double value [`lgamma_below_3`] rounds (also the exponent of the fast tgamma
/// there).
#[inline(always)]
fn lgamma_below_3_dd(x: f64) -> Dd {
    // round(32 x) (x > 0): the centre j/32; t = x - j/32 exact (Sterbenz, or t = x for j = 0).
    let j = (x * 32.0 + 0.5) as i64;
    let t = x - j as f64 * (1.0 / 32.0);
    if x >= 0.75 {
        return lgamma_taylor(t, (j - FIRST_CENTRE_32THS) as usize);
    }
    // The centre (j + 32)/32 of 1 + x: 1 + x = (j + 32)/32 + t.
    lgamma_taylor(t, (j + 32 - FIRST_CENTRE_32THS) as usize).sub(log_fast(x))
}

/// lgamma(c + t) from the Taylor coefficients of the centre `index` (see [`lgamma_below_3`]).
#[inline(always)]
fn lgamma_taylor(t: f64, index: usize) -> Dd {
    let c = &LGAMMA_TAYLOR[index];
    // tail = c₃ + c₄t + … + c₁₃t^10 in f64 by Estrin's scheme (independent pairs); s = c₁ +
    // c₂t (exact product) + t²·tail, whose f64 part is at most 2^-12 |c₃/c₁| of s.
    let t2 = t * t;
    let t4 = t2 * t2;
    let p0 = c[6].mul_add(t, c[5]); // c₃ + c₄t
    let p1 = c[8].mul_add(t, c[7]);
    let p2 = c[10].mul_add(t, c[9]);
    let p3 = c[12].mul_add(t, c[11]);
    let p4 = c[14].mul_add(t, c[13]);
    let q0 = p1.mul_add(t2, p0);
    let q1 = p3.mul_add(t2, p2);
    let q2 = c[15].mul_add(t2, p4);
    let tail = q2.mul_add(t4 * t4, q1.mul_add(t4, q0));
    let s = Dd { hi: c[2], lo: c[3] }
        .add(dd::two_prod(t, c[4]))
        .add_f64(t2 * tail);
    Dd { hi: c[0], lo: c[1] }.add(s.mul_f64(t))
}

/// lgamma for -17 < x < 0 (x not an integer, |x| ≥ 8.7e-19): next to a zero of lgamma its
/// Taylor series, where the shift product's double-double log Γ (about 2^-95 absolute) would
/// not be accurate enough relative to the tiny result; elsewhere that log Γ.
#[inline(always)]
fn lgamma_negative_near<const NEAREST: bool>(x: f64) -> f64 {
    // The interval (-n-1, -n) holds the table's entries 2(n-2) and 2(n-2)+1 (n = 2 … 16; the
    // last interval only the first).
    let n = -x.floor() - 1.0;
    if n >= 2.0 {
        let first = 2 * (n as usize - 2);
        for z in LGAMMA_ZEROS.iter().skip(first).take(2) {
            let s = x - z.hi; // exact (Sterbenz) when x is near z.hi
                              // t = x - x0 as a double-double (x0 = hi + lo + lo2: next to the zeros closest to
                              // the integers, x = hi itself is 0.46 ulp from x0, outside the series' range).
            let t = dd::two_sum(s, -z.lo).add_f64(-z.lo2);
            if (t.hi * z.c1_hi).abs() < NEAR_ZERO {
                // lgamma = c1 t + t² (c2 + c3 t + …), the polynomial tail at most 2^-12 of the
                // first term, so plain f64 suffices for it.
                let mut tail = 0.0;
                for c in z.c.iter().rev() {
                    tail = tail * t.hi + c;
                }
                let c1 = Dd {
                    hi: z.c1_hi,
                    lo: z.c1_lo,
                };
                return Dd::to_f64_nearest_or_odd::<NEAREST>(c1.mul(t).add_f64(t.hi * t.hi * tail));
            }
        }
    }
    // The fast log Γ (2^-68) where |lgamma| ≥ ⅛ (below 2^-12 ulp), else the accurate one.
    let v = log_abs_gamma::<true>(x);
    if v.hi.abs() >= 0.125 {
        Dd::to_f64_nearest_or_odd::<NEAREST>(v)
    } else {
        Dd::to_f64_nearest_or_odd::<NEAREST>(log_abs_gamma::<false>(x))
    }
}

/// lgamma_r where msun's serves, or a formula of its own: see [`lgamma_r`].
#[cold]
#[inline(never)]
fn lgamma_edge<const NEAREST: bool>(x: f64) -> (f64, i32) {
    let (mut v, s) = libm::lgamma_r(x);
    if x != 0.0 && x.abs() <= 8.7e-19 {
        // lgamma(x) = -log|x| - γx + O(x²), γ|x| below 2^-13 ulp of the logarithm here.
        v = -Dd::to_f64_nearest_or_odd::<NEAREST>(log_dd(x.abs()));
    }
    if x.is_nan() || x == 0.0 || (x < 0.0 && x == x.floor()) {
        (v, 0)
    } else {
        (v, s)
    }
}

/// sin(πg) for 0 ≤ g ≤ ¼ is g·(π - (π³/6) g² + …): the first three coefficients in
/// double-double, the rest in `f64` (their terms below 2^-12 of the sum).
const SIN_PI_DD: [Dd; 3] = [
    dd::PI,
    Dd {
        hi: -5.16771278004997,
        lo: 2.2665622825789447e-16,
    },
    Dd {
        hi: 2.5501640398773455,
        lo: -7.931006345326556e-17,
    },
];
const SIN_PI_TAIL: [f64; 9] = [
    -0.5992645293207921,
    0.08214588661112823,
    -0.0073704309457143504,
    0.00046630280576761255,
    -2.1915353447830217e-05,
    7.952054001475513e-07,
    -2.2948428997269873e-08,
    5.392664662608129e-10,
    -1.0518471716932065e-11,
];

/// cos(πh) for 0 ≤ h ≤ ¼: 1 - (π²/2) h² + …, split as [`SIN_PI_DD`].
const COS_PI_DD: [Dd; 3] = [
    Dd { hi: 1.0, lo: 0.0 },
    Dd {
        hi: -4.934802200544679,
        lo: -3.1326477543698557e-16,
    },
    Dd {
        hi: 4.0587121264167685,
        lo: -2.6602000824298645e-16,
    },
];
const COS_PI_TAIL: [f64; 9] = [
    -1.3352627688545895,
    0.2353306303588932,
    -0.02580689139001406,
    0.0019295743094039231,
    -0.0001046381049248457,
    4.303069587032947e-06,
    -1.3878952462213771e-07,
    3.604730797462501e-09,
    -7.700707130601354e-11,
];

/// P(v) = lead[0] + lead[1] v + lead[2] v² + v³ tail(v) for v = g² ≤ 1/16 (g exact): relative
/// error about 2^-66 (the f64 tail's rounding, at most 2^-12 of the sum, times 2^-53).
#[inline(always)]
fn even_series(g: f64, lead: &[Dd; 3], tail: &[f64; 9]) -> Dd {
    let v = dd::two_prod(g, g);
    let mut t = 0.0;
    for c in tail.iter().rev() {
        t = t * v.hi + c;
    }
    let inner = lead[2].add_f64(v.hi * t);
    lead[0].add(lead[1].add(inner.mul(v)).mul(v))
}

/// |sin πx| for a non-integer |x| < 2^52 as a double-double, relative error about 2^-66: a
/// fixed polynomial per half-quadrant instead of the general series.
#[inline(always)]
fn abs_sin_pi_fast(x: f64) -> Dd {
    // f = x mod 2 in [-1, 1] and g = min(|f|, 1 - |f|) in (0, ½], both exact, with
    // |sin πx| = sin πg.
    let f = x - 2.0 * dd::round_to_int(0.5 * x);
    let g = f.abs().min(1.0 - f.abs());
    if g <= 0.25 {
        even_series(g, &SIN_PI_DD, &SIN_PI_TAIL).mul_f64(g)
    } else {
        even_series(0.5 - g, &COS_PI_DD, &COS_PI_TAIL)
    }
}
