//! The atomic types of OpenCL C 2.0 §6.13.11.6 (`atomic_int` … `atomic_flag`) as distinct
//! types ([`Type::Atomic`]): the atomic functions take pointers to them, reading one directly
//! is an atomic load (as C11 and clang treat it), and what §6.13.11.8 forbids gets clang-15's
//! diagnostics — operators on atomic objects, assigning to or from one, initializing one
//! outside the global address space. Passing `int *` where `atomic_int *` is expected (and the
//! reverse) is clang's incompatible-pointer warning.

use spv::{Op, Operand};

use super::call::C11;
use super::Emitter;
use crate::ast::{AddrSpace, Expr};
use crate::sema::{Pointee, Scalar, Type};
use crate::source::Span;

/// clang-15's wording of both invalid-assignment cases (§6.13.11.8).
pub const ATOMIC_ASSIGN: &str =
    "atomic variable can be assigned to a variable only in global address space";
/// clang-15's wording for an initialized atomic object outside the global address space.
pub const ATOMIC_INIT: &str =
    "atomic variable can be initialized to a variable only in global address space";

impl<'a> Emitter<'a> {
    /// Reads an atomic object: `OpAtomicLoad`, sequentially consistent at device scope (a
    /// C11 atomic read); floats through their bits (env 2.1: atomics are on integers).
    pub fn atomic_object_load(&mut self, ptr: spv::Id, s: Scalar, space: AddrSpace) -> spv::Id {
        if s.bits() == 64 {
            self.b.capability(spv::Capability::Int64Atomics);
        }
        let (obj, _, is) = self.atomic_int_view(ptr, space, s, Vec::new());
        let t = self.scalar_ty(is);
        let sc = self.int_const(Scalar::UInt, Self::scope_of(2) as i128);
        let se = self.int_const(Scalar::UInt, Self::order_semantics(5, Some(space)) as i128);
        let id = self.inst(
            Op::AtomicLoad,
            t,
            vec![Operand::Id(obj), Operand::Id(sc), Operand::Id(se)],
        );
        self.bits_as_float(id, s)
    }

    /// The value type of the object an atomic function's pointer argument points to, as
    /// clang-15 resolves opencl-c.h's `volatile atomic_T *` overloads: a pointer to a plain
    /// scalar is an incompatible-pointer warning when a value argument picks the overload,
    /// an ambiguous call otherwise (`atomic_load`); `constant` atomics match no overload.
    pub(super) fn c11_atomic_object(
        &mut self,
        name: &str,
        kind: C11,
        obj_ty: &Type,
        p: &Pointee,
        arg: &Expr,
        span: Span,
    ) -> Option<Scalar> {
        match &p.ty {
            Type::Atomic(s) => {
                if p.space == AddrSpace::Constant {
                    self.error(span, format!("no matching function for call to '{name}'"));
                    return None;
                }
                Some(*s)
            }
            Type::Scalar(s) => {
                if kind == C11::Load {
                    self.error(span, format!("call to '{name}' is ambiguous"));
                    return None;
                }
                // clang's spelling of the parameter (opencl-c.h declares `atomic_flag *`).
                let param = if matches!(kind, C11::TestAndSet | C11::Clear) {
                    "'volatile __generic atomic_flag *' (aka 'volatile __generic _Atomic(int) *')"
                        .to_string()
                } else {
                    format!("'volatile __generic _Atomic({}) *'", c_name(*s))
                };
                let msg = format!(
                    "incompatible pointer types passing '{}' to parameter of type {param}",
                    self.type_name(obj_ty)
                );
                self.warning(arg.span, msg);
                Some(*s)
            }
            _ => {
                let msg = format!(
                    "address argument to atomic operation must be a pointer to an atomic type ('{}' invalid)",
                    self.type_name(obj_ty)
                );
                self.error(arg.span, msg);
                None
            }
        }
    }

    /// §6.13.11.8: assignment may not store to nor read from an atomic object (clang-15
    /// reports both with one message, at the operator).
    pub fn check_atomic_assignment(&mut self, lhs: &Type, rhs: &Type, op_span: Span) -> bool {
        if matches!(lhs, Type::Atomic(_)) || matches!(rhs, Type::Atomic(_)) {
            self.error(op_span, ATOMIC_ASSIGN);
            return false;
        }
        true
    }
}

/// The value type an atomic converts to (its read value), other types unchanged.
pub fn strip_atomic(t: &Type) -> Type {
    match t {
        Type::Atomic(s) => Type::Scalar(*s),
        other => other.clone(),
    }
}

/// The C spelling clang uses inside `_Atomic(…)`.
fn c_name(s: Scalar) -> &'static str {
    match s {
        Scalar::UInt => "unsigned int",
        Scalar::ULong => "unsigned long",
        other => other.name(),
    }
}
