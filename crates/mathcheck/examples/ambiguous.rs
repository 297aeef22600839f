//! The proof run of devlib's correctly rounded `float` log, sin, cos and tan, much cheaper than an
//! exhaustive MPFR run: for every argument in a range of bit patterns, the `f64` function
//! (within 1 `f64` ulp for log, 2 for sin, cos and tan) is evaluated; where it lies farther than 4 `f64` ulps from a midpoint
//! between two floats, its rounding is the correctly rounded float (devlib returns exactly
//! that); where it lies closer (the ambiguous arguments, which devlib sends to its
//! double-double path), devlib's float result is compared with MPFR's correctly rounded value.
//!
//! `cargo run --release -p mathcheck --example ambiguous -- FUNC [FIRST_BITS LAST_BITS]
//! [THREADS]` (FUNC: log, sin, cos or tan; bits in hex; default all positive floats, which covers
//! sin, cos and tan by their exact symmetry in devlib and in MPFR, of which one argument in 61 is
//! checked, and log's whole domain).

use std::sync::atomic::{AtomicU64, Ordering};

use mathcheck::subject::Input;
use mathcheck::Kind;

/// Whether `y` is within 4 `f64` ulps of a midpoint between two floats (devlib's rounding
/// test, `math/rounding.rs`, restated).
fn ambiguous(y: f64) -> bool {
    let r = y as f32;
    if !r.is_normal() || !y.is_normal() || y.abs() < f64::from(f32::MIN_POSITIVE) {
        return false;
    }
    let low = (y.to_bits() & ((1 << 29) - 1)) as i64;
    (low - (1 << 28)).abs() <= 4
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
    type Pair = (fn(f64) -> f64, fn(f32) -> f32);
    let (wide, narrow): Pair = match name.as_str() {
        "log" => (devlib::math::f64::log, devlib::math::f32::log),
        "sin" => (devlib::math::f32::sin_in_f64, devlib::math::f32::sin),
        "cos" => (devlib::math::f32::cos_in_f64, devlib::math::f32::cos),
        "tan" => (devlib::math::f32::tan_in_f64, devlib::math::f32::tan),
        other => {
            eprintln!("unknown function `{other}` (log, sin, cos or tan)");
            return std::process::ExitCode::FAILURE;
        }
    };
    let ambiguous_count = AtomicU64::new(0);
    let wrong = AtomicU64::new(0);
    let asymmetric = AtomicU64::new(0);
    let start = std::time::Instant::now();
    std::thread::scope(|scope| {
        for t in 0..threads {
            let (name, ambiguous_count, wrong, asymmetric) =
                (&name, &ambiguous_count, &wrong, &asymmetric);
            scope.spawn(move || {
                let mut bits = first + t;
                while bits <= last {
                    let x = f32::from_bits(bits as u32);
                    bits += threads;
                    let y = wide(f64::from(x));
                    if bits % 61 == 0 && name != "log" {
                        // A sample of the symmetry the positive range relies on.
                        let y_neg = wide(-f64::from(x));
                        let mirrored = if name == "cos" { y } else { -y };
                        if y_neg.to_bits() != mirrored.to_bits() && !y.is_nan() {
                            asymmetric.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                    if !ambiguous(y) {
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
