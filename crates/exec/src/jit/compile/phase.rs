//! The phase loop: a kernel split at its barriers (see `jit::barrier`) compiled as one native
//! loop over a row of work-items per phase (the code between two barriers).
//!
//! `kir_phase(ctx, n, resume) -> status` runs work-items x = 0..n of the row whose x = 0 ids
//! the context holds (as the row loop of kernels without barriers: ids derived from the loop
//! index, parameters, region-table entries of the pointer roots and uniform query slots read
//! once per call), each from the kernel's start (`resume` 0) or from after the barrier of site
//! `resume - 1`, to its next barrier or its end. All work-items share one context. The values
//! live after barrier s (kernel parameters excepted: they are the same for every work-item and
//! are taken from the call's own loads) go to the group's spill area at `ItemCtx::spill`,
//! work-item by work-item (`spill[ll * w + k]`, ll the local linear id, w the most lanes any
//! barrier keeps: one stride for all barriers, so that a work-item storing at one barrier
//! never overwrites what a later work-item of the row has still to reload from another), so a
//! phase streams through it. Constants and work-item queries are computed again instead. The status is the stop of work-item 0 of the
//! row (0: returned, -(s + 1): waits at the barrier of site s, positive: an error, returned at
//! once); the first work-item that stopped elsewhere is recorded in
//! `ItemCtx::diverged_at`/`diverged_stop` for the group driver (`jit::phase`).

use super::*;

/// The state of the kernel function compiled as a phase loop.
pub(super) struct PhaseLoop {
    /// The resume point (0: the kernel's start, s + 1: after the barrier of site s).
    pub resume: ClValue,
    /// The group's spill area (`ItemCtx::spill`).
    pub spill: ClValue,
    /// Lanes of the kernel's parameters, loaded once per call.
    pub params: Vec<ClValue>,
    /// u64 words each work-item has in the spill area: the most any barrier keeps (one
    /// stride for every barrier, so a work-item never writes into another's words).
    pub words: usize,
    /// The vectorised phase loop's own state (see `vector::phase`).
    pub vec: Option<Box<super::vector::phase::VecPhase>>,
    /// The kernel's idle guards (see `vector::idle`).
    pub idle: super::vector::idle::IdleGuards,
    /// Set by an iteration that left the rest of the row idle (when there are idle guards).
    pub skip: Option<cranelift_frontend::Variable>,
    /// The resume point a specialised copy enters (see `phase_entry`; `None`: every one).
    pub entry: Option<super::phase_entry::PhaseEntry>,
    /// In a specialised vectorised copy: the scalar copy of the same resume point, which
    /// `vector::scalar_phases` hands rows to (the generic `kir_phase` is not compiled then).
    pub scalar_twin: Option<cranelift_module::FuncId>,
}

impl PhaseLoop {
    pub(super) fn placeholder() -> PhaseLoop {
        PhaseLoop {
            resume: ClValue::reserved_value(),
            spill: ClValue::reserved_value(),
            params: Vec::new(),
            words: 0,
            vec: None,
            idle: Default::default(),
            skip: None,
            entry: None,
            scalar_twin: None,
        }
    }
}

impl Translator<'_, '_> {
    /// The loop around the kernel body: `start(ctx, n, resume)` loads the parameters, the ids
    /// of x = 0, the region-table entries and the spill area; every iteration enters the
    /// kernel (`resume` 0) or `dispatch` (the resume blocks); the latch takes the work-item's
    /// stop, compares it with work-item 0's and continues with the next work-item.
    pub(super) fn phase_loop_head(
        &mut self,
        start: cranelift_codegen::ir::Block,
        entry: kir::Block,
        dispatch: cranelift_codegen::ir::Block,
    ) -> Result<(), Unsupported> {
        self.b.switch_to_block(start);
        let sp: Vec<ClValue> = self.b.block_params(start).to_vec();
        let (ctx, n, resume) = (sp[0], sp[1], sp[2]);
        self.ctx = ctx;
        let (args, base) = self.row_start(ctx)?;
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
        let zero = self.b.ins().iconst(types::I64, 0);
        let zero32 = self.b.ins().iconst(types::I32, 0);
        self.b.ins().jump(head, &bargs(&[zero, zero32]));
        self.b.switch_to_block(head);
        let more = self.b.ins().icmp(IntCC::UnsignedLessThan, i, n);
        let body = self.b.create_block();
        let done = self.b.create_block();
        self.b.ins().brif(more, body, &[], done, &[]);
        self.b.switch_to_block(done);
        self.b.ins().return_(&[first]);
        self.b.switch_to_block(body);
        self.clear_idle_flag();
        let cb = self.blocks[&entry];
        self.phase_enter(resume, dispatch, cb, &args);
        // latch(stop): work-item 0's stop is the row's; the first other stop is recorded.
        let latch = self.phase_latch(ctx, i, first, 1, head);
        self.row = Some(RowLoop { i, base, latch });
        let placeholder = self.phase.take();
        let (idle, skip, entry, scalar_twin) = placeholder
            .map(|p| (p.idle, p.skip, p.entry, p.scalar_twin))
            .unwrap_or_default();
        self.phase = Some(PhaseLoop {
            resume,
            spill,
            params: args,
            words,
            vec: None,
            idle,
            skip,
            entry,
            scalar_twin,
        });
        Ok(())
    }

    /// The latch of a phase loop, `latch(stop)`, for the iteration at `i` of `step` work-items:
    /// work-item 0's stop is the row's (`first` carries it), the first other stop is recorded
    /// in the context (divergence), idle rows leave (`idle_exit`), and the loop continues at
    /// `head(i + step, row stop)`.
    pub(super) fn phase_latch(
        &mut self,
        ctx: ClValue,
        i: ClValue,
        first: ClValue,
        step: i64,
        head: cranelift_codegen::ir::Block,
    ) -> cranelift_codegen::ir::Block {
        let fl = MemFlagsData::trusted();
        let latch = self.b.create_block();
        let stop = self.b.append_block_param(latch, types::I32);
        self.b.switch_to_block(latch);
        let is_first = self.b.ins().icmp_imm_s(IntCC::Equal, i, 0);
        let row_stop = self.b.ins().select(is_first, stop, first);
        let differs = self.b.ins().icmp(IntCC::NotEqual, stop, row_stop);
        let record = self.b.create_block();
        self.b.set_cold_block(record);
        let unrecorded = self.b.create_block();
        self.b.set_cold_block(unrecorded);
        let recorded = self.b.create_block();
        self.b.ins().brif(differs, record, &[], recorded, &[]);
        self.b.switch_to_block(record);
        let at = self.b.ins().load(types::I64, fl, ctx, rt::OFF_DIVERGED_AT);
        let none = self.b.ins().icmp_imm_s(IntCC::Equal, at, -1);
        self.b.ins().brif(none, unrecorded, &[], recorded, &[]);
        self.b.switch_to_block(unrecorded);
        self.b.ins().store(fl, i, ctx, rt::OFF_DIVERGED_AT);
        let stop64 = self.b.ins().sextend(types::I64, stop);
        self.b.ins().store(fl, stop64, ctx, rt::OFF_DIVERGED_STOP);
        self.b.ins().jump(recorded, &[]);
        self.b.switch_to_block(recorded);
        let next = self.b.create_block();
        self.idle_exit(i, step, row_stop, next);
        self.b.switch_to_block(next);
        let i_next = self.b.ins().iadd_imm_s(i, step);
        self.b.ins().jump(head, &bargs(&[i_next, row_stop]));
        latch
    }

    /// u64 words each work-item has in the spill area: the most lanes any barrier keeps.
    pub(super) fn spill_words_per_item(&self) -> Result<usize, Unsupported> {
        let mut words = 0;
        if let Some(r) = &self.resumable {
            for live in r.live.values() {
                let mut n = 0;
                for &v in live {
                    if self.kept(v) {
                        n += lanes_of(self.ty(v))?.len();
                    }
                }
                words = words.max(n);
            }
        }
        Ok(words)
    }

    /// The lanes of kir value `v` when it is a parameter of the kernel (the same for every
    /// work-item: never spilled).
    pub(super) fn param_lanes(&self, v: Value) -> Option<Vec<ClValue>> {
        let phase = self.phase.as_ref()?;
        let entry = self.func.entry_block()?;
        let mut k = 0;
        for &p in self.func.dfg.block_params(entry) {
            let n = lanes_of(self.ty(p)).ok()?.len();
            if p == v {
                return phase.params.get(k..k + n).map(<[ClValue]>::to_vec);
            }
            k += n;
        }
        None
    }

    /// Whether `v`, live after a barrier, goes to the spill area (otherwise it is a parameter
    /// or rematerialised).
    fn kept(&self, v: Value) -> bool {
        let entry = self.func.entry_block();
        let param =
            matches!(self.func.dfg.value_def(v), kir::ValueDef::Param(b, _) if Some(b) == entry);
        !param && self.remat_chain(v).is_none()
    }

    /// The instruction defining `v` when it is cheaper to compute again after a barrier than
    /// to keep: constants and work-item queries (ids come from the loop index, the rest from
    /// the call's own loads).
    pub(super) fn rematerialisable(&self, v: Value) -> Option<kir::Inst> {
        let kir::ValueDef::Result(def) = self.func.dfg.value_def(v) else {
            return None;
        };
        matches!(
            self.func.dfg.inst(def),
            InstData::Const { .. } | InstData::WorkItem { .. }
        )
        .then_some(def)
    }

    /// A barrier in the phase loop: stores the work-item's live values (parameters, constants
    /// and work-item queries excepted)
    /// in its part of the spill area and continues with the next work-item; the resume block
    /// reloads them.
    pub(super) fn phase_barrier(&mut self, inst: kir::Inst) -> Result<(), Unsupported> {
        let site = self.phase_barrier_site(inst)?;
        let r = self.resumable.as_ref().ok_or("not resumable")?;
        let live = r.live.get(&inst).cloned().unwrap_or_default();
        let mut kept: Vec<(cranelift_frontend::Variable, ClType)> = Vec::new();
        let mut params: Vec<(cranelift_frontend::Variable, ClValue)> = Vec::new();
        let mut remat = Vec::new();
        for v in &live {
            let vars = r.vars.get(v.index()).cloned().unwrap_or_default();
            if let Some(chain) = self.remat_chain(*v) {
                remat.push(chain);
                continue;
            }
            match self.param_lanes(*v) {
                Some(lanes) => params.extend(vars.into_iter().zip(lanes)),
                None => {
                    for (var, (cl, _)) in vars.into_iter().zip(lanes_of(self.ty(*v))?) {
                        kept.push((var, cl));
                    }
                }
            }
        }
        let words = self.phase.as_ref().map_or(0, |p| p.words);
        if kept.len() > words {
            return Err("phase loop: a barrier keeps more lanes than counted".into());
        }
        let r = self.resumable.as_mut().ok_or("not resumable")?;
        r.spill_words = r.spill_words.max(words);
        let fl = MemFlagsData::trusted();
        let area = self.spill_slot_address();
        for (k, &(var, _)) in kept.iter().enumerate() {
            let x = self.b.use_var(var);
            self.b.ins().store(fl, x, area, 8 * k as i32);
        }
        let stop = self.b.ins().iconst(types::I32, -(i64::from(site) + 1));
        let latch = self.row.as_ref().ok_or("phase loop without a row")?.latch;
        self.b.ins().jump(latch, &bargs(&[stop]));
        let resume = self.b.create_block();
        self.b.switch_to_block(resume);
        let area = self.spill_slot_address();
        for (k, &(var, cl)) in kept.iter().enumerate() {
            let x = self.b.ins().load(cl, fl, area, 8 * k as i32);
            self.b.def_var(var, x);
        }
        for (var, x) in params {
            self.b.def_var(var, x);
        }
        for chain in remat {
            self.remat_scalar(&chain)?;
        }
        let cont = self.b.create_block();
        self.b.ins().jump(cont, &[]);
        self.b.switch_to_block(cont);
        if let Some(r) = self.resumable.as_mut() {
            r.resumes.push((site, resume));
        }
        Ok(())
    }

    /// The current work-item's part of the spill area.
    fn spill_slot_address(&mut self) -> ClValue {
        let (Some(row), Some(phase)) = (&self.row, &self.phase) else {
            return self.b.ins().iconst(types::I64, 0);
        };
        let (base, i, spill, words) = (row.base[3], row.i, phase.spill, phase.words);
        let ll = self.b.ins().iadd(base, i);
        let off = self.b.ins().imul_imm_s(ll, 8 * words as i64);
        self.b.ins().iadd(spill, off)
    }
}
