//! Macro definitions and expansion (C99 6.10.3).
//!
//! Expansion follows Prosser's algorithm: every token carries a *hide set*, the names of the
//! macros whose expansion produced it. A name in its own hide set is never expanded again
//! (C99 6.10.3.4p2, "painted blue"), not even when it is rescanned later in another context.
//! The result of an expansion is pushed back in front of the remaining input and rescanned
//! together with it (6.10.3.4p1), so an expansion can take its arguments from the tokens that
//! follow it.

use std::collections::{HashMap, VecDeque};
use std::rc::Rc;

use super::Preprocessor;
use crate::lex::{self, Punct, Token, TokenKind};
use crate::source::Span;

/// A macro definition.
#[derive(Debug, Clone)]
pub(crate) struct Macro {
    /// `Some` for a function-like macro: the parameter names (`__VA_ARGS__` last when variadic).
    pub params: Option<Vec<String>>,
    pub variadic: bool,
    pub body: Vec<Token>,
    /// The macro name in its `#define` (for "previous definition" notes).
    pub def_span: Span,
    pub builtin: Option<Builtin>,
}

/// Macros whose value depends on where they are used (C99 6.10.8).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Builtin {
    File,
    Line,
    Date,
    Time,
    /// `__COUNTER__` (a clang/GCC extension): 0, 1, 2, … at each use.
    Counter,
}

impl Macro {
    /// C99 6.10.3p2: two definitions are the same when their parameters and replacement lists
    /// are identical (same spellings, same white-space separation).
    pub fn same_definition(&self, other: &Macro) -> bool {
        self.params == other.params
            && self.variadic == other.variadic
            && self.body.len() == other.body.len()
            && self
                .body
                .iter()
                .zip(&other.body)
                .enumerate()
                .all(|(i, (a, b))| {
                    a.text == b.text && (i == 0 || a.leading_space == b.leading_space)
                })
    }

    fn param_index(&self, t: &Token) -> Option<usize> {
        if t.kind != TokenKind::Ident {
            return None;
        }
        self.params.as_ref()?.iter().position(|p| *p == t.text)
    }
}

/// A hide set: an index into [`HideSets`]; 0 is the empty set.
pub(crate) type HideSet = u32;

/// Interned hide sets (sorted macro-name ids), with memoized unions: expansion adds a hide set
/// to every token it produces, so this must be cheap.
#[derive(Default)]
pub(crate) struct HideSets {
    names: HashMap<String, u32>,
    /// `sets[0]` is the empty set.
    sets: Vec<Vec<u32>>,
    index: HashMap<Vec<u32>, u32>,
    unions: HashMap<(u32, u32), u32>,
}

impl HideSets {
    pub fn new() -> HideSets {
        HideSets {
            sets: vec![Vec::new()],
            ..HideSets::default()
        }
    }

    fn intern_set(&mut self, set: Vec<u32>) -> HideSet {
        if set.is_empty() {
            return 0;
        }
        if let Some(&id) = self.index.get(&set) {
            return id;
        }
        let id = self.sets.len() as u32;
        self.sets.push(set.clone());
        self.index.insert(set, id);
        id
    }

    fn set(&self, h: HideSet) -> &[u32] {
        self.sets.get(h as usize).map_or(&[], |s| s.as_slice())
    }

    pub fn contains(&self, h: HideSet, name: &str) -> bool {
        if h == 0 {
            return false;
        }
        self.names
            .get(name)
            .is_some_and(|id| self.set(h).binary_search(id).is_ok())
    }

    pub fn with(&mut self, h: HideSet, name: &str) -> HideSet {
        let next = self.names.len() as u32;
        let id = *self.names.entry(name.to_string()).or_insert(next);
        let single = self.intern_set(vec![id]);
        self.union(h, single)
    }

    pub fn union(&mut self, a: HideSet, b: HideSet) -> HideSet {
        if a == 0 || a == b {
            return b;
        }
        if b == 0 {
            return a;
        }
        let key = (a.min(b), a.max(b));
        if let Some(&u) = self.unions.get(&key) {
            return u;
        }
        let mut merged: Vec<u32> = self.set(a).iter().chain(self.set(b)).copied().collect();
        merged.sort_unstable();
        merged.dedup();
        let u = self.intern_set(merged);
        self.unions.insert(key, u);
        u
    }

    pub fn intersection(&mut self, a: HideSet, b: HideSet) -> HideSet {
        if a == 0 || b == 0 {
            return 0;
        }
        let sb = self.set(b);
        let common: Vec<u32> = self
            .set(a)
            .iter()
            .copied()
            .filter(|x| sb.binary_search(x).is_ok())
            .collect();
        self.intern_set(common)
    }
}

/// Maximum nesting of parentheses in macro arguments and of macro invocations inside macro
/// arguments (clang's bracket depth limit is also 256).
const MAX_ARGUMENT_NESTING: u32 = 256;

/// Maximum number of tokens all macro expansions of one translation unit may produce (a bound
/// on time and memory; real OpenCL programs stay far below it).
const MAX_PRODUCED_TOKENS: u64 = 2_000_000;

/// A token during expansion.
#[derive(Debug, Clone)]
pub(crate) struct PpTok {
    pub tok: Token,
    pub hide: HideSet,
    /// A placemarker (C99 6.10.3.3p2): stands for an empty argument next to `##`.
    pub placemarker: bool,
}

impl PpTok {
    pub fn plain(tok: Token) -> PpTok {
        PpTok {
            tok,
            hide: 0,
            placemarker: false,
        }
    }
}

/// One macro argument: its tokens as written, and (computed when first needed) fully expanded.
struct Arg {
    raw: Vec<PpTok>,
    expanded: Option<Vec<PpTok>>,
}

impl Preprocessor<'_> {
    /// The next token: from `input` first, then (when `from_file`) from the files.
    pub(super) fn pull(&mut self, input: &mut VecDeque<PpTok>, from_file: bool) -> Option<PpTok> {
        if let Some(t) = input.pop_front() {
            return Some(t);
        }
        if from_file {
            self.next_file_token().map(PpTok::plain)
        } else {
            None
        }
    }

    /// If `t` names a macro that may be expanded here, expands it (pushing the replacement in
    /// front of `input`) and returns `None`; otherwise gives `t` back.
    pub(super) fn try_expand(
        &mut self,
        t: PpTok,
        input: &mut VecDeque<PpTok>,
        from_file: bool,
    ) -> Option<PpTok> {
        if t.tok.kind != TokenKind::Ident || self.hide_sets.contains(t.hide, &t.tok.text) {
            return Some(t);
        }
        if from_file && t.tok.text == "_Pragma" {
            self.pragma_operator(&t, input);
            return None;
        }
        let Some(m) = self.macros.get(&t.tok.text) else {
            return Some(t);
        };
        if let Some(b) = m.builtin {
            let tok = self.builtin_token(b, &t.tok);
            input.push_front(PpTok {
                tok,
                hide: self.hide_sets.with(t.hide, &t.tok.text),
                placemarker: false,
            });
            return None;
        }
        let m = Rc::clone(m);
        let name = t.tok.text.clone();
        let Some(params) = &m.params else {
            // Object-like: C99 6.10.3p9.
            let hs = self.hide_sets.with(t.hide, &name);
            let out = self.substitute(&m, &mut [], hs, &t.tok);
            for r in out.into_iter().rev() {
                input.push_front(r);
            }
            return None;
        };
        // Function-like: expanded only when followed by `(` (C99 6.10.3p10).
        let Some(next) = self.pull(input, from_file) else {
            return Some(t);
        };
        if !next.tok.is_punct(Punct::LParen) {
            input.push_front(next);
            return Some(t);
        }
        let (mut args, rparen) = self.collect_args(&t.tok, input, from_file)?;
        let named = params.len() - usize::from(m.variadic);
        // `f()` is one empty argument; for a macro without parameters, zero arguments.
        if params.is_empty() && args.len() == 1 && args[0].is_empty() {
            args.clear();
        }
        if m.variadic {
            if args.len() > named + 1 {
                // The extra arguments and their commas make up __VA_ARGS__ (C99 6.10.3.1p2).
                let mut rest = args.split_off(named);
                let mut va = Vec::new();
                for (i, a) in rest.drain(..).enumerate() {
                    if i > 0 {
                        va.push(comma_token(&a, &t.tok));
                    }
                    va.extend(a);
                }
                args.push(va);
            } else if args.len() == named {
                // `f(a)` for `f(a, ...)`: an empty variable argument (a clang extension).
                args.push(Vec::new());
            }
        }
        if args.len() != params.len() {
            let msg = if args.len() > params.len() {
                "too many arguments provided to function-like macro invocation"
            } else {
                "too few arguments provided to function-like macro invocation"
            };
            self.diags.error(t.tok.span, msg);
            self.diags
                .note(m.def_span, "macro '".to_string() + &name + "' defined here");
            return None;
        }
        let mut args: Vec<Arg> = args
            .into_iter()
            .map(|raw| Arg {
                raw,
                expanded: None,
            })
            .collect();
        // Prosser: HS = (hide(name) ∩ hide(rparen)) ∪ {name}.
        let common = self.hide_sets.intersection(t.hide, rparen.hide);
        let hs = self.hide_sets.with(common, &name);
        let out = self.substitute(&m, &mut args, hs, &t.tok);
        for r in out.into_iter().rev() {
            input.push_front(r);
        }
        None
    }

    /// Collects the arguments of a function-like macro invocation after its `(`: returns the
    /// arguments (split at top-level commas) and the closing `)`, or `None` (after reporting an
    /// error) when the input ends first.
    fn collect_args(
        &mut self,
        name: &Token,
        input: &mut VecDeque<PpTok>,
        from_file: bool,
    ) -> Option<(Vec<Vec<PpTok>>, PpTok)> {
        let mut args = vec![Vec::new()];
        let mut depth = 0u32;
        // Parentheses nested deeper than the limit: the invocation is consumed and dropped.
        let mut too_deep = false;
        loop {
            let Some(mut t) = self.pull(input, from_file) else {
                self.diags
                    .error(name.span, "unterminated function-like macro invocation");
                return None;
            };
            // New-lines in arguments are white space (C99 6.10.3p10).
            if t.tok.line_start {
                t.tok.line_start = false;
                t.tok.leading_space = true;
            }
            match t.tok.kind {
                TokenKind::Punct(Punct::LParen) => {
                    depth += 1;
                    if depth >= MAX_ARGUMENT_NESTING && !too_deep {
                        too_deep = true;
                        self.diags
                            .error(name.span, "macro arguments nested too deeply");
                    }
                }
                TokenKind::Punct(Punct::RParen) if depth == 0 => {
                    return if too_deep { None } else { Some((args, t)) };
                }
                TokenKind::Punct(Punct::RParen) => depth -= 1,
                TokenKind::Punct(Punct::Comma) if depth == 0 => {
                    args.push(Vec::new());
                    continue;
                }
                _ => {}
            }
            if too_deep {
                continue;
            }
            if let Some(last) = args.last_mut() {
                last.push(t);
            }
        }
    }

    /// Fully macro-expands an argument in isolation (C99 6.10.3.1p1).
    pub(super) fn expand_list(&mut self, toks: &[PpTok]) -> Vec<PpTok> {
        // Arguments containing invocations whose arguments contain invocations… recurse here;
        // bound the depth so that hostile input cannot exhaust the stack.
        if self.expand_depth >= MAX_ARGUMENT_NESTING {
            if let Some(t) = toks.first() {
                self.diags
                    .error(t.tok.span, "macro arguments nested too deeply");
            }
            return Vec::new();
        }
        self.expand_depth += 1;
        let mut input: VecDeque<PpTok> = toks.iter().cloned().collect();
        let mut out = Vec::new();
        while let Some(t) = input.pop_front() {
            if let Some(t) = self.try_expand(t, &mut input, false) {
                out.push(t);
            }
        }
        self.expand_depth -= 1;
        out
    }

    /// Replaces the parameters of `m`'s body with the arguments, applies `#` and `##` and adds
    /// `hs` to every resulting token (Prosser's `subst`). `site` is the macro name being
    /// expanded: body tokens take its span, and the first token its spacing.
    fn substitute(&mut self, m: &Macro, args: &mut [Arg], hs: HideSet, site: &Token) -> Vec<PpTok> {
        let body = &m.body;
        let mut out: Vec<PpTok> = Vec::new();
        let from_body = |t: &Token| {
            let mut tok = t.clone();
            tok.span = site.span;
            tok.line_start = false;
            PpTok::plain(tok)
        };
        let mut i = 0;
        while i < body.len() {
            let t = &body[i];
            let next_is_paste = body.get(i + 1).is_some_and(|n| n.is_punct(Punct::HashHash));
            // `#` parameter (C99 6.10.3.2).
            if m.params.is_some() && t.is_punct(Punct::Hash) {
                if let Some(p) = body.get(i + 1).and_then(|n| m.param_index(n)) {
                    let mut s = stringize(&args[p].raw, site.span);
                    s.leading_space = t.leading_space;
                    out.push(PpTok::plain(s));
                    i += 2;
                    continue;
                }
            }
            // `##` (C99 6.10.3.3).
            if t.is_punct(Punct::HashHash) && i + 1 < body.len() && !out.is_empty() {
                let rhs = &body[i + 1];
                let mut rhs_toks: Vec<PpTok> = match m.param_index(rhs) {
                    Some(p) => {
                        let raw = args[p].raw.clone();
                        // GNU `, ## __VA_ARGS__`: an empty variable argument removes the comma.
                        let is_va = m.variadic && p + 1 == m.params.as_ref().map_or(0, |v| v.len());
                        let lhs_is_comma = out.last().is_some_and(|l| l.tok.is_punct(Punct::Comma));
                        if is_va && lhs_is_comma {
                            if raw.is_empty() {
                                out.pop();
                            } else {
                                let expanded = self.expanded_arg(args, p);
                                out.extend(expanded);
                            }
                            i += 2;
                            continue;
                        }
                        if raw.is_empty() {
                            vec![placemarker(site)]
                        } else {
                            raw
                        }
                    }
                    None => vec![from_body(rhs)],
                };
                let first = rhs_toks.remove(0);
                if let Some(lhs) = out.pop() {
                    let glued = self.paste(lhs, first, site);
                    out.extend(glued);
                }
                out.extend(rhs_toks);
                i += 2;
                continue;
            }
            if let Some(p) = m.param_index(t) {
                let mut toks = if next_is_paste {
                    // An operand of `##` is not expanded (C99 6.10.3.1p1).
                    let raw = args[p].raw.clone();
                    if raw.is_empty() {
                        vec![placemarker(site)]
                    } else {
                        raw
                    }
                } else {
                    self.expanded_arg(args, p)
                };
                if let Some(first) = toks.first_mut() {
                    first.tok.leading_space = t.leading_space;
                }
                out.extend(toks);
                i += 1;
                continue;
            }
            out.push(from_body(t));
            i += 1;
        }
        out.retain(|t| !t.placemarker);
        // Bound the total work: nested doubling macros grow exponentially.
        self.produced_tokens += out.len() as u64;
        if self.produced_tokens > MAX_PRODUCED_TOKENS {
            if !self.budget_exhausted {
                self.budget_exhausted = true;
                self.diags
                    .error(site.span, "macro expansion produces too many tokens");
            }
            return Vec::new();
        }
        for t in &mut out {
            t.hide = self.hide_sets.union(t.hide, hs);
        }
        if let Some(first) = out.first_mut() {
            first.tok.leading_space = site.leading_space;
            first.tok.line_start = site.line_start;
        }
        out
    }

    fn expanded_arg(&mut self, args: &mut [Arg], p: usize) -> Vec<PpTok> {
        if args[p].expanded.is_none() {
            let raw = args[p].raw.clone();
            args[p].expanded = Some(self.expand_list(&raw));
        }
        args[p].expanded.clone().unwrap_or_default()
    }

    /// `lhs ## rhs` (C99 6.10.3.3p3): the result must be one valid preprocessing token.
    fn paste(&mut self, lhs: PpTok, rhs: PpTok, site: &Token) -> Vec<PpTok> {
        if rhs.placemarker {
            return vec![lhs];
        }
        if lhs.placemarker {
            return vec![rhs];
        }
        let text = format!("{}{}", lhs.tok.text, rhs.tok.text);
        let mut scratch = crate::diag::Diagnostics::new();
        let toks = lex::lex_raw(site.span.file, &text, &mut scratch);
        if toks.len() == 1 && toks[0].text == text && toks[0].kind != TokenKind::Unknown {
            let mut tok = lhs.tok.clone();
            tok.kind = toks[0].kind;
            tok.text = text;
            return vec![PpTok {
                tok,
                hide: self.hide_sets.intersection(lhs.hide, rhs.hide),
                placemarker: false,
            }];
        }
        self.diags.error(
            site.span,
            format!("pasting formed '{text}', an invalid preprocessing token"),
        );
        vec![lhs, rhs]
    }

    fn builtin_token(&mut self, b: Builtin, site: &Token) -> Token {
        let (name, line, _) = self
            .sources
            .presumed_location(site.span.file, site.span.start);
        let (kind, text) = match b {
            Builtin::Line => (TokenKind::Number, line.to_string()),
            Builtin::File => (TokenKind::StringLit, quote_string(name)),
            Builtin::Date => (TokenKind::StringLit, quote_string(&self.date_time.0)),
            Builtin::Time => (TokenKind::StringLit, quote_string(&self.date_time.1)),
            Builtin::Counter => {
                self.counter += 1;
                (TokenKind::Number, (self.counter - 1).to_string())
            }
        };
        Token {
            kind,
            text,
            span: site.span,
            leading_space: site.leading_space,
            line_start: site.line_start,
        }
    }
}

fn placemarker(site: &Token) -> PpTok {
    let mut tok = site.clone();
    tok.text = String::new();
    PpTok {
        tok,
        hide: 0,
        placemarker: true,
    }
}

fn comma_token(next_arg: &[PpTok], site: &Token) -> PpTok {
    let span = next_arg.first().map_or(site.span, |t| t.tok.span);
    PpTok::plain(Token {
        kind: TokenKind::Punct(Punct::Comma),
        text: ",".to_string(),
        span,
        leading_space: false,
        line_start: false,
    })
}

/// A string literal spelling `"…"` of `s`, escaping `"` and `\`.
pub(crate) fn quote_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// The `#` operator (C99 6.10.3.2p2): the spelling of the argument, white space between tokens
/// reduced to one space, `"` and `\` escaped inside string literals and character constants.
fn stringize(arg: &[PpTok], span: Span) -> Token {
    let mut s = String::from("\"");
    for (i, t) in arg.iter().enumerate() {
        if i > 0 && (t.tok.leading_space || t.tok.line_start) {
            s.push(' ');
        }
        if matches!(t.tok.kind, TokenKind::StringLit | TokenKind::CharLit) {
            for c in t.tok.text.chars() {
                if c == '"' || c == '\\' {
                    s.push('\\');
                }
                s.push(c);
            }
        } else {
            s.push_str(&t.tok.text);
        }
    }
    s.push('"');
    Token {
        kind: TokenKind::StringLit,
        text: s,
        span,
        leading_space: false,
        line_start: false,
    }
}
