//! Declarations: typedefs, program-scope variables (`__constant`, and `__global` from OpenCL
//! C 2.0, §6.5), block-scope variables with initializers, and `__local` variables declared in
//! kernels, which become module-scope `Workgroup` variables (§6.5.2).

use spv::{Id, Op, Operand, StorageClass};

use super::types::storage_class;
use super::{Emitter, Val};
use crate::ast::{
    AddrSpace, Declaration, Derived, Designator, Expr, ExprKind, FloatSuffix, Initializer, Storage,
    UnaryOp,
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
            let is_typedef = d.spec.storage == Storage::Typedef;
            let Some(ty) = self.ext_vector_typedef(ty, &d.spec, decl, is_typedef) else {
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
            if let Type::Block(sig) = &ty {
                self.global_block_variable(&d.spec, &name, nsp, sig, id.init.as_ref());
                continue;
            }
            let space = Self::object_space(&d.spec, decl);
            // OpenCL C 2.0 §6.13.14.1: samplers "can also be declared as global constants in the
            // program source": `const sampler_t name = value;` or `constant sampler_t …`.
            if ty == Type::Sampler {
                if space == Some(AddrSpace::Constant) || Self::object_const(&d.spec, decl) {
                    self.sampler_declaration(&name, nsp, id.init.as_ref());
                } else {
                    self.error(
                        nsp,
                        "global sampler requires a const or constant address space qualifier",
                    );
                }
                continue;
            }
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
            // §6.13.11.8 (clang-15): only a global atomic object may be initialized.
            let space = match (&ty, &id.init) {
                (Type::Atomic(_), Some(init)) if space != AddrSpace::Global => {
                    self.error(init.span(), super::atomic_types::ATOMIC_INIT);
                    continue;
                }
                _ => space,
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

    /// `int a[] = {1, 2, 3}`: the array length from the initializer (the highest designated
    /// index counts, C99 6.7.8p22); `char s[] = "ab"` has length 3 (C99 6.7.8p14).
    pub(crate) fn complete_array_from_init(
        &mut self,
        ty: Type,
        init: Option<&Initializer>,
    ) -> Type {
        let init = init.map(|i| string_in_braces(i, &ty).unwrap_or(i));
        if let Type::Array(elem, 0) = &ty {
            match init {
                Some(list @ Initializer::List(items, _)) => {
                    let n = match self.positional(list, &ty) {
                        Some(Initializer::List(p, _)) => p.len(),
                        _ => items.len(),
                    };
                    return Type::Array(elem.clone(), n.max(1) as u32);
                }
                Some(Initializer::Expr(Expr {
                    kind: ExprKind::StringLit(text),
                    ..
                })) if is_char_type(elem) => {
                    return Type::Array(elem.clone(), text.len() as u32 + 1);
                }
                _ => {}
            }
        }
        ty
    }

    /// A braced list with designators rewritten in positional order (C99 6.7.8p17-19): each
    /// designator moves the current position; skipped elements become `{}` (zero); nested
    /// designators (`.a.b = 1`) go into the sub-object's list. `None` when the list has no
    /// designators.
    pub(crate) fn positional(&mut self, init: &Initializer, ty: &Type) -> Option<Initializer> {
        let Initializer::List(items, sp) = init else {
            return None;
        };
        if !items
            .iter()
            .any(|i| matches!(i, Initializer::Designated(..)))
        {
            return None;
        }
        let mut slots: Vec<Option<Initializer>> = Vec::new();
        let mut pos = 0usize;
        // After a designator reaching into a struct sub-object (`.s.x`, or `.x` of an
        // anonymous member), the next positional values go on in that sub-object (C11
        // 6.7.9p17: the designated member's object is the current object): its position
        // and how many members remain after the designated one.
        let mut inside: Option<(usize, usize)> = None;
        for item in items {
            let (idx, value) = match item {
                Initializer::Designated(path, value, dsp) => {
                    let (idx, via_anonymous) = self.designator_index(&path[0], ty)?;
                    let inner = if via_anonymous {
                        path.first()
                    } else {
                        path.get(1)
                    };
                    inside = inner
                        .map(|d| (idx, self.members_after(ty, idx, d)))
                        .filter(|(_, n)| *n > 0);
                    let value = if via_anonymous {
                        // C11 6.7.9p7 with 6.7.2.1p13: `.x` naming a member of an anonymous
                        // member designates it inside that member's list.
                        Initializer::Designated(path.to_vec(), value.clone(), *dsp)
                    } else if path.len() > 1 {
                        Initializer::Designated(path[1..].to_vec(), value.clone(), *dsp)
                    } else {
                        (**value).clone()
                    };
                    (idx, value)
                }
                other => {
                    if let Some((at, left)) = inside {
                        if let Some(Some(Initializer::List(sub, _))) = slots.get_mut(at) {
                            sub.push(other.clone());
                            inside = (left > 1).then(|| (at, left - 1));
                            continue;
                        }
                    }
                    inside = None;
                    (pos, other.clone())
                }
            };
            if idx > 1 << 20 {
                self.error(item.span(), "designated index is too large");
                return None;
            }
            if slots.len() <= idx {
                slots.resize(idx + 1, None);
            }
            let slot = &mut slots[idx];
            match (slot.as_mut(), value) {
                (Some(Initializer::List(sub, _)), v @ Initializer::Designated(..)) => sub.push(v),
                (_, v @ Initializer::Designated(..)) => {
                    let vsp = v.span();
                    *slot = Some(Initializer::List(vec![v], vsp));
                }
                (_, v) => *slot = Some(v),
            }
            pos = idx + 1;
        }
        let items = slots
            .into_iter()
            .map(|s| s.unwrap_or(Initializer::List(Vec::new(), *sp)))
            .collect();
        Some(Initializer::List(items, *sp))
    }

    /// How many members of the struct at position `idx` of `ty` follow the member that `d`
    /// names in it (0 when that is not a struct or `d` is not one of its own members).
    fn members_after(&self, ty: &Type, idx: usize, d: &Designator) -> usize {
        let sub = match ty {
            Type::Record(i) => self
                .records
                .get(*i as usize)
                .and_then(|r| r.fields.get(idx))
                .map(|f| f.1.clone()),
            Type::Array(elem, _) => Some((**elem).clone()),
            _ => None,
        };
        let (Some(Type::Record(r)), Designator::Field(name, _)) = (sub, d) else {
            return 0;
        };
        match self.records.get(r as usize) {
            Some(rec) if !rec.is_union => rec
                .fields
                .iter()
                .position(|(n, _)| n == name)
                .map_or(0, |k| rec.fields.len() - k - 1),
            _ => 0,
        }
    }

    /// The element position a designator selects in an object of type `ty`, and whether it
    /// names a member of the anonymous struct/union member at that position.
    fn designator_index(&mut self, d: &Designator, ty: &Type) -> Option<(usize, bool)> {
        match (d, ty) {
            (Designator::Field(name, sp), Type::Record(i)) => match self.member_path(*i, name) {
                Some(path) => Some((path[0], path.len() > 1)),
                None => {
                    let msg = format!(
                        "field designator '{name}' does not refer to any field in type '{}'",
                        self.type_name(ty)
                    );
                    self.error(*sp, msg);
                    None
                }
            },
            (Designator::Field(_, sp), _) => {
                let msg = format!(
                    "field designator cannot initialize a non-struct, non-union type '{}'",
                    self.type_name(ty)
                );
                self.error(*sp, msg);
                None
            }
            (Designator::Index(e), Type::Array(..) | Type::Vector(..)) => {
                let n = match ty {
                    Type::Array(_, n) => *n as i128,
                    other => other.lanes() as i128,
                };
                let Some(k) = self.const_int(e) else {
                    self.error(e.span, "expression is not an integer constant expression");
                    return None;
                };
                if k < 0 || (n != 0 && k >= n) {
                    self.error(
                        e.span,
                        format!("array designator index ({k}) exceeds array bounds ({n})"),
                    );
                    return None;
                }
                Some((k as usize, false))
            }
            (Designator::Index(e), _) => {
                let msg = format!(
                    "array designator cannot initialize non-array type '{}'",
                    self.type_name(ty)
                );
                self.error(e.span, msg);
                None
            }
        }
    }

    /// The constant `char[n]` holding `text` and its NUL, cut or zero-padded to `n`
    /// (C99 6.7.8p14).
    fn string_array_const(&mut self, text: &str, elem: &Type, n: u32) -> Id {
        let s = elem.scalar().unwrap_or(Scalar::Char);
        let mut parts: Vec<Id> = text
            .as_bytes()
            .iter()
            .map(|&b| self.int_const(s, b as i8 as i128))
            .collect();
        parts.resize(n as usize, self.int_const(s, 0));
        let t = self.spv_type(&Type::Array(Box::new(elem.clone()), n));
        self.b.constant_composite(t, &parts)
    }

    /// `sampler_t s = CLK_…;` (§6.13.14.1): the name stands for an `OpConstantSampler`.
    fn sampler_declaration(
        &mut self,
        name: &str,
        nsp: crate::source::Span,
        init: Option<&Initializer>,
    ) {
        let bits = match init {
            Some(Initializer::Expr(e)) => self.const_int(e),
            _ => None,
        };
        let Some(bits) = bits else {
            self.error(
                nsp,
                "a sampler_t variable must be initialized with a constant sampler value",
            );
            return;
        };
        let id = self.constant_sampler(bits as u32);
        if self.scopes.declared_here(name).is_some() {
            self.error(nsp, format!("redefinition of '{name}'"));
        }
        self.scopes.declare(
            name,
            Symbol::Value {
                id,
                ty: Type::Sampler,
            },
        );
    }

    /// A static local variable: program-scope storage visible in this block only
    /// (OpenCL C 2.0 §6.5.1: in the global or constant address space).
    fn static_local(
        &mut self,
        name: &str,
        nsp: crate::source::Span,
        ty: Type,
        init: Option<&Initializer>,
        space: AddrSpace,
    ) {
        let c = match init {
            Some(i) => match self.const_initializer(i, &ty) {
                Some(c) => c,
                None => return,
            },
            None => {
                let t = self.spv_type(&ty);
                self.b.constant_null(t)
            }
        };
        let pt = self.ptr_ty(space, &ty);
        let var = self.b.variable(pt, storage_class(space), Some(c));
        self.b.name(var, &format!("{}.{}", self.fs.name, name));
        let _ = nsp;
        self.scopes.declare(
            name,
            Symbol::Var {
                ptr: var,
                ty,
                space,
                is_const: false,
            },
        );
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
            let is_typedef = d.spec.storage == Storage::Typedef;
            let Some(ty) = self.ext_vector_typedef(ty, &d.spec, decl, is_typedef) else {
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
            if ty == Type::Sampler {
                self.sampler_declaration(&name, nsp, id.init.as_ref());
                continue;
            }
            if let Type::Block(sig) = &ty {
                self.block_variable(&d.spec, &name, nsp, sig, id.init.as_ref());
                continue;
            }
            // OpenCL C 2.0 §6.13.14, §6.13.16: images and pipes are function parameters only.
            if matches!(ty, Type::Image(_) | Type::Pipe(..)) {
                let msg = format!(
                    "type '{}' can only be used as a function parameter in OpenCL",
                    self.type_name(&ty)
                );
                self.error(nsp, msg);
                continue;
            }
            let space = Self::object_space(&d.spec, decl).unwrap_or(AddrSpace::Private);
            let is_const = Self::object_const(&d.spec, decl);
            // §6.13.11.8 (clang-15): only a global atomic object may be initialized; the
            // variable is still declared (no cascade of undeclared-identifier errors).
            let without_init;
            let id = match (&ty, &id.init) {
                (Type::Atomic(_), Some(init)) if space != AddrSpace::Global => {
                    self.error(init.span(), super::atomic_types::ATOMIC_INIT);
                    without_init = crate::ast::InitDeclarator {
                        declarator: id.declarator.clone(),
                        init: None,
                    };
                    &without_init
                }
                _ => id,
            };
            match space {
                AddrSpace::Local => {
                    if !self.fs.is_kernel {
                        self.error(nsp, "non-kernel function variable cannot be declared in local address space");
                        continue;
                    }
                    // OpenCL C 2.0 §6.8: "static" locals are in global or constant space.
                    if d.spec.storage == Storage::Static {
                        self.error(
                            nsp,
                            "static local variable must reside in global or constant address space",
                        );
                        continue;
                    }
                    // OpenCL C 2.0 §6.5.2: at kernel function scope only.
                    if self.scopes.depth() > self.fs.body_depth {
                        self.error(nsp, "variables in the local address space can only be declared in the outermost scope of a kernel function");
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
                AddrSpace::Global
                    if d.spec.storage == Storage::Static && self.static_globals_allowed() =>
                {
                    self.static_local(&name, nsp, ty, id.init.as_ref(), AddrSpace::Global);
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
                        // OpenCL C 2.0 §6.5.1: static variables in functions live in the
                        // global address space when none is given; 1.2 allows only
                        // `__constant` ones (§6.8).
                        if self.static_globals_allowed() {
                            self.static_local(&name, nsp, ty, id.init.as_ref(), AddrSpace::Global);
                        } else {
                            self.error(
                                nsp,
                                "static local variable must reside in constant address space",
                            );
                        }
                        continue;
                    }
                    let pt = self.ptr_ty(AddrSpace::Private, &ty);
                    let var = self.b.local_variable(pt);
                    self.b.name(var, &name);
                    if d.spec.quals.is_volatile && !ty.is_pointer() {
                        self.volatile_ptrs.insert(var);
                    }
                    // The initializer sees the variable (C99 6.2.1p7) but we declare after
                    // evaluating it, like clang's common case `int x = x;` is an error anyway.
                    if let Some(init) = &id.init {
                        // clang reports an initializer's incompatible type at the declarator.
                        self.declarator_span = Some(nsp);
                        self.store_initializer(var, &ty, init);
                        self.declarator_span = None;
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
    pub(crate) fn store_initializer(&mut self, ptr: Id, ty: &Type, init: &Initializer) {
        let declarator_at = self.declarator_span.take();
        let init = string_in_braces(init, ty).unwrap_or(init);
        let placed = self.positional(init, ty);
        let init = placed.as_ref().unwrap_or(init);
        let elided = self.elide_braces(init, ty);
        let init = elided.as_ref().unwrap_or(init);
        if let Initializer::List(items, _) = init {
            if items.is_empty() {
                // `{}`: zero (also the gaps that designators leave).
                let t = self.spv_type(ty);
                let null = self.b.constant_null(t);
                self.b
                    .inst_no_result(Op::Store, vec![Operand::Id(ptr), Operand::Id(null)]);
                return;
            }
        }
        match init {
            Initializer::Designated(_, _, sp) => {
                self.error(*sp, "designator in initializer for scalar type");
            }
            Initializer::Expr(e) => {
                if let ExprKind::StringLit(text) = &e.kind {
                    if let Type::Array(elem, n) = ty {
                        if !is_char_type(elem) {
                            self.error(e.span, "array initializer must be an initializer list");
                            return;
                        }
                        let c = self.string_array_const(text, elem, *n);
                        self.b
                            .inst_no_result(Op::Store, vec![Operand::Id(ptr), Operand::Id(c)]);
                        return;
                    }
                }
                let Some(v) = self.rvalue(e) else { return };
                let v = if ty.is_pointer() && v.ty.is_integer() && self.const_int(e) == Some(0) {
                    Some(self.null_pointer(ty))
                } else {
                    self.warn_constant_conversion(&v.ty, ty, e);
                    let at = declarator_at.unwrap_or(e.span);
                    self.implicit_convert(v, ty, at, "initializing")
                };
                let Some(v) = v else {
                    return;
                };
                let mut ops = vec![Operand::Id(ptr), Operand::Id(v.id)];
                if self.volatile_ptrs.contains(&ptr) {
                    ops.push(Operand::Int(1)); // MemoryAccess Volatile (SPIR-V 3.26)
                }
                self.b.inst_no_result(Op::Store, ops);
            }
            Initializer::List(items, sp) => {
                let elems: Vec<Type> = match ty {
                    Type::Array(e, n) => vec![(**e).clone(); *n as usize],
                    Type::Vector(s, n) => vec![Type::Scalar(*s); *n as usize],
                    Type::Record(i) => match self.records.get(*i as usize) {
                        // A union initializes one member: the first, or the designated one
                        // (the positional list then ends with it after `{}` gaps).
                        Some(r) if r.is_union => {
                            let k = items.len().saturating_sub(1);
                            let gaps_only = items[..k]
                                .iter()
                                .all(|i| matches!(i, Initializer::List(v, _) if v.is_empty()));
                            match r.fields.get(k) {
                                Some(f) if gaps_only => {
                                    let mut v = vec![Type::Void; k];
                                    v.push(f.1.clone());
                                    v
                                }
                                _ => r
                                    .fields
                                    .first()
                                    .map(|f| vec![f.1.clone()])
                                    .unwrap_or_default(),
                            }
                        }
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
                    if et == Type::Void {
                        continue; // a union's skipped members
                    }
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
            Initializer::List(..) | Initializer::Designated(..) => false,
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
        self.warn_constant_conversion(&v.ty, to, e);
        self.implicit_convert(v, to, e.span, what)
    }

    /// clang's -Wconstant-conversion: an integer constant that does not fit the integer type
    /// it is converted to in either signedness (C99 6.3.1.3: its value changes).
    fn warn_constant_conversion(&mut self, from: &Type, to: &Type, e: &Expr) {
        let (Type::Scalar(f), Type::Scalar(t)) = (from, to) else {
            return;
        };
        if !f.is_integer() || !t.is_integer() || *t == Scalar::Bool || t.bits() >= 64 {
            return;
        }
        let Some(n) = self.const_int(e) else { return };
        let bits = t.bits();
        let half = 1i128 << (bits - 1);
        let fits = if t.is_signed() {
            // A same-width unsigned source only changes sign (not this warning).
            (-half..half).contains(&n) || (!f.is_signed() && f.bits() == bits)
        } else {
            (-half..2 * half).contains(&n)
        };
        if fits {
            return;
        }
        let mut new = n & ((1i128 << bits) - 1);
        if t.is_signed() && new >= half {
            new -= 1i128 << bits;
        }
        // clang spells OpenCL's unsigned typedefs with what they stand for.
        let spell = |s: &Scalar| {
            let name = self.type_name(&Type::Scalar(*s));
            match s {
                Scalar::UChar | Scalar::UShort | Scalar::UInt | Scalar::ULong => {
                    format!("'{name}' (aka 'unsigned {}')", &name[1..])
                }
                _ => format!("'{name}'"),
            }
        };
        let msg = format!(
            "implicit conversion from {} to {} changes value from {n} to {new}",
            spell(f),
            spell(t)
        );
        self.warning(e.span, msg);
    }

    /// A constant initializer (program-scope and `__constant` variables) of type `ty`.
    pub fn const_initializer(&mut self, init: &Initializer, ty: &Type) -> Option<Id> {
        let init = string_in_braces(init, ty).unwrap_or(init);
        let placed = self.positional(init, ty);
        let init = placed.as_ref().unwrap_or(init);
        let elided = self.elide_braces(init, ty);
        let init = elided.as_ref().unwrap_or(init);
        match (init, ty) {
            (Initializer::List(items, _), _) if items.is_empty() => {
                let t = self.spv_type(ty);
                Some(self.b.constant_null(t))
            }
            (Initializer::Designated(_, _, sp), _) => {
                self.error(*sp, "designator in initializer for scalar type");
                None
            }
            (
                Initializer::Expr(Expr {
                    kind: ExprKind::StringLit(text),
                    ..
                }),
                Type::Array(elem, n),
            ) if is_char_type(elem) => Some(self.string_array_const(text, elem, *n)),
            (Initializer::List(_, _), Type::Record(i))
                if self.records.get(*i as usize).is_some_and(|r| r.is_union) =>
            {
                self.const_union(init, ty)
            }
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
            (Initializer::Expr(e), _) if matches!(e.kind, ExprKind::StmtExpr(_)) => {
                self.error(e.span, "statement expression not allowed at file scope");
                None
            }
            (Initializer::Expr(e), Type::Vector(s, n)) => {
                // (float4)(1, 2, 3, 4) or a scalar splat.
                let comps = self.const_vector(e, *s, *n)?;
                let t = self.spv_type(ty);
                Some(self.b.constant_composite(t, &comps))
            }
            (Initializer::Expr(e), Type::Scalar(s) | Type::Atomic(s)) => {
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

    /// A constant union: the chosen member's value laid out in the union's bytes
    /// (the union is `struct { uchar[size] }`, little-endian like the devices we target).
    fn const_union(&mut self, init: &Initializer, ty: &Type) -> Option<Id> {
        let (size, _) = self.size_align(ty);
        let mut bytes = vec![0u8; size as usize];
        self.const_bytes(init, ty, &mut bytes, 0)?;
        let parts: Vec<Id> = bytes
            .iter()
            .map(|&b| self.int_const(Scalar::UChar, b as i128))
            .collect();
        let u8t = self.scalar_ty(Scalar::UChar);
        let u32t = self.scalar_ty(Scalar::UInt);
        let len = self.b.constant_u32(u32t, size.max(1) as u32);
        let arr_t = self.b.type_array(u8t, len);
        let arr = self.b.constant_composite(arr_t, &parts);
        let t = self.spv_type(ty);
        Some(self.b.constant_composite(t, &[arr]))
    }

    /// Writes the bytes of a constant initializer of type `ty` at `at` in `out`.
    fn const_bytes(
        &mut self,
        init: &Initializer,
        ty: &Type,
        out: &mut [u8],
        at: usize,
    ) -> Option<()> {
        let placed = self.positional(init, ty);
        let init = placed.as_ref().unwrap_or(init);
        let elided = self.elide_braces(init, ty);
        let init = elided.as_ref().unwrap_or(init);
        let pb = self.pointer_bits() / 8;
        match (init, ty) {
            (Initializer::List(items, _), _) if items.is_empty() => Some(()),
            (Initializer::List(items, sp), Type::Array(elem, n)) => {
                if items.len() > *n as usize {
                    self.error(*sp, "excess elements in array initializer");
                    return None;
                }
                let (es, _) = self.size_align(elem);
                for (k, it) in items.iter().enumerate() {
                    self.const_bytes(it, elem, out, at + k * es as usize)?;
                }
                Some(())
            }
            (Initializer::List(items, sp), Type::Record(i)) => {
                let rec = self.records.get(*i as usize).cloned()?;
                let offs = crate::sema::types::field_offsets(&rec, &self.records, pb);
                if rec.is_union {
                    let k = items.len().saturating_sub(1);
                    let ft = rec.fields.get(k)?.1.clone();
                    return self.const_bytes(&items[k], &ft, out, at);
                }
                if items.len() > rec.fields.len() {
                    self.error(*sp, "excess elements in struct initializer");
                    return None;
                }
                for (k, it) in items.iter().enumerate() {
                    let ft = rec.fields[k].1.clone();
                    self.const_bytes(it, &ft, out, at + offs[k] as usize)?;
                }
                Some(())
            }
            (Initializer::List(items, sp), Type::Vector(s, n)) => {
                if items.len() > *n as usize {
                    self.error(*sp, "excess elements in vector initializer");
                    return None;
                }
                for (k, it) in items.iter().enumerate() {
                    self.const_bytes(it, &Type::Scalar(*s), out, at + k * s.size() as usize)?;
                }
                Some(())
            }
            (Initializer::List(items, sp), _) => match items.as_slice() {
                [one] => self.const_bytes(one, ty, out, at),
                _ => {
                    self.error(*sp, "excess elements in scalar initializer");
                    None
                }
            },
            (Initializer::Expr(e), Type::Scalar(s)) => {
                let Some(n) = self.const_number(e) else {
                    self.error(e.span, "initializer element is not a compile-time constant");
                    return None;
                };
                let bits: u64 = match (n, s) {
                    (n, Scalar::Float) => (as_f64(n) as f32).to_bits() as u64,
                    (n, Scalar::Double) => as_f64(n).to_bits(),
                    (n, Scalar::Half) => half::f16::from_f64(as_f64(n)).to_bits() as u64,
                    (Num::Int(i), _) => i as u64,
                    (Num::Float(f), _) => f as i64 as u64,
                };
                let size = s.size() as usize;
                let dst = out.get_mut(at..at + size)?;
                dst.copy_from_slice(&bits.to_le_bytes()[..size]);
                Some(())
            }
            (Initializer::Expr(e), Type::Pointer(_)) if self.const_int(e) == Some(0) => Some(()),
            (Initializer::Expr(e), _) => {
                self.error(
                    e.span,
                    "this constant union initializer is not supported yet",
                );
                None
            }
            (Initializer::Designated(_, _, sp), _) => {
                self.error(*sp, "designator in initializer for scalar type");
                None
            }
        }
    }

    /// Static variables in functions may live in the global address space: OpenCL C 2.0, or
    /// 3.0 with `__opencl_c_program_scope_global_variables`.
    fn static_globals_allowed(&self) -> bool {
        self.opts.cl_version == 200
            || (self.opts.cl_version >= 300
                && self
                    .target
                    .features
                    .iter()
                    .any(|f| f == "__opencl_c_program_scope_global_variables"))
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
            // `INFINITY` and `HUGE_VALF` in a program-scope initializer.
            ExprKind::Call(callee, args)
                if args.is_empty()
                    && matches!(&callee.kind, ExprKind::Ident(n)
                        if super::call::builtin_infinity(n).is_some()) =>
            {
                Num::Float(f64::INFINITY)
            }
            ExprKind::Binary(op, a, b, _) => {
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

/// `char`/`uchar`: the element types a string literal may initialize (C99 6.7.8p14).
/// C99 6.7.8p14: a character array may be initialized by a string literal "optionally
/// enclosed in braces": `char s[4] = {"abc"}` is `char s[4] = "abc"`.
fn string_in_braces<'i>(init: &'i Initializer, ty: &Type) -> Option<&'i Initializer> {
    match (init, ty) {
        (Initializer::List(items, _), Type::Array(elem, _)) if is_char_type(elem) => {
            match items.as_slice() {
                [one @ Initializer::Expr(Expr {
                    kind: ExprKind::StringLit(_),
                    ..
                })] => Some(one),
                _ => None,
            }
        }
        _ => None,
    }
}

fn is_char_type(t: &Type) -> bool {
    matches!(t, Type::Scalar(Scalar::Char | Scalar::UChar))
}

fn as_f64(n: Num) -> f64 {
    match n {
        Num::Int(i) => i as f64,
        Num::Float(f) => f,
    }
}

impl<'a> Emitter<'a> {
    /// `ret (^name)(params) = <Block>;` in a function (§1.12.2): bound to the literal.
    fn block_variable(
        &mut self,
        spec: &crate::ast::DeclSpec,
        name: &str,
        nsp: crate::source::Span,
        sig: &crate::sema::types::BlockSig,
        init: Option<&Initializer>,
    ) {
        // §1.12.5: Block variables are not extern. §1.12.3: a literal "may be used as the
        // initialization value for Block variables at global or local static scope": a
        // static one is bound like an automatic one.
        if spec.storage == Storage::Extern {
            self.error(
                nsp,
                "invalid block variable declaration - using 'extern' storage class is disallowed",
            );
            return;
        }
        // §1.12.5: "all block variables must be initialized at declaration time".
        let Some(init) = init else {
            self.error(
                nsp,
                "invalid block variable declaration - must be initialized",
            );
            return;
        };
        let Initializer::Expr(e) = init else {
            self.error(
                init.span(),
                "a Block variable must be initialized with a Block",
            );
            return;
        };
        let Some(v) = self.rvalue(e) else {
            // Diagnosed: uses of the variable are not "undeclared" too.
            self.recovered_names.insert(name.to_string());
            return;
        };
        self.bind_block_variable(name, sig, v, e);
    }

    /// `ret (^name)(params) = <Block>;` at program scope (§1.12.3: "You can also declare a
    /// Block as a global literal in program scope"; §1.12.5: not `extern`, initialized at its
    /// declaration, implicitly const): bound to a program-scope literal, or to the literal of
    /// another program-scope Block variable.
    fn global_block_variable(
        &mut self,
        spec: &crate::ast::DeclSpec,
        name: &str,
        nsp: crate::source::Span,
        sig: &crate::sema::types::BlockSig,
        init: Option<&Initializer>,
    ) {
        if spec.storage == Storage::Extern {
            self.error(
                nsp,
                "invalid block variable declaration - using 'extern' storage class is disallowed",
            );
            return;
        }
        let Some(init) = init else {
            self.error(
                nsp,
                "invalid block variable declaration - must be initialized",
            );
            return;
        };
        let Initializer::Expr(e) = init else {
            self.error(
                init.span(),
                "a Block variable must be initialized with a Block",
            );
            return;
        };
        if self.scopes.declared_here(name).is_some() {
            self.error(nsp, format!("redefinition of '{name}'"));
            return;
        }
        // The literal's invoke function is named after the variable (as clang does).
        self.fs.block_owner = name.to_string();
        self.fs.global_block_ret = Some(sig.ret.clone());
        let v = self.rvalue(e);
        self.fs.block_owner.clear();
        self.fs.global_block_ret = None;
        let Some(v) = v else {
            self.recovered_names.insert(name.to_string());
            return;
        };
        self.bind_block_variable(name, sig, v, e);
    }

    /// Declares Block variable `name` as the Block value `v` (of the same signature).
    fn bind_block_variable(
        &mut self,
        name: &str,
        sig: &crate::sema::types::BlockSig,
        v: Val,
        e: &Expr,
    ) {
        match &v.ty {
            Type::Block(got) if got.same_signature(sig) && got.literal.is_some() => {
                self.scopes
                    .declare(name, Symbol::Value { id: v.id, ty: v.ty });
            }
            Type::Block(got) if got.same_signature(sig) => {
                self.recovered_names.insert(name.to_string());
                self.error(
                    e.span,
                    "a Block variable must be initialized with a Block literal or Block variable (Blocks must be statically determinable, OpenCL C 2.0 §1.12.5)",
                );
            }
            other => {
                self.recovered_names.insert(name.to_string());
                let msg = format!(
                    "initializing '{}' with an expression of incompatible type '{}'",
                    self.type_name(&Type::Block(Box::new(sig.clone()))),
                    self.type_name(other)
                );
                self.error(e.span, msg);
            }
        }
    }
}
