//! Binary reader: SPIR-V words or bytes → `Module`, parsing every operand by the grammar
//! (spec 2.3 Physical Layout, 2.2.1 literals). Never panics: malformed input gives a `ReadError`
//! with the word offset of the problem.

use crate::grammar::{OperandSpec, Quantifier};
use crate::{
    ExtInstSet, Header, Id, Instruction, Module, Op, Operand, OperandCategory, OperandKind, MAGIC,
};
use std::collections::HashMap;

/// A malformed binary: the word offset where the problem is and what it is.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("word {offset}: {reason}")]
pub struct ReadError {
    pub offset: u32,
    pub reason: String,
}

fn err<T>(offset: usize, reason: impl Into<String>) -> Result<T, ReadError> {
    Err(ReadError {
        offset: u32::try_from(offset).unwrap_or(u32::MAX),
        reason: reason.into(),
    })
}

/// Reads a module from bytes of either endianness (detected by the magic number).
pub fn read_bytes(bytes: &[u8]) -> Result<Module, ReadError> {
    let partial_word = bytes.len() % 4;
    if partial_word != 0 {
        return err(
            bytes.len() / 4,
            format!("byte length {} is not a multiple of 4", bytes.len()),
        );
    }
    if bytes.len() < 4 {
        return err(0, "module is shorter than its header");
    }
    let little = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]) == MAGIC;
    let words: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|c| {
            let b = [c[0], c[1], c[2], c[3]];
            if little {
                u32::from_le_bytes(b)
            } else {
                u32::from_be_bytes(b)
            }
        })
        .collect();
    read_words(&words)
}

/// Reads a module from words in host order.
pub fn read_words(words: &[u32]) -> Result<Module, ReadError> {
    // spec 2.3: five header words.
    if words.len() < 5 {
        return err(words.len(), "module is shorter than its 5-word header");
    }
    if words[0] != MAGIC {
        return err(0, format!("bad magic number {:#010x}", words[0]));
    }
    let v = words[1];
    let (major, minor) = ((v >> 16) & 0xff, (v >> 8) & 0xff);
    // spec 2.3: version word is 0 | major | minor | 0.
    if v & 0xff00_00ff != 0 || major != 1 || minor > 6 {
        return err(1, format!("unsupported version word {v:#010x}"));
    }
    let bound = words[3];
    if bound == 0 {
        return err(3, "id bound is 0");
    }
    let header = Header {
        version: (major as u8, minor as u8),
        generator: words[2],
        bound,
        schema: words[4],
    };
    let mut reader = Reader {
        words,
        bound,
        scalars: HashMap::new(),
        value_types: HashMap::new(),
        ext_sets: HashMap::new(),
    };
    let mut instructions = Vec::new();
    let mut pos = 5;
    while pos < words.len() {
        let inst = reader.instruction(pos)?;
        pos += (words[pos] >> 16) as usize;
        instructions.push(inst);
    }
    Ok(Module {
        header,
        instructions,
    })
}

#[derive(Copy, Clone, Debug)]
struct Scalar {
    width: u32,
}

struct Reader<'a> {
    words: &'a [u32],
    bound: u32,
    /// OpTypeInt / OpTypeFloat results: width (for context-dependent literals).
    scalars: HashMap<u32, Scalar>,
    /// Result id → result type id, for OpSwitch selectors.
    value_types: HashMap<u32, u32>,
    /// OpExtInstImport results: the set, if its grammar is known.
    ext_sets: HashMap<u32, Option<ExtInstSet>>,
}

/// The operand words of one instruction and a cursor over them.
struct Cursor<'a> {
    words: &'a [u32],
    /// Absolute word offset of `words[0]`.
    base: usize,
    next: usize,
    bound: u32,
}

impl Cursor<'_> {
    fn remaining(&self) -> usize {
        self.words.len() - self.next
    }

    fn at(&self) -> usize {
        self.base + self.next
    }

    fn word(&mut self, what: &str) -> Result<u32, ReadError> {
        match self.words.get(self.next) {
            Some(&w) => {
                self.next += 1;
                Ok(w)
            }
            None => err(self.at(), format!("missing operand: {what}")),
        }
    }

    fn id(&mut self, what: &str) -> Result<Id, ReadError> {
        let at = self.at();
        let w = self.word(what)?;
        // spec 2.3: 0 < id < Bound.
        if w == 0 || w >= self.bound {
            return err(
                at,
                format!("id %{w} is out of bounds (bound {})", self.bound),
            );
        }
        Ok(Id(w))
    }

    /// A literal string (spec 2.2.1): nul-terminated UTF-8, packed low byte first, zero padded.
    fn string(&mut self, what: &str) -> Result<String, ReadError> {
        let start = self.at();
        let mut bytes = Vec::new();
        loop {
            let at = self.at();
            let Some(&w) = self.words.get(self.next) else {
                return err(start, format!("{what}: string is not nul-terminated"));
            };
            self.next += 1;
            let b = w.to_le_bytes();
            if let Some(nul) = b.iter().position(|&x| x == 0) {
                bytes.extend_from_slice(&b[..nul]);
                if b[nul..].iter().any(|&x| x != 0) {
                    return err(
                        at,
                        format!("{what}: nonzero padding after the string's nul"),
                    );
                }
                break;
            }
            bytes.extend_from_slice(&b);
        }
        String::from_utf8(bytes)
            .or_else(|_| err(start, format!("{what}: string is not valid UTF-8")))
    }
}

impl Reader<'_> {
    fn instruction(&mut self, pos: usize) -> Result<Instruction, ReadError> {
        let first = self.words[pos];
        let count = (first >> 16) as usize;
        let opcode = (first & 0xffff) as u16;
        if count == 0 {
            return err(pos, "instruction word count is 0");
        }
        if pos + count > self.words.len() {
            return err(
                pos,
                format!(
                    "instruction word count {count} runs past the end of the module ({} words left)",
                    self.words.len() - pos
                ),
            );
        }
        let Some(op) = Op::from_u16(opcode) else {
            return err(pos, format!("unknown opcode {opcode}"));
        };
        let mut cur = Cursor {
            words: &self.words[pos + 1..pos + count],
            base: pos + 1,
            next: 0,
            bound: self.bound,
        };
        let mut result_type = None;
        let mut result = None;
        let mut operands = Vec::new();
        let specs = op.info().operands;
        let mut i = 0;
        while i < specs.len() {
            let spec = &specs[i];
            match spec.kind {
                OperandKind::IdResultType => {
                    result_type = Some(cur.id(&format!("{} result type", op.name()))?)
                }
                OperandKind::IdResult => result = Some(cur.id(&format!("{} result", op.name()))?),
                _ => {
                    if op == Op::ExtInst && spec.kind == OperandKind::LiteralExtInstInteger {
                        self.ext_inst_operands(&mut cur, &mut operands)?;
                        break;
                    }
                    let ctx = Context {
                        op,
                        result_type,
                        nested: false,
                        lenient_enums: false,
                    };
                    self.operand_spec(&mut cur, spec, &ctx, &mut operands)?;
                }
            }
            i += 1;
        }
        if cur.remaining() > 0 {
            return err(
                cur.at(),
                format!(
                    "{} has {} words more than its operands",
                    op.name(),
                    cur.remaining()
                ),
            );
        }
        self.track(op, result_type, result, &operands);
        Ok(Instruction {
            op,
            result_type,
            result,
            operands,
            offset: u32::try_from(pos).unwrap_or(u32::MAX),
        })
    }

    /// Remembers what later instructions need to parse their literals.
    fn track(&mut self, op: Op, result_type: Option<Id>, result: Option<Id>, operands: &[Operand]) {
        let Some(r) = result else { return };
        match op {
            Op::TypeInt | Op::TypeFloat => {
                if let Some(Operand::Int(width)) = operands.first() {
                    self.scalars.insert(r.0, Scalar { width: *width });
                }
            }
            Op::ExtInstImport => {
                let set = match operands.first() {
                    Some(Operand::Str(s)) => ExtInstSet::from_import_name(s),
                    _ => None,
                };
                self.ext_sets.insert(r.0, set);
            }
            _ => {}
        }
        if let Some(t) = result_type {
            self.value_types.insert(r.0, t.0);
        }
    }

    /// `OpExtInst` after the set: the instruction number, then operands by the set's grammar
    /// (OpenCL.std, OpenCL.DebugInfo.100) or ids (other sets).
    fn ext_inst_operands(
        &mut self,
        cur: &mut Cursor<'_>,
        operands: &mut Vec<Operand>,
    ) -> Result<(), ReadError> {
        let at = cur.at();
        let number = cur.word("extended instruction number")?;
        operands.push(Operand::Int(number));
        let set = operands.first().and_then(Operand::as_id);
        let known = set.and_then(|s| self.ext_sets.get(&s.0).copied());
        match known {
            None => err(
                at.saturating_sub(1),
                "OpExtInst set is not the result of an earlier OpExtInstImport",
            ),
            Some(Some(set)) => {
                let Some((_, specs)) = set.instruction(number) else {
                    return err(at, format!("unknown {set:?} instruction {number}"));
                };
                let ctx = Context {
                    op: Op::ExtInst,
                    result_type: None,
                    nested: false,
                    lenient_enums: set == ExtInstSet::OpenClDebugInfo100,
                };
                for spec in specs {
                    self.operand_spec(cur, spec, &ctx, operands)?;
                }
                Ok(())
            }
            Some(None) => {
                while cur.remaining() > 0 {
                    operands.push(Operand::Id(cur.id("extended instruction operand")?));
                }
                Ok(())
            }
        }
    }

    fn operand_spec(
        &mut self,
        cur: &mut Cursor<'_>,
        spec: &OperandSpec,
        ctx: &Context,
        out: &mut Vec<Operand>,
    ) -> Result<(), ReadError> {
        match spec.quantifier {
            Quantifier::One => self.operand(cur, spec.kind, spec.name, ctx, out),
            Quantifier::Optional => {
                if cur.remaining() > 0 {
                    self.operand(cur, spec.kind, spec.name, ctx, out)?;
                }
                Ok(())
            }
            Quantifier::Many => {
                while cur.remaining() > 0 {
                    self.operand(cur, spec.kind, spec.name, ctx, out)?;
                }
                Ok(())
            }
        }
    }

    fn operand(
        &mut self,
        cur: &mut Cursor<'_>,
        kind: OperandKind,
        name: &str,
        ctx: &Context,
        out: &mut Vec<Operand>,
    ) -> Result<(), ReadError> {
        let what = if name.is_empty() {
            format!("{} {}", ctx.op.name(), kind.name())
        } else {
            format!("{} {} ({})", ctx.op.name(), name, kind.name())
        };
        match kind {
            OperandKind::IdRef
            | OperandKind::IdScope
            | OperandKind::IdMemorySemantics
            | OperandKind::IdResultType
            | OperandKind::IdResult => out.push(Operand::Id(cur.id(&what)?)),
            OperandKind::LiteralString => out.push(Operand::Str(cur.string(&what)?)),
            OperandKind::LiteralContextDependentNumber => {
                let at = cur.at();
                let width = match ctx.result_type.and_then(|t| self.scalars.get(&t.0)) {
                    Some(s) => s.width,
                    None => {
                        return err(
                            at,
                            format!("{what}: result type is not an integer or float type"),
                        )
                    }
                };
                self.number(cur, width, &what, out)?;
            }
            OperandKind::LiteralSpecConstantOpInteger => {
                let at = cur.at();
                let code = cur.word(&what)?;
                out.push(Operand::Int(code));
                let inner = u16::try_from(code).ok().and_then(Op::from_u16);
                let Some(inner) = inner else {
                    return err(at, format!("{what}: unknown opcode {code}"));
                };
                if ctx.nested || inner == Op::SpecConstantOp {
                    return err(at, format!("{what}: OpSpecConstantOp cannot nest"));
                }
                let inner_ctx = Context {
                    op: inner,
                    result_type: None,
                    nested: true,
                    lenient_enums: false,
                };
                for spec in inner.operand_specs() {
                    self.operand_spec(cur, spec, &inner_ctx, out)?;
                }
            }
            OperandKind::PairLiteralIntegerIdRef if ctx.op == Op::Switch => {
                // spec OpSwitch: literal width is the selector's type width.
                let at = cur.at();
                let selector = out.first().and_then(Operand::as_id);
                let width = selector
                    .and_then(|s| self.value_types.get(&s.0))
                    .and_then(|t| self.scalars.get(t));
                let Some(width) = width.map(|s| s.width) else {
                    return err(at, "OpSwitch selector is not of a known integer type");
                };
                self.number(cur, width, &what, out)?;
                out.push(Operand::Id(cur.id(&what)?));
            }
            _ => match kind.category() {
                OperandCategory::Id | OperandCategory::Literal => {
                    out.push(Operand::Int(cur.word(&what)?))
                }
                OperandCategory::Composite => {
                    for &base in kind.bases() {
                        self.operand(cur, base, name, ctx, out)?;
                    }
                }
                OperandCategory::ValueEnum => {
                    let at = cur.at();
                    let value = cur.word(&what)?;
                    out.push(Operand::Int(value));
                    let Some(e) = kind.enumerant(value) else {
                        if ctx.lenient_enums {
                            return Ok(());
                        }
                        return err(at, format!("{what}: invalid {} value {value}", kind.name()));
                    };
                    for p in e.parameters {
                        self.operand_spec(cur, p, ctx, out)?;
                    }
                }
                OperandCategory::BitEnum => {
                    let at = cur.at();
                    let mask = cur.word(&what)?;
                    out.push(Operand::Int(mask));
                    for bit in 0..32 {
                        let b = 1u32 << bit;
                        if mask & b == 0 {
                            continue;
                        }
                        let Some(e) = kind.enumerant(b) else {
                            return err(at, format!("{what}: invalid {} bit {b:#x}", kind.name()));
                        };
                        for p in e.parameters {
                            self.operand_spec(cur, p, ctx, out)?;
                        }
                    }
                }
            },
        }
        Ok(())
    }

    /// A number of `width` bits: one word up to 32, two words (low first) up to 64.
    fn number(
        &self,
        cur: &mut Cursor<'_>,
        width: u32,
        what: &str,
        out: &mut Vec<Operand>,
    ) -> Result<(), ReadError> {
        let at = cur.at();
        match width {
            1..=32 => out.push(Operand::Int(cur.word(what)?)),
            33..=64 => {
                let lo = cur.word(what)?;
                let hi = cur.word(what)?;
                out.push(Operand::Wide(u64::from(lo) | (u64::from(hi) << 32)));
            }
            _ => {
                return err(
                    at,
                    format!("{what}: literal width {width} is not supported"),
                )
            }
        }
        Ok(())
    }
}

/// What the operand parser needs to know about the instruction being read.
struct Context {
    op: Op,
    result_type: Option<Id>,
    /// Inside an `OpSpecConstantOp`.
    nested: bool,
    /// Unknown enum values are kept without parameters instead of rejected: debug information,
    /// which consumers may ignore and llvm-spirv-15 writes with `StorageClass` -1 for generic.
    lenient_enums: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(bound: u32) -> Vec<u32> {
        vec![MAGIC, 0x0001_0000, 0, bound, 0]
    }

    fn inst(op: Op, rest: &[u32]) -> Vec<u32> {
        let mut v = vec![((rest.len() as u32 + 1) << 16) | op as u32];
        v.extend_from_slice(rest);
        v
    }

    #[test]
    fn rejects_bad_headers() {
        assert_eq!(read_words(&[MAGIC]).unwrap_err().offset, 1);
        let mut h = header(4);
        h[0] = 0x0302_2307;
        assert_eq!(read_words(&h).unwrap_err().offset, 0);
        let mut h = header(4);
        h[1] = 0x0001_0700;
        assert!(read_words(&h).unwrap_err().reason.contains("version"));
        let h = header(0);
        assert_eq!(read_words(&h).unwrap_err().offset, 3);
        assert!(read_bytes(&[3, 2, 0x23, 7, 0]).is_err());
    }

    #[test]
    fn reads_both_endiannesses() {
        let mut w = header(4);
        w.extend(inst(Op::TypeInt, &[1, 32, 0]));
        let le: Vec<u8> = w.iter().flat_map(|x| x.to_le_bytes()).collect();
        let be: Vec<u8> = w.iter().flat_map(|x| x.to_be_bytes()).collect();
        let a = read_bytes(&le).unwrap();
        let b = read_bytes(&be).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.instructions[0].op, Op::TypeInt);
        assert_eq!(a.instructions[0].result, Some(Id(1)));
        assert_eq!(
            a.instructions[0].operands,
            vec![Operand::Int(32), Operand::Int(0)]
        );
        assert_eq!(a.instructions[0].offset, 5);
    }

    #[test]
    fn context_dependent_literals() {
        let mut w = header(10);
        w.extend(inst(Op::TypeInt, &[1, 64, 0]));
        w.extend(inst(Op::TypeInt, &[2, 16, 0]));
        w.extend(inst(Op::Constant, &[1, 3, 0xdead_beef, 0x1234_5678]));
        w.extend(inst(Op::Constant, &[2, 4, 7]));
        let m = read_words(&w).unwrap();
        assert_eq!(
            m.instructions[2].operands,
            vec![Operand::Wide(0x1234_5678_dead_beef)]
        );
        assert_eq!(m.instructions[3].operands, vec![Operand::Int(7)]);
        // One word for a 64-bit constant is an error.
        let mut w = header(10);
        w.extend(inst(Op::TypeInt, &[1, 64, 0]));
        w.extend(inst(Op::Constant, &[1, 3, 5]));
        // the missing high word would be word 13 (5 header + 4 OpTypeInt + 4)
        assert_eq!(read_words(&w).unwrap_err().offset, 13);
    }

    #[test]
    fn ids_must_be_below_bound_and_nonzero() {
        let mut w = header(2);
        w.extend(inst(Op::TypeInt, &[2, 32, 0]));
        let e = read_words(&w).unwrap_err();
        assert_eq!(e.offset, 6);
        assert_eq!(e.to_string(), "word 6: id %2 is out of bounds (bound 2)");
        let mut w = header(2);
        w.extend(inst(Op::TypeInt, &[0, 32, 0]));
        assert!(read_words(&w).is_err());
    }

    #[test]
    fn strings_and_enum_parameters() {
        let mut w = header(10);
        // OpDecorate %1 LinkageAttributes "abcd" Export
        w.extend(inst(
            Op::Decorate,
            &[1, 41, u32::from_le_bytes(*b"abcd"), 0, 0],
        ));
        // OpStore %2 %3 Aligned 4
        w.extend(inst(Op::Store, &[2, 3, 2, 4]));
        let m = read_words(&w).unwrap();
        assert_eq!(
            m.instructions[0].operands,
            vec![
                Operand::Id(Id(1)),
                Operand::Int(41),
                Operand::Str("abcd".into()),
                Operand::Int(0)
            ]
        );
        assert_eq!(m.instructions[1].operands.len(), 4);
        // Aligned without its literal.
        let mut w = header(10);
        w.extend(inst(Op::Store, &[2, 3, 2]));
        assert!(read_words(&w).unwrap_err().reason.contains("missing"));
        // Unterminated string.
        let mut w = header(10);
        w.extend(inst(Op::Name, &[1, u32::from_le_bytes(*b"abcd")]));
        assert!(read_words(&w).unwrap_err().reason.contains("nul"));
    }

    #[test]
    fn extra_words_and_bad_counts() {
        let mut w = header(10);
        w.extend(inst(Op::TypeInt, &[1, 32, 0, 9]));
        assert!(read_words(&w).unwrap_err().reason.contains("more"));
        let mut w = header(10);
        w.push(0);
        assert!(read_words(&w).unwrap_err().reason.contains("count is 0"));
        let mut w = header(10);
        w.push((9 << 16) | Op::TypeInt as u32);
        assert!(read_words(&w).unwrap_err().reason.contains("past the end"));
        let mut w = header(10);
        w.push((1 << 16) | 0xfff0);
        assert!(read_words(&w)
            .unwrap_err()
            .reason
            .contains("unknown opcode"));
    }

    #[test]
    fn string_encoding_errors() {
        // Invalid UTF-8 (0xff) in OpName.
        let mut w = header(10);
        w.extend(inst(Op::Name, &[1, 0x0000_00ff]));
        assert!(read_words(&w).unwrap_err().reason.contains("UTF-8"));
        // Nonzero byte after the terminating nul.
        let mut w = header(10);
        w.extend(inst(Op::Name, &[1, 0x0041_0041]));
        assert!(read_words(&w).unwrap_err().reason.contains("padding"));
    }

    #[test]
    fn spec_constant_op_operands_follow_the_inner_opcode() {
        let mut w = header(10);
        w.extend(inst(Op::TypeInt, &[1, 32, 0]));
        // %5 = OpSpecConstantOp %1 IAdd(128) %2 %3
        w.extend(inst(Op::SpecConstantOp, &[1, 5, 128, 2, 3]));
        // %6 = OpSpecConstantOp %1 CompositeExtract(81) %4 1 2
        w.extend(inst(Op::SpecConstantOp, &[1, 6, 81, 4, 1, 2]));
        let m = read_words(&w).unwrap();
        assert_eq!(
            m.instructions[1].operands,
            vec![Operand::Int(128), Operand::Id(Id(2)), Operand::Id(Id(3))]
        );
        assert_eq!(
            m.instructions[2].operands,
            vec![
                Operand::Int(81),
                Operand::Id(Id(4)),
                Operand::Int(1),
                Operand::Int(2)
            ]
        );
        // Nesting is rejected, not recursed into.
        let mut w = header(10);
        w.extend(inst(Op::TypeInt, &[1, 32, 0]));
        w.extend(inst(Op::SpecConstantOp, &[1, 5, 52, 1, 6, 52]));
        assert!(read_words(&w).unwrap_err().reason.contains("nest"));
    }

    #[test]
    fn switch_on_64_bit_selector_has_two_word_literals() {
        let mut w = header(20);
        w.extend(inst(Op::TypeInt, &[1, 64, 0]));
        w.extend(inst(Op::Constant, &[1, 2, 5, 0]));
        // OpSwitch %2 %3 0x100000007 %4
        w.extend(inst(Op::Switch, &[2, 3, 7, 1, 4]));
        let m = read_words(&w).unwrap();
        assert_eq!(
            m.instructions[2].operands,
            vec![
                Operand::Id(Id(2)),
                Operand::Id(Id(3)),
                Operand::Wide(0x1_0000_0007),
                Operand::Id(Id(4))
            ]
        );
        // A selector of unknown type is an error.
        let mut w = header(20);
        w.extend(inst(Op::Switch, &[2, 3, 7, 4]));
        assert!(read_words(&w).unwrap_err().reason.contains("selector"));
    }

    #[test]
    fn ext_inst_by_set() {
        let name = |t: &[u8; 4]| u32::from_le_bytes(*t);
        let mut w = header(20);
        // %1 = OpExtInstImport "OpenCL.std"; %2 = OpExtInstImport "Foo"
        w.extend(inst(
            Op::ExtInstImport,
            &[1, name(b"Open"), name(b"CL.s"), name(b"td\0\0")],
        ));
        w.extend(inst(Op::ExtInstImport, &[2, name(b"Foo\0")]));
        // %4 = OpExtInst %3 %1 vloadn(171) %5 %6 4: the last operand is a literal.
        w.extend(inst(Op::ExtInst, &[3, 4, 1, 171, 5, 6, 4]));
        // %7 = OpExtInst %3 %2 9 %5 %6: unknown set, operands are ids.
        w.extend(inst(Op::ExtInst, &[3, 7, 2, 9, 5, 6]));
        let m = read_words(&w).unwrap();
        assert_eq!(m.instructions[2].operands[4], Operand::Int(4));
        assert_eq!(m.instructions[3].operands[3], Operand::Id(Id(6)));
        // Unknown OpenCL.std number, and a set that is not an import.
        let mut bad = w.clone();
        bad.extend(inst(Op::ExtInst, &[3, 8, 1, 9999, 5]));
        assert!(read_words(&bad).unwrap_err().reason.contains("unknown"));
        let mut bad = w;
        bad.extend(inst(Op::ExtInst, &[3, 8, 5, 0, 5]));
        assert!(read_words(&bad)
            .unwrap_err()
            .reason
            .contains("OpExtInstImport"));
    }
}
