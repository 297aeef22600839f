//! exp, expm1, log and log1p in double-double (relative error about 2^-75), the building blocks
//! of the `double` functions that must not round in between: cosh, tanh, asinh, atanh, tgamma,
//! erfc, and the slow path of the correctly rounded `float` log.
//!
//! exp: `x = (64k + j)·ln2/64 + r` (ln 2 / 64 in three parts), `2^k · 2^(j/64) · (1 +
//! expm1(r))` with the table of 2^(j/64) in double-double and expm1(r) by its Taylor series
//! (the terms from the cube on in plain `f64`). log: one Newton step `y0 + (x·e^-y0 - 1)` from the `f64` log, or near 1 the series
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

/// 2^(j/64) for j in 0..64 as double-doubles (hi, lo), from a 60-digit decimal computation.
const EXP2_TABLE: [(f64, f64); 64] = [
    (1.0, 0.0),
    (1.0108892860517005, -1.5234778603368577e-17),
    (1.0218971486541166, 5.109225028973444e-17),
    (1.0330248790212284, 7.600838874027088e-18),
    (1.0442737824274138, 8.551889705537965e-17),
    (1.0556451783605572, 1.759325738772092e-18),
    (1.0671404006768237, -7.899853966841582e-17),
    (1.0787607977571199, -6.656660436056593e-17),
    (1.0905077326652577, -3.046782079812471e-17),
    (1.102382583307841, 5.2660368715706944e-17),
    (1.1143867425958924, 1.0410278456845571e-16),
    (1.1265216186082418, 5.165856758795457e-17),
    (1.1387886347566916, 8.912812676025408e-17),
    (1.1511892299529827, 3.250710218863827e-17),
    (1.1637248587775775, 3.8292048369240935e-17),
    (1.1763969916502812, 5.554203254218079e-17),
    (1.189207115002721, 3.982015231465646e-17),
    (1.202156731452703, 6.644981499252301e-17),
    (1.215247359980469, -7.712630692681488e-17),
    (1.22848053610687, -1.89878163130253e-17),
    (1.241857812073484, 4.658027591836937e-17),
    (1.255380757024691, -6.7113898212968784e-18),
    (1.2690509571917332, 2.667932131342186e-18),
    (1.2828700160787783, 1.713594918243561e-17),
    (1.2968395546510096, 2.5382502794888315e-17),
    (1.3109612115247644, -7.181536135519454e-17),
    (1.3252366431597413, -2.8587312100388614e-17),
    (1.339667524053303, 8.927282594831732e-17),
    (1.3542555469368927, 7.70094837980299e-17),
    (1.3690024229745905, 9.593797919118849e-17),
    (1.383909881963832, -6.770511658794786e-17),
    (1.3989796725383112, -9.614213209051323e-17),
    (core::f64::consts::SQRT_2, -9.667293313452913e-17),
    (1.42961333839197, -1.2031642489053655e-17),
    (1.4451808069770467, -3.0237581349939873e-17),
    (1.460917794180647, -5.600377186075216e-17),
    (1.4768261459394993, -3.483994556892796e-17),
    (1.4929077282912648, 1.4192920154284036e-17),
    (1.5091644275934228, -1.016455327754295e-16),
    (1.5255981507445384, -1.1024941712342561e-16),
    (1.5422108254079407, 7.949834809697621e-17),
    (1.559004400237837, 3.7812070533575275e-17),
    (1.5759808451078865, -1.0136916471278304e-17),
    (1.593142151342267, -1.0094406542311964e-16),
    (1.6104903319492543, 2.4707192569797888e-17),
    (1.6280274218573478, -6.712955084707084e-17),
    (1.645755478153965, -1.0125679913674773e-16),
    (1.6636765803267364, 5.8909926967131e-17),
    (1.681792830507429, 8.199010020581497e-17),
    (1.7001063537185235, -8.0237193703977e-18),
    (1.718619298122478, -1.851380418263111e-17),
    (1.7373338352737062, 3.164389299292957e-17),
    (1.7562521603732995, 2.960140695448873e-17),
    (1.7753764925265212, 6.429731796556572e-17),
    (1.7947090750031072, 1.8227458427912087e-17),
    (1.8142521755003989, -9.969531538920349e-17),
    (1.8340080864093424, 3.283107224245627e-17),
    (1.8539791250833855, 9.761887490727594e-17),
    (1.8741676341103, -6.122763413004143e-17),
    (1.8945759815869656, 3.4034035352165297e-17),
    (1.9152065613971474, -1.0619946056195963e-16),
    (1.9360617934922943, 1.0332385960676326e-16),
    (1.9571441241754002, 8.960767791036668e-17),
    (1.978456026387951, 4.0388753109278167e-17),
];

/// 64 / ln 2.
const INV_LN2_64: f64 = 92.33248261689366;
/// ln 2 / 64 in three parts: the first with 33 significant bits, so that n·part is exact
/// for |n| < 2^20.
const LN2_64_1: f64 = f64::from_bits(0x3f86_2e42_fef0_0000);
const LN2_64_2: f64 = 1.162596423439437e-12;
const LN2_64_3: f64 = -2.0507341277789462e-29;

/// expm1(r) for |r| ≤ 0.0055 (ln 2 / 128 and a little): `r + r²/2` in double-double, the
/// terms from the cube on (relative size ≤ 2^-25) in plain `f64`; absolute error about
/// 2^-78·|r|/0.0055, truncation below 2^-86.
fn expm1_small(r: Dd) -> Dd {
    let h = r.hi;
    let sq = dd::two_prod(h, h).add_f64(2.0 * h * r.lo);
    let tail = h
        * h
        * h
        * (1.0 / 6.0
            + h * (1.0 / 24.0
                + h * (1.0 / 120.0 + h * (1.0 / 720.0 + h * (1.0 / 5040.0 + h / 40320.0)))));
    r.add(sq.mul_pow2(0.5)).add_f64(tail)
}

/// `a = n·ln2/64 + r` with |r| ≤ ln 2 / 128 (and a rounding): returns (n, r).
fn reduce(a: Dd) -> (i32, Dd) {
    let n = (a.hi * INV_LN2_64).round_ties_even();
    // a.hi - n·LN2_64_1 is exact: n·LN2_64_1 is exact and within a factor 2 of a.hi.
    let r = dd::two_sum(a.hi - n * LN2_64_1, a.lo)
        .sub(dd::two_prod(n, LN2_64_2))
        .add_f64(-n * LN2_64_3);
    (n as i32, r)
}

/// exp(a) = m × 2^k with m in [0.99, 2.02) (relative error about 2^-77); `a.hi` in
/// [-1100, 1100]. Table method: `2^(j/64) · (1 + expm1(r))`, n = 64k + j.
pub(crate) fn exp_dd(a: Dd) -> (Dd, i32) {
    let (n, r) = reduce(a);
    let (j, k) = (n.rem_euclid(64), n.div_euclid(64));
    let (hi, lo) = EXP2_TABLE[j as usize];
    let t = Dd { hi, lo };
    (t.add(t.mul(expm1_small(r))), k)
}

/// expm1(a) as a double-double; `a.hi` ≤ 700. Relative error about 2^-70 (the table's
/// absolute error against a result above 0.005, or the small series' relative error).
pub(crate) fn expm1_dd(a: Dd) -> Dd {
    if a.hi.abs() <= 0.0054 {
        return expm1_small(a);
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
