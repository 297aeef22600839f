//! Row prefixes: the part of a row on which the row proof (`row_proof`) holds.
//!
//! A row comparison `a == b` (affine `a`, uniform `b`: `x == 0`, `x == n - 1` at the borders
//! of a stencil) or a `clamp` is row-uniform only away from the work-item where `a` reaches
//! `b` or the bound. Instead of giving up the proof for the whole row when that work-item
//! lies in it, the proof is made for the longest prefix `[0, m′)` of the row (m′ a multiple
//! of `WIDTH`) before it: m′ is computed from the values at work-item 0, then the proof
//! itself checks everything for `[0, m′)` as before, so a wrong m′ costs speed, never
//! correctness. The unchecked loop runs the prefix and, when m′ is short of the row's
//! vectorised part, abandons the row there (`BAIL`): the caller runs that iteration on the
//! scalar loop and calls the vectorised loop again for the rest of the row, whose proof
//! starts after the border.

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, InstBuilder, MemFlagsData};

use super::super::{bargs, ClValue, RowLoop, Translator, Unsupported};
use super::{BAIL, WIDTH};

/// Where the prefix must end for one row comparison or clamp, from work-item 0's values
/// (all sign- or zero-extended to `i64`).
pub(super) enum Border {
    /// `a0 + i × stride` must not reach `b`.
    Avoid {
        a0: ClValue,
        b: ClValue,
        stride: i64,
    },
    /// `a0 + i × stride` must stay within `[lo, hi]` (signed or unsigned).
    Within {
        a0: ClValue,
        lo: ClValue,
        hi: ClValue,
        stride: i64,
        signed: bool,
    },
}

impl Translator<'_, '_> {
    /// The work-items `i ≥ 0` with `i × step < d`, i.e. ⌈d / step⌉ for `d ≥ 0` (`step > 0`),
    /// and `m` when `d` exceeds what a row can reach; 0 when `d ≤ 0`.
    fn items_below(&mut self, d: ClValue, step: i64, m: ClValue) -> ClValue {
        let zero = self.b.ins().iconst(types::I64, 0);
        let pos = self.b.ins().smax(d, zero);
        // Rows are shorter than 2³¹ work-items (checked by the proof): no overflow below.
        let cap = self.b.ins().iconst(types::I64, 1 << 40);
        let pos = self.b.ins().umin(pos, cap);
        let n = if step == 1 {
            pos
        } else {
            let up = self.b.ins().iadd_imm_s(pos, step - 1);
            self.b.ins().udiv_imm_u(up, step)
        };
        self.b.ins().umin(n, m)
    }

    /// The prefix length m′ ≤ `m` (a multiple of `WIDTH`) before the first border.
    pub(super) fn prefix_len(&mut self, m: ClValue, borders: &[Border]) -> ClValue {
        let mut len = m;
        for border in borders {
            let bound = match *border {
                Border::Avoid { a0, b, stride } => {
                    // Increasing: items before b; decreasing: items above b. When `b` is
                    // behind, it is never reached.
                    let d = if stride > 0 {
                        self.b.ins().isub(b, a0)
                    } else {
                        self.b.ins().isub(a0, b)
                    };
                    let reached = self.items_below(d, stride.abs(), m);
                    let zero = self.b.ins().iconst(types::I64, 0);
                    let behind = self.b.ins().icmp(IntCC::SignedLessThan, d, zero);
                    self.b.ins().select(behind, m, reached)
                }
                Border::Within {
                    a0,
                    lo,
                    hi,
                    stride,
                    signed,
                } => {
                    // Work-item 0 must lie inside; the prefix ends past the bound it heads to.
                    let (ge, le) = if signed {
                        (
                            IntCC::SignedGreaterThanOrEqual,
                            IntCC::SignedLessThanOrEqual,
                        )
                    } else {
                        (
                            IntCC::UnsignedGreaterThanOrEqual,
                            IntCC::UnsignedLessThanOrEqual,
                        )
                    };
                    let above = self.b.ins().icmp(ge, a0, lo);
                    let below = self.b.ins().icmp(le, a0, hi);
                    let inside = self.b.ins().band(above, below);
                    let d = if stride > 0 {
                        self.b.ins().isub(hi, a0)
                    } else {
                        self.b.ins().isub(a0, lo)
                    };
                    // Items i with i × |stride| ≤ d: ⌈(d + 1) / |stride|⌉.
                    let d = self.b.ins().iadd_imm_s(d, 1);
                    let reached = self.items_below(d, stride.abs(), m);
                    let zero = self.b.ins().iconst(types::I64, 0);
                    self.b.ins().select(inside, reached, zero)
                }
            };
            len = self.b.ins().umin(len, bound);
        }
        self.b.ins().band_imm_s(len, !(WIDTH as i64 - 1))
    }

    /// `row_loop` for a vectorised loop over the first `n` work-items of the row; `prefix`:
    /// the loop runs a row prefix (`n` a multiple of `WIDTH`) of a row whose vectorised part
    /// has `m` work-items, and abandons the row at `n` when `n < m`; `start`: the first
    /// work-item (0 when `None`; after an unrolled loop, `unroll`).
    pub(super) fn vec_row_loop(
        &mut self,
        args: &[ClValue],
        base: [ClValue; 4],
        n: ClValue,
        entry: kir::Block,
        prefix: Option<ClValue>,
        start: Option<ClValue>,
    ) -> Result<(), Unsupported> {
        if prefix.is_none() && start.is_none() {
            return self.row_loop(args, base, n, entry, WIDTH as i64);
        }
        let head = self.b.create_block();
        let i = self.b.append_block_param(head, types::I64);
        let zero = match start {
            Some(s) => s,
            None => self.b.ins().iconst(types::I64, 0),
        };
        self.b.ins().jump(head, &bargs(&[zero]));
        self.b.switch_to_block(head);
        let end = self.b.ins().iadd_imm_s(i, WIDTH as i64);
        let more = self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, end, n);
        let body = self.b.create_block();
        let done = self.b.create_block();
        self.b.ins().brif(more, body, &[], done, &[]);
        self.b.switch_to_block(done);
        let Some(m) = prefix else {
            let ok = self.b.ins().iconst(types::I32, 0);
            self.b.ins().return_(&[ok]);
            return self.row_body(args, base, entry, (head, i), body);
        };
        let whole = self.b.ins().icmp(IntCC::Equal, n, m);
        let finished = self.b.create_block();
        let cut = self.b.create_block();
        self.b.ins().brif(whole, finished, &[], cut, &[]);
        self.b.switch_to_block(finished);
        let ok = self.b.ins().iconst(types::I32, 0);
        self.b.ins().return_(&[ok]);
        // The iteration at n, past a border: the caller runs it on the scalar loop.
        self.b.switch_to_block(cut);
        let ctx = self.ctx();
        self.b.ins().store(
            MemFlagsData::trusted(),
            n,
            ctx,
            super::super::rt::OFF_RESOLVED,
        );
        let code = self.b.ins().iconst(types::I32, i64::from(BAIL));
        self.b.ins().return_(&[code]);
        self.row_body(args, base, entry, (head, i), body)
    }

    /// The end of `vec_row_loop`: `body` enters the kernel's `entry` block, and the latch
    /// continues at the loop's head (`i`'s block) with the next iteration.
    fn row_body(
        &mut self,
        args: &[ClValue],
        base: [ClValue; 4],
        entry: kir::Block,
        (head, i): (cranelift_codegen::ir::Block, ClValue),
        body: cranelift_codegen::ir::Block,
    ) -> Result<(), Unsupported> {
        self.b.switch_to_block(body);
        let cb = self.blocks[&entry];
        self.b.ins().jump(cb, &bargs(args));
        let latch = self.b.create_block();
        self.b.switch_to_block(latch);
        let next = self.b.ins().iadd_imm_s(i, WIDTH as i64);
        self.b.ins().jump(head, &bargs(&[next]));
        self.row = Some(RowLoop { i, base, latch });
        Ok(())
    }
}
