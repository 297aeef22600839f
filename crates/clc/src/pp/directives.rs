//! Preprocessing directives (C99 6.10): conditional inclusion (6.10.1), `#include` (6.10.2),
//! `#define`/`#undef` (6.10.3, 6.10.3.5), `#line` (6.10.4), `#error` (6.10.5), `#pragma` (6.10.6,
//! with OpenCL's `OPENCL EXTENSION` and `OPENCL FP_CONTRACT`), the null directive (6.10.7), the
//! `_Pragma` operator (6.10.9), and `#warning` (a common extension).

use std::collections::VecDeque;
use std::path::{Path, PathBuf};

use super::expr;
use super::macros::{Macro, PpTok};
use super::{
    Cond, CondState, ExtensionPragma, FpContract, FpContractPragma, Preprocessor, MAX_INCLUDE_DEPTH,
};
use crate::lex::{self, Punct, Token, TokenKind};
use crate::source::Span;

impl Preprocessor<'_> {
    /// Handles one directive line: `hash` is the `#`, `line` the tokens after it on its line.
    pub(super) fn directive(&mut self, hash: Token, line: Vec<Token>) {
        let active = self.files.last().is_some_and(|c| c.active());
        // C99 6.10.7: the null directive.
        let Some(first) = line.first() else {
            return;
        };
        let rest = &line[1..];
        let name = match first.kind {
            TokenKind::Ident => first.text.as_str(),
            // `# 33 "file"`: a GNU line marker, treated as `#line`.
            TokenKind::Number if active => {
                self.line_directive(first, &line);
                return;
            }
            _ if active => {
                self.diags
                    .error(first.span, "invalid preprocessing directive");
                return;
            }
            _ => return,
        };
        match name {
            "if" | "ifdef" | "ifndef" => {
                let state = if active {
                    let taken = if name == "if" {
                        self.eval_condition(first, rest)
                    } else {
                        let defined = self
                            .ifdef_name(first, rest)
                            .is_some_and(|n| self.macros.contains_key(&n));
                        defined == (name == "ifdef")
                    };
                    if taken {
                        CondState::Active
                    } else {
                        CondState::Pending
                    }
                } else {
                    CondState::Dead
                };
                if let Some(ctx) = self.files.last_mut() {
                    ctx.conds.push(Cond {
                        state,
                        seen_else: false,
                        span: first.span,
                    });
                }
            }
            "elif" => {
                let Some(cond) = self.files.last().and_then(|c| c.conds.last()).cloned() else {
                    self.diags.error(first.span, "#elif without #if");
                    return;
                };
                if cond.seen_else {
                    self.diags.error(first.span, "#elif after #else");
                }
                let state = match cond.state {
                    CondState::Active => CondState::Done,
                    CondState::Pending => {
                        if self.eval_condition(first, rest) {
                            CondState::Active
                        } else {
                            CondState::Pending
                        }
                    }
                    s => s,
                };
                self.set_cond(state, cond.seen_else);
            }
            "else" => {
                let Some(cond) = self.files.last().and_then(|c| c.conds.last()).cloned() else {
                    self.diags.error(first.span, "#else without #if");
                    return;
                };
                if cond.seen_else {
                    self.diags.error(first.span, "#else after #else");
                }
                self.extra_tokens(rest, "else");
                let state = match cond.state {
                    CondState::Active => CondState::Done,
                    CondState::Pending => CondState::Active,
                    s => s,
                };
                self.set_cond(state, true);
            }
            "endif" => {
                let popped = self.files.last_mut().and_then(|c| c.conds.pop());
                if popped.is_none() {
                    self.diags.error(first.span, "#endif without #if");
                    return;
                }
                self.extra_tokens(rest, "endif");
            }
            _ if !active => {}
            "define" => self.define(first, rest),
            "undef" => {
                if let Some(n) = self.macro_name(first, rest) {
                    self.macros.remove(&n);
                    self.extra_tokens(&rest[1..], "undef");
                }
            }
            "include" => self.include(first, rest),
            "line" => self.line_directive(first, rest),
            "error" | "warning" => {
                let text = lex::tokens_to_string(&strip_line_start(rest));
                let msg = if text.is_empty() {
                    format!("#{name}")
                } else {
                    text
                };
                if name == "error" {
                    self.diags.error(first.span, msg);
                } else {
                    self.diags.warning(first.span, msg);
                }
            }
            "pragma" => {
                let span = hash.span.to(first.span);
                self.pragma(rest, span);
            }
            _ => self
                .diags
                .error(first.span, "invalid preprocessing directive"),
        }
    }

    fn set_cond(&mut self, state: CondState, seen_else: bool) {
        if let Some(c) = self.files.last_mut().and_then(|c| c.conds.last_mut()) {
            c.state = state;
            c.seen_else = seen_else;
        }
    }

    fn extra_tokens(&mut self, rest: &[Token], directive: &str) {
        if let Some(t) = rest.first() {
            self.diags.warning(
                t.span,
                format!("extra tokens at end of #{directive} directive"),
            );
        }
    }

    /// The macro name operand of `#define`, `#undef`, `#ifdef`, `#ifndef`.
    fn macro_name(&mut self, directive: &Token, rest: &[Token]) -> Option<String> {
        let Some(t) = rest.first() else {
            self.diags.error(directive.span, "macro name missing");
            return None;
        };
        if t.kind != TokenKind::Ident {
            self.diags.error(t.span, "macro name must be an identifier");
            return None;
        }
        if t.text == "defined" {
            self.diags
                .error(t.span, "'defined' cannot be used as a macro name");
            return None;
        }
        Some(t.text.clone())
    }

    fn ifdef_name(&mut self, directive: &Token, rest: &[Token]) -> Option<String> {
        let n = self.macro_name(directive, rest)?;
        self.extra_tokens(&rest[1..], &directive.text);
        Some(n)
    }

    /// `#define` (C99 6.10.3).
    fn define(&mut self, directive: &Token, rest: &[Token]) {
        let Some(name) = self.macro_name(directive, rest) else {
            return;
        };
        let name_tok = &rest[0];
        let mut i = 1;
        let mut params = None;
        let mut variadic = false;
        // Function-like only when `(` follows the name with no white space (6.10.3p3).
        if rest
            .get(1)
            .is_some_and(|t| t.is_punct(Punct::LParen) && !t.leading_space)
        {
            i = 2;
            let mut list: Vec<String> = Vec::new();
            let mut expect_param = true;
            loop {
                let Some(t) = rest.get(i) else {
                    self.diags
                        .error(name_tok.span, "missing ')' in macro parameter list");
                    return;
                };
                i += 1;
                match &t.kind {
                    TokenKind::Punct(Punct::RParen) if !expect_param || list.is_empty() => break,
                    TokenKind::Punct(Punct::Comma) if !expect_param => expect_param = true,
                    TokenKind::Ident if expect_param && !variadic => {
                        if t.text == "__VA_ARGS__" {
                            self.diags.error(
                                t.span,
                                "__VA_ARGS__ can only appear in the expansion of a C99 variadic macro",
                            );
                            return;
                        }
                        if list.contains(&t.text) {
                            self.diags.error(
                                t.span,
                                format!("duplicate macro parameter name '{}'", t.text),
                            );
                            return;
                        }
                        list.push(t.text.clone());
                        expect_param = false;
                    }
                    TokenKind::Punct(Punct::Ellipsis) if expect_param => {
                        variadic = true;
                        list.push("__VA_ARGS__".to_string());
                        expect_param = false;
                        if !rest.get(i).is_some_and(|t| t.is_punct(Punct::RParen)) {
                            let span = rest.get(i).map_or(t.span, |t| t.span);
                            self.diags
                                .error(span, "missing ')' in macro parameter list");
                            return;
                        }
                    }
                    _ => {
                        let msg = if expect_param {
                            "invalid macro parameter name"
                        } else {
                            "expected ',' or ')' in macro parameter list"
                        };
                        self.diags.error(t.span, msg);
                        return;
                    }
                }
            }
            params = Some(list);
        }
        let mut body: Vec<Token> = rest[i..].to_vec();
        if let Some(first) = body.first_mut() {
            first.leading_space = false;
        }
        // 6.10.3.3p1: `##` shall not occur at the beginning or end of a replacement list.
        let ends = [body.first(), body.last()];
        if let Some(t) = ends
            .into_iter()
            .flatten()
            .find(|t| t.is_punct(Punct::HashHash))
        {
            self.diags.error(
                t.span,
                "'##' cannot appear at either end of a macro expansion",
            );
            return;
        }
        if let Some(list) = &params {
            // 6.10.3.2p1: each `#` is followed by a parameter.
            for (k, t) in body.iter().enumerate() {
                if t.is_punct(Punct::Hash)
                    && !body
                        .get(k + 1)
                        .is_some_and(|n| n.kind == TokenKind::Ident && list.contains(&n.text))
                {
                    self.diags
                        .error(t.span, "'#' is not followed by a macro parameter");
                    return;
                }
            }
        }
        if !variadic {
            if let Some(t) = body.iter().find(|t| t.is_ident("__VA_ARGS__")) {
                self.diags.warning(
                    t.span,
                    "__VA_ARGS__ can only appear in the expansion of a C99 variadic macro",
                );
            }
        }
        let m = Macro {
            params,
            variadic,
            body,
            def_span: name_tok.span,
            builtin: None,
        };
        if let Some(old) = self.macros.get(&name) {
            if !old.same_definition(&m) {
                let old_span = old.def_span;
                self.diags
                    .warning(name_tok.span, format!("'{name}' macro redefined"));
                if old.builtin.is_none() {
                    self.diags.note(old_span, "previous definition is here");
                }
            }
        }
        self.macros.insert(name, std::rc::Rc::new(m));
    }

    /// `#if`/`#elif` (C99 6.10.1): `defined` operators, then macro expansion, then evaluation.
    fn eval_condition(&mut self, directive: &Token, rest: &[Token]) -> bool {
        if rest.is_empty() {
            self.diags.error(
                directive.span,
                format!("#{} with no expression", directive.text),
            );
            return false;
        }
        // Macro expansion, except for the operand of `defined` (also when `defined` comes from a
        // macro expansion, which is undefined behaviour, handled as clang does).
        let mut input: VecDeque<PpTok> = rest.iter().cloned().map(PpTok::plain).collect();
        let mut out = Vec::new();
        while let Some(t) = input.pop_front() {
            if t.tok.is_ident("defined") {
                out.push(t);
                let paren = input.front().is_some_and(|n| n.tok.is_punct(Punct::LParen));
                for _ in 0..if paren { 3 } else { 1 } {
                    if let Some(n) = input.pop_front() {
                        out.push(n);
                    }
                }
                continue;
            }
            if let Some(t) = self.try_expand(t, &mut input, false) {
                out.push(t);
            }
        }
        let expanded = self.replace_defined(out);
        let toks: Vec<Token> = expanded.into_iter().map(|t| t.tok).collect();
        match expr::evaluate(&toks, directive.span, self.diags) {
            Some(v) => v != 0,
            None => false,
        }
    }

    /// Replaces `defined X` and `defined ( X )` by `1` or `0` (C99 6.10.1p1).
    fn replace_defined(&mut self, toks: Vec<PpTok>) -> Vec<PpTok> {
        let mut out = Vec::with_capacity(toks.len());
        let mut i = 0;
        while i < toks.len() {
            let t = &toks[i];
            if !t.tok.is_ident("defined") {
                out.push(t.clone());
                i += 1;
                continue;
            }
            let paren = toks
                .get(i + 1)
                .is_some_and(|n| n.tok.is_punct(Punct::LParen));
            let name_at = if paren { i + 2 } else { i + 1 };
            let name = toks.get(name_at).filter(|n| n.tok.kind == TokenKind::Ident);
            let Some(name) = name else {
                self.diags
                    .error(t.tok.span, "macro name missing after 'defined'");
                // Leave a 0 so that the expression still parses.
                out.push(number_token(&t.tok, 0));
                i = name_at;
                continue;
            };
            let value = u64::from(self.macros.contains_key(&name.tok.text));
            let mut end = name_at + 1;
            if paren {
                if toks.get(end).is_some_and(|n| n.tok.is_punct(Punct::RParen)) {
                    end += 1;
                } else {
                    self.diags
                        .error(name.tok.span, "missing ')' after 'defined'");
                }
            }
            out.push(number_token(&t.tok, value));
            i = end;
        }
        out
    }

    /// `#include "…"` / `#include <…>` / `#include macro-tokens` (C99 6.10.2).
    fn include(&mut self, directive: &Token, rest: &[Token]) {
        let Some((name, angled, extra)) = self.header_name(directive, rest) else {
            return;
        };
        if let Some(t) = extra {
            self.diags
                .warning(t.span, "extra tokens at end of #include directive");
        }
        if name.is_empty() {
            self.diags.error(directive.span, "empty filename");
            return;
        }
        if self.files.len() > MAX_INCLUDE_DEPTH {
            self.diags
                .error(directive.span, "#include nested too deeply");
            return;
        }
        if self.include_embedded(&name, angled) {
            return;
        }
        let Some(path) = self.find_include(&name, angled) else {
            self.diags
                .error(directive.span, format!("'{name}' file not found"));
            return;
        };
        if let Ok(canon) = std::fs::canonicalize(&path) {
            if self.pragma_once.contains(&canon) {
                return;
            }
        }
        let display = path.to_string_lossy().into_owned();
        // A header included again (e.g. behind include guards) is read once.
        if let Some(file) = self.sources.find(&display) {
            let dir = path.parent().map(Path::to_path_buf);
            self.push_file(file, dir);
            return;
        }
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) => {
                self.diags.error(
                    directive.span,
                    format!("cannot read '{}': {e}", path.display()),
                );
                return;
            }
        };
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let file = self.sources.add_file(display, text);
        let dir = path.parent().map(Path::to_path_buf);
        self.push_file(file, dir);
    }

    /// The header name of an `#include`: (name, angled, first extra token).
    fn header_name(
        &mut self,
        directive: &Token,
        rest: &[Token],
    ) -> Option<(String, bool, Option<Token>)> {
        let Some(first) = rest.first() else {
            self.diags
                .error(directive.span, "expected \"FILENAME\" or <FILENAME>");
            return None;
        };
        if first.kind == TokenKind::StringLit && first.text.starts_with('"') {
            let name = first.text[1..first.text.len() - 1].to_string();
            return Some((name, false, rest.get(1).cloned()));
        }
        if first.is_punct(Punct::Lt) {
            // C99 6.10.2p2: the characters between `<` and `>`, read from the source text.
            let text = self.sources.text(first.span.file);
            let start = first.span.end as usize;
            let line_end = text[start..].find('\n').map_or(text.len(), |k| start + k);
            let Some(close) = text[start..line_end].find('>') else {
                self.diags.error(first.span, "expected '>'");
                return None;
            };
            let name = text[start..start + close].to_string();
            let close_off = (start + close) as u32;
            let extra = rest.iter().find(|t| t.span.start > close_off).cloned();
            return Some((name, true, extra));
        }
        // C99 6.10.2p4: macro-expanded form.
        let toks: Vec<PpTok> = rest.iter().cloned().map(PpTok::plain).collect();
        let expanded: Vec<Token> = self.expand_list(&toks).into_iter().map(|t| t.tok).collect();
        match expanded.first() {
            Some(t) if t.kind == TokenKind::StringLit && t.text.starts_with('"') => Some((
                t.text[1..t.text.len() - 1].to_string(),
                false,
                expanded.get(1).cloned(),
            )),
            Some(t) if t.is_punct(Punct::Lt) => {
                let Some(close) = expanded.iter().position(|t| t.is_punct(Punct::Gt)) else {
                    self.diags.error(t.span, "expected '>'");
                    return None;
                };
                let name = lex::tokens_to_string(&strip_line_start(&expanded[1..close]));
                Some((name, true, expanded.get(close + 1).cloned()))
            }
            _ => {
                self.diags
                    .error(first.span, "expected \"FILENAME\" or <FILENAME>");
                None
            }
        }
    }

    /// Includes an embedded header named `name` if there is one (searched before the
    /// directories, API 5.8.3); returns whether it did.
    fn include_embedded(&mut self, name: &str, angled: bool) -> bool {
        let mut candidates = Vec::new();
        if !angled {
            if let Some(d) = self.files.last().and_then(|f| f.embedded_dir.clone()) {
                if !d.is_empty() {
                    candidates.push(format!("{d}/{name}"));
                }
            }
        }
        candidates.push(name.to_string());
        let found = candidates.into_iter().find_map(|c| {
            self.headers
                .iter()
                .find(|(n, _)| *n == c)
                .map(|(n, text)| (n.clone(), text.clone()))
        });
        let Some((hname, text)) = found else {
            return false;
        };
        let file = match self.embedded_files.get(&hname) {
            Some(&f) => f,
            None => {
                let f = self.sources.add_file(hname.clone(), text);
                self.embedded_files.insert(hname.clone(), f);
                f
            }
        };
        if self.once_files.contains(&file) {
            return true;
        }
        self.push_file(file, None);
        if let Some(ctx) = self.files.last_mut() {
            let dir = hname.rsplit_once('/').map_or("", |(d, _)| d);
            ctx.embedded_dir = Some(dir.to_string());
        }
        true
    }

    /// Search order: `"…"` looks in the including file's directory, then the `-I` directories;
    /// `<…>` only in the `-I` directories.
    fn find_include(&self, name: &str, angled: bool) -> Option<PathBuf> {
        let p = Path::new(name);
        if p.is_absolute() {
            return p.is_file().then(|| p.to_path_buf());
        }
        let mut candidates = Vec::new();
        if !angled {
            let dir = self
                .files
                .iter()
                .rev()
                .find_map(|f| f.dir.clone())
                .unwrap_or_default();
            candidates.push(dir.join(name));
        }
        for d in &self.include_dirs {
            candidates.push(d.join(name));
        }
        candidates.into_iter().find(|c| c.is_file())
    }

    /// `#line digit-sequence ["s-char-sequence"]` (C99 6.10.4), after macro expansion.
    fn line_directive(&mut self, directive: &Token, rest: &[Token]) {
        let toks: Vec<PpTok> = rest.iter().cloned().map(PpTok::plain).collect();
        let expanded: Vec<Token> = if rest.first().is_some_and(|t| t.kind == TokenKind::Number) {
            rest.to_vec()
        } else {
            self.expand_list(&toks).into_iter().map(|t| t.tok).collect()
        };
        let Some(num) = expanded.first() else {
            self.diags.error(
                directive.span,
                "#line directive requires a simple digit sequence",
            );
            return;
        };
        let line = if num.kind == TokenKind::Number && num.text.bytes().all(|b| b.is_ascii_digit())
        {
            num.text.parse::<u32>().ok().filter(|&n| n <= 2147483647)
        } else {
            None
        };
        let Some(line) = line else {
            self.diags
                .error(num.span, "#line directive requires a simple digit sequence");
            return;
        };
        let mut name = None;
        if let Some(s) = expanded.get(1) {
            if s.kind == TokenKind::StringLit && s.text.starts_with('"') {
                name = Some(unescape_simple(&s.text[1..s.text.len() - 1]));
            } else {
                let what = if directive.kind == TokenKind::Number {
                    "line marker"
                } else {
                    "#line"
                };
                self.diags
                    .error(s.span, format!("invalid filename for {what} directive"));
                return;
            }
        }
        // The directive applies from the start of the next line.
        let Some(ctx) = self.files.last() else {
            return;
        };
        let file = ctx.file;
        let last = rest.last().map_or(directive.span, |t| t.span);
        let text = self.sources.text(file);
        let from = (last.end as usize).min(text.len());
        if let Some(k) = text[from..].find('\n') {
            let offset = (from + k + 1) as u32;
            self.sources.add_line_directive(file, offset, line, name);
        }
    }

    /// `#pragma` (C99 6.10.6): the OpenCL pragmas, `once`; others are ignored.
    pub(super) fn pragma(&mut self, toks: &[Token], span: Span) {
        let words: Vec<&str> = toks.iter().map(|t| t.text.as_str()).collect();
        let token_index = self.result.tokens.len();
        match words.as_slice() {
            ["OPENCL", "EXTENSION", name, ":", behavior] => {
                let enable = match *behavior {
                    "enable" => true,
                    "disable" => false,
                    _ => {
                        self.diags
                            .warning(toks[4].span, "expected 'enable' or 'disable' - ignoring");
                        return;
                    }
                };
                if *name != "all" && !self.extensions.iter().any(|e| e == name) {
                    self.diags.warning(
                        toks[2].span,
                        format!("unsupported OpenCL extension '{name}' - ignoring"),
                    );
                    return;
                }
                self.result.extension_pragmas.push(ExtensionPragma {
                    name: name.to_string(),
                    enable,
                    span,
                    token_index,
                });
            }
            ["OPENCL", "EXTENSION", ..] => {
                let at = toks.get(2).map_or(span, |t| t.span);
                self.diags.warning(
                    at,
                    "expected '#pragma OPENCL EXTENSION name : enable|disable' - ignoring",
                );
            }
            ["OPENCL", "FP_CONTRACT", state] => {
                let state = match *state {
                    "ON" => FpContract::On,
                    "OFF" => FpContract::Off,
                    "DEFAULT" => FpContract::Default,
                    _ => {
                        self.diags.warning(
                            toks[2].span,
                            "expected 'ON' or 'OFF' or 'DEFAULT' in pragma",
                        );
                        return;
                    }
                };
                self.result.fp_contract_pragmas.push(FpContractPragma {
                    state,
                    span,
                    token_index,
                });
            }
            ["OPENCL", ..] => {
                self.diags.warning(span, "unknown OpenCL pragma ignored");
            }
            ["once"] => {
                if let Some(ctx) = self.files.last() {
                    self.once_files.insert(ctx.file);
                    let name = self.sources.name(ctx.file).to_string();
                    if let Ok(canon) = std::fs::canonicalize(name) {
                        self.pragma_once.insert(canon);
                    }
                }
            }
            // C99 6.10.6p1: any other pragma is ignored.
            _ => {}
        }
    }

    /// `_Pragma ( string-literal )` (C99 6.10.9): destringized and handled as a `#pragma`.
    pub(super) fn pragma_operator(&mut self, op: &PpTok, input: &mut VecDeque<PpTok>) {
        let lp = self.pull(input, true);
        let s = self.pull(input, true);
        let rp = self.pull(input, true);
        let ok = lp.as_ref().is_some_and(|t| t.tok.is_punct(Punct::LParen))
            && s.as_ref()
                .is_some_and(|t| t.tok.kind == TokenKind::StringLit)
            && rp.as_ref().is_some_and(|t| t.tok.is_punct(Punct::RParen));
        let (true, Some(s)) = (ok, s) else {
            self.diags
                .error(op.tok.span, "_Pragma takes a parenthesized string literal");
            return;
        };
        let text = s.tok.text.trim_start_matches(['L', 'u', 'U', '8']);
        let inner = text.get(1..text.len().saturating_sub(1)).unwrap_or("");
        let destringized = inner.replace("\\\"", "\"").replace("\\\\", "\\");
        let mut scratch = crate::diag::Diagnostics::new();
        let mut toks = lex::lex_raw(op.tok.span.file, &destringized, &mut scratch);
        for t in &mut toks {
            t.span = op.tok.span;
        }
        self.pragma(&toks, op.tok.span);
    }
}

fn number_token(at: &Token, value: u64) -> PpTok {
    PpTok::plain(Token {
        kind: TokenKind::Number,
        text: value.to_string(),
        span: at.span,
        leading_space: at.leading_space,
        line_start: false,
    })
}

fn strip_line_start(toks: &[Token]) -> Vec<Token> {
    toks.iter()
        .cloned()
        .map(|mut t| {
            t.line_start = false;
            t
        })
        .collect()
}

/// `\"` → `"` and `\\` → `\` (the escapes a file name in `#line` may need).
fn unescape_simple(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(n) = chars.next() {
                out.push(n);
            }
        } else {
            out.push(c);
        }
    }
    out
}
