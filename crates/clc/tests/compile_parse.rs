//! Parser shapes, checked against hand-written expectations of C's grammar (C99 6.5, 6.7.5).

use clc::ast::*;
use clc::diag::Diagnostics;
use clc::source::SourceMap;

fn parse(src: &str) -> (TranslationUnit, Diagnostics) {
    let mut sm = SourceMap::new();
    let f = sm.add_file("p.cl".into(), src.into());
    let mut d = Diagnostics::new();
    let toks = clc::lex::lex(f, src, &mut d);
    let tu = clc::parse::parse(&toks, &mut d);
    (tu, d)
}

fn first_decl(src: &str) -> Declaration {
    let (tu, d) = parse(src);
    assert!(!d.has_errors(), "{:?}", d);
    match tu.items.into_iter().next() {
        Some(ExternalDecl::Declaration(d)) => d,
        other => panic!("not a declaration: {other:?}"),
    }
}

/// The body statements of the first function.
fn body(src: &str) -> Vec<Stmt> {
    let (tu, d) = parse(src);
    assert!(!d.has_errors(), "{:?}", d);
    for it in tu.items {
        if let ExternalDecl::Function(f) = it {
            if let StmtKind::Compound(items) = f.body.kind {
                return items;
            }
        }
    }
    panic!("no function");
}

fn expr_of(stmt: &Stmt) -> &Expr {
    match &stmt.kind {
        StmtKind::Expr(Some(e)) => e,
        other => panic!("not an expression statement: {other:?}"),
    }
}

#[test]
fn array_of_pointers_vs_pointer_to_array() {
    let d = first_decl("int *a[3];");
    let derived = &d.declarators[0].declarator.derived;
    assert!(matches!(
        derived.as_slice(),
        [Derived::Array(Some(_)), Derived::Pointer { .. }]
    ));
    let d = first_decl("int (*b)[3];");
    let derived = &d.declarators[0].declarator.derived;
    assert!(matches!(
        derived.as_slice(),
        [Derived::Pointer { .. }, Derived::Array(Some(_))]
    ));
}

#[test]
fn qualifiers_and_address_spaces() {
    let d = first_decl("__constant float * const restrict p = 0;");
    assert_eq!(d.spec.addr, Some(AddrSpace::Constant));
    assert_eq!(d.spec.ty, TypeSpec::Scalar(ScalarName::Float));
    match &d.declarators[0].declarator.derived[..] {
        [Derived::Pointer { quals, addr: None }] => {
            assert!(quals.is_const && quals.is_restrict);
        }
        other => panic!("{other:?}"),
    }
    let d = first_decl("unsigned long x; ");
    assert_eq!(d.spec.ty, TypeSpec::Scalar(ScalarName::ULong));
    let d = first_decl("unsigned y;");
    assert_eq!(d.spec.ty, TypeSpec::Scalar(ScalarName::UInt));
    let d = first_decl("uchar16 v;");
    assert_eq!(d.spec.ty, TypeSpec::Vector(ScalarName::UChar, 16));
}

#[test]
fn precedence_and_associativity() {
    let b = body("void f() { a = b + c * d - e; }");
    // a = ((b + (c * d)) - e)
    let ExprKind::Assign(None, _, rhs, _) = &expr_of(&b[0]).kind else {
        panic!()
    };
    let ExprKind::Binary(BinOp::Sub, l, _, _) = &rhs.kind else {
        panic!("{rhs:?}")
    };
    let ExprKind::Binary(BinOp::Add, _, m, _) = &l.kind else {
        panic!()
    };
    assert!(matches!(m.kind, ExprKind::Binary(BinOp::Mul, _, _, _)));
    let b = body("void f() { x = a < b == c && d | e ^ f & g; }");
    let ExprKind::Assign(None, _, rhs, _) = &expr_of(&b[0]).kind else {
        panic!()
    };
    let ExprKind::Binary(BinOp::LogAnd, eq, or, _) = &rhs.kind else {
        panic!()
    };
    assert!(matches!(eq.kind, ExprKind::Binary(BinOp::Eq, _, _, _)));
    let ExprKind::Binary(BinOp::BitOr, _, xor, _) = &or.kind else {
        panic!()
    };
    let ExprKind::Binary(BinOp::BitXor, _, and, _) = &xor.kind else {
        panic!()
    };
    assert!(matches!(and.kind, ExprKind::Binary(BinOp::BitAnd, _, _, _)));
    // Assignment is right-associative, ?: too.
    let b = body("void f() { a = b = c ? d : e ? f : g; }");
    let ExprKind::Assign(None, _, r, _) = &expr_of(&b[0]).kind else {
        panic!()
    };
    let ExprKind::Assign(None, _, c, _) = &r.kind else {
        panic!()
    };
    let ExprKind::Cond(_, _, other) = &c.kind else {
        panic!()
    };
    assert!(matches!(other.kind, ExprKind::Cond(..)));
}

#[test]
fn casts_vector_literals_and_postfix() {
    let b =
        body("void f() { v = (float4)(1.0f, 2.0f, x.xy); w = (int)y.s0++; z = (float2)(3.0f).x; }");
    let ExprKind::Assign(None, _, r, _) = &expr_of(&b[0]).kind else {
        panic!()
    };
    let ExprKind::VectorLit(_, elems) = &r.kind else {
        panic!("{r:?}")
    };
    assert_eq!(elems.len(), 3);
    assert!(matches!(elems[2].kind, ExprKind::Member { ref name, .. } if name == "xy"));
    let ExprKind::Assign(None, _, r, _) = &expr_of(&b[1]).kind else {
        panic!()
    };
    let ExprKind::Cast(_, inner) = &r.kind else {
        panic!()
    };
    assert!(matches!(inner.kind, ExprKind::Unary(UnaryOp::PostInc, _)));
    // `(float2)(3.0f).x` is a member access on the vector literal.
    let ExprKind::Assign(None, _, r, _) = &expr_of(&b[2]).kind else {
        panic!()
    };
    assert!(matches!(r.kind, ExprKind::Member { ref name, .. } if name == "x"));
}

#[test]
fn typedef_names_start_declarations() {
    let b = body("typedef int T; void f() { T x; T * y; x * y; }");
    assert!(matches!(b[0].kind, StmtKind::Decl(_)));
    assert!(matches!(b[1].kind, StmtKind::Decl(_)));
    assert!(matches!(b[2].kind, StmtKind::Expr(Some(_))));
}

#[test]
fn statements() {
    let b = body(
        "void f() { if (a) b; else c; for (int i = 0; i < 3; i++) ; while (x) break; do { } while (y); \
         switch (z) { case 1: d; default: e; } L: goto L; return; }",
    );
    assert!(matches!(b[0].kind, StmtKind::If(_, _, Some(_))));
    assert!(matches!(
        b[1].kind,
        StmtKind::For(Some(_), Some(_), Some(_), _)
    ));
    assert!(matches!(b[2].kind, StmtKind::While(..)));
    assert!(matches!(b[3].kind, StmtKind::DoWhile(..)));
    assert!(matches!(b[4].kind, StmtKind::Switch(..)));
    assert!(matches!(b[5].kind, StmtKind::Label(..)));
    assert!(matches!(b[6].kind, StmtKind::Return(None)));
}

#[test]
fn kernel_attributes() {
    let (tu, d) =
        parse("__kernel __attribute__((reqd_work_group_size(8,1,1))) void k(__global int *p) {}");
    assert!(!d.has_errors());
    let Some(ExternalDecl::Function(f)) = tu.items.first() else {
        panic!()
    };
    assert!(f.spec.is_kernel);
    assert_eq!(f.spec.attrs[0].name, "reqd_work_group_size");
    assert_eq!(f.spec.attrs[0].args.len(), 3);
}

#[test]
fn errors_recover_per_statement() {
    let (tu, d) = parse("void f() { int = 3; x = ; y = 1; } void g() { }");
    assert_eq!(d.errors_count(), 2);
    assert_eq!(tu.items.len(), 2);
}
