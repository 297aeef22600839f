//! Inlining of small pure functions, and if-conversion of the small branch diamonds that
//! result (`d > 0 ? 1 - c : c`): a transformation engines may apply before compiling, so that
//! a kernel calling such functions is one straight-line function (the JIT vectorises across
//! what were calls).
//!
//! Only functions that cannot fail are inlined: no memory access, no barrier, atomic, image,
//! pipe, enqueue, `printf`, `unreachable` or built-in taking or giving a pointer. So no error
//! report can name an instruction of an inlined body (reports name `fn{index} inst{n}`), and
//! the results are those of the calls (the same instructions on the same operands). Integer
//! division does not trap in kir (engines give a deterministic value), so every instruction
//! left is pure and may also run speculatively, which if-conversion does: both arms of a
//! `brif` whose arms are a few pure instructions run, and a `select` on the condition picks
//! the block arguments of the join.

use std::collections::HashMap;

use crate::{Block, BlockCall, BuiltinFn, Function, InstData, Module, Type, Value};

/// Callees with more instructions than this stay calls.
pub const MAX_INLINED_INSTS: usize = 200;
/// A function grows by inlining to at most this many instructions.
const MAX_FUNCTION_INSTS: usize = 4000;
/// If-conversion speculates at most this many instructions per arm.
const MAX_ARM_INSTS: usize = 16;

/// Whether `data` is pure: it cannot fail, has no effect, and its result depends only on its
/// operands (and the work-item). Calls are not (they are inlined or kept).
fn is_pure(func: &Function, data: &InstData) -> bool {
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
        | InstData::Shuffle { .. }
        | InstData::Splat { .. }
        | InstData::ExtractBytes { .. }
        | InstData::InsertBytes { .. }
        | InstData::WorkItem { .. } => true,
        InstData::Builtin { func: bf, args } => {
            *bf != BuiltinFn::Printf && args.iter().all(|&a| is_plain(func.dfg.value_type(a)))
        }
        _ => false,
    }
}

/// A value type without pointers (scalars, vectors).
fn is_plain(t: Type) -> bool {
    !t.is_ptr() && !t.is_agg()
}

/// Whether `func` may be inlined: a body of pure instructions and control flow (and calls of
/// functions that may be inlined themselves, which `inline_calls` inlines in turn), small.
fn inlinable(module: &Module, f: usize, depth: usize) -> bool {
    let Some(func) = module.functions.get(f) else {
        return false;
    };
    if depth > 8 || func.entry_block().is_none() {
        return false;
    }
    if func.sig.ret.is_some_and(|t| !is_plain(t)) {
        return false;
    }
    let mut count = 0;
    for &b in &func.layout.blocks {
        for &i in func.layout.insts(b) {
            count += 1;
            let data = func.dfg.inst(i);
            let ok = match data {
                InstData::Jump { .. }
                | InstData::Brif { .. }
                | InstData::Switch { .. }
                | InstData::Return { .. } => true,
                InstData::Call { func: callee, .. } => {
                    callee.index() != f && inlinable(module, callee.index(), depth + 1)
                }
                InstData::Builtin { .. } => {
                    is_pure(func, data)
                        && func
                            .dfg
                            .inst_result(i)
                            .is_none_or(|r| is_plain(func.dfg.value_type(r)))
                }
                _ => is_pure(func, data),
            };
            if !ok {
                return false;
            }
        }
    }
    count <= MAX_INLINED_INSTS
}

/// Number of instructions in the layout of `func`.
fn size(func: &Function) -> usize {
    func.layout
        .blocks
        .iter()
        .map(|&b| func.layout.insts(b).len())
        .sum()
}

/// `module` with the calls of small pure functions inlined into every function that makes
/// them, and the small diamonds of pure instructions if-converted (see the module doc).
/// `None` when nothing changed.
pub fn inline_pure_calls(module: &Module) -> Option<Module> {
    let mut out: Option<Module> = None;
    for f in 0..module.functions.len() {
        if find_call(module, &module.functions[f], f).is_none() {
            continue;
        }
        let mut func = module.functions[f].clone();
        let mut inlined = false;
        while size(&func) < MAX_FUNCTION_INSTS {
            let Some((block, pos, callee)) = find_call(module, &func, f) else {
                break;
            };
            inline_one(&mut func, block, pos, &module.functions[callee]);
            inlined = true;
        }
        if inlined {
            if_convert(&mut func);
            out.get_or_insert_with(|| module.clone()).functions[f] = func;
        }
    }
    out
}

/// The first call in `func` (function `f`) of an inlinable function: block, position, callee.
fn find_call(module: &Module, func: &Function, f: usize) -> Option<(Block, usize, usize)> {
    for &b in &func.layout.blocks {
        for (pos, &i) in func.layout.insts(b).iter().enumerate() {
            if let InstData::Call { func: callee, .. } = func.dfg.inst(i) {
                let c = callee.index();
                if c != f && inlinable(module, c, 0) {
                    return Some((b, pos, c));
                }
            }
        }
    }
    None
}

/// Replaces the call at `pos` of `block` by a copy of `callee`'s body: `block` ends with a
/// jump to the copy of the entry block (its parameters taking the call's arguments), returns
/// jump to a new block holding the rest of `block`, whose parameter replaces the call's result.
fn inline_one(func: &mut Function, block: Block, pos: usize, callee: &Function) {
    let call = func.layout.insts(block)[pos];
    let InstData::Call { args, .. } = func.dfg.inst(call).clone() else {
        return;
    };
    let result = func.dfg.inst_result(call);
    let cont = func.dfg.make_block();
    let new_result = result.map(|r| {
        let t = func.dfg.value_type(r);
        func.dfg.append_block_param(cont, t)
    });
    // Blocks and values of the callee in `func`.
    let mut blocks: HashMap<Block, Block> = HashMap::new();
    let mut values: HashMap<Value, Value> = HashMap::new();
    for &cb in &callee.layout.blocks {
        let nb = func.dfg.make_block();
        for &p in callee.dfg.block_params(cb) {
            let np = func.dfg.append_block_param(nb, callee.dfg.value_type(p));
            values.insert(p, np);
        }
        blocks.insert(cb, nb);
    }
    // Results first (an instruction may use a value defined in a block later in the layout).
    let mut copies = Vec::new();
    for &cb in &callee.layout.blocks {
        for &ci in callee.layout.insts(cb) {
            let data = callee.dfg.inst(ci).clone();
            let rty = callee.dfg.inst_result(ci).map(|r| callee.dfg.value_type(r));
            let (ni, nr) = func.dfg.make_inst(InstData::Unreachable, rty);
            if let (Some(r), Some(nr)) = (callee.dfg.inst_result(ci), nr) {
                values.insert(r, nr);
            }
            copies.push((cb, ni, data));
        }
    }
    let new_blocks: Vec<Block> = callee.layout.blocks.iter().map(|b| blocks[b]).collect();
    for (cb, ni, mut data) in copies {
        data.for_each_operand_mut(|v| {
            if let Some(&n) = values.get(v) {
                *v = n;
            }
        });
        let data = match data {
            InstData::Return { value } => InstData::Jump {
                dest: BlockCall::new(cont, value.into_iter().collect()),
            },
            InstData::Jump { mut dest } => {
                dest.block = blocks[&dest.block];
                InstData::Jump { dest }
            }
            InstData::Brif {
                cond,
                mut then_dest,
                mut else_dest,
            } => {
                then_dest.block = blocks[&then_dest.block];
                else_dest.block = blocks[&else_dest.block];
                InstData::Brif {
                    cond,
                    then_dest,
                    else_dest,
                }
            }
            InstData::Switch {
                value,
                mut default,
                mut cases,
            } => {
                default.block = blocks[&default.block];
                for (_, d) in &mut cases {
                    d.block = blocks[&d.block];
                }
                InstData::Switch {
                    value,
                    default,
                    cases,
                }
            }
            other => other,
        };
        *func.dfg.inst_mut(ni) = data;
        func.layout.append_inst(blocks[&cb], ni);
    }
    // The rest of `block` moves to `cont`; `block` jumps into the copied entry.
    let rest: Vec<_> = func.layout.block_insts[block.index()].split_off(pos);
    let entry = callee
        .entry_block()
        .and_then(|e| blocks.get(&e).copied())
        .unwrap_or(cont);
    let (jump, _) = func.dfg.make_inst(
        InstData::Jump {
            dest: BlockCall::new(entry, args),
        },
        None,
    );
    func.layout.append_inst(block, jump);
    for &i in &rest[1..] {
        func.layout.append_inst(cont, i);
    }
    // The call instruction is left out of the layout; its result's uses take `cont`'s parameter.
    if let (Some(r), Some(nr)) = (result, new_result) {
        replace_uses(func, r, nr);
    }
    let at = func
        .layout
        .blocks
        .iter()
        .position(|&b| b == block)
        .map_or(func.layout.blocks.len(), |p| p + 1);
    let mut placed = new_blocks;
    placed.push(cont);
    if func.layout.block_insts.len() < func.dfg.num_blocks() {
        func.layout
            .block_insts
            .resize(func.dfg.num_blocks(), Vec::new());
    }
    func.layout.blocks.splice(at..at, placed);
}

/// Replaces every use of `old` by `new` in the instructions placed in blocks of `func`.
fn replace_uses(func: &mut Function, old: Value, new: Value) {
    for b in 0..func.layout.block_insts.len() {
        for i in func.layout.block_insts[b].clone() {
            func.dfg.inst_mut(i).for_each_operand_mut(|v| {
                if *v == old {
                    *v = new;
                }
            });
        }
    }
}

/// If-converts the diamonds and triangles of `func` whose arms are pure (see the module doc),
/// until none is left.
pub fn if_convert(func: &mut Function) {
    while convert_one(func) {}
}

/// The predecessors count of each block (branch edges from the layout).
fn pred_counts(func: &Function) -> HashMap<Block, usize> {
    let mut n = HashMap::new();
    for &b in &func.layout.blocks {
        if let Some(t) = func.terminator(b) {
            for d in func.dfg.inst(t).branch_targets() {
                *n.entry(d.block).or_insert(0) += 1;
            }
        }
    }
    n
}

/// An arm of a branch: a block `b` reached only from the branch, holding pure instructions
/// then a jump; returns the jump's target.
fn arm(func: &Function, preds: &HashMap<Block, usize>, b: Block) -> Option<BlockCall> {
    if preds.get(&b) != Some(&1) || func.layout.entry_block() == Some(b) {
        return None;
    }
    let insts = func.layout.insts(b);
    let (&last, body) = insts.split_last()?;
    if body.len() > MAX_ARM_INSTS || !body.iter().all(|&i| is_pure(func, func.dfg.inst(i))) {
        return None;
    }
    match func.dfg.inst(last) {
        InstData::Jump { dest } => Some(dest.clone()),
        _ => None,
    }
}

/// If-converts one branch; returns whether it found one.
fn convert_one(func: &mut Function) -> bool {
    let preds = pred_counts(func);
    for &h in &func.layout.blocks {
        let Some(t) = func.terminator(h) else {
            continue;
        };
        let InstData::Brif {
            cond,
            then_dest,
            else_dest,
        } = func.dfg.inst(t).clone()
        else {
            continue;
        };
        if then_dest.block == else_dest.block
            || then_dest.block == h
            || else_dest.block == h
            || func.dfg.value_type(cond) != Type::Bool
        {
            continue;
        }
        // Each side: (arm block and its parameters' arguments, the join call).
        let side = |d: &BlockCall| match arm(func, &preds, d.block) {
            Some(j) if j.block != d.block && j.block != h => Some((Some(d.clone()), j)),
            _ => None,
        };
        let (then_arm, else_arm) = match (side(&then_dest), side(&else_dest)) {
            (Some(a), Some(b)) if a.1.block == b.1.block => (a, b),
            (Some(a), _) if a.1.block == else_dest.block => (a, (None, else_dest.clone())),
            (_, Some(b)) if b.1.block == then_dest.block => ((None, then_dest.clone()), b),
            _ => continue,
        };
        let join = then_arm.1.block;
        // Selects of scalars and vectors only (engines may not select aggregates).
        let plain_args = then_arm
            .1
            .args
            .iter()
            .chain(&else_arm.1.args)
            .all(|&v| is_plain(func.dfg.value_type(v)));
        if join == h || !plain_args {
            continue;
        }
        let h_insts = func.layout.block_insts[h.index()].clone();
        let mut moved = h_insts[..h_insts.len() - 1].to_vec();
        let mut join_args = Vec::new();
        for (arm_call, jcall) in [&then_arm, &else_arm] {
            let mut jargs = jcall.args.clone();
            if let Some(ac) = arm_call {
                let params = func.dfg.block_params(ac.block).to_vec();
                let subst: HashMap<Value, Value> = params
                    .iter()
                    .copied()
                    .zip(ac.args.iter().copied())
                    .collect();
                let body = func.layout.insts(ac.block).to_vec();
                for &i in &body[..body.len() - 1] {
                    func.dfg.inst_mut(i).for_each_operand_mut(|v| {
                        if let Some(&n) = subst.get(v) {
                            *v = n;
                        }
                    });
                    moved.push(i);
                }
                for v in &mut jargs {
                    if let Some(&n) = subst.get(v) {
                        *v = n;
                    }
                }
            }
            join_args.push(jargs);
        }
        let mut args = Vec::new();
        for (&a, &b) in join_args[0].iter().zip(&join_args[1]) {
            if a == b {
                args.push(a);
                continue;
            }
            let ty = func.dfg.value_type(a);
            let (si, sv) = func
                .dfg
                .make_inst(InstData::Select { cond, a, b }, Some(ty));
            moved.push(si);
            args.extend(sv);
        }
        let (ji, _) = func.dfg.make_inst(
            InstData::Jump {
                dest: BlockCall::new(join, args),
            },
            None,
        );
        moved.push(ji);
        func.layout.block_insts[h.index()] = moved;
        for ac in [&then_arm.0, &else_arm.0].into_iter().flatten() {
            func.layout.block_insts[ac.block.index()].clear();
            func.layout.blocks.retain(|&b| b != ac.block);
        }
        return true;
    }
    false
}
