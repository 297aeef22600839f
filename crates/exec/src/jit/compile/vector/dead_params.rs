//! Dead block parameters of the vectorised loop.
//!
//! Front ends keep a variable's last value in block parameters that nothing reads (in the
//! bench's `conv5`, the clamped coordinates of the previous filter tap go around both loops).
//! Such a parameter of an affine value would be varying (block parameters are never affine),
//! so every iteration would replay the instruction for each work-item only to pass lanes
//! nobody uses. A parameter is dead when its only uses are as branch arguments to dead
//! parameters; the vectorised loop gives it the shape uniform, no Cranelift parameter and no
//! arguments (its value, never read, is zeros made before the loop).

use std::collections::HashSet;

use cranelift_codegen::ir::{types, InstBuilder};
use kir::{Function, InstData, Value};

use super::super::{lanes_of, ClValue, Translator, Unsupported};

/// The dead block parameters of `func` whose lanes are scalar integers or floats (a varying
/// float is one `f32x4`, already computed, but passing it on around a loop keeps a register
/// busy: nbody's `dx`, `r2`, `inv` … made its loop spill).
pub(super) fn dead_params(func: &Function, order: &[kir::Block]) -> HashSet<Value> {
    // Values read by something else than a branch argument.
    let mut read = HashSet::new();
    // (parameter, argument) pairs of every branch.
    let mut flows = Vec::new();
    for &kb in order {
        for &inst in func.layout.insts(kb) {
            let data = func.dfg.inst(inst);
            match data {
                InstData::Jump { .. } => {}
                InstData::Brif { cond, .. } => {
                    read.insert(*cond);
                }
                InstData::Switch { value, .. } => {
                    read.insert(*value);
                }
                _ => {
                    read.extend(data.operands());
                    continue;
                }
            }
            for dest in data.branch_targets() {
                for (&p, &a) in func.dfg.block_params(dest.block).iter().zip(&dest.args) {
                    flows.push((p, a));
                }
            }
        }
    }
    // Live: read, or flowing into a live parameter.
    let mut live = read;
    loop {
        let mut changed = false;
        for &(p, a) in &flows {
            if live.contains(&p) && live.insert(a) {
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let entry = func.entry_block();
    order
        .iter()
        .filter(|&&kb| Some(kb) != entry)
        .flat_map(|&kb| func.dfg.block_params(kb).iter().copied())
        .filter(|p| !live.contains(p))
        .filter(|&p| {
            lanes_of(func.dfg.value_type(p)).is_ok_and(|lanes| {
                lanes
                    .iter()
                    .all(|&(cl, _)| cl.is_int() || cl == types::F32 || cl == types::F64)
            })
        })
        .collect()
}

impl Translator<'_, '_> {
    /// The branch arguments of the dead parameter `p` (see `dead_params`): none, its block
    /// has no Cranelift parameter for it (a zero passed around a loop would still take a
    /// register: nbody's loop spilled an accumulator).
    pub(super) fn dead_param_args(&mut self, p: Value) -> Option<Vec<ClValue>> {
        self.vec.as_ref()?.dead.contains(&p).then(Vec::new)
    }

    /// Binds the dead parameter `p` to zeros made in the current block (before the loop, so
    /// they dominate every use; nothing but branches to dead parameters reads them); returns
    /// whether `p` is dead.
    pub(super) fn bind_dead_param(&mut self, p: Value) -> Result<bool, Unsupported> {
        if !self.vec.as_ref().is_some_and(|v| v.dead.contains(&p)) {
            return Ok(false);
        }
        let lanes = lanes_of(self.ty(p))?;
        let zeros = lanes
            .iter()
            .map(|&(cl, _)| match cl {
                types::F32 => self.b.ins().f32const(0.0),
                types::F64 => self.b.ins().f64const(0.0),
                _ => self.b.ins().iconst(cl, 0),
            })
            .collect();
        self.vals[p.index()] = Some(zeros);
        Ok(true)
    }
}
