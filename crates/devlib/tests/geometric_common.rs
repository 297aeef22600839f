//! Geometric, common and relational functions and the flush-to-zero helpers, against
//! hand-computed values.

use devlib::geometric::*;
use devlib::math::{f16 as h, f32 as s, f64 as d};
use devlib::{ftz_f16, ftz_f32, ftz_f64};
use half::f16;

fn hf(x: f32) -> f16 {
    f16::from_f32(x)
}

#[test]
fn dot_and_cross() {
    assert_eq!(dot(&[1.0f32, 2.0, 3.0], &[4.0, 5.0, 6.0]), 32.0);
    assert_eq!(dot(&[1.5f64, -2.0], &[2.0, 0.25]), 2.5);
    assert_eq!(dot(&[hf(1.0), hf(2.0)], &[hf(3.0), hf(4.0)]), hf(11.0));
    // Rounded once: 1 + 2^-30 - 1 in f64 is exact, f32 rounding of each product would lose it.
    let e = 2f32.powi(-15);
    assert_eq!(dot(&[1.0f32 + e, -1.0], &[1.0 + e, 1.0]), 2.0 * e + e * e);
    assert_eq!(
        cross3(&[1.0f32, 0.0, 0.0], &[0.0, 1.0, 0.0]),
        [0.0, 0.0, 1.0]
    );
    assert_eq!(
        cross3(&[1.0f64, 2.0, 3.0], &[4.0, 5.0, 6.0]),
        [-3.0, 6.0, -3.0]
    );
    assert_eq!(
        cross4(&[1.0f32, 2.0, 3.0, 9.0], &[4.0, 5.0, 6.0, 7.0]),
        [-3.0, 6.0, -3.0, 0.0]
    );
}

#[test]
fn length_distance_normalize() {
    assert_eq!(length(&[3.0f32, 4.0]), 5.0);
    assert_eq!(length(&[3e37f32, 4e37]), 5e37);
    assert_eq!(length(&[3e300f64, -4e300]), 5e300);
    assert_eq!(length(&[3e-320f64, 4e-320]), 5e-320);
    assert_eq!(length(&[hf(3.0), hf(4.0)]), hf(5.0));
    assert_eq!(length(&[hf(300.0), hf(400.0)]), hf(500.0)); // squares overflow half
    assert_eq!(length(&[f32::INFINITY, f32::NAN]), f32::INFINITY);
    assert!(length(&[1.0f32, f32::NAN]).is_nan());
    assert_eq!(length(&[-7.0f64]), 7.0);
    assert_eq!(distance(&[1.0f32, 2.0], &[4.0, 6.0]), 5.0);
    assert_eq!(distance(&[1e308f64, 0.0], &[-1e308, 0.0]), f64::INFINITY);
    assert_eq!(distance(&[6e307f64, 0.0], &[-6e307, 0.0]), 1.2e308);
    assert_eq!(normalize(&[3.0f32, 4.0]), vec![0.6f32, 0.8]);
    assert_eq!(normalize(&[0.0f64, -2.0, 0.0]), vec![0.0, -1.0, 0.0]);
    assert_eq!(normalize(&[hf(0.0), hf(5.0)]), vec![hf(0.0), hf(1.0)]);
    let mut out = [0.0f32; 4];
    normalize_into(&[1.0f32, 1.0, 1.0, 1.0], &mut out);
    assert_eq!(out, [0.5; 4]);
    assert_eq!(fast_length(&[3.0f32, 4.0]), 5.0);
    assert_eq!(fast_distance(&[0.0f64], &[-2.0]), 2.0);
    assert_eq!(fast_normalize(&[0.0f32, 7.0]), vec![0.0, 1.0]);
}

/// smoothstep(-1.412269234622737e124, 1.221611595816291e278, 2.9709244767955735e-220) by mpmath.
const EXACT_TINY_SMOOTHSTEP: f64 = 4.0094976061603465e-308;

/// Double smoothstep is rounded once: against mpmath (300 bits, correctly rounded), at
/// arguments where rounding each step of the formula errs by 1.6–2.1 ulp.
#[test]
fn double_smoothstep_rounds_once() {
    for (e0, e1, x, exact) in [
        (
            -9.966168806256432,
            6.779342495476913,
            -3.8904753209312375,
            0.29940021590266563,
        ),
        (
            -6.900420683968712,
            8.185180746470708,
            -0.46211552087906504,
            0.390962113091786,
        ),
        (
            -9.909216131804715,
            0.4672711869894153,
            -7.657932289174852,
            0.12078971143421235,
        ),
        (
            -8.066398982083742,
            0.3565755050994279,
            -0.8320760695159741,
            0.9458760831375358,
        ),
        (
            -7.7602646086763585,
            1.156868199908474,
            -4.518778952975941,
            0.30035339893991514,
        ),
        (
            -5.4176908763670415,
            3.8281784108393415,
            0.4024370452898438,
            0.6898842874285146,
        ),
    ] {
        assert_eq!(
            d::smoothstep(e0, e1, x),
            exact,
            "smoothstep({e0}, {e1}, {x})"
        );
    }
    assert_eq!(d::smoothstep(-1.0, 1.0, -1.0), 0.0);
    assert_eq!(d::smoothstep(-1.0, 1.0, 1.0), 1.0);
    assert_eq!(d::smoothstep(0.0, f64::MAX, -f64::MAX), 0.0);
    // A quotient beyond the range (x - e0 huge, e1 - e0 subnormal): clamped to 1.
    assert_eq!(d::smoothstep(0.0, 5e-324, f64::MAX), 1.0);
    assert_eq!(d::smoothstep(-5e-324, 0.0, -f64::MAX), 0.0);
    assert_eq!(d::smoothstep(0.0, 1e-320, 5e-321), 0.5);
    // t ≈ 1.16e-154, t² at the bottom of the normal range (mathcheck found 2.5 ulp there);
    // exact value from mpmath (300 bits), rounded once.
    assert_eq!(
        d::smoothstep(
            -1.412269234622737e124,
            1.221611595816291e278,
            2.9709244767955735e-220
        ),
        EXACT_TINY_SMOOTHSTEP
    );
}

#[test]
fn common_functions() {
    assert_eq!(s::clamp(5.0, 0.0, 3.0), 3.0);
    assert_eq!(d::clamp(-5.0, 0.0, 3.0), 0.0);
    assert_eq!(s::degrees(core::f32::consts::PI), 180.0);
    assert_eq!(d::radians(180.0), core::f64::consts::PI);
    assert_eq!(s::radians(180.0), core::f32::consts::PI);
    assert_eq!(s::mix(1.0, 3.0, 0.25), 1.5);
    assert_eq!(h::mix(hf(1.0), hf(3.0), hf(0.25)), hf(1.5));
    assert_eq!(s::step(1.0, 0.5), 0.0);
    assert_eq!(s::step(1.0, 1.0), 1.0);
    assert_eq!(d::smoothstep(0.0, 1.0, 0.5), 0.5);
    assert_eq!(d::smoothstep(0.0, 1.0, 0.25), 0.15625); // 0.0625 * 2.5
    assert_eq!(s::smoothstep(0.0, 1.0, 2.0), 1.0);
    assert_eq!(s::smoothstep(0.0, 1.0, -2.0), 0.0);
    assert_eq!(s::sign(-2.0), -1.0);
    assert_eq!(s::sign(3.0), 1.0);
    assert_eq!(s::sign(-0.0).to_bits(), (-0.0f32).to_bits());
    assert_eq!(d::sign(f64::NAN), 0.0);
    assert_eq!(s::max(1.0, 2.0), 2.0);
    assert_eq!(h::min(hf(1.0), hf(-2.0)), hf(-2.0));
}

#[test]
fn relational_predicates() {
    let nan = f32::NAN;
    assert!(!s::isequal(nan, nan));
    assert!(s::isequal(0.0, -0.0));
    assert!(s::isnotequal(nan, 1.0));
    assert!(!s::islessgreater(nan, 1.0));
    assert!(s::islessgreater(1.0, 2.0));
    assert!(!s::islessgreater(2.0, 2.0));
    assert!(s::isgreater(2.0, 1.0) && !s::isgreater(nan, 1.0));
    assert!(s::isgreaterequal(2.0, 2.0) && !s::isgreaterequal(nan, 2.0));
    assert!(s::isless(1.0, 2.0) && !s::isless(1.0, nan));
    assert!(s::islessequal(2.0, 2.0) && !s::islessequal(nan, nan));
    assert!(s::isfinite(f32::MAX) && !s::isfinite(f32::INFINITY) && !s::isfinite(nan));
    assert!(s::isinf(f32::NEG_INFINITY) && !s::isinf(nan));
    assert!(s::isnan(nan) && !s::isnan(f32::INFINITY));
    assert!(s::isnormal(f32::MIN_POSITIVE) && !s::isnormal(f32::from_bits(1)) && !s::isnormal(0.0));
    assert!(s::isordered(1.0, 2.0) && !s::isordered(nan, 2.0));
    assert!(s::isunordered(1.0, nan) && !s::isunordered(1.0, 2.0));
    assert!(s::signbit(-0.0) && !s::signbit(0.0) && s::signbit(-nan));
    assert!(d::isnormal(1.0) && !d::isnormal(f64::from_bits(1)));
    assert!(h::isnan(f16::NAN) && h::isinf(f16::INFINITY) && !h::isnormal(f16::from_bits(1)));
    assert!(h::signbit(hf(-1.0)) && h::islessgreater(hf(1.0), hf(2.0)));
    assert_eq!(s::bitselect(1.0, -2.0, -0.0), -1.0); // sign bit from b, the rest from a
    assert_eq!(d::bitselect(3.0, 5.0, 0.0), 3.0);
}

#[test]
fn flush_to_zero() {
    assert_eq!(ftz_f32(f32::from_bits(1)).to_bits(), 0);
    assert_eq!(ftz_f32(-f32::from_bits(0x007f_ffff)).to_bits(), 0x8000_0000);
    assert_eq!(ftz_f32(f32::MIN_POSITIVE), f32::MIN_POSITIVE);
    assert_eq!(ftz_f32(-0.0).to_bits(), 0x8000_0000);
    assert!(ftz_f32(f32::NAN).is_nan());
    assert_eq!(ftz_f64(f64::from_bits(5)).to_bits(), 0);
    assert_eq!(ftz_f64(1.5), 1.5);
    assert_eq!(ftz_f16(f16::from_bits(0x83ff)).to_bits(), 0x8000);
    assert_eq!(ftz_f16(f16::from_bits(0x0400)).to_bits(), 0x0400);
}

#[test]
fn half_math_spot_values() {
    assert_eq!(h::sqrt(hf(2.0)).to_bits(), 0x3da8); // 1.4142 → 1.4140625 (0x3da8)
    assert_eq!(h::exp(hf(0.0)), hf(1.0));
    assert_eq!(h::pown(hf(2.0), 15), hf(32768.0));
    assert_eq!(h::pown(hf(2.0), 16), f16::INFINITY);
    assert_eq!(h::rootn(hf(-27.0), 3), hf(-3.0));
    assert_eq!(h::ldexp(hf(1.0), -24).to_bits(), 0x0001);
    assert_eq!(h::ldexp(hf(1.0), -25).to_bits(), 0x0000); // tie to even
    assert_eq!(h::nextafter(hf(1.0), hf(2.0)).to_bits(), 0x3c01);
    assert_eq!(
        h::nextafter(f16::from_bits(0x8000), hf(1.0)).to_bits(),
        0x0001
    );
    assert_eq!(h::nan(0x1ff).to_bits(), 0x7fff);
    assert_eq!(h::fract(hf(-0.25)).0, hf(0.75));
    assert_eq!(h::fract(f16::from_bits(0x8001)).0.to_bits(), 0x3bff); // largest below 1
    assert_eq!(h::frexp(hf(48.0)), (hf(0.75), 6));
    assert_eq!(h::ilogb(f16::from_bits(1)), -24);
    assert_eq!(h::fma(hf(2.0), hf(3.0), hf(1.0)), hf(7.0));
    // 1 + 2^-11 is a tie in half; fma(1 + 2^-10, 1 + 2^-10, -2^-10) = 1 + 2^-10 + 2^-20, rounds to 1 + 2^-10.
    let a = f16::from_bits(0x3c01);
    assert_eq!(h::fma(a, a, hf(-(2f32.powi(-10)))).to_bits(), 0x3c01);
    assert_eq!(s::half_divide(1.0, 4.0), 0.25);
    assert_eq!(s::native_recip(4.0), 0.25);
    assert_eq!(s::half_powr(4.0, 0.5), 2.0);
    assert_eq!(s::native_sqrt(16.0), 4.0);
}

#[test]
fn ulp_measure() {
    use devlib::ulp::{ulp_error, ulp_of};
    assert_eq!(ulp_of::<f32>(1.0), 2f64.powi(-23));
    assert_eq!(ulp_of::<f32>(1.5), 2f64.powi(-23));
    assert_eq!(ulp_of::<f32>(0.0), 2f64.powi(-149));
    assert_eq!(ulp_of::<f32>(1e-40), 2f64.powi(-149));
    assert_eq!(ulp_of::<f64>(-2.0), 2f64.powi(-51));
    assert_eq!(ulp_of::<f16>(1000.0), 0.5);
    assert_eq!(ulp_error(1.0f32, 1.0 + 2f64.powi(-24)), 0.5);
    assert_eq!(ulp_error(f32::INFINITY, 1e39), 0.0);
    assert_eq!(ulp_error(f32::INFINITY, 1e30), f64::INFINITY);
    assert_eq!(ulp_error(f32::NAN, f64::NAN), 0.0);
    assert_eq!(ulp_error(1.0f32, f64::NAN), f64::INFINITY);
    assert_eq!(ulp_error(hf(2.0), 2.0 + 3.0 / 1024.0), 1.5);
}

/// Every OpenCL.std float instruction of regular signature (names from
/// extinst.opencl.std.100.grammar.json) resolves by name in each type module.
#[test]
fn dispatch_by_opencl_std_name() {
    let unary = [
        "acos", "acosh", "acospi", "asin", "asinh", "asinpi", "atan", "atanh", "atanpi", "cbrt",
        "ceil", "cos", "cosh", "cospi", "erfc", "erf", "exp", "exp2", "exp10", "expm1", "fabs",
        "floor", "lgamma", "log", "log2", "log10", "log1p", "logb", "rint", "round", "rsqrt",
        "sin", "sinh", "sinpi", "sqrt", "tan", "tanh", "tanpi", "tgamma", "trunc", "degrees",
        "radians", "sign",
    ];
    let binary = [
        "atan2",
        "atan2pi",
        "copysign",
        "fdim",
        "fmax",
        "fmin",
        "fmod",
        "hypot",
        "maxmag",
        "minmag",
        "nextafter",
        "pow",
        "powr",
        "remainder",
        "fmax_common",
        "fmin_common",
        "step",
    ];
    let ternary = ["fma", "mad", "fclamp", "mix", "smoothstep", "bitselect"];
    for n in unary {
        assert!(
            s::unary(n).is_some() && d::unary(n).is_some() && h::unary(n).is_some(),
            "{n}"
        );
    }
    for n in binary {
        assert!(
            s::binary(n).is_some() && d::binary(n).is_some() && h::binary(n).is_some(),
            "{n}"
        );
    }
    for n in ternary {
        assert!(
            s::ternary(n).is_some() && d::ternary(n).is_some() && h::ternary(n).is_some(),
            "{n}"
        );
    }
    let half_native_unary = [
        "half_cos",
        "half_exp",
        "half_exp2",
        "half_exp10",
        "half_log",
        "half_log2",
        "half_log10",
        "half_recip",
        "half_rsqrt",
        "half_sin",
        "half_sqrt",
        "half_tan",
        "native_cos",
        "native_exp",
        "native_exp2",
        "native_exp10",
        "native_log",
        "native_log2",
        "native_log10",
        "native_recip",
        "native_rsqrt",
        "native_sin",
        "native_sqrt",
        "native_tan",
    ];
    for n in half_native_unary {
        assert!(s::unary(n).is_some() && d::unary(n).is_none(), "{n}");
    }
    for n in ["half_divide", "half_powr", "native_divide", "native_powr"] {
        assert!(s::binary(n).is_some(), "{n}");
    }
    assert!(s::unary("fract").is_none() && s::unary("nope").is_none());
    assert_eq!(s::unary("sqrt").map(|f| f(9.0)), Some(3.0));
    assert_eq!(d::binary("fmax_common").map(|f| f(1.0, 2.0)), Some(2.0));
    assert_eq!(s::ternary("fclamp").map(|f| f(5.0, 0.0, 1.0)), Some(1.0));
    assert!(h::unary("native_sqrt").is_none());
}

#[test]
fn double_dot_and_cross_without_intermediate_overflow() {
    // 1e200·1e200 − 1e200·1e200 = 0 exactly; each product alone overflows double.
    assert_eq!(dot(&[1e200, 1e200], &[1e200, -1e200]), 0.0);
    // 2^560·2^500 + 2^560·(−2^500 + 2^448) = 2^560·2^448 = 2^1008, finite, while each
    // product (2^1060) overflows.
    let p = 2f64.powi(560);
    let q = 2f64.powi(500);
    let small = 2f64.powi(448);
    assert_eq!(dot(&[p, p], &[q, -q + small]), 2f64.powi(1008));
    // The same difference through cross: x = a1·b2 − a2·b1 = 2^560·(2^500 − 2^448) − 2^560·2^500.
    let c = cross3(&[0.0, p, p], &[q, q, q - small]);
    assert_eq!(c[0], -(2f64.powi(1008)));
    // One infinite component: ∞ arithmetic on the exact products,
    // (0.75·1 − 0.75·1, 0.75·1 − ∞·1, ∞·1 − 0.75·1) = (0, −∞, +∞).
    let c = cross3(&[f64::INFINITY, 0.75, 0.75], &[1.0, 1.0, 1.0]);
    assert_eq!(c, [0.0, f64::NEG_INFINITY, f64::INFINITY]);
}
