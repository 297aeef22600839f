//! Conversions (OpenCL C 2.0 §6.2): implicit conversions of scalars (C99 6.3), scalar → vector
//! widening (§6.2.6), explicit casts (§6.2.2, vector ↔ vector casts are errors), and the
//! boolean views of values used by conditions. Constants are made here too.

use spv::{Id, Op, Operand};

use super::{Emitter, Val};
use crate::ast::AddrSpace;
use crate::sema::{Scalar, Type};
use crate::source::Span;

impl<'a> Emitter<'a> {
    // ---- constants -----------------------------------------------------------------------

    /// A scalar integer constant of type `s` (value wrapped to its width).
    pub fn int_const(&mut self, s: Scalar, v: i128) -> Id {
        if s == Scalar::Bool {
            let t = self.b.type_bool();
            return if v != 0 {
                self.b.constant_true(t)
            } else {
                self.b.constant_false(t)
            };
        }
        if s.is_float() {
            return self.float_const(s, v as f64);
        }
        let t = self.scalar_ty(s);
        let bits = s.bits();
        let mask: u128 = if bits >= 64 {
            u64::MAX as u128
        } else {
            (1u128 << bits) - 1
        };
        let u = (v as u128 & mask) as u64;
        self.b.constant_bits(t, u)
    }

    pub fn float_const(&mut self, s: Scalar, v: f64) -> Id {
        if !s.is_float() {
            return self.int_const(s, v as i128);
        }
        let t = self.scalar_ty(s);
        match s {
            Scalar::Half => self.b.constant_f16_bits(t, f64_to_f16_bits(v)),
            Scalar::Float => self.b.constant_f32(t, v as f32),
            _ => self.b.constant_f64(t, v),
        }
    }

    /// A constant of scalar or vector type `ty` with every component `v`.
    pub fn splat_const(&mut self, ty: &Type, v: f64) -> Id {
        let s = ty.elem().unwrap_or(Scalar::Int);
        let c = if s.is_float() {
            self.float_const(s, v)
        } else {
            self.int_const(s, v as i128)
        };
        match ty {
            Type::Vector(_, n) => {
                let vt = self.spv_type(ty);
                let parts = vec![c; *n as usize];
                self.b.constant_composite(vt, &parts)
            }
            _ => c,
        }
    }

    pub fn int_val(&mut self, s: Scalar, v: i128) -> Val {
        Val {
            id: self.int_const(s, v),
            ty: Type::Scalar(s),
        }
    }

    /// `OpCompositeConstruct` of `n` copies of a scalar.
    pub fn splat(&mut self, scalar: Id, elem: Scalar, n: u8) -> Id {
        let vt = self.vec_ty(elem, n);
        let parts = vec![Operand::Id(scalar); n as usize];
        self.inst(Op::CompositeConstruct, vt, parts)
    }

    /// Emits an instruction that has a result.
    pub fn inst(&mut self, op: Op, ty: Id, operands: Vec<Operand>) -> Id {
        match self.b.inst(op, Some(ty), operands) {
            Some(id) => id,
            None => self.b.id(),
        }
    }

    // ---- booleans ------------------------------------------------------------------------

    /// A scalar value as an `OpTypeBool` (C99 6.8.4: compares unequal to 0).
    pub fn as_bool(&mut self, v: &Val, span: Span) -> Option<Id> {
        let v = &Val {
            id: v.id,
            ty: super::atomic_types::strip_atomic(&v.ty),
        };
        let bt = self.b.type_bool();
        match &v.ty {
            Type::Scalar(Scalar::Bool) => Some(v.id),
            Type::Scalar(s) if s.is_float() => {
                let z = self.float_const(*s, 0.0);
                Some(self.inst(
                    Op::FUnordNotEqual,
                    bt,
                    vec![Operand::Id(v.id), Operand::Id(z)],
                ))
            }
            Type::Scalar(s) => {
                let z = self.int_const(*s, 0);
                Some(self.inst(Op::INotEqual, bt, vec![Operand::Id(v.id), Operand::Id(z)]))
            }
            Type::Pointer(_) => {
                let it = self.size_t();
                let s = it.elem().unwrap_or(Scalar::ULong);
                let st = self.scalar_ty(s);
                let as_int = self.inst(Op::ConvertPtrToU, st, vec![Operand::Id(v.id)]);
                let z = self.int_const(s, 0);
                Some(self.inst(Op::INotEqual, bt, vec![Operand::Id(as_int), Operand::Id(z)]))
            }
            other => {
                let name = self.type_name(other);
                self.error(
                    span,
                    format!("statement requires expression of scalar type ('{name}' invalid)"),
                );
                None
            }
        }
    }

    /// Bool (or bool vector) → integer: scalars 1/0, vectors -1/0 of `to` (§6.3.d/e).
    pub fn bool_to_int(&mut self, cond: Id, to: &Type) -> Id {
        let t = self.spv_type(to);
        let is_vec = to.is_vector();
        let one = self.splat_const(to, if is_vec { -1.0 } else { 1.0 });
        let zero = self.splat_const(to, 0.0);
        self.inst(
            Op::Select,
            t,
            vec![Operand::Id(cond), Operand::Id(one), Operand::Id(zero)],
        )
    }

    // ---- numeric conversions ---------------------------------------------------------------

    /// Converts a scalar or vector between element types, component-wise, with C semantics
    /// (float → int truncates, int → float rounds to nearest).
    pub fn convert_elems(&mut self, id: Id, from: Scalar, to: Scalar, lanes: u8) -> Id {
        if from == to {
            return id;
        }
        let to_ty = Type::vector_or_scalar(to, lanes);
        let tt = self.spv_type(&to_ty);
        if from == Scalar::Bool {
            // true → 1 (scalars; conversions from bool vectors do not reach here).
            let one = self.splat_const(&to_ty, 1.0);
            let zero = self.splat_const(&to_ty, 0.0);
            return self.inst(
                Op::Select,
                tt,
                vec![Operand::Id(id), Operand::Id(one), Operand::Id(zero)],
            );
        }
        if to == Scalar::Bool {
            let from_ty = Type::vector_or_scalar(from, lanes);
            let z = self.splat_const(&from_ty, 0.0);
            let op = if from.is_float() {
                Op::FUnordNotEqual
            } else {
                Op::INotEqual
            };
            return self.inst(op, tt, vec![Operand::Id(id), Operand::Id(z)]);
        }
        let op = match (from.is_float(), to.is_float()) {
            (true, true) => Op::FConvert,
            (true, false) => {
                if to.is_signed() {
                    Op::ConvertFToS
                } else {
                    Op::ConvertFToU
                }
            }
            (false, true) => {
                if from.is_signed() {
                    Op::ConvertSToF
                } else {
                    Op::ConvertUToF
                }
            }
            (false, false) => {
                if from.bits() == to.bits() {
                    return id; // same SPIR-V type: only the OpenCL C signedness differs
                }
                if from.bits() < to.bits() && from.is_signed() {
                    Op::SConvert
                } else {
                    Op::UConvert
                }
            }
        };
        self.inst(op, tt, vec![Operand::Id(id)])
    }

    /// Implicit conversion (assignment, argument passing, return, initialization: C99 6.5.16.1
    /// with OpenCL's scalar → vector widening). `what` names the context for the message.
    pub fn implicit_convert(&mut self, v: Val, to: &Type, span: Span, what: &str) -> Option<Val> {
        // An atomic object's value converts as its value type (C11 6.3.2.1p2).
        let v = Val {
            id: v.id,
            ty: super::atomic_types::strip_atomic(&v.ty),
        };
        if let Type::Atomic(s) = to {
            let r = self.implicit_convert(v, &Type::Scalar(*s), span, what)?;
            return Some(Val {
                id: r.id,
                ty: to.clone(),
            });
        }
        // C99 6.5.16.1p1: the pointed-to type must have all the qualifiers of the source's
        // (clang's -Wincompatible-pointer-types-discards-qualifiers, in its wording).
        if let (Type::Pointer(f), Type::Pointer(t)) = (&v.ty, to) {
            // (`__constant` data is const anyway; string literals are `__constant char`.)
            let const_dropped = f.is_const && !t.is_const && f.space != AddrSpace::Constant;
            if const_dropped || (f.is_volatile && !t.is_volatile) {
                let (to_n, from_n) = (self.type_name(to), self.type_name(&v.ty));
                let msg = match what {
                    "initializing" => format!(
                        "initializing '{to_n}' with an expression of type '{from_n}' discards qualifiers"
                    ),
                    "assigning to" => {
                        format!("assigning to '{to_n}' from '{from_n}' discards qualifiers")
                    }
                    "returning" => format!(
                        "returning '{from_n}' from a function with result type '{to_n}' discards qualifiers"
                    ),
                    w if w.starts_with("passing") => format!(
                        "passing '{from_n}' to parameter of type '{to_n}' discards qualifiers"
                    ),
                    w => format!("{w} '{to_n}' from '{from_n}' discards qualifiers"),
                };
                self.warning(span, msg);
            }
        }
        if same_unqualified(&v.ty, to) {
            return Some(Val {
                id: v.id,
                ty: to.clone(),
            });
        }
        match (&v.ty, to) {
            (Type::Scalar(a), Type::Scalar(b)) => {
                let id = self.convert_elems(v.id, *a, *b, 1);
                Some(Val { id, ty: to.clone() })
            }
            (Type::Scalar(a), Type::Vector(b, n)) => {
                let s = self.convert_elems(v.id, *a, *b, 1);
                let id = self.splat(s, *b, *n);
                Some(Val { id, ty: to.clone() })
            }
            (Type::Pointer(p), Type::Scalar(Scalar::Bool)) => {
                let _ = p;
                let id = self.as_bool(&v, span)?;
                Some(Val { id, ty: to.clone() })
            }
            (Type::Pointer(_), Type::Pointer(_)) => {
                self.pointer_convert_as(v, to, span, false, what)
            }
            (Type::Scalar(s), Type::Pointer(_)) if s.is_integer() => {
                self.warning(
                    span,
                    format!(
                        "incompatible integer to pointer conversion {what} '{}' from '{}'",
                        self.type_name(to),
                        self.type_name(&v.ty)
                    ),
                );
                let t = self.spv_type(to);
                let id = self.inst(Op::ConvertUToPtr, t, vec![Operand::Id(v.id)]);
                Some(Val { id, ty: to.clone() })
            }
            _ => {
                let msg = format!(
                    "{what} '{}' from incompatible type '{}'",
                    self.type_name(to),
                    self.type_name(&v.ty)
                );
                self.error(span, msg);
                None
            }
        }
    }

    /// The null pointer constant `0` converted to a pointer type.
    pub fn null_pointer(&mut self, to: &Type) -> Val {
        let t = self.spv_type(to);
        Val {
            id: self.b.constant_null(t),
            ty: to.clone(),
        }
    }

    /// Pointer → pointer. Address spaces must match, except that any named space converts to
    /// generic (§6.5.5); different pointee types need a cast (explicit) or warn (implicit).
    pub fn pointer_convert(
        &mut self,
        v: Val,
        to: &Type,
        span: Span,
        explicit: bool,
    ) -> Option<Val> {
        self.pointer_convert_as(v, to, span, explicit, "assigning to")
    }

    /// [`Self::pointer_convert`] for an implicit conversion `what` ("passing to parameter of
    /// type", "initializing", "assigning to"), which words the incompatible-pointer warning as
    /// clang does.
    fn pointer_convert_as(
        &mut self,
        v: Val,
        to: &Type,
        span: Span,
        explicit: bool,
        what: &str,
    ) -> Option<Val> {
        let (Some(from_p), Some(to_p)) = (v.ty.pointee().cloned(), to.pointee().cloned()) else {
            return None;
        };
        let mut id = v.id;
        let mut cur_space = from_p.space;
        if from_p.space != to_p.space {
            if to_p.space == AddrSpace::Generic && from_p.space != AddrSpace::Constant {
                let mid = Type::pointer(from_p.ty.clone(), AddrSpace::Generic, from_p.is_const);
                let t = self.spv_type(&mid);
                id = self.inst(Op::PtrCastToGeneric, t, vec![Operand::Id(id)]);
                cur_space = AddrSpace::Generic;
            } else if from_p.space == AddrSpace::Generic
                && explicit
                && to_p.space != AddrSpace::Constant
            {
                let mid = Type::pointer(from_p.ty.clone(), to_p.space, from_p.is_const);
                let t = self.spv_type(&mid);
                id = self.inst(Op::GenericCastToPtr, t, vec![Operand::Id(id)]);
                cur_space = to_p.space;
            } else {
                let msg = format!(
                    "{} '{}' changes address space of pointer",
                    if explicit {
                        "casting to"
                    } else {
                        "assigning to"
                    },
                    self.type_name(to)
                );
                self.error(span, msg);
                return None;
            }
        }
        let _ = cur_space;
        let same_pointee = same_unqualified(&from_p.ty, &to_p.ty);
        if !same_pointee {
            let void_involved = from_p.ty == Type::Void || to_p.ty == Type::Void;
            if !explicit && !void_involved {
                let (to_n, from_n) = (self.type_name(to), self.type_name(&v.ty));
                let msg = if what.starts_with("passing") {
                    format!("incompatible pointer types passing '{from_n}' to parameter of type '{to_n}'")
                } else if what == "initializing" {
                    format!("incompatible pointer types initializing '{to_n}' with an expression of type '{from_n}'")
                } else {
                    format!("incompatible pointer types assigning to '{to_n}' from '{from_n}'")
                };
                self.warning(span, msg);
            }
            let t = self.spv_type(to);
            // `atomic_int *` and `int *` are one SPIR-V type: nothing to cast.
            let cur = Type::pointer(from_p.ty.clone(), cur_space, from_p.is_const);
            if self.spv_type(&cur) != t {
                id = self.inst(Op::Bitcast, t, vec![Operand::Id(id)]);
            }
        }
        Some(Val { id, ty: to.clone() })
    }

    /// An explicit cast `(T)e` (§6.2.2).
    pub fn explicit_cast(&mut self, v: Val, to: &Type, span: Span) -> Option<Val> {
        let v = Val {
            id: v.id,
            ty: super::atomic_types::strip_atomic(&v.ty),
        };
        if same_unqualified(&v.ty, to) {
            return Some(Val {
                id: v.id,
                ty: to.clone(),
            });
        }
        match (&v.ty, to) {
            (_, Type::Void) => Some(Val {
                id: v.id,
                ty: Type::Void,
            }),
            (Type::Scalar(_), Type::Scalar(_)) | (Type::Scalar(_), Type::Vector(..)) => {
                self.implicit_convert(v, to, span, "casting to")
            }
            (Type::Vector(..), Type::Vector(..)) | (Type::Vector(..), Type::Scalar(_)) => {
                let msg = format!(
                    "invalid conversion between vector type '{}' and '{}' of different size or element type; use convert_{}",
                    self.type_name(&v.ty),
                    self.type_name(to),
                    self.type_name(to)
                );
                self.error(span, msg);
                None
            }
            (Type::Pointer(_), Type::Pointer(_)) => self.pointer_convert(v, to, span, true),
            (Type::Pointer(_), Type::Scalar(s)) if s.is_integer() => {
                let pt = self.size_t().elem().unwrap_or(Scalar::ULong);
                let t = self.scalar_ty(pt);
                let as_int = self.inst(Op::ConvertPtrToU, t, vec![Operand::Id(v.id)]);
                let id = self.convert_elems(as_int, pt, *s, 1);
                Some(Val { id, ty: to.clone() })
            }
            (Type::Pointer(_), Type::Scalar(Scalar::Bool)) => {
                let id = self.as_bool(&v, span)?;
                Some(Val { id, ty: to.clone() })
            }
            (Type::Scalar(s), Type::Pointer(_)) if s.is_integer() => {
                let pt = self.size_t().elem().unwrap_or(Scalar::ULong);
                let wide = self.convert_elems(v.id, *s, pt, 1);
                let t = self.spv_type(to);
                let id = self.inst(Op::ConvertUToPtr, t, vec![Operand::Id(wide)]);
                Some(Val { id, ty: to.clone() })
            }
            _ => {
                let msg = format!(
                    "cannot cast from '{}' to '{}'",
                    self.type_name(&v.ty),
                    self.type_name(to)
                );
                self.error(span, msg);
                None
            }
        }
    }
}

/// Types equal up to qualifiers of the pointee (const/volatile do not change the SPIR-V type).
pub fn same_unqualified(a: &Type, b: &Type) -> bool {
    match (a, b) {
        (Type::Pointer(p), Type::Pointer(q)) => {
            p.space == q.space && same_unqualified(&p.ty, &q.ty)
        }
        (Type::Array(x, n), Type::Array(y, m)) => n == m && same_unqualified(x, y),
        _ => a == b,
    }
}

/// Round-to-nearest-even conversion of an f64 to IEEE binary16 bits.
pub fn f64_to_f16_bits(v: f64) -> u16 {
    let f = v as f32; // double rounding is acceptable for literals
    let bits = f.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let exp = ((bits >> 23) & 0xff) as i32;
    let mant = bits & 0x7f_ffff;
    if exp == 0xff {
        return sign | 0x7c00 | if mant != 0 { 0x200 } else { 0 };
    }
    let e = exp - 127 + 15;
    if e >= 0x1f {
        return sign | 0x7c00;
    }
    if e <= 0 {
        if e < -10 {
            return sign;
        }
        let m = mant | 0x80_0000;
        let shift = (14 - e) as u32;
        let half = m >> shift;
        let rem = m & ((1 << shift) - 1);
        let halfway = 1 << (shift - 1);
        let round = rem > halfway || (rem == halfway && half & 1 == 1);
        return sign | (half + round as u32) as u16;
    }
    let half = ((e as u32) << 10) | (mant >> 13);
    let rem = mant & 0x1fff;
    let round = rem > 0x1000 || (rem == 0x1000 && half & 1 == 1);
    sign | (half + round as u32) as u16
}

#[cfg(test)]
mod tests {
    use super::f64_to_f16_bits;

    #[test]
    fn half_bits() {
        assert_eq!(f64_to_f16_bits(1.0), 0x3c00);
        assert_eq!(f64_to_f16_bits(-2.0), 0xc000);
        assert_eq!(f64_to_f16_bits(65504.0), 0x7bff);
        assert_eq!(f64_to_f16_bits(1e6), 0x7c00);
        assert_eq!(f64_to_f16_bits(0.5), 0x3800);
    }
}
