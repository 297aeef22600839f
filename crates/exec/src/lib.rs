//! Running ND-ranges of kir kernels: the `Engine` trait and the reference interpreter.
//!
//! An [`Engine`] runs one [`Launch`]: a kernel of a verified `kir::Module`, its argument values
//! ([`ArgValue`]) and an [`NdRange`]. The reference engine is [`Interpreter`]: it defines the
//! semantics every other engine must reproduce bit for bit where the specification is
//! deterministic (see `interp` for scheduling, `interp::memory` for pointers and bounds checks,
//! `interp::program` for program-scope variables). [`ExecError`] says why a launch failed, with
//! the kernel, the work-item and the IR location.
//!
//! - Program-scope variables persist across launches when the caller passes the same
//!   [`ProgramGlobals`] to [`Engine::run_with_globals`]; [`Engine::run`] uses fresh ones.
//! - `printf` output is collected in [`RunStats::printf`], in work-group order.
//! - Device-side enqueue: [`Engine::run_with_device_queue`] gives the launch a default device
//!   queue; children run after the launch's work-groups and before the run returns ([`enqueue`]).
//! - Checked mode (`Interpreter { checked: true, .. }`) also reports data races between the
//!   work-items of a work-group on `__local` and `__global` memory; out-of-bounds accesses and
//!   barrier divergence are always errors.
//!
//! - Shared virtual memory: [`Engine::run_with_svm`] makes host addresses inside the given
//!   allocations valid `__global` pointers (`svm`).
//!
//! Safety contract of a launch: [`ArgValue::Buffer`] and [`ArgValue::Image`] carry a raw pointer to caller memory.
//! The caller keeps every buffer alive, valid for reads and writes of `len` bytes, and not
//! accessed by anything else for the whole `run` call. Work-items of different work-groups run on
//! different threads and may touch the same buffer bytes; OpenCL leaves unsynchronised
//! conflicting accesses undefined, and engines only guarantee memory safety outside the buffers.
//! The module must have passed `kir::verify_module` (`kir::lower` checks its output).

pub mod enqueue;
pub mod error;
pub mod interp;
pub mod jit;
pub mod named_barrier;
pub mod pipe;
pub mod svm;

pub use error::ExecError;
pub use interp::program::ProgramGlobals;
pub use interp::Interpreter;
pub use jit::{DiskCache, Jit, JitStats};
pub use svm::{SvmRange, SvmSpace, SVM_GUARD};

/// The index space of a launch (OpenCL 3.0 §3.2.2).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct NdRange {
    /// 1, 2 or 3.
    pub work_dim: u32,
    pub global_offset: [u64; 3],
    pub global_size: [u64; 3],
    /// Chosen by the caller (never zero in a used dimension); the last work-group of a dimension
    /// may be partial (non-uniform work-groups, OpenCL 2.0).
    pub local_size: [u64; 3],
}

impl NdRange {
    /// A 1-dimensional range.
    pub fn new_1d(global: u64, local: u64) -> NdRange {
        NdRange {
            work_dim: 1,
            global_offset: [0; 3],
            global_size: [global, 1, 1],
            local_size: [local, 1, 1],
        }
    }

    /// Work-groups per dimension (the last one may be partial).
    pub fn num_groups(&self) -> [u64; 3] {
        std::array::from_fn(|d| self.global_size[d].div_ceil(self.local_size[d].max(1)))
    }
}

/// One kernel argument value.
#[derive(Clone, Debug)]
pub enum ArgValue {
    /// A by-value scalar, vector or struct in kernel-argument layout (little-endian, the size of
    /// the argument's type; a sampler is its 32-bit value).
    Bytes(Vec<u8>),
    /// A `__global`/`__constant` buffer: `len` bytes at `ptr` (see the crate's safety contract).
    Buffer { ptr: *mut u8, len: usize },
    /// A null `__global`/`__constant` pointer.
    Null,
    /// A `__global`/`__constant` pointer given as a host address into shared virtual memory
    /// (`clSetKernelArgSVMPointer`); accesses through it are checked against the launch's
    /// [`SvmSpace`] (see `svm`).
    SvmPointer(u64),
    /// A `__local` pointer argument: each work-group gets this many fresh bytes.
    Local(usize),
    /// An image memory object for a `kir::ArgKind::Image` argument: `len` bytes at `ptr` (see
    /// the crate's safety contract) laid out as `desc` says. A launch fails with
    /// `ExecError::BadArgument` when `desc` does not match the declared image type (dimension,
    /// arrayed, depth ⇔ `CL_DEPTH`), is malformed (`devlib::image_access::checked_byte_len`) or
    /// needs more than `len` bytes. Image instructions never touch memory outside the image:
    /// out-of-range reads give the border color, out-of-range writes are ignored.
    Image {
        ptr: *mut u8,
        len: usize,
        desc: devlib::image_desc::ImageDesc,
    },
}

// SAFETY: `ArgValue::Buffer` is a plain address; the crate-level safety contract makes the caller
// responsible for the memory it names while a run uses it.
unsafe impl Send for ArgValue {}
// SAFETY: as above; `ArgValue` has no interior mutability.
unsafe impl Sync for ArgValue {}

/// Everything an engine needs to run one kernel over an ND-range.
pub struct Launch<'a> {
    pub module: &'a kir::Module,
    /// Index into `module.kernels`.
    pub kernel: usize,
    pub args: &'a [ArgValue],
    pub nd: NdRange,
    /// Worker threads; 0 means all cores.
    pub threads: usize,
}

/// What a run did.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct RunStats {
    pub work_groups: u64,
    pub work_items: u64,
    /// kir instructions executed (terminators included).
    pub instructions: u64,
    /// Work-group barriers passed (counted once per work-group).
    pub barriers: u64,
    /// Output of `printf`, in work-group order (work-items of a group in the order they ran).
    pub printf: Vec<u8>,
    /// Nanoseconds spent on the commands kernels enqueued on the device (children,
    /// grandchildren, markers), which run after the launched kernel's own work-items finished:
    /// the host's `CL_PROFILING_COMMAND_END` of the launch excludes them, `_COMPLETE` includes
    /// them (API 5.14). 0 when nothing was enqueued.
    pub children_ns: u64,
}

/// A way of running kernels.
pub trait Engine: Send + Sync {
    fn name(&self) -> &str;

    /// Runs with fresh program-scope variables (initialised from the module).
    fn run(&self, launch: &Launch<'_>) -> Result<RunStats, ExecError> {
        self.run_with_globals(launch, &ProgramGlobals::new(launch.module))
    }

    /// Runs with the program-scope variables in `globals`, which keep their values across
    /// launches (create one `ProgramGlobals` per built program).
    fn run_with_globals(
        &self,
        launch: &Launch<'_>,
        globals: &ProgramGlobals,
    ) -> Result<RunStats, ExecError> {
        self.run_with_svm(launch, globals, &svm::NO_SVM)
    }

    /// Runs as `run_with_globals`, with host addresses inside the allocations of `svm` usable
    /// as `__global` pointers (shared virtual memory; see `svm` for the safety contract).
    fn run_with_svm(
        &self,
        launch: &Launch<'_>,
        globals: &ProgramGlobals,
        svm: &SvmSpace,
    ) -> Result<RunStats, ExecError> {
        self.run_with_device_queue(launch, globals, svm, None)
    }

    /// Like [`Engine::run_with_svm`], with the default device queue kernels may enqueue
    /// child kernels into (`None`: no default device queue, `get_default_queue` returns
    /// `CLK_NULL_QUEUE`). The run returns after every child has completed (`enqueue`).
    fn run_with_device_queue(
        &self,
        launch: &Launch<'_>,
        globals: &ProgramGlobals,
        svm: &SvmSpace,
        queue: Option<enqueue::DeviceQueueConfig>,
    ) -> Result<RunStats, ExecError>;
}
