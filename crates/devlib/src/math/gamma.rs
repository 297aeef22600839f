//! tgamma for `double` within 1 ulp (002 table: 16 ulp): Stirling's series in double-double
//! for arguments of at least 12, and below that `Γ(x) = Γ(x + n) / (x (x+1) … (x+n-1))` with
//! the product in double-double (which also covers negative x, without a reflection through a
//! rounded sin(πx)). Only the last step rounds.

// The constants keep the digits of their sources (FreeBSD msun, fdlibm).
#![allow(clippy::excessive_precision)]

use super::dd::{self, Dd};
use super::exp_log::{exp_dd, exp_fast, ln2, log_dd};
use super::lgamma_zeros::LGAMMA_ZEROS;
use super::trig_dd::series;

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

/// log Γ(y) - ½ log 2π for a double-double 12 ≤ y ≤ 2.5e305 by Stirling's series, absolute
/// error about 2^-100 · (y log y).
#[inline(always)]
fn stirling_core(y: Dd) -> Dd {
    let inv = 1.0 / y.hi;
    let z = inv * inv;
    // The first term, 1/(12y) (up to 0.007), in double-double: in f64 its rounding alone
    // would be 2^-60 absolute. The others (below 2^-21) in f64.
    let first = Dd::from_f64(1.0).div(y.mul_f64(12.0));
    let mut rest = 0.0;
    for c in STIRLING[1..].iter().rev() {
        rest = rest * z + c;
    }
    let rest = rest * z * inv;
    let log_y = log_dd(y.hi).add_f64(y.lo / y.hi);
    // (y - ½) log y - y written as (y - ½)(log y - 1) - ½: no intermediate above the result.
    y.add_f64(-0.5)
        .mul(log_y.add_f64(-1.0))
        .add_f64(-0.5)
        .add(first)
        .add_f64(rest)
}

/// Γ(y) = m × 2^k for a double-double y ≥ 12 (y.hi ≤ 172).
#[inline(always)]
fn stirling<const FAST: bool>(y: Dd) -> (Dd, i32) {
    let core = stirling_core(y);
    // The double-double exp: about 2^-77; the fast one: 2^-60, a 2^-7 ulp of the result.
    let (m, k) = if FAST { exp_fast(core) } else { exp_dd(core) };
    (m.mul(SQRT_2PI), k)
}

/// log Γ(y) for a double-double 12 ≤ y ≤ 2.5e305.
#[inline(always)]
fn stirling_log(y: Dd) -> Dd {
    stirling_core(y).add(LOG_SQRT_2PI)
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

/// log|Γ(x)| for a finite non-integer -190 < x ≤ 2.5e305 with |x| ≥ 8.7e-19, absolute error
/// about 2^-95.
#[inline(always)]
fn log_abs_gamma(x: f64) -> Dd {
    if x >= STIRLING_FROM {
        return stirling_log(Dd::from_f64(x));
    }
    let (p, pe, y) = shift_product(x);
    let p = if p.hi < 0.0 { p.neg() } else { p };
    let log_p = log_dd(p.hi)
        .add_f64(p.lo / p.hi)
        .add(ln2().mul_f64(f64::from(pe)));
    stirling_log(y).sub(log_p)
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
    /// Γ(x) as [`tgamma`] with the double-double exp: the fallback of the correctly rounded
    /// `float` and `half` tgamma, whose correctness the proof runs established with it.
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
        let odd = (x.floor() * 0.5).floor() * 2.0 != x.floor();
        return if odd { -0.0 } else { 0.0 };
    }
    if x >= STIRLING_FROM {
        let (m, k) = stirling::<FAST>(Dd::from_f64(x));
        return libm::scalbn(m.to_f64(), k);
    }
    let (q, e) = shifted::<FAST>(x);
    // Scale in two exact steps (e may exceed one power of two's range); only a subnormal
    // result rounds twice.
    libm::scalbn(libm::scalbn(q.to_f64(), e / 2), e - e / 2)
}

/// Where lgamma takes the Taylor series around a zero x0: |lgamma| ≈ |c1 (x - x0)| < 2^-12.
/// Farther out the double-double log Γ's error (about 2^-95 absolute) is far below an ulp of
/// the result.
const NEAR_ZERO: f64 = 1.0 / 4096.0;

dd::fma_dispatch! {
/// lgamma(x) for -190 < x < 0, x not an integer, |x| ≥ 8.7e-19, within 1 ulp: log|Γ(x)| in
/// double-double (log Γ(x + n) by Stirling's series minus the log of the product), where the reflection formula of msun (`log(π / |x sin πx|) -
/// lgamma(-x)`) loses everything to cancellation near lgamma's zeros (|Γ(x)| = 1, two in each
/// (-n-1, -n) for n ≥ 2), and next to each zero with doubles around it, lgamma's Taylor series
/// with x0 as a sum of three doubles (`lgamma_zeros.rs`).
    pub(crate) fn lgamma_negative(x: f64) -> f64 = lgamma_negative_body
}

#[inline(always)]
fn lgamma_negative_body(x: f64) -> f64 {
    for z in &LGAMMA_ZEROS {
        let s = x - z.hi; // exact (Sterbenz) when x is near z.hi
        if (s * z.c1_hi).abs() < NEAR_ZERO {
            // t = x - x0 as a double-double; lgamma = c1 t + t² (c2 + c3 t + …), the
            // polynomial tail at most 2^-12 of the first term, so plain f64 suffices for it.
            let t = dd::two_sum(s, -z.lo).add_f64(-z.lo2);
            let mut tail = 0.0;
            for c in z.c.iter().rev() {
                tail = tail * t.hi + c;
            }
            let c1 = Dd {
                hi: z.c1_hi,
                lo: z.c1_lo,
            };
            return c1.mul(t).add_f64(t.hi * t.hi * tail).to_f64();
        }
    }
    log_abs_gamma(x).to_f64()
}

dd::fma_dispatch! {
    /// lgamma(x) for 3 ≤ x ≤ 2.5e305, within 1 ulp: log Γ in double-double (msun's, 2.3 ulp at
    /// x ≈ 11.3, rounds several steps).
    pub(crate) fn lgamma_positive(x: f64) -> f64 = lgamma_positive_body
}

#[inline(always)]
fn lgamma_positive_body(x: f64) -> f64 {
    log_abs_gamma(x).to_f64()
}

dd::fma_dispatch! {
    /// lgamma(x) for 0 < x < 3 away from the zeros 1 and 2, and for -2^52 < x ≤ -190, not an
    /// integer, within 1 ulp; msun's reaches 2 ulp (x ≈ 0.71, the reflection formula below
    /// -190). Around 1 and 2 msun's polynomials are within 1 ulp, and the double-double
    /// logarithms would lose their relative accuracy.
    pub(crate) fn lgamma_other(x: f64) -> f64 = lgamma_other_body
}

#[inline(always)]
fn lgamma_other_body(x: f64) -> f64 {
    if x > 0.0 {
        return log_abs_gamma(x).to_f64();
    }
    // Reflection: log|Γ(x)| = log π - log|x| - log|sin πx| - log Γ(-x), each in
    // double-double; no cancellation here (log Γ(-x) > 800 dominates).
    let s = abs_sin_pi(x);
    LOG_PI
        .sub(log_dd(-x))
        .sub(log_dd(s.hi).add_f64(s.lo / s.hi))
        .sub(log_abs_gamma(-x))
        .to_f64()
}

/// |sin πx| for a non-integer |x| < 2^52 as a double-double.
#[inline(always)]
fn abs_sin_pi(x: f64) -> Dd {
    // f = x mod 2 in [-1, 1] and g = min(|f|, 1 - |f|) in [0, ½], both exact, with
    // |sin πx| = sin πg.
    let f = x - 2.0 * dd::round_to_int(0.5 * x);
    let g = f.abs().min(1.0 - f.abs());
    if g <= 0.25 {
        series(dd::PI.mul_f64(g), 1)
    } else {
        series(dd::PI.mul_f64(0.5 - g), 0)
    }
}
