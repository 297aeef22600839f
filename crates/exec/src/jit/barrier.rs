//! Barriers by region splitting: what a kernel function must keep per work-item across each of
//! its barriers.
//!
//! A kernel whose work-group barriers all sit in the kernel function itself (none in the
//! functions it calls) is compiled as a resumable function `(ctx, resume, params…)`: at a
//! barrier it stores the kir values live after the barrier into the work-item's spill area
//! (`ItemCtx::spill`) and returns "stopped at barrier site s"; called again with `resume = s + 1`
//! it reloads them and continues after the barrier. The work-group driver (`jit::mod`) runs every
//! work-item up to the next barrier, checks they all stopped at the same one, and resumes them:
//! no coroutine, no stack switch, and only the live values are kept.

use kir::{Function, Inst, InstData, Value};

/// A set of kir values (a bit per value).
#[derive(Clone, PartialEq, Eq)]
struct ValueSet(Vec<u64>);

impl ValueSet {
    fn new(n: usize) -> ValueSet {
        ValueSet(vec![0; n.div_ceil(64)])
    }
    fn insert(&mut self, v: Value) {
        if let Some(w) = self.0.get_mut(v.index() / 64) {
            *w |= 1 << (v.index() % 64);
        }
    }
    fn remove(&mut self, v: Value) {
        if let Some(w) = self.0.get_mut(v.index() / 64) {
            *w &= !(1 << (v.index() % 64));
        }
    }
    fn union(&mut self, other: &ValueSet) {
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a |= *b;
        }
    }
    fn values(&self) -> Vec<Value> {
        let mut out = Vec::new();
        for (i, &w) in self.0.iter().enumerate() {
            let mut w = w;
            while w != 0 {
                let bit = w.trailing_zeros() as usize;
                out.push(Value::new(i * 64 + bit));
                w &= w - 1;
            }
        }
        out
    }
}

/// Whether `data` is a barrier the work-group driver must synchronise on.
pub fn is_group_barrier(data: &InstData) -> bool {
    matches!(
        data,
        InstData::Barrier { exec_scope, .. }
            if matches!(
                exec_scope,
                kir::Scope::Workgroup | kir::Scope::Device | kir::Scope::CrossDevice
            )
    )
}

/// For every group barrier of `func` (blocks in `order`, which holds every reachable block):
/// the values live just after it, in value order.
pub fn live_after_barriers(func: &Function, order: &[kir::Block]) -> Vec<(Inst, Vec<Value>)> {
    let n = func.dfg.num_values();
    let nb = func.dfg.num_blocks();
    let succs = |b: kir::Block| -> Vec<kir::Block> {
        func.terminator(b)
            .map(|t| {
                func.dfg
                    .inst(t)
                    .branch_targets()
                    .iter()
                    .map(|c| c.block)
                    .collect()
            })
            .unwrap_or_default()
    };
    // Backward transfer through a block: live-out → live-in.
    let transfer = |b: kir::Block,
                    live: &mut ValueSet,
                    mut at_barrier: Option<&mut Vec<(Inst, Vec<Value>)>>| {
        for &inst in func.layout.insts(b).iter().rev() {
            let data = func.dfg.inst(inst);
            if is_group_barrier(data) {
                if let Some(out) = at_barrier.as_deref_mut() {
                    out.push((inst, live.values()));
                }
            }
            if let Some(r) = func.dfg.inst_result(inst) {
                live.remove(r);
            }
            data.for_each_operand(|v| live.insert(v));
        }
        for &p in func.dfg.block_params(b) {
            live.remove(p);
        }
    };
    let mut live_in = vec![ValueSet::new(n); nb];
    let mut changed = true;
    while changed {
        changed = false;
        for &b in order.iter().rev() {
            let mut live = ValueSet::new(n);
            for s in succs(b) {
                if let Some(l) = live_in.get(s.index()) {
                    live.union(l);
                }
            }
            transfer(b, &mut live, None);
            if live_in[b.index()] != live {
                live_in[b.index()] = live;
                changed = true;
            }
        }
    }
    let mut out = Vec::new();
    for &b in order {
        let mut live = ValueSet::new(n);
        for s in succs(b) {
            if let Some(l) = live_in.get(s.index()) {
                live.union(l);
            }
        }
        transfer(b, &mut live, Some(&mut out));
    }
    out
}
