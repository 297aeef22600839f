//! The integer built-in functions of OpenCL C 2.0 §6.13.3 for every width, signed and unsigned,
//! written once over the [`Int`] trait (implemented for `i8`..`i64`, `u8`..`u64`).
//!
//! Where OpenCL leaves a result undefined oxcl picks a deterministic one: `mul24`/`mad24`
//! multiply all 32 bits with wrap-around (identical to the defined result for 24-bit operands),
//! `clamp` with `minval > maxval` returns `min(max(x, minval), maxval)`.

use core::fmt::Debug;

/// An OpenCL integer scalar type.
pub trait Int: Copy + Eq + Ord + Debug + 'static {
    /// The unsigned type of the same width (`abs`, `abs_diff` return it).
    type Unsigned: Int;
    /// Width in bits.
    const BITS: u32;
    /// Signedness.
    const SIGNED: bool;
    /// Smallest value, as `i128`.
    const MIN_I128: i128;
    /// Largest value, as `i128`.
    const MAX_I128: i128;
    /// The value, exactly.
    fn to_i128(self) -> i128;
    /// The low `BITS` bits of `v` (two's complement wrap-around).
    fn from_i128_wrapping(v: i128) -> Self;
    /// The bit pattern, zero-extended.
    fn to_bits_u64(self) -> u64;
    /// The value whose bit pattern is the low `BITS` bits of `bits`.
    fn from_bits_u64(bits: u64) -> Self;
    /// High half of the double-width product.
    fn mul_hi_impl(self, other: Self) -> Self;
    /// `self * b + c` saturated to the type's range.
    fn mad_sat_impl(self, b: Self, c: Self) -> Self;
}

macro_rules! impl_int {
    ($t:ty, $u:ty, $signed:expr, $wide:ty) => {
        impl Int for $t {
            type Unsigned = $u;
            const BITS: u32 = <$t>::BITS;
            const SIGNED: bool = $signed;
            const MIN_I128: i128 = <$t>::MIN as i128;
            const MAX_I128: i128 = <$t>::MAX as i128;
            fn to_i128(self) -> i128 {
                self as i128
            }
            fn from_i128_wrapping(v: i128) -> Self {
                v as $t
            }
            fn to_bits_u64(self) -> u64 {
                (self as $u) as u64
            }
            fn from_bits_u64(bits: u64) -> Self {
                bits as $u as $t
            }
            fn mul_hi_impl(self, other: Self) -> Self {
                ((self as $wide * other as $wide) >> <$t>::BITS) as $t
            }
            fn mad_sat_impl(self, b: Self, c: Self) -> Self {
                // The double-width product plus c fits the 128-bit type for every width.
                let v = self as $wide * b as $wide + c as $wide;
                v.clamp(<$t>::MIN as $wide, <$t>::MAX as $wide) as $t
            }
        }
    };
}

impl_int!(i8, u8, true, i128);
impl_int!(i16, u16, true, i128);
impl_int!(i32, u32, true, i128);
impl_int!(i64, u64, true, i128);
impl_int!(u8, u8, false, u128);
impl_int!(u16, u16, false, u128);
impl_int!(u32, u32, false, u128);
impl_int!(u64, u64, false, u128);

fn saturate<T: Int>(v: i128) -> T {
    T::from_i128_wrapping(v.clamp(T::MIN_I128, T::MAX_I128))
}

/// |x|, as the unsigned type (abs(i8::MIN) = 128u8).
pub fn abs<T: Int>(x: T) -> T::Unsigned {
    T::Unsigned::from_i128_wrapping(x.to_i128().abs())
}

/// |x - y| without overflow, as the unsigned type.
pub fn abs_diff<T: Int>(x: T, y: T) -> T::Unsigned {
    T::Unsigned::from_i128_wrapping((x.to_i128() - y.to_i128()).abs())
}

/// x + y, saturated.
pub fn add_sat<T: Int>(x: T, y: T) -> T {
    saturate(x.to_i128() + y.to_i128())
}

/// x - y, saturated.
pub fn sub_sat<T: Int>(x: T, y: T) -> T {
    saturate(x.to_i128() - y.to_i128())
}

/// (x + y) >> 1 without overflow (rounds toward -∞).
pub fn hadd<T: Int>(x: T, y: T) -> T {
    T::from_i128_wrapping((x.to_i128() + y.to_i128()) >> 1)
}

/// (x + y + 1) >> 1 without overflow.
pub fn rhadd<T: Int>(x: T, y: T) -> T {
    T::from_i128_wrapping((x.to_i128() + y.to_i128() + 1) >> 1)
}

/// min(max(x, minval), maxval).
pub fn clamp<T: Int>(x: T, minval: T, maxval: T) -> T {
    min(max(x, minval), maxval)
}

/// Number of leading zero bits (the width for 0).
pub fn clz<T: Int>(x: T) -> T {
    let n = x.to_bits_u64().leading_zeros() - (64 - T::BITS);
    T::from_i128_wrapping(i128::from(n))
}

/// Number of trailing zero bits (the width for 0, OpenCL C 2.0 ctz).
pub fn ctz<T: Int>(x: T) -> T {
    let bits = x.to_bits_u64();
    let n = if bits == 0 {
        T::BITS
    } else {
        bits.trailing_zeros()
    };
    T::from_i128_wrapping(i128::from(n))
}

/// Number of set bits.
pub fn popcount<T: Int>(x: T) -> T {
    T::from_i128_wrapping(i128::from(x.to_bits_u64().count_ones()))
}

/// High half of the product x × y.
pub fn mul_hi<T: Int>(x: T, y: T) -> T {
    x.mul_hi_impl(y)
}

/// mul_hi(a, b) + c, wrapping.
pub fn mad_hi<T: Int>(a: T, b: T, c: T) -> T {
    T::from_i128_wrapping(mul_hi(a, b).to_i128() + c.to_i128())
}

/// a × b + c, saturated.
pub fn mad_sat<T: Int>(a: T, b: T, c: T) -> T {
    a.mad_sat_impl(b, c)
}

/// 24-bit multiply; oxcl multiplies all bits with wrap-around (the defined result for operands
/// in the 24-bit range, deterministic outside it).
pub fn mul24<T: Int>(x: T, y: T) -> T {
    T::from_i128_wrapping(x.to_i128() * y.to_i128())
}

/// mul24(x, y) + z, wrapping.
pub fn mad24<T: Int>(x: T, y: T, z: T) -> T {
    T::from_i128_wrapping(x.to_i128() * y.to_i128() + z.to_i128())
}

/// Rotate left by `i` modulo the width (a negative or large `i` uses its low bits).
pub fn rotate<T: Int>(v: T, i: T) -> T {
    let width = T::BITS;
    let n = (i.to_bits_u64() % u64::from(width)) as u32;
    let bits = v.to_bits_u64();
    let mask = if width == 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    };
    let rotated = if n == 0 {
        bits
    } else {
        ((bits << n) | (bits >> (width - n))) & mask
    };
    T::from_bits_u64(rotated)
}

/// max(x, y).
pub fn max<T: Int>(x: T, y: T) -> T {
    if x > y {
        x
    } else {
        y
    }
}

/// min(x, y).
pub fn min<T: Int>(x: T, y: T) -> T {
    if x < y {
        x
    } else {
        y
    }
}

/// Relational bitselect: each result bit is the bit of `b` where `c` has a 1, else of `a`.
pub fn bitselect<T: Int>(a: T, b: T, c: T) -> T {
    let (a, b, c) = (a.to_bits_u64(), b.to_bits_u64(), c.to_bits_u64());
    T::from_bits_u64((a & !c) | (b & c))
}

/// Integer types of 8, 16 and 32 bits, which `upsample` widens.
pub trait Upsample: Int {
    /// The type of twice the width, same signedness.
    type Wide: Int;
}
impl Upsample for i8 {
    type Wide = i16;
}
impl Upsample for u8 {
    type Wide = u16;
}
impl Upsample for i16 {
    type Wide = i32;
}
impl Upsample for u16 {
    type Wide = u32;
}
impl Upsample for i32 {
    type Wide = i64;
}
impl Upsample for u32 {
    type Wide = u64;
}

/// `(hi << width) | lo` in the double-width type.
pub fn upsample<T: Upsample>(hi: T, lo: T::Unsigned) -> T::Wide {
    let v = (hi.to_i128() << T::BITS) | lo.to_i128();
    T::Wide::from_i128_wrapping(v)
}

/// Drops the OpenCL.std signedness prefix (`s_`, `u_`): the caller picks a signed or unsigned
/// `T` from it.
fn strip_sign_prefix(name: &str) -> &str {
    name.strip_prefix("s_")
        .or_else(|| name.strip_prefix("u_"))
        .unwrap_or(name)
}

/// The one-argument integer function named `name` in OpenCL.std (`clz`, `ctz`, `popcount`).
pub fn unary<T: Int>(name: &str) -> Option<fn(T) -> T> {
    Some(match strip_sign_prefix(name) {
        "clz" => clz::<T>,
        "ctz" => ctz::<T>,
        "popcount" => popcount::<T>,
        _ => return None,
    })
}

/// The two-argument integer function named `name` in OpenCL.std with signature `(T, T) -> T`
/// (`s_add_sat`/`u_add_sat` and the other prefixed names map to the same function; choose `T`
/// by the prefix). `abs`, `abs_diff` and `upsample` change type and are called directly.
pub fn binary<T: Int>(name: &str) -> Option<fn(T, T) -> T> {
    Some(match strip_sign_prefix(name) {
        "add_sat" => add_sat::<T>,
        "sub_sat" => sub_sat::<T>,
        "hadd" => hadd::<T>,
        "rhadd" => rhadd::<T>,
        "max" => max::<T>,
        "min" => min::<T>,
        "mul_hi" => mul_hi::<T>,
        "mul24" => mul24::<T>,
        "rotate" => rotate::<T>,
        _ => return None,
    })
}

/// The three-argument integer function named `name` in OpenCL.std with signature
/// `(T, T, T) -> T`.
pub fn ternary<T: Int>(name: &str) -> Option<fn(T, T, T) -> T> {
    Some(match strip_sign_prefix(name) {
        "clamp" => clamp::<T>,
        "mad_hi" => mad_hi::<T>,
        "mad_sat" => mad_sat::<T>,
        "mad24" => mad24::<T>,
        "bitselect" => bitselect::<T>,
        _ => return None,
    })
}
