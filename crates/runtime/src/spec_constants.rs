//! Specialization constants of an IL program (API 5.8.6 `clSetProgramSpecializationConstant`,
//! SPIR-V 2.12): which `SpecId`s a module declares and the size of each constant's type.

use std::collections::HashMap;

use spv::{Decoration, Op, Operand};

/// The type of a specialization constant.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SpecConstantType {
    /// Bytes of the value `clSetProgramSpecializationConstant` takes.
    pub size: usize,
    pub boolean: bool,
}

/// The `SpecId` of every scalar specialization constant of `module` and its type
/// (API 5.8.6: "This should be 1 for boolean constants. For all other constant types this
/// should match the size of the specialization constant in the module.").
pub(crate) fn types(module: &spv::Module) -> HashMap<u32, SpecConstantType> {
    let mut spec_ids = HashMap::new();
    let mut scalar_types = HashMap::new();
    let mut constants = HashMap::new();
    for inst in &module.instructions {
        match inst.op {
            Op::Decorate => {
                if let [Operand::Id(target), Operand::Int(kind), Operand::Int(spec_id), ..] =
                    inst.operands[..]
                {
                    if kind == Decoration::SpecId as u32 {
                        spec_ids.insert(target, spec_id);
                    }
                }
            }
            Op::TypeBool => {
                if let Some(id) = inst.result {
                    scalar_types.insert(
                        id,
                        SpecConstantType {
                            size: 1,
                            boolean: true,
                        },
                    );
                }
            }
            Op::TypeInt | Op::TypeFloat => {
                if let (Some(id), Some(Operand::Int(width))) = (inst.result, inst.operands.first())
                {
                    let size = (*width as usize).div_ceil(8);
                    scalar_types.insert(
                        id,
                        SpecConstantType {
                            size,
                            boolean: false,
                        },
                    );
                }
            }
            Op::SpecConstant | Op::SpecConstantTrue | Op::SpecConstantFalse => {
                let (Some(id), Some(ty)) = (inst.result, inst.result_type) else {
                    continue;
                };
                if let (Some(&spec_id), Some(&size)) = (spec_ids.get(&id), scalar_types.get(&ty)) {
                    constants.insert(spec_id, size);
                }
            }
            _ => {}
        }
    }
    constants
}

/// The value `clSetProgramSpecializationConstant` gives, as the bits the lowering takes
/// (`kir::lower::LowerOptions::spec_constants`): little-endian, zero-extended; a boolean is 1
/// for any non-zero byte (API 5.8.6: "A value of zero will set the specialization constant to
/// false; any other value will set it to true").
pub(crate) fn bits(ty: SpecConstantType, value: &[u8]) -> u64 {
    if ty.boolean {
        return u64::from(value.iter().any(|&b| b != 0));
    }
    let mut word = [0u8; 8];
    let n = value.len().min(8);
    word[..n].copy_from_slice(&value[..n]);
    u64::from_le_bytes(word)
}
