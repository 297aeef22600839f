//! Values computed again after a barrier instead of kept in the spill area: constants,
//! work-item queries, addresses of program-scope variables (`__local` arrays of the kernel
//! included) and integer conversions of those (`int lr = get_local_id(1)`). They are the
//! same before and after the barrier for every work-item, so the phase loops (scalar and
//! vectorised, which share the spill layout) neither store nor reload them: fewer words per
//! work-item at each barrier, and in the vectorised loop affine ids stay exact (no per-lane
//! variables and guards carried through the phase's loops).

use kir::{ConvertOp, InstData, Value, ValueDef};

use super::{Translator, Unsupported};

/// Most conversions between a value and its query.
const MAX_CONVERSIONS: usize = 3;

impl Translator<'_, '_> {
    /// When `v` is computed again after a barrier: its instructions, the query (or constant,
    /// or address) first and `v`'s own last.
    pub(super) fn remat_chain(&self, v: Value) -> Option<Vec<kir::Inst>> {
        let func = self.func;
        let mut chain = Vec::new();
        let mut x = v;
        for _ in 0..=MAX_CONVERSIONS {
            let ValueDef::Result(def) = func.dfg.value_def(x) else {
                return None;
            };
            chain.push(def);
            match func.dfg.inst(def) {
                InstData::Const { .. }
                | InstData::WorkItem { .. }
                | InstData::GlobalAddr { .. } => {
                    chain.reverse();
                    return Some(chain);
                }
                InstData::Convert {
                    op: ConvertOp::UConvert | ConvertOp::SConvert,
                    arg,
                    saturate: false,
                    ..
                } => x = *arg,
                _ => return None,
            }
        }
        None
    }

    /// Computes the values of `chain` (see `remat_chain`) again in the current block of the
    /// scalar phase loop; the values before the last keep their translation elsewhere.
    pub(super) fn remat_scalar(&mut self, chain: &[kir::Inst]) -> Result<(), Unsupported> {
        let saved = self.save_intermediates(chain);
        for &def in chain {
            self.inst(def)?;
        }
        self.restore_intermediates(saved);
        Ok(())
    }

    /// The translations of the values of `chain` before its last.
    pub(super) fn save_intermediates(
        &self,
        chain: &[kir::Inst],
    ) -> Vec<(Value, Option<Vec<super::ClValue>>)> {
        let n = chain.len().saturating_sub(1);
        chain[..n]
            .iter()
            .filter_map(|&i| self.func.dfg.inst_result(i))
            .map(|r| (r, self.vals.get(r.index()).cloned().flatten()))
            .collect()
    }

    pub(super) fn restore_intermediates(
        &mut self,
        saved: Vec<(Value, Option<Vec<super::ClValue>>)>,
    ) {
        for (r, x) in saved {
            if let Some(slot) = self.vals.get_mut(r.index()) {
                *slot = x;
            }
        }
    }
}
