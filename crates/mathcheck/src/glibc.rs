//! Double-precision values from the C library (glibc's libm, an implementation independent of
//! devlib), used by the exhaustive mode only as a pre-screen: a `float` result that is clearly
//! correctly rounded against the glibc `double` value (error below 0.5 − 2^-16 ulp, a margin far
//! beyond glibc's few-ulp `double` errors) is accepted with that error, and every other input is
//! decided by MPFR. A NaN, infinite or zero result equal to glibc's (same sign) is accepted too.

mod c {
    extern "C" {
        pub fn acos(x: f64) -> f64;
        pub fn acosh(x: f64) -> f64;
        pub fn asin(x: f64) -> f64;
        pub fn asinh(x: f64) -> f64;
        pub fn atan(x: f64) -> f64;
        pub fn atanh(x: f64) -> f64;
        pub fn cbrt(x: f64) -> f64;
        pub fn cos(x: f64) -> f64;
        pub fn cosh(x: f64) -> f64;
        pub fn erf(x: f64) -> f64;
        pub fn erfc(x: f64) -> f64;
        pub fn exp(x: f64) -> f64;
        pub fn exp2(x: f64) -> f64;
        pub fn exp10(x: f64) -> f64;
        pub fn expm1(x: f64) -> f64;
        pub fn lgamma_r(x: f64, sign: *mut i32) -> f64;
        pub fn sincos(x: f64, sin: *mut f64, cos: *mut f64);
        pub fn log(x: f64) -> f64;
        pub fn log2(x: f64) -> f64;
        pub fn log10(x: f64) -> f64;
        pub fn log1p(x: f64) -> f64;
        pub fn sin(x: f64) -> f64;
        pub fn sinh(x: f64) -> f64;
        pub fn tan(x: f64) -> f64;
        pub fn tanh(x: f64) -> f64;
        pub fn tgamma(x: f64) -> f64;
    }
}

macro_rules! wrap {
    ($($name:ident),*) => {
        $(
            fn $name(x: f64) -> f64 {
                // SAFETY: a pure C math function of one double.
                unsafe { c::$name(x) }
            }
        )*
    };
}
wrap!(
    acos, acosh, asin, asinh, atan, atanh, cbrt, cos, cosh, erf, erfc, exp, exp2, exp10, expm1,
    log, log2, log10, log1p, sin, sinh, tan, tanh, tgamma
);

fn lgamma(x: f64) -> f64 {
    let mut sign = 0;
    // SAFETY: `sign` is a valid out-pointer.
    unsafe { c::lgamma_r(x, &mut sign) }
}

/// log|Γ(x)| and the sign of Γ(x) (glibc's `lgamma_r`).
pub fn lgamma_sign(x: f64) -> (f64, i32) {
    let mut sign = 0;
    // SAFETY: `sign` is a valid out-pointer.
    let v = unsafe { c::lgamma_r(x, &mut sign) };
    (v, sign.signum())
}

/// sin(x) and cos(x) in one call (glibc's `sincos`).
pub fn sin_cos(x: f64) -> (f64, f64) {
    let (mut s, mut c) = (0.0, 0.0);
    // SAFETY: both out-pointers are valid.
    unsafe { c::sincos(x, &mut s, &mut c) };
    (s, c)
}

const PI: f64 = core::f64::consts::PI;

/// sin(πr) for a `float` argument: reduced exactly to [-1/2, 1/2] first.
fn sinpi(x: f64) -> f64 {
    if !x.is_finite() {
        return f64::NAN;
    }
    // x - 2 round(x/2) is exact for a float argument; r ∈ [-1, 1].
    let r = x - 2.0 * (x / 2.0).round();
    let r = if r > 0.5 {
        1.0 - r
    } else if r < -0.5 {
        -1.0 - r
    } else {
        r
    };
    if r == 0.0 {
        // 002: sinpi(+n) = +0, sinpi(-n) = -0.
        return 0f64.copysign(x);
    }
    sin(PI * r)
}

/// cos(πr) = sin(π(1/2 − |r|)) for |r| ≤ 1, exact reductions for a `float` argument.
fn cospi(x: f64) -> f64 {
    if !x.is_finite() {
        return f64::NAN;
    }
    let r = (x - 2.0 * (x / 2.0).round()).abs();
    let sign = if r > 0.5 { -1.0 } else { 1.0 };
    let r = if r > 0.5 { 1.0 - r } else { r };
    sign * sin(PI * (0.5 - r))
}

fn tanpi(x: f64) -> f64 {
    sinpi(x) / cospi(x)
}

/// The `double` approximation of the function `name` (OpenCL.std base name), if there is one.
pub fn double_reference(name: &str) -> Option<fn(f64) -> f64> {
    Some(match name {
        "acos" => acos,
        "acosh" => acosh,
        "asin" => asin,
        "asinh" => asinh,
        "atan" => atan,
        "atanh" => atanh,
        "acospi" => |x| acos(x) / PI,
        "asinpi" => |x| asin(x) / PI,
        "atanpi" => |x| atan(x) / PI,
        "cbrt" => cbrt,
        "cos" => cos,
        "cosh" => cosh,
        "cospi" => cospi,
        "erf" => erf,
        "erfc" => erfc,
        "exp" => exp,
        "exp2" => exp2,
        "exp10" => exp10,
        "expm1" => expm1,
        "lgamma" => lgamma,
        "log" => log,
        "log2" => log2,
        "log10" => log10,
        "log1p" => log1p,
        "rsqrt" => |x| 1.0 / x.sqrt(),
        "recip" => |x| 1.0 / x,
        "sin" => sin,
        "sinh" => sinh,
        "sinpi" => sinpi,
        "sqrt" => f64::sqrt,
        "tan" => tan,
        "tanh" => tanh,
        "tanpi" => tanpi,
        "tgamma" => tgamma,
        "ceil" => f64::ceil,
        "floor" => f64::floor,
        "trunc" => f64::trunc,
        "round" => f64::round,
        "rint" => f64::round_ties_even,
        "fabs" => f64::abs,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reductions_are_right() {
        assert_eq!(sinpi(0.5), 1.0);
        assert!(sinpi(-4.0) == 0.0 && sinpi(-4.0).is_sign_negative());
        assert!(sinpi(3.0) == 0.0 && sinpi(3.0).is_sign_positive());
        assert!(tanpi(-3.0) == 0.0 && tanpi(-3.0).is_sign_positive());
        assert!(cospi(-2.5) == 0.0 && cospi(-2.5).is_sign_positive());
        assert_eq!(sinpi(2.5), 1.0);
        assert_eq!(sinpi(-1.5), 1.0);
        assert!((sinpi(1.0 / 6.0) - 0.5).abs() < 1e-15);
        assert!((cospi(1.0 / 3.0) - 0.5).abs() < 1e-15);
        assert!((cospi(1.0) + 1.0).abs() < 1e-15);
        assert!((cospi(2.0 / 3.0) + 0.5).abs() < 1e-15);
        assert!((tanpi(0.25) - 1.0).abs() < 1e-15);
        assert!((exp10(2.0) - 100.0).abs() < 1e-12);
    }
}
