//! Unrolling the vectorised row loop, and uniform `f32x4` splats computed once per row.
//!
//! A memory-bound kernel (`saxpy`, a 5-point stencil) spends a good part of each iteration of
//! the unchecked loop (`row_proof`) on the loop itself: the counter, the test, the jump, the
//! address arithmetic. When its body is short, has no loops and every access it makes is
//! proven in bounds for the row (`proven`, `ranged`: no bounds check, no replay), the loop
//! runs `COPIES` iterations per trip first: the blocks of the kernel function are translated
//! `COPIES` times in sequence, copy `k` being the iteration whose first work-item is
//! `i + k × WIDTH` (its ids, error reports and abandon point are that iteration's, exactly
//! as in the loop with one iteration per trip), its proven accesses at the address of copy 0
//! plus a constant. The trip runs while `i + COPIES × WIDTH ≤ n`; the ordinary loop (one
//! iteration per trip, with the row prefix's end, `row_prefix`) takes the rest of the row from
//! there. Copies run one after another, so a copy that fails or abandons its iteration does
//! so after the earlier copies' iterations completed, as in the ordinary loop. Addresses kept
//! in stack slots (`shared_base::reload`) are read once per trip, for all the copies.
//!
//! A uniform `f32` kernel parameter used by vector arithmetic (`saxpy`'s `a`) is splat into
//! an `f32x4` in every iteration where Cranelift places the splat (at its use, inside the
//! loop); `hoist_splats` computes the splat once before the loop and keeps it in a stack slot
//! (a load stays where it is), read in the loop as a memory operand.
//!
//! `OXCL_UNROLL=0` turns unrolling off (for measurements).

use std::collections::HashMap;

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, InstBuilder, MemFlagsData, StackSlotData, StackSlotKind};
use kir::{InstData, Value};

use super::super::{bargs, ClValue, RowLoop, Translator, Unsupported};
use super::{blocks_in_cycles, has_effect, is_f32, Shape, WIDTH};

/// Iterations per trip of the unrolled loop for a body of at most `SMALL_BODY` kir
/// instructions, and for one of at most `BODY_LIMIT` (larger ones are not unrolled).
const COPIES: usize = 4;
const SMALL_BODY: usize = 80;
const FEW_COPIES: usize = 2;
const BODY_LIMIT: usize = 160;

/// Whether `OXCL_UNROLL=0` turned unrolling off.
fn unroll_off() -> bool {
    std::env::var_os("OXCL_UNROLL").is_some_and(|v| v == "0")
}

impl Translator<'_, '_> {
    /// How many iterations per trip the loop about to be translated runs, if it is unrolled
    /// (module doc): no cycles, no effects but stores, every access proven.
    fn unroll_copies(&mut self, order: &[kir::Block]) -> Option<usize> {
        if unroll_off() {
            return None;
        }
        let func = self.func;
        // (Without cycles there are no masked loops either.)
        if !blocks_in_cycles(func, order).is_empty() {
            return None;
        }
        let mut count = 0;
        let mut accesses = 0;
        for &kb in order {
            for &inst in func.layout.insts(kb) {
                count += 1;
                let data = func.dfg.inst(inst);
                match data {
                    InstData::Load { .. } | InstData::Store { .. } => {
                        let vs = self.vs();
                        if !vs.proven.contains_key(&inst) && !vs.ranged.contains(&inst) {
                            return None;
                        }
                        accesses += 1;
                    }
                    _ if has_effect(func, data) => return None,
                    _ => {}
                }
            }
        }
        if accesses == 0 || count > BODY_LIMIT {
            None
        } else if count <= SMALL_BODY {
            Some(COPIES)
        } else {
            Some(FEW_COPIES)
        }
    }

    /// The unrolled loop (module doc), from the current block, when the body allows it;
    /// returns the work-item where the ordinary loop takes over (the current block is then
    /// the unrolled loop's exit). `args`: the entry block's arguments (empty when `bound`).
    pub(super) fn unrolled_loop(
        &mut self,
        order: &[kir::Block],
        before: &HashMap<kir::Block, bool>,
        args: &[ClValue],
        base: [ClValue; 4],
        n: ClValue,
        bound: bool,
    ) -> Result<Option<ClValue>, Unsupported> {
        let Some(copies) = self.unroll_copies(order) else {
            return Ok(None);
        };
        let entry = self.func.entry_block().ok_or("function without a body")?;
        let fail = self.fail;
        let trip = (copies * WIDTH) as i64;
        let head = self.b.create_block();
        let i = self.b.append_block_param(head, types::I64);
        let zero = self.b.ins().iconst(types::I64, 0);
        self.b.ins().jump(head, &bargs(&[zero]));
        self.b.switch_to_block(head);
        // Another `copies` iterations fit: i + trip <= n.
        let end = self.b.ins().iadd_imm_s(i, trip);
        let more = self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, end, n);
        let body = self.b.create_block();
        let exit = self.b.create_block();
        let rest = self.b.append_block_param(exit, types::I64);
        self.b.ins().brif(more, body, &[], exit, &bargs(&[i]));
        self.b.switch_to_block(body);
        let reloaded = self.read_bases_once();
        for k in 0..copies {
            let ahead = (k * WIDTH) as i64;
            let first = match k {
                0 => i,
                _ => self.b.ins().iadd_imm_s(i, ahead),
            };
            let latch = self.b.create_block();
            self.ptr_offsets.clear();
            self.create_vec_blocks(order, bound)?;
            let cb = self.blocks[&entry];
            self.b.ins().jump(cb, &bargs(args));
            self.row = Some(RowLoop {
                i: first,
                base,
                latch,
            });
            self.vs().unrolled = Some((i, ahead));
            let done = self.translate_vec_blocks(order, before, fail);
            self.vs().unrolled = None;
            done?;
            self.b.switch_to_block(latch);
        }
        if let Some(slots) = reloaded {
            let vs = self.vs();
            vs.proven = slots;
            vs.proven_reload = true;
        }
        let next = self.b.ins().iadd_imm_s(i, trip);
        self.b.ins().jump(head, &bargs(&[next]));
        self.b.switch_to_block(exit);
        self.ptr_offsets.clear();
        Ok(Some(rest))
    }

    /// When the proven accesses' addresses are read from their stack slots at each use
    /// (`shared_base::reload`): reads each slot once, at the start of the trip, for all the
    /// copies (instead of once per copy); returns the slots to restore after the copies.
    fn read_bases_once(&mut self) -> Option<HashMap<kir::Inst, ClValue>> {
        if !self.vs().proven_reload {
            return None;
        }
        let slots = self.vs().proven.clone();
        let mut order: Vec<(kir::Inst, ClValue)> = slots.iter().map(|(&i, &s)| (i, s)).collect();
        order.sort_by_key(|&(i, _)| i);
        let mut read: HashMap<ClValue, ClValue> = HashMap::new();
        let mut now = HashMap::new();
        for (inst, slot) in order {
            let addr = match read.get(&slot) {
                Some(&a) => a,
                None => {
                    let a = self
                        .b
                        .ins()
                        .load(types::I64, MemFlagsData::trusted(), slot, 0);
                    read.insert(slot, a);
                    a
                }
            };
            now.insert(inst, addr);
        }
        let vs = self.vs();
        vs.proven = now;
        vs.proven_reload = false;
        Some(slots)
    }

    /// Splats the `f32` parameters of the kernel that vector arithmetic uses once, before the
    /// loop (module doc); `bound`: the entry block's parameters are the row's values.
    pub(super) fn hoist_splats(
        &mut self,
        order: &[kir::Block],
        bound: bool,
    ) -> Result<(), Unsupported> {
        self.vs().splats.clear();
        let func = self.func;
        let Some(entry) = func.entry_block() else {
            return Ok(());
        };
        if !bound || unroll_off() {
            return Ok(());
        }
        let params: Vec<Value> = func
            .dfg
            .block_params(entry)
            .iter()
            .copied()
            .filter(|&p| func.dfg.value_type(p) == kir::Type::F32)
            .collect();
        for p in params {
            // Used by an instruction with a varying `f32` result (kept as `f32x4`).
            let used = order
                .iter()
                .flat_map(|&b| func.layout.insts(b))
                .any(|&inst| {
                    let Some(r) = func.dfg.inst_result(inst) else {
                        return false;
                    };
                    is_f32(func.dfg.value_type(r))
                        && self.shape(r) == Shape::Varying
                        && func.dfg.inst(inst).operands().contains(&p)
                });
            if !used {
                continue;
            }
            let Some(&[x]) = self.vals[p.index()].as_deref() else {
                continue;
            };
            let splat = self.simd_pack(p, &[x])?;
            let slot = self.b.create_sized_stack_slot(StackSlotData::new(
                StackSlotKind::ExplicitSlot,
                16,
                4,
            ));
            let addr = self.b.ins().stack_addr(types::I64, slot, 0);
            let flags = MemFlagsData::new().with_notrap();
            self.b.ins().store(flags, splat, addr, 0);
            let kept = self.b.ins().load(types::F32X4, flags, addr, 0);
            self.vs().splats.insert(p, vec![kept]);
        }
        Ok(())
    }
}
