//! Accesses of counted loops proven in bounds for the loop's whole range.
//!
//! A counted loop (`counted_loops`) has a header with an `i32` parameter `k` that enters the
//! loop as a constant `k0` (or an integer expression of constants, `-2` being `ineg 2`),
//! comes back along the single back edge as `k + 1`, and a branch `k < n` (signed) into the
//! loop, `n` a constant or a parameter of the function, or `k ≤ C`, `C` a constant below
//! `i32::MAX` (a convolution's `for (dx = -2; dx <= 2; dx++)`, taken as `n = C + 1`). Inside
//! the loop (outside the header) `k0 ≤ k ≤ n − 1` holds, and `k + 1` cannot wrap.
//!
//! A load or store there whose address depends on `k` only through pure integer arithmetic
//! (`+`, `−`, `×` and `<<` by a value that does not depend on `k`, widening conversions,
//! `PtrAdd`) has the region offset `offset(k) = R + C × k` (mod 2⁶⁴, then masked), where `R`
//! and `C` are computed from the values the address depends on besides `k`. A widening
//! conversion of a `k`-dependent 32-bit value keeps that form for the whole range when the
//! value does not wrap between `k0` and `n − 1` (checked at both ends: the value is monotonic
//! in `k`); `offset(k0)` and `offset(n − 1)` (exact, from `C` and `offset(k0)`) both within the
//! region then prove every iteration's access in bounds. The proof (`ok`) does not depend on
//! `k`, so Cranelift computes it before the loop when nothing else it uses changes in the loop;
//! the access itself is `A + C × k` (`A` = the region's base + `offset(k0)` − `C × k0`) when
//! `ok` holds, and the checked access otherwise, which reports errors exactly as before.
//!
//! Scalar translator: `address` (scalar loops, and uniform accesses of the vectorised ones).
//! Vectorised loops: `contiguous` (work-item 0's address, `WIDTH` accesses long). There the
//! proof also stands for the guards of the pointer's affine form, which `contiguous` would
//! otherwise evaluate at every iteration of the loop (Cranelift recomputes their adds of
//! constants inside it): the guards of affine values defined before the loop join `ok`, and a
//! widening inside the loop of an affine 32-bit value must also fit for the last work-item
//! (`lane_span`) at both ends of the range. When no effect of the vectorised iteration
//! precedes the loop, the proofs are checked once at its entry (`bail_unproven`): the
//! iteration is abandoned (`BAIL`, the scalar loop runs it again with its errors) when one
//! fails, and the accesses inside are direct, without flag or branch; the checked accesses of
//! the scalar translator are cold blocks, after the hot code.

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, InstBuilder, StackSlot, StackSlotData, StackSlotKind};
use kir::{BinaryOp, CmpOp, ConvertOp, Function, InstData, Type, Value, ValueDef};

use super::super::{bargs, ClValue, Translator};
use super::{const_int, Shape, WIDTH};

/// Limit of the loop range and of `C` (checked at run time), keeping every product exact.
const LIMIT: i64 = 1 << 31;

/// A counted loop (see the module's documentation).
#[derive(Clone, Copy)]
struct CountedLoop {
    header: kir::Block,
    k: Value,
    k0: i64,
    n: Value,
    /// The header tests `k ≤ n` (`n` a constant below `i32::MAX`): the last value is `n`.
    inclusive: bool,
}

/// The counted loops of a function: the innermost one of each instruction inside one.
#[derive(Default)]
pub(in crate::jit::compile) struct Loops {
    of_inst: HashMap<kir::Inst, CountedLoop>,
    /// Per header: every instruction of the body (nested loops included).
    body: HashMap<kir::Block, HashSet<kir::Inst>>,
}

/// Per-translation state: the loops (found at the first jump), the proofs made at the entry
/// of the loop being translated, and whether the checked access of a proof is being
/// translated.
#[derive(Default)]
pub(in crate::jit::compile) struct LoopProofState {
    loops: Option<Rc<Loops>>,
    proofs: HashMap<kir::Inst, Proof>,
    checking: bool,
}

/// An access proven at its loop's entry (values of the block before the loop).
#[derive(Clone, Copy)]
struct Proof {
    /// Bytes covered per access.
    size: i64,
    /// Holds `ok` (`i8`, at 0) and `A` (at 8): the access's native address is `A + C × k`.
    /// Kept in a stack slot so that Cranelift, which places pure values at their uses (and
    /// does not move these out of the loop again), computes them before the loop.
    slot: StackSlot,
    coef: ClValue,
    /// Checked at the loop's entry, which abandons the vectorised iteration (`BAIL`) when
    /// it fails (no effect before it): inside the loop the access is direct, without flag.
    sure: bool,
}

/// `offset(k) = rest + coef × k` (`i64`; for 32-bit values only the low 32 bits count;
/// `coef` `None`: 0).
#[derive(Clone, Copy)]
struct Form {
    rest: ClValue,
    coef: Option<ClValue>,
}

/// Whether the proofs are made (`OXCL_LOOP_PROOF=0` turns them off, for comparisons).
fn enabled() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var("OXCL_LOOP_PROOF").map_or(true, |v| v != "0"))
}

/// The counted loops of `func`.
fn counted_loops(func: &Function) -> Loops {
    let blocks = &func.layout.blocks;
    let succs = |b: kir::Block| -> Vec<(kir::Block, Vec<Value>)> {
        func.layout
            .insts(b)
            .iter()
            .flat_map(|&i| {
                func.dfg
                    .inst(i)
                    .branch_targets()
                    .into_iter()
                    .map(|d| (d.block, d.args.clone()))
                    .collect::<Vec<_>>()
            })
            .collect()
    };
    let mut preds: HashMap<kir::Block, Vec<(kir::Block, Vec<Value>)>> = HashMap::new();
    for &b in blocks {
        for (to, args) in succs(b) {
            preds.entry(to).or_default().push((b, args));
        }
    }
    let mut found: Vec<(HashSet<kir::Block>, CountedLoop)> = Vec::new();
    for &header in blocks {
        let Some(lp) = counted_header(func, header, &preds) else {
            continue;
        };
        found.push(lp);
    }
    // Innermost first.
    found.sort_by_key(|(body, _)| body.len());
    let mut of_inst = HashMap::new();
    let mut bodies = HashMap::new();
    for (body, lp) in found {
        let mut insts = HashSet::new();
        for &b in &body {
            for &inst in func.layout.insts(b) {
                of_inst.entry(inst).or_insert(lp);
                insts.insert(inst);
            }
        }
        bodies.insert(lp.header, insts);
    }
    Loops {
        of_inst,
        body: bodies,
    }
}

/// The body (without the header) and description of the counted loop at `header`, if it is
/// one.
fn counted_header(
    func: &Function,
    header: kir::Block,
    preds: &HashMap<kir::Block, Vec<(kir::Block, Vec<Value>)>>,
) -> Option<(HashSet<kir::Block>, CountedLoop)> {
    let term = *func.layout.insts(header).last()?;
    let InstData::Brif {
        cond,
        then_dest,
        else_dest,
    } = func.dfg.inst(term)
    else {
        return None;
    };
    let ValueDef::Result(cmp) = func.dfg.value_def(*cond) else {
        return None;
    };
    let (k, n, inclusive) = match *func.dfg.inst(cmp) {
        InstData::Cmp {
            op: CmpOp::SLt,
            a,
            b,
        } => (a, b, false),
        InstData::Cmp {
            op: CmpOp::SLe,
            a,
            b,
        } if const_int(func, b).is_some_and(|c| c < i64::from(i32::MAX)) => (a, b, true),
        _ => return None,
    };
    if func.dfg.value_type(k) != Type::I32 || func.dfg.value_type(n) != Type::I32 {
        return None;
    }
    let ValueDef::Param(kb, ki) = func.dfg.value_def(k) else {
        return None;
    };
    if kb != header {
        return None;
    }
    let bound_ok = const_int(func, n).is_some()
        || matches!(func.dfg.value_def(n), ValueDef::Param(b, _) if Some(b) == func.entry_block());
    if !bound_ok {
        return None;
    }
    let mut ins = Vec::new();
    for (p, args) in preds.get(&header)? {
        ins.push((*p, args.get(ki).copied()?));
    }
    // Body: the blocks reachable from the `then` edge without passing the header that reach
    // the header again, entered only through that edge.
    let succ_blocks = |b: kir::Block| -> Vec<kir::Block> {
        func.layout
            .insts(b)
            .iter()
            .flat_map(|&i| func.dfg.inst(i).branch_targets())
            .map(|d| d.block)
            .collect()
    };
    let mut reach = HashSet::new();
    let mut stack = vec![then_dest.block];
    while let Some(b) = stack.pop() {
        if b == header || !reach.insert(b) {
            continue;
        }
        stack.extend(succ_blocks(b));
    }
    let mut body = HashSet::new();
    let mut stack: Vec<kir::Block> = ins
        .iter()
        .map(|&(p, _)| p)
        .filter(|p| reach.contains(p))
        .collect();
    while let Some(b) = stack.pop() {
        if b == header || !reach.contains(&b) || !body.insert(b) {
            continue;
        }
        stack.extend(preds.get(&b).into_iter().flatten().map(|&(p, _)| p));
    }
    if !body.contains(&then_dest.block) || body.contains(&else_dest.block) {
        return None;
    }
    for &b in &body {
        for &(p, _) in preds.get(&b).into_iter().flatten() {
            if !(body.contains(&p) || (p == header && b == then_dest.block)) {
                return None;
            }
        }
    }
    // No barrier (a resume point would enter the body) and no call inside.
    let splits = body.iter().flat_map(|&b| func.layout.insts(b)).any(|&i| {
        matches!(
            func.dfg.inst(i),
            InstData::Barrier { .. } | InstData::NamedBarrier { .. } | InstData::Call { .. }
        )
    });
    if splits {
        return None;
    }
    let mut from_body = Vec::new();
    let mut init = None;
    for (p, arg) in ins {
        if body.contains(&p) {
            from_body.push(arg);
        } else if init.replace(arg).is_some() {
            return None;
        }
    }
    // One entry with a constant, one back edge with k + 1.
    let k0 = super::range_proof::fold(func, init?)?;
    let [next] = from_body[..] else {
        return None;
    };
    let ValueDef::Result(add) = func.dfg.value_def(next) else {
        return None;
    };
    let InstData::Binary {
        op: BinaryOp::IAdd,
        a,
        b,
    } = *func.dfg.inst(add)
    else {
        return None;
    };
    let one =
        (a == k && const_int(func, b) == Some(1)) || (b == k && const_int(func, a) == Some(1));
    (one && (-LIMIT..LIMIT).contains(&k0)).then_some((
        body,
        CountedLoop {
            header,
            k,
            k0,
            n,
            inclusive,
        },
    ))
}

impl Translator<'_, '_> {
    /// The loops of the function (found once).
    fn counted(&mut self) -> Rc<Loops> {
        let func = self.func;
        self.loop_proof
            .loops
            .get_or_insert_with(|| Rc::new(counted_loops(func)))
            .clone()
    }

    /// A value of the block before the loop as one `i64` (`lane0`: work-item 0's value of an
    /// affine one in the vectorised loop; otherwise only uniform ones).
    fn outer_i64(&mut self, v: Value, lane0: bool) -> Option<ClValue> {
        let x = match self.shape(v) {
            Shape::Uniform => self.get1(v).ok()?,
            Shape::Affine(_) if lane0 => self.vec.as_ref()?.affine.get(&v)?.base,
            _ => return None,
        };
        Some(match self.b.func.dfg.value_type(x) {
            types::I64 => x,
            types::I32 | types::I16 | types::I8 => self.b.ins().sextend(types::I64, x),
            _ => return None,
        })
    }

    /// `v`'s form in `k`, computed in the block before the loop (`ok` collects the no-wrap
    /// conditions); `None` when it has none.
    #[allow(clippy::too_many_arguments)]
    fn form(
        &mut self,
        v: Value,
        lp: CountedLoop,
        body: &HashSet<kir::Inst>,
        lane0: bool,
        ok: &mut ClValue,
        depth: u32,
    ) -> Option<Form> {
        if v == lp.k {
            let rest = self.b.ins().iconst(types::I64, 0);
            let coef = self.b.ins().iconst(types::I64, 1);
            return Some(Form {
                rest,
                coef: Some(coef),
            });
        }
        if depth > 24 {
            return None;
        }
        let inst = match self.func.dfg.value_def(v) {
            ValueDef::Result(inst) if body.contains(&inst) => inst,
            ValueDef::Param(b, _) if b == lp.header => return None,
            ValueDef::Param(..) | ValueDef::Result(_) => {
                // Defined before the loop (a parameter of a block of the body is not: its
                // block is in the body only through instructions, so check those blocks).
                if let ValueDef::Param(b, _) = self.func.dfg.value_def(v) {
                    let inside = self.func.layout.insts(b).iter().any(|i| body.contains(i));
                    if inside {
                        return None;
                    }
                }
                let rest = self.outer_i64(v, lane0)?;
                if lane0 {
                    // The proof stands in for the lanes' guards (`contiguous` skips them).
                    let guards = self
                        .vec
                        .as_ref()
                        .and_then(|s| s.affine.get(&v))
                        .map(|af| af.guards.clone())
                        .unwrap_or_default();
                    for g in guards {
                        *ok = self.b.ins().band(*ok, g);
                    }
                }
                return Some(Form { rest, coef: None });
            }
        };
        let data = self.func.dfg.inst(inst).clone();
        let sub =
            |t: &mut Self, x: Value, ok: &mut ClValue| t.form(x, lp, body, lane0, ok, depth + 1);
        match data {
            InstData::Const { .. } => {
                let c = const_int(self.func, v)?;
                let rest = self.b.ins().iconst(types::I64, c);
                Some(Form { rest, coef: None })
            }
            InstData::Binary { op, a, b } => {
                let x = sub(self, a, ok)?;
                let y = sub(self, b, ok)?;
                match op {
                    BinaryOp::IAdd | BinaryOp::ISub => {
                        let add = op == BinaryOp::IAdd;
                        let rest = if add {
                            self.b.ins().iadd(x.rest, y.rest)
                        } else {
                            self.b.ins().isub(x.rest, y.rest)
                        };
                        let coef = match (x.coef, y.coef) {
                            (None, None) => None,
                            (Some(c), None) => Some(c),
                            (None, Some(c)) if add => Some(c),
                            (None, Some(c)) => Some(self.b.ins().ineg(c)),
                            (Some(c), Some(d)) if add => Some(self.b.ins().iadd(c, d)),
                            (Some(c), Some(d)) => Some(self.b.ins().isub(c, d)),
                        };
                        Some(Form { rest, coef })
                    }
                    BinaryOp::IMul => {
                        let rest = self.b.ins().imul(x.rest, y.rest);
                        let coef = match (x.coef, y.coef) {
                            (None, None) => None,
                            (Some(c), None) => Some(self.b.ins().imul(c, y.rest)),
                            (None, Some(c)) => Some(self.b.ins().imul(c, x.rest)),
                            (Some(_), Some(_)) => return None,
                        };
                        Some(Form { rest, coef })
                    }
                    BinaryOp::Shl => {
                        let s = const_int(self.func, b)?;
                        let bits = super::int_bits(self.ty(v))?;
                        if !(0..i64::from(bits)).contains(&s) {
                            return None;
                        }
                        Some(Form {
                            rest: self.b.ins().ishl_imm_u(x.rest, s),
                            coef: x.coef.map(|c| self.b.ins().ishl_imm_u(c, s)),
                        })
                    }
                    _ => None,
                }
            }
            InstData::Convert {
                op: op @ (ConvertOp::SConvert | ConvertOp::UConvert),
                arg,
                saturate: false,
                ..
            } => {
                let from = super::int_bits(self.ty(arg))?;
                let to = super::int_bits(self.ty(v))?;
                let f = sub(self, arg, ok)?;
                match (from, to) {
                    (32, 64) => {
                        let span = self.lane_span(arg, lane0);
                        Some(self.widen(f, op == ConvertOp::SConvert, span, lp, ok))
                    }
                    (64, 64) | (32, 32) | (64, 32) => Some(f),
                    _ => None,
                }
            }
            InstData::Convert {
                op: ConvertOp::SToU | ConvertOp::UToS | ConvertOp::Bitcast,
                arg,
                saturate: false,
                ..
            } if super::int_bits(self.ty(arg)).is_some()
                && super::int_bits(self.ty(arg)) == super::int_bits(self.ty(v)) =>
            {
                sub(self, arg, ok)
            }
            InstData::PtrAdd { ptr, offset } => {
                let o = sub(self, offset, ok)?;
                let o = match super::int_bits(self.ty(offset))? {
                    64 => o,
                    // `PtrAdd` sign-extends a narrower offset.
                    32 => {
                        let span = self.lane_span(offset, lane0);
                        self.widen(o, true, span, lp, ok)
                    }
                    _ => return None,
                };
                // The tag bits of the pointer do not matter: the offset is masked.
                let p = sub(self, ptr, ok)?;
                let rest = self.b.ins().iadd(p.rest, o.rest);
                let coef = match (p.coef, o.coef) {
                    (None, None) => None,
                    (Some(c), None) | (None, Some(c)) => Some(c),
                    (Some(c), Some(d)) => Some(self.b.ins().iadd(c, d)),
                };
                Some(Form { rest, coef })
            }
            _ => None,
        }
    }

    /// `k0` and the last value (`n − 1`, or `n` for `k ≤ n`) as `i64`.
    fn loop_ends(&mut self, lp: CountedLoop) -> Option<(ClValue, ClValue)> {
        let k0 = self.b.ins().iconst(types::I64, lp.k0);
        let n = match const_int(self.func, lp.n) {
            Some(c) => self.b.ins().iconst(types::I64, c),
            None => {
                let n = self.get1(lp.n).ok()?;
                self.b.ins().sextend(types::I64, n)
            }
        };
        let last = if lp.inclusive {
            n
        } else {
            self.b.ins().iadd_imm_s(n, -1)
        };
        Some((k0, last))
    }

    /// For a proof of work-item 0's access standing for the iteration's `WIDTH` work-items
    /// (`lane0`): how far the last work-item's value of the 32-bit `v` lies from work-item 0's
    /// (`(WIDTH − 1) × stride`; `None`: the same value; `Some(None)`: too far to prove).
    fn lane_span(&self, v: Value, lane0: bool) -> Option<Option<i64>> {
        match self.shape(v) {
            Shape::Affine(s) if lane0 => {
                Some(s.checked_mul(WIDTH as i64 - 1).filter(|d| d.abs() < LIMIT))
            }
            _ => None,
        }
    }

    /// The widening of a 32-bit form: exact along the loop when its values at both ends fit
    /// (added to `ok`). With `span` (`lane_span`), also the last work-item's values at both
    /// ends: the widening is then exact for every work-item of the iteration and every `k`
    /// (the value is linear in both), which is what the vectorised loop's guard of this
    /// widening checks at each iteration.
    fn widen(
        &mut self,
        f: Form,
        signed: bool,
        span: Option<Option<i64>>,
        lp: CountedLoop,
        ok: &mut ClValue,
    ) -> Form {
        let ext = |t: &mut Self, x: ClValue| {
            let low = t.b.ins().ireduce(types::I32, x);
            if signed {
                t.b.ins().sextend(types::I64, low)
            } else {
                t.b.ins().uextend(types::I64, low)
            }
        };
        let rest = ext(self, f.rest);
        let span = match span {
            Some(Some(d)) => Some(d),
            Some(None) => {
                *ok = self.b.ins().iconst(types::I8, 0);
                None
            }
            None => None,
        };
        // The last work-item's exact value `e + span` fits when `e` (work-item 0's) does.
        let lanes_fit = |t: &mut Self, e: ClValue, ok: &mut ClValue| {
            if let Some(d) = span {
                let last = t.b.ins().iadd_imm_s(e, d);
                let back = ext(t, last);
                let fits = t.b.ins().icmp(IntCC::Equal, back, last);
                *ok = t.b.ins().band(*ok, fits);
            }
        };
        let Some(c) = f.coef else {
            lanes_fit(self, rest, ok);
            return Form { rest, coef: None };
        };
        let c32 = self.b.ins().ireduce(types::I32, c);
        let coef = self.b.ins().sextend(types::I64, c32);
        let Some((k0, last)) = self.loop_ends(lp) else {
            *ok = self.b.ins().iconst(types::I8, 0);
            return Form {
                rest,
                coef: Some(coef),
            };
        };
        for k in [k0, last] {
            let ck = self.b.ins().imul(coef, k);
            let e = self.b.ins().iadd(rest, ck);
            let back = ext(self, e);
            let fits = self.b.ins().icmp(IntCC::Equal, back, e);
            *ok = self.b.ins().band(*ok, fits);
            lanes_fit(self, e, ok);
        }
        Form {
            rest,
            coef: Some(coef),
        }
    }

    /// At a jump (`jump`, to `dest`) into a counted loop from before it: the proofs of the
    /// loop's accesses (see the module's documentation), in the current block.
    pub(in crate::jit::compile) fn loop_entry(&mut self, jump: kir::Inst, dest: kir::Block) {
        if !enabled() {
            return;
        }
        let loops = self.counted();
        let Some(body) = loops.body.get(&dest) else {
            return;
        };
        if body.contains(&jump) {
            return;
        }
        let func = self.func;
        let mut proven = Vec::new();
        for &inst in body {
            let Some(&lp) = loops.of_inst.get(&inst) else {
                continue;
            };
            if lp.header != dest {
                continue;
            }
            let (ptr, ty) = match func.dfg.inst(inst) {
                InstData::Load { ptr, .. } => match func.dfg.inst_result(inst) {
                    Some(r) => (*ptr, self.ty(r)),
                    None => continue,
                },
                InstData::Store { ptr, value, .. } => (*ptr, self.ty(*value)),
                _ => continue,
            };
            let write = matches!(func.dfg.inst(inst), InstData::Store { .. });
            let Ok(lanes) = super::super::lanes_of(ty) else {
                continue;
            };
            let size: i64 = lanes
                .iter()
                .map(|&(cl, s)| i64::from(self.mem_width(cl, s)))
                .sum();
            let (lane0, size) = match self.shape(ptr) {
                Shape::Uniform => (false, size),
                Shape::Affine(stride) if stride == size => (true, size * WIDTH as i64),
                _ => continue,
            };
            if let Some((proof, ok)) = self.prove(ptr, lp, body, size, write, lane0) {
                self.loop_proof.proofs.insert(inst, proof);
                proven.push((inst, ok));
            } else {
                self.loop_proof.proofs.remove(&inst);
            }
        }
        self.bail_unproven(proven);
    }

    /// In a vectorised loop before any effect of the iteration: the proofs just made are
    /// checked here, the iteration abandoned (`BAIL`, the scalar loop runs it again and
    /// reports its errors) when one fails, and the loop's accesses are then direct.
    fn bail_unproven(&mut self, proven: Vec<(kir::Inst, ClValue)>) {
        if proven.is_empty() || self.vec.as_ref().is_none_or(|v| v.effect) {
            return;
        }
        let mut all = self.b.ins().iconst(types::I8, 1);
        for &(_, ok) in &proven {
            all = self.b.ins().band(all, ok);
        }
        let cont = self.b.create_block();
        let (bail, zero) = (self.vs().bail, self.iconst32(0));
        self.b.ins().brif(all, cont, &[], bail, &bargs(&[zero]));
        self.b.switch_to_block(cont);
        for (inst, _) in proven {
            if let Some(p) = self.loop_proof.proofs.get_mut(&inst) {
                p.sure = true;
            }
        }
    }

    /// The proof of an access of `size` bytes at `ptr` for the loop's whole range.
    fn prove(
        &mut self,
        ptr: Value,
        lp: CountedLoop,
        body: &HashSet<kir::Inst>,
        size: i64,
        write: bool,
        lane0: bool,
    ) -> Option<(Proof, ClValue)> {
        if !(1..LIMIT).contains(&size) || self.shape(lp.k) != Shape::Uniform {
            return None;
        }
        let root = self.root_entry(ptr)?;
        let mut ok = self.b.ins().iconst(types::I8, 1);
        let f = self.form(ptr, lp, body, lane0, &mut ok, 0)?;
        let coef = f.coef?;
        let (k0, last) = self.loop_ends(lp)?;
        // C small: every product below is exact.
        let c32 = self.b.ins().ireduce(types::I32, coef);
        let c = self.b.ins().sextend(types::I64, c32);
        let small = self.b.ins().icmp(IntCC::Equal, c, coef);
        ok = self.b.ins().band(ok, small);
        let ck0 = self.b.ins().imul(coef, k0);
        let at0 = self.b.ins().iadd(f.rest, ck0);
        let off0 = self
            .b
            .ins()
            .band_imm_s(at0, self.layout.offset_mask() as i64);
        let span = self.b.ins().isub(last, k0);
        let cspan = self.b.ins().imul(coef, span);
        let off1 = self.b.ins().iadd(off0, cspan);
        let len = if write { root.write_len } else { root.read_len };
        let end0 = self.b.ins().iadd_imm_s(off0, size);
        let end1 = self.b.ins().iadd_imm_s(off1, size);
        let in0 = self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, end0, len);
        let in1 = self.b.ins().icmp(IntCC::SignedLessThanOrEqual, end1, len);
        let pos1 = self
            .b
            .ins()
            .icmp_imm_s(IntCC::SignedGreaterThanOrEqual, off1, 0);
        ok = self.b.ins().band(ok, in0);
        ok = self.b.ins().band(ok, in1);
        ok = self.b.ins().band(ok, pos1);
        // A = base + offset(k0) − C × k0.
        let at = self.b.ins().iadd(root.base, off0);
        let start = self.b.ins().isub(at, ck0);
        let slot =
            self.b
                .create_sized_stack_slot(StackSlotData::new(StackSlotKind::ExplicitSlot, 16, 3));
        self.b.ins().stack_store(types::I64, ok, slot, 0);
        self.b.ins().stack_store(types::I64, start, slot, 8);
        Some((
            Proof {
                size,
                slot,
                coef,
                sure: false,
            },
            ok,
        ))
    }

    /// For an access of `size` bytes inside a counted loop proven at the loop's entry: the
    /// proof and the native address for the current `k`.
    fn loop_access(&mut self, inst: kir::Inst, size: i64) -> Option<(Option<ClValue>, ClValue)> {
        if self.loop_proof.checking {
            return None;
        }
        let proof = *self.loop_proof.proofs.get(&inst)?;
        if proof.size != size {
            return None;
        }
        let lp = self
            .loop_proof
            .loops
            .as_ref()?
            .of_inst
            .get(&inst)
            .copied()?;
        let k = self.get1(lp.k).ok()?;
        let k = self.b.ins().sextend(types::I64, k);
        let ck = self.b.ins().imul(proof.coef, k);
        let ok = (!proof.sure).then(|| {
            self.b
                .ins()
                .stack_load(types::I64, types::I8, proof.slot, 0)
        });
        let start = self
            .b
            .ins()
            .stack_load(types::I64, types::I64, proof.slot, 8);
        let addr = self.b.ins().iadd(start, ck);
        Some((ok, addr))
    }

    /// `address` of a scalar (or uniform) access inside a counted loop, when it has a proof:
    /// the direct address when the proof holds, the checked one (`address`) otherwise.
    pub(in crate::jit::compile) fn loop_proven_address(
        &mut self,
        inst: kir::Inst,
        ptr_value: Value,
        ptr: ClValue,
        size: u64,
        write: bool,
    ) -> Option<ClValue> {
        if self.vec.is_some() && self.shape(ptr_value) != Shape::Uniform {
            return None;
        }
        let (ok, direct) = self.loop_access(inst, i64::try_from(size).ok()?)?;
        let Some(ok) = ok else {
            return Some(direct);
        };
        let checked = self.b.create_block();
        self.b.set_cold_block(checked);
        let join = self.b.create_block();
        let addr = self.b.append_block_param(join, types::I64);
        self.b.ins().brif(ok, join, &bargs(&[direct]), checked, &[]);
        self.b.switch_to_block(checked);
        self.loop_proof.checking = true;
        let first_new = self.b.func.dfg.num_blocks();
        let slow = self.address(inst, ptr_value, ptr, size, write);
        // The checked access's blocks go after the hot code (out of the loop's body).
        for i in first_new..self.b.func.dfg.num_blocks() {
            self.b
                .set_cold_block(cranelift_codegen::ir::Block::from_u32(i as u32));
        }
        self.loop_proof.checking = false;
        self.b.ins().jump(join, &bargs(&[slow]));
        self.b.switch_to_block(join);
        Some(addr)
    }

    /// For a contiguous access of the vectorised loop (`size` bytes per work-item) inside a
    /// counted loop: the proof for work-items 0..WIDTH (`None`: checked at the loop's entry)
    /// and work-item 0's address.
    pub(super) fn loop_contiguous(
        &mut self,
        inst: kir::Inst,
        _ptr: Value,
        size: i64,
        _write: bool,
    ) -> Option<(Option<ClValue>, ClValue)> {
        self.loop_access(inst, size * WIDTH as i64)
    }
}
