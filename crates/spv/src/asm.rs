//! Assembler: SPIR-V assembly text (the syntax of `spirv-as`/`spirv-dis`) → `Module`.
//!
//! Ids written `%N` keep their number (like `spirv-as --preserve-numeric-ids`); other names get
//! the lowest unused numbers in order of first appearance, as spirv-as does. Header comments that
//! `disassemble` writes (`; Version:`, `; Generator:`, `; Bound:`, `; Schema:`) are read back, so
//! assembling our own disassembly reproduces the module. Never panics on any input.

use crate::grammar::{OperandSpec, Quantifier};
use crate::{
    ExtInstSet, Header, Id, Instruction, Module, Op, Operand, OperandCategory, OperandKind,
};
use std::collections::{BTreeSet, HashMap};

/// A syntax or operand error, with the 1-based line of the token where it was found.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {reason}")]
pub struct AsmError {
    pub line: u32,
    pub reason: String,
}

#[derive(Clone, Debug)]
struct Token {
    text: String,
    quoted: bool,
    line: u32,
}

/// Splits text into tokens: words, `=`, and quoted strings (with `\x` escapes → `x`);
/// `;` starts a comment to the end of the line.
fn tokenize(text: &str) -> Result<(Vec<Token>, Vec<String>), AsmError> {
    let mut tokens = Vec::new();
    let mut comments = Vec::new();
    let mut chars = text.chars().peekable();
    let mut line = 1u32;
    while let Some(&c) = chars.peek() {
        if c == '\n' {
            line += 1;
            chars.next();
        } else if c.is_whitespace() {
            chars.next();
        } else if c == ';' {
            let mut comment = String::new();
            while let Some(&c) = chars.peek() {
                if c == '\n' {
                    break;
                }
                comment.push(c);
                chars.next();
            }
            comments.push(comment);
        } else if c == '"' {
            let start = line;
            chars.next();
            let mut s = String::new();
            loop {
                match chars.next() {
                    None => {
                        return Err(AsmError {
                            line: start,
                            reason: "unterminated string".into(),
                        })
                    }
                    Some('"') => break,
                    Some('\\') => match chars.next() {
                        Some(e) => {
                            if e == '\n' {
                                line += 1;
                            }
                            s.push(e)
                        }
                        None => {
                            return Err(AsmError {
                                line: start,
                                reason: "unterminated string".into(),
                            })
                        }
                    },
                    Some(ch) => {
                        if ch == '\n' {
                            line += 1;
                        }
                        s.push(ch)
                    }
                }
            }
            tokens.push(Token {
                text: s,
                quoted: true,
                line: start,
            });
        } else if c == '=' {
            chars.next();
            tokens.push(Token {
                text: "=".into(),
                quoted: false,
                line,
            });
        } else {
            let mut w = String::new();
            while let Some(&c) = chars.peek() {
                if c.is_whitespace() || c == ';' || c == '"' || c == '=' {
                    break;
                }
                w.push(c);
                chars.next();
            }
            tokens.push(Token {
                text: w,
                quoted: false,
                line,
            });
        }
    }
    Ok((tokens, comments))
}

#[derive(Copy, Clone, Debug)]
enum Scalar {
    Int { width: u32, signed: bool },
    Float { width: u32 },
}

struct Assembler {
    tokens: Vec<Token>,
    next: usize,
    names: HashMap<String, u32>,
    used_numbers: BTreeSet<u32>,
    next_free: u32,
    scalars: HashMap<u32, Scalar>,
    value_types: HashMap<u32, u32>,
    ext_sets: HashMap<u32, Option<ExtInstSet>>,
}

/// Assembles text into a module (see the module documentation for id numbering and headers).
pub fn assemble(text: &str) -> Result<Module, AsmError> {
    let (tokens, comments) = tokenize(text)?;
    let mut header = Header {
        version: (1, 0),
        generator: 0,
        bound: 0,
        schema: 0,
    };
    let mut header_bound = 0;
    for c in &comments {
        let c = c.trim_start_matches(';').trim();
        if let Some(v) = c.strip_prefix("Version:") {
            if let Some((a, b)) = v.trim().split_once('.') {
                if let (Ok(a), Ok(b)) = (a.parse(), b.parse()) {
                    header.version = (a, b);
                }
            }
        } else if let Some(g) = c.strip_prefix("Generator:") {
            header.generator = parse_generator(g.trim()).unwrap_or(0);
        } else if let Some(b) = c.strip_prefix("Bound:") {
            header_bound = b.trim().parse().unwrap_or(0);
        } else if let Some(s) = c.strip_prefix("Schema:") {
            header.schema = s.trim().parse().unwrap_or(0);
        }
    }
    let mut used_numbers = BTreeSet::new();
    for t in &tokens {
        if let Some(n) = t.text.strip_prefix('%').and_then(|n| n.parse::<u32>().ok()) {
            if !t.quoted && n != 0 {
                used_numbers.insert(n);
            }
        }
    }
    let mut asm = Assembler {
        tokens,
        next: 0,
        names: HashMap::new(),
        used_numbers,
        next_free: 1,
        scalars: HashMap::new(),
        value_types: HashMap::new(),
        ext_sets: HashMap::new(),
    };
    let mut instructions = Vec::new();
    while asm.next < asm.tokens.len() {
        instructions.push(asm.instruction()?);
    }
    let max = instructions
        .iter()
        .flat_map(|i: &Instruction| i.result.into_iter().chain(i.used_ids()))
        .map(|id| id.0)
        .max()
        .unwrap_or(0);
    header.bound = header_bound.max(max.saturating_add(1));
    Ok(Module {
        header,
        instructions,
    })
}

/// The generator word from `disassemble`'s `; Generator:` text (`Tool name; 3`, `Unknown(9); 3`).
fn parse_generator(text: &str) -> Option<u32> {
    let (tool, misc) = text.rsplit_once(';')?;
    let misc: u32 = misc.trim().parse().ok()?;
    let tool = tool.trim();
    let vendor = match tool
        .strip_prefix("Unknown(")
        .and_then(|t| t.strip_suffix(')'))
    {
        Some(n) => n.parse::<u32>().ok()?,
        None => (0..64u32).find(|&v| {
            crate::dis::generator_text(v << 16)
                .rsplit_once(';')
                .is_some_and(|(name, _)| name == tool)
        })?,
    };
    Some((vendor << 16) | (misc & 0xffff))
}

fn is_inst_start(tokens: &[Token], i: usize) -> bool {
    let Some(t) = tokens.get(i) else {
        return false;
    };
    if t.quoted {
        return false;
    }
    if t.text.starts_with('%') {
        return tokens
            .get(i + 1)
            .is_some_and(|n| !n.quoted && n.text == "=");
    }
    let b = t.text.as_bytes();
    b.len() > 2 && b[0] == b'O' && b[1] == b'p' && b[2].is_ascii_uppercase()
}

impl Assembler {
    fn line(&self) -> u32 {
        self.tokens
            .get(self.next)
            .or_else(|| self.tokens.last())
            .map_or(1, |t| t.line)
    }

    fn error<T>(&self, reason: impl Into<String>) -> Result<T, AsmError> {
        Err(AsmError {
            line: self.line(),
            reason: reason.into(),
        })
    }

    /// Whether another operand follows in the current instruction.
    fn more(&self) -> bool {
        self.next < self.tokens.len() && !is_inst_start(&self.tokens, self.next)
    }

    fn take(&mut self, what: &str) -> Result<Token, AsmError> {
        if !self.more() {
            // Report on the line of the instruction's last token, not the next instruction's.
            let line = self
                .tokens
                .get(self.next.saturating_sub(1))
                .map_or(1, |t| t.line);
            return Err(AsmError {
                line,
                reason: format!("missing operand: {what}"),
            });
        }
        let t = self.tokens[self.next].clone();
        self.next += 1;
        Ok(t)
    }

    fn resolve(&mut self, name: &str) -> u32 {
        if let Ok(n) = name.parse::<u32>() {
            if n != 0 {
                return n;
            }
        }
        if let Some(&n) = self.names.get(name) {
            return n;
        }
        while self.used_numbers.contains(&self.next_free) {
            self.next_free += 1;
        }
        let n = self.next_free;
        self.used_numbers.insert(n);
        self.names.insert(name.to_string(), n);
        n
    }

    fn id(&mut self, what: &str) -> Result<Id, AsmError> {
        let t = self.take(what)?;
        match t.text.strip_prefix('%') {
            Some(name) if !t.quoted && !name.is_empty() => Ok(Id(self.resolve(name))),
            _ => Err(AsmError {
                line: t.line,
                reason: format!("{what}: expected an id, found `{}`", t.text),
            }),
        }
    }

    fn instruction(&mut self) -> Result<Instruction, AsmError> {
        let mut result = None;
        if is_inst_start(&self.tokens, self.next) && self.tokens[self.next].text.starts_with('%') {
            let name = self.tokens[self.next].text[1..].to_string();
            result = Some(Id(self.resolve(&name)));
            self.next += 2;
        }
        let line = self.line();
        let Some(t) = self.tokens.get(self.next).cloned() else {
            return self.error("expected an opcode after `=`");
        };
        self.next += 1;
        let op = match Op::from_name(&t.text) {
            Some(op) if !t.quoted => op,
            _ => {
                return Err(AsmError {
                    line: t.line,
                    reason: format!("expected an opcode, found `{}`", t.text),
                })
            }
        };
        if op.has_result() != result.is_some() {
            return Err(AsmError {
                line,
                reason: if result.is_some() {
                    format!("{} has no result id", op.name())
                } else {
                    format!("{} needs a result id (`%x = {}`)", op.name(), op.name())
                },
            });
        }
        let mut result_type = None;
        if op.has_result_type() {
            result_type = Some(self.id("result type")?);
        }
        let mut operands = Vec::new();
        if op == Op::ExtInst {
            self.ext_inst(&mut operands)?;
        } else {
            for spec in op.operand_specs() {
                self.spec(spec, op, result_type, &mut operands)?;
            }
        }
        if self.more() {
            return self.error(format!(
                "unexpected operand `{}` for {}",
                self.tokens[self.next].text,
                op.name()
            ));
        }
        self.track(op, result_type, result, &operands);
        Ok(Instruction {
            op,
            result_type,
            result,
            operands,
            offset: 0,
        })
    }

    fn track(&mut self, op: Op, result_type: Option<Id>, result: Option<Id>, operands: &[Operand]) {
        let Some(r) = result else { return };
        match op {
            Op::TypeInt => {
                if let (Some(Operand::Int(w)), Some(Operand::Int(s))) =
                    (operands.first(), operands.get(1))
                {
                    self.scalars.insert(
                        r.0,
                        Scalar::Int {
                            width: *w,
                            signed: *s != 0,
                        },
                    );
                }
            }
            Op::TypeFloat => {
                if let Some(Operand::Int(w)) = operands.first() {
                    self.scalars.insert(r.0, Scalar::Float { width: *w });
                }
            }
            Op::ExtInstImport => {
                let set = operands
                    .first()
                    .and_then(Operand::as_str)
                    .and_then(ExtInstSet::from_import_name);
                self.ext_sets.insert(r.0, set);
            }
            _ => {}
        }
        if let Some(t) = result_type {
            self.value_types.insert(r.0, t.0);
        }
    }

    fn ext_inst(&mut self, operands: &mut Vec<Operand>) -> Result<(), AsmError> {
        let set = self.id("extended instruction set")?;
        operands.push(Operand::Id(set));
        let t = self.take("extended instruction")?;
        let known = self.ext_sets.get(&set.0).copied().flatten();
        let specs: Option<&'static [OperandSpec]> = match (known, parse_u32(&t.text)) {
            (Some(s), Some(n)) => {
                operands.push(Operand::Int(n));
                s.instruction(n).map(|(_, specs)| specs)
            }
            (Some(s), None) => match s.instruction_by_name(&t.text) {
                Some((n, specs)) => {
                    operands.push(Operand::Int(n));
                    Some(specs)
                }
                None => {
                    return Err(AsmError {
                        line: t.line,
                        reason: format!("unknown {s:?} instruction `{}`", t.text),
                    })
                }
            },
            (None, Some(n)) => {
                operands.push(Operand::Int(n));
                None
            }
            (None, None) => {
                return Err(AsmError {
                    line: t.line,
                    reason: format!("unknown extended instruction `{}`", t.text),
                })
            }
        };
        match specs {
            Some(specs) => {
                for spec in specs {
                    self.spec(spec, Op::ExtInst, None, operands)?;
                }
            }
            None => {
                while self.more() {
                    operands.push(Operand::Id(self.id("extended instruction operand")?));
                }
            }
        }
        Ok(())
    }

    fn spec(
        &mut self,
        spec: &OperandSpec,
        op: Op,
        result_type: Option<Id>,
        out: &mut Vec<Operand>,
    ) -> Result<(), AsmError> {
        match spec.quantifier {
            Quantifier::One => self.operand(spec.kind, spec.name, op, result_type, out),
            Quantifier::Optional => {
                if self.more() {
                    self.operand(spec.kind, spec.name, op, result_type, out)?;
                }
                Ok(())
            }
            Quantifier::Many => {
                while self.more() {
                    self.operand(spec.kind, spec.name, op, result_type, out)?;
                }
                Ok(())
            }
        }
    }

    fn operand(
        &mut self,
        kind: OperandKind,
        name: &str,
        op: Op,
        result_type: Option<Id>,
        out: &mut Vec<Operand>,
    ) -> Result<(), AsmError> {
        let what = if name.is_empty() {
            format!("{} {}", op.name(), kind.name())
        } else {
            format!("{} {name}", op.name())
        };
        match kind {
            OperandKind::IdRef
            | OperandKind::IdScope
            | OperandKind::IdMemorySemantics
            | OperandKind::IdResultType
            | OperandKind::IdResult => out.push(Operand::Id(self.id(&what)?)),
            OperandKind::LiteralString => {
                let t = self.take(&what)?;
                if !t.quoted {
                    return Err(AsmError {
                        line: t.line,
                        reason: format!("{what}: expected a quoted string, found `{}`", t.text),
                    });
                }
                out.push(Operand::Str(t.text));
            }
            OperandKind::LiteralContextDependentNumber => {
                let scalar = result_type.and_then(|t| self.scalars.get(&t.0)).copied();
                let t = self.take(&what)?;
                out.push(number(&t, scalar, &what)?);
            }
            OperandKind::LiteralFloat => {
                let t = self.take(&what)?;
                out.push(number(&t, Some(Scalar::Float { width: 32 }), &what)?);
            }
            OperandKind::LiteralSpecConstantOpInteger => {
                let t = self.take(&what)?;
                let inner = match parse_u32(&t.text) {
                    Some(n) => u16::try_from(n).ok().and_then(Op::from_u16),
                    None => Op::from_name(&format!("Op{}", t.text)),
                };
                let Some(inner) = inner.filter(|&i| i != Op::SpecConstantOp) else {
                    return Err(AsmError {
                        line: t.line,
                        reason: format!("{what}: unknown opcode `{}`", t.text),
                    });
                };
                out.push(Operand::Int(u32::from(inner as u16)));
                for spec in inner.operand_specs() {
                    self.spec(spec, inner, None, out)?;
                }
            }
            OperandKind::PairLiteralIntegerIdRef if op == Op::Switch => {
                let selector_type = out
                    .first()
                    .and_then(Operand::as_id)
                    .and_then(|s| self.value_types.get(&s.0))
                    .and_then(|t| self.scalars.get(t))
                    .copied();
                let t = self.take(&what)?;
                out.push(number(&t, selector_type, &what)?);
                out.push(Operand::Id(self.id(&what)?));
            }
            _ => match kind.category() {
                OperandCategory::Id | OperandCategory::Literal => {
                    let t = self.take(&what)?;
                    out.push(Operand::Int(literal_u32(&t, &what)?));
                }
                OperandCategory::Composite => {
                    for &base in kind.bases() {
                        self.operand(base, name, op, result_type, out)?;
                    }
                }
                OperandCategory::ValueEnum => {
                    let t = self.take(&what)?;
                    let e = match parse_u32(&t.text) {
                        Some(v) => {
                            out.push(Operand::Int(v));
                            kind.enumerant(v)
                        }
                        None => match kind.enumerant_by_name(&t.text) {
                            Some(e) => {
                                out.push(Operand::Int(e.value));
                                Some(e)
                            }
                            None => {
                                return Err(AsmError {
                                    line: t.line,
                                    reason: format!("{what}: unknown {} `{}`", kind.name(), t.text),
                                })
                            }
                        },
                    };
                    if let Some(e) = e {
                        for p in e.parameters {
                            self.spec(p, op, result_type, out)?;
                        }
                    }
                }
                OperandCategory::BitEnum => {
                    let t = self.take(&what)?;
                    let mut mask = 0u32;
                    for part in t.text.split('|') {
                        let v = match parse_u32(part) {
                            Some(v) => v,
                            None => match kind.enumerant_by_name(part) {
                                Some(e) => e.value,
                                None => {
                                    return Err(AsmError {
                                        line: t.line,
                                        reason: format!("{what}: unknown {} `{part}`", kind.name()),
                                    })
                                }
                            },
                        };
                        mask |= v;
                    }
                    out.push(Operand::Int(mask));
                    for bit in 0..32 {
                        let b = 1u32 << bit;
                        if mask & b != 0 {
                            if let Some(e) = kind.enumerant(b) {
                                for p in e.parameters {
                                    self.spec(p, op, result_type, out)?;
                                }
                            }
                        }
                    }
                }
            },
        }
        Ok(())
    }
}

/// An unsigned integer: decimal or `0x` hex.
fn parse_u32(text: &str) -> Option<u32> {
    parse_u64(text).and_then(|v| u32::try_from(v).ok())
}

fn parse_u64(text: &str) -> Option<u64> {
    match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16).ok(),
        None if text.bytes().all(|b| b.is_ascii_digit()) && !text.is_empty() => text.parse().ok(),
        None => None,
    }
}

/// A one-word literal: unsigned, or negative (stored as two's complement).
fn literal_u32(t: &Token, what: &str) -> Result<u32, AsmError> {
    let v = match t.text.strip_prefix('-') {
        Some(rest) => parse_u64(rest)
            .filter(|&v| v <= 1 << 31)
            .map(|v| (v as u32).wrapping_neg()),
        None => parse_u32(&t.text),
    };
    v.ok_or_else(|| AsmError {
        line: t.line,
        reason: format!("{what}: expected a 32-bit integer, found `{}`", t.text),
    })
}

/// A number whose encoding depends on the scalar type (spec 2.2.1): integers sign- or
/// zero-extended to a word up to 32 bits, two words for 64; floats by their width.
fn number(t: &Token, scalar: Option<Scalar>, what: &str) -> Result<Operand, AsmError> {
    let bad = |reason: String| AsmError {
        line: t.line,
        reason: format!("{what}: {reason}"),
    };
    let text = t.text.as_str();
    match scalar {
        None => Err(bad("the type is not an integer or float type".into())),
        Some(Scalar::Int { width, signed }) => {
            if !(1..=64).contains(&width) {
                return Err(bad(format!("integer width {width} is not supported")));
            }
            let (neg, digits) = match text.strip_prefix('-') {
                Some(d) => (true, d),
                None => (false, text),
            };
            let mag = parse_u64(digits)
                .ok_or_else(|| bad(format!("expected an integer, found `{text}`")))?;
            let bits: u64 = if neg {
                if !signed {
                    return Err(bad(
                        "cannot put a negative number in an unsigned literal".into()
                    ));
                }
                if mag > 1u64 << (width - 1) {
                    return Err(bad(format!("`{text}` does not fit in {width} bits")));
                }
                mag.wrapping_neg()
            } else {
                let max = if width == 64 {
                    u64::MAX
                } else {
                    (1u64 << width) - 1
                };
                if mag > max {
                    return Err(bad(format!("`{text}` does not fit in {width} bits")));
                }
                mag
            };
            if width > 32 {
                Ok(Operand::Wide(bits))
            } else {
                // Narrow signed values are sign-extended to the word; `bits` already is.
                let word = if signed && neg {
                    bits as u32
                } else {
                    (bits & 0xffff_ffff) as u32
                };
                Ok(Operand::Int(word))
            }
        }
        Some(Scalar::Float { width }) => {
            let bits = match width {
                16 => parse_float(text, 5, 10),
                32 => parse_float(text, 8, 23),
                64 => parse_float(text, 11, 52),
                _ => return Err(bad(format!("float width {width} is not supported"))),
            }
            .ok_or_else(|| bad(format!("expected a floating-point number, found `{text}`")))?;
            if width == 64 {
                Ok(Operand::Wide(bits))
            } else {
                Ok(Operand::Int(bits as u32))
            }
        }
    }
}

/// Decimal or hex-float text → IEEE bits of the given format, rounding to nearest even.
fn parse_float(text: &str, exp_bits: u32, frac_bits: u32) -> Option<u64> {
    let (neg, body) = match text.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let sign = u64::from(neg) << (exp_bits + frac_bits);
    if let Some(hex) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        return hex_float_bits(hex, exp_bits, frac_bits).map(|b| b | sign);
    }
    if body.is_empty() || !body.starts_with(|c: char| c.is_ascii_digit() || c == '.') {
        return None;
    }
    if frac_bits == 23 {
        let v: f32 = body.parse().ok()?;
        return Some(u64::from(v.to_bits()) | sign);
    }
    if frac_bits == 52 {
        let v: f64 = body.parse().ok()?;
        return Some(v.to_bits() | sign);
    }
    // Narrower formats, as SPIRV-Tools does it: the decimal rounded to the nearest float, then
    // that float narrowed rounding toward zero.
    let v: f32 = body.parse().ok()?;
    let b = v.to_bits();
    let exp = ((b >> 23) & 0xff) as i32;
    let frac = u64::from(b & ((1 << 23) - 1));
    if exp == 0xff {
        return None;
    }
    let (mant, e2) = if exp == 0 {
        (frac, -149)
    } else {
        (frac | 1 << 23, exp - 150)
    };
    Some(round_to_format(mant, e2, exp_bits, frac_bits, Rounding::TowardZero) | sign)
}

#[derive(Copy, Clone, PartialEq, Eq)]
enum Rounding {
    NearestEven,
    TowardZero,
}

/// `hex` is the text after `0x`: hex digits with an optional `.` and an optional `p±exp`.
fn hex_float_bits(hex: &str, exp_bits: u32, frac_bits: u32) -> Option<u64> {
    let (mant_text, exp_text) = match hex.split_once(['p', 'P']) {
        Some((m, e)) => (m, Some(e)),
        None => (hex, None),
    };
    let mut exp: i64 = match exp_text {
        Some(e) => e.strip_prefix('+').unwrap_or(e).parse().ok()?,
        None => 0,
    };
    let (int_part, frac_part) = mant_text.split_once('.').unwrap_or((mant_text, ""));
    if int_part.is_empty() && frac_part.is_empty() {
        return None;
    }
    let mut mant: u64 = 0;
    let mut sticky = false;
    for (i, c) in int_part.chars().chain(frac_part.chars()).enumerate() {
        let d = u64::from(c.to_digit(16)?);
        if mant >> 58 == 0 {
            mant = mant << 4 | d;
            if i >= int_part.len() {
                exp -= 4;
            }
        } else {
            sticky |= d != 0;
            if i < int_part.len() {
                exp += 4;
            }
        }
    }
    if sticky {
        mant |= 1;
    }
    let max_exp = (1i64 << exp_bits) - 1;
    let bias = max_exp / 2;
    // SPIRV-Tools writes infinities and NaNs as hex floats with exponent bias + 1.
    if mant != 0 {
        let top = 63 - i64::from(mant.leading_zeros());
        if top + exp == bias + 1 {
            let shift = top - i64::from(frac_bits);
            let fraction = if shift >= 0 {
                mant >> shift
            } else {
                mant << -shift
            } & ((1 << frac_bits) - 1);
            return Some((max_exp as u64) << frac_bits | fraction);
        }
    }
    let exp = i32::try_from(exp.clamp(-100_000, 100_000)).ok()?;
    Some(round_to_format(
        mant,
        exp,
        exp_bits,
        frac_bits,
        Rounding::NearestEven,
    ))
}

/// `mant * 2^e2` as IEEE bits (positive), rounded as asked; overflow gives infinity.
fn round_to_format(mant: u64, e2: i32, exp_bits: u32, frac_bits: u32, rounding: Rounding) -> u64 {
    if mant == 0 {
        return 0;
    }
    let max_exp = (1i64 << exp_bits) - 1;
    let bias = max_exp / 2;
    let top = 63 - i64::from(mant.leading_zeros());
    let unbiased = top + i64::from(e2);
    let mut biased = unbiased + bias;
    // Number of low bits of `mant` to drop.
    let mut shift = top - i64::from(frac_bits);
    if biased < 1 {
        shift += 1 - biased;
        biased = 0;
    }
    let rounded = if shift <= 0 {
        mant << (-shift).min(63)
    } else if shift > 64 {
        0
    } else {
        let kept = if shift == 64 { 0 } else { mant >> shift };
        let rem = if shift == 64 {
            mant
        } else {
            mant & ((1u64 << shift) - 1)
        };
        let half = 1u64 << (shift - 1);
        if rounding == Rounding::NearestEven && (rem > half || (rem == half && kept & 1 == 1)) {
            kept + 1
        } else {
            kept
        }
    };
    let implicit = 1u64 << frac_bits;
    let (biased, fraction) = if biased == 0 {
        // Subnormal; rounding may carry into the smallest normal.
        if rounded >= implicit {
            (1, rounded - implicit)
        } else {
            (0, rounded)
        }
    } else if rounded >= implicit << 1 {
        (biased + 1, (rounded >> 1) - implicit)
    } else {
        (biased, rounded - implicit)
    };
    if biased >= max_exp {
        return (max_exp as u64) << frac_bits;
    }
    (biased as u64) << frac_bits | fraction
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_parse_to_ieee_bits() {
        assert_eq!(parse_float("1.5", 8, 23), Some(0x3fc0_0000));
        assert_eq!(parse_float("0x1p-149", 8, 23), Some(1));
        assert_eq!(parse_float("0x1p+128", 8, 23), Some(0x7f80_0000));
        assert_eq!(parse_float("-0x1.8p+128", 8, 23), Some(0xffc0_0000));
        assert_eq!(parse_float("0x1.ffcp+15", 5, 10), Some(0x7bff));
        assert_eq!(parse_float("0x1p-24", 5, 10), Some(1));
        assert_eq!(parse_float("0x0p+0", 5, 10), Some(0));
        assert_eq!(parse_float("-0x0p+0", 5, 10), Some(0x8000));
        // 1/3 is 0x3555 in binary16 when rounded to nearest; spirv-as truncates to 0x3555 too
        // (1/3 = 0x1.555…p-2), while 0.333 = 0x1.54fdf3…p-2 truncates to 0x3553.
        assert_eq!(parse_float("0.333333333", 5, 10), Some(0x3555));
        assert_eq!(parse_float("0.333", 5, 10), Some(0x3553));
        assert_eq!(parse_float("65504", 5, 10), Some(0x7bff));
        assert_eq!(
            parse_float("0x1.fap-1064", 11, 52),
            Some(1e-320f64.to_bits())
        );
        assert_eq!(parse_float("abc", 8, 23), None);
    }

    #[test]
    fn generator_text_parses_back() {
        assert_eq!(
            parse_generator("Khronos SPIR-V Tools Assembler; 0"),
            Some(7 << 16)
        );
        assert_eq!(parse_generator("Unknown(100); 3"), Some(100 << 16 | 3));
        assert_eq!(parse_generator("Khronos; 5"), Some(5));
    }

    #[test]
    fn symbolic_ids_take_lowest_free_numbers() {
        let m = assemble(
            "OpCapability Kernel\n%b = OpTypeInt 32 0\n%5 = OpTypeFloat 32\n%a = OpConstant %b 1\n%2 = OpTypeBool\n%z = OpTypeVoid\n",
        )
        .unwrap();
        let results: Vec<u32> = m
            .instructions
            .iter()
            .filter_map(|i| i.result)
            .map(|i| i.0)
            .collect();
        // spirv-as --preserve-numeric-ids gives 1 5 3 2 4 for this text.
        assert_eq!(results, vec![1, 5, 3, 2, 4]);
        assert_eq!(m.header.bound, 6);
    }

    #[test]
    fn errors_have_lines() {
        let e = assemble("OpCapability Kernel\n%1 = OpTypeInt 32\n%2 = OpBogus\n").unwrap_err();
        assert_eq!(e.line, 2);
        let e = assemble("OpCapability Kernel\n%2 = OpBogus\n").unwrap_err();
        assert_eq!(e.line, 2);
        let e = assemble("OpCapability NotACapability").unwrap_err();
        assert_eq!(e.line, 1);
        assert!(assemble("%1 = OpTypeInt 32 0\n%2 = OpConstant %1 -1").is_err());
        assert!(assemble("OpName %1 \"unterminated").is_err());
        assert!(assemble("%1 = OpCapability Kernel").is_err());
    }
}
