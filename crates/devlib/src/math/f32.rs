//! OpenCL.std math for `float` (OpenCL C 2.0 §6.13.2, 002 ULP table "Float32" column), plus the
//! `half_*` and `native_*` variants, which oxcl computes at full accuracy (their bounds are
//! 8192 ulp and implementation-defined).

crate::math::per_type_functions!(f32, u32);
crate::math::dispatch_tables!(f32;
    unary: [
        half_cos, half_exp, half_exp2, half_exp10, half_log, half_log2, half_log10, half_recip,
        half_rsqrt, half_sin, half_sqrt, half_tan, native_cos, native_exp, native_exp2,
        native_exp10, native_log, native_log2, native_log10, native_recip, native_rsqrt,
        native_sin, native_sqrt, native_tan,
    ];
    binary: [half_divide, half_powr, native_divide, native_powr]
);
crate::math::narrow_functions!(f32);

/// Correctly rounded natural logarithm: the `f64` log rounded once, unless that value lies so
/// close to the midpoint of two floats that its error (below 1 ulp of `f64`) could put it on
/// the wrong side; then the double-double log (error about 2^-75) decides.
/// The JIT's vector loop repeats this (and `exp`, `log2`, `log10`) operation for operation
/// (exec `jit/compile/vector/math.rs`): change both (runtime test `jit_math_inline`).
pub fn log(x: f32) -> f32 {
    let y = crate::math::f64::log(f64::from(x));
    match crate::math::rounding::f64_to_f32_if_unambiguous(y) {
        Some(r) => r,
        None => crate::math::rounding::dd_to_f32(crate::math::exp_log::log_dd(f64::from(x))),
    }
}

/// Correctly rounded arc cosine: the `f64` acos (msun, within 1 ulp) rounded once, unless that
/// value is ambiguous (see [`log`]); then the double-double acos decides. Rounding the `f64`
/// value alone misrounds two floats (found by the exhaustive check), e.g. acos(0x1.110b46p-26),
/// whose exact value lies 6e-17 above the midpoint of two floats: closer than `f64`'s error.
pub fn acos(x: f32) -> f32 {
    let y = crate::math::f64::acos(f64::from(x));
    match crate::math::rounding::f64_to_f32_if_unambiguous(y) {
        Some(r) => r,
        None => crate::math::rounding::dd_to_f32(crate::math::inverse_trig::acos_dd(f64::from(x))),
    }
}

/// Correctly rounded inverse hyperbolic cosine: the `f64` acosh (double-double inside, rounded
/// to `f64`) rounded once, unless that value is ambiguous (see [`log`]); then the
/// double-double value itself is rounded. Rounding twice misrounds two floats (found by the
/// exhaustive check).
pub fn acosh(x: f32) -> f32 {
    let y = crate::math::f64::acosh(f64::from(x));
    match crate::math::rounding::f64_to_f32_if_unambiguous(y) {
        Some(r) => r,
        None => crate::math::rounding::dd_to_f32(crate::math::f64::acosh_dd(f64::from(x))),
    }
}

/// Correctly rounded sine: the `f64` sin rounded once, unless that value is ambiguous (see
/// [`log`]); then the double-double sin decides (every float argument).
pub fn sin(x: f32) -> f32 {
    let y = sin_in_f64(f64::from(x));
    match crate::math::rounding::f64_to_f32_if_unambiguous(y) {
        Some(r) => r,
        None => match crate::math::trig_dd::sin_dd(f64::from(x)) {
            Some(d) => crate::math::rounding::dd_to_f32(d),
            None => y as f32,
        },
    }
}

/// Correctly rounded cosine, as [`sin`].
pub fn cos(x: f32) -> f32 {
    let y = cos_in_f64(f64::from(x));
    match crate::math::rounding::f64_to_f32_if_unambiguous(y) {
        Some(r) => r,
        None => match crate::math::trig_dd::cos_dd(f64::from(x)) {
            Some(d) => crate::math::rounding::dd_to_f32(d),
            None => y as f32,
        },
    }
}

/// The `f64` sine (within 2 `f64` ulps) that [`sin`] rounds when it is clear of a float
/// midpoint: `libm`'s, with arguments from 10^6 up reduced by the Payne–Hanek reduction of
/// the double-double path (faster than `libm`'s). Public for mathcheck's proof run.
pub fn sin_in_f64(x: f64) -> f64 {
    crate::math::trig_dd::sin_f64_for_float(x)
}

/// Correctly rounded tangent, as [`sin`]: the `f64` tan (arguments from 10^6 up reduced as
/// for sin) rounded once unless ambiguous, then the double-double sin/cos quotient decides.
pub fn tan(x: f32) -> f32 {
    let y = tan_in_f64(f64::from(x));
    match crate::math::rounding::f64_to_f32_if_unambiguous(y) {
        Some(r) => r,
        None => match crate::math::trig_dd::tan_dd(f64::from(x)) {
            Some(d) => crate::math::rounding::dd_to_f32(d),
            None => y as f32,
        },
    }
}

/// The `f64` tangent that [`tan`] rounds, as [`sin_in_f64`] (within 2 `f64` ulps).
pub fn tan_in_f64(x: f64) -> f64 {
    crate::math::trig_dd::tan_f64_for_float(x)
}

/// The `f64` cosine that [`cos`] rounds, as [`sin_in_f64`].
pub fn cos_in_f64(x: f64) -> f64 {
    crate::math::trig_dd::cos_f64_for_float(x)
}

/// erfc: the `libm` (msun) erfc, a few `f64` ulps off, rounded once where that value is
/// clearly away from a float midpoint (all but about 2^-16 of the results); otherwise, and
/// for subnormal or overflowing results, the 1-ulp double-double erfc rounded once.
pub fn erfc(x: f32) -> f32 {
    crate::math::rounding::fast_then_accurate(
        f64::from(x),
        libm::erfc,
        crate::math::erfc::erfc_accurate,
    )
}

/// tgamma: as [`erfc`], with the `libm` (musl) tgamma and the double-double one.
pub fn tgamma(x: f32) -> f32 {
    crate::math::rounding::fast_then_accurate(
        f64::from(x),
        libm::tgamma,
        crate::math::gamma::tgamma_accurate,
    )
}

/// Correctly rounded 10^x: the `libm` (musl) exp10, a few `f64` ulps off, rounded once where
/// clearly away from a float midpoint (see [`erfc`]); otherwise the double-double exp10
/// (relative error about 2^-75) rounded once. Rounding the `f64` exp10 instead would round
/// twice.
pub fn exp10(x: f32) -> f32 {
    crate::math::rounding::fast_or_else(f64::from(x), libm::exp10, |w| {
        // 10^-50 is below half the smallest subnormal float, 10^40 above the largest float:
        // outside, the f64 value rounds to 0 or ∞ unambiguously (and NaN stays NaN).
        if !(-50.0..=40.0).contains(&w) {
            return crate::math::f64::exp10(w) as f32;
        }
        let (m, k) = crate::math::f64::exp10_dd(w);
        crate::math::rounding::dd_to_f32(m.mul_pow2(libm::scalbn(1.0, k)))
    })
}

/// Correctly rounded asinh: the `libm` (msun) asinh rounded once where clearly away from a
/// float midpoint (see [`erfc`]); otherwise the double-double asinh rounded once. Rounding the
/// `f64` asinh there misrounded 6 floats (found by the exhaustive check), e.g. those whose
/// double-double value rounds to an `f64` exactly on a float midpoint.
pub fn asinh(x: f32) -> f32 {
    crate::math::rounding::fast_or_else(f64::from(x), libm::asinh, |w| {
        if !w.is_finite() || w.abs() < 3.7e-9 {
            return crate::math::f64::asinh(w) as f32; // ±∞, NaN, or x itself
        }
        crate::math::rounding::dd_to_f32(crate::math::f64::asinh_dd(w))
    })
}

/// Correctly rounded one-argument functions: the `f64` function of the widened argument,
/// rounded once when that value is clear of a float midpoint by
/// [`NARROW_MARGIN_F64_ULPS`](crate::math::rounding::NARROW_MARGIN_F64_ULPS) `f64` ulps (all
/// but about 2^-24 of the arguments); otherwise `f32_accurate`'s function of the argument and
/// that `f64` value decides (a double-double evaluation rounded once, or an exact comparison).
macro_rules! correctly_rounded_unary {
    ($($(#[$doc:meta])* $name:ident => |$x:ident, $y:ident| $slow:expr;)*) => {
        $(
            $(#[$doc])*
            pub fn $name($x: f32) -> f32 {
                let $y = crate::math::f64::$name(f64::from($x));
                match crate::math::rounding::f64_to_f32_if_clear(
                    $y,
                    crate::math::rounding::NARROW_MARGIN_F64_ULPS,
                ) {
                    Some(r) => r,
                    None => $slow,
                }
            }
        )*
    };
}

/// The two-argument form of [`correctly_rounded_unary`].
macro_rules! correctly_rounded_binary {
    ($($(#[$doc:meta])* $name:ident => |$x:ident, $x2:ident, $y:ident| $slow:expr;)*) => {
        $(
            $(#[$doc])*
            pub fn $name($x: f32, $x2: f32) -> f32 {
                let $y = crate::math::f64::$name(f64::from($x), f64::from($x2));
                match crate::math::rounding::f64_to_f32_if_clear(
                    $y,
                    crate::math::rounding::NARROW_MARGIN_F64_ULPS,
                ) {
                    Some(r) => r,
                    None => $slow,
                }
            }
        )*
    };
}

use crate::math::f32_accurate as accurate;

correctly_rounded_unary! {
    /// Correctly rounded acos(x)/π (double-double acos divided by π in double-double).
    acospi => |x, _y| accurate::acospi(x);
    /// Correctly rounded arc sine (msun's asin, then the double-double asin).
    asin => |x, _y| accurate::asin(x);
    /// Correctly rounded asin(x)/π.
    asinpi => |x, _y| accurate::asinpi(x);
    /// Correctly rounded arc tangent (msun's atan, then the double-double atan).
    atan => |x, _y| accurate::atan(x);
    /// Correctly rounded inverse hyperbolic tangent (log1p in double-double).
    atanh => |x, y| accurate::atanh(x, y);
    /// Correctly rounded atan(x)/π.
    atanpi => |x, _y| accurate::atanpi(x);
    /// Correctly rounded cube root (msun's cbrt, then an exact comparison of the midpoint's
    /// cube with x).
    cbrt => |x, y| accurate::cbrt(x, y);
    /// Correctly rounded hyperbolic cosine (the double-double exp).
    cosh => |x, y| accurate::cosh(x, y);
    /// Correctly rounded cos(πx) (exact reduction, then the double-double series).
    cospi => |x, y| accurate::cospi(x, y);
    /// Correctly rounded error function (msun's erf, then its Taylor series in double-double).
    erf => |x, y| accurate::erf(x, y);
    /// Correctly rounded e^x (msun's exp, then the double-double exp). The JIT's vector loop
    /// repeats the fast path operation for operation (exec `jit/compile/vector/math.rs`).
    exp => |x, _y| accurate::exp(x);
    /// Correctly rounded 2^x (musl's exp2, then the double-double exp of x·ln 2).
    exp2 => |x, _y| accurate::exp2(x);
    /// Correctly rounded e^x - 1 (msun's expm1, then the double-double expm1).
    expm1 => |x, _y| accurate::expm1(x);
    /// Correctly rounded log2 (msun's log2, then the double-double log times 1/ln 2). The JIT's
    /// vector loop repeats the fast path (exec `jit/compile/vector/math.rs`).
    log2 => |x, _y| accurate::log2(x);
    /// Correctly rounded log10, as [`log2`].
    log10 => |x, _y| accurate::log10(x);
    /// Correctly rounded log(1 + x) (msun's log1p, then the double-double log1p).
    log1p => |x, _y| accurate::log1p(x);
    /// Correctly rounded 1/√x (devlib's `f64` rsqrt, then an exact comparison of the
    /// midpoint's square times x with 1).
    rsqrt => |x, y| accurate::rsqrt(x, y);
    /// Correctly rounded hyperbolic sine (the double-double exp).
    sinh => |x, _y| accurate::sinh(x);
    /// Correctly rounded sin(πx) (exact reduction, then the double-double series).
    sinpi => |x, y| accurate::sinpi(x, y);
    /// Correctly rounded hyperbolic tangent (the double-double expm1).
    tanh => |x, y| accurate::tanh(x, y);
    /// Correctly rounded tan(πx) (exact reduction, then the double-double sin/cos quotient).
    tanpi => |x, y| accurate::tanpi(x, y);
}

correctly_rounded_binary! {
    /// atan2 (the double-double atan2 where the `f64` value is ambiguous).
    atan2 => |y, x, v| accurate::atan2(y, x, v);
    /// atan2(y, x)/π (the double-double atan2 divided by π where ambiguous).
    atan2pi => |y, x, v| accurate::atan2pi(y, x, v);
    /// Correctly rounded √(x² + y²) (msun's hypot, then an exact comparison).
    hypot => |x, y, v| accurate::hypot(x, y, v);
    /// x^y (msun's pow; where ambiguous, e^(y log x) in double-double, exact midpoints
    /// rounded to even).
    pow => |x, y, v| accurate::pow(x, y, v);
    /// powr (as [`pow`], with the 002 powr edge cases).
    powr => |x, y, v| accurate::powr(x, y, v);
}

/// Correctly rounded fused multiply-add.
pub fn fma(a: f32, b: f32, c: f32) -> f32 {
    libm::fmaf(a, b, c)
}

/// Reduced-accuracy variants (`half_*`, ≤ 8192 ulp): computed at full accuracy.
macro_rules! alias_unary {
    ($($alias:ident => $full:ident),* $(,)?) => {
        $(
            #[doc = concat!("OpenCL.std `", stringify!($alias), "`: computed as `",
                stringify!($full), "`.")]
            pub fn $alias(x: f32) -> f32 {
                $full(x)
            }
        )*
    };
}

alias_unary!(
    half_cos => cos, half_exp => exp, half_exp2 => exp2, half_exp10 => exp10, half_log => log,
    half_log2 => log2, half_log10 => log10, half_rsqrt => rsqrt, half_sin => sin,
    half_sqrt => sqrt, half_tan => tan,
    native_cos => cos, native_exp => exp, native_exp2 => exp2, native_exp10 => exp10,
    native_log => log, native_log2 => log2, native_log10 => log10, native_rsqrt => rsqrt,
    native_sin => sin, native_sqrt => sqrt, native_tan => tan,
);

/// `x / y`, correctly rounded.
pub fn half_divide(x: f32, y: f32) -> f32 {
    x / y
}
/// `1 / x`, correctly rounded.
pub fn half_recip(x: f32) -> f32 {
    1.0 / x
}
/// `powr(x, y)` at full accuracy.
pub fn half_powr(x: f32, y: f32) -> f32 {
    powr(x, y)
}
/// `x / y`, correctly rounded.
pub fn native_divide(x: f32, y: f32) -> f32 {
    x / y
}
/// `1 / x`, correctly rounded.
pub fn native_recip(x: f32) -> f32 {
    1.0 / x
}
/// `powr(x, y)` at full accuracy.
pub fn native_powr(x: f32, y: f32) -> f32 {
    powr(x, y)
}
