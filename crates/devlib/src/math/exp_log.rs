//! exp, expm1, log and log1p in double-double (relative error about 2^-75), the building blocks
//! of the `double` functions that must not round in between: cosh, tanh, asinh, atanh, tgamma,
//! erfc, and the slow path of the correctly rounded `float` log.
//!
//! exp: `x = k ln2 + r` (ln 2 in double-double), `expm1(r / 2^8)` by its Taylor series (the
//! terms from the cube on in plain `f64`), then eight steps of `expm1(2s) = expm1(s)·(2 +
//! expm1(s))`. log: one Newton step `y0 + (x·e^-y0 - 1)` from the `f64` log, or near 1 the series
//! `2 atanh(f / (2 + f))`.

use super::dd::{self, Dd};

const LN2: Dd = Dd {
    hi: core::f64::consts::LN_2,
    lo: 2.3190468138462996e-17,
};

/// 1/3 as a double-double.
const THIRD: Dd = Dd {
    hi: 0.3333333333333333,
    lo: 1.850371707708594e-17,
};

/// expm1(r) for |r| ≤ 0.36.
fn expm1_reduced(r: Dd) -> Dd {
    const STEPS: i32 = 8;
    let s = r.mul_pow2(1.0 / 256.0);
    let h = s.hi;
    // s + s²/2 in double-double, the rest of the series (relative size ≤ 2^-20) in f64.
    let sq = dd::two_prod(h, h).add_f64(2.0 * h * s.lo);
    let tail = h
        * h
        * h
        * (1.0 / 6.0
            + h * (1.0 / 24.0
                + h * (1.0 / 120.0 + h * (1.0 / 720.0 + h * (1.0 / 5040.0 + h / 40320.0)))));
    let mut u = s.add(sq.mul_pow2(0.5)).add_f64(tail);
    for _ in 0..STEPS {
        u = u.mul(u.add_f64(2.0));
    }
    u
}

/// exp(a) = m × 2^k with m in about [0.7, 1.42]; `a.hi` in [-1100, 1100].
pub(crate) fn exp_dd(a: Dd) -> (Dd, i32) {
    let k = (a.hi / LN2.hi).round_ties_even();
    let p = dd::two_prod(k, LN2.hi);
    let r = a.sub(p).add_f64(-k * LN2.lo);
    (expm1_reduced(r).add_f64(1.0), k as i32)
}

/// expm1(a) as a double-double; `a.hi` ≤ 700.
pub(crate) fn expm1_dd(a: Dd) -> Dd {
    if a.hi.abs() <= 0.34 {
        return expm1_reduced(a);
    }
    let (m, k) = exp_dd(a);
    m.mul_pow2(libm::scalbn(1.0, k)).add_f64(-1.0)
}

/// log(1 + f) for |f| < 1/16 (`f` a double-double) by 2 atanh(s), s = f / (2 + f).
fn log1p_series(f: Dd) -> Dd {
    let s = f.div(f.add_f64(2.0));
    let s2 = s.mul(s);
    let s3 = s2.mul(s);
    let z = s2.hi;
    // s⁵/5 + s⁷/7 + … in f64 (relative size ≤ 2^-22 of s).
    let tail = s3.hi
        * z
        * (1.0 / 5.0
            + z * (1.0 / 7.0
                + z * (1.0 / 9.0 + z * (1.0 / 11.0 + z * (1.0 / 13.0 + z * (1.0 / 15.0))))));
    s.add(s3.mul(THIRD)).add_f64(tail).mul_pow2(2.0)
}

/// log(x) for finite x > 0 (subnormal included) as a double-double.
pub(crate) fn log_dd(x: f64) -> Dd {
    if (0.9375..1.0625).contains(&x) {
        return log1p_series(Dd::from_f64(x - 1.0)); // x - 1 exact (Sterbenz)
    }
    let y0 = libm::log(x);
    // x·e^-y0 = x·2^k·m ≈ 1; x·2^k is exact.
    let (m, k) = exp_dd(Dd::from_f64(-y0));
    let xs = libm::scalbn(libm::scalbn(x, k / 2), k - k / 2);
    let t = m.mul_f64(xs).add_f64(-1.0);
    // log(1 + t) = t - t²/2 + t³/3, |t| ≤ 2^-40.
    let corr = t.hi * t.hi * (-0.5 + t.hi / 3.0);
    Dd::from_f64(y0).add(t).add_f64(corr)
}

/// log(1 + u) for a double-double u > -1.
pub(crate) fn log1p_dd(u: Dd) -> Dd {
    if u.hi.abs() < 0.0625 {
        return log1p_series(u);
    }
    let z = dd::two_sum(1.0, u.hi).add_f64(u.lo);
    log_dd(z.hi).add_f64(z.lo / z.hi)
}

/// ln 2 as a double-double.
pub(crate) fn ln2() -> Dd {
    LN2
}
