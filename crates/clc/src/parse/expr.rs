//! Expressions (C99 6.5) by precedence climbing, plus OpenCL vector literals
//! `(float4)(a, b)` (OpenCL C 2.0 §6.1.6) and `vec_step`.

use super::lit::{parse_char_literal, parse_number, unescape, NumberLit};
use super::{PResult, Parser};
use crate::ast::*;
use crate::lex::TokenKind;
use crate::source::Span;

/// Longest chain of binary operators at one level (`a + b + c …`): the tree is that deep.
const MAX_CHAIN: u32 = 10_000;

fn binop_of(text: &str) -> Option<(BinOp, u8)> {
    Some(match text {
        "*" => (BinOp::Mul, 10),
        "/" => (BinOp::Div, 10),
        "%" => (BinOp::Rem, 10),
        "+" => (BinOp::Add, 9),
        "-" => (BinOp::Sub, 9),
        "<<" => (BinOp::Shl, 8),
        ">>" => (BinOp::Shr, 8),
        "<" => (BinOp::Lt, 7),
        ">" => (BinOp::Gt, 7),
        "<=" => (BinOp::Le, 7),
        ">=" => (BinOp::Ge, 7),
        "==" => (BinOp::Eq, 6),
        "!=" => (BinOp::Ne, 6),
        "&" => (BinOp::BitAnd, 5),
        "^" => (BinOp::BitXor, 4),
        "|" => (BinOp::BitOr, 3),
        "&&" => (BinOp::LogAnd, 2),
        "||" => (BinOp::LogOr, 1),
        _ => return None,
    })
}

fn assign_op_of(text: &str) -> Option<Option<BinOp>> {
    Some(match text {
        "=" => None,
        "*=" => Some(BinOp::Mul),
        "/=" => Some(BinOp::Div),
        "%=" => Some(BinOp::Rem),
        "+=" => Some(BinOp::Add),
        "-=" => Some(BinOp::Sub),
        "<<=" => Some(BinOp::Shl),
        ">>=" => Some(BinOp::Shr),
        "&=" => Some(BinOp::BitAnd),
        "^=" => Some(BinOp::BitXor),
        "|=" => Some(BinOp::BitOr),
        _ => return None,
    })
}

fn mk(kind: ExprKind, span: Span) -> Expr {
    Expr { kind, span }
}

impl<'a> Parser<'a> {
    /// expression: assignment-expression (',' assignment-expression)*
    pub(crate) fn expr(&mut self) -> PResult<Expr> {
        let mut e = self.assignment_expr()?;
        while self.eat_punct(",") {
            let r = self.assignment_expr()?;
            let sp = e.span.to(r.span);
            e = mk(ExprKind::Comma(Box::new(e), Box::new(r)), sp);
        }
        Ok(e)
    }

    pub(crate) fn assignment_expr(&mut self) -> PResult<Expr> {
        self.enter()?;
        let r = self.assignment_expr_inner();
        self.leave();
        r
    }

    fn assignment_expr_inner(&mut self) -> PResult<Expr> {
        let lhs = self.conditional_expr()?;
        if let Some(t) = self.peek_at(0) {
            if matches!(t.kind, TokenKind::Punct(_)) {
                if let Some(op) = assign_op_of(&t.text) {
                    let op_span = t.span;
                    self.bump();
                    let rhs = self.assignment_expr()?;
                    let sp = lhs.span.to(rhs.span);
                    return Ok(mk(
                        ExprKind::Assign(op, Box::new(lhs), Box::new(rhs), op_span),
                        sp,
                    ));
                }
            }
        }
        Ok(lhs)
    }

    pub(crate) fn conditional_expr(&mut self) -> PResult<Expr> {
        let cond = self.binary_expr(1)?;
        if self.eat_punct("?") {
            if self.eat_punct(":") {
                // GNU `a ?: b`.
                self.enter()?;
                let b = self.conditional_expr();
                self.leave();
                let b = b?;
                let sp = cond.span.to(b.span);
                return Ok(mk(ExprKind::CondOmitted(Box::new(cond), Box::new(b)), sp));
            }
            self.enter()?;
            let r = (|| {
                let a = self.expr()?;
                self.expect_punct(":")?;
                let b = self.conditional_expr()?;
                Ok((a, b))
            })();
            self.leave();
            let (a, b) = r?;
            let sp = cond.span.to(b.span);
            return Ok(mk(
                ExprKind::Cond(Box::new(cond), Box::new(a), Box::new(b)),
                sp,
            ));
        }
        Ok(cond)
    }

    fn binary_expr(&mut self, min_prec: u8) -> PResult<Expr> {
        let mut lhs = self.cast_expr()?;
        // A long left-associative chain builds a deep tree: bound it like nesting.
        let mut chain = 0u32;
        while let Some(t) = self.peek_at(0) {
            if !matches!(t.kind, TokenKind::Punct(_)) {
                break;
            }
            let Some((op, prec)) = binop_of(&t.text) else {
                break;
            };
            if prec < min_prec {
                break;
            }
            let op_span = t.span;
            self.bump();
            chain += 1;
            if chain > MAX_CHAIN {
                return Err(self.error_here("expression too complex (too many operators in a row)"));
            }
            self.enter()?;
            let rhs = self.binary_expr(prec + 1);
            self.leave();
            let rhs = rhs?;
            let sp = lhs.span.to(rhs.span);
            lhs = mk(
                ExprKind::Binary(op, Box::new(lhs), Box::new(rhs), op_span),
                sp,
            );
        }
        Ok(lhs)
    }

    /// At `(`: whether a type name follows (a cast or compound literal).
    fn paren_starts_type(&self) -> bool {
        self.is_punct("(") && self.is_ident_at(1) && {
            let t = self.text_at(1);
            super::is_decl_start_keyword(t) || self.is_typedef_name(t)
        }
    }

    fn cast_expr(&mut self) -> PResult<Expr> {
        if self.paren_starts_type() {
            let start = self.span();
            self.bump();
            let ty = self.type_name()?;
            self.expect_punct(")")?;
            // OpenCL vector literal: (T)(e, e, ...)
            let is_vector = matches!(ty.spec.ty, TypeSpec::Vector(..) | TypeSpec::Named(_))
                && ty.declarator.derived.is_empty();
            if is_vector && self.is_punct("(") {
                let open = self.span();
                self.bump();
                self.enter()?;
                let r = (|| {
                    let mut elems = vec![self.assignment_expr()?];
                    while self.eat_punct(",") {
                        elems.push(self.assignment_expr()?);
                    }
                    Ok(elems)
                })();
                self.leave();
                let elems = r?;
                self.expect_punct(")")?;
                let sp = start.to(self.prev_span());
                let _ = open;
                let lit = if elems.len() == 1 {
                    let e = elems.into_iter().next().unwrap_or(Expr {
                        kind: ExprKind::Error,
                        span: sp,
                    });
                    // (T)(x): parenthesized operand; still a cast, possibly followed by postfix.
                    mk(ExprKind::Cast(Box::new(ty), Box::new(e)), sp)
                } else {
                    mk(ExprKind::VectorLit(Box::new(ty), elems), sp)
                };
                return self.postfix_tail(lit);
            }
            if self.is_punct("{") {
                let init = self.initializer()?;
                let sp = start.to(init.span());
                let lit = mk(ExprKind::CompoundLit(Box::new(ty), Box::new(init)), sp);
                return self.postfix_tail(lit);
            }
            self.enter()?;
            let operand = self.cast_expr();
            self.leave();
            let operand = operand?;
            let sp = start.to(operand.span);
            return Ok(mk(ExprKind::Cast(Box::new(ty), Box::new(operand)), sp));
        }
        self.unary_expr()
    }

    fn unary_expr(&mut self) -> PResult<Expr> {
        let start = self.span();
        if self.is_punct("^") {
            return self.block_literal();
        }
        let op = if self.is_punct("-") {
            Some(UnaryOp::Neg)
        } else if self.is_punct("+") {
            Some(UnaryOp::Plus)
        } else if self.is_punct("!") {
            Some(UnaryOp::Not)
        } else if self.is_punct("~") {
            Some(UnaryOp::BitNot)
        } else if self.is_punct("*") {
            Some(UnaryOp::Deref)
        } else if self.is_punct("&") {
            Some(UnaryOp::AddrOf)
        } else if self.is_punct("++") {
            Some(UnaryOp::PreInc)
        } else if self.is_punct("--") {
            Some(UnaryOp::PreDec)
        } else {
            None
        };
        if let Some(op) = op {
            self.bump();
            self.enter()?;
            let e = if matches!(op, UnaryOp::PreInc | UnaryOp::PreDec) {
                self.unary_expr()
            } else {
                self.cast_expr()
            };
            self.leave();
            let e = e?;
            let sp = start.to(e.span);
            return Ok(mk(ExprKind::Unary(op, Box::new(e)), sp));
        }
        if self.is_keyword("sizeof")
            || self.is_keyword("vec_step")
            || self.is_keyword("__alignof__")
            || self.is_keyword("_Alignof")
        {
            let kw = self.text();
            self.bump();
            if self.paren_starts_type() {
                self.bump();
                let ty = self.type_name()?;
                self.expect_punct(")")?;
                let sp = start.to(self.prev_span());
                let kind = match kw {
                    "sizeof" => ExprKind::SizeofType(Box::new(ty)),
                    "vec_step" => ExprKind::VecStepType(Box::new(ty)),
                    _ => ExprKind::AlignofType(Box::new(ty)),
                };
                return Ok(mk(kind, sp));
            }
            self.enter()?;
            let e = self.unary_expr();
            self.leave();
            let e = e?;
            let sp = start.to(e.span);
            let kind = match kw {
                "sizeof" => ExprKind::SizeofExpr(Box::new(e)),
                "vec_step" => ExprKind::VecStep(Box::new(e)),
                _ => {
                    self.error_at(sp, "'_Alignof' needs a type name");
                    ExprKind::Error
                }
            };
            return Ok(mk(kind, sp));
        }
        let prim = self.primary_expr()?;
        self.postfix_tail(prim)
    }

    fn postfix_tail(&mut self, mut e: Expr) -> PResult<Expr> {
        loop {
            if self.eat_punct("[") {
                let idx = self.expr()?;
                self.expect_punct("]")?;
                let sp = e.span.to(self.prev_span());
                e = mk(ExprKind::Index(Box::new(e), Box::new(idx)), sp);
            } else if self.is_punct("(") {
                self.bump();
                let mut args = Vec::new();
                if !self.is_punct(")") {
                    loop {
                        args.push(self.assignment_expr()?);
                        if !self.eat_punct(",") {
                            break;
                        }
                    }
                }
                self.expect_punct(")")?;
                let sp = e.span.to(self.prev_span());
                e = mk(ExprKind::Call(Box::new(e), args), sp);
            } else if self.is_punct(".") || self.is_punct("->") {
                let arrow = self.text() == "->";
                self.bump();
                // `.s0`-style swizzles may lex as a number after `.` (e.g. `.0`); accept idents.
                let (name, name_span) = if self.is_ident() {
                    self.expect_ident()?
                } else {
                    return Err(self.error_here("expected member name"));
                };
                let sp = e.span.to(name_span);
                e = mk(
                    ExprKind::Member {
                        base: Box::new(e),
                        name,
                        name_span,
                        arrow,
                    },
                    sp,
                );
            } else if self.is_punct("++") || self.is_punct("--") {
                let op = if self.text() == "++" {
                    UnaryOp::PostInc
                } else {
                    UnaryOp::PostDec
                };
                self.bump();
                let sp = e.span.to(self.prev_span());
                e = mk(ExprKind::Unary(op, Box::new(e)), sp);
            } else {
                break;
            }
        }
        Ok(e)
    }

    fn primary_expr(&mut self) -> PResult<Expr> {
        let Some(t) = self.peek_at(0) else {
            return Err(self.error_here("expected expression"));
        };
        let sp = t.span;
        match &t.kind {
            TokenKind::Ident => {
                if super::is_decl_start_keyword(&t.text) || self.is_typedef_name(&t.text) {
                    return Err(self.error_here("expected expression"));
                }
                self.bump();
                Ok(mk(ExprKind::Ident(t.text.clone()), sp))
            }
            TokenKind::Number => {
                self.bump();
                match parse_number(&t.text) {
                    Ok(NumberLit::Int {
                        value,
                        unsigned,
                        long,
                        non_decimal,
                    }) => Ok(mk(
                        ExprKind::IntLit {
                            value,
                            unsigned,
                            long,
                            non_decimal,
                        },
                        sp,
                    )),
                    Ok(NumberLit::Float { value, suffix }) => {
                        Ok(mk(ExprKind::FloatLit { value, suffix }, sp))
                    }
                    Err(msg) => {
                        self.error_at(sp, msg);
                        Ok(mk(ExprKind::Error, sp))
                    }
                }
            }
            TokenKind::CharLit => {
                self.bump();
                match parse_char_literal(&t.text) {
                    Ok(v) => Ok(mk(ExprKind::CharLit(v), sp)),
                    Err(msg) => {
                        self.error_at(sp, msg);
                        Ok(mk(ExprKind::Error, sp))
                    }
                }
            }
            TokenKind::StringLit => {
                // Adjacent string literals concatenate (C99 5.1.1.2 phase 6).
                let mut s = String::new();
                let mut span = sp;
                while let Some(t) = self.peek_at(0) {
                    if !matches!(t.kind, TokenKind::StringLit) {
                        break;
                    }
                    self.bump();
                    span = span.to(t.span);
                    let inner = t
                        .text
                        .strip_prefix('"')
                        .and_then(|x| x.strip_suffix('"'))
                        .unwrap_or("");
                    match unescape(inner) {
                        Ok(b) => s.push_str(&String::from_utf8_lossy(&b)),
                        Err(msg) => self.error_at(t.span, msg),
                    }
                }
                Ok(mk(ExprKind::StringLit(s), span))
            }
            TokenKind::Punct(_) if t.text == "(" && self.is_punct_at(1, "{") => {
                // GNU statement expression `({ … })`.
                self.bump();
                self.enter()?;
                let body = self.compound_stmt();
                self.leave();
                let body = body?;
                self.expect_punct(")")?;
                Ok(mk(
                    ExprKind::StmtExpr(Box::new(body)),
                    sp.to(self.prev_span()),
                ))
            }
            TokenKind::Punct(_) if t.text == "(" => {
                self.bump();
                self.enter()?;
                let e = self.expr();
                self.leave();
                let mut e = e?;
                self.expect_punct(")")?;
                // Keep the operand's span but widen to the parentheses for diagnostics.
                e.span = sp.to(self.prev_span()).to(e.span);
                Ok(e)
            }
            _ => Err(self.error_here("expected expression")),
        }
    }

    /// `^ [return-type] [(params)] { body }` (OpenCL C 2.0 §1.12.3).
    fn block_literal(&mut self) -> PResult<Expr> {
        let start = self.span();
        self.bump();
        let mut ret = None;
        let mut params = Vec::new();
        let mut variadic = false;
        if self.eat_punct("(") {
            (params, variadic) = self.param_list()?;
        } else if !self.is_punct("{") {
            // `^int (int x) { … }`: a return type, then the parameters as its function suffix.
            let mut t = self.type_name()?;
            if let Some(crate::ast::Derived::Function { .. }) = t.declarator.derived.first() {
                if let crate::ast::Derived::Function {
                    params: p,
                    variadic: v,
                } = t.declarator.derived.remove(0)
                {
                    params = p;
                    variadic = v;
                }
            }
            ret = Some(t);
        }
        self.enter()?;
        let body = self.compound_stmt();
        self.leave();
        let body = body?;
        let sp = start.to(body.span);
        let lit = mk(
            ExprKind::BlockLit(Box::new(crate::ast::BlockLiteral {
                ret,
                params,
                variadic,
                body,
            })),
            sp,
        );
        // `^{ … }()` calls the literal.
        self.postfix_tail(lit)
    }
}
