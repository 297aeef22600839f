//! Pipe storage instructions (SPIR-V 1.1, capability *PipeStorage*; SPIR-V 3.42.23):
//! `OpConstantPipeStorage` has Result Type `OpTypePipeStorage` and packet size and alignment
//! with 1 ≤ Packet Alignment ≤ Packet Size and Packet Alignment dividing Packet Size (the
//! conditions SPIR-V 3.42.23 states for the packet size and alignment of pipe instructions);
//! `OpCreatePipeFromPipeStorage` has Result Type `OpTypePipe` and a Pipe Storage operand of type
//! `OpTypePipeStorage`.
//!
//! spirv-val 2023.1 checks none of these for the OpenCL environments (later versions check the
//! two Result Types), so its verdict differs on modules breaking the other rules. Where the
//! instructions may appear is the layout's business: neither is a Constant-Creation
//! instruction, so both belong in a function's blocks (spirv-val: "ConstantPipeStorage must
//! appear in a block").

use super::context::Ctx;
use crate::Op;

const CONSTANT: &str =
    "SPIR-V 3.42.23 OpConstantPipeStorage (Result Type must be OpTypePipeStorage)";
const PACKET: &str = "SPIR-V 3.42.23 OpConstantPipeStorage (1 <= Packet Alignment <= Packet Size, \
     Packet Alignment evenly divides Packet Size)";
const CREATE_RESULT: &str =
    "SPIR-V 3.42.23 OpCreatePipeFromPipeStorage (Result Type must be OpTypePipe)";
const CREATE_STORAGE: &str = "SPIR-V 3.42.23 OpCreatePipeFromPipeStorage (Pipe Storage must be a \
     pipe-storage object created from OpConstantPipeStorage)";

pub(crate) fn check(ctx: &mut Ctx<'_>) {
    for i in 0..ctx.module.instructions.len() {
        match ctx.inst(i).op {
            Op::ConstantPipeStorage => constant(ctx, i),
            Op::CreatePipeFromPipeStorage => create(ctx, i),
            _ => {}
        }
    }
}

fn constant(ctx: &mut Ctx<'_>, i: usize) {
    let inst = ctx.inst(i);
    let result_type = inst.result_type.and_then(|t| ctx.def_op(t));
    if result_type != Some(Op::TypePipeStorage) {
        ctx.error(i, CONSTANT, "the Result Type is not OpTypePipeStorage");
    }
    let (Some(size), Some(align)) = (inst.int(0), inst.int(1)) else {
        return; // the operand rules report missing literals
    };
    if align == 0 || align > size {
        ctx.error(
            i,
            PACKET,
            format!("Packet Alignment {align} is not between 1 and Packet Size {size}"),
        );
    } else if size % align != 0 {
        ctx.error(
            i,
            PACKET,
            format!("Packet Alignment {align} does not divide Packet Size {size}"),
        );
    }
}

fn create(ctx: &mut Ctx<'_>, i: usize) {
    let inst = ctx.inst(i);
    let result_type = inst.result_type.and_then(|t| ctx.def_op(t));
    if result_type != Some(Op::TypePipe) {
        ctx.error(i, CREATE_RESULT, "the Result Type is not OpTypePipe");
    }
    let storage_type = inst
        .id(0)
        .and_then(|v| ctx.type_of(v))
        .and_then(|t| ctx.def_op(t));
    if storage_type != Some(Op::TypePipeStorage) {
        ctx.error(
            i,
            CREATE_STORAGE,
            "the Pipe Storage operand is not of type OpTypePipeStorage",
        );
    }
}
