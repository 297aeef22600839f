//! Work-group functions.
//!
//! Asynchronous copies (OpenCL C 6.15.13, SPIR-V `OpGroupAsyncCopy` / `OpGroupWaitEvents`): the
//! copy is done by the work-item with local linear id 0 as a loop of element loads and stores,
//! and waiting for events is a work-group barrier over local and global memory, after which
//! every work-item sees the copied data. Events are plain values.
//!
//! Collective functions (OpenCL C 6.15.16, `OpGroupAll`/`Any`/`Broadcast`/`IAdd`/`FAdd`/
//! `*Min`/`*Max`): through one `__local` scratch cell. Reductions and scans visit the work-items
//! in local-linear-id order, one per barrier-separated step, so float results are the same on
//! every run (the order of a sequential left fold). Sub-group collectives (cl_khr_subgroups)
//! are the work-item's own value: kir's sub-groups are single work-items (see `subgroup`).

use spv::Instruction;

use super::function::FnLower;
use super::layout::storage;
use super::{InstExt, LowerError};
use crate::{BinaryOp, BlockCall, CmpOp, ConvertOp, InstData, Scope, Type, Value, WorkItemQuery};

/// SPIR-V MemorySemantics: SequentiallyConsistent | WorkgroupMemory | CrossWorkgroupMemory.
const WAIT_SEMANTICS: u32 = 0x10 | 0x100 | 0x200;

impl FnLower<'_, '_> {
    fn widen_to_ptr_int(&mut self, v: Value) -> Value {
        let pty = self.ptr_int();
        if self.func.dfg.value_type(v) == pty {
            return v;
        }
        self.emit(
            InstData::Convert {
                op: ConvertOp::UConvert,
                arg: v,
                rounding: None,
                saturate: false,
            },
            pty,
        )
    }

    /// `OpGroupAsyncCopy Scope Destination Source NumElements Stride Event`.
    pub(crate) fn lower_async_copy(&mut self, inst: &Instruction) -> Result<(), LowerError> {
        let dst_id = inst.id_op(1)?;
        let dst = self.value(dst_id, inst)?;
        let src = self.value(inst.id_op(2)?, inst)?;
        let n = self.value(inst.id_op(3)?, inst)?;
        let stride = self.value(inst.id_op(4)?, inst)?;
        let dst_ptr_ty = self
            .type_of(dst_id)
            .ok_or_else(|| inst.malformed("destination of unknown type"))?;
        let elem = self
            .m
            .info
            .types
            .pointee(dst_ptr_ty)
            .ok_or_else(|| inst.malformed("destination is not a pointer"))?;
        let elem_ty = self.m.value_type(elem, inst)?;
        let elem_size = self.m.info.types.size(elem);
        let align = self.m.info.types.align(elem) as u32;
        // SPIR-V OpGroupAsyncCopy: the stride applies to the global side.
        let source_strided = self.m.info.types.get(dst_ptr_ty).is_some_and(|t| {
            matches!(t.kind, super::layout::TypeKind::Pointer { storage: sc, .. } if sc == storage::WORKGROUP)
        });
        let pty = self.ptr_int();
        let n = self.widen_to_ptr_int(n);
        let stride = self.widen_to_ptr_int(stride);
        let zero = self.zero(pty);
        let one = self.int_const(pty, 1);
        let size = self.int_const(pty, elem_size);

        let header = self.func.dfg.make_block();
        let i = self.func.dfg.append_block_param(header, pty);
        let body = self.func.dfg.make_block();
        let cont = self.func.dfg.make_block();
        for b in [header, body, cont] {
            self.func.layout.append_block(b);
        }
        let lid = self.emit(
            InstData::WorkItem {
                query: WorkItemQuery::LocalLinearId,
                dim: 0,
            },
            pty,
        );
        let first = self.emit(
            InstData::Cmp {
                op: CmpOp::IEq,
                a: lid,
                b: zero,
            },
            Type::Bool,
        );
        self.emit_void(InstData::Brif {
            cond: first,
            then_dest: BlockCall::new(header, vec![zero]),
            else_dest: BlockCall::new(cont, Vec::new()),
        });

        self.cur = header;
        let more = self.emit(
            InstData::Cmp {
                op: CmpOp::ULt,
                a: i,
                b: n,
            },
            Type::Bool,
        );
        self.emit_void(InstData::Brif {
            cond: more,
            then_dest: BlockCall::new(body, Vec::new()),
            else_dest: BlockCall::new(cont, Vec::new()),
        });

        self.cur = body;
        let strided = self.emit(
            InstData::Binary {
                op: BinaryOp::IMul,
                a: i,
                b: stride,
            },
            pty,
        );
        let (src_index, dst_index) = if source_strided {
            (strided, i)
        } else {
            (i, strided)
        };
        let src_off = self.emit(
            InstData::Binary {
                op: BinaryOp::IMul,
                a: src_index,
                b: size,
            },
            pty,
        );
        let dst_off = self.emit(
            InstData::Binary {
                op: BinaryOp::IMul,
                a: dst_index,
                b: size,
            },
            pty,
        );
        let src_ty = self.func.dfg.value_type(src);
        let dst_ty = self.func.dfg.value_type(dst);
        let from = self.emit(
            InstData::PtrAdd {
                ptr: src,
                offset: src_off,
            },
            src_ty,
        );
        let to = self.emit(
            InstData::PtrAdd {
                ptr: dst,
                offset: dst_off,
            },
            dst_ty,
        );
        let v = self.emit(InstData::Load { ptr: from, align }, elem_ty);
        self.emit_void(InstData::Store {
            ptr: to,
            value: v,
            align,
        });
        let next = self.emit(
            InstData::Binary {
                op: BinaryOp::IAdd,
                a: i,
                b: one,
            },
            pty,
        );
        self.emit_void(InstData::Jump {
            dest: BlockCall::new(header, vec![next]),
        });

        self.cur = cont;
        let event_ty = self.m.value_type(inst.rty()?, inst)?;
        let event = self.zero(event_ty);
        self.vals.insert(inst.res()?, event);
        Ok(())
    }

    /// `OpGroupWaitEvents Scope NumEvents EventsList`: a work-group barrier.
    pub(crate) fn lower_wait_events(&mut self, _inst: &Instruction) -> Result<(), LowerError> {
        self.emit_void(InstData::Barrier {
            exec_scope: Scope::Workgroup,
            mem_scope: Scope::Workgroup,
            semantics: WAIT_SEMANTICS,
        });
        Ok(())
    }
}

/// SPIR-V MemorySemantics: SequentiallyConsistent | WorkgroupMemory.
const LOCAL_BARRIER: u32 = 0x10 | 0x100;

/// How a work-group collective combines two values.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Combine {
    IAdd,
    FAdd,
    SMin,
    UMin,
    FMin,
    SMax,
    UMax,
    FMax,
    And,
    Or,
}

impl FnLower<'_, '_> {
    pub(crate) fn local_barrier(&mut self) {
        self.emit_void(InstData::Barrier {
            exec_scope: Scope::Workgroup,
            mem_scope: Scope::Workgroup,
            semantics: LOCAL_BARRIER,
        });
    }

    pub(crate) fn new_block(&mut self) -> crate::Block {
        let b = self.func.dfg.make_block();
        self.func.layout.append_block(b);
        b
    }

    pub(crate) fn scratch(&mut self) -> Result<Value, LowerError> {
        let global = self
            .m
            .wg_scratch
            .ok_or_else(|| LowerError::Internal("no work-group scratch variable".into()))?;
        Ok(self.pro(
            InstData::GlobalAddr { global },
            Type::Ptr(crate::AddrSpace::Local),
        ))
    }

    /// Whether the collective is over a sub-group (Scope Subgroup) rather than the work-group.
    /// kir's sub-groups are single work-items (`subgroup_size` is 1, `subgroup_id` is the local
    /// linear id), so a sub-group collective is the work-item's own value.
    pub(crate) fn is_sub_group(&self, inst: &Instruction) -> Result<bool, LowerError> {
        match self.const_operand(inst.id_op(0)?, inst)? {
            2 => Ok(false),
            3 => Ok(true),
            _ => Err(inst.unsupported("collective functions of this scope")),
        }
    }

    /// The local linear id and the number of work-items of this work-group.
    pub(crate) fn group_ids(&mut self) -> (Value, Value) {
        let pty = self.ptr_int();
        let lid = self.emit(
            InstData::WorkItem {
                query: WorkItemQuery::LocalLinearId,
                dim: 0,
            },
            pty,
        );
        let mut n = self.emit(
            InstData::WorkItem {
                query: WorkItemQuery::LocalSize,
                dim: 0,
            },
            pty,
        );
        for dim in 1..3 {
            let s = self.emit(
                InstData::WorkItem {
                    query: WorkItemQuery::LocalSize,
                    dim,
                },
                pty,
            );
            n = self.emit(
                InstData::Binary {
                    op: BinaryOp::IMul,
                    a: n,
                    b: s,
                },
                pty,
            );
        }
        (lid, n)
    }

    fn combine(&mut self, how: Combine, a: Value, b: Value, ty: Type) -> Value {
        let binary = |op| InstData::Binary { op, a, b };
        let bool_ty = ty.with_lane(crate::ScalarType::Bool);
        let pick = |s: &mut Self, op: CmpOp| {
            let c = s.emit(InstData::Cmp { op, a, b }, bool_ty);
            s.emit(InstData::Select { cond: c, a, b }, ty)
        };
        match how {
            Combine::IAdd => self.emit(binary(BinaryOp::IAdd), ty),
            Combine::FAdd => self.emit(binary(BinaryOp::FAdd), ty),
            Combine::And => self.emit(binary(BinaryOp::And), ty),
            Combine::Or => self.emit(binary(BinaryOp::Or), ty),
            Combine::SMin => pick(self, CmpOp::SLt),
            Combine::UMin => pick(self, CmpOp::ULt),
            Combine::SMax => pick(self, CmpOp::SGt),
            Combine::UMax => pick(self, CmpOp::UGt),
            Combine::FMin | Combine::FMax => {
                let func = if how == Combine::FMin {
                    crate::BuiltinFn::Fmin
                } else {
                    crate::BuiltinFn::Fmax
                };
                self.emit(
                    InstData::Builtin {
                        func,
                        args: vec![a, b],
                    },
                    ty,
                )
            }
        }
    }

    /// The identity of a combination on type `ty` (as bits).
    fn identity(how: Combine, ty: Type) -> u64 {
        let bits = ty.lane_type().map_or(32, |l| l.bits());
        let all = if bits >= 64 {
            u64::MAX
        } else {
            (1u64 << bits) - 1
        };
        let sign = 1u64 << (bits - 1);
        let (pos_inf, neg_inf) = match bits {
            16 => (0x7c00, 0xfc00),
            32 => (0x7f80_0000, 0xff80_0000),
            _ => (0x7ff0_0000_0000_0000, 0xfff0_0000_0000_0000),
        };
        match how {
            Combine::IAdd | Combine::FAdd | Combine::Or | Combine::UMax => 0,
            Combine::And => 1,
            Combine::UMin => all,
            Combine::SMin => sign - 1,
            Combine::SMax => sign,
            Combine::FMin => pos_inf,
            Combine::FMax => neg_inf,
        }
    }

    /// Combines `x` over the work-group in local-linear-id order, one work-item at a time
    /// through a scratch cell of local memory (deterministic for floats). Returns the value
    /// combined before this work-item (exclusive) and the total.
    fn group_sequential(
        &mut self,
        how: Combine,
        x: Value,
        ty: Type,
    ) -> Result<(Value, Value), LowerError> {
        let scratch = self.scratch()?;
        let pty = self.ptr_int();
        let align = ty.size(self.m.address_bits);
        let identity = Self::identity(how, ty);
        let identity = self.int_const(ty, identity);
        let zero = self.zero(pty);
        let one = self.int_const(pty, 1);
        let (lid, n) = self.group_ids();

        let init = self.new_block();
        let after_init = self.new_block();
        let header = self.new_block();
        let k = self.func.dfg.append_block_param(header, pty);
        let excl = self.func.dfg.append_block_param(header, ty);
        let body = self.new_block();
        let update = self.new_block();
        let join = self.new_block();
        let carried = self.func.dfg.append_block_param(join, ty);
        let done = self.new_block();

        let first = self.emit(
            InstData::Cmp {
                op: CmpOp::IEq,
                a: lid,
                b: zero,
            },
            Type::Bool,
        );
        self.emit_void(InstData::Brif {
            cond: first,
            then_dest: BlockCall::new(init, Vec::new()),
            else_dest: BlockCall::new(after_init, Vec::new()),
        });
        self.cur = init;
        self.emit_void(InstData::Store {
            ptr: scratch,
            value: identity,
            align,
        });
        self.emit_void(InstData::Jump {
            dest: BlockCall::new(after_init, Vec::new()),
        });
        self.cur = after_init;
        self.local_barrier();
        self.emit_void(InstData::Jump {
            dest: BlockCall::new(header, vec![zero, identity]),
        });
        self.cur = header;
        let more = self.emit(
            InstData::Cmp {
                op: CmpOp::ULt,
                a: k,
                b: n,
            },
            Type::Bool,
        );
        self.emit_void(InstData::Brif {
            cond: more,
            then_dest: BlockCall::new(body, Vec::new()),
            else_dest: BlockCall::new(done, Vec::new()),
        });
        self.cur = body;
        let mine = self.emit(
            InstData::Cmp {
                op: CmpOp::IEq,
                a: k,
                b: lid,
            },
            Type::Bool,
        );
        self.emit_void(InstData::Brif {
            cond: mine,
            then_dest: BlockCall::new(update, Vec::new()),
            else_dest: BlockCall::new(join, vec![excl]),
        });
        self.cur = update;
        let old = self.emit(
            InstData::Load {
                ptr: scratch,
                align,
            },
            ty,
        );
        let new = self.combine(how, old, x, ty);
        self.emit_void(InstData::Store {
            ptr: scratch,
            value: new,
            align,
        });
        self.emit_void(InstData::Jump {
            dest: BlockCall::new(join, vec![old]),
        });
        self.cur = join;
        self.local_barrier();
        let next = self.emit(
            InstData::Binary {
                op: BinaryOp::IAdd,
                a: k,
                b: one,
            },
            pty,
        );
        self.emit_void(InstData::Jump {
            dest: BlockCall::new(header, vec![next, carried]),
        });
        self.cur = done;
        let total = self.emit(
            InstData::Load {
                ptr: scratch,
                align,
            },
            ty,
        );
        // Everyone has read the total before the scratch cell is reused.
        self.local_barrier();
        Ok((excl, total))
    }

    /// `OpGroupIAdd`/`FAdd`/`*Min`/`*Max` with Reduce, InclusiveScan or ExclusiveScan
    /// (OpenCL C 6.15.16 work_group_reduce/scan_*).
    pub(crate) fn lower_group_arith(&mut self, inst: &Instruction) -> Result<(), LowerError> {
        let sub_group = self.is_sub_group(inst)?;
        let how = match inst.op {
            spv::Op::GroupIAdd => Combine::IAdd,
            spv::Op::GroupFAdd => Combine::FAdd,
            spv::Op::GroupSMin => Combine::SMin,
            spv::Op::GroupUMin => Combine::UMin,
            spv::Op::GroupFMin => Combine::FMin,
            spv::Op::GroupSMax => Combine::SMax,
            spv::Op::GroupUMax => Combine::UMax,
            spv::Op::GroupFMax => Combine::FMax,
            _ => return Err(inst.unsupported("this group operation")),
        };
        let operation = inst.lit(1)?;
        let x = self.value(inst.id_op(2)?, inst)?;
        let ty = self.m.value_type(inst.rty()?, inst)?;
        if ty.is_vector() {
            return Err(inst.unsupported("work-group functions on vectors"));
        }
        if sub_group {
            // One work-item: the reduction and inclusive scan are x, the exclusive scan is the
            // identity.
            let v = match operation {
                0 | 1 => x,
                2 => {
                    let identity = Self::identity(how, ty);
                    self.int_const(ty, identity)
                }
                _ => return Err(inst.unsupported("this GroupOperation")),
            };
            self.vals.insert(inst.res()?, v);
            return Ok(());
        }
        let (excl, total) = self.group_sequential(how, x, ty)?;
        let v = match operation {
            0 => total,
            1 => self.combine(how, excl, x, ty),
            2 => excl,
            _ => return Err(inst.unsupported("this GroupOperation")),
        };
        self.vals.insert(inst.res()?, v);
        Ok(())
    }

    /// `OpGroupAll` / `OpGroupAny` (work_group_all / work_group_any).
    pub(crate) fn lower_group_vote(&mut self, inst: &Instruction) -> Result<(), LowerError> {
        let pred = self.value(inst.id_op(1)?, inst)?;
        if self.is_sub_group(inst)? {
            self.vals.insert(inst.res()?, pred);
            return Ok(());
        }
        let one = self.int_const(Type::I32, 1);
        let zero = self.zero(Type::I32);
        let x = self.emit(
            InstData::Select {
                cond: pred,
                a: one,
                b: zero,
            },
            Type::I32,
        );
        let how = if inst.op == spv::Op::GroupAll {
            Combine::And
        } else {
            Combine::Or
        };
        let (_, total) = self.group_sequential(how, x, Type::I32)?;
        let v = self.emit(
            InstData::Cmp {
                op: CmpOp::INe,
                a: total,
                b: zero,
            },
            Type::Bool,
        );
        self.vals.insert(inst.res()?, v);
        Ok(())
    }

    /// `OpGroupBroadcast Scope Value LocalId` (work_group_broadcast): the work-item at LocalId
    /// writes its value to the scratch cell, everyone reads it.
    pub(crate) fn lower_group_broadcast(&mut self, inst: &Instruction) -> Result<(), LowerError> {
        let x = self.value(inst.id_op(1)?, inst)?;
        if self.is_sub_group(inst)? {
            self.vals.insert(inst.res()?, x);
            return Ok(());
        }
        let local_id = self.value(inst.id_op(2)?, inst)?;
        let ty = self.m.value_type(inst.rty()?, inst)?;
        if ty.is_vector() {
            return Err(inst.unsupported("work-group functions on vectors"));
        }
        let pty = self.ptr_int();
        let align = ty.size(self.m.address_bits);
        let scratch = self.scratch()?;
        // Linear id of the source: x + y * size0 + z * size0 * size1.
        let id_ty = self.func.dfg.value_type(local_id);
        let comps: Vec<Value> = match id_ty {
            Type::Vec(lane, n) => (0..n)
                .map(|lane_index| {
                    self.emit(
                        InstData::ExtractLane {
                            vec: local_id,
                            lane: lane_index,
                        },
                        Type::scalar(lane),
                    )
                })
                .collect(),
            _ => vec![local_id],
        };
        let mut target = self.zero(pty);
        let mut scale = self.int_const(pty, 1);
        for (dim, c) in comps.into_iter().enumerate() {
            let c = self.widen_to_ptr_int(c);
            let term = self.emit(
                InstData::Binary {
                    op: BinaryOp::IMul,
                    a: c,
                    b: scale,
                },
                pty,
            );
            target = self.emit(
                InstData::Binary {
                    op: BinaryOp::IAdd,
                    a: target,
                    b: term,
                },
                pty,
            );
            let size = self.emit(
                InstData::WorkItem {
                    query: WorkItemQuery::LocalSize,
                    dim: dim as u8,
                },
                pty,
            );
            scale = self.emit(
                InstData::Binary {
                    op: BinaryOp::IMul,
                    a: scale,
                    b: size,
                },
                pty,
            );
        }
        let (lid, _) = self.group_ids();
        let write = self.new_block();
        let after = self.new_block();
        self.local_barrier();
        let mine = self.emit(
            InstData::Cmp {
                op: CmpOp::IEq,
                a: lid,
                b: target,
            },
            Type::Bool,
        );
        self.emit_void(InstData::Brif {
            cond: mine,
            then_dest: BlockCall::new(write, Vec::new()),
            else_dest: BlockCall::new(after, Vec::new()),
        });
        self.cur = write;
        self.emit_void(InstData::Store {
            ptr: scratch,
            value: x,
            align,
        });
        self.emit_void(InstData::Jump {
            dest: BlockCall::new(after, Vec::new()),
        });
        self.cur = after;
        self.local_barrier();
        let v = self.emit(
            InstData::Load {
                ptr: scratch,
                align,
            },
            ty,
        );
        self.local_barrier();
        self.vals.insert(inst.res()?, v);
        Ok(())
    }
}
