//! Types of the generated grammar tables (`generated/core.rs`, `generated/opencl_std.rs`):
//! per-instruction and per-enumerant information taken from the Khronos JSON grammars.

use crate::{Capability, Op, OperandKind};

/// How many times an operand may appear.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Quantifier {
    /// Exactly once.
    One,
    /// Zero or one time (`?` in the grammar).
    Optional,
    /// Zero or more times (`*` in the grammar).
    Many,
}

/// The category of an operand kind in the grammar.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum OperandCategory {
    /// A set of named values, one of which is used.
    ValueEnum,
    /// A set of named bits, any of which may be set.
    BitEnum,
    /// An `<id>`.
    Id,
    /// A literal number or string.
    Literal,
    /// A sequence of other kinds (`PairLiteralIntegerIdRef`).
    Composite,
}

/// One operand of an instruction or enumerant in the grammar.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct OperandSpec {
    pub kind: OperandKind,
    pub quantifier: Quantifier,
    /// The grammar's name for the operand (`"Width"`), empty when the grammar gives none.
    pub name: &'static str,
}

/// Grammar information of one opcode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InstInfo {
    /// The opname (`"OpTypeInt"`).
    pub name: &'static str,
    pub opcode: u16,
    /// The grammar's instruction class (`"Type-Declaration"`, `"Arithmetic"`).
    pub class: &'static str,
    /// Every operand in binary order, including `IdResultType` and `IdResult`.
    pub operands: &'static [OperandSpec],
    /// Capabilities that enable the instruction (any one suffices; empty: always enabled).
    pub capabilities: &'static [Capability],
    pub extensions: &'static [&'static str],
    /// First SPIR-V version with the instruction; `(0xff, 0xff)` when only an extension provides it.
    pub version: (u8, u8),
    /// Last SPIR-V version with the instruction, if it was removed.
    pub last_version: Option<(u8, u8)>,
}

/// Grammar information of one enumerant of a `ValueEnum` or `BitEnum` kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnumerantInfo {
    pub name: &'static str,
    /// The value (for a `BitEnum`, the bit; 0 for `None`).
    pub value: u32,
    /// Operands that follow the enumerant when it is used (in bit order for a `BitEnum`).
    pub parameters: &'static [OperandSpec],
    pub capabilities: &'static [Capability],
    pub extensions: &'static [&'static str],
    /// First SPIR-V version with the enumerant; `(0xff, 0xff)` when only an extension provides it.
    pub version: (u8, u8),
    pub last_version: Option<(u8, u8)>,
}

impl Op {
    /// The opname (`"OpTypeInt"`).
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// Whether the instruction has an `IdResultType` operand.
    pub fn has_result_type(self) -> bool {
        self.info()
            .operands
            .iter()
            .any(|o| o.kind == OperandKind::IdResultType)
    }

    /// Whether the instruction has an `IdResult` operand.
    pub fn has_result(self) -> bool {
        self.info()
            .operands
            .iter()
            .any(|o| o.kind == OperandKind::IdResult)
    }

    /// The operands after `IdResultType` and `IdResult`.
    pub fn operand_specs(self) -> &'static [OperandSpec] {
        let ops = self.info().operands;
        let skip = ops
            .iter()
            .take_while(|o| matches!(o.kind, OperandKind::IdResultType | OperandKind::IdResult))
            .count();
        &ops[skip..]
    }
}

impl std::fmt::Display for Op {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl OperandKind {
    /// The enumerant of a `ValueEnum` kind with this value, or the single bit of a `BitEnum` kind.
    pub fn enumerant(self, value: u32) -> Option<&'static EnumerantInfo> {
        self.enumerants().iter().find(|e| e.value == value)
    }

    /// The enumerant with this grammar name.
    pub fn enumerant_by_name(self, name: &str) -> Option<&'static EnumerantInfo> {
        self.enumerants().iter().find(|e| e.name == name)
    }
}

/// An extended instruction set whose grammar the tables include.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ExtInstSet {
    /// `"OpenCL.std"`.
    OpenClStd,
    /// `"OpenCL.DebugInfo.100"`.
    OpenClDebugInfo100,
}

impl ExtInstSet {
    /// The set named by an `OpExtInstImport`, if its grammar is known.
    pub fn from_import_name(name: &str) -> Option<ExtInstSet> {
        match name {
            "OpenCL.std" => Some(ExtInstSet::OpenClStd),
            "OpenCL.DebugInfo.100" => Some(ExtInstSet::OpenClDebugInfo100),
            _ => None,
        }
    }

    /// (opname, operands after the instruction number) of instruction `number`.
    pub fn instruction(self, number: u32) -> Option<(&'static str, &'static [OperandSpec])> {
        match self {
            ExtInstSet::OpenClStd => {
                crate::OpenClStd::from_u32(number).map(|i| (i.name(), i.operands()))
            }
            ExtInstSet::OpenClDebugInfo100 => {
                crate::OpenClDebugInfo::from_u32(number).map(|i| (i.name(), i.operands()))
            }
        }
    }

    /// (number, operands) of the instruction with this opname.
    pub fn instruction_by_name(self, name: &str) -> Option<(u32, &'static [OperandSpec])> {
        match self {
            ExtInstSet::OpenClStd => {
                crate::OpenClStd::from_name(name).map(|i| (i as u32, i.operands()))
            }
            ExtInstSet::OpenClDebugInfo100 => {
                crate::OpenClDebugInfo::from_name(name).map(|i| (i as u32, i.operands()))
            }
        }
    }
}
