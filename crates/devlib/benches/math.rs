//! Speed of devlib's math and conversion functions next to Rust's std equivalents, in ns per
//! call (thread CPU time, the fastest of several passes). Run: `cargo bench -p devlib` (a plain `main`, no
//! harness).

use devlib::convert::{convert, Rounding, ScalarKind};
use devlib::math::{f16 as h, f32 as s, f64 as d};
use std::hint::black_box;

const N: usize = 180_000;

fn inputs_f64() -> Vec<f64> {
    let mut state = 0x1234_5678_9abc_def1u64;
    (0..N)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64 * 20.0 - 10.0
        })
        .collect()
}

/// CPU time of this thread in ns: unlike the wall clock, it does not count the time other
/// processes hold the core.
fn thread_cpu_ns() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid out-pointer; CLOCK_THREAD_CPUTIME_ID exists on Linux.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 * 1e9 + t.tv_nsec as f64
}

/// Passes over the inputs per measurement; the fastest pass counts (the others were slowed down
/// by other processes: the figure is the cost of the function, not of the machine's load).
const PASSES: usize = 9;

fn time<T: Copy, R>(xs: &[T], f: impl Fn(T) -> R) -> f64 {
    let chunk = xs.len() / PASSES;
    (0..PASSES)
        .map(|pass| {
            let part = &xs[pass * chunk..(pass + 1) * chunk];
            let start = thread_cpu_ns();
            for &x in part {
                black_box(f(black_box(x)));
            }
            (thread_cpu_ns() - start) / part.len() as f64
        })
        .fold(f64::INFINITY, f64::min)
}

fn row(name: &str, ours: f64, std: Option<f64>) {
    match std {
        Some(std) => println!(
            "{name:14} {ours:8.1} ns   std {std:8.1} ns   ratio {:5.2}",
            ours / std
        ),
        None => println!("{name:14} {ours:8.1} ns"),
    }
}

fn main() {
    let x64 = inputs_f64();
    let x32: Vec<f32> = x64.iter().map(|&x| x as f32).collect();
    let pos64: Vec<f64> = x64.iter().map(|x| x.abs() + 0.5).collect();
    let pos32: Vec<f32> = pos64.iter().map(|&x| x as f32).collect();
    let x16: Vec<half::f16> = x32.iter().map(|&x| half::f16::from_f32(x)).collect();

    println!("-- f32 (ns/call) --");
    row("sin", time(&x32, s::sin), Some(time(&x32, f32::sin)));
    row("cos", time(&x32, s::cos), Some(time(&x32, f32::cos)));
    row("tan", time(&x32, s::tan), Some(time(&x32, f32::tan)));
    let huge32: Vec<f32> = x32.iter().map(|&x| x * 1.0e7).collect();
    row(
        "tan 1e7..1e8",
        time(&huge32, s::tan),
        Some(time(&huge32, f32::tan)),
    );
    row("exp", time(&x32, s::exp), Some(time(&x32, f32::exp)));
    row("exp2", time(&x32, s::exp2), Some(time(&x32, f32::exp2)));
    row(
        "exp10",
        time(&x32, s::exp10),
        Some(time(&x32, libm::exp10f)),
    );
    row("asinh", time(&x32, s::asinh), Some(time(&x32, f32::asinh)));
    row("log", time(&pos32, s::log), Some(time(&pos32, f32::ln)));
    row("log2", time(&pos32, s::log2), Some(time(&pos32, f32::log2)));
    row("sqrt", time(&pos32, s::sqrt), Some(time(&pos32, f32::sqrt)));
    row("rsqrt", time(&pos32, s::rsqrt), None);
    row("cbrt", time(&x32, s::cbrt), Some(time(&x32, f32::cbrt)));
    row("atan", time(&x32, s::atan), Some(time(&x32, f32::atan)));
    row("sinpi", time(&x32, s::sinpi), None);
    row("tanh", time(&x32, s::tanh), Some(time(&x32, f32::tanh)));
    row(
        "pow",
        time(&pos32, |x| s::pow(x, 1.7)),
        Some(time(&pos32, |x| x.powf(1.7))),
    );
    row(
        "pown",
        time(&x32, |x| s::pown(x, 7)),
        Some(time(&x32, |x| x.powi(7))),
    );
    row("rootn", time(&pos32, |x| s::rootn(x, 3)), None);
    row(
        "fma",
        time(&x32, |x| s::fma(x, 1.5, 0.25)),
        Some(time(&x32, |x| x.mul_add(1.5, 0.25))),
    );
    row("floor", time(&x32, s::floor), Some(time(&x32, f32::floor)));
    row("fract", time(&x32, s::fract), None);
    row(
        "tgamma libm",
        time(&x32, s::tgamma),
        Some(time(&x32, libm::tgammaf)),
    );
    let neg32: Vec<f32> = x32.iter().map(|&x| -x.abs() - 0.01).collect();
    row(
        "lgamma<0 libm",
        time(&neg32, s::lgamma),
        Some(time(&neg32, libm::lgammaf)),
    );
    row(
        "erfc libm",
        time(&x32, s::erfc),
        Some(time(&x32, libm::erfcf)),
    );

    println!("-- f64 (ns/call) --");
    row("sin", time(&x64, d::sin), Some(time(&x64, f64::sin)));
    row("exp", time(&x64, d::exp), Some(time(&x64, f64::exp)));
    row("log", time(&pos64, d::log), Some(time(&pos64, f64::ln)));
    row(
        "pow",
        time(&pos64, |x| d::pow(x, 1.7)),
        Some(time(&pos64, |x| x.powf(1.7))),
    );
    row("sinpi", time(&x64, d::sinpi), None);
    row("tanpi", time(&x64, d::tanpi), None);
    row("exp10", time(&x64, d::exp10), Some(time(&x64, libm::exp10)));
    // The functions computed with double-double intermediates (1 ulp), against std (the C
    // library) or, where std has none, the `libm` crate (musl, marked "libm").
    let unit64: Vec<f64> = x64.iter().map(|x| x / 10.0).collect();
    let big64: Vec<f64> = pos64.iter().map(|x| x + 1.0).collect();
    row("tanh", time(&x64, d::tanh), Some(time(&x64, f64::tanh)));
    row("cosh", time(&x64, d::cosh), Some(time(&x64, f64::cosh)));
    row("sinh", time(&x64, d::sinh), Some(time(&x64, f64::sinh)));
    row("asinh", time(&x64, d::asinh), Some(time(&x64, f64::asinh)));
    row(
        "acosh",
        time(&big64, d::acosh),
        Some(time(&big64, f64::acosh)),
    );
    row(
        "atanh",
        time(&unit64, d::atanh),
        Some(time(&unit64, f64::atanh)),
    );
    row(
        "atan2",
        time(&x64, |x| d::atan2(x, 1.3)),
        Some(time(&x64, |x| x.atan2(1.3))),
    );
    row("atanpi", time(&x64, d::atanpi), Some(time(&x64, f64::atan)));
    row(
        "asinpi",
        time(&unit64, d::asinpi),
        Some(time(&unit64, f64::asin)),
    );
    row(
        "acospi",
        time(&unit64, d::acospi),
        Some(time(&unit64, f64::acos)),
    );
    row(
        "erfc libm",
        time(&x64, d::erfc),
        Some(time(&x64, libm::erfc)),
    );
    row(
        "tgamma libm",
        time(&x64, d::tgamma),
        Some(time(&x64, libm::tgamma)),
    );
    row(
        "lgamma libm",
        time(&x64, d::lgamma),
        Some(time(&x64, libm::lgamma)),
    );
    row(
        "pown",
        time(&x64, |x| d::pown(x, 7)),
        Some(time(&x64, |x| x.powi(7))),
    );
    row(
        "rootn",
        time(&pos64, |x| d::rootn(x, 3)),
        Some(time(&pos64, f64::cbrt)),
    );

    if std::env::var_os("DEVLIB_BENCH_PARTS").is_some() {
        for at in [15.0, 0.5, -9.5, 3.0, 100.0] {
            let xs: Vec<f64> = x64.iter().map(|x| at + x * 1e-3).collect();
            row(&format!("tgamma@{at}"), time(&xs, d::tgamma), None);
            row(&format!("erfc@{at}"), time(&xs, d::erfc), None);
            row(&format!("acosh@{at}"), time(&xs, d::acosh), None);
            row(&format!("rootn3@{at}"), time(&xs, |x| d::rootn(x, 3)), None);
        }
        // lgamma and tgamma by region, next to the `libm` crate at the same inputs.
        for (lo, hi) in [
            (-10.0, -0.01),
            (0.01, 0.97),
            (0.97, 1.03),
            (1.03, 1.97),
            (1.97, 2.03),
            (2.03, 3.0),
            (3.0, 12.0),
        ]
        .into_iter()
        .chain([(12.0, 170.0), (170.0, 1e6), (-185.0, -10.0), (-1e9, -190.0)])
        {
            let xs: Vec<f64> = x64
                .iter()
                .map(|x| lo + (x + 10.0) / 20.0 * (hi - lo))
                .collect();
            row(
                &format!("lgamma {lo}..{hi}"),
                time(&xs, d::lgamma),
                Some(time(&xs, libm::lgamma)),
            );
            if hi <= 171.0 {
                row(
                    &format!("tgamma {lo}..{hi}"),
                    time(&xs, d::tgamma),
                    Some(time(&xs, libm::tgamma)),
                );
            }
        }
    }

    println!("-- f16 (ns/call) --");
    row("sin", time(&x16, h::sin), None);
    row("exp", time(&x16, h::exp), None);
    row("fma", time(&x16, |x| h::fma(x, x, x)), None);
    row("erfc", time(&x16, h::erfc), None);
    row("tgamma", time(&x16, h::tgamma), None);

    println!("-- conversions (ns/call) --");
    let bits: Vec<u64> = x32.iter().map(|x| u64::from(x.to_bits())).collect();
    row(
        "f32->i32 rte",
        time(&bits, |b| {
            convert(
                b,
                ScalarKind::F32,
                ScalarKind::I32,
                Some(Rounding::Rte),
                true,
            )
        }),
        Some(time(&x32, |x| x.round_ties_even() as i32)),
    );
    row(
        "f32->f16 rtz",
        time(&bits, |b| {
            convert(
                b,
                ScalarKind::F32,
                ScalarKind::F16,
                Some(Rounding::Rtz),
                false,
            )
        }),
        Some(time(&x32, half::f16::from_f32)),
    );
    row(
        "u64->f32 rtp",
        time(&bits, |b| {
            convert(
                b,
                ScalarKind::U64,
                ScalarKind::F32,
                Some(Rounding::Rtp),
                false,
            )
        }),
        Some(time(&bits, |b| b as f32)),
    );
}
