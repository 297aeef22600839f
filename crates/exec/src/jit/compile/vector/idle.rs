//! Idle work-items of a phase: in `for (s = n / 2; s > 0; s >>= 1) { if (lid < s) ...;
//! barrier(...); }` most work-items of a row only reach the barrier. When a phase's two-way
//! branch compares a work-item id that grows along the row (`local_id(0)`,
//! `local_linear_id`, `global_id(0)`, `global_linear_id`) with a row-uniform bound, and its
//! edge towards a barrier (or the kernel's end) is taken by a work-item in a way that every
//! later work-item of the row takes it too (`lid < s` false: every later id is also `>= s`;
//! `lid == s` false with `lid > s`), the phase loops (`kir_phase`, `kir_phase_vec`) stop after
//! that work-item (iteration) and return `PHASE_IDLE`; the group driver (`jit::vec_phase`)
//! gives the rest of the row the stop and the spill words of the last work-item run.
//!
//! That is exact when the rest of the row would have done nothing else: every path from a
//! resume point of the phase to the branch runs only instructions without effects that
//! cannot fail, branches only on row-uniform values, the idle edge goes straight to a block
//! that starts with the barrier (or returns) and passes no arguments, and the values that
//! barrier keeps are parameters, rematerialised ids and constants, or row-uniform values
//! computed without memory reads (so every work-item of the row spills the same words).
//! "Row-uniform" is the vectorised phase loop's `Uniform` shape (`phase::analyse_phase`);
//! kernels it rejects get no idle guards.

use std::collections::{HashMap, HashSet};

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, InstBuilder, MemFlagsData};
use kir::{CmpOp, ConvertOp, Function, InstData, Type, Value, ValueDef, WorkItemQuery};

use super::super::{bargs, rpo, Translator, Unsupported};
use super::{Shape, WIDTH};
use crate::jit::barrier::is_group_barrier;
use crate::jit::rt;

/// Status of a phase loop that ran a row up to a work-item after which the whole row is idle
/// (`ItemCtx::resolved`: the first work-item not run in the low 32 bits, the row's stop in
/// the high ones). Distinct from every stop and from `PHASE_BAIL`.
pub const PHASE_IDLE: i32 = i32::MIN + 1;

/// A branch after which the rest of the row may be idle.
#[derive(Clone, Copy, Debug)]
pub(in crate::jit::compile) struct IdleGuard {
    /// The work-item id growing along the row.
    id: Value,
    /// The row-uniform bound it is compared with.
    bound: Value,
    /// Whether the idle edge is the `then` edge (otherwise the `else` edge).
    idle_then: bool,
    /// Whether the rest of the row is idle only when `id > bound` (`==`, `!=`).
    needs_above: bool,
    /// The barrier the idle edge reaches (`None`: the kernel's end).
    barrier: Option<kir::Inst>,
}

/// The idle guards of a kernel function and the values known to be the same for every
/// work-item of a row.
#[derive(Default)]
pub(in crate::jit::compile) struct IdleGuards {
    guards: HashMap<kir::Inst, IdleGuard>,
    row_uniform: Vec<bool>,
}

impl IdleGuards {
    pub(in crate::jit::compile) fn is_empty(&self) -> bool {
        self.guards.is_empty()
    }
}

/// Whether `data` has no effect and cannot fail (division by zero gives 0 in both engines).
fn pure(data: &InstData) -> bool {
    matches!(
        data,
        InstData::Const { .. }
            | InstData::Unary { .. }
            | InstData::Binary { .. }
            | InstData::Cmp { .. }
            | InstData::Test { .. }
            | InstData::Reduce { .. }
            | InstData::Select { .. }
            | InstData::Convert { .. }
            | InstData::PtrAdd { .. }
            | InstData::ExtractLane { .. }
            | InstData::InsertLane { .. }
            | InstData::Shuffle { .. }
            | InstData::Splat { .. }
            | InstData::ExtractBytes { .. }
            | InstData::InsertBytes { .. }
            | InstData::WorkItem { .. }
    )
}

/// Per value: whether it may depend on memory or a call (not computed from parameters,
/// constants and work-item queries by pure instructions only).
fn from_memory(func: &Function, order: &[kir::Block]) -> Vec<bool> {
    let mut tainted = vec![false; func.dfg.num_values()];
    loop {
        let mut changed = false;
        for &kb in order {
            for &inst in func.layout.insts(kb) {
                let data = func.dfg.inst(inst);
                for dest in data.branch_targets() {
                    for (&p, &a) in func.dfg.block_params(dest.block).iter().zip(&dest.args) {
                        if tainted[a.index()] && !tainted[p.index()] {
                            tainted[p.index()] = true;
                            changed = true;
                        }
                    }
                }
                let Some(r) = func.dfg.inst_result(inst) else {
                    continue;
                };
                let t = !pure(data) || data.operands().iter().any(|a| tainted[a.index()]);
                if t && !tainted[r.index()] {
                    tainted[r.index()] = true;
                    changed = true;
                }
            }
        }
        if !changed {
            return tainted;
        }
    }
}

/// Whether `v` is a work-item id that grows by one along a row: local ids converted to at
/// least 32 bits (local sizes are far below 2^31), global ids as they are.
fn growing_id(func: &Function, v: Value) -> bool {
    let ValueDef::Result(def) = func.dfg.value_def(v) else {
        return false;
    };
    match func.dfg.inst(def) {
        InstData::WorkItem { query, dim } => matches!(
            (query, dim),
            (WorkItemQuery::LocalId, 0)
                | (WorkItemQuery::LocalLinearId, _)
                | (WorkItemQuery::GlobalId, 0)
                | (WorkItemQuery::GlobalLinearId, _)
        ),
        InstData::Convert { op, arg, .. } => {
            matches!(
                op,
                ConvertOp::UConvert | ConvertOp::SConvert | ConvertOp::UToS | ConvertOp::SToU
            ) && matches!(func.dfg.value_type(v), Type::I32 | Type::I64)
                && growing_local_id(func, *arg)
        }
        _ => false,
    }
}

fn growing_local_id(func: &Function, v: Value) -> bool {
    let ValueDef::Result(def) = func.dfg.value_def(v) else {
        return false;
    };
    match func.dfg.inst(def) {
        InstData::WorkItem { query, dim } => matches!(
            (query, dim),
            (WorkItemQuery::LocalId, 0) | (WorkItemQuery::LocalLinearId, _)
        ),
        InstData::Convert { op, arg, .. } => {
            matches!(
                op,
                ConvertOp::UConvert | ConvertOp::SConvert | ConvertOp::UToS | ConvertOp::SToU
            ) && matches!(func.dfg.value_type(v), Type::I32 | Type::I64)
                && growing_local_id(func, *arg)
        }
        _ => false,
    }
}

/// `op` with its operands swapped.
fn swapped(op: CmpOp) -> Option<CmpOp> {
    Some(match op {
        CmpOp::IEq => CmpOp::IEq,
        CmpOp::INe => CmpOp::INe,
        CmpOp::ULt => CmpOp::UGt,
        CmpOp::ULe => CmpOp::UGe,
        CmpOp::UGt => CmpOp::ULt,
        CmpOp::UGe => CmpOp::ULe,
        CmpOp::SLt => CmpOp::SGt,
        CmpOp::SLe => CmpOp::SGe,
        CmpOp::SGt => CmpOp::SLt,
        CmpOp::SGe => CmpOp::SLe,
        _ => return None,
    })
}

/// The kernel function's idle guards (see the module doc).
pub(in crate::jit::compile) fn find_idle_guards(func: &Function) -> IdleGuards {
    let Some(entry) = func.entry_block() else {
        return IdleGuards::default();
    };
    let order = rpo(func, entry);
    let Ok(analysis) = super::phase::analyse_phase(func, &order) else {
        return IdleGuards::default();
    };
    let memory = from_memory(func, &order);
    let row_uniform: Vec<bool> = (0..func.dfg.num_values())
        .map(|i| analysis.shapes[i] == Shape::Uniform && !memory[i])
        .collect();
    let uniform = |v: Value| row_uniform[v.index()];
    let mut preds: HashMap<kir::Block, Vec<kir::Block>> = HashMap::new();
    for &kb in &order {
        for &inst in func.layout.insts(kb) {
            for dest in func.dfg.inst(inst).branch_targets() {
                preds.entry(dest.block).or_default().push(kb);
            }
        }
    }
    // Whether the code of `kb` in the phase (after its last barrier, if any) is pure and
    // branches only on row-uniform values; and whether it starts the phase (has a barrier).
    let phase_code = |kb: kir::Block, upto_last: bool| -> (bool, bool) {
        let insts = func.layout.insts(kb);
        let start = insts
            .iter()
            .rposition(|&i| is_group_barrier(func.dfg.inst(i)))
            .map_or(0, |p| p + 1);
        let end = if upto_last {
            insts.len().saturating_sub(1)
        } else {
            insts.len()
        };
        let ok = insts[start.min(end)..end].iter().all(|&i| {
            let data = func.dfg.inst(i);
            match data {
                InstData::Jump { .. } => true,
                InstData::Brif { cond, .. } => uniform(*cond),
                InstData::Switch { value, .. } => uniform(*value),
                _ => pure(data),
            }
        });
        (ok, start > 0)
    };
    let mut guards = HashMap::new();
    for &kb in &order {
        let Some(&term) = func.layout.insts(kb).last() else {
            continue;
        };
        let InstData::Brif {
            cond,
            then_dest,
            else_dest,
        } = func.dfg.inst(term)
        else {
            continue;
        };
        let ValueDef::Result(cdef) = func.dfg.value_def(*cond) else {
            continue;
        };
        let InstData::Cmp { op, a, b } = func.dfg.inst(cdef) else {
            continue;
        };
        let (id, bound, op) = if growing_id(func, *a) && uniform(*b) {
            (*a, *b, *op)
        } else if growing_id(func, *b) && uniform(*a) {
            match swapped(*op) {
                Some(op) => (*b, *a, op),
                None => continue,
            }
        } else {
            continue;
        };
        let (idle_then, needs_above) = match op {
            CmpOp::ULt | CmpOp::ULe | CmpOp::SLt | CmpOp::SLe => (false, false),
            CmpOp::UGt | CmpOp::UGe | CmpOp::SGt | CmpOp::SGe => (true, false),
            CmpOp::IEq => (false, true),
            CmpOp::INe => (true, true),
            _ => continue,
        };
        let dest = if idle_then { then_dest } else { else_dest };
        if !dest.args.is_empty() || !func.dfg.block_params(dest.block).is_empty() {
            continue;
        }
        let Some(&first) = func.layout.insts(dest.block).first() else {
            continue;
        };
        let barrier = match func.dfg.inst(first) {
            d if is_group_barrier(d) => Some(first),
            InstData::Return { .. } => None,
            _ => continue,
        };
        // Every path from a resume point (or the kernel's start) to the branch.
        let (ok, starts) = phase_code(kb, true);
        if !ok {
            continue;
        }
        let mut seen: HashSet<kir::Block> = HashSet::from([kb]);
        let mut stack: Vec<kir::Block> = if starts {
            Vec::new()
        } else {
            preds.get(&kb).cloned().unwrap_or_default()
        };
        let mut clean = true;
        while let Some(p) = stack.pop() {
            if !seen.insert(p) {
                continue;
            }
            let (ok, starts) = phase_code(p, false);
            if !ok {
                clean = false;
                break;
            }
            if !starts {
                stack.extend(preds.get(&p).cloned().unwrap_or_default());
            }
        }
        if clean {
            guards.insert(
                term,
                IdleGuard {
                    id,
                    bound,
                    idle_then,
                    needs_above,
                    barrier,
                },
            );
        }
    }
    IdleGuards {
        guards,
        row_uniform,
    }
}

impl Translator<'_, '_> {
    /// The idle guard of branch `inst` when the values its barrier keeps allow it.
    fn idle_guard(&self, inst: kir::Inst) -> Option<IdleGuard> {
        let phase = self.phase.as_ref()?;
        phase.skip?;
        let g = *phase.idle.guards.get(&inst)?;
        if let Some(barrier) = g.barrier {
            let live = self.resumable.as_ref()?.live.get(&barrier)?;
            let same = live.iter().all(|&v| {
                self.remat_chain(v).is_some()
                    || self.param_lanes(v).is_some()
                    || phase.idle.row_uniform[v.index()]
            });
            if !same {
                return None;
            }
        }
        Some(g)
    }

    /// The scalar phase loop's branch `inst` when it is an idle guard: the idle edge marks the
    /// rest of the row idle (when it is) before going on. Returns whether it translated it.
    pub(in crate::jit::compile) fn idle_brif(
        &mut self,
        inst: kir::Inst,
    ) -> Result<bool, Unsupported> {
        let Some(g) = self.idle_guard(inst) else {
            return Ok(false);
        };
        let InstData::Brif {
            cond,
            then_dest,
            else_dest,
        } = self.func.dfg.inst(inst)
        else {
            return Ok(false);
        };
        let c = self.get1(*cond)?;
        let (t, targs) = self.block_call(then_dest)?;
        let (e, eargs) = self.block_call(else_dest)?;
        let mark = self.b.create_block();
        if g.idle_then {
            self.b.ins().brif(c, mark, &[], e, &eargs);
        } else {
            self.b.ins().brif(c, t, &targs, mark, &[]);
        }
        self.b.switch_to_block(mark);
        let id = self.get1(g.id)?;
        self.mark_idle(g, id)?;
        let (dest, args) = if g.idle_then { (t, targs) } else { (e, eargs) };
        self.b.ins().jump(dest, &args);
        Ok(true)
    }

    /// The vectorised phase loop's branch `inst` when it is an idle guard (the iteration goes
    /// one way together or is abandoned, as any varying branch). Returns whether it
    /// translated it.
    pub(in crate::jit::compile) fn vec_idle_brif(
        &mut self,
        inst: kir::Inst,
    ) -> Result<bool, Unsupported> {
        let Some(g) = self.idle_guard(inst) else {
            return Ok(false);
        };
        let InstData::Brif {
            cond,
            then_dest,
            else_dest,
        } = self.func.dfg.inst(inst)
        else {
            return Ok(false);
        };
        if self.shape(*cond) == Shape::Uniform || self.shape(g.id) == Shape::Uniform {
            return Ok(false);
        }
        let (t, targs) = self.vblock_call(then_dest)?;
        let (e, eargs) = self.vblock_call(else_dest)?;
        let mut all = self.lane(*cond, 0)?[0];
        let mut any = all;
        for j in 1..WIDTH {
            let c = self.lane(*cond, j)?[0];
            all = self.b.ins().band(all, c);
            any = self.b.ins().bor(any, c);
        }
        let mark = self.b.create_block();
        let mixed = self.b.create_block();
        let (bail, zero) = (self.vs().bail, self.iconst32(0));
        if g.idle_then {
            self.b.ins().brif(all, mark, &[], mixed, &[]);
            self.b.switch_to_block(mixed);
            self.b.ins().brif(any, bail, &bargs(&[zero]), e, &eargs);
        } else {
            self.b.ins().brif(all, t, &targs, mixed, &[]);
            self.b.switch_to_block(mixed);
            self.b.ins().brif(any, bail, &bargs(&[zero]), mark, &[]);
        }
        self.b.switch_to_block(mark);
        // The iteration's last work-item has the largest id.
        let id = self.lane(g.id, WIDTH - 1)?[0];
        self.mark_idle(g, id)?;
        let (dest, args) = if g.idle_then { (t, targs) } else { (e, eargs) };
        self.b.ins().jump(dest, &args);
        Ok(true)
    }

    /// On the idle edge of `g`, with `id` the largest id of the work-items taking it: sets
    /// the loop's idle flag when every later work-item of the row takes it too.
    fn mark_idle(
        &mut self,
        g: IdleGuard,
        id: cranelift_codegen::ir::Value,
    ) -> Result<(), Unsupported> {
        let skip = self
            .phase
            .as_ref()
            .and_then(|p| p.skip)
            .ok_or("idle guard without a flag")?;
        let flag = if g.needs_above {
            let bound = self.get1(g.bound)?;
            self.b.ins().icmp(IntCC::UnsignedGreaterThan, id, bound)
        } else {
            self.b.ins().iconst(types::I8, 1)
        };
        self.b.def_var(skip, flag);
        Ok(())
    }

    /// In the latch of a phase loop with idle guards, after the iteration at `i` (of `step`
    /// work-items) with the row's stop `row_stop`: returns `PHASE_IDLE` when the iteration
    /// marked the rest of the row idle, otherwise goes on at `next`.
    pub(in crate::jit::compile) fn idle_exit(
        &mut self,
        i: cranelift_codegen::ir::Value,
        step: i64,
        row_stop: cranelift_codegen::ir::Value,
        next: cranelift_codegen::ir::Block,
    ) {
        let Some(skip) = self.phase.as_ref().and_then(|p| p.skip) else {
            self.b.ins().jump(next, &[]);
            return;
        };
        let flag = self.b.use_var(skip);
        let exit = self.b.create_block();
        self.b.ins().brif(flag, exit, &[], next, &[]);
        self.b.switch_to_block(exit);
        let after = self.b.ins().iadd_imm_s(i, step);
        let stop = self.b.ins().uextend(types::I64, row_stop);
        let high = self.b.ins().ishl_imm_u(stop, 32);
        let at = self.b.ins().bor(high, after);
        self.b
            .ins()
            .store(MemFlagsData::trusted(), at, self.ctx, rt::OFF_RESOLVED);
        let code = self.b.ins().iconst(types::I32, i64::from(PHASE_IDLE));
        self.b.ins().return_(&[code]);
    }

    /// Declares the idle flag of a phase loop when the kernel has idle guards, defined as
    /// clear in the current block.
    pub(in crate::jit::compile) fn declare_idle_flag(&mut self) {
        let guards = find_idle_guards(self.func);
        if guards.is_empty() || std::env::var("OXCL_IDLE").is_ok_and(|v| v == "0") {
            return;
        }
        let skip = self.b.declare_var(types::I8);
        if let Some(p) = self.phase.as_mut() {
            p.idle = guards;
            p.skip = Some(skip);
        }
    }

    /// Clears the idle flag (at the start of each iteration).
    pub(in crate::jit::compile) fn clear_idle_flag(&mut self) {
        if let Some(skip) = self.phase.as_ref().and_then(|p| p.skip) {
            let zero = self.b.ins().iconst(types::I8, 0);
            self.b.def_var(skip, zero);
        }
    }
}
