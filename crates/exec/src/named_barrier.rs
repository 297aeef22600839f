//! Work-group scheduling with named barriers (cl_khr_subgroup_named_barrier, SPIR-V
//! `OpNamedBarrierInitialize` / `OpMemoryNamedBarrier`), shared by both engines.
//!
//! A work-group runs its work-items one after another, each until it stops: it returned, it
//! waits at a work-group barrier, or it waits at a named barrier. oxcl's sub-groups have one
//! work-item, so a named barrier initialized with Subgroup Count N is passed once N work-items
//! have arrived at it: the first N arrivals form a phase and are released together, later
//! arrivals wait for the next N (OpenCL C++ 1.0 `work_group_named_barrier`: the barrier
//! synchronizes `sub_group_count` sub-groups of the work-group). A work-group barrier is passed
//! when every work-item waits at the same one. Work-items that can never be released (some
//! returned while others wait at a work-group barrier, or a named barrier that too few reach)
//! are reported as barrier divergence.
//!
//! kir's handle of a named barrier is `k << 32 | N`: the k-th initialization of every
//! work-item (initialization is a work-group operation done in the same order by all) with
//! Subgroup Count N. N must lie in 1..=the number of sub-groups of the work-group, and all
//! work-items must agree on it; a work-item initializes at most [`MAX_NAMED_BARRIERS`].

use std::collections::BTreeMap;

/// `CL_DEVICE_MAX_NAMED_BARRIER_COUNT_KHR`: named barriers a work-group may initialize
/// (the extension's minimum is 8).
pub const MAX_NAMED_BARRIERS: u32 = 64;

/// Where a work-item stopped.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Stop {
    /// It returned from the kernel.
    Done,
    /// It waits at a work-group barrier: (function index, instruction).
    Barrier(usize, kir::Inst),
    /// It waits at the named barrier of this kir handle, at (function index, instruction).
    Named(u64, usize, kir::Inst),
}

/// What the driver does next.
pub(crate) enum Next {
    /// Run these work-items (in this order) until they stop again.
    Run(Vec<usize>),
    /// Every work-item returned.
    Finished,
}

/// A named barrier's current phase.
struct Phase {
    count: u32,
    waiting: Vec<usize>,
}

/// The scheduling state of one work-group.
pub(crate) struct Schedule {
    stops: Vec<Option<Stop>>,
    named: BTreeMap<u32, Phase>,
    /// Work-items released by named barriers since the last [`Schedule::next`].
    released: Vec<usize>,
    /// Barriers passed (work-group barriers and named-barrier phases), for the statistics.
    pub barriers: u64,
    /// When recording (checked mode, [`Schedule::recording_phases`]): the work-items of each
    /// named-barrier phase released since the last [`Schedule::take_phases`].
    phases: Option<Vec<Vec<usize>>>,
}

impl Schedule {
    /// A group of `n` work-items, all about to run.
    pub fn new(n: usize) -> Schedule {
        Schedule {
            stops: vec![None; n],
            named: BTreeMap::new(),
            released: Vec::new(),
            barriers: 0,
            phases: None,
        }
    }

    /// Keeps the members of every named-barrier phase released, for checked mode's race
    /// tracking (which work-items a named barrier synchronised).
    pub fn recording_phases(mut self) -> Schedule {
        self.phases = Some(Vec::new());
        self
    }

    /// The phases released since the last call (empty when not recording).
    pub fn take_phases(&mut self) -> Vec<Vec<usize>> {
        self.phases.as_mut().map(std::mem::take).unwrap_or_default()
    }

    /// Records where work-item `i` stopped. Err: a named barrier used against its rules.
    pub fn stopped(&mut self, i: usize, stop: Stop) -> Result<(), String> {
        self.stops[i] = Some(stop);
        let Stop::Named(handle, ..) = stop else {
            return Ok(());
        };
        let (id, count) = ((handle >> 32) as u32, handle as u32);
        let n = self.stops.len();
        if id >= MAX_NAMED_BARRIERS {
            return Err(format!(
                "a work-item initialized more than CL_DEVICE_MAX_NAMED_BARRIER_COUNT_KHR ({MAX_NAMED_BARRIERS}) named barriers"
            ));
        }
        // SPIR-V OpNamedBarrierInitialize: Subgroup Count is the number of sub-groups that
        // must reach the barrier; the work-group has n sub-groups of one work-item.
        if count == 0 || count as usize > n {
            return Err(format!(
                "named barrier {id} was initialized with a sub-group count of {count}, but the work-group has {n} sub-groups"
            ));
        }
        let phase = self.named.entry(id).or_insert(Phase {
            count,
            waiting: Vec::new(),
        });
        if phase.count != count {
            return Err(format!(
                "work-items initialized named barrier {id} with different sub-group counts ({} and {count})",
                phase.count
            ));
        }
        phase.waiting.push(i);
        if phase.waiting.len() == count as usize {
            if let Some(phases) = &mut self.phases {
                phases.push(phase.waiting.clone());
            }
            for w in phase.waiting.drain(..) {
                self.stops[w] = None;
                self.released.push(w);
            }
            self.barriers += 1;
        }
        Ok(())
    }

    /// After the work-items of the last [`Next::Run`] stopped: what runs next. Err: the group
    /// is stuck, with a description naming work-items by index (the caller adds their ids).
    pub fn next(&mut self) -> Result<Next, (usize, Stop, usize, Stop)> {
        if !self.released.is_empty() {
            let mut run = std::mem::take(&mut self.released);
            run.sort_unstable();
            return Ok(Next::Run(run));
        }
        let stops: Vec<Stop> = self.stops.iter().map(|s| s.unwrap_or(Stop::Done)).collect();
        let first = stops[0];
        match stops.iter().position(|s| *s != first) {
            Some(other) => Err((0, first, other, stops[other])),
            None => match first {
                Stop::Done => Ok(Next::Finished),
                Stop::Barrier(..) => {
                    self.barriers += 1;
                    self.stops.iter_mut().for_each(|s| *s = None);
                    Ok(Next::Run((0..stops.len()).collect()))
                }
                // All wait at one named barrier that needs more of them than arrived.
                Stop::Named(..) => Err((0, first, 0, first)),
            },
        }
    }
}

/// How a stuck work-item is described in a barrier divergence error.
pub(crate) fn describe(stop: Stop) -> String {
    match stop {
        Stop::Done => "returned".to_string(),
        Stop::Barrier(f, inst) => format!("waits at the barrier fn{f} {inst}"),
        Stop::Named(handle, f, inst) => format!(
            "waits at named barrier {} (sub-group count {}) fn{f} {inst}",
            handle >> 32,
            handle as u32
        ),
    }
}

/// The detail of a barrier divergence error from [`Schedule::next`]'s report, given the
/// local ids of the work-items.
pub(crate) fn divergence_detail(
    (a, stop_a, b, stop_b): (usize, Stop, usize, Stop),
    local_id: impl Fn(usize) -> [u64; 3],
) -> String {
    if a == b {
        return format!(
            "every work-item {}, which fewer work-items reach",
            describe(stop_a)
        );
    }
    format!(
        "local work-item {:?} {} but local work-item {:?} {}",
        local_id(a),
        describe(stop_a),
        local_id(b),
        describe(stop_b)
    )
}
