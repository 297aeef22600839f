//! The float inputs where the `f64` log, sin and cos, rounded once to float, land on the wrong side
//! of a midpoint (found by scanning all 2^32 floats; the expected values are MPFR's correctly
//! rounded results at 200 bits): devlib's rounding test must send them to the double-double
//! path and return the correctly rounded float.

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
