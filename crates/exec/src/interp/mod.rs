//! The reference interpreter: runs every work-item of an ND-range by walking the kir.
//!
//! Scheduling: work-groups are spread over worker threads (`std::thread::scope`), each thread
//! pulling the next group index from an atomic counter. Inside a group the work-items run one
//! after another, each until it reaches a work-group barrier or returns; when every work-item
//! waits at the same barrier they all resume (each keeps an explicit frame stack, block and
//! instruction index, so barriers inside loops and called functions work). Work-items that
//! disagree (some returned, or waiting at different barriers) are reported as barrier
//! divergence. Modules without barriers run each work-item to completion before starting the
//! next, keeping one work-item's state alive at a time.
//!
//! Memory: see `memory` for regions and pointers, `program` for module-scope variables. In
//! checked mode each group also keeps a `memory::LocalShadow` of its local memory, cleared at
//! every work-group barrier and told which work-items each named barrier synchronised, to
//! report data races between work-items.

pub(crate) mod builtins;
pub(crate) mod eval;
pub(crate) mod image;
pub(crate) mod item;
pub mod memory;
mod printf;
pub mod program;
pub mod value;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

use kir::{ArgKind, InstData, Kernel, Module};

use crate::{ArgValue, Engine, ExecError, Launch, NdRange, RunStats, SvmSpace};
use item::Item;
use memory::{PtrLayout, RegionRef, SharedRegion};
use program::{GlobalLoc, ProgramGlobals};
use value::Val;

/// The reference engine.
#[derive(Clone, Debug)]
pub struct Interpreter {
    /// Deepest call nesting allowed before `ExecError::CallDepth` (OpenCL C forbids recursion,
    /// so this only guards against malformed modules).
    pub max_call_depth: usize,
    /// Most bytes of `stackalloc` memory one work-item may hold at once.
    pub max_private_bytes: u64,
    /// Most bytes of `__local` memory one work-group may use (variables and arguments).
    pub max_local_bytes: u64,
    /// Checked mode: report data races between the work-items of a work-group on `__local`
    /// and `__global` memory (`ExecError::DataRace`). Slower.
    pub checked: bool,
    /// Most instructions one work-item may execute before `ExecError::StepLimit` (a watchdog
    /// against kernels that never finish).
    pub max_steps_per_item: u64,
}

impl Default for Interpreter {
    fn default() -> Interpreter {
        Interpreter {
            max_call_depth: 256,
            max_private_bytes: 16 << 20,
            max_local_bytes: 256 << 20,
            checked: false,
            max_steps_per_item: u64::MAX,
        }
    }
}

impl Interpreter {
    pub fn new() -> Interpreter {
        Interpreter::default()
    }
}

impl Engine for Interpreter {
    fn name(&self) -> &str {
        "interpreter"
    }

    fn run_with_device_queue(
        &self,
        launch: &Launch<'_>,
        globals: &ProgramGlobals,
        svm: &SvmSpace,
        queue: Option<crate::enqueue::DeviceQueueConfig>,
    ) -> Result<RunStats, ExecError> {
        run(self, launch, globals, svm, queue)
    }
}

/// Everything the worker threads share, read-only.
pub(crate) struct RunCtx<'a> {
    interp: &'a Interpreter,
    module: &'a Module,
    kernel: &'a Kernel,
    nd: NdRange,
    layout: PtrLayout,
    shared: Vec<SharedRegion>,
    svm: &'a SvmSpace,
    globals: Vec<GlobalLoc>,
    /// Sizes of each work-group's local regions (module `Local` variables, then `Local` args).
    local_sizes: Vec<usize>,
    /// Initial contents of each work-item's private module variables.
    private_inits: Vec<Vec<u8>>,
    /// Values of the kernel function's parameters.
    params: Vec<Val>,
    has_barriers: bool,
    /// The host launch's device queue (device-side enqueue).
    pub(crate) queue: &'a crate::enqueue::DeviceQueue,
}

// SAFETY: `RunCtx` is shared read-only by the worker threads; its raw pointers (in
// `SharedRegion`) follow the crate's launch contract.
unsafe impl Sync for RunCtx<'_> {}

/// Counters a group adds to the run's statistics.
#[derive(Default)]
pub(crate) struct Counters {
    instructions: u64,
    barriers: u64,
    work_items: u64,
}

fn bad_arg(kernel: &Kernel, index: usize, reason: impl Into<String>) -> ExecError {
    ExecError::BadArgument {
        kernel: kernel.name.clone(),
        index,
        reason: reason.into(),
    }
}

/// The value of kernel argument `index` as the kernel sees it: a buffer becomes a shared region,
/// a `__local` size a local region (checked against `max_local_bytes`), a by-value argument its
/// value. Used by every engine, so they accept and reject the same arguments.
#[allow(clippy::too_many_arguments)]
pub(crate) fn bind_arg(
    kernel: &Kernel,
    index: usize,
    arg: &kir::KernelArg,
    value: &ArgValue,
    layout: &PtrLayout,
    shared: &mut Vec<SharedRegion>,
    local_sizes: &mut Vec<usize>,
    max_local_bytes: u64,
    address_bits: u32,
) -> Result<Val, ExecError> {
    Ok(match (&arg.kind, value) {
        (ArgKind::Buffer(space), ArgValue::Buffer { ptr, len }) => {
            if ptr.is_null() && *len > 0 {
                return Err(bad_arg(kernel, index, "buffer with a null address"));
            }
            if *len as u64 > layout.offset_mask() {
                return Err(bad_arg(
                    kernel,
                    index,
                    format!("buffer of {len} bytes exceeds the addressable size"),
                ));
            }
            shared.push(SharedRegion {
                base: *ptr,
                len: *len,
                space: *space,
                image: None,
            });
            Val::S(layout.encode(RegionRef::Shared(shared.len() - 1), 0))
        }
        // A pipe is a global buffer holding the `crate::pipe` layout.
        (ArgKind::Pipe { .. }, ArgValue::Buffer { ptr, len }) => {
            if let Err(reason) = crate::pipe::check_header(*ptr, *len) {
                return Err(bad_arg(kernel, index, format!("not a pipe: {reason}")));
            }
            shared.push(SharedRegion {
                base: *ptr,
                len: *len,
                space: kir::AddrSpace::Global,
                image: None,
            });
            Val::S(layout.encode(RegionRef::Shared(shared.len() - 1), 0))
        }
        (ArgKind::Buffer(_) | ArgKind::LocalPtr, ArgValue::Null) => Val::S(0),
        // API 5.9.2 clSetKernelArgSVMPointer: the pointer is the host address itself.
        (ArgKind::Buffer(_), ArgValue::SvmPointer(addr)) => {
            if address_bits != 64 || *addr > layout.offset_mask() {
                return Err(bad_arg(
                    kernel,
                    index,
                    format!("SVM pointer {addr:#x} is not a host address of a 64-bit device"),
                ));
            }
            Val::S(*addr)
        }
        (ArgKind::LocalPtr, ArgValue::Local(size)) => {
            let used: u64 = local_sizes.iter().map(|&n| n as u64).sum();
            if used.saturating_add(*size as u64) > max_local_bytes {
                return Err(bad_arg(
                    kernel,
                    index,
                    format!(
                        "{size} bytes of local memory exceed the limit of {}",
                        max_local_bytes
                    ),
                ));
            }
            local_sizes.push(*size);
            Val::S(layout.encode(RegionRef::Local(local_sizes.len() - 1), 0))
        }
        (ArgKind::Value { ty, size, .. }, ArgValue::Bytes(bytes)) => {
            if bytes.len() < *size as usize {
                return Err(bad_arg(
                    kernel,
                    index,
                    format!("{} bytes given, the argument has {size}", bytes.len()),
                ));
            }
            Val::from_bytes(*ty, bytes, address_bits)
        }
        (ArgKind::Image(declared), ArgValue::Image { ptr, len, desc }) => {
            check_image(declared, desc, *ptr, *len).map_err(|r| bad_arg(kernel, index, r))?;
            if *len as u64 > layout.offset_mask() {
                return Err(bad_arg(
                    kernel,
                    index,
                    format!("image of {len} bytes exceeds the addressable size"),
                ));
            }
            shared.push(SharedRegion {
                base: *ptr,
                len: *len,
                space: kir::AddrSpace::Global,
                image: Some(*desc),
            });
            Val::S(layout.encode(RegionRef::Shared(shared.len() - 1), 0))
        }
        (ArgKind::Sampler, ArgValue::Bytes(bytes)) if bytes.len() >= 4 => {
            Val::S(u64::from(u32::from_le_bytes([
                bytes[0], bytes[1], bytes[2], bytes[3],
            ])))
        }
        (kind, value) => {
            let given = match value {
                ArgValue::Bytes(_) => "bytes",
                ArgValue::Buffer { .. } => "a buffer",
                ArgValue::Null => "null",
                ArgValue::SvmPointer(_) => "an SVM pointer",
                ArgValue::Local(_) => "a local size",
                ArgValue::Image { .. } => "an image",
            };
            return Err(bad_arg(
                kernel,
                index,
                format!("{given} given for a {kind:?} argument"),
            ));
        }
    })
}

/// Checks an image argument: the image's type matches the declared one (env §2.4.2: `Dim`,
/// `Arrayed`, `Depth`; a depth image type takes exactly the images of channel order
/// `CL_DEPTH`), the descriptor is well formed and the memory holds the whole image.
fn check_image(
    declared: &kir::ImageArg,
    desc: &devlib::image_desc::ImageDesc,
    ptr: *mut u8,
    len: usize,
) -> Result<(), String> {
    use devlib::image_desc::ImageType as T;
    use kir::ImageDim as D;
    let expected = match (declared.dim, declared.arrayed) {
        (D::D1, false) => T::Image1D,
        (D::D1, true) => T::Image1DArray,
        (D::Buffer, _) => T::Image1DBuffer,
        (D::D2, false) => T::Image2D,
        (D::D2, true) => T::Image2DArray,
        (D::D3, _) => T::Image3D,
    };
    if desc.image_type != expected {
        return Err(format!(
            "a {:?} image given for a {} argument",
            desc.image_type,
            declared.name()
        ));
    }
    let is_depth = desc.format.order() == devlib::image::ChannelOrder::Depth;
    if is_depth != declared.depth {
        return Err(format!(
            "an image of channel order {:?} given for a {} argument",
            desc.format.order(),
            declared.name()
        ));
    }
    let need = devlib::image_access::checked_byte_len(desc)?;
    if need > len {
        return Err(format!(
            "the image needs {need} bytes, the memory has {len}"
        ));
    }
    if ptr.is_null() {
        return Err("image with a null address".into());
    }
    Ok(())
}

/// The largest work-group the interpreter accepts (a guard against absurd sizes; devices report
/// their own, smaller, maximum).
const MAX_WORK_GROUP_ITEMS: u64 = 1 << 20;

pub(crate) fn check_nd(nd: &NdRange) -> Result<(), ExecError> {
    if !(1..=3).contains(&nd.work_dim) {
        return Err(ExecError::BadNdRange(format!(
            "work_dim {} is not 1, 2 or 3",
            nd.work_dim
        )));
    }
    for d in 0..3 {
        let used = d < nd.work_dim as usize;
        if used && nd.local_size[d] == 0 {
            return Err(ExecError::BadNdRange(format!(
                "local size of dimension {d} is 0"
            )));
        }
        if !used && (nd.global_size[d] > 1 || nd.local_size[d] > 1) {
            return Err(ExecError::BadNdRange(format!(
                "dimension {d} is beyond work_dim but has size > 1"
            )));
        }
    }
    let used = nd.work_dim as usize;
    let product = |v: &[u64]| {
        v[..used]
            .iter()
            .try_fold(1u64, |acc, &x| acc.checked_mul(x))
    };
    match product(&nd.local_size) {
        Some(n) if n <= MAX_WORK_GROUP_ITEMS => {}
        _ => {
            return Err(ExecError::BadNdRange(format!(
                "work-groups of {:?} work-items exceed the interpreter's limit of {MAX_WORK_GROUP_ITEMS}",
                &nd.local_size[..used]
            )))
        }
    }
    if product(&nd.global_size).is_none() {
        return Err(ExecError::BadNdRange(
            "the global size overflows 64 bits".into(),
        ));
    }
    for d in 0..used {
        if nd.global_offset[d].checked_add(nd.global_size[d]).is_none() {
            return Err(ExecError::BadNdRange(format!(
                "global offset + size overflows in dimension {d}"
            )));
        }
    }
    Ok(())
}

/// Runs a host launch and then the children it enqueued (`crate::enqueue`).
fn run(
    interp: &Interpreter,
    launch: &Launch<'_>,
    program: &ProgramGlobals,
    svm: &SvmSpace,
    config: Option<crate::enqueue::DeviceQueueConfig>,
) -> Result<RunStats, ExecError> {
    let module = launch.module;
    let kernel = module
        .kernels
        .get(launch.kernel)
        .ok_or(ExecError::NoSuchKernel(launch.kernel))?;
    let queue = crate::enqueue::DeviceQueue::new(config);
    let top = KernelRun {
        module,
        kernel,
        args: launch.args,
        nd: launch.nd,
        threads: launch.threads,
        prefix: None,
    };
    let mut stats = run_kernel(interp, &top, program, svm, &queue)?;
    crate::enqueue::run_children(module, &queue, &mut stats, |child, queue| {
        let run = KernelRun {
            module,
            kernel: &child.kernel,
            args: &child.args,
            nd: child.nd,
            threads: launch.threads,
            prefix: Some(child.prefix),
        };
        run_kernel(interp, &run, program, svm, queue)
    })?;
    Ok(stats)
}

/// One kernel run: a host launch or a device-enqueued child.
pub(crate) struct KernelRun<'a> {
    pub module: &'a Module,
    pub kernel: &'a Kernel,
    pub args: &'a [ArgValue],
    pub nd: NdRange,
    pub threads: usize,
    /// A child's region table before its own arguments (its parent's table).
    pub prefix: Option<&'a [SharedRegion]>,
}

fn run_kernel(
    interp: &Interpreter,
    launch: &KernelRun<'_>,
    program: &ProgramGlobals,
    svm: &SvmSpace,
    queue: &crate::enqueue::DeviceQueue,
) -> Result<RunStats, ExecError> {
    let module = launch.module;
    let kernel = launch.kernel;
    let mut nd = launch.nd;
    check_nd(&nd)?;
    for d in nd.work_dim as usize..3 {
        nd.global_size[d] = 1;
        nd.local_size[d] = 1;
        nd.global_offset[d] = 0;
    }
    if launch.args.len() != kernel.args.len() {
        return Err(ExecError::ArgCount {
            kernel: kernel.name.clone(),
            expected: kernel.args.len(),
            given: launch.args.len(),
        });
    }
    if module.function(kernel.func).is_none() {
        return Err(ExecError::Malformed {
            kernel: kernel.name.clone(),
            at: "kernel".into(),
            what: format!("{} does not exist", kernel.func),
        });
    }
    if !program.fits(module) {
        return Err(ExecError::ProgramGlobalsMismatch {
            kernel: kernel.name.clone(),
        });
    }
    let layout = PtrLayout::new(module.address_bits);
    let mut shared = launch
        .prefix
        .map_or_else(|| program.shared.clone(), <[SharedRegion]>::to_vec);
    let mut local_sizes = program.local_sizes.clone();
    // `__local` variables of other kernels get no memory in this kernel's work-groups.
    let used = module.globals_used_by(kernel.func);
    for (g, loc) in program.globals.iter().enumerate() {
        if let GlobalLoc::Local(i) = loc {
            if !used.contains(&kir::GlobalRef::new(g)) {
                local_sizes[*i] = 0;
            }
        }
    }
    let private_inits = program.private_inits.clone();
    let globals = program.globals.clone();

    // Kernel arguments.
    let mut params = Vec::new();
    for (index, (arg, value)) in kernel.args.iter().zip(launch.args).enumerate() {
        let param = bind_arg(
            kernel,
            index,
            arg,
            value,
            &layout,
            &mut shared,
            &mut local_sizes,
            interp.max_local_bytes,
            module.address_bits,
        )?;
        params.push(param);
    }
    if shared.len() > layout.max_shared() || local_sizes.len() > layout.max_local() {
        return Err(bad_arg(
            kernel,
            0,
            "too many memory regions for the pointer encoding",
        ));
    }

    let has_barriers = module.functions.iter().any(|f| {
        f.dfg
            .insts
            .iter()
            .any(|i| matches!(i, InstData::Barrier { .. } | InstData::NamedBarrier { .. }))
    });
    let ctx = RunCtx {
        interp,
        module,
        kernel,
        nd,
        layout,
        shared,
        svm,
        globals,
        local_sizes,
        private_inits,
        params,
        has_barriers,
        queue,
    };

    let groups = nd.num_groups();
    let total_groups = groups[0] * groups[1] * groups[2];
    let threads = match launch.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    let threads = threads
        .min(usize::try_from(total_groups).unwrap_or(usize::MAX))
        .max(1);
    let next = AtomicU64::new(0);
    let abort = AtomicBool::new(false);
    // (group index, result) of every group that ran.
    let results: Mutex<Vec<(u64, GroupResult)>> = Mutex::new(Vec::new());
    let worker = || loop {
        if abort.load(Ordering::Relaxed) {
            return;
        }
        let g = next.fetch_add(1, Ordering::Relaxed);
        if g >= total_groups {
            return;
        }
        let group_id = [
            g % groups[0],
            (g / groups[0]) % groups[1],
            g / (groups[0] * groups[1]),
        ];
        let result = run_group(&ctx, group_id);
        if result.is_err() {
            abort.store(true, Ordering::Relaxed);
        }
        results
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((g, result));
    };
    if threads == 1 {
        worker();
    } else {
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(worker);
            }
        });
    }
    let mut results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    results.sort_by_key(|(g, _)| *g);
    let mut stats = RunStats::default();
    for (_, result) in results {
        let (counters, out) = result?;
        stats.work_groups += 1;
        stats.work_items += counters.work_items;
        stats.instructions += counters.instructions;
        stats.barriers += counters.barriers;
        stats.printf.extend_from_slice(&out);
    }
    Ok(stats)
}

/// Per-group facts the work-items read.
pub(crate) struct GroupInfo {
    pub group_id: [u64; 3],
    /// The actual size of this group (smaller than `local_size` for a last partial group).
    pub local_size: [u64; 3],
}

/// A finished group's counters and printf output.
type GroupResult = Result<(Counters, Vec<u8>), ExecError>;

fn run_group(ctx: &RunCtx<'_>, group_id: [u64; 3]) -> GroupResult {
    let nd = &ctx.nd;
    let mut local_size = [1u64; 3];
    for d in 0..3 {
        let start = group_id[d] * nd.local_size[d];
        local_size[d] = nd.local_size[d].min(nd.global_size[d] - start);
    }
    let info = GroupInfo {
        group_id,
        local_size,
    };
    let mut local: Vec<Vec<u8>> = ctx.local_sizes.iter().map(|&n| vec![0u8; n]).collect();
    let mut shadow = ctx
        .interp
        .checked
        .then(|| memory::LocalShadow::new(&ctx.local_sizes));
    let mut counters = Counters::default();
    let mut out = Vec::new();
    let count = local_size[0] * local_size[1] * local_size[2];
    counters.work_items = count;
    // (global id, local id) of the work-item with local linear index `i`.
    let ids = |i: u64| -> ([u64; 3], [u64; 3]) {
        let local_id = [
            i % local_size[0],
            (i / local_size[0]) % local_size[1],
            i / (local_size[0] * local_size[1]),
        ];
        let global_id = std::array::from_fn(|d| {
            nd.global_offset[d] + group_id[d] * nd.local_size[d] + local_id[d]
        });
        (global_id, local_id)
    };
    let new_item = |i: u64| -> Result<Item, ExecError> {
        let (global_id, local_id) = ids(i);
        Item::new(ctx, global_id, local_id, i as u32)
    };
    if !ctx.has_barriers {
        // One work-item at a time, reusing one work-item's buffers.
        let mut item = new_item(0)?;
        for i in 0..count {
            if i > 0 {
                let (global_id, local_id) = ids(i);
                item.reset(ctx, global_id, local_id, i as u32)?;
            }
            item.run(ctx, &info, &mut local, &mut shadow, &mut counters, &mut out)?;
        }
        return Ok((counters, out));
    }
    let mut items = (0..count)
        .map(new_item)
        .collect::<Result<Vec<Item>, ExecError>>()?;
    // Work-group and named barriers (`crate::named_barrier`).
    let mut schedule = crate::named_barrier::Schedule::new(items.len());
    if shadow.is_some() {
        schedule = schedule.recording_phases();
    }
    let mut run: Vec<usize> = (0..items.len()).collect();
    loop {
        let passed = schedule.barriers;
        for &i in &run {
            let stop =
                items[i].run(ctx, &info, &mut local, &mut shadow, &mut counters, &mut out)?;
            schedule
                .stopped(i, stop)
                .map_err(|detail| ExecError::BarrierDivergence {
                    kernel: ctx.kernel.name.clone(),
                    group_id,
                    detail,
                })?;
        }
        let named_passed = schedule.barriers;
        let next = schedule
            .next()
            .map_err(|stuck| ExecError::BarrierDivergence {
                kernel: ctx.kernel.name.clone(),
                group_id,
                detail: crate::named_barrier::divergence_detail(stuck, |i| items[i].local_id),
            })?;
        counters.barriers += schedule.barriers - passed;
        // Checked mode: a named barrier orders the accesses of the work-items it released
        // (only theirs); a work-group barrier orders every access before it.
        let phases = schedule.take_phases();
        if let Some(shadow) = &mut shadow {
            for members in &phases {
                shadow.synchronize(members, items.len());
            }
            if schedule.barriers != named_passed {
                shadow.clear();
            }
        }
        match next {
            crate::named_barrier::Next::Finished => return Ok((counters, out)),
            crate::named_barrier::Next::Run(r) => run = r,
        }
    }
}
