//! Blocks (OpenCL C 2.0 §1.12) as far as `enqueue_kernel` needs them, lowered the way
//! clang + llvm-spirv do:
//! - a Block literal is a private struct `{ uint size; uint align; generic uchar *invoke;
//!   captures… }` filled where the literal is evaluated (captures are const copies, §1.12.3),
//!   and its value is that struct's address as a `generic uchar *`;
//! - its body becomes the *invoke function* `__<function>_block_invoke[_N]` taking that
//!   pointer first, then the Block's parameters; captured variables are read back from the
//!   struct into const locals;
//! - an enqueued Block also gets the kernel `__<function>_block_invoke[_N]_kernel` (an entry
//!   point with the same parameters, calling the invoke function), the `Invoke` operand of
//!   `OpEnqueueKernel` and the other device-enqueue instructions.
//!
//! Blocks are statically determinable (§1.12.5): every Block value is one known literal
//! ([`BlockSig::literal`]), so calls are direct `OpFunctionCall`s of its invoke function.
//! Block variables are `Symbol::Value`s bound to the literal at their declaration.

use spv::{FunctionControl, Op, Operand};

use super::{Emitter, FnState, KernelInfo, Val};
use crate::ast::{
    AddrSpace, BlockLiteral, Declaration, Expr, ExprKind, ForInit, Initializer, ParamDecl, Stmt,
    StmtKind,
};
use crate::sema::scope::Tag;
use crate::sema::types::BlockSig;
use crate::sema::{Scalar, Symbol, Type};
use crate::source::Span;

/// A captured automatic variable: its name, its type in the literal and its member index.
#[derive(Clone, Debug)]
pub(crate) struct Capture {
    pub name: String,
    pub ty: Type,
    pub member: u32,
}

/// One Block literal of the translation unit.
#[derive(Clone, Debug)]
pub(crate) struct BlockLit {
    pub ret: Type,
    pub params: Vec<Type>,
    pub param_decls: Vec<ParamDecl>,
    pub body: Stmt,
    /// `__<function>_block_invoke[_N]`.
    pub name: String,
    /// The function that encloses the literal at top level (names nested literals).
    pub owner: String,
    pub invoke: spv::Id,
    /// The enqueue kernel, made when the Block is used by a device-enqueue built-in.
    pub kernel: Option<spv::Id>,
    pub struct_ty: spv::Id,
    /// Size and alignment of the literal struct (`ParamSize`, `ParamAlign`).
    pub size: u32,
    pub align: u32,
    pub captures: Vec<Capture>,
    /// A literal at program scope (§1.12.3 "a global literal"): its `CrossWorkgroup` constant
    /// variable, whose address is the Block value (cast to `generic uchar *` where used).
    pub global: Option<spv::Id>,
    /// Local symbols of the enclosing function other than captures (static and `__local`
    /// variables, sampler constants, typedefs, enum constants, tags) that the body may use.
    pub inherited: Vec<(String, Symbol)>,
    pub inherited_tags: Vec<(String, Tag)>,
    pub span: Span,
}

/// Names used as identifiers in expressions anywhere in a statement (nested literals too).
fn idents_in_stmt(s: &Stmt, out: &mut Vec<String>) {
    match &s.kind {
        StmtKind::Compound(items) => items.iter().for_each(|i| idents_in_stmt(i, out)),
        StmtKind::Decl(d) => idents_in_decl(d, out),
        StmtKind::Expr(e) | StmtKind::Return(e) => {
            if let Some(e) = e {
                idents_in_expr(e, out)
            }
        }
        StmtKind::If(c, t, f) => {
            idents_in_expr(c, out);
            idents_in_stmt(t, out);
            if let Some(f) = f {
                idents_in_stmt(f, out);
            }
        }
        StmtKind::While(c, b) | StmtKind::Switch(c, b) | StmtKind::Case(c, b) => {
            idents_in_expr(c, out);
            idents_in_stmt(b, out);
        }
        StmtKind::DoWhile(b, c) => {
            idents_in_stmt(b, out);
            idents_in_expr(c, out);
        }
        StmtKind::CaseRange(lo, hi, b) => {
            idents_in_expr(lo, out);
            idents_in_expr(hi, out);
            idents_in_stmt(b, out);
        }
        StmtKind::StaticAssert(a) => idents_in_expr(&a.cond, out),
        StmtKind::For(init, c, step, b) => {
            match init.as_deref() {
                Some(ForInit::Decl(d)) => idents_in_decl(d, out),
                Some(ForInit::Expr(e)) => idents_in_expr(e, out),
                None => {}
            }
            for e in [c, step].into_iter().flatten() {
                idents_in_expr(e, out);
            }
            idents_in_stmt(b, out);
        }
        StmtKind::Default(b) | StmtKind::Label(_, b) => idents_in_stmt(b, out),
        StmtKind::Break | StmtKind::Continue | StmtKind::Goto(_) | StmtKind::Error => {}
    }
}

fn idents_in_decl(d: &Declaration, out: &mut Vec<String>) {
    for id in &d.declarators {
        for der in &id.declarator.derived {
            if let crate::ast::Derived::Array(Some(e)) = der {
                idents_in_expr(e, out);
            }
        }
        if let Some(i) = &id.init {
            idents_in_init(i, out);
        }
    }
}

fn idents_in_init(i: &Initializer, out: &mut Vec<String>) {
    match i {
        Initializer::Expr(e) => idents_in_expr(e, out),
        Initializer::List(l, _) => l.iter().for_each(|i| idents_in_init(i, out)),
        Initializer::Designated(_, i, _) => idents_in_init(i, out),
    }
}

fn idents_in_expr(e: &Expr, out: &mut Vec<String>) {
    match &e.kind {
        ExprKind::Ident(n) => {
            if !out.contains(n) {
                out.push(n.clone());
            }
        }
        ExprKind::Unary(_, a)
        | ExprKind::Cast(_, a)
        | ExprKind::SizeofExpr(a)
        | ExprKind::VecStep(a)
        | ExprKind::Member { base: a, .. } => idents_in_expr(a, out),
        ExprKind::StmtExpr(s) => idents_in_stmt(s, out),
        ExprKind::CondOmitted(a, b)
        | ExprKind::Binary(_, a, b, _)
        | ExprKind::Assign(_, a, b, _)
        | ExprKind::Comma(a, b)
        | ExprKind::Index(a, b) => {
            idents_in_expr(a, out);
            idents_in_expr(b, out);
        }
        ExprKind::Cond(a, b, c) => {
            idents_in_expr(a, out);
            idents_in_expr(b, out);
            idents_in_expr(c, out);
        }
        ExprKind::Call(f, args) => {
            idents_in_expr(f, out);
            args.iter().for_each(|a| idents_in_expr(a, out));
        }
        ExprKind::VectorLit(_, args) => args.iter().for_each(|a| idents_in_expr(a, out)),
        ExprKind::CompoundLit(_, i) => idents_in_init(i, out),
        ExprKind::BlockLit(b) => idents_in_stmt(&b.body, out),
        ExprKind::IntLit { .. }
        | ExprKind::FloatLit { .. }
        | ExprKind::CharLit(_)
        | ExprKind::StringLit(_)
        | ExprKind::SizeofType(_)
        | ExprKind::AlignofType(_)
        | ExprKind::VecStepType(_)
        | ExprKind::Error => {}
    }
}

/// The `return <expr>` expressions of a Block body (not those of nested literals).
fn returned_exprs<'s>(s: &'s Stmt, out: &mut Vec<&'s Expr>) {
    match &s.kind {
        StmtKind::Return(Some(e)) => out.push(e),
        StmtKind::Compound(items) => items.iter().for_each(|i| returned_exprs(i, out)),
        StmtKind::If(_, t, f) => {
            returned_exprs(t, out);
            if let Some(f) = f {
                returned_exprs(f, out);
            }
        }
        StmtKind::While(_, b)
        | StmtKind::Switch(_, b)
        | StmtKind::Case(_, b)
        | StmtKind::CaseRange(_, _, b)
        | StmtKind::DoWhile(b, _)
        | StmtKind::For(_, _, _, b)
        | StmtKind::Default(b)
        | StmtKind::Label(_, b) => returned_exprs(b, out),
        _ => {}
    }
}

fn round_up(v: u64, align: u64) -> u64 {
    v.div_ceil(align.max(1)) * align.max(1)
}

impl<'a> Emitter<'a> {
    /// Blocks need OpenCL C 2.0 (clang enables `-fblocks` for CL2.0; 3.0 with
    /// `__opencl_c_device_enqueue`).
    pub fn blocks_allowed(&self) -> bool {
        self.device_enqueue_allowed()
    }

    /// Device-side enqueue (§6.13.17): OpenCL C 2.0, or 3.0 with `__opencl_c_device_enqueue`.
    pub fn device_enqueue_allowed(&self) -> bool {
        self.opts.cl_version == 200
            || (self.opts.cl_version >= 300
                && self
                    .target
                    .features
                    .iter()
                    .any(|f| f == "__opencl_c_device_enqueue"))
    }

    /// The `generic uchar *` type of a Block value.
    pub fn block_ptr_ty(&mut self) -> spv::Id {
        self.ptr_ty(AddrSpace::Generic, &Type::Scalar(Scalar::UChar))
    }

    /// The Block type of a Block literal or Block variable expression (without evaluating it).
    pub(crate) fn block_type_of(&self, e: &Expr) -> Option<Box<BlockSig>> {
        match &e.kind {
            ExprKind::BlockLit(_) => Some(Box::new(BlockSig {
                ret: Type::Void,
                params: Vec::new(),
                literal: None,
            })),
            ExprKind::Ident(n) => match self.scopes.lookup(n) {
                Some(Symbol::Value {
                    ty: Type::Block(sig),
                    ..
                }) => Some(sig.clone()),
                _ => None,
            },
            _ => None,
        }
    }

    /// Evaluates a Block literal: fills its struct with the captured values and queues its
    /// invoke function for emission after the current function.
    pub(crate) fn block_literal(&mut self, lit: &BlockLiteral, span: Span) -> Option<Val> {
        if !self.blocks_allowed() {
            self.error(
                span,
                "blocks support disabled - compile with -fblocks or for OpenCL C 2.0 or OpenCL C 3.0 with __opencl_c_device_enqueue feature",
            );
            return None;
        }
        // §1.12.3: "You can also declare a Block as a global literal in program scope" (it
        // captures nothing: there are no automatic variables there).
        let at_program_scope = self.b.current_function().is_none();
        // §1.12.5: no variadic Blocks.
        if lit.variadic {
            self.error(
                span,
                "invalid prototype, variadic arguments are not allowed in OpenCL",
            );
            return None;
        }
        let mut params = Vec::new();
        for p in &lit.params {
            let base = self.base_type(&p.spec)?;
            let t = self.apply_declarator(base, &p.spec, &p.declarator)?;
            let t = match t {
                Type::Array(elem, _) => {
                    let space = p.spec.addr.unwrap_or_else(|| self.default_pointee_space());
                    Type::pointer(*elem, space, p.spec.quals.is_const)
                }
                t => t,
            };
            if t == Type::Void {
                self.error(p.span, "argument may not have 'void' type");
                return None;
            }
            params.push(t);
        }
        let param_names: Vec<String> = lit
            .params
            .iter()
            .filter_map(|p| p.declarator.name.as_ref().map(|n| n.0.clone()))
            .collect();
        // Captures: the automatic variables of the enclosing function the body names.
        let mut used = Vec::new();
        idents_in_stmt(&lit.body, &mut used);
        let (locals, tags) = self.scopes.local_symbols();
        let mut captures: Vec<(String, Type, spv::Id, Span)> = Vec::new();
        let mut inherited = Vec::new();
        for (name, sym) in locals {
            if param_names.contains(&name) {
                continue;
            }
            let is_used = used.contains(&name);
            match &sym {
                Symbol::Var {
                    ptr,
                    ty,
                    space: AddrSpace::Private,
                    ..
                } => {
                    if is_used {
                        captures.push((name.clone(), ty.clone(), *ptr, span));
                    }
                }
                Symbol::Value {
                    ty: Type::Block(_), ..
                } => {
                    if is_used {
                        // §1.12.5 Example 4.
                        self.error(
                            span,
                            format!("cannot refer to a block inside block ('{name}' is declared in an outer scope)"),
                        );
                        return None;
                    }
                }
                _ => inherited.push((name.clone(), sym.clone())),
            }
        }
        // Keep the capture order of first use in the body, then sort by alignment (largest
        // first, as clang lays out Block captures).
        captures.sort_by_key(|c| used.iter().position(|u| *u == c.0).unwrap_or(usize::MAX));
        let ret = match &lit.ret {
            Some(tn) => self.resolve_type_name(tn)?,
            None => self.infer_block_return(lit, &params, &captures),
        };
        if matches!(ret, Type::Block(_)) {
            self.error(
                span,
                "a Block cannot be the return value of a Block (OpenCL C 2.0 §1.12.5)",
            );
            return None;
        }
        let ptr_bytes = u64::from(self.pointer_bits() / 8);
        // Captured arrays decay to pointers (§1.12.5: "arrays are captured by reference").
        let mut fields: Vec<(String, Type, spv::Id)> = Vec::new();
        for (name, ty, ptr, _) in &captures {
            fields.push((name.clone(), ty.clone(), *ptr));
        }
        let mut order: Vec<usize> = (0..fields.len()).collect();
        let capture_ty = |t: &Type| match t {
            Type::Array(elem, _) => Type::pointer((**elem).clone(), AddrSpace::Private, false),
            t => t.clone(),
        };
        order.sort_by_key(|&i| std::cmp::Reverse(self.size_align(&capture_ty(&fields[i].1)).1));
        // clang lays the literal out packed (`<{ … }>`, SPIR-V `CPacked`) with the captures
        // sorted by alignment, first filling the gap between the header and the most aligned
        // capture with smaller ones (32-bit: a 12-byte header before 8-byte captures); when a
        // member is still misaligned the natural layout is used instead. The literal is at
        // least 8-aligned (as clang reports it for spir and spir64).
        let header = 8 + ptr_bytes;
        let align_of = |em: &Self, i: usize| em.size_align(&capture_ty(&fields[i].1));
        if let Some(&first) = order.first() {
            let max_align = align_of(self, first).1.max(1);
            let mut gap = round_up(header, max_align) - header;
            let mut at = header;
            let mut front = Vec::new();
            let mut k = 0;
            while gap > 0 && k < order.len() {
                let (s, a) = align_of(self, order[k]);
                if s <= gap && at % a.max(1) == 0 {
                    front.push(order.remove(k));
                    gap -= s;
                    at += s;
                } else {
                    k += 1;
                }
            }
            front.extend(order);
            order = front;
        }
        let mut offset = header;
        let mut packed = true;
        let mut align = 8u64.max(ptr_bytes);
        let mut member_types = vec![
            self.spv_type(&Type::UINT),
            self.spv_type(&Type::UINT),
            self.block_ptr_ty(),
        ];
        let mut caps = Vec::new();
        for (m, &i) in order.iter().enumerate() {
            let t = capture_ty(&fields[i].1);
            let (s, a) = self.size_align(&t);
            packed &= offset % a.max(1) == 0;
            offset = round_up(offset, a) + s;
            align = align.max(a);
            member_types.push(self.spv_type(&t));
            caps.push(Capture {
                name: fields[i].0.clone(),
                ty: t,
                member: 3 + m as u32,
            });
        }
        let size = if packed {
            offset
        } else {
            round_up(offset, align)
        };
        let struct_ty = self.b.type_struct(&member_types);
        if packed {
            self.b.decorate(struct_ty, spv::Decoration::CPacked, &[]);
        }
        let (value, global) = if at_program_scope {
            let var = self.global_literal(struct_ty, size as u32, align as u32);
            (var, Some(var))
        } else {
            (
                self.fill_literal(
                    struct_ty,
                    &member_types,
                    size,
                    align,
                    &caps,
                    &order,
                    &fields,
                ),
                None,
            )
        };
        // Register the literal; its invoke function is emitted after the current function.
        let owner = if self.fs.block_owner.is_empty() {
            self.fs.name.clone()
        } else {
            self.fs.block_owner.clone()
        };
        let n = self.block_counts.entry(owner.clone()).or_insert(0);
        *n += 1;
        // clang: `__<function>_block_invoke[_N]`, and `<variable>_block_invoke` for a
        // program-scope literal.
        let prefix = if at_program_scope { "" } else { "__" };
        let name = if *n == 1 {
            format!("{prefix}{owner}_block_invoke")
        } else {
            format!("{prefix}{owner}_block_invoke_{n}")
        };
        let invoke = self.b.id();
        self.b.name(invoke, &name);
        let index = self.blocks.len() as u32;
        self.blocks.push(BlockLit {
            ret: ret.clone(),
            params: params.clone(),
            param_decls: lit.params.clone(),
            body: lit.body.clone(),
            name,
            owner,
            invoke,
            kernel: None,
            struct_ty,
            size: size as u32,
            align: align as u32,
            captures: caps,
            global,
            inherited,
            inherited_tags: tags,
            span,
        });
        self.pending_blocks.push(index);
        Some(Val {
            id: value,
            ty: Type::Block(Box::new(BlockSig {
                ret,
                params,
                literal: Some(index),
            })),
        })
    }

    /// Fills a literal in a private variable with its header and the captured values; the
    /// Block value is its address as a `generic uchar *`.
    #[allow(clippy::too_many_arguments)]
    fn fill_literal(
        &mut self,
        struct_ty: spv::Id,
        member_types: &[spv::Id],
        size: u64,
        align: u64,
        caps: &[Capture],
        order: &[usize],
        fields: &[(String, Type, spv::Id)],
    ) -> spv::Id {
        // Fill the literal.
        let ptr_t = self.b.type_pointer(spv::StorageClass::Function, struct_ty);
        let var = self.b.local_variable(ptr_t);
        let uint = self.spv_type(&Type::UINT);
        let mut values = vec![
            self.b.constant_u32(uint, size as u32),
            self.b.constant_u32(uint, align as u32),
        ];
        let bp = self.block_ptr_ty();
        values.push(self.b.constant_null(bp));
        for c in caps {
            let i = order[(c.member - 3) as usize];
            let src = fields[i].2;
            let v = match &fields[i].1 {
                Type::Array(..) => {
                    let pt = self.spv_type(&c.ty);
                    let zero = self.int_const(Scalar::UInt, 0);
                    self.inst(
                        Op::InBoundsAccessChain,
                        pt,
                        vec![Operand::Id(src), Operand::Id(zero)],
                    )
                }
                t => {
                    let t = self.spv_type(t);
                    self.inst(Op::Load, t, vec![Operand::Id(src)])
                }
            };
            values.push(v);
        }
        for (m, v) in values.into_iter().enumerate() {
            let mt = member_types[m];
            let fp = self.b.type_pointer(spv::StorageClass::Function, mt);
            let idx = self.int_const(Scalar::UInt, m as i128);
            let p = self.inst(
                Op::InBoundsAccessChain,
                fp,
                vec![Operand::Id(var), Operand::Id(idx)],
            );
            self.b
                .inst_no_result(Op::Store, vec![Operand::Id(p), Operand::Id(v)]);
        }
        let uchar = self.spv_type(&Type::Scalar(Scalar::UChar));
        let fn_uchar = self.b.type_pointer(spv::StorageClass::Function, uchar);
        let raw = self.inst(Op::Bitcast, fn_uchar, vec![Operand::Id(var)]);
        self.inst(Op::PtrCastToGeneric, bp, vec![Operand::Id(raw)])
    }

    /// A program-scope literal: a `CrossWorkgroup` constant `{ size, align, null }` (as clang
    /// emits `__block_literal_global`); the invoke function is called directly, so the
    /// invoke pointer stays null (SPIR-V for OpenCL has no function pointers).
    fn global_literal(&mut self, struct_ty: spv::Id, size: u32, align: u32) -> spv::Id {
        let uint = self.spv_type(&Type::UINT);
        let bp = self.block_ptr_ty();
        let parts = [
            self.b.constant_u32(uint, size),
            self.b.constant_u32(uint, align),
            self.b.constant_null(bp),
        ];
        let init = self.b.constant_composite(struct_ty, &parts);
        let pt = self
            .b
            .type_pointer(spv::StorageClass::CrossWorkgroup, struct_ty);
        let var = self
            .b
            .variable(pt, spv::StorageClass::CrossWorkgroup, Some(init));
        self.b.name(var, "__block_literal_global");
        self.b.decorate(var, spv::Decoration::Constant, &[]);
        self.b
            .decorate(var, spv::Decoration::Alignment, &[Operand::Int(align)]);
        var
    }

    /// The value of a Block symbol in the current function: a program-scope literal's
    /// variable becomes its `generic uchar *` address; other Block values are that already.
    pub(crate) fn block_symbol_value(&mut self, id: spv::Id, ty: Type) -> Val {
        let global = match &ty {
            Type::Block(sig) => sig
                .literal
                .and_then(|i| self.blocks.get(i as usize))
                .and_then(|l| l.global),
            _ => None,
        };
        match global {
            Some(var) if self.b.current_function().is_some() => {
                let uchar = self.spv_type(&Type::Scalar(Scalar::UChar));
                let gp = self
                    .b
                    .type_pointer(spv::StorageClass::CrossWorkgroup, uchar);
                let raw = self.inst(Op::Bitcast, gp, vec![Operand::Id(var)]);
                let bp = self.block_ptr_ty();
                let id = self.inst(Op::PtrCastToGeneric, bp, vec![Operand::Id(raw)]);
                Val { id, ty }
            }
            _ => Val { id, ty },
        }
    }

    /// The return type of a literal without one (§1.12.3): `void` without `return <value>`,
    /// else the type of the first returned value (probed with the parameters and captures
    /// in scope).
    fn infer_block_return(
        &mut self,
        lit: &BlockLiteral,
        params: &[Type],
        _captures: &[(String, Type, spv::Id, Span)],
    ) -> Type {
        let mut rets = Vec::new();
        returned_exprs(&lit.body, &mut rets);
        let Some(first) = rets.first() else {
            return Type::Void;
        };
        if self.b.current_function().is_none() {
            // At program scope there is nowhere to probe the returned expression: the
            // literal initializes a Block variable, whose declared return type it takes
            // (the returned values are converted to it in the invoke function).
            return self.fs.global_block_ret.clone().unwrap_or(Type::Void);
        }
        self.scopes.push();
        for (p, t) in lit.params.iter().zip(params) {
            if let Some((name, _)) = &p.declarator.name {
                let pt = self.ptr_ty(AddrSpace::Private, t);
                let var = self.b.local_variable(pt);
                self.scopes.declare(
                    name,
                    Symbol::Var {
                        ptr: var,
                        ty: t.clone(),
                        space: AddrSpace::Private,
                        is_const: false,
                    },
                );
            }
        }
        let t = self.probe_type(first);
        self.scopes.pop();
        match t {
            Some(Type::Array(elem, _)) => Type::pointer(*elem, AddrSpace::Private, false),
            Some(t) => t,
            None => Type::Void,
        }
    }

    /// Emits the invoke functions (and enqueue kernels) of the literals met so far.
    /// Also emits the pending specializations of functions with Block parameters
    /// (emit/block_param.rs), whose bodies may hold more literals.
    pub(crate) fn emit_pending_blocks(&mut self) {
        loop {
            if !self.pending_blocks.is_empty() {
                let index = self.pending_blocks.remove(0);
                self.emit_block_invoke(index);
            } else if !self.pending_block_kernels.is_empty() {
                let index = self.pending_block_kernels.remove(0);
                let lit = self.blocks.get(index as usize).cloned();
                if let Some((lit, kernel)) = lit.and_then(|l| l.kernel.map(|k| (l, k))) {
                    self.emit_block_kernel(&lit, kernel);
                }
            } else if !self.emit_pending_specializations() {
                break;
            }
        }
    }

    fn emit_block_invoke(&mut self, index: u32) {
        let Some(lit) = self.blocks.get(index as usize).cloned() else {
            return;
        };
        let ret_t = self.spv_type(&lit.ret);
        let bp = self.block_ptr_ty();
        let mut pts = vec![bp];
        for t in &lit.params {
            pts.push(self.spv_type(t));
        }
        let fn_t = self.b.type_function(ret_t, &pts);
        self.fs = FnState {
            name: lit.name.clone(),
            block_owner: lit.owner.clone(),
            ret: Some(lit.ret.clone()),
            ..FnState::default()
        };
        self.b
            .begin_function(ret_t, Some(lit.invoke), FunctionControl::NONE, fn_t);
        let ids: Vec<spv::Id> = pts.iter().map(|t| self.b.function_parameter(*t)).collect();
        let entry = self.b.id();
        self.begin_block(entry);
        self.fs.entry = Some(entry);
        self.scopes.push();
        for (name, sym) in &lit.inherited {
            self.scopes.declare(name, sym.clone());
        }
        for (name, tag) in &lit.inherited_tags {
            self.scopes.declare_tag(name, *tag);
        }
        // Captures: const copies read back from the literal.
        let sp = self
            .b
            .type_pointer(spv::StorageClass::Generic, lit.struct_ty);
        let this = self.inst(Op::Bitcast, sp, vec![Operand::Id(ids[0])]);
        for c in &lit.captures {
            let t = self.spv_type(&c.ty);
            let fp = self.b.type_pointer(spv::StorageClass::Generic, t);
            let idx = self.int_const(Scalar::UInt, c.member as i128);
            let p = self.inst(
                Op::InBoundsAccessChain,
                fp,
                vec![Operand::Id(this), Operand::Id(idx)],
            );
            let v = self.inst(Op::Load, t, vec![Operand::Id(p)]);
            let pt = self.ptr_ty(AddrSpace::Private, &c.ty);
            let var = self.b.local_variable(pt);
            self.b.name(var, &c.name);
            self.b
                .inst_no_result(Op::Store, vec![Operand::Id(var), Operand::Id(v)]);
            self.scopes.declare(
                &c.name,
                Symbol::Var {
                    ptr: var,
                    ty: c.ty.clone(),
                    space: AddrSpace::Private,
                    is_const: true,
                },
            );
        }
        self.scopes.push();
        for (i, (p, t)) in lit.param_decls.iter().zip(&lit.params).enumerate() {
            let Some((name, psp)) = &p.declarator.name else {
                continue;
            };
            let pt = self.ptr_ty(AddrSpace::Private, t);
            let var = self.b.local_variable(pt);
            self.b.name(var, name);
            self.b
                .inst_no_result(Op::Store, vec![Operand::Id(var), Operand::Id(ids[i + 1])]);
            if self.scopes.declared_here(name).is_some() {
                self.error(*psp, format!("redefinition of parameter '{name}'"));
            }
            self.scopes.declare(
                name,
                Symbol::Var {
                    ptr: var,
                    ty: t.clone(),
                    space: AddrSpace::Private,
                    is_const: false,
                },
            );
        }
        self.fs.body_depth = self.scopes.depth();
        if let StmtKind::Compound(items) = &lit.body.kind {
            for s in items {
                self.stmt(s);
            }
        }
        if !self.b.block_terminated() {
            if lit.ret == Type::Void {
                self.b.inst_no_result(Op::Return, vec![]);
            } else {
                self.b.inst_no_result(Op::Unreachable, vec![]);
            }
        }
        self.b.end_function();
        self.scopes.pop();
        self.scopes.pop();
        self.fs = FnState::default();
        if let Some(kernel) = lit.kernel {
            self.emit_block_kernel(&lit, kernel);
        }
    }

    /// `void __…_block_invoke_kernel(generic uchar *literal, local void *…)` calling the
    /// invoke function: the kernel that device-side enqueue launches (llvm-spirv's form).
    fn emit_block_kernel(&mut self, lit: &BlockLit, kernel: spv::Id) {
        let mut pts = vec![self.block_ptr_ty()];
        for t in &lit.params {
            pts.push(self.spv_type(t));
        }
        let void = self.b.type_void();
        let fn_t = self.b.type_function(void, &pts);
        self.b
            .begin_function(void, Some(kernel), FunctionControl::NONE, fn_t);
        let name = format!("{}_kernel", lit.name);
        self.b.name(kernel, &name);
        let ids: Vec<spv::Id> = pts.iter().map(|t| self.b.function_parameter(*t)).collect();
        self.b.begin_block(None);
        let ops = std::iter::once(Operand::Id(lit.invoke))
            .chain(ids.iter().map(|i| Operand::Id(*i)))
            .collect();
        self.inst(Op::FunctionCall, void, ops);
        self.b.inst_no_result(Op::Return, vec![]);
        self.b.end_function();
        self.kernels.push(KernelInfo {
            id: kernel,
            name,
            span: lit.span,
            attrs: Vec::new(),
            arg_types: std::iter::once("void*".to_string())
                .chain(lit.params.iter().map(|t| self.type_name(t)))
                .collect(),
        });
    }

    /// The enqueue kernel of Block value `v` (made on first use).
    pub(crate) fn block_kernel(&mut self, v: &Val) -> Option<(spv::Id, u32, u32)> {
        let Type::Block(sig) = &v.ty else {
            return None;
        };
        let lit = self.blocks.get_mut(sig.literal? as usize)?;
        let (size, align) = (lit.size, lit.align);
        if let Some(k) = lit.kernel {
            return Some((k, size, align));
        }
        let k = self.b.id();
        let index = sig.literal?;
        if let Some(lit) = self.blocks.get_mut(index as usize) {
            lit.kernel = Some(k);
        }
        // Usually the literal's invoke function is still pending (it is emitted after the
        // enclosing function) and makes the kernel too; a literal already emitted (at program
        // scope, or passed to a function with a Block parameter) gets its kernel later.
        if !self.pending_blocks.contains(&index) {
            self.pending_block_kernels.push(index);
        }
        Some((k, size, align))
    }

    /// Calls Block value `callee` with `args` (§1.12.1: "use it just as you would a
    /// function").
    pub(crate) fn block_call(&mut self, callee: Val, args: &[Expr], span: Span) -> Option<Val> {
        let Type::Block(sig) = &callee.ty else {
            return None;
        };
        let lit = sig.literal.and_then(|i| self.blocks.get(i as usize));
        if lit.is_none() && !self.check_only {
            self.error(span, "calling a Block parameter is not supported yet");
            return None;
        }
        let invoke = lit.map(|l| l.invoke);
        if args.len() != sig.params.len() {
            let msg = format!(
                "too {} arguments to block call, expected {}, have {}",
                if args.len() < sig.params.len() {
                    "few"
                } else {
                    "many"
                },
                sig.params.len(),
                args.len()
            );
            let at = super::call::arg_count_span(span, args, sig.params.len());
            self.error(at, msg);
            return None;
        }
        let mut ops = vec![Operand::Id(callee.id)];
        for (a, t) in args.iter().zip(&sig.params) {
            let v = self.rvalue(a)?;
            let v = self.assign_convert(v, t, a, "passing")?;
            ops.push(Operand::Id(v.id));
        }
        let Some(invoke) = invoke else {
            // Type-checking only (an unbound Block parameter): the value is never used.
            return Some(Val {
                id: self.b.id(),
                ty: sig.ret.clone(),
            });
        };
        ops.insert(0, Operand::Id(invoke));
        let rt = self.spv_type(&sig.ret);
        let id = self.inst(Op::FunctionCall, rt, ops);
        Some(Val {
            id,
            ty: sig.ret.clone(),
        })
    }
}
