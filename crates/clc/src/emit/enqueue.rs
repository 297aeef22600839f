//! Device-side enqueue built-ins (OpenCL C 2.0 §6.13.17; 3.0 §6.15.16, with
//! `__opencl_c_device_enqueue`): `enqueue_kernel` in its four forms, the kernel queries,
//! `enqueue_marker`, the event functions, `get_default_queue` and `ndrange_{1,2,3}D`.
//!
//! The SPIR-V follows llvm-spirv-15: `ndrange_t` values are `OpBuildNDRange` structs, passed
//! to `OpEnqueueKernel` and the sub-group queries as a pointer to a private copy; event
//! pointers are `generic` (`OpConstantNull` for none); the Block is passed as its enqueue
//! kernel (`Invoke`), its literal (`Param`, a `generic uchar *`) and the literal's size and
//! alignment; local memory sizes are stored in a private `size_t` array whose element
//! pointers are the `Local Size` operands.

use spv::{Capability, Op, Operand};

use super::Emitter;
use super::Val;
use crate::ast::{AddrSpace, Expr, ExprKind};
use crate::sema::{Scalar, Type};
use crate::source::Span;

/// `0`, `NULL` (`(void *)0`) and casts of them.
fn is_null_constant(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::IntLit { value: 0, .. } => true,
        ExprKind::Cast(_, inner) => is_null_constant(inner),
        _ => false,
    }
}

impl<'a> Emitter<'a> {
    /// A device-enqueue built-in call, or `None` when `name` is not one (or device-side
    /// enqueue is not available: then it is an undeclared function, as in clang).
    pub(crate) fn enqueue_call(
        &mut self,
        name: &str,
        args: &[Expr],
        span: Span,
    ) -> Option<Option<Val>> {
        if !builtins::is_device_enqueue(name) || !self.device_enqueue_allowed() {
            return None;
        }
        self.b.capability(Capability::DeviceEnqueue);
        Some(self.enqueue_dispatch(name, args, span))
    }

    fn enqueue_dispatch(&mut self, name: &str, args: &[Expr], span: Span) -> Option<Val> {
        match name {
            "enqueue_kernel" => self.enqueue_kernel(args, span),
            "get_kernel_work_group_size" | "get_kernel_preferred_work_group_size_multiple" => {
                self.kernel_query(name, args, span)
            }
            "get_kernel_sub_group_count_for_ndrange"
            | "get_kernel_max_sub_group_size_for_ndrange" => {
                self.kernel_ndrange_query(name, args, span)
            }
            "enqueue_marker" => self.enqueue_marker(args, span),
            "retain_event" | "release_event" => {
                let [e] = <[Val; 1]>::try_from(self.enqueue_args(name, args, 1, span)?).ok()?;
                let e = self.expect_type(e, &Type::ClkEvent, &args[0], name)?;
                let op = if name == "retain_event" {
                    Op::RetainEvent
                } else {
                    Op::ReleaseEvent
                };
                self.b.inst_no_result(op, vec![Operand::Id(e.id)]);
                Some(Val {
                    id: self.b.id(),
                    ty: Type::Void,
                })
            }
            "create_user_event" => {
                self.enqueue_args(name, args, 0, span)?;
                let t = self.spv_type(&Type::ClkEvent);
                let id = self.inst(Op::CreateUserEvent, t, vec![]);
                Some(Val {
                    id,
                    ty: Type::ClkEvent,
                })
            }
            "is_valid_event" => {
                let [e] = <[Val; 1]>::try_from(self.enqueue_args(name, args, 1, span)?).ok()?;
                let e = self.expect_type(e, &Type::ClkEvent, &args[0], name)?;
                let t = self.spv_type(&Type::BOOL);
                let id = self.inst(Op::IsValidEvent, t, vec![Operand::Id(e.id)]);
                Some(Val { id, ty: Type::BOOL })
            }
            "set_user_event_status" => {
                let [e, s] = <[Val; 2]>::try_from(self.enqueue_args(name, args, 2, span)?).ok()?;
                let e = self.expect_type(e, &Type::ClkEvent, &args[0], name)?;
                let s = self.assign_convert(s, &Type::INT, &args[1], "passing")?;
                self.b.inst_no_result(
                    Op::SetUserEventStatus,
                    vec![Operand::Id(e.id), Operand::Id(s.id)],
                );
                Some(Val {
                    id: self.b.id(),
                    ty: Type::Void,
                })
            }
            "capture_event_profiling_info" => self.capture_profiling(args, span),
            "get_default_queue" => {
                self.enqueue_args(name, args, 0, span)?;
                let t = self.spv_type(&Type::Queue);
                let id = self.inst(Op::GetDefaultQueue, t, vec![]);
                Some(Val {
                    id,
                    ty: Type::Queue,
                })
            }
            _ => self.ndrange(name, args, span),
        }
    }

    /// Evaluates exactly `n` arguments.
    fn enqueue_args(
        &mut self,
        name: &str,
        args: &[Expr],
        n: usize,
        span: Span,
    ) -> Option<Vec<Val>> {
        if args.len() != n {
            let msg = format!(
                "too {} arguments to function call, expected {n}, have {}",
                if args.len() < n { "few" } else { "many" },
                args.len()
            );
            self.error(span, msg);
            self.note_candidates(name, span);
            return None;
        }
        args.iter().map(|a| self.rvalue(a)).collect()
    }

    /// The prototypes of `name` as a note (for a call that matches none).
    fn note_candidates(&mut self, name: &str, span: Span) {
        let protos: &[&str] = match name {
            "enqueue_kernel" => &[
                "int enqueue_kernel(queue_t queue, kernel_enqueue_flags_t flags, const ndrange_t ndrange, void (^block)(void))",
                "int enqueue_kernel(queue_t queue, kernel_enqueue_flags_t flags, const ndrange_t ndrange, uint num_events_in_wait_list, const clk_event_t *event_wait_list, clk_event_t *event_ret, void (^block)(void))",
                "int enqueue_kernel(queue_t queue, kernel_enqueue_flags_t flags, const ndrange_t ndrange, void (^block)(local void *, ...), uint size0, ...)",
                "int enqueue_kernel(queue_t queue, kernel_enqueue_flags_t flags, const ndrange_t ndrange, uint num_events_in_wait_list, const clk_event_t *event_wait_list, clk_event_t *event_ret, void (^block)(local void *, ...), uint size0, ...)",
            ],
            "enqueue_marker" => &["int enqueue_marker(queue_t queue, uint num_events_in_wait_list, const clk_event_t *event_wait_list, clk_event_t *event_ret)"],
            "ndrange_1D" => &[
                "ndrange_t ndrange_1D(size_t global_work_size)",
                "ndrange_t ndrange_1D(size_t global_work_size, size_t local_work_size)",
                "ndrange_t ndrange_1D(size_t global_work_offset, size_t global_work_size, size_t local_work_size)",
            ],
            "ndrange_2D" | "ndrange_3D" => &[
                "ndrange_t ndrange_ND(const size_t global_work_size[N])",
                "ndrange_t ndrange_ND(const size_t global_work_size[N], const size_t local_work_size[N])",
                "ndrange_t ndrange_ND(const size_t global_work_offset[N], const size_t global_work_size[N], const size_t local_work_size[N])",
            ],
            _ => &[],
        };
        for p in protos {
            self.diags.note(span, format!("candidate function: '{p}'"));
        }
    }

    /// `v` must have type `want` (the opaque device-enqueue types convert to nothing else).
    fn expect_type(&mut self, v: Val, want: &Type, e: &Expr, name: &str) -> Option<Val> {
        if v.ty == *want {
            return Some(v);
        }
        let msg = format!(
            "passing '{}' to parameter of incompatible type '{}' in call to '{name}'",
            self.type_name(&v.ty),
            self.type_name(want)
        );
        self.error(e.span, msg);
        None
    }

    /// A `const clk_event_t *` / `clk_event_t *` argument as a `generic` pointer, or the null
    /// pointer constant.
    fn event_pointer(&mut self, e: &Expr, name: &str) -> Option<spv::Id> {
        let generic = Type::pointer(Type::ClkEvent, AddrSpace::Generic, false);
        if is_null_constant(e) {
            let t = self.spv_type(&generic);
            return Some(self.b.constant_null(t));
        }
        let v = self.rvalue(e)?;
        let ok = v.ty.pointee().is_some_and(|p| p.ty == Type::ClkEvent);
        if !ok {
            let msg = format!(
                "passing '{}' to parameter of incompatible type 'clk_event_t *' in call to '{name}'",
                self.type_name(&v.ty)
            );
            self.error(e.span, msg);
            return None;
        }
        Some(self.pointer_convert(v, &generic, e.span, true)?.id)
    }

    /// A private copy of an `ndrange_t` argument (llvm-spirv passes its address).
    fn ndrange_pointer(&mut self, e: &Expr, name: &str) -> Option<spv::Id> {
        let v = self.rvalue(e)?;
        let v = self.expect_type(v, &Type::NdRange, e, name)?;
        let pt = self.ptr_ty(AddrSpace::Private, &Type::NdRange);
        let var = self.b.local_variable(pt);
        self.b
            .inst_no_result(Op::Store, vec![Operand::Id(var), Operand::Id(v.id)]);
        Some(var)
    }

    /// A Block argument: its enqueue kernel, literal, size and alignment.
    fn block_argument(&mut self, e: &Expr, name: &str) -> Option<(Val, [spv::Id; 4])> {
        let v = self.rvalue(e)?;
        let Type::Block(sig) = &v.ty else {
            let msg = format!(
                "illegal call to '{name}', expected a Block argument, have '{}'",
                self.type_name(&v.ty)
            );
            self.error(e.span, msg);
            return None;
        };
        if sig.ret != Type::Void {
            let msg = format!(
                "the Block passed to '{name}' must return void, not '{}'",
                self.type_name(&sig.ret)
            );
            self.error(e.span, msg);
            return None;
        }
        let Some((kernel, size, align)) = self.block_kernel(&v) else {
            self.error(
                e.span,
                format!("the Block passed to '{name}' is not a known Block literal"),
            );
            return None;
        };
        let uint = self.spv_type(&Type::UINT);
        let size = self.b.constant_u32(uint, size);
        let align = self.b.constant_u32(uint, align);
        Some((v.clone(), [kernel, v.id, size, align]))
    }

    /// A Block literal or Block variable (what decides the form of `enqueue_kernel`).
    fn is_block_expr(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::BlockLit(_) => true,
            ExprKind::Ident(n) => matches!(
                self.scopes.lookup(n),
                Some(crate::sema::Symbol::Value {
                    ty: Type::Block(_),
                    ..
                })
            ),
            _ => false,
        }
    }

    /// `enqueue_kernel` (§6.13.17.2), all four forms.
    fn enqueue_kernel(&mut self, args: &[Expr], span: Span) -> Option<Val> {
        if args.len() < 4 {
            self.error(
                span,
                format!(
                    "too few arguments to function call, expected at least 4, have {}",
                    args.len()
                ),
            );
            self.note_candidates("enqueue_kernel", span);
            return None;
        }
        let q = self.rvalue(&args[0])?;
        let q = self.expect_type(q, &Type::Queue, &args[0], "enqueue_kernel")?;
        let flags = self.rvalue(&args[1])?;
        let flags = self.assign_convert(flags, &Type::INT, &args[1], "passing")?;
        let nd = self.ndrange_pointer(&args[2], "enqueue_kernel")?;
        let block_is_4th = self.is_block_expr(&args[3]);
        let (num_events, wait, ret, block_at) = if block_is_4th {
            let uint = self.spv_type(&Type::UINT);
            let zero = self.b.constant_u32(uint, 0);
            let generic = Type::pointer(Type::ClkEvent, AddrSpace::Generic, false);
            let t = self.spv_type(&generic);
            let null = self.b.constant_null(t);
            (zero, null, null, 3)
        } else {
            if args.len() < 7 {
                self.error(
                    span,
                    format!(
                        "too few arguments to function call, expected at least 7, have {}",
                        args.len()
                    ),
                );
                self.note_candidates("enqueue_kernel", span);
                return None;
            }
            let n = self.rvalue(&args[3])?;
            let n = self.assign_convert(n, &Type::UINT, &args[3], "passing")?;
            let wait = self.event_pointer(&args[4], "enqueue_kernel")?;
            let ret = self.event_pointer(&args[5], "enqueue_kernel")?;
            (n.id, wait, ret, 6)
        };
        let (block, [invoke, param, size, align]) =
            self.block_argument(&args[block_at], "enqueue_kernel")?;
        let Type::Block(sig) = &block.ty else {
            return None;
        };
        let sizes = &args[block_at + 1..];
        // §6.13.17.2: the Block's arguments are `local void *`, one size each.
        for p in &sig.params {
            let local = p.pointee().is_some_and(|p| p.space == AddrSpace::Local);
            if !local {
                self.error(
                    args[block_at].span,
                    "blocks used in enqueue_kernel call are expected to have parameters of type 'local void*'",
                );
                return None;
            }
        }
        if sizes.is_empty() && !sig.params.is_empty() {
            self.error(
                args[block_at].span,
                "blocks with parameters are not accepted in this prototype of enqueue_kernel call",
            );
            return None;
        }
        if sizes.len() != sig.params.len() {
            self.error(
                span,
                "mismatch in number of block parameters and local size arguments passed",
            );
            return None;
        }
        let mut ops = vec![
            Operand::Id(q.id),
            Operand::Id(flags.id),
            Operand::Id(nd),
            Operand::Id(num_events),
            Operand::Id(wait),
            Operand::Id(ret),
            Operand::Id(invoke),
            Operand::Id(param),
            Operand::Id(size),
            Operand::Id(align),
        ];
        if !sizes.is_empty() {
            let size_t = self.size_t();
            let arr_ty = Type::Array(Box::new(size_t.clone()), sizes.len() as u32);
            let pt = self.ptr_ty(AddrSpace::Private, &arr_ty);
            let arr = self.b.local_variable(pt);
            let ept = self.ptr_ty(AddrSpace::Private, &size_t);
            let mut ptrs = Vec::new();
            for (i, e) in sizes.iter().enumerate() {
                let v = self.rvalue(e)?;
                if !v.ty.scalar().is_some_and(|s| s.is_integer()) || v.ty.lanes() != 1 {
                    let msg = format!(
                        "illegal call to enqueue_kernel, parameter needs to be specified as integer type ('{}' invalid)",
                        self.type_name(&v.ty)
                    );
                    self.error(e.span, msg);
                    return None;
                }
                let v = self.assign_convert(v, &size_t, e, "passing")?;
                let idx = self.int_const(Scalar::UInt, i as i128);
                let p = self.inst(
                    Op::InBoundsAccessChain,
                    ept,
                    vec![Operand::Id(arr), Operand::Id(idx)],
                );
                self.b
                    .inst_no_result(Op::Store, vec![Operand::Id(p), Operand::Id(v.id)]);
                ptrs.push(p);
            }
            ops.extend(ptrs.into_iter().map(Operand::Id));
        }
        let int = self.spv_type(&Type::INT);
        let id = self.inst(Op::EnqueueKernel, int, ops);
        Some(Val { id, ty: Type::INT })
    }

    /// `get_kernel_work_group_size(block)` and
    /// `get_kernel_preferred_work_group_size_multiple(block)` (§6.13.17.6).
    fn kernel_query(&mut self, name: &str, args: &[Expr], span: Span) -> Option<Val> {
        if args.len() != 1 {
            self.error(
                span,
                format!("illegal call to '{name}', incorrect argument count"),
            );
            return None;
        }
        let (_, [invoke, param, size, align]) = self.block_argument(&args[0], name)?;
        let op = if name == "get_kernel_work_group_size" {
            Op::GetKernelWorkGroupSize
        } else {
            Op::GetKernelPreferredWorkGroupSizeMultiple
        };
        let uint = self.spv_type(&Type::UINT);
        let id = self.inst(
            op,
            uint,
            [invoke, param, size, align]
                .into_iter()
                .map(Operand::Id)
                .collect(),
        );
        Some(Val { id, ty: Type::UINT })
    }

    /// `get_kernel_sub_group_count_for_ndrange(ndrange, block)` and
    /// `get_kernel_max_sub_group_size_for_ndrange(ndrange, block)` (cl_khr_subgroups;
    /// 3.0 §6.15.16.6 with `__opencl_c_subgroups`).
    fn kernel_ndrange_query(&mut self, name: &str, args: &[Expr], span: Span) -> Option<Val> {
        if !self.opts.subgroups {
            self.error(span, format!("'{name}' needs the cl_khr_subgroups extension or the __opencl_c_subgroups feature"));
            return None;
        }
        if args.len() != 2 {
            self.error(
                span,
                format!("illegal call to '{name}', incorrect argument count"),
            );
            return None;
        }
        let nd = self.ndrange_pointer(&args[0], name)?;
        let (_, [invoke, param, size, align]) = self.block_argument(&args[1], name)?;
        let op = if name == "get_kernel_sub_group_count_for_ndrange" {
            Op::GetKernelNDrangeSubGroupCount
        } else {
            Op::GetKernelNDrangeMaxSubGroupSize
        };
        let uint = self.spv_type(&Type::UINT);
        let id = self.inst(
            op,
            uint,
            [nd, invoke, param, size, align]
                .into_iter()
                .map(Operand::Id)
                .collect(),
        );
        Some(Val { id, ty: Type::UINT })
    }

    /// `enqueue_marker(queue, num_events, wait_list, event_ret)` (§6.13.17.3).
    fn enqueue_marker(&mut self, args: &[Expr], span: Span) -> Option<Val> {
        if args.len() != 4 {
            self.error(
                span,
                format!(
                    "too {} arguments to function call, expected 4, have {}",
                    if args.len() < 4 { "few" } else { "many" },
                    args.len()
                ),
            );
            self.note_candidates("enqueue_marker", span);
            return None;
        }
        let q = self.rvalue(&args[0])?;
        let q = self.expect_type(q, &Type::Queue, &args[0], "enqueue_marker")?;
        let n = self.rvalue(&args[1])?;
        let n = self.assign_convert(n, &Type::UINT, &args[1], "passing")?;
        let wait = self.event_pointer(&args[2], "enqueue_marker")?;
        let ret = self.event_pointer(&args[3], "enqueue_marker")?;
        let int = self.spv_type(&Type::INT);
        let id = self.inst(
            Op::EnqueueMarker,
            int,
            vec![
                Operand::Id(q.id),
                Operand::Id(n.id),
                Operand::Id(wait),
                Operand::Id(ret),
            ],
        );
        Some(Val { id, ty: Type::INT })
    }

    /// `capture_event_profiling_info(event, name, global void *value)` (§6.13.17.4): the
    /// value pointer as a `CrossWorkgroup uchar *` (llvm-spirv).
    fn capture_profiling(&mut self, args: &[Expr], span: Span) -> Option<Val> {
        let name = "capture_event_profiling_info";
        let [e, info, value] =
            <[Val; 3]>::try_from(self.enqueue_args(name, args, 3, span)?).ok()?;
        let e = self.expect_type(e, &Type::ClkEvent, &args[0], name)?;
        let info = self.assign_convert(info, &Type::INT, &args[1], "passing")?;
        let global = value
            .ty
            .pointee()
            .is_some_and(|p| p.space == AddrSpace::Global);
        if !global {
            let msg = format!(
                "passing '{}' to parameter of incompatible type '__global void *' in call to '{name}'",
                self.type_name(&value.ty)
            );
            self.error(args[2].span, msg);
            return None;
        }
        let bytes = Type::pointer(Type::Scalar(Scalar::UChar), AddrSpace::Global, false);
        let t = self.spv_type(&bytes);
        let v = self.inst(Op::Bitcast, t, vec![Operand::Id(value.id)]);
        self.b.inst_no_result(
            Op::CaptureEventProfilingInfo,
            vec![Operand::Id(e.id), Operand::Id(info.id), Operand::Id(v)],
        );
        Some(Val {
            id: self.b.id(),
            ty: Type::Void,
        })
    }

    /// `ndrange_1D/2D/3D` (§6.13.17.1): `OpBuildNDRange global local offset`, missing
    /// sizes zero; the 2D/3D forms read `size_t[N]` arrays.
    fn ndrange(&mut self, name: &str, args: &[Expr], span: Span) -> Option<Val> {
        let dims: u32 = match name {
            "ndrange_1D" => 1,
            "ndrange_2D" => 2,
            _ => 3,
        };
        if args.is_empty() || args.len() > 3 {
            self.error(span, format!("no matching function for call to '{name}'"));
            self.note_candidates(name, span);
            return None;
        }
        let size_t = self.size_t();
        let value_ty = if dims == 1 {
            size_t.clone()
        } else {
            Type::Array(Box::new(size_t.clone()), dims)
        };
        let mut vals = Vec::new();
        let size_scalar = size_t.scalar().unwrap_or(Scalar::ULong);
        for a in args {
            if dims == 1 {
                // Constant sizes stay constants (as clang folds them).
                if let Some(c) = self.const_int(a).filter(|c| *c >= 0) {
                    vals.push(self.int_const(size_scalar, c));
                    continue;
                }
            }
            let v = self.rvalue(a)?;
            let id = if dims == 1 {
                if !v.ty.scalar().is_some_and(|s| s.is_integer()) || v.ty.lanes() != 1 {
                    let msg = format!(
                        "passing '{}' to parameter of incompatible type 'size_t' in call to '{name}'",
                        self.type_name(&v.ty)
                    );
                    self.error(a.span, msg);
                    return None;
                }
                self.assign_convert(v, &size_t, a, "passing")?.id
            } else {
                // An array argument decays to a pointer to its first element.
                let ok = v.ty.pointee().is_some_and(|p| p.ty == size_t);
                if !ok {
                    let msg = format!(
                        "passing '{}' to parameter of incompatible type 'const size_t *' in call to '{name}'",
                        self.type_name(&v.ty)
                    );
                    self.error(a.span, msg);
                    return None;
                }
                let space = v.ty.pointee().map_or(AddrSpace::Private, |p| p.space);
                let ept = self.ptr_ty(space, &size_t);
                let st = self.spv_type(&size_t);
                let mut elems = Vec::new();
                for i in 0..dims {
                    let idx = self.int_const(Scalar::UInt, i as i128);
                    let p = self.inst(
                        Op::InBoundsPtrAccessChain,
                        ept,
                        vec![Operand::Id(v.id), Operand::Id(idx)],
                    );
                    elems.push(self.inst(Op::Load, st, vec![Operand::Id(p)]));
                }
                let at = self.spv_type(&value_ty);
                self.inst(
                    Op::CompositeConstruct,
                    at,
                    elems.into_iter().map(Operand::Id).collect(),
                )
            };
            vals.push(id);
        }
        let zero = if dims == 1 {
            self.int_const(size_scalar, 0)
        } else {
            let vt = self.spv_type(&value_ty);
            self.b.constant_null(vt)
        };
        // Arguments: (global) | (global, local) | (offset, global, local).
        let (offset, global, local) = match vals[..] {
            [g] => (zero, g, zero),
            [g, l] => (zero, g, l),
            [o, g, l] => (o, g, l),
            _ => return None,
        };
        let t = self.spv_type(&Type::NdRange);
        let id = self.inst(
            Op::BuildNDRange,
            t,
            vec![Operand::Id(global), Operand::Id(local), Operand::Id(offset)],
        );
        Some(Val {
            id,
            ty: Type::NdRange,
        })
    }
}
