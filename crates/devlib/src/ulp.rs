//! Error measured in ulps, as 002 "Relative Error as ULPs" defines it (Muller's ulp with the
//! clarification at zero), for checking results against a more precise reference (tests, the
//! `oxcl mathcheck` command).

use crate::float::Float;

/// ulp(x) in format `F` for a real `x` given in `f64`: the gap between the two finite values of
/// `F` around `|x|` (at a power of two, the gap above it; subnormal spacing below the normal
/// range). NaN for NaN; for |x| beyond the largest finite value, the gap at the top.
pub fn ulp_of<F: Float>(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    let emin = 1 - F::bias();
    let emax = F::bias();
    let e = if x == 0.0 || x.is_infinite() {
        if x == 0.0 {
            emin
        } else {
            emax
        }
    } else {
        (libm::ilogb(x)).clamp(emin, emax)
    };
    libm::scalbn(1.0, e - F::MANT_BITS as i32)
}

/// |got − reference| in ulps of `F` at the reference. Special values: 0 when both are NaN or
/// both are the same infinity; an infinite result against a finite reference beyond the largest
/// finite value counts as 0 (it is the correctly rounded result); any other mismatch involving
/// NaN or ∞ is +∞.
pub fn ulp_error<F: Float>(got: F, reference: f64) -> f64 {
    let g = got.to_f64();
    if g.is_nan() || reference.is_nan() {
        return if g.is_nan() && reference.is_nan() {
            0.0
        } else {
            f64::INFINITY
        };
    }
    let max = F::from_bits_u64(F::exp_mask() - 1).to_f64();
    if g.is_infinite() {
        let beyond = reference.abs() >= max && reference.signum() == g.signum();
        return if beyond { 0.0 } else { f64::INFINITY };
    }
    if reference.is_infinite() {
        return f64::INFINITY;
    }
    (g - reference).abs() / ulp_of::<F>(reference)
}
