//! C11 and GNU constructs that clang-15 accepts in OpenCL C: `_Static_assert` (C11 6.7.10),
//! statement expressions `({ … })`, the `a ?: b` shorthand (GNU C "Conditionals with Omitted
//! Operands"); case ranges are in `stmt.rs`.
//!
//! A failed static assertion is worded as clang's: the requirement is the condition printed
//! back (after macro expansion) unless it is a plain literal.

use spv::{Op, Operand};

use super::{Emitter, Val};
use crate::ast::{Expr, ExprKind, StaticAssert, Stmt, StmtKind, TypeName, TypeSpec, UnaryOp};
use crate::sema::Type;
use crate::source::Span;

impl<'a> Emitter<'a> {
    /// Checks `_Static_assert(cond, "message")` (C11 6.7.10p2: the constant expression must
    /// compare unequal to 0).
    pub fn static_assert(&mut self, a: &StaticAssert) {
        let Some(v) = self.const_int(&a.cond) else {
            self.error(
                a.cond.span,
                "static assertion expression is not an integral constant expression",
            );
            return;
        };
        if v != 0 {
            return;
        }
        let requirement = match &a.cond.kind {
            ExprKind::IntLit { .. } | ExprKind::CharLit(_) => None,
            ExprKind::Ident(n) if n == "true" || n == "false" => None,
            _ => Some(self.spell_expr(&a.cond)),
        };
        let msg = match (requirement, &a.message) {
            (Some(r), Some(m)) => format!("static assertion failed due to requirement '{r}': {m}"),
            (Some(r), None) => format!("static assertion failed due to requirement '{r}'"),
            (None, Some(m)) => format!("static assertion failed: {m}"),
            (None, None) => "static assertion failed".to_string(),
        };
        self.error(a.span, msg);
    }

    /// `({ stmt…; expr; })`: runs the statements in their own scope; the value is the last
    /// expression statement's (void when the last item is not an expression).
    pub fn statement_expression(&mut self, body: &Stmt, span: Span) -> Option<Val> {
        if self.b.current_function().is_none() {
            self.error(span, "statement expression not allowed at file scope");
            return None;
        }
        let StmtKind::Compound(items) = &body.kind else {
            return None;
        };
        self.scopes.push();
        let mut result = Some(self.void_val());
        for (k, item) in items.iter().enumerate() {
            match &item.kind {
                StmtKind::Expr(Some(e)) if k + 1 == items.len() => {
                    self.ensure_open_block();
                    result = self.rvalue_or_void(e);
                }
                _ => self.stmt(item),
            }
        }
        self.scopes.pop();
        result
    }

    fn void_val(&mut self) -> Val {
        Val {
            id: self.b.id(),
            ty: Type::Void,
        }
    }

    /// GNU `a ?: b`: `a` (evaluated once) when it is nonzero, else `b`; typed as `a ? a : b`.
    pub fn cond_omitted(&mut self, a: &Expr, b: &Expr, span: Span) -> Option<Val> {
        let va = self.rvalue(a)?;
        if let Type::Vector(cs, n) = va.ty.clone() {
            // As `a ? a : b` on vectors (§6.3.i): each component of `a` whose most significant
            // bit is set, else `b`'s (clang's lowering of the shorthand).
            if cs.is_float() {
                self.error(a.span, "vector condition type must be an integer vector");
                return None;
            }
            let bv = self.rvalue(b)?;
            let (x, y, ty) = self.arith_operands(va.clone(), bv, span, crate::ast::BinOp::Add)?;
            if ty.lanes() != n || ty.elem().map(|s| s.bits()) != Some(cs.bits()) {
                let msg = format!("vector condition type '{}' and result type '{}' do not have elements of the same size", self.type_name(&va.ty), self.type_name(&ty));
                self.error(span, msg);
                return None;
            }
            let bt = self.bool_ty(n);
            let z = self.splat_const(&va.ty, 0.0);
            let msb = self.inst(Op::SLessThan, bt, vec![Operand::Id(va.id), Operand::Id(z)]);
            let t = self.spv_type(&ty);
            let id = self.inst(
                Op::Select,
                t,
                vec![Operand::Id(msb), Operand::Id(x), Operand::Id(y)],
            );
            return Some(Val { id, ty });
        }
        let cb = self.as_bool(&va, a.span)?;
        let Some(tb) = self.probe_type(b) else {
            let _ = self.rvalue_or_void(b);
            return None;
        };
        let rt = self.cond_result_type(&va.ty, &tb, a, b, span)?;
        if rt == Type::Void {
            self.error(span, "a void operand of '?:' is not supported here");
            return None;
        }
        let a_conv = if rt.is_pointer() && va.ty.is_integer() && self.const_int(a) == Some(0) {
            self.null_pointer(&rt).id
        } else {
            self.implicit_convert(va, &rt, a.span, "converting to")?.id
        };
        let a_end = self.b.current_block()?;
        let fl = self.b.id();
        let end = self.b.id();
        self.branch_cond(cb, end, fl);
        self.begin_block(fl);
        let vb = self.cond_arm(b, &rt);
        let b_end = self.b.current_block();
        self.branch(end);
        self.begin_block(end);
        let (vb, b_end) = (vb?, b_end?);
        let t = self.spv_type(&rt);
        let id = self.inst(
            Op::Phi,
            t,
            vec![
                Operand::Id(a_conv),
                Operand::Id(a_end),
                Operand::Id(vb),
                Operand::Id(b_end),
            ],
        );
        Some(Val { id, ty: rt })
    }

    /// An expression printed back as clang prints it in a diagnostic (binary operators
    /// spaced, types as written).
    pub fn spell_expr(&self, e: &Expr) -> String {
        match &e.kind {
            ExprKind::IntLit {
                value,
                unsigned,
                long,
                ..
            } => format!(
                "{value}{}{}",
                if *unsigned { "U" } else { "" },
                if *long { "L" } else { "" }
            ),
            ExprKind::FloatLit { value, .. } => format!("{value}"),
            ExprKind::CharLit(v) => format!("{v}"),
            ExprKind::StringLit(s) => format!("\"{s}\""),
            ExprKind::Ident(n) => n.clone(),
            ExprKind::Unary(op, a) => {
                let x = self.spell_expr(a);
                match op {
                    UnaryOp::Plus => format!("+{x}"),
                    UnaryOp::Neg => format!("-{x}"),
                    UnaryOp::Not => format!("!{x}"),
                    UnaryOp::BitNot => format!("~{x}"),
                    UnaryOp::Deref => format!("*{x}"),
                    UnaryOp::AddrOf => format!("&{x}"),
                    UnaryOp::PreInc => format!("++{x}"),
                    UnaryOp::PreDec => format!("--{x}"),
                    UnaryOp::PostInc => format!("{x}++"),
                    UnaryOp::PostDec => format!("{x}--"),
                }
            }
            ExprKind::Binary(op, a, b, _) => format!(
                "{} {} {}",
                self.spell_expr(a),
                op.symbol(),
                self.spell_expr(b)
            ),
            ExprKind::Cond(c, a, b) => format!(
                "{} ? {} : {}",
                self.spell_expr(c),
                self.spell_expr(a),
                self.spell_expr(b)
            ),
            ExprKind::CondOmitted(a, b) => {
                format!("{} ?: {}", self.spell_expr(a), self.spell_expr(b))
            }
            ExprKind::Call(f, args) => format!(
                "{}({})",
                self.spell_expr(f),
                args.iter()
                    .map(|a| self.spell_expr(a))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            ExprKind::Cast(t, a) => format!("({}){}", self.spell_type_name(t), self.spell_expr(a)),
            ExprKind::SizeofType(t) => format!("sizeof({})", self.spell_type_name(t)),
            ExprKind::AlignofType(t) => format!("_Alignof({})", self.spell_type_name(t)),
            ExprKind::VecStepType(t) => format!("vec_step({})", self.spell_type_name(t)),
            ExprKind::SizeofExpr(a) => format!("sizeof ({})", self.spell_expr(a)),
            ExprKind::Member {
                base, name, arrow, ..
            } => format!(
                "{}{}{name}",
                self.spell_expr(base),
                if *arrow { "->" } else { "." }
            ),
            ExprKind::Index(a, i) => format!("{}[{}]", self.spell_expr(a), self.spell_expr(i)),
            _ => "<expression>".to_string(),
        }
    }

    /// A type name as clang prints it: a vector type as its element type with
    /// `ext_vector_type` (how opencl-c-base.h defines it).
    fn spell_type_name(&self, t: &TypeName) -> String {
        let base = match &t.spec.ty {
            TypeSpec::Vector(s, n) => format!(
                "{} __attribute__((ext_vector_type({n})))",
                crate::sema::Scalar::from_name(*s).name()
            ),
            TypeSpec::Scalar(s) => crate::sema::Scalar::from_name(*s).name().to_string(),
            TypeSpec::Named(n) => n.clone(),
            TypeSpec::Void => "void".to_string(),
            TypeSpec::Struct(r) => format!(
                "{} {}",
                if r.is_union { "union" } else { "struct" },
                r.tag.clone().unwrap_or_default()
            ),
            TypeSpec::Enum(e) => format!("enum {}", e.tag.clone().unwrap_or_default()),
        };
        let stars = t
            .declarator
            .derived
            .iter()
            .filter(|d| matches!(d, crate::ast::Derived::Pointer { .. }))
            .count();
        if stars > 0 {
            format!("{base} {}", "*".repeat(stars))
        } else {
            base
        }
    }
}

impl<'a> Emitter<'a> {
    /// `typedef T name __attribute__((ext_vector_type(N)));` (clang's vector extension, the
    /// way opencl-c-base.h defines `float4` and the others): the typedef names the OpenCL
    /// vector of `N` `T`s. Other declarations with the attribute are errors, as in clang.
    pub fn ext_vector_typedef(
        &mut self,
        ty: Type,
        spec: &crate::ast::DeclSpec,
        decl: &crate::ast::Declarator,
        is_typedef: bool,
    ) -> Option<Type> {
        let Some(attr) = spec
            .attrs
            .iter()
            .chain(decl.attrs.iter())
            .find(|a| a.name == "ext_vector_type")
        else {
            return Some(ty);
        };
        if !is_typedef {
            self.error(
                attr.span,
                "'ext_vector_type' attribute only applies to typedefs",
            );
            return None;
        }
        let [crate::ast::AttrArg::Expr(n_expr)] = attr.args.as_slice() else {
            self.error(attr.span, "'ext_vector_type' attribute takes one argument");
            return None;
        };
        let Some(n) = self.const_int(n_expr) else {
            self.error(
                n_expr.span,
                "'ext_vector_type' attribute requires an integer constant",
            );
            return None;
        };
        let elem = match &ty {
            Type::Scalar(s) if *s != crate::sema::Scalar::Bool => *s,
            _ => {
                let mut msg = format!("invalid vector element type '{}'", self.type_name(&ty));
                if let Type::Vector(e, n) = &ty {
                    msg.push_str(&format!(" (vector of {n} '{}' values)", e.name()));
                }
                self.error(attr.span, msg);
                return None;
            }
        };
        if n == 0 {
            self.error(attr.span, "zero vector size");
            return None;
        }
        // OpenCL C 2.0 §6.1.2: vectors have 2, 3, 4, 8 or 16 components.
        if ![2, 3, 4, 8, 16].contains(&n) {
            let msg = format!(
                "a vector of {n} components is not supported (OpenCL vectors have 2, 3, 4, 8 or 16)"
            );
            self.error(n_expr.span, msg);
            return None;
        }
        Some(Type::Vector(elem, n as u8))
    }
}
