//! Pairs the flattened operands of an instruction with the operand kinds of the grammar,
//! following optional and repeated operands, enumerant parameters and composite kinds.

use crate::{
    Instruction, Op, OpenClStd, Operand, OperandCategory, OperandKind, OperandSpec, Quantifier,
};

/// Operand `index` of an instruction has grammar kind `kind`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Slot {
    pub kind: OperandKind,
    pub index: usize,
    /// The grammar's name for the operand (`"Execution"`, `"Memory"`), empty when unnamed.
    pub name: &'static str,
}

struct Walker<'a> {
    operands: &'a [Operand],
    next: usize,
    slots: Vec<Slot>,
    /// OpSwitch case literals take the selector's width, so on a 64-bit selector they are `Wide`.
    wide_literals: bool,
}

impl Walker<'_> {
    fn spec(&mut self, spec: &OperandSpec) -> Result<(), String> {
        match spec.quantifier {
            Quantifier::One => self.one(spec.kind, spec.name),
            Quantifier::Optional => {
                if self.next < self.operands.len() {
                    self.one(spec.kind, spec.name)?;
                }
                Ok(())
            }
            Quantifier::Many => {
                while self.next < self.operands.len() {
                    self.one(spec.kind, spec.name)?;
                }
                Ok(())
            }
        }
    }

    fn one(&mut self, kind: OperandKind, name: &'static str) -> Result<(), String> {
        let index = self.next;
        let Some(operand) = self.operands.get(index) else {
            return Err(format!("missing {} operand", kind.name()));
        };
        let matches = match kind.category() {
            OperandCategory::Id => matches!(operand, Operand::Id(_)),
            OperandCategory::Literal => match kind {
                OperandKind::LiteralString => matches!(operand, Operand::Str(_)),
                OperandKind::LiteralContextDependentNumber => {
                    matches!(operand, Operand::Int(_) | Operand::Wide(_))
                }
                OperandKind::LiteralInteger if self.wide_literals => {
                    matches!(operand, Operand::Int(_) | Operand::Wide(_))
                }
                _ => matches!(operand, Operand::Int(_)),
            },
            OperandCategory::ValueEnum | OperandCategory::BitEnum => {
                matches!(operand, Operand::Int(_))
            }
            OperandCategory::Composite => {
                for &base in kind.bases() {
                    self.one(base, name)?;
                }
                return Ok(());
            }
        };
        if !matches {
            return Err(format!(
                "operand {} should be a {} but is {operand:?}",
                index + 1,
                kind.name()
            ));
        }
        self.slots.push(Slot { kind, index, name });
        self.next += 1;
        let value = operand.as_int().unwrap_or(0);
        match kind.category() {
            OperandCategory::ValueEnum => {
                let Some(e) = kind.enumerant(value) else {
                    return Err(format!("{value} is not a {} value", kind.name()));
                };
                for p in e.parameters {
                    self.spec(p)?;
                }
            }
            OperandCategory::BitEnum => {
                for bit in 0..32 {
                    let mask = 1u32 << bit;
                    if value & mask == 0 {
                        continue;
                    }
                    let Some(e) = kind.enumerant(mask) else {
                        return Err(format!("bit {mask:#x} is not a {} bit", kind.name()));
                    };
                    for p in e.parameters {
                        self.spec(p)?;
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }
}

/// The grammar kind of every operand of `inst`, or why the operands do not fit the grammar.
/// `ext_set_is_opencl_std` tells whether an `OpExtInst`'s set is `OpenCL.std`.
pub(crate) fn classify(
    inst: &Instruction,
    ext_set_is_opencl_std: bool,
) -> Result<Vec<Slot>, String> {
    let mut w = Walker {
        operands: &inst.operands,
        next: 0,
        slots: Vec::new(),
        wide_literals: inst.op == Op::Switch,
    };
    if inst.op == Op::ExtInst {
        // IdRef set, LiteralExtInstInteger number, then the set's own operands.
        w.one(OperandKind::IdRef, "Set")?;
        w.one(OperandKind::LiteralExtInstInteger, "Instruction")?;
        let number = inst.int(1).unwrap_or(u32::MAX);
        match OpenClStd::from_u32(number).filter(|_| ext_set_is_opencl_std) {
            Some(ext) => {
                for spec in ext.operands() {
                    w.spec(spec)?;
                }
            }
            None => {
                // Other sets (debug info, non-semantic) mix ids and literals.
                while let Some(o) = w.operands.get(w.next) {
                    let kind = match o {
                        Operand::Id(_) => OperandKind::IdRef,
                        Operand::Str(_) => OperandKind::LiteralString,
                        _ => OperandKind::LiteralInteger,
                    };
                    w.one(kind, "")?;
                }
            }
        }
    } else if inst.op == Op::SpecConstantOp {
        // SPIR-V 3.42.7: the opcode, then that opcode's operands (after its result type and id).
        w.one(OperandKind::LiteralSpecConstantOpInteger, "Opcode")?;
        let opcode = inst.int(0).unwrap_or(u32::MAX);
        let inner = u16::try_from(opcode)
            .ok()
            .and_then(Op::from_u16)
            .ok_or_else(|| format!("{opcode} is not an opcode"))?;
        for spec in inner.operand_specs() {
            w.spec(spec)?;
        }
    } else {
        for spec in inst.op.operand_specs() {
            w.spec(spec)?;
        }
    }
    if w.next != w.operands.len() {
        return Err(format!(
            "{} operands, the grammar of {} takes {}",
            inst.operands.len(),
            inst.op.name(),
            w.next
        ));
    }
    Ok(w.slots)
}
