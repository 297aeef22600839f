//! The Cranelift JIT engine: compiles each kernel once to native code (see `compile`) and runs
//! its ND-range with the interpreter's memory model and results (see `rt`).
//!
//! Scheduling: work-groups are spread over worker threads exactly as in the interpreter (an
//! atomic group counter, results ordered by group). Kernels without work-group barriers run a
//! row of work-items per call of the compiled row loop on one reused context. Kernels whose
//! barriers are all in the kernel function are split at them (see `barrier`): the group runs
//! every work-item to its next barrier, checks they stopped at the same one (or all returned),
//! and resumes them; without private regions a row of work-items runs to its next barrier in
//! one call of the compiled phase loop (see `phase`). Kernels with barriers in called functions run each work-item of a group as
//! a stackful coroutine (`corosensei`) that suspends at every barrier, checked the same way.
//! Divergence is reported as the interpreter reports it.
//!
//! Compiled kernels are cached in memory per module address, checked against a copy of the
//! module, so a module changed in place is compiled again, and their machine code on disk
//! between processes (see `disk_cache`; `Jit::disk_cache` chooses where). Kernels the JIT cannot compile
//! (aggregate values, recursion; see `compile`) run on the interpreter unless
//! `Jit::fallback` is off, in which case the launch fails with `ExecError::Unsupported`.

mod barrier;
mod compile;
mod disk_cache;
mod enqueue_rt;
mod fuse;
mod idle_rows;
mod image_rt;
mod math_rt;
mod phase;
mod pipe_rt;
mod rt;
mod vec_phase;

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use corosensei::stack::DefaultStack;
use corosensei::{Coroutine, CoroutineResult};
use kir::{InstData, Kernel, Module};

use crate::interp::memory::{PtrLayout, SharedRegion};
use crate::interp::program::{GlobalLoc, ProgramGlobals};
use crate::interp::value::Val;
use crate::{Engine, ExecError, Interpreter, Launch, NdRange, RunStats, SvmSpace};
pub use compile::Compiled;
pub use disk_cache::{DiskCache, JitStats};
use rt::{slot, ItemCtx, Shared};

/// Modules kept in the compile cache before it is emptied.
const MAX_CACHED_MODULES: usize = 256;

/// The Cranelift engine.
pub struct Jit {
    /// Run kernels the JIT cannot compile on the interpreter (otherwise: `Unsupported`).
    pub fallback: bool,
    /// Most bytes of `stackalloc` memory one work-item may hold at once.
    pub max_private_bytes: u64,
    /// Most bytes of `__local` memory one work-group may use.
    pub max_local_bytes: u64,
    /// Stack size of each work-item coroutine (kernels with barriers).
    pub coroutine_stack: usize,
    /// Where compiled machine code is kept between processes (default: from the environment).
    pub disk_cache: DiskCache,
    counters: disk_cache::Counters,
    interp: Interpreter,
    cache: Mutex<HashMap<usize, Vec<CacheEntry>>>,
}

struct CacheEntry {
    module: Arc<Module>,
    kernel: usize,
    compiled: Result<Arc<Compiled>, String>,
}

impl Default for Jit {
    fn default() -> Jit {
        let interp = Interpreter::default();
        Jit {
            fallback: true,
            max_private_bytes: interp.max_private_bytes,
            max_local_bytes: interp.max_local_bytes,
            coroutine_stack: 1 << 20,
            disk_cache: DiskCache::default(),
            counters: disk_cache::Counters::default(),
            interp,
            cache: Mutex::new(HashMap::new()),
        }
    }
}

impl std::fmt::Debug for Jit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Jit")
            .field("fallback", &self.fallback)
            .finish_non_exhaustive()
    }
}

impl Jit {
    pub fn new() -> Jit {
        Jit::default()
    }

    /// The process-wide JIT (one cache for every queue).
    pub fn shared() -> &'static Jit {
        static SHARED: std::sync::OnceLock<Jit> = std::sync::OnceLock::new();
        SHARED.get_or_init(Jit::default)
    }

    /// Whether `kernel` of `module` runs as native code (`false`: the interpreter runs it).
    pub fn compiles(&self, module: &Module, kernel: usize) -> Result<(), String> {
        self.compile(module, kernel).map(|_| ())
    }

    /// A JIT that reports kernels it cannot compile instead of interpreting them.
    pub fn strict() -> Jit {
        Jit {
            fallback: false,
            ..Jit::default()
        }
    }

    /// A JIT keeping compiled code in `cache` (instead of where the environment says).
    pub fn with_disk_cache(cache: DiskCache) -> Jit {
        Jit {
            disk_cache: cache,
            ..Jit::default()
        }
    }

    /// What this engine's compilations did so far (functions compiled by Cranelift or loaded
    /// from the on-disk cache, cache files written or ignored).
    pub fn stats(&self) -> JitStats {
        self.counters.stats()
    }

    /// The compiled kernel (cached), or why it cannot be compiled.
    pub fn compile(&self, module: &Module, kernel: usize) -> Result<Arc<Compiled>, String> {
        let key = module as *const Module as usize;
        {
            let cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(entries) = cache.get(&key) {
                for e in entries {
                    if e.kernel == kernel && *e.module == *module {
                        return e.compiled.clone();
                    }
                }
            }
        }
        let mut store = disk_cache::CodeStore::new(self.disk_cache.dir(), module, kernel);
        let compiled = if kernel >= CHILD_KERNEL_BASE {
            let func = kir::FuncRef::new(kernel - CHILD_KERNEL_BASE);
            compile::compile_function(module, func, &mut store)
        } else {
            compile::compile(module, kernel, &mut store)
        }
        .map(Arc::new);
        if compiled.is_ok() {
            store.finish(&self.counters);
        } else {
            store.abandon(&self.counters);
        }
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        // Modules that were dropped leave entries behind: bound the cache.
        if cache.len() >= MAX_CACHED_MODULES && !cache.contains_key(&key) {
            cache.clear();
        }
        let entries = cache.entry(key).or_default();
        entries.retain(|e| *e.module == *module);
        let shared_module = entries
            .first()
            .map(|e| e.module.clone())
            .unwrap_or_else(|| Arc::new(module.clone()));
        entries.push(CacheEntry {
            module: shared_module,
            kernel,
            compiled: compiled.clone(),
        });
        compiled
    }
}

impl Engine for Jit {
    fn name(&self) -> &str {
        "jit"
    }

    fn run_with_device_queue(
        &self,
        launch: &Launch<'_>,
        globals: &ProgramGlobals,
        svm: &SvmSpace,
        config: Option<crate::enqueue::DeviceQueueConfig>,
    ) -> Result<RunStats, ExecError> {
        let module = launch.module;
        let kernel = module
            .kernels
            .get(launch.kernel)
            .ok_or(ExecError::NoSuchKernel(launch.kernel))?;
        let compiled = match self.compile(module, launch.kernel) {
            Ok(compiled) => compiled,
            Err(_) if self.fallback => {
                return self
                    .interp
                    .run_with_device_queue(launch, globals, svm, config)
            }
            Err(what) => return Err(unsupported(kernel, &what)),
        };
        let queue = crate::enqueue::DeviceQueue::new(config);
        let top = crate::interp::KernelRun {
            module,
            kernel,
            args: launch.args,
            nd: launch.nd,
            threads: launch.threads,
            prefix: None,
        };
        let mut stats = run(self, &top, globals, svm, &compiled, &queue)?;
        crate::enqueue::run_children(module, &queue, &mut stats, |child, queue| {
            let compiled = self
                .compile(module, CHILD_KERNEL_BASE + child.kernel.func.index())
                .map_err(|what| unsupported(&child.kernel, &what))?;
            let run_child = crate::interp::KernelRun {
                module,
                kernel: &child.kernel,
                args: &child.args,
                nd: child.nd,
                threads: launch.threads,
                prefix: Some(child.prefix),
            };
            run(self, &run_child, globals, svm, &compiled, queue)
        })?;
        Ok(stats)
    }
}

/// Cache keys of device-enqueued invoke functions: this plus the function's index.
const CHILD_KERNEL_BASE: usize = 1 << 40;

fn unsupported(kernel: &Kernel, what: &str) -> ExecError {
    ExecError::Unsupported {
        kernel: kernel.name.clone(),
        global_id: [0; 3],
        at: "compilation".into(),
        what: format!("the JIT cannot compile this kernel: {what}"),
    }
}

fn bad_arg(kernel: &Kernel, index: usize, reason: impl Into<String>) -> ExecError {
    ExecError::BadArgument {
        kernel: kernel.name.clone(),
        index,
        reason: reason.into(),
    }
}

/// Run-wide state shared read-only by the worker threads.
struct RunCtx<'a> {
    jit: &'a Jit,
    kernel: &'a Kernel,
    compiled: &'a Compiled,
    nd: NdRange,
    layout: PtrLayout,
    shared: Shared<'a>,
    local_sizes: Vec<usize>,
    private_inits: Vec<Vec<u8>>,
    params: Vec<u64>,
    has_barriers: bool,
    /// Whether work-items have private regions (module private variables or `stackalloc`):
    /// otherwise every work-item of a group has the same region table.
    has_private: bool,
}

// SAFETY: shared read-only by the workers; raw pointers follow the crate's launch contract.
unsafe impl Sync for RunCtx<'_> {}

fn run(
    jit: &Jit,
    launch: &crate::interp::KernelRun<'_>,
    program: &ProgramGlobals,
    svm: &SvmSpace,
    compiled: &Compiled,
    queue: &crate::enqueue::DeviceQueue,
) -> Result<RunStats, ExecError> {
    let module = launch.module;
    let kernel = launch.kernel;
    let mut nd = launch.nd;
    crate::interp::check_nd(&nd)?;
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
    let used = module.globals_used_by(kernel.func);
    for (g, loc) in program.globals.iter().enumerate() {
        if let GlobalLoc::Local(i) = loc {
            if !used.contains(&kir::GlobalRef::new(g)) {
                local_sizes[*i] = 0;
            }
        }
    }
    // Kernel arguments, as the interpreter reads them.
    let mut params: Vec<u64> = Vec::new();
    for (index, ((arg, value), ty)) in kernel
        .args
        .iter()
        .zip(launch.args)
        .zip(&compiled.params)
        .enumerate()
    {
        let param = crate::interp::bind_arg(
            kernel,
            index,
            arg,
            value,
            &layout,
            &mut shared,
            &mut local_sizes,
            jit.max_local_bytes,
            module.address_bits,
        )?;
        match &param {
            // Aggregates travel as one lane per byte.
            Val::A(bytes) => params.extend(bytes.iter().map(|&b| u64::from(b))),
            _ => {
                for i in 0..ty.lanes() as usize {
                    params.push(param.lane(i));
                }
            }
        }
    }
    if shared.len() > layout.max_shared() || local_sizes.len() > layout.max_local() {
        return Err(bad_arg(
            kernel,
            0,
            "too many memory regions for the pointer encoding",
        ));
    }
    let reaches = |pred: fn(&InstData) -> bool| {
        module
            .reachable_functions(kernel.func)
            .iter()
            .any(|f| module.functions[f.index()].dfg.insts.iter().any(pred))
    };
    let has_barriers =
        reaches(|i| matches!(i, InstData::Barrier { .. } | InstData::NamedBarrier { .. }));
    let has_private =
        !program.private_inits.is_empty() || reaches(|i| matches!(i, InstData::StackAlloc { .. }));
    let func_names = module.functions.iter().map(|f| f.name.clone()).collect();
    let ctx = RunCtx {
        jit,
        kernel,
        compiled,
        nd,
        layout,
        shared: Shared {
            kernel_name: &kernel.name,
            func_names,
            sites: &compiled.sites,
            layout,
            shared: &shared,
            svm,
            address_bits: module.address_bits,
            max_private_bytes: jit.max_private_bytes,
            queue,
        },
        local_sizes,
        private_inits: program.private_inits.clone(),
        params,
        has_barriers,
        has_private,
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
    // About 64 chunks per thread, so that threads still share the work evenly.
    let chunk = (total_groups / (threads as u64 * 64)).clamp(1, 64);
    // Groups blind to the work-group structure run as long rows (`fuse`).
    let fused = (fuse::Fusion::of(
        module,
        kernel,
        nd.local_size,
        &ctx.local_sizes,
        has_barriers,
        has_private,
    ) == fuse::Fusion::Lines)
        .then(|| fuse::Chunks::new(groups, if threads == 1 { total_groups } else { chunk }));
    let abort = AtomicBool::new(false);
    let results: Mutex<Vec<(u64, GroupResult)>> = Mutex::new(Vec::new());
    // Work-groups, work-items and barriers of the groups not kept in `results`.
    let quiet = Mutex::new([0u64; 3]);
    let worker = || {
        let mut state = Worker::new(&ctx);
        let mut mine = Vec::new();
        let mut counts = [0u64; 3];
        // Groups are taken `chunk` at a time: one shared counter update per chunk, not per
        // group (the counter's cache line moves between cores at every update).
        let (mut taken, mut end) = (0, 0);
        if let Some(chunks) = &fused {
            state.run_pieces(&ctx, chunks, &next, &abort, &mut counts, &mut mine);
        }
        loop {
            if abort.load(Ordering::Relaxed) || fused.is_some() {
                break;
            }
            if taken == end {
                taken = next.fetch_add(chunk, Ordering::Relaxed);
                end = (taken + chunk).min(total_groups);
            }
            if taken >= total_groups {
                break;
            }
            let g = taken;
            taken += 1;
            let group_id = [
                g % groups[0],
                (g / groups[0]) % groups[1],
                g / (groups[0] * groups[1]),
            ];
            let result = state.run_group(&ctx, group_id);
            if result.is_err() {
                abort.store(true, Ordering::Relaxed);
            }
            // Only groups with output or errors need to be kept in order.
            match result {
                Ok(out) if out.printf.is_empty() => {
                    counts[0] += 1;
                    counts[1] += out.work_items;
                    counts[2] += out.barriers;
                }
                other => mine.push((g, other)),
            }
        }
        state.release(ctx.layout);
        {
            let mut q = quiet.lock().unwrap_or_else(|e| e.into_inner());
            for (t, c) in q.iter_mut().zip(counts) {
                *t += c;
            }
        }
        results
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend(mine);
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
    let [groups_done, items_done, barriers_done] =
        quiet.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut stats = RunStats {
        work_groups: groups_done,
        work_items: items_done,
        barriers: barriers_done,
        ..RunStats::default()
    };
    for (_, result) in results {
        let group = result?;
        stats.work_groups += 1;
        stats.work_items += group.work_items;
        stats.barriers += group.barriers;
        stats.printf.extend_from_slice(&group.printf);
    }
    Ok(stats)
}

#[derive(Default)]
struct GroupOut {
    work_items: u64,
    barriers: u64,
    printf: Vec<u8>,
}

type GroupResult = Result<GroupOut, ExecError>;

/// Work-item contexts and coroutine stacks kept between launches (allocating them is the
/// expensive part of a short launch).
// Boxed: coroutines and JIT code hold each context's address.
#[allow(clippy::vec_box)]
struct Pool {
    ctxs: Vec<Box<ItemCtx>>,
    stacks: Vec<DefaultStack>,
}

// SAFETY: pooled contexts hold no live pointers (`clear_regions` ran); stacks are plain memory.
unsafe impl Send for Pool {}

static POOL: Mutex<Pool> = Mutex::new(Pool {
    ctxs: Vec::new(),
    stacks: Vec::new(),
});

/// Most pooled contexts and stacks kept.
const POOL_LIMIT: usize = 4096;

/// One worker thread's reusable state.
// Boxed: coroutines and JIT code hold each context's address.
#[allow(clippy::vec_box)]
struct Worker {
    local: Vec<Vec<u8>>,
    ctxs: Vec<Box<ItemCtx>>,
    stacks: Vec<DefaultStack>,
    /// Per row of the group, the first work-item whose spill words are still to be copied
    /// (`idle_rows`).
    idle_rows: Vec<u64>,
}

impl Worker {
    fn new(run: &RunCtx<'_>) -> Worker {
        Worker {
            local: run.local_sizes.iter().map(|&n| vec![0u8; n]).collect(),
            ctxs: Vec::new(),
            stacks: Vec::new(),
            idle_rows: Vec::new(),
        }
    }

    /// Context `i`, created on first use.
    fn ensure_ctxs(&mut self, run: &RunCtx<'_>, n: usize) {
        while self.ctxs.len() < n {
            let pooled = {
                let mut pool = POOL.lock().unwrap_or_else(|e| e.into_inner());
                let need = n - self.ctxs.len();
                let take = need.min(pool.ctxs.len());
                let at = pool.ctxs.len() - take;
                let mut got: Vec<Box<ItemCtx>> = pool.ctxs.split_off(at);
                let s_take = need.min(pool.stacks.len());
                let s_at = pool.stacks.len() - s_take;
                self.stacks.extend(pool.stacks.split_off(s_at));
                got.retain(|c| c.capacity() == 1usize << run.layout.tag_bits);
                got
            };
            let fresh = pooled.is_empty();
            for mut c in pooled {
                c.shared = (&run.shared as *const Shared<'_>).cast::<Shared<'static>>();
                c.params = run.params.as_ptr();
                c.set_shared(&run.shared);
                self.ctxs.push(c);
            }
            if !fresh {
                continue;
            }
            let mut c = ItemCtx::new(run.layout);
            c.shared = (&run.shared as *const Shared<'_>).cast::<Shared<'static>>();
            c.params = run.params.as_ptr();
            c.set_shared(&run.shared);
            self.ctxs.push(c);
        }
    }

    // The per-dimension loops fill several slots of one array.
    #[allow(clippy::manual_memcpy)]
    fn run_group(&mut self, run: &RunCtx<'_>, group_id: [u64; 3]) -> GroupResult {
        let nd = &run.nd;
        let mut local_size = [1u64; 3];
        for d in 0..3 {
            let start = group_id[d] * nd.local_size[d];
            local_size[d] = nd.local_size[d].min(nd.global_size[d] - start);
        }
        // Regions of other kernels are empty: no call at all (a `memset` per group, even of
        // 0 bytes, is glibc's AVX-512 routine, which slowed the kernel's own loop 1.5x).
        for region in self.local.iter_mut().filter(|r| !r.is_empty()) {
            region.fill(0);
        }
        let count = local_size[0] * local_size[1] * local_size[2];
        let num_groups = nd.num_groups();
        let mut wi = [0u64; slot::COUNT];
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
        // Local ids in local-linear order, advanced without divisions.
        let next_lid = |lid: &mut [u64; 3]| {
            lid[0] += 1;
            if lid[0] == local_size[0] {
                lid[0] = 0;
                lid[1] += 1;
                if lid[1] == local_size[1] {
                    lid[1] = 0;
                    lid[2] += 1;
                }
            }
        };
        let set_item = |wi: &mut [u64; slot::COUNT], lid: [u64; 3]| {
            for d in 0..3 {
                wi[slot::LOCAL_ID + d] = lid[d];
                wi[slot::GLOBAL_ID + d] =
                    nd.global_offset[d] + group_id[d] * nd.local_size[d] + lid[d];
            }
            let o = nd.global_offset;
            let s = nd.global_size;
            let g = [wi[0], wi[1], wi[2]];
            wi[slot::GLOBAL_LINEAR] = ((g[2].wrapping_sub(o[2]))
                .wrapping_mul(s[1])
                .wrapping_add(g[1].wrapping_sub(o[1])))
            .wrapping_mul(s[0])
            .wrapping_add(g[0].wrapping_sub(o[0]));
            wi[slot::LOCAL_LINEAR] = (lid[2] * local_size[1] + lid[1]) * local_size[0] + lid[0];
        };
        let entry = run.compiled.entry;
        let mut out = GroupOut {
            work_items: count,
            ..GroupOut::default()
        };
        if !run.has_barriers {
            self.ensure_ctxs(run, 1);
            let c = &mut self.ctxs[0];
            c.set_local(run.layout, &mut self.local);
            c.out.clear();
            set_item(&mut wi, [0; 3]);
            c.wi = wi;
            // Work-items in local-linear order, updating only the ids that change.
            let fresh_private = run.private_inits.is_empty();
            let base: [u64; 3] =
                std::array::from_fn(|d| nd.global_offset[d] + group_id[d] * nd.local_size[d]);
            let mut i = 0u64;
            let o = nd.global_offset;
            let s = nd.global_size;
            let linear = |g: [u64; 3]| {
                ((g[2].wrapping_sub(o[2]))
                    .wrapping_mul(s[1])
                    .wrapping_add(g[1].wrapping_sub(o[1])))
                .wrapping_mul(s[0])
                .wrapping_add(g[0].wrapping_sub(o[0]))
            };
            for z in 0..local_size[2] {
                for y in 0..local_size[1] {
                    if fresh_private && c.private.is_empty() {
                        // One call runs the whole row in native code.
                        let lid = [0, y, z];
                        for d in 0..3 {
                            c.wi[slot::LOCAL_ID + d] = lid[d];
                            c.wi[slot::GLOBAL_ID + d] = base[d] + lid[d];
                        }
                        c.wi[slot::GLOBAL_LINEAR] = linear([base[0], base[1] + y, base[2] + z]);
                        c.wi[slot::LOCAL_LINEAR] = i;
                        i += local_size[0];
                        run_row(run, c, local_size[0])?;
                        continue;
                    }
                    for x in 0..local_size[0] {
                        let lid = [x, y, z];
                        for d in 0..3 {
                            c.wi[slot::LOCAL_ID + d] = lid[d];
                            c.wi[slot::GLOBAL_ID + d] = base[d] + lid[d];
                        }
                        c.wi[slot::GLOBAL_LINEAR] = linear([base[0] + x, base[1] + y, base[2] + z]);
                        c.wi[slot::LOCAL_LINEAR] = i;
                        i += 1;
                        c.reset_private(run.layout, &run.private_inits);
                        let status = entry(&mut **c);
                        if status != 0 {
                            return Err(c.error.take().unwrap_or_else(|| lost_error(run, c)));
                        }
                    }
                }
            }
            out.printf = std::mem::take(&mut c.out);
            return Ok(out);
        }
        if let (Some(phase), false) = (run.compiled.phase, run.has_private) {
            set_item(&mut wi, [0; 3]);
            self.run_phases(run, group_id, local_size, wi, phase, &mut out)?;
            return Ok(out);
        }
        let n = usize::try_from(count).unwrap_or(usize::MAX);
        self.ensure_ctxs(run, n);
        if let Some(step) = run.compiled.step {
            // Without private regions the group's work-items share work-item 0's region table
            // (one set of hot cache lines instead of one per work-item).
            self.ctxs[0].set_local(run.layout, &mut self.local);
            let table = self.ctxs[0].table;
            let mut lid = [0u64; 3];
            for i in 0..n {
                let c = &mut self.ctxs[i];
                set_item(&mut wi, lid);
                next_lid(&mut lid);
                c.wi = wi;
                if i > 0 && run.has_private {
                    c.set_local(run.layout, &mut self.local);
                } else if i > 0 {
                    c.local = &mut self.local;
                    c.table = table;
                }
                c.reset_private(run.layout, &run.private_inits);
                c.out.clear();
                c.error = None;
                if c.spill_store.len() < run.compiled.spill_words {
                    c.spill_store.resize(run.compiled.spill_words, 0);
                }
                c.spill = c.spill_store.as_mut_ptr();
            }
            self.drive_split(run, group_id, step, n, &mut out)?;
            return Ok(out);
        }
        let mut coros = Vec::with_capacity(n);
        let mut lid = [0u64; 3];
        for i in 0..n {
            let c = &mut self.ctxs[i];
            set_item(&mut wi, lid);
            next_lid(&mut lid);
            c.wi = wi;
            c.set_local(run.layout, &mut self.local);
            c.reset_private(run.layout, &run.private_inits);
            c.out.clear();
            c.error = None;
            let stack = match self.stacks.pop() {
                Some(s) => s,
                None => DefaultStack::new(run.jit.coroutine_stack).map_err(|e| {
                    ExecError::Unsupported {
                        kernel: run.kernel.name.clone(),
                        global_id: [0; 3],
                        at: "work-group start".into(),
                        what: format!("cannot allocate a work-item stack: {e}"),
                    }
                })?,
            };
            let ctx_addr = &mut **c as *mut ItemCtx as usize;
            let co: Coroutine<bool, u64, i32, DefaultStack> =
                Coroutine::with_stack(stack, move |y, _abort: bool| {
                    let ctx = ctx_addr as *mut ItemCtx;
                    // SAFETY: the context outlives the coroutine (both live through this group).
                    unsafe { (*ctx).yielder = y as *const _ };
                    entry(ctx)
                });
            coros.push(co);
        }
        let result = self.drive(run, group_id, &mut coros, &mut out);
        // Finish every suspended work-item (told to abort), then keep the stacks.
        for co in &mut coros {
            while !co.done() {
                if let CoroutineResult::Return(_) = co.resume(true) {
                    break;
                }
            }
        }
        for co in coros {
            self.stacks.push(co.into_stack());
        }
        result.map(|()| out)
    }

    /// Runs the group's coroutines phase by phase, between barriers.
    fn drive(
        &mut self,
        run: &RunCtx<'_>,
        group_id: [u64; 3],
        coros: &mut [Coroutine<bool, u64, i32, DefaultStack>],
        out: &mut GroupOut,
    ) -> Result<(), ExecError> {
        use crate::named_barrier::{divergence_detail, Next, Schedule, Stop};
        // Work-group and named barriers (`crate::named_barrier`).
        let mut schedule = Schedule::new(coros.len());
        let mut order: Vec<usize> = (0..coros.len()).collect();
        loop {
            for &i in &order {
                let r = coros[i].resume(false);
                let c = &mut self.ctxs[i];
                out.printf.append(&mut c.out);
                let stop = match r {
                    CoroutineResult::Yield(site) => {
                        let s = &run.compiled.sites[site as usize];
                        match c.named_barrier.take() {
                            Some(handle) => Stop::Named(handle, s.func, s.inst),
                            None => Stop::Barrier(s.func, s.inst),
                        }
                    }
                    CoroutineResult::Return(0) => Stop::Done,
                    CoroutineResult::Return(_) => {
                        return Err(c.error.take().unwrap_or_else(|| lost_error(run, c)));
                    }
                };
                schedule
                    .stopped(i, stop)
                    .map_err(|detail| ExecError::BarrierDivergence {
                        kernel: run.kernel.name.clone(),
                        group_id,
                        detail,
                    })?;
            }
            let next = schedule
                .next()
                .map_err(|stuck| ExecError::BarrierDivergence {
                    kernel: run.kernel.name.clone(),
                    group_id,
                    detail: divergence_detail(stuck, |i| self.ctxs[i].local_id()),
                })?;
            out.barriers = schedule.barriers;
            match next {
                Next::Finished => return Ok(()),
                Next::Run(r) => order = r,
            }
        }
    }
}

impl Worker {
    /// Runs a group of a kernel split at its barriers: every work-item to its next barrier,
    /// then (all stopped at the same one) every work-item on from there, until all return.
    /// Errors and divergence are reported as by the coroutine driver.
    fn drive_split(
        &mut self,
        run: &RunCtx<'_>,
        group_id: [u64; 3],
        step: extern "C" fn(*mut ItemCtx, u32) -> i32,
        n: usize,
        out: &mut GroupOut,
    ) -> Result<(), ExecError> {
        let mut resume = 0u32;
        loop {
            // Stop of work-item 0 (0: returned, s + 1: barrier site s) and the first other.
            let mut first = None;
            let mut other = None;
            for i in 0..n {
                let c = &mut self.ctxs[i];
                let status = step(&mut **c, resume);
                if !c.out.is_empty() {
                    out.printf.append(&mut c.out);
                }
                if status > 0 {
                    return Err(c.error.take().unwrap_or_else(|| lost_error(run, c)));
                }
                let stop = if status == 0 {
                    0
                } else {
                    status.unsigned_abs()
                };
                match first {
                    None => first = Some(stop),
                    Some(f) if f != stop && other.is_none() => other = Some((i, stop)),
                    _ => {}
                }
            }
            let first = first.unwrap_or(0);
            if let Some((i, stop)) = other {
                let (lid0, lid) = (self.ctxs[0].local_id(), self.ctxs[i].local_id());
                return Err(barrier_divergence(
                    run,
                    group_id,
                    (lid0, first),
                    (lid, stop),
                ));
            }
            if first == 0 {
                return Ok(());
            }
            out.barriers += 1;
            resume = first;
        }
    }

    /// Returns the contexts and stacks to the pool.
    fn release(&mut self, layout: PtrLayout) {
        let mut pool = POOL.lock().unwrap_or_else(|e| e.into_inner());
        for mut c in self.ctxs.drain(..) {
            if pool.ctxs.len() < POOL_LIMIT {
                c.clear_regions(layout);
                c.shared = std::ptr::null();
                c.params = std::ptr::null();
                c.local = std::ptr::null_mut();
                pool.ctxs.push(c);
            }
        }
        for s in self.stacks.drain(..) {
            if pool.stacks.len() < POOL_LIMIT {
                pool.stacks.push(s);
            }
        }
    }
}

fn lost_error(run: &RunCtx<'_>, c: &ItemCtx) -> ExecError {
    ExecError::Unsupported {
        kernel: run.kernel.name.clone(),
        global_id: c.global_id(),
        at: "jit".into(),
        what: "a work-item stopped without recording why".into(),
    }
}

/// Runs work-items x = 0..n of a row whose x = 0 ids the context holds: whole iterations on
/// the vectorised loop when the kernel has one, the rest on the scalar loop. An iteration the
/// vectorised loop abandons (`compile::BAIL`: its work-items disagree at a branch, or an access
/// failed before any effect) runs on the scalar loop, which reports errors exactly.
fn run_row(run: &RunCtx<'_>, c: &mut ItemCtx, n: u64) -> Result<(), ExecError> {
    const IDS: [usize; 4] = [
        slot::LOCAL_ID,
        slot::GLOBAL_ID,
        slot::GLOBAL_LINEAR,
        slot::LOCAL_LINEAR,
    ];
    let fail = |c: &mut ItemCtx| c.error.take().unwrap_or_else(|| lost_error(run, c));
    // Calls store their work-item's ids in the context: x = 0's are kept here.
    let x0 = c.wi;
    let mut done = 0;
    if let Some(vec_row) = run.compiled.row_vec {
        let w = run.compiled.vec_width;
        while n - done >= w {
            for s in IDS {
                c.wi[s] = x0[s] + done;
            }
            let status = vec_row(c, n - done);
            if status == compile::BAIL {
                c.error = None;
                let at = done + c.resolved;
                for s in IDS {
                    c.wi[s] = x0[s] + at;
                }
                if (run.compiled.row)(c, w) != 0 {
                    return Err(fail(c));
                }
                done = at + w;
                continue;
            }
            if status != 0 {
                return Err(fail(c));
            }
            done = n - (n - done) % w;
        }
    }
    if done < n {
        for s in IDS {
            c.wi[s] = x0[s] + done;
        }
        if (run.compiled.row)(c, n - done) != 0 {
            return Err(fail(c));
        }
    }
    Ok(())
}

/// The error of a group whose work-items stopped at different places: `(local id, stop)` of
/// work-item 0 and of the first other, a stop being 0 (returned) or barrier site + 1.
fn barrier_divergence(
    run: &RunCtx<'_>,
    group_id: [u64; 3],
    (lid0, first): ([u64; 3], u32),
    (lid, stop): ([u64; 3], u32),
) -> ExecError {
    let describe = |s: u32| match s.checked_sub(1) {
        None => "returned".to_string(),
        Some(site) => {
            let s = &run.compiled.sites[site as usize];
            format!("waits at the barrier fn{} {}", s.func, s.inst)
        }
    };
    ExecError::BarrierDivergence {
        kernel: run.kernel.name.clone(),
        group_id,
        detail: format!(
            "local work-item {:?} {} but local work-item {:?} {}",
            lid0,
            describe(first),
            lid,
            describe(stop)
        ),
    }
}
