//! Which `Function`-storage variables become SSA values ("mem2reg").
//!
//! A variable is promoted when its address never escapes: every use is an `OpLoad` or `OpStore`
//! through the variable itself, or through an access chain with constant indices (first index 0
//! for the `Ptr` forms) whose own uses are only `OpLoad`/`OpStore` through it. Whole-variable
//! accesses read/write the SSA value; accesses through a chain read/write a part of it: a lane of
//! a vector variable, or bytes at an offset of a struct/array (`Agg`) variable.

use std::collections::{HashMap, HashSet};

use spv::{Instruction, Op};

use super::layout::{storage, SpvId, TypeKind};
use super::module_info::ModuleInfo;
use super::InstExt;

/// Where a promoted access lands inside its variable.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct PartAccess {
    /// The promoted variable.
    pub var: SpvId,
    /// Byte offset inside the variable's value.
    pub offset: u64,
    /// SPIR-V type of the accessed part.
    pub ty: SpvId,
}

/// The promotion decision for one function.
#[derive(Debug, Default)]
pub(crate) struct Promotion {
    /// Promoted variables and their value types (pointee types).
    pub vars: HashMap<SpvId, SpvId>,
    /// Access chains into promoted variables.
    pub parts: HashMap<SpvId, PartAccess>,
}

/// Decides promotion for the instructions of one function body.
pub(crate) fn analyze(body: &[Instruction], info: &ModuleInfo) -> Promotion {
    // Candidates: Function-storage variables of promotable value types.
    let mut candidates: HashMap<SpvId, SpvId> = HashMap::new();
    for inst in body {
        if inst.op != Op::Variable {
            continue;
        }
        let (Ok(id), Ok(ptr_ty), Ok(sc)) = (inst.res(), inst.rty(), inst.lit(0)) else {
            continue;
        };
        if sc != storage::FUNCTION {
            continue;
        }
        let Some(pointee) = info.types.pointee(ptr_ty) else {
            continue;
        };
        if promotable_type(info, pointee) {
            candidates.insert(id, pointee);
        }
    }

    // Access chains with constant indices rooted at candidates.
    let mut parts: HashMap<SpvId, PartAccess> = HashMap::new();
    let mut rejected: HashSet<SpvId> = HashSet::new();
    for inst in body {
        let is_chain = matches!(
            inst.op,
            Op::AccessChain
                | Op::InBoundsAccessChain
                | Op::PtrAccessChain
                | Op::InBoundsPtrAccessChain
        );
        if !is_chain {
            continue;
        }
        let Ok(base) = inst.id_op(0) else { continue };
        let Some(&var_ty) = candidates.get(&base) else {
            continue;
        };
        let Ok(result) = inst.res() else { continue };
        match constant_path(inst, info, var_ty) {
            Some((offset, ty)) if part_ok(info, var_ty, offset, ty) => {
                parts.insert(
                    result,
                    PartAccess {
                        var: base,
                        offset,
                        ty,
                    },
                );
            }
            _ => {
                rejected.insert(base);
            }
        }
    }

    // Every use of a candidate or of one of its parts must be a direct load or store (debug
    // information does not count).
    for inst in body.iter().filter(|i| !info.is_debug_ext_inst(i)) {
        let pointer_operand = match inst.op {
            Op::Load => Some(0),
            Op::Store => Some(0),
            _ => None,
        };
        for (k, op) in inst.operands.iter().enumerate() {
            let Some(id) = op.as_id() else { continue };
            let id = id.0;
            let root = if candidates.contains_key(&id) {
                // A chain rooted at a candidate is a use only through `parts`.
                let is_chain_base = k == 0
                    && matches!(
                        inst.op,
                        Op::AccessChain
                            | Op::InBoundsAccessChain
                            | Op::PtrAccessChain
                            | Op::InBoundsPtrAccessChain
                    );
                if is_chain_base {
                    continue;
                }
                id
            } else if let Some(p) = parts.get(&id) {
                p.var
            } else {
                continue;
            };
            if pointer_operand != Some(k) || has_volatile(inst) {
                rejected.insert(root);
            }
        }
    }

    let vars: HashMap<SpvId, SpvId> = candidates
        .into_iter()
        .filter(|(v, _)| !rejected.contains(v))
        .collect();
    parts.retain(|_, p| vars.contains_key(&p.var));
    Promotion { vars, parts }
}

/// Scalars, vectors, pointers and structs/arrays of those can live in SSA values.
fn promotable_type(info: &ModuleInfo, ty: SpvId) -> bool {
    match info.types.get(ty).map(|t| &t.kind) {
        Some(TypeKind::Bool | TypeKind::Int { .. } | TypeKind::Float { .. }) => {
            info.types.scalar(ty).is_some()
        }
        Some(TypeKind::Vector { .. }) => info.types.value_type(ty).is_some(),
        Some(TypeKind::Pointer { .. }) => true,
        Some(TypeKind::Opaque { .. }) => true,
        Some(TypeKind::Array { .. } | TypeKind::Struct { .. }) => {
            let size = info.types.size(ty);
            size > 0 && size <= 1 << 16 && info.types.value_type(ty).is_some()
        }
        _ => false,
    }
}

/// A part access is representable: a whole value, a lane of a vector variable, or a non-bool
/// piece of an aggregate.
fn part_ok(info: &ModuleInfo, var_ty: SpvId, offset: u64, ty: SpvId) -> bool {
    if ty == var_ty && offset == 0 {
        return true;
    }
    let Some(value_ty) = info.types.value_type(ty) else {
        return false;
    };
    if value_ty.is_bool() {
        return false;
    }
    match info.types.get(var_ty).map(|t| &t.kind) {
        Some(TypeKind::Vector { elem, count }) => {
            let lane_size = info.types.size(*elem).max(1);
            *elem == ty
                && offset.is_multiple_of(lane_size)
                && offset / lane_size < u64::from(*count)
        }
        Some(TypeKind::Array { .. } | TypeKind::Struct { .. }) => {
            offset + info.types.size(ty) <= info.types.size(var_ty)
        }
        _ => false,
    }
}

/// The byte offset and type reached by an access chain with constant indices.
fn constant_path(inst: &Instruction, info: &ModuleInfo, var_ty: SpvId) -> Option<(u64, SpvId)> {
    let mut indices = Vec::new();
    for k in 1..inst.operands.len() {
        let id = inst.id(k)?.0;
        indices.push(info.constants.get(&id)?.scalar_bits(info)?);
    }
    let mut rest = indices.as_slice();
    if matches!(inst.op, Op::PtrAccessChain | Op::InBoundsPtrAccessChain) {
        let (first, tail) = rest.split_first()?;
        if *first != 0 {
            return None;
        }
        rest = tail;
    }
    let mut offset = 0u64;
    let mut ty = var_ty;
    for &index in rest {
        let (off, member) = info.types.component(ty, index)?;
        offset += off;
        ty = member;
    }
    // The result type must point to the reached type.
    let result_pointee = info.types.pointee(inst.result_type?.0)?;
    if result_pointee != ty {
        return None;
    }
    Some((offset, ty))
}

/// Whether a load/store carries the Volatile memory access bit.
fn has_volatile(inst: &Instruction) -> bool {
    let mask_index = match inst.op {
        Op::Load => 1,
        Op::Store => 2,
        _ => return false,
    };
    inst.int(mask_index).is_some_and(|m| m & 1 != 0)
}
