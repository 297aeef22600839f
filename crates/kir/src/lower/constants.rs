//! Constants: `OpConstant*`, `OpSpecConstant*` (default or specialized values), `OpUndef` and the
//! integer subset of `OpSpecConstantOp`, evaluated to scalar bits or to bytes in memory layout.

use spv::{Instruction, Op, Operand};

use super::layout::{SpvId, TypeKind};
use super::module_info::ModuleInfo;
use super::{inst_text, InstExt, LowerError};

/// A module-scope constant.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Const {
    /// A scalar: integer/float bits (zero-extended), or 0/1 for bools.
    Scalar {
        ty: SpvId,
        bits: u64,
    },
    Composite {
        ty: SpvId,
        parts: Vec<SpvId>,
    },
    Null {
        ty: SpvId,
    },
    Undef {
        ty: SpvId,
    },
    /// `OpSpecConstantOp`: the opcode and its operands (ids or literals).
    SpecOp {
        ty: SpvId,
        opcode: u32,
        operands: Vec<Operand>,
        offset: u32,
        text: String,
    },
}

impl Const {
    /// The constant an instruction declares, if it is a constant declaration.
    pub fn from_inst(inst: &Instruction) -> Result<Option<Const>, LowerError> {
        let ty = match inst.result_type {
            Some(t) => t.0,
            None => return Ok(None),
        };
        Ok(Some(match inst.op {
            Op::ConstantTrue | Op::SpecConstantTrue => Const::Scalar { ty, bits: 1 },
            Op::ConstantFalse | Op::SpecConstantFalse => Const::Scalar { ty, bits: 0 },
            Op::Constant | Op::SpecConstant => {
                let mut bits = 0u64;
                let mut shift = 0;
                for op in &inst.operands {
                    match op {
                        Operand::Int(w) => {
                            if shift < 64 {
                                bits |= u64::from(*w) << shift;
                            }
                            shift += 32;
                        }
                        Operand::Wide(w) => {
                            bits = *w;
                            shift = 64;
                        }
                        _ => {}
                    }
                }
                Const::Scalar { ty, bits }
            }
            Op::ConstantComposite | Op::SpecConstantComposite => Const::Composite {
                ty,
                parts: (0..inst.operands.len())
                    .map(|k| inst.id_op(k))
                    .collect::<Result<_, _>>()?,
            },
            Op::ConstantNull => Const::Null { ty },
            // A literal sampler is its 32-bit encoding, as a `sampler_t` kernel argument is
            // (kir `ArgKind::Sampler`): the OpenCL C bit-field values of clang's opencl-c.h,
            // CLK_NORMALIZED_COORDS_TRUE 1, CLK_ADDRESS_* (mode << 1), CLK_FILTER_NEAREST 0x10,
            // CLK_FILTER_LINEAR 0x20.
            Op::ConstantSampler => {
                let addressing = u64::from(inst.lit(0)?);
                let normalized = u64::from(inst.lit(1)?);
                let filter = if inst.lit(2)? == 0 { 0x10 } else { 0x20 };
                Const::Scalar {
                    ty,
                    bits: normalized | (addressing << 1) | filter,
                }
            }
            Op::Undef => Const::Undef { ty },
            Op::SpecConstantOp => Const::SpecOp {
                ty,
                opcode: inst.lit(0)?,
                operands: inst.operands.get(1..).unwrap_or(&[]).to_vec(),
                offset: inst.offset,
                text: inst_text(inst),
            },
            _ => return Ok(None),
        }))
    }

    pub fn ty(&self) -> SpvId {
        match self {
            Const::Scalar { ty, .. }
            | Const::Composite { ty, .. }
            | Const::Null { ty }
            | Const::Undef { ty }
            | Const::SpecOp { ty, .. } => *ty,
        }
    }

    /// The bits of a scalar constant (null and undef are 0), if it is one and can be evaluated.
    pub fn scalar_bits(&self, info: &ModuleInfo) -> Option<u64> {
        eval_scalar(self, info, 0).ok()
    }
}

/// The scalar bits of constant `id`.
pub(crate) fn scalar_value(info: &ModuleInfo, id: SpvId) -> Result<u64, LowerError> {
    let c = info
        .constants
        .get(&id)
        .ok_or_else(|| LowerError::Internal(format!("%{id} is not a constant")))?;
    eval_scalar(c, info, 0)
}

fn mask(bits: u64, width: u32) -> u64 {
    if width >= 64 {
        bits
    } else {
        bits & ((1u64 << width) - 1)
    }
}

fn sext(bits: u64, width: u32) -> i64 {
    if width >= 64 || width == 0 {
        bits as i64
    } else {
        let s = 64 - width;
        ((bits << s) as i64) >> s
    }
}

fn int_width(info: &ModuleInfo, ty: SpvId) -> u32 {
    match info.types.get(ty).map(|t| &t.kind) {
        Some(TypeKind::Int { width, .. }) => *width,
        Some(TypeKind::Bool) => 1,
        Some(TypeKind::Float { width }) => *width,
        _ => 64,
    }
}

fn eval_scalar(c: &Const, info: &ModuleInfo, depth: u32) -> Result<u64, LowerError> {
    if depth > 64 {
        return Err(LowerError::Internal("constant expression too deep".into()));
    }
    match c {
        Const::Scalar { bits, .. } => Ok(*bits),
        Const::Null { .. } | Const::Undef { .. } => Ok(0),
        Const::Composite { .. } => Err(LowerError::Internal("composite used as scalar".into())),
        Const::SpecOp {
            ty,
            opcode,
            operands,
            offset,
            text,
        } => {
            let unsupported = || LowerError::Unsupported {
                offset: *offset,
                instruction: text.clone(),
                reason: "this OpSpecConstantOp operation".into(),
            };
            let arg = |k: usize| -> Result<(u64, u32), LowerError> {
                match operands.get(k) {
                    Some(Operand::Id(id)) => {
                        let c = info.constants.get(&id.0).ok_or_else(unsupported)?;
                        Ok((eval_scalar(c, info, depth + 1)?, int_width(info, c.ty())))
                    }
                    _ => Err(unsupported()),
                }
            };
            let w = int_width(info, *ty);
            let op = Op::from_u16(u16::try_from(*opcode).map_err(|_| unsupported())?)
                .ok_or_else(unsupported)?;
            let bin = |f: &dyn Fn(u64, u64, u32) -> Option<u64>| -> Result<u64, LowerError> {
                let (a, aw) = arg(0)?;
                let (b, _) = arg(1)?;
                f(a, b, aw).map(|r| mask(r, w)).ok_or_else(unsupported)
            };
            match op {
                Op::SConvert => {
                    let (a, aw) = arg(0)?;
                    Ok(mask(sext(a, aw) as u64, w))
                }
                Op::UConvert => Ok(mask(arg(0)?.0, w)),
                Op::SNegate => Ok(mask(arg(0)?.0.wrapping_neg(), w)),
                Op::Not => Ok(mask(!arg(0)?.0, w)),
                Op::LogicalNot => Ok(u64::from(arg(0)?.0 == 0)),
                Op::IAdd => bin(&|a, b, _| Some(a.wrapping_add(b))),
                Op::ISub => bin(&|a, b, _| Some(a.wrapping_sub(b))),
                Op::IMul => bin(&|a, b, _| Some(a.wrapping_mul(b))),
                Op::UDiv => bin(&|a, b, _| a.checked_div(b)),
                Op::SDiv => bin(&|a, b, w| sext(a, w).checked_div(sext(b, w)).map(|r| r as u64)),
                Op::UMod => bin(&|a, b, _| a.checked_rem(b)),
                Op::SRem => bin(&|a, b, w| sext(a, w).checked_rem(sext(b, w)).map(|r| r as u64)),
                Op::ShiftLeftLogical => bin(&|a, b, _| Some(a.wrapping_shl(b as u32))),
                Op::ShiftRightLogical => bin(&|a, b, _| Some(a.wrapping_shr(b as u32))),
                Op::ShiftRightArithmetic => {
                    bin(&|a, b, w| Some((sext(a, w).wrapping_shr(b as u32)) as u64))
                }
                Op::BitwiseAnd | Op::LogicalAnd => bin(&|a, b, _| Some(a & b)),
                Op::BitwiseOr | Op::LogicalOr => bin(&|a, b, _| Some(a | b)),
                Op::BitwiseXor | Op::LogicalNotEqual => bin(&|a, b, _| Some(a ^ b)),
                Op::LogicalEqual | Op::IEqual => bin(&|a, b, _| Some(u64::from(a == b))),
                Op::INotEqual => bin(&|a, b, _| Some(u64::from(a != b))),
                Op::ULessThan => bin(&|a, b, _| Some(u64::from(a < b))),
                Op::UGreaterThan => bin(&|a, b, _| Some(u64::from(a > b))),
                Op::ULessThanEqual => bin(&|a, b, _| Some(u64::from(a <= b))),
                Op::UGreaterThanEqual => bin(&|a, b, _| Some(u64::from(a >= b))),
                Op::SLessThan => bin(&|a, b, w| Some(u64::from(sext(a, w) < sext(b, w)))),
                Op::SGreaterThan => bin(&|a, b, w| Some(u64::from(sext(a, w) > sext(b, w)))),
                Op::SLessThanEqual => bin(&|a, b, w| Some(u64::from(sext(a, w) <= sext(b, w)))),
                Op::SGreaterThanEqual => bin(&|a, b, w| Some(u64::from(sext(a, w) >= sext(b, w)))),
                Op::Select => {
                    let (c, _) = arg(0)?;
                    Ok(if c != 0 { arg(1)?.0 } else { arg(2)?.0 })
                }
                _ => Err(unsupported()),
            }
        }
    }
}

/// A pointer inside a constant: at byte `offset` lives the address of module variable `target`
/// plus `addend`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct ConstReloc {
    pub offset: u64,
    pub target: SpvId,
    pub addend: i64,
}

/// The module variable and byte offset a constant pointer expression designates: a variable
/// itself, or `OpSpecConstantOp` casts and access chains with constant indices over one.
pub(crate) fn const_address(info: &ModuleInfo, id: SpvId) -> Option<(SpvId, i64)> {
    const_address_at(info, id, 0)
}

fn const_address_at(info: &ModuleInfo, id: SpvId, depth: u32) -> Option<(SpvId, i64)> {
    if depth > 64 {
        return None;
    }
    if info.globals.iter().any(|g| g.id == id) {
        return Some((id, 0));
    }
    let Some(Const::SpecOp {
        opcode, operands, ..
    }) = info.constants.get(&id)
    else {
        return None;
    };
    let op = Op::from_u16(u16::try_from(*opcode).ok()?)?;
    let base = operands.first()?.as_id()?.0;
    match op {
        Op::Bitcast | Op::PtrCastToGeneric | Op::GenericCastToPtr => {
            const_address_at(info, base, depth + 1)
        }
        Op::AccessChain
        | Op::InBoundsAccessChain
        | Op::PtrAccessChain
        | Op::InBoundsPtrAccessChain => {
            let (var, mut addend) = const_address_at(info, base, depth + 1)?;
            let base_ptr_ty = match info.globals.iter().find(|g| g.id == base) {
                Some(g) => g.ptr_type,
                None => info.constants.get(&base)?.ty(),
            };
            let mut ty = info.types.pointee(base_ptr_ty)?;
            let is_ptr_chain = matches!(op, Op::PtrAccessChain | Op::InBoundsPtrAccessChain);
            for (k, idx) in operands.iter().skip(1).enumerate() {
                let idx_id = idx.as_id()?.0;
                let c = info.constants.get(&idx_id)?;
                let index = sext(
                    eval_scalar(c, info, depth + 1).ok()?,
                    int_width(info, c.ty()),
                );
                if k == 0 && is_ptr_chain {
                    addend = addend.wrapping_add(index.wrapping_mul(info.types.size(ty) as i64));
                } else if let Some(TypeKind::Struct { .. }) = info.types.get(ty).map(|t| &t.kind) {
                    let (off, member) = info.types.component(ty, u64::try_from(index).ok()?)?;
                    addend = addend.wrapping_add(off as i64);
                    ty = member;
                } else {
                    let (stride, elem) = info.types.stride(ty)?;
                    addend = addend.wrapping_add(index.wrapping_mul(stride as i64));
                    ty = elem;
                }
            }
            Some((var, addend))
        }
        _ => None,
    }
}

/// The bytes of constant `id` in memory layout (little-endian).
pub(crate) fn const_bytes(info: &ModuleInfo, id: SpvId) -> Result<Vec<u8>, LowerError> {
    let (bytes, relocs) = const_bytes_with_relocs(info, id)?;
    if !relocs.is_empty() {
        return Err(LowerError::Unsupported {
            offset: 0,
            instruction: format!("%{id}"),
            reason: "constants holding addresses of variables are only supported as initializers of program-scope variables".into(),
        });
    }
    Ok(bytes)
}

/// The bytes of constant (or variable address) `id` and the addresses of variables inside it.
pub(crate) fn const_bytes_with_relocs(
    info: &ModuleInfo,
    id: SpvId,
) -> Result<(Vec<u8>, Vec<ConstReloc>), LowerError> {
    let mut relocs = Vec::new();
    if let Some((target, addend)) = const_address(info, id) {
        relocs.push(ConstReloc {
            offset: 0,
            target,
            addend,
        });
        return Ok((vec![0u8; info.types.pointer_bytes as usize], relocs));
    }
    let c = info
        .constants
        .get(&id)
        .ok_or_else(|| LowerError::Internal(format!("%{id} is not a constant")))?;
    let ty = c.ty();
    let size = usize::try_from(info.types.size(ty))
        .map_err(|_| LowerError::Internal("constant too large".into()))?;
    let mut out = vec![0u8; size];
    write_const(info, c, &mut out, 0, &mut relocs)?;
    Ok((out, relocs))
}

fn write_const(
    info: &ModuleInfo,
    c: &Const,
    out: &mut [u8],
    at: usize,
    relocs: &mut Vec<ConstReloc>,
) -> Result<(), LowerError> {
    let ty = c.ty();
    match c {
        Const::Null { .. } | Const::Undef { .. } => Ok(()),
        Const::Scalar { .. } | Const::SpecOp { .. } => {
            let bits = eval_scalar(c, info, 0)?;
            let size = info.types.size(ty) as usize;
            let bytes = bits.to_le_bytes();
            for (k, byte) in bytes.iter().take(size.min(8)).enumerate() {
                if let Some(slot) = out.get_mut(at + k) {
                    *slot = *byte;
                }
            }
            Ok(())
        }
        Const::Composite { parts, .. } => {
            for (k, part) in parts.iter().enumerate() {
                let (off, _) = info.types.component(ty, k as u64).ok_or_else(|| {
                    LowerError::Internal(format!("bad composite constant of type %{ty}"))
                })?;
                if let Some((target, addend)) = const_address(info, *part) {
                    relocs.push(ConstReloc {
                        offset: (at as u64) + off,
                        target,
                        addend,
                    });
                    continue;
                }
                let pc = info
                    .constants
                    .get(part)
                    .ok_or_else(|| LowerError::Internal(format!("%{part} is not a constant")))?;
                write_const(info, pc, out, at + off as usize, relocs)?;
            }
            Ok(())
        }
    }
}
