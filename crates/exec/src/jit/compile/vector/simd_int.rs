//! Varying `i32` and `bool` values kept as one `i32x4` (work-item j in lane j), besides the
//! `f32x4` of varying floats: a `bool` is a lane mask there (all ones: true, zero: false),
//! the form Cranelift's vector compares give and `bitselect` takes.
//!
//! The instructions translated on these forms give, lane by lane, the bits of the scalar
//! translation (`Translator::inst`): wrapping integer add, subtract, multiply, bitwise
//! operations, shifts by a uniform amount (taken modulo the width by both), integer and float
//! compares (the float conditions x86 compares directly), selection, and signed `i32` to `f32`
//! conversion (round to nearest even in both). They are used when an operand is already in
//! such a form (a loop-carried value of a masked loop, the result of an earlier one), so
//! that code whose values are per-lane scalars keeps the replay.

use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{types, Endianness, InstBuilder, MemFlagsData, Type as ClType};
use kir::{BinaryOp, CmpOp, ConvertOp, InstData, Rounding, Type, UnaryOp, Value};

use super::super::{ClValue, Translator, Unsupported};
use super::is_f32;

/// The vector type a varying value of type `t` may be kept as (one per kir lane).
pub(super) fn simd_cl(t: Type) -> Option<ClType> {
    match t {
        _ if is_f32(t) => Some(types::F32X4),
        Type::I32 | Type::Bool => Some(types::I32X4),
        _ => None,
    }
}

/// The integer condition of `op` on integer operands.
fn int_cc(op: CmpOp) -> Option<IntCC> {
    use CmpOp as C;
    Some(match op {
        C::IEq | C::LogicalEq => IntCC::Equal,
        C::INe | C::LogicalNe => IntCC::NotEqual,
        C::ULt => IntCC::UnsignedLessThan,
        C::ULe => IntCC::UnsignedLessThanOrEqual,
        C::UGt => IntCC::UnsignedGreaterThan,
        C::UGe => IntCC::UnsignedGreaterThanOrEqual,
        C::SLt => IntCC::SignedLessThan,
        C::SLe => IntCC::SignedLessThanOrEqual,
        C::SGt => IntCC::SignedGreaterThan,
        C::SGe => IntCC::SignedGreaterThanOrEqual,
        _ => return None,
    })
}

/// The float condition of `op`, among those x86 vector compares implement (ordered `!=` and
/// unordered `==` are not: they keep the replay).
fn float_cc(op: CmpOp) -> Option<FloatCC> {
    use CmpOp as C;
    Some(match op {
        C::FOrdEq => FloatCC::Equal,
        C::FOrdLt => FloatCC::LessThan,
        C::FOrdLe => FloatCC::LessThanOrEqual,
        C::FOrdGt => FloatCC::GreaterThan,
        C::FOrdGe => FloatCC::GreaterThanOrEqual,
        C::FUnordNe => FloatCC::NotEqual,
        C::FUnordLt => FloatCC::UnorderedOrLessThan,
        C::FUnordLe => FloatCC::UnorderedOrLessThanOrEqual,
        C::FUnordGt => FloatCC::UnorderedOrGreaterThan,
        C::FUnordGe => FloatCC::UnorderedOrGreaterThanOrEqual,
        C::FOrd => FloatCC::Ordered,
        C::FUnord => FloatCC::Unordered,
        _ => return None,
    })
}

/// Flags of a bitcast between vector types.
fn vec_cast() -> MemFlagsData {
    MemFlagsData::new().with_endianness(Endianness::Little)
}

impl Translator<'_, '_> {
    /// Lane `j` of the vector form `x` of value `v`, as the scalar translation holds it.
    pub(super) fn simd_lane(&mut self, v: Value, x: ClValue, j: usize) -> ClValue {
        let l = self.b.ins().extractlane(x, j as u8);
        if self.ty(v) == Type::Bool {
            self.b.ins().icmp_imm_s(IntCC::NotEqual, l, 0)
        } else {
            l
        }
    }

    /// The vector form of value `v` from one scalar lane per work-item (the same one for a
    /// uniform value).
    pub(super) fn simd_pack(&mut self, v: Value, per: &[ClValue]) -> Result<ClValue, Unsupported> {
        let t = self.ty(v);
        let cl = simd_cl(t).ok_or_else(|| format!("{v} has no vector form"))?;
        let mut lanes = per.to_vec();
        if t == Type::Bool {
            for l in &mut lanes {
                let w = self.b.ins().uextend(types::I32, *l);
                *l = self.b.ins().ineg(w);
            }
        }
        if lanes.len() == 1 {
            return Ok(self.b.ins().splat(cl, lanes[0]));
        }
        let mut x = self.b.ins().scalar_to_vector(cl, lanes[0]);
        for (j, &l) in lanes.iter().enumerate().skip(1) {
            x = self.b.ins().insertlane(x, l, j as u8);
        }
        Ok(x)
    }

    /// `bitselect` of `mask` (an `i32x4` lane mask) between vector forms `x` and `y`.
    pub(super) fn simd_select(&mut self, mask: ClValue, x: ClValue, y: ClValue) -> ClValue {
        let ty = self.b.func.dfg.value_type(x);
        let c = if ty == types::I32X4 {
            mask
        } else {
            self.b.ins().bitcast(ty, vec_cast(), mask)
        };
        self.b.ins().bitselect(c, x, y)
    }

    /// `inst` (with a varying result) on `i32x4` forms when it is exact there and an operand
    /// already has a vector form; returns whether it was translated so.
    pub(super) fn simd_int_inst(&mut self, inst: kir::Inst) -> Result<bool, Unsupported> {
        let func = self.func;
        let Some(r) = func.dfg.inst_result(inst) else {
            return Ok(false);
        };
        let rty = self.ty(r);
        if !matches!(rty, Type::I32 | Type::Bool | Type::F32) {
            return Ok(false);
        }
        let data = func.dfg.inst(inst);
        let ops = data.operands();
        if !ops.iter().any(|a| self.vs().simd.contains_key(a)) {
            return Ok(false);
        }
        let scalar_simd = |t: Type| matches!(t, Type::I32 | Type::Bool | Type::F32);
        if !ops.iter().all(|&a| scalar_simd(self.ty(a))) {
            return Ok(false);
        }
        let out = match data {
            InstData::Binary { op, a, b } if rty != Type::F32 => {
                let int = rty == Type::I32;
                match op {
                    BinaryOp::Shl | BinaryOp::LShr | BinaryOp::AShr
                        if int && self.shape(*b) == super::Shape::Uniform =>
                    {
                        let x = self.simd_of(*a)?[0];
                        let n = self.get1(*b)?;
                        let ins = self.b.ins();
                        match op {
                            BinaryOp::Shl => ins.ishl(x, n),
                            BinaryOp::LShr => ins.ushr(x, n),
                            _ => ins.sshr(x, n),
                        }
                    }
                    BinaryOp::IAdd | BinaryOp::ISub | BinaryOp::IMul if int => {
                        let x = self.simd_of(*a)?[0];
                        let y = self.simd_of(*b)?[0];
                        let ins = self.b.ins();
                        match op {
                            BinaryOp::IAdd => ins.iadd(x, y),
                            BinaryOp::ISub => ins.isub(x, y),
                            _ => ins.imul(x, y),
                        }
                    }
                    // Bitwise on integers, logical on masks.
                    BinaryOp::And | BinaryOp::Or | BinaryOp::Xor => {
                        let x = self.simd_of(*a)?[0];
                        let y = self.simd_of(*b)?[0];
                        let ins = self.b.ins();
                        match op {
                            BinaryOp::And => ins.band(x, y),
                            BinaryOp::Or => ins.bor(x, y),
                            _ => ins.bxor(x, y),
                        }
                    }
                    _ => return Ok(false),
                }
            }
            InstData::Unary { op, arg } if rty != Type::F32 => {
                let x = self.simd_of(*arg)?[0];
                match op {
                    UnaryOp::Not => self.b.ins().bnot(x),
                    UnaryOp::INeg if rty == Type::I32 => self.b.ins().ineg(x),
                    _ => return Ok(false),
                }
            }
            InstData::Cmp { op, a, b } if rty == Type::Bool => {
                let oty = self.ty(*a);
                if oty == Type::F32 {
                    let Some(cc) = float_cc(*op) else {
                        return Ok(false);
                    };
                    let x = self.simd_of(*a)?[0];
                    let y = self.simd_of(*b)?[0];
                    let m = self.b.ins().fcmp(cc, x, y);
                    // Lanes of the same width: the mask is already `i32x4`.
                    if self.b.func.dfg.value_type(m) == types::I32X4 {
                        m
                    } else {
                        self.b.ins().bitcast(types::I32X4, vec_cast(), m)
                    }
                } else {
                    let Some(cc) = int_cc(*op) else {
                        return Ok(false);
                    };
                    let x = self.simd_of(*a)?[0];
                    let y = self.simd_of(*b)?[0];
                    self.b.ins().icmp(cc, x, y)
                }
            }
            InstData::Select { cond, a, b } if self.ty(*cond) == Type::Bool => {
                let c = self.simd_of(*cond)?[0];
                let x = self.simd_of(*a)?[0];
                let y = self.simd_of(*b)?[0];
                self.simd_select(c, x, y)
            }
            InstData::Convert {
                op: ConvertOp::SToF,
                arg,
                rounding: None | Some(Rounding::Rte),
                saturate: false,
            } if rty == Type::F32 && self.ty(*arg) == Type::I32 => {
                let x = self.simd_of(*arg)?[0];
                self.b.ins().fcvt_from_sint(types::F32X4, x)
            }
            _ => return Ok(false),
        };
        self.vs().simd.insert(r, vec![out]);
        Ok(true)
    }
}
