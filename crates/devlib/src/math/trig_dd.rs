//! sin and cos of moderate arguments in double-double (about 2^-100), the slow path of the
//! correctly rounded `float` sin and cos: Cody–Waite reduction by π/2 in five parts (msun's
//! pio2_1, pio2_2, pio2_3 and tails; exact products for |x| < 2^20), then the Taylor series in
//! double-double.

// The constants keep the digits of their sources (FreeBSD msun, fdlibm).
#![allow(clippy::excessive_precision)]

use super::dd::{self, Dd};

/// Largest |x| the reduction handles (k·pio2_1 and k·pio2_2 stay exact).
const REDUCTION_LIMIT: f64 = 1_000_000.0;

const PIO2_1: f64 = 1.57079632673412561417e+00; // first 33 bits of π/2
const PIO2_2: f64 = 6.07710050630396597660e-11; // next 33 bits
const PIO2_3: f64 = 2.02226624871116645580e-21; // next 33 bits
const PIO2_3T: f64 = 8.47842766036889956997e-32; // π/2 - (PIO2_1 + PIO2_2 + PIO2_3)
const INV_PIO2: f64 = core::f64::consts::FRAC_2_PI;

/// `x = k·π/2 + r` with |r| ≤ π/4 (a little more at the rounding boundary), for |x| below
/// [`REDUCTION_LIMIT`]; `None` otherwise.
fn reduce(x: f64) -> Option<(i64, Dd)> {
    if x.is_nan() || x.abs() >= REDUCTION_LIMIT {
        return None;
    }
    let k = dd::round_to_int(x * INV_PIO2);
    let a = x - k * PIO2_1; // exact: k·PIO2_1 has at most 53 bits and is close to x
    let r = dd::two_sum(a, -k * PIO2_2); // k·PIO2_2 exact
    let r = r.sub(dd::two_prod(k, PIO2_3)).add_f64(-k * PIO2_3T);
    Some((k as i64, r))
}

/// Σ (-1)^i r^(2i+first) / (2i+first)! in double-double, for |r| ≤ 0.8 (`first` 1 for sin, 0
/// for cos).
fn series(r: Dd, first: u32) -> Dd {
    let r2 = r.mul(r);
    // Terms until r^(2i+first)/(2i+first)! < 2^-110 at |r| = 0.8.
    const TERMS: u32 = 14;
    // Horner from the last term: c_i = (-1)^i / (2i+first)!.
    let mut inv_fact = Vec::with_capacity(TERMS as usize);
    let mut f = Dd::from_f64(1.0);
    let mut n = 1u32;
    for i in 0..TERMS {
        let order = 2 * i + first;
        while n <= order {
            f = f.div(Dd::from_f64(f64::from(n)));
            n += 1;
        }
        inv_fact.push(if i % 2 == 0 { f } else { f.neg() });
    }
    let mut acc = inv_fact[inv_fact.len() - 1];
    for c in inv_fact[..inv_fact.len() - 1].iter().rev() {
        acc = acc.mul(r2).add(*c);
    }
    if first == 1 {
        acc.mul(r)
    } else {
        acc
    }
}

/// sin(x) in double-double for |x| < 10^6; `None` beyond.
pub(crate) fn sin_dd(x: f64) -> Option<Dd> {
    let (k, r) = reduce(x)?;
    Some(match k.rem_euclid(4) {
        0 => series(r, 1),
        1 => series(r, 0),
        2 => series(r, 1).neg(),
        _ => series(r, 0).neg(),
    })
}

/// cos(x) in double-double for |x| < 10^6; `None` beyond.
pub(crate) fn cos_dd(x: f64) -> Option<Dd> {
    let (k, r) = reduce(x)?;
    Some(match k.rem_euclid(4) {
        0 => series(r, 0),
        1 => series(r, 1).neg(),
        2 => series(r, 0).neg(),
        _ => series(r, 1),
    })
}
