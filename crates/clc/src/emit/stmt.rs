//! Statements (C99 6.8) as unstructured control flow: plain `OpBranch`/`OpBranchConditional`
//! /`OpSwitch` (no merge instructions: allowed for `Kernel`), blocks begun in source order so
//! that each block follows its dominator.

use std::collections::HashMap;

use spv::{Op, Operand};

use super::Emitter;
use crate::ast::{ForInit, Stmt, StmtKind};
use crate::sema::{Scalar, Type};

impl<'a> Emitter<'a> {
    pub fn stmt(&mut self, s: &Stmt) {
        self.ensure_open_block();
        match &s.kind {
            StmtKind::Compound(items) => {
                self.scopes.push();
                for it in items {
                    self.stmt(it);
                }
                self.scopes.pop();
            }
            StmtKind::Decl(d) => self.local_declaration(d),
            StmtKind::Expr(None) => {}
            StmtKind::Error => self.fs.saw_syntax_error = true,
            StmtKind::Expr(Some(e)) => {
                self.warn_unused_pure_call(e);
                let _ = self.rvalue_or_void(e);
            }
            StmtKind::If(c, then, els) => {
                let Some(cond) = self.condition(c) else {
                    return;
                };
                let then_l = self.b.id();
                let end_l = self.b.id();
                let else_l = if els.is_some() { self.b.id() } else { end_l };
                self.branch_cond(cond, then_l, else_l);
                self.begin_block(then_l);
                self.scoped_stmt(then);
                self.branch(end_l);
                if let Some(e) = els {
                    self.begin_block(else_l);
                    self.scoped_stmt(e);
                    self.branch(end_l);
                }
                self.begin_block(end_l);
            }
            StmtKind::While(c, body) => {
                let head = self.b.id();
                let body_l = self.b.id();
                let end = self.b.id();
                self.branch(head);
                self.begin_block(head);
                if !self.cond_branch(c, body_l, end) {
                    self.begin_block(end);
                    return;
                }
                self.begin_block(body_l);
                self.loop_body(body, end, head);
                self.branch(head);
                self.begin_block(end);
            }
            StmtKind::DoWhile(body, c) => {
                let body_l = self.b.id();
                let cont = self.b.id();
                let end = self.b.id();
                self.branch(body_l);
                self.begin_block(body_l);
                self.loop_body(body, end, cont);
                self.branch(cont);
                self.begin_block(cont);
                self.cond_branch(c, body_l, end);
                self.begin_block(end);
            }
            StmtKind::For(init, cond, step, body) => {
                self.scopes.push();
                match init.as_deref() {
                    Some(ForInit::Decl(d)) => self.local_declaration(d),
                    Some(ForInit::Expr(e)) => {
                        let _ = self.rvalue_or_void(e);
                    }
                    None => {}
                }
                let head = self.b.id();
                let body_l = self.b.id();
                let cont = self.b.id();
                let end = self.b.id();
                self.branch(head);
                self.begin_block(head);
                match cond {
                    Some(c) => {
                        self.cond_branch(c, body_l, end);
                    }
                    None => self.branch(body_l),
                }
                self.begin_block(body_l);
                self.loop_body(body, end, cont);
                self.branch(cont);
                self.begin_block(cont);
                if let Some(st) = step {
                    let _ = self.rvalue_or_void(st);
                }
                self.branch(head);
                self.begin_block(end);
                self.scopes.pop();
            }
            StmtKind::Switch(sel, body) => self.switch_stmt(sel, body),
            StmtKind::StaticAssert(a) => self.static_assert(a),
            StmtKind::Case(e, inner) | StmtKind::CaseRange(e, _, inner) => {
                let key = s as *const Stmt as usize;
                let label = self
                    .fs
                    .case_blocks
                    .last()
                    .and_then(|m| m.get(&key))
                    .copied();
                match label {
                    Some(l) => {
                        self.branch(l);
                        self.begin_block(l);
                    }
                    None => {
                        if self.fs.case_blocks.is_empty() {
                            self.error(e.span, "'case' statement not in switch statement");
                        }
                    }
                }
                self.stmt(inner);
            }
            StmtKind::Default(inner) => {
                let key = s as *const Stmt as usize;
                let label = self
                    .fs
                    .case_blocks
                    .last()
                    .and_then(|m| m.get(&key))
                    .copied();
                match label {
                    Some(l) => {
                        self.branch(l);
                        self.begin_block(l);
                    }
                    None => {
                        if self.fs.case_blocks.is_empty() {
                            self.error(s.span, "'default' statement not in switch statement");
                        }
                    }
                }
                self.stmt(inner);
            }
            StmtKind::Break => match self.fs.break_targets.last().copied() {
                Some(t) => self.branch(t),
                None => self.error(s.span, "'break' statement not in loop or switch statement"),
            },
            StmtKind::Continue => match self.fs.continue_targets.last().copied() {
                Some(t) => self.branch(t),
                None => self.error(s.span, "'continue' statement not in loop statement"),
            },
            StmtKind::Return(e) => self.return_stmt(e.as_ref(), s),
            StmtKind::Goto(name) => {
                self.fs.goto_spans.entry(name.clone()).or_insert(s.span);
                let l = self.label_block(name);
                self.branch(l);
            }
            StmtKind::Label(name, inner) => {
                if !self.fs.defined_labels.insert(name.clone()) {
                    self.error(s.span, format!("redefinition of label '{name}'"));
                }
                let l = self.label_block(name);
                self.branch(l);
                self.begin_block(l);
                // A label may be the target of a backward goto: treat as reachable.
                self.fs.branched_to.insert(l);
                self.stmt(inner);
            }
        }
    }

    fn label_block(&mut self, name: &str) -> spv::Id {
        if let Some(l) = self.fs.labels.get(name) {
            return *l;
        }
        let l = self.b.id();
        self.fs.labels.insert(name.to_string(), l);
        l
    }

    /// A sub-statement of if/loop bodies gets its own scope (C99 6.8.4p3).
    fn scoped_stmt(&mut self, s: &Stmt) {
        self.scopes.push();
        self.stmt(s);
        self.scopes.pop();
    }

    fn loop_body(&mut self, body: &Stmt, brk: spv::Id, cont: spv::Id) {
        self.fs.break_targets.push(brk);
        self.fs.continue_targets.push(cont);
        self.scoped_stmt(body);
        self.fs.break_targets.pop();
        self.fs.continue_targets.pop();
    }

    /// Branches on a loop condition; an integer constant condition (`while (1)`,
    /// `do … while (0)`) branches unconditionally. On an error, branches to `f` and returns
    /// false.
    fn cond_branch(&mut self, c: &crate::ast::Expr, t: spv::Id, f: spv::Id) -> bool {
        if let Some(v) = self.const_int(c) {
            self.branch(if v != 0 { t } else { f });
            return true;
        }
        match self.condition(c) {
            Some(cv) => {
                self.branch_cond(cv, t, f);
                true
            }
            None => {
                self.branch(f);
                false
            }
        }
    }

    /// A controlling expression as an `OpTypeBool` (scalar required, C99 6.8.4.1).
    pub fn condition(&mut self, e: &crate::ast::Expr) -> Option<spv::Id> {
        self.cond_bool(e)
    }

    fn return_stmt(&mut self, e: Option<&crate::ast::Expr>, s: &Stmt) {
        let ret = self.fs.ret.clone().unwrap_or(Type::Void);
        match (e, &ret) {
            (None, Type::Void) => self.b.inst_no_result(Op::Return, vec![]),
            (None, _) => {
                self.error(
                    s.span,
                    format!("non-void function '{}' should return a value", self.fs.name),
                );
                self.b.inst_no_result(Op::Unreachable, vec![]);
            }
            (Some(e), Type::Void) => {
                let v = self.rvalue_or_void(e);
                if v.is_some_and(|v| v.ty != Type::Void) {
                    self.error(
                        e.span,
                        format!("void function '{}' should not return a value", self.fs.name),
                    );
                }
                self.b.inst_no_result(Op::Return, vec![]);
            }
            (Some(e), _) => {
                let Some(v) = self.rvalue(e) else {
                    self.b.inst_no_result(Op::Unreachable, vec![]);
                    return;
                };
                let Some(v) = self.assign_convert(v, &ret, e, "returning") else {
                    self.b.inst_no_result(Op::Unreachable, vec![]);
                    return;
                };
                self.b
                    .inst_no_result(Op::ReturnValue, vec![Operand::Id(v.id)]);
            }
        }
    }

    fn switch_stmt(&mut self, sel: &crate::ast::Expr, body: &Stmt) {
        let Some(v) = self.rvalue(sel) else { return };
        let Some(s) =
            v.ty.scalar()
                .filter(|s| s.is_integer() || *s == crate::sema::Scalar::Bool)
        else {
            let msg = format!(
                "statement requires expression of integer type ('{}' invalid)",
                self.type_name(&v.ty)
            );
            self.error(sel.span, msg);
            return;
        };
        // Integer promotion of the controlling expression (C99 6.8.4.2p5).
        let ps = crate::sema::types::promote(s);
        let sel_id = self.convert_elems(v.id, s, ps, 1);
        // Collect case labels of this switch (not of nested switches).
        let mut cases: Vec<(&Stmt, Option<CaseLabel<'_>>)> = Vec::new();
        collect_cases(body, &mut cases);
        let end = self.b.id();
        let mut map = HashMap::new();
        let mut default_l = end;
        let mut targets: Vec<(i128, spv::Id)> = Vec::new();
        // Case ranges too long to list as OpSwitch targets: tested before the default.
        let mut long_ranges: Vec<(i128, i128, spv::Id)> = Vec::new();
        let mut ranges: Vec<(i128, i128, &crate::ast::Expr)> = Vec::new();
        let mut singles: Vec<i128> = Vec::new();
        let mut ok = true;
        for (st, value) in &cases {
            let l = self.b.id();
            map.insert(*st as *const Stmt as usize, l);
            match value {
                None => {
                    if default_l != end {
                        self.error(st.span, "multiple default labels in one switch");
                        ok = false;
                    }
                    default_l = l;
                }
                Some((lo_e, Some(hi_e))) => {
                    let (Some(lo), Some(hi)) = (self.const_int(lo_e), self.const_int(hi_e)) else {
                        for e in [lo_e, hi_e] {
                            if self.const_int(e).is_none() {
                                self.error(
                                    e.span,
                                    "expression is not an integer constant expression",
                                );
                            }
                        }
                        ok = false;
                        continue;
                    };
                    let (lo, hi) = (
                        super::consts::wrap_to(lo, ps),
                        super::consts::wrap_to(hi, ps),
                    );
                    if lo > hi {
                        self.warning(lo_e.span.to(hi_e.span), "empty case range specified");
                        continue;
                    }
                    ranges.push((lo, hi, lo_e));
                    if hi - lo < MAX_LISTED_CASE_RANGE {
                        targets.extend((lo..=hi).map(|c| (c, l)));
                    } else {
                        long_ranges.push((lo, hi, l));
                    }
                }
                Some((e, None)) => match self.const_int(e) {
                    Some(c) => {
                        let c = super::consts::wrap_to(c, ps);
                        if singles.contains(&c) {
                            self.error(e.span, format!("duplicate case value '{c}'"));
                            ok = false;
                        }
                        singles.push(c);
                        targets.push((c, l));
                    }
                    None => {
                        self.error(e.span, "expression is not an integer constant expression");
                        ok = false;
                    }
                },
            }
        }
        // A range overlapping another label: clang reports it at the range.
        for (k, (lo, hi, lo_e)) in ranges.clone().iter().enumerate() {
            let earlier = ranges[..k].iter().find(|(a, b, _)| a <= hi && lo <= b);
            // clang names the end of the earlier range.
            let clash = match earlier {
                Some((_, b, _)) => Some((*b).min(*hi)),
                None => cases_in(&cases, self, *lo, *hi),
            };
            if let Some(v) = clash {
                self.error(lo_e.span, format!("duplicate case value '{v}'"));
                ok = false;
            }
        }
        if !ok {
            return;
        }
        let mut sel_id = sel_id;
        let mut wide = ps.bits() > 32;
        // (Long ranges are tested on the selector as it is, so it stays wide for them.)
        if wide && long_ranges.is_empty() && !self.b.block_terminated() {
            // A 64-bit selector whose case values all fit in 32 bits: branch to default when
            // the selector does not fit either, then switch on its low 32 bits.
            let fits = |c: i128| {
                if ps.is_signed() {
                    (i32::MIN as i128..=i32::MAX as i128).contains(&c)
                } else {
                    (0..=u32::MAX as i128).contains(&c)
                }
            };
            if targets.iter().all(|(c, _)| fits(*c)) {
                let narrow = if ps.is_signed() {
                    Scalar::Int
                } else {
                    Scalar::UInt
                };
                let low = self.convert_elems(sel_id, ps, narrow, 1);
                let back = self.convert_elems(low, narrow, ps, 1);
                let bt = self.b.type_bool();
                let same = self.inst(Op::IEqual, bt, vec![Operand::Id(back), Operand::Id(sel_id)]);
                let small = self.b.id();
                self.branch_cond(same, small, default_l);
                self.begin_block(small);
                sel_id = low;
                wide = false;
            }
        }
        let range_check = if long_ranges.is_empty() {
            default_l
        } else {
            self.b.id()
        };
        let mut operands = vec![Operand::Id(sel_id), Operand::Id(range_check)];
        for (c, l) in &targets {
            if wide {
                operands.push(Operand::Wide(*c as u64));
            } else {
                operands.push(Operand::Int(*c as u32));
            }
            operands.push(Operand::Id(*l));
        }
        if !self.b.block_terminated() {
            self.b.inst_no_result(Op::Switch, operands);
            self.fs.branched_to.insert(default_l);
            for (_, l) in &targets {
                self.fs.branched_to.insert(*l);
            }
            if range_check != default_l {
                // `lo <= sel <= hi` as `sel - lo <= hi - lo` unsigned.
                self.fs.branched_to.insert(range_check);
                self.begin_block(range_check);
                let t = self.scalar_ty(ps);
                let bt = self.b.type_bool();
                for (lo, hi, l) in &long_ranges {
                    let lo_c = self.int_const(ps, *lo);
                    let span_c = self.int_const(ps, hi - lo);
                    let off = self.inst(Op::ISub, t, vec![Operand::Id(sel_id), Operand::Id(lo_c)]);
                    let hit = self.inst(
                        Op::ULessThanEqual,
                        bt,
                        vec![Operand::Id(off), Operand::Id(span_c)],
                    );
                    let next = self.b.id();
                    self.branch_cond(hit, *l, next);
                    self.begin_block(next);
                }
                self.branch(default_l);
            }
        }
        // Code before the first label is unreachable.
        let dead = self.b.id();
        self.begin_block(dead);
        self.fs.case_blocks.push(map);
        self.fs.break_targets.push(end);
        self.scoped_stmt(body);
        self.fs.break_targets.pop();
        self.fs.case_blocks.pop();
        self.branch(end);
        self.begin_block(end);
    }

    /// clang's `-Wunused-value` for a discarded call of a built-in that opencl-c.h declares
    /// `__attribute__((const))` (work-item, math, integer, common, geometric and relational
    /// functions without pointer parameters, conversions and `as_<type>`): the call has no
    /// effect.
    fn warn_unused_pure_call(&mut self, e: &crate::ast::Expr) {
        let crate::ast::ExprKind::Call(callee, _) = &e.kind else {
            return;
        };
        let crate::ast::ExprKind::Ident(name) = &callee.kind else {
            return;
        };
        if self.funcs.contains_key(name)
            || self.overloads.contains_key(name)
            || self.scopes.lookup(name).is_some()
        {
            return;
        }
        let pure = match builtins::lookup(name) {
            Some(fam) => {
                matches!(
                    fam.category,
                    builtins::Category::WorkItem
                        | builtins::Category::Math
                        | builtins::Category::HalfMath
                        | builtins::Category::NativeMath
                        | builtins::Category::Integer
                        | builtins::Category::Common
                        | builtins::Category::Geometric
                        | builtins::Category::Relational
                ) && !fam.sigs.iter().any(|s| s.contains('*'))
            }
            None => {
                builtins::parse_convert(name).is_some() || builtins::parse_as_type(name).is_some()
            }
        };
        if pure {
            self.warning(
                e.span,
                "ignoring return value of function declared with const attribute",
            );
        }
    }
}

/// Ranges with fewer values than this are listed value by value in the `OpSwitch`.
const MAX_LISTED_CASE_RANGE: i128 = 256;

/// A case label: its value, or the bounds of a GNU case range `lo ... hi`.
type CaseLabel<'s> = (&'s crate::ast::Expr, Option<&'s crate::ast::Expr>);

/// The first value of `lo..=hi` that another single case label of the switch also names.
fn cases_in(
    cases: &[(&Stmt, Option<CaseLabel<'_>>)],
    em: &mut Emitter<'_>,
    lo: i128,
    hi: i128,
) -> Option<i128> {
    cases.iter().find_map(|(_, label)| match label {
        Some((e, None)) => em.const_int(e).filter(|c| (lo..=hi).contains(c)),
        _ => None,
    })
}

/// The case/default statements belonging to one switch body, in source order.
fn collect_cases<'s>(s: &'s Stmt, out: &mut Vec<(&'s Stmt, Option<CaseLabel<'s>>)>) {
    match &s.kind {
        StmtKind::Case(e, inner) => {
            out.push((s, Some((e, None))));
            collect_cases(inner, out);
        }
        StmtKind::CaseRange(lo, hi, inner) => {
            out.push((s, Some((lo, Some(hi)))));
            collect_cases(inner, out);
        }
        StmtKind::Default(inner) => {
            out.push((s, None));
            collect_cases(inner, out);
        }
        StmtKind::Compound(items) => {
            for it in items {
                collect_cases(it, out);
            }
        }
        StmtKind::If(_, a, b) => {
            collect_cases(a, out);
            if let Some(b) = b {
                collect_cases(b, out);
            }
        }
        StmtKind::While(_, b) | StmtKind::DoWhile(b, _) | StmtKind::For(_, _, _, b) => {
            collect_cases(b, out)
        }
        StmtKind::Label(_, b) => collect_cases(b, out),
        // Nested switches own their labels.
        _ => {}
    }
}
