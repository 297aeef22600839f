//! sin and cos in double-double (about 2^-100), the slow path of the correctly rounded `float`
//! sin and cos: below 10^6 a Cody–Waite reduction by π/2 in four parts (msun's pio2_1, pio2_2,
//! pio2_3 and tail; exact products), above it (up to 2^128, every float) a Payne–Hanek
//! reduction with 512 bits of 2/π in integer arithmetic; then the Taylor series in
//! double-double.

// The constants keep the digits of their sources (FreeBSD msun, fdlibm).
#![allow(clippy::excessive_precision)]

use super::dd::{self, Dd};

/// Largest |x| the Cody–Waite reduction handles (k·pio2_1 and k·pio2_2 stay exact).
const REDUCTION_LIMIT: f64 = 1_000_000.0;

const PIO2_1: f64 = 1.57079632673412561417e+00; // first 33 bits of π/2
const PIO2_2: f64 = 6.07710050630396597660e-11; // next 33 bits
const PIO2_3: f64 = 2.02226624871116645580e-21; // next 33 bits
const PIO2_3T: f64 = 8.47842766036889956997e-32; // π/2 - (PIO2_1 + PIO2_2 + PIO2_3)
const INV_PIO2: f64 = core::f64::consts::FRAC_2_PI;

/// 2/π, 512 bits after the binary point, most significant first (from a 700-bit mpmath value).
const TWO_OVER_PI: [u64; 8] = [
    0xa2f9836e4e441529,
    0xfc2757d1f534ddc0,
    0xdb6295993c439041,
    0xfe5163abdebbc561,
    0xb7246e3a424dd2e0,
    0x06492eea09d1921c,
    0xfe1deb1cb129a73e,
    0xe88235f52ebb4484,
];

/// Bits `start .. start + 64` of 2/π (bit 1 is the first after the binary point; bits before
/// it are 0, bits past the table too).
fn two_over_pi_bits(start: i32) -> u64 {
    if start < 1 {
        let leading_zeros = (1 - start) as u32;
        return TWO_OVER_PI[0].checked_shr(leading_zeros).unwrap_or(0);
    }
    let index = (start - 1) as usize;
    let (word, offset) = (index / 64, (index % 64) as u32);
    let hi = TWO_OVER_PI.get(word).copied().unwrap_or(0);
    let lo = TWO_OVER_PI.get(word + 1).copied().unwrap_or(0);
    if offset == 0 {
        hi
    } else {
        (hi << offset) | (lo >> (64 - offset))
    }
}

/// Payne–Hanek: `x = k·π/2 + r` for 10^6 ≤ |x| < 2^128. With |x| = m·2^e (m a 53-bit
/// integer), the leading bits of 2/π whose products with |x| are multiples of 4 are skipped;
/// the next 192 bits times m (integer arithmetic) give the quadrant and 104 bits of the
/// fraction (error below 2^-103 absolute).
fn reduce_huge(x: f64) -> Option<(i64, Dd)> {
    let ax = x.abs();
    if ax.is_nan() || ax >= 3.5e38 {
        return None;
    }
    let bits = ax.to_bits();
    let mantissa = u128::from((bits & ((1 << 52) - 1)) | (1 << 52));
    let e = ((bits >> 52) & 0x7ff) as i32 - 1075;
    // |x|·2/π = m·Σ b_i 2^(e-i): bits i ≤ e - 2 add multiples of 4. The window of bits
    // s = e - 1 … s + 191, as an integer w, contributes m·w·2^-190.
    let s = e - 1;
    let w = [
        two_over_pi_bits(s),
        two_over_pi_bits(s + 64),
        two_over_pi_bits(s + 128),
    ];
    let p2 = mantissa * u128::from(w[2]);
    let p1 = mantissa * u128::from(w[1]) + (p2 >> 64);
    let p0 = mantissa * u128::from(w[0]) + (p1 >> 64);
    // p = m·w: p0 holds bits 128 and up; the integer part is p >> 190.
    let quadrant = ((p0 >> 62) & 3) as i64;
    let top = (p0 as u64) & ((1 << 62) - 1); // fraction bits 189..128
    let middle = p1 as u64; // fraction bits 127..64
    let a = (top >> 10) as f64 * f64::from_bits(0x3cb0_0000_0000_0000); // × 2^-52
    let b = (((top & 1023) << 42) | (middle >> 22)) as f64 * f64::from_bits(0x3970_0000_0000_0000); // × 2^-104
    let f = dd::fast_two_sum(a, b);
    let (q, f) = if f.hi >= 0.5 {
        (quadrant + 1, f.add_f64(-1.0))
    } else {
        (quadrant, f)
    };
    let r = f.mul(dd::FRAC_PI_2);
    Some(if x < 0.0 { (-q, r.neg()) } else { (q, r) })
}

/// `x = k·π/2 + r` with |r| ≤ π/4 (a little more at the rounding boundary), for |x| < 2^128;
/// `None` otherwise.
fn reduce(x: f64) -> Option<(i64, Dd)> {
    if x.is_nan() {
        return None;
    }
    if x.abs() >= REDUCTION_LIMIT {
        return reduce_huge(x);
    }
    let k = dd::round_to_int(x * INV_PIO2);
    let a = x - k * PIO2_1; // exact: k·PIO2_1 has at most 53 bits and is close to x
    let r = dd::two_sum(a, -k * PIO2_2); // k·PIO2_2 exact
    let r = r.sub(dd::two_prod(k, PIO2_3)).add_f64(-k * PIO2_3T);
    Some((k as i64, r))
}

/// Σ (-1)^i r^(2i+first) / (2i+first)! in double-double, for |r| ≤ 0.8 (`first` 1 for sin, 0
/// for cos).
pub(crate) fn series(r: Dd, first: u32) -> Dd {
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

/// sin(x) in double-double for |x| < 2^128; `None` beyond.
pub(crate) fn sin_dd(x: f64) -> Option<Dd> {
    let (k, r) = reduce(x)?;
    Some(match k.rem_euclid(4) {
        0 => series(r, 1),
        1 => series(r, 0),
        2 => series(r, 1).neg(),
        _ => series(r, 0).neg(),
    })
}

/// cos(x) in double-double for |x| < 2^128; `None` beyond.
pub(crate) fn cos_dd(x: f64) -> Option<Dd> {
    let (k, r) = reduce(x)?;
    Some(match k.rem_euclid(4) {
        0 => series(r, 0),
        1 => series(r, 1).neg(),
        2 => series(r, 0).neg(),
        _ => series(r, 1),
    })
}

/// sin(x) in `f64` (within 2 `f64` ulps) for the `float` sin: for |x| ≥ 10^6 the argument is
/// reduced by [`reduce_huge`] (a few integer products, where `libm`'s general reduction of a
/// 53-bit argument costs several times more), then the `libm` kernel range |r| ≤ π/4 is
/// used; the error of r's high part (0.5 ulp) adds at most 1 ulp to the `libm` error.
pub(crate) fn sin_f64_for_float(x: f64) -> f64 {
    match (x.abs() >= REDUCTION_LIMIT)
        .then(|| reduce_huge(x))
        .flatten()
    {
        Some((k, r)) => match k.rem_euclid(4) {
            0 => libm::sin(r.hi),
            1 => libm::cos(r.hi),
            2 => -libm::sin(r.hi),
            _ => -libm::cos(r.hi),
        },
        None => libm::sin(x),
    }
}

/// tan(x) in `f64` (within 2 `f64` ulps) for the `float` tan, as [`sin_f64_for_float`]:
/// tan(x) = tan(r) for even k, -1/tan(r) for odd k (`libm`'s kernel, both within 1 ulp; the
/// relative error of r's high part, below 2^-53, changes either by at most 1 ulp more since
/// |r| ≤ π/4 keeps d(log|tan r|)/dr · r ≤ 2).
pub(crate) fn tan_f64_for_float(x: f64) -> f64 {
    match (x.abs() >= REDUCTION_LIMIT)
        .then(|| reduce_huge(x))
        .flatten()
    {
        Some((k, r)) => {
            let t = libm::tan(r.hi);
            if k.rem_euclid(2) == 0 {
                t
            } else {
                -1.0 / t
            }
        }
        None => libm::tan(x),
    }
}

/// tan(x) in double-double for |x| < 2^128 (sin/cos); `None` beyond.
pub(crate) fn tan_dd(x: f64) -> Option<Dd> {
    Some(sin_dd(x)?.div(cos_dd(x)?))
}

/// cos(x) in `f64` for the `float` cos, as [`sin_f64_for_float`].
pub(crate) fn cos_f64_for_float(x: f64) -> f64 {
    match (x.abs() >= REDUCTION_LIMIT)
        .then(|| reduce_huge(x))
        .flatten()
    {
        Some((k, r)) => match k.rem_euclid(4) {
            0 => libm::cos(r.hi),
            1 => -libm::sin(r.hi),
            2 => -libm::cos(r.hi),
            _ => libm::sin(r.hi),
        },
        None => libm::cos(x),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The two reductions are independent methods (π/2 in four `f64` parts and exact products;
    /// 2/π as a 512-bit integer): where both apply, they must agree to far below 2^-90.
    #[test]
    fn payne_hanek_agrees_with_cody_waite() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for i in 0..200_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            // Floats from 1 to 10^6, half of them near multiples of π/2.
            let x =
                f64::from((1.0 + (state >> 11) as f64 / (1u64 << 53) as f64 * 999_999.0) as f32);
            let x = if i % 2 == 0 {
                f64::from((x * INV_PIO2).round() as f32 * core::f32::consts::FRAC_PI_2)
            } else {
                x
            };
            let x = if i % 3 == 0 { -x } else { x };
            let (Some((k1, r1)), Some((k2, r2))) = (reduce(x), reduce_huge(x)) else {
                panic!("{x} not reduced");
            };
            assert_eq!(k1.rem_euclid(4), k2.rem_euclid(4), "quadrant of {x}");
            let d = r1.sub(r2).to_f64().abs();
            assert!(d < 2f64.powi(-95), "{x}: {r1:?} vs {r2:?}");
        }
    }

    /// Huge float arguments: the double-double sin and cos against msun's (`libm`, within 1
    /// ulp, its own Payne–Hanek reduction).
    #[test]
    fn huge_arguments_agree_with_libm() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..100_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            // Float bit patterns from 10^6 (0x4974_2400) to the largest finite float.
            let bits = 0x4974_2400 + (state >> 40) as u32 % (0x7f7f_ffff - 0x4974_2400);
            let x = f64::from(f32::from_bits(bits));
            for (ours, theirs) in [(sin_dd(x), libm::sin(x)), (cos_dd(x), libm::cos(x))] {
                let Some(ours) = ours else {
                    panic!("{x} not reduced");
                };
                let ulp = f64::from_bits(theirs.abs().to_bits() + 1) - theirs.abs();
                let d = (ours.to_f64() - theirs).abs();
                assert!(d <= 1.5 * ulp, "{x}: {ours:?} vs {theirs}");
            }
        }
    }

    #[test]
    fn float_fast_paths_are_within_two_ulps() {
        // Against the double-double values (2^-100) on float arguments of every size, both
        // signs: the `float` sin/cos rely on 2 `f64` ulps (their ambiguity margin is 4).
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..100_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let bits = (state >> 32) as u32 & 0x7f7f_ffff | (state as u32 & 0x8000_0000);
            let x = f64::from(f32::from_bits(bits));
            for (fast, exact) in [
                (sin_f64_for_float(x), sin_dd(x)),
                (cos_f64_for_float(x), cos_dd(x)),
            ] {
                let Some(exact) = exact else {
                    panic!("{x} not reduced");
                };
                let e = exact.to_f64();
                let ulp = f64::from_bits(e.abs().to_bits() + 1) - e.abs();
                let d = (Dd::from_f64(fast).sub(exact)).to_f64().abs();
                assert!(d <= 2.0 * ulp, "{x}: {fast} vs {exact:?}");
            }
        }
        // The reduction keeps sin odd and cos even.
        for x in [1.0e6, 3.0e9, 1.7e38, 6.0e23] {
            assert_eq!(sin_f64_for_float(-x), -sin_f64_for_float(x));
            assert_eq!(cos_f64_for_float(-x), cos_f64_for_float(x));
        }
    }
}
