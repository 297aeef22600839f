//! Removal of dead pure instructions after lowering: constants materialized for initial values
//! that were never read, built-in vectors of which only one lane was used, unused stack slots,
//! and other side-effect-free instructions whose results nobody uses.

use crate::{Function, InstData};

/// Whether removing the instruction (when its result is unused) changes nothing observable.
fn is_pure(data: &InstData) -> bool {
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
            | InstData::StackAlloc { .. }
            | InstData::GlobalAddr { .. }
            | InstData::ExtractLane { .. }
            | InstData::InsertLane { .. }
            | InstData::ExtractLaneDyn { .. }
            | InstData::InsertLaneDyn { .. }
            | InstData::Shuffle { .. }
            | InstData::Splat { .. }
            | InstData::ExtractBytes { .. }
            | InstData::InsertBytes { .. }
            | InstData::WorkItem { .. }
            | InstData::WorkItemDyn { .. }
    )
}

/// Removes dead pure instructions from the layout until none is left.
pub(crate) fn remove_dead_code(func: &mut Function) {
    loop {
        let mut uses = vec![0u32; func.dfg.num_values()];
        for block in &func.layout.blocks {
            for inst in func.layout.insts(*block) {
                func.dfg.inst(*inst).for_each_operand(|v| {
                    if let Some(n) = uses.get_mut(v.index()) {
                        *n += 1;
                    }
                });
            }
        }
        let mut removed = false;
        let blocks = func.layout.blocks.clone();
        for block in blocks {
            let insts = func.layout.insts(block).to_vec();
            let kept: Vec<_> = insts
                .iter()
                .copied()
                .filter(|inst| {
                    let dead = is_pure(func.dfg.inst(*inst))
                        && func
                            .dfg
                            .inst_result(*inst)
                            .is_none_or(|v| uses.get(v.index()).copied().unwrap_or(0) == 0);
                    !dead
                })
                .collect();
            if kept.len() != insts.len() {
                removed = true;
                if let Some(slot) = func.layout.block_insts.get_mut(block.index()) {
                    *slot = kept;
                }
            }
        }
        if !removed {
            break;
        }
    }
}
