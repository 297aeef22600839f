//! Recursive-descent parser: preprocessed tokens → [`crate::ast::TranslationUnit`].
//!
//! Errors are reported to [`Diagnostics`] and the parser recovers by skipping to the next `;` or
//! `}` at the current nesting level, so every syntax error of a file is reported in one run.

mod decl;
mod expr;
mod lit;
mod stmt;

use std::collections::HashSet;

use crate::ast::TranslationUnit;
use crate::diag::Diagnostics;
use crate::lex::{Token, TokenKind};
use crate::source::{FileId, Span};

pub use lit::{parse_char_literal, parse_number, NumberLit};

/// Parses a whole translation unit. Never panics; errors go to `diags`.
pub fn parse(tokens: &[Token], diags: &mut Diagnostics) -> TranslationUnit {
    if tokens.iter().any(|t| gnu_alternate_keyword(t).is_some()) {
        let normalized: Vec<Token> = tokens
            .iter()
            .map(|t| match gnu_alternate_keyword(t) {
                Some(k) => Token {
                    text: k.to_string(),
                    ..t.clone()
                },
                None => t.clone(),
            })
            .collect();
        let mut p = Parser::new(&normalized, diags);
        return p.translation_unit();
    }
    let mut p = Parser::new(tokens, diags);
    p.translation_unit()
}

/// The keyword a GNU alternate spelling stands for (`__const` is `const`, `__inline__` is
/// `inline`, …), which clang-15 accepts in OpenCL C as in C (real-world kernels write
/// `__global __const uchar *`).
fn gnu_alternate_keyword(t: &Token) -> Option<&'static str> {
    if t.kind != TokenKind::Ident || !t.text.starts_with("__") {
        return None;
    }
    Some(match t.text.as_str() {
        "__const" | "__const__" => "const",
        "__volatile" | "__volatile__" => "volatile",
        "__restrict__" => "__restrict",
        "__inline__" => "inline",
        "__signed" | "__signed__" => "signed",
        _ => return None,
    })
}

/// Upper bound on nesting (parentheses, blocks, declarators) so hostile input cannot overflow
/// the stack.
const MAX_DEPTH: u32 = 1000;

pub(crate) struct Parser<'a> {
    toks: &'a [Token],
    pos: usize,
    diags: &'a mut Diagnostics,
    /// Typedef names visible in each open scope (C99 6.7.7); index 0 holds the predefined ones.
    typedef_scopes: Vec<HashSet<String>>,
    depth: u32,
    /// Position of the last error, to report at most one error per token.
    last_error_pos: Option<usize>,
    /// Identifiers in the tokens dropped by error recovery (see `TranslationUnit`).
    recovered_names: HashSet<String>,
}

#[derive(Debug)]
pub(crate) struct Bail;

pub(crate) type PResult<T> = Result<T, Bail>;

impl<'a> Parser<'a> {
    fn new(toks: &'a [Token], diags: &'a mut Diagnostics) -> Parser<'a> {
        let predefined: HashSet<String> = [
            "size_t",
            "ptrdiff_t",
            "intptr_t",
            "uintptr_t",
            "event_t",
            "atomic_int",
            "atomic_uint",
            "atomic_long",
            "atomic_ulong",
            "atomic_float",
            "atomic_double",
            "atomic_intptr_t",
            "atomic_uintptr_t",
            "atomic_size_t",
            "atomic_ptrdiff_t",
            "atomic_flag",
            "memory_order",
            "memory_scope",
            "cl_mem_fence_flags",
            // Known to the parser so that their use gets a clear "not supported" error.
            "image1d_t",
            "image1d_array_t",
            "image1d_buffer_t",
            "image2d_t",
            "image2d_array_t",
            "image2d_depth_t",
            "image2d_array_depth_t",
            "image3d_t",
            "sampler_t",
            "queue_t",
            "clk_event_t",
            "reserve_id_t",
            "ndrange_t",
            // OpenCL C 2.0 §6.13.17 (clang: `typedef int`).
            "kernel_enqueue_flags_t",
            "clk_profiling_info",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        Parser {
            toks,
            pos: 0,
            diags,
            typedef_scopes: vec![predefined, HashSet::new()],
            depth: 0,
            last_error_pos: None,
            recovered_names: HashSet::new(),
        }
    }

    // ---- token access -------------------------------------------------------------------

    pub(crate) fn peek_at(&self, n: usize) -> Option<&'a Token> {
        self.toks.get(self.pos + n)
    }

    pub(crate) fn at_eof(&self) -> bool {
        self.pos >= self.toks.len()
    }

    /// Text of the current token ("" at end of input).
    pub(crate) fn text(&self) -> &'a str {
        self.peek_at(0).map(|t| t.text.as_str()).unwrap_or("")
    }

    pub(crate) fn text_at(&self, n: usize) -> &'a str {
        self.peek_at(n).map(|t| t.text.as_str()).unwrap_or("")
    }

    pub(crate) fn is_punct(&self, s: &str) -> bool {
        matches!(self.peek_at(0), Some(t) if matches!(t.kind, TokenKind::Punct(_)) && t.text == s)
    }

    pub(crate) fn is_punct_at(&self, n: usize, s: &str) -> bool {
        matches!(self.peek_at(n), Some(t) if matches!(t.kind, TokenKind::Punct(_)) && t.text == s)
    }

    pub(crate) fn is_ident(&self) -> bool {
        matches!(self.peek_at(0), Some(t) if matches!(t.kind, TokenKind::Ident))
    }

    pub(crate) fn is_ident_at(&self, n: usize) -> bool {
        matches!(self.peek_at(n), Some(t) if matches!(t.kind, TokenKind::Ident))
    }

    pub(crate) fn is_keyword(&self, s: &str) -> bool {
        self.is_ident() && self.text() == s
    }

    /// Span of the current token, or just past the last token at end of input.
    pub(crate) fn span(&self) -> Span {
        match self.peek_at(0) {
            Some(t) => t.span,
            None => match self.toks.last() {
                Some(t) => Span::new(t.span.file, t.span.end, t.span.end),
                None => Span::new(FileId(0), 0, 0),
            },
        }
    }

    /// Span of the previous token.
    pub(crate) fn prev_span(&self) -> Span {
        if self.pos == 0 {
            return self.span();
        }
        self.toks
            .get(self.pos - 1)
            .map(|t| t.span)
            .unwrap_or_else(|| self.span())
    }

    pub(crate) fn bump(&mut self) -> Option<&'a Token> {
        let t = self.toks.get(self.pos);
        if t.is_some() {
            self.pos += 1;
        }
        t
    }

    pub(crate) fn eat_punct(&mut self, s: &str) -> bool {
        if self.is_punct(s) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    pub(crate) fn eat_keyword(&mut self, s: &str) -> bool {
        if self.is_keyword(s) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    pub(crate) fn expect_punct(&mut self, s: &str) -> PResult<Span> {
        if self.is_punct(s) {
            let sp = self.span();
            self.pos += 1;
            Ok(sp)
        } else {
            let msg = format!("expected '{s}'");
            Err(self.error_here(msg))
        }
    }

    /// `;` after `what` ("expression", "return statement", …), reported clang-style just
    /// after the previous token.
    pub(crate) fn expect_semi(&mut self, what: &str) -> PResult<Span> {
        if self.is_punct(";") {
            let sp = self.span();
            self.pos += 1;
            return Ok(sp);
        }
        if self.last_error_pos != Some(self.pos) {
            self.last_error_pos = Some(self.pos);
            let prev = self.prev_span();
            let at = Span::new(prev.file, prev.end, prev.end);
            self.diags.error(at, format!("expected ';' {what}"));
        }
        Err(Bail)
    }

    pub(crate) fn expect_ident(&mut self) -> PResult<(String, Span)> {
        if self.is_ident() {
            let t = &self.toks[self.pos];
            self.pos += 1;
            Ok((t.text.clone(), t.span))
        } else {
            Err(self.error_here("expected identifier"))
        }
    }

    /// Reports an error at the current token (at most once per position) and returns `Bail`.
    pub(crate) fn error_here(&mut self, msg: impl Into<String>) -> Bail {
        if self.last_error_pos != Some(self.pos) {
            self.last_error_pos = Some(self.pos);
            let sp = self.span();
            self.diags.error(sp, msg);
        }
        Bail
    }

    pub(crate) fn error_at(&mut self, span: Span, msg: impl Into<String>) {
        self.diags.error(span, msg);
    }

    pub(crate) fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            self.depth -= 1;
            return Err(self.error_here("nesting too deep"));
        }
        Ok(())
    }

    pub(crate) fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// Skips to just after the next `;` (or to a `}` which is left in place) at the current
    /// nesting level.
    pub(crate) fn recover_to_semi(&mut self) {
        let mut depth = 0i32;
        while let Some(t) = self.peek_at(0) {
            if matches!(t.kind, TokenKind::Punct(_)) {
                match t.text.as_str() {
                    "(" | "[" | "{" => depth += 1,
                    // A stray closer at this level is skipped, not counted: it must not
                    // make the `}` of an enclosing block look nested.
                    ")" | "]" => depth = (depth - 1).max(0),
                    "}" => {
                        if depth <= 0 {
                            return;
                        }
                        depth -= 1;
                        if depth == 0 {
                            self.pos += 1;
                            // A closed block at top nesting ends a statement too.
                            return;
                        }
                    }
                    ";" if depth <= 0 => {
                        self.pos += 1;
                        return;
                    }
                    _ => {}
                }
            }
            self.pos += 1;
        }
    }

    /// Remembers the identifiers of `toks[start..self.pos]`, a region given up by error
    /// recovery.
    pub(crate) fn note_dropped(&mut self, start: usize) {
        let end = self.pos.min(self.toks.len());
        for t in self.toks.get(start..end).unwrap_or(&[]) {
            if matches!(t.kind, TokenKind::Ident) {
                self.recovered_names.insert(t.text.clone());
            }
        }
    }

    /// After a failed external declaration: skips to the `;` ending it or past the `}` that
    /// closes a function body, so the body's statements are not read as declarations.
    fn recover_top_level(&mut self) {
        let mut depth = 0i32;
        while let Some(t) = self.peek_at(0) {
            self.pos += 1;
            if !matches!(t.kind, TokenKind::Punct(_)) {
                continue;
            }
            match t.text.as_str() {
                "(" | "[" | "{" => depth += 1,
                ")" | "]" => depth = (depth - 1).max(0),
                "}" => {
                    depth = (depth - 1).max(0);
                    if depth == 0 {
                        return;
                    }
                }
                ";" if depth == 0 => return,
                _ => {}
            }
        }
    }

    // ---- typedef scopes -----------------------------------------------------------------

    pub(crate) fn push_scope(&mut self) {
        self.typedef_scopes.push(HashSet::new());
    }

    pub(crate) fn pop_scope(&mut self) {
        if self.typedef_scopes.len() > 2 {
            self.typedef_scopes.pop();
        }
    }

    pub(crate) fn add_typedef(&mut self, name: &str) {
        if let Some(s) = self.typedef_scopes.last_mut() {
            s.insert(name.to_string());
        }
    }

    pub(crate) fn is_typedef_name(&self, name: &str) -> bool {
        self.typedef_scopes.iter().any(|s| s.contains(name))
    }

    // ---- top level ----------------------------------------------------------------------

    fn translation_unit(&mut self) -> TranslationUnit {
        let mut tu = TranslationUnit::default();
        while !self.at_eof() {
            let start = self.pos;
            if self.eat_punct(";") {
                continue;
            }
            match self.external_decl() {
                Ok(Some(d)) => tu.items.push(d),
                Ok(None) => {}
                Err(Bail) => {
                    self.recover_top_level();
                    self.note_dropped(start);
                }
            }
            if self.pos == start {
                // Guarantee progress whatever happened.
                self.pos += 1;
            }
        }
        tu.recovered_names = std::mem::take(&mut self.recovered_names);
        tu
    }
}

/// The keyword spellings that start a type (not counting typedef names).
pub(crate) fn is_type_keyword(s: &str) -> bool {
    matches!(
        s,
        "void"
            | "bool"
            | "char"
            | "uchar"
            | "short"
            | "ushort"
            | "int"
            | "uint"
            | "long"
            | "ulong"
            | "float"
            | "double"
            | "half"
            | "unsigned"
            | "signed"
            | "struct"
            | "union"
            | "enum"
    ) || lit::vector_type_name(s).is_some()
}

pub(crate) fn is_qualifier_keyword(s: &str) -> bool {
    matches!(
        s,
        "const"
            | "volatile"
            | "restrict"
            | "__restrict"
            | "__global"
            | "global"
            | "__local"
            | "local"
            | "__constant"
            | "constant"
            | "__private"
            | "private"
            | "__generic"
            | "generic"
            | "__read_only"
            | "read_only"
            | "__write_only"
            | "write_only"
            | "__read_write"
            | "read_write"
    )
}

pub(crate) fn is_decl_start_keyword(s: &str) -> bool {
    is_type_keyword(s)
        || is_qualifier_keyword(s)
        || matches!(
            s,
            "typedef"
                | "extern"
                | "static"
                | "__kernel"
                | "kernel"
                | "inline"
                | "__inline"
                | "__attribute__"
        )
}
