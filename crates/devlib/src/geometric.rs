//! Geometric functions of OpenCL C 2.0 §6.13.5 over slices (vectors of 1 to 4 components, any
//! length works) for every [`Float`] type.
//!
//! All sums are evaluated in `f64` and rounded once to the element type; `dot` and `cross`
//! rescale where a `double` product overflows before the result does. `length`, `distance`
//! and `normalize` scale by a power of two first, so they neither overflow nor lose precision to
//! underflow (002 edge cases for distance, length, normalize). The `fast_*` variants are allowed
//! to be less accurate; oxcl computes them like the accurate ones.

use crate::float::Float;

/// Sum of products, computed in f64 with fused multiply-adds, rounded once.
/// Extra components of the longer slice are ignored.
pub fn dot<F: Float>(a: &[F], b: &[F]) -> F {
    let pairs = a.iter().zip(b).map(|(x, y)| (x.to_f64(), y.to_f64()));
    let acc = pairs.clone().fold(0.0f64, |acc, (x, y)| x.mul_add(y, acc));
    if acc.is_finite() {
        return F::from_f64(acc);
    }
    F::from_f64(sum_of_products_wide(pairs))
}

/// Σ x·y when the plain f64 sum is not finite: an intermediate overflow (only `double`
/// products can overflow) or infinite inputs. The finite products are summed with both
/// vectors scaled to magnitudes below 2, nearly exactly, and scaled back once, so only a
/// result beyond the range overflows; the infinite products follow the rules of ∞ arithmetic (∞ · 0 and
/// ∞ − ∞ are NaN), as the infinitely precise result does.
fn sum_of_products_wide(pairs: impl Iterator<Item = (f64, f64)> + Clone) -> f64 {
    let (mut pos_inf, mut neg_inf, mut nan) = (false, false, false);
    let (mut ex, mut ey) = (i32::MIN, i32::MIN);
    for (x, y) in pairs.clone() {
        if x.is_finite() && y.is_finite() {
            if x != 0.0 && y != 0.0 {
                ex = ex.max(libm::ilogb(x));
                ey = ey.max(libm::ilogb(y));
            }
            continue;
        }
        let p = x * y; // NaN for a NaN factor or ∞ · 0, otherwise ±∞
        if p.is_nan() {
            nan = true;
        } else if p > 0.0 {
            pos_inf = true;
        } else {
            neg_inf = true;
        }
    }
    if nan || (pos_inf && neg_inf) {
        return f64::NAN;
    }
    if pos_inf || neg_inf {
        return if pos_inf {
            f64::INFINITY
        } else {
            f64::NEG_INFINITY
        };
    }
    if ex == i32::MIN {
        return 0.0; // every finite product is zero (unreachable for a non-finite plain sum)
    }
    // Exact scaled products (hi + lo by fma) summed with Neumaier's compensation: products
    // that cancel give exactly 0, not the rounding error of one of them (which, scaled back,
    // could itself overflow).
    let (mut sum, mut compensation) = (0.0f64, 0.0f64);
    for (x, y) in pairs {
        let (x, y) = (libm::scalbn(x, -ex), libm::scalbn(y, -ey));
        let hi = x * y;
        let lo = x.mul_add(y, -hi);
        for t in [hi, lo] {
            let s = sum + t;
            compensation += if sum.abs() >= t.abs() {
                (sum - s) + t
            } else {
                (t - s) + sum
            };
            sum = s;
        }
    }
    libm::scalbn(sum + compensation, ex + ey)
}

/// `a*b - c*d` with Kahan's fma trick (about 1.5 ulp of f64); without overflow in the
/// intermediate products, and with the infinitely precise result's ∞ and NaN.
fn diff_of_products(a: f64, b: f64, c: f64, d: f64) -> f64 {
    let w = c * d;
    let e = (-c).mul_add(d, w);
    let f = a.mul_add(b, -w);
    let r = f + e;
    if r.is_finite() {
        return r;
    }
    sum_of_products_wide([(a, b), (-c, d)].into_iter())
}

/// Cross product of 3-component vectors.
pub fn cross3<F: Float>(a: &[F; 3], b: &[F; 3]) -> [F; 3] {
    let [a0, a1, a2] = a.map(Float::to_f64);
    let [b0, b1, b2] = b.map(Float::to_f64);
    [
        F::from_f64(diff_of_products(a1, b2, a2, b1)),
        F::from_f64(diff_of_products(a2, b0, a0, b2)),
        F::from_f64(diff_of_products(a0, b1, a1, b0)),
    ]
}

/// Cross product of 4-component vectors: the `w` component of the result is 0.
pub fn cross4<F: Float>(a: &[F; 4], b: &[F; 4]) -> [F; 4] {
    let [x, y, z] = cross3(&[a[0], a[1], a[2]], &[b[0], b[1], b[2]]);
    [x, y, z, F::zero()]
}

/// What a vector of f64 components needs before its Euclidean norm can be scaled.
enum NormInput {
    AnyNan,
    AnyInf,
    AllZero,
    /// The exponent `e` such that the largest magnitude is in [2^e, 2^(e+1)).
    Finite(i32),
}

fn classify(components: impl Iterator<Item = f64>) -> NormInput {
    let mut max_abs = 0.0f64;
    let mut any_nan = false;
    let mut any_inf = false;
    for c in components {
        if c.is_nan() {
            any_nan = true;
        } else if c.is_infinite() {
            any_inf = true;
        } else {
            max_abs = max_abs.max(c.abs());
        }
    }
    if any_nan {
        NormInput::AnyNan
    } else if any_inf {
        NormInput::AnyInf
    } else if max_abs == 0.0 {
        NormInput::AllZero
    } else {
        NormInput::Finite(libm::ilogb(max_abs))
    }
}

/// sqrt(Σ (c × 2^-e)²) for finite components, largest magnitude in [2^e, 2^(e+1)).
fn scaled_norm(components: impl Iterator<Item = f64>, e: i32) -> f64 {
    components
        .map(|c| libm::scalbn(c, -e))
        .fold(0.0f64, |acc, s| s.mul_add(s, acc))
        .sqrt()
}

/// Euclidean norm in f64 (not rounded to the element type): ∞ if any component is infinite,
/// otherwise NaN if any is NaN.
fn norm_f64(components: impl Iterator<Item = f64> + Clone) -> f64 {
    // As C99 hypot: an infinite component wins over a NaN.
    if components.clone().any(f64::is_infinite) {
        return f64::INFINITY;
    }
    match classify(components.clone()) {
        NormInput::AnyInf => f64::INFINITY,
        NormInput::AnyNan => f64::NAN,
        NormInput::AllZero => 0.0,
        NormInput::Finite(e) => libm::scalbn(scaled_norm(components, e), e),
    }
}

/// Length of a vector, without overflow or underflow.
pub fn length<F: Float>(v: &[F]) -> F {
    F::from_f64(norm_f64(v.iter().map(|c| c.to_f64())))
}

/// Distance between two points, without overflow or underflow.
pub fn distance<F: Float>(p0: &[F], p1: &[F]) -> F {
    let diffs = p0.iter().zip(p1).map(|(a, b)| a.to_f64() - b.to_f64());
    let overflowed = p0.iter().zip(p1).any(|(a, b)| {
        let (a, b) = (a.to_f64(), b.to_f64());
        a.is_finite() && b.is_finite() && (a - b).is_infinite()
    });
    if overflowed {
        // Only f64 can overflow here; halve (exact for such large values) and double back.
        let halves = p0
            .iter()
            .zip(p1)
            .map(|(a, b)| a.to_f64() * 0.5 - b.to_f64() * 0.5);
        return F::from_f64(norm_f64(halves) * 2.0);
    }
    F::from_f64(norm_f64(diffs))
}

/// Unit vector in the direction of `v`, written to `out` (as long as `v`; if the lengths
/// differ only the common prefix is written).
/// 002: all-zero `v` is returned unchanged, any NaN gives all NaNs, infinite components count
/// as ±1 and the others as signed zeros.
pub fn normalize_into<F: Float>(v: &[F], out: &mut [F]) {
    let comps = v.iter().map(|c| c.to_f64());
    match classify(comps.clone()) {
        NormInput::AnyNan => out.iter_mut().for_each(|o| *o = F::from_f64(f64::NAN)),
        NormInput::AllZero => out.iter_mut().zip(v).for_each(|(o, c)| *o = *c),
        NormInput::AnyInf => {
            // 002: v[i] = isinf(v[i]) ? copysign(1.0, v[i]) : 0.0 * v[i]
            let replaced = comps.map(|c| {
                if c.is_infinite() {
                    1.0f64.copysign(c)
                } else {
                    0.0 * c
                }
            });
            let n = scaled_norm(replaced.clone(), 0);
            for (o, c) in out.iter_mut().zip(replaced) {
                *o = F::from_f64(c / n);
            }
        }
        NormInput::Finite(e) => {
            let n = scaled_norm(comps.clone(), e);
            for (o, c) in out.iter_mut().zip(comps) {
                *o = F::from_f64(libm::scalbn(c, -e) / n);
            }
        }
    }
}

/// Unit vector in the direction of `v` (see [`normalize_into`]).
pub fn normalize<F: Float>(v: &[F]) -> Vec<F> {
    let mut out = v.to_vec();
    normalize_into(v, &mut out);
    out
}

/// fast_length: computed as [`length`].
pub fn fast_length<F: Float>(v: &[F]) -> F {
    length(v)
}

/// fast_distance: computed as [`distance`].
pub fn fast_distance<F: Float>(p0: &[F], p1: &[F]) -> F {
    distance(p0, p1)
}

/// fast_normalize: computed as [`normalize`].
pub fn fast_normalize<F: Float>(v: &[F]) -> Vec<F> {
    normalize(v)
}

/// fast_normalize into `out`: computed as [`normalize_into`].
pub fn fast_normalize_into<F: Float>(v: &[F], out: &mut [F]) {
    normalize_into(v, out)
}
