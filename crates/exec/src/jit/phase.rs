//! The group driver of kernels compiled as phase loops (`compile::phase`): one context for
//! the whole group, the phase function called once per row of work-items and phase, the
//! values live across barriers in one spill area for the group.
//!
//! Every work-item must stop at the same barrier (or all return) before the group goes on;
//! otherwise the launch fails with `ExecError::BarrierDivergence` naming work-item 0 and the
//! first work-item (in local-linear order) that stopped elsewhere, exactly as the per-item
//! driver (`Worker::drive_split`) reports it. Errors are reported as soon as a work-item
//! stops with one.

use super::compile::PhaseVecFn;
use super::rt::{slot, ItemCtx};
use super::{lost_error, GroupOut, RunCtx, Worker};
use crate::ExecError;

/// A phase loop: `(ctx, n, resume) -> status` (see `compile::phase`).
pub(super) type PhaseFn = extern "C" fn(*mut ItemCtx, u64, u32) -> i32;

/// The phase loops that run one phase: scalar and (when the kernel has one) vectorised.
#[derive(Clone, Copy)]
pub(super) struct PhaseFns {
    pub scalar: PhaseFn,
    pub vec: Option<PhaseVecFn>,
}

impl PhaseFns {
    /// The loops for the phase from `resume`: the copies specialised to it when compiled
    /// (`compile::phase_entry`), otherwise the generic ones.
    fn at(run: &RunCtx<'_>, resume: u32, phase: PhaseFn) -> PhaseFns {
        let compiled = run.compiled;
        match compiled.phase_at.iter().find(|p| p.resume == resume) {
            Some(p) => PhaseFns {
                scalar: p.scalar,
                vec: p.vec,
            },
            None => PhaseFns {
                scalar: phase,
                vec: compiled.phase_vec,
            },
        }
    }
}

impl Worker {
    /// Runs a group of `local_size` work-items (ids of the group already in `wi`) phase by
    /// phase with `phase`, until every work-item returned.
    pub(super) fn run_phases(
        &mut self,
        run: &RunCtx<'_>,
        group_id: [u64; 3],
        local_size: [u64; 3],
        wi: [u64; slot::COUNT],
        phase: PhaseFn,
        out: &mut GroupOut,
    ) -> Result<(), ExecError> {
        let nd = &run.nd;
        self.ensure_ctxs(run, 1);
        let c = &mut self.ctxs[0];
        c.set_local(run.layout, &mut self.local);
        c.out.clear();
        c.error = None;
        c.wi = wi;
        let count = local_size[0] * local_size[1] * local_size[2];
        let words = usize::try_from(count)
            .ok()
            .and_then(|n| n.checked_mul(run.compiled.spill_words))
            .ok_or_else(|| ExecError::Unsupported {
                kernel: run.kernel.name.clone(),
                global_id: [0; 3],
                at: "work-group start".into(),
                what: "the work-group's spill area does not fit the address space".into(),
            })?;
        if c.spill_store.len() < words {
            c.spill_store.resize(words, 0);
        }
        c.spill = c.spill_store.as_mut_ptr();
        let base: [u64; 3] =
            std::array::from_fn(|d| nd.global_offset[d] + group_id[d] * nd.local_size[d]);
        let (o, s) = (nd.global_offset, nd.global_size);
        let linear = |g: [u64; 3]| {
            ((g[2].wrapping_sub(o[2]))
                .wrapping_mul(s[1])
                .wrapping_add(g[1].wrapping_sub(o[1])))
            .wrapping_mul(s[0])
            .wrapping_add(g[0].wrapping_sub(o[0]))
        };
        let rows = usize::try_from(local_size[1] * local_size[2]).unwrap_or(0);
        self.idle_rows.clear();
        self.idle_rows.resize(rows, super::idle_rows::NONE_LAZY);
        let mut resume = 0u32;
        loop {
            let fns = PhaseFns::at(run, resume, phase);
            let mut row = 0usize;
            // Stop of work-item 0 (0: returned, s + 1: barrier site s) and the first other.
            let mut first = None;
            let mut other = None;
            let mut ll = 0u64;
            for z in 0..local_size[2] {
                for y in 0..local_size[1] {
                    let lid = [0, y, z];
                    for d in 0..3 {
                        c.wi[slot::LOCAL_ID + d] = lid[d];
                        c.wi[slot::GLOBAL_ID + d] = base[d] + lid[d];
                    }
                    c.wi[slot::GLOBAL_LINEAR] = linear([base[0], base[1] + y, base[2] + z]);
                    c.wi[slot::LOCAL_LINEAR] = ll;
                    ll += local_size[0];
                    c.diverged_at = u64::MAX;
                    let status = super::idle_rows::run_phase_row(
                        run,
                        c,
                        local_size[0],
                        resume,
                        fns,
                        &mut self.idle_rows[row],
                    );
                    row += 1;
                    if !c.out.is_empty() {
                        out.printf.append(&mut c.out);
                    }
                    if status > 0 {
                        return Err(c.error.take().unwrap_or_else(|| lost_error(run, c)));
                    }
                    let stop = status.unsigned_abs();
                    let f = *first.get_or_insert(stop);
                    if other.is_none() {
                        if stop != f {
                            other = Some(([0, y, z], stop));
                        } else if c.diverged_at != u64::MAX {
                            let x_stop = (c.diverged_stop as i64 as i32).unsigned_abs();
                            other = Some(([c.diverged_at, y, z], x_stop));
                        }
                    }
                }
            }
            let first = first.unwrap_or(0);
            if let Some((lid, stop)) = other {
                return Err(super::barrier_divergence(
                    run,
                    group_id,
                    ([0; 3], first),
                    (lid, stop),
                ));
            }
            if first == 0 {
                return Ok(());
            }
            out.barriers += 1;
            resume = first;
        }
    }
}
