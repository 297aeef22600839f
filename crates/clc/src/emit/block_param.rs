//! Blocks as function parameters (OpenCL C 2.0 §1.12.5 Example 1: `void foo(int *x,
//! int (^bar)(int, int)) { *x = bar(*x, *x); }`), which OpenCL C 3.0 §6.12.5 forbids again
//! ("A block cannot be a return value or a parameter of a function"), so only `-cl-std=CL2.0`
//! accepts them.
//!
//! SPIR-V for OpenCL has no function pointers, but Blocks are statically determinable
//! (§1.12.5): at every call the literal behind each Block argument is known. A function with
//! Block parameters is therefore a *template*: its body is emitted once per combination of
//! literals it is called with (a *specialization*, `OpName` `<function>.blocks<N>`). A
//! specialization still receives the literal's address (`generic uchar *`, for its
//! captures), and in its body the parameter is bound to that literal, so calling it, passing
//! it on to another such function or enqueuing it (§6.13.17) are direct uses of the literal.

use std::collections::HashMap;

use spv::{Op, Operand};

use super::{Emitter, FuncSig, Val};
use crate::ast::{Expr, FunctionDef};
use crate::sema::types::BlockSig;
use crate::sema::Type;
use crate::source::Span;

/// More specializations than this means a template creates new literals for itself without
/// end (recursion through Block literals, which §6.9 forbids anyway).
const MAX_SPECIALIZATIONS: usize = 1024;

/// One body to emit: template `name` with its Block parameters bound to `literals`.
#[derive(Clone, Debug)]
pub(crate) struct Specialization {
    pub name: String,
    pub literals: Vec<u32>,
    pub id: spv::Id,
    /// `<function>.blocks<N>` (also the owner of the Block literals inside its body).
    pub spec_name: String,
}

/// The functions with Block parameters and their specializations.
#[derive(Default)]
pub(crate) struct Templates {
    /// Template name → its definition (emitted per specialization).
    pub defs: HashMap<String, Box<FunctionDef>>,
    /// (template, literals) → the specialization's function.
    pub made: HashMap<(String, Vec<u32>), spv::Id>,
    /// Specializations whose body is still to be emitted.
    pub pending: Vec<Specialization>,
}

impl FuncSig {
    /// Whether the function takes a Block (it is emitted per call's literals).
    pub fn has_block_params(&self) -> bool {
        self.params.iter().any(|t| matches!(t, Type::Block(_)))
    }
}

impl<'a> Emitter<'a> {
    /// A call to a function with Block parameters: the arguments are evaluated and each
    /// Block argument's literal chooses (or makes) the specialization that is called.
    pub(crate) fn specialized_call(
        &mut self,
        name: &str,
        sig: &FuncSig,
        args: &[Expr],
        span: Span,
        name_span: Span,
    ) -> Option<Val> {
        let mut ops = Vec::new();
        let mut literals = Vec::new();
        let mut ok = true;
        for (a, pt) in args.iter().zip(&sig.params) {
            let Some(v) = self.rvalue(a) else {
                ok = false;
                continue;
            };
            match (pt, &v.ty) {
                (Type::Block(want), Type::Block(got)) if want.same_signature(got) => {
                    match got.literal {
                        Some(l) => {
                            literals.push(l);
                            ops.push(Operand::Id(v.id));
                        }
                        None if self.check_only => literals.push(u32::MAX),
                        None => {
                            self.error(a.span, "a Block argument must be a Block literal or Block variable (Blocks must be statically determinable, OpenCL C 2.0 §1.12.5)");
                            ok = false;
                        }
                    }
                }
                (Type::Block(_), _) | (_, Type::Block(_)) => {
                    let msg = format!(
                        "passing '{}' to parameter of incompatible type '{}'",
                        self.type_name(&v.ty),
                        self.type_name(pt)
                    );
                    self.error(a.span, msg);
                    ok = false;
                }
                _ => match self.assign_convert(v, pt, a, "passing to parameter of type") {
                    Some(v) => ops.push(Operand::Id(v.id)),
                    None => ok = false,
                },
            }
        }
        if !ok {
            return None;
        }
        if self.check_only && literals.contains(&u32::MAX) {
            // Type-checking only, with an unbound Block passed on: no specialization.
            return Some(Val {
                id: self.b.id(),
                ty: sig.ret.clone(),
            });
        }
        self.calls
            .entry(self.fs.name.clone())
            .or_default()
            .push((name.to_string(), name_span));
        let key = (name.to_string(), literals);
        let id = match self.templates.made.get(&key) {
            Some(id) => *id,
            None => {
                if self.templates.made.len() >= MAX_SPECIALIZATIONS {
                    self.error(
                        span,
                        format!("too many specializations of '{name}' for its Block arguments (recursion is not allowed in OpenCL C)"),
                    );
                    return None;
                }
                let id = self.b.id();
                let spec_name = format!("{name}.blocks{}", self.templates.made.len() + 1);
                self.b.name(id, &spec_name);
                self.templates.made.insert(key.clone(), id);
                self.templates.pending.push(Specialization {
                    name: key.0,
                    literals: key.1,
                    id,
                    spec_name,
                });
                id
            }
        };
        let rt = self.spv_type(&sig.ret);
        let mut call = vec![Operand::Id(id)];
        call.extend(ops);
        let id = self.inst(Op::FunctionCall, rt, call);
        Some(Val {
            id,
            ty: sig.ret.clone(),
        })
    }

    /// Emits the pending specializations whose template is defined by now (more may be
    /// queued by the bodies emitted, and more Block literals).
    pub(crate) fn emit_pending_specializations(&mut self) -> bool {
        let Some(k) = self
            .templates
            .pending
            .iter()
            .position(|s| self.templates.defs.contains_key(&s.name))
        else {
            return false;
        };
        let spec = self.templates.pending.remove(k);
        if let Some(def) = self.templates.defs.get(&spec.name).cloned() {
            self.function_body_as(&def, Some(&spec));
        }
        true
    }

    /// At the end of the translation unit: templates called but never defined (they cannot
    /// be linked from elsewhere: a Block cannot cross a SPIR-V function boundary unbound).
    pub(crate) fn undefined_templates(&mut self) {
        let pending = std::mem::take(&mut self.templates.pending);
        let mut names: Vec<&String> = pending.iter().map(|s| &s.name).collect();
        names.sort();
        names.dedup();
        for name in names {
            let at = self.funcs.get(name).map(|s| s.span);
            if let Some(at) = at {
                self.error(
                    at,
                    format!("function '{name}' with a Block parameter is used but never defined"),
                );
            }
        }
    }

    /// The Block type of parameter `k` of a specialization: bound to its literal.
    pub(crate) fn bound_block_param(
        &self,
        spec: &Specialization,
        k: usize,
        sig: &BlockSig,
    ) -> Type {
        Type::Block(Box::new(BlockSig {
            ret: sig.ret.clone(),
            params: sig.params.clone(),
            literal: spec.literals.get(k).copied(),
        }))
    }
}

impl<'a> Emitter<'a> {
    /// Templates that no call specialized are still type-checked, so the errors in their
    /// bodies are reported (clang compiles every function). The body is emitted into a
    /// scratch module that is then dropped, with each Block parameter unbound (calls to it
    /// are checked against its signature); everything the emitter learned meanwhile (types,
    /// literals, specializations, call edges) is forgotten with it.
    pub(crate) fn check_unspecialized_templates(&mut self) {
        let mut unused: Vec<(String, Box<FunctionDef>)> = self
            .templates
            .defs
            .iter()
            .filter(|(name, _)| !self.templates.made.keys().any(|(n, _)| n == *name))
            .map(|(n, d)| (n.clone(), d.clone()))
            .collect();
        unused.sort_by_key(|(_, d)| d.span.start);
        for (name, def) in unused {
            self.check_template_body(&name, &def);
        }
    }

    fn check_template_body(&mut self, name: &str, def: &FunctionDef) {
        let real = std::mem::replace(&mut self.b, spv::Builder::new((1, 0)));
        let saved_record_types = self.record_types.clone();
        let saved_builtin_vars = self.builtin_vars.clone();
        let saved_in_progress = self.records_in_progress.clone();
        let saved_ndrange = self.ndrange_ty;
        let saved_blocks = self.blocks.len();
        let saved_pending_blocks = self.pending_blocks.clone();
        let saved_pending_kernels = self.pending_block_kernels.clone();
        let saved_block_counts = self.block_counts.clone();
        let saved_made = self.templates.made.clone();
        let saved_pending = self.templates.pending.clone();
        let saved_calls = self.calls.clone();
        let saved_local_counter = self.local_counter;
        let saved_fs = std::mem::take(&mut self.fs);
        self.check_only = true;
        let spec = Specialization {
            name: name.to_string(),
            literals: Vec::new(),
            id: self.b.id(),
            spec_name: format!("{name}.check"),
        };
        self.function_body_as(def, Some(&spec));
        self.emit_pending_blocks();
        self.check_only = false;
        self.b = real;
        self.record_types = saved_record_types;
        self.builtin_vars = saved_builtin_vars;
        self.records_in_progress = saved_in_progress;
        self.ndrange_ty = saved_ndrange;
        self.blocks.truncate(saved_blocks);
        self.pending_blocks = saved_pending_blocks;
        self.pending_block_kernels = saved_pending_kernels;
        self.block_counts = saved_block_counts;
        self.templates.made = saved_made;
        self.templates.pending = saved_pending;
        self.calls = saved_calls;
        self.local_counter = saved_local_counter;
        self.fs = saved_fs;
    }
}
