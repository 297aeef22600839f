//! The vectorised phase loop's side of `compile::remat`: values computed again after a
//! barrier (work-item queries, their integer conversions, constants, addresses of
//! program-scope variables) are translated again with their shapes in the resume block,
//! leaving the translations of the chain's intermediate values elsewhere as they were.

use std::collections::HashMap;

use kir::Value;

use super::super::{ClValue, Translator, Unsupported};
use super::Affine;

/// The vectorised translation of one value.
struct Saved {
    value: Value,
    scalar: Option<Vec<ClValue>>,
    varying: Option<Vec<Vec<ClValue>>>,
    affine: Option<Affine>,
    simd: Option<Vec<ClValue>>,
    memo: HashMap<(Value, usize), Vec<ClValue>>,
}

impl Translator<'_, '_> {
    /// Translates `chain` (see `remat_chain`) again in the current block and defines the
    /// variables of its values.
    pub(in crate::jit::compile) fn vec_remat(
        &mut self,
        chain: &[kir::Inst],
    ) -> Result<(), Unsupported> {
        let n = chain.len().saturating_sub(1);
        let mut saved = Vec::new();
        for &i in &chain[..n] {
            let Some(r) = self.func.dfg.inst_result(i) else {
                continue;
            };
            let scalar = self.vals.get(r.index()).cloned().flatten();
            let vs = self.vs();
            saved.push(Saved {
                value: r,
                scalar,
                varying: vs.varying.get(&r).cloned(),
                affine: vs.affine.get(&r).cloned(),
                simd: vs.simd.get(&r).cloned(),
                memo: vs
                    .memo
                    .iter()
                    .filter(|(k, _)| k.0 == r)
                    .map(|(k, x)| (*k, x.clone()))
                    .collect(),
            });
        }
        for &def in chain {
            self.vinst(def)?;
            if let Some(r) = self.func.dfg.inst_result(def) {
                self.def_kept(r)?;
            }
        }
        for s in saved {
            let r = s.value;
            if let Some(slot) = self.vals.get_mut(r.index()) {
                *slot = s.scalar;
            }
            let vs = self.vs();
            restore(&mut vs.varying, r, s.varying);
            restore(&mut vs.affine, r, s.affine);
            restore(&mut vs.simd, r, s.simd);
            vs.memo.retain(|k, _| k.0 != r);
            vs.memo.extend(s.memo);
        }
        Ok(())
    }
}

fn restore<T>(map: &mut HashMap<Value, T>, v: Value, x: Option<T>) {
    match x {
        Some(x) => {
            map.insert(v, x);
        }
        None => {
            map.remove(&v);
        }
    }
}
