//! Scalar conversions between every pair of OpenCL scalar types, with the four rounding modes and
//! saturation (OpenCL C 2.0 §6.2.3 "Explicit Conversions"; numerical compliance "Rounding Modes for
//! Conversions" and "Out-of-Range Conversions").
//!
//! Values travel as bit patterns zero-extended to `u64` (an `i8` of -1 is `0xFF`, an `f16` is its
//! 16-bit pattern). The arithmetic is exact: every source value is decoded to
//! `sign × integer × 2^exponent` and rounded once, so every result is correctly rounded in the
//! requested mode.
//!
//! Choices where the specification leaves freedom (documented, deterministic):
//! - Out-of-range float → integer without saturation is implementation-defined (compliance
//!   "Out-of-Range Conversions"); oxcl returns the saturated value (NaN → 0, clamp to the
//!   destination range), exactly as with `_sat`.
//! - Out-of-range integer → integer without saturation follows C99: two's-complement wrap-around
//!   (the low bits of the value).
//! - NaN → float keeps the sign and the top payload bits and sets the quiet bit.
//! - `saturate` has no effect when the destination is a floating-point type.

use half::f16;

/// An OpenCL scalar type, as far as conversions are concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScalarKind {
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
    F16,
    F32,
    F64,
}

impl ScalarKind {
    /// Width in bits.
    pub fn bits(self) -> u32 {
        match self {
            ScalarKind::I8 | ScalarKind::U8 => 8,
            ScalarKind::I16 | ScalarKind::U16 | ScalarKind::F16 => 16,
            ScalarKind::I32 | ScalarKind::U32 | ScalarKind::F32 => 32,
            ScalarKind::I64 | ScalarKind::U64 | ScalarKind::F64 => 64,
        }
    }
    /// True for `F16`, `F32`, `F64`.
    pub fn is_float(self) -> bool {
        matches!(self, ScalarKind::F16 | ScalarKind::F32 | ScalarKind::F64)
    }
    /// True for the signed integer kinds.
    pub fn is_signed_int(self) -> bool {
        matches!(
            self,
            ScalarKind::I8 | ScalarKind::I16 | ScalarKind::I32 | ScalarKind::I64
        )
    }
    fn float_format(self) -> Option<FloatFormat> {
        match self {
            ScalarKind::F16 => Some(F16_FORMAT),
            ScalarKind::F32 => Some(F32_FORMAT),
            ScalarKind::F64 => Some(F64_FORMAT),
            _ => None,
        }
    }
    /// (min, max) of an integer kind.
    fn int_range(self) -> (i128, i128) {
        let bits = self.bits();
        if self.is_signed_int() {
            (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
        } else {
            (0, (1i128 << bits) - 1)
        }
    }
}

/// IEEE-754 rounding direction (SPIR-V `FPRoundingMode`, OpenCL C `_rte/_rtz/_rtp/_rtn`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rounding {
    /// Round to nearest, ties to even.
    Rte,
    /// Round toward zero.
    Rtz,
    /// Round toward +∞.
    Rtp,
    /// Round toward -∞.
    Rtn,
}

/// Layout of an IEEE-754 binary format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FloatFormat {
    pub(crate) mant_bits: u32,
    pub(crate) exp_bits: u32,
}

pub(crate) const F16_FORMAT: FloatFormat = FloatFormat {
    mant_bits: 10,
    exp_bits: 5,
};
pub(crate) const F32_FORMAT: FloatFormat = FloatFormat {
    mant_bits: 23,
    exp_bits: 8,
};
pub(crate) const F64_FORMAT: FloatFormat = FloatFormat {
    mant_bits: 52,
    exp_bits: 11,
};

impl FloatFormat {
    fn bias(self) -> i32 {
        (1 << (self.exp_bits - 1)) - 1
    }
    fn sign_bit(self) -> u64 {
        1u64 << (self.mant_bits + self.exp_bits)
    }
    fn exp_all_ones(self) -> u64 {
        ((1u64 << self.exp_bits) - 1) << self.mant_bits
    }
    fn max_finite(self) -> u64 {
        self.exp_all_ones() - 1
    }
}

/// A floating-point value decoded exactly.
#[derive(Clone, Copy, Debug)]
enum Decoded {
    /// NaN; `payload` holds the mantissa bits left-aligned at bit 63.
    Nan {
        neg: bool,
        payload: u64,
    },
    Inf {
        neg: bool,
    },
    Zero {
        neg: bool,
    },
    /// `(-1)^neg × mant × 2^exp`, `mant` non-zero.
    Finite {
        neg: bool,
        mant: u64,
        exp: i32,
    },
}

fn decode(bits: u64, fmt: FloatFormat) -> Decoded {
    let neg = bits & fmt.sign_bit() != 0;
    let exp_field = ((bits >> fmt.mant_bits) & ((1u64 << fmt.exp_bits) - 1)) as i32;
    let mant = bits & ((1u64 << fmt.mant_bits) - 1);
    let all_ones = (1i32 << fmt.exp_bits) - 1;
    if exp_field == all_ones {
        if mant == 0 {
            Decoded::Inf { neg }
        } else {
            Decoded::Nan {
                neg,
                payload: mant << (64 - fmt.mant_bits),
            }
        }
    } else if exp_field == 0 {
        if mant == 0 {
            Decoded::Zero { neg }
        } else {
            Decoded::Finite {
                neg,
                mant,
                exp: 1 - fmt.bias() - fmt.mant_bits as i32,
            }
        }
    } else {
        Decoded::Finite {
            neg,
            mant: mant | (1u64 << fmt.mant_bits),
            exp: exp_field - fmt.bias() - fmt.mant_bits as i32,
        }
    }
}

/// Where the discarded part of a value lies relative to half a unit of the kept part.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Discarded {
    Zero,
    BelowHalf,
    Half,
    AboveHalf,
}

/// `mant >> shift` and the class of the bits shifted out (`shift` may exceed 127).
fn shift_right_classified(mant: u128, shift: u32) -> (u128, Discarded) {
    if shift == 0 {
        return (mant, Discarded::Zero);
    }
    if shift >= 128 {
        // Every caller's mantissa is below 2^127, so it is below half of 2^shift.
        let class = if mant == 0 {
            Discarded::Zero
        } else {
            Discarded::BelowHalf
        };
        return (0, class);
    }
    let kept = mant >> shift;
    let rem = mant & ((1u128 << shift) - 1);
    let half = 1u128 << (shift - 1);
    let class = if rem == 0 {
        Discarded::Zero
    } else if rem < half {
        Discarded::BelowHalf
    } else if rem == half {
        Discarded::Half
    } else {
        Discarded::AboveHalf
    };
    (kept, class)
}

/// Whether rounding the magnitude `kept + discarded` in `mode` increments `kept`.
fn rounds_up(kept: u128, discarded: Discarded, neg: bool, mode: Rounding) -> bool {
    let inexact = discarded != Discarded::Zero;
    match mode {
        Rounding::Rte => {
            discarded == Discarded::AboveHalf || (discarded == Discarded::Half && kept & 1 == 1)
        }
        Rounding::Rtz => false,
        Rounding::Rtp => inexact && !neg,
        Rounding::Rtn => inexact && neg,
    }
}

fn overflow_result(neg: bool, fmt: FloatFormat, mode: Rounding) -> u64 {
    let sign = if neg { fmt.sign_bit() } else { 0 };
    let to_inf = match mode {
        Rounding::Rte => true,
        Rounding::Rtz => false,
        Rounding::Rtp => !neg,
        Rounding::Rtn => neg,
    };
    sign | if to_inf {
        fmt.exp_all_ones()
    } else {
        fmt.max_finite()
    }
}

/// Rounds `(-1)^neg × mant × 2^exp` (exact) to `fmt` in `mode`; returns the bit pattern.
pub(crate) fn round_to_format(
    neg: bool,
    mant: u128,
    exp: i32,
    fmt: FloatFormat,
    mode: Rounding,
) -> u64 {
    let sign = if neg { fmt.sign_bit() } else { 0 };
    if mant == 0 {
        return sign;
    }
    let precision = fmt.mant_bits as i32 + 1;
    let bias = fmt.bias();
    let emin = 1 - bias;
    let msb = 127 - mant.leading_zeros() as i32;
    let value_exp = msb + exp; // value in [2^value_exp, 2^(value_exp+1))
    if value_exp > bias + 1 {
        return overflow_result(neg, fmt, mode);
    }
    // Exponent of the unit in the last place of the result (subnormals share emin's).
    let mut quantum = (value_exp - (precision - 1)).max(emin - (precision - 1));
    let shift = quantum - exp;
    let mut kept = if shift <= 0 {
        mant << (-shift) as u32
    } else {
        let (kept, discarded) = shift_right_classified(mant, shift as u32);
        if rounds_up(kept, discarded, neg, mode) {
            kept + 1
        } else {
            kept
        }
    };
    if kept == 1u128 << precision {
        kept >>= 1;
        quantum += 1;
    }
    if kept == 0 {
        return sign;
    }
    let hidden = 1u128 << (precision - 1);
    if kept < hidden {
        return sign | kept as u64; // subnormal
    }
    let e = quantum + precision - 1;
    if e > bias {
        return overflow_result(neg, fmt, mode);
    }
    sign | (((e + bias) as u64) << fmt.mant_bits) | (kept - hidden) as u64
}

/// A quiet NaN of `fmt` carrying `neg` and the top bits of `payload` (left-aligned at bit 63).
fn quiet_nan(neg: bool, payload: u64, fmt: FloatFormat) -> u64 {
    let sign = if neg { fmt.sign_bit() } else { 0 };
    let quiet = 1u64 << (fmt.mant_bits - 1);
    let mant = (payload >> (64 - fmt.mant_bits)) | quiet;
    sign | fmt.exp_all_ones() | mant
}

/// Rounds an `f64` to `fmt` (used for the narrowing of `Float::from_f64` and vstore_half).
pub(crate) fn round_f64_to_format(x: f64, fmt: FloatFormat, mode: Rounding) -> u64 {
    convert_float_to_float(x.to_bits(), F64_FORMAT, fmt, mode)
}

/// `f64` → binary16 bits, round to nearest even: a fast path for results in the normal range,
/// the general routine otherwise.
pub(crate) fn f64_to_f16_rne_bits(x: f64) -> u16 {
    let bits = x.to_bits();
    let sign = ((bits >> 48) & 0x8000) as u16;
    let exp = ((bits >> 52) & 0x7ff) as i32 - 1023;
    if (-14..=15).contains(&exp) {
        let mant = bits & ((1u64 << 52) - 1);
        let kept = (mant >> 42) as u16;
        let rem = mant & ((1u64 << 42) - 1);
        let half = 1u64 << 41;
        let up = rem > half || (rem == half && kept & 1 == 1);
        // A carry out of the mantissa increments the exponent; past 15 it gives +∞ (RNE).
        return sign | ((((exp + 15) as u16) << 10) + kept + u16::from(up));
    }
    round_f64_to_format(x, F16_FORMAT, Rounding::Rte) as u16
}

fn convert_float_to_float(bits: u64, from: FloatFormat, to: FloatFormat, mode: Rounding) -> u64 {
    match decode(bits, from) {
        Decoded::Nan { neg, payload } => quiet_nan(neg, payload, to),
        Decoded::Inf { neg } => (if neg { to.sign_bit() } else { 0 }) | to.exp_all_ones(),
        Decoded::Zero { neg } => {
            if neg {
                to.sign_bit()
            } else {
                0
            }
        }
        Decoded::Finite { neg, mant, exp } => round_to_format(neg, u128::from(mant), exp, to, mode),
    }
}

/// Sign- or zero-extends an integer bit pattern of `kind` to `i128`.
fn int_value(bits: u64, kind: ScalarKind) -> i128 {
    let width = kind.bits();
    let masked = if width == 64 {
        bits
    } else {
        bits & ((1u64 << width) - 1)
    };
    if kind.is_signed_int() {
        let shift = 64 - width;
        i128::from(((masked << shift) as i64) >> shift)
    } else {
        i128::from(masked)
    }
}

/// The low `kind.bits()` bits of `value`, zero-extended.
fn int_bits(value: i128, kind: ScalarKind) -> u64 {
    let width = kind.bits();
    let raw = value as u64;
    if width == 64 {
        raw
    } else {
        raw & ((1u64 << width) - 1)
    }
}

/// Rounds `(-1)^neg × mant × 2^exp` to an integer in `mode`; `None` if its magnitude is ≥ 2^100
/// (out of range for every destination).
fn round_to_integer(neg: bool, mant: u64, exp: i32, mode: Rounding) -> Option<i128> {
    let magnitude = if exp >= 0 {
        if exp as u32 + (64 - mant.leading_zeros()) > 100 {
            return None;
        }
        u128::from(mant) << exp as u32
    } else {
        let (kept, discarded) = shift_right_classified(u128::from(mant), (-exp) as u32);
        if rounds_up(kept, discarded, neg, mode) {
            kept + 1
        } else {
            kept
        }
    };
    let magnitude = magnitude as i128;
    Some(if neg { -magnitude } else { magnitude })
}

/// Converts the scalar `bits` of type `from` to type `to`.
///
/// `rounding: None` is the default: round to nearest even for a floating-point destination,
/// toward zero for an integer one. `saturate` clamps to the destination range for an integer
/// destination (NaN → 0). See the module doc for the out-of-range choices.
pub fn convert(
    bits: u64,
    from: ScalarKind,
    to: ScalarKind,
    rounding: Option<Rounding>,
    saturate: bool,
) -> u64 {
    match fast_path(bits, from, to, rounding) {
        Some(result) => result,
        None => convert_reference(bits, from, to, rounding, saturate),
    }
}

/// The common conversions done by Rust's `as`, which is IEEE round-to-nearest-even for
/// int → float and f64 → f32, exact for f32 → f64, and truncating with saturation (NaN → 0)
/// for float → int — the same results as [`convert_reference`] (checked by tests).
fn fast_path(
    bits: u64,
    from: ScalarKind,
    to: ScalarKind,
    rounding: Option<Rounding>,
) -> Option<u64> {
    use ScalarKind::*;
    let nearest = matches!(rounding, None | Some(Rounding::Rte));
    let toward_zero = matches!(rounding, None | Some(Rounding::Rtz));
    let f32_in = || f32::from_bits(bits as u32);
    let f64_in = || f64::from_bits(bits);
    match (from, to) {
        (F32, F64) if !f32_in().is_nan() => Some(f64::from(f32_in()).to_bits()),
        (F64, F32) if nearest && !f64_in().is_nan() => Some(u64::from((f64_in() as f32).to_bits())),
        (I8 | U8 | I16 | U16 | I32 | U32 | I64 | U64, F32) if nearest => {
            Some(u64::from((int_value(bits, from) as f32).to_bits()))
        }
        (I8 | U8 | I16 | U16 | I32 | U32 | I64 | U64, F64) if nearest => {
            Some((int_value(bits, from) as f64).to_bits())
        }
        (F32 | F64, _) if toward_zero && !to.is_float() => {
            let x = if from == F32 {
                f64::from(f32_in())
            } else {
                f64_in()
            };
            let v: i128 = match to {
                I8 => i128::from(x as i8),
                U8 => i128::from(x as u8),
                I16 => i128::from(x as i16),
                U16 => i128::from(x as u16),
                I32 => i128::from(x as i32),
                U32 => i128::from(x as u32),
                I64 => i128::from(x as i64),
                _ => i128::from(x as u64),
            };
            Some(int_bits(v, to))
        }
        _ => None,
    }
}

/// [`convert`] computed entirely by the exact decode-and-round routine, without the fast paths
/// through Rust's `as`. Same results; exposed so tests can check one against the other.
pub fn convert_reference(
    bits: u64,
    from: ScalarKind,
    to: ScalarKind,
    rounding: Option<Rounding>,
    saturate: bool,
) -> u64 {
    match (from.float_format(), to.float_format()) {
        (Some(ffmt), Some(tfmt)) => {
            let mode = rounding.unwrap_or(Rounding::Rte);
            convert_float_to_float(bits, ffmt, tfmt, mode)
        }
        (None, Some(tfmt)) => {
            // Rounding of integer → float: compliance "Rounding Modes for Conversions".
            let mode = rounding.unwrap_or(Rounding::Rte);
            let value = int_value(bits, from);
            round_to_format(value < 0, value.unsigned_abs(), 0, tfmt, mode)
        }
        (Some(ffmt), None) => {
            let mode = rounding.unwrap_or(Rounding::Rtz);
            let (min, max) = to.int_range();
            // Out-of-range float → int is implementation-defined without _sat; oxcl saturates.
            let value = match decode(bits, ffmt) {
                Decoded::Nan { .. } | Decoded::Zero { .. } => 0,
                Decoded::Inf { neg } => {
                    if neg {
                        min
                    } else {
                        max
                    }
                }
                Decoded::Finite { neg, mant, exp } => {
                    match round_to_integer(neg, mant, exp, mode) {
                        Some(v) => v.clamp(min, max),
                        None => {
                            if neg {
                                min
                            } else {
                                max
                            }
                        }
                    }
                }
            };
            int_bits(value, to)
        }
        (None, None) => {
            let value = int_value(bits, from);
            let value = if saturate {
                let (min, max) = to.int_range();
                value.clamp(min, max)
            } else {
                value // C99 modular wrap-around: the low bits.
            };
            int_bits(value, to)
        }
    }
}

/// `f64` → `f16` in the given rounding mode (vstore_half_rt*, `convert_half_rt*`).
pub fn f64_to_f16(x: f64, rounding: Rounding) -> f16 {
    f16::from_bits(round_f64_to_format(x, F16_FORMAT, rounding) as u16)
}

/// `f32` → `f16` in the given rounding mode.
pub fn f32_to_f16(x: f32, rounding: Rounding) -> f16 {
    f16::from_bits(
        convert_float_to_float(u64::from(x.to_bits()), F32_FORMAT, F16_FORMAT, rounding) as u16,
    )
}

/// `f64` → `f32` in the given rounding mode.
pub fn f64_to_f32(x: f64, rounding: Rounding) -> f32 {
    f32::from_bits(round_f64_to_format(x, F32_FORMAT, rounding) as u32)
}

/// `f16` → `f32`, exact.
pub fn f16_to_f32(x: f16) -> f32 {
    f32::from_bits(convert_float_to_float(
        u64::from(x.to_bits()),
        F16_FORMAT,
        F32_FORMAT,
        Rounding::Rte,
    ) as u32)
}

/// `f16` → `f64`, exact.
pub fn f16_to_f64(x: f16) -> f64 {
    f64::from_bits(convert_float_to_float(
        u64::from(x.to_bits()),
        F16_FORMAT,
        F64_FORMAT,
        Rounding::Rte,
    ))
}

/// `vload_half`: the half stored as `bits`, widened exactly to float.
pub fn vload_half(bits: u16) -> f32 {
    f16_to_f32(f16::from_bits(bits))
}

/// `vstore_half` (`rounding: None`, round to nearest even) and `vstore_half_rte/rtz/rtp/rtn`:
/// the half bits of a float.
pub fn vstore_half_f32(x: f32, rounding: Option<Rounding>) -> u16 {
    f32_to_f16(x, rounding.unwrap_or(Rounding::Rte)).to_bits()
}

/// `vstore_half` and `vstore_half_r*` of a double: rounded once from the double.
pub fn vstore_half_f64(x: f64, rounding: Option<Rounding>) -> u16 {
    f64_to_f16(x, rounding.unwrap_or(Rounding::Rte)).to_bits()
}
