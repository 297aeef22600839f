//! Math functions written once over [`Float`]: those that work on the bit pattern (nan,
//! nextafter, classification), those exact in any format (computed in `f64` and narrowed without
//! rounding), the common functions (OpenCL C 2.0 §6.13.4) and the relational predicates (§6.13.6).

use crate::float::Float;

pub(crate) fn is_nan<F: Float>(x: F) -> bool {
    let b = x.to_bits_u64();
    b & F::exp_mask() == F::exp_mask() && b & F::mant_mask() != 0
}

pub(crate) fn is_inf<F: Float>(x: F) -> bool {
    x.to_bits_u64() & !F::sign_mask() == F::exp_mask()
}

pub(crate) fn is_finite<F: Float>(x: F) -> bool {
    x.to_bits_u64() & F::exp_mask() != F::exp_mask()
}

pub(crate) fn is_normal<F: Float>(x: F) -> bool {
    let e = x.to_bits_u64() & F::exp_mask();
    e != 0 && e != F::exp_mask()
}

pub(crate) fn signbit<F: Float>(x: F) -> bool {
    x.to_bits_u64() & F::sign_mask() != 0
}

pub(crate) fn fabs<F: Float>(x: F) -> F {
    F::from_bits_u64(x.to_bits_u64() & !F::sign_mask())
}

pub(crate) fn copysign<F: Float>(x: F, y: F) -> F {
    F::from_bits_u64((x.to_bits_u64() & !F::sign_mask()) | (y.to_bits_u64() & F::sign_mask()))
}

/// A quiet NaN whose mantissa carries the low bits of `payload` (the quiet bit always set).
pub(crate) fn nan<F: Float>(payload: u64) -> F {
    let quiet = 1u64 << (F::MANT_BITS - 1);
    F::from_bits_u64(F::exp_mask() | quiet | (payload & F::mant_mask()))
}

/// C99 nextafter; `nextafter(±0, y > 0)` is the smallest positive subnormal (002 edge cases).
pub(crate) fn nextafter<F: Float>(x: F, y: F) -> F {
    if is_nan(x) {
        return x;
    }
    if is_nan(y) {
        return y;
    }
    let (xf, yf) = (x.to_f64(), y.to_f64());
    if xf == yf {
        return y;
    }
    if xf == 0.0 {
        let tiny = F::from_bits_u64(1);
        return if yf > 0.0 {
            tiny
        } else {
            F::from_bits_u64(F::sign_mask() | 1)
        };
    }
    let bits = x.to_bits_u64();
    // Moving away from zero increments the magnitude bits.
    let away = (yf > xf) == (xf > 0.0);
    F::from_bits_u64(if away { bits + 1 } else { bits - 1 })
}

/// C99 fmax: a NaN operand is ignored; fmax(-0, +0) = +0.
pub(crate) fn fmax<F: Float>(x: F, y: F) -> F {
    if is_nan(x) {
        return y;
    }
    if is_nan(y) {
        return x;
    }
    let (xf, yf) = (x.to_f64(), y.to_f64());
    if xf > yf || (xf == yf && !signbit(x)) {
        x
    } else {
        y
    }
}

/// C99 fmin: a NaN operand is ignored; fmin(-0, +0) = -0.
pub(crate) fn fmin<F: Float>(x: F, y: F) -> F {
    if is_nan(x) {
        return y;
    }
    if is_nan(y) {
        return x;
    }
    let (xf, yf) = (x.to_f64(), y.to_f64());
    if xf < yf || (xf == yf && signbit(x)) {
        x
    } else {
        y
    }
}

/// OpenCL maxmag: x if |x| > |y|, y if |y| > |x|, otherwise fmax(x, y).
pub(crate) fn maxmag<F: Float>(x: F, y: F) -> F {
    let (ax, ay) = (fabs(x).to_f64(), fabs(y).to_f64());
    if ax > ay {
        x
    } else if ay > ax {
        y
    } else {
        fmax(x, y)
    }
}

/// OpenCL minmag: x if |x| < |y|, y if |y| < |x|, otherwise fmin(x, y).
pub(crate) fn minmag<F: Float>(x: F, y: F) -> F {
    let (ax, ay) = (fabs(x).to_f64(), fabs(y).to_f64());
    if ax < ay {
        x
    } else if ay < ax {
        y
    } else {
        fmin(x, y)
    }
}

/// The largest value of `F` below 1.0 (0x1.fffffep-1 for float).
fn one_minus_ulp<F: Float>() -> F {
    F::from_bits_u64(F::one().to_bits_u64() - 1)
}

/// OpenCL fract: `fmin(x - floor(x), 0x1.fffffep-1f)` with the 002 edge cases.
pub(crate) fn fract<F: Float>(x: F) -> (F, F) {
    if is_nan(x) {
        return (x, x);
    }
    if is_inf(x) {
        return (copysign(F::zero(), x), x);
    }
    let xf = x.to_f64();
    let fl = xf.floor();
    let frac = F::from_f64(xf - fl);
    let frac = if frac.to_f64() >= 1.0 {
        one_minus_ulp()
    } else {
        frac
    };
    // fract(-0) = -0 (002): x - floor(x) is +0 there.
    let frac = if xf == 0.0 { x } else { frac };
    (frac, F::from_f64(fl))
}

/// OpenCL modf, defined in 002 "Changes to ISO/IEC 9899: TC2 Behavior".
pub(crate) fn modf<F: Float>(x: F) -> (F, F) {
    let ip = x.to_f64().trunc();
    let frac = if is_inf(x) { 0.0 } else { x.to_f64() - ip };
    (copysign(F::from_f64(frac), x), F::from_f64(ip))
}

/// C99 frexp; 002: frexp(±∞) = ±∞ and frexp(NaN) = NaN with exponent 0.
pub(crate) fn frexp<F: Float>(x: F) -> (F, i32) {
    let xf = x.to_f64();
    if xf == 0.0 || !xf.is_finite() {
        return (x, 0);
    }
    let (m, e) = libm::frexp(xf);
    (F::from_f64(m), e)
}

/// FP_ILOGB0 of OpenCL C (clang's opencl-c-base.h: INT_MIN).
pub const FP_ILOGB0: i32 = i32::MIN;
/// FP_ILOGBNAN of OpenCL C (clang's opencl-c-base.h: INT_MAX).
pub const FP_ILOGBNAN: i32 = i32::MAX;

/// C99 ilogb with OpenCL's FP_ILOGB0/FP_ILOGBNAN; ilogb(±∞) = INT_MAX.
pub(crate) fn ilogb<F: Float>(x: F) -> i32 {
    let xf = x.to_f64();
    if xf.is_nan() {
        FP_ILOGBNAN
    } else if xf == 0.0 {
        FP_ILOGB0
    } else if xf.is_infinite() {
        i32::MAX
    } else {
        libm::frexp(xf).1 - 1
    }
}

/// C99 logb: logb(±0) = -∞, logb(±∞) = +∞.
pub(crate) fn logb<F: Float>(x: F) -> F {
    let xf = x.to_f64();
    if xf.is_nan() {
        x
    } else if xf == 0.0 {
        F::from_f64(f64::NEG_INFINITY)
    } else if xf.is_infinite() {
        F::from_f64(f64::INFINITY)
    } else {
        F::from_f64(f64::from(libm::frexp(xf).1 - 1))
    }
}

/// The value `f(x)` computed in `f64`, rounded once to `F`.
pub(crate) fn via_f64_unary<F: Float>(x: F, f: fn(f64) -> f64) -> F {
    F::from_f64(f(x.to_f64()))
}

/// The value `f(x, y)` computed in `f64`, rounded once to `F`.
pub(crate) fn via_f64_binary<F: Float>(x: F, y: F, f: fn(f64, f64) -> f64) -> F {
    F::from_f64(f(x.to_f64(), y.to_f64()))
}

// ----- Common functions (OpenCL C 2.0 §6.13.4) -----

/// clamp: `fmin(fmax(x, minval), maxval)`.
pub(crate) fn clamp<F: Float>(x: F, minval: F, maxval: F) -> F {
    fmin(fmax(x, minval), maxval)
}

/// sign: 1.0 for x > 0, -1.0 for x < 0, ±0 for ±0, 0.0 for NaN.
pub(crate) fn sign<F: Float>(x: F) -> F {
    let xf = x.to_f64();
    if xf.is_nan() {
        F::zero()
    } else if xf > 0.0 {
        F::one()
    } else if xf < 0.0 {
        F::from_f64(-1.0)
    } else {
        x
    }
}

/// step: 0.0 if x < edge, otherwise 1.0.
pub(crate) fn step<F: Float>(edge: F, x: F) -> F {
    if x.to_f64() < edge.to_f64() {
        F::zero()
    } else {
        F::one()
    }
}

/// smoothstep: Hermite interpolation `t*t*(3-2t)`, `t = clamp((x-e0)/(e1-e0), 0, 1)`, in
/// double-double (both differences exact, the quotient and the cubic to about 2^-100) and
/// rounded once, so that `double` is within 1 ulp (4.1 ulp with each step rounded); the plain
/// formula where a difference overflows or an argument is not finite (undefined there).
pub(crate) fn smoothstep<F: Float>(edge0: F, edge1: F, x: F) -> F {
    use crate::math::dd::{two_sum, Dd};
    let (e0, e1, xf) = (edge0.to_f64(), edge1.to_f64(), x.to_f64());
    let (n, d) = (two_sum(xf, -e0), two_sum(e1, -e0));
    let t0 = n.hi / d.hi;
    // Outside (0, 2) (also an overflowing quotient, or a non-finite or reversed edge) the
    // clamp decides, or the result is undefined: the plain formula.
    if !(n.hi.is_finite() && d.hi.is_finite() && d.hi > 0.0 && t0 > 0.0 && t0 < 2.0) {
        let t = ((xf - e0) / (e1 - e0)).clamp(0.0, 1.0);
        return F::from_f64(t * t * (3.0 - 2.0 * t));
    }
    let t = n.div(d);
    if t.hi <= 0.0 {
        return F::from_f64(0.0);
    }
    if t.hi > 1.0 || (t.hi == 1.0 && t.lo >= 0.0) {
        return F::from_f64(1.0);
    }
    let w = Dd::from_f64(3.0).sub(t.mul_pow2(2.0));
    if t.hi < 1e-150 {
        // t² near or below the subnormal range: the square of t × 2^600 (exact scaling), so
        // that no low part underflows; the scaling back rounds only a subnormal result again.
        let ts = t.mul_pow2(libm::scalbn(1.0, 600));
        let v = ts.mul(ts).mul(w);
        return F::from_f64(libm::scalbn(v.to_f64(), -1200));
    }
    F::from_f64(t.mul(t).mul(w).to_f64())
}

/// mix: `x + (y - x) * a`, with `y - x` kept exact (double-double) and the product added by
/// fma, so that `double` does not lose accuracy to cancellation; overflow of `y - x` gives
/// what the spec's formula gives.
pub(crate) fn mix<F: Float>(x: F, y: F, a: F) -> F {
    let (xf, yf, af) = (x.to_f64(), y.to_f64(), a.to_f64());
    let d = crate::math::dd::two_sum(yf, -xf);
    if !d.hi.is_finite() {
        return F::from_f64(xf + d.hi * af);
    }
    let r = d.hi.mul_add(af, xf);
    // (Adding a zero tail would turn a -0 result into +0.)
    F::from_f64(if d.lo == 0.0 { r } else { r + d.lo * af })
}

/// degrees: `(180 / π) × r`.
pub(crate) fn degrees<F: Float>(r: F) -> F {
    F::from_f64(r.to_f64() * (180.0 / core::f64::consts::PI))
}

/// radians: `(π / 180) × d`.
pub(crate) fn radians<F: Float>(d: F) -> F {
    F::from_f64(d.to_f64() * (core::f64::consts::PI / 180.0))
}

// ----- Relational predicates (OpenCL C 2.0 §6.13.6) -----

pub(crate) fn isequal<F: Float>(x: F, y: F) -> bool {
    x.to_f64() == y.to_f64()
}
pub(crate) fn isnotequal<F: Float>(x: F, y: F) -> bool {
    x.to_f64() != y.to_f64()
}
pub(crate) fn isgreater<F: Float>(x: F, y: F) -> bool {
    x.to_f64() > y.to_f64()
}
pub(crate) fn isgreaterequal<F: Float>(x: F, y: F) -> bool {
    x.to_f64() >= y.to_f64()
}
pub(crate) fn isless<F: Float>(x: F, y: F) -> bool {
    x.to_f64() < y.to_f64()
}
pub(crate) fn islessequal<F: Float>(x: F, y: F) -> bool {
    x.to_f64() <= y.to_f64()
}
pub(crate) fn islessgreater<F: Float>(x: F, y: F) -> bool {
    let (a, b) = (x.to_f64(), y.to_f64());
    // Not `a != b`: that is true for NaN operands.
    matches!(
        a.partial_cmp(&b),
        Some(core::cmp::Ordering::Less | core::cmp::Ordering::Greater)
    )
}
pub(crate) fn isordered<F: Float>(x: F, y: F) -> bool {
    !is_nan(x) && !is_nan(y)
}
pub(crate) fn isunordered<F: Float>(x: F, y: F) -> bool {
    is_nan(x) || is_nan(y)
}

/// bitselect: `(a & !c) | (b & c)` on the bit patterns.
pub(crate) fn bitselect<F: Float>(a: F, b: F, c: F) -> F {
    let (a, b, c) = (a.to_bits_u64(), b.to_bits_u64(), c.to_bits_u64());
    F::from_bits_u64((a & !c) | (b & c))
}
