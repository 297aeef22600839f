//! The accuracy each function must meet: the full-profile ULP table of the numerical-compliance
//! chapter (002 "ULP Values for Math Instructions - Full Profile"), read from
//! `builtins::ulp::FULL_PROFILE`.

use builtins::Accuracy;

use crate::kind::Kind;

/// The largest error allowed.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Bound {
    /// At most this many ulps (correctly rounded = 0.5, exact = 0).
    Ulp(f64),
    /// Implementation-defined accuracy: the error is reported, never a failure.
    Unbounded,
    /// A row of the unsafe-math table (`--relaxed`): the allowance depends on the input and is
    /// checked per input by the engine.
    Relaxed(&'static crate::relaxed::Rule),
}

impl Bound {
    /// Whether an error of `error` ulps meets the bound.
    pub fn allows(self, error: f64) -> bool {
        match self {
            Bound::Ulp(limit) => error <= limit,
            Bound::Unbounded | Bound::Relaxed(_) => true,
        }
    }

    /// The limit as a number, `None` when unbounded.
    pub fn limit(self) -> Option<f64> {
        match self {
            Bound::Ulp(limit) => Some(limit),
            Bound::Unbounded => None,
            Bound::Relaxed(rule) => match rule.allowance {
                crate::relaxed::Allowance::Ulp(limit) => Some(limit),
                _ => None,
            },
        }
    }
}

impl core::fmt::Display for Bound {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Bound::Ulp(limit) => write!(f, "{limit}"),
            Bound::Unbounded => f.write_str("impl"),
            Bound::Relaxed(rule) => f.write_str(rule.text),
        }
    }
}

/// The bound of the OpenCL.std function `name` for `kind`, or `None` when the table has no row
/// for it or says the function does not exist for the type.
pub fn bound(name: &str, kind: Kind) -> Option<Bound> {
    if let Some(b) = common_or_relational_bound(name) {
        return Some(b);
    }
    let (_, f64_acc, f32_acc, f16_acc) = builtins::ulp::FULL_PROFILE
        .iter()
        .find(|row| row.0 == name)?;
    let accuracy = match kind {
        Kind::Double => f64_acc,
        Kind::Float => f32_acc,
        Kind::Half => f16_acc,
    };
    match *accuracy {
        // mad: either a correctly rounded fma or a multiply then an add, each correctly rounded;
        // the reference offers both, so the error to the closer one is at most 0.5.
        Accuracy::CorrectlyRounded | Accuracy::MadEitherWay => Some(Bound::Ulp(0.5)),
        Accuracy::Ulp(limit) => Some(Bound::Ulp(f64::from(limit))),
        Accuracy::ImplementationDefined => Some(Bound::Unbounded),
        Accuracy::NotApplicable => None,
    }
}

/// The bound of `name` for `kind` with `-cl-unsafe-math-optimizations`: the unsafe-math row
/// where 002 has one (`float` only), the full-profile bound otherwise.
pub fn relaxed_bound(name: &str, kind: Kind) -> Option<Bound> {
    match crate::relaxed::rule(name, kind) {
        Some(rule) => Some(Bound::Relaxed(rule)),
        None => bound(name, kind),
    }
}

/// Bounds of the common functions, from the OpenCL 3.0 environment's full-profile table
/// (`reference/env/numerical_compliance.adoc`; 002 predates these rows): degrees and radians
/// 2 ulp, fclamp/fmax_common/fmin_common/sign/step 0 ulp, mix and smoothstep
/// implementation-defined for double and half and an absolute tolerance (1e-3, 1e-5) for
/// float, reported here without a bound. The relational functions are exact (0/1 results,
/// bitselect bit for bit).
fn common_or_relational_bound(name: &str) -> Option<Bound> {
    Some(match name {
        "degrees" | "radians" => Bound::Ulp(2.0),
        "fclamp" | "fmax_common" | "fmin_common" | "sign" | "step" | "bitselect" => Bound::Ulp(0.0),
        "mix" | "smoothstep" => Bound::Unbounded,
        "isfinite" | "isinf" | "isnan" | "isnormal" | "signbit" | "isequal" | "isnotequal"
        | "isgreater" | "isgreaterequal" | "isless" | "islessequal" | "islessgreater"
        | "isordered" | "isunordered" => Bound::Ulp(0.0),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_rows_as_in_002() {
        assert_eq!(bound("sin", Kind::Float), Some(Bound::Ulp(4.0)));
        assert_eq!(bound("sqrt", Kind::Float), Some(Bound::Ulp(3.0)));
        assert_eq!(bound("sqrt", Kind::Double), Some(Bound::Ulp(0.5)));
        assert_eq!(bound("rsqrt", Kind::Half), Some(Bound::Ulp(1.0)));
        assert_eq!(bound("half_exp", Kind::Float), Some(Bound::Ulp(8192.0)));
        assert_eq!(bound("half_exp", Kind::Double), None);
        assert_eq!(bound("native_exp", Kind::Float), Some(Bound::Unbounded));
        assert_eq!(bound("fmod", Kind::Half), Some(Bound::Ulp(0.0)));
    }
}
