//! Reading the text format written by `Display` (see `print`) back into a `Module` or `Function`.
//!
//! Value and block numbers are kept exactly as written (`v7` in the text is `Value(7)`), so
//! printing a parsed function gives back the same text. Numbers the text skips become unused
//! entries. The parser checks syntax only; run `verify` for the IR's invariants.

use std::fmt;

use crate::{
    AddrSpace, ArgKind, AtomicOp, BinaryOp, Block, BlockCall, BuiltinFn, CmpOp, ConvertOp,
    DataFlowGraph, EnqueueOp, FuncRef, Function, Global, GlobalRef, ImageOp, InstData, Kernel,
    KernelArg, Layout, Module, PipeOp, ReduceOp, Reloc, Rounding, ScalarType, Scope, Signature,
    TestOp, Type, UnaryOp, Value, ValueData, ValueDef, WorkItemQuery,
};

/// A syntax error with its 1-based line.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct ParseError {
    pub line: usize,
    pub message: String,
}

/// Parses a whole module (`module address_bits N` followed by globals, functions and kernels).
pub fn parse_module(text: &str) -> Result<Module, ParseError> {
    let mut p = Parser::new(text)?;
    p.expect_word("module")?;
    p.expect_word("address_bits")?;
    let address_bits = p.number()? as u32;
    let mut module = Module::new(address_bits);
    while !p.at_end() {
        let line = p.line();
        match p.word()?.as_str() {
            "global" => {
                let g = p.entity::<GlobalRef>()?;
                if g.index() != module.globals.len() {
                    return Err(p.error_at(line, format!("expected g{}", module.globals.len())));
                }
                let global = p.global()?;
                module.globals.push(global);
            }
            "function" => {
                let func_ref = p.entity::<FuncRef>()?;
                if func_ref.index() != module.functions.len() {
                    return Err(p.error_at(line, format!("expected fn{}", module.functions.len())));
                }
                let func = p.function()?;
                module.functions.push(func);
            }
            "kernel" => {
                let kernel = p.kernel()?;
                module.kernels.push(kernel);
            }
            other => {
                return Err(p.error_at(
                    line,
                    format!("expected global, function or kernel, found `{other}`"),
                ))
            }
        }
    }
    Ok(module)
}

/// Parses one function (`function "name"(params) -> ret { … }`, no `fnN`).
pub fn parse_function(text: &str) -> Result<Function, ParseError> {
    let mut p = Parser::new(text)?;
    p.expect_word("function")?;
    let func = p.function()?;
    if !p.at_end() {
        return Err(p.error("text after the function"));
    }
    Ok(func)
}

#[derive(Clone, PartialEq, Debug)]
enum Tok {
    Word(String),
    Num(String),
    Str(String),
    Hex(Vec<u8>),
    Punct(char),
    Arrow,
}

impl fmt::Display for Tok {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tok::Word(w) | Tok::Num(w) => write!(f, "`{w}`"),
            Tok::Str(s) => write!(f, "{s:?}"),
            Tok::Hex(_) => write!(f, "hex bytes"),
            Tok::Punct(c) => write!(f, "`{c}`"),
            Tok::Arrow => write!(f, "`->`"),
        }
    }
}

fn lex(text: &str) -> Result<Vec<(Tok, usize)>, ParseError> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line = 1;
    let err = |line: usize, message: String| ParseError { line, message };
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == ';' {
            // Comment to end of line.
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '-' && chars.get(i + 1) == Some(&'>') {
            out.push((Tok::Arrow, line));
            i += 2;
        } else if c.is_ascii_digit()
            || (c == '-' && chars.get(i + 1).is_some_and(char::is_ascii_digit))
        {
            let start = i;
            i += 1;
            let hex = chars.get(start..start + 2) == Some(&['0', 'x'])
                || chars.get(start..start + 3) == Some(&['-', '0', 'x']);
            while i < chars.len() {
                let d = chars[i];
                let exponent_sign =
                    !hex && (d == '-' || d == '+') && matches!(chars[i - 1], 'e' | 'E');
                if d.is_ascii_alphanumeric() || d == '.' || exponent_sign {
                    i += 1;
                } else {
                    break;
                }
            }
            out.push((Tok::Num(chars[start..i].iter().collect()), line));
        } else if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len()
                && (chars[i].is_ascii_alphanumeric() || chars[i] == '_' || chars[i] == '.')
            {
                i += 1;
            }
            out.push((Tok::Word(chars[start..i].iter().collect()), line));
        } else if c == '"' {
            i += 1;
            let mut s = String::new();
            loop {
                match chars.get(i) {
                    None => return Err(err(line, "unterminated string".into())),
                    Some('"') => {
                        i += 1;
                        break;
                    }
                    Some('\\') => {
                        let (decoded, used) = unescape(&chars[i..])
                            .ok_or_else(|| err(line, "bad escape in string".into()))?;
                        s.push(decoded);
                        i += used;
                    }
                    Some(&ch) => {
                        if ch == '\n' {
                            line += 1;
                        }
                        s.push(ch);
                        i += 1;
                    }
                }
            }
            out.push((Tok::Str(s), line));
        } else if c == '#' {
            i += 1;
            let start = i;
            while i < chars.len() && chars[i].is_ascii_hexdigit() {
                i += 1;
            }
            let digits: String = chars[start..i].iter().collect();
            if !digits.len().is_multiple_of(2) {
                return Err(err(line, "odd number of hex digits".into()));
            }
            let bytes = (0..digits.len())
                .step_by(2)
                .map(|k| u8::from_str_radix(&digits[k..k + 2], 16))
                .collect::<Result<Vec<u8>, _>>()
                .map_err(|_| err(line, "bad hex bytes".into()))?;
            out.push((Tok::Hex(bytes), line));
        } else if "()[]{},:=".contains(c) {
            out.push((Tok::Punct(c), line));
            i += 1;
        } else {
            return Err(err(line, format!("unexpected character `{c}`")));
        }
    }
    Ok(out)
}

/// Decodes one Rust-style escape (as written by `{:?}`) at `chars[0] == '\\'`.
fn unescape(chars: &[char]) -> Option<(char, usize)> {
    match chars.get(1)? {
        'n' => Some(('\n', 2)),
        't' => Some(('\t', 2)),
        'r' => Some(('\r', 2)),
        '0' => Some(('\0', 2)),
        '\\' => Some(('\\', 2)),
        '"' => Some(('"', 2)),
        '\'' => Some(('\'', 2)),
        'u' => {
            if chars.get(2) != Some(&'{') {
                return None;
            }
            let close = chars.iter().position(|&c| c == '}')?;
            let hex: String = chars[3..close].iter().collect();
            let code = u32::from_str_radix(&hex, 16).ok()?;
            Some((char::from_u32(code)?, close + 1))
        }
        _ => None,
    }
}

struct Parser {
    toks: Vec<(Tok, usize)>,
    pos: usize,
}

/// Entities parse from words like `v3`.
trait EntityText: Sized {
    fn parse_text(text: &str) -> Option<Self>;
    const WHAT: &'static str;
}

macro_rules! entity_text {
    ($($ty:ident $what:literal),*) => {$(
        impl EntityText for $ty {
            fn parse_text(text: &str) -> Option<Self> { $ty::parse(text) }
            const WHAT: &'static str = $what;
        }
    )*};
}
entity_text!(Value "a value", Block "a block", FuncRef "a function", GlobalRef "a global");

/// A block header read from the text: the block, its parameters and its line.
type ParsedBlock = (Block, Vec<(Value, Type)>, usize);

/// One instruction read from the text before the function is assembled.
struct ParsedInst {
    line: usize,
    block: Block,
    result: Option<(Value, Type)>,
    data: InstData,
}

impl Parser {
    fn new(text: &str) -> Result<Parser, ParseError> {
        Ok(Parser {
            toks: lex(text)?,
            pos: 0,
        })
    }

    fn at_end(&self) -> bool {
        self.pos >= self.toks.len()
    }

    fn line(&self) -> usize {
        self.toks
            .get(self.pos)
            .or(self.toks.last())
            .map_or(1, |t| t.1)
    }

    fn error(&self, message: impl Into<String>) -> ParseError {
        ParseError {
            line: self.line(),
            message: message.into(),
        }
    }

    fn error_at(&self, line: usize, message: impl Into<String>) -> ParseError {
        ParseError {
            line,
            message: message.into(),
        }
    }

    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|t| &t.0)
    }

    fn peek_line(&self) -> Option<usize> {
        self.toks.get(self.pos).map(|t| t.1)
    }

    fn prev_line(&self) -> usize {
        self.pos
            .checked_sub(1)
            .and_then(|p| self.toks.get(p))
            .map_or(0, |t| t.1)
    }

    fn next(&mut self) -> Result<Tok, ParseError> {
        let tok = self
            .toks
            .get(self.pos)
            .map(|t| t.0.clone())
            .ok_or_else(|| self.error("unexpected end of text"))?;
        self.pos += 1;
        Ok(tok)
    }

    fn unexpected(&self, tok: &Tok, wanted: &str) -> ParseError {
        ParseError {
            line: self.prev_line(),
            message: format!("expected {wanted}, found {tok}"),
        }
    }

    fn word(&mut self) -> Result<String, ParseError> {
        match self.next()? {
            Tok::Word(w) => Ok(w),
            tok => Err(self.unexpected(&tok, "a word")),
        }
    }

    fn expect_word(&mut self, word: &str) -> Result<(), ParseError> {
        match self.next()? {
            Tok::Word(w) if w == word => Ok(()),
            tok => Err(self.unexpected(&tok, &format!("`{word}`"))),
        }
    }

    fn is_punct(&self, c: char) -> bool {
        self.peek() == Some(&Tok::Punct(c))
    }

    fn eat_punct(&mut self, c: char) -> bool {
        if self.is_punct(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn punct(&mut self, c: char) -> Result<(), ParseError> {
        match self.next()? {
            Tok::Punct(p) if p == c => Ok(()),
            tok => Err(self.unexpected(&tok, &format!("`{c}`"))),
        }
    }

    fn string(&mut self) -> Result<String, ParseError> {
        match self.next()? {
            Tok::Str(s) => Ok(s),
            tok => Err(self.unexpected(&tok, "a string")),
        }
    }

    fn num_text(&mut self) -> Result<String, ParseError> {
        match self.next()? {
            Tok::Num(n) => Ok(n),
            tok => Err(self.unexpected(&tok, "a number")),
        }
    }

    /// An integer literal (decimal or `0x` hex, optionally negative) as i128.
    fn int_literal(&mut self) -> Result<i128, ParseError> {
        let text = self.num_text()?;
        parse_int(&text)
            .ok_or_else(|| self.error_at(self.prev_line(), format!("bad integer `{text}`")))
    }

    /// A non-negative integer.
    fn number(&mut self) -> Result<u64, ParseError> {
        let value = self.int_literal()?;
        u64::try_from(value)
            .map_err(|_| self.error_at(self.prev_line(), "expected a non-negative number"))
    }

    fn u32_number(&mut self) -> Result<u32, ParseError> {
        let value = self.number()?;
        u32::try_from(value).map_err(|_| self.error_at(self.prev_line(), "number too large"))
    }

    fn entity<E: EntityText>(&mut self) -> Result<E, ParseError> {
        match self.next()? {
            Tok::Word(w) => {
                E::parse_text(&w).ok_or_else(|| self.unexpected(&Tok::Word(w.clone()), E::WHAT))
            }
            tok => Err(self.unexpected(&tok, E::WHAT)),
        }
    }

    fn value(&mut self) -> Result<Value, ParseError> {
        self.entity::<Value>()
    }

    fn ty(&mut self) -> Result<Type, ParseError> {
        let word = self.word()?;
        word.parse()
            .map_err(|()| self.error_at(self.prev_line(), format!("unknown type `{word}`")))
    }

    fn named<T>(
        &mut self,
        what: &str,
        from_name: impl Fn(&str) -> Option<T>,
    ) -> Result<T, ParseError> {
        let word = self.word()?;
        from_name(&word)
            .ok_or_else(|| self.error_at(self.prev_line(), format!("unknown {what} `{word}`")))
    }

    fn global(&mut self) -> Result<Global, ParseError> {
        let name = self.string()?;
        let space = self.named("address space", AddrSpace::from_name)?;
        self.expect_word("size")?;
        let size = self.u32_number()?;
        self.expect_word("align")?;
        let align = self.u32_number()?;
        let mut global = Global {
            name,
            space,
            size,
            align,
            init: None,
            relocs: Vec::new(),
        };
        loop {
            match self.peek() {
                Some(Tok::Word(w)) if w == "init" => {
                    self.pos += 1;
                    match self.next()? {
                        Tok::Hex(bytes) => global.init = Some(bytes),
                        tok => return Err(self.unexpected(&tok, "`#` bytes")),
                    }
                }
                Some(Tok::Word(w)) if w == "reloc" => {
                    self.pos += 1;
                    let offset = self.u32_number()?;
                    let target = self.entity::<GlobalRef>()?;
                    let addend = self.int_literal()? as i64;
                    global.relocs.push(Reloc {
                        offset,
                        target,
                        addend,
                    });
                }
                _ => return Ok(global),
            }
        }
    }

    fn kernel(&mut self) -> Result<Kernel, ParseError> {
        let name = self.string()?;
        let func = self.entity::<FuncRef>()?;
        self.punct('(')?;
        let mut args = Vec::new();
        while !self.eat_punct(')') {
            if !args.is_empty() {
                self.punct(',')?;
            }
            let arg_name = self.string()?;
            let kind_word = self.word()?;
            let kind = match kind_word.as_str() {
                "local" => ArgKind::LocalPtr,
                "sampler" => ArgKind::Sampler,
                "pipe_read" => ArgKind::Pipe { write_only: false },
                "pipe_write" => ArgKind::Pipe { write_only: true },
                "value" => {
                    let ty = self.ty()?;
                    self.expect_word("size")?;
                    let size = self.u32_number()?;
                    self.expect_word("align")?;
                    let align = self.u32_number()?;
                    ArgKind::Value { ty, size, align }
                }
                other => match other.strip_prefix("buffer_").and_then(AddrSpace::from_name) {
                    Some(space) => ArgKind::Buffer(space),
                    None if other.starts_with("image") => match crate::ImageArg::from_name(other) {
                        Some(image) => ArgKind::Image(image),
                        None => {
                            return Err(self.error_at(
                                self.prev_line(),
                                format!("unknown image argument kind `{other}`"),
                            ))
                        }
                    },
                    None => {
                        return Err(self.error_at(
                            self.prev_line(),
                            format!("unknown argument kind `{other}`"),
                        ))
                    }
                },
            };
            let type_name = self.string()?;
            args.push(KernelArg {
                name: arg_name,
                kind,
                type_name,
            });
        }
        let mut kernel = Kernel {
            name,
            func,
            args,
            reqd_work_group_size: None,
            work_group_size_hint: None,
            vec_type_hint: None,
        };
        loop {
            match self.peek() {
                Some(Tok::Word(w)) if w == "reqd_work_group_size" => {
                    self.pos += 1;
                    kernel.reqd_work_group_size = Some(self.triple()?);
                }
                Some(Tok::Word(w)) if w == "work_group_size_hint" => {
                    self.pos += 1;
                    kernel.work_group_size_hint = Some(self.triple()?);
                }
                Some(Tok::Word(w)) if w == "vec_type_hint" => {
                    self.pos += 1;
                    self.punct('(')?;
                    kernel.vec_type_hint = Some(self.u32_number()?);
                    self.punct(')')?;
                }
                _ => return Ok(kernel),
            }
        }
    }

    fn triple(&mut self) -> Result<[u32; 3], ParseError> {
        self.punct('(')?;
        let x = self.u32_number()?;
        self.punct(',')?;
        let y = self.u32_number()?;
        self.punct(',')?;
        let z = self.u32_number()?;
        self.punct(')')?;
        Ok([x, y, z])
    }

    /// `"name"(types) [-> type] { blocks }` (after `function [fnN]`).
    fn function(&mut self) -> Result<Function, ParseError> {
        let name = self.string()?;
        self.punct('(')?;
        let mut sig = Signature::default();
        while !self.eat_punct(')') {
            if !sig.params.is_empty() {
                self.punct(',')?;
            }
            sig.params.push(self.ty()?);
        }
        if self.peek() == Some(&Tok::Arrow) {
            self.pos += 1;
            sig.ret = Some(self.ty()?);
        }
        self.punct('{')?;
        let mut blocks: Vec<ParsedBlock> = Vec::new();
        let mut insts: Vec<ParsedInst> = Vec::new();
        while !self.eat_punct('}') {
            let is_block_header =
                matches!(self.peek(), Some(Tok::Word(w)) if Block::parse(w).is_some());
            if is_block_header {
                let block = self.entity::<Block>()?;
                let line = self.prev_line();
                if blocks.iter().any(|(b, _, _)| *b == block) {
                    return Err(self.error_at(self.prev_line(), format!("{block} defined twice")));
                }
                let mut params = Vec::new();
                if self.eat_punct('(') {
                    while !self.eat_punct(')') {
                        if !params.is_empty() {
                            self.punct(',')?;
                        }
                        let v = self.value()?;
                        self.punct(':')?;
                        params.push((v, self.ty()?));
                    }
                }
                self.punct(':')?;
                blocks.push((block, params, line));
            } else {
                let Some((block, _, _)) = blocks.last() else {
                    return Err(self.error("instruction before the first block"));
                };
                let block = *block;
                let line = self.line();
                let (result, data) = self.inst()?;
                insts.push(ParsedInst {
                    line,
                    block,
                    result,
                    data,
                });
            }
        }
        self.assemble(name, sig, blocks, insts)
    }

    /// Builds the function keeping the text's value and block numbers.
    fn assemble(
        &self,
        name: String,
        sig: Signature,
        blocks: Vec<ParsedBlock>,
        insts: Vec<ParsedInst>,
    ) -> Result<Function, ParseError> {
        let mut dfg = DataFlowGraph::default();
        let num_blocks = blocks
            .iter()
            .map(|(b, _, _)| b.index() + 1)
            .max()
            .unwrap_or(0);
        dfg.block_params = vec![Vec::new(); num_blocks];
        let defined_values = blocks
            .iter()
            .flat_map(|(_, params, _)| params.iter().map(|p| p.0))
            .chain(insts.iter().filter_map(|i| i.result.map(|r| r.0)));
        let num_values = defined_values.map(|v| v.index() + 1).max().unwrap_or(0);
        // Unused numbers point at a nonexistent instruction; the verifier rejects any use of them.
        let hole = ValueData {
            ty: Type::I8,
            def: ValueDef::Result(crate::Inst(u32::MAX)),
        };
        dfg.values = vec![hole; num_values];
        let mut defined = vec![false; num_values];
        let mut define = |dfg: &mut DataFlowGraph,
                          value: Value,
                          data: ValueData,
                          line: usize|
         -> Result<(), ParseError> {
            if std::mem::replace(&mut defined[value.index()], true) {
                return Err(ParseError {
                    line,
                    message: format!("{value} defined twice"),
                });
            }
            dfg.values[value.index()] = data;
            Ok(())
        };
        let mut layout = Layout::default();
        for (block, params, line) in &blocks {
            layout.append_block(*block);
            for (index, (value, ty)) in params.iter().enumerate() {
                define(
                    &mut dfg,
                    *value,
                    ValueData {
                        ty: *ty,
                        def: ValueDef::Param(*block, index),
                    },
                    *line,
                )?;
                dfg.block_params[block.index()].push(*value);
            }
        }
        for parsed in insts {
            let inst = crate::Inst::new(dfg.insts.len());
            dfg.insts.push(parsed.data);
            dfg.results.push(parsed.result.map(|r| r.0));
            if let Some((value, ty)) = parsed.result {
                define(
                    &mut dfg,
                    value,
                    ValueData {
                        ty,
                        def: ValueDef::Result(inst),
                    },
                    parsed.line,
                )?;
            }
            layout.append_inst(parsed.block, inst);
        }
        Ok(Function {
            name,
            sig,
            dfg,
            layout,
        })
    }

    fn block_call(&mut self) -> Result<BlockCall, ParseError> {
        let block = self.entity::<Block>()?;
        let mut args = Vec::new();
        if self.eat_punct('(') {
            args = self.value_list_rest()?;
        }
        Ok(BlockCall { block, args })
    }

    /// Values up to `)` (the `(` already eaten).
    fn value_list_rest(&mut self) -> Result<Vec<Value>, ParseError> {
        let mut args = Vec::new();
        while !self.eat_punct(')') {
            if !args.is_empty() {
                self.punct(',')?;
            }
            args.push(self.value()?);
        }
        Ok(args)
    }

    fn comma_value(&mut self) -> Result<Value, ParseError> {
        self.punct(',')?;
        self.value()
    }

    fn align(&mut self) -> Result<u32, ParseError> {
        self.expect_word("align")?;
        self.u32_number()
    }

    /// One instruction: `[vN =] opcode[.T] operands`.
    fn inst(&mut self) -> Result<(Option<(Value, Type)>, InstData), ParseError> {
        let line = self.line();
        let first = self.word()?;
        let (result_value, opcode_word) = match Value::parse(&first) {
            Some(v) => {
                self.punct('=')?;
                (Some(v), self.word()?)
            }
            None => (None, first),
        };
        let (opcode, ty) = match opcode_word.split_once('.') {
            Some((op, ty_text)) => {
                let ty = ty_text
                    .parse::<Type>()
                    .map_err(|()| self.error_at(line, format!("unknown type `{ty_text}`")))?;
                (op.to_string(), Some(ty))
            }
            None => (opcode_word.clone(), None),
        };
        let result = match (result_value, ty) {
            (Some(v), Some(t)) => Some((v, t)),
            (Some(_), None) => {
                return Err(self.error_at(
                    line,
                    format!("`{opcode}` with a result needs a `.type` suffix"),
                ))
            }
            (None, _) => None,
        };
        let result_ty = result.map(|r| r.1);
        let data = self.inst_operands(line, &opcode, result_ty)?;
        Ok((result, data))
    }

    fn inst_operands(
        &mut self,
        line: usize,
        opcode: &str,
        result_ty: Option<Type>,
    ) -> Result<InstData, ParseError> {
        if let Some(op) = UnaryOp::from_name(opcode) {
            return Ok(InstData::Unary {
                op,
                arg: self.value()?,
            });
        }
        if let Some(op) = BinaryOp::from_name(opcode) {
            let a = self.value()?;
            let b = self.comma_value()?;
            return Ok(InstData::Binary { op, a, b });
        }
        if let Some(op) = ConvertOp::from_name(opcode) {
            let mut rounding = None;
            let mut saturate = false;
            loop {
                match self.peek() {
                    Some(Tok::Word(w)) if w == "sat" => {
                        saturate = true;
                        self.pos += 1;
                    }
                    Some(Tok::Word(w)) if Rounding::from_name(w).is_some() => {
                        rounding = Rounding::from_name(w);
                        self.pos += 1;
                    }
                    _ => break,
                }
            }
            let arg = self.value()?;
            return Ok(InstData::Convert {
                op,
                arg,
                rounding,
                saturate,
            });
        }
        let data = match opcode {
            "const" => {
                let ty = result_ty.ok_or_else(|| self.error_at(line, "const needs a result"))?;
                InstData::Const {
                    bytes: self.const_literal(ty)?,
                }
            }
            "cmp" => {
                let op = self.named("comparison", CmpOp::from_name)?;
                let a = self.value()?;
                InstData::Cmp {
                    op,
                    a,
                    b: self.comma_value()?,
                }
            }
            "test" => {
                let op = self.named("test", TestOp::from_name)?;
                InstData::Test {
                    op,
                    arg: self.value()?,
                }
            }
            "reduce" => {
                let op = self.named("reduction", ReduceOp::from_name)?;
                InstData::Reduce {
                    op,
                    arg: self.value()?,
                }
            }
            "select" => {
                let cond = self.value()?;
                let a = self.comma_value()?;
                InstData::Select {
                    cond,
                    a,
                    b: self.comma_value()?,
                }
            }
            "load" => {
                let ptr = self.value()?;
                InstData::Load {
                    ptr,
                    align: self.align()?,
                }
            }
            "store" => {
                let ptr = self.value()?;
                let value = self.comma_value()?;
                InstData::Store {
                    ptr,
                    value,
                    align: self.align()?,
                }
            }
            "ptradd" => {
                let ptr = self.value()?;
                InstData::PtrAdd {
                    ptr,
                    offset: self.comma_value()?,
                }
            }
            "stackalloc" => {
                let size = self.u32_number()?;
                InstData::StackAlloc {
                    size,
                    align: self.align()?,
                }
            }
            "globaladdr" => InstData::GlobalAddr {
                global: self.entity()?,
            },
            "memcpy" => {
                let dst = self.value()?;
                let src = self.comma_value()?;
                InstData::Memcpy {
                    dst,
                    src,
                    size: self.comma_value()?,
                }
            }
            "memset" => {
                let dst = self.value()?;
                let byte = self.comma_value()?;
                InstData::Memset {
                    dst,
                    byte,
                    size: self.comma_value()?,
                }
            }
            "extractlane" => {
                let vec = self.value()?;
                self.punct(',')?;
                InstData::ExtractLane {
                    vec,
                    lane: self.lane()?,
                }
            }
            "insertlane" => {
                let vec = self.value()?;
                self.punct(',')?;
                let lane = self.lane()?;
                InstData::InsertLane {
                    vec,
                    lane,
                    value: self.comma_value()?,
                }
            }
            "extractlanedyn" => {
                let vec = self.value()?;
                InstData::ExtractLaneDyn {
                    vec,
                    index: self.comma_value()?,
                }
            }
            "insertlanedyn" => {
                let vec = self.value()?;
                let index = self.comma_value()?;
                InstData::InsertLaneDyn {
                    vec,
                    index,
                    value: self.comma_value()?,
                }
            }
            "shuffle" => {
                let a = self.value()?;
                let b = self.comma_value()?;
                self.punct(',')?;
                self.punct('[')?;
                let mut mask = Vec::new();
                while !self.eat_punct(']') {
                    if !mask.is_empty() {
                        self.punct(',')?;
                    }
                    if matches!(self.peek(), Some(Tok::Word(w)) if w == "undef") {
                        self.pos += 1;
                        mask.push(u32::MAX);
                    } else {
                        mask.push(self.u32_number()?);
                    }
                }
                InstData::Shuffle { a, b, mask }
            }
            "splat" => InstData::Splat {
                value: self.value()?,
            },
            "extractbytes" => {
                let agg = self.value()?;
                self.punct(',')?;
                InstData::ExtractBytes {
                    agg,
                    offset: self.u32_number()?,
                }
            }
            "insertbytes" => {
                let agg = self.value()?;
                self.punct(',')?;
                let offset = self.u32_number()?;
                InstData::InsertBytes {
                    agg,
                    offset,
                    value: self.comma_value()?,
                }
            }
            "workitem" => {
                let query = self.named("work-item query", WorkItemQuery::from_name)?;
                let dim = self.u32_number()?;
                let dim =
                    u8::try_from(dim).map_err(|_| self.error_at(line, "dimension too large"))?;
                InstData::WorkItem { query, dim }
            }
            "workitemdyn" => {
                let query = self.named("work-item query", WorkItemQuery::from_name)?;
                InstData::WorkItemDyn {
                    query,
                    dim: self.value()?,
                }
            }
            "call" => {
                let func = self.entity::<FuncRef>()?;
                self.punct('(')?;
                InstData::Call {
                    func,
                    args: self.value_list_rest()?,
                }
            }
            "builtin" => {
                let func = self.named("builtin", BuiltinFn::from_name)?;
                self.punct('(')?;
                InstData::Builtin {
                    func,
                    args: self.value_list_rest()?,
                }
            }
            "image" => {
                let op = self.named("image operation", ImageOp::from_name)?;
                self.punct('(')?;
                InstData::Image {
                    op,
                    args: self.value_list_rest()?,
                }
            }
            "pipe" => {
                let op = self.named("pipe operation", PipeOp::from_name)?;
                self.punct('(')?;
                InstData::Pipe {
                    op,
                    args: self.value_list_rest()?,
                }
            }
            "enqueue" => {
                let op = self.named("enqueue operation", EnqueueOp::from_name)?;
                let invoke = if op.has_invoke() {
                    Some(self.entity::<FuncRef>()?)
                } else {
                    None
                };
                self.punct('(')?;
                InstData::Enqueue {
                    op,
                    invoke,
                    args: self.value_list_rest()?,
                }
            }
            "barrier" => {
                let exec_scope = self.named("scope", Scope::from_name)?;
                self.punct(',')?;
                let mem_scope = self.named("scope", Scope::from_name)?;
                self.punct(',')?;
                InstData::Barrier {
                    exec_scope,
                    mem_scope,
                    semantics: self.u32_number()?,
                }
            }
            "namedbarrier" => {
                let mem_scope = self.named("scope", Scope::from_name)?;
                self.punct(',')?;
                let semantics = self.u32_number()?;
                InstData::NamedBarrier {
                    barrier: self.value()?,
                    mem_scope,
                    semantics,
                }
            }
            "fence" => {
                let scope = self.named("scope", Scope::from_name)?;
                self.punct(',')?;
                InstData::Fence {
                    scope,
                    semantics: self.u32_number()?,
                }
            }
            "atomic" => self.atomic(line, result_ty)?,
            "jump" => InstData::Jump {
                dest: self.block_call()?,
            },
            "brif" => {
                let cond = self.value()?;
                self.punct(',')?;
                let then_dest = self.block_call()?;
                self.punct(',')?;
                InstData::Brif {
                    cond,
                    then_dest,
                    else_dest: self.block_call()?,
                }
            }
            "switch" => {
                let value = self.value()?;
                self.punct(',')?;
                let default = self.block_call()?;
                self.punct(',')?;
                self.punct('[')?;
                let mut cases = Vec::new();
                while !self.eat_punct(']') {
                    if !cases.is_empty() {
                        self.punct(',')?;
                    }
                    let case = self.number()?;
                    self.punct(':')?;
                    cases.push((case, self.block_call()?));
                }
                InstData::Switch {
                    value,
                    default,
                    cases,
                }
            }
            "return" => {
                let same_line = self.peek_line() == Some(line);
                let has_value = same_line
                    && matches!(self.peek(), Some(Tok::Word(w)) if Value::parse(w).is_some());
                InstData::Return {
                    value: if has_value { Some(self.value()?) } else { None },
                }
            }
            "unreachable" => InstData::Unreachable,
            other => return Err(self.error_at(line, format!("unknown instruction `{other}`"))),
        };
        Ok(data)
    }

    fn lane(&mut self) -> Result<u8, ParseError> {
        let lane = self.u32_number()?;
        u8::try_from(lane).map_err(|_| self.error_at(self.prev_line(), "lane index too large"))
    }

    fn atomic(&mut self, line: usize, result_ty: Option<Type>) -> Result<InstData, ParseError> {
        let ty = match result_ty {
            Some(ty) => ty,
            None => self.ty()?,
        };
        let op = self.named("atomic operation", AtomicOp::from_name)?;
        // flag_test_and_set's result is bool; the memory is a 32-bit flag.
        let ty = if op == AtomicOp::FlagTestAndSet {
            Type::I32
        } else {
            ty
        };
        let scope = self.named("scope", Scope::from_name)?;
        let semantics = self.u32_number()?;
        let semantics_unequal = if op == AtomicOp::CmpXchg {
            self.u32_number()?
        } else {
            0
        };
        let ptr = self.value()?;
        let mut args = Vec::new();
        while self.is_punct(',') && self.peek_line() == Some(line) {
            args.push(self.comma_value()?);
        }
        Ok(InstData::Atomic {
            op,
            ty,
            ptr,
            scope,
            semantics,
            semantics_unequal,
            args,
        })
    }

    /// A constant literal of type `ty` (see `print::write_const`), as little-endian bytes.
    fn const_literal(&mut self, ty: Type) -> Result<Vec<u8>, ParseError> {
        if let Some(Tok::Hex(bytes)) = self.peek() {
            let bytes = bytes.clone();
            self.pos += 1;
            return Ok(bytes);
        }
        match ty {
            Type::Vec(lane, n) => {
                self.punct('[')?;
                let mut bytes = Vec::new();
                for i in 0..n {
                    if i > 0 {
                        self.punct(',')?;
                    }
                    bytes.extend(self.scalar_literal(lane)?);
                }
                self.punct(']')?;
                // A 3-lane vector has the size of 4 lanes.
                bytes.resize(ty.size(64) as usize, 0);
                Ok(bytes)
            }
            Type::Ptr(_) => {
                self.expect_word("null")?;
                // The size depends on the module; store 8 zero bytes, engines read the low part.
                Ok(vec![0; 8])
            }
            t => match t.as_scalar() {
                Some(s) => self.scalar_literal(s),
                None => Err(self.error("expected `#` bytes for an aggregate constant")),
            },
        }
    }

    fn scalar_literal(&mut self, s: ScalarType) -> Result<Vec<u8>, ParseError> {
        let line = self.line();
        let tok = self.next()?;
        let size = s.bytes() as usize;
        let bits: u64 = match (s, &tok) {
            (ScalarType::Bool, Tok::Word(w)) if w == "true" => 1,
            (ScalarType::Bool, Tok::Word(w)) if w == "false" => 0,
            (_, Tok::Num(text)) if s.is_int() || s.is_bool() => parse_int(text)
                .ok_or_else(|| self.error_at(line, format!("bad integer `{text}`")))?
                as u64,
            (_, Tok::Num(text)) if text.starts_with("0x") => parse_int(text)
                .ok_or_else(|| self.error_at(line, format!("bad float bits `{text}`")))?
                as u64,
            (ScalarType::F32, Tok::Num(text)) => u64::from(
                text.parse::<f32>()
                    .map_err(|_| self.error_at(line, format!("bad float `{text}`")))?
                    .to_bits(),
            ),
            (ScalarType::F64, Tok::Num(text)) => text
                .parse::<f64>()
                .map_err(|_| self.error_at(line, format!("bad float `{text}`")))?
                .to_bits(),
            (ScalarType::F16, Tok::Num(text)) => {
                let value = text
                    .parse::<f32>()
                    .map_err(|_| self.error_at(line, format!("bad float `{text}`")))?;
                u64::from(f32_to_f16_exact(value).ok_or_else(|| {
                    self.error_at(
                        line,
                        format!("`{text}` is not exactly an f16; write its bits as 0x…"),
                    )
                })?)
            }
            _ => return Err(self.unexpected(&tok, &format!("a {s} literal"))),
        };
        Ok(bits.to_le_bytes()[..size].to_vec())
    }
}

fn parse_int(text: &str) -> Option<i128> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let magnitude = match digits.strip_prefix("0x") {
        Some(hex) => i128::from_str_radix(hex, 16).ok()?,
        None => digits.parse::<i128>().ok()?,
    };
    Some(if negative { -magnitude } else { magnitude })
}

/// The binary16 bits of `value` if it is exactly representable (text format only).
fn f32_to_f16_exact(value: f32) -> Option<u16> {
    (0..=u16::MAX).find(|&bits| {
        let exact = crate::print::f16_bits_to_f64(bits);
        exact == f64::from(value)
            && (exact != 0.0 || exact.is_sign_negative() == value.is_sign_negative())
    })
}
