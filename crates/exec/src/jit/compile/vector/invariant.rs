//! Row-invariant values in the vectorised row loop.
//!
//! The kernel's parameters are bound to the values computed before the loop instead of passed
//! to the entry block at every iteration. The row loop jumps to the translated entry block once
//! per iteration; when that block takes the parameters as Cranelift block parameters, every
//! value computed from them (a splat of `saxpy`'s `a`, a stencil's `n − 1` and its border
//! tests) is loop-variant for Cranelift, which recomputes it in every iteration. kir's entry
//! block is never a branch target (kir verifier rule 1, checked again here), so its
//! parameters always equal the function's: mapping them to the row's argument values lets
//! Cranelift hoist what depends only on them.
//!
//! Cranelift does not hoist an operation with a constant operand out of a loop (constants are
//! rematerialised at each use, inside the loop), so `n − 1` and a test on it would still run in
//! every iteration: the uniform integer operations, comparisons and conversions whose operands
//! are all row-invariant (parameters, constants, work-item queries that do not change along
//! the row, and results of such operations) are translated once in the block before each
//! version of the loop (through a stack slot, which keeps Cranelift from placing them at
//! their uses again), and skipped inside it. They are pure and cannot fail, so computing
//! them for a row whose iterations might not reach them changes nothing.
//!
//! A uniform branch on a constant (a comparison the row proof decided, `row_proof`) becomes a
//! jump, so the unchecked loop carries no test for it.

use std::collections::HashSet;

use cranelift_codegen::ir::{InstBuilder, InstructionData, MemFlagsData, Opcode, ValueDef};
use kir::{BinaryOp, CmpOp, ConvertOp, Function, InstData};

use super::super::{lanes_of, wi_source, ClValue, Translator, Unsupported, WiSource};
use super::{int_bits, Shape};

/// Whether no branch of `func` targets its entry block (then its parameters are the
/// arguments for the whole row).
pub(super) fn entry_untargeted(func: &Function, entry: kir::Block) -> bool {
    func.layout.blocks.iter().all(|&b| {
        func.terminator(b).is_none_or(|t| {
            func.dfg
                .inst(t)
                .branch_targets()
                .iter()
                .all(|c| c.block != entry)
        })
    })
}

impl Translator<'_, '_> {
    /// Binds the entry block's parameters to `args` (their lanes in order) when no branch
    /// targets it; returns whether it did (the row loop then jumps to it without arguments).
    pub(super) fn bind_entry_args(
        &mut self,
        entry: kir::Block,
        args: &[ClValue],
    ) -> Result<bool, Unsupported> {
        let func = self.func;
        if !entry_untargeted(func, entry) {
            return Ok(false);
        }
        let mut at = 0;
        let mut bound = Vec::new();
        for &p in func.dfg.block_params(entry) {
            let n = lanes_of(self.ty(p))?.len();
            let lanes = args
                .get(at..at + n)
                .ok_or("fewer arguments than parameters")?;
            bound.push((p, lanes.to_vec()));
            at += n;
        }
        if at != args.len() {
            return Ok(false);
        }
        for (p, lanes) in bound {
            self.vals[p.index()] = Some(lanes);
        }
        Ok(true)
    }

    /// The value of `c` when it is an integer constant.
    pub(super) fn known_const(&self, c: ClValue) -> Option<i64> {
        let dfg = &self.b.func.dfg;
        let ValueDef::Result(inst, _) = dfg.value_def(c) else {
            return None;
        };
        match dfg.insts[inst] {
            InstructionData::UnaryImm {
                opcode: Opcode::Iconst,
                imm,
            } => Some(imm.bits()),
            _ => None,
        }
    }

    /// Translates the row-invariant instructions (module doc) at the current position, before
    /// the loop; returns them (the loop skips them). Only when the entry block's parameters
    /// are the row's values (`bound`).
    pub(super) fn hoist_row_invariants(
        &mut self,
        order: &[kir::Block],
        bound: bool,
    ) -> Result<HashSet<kir::Inst>, Unsupported> {
        let mut hoisted = HashSet::new();
        let func = self.func;
        let Some(entry) = func.entry_block() else {
            return Ok(hoisted);
        };
        if !bound {
            return Ok(hoisted);
        }
        let mut invariant: HashSet<kir::Value> =
            func.dfg.block_params(entry).iter().copied().collect();
        let int = |v: kir::Value| int_bits(func.dfg.value_type(v)).is_some();
        for &kb in order {
            for &inst in func.layout.insts(kb) {
                let Some(r) = func.dfg.inst_result(inst) else {
                    continue;
                };
                if self.shape(r) != Shape::Uniform {
                    continue;
                }
                let data = func.dfg.inst(inst);
                let kind = match *data {
                    InstData::Const { .. } => int(r),
                    InstData::WorkItem { query, dim } => {
                        int(r)
                            && !matches!(wi_source(query, u64::from(dim), true), WiSource::Row(_))
                    }
                    InstData::Binary { op, a, .. } => {
                        int(r)
                            && int(a)
                            && matches!(
                                op,
                                BinaryOp::IAdd
                                    | BinaryOp::ISub
                                    | BinaryOp::IMul
                                    | BinaryOp::And
                                    | BinaryOp::Or
                                    | BinaryOp::Xor
                            )
                    }
                    InstData::Cmp { op, a, .. } => {
                        int(a)
                            && matches!(
                                op,
                                CmpOp::IEq
                                    | CmpOp::INe
                                    | CmpOp::ULt
                                    | CmpOp::ULe
                                    | CmpOp::UGt
                                    | CmpOp::UGe
                                    | CmpOp::SLt
                                    | CmpOp::SLe
                                    | CmpOp::SGt
                                    | CmpOp::SGe
                            )
                    }
                    InstData::Convert {
                        op: ConvertOp::SConvert | ConvertOp::UConvert,
                        arg,
                        saturate: false,
                        ..
                    } => int(r) && int(arg),
                    _ => false,
                };
                if !kind || !data.operands().iter().all(|a| invariant.contains(a)) {
                    continue;
                }
                self.inst(inst)?;
                if !matches!(data, InstData::Const { .. }) {
                    self.pin(r);
                }
                invariant.insert(r);
                hoisted.insert(inst);
            }
        }
        Ok(hoisted)
    }

    /// Keeps `v`'s lanes where they are: through a stack slot written and read before the
    /// loop (Cranelift places pure values again at their uses, inside the loop, when one of
    /// their operands is a constant, but leaves a load where it is).
    fn pin(&mut self, v: kir::Value) {
        let Some(lanes) = self.vals[v.index()].clone() else {
            return;
        };
        let flags = MemFlagsData::trusted();
        let mut pinned = Vec::new();
        for x in lanes {
            let ty = self.b.func.dfg.value_type(x);
            let slot = self.slot(ty.bytes());
            self.b.ins().store(flags, x, slot, 0);
            pinned.push(self.b.ins().load(ty, flags, slot, 0));
        }
        self.vals[v.index()] = Some(pinned);
    }
}
