//! Range proofs: contiguous accesses inside counted loops proven in bounds once per row.
//!
//! `row_proof` covers pointers computed from parameters and work-item queries only. In a
//! convolution (`in[clamp(y + dy, 0, n − 1) × n + clamp(x + dx, 0, n − 1)]`) the pointer also
//! depends on the loop variables `dx`, `dy`: uniform across the work-items of an iteration,
//! but different at every step, so each step checks its guards (the clamp is the identity
//! on the four work-items, the index does not wrap) and its range. Here the proof is made
//! with intervals instead of values, before the loops:
//! - a counted loop's variable (a header parameter starting at constants, stepped by a
//!   non-negative constant, and tested `p ≤ C` / `p < C` by the header's branch) lies within
//!   `[start, C]` wherever the header's exit edge cannot lead without passing the header
//!   again (`loop_var_range`);
//! - row-varying work-item ids lie between their values at the first and the last work-item
//!   of the row, parameters and uniform ids are points;
//! - integer arithmetic on intervals is exact when every 32-bit result fits (checked at run
//!   time: then nothing wraps), a clamp's result lies within its bounds, and an affine
//!   clamp is the identity when its argument's interval lies within them (checked);
//! - the access's byte offsets `[lo, hi]` from its root pointer give `lo ≥ 0` and
//!   `hi + size ≤ length` (checked).
//!
//! When these hold, every guard of the access holds at every step of every iteration of the
//! row, and the unchecked loop makes it directly (`contiguous`); otherwise the checked loop
//! runs as before.

use std::collections::HashMap;

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, InstBuilder};
use kir::{BinaryOp, BuiltinFn, CmpOp, ConvertOp, Function, InstData, Value, ValueDef};

use super::super::{lanes_of, ClValue, Translator, Unsupported};
use super::row_prefix::Border;
use super::{const_int, int_bits, Shape};

/// An interval of signed 64-bit values.
#[derive(Clone, Copy)]
struct Iv {
    lo: ClValue,
    hi: ClValue,
}

/// Magnitude every 64-bit interval must stay below (checked): sums and products by small
/// constants of such values cannot overflow `i64`.
const BOUND: i64 = 1 << 40;
/// Constant factors of 64-bit products the proof accepts.
const FACTOR: i64 = 1 << 16;

/// The integer constant `v` folds to (constants, and `ineg`/`iadd`/`isub`/`imul` of them).
pub(super) fn fold(func: &Function, v: Value) -> Option<i64> {
    if let Some(c) = const_int(func, v) {
        return Some(c);
    }
    let ValueDef::Result(inst) = func.dfg.value_def(v) else {
        return None;
    };
    let bits = int_bits(func.dfg.value_type(v))?;
    let r = match func.dfg.inst(inst) {
        InstData::Unary {
            op: kir::UnaryOp::INeg,
            arg,
        } => fold(func, *arg)?.checked_neg()?,
        InstData::Binary { op, a, b } => {
            let (a, b) = (fold(func, *a)?, fold(func, *b)?);
            match op {
                BinaryOp::IAdd => a.checked_add(b)?,
                BinaryOp::ISub => a.checked_sub(b)?,
                BinaryOp::IMul => a.checked_mul(b)?,
                _ => return None,
            }
        }
        _ => return None,
    };
    // Only values the type holds exactly (no wrap to reason about).
    let fits = bits == 64 || (r >= -(1i64 << (bits - 1)) && r < 1i64 << (bits - 1));
    fits.then_some(r)
}

/// The blocks reachable from `from` without passing through `stop`.
fn reachable_avoiding(func: &Function, from: kir::Block, stop: kir::Block) -> Vec<kir::Block> {
    let mut seen = Vec::new();
    let mut stack = vec![from];
    while let Some(b) = stack.pop() {
        if b == stop || seen.contains(&b) {
            continue;
        }
        seen.push(b);
        for &i in func.layout.insts(b) {
            stack.extend(func.dfg.inst(i).branch_targets().iter().map(|d| d.block));
        }
    }
    seen
}

/// The block holding `inst`.
fn block_of(func: &Function, inst: kir::Inst) -> Option<kir::Block> {
    func.layout
        .blocks
        .iter()
        .copied()
        .find(|&b| func.layout.insts(b).contains(&inst))
}

/// The range `[lo, hi]` of the 32-bit loop variable `p` (a block parameter) wherever it is
/// used in `at`, when `p` is a counted loop's variable (see the module doc).
fn loop_var_range(func: &Function, p: Value, at: kir::Block) -> Option<(i64, i64)> {
    let ValueDef::Param(header, index) = func.dfg.value_def(p) else {
        return None;
    };
    if int_bits(func.dfg.value_type(p))? != 32 {
        return None;
    }
    // The header ends with `brif (p ≤ C or p < C), body, exit`.
    let &last = func.layout.insts(header).last()?;
    let InstData::Brif {
        cond,
        then_dest,
        else_dest,
    } = func.dfg.inst(last)
    else {
        return None;
    };
    let ValueDef::Result(cmp) = func.dfg.value_def(*cond) else {
        return None;
    };
    let InstData::Cmp { op, a, b } = func.dfg.inst(cmp) else {
        return None;
    };
    if *a != p {
        return None;
    }
    let c = fold(func, *b)?;
    let hi = match op {
        CmpOp::SLe => c,
        CmpOp::SLt => c.checked_sub(1)?,
        _ => return None,
    };
    // Uses on the exit side are out of range; `at` must only be reached through the body
    // edge since the header's last run.
    if reachable_avoiding(func, else_dest.block, header).contains(&at)
        || else_dest.block == then_dest.block
        || !reachable_avoiding(func, then_dest.block, header).contains(&at)
    {
        return None;
    }
    let body = reachable_avoiding(func, then_dest.block, header);
    let exit_side = reachable_avoiding(func, else_dest.block, header);
    // Every edge into the header passes a constant or `p + step` (step ≥ 0) computed on
    // the body side (where p ≤ hi, so it does not wrap).
    let mut lo = i64::MAX;
    for &b in &func.layout.blocks {
        for &i in func.layout.insts(b) {
            for dest in func.dfg.inst(i).branch_targets() {
                if dest.block != header {
                    continue;
                }
                let arg = *dest.args.get(index)?;
                if let Some(k) = fold(func, arg) {
                    lo = lo.min(k);
                    continue;
                }
                let ValueDef::Result(step_inst) = func.dfg.value_def(arg) else {
                    return None;
                };
                let InstData::Binary {
                    op: BinaryOp::IAdd,
                    a: sa,
                    b: sb,
                } = func.dfg.inst(step_inst)
                else {
                    return None;
                };
                let step = match (*sa == p, *sb == p) {
                    (true, _) => fold(func, *sb)?,
                    (_, true) => fold(func, *sa)?,
                    _ => return None,
                };
                let on_body = block_of(func, step_inst)
                    .is_some_and(|sb| body.contains(&sb) && !exit_side.contains(&sb));
                if step < 0 || !on_body || hi.checked_add(step)? > i64::from(i32::MAX) {
                    return None;
                }
            }
        }
    }
    (lo <= hi).then_some((lo, hi))
}

/// The state of one interval evaluation: intervals computed, the conditions that make them
/// exact, and the affine clamps met (instruction, argument, bounds, stride).
struct RangeState {
    memo: HashMap<Value, Iv>,
    ok: ClValue,
    clamps: Vec<(kir::Inst, Iv, Iv, Iv, i64)>,
}

/// What the interval evaluation needs: the work-item queries evaluated at the row's first
/// and last proven work-items.
struct RangeCtx<'a> {
    first: &'a HashMap<Value, ClValue>,
    last: &'a HashMap<Value, ClValue>,
}

impl Translator<'_, '_> {
    /// Whether `v`, used in block `at`, can be given an interval: every value it is computed
    /// from is supported (a static check, see `range_interval`); collects the work-item
    /// queries in `leaves`.
    fn range_supported(&self, v: Value, at: kir::Block, leaves: &mut Vec<Value>) -> bool {
        let func = self.func;
        let inst = match func.dfg.value_def(v) {
            ValueDef::Param(block, _) => {
                if Some(block) == func.entry_block() {
                    return true;
                }
                return loop_var_range(func, v, at).is_some();
            }
            ValueDef::Result(inst) => inst,
        };
        let data = func.dfg.inst(inst);
        let Some(here) = block_of(func, inst) else {
            return false;
        };
        let ok_type = |x: Value| {
            int_bits(self.ty(x)).is_some_and(|b| b == 32 || b == 64)
                || matches!(self.ty(x), kir::Type::Ptr(_))
        };
        if !func.dfg.inst_result(inst).is_some_and(ok_type) {
            return false;
        }
        match data {
            InstData::Const { .. } => true,
            InstData::WorkItem { .. } => {
                if !leaves.contains(&v) {
                    leaves.push(v);
                }
                true
            }
            InstData::Unary {
                op: kir::UnaryOp::INeg,
                arg,
            } => self.range_supported(*arg, here, leaves),
            InstData::Binary { op, a, b } => {
                let supported = match op {
                    BinaryOp::IAdd | BinaryOp::ISub => true,
                    BinaryOp::IMul => {
                        int_bits(self.ty(*a)) == Some(32)
                            || fold(func, *b).is_some_and(|c| c.abs() <= FACTOR)
                            || fold(func, *a).is_some_and(|c| c.abs() <= FACTOR)
                    }
                    _ => false,
                };
                supported
                    && ok_type(*a)
                    && ok_type(*b)
                    && self.range_supported(*a, here, leaves)
                    && self.range_supported(*b, here, leaves)
            }
            InstData::Convert {
                op: ConvertOp::SConvert | ConvertOp::UConvert,
                saturate: false,
                arg,
                ..
            } => ok_type(*arg) && self.range_supported(*arg, here, leaves),
            InstData::Builtin {
                func: BuiltinFn::SClamp,
                args,
            } => args.len() == 3 && args.iter().all(|&a| self.range_supported(a, here, leaves)),
            InstData::PtrAdd { ptr, offset } => {
                matches!(func.dfg.value_def(*ptr), ValueDef::Param(b, _) if Some(b) == func.entry_block())
                    && ok_type(*offset)
                    && self.range_supported(*offset, here, leaves)
            }
            _ => false,
        }
    }

    /// `lo ≤ x ≤ hi` as a condition.
    fn within(&mut self, iv: Iv, lo: i64, hi: i64) -> ClValue {
        let a = self
            .b
            .ins()
            .icmp_imm_s(IntCC::SignedGreaterThanOrEqual, iv.lo, lo);
        let b = self
            .b
            .ins()
            .icmp_imm_s(IntCC::SignedLessThanOrEqual, iv.hi, hi);
        self.b.ins().band(a, b)
    }

    /// `v`'s interval (in the block before the loops), adding to `ok` the conditions that
    /// make it exact; `args`: the kernel's parameters' lanes. Only for values
    /// `range_supported` accepts.
    fn range_interval(
        &mut self,
        v: Value,
        at: kir::Block,
        cx: &RangeCtx<'_>,
        args: &[ClValue],
        st: &mut RangeState,
    ) -> Result<Iv, Unsupported> {
        if let Some(&iv) = st.memo.get(&v) {
            return Ok(iv);
        }
        let func = self.func;
        let bits = int_bits(self.ty(v)).unwrap_or(64);
        let iv = match func.dfg.value_def(v) {
            ValueDef::Param(block, index) if Some(block) == func.entry_block() => {
                let mut k = 0;
                for &p in func.dfg.block_params(block).iter().take(index) {
                    k += lanes_of(self.ty(p))?.len();
                }
                let x = *args.get(k).ok_or("missing parameter lane")?;
                let x = self.wide(x, bits, true);
                if bits == 64 {
                    let iv = Iv { lo: x, hi: x };
                    let fine = self.within(iv, -BOUND, BOUND);
                    st.ok = self.b.ins().band(st.ok, fine);
                }
                Iv { lo: x, hi: x }
            }
            ValueDef::Param(..) => {
                let (lo, hi) = loop_var_range(func, v, at).ok_or("no loop range")?;
                Iv {
                    lo: self.b.ins().iconst(types::I64, lo),
                    hi: self.b.ins().iconst(types::I64, hi),
                }
            }
            ValueDef::Result(inst) => self.range_inst(inst, v, bits, cx, args, st)?,
        };
        st.memo.insert(v, iv);
        Ok(iv)
    }

    /// A 32- or 64-bit lane as `i64` (sign- or zero-extended).
    fn wide(&mut self, x: ClValue, bits: u32, signed: bool) -> ClValue {
        match (bits, signed) {
            (64, _) => x,
            (_, true) => self.b.ins().sextend(types::I64, x),
            (_, false) => self.b.ins().uextend(types::I64, x),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn range_inst(
        &mut self,
        inst: kir::Inst,
        v: Value,
        bits: u32,
        cx: &RangeCtx<'_>,
        args: &[ClValue],
        st: &mut RangeState,
    ) -> Result<Iv, Unsupported> {
        let func = self.func;
        let data = func.dfg.inst(inst).clone();
        let at = block_of(func, inst).ok_or("instruction outside the layout")?;
        let iv = match &data {
            InstData::Const { .. } => {
                let c = const_int(func, v).ok_or("not an integer constant")?;
                let x = self.b.ins().iconst(types::I64, c);
                Iv { lo: x, hi: x }
            }
            InstData::WorkItem { .. } => {
                let (&a, &b) = (
                    cx.first.get(&v).ok_or("work-item query not evaluated")?,
                    cx.last.get(&v).ok_or("work-item query not evaluated")?,
                );
                // Row ids grow along the row (stride 1) and never wrap (64-bit counts).
                let (a, b) = (self.wide(a, bits, false), self.wide(b, bits, false));
                let zero = self.b.ins().iconst(types::I64, 0);
                let ordered = self.b.ins().icmp(IntCC::SignedLessThanOrEqual, a, b);
                let positive = self.b.ins().icmp(IntCC::SignedGreaterThanOrEqual, a, zero);
                let fine = self.b.ins().band(ordered, positive);
                st.ok = self.b.ins().band(st.ok, fine);
                Iv { lo: a, hi: b }
            }
            InstData::Unary { arg, .. } => {
                let a = self.range_interval(*arg, at, cx, args, st)?;
                Iv {
                    lo: self.b.ins().ineg(a.hi),
                    hi: self.b.ins().ineg(a.lo),
                }
            }
            InstData::Binary { op, a, b } => {
                let x = self.range_interval(*a, at, cx, args, st)?;
                let y = self.range_interval(*b, at, cx, args, st)?;
                match op {
                    BinaryOp::IAdd => Iv {
                        lo: self.b.ins().iadd(x.lo, y.lo),
                        hi: self.b.ins().iadd(x.hi, y.hi),
                    },
                    BinaryOp::ISub => Iv {
                        lo: self.b.ins().isub(x.lo, y.hi),
                        hi: self.b.ins().isub(x.hi, y.lo),
                    },
                    _ => {
                        // Corner products (operands within 32 bits, or a small constant
                        // factor and a bounded interval: exact in i64).
                        let p = [
                            self.b.ins().imul(x.lo, y.lo),
                            self.b.ins().imul(x.lo, y.hi),
                            self.b.ins().imul(x.hi, y.lo),
                            self.b.ins().imul(x.hi, y.hi),
                        ];
                        let lo = self.b.ins().smin(p[0], p[1]);
                        let lo2 = self.b.ins().smin(p[2], p[3]);
                        let hi = self.b.ins().smax(p[0], p[1]);
                        let hi2 = self.b.ins().smax(p[2], p[3]);
                        Iv {
                            lo: self.b.ins().smin(lo, lo2),
                            hi: self.b.ins().smax(hi, hi2),
                        }
                    }
                }
            }
            InstData::Convert { op, arg, .. } => {
                let a = self.range_interval(*arg, at, cx, args, st)?;
                let from = int_bits(self.ty(*arg)).unwrap_or(64);
                if *op == ConvertOp::UConvert && from == 32 && bits == 64 {
                    // Zero-extension keeps the value when it is not negative.
                    let fine = self.within(a, 0, i64::from(i32::MAX));
                    st.ok = self.b.ins().band(st.ok, fine);
                }
                a
            }
            InstData::Builtin { args: ops, .. } => {
                let a = self.range_interval(ops[0], at, cx, args, st)?;
                let lo = self.range_interval(ops[1], at, cx, args, st)?;
                let hi = self.range_interval(ops[2], at, cx, args, st)?;
                // Bounds in order: clamp(a, lo, hi) = min(max(a, lo), hi).
                let ordered = self
                    .b
                    .ins()
                    .icmp(IntCC::SignedLessThanOrEqual, lo.hi, hi.lo);
                st.ok = self.b.ins().band(st.ok, ordered);
                if let Shape::Affine(stride) = self.shape(v) {
                    st.clamps.push((inst, a, lo, hi, stride));
                    // The vectorised loop relies on the identity (its guard).
                    let above = self
                        .b
                        .ins()
                        .icmp(IntCC::SignedGreaterThanOrEqual, a.lo, lo.hi);
                    let below = self.b.ins().icmp(IntCC::SignedLessThanOrEqual, a.hi, hi.lo);
                    let inside = self.b.ins().band(above, below);
                    st.ok = self.b.ins().band(st.ok, inside);
                    a
                } else {
                    let l = self.b.ins().smax(a.lo, lo.lo);
                    let h = self.b.ins().smax(a.hi, lo.hi);
                    Iv {
                        lo: self.b.ins().smin(l, hi.lo),
                        hi: self.b.ins().smin(h, hi.hi),
                    }
                }
            }
            InstData::PtrAdd { offset, .. } => {
                // The byte offset from the root pointer (checked against the region by the
                // caller).
                self.range_interval(*offset, at, cx, args, st)?
            }
            _ => return Err("unsupported in a range proof".into()),
        };
        // Exact: every value fits the result type (32-bit) or stays far from overflow.
        let (lo, hi) = match bits {
            32 => (i64::from(i32::MIN), i64::from(i32::MAX)),
            _ => (-BOUND, BOUND),
        };
        if !matches!(data, InstData::PtrAdd { .. }) {
            let fine = self.within(iv, lo, hi);
            st.ok = self.b.ins().band(st.ok, fine);
        }
        Ok(iv)
    }
}

/// The accesses a range proof may cover, found before the proof is emitted.
pub(super) struct RangeCandidates {
    accesses: Vec<(kir::Inst, kir::Block)>,
    /// The work-item queries their pointers use.
    leaves: Vec<Value>,
}

impl RangeCandidates {
    pub(super) fn is_empty(&self) -> bool {
        self.accesses.is_empty()
    }
}

impl Translator<'_, '_> {
    /// The contiguous accesses outside `skip` (those with a row proof) whose pointer is a
    /// `PtrAdd` of a kernel parameter with an offset `range_supported` accepts and that
    /// depends on a loop variable (others are the row proof's).
    pub(super) fn range_candidates(
        &self,
        order: &[kir::Block],
        skip: &[kir::Inst],
    ) -> RangeCandidates {
        let func = self.func;
        let mut out = RangeCandidates {
            accesses: Vec::new(),
            leaves: Vec::new(),
        };
        for &kb in order {
            for &inst in func.layout.insts(kb) {
                if skip.contains(&inst) {
                    continue;
                }
                let Some(access) = self.contiguous_access(inst) else {
                    continue;
                };
                let ValueDef::Result(def) = func.dfg.value_def(access.ptr) else {
                    continue;
                };
                if !matches!(func.dfg.inst(def), InstData::PtrAdd { .. }) {
                    continue;
                }
                let mut leaves = out.leaves.clone();
                if self.range_supported(access.ptr, kb, &mut leaves) {
                    out.leaves = leaves;
                    out.accesses.push((inst, kb));
                }
            }
        }
        out
    }

    /// In the block before the loops: the condition under which the candidates' accesses
    /// are in bounds with all their guards for work-items `[0, last]` of the row, and the
    /// accesses it covers.
    pub(super) fn range_proofs(
        &mut self,
        candidates: &RangeCandidates,
        args: &[ClValue],
        row_base: [ClValue; 4],
        last: ClValue,
    ) -> Result<(ClValue, Vec<kir::Inst>), Unsupported> {
        let func = self.func;
        let mut ok = self.b.ins().iconst(types::I8, 1);
        if candidates.is_empty() {
            return Ok((ok, Vec::new()));
        }
        let queries: Vec<kir::Inst> = candidates
            .leaves
            .iter()
            .filter_map(|&v| match func.dfg.value_def(v) {
                ValueDef::Result(i) => Some(i),
                ValueDef::Param(..) => None,
            })
            .collect();
        let zero = self.b.ins().iconst(types::I64, 0);
        let first = self.eval_chain(&queries, args, row_base, zero)?;
        let at_last = self.eval_chain(&queries, args, row_base, last)?;
        let cx = RangeCtx {
            first: &first,
            last: &at_last,
        };
        let mask = self.layout.offset_mask() as i64;
        let mut st = RangeState {
            memo: HashMap::new(),
            ok,
            clamps: Vec::new(),
        };
        let mut covered = Vec::new();
        for &(inst, kb) in &candidates.accesses {
            let access = self
                .contiguous_access(inst)
                .ok_or("range candidate is not contiguous")?;
            let ValueDef::Result(def) = func.dfg.value_def(access.ptr) else {
                continue;
            };
            let InstData::PtrAdd { ptr: root_ptr, .. } = *func.dfg.inst(def) else {
                continue;
            };
            let ValueDef::Param(_, index) = func.dfg.value_def(root_ptr) else {
                continue;
            };
            let entry = func.entry_block().ok_or("function without a body")?;
            let mut k = 0;
            for &p in func.dfg.block_params(entry).iter().take(index) {
                k += lanes_of(self.ty(p))?.len();
            }
            let base = *args.get(k).ok_or("missing parameter lane")?;
            let offs = self.range_interval(access.ptr, kb, &cx, args, &mut st)?;
            ok = st.ok;
            // Every work-item's access within the region: roff + lo ≥ 0 and
            // roff + hi + size ≤ length (roff < 2⁴⁸, offsets within ±2⁴⁰: no overflow).
            let roff = self.b.ins().band_imm_s(base, mask);
            let start = self.b.ins().iadd(roff, offs.lo);
            let zero = self.b.ins().iconst(types::I64, 0);
            let after = self
                .b
                .ins()
                .icmp(IntCC::SignedGreaterThanOrEqual, start, zero);
            let end = self.b.ins().iadd(roff, offs.hi);
            let end = self.b.ins().iadd_imm_s(end, access.size);
            let len = if access.write {
                access.root.write_len
            } else {
                access.root.read_len
            };
            let fits = self.b.ins().icmp(IntCC::SignedLessThanOrEqual, end, len);
            let inside = self.b.ins().band(after, fits);
            ok = self.b.ins().band(ok, inside);
            st.ok = ok;
            covered.push(inst);
        }
        // The affine clamps proven the identity are covered too (`identity_clamp`).
        covered.extend(st.clamps.iter().map(|c| c.0));
        Ok((ok, covered))
    }

    /// In the unchecked loop: lane 0 of an affine clamp the range proof made the identity
    /// (its argument's), or `None`.
    pub(super) fn identity_clamp(
        &mut self,
        inst: kir::Inst,
    ) -> Result<Option<ClValue>, Unsupported> {
        if !self.vec.as_ref().is_some_and(|v| v.ranged.contains(&inst)) {
            return Ok(None);
        }
        let InstData::Builtin {
            func: BuiltinFn::SClamp,
            args,
        } = self.func.dfg.inst(inst)
        else {
            return Ok(None);
        };
        let arg = args[0];
        Ok(Some(self.lane(arg, 0)?[0]))
    }
}

impl Translator<'_, '_> {
    /// The borders of the candidates' affine clamps along the row (`row_prefix`): their
    /// intervals at work-item 0 (loop variables over their ranges), the argument's upper end
    /// heading to the upper bound (increasing arguments; others have none and keep the
    /// whole row).
    pub(super) fn range_borders(
        &mut self,
        candidates: &RangeCandidates,
        args: &[ClValue],
        row_base: [ClValue; 4],
    ) -> Result<Vec<Border>, Unsupported> {
        let func = self.func;
        if candidates.is_empty() {
            return Ok(Vec::new());
        }
        let queries: Vec<kir::Inst> = candidates
            .leaves
            .iter()
            .filter_map(|&v| match func.dfg.value_def(v) {
                ValueDef::Result(i) => Some(i),
                ValueDef::Param(..) => None,
            })
            .collect();
        let zero = self.b.ins().iconst(types::I64, 0);
        let first = self.eval_chain(&queries, args, row_base, zero)?;
        let cx = RangeCtx {
            first: &first,
            last: &first,
        };
        let ok = self.b.ins().iconst(types::I8, 1);
        let mut st = RangeState {
            memo: HashMap::new(),
            ok,
            clamps: Vec::new(),
        };
        for &(inst, kb) in &candidates.accesses {
            let access = self
                .contiguous_access(inst)
                .ok_or("range candidate is not contiguous")?;
            self.range_interval(access.ptr, kb, &cx, args, &mut st)?;
        }
        let mut out = Vec::new();
        for (_, a, lo, hi, stride) in st.clamps {
            if stride <= 0 {
                continue;
            }
            // Inside at work-item 0 when a.lo ≥ lo.hi; the upper end a.hi + i × stride must
            // stay ≤ hi.lo: `Within` on a.hi with the lower bound moved by the width.
            let width = self.b.ins().isub(a.hi, a.lo);
            let lower = self.b.ins().iadd(lo.hi, width);
            out.push(Border::Within {
                a0: a.hi,
                lo: lower,
                hi: hi.lo,
                stride,
                signed: true,
            });
        }
        Ok(out)
    }
}
