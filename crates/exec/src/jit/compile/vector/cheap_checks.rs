//! Shorter forms of two checks of the vectorised loops' contiguous accesses (each tile load
//! and store of sgemm_tiled's phase loop evaluates both at every iteration).
//!
//! - The region offset of an affine pointer is `base & offset_mask`. A pointer made by
//!   `PtrAdd` is `(p & !offset_mask) | (p + o)`; its masked offset is `(p + o) & offset_mask`
//!   (the tag bits lie above the mask), so the `band`/`bor` of the tag are skipped (Cranelift
//!   does not see through them).
//! - A widening of an affine narrow value `x` keeps the affine form for the iteration's
//!   lanes when lane `WIDTH − 1`, `x + span`, fits the narrow type. Instead of extending,
//!   adding, narrowing, extending again and comparing, one comparison of `x` with the bound
//!   `max − span` (or `min − span` for a negative span) says the same.

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, InstBuilder, InstructionData, Opcode};

use super::super::{ClValue, Translator};

impl Translator<'_, '_> {
    /// `p & offset_mask`, without the tag bits `p` was given by a `PtrAdd` (see the module doc).
    pub(super) fn masked_offset(&mut self, p: ClValue) -> ClValue {
        let mask = self.layout.offset_mask() as i64;
        let low = self.untagged(p, mask).unwrap_or(p);
        self.b.ins().band_imm_s(low, mask)
    }

    /// When `p` is `t | x` (either order) with `t = y & !mask`: `x`.
    fn untagged(&self, p: ClValue, mask: i64) -> Option<ClValue> {
        let dfg = &self.b.func.dfg;
        let def = dfg.value_def(p).inst()?;
        let InstructionData::Binary {
            opcode: Opcode::Bor,
            args: [a, b],
        } = dfg.insts[def]
        else {
            return None;
        };
        let is_tag = |v: ClValue| -> bool {
            let Some(i) = dfg.value_def(v).inst() else {
                return false;
            };
            let InstructionData::Binary {
                opcode: Opcode::Band,
                args: [_, m],
            } = dfg.insts[i]
            else {
                return false;
            };
            let Some(mi) = dfg.value_def(m).inst() else {
                return false;
            };
            matches!(
                dfg.insts[mi],
                InstructionData::UnaryImm { opcode: Opcode::Iconst, imm }
                    if imm.bits() == !mask
            )
        };
        if is_tag(a) {
            Some(b)
        } else if is_tag(b) {
            Some(a)
        } else {
            None
        }
    }

    /// Whether `x + span` (computed wide) fits `x`'s type of `bits` bits, signed or not, as
    /// one comparison of `x`; `None` when `x`'s Cranelift type is not `bits` wide.
    pub(super) fn widening_fits(
        &mut self,
        x: ClValue,
        bits: u32,
        signed: bool,
        span: i64,
    ) -> Option<ClValue> {
        let ty = self.b.func.dfg.value_type(x);
        if !ty.is_int() || ty.bits() != bits || !(8..=32).contains(&bits) {
            return None;
        }
        let (lo, hi): (i64, i64) = if signed {
            (-(1i64 << (bits - 1)), (1i64 << (bits - 1)) - 1)
        } else {
            (0, (1i64 << bits) - 1)
        };
        let (limit, cond) = if span >= 0 {
            let limit = i128::from(hi) - i128::from(span);
            let cc = if signed {
                IntCC::SignedLessThanOrEqual
            } else {
                IntCC::UnsignedLessThanOrEqual
            };
            (limit, cc)
        } else {
            let limit = i128::from(lo) - i128::from(span);
            let cc = if signed {
                IntCC::SignedGreaterThanOrEqual
            } else {
                IntCC::UnsignedGreaterThanOrEqual
            };
            (limit, cc)
        };
        if limit < i128::from(lo) || limit > i128::from(hi) {
            // No value of the type fits.
            return Some(self.b.ins().iconst(types::I8, 0));
        }
        let limit = limit as i64;
        Some(if signed {
            self.b.ins().icmp_imm_s(cond, x, limit)
        } else {
            self.b.ins().icmp_imm_u(cond, x, limit)
        })
    }
}
