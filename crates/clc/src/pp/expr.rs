//! `#if` constant expressions (C99 6.10.1, 6.6): evaluated in `intmax_t`/`uintmax_t` (64 bits)
//! with the usual arithmetic conversions (6.3.1.8: a signed operand is converted to unsigned when
//! the other is unsigned). Identifiers left after macro expansion are 0 (6.10.1p4). Division by
//! zero is an error only in evaluated operands (`0 && 1/0` is fine).

use crate::diag::Diagnostics;
use crate::lex::{Punct, Token, TokenKind};
use crate::source::Span;

/// A value: its 64 bits and whether its type is unsigned.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Value {
    bits: u64,
    unsigned: bool,
}

impl Value {
    fn signed(v: i64) -> Value {
        Value {
            bits: v as u64,
            unsigned: false,
        }
    }
    fn boolean(b: bool) -> Value {
        Value::signed(i64::from(b))
    }
    fn is_true(self) -> bool {
        self.bits != 0
    }
    fn as_i64(self) -> i64 {
        self.bits as i64
    }
}

struct Error(Span, String);

/// Evaluates a fully macro-expanded `#if` expression. `None` after reporting an error.
pub(super) fn evaluate(toks: &[Token], directive: Span, diags: &mut Diagnostics) -> Option<i64> {
    let mut p = Parser {
        toks,
        pos: 0,
        directive,
        depth: 0,
    };
    let result = p.conditional(true).and_then(|v| {
        if let Some(t) = p.toks.get(p.pos) {
            // A top-level comma (C99 6.6p3 forbids it in constant expressions; clang accepts).
            if t.is_punct(Punct::Comma) {
                let mut last = v;
                while p.eat(Punct::Comma) {
                    last = p.conditional(true)?;
                }
                if let Some(t) = p.toks.get(p.pos) {
                    return Err(Error(
                        t.span,
                        "token is not a valid binary operator in a preprocessor subexpression"
                            .to_string(),
                    ));
                }
                return Ok(last);
            }
            return Err(Error(
                t.span,
                "token is not a valid binary operator in a preprocessor subexpression".to_string(),
            ));
        }
        Ok(v)
    });
    match result {
        Ok(v) => Some(v.as_i64()),
        Err(Error(span, msg)) => {
            diags.error(span, msg);
            None
        }
    }
}

struct Parser<'a> {
    toks: &'a [Token],
    pos: usize,
    directive: Span,
    /// Nesting of parentheses, unary operators and `?:`, bounded so that hostile input cannot
    /// exhaust the stack.
    depth: u32,
}

/// Maximum nesting of a `#if` expression.
const MAX_DEPTH: u32 = 256;

/// Binary operator precedence (higher binds tighter), C99 6.5.5–6.5.14.
fn binary_precedence(p: Punct) -> Option<u8> {
    use Punct::*;
    Some(match p {
        Star | Slash | Percent => 10,
        Plus | Minus => 9,
        Shl | Shr => 8,
        Lt | Gt | Le | Ge => 7,
        EqEq | Ne => 6,
        Amp => 5,
        Caret => 4,
        Pipe => 3,
        AmpAmp => 2,
        PipePipe => 1,
        _ => return None,
    })
}

impl Parser<'_> {
    fn peek_punct(&self) -> Option<Punct> {
        match self.toks.get(self.pos)?.kind {
            TokenKind::Punct(p) => Some(p),
            _ => None,
        }
    }

    fn eat(&mut self, p: Punct) -> bool {
        if self.peek_punct() == Some(p) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn here(&self) -> Span {
        self.toks
            .get(self.pos)
            .or(self.toks.last())
            .map_or(self.directive, |t| t.span)
    }

    /// conditional-expression (6.5.15); `eval` is false inside unevaluated operands.
    fn conditional(&mut self, eval: bool) -> Result<Value, Error> {
        if self.depth > MAX_DEPTH {
            return Err(Error(
                self.here(),
                "preprocessor expression nested too deeply".into(),
            ));
        }
        self.depth += 1;
        let v = self.conditional_inner(eval);
        self.depth -= 1;
        v
    }

    fn conditional_inner(&mut self, eval: bool) -> Result<Value, Error> {
        let c = self.binary(0, eval)?;
        if !self.eat(Punct::Question) {
            return Ok(c);
        }
        let a = self.conditional(eval && c.is_true())?;
        if !self.eat(Punct::Colon) {
            return Err(Error(
                self.here(),
                "expected ':' in conditional expression".into(),
            ));
        }
        let b = self.conditional(eval && !c.is_true())?;
        let unsigned = a.unsigned || b.unsigned;
        let v = if c.is_true() { a } else { b };
        Ok(Value {
            bits: v.bits,
            unsigned,
        })
    }

    /// Precedence climbing over the binary operators binding tighter than `min`.
    fn binary(&mut self, min: u8, eval: bool) -> Result<Value, Error> {
        let mut lhs = self.unary(eval)?;
        loop {
            let Some(op) = self.peek_punct() else {
                return Ok(lhs);
            };
            let Some(prec) = binary_precedence(op) else {
                return Ok(lhs);
            };
            if prec <= min {
                return Ok(lhs);
            }
            let op_span = self.toks[self.pos].span;
            self.pos += 1;
            let rhs_eval = match op {
                Punct::AmpAmp => eval && lhs.is_true(),
                Punct::PipePipe => eval && !lhs.is_true(),
                _ => eval,
            };
            let rhs = self.binary(prec, rhs_eval)?;
            lhs = apply(op, lhs, rhs, rhs_eval, op_span)?;
        }
    }

    fn unary(&mut self, eval: bool) -> Result<Value, Error> {
        self.depth += 1;
        let v = self.unary_inner(eval);
        self.depth -= 1;
        v
    }

    fn unary_inner(&mut self, eval: bool) -> Result<Value, Error> {
        if self.depth > MAX_DEPTH {
            return Err(Error(
                self.here(),
                "preprocessor expression nested too deeply".into(),
            ));
        }
        let Some(t) = self.toks.get(self.pos) else {
            return Err(Error(self.here(), "expected value in expression".into()));
        };
        self.pos += 1;
        match &t.kind {
            TokenKind::Punct(Punct::Plus) => self.unary(eval),
            TokenKind::Punct(Punct::Minus) => {
                let v = self.unary(eval)?;
                Ok(Value {
                    bits: v.bits.wrapping_neg(),
                    unsigned: v.unsigned,
                })
            }
            TokenKind::Punct(Punct::Tilde) => {
                let v = self.unary(eval)?;
                Ok(Value {
                    bits: !v.bits,
                    unsigned: v.unsigned,
                })
            }
            TokenKind::Punct(Punct::Bang) => {
                let v = self.unary(eval)?;
                Ok(Value::boolean(!v.is_true()))
            }
            TokenKind::Punct(Punct::LParen) => {
                let v = self.conditional(eval)?;
                let v = if self.peek_punct() == Some(Punct::Comma) {
                    let mut last = v;
                    while self.eat(Punct::Comma) {
                        last = self.conditional(eval)?;
                    }
                    last
                } else {
                    v
                };
                if !self.eat(Punct::RParen) {
                    return Err(Error(
                        self.here(),
                        "expected ')' in preprocessor expression".into(),
                    ));
                }
                Ok(v)
            }
            TokenKind::Number => parse_integer(&t.text).map_err(|m| Error(t.span, m)),
            TokenKind::CharLit => parse_char(&t.text).map_err(|m| Error(t.span, m)),
            // C99 6.10.1p4: remaining identifiers (keywords included) are replaced by 0.
            TokenKind::Ident => Ok(Value::signed(0)),
            TokenKind::StringLit => Err(Error(
                t.span,
                "invalid token at start of a preprocessor expression".into(),
            )),
            _ => Err(Error(
                t.span,
                "invalid token at start of a preprocessor expression".into(),
            )),
        }
    }
}

fn apply(op: Punct, a: Value, b: Value, eval: bool, span: Span) -> Result<Value, Error> {
    use Punct::*;
    // Usual arithmetic conversions (C99 6.3.1.8), except for shifts (6.5.7p3: the type of the
    // promoted left operand) and the logical operators.
    let unsigned = a.unsigned || b.unsigned;
    let arith = |bits: u64| Value { bits, unsigned };
    Ok(match op {
        Star => arith(a.bits.wrapping_mul(b.bits)),
        Slash | Percent => {
            if b.bits == 0 {
                if eval {
                    let what = if op == Slash { "division" } else { "remainder" };
                    return Err(Error(
                        span,
                        format!("{what} by zero in preprocessor expression"),
                    ));
                }
                return Ok(arith(0));
            }
            if unsigned {
                arith(if op == Slash {
                    a.bits / b.bits
                } else {
                    a.bits % b.bits
                })
            } else {
                let (x, y) = (a.as_i64(), b.as_i64());
                arith(if op == Slash {
                    x.wrapping_div(y)
                } else {
                    x.wrapping_rem(y)
                } as u64)
            }
        }
        Plus => arith(a.bits.wrapping_add(b.bits)),
        Minus => arith(a.bits.wrapping_sub(b.bits)),
        Shl | Shr => {
            let count = b.bits;
            let neg_count = !b.unsigned && b.as_i64() < 0;
            let bits = if neg_count || count >= 64 {
                // Undefined behaviour (6.5.7p3); yield what a wide shift gives.
                if op == Shr && !a.unsigned && a.as_i64() < 0 {
                    u64::MAX
                } else {
                    0
                }
            } else if op == Shl {
                a.bits << count
            } else if a.unsigned {
                a.bits >> count
            } else {
                (a.as_i64() >> count) as u64
            };
            Value {
                bits,
                unsigned: a.unsigned,
            }
        }
        Lt | Gt | Le | Ge => {
            let ord = if unsigned {
                a.bits.cmp(&b.bits)
            } else {
                a.as_i64().cmp(&b.as_i64())
            };
            Value::boolean(match op {
                Lt => ord.is_lt(),
                Gt => ord.is_gt(),
                Le => ord.is_le(),
                _ => ord.is_ge(),
            })
        }
        EqEq => Value::boolean(a.bits == b.bits),
        Ne => Value::boolean(a.bits != b.bits),
        Amp => arith(a.bits & b.bits),
        Caret => arith(a.bits ^ b.bits),
        Pipe => arith(a.bits | b.bits),
        AmpAmp => Value::boolean(a.is_true() && b.is_true()),
        PipePipe => Value::boolean(a.is_true() || b.is_true()),
        _ => {
            return Err(Error(
                span,
                "invalid operator in preprocessor expression".into(),
            ))
        }
    })
}

/// An integer constant (C99 6.4.4.1) as a `#if` value: decimal, octal, hex (and `0b` binary,
/// a common extension) with `u`/`l`/`ll` suffixes. A value that does not fit `intmax_t` is
/// unsigned.
fn parse_integer(text: &str) -> Result<Value, String> {
    let lower = text.to_ascii_lowercase();
    let (digits_start, radix) = if lower.starts_with("0x") {
        (2, 16)
    } else if lower.starts_with("0b") {
        (2, 2)
    } else if lower.starts_with('0') {
        (0, 8)
    } else {
        (0, 10)
    };
    let body = &lower[digits_start..];
    let digits_len = body
        .bytes()
        .take_while(|b| (*b as char).is_digit(radix))
        .count();
    let (digits, suffix) = body.split_at(digits_len);
    let is_float = radix != 2
        && (suffix.starts_with('.')
            || (radix == 10 || radix == 8) && suffix.starts_with('e')
            || radix == 16 && suffix.starts_with('p')
            || (radix == 8
                && suffix.bytes().next().is_some_and(|b| b.is_ascii_digit())
                && (lower.contains('.') || lower.contains('e'))));
    if is_float {
        return Err("floating point literal in preprocessor expression".into());
    }
    if radix == 8 && suffix.bytes().next().is_some_and(|b| b.is_ascii_digit()) {
        return Err(format!(
            "invalid digit '{}' in octal constant",
            &suffix[..1]
        ));
    }
    if digits.is_empty() && radix != 8 {
        return Err(format!("invalid integer constant '{text}'"));
    }
    let unsigned_suffix = match suffix {
        "" | "l" | "ll" => false,
        "u" | "ul" | "lu" | "ull" | "llu" => true,
        _ => {
            return Err(format!(
                "invalid suffix '{}' on integer constant",
                &text[text.len() - suffix.len()..]
            ))
        }
    };
    let value = if digits.is_empty() {
        0
    } else {
        u64::from_str_radix(digits, radix).map_err(|_| {
            "integer literal is too large to be represented in any integer type".to_string()
        })?
    };
    Ok(Value {
        bits: value,
        unsigned: unsigned_suffix || value > i64::MAX as u64,
    })
}

/// A character constant (C99 6.4.4.4) as a `#if` value (`int`; `char` is signed).
fn parse_char(text: &str) -> Result<Value, String> {
    let wide = !text.starts_with('\'');
    let inner = text
        .trim_start_matches(['L', 'u', 'U'])
        .strip_prefix('\'')
        .and_then(|s| s.strip_suffix('\''))
        .ok_or_else(|| "invalid character constant".to_string())?;
    if inner.is_empty() {
        return Err("empty character constant".into());
    }
    let bytes: Vec<char> = inner.chars().collect();
    let mut values: Vec<u32> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        i += 1;
        if c != '\\' {
            values.push(c as u32);
            continue;
        }
        let Some(&e) = bytes.get(i) else {
            return Err("invalid escape sequence".into());
        };
        i += 1;
        let v = match e {
            'n' => 10,
            't' => 9,
            'r' => 13,
            'a' => 7,
            'b' => 8,
            'f' => 12,
            'v' => 11,
            'e' => 27,
            '\\' | '\'' | '"' | '?' => e as u32,
            'x' => {
                let start = i;
                while i < bytes.len() && bytes[i].is_ascii_hexdigit() {
                    i += 1;
                }
                let s: String = bytes[start..i].iter().collect();
                u32::from_str_radix(&s, 16)
                    .map_err(|_| "\\x used with no following hex digits".to_string())?
            }
            '0'..='7' => {
                let start = i - 1;
                while i < bytes.len() && i - start < 3 && ('0'..='7').contains(&bytes[i]) {
                    i += 1;
                }
                let s: String = bytes[start..i].iter().collect();
                u32::from_str_radix(&s, 8).unwrap_or(0)
            }
            other => other as u32,
        };
        values.push(v);
    }
    if wide || values.len() == 1 {
        let v = values.last().copied().unwrap_or(0);
        // A plain character constant has type int with the value of a (signed) char.
        let v = if wide {
            v as i32 as i64
        } else {
            v as u8 as i8 as i64
        };
        return Ok(Value::signed(v));
    }
    // Multi-character constant: implementation-defined; clang packs the bytes big-endian.
    let mut acc: u32 = 0;
    for v in values {
        acc = (acc << 8) | (v & 0xff);
    }
    Ok(Value::signed(acc as i32 as i64))
}
