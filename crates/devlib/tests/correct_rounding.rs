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
