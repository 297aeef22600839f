//! Phases the vectorised phase loop hands to the scalar one: a phase with a
//! work-item-dependent two-way branch after an effect of the phase (pyopencl's reductions end
//! with `if (lid < 1) ldata[lid] = …; if (lid == 0) out[group] = ldata[0];`, the last step of
//! the tree and the result's store without a barrier between) cannot abandon an iteration
//! there. Such a phase no longer keeps the whole kernel off the vectorised phase loop: the
//! loop, called for a row from a resume point whose phase reaches such a branch, calls the
//! scalar phase loop for the whole row and returns its status (`delegate_scalar_phases`), so
//! both report the same stops and spill the same words; the other phases run vectorised. Past
//! the row's first iteration (`start` > 0, after an abandoned one) it abandons the iteration
//! instead. The blocks after the branch still count as reached by diverged work-items (the
//! analysis makes their parameters varying).

use std::collections::HashSet;

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, InstBuilder, MemFlagsData};
use cranelift_module::{FuncOrDataId, Module as _};
use kir::{Function, InstData};

use super::super::{rpo, ClValue, Translator, Unsupported};
use super::{has_effect, Shape};
use crate::jit::barrier::is_group_barrier;
use crate::jit::rt::{self, SiteKind};

/// Whether such phases may be handed to the scalar loop (`OXCL_SCALAR_PHASES=0`: the kernel
/// is not vectorised, as before).
pub(super) fn enabled() -> bool {
    !std::env::var("OXCL_SCALAR_PHASES").is_ok_and(|v| v == "0")
}

/// The blocks ending in a work-item-dependent two-way branch after an effect of the phase.
fn late_branches(
    func: &Function,
    order: &[kir::Block],
    shapes: &[Shape],
    before: &std::collections::HashMap<kir::Block, bool>,
) -> HashSet<kir::Block> {
    let mut out = HashSet::new();
    for &kb in order {
        let mut effect = before.get(&kb).copied().unwrap_or(true);
        for &inst in func.layout.insts(kb) {
            let data = func.dfg.inst(inst);
            if is_group_barrier(data) {
                effect = false;
                continue;
            }
            if let InstData::Brif { cond, .. } = data {
                let varying = !matches!(shapes[cond.index()], Shape::Uniform | Shape::Unknown);
                if varying && effect {
                    out.insert(kb);
                }
            }
            effect |= has_effect(func, data);
        }
    }
    out
}

/// Whether a late branch is reached from instruction `at` of block `kb` before a barrier.
fn reaches(func: &Function, kb: kir::Block, at: usize, late: &HashSet<kir::Block>) -> bool {
    let mut seen = HashSet::new();
    let mut stack = vec![(kb, at)];
    while let Some((b, from)) = stack.pop() {
        let insts = func.layout.insts(b);
        let mut stopped = false;
        for &inst in insts.iter().skip(from) {
            if is_group_barrier(func.dfg.inst(inst)) {
                stopped = true;
                break;
            }
        }
        if stopped {
            continue;
        }
        if late.contains(&b) {
            return true;
        }
        for &inst in insts.iter().skip(from) {
            for d in func.dfg.inst(inst).branch_targets() {
                if seen.insert(d.block) {
                    stack.push((d.block, 0));
                }
            }
        }
    }
    false
}

impl Translator<'_, '_> {
    /// In the vectorised phase loop's first block: when `resume` starts a phase reaching a
    /// late branch, runs the row on the scalar phase loop (`start` = 0) or abandons the
    /// iteration at `start`.
    pub(in crate::jit::compile) fn delegate_scalar_phases(
        &mut self,
        (ctx, n, resume): (ClValue, ClValue, ClValue),
        (from, stop0): (ClValue, ClValue),
    ) -> Result<(), Unsupported> {
        let func = self.func;
        let entry = func.entry_block().ok_or("function without a body")?;
        let order = &rpo(func, entry);
        let before = super::phase::phase_effects_before(func, order);
        let late = late_branches(func, order, &self.vs().shapes, &before);
        if late.is_empty() {
            return Ok(());
        }
        let mut resumes: Vec<i64> = Vec::new();
        if reaches(func, entry, 0, &late) {
            resumes.push(0);
        }
        let f = self.func_index;
        for &kb in order {
            for (k, &inst) in func.layout.insts(kb).iter().enumerate() {
                if !is_group_barrier(func.dfg.inst(inst)) || !reaches(func, kb, k + 1, &late) {
                    continue;
                }
                let site = self
                    .sites
                    .iter()
                    .rposition(|s| {
                        s.func == f && s.inst == inst && matches!(s.kind, SiteKind::Barrier)
                    })
                    .ok_or("barrier without a site of the scalar phase loop")?;
                resumes.push(site as i64 + 1);
            }
        }
        if resumes.is_empty() {
            return Ok(());
        }
        // A specialised copy hands the row to the scalar copy of its resume point (the
        // generic loop is not compiled then).
        let twin = self.phase.as_ref().and_then(|p| p.scalar_twin);
        let scalar = match (twin, self.m.get_name("kir_phase")) {
            (Some(id), _) | (None, Some(FuncOrDataId::Func(id))) => id,
            _ => return Err("no scalar phase loop".into()),
        };
        let mut hand = self.b.ins().iconst(types::I8, 0);
        for r in resumes {
            let is = self.b.ins().icmp_imm_u(IntCC::Equal, resume, r);
            hand = self.b.ins().bor(hand, is);
        }
        let go = self.b.create_block();
        let handed = self.b.create_block();
        self.b.set_cold_block(handed);
        self.b.ins().brif(hand, handed, &[], go, &[]);
        self.b.switch_to_block(handed);
        let whole = self.b.create_block();
        let bail = self.b.create_block();
        self.b.ins().brif(from, bail, &[], whole, &[]);
        // The whole row: the scalar phase loop's status.
        self.b.switch_to_block(whole);
        let callee = self.m.declare_func_in_func(scalar, self.b.func);
        let call = self.b.ins().call(callee, &[ctx, n, resume]);
        let status = self.b.inst_results(call)[0];
        self.b.ins().return_(&[status]);
        // Past the first iteration: abandon it (the iteration's first work-item, the row's
        // stop so far).
        self.b.switch_to_block(bail);
        let stop = self.b.ins().uextend(types::I64, stop0);
        let high = self.b.ins().ishl_imm_u(stop, 32);
        let at = self.b.ins().bor(high, from);
        self.b
            .ins()
            .store(MemFlagsData::trusted(), at, ctx, rt::OFF_RESOLVED);
        let code = self
            .b
            .ins()
            .iconst(types::I32, i64::from(super::phase::PHASE_BAIL));
        self.b.ins().return_(&[code]);
        self.b.switch_to_block(go);
        Ok(())
    }
}
