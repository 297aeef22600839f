//! Idle work-items' spill words, copied lazily. A phase loop that leaves the rest of a row
//! idle (`PHASE_IDLE`, see `compile::vector::idle`) stops after the first idle work-item; the
//! work-items after it would have stored that work-item's spill words at the same barrier.
//! Instead of copying those words to the rest of the row after every such phase (a tree
//! reduction halves its active work-items at every barrier, so that copy is most of a phase's
//! work), the group driver remembers per row the first work-item whose words are still to be
//! copied (`lazy`). The next phase runs first up to that work-item: when it goes idle there
//! or earlier, nothing is copied at all; when it runs through, the words saved before it ran
//! are copied to the rest of the row, which then runs as a second piece, its status and first
//! diverging work-item merged as one call over the whole row gives them.

use super::rt::{slot, ItemCtx};
use super::vec_phase::{fill_idle, run_phase_items, run_scalar_items};
use super::{phase::PhaseFns, RunCtx};

/// The ids of a row that change along it.
const IDS: [usize; 4] = [
    slot::LOCAL_ID,
    slot::GLOBAL_ID,
    slot::GLOBAL_LINEAR,
    slot::LOCAL_LINEAR,
];

/// No work-item of the row waits for its spill words.
pub(super) const NONE_LAZY: u64 = u64::MAX;

/// Runs work-items x = 0..n of the row whose x = 0 ids `c` holds from `resume`, as
/// `run_phase_items` does over the whole row, where work-items `*lazy..n` (when `*lazy < n`)
/// have the spill words of work-item `*lazy - 1` still to be given. Leaves in `*lazy` the first
/// work-item whose words are still to be copied after this phase.
pub(super) fn run_phase_row(
    run: &RunCtx<'_>,
    c: &mut ItemCtx,
    n: u64,
    resume: u32,
    phase: PhaseFns,
    lazy: &mut u64,
) -> i32 {
    let words = run.compiled.phase_spill_words;
    // The phase loops store the ids of a work-item that calls a helper in the context: the
    // row's are taken before anything runs.
    let x0 = IDS.map(|s| c.wi[s]);
    let b = std::mem::replace(lazy, NONE_LAZY);
    if b >= n || b == 0 || words == 0 {
        let (status, idle) = run_phase_items(run, c, n, resume, phase);
        if status <= 0 {
            *lazy = idle.unwrap_or(NONE_LAZY);
        }
        return status;
    }
    // The first piece ends at the first vector iteration holding a lazy work-item's end.
    let w = run.compiled.vec_width.max(1);
    let split = if is_multiple(n, w) {
        round_up(b, w).min(n)
    } else {
        b
    };
    let mut small = [0u64; SMALL];
    let big: Vec<u64>;
    let Some(src) = item_words(c, words, b - 1) else {
        // Outside the spill area: copy eagerly (the run then reports what it always did).
        fill_idle(c, words, b, n);
        return run_phase_row(run, c, n, resume, phase, lazy);
    };
    let saved: &[u64] = if words <= SMALL {
        small[..words].copy_from_slice(&c.spill_store[src]);
        &small[..words]
    } else {
        big = c.spill_store[src].to_vec();
        &big
    };
    fill_idle(c, words, b, split);
    // A piece of one vector iteration or less: an iteration whose work-items leave idle at
    // different lanes would be abandoned to the scalar loop anyway.
    let (status, idle) = if split <= w {
        run_scalar_items(c, split, resume, phase.scalar)
    } else {
        run_phase_items(run, c, split, resume, phase)
    };
    if status > 0 {
        return status;
    }
    if let Some(k) = idle {
        *lazy = k;
        return status;
    }
    if split >= n {
        return status;
    }
    for (s, x) in IDS.into_iter().zip(x0) {
        c.wi[s] = x;
    }
    give_words(c, words, saved, split, n);
    for (s, x) in IDS.into_iter().zip(x0) {
        c.wi[s] = x.wrapping_add(split);
    }
    let (recorded, recorded_stop) = (c.diverged_at, c.diverged_stop);
    c.diverged_at = u64::MAX;
    let (rest, idle) = run_phase_items(run, c, n - split, resume, phase);
    for (s, x) in IDS.into_iter().zip(x0) {
        c.wi[s] = x;
    }
    if rest > 0 {
        return rest;
    }
    let inner = c.diverged_at;
    if recorded != u64::MAX {
        (c.diverged_at, c.diverged_stop) = (recorded, recorded_stop);
    } else if rest != status {
        c.diverged_at = split;
        c.diverged_stop = rest as i64 as u64;
    } else if inner != u64::MAX {
        c.diverged_at = split + inner;
    }
    if let Some(k) = idle {
        *lazy = split + k;
    }
    status
}

/// Whether `w` divides `n` (a mask for the usual power of two: no division per phase).
pub(super) fn is_multiple(n: u64, w: u64) -> bool {
    if w.is_power_of_two() {
        n & (w - 1) == 0
    } else {
        n.is_multiple_of(w)
    }
}

/// `b` rounded up to a multiple of `w` (saturating).
fn round_up(b: u64, w: u64) -> u64 {
    if w.is_power_of_two() {
        b.checked_add(w - 1).map_or(!(w - 1), |x| x & !(w - 1))
    } else {
        b.div_ceil(w).saturating_mul(w)
    }
}

/// Spill words saved on the stack (more on the heap).
const SMALL: usize = 16;

/// Where the spill words of work-item `x` of the row (x = 0's ids in `c`) are.
fn item_words(c: &ItemCtx, words: usize, x: u64) -> Option<std::ops::Range<usize>> {
    let at = usize::try_from(c.wi[slot::LOCAL_LINEAR].checked_add(x)?)
        .ok()?
        .checked_mul(words)?;
    let end = at.checked_add(words)?;
    (end <= c.spill_store.len()).then_some(at..end)
}

/// Gives work-items `from..n` of the row (x = 0's ids in `c`) the spill words `item`.
fn give_words(c: &mut ItemCtx, words: usize, item: &[u64], from: u64, n: u64) {
    let ll0 = c.wi[slot::LOCAL_LINEAR];
    let at = |x: u64| {
        usize::try_from(ll0 + x)
            .ok()
            .and_then(|i| i.checked_mul(words))
    };
    let (Some(start), Some(end)) = (at(from), at(n)) else {
        return;
    };
    let Some(area) = c.spill_store.get_mut(start..end) else {
        return;
    };
    for slot in area.chunks_exact_mut(words) {
        slot.copy_from_slice(item);
    }
}
