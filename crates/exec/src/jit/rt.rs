//! What compiled kernels see at run time: the per-work-item context (`ItemCtx`, whose first
//! fields JIT code reads directly) and the `extern "C"` helpers JIT code calls for everything
//! that is not inlined.
//!
//! Memory: a pointer is the interpreter's encoding (`interp::memory`: region tag, byte offset).
//! Each work-item context has a region table indexed by the tag: base address, bytes readable,
//! bytes writable (0 for `__constant` and unused tags). JIT code checks `offset + size <= len`
//! inline; a failing check calls [`jit_resolve`], which resolves the access through the
//! interpreter's `Memory`: a host address into shared virtual memory (tag 0, never in the
//! table) gets its native address back, anything else the very error the interpreter reports.
//!
//! Helpers that compute values (lane operations, builtins, conversions, atomics) call the
//! interpreter's own functions, so both engines agree by construction.

use kir::{
    AtomicOp, BinaryOp, BuiltinFn, CmpOp, ConvertOp, Inst, Rounding, ScalarType, TestOp, Type,
    UnaryOp, WorkItemQuery,
};

use crate::interp::memory::{Fault, Memory, PtrLayout, SharedRegion};
use crate::interp::value::Val;
use crate::interp::{builtins, eval, item};
use crate::ExecError;

/// One region-table entry (32 bytes; JIT code reads `base`, `read_len`, `write_len`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub base: *mut u8,
    pub read_len: u64,
    pub write_len: u64,
    pub pad: u64,
}

pub const ENTRY_SHIFT: i64 = 5;

impl Entry {
    pub const EMPTY: Entry = Entry {
        base: std::ptr::null_mut(),
        read_len: 0,
        write_len: 0,
        pad: 0,
    };
}

/// Work-item query slots of `ItemCtx::wi` (each `[u64; 3]` group is dimensions 0..3).
pub mod slot {
    pub const GLOBAL_ID: usize = 0;
    pub const LOCAL_ID: usize = 3;
    pub const GROUP_ID: usize = 6;
    pub const GLOBAL_SIZE: usize = 9;
    pub const LOCAL_SIZE: usize = 12;
    pub const ENQ_LOCAL_SIZE: usize = 15;
    pub const NUM_GROUPS: usize = 18;
    pub const GLOBAL_OFFSET: usize = 21;
    pub const WORK_DIM: usize = 24;
    pub const GLOBAL_LINEAR: usize = 25;
    pub const LOCAL_LINEAR: usize = 26;
    pub const NUM_SUBGROUPS: usize = 27;
    pub const ENQ_NUM_SUBGROUPS: usize = 28;
    pub const COUNT: usize = 29;
}

/// Byte offsets of the fields JIT code reads.
pub const OFF_TABLE: i32 = 0;
pub const OFF_PARAMS: i32 = 8;
pub const OFF_WI: i32 = 16;
pub const OFF_SPILL: i32 = OFF_WI + 8 * slot::COUNT as i32;
pub const OFF_RESOLVED: i32 = OFF_SPILL + 8;
pub const OFF_DIVERGED_AT: i32 = OFF_RESOLVED + 8;
pub const OFF_DIVERGED_STOP: i32 = OFF_DIVERGED_AT + 8;

/// Site kinds recorded at compile time, for helpers that need the instruction's details.
#[derive(Clone, Debug)]
pub enum SiteKind {
    Access(&'static str),
    Builtin {
        func: BuiltinFn,
        result: Option<Type>,
        args: Vec<Type>,
    },
    Atomic {
        op: AtomicOp,
        ty: Type,
    },
    /// An image instruction (`jit::image_rt`).
    Image {
        op: kir::ImageOp,
        result: Option<Type>,
        args: Vec<Type>,
    },
    StackAlloc(u32),
    Unreachable,
    Barrier,
}

/// An instruction helpers may report an error at.
#[derive(Clone, Debug)]
pub struct Site {
    pub func: usize,
    pub inst: Inst,
    pub kind: SiteKind,
}

/// Run-wide facts the helpers read (shared by all work-items of a launch).
pub struct Shared<'a> {
    pub kernel_name: &'a str,
    pub func_names: Vec<String>,
    pub sites: &'a [Site],
    pub layout: PtrLayout,
    pub shared: &'a [SharedRegion],
    /// The launch's SVM allocations (tag-0 pointers; `crate::svm`).
    pub svm: &'a crate::svm::SvmSpace,
    pub address_bits: u32,
    pub max_private_bytes: u64,
    /// The host launch's device queue (device-side enqueue).
    pub queue: &'a crate::enqueue::DeviceQueue,
}

/// The context of one work-item. `#[repr(C)]`: the first three fields are read by JIT code.
#[repr(C)]
pub struct ItemCtx {
    pub table: *mut Entry,
    pub params: *const u64,
    pub wi: [u64; slot::COUNT],
    /// The spill area of a kernel split at its barriers (`spill_store`'s memory).
    pub spill: *mut u64,
    /// The address `kir_resolve` (a `jit_resolve` that preserves every register) found.
    pub resolved: u64,
    /// Phase loop (`compile::phase`): index in the row of the first work-item that stopped
    /// elsewhere than the row's work-item 0 (`u64::MAX`: none), and its stop.
    pub diverged_at: u64,
    pub diverged_stop: u64,
    pub spill_store: Vec<u64>,
    /// The region table itself (indexed by tag): four u64 words per `Entry`, allocated zeroed
    /// (an all-zero entry is empty), so untouched pages cost nothing.
    pub table_store: Vec<u64>,
    pub private: Vec<Vec<u8>>,
    pub local: *mut Vec<Vec<u8>>,
    pub shared: *const Shared<'static>,
    pub out: Vec<u8>,
    pub error: Option<ExecError>,
    /// The coroutine yielder when the work-item runs as a coroutine (barriers).
    pub yielder: *const corosensei::Yielder<bool, u64>,
    /// The handle of the named barrier the work-item waits at, while it waits there.
    pub named_barrier: Option<u64>,
    /// Shared and local entries set by the current launch (cleared before reuse).
    shared_set: usize,
    local_set: usize,
}

// The offsets JIT code uses are the fields' offsets.
const _: () = {
    assert!(std::mem::offset_of!(ItemCtx, table) == OFF_TABLE as usize);
    assert!(std::mem::offset_of!(ItemCtx, params) == OFF_PARAMS as usize);
    assert!(std::mem::offset_of!(ItemCtx, wi) == OFF_WI as usize);
    assert!(std::mem::offset_of!(ItemCtx, spill) == OFF_SPILL as usize);
    assert!(std::mem::offset_of!(ItemCtx, resolved) == OFF_RESOLVED as usize);
    assert!(std::mem::offset_of!(ItemCtx, diverged_at) == OFF_DIVERGED_AT as usize);
    assert!(std::mem::offset_of!(ItemCtx, diverged_stop) == OFF_DIVERGED_STOP as usize);
};

impl ItemCtx {
    pub fn new(layout: PtrLayout) -> Box<ItemCtx> {
        Box::new(ItemCtx {
            table: std::ptr::null_mut(),
            params: std::ptr::null(),
            wi: [0; slot::COUNT],
            spill: std::ptr::null_mut(),
            resolved: 0,
            diverged_at: u64::MAX,
            diverged_stop: 0,
            spill_store: Vec::new(),
            table_store: vec![0u64; 4usize << layout.tag_bits],
            private: Vec::new(),
            local: std::ptr::null_mut(),
            shared: std::ptr::null(),
            out: Vec::new(),
            error: None,
            yielder: std::ptr::null(),
            named_barrier: None,
            shared_set: 0,
            local_set: 0,
        })
    }

    /// Forgets a previous launch's regions so the context can serve another launch.
    pub fn clear_regions(&mut self, layout: PtrLayout) {
        for i in 0..self.shared_set {
            let tag = tag_of(layout, crate::interp::memory::RegionRef::Shared(i));
            self.set_entry(tag, Entry::EMPTY);
        }
        for i in 0..self.local_set {
            let tag = tag_of(layout, crate::interp::memory::RegionRef::Local(i));
            self.set_entry(tag, Entry::EMPTY);
        }
        for i in 0..self.private.len() {
            let tag = tag_of(layout, crate::interp::memory::RegionRef::Private(i));
            self.set_entry(tag, Entry::EMPTY);
        }
        self.private.clear();
        self.shared_set = 0;
        self.local_set = 0;
        self.error = None;
        self.out.clear();
        self.yielder = std::ptr::null();
        self.named_barrier = None;
    }

    /// Entries this context can hold: 2^tag_bits.
    pub fn capacity(&self) -> usize {
        self.table_store.len() / 4
    }

    fn set_entry(&mut self, tag: usize, e: Entry) {
        if let Some(words) = self.table_store.get_mut(4 * tag..4 * tag + 4) {
            words[0] = e.base as u64;
            words[1] = e.read_len;
            words[2] = e.write_len;
            words[3] = 0;
        }
    }

    pub(crate) fn sh(&self) -> &Shared<'static> {
        // SAFETY: set by the launch before any JIT code runs and outlives it.
        unsafe { &*self.shared }
    }

    pub fn global_id(&self) -> [u64; 3] {
        [self.wi[0], self.wi[1], self.wi[2]]
    }

    pub fn local_id(&self) -> [u64; 3] {
        [self.wi[3], self.wi[4], self.wi[5]]
    }

    /// Fills the table entries of shared regions (once per context).
    pub fn set_shared(&mut self, shared: &Shared<'_>) {
        let layout = shared.layout;
        self.shared_set = shared.shared.len();
        for (i, r) in shared.shared.iter().enumerate() {
            let tag = tag_of(layout, crate::interp::memory::RegionRef::Shared(i));
            self.set_entry(
                tag,
                Entry {
                    base: r.base,
                    read_len: r.len as u64,
                    write_len: if r.space == kir::AddrSpace::Constant {
                        0
                    } else {
                        r.len as u64
                    },
                    pad: 0,
                },
            );
        }
        self.table = self.table_store.as_mut_ptr().cast::<Entry>();
    }

    /// Points the local-region entries at a group's local memory.
    pub fn set_local(&mut self, layout: PtrLayout, local: &mut Vec<Vec<u8>>) {
        self.local_set = self.local_set.max(local.len());
        for (i, r) in local.iter_mut().enumerate() {
            let tag = tag_of(layout, crate::interp::memory::RegionRef::Local(i));
            self.set_entry(
                tag,
                Entry {
                    base: r.as_mut_ptr(),
                    read_len: r.len() as u64,
                    write_len: r.len() as u64,
                    pad: 0,
                },
            );
        }
        self.local = local;
        self.table = self.table_store.as_mut_ptr().cast::<Entry>();
    }

    /// Resets private memory to the module's initial private variables.
    pub fn reset_private(&mut self, layout: PtrLayout, inits: &[Vec<u8>]) {
        for i in 0..self.private.len() {
            let tag = tag_of(layout, crate::interp::memory::RegionRef::Private(i));
            self.set_entry(tag, Entry::EMPTY);
        }
        self.private.clear();
        self.private.extend(inits.iter().cloned());
        self.sync_private(layout, 0);
    }

    /// Rewrites the private entries from index `from` on.
    fn sync_private(&mut self, layout: PtrLayout, from: usize) {
        for i in from..self.private.len() {
            let tag = tag_of(layout, crate::interp::memory::RegionRef::Private(i));
            let r = &mut self.private[i];
            let entry = Entry {
                base: r.as_mut_ptr(),
                read_len: r.len() as u64,
                write_len: r.len() as u64,
                pad: 0,
            };
            self.set_entry(tag, entry);
        }
    }

    pub(super) fn memory(&mut self) -> Memory<'_> {
        // SAFETY: set by the launch before any JIT code runs and outlives it.
        let sh: &Shared<'static> = unsafe { &*self.shared };
        // SAFETY: `local` points at the running group's local memory (see `set_local`).
        let local: &mut Vec<Vec<u8>> = unsafe { &mut *self.local };
        Memory {
            layout: sh.layout,
            shared: sh.shared,
            svm: sh.svm,
            local,
            private: &mut self.private,
            shadow: None,
            item: 0,
        }
    }

    pub(crate) fn site(&self, site: u32) -> &Site {
        &self.sh().sites[site as usize]
    }

    fn location(&self, site: &Site) -> String {
        let name = self
            .sh()
            .func_names
            .get(site.func)
            .map_or("", String::as_str);
        format!("fn{} {name:?} {}", site.func, site.inst)
    }

    /// Records the interpreter's error for `fault` at `site`.
    pub(super) fn set_fault(&mut self, site: u32, access: &'static str, fault: Fault) -> i32 {
        let at = self.location(self.site(site));
        let kernel = self.sh().kernel_name.to_string();
        let global_id = self.global_id();
        self.error = Some(match fault {
            Fault::OutOfBounds {
                space,
                offset,
                size,
                len,
            } => ExecError::OutOfBounds {
                kernel,
                global_id,
                at,
                access,
                space,
                offset,
                size,
                len,
            },
            Fault::Invalid { pointer, reason } => ExecError::InvalidPointer {
                kernel,
                global_id,
                at,
                access,
                pointer,
                reason,
            },
            Fault::Misaligned { space, offset } => ExecError::MisalignedAtomic {
                kernel,
                global_id,
                at,
                space,
                offset,
            },
            Fault::Race {
                space,
                offset,
                other,
                write,
            } => ExecError::DataRace {
                kernel,
                global_id,
                at,
                access: if write { "write" } else { "read" },
                space,
                offset,
                other,
            },
        });
        1
    }

    pub(crate) fn set_unsupported(&mut self, site: u32, what: String) -> i32 {
        let at = self.location(self.site(site));
        self.error = Some(ExecError::Unsupported {
            kernel: self.sh().kernel_name.to_string(),
            global_id: self.global_id(),
            at,
            what,
        });
        1
    }
}

/// The table index of a region.
pub fn tag_of(layout: PtrLayout, region: crate::interp::memory::RegionRef) -> usize {
    (layout.encode(region, 0) >> layout.offset_bits) as usize
}

/// Index of a variant in its `ALL` list (the code JIT code passes to helpers).
pub fn code<T: PartialEq>(all: &[T], x: &T) -> u32 {
    all.iter().position(|y| y == x).unwrap_or(0) as u32
}

fn scalar(code: u32) -> ScalarType {
    ScalarType::ALL
        .get(code as usize)
        .copied()
        .unwrap_or(ScalarType::I64)
}

/// A failed inline bounds check: repeats the access the interpreter's way to get its error.
/// `write` is 1 for stores.
pub extern "C" fn jit_fault(ctx: *mut ItemCtx, site: u32, ptr: u64, size: u64, write: u32) -> i32 {
    // SAFETY: JIT code passes its own context.
    let ctx = unsafe { &mut *ctx };
    let mut buf = vec![0u8; size.min(1 << 20) as usize];
    let (access, r) = {
        let mut mem = ctx.memory();
        if write != 0 {
            ("store", mem.write(ptr, &buf))
        } else {
            ("load", mem.read(ptr, &mut buf))
        }
    };
    match r {
        Err(f) => ctx.set_fault(site, access, f),
        // Cannot happen (the inline check is the interpreter's check); report it anyway.
        Ok(()) => ctx.set_unsupported(site, "inconsistent bounds check".into()),
    }
}

pub extern "C" fn jit_lane_unary(op: u32, s: u32, x: u64) -> u64 {
    let op = UnaryOp::ALL[op as usize];
    eval::unary(op, Type::scalar(scalar(s)), &Val::S(x)).s()
}

pub extern "C" fn jit_lane_binary(op: u32, s: u32, a: u64, b: u64) -> u64 {
    let op = BinaryOp::ALL[op as usize];
    eval::binary(op, Type::scalar(scalar(s)), &Val::S(a), &Val::S(b)).s()
}

pub extern "C" fn jit_lane_cmp(op: u32, s: u32, a: u64, b: u64) -> u64 {
    let op = CmpOp::ALL[op as usize];
    eval::cmp(
        op,
        Type::scalar(scalar(s)),
        Type::Bool,
        &Val::S(a),
        &Val::S(b),
    )
    .s()
}

pub extern "C" fn jit_lane_test(op: u32, s: u32, x: u64) -> u64 {
    let op = TestOp::ALL[op as usize];
    eval::test(op, Type::scalar(scalar(s)), Type::Bool, &Val::S(x)).s()
}

/// `round`: 0 none, else 1 + index in `Rounding::ALL`; `sat`: 0/1.
pub extern "C" fn jit_lane_convert(
    op: u32,
    from: u32,
    to: u32,
    round: u32,
    sat: u32,
    x: u64,
) -> u64 {
    let op = ConvertOp::ALL[op as usize];
    let round = round
        .checked_sub(1)
        .and_then(|r| Rounding::ALL.get(r as usize).copied());
    eval::convert_numeric(
        op,
        Type::scalar(scalar(from)),
        Type::scalar(scalar(to)),
        &Val::S(x),
        round,
        sat != 0,
    )
    .s()
}

/// One lane of an element-wise builtin: `rty`/`aty` are scalar codes of the result and first
/// argument lane types.
pub extern "C" fn jit_builtin_lane(
    func: u32,
    rty: u32,
    aty: u32,
    argc: u32,
    a0: u64,
    a1: u64,
    a2: u64,
) -> u64 {
    let Some(func) = BuiltinFn::from_opcode(func) else {
        return 0;
    };
    let args = [a0, a1, a2];
    builtins::lane(
        func,
        Type::scalar(scalar(rty)),
        Type::scalar(scalar(aty)),
        &args[..argc.min(3) as usize],
    )
    .unwrap_or(0)
}

/// Whether `jit_builtin_lane` computes `func` on these lane types.
pub fn builtin_lane_supported(
    func: BuiltinFn,
    rty: ScalarType,
    aty: ScalarType,
    argc: usize,
) -> bool {
    argc <= 3
        && builtins::is_elementwise(func)
        && builtins::lane(func, Type::scalar(rty), Type::scalar(aty), &vec![0; argc]).is_some()
}

/// Any builtin, the interpreter's way. `args` holds each argument's lanes (u64 each, in order),
/// `res` receives the result's lanes.
pub extern "C" fn jit_builtin(
    ctx: *mut ItemCtx,
    site: u32,
    args: *const u64,
    res: *mut u64,
) -> i32 {
    // SAFETY: JIT code passes its own context.
    let ctx = unsafe { &mut *ctx };
    let SiteKind::Builtin {
        func,
        result,
        args: tys,
    } = ctx.site(site).kind.clone()
    else {
        return ctx.set_unsupported(site, "bad builtin site".into());
    };
    let ab = ctx.sh().address_bits;
    let mut vals = Vec::with_capacity(tys.len());
    let mut k = 0usize;
    for ty in &tys {
        let n = ty.lanes() as usize;
        // SAFETY: JIT code passes one u64 per lane of every argument.
        let lanes: Vec<u64> = (0..n).map(|i| unsafe { *args.add(k + i) }).collect();
        k += n;
        vals.push((*ty, Val::from_lanes(*ty, lanes)));
    }
    let mut out = std::mem::take(&mut ctx.out);
    let r = {
        let mut mem = ctx.memory();
        builtins::call(func, result, &vals, &mut mem, &mut out, ab)
    };
    ctx.out = out;
    match r {
        Ok(v) => {
            if let (Some(v), Some(rty)) = (v, result) {
                for i in 0..rty.lanes() as usize {
                    // SAFETY: JIT code reserves one u64 per result lane.
                    unsafe { *res.add(i) = v.lane(i) };
                }
            }
            // Private regions may have moved (none are allocated by builtins, but be safe).
            let layout = ctx.sh().layout;
            ctx.sync_private(layout, 0);
            0
        }
        Err(builtins::BuiltinError::Fault(f)) => ctx.set_fault(site, "builtin access", f),
        Err(builtins::BuiltinError::Unsupported(what)) => ctx.set_unsupported(site, what),
    }
}

/// The slow path of a load or store whose inline check failed: the native address of `size`
/// bytes at `ptr` when the interpreter's `Memory` accepts the access (a host address inside an
/// SVM allocation, `crate::svm`), else 0 with the interpreter's error recorded. `write` is 1 for
/// stores.
pub extern "C" fn jit_resolve(
    ctx: *mut ItemCtx,
    site: u32,
    ptr: u64,
    size: u64,
    write: u32,
) -> u64 {
    // SAFETY: JIT code passes its own context.
    let ctx = unsafe { &mut *ctx };
    let sh = ctx.sh();
    let (region, offset) = sh.layout.decode(ptr);
    if region == crate::interp::memory::RegionRef::Null && offset != 0 {
        let found = if write != 0 {
            sh.svm.find_for_write(offset, size)
        } else {
            sh.svm.find(offset, size)
        };
        match found {
            Ok(at) => return at as u64,
            Err(f) => {
                let access = if write != 0 { "store" } else { "load" };
                ctx.set_fault(site, access, f);
                return 0;
            }
        }
    }
    jit_fault(ctx, site, ptr, size, write);
    0
}

/// An atomic operation; the old value goes to `*res`.
pub extern "C" fn jit_atomic(
    ctx: *mut ItemCtx,
    site: u32,
    ptr: u64,
    a: u64,
    b: u64,
    res: *mut u64,
) -> i32 {
    // SAFETY: JIT code passes its own context.
    let ctx = unsafe { &mut *ctx };
    let SiteKind::Atomic { op, ty } = ctx.site(site).kind.clone() else {
        return ctx.set_unsupported(site, "bad atomic site".into());
    };
    let ab = ctx.sh().address_bits;
    let width = u64::from(ty.size(ab));
    let r = {
        let mut mem = ctx.memory();
        item::atomic(&mut mem, op, ty, ptr, width, a, b)
    };
    match r {
        Ok(old) => {
            // SAFETY: JIT code passes a slot for the result.
            unsafe { *res = old };
            0
        }
        Err(f) => ctx.set_fault(site, "atomic", f),
    }
}

/// `memcpy` (`kind` 0) or `memset` (`kind` 1), the interpreter's way.
pub extern "C" fn jit_memop(
    ctx: *mut ItemCtx,
    site: u32,
    kind: u32,
    dst: u64,
    src: u64,
    size: u64,
) -> i32 {
    // SAFETY: JIT code passes its own context.
    let ctx = unsafe { &mut *ctx };
    if size == 0 {
        return 0;
    }
    let n = size.min(1 << 32) as usize;
    let r = {
        let mut mem = ctx.memory();
        if kind == 0 {
            let mut buf = vec![0u8; n];
            match mem.read(src, &mut buf) {
                Err(f) => Err(("memcpy read", f)),
                Ok(()) => mem.write(dst, &buf).map_err(|f| ("memcpy write", f)),
            }
        } else {
            let buf = vec![src as u8; n];
            mem.write(dst, &buf).map_err(|f| ("memset", f))
        }
    };
    match r {
        Ok(()) => 0,
        Err((access, f)) => ctx.set_fault(site, access, f),
    }
}

/// `stackalloc`: a fresh zeroed private region; its pointer goes to `*res`.
pub extern "C" fn jit_stackalloc(ctx: *mut ItemCtx, site: u32, res: *mut u64) -> i32 {
    // SAFETY: JIT code passes its own context.
    let ctx = unsafe { &mut *ctx };
    let SiteKind::StackAlloc(size) = ctx.site(site).kind else {
        return ctx.set_unsupported(site, "bad stackalloc site".into());
    };
    let limit = ctx.sh().max_private_bytes;
    let layout = ctx.sh().layout;
    let r = ctx.memory().alloc_private(u64::from(size), limit);
    match r {
        Ok(p) => {
            let n = ctx.private.len();
            ctx.sync_private(layout, n - 1);
            // SAFETY: JIT code passes a slot for the result.
            unsafe { *res = p };
            0
        }
        Err(f) => ctx.set_fault(site, "stackalloc", f),
    }
}

/// The number of private regions (a function's mark, freed back to on return).
pub extern "C" fn jit_private_mark(ctx: *mut ItemCtx) -> u64 {
    // SAFETY: JIT code passes its own context.
    unsafe { (*ctx).private.len() as u64 }
}

/// Frees private regions allocated since `mark` (a function returns).
pub extern "C" fn jit_private_release(ctx: *mut ItemCtx, mark: u64) {
    // SAFETY: JIT code passes its own context.
    let ctx = unsafe { &mut *ctx };
    let layout = ctx.sh().layout;
    let mark = mark as usize;
    for i in mark..ctx.private.len() {
        let tag = tag_of(layout, crate::interp::memory::RegionRef::Private(i));
        ctx.set_entry(tag, Entry::EMPTY);
    }
    ctx.private.truncate(mark);
}

/// A work-item query with a run-time dimension.
pub extern "C" fn jit_work_item_dyn(ctx: *mut ItemCtx, query: u32, dim: u64) -> u64 {
    // SAFETY: JIT code passes its own context.
    let ctx = unsafe { &*ctx };
    let query = WorkItemQuery::ALL[query as usize];
    work_item_value(&ctx.wi, query, dim)
}

/// The interpreter's work-item query rule over the context's slots.
pub fn work_item_value(wi: &[u64; slot::COUNT], query: WorkItemQuery, dim: u64) -> u64 {
    let in_range = dim < wi[slot::WORK_DIM];
    let pick = |base: usize, default: u64| {
        if in_range {
            wi[base + dim as usize]
        } else {
            default
        }
    };
    match query {
        WorkItemQuery::GlobalId => pick(slot::GLOBAL_ID, 0),
        WorkItemQuery::LocalId => pick(slot::LOCAL_ID, 0),
        WorkItemQuery::GroupId => pick(slot::GROUP_ID, 0),
        WorkItemQuery::GlobalSize => pick(slot::GLOBAL_SIZE, 1),
        WorkItemQuery::LocalSize => pick(slot::LOCAL_SIZE, 1),
        WorkItemQuery::EnqueuedLocalSize => pick(slot::ENQ_LOCAL_SIZE, 1),
        WorkItemQuery::NumGroups => pick(slot::NUM_GROUPS, 1),
        WorkItemQuery::GlobalOffset => pick(slot::GLOBAL_OFFSET, 0),
        WorkItemQuery::WorkDim => wi[slot::WORK_DIM],
        WorkItemQuery::GlobalLinearId => wi[slot::GLOBAL_LINEAR],
        WorkItemQuery::LocalLinearId | WorkItemQuery::SubgroupId => wi[slot::LOCAL_LINEAR],
        WorkItemQuery::SubgroupSize | WorkItemQuery::SubgroupMaxSize => 1,
        WorkItemQuery::NumSubgroups => wi[slot::NUM_SUBGROUPS],
        WorkItemQuery::EnqueuedNumSubgroups => wi[slot::ENQ_NUM_SUBGROUPS],
        WorkItemQuery::SubgroupLocalId => 0,
    }
}

/// `unreachable` reached.
pub extern "C" fn jit_unreachable(ctx: *mut ItemCtx, site: u32) -> i32 {
    // SAFETY: JIT code passes its own context.
    let ctx = unsafe { &mut *ctx };
    let at = ctx.location(ctx.site(site));
    ctx.error = Some(ExecError::Unreachable {
        kernel: ctx.sh().kernel_name.to_string(),
        global_id: ctx.global_id(),
        at,
    });
    1
}

/// A work-group barrier: suspends the work-item's coroutine with the barrier's site; a nonzero
/// return tells the kernel to stop (another work-item failed).
pub extern "C" fn jit_barrier(ctx: *mut ItemCtx, site: u32) -> i32 {
    // SAFETY: JIT code passes its own context.
    let ctx = unsafe { &mut *ctx };
    if ctx.yielder.is_null() {
        return ctx.set_unsupported(site, "barrier outside a coroutine".into());
    }
    // SAFETY: the yielder of the coroutine running this work-item, alive while it runs.
    let abort = unsafe { (*ctx.yielder).suspend(u64::from(site)) };
    if abort {
        2
    } else {
        0
    }
}

/// A named barrier (`crate::named_barrier`): suspends the work-item's coroutine with the
/// barrier's site, the handle left in the context for the work-group driver; a nonzero return
/// tells the kernel to stop.
pub extern "C" fn jit_named_barrier(ctx: *mut ItemCtx, site: u32, handle: u64) -> i32 {
    // SAFETY: JIT code passes its own context.
    let ctx = unsafe { &mut *ctx };
    ctx.named_barrier = Some(handle);
    jit_barrier(ctx, site)
}

/// The address space `ptr` points into, as 1 + index in `AddrSpace::ALL` (0: none), the
/// interpreter's `Memory::space_of`.
pub extern "C" fn jit_ptr_space(ctx: *mut ItemCtx, ptr: u64) -> u32 {
    // SAFETY: JIT code passes its own context.
    let ctx = unsafe { &mut *ctx };
    let space = ctx.memory().space_of(ptr);
    space.map_or(0, |s| code(&kir::AddrSpace::ALL, &s) + 1)
}
