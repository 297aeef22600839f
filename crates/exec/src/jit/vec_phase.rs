//! Runs a row of a phase on the vectorised phase loop (`compile::vector::phase`) when the
//! kernel has one, iterations it abandons on the scalar phase loop, with the status and the
//! first diverging work-item that the scalar phase loop alone would give.

use super::compile::{PhaseVecFn, PHASE_BAIL};
use super::phase::PhaseFn;
use super::rt::{slot, ItemCtx};
use super::RunCtx;

/// The ids of a row that change along it.
const IDS: [usize; 4] = [
    slot::LOCAL_ID,
    slot::GLOBAL_ID,
    slot::GLOBAL_LINEAR,
    slot::LOCAL_LINEAR,
];

/// Runs work-items x = 0..n of the row whose x = 0 ids `c` holds, from `resume`, as the scalar
/// phase loop `phase` does (same status, same `diverged_at`/`diverged_stop`, which the caller
/// has cleared).
pub(super) fn run_phase_row(
    run: &RunCtx<'_>,
    c: &mut ItemCtx,
    n: u64,
    resume: u32,
    phase: PhaseFn,
) -> i32 {
    let w = run.compiled.vec_width;
    let Some(vec) = run
        .compiled
        .phase_vec
        .filter(|_| n.is_multiple_of(w) && n > 0)
    else {
        return phase(c, n, resume);
    };
    run_vec(c, n, resume, w, vec, phase)
}

fn run_vec(c: &mut ItemCtx, n: u64, resume: u32, w: u64, vec: PhaseVecFn, phase: PhaseFn) -> i32 {
    let x0 = c.wi;
    let mut from = 0u64;
    let mut row_stop = 0i32;
    loop {
        let status = vec(c, n, resume, from, row_stop);
        if status != PHASE_BAIL {
            return status;
        }
        // The iteration at `at` runs on the scalar phase loop (which reports its errors).
        c.error = None;
        let at = c.resolved & 0xffff_ffff;
        if at > 0 {
            row_stop = (c.resolved >> 32) as u32 as i32;
        }
        let recorded = c.diverged_at;
        c.diverged_at = u64::MAX;
        for s in IDS {
            c.wi[s] = x0[s] + at;
        }
        let stop = phase(c, w, resume);
        c.wi = x0;
        if stop > 0 {
            return stop;
        }
        let inner = c.diverged_at;
        c.diverged_at = recorded;
        if at == 0 {
            row_stop = stop;
        }
        if recorded == u64::MAX {
            if stop != row_stop {
                c.diverged_at = at;
                c.diverged_stop = stop as i64 as u64;
            } else if inner != u64::MAX {
                c.diverged_at = at + inner;
            }
        }
        from = at + w;
        if from >= n {
            return row_stop;
        }
    }
}
