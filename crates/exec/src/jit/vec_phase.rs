//! Runs a row of a phase on the vectorised phase loop (`compile::vector::phase`) when the
//! kernel has one, iterations it abandons on the scalar phase loop, with the status and the
//! first diverging work-item that the scalar phase loop alone would give. A loop that left
//! the rest of the row idle (`PHASE_IDLE`, see `compile::vector::idle`) has those
//! work-items' spill words copied from the last work-item it ran.

use super::compile::{PhaseVecFn, PHASE_BAIL, PHASE_IDLE};
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
    let words = run.compiled.phase_spill_words;
    let Some(vec) = run
        .compiled
        .phase_vec
        .filter(|_| n.is_multiple_of(w) && n > 0)
    else {
        let status = phase(c, n, resume);
        if status != PHASE_IDLE {
            return status;
        }
        let (from, stop) = idle_from(c);
        fill_idle(c, words, from, n);
        return stop;
    };
    run_vec(c, n, resume, w, words, vec, phase)
}

/// The first work-item not run and the row's stop of a loop that returned `PHASE_IDLE`.
fn idle_from(c: &ItemCtx) -> (u64, i32) {
    (c.resolved & 0xffff_ffff, (c.resolved >> 32) as u32 as i32)
}

/// Gives work-items `from..n` of the row (x = 0's ids in `c`) the `words` spill words of
/// work-item `from - 1`: what each of them would have stored at the same barrier.
fn fill_idle(c: &mut ItemCtx, words: usize, from: u64, n: u64) {
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
    words: usize,
    vec: PhaseVecFn,
    phase: PhaseFn,
) -> i32 {
    let x0 = c.wi;
    let mut from = 0u64;
    let mut row_stop = 0i32;
    loop {
        let status = vec(c, n, resume, from, row_stop);
        if status == PHASE_IDLE {
            let (idle, stop) = idle_from(c);
            fill_idle(c, words, idle, n);
            return stop;
        }
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
        let mut stop = phase(c, w, resume);
        c.wi = x0;
        // Idle from work-item `at + idle` on (the rest of the row too).
        let mut idle = None;
        if stop == PHASE_IDLE {
            let (k, s) = idle_from(c);
            idle = Some(at + k);
            stop = s;
        }
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
        if let Some(idle) = idle {
            fill_idle(c, words, idle, n);
            return row_stop;
        }
        from = at + w;
        if from >= n {
            return row_stop;
        }
    }
}
