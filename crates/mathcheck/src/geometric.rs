//! The geometric functions (OpenCL C 3.0 §6.15.8; OpenCL.std `dot`, `cross`, `length`,
//! `distance`, `normalize`, `fast_length`, `fast_distance`, `fast_normalize`) of devlib against
//! an MPFR reference, per type and vector width, with the bounds of the OpenCL 3.0
//! environment's full-profile table (`reference/env/numerical_compliance.adoc`; 002 predates
//! these rows):
//!
//! - `dot`: absolute error ≤ max² · (2n − 1) · ε, `cross`: ≤ max² · 3 · ε per component, with
//!   max the largest input magnitude. The table writes FLT_EPSILON in the double column too;
//!   this check uses the type's own ε (DBL_EPSILON for double), which is stricter. A
//!   correctly rounded result is always accepted, and the unit max² · ε is never taken finer
//!   than the spacing of the type's subnormals (for products of tiny values no representable
//!   result meets the tolerance). With infinite inputs the result is that
//!   of ∞ arithmetic on the exact values (∞ · 0 and ∞ − ∞ are NaN).
//! - `length` ≤ 5.5 + n (double), 2.75 + 0.5n (float), 0.25 + 0.5n (half) ulp; `distance`
//!   ≤ 5.5 + 2n, 2.5 + 2n, 2n; `normalize` ≤ 4.5 + n, 2 + n, 1 + n, per component.
//! - `fast_length` ≤ 8191.5 + n, `fast_distance` ≤ 8191.5 + 2n, `fast_normalize` ≤ 8192 + n
//!   (float only), with the exceptions of §6.15.8: a sum of squares above FLT_MAX makes the
//!   result undefined, below FLT_MIN `fast_normalize` may return its argument.
//!
//! Edge cases checked exactly: "without overflow or extraordinary precision loss due to
//! underflow" (002 edge cases of distance, length, normalize: huge and subnormal components
//! are among the inputs and the ulp bound applies to them), `normalize` of an all-zero vector
//! returns it, of a vector with a NaN all NaNs, and with infinities the vector with each ±∞
//! replaced by ±1 and every other element by a signed zero (002). The `w` component of a
//! 4-component cross product is +0.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use devlib::geometric as geo;
use devlib::Float as DevFloat;
use rug::Float;

use crate::inputs::Rng;
use crate::kind::Kind;
use crate::measure::ulp_error;
use crate::report::format_value;

/// Precision of the references: far beyond the type, so the reference's own error (relative
/// 2^-300 per operation, no cancellation in norms) is negligible.
const PREC: u32 = 320;

/// The geometric functions, in report order.
pub const FUNCTIONS: [&str; 8] = [
    "dot",
    "cross",
    "length",
    "distance",
    "normalize",
    "fast_length",
    "fast_distance",
    "fast_normalize",
];

/// The accuracy a geometric function must meet.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum GeoBound {
    /// At most this many ulps (per component for vector results).
    Ulp(f64),
    /// Absolute error at most `factor · max² · ε` (max: the largest input magnitude, ε: the
    /// type's machine epsilon); errors are measured in units of max² · ε.
    Absolute(f64),
}

impl GeoBound {
    fn limit(self) -> f64 {
        match self {
            GeoBound::Ulp(l) | GeoBound::Absolute(l) => l,
        }
    }
    /// The unit of the error column: `ulp` or `m²ε`.
    pub fn unit(self) -> &'static str {
        match self {
            GeoBound::Ulp(_) => "ulp",
            GeoBound::Absolute(_) => "m²ε",
        }
    }
}

/// The bound of `name` for `kind` and vector width `n`, `None` where the function does not
/// exist (`cross` outside widths 3 and 4, `fast_*` outside `float`).
pub fn geo_bound(name: &str, kind: Kind, n: usize) -> Option<GeoBound> {
    let n = n as f64;
    let by_kind = |double: f64, float: f64, half: f64| match kind {
        Kind::Double => double,
        Kind::Float => float,
        Kind::Half => half,
    };
    Some(match name {
        "dot" => GeoBound::Absolute(2.0 * n - 1.0),
        "cross" if n == 3.0 || n == 4.0 => GeoBound::Absolute(3.0),
        "length" => GeoBound::Ulp(by_kind(5.5 + n, 2.75 + 0.5 * n, 0.25 + 0.5 * n)),
        "distance" => GeoBound::Ulp(by_kind(5.5 + 2.0 * n, 2.5 + 2.0 * n, 2.0 * n)),
        "normalize" => GeoBound::Ulp(by_kind(4.5 + n, 2.0 + n, 1.0 + n)),
        "fast_length" if kind == Kind::Float => GeoBound::Ulp(8191.5 + n),
        "fast_distance" if kind == Kind::Float => GeoBound::Ulp(8191.5 + 2.0 * n),
        "fast_normalize" if kind == Kind::Float => GeoBound::Ulp(8192.0 + n),
        _ => return None,
    })
}

/// The widths a function is checked at: 1 to 4 (`cross`: 3 and 4).
fn widths(name: &str) -> &'static [usize] {
    if name == "cross" {
        &[3, 4]
    } else {
        &[1, 2, 3, 4]
    }
}

/// Whether `name` takes two vectors.
fn two_args(name: &str) -> bool {
    matches!(name, "dot" | "cross" | "distance" | "fast_distance")
}

/// One geometric function, type and width to check.
#[derive(Clone, Debug, PartialEq)]
pub struct GeoSubject {
    pub name: &'static str,
    pub kind: Kind,
    pub width: usize,
    pub bound: GeoBound,
}

/// Every geometric subject of the types in `kinds` (all when empty) and the functions in
/// `names` (all when empty; names that are not geometric functions are ignored).
pub fn geo_subjects(names: &[String], kinds: &[Kind]) -> Vec<GeoSubject> {
    let kinds: &[Kind] = if kinds.is_empty() { &Kind::ALL } else { kinds };
    let mut out = Vec::new();
    for &kind in kinds {
        for name in FUNCTIONS {
            if !names.is_empty() && !names.iter().any(|n| n == name) {
                continue;
            }
            for &width in widths(name) {
                if let Some(bound) = geo_bound(name, kind, width) {
                    out.push(GeoSubject {
                        name,
                        kind,
                        width,
                        bound,
                    });
                }
            }
        }
    }
    out
}

/// Whether `name` is a geometric function.
pub fn is_geometric(name: &str) -> bool {
    FUNCTIONS.contains(&name)
}

/// The result of checking one geometric function, type and width.
#[derive(Clone, Debug)]
pub struct GeoReport {
    pub subject: GeoSubject,
    /// The largest error measured, in the bound's unit.
    pub max_error: f64,
    /// The call where it occurred and what devlib returned.
    pub worst: Option<String>,
    pub tried: u64,
    /// Calls breaking an exact rule, and the first of them.
    pub special_failures: u64,
    pub first_special: Option<String>,
    pub seconds: f64,
}

impl GeoReport {
    /// Within the bound with every exact rule kept.
    pub fn passed(&self) -> bool {
        self.special_failures == 0 && self.max_error <= self.subject.bound.limit()
    }
}

/// devlib's result for `name` on `a` (and `b`), every value carried as `f64`.
fn eval<F: DevFloat>(name: &str, a: &[f64], b: &[f64]) -> Vec<f64> {
    let a: Vec<F> = a.iter().map(|&x| F::from_f64(x)).collect();
    let b: Vec<F> = b.iter().map(|&x| F::from_f64(x)).collect();
    let out: Vec<F> = match name {
        "dot" => vec![geo::dot(&a, &b)],
        "cross" if a.len() == 3 => geo::cross3(&[a[0], a[1], a[2]], &[b[0], b[1], b[2]]).to_vec(),
        "cross" => geo::cross4(&[a[0], a[1], a[2], a[3]], &[b[0], b[1], b[2], b[3]]).to_vec(),
        "length" => vec![geo::length(&a)],
        "distance" => vec![geo::distance(&a, &b)],
        "normalize" => geo::normalize(&a),
        "fast_length" => vec![geo::fast_length(&a)],
        "fast_distance" => vec![geo::fast_distance(&a, &b)],
        _ => geo::fast_normalize(&a),
    };
    out.into_iter().map(DevFloat::to_f64).collect()
}

fn eval_kind(kind: Kind, name: &str, a: &[f64], b: &[f64]) -> Vec<f64> {
    match kind {
        Kind::Half => eval::<half::f16>(name, a, b),
        Kind::Float => eval::<f32>(name, a, b),
        Kind::Double => eval::<f64>(name, a, b),
    }
}

fn mp(x: f64) -> Float {
    Float::with_val(PREC, x)
}

/// Σ c_i² of exact values.
fn sum_of_squares(v: &[Float]) -> Float {
    v.iter().fold(Float::with_val(PREC, 0), |acc, c| {
        acc + Float::with_val(PREC, c * c)
    })
}

fn dot_mp(a: &[f64], b: &[f64]) -> Float {
    a.iter()
        .zip(b)
        .fold(Float::with_val(PREC, 0), |acc, (&x, &y)| {
            acc + Float::with_val(PREC, mp(x) * mp(y))
        })
}

fn cross_mp(a: &[f64], b: &[f64]) -> Vec<Float> {
    let term = |i: usize, j: usize| {
        let p = Float::with_val(PREC, mp(a[i]) * mp(b[j]));
        let q = Float::with_val(PREC, mp(a[j]) * mp(b[i]));
        Float::with_val(PREC, p - q)
    };
    let mut out = vec![term(1, 2), term(2, 0), term(0, 1)];
    if a.len() == 4 {
        out.push(Float::with_val(PREC, 0));
    }
    out
}

/// The type's machine epsilon: 2^-(mantissa bits).
fn epsilon(kind: Kind) -> f64 {
    2f64.powi(-(kind.mant_bits() as i32))
}

/// Checks one call; returns the error in the bound's unit and a broken exact rule, if any.
fn check_call(s: &GeoSubject, a: &[f64], b: &[f64], got: &[f64]) -> (f64, Option<String>) {
    match s.name {
        "dot" => absolute_check(s, a, b, &[dot_mp(a, b)], got),
        "cross" => {
            let want = cross_mp(&a[..3], &b[..3]);
            let (error, special) = absolute_check(s, &a[..3], &b[..3], &want, &got[..3]);
            if s.width == 4 && (got[3] != 0.0 || got[3].is_sign_negative()) {
                return (error, Some(format!("w component {} instead of +0", got[3])));
            }
            (error, special)
        }
        "length" | "fast_length" | "distance" | "fast_distance" => {
            let diffs: Vec<Float> = if two_args(s.name) {
                a.iter()
                    .zip(b)
                    .map(|(&x, &y)| Float::with_val(PREC, mp(x) - mp(y)))
                    .collect()
            } else {
                a.iter().map(|&x| mp(x)).collect()
            };
            norm_check(s, &diffs, got[0])
        }
        _ => normalize_check(s, a, got),
    }
}

/// Absolute-tolerance check of `got` against the exact values `want` (dot, cross).
fn absolute_check(
    s: &GeoSubject,
    a: &[f64],
    b: &[f64],
    want: &[Float],
    got: &[f64],
) -> (f64, Option<String>) {
    let max = a.iter().chain(b).fold(0.0f64, |m, x| m.max(x.abs()));
    // The unit is never finer than the spacing of the type's subnormals: no arithmetic in
    // the type resolves less.
    let unit = Float::with_val(PREC, mp(max) * mp(max)) * epsilon(s.kind);
    let unit = if unit < s.kind.min_subnormal() {
        mp(s.kind.min_subnormal())
    } else {
        unit
    };
    let tolerance = Float::with_val(PREC, &unit * s.bound.limit());
    let mut worst = 0.0f64;
    for (w, &g) in want.iter().zip(got) {
        let error = if w.is_nan() || g.is_nan() {
            if w.is_nan() && g.is_nan() {
                0.0
            } else {
                f64::INFINITY
            }
        } else if w.is_infinite() {
            if g.is_infinite() && g.is_sign_negative() == w.is_sign_negative() {
                0.0
            } else {
                f64::INFINITY
            }
        } else if g.is_infinite() {
            // ∞ is right where a value within the tolerance rounds to it.
            let edge = Float::with_val(PREC, w.clone().abs() + &tolerance);
            let edge = if g < 0.0 { -edge } else { edge };
            if s.kind.round_mp(&edge) == g {
                0.0
            } else {
                f64::INFINITY
            }
        } else {
            let diff = Float::with_val(PREC, w - g).abs();
            let error = Float::with_val(64, diff / &unit).to_f64();
            // The correctly rounded result is always accepted: below the type's resolution
            // (products of subnormals) no result meets the absolute tolerance.
            if error > s.bound.limit() && s.kind.round_mp(w) == g {
                0.0
            } else {
                error
            }
        };
        worst = worst.max(error);
    }
    (worst, None)
}

/// Ulp check of a norm: `sqrt(Σ d_i²)` of the exact components `d` (length, distance and their
/// fast forms). An infinite component makes the length +∞ (as C99 hypot), a NaN otherwise NaN;
/// with both, either is accepted.
fn norm_check(s: &GeoSubject, d: &[Float], got: f64) -> (f64, Option<String>) {
    let any_inf = d.iter().any(|c| c.is_infinite());
    let any_nan = d.iter().any(|c| c.is_nan());
    if any_inf || any_nan {
        let ok = (any_inf && got == f64::INFINITY) || (any_nan && got.is_nan());
        return if ok {
            (0.0, None)
        } else {
            (
                f64::INFINITY,
                Some(format!("{got} for a vector with an infinity or a NaN")),
            )
        };
    }
    let squares = sum_of_squares(d);
    if s.name.starts_with("fast_") && squares > s.kind.max_finite() {
        return (0.0, None); // §6.15.8: undefined when the sum of squares exceeds FLT_MAX
    }
    let want = squares.sqrt();
    (ulp_error(s.kind, got, &want), None)
}

/// normalize and fast_normalize: the 002 edge cases exactly, then the ulp bound per component.
fn normalize_check(s: &GeoSubject, v: &[f64], got: &[f64]) -> (f64, Option<String>) {
    let fast = s.name == "fast_normalize";
    if v.iter().all(|&c| c == 0.0) {
        // 002 / §6.15.8: an all-zero vector is returned as it is (signs of zeros included).
        let same = v.iter().zip(got).all(|(a, b)| a.to_bits() == b.to_bits());
        return if same {
            (0.0, None)
        } else {
            (
                0.0,
                Some(format!("{got:?} instead of the zero vector itself")),
            )
        };
    }
    if v.iter().any(|c| c.is_nan()) {
        if fast {
            return (0.0, None); // the sum of squares is not below FLT_MAX: undefined
        }
        return if got.iter().all(|c| c.is_nan()) {
            (0.0, None)
        } else {
            (0.0, Some(format!("{got:?} instead of all NaNs")))
        };
    }
    let replaced: Vec<f64> = if v.iter().any(|c| c.is_infinite()) {
        if fast {
            return (0.0, None);
        }
        // 002: v[i] = isinf(v[i]) ? copysign(1.0, v[i]) : 0.0 * v[i]
        v.iter()
            .map(|&c| {
                if c.is_infinite() {
                    1f64.copysign(c)
                } else {
                    0.0 * c
                }
            })
            .collect()
    } else {
        v.to_vec()
    };
    let exact: Vec<Float> = replaced.iter().map(|&c| mp(c)).collect();
    let squares = sum_of_squares(&exact);
    if fast {
        if squares > s.kind.max_finite() {
            return (0.0, None); // §6.15.8 exception 1: undefined
        }
        if squares < s.kind.min_normal() && got == v {
            return (0.0, None); // exception 2: may return p
        }
    }
    let norm = squares.sqrt();
    let mut worst = 0.0f64;
    for (c, &g) in exact.iter().zip(got) {
        let want = Float::with_val(PREC, c / &norm);
        if want.is_zero() && g == 0.0 && want.is_sign_negative() != g.is_sign_negative() {
            return (0.0, Some(format!("{got:?}: a zero with the wrong sign")));
        }
        worst = worst.max(ulp_error(s.kind, g, &want));
    }
    (worst, None)
}

/// Special components tried: zeros, infinities, NaN, subnormals, extremes and ones.
fn special_components(kind: Kind) -> Vec<f64> {
    let v = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        kind.min_subnormal(),
        -kind.min_normal(),
        kind.max_finite(),
        -kind.max_finite(),
        0.5,
    ];
    v.to_vec()
}

/// A random component: a random sign and mantissa at `2^exp` give or take `spread` binades,
/// clamped into the type (so a vector's components have related magnitudes, which is where
/// sums overflow, underflow and cancel).
fn component(kind: Kind, rng: &mut Rng, exp: i32, spread: i32) -> f64 {
    let e = exp - rng.int(0, spread);
    let m = 1.0 + rng.unit();
    let sign = if rng.next_u64() & 1 == 0 { 1.0 } else { -1.0 };
    let x = sign * m * pow2(e.clamp(-1074, 1023));
    let x = kind.round(x);
    if x.is_infinite() {
        kind.max_finite().copysign(x)
    } else {
        x
    }
}

/// 2^e for -1074 ≤ e ≤ 1023, subnormal powers included.
fn pow2(e: i32) -> f64 {
    if e >= -1022 {
        f64::from_bits(((e + 1023) as u64) << 52)
    } else {
        f64::from_bits(1u64 << (e + 1074))
    }
}

/// The exponent range of a type's finite values, subnormals included.
fn exponent_range(kind: Kind) -> (i32, i32) {
    let emax = kind.bias();
    let emin = 1 - kind.bias() - kind.mant_bits() as i32;
    (emin, emax)
}

/// One random vector pair of width `n`: one draw in 8 takes components from the specials, the
/// others draw a common exponent (one in 4 near the top or bottom of the range) and spread
/// the components over a few binades (one in 4 over many).
fn random_vectors(kind: Kind, n: usize, rng: &mut Rng) -> (Vec<f64>, Vec<f64>) {
    let specials = special_components(kind);
    let (emin, emax) = exponent_range(kind);
    let draw = |rng: &mut Rng| -> Vec<f64> {
        let exp = match rng.int(0, 7) {
            0 => rng.int(emax - 4, emax),
            1 => rng.int(emin, emin + kind.mant_bits() as i32 + 4),
            2 => rng.int(-4, 4),
            _ => rng.int(emin, emax),
        };
        let spread = if rng.int(0, 3) == 0 {
            kind.mant_bits() as i32 * 2
        } else {
            3
        };
        (0..n)
            .map(|_| {
                if rng.int(0, 31) == 0 {
                    specials[rng.int(0, specials.len() as i32 - 1) as usize]
                } else {
                    component(kind, rng, exp, spread)
                }
            })
            .collect()
    };
    let a = draw(rng);
    // distance: the second point is often close to the first (cancellation).
    let b = if rng.int(0, 3) == 0 {
        a.iter()
            .map(|&x| {
                let step = rng.int(-3, 3) as i64;
                if x.is_finite() {
                    // A few ulps away in magnitude, keeping the sign.
                    let bits = kind.to_bits(x);
                    let sign = bits & (1 << (kind.bits() - 1));
                    let magnitude = ((bits ^ sign) as i64 + step).max(0) as u64;
                    kind.from_bits(sign | magnitude)
                } else {
                    x
                }
            })
            .collect()
    } else {
        draw(rng)
    };
    (a, b)
}

/// The fixed vectors every width is tried on: all-zero vectors with signed zeros, vectors with
/// one special component, all-huge and all-subnormal vectors (the overflow and underflow
/// requirements), and one big component with small ones.
fn fixed_vectors(kind: Kind, n: usize) -> Vec<Vec<f64>> {
    let mut out = vec![vec![0.0; n], vec![-0.0; n]];
    for s in special_components(kind) {
        for i in 0..n {
            let mut v = vec![0.75; n];
            v[i] = s;
            out.push(v);
        }
    }
    let max = kind.max_finite();
    let sub = kind.min_subnormal();
    let normal = kind.min_normal();
    out.push(vec![max; n]);
    out.push(
        (0..n)
            .map(|i| if i % 2 == 0 { max } else { -max })
            .collect(),
    );
    out.push(vec![max * 0.5; n]);
    out.push(vec![sub; n]);
    out.push((0..n).map(|i| sub * (i + 1) as f64).collect());
    out.push(vec![normal; n]);
    out.push((0..n).map(|i| if i == 0 { 1.0 } else { sub }).collect());
    out.push((0..n).map(|i| if i == 0 { max } else { 1.0 }).collect());
    out.push((0..n).map(|i| if i == 0 { 1e-3 } else { 3.0 }).collect());
    out.into_iter()
        .map(|v| v.into_iter().map(|x| kind.round(x)).collect())
        .collect()
}

fn format_vector(kind: Kind, v: &[f64]) -> String {
    let parts: Vec<String> = v.iter().map(|&x| format_value(kind, x)).collect();
    format!("({})", parts.join(", "))
}

/// Checks one subject on the fixed vectors (each against itself, its negation, a vector of
/// ones and a huge vector for two-argument functions) and `samples` random pairs.
pub fn check_geo(s: &GeoSubject, samples: usize, seed: u64) -> GeoReport {
    let start = Instant::now();
    let mut report = GeoReport {
        subject: s.clone(),
        max_error: 0.0,
        worst: None,
        tried: 0,
        special_failures: 0,
        first_special: None,
        seconds: 0.0,
    };
    let mut try_one = |a: &[f64], b: &[f64]| {
        let got = eval_kind(s.kind, s.name, a, b);
        let (error, special) = check_call(s, a, b, &got);
        report.tried += 1;
        let call = if two_args(s.name) {
            format!("{}, {}", format_vector(s.kind, a), format_vector(s.kind, b))
        } else {
            format_vector(s.kind, a)
        };
        if error > report.max_error || (error.is_nan() && report.max_error.is_finite()) {
            report.max_error = if error.is_nan() { f64::INFINITY } else { error };
            report.worst = Some(format!("{call} = {}", format_vector(s.kind, &got)));
        }
        if let Some(message) = special {
            report.special_failures += 1;
            report
                .first_special
                .get_or_insert_with(|| format!("{}({call}): {message}", s.name));
        }
    };
    let fixed = fixed_vectors(s.kind, s.width);
    let ones = vec![1.0; s.width];
    let huge = vec![s.kind.round(s.kind.max_finite() * 0.75); s.width];
    for a in &fixed {
        if two_args(s.name) {
            let neg: Vec<f64> = a.iter().map(|x| -x).collect();
            for b in [a, &neg, &ones, &huge] {
                try_one(a, b);
                try_one(b, a);
            }
        } else {
            try_one(a, &[]);
        }
    }
    let mut h = seed ^ (s.kind as u64) << 40 ^ (s.width as u64) << 48;
    for b in s.name.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    let mut rng = Rng::new(h);
    for _ in 0..samples {
        let (a, b) = random_vectors(s.kind, s.width, &mut rng);
        try_one(&a, &b);
    }
    report.seconds = start.elapsed().as_secs_f64();
    report
}

/// Checks every subject with `samples` random pairs each, on `threads` threads; reports come
/// back in the order of `subjects`.
pub fn check_geometric(
    subjects: &[GeoSubject],
    samples: usize,
    seed: u64,
    threads: usize,
) -> Vec<GeoReport> {
    let next = AtomicUsize::new(0);
    let slots: Mutex<Vec<Option<GeoReport>>> = Mutex::new(vec![None; subjects.len()]);
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1).min(subjects.len().max(1)) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(s) = subjects.get(i) else { break };
                let r = check_geo(s, samples, seed);
                slots.lock().unwrap_or_else(|p| p.into_inner())[i] = Some(r);
            });
        }
    });
    slots
        .into_inner()
        .unwrap_or_else(|p| p.into_inner())
        .into_iter()
        .flatten()
        .collect()
}

/// Random pairs per geometric subject for `samples` random inputs per math function.
pub fn samples_for(samples: usize) -> usize {
    (samples / 4).max(200)
}

fn format_error(e: f64) -> String {
    if e.is_infinite() {
        "inf".to_string()
    } else if e == 0.0 {
        "0".to_string()
    } else if !(1e-3..1e5).contains(&e) {
        format!("{e:.2e}")
    } else {
        format!("{e:.3}")
    }
}

/// The geometric results as a table.
pub fn table(reports: &[GeoReport]) -> String {
    let mut out = format!(
        "{:<16} {:<7} {:>5} {:>7} {:>4} {:>9} {:>9} {:>7}  {:<6} worst\n",
        "geometric", "type", "width", "bound", "unit", "max err", "tried", "special", "result"
    );
    for r in reports {
        let s = &r.subject;
        out.push_str(&format!(
            "{:<16} {:<7} {:>5} {:>7} {:>4} {:>9} {:>9} {:>7}  {:<6} {}\n",
            s.name,
            s.kind.name(),
            s.width,
            s.bound.limit(),
            s.bound.unit(),
            format_error(r.max_error),
            r.tried,
            r.special_failures,
            if r.passed() { "pass" } else { "FAIL" },
            if r.max_error > 0.0 {
                r.worst.as_deref().unwrap_or("-")
            } else {
                "-"
            }
        ));
        if let Some(m) = &r.first_special {
            out.push_str(&format!("    edge case {m}\n"));
        }
    }
    let failed = reports.iter().filter(|r| !r.passed()).count();
    out.push_str(&format!(
        "{} geometric passed, {failed} failed\n",
        reports.len() - failed
    ));
    out
}

/// The geometric results as JSON.
pub fn json(reports: &[GeoReport]) -> serde_json::Value {
    let rows: Vec<serde_json::Value> = reports
        .iter()
        .map(|r| {
            serde_json::json!({
                "function": r.subject.name,
                "type": r.subject.kind.name(),
                "width": r.subject.width,
                "bound": r.subject.bound.limit(),
                "unit": r.subject.bound.unit(),
                "max_error": if r.max_error.is_finite() {
                    serde_json::json!(r.max_error)
                } else {
                    serde_json::json!("inf")
                },
                "worst": r.worst,
                "inputs_tried": r.tried,
                "special_failures": r.special_failures,
                "first_special_failure": r.first_special,
                "seconds": r.seconds,
                "pass": r.passed(),
            })
        })
        .collect();
    serde_json::Value::Array(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn subject(name: &'static str, kind: Kind, width: usize) -> GeoSubject {
        GeoSubject {
            name,
            kind,
            width,
            bound: geo_bound(name, kind, width).expect("exists"),
        }
    }

    #[test]
    fn bounds_as_in_the_3_0_table() {
        assert_eq!(
            geo_bound("length", Kind::Float, 4),
            Some(GeoBound::Ulp(4.75))
        );
        assert_eq!(
            geo_bound("distance", Kind::Double, 3),
            Some(GeoBound::Ulp(11.5))
        );
        assert_eq!(
            geo_bound("normalize", Kind::Half, 2),
            Some(GeoBound::Ulp(3.0))
        );
        assert_eq!(
            geo_bound("dot", Kind::Half, 4),
            Some(GeoBound::Absolute(7.0))
        );
        assert_eq!(geo_bound("cross", Kind::Float, 2), None);
        assert_eq!(geo_bound("fast_length", Kind::Double, 2), None);
        assert_eq!(
            geo_bound("fast_normalize", Kind::Float, 3),
            Some(GeoBound::Ulp(8195.0))
        );
    }

    #[test]
    fn hand_computed_errors() {
        // length(3, 4) = 5 exactly; 5 + 1 ulp of float is 1 ulp off.
        let s = subject("length", Kind::Float, 2);
        let one_up = f64::from(f32::from_bits(5f32.to_bits() + 1));
        assert_eq!(check_call(&s, &[3.0, 4.0], &[], &[5.0]), (0.0, None));
        assert_eq!(check_call(&s, &[3.0, 4.0], &[], &[one_up]).0, 1.0);
        // length of (FLT_MAX/2, FLT_MAX/2) is FLT_MAX/√2: ∞ is infinitely wrong (overflow),
        // while for (FLT_MAX, FLT_MAX), FLT_MAX·√2, ∞ is the correctly rounded result.
        let max = f64::from(f32::MAX);
        let half_max = max / 2.0;
        assert_eq!(
            check_call(&s, &[half_max, half_max], &[], &[f64::INFINITY]).0,
            f64::INFINITY
        );
        assert_eq!(check_call(&s, &[max, max], &[], &[f64::INFINITY]).0, 0.0);
        // dot((1, 2), (3, 4)) = 11; off by 2^-20 with max 4: 2^-20 / (16 · 2^-23) = 0.5 m²ε.
        let d = subject("dot", Kind::Float, 2);
        let off = 11.0 + 2f64.powi(-20);
        assert_eq!(check_call(&d, &[1.0, 2.0], &[3.0, 4.0], &[off]).0, 0.5);
        // normalize of a zero vector is that vector, of (∞, 1) it is (1, 0).
        let n = subject("normalize", Kind::Double, 2);
        assert!(check_call(&n, &[-0.0, 0.0], &[], &[0.0, 0.0]).1.is_some());
        assert_eq!(
            check_call(&n, &[f64::INFINITY, 1.0], &[], &[1.0, 0.0]),
            (0.0, None)
        );
        // cross4's w is +0.
        let c = subject("cross", Kind::Double, 4);
        let a = [1.0, 0.0, 0.0, 5.0];
        let b = [0.0, 1.0, 0.0, 7.0];
        assert_eq!(check_call(&c, &a, &b, &[0.0, 0.0, 1.0, 0.0]), (0.0, None));
        assert!(check_call(&c, &a, &b, &[0.0, 0.0, 1.0, 35.0]).1.is_some());
    }

    #[test]
    fn a_naive_length_is_caught() {
        // sqrt(x² + y²) in float overflows for huge components: the check must see it.
        let s = subject("length", Kind::Float, 2);
        let x = 1e30f32;
        let naive = f64::from((x * x + x * x).sqrt());
        let big = f64::from(x);
        assert!(check_call(&s, &[big, big], &[], &[naive]).0.is_infinite());
    }
}
