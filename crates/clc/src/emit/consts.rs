//! Integer constant expressions (C99 6.6): array sizes, case labels, enum values, attribute
//! arguments. Evaluated on the syntax tree without emitting code.

use super::Emitter;
use crate::ast::{BinOp, Expr, ExprKind, UnaryOp};
use crate::sema::{Scalar, Symbol, Type};

impl<'a> Emitter<'a> {
    /// The value of an integer constant expression, or `None` when `e` is not one.
    pub fn const_int(&mut self, e: &Expr) -> Option<i128> {
        self.const_int_depth(e, 0)
    }

    fn const_int_depth(&mut self, e: &Expr, depth: u32) -> Option<i128> {
        if depth > 200 {
            return None;
        }
        let d = depth + 1;
        Some(match &e.kind {
            ExprKind::IntLit { value, .. } => *value as i128,
            ExprKind::CharLit(v) => *v as i128,
            ExprKind::Ident(name) => match self.scopes.lookup(name) {
                Some(Symbol::EnumConst(v)) => *v as i128,
                _ => match name.as_str() {
                    // §6.1.1: true and false are the integer constants 1 and 0.
                    "true" => 1,
                    "false" => 0,
                    "CLK_LOCAL_MEM_FENCE" => 1,
                    "CLK_GLOBAL_MEM_FENCE" => 2,
                    "CLK_IMAGE_MEM_FENCE" => 4,
                    other => match super::call::memory_constant(other) {
                        Some(v) => v as i128,
                        None => return None,
                    },
                },
            },
            ExprKind::Unary(op, a) => {
                let v = self.const_int_depth(a, d)?;
                match op {
                    UnaryOp::Plus => v,
                    UnaryOp::Neg => v.wrapping_neg(),
                    UnaryOp::Not => (v == 0) as i128,
                    UnaryOp::BitNot => !v,
                    _ => return None,
                }
            }
            ExprKind::Binary(op, a, b, _) => {
                let x = self.const_int_depth(a, d)?;
                // Short-circuit operators only need the left side sometimes.
                match op {
                    BinOp::LogAnd if x == 0 => return Some(0),
                    BinOp::LogOr if x != 0 => return Some(1),
                    _ => {}
                }
                let y = self.const_int_depth(b, d)?;
                match op {
                    BinOp::Mul => x.wrapping_mul(y),
                    BinOp::Div => {
                        if y == 0 {
                            return None;
                        }
                        x.wrapping_div(y)
                    }
                    BinOp::Rem => {
                        if y == 0 {
                            return None;
                        }
                        x.wrapping_rem(y)
                    }
                    BinOp::Add => x.wrapping_add(y),
                    BinOp::Sub => x.wrapping_sub(y),
                    BinOp::Shl => x.wrapping_shl((y & 63) as u32),
                    BinOp::Shr => x.wrapping_shr((y & 63) as u32),
                    BinOp::Lt => (x < y) as i128,
                    BinOp::Gt => (x > y) as i128,
                    BinOp::Le => (x <= y) as i128,
                    BinOp::Ge => (x >= y) as i128,
                    BinOp::Eq => (x == y) as i128,
                    BinOp::Ne => (x != y) as i128,
                    BinOp::BitAnd => x & y,
                    BinOp::BitXor => x ^ y,
                    BinOp::BitOr => x | y,
                    BinOp::LogAnd => (x != 0 && y != 0) as i128,
                    BinOp::LogOr => (x != 0 || y != 0) as i128,
                }
            }
            ExprKind::Cond(c, a, b) => {
                if self.const_int_depth(c, d)? != 0 {
                    self.const_int_depth(a, d)?
                } else {
                    self.const_int_depth(b, d)?
                }
            }
            ExprKind::CondOmitted(a, b) => match self.const_int_depth(a, d)? {
                0 => self.const_int_depth(b, d)?,
                x => x,
            },
            ExprKind::Cast(tn, a) => {
                let v = self.const_int_depth(a, d)?;
                let ty = self.resolve_type_name(tn)?;
                match ty {
                    Type::Scalar(s) if s.is_integer() => wrap_to(v, s),
                    Type::Scalar(Scalar::Bool) => (v != 0) as i128,
                    _ => return None,
                }
            }
            ExprKind::SizeofType(tn) => {
                let ty = self.resolve_type_name(tn)?;
                self.size_align(&ty).0 as i128
            }
            ExprKind::AlignofType(tn) => {
                let ty = self.resolve_type_name(tn)?;
                self.size_align(&ty).1 as i128
            }
            ExprKind::VecStepType(tn) => {
                let ty = self.resolve_type_name(tn)?;
                (if ty.lanes() == 3 { 4 } else { ty.lanes() }) as i128
            }
            ExprKind::SizeofExpr(inner) => match &inner.kind {
                ExprKind::Ident(name) => match self.scopes.lookup(name) {
                    Some(Symbol::Var { ty, .. }) => {
                        let ty = ty.clone();
                        self.size_align(&ty).0 as i128
                    }
                    _ => return None,
                },
                _ => return None,
            },
            _ => return None,
        })
    }
}

/// Wraps `v` to the range of the integer scalar `s` (two's complement).
pub fn wrap_to(v: i128, s: Scalar) -> i128 {
    let bits = s.bits();
    let mask: i128 = (1i128 << bits) - 1;
    let u = v & mask;
    if s.is_signed() && u >> (bits - 1) & 1 == 1 {
        u - (1i128 << bits)
    } else {
        u
    }
}
