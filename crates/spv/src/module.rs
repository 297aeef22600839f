//! The module model: a header and a flat list of instructions whose operands are flattened in
//! binary order, exactly as read from (or written to) a SPIR-V binary.

use crate::Op;
use std::fmt;

/// A SPIR-V `<id>`. `Display` is the text syntax `%N`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Id(pub u32);

impl fmt::Display for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "%{}", self.0)
    }
}

/// The five header words (spec 2.3 Physical Layout) minus the magic number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// (major, minor).
    pub version: (u8, u8),
    pub generator: u32,
    /// Every id is below the bound.
    pub bound: u32,
    pub schema: u32,
}

/// One operand after the result type and result of an instruction.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    /// `IdRef`, `IdScope`, `IdMemorySemantics` operands.
    Id(Id),
    /// A one-word literal: `LiteralInteger`, `LiteralExtInstInteger`, `LiteralSpecConstantOpInteger`,
    /// `LiteralFloat`, a context-dependent number of width <= 32, a ValueEnum or BitEnum value.
    Int(u32),
    /// A context-dependent number of width 64 (`OpConstant`/`OpSpecConstant` of a 64-bit type,
    /// `OpSwitch` case literal on a 64-bit selector); low word first in the binary.
    Wide(u64),
    /// A `LiteralString`.
    Str(String),
}

/// One instruction.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Instruction {
    pub op: Op,
    pub result_type: Option<Id>,
    pub result: Option<Id>,
    /// All operands after result type/result, flattened in binary order (enum parameters and
    /// pair members follow inline).
    pub operands: Vec<Operand>,
    /// Word offset of the instruction in the binary it was read from (0 if built).
    pub offset: u32,
}

/// A SPIR-V module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Module {
    pub header: Header,
    pub instructions: Vec<Instruction>,
}

impl Operand {
    /// The id, if this is an id operand.
    pub fn as_id(&self) -> Option<Id> {
        match self {
            Operand::Id(id) => Some(*id),
            _ => None,
        }
    }

    /// The word, if this is a one-word literal.
    pub fn as_int(&self) -> Option<u32> {
        match self {
            Operand::Int(v) => Some(*v),
            _ => None,
        }
    }

    /// The string, if this is a literal string.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Operand::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The number of words the operand takes in the binary.
    pub fn word_count(&self) -> usize {
        match self {
            Operand::Id(_) | Operand::Int(_) => 1,
            Operand::Wide(_) => 2,
            Operand::Str(s) => s.len() / 4 + 1,
        }
    }
}

impl Instruction {
    /// An instruction with no offset (as built, not read).
    pub fn new(
        op: Op,
        result_type: Option<Id>,
        result: Option<Id>,
        operands: Vec<Operand>,
    ) -> Self {
        Instruction {
            op,
            result_type,
            result,
            operands,
            offset: 0,
        }
    }

    /// Operand `i` (after result type/result) if it is an id.
    pub fn id(&self, i: usize) -> Option<Id> {
        self.operands.get(i).and_then(Operand::as_id)
    }

    /// Operand `i` (after result type/result) if it is a one-word literal.
    pub fn int(&self, i: usize) -> Option<u32> {
        self.operands.get(i).and_then(Operand::as_int)
    }

    /// Operand `i` (after result type/result) if it is a number of one or two words.
    pub fn wide(&self, i: usize) -> Option<u64> {
        match self.operands.get(i) {
            Some(Operand::Int(v)) => Some(u64::from(*v)),
            Some(Operand::Wide(v)) => Some(*v),
            _ => None,
        }
    }

    /// Operand `i` (after result type/result) if it is a literal string.
    pub fn str(&self, i: usize) -> Option<&str> {
        self.operands.get(i).and_then(Operand::as_str)
    }

    /// Every id the instruction uses (result type and id operands, not the result).
    pub fn used_ids(&self) -> impl Iterator<Item = Id> + '_ {
        self.result_type
            .into_iter()
            .chain(self.operands.iter().filter_map(Operand::as_id))
    }

    /// The number of words the instruction takes in the binary, opcode word included.
    pub fn word_count(&self) -> usize {
        1 + usize::from(self.result_type.is_some())
            + usize::from(self.result.is_some())
            + self.operands.iter().map(Operand::word_count).sum::<usize>()
    }
}

impl Module {
    /// The instruction defining `id`, if any.
    pub fn def(&self, id: Id) -> Option<&Instruction> {
        self.instructions.iter().find(|i| i.result == Some(id))
    }
}
