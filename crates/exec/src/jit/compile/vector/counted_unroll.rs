//! Full unrolling of short counted loops for the vectorised row loop: a convolution's
//! `for (dy = -2; dy <= 2; dy++) for (dx = -2; dx <= 2; dx++)` becomes 25 straight-line taps
//! whose counters are constants, so every tap's filter offset folds, its clamps are proven (or
//! not) by the row proofs like any straight-line access, and no loop test, counter or
//! loop-carried accumulator is left in the iteration.
//!
//! A loop qualifies when its header `h` ends with `brif (cmp k, c)` where `k` is a parameter of
//! `h` entering as a constant and coming back as `k ± step` (constant), `c` is a constant, the
//! loop's only exit is that branch, its only entry is one edge into `h`, and the number of
//! iterations (found by running the test on the constants, with the type's wrapping) is small.
//! Iteration `i` is a copy of the loop's blocks whose header has no parameters: `k` is the
//! constant `k_i`, the other parameters are the values the previous copy passed back; a last
//! copy of the header alone (whose test fails) leaves for the exit. The same instructions run on
//! the same operands in the same order, so results and errors are those of the loop; each copy
//! remembers the instruction it copies ([`Unrolled::origin`]), so an error report names the
//! loop's instruction.
//!
//! The scalar translations keep the loops (the vectorised loop bails out to them).

use std::collections::{HashMap, HashSet};

use kir::{BinaryOp, BlockCall, CmpOp, Function, Inst, InstData, Type, UnaryOp, Value, ValueDef};

/// Loops with more iterations than this stay loops.
const MAX_TRIP: u64 = 32;
/// A loop is unrolled when its copies add at most this many instructions.
const MAX_LOOP_GROWTH: usize = 1200;
/// The function is not grown beyond this many instructions.
const MAX_FUNCTION_INSTS: usize = 3000;

/// A function with counted loops unrolled.
pub(in crate::jit::compile) struct Unrolled {
    pub func: Function,
    /// For each instruction of `func` (by index), the instruction of the original function it
    /// copies (itself for those not copied).
    pub origin: Vec<Inst>,
}

/// `func` with its short counted loops unrolled (innermost first), or `None` when it has none.
/// `OXCL_COUNTED_UNROLL=0` turns it off.
pub(in crate::jit::compile) fn unroll_counted_loops(func: &Function) -> Option<Unrolled> {
    if std::env::var("OXCL_COUNTED_UNROLL").is_ok_and(|v| v == "0") {
        return None;
    }
    let mut out = Unrolled {
        func: func.clone(),
        origin: (0..func.dfg.num_insts()).map(Inst::new).collect(),
    };
    let mut changed = false;
    let mut refused: HashSet<kir::Block> = HashSet::new();
    loop {
        let mut loops: Vec<CountedLoop> = out
            .func
            .layout
            .blocks
            .iter()
            .filter(|h| !refused.contains(h))
            .filter_map(|&h| counted_loop(&out.func, h))
            .collect();
        // Innermost first: a loop nested in another has fewer blocks.
        loops.sort_by_key(|l| l.body.len());
        let Some(l) = loops.into_iter().next() else {
            break;
        };
        let size: usize = std::iter::once(l.header)
            .chain(l.body.iter().copied())
            .map(|b| out.func.layout.insts(b).len())
            .sum();
        let total: usize = out
            .func
            .layout
            .blocks
            .iter()
            .map(|&b| out.func.layout.insts(b).len())
            .sum();
        let growth = size * (l.trip as usize + 1);
        if growth > MAX_LOOP_GROWTH || total + growth > MAX_FUNCTION_INSTS {
            refused.insert(l.header);
            continue;
        }
        unroll(&mut out, &l);
        changed = true;
    }
    changed.then_some(out)
}

/// A loop found by [`counted_loop`].
struct CountedLoop {
    header: kir::Block,
    /// The loop's blocks other than the header, in layout order.
    body: Vec<kir::Block>,
    /// The block inside the loop whose jump goes back to the header.
    latch: kir::Block,
    /// The block outside the loop whose terminator enters the header.
    entry: kir::Block,
    /// Index of the counter among the header's parameters.
    counter: usize,
    /// The counter's value in each iteration, then its value at the exit.
    values: Vec<i64>,
    /// Number of iterations.
    trip: u64,
    /// The header's successor inside the loop (taken while the test holds).
    into_body: BlockCall,
    /// The exit edge.
    exit: BlockCall,
}

/// The successors of `b` (branch targets of its terminator).
fn successors(func: &Function, b: kir::Block) -> Vec<kir::Block> {
    func.terminator(b)
        .map(|t| {
            func.dfg
                .inst(t)
                .branch_targets()
                .iter()
                .map(|d| d.block)
                .collect()
        })
        .unwrap_or_default()
}

/// The value of `v` when it is an integer constant computed from constants (`const`, `ineg`,
/// `iadd`, `isub`, `imul`), as a signed 64-bit number wrapped to its type.
fn const_int(func: &Function, v: Value, depth: u32) -> Option<i64> {
    let ty = func.dfg.value_type(v);
    if depth > 8 || !matches!(ty, Type::I32 | Type::I64) {
        return None;
    }
    let ValueDef::Result(inst) = func.dfg.value_def(v) else {
        return None;
    };
    let raw = match func.dfg.inst(inst) {
        InstData::Const { bytes } => match bytes.len() {
            4 => i32::from_le_bytes(bytes[..4].try_into().ok()?) as i64,
            8 => i64::from_le_bytes(bytes[..8].try_into().ok()?),
            _ => return None,
        },
        InstData::Unary {
            op: UnaryOp::INeg,
            arg,
        } => const_int(func, *arg, depth + 1)?.wrapping_neg(),
        InstData::Binary { op, a, b } => {
            let (a, b) = (
                const_int(func, *a, depth + 1)?,
                const_int(func, *b, depth + 1)?,
            );
            match op {
                BinaryOp::IAdd => a.wrapping_add(b),
                BinaryOp::ISub => a.wrapping_sub(b),
                BinaryOp::IMul => a.wrapping_mul(b),
                _ => return None,
            }
        }
        _ => return None,
    };
    Some(wrap(ty, raw))
}

/// `x` wrapped to the width of `ty` (sign-extended).
fn wrap(ty: Type, x: i64) -> i64 {
    if ty == Type::I32 {
        x as i32 as i64
    } else {
        x
    }
}

/// The integer comparison `op` of `a` and `b` of type `ty`.
fn compare(op: CmpOp, ty: Type, a: i64, b: i64) -> Option<bool> {
    let (ua, ub) = if ty == Type::I32 {
        (a as u32 as u64, b as u32 as u64)
    } else {
        (a as u64, b as u64)
    };
    Some(match op {
        CmpOp::IEq => a == b,
        CmpOp::INe => a != b,
        CmpOp::SLt => a < b,
        CmpOp::SLe => a <= b,
        CmpOp::SGt => a > b,
        CmpOp::SGe => a >= b,
        CmpOp::ULt => ua < ub,
        CmpOp::ULe => ua <= ub,
        CmpOp::UGt => ua > ub,
        CmpOp::UGe => ua >= ub,
        _ => return None,
    })
}

/// The counted loop headed by `h`, if it is one (see the module doc).
fn counted_loop(func: &Function, h: kir::Block) -> Option<CountedLoop> {
    let t = func.terminator(h)?;
    let InstData::Brif {
        cond,
        then_dest,
        else_dest,
    } = func.dfg.inst(t)
    else {
        return None;
    };
    let ValueDef::Result(ci) = func.dfg.value_def(*cond) else {
        return None;
    };
    let InstData::Cmp { op, a, b } = func.dfg.inst(ci) else {
        return None;
    };
    let params = func.dfg.block_params(h);
    // The counter is a parameter of the header, compared with a constant.
    let (counter, bound, counter_first) = match (
        params.iter().position(|p| p == a),
        params.iter().position(|p| p == b),
    ) {
        (Some(i), None) => (i, const_int(func, *b, 0)?, true),
        (None, Some(i)) => (i, const_int(func, *a, 0)?, false),
        _ => return None,
    };
    let k = params[counter];
    let ty = func.dfg.value_type(k);
    // Which side stays in the loop: the one from which the header is reached again.
    let reaches_header = |start: kir::Block| -> Option<Vec<kir::Block>> {
        if start == h {
            return None;
        }
        let mut seen: HashSet<kir::Block> = HashSet::new();
        let mut stack = vec![start];
        let mut back = false;
        while let Some(b) = stack.pop() {
            if b == h {
                back = true;
                continue;
            }
            if !seen.insert(b) {
                continue;
            }
            if seen.len() > 256 {
                return None;
            }
            stack.extend(successors(func, b));
        }
        back.then(|| {
            func.layout
                .blocks
                .iter()
                .copied()
                .filter(|b| seen.contains(b))
                .collect()
        })
    };
    let (into_body, exit, stay_when) = match (
        reaches_header(then_dest.block),
        reaches_header(else_dest.block),
    ) {
        (Some(body), None) => ((then_dest.clone(), body), else_dest.clone(), true),
        (None, Some(body)) => ((else_dest.clone(), body), then_dest.clone(), false),
        _ => return None,
    };
    let (into_body, body) = into_body;
    if body.contains(&exit.block) || body.contains(&h) {
        return None;
    }
    let in_loop = |b: kir::Block| b == h || body.contains(&b);
    // Only exit: the header's branch; only entry: the header. One latch, one outside entry.
    let mut latch = None;
    let mut entry = None;
    for &b in &func.layout.blocks {
        let t = func.terminator(b)?;
        let targets = func.dfg.inst(t).branch_targets();
        for d in targets {
            let from_loop = in_loop(b);
            if from_loop && b != h && !in_loop(d.block) {
                return None;
            }
            if !from_loop && d.block != h && in_loop(d.block) {
                return None;
            }
            if d.block == h {
                let slot = if from_loop { &mut latch } else { &mut entry };
                if slot.is_some() {
                    return None;
                }
                *slot = Some((b, d.args.clone()));
            }
        }
        // Returns, `unreachable` and the like leave the loop.
        if in_loop(b)
            && b != h
            && !matches!(
                func.dfg.inst(t),
                InstData::Jump { .. } | InstData::Brif { .. }
            )
        {
            return None;
        }
    }
    let ((latch, back_args), (entry, entry_args)) = (latch?, entry?);
    if !matches!(
        func.dfg.inst(func.terminator(latch)?),
        InstData::Jump { .. }
    ) {
        return None;
    }
    if func.layout.entry_block() == Some(h) {
        return None;
    }
    // The counter enters as a constant and comes back as `k + step`.
    let k0 = const_int(func, *entry_args.get(counter)?, 0)?;
    let next = *back_args.get(counter)?;
    let ValueDef::Result(ni) = func.dfg.value_def(next) else {
        return None;
    };
    let step = match func.dfg.inst(ni) {
        InstData::Binary {
            op: BinaryOp::IAdd,
            a,
            b,
        } if *a == k => const_int(func, *b, 0)?,
        InstData::Binary {
            op: BinaryOp::IAdd,
            a,
            b,
        } if *b == k => const_int(func, *a, 0)?,
        InstData::Binary {
            op: BinaryOp::ISub,
            a,
            b,
        } if *a == k => const_int(func, *b, 0)?.wrapping_neg(),
        _ => return None,
    };
    // Values defined in the loop's body are not used outside it (the header's may be: they
    // take their values of the last copy).
    let body_defs: HashSet<Value> = body
        .iter()
        .flat_map(|&b| {
            func.dfg
                .block_params(b)
                .iter()
                .copied()
                .chain(
                    func.layout
                        .insts(b)
                        .iter()
                        .filter_map(|&i| func.dfg.inst_result(i)),
                )
                .collect::<Vec<_>>()
        })
        .collect();
    for &b in &func.layout.blocks {
        if in_loop(b) {
            continue;
        }
        for &i in func.layout.insts(b) {
            let mut used = false;
            func.dfg
                .inst(i)
                .for_each_operand(|v| used |= body_defs.contains(&v));
            if used {
                return None;
            }
        }
    }
    // Run the test on the constants.
    let mut values = vec![];
    let mut kv = k0;
    loop {
        values.push(kv);
        let holds = if counter_first {
            compare(*op, ty, kv, bound)?
        } else {
            compare(*op, ty, bound, kv)?
        };
        if holds != stay_when {
            break;
        }
        if values.len() as u64 > MAX_TRIP {
            return None;
        }
        kv = wrap(ty, kv.wrapping_add(step));
    }
    let trip = values.len() as u64 - 1;
    if trip == 0 {
        return None;
    }
    Some(CountedLoop {
        header: h,
        body,
        latch,
        entry,
        counter,
        values,
        trip,
        into_body,
        exit,
    })
}

/// A new `const` instruction of type `ty` holding `x`.
fn make_const(func: &mut Function, ty: Type, x: i64) -> (Inst, Value) {
    let bytes = if ty == Type::I32 {
        (x as i32).to_le_bytes().to_vec()
    } else {
        x.to_le_bytes().to_vec()
    };
    let (i, v) = func.dfg.make_inst(InstData::Const { bytes }, Some(ty));
    (i, v.unwrap_or(Value(0)))
}

/// Rewrites the branch targets of `data` through `map` (targets not in it stay).
fn retarget(data: &mut InstData, map: &dyn Fn(kir::Block) -> Option<kir::Block>) {
    let fix = |d: &mut BlockCall| {
        if let Some(n) = map(d.block) {
            d.block = n;
        }
    };
    match data {
        InstData::Jump { dest } => fix(dest),
        InstData::Brif {
            then_dest,
            else_dest,
            ..
        } => {
            fix(then_dest);
            fix(else_dest);
        }
        InstData::Switch { default, cases, .. } => {
            fix(default);
            for (_, d) in cases {
                fix(d);
            }
        }
        _ => {}
    }
}

/// Replaces loop `l` of `u.func` by its copies (see the module doc).
fn unroll(u: &mut Unrolled, l: &CountedLoop) {
    let h = l.header;
    let params: Vec<Value> = u.func.dfg.block_params(h).to_vec();
    let counter_ty = u.func.dfg.value_type(params[l.counter]);
    let header_insts: Vec<Inst> = u.func.layout.insts(h).to_vec();
    let Some((&header_term, header_body)) = header_insts.split_last() else {
        return;
    };
    // The header's parameters' values entering the current copy.
    let entry_term = u.func.terminator(l.entry);
    let mut incoming: Vec<Value> = entry_term
        .and_then(|t| {
            u.func
                .dfg
                .inst(t)
                .branch_targets()
                .into_iter()
                .find(|d| d.block == h)
                .map(|d| d.args.clone())
        })
        .unwrap_or_default();
    let latch_term = u.func.terminator(l.latch);
    let back_args: Vec<Value> = latch_term
        .and_then(|t| {
            u.func
                .dfg
                .inst(t)
                .branch_targets()
                .into_iter()
                .find(|d| d.block == h)
                .map(|d| d.args.clone())
        })
        .unwrap_or_default();
    let mut placed: Vec<kir::Block> = Vec::new();
    let mut first_header = None;
    // The header's values (parameters and results) in the last copy, for uses after the loop.
    let mut exit_values: HashMap<Value, Value> = HashMap::new();
    // The block the previous copy's latch must jump to is made by the next copy.
    let mut pending_latch: Option<Inst> = None;
    for (iter, &kv) in l.values.iter().enumerate() {
        let last = iter as u64 == l.trip;
        let mut values: HashMap<Value, Value> = HashMap::new();
        let mut blocks: HashMap<kir::Block, kir::Block> = HashMap::new();
        let nh = u.func.dfg.make_block();
        blocks.insert(h, nh);
        let (ci, cv) = make_const(&mut u.func, counter_ty, kv);
        push_origin(u, ci, header_term);
        u.func.layout.append_inst(nh, ci);
        for (i, &p) in params.iter().enumerate() {
            let v = if i == l.counter {
                cv
            } else {
                incoming.get(i).copied().unwrap_or(p)
            };
            values.insert(p, v);
        }
        let copied: Vec<kir::Block> = if last { Vec::new() } else { l.body.clone() };
        for &b in &copied {
            let nb = u.func.dfg.make_block();
            for p in u.func.dfg.block_params(b).to_vec() {
                let ty = u.func.dfg.value_type(p);
                let np = u.func.dfg.append_block_param(nb, ty);
                values.insert(p, np);
            }
            blocks.insert(b, nb);
        }
        // Results first (an instruction may use a value defined later in the layout).
        let mut copies: Vec<(kir::Block, Inst, Inst)> = Vec::new();
        let sources = std::iter::once((h, header_body.to_vec())).chain(
            copied
                .iter()
                .map(|&b| (b, u.func.layout.insts(b).to_vec()))
                .collect::<Vec<_>>(),
        );
        for (b, insts) in sources {
            for i in insts {
                let rty = u.func.dfg.inst_result(i).map(|r| u.func.dfg.value_type(r));
                let (ni, nr) = u.func.dfg.make_inst(InstData::Unreachable, rty);
                if let (Some(r), Some(nr)) = (u.func.dfg.inst_result(i), nr) {
                    values.insert(r, nr);
                }
                copies.push((b, i, ni));
            }
        }
        for (b, i, ni) in copies {
            let mut data = u.func.dfg.inst(i).clone();
            data.for_each_operand_mut(|v| {
                if let Some(&n) = values.get(v) {
                    *v = n;
                }
            });
            retarget(&mut data, &|t| blocks.get(&t).copied());
            *u.func.dfg.inst_mut(ni) = data;
            push_origin(u, ni, i);
            u.func.layout.append_inst(blocks[&b], ni);
        }
        // The header's test holds (or, in the last copy, fails): a jump.
        let mut dest = if last {
            l.exit.clone()
        } else {
            l.into_body.clone()
        };
        for a in &mut dest.args {
            if let Some(&n) = values.get(a) {
                *a = n;
            }
        }
        if let Some(&n) = blocks.get(&dest.block) {
            dest.block = n;
        }
        let (ji, _) = u.func.dfg.make_inst(InstData::Jump { dest }, None);
        push_origin(u, ji, header_term);
        u.func.layout.append_inst(nh, ji);
        // The previous copy's latch comes here.
        if let Some(pl) = pending_latch.take() {
            *u.func.dfg.inst_mut(pl) = InstData::Jump {
                dest: BlockCall::new(nh, Vec::new()),
            };
        }
        if first_header.is_none() {
            first_header = Some(nh);
        }
        if !last {
            let nl = blocks[&l.latch];
            pending_latch = u.func.terminator(nl);
            incoming = back_args
                .iter()
                .map(|a| values.get(a).copied().unwrap_or(*a))
                .collect();
        } else {
            exit_values = values
                .into_iter()
                .filter(|(k, _)| params.contains(k) || is_result_in(&u.func, *k, header_body))
                .collect();
        }
        placed.push(nh);
        placed.extend(copied.iter().map(|b| blocks[b]));
    }
    let Some(first_header) = first_header else {
        return;
    };
    // The entry edge goes to the first copy, without arguments.
    if let Some(t) = entry_term {
        let mut data = u.func.dfg.inst(t).clone();
        let fix = |d: &mut BlockCall| {
            if d.block == h {
                d.block = first_header;
                d.args.clear();
            }
        };
        match &mut data {
            InstData::Jump { dest } => fix(dest),
            InstData::Brif {
                then_dest,
                else_dest,
                ..
            } => {
                fix(then_dest);
                fix(else_dest);
            }
            InstData::Switch { default, cases, .. } => {
                fix(default);
                for (_, d) in cases {
                    fix(d);
                }
            }
            _ => {}
        }
        *u.func.dfg.inst_mut(t) = data;
    }
    // The loop's blocks leave the layout; the copies take the header's place.
    let old: HashSet<kir::Block> = std::iter::once(h).chain(l.body.iter().copied()).collect();
    let at = u
        .func
        .layout
        .blocks
        .iter()
        .position(|&b| b == h)
        .unwrap_or(u.func.layout.blocks.len());
    for &b in &old {
        if let Some(v) = u.func.layout.block_insts.get_mut(b.index()) {
            v.clear();
        }
    }
    u.func.layout.blocks.retain(|b| !old.contains(b));
    let at = at.min(u.func.layout.blocks.len());
    if u.func.layout.block_insts.len() < u.func.dfg.num_blocks() {
        u.func
            .layout
            .block_insts
            .resize(u.func.dfg.num_blocks(), Vec::new());
    }
    u.func.layout.blocks.splice(at..at, placed.iter().copied());
    // Uses after the loop of the header's values take the last copy's.
    let placed: HashSet<kir::Block> = placed.into_iter().collect();
    for b in u.func.layout.blocks.clone() {
        if placed.contains(&b) {
            continue;
        }
        for i in u.func.layout.insts(b).to_vec() {
            u.func.dfg.inst_mut(i).for_each_operand_mut(|v| {
                if let Some(&n) = exit_values.get(v) {
                    *v = n;
                }
            });
        }
    }
}

/// Whether `v` is the result of one of `insts`.
fn is_result_in(func: &Function, v: Value, insts: &[Inst]) -> bool {
    insts.iter().any(|&i| func.dfg.inst_result(i) == Some(v))
}

/// Records that instruction `new` copies `of` (of the function being unrolled).
fn push_origin(u: &mut Unrolled, new: Inst, of: Inst) {
    let root = u.origin.get(of.index()).copied().unwrap_or(of);
    if u.origin.len() <= new.index() {
        u.origin.resize(new.index() + 1, root);
    }
    u.origin[new.index()] = root;
}
