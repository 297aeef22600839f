//! What is checked: one [`Subject`] per OpenCL.std math function and type, calling the devlib
//! implementation through a uniform interface (arguments and results widened to `f64`, which
//! holds every value of every type exactly).

use devlib::Float;
use half::f16;

use crate::kind::Kind;

/// The arguments of one call: up to three reals and one integer (ldexp, pown, rootn).
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct Input {
    pub x: [f64; 3],
    pub n: i32,
}

/// The results of one call: up to two reals and one integer (frexp's exponent, ilogb,
/// remquo's quotient, lgamma_r's sign).
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct Output {
    pub v: [f64; 2],
    pub k: i32,
}

/// The signature of a function, which says which parts of [`Input`] and [`Output`] it uses.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Shape {
    /// `T f(T)`
    Unary,
    /// `T f(T, T)`
    Binary,
    /// `T f(T, T, T)`
    Ternary,
    /// `T f(T, T *)`: fract, modf, sincos.
    Pair,
    /// `T f(T, int *)`: frexp, lgamma_r.
    WithInt,
    /// `int f(T)`: ilogb.
    IntResult,
    /// `T f(T, int)`: ldexp, pown, rootn.
    IntArg,
    /// `T f(T, T, int *)`: remquo.
    Remquo,
    /// `int f(T, T)`: the relational comparisons (isequal … isunordered).
    Compare,
}

impl Shape {
    /// How many real arguments.
    pub fn real_args(self) -> usize {
        match self {
            Shape::Unary | Shape::Pair | Shape::WithInt | Shape::IntResult | Shape::IntArg => 1,
            Shape::Binary | Shape::Remquo | Shape::Compare => 2,
            Shape::Ternary => 3,
        }
    }
    /// How many real results.
    pub fn real_results(self) -> usize {
        match self {
            Shape::IntResult | Shape::Compare => 0,
            Shape::Pair => 2,
            _ => 1,
        }
    }
    /// Whether the integer argument `n` is used.
    pub fn has_int_arg(self) -> bool {
        self == Shape::IntArg
    }
}

/// A devlib function under test, called with widened arguments.
pub type Eval = Box<dyn Fn(&Input) -> Output + Send + Sync>;

/// One function of one type to check.
pub struct Subject {
    /// The OpenCL.std instruction name (`sin`, `half_exp`, `remquo`, …).
    pub name: String,
    pub kind: Kind,
    pub shape: Shape,
    pub eval: Eval,
}

impl core::fmt::Debug for Subject {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{} ({}, {:?})", self.name, self.kind.name(), self.shape)
    }
}

/// The one-argument math functions of every type (OpenCL C 2.0 §6.13.2).
pub const UNARY: &[&str] = &[
    "acos", "acosh", "acospi", "asin", "asinh", "asinpi", "atan", "atanh", "atanpi", "cbrt",
    "ceil", "cos", "cosh", "cospi", "erf", "erfc", "exp", "exp2", "exp10", "expm1", "fabs",
    "floor", "lgamma", "log", "log2", "log10", "log1p", "logb", "rint", "round", "rsqrt", "sin",
    "sinh", "sinpi", "sqrt", "tan", "tanh", "tanpi", "tgamma", "trunc",
];
/// The two-argument math functions of every type.
pub const BINARY: &[&str] = &[
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
];
/// The three-argument math functions of every type.
pub const TERNARY: &[&str] = &["fma", "mad"];
/// Common functions (OpenCL C 2.0 §6.13.4) by OpenCL.std name, one and two arguments.
pub const COMMON_UNARY: &[&str] = &["degrees", "radians", "sign"];
pub const COMMON_BINARY: &[&str] = &["fmax_common", "fmin_common", "step"];
/// Common and relational functions of three arguments (bitselect is relational, §6.13.6).
pub const COMMON_TERNARY: &[&str] = &["fclamp", "mix", "smoothstep", "bitselect"];
/// Relational predicates of one argument (§6.13.6; scalar results are 0 or 1).
pub const PREDICATES: &[&str] = &["isfinite", "isinf", "isnan", "isnormal", "signbit"];
/// Relational comparisons (§6.13.6).
pub const COMPARISONS: &[&str] = &[
    "isequal",
    "isnotequal",
    "isgreater",
    "isgreaterequal",
    "isless",
    "islessequal",
    "islessgreater",
    "isordered",
    "isunordered",
];

/// `float` only: the `half_*` and `native_*` one-argument functions.
pub const FLOAT_UNARY_VARIANTS: &[&str] = &[
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
/// `float` only: the `half_*` and `native_*` two-argument functions.
pub const FLOAT_BINARY_VARIANTS: &[&str] =
    &["half_divide", "half_powr", "native_divide", "native_powr"];

fn w<T: Float>(x: T) -> f64 {
    x.to_f64()
}

/// Builds the subjects of one devlib type module.
macro_rules! type_subjects {
    ($module:ident, $t:ty, $kind:expr, $unary:expr, $binary:expr) => {{
        use devlib::math::$module as m;
        let kind: Kind = $kind;
        let n = |x: f64| -> $t { <$t as Float>::from_f64(x) };
        let mut out: Vec<Subject> = Vec::new();
        let mut push = |name: &str, shape: Shape, eval: Eval| {
            out.push(Subject {
                name: name.to_string(),
                kind,
                shape,
                eval,
            });
        };
        for &name in $unary {
            if let Some(f) = m::unary(name) {
                push(
                    name,
                    Shape::Unary,
                    Box::new(move |i: &Input| Output {
                        v: [w(f(n(i.x[0]))), 0.0],
                        k: 0,
                    }),
                );
            }
        }
        for &name in $binary {
            if let Some(f) = m::binary(name) {
                push(
                    name,
                    Shape::Binary,
                    Box::new(move |i: &Input| Output {
                        v: [w(f(n(i.x[0]), n(i.x[1]))), 0.0],
                        k: 0,
                    }),
                );
            }
        }
        for &name in TERNARY.iter().chain(COMMON_TERNARY) {
            if let Some(f) = m::ternary(name) {
                push(
                    name,
                    Shape::Ternary,
                    Box::new(move |i: &Input| Output {
                        v: [w(f(n(i.x[0]), n(i.x[1]), n(i.x[2]))), 0.0],
                        k: 0,
                    }),
                );
            }
        }
        let predicates: [(&str, fn($t) -> bool); 5] = [
            ("isfinite", m::isfinite),
            ("isinf", m::isinf),
            ("isnan", m::isnan),
            ("isnormal", m::isnormal),
            ("signbit", m::signbit),
        ];
        for (name, f) in predicates {
            push(
                name,
                Shape::IntResult,
                Box::new(move |i: &Input| Output {
                    v: [0.0, 0.0],
                    k: i32::from(f(n(i.x[0]))),
                }),
            );
        }
        let comparisons: [(&str, fn($t, $t) -> bool); 9] = [
            ("isequal", m::isequal),
            ("isnotequal", m::isnotequal),
            ("isgreater", m::isgreater),
            ("isgreaterequal", m::isgreaterequal),
            ("isless", m::isless),
            ("islessequal", m::islessequal),
            ("islessgreater", m::islessgreater),
            ("isordered", m::isordered),
            ("isunordered", m::isunordered),
        ];
        for (name, f) in comparisons {
            push(
                name,
                Shape::Compare,
                Box::new(move |i: &Input| Output {
                    v: [0.0, 0.0],
                    k: i32::from(f(n(i.x[0]), n(i.x[1]))),
                }),
            );
        }
        push(
            "fract",
            Shape::Pair,
            Box::new(move |i: &Input| {
                let (a, b) = m::fract(n(i.x[0]));
                Output {
                    v: [w(a), w(b)],
                    k: 0,
                }
            }),
        );
        push(
            "modf",
            Shape::Pair,
            Box::new(move |i: &Input| {
                let (a, b) = m::modf(n(i.x[0]));
                Output {
                    v: [w(a), w(b)],
                    k: 0,
                }
            }),
        );
        push(
            "sincos",
            Shape::Pair,
            Box::new(move |i: &Input| {
                let (a, b) = m::sincos(n(i.x[0]));
                Output {
                    v: [w(a), w(b)],
                    k: 0,
                }
            }),
        );
        push(
            "frexp",
            Shape::WithInt,
            Box::new(move |i: &Input| {
                let (a, e) = m::frexp(n(i.x[0]));
                Output {
                    v: [w(a), 0.0],
                    k: e,
                }
            }),
        );
        push(
            "lgamma_r",
            Shape::WithInt,
            Box::new(move |i: &Input| {
                let (a, s) = m::lgamma_r(n(i.x[0]));
                Output {
                    v: [w(a), 0.0],
                    k: s,
                }
            }),
        );
        push(
            "nan",
            Shape::IntResult,
            // The nancode is the argument's bit pattern; 002/§6.13.2: the result is a quiet
            // NaN (1 here, 0 otherwise).
            Box::new(move |i: &Input| {
                let r = m::nan(kind.to_bits(i.x[0]) as _);
                let quiet_bit = 1u64 << (kind.mant_bits() - 1);
                Output {
                    v: [0.0, 0.0],
                    k: i32::from(w(r).is_nan() && Float::to_bits_u64(r) & quiet_bit != 0),
                }
            }),
        );
        push(
            "ilogb",
            Shape::IntResult,
            Box::new(move |i: &Input| Output {
                v: [0.0, 0.0],
                k: m::ilogb(n(i.x[0])),
            }),
        );
        push(
            "ldexp",
            Shape::IntArg,
            Box::new(move |i: &Input| Output {
                v: [w(m::ldexp(n(i.x[0]), i.n)), 0.0],
                k: 0,
            }),
        );
        push(
            "pown",
            Shape::IntArg,
            Box::new(move |i: &Input| Output {
                v: [w(m::pown(n(i.x[0]), i.n)), 0.0],
                k: 0,
            }),
        );
        push(
            "rootn",
            Shape::IntArg,
            Box::new(move |i: &Input| Output {
                v: [w(m::rootn(n(i.x[0]), i.n)), 0.0],
                k: 0,
            }),
        );
        push(
            "remquo",
            Shape::Remquo,
            Box::new(move |i: &Input| {
                let (r, q) = m::remquo(n(i.x[0]), n(i.x[1]));
                Output {
                    v: [w(r), 0.0],
                    k: q,
                }
            }),
        );
        out
    }};
}

/// Every devlib math function of `kind`.
pub fn all_subjects(kind: Kind) -> Vec<Subject> {
    match kind {
        Kind::Double => {
            let unary: Vec<&str> = UNARY.iter().chain(COMMON_UNARY).copied().collect();
            let binary: Vec<&str> = BINARY.iter().chain(COMMON_BINARY).copied().collect();
            type_subjects!(f64, f64, Kind::Double, &unary, &binary)
        }
        Kind::Float => {
            let unary: Vec<&str> = UNARY
                .iter()
                .chain(COMMON_UNARY)
                .chain(FLOAT_UNARY_VARIANTS)
                .copied()
                .collect();
            let binary: Vec<&str> = BINARY
                .iter()
                .chain(COMMON_BINARY)
                .chain(FLOAT_BINARY_VARIANTS)
                .copied()
                .collect();
            type_subjects!(f32, f32, Kind::Float, &unary, &binary)
        }
        Kind::Half => {
            let unary: Vec<&str> = UNARY.iter().chain(COMMON_UNARY).copied().collect();
            let binary: Vec<&str> = BINARY.iter().chain(COMMON_BINARY).copied().collect();
            type_subjects!(f16, f16, Kind::Half, &unary, &binary)
        }
    }
}

/// A subject from a plain one-argument function on `f64` values of `kind` (for tests and for
/// checking other implementations).
pub fn unary_subject(
    name: &str,
    kind: Kind,
    f: impl Fn(f64) -> f64 + Send + Sync + 'static,
) -> Subject {
    Subject {
        name: name.to_string(),
        kind,
        shape: Shape::Unary,
        eval: Box::new(move |i: &Input| Output {
            v: [kind.round(f(i.x[0])), 0.0],
            k: 0,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_function_exists_in_devlib() {
        let per_type = UNARY.len()
            + BINARY.len()
            + TERNARY.len()
            + 11
            + COMMON_UNARY.len()
            + COMMON_BINARY.len()
            + COMMON_TERNARY.len()
            + PREDICATES.len()
            + COMPARISONS.len();
        assert_eq!(all_subjects(Kind::Double).len(), per_type);
        assert_eq!(all_subjects(Kind::Half).len(), per_type);
        assert_eq!(
            all_subjects(Kind::Float).len(),
            per_type + FLOAT_UNARY_VARIANTS.len() + FLOAT_BINARY_VARIANTS.len()
        );
    }

    #[test]
    fn subjects_call_devlib() {
        let subjects = all_subjects(Kind::Float);
        let sqrt = subjects.iter().find(|s| s.name == "sqrt").expect("sqrt");
        assert_eq!(
            (sqrt.eval)(&Input {
                x: [2.25, 0.0, 0.0],
                n: 0
            })
            .v[0],
            1.5
        );
        let frexp = subjects.iter().find(|s| s.name == "frexp").expect("frexp");
        let out = (frexp.eval)(&Input {
            x: [12.0, 0.0, 0.0],
            n: 0,
        });
        assert_eq!((out.v[0], out.k), (0.75, 4));
    }
}
