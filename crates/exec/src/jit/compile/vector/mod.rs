//! The vectorised row loop: the kernel function compiled to run `WIDTH` consecutive work-items
//! of a row per iteration, in lock step (a schedule the execution model allows, since
//! work-items of a kernel without barriers are unordered; OpenCL C 2.0 §3.2.2).
//!
//! A shape analysis gives every kir value one of three shapes across the work-items of an
//! iteration:
//! - uniform: the same for all of them (parameters, constants, group-wide work-item queries,
//!   and anything computed only from those): one scalar, computed once per iteration by the
//!   scalar translator (`Translator::inst`);
//! - affine: `lane 0 + j × stride` for work-item j, with a constant stride (the row-varying
//!   ids and integer and pointer arithmetic on them): lane 0's value, computed once, and the
//!   stride. A widening conversion keeps the form only while the narrow lanes do not wrap,
//!   which a guard checks at run time where the form is used;
//! - varying: one value per work-item, each computed by replaying the instruction through
//!   the scalar translator with that work-item's operands (so every instruction keeps its
//!   exact scalar semantics, helpers and error reports).
//!
//! Loads and stores whose address is affine with a stride equal to the access size touch one
//! contiguous range: one bounds check per iteration instead of one per work-item, and direct
//! accesses. When the check (or a guard) fails, the access is replayed work-item by work-item
//! with the scalar checks, which report the error exactly as the scalar loop does.
//!
//! Kernels are vectorised only when every branch condition is uniform (control flow is then
//! the same for all work-items of an iteration), except two-way branches outside loops that
//! no effect precedes: an iteration whose work-items disagree there is abandoned and run by
//! the scalar loop (image borders in a stencil, say), and branches of loops that can run under
//! lane masks (`masked`: no effects, no failures). Nothing may be order-dependent between
//! work-items: no atomics, `printf`, barriers, pipes, images, device-side enqueue or private
//! arrays, also in the functions they call. Otherwise the scalar row loop runs.

use std::collections::HashMap;

use cranelift_codegen::entity::packed_option::ReservedValue;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, InstBuilder, MemFlagsData};
use kir::{BinaryOp, BuiltinFn, ConvertOp, Function, InstData, Type, Value, ValueDef};

use super::{bargs, lanes_of, rpo, wi_source, ClValue, Translator, Unsupported, WiSource};

mod assume;
mod block_remat;
mod cheap_checks;
pub(super) mod counted_unroll;
mod dead_params;
pub(super) mod idle;
mod invariant;
mod lane_exit;
pub(super) mod loop_proof;
mod masked;
mod math;
mod packed;
pub(super) mod phase;
mod phase_remat;
mod pure_loads;
mod range_proof;
mod row_prefix;
mod row_proof;
mod scalar_phases;
mod shared_base;
mod simd_int;
mod uniform_proof;
pub(super) mod uniform_step;
mod unroll;

/// Work-items per iteration (varying `f32` values are one `f32x4`).
pub(super) const WIDTH: usize = 4;
const _: () = assert!(WIDTH == 4, "varying f32 values are kept as f32x4");

/// A value's shape across the work-items of one iteration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Shape {
    /// Not reached yet by the analysis.
    Unknown,
    Uniform,
    /// Lane 0's value plus `j × stride` (wrapping, in the value's type).
    Affine(i64),
    Varying,
}

/// An affine value as translated.
#[derive(Clone)]
struct Affine {
    /// Lane 0's (exact) value.
    base: ClValue,
    /// Conditions (`i8`, nonzero: holds) under which every lane equals the affine formula.
    guards: Vec<ClValue>,
}

/// Translation state of the vectorised row loop.
pub(super) struct VecState {
    shapes: Vec<Shape>,
    /// Per varying value: lane j's Cranelift lanes.
    varying: HashMap<Value, Vec<Vec<ClValue>>>,
    affine: HashMap<Value, Affine>,
    /// Per varying `f32` value (or vector of them): one `f32x4` per kir lane, lane j being
    /// work-item j's (kept instead of, or besides, `varying`).
    simd: HashMap<Value, Vec<ClValue>>,
    /// Lanes j ≥ 1 of affine values, lanes of `simd` values, and `f32x4` forms of uniform or
    /// per-work-item values, computed in the current block.
    memo: HashMap<(Value, usize), Vec<ClValue>>,
    /// The index of the iteration's first work-item in the row.
    first: ClValue,
    /// Where failures go while no instruction with an effect has run in the iteration: the
    /// iteration is abandoned (`BAIL`) and the scalar loop runs it again, reporting the error
    /// exactly as it does (see `translate_vec`).
    bail: cranelift_codegen::ir::Block,
    /// The scalar failure block.
    fail: cranelift_codegen::ir::Block,
    /// Whether an instruction with an effect may have run in the iteration.
    effect: bool,
    /// Contiguous accesses proven in bounds for the whole row (the loop being translated is
    /// the unchecked one, see `row_proof`): the address of work-item 0's access.
    proven: HashMap<kir::Inst, ClValue>,
    /// Whether `proven` holds the stack slots of the addresses, read at each use
    /// (`shared_base::reload`).
    proven_reload: bool,
    /// Row-invariant instructions translated before the loop (`invariant`), skipped in it.
    hoisted: std::collections::HashSet<kir::Inst>,
    /// The constant a proven access adds to the address in `proven` (`shared_base`).
    proven_disp: HashMap<kir::Inst, i32>,
    /// Comparisons proven to have this value for every work-item of the row (in the
    /// unchecked loop; uniform there).
    proven_cmps: Vec<(kir::Inst, bool)>,
    /// The loops run under masks.
    masked: masked::MaskState,
    /// Block parameters nothing reads (`dead_params`): uniform, without a Cranelift parameter.
    dead: std::collections::HashSet<Value>,
    /// Contiguous accesses proven in bounds with their guards for the row by intervals, and
    /// affine clamps proven the identity (`range_proof`; in the unchecked loop).
    ranged: Vec<kir::Inst>,
    /// Varying `f32` values whose `f32x4` form is kept in a stack slot (`packed`).
    packed: HashMap<Value, cranelift_codegen::ir::StackSlot>,
    /// In a copy of the unrolled loop (`unroll`): the trip's first work-item and how far
    /// ahead of it the copy's iteration starts.
    unrolled: Option<(ClValue, i64)>,
    /// `f32x4` splats of uniform parameters computed before the loop (`unroll`).
    splats: HashMap<Value, Vec<ClValue>>,
    /// The checked loop, while translating the unchecked one (`assume`).
    fallback: Option<cranelift_codegen::ir::Block>,
    /// Whether uniform block parameters may be folded to constants (`assume`), and the
    /// constants the branches translated pass to each block.
    fold: bool,
    edges: HashMap<kir::Block, Vec<Vec<Option<i64>>>>,
}

impl VecState {
    /// The state of a loop about to be translated: `shapes` from the analysis, `masked` its
    /// masked loops, `dead` the block parameters passed as uniform zeros; nothing else known yet.
    fn new(
        shapes: Vec<Shape>,
        masked: masked::MaskState,
        dead: std::collections::HashSet<Value>,
    ) -> VecState {
        VecState {
            shapes,
            varying: HashMap::new(),
            affine: HashMap::new(),
            simd: HashMap::new(),
            memo: HashMap::new(),
            first: ClValue::reserved_value(),
            bail: cranelift_codegen::ir::Block::reserved_value(),
            fail: cranelift_codegen::ir::Block::reserved_value(),
            effect: false,
            proven: HashMap::new(),
            proven_disp: HashMap::new(),
            hoisted: std::collections::HashSet::new(),
            proven_reload: false,
            proven_cmps: Vec::new(),
            masked,
            dead,
            ranged: Vec::new(),
            packed: HashMap::new(),
            unrolled: None,
            splats: HashMap::new(),
            fallback: None,
            fold: false,
            edges: HashMap::new(),
        }
    }
}

/// Status of an abandoned iteration: `ItemCtx::resolved` holds the index in the row of its
/// first work-item; the caller clears the error recorded and runs the rest of the row on the
/// scalar loop.
pub const BAIL: i32 = -1;

/// The integer constant `v` is defined as, if it is one.
fn const_int(func: &Function, v: Value) -> Option<i64> {
    let ValueDef::Result(inst) = func.dfg.value_def(v) else {
        return None;
    };
    let InstData::Const { bytes } = func.dfg.inst(inst) else {
        return None;
    };
    let w = int_bits(func.dfg.value_type(v))? as usize / 8;
    let mut raw = [0u8; 8];
    raw[..w].copy_from_slice(bytes.get(..w)?);
    let x = i64::from_le_bytes(raw);
    Some(x << (64 - 8 * w) >> (64 - 8 * w))
}

/// Width in bits of a scalar integer type.
fn int_bits(t: Type) -> Option<u32> {
    match t {
        Type::I8 => Some(8),
        Type::I16 => Some(16),
        Type::I32 => Some(32),
        Type::I64 => Some(64),
        _ => None,
    }
}

/// Whether values of type `t` are kept as `f32x4` when varying.
fn is_f32(t: Type) -> bool {
    matches!(t, Type::F32 | Type::Vec(kir::ScalarType::F32, _))
}

/// Memo key of a value's `f32x4` form.
const SIMD_KEY: usize = usize::MAX;

/// Whether an instruction is allowed in a vectorised kernel or a function it calls.
fn allowed(data: &InstData) -> bool {
    !matches!(
        data,
        InstData::Barrier { .. }
            | InstData::NamedBarrier { .. }
            | InstData::Atomic { .. }
            | InstData::Pipe { .. }
            | InstData::Enqueue { .. }
            | InstData::Image { .. }
            | InstData::StackAlloc { .. }
            | InstData::Builtin {
                func: BuiltinFn::Printf,
                ..
            }
    )
}

/// Whether `callee`s (every function the kernel reaches) allow vectorising the kernel.
pub(super) fn callees_allowed(module: &kir::Module, funcs: &[usize]) -> bool {
    funcs.iter().all(|&f| {
        let func = &module.functions[f];
        func.layout
            .blocks
            .iter()
            .flat_map(|&b| func.layout.insts(b))
            .all(|&i| allowed(func.dfg.inst(i)))
    })
}

/// Whether an instruction may change memory (or anything else another work-item or the
/// host sees).
fn has_effect(func: &Function, data: &InstData) -> bool {
    match data {
        InstData::Store { .. }
        | InstData::Call { .. }
        | InstData::Memcpy { .. }
        | InstData::Memset { .. } => true,
        InstData::Builtin { args, .. } => args
            .iter()
            .any(|&a| matches!(func.dfg.value_type(a), Type::Ptr(_))),
        _ => !allowed(data),
    }
}

/// Per block: whether an instruction with an effect may have run before the block in the
/// same iteration.
fn effects_before(func: &Function, order: &[kir::Block]) -> HashMap<kir::Block, bool> {
    let mut before: HashMap<kir::Block, bool> = order.iter().map(|&b| (b, false)).collect();
    loop {
        let mut changed = false;
        for &kb in order {
            let mut effect = before[&kb];
            for &inst in func.layout.insts(kb) {
                let data = func.dfg.inst(inst);
                effect |= has_effect(func, data);
                for dest in data.branch_targets() {
                    if effect && !before.get(&dest.block).copied().unwrap_or(true) {
                        before.insert(dest.block, true);
                        changed = true;
                    }
                }
            }
        }
        if !changed {
            return before;
        }
    }
}

fn join(a: Shape, b: Shape) -> Shape {
    match (a, b) {
        (Shape::Unknown, x) | (x, Shape::Unknown) => x,
        (x, y) if x == y => x,
        _ => Shape::Varying,
    }
}

/// What the translation needs to know about a vectorisable kernel function.
#[derive(Clone)]
pub(super) struct Analysis {
    shapes: Vec<Shape>,
    /// Per block: whether an effect may have run before it in the iteration.
    effects_before: HashMap<kir::Block, bool>,
    /// The loops with varying branches, run under masks.
    loops: Vec<masked::MaskedLoop>,
}

/// The shape of every value of the kernel function `func`, or why it cannot be vectorised.
pub(super) fn analyse(func: &Function, order: &[kir::Block]) -> Result<Analysis, Unsupported> {
    analyse_with(func, order, &[])
}

/// `analyse`, with the values `uniform` known to be the same for every work-item (row
/// proofs, see `row_proof`).
fn analyse_with(
    func: &Function,
    order: &[kir::Block],
    uniform: &[Value],
) -> Result<Analysis, Unsupported> {
    // Loops with a varying branch run under masks, which make some parameters varying.
    let mut loops = Vec::new();
    let shapes = loop {
        let forced = masked::forced_varying(func, &loops);
        let shapes = shapes_of(func, order, &forced, uniform)?;
        let more = masked::loops_to_mask(func, order, &shapes, &loops)?;
        if more.is_empty() {
            break shapes;
        }
        loops.extend(more);
    };
    // Control flow must be the same for every work-item of an iteration, except at a
    // two-way branch outside loops reached before any effect: there the iteration is
    // abandoned to the scalar loop when its work-items disagree (see `vinst`), and in
    // masked loops.
    let before = effects_before(func, order);
    let cyclic = blocks_in_cycles(func, order);
    for &kb in order {
        if masked::in_masked_loop(&loops, kb) {
            continue;
        }
        let mut effect = before.get(&kb).copied().unwrap_or(true);
        for &inst in func.layout.insts(kb) {
            let data = func.dfg.inst(inst);
            let cond = match data {
                InstData::Brif { cond, .. } => *cond,
                InstData::Switch { value, .. } => *value,
                _ => {
                    effect |= has_effect(func, data);
                    continue;
                }
            };
            if matches!(shapes[cond.index()], Shape::Uniform | Shape::Unknown) {
                continue;
            }
            let two_way = matches!(data, InstData::Brif { .. });
            if !two_way || effect || cyclic.contains(&kb) {
                return Err("a branch depends on the work-item".into());
            }
        }
    }
    Ok(Analysis {
        shapes,
        effects_before: before,
        loops,
    })
}

/// The shape of every value of `func`; parameters in `forced` are varying, results in
/// `uniform` uniform.
fn shapes_of(
    func: &Function,
    order: &[kir::Block],
    forced: &std::collections::HashSet<Value>,
    uniform: &[Value],
) -> Result<Vec<Shape>, Unsupported> {
    let entry = func.entry_block().ok_or("function without a body")?;
    let mut shapes = vec![Shape::Unknown; func.dfg.num_values()];
    let dead = dead_params::dead_params(func, order);
    for &p in func.dfg.block_params(entry) {
        shapes[p.index()] = Shape::Uniform;
    }
    for round in 0.. {
        if round > 64 {
            return Err("shape analysis did not settle".into());
        }
        let mut changed = false;
        for &kb in order {
            for &inst in func.layout.insts(kb) {
                let data = func.dfg.inst(inst);
                if !allowed(data) {
                    return Err(format!("{} is not vectorised", data.opcode_name()));
                }
                let shape_at = |shapes: &[Shape], v: Value| match shapes[v.index()] {
                    Shape::Unknown => Shape::Uniform,
                    s => s,
                };
                for dest in data.branch_targets() {
                    for (&p, &a) in func.dfg.block_params(dest.block).iter().zip(&dest.args) {
                        if dead.contains(&p) && !forced.contains(&p) {
                            continue;
                        }
                        // Block parameters are uniform or varying (never affine: their lanes
                        // are not the result of one instruction to replay).
                        let s = match shape_at(&shapes, a) {
                            Shape::Uniform if !forced.contains(&p) => Shape::Uniform,
                            _ => Shape::Varying,
                        };
                        let new = join(shapes[p.index()], s);
                        if new != shapes[p.index()] {
                            shapes[p.index()] = new;
                            changed = true;
                        }
                    }
                }
                let Some(r) = func.dfg.inst_result(inst) else {
                    continue;
                };
                let shape_of = |v: Value| shape_at(&shapes, v);
                let new = if uniform.contains(&r) {
                    Shape::Uniform
                } else {
                    join(shapes[r.index()], result_shape(func, data, r, &shape_of))
                };
                if new != shapes[r.index()] {
                    shapes[r.index()] = new;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    Ok(shapes)
}

/// The blocks that lie on a cycle of the control-flow graph.
fn blocks_in_cycles(func: &Function, order: &[kir::Block]) -> Vec<kir::Block> {
    let succs = |b: kir::Block| -> Vec<kir::Block> {
        func.layout
            .insts(b)
            .iter()
            .flat_map(|&i| func.dfg.inst(i).branch_targets())
            .map(|d| d.block)
            .collect()
    };
    let mut out = Vec::new();
    for &b in order {
        let mut seen = vec![b];
        let mut stack = succs(b);
        while let Some(x) = stack.pop() {
            if x == b {
                out.push(b);
                break;
            }
            if !seen.contains(&x) {
                seen.push(x);
                stack.extend(succs(x));
            }
        }
    }
    out
}

/// The shape of `data`'s result `r`.
fn result_shape(
    func: &Function,
    data: &InstData,
    r: Value,
    shape_of: &dyn Fn(Value) -> Shape,
) -> Shape {
    use Shape::*;
    let rty = func.dfg.value_type(r);
    let scalar_int = int_bits(rty).is_some() || matches!(rty, Type::Ptr(_));
    match data {
        InstData::WorkItem { query, dim } => {
            return match wi_source(*query, u64::from(*dim), true) {
                WiSource::Row(_) => Affine(1),
                _ => Uniform,
            };
        }
        // Their value may depend on the work-item whatever the operands.
        InstData::Call { .. } | InstData::WorkItemDyn { .. } => return Varying,
        _ => {}
    }
    let ops = data.operands();
    let shapes: Vec<Shape> = ops.iter().map(|&v| shape_of(v)).collect();
    if shapes.iter().all(|&s| s == Uniform) {
        return Uniform;
    }
    if !scalar_int || shapes.contains(&Varying) {
        return Varying;
    }
    let stride = |i: usize| match shapes[i] {
        Affine(s) => s,
        _ => 0,
    };
    match data {
        InstData::Binary { op, a, b } => match op {
            BinaryOp::IAdd => Affine(stride(0).wrapping_add(stride(1))),
            BinaryOp::ISub => Affine(stride(0).wrapping_sub(stride(1))),
            BinaryOp::IMul => match (const_int(func, *a), const_int(func, *b)) {
                (_, Some(c)) => Affine(stride(0).wrapping_mul(c)),
                (Some(c), _) => Affine(stride(1).wrapping_mul(c)),
                _ => Varying,
            },
            BinaryOp::Shl => match const_int(func, *b) {
                Some(c) if shapes[1] == Uniform && (0..63).contains(&c) => {
                    Affine(stride(0).wrapping_shl(c as u32))
                }
                _ => Varying,
            },
            _ => Varying,
        },
        InstData::Convert {
            op,
            saturate: false,
            ..
        } => match op {
            ConvertOp::SConvert
            | ConvertOp::UConvert
            | ConvertOp::SToU
            | ConvertOp::UToS
            | ConvertOp::Bitcast => {
                let src = int_bits(func.dfg.value_type(ops[0]));
                match (src, int_bits(rty)) {
                    (Some(_), Some(w)) if w < 64 => {
                        // Narrowing wraps like the lanes; widening is guarded.
                        let s = stride(0) << (64 - w) >> (64 - w);
                        Affine(s)
                    }
                    (Some(_), Some(_)) => Affine(stride(0)),
                    _ => Varying,
                }
            }
            _ => Varying,
        },
        InstData::PtrAdd { .. } => Affine(stride(0).wrapping_add(stride(1))),
        // Clamping changes nothing while every lane lies within the bounds (a guard).
        InstData::Builtin {
            func: BuiltinFn::SClamp | BuiltinFn::UClamp,
            ..
        } if shapes.get(1) == Some(&Uniform) && shapes.get(2) == Some(&Uniform) => {
            Affine(stride(0))
        }
        _ => Varying,
    }
}

impl Translator<'_, '_> {
    fn vs(&mut self) -> &mut VecState {
        self.vec.as_mut().expect("vector state")
    }

    fn shape(&self, v: Value) -> Shape {
        match self.vec.as_ref().map(|s| s.shapes[v.index()]) {
            Some(Shape::Unknown) | None => Shape::Uniform,
            Some(s) => s,
        }
    }

    /// Translates the kernel function as the vectorised row loop `(ctx, n) -> status`: runs
    /// work-items x = 0..n − n mod WIDTH of a row whose x = 0 ids the context holds.
    pub(super) fn translate_vec(&mut self, analysis: Analysis) -> Result<(), Unsupported> {
        let Analysis {
            shapes,
            effects_before: before,
            loops: mask_loops,
        } = analysis;
        let func = self.func;
        let entry = func.entry_block().ok_or("function without a body")?;
        let order = rpo(func, entry);
        let dead = {
            let forced = masked::forced_varying(func, &mask_loops);
            let dead = dead_params::dead_params(func, &order);
            dead.into_iter().filter(|p| !forced.contains(p)).collect()
        };
        let masked = masked::MaskState::new(func, mask_loops.clone());
        self.vec = Some(VecState::new(shapes, masked, dead));
        self.roots = self.pointer_roots(entry, &order);
        let start = self.b.create_block();
        self.b.append_block_params_for_function_params(start);
        let fail = self.b.create_block();
        let status = self.b.append_block_param(fail, types::I32);
        self.fail = fail;
        let (args, row_base, n) = self.row_loop_start(start)?;
        // Row versioning (`row_proof`): a loop without the checks proven once for the row
        // when the proof holds, the checked loop otherwise.
        let checked = self.b.create_block();
        let mut loops = vec![(
            checked,
            HashMap::new(),
            Vec::new(),
            None,
            n,
            None,
            Vec::new(),
        )];
        match self.row_proofs(&order, &args, row_base, n)? {
            Some(mut proof) => {
                // Uniform `__constant` loads proven with the row (`uniform_proof`).
                if let Some((ok, addrs)) = self.uniform_proofs(&order, &args, row_base)? {
                    proof.ok = self.b.ins().band(proof.ok, ok);
                    proof.addrs.extend(addrs);
                }
                let (fast, addrs) =
                    self.branch_on_proof(proof.ok, proof.addrs, proof.shared, checked);
                // Without borders the prefix is the whole row: the loop runs to `n`.
                let len = proof.whole.map_or(n, |_| proof.prefix);
                let whole = proof.whole;
                let ranged = proof.ranged;
                loops.insert(
                    0,
                    (fast, addrs, proof.cmps, proof.shapes, len, whole, ranged),
                );
            }
            None => {
                self.b.ins().jump(checked, &[]);
            }
        }
        for (pre, addrs, cmps, shapes, n, whole, ranged) in loops {
            self.b.switch_to_block(pre);
            // Each version of the loop translates the masked loops afresh.
            self.vs().masked = masked::MaskState::new(func, mask_loops.clone());
            self.vs().proven = addrs;
            self.vs().proven_cmps = cmps;
            self.vs().ranged = ranged;
            self.vs().packed.clear();
            self.vs().fallback = (pre != checked).then_some(checked);
            let saved = shapes.map(|s| std::mem::replace(&mut self.vs().shapes, s));
            self.ptr_offsets.clear();
            self.vec_loop(&order, &before, &args, row_base, (n, whole))?;
            if let Some(s) = saved {
                self.vs().shapes = s;
            }
        }
        self.fail = fail;
        self.b.switch_to_block(fail);
        self.b.ins().return_(&[status]);
        Ok(())
    }

    /// One vectorised loop over the row, from the current block (see `translate_vec`).
    fn vec_loop(
        &mut self,
        order: &[kir::Block],
        before: &HashMap<kir::Block, bool>,
        args: &[ClValue],
        row_base: [ClValue; 4],
        (n, whole): (ClValue, Option<ClValue>),
    ) -> Result<(), Unsupported> {
        let func = self.func;
        let entry = func.entry_block().ok_or("function without a body")?;
        let fail = self.fail;
        // The kernel's parameters: the row's values when no branch targets the entry block.
        let bound = self.bind_entry_args(entry, args)?;
        let args = if bound { &[][..] } else { args };
        self.vs().hoisted = self.hoist_row_invariants(order, bound)?;
        self.assume_row_tests(order)?;
        self.hoist_splats(order, bound)?;
        // Several iterations per trip first when the body allows (`unroll`).
        let start = self.unrolled_loop(order, before, args, row_base, n, bound)?;
        self.create_vec_blocks(order, bound)?;
        self.vec_row_loop(args, row_base, n, entry, whole, start)?;
        self.translate_vec_blocks(order, before, fail)
    }

    /// Creates the Cranelift blocks of one copy of the kernel function's blocks, with their
    /// parameters (the entry block's are the row's values when `bound`).
    fn create_vec_blocks(&mut self, order: &[kir::Block], bound: bool) -> Result<(), Unsupported> {
        let func = self.func;
        let entry = func.entry_block().ok_or("function without a body")?;
        for &kb in order {
            let cb = self.b.create_block();
            self.blocks.insert(kb, cb);
        }
        for &kb in order {
            let cb = self.blocks[&kb];
            if self.params_bound_at_jump(kb) || (bound && kb == entry) {
                continue;
            }
            for &p in func.dfg.block_params(kb) {
                if self.bind_dead_param(p)? {
                    continue;
                }
                let lanes_ty = lanes_of(self.ty(p))?;
                if kb == entry || self.shape(p) == Shape::Uniform {
                    let lanes = lanes_ty
                        .iter()
                        .map(|&(cl, _)| self.b.append_block_param(cb, cl))
                        .collect();
                    self.vals[p.index()] = Some(lanes);
                } else if self.simd_param(p) {
                    let cl = simd_int::simd_cl(self.ty(p)).ok_or("no vector form")?;
                    let lanes = lanes_ty
                        .iter()
                        .map(|_| self.b.append_block_param(cb, cl))
                        .collect();
                    self.vs().simd.insert(p, lanes);
                } else {
                    let mut per = Vec::new();
                    for _ in 0..WIDTH {
                        let lanes = lanes_ty
                            .iter()
                            .map(|&(cl, _)| self.b.append_block_param(cb, cl))
                            .collect();
                        per.push(lanes);
                    }
                    self.vs().varying.insert(p, per);
                }
            }
            self.add_mask_param(kb, cb);
        }
        Ok(())
    }

    /// Translates the blocks made by `create_vec_blocks` for the iteration whose first
    /// work-item is the row loop's `i` (`self.row`), with its abandon block.
    fn translate_vec_blocks(
        &mut self,
        order: &[kir::Block],
        before: &HashMap<kir::Block, bool>,
        fail: cranelift_codegen::ir::Block,
    ) -> Result<(), Unsupported> {
        let func = self.func;
        let first = self.row.as_ref().map(|r| r.i).ok_or("no row loop")?;
        let bail = self.b.create_block();
        self.b.append_block_param(bail, types::I32);
        self.b.set_cold_block(bail);
        {
            let vs = self.vs();
            vs.first = first;
            vs.bail = bail;
            vs.fail = fail;
            vs.edges.clear();
        }
        for &kb in order {
            let cb = self.blocks[&kb];
            self.b.switch_to_block(cb);
            self.fold_const_params(kb);
            self.vs().memo.clear();
            self.vs().effect = before.get(&kb).copied().unwrap_or(true);
            for &inst in func.layout.insts(kb) {
                if self.vs().hoisted.contains(&inst) {
                    continue;
                }
                let effect = self.vs().effect;
                self.fail = if effect { fail } else { bail };
                self.vinst(inst)?;
                if has_effect(func, func.dfg.inst(inst)) {
                    self.vs().effect = true;
                }
            }
        }
        self.fail = fail;
        self.b.switch_to_block(bail);
        let ctx = self.ctx();
        self.b
            .ins()
            .store(MemFlagsData::trusted(), first, ctx, super::rt::OFF_RESOLVED);
        let code = self.b.ins().iconst(types::I32, i64::from(BAIL));
        self.b.ins().return_(&[code]);
        Ok(())
    }

    /// The Cranelift lanes of value `v` for work-item `j` of the iteration.
    fn lane(&mut self, v: Value, j: usize) -> Result<Vec<ClValue>, Unsupported> {
        match self.shape(v) {
            Shape::Uniform | Shape::Unknown => self.get(v),
            Shape::Varying => {
                if let Some(l) = self.vs().varying.get(&v).and_then(|l| l.get(j)) {
                    return Ok(l.clone());
                }
                if let Some(l) = self.vs().memo.get(&(v, j)) {
                    return Ok(l.clone());
                }
                let simd = self
                    .vs()
                    .simd
                    .get(&v)
                    .cloned()
                    .ok_or_else(|| format!("{v} used before its definition"))?;
                let l: Vec<ClValue> = simd.iter().map(|&x| self.simd_lane(v, x, j)).collect();
                self.vs().memo.insert((v, j), l.clone());
                Ok(l)
            }
            Shape::Affine(_) => {
                if j == 0 {
                    let a = self.vs().affine.get(&v).map(|a| a.base);
                    return a.map(|x| vec![x]).ok_or_else(|| format!("{v} undefined"));
                }
                if let Some(l) = self.vs().memo.get(&(v, j)) {
                    return Ok(l.clone());
                }
                let ValueDef::Result(inst) = self.func.dfg.value_def(v) else {
                    return Err(format!("affine {v} is not an instruction result"));
                };
                let l = self.replay(inst, j)?.ok_or("affine value without result")?;
                self.vs().memo.insert((v, j), l.clone());
                Ok(l)
            }
        }
    }

    /// The vector form of `f32`, `i32` or `bool` value `v` (one per kir lane; see `simd_int`).
    fn simd_of(&mut self, v: Value) -> Result<Vec<ClValue>, Unsupported> {
        if let Some(x) = self.vs().simd.get(&v) {
            return Ok(x.clone());
        }
        if let Some(x) = self.vs().memo.get(&(v, SIMD_KEY)) {
            return Ok(x.clone());
        }
        if let Some(x) = self.vs().splats.get(&v) {
            return Ok(x.clone());
        }
        let out: Vec<ClValue> = if let Some(x) = self.packed_f32(v) {
            x
        } else if self.shape(v) == Shape::Uniform {
            let l = self.get(v)?;
            l.iter()
                .map(|&x| self.simd_pack(v, &[x]))
                .collect::<Result<_, _>>()?
        } else {
            let per: Vec<Vec<ClValue>> = (0..WIDTH)
                .map(|j| self.lane(v, j))
                .collect::<Result<_, _>>()?;
            (0..per[0].len())
                .map(|k| {
                    let lanes: Vec<ClValue> = per.iter().map(|l| l[k]).collect();
                    self.simd_pack(v, &lanes)
                })
                .collect::<Result<_, _>>()?
        };
        self.vs().memo.insert((v, SIMD_KEY), out.clone());
        Ok(out)
    }

    /// `inst` on `f32x4` values when it is exact there (IEEE add, subtract, multiply,
    /// divide, square root, negation, absolute value: the same bits as the scalar translation
    /// per lane); returns whether it was translated so.
    fn simd_inst(&mut self, inst: kir::Inst) -> Result<bool, Unsupported> {
        let func = self.func;
        let Some(r) = func.dfg.inst_result(inst) else {
            return Ok(false);
        };
        if !is_f32(self.ty(r)) {
            return Ok(false);
        }
        let data = func.dfg.inst(inst);
        let ops = data.operands();
        if ops.iter().any(|&a| self.ty(a) != self.ty(r)) {
            return Ok(false);
        }
        enum Op {
            Bin(BinaryOp),
            Neg,
            Sqrt,
            Abs,
        }
        let op = match data {
            InstData::Binary { op, .. }
                if matches!(
                    op,
                    BinaryOp::FAdd | BinaryOp::FSub | BinaryOp::FMul | BinaryOp::FDiv
                ) =>
            {
                Op::Bin(*op)
            }
            InstData::Unary {
                op: kir::UnaryOp::FNeg,
                ..
            } => Op::Neg,
            InstData::Builtin {
                func: BuiltinFn::Sqrt,
                ..
            } => Op::Sqrt,
            InstData::Builtin {
                func: BuiltinFn::Fabs,
                ..
            } => Op::Abs,
            _ => return Ok(false),
        };
        let args: Vec<Vec<ClValue>> = ops
            .iter()
            .map(|&a| self.simd_of(a))
            .collect::<Result<_, _>>()?;
        let n = args[0].len();
        let mut out = Vec::new();
        for k in 0..n {
            let x = args[0][k];
            let ins = self.b.ins();
            out.push(match op {
                Op::Bin(BinaryOp::FAdd) => ins.fadd(x, args[1][k]),
                Op::Bin(BinaryOp::FSub) => ins.fsub(x, args[1][k]),
                Op::Bin(BinaryOp::FMul) => ins.fmul(x, args[1][k]),
                Op::Bin(_) => ins.fdiv(x, args[1][k]),
                Op::Neg => ins.fneg(x),
                Op::Sqrt => ins.sqrt(x),
                Op::Abs => ins.fabs(x),
            });
        }
        self.vs().simd.insert(r, out);
        Ok(true)
    }

    /// Translates `inst` for work-item `j` alone through the scalar translator; returns its
    /// result's lanes.
    fn replay(&mut self, inst: kir::Inst, j: usize) -> Result<Option<Vec<ClValue>>, Unsupported> {
        let func = self.func;
        let mut saved = Vec::new();
        for a in func.dfg.inst(inst).operands() {
            if self.shape(a) != Shape::Uniform && !saved.iter().any(|(v, _)| *v == a) {
                let l = self.lane(a, j)?;
                let old = self.vals[a.index()].replace(l);
                saved.push((a, old));
            }
        }
        let first = self.vs().first;
        let item = if j == 0 {
            first
        } else {
            self.b.ins().iadd_imm_s(first, j as i64)
        };
        if let Some(row) = self.row.as_mut() {
            row.i = item;
        }
        let r = self.inst(inst);
        if let Some(row) = self.row.as_mut() {
            row.i = first;
        }
        for (a, old) in saved.into_iter().rev() {
            self.vals[a.index()] = old;
        }
        r?;
        Ok(match func.dfg.inst_result(inst) {
            Some(res) => {
                self.ptr_offsets.remove(&res);
                self.vals[res.index()].take()
            }
            None => None,
        })
    }

    /// Replays `inst` for every work-item; returns the results' lanes per work-item.
    fn replay_all(&mut self, inst: kir::Inst) -> Result<Vec<Vec<ClValue>>, Unsupported> {
        let mut per = Vec::new();
        for j in 0..WIDTH {
            per.push(self.replay(inst, j)?.unwrap_or_default());
        }
        Ok(per)
    }

    fn vinst(&mut self, inst: kir::Inst) -> Result<(), Unsupported> {
        if self.proven_cmp(inst) || self.masked_terminator(inst)? || self.vec_idle_brif(inst)? {
            return Ok(());
        }
        let func = self.func;
        let data = func.dfg.inst(inst);
        let result = func.dfg.inst_result(inst);
        match data {
            InstData::Jump { dest } => {
                self.loop_entry(inst, dest.block);
                let (cb, args) = self.vblock_call(dest)?;
                self.b.ins().jump(cb, &args);
                return Ok(());
            }
            InstData::Brif {
                cond,
                then_dest,
                else_dest,
            } => {
                let (t, targs) = self.vblock_call(then_dest)?;
                let (e, eargs) = self.vblock_call(else_dest)?;
                if self.shape(*cond) == Shape::Uniform {
                    let c = self.get1(*cond)?;
                    match self.known_const(c) {
                        Some(0) => {
                            self.drop_edge(then_dest);
                            self.b.ins().jump(e, &eargs)
                        }
                        Some(_) => {
                            self.drop_edge(else_dest);
                            self.b.ins().jump(t, &targs)
                        }
                        None => self.b.ins().brif(c, t, &targs, e, &eargs),
                    };
                    return Ok(());
                }
                // The work-items of the iteration go one way together, or the iteration is
                // abandoned before any effect (the analysis allows nothing else).
                let mut all = self.lane(*cond, 0)?[0];
                let mut any = all;
                for j in 1..WIDTH {
                    let c = self.lane(*cond, j)?[0];
                    all = self.b.ins().band(all, c);
                    any = self.b.ins().bor(any, c);
                }
                let mixed = self.b.create_block();
                self.b.ins().brif(all, t, &targs, mixed, &[]);
                self.b.switch_to_block(mixed);
                let (bail, zero) = (self.vs().bail, self.iconst32(0));
                self.b.ins().brif(any, bail, &bargs(&[zero]), e, &eargs);
                return Ok(());
            }
            InstData::Switch {
                value,
                default,
                cases,
            } => {
                // Uniform (the analysis allows nothing else).
                return self.switch(*value, cases, default, Self::vblock_call);
            }
            InstData::Return { .. } => {
                let latch = self.row.as_ref().map(|r| r.latch).ok_or("no row loop")?;
                self.b.ins().jump(latch, &[]);
                return Ok(());
            }
            _ => {}
        }
        let shape = match result {
            Some(r) => self.shape(r),
            None => {
                let all_uniform = data
                    .operands()
                    .iter()
                    .all(|&a| self.shape(a) == Shape::Uniform);
                if all_uniform && !matches!(data, InstData::Call { .. }) {
                    Shape::Uniform
                } else {
                    Shape::Varying
                }
            }
        };
        match shape {
            Shape::Uniform | Shape::Unknown => {
                if self.uniform_proven_load(inst)? {
                    return Ok(());
                }
                let first = self.vs().first;
                if let Some(row) = self.row.as_mut() {
                    row.i = first;
                }
                self.inst(inst)
            }
            Shape::Affine(_) => {
                let r = result.ok_or("affine without result")?;
                let base = match self.identity_clamp(inst)? {
                    Some(base) => base,
                    None => self.replay(inst, 0)?.ok_or("affine without result")?[0],
                };
                let guards = self.affine_guards(inst)?;
                self.vs().affine.insert(r, Affine { base, guards });
                Ok(())
            }
            Shape::Varying => {
                if self.simd_inst(inst)?
                    || self.simd_int_inst(inst)?
                    || self.simd_math_inst(inst)?
                    || self.packed_extract(inst)?
                {
                    return Ok(());
                }
                if let Some(done) = self.contiguous(inst)? {
                    if let (Some(r), Some(per)) = (result, done) {
                        self.vs().varying.insert(r, per);
                        self.pack_varying_f32(r)?;
                    }
                    return Ok(());
                }
                if has_effect(func, data) {
                    // Work-item 0's effect may have happened when work-item 1's fails.
                    self.fail = self.vs().fail;
                }
                let per = self.replay_all(inst)?;
                if let Some(r) = result {
                    self.vs().varying.insert(r, per);
                    self.pack_varying_f32(r)?;
                }
                Ok(())
            }
        }
    }

    /// The guards of an affine result: its affine operands' guards, and for a widening
    /// conversion (or a `PtrAdd` of a narrower offset) of an affine operand, that its narrow
    /// lanes do not wrap.
    fn affine_guards(&mut self, inst: kir::Inst) -> Result<Vec<ClValue>, Unsupported> {
        let func = self.func;
        let data = func.dfg.inst(inst);
        let mut guards = Vec::new();
        for a in data.operands() {
            if let Some(af) = self.vs().affine.get(&a) {
                guards.extend(af.guards.iter().copied());
            }
        }
        if let InstData::Builtin {
            func: bf @ (BuiltinFn::SClamp | BuiltinFn::UClamp),
            args,
        } = data
        {
            // Every lane within [lo, hi], computed wide: clamp is then the identity.
            let signed = *bf == BuiltinFn::SClamp;
            let Shape::Affine(s) = self.shape(args[0]) else {
                return Ok(guards);
            };
            let Some(bits) = int_bits(func.dfg.value_type(args[0])) else {
                return Ok(guards);
            };
            let wide = |t: &mut Self, v: ClValue| {
                if bits == 64 {
                    v
                } else if signed {
                    t.b.ins().sextend(types::I64, v)
                } else {
                    t.b.ins().uextend(types::I64, v)
                }
            };
            let x0 = self.lane(args[0], 0)?[0];
            let lo = self.get1(args[1])?;
            let hi = self.get1(args[2])?;
            let (x0, lo, hi) = (wide(self, x0), wide(self, lo), wide(self, hi));
            let span = s
                .checked_mul(WIDTH as i64 - 1)
                .filter(|v| v.abs() < 1 << 31);
            let Some(span) = span else {
                guards.push(self.b.ins().iconst(types::I8, 0));
                return Ok(guards);
            };
            let last = self.b.ins().iadd_imm_s(x0, span);
            let (min, max) = if span >= 0 { (x0, last) } else { (last, x0) };
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
            let a = self.b.ins().icmp(ge, min, lo);
            let b = self.b.ins().icmp(le, max, hi);
            // 64-bit lanes: the last one must not have wrapped past the first.
            let ordered = self.b.ins().icmp(ge, max, min);
            let ok = self.b.ins().band(a, b);
            guards.push(self.b.ins().band(ok, ordered));
            return Ok(guards);
        }
        let (arg, signed) = match data {
            InstData::Convert { op, arg, .. } => {
                (*arg, matches!(op, ConvertOp::SConvert | ConvertOp::SToU))
            }
            // The scalar translation sign-extends a narrower offset.
            InstData::PtrAdd { offset, .. } => (*offset, true),
            _ => return Ok(guards),
        };
        let Shape::Affine(s) = self.shape(arg) else {
            return Ok(guards);
        };
        let Some(from) = int_bits(func.dfg.value_type(arg)) else {
            return Ok(guards);
        };
        if let InstData::Convert { .. } = data {
            let rbits = func
                .dfg
                .inst_result(inst)
                .and_then(|r| int_bits(func.dfg.value_type(r)));
            if rbits.map_or(true, |w| w <= from) {
                return Ok(guards);
            }
        }
        if from >= 64 {
            return Ok(guards);
        }
        // Lane W−1 = lane 0 + (W−1)·s computed wide must fit the narrow type.
        let x = self.lane(arg, 0)?[0];
        let wide = if signed {
            self.b.ins().sextend(types::I64, x)
        } else {
            self.b.ins().uextend(types::I64, x)
        };
        let Some(span) = s.checked_mul(WIDTH as i64 - 1) else {
            let no = self.b.ins().iconst(types::I8, 0);
            guards.push(no);
            return Ok(guards);
        };
        if let Some(fits) = self.widening_fits(x, from, signed, span) {
            guards.push(fits);
            return Ok(guards);
        }
        let last = self.b.ins().iadd_imm_s(wide, span);
        let narrow_ty = lanes_of(func.dfg.value_type(arg))?[0].0;
        let back = self.b.ins().ireduce(narrow_ty, last);
        let again = if signed {
            self.b.ins().sextend(types::I64, back)
        } else {
            self.b.ins().uextend(types::I64, back)
        };
        guards.push(self.b.ins().icmp(IntCC::Equal, again, last));
        Ok(guards)
    }

    /// A load or store through an affine pointer whose stride is the access size: one bounds
    /// check for the iteration's contiguous range, the work-item-by-work-item replay when it
    /// fails. `None` when `inst` is not such an access; otherwise the load's lanes.
    #[allow(clippy::type_complexity)]
    fn contiguous(
        &mut self,
        inst: kir::Inst,
    ) -> Result<Option<Option<Vec<Vec<ClValue>>>>, Unsupported> {
        if let Some(done) = self.contiguous_proven(inst)? {
            return Ok(Some(done));
        }
        let func = self.func;
        let (ptr, value, write) = match func.dfg.inst(inst) {
            InstData::Load { ptr, .. } => (*ptr, None, false),
            InstData::Store { ptr, value, .. } => (*ptr, Some(*value), true),
            _ => return Ok(None),
        };
        let Shape::Affine(stride) = self.shape(ptr) else {
            return Ok(None);
        };
        let ty = match (value, func.dfg.inst_result(inst)) {
            (Some(v), _) => self.ty(v),
            (None, Some(r)) => self.ty(r),
            _ => return Ok(None),
        };
        let lanes = lanes_of(ty)?;
        if lanes
            .iter()
            .any(|&(_, s)| s.is_none() || s == Some(kir::ScalarType::Bool))
        {
            return Ok(None);
        }
        let widths: Vec<u32> = lanes.iter().map(|&(cl, s)| self.mem_width(cl, s)).collect();
        let size = i64::from(widths.iter().sum::<u32>());
        let Some(root) = self.root_entry(ptr) else {
            return Ok(None);
        };
        if stride != size {
            return Ok(None);
        }
        let af = self
            .vs()
            .affine
            .get(&ptr)
            .cloned()
            .ok_or("affine pointer undefined")?;
        let ranged = self.vs().ranged.contains(&inst);
        // Proven for a whole counted loop (`loop_proof`): a direct address.
        let proven = if ranged {
            None
        } else {
            self.loop_contiguous(inst, ptr, size, write)
        };
        let (base, off, mut ok) = match proven {
            Some((ok, addr)) => {
                // (No flag: checked at the loop's entry.)
                let ok = ok.unwrap_or_else(|| self.b.ins().iconst(types::I8, 1));
                (addr, self.b.ins().iconst(types::I64, 0), ok)
            }
            None => {
                let off = self.masked_offset(af.base);
                let end = self.b.ins().iadd_imm_s(off, size * WIDTH as i64);
                let len = if write { root.write_len } else { root.read_len };
                let ok = self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, end, len);
                (root.base, off, ok)
            }
        };
        if ranged {
            // In bounds with its guards for the whole row (`range_proof`).
            ok = self.b.ins().iconst(types::I8, 1);
        } else if proven.is_none() {
            // (A loop proof covers the guards for the whole loop.)
            for g in af.guards {
                ok = self.b.ins().band(ok, g);
            }
        }
        let fast = self.b.create_block();
        let slow = self.b.create_block();
        self.b.set_cold_block(slow);
        let join = self.b.create_block();
        if lanes.len() == 1 && lanes[0].0 == types::F32 {
            return self.contiguous_f32x4(inst, value, ok, base, off, [fast, slow, join]);
        }
        let mut results = Vec::new();
        if !write {
            for _ in 0..WIDTH {
                for &(cl, _) in &lanes {
                    results.push(self.b.append_block_param(join, cl));
                }
            }
        }
        // Values to store, computed before the branch (both paths use them).
        let mut stored = Vec::new();
        if let Some(v) = value {
            for j in 0..WIDTH {
                stored.push(self.lane(v, j)?);
            }
        }
        self.b.ins().brif(ok, fast, &[], slow, &[]);
        self.b.switch_to_block(fast);
        let addr = self.b.ins().iadd(base, off);
        let flags = MemFlagsData::new().with_notrap();
        let mut loaded = Vec::new();
        let mut at = 0i32;
        for j in 0..WIDTH {
            for (k, &(cl, _)) in lanes.iter().enumerate() {
                if write {
                    self.b.ins().store(flags, stored[j][k], addr, at);
                } else {
                    loaded.push(self.b.ins().load(cl, flags, addr, at));
                }
                at += widths[k] as i32;
            }
        }
        self.b.ins().jump(join, &bargs(&loaded));
        self.b.switch_to_block(slow);
        if !self.vs().effect {
            let (bail, zero) = (self.vs().bail, self.iconst32(0));
            self.b.ins().jump(bail, &bargs(&[zero]));
            self.b.switch_to_block(join);
            let per = results.chunks(lanes.len()).map(|c| c.to_vec()).collect();
            return Ok(Some((!write).then_some(per)));
        }
        // Lanes computed here must not serve later (hot) code.
        let memo = std::mem::take(&mut self.vs().memo);
        let per = self.replay_all(inst)?;
        self.vs().memo = memo;
        let flat: Vec<ClValue> = per.into_iter().flatten().collect();
        self.b.ins().jump(join, &bargs(&flat));
        self.b.switch_to_block(join);
        if write {
            return Ok(Some(None));
        }
        let per = results.chunks(lanes.len()).map(|c| c.to_vec()).collect();
        Ok(Some(Some(per)))
    }

    /// `contiguous` for one `f32` per work-item: one `f32x4` load or store.
    #[allow(clippy::too_many_arguments, clippy::type_complexity)]
    fn contiguous_f32x4(
        &mut self,
        inst: kir::Inst,
        value: Option<Value>,
        ok: ClValue,
        base: ClValue,
        off: ClValue,
        [fast, slow, join]: [cranelift_codegen::ir::Block; 3],
    ) -> Result<Option<Option<Vec<Vec<ClValue>>>>, Unsupported> {
        let stored = match value {
            Some(v) => Some(self.simd_of(v)?[0]),
            None => None,
        };
        let loaded = match value {
            None => Some(self.b.append_block_param(join, types::F32X4)),
            Some(_) => None,
        };
        self.b.ins().brif(ok, fast, &[], slow, &[]);
        self.b.switch_to_block(fast);
        let addr = self.b.ins().iadd(base, off);
        let flags = MemFlagsData::new().with_notrap();
        let mut args = Vec::new();
        match stored {
            Some(x) => {
                self.b.ins().store(flags, x, addr, 0);
            }
            None => args.push(self.b.ins().load(types::F32X4, flags, addr, 0)),
        }
        self.b.ins().jump(join, &bargs(&args));
        self.b.switch_to_block(slow);
        if !self.vs().effect {
            let (bail, zero) = (self.vs().bail, self.iconst32(0));
            self.b.ins().jump(bail, &bargs(&[zero]));
            self.b.switch_to_block(join);
            if let (Some(x), Some(r)) = (loaded, self.func.dfg.inst_result(inst)) {
                self.vs().simd.insert(r, vec![x]);
            }
            return Ok(Some(None));
        }
        let memo = std::mem::take(&mut self.vs().memo);
        let per = self.replay_all(inst)?;
        self.vs().memo = memo;
        let mut args = Vec::new();
        if loaded.is_some() {
            let mut x = self.b.ins().scalar_to_vector(types::F32X4, per[0][0]);
            for (j, l) in per.iter().enumerate().skip(1) {
                x = self.b.ins().insertlane(x, l[0], j as u8);
            }
            args.push(x);
        }
        self.b.ins().jump(join, &bargs(&args));
        self.b.switch_to_block(join);
        if let (Some(x), Some(r)) = (loaded, self.func.dfg.inst_result(inst)) {
            self.vs().simd.insert(r, vec![x]);
        }
        Ok(Some(None))
    }

    /// The target block and arguments of a branch: uniform parameters get the scalar lanes,
    /// varying ones every work-item's lanes.
    fn vblock_call(
        &mut self,
        dest: &kir::BlockCall,
    ) -> Result<
        (
            cranelift_codegen::ir::Block,
            Vec<cranelift_codegen::ir::BlockArg>,
        ),
        Unsupported,
    > {
        self.note_edge(dest);
        let cb = *self
            .blocks
            .get(&dest.block)
            .ok_or_else(|| format!("branch to unreachable {}", dest.block))?;
        let params = self.func.dfg.block_params(dest.block).to_vec();
        let mut args = Vec::new();
        for (&p, &a) in params.iter().zip(&dest.args) {
            if let Some(zeros) = self.dead_param_args(p) {
                args.extend(zeros);
            } else if self.shape(p) == Shape::Uniform {
                args.extend(self.get(a)?);
            } else if self.simd_param(p) {
                args.extend(self.simd_of(a)?);
            } else {
                for j in 0..WIDTH {
                    args.extend(self.lane(a, j)?);
                }
            }
        }
        args.extend(self.entry_mask(dest.block));
        Ok((cb, bargs(&args)))
    }
}
