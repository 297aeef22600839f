//! Functions and kernels (OpenCL C 2.0 §6.7): signatures, bodies, parameter copies, the
//! recursion check, and the kernels' entry points with their execution modes (§6.7.2
//! attributes → `LocalSize`, `LocalSizeHint`, `VecTypeHint`) and `kernel_arg_type` strings.

use std::collections::HashSet;

use spv::{ExecutionMode, ExecutionModel, FunctionControl, Op, Operand};

use super::{Emitter, FnState, FuncSig, KernelInfo};
use crate::ast::{
    AddrSpace, AttrArg, DeclSpec, Declarator, Derived, ExternalDecl, FunctionDef, ParamDecl,
    StmtKind, TranslationUnit, TypeSpec,
};
use crate::sema::{Scalar, Symbol, Type};
use crate::source::Span;

/// A parameter: its name (if any), type, and whether the parameter itself is const.
type Param = (Option<(String, Span)>, Type, bool);

/// SPIR-V `LinkageType` Export (SPIR-V 3.24).
const LINKAGE_EXPORT: u32 = 0;
/// SPIR-V `LinkageType` Import.
const LINKAGE_IMPORT: u32 = 1;

impl<'a> Emitter<'a> {
    pub fn translation_unit(&mut self, tu: &TranslationUnit) {
        self.recovered_names = tu.recovered_names.clone();
        // One pass in source order: OpenCL C has no implicit declarations (C99 6.5.2.2), so a
        // function is visible from its first declaration on.
        for item in &tu.items {
            match item {
                ExternalDecl::Declaration(d) => {
                    self.global_declaration(d);
                    self.emit_pending_blocks();
                }
                ExternalDecl::StaticAssert(a) => self.static_assert(a),
                ExternalDecl::Function(f) => {
                    self.declare_function(&f.spec, &f.declarator, true, f.span);
                    let key = self.definition_key(f);
                    let template = f.declarator.name.as_ref().and_then(|(_, sp)| {
                        let key = key.as_ref()?;
                        self.funcs
                            .get(key)
                            .filter(|s| s.has_block_params() && s.span == *sp)
                            .map(|_| key.clone())
                    });
                    match template {
                        // Emitted per call (emit/block_param.rs).
                        Some(n) => {
                            self.templates.defs.insert(n, f.clone());
                        }
                        None => self.function_body_as(f, None),
                    }
                    self.emit_pending_blocks();
                }
            }
        }
        self.check_unspecialized_templates();
        if self.opts.linkage {
            self.undefined_templates();
        }
        self.check_recursion();
    }

    /// The return type and parameters of a function declarator (`derived[0]` is the function).
    fn function_type(
        &mut self,
        spec: &DeclSpec,
        d: &Declarator,
    ) -> Option<(Type, Vec<Param>, bool)> {
        let Some(Derived::Function { params, variadic }) = d.derived.first() else {
            return None;
        };
        let ret_decl = Declarator {
            name: None,
            derived: d.derived[1..].to_vec(),
            attrs: Vec::new(),
            span: d.span,
        };
        let base = self.base_type(spec)?;
        let ret = self.apply_declarator(base, spec, &ret_decl)?;
        // OpenCL C 2.0 §6.13.14, §6.13.16: images, samplers and pipes are not returned.
        // OpenCL C 2.0 §1.12.5: "A block cannot be the return value of a function".
        if matches!(ret, Type::Block(_)) {
            let at = d.name.as_ref().map(|n| n.1).unwrap_or(d.span);
            let msg = format!(
                "declaring function return value of type '{}' is not allowed",
                self.type_name(&ret)
            );
            self.error(at, msg);
            return None;
        }
        if matches!(ret, Type::Image(_) | Type::Sampler | Type::Pipe(..)) {
            let at = d.name.as_ref().map(|n| n.1).unwrap_or(d.span);
            let msg = format!(
                "declaring function return value of type '{}' is not allowed",
                self.type_name(&ret)
            );
            self.error(at, msg);
            return None;
        }
        let mut out = Vec::new();
        let mut ok = true;
        for p in params {
            match self.param_type(p) {
                Some((ty, c)) => out.push((p.declarator.name.clone(), ty, c)),
                None => ok = false,
            }
        }
        if !ok {
            return None;
        }
        Some((ret, out, *variadic))
    }

    fn param_type(&mut self, p: &ParamDecl) -> Option<(Type, bool)> {
        let base = self.base_type(&p.spec)?;
        let mut ty = self.apply_declarator(base, &p.spec, &p.declarator)?;
        // C99 6.7.5.3p7: array parameters are pointers.
        if let Type::Array(elem, _) = ty {
            let space = p.spec.addr.unwrap_or_else(|| self.default_pointee_space());
            ty = Type::pointer(*elem, space, p.spec.quals.is_const);
        }
        if ty == Type::Void {
            self.error(p.span, "argument may not have 'void' type");
            return None;
        }
        // OpenCL C 2.0 §1.12.5 Example 1 passes Blocks to functions; OpenCL C 3.0 §6.12.5:
        // "A block cannot be a return value or a parameter of a function" (clang's message).
        if matches!(ty, Type::Block(_)) && self.opts.cl_version != 200 {
            let msg = format!(
                "declaring function parameter of type '{}' is not allowed",
                self.type_name(&ty)
            );
            let at = p.declarator.name.as_ref().map_or(p.span, |n| n.1);
            self.error(at, msg);
            return None;
        }
        Some((ty, Self::object_const(&p.spec, &p.declarator)))
    }

    /// Whether a value of type `t` holds a pointer (in a member, at any depth).
    fn contains_pointer(&self, t: &Type) -> bool {
        match t {
            Type::Pointer(_) => true,
            Type::Array(e, _) => self.contains_pointer(e),
            Type::Record(i) => self
                .records
                .get(*i as usize)
                .is_some_and(|r| r.fields.iter().any(|(_, f)| self.contains_pointer(f))),
            _ => false,
        }
    }

    /// Registers a function's signature (pass 1, and prototypes).
    pub fn declare_function(&mut self, spec: &DeclSpec, d: &Declarator, is_def: bool, span: Span) {
        let Some((name, name_span)) = d.name.clone() else {
            self.error(span, "function declarator without a name");
            return;
        };
        let Some((ret, params, variadic)) = self.function_type(spec, d) else {
            // Already diagnosed: calls to it are not "implicit declarations" too.
            self.recovered_names.insert(name);
            return;
        };
        if variadic {
            self.error(
                name_span,
                "variadic functions are not supported in OpenCL C",
            );
            return;
        }
        if builtins::lookup(&name).is_some() && is_def {
            self.error(
                name_span,
                format!("redefinition of built-in function '{name}'"),
            );
            return;
        }
        let is_kernel = spec.is_kernel;
        if is_kernel {
            if ret != Type::Void {
                self.error(spec.span, "kernel must have void return type");
                return;
            }
            // OpenCL C 2.0 §6.7.1 / clang: a kernel is not static and not `main`.
            if spec.storage == crate::ast::Storage::Static {
                self.error(name_span, "kernel functions cannot be declared static");
            }
            if name == "main" {
                self.error(name_span, "kernel cannot be called 'main'");
            }
            let decls: Vec<&crate::ast::ParamDecl> = match d.derived.first() {
                Some(Derived::Function { params, .. }) => params.iter().collect(),
                _ => Vec::new(),
            };
            for (k, (pname, pty, _)) in params.iter().enumerate() {
                let at = pname.as_ref().map(|p| p.1).unwrap_or(name_span);
                // §6.9.k: these types cannot be kernel arguments (their size differs
                // between host and device, or they are device-only).
                if let Some(pd) = decls.get(k) {
                    if let TypeSpec::Named(n) = &pd.spec.ty {
                        let banned = matches!(
                            n.as_str(),
                            "size_t" | "ptrdiff_t" | "intptr_t" | "uintptr_t" | "event_t"
                        );
                        if banned && pd.declarator.derived.is_empty() {
                            self.error(
                                at,
                                format!("'{n}' cannot be used as the type of a kernel parameter"),
                            );
                        }
                    }
                }
                // §6.9.l (clang): struct arguments cannot hold pointers.
                if let Type::Record(_) = pty {
                    if self.contains_pointer(pty) {
                        self.error(at, "struct kernel parameters may not contain pointers");
                    }
                }
            }
            for (pname, pty, _) in &params {
                let at = pname.as_ref().map(|p| p.1).unwrap_or(name_span);
                match pty {
                    Type::Pointer(p)
                        if p.space == AddrSpace::Private || p.space == AddrSpace::Generic =>
                    {
                        self.error(at, "kernel parameter cannot be declared as a pointer to the __private address space");
                    }
                    Type::Scalar(Scalar::Bool) => {
                        self.error(
                            at,
                            "'bool' cannot be used as the type of a kernel parameter",
                        );
                    }
                    // §6.9: kernel arguments come from the host; a Block cannot.
                    Type::Block(_) => {
                        let msg = format!(
                            "declaring function parameter of type '{}' is not allowed",
                            self.type_name(pty)
                        );
                        self.error(at, msg);
                    }
                    Type::Scalar(Scalar::Half) | Type::Vector(Scalar::Half, _)
                        if !self.opts.fp16 =>
                    {
                        self.error(at, "declaring function parameter of type 'half' is not allowed; did you forget * ?");
                    }
                    Type::Pointer(p) if matches!(p.ty, Type::Pointer(_)) => {
                        self.error(
                            at,
                            "kernel parameter cannot be declared as a pointer to a pointer",
                        );
                    }
                    _ => {}
                }
            }
        }
        let param_types: Vec<Type> = params.iter().map(|p| p.1.clone()).collect();
        let overloadable = super::overload::is_overloadable(spec, d);
        let plain_name = name.clone();
        let name = self.function_key(&name, &param_types, overloadable);
        if overloadable || self.overloads.contains_key(&plain_name) {
            let keys = self.overloads.entry(plain_name.clone()).or_default();
            if !keys.contains(&name) {
                keys.push(name.clone());
            }
            if overloadable && self.funcs.contains_key(&plain_name) && !keys.contains(&plain_name) {
                keys.push(plain_name.clone());
            }
        }
        if let Some(prev) = self.funcs.get(&name).cloned() {
            if prev.ret != ret || prev.params != param_types || prev.is_kernel != is_kernel {
                self.error(name_span, format!("conflicting types for '{plain_name}'"));
                return;
            }
            if prev.defined && is_def {
                self.error(name_span, format!("redefinition of '{plain_name}'"));
                return;
            }
            if is_def {
                if let Some(s) = self.funcs.get_mut(&name) {
                    s.defined = true;
                    s.span = name_span;
                }
                if !prev.has_block_params() {
                    self.b.name(prev.id, &name);
                }
            }
            return;
        }
        let id = self.b.id();
        // Named where it is defined (or imported): a prototype that is never defined nor called
        // has no OpFunction, and an OpName must not target an undefined id (SPIR-V 2.16.1). A
        // function with Block parameters is only emitted as its specializations.
        if is_def && !param_types.iter().any(|t| matches!(t, Type::Block(_))) {
            self.b.name(id, &name);
        }
        self.funcs.insert(
            name,
            FuncSig {
                id,
                ret,
                params: param_types,
                is_kernel,
                defined: is_def,
                is_static: spec.storage == crate::ast::Storage::Static,
                span: name_span,
            },
        );
    }

    /// Emits a function's body; for a specialization of a function with Block parameters
    /// (emit/block_param.rs), as that specialization's function with its Blocks bound.
    pub(crate) fn function_body_as(
        &mut self,
        f: &FunctionDef,
        spec: Option<&super::block_param::Specialization>,
    ) {
        let Some((_, name_span)) = f.declarator.name.clone() else {
            return;
        };
        let Some(name) = self.definition_key(f) else {
            return;
        };
        let Some(mut sig) = self.funcs.get(&name).cloned() else {
            return;
        };
        if let Some(spec) = spec {
            sig.id = spec.id;
        }
        if sig.span != name_span {
            // A second definition (already diagnosed) or signature errors.
            return;
        }
        let Some((_, params, _)) = self.function_type(&f.spec, &f.declarator) else {
            return;
        };
        let ret_t = self.spv_type(&sig.ret);
        let is_kernel = sig.is_kernel;
        let param_ts: Vec<spv::Id> = sig
            .params
            .iter()
            .map(|t| self.param_spv_type(is_kernel, t))
            .collect();
        let fn_t = self.b.type_function(ret_t, &param_ts);
        self.fs = FnState {
            name: name.clone(),
            ret: Some(sig.ret.clone()),
            is_kernel: sig.is_kernel,
            block_owner: spec.map(|s| s.spec_name.clone()).unwrap_or_default(),
            ..FnState::default()
        };
        self.b
            .begin_function(ret_t, Some(sig.id), FunctionControl::NONE, fn_t);
        if self.opts.linkage && !sig.is_kernel && !sig.is_static && spec.is_none() {
            self.link_decoration(sig.id, &name, LINKAGE_EXPORT);
        }
        let mut param_ids = Vec::new();
        for (i, t) in param_ts.iter().enumerate() {
            let pid = self.b.function_parameter(*t);
            if let Some((pname, _)) = &params[i].0 {
                self.b.name(pid, pname);
            }
            // `restrict` pointers: FuncParamAttr NoAlias (as llvm-spirv does).
            if let Some(Derived::Function { params: decls, .. }) = f.declarator.derived.first() {
                let restrict = decls.get(i).is_some_and(|pd| {
                    pd.declarator
                        .derived
                        .iter()
                        .any(|d| matches!(d, Derived::Pointer { quals, .. } if quals.is_restrict))
                });
                if restrict && sig.params[i].is_pointer() {
                    self.b.decorate(
                        pid,
                        spv::Decoration::FuncParamAttr,
                        &[Operand::Int(
                            spv::FunctionParameterAttribute::NoAlias as u32,
                        )],
                    );
                }
            }
            param_ids.push(pid);
        }
        let entry = self.b.id();
        self.begin_block(entry);
        self.fs.entry = Some(entry);
        self.scopes.push();
        let mut block_k = 0;
        for (i, (pname, pty, is_const)) in params.iter().enumerate() {
            if let (Some(spec), Type::Block(bsig)) = (spec, pty) {
                // The Block parameter is its literal's address, bound to the literal.
                let ty = self.bound_block_param(spec, block_k, bsig);
                block_k += 1;
                if let Some((pname, psp)) = pname {
                    if self.scopes.declared_here(pname).is_some() {
                        self.error(*psp, format!("redefinition of parameter '{pname}'"));
                    }
                    self.scopes.declare(
                        pname,
                        Symbol::Value {
                            id: param_ids[i],
                            ty,
                        },
                    );
                }
                continue;
            }
            let byval = is_kernel && matches!(pty, Type::Record(_));
            if byval {
                // Kernel structs arrive as a pointer to a private copy (FuncParamAttr ByVal,
                // as llvm-spirv passes them).
                self.b.decorate(
                    param_ids[i],
                    spv::Decoration::FuncParamAttr,
                    &[Operand::Int(spv::FunctionParameterAttribute::ByVal as u32)],
                );
            }
            let Some((pname, psp)) = pname else { continue };
            let var = if byval {
                param_ids[i]
            } else {
                let ptr_t = self.ptr_ty(AddrSpace::Private, pty);
                let var = self.b.local_variable(ptr_t);
                self.b.name(var, &format!("{pname}.addr"));
                self.b
                    .inst_no_result(Op::Store, vec![Operand::Id(var), Operand::Id(param_ids[i])]);
                var
            };
            if self.scopes.declared_here(pname).is_some() {
                self.error(*psp, format!("redefinition of parameter '{pname}'"));
            }
            self.scopes.declare(
                pname,
                Symbol::Var {
                    ptr: var,
                    ty: pty.clone(),
                    space: AddrSpace::Private,
                    is_const: *is_const,
                },
            );
        }
        self.fs.body_depth = self.scopes.depth();
        if let StmtKind::Compound(items) = &f.body.kind {
            for s in items {
                self.stmt(s);
            }
        } else {
            self.stmt(&f.body);
        }
        if !self.b.block_terminated() {
            if sig.ret == Type::Void {
                self.b.inst_no_result(Op::Return, vec![]);
            } else {
                if self.current_reachable() && !self.fs.saw_syntax_error {
                    let end = Span::new(f.span.file, f.span.end.saturating_sub(1), f.span.end);
                    self.warning(end, "non-void function does not return a value");
                }
                self.b.inst_no_result(Op::Unreachable, vec![]);
            }
        }
        // Labels used by goto but never defined.
        let mut undefined: Vec<String> = self
            .fs
            .labels
            .keys()
            .filter(|l| !self.fs.defined_labels.contains(*l))
            .cloned()
            .collect();
        undefined.sort();
        for l in undefined {
            let at = self.fs.goto_spans.get(&l).copied().unwrap_or(f.span);
            self.error_undeclared(&l, at, format!("use of undeclared label '{l}'"));
        }
        self.b.end_function();
        self.scopes.pop();
        if sig.is_kernel {
            let arg_types: Vec<String> = match f.declarator.derived.first() {
                Some(Derived::Function { params: decls, .. }) => decls
                    .iter()
                    .zip(&sig.params)
                    .map(|(pd, t)| self.spelled_arg_type(pd, t))
                    .collect(),
                _ => sig.params.iter().map(|t| self.arg_type_name(t)).collect(),
            };
            let mut args = Vec::new();
            if let Some(Derived::Function { params: decls, .. }) = f.declarator.derived.first() {
                for (k, (pd, t)) in decls.iter().zip(&sig.params).enumerate() {
                    let restrict =
                        pd.declarator.derived.iter().rev().any(
                            |d| matches!(d, Derived::Pointer { quals, .. } if quals.is_restrict),
                        );
                    let (space, is_ptr, c, v) = match t {
                        Type::Pointer(p) => (
                            p.space,
                            true,
                            p.is_const || p.space == AddrSpace::Constant,
                            p.is_volatile,
                        ),
                        _ => (AddrSpace::Private, false, false, false),
                    };
                    args.push(super::KernelArg {
                        name: pd
                            .declarator
                            .name
                            .as_ref()
                            .map(|n| n.0.clone())
                            .unwrap_or_default(),
                        type_name: arg_types.get(k).cloned().unwrap_or_default(),
                        address_space: space,
                        is_pointer: is_ptr,
                        is_const: c,
                        is_volatile: v,
                        is_restrict: restrict,
                        size: self.size_align(t).0,
                        access_qualifier: match t {
                            Type::Image(i) => Some(i.access),
                            Type::Pipe(_, true) => Some(crate::ast::ImageAccess::WriteOnly),
                            Type::Pipe(_, false) => Some(crate::ast::ImageAccess::ReadOnly),
                            _ => None,
                        },
                        is_pipe: matches!(t, Type::Pipe(..)),
                    });
                }
            }
            self.kernel_meta.push(super::KernelMeta {
                name: name.clone(),
                args,
            });
            let mut attrs = f.spec.attrs.clone();
            attrs.extend(f.declarator.attrs.iter().cloned());
            self.kernels.push(KernelInfo {
                id: sig.id,
                name,
                span: name_span,
                attrs,
                arg_types,
            });
        }
        self.fs = FnState::default();
    }

    /// `CL_KERNEL_ARG_TYPE_NAME` (API §5.9.3: "the type name specified for the argument"):
    /// as clang's `kernel_arg_type` spells it, typedef names kept (`size_t*`, `pair`, `myint`;
    /// a `pipe` argument by its packet type as written).
    fn spelled_arg_type(&self, pd: &ParamDecl, t: &Type) -> String {
        if let TypeSpec::Named(n) = &pd.spec.ty {
            let derived = &pd.declarator.derived;
            if derived.iter().all(|d| matches!(d, Derived::Pointer { .. })) {
                return format!("{n}{}", "*".repeat(derived.len()));
            }
        }
        self.arg_type_name(t)
    }

    /// The spelling of a kernel argument type as llvm-spirv writes it (`float*`, `int4`).
    fn arg_type_name(&self, t: &Type) -> String {
        match t {
            Type::Pointer(p) => format!("{}*", self.arg_type_name(&p.ty)),
            Type::Record(i) => match self.records.get(*i as usize) {
                Some(r) => format!("{} {}", if r.is_union { "union" } else { "struct" }, r.name),
                None => "struct".into(),
            },
            Type::Image(i) => i.name().into(),
            // llvm-spirv spells a pipe argument by its packet type.
            Type::Pipe(t, _) => self.arg_type_name(t),
            other => self.type_name(other),
        }
    }

    /// Entry points, execution modes and argument strings of every kernel (env 2.x: a kernel
    /// is an `OpEntryPoint Kernel`).
    pub(super) fn finish_kernels(&mut self) {
        let kernels = std::mem::take(&mut self.kernels);
        let mut interface: Vec<spv::Id> = self.builtin_vars.values().copied().collect();
        interface.sort();
        let called: HashSet<String> = self
            .calls
            .values()
            .flat_map(|v| v.iter().map(|(n, _)| n.clone()))
            .collect();
        for mut k in kernels {
            if called.contains(&k.name) {
                // SPIR-V forbids calling an entry point: give the entry point a wrapper.
                k.id = self.kernel_wrapper(&k.name, k.id);
            }
            self.b
                .entry_point(ExecutionModel::Kernel, k.id, &k.name, &interface);
            for a in &k.attrs {
                match a.name.as_str() {
                    "reqd_work_group_size" | "work_group_size_hint" => {
                        let mut dims = Vec::new();
                        for arg in &a.args {
                            if let AttrArg::Expr(e) = arg {
                                if let Some(v) = self.const_int(e) {
                                    dims.push(v.clamp(0, u32::MAX as i128) as u32);
                                }
                            }
                        }
                        if dims.len() != 3 || dims.contains(&0) {
                            self.error(a.span, format!("'{}' attribute requires exactly 3 positive integer constant arguments", a.name));
                            continue;
                        }
                        let mode = if a.name == "reqd_work_group_size" {
                            ExecutionMode::LocalSize
                        } else {
                            ExecutionMode::LocalSizeHint
                        };
                        self.b.execution_mode(k.id, mode, &dims);
                    }
                    "vec_type_hint" => {
                        let ty = match a.args.first() {
                            Some(AttrArg::Type(tn)) => self.resolve_type_name(tn),
                            _ => None,
                        };
                        let Some(ty) = ty else {
                            self.error(
                                a.span,
                                "'vec_type_hint' attribute requires a type argument",
                            );
                            continue;
                        };
                        let code = match ty.elem() {
                            Some(Scalar::Char | Scalar::UChar) => 0,
                            Some(Scalar::Short | Scalar::UShort) => 1,
                            Some(Scalar::Int | Scalar::UInt) => 2,
                            Some(Scalar::Long | Scalar::ULong) => 3,
                            Some(Scalar::Half) => 4,
                            Some(Scalar::Float) => 5,
                            Some(Scalar::Double) => 6,
                            _ => {
                                self.error(a.span, "invalid type in 'vec_type_hint'");
                                continue;
                            }
                        };
                        let hint = code | ((ty.lanes() as u32) << 16);
                        self.b
                            .execution_mode(k.id, ExecutionMode::VecTypeHint, &[hint]);
                    }
                    _ => {}
                }
            }
            let mut s = format!("kernel_arg_type.{}.", k.name);
            for t in &k.arg_types {
                s.push_str(t);
                s.push(',');
            }
            self.b.string(&s);
            let _ = k.span;
        }
    }

    /// The SPIR-V type of a parameter: kernels take structs and unions as a `Function`
    /// pointer to a private copy (ByVal), everything else by value.
    pub fn param_spv_type(&mut self, is_kernel: bool, t: &Type) -> spv::Id {
        if is_kernel && matches!(t, Type::Record(_)) {
            self.ptr_ty(AddrSpace::Private, t)
        } else {
            self.spv_type(t)
        }
    }

    /// A function `void name(params) { callee(params); }` used as the entry point of a kernel
    /// that other code calls.
    fn kernel_wrapper(&mut self, name: &str, callee: spv::Id) -> spv::Id {
        let params = self
            .funcs
            .get(name)
            .map(|s| s.params.clone())
            .unwrap_or_default();
        let void = self.b.type_void();
        let pts: Vec<spv::Id> = params
            .iter()
            .map(|t| self.param_spv_type(true, t))
            .collect();
        let fn_t = self.b.type_function(void, &pts);
        let w = self
            .b
            .begin_function(void, None, FunctionControl::NONE, fn_t);
        self.b.name(w, name);
        let ids: Vec<spv::Id> = pts.iter().map(|t| self.b.function_parameter(*t)).collect();
        let names: Vec<String> = self
            .kernel_meta
            .iter()
            .find(|k| k.name == name)
            .map(|k| k.args.iter().map(|a| a.name.clone()).collect())
            .unwrap_or_default();
        for (i, id) in ids.iter().enumerate() {
            if let Some(n) = names.get(i).filter(|n| !n.is_empty()) {
                self.b.name(*id, n);
            }
            if matches!(params.get(i), Some(Type::Record(_))) {
                self.b.decorate(
                    *id,
                    spv::Decoration::FuncParamAttr,
                    &[Operand::Int(spv::FunctionParameterAttribute::ByVal as u32)],
                );
            }
        }
        self.b.begin_block(None);
        let mut ops = vec![Operand::Id(callee)];
        ops.extend(ids.into_iter().map(Operand::Id));
        self.b.inst(Op::FunctionCall, Some(void), ops);
        self.b.inst_no_result(Op::Return, vec![]);
        self.b.end_function();
        w
    }

    /// `OpDecorate %f LinkageAttributes "name" Export|Import` (SPIR-V 2.16.1).
    fn link_decoration(&mut self, f: spv::Id, name: &str, linkage: u32) {
        self.b.capability(spv::Capability::Linkage);
        self.b.decorate(
            f,
            spv::Decoration::LinkageAttributes,
            &[Operand::Str(name.to_string()), Operand::Int(linkage)],
        );
    }

    /// Declarations (functions without blocks) for the called functions that have no body
    /// here, imported for a SPIR-V linker to resolve.
    fn import_undefined_functions(&mut self) {
        let mut called: Vec<String> = self
            .calls
            .values()
            .flatten()
            .map(|(callee, _)| callee.clone())
            .filter(|callee| {
                self.funcs
                    .get(callee)
                    .is_some_and(|s| !s.defined && !s.has_block_params())
            })
            .collect();
        called.sort();
        called.dedup();
        for name in called {
            let Some(sig) = self.funcs.get(&name).cloned() else {
                continue;
            };
            let ret_t = self.spv_type(&sig.ret);
            let param_ts: Vec<spv::Id> = sig
                .params
                .iter()
                .map(|t| self.param_spv_type(sig.is_kernel, t))
                .collect();
            let fn_t = self.b.type_function(ret_t, &param_ts);
            self.b
                .begin_function(ret_t, Some(sig.id), FunctionControl::NONE, fn_t);
            for t in &param_ts {
                self.b.function_parameter(*t);
            }
            self.b.end_function();
            self.b.name(sig.id, &name);
            self.link_decoration(sig.id, &name, LINKAGE_IMPORT);
        }
    }

    /// OpenCL C does not allow recursion (§6.9.i); reported at the call that closes a cycle.
    /// Calls to functions that are declared but never defined are errors too (there is no
    /// linking step for them).
    fn check_recursion(&mut self) {
        if self.opts.linkage {
            self.import_undefined_functions();
        }
        let mut undefined: Vec<(Span, String)> = Vec::new();
        for calls in self.calls.values() {
            for (callee, sp) in calls {
                if !self.opts.linkage && self.funcs.get(callee).is_some_and(|s| !s.defined) {
                    undefined.push((*sp, callee.clone()));
                }
            }
        }
        undefined.sort_by_key(|(sp, _)| (sp.file, sp.start));
        undefined.dedup();
        for (sp, name) in undefined {
            self.error_undeclared(
                &name,
                sp,
                format!("function '{name}' is used but never defined"),
            );
        }
        let mut names: Vec<String> = self.calls.keys().cloned().collect();
        names.sort();
        let mut reported: HashSet<String> = HashSet::new();
        for start in names {
            // DFS from `start` looking for a path back to it.
            let mut stack: Vec<(String, Span)> =
                self.calls.get(&start).cloned().unwrap_or_default();
            let mut seen: HashSet<String> = HashSet::new();
            let mut found: Option<Span> = None;
            while let Some((f, sp)) = stack.pop() {
                if f == start {
                    found = Some(sp);
                    break;
                }
                if !seen.insert(f.clone()) {
                    continue;
                }
                if let Some(next) = self.calls.get(&f) {
                    stack.extend(next.iter().cloned());
                }
            }
            if let Some(sp) = found {
                if reported.insert(start.clone()) {
                    self.error(
                        sp,
                        format!(
                            "recursive call to '{start}': recursion is not allowed in OpenCL C"
                        ),
                    );
                }
            }
        }
    }
}

impl<'a> Emitter<'a> {
    /// The `funcs` key of a function definition: its name, or its mangled name when it is
    /// `overloadable` (`None` when its signature has errors, already reported).
    pub(crate) fn definition_key(&mut self, f: &FunctionDef) -> Option<String> {
        let (name, _) = f.declarator.name.clone()?;
        if !super::overload::is_overloadable(&f.spec, &f.declarator) {
            return Some(name);
        }
        // The declaration already reported the signature's errors.
        let saved = std::mem::take(self.diags);
        let found = self.function_type(&f.spec, &f.declarator);
        *self.diags = saved;
        let (_, params, _) = found?;
        let types: Vec<Type> = params.into_iter().map(|p| p.1).collect();
        Some(self.function_key(&name, &types, true))
    }
}
