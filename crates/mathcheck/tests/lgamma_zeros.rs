//! A targeted sweep of double `lgamma` around each of its zeros (x = 1, 2 and the two zeros in
//! each interval (-n-1, -n) for n = 2 … 17, where |Γ(x)| = 1; beyond, the zeros lie closer to
//! the integers than an ulp): the zeros are found by bisection on the MPFR reference, then the
//! inputs within a few thousand ulps of each zero and at 2^j ulps from it are checked against
//! MPFR. Near a zero the result is tiny while the terms of the usual formulas are not, which is
//! where an implementation loses its relative accuracy.

use mathcheck::measure::ulp_error;
use mathcheck::reference::reference;
use mathcheck::subject::Input;
use mathcheck::Kind;

fn mp_lgamma(x: f64) -> rug::Float {
    let input = Input {
        x: [x, 0.0, 0.0],
        n: 0,
    };
    reference("lgamma", Kind::Double, &input)
        .expect("lgamma has a reference")
        .values[0]
        .value
        .clone()
}

/// The double where lgamma changes sign inside (lo, hi) (a sign change is given).
fn zero_between(mut lo: f64, mut hi: f64) -> f64 {
    let sign_lo = mp_lgamma(lo).is_sign_negative();
    loop {
        let mid = 0.5 * (lo + hi);
        if mid == lo || mid == hi {
            break;
        }
        if mp_lgamma(mid).is_sign_negative() == sign_lo {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

/// Every zero of lgamma at which doubles lie near it.
fn zeros() -> Vec<f64> {
    let mut out = vec![1.0, 2.0];
    let mut factorial = 2.0f64; // n!
    for n in 2..=17 {
        factorial *= n as f64;
        let (a, b) = (-(n as f64) - 1.0, -(n as f64));
        // |Γ| is large at both poles and has one minimum between them, below 1 for n ≥ 2:
        // one zero on each side of the minimum. Near the pole -k, |Γ(-k ± ε)| ≈ 1/(k! ε), so
        // lgamma > 0 within 1/(4 (n+1)!) of a and 1/(4 n!) of b.
        let minimum = (1..64)
            .map(|i| a + (b - a) * (i as f64 / 64.0))
            .min_by(|p, q| mp_lgamma(*p).total_cmp(&mp_lgamma(*q)))
            .expect("a grid");
        let near_a = a + 0.25 / (factorial * (n as f64 + 1.0));
        let near_b = b - 0.25 / factorial;
        // Only zeros farther than a few ulps from the pole have doubles around them.
        let ulp = f64::EPSILON * b.abs();
        if near_a - a > 8.0 * ulp {
            out.push(zero_between(near_a, minimum));
        }
        if b - near_b > 8.0 * ulp {
            out.push(zero_between(minimum, near_b));
        }
    }
    out
}

fn step(x: f64, k: i64) -> f64 {
    // k ulps away (x ≠ 0, not crossing zero here).
    let bits = x.to_bits() as i64;
    let moved = if x > 0.0 { bits + k } else { bits - k };
    f64::from_bits(moved as u64)
}

#[test]
fn lgamma_is_within_one_ulp_near_its_zeros() {
    let zs = zeros();
    // x = 1, 2 and the zeros of n = 2 … 15 or so, two per interval.
    assert!(zs.len() >= 2 + 2 * 12, "{zs:?}");
    for z in &zs {
        // The bisection ended next to a zero: lgamma changes sign at one of z's neighbours.
        let sign = |x: f64| mp_lgamma(x).is_sign_negative();
        let (below, above) = (
            f64::from_bits(z.to_bits() - 1),
            f64::from_bits(z.to_bits() + 1),
        );
        assert!(
            *z == 1.0 || *z == 2.0 || sign(below) != sign(*z) || sign(above) != sign(*z),
            "{z}"
        );
    }
    let mut worst = (0.0f64, 0.0f64);
    let mut lines = Vec::new();
    for &z in &zs {
        let mut inputs: Vec<f64> = (-100..=100).map(|k| step(z, k)).collect();
        for j in 7..48 {
            for sign in [-1i64, 1] {
                inputs.push(step(z, sign * (1i64 << j)));
                inputs.push(step(z, sign * ((1i64 << j) + 7)));
            }
        }
        let mut zone_worst = (0.0f64, z);
        for x in inputs {
            let got = devlib::math::f64::lgamma(x);
            let e = ulp_error(Kind::Double, got, &mp_lgamma(x));
            if e > zone_worst.0 {
                zone_worst = (e, x);
            }
        }
        lines.push(format!(
            "zero {z:.17e}: max {:.3} ulp at {:e}",
            zone_worst.0, zone_worst.1
        ));
        if zone_worst.0 > worst.0 {
            worst = zone_worst;
        }
    }
    eprintln!("{}", lines.join("\n"));
    assert!(worst.0 <= 1.0, "max {} ulp at {:e}", worst.0, worst.1);
}

#[test]
fn lgamma_is_within_one_ulp_on_a_log_uniform_sample() {
    // |x| from 2^-70 to 2^1015, both signs (xorshift; integers and poles are edge cases of the
    // quick check).
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut worst = (0.0f64, 0.0f64);
    for _ in 0..20_000 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let magnitude = 2f64.powf(-70.0 + (state >> 11) as f64 / (1u64 << 53) as f64 * 1085.0);
        let x = if state & 1 == 0 {
            magnitude
        } else {
            -magnitude
        };
        if x == x.floor() {
            continue;
        }
        let e = ulp_error(Kind::Double, devlib::math::f64::lgamma(x), &mp_lgamma(x));
        if e > worst.0 {
            worst = (e, x);
        }
    }
    assert!(worst.0 <= 1.0, "max {} ulp at {:e}", worst.0, worst.1);
}
