//! OpenCL.std math, common and relational functions on scalars, one module per type with the
//! same function names: [`f64`](mod@f64), [`f32`](mod@f32), [`f16`](mod@f16) (the latter on `half::f16`).
//!
//! Accuracy strategy (002 "ULP Values for Math Instructions - Full Profile"):
//! - `f64`: careful algorithms, see [`f64`](mod@f64)'s module doc.
//! - `f32` and `f16`: the `f64` function evaluated on the exactly widened argument and rounded
//!   once to the narrow type. The `f64` result is within a few ulp of `f64` (2^-50 relative), so
//!   the narrow result is correctly rounded except in rare double-rounding cases where it is
//!   within 0.5 + 2^-26 ulp — far inside every bound of the table. Functions where double
//!   rounding would break an exact requirement (fma, fract, nextafter, nan) are written per type.
//!   Every transcendental `f32` function is correctly rounded: the `f64` value is rounded only
//!   when it is clear of a float midpoint (`rounding::f64_to_f32_if_clear`), otherwise a
//!   double-double evaluation or an exact comparison decides (`f32_accurate.rs`); `f16` keeps
//!   the plain rounding for most (its 42 dropped bits make double rounding far rarer).
//! - Special values follow 002 "Edge Case Behavior" exactly in all three types; the narrow types
//!   inherit them from the `f64` functions because widening and narrowing preserve ±0, ±∞, NaN.

pub(crate) mod dd;
pub(crate) mod erfc;
pub(crate) mod exp_log;
pub mod f16;
pub mod f32;
pub(crate) mod f32_accurate;
pub mod f64;
pub(crate) mod gamma;
pub(crate) mod generic;
pub(crate) mod inverse_trig;
pub(crate) mod lgamma_table;
pub(crate) mod lgamma_zeros;
pub(crate) mod log_fast;
pub(crate) mod rounding;
pub(crate) mod trig_dd;

pub use generic::{FP_ILOGB0, FP_ILOGBNAN};

/// Functions written once over `Float` (bit-level, exact, common and relational), instantiated
/// in each type's module: `per_type_functions!(type, nan payload type)`.
macro_rules! per_type_functions {
    ($t:ty, $payload:ty) => {
        /// Copies the sign of `y` onto `x` (0 ulp).
        pub fn copysign(x: $t, y: $t) -> $t {
            $crate::math::generic::copysign(x, y)
        }
        /// Absolute value (0 ulp).
        pub fn fabs(x: $t) -> $t {
            $crate::math::generic::fabs(x)
        }
        /// C99 fmax: a NaN operand is ignored; fmax(-0, +0) = +0.
        pub fn fmax(x: $t, y: $t) -> $t {
            $crate::math::generic::fmax(x, y)
        }
        /// C99 fmin: a NaN operand is ignored; fmin(-0, +0) = -0.
        pub fn fmin(x: $t, y: $t) -> $t {
            $crate::math::generic::fmin(x, y)
        }
        /// x if |x| > |y|, y if |y| > |x|, otherwise fmax(x, y).
        pub fn maxmag(x: $t, y: $t) -> $t {
            $crate::math::generic::maxmag(x, y)
        }
        /// x if |x| < |y|, y if |y| < |x|, otherwise fmin(x, y).
        pub fn minmag(x: $t, y: $t) -> $t {
            $crate::math::generic::minmag(x, y)
        }
        /// Next representable value after x toward y (002: ±0 steps to the smallest subnormal).
        pub fn nextafter(x: $t, y: $t) -> $t {
            $crate::math::generic::nextafter(x, y)
        }
        /// Returns `(fract, floor)`: `fmin(x - floor(x), largest value below 1)` and `floor(x)`,
        /// with the 002 edge cases (±0, ±∞, NaN).
        pub fn fract(x: $t) -> ($t, $t) {
            $crate::math::generic::fract(x)
        }
        /// Returns `(mantissa in [0.5, 1), exponent)`; ±0, ±∞, NaN give `(x, 0)`.
        pub fn frexp(x: $t) -> ($t, i32) {
            $crate::math::generic::frexp(x)
        }
        /// Unbiased exponent; `FP_ILOGB0` (INT_MIN) for 0, `FP_ILOGBNAN` (INT_MAX) for NaN,
        /// INT_MAX for ±∞.
        pub fn ilogb(x: $t) -> i32 {
            $crate::math::generic::ilogb(x)
        }
        /// Unbiased exponent as a float; -∞ for ±0, +∞ for ±∞.
        pub fn logb(x: $t) -> $t {
            $crate::math::generic::logb(x)
        }
        /// Returns `(fractional part, integral part)` per 002 "Changes to ISO/IEC 9899: TC2".
        pub fn modf(x: $t) -> ($t, $t) {
            $crate::math::generic::modf(x)
        }
        /// A quiet NaN carrying the low mantissa bits of `nancode`.
        pub fn nan(nancode: $payload) -> $t {
            $crate::math::generic::nan(u64::from(nancode))
        }
        /// Common clamp: `fmin(fmax(x, minval), maxval)`.
        pub fn clamp(x: $t, minval: $t, maxval: $t) -> $t {
            $crate::math::generic::clamp(x, minval, maxval)
        }
        /// Radians to degrees.
        pub fn degrees(r: $t) -> $t {
            $crate::math::generic::degrees(r)
        }
        /// Degrees to radians.
        pub fn radians(d: $t) -> $t {
            $crate::math::generic::radians(d)
        }
        /// Common max (implemented as fmax; OpenCL leaves NaN/∞ operands undefined).
        pub fn max(x: $t, y: $t) -> $t {
            $crate::math::generic::fmax(x, y)
        }
        /// Common min (implemented as fmin).
        pub fn min(x: $t, y: $t) -> $t {
            $crate::math::generic::fmin(x, y)
        }
        /// `x + (y - x) * a`, evaluated in f64 and rounded once.
        pub fn mix(x: $t, y: $t, a: $t) -> $t {
            $crate::math::generic::mix(x, y, a)
        }
        /// 0.0 if x < edge, otherwise 1.0.
        pub fn step(edge: $t, x: $t) -> $t {
            $crate::math::generic::step(edge, x)
        }
        /// Hermite smooth step between edge0 and edge1.
        pub fn smoothstep(edge0: $t, edge1: $t, x: $t) -> $t {
            $crate::math::generic::smoothstep(edge0, edge1, x)
        }
        /// 1.0, -1.0, ±0 (same zero), or 0.0 for NaN.
        pub fn sign(x: $t) -> $t {
            $crate::math::generic::sign(x)
        }
        /// x == y (false if either is NaN).
        pub fn isequal(x: $t, y: $t) -> bool {
            $crate::math::generic::isequal(x, y)
        }
        /// x != y (true if either is NaN).
        pub fn isnotequal(x: $t, y: $t) -> bool {
            $crate::math::generic::isnotequal(x, y)
        }
        /// x > y.
        pub fn isgreater(x: $t, y: $t) -> bool {
            $crate::math::generic::isgreater(x, y)
        }
        /// x >= y.
        pub fn isgreaterequal(x: $t, y: $t) -> bool {
            $crate::math::generic::isgreaterequal(x, y)
        }
        /// x < y.
        pub fn isless(x: $t, y: $t) -> bool {
            $crate::math::generic::isless(x, y)
        }
        /// x <= y.
        pub fn islessequal(x: $t, y: $t) -> bool {
            $crate::math::generic::islessequal(x, y)
        }
        /// (x < y) || (x > y).
        pub fn islessgreater(x: $t, y: $t) -> bool {
            $crate::math::generic::islessgreater(x, y)
        }
        /// Neither infinite nor NaN.
        pub fn isfinite(x: $t) -> bool {
            $crate::math::generic::is_finite(x)
        }
        /// ±∞.
        pub fn isinf(x: $t) -> bool {
            $crate::math::generic::is_inf(x)
        }
        /// NaN.
        pub fn isnan(x: $t) -> bool {
            $crate::math::generic::is_nan(x)
        }
        /// Normal (not zero, subnormal, infinite or NaN).
        pub fn isnormal(x: $t) -> bool {
            $crate::math::generic::is_normal(x)
        }
        /// Neither operand is NaN.
        pub fn isordered(x: $t, y: $t) -> bool {
            $crate::math::generic::isordered(x, y)
        }
        /// Either operand is NaN.
        pub fn isunordered(x: $t, y: $t) -> bool {
            $crate::math::generic::isunordered(x, y)
        }
        /// Relational bitselect: each result bit is the bit of `b` where `c` has a 1, else of `a`.
        pub fn bitselect(a: $t, b: $t, c: $t) -> $t {
            $crate::math::generic::bitselect(a, b, c)
        }
        /// The sign bit is set (also for -0 and negative NaNs).
        pub fn signbit(x: $t) -> bool {
            $crate::math::generic::signbit(x)
        }
    };
}
pub(crate) use per_type_functions;

/// One-argument functions of a narrow type computed by the `f64` function and rounded once.
macro_rules! narrow_unary {
    ($t:ty; $($name:ident),* $(,)?) => {
        $(
            #[doc = concat!("OpenCL.std `", stringify!($name),
                "`: the f64 function on the widened argument, rounded once.")]
            pub fn $name(x: $t) -> $t {
                $crate::math::generic::via_f64_unary(x, $crate::math::f64::$name)
            }
        )*
    };
}
pub(crate) use narrow_unary;

/// Two-argument functions of a narrow type computed by the `f64` function and rounded once.
macro_rules! narrow_binary {
    ($t:ty; $($name:ident),* $(,)?) => {
        $(
            #[doc = concat!("OpenCL.std `", stringify!($name),
                "`: the f64 function on the widened arguments, rounded once.")]
            pub fn $name(x: $t, y: $t) -> $t {
                $crate::math::generic::via_f64_binary(x, y, $crate::math::f64::$name)
            }
        )*
    };
}
pub(crate) use narrow_binary;

/// Everything a narrow type (`f32`, `f16`) computes through the `f64` module.
macro_rules! narrow_functions {
    ($t:ty) => {
        $crate::math::narrow_unary!($t; ceil, floor, rint, round, sqrt, trunc);
        $crate::math::narrow_binary!($t; fdim, fmod, remainder);
        /// x × 2^n, correctly rounded (exact in f64, rounded once).
        pub fn ldexp(x: $t, n: i32) -> $t {
            <$t as $crate::float::Float>::from_f64($crate::math::f64::ldexp(
                $crate::float::Float::to_f64(x),
                n,
            ))
        }
        /// log|Γ(x)|, correctly rounded (see [`lgamma_r`]).
        pub fn lgamma(x: $t) -> $t {
            lgamma_r(x).0
        }
        /// Returns `(lgamma(x), sign of gamma(x))`; the sign is 0 for zero or a negative integer.
        /// For x > 0, the `libm` (msun) lgamma, within a few `f64` ulps there, rounded once
        /// where clearly away from a rounding boundary, otherwise the 1-ulp `f64` lgamma rounded
        /// to odd (`gamma::lgamma_r_odd`, so that the second rounding is correct)
        /// (`rounding::fast_then_accurate_narrow`); for -190 < x ≤ -2^-10 msun's reflection
        /// formula where the result is not much smaller than its terms, under the same test
        /// (`rounding::lgamma_negative_fast`), otherwise the `f64` lgamma rounded to odd.
        pub fn lgamma_r(x: $t) -> ($t, i32) {
            let w = $crate::float::Float::to_f64(x);
            if w > 0.0 && w.is_finite() {
                let v = $crate::math::rounding::fast_then_accurate_narrow::<$t>(
                    w,
                    libm::lgamma,
                    |w| $crate::math::gamma::lgamma_r_odd(w).0,
                );
                return (v, 1);
            }
            if w < 0.0 && w > -190.0 && w <= -1.0 / 1024.0 {
                if let Some(v) = $crate::math::rounding::lgamma_negative_fast::<$t>(w) {
                    return v;
                }
            }
            let (v, s) = $crate::math::gamma::lgamma_r_odd(w);
            (<$t as $crate::float::Float>::from_f64(v), s)
        }
        /// x^n for integer n (002 pown edge cases).
        pub fn pown(x: $t, n: i32) -> $t {
            <$t as $crate::float::Float>::from_f64($crate::math::f64::pown(
                $crate::float::Float::to_f64(x),
                n,
            ))
        }
        /// The n-th root of x (002 rootn edge cases).
        pub fn rootn(x: $t, n: i32) -> $t {
            <$t as $crate::float::Float>::from_f64($crate::math::f64::rootn_unrefined(
                $crate::float::Float::to_f64(x),
                n,
            ))
        }
        /// Returns `(remainder, quotient bits)`; exact remainder, sign and low 31 bits of the
        /// quotient; NaN and 0 for ±∞ x, zero y or a NaN operand.
        pub fn remquo(x: $t, y: $t) -> ($t, i32) {
            let (r, q) = $crate::math::f64::remquo(
                $crate::float::Float::to_f64(x),
                $crate::float::Float::to_f64(y),
            );
            (<$t as $crate::float::Float>::from_f64(r), q)
        }
        /// Returns `(sin x, cos x)`.
        pub fn sincos(x: $t) -> ($t, $t) {
            (sin(x), cos(x))
        }
        /// mad, implemented as the correctly rounded fma (002 allows either).
        pub fn mad(a: $t, b: $t, c: $t) -> $t {
            fma(a, b, c)
        }
    };
}
pub(crate) use narrow_functions;

/// Lookup of the regular-signature functions of a type module by OpenCL.std instruction name
/// (`extinst.opencl.std.100.grammar.json` opnames; `fclamp`, `fmax_common`, `fmin_common` map to
/// clamp, max, min). Functions with other signatures (fract, frexp, ilogb, ldexp, lgamma_r,
/// modf, nan, pown, remquo, rootn, sincos) are called directly. Extra names (the `half_*` and
/// `native_*` of float) are passed in.
macro_rules! dispatch_tables {
    ($t:ty; unary: [$($u:ident),* $(,)?]; binary: [$($b:ident),* $(,)?]) => {
        /// The one-argument function named `name` in OpenCL.std, if it has signature `T -> T`.
        pub fn unary(name: &str) -> Option<fn($t) -> $t> {
            Some(match name {
                "acos" => acos, "acosh" => acosh, "acospi" => acospi, "asin" => asin,
                "asinh" => asinh, "asinpi" => asinpi, "atan" => atan, "atanh" => atanh,
                "atanpi" => atanpi, "cbrt" => cbrt, "ceil" => ceil, "cos" => cos, "cosh" => cosh,
                "cospi" => cospi, "erfc" => erfc, "erf" => erf, "exp" => exp, "exp2" => exp2,
                "exp10" => exp10, "expm1" => expm1, "fabs" => fabs, "floor" => floor,
                "lgamma" => lgamma, "log" => log, "log2" => log2, "log10" => log10,
                "log1p" => log1p, "logb" => logb, "rint" => rint, "round" => round,
                "rsqrt" => rsqrt, "sin" => sin, "sinh" => sinh, "sinpi" => sinpi, "sqrt" => sqrt,
                "tan" => tan, "tanh" => tanh, "tanpi" => tanpi, "tgamma" => tgamma,
                "trunc" => trunc, "degrees" => degrees, "radians" => radians, "sign" => sign,
                $(stringify!($u) => $u,)*
                _ => return None,
            })
        }
        /// The two-argument function named `name` in OpenCL.std, if it has signature
        /// `(T, T) -> T`.
        pub fn binary(name: &str) -> Option<fn($t, $t) -> $t> {
            Some(match name {
                "atan2" => atan2, "atan2pi" => atan2pi, "copysign" => copysign, "fdim" => fdim,
                "fmax" => fmax, "fmin" => fmin, "fmod" => fmod, "hypot" => hypot,
                "maxmag" => maxmag, "minmag" => minmag, "nextafter" => nextafter, "pow" => pow,
                "powr" => powr, "remainder" => remainder, "fmax_common" => max,
                "fmin_common" => min, "step" => step,
                $(stringify!($b) => $b,)*
                _ => return None,
            })
        }
        /// The three-argument function named `name` in OpenCL.std, if it has signature
        /// `(T, T, T) -> T`.
        pub fn ternary(name: &str) -> Option<fn($t, $t, $t) -> $t> {
            Some(match name {
                "fma" => fma, "mad" => mad, "fclamp" => clamp, "mix" => mix,
                "smoothstep" => smoothstep, "bitselect" => bitselect,
                _ => return None,
            })
        }
    };
}
pub(crate) use dispatch_tables;
