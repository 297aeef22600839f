//! Statements (C99 6.8).

use super::{Bail, PResult, Parser};
use crate::ast::*;

impl<'a> Parser<'a> {
    /// `{ … }` with its own typedef scope. Errors inside are recovered per statement.
    pub(crate) fn compound_stmt(&mut self) -> PResult<Stmt> {
        let start = self.expect_punct("{")?;
        self.enter()?;
        self.push_scope();
        let mut items = Vec::new();
        loop {
            if self.is_punct("}") {
                break;
            }
            if self.at_eof() {
                self.pop_scope();
                self.leave();
                return Err(self.error_here("expected '}'"));
            }
            let before = self.pos;
            match self.block_item() {
                Ok(s) => items.push(s),
                Err(Bail) => {
                    self.recover_to_semi();
                    if self.pos == before {
                        self.bump();
                    }
                    self.note_dropped(before);
                    items.push(Stmt {
                        kind: StmtKind::Error,
                        span: self.prev_span(),
                    });
                }
            }
        }
        self.bump();
        self.pop_scope();
        self.leave();
        Ok(Stmt {
            kind: StmtKind::Compound(items),
            span: start.to(self.prev_span()),
        })
    }

    fn block_item(&mut self) -> PResult<Stmt> {
        // Statement attributes such as `__attribute__((opencl_unroll_hint))` before a loop
        // are accepted and ignored.
        if self.is_keyword("__attribute__") {
            let save = self.pos;
            self.attributes()?;
            let is_stmt =
                ["for", "while", "do", "if", "switch"].contains(&self.text()) || self.is_punct("{");
            if is_stmt {
                return self.statement();
            }
            self.pos = save;
        }
        if self.is_keyword("_Static_assert") {
            let a = self.static_assert()?;
            let span = a.span;
            return Ok(Stmt {
                kind: StmtKind::StaticAssert(a),
                span,
            });
        }
        // A typedef name followed by ':' is a label, not a declaration.
        if self.starts_decl() && !self.is_punct_at(1, ":") {
            let d = self.declaration()?;
            let span = d.span;
            return Ok(Stmt {
                kind: StmtKind::Decl(d),
                span,
            });
        }
        self.statement()
    }

    pub(crate) fn statement(&mut self) -> PResult<Stmt> {
        self.enter()?;
        let r = self.statement_inner();
        self.leave();
        r
    }

    fn statement_inner(&mut self) -> PResult<Stmt> {
        let start = self.span();
        let done = |p: &Parser<'_>, kind: StmtKind| -> PResult<Stmt> {
            Ok(Stmt {
                kind,
                span: start.to(p.prev_span()),
            })
        };
        if self.is_punct("{") {
            return self.compound_stmt();
        }
        if self.eat_punct(";") {
            return done(self, StmtKind::Expr(None));
        }
        if self.is_ident() {
            match self.text() {
                "if" => {
                    self.bump();
                    let c = self.paren_condition()?;
                    let then = self.statement()?;
                    let els = if self.eat_keyword("else") {
                        Some(Box::new(self.statement()?))
                    } else {
                        None
                    };
                    return done(self, StmtKind::If(c, Box::new(then), els));
                }
                "while" => {
                    self.bump();
                    let c = self.paren_condition()?;
                    let body = self.statement()?;
                    return done(self, StmtKind::While(c, Box::new(body)));
                }
                "do" => {
                    self.bump();
                    let body = self.statement()?;
                    if !self.eat_keyword("while") {
                        return Err(self.error_here("expected 'while' in do/while loop"));
                    }
                    self.expect_punct("(")?;
                    let c = self.expr()?;
                    self.expect_punct(")")?;
                    self.expect_semi("after do/while statement")?;
                    return done(self, StmtKind::DoWhile(Box::new(body), c));
                }
                "for" => {
                    self.bump();
                    self.expect_punct("(")?;
                    self.push_scope();
                    let r = self.for_rest(start);
                    self.pop_scope();
                    return r;
                }
                "switch" => {
                    self.bump();
                    let c = self.paren_condition()?;
                    let body = self.statement()?;
                    return done(self, StmtKind::Switch(c, Box::new(body)));
                }
                "case" => {
                    self.bump();
                    let v = self.conditional_expr()?;
                    // GNU case range `case lo ... hi:`.
                    let hi = if self.eat_punct("...") {
                        Some(self.conditional_expr()?)
                    } else {
                        None
                    };
                    self.expect_punct(":")?;
                    let s = self.case_body()?;
                    return match hi {
                        Some(hi) => done(self, StmtKind::CaseRange(v, hi, Box::new(s))),
                        None => done(self, StmtKind::Case(v, Box::new(s))),
                    };
                }
                "default" => {
                    self.bump();
                    self.expect_punct(":")?;
                    let s = self.case_body()?;
                    return done(self, StmtKind::Default(Box::new(s)));
                }
                "break" => {
                    self.bump();
                    self.expect_semi("after break statement")?;
                    return done(self, StmtKind::Break);
                }
                "continue" => {
                    self.bump();
                    self.expect_semi("after continue statement")?;
                    return done(self, StmtKind::Continue);
                }
                "return" => {
                    self.bump();
                    let v = if self.is_punct(";") {
                        None
                    } else {
                        Some(self.expr()?)
                    };
                    self.expect_semi("after return statement")?;
                    return done(self, StmtKind::Return(v));
                }
                "goto" => {
                    self.bump();
                    let (name, name_span) = self.expect_ident()?;
                    self.expect_semi("after goto statement")?;
                    // The statement's span is the label name's, where errors about it point.
                    return Ok(Stmt {
                        kind: StmtKind::Goto(name),
                        span: name_span,
                    });
                }
                "else" => return Err(self.error_here("expected expression")),
                _ => {
                    if self.is_punct_at(1, ":") && !self.is_punct_at(1, "::") {
                        let (name, _) = self.expect_ident()?;
                        self.bump();
                        let s = self.case_body()?;
                        return done(self, StmtKind::Label(name, Box::new(s)));
                    }
                }
            }
        }
        let e = self.expr()?;
        self.expect_semi("after expression")?;
        done(self, StmtKind::Expr(Some(e)))
    }

    /// The statement after a label; a label right before `}` gets an empty statement.
    fn case_body(&mut self) -> PResult<Stmt> {
        if self.is_punct("}") {
            let sp = self.span();
            return Ok(Stmt {
                kind: StmtKind::Expr(None),
                span: sp,
            });
        }
        if self.starts_decl() {
            // C does not allow a declaration right after a label; clang accepts it in C2x.
            let d = self.declaration()?;
            let span = d.span;
            return Ok(Stmt {
                kind: StmtKind::Decl(d),
                span,
            });
        }
        self.statement()
    }

    /// `( expression )` of `if`, `while` and `switch`. After a syntax error inside, skips to
    /// the matching `)` and stands `0` for the condition, so that the body is still parsed
    /// and checked (clang-like recovery, no cascade into the body).
    fn paren_condition(&mut self) -> PResult<Expr> {
        self.expect_punct("(")?;
        let open = self.pos;
        let parsed = self.expr().and_then(|e| self.expect_punct(")").map(|_| e));
        match parsed {
            Ok(e) => Ok(e),
            Err(Bail) => {
                self.skip_to_close_paren(open, false)?;
                Ok(self.zero_expr())
            }
        }
    }

    /// The literal `0` at the previous token (a stand-in for a condition lost to an error).
    fn zero_expr(&self) -> Expr {
        Expr {
            kind: ExprKind::IntLit {
                value: 0,
                unsigned: false,
                long: false,
                non_decimal: false,
            },
            span: self.prev_span(),
        }
    }

    /// From `open` (just after a `(`), moves past the matching `)`, remembering the skipped
    /// names. Stops with `Bail` at a brace (or a `;` unless `semis_inside`) at the outer level:
    /// the parenthesis was never closed, and statement recovery takes over from there.
    fn skip_to_close_paren(&mut self, open: usize, semis_inside: bool) -> PResult<()> {
        let failed_at = self.pos;
        self.pos = open;
        let mut depth = 0u32;
        while let Some(t) = self.peek_at(0) {
            if matches!(t.kind, crate::lex::TokenKind::Punct(_)) {
                match t.text.as_str() {
                    "(" | "[" => depth += 1,
                    ")" if depth == 0 => {
                        self.pos += 1;
                        self.note_dropped(open);
                        return Ok(());
                    }
                    ")" | "]" => depth = depth.saturating_sub(1),
                    "{" | "}" if depth == 0 => break,
                    ";" if depth == 0 && !semis_inside => break,
                    _ => {}
                }
            }
            self.pos += 1;
        }
        self.pos = self.pos.max(failed_at);
        Err(Bail)
    }

    fn for_rest(&mut self, start: crate::source::Span) -> PResult<Stmt> {
        let open = self.pos;
        let header = self.for_header();
        let (init, cond, step) = match header {
            Ok(h) => h,
            Err(Bail) => {
                self.skip_to_close_paren(open, true)?;
                (None, Some(self.zero_expr()), None)
            }
        };
        let body = self.statement()?;
        Ok(Stmt {
            kind: StmtKind::For(init, cond, step, Box::new(body)),
            span: start.to(self.prev_span()),
        })
    }

    /// `init; cond; step)` of a `for` statement.
    #[allow(clippy::type_complexity)]
    fn for_header(&mut self) -> PResult<(Option<Box<ForInit>>, Option<Expr>, Option<Expr>)> {
        let init = if self.eat_punct(";") {
            None
        } else if self.starts_decl() {
            Some(Box::new(ForInit::Decl(self.declaration()?)))
        } else {
            let e = self.expr()?;
            self.expect_punct(";")?;
            Some(Box::new(ForInit::Expr(e)))
        };
        let cond = if self.is_punct(";") {
            None
        } else {
            Some(self.expr()?)
        };
        self.expect_punct(";")?;
        let step = if self.is_punct(")") {
            None
        } else {
            Some(self.expr()?)
        };
        self.expect_punct(")")?;
        Ok((init, cond, step))
    }
}
