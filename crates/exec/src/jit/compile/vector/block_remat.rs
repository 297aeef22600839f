//! Values computed again after a barrier (`compile::remat`: constants, work-item queries,
//! their integer conversions, addresses of program-scope variables) translated at the start
//! of every block of the vectorised phase loop that reads them, instead of kept in variables.
//!
//! With variables, Cranelift joins the value's definition on the kernel's path with the one
//! made at each resume block in a block parameter of every block where the paths meet (the
//! header of sgemm_tiled's tile loop got one per lane of `get_local_id(0)`, of
//! `get_global_id(0)`, of their guards and of the constants: 19 parameters, moved and spilled
//! at every iteration). The values are pure functions of the iteration's first work-item and
//! of constants, so each block that reads them translates them again (a few `lea`s, which
//! Cranelift merges where one dominates another) and nothing crosses a block boundary.
//! `OXCL_BLOCK_REMAT=0` turns it off.

use std::collections::{HashMap, HashSet};

use kir::{Function, Value, ValueDef};

use super::super::{Translator, Unsupported};
use super::Shape;
use crate::jit::barrier::is_group_barrier;

/// Whether the values are translated per block (`OXCL_BLOCK_REMAT=0` keeps them in
/// variables, for comparisons).
fn enabled() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var("OXCL_BLOCK_REMAT").map_or(true, |v| v != "0"))
}

/// Per block: the chains (`remat_chain`) of the values its code reads before its first
/// barrier without defining them, directly or through the replay of an affine value.
pub(in crate::jit::compile) type BlockRemats = HashMap<kir::Block, Vec<Vec<kir::Inst>>>;

impl Translator<'_, '_> {
    /// Takes the variables of the values live across barriers that are computed again after
    /// them (see the module doc) and returns, per block, what it translates at its start.
    /// Call after `prepare_resumable`, before the kept values are chosen.
    pub(in crate::jit::compile) fn take_block_remats(
        &mut self,
        order: &[kir::Block],
    ) -> BlockRemats {
        let func = self.func;
        if !enabled() {
            return HashMap::new();
        }
        let mut chains: HashMap<Value, Vec<kir::Inst>> = HashMap::new();
        for i in 0..func.dfg.num_values() {
            let v = Value::new(i);
            let has_vars = self
                .resumable
                .as_ref()
                .and_then(|r| r.vars.get(i))
                .is_some_and(|x| !x.is_empty());
            if !has_vars {
                continue;
            }
            if let Some(chain) = self.remat_chain(v) {
                chains.insert(v, chain);
            }
        }
        if let Some(r) = self.resumable.as_mut() {
            for v in chains.keys() {
                r.vars[v.index()] = Vec::new();
            }
        }
        let shape = |v: Value| match self.vec.as_ref().map(|s| s.shapes[v.index()]) {
            Some(Shape::Affine(s)) => Shape::Affine(s),
            _ => Shape::Uniform,
        };
        let mut out = HashMap::new();
        for &kb in order {
            let need = read_before_barrier(func, kb, &chains, &shape);
            let list: Vec<Vec<kir::Inst>> =
                need.iter().filter_map(|v| chains.get(v).cloned()).collect();
            out.insert(kb, list);
        }
        out
    }

    /// Translates the chains of `block`'s entry in `remats` in the current block.
    pub(in crate::jit::compile) fn block_remat(
        &mut self,
        remats: &BlockRemats,
        block: kir::Block,
    ) -> Result<(), Unsupported> {
        for chain in remats.get(&block).map(Vec::as_slice).unwrap_or_default() {
            self.vec_remat(chain)?;
        }
        Ok(())
    }
}

/// The values of `chains` that `kb` reads up to its first barrier without defining them
/// (following the operands of affine values defined elsewhere, which are replayed), in
/// value order.
fn read_before_barrier(
    func: &Function,
    kb: kir::Block,
    chains: &HashMap<Value, Vec<kir::Inst>>,
    shape: &impl Fn(Value) -> Shape,
) -> Vec<Value> {
    let mut defined: HashSet<Value> = func.dfg.block_params(kb).iter().copied().collect();
    let mut stack = Vec::new();
    for &inst in func.layout.insts(kb) {
        let data = func.dfg.inst(inst);
        if is_group_barrier(data) {
            break;
        }
        for a in data.operands() {
            if !defined.contains(&a) {
                stack.push(a);
            }
        }
        if let Some(r) = func.dfg.inst_result(inst) {
            defined.insert(r);
        }
    }
    let mut seen: HashSet<Value> = HashSet::new();
    let mut need = Vec::new();
    while let Some(v) = stack.pop() {
        if !seen.insert(v) {
            continue;
        }
        if chains.contains_key(&v) {
            need.push(v);
            continue;
        }
        if matches!(shape(v), Shape::Affine(_)) {
            if let ValueDef::Result(def) = func.dfg.value_def(v) {
                stack.extend(func.dfg.inst(def).operands());
            }
        }
    }
    need.sort_by_key(|v| v.index());
    need
}
