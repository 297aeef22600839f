//! The `-cl-unsafe-math-optimizations` / `-cl-fast-relaxed-math` bounds (002 "ULP Values for
//! Math Instructions - Unsafe Math Optimizations Enabled", single precision only; every other
//! function and type keeps its full-profile bound).
//!
//! What oxcl runs under those options: `clc` parses them (they imply `-cl-denorms-are-zero`,
//! `-cl-mad-enable`, `-cl-no-signed-zeros`; `-cl-fast-relaxed-math` defines
//! `__FAST_RELAXED_MATH__`) but selects no other function: kernels built with them call the
//! same devlib functions as without, and `OpFDiv` is the IEEE division of the interpreter and
//! of Cranelift's `fdiv`. So the relaxed check runs the ordinary subjects (plus `divide` and
//! `recip` as that division, [`division_subjects`]) against these bounds.
//!
//! The bounds depend on the input: `exp` allows 3 + ⌊|2x|⌋ ulp, `sin` an absolute error of
//! 2^-11 on [-π, π], `log` 2^-21 absolute on [0.5, 2] and 3 ulp elsewhere, and outside a
//! function's stated domain ("Undefined for …", "Defined for x in …") any result is accepted.
//! The implementation is not derived (`acosh` is not computed as log(x + sqrt(x² − 1))), so the
//! bound of those rows is the one for non-derived implementations, 8192 ulp.

use rug::Float;

use crate::measure::ulp_of;
use crate::subject::{Input, Output, Shape, Subject};
use crate::Kind;

/// Where a relaxed bound applies; outside it the result is undefined.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Domain {
    /// Every input.
    All,
    /// Every real argument's magnitude in [lo, hi] (`1/x`, `x/y`).
    Magnitude(f64, f64),
    /// The first argument in [lo, hi].
    Closed(f64, f64),
    /// The first argument in (lo, hi).
    Open(f64, f64),
    /// pow: undefined for x = y = 0, for x < 0 with a non-integer y or |y| > 2^24.
    Pow,
    /// pown: undefined for x = 0 and n = 0.
    Pown,
    /// powr: defined for x ≥ 0 only, undefined for x = y = 0.
    Powr,
    /// rootn: defined for x > 0 and n ≠ 0, x < 0 and odd n, x = ±0 and n > 0.
    Rootn,
}

impl Domain {
    fn contains(self, input: &Input, shape: Shape) -> bool {
        let [x, y, _] = input.x;
        let n = input.n;
        match self {
            Domain::All => true,
            Domain::Magnitude(lo, hi) => input.x[..shape.real_args()]
                .iter()
                .all(|a| (lo..=hi).contains(&a.abs())),
            Domain::Closed(lo, hi) => (lo..=hi).contains(&x),
            Domain::Open(lo, hi) => lo < x && x < hi,
            Domain::Pow => {
                !(x == 0.0 && y == 0.0) && !(x < 0.0 && (y != y.trunc() || y.abs() > 16_777_216.0))
            }
            Domain::Pown => !(x == 0.0 && n == 0),
            Domain::Powr => x >= 0.0 && !(x == 0.0 && y == 0.0),
            Domain::Rootn => (x > 0.0 && n != 0) || (x < 0.0 && n % 2 != 0) || (x == 0.0 && n > 0),
        }
    }
}

/// The error allowed on the domain.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Allowance {
    /// At most this many ulps.
    Ulp(f64),
    /// exp, exp2: 3 + ⌊|2x|⌋ ulp.
    ExpUlp,
    /// An absolute error of at most this much.
    Absolute(f64),
    /// log, log2, log10: an absolute error of 2^-21 for x in [0.5, 2], 3 ulp elsewhere.
    LogAbsoluteOrUlp,
}

/// One row of the relaxed table.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Rule {
    pub name: &'static str,
    pub allowance: Allowance,
    pub domain: Domain,
    /// The bound as the report prints it.
    pub text: &'static str,
}

const fn row(name: &'static str, allowance: Allowance, domain: Domain, text: &'static str) -> Rule {
    Rule {
        name,
        allowance,
        domain,
        text,
    }
}

const PI: f64 = core::f64::consts::PI;
/// 2^-11, the absolute error of sin/cos/sinpi/cospi.
const TRIG_ABS: f64 = 1.0 / 2048.0;
/// 2^-21, the absolute error of log/log2/log10 on [0.5, 2].
const LOG_ABS: f64 = 1.0 / 2_097_152.0;
/// 2^62 and 2^126, the division domains.
const P62: f64 = 4_611_686_018_427_387_904.0;
const P126: f64 = 8.507_059_173_023_462e37;

use Allowance::{Absolute, ExpUlp, LogAbsoluteOrUlp, Ulp};

/// 002's unsafe-math table for `float`, one entry per function (sincos takes the sin/cos row
/// for both results; mad, "OpFMul and OpFAdd for x * y + z", is the full-profile rule already).
pub const FLOAT_RULES: &[Rule] = &[
    // 002: "1.0 / x: ≤ 2.5 ulp for x in the domain of 2^-126 to 2^126 for the full profile".
    row(
        "recip",
        Ulp(2.5),
        Domain::Magnitude(1.0 / P126, P126),
        "2.5*",
    ),
    // 002: "x / y: ≤ 2.5 ulp for x in the domain of 2^-62 to 2^62 and y in … 2^-62 to 2^62".
    row(
        "divide",
        Ulp(2.5),
        Domain::Magnitude(1.0 / P62, P62),
        "2.5*",
    ),
    row("acos", Ulp(4096.0), Domain::All, "4096"),
    row("asin", Ulp(4096.0), Domain::All, "4096"),
    row("atan", Ulp(4096.0), Domain::All, "4096"),
    row("acosh", Ulp(8192.0), Domain::All, "8192"),
    row("acospi", Ulp(8192.0), Domain::All, "8192"),
    row("asinh", Ulp(8192.0), Domain::All, "8192"),
    row("asinpi", Ulp(8192.0), Domain::All, "8192"),
    // 002 atanh: "Defined for x in the domain (-1, 1)".
    row("atanh", Ulp(8192.0), Domain::Open(-1.0, 1.0), "8192*"),
    row("atanpi", Ulp(8192.0), Domain::All, "8192"),
    row("atan2", Ulp(8192.0), Domain::All, "8192"),
    row("atan2pi", Ulp(8192.0), Domain::All, "8192"),
    row("cbrt", Ulp(8192.0), Domain::All, "8192"),
    // 002 cos: "For x in the domain [-π, π], the maximum absolute error is ≤ 2^-11 and
    // larger otherwise".
    row("cos", Absolute(TRIG_ABS), Domain::Closed(-PI, PI), "abs*"),
    row("sin", Absolute(TRIG_ABS), Domain::Closed(-PI, PI), "abs*"),
    row(
        "sincos",
        Absolute(TRIG_ABS),
        Domain::Closed(-PI, PI),
        "abs*",
    ),
    row(
        "cospi",
        Absolute(TRIG_ABS),
        Domain::Closed(-1.0, 1.0),
        "abs*",
    ),
    row(
        "sinpi",
        Absolute(TRIG_ABS),
        Domain::Closed(-1.0, 1.0),
        "abs*",
    ),
    // 002 cosh/sinh: "Defined for x in the domain [-88, 88]".
    row("cosh", Ulp(8192.0), Domain::Closed(-88.0, 88.0), "8192*"),
    row("sinh", Ulp(8192.0), Domain::Closed(-88.0, 88.0), "8192*"),
    row("tanh", Ulp(8192.0), Domain::All, "8192"),
    // 002 exp/exp2: "≤ 3 + floor(fabs(2 * x)) ulp for the full profile".
    row("exp", ExpUlp, Domain::All, "3+|2x|"),
    row("exp2", ExpUlp, Domain::All, "3+|2x|"),
    row("exp10", Ulp(8192.0), Domain::All, "8192"),
    row("expm1", Ulp(8192.0), Domain::All, "8192"),
    // 002 log: "For x in the domain [0.5, 2] the maximum absolute error is ≤ 2^-21; otherwise
    // the maximum error is ≤ 3 ulp for the full profile".
    row("log", LogAbsoluteOrUlp, Domain::All, "abs/3"),
    row("log2", LogAbsoluteOrUlp, Domain::All, "abs/3"),
    row("log10", LogAbsoluteOrUlp, Domain::All, "abs/3"),
    row("log1p", Ulp(8192.0), Domain::All, "8192"),
    row("pow", Ulp(8192.0), Domain::Pow, "8192*"),
    row("pown", Ulp(8192.0), Domain::Pown, "8192*"),
    row("powr", Ulp(8192.0), Domain::Powr, "8192*"),
    row("rootn", Ulp(8192.0), Domain::Rootn, "8192*"),
    row("tan", Ulp(8192.0), Domain::All, "8192"),
    // 002 tanpi: "the error is ≤ 8192 ulp for x in the domain [-1, 1]".
    row("tanpi", Ulp(8192.0), Domain::Closed(-1.0, 1.0), "8192*"),
];

/// The relaxed row of `name` for `kind` (only `float` has a table).
pub fn rule(name: &str, kind: Kind) -> Option<&'static Rule> {
    if kind != Kind::Float {
        return None;
    }
    FLOAT_RULES.iter().find(|r| r.name == name)
}

impl Rule {
    /// The ulps allowed for `input` whose correctly rounded result is near `reference` (the
    /// first real result's exact value), or `None` when the input is outside the domain and
    /// any result is accepted.
    pub fn allowed_ulps(
        &self,
        kind: Kind,
        shape: Shape,
        input: &Input,
        reference: &Float,
    ) -> Option<f64> {
        if !self.domain.contains(input, shape) {
            return None;
        }
        let x = input.x[0];
        Some(match self.allowance {
            Ulp(u) => u,
            ExpUlp => 3.0 + (2.0 * x).abs().floor(),
            Absolute(a) => absolute_in_ulps(kind, a, reference),
            LogAbsoluteOrUlp => {
                if (0.5..=2.0).contains(&x) {
                    absolute_in_ulps(kind, LOG_ABS, reference)
                } else {
                    3.0
                }
            }
        })
    }
}

impl Rule {
    /// Whether `input` lies in the row's domain (outside it any result is accepted).
    pub fn in_domain(&self, input: &Input, shape: Shape) -> bool {
        self.domain.contains(input, shape)
    }

    /// [`Rule::allowed_ulps`] from an `f64` estimate of the first real result (within a few
    /// `f64` ulps of it, see [`crate::estimate`]) instead of MPFR's value: `Some(None)` outside
    /// the domain, `Some(Some((low, high)))` the range the allowance lies in (one value where
    /// it does not depend on the result or the estimate is clear of a power of two; within
    /// 2^13 `f64` ulps of one the real value may lie on its other side, where the ulp differs:
    /// both allowances), `None` for a zero or non-finite estimate (MPFR decides).
    pub fn allowed_ulps_estimated(
        &self,
        kind: Kind,
        shape: Shape,
        input: &Input,
        estimate: f64,
    ) -> Option<Option<(f64, f64)>> {
        if !self.domain.contains(input, shape) {
            return Some(None);
        }
        let x = input.x[0];
        let absolute = match self.allowance {
            Ulp(u) => return Some(Some((u, u))),
            ExpUlp => {
                let u = 3.0 + (2.0 * x).abs().floor();
                return Some(Some((u, u)));
            }
            Absolute(a) => a,
            LogAbsoluteOrUlp => {
                if !(0.5..=2.0).contains(&x) {
                    return Some(Some((3.0, 3.0)));
                }
                LOG_ABS
            }
        };
        if estimate == 0.0 || !estimate.is_finite() {
            return None;
        }
        let bits = estimate.to_bits();
        let mantissa = bits & ((1u64 << 52) - 1);
        let e = ((bits >> 52) & 0x7ff) as i32 - 1023;
        let other = if mantissa < 1 << 13 {
            e - 1
        } else if mantissa >= (1u64 << 52) - (1 << 13) {
            e + 1
        } else {
            e
        };
        let allowance = |e: i32| {
            let ulp = 2f64.powi(e.clamp(1 - kind.bias(), kind.bias()) - kind.mant_bits() as i32);
            (absolute / ulp).max(0.5)
        };
        let (a, b) = (allowance(e), allowance(other));
        Some(Some((a.min(b), a.max(b))))
    }
}

/// An absolute error `a` in ulps of the result `reference` (ulps of 002 "Relative Error as
/// ULPs", subnormal spacing near zero); at least 0.5, the error of a correctly rounded result.
fn absolute_in_ulps(kind: Kind, a: f64, reference: &Float) -> f64 {
    (a / ulp_of(kind, reference)).max(0.5)
}

/// `x / y` and `1 / x` as the engines compute `OpFDiv` on `float`: one IEEE division (Rust's
/// `/` in the interpreter, Cranelift's `fdiv` in the JIT, both correctly rounded).
pub fn division_subjects() -> Vec<Subject> {
    let to = |v: f64| v as f32;
    vec![
        Subject {
            name: "divide".to_string(),
            kind: Kind::Float,
            shape: Shape::Binary,
            eval: Box::new(move |i: &Input| Output {
                v: [f64::from(to(i.x[0]) / to(i.x[1])), 0.0],
                k: 0,
            }),
        },
        Subject {
            name: "recip".to_string(),
            kind: Kind::Float,
            shape: Shape::Unary,
            eval: Box::new(move |i: &Input| Output {
                v: [f64::from(1.0 / to(i.x[0])), 0.0],
                k: 0,
            }),
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(x: f64, y: f64, n: i32) -> Input {
        Input { x: [x, y, 0.0], n }
    }

    fn allowed(name: &str, shape: Shape, i: Input, r: f64) -> Option<f64> {
        rule(name, Kind::Float).expect("row").allowed_ulps(
            Kind::Float,
            shape,
            &i,
            &Float::with_val(53, r),
        )
    }

    #[test]
    fn rows_follow_the_002_table() {
        // exp: 3 + floor(|2x|); exp(10.3) allows 3 + 20 ulp.
        assert_eq!(
            allowed("exp", Shape::Unary, input(10.3, 0.0, 0), 1.0),
            Some(23.0)
        );
        assert_eq!(
            allowed("exp2", Shape::Unary, input(-0.4, 0.0, 0), 1.0),
            Some(3.0)
        );
        // sin on [-π, π]: 2^-11 absolute; at a result near 0.75 (ulp 2^-24) that is 2^13 ulp.
        assert_eq!(
            allowed("sin", Shape::Unary, input(0.85, 0.0, 0), 0.75),
            Some(8192.0)
        );
        assert_eq!(allowed("sin", Shape::Unary, input(4.0, 0.0, 0), 0.75), None);
        // log on [0.5, 2]: 2^-21 absolute, at a result in [0.5, 1) (ulp 2^-24) 8 ulp; 3 ulp
        // elsewhere.
        assert_eq!(
            allowed("log", Shape::Unary, input(1.9, 0.0, 0), 0.64),
            Some(8.0)
        );
        assert_eq!(
            allowed("log", Shape::Unary, input(4.0, 0.0, 0), 1.38),
            Some(3.0)
        );
        assert_eq!(
            allowed("divide", Shape::Binary, input(3.0, 7.0, 0), 0.4),
            Some(2.5)
        );
        assert_eq!(
            allowed("divide", Shape::Binary, input(3.0, 1e30, 0), 3e-30),
            None
        );
        assert_eq!(
            allowed("recip", Shape::Unary, input(1e-39, 0.0, 0), 1e39),
            None
        );
        assert_eq!(
            allowed("acos", Shape::Unary, input(0.3, 0.0, 0), 1.2),
            Some(4096.0)
        );
        assert_eq!(
            allowed("cosh", Shape::Unary, input(89.0, 0.0, 0), 1e38),
            None
        );
        assert_eq!(
            allowed("atanh", Shape::Unary, input(1.0, 0.0, 0), 1.0),
            None
        );
        assert_eq!(
            allowed("pow", Shape::Binary, input(-2.0, 0.5, 0), 1.0),
            None
        );
        assert_eq!(
            allowed("pow", Shape::Binary, input(-2.0, 3.0, 0), -8.0),
            Some(8192.0)
        );
        assert_eq!(
            allowed("powr", Shape::Binary, input(-2.0, 2.0, 0), 4.0),
            None
        );
        assert_eq!(
            allowed("rootn", Shape::IntArg, input(-8.0, 0.0, 2), 1.0),
            None
        );
        assert_eq!(
            allowed("rootn", Shape::IntArg, input(-8.0, 0.0, 3), -2.0),
            Some(8192.0)
        );
        assert_eq!(
            allowed("pown", Shape::IntArg, input(0.0, 0.0, 0), 1.0),
            None
        );
        assert!(rule("exp", Kind::Double).is_none());
        assert!(rule("sqrt", Kind::Float).is_none());
    }

    #[test]
    fn estimated_allowances_match_the_exact_ones_or_defer() {
        let estimated = |name: &str, i: Input, r: f64| {
            rule(name, Kind::Float)
                .expect("row")
                .allowed_ulps_estimated(Kind::Float, Shape::Unary, &i, r)
        };
        // The same cases as above, from an f64 value of the result.
        for (name, x, r) in [
            ("exp", 10.3, 1.0e4),
            ("sin", 0.85, 0.75),
            ("sin", 4.0, 0.75),
            ("log", 1.9, 0.64),
            ("log", 4.0, 1.38),
            ("acos", 0.3, 1.2),
            ("cosh", 89.0, 1e38),
            ("atanh", 1.0, 1.0),
        ] {
            let i = input(x, 0.0, 0);
            assert_eq!(
                estimated(name, i, r),
                Some(allowed(name, Shape::Unary, i, r).map(|a| (a, a))),
                "{name}({x})"
            );
        }
        // An absolute row at a result next to a power of two, whose side decides the ulp: both
        // allowances (2^-11 in ulps 2^-24 and 2^-25); at zero MPFR decides.
        let both = Some(Some((8192.0, 16384.0)));
        assert_eq!(estimated("sin", input(0.52, 0.0, 0), 0.5), both);
        assert_eq!(
            estimated("sin", input(0.52, 0.0, 0), 0.5 - 2f64.powi(-50)),
            both
        );
        assert_eq!(estimated("sin", input(0.0, 0.0, 0), 0.0), None);
        // Ulp rows do not depend on the result.
        assert_eq!(
            estimated("acos", input(0.3, 0.0, 0), 0.5),
            Some(Some((4096.0, 4096.0)))
        );
    }
}
