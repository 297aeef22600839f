//! Device-side enqueue instructions (SPIR-V 3.42.22; OpenCL C 2.0 §6.13.17).
//!
//! Every instruction becomes one kir `enqueue` instruction ([`crate::EnqueueOp`]) that the
//! engines run against the launch's device queue (`exec::enqueue`). Queues and events are
//! pointer-sized handles. Operands follow llvm-spirv's conventions as well as the grammar's:
//! the `ND Range` of `OpEnqueueKernel` and the `OpGetKernelNDrange*` queries may be an
//! `ndrange_t` value (OpBuildNDRange's result) or a pointer to one (llvm-spirv passes the
//! variable), and each `Local Size` may be an integer or a pointer to a `size_t` (llvm-spirv).
//! The engines receive a pointer to the `ndrange_t` and integer local sizes.
//!
//! `OpBuildNDRange GlobalWorkSize LocalWorkSize GlobalWorkOffset` builds the `ndrange_t`
//! struct of its result type (`u32 workDimension; size_t globalWorkOffset[3],
//! globalWorkSize[3], localWorkSize[3]`, clang's `struct ndrange_t`): the dimension is 1 for
//! scalar operands, the array length for arrays; unused entries are 0 (a local size of 0 lets
//! the implementation choose, OpenCL C 2.0 §6.13.17.1).
//!
//! `OpConvertUToPtr %DeviceEvent %c` (llvm-spirv-15's `CLK_NULL_EVENT`, the tolerance of
//! `spv::valid`'s types rules) with `c` an all-ones integer constant is the null device
//! event handle (all ones, pointer-sized): an invalid event (OpenCL C 2.0 §6.13.17: "refers to
//! an invalid device event"), so `is_valid_event` gives false and a wait list holding it gives
//! `CLK_INVALID_EVENT_WAIT_LIST`. Other constants name no event and are not supported.

use spv::{Instruction, Op};

use super::function::FnLower;
use super::layout::TypeKind;
use super::{InstExt, LowerError};
use crate::{AddrSpace, CmpOp, EnqueueOp, InstData, Type, Value};

impl FnLower<'_, '_> {
    /// Lowers one device-side enqueue instruction.
    pub(crate) fn lower_enqueue(&mut self, inst: &Instruction) -> Result<(), LowerError> {
        match inst.op {
            Op::BuildNDRange => self.lower_build_ndrange(inst),
            Op::EnqueueKernel => {
                let mut args = self.enqueue_operands(inst, &[0, 1])?;
                args.push(self.ndrange_pointer(inst, 2)?);
                args.extend(self.enqueue_operands(inst, &[3, 4, 5, 7, 8, 9])?);
                for k in 10..inst.operands.len() {
                    args.push(self.local_size(inst, k)?);
                }
                let invoke = self.invoke(inst, 6)?;
                self.emit_enqueue(inst, EnqueueOp::Kernel, Some(invoke), args)
            }
            Op::EnqueueMarker => {
                let args = self.enqueue_operands(inst, &[0, 1, 2, 3])?;
                self.emit_enqueue(inst, EnqueueOp::Marker, None, args)
            }
            Op::GetKernelWorkGroupSize | Op::GetKernelPreferredWorkGroupSizeMultiple => {
                let op = if inst.op == Op::GetKernelWorkGroupSize {
                    EnqueueOp::WorkGroupSize
                } else {
                    EnqueueOp::PreferredMultiple
                };
                let invoke = self.invoke(inst, 0)?;
                self.emit_enqueue(inst, op, Some(invoke), Vec::new())
            }
            Op::GetKernelNDrangeSubGroupCount | Op::GetKernelNDrangeMaxSubGroupSize => {
                let op = if inst.op == Op::GetKernelNDrangeSubGroupCount {
                    EnqueueOp::SubgroupCount
                } else {
                    EnqueueOp::MaxSubgroupSize
                };
                let nd = self.ndrange_pointer(inst, 0)?;
                let invoke = self.invoke(inst, 1)?;
                self.emit_enqueue(inst, op, Some(invoke), vec![nd])
            }
            Op::GetDefaultQueue => self.emit_enqueue(inst, EnqueueOp::DefaultQueue, None, vec![]),
            Op::CreateUserEvent => {
                self.emit_enqueue(inst, EnqueueOp::CreateUserEvent, None, vec![])
            }
            Op::RetainEvent | Op::ReleaseEvent => {
                let op = if inst.op == Op::RetainEvent {
                    EnqueueOp::Retain
                } else {
                    EnqueueOp::Release
                };
                let args = self.enqueue_operands(inst, &[0])?;
                self.emit_enqueue(inst, op, None, args)
            }
            Op::SetUserEventStatus => {
                let args = self.enqueue_operands(inst, &[0, 1])?;
                self.emit_enqueue(inst, EnqueueOp::SetStatus, None, args)
            }
            Op::CaptureEventProfilingInfo => {
                let args = self.enqueue_operands(inst, &[0, 1, 2])?;
                self.emit_enqueue(inst, EnqueueOp::CaptureProfiling, None, args)
            }
            Op::IsValidEvent => {
                let args = self.enqueue_operands(inst, &[0])?;
                let data = InstData::Enqueue {
                    op: EnqueueOp::IsValid,
                    invoke: None,
                    args,
                };
                let valid = self.emit(data, Type::I32);
                let zero = self.zero(Type::I32);
                let v = self.emit(
                    InstData::Cmp {
                        op: CmpOp::INe,
                        a: valid,
                        b: zero,
                    },
                    Type::Bool,
                );
                self.vals.insert(inst.res()?, v);
                Ok(())
            }
            _ => Err(inst.unsupported("this device-side enqueue instruction")),
        }
    }

    /// Whether `inst` is an `OpConvertUToPtr` to `OpTypeDeviceEvent` (llvm-spirv-15's
    /// `CLK_NULL_EVENT`).
    pub(crate) fn is_device_event_from_int(&self, inst: &Instruction) -> bool {
        inst.op == Op::ConvertUToPtr
            && inst.result_type.is_some_and(|rt| {
                matches!(
                    self.m.info.types.get(rt.0).map(|t| &t.kind),
                    Some(TypeKind::Opaque {
                        what: "clk_event_t"
                    })
                )
            })
    }

    /// `OpConvertUToPtr %DeviceEvent %c`: the null device event when `c` is an all-ones
    /// integer constant (`SIZE_MAX` in clang's `CLK_NULL_EVENT`).
    pub(crate) fn lower_null_event(&mut self, inst: &Instruction) -> Result<(), LowerError> {
        let id = inst.id_op(0)?;
        let width = self.m.info.constants.get(&id).and_then(|c| {
            match self.m.info.types.get(c.ty()).map(|t| &t.kind) {
                Some(TypeKind::Int { width, .. }) => Some(*width),
                _ => None,
            }
        });
        let all_ones = match width {
            Some(w) if (1..=64).contains(&w) => {
                let mask = u64::MAX >> (64 - w);
                super::constants::scalar_value(&self.m.info, id)? & mask == mask
            }
            _ => false,
        };
        if !all_ones {
            return Err(inst.unsupported(
                "a device event converted from anything but an all-ones integer constant (CLK_NULL_EVENT)",
            ));
        }
        let ty = self.ptr_int();
        let v = self.int_const(ty, u64::MAX);
        self.vals.insert(inst.res()?, v);
        Ok(())
    }

    /// Values of the operands at `indices`.
    fn enqueue_operands(
        &mut self,
        inst: &Instruction,
        indices: &[usize],
    ) -> Result<Vec<Value>, LowerError> {
        indices
            .iter()
            .map(|&k| {
                let id = inst.id_op(k)?;
                self.value(id, inst)
            })
            .collect()
    }

    /// The kir function of the `Invoke` operand at `k`.
    fn invoke(&mut self, inst: &Instruction, k: usize) -> Result<crate::FuncRef, LowerError> {
        let id = inst.id_op(k)?;
        self.m
            .func_refs
            .get(&id)
            .copied()
            .ok_or_else(|| inst.unsupported("an Invoke function without a body (linking)"))
    }

    fn emit_enqueue(
        &mut self,
        inst: &Instruction,
        op: EnqueueOp,
        invoke: Option<crate::FuncRef>,
        args: Vec<Value>,
    ) -> Result<(), LowerError> {
        let data = InstData::Enqueue { op, invoke, args };
        if op.has_result() {
            let ty = self.m.value_type(inst.rty()?, inst)?;
            let v = self.emit(data, ty);
            self.vals.insert(inst.res()?, v);
        } else {
            self.emit_void(data);
        }
        Ok(())
    }

    /// A pointer to the `ndrange_t` operand at `k` (the operand itself when it is a pointer,
    /// otherwise a private copy of the value).
    fn ndrange_pointer(&mut self, inst: &Instruction, k: usize) -> Result<Value, LowerError> {
        let v = self.value(inst.id_op(k)?, inst)?;
        let ty = self.func.dfg.value_type(v);
        if ty.is_ptr() {
            return Ok(v);
        }
        let size = ty.size(self.m.address_bits);
        let slot = self.emit(
            InstData::StackAlloc { size, align: 8 },
            Type::Ptr(AddrSpace::Private),
        );
        self.emit_void(InstData::Store {
            ptr: slot,
            value: v,
            align: 8,
        });
        Ok(slot)
    }

    /// The `Local Size` operand at `k` as an integer (loaded when it is a pointer to one).
    fn local_size(&mut self, inst: &Instruction, k: usize) -> Result<Value, LowerError> {
        let v = self.value(inst.id_op(k)?, inst)?;
        if !self.func.dfg.value_type(v).is_ptr() {
            return Ok(v);
        }
        let ty = self.ptr_int();
        let align = ty.size(self.m.address_bits);
        Ok(self.emit(InstData::Load { ptr: v, align }, ty))
    }

    /// `OpBuildNDRange`: the `ndrange_t` value (see the module documentation).
    fn lower_build_ndrange(&mut self, inst: &Instruction) -> Result<(), LowerError> {
        let rty = inst.rty()?;
        let offsets = match self.m.info.types.get(rty).map(|t| &t.kind) {
            Some(TypeKind::Struct { offsets, .. }) if offsets.len() == 4 => offsets.clone(),
            _ => return Err(inst.unsupported("an ndrange_t that is not a struct of 4 members")),
        };
        let result_ty = self.m.value_type(rty, inst)?;
        let size_bytes = u64::from(self.m.address_bits / 8);
        let mut agg = self.zero_agg(result_ty);
        let mut dim: Option<u64> = None;
        // Operands: GlobalWorkSize, LocalWorkSize, GlobalWorkOffset; struct members 1..=3:
        // offset, global, local.
        for (operand, member) in [(0usize, 2usize), (1, 3), (2, 1)] {
            let id = inst.id_op(operand)?;
            let v = self.value(id, inst)?;
            let n = match self
                .type_of(id)
                .and_then(|t| self.m.info.types.get(t))
                .map(|t| &t.kind)
            {
                Some(TypeKind::Array { len, .. }) => *len,
                _ => 1,
            };
            if n > 3 {
                return Err(inst.unsupported("an ND-range of more than 3 dimensions"));
            }
            if operand == 0 {
                dim = Some(n);
            }
            let vty = self.func.dfg.value_type(v);
            if vty.size(self.m.address_bits) as u64 != n * size_bytes {
                return Err(inst.unsupported("ND-range sizes that are not size_t"));
            }
            agg = self.emit(
                InstData::InsertBytes {
                    agg,
                    offset: offsets[member] as u32,
                    value: v,
                },
                result_ty,
            );
        }
        let dim = self.int_const(Type::I32, dim.unwrap_or(1));
        agg = self.emit(
            InstData::InsertBytes {
                agg,
                offset: offsets[0] as u32,
                value: dim,
            },
            result_ty,
        );
        self.vals.insert(inst.res()?, agg);
        Ok(())
    }

    /// The all-zero value of aggregate type `ty`.
    fn zero_agg(&mut self, ty: Type) -> Value {
        let size = ty.size(self.m.address_bits) as usize;
        self.pro(
            InstData::Const {
                bytes: vec![0; size],
            },
            ty,
        )
    }
}

/// Whether `op` is a device-side enqueue instruction [`FnLower::lower_enqueue`] handles.
pub(crate) fn is_enqueue_op(op: Op) -> bool {
    matches!(
        op,
        Op::BuildNDRange
            | Op::EnqueueKernel
            | Op::EnqueueMarker
            | Op::GetKernelWorkGroupSize
            | Op::GetKernelPreferredWorkGroupSizeMultiple
            | Op::GetKernelNDrangeSubGroupCount
            | Op::GetKernelNDrangeMaxSubGroupSize
            | Op::GetDefaultQueue
            | Op::CreateUserEvent
            | Op::RetainEvent
            | Op::ReleaseEvent
            | Op::SetUserEventStatus
            | Op::CaptureEventProfilingInfo
            | Op::IsValidEvent
    )
}
