//! Device-side enqueue (OpenCL C 2.0 §6.13.17, SPIR-V 3.42.22): the device queue of one
//! host launch and the operations of kir's `enqueue` instruction, shared by both engines.
//!
//! A host launch owns one [`DeviceQueue`]. Work-items enqueue child kernels and markers into it;
//! when every work-group of the launch has finished, the engine runs the queued commands in
//! order ([`run_children`]), each child kernel to completion (its own children are appended to
//! the queue), so the host's launch — and its host event — completes only after every
//! descendant. Running a child after its whole parent satisfies `CLK_ENQUEUE_FLAGS_NO_WAIT`,
//! `WAIT_KERNEL` and `WAIT_WORK_GROUP` alike. A command whose wait list holds an incomplete
//! event is passed over until the event completes (a user event set by a later child); one
//! waiting on an event with an error status does not run and its own event takes that status
//! (API 5.11: commands waiting on a failed event); commands that can never run make the
//! launch fail.
//!
//! The block literal (the `Param` bytes) is copied at enqueue time into memory the launch
//! owns; a child runs with the region table of the launch that enqueued it extended by that
//! copy, so the `__global` pointers and program-scope addresses the block captured stay valid.
//! The child kernel is the invoke function: parameter 0 the literal, then one `__local` pointer
//! per local size of the enqueue.
//!
//! Handles: the default queue is 1 when the launch has a device queue, `CLK_NULL_QUEUE` (0)
//! otherwise; events are 1 + their index, `CLK_NULL_EVENT` is all ones. A queue of
//! [`DeviceQueueConfig::size`] bytes holds `size / COMMAND_BYTES` commands not yet run; at most
//! [`DeviceQueueConfig::max_events`] events are alive at once.

use std::collections::VecDeque;
use std::sync::Mutex;

use kir::{ArgKind, EnqueueOp, FuncRef, Kernel, KernelArg, Module};

use crate::interp::memory::{Fault, Memory, PtrLayout, SharedRegion};
use crate::{ArgValue, ExecError, NdRange, RunStats};

/// Bytes of device queue one queued command occupies.
pub const COMMAND_BYTES: u32 = 128;

/// OpenCL C 2.0 §6.13.17 return codes (clang's `opencl-c-base.h` values).
pub const CLK_SUCCESS: i32 = 0;
pub const CLK_INVALID_QUEUE: i32 = -102;
pub const CLK_INVALID_NDRANGE: i32 = -160;
pub const CLK_INVALID_EVENT_WAIT_LIST: i32 = -57;
pub const CLK_DEVICE_QUEUE_FULL: i32 = -161;
pub const CLK_INVALID_ARG_SIZE: i32 = -51;
pub const CLK_EVENT_ALLOCATION_FAILURE: i32 = -100;

/// Event execution status values (API 5.11).
const CL_COMPLETE: i32 = 0;
const CL_SUBMITTED: i32 = 2;
const CL_QUEUED: i32 = 3;

/// `CLK_PROFILING_COMMAND_EXEC_TIME`.
const CLK_PROFILING_COMMAND_EXEC_TIME: u64 = 1;

/// The default device queue a host launch may enqueue into (`CL_QUEUE_ON_DEVICE_DEFAULT`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeviceQueueConfig {
    /// `CL_QUEUE_SIZE` in bytes.
    pub size: u32,
    /// `CL_DEVICE_MAX_ON_DEVICE_EVENTS`.
    pub max_events: u32,
    /// `CL_DEVICE_MAX_WORK_GROUP_SIZE`: the limit of a child's work-group and the answer of
    /// `get_kernel_work_group_size`.
    pub max_work_group_size: u64,
}

/// The work-group size limit kernels see without a device queue configuration.
const DEFAULT_MAX_WORK_GROUP_SIZE: u64 = 1024;

struct EventRec {
    status: i32,
    refs: u32,
    user: bool,
    /// Nanoseconds the command ran (`CL_PROFILING_COMMAND_END - START`).
    exec_ns: u64,
    /// Nanoseconds until it and every command it enqueued had finished
    /// (`CL_PROFILING_COMMAND_COMPLETE - START`), once known.
    complete_ns: Option<u64>,
}

/// When a queued command ran and which of its children are still to finish, for
/// `CL_PROFILING_COMMAND_COMPLETE` (API: "when the command identified by event and any child
/// commands enqueued by this command on the device have finished execution").
struct Timing {
    /// The command that enqueued this one (None: the host launch).
    parent: Option<usize>,
    event: Option<u64>,
    start: Option<std::time::Instant>,
    /// `END - START`, once the command has run.
    exec_ns: Option<u64>,
    /// Commands it enqueued that have not completed yet.
    outstanding: u32,
}

enum CommandKind {
    Kernel {
        invoke: FuncRef,
        nd: NdRange,
        literal: Box<[u8]>,
        locals: Vec<usize>,
    },
    Marker,
}

struct Command {
    /// Index of its [`Timing`].
    id: usize,
    kind: CommandKind,
    wait: Vec<u64>,
    event: Option<u64>,
    /// The region table of the launch that enqueued the command.
    shared: Vec<SharedRegion>,
}

struct Capture {
    event: u64,
    ptr: u64,
    shared: Vec<SharedRegion>,
}

#[derive(Default)]
struct State {
    events: Vec<EventRec>,
    pending: VecDeque<Command>,
    captures: Vec<Capture>,
    /// Block literals of children that ran (their descendants may still point into them).
    literals: Vec<Box<[u8]>>,
    timings: Vec<Timing>,
    /// The command running now (None: the host launch).
    running: Option<usize>,
}

/// The device queue of one host launch (see the module documentation).
pub struct DeviceQueue {
    config: Option<DeviceQueueConfig>,
    state: Mutex<State>,
}

// SAFETY: the raw pointers in `SharedRegion`s follow the crate's launch contract; the state is
// only touched under its mutex.
unsafe impl Sync for DeviceQueue {}
// SAFETY: as above.
unsafe impl Send for DeviceQueue {}

impl DeviceQueue {
    pub fn new(config: Option<DeviceQueueConfig>) -> DeviceQueue {
        DeviceQueue {
            config,
            state: Mutex::new(State::default()),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn max_work_group_size(&self) -> u64 {
        self.config
            .map_or(DEFAULT_MAX_WORK_GROUP_SIZE, |c| c.max_work_group_size)
    }
}

fn null_event(address_bits: u32) -> u64 {
    if address_bits == 32 {
        u64::from(u32::MAX)
    } else {
        u64::MAX
    }
}

impl State {
    fn event(&mut self, handle: u64) -> Option<&mut EventRec> {
        let index = usize::try_from(handle.checked_sub(1)?).ok()?;
        self.events.get_mut(index).filter(|e| e.refs > 0)
    }

    fn new_event(&mut self, config: &DeviceQueueConfig, status: i32, user: bool) -> Option<u64> {
        let alive = self.events.iter().filter(|e| e.refs > 0).count();
        if alive >= config.max_events as usize {
            return None;
        }
        self.events.push(EventRec {
            status,
            refs: 1,
            user,
            exec_ns: 0,
            complete_ns: None,
        });
        Some(self.events.len() as u64)
    }
}

/// Reads a pointer-sized integer.
fn read_size(mem: &mut Memory<'_>, ptr: u64, address_bits: u32) -> Result<u64, Fault> {
    let mut b = [0u8; 8];
    let n = (address_bits / 8) as usize;
    mem.read(ptr, &mut b[..n])?;
    Ok(u64::from_le_bytes(b))
}

fn write_size(mem: &mut Memory<'_>, ptr: u64, value: u64, address_bits: u32) -> Result<(), Fault> {
    let n = (address_bits / 8) as usize;
    mem.write(ptr, &value.to_le_bytes()[..n])
}

/// Reads an `ndrange_t` (`u32 dim`, then `size_t offset[3], global[3], local[3]`, naturally
/// aligned) as `(dim, offset, global, local)`.
fn read_ndrange(
    mem: &mut Memory<'_>,
    ptr: u64,
    address_bits: u32,
) -> Result<(u32, [u64; 3], [u64; 3], [u64; 3]), Fault> {
    let s = u64::from(address_bits / 8);
    let mut dim = [0u8; 4];
    mem.read(ptr, &mut dim)?;
    let mut arrays = [[0u64; 3]; 3];
    for (a, array) in arrays.iter_mut().enumerate() {
        for (d, v) in array.iter_mut().enumerate() {
            *v = read_size(mem, ptr + s + (a as u64 * 3 + d as u64) * s, address_bits)?;
        }
    }
    Ok((u32::from_le_bytes(dim), arrays[0], arrays[1], arrays[2]))
}

/// The local size an implementation-chosen work-group takes: in each dimension the largest
/// divisor of the global size within what is left of the work-group limit (at most 256).
fn choose_local(global: &[u64; 3], dims: usize, max: u64) -> [u64; 3] {
    let mut local = [1u64; 3];
    let mut budget = max.clamp(1, 256);
    for d in 0..dims {
        let g = global[d].max(1);
        local[d] = (1..=budget.min(g)).rev().find(|l| g % l == 0).unwrap_or(1);
        budget /= local[d];
    }
    local
}

/// The ND-range an `ndrange_t` describes, or `CLK_INVALID_NDRANGE`.
fn checked_ndrange(
    (dim, offset, global, local): (u32, [u64; 3], [u64; 3], [u64; 3]),
    max_wg: u64,
) -> Result<NdRange, i32> {
    if !(1..=3).contains(&dim) {
        return Err(CLK_INVALID_NDRANGE);
    }
    let dims = dim as usize;
    if global[..dims].contains(&0) {
        return Err(CLK_INVALID_NDRANGE);
    }
    let local = if local[..dims].iter().all(|&l| l == 0) {
        choose_local(&global, dims, max_wg)
    } else if local[..dims].contains(&0) {
        return Err(CLK_INVALID_NDRANGE);
    } else {
        local
    };
    let items = local[..dims]
        .iter()
        .try_fold(1u64, |acc, &l| acc.checked_mul(l));
    if items.is_none_or(|n| n > max_wg) {
        return Err(CLK_INVALID_NDRANGE);
    }
    let mut nd = NdRange {
        work_dim: dim,
        global_offset: [0; 3],
        global_size: [1; 3],
        local_size: [1; 3],
    };
    for d in 0..dims {
        nd.global_offset[d] = offset[d];
        nd.global_size[d] = global[d];
        nd.local_size[d] = local[d];
        if offset[d].checked_add(global[d]).is_none() {
            return Err(CLK_INVALID_NDRANGE);
        }
    }
    Ok(nd)
}

/// What one work-item running an `enqueue` instruction sees.
pub(crate) struct EnqueueSite<'a, 'm> {
    pub queue: &'a DeviceQueue,
    pub mem: &'a mut Memory<'m>,
    /// The region table of the running launch.
    pub shared: &'a [SharedRegion],
    pub address_bits: u32,
}

impl EnqueueSite<'_, '_> {
    /// The wait list `(num, events)`, or `CLK_INVALID_EVENT_WAIT_LIST`.
    fn wait_list(
        &mut self,
        state: &mut State,
        num: u64,
        events: u64,
        required: bool,
    ) -> Result<Result<Vec<u64>, i32>, Fault> {
        let null = events == 0;
        if (null && num > 0) || (!null && num == 0) || (required && null) {
            return Ok(Err(CLK_INVALID_EVENT_WAIT_LIST));
        }
        let mut list = Vec::new();
        let s = u64::from(self.address_bits / 8);
        for i in 0..num.min(1 << 20) {
            let e = read_size(self.mem, events + i * s, self.address_bits)?;
            if state.event(e).is_none() {
                return Ok(Err(CLK_INVALID_EVENT_WAIT_LIST));
            }
            list.push(e);
        }
        Ok(Ok(list))
    }

    /// Queues a command after the common checks, writing its event to `event_ret`.
    fn enqueue(
        &mut self,
        queue_handle: u64,
        num: u64,
        events: u64,
        event_ret: u64,
        marker: bool,
        make: impl FnOnce(&mut Self) -> Result<Result<CommandKind, i32>, Fault>,
    ) -> Result<u64, Fault> {
        let code = |c: i32| Ok(c as u32 as u64);
        let Some(config) = self.queue.config else {
            return code(CLK_INVALID_QUEUE);
        };
        if queue_handle != 1 {
            return code(CLK_INVALID_QUEUE);
        }
        let kind = match make(self)? {
            Ok(kind) => kind,
            Err(c) => return code(c),
        };
        let queue = self.queue;
        let mut state = queue.lock();
        let wait = match self.wait_list(&mut state, num, events, marker)? {
            Ok(w) => w,
            Err(c) => return code(c),
        };
        if state.pending.len() as u64 >= u64::from(config.size / COMMAND_BYTES) {
            return code(CLK_DEVICE_QUEUE_FULL);
        }
        let event = if event_ret != 0 {
            let Some(e) = state.new_event(&config, CL_QUEUED, false) else {
                return code(CLK_EVENT_ALLOCATION_FAILURE);
            };
            // Each use of an event holds a reference until the command has run.
            if let Err(f) = write_size(self.mem, event_ret, e, self.address_bits) {
                state.events.pop();
                return Err(f);
            }
            Some(e)
        } else {
            None
        };
        for &w in &wait {
            if let Some(e) = state.event(w) {
                e.refs += 1;
            }
        }
        let id = state.timings.len();
        let parent = state.running;
        state.timings.push(Timing {
            parent,
            event,
            start: None,
            exec_ns: None,
            outstanding: 0,
        });
        if let Some(t) = parent.and_then(|p| state.timings.get_mut(p)) {
            t.outstanding += 1;
        }
        state.pending.push_back(Command {
            id,
            kind,
            wait,
            event,
            shared: self.shared.to_vec(),
        });
        code(CLK_SUCCESS)
    }

    /// Runs one `enqueue` operation on operand values `args` (zero-extended), returning its
    /// result (0 when it has none).
    pub fn execute(
        &mut self,
        op: EnqueueOp,
        invoke: Option<FuncRef>,
        args: &[u64],
    ) -> Result<u64, Fault> {
        let arg = |i: usize| args.get(i).copied().unwrap_or(0);
        let bits = self.address_bits;
        match op {
            EnqueueOp::Kernel => {
                let Some(invoke) = invoke else {
                    return Ok(CLK_INVALID_QUEUE as u32 as u64);
                };
                let max_wg = self.queue.max_work_group_size();
                let (nd_ptr, param, param_size) = (arg(2), arg(6), arg(7));
                let locals: Vec<u64> = args.get(9..).unwrap_or(&[]).to_vec();
                self.enqueue(arg(0), arg(3), arg(4), arg(5), false, |site| {
                    let nd = match checked_ndrange(read_ndrange(site.mem, nd_ptr, bits)?, max_wg) {
                        Ok(nd) => nd,
                        Err(c) => return Ok(Err(c)),
                    };
                    if locals.contains(&0) {
                        return Ok(Err(CLK_INVALID_ARG_SIZE));
                    }
                    let size = usize::try_from(param_size)
                        .unwrap_or(usize::MAX)
                        .min(1 << 24);
                    let mut literal = vec![0u8; size.max(1)].into_boxed_slice();
                    if param != 0 && size > 0 {
                        site.mem.read(param, &mut literal[..size])?;
                    }
                    Ok(Ok(CommandKind::Kernel {
                        invoke,
                        nd,
                        literal,
                        locals: locals.iter().map(|&l| l as usize).collect(),
                    }))
                })
            }
            EnqueueOp::Marker => self.enqueue(arg(0), arg(1), arg(2), arg(3), true, |_| {
                Ok(Ok(CommandKind::Marker))
            }),
            EnqueueOp::DefaultQueue => Ok(u64::from(self.queue.config.is_some())),
            EnqueueOp::CreateUserEvent => {
                let Some(config) = self.queue.config else {
                    return Ok(null_event(bits));
                };
                let mut state = self.queue.lock();
                Ok(state
                    .new_event(&config, CL_SUBMITTED, true)
                    .unwrap_or(null_event(bits)))
            }
            EnqueueOp::Retain => {
                if let Some(e) = self.queue.lock().event(arg(0)) {
                    e.refs += 1;
                }
                Ok(0)
            }
            EnqueueOp::Release => {
                if let Some(e) = self.queue.lock().event(arg(0)) {
                    e.refs -= 1;
                }
                Ok(0)
            }
            EnqueueOp::IsValid => Ok(u64::from(self.queue.lock().event(arg(0)).is_some())),
            EnqueueOp::SetStatus => {
                let status = arg(1) as u32 as i32;
                if let Some(e) = self.queue.lock().event(arg(0)) {
                    // Only a user event, only once, and only CL_COMPLETE or an error.
                    if e.user && e.status == CL_SUBMITTED && status <= CL_COMPLETE {
                        e.status = status;
                        // A user event runs no command: no time passes between its stamps.
                        e.complete_ns = Some(0);
                    }
                }
                Ok(0)
            }
            EnqueueOp::CaptureProfiling => {
                if arg(1) != CLK_PROFILING_COMMAND_EXEC_TIME {
                    return Ok(0);
                }
                let mut state = self.queue.lock();
                let Some(e) = state.event(arg(0)) else {
                    return Ok(0);
                };
                if let Some(complete) = e.complete_ns {
                    let exec = e.exec_ns;
                    write_profiling(self.mem, arg(2), exec, complete)?;
                } else {
                    state.captures.push(Capture {
                        event: arg(0),
                        ptr: arg(2),
                        shared: self.shared.to_vec(),
                    });
                }
                Ok(0)
            }
            EnqueueOp::WorkGroupSize => Ok(self.queue.max_work_group_size()),
            // The engines run work-items in any grouping alike.
            EnqueueOp::PreferredMultiple => Ok(1),
            // Sub-groups have one work-item: a work-group has as many sub-groups as work-items.
            EnqueueOp::SubgroupCount => {
                let (dim, offset, global, local) = read_ndrange(self.mem, arg(0), bits)?;
                let dims = (dim as usize).clamp(1, 3);
                let local = if local[..dims].iter().all(|&l| l == 0) {
                    choose_local(&global, dims, self.queue.max_work_group_size())
                } else {
                    local
                };
                let _ = offset;
                Ok(local[..dims].iter().fold(1u64, |a, &l| a.saturating_mul(l)))
            }
            EnqueueOp::MaxSubgroupSize => Ok(1),
        }
    }
}

/// Writes the two 64-bit values of `CLK_PROFILING_COMMAND_EXEC_TIME` (OpenCL C 2.0
/// §6.13.17.8): `END - START`, then `COMPLETE - START` (the command and its children).
fn write_profiling(mem: &mut Memory<'_>, ptr: u64, exec: u64, complete: u64) -> Result<(), Fault> {
    let mut bytes = [0u8; 16];
    bytes[..8].copy_from_slice(&exec.to_le_bytes());
    bytes[8..].copy_from_slice(&complete.to_le_bytes());
    mem.write(ptr, &bytes)
}

/// Marks command `id` complete if it has run and all its children completed, then its parent
/// likewise; returns the profiling captures this resolves with their `(exec, complete)`.
fn complete_commands(
    state: &mut State,
    id: usize,
    now: std::time::Instant,
) -> Vec<(Capture, u64, u64)> {
    let mut out = Vec::new();
    let mut next = Some(id);
    while let Some(id) = next.take() {
        let Some(t) = state.timings.get(id) else {
            break;
        };
        let (Some(exec), Some(start)) = (t.exec_ns, t.start) else {
            break;
        };
        if t.outstanding > 0 {
            break;
        }
        let complete = (now.saturating_duration_since(start).as_nanos() as u64).max(exec);
        let (event, parent) = (t.event, t.parent);
        if let Some(handle) = event {
            if let Some(e) = state.events.get_mut((handle - 1) as usize) {
                e.complete_ns = Some(complete);
            }
            let (done, rest): (Vec<Capture>, Vec<Capture>) = std::mem::take(&mut state.captures)
                .into_iter()
                .partition(|c| c.event == handle);
            state.captures = rest;
            out.extend(done.into_iter().map(|c| (c, exec, complete)));
        }
        if let Some(p) = parent.and_then(|p| state.timings.get_mut(p)) {
            p.outstanding = p.outstanding.saturating_sub(1);
            next = parent;
        }
    }
    out
}

/// A child launch: the invoke function as a kernel, its arguments (the block literal, then
/// the local sizes) and the region table it extends.
pub(crate) struct ChildLaunch<'a> {
    pub kernel: Kernel,
    pub args: Vec<ArgValue>,
    pub nd: NdRange,
    pub prefix: &'a [SharedRegion],
}

/// Runs the queued commands of `queue` after the host launch finished, each child kernel
/// through `run_child` (which uses the same engine), adding their statistics to `stats` and
/// the time they took to `stats.children_ns`.
pub(crate) fn run_children(
    module: &Module,
    queue: &DeviceQueue,
    stats: &mut RunStats,
    run_child: impl FnMut(&ChildLaunch<'_>, &DeviceQueue) -> Result<RunStats, ExecError>,
) -> Result<(), ExecError> {
    let started = std::time::Instant::now();
    let result = run_queued(module, queue, stats, run_child);
    if queue.lock().timings.is_empty() {
        return result;
    }
    stats.children_ns += started.elapsed().as_nanos() as u64;
    result
}

fn run_queued(
    module: &Module,
    queue: &DeviceQueue,
    stats: &mut RunStats,
    mut run_child: impl FnMut(&ChildLaunch<'_>, &DeviceQueue) -> Result<RunStats, ExecError>,
) -> Result<(), ExecError> {
    let layout = PtrLayout::new(module.address_bits);
    loop {
        // The first command whose wait list is complete or failed.
        let next = {
            let mut state = queue.lock();
            let ready = state.pending.iter().position(|c| {
                c.wait.iter().all(|&w| {
                    let i = (w - 1) as usize;
                    state.events.get(i).is_none_or(|e| e.status <= CL_COMPLETE)
                })
            });
            match ready {
                Some(i) => state.pending.remove(i),
                None if state.pending.is_empty() => return Ok(()),
                None => {
                    return Err(ExecError::DeviceEnqueue(format!(
                        "{} device-side commands wait for events that never complete",
                        state.pending.len()
                    )))
                }
            }
        };
        let Some(mut command) = next else {
            return Ok(());
        };
        let failed = {
            let state = queue.lock();
            command
                .wait
                .iter()
                .filter_map(|&w| state.events.get((w - 1) as usize))
                .map(|e| e.status)
                .find(|&s| s < CL_COMPLETE)
        };
        let start = std::time::Instant::now();
        {
            let mut state = queue.lock();
            state.running = Some(command.id);
            if let Some(t) = state.timings.get_mut(command.id) {
                t.start = Some(start);
            }
        }
        let mut status = CL_COMPLETE;
        match (&mut command.kind, failed) {
            (_, Some(error)) => status = error,
            (CommandKind::Marker, None) => {}
            (
                CommandKind::Kernel {
                    invoke,
                    nd,
                    literal,
                    locals,
                },
                None,
            ) => {
                let func = module.function(*invoke).ok_or(ExecError::DeviceEnqueue(
                    "the invoke function does not exist".into(),
                ))?;
                let mut args = vec![KernelArg {
                    name: "block_literal".into(),
                    kind: ArgKind::Buffer(kir::AddrSpace::Global),
                    type_name: "void*".into(),
                }];
                args.extend(locals.iter().map(|_| KernelArg {
                    name: String::new(),
                    kind: ArgKind::LocalPtr,
                    type_name: "void*".into(),
                }));
                let kernel = Kernel {
                    name: func.name.clone(),
                    func: *invoke,
                    args,
                    reqd_work_group_size: None,
                    work_group_size_hint: None,
                    vec_type_hint: None,
                };
                let mut values = vec![ArgValue::Buffer {
                    ptr: literal.as_mut_ptr(),
                    len: literal.len(),
                }];
                values.extend(locals.iter().map(|&l| ArgValue::Local(l)));
                let child = ChildLaunch {
                    kernel,
                    args: values,
                    nd: *nd,
                    prefix: &command.shared,
                };
                let s = run_child(&child, queue)?;
                stats.work_groups += s.work_groups;
                stats.work_items += s.work_items;
                stats.instructions += s.instructions;
                stats.barriers += s.barriers;
                stats.printf.extend_from_slice(&s.printf);
            }
        }
        let end = std::time::Instant::now();
        let exec_ns = end.saturating_duration_since(start).as_nanos() as u64;
        let mut state = queue.lock();
        state.running = None;
        if let Some(t) = state.timings.get_mut(command.id) {
            t.exec_ns = Some(exec_ns);
        }
        for &w in &command.wait {
            if let Some(e) = state.event(w) {
                e.refs -= 1;
            }
        }
        if let Some(handle) = command.event {
            if let Some(e) = state.events.get_mut((handle - 1) as usize) {
                e.status = status;
                e.exec_ns = exec_ns;
            }
        }
        // Profiling captures waiting for this command (or, through it, for its ancestors).
        for (c, exec, complete) in complete_commands(&mut state, command.id, end) {
            let mut private = Vec::new();
            let mut mem = Memory {
                layout,
                shared: &c.shared,
                local: &mut [],
                private: &mut private,
                shadow: None,
                item: 0,
                // Captures into SVM memory are not reachable here (an error, not a write).
                svm: &crate::svm::NO_SVM,
            };
            write_profiling(&mut mem, c.ptr, exec, complete).map_err(|f| {
                ExecError::DeviceEnqueue(format!("capture_event_profiling_info: {f:?}"))
            })?;
        }
        if let CommandKind::Kernel { literal, .. } = command.kind {
            state.literals.push(literal);
        }
    }
}
