//! Pure operations on values: integer, float, comparison and conversion semantics.
//!
//! Integer operations wrap (SPIR-V integer arithmetic is modulo 2^width). Division and remainder
//! by zero are undefined in SPIR-V and give 0 here; `sdiv` of the minimum by -1 wraps. Shift
//! amounts are taken modulo the width (SPIR-V leaves larger amounts undefined). Float operations
//! are IEEE-754 operations of Rust's `f32`/`f64` and `half::f16`; classification and
//! conversions go through `devlib`.

use std::ops::{Add, Div, Mul, Rem, Sub};

use devlib::convert::ScalarKind;
use devlib::Float;
use half::f16;
use kir::{BinaryOp, CmpOp, ConvertOp, ReduceOp, Rounding, ScalarType, TestOp, Type, UnaryOp};

use super::value::{mask, sext, Val};

/// Applies `f` to each lane.
fn map1(ty: Type, v: &Val, f: impl Fn(u64) -> u64) -> Val {
    match v {
        Val::V(lanes) => Val::V(lanes.iter().map(|&x| f(x)).collect()),
        other if ty.is_vector() => Val::V(vec![f(other.s())]),
        other => Val::S(f(other.s())),
    }
}

/// Applies `f` to each pair of lanes.
fn map2(ty: Type, a: &Val, b: &Val, f: impl Fn(u64, u64) -> u64) -> Val {
    match a {
        Val::V(lanes) => Val::V(
            lanes
                .iter()
                .enumerate()
                .map(|(i, &x)| f(x, b.lane(i)))
                .collect(),
        ),
        other if ty.is_vector() => Val::V(vec![f(other.s(), b.s())]),
        other => Val::S(f(other.s(), b.s())),
    }
}

/// Width of a lane in registers (bools hold 0 or 1: one bit).
fn width(s: ScalarType) -> u32 {
    if s.is_bool() {
        1
    } else {
        s.bits()
    }
}

pub fn unary(op: UnaryOp, ty: Type, v: &Val) -> Val {
    let s = ty.lane_type().unwrap_or(ScalarType::I64);
    let w = width(s);
    let m = mask(w);
    map1(ty, v, |x| match op {
        UnaryOp::INeg => x.wrapping_neg() & m,
        UnaryOp::Not => !x & m,
        UnaryOp::FNeg => x ^ (1u64 << (w - 1)),
        UnaryOp::BitCount => u64::from((x & m).count_ones()),
        UnaryOp::BitReverse => (x & m).reverse_bits() >> (64 - w),
    })
}

/// The float operations every float type supports.
trait Arith:
    Float
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Rem<Output = Self>
{
}
impl Arith for f32 {}
impl Arith for f64 {}
impl Arith for f16 {}

fn float_binary<F: Arith>(op: BinaryOp, a: u64, b: u64) -> u64 {
    let (x, y) = (F::from_bits_u64(a), F::from_bits_u64(b));
    let r = match op {
        BinaryOp::FAdd => x + y,
        BinaryOp::FSub => x - y,
        BinaryOp::FMul => x * y,
        BinaryOp::FDiv => x / y,
        // OpFRem: the sign of the result is the sign of operand 1 (C fmod).
        BinaryOp::FRem => x % y,
        // OpFMod: the sign of a non-zero result is the sign of operand 2.
        _ => {
            let r = x % y;
            let zero = F::zero();
            let is_nan = r.partial_cmp(&r).is_none();
            if r != zero && !is_nan && ((r < zero) != (y < zero)) {
                r + y
            } else {
                r
            }
        }
    };
    r.to_bits_u64()
}

pub fn binary(op: BinaryOp, ty: Type, a: &Val, b: &Val) -> Val {
    let s = ty.lane_type().unwrap_or(ScalarType::I64);
    let w = width(s);
    let m = mask(w);
    map2(ty, a, b, |x, y| match op {
        BinaryOp::IAdd => x.wrapping_add(y) & m,
        BinaryOp::ISub => x.wrapping_sub(y) & m,
        BinaryOp::IMul => x.wrapping_mul(y) & m,
        BinaryOp::UDiv => x.checked_div(y).unwrap_or(0),
        BinaryOp::URem => x.checked_rem(y).unwrap_or(0),
        BinaryOp::SDiv => {
            let (sx, sy) = (sext(x, w), sext(y, w));
            if sy == 0 {
                0
            } else {
                (sx.wrapping_div(sy) as u64) & m
            }
        }
        BinaryOp::SRem | BinaryOp::SMod => {
            let (sx, sy) = (sext(x, w), sext(y, w));
            if sy == 0 {
                return 0;
            }
            let mut r = sx.wrapping_rem(sy);
            if op == BinaryOp::SMod && r != 0 && ((r < 0) != (sy < 0)) {
                r = r.wrapping_add(sy);
            }
            (r as u64) & m
        }
        BinaryOp::Shl => (x << (y % u64::from(w))) & m,
        BinaryOp::LShr => (x & m) >> (y % u64::from(w)),
        BinaryOp::AShr => ((sext(x, w) >> (y % u64::from(w))) as u64) & m,
        BinaryOp::And => x & y,
        BinaryOp::Or => x | y,
        BinaryOp::Xor => x ^ y,
        BinaryOp::FAdd
        | BinaryOp::FSub
        | BinaryOp::FMul
        | BinaryOp::FDiv
        | BinaryOp::FRem
        | BinaryOp::FMod => match s {
            ScalarType::F16 => float_binary::<f16>(op, x, y),
            ScalarType::F32 => float_binary::<f32>(op, x, y),
            _ => float_binary::<f64>(op, x, y),
        },
    })
}

fn float_cmp<F: Float>(op: CmpOp, a: u64, b: u64) -> bool {
    let (x, y) = (F::from_bits_u64(a), F::from_bits_u64(b));
    let unordered = x.partial_cmp(&y).is_none();
    match op {
        CmpOp::FOrdEq => x == y,
        CmpOp::FOrdNe => !unordered && x != y,
        CmpOp::FOrdLt => x < y,
        CmpOp::FOrdLe => x <= y,
        CmpOp::FOrdGt => x > y,
        CmpOp::FOrdGe => x >= y,
        CmpOp::FUnordEq => unordered || x == y,
        CmpOp::FUnordNe => x != y,
        CmpOp::FUnordLt => unordered || x < y,
        CmpOp::FUnordLe => unordered || x <= y,
        CmpOp::FUnordGt => unordered || x > y,
        CmpOp::FUnordGe => unordered || x >= y,
        CmpOp::FOrd => !unordered,
        _ => unordered,
    }
}

/// A comparison of operands of type `operand_ty`; the result has `result_ty`.
pub fn cmp(op: CmpOp, operand_ty: Type, result_ty: Type, a: &Val, b: &Val) -> Val {
    let s = operand_ty.lane_type().unwrap_or(ScalarType::I64);
    let w = width(s);
    map2(result_ty, a, b, |x, y| {
        let r = match op {
            CmpOp::IEq | CmpOp::LogicalEq => x == y,
            CmpOp::INe | CmpOp::LogicalNe => x != y,
            CmpOp::ULt => x < y,
            CmpOp::ULe => x <= y,
            CmpOp::UGt => x > y,
            CmpOp::UGe => x >= y,
            CmpOp::SLt => sext(x, w) < sext(y, w),
            CmpOp::SLe => sext(x, w) <= sext(y, w),
            CmpOp::SGt => sext(x, w) > sext(y, w),
            CmpOp::SGe => sext(x, w) >= sext(y, w),
            _ => match s {
                ScalarType::F16 => float_cmp::<f16>(op, x, y),
                ScalarType::F32 => float_cmp::<f32>(op, x, y),
                _ => float_cmp::<f64>(op, x, y),
            },
        };
        u64::from(r)
    })
}

pub fn test(op: TestOp, operand_ty: Type, result_ty: Type, v: &Val) -> Val {
    let s = operand_ty.lane_type().unwrap_or(ScalarType::F64);
    macro_rules! classify {
        ($m:ident, $t:ty, $x:expr) => {{
            let x = <$t as Float>::from_bits_u64($x);
            match op {
                TestOp::IsNan => devlib::math::$m::isnan(x),
                TestOp::IsInf => devlib::math::$m::isinf(x),
                TestOp::IsFinite => devlib::math::$m::isfinite(x),
                TestOp::IsNormal => devlib::math::$m::isnormal(x),
                TestOp::SignBitSet => devlib::math::$m::signbit(x),
            }
        }};
    }
    map1(result_ty, v, |x| {
        u64::from(match s {
            ScalarType::F16 => classify!(f16, f16, x),
            ScalarType::F32 => classify!(f32, f32, x),
            _ => classify!(f64, f64, x),
        })
    })
}

pub fn reduce(op: ReduceOp, v: &Val) -> Val {
    let lanes = v.lanes();
    let r = match op {
        ReduceOp::Any => lanes.iter().any(|&x| x != 0),
        ReduceOp::All => lanes.iter().all(|&x| x != 0),
    };
    Val::S(u64::from(r))
}

/// `cond ? a : b`, per lane when `cond` is a vector.
pub fn select(cond: &Val, a: &Val, b: &Val) -> Val {
    match (cond, a, b) {
        (Val::V(c), Val::V(x), Val::V(y)) => Val::V(
            c.iter()
                .enumerate()
                .map(|(i, &ci)| if ci != 0 { x[i] } else { y[i] })
                .collect(),
        ),
        _ => {
            if cond.s() != 0 {
                a.clone()
            } else {
                b.clone()
            }
        }
    }
}

/// The devlib kind of a lane type read signed or unsigned.
pub fn scalar_kind(s: ScalarType, signed: bool) -> ScalarKind {
    match (s, signed) {
        (ScalarType::I8, true) => ScalarKind::I8,
        (ScalarType::I16, true) => ScalarKind::I16,
        (ScalarType::I32, true) => ScalarKind::I32,
        (ScalarType::I64, true) => ScalarKind::I64,
        (ScalarType::I8 | ScalarType::Bool, false) => ScalarKind::U8,
        (ScalarType::I16, false) => ScalarKind::U16,
        (ScalarType::I32, false) => ScalarKind::U32,
        (ScalarType::F16, _) => ScalarKind::F16,
        (ScalarType::F32, _) => ScalarKind::F32,
        (ScalarType::F64, _) => ScalarKind::F64,
        _ => ScalarKind::U64,
    }
}

pub fn rounding(r: Rounding) -> devlib::convert::Rounding {
    match r {
        Rounding::Rte => devlib::convert::Rounding::Rte,
        Rounding::Rtz => devlib::convert::Rounding::Rtz,
        Rounding::Rtp => devlib::convert::Rounding::Rtp,
        Rounding::Rtn => devlib::convert::Rounding::Rtn,
    }
}

/// A numeric conversion (not the pointer ones, not bitcast) per lane through
/// `devlib::convert::convert`.
pub fn convert_numeric(
    op: ConvertOp,
    from: Type,
    to: Type,
    v: &Val,
    round: Option<Rounding>,
    saturate: bool,
) -> Val {
    let fs = from.lane_type().unwrap_or(ScalarType::I64);
    let ts = to.lane_type().unwrap_or(ScalarType::I64);
    let (from_signed, to_signed) = match op {
        ConvertOp::SToF | ConvertOp::SConvert | ConvertOp::SToU => {
            (true, op == ConvertOp::SConvert)
        }
        ConvertOp::UToF | ConvertOp::UConvert => (false, false),
        ConvertOp::UToS => (false, true),
        ConvertOp::FToS => (true, true),
        _ => (false, false),
    };
    let fk = scalar_kind(fs, from_signed);
    let tk = scalar_kind(ts, to_signed);
    let round = round.map(rounding);
    map1(to, v, |x| {
        devlib::convert::convert(x, fk, tk, round, saturate)
    })
}

/// Reinterprets the bytes of `v` (type `from`) as type `to`.
pub fn bitcast(from: Type, to: Type, v: &Val, address_bits: u32) -> Val {
    let bytes = v.to_bytes(from, address_bits);
    Val::from_bytes(to, &bytes, address_bits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_semantics_wrap_and_do_not_trap() {
        let t = Type::I8;
        assert_eq!(
            binary(BinaryOp::IAdd, t, &Val::S(0xff), &Val::S(2)),
            Val::S(1)
        );
        assert_eq!(
            binary(BinaryOp::SDiv, t, &Val::S(0x80), &Val::S(0xff)),
            Val::S(0x80)
        );
        assert_eq!(binary(BinaryOp::UDiv, t, &Val::S(7), &Val::S(0)), Val::S(0));
        // -7 srem 3 = -1; -7 smod 3 = 2.
        assert_eq!(
            binary(BinaryOp::SRem, t, &Val::S((-7i8) as u8 as u64), &Val::S(3)),
            Val::S(0xff)
        );
        assert_eq!(
            binary(BinaryOp::SMod, t, &Val::S((-7i8) as u8 as u64), &Val::S(3)),
            Val::S(2)
        );
        assert_eq!(
            binary(BinaryOp::AShr, t, &Val::S(0x80), &Val::S(1)),
            Val::S(0xc0)
        );
        assert_eq!(unary(UnaryOp::BitReverse, t, &Val::S(1)), Val::S(0x80));
    }

    #[test]
    fn float_semantics_follow_ieee() {
        let t = Type::F32;
        let f = |x: f32| Val::S(u64::from(x.to_bits()));
        assert_eq!(binary(BinaryOp::FAdd, t, &f(0.1), &f(0.2)), f(0.1 + 0.2));
        assert_eq!(binary(BinaryOp::FRem, t, &f(-7.0), &f(3.0)), f(-1.0));
        assert_eq!(binary(BinaryOp::FMod, t, &f(-7.0), &f(3.0)), f(2.0));
        assert_eq!(unary(UnaryOp::FNeg, t, &f(1.5)), f(-1.5));
        let nan = f(f32::NAN);
        assert_eq!(cmp(CmpOp::FOrdNe, t, Type::Bool, &nan, &f(1.0)), Val::S(0));
        assert_eq!(
            cmp(CmpOp::FUnordNe, t, Type::Bool, &nan, &f(1.0)),
            Val::S(1)
        );
        assert_eq!(test(TestOp::IsNan, t, Type::Bool, &nan), Val::S(1));
    }
}
