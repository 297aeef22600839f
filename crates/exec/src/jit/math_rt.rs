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
        /// The built-ins with direct helpers.
        pub const FUNCS: &[BuiltinFn] = &[$( BuiltinFn::$variant ),*];
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

/// Every direct helper (to register their symbols with the JIT module).
pub fn all() -> Vec<Direct> {
    [ScalarType::F32, ScalarType::F64]
        .iter()
        .flat_map(|&s| FUNCS.iter().filter_map(move |&f| direct(f, s)))
        .collect()
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

#[cfg(test)]
mod tests {
    //! The table above repeats `float_common!`'s mapping from built-in to `devlib` function;
    //! this checks, on special and ordinary inputs, that every entry gives the interpreter's
    //! bits.
    use super::*;
    use kir::Type;

    fn inputs() -> Vec<f64> {
        let mut v = vec![
            0.0,
            -0.0,
            1.0,
            -1.0,
            0.5,
            2.0,
            -2.5,
            3.75,
            100.0,
            -1e-3,
            1e30,
            -1e-30,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
        ];
        v.extend((1..20).map(|k| (k as f64 * 0.731).sin() * 10f64.powi(k % 7 - 3)));
        v
    }

    fn run_f32(d: &Direct, a: &[f32]) -> u64 {
        // SAFETY: `d.addr` is an `extern "C"` function of `d.params.len()` f32 arguments.
        unsafe {
            let r: f32 = match a.len() {
                1 => std::mem::transmute::<*const u8, extern "C" fn(f32) -> f32>(d.addr)(a[0]),
                2 => std::mem::transmute::<*const u8, extern "C" fn(f32, f32) -> f32>(d.addr)(
                    a[0], a[1],
                ),
                _ => std::mem::transmute::<*const u8, extern "C" fn(f32, f32, f32) -> f32>(d.addr)(
                    a[0], a[1], a[2],
                ),
            };
            u64::from(r.to_bits())
        }
    }

    fn run_f64(d: &Direct, a: &[f64]) -> u64 {
        // SAFETY: `d.addr` is an `extern "C"` function of `d.params.len()` f64 arguments.
        unsafe {
            let r: f64 = match a.len() {
                1 => std::mem::transmute::<*const u8, extern "C" fn(f64) -> f64>(d.addr)(a[0]),
                2 => std::mem::transmute::<*const u8, extern "C" fn(f64, f64) -> f64>(d.addr)(
                    a[0], a[1],
                ),
                _ => std::mem::transmute::<*const u8, extern "C" fn(f64, f64, f64) -> f64>(d.addr)(
                    a[0], a[1], a[2],
                ),
            };
            r.to_bits()
        }
    }

    #[test]
    fn every_direct_helper_gives_the_interpreters_bits() {
        let xs = inputs();
        let mut checked = 0;
        for (&func, s) in FUNCS
            .iter()
            .flat_map(|f| [(f, ScalarType::F32), (f, ScalarType::F64)])
        {
            let d = direct(func, s).expect("every listed built-in has a helper");
            let f32_fn = s == ScalarType::F32;
            let n = d.params.len();
            for (k, &x) in xs.iter().enumerate() {
                let args: Vec<f64> = (0..n)
                    .map(|j| [x, xs[(k + 3) % xs.len()], xs[(k + 7) % xs.len()]][j])
                    .collect();
                let (direct, lanes): (u64, Vec<u64>) = if f32_fn {
                    let a: Vec<f32> = args.iter().map(|&v| v as f32).collect();
                    (
                        run_f32(&d, &a),
                        a.iter().map(|v| u64::from(v.to_bits())).collect(),
                    )
                } else {
                    (
                        run_f64(&d, &args),
                        args.iter().map(|v| v.to_bits()).collect(),
                    )
                };
                let interp =
                    crate::interp::builtins::lane(func, Type::scalar(s), Type::scalar(s), &lanes);
                assert_eq!(
                    Some(direct),
                    interp,
                    "{} on {args:?}: direct helper and interpreter differ",
                    d.name
                );
                checked += 1;
            }
        }
        assert!(checked > 100 * 30, "only {checked} cases");
    }
}
