//! The scan of devlib's `float` and `half` results in the subnormal range, where rounding the
//! `f64` value is a second rounding on a coarser grid (spacing 2^-149 for `float`, 2^-24 for
//! `half`). For every `float` argument in the ranges whose results can be subnormal (tiny
//! arguments of the functions that are about x there, exp/exp2/exp10 near the underflow,
//! erfc's tail, tgamma's negative arguments), the `f64` function behind devlib's function is
//! evaluated; each argument whose `f64` value is subnormal as a float and lies within 2^12
//! `f64` ulps of a subnormal midpoint, and every STRIDE-th of the others, is compared with
//! MPFR's correctly rounded value. Two-argument functions (pow, powr, hypot, atan2, atan2pi)
//! are sampled (pseudo-random arguments whose result is subnormal); `half`: every argument
//! of every one-argument function whose result is a subnormal half, against MPFR.
//!
//! `hard` lines name the arguments whose `f64` value rounded alone (what devlib returned for
//! every subnormal result before it tested them on the subnormal grid) is wrong, `wrong`
//! lines those where devlib is wrong.
//!
//! `cargo run --release -p mathcheck --example subnormal_results -- [FUNC|all] [STRIDE]
//! [SAMPLES]` (default all, 64, 400000 samples per two-argument function).

use mathcheck::subject::Input;
use mathcheck::Kind;

/// The smallest normal float.
const FLT_MIN: f64 = 1.1754943508222875e-38;

/// Whether `y` is a nonzero number of magnitude below `limit` (false for NaN).
fn nonzero_below(y: f64, limit: f64) -> bool {
    y != 0.0 && y.abs() < limit
}

/// Distance of `ay` (0 < ay < 2^-126) from the nearest midpoint of the grid `spacing`, in
/// `f64` ulps of `ay` (about).
fn midpoint_distance_ulps(ay: f64, spacing: f64) -> f64 {
    let t = ay / spacing; // exact: a power of two
    (t - t.floor() - 0.5).abs() / (t * f64::EPSILON)
}

/// MPFR's correctly rounded `kind` value of `name` at `args`.
fn correct(name: &str, kind: Kind, args: &[f64]) -> Option<f64> {
    let mut x = [0.0; 3];
    x[..args.len()].copy_from_slice(args);
    let r = mathcheck::reference::reference(name, kind, &Input { x, n: 0 })?;
    Some(kind.round_mp(&r.values[0].value))
}

/// What one function's scan found.
#[derive(Default)]
struct Tally {
    subnormal: u64,
    near: u64,
    checked: u64,
    hard: u64,
    wrong: u64,
}

impl Tally {
    fn print(&self, what: &str) {
        println!(
            "{what}: {} subnormal results, {} within 2^12 f64 ulps of a midpoint, {} checked \
             against MPFR, {} misrounded by the f64 value alone, {} wrong",
            self.subnormal, self.near, self.checked, self.hard, self.wrong
        );
    }

    /// Compares `got` (devlib) and the `f64` value `y` rounded alone with MPFR's value.
    fn check(&mut self, name: &str, kind: Kind, args: &[f64], y: f64, got: f64) {
        let Some(want) = correct(name, kind, args) else {
            return;
        };
        self.checked += 1;
        let alone = kind.round(y);
        if alone.to_bits() != want.to_bits() {
            self.hard += 1;
            println!("hard {name}{args:?}: correct {want:e}, f64 rounded alone {alone:e}");
        }
        if got.to_bits() != want.to_bits() {
            self.wrong += 1;
            println!("wrong {name}{args:?}: devlib {got:e}, correct {want:e}");
        }
    }
}

type Unary = (
    &'static str,
    fn(f64) -> f64,
    fn(f32) -> f32,
    &'static [(u32, u32)],
);

/// Positive and negative arguments below 2^-123.
const TINY: &[(u32, u32)] = &[(1, 0x0200_0000), (0x8000_0001, 0x8200_0000)];

fn unary_subjects() -> Vec<Unary> {
    use devlib::math::{f32 as s, f64 as d};
    vec![
        ("asin", d::asin, s::asin, TINY),
        ("asinpi", d::asinpi, s::asinpi, TINY),
        ("atan", d::atan, s::atan, TINY),
        ("atanpi", d::atanpi, s::atanpi, TINY),
        ("atanh", d::atanh, s::atanh, TINY),
        ("erf", d::erf, s::erf, TINY),
        ("expm1", d::expm1, s::expm1, TINY),
        ("log1p", d::log1p, s::log1p, TINY),
        ("sinh", d::sinh, s::sinh, TINY),
        ("tanh", d::tanh, s::tanh, TINY),
        ("sinpi", d::sinpi, s::sinpi, TINY),
        ("tanpi", d::tanpi, s::tanpi, TINY),
        ("sin", s::sin_in_f64, s::sin, TINY),
        ("tan", s::tan_in_f64, s::tan, TINY),
        ("asinh", libm::asinh, s::asinh, TINY),
        // -87 .. -104.5, -125.5 .. -151.5, -37.5 .. -45.5.
        ("exp", d::exp, s::exp, &[(0xc2ae_0000, 0xc2d1_0000)]),
        ("exp2", d::exp2, s::exp2, &[(0xc2fb_0000, 0xc317_8000)]),
        (
            "exp10",
            libm::exp10,
            s::exp10,
            &[(0xc216_0000, 0xc236_0000)],
        ),
        // 9 .. 10.2; -33 .. -42.5.
        ("erfc", libm::erfc, s::erfc, &[(0x4110_0000, 0x4123_3333)]),
        (
            "tgamma",
            libm::tgamma,
            s::tgamma,
            &[(0xc204_0000, 0xc22a_0000)],
        ),
    ]
}

fn scan_unary((name, wide, narrow, ranges): &Unary, stride: u64) {
    let mut tally = Tally::default();
    for &(first, last) in *ranges {
        for bits in first..=last {
            let x = f32::from_bits(bits);
            let y = wide(f64::from(x));
            if !nonzero_below(y, FLT_MIN) {
                continue;
            }
            tally.subnormal += 1;
            let near = midpoint_distance_ulps(y.abs(), 2f64.powi(-149)) < 4096.0;
            tally.near += u64::from(near);
            if near || tally.subnormal.is_multiple_of(stride) {
                let got = f64::from(narrow(x));
                tally.check(name, Kind::Float, &[f64::from(x)], y, got);
            }
        }
    }
    tally.print(&format!("{name} float"));
}

type Binary = (&'static str, fn(f64, f64) -> f64, fn(f32, f32) -> f32);

/// Pseudo-random `u64`s (xorshift).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// Uniform in [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / 9007199254740992.0
    }
}

/// Arguments (a, b) of `name` with a subnormal result: pow/powr with x in (0, 1) ∪ (1, 2^64)
/// and y chosen so that x^y lies in [2^-152, 2^-126]; hypot of two subnormals; atan2 of a
/// quotient in that range.
fn binary_arguments(name: &str, rng: &mut Rng) -> (f32, f32) {
    let exponent = -152.0 + 26.0 * rng.unit(); // log2 of the result
    match name {
        "pow" | "powr" => {
            let x = loop {
                let x = (2f64.powf(128.0 * rng.unit() - 64.0)) as f32;
                if x != 1.0 {
                    break x;
                }
            };
            let y = (exponent / f64::from(x).log2()) as f32;
            (x, y)
        }
        "hypot" => (
            f32::from_bits((rng.next() >> 41) as u32),
            f32::from_bits((rng.next() >> 41) as u32),
        ),
        _ => {
            let x = (2f64.powf(40.0 * rng.unit() - 20.0)) as f32;
            let q = 2f64.powf(exponent);
            let sign = if rng.next() & 1 == 0 { 1.0 } else { -1.0 };
            ((sign * q * f64::from(x)) as f32, x)
        }
    }
}

fn scan_binary((name, wide, narrow): &Binary, samples: u64, stride: u64) {
    let mut tally = Tally::default();
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    for _ in 0..samples {
        let (a, b) = binary_arguments(name, &mut rng);
        let y = wide(f64::from(a), f64::from(b));
        if !nonzero_below(y, FLT_MIN) {
            continue;
        }
        tally.subnormal += 1;
        let near = midpoint_distance_ulps(y.abs(), 2f64.powi(-149)) < 4096.0;
        tally.near += u64::from(near);
        if near || tally.subnormal.is_multiple_of(stride) {
            let got = f64::from(narrow(a, b));
            tally.check(name, Kind::Float, &[f64::from(a), f64::from(b)], y, got);
        }
    }
    tally.print(&format!("{name} float ({samples} samples)"));
}

/// Every `half` argument of every one-argument function whose result is a subnormal half.
fn scan_half() {
    use devlib::math::{f16 as h, f64 as d};
    use half::f16;
    type HalfUnary = (&'static str, fn(f64) -> f64, fn(f16) -> f16);
    let subjects: [HalfUnary; 20] = [
        ("asin", d::asin, h::asin),
        ("asinpi", d::asinpi, h::asinpi),
        ("atan", d::atan, h::atan),
        ("atanpi", d::atanpi, h::atanpi),
        ("atanh", d::atanh, h::atanh),
        ("asinh", d::asinh, h::asinh),
        ("erf", d::erf, h::erf),
        ("expm1", d::expm1, h::expm1),
        ("log1p", d::log1p, h::log1p),
        ("sinh", d::sinh, h::sinh),
        ("tanh", d::tanh, h::tanh),
        ("sinpi", d::sinpi, h::sinpi),
        ("tanpi", d::tanpi, h::tanpi),
        ("sin", d::sin, h::sin),
        ("tan", d::tan, h::tan),
        ("exp", d::exp, h::exp),
        ("exp2", d::exp2, h::exp2),
        ("exp10", d::exp10, h::exp10),
        ("erfc", libm::erfc, h::erfc),
        ("tgamma", libm::tgamma, h::tgamma),
    ];
    for (name, wide, narrow) in subjects {
        let mut tally = Tally::default();
        for bits in 0..=u16::MAX {
            let x = f16::from_bits(bits);
            let y = wide(x.to_f64());
            if !nonzero_below(y, 2f64.powi(-14)) {
                continue;
            }
            tally.subnormal += 1;
            let near = midpoint_distance_ulps(y.abs(), 2f64.powi(-24)) < 4096.0;
            tally.near += u64::from(near);
            let got = narrow(x).to_f64();
            tally.check(name, Kind::Half, &[x.to_f64()], y, got);
        }
        tally.print(&format!("{name} half"));
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let which = args.first().map_or("all", String::as_str);
    let stride: u64 = args
        .get(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(64)
        .max(1);
    let samples: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(400_000);
    let start = std::time::Instant::now();
    for subject in unary_subjects() {
        if which == "all" || which == subject.0 {
            scan_unary(&subject, stride);
        }
    }
    use devlib::math::{f32 as s, f64 as d};
    let binary: [Binary; 5] = [
        ("pow", d::pow, s::pow),
        ("powr", d::powr, s::powr),
        ("hypot", d::hypot, s::hypot),
        ("atan2", d::atan2, s::atan2),
        ("atan2pi", d::atan2pi, s::atan2pi),
    ];
    for subject in &binary {
        if which == "all" || which == subject.0 {
            scan_binary(subject, samples, stride);
        }
    }
    if which == "all" || which == "half" {
        scan_half();
    }
    println!("{:.0} s", start.elapsed().as_secs_f64());
}
