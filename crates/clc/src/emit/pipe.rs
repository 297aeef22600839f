//! Pipe built-ins (OpenCL C 2.0 §6.13.16), emitted as llvm-spirv-15 does: every pipe
//! instruction ends with the packet size and alignment as `uint` constants; packet pointers
//! are passed as `Generic` `uchar*` (`OpBitcast` to `uchar*`, then `OpPtrCastToGeneric`);
//! `read_pipe`/`write_pipe` return the `OpReadPipe`/`OpWritePipe` status (0 on success);
//! the work-group and sub-group forms take the scope (`Workgroup` 2, `Subgroup` 3) first.

use spv::{Id, Op, Operand, Scope};

use super::{Emitter, Val};
use crate::ast::{AddrSpace, Expr};
use crate::sema::types::Pointee;
use crate::sema::{Scalar, Type};
use crate::source::Span;

/// What a pipe built-in does; `group` is the scope of the group forms.
#[derive(Copy, Clone)]
enum PipeFn {
    /// `read_pipe`/`write_pipe`, 2 or 4 arguments.
    Transfer {
        write: bool,
    },
    Reserve {
        write: bool,
        group: Option<Scope>,
    },
    Commit {
        write: bool,
        group: Option<Scope>,
    },
    NumPackets,
    MaxPackets,
}

fn pipe_fn(name: &str) -> Option<PipeFn> {
    let (group, rest) = if let Some(r) = name.strip_prefix("work_group_") {
        (Some(Scope::Workgroup), r)
    } else if let Some(r) = name.strip_prefix("sub_group_") {
        (Some(Scope::Subgroup), r)
    } else {
        (None, name)
    };
    Some(match (group, rest) {
        (None, "read_pipe") => PipeFn::Transfer { write: false },
        (None, "write_pipe") => PipeFn::Transfer { write: true },
        (_, "reserve_read_pipe") => PipeFn::Reserve {
            write: false,
            group,
        },
        (_, "reserve_write_pipe") => PipeFn::Reserve { write: true, group },
        (_, "commit_read_pipe") => PipeFn::Commit {
            write: false,
            group,
        },
        (_, "commit_write_pipe") => PipeFn::Commit { write: true, group },
        (None, "get_pipe_num_packets") => PipeFn::NumPackets,
        (None, "get_pipe_max_packets") => PipeFn::MaxPackets,
        _ => return None,
    })
}

impl<'a> Emitter<'a> {
    /// A pipe built-in call, `None` when `name` is not one.
    pub(crate) fn pipe_call(
        &mut self,
        name: &str,
        args: &[Expr],
        span: Span,
    ) -> Option<Option<Val>> {
        if name == "is_valid_reserve_id" {
            if !self.pipes_allowed() {
                return None;
            }
            return Some(self.is_valid_reserve_id(name, args, span));
        }
        let f = pipe_fn(name)?;
        if !self.pipes_allowed() {
            return None; // reported as an implicit declaration
        }
        Some(self.pipe_call_inner(name, f, args, span))
    }

    fn pipe_call_inner(&mut self, name: &str, f: PipeFn, args: &[Expr], span: Span) -> Option<Val> {
        let want: &[usize] = match f {
            PipeFn::Transfer { .. } => &[2, 4],
            PipeFn::Reserve { .. } | PipeFn::Commit { .. } => &[2],
            PipeFn::NumPackets | PipeFn::MaxPackets => &[1],
        };
        if !want.contains(&args.len()) {
            let expected = want
                .iter()
                .map(|n| n.to_string())
                .collect::<Vec<_>>()
                .join(" or ");
            self.error(
                span,
                format!(
                    "invalid number of arguments to function: '{name}' takes {expected}, have {}",
                    args.len()
                ),
            );
            return None;
        }
        let group = match f {
            PipeFn::Reserve { group, .. } | PipeFn::Commit { group, .. } => group,
            _ => None,
        };
        if group == Some(Scope::Subgroup) && !self.opts.subgroups {
            self.error(
                span,
                format!("'{name}' requires the cl_khr_subgroups extension"),
            );
            return None;
        }
        let needs_write = match f {
            PipeFn::Transfer { write }
            | PipeFn::Reserve { write, .. }
            | PipeFn::Commit { write, .. } => Some(write),
            PipeFn::NumPackets | PipeFn::MaxPackets => None,
        };
        let (pipe, packet) = self.pipe_arg(name, &args[0], needs_write)?;
        let (size, align) = self.size_align(&packet);
        let size = self.int_const(Scalar::UInt, size as i128);
        let align = self.int_const(Scalar::UInt, align as i128);
        let uint = self.spv_type(&Type::UINT);
        let scope = group.map(|s| self.int_const(Scalar::UInt, s as i128));
        match f {
            PipeFn::Transfer { write } => {
                let ptr = self.packet_pointer(name, &args[args.len() - 1], &packet, write)?;
                let id = if args.len() == 2 {
                    let op = if write { Op::WritePipe } else { Op::ReadPipe };
                    self.inst(
                        op,
                        uint,
                        vec![
                            Operand::Id(pipe),
                            Operand::Id(ptr),
                            Operand::Id(size),
                            Operand::Id(align),
                        ],
                    )
                } else {
                    let rid = self.reserve_id_arg(name, &args[1])?;
                    let index = self.uint_arg(&args[2])?;
                    let op = if write {
                        Op::ReservedWritePipe
                    } else {
                        Op::ReservedReadPipe
                    };
                    self.inst(
                        op,
                        uint,
                        vec![
                            Operand::Id(pipe),
                            Operand::Id(rid),
                            Operand::Id(index),
                            Operand::Id(ptr),
                            Operand::Id(size),
                            Operand::Id(align),
                        ],
                    )
                };
                // int read_pipe(…) / int write_pipe(…): the status, 0 on success.
                Some(Val { id, ty: Type::INT })
            }
            PipeFn::Reserve { write, .. } => {
                let n = self.uint_arg(&args[1])?;
                let rt = self.spv_type(&Type::ReserveId);
                let mut ops = Vec::new();
                let op = match (scope, write) {
                    (Some(s), w) => {
                        ops.push(Operand::Id(s));
                        if w {
                            Op::GroupReserveWritePipePackets
                        } else {
                            Op::GroupReserveReadPipePackets
                        }
                    }
                    (None, true) => Op::ReserveWritePipePackets,
                    (None, false) => Op::ReserveReadPipePackets,
                };
                ops.extend([
                    Operand::Id(pipe),
                    Operand::Id(n),
                    Operand::Id(size),
                    Operand::Id(align),
                ]);
                let id = self.inst(op, rt, ops);
                Some(Val {
                    id,
                    ty: Type::ReserveId,
                })
            }
            PipeFn::Commit { write, .. } => {
                let rid = self.reserve_id_arg(name, &args[1])?;
                let mut ops = Vec::new();
                let op = match (scope, write) {
                    (Some(s), w) => {
                        ops.push(Operand::Id(s));
                        if w {
                            Op::GroupCommitWritePipe
                        } else {
                            Op::GroupCommitReadPipe
                        }
                    }
                    (None, true) => Op::CommitWritePipe,
                    (None, false) => Op::CommitReadPipe,
                };
                ops.extend([
                    Operand::Id(pipe),
                    Operand::Id(rid),
                    Operand::Id(size),
                    Operand::Id(align),
                ]);
                self.b.inst_no_result(op, ops);
                Some(Val {
                    id: self.b.id(),
                    ty: Type::Void,
                })
            }
            PipeFn::NumPackets | PipeFn::MaxPackets => {
                let op = if matches!(f, PipeFn::NumPackets) {
                    Op::GetNumPipePackets
                } else {
                    Op::GetMaxPipePackets
                };
                let id = self.inst(
                    op,
                    uint,
                    vec![Operand::Id(pipe), Operand::Id(size), Operand::Id(align)],
                );
                Some(Val { id, ty: Type::UINT })
            }
        }
    }

    /// The pipe operand: its value and packet type; `needs_write` checks the access
    /// qualifier (§6.13.16.2: read functions need `read_only`, write functions `write_only`).
    fn pipe_arg(&mut self, name: &str, e: &Expr, needs_write: Option<bool>) -> Option<(Id, Type)> {
        let v = self.rvalue(e)?;
        let Type::Pipe(packet, write) = &v.ty else {
            let msg = format!(
                "first argument to '{name}' must be a pipe type, have '{}'",
                self.type_name(&v.ty)
            );
            self.error(e.span, msg);
            return None;
        };
        if let Some(w) = needs_write {
            if w != *write {
                let want = if w { "write_only" } else { "read_only" };
                self.error(
                    e.span,
                    format!("invalid pipe access modifier (expecting {want})"),
                );
                return None;
            }
        }
        Some((v.id, (**packet).clone()))
    }

    fn reserve_id_arg(&mut self, name: &str, e: &Expr) -> Option<Id> {
        let v = self.rvalue(e)?;
        if v.ty != Type::ReserveId {
            let msg = format!(
                "invalid argument type to function '{name}' (expecting 'reserve_id_t' having '{}')",
                self.type_name(&v.ty)
            );
            self.error(e.span, msg);
            return None;
        }
        Some(v.id)
    }

    fn uint_arg(&mut self, e: &Expr) -> Option<Id> {
        let v = self.rvalue(e)?;
        if !v.ty.is_integer() || v.ty.is_vector() {
            let msg = format!(
                "passing '{}' to parameter of incompatible type 'uint'",
                self.type_name(&v.ty)
            );
            self.error(e.span, msg);
            return None;
        }
        Some(self.implicit_convert(v, &Type::UINT, e.span, "passing")?.id)
    }

    /// The packet pointer as the `Generic uchar*` llvm-spirv passes. It must point to the
    /// packet type (§6.13.16.2: `gentype *ptr`), in an address space the generic one
    /// covers (not `__constant`); a write's source may be const.
    fn packet_pointer(&mut self, name: &str, e: &Expr, packet: &Type, write: bool) -> Option<Id> {
        let v = self.rvalue(e)?;
        let ok = match &v.ty {
            Type::Pointer(p) => {
                p.ty == *packet && p.space != AddrSpace::Constant && (write || !p.is_const)
            }
            _ => false,
        };
        let Type::Pointer(p) = &v.ty else {
            return self.bad_packet_pointer(name, e, packet, &v.ty);
        };
        if !ok {
            return self.bad_packet_pointer(name, e, packet, &v.ty);
        }
        let space = p.space;
        let uchar = Type::Scalar(Scalar::UChar);
        let bytes_t = self.ptr_ty(space, &uchar);
        let bytes = self.inst(Op::Bitcast, bytes_t, vec![Operand::Id(v.id)]);
        if space == AddrSpace::Generic {
            return Some(bytes);
        }
        let generic_t = self.ptr_ty(AddrSpace::Generic, &uchar);
        Some(self.inst(Op::PtrCastToGeneric, generic_t, vec![Operand::Id(bytes)]))
    }

    fn bad_packet_pointer(
        &mut self,
        name: &str,
        e: &Expr,
        packet: &Type,
        have: &Type,
    ) -> Option<Id> {
        let want = Type::Pointer(Box::new(Pointee {
            ty: packet.clone(),
            space: AddrSpace::Generic,
            is_const: false,
            is_volatile: false,
        }));
        let msg = format!(
            "invalid argument type to function '{name}' (expecting '{}' having '{}')",
            self.type_name(&want),
            self.type_name(have)
        );
        self.error(e.span, msg);
        None
    }

    /// `bool is_valid_reserve_id(reserve_id_t)` → `OpIsValidReserveId`.
    fn is_valid_reserve_id(&mut self, name: &str, args: &[Expr], span: Span) -> Option<Val> {
        let [arg] = args else {
            self.error(
                span,
                format!("'{name}' takes exactly one argument, have {}", args.len()),
            );
            return None;
        };
        let rid = self.reserve_id_arg(name, arg)?;
        let bool_t = self.spv_type(&Type::Scalar(Scalar::Bool));
        let id = self.inst(Op::IsValidReserveId, bool_t, vec![Operand::Id(rid)]);
        Some(Val {
            id,
            ty: Type::Scalar(Scalar::Bool),
        })
    }
}
