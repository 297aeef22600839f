//! Border tests the unchecked loop assumes, and block parameters that are constants there.
//!
//! A stencil's border test `x == 0 || y == 0 || x == n − 1 || y == n − 1` becomes, in the
//! unchecked loop, a chain of branches on block parameters: the tests on `x` are proven for
//! the row (`row_proof`), the ones on `y` are row-invariant (`invariant`: computed before the
//! loop), but each `||` joins at a block parameter that Cranelift tests again in every
//! iteration. Two steps take the chain out of the loop:
//! - an equality test of a row-invariant value derived from a work-item id (global, local or
//!   group id: `y == 0`) is assumed false (`!=`: true) for the unchecked loop: checked before
//!   the loop, the row runs the checked loop when an assumption fails (a border row), so the
//!   unchecked loop sees a constant. Tests that do not involve such an id (a flag parameter,
//!   `get_global_size(1) == 1`: the same for every row) are left alone;
//! - a uniform block parameter that every branch reaching its block (those translated, in a
//!   function without cycles: all of them) passes the same constant is that constant, so the
//!   branch on it becomes a jump (`vinst`).
//!
//! `OXCL_ASSUME=0` turns both off (for measurements).

use std::collections::HashSet;

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, InstBuilder};
use kir::{CmpOp, InstData, Value, WorkItemQuery};

use super::super::{ClValue, Translator, Unsupported};
use super::{blocks_in_cycles, Shape};

/// Whether `OXCL_ASSUME=0` turned the assumptions off.
fn assume_off() -> bool {
    std::env::var_os("OXCL_ASSUME").is_some_and(|v| v == "0")
}

impl Translator<'_, '_> {
    /// In the block before the unchecked loop, after `hoist_row_invariants`: branches to the
    /// checked loop unless every assumed test (module doc) holds, and defines the tests as
    /// their assumed values. Nothing for the checked loop (no fallback).
    pub(super) fn assume_row_tests(&mut self, order: &[kir::Block]) -> Result<(), Unsupported> {
        let fallback = self.vs().fallback;
        self.vs().fold = !assume_off() && blocks_in_cycles(self.func, order).is_empty();
        let Some(fallback) = fallback else {
            return Ok(());
        };
        if assume_off() {
            return Ok(());
        }
        let func = self.func;
        let mut from_ids: HashSet<Value> = HashSet::new();
        let mut tests = Vec::new();
        for &kb in order {
            for &inst in func.layout.insts(kb) {
                let Some(r) = func.dfg.inst_result(inst) else {
                    continue;
                };
                let data = func.dfg.inst(inst);
                // Ids that change from row to row (not sizes: `get_global_size(1) == 1` is the
                // same for the whole launch).
                let id = matches!(
                    data,
                    InstData::WorkItem {
                        query: WorkItemQuery::GlobalId
                            | WorkItemQuery::LocalId
                            | WorkItemQuery::GroupId,
                        ..
                    }
                );
                if id || data.operands().iter().any(|a| from_ids.contains(a)) {
                    from_ids.insert(r);
                }
                let InstData::Cmp { op, .. } = data else {
                    continue;
                };
                let assumed = match op {
                    CmpOp::IEq => false,
                    CmpOp::INe => true,
                    _ => continue,
                };
                if self.vs().hoisted.contains(&inst) && from_ids.contains(&r) {
                    tests.push((r, assumed));
                }
            }
        }
        if tests.is_empty() {
            return Ok(());
        }
        let mut ok = self.b.ins().iconst(types::I8, 1);
        for &(r, assumed) in &tests {
            let x = self.get1(r)?;
            let holds = self.b.ins().icmp_imm_s(IntCC::Equal, x, i64::from(assumed));
            ok = self.b.ins().band(ok, holds);
        }
        let cont = self.b.create_block();
        self.b.ins().brif(ok, cont, &[], fallback, &[]);
        self.b.switch_to_block(cont);
        for (r, assumed) in tests {
            let c = self.b.ins().iconst(types::I8, i64::from(assumed));
            self.vals[r.index()] = Some(vec![c]);
        }
        Ok(())
    }

    /// The constants a branch to `dest` passes to its uniform single-lane parameters (`None`
    /// for the others).
    fn edge_consts(&mut self, dest: &kir::BlockCall) -> Vec<Option<i64>> {
        let func = self.func;
        let params = func.dfg.block_params(dest.block).to_vec();
        let mut out = Vec::new();
        for (&p, &a) in params.iter().zip(&dest.args) {
            let c = match (self.shape(p), self.shape(a)) {
                (Shape::Uniform, Shape::Uniform | Shape::Unknown) => {
                    match self.vals[a.index()].as_deref() {
                        Some(&[x]) => self.known_const(x),
                        _ => None,
                    }
                }
                _ => None,
            };
            out.push(c);
        }
        out
    }

    /// Notes a branch to `dest` about to be translated (`vblock_call`).
    pub(super) fn note_edge(&mut self, dest: &kir::BlockCall) {
        if !self.vs().fold {
            return;
        }
        let consts = self.edge_consts(dest);
        self.vs().edges.entry(dest.block).or_default().push(consts);
    }

    /// Forgets a branch to `dest` noted but not emitted (a branch on a constant).
    pub(super) fn drop_edge(&mut self, dest: &kir::BlockCall) {
        if !self.vs().fold {
            return;
        }
        let consts = self.edge_consts(dest);
        if let Some(list) = self.vs().edges.get_mut(&dest.block) {
            if let Some(at) = list.iter().position(|c| *c == consts) {
                list.remove(at);
            }
        }
    }

    /// At the start of `kb`'s translation: its uniform parameters that every branch noted
    /// passes the same constant are that constant.
    pub(super) fn fold_const_params(&mut self, kb: kir::Block) {
        if !self.vs().fold {
            return;
        }
        let Some(list) = self.vs().edges.get(&kb).cloned() else {
            return;
        };
        let Some(first) = list.first() else {
            return;
        };
        let params = self.func.dfg.block_params(kb).to_vec();
        for (k, &p) in params.iter().enumerate() {
            let Some(Some(c)) = first.get(k).copied() else {
                continue;
            };
            if list.iter().any(|e| e.get(k).copied().flatten() != Some(c)) {
                continue;
            }
            if self.vs().dead.contains(&p) {
                continue;
            }
            let Some(&[x]) = self.vals[p.index()].as_deref() else {
                continue;
            };
            let ty = self.b.func.dfg.value_type(x);
            if !ty.is_int() {
                continue;
            }
            let c: ClValue = self.b.ins().iconst(ty, c);
            self.vals[p.index()] = Some(vec![c]);
        }
    }
}
