//! Calls: user functions (`OpFunctionCall`), and built-ins from the `builtins` table with
//! overload resolution (exact match first, then the cheapest implicit scalar conversions),
//! plus the conversion families `convert_<T>[_sat][_<rnd>]` (§6.2.3), `as_<T>` (§6.2.4.2),
//! and `vloadn`/`vstoren`/`vload_half`/`vstore_half` (§6.13.7).

use spv::{Decoration, Id, MemorySemantics, Op, OpenClStd, Operand, Scope};

use super::{Emitter, Val};
use crate::ast::{AddrSpace, Expr, ExprKind};
use crate::sema::{Scalar, Symbol, Type};
use crate::source::Span;

/// The cost of splatting a scalar argument to a vector parameter: more than any sum of
/// scalar conversion costs of a call, so every overload without a splat is preferred.
const SPLAT_COST: u32 = 100;

impl<'a> Emitter<'a> {
    pub(crate) fn call(&mut self, callee: &Expr, args: &[Expr], span: Span) -> Option<Val> {
        // §1.12.1: a Block variable (or literal) is called like a function.
        let is_block = match &callee.kind {
            ExprKind::Ident(n) => matches!(
                self.scopes.lookup(n),
                Some(Symbol::Value {
                    ty: Type::Block(_),
                    ..
                })
            ),
            ExprKind::BlockLit(_) => true,
            _ => false,
        };
        if is_block {
            let f = self.rvalue(callee)?;
            return self.block_call(f, args, span);
        }
        let ExprKind::Ident(name) = &callee.kind else {
            self.error(
                callee.span,
                "called object is not a function (function pointers are not allowed in OpenCL C)",
            );
            return None;
        };
        if let Some(keys) = self.overloads.get(name).cloned() {
            let key = self.resolve_overload(name, &keys, args, callee.span)?;
            let sig = self.funcs.get(&key).cloned()?;
            return self.user_call(&key, &sig, args, span, callee.span);
        }
        if let Some(sig) = self.funcs.get(name).cloned() {
            return self.user_call(name, &sig, args, span, callee.span);
        }
        if let Some(c) = builtins::parse_convert(name) {
            return self.convert_call(name, c, args, span);
        }
        if let Some((elem, lanes)) = builtins::parse_as_type(name) {
            return self.as_type_call(
                name,
                Type::vector_or_scalar(Scalar::from_elem(elem), lanes),
                args,
                span,
            );
        }
        if let Some(v) = self.vload_vstore(name, args, span) {
            return v;
        }
        if let Some(v) = self.atomic_call(name, args, span) {
            return v;
        }
        if let Some(v) = self.image_call(name, args, span) {
            return v;
        }
        if let Some(v) = self.pipe_call(name, args, span) {
            return v;
        }
        if let Some(v) = self.enqueue_call(name, args, span) {
            return v;
        }
        if let Some(v) = self.c11_atomic_call(name, args, span) {
            return v;
        }
        match name.as_str() {
            "shuffle" | "shuffle2" => return self.shuffle(name, args, span),
            "async_work_group_copy" | "async_work_group_strided_copy" => {
                return self.async_copy(name, args, span)
            }
            "wait_group_events" => return self.wait_group_events(args, span),
            "prefetch" => return self.prefetch(args, span),
            "to_global" | "to_local" | "to_private" if self.opts.generic_address_space => {
                return self.address_space_cast(name, args, span)
            }
            _ => {}
        }
        if let Some(fam) = builtins::lookup(name) {
            return self.builtin_call(fam, args, span, callee.span);
        }
        if name == "__builtin_expect" {
            return self.builtin_expect(args, span);
        }
        if let Some(double) = builtin_infinity(name) {
            return self.builtin_infinity(double, args, span);
        }
        if name == "printf" {
            return self.printf(args, span);
        }
        // C11's `static_assert` is a macro of <assert.h>, not a keyword: clang-15 reports the
        // name itself.
        let msg = if name == "static_assert" {
            format!("use of undeclared identifier '{name}'")
        } else {
            format!("implicit declaration of function '{name}' is invalid in OpenCL")
        };
        self.error_undeclared(name, callee.span, msg);
        None
    }

    fn user_call(
        &mut self,
        name: &str,
        sig: &super::FuncSig,
        args: &[Expr],
        span: Span,
        name_span: Span,
    ) -> Option<Val> {
        if args.len() != sig.params.len() {
            let kind = if args.len() < sig.params.len() {
                "few"
            } else {
                "many"
            };
            let at = arg_count_span(span, args, sig.params.len());
            self.error(
                at,
                format!(
                    "too {kind} arguments to function call, expected {}, have {}",
                    sig.params.len(),
                    args.len()
                ),
            );
            return None;
        }
        if sig.has_block_params() {
            return self.specialized_call(name, sig, args, span, name_span);
        }
        let mut ids = Vec::new();
        let mut ok = true;
        for (a, pt) in args.iter().zip(&sig.params) {
            match self.rvalue(a) {
                Some(v) => match self.assign_convert(v, pt, a, "passing to parameter of type") {
                    Some(v) if sig.is_kernel && matches!(pt, Type::Record(_)) => {
                        // A kernel's struct parameter is a pointer to a private copy.
                        let ptr_t = self.ptr_ty(AddrSpace::Private, pt);
                        let tmp = self.b.local_variable(ptr_t);
                        self.b
                            .inst_no_result(Op::Store, vec![Operand::Id(tmp), Operand::Id(v.id)]);
                        ids.push(Operand::Id(tmp));
                    }
                    Some(v) => ids.push(Operand::Id(v.id)),
                    None => ok = false,
                },
                None => ok = false,
            }
        }
        if !ok {
            return None;
        }
        self.calls
            .entry(self.fs.name.clone())
            .or_default()
            .push((name.to_string(), name_span));
        let rt = self.spv_type(&sig.ret);
        let mut ops = vec![Operand::Id(sig.id)];
        ops.extend(ids);
        let id = self.inst(Op::FunctionCall, rt, ops);
        Some(Val {
            id,
            ty: sig.ret.clone(),
        })
    }

    /// A family's overloads for this compilation, expanded once per family (expansion is
    /// the hot spot of built-in calls).
    fn family_overloads(
        &mut self,
        fam: &'static builtins::Family,
    ) -> std::rc::Rc<Vec<builtins::Overload>> {
        if let Some(o) = self.overload_cache.get(fam.name) {
            return o.clone();
        }
        let o = std::rc::Rc::new(fam.overloads(&self.builtin_ctx()));
        self.overload_cache.insert(fam.name, o.clone());
        o
    }

    fn builtin_ctx(&self) -> builtins::Ctx {
        builtins::Ctx {
            cl_version: self.opts.cl_version,
            fp64: self.opts.fp64,
            fp16: self.opts.fp16,
            generic_address_space: self.opts.generic_address_space,
            address_bits: self.pointer_bits(),
            work_group_collectives: self.opts.work_group_collectives,
            subgroups: self.opts.subgroups,
        }
    }

    pub fn type_from_builtin(&self, t: &builtins::Ty) -> Type {
        match t {
            builtins::Ty::Void => Type::Void,
            builtins::Ty::Scalar(e) => Type::Scalar(Scalar::from_elem(*e)),
            builtins::Ty::Vector(e, n) => Type::Vector(Scalar::from_elem(*e), *n),
            builtins::Ty::Pointer(s, p) => {
                let space = match s {
                    builtins::AddrSpace::Private => AddrSpace::Private,
                    builtins::AddrSpace::Global => AddrSpace::Global,
                    builtins::AddrSpace::Local => AddrSpace::Local,
                    builtins::AddrSpace::Constant => AddrSpace::Constant,
                    builtins::AddrSpace::Generic => AddrSpace::Generic,
                };
                Type::pointer(self.type_from_builtin(p), space, false)
            }
        }
    }

    /// Cost of converting an argument to a parameter type (None = impossible).
    fn conversion_cost(arg: &Type, param: &Type, is_const: bool) -> Option<u32> {
        if arg == param {
            return Some(0);
        }
        match (arg, param) {
            // A comparison's value (C99 6.5.8p6: its type is int) and `bool` (promoted to int,
            // 6.3.1.1p2): int is the best match, then as from int.
            (Type::Scalar(Scalar::Bool), Type::Scalar(p)) if !is_const => {
                if *p == Scalar::Int {
                    return Some(1);
                }
                Self::conversion_cost(&Type::INT, param, false).map(|c| c + 1)
            }
            (Type::Scalar(a), Type::Scalar(p)) => {
                if is_const && !a.is_float() {
                    return Some(if p.is_float() { 2 } else { 1 });
                }
                Some(match (a.is_float(), p.is_float()) {
                    (false, false) if *a == Scalar::Bool => 1,
                    (false, false) if a.is_signed() == p.is_signed() && p.bits() > a.bits() => 2,
                    (false, false) => 4,
                    (true, true) if p.bits() > a.bits() => 2,
                    (true, true) => 5,
                    (false, true) => 5,
                    (true, false) => 8,
                })
            }
            // A scalar argument splats to a vector parameter (clang's vector splat conversion:
            // `fmax(float, float4)` is `fmax(float4, float4)`, `clamp(int4, int, int4)` is
            // `clamp(int4, int4, int4)`). It ranks below every scalar-only match, so an
            // overload taking the scalar as it is (`fmin(float4, float)`) is still preferred.
            (Type::Scalar(_), Type::Vector(p, _)) => {
                Self::conversion_cost(arg, &Type::Scalar(*p), is_const).map(|c| c + SPLAT_COST)
            }
            (Type::Pointer(a), Type::Pointer(p)) => {
                if !super::convert::same_unqualified(&a.ty, &p.ty) {
                    return None;
                }
                if a.space == p.space {
                    Some(0)
                } else if p.space == AddrSpace::Generic && a.space != AddrSpace::Constant {
                    Some(1)
                } else {
                    None
                }
            }
            _ => None,
        }
    }

    fn builtin_call(
        &mut self,
        fam: &'static builtins::Family,
        args: &[Expr],
        span: Span,
        name_span: Span,
    ) -> Option<Val> {
        let mut vals = Vec::new();
        for a in args {
            vals.push(self.rvalue(a)?);
        }
        let consts: Vec<bool> = args.iter().map(|a| self.const_int(a).is_some()).collect();
        let overloads = self.family_overloads(fam);
        if overloads.is_empty() {
            // Not in this OpenCL C version (or needs an extension).
            self.error(
                name_span,
                format!(
                    "implicit declaration of function '{}' is invalid in OpenCL",
                    fam.name
                ),
            );
            return None;
        }
        let mut best: Vec<(u32, usize)> = Vec::new();
        for (k, o) in overloads.iter().enumerate() {
            if o.params.len() != vals.len() {
                continue;
            }
            let mut total = 0;
            let mut ok = true;
            for ((v, p), c) in vals.iter().zip(&o.params).zip(&consts) {
                let pt = self.type_from_builtin(p);
                match Self::conversion_cost(&v.ty, &pt, *c) {
                    Some(x) => total += x,
                    None => {
                        ok = false;
                        break;
                    }
                }
            }
            if ok {
                best.push((total, k));
            }
        }
        best.sort();
        let chosen = match best.as_slice() {
            [] => {
                let arg_list: Vec<String> = vals.iter().map(|v| self.type_name(&v.ty)).collect();
                self.error(
                    name_span,
                    format!(
                        "no matching function for call to '{}' with arguments ({})",
                        fam.name,
                        arg_list.join(", ")
                    ),
                );
                let shown = overloads.len().min(6);
                for o in overloads.iter().take(shown) {
                    let why = if o.params.len() != vals.len() {
                        format!(
                            "candidate function not viable: requires {} argument{}, but {} {} provided",
                            o.params.len(),
                            if o.params.len() == 1 { "" } else { "s" },
                            vals.len(),
                            if vals.len() == 1 { "was" } else { "were" }
                        )
                    } else {
                        "candidate function not viable: no known conversion for an argument"
                            .to_string()
                    };
                    self.diags.note(
                        name_span,
                        format!("{why}: {} {}{}", o.ret, fam.name, params_text(o)),
                    );
                }
                if overloads.len() > shown {
                    self.diags.note(
                        name_span,
                        format!(
                            "{} more candidates of '{}' not shown",
                            overloads.len() - shown,
                            fam.name
                        ),
                    );
                }
                return None;
            }
            [(c0, k), rest @ ..] => {
                if rest.first().is_some_and(|(c1, _)| c1 == c0) {
                    self.error(name_span, format!("call to '{}' is ambiguous", fam.name));
                    for (c, k2) in best.iter().take_while(|(c, _)| c == c0).take(4) {
                        let _ = c;
                        let o = &overloads[*k2];
                        self.diags.note(
                            name_span,
                            format!(
                                "candidate function: {} {}{}",
                                o.ret,
                                fam.name,
                                params_text(o)
                            ),
                        );
                    }
                    return None;
                }
                overloads[*k].clone()
            }
        };
        let _ = span;
        let mut conv = Vec::new();
        for ((v, p), a) in vals.into_iter().zip(&chosen.params).zip(args) {
            let pt = self.type_from_builtin(p);
            conv.push(self.implicit_convert(v, &pt, a.span, "passing to parameter of type")?);
        }
        let ret = self.type_from_builtin(&chosen.ret);
        self.lower_builtin(fam, &conv, &ret, args, span)
    }

    fn ext(&mut self, name: &str, ret: &Type, args: &[Val], span: Span) -> Option<Val> {
        let Some(inst) = OpenClStd::from_name(name) else {
            self.error(
                span,
                format!("built-in '{name}' has no OpenCL.std instruction"),
            );
            return None;
        };
        let rt = self.spv_type(ret);
        // OpenCL.std wants every gentype operand as wide as the result: `clamp(float4, float,
        // float)` splats its scalars (like llvm-spirv).
        let lanes = ret.lanes();
        let mut ids: Vec<Id> = Vec::new();
        for v in args {
            match &v.ty {
                Type::Scalar(s) if lanes > 1 => ids.push(self.splat(v.id, *s, lanes)),
                _ => ids.push(v.id),
            }
        }
        let id = self.b.opencl_std(rt, inst, &ids);
        Some(Val {
            id,
            ty: ret.clone(),
        })
    }

    fn lower_builtin(
        &mut self,
        fam: &'static builtins::Family,
        args: &[Val],
        ret: &Type,
        arg_exprs: &[Expr],
        span: Span,
    ) -> Option<Val> {
        use builtins::Lowering as L;
        let first_elem = args
            .first()
            .and_then(|v| v.ty.elem())
            .unwrap_or(Scalar::Float);
        match fam.lowering {
            L::ExtInst(name) => self.ext(name, ret, args, span),
            L::ExtInstBySign { signed, unsigned } => {
                let n = if first_elem.is_signed() {
                    signed
                } else {
                    unsigned
                };
                self.ext(n, ret, args, span)
            }
            L::ExtInstByKind {
                float,
                signed,
                unsigned,
            } => {
                let n = if first_elem.is_float() {
                    float
                } else if first_elem.is_signed() {
                    signed
                } else {
                    unsigned
                };
                self.ext(n, ret, args, span)
            }
            L::WorkItem(builtin) => self.work_item(builtin, ret, args, arg_exprs),
            L::Predicate(op) => {
                let Some(o) = core_op(op) else {
                    self.error(span, format!("unknown core instruction {op}"));
                    return None;
                };
                let n = args.first().map(|v| v.ty.lanes()).unwrap_or(1);
                let bt = self.bool_ty(n);
                let ops = args.iter().map(|v| Operand::Id(v.id)).collect();
                let c = self.inst(o, bt, ops);
                Some(Val {
                    id: self.bool_to_int(c, ret),
                    ty: ret.clone(),
                })
            }
            L::Core(op) => {
                if op == "OpDot" && !args.first().is_some_and(|v| v.ty.is_vector()) {
                    let t = self.spv_type(ret);
                    let id = self.inst(
                        Op::FMul,
                        t,
                        vec![Operand::Id(args[0].id), Operand::Id(args[1].id)],
                    );
                    return Some(Val {
                        id,
                        ty: ret.clone(),
                    });
                }
                let Some(o) = core_op(op) else {
                    self.error(span, format!("unknown core instruction {op}"));
                    return None;
                };
                let t = self.spv_type(ret);
                let ops = args.iter().map(|v| Operand::Id(v.id)).collect();
                Some(Val {
                    id: self.inst(o, t, ops),
                    ty: ret.clone(),
                })
            }
            L::SignBitsReduce(op) => {
                let v = args.first()?;
                let n = v.ty.lanes();
                let bt = self.bool_ty(n);
                let z = self.splat_const(&v.ty, 0.0);
                let neg = self.inst(Op::SLessThan, bt, vec![Operand::Id(v.id), Operand::Id(z)]);
                let c = if n > 1 {
                    let o = if op == "OpAll" { Op::All } else { Op::Any };
                    let b1 = self.b.type_bool();
                    self.inst(o, b1, vec![Operand::Id(neg)])
                } else {
                    neg
                };
                Some(Val {
                    id: self.bool_to_int(c, &Type::INT),
                    ty: Type::INT,
                })
            }
            L::Barrier | L::MemFence => {
                let flags = arg_exprs
                    .first()
                    .and_then(|e| self.const_int(e))
                    .unwrap_or(3) as u32;
                let mut sem = MemorySemantics::SEQUENTIALLY_CONSISTENT.0;
                if flags & 1 != 0 {
                    sem |= MemorySemantics::WORKGROUP_MEMORY.0;
                }
                if flags & 2 != 0 {
                    sem |= MemorySemantics::CROSS_WORKGROUP_MEMORY.0;
                }
                if flags & 4 != 0 {
                    sem |= MemorySemantics::IMAGE_MEMORY.0;
                }
                let wg = self.int_const(Scalar::UInt, Scope::Workgroup as i128);
                let sem_id = self.int_const(Scalar::UInt, sem as i128);
                if matches!(fam.lowering, L::Barrier) {
                    self.b.inst_no_result(
                        Op::ControlBarrier,
                        vec![Operand::Id(wg), Operand::Id(wg), Operand::Id(sem_id)],
                    );
                } else {
                    self.b.inst_no_result(
                        Op::MemoryBarrier,
                        vec![Operand::Id(wg), Operand::Id(sem_id)],
                    );
                }
                Some(Val {
                    id: self.b.id(),
                    ty: Type::Void,
                })
            }
            L::SubgroupBarrier => {
                // As llvm-spirv: execution scope Subgroup, memory scope Workgroup unless the
                // call names one.
                let flags = arg_exprs
                    .first()
                    .and_then(|e| self.const_int(e))
                    .unwrap_or(3) as u32;
                let mem_scope = match arg_exprs.get(1).and_then(|e| self.const_int(e)) {
                    Some(scope) => Self::scope_of(scope as u32),
                    None => Scope::Workgroup,
                };
                let sem = fence_semantics(flags);
                let exec = self.int_const(Scalar::UInt, Scope::Subgroup as i128);
                let mem = self.int_const(Scalar::UInt, mem_scope as i128);
                let sem_id = self.int_const(Scalar::UInt, sem as i128);
                self.b.inst_no_result(
                    Op::ControlBarrier,
                    vec![Operand::Id(exec), Operand::Id(mem), Operand::Id(sem_id)],
                );
                Some(Val {
                    id: self.b.id(),
                    ty: Type::Void,
                })
            }
            L::GroupPredicate(op, scope) => {
                // work_group_all(x): OpGroupAll on x != 0, then 1/0 (as llvm-spirv).
                self.b.capability(spv::Capability::Groups);
                let x = args.first()?;
                let bt = self.b.type_bool();
                let zero = self.int_const(Scalar::Int, 0);
                let pred = self.inst(
                    Op::INotEqual,
                    bt,
                    vec![Operand::Id(x.id), Operand::Id(zero)],
                );
                let o = if op == "OpGroupAll" {
                    Op::GroupAll
                } else {
                    Op::GroupAny
                };
                let sc = self.group_scope(scope);
                let c = self.inst(o, bt, vec![Operand::Id(sc), Operand::Id(pred)]);
                Some(Val {
                    id: self.bool_to_int(c, ret),
                    ty: ret.clone(),
                })
            }
            L::GroupBroadcast(scope) => {
                self.b.capability(spv::Capability::Groups);
                let x = args.first()?;
                let local_id = match &args[1..] {
                    [one] => one.id,
                    ids => {
                        // 2 or 3 dimensions: a size_t vector of the local ids.
                        let st = ids[0].ty.elem().unwrap_or(Scalar::ULong);
                        let vt = self.spv_type(&Type::Vector(st, ids.len() as u8));
                        let ops = ids.iter().map(|v| Operand::Id(v.id)).collect();
                        self.inst(Op::CompositeConstruct, vt, ops)
                    }
                };
                let sc = self.group_scope(scope);
                let t = self.spv_type(ret);
                let id = self.inst(
                    Op::GroupBroadcast,
                    t,
                    vec![Operand::Id(sc), Operand::Id(x.id), Operand::Id(local_id)],
                );
                Some(Val {
                    id,
                    ty: ret.clone(),
                })
            }
            L::GroupArith {
                float,
                signed,
                unsigned,
                operation,
                scope,
            } => {
                self.b.capability(spv::Capability::Groups);
                let name = if first_elem.is_float() {
                    float
                } else if first_elem.is_signed() {
                    signed
                } else {
                    unsigned
                };
                let Some(o) = group_op(name) else {
                    self.error(span, format!("unknown group instruction {name}"));
                    return None;
                };
                let x = args.first()?;
                let sc = self.group_scope(scope);
                let operation = match operation {
                    builtins::GroupOperation::Reduce => spv::GroupOperation::Reduce,
                    builtins::GroupOperation::InclusiveScan => spv::GroupOperation::InclusiveScan,
                    builtins::GroupOperation::ExclusiveScan => spv::GroupOperation::ExclusiveScan,
                };
                let t = self.spv_type(ret);
                let id = self.inst(
                    o,
                    t,
                    vec![
                        Operand::Id(sc),
                        Operand::Int(operation as u32),
                        Operand::Id(x.id),
                    ],
                );
                Some(Val {
                    id,
                    ty: ret.clone(),
                })
            }
        }
    }

    /// The `Scope` constant of a group instruction.
    fn group_scope(&mut self, scope: builtins::GroupScope) -> Id {
        let s = match scope {
            builtins::GroupScope::WorkGroup => Scope::Workgroup,
            builtins::GroupScope::SubGroup => Scope::Subgroup,
        };
        self.int_const(Scalar::UInt, s as i128)
    }

    /// The Input variable of a `BuiltIn` (created once).
    fn builtin_var(&mut self, builtin: &'static str, ty: &Type) -> Option<Id> {
        if let Some(v) = self.builtin_vars.get(builtin) {
            return Some(*v);
        }
        let bi = builtin_by_name(builtin)?;
        let pt = self.ptr_ty_input(ty);
        let var = self.b.variable(pt, spv::StorageClass::Input, None);
        self.b.name(var, &format!("__spirv_BuiltIn{builtin}"));
        self.b
            .decorate(var, Decoration::BuiltIn, &[Operand::Int(bi as u32)]);
        self.b.decorate(var, Decoration::Constant, &[]);
        self.builtin_vars.insert(builtin, var);
        Some(var)
    }

    fn ptr_ty_input(&mut self, ty: &Type) -> Id {
        let t = self.spv_type(ty);
        self.b.type_pointer(spv::StorageClass::Input, t)
    }

    /// Work-item functions (§6.13.1): `BuiltIn` Input variables of 3 × size_t; a dimension
    /// outside 0..2 gives 0 for ids and offsets and 1 for sizes.
    fn work_item(
        &mut self,
        builtin: &'static str,
        ret: &Type,
        args: &[Val],
        arg_exprs: &[Expr],
    ) -> Option<Val> {
        if args.is_empty() {
            // get_work_dim (uint), get_global_linear_id / get_local_linear_id (size_t).
            let var = self.builtin_var(builtin, ret)?;
            let t = self.spv_type(ret);
            let id = self.inst(Op::Load, t, vec![Operand::Id(var)]);
            return Some(Val {
                id,
                ty: ret.clone(),
            });
        }
        let st = ret.elem().unwrap_or(Scalar::ULong);
        let vty = Type::Vector(st, 3);
        let var = self.builtin_var(builtin, &vty)?;
        let vt = self.spv_type(&vty);
        let v = self.inst(Op::Load, vt, vec![Operand::Id(var)]);
        let out_of_range = match builtin {
            "GlobalSize" | "WorkgroupSize" | "EnqueuedWorkgroupSize" | "NumWorkgroups" => 1,
            _ => 0,
        };
        let t = self.scalar_ty(st);
        if let Some(d) = arg_exprs.first().and_then(|e| self.const_int(e)) {
            if (0..3).contains(&d) {
                let id = self.inst(
                    Op::CompositeExtract,
                    t,
                    vec![Operand::Id(v), Operand::Int(d as u32)],
                );
                return Some(Val {
                    id,
                    ty: ret.clone(),
                });
            }
            return Some(self.int_val(st, out_of_range));
        }
        let dim = args[0].id;
        let x = self.inst(
            Op::VectorExtractDynamic,
            t,
            vec![Operand::Id(v), Operand::Id(dim)],
        );
        let bt = self.b.type_bool();
        let three = self.int_const(Scalar::UInt, 3);
        let inr = self.inst(
            Op::ULessThan,
            bt,
            vec![Operand::Id(dim), Operand::Id(three)],
        );
        let dflt = self.int_const(st, out_of_range);
        let id = self.inst(
            Op::Select,
            t,
            vec![Operand::Id(inr), Operand::Id(x), Operand::Id(dflt)],
        );
        Some(Val {
            id,
            ty: ret.clone(),
        })
    }

    /// `long __builtin_expect(long exp, long c)` (a clang built-in that OpenCL C code uses for
    /// `likely`/`unlikely`): the value of `exp` (the expected value `c` is evaluated too).
    fn builtin_expect(&mut self, args: &[Expr], span: Span) -> Option<Val> {
        if args.len() != 2 {
            self.error(
                span,
                format!(
                    "too {} arguments to function call, expected 2, have {}",
                    if args.len() < 2 { "few" } else { "many" },
                    args.len()
                ),
            );
            return None;
        }
        let v = self.rvalue(&args[0])?;
        self.rvalue(&args[1])?;
        let long = Type::Scalar(Scalar::Long);
        self.assign_convert(v, &long, &args[0], "passing to parameter of type")
    }

    /// OpenCL C 1.2 §9.3, §9.4: the 64-bit `atom_*` functions exist only where the device
    /// supports `cl_khr_int64_base_atomics` (add, sub, xchg, inc, dec, cmpxchg) or
    /// `cl_khr_int64_extended_atomics` (min, max, and, or, xor).
    fn int64_atom_supported(&self, name: &str) -> bool {
        let op = name.trim_start_matches("atom_");
        if matches!(op, "min" | "max" | "and" | "or" | "xor") {
            self.opts.int64_extended_atomics
        } else {
            self.opts.int64_base_atomics
        }
    }

    /// `__builtin_inff()`, `__builtin_huge_valf()` (float) and `__builtin_inf()`,
    /// `__builtin_huge_val()` (double, float where doubles are not supported): positive
    /// infinity. `INFINITY`, `HUGE_VALF` and `HUGE_VAL` expand to them (2.0 §6.13.2, as in
    /// clang's `opencl-c-base.h`).
    fn builtin_infinity(&mut self, double: bool, args: &[Expr], span: Span) -> Option<Val> {
        if !args.is_empty() {
            self.error(
                span,
                format!(
                    "too many arguments to function call, expected 0, have {}",
                    args.len()
                ),
            );
            return None;
        }
        let s = if double && self.opts.fp64 {
            Scalar::Double
        } else {
            Scalar::Float
        };
        Some(Val {
            id: self.float_const(s, f64::INFINITY),
            ty: Type::Scalar(s),
        })
    }

    /// `printf` (§6.15.14): OpenCL.std `printf` with the format as a `__constant char *`;
    /// default argument promotions (float → double only when doubles are supported).
    fn printf(&mut self, args: &[Expr], span: Span) -> Option<Val> {
        let Some(fmt_e) = args.first() else {
            self.error(
                span,
                "too few arguments to function call, expected at least 1, have 0",
            );
            return None;
        };
        if !matches!(fmt_e.kind, ExprKind::StringLit(_)) {
            self.error(
                fmt_e.span,
                "format string argument of printf must be a string literal",
            );
            return None;
        }
        let fmt = self.rvalue(fmt_e)?;
        let mut ops = vec![Operand::Id(fmt.id)];
        let mut arg_types = Vec::new();
        for a in &args[1..] {
            let v = self.rvalue(a)?;
            arg_types.push((v.ty.clone(), a.span));
            let v = match &v.ty {
                Type::Scalar(Scalar::Float) | Type::Scalar(Scalar::Half) if self.opts.fp64 => {
                    let s = v.ty.elem().unwrap_or(Scalar::Float);
                    let id = self.convert_elems(v.id, s, Scalar::Double, 1);
                    Val {
                        id,
                        ty: Type::Scalar(Scalar::Double),
                    }
                }
                Type::Scalar(Scalar::Half) => {
                    let id = self.convert_elems(v.id, Scalar::Half, Scalar::Float, 1);
                    Val {
                        id,
                        ty: Type::Scalar(Scalar::Float),
                    }
                }
                Type::Scalar(s) if s.is_integer() && s.bits() < 32 || *s == Scalar::Bool => {
                    let s = *s;
                    let to = Scalar::Int;
                    let id = self.convert_elems(v.id, s, to, 1);
                    Val {
                        id,
                        ty: Type::Scalar(to),
                    }
                }
                _ => v,
            };
            ops.push(Operand::Id(v.id));
        }
        if let ExprKind::StringLit(text) = &fmt_e.kind {
            self.check_printf_format(text, fmt_e.span, &arg_types);
        }
        let set = self.b.ext_inst_import("OpenCL.std");
        let it = self.scalar_ty(Scalar::Int);
        let id = self.b.ext_inst(it, set, OpenClStd::Printf as u32, ops);
        Some(Val { id, ty: Type::INT })
    }

    /// `convert_<T>[_sat][_<rnd>]` (§6.2.3).
    fn convert_call(
        &mut self,
        name: &str,
        c: builtins::ConvertName,
        args: &[Expr],
        span: Span,
    ) -> Option<Val> {
        if args.len() != 1 {
            self.error(
                span,
                format!(
                    "too {} arguments to function call, expected 1, have {}",
                    if args.is_empty() { "few" } else { "many" },
                    args.len()
                ),
            );
            return None;
        }
        let v = self.rvalue(&args[0])?;
        let to_s = Scalar::from_elem(c.to);
        let Some(from_s) =
            v.ty.elem()
                .filter(|s| *s != Scalar::Bool || !v.ty.is_vector())
        else {
            self.error(span, format!("no matching function for call to '{name}'"));
            return None;
        };
        if v.ty.lanes() != c.lanes {
            let msg = format!(
                "no matching function for call to '{name}' with argument of type '{}'",
                self.type_name(&v.ty)
            );
            self.error(span, msg);
            return None;
        }
        if to_s == Scalar::Double && !self.opts.fp64 {
            self.error(span, "use of type 'double' requires cl_khr_fp64 support");
            return None;
        }
        let to = Type::vector_or_scalar(to_s, c.lanes);
        if from_s == Scalar::Bool {
            let id = self.convert_elems(v.id, from_s, to_s, 1);
            return Some(Val { id, ty: to });
        }
        let t = self.spv_type(&to);
        let sat = c.saturate && to_s.is_integer();
        let rounding = c.rounding;
        let (op, needs_sat_decoration) = match (from_s.is_float(), to_s.is_float()) {
            (false, false) => {
                if from_s == to_s {
                    return Some(Val { id: v.id, ty: to });
                }
                if sat && from_s.is_signed() != to_s.is_signed() {
                    (
                        if from_s.is_signed() {
                            Op::SatConvertSToU
                        } else {
                            Op::SatConvertUToS
                        },
                        false,
                    )
                } else if from_s.bits() == to_s.bits() {
                    return Some(Val { id: v.id, ty: to });
                } else if from_s.bits() < to_s.bits() && from_s.is_signed() {
                    (Op::SConvert, false)
                } else {
                    (Op::UConvert, sat && to_s.bits() < from_s.bits())
                }
            }
            (true, false) => (
                if to_s.is_signed() {
                    Op::ConvertFToS
                } else {
                    Op::ConvertFToU
                },
                sat,
            ),
            (false, true) => (
                if from_s.is_signed() {
                    Op::ConvertSToF
                } else {
                    Op::ConvertUToF
                },
                false,
            ),
            (true, true) => {
                if from_s == to_s {
                    return Some(Val { id: v.id, ty: to });
                }
                (Op::FConvert, false)
            }
        };
        // Narrowing signed→signed with saturation: SConvert + SaturatedConversion.
        let op = if op == Op::UConvert && needs_sat_decoration && from_s.is_signed() {
            Op::SConvert
        } else {
            op
        };
        let id = self.inst(op, t, vec![Operand::Id(v.id)]);
        if needs_sat_decoration {
            self.b.decorate(id, Decoration::SaturatedConversion, &[]);
        }
        let float_involved = from_s.is_float() || to_s.is_float();
        if let Some(r) = rounding {
            let default_is_rtz = from_s.is_float() && !to_s.is_float();
            let explicit_needed =
                float_involved && !(default_is_rtz && r == builtins::Rounding::Rtz);
            if explicit_needed
                && !(from_s.is_float() && to_s.is_float() && to_s.bits() >= from_s.bits())
            {
                let mode = match r {
                    builtins::Rounding::Rte => 0,
                    builtins::Rounding::Rtz => 1,
                    builtins::Rounding::Rtp => 2,
                    builtins::Rounding::Rtn => 3,
                };
                self.b
                    .decorate(id, Decoration::FPRoundingMode, &[Operand::Int(mode)]);
            }
        }
        Some(Val { id, ty: to })
    }

    /// `as_<T>` (§6.2.4.2): same size required; 3-component vectors count as 4.
    fn as_type_call(&mut self, name: &str, to: Type, args: &[Expr], span: Span) -> Option<Val> {
        if args.len() != 1 {
            self.error(span, format!("'{name}' takes exactly one argument"));
            return None;
        }
        let v = self.rvalue(&args[0])?;
        if !v.ty.is_arith() || v.ty.elem() == Some(Scalar::Bool) {
            let msg = format!(
                "invalid reinterpretation: '{}' is not a scalar or vector",
                self.type_name(&v.ty)
            );
            self.error(span, msg);
            return None;
        }
        let (fs, _) = self.size_align(&v.ty);
        let (ts, _) = self.size_align(&to);
        if fs != ts {
            let msg = format!(
                "invalid reinterpretation: sizes of '{}' and '{}' must match",
                self.type_name(&to),
                self.type_name(&v.ty)
            );
            self.error(span, msg);
            return None;
        }
        let mut src = v.clone();
        // 3 ↔ 4 components of the same element size: widen/narrow with a shuffle first.
        let (fl, tl) = (v.ty.lanes(), to.lanes());
        let fe = v.ty.elem().unwrap_or(Scalar::Int);
        let te = to.elem().unwrap_or(Scalar::Int);
        if fl == 3 && tl != 3 {
            let wide = Type::Vector(fe, 4);
            let t = self.spv_type(&wide);
            let id = self.inst(
                Op::VectorShuffle,
                t,
                vec![
                    Operand::Id(v.id),
                    Operand::Id(v.id),
                    Operand::Int(0),
                    Operand::Int(1),
                    Operand::Int(2),
                    Operand::Int(0xFFFF_FFFF),
                ],
            );
            src = Val { id, ty: wide };
        }
        if tl == 3 && fl != 3 {
            let mid = Type::Vector(te, 4);
            let t = self.spv_type(&mid);
            let cast = self.inst(Op::Bitcast, t, vec![Operand::Id(src.id)]);
            let t3 = self.spv_type(&to);
            let id = self.inst(
                Op::VectorShuffle,
                t3,
                vec![
                    Operand::Id(cast),
                    Operand::Id(cast),
                    Operand::Int(0),
                    Operand::Int(1),
                    Operand::Int(2),
                ],
            );
            return Some(Val { id, ty: to });
        }
        if src.ty == to {
            return Some(Val { id: src.id, ty: to });
        }
        let t = self.spv_type(&to);
        let id = self.inst(Op::Bitcast, t, vec![Operand::Id(src.id)]);
        Some(Val { id, ty: to })
    }

    /// `vloadn`, `vstoren`, `vload_half[n]`, `vstore_half[n][_rnd]`, `vloada_halfn`,
    /// `vstorea_halfn` (§6.13.7) as OpenCL.std instructions. `None` when `name` is none of them.
    fn vload_vstore(&mut self, name: &str, args: &[Expr], span: Span) -> Option<Option<Val>> {
        let (is_load, rest) = if let Some(r) = name.strip_prefix("vload") {
            (true, r)
        } else if let Some(r) = name.strip_prefix("vstore") {
            (false, r)
        } else {
            return None;
        };
        let (aligned, rest) = match rest.strip_prefix("a_half") {
            Some(r) => (true, format!("_half{r}")),
            None => (false, rest.to_string()),
        };
        let (half, rest) = match rest.strip_prefix("_half") {
            Some(r) => (true, r.to_string()),
            None => (false, rest),
        };
        // Optional rounding suffix on stores of half.
        let (digits, rounding) = match rest.split_once('_') {
            Some((d, r)) => (d.to_string(), Some(r.to_string())),
            None => (rest.clone(), None),
        };
        let n: u8 = match digits.as_str() {
            "" if half => 1,
            "2" => 2,
            "3" => 3,
            "4" => 4,
            "8" => 8,
            "16" => 16,
            _ => return None,
        };
        if (!half && (n == 1 || aligned)) || (rounding.is_some() && (is_load || !half)) {
            return None;
        }
        let rmode = match rounding.as_deref() {
            None => None,
            Some("rte") => Some(0),
            Some("rtz") => Some(1),
            Some("rtp") => Some(2),
            Some("rtn") => Some(3),
            Some(_) => return None,
        };
        Some(self.emit_vload_vstore(name, is_load, half, aligned, n, rmode, args, span))
    }

    #[allow(clippy::too_many_arguments)]
    fn emit_vload_vstore(
        &mut self,
        name: &str,
        is_load: bool,
        half: bool,
        aligned: bool,
        n: u8,
        rmode: Option<u32>,
        args: &[Expr],
        span: Span,
    ) -> Option<Val> {
        let want = if is_load { 2 } else { 3 };
        if args.len() != want {
            self.error(
                span,
                format!(
                    "no matching function for call to '{name}': expected {want} arguments, have {}",
                    args.len()
                ),
            );
            return None;
        }
        let mut vals = Vec::new();
        for a in args {
            vals.push(self.rvalue(a)?);
        }
        let (data, off, ptr) = if is_load {
            (None, &vals[0], &vals[1])
        } else {
            (Some(&vals[0]), &vals[1], &vals[2])
        };
        let Some(p) = ptr.ty.pointee().cloned() else {
            self.error(span, format!("no matching function for call to '{name}': the last argument must be a pointer"));
            return None;
        };
        let Some(pe) = p.ty.scalar() else {
            self.error(
                span,
                format!("no matching function for call to '{name}': pointer to scalar expected"),
            );
            return None;
        };
        if half && pe != Scalar::Half {
            self.error(
                span,
                format!("no matching function for call to '{name}': pointer to half expected"),
            );
            return None;
        }
        if !is_load && p.is_const {
            self.error(
                span,
                format!("no matching function for call to '{name}': pointer to const"),
            );
            return None;
        }
        let size_t = self.size_t();
        let off = self.implicit_convert(
            off.clone(),
            &size_t,
            args[if is_load { 0 } else { 1 }].span,
            "passing to parameter of type",
        )?;
        let inst_name = match (is_load, half, aligned, n, rmode.is_some()) {
            (true, false, _, _, _) => "vloadn",
            (false, false, _, _, _) => "vstoren",
            (true, true, false, 1, _) => "vload_half",
            (true, true, false, _, _) => "vload_halfn",
            (true, true, true, _, _) => "vloada_halfn",
            (false, true, false, 1, false) => "vstore_half",
            (false, true, false, 1, true) => "vstore_half_r",
            (false, true, false, _, false) => "vstore_halfn",
            (false, true, false, _, true) => "vstore_halfn_r",
            (false, true, true, _, false) => "vstorea_halfn",
            (false, true, true, _, true) => "vstorea_halfn_r",
        };
        let Some(inst) = OpenClStd::from_name(inst_name) else {
            self.error(span, format!("'{name}' is not supported"));
            return None;
        };
        let set = self.b.ext_inst_import("OpenCL.std");
        if is_load {
            let rt = if half {
                Type::vector_or_scalar(Scalar::Float, n)
            } else {
                Type::vector_or_scalar(pe, n)
            };
            let t = self.spv_type(&rt);
            let mut ops = vec![Operand::Id(off.id), Operand::Id(ptr.id)];
            if n > 1 || !half {
                ops.push(Operand::Int(n as u32));
            }
            let id = self.b.ext_inst(t, set, inst as u32, ops);
            return Some(Val { id, ty: rt });
        }
        let data = data?;
        let want_ty = if half {
            let fe = data
                .ty
                .elem()
                .filter(|s| *s == Scalar::Double)
                .unwrap_or(Scalar::Float);
            Type::vector_or_scalar(fe, n)
        } else {
            Type::vector_or_scalar(pe, n)
        };
        if data.ty.lanes() != n {
            let msg = format!(
                "no matching function for call to '{name}' with data of type '{}'",
                self.type_name(&data.ty)
            );
            self.error(span, msg);
            return None;
        }
        let data = self.implicit_convert(
            data.clone(),
            &want_ty,
            args[0].span,
            "passing to parameter of type",
        )?;
        let vt = self.b.type_void();
        let mut ops = vec![
            Operand::Id(data.id),
            Operand::Id(off.id),
            Operand::Id(ptr.id),
        ];
        if let Some(m) = rmode {
            ops.push(Operand::Int(m));
        }
        self.b.ext_inst(vt, set, inst as u32, ops);
        Some(Val {
            id: self.b.id(),
            ty: Type::Void,
        })
    }
}

impl<'a> Emitter<'a> {
    /// The OpenCL C 1.x atomic functions `atomic_<op>` and `atom_<op>` (§6.13.11, and the
    /// cl_khr_*_atomics extensions): `OpAtomic*` with Device scope for global memory,
    /// Workgroup scope for local memory, relaxed semantics (like llvm-spirv).
    fn atomic_call(&mut self, name: &str, args: &[Expr], span: Span) -> Option<Option<Val>> {
        let op = name
            .strip_prefix("atomic_")
            .or_else(|| name.strip_prefix("atom_"))?;
        let (nargs, kind) = match op {
            "add" => (2, 0),
            "sub" => (2, 1),
            "xchg" => (2, 2),
            "inc" => (1, 3),
            "dec" => (1, 4),
            "cmpxchg" => (3, 5),
            "min" => (2, 6),
            "max" => (2, 7),
            "and" => (2, 8),
            "or" => (2, 9),
            "xor" => (2, 10),
            _ => return None,
        };
        Some(self.emit_atomic(name, nargs, kind, args, span))
    }

    fn emit_atomic(
        &mut self,
        name: &str,
        nargs: usize,
        kind: u32,
        args: &[Expr],
        span: Span,
    ) -> Option<Val> {
        if args.len() != nargs {
            let k = if args.len() < nargs { "few" } else { "many" };
            self.error(
                span,
                format!(
                    "too {k} arguments to function call, expected {nargs}, have {}",
                    args.len()
                ),
            );
            return None;
        }
        let mut vals = Vec::new();
        for a in args {
            vals.push(self.rvalue(a)?);
        }
        let Some(p) = vals[0].ty.pointee().cloned() else {
            let msg = format!("no matching function for call to '{name}': first argument of type '{}' is not a pointer", self.type_name(&vals[0].ty));
            self.error(args[0].span, msg);
            return None;
        };
        let elem = match &p.ty {
            // clang-15: `atomic_int *` converts to opencl-c.h's `volatile int *` parameter
            // with an incompatible-pointer warning.
            Type::Atomic(s) => {
                let mut plain = p.clone();
                plain.ty = Type::Scalar(*s);
                plain.is_volatile = true;
                let msg = format!(
                    "incompatible pointer types passing '{}' to parameter of type '{}'",
                    self.type_name(&vals[0].ty),
                    self.type_name(&Type::Pointer(Box::new(plain)))
                );
                self.warning(args[0].span, msg);
                Some(*s)
            }
            other => other.scalar(),
        };
        let ok_elem = match elem {
            Some(Scalar::Int | Scalar::UInt) => true,
            Some(Scalar::Long | Scalar::ULong) => {
                name.starts_with("atom_") && self.int64_atom_supported(name)
            }
            Some(Scalar::Float) => kind == 2,
            _ => false,
        };
        if !ok_elem
            || !matches!(
                p.space,
                AddrSpace::Global | AddrSpace::Local | AddrSpace::Generic
            )
        {
            let mut msg = format!(
                "no matching function for call to '{name}' with argument of type '{}'",
                self.type_name(&vals[0].ty)
            );
            if matches!(elem, Some(Scalar::Long | Scalar::ULong)) && name.starts_with("atom_") {
                msg.push_str(
                    " (64-bit atomics need cl_khr_int64_base_atomics or \
                     cl_khr_int64_extended_atomics, which this device does not support)",
                );
            }
            self.error(args[0].span, msg);
            return None;
        }
        let s = elem.unwrap_or(Scalar::Int);
        if s.bits() == 64 {
            self.b.capability(spv::Capability::Int64Atomics);
        }
        let mut ops_vals = Vec::new();
        for (v, a) in vals[1..].iter().zip(&args[1..]) {
            ops_vals.push(
                self.implicit_convert(
                    v.clone(),
                    &Type::Scalar(s),
                    a.span,
                    "passing to parameter of type",
                )?
                .id,
            );
        }
        let scope = if p.space == AddrSpace::Local {
            Scope::Workgroup
        } else {
            Scope::Device
        };
        let scope = self.int_const(Scalar::UInt, scope as i128);
        let relaxed = self.int_const(Scalar::UInt, 0);
        // env 2.1: atomics are on integers only, so `atomic_xchg(float *)` works on the bits.
        let (ptr, ops_vals, is) = self.atomic_int_view(vals[0].id, p.space, s, ops_vals);
        let t = self.scalar_ty(is);
        let opcode = match kind {
            0 => Op::AtomicIAdd,
            1 => Op::AtomicISub,
            2 => Op::AtomicExchange,
            3 => Op::AtomicIIncrement,
            4 => Op::AtomicIDecrement,
            5 => Op::AtomicCompareExchange,
            6 => {
                if s.is_signed() {
                    Op::AtomicSMin
                } else {
                    Op::AtomicUMin
                }
            }
            7 => {
                if s.is_signed() {
                    Op::AtomicSMax
                } else {
                    Op::AtomicUMax
                }
            }
            8 => Op::AtomicAnd,
            9 => Op::AtomicOr,
            _ => Op::AtomicXor,
        };
        let mut ops = vec![Operand::Id(ptr), Operand::Id(scope), Operand::Id(relaxed)];
        if kind == 5 {
            // atomic_cmpxchg(p, cmp, val): OpAtomicCompareExchange takes Value then Comparator.
            ops.push(Operand::Id(relaxed));
            ops.push(Operand::Id(ops_vals[1]));
            ops.push(Operand::Id(ops_vals[0]));
        } else {
            ops.extend(ops_vals.into_iter().map(Operand::Id));
        }
        let id = self.inst(opcode, t, ops);
        let id = self.bits_as_float(id, s);
        Some(Val {
            id,
            ty: Type::Scalar(s),
        })
    }
}

impl<'a> Emitter<'a> {
    fn expect_args(&mut self, name: &str, args: &[Expr], n: usize, span: Span) -> Option<Vec<Val>> {
        if args.len() != n {
            let k = if args.len() < n { "few" } else { "many" };
            self.error(
                span,
                format!(
                    "too {k} arguments to function call '{name}', expected {n}, have {}",
                    args.len()
                ),
            );
            return None;
        }
        let mut out = Vec::new();
        for a in args {
            out.push(self.rvalue(a)?);
        }
        Some(out)
    }

    /// `shuffle(x, mask)` / `shuffle2(x, y, mask)` (§6.13.12) as OpenCL.std instructions.
    fn shuffle(&mut self, name: &str, args: &[Expr], span: Span) -> Option<Val> {
        let two = name == "shuffle2";
        let vals = self.expect_args(name, args, if two { 3 } else { 2 }, span)?;
        let x = &vals[0];
        let mask = &vals[vals.len() - 1];
        let (Type::Vector(xe, xn), Type::Vector(me, mn)) = (&x.ty, &mask.ty) else {
            let msg = format!(
                "no matching function for call to '{name}' with arguments of type '{}' and '{}'",
                self.type_name(&x.ty),
                self.type_name(&mask.ty)
            );
            self.error(span, msg);
            return None;
        };
        let ok = [2, 4, 8, 16].contains(xn)
            && [2, 4, 8, 16].contains(mn)
            && me.is_integer()
            && !me.is_signed()
            && me.bits() == xe.bits()
            && (!two || vals[1].ty == x.ty);
        if !ok {
            let msg = format!(
                "no matching function for call to '{name}' with arguments of type '{}' and '{}'",
                self.type_name(&x.ty),
                self.type_name(&mask.ty)
            );
            self.error(span, msg);
            return None;
        }
        let ret = Type::Vector(*xe, *mn);
        let inst = if two { "shuffle2" } else { "shuffle" };
        self.ext(inst, &ret, &vals, span)
    }

    /// `async_work_group_copy(dst, src, n, event)` and the strided form (§6.13.10):
    /// `OpGroupAsyncCopy` with work-group scope.
    fn async_copy(&mut self, name: &str, args: &[Expr], span: Span) -> Option<Val> {
        let strided = name.contains("strided");
        let n = if strided { 5 } else { 4 };
        let vals = self.expect_args(name, args, n, span)?;
        let (Some(d), Some(s)) = (vals[0].ty.pointee().cloned(), vals[1].ty.pointee().cloned())
        else {
            self.error(
                span,
                format!("no matching function for call to '{name}': pointers expected"),
            );
            return None;
        };
        let spaces_ok = (d.space == AddrSpace::Local
            && matches!(s.space, AddrSpace::Global | AddrSpace::Constant))
            || (d.space == AddrSpace::Global && s.space == AddrSpace::Local);
        if !spaces_ok || !super::convert::same_unqualified(&d.ty, &s.ty) || !d.ty.is_arith() {
            let msg = format!(
                "no matching function for call to '{name}' with arguments of type '{}' and '{}'",
                self.type_name(&vals[0].ty),
                self.type_name(&vals[1].ty)
            );
            self.error(span, msg);
            return None;
        }
        let size_t = self.size_t();
        let num = self.implicit_convert(
            vals[2].clone(),
            &size_t,
            args[2].span,
            "passing to parameter of type",
        )?;
        let stride = if strided {
            self.implicit_convert(
                vals[3].clone(),
                &size_t,
                args[3].span,
                "passing to parameter of type",
            )?
            .id
        } else {
            self.int_const(size_t.elem().unwrap_or(Scalar::ULong), 1)
        };
        let ev_e = &args[n - 1];
        let ev = if self.const_int(ev_e) == Some(0) {
            let et = self.b.type_event();
            self.b.constant_null(et)
        } else if vals[n - 1].ty == Type::Event {
            vals[n - 1].id
        } else {
            let msg = format!(
                "passing '{}' to parameter of incompatible type 'event_t'",
                self.type_name(&vals[n - 1].ty)
            );
            self.error(ev_e.span, msg);
            return None;
        };
        let et = self.b.type_event();
        let wg = self.int_const(Scalar::UInt, Scope::Workgroup as i128);
        let id = self.inst(
            Op::GroupAsyncCopy,
            et,
            vec![
                Operand::Id(wg),
                Operand::Id(vals[0].id),
                Operand::Id(vals[1].id),
                Operand::Id(num.id),
                Operand::Id(stride),
                Operand::Id(ev),
            ],
        );
        Some(Val {
            id,
            ty: Type::Event,
        })
    }

    /// `wait_group_events(n, events)` (§6.13.10): `OpGroupWaitEvents`.
    fn wait_group_events(&mut self, args: &[Expr], span: Span) -> Option<Val> {
        let vals = self.expect_args("wait_group_events", args, 2, span)?;
        let n = self.implicit_convert(
            vals[0].clone(),
            &Type::INT,
            args[0].span,
            "passing to parameter of type",
        )?;
        if !vals[1].ty.pointee().is_some_and(|p| p.ty == Type::Event) {
            let msg = format!(
                "passing '{}' to parameter of incompatible type 'event_t *'",
                self.type_name(&vals[1].ty)
            );
            self.error(args[1].span, msg);
            return None;
        }
        let wg = self.int_const(Scalar::UInt, Scope::Workgroup as i128);
        self.b.inst_no_result(
            Op::GroupWaitEvents,
            vec![Operand::Id(wg), Operand::Id(n.id), Operand::Id(vals[1].id)],
        );
        Some(Val {
            id: self.b.id(),
            ty: Type::Void,
        })
    }

    /// `to_global`/`to_local`/`to_private` (§6.13.9): `OpGenericCastToPtrExplicit`, a null
    /// pointer when the generic pointer points elsewhere.
    fn address_space_cast(&mut self, name: &str, args: &[Expr], span: Span) -> Option<Val> {
        let vals = self.expect_args(name, args, 1, span)?;
        let Some(p) = vals[0].ty.pointee().cloned() else {
            let msg = format!(
                "invalid argument '{}' to '{name}': a pointer is required",
                self.type_name(&vals[0].ty)
            );
            self.error(args[0].span, msg);
            return None;
        };
        let generic = Type::pointer(p.ty.clone(), AddrSpace::Generic, p.is_const);
        let g = self.pointer_convert(vals[0].clone(), &generic, args[0].span, false)?;
        let (space, class) = match name {
            "to_global" => (AddrSpace::Global, spv::StorageClass::CrossWorkgroup),
            "to_local" => (AddrSpace::Local, spv::StorageClass::Workgroup),
            _ => (AddrSpace::Private, spv::StorageClass::Function),
        };
        let rt = Type::pointer(p.ty, space, p.is_const);
        let t = self.spv_type(&rt);
        let id = self.inst(
            Op::GenericCastToPtrExplicit,
            t,
            vec![Operand::Id(g.id), Operand::Int(class as u32)],
        );
        Some(Val { id, ty: rt })
    }

    /// `prefetch(p, n)` (§6.13.10): OpenCL.std `prefetch`.
    fn prefetch(&mut self, args: &[Expr], span: Span) -> Option<Val> {
        let vals = self.expect_args("prefetch", args, 2, span)?;
        if !vals[0]
            .ty
            .pointee()
            .is_some_and(|p| p.space == AddrSpace::Global)
        {
            let msg = format!(
                "no matching function for call to 'prefetch' with argument of type '{}'",
                self.type_name(&vals[0].ty)
            );
            self.error(args[0].span, msg);
            return None;
        }
        let size_t = self.size_t();
        let n = self.implicit_convert(
            vals[1].clone(),
            &size_t,
            args[1].span,
            "passing to parameter of type",
        )?;
        let set = self.b.ext_inst_import("OpenCL.std");
        let vt = self.b.type_void();
        self.b.ext_inst(
            vt,
            set,
            OpenClStd::Prefetch as u32,
            vec![Operand::Id(vals[0].id), Operand::Id(n.id)],
        );
        Some(Val {
            id: self.b.id(),
            ty: Type::Void,
        })
    }
}

impl<'a> Emitter<'a> {
    /// An atomic on a float: the pointer bitcast to the integer of the same width, values
    /// bitcast too. Returns (pointer, values, integer scalar); integers pass unchanged.
    pub(super) fn atomic_int_view(
        &mut self,
        ptr: Id,
        space: AddrSpace,
        s: Scalar,
        vals: Vec<Id>,
    ) -> (Id, Vec<Id>, Scalar) {
        if !s.is_float() {
            return (ptr, vals, s);
        }
        let is = Scalar::int_of(s.bits(), false);
        let pt = self.ptr_ty(space, &Type::Scalar(is));
        let p = self.inst(Op::Bitcast, pt, vec![Operand::Id(ptr)]);
        let vals = vals.into_iter().map(|v| self.bits_as_int(v, s)).collect();
        (p, vals, is)
    }

    pub(super) fn bits_as_int(&mut self, v: Id, s: Scalar) -> Id {
        if !s.is_float() {
            return v;
        }
        let it = self.scalar_ty(Scalar::int_of(s.bits(), false));
        self.inst(Op::Bitcast, it, vec![Operand::Id(v)])
    }

    pub(super) fn bits_as_float(&mut self, v: Id, s: Scalar) -> Id {
        if !s.is_float() {
            return v;
        }
        let ft = self.scalar_ty(s);
        self.inst(Op::Bitcast, ft, vec![Operand::Id(v)])
    }
}

/// `memory_order_*` and `memory_scope_*` values (clang's opencl-c-base.h numbering).
pub fn memory_constant(name: &str) -> Option<u32> {
    Some(match name {
        "memory_order_relaxed" => 0,
        "memory_order_acquire" => 2,
        "memory_order_release" => 3,
        "memory_order_acq_rel" => 4,
        "memory_order_seq_cst" => 5,
        "memory_scope_work_item" => 0,
        "memory_scope_work_group" => 1,
        "memory_scope_device" => 2,
        "memory_scope_all_svm_devices" | "memory_scope_all_devices" => 3,
        "memory_scope_sub_group" => 4,
        "ATOMIC_FLAG_INIT" => 0,
        _ => return None,
    })
}

/// The atomic function kinds of OpenCL C 2.0.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum C11 {
    Init,
    Store,
    Load,
    Exchange,
    CompareExchange,
    Fetch,
    TestAndSet,
    Clear,
    Fence,
}

impl<'a> Emitter<'a> {
    /// SPIR-V memory semantics of a `memory_order` (ordering bits only).
    pub(super) fn order_semantics(order: u32, space: Option<AddrSpace>) -> u32 {
        let ord = match order {
            0 => return 0,
            2 => MemorySemantics::ACQUIRE.0,
            3 => MemorySemantics::RELEASE.0,
            4 => MemorySemantics::ACQUIRE_RELEASE.0,
            _ => MemorySemantics::SEQUENTIALLY_CONSISTENT.0,
        };
        // Like llvm-spirv, atomic operations carry only the ordering bits; `space` is kept
        // for callers that want storage-class bits.
        let _ = space;
        ord
    }

    pub(super) fn scope_of(scope: u32) -> Scope {
        match scope {
            0 => Scope::Invocation,
            1 => Scope::Workgroup,
            3 => Scope::CrossDevice,
            4 => Scope::Subgroup,
            _ => Scope::Device,
        }
    }

    /// A constant `memory_order`/`memory_scope` argument, or the default when absent.
    fn const_arg(&mut self, args: &[Expr], i: usize, default: u32) -> Option<u32> {
        match args.get(i) {
            None => Some(default),
            Some(e) => match self.const_int(e) {
                Some(v) => Some(v as u32),
                None => {
                    self.error(e.span, "memory order and scope arguments must be constants");
                    None
                }
            },
        }
    }

    /// The OpenCL C 2.0 atomic functions (§6.13.11.7 - 6.13.11.10): `atomic_init`,
    /// `atomic_store`, `atomic_load`, `atomic_exchange`, `atomic_compare_exchange_*`,
    /// `atomic_fetch_*`, `atomic_flag_*` (each also `_explicit`) and `atomic_work_item_fence`.
    fn c11_atomic_call(&mut self, name: &str, args: &[Expr], span: Span) -> Option<Option<Val>> {
        let base = name.strip_suffix("_explicit").unwrap_or(name);
        let explicit = base.len() != name.len();
        let kind = match base {
            "atomic_init" if !explicit => C11::Init,
            "atomic_store" => C11::Store,
            "atomic_load" => C11::Load,
            "atomic_exchange" => C11::Exchange,
            "atomic_compare_exchange_strong" | "atomic_compare_exchange_weak" => {
                C11::CompareExchange
            }
            "atomic_fetch_add" | "atomic_fetch_sub" | "atomic_fetch_or" | "atomic_fetch_xor"
            | "atomic_fetch_and" | "atomic_fetch_min" | "atomic_fetch_max" => C11::Fetch,
            "atomic_flag_test_and_set" => C11::TestAndSet,
            "atomic_flag_clear" => C11::Clear,
            "atomic_work_item_fence" if !explicit => C11::Fence,
            _ => return None,
        };
        if self.opts.cl_version < 200 {
            self.error(
                span,
                format!("implicit declaration of function '{name}' is invalid in OpenCL"),
            );
            return Some(None);
        }
        Some(self.emit_c11_atomic(name, base, kind, explicit, args, span))
    }

    fn fence(&mut self, args: &[Expr], span: Span) -> Option<Val> {
        if args.len() != 3 {
            let k = if args.len() < 3 { "few" } else { "many" };
            self.error(
                span,
                format!(
                    "too {k} arguments to function call, expected 3, have {}",
                    args.len()
                ),
            );
            return None;
        }
        let flags = self.const_arg(args, 0, 3)?;
        let order = self.const_arg(args, 1, 5)?;
        let scope = self.const_arg(args, 2, 2)?;
        let storage =
            MemorySemantics::WORKGROUP_MEMORY.0 | MemorySemantics::CROSS_WORKGROUP_MEMORY.0;
        let mut sem = Self::order_semantics(order, None) & !storage;
        if flags & 1 != 0 {
            sem |= MemorySemantics::WORKGROUP_MEMORY.0;
        }
        if flags & 2 != 0 {
            sem |= MemorySemantics::CROSS_WORKGROUP_MEMORY.0;
        }
        if flags & 4 != 0 {
            sem |= MemorySemantics::IMAGE_MEMORY.0;
        }
        let sc = self.int_const(Scalar::UInt, Self::scope_of(scope) as i128);
        let se = self.int_const(Scalar::UInt, sem as i128);
        self.b
            .inst_no_result(Op::MemoryBarrier, vec![Operand::Id(sc), Operand::Id(se)]);
        Some(Val {
            id: self.b.id(),
            ty: Type::Void,
        })
    }

    fn emit_c11_atomic(
        &mut self,
        name: &str,
        base: &str,
        kind: C11,
        explicit: bool,
        args: &[Expr],
        span: Span,
    ) -> Option<Val> {
        if kind == C11::Fence {
            return self.fence(args, span);
        }
        // Operands before the memory-order arguments, and how many orders follow.
        let value_args = match kind {
            C11::Init | C11::Store | C11::Exchange | C11::Fetch => 2,
            C11::CompareExchange => 3,
            _ => 1,
        };
        let orders = match kind {
            C11::CompareExchange => 2,
            C11::Init => 0,
            _ => 1,
        };
        let max_args = value_args + if explicit { orders + 1 } else { 0 };
        let min_args = value_args + if explicit { orders } else { 0 };
        if args.len() < min_args || args.len() > max_args {
            self.error(
                span,
                format!(
                    "no matching function for call to '{name}': wrong number of arguments ({})",
                    args.len()
                ),
            );
            return None;
        }
        let obj = self.rvalue(&args[0])?;
        let Some(p) = obj.ty.pointee().cloned() else {
            let msg = format!(
                "address argument to atomic operation must be a pointer ('{}' invalid)",
                self.type_name(&obj.ty)
            );
            self.error(args[0].span, msg);
            return None;
        };
        let allowed = |s: &Scalar| {
            matches!(
                s,
                Scalar::Int
                    | Scalar::UInt
                    | Scalar::Long
                    | Scalar::ULong
                    | Scalar::Float
                    | Scalar::Double
            )
        };
        let s = self.c11_atomic_object(name, kind, &obj.ty, &p, &args[0], span)?;
        let Some(s) = Some(s).filter(allowed) else {
            let msg = format!("address argument to atomic operation must be a pointer to an atomic type ('{}' invalid)", self.type_name(&obj.ty));
            self.error(args[0].span, msg);
            return None;
        };
        let float_ok = matches!(kind, C11::Init | C11::Store | C11::Load | C11::Exchange);
        if s.is_float() && !float_ok {
            let msg = format!("address argument to atomic operation must be a pointer to an atomic integer ('{}' invalid)", self.type_name(&obj.ty));
            self.error(args[0].span, msg);
            return None;
        }
        if s.bits() == 64 {
            // 2.0 §6.13.11.6: the 64-bit atomic types need both 64-bit atomics extensions.
            if !(self.opts.int64_base_atomics && self.opts.int64_extended_atomics) {
                let msg = format!(
                    "use of type '{}' requires cl_khr_int64_base_atomics and cl_khr_int64_extended_atomics support, which this device does not have",
                    self.type_name(&obj.ty)
                );
                self.error(args[0].span, msg);
                return None;
            }
            self.b.capability(spv::Capability::Int64Atomics);
        }
        let vt = Type::Scalar(s);
        // env 2.1: atomics are on integers only; floats go through their bits.
        let (obj_id, _, is) = self.atomic_int_view(obj.id, p.space, s, Vec::new());
        let t = self.scalar_ty(is);
        let space = Some(p.space);
        let order = self.const_arg(args, value_args, 5)?;
        let scope = self.const_arg(args, value_args + orders, 2)?;
        let sc = self.int_const(Scalar::UInt, Self::scope_of(scope) as i128);
        let se = self.int_const(Scalar::UInt, Self::order_semantics(order, space) as i128);
        let value = |em: &mut Self, i: usize| -> Option<Id> {
            let v = em.rvalue(&args[i])?;
            {
                let id = em
                    .implicit_convert(v, &vt, args[i].span, "passing to parameter of type")?
                    .id;
                Some(em.bits_as_int(id, s))
            }
        };
        let void = |em: &mut Self| {
            Some(Val {
                id: em.b.id(),
                ty: Type::Void,
            })
        };
        match kind {
            C11::Init => {
                let v = value(self, 1)?;
                self.b
                    .inst_no_result(Op::Store, vec![Operand::Id(obj_id), Operand::Id(v)]);
                void(self)
            }
            C11::Store => {
                let v = value(self, 1)?;
                self.b.inst_no_result(
                    Op::AtomicStore,
                    vec![
                        Operand::Id(obj_id),
                        Operand::Id(sc),
                        Operand::Id(se),
                        Operand::Id(v),
                    ],
                );
                void(self)
            }
            C11::Load => {
                let id = self.inst(
                    Op::AtomicLoad,
                    t,
                    vec![Operand::Id(obj_id), Operand::Id(sc), Operand::Id(se)],
                );
                Some(Val {
                    id: self.bits_as_float(id, s),
                    ty: vt,
                })
            }
            C11::Exchange | C11::Fetch => {
                let v = value(self, 1)?;
                let op = match base.trim_start_matches("atomic_fetch_") {
                    "atomic_exchange" => Op::AtomicExchange,
                    "add" => Op::AtomicIAdd,
                    "sub" => Op::AtomicISub,
                    "or" => Op::AtomicOr,
                    "xor" => Op::AtomicXor,
                    "and" => Op::AtomicAnd,
                    "min" if s.is_signed() => Op::AtomicSMin,
                    "min" => Op::AtomicUMin,
                    _ if s.is_signed() => Op::AtomicSMax,
                    _ => Op::AtomicUMax,
                };
                let id = self.inst(
                    op,
                    t,
                    vec![
                        Operand::Id(obj_id),
                        Operand::Id(sc),
                        Operand::Id(se),
                        Operand::Id(v),
                    ],
                );
                Some(Val {
                    id: self.bits_as_float(id, s),
                    ty: vt,
                })
            }
            C11::CompareExchange => {
                let expected = self.rvalue(&args[1])?;
                if !expected.ty.pointee().is_some_and(|q| q.ty == vt) {
                    let msg = format!(
                        "passing '{}' to parameter of incompatible type '{} *'",
                        self.type_name(&expected.ty),
                        self.type_name(&vt)
                    );
                    self.error(args[1].span, msg);
                    return None;
                }
                let desired = value(self, 2)?;
                let failure = self.const_arg(args, value_args + 1, order)?;
                let se_fail =
                    self.int_const(Scalar::UInt, Self::order_semantics(failure, space) as i128);
                let exp = self.inst(Op::Load, t, vec![Operand::Id(expected.id)]);
                let orig = self.inst(
                    Op::AtomicCompareExchange,
                    t,
                    vec![
                        Operand::Id(obj_id),
                        Operand::Id(sc),
                        Operand::Id(se),
                        Operand::Id(se_fail),
                        Operand::Id(desired),
                        Operand::Id(exp),
                    ],
                );
                let bt = self.b.type_bool();
                let ok = self.inst(Op::IEqual, bt, vec![Operand::Id(orig), Operand::Id(exp)]);
                // On failure *expected receives the current value (on success it holds it already).
                self.b
                    .inst_no_result(Op::Store, vec![Operand::Id(expected.id), Operand::Id(orig)]);
                Some(Val {
                    id: ok,
                    ty: Type::BOOL,
                })
            }
            C11::TestAndSet | C11::Clear => {
                if s.bits() != 32 || s.is_float() {
                    self.error(
                        args[0].span,
                        "atomic_flag operations need a pointer to atomic_flag",
                    );
                    return None;
                }
                if kind == C11::Clear {
                    self.b.inst_no_result(
                        Op::AtomicFlagClear,
                        vec![Operand::Id(obj_id), Operand::Id(sc), Operand::Id(se)],
                    );
                    return void(self);
                }
                let bt = self.b.type_bool();
                let id = self.inst(
                    Op::AtomicFlagTestAndSet,
                    bt,
                    vec![Operand::Id(obj_id), Operand::Id(sc), Operand::Id(se)],
                );
                Some(Val { id, ty: Type::BOOL })
            }
            C11::Fence => None,
        }
    }
}

fn params_text(o: &builtins::Overload) -> String {
    let ps: Vec<String> = o.params.iter().map(|p| p.to_string()).collect();
    format!("({})", ps.join(", "))
}

/// A core opcode by its grammar name (`"OpDot"`).
fn core_op(name: &str) -> Option<Op> {
    let n = name.strip_prefix("Op")?;
    Some(match n {
        "Dot" => Op::Dot,
        "IsNan" => Op::IsNan,
        "IsInf" => Op::IsInf,
        "IsFinite" => Op::IsFinite,
        "IsNormal" => Op::IsNormal,
        "SignBitSet" => Op::SignBitSet,
        "Ordered" => Op::Ordered,
        "Unordered" => Op::Unordered,
        "LessOrGreater" => Op::LessOrGreater,
        "FOrdEqual" => Op::FOrdEqual,
        "FUnordNotEqual" => Op::FUnordNotEqual,
        "FOrdNotEqual" => Op::FOrdNotEqual,
        "FOrdLessThan" => Op::FOrdLessThan,
        "FOrdGreaterThan" => Op::FOrdGreaterThan,
        "FOrdLessThanEqual" => Op::FOrdLessThanEqual,
        "FOrdGreaterThanEqual" => Op::FOrdGreaterThanEqual,
        "Any" => Op::Any,
        "All" => Op::All,
        _ => return None,
    })
}

/// A group instruction by name (`OpGroupIAdd` …).
fn group_op(name: &str) -> Option<Op> {
    Some(match name {
        "OpGroupFAdd" => Op::GroupFAdd,
        "OpGroupIAdd" => Op::GroupIAdd,
        "OpGroupFMin" => Op::GroupFMin,
        "OpGroupSMin" => Op::GroupSMin,
        "OpGroupUMin" => Op::GroupUMin,
        "OpGroupFMax" => Op::GroupFMax,
        "OpGroupSMax" => Op::GroupSMax,
        "OpGroupUMax" => Op::GroupUMax,
        _ => return None,
    })
}

/// Memory semantics of a barrier or fence from `cl_mem_fence_flags` (env 2.3: sequentially
/// consistent plus the storage classes the flags name).
fn fence_semantics(flags: u32) -> u32 {
    let mut sem = MemorySemantics::SEQUENTIALLY_CONSISTENT.0;
    if flags & 1 != 0 {
        sem |= MemorySemantics::WORKGROUP_MEMORY.0;
    }
    if flags & 2 != 0 {
        sem |= MemorySemantics::CROSS_WORKGROUP_MEMORY.0;
    }
    if flags & 4 != 0 {
        sem |= MemorySemantics::IMAGE_MEMORY.0;
    }
    sem
}

/// A `BuiltIn` enumerant by name.
fn builtin_by_name(name: &str) -> Option<spv::BuiltIn> {
    use spv::BuiltIn as B;
    Some(match name {
        "WorkDim" => B::WorkDim,
        "GlobalSize" => B::GlobalSize,
        "GlobalInvocationId" => B::GlobalInvocationId,
        "WorkgroupSize" => B::WorkgroupSize,
        "EnqueuedWorkgroupSize" => B::EnqueuedWorkgroupSize,
        "LocalInvocationId" => B::LocalInvocationId,
        "NumWorkgroups" => B::NumWorkgroups,
        "WorkgroupId" => B::WorkgroupId,
        "GlobalOffset" => B::GlobalOffset,
        "GlobalLinearId" => B::GlobalLinearId,
        "LocalInvocationIndex" => B::LocalInvocationIndex,
        "SubgroupSize" => B::SubgroupSize,
        "SubgroupMaxSize" => B::SubgroupMaxSize,
        "NumSubgroups" => B::NumSubgroups,
        "NumEnqueuedSubgroups" => B::NumEnqueuedSubgroups,
        "SubgroupId" => B::SubgroupId,
        "SubgroupLocalInvocationId" => B::SubgroupLocalInvocationId,
        _ => return None,
    })
}

/// Where clang reports a wrong argument count: the first argument too many, or the closing
/// parenthesis of a call with too few.
pub(super) fn arg_count_span(call: Span, args: &[Expr], expected: usize) -> Span {
    match args.get(expected) {
        Some(extra) => extra.span,
        None => Span::new(call.file, call.end.saturating_sub(1), call.end),
    }
}

/// Whether `name` is one of clang's infinity built-ins, and if so whether it is the double one.
pub(crate) fn builtin_infinity(name: &str) -> Option<bool> {
    match name {
        "__builtin_inff" | "__builtin_huge_valf" => Some(false),
        "__builtin_inf" | "__builtin_huge_val" => Some(true),
        _ => None,
    }
}
