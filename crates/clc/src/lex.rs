//! Lexer: OpenCL C source text → preprocessing tokens (C99 6.4).
//!
//! Translation phases 1–3 (C99 5.1.1.2): line splices (`\` newline) are removed, comments become
//! white space, and the text is split into preprocessing tokens: identifiers (keywords are
//! identifiers here; the parser tells them apart), pp-numbers, character constants, string
//! literals, punctuators (digraphs included, C99 6.4.6p3) and single stray characters
//! ([`TokenKind::Unknown`]). Each token records its exact spelling (splices removed), its span in
//! the raw text, and whether white space precedes it / it starts a line, which the preprocessor
//! needs for directives, `#` stringizing and function-like macro definitions.
//!
//! A character constant or string literal without its closing quote on the same line is lexed as
//! an `Unknown` token holding the rest of the line; the preprocessor reports it only when it is
//! in an active (not skipped) region, as clang does. `lex` itself reports them.

use crate::diag::Diagnostics;
use crate::source::{FileId, Span};

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum TokenKind {
    Ident,
    /// A pp-number (C99 6.4.8): integer or floating constant, parsed later by the parser.
    Number,
    CharLit,
    StringLit,
    Punct(Punct),
    /// Any other single character (C99 6.4p1 "each non-white-space character that cannot be one
    /// of the above"), or an unterminated character constant / string literal (spelling starts
    /// with a quote or a literal prefix). An error when it reaches the parser.
    Unknown,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Punct {
    LParen,
    RParen,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    Dot,
    Arrow,
    PlusPlus,
    MinusMinus,
    Amp,
    Star,
    Plus,
    Minus,
    Tilde,
    Bang,
    Slash,
    Percent,
    Shl,
    Shr,
    Lt,
    Gt,
    Le,
    Ge,
    EqEq,
    Ne,
    Caret,
    Pipe,
    AmpAmp,
    PipePipe,
    Question,
    Colon,
    Semi,
    Ellipsis,
    Eq,
    StarEq,
    SlashEq,
    PercentEq,
    PlusEq,
    MinusEq,
    ShlEq,
    ShrEq,
    AmpEq,
    CaretEq,
    PipeEq,
    Comma,
    Hash,
    HashHash,
}

impl Punct {
    /// The canonical spelling (digraphs map to their ordinary spelling).
    pub fn as_str(self) -> &'static str {
        use Punct::*;
        match self {
            LParen => "(",
            RParen => ")",
            LBracket => "[",
            RBracket => "]",
            LBrace => "{",
            RBrace => "}",
            Dot => ".",
            Arrow => "->",
            PlusPlus => "++",
            MinusMinus => "--",
            Amp => "&",
            Star => "*",
            Plus => "+",
            Minus => "-",
            Tilde => "~",
            Bang => "!",
            Slash => "/",
            Percent => "%",
            Shl => "<<",
            Shr => ">>",
            Lt => "<",
            Gt => ">",
            Le => "<=",
            Ge => ">=",
            EqEq => "==",
            Ne => "!=",
            Caret => "^",
            Pipe => "|",
            AmpAmp => "&&",
            PipePipe => "||",
            Question => "?",
            Colon => ":",
            Semi => ";",
            Ellipsis => "...",
            Eq => "=",
            StarEq => "*=",
            SlashEq => "/=",
            PercentEq => "%=",
            PlusEq => "+=",
            MinusEq => "-=",
            ShlEq => "<<=",
            ShrEq => ">>=",
            AmpEq => "&=",
            CaretEq => "^=",
            PipeEq => "|=",
            Comma => ",",
            Hash => "#",
            HashHash => "##",
        }
    }
}

/// C99 6.4.6 punctuators, longest first so that the first match is the longest (6.4p4).
const PUNCTUATORS: &[(&str, Punct)] = &[
    ("%:%:", Punct::HashHash),
    ("...", Punct::Ellipsis),
    ("<<=", Punct::ShlEq),
    (">>=", Punct::ShrEq),
    ("->", Punct::Arrow),
    ("++", Punct::PlusPlus),
    ("--", Punct::MinusMinus),
    ("<<", Punct::Shl),
    (">>", Punct::Shr),
    ("<=", Punct::Le),
    (">=", Punct::Ge),
    ("==", Punct::EqEq),
    ("!=", Punct::Ne),
    ("&&", Punct::AmpAmp),
    ("||", Punct::PipePipe),
    ("*=", Punct::StarEq),
    ("/=", Punct::SlashEq),
    ("%=", Punct::PercentEq),
    ("+=", Punct::PlusEq),
    ("-=", Punct::MinusEq),
    ("&=", Punct::AmpEq),
    ("^=", Punct::CaretEq),
    ("|=", Punct::PipeEq),
    ("##", Punct::HashHash),
    ("<:", Punct::LBracket),
    (":>", Punct::RBracket),
    ("<%", Punct::LBrace),
    ("%>", Punct::RBrace),
    ("%:", Punct::Hash),
    ("(", Punct::LParen),
    (")", Punct::RParen),
    ("[", Punct::LBracket),
    ("]", Punct::RBracket),
    ("{", Punct::LBrace),
    ("}", Punct::RBrace),
    (".", Punct::Dot),
    ("&", Punct::Amp),
    ("*", Punct::Star),
    ("+", Punct::Plus),
    ("-", Punct::Minus),
    ("~", Punct::Tilde),
    ("!", Punct::Bang),
    ("/", Punct::Slash),
    ("%", Punct::Percent),
    ("<", Punct::Lt),
    (">", Punct::Gt),
    ("^", Punct::Caret),
    ("|", Punct::Pipe),
    ("?", Punct::Question),
    (":", Punct::Colon),
    (";", Punct::Semi),
    ("=", Punct::Eq),
    (",", Punct::Comma),
    ("#", Punct::Hash),
];

/// One preprocessing token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: TokenKind,
    /// Exact spelling (line splices removed).
    pub text: String,
    pub span: Span,
    /// White space (or a comment) precedes the token.
    pub leading_space: bool,
    /// The token is the first of its line (after a newline or at the start of the file).
    pub line_start: bool,
}

impl Token {
    pub fn is_punct(&self, p: Punct) -> bool {
        self.kind == TokenKind::Punct(p)
    }

    pub fn is_ident(&self, name: &str) -> bool {
        self.kind == TokenKind::Ident && self.text == name
    }
}

/// Lexes a whole file, reporting unterminated comments, unterminated character constants and
/// string literals, and stray characters.
pub fn lex(file: FileId, text: &str, diags: &mut Diagnostics) -> Vec<Token> {
    let tokens = lex_raw(file, text, diags);
    for t in &tokens {
        if t.kind == TokenKind::Unknown {
            report_unknown(t, diags);
        }
    }
    tokens
}

/// Reports an `Unknown` token: an unterminated literal or a stray character.
pub fn report_unknown(t: &Token, diags: &mut Diagnostics) {
    let body = t.text.trim_start_matches(['L', 'u', 'U', '8']);
    if body.starts_with('\'') {
        diags.error(t.span, "missing terminating ' character");
    } else if body.starts_with('"') {
        diags.error(t.span, "missing terminating '\"' character");
    } else {
        diags.error(
            t.span,
            format!("invalid character '{}' in source", t.text.escape_debug()),
        );
    }
}

/// Lexes a whole file; only unterminated block comments are reported (unterminated literals and
/// stray characters become `Unknown` tokens for the preprocessor to judge).
pub fn lex_raw(file: FileId, text: &str, diags: &mut Diagnostics) -> Vec<Token> {
    let spliced = Spliced::new(text);
    let mut lexer = Lexer {
        file,
        src: &spliced,
        pos: 0,
        tokens: Vec::new(),
    };
    lexer.run(diags);
    lexer.tokens
}

/// The text with line splices removed (translation phase 2), with the raw offset of each byte.
struct Spliced {
    bytes: Vec<u8>,
    raw_offset: Vec<u32>,
}

impl Spliced {
    fn new(text: &str) -> Spliced {
        let raw = text.as_bytes();
        let mut bytes = Vec::with_capacity(raw.len());
        let mut raw_offset = Vec::with_capacity(raw.len() + 1);
        let mut i = 0;
        while i < raw.len() {
            if raw[i] == b'\\' {
                // C99 5.1.1.2p1 phase 2: backslash immediately followed by a new-line.
                if raw.get(i + 1) == Some(&b'\n') {
                    i += 2;
                    continue;
                }
                if raw.get(i + 1) == Some(&b'\r') && raw.get(i + 2) == Some(&b'\n') {
                    i += 3;
                    continue;
                }
            }
            bytes.push(raw[i]);
            raw_offset.push(i as u32);
            i += 1;
        }
        raw_offset.push(raw.len() as u32);
        Spliced { bytes, raw_offset }
    }
}

struct Lexer<'a> {
    file: FileId,
    src: &'a Spliced,
    pos: usize,
    tokens: Vec<Token>,
}

fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b == b'$' || b >= 0x80
}

fn is_ident_continue(b: u8) -> bool {
    is_ident_start(b) || b.is_ascii_digit()
}

impl Lexer<'_> {
    fn peek(&self, ahead: usize) -> u8 {
        self.src.bytes.get(self.pos + ahead).copied().unwrap_or(0)
    }

    fn at_end(&self) -> bool {
        self.pos >= self.src.bytes.len()
    }

    fn span(&self, start: usize, end: usize) -> Span {
        let raw_start = self.src.raw_offset[start];
        // End: one past the raw offset of the last byte.
        let raw_end = if end > start {
            self.src.raw_offset[end - 1] + 1
        } else {
            raw_start
        };
        Span::new(self.file, raw_start, raw_end)
    }

    fn run(&mut self, diags: &mut Diagnostics) {
        let mut leading_space = false;
        let mut line_start = true;
        while !self.at_end() {
            let b = self.peek(0);
            match b {
                b'\n' => {
                    self.pos += 1;
                    line_start = true;
                    leading_space = false;
                }
                b' ' | b'\t' | b'\r' | 0x0b | 0x0c => {
                    self.pos += 1;
                    leading_space = true;
                }
                b'/' if self.peek(1) == b'/' => {
                    // C99 6.4.9p2: up to (not including) the next new-line.
                    while !self.at_end() && self.peek(0) != b'\n' {
                        self.pos += 1;
                    }
                    leading_space = true;
                }
                b'/' if self.peek(1) == b'*' => {
                    let start = self.pos;
                    self.pos += 2;
                    loop {
                        if self.at_end() {
                            diags.error(self.span(start, start + 2), "unterminated /* comment");
                            break;
                        }
                        if self.peek(0) == b'*' && self.peek(1) == b'/' {
                            self.pos += 2;
                            break;
                        }
                        self.pos += 1;
                    }
                    leading_space = true;
                }
                _ => {
                    let start = self.pos;
                    let kind = self.lex_token();
                    let text =
                        String::from_utf8_lossy(&self.src.bytes[start..self.pos]).into_owned();
                    self.tokens.push(Token {
                        kind,
                        text,
                        span: self.span(start, self.pos),
                        leading_space,
                        line_start,
                    });
                    leading_space = false;
                    line_start = false;
                }
            }
        }
    }

    /// Lexes one token starting at `self.pos` (not white space) and returns its kind.
    fn lex_token(&mut self) -> TokenKind {
        let b = self.peek(0);
        // Literal prefixes: L'…', u'…', U'…', L"…", u"…", U"…", u8"…" (C11; accepted as clang does).
        let prefix_len = match (b, self.peek(1), self.peek(2)) {
            (b'u', b'8', b'"') => 2,
            (b'L' | b'u' | b'U', b'\'' | b'"', _) => 1,
            _ => 0,
        };
        let q = self.peek(prefix_len);
        if (q == b'\'' || q == b'"') && (prefix_len > 0 || b == q) {
            self.pos += prefix_len;
            return self.lex_quoted(q);
        }
        if is_ident_start(b) {
            self.bump_char();
            while !self.at_end() && is_ident_continue(self.peek(0)) {
                self.bump_char();
            }
            return TokenKind::Ident;
        }
        if b.is_ascii_digit() || (b == b'.' && self.peek(1).is_ascii_digit()) {
            self.lex_pp_number();
            return TokenKind::Number;
        }
        for (spelling, p) in PUNCTUATORS {
            let s = spelling.as_bytes();
            if self.src.bytes[self.pos..].starts_with(s) {
                self.pos += s.len();
                return TokenKind::Punct(*p);
            }
        }
        self.bump_char();
        TokenKind::Unknown
    }

    /// Advances over one UTF-8 character (or one byte if it is not a valid lead byte).
    fn bump_char(&mut self) {
        let b = self.peek(0);
        let len = match b {
            0xC0..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF7 => 4,
            _ => 1,
        };
        self.pos += 1;
        for _ in 1..len {
            if !self.at_end() && (0x80..0xC0).contains(&self.peek(0)) {
                self.pos += 1;
            }
        }
    }

    /// C99 6.4.8 pp-number: `.`? digit (digit | identifier-nondigit | [eEpP][+-] | `.`)*
    fn lex_pp_number(&mut self) {
        self.pos += 1;
        loop {
            let b = self.peek(0);
            if matches!(b, b'e' | b'E' | b'p' | b'P') && matches!(self.peek(1), b'+' | b'-') {
                self.pos += 2;
            } else if b == b'.' || b.is_ascii_alphanumeric() || b == b'_' {
                self.pos += 1;
            } else {
                break;
            }
        }
    }

    /// A character constant or string literal; `self.pos` is at the opening quote.
    fn lex_quoted(&mut self, quote: u8) -> TokenKind {
        self.pos += 1;
        loop {
            if self.at_end() || self.peek(0) == b'\n' {
                return TokenKind::Unknown;
            }
            let b = self.peek(0);
            if b == b'\\' && !matches!(self.peek(1), b'\n' | 0) {
                self.pos += 1;
                self.bump_char();
                continue;
            }
            self.bump_char();
            if b == quote {
                return if quote == b'\'' {
                    TokenKind::CharLit
                } else {
                    TokenKind::StringLit
                };
            }
        }
    }
}

/// Whether printing `next` right after `prev` with no space would lex differently (so a space is
/// needed to keep them two tokens).
pub fn needs_space_between(prev: &str, next: &str) -> bool {
    if prev.is_empty() || next.is_empty() {
        return false;
    }
    // Fast path: these punctuators never combine with a neighbour.
    const ALONE: &[char] = &['(', ')', '[', ']', '{', '}', ';', ',', '?', '~'];
    if prev.ends_with(ALONE) || next.starts_with(ALONE) {
        return false;
    }
    let joined = format!("{prev}{next}");
    let mut diags = Diagnostics::new();
    let toks = lex_raw(FileId(0), &joined, &mut diags);
    toks.first().map(|t| t.text.len()) != Some(prev.len())
}

/// Prints tokens back as text: a newline before each `line_start` token (except the first), a
/// space before each `leading_space` token, and a space wherever two tokens would otherwise run
/// together into one. Used by tests and by `oxcl build -E`.
pub fn tokens_to_string(tokens: &[Token]) -> String {
    let mut out = String::new();
    let mut prev: Option<&Token> = None;
    for t in tokens {
        if let Some(p) = prev {
            if t.line_start {
                out.push('\n');
            } else if t.leading_space
                || needs_space_between(&p.text, &t.text)
                // `.` `.` `.` would print as `...`, the only three-token merge.
                || (t.text.starts_with('.') && out.ends_with(".."))
            {
                out.push(' ');
            }
        }
        out.push_str(&t.text);
        prev = Some(t);
    }
    out
}
