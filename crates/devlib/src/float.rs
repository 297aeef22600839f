//! The `Float` trait: the three OpenCL floating-point scalar types (`half::f16`, `f32`, `f64`)
//! described by their IEEE-754 binary layout, with exact widening to `f64` and correctly rounded
//! narrowing from it. Generic code in this crate (geometric, common, relational, bit-level math)
//! is written once over this trait.

use crate::convert::f64_to_f16_rne_bits;
use half::f16;

/// An IEEE-754 binary floating-point scalar type.
pub trait Float: Copy + PartialEq + PartialOrd + core::fmt::Debug + Default + 'static {
    /// Number of explicitly stored mantissa (fraction) bits: 10, 23 or 52.
    const MANT_BITS: u32;
    /// Number of exponent bits: 5, 8 or 11.
    const EXP_BITS: u32;
    /// The bit pattern, zero-extended to `u64`.
    fn to_bits_u64(self) -> u64;
    /// The value whose bit pattern is the low bits of `bits`.
    fn from_bits_u64(bits: u64) -> Self;
    /// Exact widening to `f64` (every value of every format is representable in `f64`).
    fn to_f64(self) -> f64;
    /// Narrowing from `f64`, correctly rounded to nearest even (overflow gives ±∞).
    fn from_f64(x: f64) -> Self;

    /// Total number of bits of the format.
    fn bits() -> u32 {
        1 + Self::EXP_BITS + Self::MANT_BITS
    }
    /// The exponent bias (15, 127, 1023).
    fn bias() -> i32 {
        (1 << (Self::EXP_BITS - 1)) - 1
    }
    /// Mask of the sign bit.
    fn sign_mask() -> u64 {
        1u64 << (Self::EXP_BITS + Self::MANT_BITS)
    }
    /// Mask of the exponent field.
    fn exp_mask() -> u64 {
        ((1u64 << Self::EXP_BITS) - 1) << Self::MANT_BITS
    }
    /// Mask of the mantissa field.
    fn mant_mask() -> u64 {
        (1u64 << Self::MANT_BITS) - 1
    }
    /// Positive zero.
    fn zero() -> Self {
        Self::from_bits_u64(0)
    }
    /// One.
    fn one() -> Self {
        Self::from_f64(1.0)
    }
}

impl Float for f64 {
    const MANT_BITS: u32 = 52;
    const EXP_BITS: u32 = 11;
    fn to_bits_u64(self) -> u64 {
        self.to_bits()
    }
    fn from_bits_u64(bits: u64) -> Self {
        f64::from_bits(bits)
    }
    fn to_f64(self) -> f64 {
        self
    }
    fn from_f64(x: f64) -> Self {
        x
    }
}

impl Float for f32 {
    const MANT_BITS: u32 = 23;
    const EXP_BITS: u32 = 8;
    fn to_bits_u64(self) -> u64 {
        u64::from(self.to_bits())
    }
    fn from_bits_u64(bits: u64) -> Self {
        f32::from_bits(bits as u32)
    }
    fn to_f64(self) -> f64 {
        f64::from(self)
    }
    fn from_f64(x: f64) -> Self {
        // Rust's `as` from f64 to f32 is IEEE round-to-nearest-even.
        x as f32
    }
}

impl Float for f16 {
    const MANT_BITS: u32 = 10;
    const EXP_BITS: u32 = 5;
    fn to_bits_u64(self) -> u64 {
        u64::from(self.to_bits())
    }
    fn from_bits_u64(bits: u64) -> Self {
        f16::from_bits(bits as u16)
    }
    fn to_f64(self) -> f64 {
        // Exact: every binary16 value is a binary64 value.
        f64::from(self.to_f32())
    }
    fn from_f64(x: f64) -> Self {
        // Not `half::f16::from_f64`: its software path drops the low 32 mantissa bits before
        // rounding, so it is not correctly rounded near ties.
        f16::from_bits(f64_to_f16_rne_bits(x))
    }
}
