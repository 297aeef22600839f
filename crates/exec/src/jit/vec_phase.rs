//! Runs a row of a phase on the vectorised phase loop (`compile::vector::phase`) when the
//! kernel has one, iterations it abandons on the scalar phase loop, with the status and the
//! first diverging work-item that the scalar phase loop alone would give. A loop that left
//! the rest of the row idle (`PHASE_IDLE`, see `compile::vector::idle`) reports the first
//! work-item it did not run: those work-items' spill words are copies of the last run one's
//! (`idle_rows` makes them so, lazily).

use super::compile::{PhaseVecFn, PHASE_BAIL, PHASE_IDLE};
use super::phase::{PhaseFn, PhaseFns};
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
/// has cleared). The second value, when the rest of the row is idle, is a work-item (not
/// the first) from which on every work-item keeps the spill words of the one before it: the
/// loops leave idle after a work-item (an iteration) that took the idle edge, and every
/// work-item of the row spills the same words at that barrier (`compile::vector::idle`), so
/// the ones not run are still to be given them (`fill_idle`).
pub(super) fn run_phase_items(
    run: &RunCtx<'_>,
    c: &mut ItemCtx,
    n: u64,
    resume: u32,
    phase: PhaseFns,
) -> (i32, Option<u64>) {
    let w = run.compiled.vec_width;
    let Some(vec) = phase
        .vec
        .filter(|_| super::idle_rows::is_multiple(n, w) && n > 0)
    else {
        return run_scalar_items(c, n, resume, phase.scalar);
    };
    run_vec(c, n, resume, w, vec, phase.scalar)
}

/// `run_phase_items` on the scalar phase loop only.
pub(super) fn run_scalar_items(
    c: &mut ItemCtx,
    n: u64,
    resume: u32,
    phase: PhaseFn,
) -> (i32, Option<u64>) {
    let status = phase(c, n, resume);
    if status != PHASE_IDLE {
        return (status, None);
    }
    let (from, stop) = idle_from(c);
    (stop, Some(from.saturating_sub(1).max(1)))
}

/// The first work-item not run and the row's stop of a loop that returned `PHASE_IDLE`.
fn idle_from(c: &ItemCtx) -> (u64, i32) {
    (c.resolved & 0xffff_ffff, (c.resolved >> 32) as u32 as i32)
}

/// Gives work-items `from..n` of the row (x = 0's ids in `c`) the `words` spill words of
/// work-item `from - 1`: what each of them would have stored at the same barrier.
pub(super) fn fill_idle(c: &mut ItemCtx, words: usize, from: u64, n: u64) {
    if words == 0 || from == 0 || from >= n {
        return;
    }
    let ll0 = c.wi[slot::LOCAL_LINEAR];
    let at = |x: u64| {
        usize::try_from(ll0 + x)
            .ok()
            .and_then(|i| i.checked_mul(words))
    };
    let (Some(src), Some(end)) = (at(from - 1), at(n)) else {
        return;
    };
    let Some(area) = c.spill_store.get_mut(src..end) else {
        return;
    };
    let (last, rest) = area.split_at_mut(words);
    if words == 1 {
        rest.fill(last[0]);
    } else {
        for item in rest.chunks_exact_mut(words) {
            item.copy_from_slice(last);
        }
    }
}

fn run_vec(
    c: &mut ItemCtx,
    n: u64,
    resume: u32,
    w: u64,
    vec: PhaseVecFn,
    phase: PhaseFn,
) -> (i32, Option<u64>) {
    let x0 = IDS.map(|s| c.wi[s]);
    let mut from = 0u64;
    let mut row_stop = 0i32;
    loop {
        let status = vec(c, n, resume, from, row_stop);
        if status == PHASE_IDLE {
            // The whole iteration before `idle` took the idle edge.
            let (idle, stop) = idle_from(c);
            return (stop, Some(idle.saturating_sub(w).max(1)));
        }
        if status != PHASE_BAIL {
            return (status, None);
        }
        // The iteration at `at` runs on the scalar phase loop (which reports its errors).
        c.error = None;
        let at = c.resolved & 0xffff_ffff;
        if at > 0 {
            row_stop = (c.resolved >> 32) as u32 as i32;
        }
        let (recorded, recorded_stop) = (c.diverged_at, c.diverged_stop);
        c.diverged_at = u64::MAX;
        for (s, x) in IDS.into_iter().zip(x0) {
            c.wi[s] = x + at;
        }
        let mut stop = phase(c, w, resume);
        for (s, x) in IDS.into_iter().zip(x0) {
            c.wi[s] = x;
        }
        // Idle from work-item `at + idle` on (the rest of the row too).
        let mut idle = None;
        if stop == PHASE_IDLE {
            let (k, s) = idle_from(c);
            idle = Some((at + k).saturating_sub(1).max(1));
            stop = s;
        }
        if stop > 0 {
            return (stop, None);
        }
        let inner = c.diverged_at;
        c.diverged_at = recorded;
        if recorded != u64::MAX {
            // The first divergence stays the one recorded before this iteration.
            c.diverged_stop = recorded_stop;
        }
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
        if idle.is_some() {
            return (row_stop, idle);
        }
        from = at + w;
        if from >= n {
            return (row_stop, None);
        }
    }
}
