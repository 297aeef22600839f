//! Sub-group instructions (cl_khr_subgroups and the cl_khr_subgroup_* extensions):
//! `OpGroupNonUniform*` (SPIR-V 1.3, 3.42.24), and the sub-group dispatch queries
//! `OpGetKernelLocalSizeForSubgroupCount` / `OpGetKernelMaxNumSubgroups`.
//!
//! **The sub-group size of oxcl is 1.** Every work-item is its own sub-group: `get_sub_group_size`
//! and `get_max_sub_group_size` return 1, `get_sub_group_id` is the local linear id,
//! `get_sub_group_local_id` is 0 and `get_num_sub_groups` is the work-group's work-item count
//! (see `exec::interp::item`). The sub-group size is implementation-defined (OpenCL C 6.15.19,
//! cl_khr_subgroups), so this is a conforming choice, and it makes every sub-group instruction a
//! function of the work-item's own operands:
//! - votes (`All`, `Any`) give the predicate, `AllEqual` and `Elect` give true;
//! - broadcasts and shuffles give the value (the only valid source id is 0; `ShuffleXor`,
//!   `ShuffleUp`/`Down` by 0 is the only in-range delta, other ids are undefined results);
//! - `Ballot` gives `(uint4)(pred, 0, 0, 0)`; `InverseBallot`/`BallotBitExtract` read the bit;
//!   `BallotBitCount` counts bit 0 (Reduce/InclusiveScan) or gives 0 (ExclusiveScan);
//!   `BallotFindLSB`/`MSB` give 0 (the only bit a sub-group of one can set);
//! - arithmetic in Reduce, InclusiveScan and ClusteredReduce gives the value, in ExclusiveScan
//!   the operation's identity (SPIR-V 3.42.24: 0 for add/or/xor, 1 for mul, all ones for and,
//!   the type's maximum for min, its minimum for max, ±inf for float min/max).
//!
//! The execution scope must be `Subgroup` (OpenCL: `Workgroup` non-uniform instructions are not
//! supported by any OpenCL extension).

use spv::{Instruction, Op};

use super::function::FnLower;
use super::{InstExt, LowerError};
use crate::{BinaryOp, CmpOp, ConvertOp, InstData, ScalarType, Type, Value};

/// SPIR-V GroupOperation values.
const REDUCE: u32 = 0;
const INCLUSIVE_SCAN: u32 = 1;
const EXCLUSIVE_SCAN: u32 = 2;
const CLUSTERED_REDUCE: u32 = 3;

/// Whether `op` is one of the instructions this module lowers.
pub(crate) fn is_subgroup_op(op: Op) -> bool {
    matches!(
        op,
        Op::GroupNonUniformElect
            | Op::GroupNonUniformAll
            | Op::GroupNonUniformAny
            | Op::GroupNonUniformAllEqual
            | Op::GroupNonUniformBroadcast
            | Op::GroupNonUniformBroadcastFirst
            | Op::GroupNonUniformBallot
            | Op::GroupNonUniformInverseBallot
            | Op::GroupNonUniformBallotBitExtract
            | Op::GroupNonUniformBallotBitCount
            | Op::GroupNonUniformBallotFindLSB
            | Op::GroupNonUniformBallotFindMSB
            | Op::GroupNonUniformShuffle
            | Op::GroupNonUniformShuffleXor
            | Op::GroupNonUniformShuffleUp
            | Op::GroupNonUniformShuffleDown
            | Op::GroupNonUniformIAdd
            | Op::GroupNonUniformFAdd
            | Op::GroupNonUniformIMul
            | Op::GroupNonUniformFMul
            | Op::GroupNonUniformSMin
            | Op::GroupNonUniformUMin
            | Op::GroupNonUniformFMin
            | Op::GroupNonUniformSMax
            | Op::GroupNonUniformUMax
            | Op::GroupNonUniformFMax
            | Op::GroupNonUniformBitwiseAnd
            | Op::GroupNonUniformBitwiseOr
            | Op::GroupNonUniformBitwiseXor
            | Op::GroupNonUniformLogicalAnd
            | Op::GroupNonUniformLogicalOr
            | Op::GroupNonUniformLogicalXor
            | Op::GetKernelLocalSizeForSubgroupCount
            | Op::GetKernelMaxNumSubgroups
    )
}

/// The identity of a non-uniform arithmetic operation on lanes of `lane`, as bits.
fn identity(op: Op, lane: ScalarType) -> u64 {
    let bits = lane.bits();
    let all = if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    let sign = 1u64 << (bits - 1);
    let (one, pos_inf, neg_inf) = match lane {
        ScalarType::F16 => (0x3c00, 0x7c00, 0xfc00),
        ScalarType::F32 => (0x3f80_0000, 0x7f80_0000, 0xff80_0000),
        ScalarType::F64 => (
            0x3ff0_0000_0000_0000,
            0x7ff0_0000_0000_0000,
            0xfff0_0000_0000_0000,
        ),
        _ => (1, 0, 0),
    };
    match op {
        Op::GroupNonUniformIMul | Op::GroupNonUniformFMul => one,
        Op::GroupNonUniformSMin => sign - 1,
        Op::GroupNonUniformUMin | Op::GroupNonUniformBitwiseAnd => all,
        Op::GroupNonUniformLogicalAnd => 1,
        Op::GroupNonUniformSMax => sign,
        Op::GroupNonUniformFMin => pos_inf,
        Op::GroupNonUniformFMax => neg_inf,
        // IAdd, FAdd, UMax, Or, Xor, LogicalOr, LogicalXor.
        _ => 0,
    }
}

impl FnLower<'_, '_> {
    /// Lowers one sub-group instruction (see the module documentation).
    pub(crate) fn lower_subgroup(&mut self, inst: &Instruction) -> Result<(), LowerError> {
        let ty = self.m.value_type(inst.rty()?, inst)?;
        let result = inst.res()?;
        if matches!(
            inst.op,
            Op::GetKernelLocalSizeForSubgroupCount | Op::GetKernelMaxNumSubgroups
        ) {
            return self.lower_subgroup_dispatch_query(inst, ty);
        }
        // Operand 0 is the execution scope.
        if self.const_operand(inst.id_op(0)?, inst)? != 3 {
            return Err(
                inst.unsupported("non-uniform group instructions at a scope other than Subgroup")
            );
        }
        let v = match inst.op {
            Op::GroupNonUniformElect | Op::GroupNonUniformAllEqual => self.int_const(ty, 1),
            Op::GroupNonUniformAll
            | Op::GroupNonUniformAny
            | Op::GroupNonUniformBroadcast
            | Op::GroupNonUniformBroadcastFirst
            | Op::GroupNonUniformShuffle
            | Op::GroupNonUniformShuffleXor
            | Op::GroupNonUniformShuffleUp
            | Op::GroupNonUniformShuffleDown => self.value(inst.id_op(1)?, inst)?,
            Op::GroupNonUniformBallot => {
                let pred = self.value(inst.id_op(1)?, inst)?;
                let mut lane0 = vec![0u8; ty.size(self.m.address_bits) as usize];
                if let Some(first) = lane0.first_mut() {
                    *first = 1;
                }
                let set = self.pro(InstData::Const { bytes: lane0 }, ty);
                let clear = self.zero(ty);
                self.emit(
                    InstData::Select {
                        cond: pred,
                        a: set,
                        b: clear,
                    },
                    ty,
                )
            }
            Op::GroupNonUniformInverseBallot => {
                let ballot = self.value(inst.id_op(1)?, inst)?;
                let zero = self.zero(Type::I32);
                self.ballot_bit(ballot, zero)
            }
            Op::GroupNonUniformBallotBitExtract => {
                let ballot = self.value(inst.id_op(1)?, inst)?;
                let index = self.value(inst.id_op(2)?, inst)?;
                self.ballot_bit(ballot, index)
            }
            Op::GroupNonUniformBallotBitCount => {
                let operation = inst.lit(1)?;
                let ballot = self.value(inst.id_op(2)?, inst)?;
                match operation {
                    REDUCE | INCLUSIVE_SCAN => {
                        let zero = self.zero(Type::I32);
                        let bit = self.ballot_bit(ballot, zero);
                        let one = self.int_const(ty, 1);
                        let none = self.zero(ty);
                        self.emit(
                            InstData::Select {
                                cond: bit,
                                a: one,
                                b: none,
                            },
                            ty,
                        )
                    }
                    EXCLUSIVE_SCAN => self.zero(ty),
                    _ => return Err(inst.unsupported("this GroupOperation")),
                }
            }
            Op::GroupNonUniformBallotFindLSB | Op::GroupNonUniformBallotFindMSB => self.zero(ty),
            op => {
                let operation = inst.lit(1)?;
                let x = self.value(inst.id_op(2)?, inst)?;
                match operation {
                    REDUCE | INCLUSIVE_SCAN | CLUSTERED_REDUCE => x,
                    EXCLUSIVE_SCAN => {
                        let lane = ty
                            .lane_type()
                            .ok_or_else(|| inst.malformed("group arithmetic on a non-scalar"))?;
                        self.int_const(ty, identity(op, lane))
                    }
                    _ => return Err(inst.unsupported("this GroupOperation")),
                }
            }
        };
        self.vals.insert(result, v);
        Ok(())
    }

    /// Bit `index` of a ballot (`uint4`, bit `i` in lane `i / 32`) as a bool.
    fn ballot_bit(&mut self, ballot: Value, index: Value) -> Value {
        let index_ty = self.func.dfg.value_type(index);
        let index = if index_ty == Type::I32 {
            index
        } else {
            self.emit(
                InstData::Convert {
                    op: ConvertOp::UConvert,
                    arg: index,
                    rounding: None,
                    saturate: false,
                },
                Type::I32,
            )
        };
        let five = self.int_const(Type::I32, 5);
        let low_mask = self.int_const(Type::I32, 31);
        let lane = self.emit(
            InstData::Binary {
                op: BinaryOp::LShr,
                a: index,
                b: five,
            },
            Type::I32,
        );
        let word = match self.func.dfg.value_type(ballot) {
            Type::Vec(..) => self.emit(
                InstData::ExtractLaneDyn {
                    vec: ballot,
                    index: lane,
                },
                Type::I32,
            ),
            _ => ballot,
        };
        let shift = self.emit(
            InstData::Binary {
                op: BinaryOp::And,
                a: index,
                b: low_mask,
            },
            Type::I32,
        );
        let shifted = self.emit(
            InstData::Binary {
                op: BinaryOp::LShr,
                a: word,
                b: shift,
            },
            Type::I32,
        );
        let one = self.int_const(Type::I32, 1);
        let bit = self.emit(
            InstData::Binary {
                op: BinaryOp::And,
                a: shifted,
                b: one,
            },
            Type::I32,
        );
        self.emit(
            InstData::Cmp {
                op: CmpOp::IEq,
                a: bit,
                b: one,
            },
            Type::Bool,
        )
    }

    /// `OpGetKernelLocalSizeForSubgroupCount SubgroupCount Invoke Param ParamSize ParamAlign`:
    /// with sub-groups of one work-item, a work-group of `SubgroupCount` work-items has that many
    /// sub-groups. `OpGetKernelMaxNumSubgroups Invoke …`: as many sub-groups as work-items in the
    /// largest work-group of the device (`CL_DEVICE_MAX_WORK_GROUP_SIZE` of oxcl's CPU device).
    fn lower_subgroup_dispatch_query(
        &mut self,
        inst: &Instruction,
        ty: Type,
    ) -> Result<(), LowerError> {
        let v = if inst.op == Op::GetKernelLocalSizeForSubgroupCount {
            let count = self.value(inst.id_op(0)?, inst)?;
            if self.func.dfg.value_type(count) == ty {
                count
            } else {
                self.emit(
                    InstData::Convert {
                        op: ConvertOp::UConvert,
                        arg: count,
                        rounding: None,
                        saturate: false,
                    },
                    ty,
                )
            }
        } else {
            self.int_const(ty, MAX_WORK_GROUP_SIZE)
        };
        self.vals.insert(inst.res()?, v);
        Ok(())
    }
}

/// The largest work-group of oxcl's CPU device (`CL_DEVICE_MAX_WORK_GROUP_SIZE`), which is also
/// the most sub-groups a work-group can have.
pub(crate) const MAX_WORK_GROUP_SIZE: u64 = 1024;
