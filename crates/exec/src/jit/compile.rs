//! kir → Cranelift IR → native code.
//!
//! Every kir function reachable from the kernel becomes one native function
//! `(ctx, lanes…) -> (status, lanes…)`: vectors are scalarised (one Cranelift value per lane),
//! bools are `i8` 0/1, `f16` lanes are their `i16` bits, pointers are the interpreter's encoded
//! `i64`. A nonzero status means the work-item stopped with an error recorded in the context
//! (see `rt`); callers pass it up. An entry wrapper `(ctx) -> status` reads the kernel's
//! parameter lanes from the context and calls the kernel function.
//!
//! Inline: integer and `f32`/`f64` arithmetic (division by zero gives 0, `sdiv` overflow wraps,
//! shifts modulo the width), comparisons, selects, lane operations, pointer arithmetic, loads
//! and stores with an inline bounds check against the region table, work-item queries, calls,
//! branches, integer width conversions, `f32`/`f64` `sqrt`/`fabs`/`floor`/`ceil`/`trunc`/
//! `copysign`, integer atomics on 4/8-byte memory (native atomic instructions when in bounds and
//! aligned). The kernel function is also compiled as a row loop (`RowLoop`) or, when it holds
//! barriers, as a function resumable after each (`Resumable`, see `barrier`) and as a loop
//! over a row of work-items per phase (`phase`). Everything else calls a helper that runs the interpreter's own code for one lane
//! or one instruction. Aggregates (up to 256 bytes) are one `i8` lane per byte. Not supported
//! (the engine falls back to the interpreter): larger aggregates, recursion, calls of functions
//! without a body.

use std::collections::HashMap;

use cranelift_codegen::entity::packed_option::ReservedValue;
use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{
    types, AbiParam, BlockArg, InstBuilder, MemFlagsData, Signature, StackSlotData, StackSlotKind,
};
use cranelift_codegen::settings::{self, Configurable};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{FuncId, Linkage, Module as _};
use kir::{
    AddrSpace, BinaryOp, BuiltinFn, CmpOp, ConvertOp, Function, InstData, ReduceOp, Rounding,
    ScalarType, TestOp, Type, UnaryOp, Value, WorkItemQuery,
};

mod vector;

pub use vector::BAIL;

use super::disk_cache::CodeStore;
use super::rt::{self, code, slot, Site, SiteKind};
use crate::interp::memory::{PtrLayout, RegionRef};

mod phase;
mod phase_entry;
mod remat;

type ClValue = cranelift_codegen::ir::Value;
type ClType = cranelift_codegen::ir::Type;

/// A compiled kernel.
pub struct Compiled {
    /// Owns the code; never used after finalisation except to keep it alive.
    _module: JITModule,
    pub entry: extern "C" fn(*mut rt::ItemCtx) -> i32,
    /// Runs work-items x = 0..n of a row (ids of x = 0 set in the context).
    pub row: extern "C" fn(*mut rt::ItemCtx, u64) -> i32,
    pub sites: Vec<Site>,
    /// Types of the kernel function's parameters (their lanes are passed as u64s).
    pub params: Vec<Type>,
    /// Kernels split at their barriers (see `barrier`): runs a work-item from the start
    /// (`resume` 0) or after the barrier of site `resume - 1` to its next barrier (status
    /// `-(site + 1)`), its end (0) or an error (positive).
    pub step: Option<extern "C" fn(*mut rt::ItemCtx, u32) -> i32>,
    /// u64 words of the spill area each work-item needs for `step` and `phase`.
    pub spill_words: usize,
    /// The stride of a work-item's words in the phase loops' spill area (<= `spill_words`).
    pub phase_spill_words: usize,
    /// The vectorised row loop (see `vector`): runs work-items x = 0..n − n mod `vec_width`
    /// of a row, `vec_width` at a time; `None` when the kernel is not vectorised.
    pub row_vec: Option<extern "C" fn(*mut rt::ItemCtx, u64) -> i32>,
    /// Work-items per iteration of `row_vec`.
    pub vec_width: u64,
    /// Kernels split at their barriers, without `stackalloc`: runs a row of work-items to
    /// their next barrier as one loop (see `compile::phase`).
    pub phase: Option<extern "C" fn(*mut rt::ItemCtx, u64, u32) -> i32>,
    /// The vectorised phase loop (see `vector::phase`): `(ctx, n, resume, start, stop0)`,
    /// `vec_width` work-items per iteration.
    pub phase_vec: Option<PhaseVecFn>,
    /// `phase` and `phase_vec` specialised to one resume point each (see `phase_entry`).
    pub phase_at: Vec<PhaseAt>,
}

/// The phase loops specialised to resume point `resume` (they take it and ignore it).
#[derive(Clone, Copy)]
pub struct PhaseAt {
    pub resume: u32,
    pub scalar: extern "C" fn(*mut rt::ItemCtx, u64, u32) -> i32,
    pub vec: Option<PhaseVecFn>,
}

/// The vectorised phase loop's signature.
pub type PhaseVecFn = extern "C" fn(*mut rt::ItemCtx, u64, u32, u64, i32) -> i32;
pub use vector::idle::PHASE_IDLE;
pub use vector::phase::PHASE_BAIL;

// SAFETY: the JIT module is only kept alive; compiled code is immutable and reentrant.
unsafe impl Send for Compiled {}
// SAFETY: as above.
unsafe impl Sync for Compiled {}

/// Why a kernel could not be compiled (the engine then uses the interpreter).
pub type Unsupported = String;

fn lane_cl(s: ScalarType) -> ClType {
    match s {
        ScalarType::Bool | ScalarType::I8 => types::I8,
        ScalarType::I16 | ScalarType::F16 => types::I16,
        ScalarType::I32 => types::I32,
        ScalarType::I64 => types::I64,
        ScalarType::F32 => types::F32,
        ScalarType::F64 => types::F64,
    }
}

/// Lane types of a kir type (pointers: one i64).
fn lanes_of(ty: Type) -> Result<Vec<(ClType, Option<ScalarType>)>, Unsupported> {
    match ty {
        Type::Ptr(_) => Ok(vec![(types::I64, None)]),
        // Aggregates are their bytes, one i8 lane each.
        Type::Agg { size, .. } if size <= MAX_AGG_BYTES => {
            Ok(vec![(types::I8, Some(ScalarType::I8)); size as usize])
        }
        Type::Agg { .. } => Err("aggregate values larger than 256 bytes".into()),
        t => {
            let s = t.lane_type().ok_or("unknown type")?;
            Ok(vec![(lane_cl(s), Some(s)); t.lanes() as usize])
        }
    }
}

/// The largest aggregate held in SSA values (as byte lanes).
const MAX_AGG_BYTES: u32 = 256;

struct Helpers {
    ids: HashMap<&'static str, FuncId>,
}

/// (name, address, params, returns) of every helper.
fn helper_list() -> Vec<(&'static str, *const u8, Vec<ClType>, Vec<ClType>)> {
    let (i32t, i64t) = (types::I32, types::I64);
    vec![
        (
            "jit_resolve",
            rt::jit_resolve as *const u8,
            vec![i64t, i32t, i64t, i64t, i32t],
            vec![i64t],
        ),
        (
            "jit_lane_unary",
            rt::jit_lane_unary as *const u8,
            vec![i32t, i32t, i64t],
            vec![i64t],
        ),
        (
            "jit_lane_binary",
            rt::jit_lane_binary as *const u8,
            vec![i32t, i32t, i64t, i64t],
            vec![i64t],
        ),
        (
            "jit_lane_cmp",
            rt::jit_lane_cmp as *const u8,
            vec![i32t, i32t, i64t, i64t],
            vec![i64t],
        ),
        (
            "jit_lane_test",
            rt::jit_lane_test as *const u8,
            vec![i32t, i32t, i64t],
            vec![i64t],
        ),
        (
            "jit_lane_convert",
            rt::jit_lane_convert as *const u8,
            vec![i32t, i32t, i32t, i32t, i32t, i64t],
            vec![i64t],
        ),
        (
            "jit_builtin_lane",
            rt::jit_builtin_lane as *const u8,
            vec![i32t, i32t, i32t, i32t, i64t, i64t, i64t],
            vec![i64t],
        ),
        (
            "jit_builtin",
            rt::jit_builtin as *const u8,
            vec![i64t, i32t, i64t, i64t],
            vec![i32t],
        ),
        (
            "jit_image",
            super::image_rt::jit_image as *const u8,
            vec![i64t, i32t, i64t, i64t],
            vec![i32t],
        ),
        (
            "jit_atomic",
            rt::jit_atomic as *const u8,
            vec![i64t, i32t, i64t, i64t, i64t, i64t],
            vec![i32t],
        ),
        (
            "jit_memop",
            rt::jit_memop as *const u8,
            vec![i64t, i32t, i32t, i64t, i64t, i64t],
            vec![i32t],
        ),
        (
            "jit_stackalloc",
            rt::jit_stackalloc as *const u8,
            vec![i64t, i32t, i64t],
            vec![i32t],
        ),
        (
            "jit_private_mark",
            rt::jit_private_mark as *const u8,
            vec![i64t],
            vec![i64t],
        ),
        (
            "jit_private_release",
            rt::jit_private_release as *const u8,
            vec![i64t, i64t],
            vec![],
        ),
        (
            "jit_work_item_dyn",
            rt::jit_work_item_dyn as *const u8,
            vec![i64t, i32t, i64t],
            vec![i64t],
        ),
        (
            "jit_unreachable",
            rt::jit_unreachable as *const u8,
            vec![i64t, i32t],
            vec![i32t],
        ),
        (
            "jit_barrier",
            rt::jit_barrier as *const u8,
            vec![i64t, i32t],
            vec![i32t],
        ),
        (
            "jit_named_barrier",
            rt::jit_named_barrier as *const u8,
            vec![i64t, i32t, i64t],
            vec![i32t],
        ),
        (
            "jit_pipe",
            super::pipe_rt::jit_pipe as *const u8,
            vec![i64t, i32t, i32t, i32t, i64t, i32t, i64t],
            vec![i32t],
        ),
        (
            "jit_enqueue",
            super::enqueue_rt::jit_enqueue as *const u8,
            vec![i64t, i32t, i32t, i32t, i64t, i32t, i64t],
            vec![i32t],
        ),
        (
            "jit_ptr_space",
            rt::jit_ptr_space as *const u8,
            vec![i64t, i64t],
            vec![i32t],
        ),
    ]
}

fn sig_of(module: &JITModule, params: &[ClType], rets: &[ClType]) -> Signature {
    let mut sig = module.make_signature();
    sig.params.extend(params.iter().map(|&t| AbiParam::new(t)));
    sig.returns.extend(rets.iter().map(|&t| AbiParam::new(t)));
    sig
}

/// Where each module variable lives (the interpreter's `ProgramGlobals` numbering).
fn global_pointers(module: &kir::Module, layout: PtrLayout) -> Vec<u64> {
    let (mut shared, mut local, mut private) = (0, 0, 0);
    module
        .globals
        .iter()
        .map(|g| {
            let region = match g.space {
                AddrSpace::Local => {
                    local += 1;
                    RegionRef::Local(local - 1)
                }
                AddrSpace::Private => {
                    private += 1;
                    RegionRef::Private(private - 1)
                }
                _ => {
                    shared += 1;
                    RegionRef::Shared(shared - 1)
                }
            };
            layout.encode(region, 0)
        })
        .collect()
}

/// Functions reachable from `root`; an error on recursion or a missing body.
fn call_order(module: &kir::Module, root: usize) -> Result<Vec<usize>, Unsupported> {
    // Depth-first search with colours to find cycles.
    fn visit(
        module: &kir::Module,
        f: usize,
        state: &mut [u8],
        order: &mut Vec<usize>,
    ) -> Result<(), Unsupported> {
        match state.get(f) {
            None => return Err(format!("call of missing fn{f}")),
            Some(1) => return Err("recursion".into()),
            Some(2) => return Ok(()),
            _ => {}
        }
        state[f] = 1;
        let func = &module.functions[f];
        if func.entry_block().is_none() {
            return Err(format!("call of fn{f} {:?}, which has no body", func.name));
        }
        for data in &func.dfg.insts {
            if let InstData::Call { func: callee, .. } = data {
                visit(module, callee.index(), state, order)?;
            }
        }
        state[f] = 2;
        order.push(f);
        Ok(())
    }
    let mut state = vec![0u8; module.functions.len()];
    let mut order = Vec::new();
    visit(module, root, &mut state, &mut order)?;
    Ok(order)
}

/// Compiles kernel `kernel` of `module`, each function's machine code taken from `store` when
/// it holds code for the same Cranelift IR (see `disk_cache`).
pub fn compile(
    module: &kir::Module,
    kernel: usize,
    store: &mut CodeStore,
) -> Result<Compiled, Unsupported> {
    let k = module.kernels.get(kernel).ok_or("no such kernel")?;
    compile_function(module, k.func, store)
}

/// Compiles function `kernel_func` of `module` as a kernel (also the invoke function of a
/// device-side enqueue).
pub fn compile_function(
    module: &kir::Module,
    kernel_func: kir::FuncRef,
    store: &mut CodeStore,
) -> Result<Compiled, Unsupported> {
    // Small pure functions are inlined (kir::inline): the vectorised loop then runs across
    // what were calls.
    let inlined = kir::inline::inline_pure_calls(module);
    let module = inlined.as_ref().unwrap_or(module);
    let order = call_order(module, kernel_func.index())?;
    // `OXCL_JIT_DUMP=1` also prints the kir functions compiled (see `disk_cache`).
    if std::env::var_os("OXCL_JIT_DUMP").is_some_and(|v| v != "0") {
        for &f in &order {
            eprintln!("== kir fn{f}\n{}", module.functions[f]);
        }
    }
    for &f in &order {
        let func = &module.functions[f];
        for v in &func.dfg.values {
            lanes_of(v.ty)?;
        }
        for t in func.sig.params.iter().chain(func.sig.ret.iter()) {
            lanes_of(*t)?;
        }
    }
    let mut flags = settings::builder();
    let set = |flags: &mut settings::Builder, k: &str, v: &str| {
        flags
            .set(k, v)
            .map_err(|e| format!("cranelift flag {k}: {e}"))
    };
    set(&mut flags, "use_colocated_libcalls", "false")?;
    set(&mut flags, "is_pic", "false")?;
    set(&mut flags, "opt_level", "speed")?;
    set(&mut flags, "enable_multi_ret_implicit_sret", "true")?;
    let isa = cranelift_native::builder()
        .map_err(|e| format!("no native Cranelift target: {e}"))?
        .finish(settings::Flags::new(flags))
        .map_err(|e| format!("Cranelift ISA: {e}"))?;
    let mut jb = JITBuilder::with_isa(isa, cranelift_module::default_libcall_names());
    let list = helper_list();
    for (name, addr, _, _) in &list {
        jb.symbol(*name, *addr);
    }
    for d in super::math_rt::all() {
        jb.symbol(d.name, d.addr);
    }
    let mut jm = JITModule::new(jb);
    let mut helpers = Helpers {
        ids: HashMap::new(),
    };
    for (name, _, params, rets) in &list {
        let sig = sig_of(&jm, params, rets);
        let id = jm
            .declare_function(name, Linkage::Import, &sig)
            .map_err(|e| e.to_string())?;
        helpers.ids.insert(*name, id);
    }
    let tc = jm.target_config();
    let mut fctx = FunctionBuilderContext::new();
    let mut cctx = jm.make_context();
    // `kir_resolve`: `jit_resolve` for the slow path of every access, with a calling
    // convention that preserves every register, so that hot code keeps its values in
    // registers around the (rarely taken) call instead of spilling them (the address found
    // is returned in `ItemCtx::resolved`).
    {
        let i32t = types::I32;
        let i64t = types::I64;
        let mut sig = Signature::new(cranelift_codegen::isa::CallConv::PreserveAll);
        for t in [i64t, i32t, i64t, i64t, i32t] {
            sig.params.push(AbiParam::new(t));
        }
        let id = jm
            .declare_function("kir_resolve", Linkage::Local, &sig)
            .map_err(|e| e.to_string())?;
        cctx.func.signature = sig;
        {
            let mut b = FunctionBuilder::new(&mut cctx.func, &mut fctx);
            let block = b.create_block();
            b.append_block_params_for_function_params(block);
            b.switch_to_block(block);
            let args = b.block_params(block).to_vec();
            let callee = jm.declare_func_in_func(helpers.ids["jit_resolve"], b.func);
            let call = b.ins().call(callee, &args);
            let addr = b.inst_results(call)[0];
            b.ins()
                .store(MemFlagsData::trusted(), addr, args[0], rt::OFF_RESOLVED);
            b.ins().return_(&[]);
            b.seal_all_blocks();
            b.finalize(tc);
        }
        store
            .define(&mut jm, id, &mut cctx)
            .map_err(|e| format!("Cranelift rejected kir_resolve: {e}"))?;
        jm.clear_context(&mut cctx);
        helpers.ids.insert("kir_resolve", id);
    }
    let root = kernel_func.index();
    let barrier_in = |f: usize| {
        module.functions[f]
            .dfg
            .insts
            .iter()
            .any(super::barrier::is_group_barrier)
    };
    // Named barriers release work-items in any order: those kernels run as coroutines.
    let named = order.iter().any(|&f| {
        module.functions[f]
            .dfg
            .insts
            .iter()
            .any(|i| matches!(i, InstData::NamedBarrier { .. }))
    });
    let resumable =
        !named && barrier_in(root) && order.iter().all(|&f| f == root || !barrier_in(f));
    let sig_for = |jm: &JITModule, f: usize| -> Result<Signature, Unsupported> {
        let mut sig = kir_sig(jm, &module.functions[f])?;
        if resumable && f == root {
            sig.params.insert(1, AbiParam::new(types::I32));
        }
        Ok(sig)
    };
    // Declare the kir functions.
    let mut func_ids: HashMap<usize, FuncId> = HashMap::new();
    for &f in &order {
        let sig = sig_for(&jm, f)?;
        let id = jm
            .declare_function(&format!("kir_fn{f}"), Linkage::Local, &sig)
            .map_err(|e| e.to_string())?;
        func_ids.insert(f, id);
    }
    let layout = PtrLayout::new(module.address_bits);
    let globals = global_pointers(module, layout);
    let mut spill_words = 0usize;
    let mut phase_spill_words = 0usize;
    let mut sites = Vec::new();
    // Every function, then (kernels without barriers) the kernel again as a loop over a row.
    let row_fn_id = if resumable {
        None
    } else {
        let sig = sig_of(&jm, &[types::I64, types::I64], &[types::I32]);
        Some(
            jm.declare_function("kir_row_loop", Linkage::Local, &sig)
                .map_err(|e| e.to_string())?,
        )
    };
    // The vectorised row loop, when the kernel allows it (see `vector`).
    let vec_allowed = !resumable
        && !std::env::var("OXCL_VEC").is_ok_and(|v| v == "0")
        && vector::callees_allowed(module, &order);
    // Its short counted loops unrolled (`vector::counted_unroll`), when it still vectorises.
    let analyse_vec = |func: &kir::Function| {
        func.entry_block()
            .filter(|_| vec_allowed)
            .and_then(|entry| vector::analyse(func, &rpo(func, entry)).ok())
    };
    let mut vec_unrolled = vec_allowed
        .then(|| vector::counted_unroll::unroll_counted_loops(&module.functions[root]))
        .flatten();
    let mut vec_shapes = vec_unrolled.as_ref().and_then(|u| analyse_vec(&u.func));
    if vec_shapes.is_none() {
        vec_unrolled = None;
        vec_shapes = analyse_vec(&module.functions[root]);
    }
    if let Some(u) = vec_unrolled.as_ref() {
        if std::env::var_os("OXCL_JIT_DUMP").is_some_and(|v| v != "0") {
            eprintln!("== kir fn{root} unrolled for kir_row_vec\n{}", u.func);
        }
    }
    let vec_fn_id = match vec_shapes {
        Some(_) => {
            let sig = sig_of(&jm, &[types::I64, types::I64], &[types::I32]);
            Some(
                jm.declare_function("kir_row_vec", Linkage::Local, &sig)
                    .map_err(|e| e.to_string())?,
            )
        }
        None => None,
    };
    // Kernels split at their barriers, also as a loop over a row per phase (`compile::phase`).
    let phase_sig = sig_of(&jm, &[types::I64, types::I64, types::I32], &[types::I32]);
    let stackalloc = order.iter().any(|&f| {
        module.functions[f]
            .dfg
            .insts
            .iter()
            .any(|i| matches!(i, InstData::StackAlloc { .. }))
    });
    let phase_fn_id = if resumable && !stackalloc {
        Some(
            jm.declare_function("kir_phase", Linkage::Local, &phase_sig)
                .map_err(|e| e.to_string())?,
        )
    } else {
        None
    };
    // The vectorised phase loop, when the kernel allows it (see `vector::phase`).
    let phase_vec_sig = sig_of(
        &jm,
        &[types::I64, types::I64, types::I32, types::I64, types::I32],
        &[types::I32],
    );
    // The vectorised phase loop translates a copy with strided induction variables made
    // affine, when that copy is vectorisable (`vector::uniform_step`).
    let mut phase_copy = None;
    let mut phase_shapes = match phase_fn_id {
        Some(_) if !std::env::var("OXCL_VEC").is_ok_and(|v| v == "0") => {
            let analyse = |func: &kir::Function| {
                func.entry_block()
                    .filter(|_| vector::phase::phase_callees_allowed(module, &order))
                    .and_then(|entry| {
                        let a = vector::phase::analyse_phase(func, &rpo(func, entry));
                        if let (Err(e), true) = (&a, std::env::var_os("OXCL_JIT_DUMP").is_some()) {
                            eprintln!("== no vectorised phase loop: {e}");
                        }
                        a.ok()
                    })
            };
            phase_copy = vector::uniform_step::specialise(&module.functions[root]);
            if let (Some(c), true) = (&phase_copy, std::env::var_os("OXCL_JIT_DUMP").is_some()) {
                eprintln!("== kir copy for the vectorised phase loop\n{c}");
            }
            match phase_copy.as_ref().and_then(analyse) {
                Some(a) => Some(a),
                None => {
                    phase_copy = None;
                    analyse(&module.functions[root])
                }
            }
        }
        _ => None,
    };
    // Each specialised vectorised copy (`phase_entry`) translates from its own clone.
    let phase_analysis = phase_shapes.clone();
    let phase_vec_fn_id = match phase_shapes {
        Some(_) => Some(
            jm.declare_function("kir_phase_vec", Linkage::Local, &phase_vec_sig)
                .map_err(|e| e.to_string())?,
        ),
        None => None,
    };
    // The phase loops again, one copy per resume point (see `phase_entry`).
    let mut entry_ids = Vec::new();
    if phase_fn_id.is_some() {
        for (k, e) in phase_entry::phase_entries(&module.functions[root])
            .into_iter()
            .enumerate()
        {
            let scalar = jm
                .declare_function(&format!("kir_phase_at{k}"), Linkage::Local, &phase_sig)
                .map_err(|e| e.to_string())?;
            let vec = match phase_vec_fn_id {
                Some(_) => Some(
                    jm.declare_function(
                        &format!("kir_phase_vec_at{k}"),
                        Linkage::Local,
                        &phase_vec_sig,
                    )
                    .map_err(|e| e.to_string())?,
                ),
                None => None,
            };
            entry_ids.push((e, scalar, vec));
        }
    }
    let passes: Vec<(usize, bool, bool, phase_entry::PhaseCopy)> = order
        .iter()
        .map(|&f| (f, false, false, None))
        .chain(
            row_fn_id
                .or(phase_fn_id.filter(|_| entry_ids.is_empty()))
                .map(|_| (root, true, false, None)),
        )
        .chain(
            vec_fn_id
                .or(phase_vec_fn_id.filter(|_| entry_ids.is_empty()))
                .map(|_| (root, true, true, None)),
        )
        .chain(entry_ids.iter().flat_map(|&(e, scalar, vec)| {
            std::iter::once((root, true, false, Some((e, scalar))))
                .chain(vec.map(|id| (root, true, true, Some((e, id)))))
        }))
        .collect();
    for (f, row_mode, vec_mode, special) in passes {
        if let (Some(_), true) = (special, vec_mode) {
            phase_shapes = phase_analysis.clone();
        }
        let unrolled = vec_unrolled.as_ref().filter(|_| vec_mode && !resumable);
        let func = match &phase_copy {
            Some(copy) if row_mode && resumable && vec_mode => copy,
            _ => unrolled.map_or(&module.functions[f], |u| &u.func),
        };
        let first_site = sites.len();
        cctx.func.signature = if row_mode && resumable && vec_mode {
            phase_vec_sig.clone()
        } else if row_mode && resumable {
            phase_sig.clone()
        } else if row_mode {
            sig_of(&jm, &[types::I64, types::I64], &[types::I32])
        } else {
            sig_for(&jm, f)?
        };
        {
            let mut b = FunctionBuilder::new(&mut cctx.func, &mut fctx);
            let mut t = Translator {
                m: &mut jm,
                b: &mut b,
                module,
                func,
                func_index: f,
                helpers: &helpers,
                func_ids: &func_ids,
                sites: &mut sites,
                layout,
                globals: &globals,
                vals: vec![None; func.dfg.num_values()],
                blocks: HashMap::new(),
                ctx: ClValue::reserved_value(),
                fail: cranelift_codegen::ir::Block::reserved_value(),
                mark: None,
                resumable: (resumable && f == root).then(|| Resumable {
                    vars: Vec::new(),
                    live: HashMap::new(),
                    resumes: Vec::new(),
                    mark_var: cranelift_frontend::Variable::reserved_value(),
                    spill_words: 0,
                }),
                row: row_mode.then_some(RowLoop {
                    i: ClValue::reserved_value(),
                    base: [ClValue::reserved_value(); 4],
                    latch: cranelift_codegen::ir::Block::reserved_value(),
                }),
                roots: Vec::new(),
                root_entries: HashMap::new(),
                row_slots: HashMap::new(),
                ptr_offsets: HashMap::new(),
                vec: None,
                phase: (row_mode && resumable).then(phase::PhaseLoop::placeholder),
                loop_proof: Default::default(),
            };
            if let Some(r) = t.resumable.as_mut() {
                r.mark_var = t.b.declare_var(types::I64);
            }
            if let Some(p) = t.phase.as_mut() {
                p.entry = special.map(|(e, _)| e);
                p.scalar_twin = special.filter(|_| vec_mode).and_then(|(e, _)| {
                    entry_ids
                        .iter()
                        .find(|&&(entry, _, _)| entry == e)
                        .map(|&(_, scalar, _)| scalar)
                });
            }
            match vec_mode.then(|| vec_shapes.take()).flatten() {
                Some(analysis) => t.translate_vec(analysis)?,
                None => match vec_mode.then(|| phase_shapes.take()).flatten() {
                    Some(analysis) => t.translate_vec_phase(analysis)?,
                    None => t.translate()?,
                },
            }
            if let Some(r) = &t.resumable {
                spill_words = spill_words.max(r.spill_words);
            }
            if let Some(p) = &t.phase {
                phase_spill_words = phase_spill_words.max(p.words);
            }
            b.seal_all_blocks();
            b.finalize(tc);
        }
        // Errors of unrolled copies name the loop's instruction.
        if let Some(u) = unrolled {
            for s in &mut sites[first_site..] {
                s.inst = u.origin.get(s.inst.index()).copied().unwrap_or(s.inst);
            }
        }
        if special.is_some() {
            phase_entry::drop_other_phases(&mut cctx);
        }
        let id = match (
            row_mode,
            row_fn_id.or(phase_fn_id),
            vec_fn_id.or(phase_vec_fn_id),
        ) {
            _ if special.is_some() => special.map_or(func_ids[&f], |(_, id)| id),
            (true, _, Some(id)) if vec_mode => id,
            (true, Some(id), _) => id,
            _ => func_ids[&f],
        };
        store
            .define(&mut jm, id, &mut cctx)
            .map_err(|e| format!("Cranelift rejected fn{f}: {e}"))?;
        jm.clear_context(&mut cctx);
    }
    // The entry wrapper (and, for resumable kernels, the step wrapper with a resume point).
    let kfunc = &module.functions[kernel_func.index()];
    let mut wrappers = Vec::new();
    for with_resume in [false, true] {
        if with_resume && !resumable {
            continue;
        }
        let mut params = vec![types::I64];
        if with_resume {
            params.push(types::I32);
        }
        let entry_sig = sig_of(&jm, &params, &[types::I32]);
        let name = if with_resume { "kir_step" } else { "kir_entry" };
        let entry_id = jm
            .declare_function(name, Linkage::Local, &entry_sig)
            .map_err(|e| e.to_string())?;
        wrappers.push(entry_id);
        cctx.func.signature = entry_sig;
        let mut b = FunctionBuilder::new(&mut cctx.func, &mut fctx);
        let block = b.create_block();
        b.append_block_params_for_function_params(block);
        b.switch_to_block(block);
        let ctx = b.block_params(block)[0];
        let params = b
            .ins()
            .load(types::I64, MemFlagsData::trusted(), ctx, rt::OFF_PARAMS);
        let mut args = vec![ctx];
        if with_resume {
            args.push(b.block_params(block)[1]);
        } else if resumable {
            args.push(b.ins().iconst(types::I32, 0));
        }
        let mut k_off = 0i32;
        for &ty in &kfunc.sig.params {
            for (cl, s) in lanes_of(ty)? {
                let raw = b
                    .ins()
                    .load(types::I64, MemFlagsData::trusted(), params, k_off);
                k_off += 8;
                args.push(from_u64(&mut b, raw, cl, s));
            }
        }
        let callee = jm.declare_func_in_func(func_ids[&kernel_func.index()], b.func);
        let call = b.ins().call(callee, &args);
        let status = b.inst_results(call)[0];
        b.ins().return_(&[status]);
        b.seal_all_blocks();
        b.finalize(tc);
        store
            .define(&mut jm, entry_id, &mut cctx)
            .map_err(|e| format!("Cranelift rejected the entry: {e}"))?;
        jm.clear_context(&mut cctx);
    }
    let entry_id = wrappers[0];
    // The row function: runs work-items x = 0..n of one row of a group, advancing the ids the
    // context holds for x = 0 (kernels without barriers and without private variables).
    let row_sig = sig_of(&jm, &[types::I64, types::I64], &[types::I32]);
    let row_id = jm
        .declare_function("kir_row", Linkage::Local, &row_sig)
        .map_err(|e| e.to_string())?;
    cctx.func.signature = row_sig;
    {
        let mut b = FunctionBuilder::new(&mut cctx.func, &mut fctx);
        let block = b.create_block();
        b.append_block_params_for_function_params(block);
        b.switch_to_block(block);
        let ctx = b.block_params(block)[0];
        let n = b.block_params(block)[1];
        let fl = MemFlagsData::trusted();
        let params = b.ins().load(types::I64, fl, ctx, rt::OFF_PARAMS);
        let mut args = vec![ctx];
        if resumable {
            args.push(b.ins().iconst(types::I32, 0));
        }
        let mut k_off = 0i32;
        for &ty in &kfunc.sig.params {
            for (cl, s) in lanes_of(ty)? {
                let raw = b.ins().load(types::I64, fl, params, k_off);
                k_off += 8;
                args.push(from_u64(&mut b, raw, cl, s));
            }
        }
        let wi = |slot: usize| rt::OFF_WI + 8 * slot as i32;
        let g0 = b.ins().load(types::I64, fl, ctx, wi(slot::GLOBAL_ID));
        let gl0 = b.ins().load(types::I64, fl, ctx, wi(slot::GLOBAL_LINEAR));
        let ll0 = b.ins().load(types::I64, fl, ctx, wi(slot::LOCAL_LINEAR));
        let head = b.create_block();
        let i = b.append_block_param(head, types::I64);
        let body = b.create_block();
        let done = b.create_block();
        let fail = b.create_block();
        let status_param = b.append_block_param(fail, types::I32);
        let zero = b.ins().iconst(types::I64, 0);
        b.ins().jump(head, &bargs(&[zero]));
        b.switch_to_block(head);
        let more = b.ins().icmp(IntCC::UnsignedLessThan, i, n);
        b.ins().brif(more, body, &[], done, &[]);
        b.switch_to_block(body);
        b.ins().store(fl, i, ctx, wi(slot::LOCAL_ID));
        let g = b.ins().iadd(g0, i);
        b.ins().store(fl, g, ctx, wi(slot::GLOBAL_ID));
        let gl = b.ins().iadd(gl0, i);
        b.ins().store(fl, gl, ctx, wi(slot::GLOBAL_LINEAR));
        let ll = b.ins().iadd(ll0, i);
        b.ins().store(fl, ll, ctx, wi(slot::LOCAL_LINEAR));
        let callee = jm.declare_func_in_func(func_ids[&kernel_func.index()], b.func);
        let call = b.ins().call(callee, &args);
        let status = b.inst_results(call)[0];
        let next = b.ins().iadd_imm_s(i, 1);
        let cont = b.create_block();
        b.ins().brif(status, fail, &bargs(&[status]), cont, &[]);
        b.switch_to_block(cont);
        b.ins().jump(head, &bargs(&[next]));
        b.switch_to_block(done);
        let ok = b.ins().iconst(types::I32, 0);
        b.ins().return_(&[ok]);
        b.switch_to_block(fail);
        b.ins().return_(&[status_param]);
        b.seal_all_blocks();
        b.finalize(tc);
    }
    store
        .define(&mut jm, row_id, &mut cctx)
        .map_err(|e| format!("Cranelift rejected the row function: {e}"))?;
    jm.clear_context(&mut cctx);
    jm.finalize_definitions()
        .map_err(|e| format!("Cranelift finalisation: {e}"))?;
    let code = jm.get_finalized_function(entry_id);
    // SAFETY: `code` is the entry wrapper just compiled with the signature `(i64) -> i32`.
    let entry: extern "C" fn(*mut rt::ItemCtx) -> i32 = unsafe { std::mem::transmute(code) };
    let code = jm.get_finalized_function(row_fn_id.unwrap_or(row_id));
    // SAFETY: `code` is the row function just compiled with the signature `(i64, i64) -> i32`.
    let row: extern "C" fn(*mut rt::ItemCtx, u64) -> i32 = unsafe { std::mem::transmute(code) };
    let step = wrappers.get(1).map(|&id| {
        let code = jm.get_finalized_function(id);
        // SAFETY: `code` is the step wrapper compiled with the signature `(i64, i32) -> i32`.
        let step: extern "C" fn(*mut rt::ItemCtx, u32) -> i32 =
            unsafe { std::mem::transmute(code) };
        step
    });
    let row_vec = vec_fn_id.map(|id| {
        let code = jm.get_finalized_function(id);
        // SAFETY: `code` is the vectorised row loop compiled with the signature `(i64, i64) -> i32`.
        let f: extern "C" fn(*mut rt::ItemCtx, u64) -> i32 = unsafe { std::mem::transmute(code) };
        f
    });
    let mut phase_at = Vec::new();
    for &(e, scalar, vec) in &entry_ids {
        let Some(resume) = phase_entry::resume_of(e, &sites, root) else {
            continue;
        };
        let code = jm.get_finalized_function(scalar);
        // SAFETY: `code` is a phase loop compiled with the signature `(i64, i64, i32) -> i32`.
        let scalar: extern "C" fn(*mut rt::ItemCtx, u64, u32) -> i32 =
            unsafe { std::mem::transmute(code) };
        let vec = vec.map(|id| {
            let code = jm.get_finalized_function(id);
            // SAFETY: `code` is a vectorised phase loop compiled with the signature
            // `(i64, i64, i32, i64, i32) -> i32`.
            let f: PhaseVecFn = unsafe { std::mem::transmute(code) };
            f
        });
        phase_at.push(PhaseAt {
            resume,
            scalar,
            vec,
        });
    }
    let phase = phase_fn_id.filter(|_| entry_ids.is_empty()).map(|id| {
        let code = jm.get_finalized_function(id);
        // SAFETY: `code` is the phase loop compiled with the signature `(i64, i64, i32) -> i32`.
        let phase: extern "C" fn(*mut rt::ItemCtx, u64, u32) -> i32 =
            unsafe { std::mem::transmute(code) };
        phase
    });
    let phase = phase.or(phase_at.first().map(|p| p.scalar));
    let phase_vec = phase_vec_fn_id.filter(|_| entry_ids.is_empty()).map(|id| {
        let code = jm.get_finalized_function(id);
        // SAFETY: `code` is the vectorised phase loop compiled with the signature
        // `(i64, i64, i32, i64, i32) -> i32`.
        let f: PhaseVecFn = unsafe { std::mem::transmute(code) };
        f
    });
    Ok(Compiled {
        phase_at,
        phase_vec,
        row_vec,
        vec_width: vector::WIDTH as u64,
        step,
        phase,
        spill_words,
        phase_spill_words,
        _module: jm,
        entry,
        row,
        sites,
        params: kfunc.sig.params.clone(),
    })
}

fn kir_sig(jm: &JITModule, func: &Function) -> Result<Signature, Unsupported> {
    let mut params = vec![types::I64];
    for &t in &func.sig.params {
        params.extend(lanes_of(t)?.into_iter().map(|l| l.0));
    }
    let mut rets = vec![types::I32];
    if let Some(t) = func.sig.ret {
        rets.extend(lanes_of(t)?.into_iter().map(|l| l.0));
    }
    Ok(sig_of(jm, &params, &rets))
}

/// A lane as the u64 the interpreter holds (bits zero-extended).
fn to_u64(b: &mut FunctionBuilder<'_>, v: ClValue, cl: ClType) -> ClValue {
    if cl == types::F32 {
        let bits = b.ins().bitcast(types::I32, MemFlagsData::new(), v);
        b.ins().uextend(types::I64, bits)
    } else if cl == types::F64 {
        b.ins().bitcast(types::I64, MemFlagsData::new(), v)
    } else if cl == types::I64 {
        v
    } else {
        b.ins().uextend(types::I64, v)
    }
}

/// The lane of type `cl` held in the u64 `v` (bool lanes normalised to 0/1 when `s` says bool).
fn from_u64(b: &mut FunctionBuilder<'_>, v: ClValue, cl: ClType, s: Option<ScalarType>) -> ClValue {
    if cl == types::F32 {
        let bits = b.ins().ireduce(types::I32, v);
        b.ins().bitcast(types::F32, MemFlagsData::new(), bits)
    } else if cl == types::F64 {
        b.ins().bitcast(types::F64, MemFlagsData::new(), v)
    } else if cl == types::I64 {
        v
    } else if s == Some(ScalarType::Bool) {
        b.ins().icmp_imm_s(IntCC::NotEqual, v, 0)
    } else {
        b.ins().ireduce(cl, v)
    }
}

/// Flags of loads from the context, its region table and the parameter block: nothing JIT code
/// can reach changes them while a kir function runs (the table's private entries change only
/// for regions allocated or freed meanwhile, which no earlier access can have used), so
/// Cranelift may merge such loads and hoist them out of loops.
fn ctx_flags() -> MemFlagsData {
    MemFlagsData::trusted().with_readonly().with_can_move()
}

fn bargs(v: &[ClValue]) -> Vec<BlockArg> {
    v.iter().map(|&x| BlockArg::Value(x)).collect()
}

struct Translator<'a, 'b> {
    m: &'a mut JITModule,
    b: &'a mut FunctionBuilder<'b>,
    module: &'a kir::Module,
    func: &'a Function,
    func_index: usize,
    helpers: &'a Helpers,
    func_ids: &'a HashMap<usize, FuncId>,
    sites: &'a mut Vec<Site>,
    layout: PtrLayout,
    globals: &'a [u64],
    vals: Vec<Option<Vec<ClValue>>>,
    blocks: HashMap<kir::Block, cranelift_codegen::ir::Block>,
    /// The context parameter (set by `translate` before any instruction).
    ctx: ClValue,
    /// The block every failure jumps to with its status (set by `translate`).
    fail: cranelift_codegen::ir::Block,
    /// The private-region mark taken at entry (functions with `stackalloc`).
    mark: Option<ClValue>,
    /// Set when this is a kernel function split at its barriers (see `barrier`).
    resumable: Option<Resumable>,
    /// Set when this is the kernel function compiled as a loop over a row of work-items.
    row: Option<RowLoop>,
    /// The region each pointer value points into, when known (see `PtrRoot`).
    roots: Vec<Option<PtrRoot>>,
    /// Region-table entries of the roots that loads and stores use, read once at entry.
    root_entries: HashMap<PtrRoot, RootEntry>,
    /// Work-item query slots read once per row (row loop only; see `read_row_slots`).
    row_slots: HashMap<usize, ClValue>,
    /// Set when this is the vectorised row loop (see `vector`).
    vec: Option<vector::VecState>,
    /// The region offset (`ptr & offset_mask`) of pointers computed by `PtrAdd` from a root,
    /// as computed there (not for pointers kept across a barrier, which are reloaded).
    ptr_offsets: HashMap<Value, ClValue>,
    /// Set when this is the kernel function split at its barriers compiled as a phase loop.
    phase: Option<phase::PhaseLoop>,
    /// Accesses of counted loops proven for the whole loop (`vector::loop_proof`).
    loop_proof: vector::loop_proof::LoopProofState,
}

/// The region a pointer value points into, known from how it was computed: pointer
/// arithmetic never changes a pointer's tag (`PtrLayout::add`), so a pointer computed by
/// `PtrAdd` chains from a program-scope variable or a parameter of the function has that
/// root's tag. Accesses through it read the region-table entry once, at the function's entry
/// (Cranelift does not move loads out of loops), instead of at every access.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum PtrRoot {
    /// The tag bits (`ptr & !offset_mask`) are this constant.
    Const(u64),
    /// The tag bits are those of this parameter of the function (a kir value).
    Param(Value),
}

/// A root's region-table entry, read at the function's entry.
#[derive(Clone, Copy)]
struct RootEntry {
    /// `ptr & !offset_mask` of every pointer with this root.
    tag_bits: ClValue,
    base: ClValue,
    read_len: ClValue,
    write_len: ClValue,
}

/// The kernel as `(ctx, n) -> status`: runs work-items x = 0..n of a row whose x = 0 ids the
/// context holds, keeping the ids of x in the context for the helpers. A `return` of the
/// kernel continues with the next work-item, so everything loop-invariant (parameters,
/// region-table entries, uniform values) is computed once per row.
struct RowLoop {
    /// The work-item index in the row.
    i: ClValue,
    /// Ids of x = 0: global id 0, local id 0, global linear id, local linear id.
    base: [ClValue; 4],
    /// Continues with the next work-item.
    latch: cranelift_codegen::ir::Block,
}

/// The context slots of the ids that change along a row (`RowLoop::base` in this order).
const ROW_SLOTS: [usize; 4] = [
    slot::GLOBAL_ID,
    slot::LOCAL_ID,
    slot::GLOBAL_LINEAR,
    slot::LOCAL_LINEAR,
];

/// Where a work-item query's value comes from (see `wi_source`).
enum WiSource {
    Const(u64),
    /// Row-varying: x = 0's value (`RowLoop::base[k]`) plus the row index.
    Row(usize),
    /// `ItemCtx::wi[index]`.
    Slot(usize),
}

/// Where `query` in dimension `dim` comes from; `row`: in the row loop.
fn wi_source(query: WorkItemQuery, dim: u64, row: bool) -> WiSource {
    use WorkItemQuery as Q;
    let per_dim = |base: usize, default: u64| (Some(base), default);
    let (base, default) = match query {
        Q::GlobalId => per_dim(slot::GLOBAL_ID, 0),
        Q::LocalId => per_dim(slot::LOCAL_ID, 0),
        Q::GroupId => per_dim(slot::GROUP_ID, 0),
        Q::GlobalSize => per_dim(slot::GLOBAL_SIZE, 1),
        Q::LocalSize => per_dim(slot::LOCAL_SIZE, 1),
        Q::EnqueuedLocalSize => per_dim(slot::ENQ_LOCAL_SIZE, 1),
        Q::NumGroups => per_dim(slot::NUM_GROUPS, 1),
        Q::GlobalOffset => per_dim(slot::GLOBAL_OFFSET, 0),
        Q::SubgroupSize | Q::SubgroupMaxSize => return WiSource::Const(1),
        Q::SubgroupLocalId => return WiSource::Const(0),
        Q::WorkDim => (None, slot::WORK_DIM as u64),
        Q::GlobalLinearId => (None, slot::GLOBAL_LINEAR as u64),
        Q::LocalLinearId | Q::SubgroupId => (None, slot::LOCAL_LINEAR as u64),
        Q::NumSubgroups => (None, slot::NUM_SUBGROUPS as u64),
        Q::EnqueuedNumSubgroups => (None, slot::ENQ_NUM_SUBGROUPS as u64),
    };
    if row {
        // Ids that change along the row: x = 0's id plus the index.
        let k = match (query, dim) {
            (Q::GlobalId, 0) => Some(0),
            (Q::LocalId, 0) => Some(1),
            (Q::GlobalLinearId, _) => Some(2),
            (Q::LocalLinearId | Q::SubgroupId, _) => Some(3),
            _ => None,
        };
        if let Some(k) = k {
            return WiSource::Row(k);
        }
    }
    match base {
        // Dimensions beyond work_dim hold the defaults (the launch normalises them), so only
        // dimensions ≥ 3 need the default here.
        Some(_) if dim >= 3 => WiSource::Const(default),
        Some(base) => WiSource::Slot(base + dim as usize),
        None => WiSource::Slot(default as usize),
    }
}

/// The state of a function compiled as resumable at its barriers.
struct Resumable {
    /// Per kir value: a variable per lane when the value is live across some barrier.
    vars: Vec<Vec<cranelift_frontend::Variable>>,
    /// Values live after each barrier.
    live: HashMap<kir::Inst, Vec<Value>>,
    /// (site, resume block) of each barrier.
    resumes: Vec<(u32, cranelift_codegen::ir::Block)>,
    mark_var: cranelift_frontend::Variable,
    /// Most u64 words a barrier keeps.
    spill_words: usize,
}

impl Translator<'_, '_> {
    fn ctx(&self) -> ClValue {
        self.ctx
    }

    fn get(&mut self, v: Value) -> Result<Vec<ClValue>, Unsupported> {
        if let Some(r) = &self.resumable {
            if let Some(vars) = r.vars.get(v.index()).filter(|x| !x.is_empty()).cloned() {
                return Ok(vars.into_iter().map(|x| self.b.use_var(x)).collect());
            }
        }
        self.vals
            .get(v.index())
            .cloned()
            .flatten()
            .ok_or_else(|| format!("{v} used before its definition"))
    }

    fn get1(&mut self, v: Value) -> Result<ClValue, Unsupported> {
        Ok(self.get(v)?[0])
    }

    fn ty(&self, v: Value) -> Type {
        self.func.dfg.value_type(v)
    }

    fn site(&mut self, inst: kir::Inst, kind: SiteKind) -> ClValue {
        self.sites.push(Site {
            func: self.func_index,
            inst,
            kind,
        });
        let n = (self.sites.len() - 1) as i64;
        self.b.ins().iconst(types::I32, n)
    }

    fn call_helper(&mut self, name: &str, args: &[ClValue]) -> Vec<ClValue> {
        self.store_row_ids();
        let id = self.helpers.ids[name];
        let fref = self.m.declare_func_in_func(id, self.b.func);
        let call = self.b.ins().call(fref, args);
        self.b.inst_results(call).to_vec()
    }

    fn iconst32(&mut self, x: u32) -> ClValue {
        self.b.ins().iconst(types::I32, i64::from(x))
    }

    /// Continues only when `status` is 0; otherwise returns it.
    fn check(&mut self, status: ClValue) {
        let cont = self.b.create_block();
        let fail = self.fail;
        self.b
            .ins()
            .brif(status, fail, &bargs(&[status]), cont, &[]);
        self.b.switch_to_block(cont);
    }

    /// A stack slot of `bytes` bytes; returns its address.
    fn slot(&mut self, bytes: u32) -> ClValue {
        let ss = self.b.create_sized_stack_slot(StackSlotData::new(
            StackSlotKind::ExplicitSlot,
            bytes.max(8),
            3,
        ));
        self.b.ins().stack_addr(types::I64, ss, 0)
    }

    /// Binds kir value `v` to Cranelift lanes (and, in a resumable function, to its variables).
    fn define(&mut self, v: Value, lanes: Vec<ClValue>) {
        if let Some(r) = &self.resumable {
            if let Some(vars) = r.vars.get(v.index()) {
                for (&var, &x) in vars.iter().zip(&lanes) {
                    self.b.def_var(var, x);
                }
            }
        }
        self.vals[v.index()] = Some(lanes);
    }

    /// The private-region mark taken at entry, if the function has one.
    fn mark_value(&mut self) -> Option<ClValue> {
        match (&self.resumable, self.mark) {
            (Some(r), Some(_)) => Some(self.b.use_var(r.mark_var)),
            (_, m) => m,
        }
    }

    fn translate(&mut self) -> Result<(), Unsupported> {
        let func = self.func;
        let entry = func.entry_block().ok_or("function without a body")?;
        let order = rpo(func, entry);
        for &kb in &order {
            let cb = self.b.create_block();
            self.blocks.insert(kb, cb);
        }
        self.roots = self.pointer_roots(entry, &order);
        // A resumable function starts in a block of its own that either enters the kir entry
        // block or resumes after a barrier.
        let start = if self.resumable.is_some() || self.row.is_some() {
            self.b.create_block()
        } else {
            self.blocks[&entry]
        };
        self.b.append_block_params_for_function_params(start);
        // Failure block: returns the status with zero lanes.
        let fail = self.b.create_block();
        let status = self.b.append_block_param(fail, types::I32);
        self.fail = fail;
        if self.resumable.is_some() {
            self.prepare_resumable(&order)?;
        }
        for &kb in &order {
            let cb = self.blocks[&kb];
            if kb == entry && self.resumable.is_none() && self.row.is_none() {
                let params: Vec<ClValue> = self.b.block_params(cb).to_vec();
                self.ctx = params[0];
                let mut k = 1;
                for &p in func.dfg.block_params(kb) {
                    let n = lanes_of(self.ty(p))?.len();
                    self.vals[p.index()] = Some(params[k..k + n].to_vec());
                    k += n;
                }
            } else {
                for &p in func.dfg.block_params(kb) {
                    let mut lanes = Vec::new();
                    for (cl, _) in lanes_of(self.ty(p))? {
                        lanes.push(self.b.append_block_param(cb, cl));
                    }
                    self.vals[p.index()] = Some(lanes);
                }
            }
        }
        let dispatch = self.b.create_block();
        if self.resumable.is_some() && self.phase.is_none() {
            // start(ctx, resume, params…): resume 0 enters the kernel, s + 1 resumes after the
            // barrier of site s.
            self.b.switch_to_block(start);
            let params: Vec<ClValue> = self.b.block_params(start).to_vec();
            self.ctx = params[0];
            self.read_root_entries(&params[2..])?;
            let resume = params[1];
            let (cb, args) = (self.blocks[&entry], bargs(&params[2..]));
            self.b.ins().brif(resume, dispatch, &[], cb, &args);
        }
        if self.phase.is_some() {
            self.phase_loop_head(start, entry, dispatch)?;
        } else if self.row.is_some() {
            self.row_loop_head(start, entry, 1)?;
        }
        let has_stackalloc = func
            .dfg
            .insts
            .iter()
            .any(|i| matches!(i, InstData::StackAlloc { .. }));
        for &kb in &order {
            let cb = self.blocks[&kb];
            self.b.switch_to_block(cb);
            if self.resumable.is_some() {
                for &p in func.dfg.block_params(kb) {
                    let lanes = self.vals[p.index()].clone().unwrap_or_default();
                    self.define(p, lanes);
                }
            }
            if kb == entry && self.resumable.is_none() && self.row.is_none() {
                let params: Vec<ClValue> = self.b.block_params(cb)[1..].to_vec();
                self.read_root_entries(&params)?;
            }
            if kb == entry && has_stackalloc {
                let ctx = self.ctx();
                let m = self.call_helper("jit_private_mark", &[ctx])[0];
                if let Some(r) = &self.resumable {
                    self.b.def_var(r.mark_var, m);
                }
                self.mark = Some(m);
            }
            for &inst in func.layout.insts(kb) {
                self.inst(inst)?;
            }
        }
        if let Some(r) = &self.resumable {
            self.b.switch_to_block(dispatch);
            let resumes = r.resumes.clone();
            let params: Vec<ClValue> = self.b.block_params(start).to_vec();
            let resume = match &self.phase {
                Some(p) => p.resume,
                None => params[1],
            };
            let bad = self.b.create_block();
            self.phase_dispatch(resume, &resumes, bad);
            self.b.switch_to_block(bad);
            let one = self.b.ins().iconst(types::I32, 1);
            self.b.ins().jump(fail, &bargs(&[one]));
        }
        self.b.switch_to_block(fail);
        let mut rets = vec![status];
        if let Some(t) = func.sig.ret {
            for (cl, _) in lanes_of(t)? {
                rets.push(self.zero(cl));
            }
        }
        self.b.ins().return_(&rets);
        Ok(())
    }

    /// At the start of a row or phase loop: the kernel's parameter lanes (from the context's
    /// parameter block) and the ids of x = 0 (`ROW_SLOTS`).
    fn row_start(&mut self, ctx: ClValue) -> Result<(Vec<ClValue>, [ClValue; 4]), Unsupported> {
        let fl = MemFlagsData::trusted();
        let pblock = self.b.ins().load(types::I64, fl, ctx, rt::OFF_PARAMS);
        let mut args = Vec::new();
        let mut k_off = 0i32;
        for &ty in &self.func.sig.params {
            for (cl, s) in lanes_of(ty)? {
                let raw = self.b.ins().load(types::I64, fl, pblock, k_off);
                k_off += 8;
                args.push(from_u64(self.b, raw, cl, s));
            }
        }
        let wi = |slot: usize| rt::OFF_WI + 8 * slot as i32;
        let base = ROW_SLOTS.map(|s| self.b.ins().load(types::I64, fl, ctx, wi(s)));
        Ok((args, base))
    }

    /// The row loop around the kernel body: `start(ctx, n)` loads the parameters and the ids
    /// of x = 0, and each iteration enters the kernel for `width` work-items.
    fn row_loop_head(
        &mut self,
        start: cranelift_codegen::ir::Block,
        entry: kir::Block,
        width: i64,
    ) -> Result<(), Unsupported> {
        let (args, base, n) = self.row_loop_start(start)?;
        self.row_loop(&args, base, n, entry, width)
    }

    /// The start of `row_loop_head`, in block `start(ctx, n)`: returns the kir entry block's
    /// parameter lanes, the ids of x = 0 and `n`.
    fn row_loop_start(
        &mut self,
        start: cranelift_codegen::ir::Block,
    ) -> Result<(Vec<ClValue>, [ClValue; 4], ClValue), Unsupported> {
        self.b.switch_to_block(start);
        let params: Vec<ClValue> = self.b.block_params(start).to_vec();
        let (ctx, n) = (params[0], params[1]);
        self.ctx = ctx;
        let (args, base) = self.row_start(ctx)?;
        self.read_root_entries(&args)?;
        self.read_row_slots();
        Ok((args, base, n))
    }

    /// The rest of `row_loop_head`: from the current block, the loop over the row.
    fn row_loop(
        &mut self,
        args: &[ClValue],
        base: [ClValue; 4],
        n: ClValue,
        entry: kir::Block,
        width: i64,
    ) -> Result<(), Unsupported> {
        let head = self.b.create_block();
        let i = self.b.append_block_param(head, types::I64);
        let zero = self.b.ins().iconst(types::I64, 0);
        self.b.ins().jump(head, &bargs(&[zero]));
        self.b.switch_to_block(head);
        // Another `width` work-items fit: i + width <= n.
        let end = self.b.ins().iadd_imm_s(i, width);
        let more = self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, end, n);
        let body = self.b.create_block();
        let done = self.b.create_block();
        self.b.ins().brif(more, body, &[], done, &[]);
        self.b.switch_to_block(done);
        let ok = self.b.ins().iconst(types::I32, 0);
        self.b.ins().return_(&[ok]);
        self.b.switch_to_block(body);
        let cb = self.blocks[&entry];
        self.b.ins().jump(cb, &bargs(args));
        let latch = self.b.create_block();
        self.b.switch_to_block(latch);
        let next = self.b.ins().iadd_imm_s(i, width);
        self.b.ins().jump(head, &bargs(&[next]));
        self.row = Some(RowLoop { i, base, latch });
        Ok(())
    }

    /// In the row loop: stores the current work-item's ids in the context, for the helper or
    /// function about to be called (only calls read them, so the loop itself does not).
    fn store_row_ids(&mut self) {
        let Some(row) = &self.row else {
            return;
        };
        let (i, base) = (row.i, row.base);
        let fl = MemFlagsData::trusted();
        for (k, &s) in ROW_SLOTS.iter().enumerate() {
            let v = self.b.ins().iadd(base[k], i);
            self.b
                .ins()
                .store(fl, v, self.ctx, rt::OFF_WI + 8 * s as i32);
        }
    }

    /// Declares a variable per lane of every value live across a barrier (and the mark).
    fn prepare_resumable(&mut self, order: &[kir::Block]) -> Result<(), Unsupported> {
        let live = super::barrier::live_after_barriers(self.func, order);
        let mut keep = vec![false; self.func.dfg.num_values()];
        for (_, vals) in &live {
            for v in vals {
                keep[v.index()] = true;
            }
        }
        let mut vars = vec![Vec::new(); keep.len()];
        for (i, k) in keep.iter().enumerate() {
            if *k {
                for (cl, _) in lanes_of(self.ty(Value::new(i)))? {
                    vars[i].push(self.b.declare_var(cl));
                }
            }
        }
        let r = self.resumable.as_mut().ok_or("not resumable")?;
        r.vars = vars;
        r.live = live.into_iter().collect();
        Ok(())
    }

    /// A barrier in a resumable function: keeps the live values in the spill area and returns
    /// "stopped at this barrier"; the resume block reloads them and continues after it.
    fn barrier_split(&mut self, inst: kir::Inst) -> Result<(), Unsupported> {
        if self.phase.is_some() {
            return self.phase_barrier(inst);
        }
        self.sites.push(Site {
            func: self.func_index,
            inst,
            kind: SiteKind::Barrier,
        });
        let site = (self.sites.len() - 1) as u32;
        let r = self.resumable.as_ref().ok_or("not resumable")?;
        let live = r.live.get(&inst).cloned().unwrap_or_default();
        let mut lanes: Vec<(cranelift_frontend::Variable, ClType)> = Vec::new();
        for v in &live {
            let vars = r.vars.get(v.index()).cloned().unwrap_or_default();
            for (var, (cl, _)) in vars.into_iter().zip(lanes_of(self.ty(*v))?) {
                lanes.push((var, cl));
            }
        }
        if self.mark.is_some() {
            lanes.push((r.mark_var, types::I64));
        }
        let r = self.resumable.as_mut().ok_or("not resumable")?;
        r.spill_words = r.spill_words.max(lanes.len());
        let ctx = self.ctx();
        let fl = MemFlagsData::trusted();
        let spill = self
            .b
            .ins()
            .load(types::I64, ctx_flags(), ctx, rt::OFF_SPILL);
        for (k, &(var, _)) in lanes.iter().enumerate() {
            let x = self.b.use_var(var);
            self.b.ins().store(fl, x, spill, 8 * k as i32);
        }
        let stop = self.b.ins().iconst(types::I32, -(i64::from(site) + 1));
        let mut rets = vec![stop];
        if let Some(t) = self.func.sig.ret {
            for (cl, _) in lanes_of(t)? {
                rets.push(self.zero(cl));
            }
        }
        self.b.ins().return_(&rets);
        let resume = self.b.create_block();
        self.b.switch_to_block(resume);
        let spill = self
            .b
            .ins()
            .load(types::I64, ctx_flags(), ctx, rt::OFF_SPILL);
        for (k, &(var, cl)) in lanes.iter().enumerate() {
            let x = self.b.ins().load(cl, fl, spill, 8 * k as i32);
            self.b.def_var(var, x);
        }
        let cont = self.b.create_block();
        self.b.ins().jump(cont, &[]);
        self.b.switch_to_block(cont);
        if let Some(r) = self.resumable.as_mut() {
            r.resumes.push((site, resume));
        }
        Ok(())
    }

    fn zero(&mut self, cl: ClType) -> ClValue {
        if cl == types::F32 {
            self.b.ins().f32const(0.0)
        } else if cl == types::F64 {
            self.b.ins().f64const(0.0)
        } else {
            self.b.ins().iconst(cl, 0)
        }
    }

    fn const_lane(&mut self, cl: ClType, s: Option<ScalarType>, bits: u64) -> ClValue {
        if cl == types::F32 {
            self.b.ins().f32const(f32::from_bits(bits as u32))
        } else if cl == types::F64 {
            self.b.ins().f64const(f64::from_bits(bits))
        } else if s == Some(ScalarType::Bool) {
            self.b.ins().iconst(types::I8, i64::from(bits != 0))
        } else {
            let w = cl.bits();
            let masked = if w >= 64 {
                bits
            } else {
                bits & ((1u64 << w) - 1)
            };
            self.b.ins().iconst(cl, masked as i64)
        }
    }

    fn block_call(
        &mut self,
        dest: &kir::BlockCall,
    ) -> Result<(cranelift_codegen::ir::Block, Vec<BlockArg>), Unsupported> {
        let cb = *self
            .blocks
            .get(&dest.block)
            .ok_or_else(|| format!("branch to unreachable {}", dest.block))?;
        let mut args = Vec::new();
        for &a in &dest.args {
            args.extend(self.get(a)?);
        }
        Ok((cb, bargs(&args)))
    }

    /// A switch on the scalar `value` as a chain of compares; `call` gives each target's
    /// block and arguments.
    #[allow(clippy::type_complexity)]
    fn switch(
        &mut self,
        value: Value,
        cases: &[(u64, kir::BlockCall)],
        default: &kir::BlockCall,
        call: fn(
            &mut Self,
            &kir::BlockCall,
        ) -> Result<(cranelift_codegen::ir::Block, Vec<BlockArg>), Unsupported>,
    ) -> Result<(), Unsupported> {
        let (cl, _) = lanes_of(self.ty(value))?[0];
        let x = self.get1(value)?;
        for (case, dest) in cases {
            let w = cl.bits();
            let c = if w >= 64 {
                *case
            } else {
                case & ((1u64 << w) - 1)
            };
            let k = self.b.ins().iconst(cl, c as i64);
            let hit = self.b.ins().icmp(IntCC::Equal, x, k);
            let (t, targs) = call(self, dest)?;
            let next = self.b.create_block();
            self.b.ins().brif(hit, t, &targs, next, &[]);
            self.b.switch_to_block(next);
        }
        let (d, dargs) = call(self, default)?;
        self.b.ins().jump(d, &dargs);
        Ok(())
    }

    /// The native address of `size` bytes at `ptr`, bounds-checked.
    fn address(
        &mut self,
        inst: kir::Inst,
        ptr_value: Value,
        ptr: ClValue,
        size: u64,
        write: bool,
    ) -> ClValue {
        if let Some(addr) = self.loop_proven_address(inst, ptr_value, ptr, size, write) {
            return addr;
        }
        let bad = self.b.create_block();
        self.b.set_cold_block(bad);
        let root = self.root_entry(ptr_value);
        let known_off = self.ptr_offsets.get(&ptr_value).copied();
        let (base, off) = self.checked_address(ptr, root, known_off, size, write, bad);
        let fast = self.b.ins().iadd(base, off);
        let join = self.b.create_block();
        let addr = self.b.append_block_param(join, types::I64);
        self.b.ins().jump(join, &bargs(&[fast]));
        // Slow path (SVM): a pointer outside the region table (tag 0: a host address into
        // shared virtual memory, or a fault) is resolved by `jit_resolve`, 0 meaning a fault.
        self.b.switch_to_block(bad);
        let ctx = self.ctx();
        let site = self.site(inst, SiteKind::Access(if write { "store" } else { "load" }));
        let sz = self.b.ins().iconst(types::I64, size as i64);
        let w = self.iconst32(u32::from(write));
        self.call_helper("kir_resolve", &[ctx, site, ptr, sz, w]);
        let slow = self
            .b
            .ins()
            .load(types::I64, MemFlagsData::trusted(), ctx, rt::OFF_RESOLVED);
        let failed = self.b.ins().iconst(types::I32, 1);
        let fail = self.fail;
        self.b
            .ins()
            .brif(slow, join, &bargs(&[slow]), fail, &bargs(&[failed]));
        self.b.switch_to_block(join);
        addr
    }

    /// The base address of `ptr`'s region and its offset in the region, continuing in a new
    /// (empty) block when `offset + size` fits the region's readable (or writable) length and
    /// jumping to `bad` otherwise. `root`: the region's entry as read at the function's entry
    /// (otherwise the table is read here).
    fn checked_address(
        &mut self,
        ptr: ClValue,
        root: Option<RootEntry>,
        known_off: Option<ClValue>,
        size: u64,
        write: bool,
        bad: cranelift_codegen::ir::Block,
    ) -> (ClValue, ClValue) {
        let ctx = self.ctx();
        let flags = ctx_flags();
        if let Some(e) = root {
            let off = match known_off {
                Some(off) => off,
                None => self
                    .b
                    .ins()
                    .band_imm_s(ptr, self.layout.offset_mask() as i64),
            };
            let len = if write { e.write_len } else { e.read_len };
            let end = self.b.ins().iadd_imm_s(off, size as i64);
            let ok = self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, end, len);
            let cont = self.b.create_block();
            self.b.ins().brif(ok, cont, &[], bad, &[]);
            self.b.switch_to_block(cont);
            return (e.base, off);
        }
        let tag = self
            .b
            .ins()
            .ushr_imm_u(ptr, i64::from(self.layout.offset_bits));
        let off = self
            .b
            .ins()
            .band_imm_s(ptr, self.layout.offset_mask() as i64);
        let table = self.b.ins().load(types::I64, flags, ctx, rt::OFF_TABLE);
        let idx = self.b.ins().ishl_imm_u(tag, rt::ENTRY_SHIFT);
        let entry = self.b.ins().iadd(table, idx);
        let len = self
            .b
            .ins()
            .load(types::I64, flags, entry, if write { 16 } else { 8 });
        let end = self.b.ins().iadd_imm_s(off, size as i64);
        let ok = self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, end, len);
        let cont = self.b.create_block();
        self.b.ins().brif(ok, cont, &[], bad, &[]);
        self.b.switch_to_block(cont);
        let base = self.b.ins().load(types::I64, flags, entry, 0);
        (base, off)
    }

    /// The entry of `v`'s root, when loads and stores through it read it at entry.
    fn root_entry(&self, v: Value) -> Option<RootEntry> {
        let root = self.roots.get(v.index()).copied().flatten()?;
        self.root_entries.get(&root).copied()
    }

    /// `PtrRoot` of every value (`None`: not known), from the function's parameters and
    /// program-scope variables through `PtrAdd` chains.
    fn pointer_roots(&self, entry: kir::Block, order: &[kir::Block]) -> Vec<Option<PtrRoot>> {
        let func = self.func;
        let tag_mask = !self.layout.offset_mask();
        let mut roots = vec![None; func.dfg.num_values()];
        for &p in func.dfg.block_params(entry) {
            if matches!(self.ty(p), Type::Ptr(_)) {
                roots[p.index()] = Some(PtrRoot::Param(p));
            }
        }
        // Definitions come before their uses in reverse post-order (other blocks' parameters
        // stay unknown).
        for &kb in order {
            for &inst in func.layout.insts(kb) {
                let Some(r) = func.dfg.inst_result(inst) else {
                    continue;
                };
                roots[r.index()] = match func.dfg.inst(inst) {
                    InstData::GlobalAddr { global } => self
                        .globals
                        .get(global.index())
                        .map(|&p| PtrRoot::Const(p & tag_mask)),
                    InstData::PtrAdd { ptr, .. } => roots[ptr.index()],
                    _ => None,
                };
            }
        }
        roots
    }

    /// Reads the region-table entry of every root that a load or store uses (at the
    /// function's entry; `param_lanes`: the lanes of the kir entry block's parameters there).
    fn read_root_entries(&mut self, param_lanes: &[ClValue]) -> Result<(), Unsupported> {
        let func = self.func;
        let entry = func.entry_block().ok_or("function without a body")?;
        let mut lane_of = HashMap::new();
        let mut k = 0;
        for &p in func.dfg.block_params(entry) {
            lane_of.insert(p, k);
            k += lanes_of(self.ty(p))?.len();
        }
        let mut used = Vec::new();
        for &kb in &func.layout.blocks {
            for &inst in func.layout.insts(kb) {
                let ptr = match func.dfg.inst(inst) {
                    InstData::Load { ptr, .. } | InstData::Store { ptr, .. } => *ptr,
                    _ => continue,
                };
                if let Some(root) = self.roots.get(ptr.index()).copied().flatten() {
                    if !used.contains(&root) {
                        used.push(root);
                    }
                }
            }
        }
        if used.is_empty() {
            return Ok(());
        }
        let mask = self.layout.offset_mask() as i64;
        // Not `readonly`/`can_move`: Cranelift would treat such loads as pure and place them
        // again at every use (inside loops); ordinary loads stay where they are.
        let flags = MemFlagsData::trusted();
        let ctx = self.ctx();
        let table = self.b.ins().load(types::I64, flags, ctx, rt::OFF_TABLE);
        for root in used {
            let tag_bits = match root {
                PtrRoot::Const(bits) => self.b.ins().iconst(types::I64, bits as i64),
                PtrRoot::Param(p) => {
                    let lane = lane_of
                        .get(&p)
                        .and_then(|&k| param_lanes.get(k))
                        .copied()
                        .ok_or("pointer root without a parameter lane")?;
                    self.b.ins().band_imm_s(lane, !mask)
                }
            };
            let tag = self
                .b
                .ins()
                .ushr_imm_u(tag_bits, i64::from(self.layout.offset_bits));
            let idx = self.b.ins().ishl_imm_u(tag, rt::ENTRY_SHIFT);
            let at = self.b.ins().iadd(table, idx);
            let [base, read_len, write_len] =
                [0, 8, 16].map(|o| self.b.ins().load(types::I64, flags, at, o));
            self.root_entries.insert(
                root,
                RootEntry {
                    tag_bits,
                    base,
                    read_len,
                    write_len,
                },
            );
        }
        Ok(())
    }

    /// Byte width of a lane in memory.
    fn mem_width(&self, cl: ClType, s: Option<ScalarType>) -> u32 {
        match s {
            Some(s) => s.bytes(),
            None => {
                let _ = cl;
                self.module.address_bits / 8
            }
        }
    }

    /// Loads one lane of type `cl` at `addr + off` the way the interpreter reads memory.
    fn load_lane(
        &mut self,
        addr: ClValue,
        off: i32,
        cl: ClType,
        s: Option<ScalarType>,
        width: u32,
    ) -> ClValue {
        let flags = MemFlagsData::new().with_notrap();
        match s {
            None if width == 4 => {
                let x = self.b.ins().load(types::I32, flags, addr, off);
                self.b.ins().uextend(types::I64, x)
            }
            Some(ScalarType::Bool) => {
                let x = self.b.ins().load(types::I8, flags, addr, off);
                self.b.ins().icmp_imm_s(IntCC::NotEqual, x, 0)
            }
            _ => self.b.ins().load(cl, flags, addr, off),
        }
    }

    fn inst(&mut self, inst: kir::Inst) -> Result<(), Unsupported> {
        let func = self.func;
        let data = func.dfg.inst(inst);
        let result = func.dfg.inst_result(inst);
        let rty = result.map(|r| func.dfg.value_type(r));
        let rlanes = match rty {
            Some(t) => lanes_of(t)?,
            None => Vec::new(),
        };
        let ctx = self.ctx();
        let flags = MemFlagsData::new().with_notrap();
        let mut out: Option<Vec<ClValue>> = None;
        match data {
            InstData::Const { bytes } => {
                let rty = rty.ok_or("const without result")?;
                let ab = self.module.address_bits;
                let mut v = Vec::new();
                for (i, &(cl, s)) in rlanes.iter().enumerate() {
                    let w = match s {
                        Some(s) => s.bytes() as usize,
                        None => (ab / 8) as usize,
                    };
                    let _ = rty;
                    let mut raw = [0u8; 8];
                    for (k, slot) in raw.iter_mut().enumerate().take(w) {
                        *slot = bytes.get(i * w + k).copied().unwrap_or(0);
                    }
                    v.push(self.const_lane(cl, s, u64::from_le_bytes(raw)));
                }
                out = Some(v);
            }
            InstData::Unary { op, arg } => {
                let x = self.get(*arg)?;
                let mut v = Vec::new();
                for (i, &(cl, s)) in rlanes.iter().enumerate() {
                    v.push(self.unary(*op, cl, s, x[i])?);
                }
                out = Some(v);
            }
            InstData::Binary { op, a, b } => {
                let (x, y) = (self.get(*a)?, self.get(*b)?);
                let yty = lanes_of(self.ty(*b))?;
                let mut v = Vec::new();
                for (i, &(cl, s)) in rlanes.iter().enumerate() {
                    let yi = *y.get(i).unwrap_or(&y[0]);
                    v.push(self.binary(*op, cl, s, x[i], yi, yty[0].0)?);
                }
                out = Some(v);
            }
            InstData::Cmp { op, a, b } => {
                let (x, y) = (self.get(*a)?, self.get(*b)?);
                let alanes = lanes_of(self.ty(*a))?;
                let mut v = Vec::new();
                for (i, &(cl, s)) in alanes.iter().enumerate() {
                    v.push(self.cmp(*op, cl, s, x[i], y[i]));
                }
                out = Some(v);
            }
            InstData::Test { op, arg } => {
                let x = self.get(*arg)?;
                let alanes = lanes_of(self.ty(*arg))?;
                let mut v = Vec::new();
                for (i, &(cl, s)) in alanes.iter().enumerate() {
                    let s = s.ok_or("test of a pointer")?;
                    if *op == TestOp::IsNan && matches!(s, ScalarType::F32 | ScalarType::F64) {
                        v.push(self.b.ins().fcmp(FloatCC::Unordered, x[i], x[i]));
                    } else {
                        let bits = to_u64(self.b, x[i], cl);
                        let opc = self.iconst32(code(TestOp::ALL, op));
                        let sc = self.iconst32(code(&ScalarType::ALL, &s));
                        let r = self.call_helper("jit_lane_test", &[opc, sc, bits])[0];
                        v.push(self.b.ins().ireduce(types::I8, r));
                    }
                }
                out = Some(v);
            }
            InstData::Reduce { op, arg } => {
                let x = self.get(*arg)?;
                let mut acc = x[0];
                for &l in &x[1..] {
                    acc = match op {
                        ReduceOp::Any => self.b.ins().bor(acc, l),
                        ReduceOp::All => self.b.ins().band(acc, l),
                    };
                }
                out = Some(vec![acc]);
            }
            InstData::Select { cond, a, b } => {
                let (c, x, y) = (self.get(*cond)?, self.get(*a)?, self.get(*b)?);
                let vector_cond = self.ty(*cond).is_vector();
                let mut v = Vec::new();
                for i in 0..x.len() {
                    let ci = if vector_cond { c[i] } else { c[0] };
                    v.push(self.b.ins().select(ci, x[i], y[i]));
                }
                out = Some(v);
            }
            InstData::Convert {
                op,
                arg,
                rounding,
                saturate,
            } => {
                out = Some(self.convert(
                    *op,
                    *arg,
                    rty.ok_or("convert without result")?,
                    *rounding,
                    *saturate,
                )?);
            }
            InstData::Load { ptr, .. } => {
                let rty = rty.ok_or("load without result")?;
                let p = self.get1(*ptr)?;
                let widths: Vec<u32> = rlanes
                    .iter()
                    .map(|&(cl, s)| self.mem_width(cl, s))
                    .collect();
                let size: u32 = widths.iter().sum();
                let _ = rty;
                let addr = self.address(inst, *ptr, p, u64::from(size), false);
                let mut v = Vec::new();
                let mut off = 0i32;
                for (i, &(cl, s)) in rlanes.iter().enumerate() {
                    let x = match s {
                        None if widths[i] == 4 => {
                            let x = self.b.ins().load(types::I32, flags, addr, off);
                            self.b.ins().uextend(types::I64, x)
                        }
                        Some(ScalarType::Bool) => {
                            let x = self.b.ins().load(types::I8, flags, addr, off);
                            self.b.ins().icmp_imm_s(IntCC::NotEqual, x, 0)
                        }
                        _ => self.b.ins().load(cl, flags, addr, off),
                    };
                    off += widths[i] as i32;
                    v.push(x);
                }
                out = Some(v);
            }
            InstData::Store { ptr, value, .. } => {
                let p = self.get1(*ptr)?;
                let x = self.get(*value)?;
                let lanes = lanes_of(self.ty(*value))?;
                let widths: Vec<u32> = lanes.iter().map(|&(cl, s)| self.mem_width(cl, s)).collect();
                let size: u32 = widths.iter().sum();
                let addr = self.address(inst, *ptr, p, u64::from(size), true);
                let mut off = 0i32;
                for (i, &(_, s)) in lanes.iter().enumerate() {
                    let v = if s.is_none() && widths[i] == 4 {
                        self.b.ins().ireduce(types::I32, x[i])
                    } else {
                        x[i]
                    };
                    self.b.ins().store(flags, v, addr, off);
                    off += widths[i] as i32;
                }
            }
            InstData::PtrAdd { ptr, offset } => {
                let p = self.get1(*ptr)?;
                let o = self.get1(*offset)?;
                let o = if self.b.func.dfg.value_type(o) == types::I64 {
                    o
                } else {
                    self.b.ins().sextend(types::I64, o)
                };
                let mask = self.layout.offset_mask() as i64;
                let root = self.root_entry(*ptr);
                let tag = match root {
                    Some(e) => e.tag_bits,
                    None => self.b.ins().band_imm_s(p, !mask),
                };
                // The low bits of `p + o` are those of `offset(p) + o` (the tag lies above
                // them): from the offset the pointer's own `PtrAdd` computed, when known.
                let from = self.ptr_offsets.get(ptr).copied().unwrap_or(p);
                let sum = self.b.ins().iadd(from, o);
                let low = self.b.ins().band_imm_s(sum, mask);
                // Not for pointers kept across a barrier (reloaded after it).
                if let (Some(_), Some(r)) = (root, result) {
                    let kept = self.resumable.as_ref().is_some_and(|rs| {
                        rs.vars.get(r.index()).is_some_and(|vars| !vars.is_empty())
                    });
                    if !kept {
                        self.ptr_offsets.insert(r, low);
                    }
                }
                out = Some(vec![self.b.ins().bor(tag, low)]);
            }
            InstData::StackAlloc { size, .. } => {
                let site = self.site(inst, SiteKind::StackAlloc(*size));
                let slot = self.slot(8);
                let status = self.call_helper("jit_stackalloc", &[ctx, site, slot])[0];
                self.check(status);
                out = Some(vec![self.b.ins().load(types::I64, flags, slot, 0)]);
            }
            InstData::GlobalAddr { global } => {
                let p = self.globals.get(global.index()).copied().unwrap_or(0);
                out = Some(vec![self.b.ins().iconst(types::I64, p as i64)]);
            }
            InstData::Memcpy { dst, src, size }
            | InstData::Memset {
                dst,
                byte: src,
                size,
            } => {
                let kind = u32::from(matches!(data, InstData::Memset { .. }));
                let site = self.site(inst, SiteKind::Access("memop"));
                let d = self.get1(*dst)?;
                let s_cl = lanes_of(self.ty(*src))?[0].0;
                let s = self.get1(*src)?;
                let s = to_u64(self.b, s, s_cl);
                let n_cl = lanes_of(self.ty(*size))?[0].0;
                let n = self.get1(*size)?;
                let n = to_u64(self.b, n, n_cl);
                let k = self.iconst32(kind);
                let status = self.call_helper("jit_memop", &[ctx, site, k, d, s, n])[0];
                self.check(status);
            }
            InstData::ExtractLane { vec, lane } => {
                let x = self.get(*vec)?;
                let (cl, _) = rlanes[0];
                out = Some(vec![match x.get(usize::from(*lane)) {
                    Some(&v) => v,
                    None => self.zero(cl),
                }]);
            }
            InstData::InsertLane { vec, lane, value } => {
                let mut x = self.get(*vec)?;
                let y = self.get1(*value)?;
                if let Some(slot) = x.get_mut(usize::from(*lane)) {
                    *slot = y;
                }
                out = Some(x);
            }
            InstData::ExtractLaneDyn { vec, index } => {
                let x = self.get(*vec)?;
                let idx = self.get1(*index)?;
                let (cl, _) = rlanes[0];
                let mut acc = self.zero(cl);
                for (i, &l) in x.iter().enumerate() {
                    let hit = self.b.ins().icmp_imm_s(IntCC::Equal, idx, i as i64);
                    acc = self.b.ins().select(hit, l, acc);
                }
                out = Some(vec![acc]);
            }
            InstData::InsertLaneDyn { vec, index, value } => {
                let x = self.get(*vec)?;
                let idx = self.get1(*index)?;
                let y = self.get1(*value)?;
                let mut v = Vec::new();
                for (i, &l) in x.iter().enumerate() {
                    let hit = self.b.ins().icmp_imm_s(IntCC::Equal, idx, i as i64);
                    v.push(self.b.ins().select(hit, y, l));
                }
                out = Some(v);
            }
            InstData::Shuffle { a, b, mask } => {
                let mut all = self.get(*a)?;
                all.extend(self.get(*b)?);
                let (cl, _) = rlanes[0];
                let mut v = Vec::new();
                for &m in mask {
                    v.push(match all.get(m as usize) {
                        Some(&x) => x,
                        None => self.zero(cl),
                    });
                }
                out = Some(v);
            }
            InstData::Splat { value } => {
                let x = self.get1(*value)?;
                out = Some(vec![x; rlanes.len()]);
            }
            InstData::ExtractBytes { agg, offset } => {
                // The interpreter's `from_bytes` on the bytes from `offset` (missing ones 0).
                let bytes = self.get(*agg)?;
                let widths: Vec<u32> = rlanes
                    .iter()
                    .map(|&(cl, s)| self.mem_width(cl, s))
                    .collect();
                let size: u32 = widths.iter().sum();
                let slot = self.slot(bytes.len() as u32 + size + 8);
                let fl = MemFlagsData::trusted();
                for (k, &b) in bytes.iter().enumerate() {
                    self.b.ins().store(fl, b, slot, k as i32);
                }
                let zero = self.b.ins().iconst(types::I8, 0);
                for k in 0..size as usize {
                    self.b.ins().store(fl, zero, slot, (bytes.len() + k) as i32);
                }
                let mut v = Vec::new();
                let mut off = *offset as i32;
                for (i, &(cl, s)) in rlanes.iter().enumerate() {
                    v.push(self.load_lane(slot, off, cl, s, widths[i]));
                    off += widths[i] as i32;
                }
                out = Some(v);
            }
            InstData::InsertBytes { agg, offset, value } => {
                let bytes = self.get(*agg)?;
                let x = self.get(*value)?;
                let lanes = lanes_of(self.ty(*value))?;
                let widths: Vec<u32> = lanes.iter().map(|&(cl, s)| self.mem_width(cl, s)).collect();
                let size: u32 = widths.iter().sum();
                if *offset as usize + size as usize > bytes.len() {
                    // The interpreter leaves the aggregate as it is.
                    out = Some(bytes);
                } else {
                    let slot = self.slot(bytes.len() as u32 + 8);
                    let fl = MemFlagsData::trusted();
                    for (k, &b) in bytes.iter().enumerate() {
                        self.b.ins().store(fl, b, slot, k as i32);
                    }
                    let mut off = *offset as i32;
                    for (i, &(_, s)) in lanes.iter().enumerate() {
                        let v = if s.is_none() && widths[i] == 4 {
                            self.b.ins().ireduce(types::I32, x[i])
                        } else {
                            x[i]
                        };
                        self.b.ins().store(fl, v, slot, off);
                        off += widths[i] as i32;
                    }
                    let mut v = Vec::new();
                    for k in 0..bytes.len() {
                        v.push(self.b.ins().load(types::I8, fl, slot, k as i32));
                    }
                    out = Some(v);
                }
            }
            InstData::WorkItem { query, dim } => {
                let v = self.work_item(*query, u64::from(*dim));
                out = Some(vec![self.narrow(v, rlanes[0].0)]);
            }
            InstData::WorkItemDyn { query, dim } => {
                let d_cl = lanes_of(self.ty(*dim))?[0].0;
                let d = self.get1(*dim)?;
                let d = to_u64(self.b, d, d_cl);
                let q = self.iconst32(code(WorkItemQuery::ALL, query));
                let v = self.call_helper("jit_work_item_dyn", &[ctx, q, d])[0];
                out = Some(vec![self.narrow(v, rlanes[0].0)]);
            }
            InstData::Call { func: callee, args } => {
                let id = *self
                    .func_ids
                    .get(&callee.index())
                    .ok_or("call of an uncompiled function")?;
                let mut cargs = vec![ctx];
                for &a in args {
                    cargs.extend(self.get(a)?);
                }
                let fref = self.m.declare_func_in_func(id, self.b.func);
                self.store_row_ids();
                let call = self.b.ins().call(fref, &cargs);
                let results = self.b.inst_results(call).to_vec();
                self.check(results[0]);
                if result.is_some() {
                    out = Some(results[1..].to_vec());
                }
            }
            InstData::Builtin { func: bf, args } => {
                out = self.builtin(inst, *bf, args, rty)?;
            }
            InstData::Image { op, args } => {
                let arg_tys: Vec<Type> = args.iter().map(|&a| self.ty(a)).collect();
                let mut arg_vals = Vec::new();
                for &a in args {
                    arg_vals.push(self.get(a)?);
                }
                let kind = SiteKind::Image {
                    op: *op,
                    result: rty,
                    args: arg_tys.clone(),
                };
                out = self.spilled_call(inst, kind, "jit_image", &arg_tys, &arg_vals, rty)?;
            }
            InstData::Barrier { exec_scope, .. } => {
                if self.resumable.is_some() && super::barrier::is_group_barrier(data) {
                    self.barrier_split(inst)?;
                } else if matches!(
                    exec_scope,
                    kir::Scope::Workgroup | kir::Scope::Device | kir::Scope::CrossDevice
                ) {
                    let site = self.site(inst, SiteKind::Barrier);
                    let status = self.call_helper("jit_barrier", &[ctx, site])[0];
                    self.check(status);
                }
            }
            InstData::NamedBarrier { barrier, .. } => {
                let site = self.site(inst, SiteKind::Barrier);
                let handle = self.get1(*barrier)?;
                let status = self.call_helper("jit_named_barrier", &[ctx, site, handle])[0];
                self.check(status);
            }
            InstData::Fence { .. } => {}
            InstData::Atomic {
                op,
                ty: mem_ty,
                ptr,
                args,
                ..
            } => {
                let site = self.site(
                    inst,
                    SiteKind::Atomic {
                        op: *op,
                        ty: *mem_ty,
                    },
                );
                let p = self.get1(*ptr)?;
                let old = self.atomic(inst, *op, *mem_ty, p, args, site)?;
                if result.is_some() {
                    let (cl, s) = rlanes[0];
                    out = Some(vec![if *op == kir::AtomicOp::FlagTestAndSet {
                        self.b.ins().icmp_imm_s(IntCC::NotEqual, old, 0)
                    } else {
                        from_u64(self.b, old, cl, s)
                    }]);
                }
            }
            InstData::Pipe { op, args } => {
                let site = self.site(inst, SiteKind::Access("pipe"));
                let slot = self.slot(8 * args.len() as u32);
                for (i, &a) in args.iter().enumerate() {
                    let cl = lanes_of(self.ty(a))?[0].0;
                    let x = self.get1(a)?;
                    let x = to_u64(self.b, x, cl);
                    self.b.ins().store(flags, x, slot, (8 * i) as i32);
                }
                let rid_bits = crate::interp::item::pipe_rid_bits(*op, args, rty, &|v| self.ty(v));
                let res = self.slot(8);
                let opc = self.iconst32(code(kir::PipeOp::ALL, op));
                let bits = self.iconst32(rid_bits);
                let n = self.iconst32(args.len() as u32);
                let status = self.call_helper("jit_pipe", &[ctx, site, opc, bits, slot, n, res])[0];
                self.check(status);
                if result.is_some() {
                    let r = self.b.ins().load(types::I64, flags, res, 0);
                    let (cl, s) = rlanes[0];
                    out = Some(vec![from_u64(self.b, r, cl, s)]);
                }
            }
            InstData::Enqueue { op, invoke, args } => {
                // Device-side enqueue: one helper call (`enqueue_rt`).
                let site = self.site(inst, SiteKind::Access("enqueue"));
                let slot = self.slot(8 * args.len().max(1) as u32);
                for (i, &a) in args.iter().enumerate() {
                    let cl = lanes_of(self.ty(a))?[0].0;
                    let x = self.get1(a)?;
                    let x = to_u64(self.b, x, cl);
                    self.b.ins().store(flags, x, slot, (8 * i) as i32);
                }
                let res = self.slot(8);
                let opc = self.iconst32(code(kir::EnqueueOp::ALL, op));
                let f = self.iconst32(invoke.map_or(u32::MAX, |f| f.index() as u32));
                let n = self.iconst32(args.len() as u32);
                let status = self.call_helper("jit_enqueue", &[ctx, site, opc, f, slot, n, res])[0];
                self.check(status);
                if result.is_some() {
                    let r = self.b.ins().load(types::I64, flags, res, 0);
                    let (cl, s) = rlanes[0];
                    out = Some(vec![from_u64(self.b, r, cl, s)]);
                }
            }
            InstData::Jump { dest } => {
                self.loop_entry(inst, dest.block);
                let (cb, args) = self.block_call(dest)?;
                self.b.ins().jump(cb, &args);
            }
            InstData::Brif {
                cond,
                then_dest,
                else_dest,
            } => {
                if !self.idle_brif(inst)? {
                    let c = self.get1(*cond)?;
                    let (t, targs) = self.block_call(then_dest)?;
                    let (e, eargs) = self.block_call(else_dest)?;
                    self.b.ins().brif(c, t, &targs, e, &eargs);
                }
            }
            InstData::Switch {
                value,
                default,
                cases,
            } => self.switch(*value, cases, default, Self::block_call)?,
            InstData::Return { value } => {
                if let Some(mark) = self.mark_value() {
                    self.call_helper("jit_private_release", &[ctx, mark]);
                }
                if let Some(row) = &self.row {
                    // The next work-item of the row.
                    let latch = row.latch;
                    if self.phase.is_some() {
                        let returned = self.b.ins().iconst(types::I32, 0);
                        self.b.ins().jump(latch, &bargs(&[returned]));
                    } else {
                        self.b.ins().jump(latch, &[]);
                    }
                } else {
                    let mut rets = vec![self.b.ins().iconst(types::I32, 0)];
                    if let Some(v) = value {
                        rets.extend(self.get(*v)?);
                    }
                    self.b.ins().return_(&rets);
                }
            }
            InstData::Unreachable => {
                let site = self.site(inst, SiteKind::Unreachable);
                let status = self.call_helper("jit_unreachable", &[ctx, site])[0];
                let fail = self.fail;
                self.b.ins().jump(fail, &bargs(&[status]));
            }
        }
        if let (Some(r), Some(v)) = (result, out) {
            self.define(r, v);
        }
        Ok(())
    }

    /// An atomic operation; returns the old value as a u64. Integer operations on 4- or 8-byte
    /// memory run as native atomic instructions when the access is in bounds and aligned (in
    /// its region and in memory); everything else, and every access the interpreter would
    /// refuse, goes through `jit_atomic`, which runs the interpreter's own code.
    fn atomic(
        &mut self,
        inst: kir::Inst,
        op: kir::AtomicOp,
        mem_ty: Type,
        p: ClValue,
        args: &[Value],
        site: ClValue,
    ) -> Result<ClValue, Unsupported> {
        use cranelift_codegen::ir::AtomicRmwOp as R;
        use kir::AtomicOp as A;
        let _ = inst;
        let ctx = self.ctx();
        let mut ab = Vec::new();
        let mut arg_cls = Vec::new();
        for i in 0..2 {
            match args.get(i) {
                Some(&a) => {
                    let cl = lanes_of(self.ty(a))?[0].0;
                    let x = self.get1(a)?;
                    arg_cls.push(cl);
                    ab.push((x, to_u64(self.b, x, cl)));
                }
                None => {
                    let z = self.b.ins().iconst(types::I64, 0);
                    ab.push((z, z));
                }
            }
        }
        let native_ty = match mem_ty {
            Type::I32 => Some(types::I32),
            Type::I64 => Some(types::I64),
            _ => None,
        };
        let native_op = matches!(
            op,
            A::Load
                | A::Store
                | A::Exchange
                | A::CmpXchg
                | A::IIncrement
                | A::IDecrement
                | A::IAdd
                | A::ISub
                | A::SMin
                | A::UMin
                | A::SMax
                | A::UMax
                | A::And
                | A::Or
                | A::Xor
        );
        let slow = self.b.create_block();
        self.b.set_cold_block(slow);
        let done = self.b.create_block();
        let old_param = self.b.append_block_param(done, types::I64);
        if let (Some(nt), true) = (native_ty, native_op) {
            if arg_cls.iter().all(|&c| c == nt) {
                let width = u64::from(nt.bytes());
                let write = op != A::Load;
                let (base, off) = self.checked_address(p, None, None, width, write, slow);
                let addr = self.b.ins().iadd(base, off);
                // The interpreter checks the alignment in the region (local, private) or in
                // memory (global); both hold on the fast path.
                let both = self.b.ins().bor(addr, off);
                let mis = self.b.ins().band_imm_s(both, (width - 1) as i64);
                let go = self.b.create_block();
                self.b.ins().brif(mis, slow, &[], go, &[]);
                self.b.switch_to_block(go);
                let fl = MemFlagsData::new().with_notrap();
                let (a, b) = (ab[0].0, ab[1].0);
                let rmw = |op| Some(op);
                let rop = match op {
                    A::Exchange => rmw(R::Xchg),
                    A::IAdd => rmw(R::Add),
                    A::ISub => rmw(R::Sub),
                    A::SMin => rmw(R::Smin),
                    A::UMin => rmw(R::Umin),
                    A::SMax => rmw(R::Smax),
                    A::UMax => rmw(R::Umax),
                    A::And => rmw(R::And),
                    A::Or => rmw(R::Or),
                    A::Xor => rmw(R::Xor),
                    _ => None,
                };
                let old = match (op, rop) {
                    (_, Some(r)) => self.b.ins().atomic_rmw(nt, fl, r, addr, a),
                    (A::IIncrement | A::IDecrement, _) => {
                        let one = self.b.ins().iconst(nt, 1);
                        let r = if op == A::IIncrement { R::Add } else { R::Sub };
                        self.b.ins().atomic_rmw(nt, fl, r, addr, one)
                    }
                    // OpAtomicCompareExchange: `a` is the value, `b` the comparator.
                    (A::CmpXchg, _) => self.b.ins().atomic_cas(fl, addr, b, a),
                    (A::Load, _) => self.b.ins().atomic_load(nt, fl, addr),
                    _ => {
                        // Store: the old value is not a result.
                        self.b.ins().atomic_store(fl, a, addr);
                        self.b.ins().iconst(nt, 0)
                    }
                };
                let old64 = to_u64(self.b, old, nt);
                self.b.ins().jump(done, &bargs(&[old64]));
            } else {
                self.b.ins().jump(slow, &[]);
            }
        } else {
            self.b.ins().jump(slow, &[]);
        }
        self.b.switch_to_block(slow);
        let slot = self.slot(8);
        let status = self.call_helper("jit_atomic", &[ctx, site, p, ab[0].1, ab[1].1, slot])[0];
        self.check(status);
        let old = self
            .b
            .ins()
            .load(types::I64, MemFlagsData::trusted(), slot, 0);
        self.b.ins().jump(done, &bargs(&[old]));
        self.b.switch_to_block(done);
        Ok(old_param)
    }

    /// Truncates an i64 query result to the result lane type.
    fn narrow(&mut self, v: ClValue, cl: ClType) -> ClValue {
        if cl == types::I64 {
            v
        } else {
            self.b.ins().ireduce(cl, v)
        }
    }

    fn work_item(&mut self, query: WorkItemQuery, dim: u64) -> ClValue {
        match wi_source(query, dim, self.row.is_some()) {
            WiSource::Const(c) => self.b.ins().iconst(types::I64, c as i64),
            WiSource::Row(k) => {
                let row = self.row.as_ref().map(|r| (r.base[k], r.i));
                match row {
                    Some((b0, i)) => self.b.ins().iadd(b0, i),
                    None => self.b.ins().iconst(types::I64, 0),
                }
            }
            WiSource::Slot(index) => {
                if let Some(&v) = self.row_slots.get(&index) {
                    return v;
                }
                let ctx = self.ctx();
                self.b
                    .ins()
                    .load(types::I64, ctx_flags(), ctx, rt::OFF_WI + 8 * index as i32)
            }
        }
    }

    /// In the row loop's first block: reads every work-item query slot the kernel uses that
    /// does not change along the row, once, as ordinary loads (Cranelift would repeat
    /// `can_move` loads at every use, inside loops too).
    fn read_row_slots(&mut self) {
        let fl = MemFlagsData::trusted();
        for &kb in &self.func.layout.blocks {
            for &inst in self.func.layout.insts(kb) {
                let InstData::WorkItem { query, dim } = self.func.dfg.inst(inst) else {
                    continue;
                };
                if let WiSource::Slot(index) = wi_source(*query, u64::from(*dim), true) {
                    if !self.row_slots.contains_key(&index) {
                        let off = rt::OFF_WI + 8 * index as i32;
                        let v = self.b.ins().load(types::I64, fl, self.ctx, off);
                        self.row_slots.insert(index, v);
                    }
                }
            }
        }
    }

    fn lane_helper(
        &mut self,
        name: &str,
        op: u32,
        s: ScalarType,
        args: &[(ClValue, ClType)],
        cl: ClType,
        rs: Option<ScalarType>,
    ) -> ClValue {
        let opc = self.iconst32(op);
        let sc = self.iconst32(code(&ScalarType::ALL, &s));
        let mut call = vec![opc, sc];
        for &(v, t) in args {
            call.push(to_u64(self.b, v, t));
        }
        let r = self.call_helper(name, &call)[0];
        from_u64(self.b, r, cl, rs)
    }

    fn unary(
        &mut self,
        op: UnaryOp,
        cl: ClType,
        s: Option<ScalarType>,
        x: ClValue,
    ) -> Result<ClValue, Unsupported> {
        let s = s.ok_or("unary on a pointer")?;
        let ins = self.b.ins();
        Ok(match (op, s) {
            (UnaryOp::Not, ScalarType::Bool) => ins.bxor_imm_u(x, 1),
            (UnaryOp::Not, _) if s.is_int() => ins.bnot(x),
            (UnaryOp::INeg, _) if s.is_int() => ins.ineg(x),
            (UnaryOp::FNeg, ScalarType::F32 | ScalarType::F64) => ins.fneg(x),
            (UnaryOp::BitCount, _) if s.is_int() => ins.popcnt(x),
            (UnaryOp::BitReverse, _) if s.is_int() => ins.bitrev(x),
            _ => self.lane_helper(
                "jit_lane_unary",
                code(UnaryOp::ALL, &op),
                s,
                &[(x, cl)],
                cl,
                Some(s),
            ),
        })
    }

    fn binary(
        &mut self,
        op: BinaryOp,
        cl: ClType,
        s: Option<ScalarType>,
        x: ClValue,
        y: ClValue,
        ycl: ClType,
    ) -> Result<ClValue, Unsupported> {
        use BinaryOp as B;
        let s = s.ok_or("arithmetic on a pointer")?;
        let int = s.is_int();
        let float = matches!(s, ScalarType::F32 | ScalarType::F64);
        let bitwise = matches!(op, B::And | B::Or | B::Xor);
        if int || (s.is_bool() && bitwise) {
            let ins = self.b.ins();
            let done = match op {
                B::IAdd => Some(ins.iadd(x, y)),
                B::ISub => Some(ins.isub(x, y)),
                B::IMul => Some(ins.imul(x, y)),
                B::And => Some(ins.band(x, y)),
                B::Or => Some(ins.bor(x, y)),
                B::Xor => Some(ins.bxor(x, y)),
                // Cranelift takes shift amounts modulo the width, as the interpreter does.
                B::Shl => Some(ins.ishl(x, y)),
                B::LShr => Some(ins.ushr(x, y)),
                B::AShr => Some(ins.sshr(x, y)),
                _ => None,
            };
            if let Some(v) = done {
                return Ok(v);
            }
            if ycl == cl && matches!(op, B::UDiv | B::URem | B::SDiv | B::SRem) {
                return Ok(self.division(op, cl, x, y));
            }
        }
        if float {
            let ins = self.b.ins();
            match op {
                B::FAdd => return Ok(ins.fadd(x, y)),
                B::FSub => return Ok(ins.fsub(x, y)),
                B::FMul => return Ok(ins.fmul(x, y)),
                B::FDiv => return Ok(ins.fdiv(x, y)),
                _ => {}
            }
        }
        Ok(self.lane_helper(
            "jit_lane_binary",
            code(BinaryOp::ALL, &op),
            s,
            &[(x, cl), (y, ycl)],
            cl,
            Some(s),
        ))
    }

    /// Division and remainder that never trap: by zero gives 0, `MIN / -1` wraps, `MIN % -1`
    /// is 0 (the interpreter's rules).
    fn division(&mut self, op: BinaryOp, cl: ClType, x: ClValue, y: ClValue) -> ClValue {
        let zero = self.b.ins().iconst(cl, 0);
        let one = self.b.ins().iconst(cl, 1);
        let is_zero = self.b.ins().icmp_imm_s(IntCC::Equal, y, 0);
        match op {
            BinaryOp::UDiv | BinaryOp::URem => {
                let safe = self.b.ins().select(is_zero, one, y);
                let r = if op == BinaryOp::UDiv {
                    self.b.ins().udiv(x, safe)
                } else {
                    self.b.ins().urem(x, safe)
                };
                self.b.ins().select(is_zero, zero, r)
            }
            _ => {
                let is_m1 = self.b.ins().icmp_imm_s(IntCC::Equal, y, -1);
                let either = self.b.ins().bor(is_zero, is_m1);
                let safe = self.b.ins().select(either, one, y);
                let (r, on_m1) = if op == BinaryOp::SDiv {
                    (self.b.ins().sdiv(x, safe), self.b.ins().ineg(x))
                } else {
                    (self.b.ins().srem(x, safe), zero)
                };
                let r = self.b.ins().select(is_m1, on_m1, r);
                self.b.ins().select(is_zero, zero, r)
            }
        }
    }

    fn cmp(
        &mut self,
        op: CmpOp,
        cl: ClType,
        s: Option<ScalarType>,
        x: ClValue,
        y: ClValue,
    ) -> ClValue {
        use CmpOp as C;
        let int = |cc| Some(cc);
        let icc = match op {
            C::IEq | C::LogicalEq => int(IntCC::Equal),
            C::INe | C::LogicalNe => int(IntCC::NotEqual),
            C::ULt => int(IntCC::UnsignedLessThan),
            C::ULe => int(IntCC::UnsignedLessThanOrEqual),
            C::UGt => int(IntCC::UnsignedGreaterThan),
            C::UGe => int(IntCC::UnsignedGreaterThanOrEqual),
            C::SLt => int(IntCC::SignedLessThan),
            C::SLe => int(IntCC::SignedLessThanOrEqual),
            C::SGt => int(IntCC::SignedGreaterThan),
            C::SGe => int(IntCC::SignedGreaterThanOrEqual),
            _ => None,
        };
        let is_float = matches!(s, Some(ScalarType::F32 | ScalarType::F64));
        let is_f16 = s == Some(ScalarType::F16);
        if let Some(cc) = icc {
            if !is_float && !is_f16 {
                return self.b.ins().icmp(cc, x, y);
            }
        }
        if is_float {
            let fcc = match op {
                C::FOrdEq => Some(FloatCC::Equal),
                C::FOrdNe => Some(FloatCC::OrderedNotEqual),
                C::FOrdLt => Some(FloatCC::LessThan),
                C::FOrdLe => Some(FloatCC::LessThanOrEqual),
                C::FOrdGt => Some(FloatCC::GreaterThan),
                C::FOrdGe => Some(FloatCC::GreaterThanOrEqual),
                C::FUnordEq => Some(FloatCC::UnorderedOrEqual),
                C::FUnordNe => Some(FloatCC::NotEqual),
                C::FUnordLt => Some(FloatCC::UnorderedOrLessThan),
                C::FUnordLe => Some(FloatCC::UnorderedOrLessThanOrEqual),
                C::FUnordGt => Some(FloatCC::UnorderedOrGreaterThan),
                C::FUnordGe => Some(FloatCC::UnorderedOrGreaterThanOrEqual),
                C::FOrd => Some(FloatCC::Ordered),
                C::FUnord => Some(FloatCC::Unordered),
                _ => None,
            };
            if let Some(cc) = fcc {
                return self.b.ins().fcmp(cc, x, y);
            }
        }
        let s = s.unwrap_or(ScalarType::I64);
        self.lane_helper(
            "jit_lane_cmp",
            code(CmpOp::ALL, &op),
            s,
            &[(x, cl), (y, cl)],
            types::I8,
            Some(ScalarType::Bool),
        )
    }

    fn convert(
        &mut self,
        op: ConvertOp,
        arg: Value,
        rty: Type,
        rounding: Option<Rounding>,
        saturate: bool,
    ) -> Result<Vec<ClValue>, Unsupported> {
        let aty = self.ty(arg);
        let x = self.get(arg)?;
        let alanes = lanes_of(aty)?;
        let rlanes = lanes_of(rty)?;
        let ab = self.module.address_bits;
        match op {
            ConvertOp::PtrToInt => {
                let (cl, _) = rlanes[0];
                return Ok(vec![self.narrow(x[0], cl)]);
            }
            ConvertOp::IntToPtr => {
                let (cl, _) = alanes[0];
                let v = to_u64(self.b, x[0], cl);
                let v = if ab >= 64 {
                    v
                } else {
                    self.b.ins().band_imm_s(v, ((1u64 << ab) - 1) as i64)
                };
                return Ok(vec![v]);
            }
            ConvertOp::PtrCast => return Ok(x),
            ConvertOp::PtrCastChecked => {
                let target = match rty {
                    Type::Ptr(space) => code(&AddrSpace::ALL, &space) + 1,
                    _ => u32::MAX,
                };
                let ctx = self.ctx();
                let space = self.call_helper("jit_ptr_space", &[ctx, x[0]])[0];
                let hit = self
                    .b
                    .ins()
                    .icmp_imm_s(IntCC::Equal, space, i64::from(target));
                let zero = self.b.ins().iconst(types::I64, 0);
                return Ok(vec![self.b.ins().select(hit, x[0], zero)]);
            }
            ConvertOp::Bitcast => {
                // Through memory: the interpreter's to_bytes/from_bytes.
                let slot = self.slot(256);
                let flags = MemFlagsData::trusted();
                let mut off = 0i32;
                for (i, &(cl, s)) in alanes.iter().enumerate() {
                    let w = self.mem_width(cl, s) as i32;
                    let v = if s.is_none() && w == 4 {
                        self.b.ins().ireduce(types::I32, x[i])
                    } else {
                        x[i]
                    };
                    self.b.ins().store(flags, v, slot, off);
                    off += w;
                }
                let mut v = Vec::new();
                let mut off = 0i32;
                for &(cl, s) in &rlanes {
                    let w = self.mem_width(cl, s) as i32;
                    let y = match s {
                        None if w == 4 => {
                            let y = self.b.ins().load(types::I32, flags, slot, off);
                            self.b.ins().uextend(types::I64, y)
                        }
                        Some(ScalarType::Bool) => {
                            let y = self.b.ins().load(types::I8, flags, slot, off);
                            self.b.ins().icmp_imm_s(IntCC::NotEqual, y, 0)
                        }
                        _ => self.b.ins().load(cl, flags, slot, off),
                    };
                    v.push(y);
                    off += w;
                }
                return Ok(v);
            }
            _ => {}
        }
        let fs = aty.lane_type().ok_or("convert of a pointer")?;
        let ts = rty.lane_type().ok_or("convert to a pointer")?;
        let mut v = Vec::new();
        for i in 0..rlanes.len() {
            let (acl, _) = alanes[i];
            let (rcl, _) = rlanes[i];
            let xi = x[i];
            let both_int = fs.is_int() && ts.is_int();
            let r = match op {
                ConvertOp::SConvert | ConvertOp::UConvert | ConvertOp::SToU | ConvertOp::UToS
                    if both_int && !saturate =>
                {
                    let signed = matches!(op, ConvertOp::SConvert | ConvertOp::SToU);
                    if rcl.bits() > acl.bits() {
                        if signed {
                            self.b.ins().sextend(rcl, xi)
                        } else {
                            self.b.ins().uextend(rcl, xi)
                        }
                    } else if rcl.bits() < acl.bits() {
                        self.b.ins().ireduce(rcl, xi)
                    } else {
                        xi
                    }
                }
                ConvertOp::SToF | ConvertOp::UToF
                    if matches!(fs, ScalarType::I32 | ScalarType::I64)
                        && matches!(ts, ScalarType::F32 | ScalarType::F64)
                        && matches!(rounding, None | Some(Rounding::Rte))
                        && !(op == ConvertOp::UToF && fs == ScalarType::I64) =>
                {
                    if op == ConvertOp::UToF {
                        let wide = self.b.ins().uextend(types::I64, xi);
                        self.b.ins().fcvt_from_sint(rcl, wide)
                    } else {
                        self.b.ins().fcvt_from_sint(rcl, xi)
                    }
                }
                ConvertOp::FConvert if fs == ScalarType::F32 && ts == ScalarType::F64 => {
                    self.b.ins().fpromote(types::F64, xi)
                }
                _ => {
                    let opc = self.iconst32(code(ConvertOp::ALL, &op));
                    let fc = self.iconst32(code(&ScalarType::ALL, &fs));
                    let tc = self.iconst32(code(&ScalarType::ALL, &ts));
                    let rc = self.iconst32(rounding.map_or(0, |r| code(Rounding::ALL, &r) + 1));
                    let sc = self.iconst32(u32::from(saturate));
                    let bits = to_u64(self.b, xi, acl);
                    let r = self.call_helper("jit_lane_convert", &[opc, fc, tc, rc, sc, bits])[0];
                    from_u64(self.b, r, rcl, Some(ts))
                }
            };
            v.push(r);
        }
        Ok(v)
    }

    // Lane loops index several parallel lists.
    #[allow(clippy::needless_range_loop)]
    fn builtin(
        &mut self,
        inst: kir::Inst,
        bf: BuiltinFn,
        args: &[Value],
        rty: Option<Type>,
    ) -> Result<Option<Vec<ClValue>>, Unsupported> {
        use BuiltinFn as B;
        if bf == B::Prefetch {
            return Ok(None);
        }
        let arg_tys: Vec<Type> = args.iter().map(|&a| self.ty(a)).collect();
        let mut arg_vals = Vec::new();
        for &a in args {
            arg_vals.push(self.get(a)?);
        }
        if let Some(rty) = rty {
            let rlanes = lanes_of(rty)?;
            let rs = rty.lane_type();
            let as_ = arg_tys.first().and_then(|t| t.lane_type());
            // Inline: exact operations whose results equal devlib's bit for bit.
            let same_float = matches!(rs, Some(ScalarType::F32 | ScalarType::F64))
                && arg_tys.iter().all(|t| *t == rty);
            if same_float
                && matches!(
                    bf,
                    B::Sqrt | B::Fabs | B::Floor | B::Ceil | B::Trunc | B::Copysign
                )
            {
                let mut v = Vec::new();
                for i in 0..rlanes.len() {
                    let x = arg_vals[0][i];
                    let ins = self.b.ins();
                    v.push(match bf {
                        B::Sqrt => ins.sqrt(x),
                        B::Fabs => ins.fabs(x),
                        B::Floor => ins.floor(x),
                        B::Ceil => ins.ceil(x),
                        B::Trunc => ins.trunc(x),
                        _ => ins.fcopysign(x, arg_vals[1][i]),
                    });
                }
                return Ok(Some(v));
            }
            // Integer min/max/clamp (devlib::integer: clamp = min(max(x, lo), hi)).
            let same_int =
                rs.is_some_and(ScalarType::is_int) && arg_tys.iter().all(|t| t.lane_type() == rs);
            let minmax = matches!(
                bf,
                B::SMin | B::SMax | B::UMin | B::UMax | B::SClamp | B::UClamp
            );
            if same_int && minmax {
                let signed = matches!(bf, B::SMin | B::SMax | B::SClamp);
                let (lt, gt) = if signed {
                    (IntCC::SignedLessThan, IntCC::SignedGreaterThan)
                } else {
                    (IntCC::UnsignedLessThan, IntCC::UnsignedGreaterThan)
                };
                let lane = |vals: &Vec<ClValue>, i: usize| *vals.get(i).unwrap_or(&vals[0]);
                let mut v = Vec::new();
                for i in 0..rlanes.len() {
                    let x = lane(&arg_vals[0], i);
                    let y = lane(&arg_vals[1], i);
                    let max = |b: &mut FunctionBuilder<'_>, p: ClValue, q: ClValue| {
                        let c = b.ins().icmp(gt, p, q);
                        b.ins().select(c, p, q)
                    };
                    let min = |b: &mut FunctionBuilder<'_>, p: ClValue, q: ClValue| {
                        let c = b.ins().icmp(lt, p, q);
                        b.ins().select(c, p, q)
                    };
                    v.push(match bf {
                        B::SMin | B::UMin => min(self.b, x, y),
                        B::SMax | B::UMax => max(self.b, x, y),
                        _ => {
                            let hi = lane(&arg_vals[2], i);
                            let m = max(self.b, x, y);
                            min(self.b, m, hi)
                        }
                    });
                }
                return Ok(Some(v));
            }
            // Float math with a helper of its own (`math_rt`), called with native floats.
            let direct = rs
                .and_then(|rs| super::math_rt::direct(bf, rs))
                .filter(|d| {
                    d.params.len() == args.len()
                        && rty.is_vector() == arg_tys[0].is_vector()
                        && arg_tys.iter().all(|t| t.lane_type() == rs)
                });
            if let Some(d) = direct {
                let sig = sig_of(self.m, &d.params, &[d.ret]);
                let id = self
                    .m
                    .declare_function(d.name, Linkage::Import, &sig)
                    .map_err(|e| e.to_string())?;
                let fref = self.m.declare_func_in_func(id, self.b.func);
                let mut v = Vec::new();
                for i in 0..rlanes.len() {
                    let call_args: Vec<ClValue> = arg_vals
                        .iter()
                        .map(|lanes| *lanes.get(i).unwrap_or(&lanes[0]))
                        .collect();
                    let call = self.b.ins().call(fref, &call_args);
                    v.push(self.b.inst_results(call)[0]);
                }
                return Ok(Some(v));
            }
            if let (Some(rs), Some(as_)) = (rs, as_) {
                if rty.is_vector() == arg_tys[0].is_vector()
                    && rt::builtin_lane_supported(bf, rs, as_, args.len())
                {
                    let mut v = Vec::new();
                    for (i, &(rcl, _)) in rlanes.iter().enumerate() {
                        let fc = self.iconst32(bf.opcode());
                        let rc = self.iconst32(code(&ScalarType::ALL, &rs));
                        let ac = self.iconst32(code(&ScalarType::ALL, &as_));
                        let n = self.iconst32(args.len() as u32);
                        let mut call = vec![fc, rc, ac, n];
                        for k in 0..3 {
                            match arg_vals.get(k) {
                                Some(lanes) => {
                                    let lane = *lanes.get(i).unwrap_or(&lanes[0]);
                                    let cl = lanes_of(arg_tys[k])?[0].0;
                                    call.push(to_u64(self.b, lane, cl));
                                }
                                None => call.push(self.b.ins().iconst(types::I64, 0)),
                            }
                        }
                        let r = self.call_helper("jit_builtin_lane", &call)[0];
                        v.push(from_u64(self.b, r, rcl, Some(rs)));
                    }
                    return Ok(Some(v));
                }
            }
        }
        // The general path: the interpreter's `builtins::call` on spilled lanes.
        let kind = SiteKind::Builtin {
            func: bf,
            result: rty,
            args: arg_tys.clone(),
        };
        self.spilled_call(inst, kind, "jit_builtin", &arg_tys, &arg_vals, rty)
    }

    /// Calls `helper(ctx, site, args, res)` with every argument lane spilled to a stack slot
    /// (u64 each) and reads the result lanes back from another.
    fn spilled_call(
        &mut self,
        inst: kir::Inst,
        kind: SiteKind,
        helper: &str,
        arg_tys: &[Type],
        arg_vals: &[Vec<ClValue>],
        rty: Option<Type>,
    ) -> Result<Option<Vec<ClValue>>, Unsupported> {
        let ctx = self.ctx();
        let total: usize = arg_vals.iter().map(Vec::len).sum();
        let args_slot = self.slot((total.max(1) * 8) as u32);
        let flags = MemFlagsData::trusted();
        let mut k = 0i32;
        for (a, lanes) in arg_tys.iter().zip(arg_vals) {
            let cls = lanes_of(*a)?;
            for (i, &l) in lanes.iter().enumerate() {
                let bits = to_u64(self.b, l, cls[i].0);
                self.b.ins().store(flags, bits, args_slot, k);
                k += 8;
            }
        }
        let rlanes = match rty {
            Some(t) => lanes_of(t)?,
            None => Vec::new(),
        };
        let res_slot = self.slot((rlanes.len().max(1) * 8) as u32);
        let site = self.site(inst, kind);
        let status = self.call_helper(helper, &[ctx, site, args_slot, res_slot])[0];
        self.check(status);
        if rty.is_none() {
            return Ok(None);
        }
        let mut v = Vec::new();
        for (i, &(cl, s)) in rlanes.iter().enumerate() {
            let bits = self.b.ins().load(types::I64, flags, res_slot, 8 * i as i32);
            v.push(from_u64(self.b, bits, cl, s));
        }
        Ok(Some(v))
    }
}

/// Blocks reachable from `entry` in reverse postorder (definitions before uses).
fn rpo(func: &Function, entry: kir::Block) -> Vec<kir::Block> {
    let mut seen = vec![false; func.dfg.num_blocks()];
    let mut post = Vec::new();
    let mut stack: Vec<(kir::Block, usize)> = vec![(entry, 0)];
    if let Some(s) = seen.get_mut(entry.index()) {
        *s = true;
    }
    while let Some((b, i)) = stack.pop() {
        let succs: Vec<kir::Block> = func
            .terminator(b)
            .map(|t| {
                func.dfg
                    .inst(t)
                    .branch_targets()
                    .iter()
                    .map(|c| c.block)
                    .collect()
            })
            .unwrap_or_default();
        if i < succs.len() {
            stack.push((b, i + 1));
            let s = succs[i];
            if s.index() < seen.len() && !seen[s.index()] {
                seen[s.index()] = true;
                stack.push((s, 0));
            }
        } else {
            post.push(b);
        }
    }
    post.reverse();
    post
}
