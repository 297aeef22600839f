//! Pipe instructions (SPIR-V 3.42.23 "Pipe Instructions"; OpenCL C 2.0 §6.13.16).
//!
//! Every pipe operation on one work-item becomes one kir `pipe` instruction ([`crate::PipeOp`]);
//! the engines implement them on the pipe's memory. `OpIsValidReserveId` is `reserve_id != 0`
//! (engines encode a failed reservation as 0).
//!
//! Work-group reservations (`OpGroupReserveRead/WritePipePackets`, `work_group_reserve_*_pipe`)
//! are made once for the group by the work-item with local linear id 0 and handed to every
//! work-item through the work-group scratch cell, between barriers; `OpGroupCommitRead/WritePipe`
//! is a barrier (every work-item has done its reads or writes) after which work-item 0
//! commits. At sub-group scope (cl_khr_subgroups `sub_group_*`) the sub-group is the work-item
//! (kir's sub-groups have one work-item), so the plain operation is used.

use spv::{Instruction, Op};

use super::function::FnLower;
use super::{InstExt, LowerError};
use crate::{BlockCall, CmpOp, InstData, PipeOp, Type, Value};

impl FnLower<'_, '_> {
    /// Values of operands `first..first + n` of `inst`.
    fn pipe_operands(
        &mut self,
        inst: &Instruction,
        first: usize,
        n: usize,
    ) -> Result<Vec<Value>, LowerError> {
        (first..first + n)
            .map(|k| {
                let id = inst.id_op(k)?;
                self.value(id, inst)
            })
            .collect()
    }

    /// Lowers one pipe instruction.
    pub(crate) fn lower_pipe(&mut self, inst: &Instruction) -> Result<(), LowerError> {
        let op = match inst.op {
            Op::ReadPipe => Some(PipeOp::Read),
            Op::WritePipe => Some(PipeOp::Write),
            Op::ReservedReadPipe => Some(PipeOp::ReservedRead),
            Op::ReservedWritePipe => Some(PipeOp::ReservedWrite),
            Op::ReserveReadPipePackets => Some(PipeOp::ReserveRead),
            Op::ReserveWritePipePackets => Some(PipeOp::ReserveWrite),
            Op::CommitReadPipe => Some(PipeOp::CommitRead),
            Op::CommitWritePipe => Some(PipeOp::CommitWrite),
            Op::GetNumPipePackets => Some(PipeOp::NumPackets),
            Op::GetMaxPipePackets => Some(PipeOp::MaxPackets),
            _ => None,
        };
        if let Some(op) = op {
            let args = self.pipe_operands(inst, 0, op.arg_count())?;
            let data = InstData::Pipe { op, args };
            if op.has_result() {
                let ty = self.m.value_type(inst.rty()?, inst)?;
                let v = self.emit(data, ty);
                self.vals.insert(inst.res()?, v);
            } else {
                self.emit_void(data);
            }
            return Ok(());
        }
        match inst.op {
            Op::IsValidReserveId => {
                let rid = self.value(inst.id_op(0)?, inst)?;
                let zero = self.zero(self.func.dfg.value_type(rid));
                let v = self.emit(
                    InstData::Cmp {
                        op: CmpOp::INe,
                        a: rid,
                        b: zero,
                    },
                    Type::Bool,
                );
                self.vals.insert(inst.res()?, v);
                Ok(())
            }
            Op::GroupReserveReadPipePackets | Op::GroupReserveWritePipePackets => {
                self.lower_group_reserve(inst)
            }
            Op::GroupCommitReadPipe | Op::GroupCommitWritePipe => self.lower_group_commit(inst),
            Op::ConstantPipeStorage | Op::CreatePipeFromPipeStorage => {
                self.lower_pipe_storage(inst)
            }
            _ => Err(inst.unsupported("this pipe instruction")),
        }
    }

    /// `OpGroupReserve{Read,Write}PipePackets Execution Pipe NumPackets PacketSize
    /// PacketAlignment`.
    fn lower_group_reserve(&mut self, inst: &Instruction) -> Result<(), LowerError> {
        let op = if inst.op == Op::GroupReserveReadPipePackets {
            PipeOp::ReserveRead
        } else {
            PipeOp::ReserveWrite
        };
        let args = self.pipe_operands(inst, 1, 4)?;
        let ty = self.m.value_type(inst.rty()?, inst)?;
        if self.is_sub_group(inst)? {
            let v = self.emit(InstData::Pipe { op, args }, ty);
            self.vals.insert(inst.res()?, v);
            return Ok(());
        }
        let align = ty.size(self.m.address_bits);
        let scratch = self.scratch()?;
        let (lid, _) = self.group_ids();
        let zero = self.zero(self.ptr_int());
        let leader = self.new_block();
        let after = self.new_block();
        // The scratch cell may still be read by a previous collective.
        self.local_barrier();
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
            then_dest: BlockCall::new(leader, Vec::new()),
            else_dest: BlockCall::new(after, Vec::new()),
        });
        self.cur = leader;
        let rid = self.emit(InstData::Pipe { op, args }, ty);
        self.emit_void(InstData::Store {
            ptr: scratch,
            value: rid,
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

    /// `OpGroupCommit{Read,Write}Pipe Execution Pipe ReserveId PacketSize PacketAlignment`.
    fn lower_group_commit(&mut self, inst: &Instruction) -> Result<(), LowerError> {
        let op = if inst.op == Op::GroupCommitReadPipe {
            PipeOp::CommitRead
        } else {
            PipeOp::CommitWrite
        };
        let args = self.pipe_operands(inst, 1, 4)?;
        if self.is_sub_group(inst)? {
            self.emit_void(InstData::Pipe { op, args });
            return Ok(());
        }
        let (lid, _) = self.group_ids();
        let zero = self.zero(self.ptr_int());
        let leader = self.new_block();
        let after = self.new_block();
        // Every work-item has finished its reads or writes of the reservation.
        self.local_barrier();
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
            then_dest: BlockCall::new(leader, Vec::new()),
            else_dest: BlockCall::new(after, Vec::new()),
        });
        self.cur = leader;
        self.emit_void(InstData::Pipe { op, args });
        self.emit_void(InstData::Jump {
            dest: BlockCall::new(after, Vec::new()),
        });
        self.cur = after;
        Ok(())
    }
}

/// Whether `op` is a pipe instruction [`FnLower::lower_pipe`] handles.
pub(crate) fn is_pipe_op(op: Op) -> bool {
    matches!(
        op,
        Op::ReadPipe
            | Op::WritePipe
            | Op::ReservedReadPipe
            | Op::ReservedWritePipe
            | Op::ReserveReadPipePackets
            | Op::ReserveWritePipePackets
            | Op::CommitReadPipe
            | Op::CommitWritePipe
            | Op::IsValidReserveId
            | Op::GetNumPipePackets
            | Op::GetMaxPipePackets
            | Op::GroupReserveReadPipePackets
            | Op::GroupReserveWritePipePackets
            | Op::GroupCommitReadPipe
            | Op::GroupCommitWritePipe
            | Op::ConstantPipeStorage
            | Op::CreatePipeFromPipeStorage
    )
}
