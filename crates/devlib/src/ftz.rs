//! Flush-to-zero helpers, used when a device does not support denormals for a type
//! (numerical compliance "INF, NaN, and Denormalized Numbers", "Edge Case Behavior in Flush To
//! Zero Mode": a flushed operand or result becomes a zero whose sign is undefined; oxcl keeps the
//! sign).

use crate::float::Float;
use half::f16;

/// Replaces a subnormal `x` by a zero of the same sign; every other value is returned unchanged.
pub fn ftz<F: Float>(x: F) -> F {
    let bits = x.to_bits_u64();
    if bits & F::exp_mask() == 0 && bits & F::mant_mask() != 0 {
        F::from_bits_u64(bits & F::sign_mask())
    } else {
        x
    }
}

/// [`ftz`] for `f32`.
pub fn ftz_f32(x: f32) -> f32 {
    ftz(x)
}

/// [`ftz`] for `f64` (OpenCL requires denormals for double; provided for completeness).
pub fn ftz_f64(x: f64) -> f64 {
    ftz(x)
}

/// [`ftz`] for `f16`.
pub fn ftz_f16(x: f16) -> f16 {
    ftz(x)
}
