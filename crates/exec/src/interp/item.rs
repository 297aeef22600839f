//! One work-item: an explicit frame stack walked instruction by instruction, so the work-item
//! can stop at a barrier and resume later.

use kir::{
    AtomicOp, BlockCall, ConvertOp, Function, Inst, InstData, Scope, Type, Value, WorkItemQuery,
};

use super::memory::{Fault, Memory, RegionRef};
use super::value::{access_size, mask, sext, Val};
use super::{builtins, eval, Counters, GlobalLoc, GroupInfo, RunCtx};
use crate::ExecError;

/// Why a work-item stopped running.
pub(crate) use crate::named_barrier::Stop;

/// An activation of a function.
struct Frame {
    func: usize,
    regs: Vec<Val>,
    block: kir::Block,
    pos: usize,
    /// The caller's value receiving the result.
    ret_to: Option<Value>,
    /// Private regions allocated before this call (freed on return).
    private_mark: usize,
}

pub(crate) struct Item {
    pub global_id: [u64; 3],
    pub local_id: [u64; 3],
    /// Local linear index in the group.
    index: u32,
    frames: Vec<Frame>,
    private: Vec<Vec<u8>>,
    /// Register files of returned frames, reused by later calls (a verified function writes
    /// every value before reading it, so stale contents are never observed).
    pool: Vec<Vec<Val>>,
    /// Instructions executed so far.
    steps: u64,
}

/// What to do with the frame stack after an instruction.
enum Control<'f> {
    Next,
    Branch(&'f BlockCall),
    Call {
        func: usize,
        args: Vec<Val>,
        ret_to: Option<Value>,
    },
    Return(Option<Val>),
    Stop(Stop),
}

fn location(ctx: &RunCtx<'_>, func: usize, inst: Inst) -> String {
    let name = ctx
        .module
        .functions
        .get(func)
        .map_or("", |f| f.name.as_str());
    format!("fn{func} {name:?} {inst}")
}

impl Item {
    pub fn new(
        ctx: &RunCtx<'_>,
        global_id: [u64; 3],
        local_id: [u64; 3],
        index: u32,
    ) -> Result<Item, ExecError> {
        let func_index = ctx.kernel.func.index();
        let func = &ctx.module.functions[func_index];
        let entry = func.entry_block().ok_or_else(|| ExecError::Malformed {
            kernel: ctx.kernel.name.clone(),
            at: format!("fn{func_index}"),
            what: "the kernel function has no body".into(),
        })?;
        let mut regs = vec![Val::default(); func.dfg.num_values()];
        for (&p, v) in func.params().iter().zip(&ctx.params) {
            regs[p.index()] = v.clone();
        }
        let private = ctx.private_inits.clone();
        let frame = Frame {
            func: func_index,
            regs,
            block: entry,
            pos: 0,
            ret_to: None,
            private_mark: private.len(),
        };
        Ok(Item {
            global_id,
            local_id,
            index,
            frames: vec![frame],
            private,
            pool: Vec::new(),
            steps: 0,
        })
    }

    /// Makes this (finished) work-item start over as another one, reusing its buffers.
    pub fn reset(
        &mut self,
        ctx: &RunCtx<'_>,
        global_id: [u64; 3],
        local_id: [u64; 3],
        index: u32,
    ) -> Result<(), ExecError> {
        let func_index = ctx.kernel.func.index();
        let func = &ctx.module.functions[func_index];
        let entry = func.entry_block().ok_or_else(|| ExecError::Malformed {
            kernel: ctx.kernel.name.clone(),
            at: format!("fn{func_index}"),
            what: "the kernel function has no body".into(),
        })?;
        while let Some(frame) = self.frames.pop() {
            self.pool.push(frame.regs);
        }
        let mut regs = self.take_regs(func.dfg.num_values());
        for (&p, v) in func.params().iter().zip(&ctx.params) {
            regs[p.index()] = v.clone();
        }
        self.private.clear();
        self.private.extend(ctx.private_inits.iter().cloned());
        self.frames.push(Frame {
            func: func_index,
            regs,
            block: entry,
            pos: 0,
            ret_to: None,
            private_mark: self.private.len(),
        });
        self.global_id = global_id;
        self.local_id = local_id;
        self.index = index;
        self.steps = 0;
        Ok(())
    }

    /// A register file of at least `n` values.
    fn take_regs(&mut self, n: usize) -> Vec<Val> {
        let mut regs = self.pool.pop().unwrap_or_default();
        if regs.len() < n {
            regs.resize(n, Val::default());
        }
        regs
    }

    fn fault(&self, ctx: &RunCtx<'_>, at: String, access: &'static str, fault: Fault) -> ExecError {
        let kernel = ctx.kernel.name.clone();
        let global_id = self.global_id;
        match fault {
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
            Fault::Misaligned { space, offset } => ExecError::MisalignedAtomic {
                kernel,
                global_id,
                at,
                space,
                offset,
            },
        }
    }

    /// Runs until the work-item returns or reaches a work-group barrier.
    pub fn run(
        &mut self,
        ctx: &RunCtx<'_>,
        info: &GroupInfo,
        local: &mut [Vec<u8>],
        shadow: &mut Option<super::memory::LocalShadow>,
        counters: &mut Counters,
        out: &mut Vec<u8>,
    ) -> Result<Stop, ExecError> {
        let ab = ctx.module.address_bits;
        loop {
            let Some(frame) = self.frames.last_mut() else {
                return Ok(Stop::Done);
            };
            let func_index = frame.func;
            let func: &Function = &ctx.module.functions[func_index];
            let Some(&inst) = func.layout.insts(frame.block).get(frame.pos) else {
                return Err(ExecError::Malformed {
                    kernel: ctx.kernel.name.clone(),
                    at: format!("fn{func_index} {}", frame.block),
                    what: "block without terminator".into(),
                });
            };
            frame.pos += 1;
            counters.instructions += 1;
            self.steps += 1;
            if self.steps > ctx.interp.max_steps_per_item {
                return Err(ExecError::StepLimit {
                    kernel: ctx.kernel.name.clone(),
                    global_id: self.global_id,
                    at: location(ctx, func_index, inst),
                    limit: ctx.interp.max_steps_per_item,
                });
            }
            let data = func.dfg.inst(inst);
            let result = func.dfg.inst_result(inst);
            let result_ty = result.map(|r| func.dfg.value_type(r));
            let rty = result_ty.unwrap_or(Type::I64);
            let regs = &frame.regs;
            let get = |v: Value| -> &Val { &regs[v.index()] };
            let ty = |v: Value| func.dfg.value_type(v);
            let mut mem = Memory {
                layout: ctx.layout,
                shared: &ctx.shared,
                svm: ctx.svm,
                local,
                private: &mut self.private,
                shadow: shadow.as_mut(),
                item: self.index,
            };
            let at = || location(ctx, func_index, inst);
            // Faults need `self` immutably; collect them and convert after the borrow ends.
            let mut fault: Option<(&'static str, Fault)> = None;
            let mut control = Control::Next;
            let value: Option<Val> = match data {
                InstData::Const { bytes } => Some(Val::from_bytes(rty, bytes, ab)),
                InstData::Unary { op, arg } => Some(eval::unary(*op, rty, get(*arg))),
                InstData::Binary { op, a, b } => Some(eval::binary(*op, rty, get(*a), get(*b))),
                InstData::Cmp { op, a, b } => Some(eval::cmp(*op, ty(*a), rty, get(*a), get(*b))),
                InstData::Test { op, arg } => Some(eval::test(*op, ty(*arg), rty, get(*arg))),
                InstData::Reduce { op, arg } => Some(eval::reduce(*op, get(*arg))),
                InstData::Select { cond, a, b } => Some(eval::select(get(*cond), get(*a), get(*b))),
                InstData::Convert {
                    op,
                    arg,
                    rounding,
                    saturate,
                } => {
                    let v = get(*arg);
                    Some(match op {
                        ConvertOp::PtrToInt => {
                            Val::S(v.s() & mask(rty.lane_type().map_or(64, |s| s.bits())))
                        }
                        ConvertOp::IntToPtr => Val::S(v.s() & mask(ab)),
                        ConvertOp::PtrCast => v.clone(),
                        ConvertOp::PtrCastChecked => {
                            let target = match rty {
                                Type::Ptr(space) => Some(space),
                                _ => None,
                            };
                            if mem.space_of(v.s()).is_some() && mem.space_of(v.s()) == target {
                                v.clone()
                            } else {
                                Val::S(0)
                            }
                        }
                        ConvertOp::Bitcast => eval::bitcast(ty(*arg), rty, v, ab),
                        _ => eval::convert_numeric(*op, ty(*arg), rty, v, *rounding, *saturate),
                    })
                }
                InstData::Load { ptr, .. } => {
                    let size = access_size(rty, ab) as usize;
                    let mut small = [0u8; 16];
                    let mut large = Vec::new();
                    let buf = if size <= small.len() {
                        &mut small[..size]
                    } else {
                        large.resize(size, 0);
                        &mut large[..]
                    };
                    match mem.read(get(*ptr).s(), buf) {
                        Ok(()) => Some(Val::from_bytes(rty, buf, ab)),
                        Err(f) => {
                            fault = Some(("load", f));
                            None
                        }
                    }
                }
                InstData::Store { ptr, value, .. } => {
                    let vty = ty(*value);
                    let result = match (get(*value), vty.as_scalar()) {
                        // Scalars (the common case) without a heap buffer.
                        (Val::S(bits), Some(s)) => {
                            mem.write(get(*ptr).s(), &bits.to_le_bytes()[..s.bytes() as usize])
                        }
                        (v, _) => mem.write(get(*ptr).s(), &v.to_bytes(vty, ab)),
                    };
                    if let Err(f) = result {
                        fault = Some(("store", f));
                    }
                    None
                }
                InstData::PtrAdd { ptr, offset } => {
                    let bits = ty(*offset).lane_type().map_or(64, |s| s.bits());
                    Some(Val::S(
                        ctx.layout.add(get(*ptr).s(), sext(get(*offset).s(), bits)),
                    ))
                }
                InstData::StackAlloc { size, .. } => {
                    match mem.alloc_private(u64::from(*size), ctx.interp.max_private_bytes) {
                        Ok(p) => Some(Val::S(p)),
                        Err(f) => {
                            fault = Some(("stackalloc", f));
                            None
                        }
                    }
                }
                InstData::GlobalAddr { global } => {
                    Some(Val::S(match ctx.globals.get(global.index()) {
                        Some(GlobalLoc::Shared(i)) => ctx.layout.encode(RegionRef::Shared(*i), 0),
                        Some(GlobalLoc::Local(i)) => ctx.layout.encode(RegionRef::Local(*i), 0),
                        Some(GlobalLoc::Private(i)) => ctx.layout.encode(RegionRef::Private(*i), 0),
                        None => 0,
                    }))
                }
                InstData::Memcpy { dst, src, size } => {
                    let n = get(*size).s();
                    if n > 0 {
                        let mut buf = vec![0u8; n.min(1 << 32) as usize];
                        if let Err(f) = mem.read(get(*src).s(), &mut buf) {
                            fault = Some(("memcpy read", f));
                        } else if let Err(f) = mem.write(get(*dst).s(), &buf) {
                            fault = Some(("memcpy write", f));
                        }
                    }
                    None
                }
                InstData::Memset { dst, byte, size } => {
                    let n = get(*size).s();
                    if n > 0 {
                        let buf = vec![get(*byte).s() as u8; n.min(1 << 32) as usize];
                        if let Err(f) = mem.write(get(*dst).s(), &buf) {
                            fault = Some(("memset", f));
                        }
                    }
                    None
                }
                InstData::ExtractLane { vec, lane } => {
                    Some(Val::S(get(*vec).lane(usize::from(*lane))))
                }
                InstData::InsertLane { vec, lane, value } => {
                    let mut lanes = get(*vec).lanes();
                    if let Some(slot) = lanes.get_mut(usize::from(*lane)) {
                        *slot = get(*value).s();
                    }
                    Some(Val::V(lanes))
                }
                InstData::ExtractLaneDyn { vec, index } => {
                    let lanes = get(*vec).lanes();
                    Some(Val::S(
                        usize::try_from(get(*index).s())
                            .ok()
                            .and_then(|i| lanes.get(i).copied())
                            .unwrap_or(0),
                    ))
                }
                InstData::InsertLaneDyn { vec, index, value } => {
                    let mut lanes = get(*vec).lanes();
                    if let Some(slot) = usize::try_from(get(*index).s())
                        .ok()
                        .and_then(|i| lanes.get_mut(i))
                    {
                        *slot = get(*value).s();
                    }
                    Some(Val::V(lanes))
                }
                InstData::Shuffle {
                    a,
                    b,
                    mask: lanes_mask,
                } => {
                    let mut all = get(*a).lanes();
                    all.extend(get(*b).lanes());
                    let lanes: Vec<u64> = lanes_mask
                        .iter()
                        .map(|&m| all.get(m as usize).copied().unwrap_or(0))
                        .collect();
                    Some(Val::from_lanes(rty, lanes))
                }
                InstData::Splat { value } => {
                    Some(Val::V(vec![get(*value).s(); rty.lanes() as usize]))
                }
                InstData::ExtractBytes { agg, offset } => {
                    let bytes = match get(*agg) {
                        Val::A(bytes) => bytes.as_slice(),
                        _ => &[],
                    };
                    let start = (*offset as usize).min(bytes.len());
                    Some(Val::from_bytes(rty, &bytes[start..], ab))
                }
                InstData::InsertBytes { agg, offset, value } => {
                    let mut bytes = match get(*agg) {
                        Val::A(bytes) => bytes.clone(),
                        _ => Vec::new(),
                    };
                    let new = get(*value).to_bytes(ty(*value), ab);
                    let start = *offset as usize;
                    if start + new.len() <= bytes.len() {
                        bytes[start..start + new.len()].copy_from_slice(&new);
                    }
                    Some(Val::A(bytes))
                }
                InstData::WorkItem { query, dim } => Some(Val::S(
                    work_item(
                        ctx,
                        info,
                        self.global_id,
                        self.local_id,
                        *query,
                        u64::from(*dim),
                    ) & mask(rty.lane_type().map_or(64, |s| s.bits())),
                )),
                InstData::WorkItemDyn { query, dim } => Some(Val::S(
                    work_item(
                        ctx,
                        info,
                        self.global_id,
                        self.local_id,
                        *query,
                        get(*dim).s(),
                    ) & mask(rty.lane_type().map_or(64, |s| s.bits())),
                )),
                InstData::Call { func: callee, args } => {
                    control = Control::Call {
                        func: callee.index(),
                        args: args.iter().map(|&a| get(a).clone()).collect(),
                        ret_to: result,
                    };
                    None
                }
                InstData::Builtin { args, .. } | InstData::Image { args, .. } => {
                    let args: Vec<(Type, Val)> =
                        args.iter().map(|&a| (ty(a), get(a).clone())).collect();
                    let r = match data {
                        InstData::Builtin { func, .. } => {
                            builtins::call(*func, result_ty, &args, &mut mem, out, ab)
                        }
                        InstData::Image { op, .. } => {
                            super::image::call(*op, result_ty, &args, mem.layout, mem.shared)
                        }
                        _ => Ok(None),
                    };
                    match r {
                        Ok(v) => v,
                        Err(builtins::BuiltinError::Fault(f)) => {
                            fault = Some(("builtin access", f));
                            None
                        }
                        Err(builtins::BuiltinError::Unsupported(what)) => {
                            return Err(ExecError::Unsupported {
                                kernel: ctx.kernel.name.clone(),
                                global_id: self.global_id,
                                at: at(),
                                what,
                            });
                        }
                    }
                }
                InstData::Barrier { exec_scope, .. } => {
                    // Sub-groups have one work-item here, so narrower barriers are no-ops.
                    if matches!(
                        exec_scope,
                        Scope::Workgroup | Scope::Device | Scope::CrossDevice
                    ) {
                        control = Control::Stop(Stop::Barrier(func_index, inst));
                    }
                    None
                }
                // The work-group driver releases it (`named_barrier`); memory needs no fence
                // (below).
                InstData::NamedBarrier { barrier, .. } => {
                    control = Control::Stop(Stop::Named(get(*barrier).s(), func_index, inst));
                    None
                }
                // Work-items of a group run on one thread; global atomics are sequentially
                // consistent: fences have nothing left to order.
                InstData::Fence { .. } => None,
                InstData::Atomic {
                    op,
                    ty: mem_ty,
                    ptr,
                    args,
                    ..
                } => {
                    let p = get(*ptr).s();
                    let width = u64::from(mem_ty.size(ab));
                    let arg = |i: usize| args.get(i).map_or(0, |&a| get(a).s());
                    let r = atomic(&mut mem, *op, *mem_ty, p, width, arg(0), arg(1));
                    match r {
                        Ok(old) => match op {
                            AtomicOp::Store | AtomicOp::FlagClear => None,
                            AtomicOp::FlagTestAndSet => Some(Val::S(u64::from(old != 0))),
                            _ => Some(Val::S(old)),
                        },
                        Err(f) => {
                            fault = Some(("atomic", f));
                            None
                        }
                    }
                }
                InstData::Pipe { op, args } => {
                    let values: Vec<u64> = args.iter().map(|&a| get(a).s()).collect();
                    let rid_bits = pipe_rid_bits(*op, args, result_ty, &ty);
                    match crate::pipe::execute(&mut mem, *op, &values, rid_bits) {
                        Ok(r) => op.has_result().then_some(Val::S(r)),
                        Err(f) => {
                            fault = Some(("pipe", f));
                            None
                        }
                    }
                }
                InstData::Enqueue { op, invoke, args } => {
                    let values: Vec<u64> = args.iter().map(|&a| get(a).s()).collect();
                    let mut site = crate::enqueue::EnqueueSite {
                        queue: ctx.queue,
                        mem: &mut mem,
                        shared: &ctx.shared,
                        address_bits: ctx.module.address_bits,
                    };
                    match site.execute(*op, *invoke, &values) {
                        Ok(r) => op.has_result().then_some(Val::S(r)),
                        Err(f) => {
                            fault = Some(("enqueue", f));
                            None
                        }
                    }
                }
                InstData::Jump { dest } => {
                    control = Control::Branch(dest);
                    None
                }
                InstData::Brif {
                    cond,
                    then_dest,
                    else_dest,
                } => {
                    control = Control::Branch(if get(*cond).s() != 0 {
                        then_dest
                    } else {
                        else_dest
                    });
                    None
                }
                InstData::Switch {
                    value,
                    default,
                    cases,
                } => {
                    let bits = ty(*value).lane_type().map_or(64, |s| s.bits());
                    let x = get(*value).s() & mask(bits);
                    control = Control::Branch(
                        cases
                            .iter()
                            .find(|(case, _)| case & mask(bits) == x)
                            .map_or(default, |(_, d)| d),
                    );
                    None
                }
                InstData::Return { value } => {
                    control = Control::Return(value.map(|v| get(v).clone()));
                    None
                }
                InstData::Unreachable => {
                    return Err(ExecError::Unreachable {
                        kernel: ctx.kernel.name.clone(),
                        global_id: self.global_id,
                        at: at(),
                    });
                }
            };
            if let Some((access, f)) = fault {
                return Err(self.fault(ctx, at(), access, f));
            }
            if let (Some(r), Some(v)) = (result, value) {
                if let Some(frame) = self.frames.last_mut() {
                    frame.regs[r.index()] = v;
                }
            }
            match control {
                Control::Next => {}
                Control::Branch(dest) => {
                    if let Some(frame) = self.frames.last_mut() {
                        branch(frame, func, dest);
                    }
                }
                Control::Stop(stop) => return Ok(stop),
                Control::Call {
                    func: callee,
                    args,
                    ret_to,
                } => {
                    if self.frames.len() >= ctx.interp.max_call_depth {
                        return Err(ExecError::CallDepth {
                            kernel: ctx.kernel.name.clone(),
                            global_id: self.global_id,
                            at: at(),
                            limit: ctx.interp.max_call_depth,
                        });
                    }
                    let Some(f) = ctx.module.functions.get(callee) else {
                        return Err(ExecError::Malformed {
                            kernel: ctx.kernel.name.clone(),
                            at: at(),
                            what: format!("call of missing fn{callee}"),
                        });
                    };
                    let Some(entry) = f.entry_block() else {
                        return Err(ExecError::Unsupported {
                            kernel: ctx.kernel.name.clone(),
                            global_id: self.global_id,
                            at: at(),
                            what: format!(
                                "call of fn{callee} {:?}, which has no body (an import)",
                                f.name
                            ),
                        });
                    };
                    let mut regs = self.take_regs(f.dfg.num_values());
                    for (&p, v) in f.params().iter().zip(args) {
                        regs[p.index()] = v;
                    }
                    let private_mark = self.private.len();
                    self.frames.push(Frame {
                        func: callee,
                        regs,
                        block: entry,
                        pos: 0,
                        ret_to,
                        private_mark,
                    });
                }
                Control::Return(v) => {
                    if let Some(done) = self.frames.pop() {
                        self.private.truncate(done.private_mark);
                        if let (Some(caller), Some(to), Some(v)) =
                            (self.frames.last_mut(), done.ret_to, v)
                        {
                            caller.regs[to.index()] = v;
                        }
                        self.pool.push(done.regs);
                    }
                    if self.frames.is_empty() {
                        return Ok(Stop::Done);
                    }
                }
            }
        }
    }
}

/// Passes a branch's arguments to the target's parameters (all read before any is written).
fn branch(frame: &mut Frame, func: &Function, dest: &BlockCall) {
    let params = func.dfg.block_params(dest.block);
    if !dest.args.is_empty() {
        // Parallel assignment: copy through a buffer only when a parameter is also an argument
        // (a loop passing its parameters around); otherwise assign in place, allocation-free.
        if dest.args.iter().any(|a| params.contains(a)) {
            let values: Vec<Val> = dest
                .args
                .iter()
                .map(|a| frame.regs[a.index()].clone())
                .collect();
            for (&p, v) in params.iter().zip(values) {
                frame.regs[p.index()] = v;
            }
        } else {
            for (&p, &a) in params.iter().zip(&dest.args) {
                let v = frame.regs[a.index()].clone();
                frame.regs[p.index()] = v;
            }
        }
    }
    frame.block = dest.block;
    frame.pos = 0;
}

/// The value of a work-item query (OpenCL C 6.15.1: out-of-range dimensions give 0 for ids and
/// offsets, 1 for sizes). Sub-groups have one work-item.
fn work_item(
    ctx: &RunCtx<'_>,
    info: &GroupInfo,
    gid: [u64; 3],
    lid: [u64; 3],
    query: WorkItemQuery,
    dim: u64,
) -> u64 {
    let nd = &ctx.nd;
    let d = usize::try_from(dim).unwrap_or(usize::MAX);
    let in_range = dim < u64::from(nd.work_dim);
    let pick = |values: [u64; 3], default: u64| if in_range { values[d] } else { default };
    let local_linear = (lid[2] * info.local_size[1] + lid[1]) * info.local_size[0] + lid[0];
    match query {
        WorkItemQuery::GlobalId => pick(gid, 0),
        WorkItemQuery::LocalId => pick(lid, 0),
        WorkItemQuery::GroupId => pick(info.group_id, 0),
        WorkItemQuery::GlobalSize => pick(nd.global_size, 1),
        WorkItemQuery::LocalSize => pick(info.local_size, 1),
        WorkItemQuery::EnqueuedLocalSize => pick(nd.local_size, 1),
        WorkItemQuery::NumGroups => pick(nd.num_groups(), 1),
        WorkItemQuery::GlobalOffset => pick(nd.global_offset, 0),
        WorkItemQuery::WorkDim => u64::from(nd.work_dim),
        WorkItemQuery::GlobalLinearId => {
            let o = nd.global_offset;
            let s = nd.global_size;
            ((gid[2].wrapping_sub(o[2]))
                .wrapping_mul(s[1])
                .wrapping_add(gid[1].wrapping_sub(o[1])))
            .wrapping_mul(s[0])
            .wrapping_add(gid[0].wrapping_sub(o[0]))
        }
        WorkItemQuery::LocalLinearId | WorkItemQuery::SubgroupId => local_linear,
        WorkItemQuery::SubgroupSize | WorkItemQuery::SubgroupMaxSize => 1,
        WorkItemQuery::NumSubgroups => info.local_size.iter().product(),
        WorkItemQuery::EnqueuedNumSubgroups => nd.local_size.iter().product(),
        WorkItemQuery::SubgroupLocalId => 0,
    }
}

/// Performs an atomic operation, returning the old value.
/// The width of the reserve ids of a pipe operation: its result's for reservations, its reserve
/// id operand's for the others.
pub(crate) fn pipe_rid_bits(
    op: kir::PipeOp,
    args: &[kir::Value],
    result: Option<Type>,
    ty: &impl Fn(kir::Value) -> Type,
) -> u32 {
    let rid_ty = match op {
        kir::PipeOp::ReserveRead | kir::PipeOp::ReserveWrite => result,
        kir::PipeOp::ReservedRead
        | kir::PipeOp::ReservedWrite
        | kir::PipeOp::CommitRead
        | kir::PipeOp::CommitWrite => args.get(1).map(|&v| ty(v)),
        _ => None,
    };
    if rid_ty == Some(Type::I32) {
        32
    } else {
        64
    }
}

pub(crate) fn atomic(
    mem: &mut Memory<'_>,
    op: AtomicOp,
    ty: Type,
    ptr: u64,
    width: u64,
    a: u64,
    b: u64,
) -> Result<u64, Fault> {
    let bits = (width * 8) as u32;
    let m = mask(bits);
    let float = |f: fn(u64, u64) -> u64| move |old: u64| f(old, a) & m;
    match op {
        AtomicOp::Load => mem.atomic_load(ptr, width),
        AtomicOp::Store | AtomicOp::Exchange => mem.atomic_update(ptr, width, |_| a),
        AtomicOp::CmpXchg => mem.atomic_update(ptr, width, |old| if old == b { a } else { old }),
        AtomicOp::IIncrement => mem.atomic_update(ptr, width, |old| old.wrapping_add(1) & m),
        AtomicOp::IDecrement => mem.atomic_update(ptr, width, |old| old.wrapping_sub(1) & m),
        AtomicOp::IAdd => mem.atomic_update(ptr, width, |old| old.wrapping_add(a) & m),
        AtomicOp::ISub => mem.atomic_update(ptr, width, |old| old.wrapping_sub(a) & m),
        AtomicOp::SMin => mem.atomic_update(ptr, width, |old| {
            if sext(a, bits) < sext(old, bits) {
                a
            } else {
                old
            }
        }),
        AtomicOp::SMax => mem.atomic_update(ptr, width, |old| {
            if sext(a, bits) > sext(old, bits) {
                a
            } else {
                old
            }
        }),
        AtomicOp::UMin => mem.atomic_update(ptr, width, |old| old.min(a)),
        AtomicOp::UMax => mem.atomic_update(ptr, width, |old| old.max(a)),
        AtomicOp::And => mem.atomic_update(ptr, width, |old| old & a),
        AtomicOp::Or => mem.atomic_update(ptr, width, |old| old | a),
        AtomicOp::Xor => mem.atomic_update(ptr, width, |old| old ^ a),
        AtomicOp::FAdd => {
            let add = eval_fadd(ty);
            mem.atomic_update(ptr, width, float(add))
        }
        AtomicOp::FMin => mem.atomic_update(
            ptr,
            width,
            float(if ty == Type::F32 { fmin32 } else { fmin64 }),
        ),
        AtomicOp::FMax => mem.atomic_update(
            ptr,
            width,
            float(if ty == Type::F32 { fmax32 } else { fmax64 }),
        ),
        AtomicOp::FlagTestAndSet => mem.atomic_update(ptr, width, |_| 1),
        AtomicOp::FlagClear => mem.atomic_update(ptr, width, |_| 0),
    }
}

fn eval_fadd(ty: Type) -> fn(u64, u64) -> u64 {
    if ty == Type::F32 {
        |x, y| u64::from((f32::from_bits(x as u32) + f32::from_bits(y as u32)).to_bits())
    } else {
        |x, y| (f64::from_bits(x) + f64::from_bits(y)).to_bits()
    }
}

fn fmin32(x: u64, y: u64) -> u64 {
    u64::from(devlib::math::f32::fmin(f32::from_bits(x as u32), f32::from_bits(y as u32)).to_bits())
}

fn fmax32(x: u64, y: u64) -> u64 {
    u64::from(devlib::math::f32::fmax(f32::from_bits(x as u32), f32::from_bits(y as u32)).to_bits())
}

fn fmin64(x: u64, y: u64) -> u64 {
    devlib::math::f64::fmin(f64::from_bits(x), f64::from_bits(y)).to_bits()
}

fn fmax64(x: u64, y: u64) -> u64 {
    devlib::math::f64::fmax(f64::from_bits(x), f64::from_bits(y)).to_bits()
}
