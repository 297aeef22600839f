//! Instruction selection for the non-memory instructions of a block: arithmetic, bit, logical,
//! relational, conversion, composite and vector instructions, `OpSelect`, calls; dispatch of the
//! memory, atomic, barrier and extended instructions.

use spv::{Decoration, Instruction, Op};

use super::function::FnLower;
use super::layout::{SpvId, TypeKind};
use super::{InstExt, LowerError};
use crate::{
    BinaryOp, CmpOp, ConvertOp, InstData, ReduceOp, Rounding, ScalarType, TestOp, Type, UnaryOp,
    Value,
};

fn binary_op(op: Op) -> Option<BinaryOp> {
    Some(match op {
        Op::IAdd => BinaryOp::IAdd,
        Op::ISub => BinaryOp::ISub,
        Op::IMul => BinaryOp::IMul,
        Op::UDiv => BinaryOp::UDiv,
        Op::SDiv => BinaryOp::SDiv,
        Op::UMod => BinaryOp::URem,
        Op::SRem => BinaryOp::SRem,
        Op::SMod => BinaryOp::SMod,
        Op::FAdd => BinaryOp::FAdd,
        Op::FSub => BinaryOp::FSub,
        Op::FMul => BinaryOp::FMul,
        Op::FDiv => BinaryOp::FDiv,
        Op::FRem => BinaryOp::FRem,
        Op::FMod => BinaryOp::FMod,
        Op::ShiftLeftLogical => BinaryOp::Shl,
        Op::ShiftRightLogical => BinaryOp::LShr,
        Op::ShiftRightArithmetic => BinaryOp::AShr,
        Op::BitwiseAnd | Op::LogicalAnd => BinaryOp::And,
        Op::BitwiseOr | Op::LogicalOr => BinaryOp::Or,
        Op::BitwiseXor => BinaryOp::Xor,
        _ => return None,
    })
}

fn cmp_op(op: Op) -> Option<CmpOp> {
    Some(match op {
        Op::IEqual => CmpOp::IEq,
        Op::INotEqual => CmpOp::INe,
        Op::ULessThan => CmpOp::ULt,
        Op::ULessThanEqual => CmpOp::ULe,
        Op::UGreaterThan => CmpOp::UGt,
        Op::UGreaterThanEqual => CmpOp::UGe,
        Op::SLessThan => CmpOp::SLt,
        Op::SLessThanEqual => CmpOp::SLe,
        Op::SGreaterThan => CmpOp::SGt,
        Op::SGreaterThanEqual => CmpOp::SGe,
        Op::FOrdEqual => CmpOp::FOrdEq,
        Op::FOrdNotEqual => CmpOp::FOrdNe,
        Op::FOrdLessThan => CmpOp::FOrdLt,
        Op::FOrdLessThanEqual => CmpOp::FOrdLe,
        Op::FOrdGreaterThan => CmpOp::FOrdGt,
        Op::FOrdGreaterThanEqual => CmpOp::FOrdGe,
        Op::FUnordEqual => CmpOp::FUnordEq,
        Op::FUnordNotEqual => CmpOp::FUnordNe,
        Op::FUnordLessThan => CmpOp::FUnordLt,
        Op::FUnordLessThanEqual => CmpOp::FUnordLe,
        Op::FUnordGreaterThan => CmpOp::FUnordGt,
        Op::FUnordGreaterThanEqual => CmpOp::FUnordGe,
        Op::Ordered => CmpOp::FOrd,
        Op::Unordered => CmpOp::FUnord,
        // SPIR-V: OpLessOrGreater is OpFOrdNotEqual.
        Op::LessOrGreater => CmpOp::FOrdNe,
        Op::LogicalEqual => CmpOp::LogicalEq,
        Op::LogicalNotEqual => CmpOp::LogicalNe,
        _ => return None,
    })
}

fn test_op(op: Op) -> Option<TestOp> {
    Some(match op {
        Op::IsNan => TestOp::IsNan,
        Op::IsInf => TestOp::IsInf,
        Op::IsFinite => TestOp::IsFinite,
        Op::IsNormal => TestOp::IsNormal,
        Op::SignBitSet => TestOp::SignBitSet,
        _ => return None,
    })
}

fn convert_op(op: Op) -> Option<ConvertOp> {
    Some(match op {
        Op::ConvertFToU => ConvertOp::FToU,
        Op::ConvertFToS => ConvertOp::FToS,
        Op::ConvertSToF => ConvertOp::SToF,
        Op::ConvertUToF => ConvertOp::UToF,
        Op::UConvert => ConvertOp::UConvert,
        Op::SConvert => ConvertOp::SConvert,
        Op::FConvert => ConvertOp::FConvert,
        Op::ConvertPtrToU => ConvertOp::PtrToInt,
        Op::ConvertUToPtr => ConvertOp::IntToPtr,
        Op::PtrCastToGeneric | Op::GenericCastToPtr => ConvertOp::PtrCast,
        Op::GenericCastToPtrExplicit => ConvertOp::PtrCastChecked,
        _ => return None,
    })
}

impl FnLower<'_, '_> {
    /// Lowers one non-terminator instruction of the current block.
    pub(crate) fn lower_inst(&mut self, inst: &Instruction) -> Result<(), LowerError> {
        let op = inst.op;
        if let Some(bop) = binary_op(op) {
            let a = self.value(inst.id_op(0)?, inst)?;
            let b = self.value(inst.id_op(1)?, inst)?;
            return self.define(inst, InstData::Binary { op: bop, a, b });
        }
        if let Some(cop) = cmp_op(op) {
            let a = self.value(inst.id_op(0)?, inst)?;
            let b = self.value(inst.id_op(1)?, inst)?;
            return self.define(inst, InstData::Cmp { op: cop, a, b });
        }
        if let Some(top) = test_op(op) {
            let arg = self.value(inst.id_op(0)?, inst)?;
            return self.define(inst, InstData::Test { op: top, arg });
        }
        if self.is_device_event_from_int(inst) {
            return self.lower_null_event(inst);
        }
        if let Some(cop) = convert_op(op) {
            return self.lower_convert(inst, cop);
        }
        if self.lower_image(inst)? {
            return Ok(());
        }
        match op {
            // Instructions without effect on execution.
            Op::Nop
            | Op::Line
            | Op::NoLine
            | Op::LoopMerge
            | Op::SelectionMerge
            | Op::LifetimeStart
            | Op::LifetimeStop
            | Op::Variable
            | Op::Phi => Ok(()),
            Op::Undef => {
                let ty = self.m.value_type(inst.rty()?, inst)?;
                let v = self.zero(ty);
                self.vals.insert(inst.res()?, v);
                Ok(())
            }
            Op::SNegate
            | Op::FNegate
            | Op::Not
            | Op::LogicalNot
            | Op::BitCount
            | Op::BitReverse => {
                let arg = self.value(inst.id_op(0)?, inst)?;
                let uop = match op {
                    Op::SNegate => UnaryOp::INeg,
                    Op::FNegate => UnaryOp::FNeg,
                    Op::BitCount => UnaryOp::BitCount,
                    Op::BitReverse => UnaryOp::BitReverse,
                    _ => UnaryOp::Not,
                };
                self.define(inst, InstData::Unary { op: uop, arg })
            }
            Op::Any | Op::All => {
                let arg = self.value(inst.id_op(0)?, inst)?;
                if !self.func.dfg.value_type(arg).is_vector() {
                    self.vals.insert(inst.res()?, arg);
                    return Ok(());
                }
                let rop = if op == Op::Any {
                    ReduceOp::Any
                } else {
                    ReduceOp::All
                };
                self.define(inst, InstData::Reduce { op: rop, arg })
            }
            Op::Select => {
                let cond = self.value(inst.id_op(0)?, inst)?;
                let a = self.value(inst.id_op(1)?, inst)?;
                let b = self.value(inst.id_op(2)?, inst)?;
                self.define(inst, InstData::Select { cond, a, b })
            }
            Op::CopyObject | Op::ExpectKHR => {
                let v = self.value(inst.id_op(0)?, inst)?;
                self.vals.insert(inst.res()?, v);
                Ok(())
            }
            Op::VectorTimesScalar => {
                let vec = self.value(inst.id_op(0)?, inst)?;
                let s = self.value(inst.id_op(1)?, inst)?;
                let ty = self.func.dfg.value_type(vec);
                let splat = self.emit(InstData::Splat { value: s }, ty);
                self.define(
                    inst,
                    InstData::Binary {
                        op: BinaryOp::FMul,
                        a: vec,
                        b: splat,
                    },
                )
            }
            Op::Dot => self.lower_dot(inst),
            Op::Bitcast => self.lower_bitcast(inst),
            Op::SatConvertSToU | Op::SatConvertUToS => self.lower_sat_convert(inst),
            Op::CompositeExtract => self.lower_composite_extract(inst),
            Op::CompositeInsert => self.lower_composite_insert(inst),
            Op::CompositeConstruct => self.lower_composite_construct(inst),
            Op::VectorExtractDynamic => {
                let vec = self.value(inst.id_op(0)?, inst)?;
                let index = self.value(inst.id_op(1)?, inst)?;
                self.define(inst, InstData::ExtractLaneDyn { vec, index })
            }
            Op::VectorInsertDynamic => {
                let vec = self.value(inst.id_op(0)?, inst)?;
                let value = self.value(inst.id_op(1)?, inst)?;
                let index = self.value(inst.id_op(2)?, inst)?;
                self.define(inst, InstData::InsertLaneDyn { vec, index, value })
            }
            Op::VectorShuffle => {
                let a = self.value(inst.id_op(0)?, inst)?;
                let b = self.value(inst.id_op(1)?, inst)?;
                let mask = (2..inst.operands.len())
                    .map(|k| inst.lit(k))
                    .collect::<Result<Vec<u32>, _>>()?;
                self.define(inst, InstData::Shuffle { a, b, mask })
            }
            Op::Load => self.lower_load(inst),
            Op::Store => self.lower_store(inst),
            Op::AccessChain
            | Op::InBoundsAccessChain
            | Op::PtrAccessChain
            | Op::InBoundsPtrAccessChain => self.lower_access_chain(inst),
            Op::CopyMemory | Op::CopyMemorySized => self.lower_copy_memory(inst),
            Op::ControlBarrier | Op::MemoryBarrier => self.lower_barrier(inst),
            Op::NamedBarrierInitialize => self.lower_named_barrier_init(inst),
            Op::MemoryNamedBarrier => self.lower_named_barrier_wait(inst),
            Op::AtomicLoad
            | Op::AtomicStore
            | Op::AtomicExchange
            | Op::AtomicCompareExchange
            | Op::AtomicCompareExchangeWeak
            | Op::AtomicIIncrement
            | Op::AtomicIDecrement
            | Op::AtomicIAdd
            | Op::AtomicISub
            | Op::AtomicSMin
            | Op::AtomicUMin
            | Op::AtomicSMax
            | Op::AtomicUMax
            | Op::AtomicAnd
            | Op::AtomicOr
            | Op::AtomicXor
            | Op::AtomicFAddEXT
            | Op::AtomicFMinEXT
            | Op::AtomicFMaxEXT
            | Op::AtomicFlagTestAndSet
            | Op::AtomicFlagClear => self.lower_atomic(inst),
            Op::FunctionCall => self.lower_call(inst),
            Op::GroupAsyncCopy => self.lower_async_copy(inst),
            Op::GroupWaitEvents => self.lower_wait_events(inst),
            Op::GroupIAdd
            | Op::GroupFAdd
            | Op::GroupSMin
            | Op::GroupUMin
            | Op::GroupFMin
            | Op::GroupSMax
            | Op::GroupUMax
            | Op::GroupFMax => self.lower_group_arith(inst),
            Op::GroupAll | Op::GroupAny => self.lower_group_vote(inst),
            Op::GroupBroadcast => self.lower_group_broadcast(inst),
            Op::ExtInst => self.lower_ext_inst(inst),
            Op::IAddCarry | Op::ISubBorrow | Op::UMulExtended | Op::SMulExtended => {
                self.lower_extended_arith(inst)
            }
            Op::GenericPtrMemSemantics => self.lower_generic_ptr_mem_semantics(inst),
            op if super::subgroup::is_subgroup_op(op) => self.lower_subgroup(inst),
            op if super::pipe::is_pipe_op(op) => self.lower_pipe(inst),
            op if super::enqueue::is_enqueue_op(op) => self.lower_enqueue(inst),
            Op::SizeOf => {
                // SPIR-V 3.42.8 OpSizeOf: the size in bytes of the pointee type.
                let ptr_ty = self
                    .type_of(inst.id_op(0)?)
                    .ok_or_else(|| inst.malformed("operand of unknown type"))?;
                let pointee = self
                    .m
                    .info
                    .types
                    .pointee(ptr_ty)
                    .ok_or_else(|| inst.malformed("operand is not a pointer"))?;
                let size = self.m.info.types.size(pointee);
                let ty = self.m.value_type(inst.rty()?, inst)?;
                let v = self.int_const(ty, size);
                self.vals.insert(inst.res()?, v);
                Ok(())
            }
            Op::CopyLogical => {
                // SPIR-V 3.42.12: the types are logically matching; kir aggregates are bytes of
                // the same layout when the sizes agree (OpenCL modules carry no explicit offsets).
                let v = self.value(inst.id_op(0)?, inst)?;
                let ty = self.m.value_type(inst.rty()?, inst)?;
                if self.func.dfg.value_type(v) != ty {
                    return Err(
                        inst.unsupported("OpCopyLogical between types of different layouts")
                    );
                }
                self.vals.insert(inst.res()?, v);
                Ok(())
            }
            Op::PtrDiff => self.lower_ptr_diff(inst),
            Op::PtrEqual | Op::PtrNotEqual => {
                let a = self.value(inst.id_op(0)?, inst)?;
                let b = self.value(inst.id_op(1)?, inst)?;
                let pty = self.ptr_int();
                let ai = self.ptr_to_int(a, pty);
                let bi = self.ptr_to_int(b, pty);
                let cop = if op == Op::PtrEqual {
                    CmpOp::IEq
                } else {
                    CmpOp::INe
                };
                self.define(
                    inst,
                    InstData::Cmp {
                        op: cop,
                        a: ai,
                        b: bi,
                    },
                )
            }
            _ => Err(inst.unsupported("this instruction")),
        }
    }

    /// `OpPtrDiff` (SPIR-V 3.42.8): `(a - b) / sizeof(pointee)`, an exact signed division of
    /// the byte distance.
    fn lower_ptr_diff(&mut self, inst: &Instruction) -> Result<(), LowerError> {
        let a_id = inst.id_op(0)?;
        let a = self.value(a_id, inst)?;
        let b = self.value(inst.id_op(1)?, inst)?;
        let pointee = self
            .type_of(a_id)
            .and_then(|t| self.m.info.types.pointee(t))
            .ok_or_else(|| inst.malformed("operand is not a pointer"))?;
        let size = self.m.info.types.size(pointee).max(1);
        let pty = self.ptr_int();
        let ai = self.ptr_to_int(a, pty);
        let bi = self.ptr_to_int(b, pty);
        let bytes = self.emit(
            InstData::Binary {
                op: BinaryOp::ISub,
                a: ai,
                b: bi,
            },
            pty,
        );
        let size = self.int_const(pty, size);
        let diff = self.emit(
            InstData::Binary {
                op: BinaryOp::SDiv,
                a: bytes,
                b: size,
            },
            pty,
        );
        let ty = self.m.value_type(inst.rty()?, inst)?;
        let v = if ty == pty {
            diff
        } else {
            self.emit(
                InstData::Convert {
                    op: ConvertOp::SConvert,
                    arg: diff,
                    rounding: None,
                    saturate: false,
                },
                ty,
            )
        };
        self.vals.insert(inst.res()?, v);
        Ok(())
    }

    /// Emits `data` as the definition of the instruction's result.
    fn define(&mut self, inst: &Instruction, data: InstData) -> Result<(), LowerError> {
        let ty = self.m.value_type(inst.rty()?, inst)?;
        let v = self.emit(data, ty);
        self.vals.insert(inst.res()?, v);
        Ok(())
    }

    fn ptr_to_int(&mut self, p: Value, ty: Type) -> Value {
        self.emit(
            InstData::Convert {
                op: ConvertOp::PtrToInt,
                arg: p,
                rounding: None,
                saturate: false,
            },
            ty,
        )
    }

    /// FPRoundingMode and SaturatedConversion decorations of a result.
    fn conversion_decorations(&self, id: SpvId) -> (Option<Rounding>, bool) {
        let rounding = self
            .m
            .info
            .decoration_literal(id, Decoration::FPRoundingMode)
            .and_then(|mode| match mode {
                0 => Some(Rounding::Rte),
                1 => Some(Rounding::Rtz),
                2 => Some(Rounding::Rtp),
                3 => Some(Rounding::Rtn),
                _ => None,
            });
        let saturate = self
            .m
            .info
            .has_decoration(id, Decoration::SaturatedConversion);
        (rounding, saturate)
    }

    fn lower_convert(&mut self, inst: &Instruction, op: ConvertOp) -> Result<(), LowerError> {
        let arg = self.value(inst.id_op(0)?, inst)?;
        let (rounding, saturate) = self.conversion_decorations(inst.res()?);
        self.define(
            inst,
            InstData::Convert {
                op,
                arg,
                rounding,
                saturate,
            },
        )
    }

    /// `OpBitcast`: pointer-to-pointer casts are the same address (untyped pointers).
    fn lower_bitcast(&mut self, inst: &Instruction) -> Result<(), LowerError> {
        let arg = self.value(inst.id_op(0)?, inst)?;
        let from = self.func.dfg.value_type(arg);
        let to = self.m.value_type(inst.rty()?, inst)?;
        let op = match (from.is_ptr(), to.is_ptr()) {
            (true, true) if from == to => {
                self.vals.insert(inst.res()?, arg);
                return Ok(());
            }
            (true, true) => ConvertOp::PtrCast,
            (true, false) => ConvertOp::PtrToInt,
            (false, true) => ConvertOp::IntToPtr,
            (false, false) => ConvertOp::Bitcast,
        };
        self.define(
            inst,
            InstData::Convert {
                op,
                arg,
                rounding: None,
                saturate: false,
            },
        )
    }

    /// `OpSatConvertSToU` (signed → unsigned, clamped) and `OpSatConvertUToS` (unsigned →
    /// signed, clamped), composed from compares, selects and plain conversions.
    fn lower_sat_convert(&mut self, inst: &Instruction) -> Result<(), LowerError> {
        let x = self.value(inst.id_op(0)?, inst)?;
        let src = self.func.dfg.value_type(x);
        let dst = self.m.value_type(inst.rty()?, inst)?;
        let src_bits = src.lane_type().map_or(0, |l| l.bits());
        let dst_bits = dst.lane_type().map_or(0, |l| l.bits());
        if src_bits == 0 || dst_bits == 0 {
            return Err(inst.malformed("saturating conversion between non-integer types"));
        }
        let bool_ty = src.with_lane(ScalarType::Bool);
        let v = if inst.op == Op::SatConvertSToU {
            // Negative values become 0, then an unsigned saturating conversion clamps the rest.
            let zero = self.zero(src);
            let neg = self.emit(
                InstData::Cmp {
                    op: CmpOp::SLt,
                    a: x,
                    b: zero,
                },
                bool_ty,
            );
            let clamped = self.emit(
                InstData::Select {
                    cond: neg,
                    a: zero,
                    b: x,
                },
                src,
            );
            if src_bits == dst_bits {
                clamped
            } else {
                self.emit(
                    InstData::Convert {
                        op: ConvertOp::UConvert,
                        arg: clamped,
                        rounding: None,
                        saturate: true,
                    },
                    dst,
                )
            }
        } else {
            // Values above the signed maximum of the target become that maximum.
            if src_bits < dst_bits {
                self.emit(
                    InstData::Convert {
                        op: ConvertOp::UConvert,
                        arg: x,
                        rounding: None,
                        saturate: false,
                    },
                    dst,
                )
            } else {
                let max = (1u64 << (dst_bits - 1)) - 1;
                let max_src = self.int_const(src, max);
                let over = self.emit(
                    InstData::Cmp {
                        op: CmpOp::UGt,
                        a: x,
                        b: max_src,
                    },
                    bool_ty,
                );
                let clamped = self.emit(
                    InstData::Select {
                        cond: over,
                        a: max_src,
                        b: x,
                    },
                    src,
                );
                if src_bits == dst_bits {
                    clamped
                } else {
                    self.emit(
                        InstData::Convert {
                            op: ConvertOp::UConvert,
                            arg: clamped,
                            rounding: None,
                            saturate: false,
                        },
                        dst,
                    )
                }
            }
        };
        self.vals.insert(inst.res()?, v);
        Ok(())
    }

    /// `OpDot`: lane products summed in lane order.
    fn lower_dot(&mut self, inst: &Instruction) -> Result<(), LowerError> {
        let a = self.value(inst.id_op(0)?, inst)?;
        let b = self.value(inst.id_op(1)?, inst)?;
        let vty = self.func.dfg.value_type(a);
        let sty = self.m.value_type(inst.rty()?, inst)?;
        let prod = self.emit(
            InstData::Binary {
                op: BinaryOp::FMul,
                a,
                b,
            },
            vty,
        );
        let mut sum = self.emit(InstData::ExtractLane { vec: prod, lane: 0 }, sty);
        for lane in 1..vty.lanes() {
            let x = self.emit(
                InstData::ExtractLane {
                    vec: prod,
                    lane: lane as u8,
                },
                sty,
            );
            sum = self.emit(
                InstData::Binary {
                    op: BinaryOp::FAdd,
                    a: sum,
                    b: x,
                },
                sty,
            );
        }
        self.vals.insert(inst.res()?, sum);
        Ok(())
    }

    /// The byte offset and type reached by literal indices into a composite type.
    fn composite_path(
        &self,
        mut ty: SpvId,
        indices: &[u32],
        inst: &Instruction,
    ) -> Result<(u64, SpvId), LowerError> {
        let mut offset = 0;
        for &i in indices {
            let (off, next) = self
                .m
                .info
                .types
                .component(ty, u64::from(i))
                .ok_or_else(|| inst.malformed("composite index out of range"))?;
            offset += off;
            ty = next;
        }
        Ok((offset, ty))
    }

    fn is_vector_type(&self, ty: SpvId) -> bool {
        matches!(
            self.m.info.types.get(ty).map(|t| &t.kind),
            Some(TypeKind::Vector { .. })
        )
    }

    fn lower_composite_extract(&mut self, inst: &Instruction) -> Result<(), LowerError> {
        let comp_id = inst.id_op(0)?;
        let comp = self.value(comp_id, inst)?;
        let comp_ty = self
            .type_of(comp_id)
            .ok_or_else(|| inst.malformed("composite of unknown type"))?;
        let indices = (1..inst.operands.len())
            .map(|k| inst.lit(k))
            .collect::<Result<Vec<u32>, _>>()?;
        if self.is_vector_type(comp_ty) && indices.len() == 1 {
            if let Some(lane) = self
                .builtin_vectors
                .get(&comp)
                .and_then(|lanes| lanes.get(indices[0] as usize))
            {
                let lane = *lane;
                self.vals.insert(inst.res()?, lane);
                return Ok(());
            }
            return self.define(
                inst,
                InstData::ExtractLane {
                    vec: comp,
                    lane: indices[0] as u8,
                },
            );
        }
        let (offset, _) = self.composite_path(comp_ty, &indices, inst)?;
        self.define(
            inst,
            InstData::ExtractBytes {
                agg: comp,
                offset: offset as u32,
            },
        )
    }

    fn lower_composite_insert(&mut self, inst: &Instruction) -> Result<(), LowerError> {
        let value = self.value(inst.id_op(0)?, inst)?;
        let comp_id = inst.id_op(1)?;
        let comp = self.value(comp_id, inst)?;
        let comp_ty = inst.rty()?;
        let indices = (2..inst.operands.len())
            .map(|k| inst.lit(k))
            .collect::<Result<Vec<u32>, _>>()?;
        if self.is_vector_type(comp_ty) && indices.len() == 1 {
            return self.define(
                inst,
                InstData::InsertLane {
                    vec: comp,
                    lane: indices[0] as u8,
                    value,
                },
            );
        }
        let (offset, _) = self.composite_path(comp_ty, &indices, inst)?;
        self.define(
            inst,
            InstData::InsertBytes {
                agg: comp,
                offset: offset as u32,
                value,
            },
        )
    }

    fn lower_composite_construct(&mut self, inst: &Instruction) -> Result<(), LowerError> {
        let rty = inst.rty()?;
        let ty = self.m.value_type(rty, inst)?;
        let mut acc = self.zero(ty);
        if let Type::Vec(_, _) = ty {
            let mut lane = 0u8;
            for k in 0..inst.operands.len() {
                let part = self.value(inst.id_op(k)?, inst)?;
                let pty = self.func.dfg.value_type(part);
                if let Type::Vec(_, n) = pty {
                    for l in 0..n {
                        let x = self.emit(
                            InstData::ExtractLane { vec: part, lane: l },
                            Type::scalar(pty.lane_type().unwrap_or(ScalarType::I32)),
                        );
                        acc = self.emit(
                            InstData::InsertLane {
                                vec: acc,
                                lane,
                                value: x,
                            },
                            ty,
                        );
                        lane += 1;
                    }
                } else {
                    acc = self.emit(
                        InstData::InsertLane {
                            vec: acc,
                            lane,
                            value: part,
                        },
                        ty,
                    );
                    lane += 1;
                }
            }
        } else {
            for k in 0..inst.operands.len() {
                let part = self.value(inst.id_op(k)?, inst)?;
                let (offset, _) = self
                    .m
                    .info
                    .types
                    .component(rty, k as u64)
                    .ok_or_else(|| inst.malformed("too many constituents"))?;
                acc = self.emit(
                    InstData::InsertBytes {
                        agg: acc,
                        offset: offset as u32,
                        value: part,
                    },
                    ty,
                );
            }
        }
        self.vals.insert(inst.res()?, acc);
        Ok(())
    }

    /// `OpIAddCarry`, `OpISubBorrow`, `OpUMulExtended`, `OpSMulExtended`: a struct of two
    /// members of the operand type (low result, then carry/borrow or high half).
    fn lower_extended_arith(&mut self, inst: &Instruction) -> Result<(), LowerError> {
        let a = self.value(inst.id_op(0)?, inst)?;
        let b = self.value(inst.id_op(1)?, inst)?;
        let rty = inst.rty()?;
        let struct_ty = self.m.value_type(rty, inst)?;
        let ty = self.func.dfg.value_type(a);
        let bool_ty = ty.with_lane(ScalarType::Bool);
        let (first, second) = match inst.op {
            Op::IAddCarry | Op::ISubBorrow => {
                let (op, cmp_a, cmp_b) = if inst.op == Op::IAddCarry {
                    (BinaryOp::IAdd, None, b)
                } else {
                    (BinaryOp::ISub, Some(a), b)
                };
                let low = self.emit(InstData::Binary { op, a, b }, ty);
                // Carry: the sum wrapped below an operand; borrow: a < b (unsigned).
                let flag = match cmp_a {
                    None => self.emit(
                        InstData::Cmp {
                            op: CmpOp::ULt,
                            a: low,
                            b: cmp_b,
                        },
                        bool_ty,
                    ),
                    Some(x) => self.emit(
                        InstData::Cmp {
                            op: CmpOp::ULt,
                            a: x,
                            b: cmp_b,
                        },
                        bool_ty,
                    ),
                };
                let one = self.int_const(ty, 1);
                let zero = self.zero(ty);
                let bit = self.emit(
                    InstData::Select {
                        cond: flag,
                        a: one,
                        b: zero,
                    },
                    ty,
                );
                (low, bit)
            }
            _ => {
                let low = self.emit(
                    InstData::Binary {
                        op: BinaryOp::IMul,
                        a,
                        b,
                    },
                    ty,
                );
                let func = if inst.op == Op::UMulExtended {
                    crate::BuiltinFn::UMulHi
                } else {
                    crate::BuiltinFn::SMulHi
                };
                let high = self.emit(
                    InstData::Builtin {
                        func,
                        args: vec![a, b],
                    },
                    ty,
                );
                (low, high)
            }
        };
        let (second_offset, _) = self
            .m
            .info
            .types
            .component(rty, 1)
            .ok_or_else(|| inst.malformed("result is not a two-member struct"))?;
        let zero = self.zero(struct_ty);
        let acc = self.emit(
            InstData::InsertBytes {
                agg: zero,
                offset: 0,
                value: first,
            },
            struct_ty,
        );
        let acc = self.emit(
            InstData::InsertBytes {
                agg: acc,
                offset: second_offset as u32,
                value: second,
            },
            struct_ty,
        );
        self.vals.insert(inst.res()?, acc);
        Ok(())
    }

    /// `OpGenericPtrMemSemantics` (OpenCL C `get_fence`): WorkgroupMemory (0x100) for a pointer
    /// into local memory, CrossWorkgroupMemory (0x200) for global memory, else 0.
    fn lower_generic_ptr_mem_semantics(&mut self, inst: &Instruction) -> Result<(), LowerError> {
        let p = self.value(inst.id_op(0)?, inst)?;
        let ty = self.m.value_type(inst.rty()?, inst)?;
        let pty = self.ptr_int();
        let zero_int = self.zero(pty);
        let mut result = self.zero(ty);
        for (space, bits) in [
            (crate::AddrSpace::Local, 0x100u64),
            (crate::AddrSpace::Global, 0x200u64),
        ] {
            let cast = self.emit(
                InstData::Convert {
                    op: ConvertOp::PtrCastChecked,
                    arg: p,
                    rounding: None,
                    saturate: false,
                },
                Type::Ptr(space),
            );
            let addr = self.ptr_to_int(cast, pty);
            let inside = self.emit(
                InstData::Cmp {
                    op: CmpOp::INe,
                    a: addr,
                    b: zero_int,
                },
                Type::Bool,
            );
            let mask = self.int_const(ty, bits);
            result = self.emit(
                InstData::Select {
                    cond: inside,
                    a: mask,
                    b: result,
                },
                ty,
            );
        }
        self.vals.insert(inst.res()?, result);
        Ok(())
    }

    fn lower_call(&mut self, inst: &Instruction) -> Result<(), LowerError> {
        let callee = inst.id_op(0)?;
        let Some(&func) = self.m.func_refs.get(&callee) else {
            let name = self.m.function_name(callee);
            return Err(inst.unsupported(&format!(
                "calls to functions without a body (`{name}`; linking)"
            )));
        };
        let kernel = self.m.kernel_params.get(&callee);
        let mut args = Vec::new();
        for k in 1..inst.operands.len() {
            let mut v = self.value(inst.id_op(k)?, inst)?;
            // A kernel called as a function takes its by-value structs as values.
            if let Some(p) = kernel.and_then(|ps| ps.get(k - 1)) {
                if p.by_val {
                    v = self.emit(
                        InstData::Load {
                            ptr: v,
                            align: p.ty.align(self.m.address_bits),
                        },
                        p.ty,
                    );
                }
            }
            args.push(v);
        }
        let rty = inst.rty()?;
        let data = InstData::Call { func, args };
        match self.m.info.types.get(rty).map(|t| &t.kind) {
            Some(TypeKind::Void) => {
                self.emit_void(data);
                Ok(())
            }
            _ => self.define(inst, data),
        }
    }
}
