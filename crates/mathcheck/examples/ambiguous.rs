//! The proof run of devlib's correctly rounded one-argument `float` functions, much cheaper
//! than an exhaustive MPFR run: for every argument in a range of bit patterns, the `f64`
//! function (within 1 `f64` ulp for log, 2 for sin, cos and tan, a few for the `libm` lgamma
//! and tgamma, 1 for the others) is evaluated; where it lies farther than the function's margin
//! (4 `f64` ulps for log, sin, cos, tan, acos, acosh; 2^12 for lgamma and tgamma; 16 for the
//! others, devlib's `NARROW_MARGIN_F64_ULPS`) from a midpoint
//! between two floats, its rounding is the correctly rounded float (devlib returns exactly
//! that); where it lies closer (the ambiguous arguments, which devlib sends to its
//! double-double path), devlib's float result is compared with MPFR's correctly rounded value.
//! `ambiguous` lines list those arguments with the correctly rounded value, `hard` lines the
//! ones where rounding the `f64` value alone is wrong.
//!
//! `cargo run --release -p mathcheck --example ambiguous -- FUNC [FIRST_BITS LAST_BITS]
//! [THREADS] [STRIDE]` (bits in hex; default all positive floats, which covers odd and even
//! functions by their exact symmetry in devlib and in MPFR, of which one argument in 61 is
//! checked; for the others run the negative range `80000000 ff7fffff` too; STRIDE: every
//! STRIDE-th bit pattern only, a sample, default 1).

use std::sync::atomic::{AtomicU64, Ordering};

use mathcheck::subject::Input;
use mathcheck::Kind;

/// Whether `y` is within `margin` `f64` ulps of a midpoint between two floats (devlib's
/// rounding test, `math/rounding.rs`, restated).
fn ambiguous(y: f64, margin: i64) -> bool {
    let r = y as f32;
    if !r.is_normal() || !y.is_normal() || y.abs() < f64::from(f32::MIN_POSITIVE) {
        return false;
    }
    let low = (y.to_bits() & ((1 << 29) - 1)) as i64;
    (low - (1 << 28)).abs() <= margin
}

/// Symmetry of a function: f(-x) = f(x) (even), -f(x) (odd), or none.
#[derive(Clone, Copy, PartialEq)]
enum Parity {
    Even,
    Odd,
    None,
}

/// The `f64` function devlib's float function rounds, the float function, its margin (in
/// `f64` ulps) and parity.
type Subject = (fn(f64) -> f64, fn(f32) -> f32, i64, Parity);

/// The [`Subject`] of the float function `name`.
fn subject(name: &str) -> Option<Subject> {
    use devlib::math::{f32 as s, f64 as d};
    use Parity::{Even, None as Neither, Odd};
    const WIDE: i64 = 16;
    Some(match name {
        "log" => (d::log, s::log, 4, Neither),
        "sin" => (s::sin_in_f64, s::sin, 4, Odd),
        "cos" => (s::cos_in_f64, s::cos, 4, Even),
        "tan" => (s::tan_in_f64, s::tan, 4, Odd),
        "acos" => (d::acos, s::acos, 4, Neither),
        "acosh" => (d::acosh, s::acosh, 4, Neither),
        "acospi" => (d::acospi, s::acospi, WIDE, Neither),
        "asin" => (d::asin, s::asin, WIDE, Odd),
        "asinpi" => (d::asinpi, s::asinpi, WIDE, Odd),
        "atan" => (d::atan, s::atan, WIDE, Odd),
        "atanh" => (d::atanh, s::atanh, WIDE, Odd),
        "atanpi" => (d::atanpi, s::atanpi, WIDE, Odd),
        "cbrt" => (d::cbrt, s::cbrt, WIDE, Odd),
        "cosh" => (d::cosh, s::cosh, WIDE, Even),
        "cospi" => (d::cospi, s::cospi, WIDE, Even),
        "erf" => (d::erf, s::erf, WIDE, Odd),
        "exp" => (d::exp, s::exp, WIDE, Neither),
        "exp2" => (d::exp2, s::exp2, WIDE, Neither),
        "expm1" => (d::expm1, s::expm1, WIDE, Neither),
        "log2" => (d::log2, s::log2, WIDE, Neither),
        "log10" => (d::log10, s::log10, WIDE, Neither),
        "log1p" => (d::log1p, s::log1p, WIDE, Neither),
        "rsqrt" => (d::rsqrt, s::rsqrt, WIDE, Neither),
        "sinh" => (d::sinh, s::sinh, WIDE, Odd),
        "sinpi" => (d::sinpi, s::sinpi, WIDE, Odd),
        "tanh" => (d::tanh, s::tanh, WIDE, Odd),
        "tanpi" => (d::tanpi, s::tanpi, WIDE, Odd),
        // The `libm` functions behind float lgamma and tgamma (a few `f64` ulps: devlib's
        // margin 2^12), whose ambiguous arguments take the double-double fallback.
        "lgamma" => (libm::lgamma, s::lgamma, 1 << 12, Neither),
        "tgamma" => (libm::tgamma, s::tgamma, 1 << 12, Neither),
        _ => return None,
    })
}

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let name = args.first().map_or("cos", String::as_str).to_string();
    let hex = |i: usize, default: u64| {
        args.get(i)
            .and_then(|s| u64::from_str_radix(s.trim_start_matches("0x"), 16).ok())
            .unwrap_or(default)
    };
    let (first, last) = (hex(1, 0), hex(2, 0x7f7f_ffff));
    let threads: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(2);
    // Every `stride`-th bit pattern only (a sample; an odd stride visits every residue).
    let stride: u64 = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(1).max(1);
    let Some((wide, narrow, margin, parity)) = subject(&name) else {
        eprintln!("unknown function `{name}`");
        return std::process::ExitCode::FAILURE;
    };
    let name = name.as_str();
    let ambiguous_count = AtomicU64::new(0);
    let wrong = AtomicU64::new(0);
    let asymmetric = AtomicU64::new(0);
    let start = std::time::Instant::now();
    std::thread::scope(|scope| {
        for t in 0..threads {
            let (ambiguous_count, wrong, asymmetric) = (&ambiguous_count, &wrong, &asymmetric);
            scope.spawn(move || {
                let mut bits = first + t * stride;
                while bits <= last {
                    let x = f32::from_bits(bits as u32);
                    bits += threads * stride;
                    let y = wide(f64::from(x));
                    if bits.is_multiple_of(61) && parity != Parity::None {
                        // A sample of the symmetry the positive range relies on.
                        let y_neg = wide(-f64::from(x));
                        let mirrored = if parity == Parity::Even { y } else { -y };
                        if y_neg.to_bits() != mirrored.to_bits() && !y.is_nan() {
                            asymmetric.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                    if !ambiguous(y, margin) {
                        continue;
                    }
                    ambiguous_count.fetch_add(1, Ordering::Relaxed);
                    let input = Input {
                        x: [f64::from(x), 0.0, 0.0],
                        n: 0,
                    };
                    let Some(r) = mathcheck::reference::reference(name, Kind::Float, &input) else {
                        continue;
                    };
                    let expected = Kind::Float.round_mp(&r.values[0].value) as f32;
                    let got = narrow(x);
                    println!(
                        "ambiguous {name}({:#010x}) = {expected:e} ({:#010x})",
                        x.to_bits(),
                        expected.to_bits()
                    );
                    if (y as f32).to_bits() != expected.to_bits() {
                        println!(
                            "hard {name}({:#010x}) = {expected:e} ({:#010x}), f64 rounded {:e}",
                            x.to_bits(),
                            expected.to_bits(),
                            y as f32
                        );
                    }
                    if got.to_bits() != expected.to_bits() {
                        wrong.fetch_add(1, Ordering::Relaxed);
                        println!(
                            "{name}({:#010x}) = {got:e}, correctly rounded {expected:e}",
                            x.to_bits()
                        );
                    }
                }
            });
        }
    });
    let (a, w, s) = (
        ambiguous_count.into_inner(),
        wrong.into_inner(),
        asymmetric.into_inner(),
    );
    println!(
        "{name} float, bits {first:#010x}..={last:#010x}: {a} ambiguous arguments checked against \
         MPFR, {w} not correctly rounded, {s} asymmetric f64 values in 1/61 of the negated \
         arguments ({:.0} s)",
        start.elapsed().as_secs_f64()
    );
    if w == 0 && s == 0 {
        std::process::ExitCode::SUCCESS
    } else {
        std::process::ExitCode::FAILURE
    }
}
