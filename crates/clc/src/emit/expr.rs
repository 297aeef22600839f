//! Expressions (OpenCL C 2.0 §6.3 operators, C99 6.5): lvalues and rvalues, vector
//! swizzles (§6.1.7), usual arithmetic conversions with scalar widening, comparisons giving
//! `int` 1/0 for scalars and -1/0 for vectors, masked shift counts, pointer arithmetic.

use spv::{Id, Op, Operand};

use super::{Emitter, LVal, Val};
use crate::ast::{AddrSpace, BinOp, Expr, ExprKind, FloatSuffix, UnaryOp};
use crate::sema::types::{common_scalar, promote, Record};
use crate::sema::{Scalar, Symbol, Type};
use crate::source::Span;

/// An evaluated expression: a place in memory (or a vector swizzle of one), or a value.
pub(crate) enum Place {
    L(LVal),
    R(Val),
}

impl LVal {
    pub(crate) fn ty(&self) -> Type {
        match self {
            LVal::Mem { ty, .. } => ty.clone(),
            LVal::Swizzle { base, comps } => {
                let bt = base.ty();
                Type::vector_or_scalar(bt.elem().unwrap_or(Scalar::Int), comps.len() as u8)
            }
        }
    }
}

/// SPIR-V `MemoryAccess` mask bit `Volatile` (SPIR-V 3.26).
const MEMORY_ACCESS_VOLATILE: u32 = 0x1;

/// Components named by a swizzle suffix (§6.1.7), or an error message.
pub fn parse_swizzle(name: &str, lanes: u8) -> Result<Vec<u32>, String> {
    let n = lanes as u32;
    let half = n.div_ceil(2);
    let out: Vec<u32> = match name {
        "lo" => (0..half).collect(),
        "hi" => (half..half * 2).collect(),
        "even" => (0..half).map(|i| 2 * i).collect(),
        "odd" => (0..half).map(|i| 2 * i + 1).collect(),
        _ => {
            if let Some(rest) = name.strip_prefix('s').or_else(|| name.strip_prefix('S')) {
                let mut v = Vec::new();
                for c in rest.chars() {
                    let Some(d) = c.to_digit(16) else {
                        return Err(format!("illegal vector component name '{c}'"));
                    };
                    v.push(d);
                }
                if v.is_empty() {
                    return Err(format!("illegal vector component name '{name}'"));
                }
                v
            } else {
                let mut v = Vec::new();
                let mut set: Option<bool> = None;
                for c in name.chars() {
                    let (i, rgba) = match c {
                        'x' => (0, false),
                        'y' => (1, false),
                        'z' => (2, false),
                        'w' => (3, false),
                        'r' => (0, true),
                        'g' => (1, true),
                        'b' => (2, true),
                        'a' => (3, true),
                        _ => return Err(format!("illegal vector component name '{c}'")),
                    };
                    if set.is_some_and(|s| s != rgba) {
                        return Err("illegal mix of vector component name sets".into());
                    }
                    set = Some(rgba);
                    v.push(i);
                }
                v
            }
        }
    };
    // .hi/.lo on a 3-vector treat it as a 4-vector (§6.1.7): component 3 is undefined.
    let limit = if matches!(name, "hi" | "lo" | "even" | "odd") && n == 3 {
        4
    } else {
        n
    };
    if let Some(bad) = out.iter().find(|&&c| c >= limit) {
        return Err(format!(
            "vector component access exceeds type (component {bad})"
        ));
    }
    if !matches!(out.len(), 1 | 2 | 3 | 4 | 8 | 16) {
        return Err(format!(
            "vector component access has invalid length {}",
            out.len()
        ));
    }
    Ok(out)
}

fn is_zero_literal(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::IntLit { value: 0, .. })
}

impl<'a> Emitter<'a> {
    // ---- entry points ------------------------------------------------------------------

    /// An expression's value (arrays decay to pointers, C99 6.3.2.1).
    pub fn rvalue(&mut self, e: &Expr) -> Option<Val> {
        let v = match self.place(e)? {
            Place::L(lv) => self.load(&lv, e.span)?,
            Place::R(v) => v,
        };
        if v.ty == Type::Void {
            self.error(e.span, "expression has void type where a value is required");
            return None;
        }
        Some(v)
    }

    /// Like `rvalue` but accepts `void` (expression statements, casts to void).
    pub fn rvalue_or_void(&mut self, e: &Expr) -> Option<Val> {
        match self.place(e)? {
            Place::L(lv) => self.load(&lv, e.span),
            Place::R(v) => Some(v),
        }
    }

    /// An lvalue (C99 6.3.2.1); errors for values.
    pub fn lvalue(&mut self, e: &Expr) -> Option<LVal> {
        match self.place(e)? {
            Place::L(lv) => Some(lv),
            Place::R(_) => {
                self.error(e.span, "expression is not assignable");
                None
            }
        }
    }

    /// The type an expression would have, found by emitting it into an unreachable block
    /// (diagnostics discarded) — for `sizeof expr` and for typing both arms of `?:` first.
    pub fn probe_type(&mut self, e: &Expr) -> Option<Type> {
        self.b.current_function()?;
        let key = e as *const Expr as usize;
        if let Some(t) = self.probe_cache.get(&key) {
            return t.clone();
        }
        let saved = std::mem::take(self.diags);
        let cont = self.b.id();
        self.branch(cont);
        let dead = self.b.id();
        self.begin_block(dead);
        let r = match self.place(e) {
            Some(Place::L(lv)) => Some(lv.ty()),
            Some(Place::R(v)) => Some(v.ty),
            None => None,
        };
        if !self.b.block_terminated() {
            self.b.inst_no_result(Op::Unreachable, vec![]);
        }
        self.begin_block(cont);
        *self.diags = saved;
        self.probe_cache.insert(key, r.clone());
        r
    }

    /// Loads an lvalue; arrays decay to a pointer to their first element.
    pub fn load(&mut self, lv: &LVal, span: Span) -> Option<Val> {
        match lv {
            LVal::Mem {
                ptr,
                ty,
                space,
                is_const,
            } => {
                if let Type::Array(elem, _) = ty {
                    let pty = Type::pointer((**elem).clone(), *space, *is_const);
                    let pt = self.spv_type(&pty);
                    let zero = self.int_const(Scalar::UInt, 0);
                    let id = self.inst(
                        Op::InBoundsAccessChain,
                        pt,
                        vec![Operand::Id(*ptr), Operand::Id(zero)],
                    );
                    return Some(Val { id, ty: pty });
                }
                if *ty == Type::Void {
                    self.error(span, "cannot load a value of type 'void'");
                    return None;
                }
                if ty.elem() == Some(Scalar::Half) && !self.opts.fp16 {
                    self.error(span, "loading directly from pointer to type 'half' requires cl_khr_fp16; use vload_half");
                    return None;
                }
                if let Type::Atomic(s) = ty {
                    let id = self.atomic_object_load(*ptr, *s, *space);
                    return Some(Val { id, ty: ty.clone() });
                }
                let t = self.spv_type(ty);
                let mut ops = vec![Operand::Id(*ptr)];
                if self.volatile_ptrs.contains(ptr) {
                    // §6.5.x volatile: MemoryAccess Volatile, as llvm-spirv emits it.
                    ops.push(Operand::Int(MEMORY_ACCESS_VOLATILE));
                }
                let id = self.inst(Op::Load, t, ops);
                Some(Val { id, ty: ty.clone() })
            }
            LVal::Swizzle { base, comps } => {
                let bv = self.load(base, span)?;
                let elem = bv.ty.elem().unwrap_or(Scalar::Int);
                Some(self.swizzle_value(&bv, comps, elem))
            }
        }
    }

    fn swizzle_value(&mut self, bv: &Val, comps: &[u32], elem: Scalar) -> Val {
        if comps.len() == 1 {
            let t = self.scalar_ty(elem);
            let id = self.inst(
                Op::CompositeExtract,
                t,
                vec![Operand::Id(bv.id), Operand::Int(comps[0])],
            );
            return Val {
                id,
                ty: Type::Scalar(elem),
            };
        }
        let rt = Type::Vector(elem, comps.len() as u8);
        let t = self.spv_type(&rt);
        let lanes = bv.ty.lanes() as u32;
        let mut ops = vec![Operand::Id(bv.id), Operand::Id(bv.id)];
        // `.hi`/`.odd` of a 3-vector name a 4th component, which is undefined (§6.1.7).
        ops.extend(
            comps
                .iter()
                .map(|&c| Operand::Int(if c < lanes { c } else { 0xFFFF_FFFF })),
        );
        let id = self.inst(Op::VectorShuffle, t, ops);
        Val { id, ty: rt }
    }

    /// Stores `v` (already of the lvalue's type) into `lv`.
    pub fn store(&mut self, lv: &LVal, v: &Val, span: Span) -> Option<()> {
        match lv {
            LVal::Mem { ptr, .. } => {
                let mut ops = vec![Operand::Id(*ptr), Operand::Id(v.id)];
                if self.volatile_ptrs.contains(ptr) {
                    ops.push(Operand::Int(MEMORY_ACCESS_VOLATILE));
                }
                self.b.inst_no_result(Op::Store, ops);
                Some(())
            }
            LVal::Swizzle { base, comps } => {
                let old = self.load(base, span)?;
                let n = old.ty.lanes() as u32;
                if comps
                    .iter()
                    .enumerate()
                    .any(|(i, c)| comps[..i].contains(c))
                {
                    self.error(
                        span,
                        "vector is not assignable (contains duplicate components)",
                    );
                    return None;
                }
                let t = self.spv_type(&old.ty);
                let new = if comps.len() == 1 {
                    self.inst(
                        Op::CompositeInsert,
                        t,
                        vec![
                            Operand::Id(v.id),
                            Operand::Id(old.id),
                            Operand::Int(comps[0]),
                        ],
                    )
                } else {
                    let mut ops = vec![Operand::Id(old.id), Operand::Id(v.id)];
                    for j in 0..n {
                        let sel = match comps.iter().position(|&c| c == j) {
                            Some(k) => n + k as u32,
                            None => j,
                        };
                        ops.push(Operand::Int(sel));
                    }
                    self.inst(Op::VectorShuffle, t, ops)
                };
                self.store(
                    base,
                    &Val {
                        id: new,
                        ty: old.ty,
                    },
                    span,
                )
            }
        }
    }

    fn check_assignable(&mut self, lv: &LVal, e: &Expr) -> Option<()> {
        let what = match &e.kind {
            ExprKind::Ident(n) => format!("variable '{n}'"),
            _ => "lvalue".to_string(),
        };
        self.check_assignable_what(lv, e.span, &what)
    }

    fn check_assignable_what(&mut self, lv: &LVal, span: Span, what: &str) -> Option<()> {
        match lv {
            LVal::Mem {
                is_const,
                space,
                ty,
                ..
            } => {
                if *is_const || *space == AddrSpace::Constant {
                    let msg = format!(
                        "cannot assign to {} with const-qualified type 'const {}'",
                        what,
                        self.type_name(ty)
                    );
                    self.error(span, msg);
                    return None;
                }
                if matches!(ty, Type::Array(..)) {
                    self.error(
                        span,
                        format!("array type '{}' is not assignable", self.type_name(ty)),
                    );
                    return None;
                }
                Some(())
            }
            LVal::Swizzle { base, .. } => self.check_assignable_what(base, span, what),
        }
    }

    // ---- places ------------------------------------------------------------------------

    pub(crate) fn place(&mut self, e: &Expr) -> Option<Place> {
        match &e.kind {
            ExprKind::Ident(name) => self.ident(name, e.span),
            ExprKind::Unary(UnaryOp::Deref, inner) => {
                let p = self.rvalue(inner)?;
                if let Type::Block(_) = p.ty {
                    // OpenCL C 2.0 §1.12.5: no `*` on a Block.
                    let msg = format!(
                        "invalid argument type '{}' to unary expression",
                        self.type_name(&p.ty)
                    );
                    self.error(e.span, msg);
                    return None;
                }
                let Some(pt) = p.ty.pointee().cloned() else {
                    let msg = format!(
                        "indirection requires pointer operand ('{}' invalid)",
                        self.type_name(&p.ty)
                    );
                    self.error(e.span, msg);
                    return None;
                };
                if pt.ty == Type::Void {
                    self.error(e.span, "indirection of a 'void *' pointer");
                    return None;
                }
                if pt.is_volatile {
                    self.volatile_ptrs.insert(p.id);
                }
                Some(Place::L(LVal::Mem {
                    ptr: p.id,
                    ty: pt.ty,
                    space: pt.space,
                    is_const: pt.is_const,
                }))
            }
            ExprKind::Index(a, i) => self.index(a, i, e.span),
            ExprKind::CompoundLit(tn, init) => self.compound_literal(tn, init, e.span),
            ExprKind::Member {
                base,
                name,
                name_span,
                arrow,
            } => self.member(base, name, *name_span, *arrow, e.span),
            _ => Some(Place::R(self.value_expr(e)?)),
        }
    }

    fn ident(&mut self, name: &str, span: Span) -> Option<Place> {
        match self.scopes.lookup(name).cloned() {
            Some(Symbol::Var {
                ptr,
                ty,
                space,
                is_const,
            }) => Some(Place::L(LVal::Mem {
                ptr,
                ty,
                space,
                is_const,
            })),
            Some(Symbol::EnumConst(v)) => Some(Place::R(self.int_val(Scalar::Int, v as i128))),
            Some(Symbol::Value { id, ty }) => Some(Place::R(self.block_symbol_value(id, ty))),
            Some(Symbol::Typedef(_)) => {
                self.error(
                    span,
                    format!("unexpected type name '{name}': expected expression"),
                );
                None
            }
            None => {
                if let Some(v) = self.builtin_constant(name) {
                    return Some(Place::R(v));
                }
                if self.funcs.contains_key(name)
                    || self.overloads.contains_key(name)
                    || builtins::lookup(name).is_some()
                {
                    self.error(span, format!("function '{name}' used as a value; function pointers are not allowed in OpenCL C"));
                } else {
                    self.error_undeclared(
                        name,
                        span,
                        format!("use of undeclared identifier '{name}'"),
                    );
                }
                None
            }
        }
    }

    /// Constants of the OpenCL C library that may reach the compiler without the header.
    fn builtin_constant(&mut self, name: &str) -> Option<Val> {
        let f = |em: &mut Self, v: f64| {
            Some(Val {
                id: em.float_const(Scalar::Float, v),
                ty: Type::Scalar(Scalar::Float),
            })
        };
        match name {
            // OpenCL C 2.0 §6.1.1 (bool): "The value true expands to the integer constant 1
            // and the value false expands to the integer constant 0."
            "true" => Some(self.int_val(Scalar::Int, 1)),
            "false" => Some(self.int_val(Scalar::Int, 0)),
            "CLK_LOCAL_MEM_FENCE" => Some(self.int_val(Scalar::UInt, 1)),
            "CLK_GLOBAL_MEM_FENCE" => Some(self.int_val(Scalar::UInt, 2)),
            "CLK_IMAGE_MEM_FENCE" => Some(self.int_val(Scalar::UInt, 4)),
            "MAXFLOAT" | "FLT_MAX" => f(self, f32::MAX as f64),
            "HUGE_VALF" | "INFINITY" => f(self, f64::INFINITY),
            "NAN" => f(self, f64::NAN),
            "FLT_MIN" => f(self, f32::MIN_POSITIVE as f64),
            "FLT_EPSILON" => f(self, f32::EPSILON as f64),
            "M_PI_F" => f(self, std::f64::consts::PI),
            "M_E_F" => f(self, std::f64::consts::E),
            "M_SQRT2_F" => f(self, std::f64::consts::SQRT_2),
            "INT_MAX" => Some(self.int_val(Scalar::Int, i32::MAX as i128)),
            other if super::call::memory_constant(other).is_some() => {
                let v = super::call::memory_constant(other).unwrap_or(0);
                Some(self.int_val(Scalar::Int, v as i128))
            }
            "INT_MIN" => Some(self.int_val(Scalar::Int, i32::MIN as i128)),
            "UINT_MAX" => Some(self.int_val(Scalar::UInt, u32::MAX as i128)),
            _ => None,
        }
    }

    fn index(&mut self, a: &Expr, i: &Expr, span: Span) -> Option<Place> {
        let base = self.place(a)?;
        let idx = self.rvalue(i)?;
        if !idx.ty.is_integer() || idx.ty.is_vector() {
            let msg = format!(
                "array subscript is not an integer ('{}' invalid)",
                self.type_name(&idx.ty)
            );
            self.error(i.span, msg);
            return None;
        }
        let idx_s = idx.ty.elem().unwrap_or(Scalar::Int);
        // A constant index becomes a constant of the pointer width directly.
        let idx = match self.const_int(i) {
            Some(c) if idx_s.bits() < self.pointer_bits() => {
                let w = Scalar::int_of(self.pointer_bits(), idx_s.is_signed());
                self.int_val(w, c)
            }
            _ => idx,
        };
        let idx_s = idx.ty.elem().unwrap_or(Scalar::Int);
        match base {
            Place::L(LVal::Mem {
                ptr,
                ty: Type::Array(elem, _),
                space,
                is_const,
            }) => {
                let ix = self.index_operand(&idx, idx_s);
                let pt = self.ptr_ty(space, &elem);
                let p = self.inst(
                    Op::InBoundsAccessChain,
                    pt,
                    vec![Operand::Id(ptr), Operand::Id(ix)],
                );
                self.inherit_volatile(ptr, p);
                Some(Place::L(LVal::Mem {
                    ptr: p,
                    ty: *elem,
                    space,
                    is_const,
                }))
            }
            Place::L(LVal::Mem {
                ptr,
                ty: Type::Vector(s, _),
                space,
                is_const,
            }) => {
                let ix = self.index_operand(&idx, idx_s);
                let st = Type::Scalar(s);
                let pt = self.ptr_ty(space, &st);
                let p = self.inst(
                    Op::InBoundsAccessChain,
                    pt,
                    vec![Operand::Id(ptr), Operand::Id(ix)],
                );
                self.inherit_volatile(ptr, p);
                Some(Place::L(LVal::Mem {
                    ptr: p,
                    ty: st,
                    space,
                    is_const,
                }))
            }
            other => {
                let v = match other {
                    Place::L(lv) => self.load(&lv, a.span)?,
                    Place::R(v) => v,
                };
                match &v.ty {
                    Type::Pointer(p) => {
                        let p = (**p).clone();
                        if p.ty == Type::Void {
                            self.error(span, "subscript of pointer to incomplete type 'void'");
                            return None;
                        }
                        let ix = self.index_operand(&idx, idx_s);
                        let pt = self.spv_type(&v.ty);
                        let q = self.inst(
                            Op::PtrAccessChain,
                            pt,
                            vec![Operand::Id(v.id), Operand::Id(ix)],
                        );
                        if p.is_volatile {
                            self.volatile_ptrs.insert(q);
                        }
                        Some(Place::L(LVal::Mem {
                            ptr: q,
                            ty: p.ty,
                            space: p.space,
                            is_const: p.is_const,
                        }))
                    }
                    Type::Vector(s, _) => {
                        let t = self.scalar_ty(*s);
                        let id = self.inst(
                            Op::VectorExtractDynamic,
                            t,
                            vec![Operand::Id(v.id), Operand::Id(idx.id)],
                        );
                        Some(Place::R(Val {
                            id,
                            ty: Type::Scalar(*s),
                        }))
                    }
                    other => {
                        let msg = format!(
                            "subscripted value is not an array, pointer, or vector ('{}' invalid)",
                            self.type_name(other)
                        );
                        self.error(a.span, msg);
                        None
                    }
                }
            }
        }
    }

    /// An index widened to the pointer width with its signedness (access chain indices are
    /// signed in SPIR-V).
    fn index_operand(&mut self, idx: &Val, s: Scalar) -> Id {
        let w = self.pointer_bits();
        let target = if s.is_signed() {
            Scalar::int_of(w, true)
        } else {
            Scalar::int_of(w, false)
        };
        if s.bits() >= w {
            return idx.id;
        }
        self.convert_elems(idx.id, s, target, 1)
    }

    fn member(
        &mut self,
        base: &Expr,
        name: &str,
        name_span: Span,
        arrow: bool,
        span: Span,
    ) -> Option<Place> {
        let place = if arrow {
            let p = self.rvalue(base)?;
            let Some(pt) = p.ty.pointee().cloned() else {
                let msg = format!(
                    "member reference type '{}' is not a pointer",
                    self.type_name(&p.ty)
                );
                self.error(span, msg);
                return None;
            };
            if pt.is_volatile {
                self.volatile_ptrs.insert(p.id);
            }
            Place::L(LVal::Mem {
                ptr: p.id,
                ty: pt.ty,
                space: pt.space,
                is_const: pt.is_const,
            })
        } else {
            self.place(base)?
        };
        let ty = match &place {
            Place::L(lv) => lv.ty(),
            Place::R(v) => v.ty.clone(),
        };
        match &ty {
            Type::Vector(s, n) => {
                if arrow {
                    self.error(span, "member reference is not a pointer to a struct");
                    return None;
                }
                let comps = match parse_swizzle(name, *n) {
                    Ok(c) => c,
                    Err(m) => {
                        self.error(name_span, m);
                        return None;
                    }
                };
                match place {
                    Place::L(LVal::Mem {
                        ptr,
                        space,
                        is_const,
                        ..
                    }) if comps.len() == 1 => {
                        let st = Type::Scalar(*s);
                        let pt = self.ptr_ty(space, &st);
                        let ix = self.int_const(Scalar::UInt, comps[0] as i128);
                        let p = self.inst(
                            Op::InBoundsAccessChain,
                            pt,
                            vec![Operand::Id(ptr), Operand::Id(ix)],
                        );
                        self.inherit_volatile(ptr, p);
                        Some(Place::L(LVal::Mem {
                            ptr: p,
                            ty: st,
                            space,
                            is_const,
                        }))
                    }
                    Place::L(LVal::Swizzle { base, comps: inner }) => {
                        let mapped = comps
                            .iter()
                            .map(|&c| inner.get(c as usize).copied().unwrap_or(0))
                            .collect();
                        Some(Place::L(LVal::Swizzle {
                            base,
                            comps: mapped,
                        }))
                    }
                    Place::L(lv) => Some(Place::L(LVal::Swizzle {
                        base: Box::new(lv),
                        comps,
                    })),
                    Place::R(v) => Some(Place::R(self.swizzle_value(&v, &comps, *s))),
                }
            }
            Type::Record(ri) => {
                let Some(path) = self.member_path(*ri, name) else {
                    let msg = format!("no member named '{name}' in '{}'", self.type_name(&ty));
                    self.error_undeclared(name, name_span, msg);
                    return None;
                };
                let (mut place, mut ty) = (place, ty.clone());
                for k in path {
                    let Type::Record(ri) = ty else { return None };
                    let rec = self.records.get(ri as usize).cloned()?;
                    let fty = rec.fields.get(k)?.1.clone();
                    place = self.member_step(place, &ty, &rec, k, span)?;
                    ty = fty;
                }
                Some(place)
            }
            other => {
                let msg = format!(
                    "member reference base type '{}' is not a structure or union",
                    self.type_name(other)
                );
                self.error(span, msg);
                None
            }
        }
    }

    /// Field `k` of a value or object `place` of record type `ty` (C99 6.5.2.3).
    fn member_step(
        &mut self,
        place: Place,
        ty: &Type,
        rec: &Record,
        k: usize,
        span: Span,
    ) -> Option<Place> {
        let fty = rec.fields.get(k)?.1.clone();
        match place {
            Place::L(LVal::Mem {
                ptr,
                space,
                is_const,
                ..
            }) => {
                let pt = self.ptr_ty(space, &fty);
                let p = if rec.is_union {
                    self.inst(Op::Bitcast, pt, vec![Operand::Id(ptr)])
                } else {
                    let ix = self.int_const(Scalar::UInt, k as i128);
                    self.inst(
                        Op::InBoundsAccessChain,
                        pt,
                        vec![Operand::Id(ptr), Operand::Id(ix)],
                    )
                };
                self.inherit_volatile(ptr, p);
                Some(Place::L(LVal::Mem {
                    ptr: p,
                    ty: fty,
                    space,
                    is_const,
                }))
            }
            Place::R(v) if !rec.is_union => {
                let t = self.spv_type(&fty);
                let id = self.inst(
                    Op::CompositeExtract,
                    t,
                    vec![Operand::Id(v.id), Operand::Int(k as u32)],
                );
                Some(Place::R(Val { id, ty: fty }))
            }
            Place::R(v) => {
                // C99 6.5.2.3: a member of a union value (a function's result) is the
                // value of that member: the union's bytes read as the member's type,
                // through a private copy of the value.
                let union_ptr = self.ptr_ty(AddrSpace::Private, ty);
                let copy = self.b.local_variable(union_ptr);
                self.b
                    .inst_no_result(Op::Store, vec![Operand::Id(copy), Operand::Id(v.id)]);
                let member_ptr = self.ptr_ty(AddrSpace::Private, &fty);
                let p = self.inst(Op::Bitcast, member_ptr, vec![Operand::Id(copy)]);
                let value = self.load(
                    &LVal::Mem {
                        ptr: p,
                        ty: fty,
                        space: AddrSpace::Private,
                        is_const: true,
                    },
                    span,
                )?;
                Some(Place::R(value))
            }
            _ => {
                self.error(span, "member of a union value is not supported here");
                None
            }
        }
    }

    // ---- values ------------------------------------------------------------------------

    fn value_expr(&mut self, e: &Expr) -> Option<Val> {
        match &e.kind {
            ExprKind::Error => None,
            ExprKind::BlockLit(lit) => self.block_literal(lit, e.span),
            ExprKind::IntLit {
                value,
                unsigned,
                long,
                non_decimal,
            } => {
                let s = int_literal_type(*value, *unsigned, *long, *non_decimal);
                Some(self.int_val(s, *value as i128))
            }
            ExprKind::FloatLit { value, suffix } => {
                let s = match suffix {
                    FloatSuffix::F => Scalar::Float,
                    FloatSuffix::H => Scalar::Half,
                    FloatSuffix::None => {
                        if self.opts.fp64 && !self.opts.single_precision_constant {
                            Scalar::Double
                        } else {
                            Scalar::Float
                        }
                    }
                };
                Some(Val {
                    id: self.float_const(s, *value),
                    ty: Type::Scalar(s),
                })
            }
            ExprKind::CharLit(v) => Some(self.int_val(Scalar::Int, *v as i128)),
            ExprKind::StringLit(text) => Some(self.string_literal(text)),
            ExprKind::Ident(_) | ExprKind::Index(..) | ExprKind::Member { .. } => self.rvalue(e),
            ExprKind::Unary(op, a) => self.unary(*op, a, e.span),
            // clang points at the operator.
            ExprKind::Binary(op, a, b, op_span) => self.binary(*op, a, b, *op_span),
            ExprKind::Assign(op, a, b, op_span) => self.assign(*op, a, b, *op_span),
            ExprKind::Cond(c, a, b) => self.conditional(c, a, b, e.span),
            ExprKind::CondOmitted(a, b) => self.cond_omitted(a, b, e.span),
            ExprKind::StmtExpr(body) => self.statement_expression(body, e.span),
            ExprKind::Comma(a, b) => {
                self.rvalue_or_void(a)?;
                self.rvalue_or_void(b)
            }
            ExprKind::Call(callee, args) => self.call(callee, args, e.span),
            ExprKind::Cast(tn, a) => {
                let to = self.resolve_type_name(tn)?;
                if to == Type::Void {
                    self.rvalue_or_void(a)?;
                    return Some(Val {
                        id: self.b.id(),
                        ty: Type::Void,
                    });
                }
                let v = self.rvalue(a)?;
                if to.is_pointer() && v.ty.is_integer() && self.const_int(a) == Some(0) {
                    return Some(self.null_pointer(&to));
                }
                self.explicit_cast(v, &to, e.span)
            }
            ExprKind::VectorLit(tn, elems) => self.vector_literal(tn, elems, e.span),
            ExprKind::CompoundLit(..) => self.rvalue(e),
            ExprKind::SizeofType(tn) => {
                let ty = self.resolve_type_name(tn)?;
                // C99 6.5.3.4p1 (clang in OpenCL C: no GNU `sizeof(void)`).
                if ty == Type::Void {
                    self.error(e.span, "invalid application of 'sizeof' to a void type");
                    return None;
                }
                if !self.is_complete(&ty) {
                    self.error(
                        e.span,
                        format!(
                            "invalid application of 'sizeof' to an incomplete type '{}'",
                            self.type_name(&ty)
                        ),
                    );
                    return None;
                }
                let size = self.size_align(&ty).0;
                let st = self.size_t();
                Some(self.int_val(st.elem().unwrap_or(Scalar::ULong), size as i128))
            }
            ExprKind::AlignofType(tn) => {
                let ty = self.resolve_type_name(tn)?;
                let a = self.size_align(&ty).1;
                let st = self.size_t();
                Some(self.int_val(st.elem().unwrap_or(Scalar::ULong), a as i128))
            }
            ExprKind::SizeofExpr(inner) => {
                // A string literal is an array `char[N]` (C99 6.4.5p5), N counting the NUL.
                if let ExprKind::StringLit(text) = &inner.kind {
                    let st = self.size_t();
                    let n = text.len() as i128 + 1;
                    return Some(self.int_val(st.elem().unwrap_or(Scalar::ULong), n));
                }
                // Comparisons and logical operators have type int (C99 6.5.8).
                let is_int_result = matches!(
                    &inner.kind,
                    ExprKind::Binary(
                        BinOp::Lt
                            | BinOp::Gt
                            | BinOp::Le
                            | BinOp::Ge
                            | BinOp::Eq
                            | BinOp::Ne
                            | BinOp::LogAnd
                            | BinOp::LogOr,
                        ..
                    ) | ExprKind::Unary(UnaryOp::Not, _)
                );
                let ty = match self.probe_type(inner) {
                    Some(Type::Scalar(Scalar::Bool)) if is_int_result => Type::INT,
                    Some(t) => t,
                    None => {
                        // Report the operand's errors for real.
                        self.rvalue_or_void(inner)?;
                        return None;
                    }
                };
                let size = self.size_align(&ty).0;
                let st = self.size_t();
                Some(self.int_val(st.elem().unwrap_or(Scalar::ULong), size as i128))
            }
            ExprKind::VecStep(inner) => {
                let ty = match self.probe_type(inner) {
                    Some(t) => t,
                    None => {
                        self.rvalue_or_void(inner)?;
                        return None;
                    }
                };
                Some(self.int_val(
                    Scalar::Int,
                    (if ty.lanes() == 3 { 4 } else { ty.lanes() }) as i128,
                ))
            }
            ExprKind::VecStepType(tn) => {
                let ty = self.resolve_type_name(tn)?;
                Some(self.int_val(
                    Scalar::Int,
                    (if ty.lanes() == 3 { 4 } else { ty.lanes() }) as i128,
                ))
            }
        }
    }

    /// A derived pointer keeps the volatility of the object it points into.
    fn inherit_volatile(&mut self, from: Id, to: Id) {
        if self.volatile_ptrs.contains(&from) {
            self.volatile_ptrs.insert(to);
        }
    }

    /// `(T){ … }` (C99 6.5.2.5): an unnamed function-scope object initialized like a
    /// variable; an lvalue.
    fn compound_literal(
        &mut self,
        tn: &crate::ast::TypeName,
        init: &crate::ast::Initializer,
        span: Span,
    ) -> Option<Place> {
        let ty = self.resolve_type_name(tn)?;
        let ty = self.complete_array_from_init(ty, Some(init));
        if !self.is_complete(&ty) || ty == Type::Void {
            let msg = format!(
                "compound literal has incomplete type '{}'",
                self.type_name(&ty)
            );
            self.error(span, msg);
            return None;
        }
        if self.b.current_function().is_none() {
            self.error(
                span,
                "compound literals at program scope are not supported yet",
            );
            return None;
        }
        let pt = self.ptr_ty(AddrSpace::Private, &ty);
        let var = self.b.local_variable(pt);
        self.store_initializer(var, &ty, init);
        Some(Place::L(LVal::Mem {
            ptr: var,
            ty,
            space: AddrSpace::Private,
            is_const: false,
        }))
    }

    /// A string literal: a `__constant char[]` module variable (C99 6.4.5), decayed to a
    /// pointer to its first character.
    pub fn string_literal(&mut self, text: &str) -> Val {
        let mut bytes: Vec<u8> = text.as_bytes().to_vec();
        bytes.push(0);
        let arr = Type::Array(Box::new(Type::Scalar(Scalar::Char)), bytes.len() as u32);
        let parts: Vec<Id> = bytes
            .iter()
            .map(|&b| self.int_const(Scalar::Char, b as i8 as i128))
            .collect();
        let at = self.spv_type(&arr);
        let init = self.b.constant_composite(at, &parts);
        let pt = self.ptr_ty(AddrSpace::Constant, &arr);
        let var = self
            .b
            .variable(pt, spv::StorageClass::UniformConstant, Some(init));
        self.b.decorate(var, spv::Decoration::Constant, &[]);
        let cty = Type::pointer(Type::Scalar(Scalar::Char), AddrSpace::Constant, true);
        let ct = self.spv_type(&cty);
        let zero = self.int_const(Scalar::UInt, 0);
        let id = self.inst(
            Op::InBoundsAccessChain,
            ct,
            vec![Operand::Id(var), Operand::Id(zero)],
        );
        Val { id, ty: cty }
    }

    /// `(float4)(a, b.xy, c)`: components in order, or one scalar replicated (§6.1.6).
    fn vector_literal(
        &mut self,
        tn: &crate::ast::TypeName,
        elems: &[Expr],
        span: Span,
    ) -> Option<Val> {
        let to = self.resolve_type_name(tn)?;
        let Type::Vector(s, n) = to else {
            self.error(
                span,
                format!(
                    "excess elements in scalar initializer of type '{}'",
                    self.type_name(&to)
                ),
            );
            return None;
        };
        let mut parts: Vec<Id> = Vec::new();
        for el in elems {
            let v = self.rvalue(el)?;
            match &v.ty {
                Type::Scalar(a) => {
                    let c = self.convert_elems(v.id, *a, s, 1);
                    parts.push(c);
                }
                Type::Vector(a, m) if *a == s => {
                    let st = self.scalar_ty(s);
                    for k in 0..*m {
                        let c = self.inst(
                            Op::CompositeExtract,
                            st,
                            vec![Operand::Id(v.id), Operand::Int(k as u32)],
                        );
                        parts.push(c);
                    }
                }
                other => {
                    let msg = format!(
                        "cannot initialize a vector element of type '{}' with a value of type '{}'",
                        s.name(),
                        self.type_name(other)
                    );
                    self.error(el.span, msg);
                    return None;
                }
            }
        }
        if parts.len() != n as usize {
            let msg = if parts.len() < n as usize {
                format!(
                    "too few elements in vector initialization (expected {n} elements, have {})",
                    parts.len()
                )
            } else {
                format!(
                    "excess elements in vector initializer (expected {n} elements, have {})",
                    parts.len()
                )
            };
            self.error(span, msg);
            return None;
        }
        let t = self.spv_type(&to);
        let id = self.inst(
            Op::CompositeConstruct,
            t,
            parts.into_iter().map(Operand::Id).collect(),
        );
        Some(Val { id, ty: to })
    }

    // ---- unary -------------------------------------------------------------------------

    fn unary(&mut self, op: UnaryOp, a: &Expr, span: Span) -> Option<Val> {
        match op {
            UnaryOp::AddrOf => {
                if let Some(sig) = self.block_type_of(a) {
                    // OpenCL C 2.0 §1.12.5: no `&` on a Block.
                    let msg = format!(
                        "invalid argument type '{}' to unary expression",
                        self.type_name(&Type::Block(sig))
                    );
                    self.error(span, msg);
                    return None;
                }
                let lv = self.lvalue_for_address(a)?;
                match lv {
                    LVal::Mem {
                        ptr,
                        ty,
                        space,
                        is_const,
                    } => Some(Val {
                        id: ptr,
                        ty: Type::pointer(ty, space, is_const),
                    }),
                    LVal::Swizzle { .. } => {
                        self.error(span, "address of vector element requested");
                        None
                    }
                }
            }
            UnaryOp::Deref => {
                // `place` handles dereferences; kept for completeness.
                let p = self.rvalue(a)?;
                let Some(pt) = p.ty.pointee().cloned() else {
                    self.error(span, "indirection requires pointer operand");
                    return None;
                };
                let lv = LVal::Mem {
                    ptr: p.id,
                    ty: pt.ty,
                    space: pt.space,
                    is_const: pt.is_const,
                };
                self.load(&lv, span)
            }
            UnaryOp::PreInc | UnaryOp::PreDec | UnaryOp::PostInc | UnaryOp::PostDec => {
                let lv = self.lvalue(a)?;
                self.check_assignable(&lv, a)?;
                if let Type::Atomic(_) = lv.ty() {
                    // §6.13.11.8: no operators on atomic objects; clang points at the operator.
                    let at = if matches!(op, UnaryOp::PostInc | UnaryOp::PostDec) {
                        Span::new(span.file, span.end.saturating_sub(2), span.end)
                    } else {
                        span
                    };
                    let msg = format!(
                        "invalid argument type '{}' to unary expression",
                        self.type_name(&lv.ty())
                    );
                    self.error(at, msg);
                    return None;
                }
                let old = self.load(&lv, a.span)?;
                let delta = if matches!(op, UnaryOp::PreInc | UnaryOp::PostInc) {
                    1
                } else {
                    -1
                };
                let new = match &old.ty {
                    Type::Pointer(_) => {
                        let d = self.int_val(Scalar::int_of(self.pointer_bits(), true), delta);
                        let t = self.spv_type(&old.ty);
                        let id = self.inst(
                            Op::PtrAccessChain,
                            t,
                            vec![Operand::Id(old.id), Operand::Id(d.id)],
                        );
                        Val {
                            id,
                            ty: old.ty.clone(),
                        }
                    }
                    Type::Scalar(s) | Type::Vector(s, _) if *s != Scalar::Bool => {
                        let one = self.splat_const(&old.ty, delta as f64);
                        let t = self.spv_type(&old.ty);
                        let op = if s.is_float() { Op::FAdd } else { Op::IAdd };
                        let id = self.inst(op, t, vec![Operand::Id(old.id), Operand::Id(one)]);
                        Val {
                            id,
                            ty: old.ty.clone(),
                        }
                    }
                    other => {
                        let msg =
                            format!("cannot increment value of type '{}'", self.type_name(other));
                        self.error(span, msg);
                        return None;
                    }
                };
                self.store(&lv, &new, span)?;
                Some(if matches!(op, UnaryOp::PreInc | UnaryOp::PreDec) {
                    new
                } else {
                    old
                })
            }
            UnaryOp::Plus | UnaryOp::Neg | UnaryOp::BitNot => {
                let v = self.rvalue(a)?;
                let Some(s) = v.ty.elem() else {
                    let msg = format!(
                        "invalid argument type '{}' to unary expression",
                        self.type_name(&v.ty)
                    );
                    self.error(span, msg);
                    return None;
                };
                let ps = if v.ty.is_vector() { s } else { promote(s) };
                let rt = v.ty.with_elem(ps);
                let x = self.convert_elems(v.id, s, ps, v.ty.lanes());
                let t = self.spv_type(&rt);
                match op {
                    UnaryOp::Plus => Some(Val { id: x, ty: rt }),
                    UnaryOp::Neg => {
                        let o = if ps.is_float() {
                            Op::FNegate
                        } else {
                            Op::SNegate
                        };
                        Some(Val {
                            id: self.inst(o, t, vec![Operand::Id(x)]),
                            ty: rt,
                        })
                    }
                    _ => {
                        if ps.is_float() {
                            let msg = format!(
                                "invalid argument type '{}' to unary expression",
                                self.type_name(&v.ty)
                            );
                            self.error(span, msg);
                            return None;
                        }
                        Some(Val {
                            id: self.inst(Op::Not, t, vec![Operand::Id(x)]),
                            ty: rt,
                        })
                    }
                }
            }
            UnaryOp::Not => {
                let v = self.rvalue(a)?;
                match &v.ty {
                    Type::Vector(s, n) => {
                        // !v is v == 0, -1/0 of the signed integer type (§6.3.h).
                        let z = self.splat_const(&v.ty, 0.0);
                        let bt = self.bool_ty(*n);
                        let op = if s.is_float() {
                            Op::FOrdEqual
                        } else {
                            Op::IEqual
                        };
                        let c = self.inst(op, bt, vec![Operand::Id(v.id), Operand::Id(z)]);
                        let rt = Type::Vector(Scalar::int_of(s.bits(), true), *n);
                        Some(Val {
                            id: self.bool_to_int(c, &rt),
                            ty: rt,
                        })
                    }
                    _ => {
                        let b = self.as_bool(&v, a.span)?;
                        let bt = self.b.type_bool();
                        let id = self.inst(Op::LogicalNot, bt, vec![Operand::Id(b)]);
                        Some(Val { id, ty: Type::BOOL })
                    }
                }
            }
        }
    }

    fn lvalue_for_address(&mut self, a: &Expr) -> Option<LVal> {
        match self.place(a)? {
            Place::L(lv) => Some(lv),
            Place::R(_) => {
                self.error(a.span, "cannot take the address of an rvalue");
                None
            }
        }
    }

    // ---- conditions ----------------------------------------------------------------------

    /// A scalar expression as `OpTypeBool`, short-circuiting `&&`/`||` without int results.
    pub fn cond_bool(&mut self, e: &Expr) -> Option<Id> {
        let v = self.rvalue(e)?;
        if v.ty.is_vector() {
            let msg = format!(
                "statement requires expression of scalar type ('{}' invalid)",
                self.type_name(&v.ty)
            );
            self.error(e.span, msg);
            return None;
        }
        self.as_bool(&v, e.span)
    }

    fn logical(&mut self, op: BinOp, a: &Expr, b: &Expr, span: Span) -> Option<Val> {
        let av = self.rvalue(a)?;
        // A vector on either side makes it component-wise, the scalar widened like for the
        // other operators (1.2 §6.3.h, as clang-15 does: `int && int4` is an `int4`).
        if av.ty.is_vector() || self.probe_type(b).is_some_and(|t| t.is_vector()) {
            // Component-wise, both sides evaluated (§6.3.g).
            let bv = self.rvalue(b)?;
            let (x, y, ty) = self.arith_operands(av, bv, span, op)?;
            let n = ty.lanes();
            let s = ty.elem().unwrap_or(Scalar::Int);
            let bt = self.bool_ty(n);
            let z = self.splat_const(&ty, 0.0);
            let ne = if s.is_float() {
                Op::FUnordNotEqual
            } else {
                Op::INotEqual
            };
            let cx = self.inst(ne, bt, vec![Operand::Id(x), Operand::Id(z)]);
            let cy = self.inst(ne, bt, vec![Operand::Id(y), Operand::Id(z)]);
            let lop = if op == BinOp::LogAnd {
                Op::LogicalAnd
            } else {
                Op::LogicalOr
            };
            let c = self.inst(lop, bt, vec![Operand::Id(cx), Operand::Id(cy)]);
            let rt = Type::Vector(Scalar::int_of(s.bits(), true), n);
            return Some(Val {
                id: self.bool_to_int(c, &rt),
                ty: rt,
            });
        }
        let ca = self.as_bool(&av, a.span)?;
        let from = self.b.current_block()?;
        let rhs_l = self.b.id();
        let end = self.b.id();
        if op == BinOp::LogAnd {
            self.branch_cond(ca, rhs_l, end);
        } else {
            self.branch_cond(ca, end, rhs_l);
        }
        self.begin_block(rhs_l);
        let cb = match self.rvalue(b) {
            Some(bv) if !bv.ty.is_vector() => self.as_bool(&bv, b.span),
            Some(bv) => {
                let msg = format!(
                    "invalid operands to binary expression ('{}' and '{}')",
                    self.type_name(&av.ty),
                    self.type_name(&bv.ty)
                );
                self.error(span, msg);
                None
            }
            None => None,
        };
        let rhs_end = self.b.current_block();
        self.branch(end);
        self.begin_block(end);
        let cb = cb?;
        let rhs_end = rhs_end?;
        let bt = self.b.type_bool();
        let short = self.int_const(Scalar::Bool, (op == BinOp::LogOr) as i128);
        let id = self.inst(
            Op::Phi,
            bt,
            vec![
                Operand::Id(short),
                Operand::Id(from),
                Operand::Id(cb),
                Operand::Id(rhs_end),
            ],
        );
        Some(Val { id, ty: Type::BOOL })
    }

    // ---- binary ----------------------------------------------------------------------------

    fn binary(&mut self, op: BinOp, a: &Expr, b: &Expr, span: Span) -> Option<Val> {
        if matches!(op, BinOp::LogAnd | BinOp::LogOr) {
            return self.logical(op, a, b, span);
        }
        let av = self.rvalue(a)?;
        let bv = self.rvalue(b)?;
        // clang's -Wdivision-by-zero: integer division by a constant 0 is undefined (C99
        // 6.5.5p5).
        if matches!(op, BinOp::Div | BinOp::Rem)
            && av.ty.elem().is_some_and(|s| s.is_integer())
            && bv.ty.elem().is_some_and(|s| s.is_integer())
            && self.const_int(b) == Some(0)
        {
            let what = if op == BinOp::Div {
                "division"
            } else {
                "remainder"
            };
            self.warning(span, format!("{what} by zero is undefined"));
        }
        // Pointer comparisons with a null pointer constant.
        if matches!(op, BinOp::Eq | BinOp::Ne) {
            if av.ty.is_pointer() && is_zero_literal(b) {
                let nb = self.null_pointer(&av.ty);
                return self.binary_vals(op, av, nb, span);
            }
            if bv.ty.is_pointer() && is_zero_literal(a) {
                let na = self.null_pointer(&bv.ty);
                return self.binary_vals(op, na, bv, span);
            }
        }
        self.binary_vals(op, av, bv, span)
    }

    /// Usual arithmetic conversions (§6.2.6 / C99 6.3.1.8) with scalar → vector widening;
    /// returns both operands converted and the common type.
    pub(super) fn arith_operands(
        &mut self,
        a: Val,
        b: Val,
        span: Span,
        op: BinOp,
    ) -> Option<(Id, Id, Type)> {
        let bad = |em: &mut Self, a: &Type, b: &Type| {
            let msg = format!(
                "invalid operands to binary expression ('{}' and '{}')",
                em.type_name(a),
                em.type_name(b)
            );
            em.error(span, msg);
        };
        let _ = op;
        match (&a.ty, &b.ty) {
            (Type::Scalar(x), Type::Scalar(y)) => {
                let c = common_scalar(*x, *y);
                let ia = self.convert_elems(a.id, *x, c, 1);
                let ib = self.convert_elems(b.id, *y, c, 1);
                Some((ia, ib, Type::Scalar(c)))
            }
            (Type::Vector(x, n), Type::Scalar(y)) => {
                let s = self.convert_elems(b.id, *y, *x, 1);
                let ib = self.splat(s, *x, *n);
                Some((a.id, ib, a.ty.clone()))
            }
            (Type::Scalar(x), Type::Vector(y, n)) => {
                let s = self.convert_elems(a.id, *x, *y, 1);
                let ia = self.splat(s, *y, *n);
                Some((ia, b.id, b.ty.clone()))
            }
            (Type::Vector(..), Type::Vector(..)) if a.ty == b.ty => {
                Some((a.id, b.id, a.ty.clone()))
            }
            (Type::Vector(..), Type::Vector(..)) => {
                let (ta, tb) = (a.ty.clone(), b.ty.clone());
                let msg = format!(
                    "cannot convert between vector values of different size or element type ('{}' and '{}')",
                    self.type_name(&ta),
                    self.type_name(&tb)
                );
                self.error(span, msg);
                None
            }
            _ => {
                let (ta, tb) = (a.ty.clone(), b.ty.clone());
                bad(self, &ta, &tb);
                None
            }
        }
    }

    /// A binary operator on two evaluated operands (not `&&`/`||`).
    pub fn binary_vals(&mut self, op: BinOp, a: Val, b: Val, span: Span) -> Option<Val> {
        // Pointer arithmetic and comparison (C99 6.5.6, 6.5.8, 6.5.9).
        if a.ty.is_pointer() || b.ty.is_pointer() {
            return self.pointer_binary(op, a, b, span);
        }
        if matches!(op, BinOp::Shl | BinOp::Shr) {
            return self.shift(op, a, b, span);
        }
        let (ta, tb) = (a.ty.clone(), b.ty.clone());
        let (x, y, ty) = self.arith_operands(a, b, span, op)?;
        let s = ty.elem().unwrap_or(Scalar::Int);
        let n = ty.lanes();
        let t = self.spv_type(&ty);
        let is_f = s.is_float();
        let signed = s.is_signed();
        let arith = |o: Op| Some(o);
        let opcode = match op {
            BinOp::Add => arith(if is_f { Op::FAdd } else { Op::IAdd }),
            BinOp::Sub => arith(if is_f { Op::FSub } else { Op::ISub }),
            BinOp::Mul => arith(if is_f { Op::FMul } else { Op::IMul }),
            BinOp::Div => arith(if is_f {
                Op::FDiv
            } else if signed {
                Op::SDiv
            } else {
                Op::UDiv
            }),
            BinOp::Rem => {
                if is_f {
                    let msg = format!(
                        "invalid operands to binary expression ('{}' and '{}')",
                        self.type_name(&ta),
                        self.type_name(&tb)
                    );
                    self.error(span, msg);
                    return None;
                }
                arith(if signed { Op::SRem } else { Op::UMod })
            }
            BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor => {
                if is_f {
                    let msg = format!(
                        "invalid operands to binary expression ('{}' and '{}')",
                        self.type_name(&ta),
                        self.type_name(&tb)
                    );
                    self.error(span, msg);
                    return None;
                }
                arith(match op {
                    BinOp::BitAnd => Op::BitwiseAnd,
                    BinOp::BitOr => Op::BitwiseOr,
                    _ => Op::BitwiseXor,
                })
            }
            _ => None,
        };
        if let Some(o) = opcode {
            let id = self.inst(o, t, vec![Operand::Id(x), Operand::Id(y)]);
            return Some(Val { id, ty });
        }
        // Comparisons.
        let cmp = match (op, is_f, signed) {
            (BinOp::Eq, true, _) => Op::FOrdEqual,
            (BinOp::Ne, true, _) => Op::FUnordNotEqual,
            (BinOp::Lt, true, _) => Op::FOrdLessThan,
            (BinOp::Gt, true, _) => Op::FOrdGreaterThan,
            (BinOp::Le, true, _) => Op::FOrdLessThanEqual,
            (BinOp::Ge, true, _) => Op::FOrdGreaterThanEqual,
            (BinOp::Eq, false, _) => Op::IEqual,
            (BinOp::Ne, false, _) => Op::INotEqual,
            (BinOp::Lt, false, true) => Op::SLessThan,
            (BinOp::Gt, false, true) => Op::SGreaterThan,
            (BinOp::Le, false, true) => Op::SLessThanEqual,
            (BinOp::Ge, false, true) => Op::SGreaterThanEqual,
            (BinOp::Lt, false, false) => Op::ULessThan,
            (BinOp::Gt, false, false) => Op::UGreaterThan,
            (BinOp::Le, false, false) => Op::ULessThanEqual,
            (BinOp::Ge, false, false) => Op::UGreaterThanEqual,
            _ => return None,
        };
        let bt = self.bool_ty(n);
        let c = self.inst(cmp, bt, vec![Operand::Id(x), Operand::Id(y)]);
        if n > 1 {
            let rt = Type::Vector(Scalar::int_of(s.bits(), true), n);
            let id = self.bool_to_int(c, &rt);
            return Some(Val { id, ty: rt });
        }
        Some(Val {
            id: c,
            ty: Type::BOOL,
        })
    }

    /// `<<`/`>>` (§6.3.j): the result has the (promoted) left operand's type; the count is
    /// taken modulo the bit width of the left operand's elements.
    fn shift(&mut self, op: BinOp, a: Val, b: Val, span: Span) -> Option<Val> {
        let (Some(sa), Some(sb)) = (a.ty.elem(), b.ty.elem()) else {
            let msg = format!(
                "invalid operands to binary expression ('{}' and '{}')",
                self.type_name(&a.ty),
                self.type_name(&b.ty)
            );
            self.error(span, msg);
            return None;
        };
        if sa.is_float() || sb.is_float() {
            let msg = format!(
                "invalid operands to binary expression ('{}' and '{}')",
                self.type_name(&a.ty),
                self.type_name(&b.ty)
            );
            self.error(span, msg);
            return None;
        }
        if b.ty.is_vector() && (!a.ty.is_vector() || b.ty.lanes() != a.ty.lanes()) {
            let msg = format!(
                "invalid operands to binary expression ('{}' and '{}')",
                self.type_name(&a.ty),
                self.type_name(&b.ty)
            );
            self.error(span, msg);
            return None;
        }
        let ls = if a.ty.is_vector() { sa } else { promote(sa) };
        let rt = a.ty.with_elem(ls);
        let n = rt.lanes();
        let x = self.convert_elems(a.id, sa, ls, n);
        let mut y = self.convert_elems(b.id, sb, ls, b.ty.lanes());
        if n > 1 && !b.ty.is_vector() {
            y = self.splat(y, ls, n);
        }
        let mask = self.splat_const(&rt, (ls.bits() - 1) as f64);
        let t = self.spv_type(&rt);
        let y = self.inst(Op::BitwiseAnd, t, vec![Operand::Id(y), Operand::Id(mask)]);
        let o = match op {
            BinOp::Shl => Op::ShiftLeftLogical,
            _ if ls.is_signed() => Op::ShiftRightArithmetic,
            _ => Op::ShiftRightLogical,
        };
        let id = self.inst(o, t, vec![Operand::Id(x), Operand::Id(y)]);
        Some(Val { id, ty: rt })
    }

    fn pointer_binary(&mut self, op: BinOp, a: Val, b: Val, span: Span) -> Option<Val> {
        let bad = |em: &mut Self, a: &Type, b: &Type| {
            let msg = format!(
                "invalid operands to binary expression ('{}' and '{}')",
                em.type_name(a),
                em.type_name(b)
            );
            em.error(span, msg);
            None
        };
        match (op, a.ty.is_pointer(), b.ty.is_pointer()) {
            (BinOp::Add, true, false) | (BinOp::Sub, true, false) | (BinOp::Add, false, true) => {
                let (p, i) = if a.ty.is_pointer() { (a, b) } else { (b, a) };
                let Some(s) = i.ty.scalar().filter(|s| s.is_integer()) else {
                    return bad(self, &p.ty, &i.ty);
                };
                if p.ty.pointee().is_some_and(|q| q.ty == Type::Void) {
                    self.error(span, "arithmetic on a pointer to void");
                    return None;
                }
                let mut ix = self.index_operand(&i, s);
                if op == BinOp::Sub {
                    let w = Scalar::int_of(self.pointer_bits().max(s.bits()), true);
                    let it = self.scalar_ty(w);
                    ix = self.inst(Op::SNegate, it, vec![Operand::Id(ix)]);
                }
                let t = self.spv_type(&p.ty);
                let id = self.inst(
                    Op::PtrAccessChain,
                    t,
                    vec![Operand::Id(p.id), Operand::Id(ix)],
                );
                Some(Val { id, ty: p.ty })
            }
            (BinOp::Sub, true, true) => {
                let (pa, pb) = (a.ty.pointee().cloned()?, b.ty.pointee().cloned()?);
                if !super::convert::same_unqualified(&pa.ty, &pb.ty) || pa.space != pb.space {
                    let msg = format!(
                        "'{}' and '{}' are not pointers to compatible types",
                        self.type_name(&a.ty),
                        self.type_name(&b.ty)
                    );
                    self.error(span, msg);
                    return None;
                }
                let w = self.pointer_bits();
                let ut = Scalar::int_of(w, false);
                let st = Scalar::int_of(w, true);
                let t = self.scalar_ty(ut);
                let x = self.inst(Op::ConvertPtrToU, t, vec![Operand::Id(a.id)]);
                let y = self.inst(Op::ConvertPtrToU, t, vec![Operand::Id(b.id)]);
                let d = self.inst(Op::ISub, t, vec![Operand::Id(x), Operand::Id(y)]);
                let size = self.size_align(&pa.ty).0.max(1);
                let sz = self.int_const(st, size as i128);
                let id = self.inst(Op::SDiv, t, vec![Operand::Id(d), Operand::Id(sz)]);
                Some(Val {
                    id,
                    ty: Type::Scalar(st),
                })
            }
            (BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Gt | BinOp::Le | BinOp::Ge, true, true) => {
                let w = self.pointer_bits();
                let ut = Scalar::int_of(w, false);
                let t = self.scalar_ty(ut);
                let (mut ia, mut ib) = (a.id, b.id);
                // Compare in a common address space.
                let (sa, sb) = (
                    a.ty.pointee().map(|p| p.space),
                    b.ty.pointee().map(|p| p.space),
                );
                if sa != sb {
                    if sa == Some(AddrSpace::Generic) {
                        ib = self
                            .pointer_convert(
                                b.clone(),
                                &Type::pointer(
                                    b.ty.pointee()?.ty.clone(),
                                    AddrSpace::Generic,
                                    false,
                                ),
                                span,
                                false,
                            )?
                            .id;
                    } else if sb == Some(AddrSpace::Generic) {
                        ia = self
                            .pointer_convert(
                                a.clone(),
                                &Type::pointer(
                                    a.ty.pointee()?.ty.clone(),
                                    AddrSpace::Generic,
                                    false,
                                ),
                                span,
                                false,
                            )?
                            .id;
                    } else {
                        return bad(self, &a.ty, &b.ty);
                    }
                }
                let x = self.inst(Op::ConvertPtrToU, t, vec![Operand::Id(ia)]);
                let y = self.inst(Op::ConvertPtrToU, t, vec![Operand::Id(ib)]);
                self.binary_vals(
                    op,
                    Val {
                        id: x,
                        ty: Type::Scalar(ut),
                    },
                    Val {
                        id: y,
                        ty: Type::Scalar(ut),
                    },
                    span,
                )
            }
            _ => {
                let (ta, tb) = (a.ty.clone(), b.ty.clone());
                bad(self, &ta, &tb)
            }
        }
    }

    // ---- assignment ------------------------------------------------------------------------

    fn assign(&mut self, op: Option<BinOp>, a: &Expr, b: &Expr, span: Span) -> Option<Val> {
        let lv = self.lvalue(a)?;
        self.check_assignable(&lv, a)?;
        let lt = lv.ty();
        let v = match op {
            None => {
                let r = self.rvalue(b)?;
                if !self.check_atomic_assignment(&lt, &r.ty, span) {
                    return None;
                }
                if let (Type::Record(x), Type::Record(y)) = (&lt, &r.ty) {
                    if x != y {
                        let msg = format!(
                            "assigning to '{}' from incompatible type '{}'",
                            self.type_name(&lt),
                            self.type_name(&r.ty)
                        );
                        self.error(span, msg);
                        return None;
                    }
                }
                self.assign_convert(r, &lt, b, "assigning to")?
            }
            Some(o) => {
                let old = self.load(&lv, a.span)?;
                let r = self.rvalue(b)?;
                let res = self.binary_vals(o, old, r, span)?;
                if lt.is_vector() && res.ty.is_vector() && res.ty != lt {
                    let msg = format!(
                        "assigning to '{}' from incompatible type '{}'",
                        self.type_name(&lt),
                        self.type_name(&res.ty)
                    );
                    self.error(span, msg);
                    return None;
                }
                self.implicit_convert(res, &lt, span, "assigning to")?
            }
        };
        self.store(&lv, &v, span)?;
        Some(v)
    }

    // ---- ?: --------------------------------------------------------------------------------

    fn conditional(&mut self, c: &Expr, a: &Expr, b: &Expr, span: Span) -> Option<Val> {
        let cv = self.rvalue(c)?;
        if let Type::Vector(cs, n) = cv.ty.clone() {
            // Vector condition: select by the most significant bit of each component (§6.3.i).
            if cs.is_float() {
                self.error(c.span, "vector condition type must be an integer vector");
                return None;
            }
            let av = self.rvalue(a)?;
            let bv = self.rvalue(b)?;
            let (x, y, ty) = self.arith_operands(av, bv, span, BinOp::Add)?;
            if ty.lanes() != n || ty.elem().map(|s| s.bits()) != Some(cs.bits()) {
                let msg = format!("vector condition type '{}' and result type '{}' do not have elements of the same size", self.type_name(&cv.ty), self.type_name(&ty));
                self.error(span, msg);
                return None;
            }
            let bt = self.bool_ty(n);
            let z = self.splat_const(&cv.ty, 0.0);
            let msb = self.inst(Op::SLessThan, bt, vec![Operand::Id(cv.id), Operand::Id(z)]);
            let t = self.spv_type(&ty);
            let id = self.inst(
                Op::Select,
                t,
                vec![Operand::Id(msb), Operand::Id(x), Operand::Id(y)],
            );
            return Some(Val { id, ty });
        }
        let cb = self.as_bool(&cv, c.span)?;
        if self.block_type_of(a).is_some() || self.block_type_of(b).is_some() {
            // OpenCL C 2.0 §1.12.5.
            self.error(
                span,
                "blocks cannot be used as expressions of the ternary selection operator (?:)",
            );
            return None;
        }
        let ta = self.probe_type(a);
        let tb = self.probe_type(b);
        let rt = match (ta, tb) {
            (Some(x), Some(y)) => self.cond_result_type(&x, &y, a, b, span)?,
            _ => {
                // Report the operands' errors.
                let _ = self.rvalue_or_void(a);
                let _ = self.rvalue_or_void(b);
                return None;
            }
        };
        let tl = self.b.id();
        let fl = self.b.id();
        let end = self.b.id();
        self.branch_cond(cb, tl, fl);
        self.begin_block(tl);
        let va = self.cond_arm(a, &rt);
        let a_end = self.b.current_block();
        self.branch(end);
        self.begin_block(fl);
        let vb = self.cond_arm(b, &rt);
        let b_end = self.b.current_block();
        self.branch(end);
        self.begin_block(end);
        let (va, vb, a_end, b_end) = (va?, vb?, a_end?, b_end?);
        if rt == Type::Void {
            return Some(Val {
                id: self.b.id(),
                ty: Type::Void,
            });
        }
        let t = self.spv_type(&rt);
        let id = self.inst(
            Op::Phi,
            t,
            vec![
                Operand::Id(va),
                Operand::Id(a_end),
                Operand::Id(vb),
                Operand::Id(b_end),
            ],
        );
        Some(Val { id, ty: rt })
    }

    pub(super) fn cond_arm(&mut self, e: &Expr, rt: &Type) -> Option<Id> {
        let v = self.rvalue_or_void(e)?;
        if *rt == Type::Void {
            return Some(v.id);
        }
        if rt.is_pointer() && v.ty.is_integer() && self.const_int(e) == Some(0) {
            return Some(self.null_pointer(rt).id);
        }
        Some(self.implicit_convert(v, rt, e.span, "converting to")?.id)
    }

    pub(super) fn cond_result_type(
        &mut self,
        x: &Type,
        y: &Type,
        a: &Expr,
        b: &Expr,
        span: Span,
    ) -> Option<Type> {
        let decay = |t: &Type| match t {
            Type::Array(e, _) => Type::pointer((**e).clone(), AddrSpace::Private, false),
            other => other.clone(),
        };
        let (x, y) = (decay(x), decay(y));
        Some(match (&x, &y) {
            (Type::Scalar(p), Type::Scalar(q)) => Type::Scalar(common_scalar(*p, *q)),
            (Type::Vector(..), Type::Scalar(_)) => x.clone(),
            (Type::Scalar(_), Type::Vector(..)) => y.clone(),
            _ if super::convert::same_unqualified(&x, &y) => x.clone(),
            (Type::Pointer(_), Type::Scalar(_)) if self.const_int(b) == Some(0) => x.clone(),
            (Type::Scalar(_), Type::Pointer(_)) if self.const_int(a) == Some(0) => y.clone(),
            (Type::Pointer(p), Type::Pointer(q)) if p.ty == Type::Void || q.ty == Type::Void => {
                if p.ty == Type::Void {
                    x.clone()
                } else {
                    y.clone()
                }
            }
            _ => {
                let msg = format!(
                    "incompatible operand types ('{}' and '{}')",
                    self.type_name(&x),
                    self.type_name(&y)
                );
                self.error(span, msg);
                return None;
            }
        })
    }
}

/// The type of an integer constant (C99 6.4.4.1 with OpenCL's 64-bit `long`).
pub fn int_literal_type(value: u64, unsigned: bool, long: bool, non_decimal: bool) -> Scalar {
    let fits_int = value <= i32::MAX as u64;
    let fits_uint = value <= u32::MAX as u64;
    let fits_long = value <= i64::MAX as u64;
    match (unsigned, long) {
        (false, false) => {
            if fits_int {
                Scalar::Int
            } else if non_decimal && fits_uint {
                Scalar::UInt
            } else if fits_long {
                Scalar::Long
            } else {
                Scalar::ULong
            }
        }
        (true, false) => {
            if fits_uint {
                Scalar::UInt
            } else {
                Scalar::ULong
            }
        }
        (false, true) => {
            if fits_long {
                Scalar::Long
            } else {
                Scalar::ULong
            }
        }
        (true, true) => Scalar::ULong,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn swizzles() {
        assert_eq!(parse_swizzle("xyz", 4), Ok(vec![0, 1, 2]));
        assert_eq!(parse_swizzle("s0F", 16), Ok(vec![0, 15]));
        assert_eq!(parse_swizzle("hi", 8), Ok(vec![4, 5, 6, 7]));
        assert_eq!(parse_swizzle("odd", 4), Ok(vec![1, 3]));
        assert_eq!(parse_swizzle("lo", 3), Ok(vec![0, 1]));
        assert_eq!(parse_swizzle("hi", 3), Ok(vec![2, 3]));
        assert!(parse_swizzle("xr", 4).is_err());
        assert!(parse_swizzle("z", 2).is_err());
        assert!(parse_swizzle("xyzxy", 4).is_err());
    }

    #[test]
    fn literal_types() {
        assert_eq!(int_literal_type(1, false, false, false), Scalar::Int);
        assert_eq!(
            int_literal_type(0xFFFF_FFFF, false, false, true),
            Scalar::UInt
        );
        assert_eq!(
            int_literal_type(0xFFFF_FFFF, false, false, false),
            Scalar::Long
        );
        assert_eq!(int_literal_type(5, true, true, false), Scalar::ULong);
    }
}
