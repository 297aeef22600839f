//! Control flow inside functions: branch targets are blocks of the same function, dominators
//! (Cooper–Harvey–Kennedy iteration over reverse post-order), definitions dominate their non-phi
//! uses (SPIR-V 2.16 "Validation Rules", Universal: "each use dominated by its definition"), and
//! `OpPhi` has exactly one entry per predecessor of its block.

use super::context::{Ctx, Function};
use crate::{Id, Op, Operand};
use std::collections::HashMap;

const DOMINANCE: &str = "SPIR-V 2.16.1 (a definition must dominate its uses)";
const PHI: &str = "SPIR-V 3.32.17 OpPhi (one parent per predecessor of the block)";
const LOCAL: &str = "SPIR-V 2.16.1 (ids defined in a function are local to it)";
const TARGET: &str = "SPIR-V 2.16.1 (branch targets are labels of the same function)";

/// The control-flow graph of one function, blocks numbered in function order.
struct Graph {
    preds: Vec<Vec<usize>>,
    /// Immediate dominator of each reachable block (the entry is its own); None if unreachable.
    idom: Vec<Option<usize>>,
    /// Entry and exit times of a depth-first walk of the dominator tree: `a` dominates `b`
    /// exactly when `b`'s interval nests in `a`'s.
    enter: Vec<usize>,
    exit: Vec<usize>,
}

impl Graph {
    fn reachable(&self, b: usize) -> bool {
        self.idom[b].is_some()
    }

    /// Whether block `a` dominates block `b` (both reachable).
    fn dominates(&self, a: usize, b: usize) -> bool {
        self.enter[a] <= self.enter[b] && self.exit[b] <= self.exit[a]
    }
}

fn build(ctx: &mut Ctx<'_>, f: &Function) -> Graph {
    let n = f.blocks.len();
    let label_block: HashMap<u32, usize> = f
        .blocks
        .iter()
        .enumerate()
        .filter_map(|(b, blk)| ctx.inst(blk.label).result.map(|r| (r.0, b)))
        .collect();
    let mut succs = vec![Vec::new(); n];
    for (b, blk) in f.blocks.iter().enumerate() {
        let Some(t) = blk.terminator else { continue };
        let inst = ctx.inst(t);
        let targets: Vec<Id> = match inst.op {
            Op::Branch => inst.id(0).into_iter().collect(),
            Op::BranchConditional => [inst.id(1), inst.id(2)].into_iter().flatten().collect(),
            Op::Switch => inst
                .operands
                .iter()
                .skip(1)
                .filter_map(Operand::as_id)
                .collect(),
            _ => Vec::new(),
        };
        for target in targets {
            match label_block.get(&target.0) {
                Some(&s) => {
                    if !succs[b].contains(&s) {
                        succs[b].push(s);
                    }
                }
                None => ctx.error(
                    t,
                    TARGET,
                    format!("{target} is not the label of a block of this function"),
                ),
            }
        }
    }
    let mut preds = vec![Vec::new(); n];
    for (b, ss) in succs.iter().enumerate() {
        for &s in ss {
            preds[s].push(b);
        }
    }
    // Post-order from the entry block, iteratively.
    let mut order = Vec::new();
    let mut visited = vec![false; n];
    if n > 0 {
        let mut stack = vec![(0usize, 0usize)];
        visited[0] = true;
        while let Some(&mut (b, ref mut next)) = stack.last_mut() {
            if *next < succs[b].len() {
                let s = succs[b][*next];
                *next += 1;
                if !visited[s] {
                    visited[s] = true;
                    stack.push((s, 0));
                }
            } else {
                order.push(b);
                stack.pop();
            }
        }
    }
    order.reverse();
    let mut rpo = vec![None; n];
    for (k, &b) in order.iter().enumerate() {
        rpo[b] = Some(k);
    }
    let mut idom: Vec<Option<usize>> = vec![None; n];
    if n > 0 {
        idom[0] = Some(0);
        let mut changed = true;
        // The iteration converges in a few rounds; the bound only guards against surprises.
        let mut rounds = 0;
        while changed && rounds <= n + 2 {
            rounds += 1;
            changed = false;
            for &b in order.iter().skip(1) {
                let mut new: Option<usize> = None;
                for &p in &preds[b] {
                    if idom[p].is_none() {
                        continue;
                    }
                    new = Some(match new {
                        None => p,
                        Some(cur) => intersect(&idom, &rpo, p, cur),
                    });
                }
                if new.is_some() && idom[b] != new {
                    idom[b] = new;
                    changed = true;
                }
            }
        }
    }
    // Number the dominator tree.
    let mut children = vec![Vec::new(); n];
    for (b, d) in idom.iter().enumerate() {
        if let Some(d) = *d {
            if d != b {
                children[d].push(b);
            }
        }
    }
    let mut enter = vec![0; n];
    let mut exit = vec![0; n];
    if n > 0 {
        let mut clock = 0;
        let mut stack = vec![(0usize, 0usize)];
        enter[0] = clock;
        while let Some(&mut (b, ref mut next)) = stack.last_mut() {
            if let Some(&c) = children[b].get(*next) {
                *next += 1;
                clock += 1;
                enter[c] = clock;
                stack.push((c, 0));
            } else {
                clock += 1;
                exit[b] = clock;
                stack.pop();
            }
        }
    }
    Graph {
        preds,
        idom,
        enter,
        exit,
    }
}

fn intersect(idom: &[Option<usize>], rpo: &[Option<usize>], mut a: usize, mut b: usize) -> usize {
    let num = |x: usize| rpo[x].unwrap_or(usize::MAX);
    let mut guard = 0usize;
    while a != b && guard < 4 * idom.len() + 4 {
        guard += 1;
        while num(a) > num(b) {
            match idom[a] {
                Some(p) if p != a => a = p,
                _ => return b,
            }
        }
        while num(b) > num(a) {
            match idom[b] {
                Some(p) if p != b => b = p,
                _ => return a,
            }
        }
    }
    a
}

/// Checks every function's control flow and the dominance of definitions over uses.
pub(crate) fn check(ctx: &mut Ctx<'_>) {
    let functions = ctx.functions.clone();
    for (fi, f) in functions.iter().enumerate() {
        let graph = build(ctx, f);
        // Block of each instruction of the function.
        let mut block_of: HashMap<usize, usize> = HashMap::new();
        for (b, blk) in f.blocks.iter().enumerate() {
            let end = blk.terminator.unwrap_or(blk.label);
            for i in blk.label..=end {
                block_of.insert(i, b);
            }
        }
        for (b, blk) in f.blocks.iter().enumerate() {
            let end = blk.terminator.unwrap_or(blk.label);
            for i in blk.label + 1..=end {
                let inst = ctx.inst(i);
                if inst.op == Op::Phi {
                    check_phi(ctx, fi, f, &graph, &block_of, b, i);
                    continue;
                }
                let uses: Vec<Id> = inst.operands.iter().filter_map(Operand::as_id).collect();
                for x in uses {
                    let Some(&d) = ctx.defs.get(&x.0) else {
                        continue;
                    };
                    let dop = ctx.inst(d).op;
                    if matches!(dop, Op::Function | Op::Label) {
                        continue;
                    }
                    match ctx.func_of[d] {
                        None => {}
                        Some(g) if g != fi => {
                            ctx.error(i, LOCAL, format!("{x} is defined in another function"))
                        }
                        Some(_) if dop == Op::FunctionParameter => {}
                        Some(_) => {
                            let Some(&bd) = block_of.get(&d) else {
                                continue;
                            };
                            if !graph.reachable(b) {
                                continue;
                            }
                            let ok = if bd == b {
                                d < i
                            } else {
                                graph.reachable(bd) && graph.dominates(bd, b)
                            };
                            if !ok {
                                ctx.error(
                                    i,
                                    DOMINANCE,
                                    format!("the definition of {x} does not dominate this use"),
                                );
                            }
                        }
                    }
                }
            }
        }
    }
}

fn check_phi(
    ctx: &mut Ctx<'_>,
    fi: usize,
    f: &Function,
    graph: &Graph,
    block_of: &HashMap<usize, usize>,
    b: usize,
    i: usize,
) {
    let inst = ctx.inst(i);
    if inst.operands.len() % 2 == 1 {
        ctx.error(i, PHI, "OpPhi operands must be (value, parent) pairs");
        return;
    }
    let mut parents_seen = Vec::new();
    let pairs: Vec<(Option<Id>, Option<Id>)> = inst
        .operands
        .chunks(2)
        .map(|p| (p[0].as_id(), p[1].as_id()))
        .collect();
    for (value, parent) in pairs {
        let (Some(value), Some(parent)) = (value, parent) else {
            ctx.error(i, PHI, "OpPhi operands must be ids");
            continue;
        };
        let parent_block = f
            .blocks
            .iter()
            .position(|blk| ctx.inst(blk.label).result == Some(parent));
        let Some(pb) = parent_block else {
            ctx.error(
                i,
                PHI,
                format!("parent {parent} is not a block of this function"),
            );
            continue;
        };
        if !graph.preds[b].contains(&pb) {
            ctx.error(
                i,
                PHI,
                format!("parent {parent} is not a predecessor of this block"),
            );
        }
        if parents_seen.contains(&pb) {
            ctx.error(i, PHI, format!("parent {parent} appears more than once"));
        }
        parents_seen.push(pb);
        // The value must be available at the end of the parent block.
        let Some(&d) = ctx.defs.get(&value.0) else {
            continue;
        };
        if ctx.func_of[d] != Some(fi)
            || matches!(ctx.inst(d).op, Op::FunctionParameter | Op::Function)
        {
            if ctx.func_of[d].is_some_and(|g| g != fi) && ctx.inst(d).op != Op::Function {
                ctx.error(i, LOCAL, format!("{value} is defined in another function"));
            }
            continue;
        }
        if let Some(&bd) = block_of.get(&d) {
            if graph.reachable(pb) && !(graph.reachable(bd) && graph.dominates(bd, pb)) {
                ctx.error(
                    i,
                    DOMINANCE,
                    format!(
                        "the definition of {value} does not dominate the end of parent {parent}"
                    ),
                );
            }
        }
    }
    let mut preds = graph.preds[b].clone();
    preds.dedup();
    if parents_seen.len() != preds.len() {
        ctx.error(
            i,
            PHI,
            format!(
                "OpPhi has {} parents but the block has {} predecessors",
                parents_seen.len(),
                preds.len()
            ),
        );
    }
}
