//! Vector forms of varying `float` values made where they are defined.
//!
//! A varying `float` (or `floatn`) value that no `f32x4` instruction produced (a varying
//! `float4` load, say: nbody's `p = pos[i]`) is kept as one scalar per lane and work-item. Its
//! `f32x4` form (one vector per lane) used to be packed in every block that used it (the memo
//! is per block), and `p.x` was extracted lane by lane where the source reads it, so a loop
//! reading `p.x` rebuilt the vector at every iteration and kept the scalars alive across the
//! loop (spilled, reloaded). Here the vectors are packed once, right after the definition, and
//! stored in a stack slot; a block using the value, or a constant lane of it
//! (`extractlane`), loads the vector from there (one load). The slot keeps Cranelift from
//! placing the pure packing instructions at their uses, inside the loop, as it does with pure
//! values (`loop_proof` keeps its proofs in slots for the same reason). The definition
//! dominates every use, so the slot is always written before it is read. Not in phase loops,
//! whose values are bound again after each barrier.

use cranelift_codegen::ir::{types, InstBuilder, StackSlotData, StackSlotKind};
use kir::{InstData, Value};

use super::super::{ClValue, Translator, Unsupported};
use super::{is_f32, WIDTH};

/// Bytes of one `f32x4` in a slot.
const VEC_BYTES: u32 = 16;

impl Translator<'_, '_> {
    /// Packs the `f32x4` forms of varying `float` value `r`, just translated as scalars per
    /// work-item, into a stack slot (one vector per kir lane).
    pub(super) fn pack_varying_f32(&mut self, r: Value) -> Result<(), Unsupported> {
        if !is_f32(self.ty(r)) || self.phase.is_some() {
            return Ok(());
        }
        let Some(per) = self.vs().varying.get(&r).cloned() else {
            return Ok(());
        };
        let n = per.first().map_or(0, Vec::len);
        if n == 0 || n > 16 || per.len() != WIDTH || per.iter().any(|l| l.len() != n) {
            return Ok(());
        }
        // A slot per definition: the other copy of the loop (`translate_vec` translates the
        // function twice) writes its own.
        let slot = self.b.create_sized_stack_slot(StackSlotData::new(
            StackSlotKind::ExplicitSlot,
            VEC_BYTES * n as u32,
            4,
        ));
        for k in 0..n {
            let lanes: Vec<ClValue> = per.iter().map(|l| l[k]).collect();
            let x = self.simd_pack(r, &lanes)?;
            let at = (VEC_BYTES as usize * k) as i32;
            self.b.ins().stack_store(types::I64, x, slot, at);
        }
        self.vs().packed.insert(r, slot);
        Ok(())
    }

    /// The `f32x4` forms of `v` loaded from its slot, when `pack_varying_f32` packed it.
    pub(super) fn packed_f32(&mut self, v: Value) -> Option<Vec<ClValue>> {
        let slot = *self.vec.as_ref()?.packed.get(&v)?;
        let n = super::super::lanes_of(self.ty(v)).ok()?.len();
        Some(
            (0..n)
                .map(|k| {
                    let at = (VEC_BYTES as usize * k) as i32;
                    self.b.ins().stack_load(types::I64, types::F32X4, slot, at)
                })
                .collect(),
        )
    }

    /// A constant lane of a packed varying `floatn` value: that lane's vector, loaded from
    /// the slot; returns whether `inst` was translated so.
    pub(super) fn packed_extract(&mut self, inst: kir::Inst) -> Result<bool, Unsupported> {
        let InstData::ExtractLane { vec, lane } = *self.func.dfg.inst(inst) else {
            return Ok(false);
        };
        let Some(r) = self.func.dfg.inst_result(inst) else {
            return Ok(false);
        };
        let Some(&slot) = self.vs().packed.get(&vec) else {
            return Ok(false);
        };
        let n = super::super::lanes_of(self.ty(vec))?.len();
        if usize::from(lane) >= n {
            return Ok(false);
        }
        let at = (VEC_BYTES * u32::from(lane)) as i32;
        let x = self.b.ins().stack_load(types::I64, types::F32X4, slot, at);
        self.vs().simd.insert(r, vec![x]);
        Ok(true)
    }
}
