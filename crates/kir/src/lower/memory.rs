//! Memory instructions: loads and stores (through memory, through promoted variables, from
//! built-in variables), access chains as byte-offset arithmetic, memory copies, atomics,
//! barriers and fences.

use spv::{BuiltIn, Instruction, Op};

use super::function::FnLower;
use super::layout::{SpvId, TypeKind};
use super::{InstExt, LowerError};
use crate::{AtomicOp, BinaryOp, ConvertOp, InstData, Scope, Type, Value, WorkItemQuery};

/// The work-item query of an OpenCL built-in variable (env 2.9 / OpenCL C 6.15.1).
pub(crate) fn work_item_query(builtin: u32) -> Option<WorkItemQuery> {
    let table = [
        (BuiltIn::GlobalInvocationId, WorkItemQuery::GlobalId),
        (BuiltIn::LocalInvocationId, WorkItemQuery::LocalId),
        (BuiltIn::WorkgroupId, WorkItemQuery::GroupId),
        (BuiltIn::GlobalSize, WorkItemQuery::GlobalSize),
        (BuiltIn::WorkgroupSize, WorkItemQuery::LocalSize),
        (
            BuiltIn::EnqueuedWorkgroupSize,
            WorkItemQuery::EnqueuedLocalSize,
        ),
        (BuiltIn::NumWorkgroups, WorkItemQuery::NumGroups),
        (BuiltIn::GlobalOffset, WorkItemQuery::GlobalOffset),
        (BuiltIn::WorkDim, WorkItemQuery::WorkDim),
        (BuiltIn::GlobalLinearId, WorkItemQuery::GlobalLinearId),
        (BuiltIn::LocalInvocationIndex, WorkItemQuery::LocalLinearId),
        (BuiltIn::SubgroupSize, WorkItemQuery::SubgroupSize),
        (BuiltIn::SubgroupMaxSize, WorkItemQuery::SubgroupMaxSize),
        (BuiltIn::NumSubgroups, WorkItemQuery::NumSubgroups),
        (
            BuiltIn::NumEnqueuedSubgroups,
            WorkItemQuery::EnqueuedNumSubgroups,
        ),
        (BuiltIn::SubgroupId, WorkItemQuery::SubgroupId),
        (
            BuiltIn::SubgroupLocalInvocationId,
            WorkItemQuery::SubgroupLocalId,
        ),
    ];
    table
        .into_iter()
        .find(|(b, _)| *b as u32 == builtin)
        .map(|(_, q)| q)
}

/// The `Aligned` literal of a memory-access operand list starting at operand `at`.
fn aligned_operand(inst: &Instruction, at: usize) -> Option<u32> {
    let mask = inst.int(at)?;
    if mask & 0x2 != 0 {
        // Aligned follows Volatile-less bits in order: only Aligned carries a literal before
        // MakePointerAvailable/Visible ids.
        inst.int(at + 1)
    } else {
        None
    }
}

impl FnLower<'_, '_> {
    /// The alignment of an access of SPIR-V type `ty`: the `Aligned` operand, else natural.
    fn access_align(&self, inst: &Instruction, mask_at: usize, ty: SpvId) -> u32 {
        aligned_operand(inst, mask_at)
            .unwrap_or_else(|| self.m.info.types.align(ty) as u32)
            .max(1)
    }

    pub(crate) fn lower_load(&mut self, inst: &Instruction) -> Result<(), LowerError> {
        let ptr_id = inst.id_op(0)?;
        let rty = inst.rty()?;
        let ty = self.m.value_type(rty, inst)?;
        let result = inst.res()?;
        // Promoted variable, whole or part.
        if let Some(var_ty) = self.promo.vars.get(&ptr_id).copied() {
            let v = self.var_value(ptr_id, var_ty, inst)?;
            self.vals.insert(result, v);
            return Ok(());
        }
        if let Some(part) = self.promo.parts.get(&ptr_id).copied() {
            let var_ty = self.promo.vars[&part.var];
            let whole = self.var_value(part.var, var_ty, inst)?;
            let v = self.extract_part(whole, var_ty, part.offset, ty, inst)?;
            self.vals.insert(result, v);
            return Ok(());
        }
        // Built-in variables.
        if let Some(&builtin) = self.m.builtin_vars.get(&ptr_id) {
            let v = self.load_builtin(builtin, rty, inst)?;
            self.vals.insert(result, v);
            return Ok(());
        }
        if let Some(&(builtin, dim_id)) = self.builtin_parts.get(&ptr_id) {
            let query = work_item_query(builtin)
                .ok_or_else(|| inst.unsupported("this BuiltIn variable"))?;
            let v = match self.m.info.constants.get(&dim_id) {
                Some(_) => {
                    let dim = self.const_operand(dim_id, inst)?;
                    self.emit(
                        InstData::WorkItem {
                            query,
                            dim: dim.min(255) as u8,
                        },
                        ty,
                    )
                }
                None => {
                    let dim = self.value(dim_id, inst)?;
                    self.emit(InstData::WorkItemDyn { query, dim }, ty)
                }
            };
            self.vals.insert(result, v);
            return Ok(());
        }
        let ptr = self.value(ptr_id, inst)?;
        let align = self.access_align(inst, 1, rty);
        let v = self.emit(InstData::Load { ptr, align }, ty);
        self.vals.insert(result, v);
        Ok(())
    }

    fn var_value(
        &mut self,
        var: SpvId,
        var_ty: SpvId,
        inst: &Instruction,
    ) -> Result<Value, LowerError> {
        match self.var_vals.get(&var) {
            Some(v) => Ok(*v),
            None => {
                let ty = self.m.value_type(var_ty, inst)?;
                Ok(self.zero(ty))
            }
        }
    }

    /// Reads the part of type `ty` at byte `offset` of a promoted variable's value.
    fn extract_part(
        &mut self,
        whole: Value,
        var_ty: SpvId,
        offset: u64,
        ty: Type,
        inst: &Instruction,
    ) -> Result<Value, LowerError> {
        let whole_ty = self.func.dfg.value_type(whole);
        if offset == 0 && whole_ty == ty {
            return Ok(whole);
        }
        match self.m.info.types.get(var_ty).map(|t| &t.kind) {
            Some(TypeKind::Vector { elem, .. }) => {
                let lane = offset / self.m.info.types.size(*elem).max(1);
                Ok(self.emit(
                    InstData::ExtractLane {
                        vec: whole,
                        lane: lane as u8,
                    },
                    ty,
                ))
            }
            Some(TypeKind::Struct { .. } | TypeKind::Array { .. }) => Ok(self.emit(
                InstData::ExtractBytes {
                    agg: whole,
                    offset: offset as u32,
                },
                ty,
            )),
            _ => Err(LowerError::Internal(format!(
                "partial access to scalar variable in `{}`",
                super::inst_text(inst)
            ))),
        }
    }

    /// Loads a whole built-in variable: a scalar query, or a vector of one query per lane.
    fn load_builtin(
        &mut self,
        builtin: u32,
        rty: SpvId,
        inst: &Instruction,
    ) -> Result<Value, LowerError> {
        let query =
            work_item_query(builtin).ok_or_else(|| inst.unsupported("this BuiltIn variable"))?;
        let ty = self.m.value_type(rty, inst)?;
        match ty {
            Type::Vec(lane, n) => {
                let lane_ty = Type::scalar(lane);
                let mut vec = self.zero(ty);
                let mut lanes = Vec::new();
                for dim in 0..n {
                    let q = self.emit(InstData::WorkItem { query, dim }, lane_ty);
                    lanes.push(q);
                    vec = self.emit(
                        InstData::InsertLane {
                            vec,
                            lane: dim,
                            value: q,
                        },
                        ty,
                    );
                }
                self.builtin_vectors.insert(vec, lanes);
                Ok(vec)
            }
            _ => Ok(self.emit(InstData::WorkItem { query, dim: 0 }, ty)),
        }
    }

    pub(crate) fn lower_store(&mut self, inst: &Instruction) -> Result<(), LowerError> {
        let ptr_id = inst.id_op(0)?;
        let value_id = inst.id_op(1)?;
        let value = self.value(value_id, inst)?;
        if self.promo.vars.contains_key(&ptr_id) {
            self.var_vals.insert(ptr_id, value);
            return Ok(());
        }
        if let Some(part) = self.promo.parts.get(&ptr_id).copied() {
            let var_ty = self.promo.vars[&part.var];
            let whole = self.var_value(part.var, var_ty, inst)?;
            let whole_ty = self.func.dfg.value_type(whole);
            let vty = self.func.dfg.value_type(value);
            let new = if part.offset == 0 && whole_ty == vty {
                value
            } else {
                match self.m.info.types.get(var_ty).map(|t| &t.kind) {
                    Some(TypeKind::Vector { elem, .. }) => {
                        let lane = part.offset / self.m.info.types.size(*elem).max(1);
                        self.emit(
                            InstData::InsertLane {
                                vec: whole,
                                lane: lane as u8,
                                value,
                            },
                            whole_ty,
                        )
                    }
                    _ => self.emit(
                        InstData::InsertBytes {
                            agg: whole,
                            offset: part.offset as u32,
                            value,
                        },
                        whole_ty,
                    ),
                }
            };
            self.var_vals.insert(part.var, new);
            return Ok(());
        }
        if self.m.builtin_vars.contains_key(&ptr_id) {
            return Err(inst.malformed("store to a built-in variable"));
        }
        let ptr = self.value(ptr_id, inst)?;
        let vty = self.type_of(value_id);
        let align = match vty {
            Some(t) => self.access_align(inst, 2, t),
            None => aligned_operand(inst, 2)
                .unwrap_or_else(|| self.func.dfg.value_type(value).align(self.m.address_bits)),
        };
        self.emit_void(InstData::Store { ptr, value, align });
        Ok(())
    }

    /// Converts an index to a pointer-width integer (sign-extending or truncating).
    fn index_to_ptr_int(&mut self, index: Value) -> Value {
        let pty = self.ptr_int();
        let ity = self.func.dfg.value_type(index);
        if ity == pty {
            return index;
        }
        let op = if ity.size(self.m.address_bits) < pty.size(self.m.address_bits) {
            ConvertOp::SConvert
        } else {
            ConvertOp::UConvert
        };
        self.emit(
            InstData::Convert {
                op,
                arg: index,
                rounding: None,
                saturate: false,
            },
            pty,
        )
    }

    /// `OpAccessChain` and friends: byte offset arithmetic on the base pointer.
    pub(crate) fn lower_access_chain(&mut self, inst: &Instruction) -> Result<(), LowerError> {
        let result = inst.res()?;
        if self.promo.parts.contains_key(&result) {
            return Ok(()); // handled at its loads and stores
        }
        let base_id = inst.id_op(0)?;
        let is_ptr_chain = matches!(inst.op, Op::PtrAccessChain | Op::InBoundsPtrAccessChain);
        // Access chains into built-in variables select a dimension.
        if let Some(&builtin) = self.m.builtin_vars.get(&base_id) {
            let dim_at = if is_ptr_chain { 2 } else { 1 };
            if inst.operands.len() != dim_at + 1 {
                return Err(inst.unsupported("this access chain into a built-in variable"));
            }
            self.builtin_parts
                .insert(result, (builtin, inst.id_op(dim_at)?));
            return Ok(());
        }
        let base = self.value(base_id, inst)?;
        let rty = inst.rty()?;
        let result_ty = self.m.value_type(rty, inst)?;
        let base_ptr_ty = self
            .type_of(base_id)
            .ok_or_else(|| inst.malformed("base pointer of unknown type"))?;
        let mut ty = self
            .m
            .info
            .types
            .pointee(base_ptr_ty)
            .ok_or_else(|| inst.malformed("base is not a pointer"))?;
        let mut const_offset: i64 = 0;
        let mut dynamic: Option<Value> = None;
        for k in 1..inst.operands.len() {
            let index_id = inst.id_op(k)?;
            let const_index = self
                .m
                .info
                .constants
                .get(&index_id)
                .and_then(|c| c.scalar_bits(&self.m.info).map(|b| (b, c.ty())));
            let (stride, next_ty) =
                if k == 1 && is_ptr_chain {
                    // Element: strides over the pointee type itself.
                    let stride = self
                        .m
                        .info
                        .decoration_literal(base_ptr_ty, spv::Decoration::ArrayStride)
                        .map(u64::from)
                        .unwrap_or_else(|| self.m.info.types.size(ty));
                    (stride, ty)
                } else {
                    match self.m.info.types.get(ty).map(|t| &t.kind) {
                        Some(TypeKind::Struct { .. }) => {
                            let (b, _) = const_index
                                .ok_or_else(|| inst.malformed("struct index is not a constant"))?;
                            let (off, member) = self
                                .m
                                .info
                                .types
                                .component(ty, b)
                                .ok_or_else(|| inst.malformed("struct index out of range"))?;
                            const_offset = const_offset.wrapping_add(off as i64);
                            ty = member;
                            continue;
                        }
                        _ => {
                            let (stride, elem) =
                                self.m.info.types.stride(ty).ok_or_else(|| {
                                    inst.malformed("index into a non-composite type")
                                })?;
                            (stride, elem)
                        }
                    }
                };
            match const_index {
                Some((bits, cty)) => {
                    let width = match self.m.info.types.get(cty).map(|t| &t.kind) {
                        Some(TypeKind::Int { width, .. }) => *width,
                        _ => 64,
                    };
                    let signed = sign_extend(bits, width);
                    const_offset = const_offset.wrapping_add(signed.wrapping_mul(stride as i64));
                }
                None => {
                    let index = self.value(index_id, inst)?;
                    let index = self.index_to_ptr_int(index);
                    let pty = self.ptr_int();
                    let scaled = if stride == 1 {
                        index
                    } else {
                        let s = self.int_const(pty, stride);
                        self.emit(
                            InstData::Binary {
                                op: BinaryOp::IMul,
                                a: index,
                                b: s,
                            },
                            pty,
                        )
                    };
                    dynamic = Some(match dynamic {
                        None => scaled,
                        Some(d) => self.emit(
                            InstData::Binary {
                                op: BinaryOp::IAdd,
                                a: d,
                                b: scaled,
                            },
                            pty,
                        ),
                    });
                }
            }
            ty = next_ty;
        }
        let pty = self.ptr_int();
        let offset = match (dynamic, const_offset) {
            (None, 0) => None,
            (None, c) => Some(self.int_const(pty, c as u64)),
            (Some(d), 0) => Some(d),
            (Some(d), c) => {
                let cv = self.int_const(pty, c as u64);
                Some(self.emit(
                    InstData::Binary {
                        op: BinaryOp::IAdd,
                        a: d,
                        b: cv,
                    },
                    pty,
                ))
            }
        };
        let v = match offset {
            Some(offset) if self.int_consts.get(&offset) != Some(&0) => {
                self.emit(InstData::PtrAdd { ptr: base, offset }, result_ty)
            }
            _ => base,
        };
        self.vals.insert(result, v);
        Ok(())
    }

    pub(crate) fn lower_copy_memory(&mut self, inst: &Instruction) -> Result<(), LowerError> {
        let dst_id = inst.id_op(0)?;
        let src_id = inst.id_op(1)?;
        let dst = self.value(dst_id, inst)?;
        let src = self.value(src_id, inst)?;
        let size = if inst.op == Op::CopyMemorySized {
            let s = self.value(inst.id_op(2)?, inst)?;
            self.index_to_ptr_int_unsigned(s)
        } else {
            let ptr_ty = self
                .type_of(dst_id)
                .ok_or_else(|| inst.malformed("target of unknown type"))?;
            let pointee = self
                .m
                .info
                .types
                .pointee(ptr_ty)
                .ok_or_else(|| inst.malformed("target is not a pointer"))?;
            let n = self.m.info.types.size(pointee);
            self.pro_int_const(n)
        };
        self.emit_void(InstData::Memcpy { dst, src, size });
        Ok(())
    }

    fn index_to_ptr_int_unsigned(&mut self, v: Value) -> Value {
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

    fn scope(&self, id: SpvId, inst: &Instruction) -> Result<Scope, LowerError> {
        let v = self.const_operand(id, inst)?;
        Scope::from_spirv(v as u32).ok_or_else(|| inst.malformed("unknown scope"))
    }

    pub(crate) fn lower_barrier(&mut self, inst: &Instruction) -> Result<(), LowerError> {
        match inst.op {
            Op::ControlBarrier => {
                let exec_scope = self.scope(inst.id_op(0)?, inst)?;
                let mem_scope = self.scope(inst.id_op(1)?, inst)?;
                let semantics = self.const_operand(inst.id_op(2)?, inst)? as u32;
                self.emit_void(InstData::Barrier {
                    exec_scope,
                    mem_scope,
                    semantics,
                });
            }
            _ => {
                let scope = self.scope(inst.id_op(0)?, inst)?;
                let semantics = self.const_operand(inst.id_op(1)?, inst)? as u32;
                self.emit_void(InstData::Fence { scope, semantics });
            }
        }
        Ok(())
    }

    /// `OpNamedBarrierInitialize` (SPIR-V 3.32.20, NamedBarrier): initialization is a
    /// work-group operation every work-item performs in the same order (OpenCL C++ 1.0
    /// `work_group_named_barrier`: "must be called by all work-items of a work-group"), so the
    /// k-th initialization of every work-item creates the same barrier. The handle is
    /// `k << 32 | Subgroup Count`, k counted in a private variable of the work-item.
    pub(crate) fn lower_named_barrier_init(
        &mut self,
        inst: &Instruction,
    ) -> Result<(), LowerError> {
        let global = self
            .m
            .named_barrier_counter
            .ok_or_else(|| LowerError::Internal("no named barrier counter".into()))?;
        let count = self.value(inst.id_op(0)?, inst)?;
        let counter = self.pro(
            InstData::GlobalAddr { global },
            Type::Ptr(crate::AddrSpace::Private),
        );
        let seq = self.emit(
            InstData::Load {
                ptr: counter,
                align: 4,
            },
            Type::I32,
        );
        let one = self.int_const(Type::I32, 1);
        let next = self.emit(
            InstData::Binary {
                op: crate::BinaryOp::IAdd,
                a: seq,
                b: one,
            },
            Type::I32,
        );
        self.emit_void(InstData::Store {
            ptr: counter,
            value: next,
            align: 4,
        });
        let widen = |this: &mut Self, v: Value| {
            this.emit(
                InstData::Convert {
                    op: ConvertOp::UConvert,
                    arg: v,
                    rounding: None,
                    saturate: false,
                },
                Type::I64,
            )
        };
        let seq = widen(self, seq);
        let count = widen(self, count);
        let shift = self.int_const(Type::I64, 32);
        let high = self.emit(
            InstData::Binary {
                op: crate::BinaryOp::Shl,
                a: seq,
                b: shift,
            },
            Type::I64,
        );
        let handle = self.emit(
            InstData::Binary {
                op: crate::BinaryOp::Or,
                a: high,
                b: count,
            },
            Type::I64,
        );
        self.vals.insert(inst.res()?, handle);
        Ok(())
    }

    /// `OpMemoryNamedBarrier` (SPIR-V 3.32.20): Named Barrier, Memory scope, Semantics.
    pub(crate) fn lower_named_barrier_wait(
        &mut self,
        inst: &Instruction,
    ) -> Result<(), LowerError> {
        let barrier = self.value(inst.id_op(0)?, inst)?;
        let mem_scope = self.scope(inst.id_op(1)?, inst)?;
        let semantics = self.const_operand(inst.id_op(2)?, inst)? as u32;
        self.emit_void(InstData::NamedBarrier {
            barrier,
            mem_scope,
            semantics,
        });
        Ok(())
    }

    pub(crate) fn lower_atomic(&mut self, inst: &Instruction) -> Result<(), LowerError> {
        let ptr_id = inst.id_op(0)?;
        let ptr = self.value(ptr_id, inst)?;
        let scope = self.scope(inst.id_op(1)?, inst)?;
        let semantics = self.const_operand(inst.id_op(2)?, inst)? as u32;
        let mut semantics_unequal = 0;
        let mut args = Vec::new();
        let op = match inst.op {
            Op::AtomicLoad => AtomicOp::Load,
            Op::AtomicStore => AtomicOp::Store,
            Op::AtomicExchange => AtomicOp::Exchange,
            Op::AtomicCompareExchange | Op::AtomicCompareExchangeWeak => AtomicOp::CmpXchg,
            Op::AtomicIIncrement => AtomicOp::IIncrement,
            Op::AtomicIDecrement => AtomicOp::IDecrement,
            Op::AtomicIAdd => AtomicOp::IAdd,
            Op::AtomicISub => AtomicOp::ISub,
            Op::AtomicSMin => AtomicOp::SMin,
            Op::AtomicUMin => AtomicOp::UMin,
            Op::AtomicSMax => AtomicOp::SMax,
            Op::AtomicUMax => AtomicOp::UMax,
            Op::AtomicAnd => AtomicOp::And,
            Op::AtomicOr => AtomicOp::Or,
            Op::AtomicXor => AtomicOp::Xor,
            Op::AtomicFAddEXT => AtomicOp::FAdd,
            Op::AtomicFMinEXT => AtomicOp::FMin,
            Op::AtomicFMaxEXT => AtomicOp::FMax,
            Op::AtomicFlagTestAndSet => AtomicOp::FlagTestAndSet,
            Op::AtomicFlagClear => AtomicOp::FlagClear,
            _ => return Err(inst.unsupported("this atomic instruction")),
        };
        match op {
            AtomicOp::CmpXchg => {
                semantics_unequal = self.const_operand(inst.id_op(3)?, inst)? as u32;
                args.push(self.value(inst.id_op(4)?, inst)?);
                args.push(self.value(inst.id_op(5)?, inst)?);
            }
            AtomicOp::Load
            | AtomicOp::IIncrement
            | AtomicOp::IDecrement
            | AtomicOp::FlagTestAndSet
            | AtomicOp::FlagClear => {}
            _ => args.push(self.value(inst.id_op(3)?, inst)?),
        }
        let ty = match op {
            AtomicOp::FlagTestAndSet | AtomicOp::FlagClear => Type::I32,
            AtomicOp::Store => self.func.dfg.value_type(args[0]),
            _ => self.m.value_type(inst.rty()?, inst)?,
        };
        let data = InstData::Atomic {
            op,
            ty,
            ptr,
            scope,
            semantics,
            semantics_unequal,
            args,
        };
        match op {
            AtomicOp::Store | AtomicOp::FlagClear => self.emit_void(data),
            AtomicOp::FlagTestAndSet => {
                let v = self.emit(data, Type::Bool);
                self.vals.insert(inst.res()?, v);
            }
            _ => {
                let v = self.emit(data, ty);
                self.vals.insert(inst.res()?, v);
            }
        }
        Ok(())
    }
}

fn sign_extend(bits: u64, width: u32) -> i64 {
    if width >= 64 || width == 0 {
        bits as i64
    } else {
        let s = 64 - width;
        ((bits << s) as i64) >> s
    }
}
