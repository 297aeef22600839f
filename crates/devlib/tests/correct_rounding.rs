//! The float inputs where the `f64` function, rounded once to float, lands on the wrong side
//! of a midpoint (found by scanning the floats; the expected values are MPFR's or mpmath's
//! correctly rounded results at 200–300 bits, or hand computations for exact midpoints):
//! devlib's rounding test must send them to the double-double (or exact) path and return the
//! correctly rounded float.

use devlib::math::f32 as m;

#[test]
fn log_hard_cases_are_correctly_rounded() {
    for (bits, expected) in [
        (0x3c41_3d3a_u32, -4.4401317f32),
        (0x6f31_a8ec, 66.17683),
        (0x4117_8feb, 2.2484071),
        (0x4c5d_65a5, 17.876608),
        (0x65d8_90d3, 53.20505),
    ] {
        assert_eq!(m::log(f32::from_bits(bits)), expected, "log({bits:#x})");
    }
}

#[test]
fn sin_hard_cases_are_correctly_rounded() {
    assert_eq!(m::sin(f32::from_bits(0x4619_9998)), -0.34761325);
    assert_eq!(m::sin(f32::from_bits(0xc619_9998)), 0.34761325);
}

#[test]
fn cos_of_huge_arguments_is_correctly_rounded() {
    // Found by mathcheck's `ambiguous` run (the f64 cos lies within 4 f64 ulps of the float
    // midpoint); the expected value is MPFR's correctly rounded result.
    for (bits, expected) in [
        (0x5f18_b878_u32, 9.964101e-1_f32),
        (0x6115_cb11, 9.69058e-1),
    ] {
        let x = f32::from_bits(bits);
        assert_eq!(m::cos(x), expected, "cos({bits:#x})");
        assert_eq!(m::cos(-x), expected, "cos(-{bits:#x})");
    }
}

#[test]
fn acos_hard_case_is_correctly_rounded() {
    // Found by the exhaustive check: acos(0x1.110b46p-26) = pi/2 - x lies 6.1e-17 above the
    // midpoint of 0x3fc90fda and 0x3fc90fdb (mpmath at 300 bits), closer than the error of the
    // f64 acos, which rounded to the lower float.
    let x = f32::from_bits(0x3288_85a3);
    assert_eq!(m::acos(x).to_bits(), 0x3fc9_0fdb);
}

#[test]
fn acosh_hard_case_is_correctly_rounded() {
    // Found by the exhaustive check: acosh(0x6eb1a8ec) = log(2x) - tiny; mpmath at 300 bits puts
    // it 1.3e-15 closer to 0x42845a89 than to 0x42845a88, which rounding the f64 acosh gave.
    let x = f32::from_bits(0x6eb1_a8ec);
    assert_eq!(m::acosh(x).to_bits(), 0x4284_5a89);
}

#[test]
fn pow_and_hypot_results_exactly_on_a_midpoint_round_to_even() {
    // Hand computation: 257³ = 16974593, 11⁷ = 19487171 and 4097² = 16785409 are odd 25-bit
    // integers, halfway between two floats (the even integers around them); ties go to the one
    // whose mantissa is even, the multiple of 4.
    assert_eq!(m::pow(66049.0, 1.5), 16974592.0); // 66049 = 257²
    assert_eq!(m::powr(66049.0, 1.5), 16974592.0);
    assert_eq!(m::pow(14641.0, 1.75), 19487172.0); // 14641 = 11⁴
    assert_eq!(m::pow(4097.0, 2.0), 16785408.0);
    assert_eq!(m::pow(-257.0, 3.0), -16974592.0);
    // 14997999² + 8008000² = 17002001² (m = 4000, n = 1001): halfway between 17002000 and
    // 17002002; 17002000 is the multiple of 4.
    assert_eq!(m::hypot(14997999.0, 8008000.0), 17002000.0);
    assert_eq!(m::hypot(-8008000.0, 14997999.0), 17002000.0);
}

/// Arguments whose `f64` value lies within devlib's 16-ulp margin of a float midpoint (found by
/// mathcheck's `ambiguous` example over strided and full ranges), so devlib decides them on its
/// double-double or exact path; `hard` ones are those where rounding the `f64` value alone is
/// wrong. Expected: the correctly rounded float, from MPFR (the example) and mpmath at 300
/// bits (both agree).
const AMBIGUOUS_ARGUMENTS: &[(&str, u32, u32)] = &[
    ("acospi", 0x3349_0fda, 0x3f00_0000), // ambiguous
    ("acospi", 0x3349_0fdb, 0x3eff_ffff), // ambiguous
    ("asin", 0x39e8_9768, 0x39e8_9769),   // ambiguous
    ("asin", 0x3d07_959c, 0x3d07_9bf3),   // ambiguous
    ("asinpi", 0x04a3_32e9, 0x03cf_ca90), // ambiguous
    ("asinpi", 0x0a73_b47b, 0x099b_25bd), // ambiguous
    ("atan", 0x3d8d_6b23, 0x3d8d_31c3),   // hard
    ("atan", 0x3a27_ba3b, 0x3a27_ba3a),   // ambiguous
    ("atanh", 0x3dcd_9576, 0x3dce_4751),  // ambiguous
    ("atanh", 0x3ddc_2ece, 0x3ddd_0980),  // ambiguous
    ("atanpi", 0x3f69_3531, 0x3e70_d331), // hard
    ("atanpi", 0x04a3_32e9, 0x03cf_ca90), // ambiguous
    ("atanpi", 0x0a73_b47b, 0x099b_25bd), // ambiguous
    ("cbrt", 0x2203_53b5, 0x35a2_a7bc),   // ambiguous
    ("cbrt", 0x5083_53b5, 0x4522_a7bc),   // ambiguous
    ("cosh", 0x40fb_fc54, 0x44a4_5820),   // ambiguous
    ("cospi", 0x3ec0_a02a, 0x3ec2_1dd8),  // ambiguous
    ("cospi", 0x3edf_cdd7, 0x3e48_fad5),  // ambiguous
    ("erf", 0x0faa_320c, 0x0fc0_0b88),    // ambiguous
    ("erf", 0x1f2a_320c, 0x1f40_0b88),    // ambiguous
    ("exp", 0x4031_5b33, 0x417f_a47d),    // ambiguous
    ("exp", 0x4034_d02b, 0x4186_ea51),    // ambiguous
    ("exp2", 0x3b42_9d37, 0x3f80_4385),   // hard
    ("exp2", 0xbcf3_a937, 0x3f7a_c6b1),   // hard
    ("expm1", 0x3e35_bec5, 0x3e46_df32),  // ambiguous
    ("expm1", 0x3f09_23fe, 0x3f35_6a4b),  // ambiguous
    ("log10", 0x0efe_ee7a, 0xc1e9_9d23),  // hard
    ("log10", 0x0197_b60d, 0xc215_0401),  // ambiguous
    ("log1p", 0x65d8_90d3, 0x4254_d1f9),  // hard
    ("log1p", 0x6f31_a8ec, 0x4284_5a89),  // hard
    ("log1p", 0xb70f_ffe5, 0xb710_000d),  // hard
    ("log1p", 0xbb0e_c8c4, 0xbb0e_f0a5),  // hard
    ("log1p", 0x36aa_d563, 0x36aa_d547),  // ambiguous
    ("log1p", 0x542d_fac1, 0x41e5_ceba),  // ambiguous
    ("log2", 0x0a11_4a90, 0xc2d5_a268),   // ambiguous
    ("log2", 0x0aeb_8090, 0xc2d2_3da6),   // ambiguous
    ("rsqrt", 0x0b09_f038, 0x59ae_6055),  // ambiguous
    ("rsqrt", 0x0f3a_18e3, 0x5796_209e),  // ambiguous
    ("sinh", 0x3a12_85ff, 0x3a12_85ff),   // hard
    ("sinh", 0x3f99_144c, 0x3fc0_4512),   // ambiguous
    ("sinpi", 0x3f60_5015, 0x3ec2_1dd8),  // ambiguous
    ("tanh", 0x3eee_0566, 0x3ede_3cbe),   // ambiguous
    ("tanpi", 0x3eec_ea25, 0x4108_00b6),  // ambiguous
];

#[test]
fn arguments_near_a_midpoint_are_correctly_rounded() {
    for &(name, x, expected) in AMBIGUOUS_ARGUMENTS {
        let f = m::unary(name).expect("a float function");
        let got = f(f32::from_bits(x));
        assert_eq!(
            got.to_bits(),
            expected,
            "{name}({x:#010x}) = {got:e}, expected {:e}",
            f32::from_bits(expected)
        );
    }
}

/// Two-argument cases as [`AMBIGUOUS_ARGUMENTS`] (found by a random search for `f64` values
/// within the margin; expected values from mpmath at 300 bits).
const AMBIGUOUS_PAIRS: &[(&str, u32, u32, u32)] = &[
    ("pow", 0x3fe7_eb68, 0xbf2c_5d69, 0x3f2b_920e),
    ("pow", 0x3e88_69fa, 0xbe61_7636, 0x3fab_453a),
    ("powr", 0x3e87_2fee, 0x3cd8_6ba2, 0x3f77_267d),
    ("powr", 0x3e24_758d, 0x3f63_e956, 0x3e49_00d3),
    ("hypot", 0x3d37_260c, 0x39ba_aac2, 0x3d37_2789),
    ("hypot", 0x797b_ded2, 0x7b78_7914, 0x7b78_f89c),
    ("atan2", 0x1cda_eeb5, 0xa94d_4424, 0x4049_0fda),
    ("atan2", 0xcb6e_6c77, 0x3e7e_4c2d, 0xbfc9_0fda),
    ("atan2pi", 0x4859_4d8a, 0x463d_443a, 0x3ef7_2314),
    ("atan2pi", 0x9ae5_7ad4, 0x1a24_f84c, 0xbec7_c377),
];

#[test]
fn argument_pairs_near_a_midpoint_are_correctly_rounded() {
    for &(name, x, y, expected) in AMBIGUOUS_PAIRS {
        let f = m::binary(name).expect("a float function");
        let got = f(f32::from_bits(x), f32::from_bits(y));
        assert_eq!(
            got.to_bits(),
            expected,
            "{name}({x:#010x}, {y:#010x}) = {got:e}, expected {:e}",
            f32::from_bits(expected)
        );
    }
}

#[test]
fn asinh_hard_cases_are_correctly_rounded() {
    // Found by the exhaustive check (6 inputs, these and their negatives): the double-double
    // asinh rounded to f64 lands on the midpoint of two floats and rounding to even picked the
    // lower one; mpmath at 300 bits puts the exact values 8.5e-10, 2.4e-10 and 5.6e-11 of a float
    // ulp above the midpoint.
    for (bits, expected) in [
        (0x6eb1_a8ec_u32, 0x4284_5a89_u32),
        (0x4bdd_65a5, 0x418f_034b),
        (0x6558_90d3, 0x4254_d1f9),
    ] {
        let x = f32::from_bits(bits);
        assert_eq!(m::asinh(x).to_bits(), expected, "asinh({bits:#x})");
        assert_eq!(
            m::asinh(-x).to_bits(),
            expected | 0x8000_0000,
            "asinh(-{bits:#x})"
        );
    }
}

#[test]
fn erfc_hard_case_is_correctly_rounded() {
    // Found by scanning for inputs whose accurate f64 erfc lies within 3 f64 ulps of a float
    // midpoint: erfc(-0x1.d93ec4p-17) is 1.4e-10 of a float ulp below the midpoint of
    // 0x3f800085 and 0x3f800086 (mpmath at 300 bits); the f64 value rounded to the midpoint and
    // then to even, the upper float.
    let x = f32::from_bits(0xb76c_9f62);
    assert_eq!(m::erfc(x).to_bits(), 0x3f80_0085);
}

#[test]
fn tgamma_and_lgamma_hard_cases_are_correctly_rounded() {
    // Found by scanning every float for accurate f64 values within 3 f64 ulps of a float
    // midpoint: the exact values lie 1.2e-10 and 4.0e-10 (tgamma) and 1.9e-16, 6.8e-16
    // (lgamma, absolute) below or above the midpoint (mpmath at 300 bits), closer than an f64
    // ulp, and rounding the f64 value to even picked the other float.
    for (bits, expected) in [
        (0x27de_86a9_u32, 0x5713_4133_u32),
        (0x27e0_5475, 0x5712_1211),
    ] {
        assert_eq!(
            m::tgamma(f32::from_bits(bits)).to_bits(),
            expected,
            "tgamma({bits:#x})"
        );
    }
    for (bits, expected) in [
        (0x3b7c_53aa_u32, 0x40b1_d661_u32),
        (0xb0d6_f2ca, 0x41a2_3559),
    ] {
        assert_eq!(
            m::lgamma(f32::from_bits(bits)).to_bits(),
            expected,
            "lgamma({bits:#x})"
        );
    }
}

/// Subnormal results round on the subnormal grid (spacing 2^-149): results exactly on one of
/// its midpoints round to even, those next to one to the nearer subnormal. Expected values:
/// mpmath at 300 bits rounded to the float grid (the midpoint cases are also hand
/// computations: (3·2^-75)² = 4.5·2^-149, (4095·2^-75)² = 8384512.5·2^-149, (6561·2^-80)^1.875
/// = 3^15·2^-150 = 7174453.5·2^-149, 2^-150 = ½·2^-149).
#[test]
fn subnormal_results_are_correctly_rounded() {
    let s = |k: u32| f32::from_bits(k); // k·2^-149
    let p = |k: f32, e: i32| k * 2f32.powi(e / 2) * 2f32.powi(e - e / 2);
    // Exact midpoints: to even.
    assert_eq!(m::pow(p(1.0, -75), 2.0).to_bits(), 0);
    assert_eq!(m::pow(2.0, -150.0).to_bits(), 0);
    assert_eq!(m::pow(0.5, 150.0).to_bits(), 0);
    assert_eq!(m::pow(4.0, -75.0).to_bits(), 0);
    assert_eq!(m::powr(2.0, -150.0).to_bits(), 0);
    assert_eq!(m::exp2(-150.0).to_bits(), 0);
    assert_eq!(m::exp2(-149.0), s(1));
    assert_eq!(m::pow(p(3.0, -75), 2.0), s(4));
    assert_eq!(m::pow(p(-3.0, -75), 2.0), s(4));
    assert_eq!(m::pow(p(4095.0, -75), 2.0), s(0x7f_f000));
    assert_eq!(m::pow(p(6561.0, -80), 1.875), s(0x6d_7936));
    // hypot of subnormals: √(k² + k) lies 1/(8k) of a spacing below k + ½ (m = 2896, k = m²),
    // √(k² + k + 1) 3/(8k) above it (k = m² - 1): the nearer of k and k + 1.
    assert_eq!(m::hypot(s(8_386_816), s(2896)), s(8_386_816));
    assert_eq!(m::hypot(s(8_386_815), s(2896)), s(8_386_816));
    assert_eq!(m::hypot(s(6), s(6)), s(8)); // √72 = 8.485
    assert_eq!(m::hypot(s(8), s(3)), s(9)); // √73 = 8.544
    assert_eq!(m::hypot(s(3), -s(4)), s(5));
}

/// Under `-cl-denorms-are-zero` a subnormal operand or result may be flushed to a zero: the
/// flushed evaluation `ftz(f(ftz(x)))` of the subnormal-result arguments above is a zero or
/// the correctly rounded normal value.
#[test]
fn flushed_subnormal_results_are_zeros() {
    use devlib::ftz_f32 as ftz;
    let s = |k: u32| f32::from_bits(k);
    for x in [s(1), s(12345), s(0x7f_ffff), -s(3)] {
        for f in [
            m::asin,
            m::atan,
            m::sinh,
            m::tanh,
            m::erf,
            m::expm1,
            m::asinpi,
            m::sinpi,
        ] {
            assert_eq!(ftz(f(ftz(x))), 0.0, "{x:e}");
        }
    }
    assert_eq!(ftz(m::exp(-100.0)), 0.0);
    assert_eq!(ftz(m::exp2(-140.5)), 0.0);
    assert_eq!(ftz(m::pow(0.5, 140.0)), 0.0);
    assert_eq!(ftz(m::exp2(-126.0)), f32::MIN_POSITIVE); // normal: kept
}
