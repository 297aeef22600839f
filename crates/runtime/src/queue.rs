//! Command queues and events (API 5.10, 5.11, 5.14).
//!
//! A queue is in order and runs each command to completion inside the enqueue call, so the
//! returned [`Event`] is complete and its profiling times are final.

use std::sync::OnceLock;
use std::time::Instant;

use crate::kernel::ArgValue;
use crate::{Buffer, Context, Error, Kernel, Result};

/// An ND-range: `work_dim` dimensions of global size, offset and optional work-group size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NdRange {
    pub work_dim: u32,
    pub global_offset: [usize; 3],
    pub global_size: [usize; 3],
    /// `None` lets the implementation choose (a `NULL` `local_work_size`).
    pub local_size: Option<[usize; 3]>,
}

impl NdRange {
    /// A range of 1 to 3 dimensions from slices (missing dimensions are 1, offsets 0).
    pub fn new(global: &[usize], local: Option<&[usize]>, offset: Option<&[usize]>) -> NdRange {
        let fill = |values: &[usize], default: usize| {
            let mut out = [default; 3];
            for (o, v) in out.iter_mut().zip(values) {
                *o = *v;
            }
            out
        };
        NdRange {
            work_dim: global.len() as u32,
            global_offset: fill(offset.unwrap_or(&[]), 0),
            global_size: fill(global, 1),
            local_size: local.map(|l| fill(l, 1)),
        }
    }
}

/// Profiling times of a command in nanoseconds of one monotonic clock (API 5.14
/// `CL_PROFILING_COMMAND_*`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct ProfilingInfo {
    pub queued: u64,
    pub submit: u64,
    pub start: u64,
    /// The command's own end: for a kernel, when its work-items finished, before the kernels
    /// it enqueued on the device ran.
    pub end: u64,
    /// `CL_PROFILING_COMMAND_COMPLETE`: "the command identified by event and any child
    /// commands enqueued by this command on the device have finished execution" (equal to
    /// `end` for commands without children).
    pub complete: u64,
}

/// A completed command.
#[derive(Clone, Debug)]
pub struct Event {
    profiling: ProfilingInfo,
}

impl Event {
    pub fn profiling(&self) -> ProfilingInfo {
        self.profiling
    }

    /// `end - start`, in nanoseconds.
    pub fn duration_ns(&self) -> u64 {
        self.profiling.end.saturating_sub(self.profiling.start)
    }

    /// Waits for completion (commands complete when enqueued).
    pub fn wait(&self) {}
}

/// The device clock: nanoseconds since the first use in this process.
pub fn now_ns() -> u64 {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    EPOCH.get_or_init(Instant::now).elapsed().as_nanos() as u64
}

/// Which `exec` engine runs a queue's kernels.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EngineKind {
    /// The reference interpreter (`exec::Interpreter`).
    Interpreter,
    /// The Cranelift JIT (`exec::Jit`; kernels it cannot compile run on the interpreter).
    Jit,
    /// The JIT without the fallback: kernels it cannot compile fail with an error (tests).
    JitStrict,
    /// The interpreter in checked mode: besides out-of-bounds accesses and barrier divergence
    /// (errors on every engine), data races between the work-items of a work-group on
    /// `__local` and `__global` memory are reported (`exec::ExecError::DataRace`), as a kernel
    /// debugger would. Slower.
    Checked,
}

impl EngineKind {
    /// The engine named by `OXCL_ENGINE` (`interp`, `jit`, `jit-strict` or `checked`), else the
    /// default: the JIT, which
    /// gives the interpreter's results bit for bit on the whole corpus
    /// (`runtime/tests/jit_corpus.rs`).
    pub fn from_env() -> EngineKind {
        match std::env::var("OXCL_ENGINE").as_deref() {
            Ok("interp" | "interpreter") => EngineKind::Interpreter,
            Ok("jit-strict") => EngineKind::JitStrict,
            Ok("checked") => EngineKind::Checked,
            _ => EngineKind::Jit,
        }
    }
}

/// An in-order command queue.
#[derive(Clone, Debug)]
pub struct Queue {
    context: Context,
    /// Worker threads for kernels; 0 means all compute units.
    threads: usize,
    engine: EngineKind,
}

impl Queue {
    pub fn new(context: &Context) -> Queue {
        Queue {
            context: context.clone(),
            threads: 0,
            engine: EngineKind::from_env(),
        }
    }

    /// Runs kernels on `engine` (the default comes from [`EngineKind::from_env`]).
    pub fn with_engine(mut self, engine: EngineKind) -> Queue {
        self.engine = engine;
        self
    }

    pub fn engine(&self) -> EngineKind {
        self.engine
    }

    /// Limits kernels to `threads` worker threads (0: all compute units).
    pub fn with_threads(mut self, threads: usize) -> Queue {
        self.threads = threads;
        self
    }

    pub fn context(&self) -> &Context {
        &self.context
    }

    fn timed(&self, command: impl FnOnce() -> Result<()>) -> Result<Event> {
        self.timed_with_children(|| command().map(|()| 0))
    }

    /// Runs `command`, which returns the nanoseconds its device-enqueued children took at its
    /// end (`exec::RunStats::children_ns`): `end` excludes them, `complete` includes them.
    fn timed_with_children(&self, command: impl FnOnce() -> Result<u64>) -> Result<Event> {
        let queued = now_ns();
        let start = now_ns();
        let children_ns = command()?;
        let complete = now_ns();
        Ok(Event {
            profiling: ProfilingInfo {
                queued,
                submit: queued,
                start,
                end: complete.saturating_sub(children_ns).max(start),
                complete,
            },
        })
    }

    /// `clEnqueueWriteBuffer`.
    pub fn write_buffer(&self, buffer: &Buffer, offset: usize, data: &[u8]) -> Result<Event> {
        self.timed(|| buffer.write(offset, data))
    }

    /// `clEnqueueReadBuffer`.
    pub fn read_buffer(&self, buffer: &Buffer, offset: usize, out: &mut [u8]) -> Result<Event> {
        self.timed(|| buffer.read(offset, out))
    }

    /// `clEnqueueCopyBuffer`.
    pub fn copy_buffer(
        &self,
        src: &Buffer,
        dst: &Buffer,
        src_offset: usize,
        dst_offset: usize,
        len: usize,
    ) -> Result<Event> {
        self.timed(|| dst.copy_from(dst_offset, src, src_offset, len))
    }

    /// `clEnqueueFillBuffer`.
    pub fn fill_buffer(
        &self,
        buffer: &Buffer,
        pattern: &[u8],
        offset: usize,
        len: usize,
    ) -> Result<Event> {
        self.timed(|| buffer.fill(pattern, offset, len))
    }

    /// `clFinish`: every command is complete already.
    pub fn finish(&self) {}

    /// `clEnqueueNDRangeKernel`: checks the range as the API specifies and runs the kernel.
    pub fn nd_range(&self, kernel: &Kernel, range: &NdRange) -> Result<Event> {
        let dims = range.work_dim as usize;
        if !(1..=3).contains(&dims) {
            return Err(Error::InvalidWorkDimension(range.work_dim));
        }
        for d in 0..dims {
            if range.global_size[d]
                .checked_add(range.global_offset[d])
                .is_none()
            {
                return Err(Error::InvalidGlobalWorkSize(format!(
                    "global size plus offset overflows size_t in dimension {d}"
                )));
            }
        }
        let args = kernel.arg_values()?;
        let local = self.choose_local_size(kernel, range)?;
        // API 5.10: with a global size of 0 in any dimension the command trivially succeeds
        // (OpenCL 2.1 and newer).
        if range.global_size[..dims].contains(&0) {
            return self.timed(|| Ok(()));
        }
        let nd = exec::NdRange {
            work_dim: range.work_dim,
            global_offset: range.global_offset.map(|v| v as u64),
            global_size: range.global_size.map(|v| v as u64),
            local_size: local.map(|v| v as u64),
        };
        // Hold every distinct buffer's lock for the whole run (sorted, so two launches sharing
        // buffers cannot deadlock).
        let mut buffers: Vec<&Buffer> = args
            .iter()
            .filter_map(|a| match a {
                ArgValue::Buffer(b) => Some(b),
                ArgValue::Image(image) => Some(image.storage()),
                _ => None,
            })
            .collect();
        buffers.sort_by_key(|b| b.lock_id());
        buffers.dedup_by(|a, b| a.lock_id() == b.lock_id());
        let guards: Vec<_> = buffers.iter().map(|b| b.lock()).collect();
        let exec_args: Vec<exec::ArgValue> = args
            .iter()
            .map(|a| match a {
                // API 5.2.1: a buffer created on SVM memory is that memory; the kernel gets its
                // host address (`crate::buffer`).
                ArgValue::Buffer(b) if b.svm().is_some() => {
                    exec::ArgValue::SvmPointer(b.host_address() as u64)
                }
                ArgValue::Buffer(b) => {
                    let (ptr, len) = b.raw();
                    exec::ArgValue::Buffer { ptr, len }
                }
                ArgValue::Null => exec::ArgValue::Null,
                ArgValue::Bytes(bytes) => exec::ArgValue::Bytes(bytes.clone()),
                ArgValue::Local(size) => exec::ArgValue::Local(*size),
                ArgValue::Image(image) => image.exec_arg(),
                ArgValue::Svm(addr) => exec::ArgValue::SvmPointer(*addr),
            })
            .collect();
        // Every live SVM allocation stays allocated until the run ends (`crate::svm`), and so
        // does the allocation of each buffer on SVM memory, even one freed already.
        let (svm_keep, mut svm_space) = self
            .context
            .svm_snapshot(buffers.iter().filter_map(|b| b.svm()));
        // Fine-grained system SVM, when the kernel was given system memory
        // (`Kernel::reaches_system_memory`).
        if self.context.device().fine_grain_system_svm()
            && kernel.reaches_system_memory(|addr| {
                self.context.svm_find(addr as usize as *const u8).is_none()
            })
        {
            svm_space = svm_space.with_system_memory();
        }
        let launch = exec::Launch {
            module: kernel.kir_module(),
            kernel: kernel.index(),
            args: &exec_args,
            nd,
            threads: self.threads,
        };
        static INTERPRETER: OnceLock<exec::Interpreter> = OnceLock::new();
        let engine: &dyn exec::Engine = match self.engine {
            EngineKind::Interpreter => INTERPRETER.get_or_init(exec::Interpreter::default),
            EngineKind::Jit => exec::Jit::shared(),
            EngineKind::JitStrict => {
                static STRICT: OnceLock<exec::Jit> = OnceLock::new();
                STRICT.get_or_init(exec::Jit::strict)
            }
            EngineKind::Checked => {
                static CHECKED: OnceLock<exec::Interpreter> = OnceLock::new();
                CHECKED.get_or_init(|| exec::Interpreter {
                    checked: true,
                    ..exec::Interpreter::default()
                })
            }
        };
        let event = self.timed_with_children(|| {
            // Kernels enqueue children into the context's default device queue; the launch
            // returns after them (`device_queue`).
            let device_queue = self.context.default_device_queue().map(|q| q.exec_config());
            let stats = engine.run_with_device_queue(
                &launch,
                kernel.program_globals(),
                &svm_space,
                device_queue,
            )?;
            // printf output appears when the kernel completes (OpenCL C 2.0 6.13.13).
            if !stats.printf.is_empty() {
                use std::io::Write;
                let mut out = std::io::stdout().lock();
                let _ = out.write_all(&stats.printf);
                let _ = out.flush();
            }
            Ok(stats.children_ns)
        });
        drop(guards);
        drop(svm_keep);
        event
    }

    /// The work-group size: the given one after the API's checks, or one chosen to divide the
    /// global size (the kernel's `reqd_work_group_size` when it has one).
    fn choose_local_size(&self, kernel: &Kernel, range: &NdRange) -> Result<[usize; 3]> {
        let device = self.context.device();
        let dims = range.work_dim as usize;
        let reqd = kernel.reqd_work_group_size().map(|r| r.map(|v| v as usize));
        let local = match (range.local_size, reqd) {
            (Some(local), Some(reqd)) if local[..dims] != reqd[..dims] => {
                return Err(Error::InvalidWorkGroupSize(format!(
                    "local size {:?} does not match reqd_work_group_size {:?}",
                    &local[..dims],
                    &reqd[..dims]
                )))
            }
            (Some(local), _) => local,
            (None, Some(reqd)) => reqd,
            (None, None) => {
                let mut local = [1usize; 3];
                let mut budget = 256usize;
                for d in 0..dims {
                    let g = range.global_size[d].max(1);
                    local[d] = (1..=budget.min(g)).rev().find(|l| g % l == 0).unwrap_or(1);
                    budget /= local[d];
                }
                local
            }
        };
        let mut total = 1usize;
        for d in 0..dims {
            if kernel.requires_uniform_work_groups()
                && local[d] != 0
                && range.global_size[d] % local[d] != 0
            {
                return Err(Error::InvalidWorkGroupSize(format!(
                    "global size {} is not a multiple of the local size {} in dimension {d}, and the program \
                     requires uniform work-groups (OpenCL C 1.x or -cl-uniform-work-group-size)",
                    range.global_size[d], local[d]
                )));
            }
            if local[d] == 0 {
                return Err(Error::InvalidWorkGroupSize("a local size of 0".into()));
            }
            if local[d] > device.max_work_item_sizes[d] {
                return Err(Error::InvalidWorkGroupSize(format!(
                    "local size {} in dimension {d} exceeds CL_DEVICE_MAX_WORK_ITEM_SIZES ({})",
                    local[d], device.max_work_item_sizes[d]
                )));
            }
            total = total.saturating_mul(local[d]);
        }
        if total > device.max_work_group_size {
            return Err(Error::InvalidWorkGroupSize(format!(
                "{total} work-items per group exceed CL_DEVICE_MAX_WORK_GROUP_SIZE ({})",
                device.max_work_group_size
            )));
        }
        let mut out = [1usize; 3];
        out[..dims].copy_from_slice(&local[..dims]);
        Ok(out)
    }
}

impl Queue {
    /// The checks `clEnqueueNDRangeKernel` makes before it queues a launch: the work dimension,
    /// the sizes, the work-group size and that every argument is set. Returns the work-group size
    /// a launch would use.
    pub fn check_nd_range(&self, kernel: &Kernel, range: &NdRange) -> Result<[usize; 3]> {
        let dims = range.work_dim as usize;
        if !(1..=3).contains(&dims) {
            return Err(Error::InvalidWorkDimension(range.work_dim));
        }
        for d in 0..dims {
            if range.global_size[d]
                .checked_add(range.global_offset[d])
                .is_none()
            {
                return Err(Error::InvalidGlobalWorkSize(format!(
                    "global size plus offset overflows size_t in dimension {d}"
                )));
            }
        }
        kernel.arg_values()?;
        self.choose_local_size(kernel, range)
    }
}
