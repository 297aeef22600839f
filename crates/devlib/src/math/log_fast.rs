//! A lean natural logarithm for double-double sums that need an absolute (not relative)
//! accuracy of about 2^-70, such as lgamma's and tgamma's Stirling series and shift products:
//! the table method of `exp_log::log_dd` with one two_sum per part and the small terms summed
//! in plain `f64` (no renormalisation after each step). It shares `exp_log`'s table
//! (`LOG_TABLE`: the same intervals, `invc` and `-log(invc)` as a double-double).

#![allow(clippy::excessive_precision, clippy::unreadable_literal)]

use super::dd::{self, Dd};

/// ln 2 = LN2_HI + LN2_LO, LN2_HI with 32 significant bits (e × LN2_HI exact for |e| < 2^21).
const LN2_HI: f64 = 6.93147180369123816490e-01;
const LN2_LO: f64 = 1.90821492927058770002e-10;

/// log x for a finite normal x > 0 as a double-double, absolute error about 2^-71 (plus
/// 2^-100 |log x|): `x = 2^e m`, `log x = e ln 2 - log(invc_j) + log1p(r)`,
/// `r = m·invc_j - 1` exact (|r| ≤ 2^-8), `log1p(r) - r` (below 2^-17) in `f64`.
#[inline(always)]
pub(crate) fn log_fast(x: f64) -> Dd {
    let bits = x.to_bits();
    let e = (((bits >> 52) & 0x7ff) as i32 - 1023) as f64;
    let m = f64::from_bits((bits & ((1 << 52) - 1)) | 0x3ff0_0000_0000_0000);
    let (invc, t_hi, t_lo) = super::exp_log::LOG_TABLE[((bits >> 45) & 127) as usize];
    let p = dd::two_prod(m, invc);
    // p.hi within 2^-8 of 1: p.hi - 1 exact (Sterbenz).
    let r = p.hi - 1.0;
    let a = dd::two_sum(e * LN2_HI, t_hi);
    let b = dd::two_sum(a.hi, r);
    // log1p(r) - r = -r²/2 + r³/3 - … (to r⁹, the next term below 2^-83), in f64 by Estrin's
    // scheme (four independent pairs).
    let r2 = r * r;
    let r4 = r2 * r2;
    let lo_terms = r.mul_add(1.0 / 3.0, -0.5) + r2 * r.mul_add(0.2, -0.25);
    let hi_terms = r.mul_add(1.0 / 7.0, -1.0 / 6.0) + r2 * r.mul_add(1.0 / 9.0, -0.125);
    let poly = r2 * (lo_terms + r4 * hi_terms);
    // log1p(r + p.lo) = log1p(r) + p.lo / (1 + r), p.lo below 2^-60.
    let lo = a.lo + b.lo + e.mul_add(LN2_LO, t_lo) + (p.lo - p.lo * r + poly);
    dd::two_sum(b.hi, lo)
}
