//! Correct rounding of `float` results computed in `f64`: the rounding test (is the `f64`
//! value far enough from a midpoint between two floats for its small error not to matter?) and
//! the correct rounding of a double-double value to `f32`, the fallback of that test.

use super::dd::Dd;

/// How many `f64` ulps from a float midpoint count as ambiguous: the `f64` functions used with
/// this test are within 1 ulp, this leaves a margin.
const AMBIGUOUS_F64_ULPS: i64 = 4;

/// `y` rounded to `f32` when that is certainly the correctly rounded value of any number within
/// `AMBIGUOUS_F64_ULPS` f64 ulps of `y`; `None` when `y` is that close to a midpoint. Results
/// outside the normal `f32` range (zero, subnormal, overflow, NaN) are returned as rounded.
#[inline(always)]
pub(crate) fn f64_to_f32_if_unambiguous(y: f64) -> Option<f32> {
    f64_to_f32_if_clear(y, AMBIGUOUS_F64_ULPS)
}

/// How many `f64` ulps from a float midpoint count as ambiguous for the `f64` functions behind
/// the other correctly rounded float functions (`f32::asin` … `f32::powr`): msun's (`libm`)
/// are documented within 1 ulp, devlib's double-double ones within 0.5 + 2^-5 ulp; 16 leaves
/// room for the `libm` ones whose bound is documented rather than proved. The JIT's inlined
/// float `exp`, `log2` and `log10` use the same margin (exec `jit/compile/vector/math.rs`).
pub(crate) const NARROW_MARGIN_F64_ULPS: i64 = 16;

/// [`f64_to_f32_if_unambiguous`] with a margin of `margin` `f64` ulps: `y` rounded to `f32`
/// unless it lies within `margin` ulps of a rounding boundary of `float` at `y`: a midpoint
/// between two normal floats, between two subnormal ones (spacing 2^-149, where rounding the
/// `f64` value is a second rounding too) or between the largest float and the overflow
/// threshold 2^128 - 2^103 (where `y` rounds to ∞).
#[inline(always)]
pub(crate) fn f64_to_f32_if_clear(y: f64, margin: i64) -> Option<f32> {
    let r = y as f32;
    // The 29 low mantissa bits are what rounding to 24 bits drops; 2^28 is the midpoint. One
    // subtraction and one unsigned comparison: |low - 2^28| > margin.
    let low = y.to_bits() & ((1 << 29) - 1);
    let offset = low.wrapping_sub((1 << 28) - margin as u64);
    if offset > 2 * margin as u64 && y.abs() >= f64::from(f32::MIN_POSITIVE) {
        return Some(r);
    }
    near_pattern_or_below_normal(y, r, margin)
}

/// The rare cases of [`f64_to_f32_if_clear`]: `y` below the normal `float` range (tested on
/// the subnormal grid), or its low bits near the midpoint pattern (ambiguous when `y` is a
/// finite value in the normal range, ∞ included: the pattern in the top binade is the
/// overflow threshold).
#[cold]
#[inline(never)]
fn near_pattern_or_below_normal(y: f64, r: f32, margin: i64) -> Option<f32> {
    let ay = y.abs();
    if !ay.is_finite() || ay >= 2f64.powi(128) {
        return Some(r); // NaN, ±∞, or far beyond the overflow threshold
    }
    if ay >= f64::from(f32::MIN_POSITIVE) {
        return None; // normal range, low bits near the midpoint pattern
    }
    if subnormal_grid_clear(ay, margin as f64) {
        Some(r)
    } else {
        None
    }
}

/// Whether `ay` (0 ≤ ay < 2^-126) is more than about `margin` of its `f64` ulps from every
/// midpoint (k + ½)·2^-149 of the subnormal `float` grid. The scaling by 2^149 and the
/// fraction are exact; `t·2^-52` is between one and two ulps of `t` (a margin at most twice
/// the requested one). Zero is exact.
#[inline(always)]
fn subnormal_grid_clear(ay: f64, margin: f64) -> bool {
    let t = ay * 2f64.powi(149); // exact, below 2^23
    let distance = (t - t.floor() - 0.5).abs(); // exact
    ay == 0.0 || distance > margin * t * f64::EPSILON
}

/// How many `f64` ulps from a float midpoint count as ambiguous for `f64` functions of the
/// `libm` crate whose error is a few ulps (msun erfc, musl tgamma: below 8 ulps measured
/// against MPFR): 2^12, a margin of several hundred times.
const LIBM_MARGIN_F64_ULPS: i64 = 1 << 12;

/// `fast(x)` rounded to `f32` when its value is a normal float clearly away from a float
/// midpoint (more than [`LIBM_MARGIN_F64_ULPS`]), which makes the rounding the same as that of
/// the exact value; otherwise `accurate(x)` rounded to `f32`.
pub(crate) fn fast_then_accurate(x: f64, fast: fn(f64) -> f64, accurate: fn(f64) -> f64) -> f32 {
    fast_or_else(x, fast, |x| accurate(x) as f32)
}

/// `fast(x)` rounded to `f32` when that is certainly correct (as [`fast_then_accurate`]),
/// otherwise `fallback(x)`, which must itself round once: a double-double value through
/// [`dd_to_f32`], not an `f64` rounded again (an `f64` that lands on a float midpoint rounds
/// to even, which is wrong for half of such inputs).
pub(crate) fn fast_or_else(x: f64, fast: fn(f64) -> f64, fallback: impl FnOnce(f64) -> f32) -> f32 {
    let y = fast(x);
    let r = y as f32;
    if r.is_normal() && y.is_normal() && clear_of_midpoint(y, 29) {
        return r;
    }
    round_if_clear::<f32>(y).unwrap_or_else(|| fallback(x))
}

/// [`fast_then_accurate`] for `half` (42 mantissa bits dropped).
pub(crate) fn fast_then_accurate_f16(
    x: f64,
    fast: fn(f64) -> f64,
    accurate: fn(f64) -> f64,
) -> half::f16 {
    // devlib's own narrowing: `half::f16::from_f64` may round through f32 (twice).
    use crate::float::Float;
    let y = fast(x);
    let r = <half::f16 as Float>::from_f64(y);
    if r.is_normal() && y.is_normal() && clear_of_midpoint(y, 42) {
        return r;
    }
    round_if_clear::<half::f16>(y).unwrap_or_else(|| <half::f16 as Float>::from_f64(accurate(x)))
}

/// [`fast_then_accurate`] for either narrow type `F` (`f32` or `half::f16`).
pub(crate) fn fast_then_accurate_narrow<F: crate::float::Float>(
    x: f64,
    fast: fn(f64) -> f64,
    accurate: fn(f64) -> f64,
) -> F {
    narrow_if_clear::<F>(fast(x)).unwrap_or_else(|| F::from_f64(accurate(x)))
}

/// `y` (a value within a few `f64` ulps of the exact result) rounded to `F` when that is
/// certainly the correct rounding of the exact value (clear of every rounding boundary by
/// [`LIBM_MARGIN_F64_ULPS`]); `None` otherwise and for zero, ∞ and NaN.
pub(crate) fn narrow_if_clear<F: crate::float::Float>(y: f64) -> Option<F> {
    let dropped = 52 - F::mant_mask().count_ones();
    let r = F::from_f64(y);
    let e = r.to_bits_u64() & F::exp_mask();
    let normal = e != 0 && e != F::exp_mask();
    if normal && y.is_normal() && clear_of_midpoint(y, dropped) {
        return Some(r);
    }
    round_if_clear::<F>(y)
}

/// `y` (finite, nonzero) rounded to `F` when it is more than [`LIBM_MARGIN_F64_ULPS`] of its
/// own ulps from every rounding boundary of `F`: the general form of the midpoint test, for
/// results in the subnormal range (and those that round to zero or beyond the largest value,
/// whose boundaries are midpoints of the same spacing). `None` for zero, ∞ and NaN (whose
/// edge cases the accurate function decides) and for ambiguous values.
fn round_if_clear<F: crate::float::Float>(y: f64) -> Option<F> {
    if !y.is_finite() || y == 0.0 {
        return None;
    }
    let emin = 1 - F::bias();
    let ey = libm::ilogb(y);
    // The spacing of F at |y|: 2^q (subnormal spacing below the normal range, the top
    // binade's spacing above it).
    let q = ey.clamp(emin, F::bias()) - F::MANT_BITS as i32;
    let t = libm::scalbn(y.abs(), -q); // exact: a power-of-two scaling
    let distance = (t - libm::floor(t) - 0.5).abs();
    let margin = LIBM_MARGIN_F64_ULPS as f64 * libm::scalbn(1.0, ey.max(-1022) - 52 - q);
    (distance > margin).then(|| F::from_f64(y))
}

/// Whether the `dropped` low mantissa bits of `y` are more than [`LIBM_MARGIN_F64_ULPS`] from
/// the midpoint pattern (`1` then zeros), i.e. rounding `y` to a format with `52 - dropped`
/// mantissa bits gives the rounding of every value that close to `y` (normal results).
fn clear_of_midpoint(y: f64, dropped: u32) -> bool {
    let low = (y.to_bits() & ((1 << dropped) - 1)) as i64;
    (low - (1 << (dropped - 1))).abs() > LIBM_MARGIN_F64_ULPS
}

/// `hi + lo` correctly rounded to `f32`, over the whole range: normal results, subnormal ones
/// (spacing 2^-149, down to the midpoint 2^-150 between 0 and the smallest float) and the
/// overflow threshold. Rounded to odd in `f64` first (`Dd::to_f64_odd`), which keeps the
/// exact value's side of every `float` rounding boundary (29 or more bits below `f32`'s last),
/// then rounded once to `f32`.
pub(crate) fn dd_to_f32(d: Dd) -> f32 {
    d.to_f64_odd() as f32
}

/// lgamma_r(x) for -190 < x ≤ -2^-10 by the `libm` (msun) lgamma_r, `log(π / |x sin πx|) -
/// lgamma(-x)`, when its result `y` is correctly rounded to `F` by [`narrow_if_clear`], and
/// only where no cancellation makes it inaccurate: with B ≥ |lgamma(-x)| + 0.2 (B = |x|·L for
/// |x| ≥ 1 and L below, L = (|ilogb x| + 1)·ln 2 ≥ |ln|x||; Γ(t) ≤ 1/t on (0, 1)), the log
/// term is at most |y| + B, so with |y| ≥ B/64 the terms' errors (a few of their `f64` ulps)
/// are at most about 130 × a few ulps of y, far below the 2^12-ulp margin. Near lgamma's
/// zeros `None`: the caller takes the `f64` lgamma.
pub(crate) fn lgamma_negative_fast<F: crate::float::Float>(x: f64) -> Option<(F, i32)> {
    let (y, sign) = libm::lgamma_r(x);
    if sign == 0 || !y.is_finite() {
        return None;
    }
    let ax = -x;
    // |ln ax| ≤ (|ilogb(ax)| + 1) ln 2.
    let log_bound = f64::from(libm::ilogb(ax).unsigned_abs() + 1) * core::f64::consts::LN_2;
    let bound = if ax >= 1.0 { ax * log_bound } else { log_bound } + 0.2;
    if 64.0 * y.abs() < bound {
        return None;
    }
    narrow_if_clear::<F>(y).map(|v| (v, sign))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 1 + 2^-24 is the midpoint between the floats 1 and 1 + 2^-23.
    const MIDPOINT: f64 = 1.0 + 1.0 / 16777216.0;

    #[test]
    fn clear_results_take_the_fast_value() {
        // 1.25 + 2^-30 is far from any float midpoint: rounded to 1.25 without `accurate`.
        let fast = |_x: f64| 1.25 + 2f64.powi(-30);
        let accurate = |_x: f64| -> f64 { unreachable!("the fast value is clear") };
        assert_eq!(fast_then_accurate(0.0, fast, accurate), 1.25);
    }

    #[test]
    fn near_midpoint_or_overflow_threshold_the_accurate_function_decides() {
        // Within 2^12 f64 ulps of the midpoint: the accurate value (a hair above) rounds up.
        let near = |_x: f64| MIDPOINT - 1000.0 * 2f64.powi(-52);
        let above = |_x: f64| MIDPOINT + 2f64.powi(-52);
        assert_eq!(fast_then_accurate(0.0, near, above), 1.0 + 2f32.powi(-23));
        // Clearly beyond the largest float: ∞ without the accurate function; at the overflow
        // threshold FLT_MAX + half an ulp (a midpoint), the accurate value decides.
        let huge = |_x: f64| 1e39;
        let unused = |_x: f64| -> f64 { unreachable!("the fast value is clear") };
        assert_eq!(fast_then_accurate(0.0, huge, unused), f32::INFINITY);
        let threshold = |_x: f64| f64::from(f32::MAX) + 2f64.powi(103);
        let max = |_x: f64| f64::from(f32::MAX);
        assert_eq!(fast_then_accurate(0.0, threshold, max), f32::MAX);
    }

    #[test]
    fn subnormal_and_vanishing_results_use_the_general_test() {
        let accurate = |_x: f64| -> f64 { unreachable!("the fast value is clear") };
        // 2.3 half subnormal spacings (2^-24): clearly 2 spacings.
        let sub = |_x: f64| 2.3 * 2f64.powi(-24);
        assert_eq!(
            fast_then_accurate_f16(0.0, sub, accurate),
            half::f16::from_bits(2)
        );
        // A tenth of the float subnormal spacing: clearly +0.
        let vanishing = |_x: f64| 0.1 * 2f64.powi(-149);
        assert_eq!(fast_then_accurate(0.0, vanishing, accurate).to_bits(), 0);
        // 2.5 spacings is a midpoint: the accurate value (a hair below) rounds down to 2.
        let tie = |_x: f64| 2.5 * 2f64.powi(-149);
        let below = |_x: f64| 2.4999 * 2f64.powi(-149);
        assert_eq!(fast_then_accurate(0.0, tie, below), f32::from_bits(2));
    }

    #[test]
    fn subnormal_results_are_tested_on_the_subnormal_grid() {
        let s = 2f64.powi(-149); // the float subnormal spacing
        let ulp = |y: f64| f64::from_bits(y.to_bits() + 1) - y;
        let mid = 2.5 * s; // between the floats 2s and 3s
                           // Within the margin of the midpoint (either side): ambiguous.
        assert_eq!(f64_to_f32_if_clear(mid, 16), None);
        assert_eq!(f64_to_f32_if_clear(mid + 10.0 * ulp(mid), 16), None);
        assert_eq!(f64_to_f32_if_clear(mid - 10.0 * ulp(mid), 16), None);
        // 2^-150, the midpoint between 0 and the smallest float, and just below it.
        let least_mid = 2f64.powi(-150);
        assert_eq!(f64_to_f32_if_clear(least_mid, 16), None);
        assert_eq!(
            f64_to_f32_if_clear(least_mid - 3.0 * ulp(least_mid), 16),
            None
        );
        // Clear of every midpoint: rounded (2.3 s to 2 s, 2.7 s to 3 s, a float itself, 0).
        assert_eq!(f64_to_f32_if_clear(2.3 * s, 16), Some(f32::from_bits(2)));
        assert_eq!(f64_to_f32_if_clear(-2.7 * s, 16), Some(-f32::from_bits(3)));
        assert_eq!(
            f64_to_f32_if_clear(0x12345 as f64 * s, 16),
            Some(f32::from_bits(0x12345))
        );
        assert_eq!(f64_to_f32_if_clear(0.1 * s, 16), Some(0.0));
        // The largest subnormal spacing's midpoint, just below the normal range: 2^-126 - s/2.
        let top = f64::from(f32::MIN_POSITIVE) - 0.5 * s;
        assert_eq!(f64_to_f32_if_clear(top + ulp(top), 16), None);
        // The overflow threshold FLT_MAX + half an ulp (2^128 - 2^103), which rounds to ∞.
        let threshold = f64::from(f32::MAX) + 2f64.powi(103);
        assert_eq!(f64_to_f32_if_clear(threshold + ulp(threshold), 16), None);
        assert_eq!(f64_to_f32_if_clear(1e39, 16), Some(f32::INFINITY));
    }

    #[test]
    fn double_doubles_round_once_to_subnormal_and_overflowing_floats() {
        let s = 2f64.powi(-149);
        let dd = |hi: f64, lo: f64| Dd { hi, lo };
        // On a subnormal midpoint, the low part decides: 2.5 s ± tiny.
        assert_eq!(dd_to_f32(dd(2.5 * s, 1e-300)), f32::from_bits(3));
        assert_eq!(dd_to_f32(dd(2.5 * s, -1e-300)), f32::from_bits(2));
        assert_eq!(dd_to_f32(dd(2.5 * s, 0.0)), f32::from_bits(2)); // a tie: to even
                                                                    // 2^-150 ± tiny: the smallest float or zero (its sign kept).
        assert_eq!(dd_to_f32(dd(0.5 * s, 1e-300)), f32::from_bits(1));
        assert_eq!(dd_to_f32(dd(0.5 * s, -1e-300)).to_bits(), 0);
        assert_eq!(dd_to_f32(dd(-0.5 * s, -1e-300)), -f32::from_bits(1));
        assert_eq!(dd_to_f32(dd(-0.5 * s, 0.0)).to_bits(), 0x8000_0000);
        // The overflow threshold ± tiny: ∞ at and above it, the largest float below.
        let threshold = f64::from(f32::MAX) + 2f64.powi(103);
        assert_eq!(dd_to_f32(dd(threshold, 1e-300)), f32::INFINITY);
        assert_eq!(dd_to_f32(dd(threshold, 0.0)), f32::INFINITY);
        assert_eq!(dd_to_f32(dd(threshold, -1e-300)), f32::MAX);
    }

    #[test]
    fn half_results_round_once() {
        let up = half::f16::from_bits(0x3c01); // 1 + 2^-10
                                               // 1 + 2^-11 + 2^-38: above the midpoint 1 + 2^-11 by 2^14 f64 ulps, so clear, and it
                                               // rounds up; through f32 first (which keeps 23 bits) it would become the midpoint
                                               // and round to even, down to 1.
        let clear = |_x: f64| 1.0 + 2f64.powi(-11) + 2f64.powi(-38);
        let accurate = |_x: f64| -> f64 { unreachable!("the fast value is clear") };
        assert_eq!(fast_then_accurate_f16(0.0, clear, accurate), up);
        // Within the margin: the accurate value decides.
        let near = |_x: f64| 1.0 + 2f64.powi(-11) - 2f64.powi(-45);
        let above = |_x: f64| 1.0 + 2f64.powi(-11) + 2f64.powi(-52);
        assert_eq!(fast_then_accurate_f16(0.0, near, above), up);
    }
}
