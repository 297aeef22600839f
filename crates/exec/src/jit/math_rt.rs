//! Float math built-ins that JIT code calls directly, one `extern "C"` function per built-in
//! and type, with native float arguments and result: no dispatch on the function and no
//! round trip through `u64` lanes (`rt::jit_builtin_lane` does both). Each calls the very
//! `devlib` function the interpreter's `builtins::lane` calls for that built-in, so both
//! engines still agree bit for bit (`jit_diff` and `jit_semantics` run both).

use cranelift_codegen::ir::{types, Type as ClType};
use kir::{BuiltinFn, ScalarType};

/// One directly callable built-in: its helper symbol, address and Cranelift signature.
pub struct Direct {
    pub name: &'static str,
    pub addr: *const u8,
    pub params: Vec<ClType>,
    pub ret: ClType,
}

macro_rules! direct_math {
    ($( $variant:ident => $f:ident / $argc:tt ),* $(,)?) => {
        mod f32_fns {
            $( direct_math!(@def f32, $f, $argc); )*
        }
        mod f64_fns {
            $( direct_math!(@def f64, $f, $argc); )*
        }
        /// The direct helper of `func` on `s` lanes (`None`: call `jit_builtin_lane`).
        pub fn direct(func: BuiltinFn, s: ScalarType) -> Option<Direct> {
            let (ty, float) = match s {
                ScalarType::F32 => (types::F32, true),
                ScalarType::F64 => (types::F64, false),
                _ => return None,
            };
            match func {
                $( BuiltinFn::$variant => Some(Direct {
                    name: if float {
                        concat!("jit_f32_", stringify!($f))
                    } else {
                        concat!("jit_f64_", stringify!($f))
                    },
                    addr: if float {
                        f32_fns::$f as *const u8
                    } else {
                        f64_fns::$f as *const u8
                    },
                    params: vec![ty; $argc],
                    ret: ty,
                }), )*
                _ => None,
            }
        }
        /// Every direct helper (to register their symbols with the JIT module).
        pub fn all() -> Vec<Direct> {
            let mut v = Vec::new();
            for s in [ScalarType::F32, ScalarType::F64] {
                $( v.extend(direct(BuiltinFn::$variant, s)); )*
            }
            v
        }
    };
    (@def $t:ident, $f:ident, 1) => {
        pub extern "C" fn $f(x: $t) -> $t {
            devlib::math::$t::$f(x)
        }
    };
    (@def $t:ident, $f:ident, 2) => {
        pub extern "C" fn $f(x: $t, y: $t) -> $t {
            devlib::math::$t::$f(x, y)
        }
    };
    (@def $t:ident, $f:ident, 3) => {
        pub extern "C" fn $f(x: $t, y: $t, z: $t) -> $t {
            devlib::math::$t::$f(x, y, z)
        }
    };
}

// The same mapping as `float_common!` in `interp::builtins` (seed 003 §1.13.2).
direct_math! {
    Acos => acos / 1,
    Acosh => acosh / 1,
    Acospi => acospi / 1,
    Asin => asin / 1,
    Asinh => asinh / 1,
    Asinpi => asinpi / 1,
    Atan => atan / 1,
    Atan2 => atan2 / 2,
    Atanh => atanh / 1,
    Atanpi => atanpi / 1,
    Atan2pi => atan2pi / 2,
    Cbrt => cbrt / 1,
    Cos => cos / 1,
    Cosh => cosh / 1,
    Cospi => cospi / 1,
    Erfc => erfc / 1,
    Erf => erf / 1,
    Exp => exp / 1,
    Exp2 => exp2 / 1,
    Exp10 => exp10 / 1,
    Expm1 => expm1 / 1,
    Fdim => fdim / 2,
    Fma => fma / 3,
    Fmax => fmax / 2,
    Fmin => fmin / 2,
    Fmod => fmod / 2,
    Hypot => hypot / 2,
    Lgamma => lgamma / 1,
    Log => log / 1,
    Log2 => log2 / 1,
    Log10 => log10 / 1,
    Log1p => log1p / 1,
    Logb => logb / 1,
    Mad => mad / 3,
    Maxmag => maxmag / 2,
    Minmag => minmag / 2,
    Nextafter => nextafter / 2,
    Pow => pow / 2,
    Powr => powr / 2,
    Remainder => remainder / 2,
    Rint => rint / 1,
    Round => round / 1,
    Rsqrt => rsqrt / 1,
    Sin => sin / 1,
    Sinh => sinh / 1,
    Sinpi => sinpi / 1,
    Tan => tan / 1,
    Tanh => tanh / 1,
    Tanpi => tanpi / 1,
    Tgamma => tgamma / 1,
    Fclamp => clamp / 3,
    Degrees => degrees / 1,
    FmaxCommon => max / 2,
    FminCommon => min / 2,
    Mix => mix / 3,
    Radians => radians / 1,
    Step => step / 2,
}
