//! The three OpenCL floating-point types checked (`half`, `float`, `double`): their binary
//! layout, correct rounding into them (from `f64` and from an MPFR value), and their bit patterns.
//! Values of every type are carried as `f64`, which holds each of them exactly.

use devlib::Float as _;
use half::f16;
use rug::float::Round;
use rug::Float;

/// An OpenCL floating-point scalar type.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    Half,
    Float,
    Double,
}

impl Kind {
    /// All three, in the order reports list them.
    pub const ALL: [Kind; 3] = [Kind::Float, Kind::Double, Kind::Half];

    /// The OpenCL C name: `half`, `float`, `double`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Half => "half",
            Kind::Float => "float",
            Kind::Double => "double",
        }
    }

    /// The type named `name` (`half`, `float`, `double`, or `f16`, `f32`, `f64`).
    pub fn parse(name: &str) -> Option<Kind> {
        match name {
            "half" | "f16" => Some(Kind::Half),
            "float" | "f32" => Some(Kind::Float),
            "double" | "f64" => Some(Kind::Double),
            _ => None,
        }
    }

    /// Stored mantissa bits: 10, 23, 52.
    pub fn mant_bits(self) -> u32 {
        match self {
            Kind::Half => f16::MANT_BITS,
            Kind::Float => f32::MANT_BITS,
            Kind::Double => f64::MANT_BITS,
        }
    }

    /// Total bits: 16, 32, 64.
    pub fn bits(self) -> u32 {
        match self {
            Kind::Half => 16,
            Kind::Float => 32,
            Kind::Double => 64,
        }
    }

    /// The exponent bias: 15, 127, 1023.
    pub fn bias(self) -> i32 {
        match self {
            Kind::Half => 15,
            Kind::Float => 127,
            Kind::Double => 1023,
        }
    }

    /// Precision of the MPFR references: 64 bits more than the type, so an error is measured
    /// to within 2^-60 ulp.
    pub fn reference_precision(self) -> u32 {
        self.mant_bits() + 1 + 64
    }

    /// The largest finite value.
    pub fn max_finite(self) -> f64 {
        self.from_bits(self.exp_mask() - 1)
    }

    /// The smallest positive normal value.
    pub fn min_normal(self) -> f64 {
        self.from_bits(1 << self.mant_bits())
    }

    /// The smallest positive subnormal value.
    pub fn min_subnormal(self) -> f64 {
        self.from_bits(1)
    }

    fn exp_mask(self) -> u64 {
        let exp_bits = self.bits() - 1 - self.mant_bits();
        ((1u64 << exp_bits) - 1) << self.mant_bits()
    }

    /// The value with bit pattern `bits` (low bits used), widened to `f64`.
    pub fn from_bits(self, bits: u64) -> f64 {
        match self {
            Kind::Half => f16::from_bits(bits as u16).to_f64(),
            Kind::Float => f64::from(f32::from_bits(bits as u32)),
            Kind::Double => f64::from_bits(bits),
        }
    }

    /// The bit pattern of `x` (a value of this type) in this type.
    pub fn to_bits(self, x: f64) -> u64 {
        match self {
            Kind::Half => <f16 as devlib::Float>::from_f64(x).to_bits_u64(),
            Kind::Float => u64::from((x as f32).to_bits()),
            Kind::Double => x.to_bits(),
        }
    }

    /// `x` rounded to nearest even into this type (overflow to ±∞, gradual underflow).
    pub fn round(self, x: f64) -> f64 {
        match self {
            Kind::Half => <f16 as devlib::Float>::from_f64(x).to_f64(),
            Kind::Float => f64::from(x as f32),
            Kind::Double => x,
        }
    }

    /// The MPFR value `r` correctly rounded (to nearest even) into this type. For `half` and
    /// `float` it is first rounded to odd at 53 bits, which makes the second rounding correct
    /// (53 ≥ 24 + 2).
    pub fn round_mp(self, r: &Float) -> f64 {
        match self {
            Kind::Double => r.to_f64(),
            Kind::Half | Kind::Float => self.round(round_to_odd_f64(r)),
        }
    }

    /// Whether `x` is a value of this type.
    pub fn holds(self, x: f64) -> bool {
        x.is_nan() || self.round(x) == x
    }
}

/// `r` rounded to 53 bits with round-to-odd: truncate, and set the last bit when inexact.
fn round_to_odd_f64(r: &Float) -> f64 {
    let truncated = r.to_f64_round(Round::Zero);
    if r.is_nan() || r.is_infinite() || *r == truncated {
        return truncated;
    }
    f64::from_bits(truncated.to_bits() | 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_constants_match_ieee() {
        assert_eq!(Kind::Float.max_finite(), f64::from(f32::MAX));
        assert_eq!(Kind::Half.max_finite(), 65504.0);
        assert_eq!(Kind::Half.min_subnormal(), 2f64.powi(-24));
        assert_eq!(Kind::Float.min_normal(), f64::from(f32::MIN_POSITIVE));
        assert_eq!(Kind::Double.min_subnormal(), 5e-324);
    }

    #[test]
    fn mpfr_values_round_correctly_near_ties() {
        // 1 + 2^-11 is the tie between the half values 1 and 1 + 2^-10; a hair above it must
        // round up, which a plain f64 double rounding would not do at 2^-11 + 2^-70.
        let above = Float::with_val(200, 1.0)
            + Float::with_val(200, 2f64.powi(-11))
            + Float::with_val(200, 2f64.powi(-70));
        assert_eq!(Kind::Half.round_mp(&above), 1.0 + 2f64.powi(-10));
        let tie = Float::with_val(200, 1.0) + Float::with_val(200, 2f64.powi(-11));
        assert_eq!(Kind::Half.round_mp(&tie), 1.0);
        let float_tie = Float::with_val(200, 1.0)
            + Float::with_val(200, 2f64.powi(-24))
            + Float::with_val(200, 2f64.powi(-90));
        assert_eq!(Kind::Float.round_mp(&float_tie), 1.0 + 2f64.powi(-23));
        // Overflow and subnormals.
        assert_eq!(
            Kind::Half.round_mp(&Float::with_val(64, 65520.0)),
            f64::INFINITY
        );
        assert_eq!(Kind::Half.round_mp(&Float::with_val(64, 65519.0)), 65504.0);
        assert_eq!(
            Kind::Float.round_mp(&Float::with_val(64, 1.5 * 2f64.powi(-149))),
            2.0 * 2f64.powi(-149)
        );
    }
}
