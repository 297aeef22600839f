//! Work-group fusion: consecutive work-groups of a kernel whose work-items cannot observe the
//! work-group structure run as long rows of the compiled row loop instead of one row (or a
//! few) per group, which takes the per-group cost (context set-up, a row call per line, the
//! vectorised loop's row versioning and remainder) off small groups.
//!
//! A kernel is fusable (`Fusion::of`) when nothing it reaches tells one work-group from
//! another: no barriers, no `__local` memory, no printf, no device-side enqueue or pipes, no
//! private regions (`stackalloc`, module private variables: those run work-item by work-item),
//! and only the work-item queries that do not depend on the groups (global id, size and offset,
//! work dimension, global linear id, and the sub-group size, maximum size and local id, which
//! are constants since sub-groups are single work-items). Work-group functions are built from
//! barriers, `__local` scratch memory and local ids, so they are excluded with them.
//!
//! The groups a worker takes are split at group rows (groups with the same group id in
//! dimensions 1 and 2, `Chunks` hands out pieces that never straddle one), and each piece runs
//! line by line: line `(y, z)` of groups `g..g + k` is one row of work-items. When the groups
//! are single lines (local size 1 in dimensions 1 and 2) this is the per-group order exactly.
//! Otherwise the work-items of different groups interleave, which only atomics (and pipes)
//! could observe through the order of one thread's updates, so kernels using them fuse only
//! single-line groups. Errors are the per-group order's: when a line fails in group `h` of the
//! piece, the groups before `h` finish their remaining lines (a failure among them takes
//! precedence, since per group they would have run first) and the first failing group's error
//! is reported, attributed to that group for the ordered merge.
//!
//! `OXCL_FUSE=0` turns fusion off (for measurements).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use kir::{InstData, Module, WorkItemQuery};

use super::rt::slot;
use super::{run_row, RunCtx, Worker};
use crate::ExecError;

/// How the groups of a launch may be fused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Fusion {
    /// One group at a time (`Worker::run_group`).
    Off,
    /// Consecutive groups of a group row run line by line.
    Lines,
}

impl Fusion {
    /// Whether the kernel's work-items are blind to the work-group structure, given the
    /// launch's facts (`has_barriers`, `has_private`, the `__local` region sizes).
    pub(super) fn of(
        module: &Module,
        kernel: &kir::Kernel,
        local_size: [u64; 3],
        local_sizes: &[usize],
        has_barriers: bool,
        has_private: bool,
    ) -> Fusion {
        if std::env::var_os("OXCL_FUSE").is_some_and(|v| v == "0") {
            return Fusion::Off;
        }
        if has_barriers || has_private || local_sizes.iter().any(|&n| n != 0) {
            return Fusion::Off;
        }
        let single_line = local_size[1] == 1 && local_size[2] == 1;
        let reachable = module.reachable_functions(kernel.func);
        // Groups of several lines of a kernel with loops keep their order: the lines of a
        // group tile usually share the data their loops read (sgemm, convolutions), which
        // stays in cache while the group runs; lines across a whole row of groups would not.
        if !single_line
            && reachable
                .iter()
                .any(|f| has_cycle(&module.functions[f.index()]))
        {
            return Fusion::Off;
        }
        for f in reachable {
            for inst in &module.functions[f.index()].dfg.insts {
                match inst {
                    InstData::WorkItem { query, .. } | InstData::WorkItemDyn { query, .. }
                        if !group_blind(*query) =>
                    {
                        return Fusion::Off
                    }
                    InstData::Builtin {
                        func: kir::BuiltinFn::Printf,
                        ..
                    }
                    | InstData::Enqueue { .. }
                    | InstData::Pipe { .. }
                    | InstData::Barrier { .. }
                    | InstData::NamedBarrier { .. }
                    | InstData::StackAlloc { .. } => return Fusion::Off,
                    // The order of one thread's atomic updates can show in the results.
                    InstData::Atomic { .. } if !single_line => return Fusion::Off,
                    _ => {}
                }
            }
        }
        Fusion::Lines
    }
}

/// Whether the function's control flow has a cycle (a loop).
fn has_cycle(func: &kir::Function) -> bool {
    let Some(entry) = func.entry_block() else {
        return false;
    };
    let succs = |b: kir::Block| -> Vec<kir::Block> {
        func.terminator(b)
            .map(|t| {
                func.dfg
                    .inst(t)
                    .branch_targets()
                    .iter()
                    .map(|c| c.block)
                    .collect()
            })
            .unwrap_or_default()
    };
    // Depth-first search: an edge to a block still on the path is a back edge.
    let mut on_path = std::collections::HashSet::new();
    let mut done = std::collections::HashSet::new();
    let mut stack = vec![(entry, succs(entry), 0usize)];
    on_path.insert(entry);
    while let Some((block, next, i)) = stack.last_mut() {
        if let Some(&s) = next.get(*i) {
            *i += 1;
            if on_path.contains(&s) {
                return true;
            }
            if done.insert(s) {
                on_path.insert(s);
                let n = succs(s);
                stack.push((s, n, 0));
            }
        } else {
            on_path.remove(block);
            stack.pop();
        }
    }
    false
}

/// Whether a work-item query gives the same value whatever the work-group structure.
fn group_blind(query: WorkItemQuery) -> bool {
    matches!(
        query,
        WorkItemQuery::GlobalId
            | WorkItemQuery::GlobalSize
            | WorkItemQuery::GlobalOffset
            | WorkItemQuery::WorkDim
            | WorkItemQuery::GlobalLinearId
            | WorkItemQuery::SubgroupSize
            | WorkItemQuery::SubgroupMaxSize
            | WorkItemQuery::SubgroupLocalId
    )
}

/// The pieces of the group range handed to workers, none straddling a group row: a row of
/// `per_row` groups is cut into `pieces` pieces of `len` groups (the last one shorter), or
/// several whole rows form one piece when rows are short.
#[derive(Clone, Copy, Debug)]
pub(super) struct Chunks {
    per_row: u64,
    rows: u64,
    pieces: u64,
    len: u64,
    rows_per_piece: u64,
}

impl Chunks {
    /// Pieces of about `chunk` groups of a launch with `groups` groups per dimension.
    pub(super) fn new(groups: [u64; 3], chunk: u64) -> Chunks {
        let per_row = groups[0].max(1);
        let rows = groups[1] * groups[2];
        let chunk = chunk.max(1);
        if chunk >= per_row {
            Chunks {
                per_row,
                rows,
                pieces: 1,
                len: per_row,
                rows_per_piece: chunk / per_row,
            }
        } else {
            let pieces = per_row.div_ceil(chunk);
            Chunks {
                per_row,
                rows,
                pieces,
                len: per_row.div_ceil(pieces),
                rows_per_piece: 1,
            }
        }
    }

    /// How many pieces there are.
    pub(super) fn count(&self) -> u64 {
        self.rows.div_ceil(self.rows_per_piece) * self.pieces
    }

    /// The linear group indices `start..end` of piece `i` (`i < count()`).
    pub(super) fn range(&self, i: u64) -> (u64, u64) {
        let row = (i / self.pieces) * self.rows_per_piece;
        let k = i % self.pieces;
        if self.pieces == 1 {
            let end_row = (row + self.rows_per_piece).min(self.rows);
            return (row * self.per_row, end_row * self.per_row);
        }
        let start = row * self.per_row + k * self.len;
        let end = (start + self.len).min((row + 1) * self.per_row);
        (start, end)
    }

    /// Groups per group row.
    pub(super) fn per_row(&self) -> u64 {
        self.per_row
    }
}

/// What a fused run of groups did.
pub(super) struct FusedOut {
    pub(super) work_groups: u64,
    pub(super) work_items: u64,
}

impl Worker {
    /// Runs groups `g..g + k` (linear indices, one group row) line by line. An error comes with
    /// the linear index of the group it belongs to in the per-group order.
    // The per-dimension loop fills several slots of one array.
    #[allow(clippy::manual_memcpy)]
    pub(super) fn run_fused(
        &mut self,
        run: &RunCtx<'_>,
        g: u64,
        k: u64,
    ) -> Result<FusedOut, Box<(u64, ExecError)>> {
        let nd = &run.nd;
        let groups = nd.num_groups();
        let group_id = [
            g % groups[0],
            (g / groups[0]) % groups[1],
            g / (groups[0] * groups[1]),
        ];
        // Lines of the group row (dimensions 1 and 2 are the same for all its groups).
        let mut local_size = [1u64; 3];
        for d in 0..3 {
            let start = group_id[d] * nd.local_size[d];
            local_size[d] = nd.local_size[d].min(nd.global_size[d] - start);
        }
        let lines = local_size[1] * local_size[2];
        // Work-items x = 0..width(k) of each line, over groups g..g + k.
        let x0 = group_id[0] * nd.local_size[0];
        let width = |k: u64| ((group_id[0] + k) * nd.local_size[0]).min(nd.global_size[0]) - x0;
        let base: [u64; 3] =
            std::array::from_fn(|d| nd.global_offset[d] + group_id[d] * nd.local_size[d]);
        let o = nd.global_offset;
        let s = nd.global_size;
        let linear = |g: [u64; 3]| {
            ((g[2].wrapping_sub(o[2]))
                .wrapping_mul(s[1])
                .wrapping_add(g[1].wrapping_sub(o[1])))
            .wrapping_mul(s[0])
            .wrapping_add(g[0].wrapping_sub(o[0]))
        };
        self.ensure_ctxs(run, 1);
        let c = &mut self.ctxs[0];
        c.set_local(run.layout, &mut self.local);
        c.out.clear();
        // The group's slots as `run_group` sets them for group g: the kernel reads none of
        // the group-dependent ones.
        let num_groups = nd.num_groups();
        let wi = &mut c.wi;
        for d in 0..3 {
            wi[slot::GROUP_ID + d] = group_id[d];
            wi[slot::GLOBAL_SIZE + d] = nd.global_size[d];
            wi[slot::LOCAL_SIZE + d] = local_size[d];
            wi[slot::ENQ_LOCAL_SIZE + d] = nd.local_size[d];
            wi[slot::NUM_GROUPS + d] = num_groups[d];
            wi[slot::GLOBAL_OFFSET + d] = nd.global_offset[d];
        }
        wi[slot::WORK_DIM] = u64::from(nd.work_dim);
        wi[slot::NUM_SUBGROUPS] = local_size.iter().product();
        wi[slot::ENQ_NUM_SUBGROUPS] = nd.local_size.iter().product();
        let total_items = width(k) * lines;
        // Groups still running (g..g + live) and the error of the first failing group so far.
        let mut live = k;
        let mut failed: Option<(u64, ExecError)> = None;
        for line in 0..lines {
            let (y, z) = (line % local_size[1], line / local_size[1]);
            let lid = [0, y, z];
            for d in 0..3 {
                c.wi[slot::LOCAL_ID + d] = lid[d];
                c.wi[slot::GLOBAL_ID + d] = base[d] + lid[d];
            }
            c.wi[slot::GLOBAL_LINEAR] = linear([base[0], base[1] + y, base[2] + z]);
            c.wi[slot::LOCAL_LINEAR] = line * local_size[0];
            // The first and last groups of the ND-range's row run as rows of their own: their
            // work-items are where border tests (`x == 0`, `x == n - 1`, clamps) differ, which
            // would keep the vectorised loop's row proofs from holding for the whole line.
            let mut cuts = [width(live); 3];
            if live > 1 && group_id[0] == 0 {
                cuts[0] = width(1);
            }
            if live > 1 && group_id[0] + live == groups[0] {
                cuts[1] = width(live - 1);
            }
            if let Err(e) = run_segments(run, c, cuts) {
                // The group of the failing work-item; an error without one is the first's.
                let h = error_global_id(&e)
                    .and_then(|gid| gid[0].checked_sub(base[0]))
                    .map_or(0, |x| (x / nd.local_size[0]).min(live - 1));
                failed = Some((g + h, e));
                if h == 0 {
                    break;
                }
                // The groups before it finish their lines first (per-group order).
                live = h;
            }
        }
        match failed {
            Some(err) => Err(Box::new(err)),
            None => Ok(FusedOut {
                work_groups: k,
                work_items: total_items,
            }),
        }
    }
}

/// Runs work-items `0..cuts[2]` of a row whose x = 0 ids the context holds, as the rows
/// `0..cuts[0]`, `cuts[0]..cuts[1]` and `cuts[1]..cuts[2]` (empty ones skipped).
fn run_segments(
    run: &RunCtx<'_>,
    c: &mut super::rt::ItemCtx,
    cuts: [u64; 3],
) -> Result<(), ExecError> {
    const IDS: [usize; 4] = [
        slot::LOCAL_ID,
        slot::GLOBAL_ID,
        slot::GLOBAL_LINEAR,
        slot::LOCAL_LINEAR,
    ];
    let x0 = c.wi;
    let mut done = 0;
    for end in cuts {
        if end > done {
            for s in IDS {
                c.wi[s] = x0[s] + done;
            }
            run_row(run, c, end - done)?;
            done = end;
        }
    }
    Ok(())
}

/// The work-item an error names, if it names one.
fn error_global_id(e: &ExecError) -> Option<[u64; 3]> {
    match e {
        ExecError::OutOfBounds { global_id, .. }
        | ExecError::InvalidPointer { global_id, .. }
        | ExecError::MisalignedAtomic { global_id, .. }
        | ExecError::DataRace { global_id, .. }
        | ExecError::Unreachable { global_id, .. }
        | ExecError::CallDepth { global_id, .. }
        | ExecError::Unsupported { global_id, .. }
        | ExecError::StepLimit { global_id, .. } => Some(*global_id),
        _ => None,
    }
}

impl Worker {
    /// A worker's loop over the pieces of a fused launch: takes pieces from `next` until none
    /// is left or a worker failed, adding what succeeded to `counts` (groups, work-items,
    /// barriers) and keeping errors with their group index in `mine`.
    pub(super) fn run_pieces(
        &mut self,
        run: &RunCtx<'_>,
        chunks: &Chunks,
        next: &AtomicU64,
        abort: &AtomicBool,
        counts: &mut [u64; 3],
        mine: &mut Vec<(u64, super::GroupResult)>,
    ) {
        let per_row = chunks.per_row();
        while !abort.load(Ordering::Relaxed) {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= chunks.count() {
                break;
            }
            let (start, end) = chunks.range(i);
            let mut g = start;
            while g < end {
                // Pieces of several rows run row by row.
                let stop = end.min((g / per_row + 1) * per_row);
                match self.run_fused(run, g, stop - g) {
                    Ok(out) => {
                        counts[0] += out.work_groups;
                        counts[1] += out.work_items;
                    }
                    Err(failed) => {
                        let (h, e) = *failed;
                        abort.store(true, Ordering::Relaxed);
                        mine.push((h, Err(e)));
                        return;
                    }
                }
                g = stop;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{has_cycle, Chunks};

    #[test]
    fn loops_are_cycles() {
        let looped = kir::parse::parse_function(
            "function \"k\"(i32) {
            block0(v0: i32):
                v1 = const.i32 0
                jump block1(v1)
            block1(v2: i32):
                v3 = cmp.bool slt v2, v0
                brif v3, block2, block3
            block2:
                v4 = const.i32 1
                v5 = iadd.i32 v2, v4
                jump block1(v5)
            block3:
                return
            }",
        )
        .expect("parses");
        assert!(has_cycle(&looped));
        let straight = kir::parse::parse_function(
            "function \"k\"(bool) {
            block0(v0: bool):
                brif v0, block1, block2
            block1:
                jump block2
            block2:
                return
            }",
        )
        .expect("parses");
        assert!(!has_cycle(&straight));
    }

    #[test]
    fn pieces_cover_every_group_once_within_rows() {
        for groups in [
            [1, 1, 1],
            [7, 1, 1],
            [65536, 1, 1],
            [32, 512, 1],
            [5, 3, 2],
            [64, 3, 1],
        ] {
            for chunk in [1, 2, 3, 7, 64, 100] {
                let chunks = Chunks::new(groups, chunk);
                let total = groups[0] * groups[1] * groups[2];
                let mut seen = vec![0u32; total as usize];
                for i in 0..chunks.count() {
                    let (start, end) = chunks.range(i);
                    assert!(start < end, "{groups:?} {chunk}: empty piece {i}");
                    if chunk < groups[0] {
                        // Cut rows: a piece stays within its row.
                        assert_eq!(
                            start / groups[0],
                            (end - 1) / groups[0],
                            "{groups:?} {chunk}"
                        );
                        assert!(end - start <= chunk, "{groups:?} {chunk}: piece too long");
                    }
                    for g in start..end {
                        seen[g as usize] += 1;
                    }
                }
                assert!(seen.iter().all(|&n| n == 1), "{groups:?} {chunk}: {seen:?}");
            }
        }
    }
}
