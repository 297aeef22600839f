//! Masked loops: a loop whose branches depend on the work-item (a varying exit, `&&` and `?:`
//! inside) run by the vectorised row loop with every work-item of the iteration in lock step.
//!
//! The loop's blocks are executed one after the other in a topological order of its body (the
//! header first, the latch last), whatever the branches say: both sides of every branch are
//! computed for every work-item. A block parameter reached by several edges takes, lane by
//! lane, the argument of the edge its work-item took (a select under the edge masks: the mask
//! of the block the edge leaves and the branch condition). The header holds one more value, the
//! mask of the work-items still in the loop; at the latch it keeps only those that take the
//! back edge, the loop-carried values of the others keep their value (a select; only for the
//! values the results after the loop are computed from), and the loop ends when no work-item is
//! left. Its only exit edge is then taken with the arguments the
//! last round computed: a work-item that left earlier computed them from the values it kept,
//! that is the values it left with, so they are the ones it left with.
//!
//! This is exact only because nothing in the loop can be seen or fail: every instruction of a
//! masked loop is free of effects and cannot fail whatever its operands (no loads, stores or
//! calls; integer division does not trap in kir; math built-ins only through their direct
//! helpers), since work-items that left the loop or are on the other side of a branch run it
//! too. A loop needing masks that does not have this form (several back or exit edges, nested
//! loops, effects) keeps the kernel on the scalar row loop.

use std::collections::{HashMap, HashSet};

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, InstBuilder};
use kir::{BlockCall, BuiltinFn, Function, InstData, Value};

use super::super::{bargs, ClValue, Translator, Unsupported};
use super::simd_int::simd_cl;
use super::{has_effect, is_f32, Shape, WIDTH};

/// A loop run under a mask of the work-items still in it.
#[derive(Clone, Debug)]
pub(super) struct MaskedLoop {
    header: kir::Block,
    /// Its blocks in execution order: the header first, the latch last.
    blocks: Vec<kir::Block>,
    /// The edge leaving the loop (from a block of the loop).
    exit: kir::Block,
}

/// The blocks of loop `l` every work-item of a round goes through (whether it leaves the loop
/// or takes the back edge): their mask is the header's.
fn on_every_path(func: &Function, l: &MaskedLoop) -> HashSet<kir::Block> {
    let latch = l.blocks[l.blocks.len() - 1];
    let mut out = HashSet::new();
    for &b in &l.blocks {
        // Does a round avoiding `b` reach the latch or the exit?
        let mut seen = HashSet::new();
        let mut stack = vec![l.header];
        let mut avoided = false;
        while let Some(x) = stack.pop() {
            if x == b || !seen.insert(x) {
                continue;
            }
            if x == latch {
                avoided = true;
                break;
            }
            for s in succs(func, x) {
                if s == l.exit {
                    avoided = true;
                } else if s != l.header {
                    stack.push(s);
                }
            }
            if avoided {
                break;
            }
        }
        if !avoided {
            out.insert(b);
        }
    }
    out
}

/// The header parameters of loop `l` whose value a work-item that left must keep: those the
/// values used after the loop (exit arguments, uses in other blocks) are computed from. The
/// others may take any value once the work-item has left (it is inactive: what is computed
/// from them only enters masks under the active mask, and nothing in the loop fails).
fn kept_params(func: &Function, l: &MaskedLoop) -> HashSet<Value> {
    let mut defined_at: HashMap<kir::Inst, kir::Block> = HashMap::new();
    for &b in &l.blocks {
        for &i in func.layout.insts(b) {
            defined_at.insert(i, b);
        }
    }
    let in_loop = |v: Value| match func.dfg.value_def(v) {
        kir::ValueDef::Result(i) => defined_at.contains_key(&i),
        kir::ValueDef::Param(b, _) => l.blocks.contains(&b),
    };
    let mut need = Vec::new();
    for &b in &func.layout.blocks {
        if l.blocks.contains(&b) {
            if let Some(t) = func.terminator(b) {
                for dest in func.dfg.inst(t).branch_targets() {
                    if dest.block == l.exit {
                        need.extend(dest.args.iter().copied());
                    }
                }
            }
            continue;
        }
        for &i in func.layout.insts(b) {
            need.extend(
                func.dfg
                    .inst(i)
                    .operands()
                    .into_iter()
                    .filter(|&v| in_loop(v)),
            );
        }
    }
    let mut seen = HashSet::new();
    let mut kept = HashSet::new();
    while let Some(v) = need.pop() {
        if !in_loop(v) || !seen.insert(v) {
            continue;
        }
        match func.dfg.value_def(v) {
            kir::ValueDef::Result(i) => need.extend(func.dfg.inst(i).operands()),
            kir::ValueDef::Param(b, _) if b == l.header => {
                kept.insert(v);
            }
            kir::ValueDef::Param(b, k) => {
                for &p in &l.blocks {
                    if let Some(t) = func.terminator(p) {
                        for dest in func.dfg.inst(t).branch_targets() {
                            if dest.block == b {
                                need.extend(dest.args.get(k).copied());
                            }
                        }
                    }
                }
            }
        }
    }
    kept
}

/// The successors of `b` (one per edge).
fn succs(func: &Function, b: kir::Block) -> Vec<kir::Block> {
    func.terminator(b)
        .map(|t| {
            func.dfg
                .inst(t)
                .branch_targets()
                .iter()
                .map(|c| c.block)
                .collect()
        })
        .unwrap_or_default()
}

/// A natural loop: its header, the sources of its back edges, its blocks.
struct NaturalLoop {
    header: kir::Block,
    latches: Vec<kir::Block>,
    blocks: HashSet<kir::Block>,
}

/// The natural loops of the function (`order`: reverse postorder).
fn natural_loops(func: &Function, order: &[kir::Block]) -> Vec<NaturalLoop> {
    let index: HashMap<kir::Block, usize> =
        order.iter().enumerate().map(|(i, &b)| (b, i)).collect();
    let mut preds: HashMap<kir::Block, Vec<kir::Block>> = HashMap::new();
    let mut loops: Vec<NaturalLoop> = Vec::new();
    for &b in order {
        for s in succs(func, b) {
            preds.entry(s).or_default().push(b);
            if index.get(&s).is_some_and(|&i| i <= index[&b]) {
                match loops.iter_mut().find(|l| l.header == s) {
                    Some(l) => l.latches.push(b),
                    None => loops.push(NaturalLoop {
                        header: s,
                        latches: vec![b],
                        blocks: HashSet::new(),
                    }),
                }
            }
        }
    }
    for l in &mut loops {
        l.blocks.insert(l.header);
        let mut stack = l.latches.clone();
        while let Some(b) = stack.pop() {
            if l.blocks.insert(b) {
                stack.extend(preds.get(&b).into_iter().flatten().copied());
            }
        }
    }
    loops
}

/// Whether an instruction may run for a work-item that does not take its path: no effect,
/// no failure whatever the operands.
fn harmless(func: &Function, inst: kir::Inst) -> bool {
    let data = func.dfg.inst(inst);
    if has_effect(func, data) {
        return false;
    }
    match data {
        InstData::Const { .. }
        | InstData::Unary { .. }
        | InstData::Binary { .. }
        | InstData::Cmp { .. }
        | InstData::Test { .. }
        | InstData::Reduce { .. }
        | InstData::Select { .. }
        | InstData::Convert { .. }
        | InstData::ExtractLane { .. }
        | InstData::InsertLane { .. }
        | InstData::ExtractLaneDyn { .. }
        | InstData::InsertLaneDyn { .. }
        | InstData::Shuffle { .. }
        | InstData::Splat { .. }
        | InstData::ExtractBytes { .. }
        | InstData::InsertBytes { .. }
        | InstData::WorkItem { .. }
        | InstData::PtrAdd { .. }
        | InstData::Jump { .. }
        | InstData::Brif { .. } => true,
        // The general built-in path may report an error; direct helpers and inline
        // translations cannot.
        InstData::Builtin { func: bf, .. } => {
            let rs = func
                .dfg
                .inst_result(inst)
                .and_then(|r| func.dfg.value_type(r).lane_type());
            match rs {
                Some(kir::ScalarType::F32) if matches!(bf, BuiltinFn::Sqrt | BuiltinFn::Fabs) => {
                    true
                }
                Some(s) => super::super::super::math_rt::direct(*bf, s).is_some(),
                None => false,
            }
        }
        _ => false,
    }
}

/// `l` as a masked loop, or why it cannot be one.
fn masked_form(
    func: &Function,
    order: &[kir::Block],
    l: &NaturalLoop,
    all: &[NaturalLoop],
) -> Result<MaskedLoop, Unsupported> {
    let [latch] = l.latches[..] else {
        return Err("a loop with a varying branch has several back edges".into());
    };
    if all
        .iter()
        .any(|o| o.header != l.header && l.blocks.contains(&o.header))
    {
        return Err("a loop with a varying branch contains a loop".into());
    }
    let blocks: Vec<kir::Block> = order
        .iter()
        .copied()
        .filter(|b| l.blocks.contains(b))
        .collect();
    if blocks.first() != Some(&l.header) || blocks.last() != Some(&latch) {
        return Err("a loop with a varying branch is not ordered".into());
    }
    let mut exit = None;
    for (i, &b) in blocks.iter().enumerate() {
        for &inst in func.layout.insts(b) {
            if !harmless(func, inst) {
                return Err(format!(
                    "{} in a loop with a varying branch",
                    func.dfg.inst(inst).opcode_name()
                ));
            }
        }
        for s in succs(func, b) {
            if !l.blocks.contains(&s) {
                if exit.is_some() {
                    return Err("a loop with a varying branch has several exits".into());
                }
                exit = Some(s);
            } else if s != l.header && !blocks[i + 1..].contains(&s) {
                return Err("a loop with a varying branch is not ordered".into());
            } else if s == l.header && b != latch {
                return Err("a loop with a varying branch has several back edges".into());
            }
        }
    }
    let exit = exit.ok_or("a loop with a varying branch never exits")?;
    Ok(MaskedLoop {
        header: l.header,
        blocks,
        exit,
    })
}

/// The loops that must be masked given `shapes` (those with a varying branch), beyond
/// `known`; an error when such a loop cannot be masked.
pub(super) fn loops_to_mask(
    func: &Function,
    order: &[kir::Block],
    shapes: &[Shape],
    known: &[MaskedLoop],
) -> Result<Vec<MaskedLoop>, Unsupported> {
    let mut loops = natural_loops(func, order);
    // Inner loops first: a loop whose only varying branches are those of masked loops inside
    // it keeps uniform control flow.
    loops.sort_by_key(|l| l.blocks.len());
    let mut out: Vec<MaskedLoop> = Vec::new();
    for l in &loops {
        if known.iter().any(|k| k.header == l.header) {
            continue;
        }
        let inner_masked = |b: kir::Block| {
            known.iter().chain(&out).any(|m| {
                m.header != l.header && l.blocks.contains(&m.header) && m.blocks.contains(&b)
            })
        };
        let varying = l.blocks.iter().any(|&b| {
            !inner_masked(b)
                && func
                    .terminator(b)
                    .and_then(|t| match func.dfg.inst(t) {
                        InstData::Brif { cond, .. } => Some(*cond),
                        InstData::Switch { value, .. } => Some(*value),
                        _ => None,
                    })
                    .is_some_and(|c| !matches!(shapes[c.index()], Shape::Uniform | Shape::Unknown))
        });
        if varying {
            let m = masked_form(func, order, l, &loops)?;
            out.push(m);
        }
    }
    Ok(out)
}

/// Block parameters the masks make varying whatever their arguments: the loop-carried values,
/// the parameters of blocks several edges of the loop reach, and those of the exit target.
pub(super) fn forced_varying(func: &Function, loops: &[MaskedLoop]) -> HashSet<Value> {
    let mut out = HashSet::new();
    for l in loops {
        let mut incoming: HashMap<kir::Block, usize> = HashMap::new();
        for &b in &l.blocks {
            for s in succs(func, b) {
                *incoming.entry(s).or_default() += 1;
            }
        }
        for &b in &l.blocks {
            if b == l.header || incoming.get(&b).copied().unwrap_or(0) > 1 {
                out.extend(func.dfg.block_params(b).iter().copied());
            }
        }
        out.extend(func.dfg.block_params(l.exit).iter().copied());
    }
    out
}

/// Whether block `b` belongs to one of the masked `loops`.
pub(super) fn in_masked_loop(loops: &[MaskedLoop], b: kir::Block) -> bool {
    loops.iter().any(|l| l.blocks.contains(&b))
}

/// Translation state of the masked loops.
#[derive(Default)]
pub(super) struct MaskState {
    loops: Vec<MaskedLoop>,
    /// Per terminator of a block of a masked loop: the loop and the block's position in it.
    terminators: HashMap<kir::Inst, (usize, usize)>,
    /// Headers and exit targets: their `i32` and `bool` parameters are vectors.
    simd_blocks: HashSet<kir::Block>,
    /// Per header: its parameter holding the mask of the work-items still in the loop.
    active: HashMap<kir::Block, ClValue>,
    /// Per block of a masked loop: the work-items whose path in the round goes through it
    /// (`None`: all).
    block_mask: HashMap<kir::Block, Option<ClValue>>,
    /// Per block of a masked loop: the edges translated so far that reach it, with their masks.
    incoming: HashMap<kir::Block, Vec<(Option<ClValue>, BlockCall)>>,
    /// Per header: the exit edge, once translated.
    exit_call: HashMap<kir::Block, BlockCall>,
    /// Blocks of masked loops every work-item of a round goes through.
    full: HashSet<kir::Block>,
    /// Header parameters whose value work-items that left keep (see `kept_params`).
    kept: HashSet<Value>,
}

impl MaskState {
    pub(super) fn new(func: &Function, loops: Vec<MaskedLoop>) -> MaskState {
        let mut s = MaskState::default();
        for (li, l) in loops.iter().enumerate() {
            for (k, &b) in l.blocks.iter().enumerate() {
                if let Some(t) = func.terminator(b) {
                    s.terminators.insert(t, (li, k));
                }
            }
            s.simd_blocks.insert(l.header);
            s.simd_blocks.insert(l.exit);
            s.full.extend(on_every_path(func, l));
            s.kept.extend(kept_params(func, l));
        }
        s.loops = loops;
        s
    }

    fn loop_of(&self, b: kir::Block) -> Option<&MaskedLoop> {
        self.loops.iter().find(|l| l.blocks.contains(&b))
    }
}

/// Whether `v` is the constant `false`.
fn is_false(func: &Function, v: Value) -> bool {
    let kir::ValueDef::Result(inst) = func.dfg.value_def(v) else {
        return false;
    };
    func.dfg.value_type(v) == kir::Type::Bool
        && matches!(func.dfg.inst(inst), InstData::Const { bytes } if bytes.iter().all(|&b| b == 0))
}

/// Per-edge arguments to bind: the edge's mask and its call.
type Edge = (Option<ClValue>, BlockCall);

impl Translator<'_, '_> {
    fn ms(&mut self) -> &mut MaskState {
        &mut self.vs().masked
    }

    /// Whether varying block parameter `p` is kept as a vector (`f32`; `i32` and `bool` of
    /// the headers and exit targets of masked loops).
    pub(super) fn simd_param(&mut self, p: Value) -> bool {
        let t = self.ty(p);
        if is_f32(t) {
            return true;
        }
        let kir::ValueDef::Param(b, _) = self.func.dfg.value_def(p) else {
            return false;
        };
        simd_cl(t).is_some() && self.ms().simd_blocks.contains(&b)
    }

    /// Whether the parameters of block `kb` are bound when the block before it in its masked
    /// loop ends (it has no Cranelift parameters).
    pub(super) fn params_bound_at_jump(&mut self, kb: kir::Block) -> bool {
        self.ms().loop_of(kb).is_some_and(|l| l.header != kb)
    }

    /// Adds the active-mask parameter of masked-loop header `kb` (after its other parameters).
    pub(super) fn add_mask_param(&mut self, kb: kir::Block, cb: cranelift_codegen::ir::Block) {
        if self.ms().loops.iter().any(|l| l.header == kb) {
            let a = self.b.append_block_param(cb, types::I32X4);
            self.ms().active.insert(kb, a);
            self.ms().block_mask.insert(kb, None);
        }
    }

    /// The active mask an edge from outside the loop passes to masked-loop header `block`:
    /// every work-item (they reach it together).
    pub(super) fn entry_mask(&mut self, block: kir::Block) -> Option<ClValue> {
        if !self.ms().loops.iter().any(|l| l.header == block) {
            return None;
        }
        let ones = self.b.ins().iconst(types::I32, -1);
        Some(self.b.ins().splat(types::I32X4, ones))
    }

    /// Translates `inst` when it ends a block of a masked loop; returns whether it did.
    pub(super) fn masked_terminator(&mut self, inst: kir::Inst) -> Result<bool, Unsupported> {
        let Some(&(li, k)) = self.ms().terminators.get(&inst) else {
            return Ok(false);
        };
        let func = self.func;
        let l = self.ms().loops[li].clone();
        let kb = l.blocks[k];
        let here = self.ms().block_mask.get(&kb).copied().flatten();
        let edges: Vec<Edge> = match func.dfg.inst(inst) {
            InstData::Jump { dest } => vec![(here, dest.clone())],
            InstData::Brif {
                cond,
                then_dest,
                else_dest,
            } => {
                let c = self.simd_of(*cond)?[0];
                let not_c = self.b.ins().bnot(c);
                let (t, e) = match here {
                    Some(m) => (self.b.ins().band(m, c), self.b.ins().band(m, not_c)),
                    None => (c, not_c),
                };
                vec![(Some(t), then_dest.clone()), (Some(e), else_dest.clone())]
            }
            _ => return Err("a masked loop ends a block with neither jump nor brif".into()),
        };
        let mut back = None;
        for (m, dest) in edges {
            if dest.block == l.header {
                back = Some((m, dest));
            } else if dest.block == l.exit && !l.blocks.contains(&dest.block) {
                self.ms().exit_call.insert(l.header, dest);
            } else {
                self.ms()
                    .incoming
                    .entry(dest.block)
                    .or_default()
                    .push((m, dest));
            }
        }
        if k + 1 < l.blocks.len() {
            let next = l.blocks[k + 1];
            let incoming = self.ms().incoming.remove(&next).unwrap_or_default();
            if incoming.is_empty() {
                return Err(format!("{next} of a masked loop is not reached"));
            }
            let full = self.ms().full.contains(&next);
            let mask = if full || incoming.iter().any(|(m, _)| m.is_none()) {
                None
            } else {
                let mut acc = incoming[0].0;
                for (m, _) in &incoming[1..] {
                    if let (Some(a), Some(b)) = (acc, *m) {
                        acc = Some(self.b.ins().bor(a, b));
                    }
                }
                acc
            };
            self.bind_params(next, &incoming)?;
            self.ms().block_mask.insert(next, mask);
            let cb = self.blocks[&next];
            self.b.ins().jump(cb, &[]);
            return Ok(true);
        }
        // The latch: keep the work-items taking the back edge, loop while one is left.
        let (m, dest) = back.ok_or("the latch of a masked loop does not go back")?;
        let exit = self
            .ms()
            .exit_call
            .remove(&l.header)
            .ok_or("the exit of a masked loop comes after its latch")?;
        let active = *self
            .ms()
            .active
            .get(&l.header)
            .ok_or("masked loop header without mask")?;
        let still = match m {
            Some(m) => self.b.ins().band(active, m),
            None => active,
        };
        let params = func.dfg.block_params(l.header).to_vec();
        let mut args = Vec::new();
        for (&p, &a) in params.iter().zip(&dest.args) {
            if !self.ms().kept.contains(&p) {
                if self.simd_param(p) {
                    args.extend(self.simd_of(a)?);
                } else {
                    for j in 0..WIDTH {
                        args.extend(self.lane(a, j)?);
                    }
                }
            } else if self.simd_param(p) {
                let new = self.simd_of(a)?;
                let old = self.simd_of(p)?;
                for (n, o) in new.into_iter().zip(old) {
                    args.push(self.simd_select(still, n, o));
                }
            } else {
                for j in 0..WIDTH {
                    let on = self.lane_mask(still, j);
                    let new = self.lane(a, j)?;
                    let old = self.lane(p, j)?;
                    for (n, o) in new.into_iter().zip(old) {
                        args.push(self.b.ins().select(on, n, o));
                    }
                }
            }
        }
        args.push(still);
        let any = self.b.ins().vany_true(still);
        let (ecb, eargs) = self.vblock_call(&exit)?;
        let hcb = self.blocks[&l.header];
        self.b.ins().brif(any, hcb, &bargs(&args), ecb, &eargs);
        Ok(true)
    }

    /// Lane `j` of lane mask `mask` as a scalar condition.
    fn lane_mask(&mut self, mask: ClValue, j: usize) -> ClValue {
        let l = self.b.ins().extractlane(mask, j as u8);
        self.b.ins().icmp_imm_s(IntCC::NotEqual, l, 0)
    }

    /// Binds the parameters of `block` (inside a masked loop) to, lane by lane, the argument
    /// of the edge the work-item took (the last edge whose mask holds; the first otherwise).
    fn bind_params(&mut self, block: kir::Block, incoming: &[Edge]) -> Result<(), Unsupported> {
        let func = self.func;
        let params = func.dfg.block_params(block).to_vec();
        for (i, &p) in params.iter().enumerate() {
            let args: Vec<(Option<ClValue>, Value)> = incoming
                .iter()
                .map(|(m, d)| d.args.get(i).map(|&a| (*m, a)))
                .collect::<Option<_>>()
                .ok_or("branch arguments do not match the parameters")?;
            if args.len() == 1 && self.shape(p) == Shape::Uniform {
                let l = self.get(args[0].1)?;
                self.vals[p.index()] = Some(l);
                continue;
            }
            if self.shape(p) == Shape::Uniform {
                return Err("a parameter reached by several edges is uniform".into());
            }
            if simd_cl(self.ty(p)).is_some() {
                let mut cur = self.simd_of(args[0].1)?;
                // `false` on the first edge (`a && b`): the others' masks and values.
                let mut cur_false = is_false(func, args[0].1);
                for &(m, a) in &args[1..] {
                    let x = self.simd_of(a)?;
                    cur = match m {
                        None => x,
                        Some(m) if cur_false => vec![self.b.ins().band(m, x[0])],
                        Some(m) => x
                            .into_iter()
                            .zip(cur)
                            .map(|(x, c)| self.simd_select(m, x, c))
                            .collect(),
                    };
                    cur_false = false;
                }
                self.vs().simd.insert(p, cur);
            } else {
                let mut per = Vec::new();
                for j in 0..WIDTH {
                    let mut cur = self.lane(args[0].1, j)?;
                    for &(m, a) in &args[1..] {
                        let x = self.lane(a, j)?;
                        cur = match m {
                            None => x,
                            Some(m) => {
                                let on = self.lane_mask(m, j);
                                x.into_iter()
                                    .zip(cur)
                                    .map(|(x, c)| self.b.ins().select(on, x, c))
                                    .collect()
                            }
                        };
                    }
                    per.push(cur);
                }
                self.vs().varying.insert(p, per);
            }
        }
        Ok(())
    }
}
