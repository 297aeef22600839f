//! Binary writer: `Module` → SPIR-V words or little-endian bytes (spec 2.3 Physical Layout).
//! Reading a binary and writing it back gives the identical binary.

use crate::{Instruction, Module, Operand, MAGIC};

/// Appends the words of one operand: strings nul-terminated and padded to a word, 64-bit numbers
/// low word first.
pub fn encode_operand(operand: &Operand, out: &mut Vec<u32>) {
    match operand {
        Operand::Id(id) => out.push(id.0),
        Operand::Int(v) => out.push(*v),
        Operand::Wide(v) => {
            out.push(*v as u32);
            out.push((*v >> 32) as u32);
        }
        Operand::Str(s) => encode_string(s, out),
    }
}

/// Appends a literal string (spec 2.2.1): UTF-8 bytes, a nul, zero padding to a word boundary,
/// packed little-endian within each word.
pub fn encode_string(s: &str, out: &mut Vec<u32>) {
    let bytes = s.as_bytes();
    // At least one nul, then zeros up to the word boundary: 1 to 4 zero bytes.
    let zeros = 4 - bytes.len() % 4;
    let mut padded = Vec::with_capacity(bytes.len() + zeros);
    padded.extend_from_slice(bytes);
    padded.resize(bytes.len() + zeros, 0);
    for chunk in padded.chunks_exact(4) {
        out.push(u32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]));
    }
}

/// Appends one instruction: the word-count/opcode word, result type, result, operands.
pub fn encode_instruction(inst: &Instruction, out: &mut Vec<u32>) {
    let start = out.len();
    out.push(0);
    if let Some(t) = inst.result_type {
        out.push(t.0);
    }
    if let Some(r) = inst.result {
        out.push(r.0);
    }
    for o in &inst.operands {
        encode_operand(o, out);
    }
    let count = (out.len() - start) as u32;
    out[start] = (count << 16) | u32::from(inst.op as u16);
}

impl Module {
    /// The module as SPIR-V words, header first.
    pub fn to_words(&self) -> Vec<u32> {
        let h = &self.header;
        let mut out = vec![
            MAGIC,
            (u32::from(h.version.0) << 16) | (u32::from(h.version.1) << 8),
            h.generator,
            h.bound,
            h.schema,
        ];
        for inst in &self.instructions {
            encode_instruction(inst, &mut out);
        }
        out
    }

    /// The module as little-endian bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.to_words()
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect()
    }
}
