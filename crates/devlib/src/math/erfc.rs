//! erfc for `double` within 1 ulp (002 table: 16 ulp). The rational approximations are those of
//! FreeBSD msun s_erf.c (through the `libm` crate), evaluated here in double-double, and the
//! factor e^(-x²) of the tail comes from the double-double exp with x² formed exactly: only the
//! last step rounds.

// The constants keep the digits of their sources (FreeBSD msun, fdlibm).
#![allow(clippy::excessive_precision)]

use super::dd::{self, Dd};
use super::exp_log::{exp_dd, exp_fast};

/// erx = erfc(1) rounded to 28 bits, so that 1 - erx is exact.
const ERX: f64 = 8.45062911510467529297e-01;
/// erf(x) = x + x·PP(x²)/QQ(x²) for |x| < 0.84375 (constant term first).
const PP: [f64; 5] = [
    1.28379167095512558561e-01,
    -3.25042107247001499370e-01,
    -2.84817495755985104766e-02,
    -5.77027029648944159157e-03,
    -2.37630166566501626084e-05,
];
const QQ: [f64; 5] = [
    3.97917223959155352819e-01,
    6.50222499887672944485e-02,
    5.08130628187576562776e-03,
    1.32494738004321644526e-04,
    -3.96022827877536812320e-06,
];
/// erfc(x) = 1 - erx - PA(s)/QA(s), s = |x| - 1, for 0.84375 ≤ |x| < 1.25.
const PA: [f64; 7] = [
    -2.36211856075265944077e-03,
    4.14856118683748331666e-01,
    -3.72207876035701323847e-01,
    3.18346619901161753674e-01,
    -1.10894694282396677476e-01,
    3.54783043256182359371e-02,
    -2.16637559486879084300e-03,
];
const QA: [f64; 6] = [
    1.06420880400844228286e-01,
    5.40397917702171048937e-01,
    7.18286544141962662868e-02,
    1.26171219808761642112e-01,
    1.36370839120290507362e-02,
    1.19844998467991074170e-02,
];
/// erfc(x) = e^(-x² - 0.5625 + RA(s)/SA(s)) / x, s = 1/x², for 1.25 ≤ |x| < 1/0.35.
const RA: [f64; 8] = [
    -9.86494403484714822705e-03,
    -6.93858572707181764372e-01,
    -1.05586262253232909814e+01,
    -6.23753324503260060396e+01,
    -1.62396669462573470355e+02,
    -1.84605092906711035994e+02,
    -8.12874355063065934246e+01,
    -9.81432934416914548592e+00,
];
const SA: [f64; 8] = [
    1.96512716674392571292e+01,
    1.37657754143519042600e+02,
    4.34565877475229228821e+02,
    6.45387271733267880336e+02,
    4.29008140027567833386e+02,
    1.08635005541779435134e+02,
    6.57024977031928170135e+00,
    -6.04244152148580987438e-02,
];
/// The same with RB/SB for 1/0.35 ≤ |x| < 28.
const RB: [f64; 7] = [
    -9.86494292470009928597e-03,
    -7.99283237680523006574e-01,
    -1.77579549177547519889e+01,
    -1.60636384855821916062e+02,
    -6.37566443368389627722e+02,
    -1.02509513161107724954e+03,
    -4.83519191608651397019e+02,
];
const SB: [f64; 7] = [
    3.03380607434824582924e+01,
    3.25792512996573918826e+02,
    1.53672958608443695994e+03,
    3.19985821950859553908e+03,
    2.55305040643316442583e+03,
    4.74528541206955367215e+02,
    -2.24409524465858183362e+01,
];

/// v, v² and v⁴ as double-doubles, shared by the numerator and denominator.
#[derive(Clone, Copy)]
struct Powers {
    v: Dd,
    v2: Dd,
    v4: Dd,
}

impl Powers {
    #[inline(always)]
    fn new(v: Dd) -> Powers {
        let v2 = v.mul(v);
        Powers {
            v,
            v2,
            v4: v2.mul(v2),
        }
    }
}

/// Σ c_i v^i in double-double (`c` from the constant term up, at most 8 terms) by Estrin's
/// scheme: the pairs c_2i + c_2i+1·v are independent, then combined with v² and v⁴, so the
/// dependency chain is 3 products long instead of Horner's 7 (the same double-double
/// accuracy, far beyond the 2^-60 needed).
#[inline(always)]
fn poly(c: &[f64], p: Powers) -> Dd {
    // An `#[inline(always)]` function rather than a closure, which was compiled on its own,
    // outside `fma_dispatch`'s copy for the FMA instruction.
    #[inline(always)]
    fn pair_at(c: &[f64], p: Powers, i: usize) -> Dd {
        match (c.get(i), c.get(i + 1)) {
            (Some(&a), Some(&b)) => p.v.mul_f64(b).add_f64(a),
            (Some(&a), None) => Dd::from_f64(a),
            _ => Dd::from_f64(0.0),
        }
    }
    // Missing pairs are left out rather than multiplied as zeros (a zero product takes
    // two_prod's slow path).
    let low = if c.len() > 2 {
        pair_at(c, p, 0).add(pair_at(c, p, 2).mul(p.v2))
    } else {
        pair_at(c, p, 0)
    };
    if c.len() <= 4 {
        return low;
    }
    let high = if c.len() > 6 {
        pair_at(c, p, 4).add(pair_at(c, p, 6).mul(p.v2))
    } else {
        pair_at(c, p, 4)
    };
    low.add(high.mul(p.v4))
}

/// 1 + Σ c_i v^(i+1) in double-double (the denominators, whose constant term is 1).
#[inline(always)]
fn poly1(c: &[f64], p: Powers) -> Dd {
    poly(c, p).mul(p.v).add_f64(1.0)
}

/// erfc(x) for 0 ≤ x < 28 (x ≥ 1.25) as m × 2^k; e^(-x² - 0.5625 + R/S) / x.
#[inline(always)]
fn tail<const FAST: bool>(x: f64) -> (Dd, i32) {
    let x2 = dd::two_prod(x, x);
    let s = Powers::new(Dd::from_f64(1.0).div(x2));
    let ratio = if x < 1.0 / 0.35 {
        poly(&RA, s).div(poly1(&SA, s))
    } else {
        poly(&RB, s).div(poly1(&SB, s))
    };
    let a = ratio.sub(x2).add_f64(-0.5625);
    let (m, k) = if FAST { exp_fast(a) } else { exp_dd(a) };
    (m.div(Dd::from_f64(x)), k)
}

/// Σ c_i v^i in plain `f64` by Horner's scheme with fused multiply-adds (`c` from the constant
/// term up).
#[inline(always)]
fn horner(c: &[f64], v: f64) -> f64 {
    c.iter().rev().fold(0.0, |acc, &ci| acc.mul_add(v, ci))
}

/// erfc(x) as m × 2^k for 1/0.35 ≤ x < 28, and for 1.25 ≤ x < 1/0.35 where the result is
/// subtracted from 2 (negative arguments, error scaled down by 26): R/S in plain `f64`
/// (|R/S| ≤ 0.064 there, its sensitivity s·d(R/S)/ds to s = 1/x² ≤ 0.048: together about
/// 2^-55.5 of error), x² exact, the exponential by [`exp_fast`] (2^-60) and the division by x
/// with its remainder: within about 2^-55 relative in all (msun's approximation: 2^-61.5),
/// a quarter of an ulp.
#[inline(always)]
fn tail_fast(x: f64) -> (Dd, i32) {
    let x2 = dd::two_prod(x, x);
    let s = 1.0 / x2.hi;
    let ratio = if x < 1.0 / 0.35 {
        horner(&RA, s) / horner(&SA, s).mul_add(s, 1.0)
    } else {
        horner(&RB, s) / horner(&SB, s).mul_add(s, 1.0)
    };
    // -x² - 0.5625 + R/S as a double-double (x²'s low part and R/S below its ulp's reach).
    let a = dd::two_sum(-x2.hi, -0.5625).add_f64(ratio - x2.lo);
    let (m, k) = exp_fast(a);
    // m / x: the quotient, then the remainder m - q·x (exact with the fma) over x.
    let q = m.hi / x;
    let rem = (-q).mul_add(x, m.hi) + m.lo;
    (dd::fast_two_sum(q, rem / x), k)
}

/// `m × 2^k` (m positive, `m.lo` below half an ulp of `m.hi`) rounded once: `m.hi` scaled,
/// exact unless the result is subnormal (erfc beyond 26.5); there the first rounding is
/// corrected by the residual `m - result·2^-k` (exact differences), so that the subnormal result
/// is not rounded twice (which reaches a whole ulp).
#[inline(always)]
fn scale_once(m: Dd, k: i32) -> f64 {
    let r = libm::scalbn(m.hi, k);
    if r >= f64::MIN_POSITIVE {
        return r;
    }
    let residual = (m.hi - libm::scalbn(r, -k)) + m.lo;
    // Half the subnormal spacing 2^-1074, in m's scale.
    let half = libm::scalbn(1.0, -1075 - k);
    if residual > half {
        f64::from_bits(r.to_bits() + 1)
    } else if residual < -half && r > 0.0 {
        f64::from_bits(r.to_bits() - 1)
    } else {
        r
    }
}

dd::fma_dispatch! {
    /// erfc(x) with C99 F.9.5.2: erfc(-∞) = 2, erfc(+∞) = +0.
    pub(crate) fn erfc(x: f64) -> f64 = erfc_body::<true>
}

dd::fma_dispatch! {
    /// erfc(x) as [`erfc`] with every region in double-double and the double-double exp
    /// (about 2^-70 before the last rounding), rounded to odd (`Dd::to_f64_odd`) so that one
    /// more rounding to `float` or `half` is correct: the fallback of the correctly rounded
    /// `float` and `half` erfc. Rounding it to nearest misrounded erfc(-0x1.d93ec4p-17).
    pub(crate) fn erfc_accurate(x: f64) -> f64 = erfc_body::<false>
}

#[inline(always)]
fn erfc_body<const FAST: bool>(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    let ax = x.abs();
    if ax < 0.84375 {
        if ax < 1.4e-17 {
            return 1.0 - x;
        }
        if FAST && x < 0.5 {
            // erfc(x) ≥ 0.47: x·y (|x·y| ≤ 0.021 for 0 < x < 0.5, or added to a result
            // above 1 for x < 0) in plain `f64`, a few of its ulps off, weighs below 0.15 ulp.
            let z = x * x;
            let y = horner(&PP, z) / horner(&QQ, z).mul_add(z, 1.0);
            let one_minus_x = dd::two_sum(1.0, -x);
            return one_minus_x.hi + x.mul_add(-y, one_minus_x.lo);
        }
        let z = Powers::new(dd::two_prod(x, x));
        let y = poly(&PP, z).div(poly1(&QQ, z));
        // 1 - (x + x·y)
        return dd::two_sum(1.0, -x)
            .sub(y.mul_f64(x))
            .to_f64_nearest_or_odd::<FAST>();
    }
    if x <= -6.0 {
        // erfc(x) = 2 - erfc(|x|) with erfc(|x|) ≤ erfc(6) < 2.2e-17, below a quarter of the
        // spacing 2^-52 of the doubles under 2: the result rounds to 2.
        return 2.0;
    }
    if FAST && x < 0.0 && ax < 1.25 {
        // erfc(x) = 1 + erx + P/Q above 1.8, |P/Q| < 0.08 in plain `f64` (a few of its ulps).
        let s = ax - 1.0; // exact
        let ratio = horner(&PA, s) / horner(&QA, s).mul_add(s, 1.0);
        return (1.0 + ERX) + ratio;
    }
    let positive = if ax < 1.25 {
        let s = Powers::new(Dd::from_f64(ax - 1.0)); // ax - 1 is exact
        let r = Dd::from_f64(1.0 - ERX).sub(poly(&PA, s).div(poly1(&QA, s)));
        if x > 0.0 {
            return r.to_f64_nearest_or_odd::<FAST>();
        }
        r
    } else if FAST && ax < 28.0 && (x < 0.0 || ax >= 1.0 / 0.35) {
        let (m, k) = tail_fast(ax);
        if x > 0.0 {
            return scale_once(m, k);
        }
        // 2 - erfc(|x|) with erfc(|x|) ≤ erfc(1.25) < 0.08: its error weighs 1/25 here.
        return 2.0 - libm::scalbn(m.hi, k);
    } else if ax < 28.0 {
        let (m, k) = tail::<FAST>(ax);
        if x > 0.0 {
            // One rounding to 53 bits, then exact scaling (twice rounded only when subnormal).
            return libm::scalbn(m.to_f64_nearest_or_odd::<FAST>(), k);
        }
        m.mul_pow2(libm::scalbn(1.0, k))
    } else {
        if x > 0.0 {
            return 0.0; // erfc(28) < 2^-1100
        }
        Dd::from_f64(0.0)
    };
    // erfc(-|x|) = 2 - erfc(|x|)
    Dd::from_f64(2.0)
        .sub(positive)
        .to_f64_nearest_or_odd::<FAST>()
}
