//! Strided induction variables of the vectorised phase loop: pyopencl's reductions walk their
//! range as `i = start + (group × G × seq + lid) × step; for (s = 0; s < seq; ++s) { …x[i]…;
//! i += G × step; }`. The loop-carried `i` is a block parameter (never affine), and `lid ×
//! step` with a run-time `step` is not affine either, so every `x[i]` would be a load per
//! work-item. The vectorised phase loop translates instead a copy of the kernel function
//! (`specialise`) in which
//! - a kernel parameter that multiplies a row-varying value in the entry value of such a
//!   variable and also appears in its increment (the range's `step`) is the constant 1, and
//!   the loop checks once per call that the argument is 1 (`step_guard`; otherwise every
//!   iteration is abandoned to the scalar phase loop, which runs the kernel as written);
//! - inside the loop, a variable `p` entering as `a0` and coming back as `p + d` (`d`
//!   loop-invariant) is `a0 + k × d`, with `k = c − c0` of the loop's counter `c` (entering as
//!   `c0`, coming back as `c + 1`, tested `c < n` at the header before anything else of the
//!   loop runs, so it never wraps and `k` is the trip count exactly): an affine value, whose
//!   accesses are contiguous. The wrapping arithmetic is the same modulo the type's width.
//!
//! The copy adds instructions and changes operands only; its barriers keep their instruction
//! numbers and the values live across them are the original's (checked), so both phase loops
//! keep the same sites and spill layout.

use std::collections::{HashMap, HashSet};

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, InstBuilder, MemFlagsData};
use kir::{BinaryOp, CmpOp, ConvertOp, Function, InstData, Type, Value, ValueDef};

use super::super::{lanes_of, rpo, ClValue, Translator, Unsupported};
use super::{const_int, int_bits, result_shape, Shape};
use crate::jit::rt;

/// A loop's counter and the induction variables rewritten in terms of it.
struct CountedLoop {
    header: kir::Block,
    body: HashSet<kir::Block>,
    counter: Value,
    counter_start: Value,
    /// (parameter, entry value, increment)
    vars: Vec<(Value, Value, Value)>,
}

/// The block of each placed instruction.
fn inst_blocks(func: &Function) -> HashMap<kir::Inst, kir::Block> {
    let mut out = HashMap::new();
    for &b in &func.layout.blocks {
        for &i in func.layout.insts(b) {
            out.insert(i, b);
        }
    }
    out
}

fn def_block(
    func: &Function,
    blocks: &HashMap<kir::Inst, kir::Block>,
    v: Value,
) -> Option<kir::Block> {
    match func.dfg.value_def(v) {
        ValueDef::Param(b, _) => Some(b),
        ValueDef::Result(i) => blocks.get(&i).copied(),
    }
}

fn edges(func: &Function) -> Vec<(kir::Block, kir::Block, Vec<Value>)> {
    let mut out = Vec::new();
    for &b in &func.layout.blocks {
        for &i in func.layout.insts(b) {
            for d in func.dfg.inst(i).branch_targets() {
                out.push((b, d.block, d.args.clone()));
            }
        }
    }
    out
}

/// Pure integer instructions that cannot fail (copied out of a loop when their operands are
/// defined before it).
fn copyable(data: &InstData) -> bool {
    match data {
        InstData::Const { .. } => true,
        InstData::Binary { op, .. } => matches!(
            op,
            BinaryOp::IAdd | BinaryOp::ISub | BinaryOp::IMul | BinaryOp::Shl
        ),
        InstData::Convert {
            op: ConvertOp::UConvert | ConvertOp::SConvert,
            saturate: false,
            rounding: None,
            ..
        } => true,
        _ => false,
    }
}

/// Whether `v` is computed outside `body`, or by copyable instructions from such values.
fn invariant(
    func: &Function,
    blocks: &HashMap<kir::Inst, kir::Block>,
    body: &HashSet<kir::Block>,
    v: Value,
    depth: u32,
) -> bool {
    match def_block(func, blocks, v) {
        Some(b) if !body.contains(&b) => return true,
        None => return false,
        _ => {}
    }
    let ValueDef::Result(i) = func.dfg.value_def(v) else {
        return false;
    };
    let data = func.dfg.inst(i);
    depth < 8
        && copyable(data)
        && int_bits(func.dfg.value_type(v)).is_some()
        && data
            .operands()
            .iter()
            .all(|&x| invariant(func, blocks, body, x, depth + 1))
}

/// Whether `v`'s computation reads `target` (within 256 values of it).
fn depends_on(func: &Function, v: Value, target: Value) -> bool {
    let mut seen = HashSet::new();
    let mut stack = vec![v];
    while let Some(x) = stack.pop() {
        if x == target {
            return true;
        }
        if seen.len() > 256 || !seen.insert(x) {
            continue;
        }
        if let ValueDef::Result(i) = func.dfg.value_def(x) {
            stack.extend(func.dfg.inst(i).operands());
        }
    }
    false
}

/// The counted loops of `func` with integer induction variables to rewrite.
fn counted_loops(func: &Function) -> Vec<CountedLoop> {
    let blocks = inst_blocks(func);
    let all = edges(func);
    let mut out = Vec::new();
    for &h in &func.layout.blocks {
        // Cheap tests first: a header holds only the counter's test.
        let header_test = matches!(func.layout.insts(h), [c, b]
            if matches!(func.dfg.inst(*c), InstData::Cmp { .. })
                && matches!(func.dfg.inst(*b), InstData::Brif { .. }));
        if !header_test {
            continue;
        }
        let preds: Vec<_> = all.iter().filter(|e| e.1 == h).collect();
        if preds.len() != 2 || preds[0].0 == preds[1].0 {
            continue;
        }
        // The body: the blocks reaching a predecessor without passing the header.
        let reach_h = |from: kir::Block| {
            let mut seen = HashSet::from([h]);
            let mut stack = vec![from];
            while let Some(x) = stack.pop() {
                if seen.insert(x) {
                    stack.extend(all.iter().filter(|e| e.1 == x).map(|e| e.0));
                }
            }
            seen
        };
        // The back edge comes from a block the header reaches, the entry edge from one it
        // does not.
        let mut fwd = HashSet::new();
        let mut stack = vec![h];
        while let Some(x) = stack.pop() {
            for e in all.iter().filter(|e| e.0 == x) {
                if fwd.insert(e.1) {
                    stack.push(e.1);
                }
            }
        }
        let (back, entry) = match (fwd.contains(&preds[0].0), fwd.contains(&preds[1].0)) {
            (true, false) => (preds[0], preds[1]),
            (false, true) => (preds[1], preds[0]),
            _ => continue,
        };
        let body = reach_h(back.0);
        if body.contains(&entry.0) || !is_loop(&all, h, &body) {
            continue;
        }
        // The header tests the counter first: `brif (cmp ult|slt c, n), body, exit`.
        let insts = func.layout.insts(h);
        let [cmp, brif] = insts else {
            continue;
        };
        let InstData::Brif {
            cond,
            then_dest,
            else_dest,
        } = func.dfg.inst(*brif)
        else {
            continue;
        };
        let InstData::Cmp {
            op: CmpOp::ULt | CmpOp::SLt,
            a: c,
            b: n,
        } = func.dfg.inst(*cmp)
        else {
            continue;
        };
        if func.dfg.inst_result(*cmp) != Some(*cond)
            || !body.contains(&then_dest.block)
            || body.contains(&else_dest.block)
            || !invariant(func, &blocks, &body, *n, 8)
        {
            continue;
        }
        let params = func.dfg.block_params(h);
        let Some(ci) = params.iter().position(|p| p == c) else {
            continue;
        };
        let increment = |k: usize| -> Option<(Value, Value)> {
            let ValueDef::Result(i) = func.dfg.value_def(back.2[k]) else {
                return None;
            };
            match func.dfg.inst(i) {
                InstData::Binary {
                    op: BinaryOp::IAdd,
                    a,
                    b,
                } if *a == params[k] => Some((*a, *b)),
                InstData::Binary {
                    op: BinaryOp::IAdd,
                    a,
                    b,
                } if *b == params[k] => Some((*b, *a)),
                _ => None,
            }
        };
        if !matches!(increment(ci), Some((_, one)) if const_int(func, one) == Some(1))
            || int_bits(func.dfg.value_type(*c)).is_none()
        {
            continue;
        }
        let mut vars = Vec::new();
        for (k, &p) in params.iter().enumerate() {
            if k == ci || int_bits(func.dfg.value_type(p)).is_none() {
                continue;
            }
            if let Some((_, d)) = increment(k) {
                if invariant(func, &blocks, &body, d, 0) {
                    vars.push((p, entry.2[k], d));
                }
            }
        }
        if !vars.is_empty() {
            out.push(CountedLoop {
                header: h,
                body,
                counter: *c,
                counter_start: entry.2[ci],
                vars,
            });
        }
    }
    out
}

/// Whether `body` (with `h`) is closed: every edge into a body block other than `h` comes
/// from the body.
fn is_loop(
    all: &[(kir::Block, kir::Block, Vec<Value>)],
    h: kir::Block,
    body: &HashSet<kir::Block>,
) -> bool {
    all.iter()
        .filter(|e| e.1 != h && body.contains(&e.1))
        .all(|e| body.contains(&e.0))
}

/// The kernel parameters (indices) to take as 1: they multiply a row-varying value in the
/// entry value of an induction variable and appear in its increment.
pub(in crate::jit::compile) fn step_params(func: &Function) -> Vec<usize> {
    let Some(entry) = func.entry_block() else {
        return Vec::new();
    };
    let order = rpo(func, entry);
    let mut memo = HashMap::new();
    let loops = counted_loops(func);
    let params = func.params();
    let mut out = Vec::new();
    for &kb in &order {
        for &inst in func.layout.insts(kb) {
            let InstData::Binary {
                op: BinaryOp::IMul,
                a,
                b,
            } = func.dfg.inst(inst)
            else {
                continue;
            };
            let Some(r) = func.dfg.inst_result(inst) else {
                continue;
            };
            for (x, y) in [(*a, *b), (*b, *a)] {
                let Some(k) = params.iter().position(|&p| p == y) else {
                    continue;
                };
                let affine =
                    matches!(shape(func, entry, x, &mut memo, 0), Shape::Affine(s) if s != 0);
                let strided = loops.iter().any(|l| {
                    l.vars
                        .iter()
                        .any(|&(_, a0, d)| depends_on(func, a0, r) && depends_on(func, d, y))
                });
                if affine
                    && strided
                    && int_bits(func.dfg.value_type(y)).is_some()
                    && !out.contains(&k)
                {
                    out.push(k);
                }
            }
        }
    }
    out
}

/// The shape of `v` from its definitions (the entry block's parameters uniform, other block
/// parameters varying), as the vectorised loops' analysis gives it for values not derived
/// from loop-carried ones.
fn shape(
    func: &Function,
    entry: kir::Block,
    v: Value,
    memo: &mut HashMap<Value, Shape>,
    depth: u32,
) -> Shape {
    if let Some(&s) = memo.get(&v) {
        return s;
    }
    let s = match func.dfg.value_def(v) {
        ValueDef::Param(b, _) if b == entry => Shape::Uniform,
        ValueDef::Param(..) => Shape::Varying,
        ValueDef::Result(_) if depth > 24 => Shape::Varying,
        ValueDef::Result(i) => {
            let data = func.dfg.inst(i);
            let mut ops = HashMap::new();
            for x in data.operands() {
                let sx = shape(func, entry, x, memo, depth + 1);
                ops.insert(x, sx);
            }
            result_shape(func, data, v, &|x| {
                ops.get(&x).copied().unwrap_or(Shape::Varying)
            })
        }
    };
    memo.insert(v, s);
    s
}

fn make(func: &mut Function, data: InstData, ty: Type, at: &mut Vec<kir::Inst>) -> Value {
    let (i, v) = func.dfg.make_inst(data, Some(ty));
    at.push(i);
    v.unwrap_or_else(|| Value::new(0))
}

fn int_const(func: &mut Function, ty: Type, x: i64, at: &mut Vec<kir::Inst>) -> Value {
    let w = int_bits(ty).unwrap_or(64) as usize / 8;
    let bytes = x.to_le_bytes()[..w].to_vec();
    make(func, InstData::Const { bytes }, ty, at)
}

/// Copies the loop-invariant computation of `v` (defined in the body) before the loop.
fn hoist(
    func: &mut Function,
    blocks: &HashMap<kir::Inst, kir::Block>,
    body: &HashSet<kir::Block>,
    v: Value,
    at: &mut Vec<kir::Inst>,
    done: &mut HashMap<Value, Value>,
) -> Value {
    if let Some(&x) = done.get(&v) {
        return x;
    }
    match def_block(func, blocks, v) {
        Some(b) if !body.contains(&b) => return v,
        _ => {}
    }
    let ValueDef::Result(i) = func.dfg.value_def(v) else {
        return v;
    };
    let mut data = func.dfg.inst(i).clone();
    for x in data.operands() {
        let y = hoist(func, blocks, body, x, at, done);
        data.for_each_operand_mut(|o| {
            if *o == x {
                *o = y;
            }
        });
    }
    let ty = func.dfg.value_type(v);
    let r = make(func, data, ty, at);
    done.insert(v, r);
    r
}

/// A copy of the kernel function `func` for the vectorised phase loop (see the module doc)
/// and the parameters it takes as 1, or `None` when nothing changes.
pub(in crate::jit::compile) fn specialise(func: &Function) -> Option<Function> {
    if std::env::var("OXCL_UNIFORM_STEP").is_ok_and(|v| v == "0") {
        return None;
    }
    let loops = counted_loops(func);
    if loops.is_empty() {
        return None;
    }
    let ones = step_params(func);
    let entry = func.entry_block()?;
    let mut out = func.clone();
    // The parameters taken as 1.
    let mut consts = Vec::new();
    for &k in &ones {
        let p = func.params()[k];
        let one = int_const(&mut out, func.dfg.value_type(p), 1, &mut consts);
        replace_in(&mut out, None, p, one);
    }
    let placed = &mut out.layout.block_insts[entry.index()];
    placed.splice(0..0, consts);
    let blocks = inst_blocks(&out);
    for l in &loops {
        let mut at = Vec::new();
        let mut done = HashMap::new();
        let cty = out.dfg.value_type(l.counter);
        let mut k = l.counter;
        if const_int(&out, l.counter_start) != Some(0) {
            let data = InstData::Binary {
                op: BinaryOp::ISub,
                a: l.counter,
                b: l.counter_start,
            };
            k = make(&mut out, data, cty, &mut at);
        }
        for &(p, a0, d) in &l.vars {
            let pty = out.dfg.value_type(p);
            let kp = if pty == cty {
                k
            } else {
                let data = InstData::Convert {
                    op: ConvertOp::UConvert,
                    arg: k,
                    rounding: None,
                    saturate: false,
                };
                make(&mut out, data, pty, &mut at)
            };
            let d = hoist(&mut out, &blocks, &l.body, d, &mut at, &mut done);
            let data = InstData::Binary {
                op: BinaryOp::IMul,
                a: kp,
                b: d,
            };
            let step = make(&mut out, data, pty, &mut at);
            let data = InstData::Binary {
                op: BinaryOp::IAdd,
                a: a0,
                b: step,
            };
            let e = make(&mut out, data, pty, &mut at);
            replace_in(&mut out, Some(&l.body), p, e);
        }
        // The new values (pure, they cannot fail) at the start of the header.
        let placed = &mut out.layout.block_insts[l.header.index()];
        let tail = placed.split_off(0);
        placed.extend(at);
        placed.extend(tail);
        // A variable nothing reads any more goes round the loop as a constant.
        for &(p, _, _) in &l.vars {
            if !used(&out, p) {
                let zero_at = &mut Vec::new();
                let ty = out.dfg.value_type(p);
                let zero = int_const(&mut out, ty, 0, zero_at);
                out.layout.block_insts[entry.index()].splice(0..0, zero_at.drain(..));
                replace_args(&mut out, l.header, p, zero);
            }
        }
    }
    same_liveness(func, &out).then_some(out)
}

/// Replaces the uses of `old` by `new` in the blocks of `only` (all blocks when `None`).
fn replace_in(func: &mut Function, only: Option<&HashSet<kir::Block>>, old: Value, new: Value) {
    for b in func.layout.blocks.clone() {
        if only.is_some_and(|s| !s.contains(&b)) {
            continue;
        }
        for i in func.layout.insts(b).to_vec() {
            func.dfg.inst_mut(i).for_each_operand_mut(|v| {
                if *v == old {
                    *v = new;
                }
            });
        }
    }
}

/// Whether any placed instruction reads `v` (branch arguments included).
fn used(func: &Function, v: Value) -> bool {
    func.layout
        .blocks
        .iter()
        .flat_map(|&b| func.layout.insts(b))
        .any(|&i| func.dfg.inst(i).operands().contains(&v))
}

/// Passes `value` for the parameter `p` of `header` on every edge into it.
fn replace_args(func: &mut Function, header: kir::Block, p: Value, value: Value) {
    let Some(k) = func.dfg.block_params(header).iter().position(|&x| x == p) else {
        return;
    };
    for b in func.layout.blocks.clone() {
        for i in func.layout.insts(b).to_vec() {
            let data = func.dfg.inst_mut(i);
            match data {
                InstData::Jump { dest } if dest.block == header => dest.args[k] = value,
                InstData::Brif {
                    then_dest,
                    else_dest,
                    ..
                } => {
                    for d in [then_dest, else_dest] {
                        if d.block == header {
                            d.args[k] = value;
                        }
                    }
                }
                _ => {}
            }
        }
    }
}

/// Whether the values kept across each barrier of `copy` are those of `func` (plus constants).
fn same_liveness(func: &Function, copy: &Function) -> bool {
    let (Some(e0), Some(e1)) = (func.entry_block(), copy.entry_block()) else {
        return false;
    };
    let a = crate::jit::barrier::live_after_barriers(func, &rpo(func, e0));
    let b = crate::jit::barrier::live_after_barriers(copy, &rpo(copy, e1));
    let n = func.dfg.num_values();
    let is_const = |v: &Value| {
        matches!(copy.dfg.value_def(*v), ValueDef::Result(i)
            if matches!(copy.dfg.inst(i), InstData::Const { .. }))
    };
    a.len() == b.len()
        && a.iter().zip(&b).all(|((ia, va), (ib, vb))| {
            let kept: Vec<Value> = vb
                .iter()
                .copied()
                .filter(|v| v.index() < n || !is_const(v))
                .collect();
            ia == ib && *va == kept
        })
}

impl Translator<'_, '_> {
    /// At the start of the vectorised phase loop translated from a `specialise`d copy: unless
    /// the arguments taken as 1 are 1, abandons the first iteration (and so every one).
    pub(in crate::jit::compile) fn step_guard(
        &mut self,
        args: &[ClValue],
        from: ClValue,
        stop0: ClValue,
    ) -> Result<(), Unsupported> {
        let original = &self.module.functions[self.func_index];
        if std::ptr::eq(original, self.func) {
            return Ok(());
        }
        let ones = step_params(original);
        if ones.is_empty() {
            return Ok(());
        }
        let mut at = 0;
        let mut offsets = Vec::new();
        for &p in original.params() {
            offsets.push(at);
            at += lanes_of(original.dfg.value_type(p))?.len();
        }
        let mut ok = self.b.ins().iconst(types::I8, 1);
        for k in ones {
            let x = *args
                .get(offsets[k])
                .ok_or("a parameter without its argument")?;
            let is_one = self.b.ins().icmp_imm_u(IntCC::Equal, x, 1);
            ok = self.b.ins().band(ok, is_one);
        }
        let go = self.b.create_block();
        let bail = self.b.create_block();
        self.b.set_cold_block(bail);
        self.b.ins().brif(ok, go, &[], bail, &[]);
        self.b.switch_to_block(bail);
        // As the phase loop's bail: the iteration's first work-item, the row's stop so far.
        let ctx = self.ctx();
        let stop = self.b.ins().uextend(types::I64, stop0);
        let high = self.b.ins().ishl_imm_u(stop, 32);
        let at = self.b.ins().bor(high, from);
        self.b
            .ins()
            .store(MemFlagsData::trusted(), at, ctx, rt::OFF_RESOLVED);
        let code = self
            .b
            .ins()
            .iconst(types::I32, i64::from(super::phase::PHASE_BAIL));
        self.b.ins().return_(&[code]);
        self.b.switch_to_block(go);
        Ok(())
    }
}
