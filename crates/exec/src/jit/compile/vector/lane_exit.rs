//! Loop exits that differ between work-items, in the vectorised phase loop: a two-way branch
//! with a work-item-dependent condition inside a loop of a phase (pyopencl's reductions,
//! `for (s = 0; s < seq_count; ++s) { if (i >= stop) break; acc += x[i]; i += step; }`), when
//! no effect of the phase precedes it (nor follows it in the loop, since the loop comes back
//! to it).
//!
//! The condition must compare a row-affine value with a uniform one (the work-items then
//! disagree only in the iteration where the bound falls).
//!
//! The vectorised loop takes such a branch when the work-items of the iteration agree and
//! abandons the iteration (`PHASE_BAIL`) when they do not, as at a two-way branch outside
//! loops: nothing the iteration did is visible yet, so the scalar phase loop runs it again
//! from the phase's start. While the work-items agree they go round the loop together, so the
//! loop's own values keep their shapes (a counter stays uniform); only what comes after the
//! loop may differ between work-items in an iteration the scalar loop ran: the parameters of
//! the blocks reached from the loop's exits (up to the next barrier) are varying, and a
//! uniform value of the loop must not be used after it (its lanes would be work-item 0's).

use std::collections::HashSet;

use kir::{Function, InstData, Value, ValueDef};

use super::Shape;

/// The blocks of the phase cycle through `kb` (those reachable from `kb` that reach it back,
/// without passing a barrier).
fn cycle_of(
    kb: kir::Block,
    succs: &dyn Fn(kir::Block) -> Vec<kir::Block>,
    has_barrier: &dyn Fn(kir::Block) -> bool,
) -> HashSet<kir::Block> {
    let reach = |from: kir::Block| -> HashSet<kir::Block> {
        let mut seen = HashSet::new();
        let mut stack = succs(from);
        while let Some(x) = stack.pop() {
            if !has_barrier(x) && seen.insert(x) {
                stack.extend(succs(x));
            }
        }
        seen
    };
    let forward = reach(kb);
    let mut cycle: HashSet<kir::Block> = forward
        .iter()
        .copied()
        .filter(|&x| x == kb || reach(x).contains(&kb))
        .collect();
    cycle.insert(kb);
    cycle
}

/// For a work-item-dependent two-way branch in block `kb` on a phase cycle, reached before
/// any effect of the phase: the blocks from which the work-items of an iteration the scalar
/// loop ran may differ (the targets of the cycle's exits), or why the vectorised phase loop
/// cannot take the branch.
pub(super) fn exit_roots(
    func: &Function,
    kb: kir::Block,
    shapes: &[Shape],
    succs: &dyn Fn(kir::Block) -> Vec<kir::Block>,
    has_barrier: &dyn Fn(kir::Block) -> bool,
) -> Result<Vec<kir::Block>, String> {
    // Work-items disagree only where a row-affine value crosses a uniform bound (once per
    // work-item's range, not at every turn of a loop whose trip count differs per work-item).
    let crossing = func.terminator(kb).is_some_and(|t| match func.dfg.inst(t) {
        InstData::Brif { cond, .. } => match func.dfg.value_def(*cond) {
            ValueDef::Result(c) => match func.dfg.inst(c) {
                InstData::Cmp { a, b, .. } => matches!(
                    (shapes[a.index()], shapes[b.index()]),
                    (Shape::Affine(_), Shape::Uniform) | (Shape::Uniform, Shape::Affine(_))
                ),
                _ => false,
            },
            ValueDef::Param(..) => false,
        },
        _ => false,
    });
    if !crossing {
        return Err("a loop's branch depends on the work-item".into());
    }
    let cycle = cycle_of(kb, succs, has_barrier);
    let cycle_insts: HashSet<kir::Inst> = cycle
        .iter()
        .flat_map(|&b| func.layout.insts(b).iter().copied())
        .collect();
    let defined_in = |v: Value| match func.dfg.value_def(v) {
        ValueDef::Param(b, _) => cycle.contains(&b),
        ValueDef::Result(inst) => cycle_insts.contains(&inst),
    };
    let mut roots = Vec::new();
    for &b in &func.layout.blocks {
        let inside = cycle.contains(&b);
        for &inst in func.layout.insts(b) {
            let data = func.dfg.inst(inst);
            if !inside {
                for v in data.operands() {
                    let uniform = matches!(shapes[v.index()], Shape::Uniform | Shape::Unknown);
                    if uniform && defined_in(v) {
                        return Err("a uniform value of a loop with a work-item-dependent \
                                    exit is used after it"
                            .into());
                    }
                }
                continue;
            }
            for dest in data.branch_targets() {
                if !cycle.contains(&dest.block) && !roots.contains(&dest.block) {
                    roots.push(dest.block);
                }
            }
        }
    }
    Ok(roots)
}
