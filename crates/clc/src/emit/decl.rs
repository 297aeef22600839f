//! Declarations: typedefs, program-scope variables (`__constant`, and `__global` from OpenCL
//! C 2.0, §6.5), block-scope variables with initializers, and `__local` variables declared in
//! kernels, which become module-scope `Workgroup` variables (§6.5.2).

use spv::{Id, Op, Operand, StorageClass};

use super::types::storage_class;
use super::{Emitter, Val};
use crate::ast::{
    AddrSpace, Declaration, Derived, Expr, ExprKind, FloatSuffix, Initializer, Storage, UnaryOp,
};
use crate::sema::{Scalar, Symbol, Type};

/// A folded arithmetic constant.
#[derive(Copy, Clone, Debug)]
pub enum Num {
    Int(i128),
    Float(f64),
}

impl<'a> Emitter<'a> {
    pub fn global_declaration(&mut self, d: &Declaration) {
        let Some(base) = self.base_type(&d.spec) else {
            return;
        };
        for id in &d.declarators {
            let decl = &id.declarator;
            if matches!(decl.derived.first(), Some(Derived::Function { .. })) {
                if d.spec.storage == Storage::Typedef {
                    self.error(decl.span, "function typedefs are not supported");
                    continue;
                }
                self.declare_function(&d.spec, decl, false, d.span);
                continue;
            }
            let Some(ty) = self.apply_declarator(base.clone(), &d.spec, decl) else {
                continue;
            };
            let Some((name, nsp)) = decl.name.clone() else {
                continue;
            };
            if d.spec.storage == Storage::Typedef {
                self.name_anonymous_record(&ty, &name);
                self.scopes.declare(&name, Symbol::Typedef(ty));
                continue;
            }
            let space = Self::object_space(&d.spec, decl);
            let space = match space {
                Some(AddrSpace::Constant) => AddrSpace::Constant,
                Some(AddrSpace::Global) if self.opts.cl_version >= 200 => AddrSpace::Global,
                None if self.opts.cl_version >= 200 => AddrSpace::Global,
                _ => {
                    self.error(
                        nsp,
                        "program scope variable must reside in constant address space",
                    );
                    continue;
                }
            };
            if d.spec.storage == Storage::Extern {
                self.error(nsp, "extern variables are not supported");
                continue;
            }
            let ty = self.complete_array_from_init(ty, id.init.as_ref());
            let init = match &id.init {
                Some(i) => match self.const_initializer(i, &ty) {
                    Some(c) => Some(c),
                    None => continue,
                },
                None if space == AddrSpace::Constant => {
                    self.error(
                        nsp,
                        "variable in constant address space must be initialized",
                    );
                    continue;
                }
                None => {
                    let t = self.spv_type(&ty);
                    Some(self.b.constant_null(t))
                }
            };
            let pt = self.ptr_ty(space, &ty);
            let var = self.b.variable(pt, storage_class(space), init);
            self.b.name(var, &name);
            if space == AddrSpace::Constant {
                self.b.decorate(var, spv::Decoration::Constant, &[]);
            }
            let is_const = Self::object_const(&d.spec, decl) || space == AddrSpace::Constant;
            if self.scopes.declared_here(&name).is_some() {
                self.error(nsp, format!("redefinition of '{name}'"));
            }
            self.scopes.declare(
                &name,
                Symbol::Var {
                    ptr: var,
                    ty,
                    space,
                    is_const,
                },
            );
        }
    }

    /// `typedef struct { … } S;`: the record takes the typedef's name (for messages and
    /// argument type names).
    fn name_anonymous_record(&mut self, ty: &Type, name: &str) {
        if let Type::Record(i) = ty {
            if let Some(r) = self.records.get_mut(*i as usize) {
                if r.name == "(anonymous)" {
                    r.name = name.to_string();
                }
            }
        }
    }

    /// `int a[] = {1, 2, 3}`: the array length from the initializer.
    fn complete_array_from_init(&mut self, ty: Type, init: Option<&Initializer>) -> Type {
        if let (Type::Array(elem, 0), Some(Initializer::List(items, _))) = (&ty, init) {
            return Type::Array(elem.clone(), items.len().max(1) as u32);
        }
        ty
    }

    /// A block-scope declaration.
    pub fn local_declaration(&mut self, d: &Declaration) {
        let Some(base) = self.base_type(&d.spec) else {
            return;
        };
        for id in &d.declarators {
            let decl = &id.declarator;
            if matches!(decl.derived.first(), Some(Derived::Function { .. })) {
                self.declare_function(&d.spec, decl, false, d.span);
                continue;
            }
            let Some(ty) = self.apply_declarator(base.clone(), &d.spec, decl) else {
                continue;
            };
            let Some((name, nsp)) = decl.name.clone() else {
                continue;
            };
            if d.spec.storage == Storage::Typedef {
                self.name_anonymous_record(&ty, &name);
                self.scopes.declare(&name, Symbol::Typedef(ty));
                continue;
            }
            if self.scopes.declared_here(&name).is_some() {
                self.error(nsp, format!("redefinition of '{name}'"));
                continue;
            }
            let ty = self.complete_array_from_init(ty, id.init.as_ref());
            if !self.is_complete(&ty) {
                let msg = format!("variable has incomplete type '{}'", self.type_name(&ty));
                self.error(nsp, msg);
                continue;
            }
            let space = Self::object_space(&d.spec, decl).unwrap_or(AddrSpace::Private);
            let is_const = Self::object_const(&d.spec, decl);
            match space {
                AddrSpace::Local => {
                    if !self.fs.is_kernel {
                        self.error(nsp, "non-kernel function variable cannot be declared in local address space");
                        continue;
                    }
                    if let Some(i) = &id.init {
                        self.error(i.span(), "'__local' variable cannot have an initializer");
                        continue;
                    }
                    let pt = self.ptr_ty(AddrSpace::Local, &ty);
                    let var = self.b.variable(pt, StorageClass::Workgroup, None);
                    self.local_counter += 1;
                    self.b.name(var, &format!("{}.{}", self.fs.name, name));
                    self.scopes.declare(
                        &name,
                        Symbol::Var {
                            ptr: var,
                            ty,
                            space,
                            is_const,
                        },
                    );
                }
                AddrSpace::Constant => {
                    let Some(i) = &id.init else {
                        self.error(
                            nsp,
                            "variable in constant address space must be initialized",
                        );
                        continue;
                    };
                    let Some(c) = self.const_initializer(i, &ty) else {
                        continue;
                    };
                    let pt = self.ptr_ty(AddrSpace::Constant, &ty);
                    let var = self.b.variable(pt, StorageClass::UniformConstant, Some(c));
                    self.b.name(var, &format!("{}.{}", self.fs.name, name));
                    self.b.decorate(var, spv::Decoration::Constant, &[]);
                    self.scopes.declare(
                        &name,
                        Symbol::Var {
                            ptr: var,
                            ty,
                            space,
                            is_const: true,
                        },
                    );
                }
                AddrSpace::Global | AddrSpace::Generic => {
                    self.error(
                        nsp,
                        "function scope variable cannot be declared in global address space",
                    );
                    continue;
                }
                AddrSpace::Private => {
                    if d.spec.storage == Storage::Static {
                        self.error(nsp, "static local variables are not supported yet");
                        continue;
                    }
                    let pt = self.ptr_ty(AddrSpace::Private, &ty);
                    let var = self.b.local_variable(pt);
                    self.b.name(var, &name);
                    // The initializer sees the variable (C99 6.2.1p7) but we declare after
                    // evaluating it, like clang's common case `int x = x;` is an error anyway.
                    if let Some(init) = &id.init {
                        self.store_initializer(var, &ty, init);
                    } else if is_const {
                        self.warning(
                            nsp,
                            format!(
                                "default initialization of an object of const type '{}'",
                                self.type_name(&ty)
                            ),
                        );
                    }
                    self.scopes.declare(
                        &name,
                        Symbol::Var {
                            ptr: var,
                            ty,
                            space,
                            is_const,
                        },
                    );
                }
            }
        }
    }

    /// Stores an initializer into `ptr` (private memory) of type `ty`.
    fn store_initializer(&mut self, ptr: Id, ty: &Type, init: &Initializer) {
        let elided = self.elide_braces(init, ty);
        let init = elided.as_ref().unwrap_or(init);
        match init {
            Initializer::Expr(e) => {
                if let Initializer::Expr(Expr {
                    kind: ExprKind::StringLit(_),
                    ..
                }) = init
                {
                    if matches!(ty, Type::Array(..)) {
                        self.error(e.span, "string initializers are not supported yet");
                        return;
                    }
                }
                let Some(v) = self.rvalue(e) else { return };
                let Some(v) = self.assign_convert(v, ty, e, "initializing") else {
                    return;
                };
                self.b
                    .inst_no_result(Op::Store, vec![Operand::Id(ptr), Operand::Id(v.id)]);
            }
            Initializer::List(items, sp) => {
                let elems: Vec<Type> = match ty {
                    Type::Array(e, n) => vec![(**e).clone(); *n as usize],
                    Type::Vector(s, n) => vec![Type::Scalar(*s); *n as usize],
                    Type::Record(i) => match self.records.get(*i as usize) {
                        Some(r) if r.is_union => r
                            .fields
                            .first()
                            .map(|f| vec![f.1.clone()])
                            .unwrap_or_default(),
                        Some(r) => r.fields.iter().map(|f| f.1.clone()).collect(),
                        None => Vec::new(),
                    },
                    _ => {
                        // Scalar in braces: `int x = {1};`
                        if let [one] = items.as_slice() {
                            self.store_initializer(ptr, ty, one);
                        } else {
                            self.error(*sp, "excess elements in scalar initializer");
                        }
                        return;
                    }
                };
                if items.len() > elems.len() {
                    let at = items[elems.len()].span();
                    self.error(at, "excess elements in initializer");
                    return;
                }
                // Zero everything, then store the given elements.
                let t = self.spv_type(ty);
                let null = self.b.constant_null(t);
                self.b
                    .inst_no_result(Op::Store, vec![Operand::Id(ptr), Operand::Id(null)]);
                let is_union = matches!(ty, Type::Record(i) if self.records.get(*i as usize).is_some_and(|r| r.is_union));
                for (k, item) in items.iter().enumerate() {
                    let et = elems[k].clone();
                    let ept = self.ptr_ty(AddrSpace::Private, &et);
                    let p = if is_union {
                        self.inst(Op::Bitcast, ept, vec![Operand::Id(ptr)])
                    } else {
                        let idx = self.int_const(Scalar::UInt, k as i128);
                        self.inst(
                            Op::InBoundsAccessChain,
                            ept,
                            vec![Operand::Id(ptr), Operand::Id(idx)],
                        )
                    };
                    self.store_initializer(p, &et, item);
                }
            }
        }
    }

    /// The element types of an aggregate (arrays, structs, the first member of unions,
    /// vectors' components); `None` for scalars and pointers.
    fn aggregate_elems(&self, ty: &Type) -> Option<Vec<Type>> {
        match ty {
            Type::Array(e, n) => Some(vec![(**e).clone(); *n as usize]),
            Type::Vector(s, n) => Some(vec![Type::Scalar(*s); *n as usize]),
            Type::Record(i) => self.records.get(*i as usize).map(|r| {
                if r.is_union {
                    r.fields
                        .first()
                        .map(|f| vec![f.1.clone()])
                        .unwrap_or_default()
                } else {
                    r.fields.iter().map(|f| f.1.clone()).collect()
                }
            }),
            _ => None,
        }
    }

    /// Brace elision (C99 6.7.8p20): `int a[2][2] = {1, 2, 3, 4}` is read as
    /// `{{1, 2}, {3, 4}}`. Only constant scalars are spread into sub-aggregates; any other
    /// expression initializes the element it meets. `None` when nothing changes.
    fn elide_braces(&mut self, init: &Initializer, ty: &Type) -> Option<Initializer> {
        let Initializer::List(items, sp) = init else {
            return None;
        };
        let elems = self.aggregate_elems(ty)?;
        let needs = items.iter().zip(&elems).any(|(it, et)| {
            matches!(it, Initializer::Expr(_)) && matches!(et, Type::Array(..) | Type::Record(_))
        });
        if !needs {
            return None;
        }
        let mut pos = 0;
        let mut out = Vec::new();
        for et in &elems {
            if pos >= items.len() {
                break;
            }
            out.push(self.regroup(items, &mut pos, et, *sp));
        }
        out.extend(items[pos..].iter().cloned());
        Some(Initializer::List(out, *sp))
    }

    fn regroup(
        &mut self,
        items: &[Initializer],
        pos: &mut usize,
        ty: &Type,
        sp: crate::source::Span,
    ) -> Initializer {
        let item = items[*pos].clone();
        let spreads = match &item {
            Initializer::Expr(e) => {
                matches!(ty, Type::Array(..) | Type::Record(_) | Type::Vector(..))
                    && self.const_number(e).is_some()
            }
            Initializer::List(..) => false,
        };
        if !spreads {
            *pos += 1;
            return item;
        }
        let elems = self.aggregate_elems(ty).unwrap_or_default();
        let mut sub = Vec::new();
        for et in &elems {
            if *pos >= items.len() {
                break;
            }
            sub.push(self.regroup(items, pos, et, sp));
        }
        Initializer::List(sub, sp)
    }

    /// Assignment conversion with the null-pointer-constant rule (C99 6.3.2.3).
    pub fn assign_convert(&mut self, v: Val, to: &Type, e: &Expr, what: &str) -> Option<Val> {
        if to.is_pointer() && v.ty.is_integer() && self.const_int(e) == Some(0) {
            return Some(self.null_pointer(to));
        }
        self.implicit_convert(v, to, e.span, what)
    }

    /// A constant initializer (program-scope and `__constant` variables) of type `ty`.
    pub fn const_initializer(&mut self, init: &Initializer, ty: &Type) -> Option<Id> {
        let elided = self.elide_braces(init, ty);
        let init = elided.as_ref().unwrap_or(init);
        match (init, ty) {
            (Initializer::List(items, sp), Type::Array(elem, n)) => {
                if items.len() > *n as usize {
                    self.error(*sp, "excess elements in array initializer");
                    return None;
                }
                let mut parts = Vec::new();
                for it in items {
                    parts.push(self.const_initializer(it, elem)?);
                }
                let et = self.spv_type(elem);
                while parts.len() < *n as usize {
                    parts.push(self.b.constant_null(et));
                }
                let t = self.spv_type(ty);
                Some(self.b.constant_composite(t, &parts))
            }
            (Initializer::List(items, sp), Type::Record(i)) => {
                let rec = self.records.get(*i as usize).cloned()?;
                if rec.is_union {
                    self.error(*sp, "constant union initializers are not supported yet");
                    return None;
                }
                if items.len() > rec.fields.len() {
                    self.error(*sp, "excess elements in struct initializer");
                    return None;
                }
                let mut parts = Vec::new();
                for (k, (_, ft)) in rec.fields.iter().enumerate() {
                    match items.get(k) {
                        Some(it) => parts.push(self.const_initializer(it, ft)?),
                        None => {
                            let t = self.spv_type(ft);
                            parts.push(self.b.constant_null(t));
                        }
                    }
                }
                let t = self.spv_type(ty);
                Some(self.b.constant_composite(t, &parts))
            }
            (Initializer::List(items, sp), Type::Vector(s, n)) => {
                if items.len() > *n as usize {
                    self.error(*sp, "excess elements in vector initializer");
                    return None;
                }
                let mut parts = Vec::new();
                for it in items {
                    parts.push(self.const_initializer(it, &Type::Scalar(*s))?);
                }
                while parts.len() < *n as usize {
                    parts.push(self.int_const(*s, 0));
                }
                let t = self.spv_type(ty);
                Some(self.b.constant_composite(t, &parts))
            }
            (Initializer::List(items, sp), _) => match items.as_slice() {
                [one] => self.const_initializer(one, ty),
                _ => {
                    self.error(*sp, "excess elements in scalar initializer");
                    None
                }
            },
            (Initializer::Expr(e), Type::Vector(s, n)) => {
                // (float4)(1, 2, 3, 4) or a scalar splat.
                let comps = self.const_vector(e, *s, *n)?;
                let t = self.spv_type(ty);
                Some(self.b.constant_composite(t, &comps))
            }
            (Initializer::Expr(e), Type::Scalar(s)) => {
                let Some(n) = self.const_number(e) else {
                    self.error(e.span, "initializer element is not a compile-time constant");
                    return None;
                };
                Some(self.num_const(n, *s))
            }
            (Initializer::Expr(e), Type::Pointer(_)) if self.const_int(e) == Some(0) => {
                let t = self.spv_type(ty);
                Some(self.b.constant_null(t))
            }
            (Initializer::Expr(e), _) => {
                self.error(e.span, "initializer element is not a compile-time constant");
                None
            }
        }
    }

    fn const_vector(&mut self, e: &Expr, s: Scalar, n: u8) -> Option<Vec<Id>> {
        if let ExprKind::VectorLit(_, elems) = &e.kind {
            let mut out = Vec::new();
            for el in elems {
                if let ExprKind::VectorLit(_, _) = el.kind {
                    let inner_n = (n as usize).saturating_sub(out.len()).min(16) as u8;
                    out.extend(self.const_vector(el, s, inner_n)?);
                    continue;
                }
                let Some(v) = self.const_number(el) else {
                    self.error(
                        el.span,
                        "initializer element is not a compile-time constant",
                    );
                    return None;
                };
                out.push(self.num_const(v, s));
            }
            if out.len() == 1 {
                out = vec![out[0]; n as usize];
            }
            if out.len() != n as usize {
                self.error(e.span, "vector literal has the wrong number of components");
                return None;
            }
            return Some(out);
        }
        let inner = match &e.kind {
            ExprKind::Cast(_, inner) => inner,
            _ => e,
        };
        let Some(v) = self.const_number(inner) else {
            self.error(e.span, "initializer element is not a compile-time constant");
            return None;
        };
        let c = self.num_const(v, s);
        Some(vec![c; n as usize])
    }

    pub fn num_const(&mut self, n: Num, s: Scalar) -> Id {
        match n {
            Num::Int(i) if s.is_float() => self.float_const(s, i as f64),
            Num::Int(i) => self.int_const(s, i),
            Num::Float(f) if s.is_float() => self.float_const(s, f),
            Num::Float(f) => self.int_const(s, f as i128),
        }
    }

    /// Folds an arithmetic constant expression (integers and floats).
    pub fn const_number(&mut self, e: &Expr) -> Option<Num> {
        if let Some(i) = self.const_int(e) {
            return Some(Num::Int(i));
        }
        Some(match &e.kind {
            ExprKind::FloatLit { value, suffix } => Num::Float(match suffix {
                FloatSuffix::F => *value as f32 as f64,
                _ => *value,
            }),
            ExprKind::Unary(UnaryOp::Neg, a) => match self.const_number(a)? {
                Num::Int(i) => Num::Int(i.wrapping_neg()),
                Num::Float(f) => Num::Float(-f),
            },
            ExprKind::Unary(UnaryOp::Plus, a) => self.const_number(a)?,
            ExprKind::Cast(_, a) => self.const_number(a)?,
            ExprKind::Binary(op, a, b) => {
                let x = self.const_number(a)?;
                let y = self.const_number(b)?;
                let (x, y) = (as_f64(x), as_f64(y));
                use crate::ast::BinOp;
                Num::Float(match op {
                    BinOp::Add => x + y,
                    BinOp::Sub => x - y,
                    BinOp::Mul => x * y,
                    BinOp::Div => x / y,
                    _ => return None,
                })
            }
            _ => return None,
        })
    }
}

fn as_f64(n: Num) -> f64 {
    match n {
        Num::Int(i) => i as f64,
        Num::Float(f) => f,
    }
}
