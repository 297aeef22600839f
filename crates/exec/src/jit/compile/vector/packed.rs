//! Vector forms of varying `float` values made where they are defined.
//!
//! A varying `f32` value that no `f32x4` instruction produced (a lane of a varying `float4`
//! load, say: nbody's `p.x`) is kept as one scalar per work-item. Its `f32x4` form used to be
//! packed in every block that used it (the memo is per block), so a loop using a value defined
//! before it rebuilt the vector at every iteration (and kept the four scalars alive across the
//! loop, spilled). Packing once, right after the definition, gives the loop a loop-invariant
//! vector; an unused pack is pure and removed by Cranelift.

use kir::{Type, Value};

use super::super::{Translator, Unsupported};
use super::WIDTH;

impl Translator<'_, '_> {
    /// Records the `f32x4` form of varying scalar `float` value `r`, just translated as one
    /// scalar per work-item, beside those scalars.
    pub(super) fn pack_varying_f32(&mut self, r: Value) -> Result<(), Unsupported> {
        // An older entry is from another copy of the loop (`translate_vec` translates the
        // function twice): replaced.
        if self.ty(r) != Type::F32 {
            return Ok(());
        }
        let Some(per) = self.vs().varying.get(&r).cloned() else {
            return Ok(());
        };
        if per.len() != WIDTH || per.iter().any(|l| l.len() != 1) {
            return Ok(());
        }
        let lanes: Vec<_> = per.iter().map(|l| l[0]).collect();
        let x = self.simd_pack(r, &lanes)?;
        self.vs().simd.insert(r, vec![x]);
        Ok(())
    }
}
