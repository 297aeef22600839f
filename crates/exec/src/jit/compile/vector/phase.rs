//! The vectorised phase loop: a kernel split at its barriers (`compile::phase`) compiled to run
//! `WIDTH` consecutive work-items of a row per iteration of each phase, with the technique of
//! the vectorised row loop (`vector`): uniform / affine / varying shapes, `f32x4` arithmetic,
//! contiguous accesses checked once per iteration.
//!
//! `kir_phase_vec(ctx, n, resume, start, stop0) -> status` runs the iterations of work-items
//! `start..n` (`start` and `n` multiples of `WIDTH`) of the row whose x = 0 ids the context
//! holds, from the kernel's start (`resume` 0) or from after the barrier of site `resume - 1`,
//! to the next barrier or the end. `stop0` is the stop of the row's work-item 0 when `start` >
//! 0. The status and `ItemCtx::diverged_at`/`diverged_stop` are those of the scalar phase
//! loop: the work-items of an iteration stop at the same place (control flow is the same for
//! all of them, or the iteration is abandoned), so the first of them is the first to differ.
//!
//! Values live across barriers keep the scalar phase loop's spill layout (every work-item's own
//! words), so an iteration can run on either loop in each phase. Their shape is what the
//! analysis gives: uniform values are reloaded from the iteration's first work-item, varying
//! ones per work-item (an `f32x4` for `f32`), affine ones per work-item with a guard that the
//! reloaded lanes still follow the affine form. A block parameter that work-items could set
//! differently at a join of a varying branch is varying (the scalar loop may have run that
//! iteration, work-item by work-item).
//!
//! An iteration whose work-items disagree at a branch, or whose access fails before any
//! effect in the phase, is abandoned with status `PHASE_BAIL` (`ItemCtx::resolved`: the
//! iteration's first work-item in the low 32 bits, the row's stop so far in the high ones);
//! the group driver runs it on the scalar phase loop, which reports errors exactly.

use std::collections::{HashMap, HashSet};

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, InstBuilder, MemFlagsData};
use cranelift_frontend::Variable;
use kir::{ConvertOp, Function, InstData, Value, ValueDef};

use super::super::{bargs, lanes_of, rpo, ClValue, RowLoop, Translator, Unsupported};
use super::{
    allowed, has_effect, is_f32, join, result_shape, Affine, Analysis, Shape, VecState, SIMD_KEY,
    WIDTH,
};
use crate::jit::barrier::is_group_barrier;
use crate::jit::rt::{self, SiteKind};

/// Status of an abandoned iteration of the vectorised phase loop (distinct from every stop).
pub const PHASE_BAIL: i32 = i32::MIN;

/// The variables of a non-uniform value live across a barrier (Cranelift builds the SSA form
/// where resumes and the kernel's own paths meet).
#[derive(Clone)]
pub(in crate::jit::compile) struct KeptVars {
    /// Per work-item of the iteration, a variable per kir lane (`f32`: one `f32x4` variable
    /// per kir lane, in `lanes[0]`).
    lanes: Vec<Vec<Variable>>,
    /// Affine values: whether the lanes follow the affine form (`i8`).
    guard: Option<Variable>,
}

/// State of the vectorised phase loop beyond the phase loop's own.
pub(in crate::jit::compile) struct VecPhase {
    kept: HashMap<Value, KeptVars>,
    /// The latch taking the iteration's stop.
    latch: cranelift_codegen::ir::Block,
    /// The row's stop so far (the stop of its work-item 0 once known).
    row_stop: ClValue,
    /// Per block: the values with variables its code (up to a barrier) reads.
    needed: HashMap<kir::Block, Vec<Value>>,
}

/// Whether the kernel (and every function it calls) allows the vectorised phase loop.
pub(in crate::jit::compile) fn phase_callees_allowed(
    module: &kir::Module,
    funcs: &[usize],
) -> bool {
    funcs.iter().all(|&f| {
        let func = &module.functions[f];
        func.layout
            .blocks
            .iter()
            .flat_map(|&b| func.layout.insts(b))
            .all(|&i| {
                let d = func.dfg.inst(i);
                allowed(d) || is_group_barrier(d)
            })
    })
}

/// Per block: whether an instruction with an effect may have run before the block in the
/// same phase of the iteration (a barrier starts a phase).
pub(super) fn phase_effects_before(
    func: &Function,
    order: &[kir::Block],
) -> HashMap<kir::Block, bool> {
    let mut before: HashMap<kir::Block, bool> = order.iter().map(|&b| (b, false)).collect();
    loop {
        let mut changed = false;
        for &kb in order {
            let mut effect = before[&kb];
            for &inst in func.layout.insts(kb) {
                let data = func.dfg.inst(inst);
                if is_group_barrier(data) {
                    effect = false;
                    continue;
                }
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

fn has_barrier(func: &Function, b: kir::Block) -> bool {
    func.layout
        .insts(b)
        .iter()
        .any(|&i| is_group_barrier(func.dfg.inst(i)))
}

fn succs(func: &Function, b: kir::Block) -> Vec<kir::Block> {
    func.layout
        .insts(b)
        .iter()
        .flat_map(|&i| func.dfg.inst(i).branch_targets())
        .map(|d| d.block)
        .collect()
}

/// The blocks on a cycle within one phase (a cycle through a barrier is two phases).
fn blocks_in_phase_cycles(func: &Function, order: &[kir::Block]) -> Vec<kir::Block> {
    let mut out = Vec::new();
    for &b in order {
        if has_barrier(func, b) {
            continue;
        }
        let mut seen = vec![b];
        let mut stack = succs(func, b);
        while let Some(x) = stack.pop() {
            if x == b {
                out.push(b);
                break;
            }
            if !seen.contains(&x) && !has_barrier(func, x) {
                seen.push(x);
                stack.extend(succs(func, x));
            }
        }
    }
    out
}

/// The shapes of the kernel function's values with the parameters of `forced` blocks
/// varying.
fn phase_shapes(
    func: &Function,
    order: &[kir::Block],
    forced: &HashSet<kir::Block>,
) -> Result<Vec<super::Shape>, Unsupported> {
    let entry = func.entry_block().ok_or("function without a body")?;
    let mut shapes = vec![Shape::Unknown; func.dfg.num_values()];
    for &p in func.dfg.block_params(entry) {
        shapes[p.index()] = Shape::Uniform;
    }
    for &b in forced {
        for &p in func.dfg.block_params(b) {
            shapes[p.index()] = Shape::Varying;
        }
    }
    for round in 0.. {
        if round > 64 {
            return Err("shape analysis did not settle".into());
        }
        let mut changed = false;
        for &kb in order {
            for &inst in func.layout.insts(kb) {
                let data = func.dfg.inst(inst);
                if !allowed(data) && !is_group_barrier(data) {
                    return Err(format!("{} is not vectorised", data.opcode_name()));
                }
                let shape_at = |shapes: &[Shape], v: Value| match shapes[v.index()] {
                    Shape::Unknown => Shape::Uniform,
                    s => s,
                };
                for dest in data.branch_targets() {
                    for (&p, &a) in func.dfg.block_params(dest.block).iter().zip(&dest.args) {
                        let s = match shape_at(&shapes, a) {
                            Shape::Uniform => Shape::Uniform,
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
                let new = join(shapes[r.index()], result_shape(func, data, r, &shape_of));
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

/// The shape of every value of the kernel function `func` for the vectorised phase loop, or
/// why it cannot be vectorised.
pub(in crate::jit::compile) fn analyse_phase(
    func: &Function,
    order: &[kir::Block],
) -> Result<Analysis, Unsupported> {
    let before = phase_effects_before(func, order);
    let cyclic = blocks_in_phase_cycles(func, order);
    let mut forced: HashSet<kir::Block> = HashSet::new();
    for _ in 0..16 {
        let shapes = phase_shapes(func, order, &forced)?;
        // Control flow must be the same for every work-item of an iteration, except at a
        // two-way branch outside the phase's loops reached before any effect of the phase.
        let mut region: HashSet<kir::Block> = HashSet::new();
        for &kb in order {
            let mut effect = before.get(&kb).copied().unwrap_or(true);
            for &inst in func.layout.insts(kb) {
                let data = func.dfg.inst(inst);
                if is_group_barrier(data) {
                    effect = false;
                    continue;
                }
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
                if !two_way || (effect && !super::scalar_phases::enabled()) {
                    return Err("a branch depends on the work-item".into());
                }
                // Where the work-items may have gone different ways (in an iteration the
                // scalar loop ran), up to the next barrier (after a loop: `lane_exit`).
                let mut stack: Vec<kir::Block> = match cyclic.contains(&kb) {
                    true => super::lane_exit::exit_roots(
                        func,
                        kb,
                        &shapes,
                        &|b| succs(func, b),
                        &|b| has_barrier(func, b),
                    )?,
                    false => succs(func, kb),
                };
                while let Some(x) = stack.pop() {
                    if region.insert(x) && !has_barrier(func, x) {
                        stack.extend(succs(func, x));
                    }
                }
            }
        }
        let mut grew = false;
        for b in region {
            if !func.dfg.block_params(b).is_empty() && forced.insert(b) {
                grew = true;
            }
        }
        if !grew {
            // Phase loops do not mask loops (a varying branch abandons the iteration).
            return Ok(Analysis {
                shapes,
                effects_before: before,
                loops: Vec::new(),
            });
        }
    }
    Err("shape analysis did not settle".into())
}

impl Translator<'_, '_> {
    fn vphase(&mut self) -> Result<&mut VecPhase, Unsupported> {
        self.phase
            .as_mut()
            .and_then(|p| p.vec.as_deref_mut())
            .ok_or_else(|| "no vectorised phase loop".to_string())
    }

    /// Translates the kernel function as the vectorised phase loop (see the module doc).
    pub(in crate::jit::compile) fn translate_vec_phase(
        &mut self,
        analysis: Analysis,
    ) -> Result<(), Unsupported> {
        let Analysis {
            shapes,
            effects_before: before,
            loops: _,
        } = analysis;
        let func = self.func;
        let entry = func.entry_block().ok_or("function without a body")?;
        let order = rpo(func, entry);
        let masked = super::masked::MaskState::new(func, Vec::new());
        self.vec = Some(VecState::new(shapes, masked, Default::default()));
        for &kb in &order {
            let cb = self.b.create_block();
            self.blocks.insert(kb, cb);
        }
        self.roots = self.pointer_roots(entry, &order);
        let start = self.b.create_block();
        self.b.append_block_params_for_function_params(start);
        let fail = self.b.create_block();
        let status = self.b.append_block_param(fail, types::I32);
        self.fail = fail;
        self.prepare_resumable(&order)?;
        let remats = self.take_block_remats(&order);
        // Non-uniform values live across barriers get variables per work-item.
        let mut kept = HashMap::new();
        let nvals = func.dfg.num_values();
        for i in 0..nvals {
            let v = Value::new(i);
            let has_vars = self
                .resumable
                .as_ref()
                .and_then(|r| r.vars.get(i))
                .is_some_and(|x| !x.is_empty());
            if !has_vars || self.vshape(v) == Shape::Uniform {
                continue;
            }
            if let Some(r) = self.resumable.as_mut() {
                r.vars[i] = Vec::new();
            }
            let lanes = lanes_of(self.ty(v))?;
            let kv = if is_f32(self.ty(v)) {
                KeptVars {
                    lanes: vec![lanes
                        .iter()
                        .map(|_| self.b.declare_var(types::F32X4))
                        .collect()],
                    guard: None,
                }
            } else {
                let per = (0..WIDTH)
                    .map(|_| {
                        lanes
                            .iter()
                            .map(|&(cl, _)| self.b.declare_var(cl))
                            .collect()
                    })
                    .collect();
                let guard = matches!(self.vshape(v), Shape::Affine(_))
                    .then(|| self.b.declare_var(types::I8));
                KeptVars { lanes: per, guard }
            };
            kept.insert(v, kv);
        }
        let needed = needed_kept(func, &order, &kept, |v| self.vshape(v));
        for &kb in &order {
            let cb = self.blocks[&kb];
            for &p in func.dfg.block_params(kb) {
                let lanes_ty = lanes_of(self.ty(p))?;
                if kb == entry || self.vshape(p) == Shape::Uniform {
                    let lanes = lanes_ty
                        .iter()
                        .map(|&(cl, _)| self.b.append_block_param(cb, cl))
                        .collect();
                    self.vals[p.index()] = Some(lanes);
                } else if is_f32(self.ty(p)) {
                    let lanes = lanes_ty
                        .iter()
                        .map(|_| self.b.append_block_param(cb, types::F32X4))
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
        }
        let dispatch = self.b.create_block();
        self.vec_phase_head(start, entry, dispatch, kept, needed)?;
        let first = self.row.as_ref().map(|r| r.i).ok_or("no row loop")?;
        let row_stop = self.vphase()?.row_stop;
        let bail = self.b.create_block();
        self.b.append_block_param(bail, types::I32);
        self.b.set_cold_block(bail);
        {
            let vs = self.vs();
            vs.first = first;
            vs.bail = bail;
            vs.fail = fail;
        }
        for &kb in &order {
            let cb = self.blocks[&kb];
            self.b.switch_to_block(cb);
            self.vs().memo.clear();
            for &p in func.dfg.block_params(kb) {
                if self.vshape(p) == Shape::Uniform || kb == entry {
                    let lanes = self.vals[p.index()].clone().unwrap_or_default();
                    self.define(p, lanes);
                } else {
                    self.def_kept(p)?;
                }
            }
            self.block_remat(&remats, kb)?;
            let needed = self.vphase()?.needed.get(&kb).cloned().unwrap_or_default();
            for v in needed {
                self.refresh_kept(v)?;
            }
            let mut effect = before.get(&kb).copied().unwrap_or(true);
            for &inst in func.layout.insts(kb) {
                let data = func.dfg.inst(inst);
                if is_group_barrier(data) {
                    self.fail = fail;
                    self.vec_phase_barrier(inst)?;
                    effect = false;
                    continue;
                }
                self.vs().effect = effect;
                self.fail = if effect { fail } else { bail };
                self.vinst(inst)?;
                if let Some(r) = func.dfg.inst_result(inst) {
                    self.def_kept(r)?;
                }
                if has_effect(func, data) {
                    effect = true;
                }
            }
        }
        self.fail = fail;
        // dispatch: the resume blocks.
        self.b.switch_to_block(dispatch);
        let resumes = self
            .resumable
            .as_ref()
            .map(|r| r.resumes.clone())
            .unwrap_or_default();
        let resume = self.phase.as_ref().map(|p| p.resume).ok_or("no phase")?;
        let bad = self.b.create_block();
        self.phase_dispatch(resume, &resumes, bad);
        self.b.switch_to_block(bad);
        let one = self.b.ins().iconst(types::I32, 1);
        self.b.ins().jump(fail, &bargs(&[one]));
        self.b.switch_to_block(fail);
        self.b.ins().return_(&[status]);
        // bail: the iteration's first work-item and the row's stop so far.
        self.b.switch_to_block(bail);
        let ctx = self.ctx();
        let stop = self.b.ins().uextend(types::I64, row_stop);
        let high = self.b.ins().ishl_imm_u(stop, 32);
        let at = self.b.ins().bor(high, first);
        self.b
            .ins()
            .store(MemFlagsData::trusted(), at, ctx, rt::OFF_RESOLVED);
        let code = self.b.ins().iconst(types::I32, i64::from(PHASE_BAIL));
        self.b.ins().return_(&[code]);
        Ok(())
    }

    fn vshape(&self, v: Value) -> Shape {
        match self.vec.as_ref().map(|s| s.shapes[v.index()]) {
            Some(Shape::Unknown) | None => Shape::Uniform,
            Some(s) => s,
        }
    }

    /// The loop around the kernel body, `WIDTH` work-items per iteration (see
    /// `phase_loop_head` for the scalar one).
    fn vec_phase_head(
        &mut self,
        start: cranelift_codegen::ir::Block,
        entry: kir::Block,
        dispatch: cranelift_codegen::ir::Block,
        kept: HashMap<Value, KeptVars>,
        needed: HashMap<kir::Block, Vec<Value>>,
    ) -> Result<(), Unsupported> {
        self.b.switch_to_block(start);
        let sp: Vec<ClValue> = self.b.block_params(start).to_vec();
        let (ctx, n, resume, from, stop0) = (sp[0], sp[1], sp[2], sp[3], sp[4]);
        self.ctx = ctx;
        let (args, base) = self.row_start(ctx)?;
        self.delegate_scalar_phases((ctx, n, resume), (from, stop0))?;
        self.step_guard(&args, from, stop0)?;
        let fl = MemFlagsData::trusted();
        let spill = self.b.ins().load(types::I64, fl, ctx, rt::OFF_SPILL);
        self.read_root_entries(&args)?;
        self.read_row_slots();
        let words = self.spill_words_per_item()?;
        self.declare_idle_flag();
        self.clear_idle_flag();
        let head = self.b.create_block();
        let i = self.b.append_block_param(head, types::I64);
        let first = self.b.append_block_param(head, types::I32);
        self.b.ins().jump(head, &bargs(&[from, stop0]));
        self.b.switch_to_block(head);
        let end = self.b.ins().iadd_imm_s(i, WIDTH as i64);
        let more = self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, end, n);
        let body = self.b.create_block();
        let done = self.b.create_block();
        self.b.ins().brif(more, body, &[], done, &[]);
        self.b.switch_to_block(done);
        self.b.ins().return_(&[first]);
        self.b.switch_to_block(body);
        self.clear_idle_flag();
        let cb = self.blocks[&entry];
        self.phase_enter(resume, dispatch, cb, &args);
        // latch(stop): as the scalar phase loop's, per iteration.
        let latch = self.phase_latch(ctx, i, first, WIDTH as i64, head);
        // `return` (the vectorised translation jumps to the row latch without a stop).
        let returned = self.b.create_block();
        self.b.switch_to_block(returned);
        let zero = self.b.ins().iconst(types::I32, 0);
        self.b.ins().jump(latch, &bargs(&[zero]));
        self.row = Some(RowLoop {
            i,
            base,
            latch: returned,
        });
        let phase = self.phase.as_mut().ok_or("no phase loop")?;
        phase.resume = resume;
        phase.spill = spill;
        phase.params = args;
        phase.words = words;
        phase.vec = Some(Box::new(VecPhase {
            kept,
            latch,
            row_stop: first,
            needed,
        }));
        Ok(())
    }

    /// Defines the variables of `v` (when it has some) from its translated lanes.
    pub(super) fn def_kept(&mut self, v: Value) -> Result<(), Unsupported> {
        let Some(kv) = self.vphase()?.kept.get(&v).cloned() else {
            return Ok(());
        };
        if is_f32(self.ty(v)) {
            let x = self.simd_of(v)?;
            for (&var, &x) in kv.lanes[0].iter().zip(&x) {
                self.b.def_var(var, x);
            }
            return Ok(());
        }
        for j in 0..WIDTH {
            let l = self.lane(v, j)?;
            for (&var, &x) in kv.lanes[j].iter().zip(&l) {
                self.b.def_var(var, x);
            }
        }
        if let Some(g) = kv.guard {
            let guards = self
                .vs()
                .affine
                .get(&v)
                .map(|a| a.guards.clone())
                .unwrap_or_default();
            let mut ok = self.b.ins().iconst(types::I8, 1);
            for x in guards {
                ok = self.b.ins().band(ok, x);
            }
            self.b.def_var(g, ok);
        }
        Ok(())
    }

    /// Binds `v` (with variables) to its variables' values in the current block.
    fn refresh_kept(&mut self, v: Value) -> Result<(), Unsupported> {
        let Some(kv) = self.vphase()?.kept.get(&v).cloned() else {
            return Ok(());
        };
        if is_f32(self.ty(v)) {
            let x: Vec<ClValue> = kv.lanes[0].iter().map(|&var| self.b.use_var(var)).collect();
            self.bind_simd(v, x);
            return Ok(());
        }
        let per: Vec<Vec<ClValue>> = kv
            .lanes
            .iter()
            .map(|l| l.iter().map(|&var| self.b.use_var(var)).collect())
            .collect();
        match kv.guard {
            Some(g) => {
                let ok = self.b.use_var(g);
                self.bind_affine(v, per, ok);
            }
            None => self.bind_varying(v, per),
        }
        Ok(())
    }

    fn bind_simd(&mut self, v: Value, x: Vec<ClValue>) {
        let vs = self.vs();
        vs.varying.remove(&v);
        for j in 0..WIDTH {
            vs.memo.remove(&(v, j));
        }
        vs.memo.remove(&(v, SIMD_KEY));
        vs.simd.insert(v, x);
    }

    fn bind_varying(&mut self, v: Value, per: Vec<Vec<ClValue>>) {
        let vs = self.vs();
        vs.simd.remove(&v);
        for j in 0..WIDTH {
            vs.memo.remove(&(v, j));
        }
        vs.memo.remove(&(v, SIMD_KEY));
        vs.varying.insert(v, per);
    }

    fn bind_affine(&mut self, v: Value, per: Vec<Vec<ClValue>>, ok: ClValue) {
        let vs = self.vs();
        vs.memo.remove(&(v, SIMD_KEY));
        let base = per[0][0];
        for (j, l) in per.into_iter().enumerate().skip(1) {
            vs.memo.insert((v, j), l);
        }
        vs.affine.insert(
            v,
            Affine {
                base,
                guards: vec![ok],
            },
        );
    }

    /// A barrier in the vectorised phase loop: stores the iteration's live values in its
    /// work-items' parts of the spill area (the scalar phase loop's layout) and continues
    /// with the next iteration; the resume block reloads them.
    fn vec_phase_barrier(&mut self, inst: kir::Inst) -> Result<(), Unsupported> {
        // The scalar phase loop's site (translated just before): both loops report the same
        // stops.
        let f = self.func_index;
        let site = self
            .sites
            .iter()
            .rposition(|s| s.func == f && s.inst == inst && matches!(s.kind, SiteKind::Barrier))
            .ok_or("barrier without a site of the scalar phase loop")?;
        let r = self.resumable.as_ref().ok_or("not resumable")?;
        let live = r.live.get(&inst).cloned().unwrap_or_default();
        let mut spilled: Vec<Value> = Vec::new();
        let mut params: Vec<(Variable, ClValue)> = Vec::new();
        let mut remat = Vec::new();
        let mut count = 0;
        for &v in &live {
            if let Some(chain) = self.remat_chain(v) {
                remat.push(chain);
                continue;
            }
            match self.param_lanes(v) {
                Some(lanes) => {
                    let vars = self
                        .resumable
                        .as_ref()
                        .and_then(|r| r.vars.get(v.index()).cloned())
                        .unwrap_or_default();
                    params.extend(vars.into_iter().zip(lanes));
                }
                None => {
                    spilled.push(v);
                    count += lanes_of(self.ty(v))?.len();
                }
            }
        }
        let words = self.phase.as_ref().map_or(0, |p| p.words);
        if count > words {
            return Err("phase loop: a barrier keeps more lanes than counted".into());
        }
        let fl = MemFlagsData::trusted();
        let stride = 8 * words as i32;
        // Store: work-item j's word k at area + 8 (j·words + k).
        let area = self.vec_spill_address()?;
        // Values defined in an earlier block are read through their variables.
        for &v in &spilled {
            self.refresh_kept(v)?;
        }
        let mut k = 0i32;
        for &v in &spilled {
            let ty = self.ty(v);
            let nl = lanes_of(ty)?.len();
            match self.vshape(v) {
                Shape::Uniform | Shape::Unknown => {
                    let l = self.get(v)?;
                    for (kk, &x) in l.iter().enumerate() {
                        for j in 0..WIDTH as i32 {
                            self.b
                                .ins()
                                .store(fl, x, area, j * stride + 8 * (k + kk as i32));
                        }
                    }
                }
                _ if is_f32(ty) => {
                    let x = self.simd_of(v)?;
                    for (kk, &x) in x.iter().enumerate() {
                        for j in 0..WIDTH {
                            let e = self.b.ins().extractlane(x, j as u8);
                            let at = j as i32 * stride + 8 * (k + kk as i32);
                            self.b.ins().store(fl, e, area, at);
                        }
                    }
                }
                _ => {
                    for j in 0..WIDTH {
                        let l = self.lane(v, j)?;
                        for (kk, &x) in l.iter().enumerate() {
                            let at = j as i32 * stride + 8 * (k + kk as i32);
                            self.b.ins().store(fl, x, area, at);
                        }
                    }
                }
            }
            k += nl as i32;
        }
        let stop = self.b.ins().iconst(types::I32, -(site as i64 + 1));
        let latch = self.vphase()?.latch;
        self.b.ins().jump(latch, &bargs(&[stop]));
        // Resume: reload.
        let resume = self.b.create_block();
        self.b.switch_to_block(resume);
        self.vs().memo.clear();
        let area = self.vec_spill_address()?;
        let mut k = 0i32;
        for &v in &spilled {
            let ty = self.ty(v);
            let lanes = lanes_of(ty)?;
            if let Some(chain) = self.id_conversion(v) {
                // Cheaper computed again (and without the reload's guard).
                for def in chain {
                    self.vinst(def)?;
                    if let Some(r) = self.func.dfg.inst_result(def) {
                        self.def_kept(r)?;
                    }
                }
                k += lanes.len() as i32;
                continue;
            }
            let load = |t: &mut Self, cl, j: usize, kk: usize| {
                let at = j as i32 * stride + 8 * (k + kk as i32);
                t.b.ins().load(cl, fl, area, at)
            };
            match self.vshape(v) {
                Shape::Uniform | Shape::Unknown => {
                    let l: Vec<ClValue> = lanes
                        .iter()
                        .enumerate()
                        .map(|(kk, &(cl, _))| load(self, cl, 0, kk))
                        .collect();
                    self.define(v, l);
                }
                Shape::Affine(s) => {
                    let per: Vec<Vec<ClValue>> = (0..WIDTH)
                        .map(|j| {
                            lanes
                                .iter()
                                .enumerate()
                                .map(|(kk, &(cl, _))| load(self, cl, j, kk))
                                .collect()
                        })
                        .collect();
                    // Every lane j = lane 0 + j·s (wrapping in the value's type).
                    let mut ok = self.b.ins().iconst(types::I8, 1);
                    for (j, l) in per.iter().enumerate().skip(1) {
                        let want = self.b.ins().iadd_imm_s(per[0][0], s.wrapping_mul(j as i64));
                        let eq = self.b.ins().icmp(IntCC::Equal, want, l[0]);
                        ok = self.b.ins().band(ok, eq);
                    }
                    self.bind_affine(v, per, ok);
                    self.def_kept(v)?;
                }
                _ if is_f32(ty) => {
                    let mut x = Vec::new();
                    for kk in 0..lanes.len() {
                        let e0 = load(self, types::F32, 0, kk);
                        let mut vx = self.b.ins().scalar_to_vector(types::F32X4, e0);
                        for j in 1..WIDTH {
                            let e = load(self, types::F32, j, kk);
                            vx = self.b.ins().insertlane(vx, e, j as u8);
                        }
                        x.push(vx);
                    }
                    self.bind_simd(v, x);
                    self.def_kept(v)?;
                }
                _ => {
                    let per: Vec<Vec<ClValue>> = (0..WIDTH)
                        .map(|j| {
                            lanes
                                .iter()
                                .enumerate()
                                .map(|(kk, &(cl, _))| load(self, cl, j, kk))
                                .collect()
                        })
                        .collect();
                    self.bind_varying(v, per);
                    self.def_kept(v)?;
                }
            }
            k += lanes.len() as i32;
        }
        for (var, x) in params {
            self.b.def_var(var, x);
        }
        for chain in remat {
            self.vec_remat(&chain)?;
        }
        let cont = self.b.create_block();
        self.b.ins().jump(cont, &[]);
        self.b.switch_to_block(cont);
        if let Some(r) = self.resumable.as_mut() {
            r.resumes.push((site as u32, resume));
        }
        Ok(())
    }

    /// When `v` is an integer conversion of a work-item query (`(int)get_local_id(0)`): the
    /// query's and the conversion's instructions.
    fn id_conversion(&self, v: Value) -> Option<[kir::Inst; 2]> {
        let func = self.func;
        let ValueDef::Result(conv) = func.dfg.value_def(v) else {
            return None;
        };
        let InstData::Convert {
            op: ConvertOp::UConvert | ConvertOp::SConvert,
            arg,
            saturate: false,
            ..
        } = func.dfg.inst(conv)
        else {
            return None;
        };
        let query = self.rematerialisable(*arg)?;
        matches!(func.dfg.inst(query), InstData::WorkItem { .. }).then_some([query, conv])
    }

    /// The spill words of the iteration's first work-item.
    fn vec_spill_address(&mut self) -> Result<ClValue, Unsupported> {
        let (Some(row), Some(phase)) = (&self.row, &self.phase) else {
            return Err("no phase loop".into());
        };
        let first = self
            .vec
            .as_ref()
            .map(|v| v.first)
            .ok_or("no vector state")?;
        let (base, spill, words) = (row.base[3], phase.spill, phase.words);
        let ll = self.b.ins().iadd(base, first);
        let off = self.b.ins().imul_imm_s(ll, 8 * words as i64);
        Ok(self.b.ins().iadd(spill, off))
    }
}

/// Per block: the values with variables its instructions read up to its first barrier,
/// directly or through the replay of an affine value defined elsewhere.
fn needed_kept(
    func: &Function,
    order: &[kir::Block],
    kept: &HashMap<Value, KeptVars>,
    shape: impl Fn(Value) -> Shape,
) -> HashMap<kir::Block, Vec<Value>> {
    let mut out = HashMap::new();
    for &kb in order {
        let mut defined: HashSet<Value> = func.dfg.block_params(kb).iter().copied().collect();
        let mut seen: HashSet<Value> = HashSet::new();
        let mut need = Vec::new();
        let mut stack = Vec::new();
        for &inst in func.layout.insts(kb) {
            let data = func.dfg.inst(inst);
            if is_group_barrier(data) {
                break;
            }
            for a in data.operands() {
                if !defined.contains(&a) {
                    stack.push(a);
                }
            }
            if let Some(r) = func.dfg.inst_result(inst) {
                defined.insert(r);
            }
        }
        while let Some(v) = stack.pop() {
            if !seen.insert(v) {
                continue;
            }
            if kept.contains_key(&v) {
                need.push(v);
                continue;
            }
            if matches!(shape(v), Shape::Affine(_)) {
                if let ValueDef::Result(def) = func.dfg.value_def(v) {
                    stack.extend(func.dfg.inst(def).operands());
                }
            }
        }
        need.sort_by_key(|v| v.index());
        out.insert(kb, need);
    }
    out
}
