//! OpenCL.std math for `half` (OpenCL C 2.0 §6.13.2 with cl_khr_fp16, 002 ULP table "Float16"
//! column) on `half::f16`.

use half::f16;

crate::math::dispatch_tables!(f16; unary: []; binary: []);
crate::math::per_type_functions!(f16, u16);
crate::math::narrow_functions!(f16);
crate::math::narrow_unary!(f16; asinh, exp10, tan);
crate::math::narrow_unary!(f16; acos, acosh, cos, log, sin);
crate::math::narrow_unary!(f16;
    acospi, asin, asinpi, atan, atanh, atanpi, cbrt, cosh, cospi, erf, exp, exp2, expm1, log2,
    log10, log1p, rsqrt, sinh, sinpi, tanh, tanpi,
);
crate::math::narrow_binary!(f16; atan2, atan2pi, hypot, pow, powr);

/// erfc: the `libm` erfc rounded once where clearly away from a half midpoint, otherwise the
/// 1-ulp double-double erfc rounded once (see `f32::erfc`).
pub fn erfc(x: f16) -> f16 {
    crate::math::rounding::fast_then_accurate_f16(
        x.to_f64(),
        libm::erfc,
        crate::math::erfc::erfc_accurate,
    )
}

/// tgamma: as [`erfc`], with the `libm` tgamma and the double-double one.
pub fn tgamma(x: f16) -> f16 {
    crate::math::rounding::fast_then_accurate_f16(
        x.to_f64(),
        libm::tgamma,
        crate::math::gamma::tgamma_accurate,
    )
}

/// Correctly rounded fused multiply-add: the exact product (22 bits) is added in f64 with
/// round-to-odd, which makes the final rounding to binary16 correct (53 ≥ 11 + 2).
pub fn fma(a: f16, b: f16, c: f16) -> f16 {
    use crate::float::Float;
    let p = a.to_f64() * b.to_f64(); // exact
    let cf = c.to_f64();
    if !p.is_finite() || !cf.is_finite() {
        return f16::from_f64(p + cf);
    }
    let s = crate::math::dd::two_sum(p, cf);
    let odd = if s.lo != 0.0 && s.hi.to_bits() & 1 == 0 {
        // Step to the neighbour on the side of the exact value: it has an odd last bit.
        let toward_larger_magnitude = (s.lo > 0.0) == (s.hi > 0.0);
        let bits = s.hi.to_bits();
        f64::from_bits(if toward_larger_magnitude {
            bits + 1
        } else {
            bits - 1
        })
    } else {
        s.hi
    };
    <f16 as Float>::from_f64(odd)
}
