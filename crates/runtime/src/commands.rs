//! The command-queue engine behind the C API (API 5.11 "Event Objects", 5.13 "Flush and
//! Finish"): events with an execution status, waiters and status callbacks, and queues whose
//! commands run on a worker thread once the events they wait for are complete.
//!
//! An in-order [`CommandQueue`] runs its commands one at a time in submission order; an
//! out-of-order one starts each command once its wait list and the last barrier are complete.
//! A command waits for its wait list; if one of those events failed,
//! the command does not run and its event ends with
//! `CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST` (API 5.11).

use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;

use crate::queue::now_ns;
use crate::{ProfilingInfo, Result};

/// `CL_COMPLETE`.
pub const COMPLETE: i32 = 0;
/// `CL_RUNNING`.
pub const RUNNING: i32 = 1;
/// `CL_SUBMITTED`.
pub const SUBMITTED: i32 = 2;
/// `CL_QUEUED`.
pub const QUEUED: i32 = 3;
/// `CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST`.
pub const ERROR_FOR_EVENTS_IN_WAIT_LIST: i32 = -14;

/// A status callback: called once with the status that triggered it.
pub type StatusCallback = Box<dyn FnOnce(i32) + Send>;

struct EventInner {
    status: i32,
    profiling: ProfilingInfo,
    /// `(status it waits for, callback)`.
    callbacks: Vec<(i32, StatusCallback)>,
}

/// The state of one event: a command's or a user event's.
pub struct EventState {
    inner: Mutex<EventInner>,
    changed: Condvar,
}

impl std::fmt::Debug for EventState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EventState")
            .field("status", &self.status())
            .finish()
    }
}

impl EventState {
    /// A new event with `status` (`QUEUED` for commands, `SUBMITTED` for user events).
    pub fn new(status: i32) -> Arc<EventState> {
        let now = now_ns();
        Arc::new(EventState {
            inner: Mutex::new(EventInner {
                status,
                profiling: ProfilingInfo {
                    queued: now,
                    submit: now,
                    start: now,
                    end: now,
                    complete: now,
                },
                callbacks: Vec::new(),
            }),
            changed: Condvar::new(),
        })
    }

    /// An event that is already complete (a command that had nothing to do).
    pub fn completed() -> Arc<EventState> {
        EventState::new(COMPLETE)
    }

    fn lock(&self) -> MutexGuard<'_, EventInner> {
        self.inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// `CL_EVENT_COMMAND_EXECUTION_STATUS`: `QUEUED`, `SUBMITTED`, `RUNNING`, `COMPLETE` or a
    /// negative error code.
    pub fn status(&self) -> i32 {
        self.lock().status
    }

    /// Complete or failed.
    pub fn is_done(&self) -> bool {
        self.status() <= COMPLETE
    }

    pub fn profiling(&self) -> ProfilingInfo {
        self.lock().profiling
    }

    /// Moves to `status` (statuses only go down: queued → submitted → running → complete or an
    /// error), records the profiling time and calls the callbacks registered for the statuses
    /// passed. A finished event does not change again; returns whether it changed.
    pub fn set_status(&self, status: i32) -> bool {
        self.set_status_after_children(status, 0)
    }

    /// [`EventState::set_status`] for a kernel command whose device-enqueued children took
    /// the last `children_ns` nanoseconds of its run: on completion `end` excludes them and
    /// `complete` includes them (API 5.14).
    pub fn set_status_after_children(&self, status: i32, children_ns: u64) -> bool {
        let now = now_ns();
        let ready = {
            let mut inner = self.lock();
            if inner.status <= COMPLETE || status >= inner.status {
                return false;
            }
            // Fill in the times of every stage passed (a user event jumps straight to complete).
            let previous = inner.status;
            if previous > SUBMITTED && status <= SUBMITTED {
                inner.profiling.submit = now;
            }
            if previous > RUNNING && status <= RUNNING {
                inner.profiling.start = now;
            }
            if status <= COMPLETE {
                inner.profiling.complete = now;
                inner.profiling.end = now.saturating_sub(children_ns).max(inner.profiling.start);
            }
            inner.status = status;
            let callbacks = std::mem::take(&mut inner.callbacks);
            let (ready, waiting): (Vec<_>, Vec<_>) = callbacks
                .into_iter()
                .partition(|(target, _)| status <= *target);
            inner.callbacks = waiting;
            ready
        };
        self.changed.notify_all();
        // API 5.11: a callback registered for CL_COMPLETE is called with the error code when
        // the command terminates abnormally.
        for (_, callback) in ready {
            callback(status);
        }
        true
    }

    /// Blocks until the event is complete or failed; returns the final status.
    pub fn wait(&self) -> i32 {
        let mut inner = self.lock();
        while inner.status > COMPLETE {
            inner = self
                .changed
                .wait(inner)
                .unwrap_or_else(|poisoned| poisoned.into_inner());
        }
        inner.status
    }

    /// Registers `callback` for when the status reaches `target` (`SUBMITTED`, `RUNNING` or
    /// `COMPLETE`); called at once if it already has.
    pub fn on_status(&self, target: i32, callback: StatusCallback) {
        let status = {
            let mut inner = self.lock();
            if inner.status > target {
                inner.callbacks.push((target, callback));
                return;
            }
            inner.status
        };
        callback(status);
    }
}

/// The work of a command; an error becomes the event's (negative) status.
pub type Work = Box<dyn FnOnce() -> Result<()> + Send>;

/// The work of a kernel command: returns the nanoseconds its device-enqueued children took at
/// the end of its run (`Queue::nd_range`'s `complete - end`), which the event's `END` excludes.
pub type KernelWork = Box<dyn FnOnce() -> Result<u64> + Send>;

struct Job {
    wait_for: Vec<Arc<EventState>>,
    event: Arc<EventState>,
    work: KernelWork,
}

/// How a command orders itself against the other commands of its queue (API 5.12).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CommandKind {
    /// An ordinary command: it waits for its wait list (and, in an in-order queue, for the
    /// command before it).
    Command,
    /// `clEnqueueMarkerWithWaitList` with an empty wait list: waits for every command queued
    /// before it.
    MarkerAll,
    /// `clEnqueueBarrierWithWaitList`: waits for its wait list (every command before it when
    /// empty), and no command queued after it starts before it completes.
    Barrier,
}

#[derive(Default)]
struct Ordering {
    last: Option<Arc<EventState>>,
    /// Out-of-order queues: the events not known to be done yet.
    outstanding: Vec<Arc<EventState>>,
    /// Out-of-order queues: the last barrier, which every later command waits for.
    barrier: Option<Arc<EventState>>,
}

/// A queue of commands. In order: one worker thread runs them in submission order. Out of
/// order (`CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE`): each command runs on its own thread as
/// soon as its wait list, and the last barrier, are complete.
pub struct CommandQueue {
    out_of_order: bool,
    sender: Mutex<Option<mpsc::Sender<Job>>>,
    order: Mutex<Ordering>,
    worker: Mutex<Option<JoinHandle<()>>>,
}

impl std::fmt::Debug for CommandQueue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CommandQueue")
            .field("out_of_order", &self.out_of_order)
            .finish_non_exhaustive()
    }
}

impl CommandQueue {
    /// An in-order queue with its worker thread.
    pub fn new() -> std::io::Result<CommandQueue> {
        CommandQueue::with_order(false)
    }

    /// An in-order (`false`) or out-of-order (`true`) queue.
    pub fn with_order(out_of_order: bool) -> std::io::Result<CommandQueue> {
        let (sender, worker) = if out_of_order {
            (None, None)
        } else {
            let (sender, receiver) = mpsc::channel::<Job>();
            let worker = std::thread::Builder::new()
                .name("oxcl-queue".into())
                .spawn(move || {
                    for job in receiver {
                        run_job(job);
                    }
                })?;
            (Some(sender), Some(worker))
        };
        Ok(CommandQueue {
            out_of_order,
            sender: Mutex::new(sender),
            order: Mutex::new(Ordering::default()),
            worker: Mutex::new(worker),
        })
    }

    pub fn is_out_of_order(&self) -> bool {
        self.out_of_order
    }

    /// Queues `work` to run after the events of `wait_for`; returns the command's event.
    pub fn submit(&self, wait_for: Vec<Arc<EventState>>, work: Work) -> Arc<EventState> {
        self.submit_kind(wait_for, CommandKind::Command, work)
    }

    /// [`CommandQueue::submit`] for markers and barriers too.
    pub fn submit_kind(
        &self,
        wait_for: Vec<Arc<EventState>>,
        kind: CommandKind,
        work: Work,
    ) -> Arc<EventState> {
        self.submit_kernel(wait_for, kind, Box::new(move || work().map(|()| 0)))
    }

    /// [`CommandQueue::submit_kind`] for a kernel command (see [`KernelWork`]).
    pub fn submit_kernel(
        &self,
        mut wait_for: Vec<Arc<EventState>>,
        kind: CommandKind,
        work: KernelWork,
    ) -> Arc<EventState> {
        let event = EventState::new(QUEUED);
        // Commands are submitted to the device as soon as they are queued.
        event.set_status(SUBMITTED);
        let mut order = self
            .order
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        order.last = Some(event.clone());
        if !self.out_of_order {
            // In order: the worker runs commands one after the other, which orders markers
            // and barriers too.
            let job = Job {
                wait_for,
                event: event.clone(),
                work,
            };
            let sender = self
                .sender
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            match sender.as_ref().map(|s| s.send(job)) {
                Some(Ok(())) => {}
                // The worker is gone (it never panics: `run_job` catches): run here.
                Some(Err(mpsc::SendError(job))) => run_job(job),
                None => {}
            }
            return event;
        }
        order.outstanding.retain(|e| !e.is_done());
        if let Some(barrier) = &order.barrier {
            wait_for.push(barrier.clone());
        }
        if kind != CommandKind::Command && wait_for.is_empty() {
            wait_for.extend(order.outstanding.iter().cloned());
        }
        if kind == CommandKind::Barrier {
            order.barrier = Some(event.clone());
        }
        order.outstanding.push(event.clone());
        drop(order);
        let job = Job {
            wait_for,
            event: event.clone(),
            work,
        };
        // A job that cannot get a thread runs here: still correct, only not concurrent.
        let slot = Arc::new(Mutex::new(Some(job)));
        let theirs = slot.clone();
        let spawned = std::thread::Builder::new()
            .name("oxcl-command".into())
            .spawn(move || {
                if let Some(job) = theirs.lock().unwrap_or_else(|p| p.into_inner()).take() {
                    run_job(job);
                }
            });
        if spawned.is_err() {
            if let Some(job) = slot.lock().unwrap_or_else(|p| p.into_inner()).take() {
                run_job(job);
            }
        }
        event
    }

    /// The event of the last command submitted, if any.
    pub fn last_event(&self) -> Option<Arc<EventState>> {
        self.order
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .last
            .clone()
    }

    /// `clFinish`: blocks until every command submitted so far is done.
    pub fn finish(&self) {
        let events = {
            let order = self
                .order
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            if self.out_of_order {
                order.outstanding.clone()
            } else {
                order.last.iter().cloned().collect()
            }
        };
        for event in events {
            event.wait();
        }
    }
}

impl Drop for CommandQueue {
    fn drop(&mut self) {
        // API 5.1 clReleaseCommandQueue: queued commands still run ("performs an implicit
        // flush"), but releasing does not wait for them (a command may wait for a user event
        // that is set later). Closing the channel lets the worker drain the queue and stop on
        // its own; it is not joined.
        self.sender
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .take();
        self.worker
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .take();
    }
}

fn run_job(job: Job) {
    let failed = job
        .wait_for
        .iter()
        .map(|e| e.wait())
        .any(|status| status < COMPLETE);
    if failed {
        job.event.set_status(ERROR_FOR_EVENTS_IN_WAIT_LIST);
        return;
    }
    job.event.set_status(RUNNING);
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job.work));
    let (status, children_ns) = match result {
        Ok(Ok(children_ns)) => (COMPLETE, children_ns),
        Ok(Err(e)) => (e.code().min(-1), 0),
        // CL_OUT_OF_RESOURCES: the command could not complete.
        Err(_) => (-5, 0),
    };
    job.event.set_status_after_children(status, children_ns);
}

/// The device and host clock of event profiling (`clGetDeviceAndHostTimer`), in nanoseconds.
pub fn now() -> u64 {
    now_ns()
}
