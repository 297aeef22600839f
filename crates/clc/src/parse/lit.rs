//! Literal spellings: integer and floating constants (C99 6.4.4, OpenCL C 2.0 §6.1.1 `h`/`f`
//! suffixes), character constants, and the vector type names (`float4`, `uchar16`, …).

use crate::ast::{FloatSuffix, ScalarName};

/// A number token, decoded.
#[derive(Clone, Debug, PartialEq)]
pub enum NumberLit {
    Int {
        value: u64,
        unsigned: bool,
        long: bool,
        non_decimal: bool,
    },
    Float {
        value: f64,
        suffix: FloatSuffix,
    },
}

/// Decodes a preprocessing number; `Err` carries the message.
pub fn parse_number(text: &str) -> Result<NumberLit, String> {
    let lower = text.to_ascii_lowercase();
    let is_hex = lower.starts_with("0x");
    let is_float = if is_hex {
        lower.contains('p') || lower.contains('.')
    } else {
        lower.contains('.') || lower.contains('e')
    };
    if is_float {
        return parse_float(&lower, is_hex)
            .ok_or_else(|| format!("invalid floating constant '{text}'"));
    }
    // Integer: digits then suffix of u/l letters.
    let (digits_part, radix, non_decimal) = if is_hex {
        (&lower[2..], 16, true)
    } else if let Some(bin) = lower.strip_prefix("0b") {
        (bin, 2, true)
    } else if lower.len() > 1 && lower.starts_with('0') {
        (&lower[1..], 8, true)
    } else {
        (&lower[..], 10, false)
    };
    let end = digits_part
        .find(|c: char| !c.is_digit(radix))
        .unwrap_or(digits_part.len());
    let (digits, suffix) = digits_part.split_at(end);
    if digits.is_empty() && radix != 8 {
        return Err(format!("invalid integer constant '{text}'"));
    }
    let value = if digits.is_empty() {
        0
    } else {
        u64::from_str_radix(digits, radix).map_err(|_| {
            format!("integer literal is too large to be represented in any integer type: '{text}'")
        })?
    };
    let mut unsigned = false;
    let mut long = false;
    for c in suffix.chars() {
        match c {
            'u' if !unsigned => unsigned = true,
            'l' => long = true,
            _ => return Err(format!("invalid suffix '{suffix}' on integer constant")),
        }
    }
    Ok(NumberLit::Int {
        value,
        unsigned,
        long,
        non_decimal,
    })
}

fn parse_float(lower: &str, is_hex: bool) -> Option<NumberLit> {
    let mut s = lower;
    let mut suffix = FloatSuffix::None;
    if let Some(rest) = s.strip_suffix('f') {
        if !is_hex || rest.contains('p') {
            s = rest;
            suffix = FloatSuffix::F;
        }
    } else if let Some(rest) = s.strip_suffix('h') {
        s = rest;
        suffix = FloatSuffix::H;
    } else if let Some(rest) = s.strip_suffix('l') {
        s = rest;
    }
    let value = if is_hex {
        parse_hex_float(&s[2..])?
    } else {
        s.parse::<f64>().ok()?
    };
    Some(NumberLit::Float { value, suffix })
}

/// `1.8p3` (after `0x`) → 1.5 * 2^3 style hexadecimal floating constants (C99 6.4.4.2).
fn parse_hex_float(s: &str) -> Option<f64> {
    let (mant, exp) = match s.find('p') {
        Some(i) => (&s[..i], &s[i + 1..]),
        None => return None,
    };
    let exp: i32 = exp.parse().ok()?;
    let (int_part, frac_part) = match mant.find('.') {
        Some(i) => (&mant[..i], &mant[i + 1..]),
        None => (mant, ""),
    };
    if int_part.is_empty() && frac_part.is_empty() {
        return None;
    }
    let mut value = 0f64;
    for c in int_part.chars() {
        value = value * 16.0 + c.to_digit(16)? as f64;
    }
    let mut scale = 1.0 / 16.0;
    for c in frac_part.chars() {
        value += c.to_digit(16)? as f64 * scale;
        scale /= 16.0;
    }
    Some(value * 2f64.powi(exp))
}

/// Decodes a character constant token like `'a'` or `'\n'` (C99 6.4.4.4) to its `int` value.
pub fn parse_char_literal(text: &str) -> Result<i64, String> {
    let inner = text
        .strip_prefix('\'')
        .and_then(|t| t.strip_suffix('\''))
        .ok_or_else(|| format!("invalid character constant {text}"))?;
    let bytes = unescape(inner)?;
    match bytes.as_slice() {
        [b] => Ok(*b as i8 as i64),
        [] => Err("empty character constant".to_string()),
        many => {
            // Multi-character constant: implementation-defined, clang packs big-endian.
            let mut v: i64 = 0;
            for b in many.iter().take(4) {
                v = (v << 8) | *b as i64;
            }
            Ok(v as i32 as i64)
        }
    }
}

/// Decodes C escape sequences.
pub fn unescape(s: &str) -> Result<Vec<u8>, String> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' {
            out.push(b[i]);
            i += 1;
            continue;
        }
        i += 1;
        let Some(&c) = b.get(i) else {
            return Err("incomplete escape sequence".to_string());
        };
        i += 1;
        let v = match c {
            b'n' => b'\n',
            b't' => b'\t',
            b'r' => b'\r',
            b'a' => 7,
            b'b' => 8,
            b'f' => 12,
            b'v' => 11,
            b'\\' | b'\'' | b'"' | b'?' => c,
            b'x' => {
                let mut v: u32 = 0;
                let mut n = 0;
                while i < b.len() && (b[i] as char).is_ascii_hexdigit() {
                    v = v.wrapping_mul(16) + (b[i] as char).to_digit(16).unwrap_or(0);
                    i += 1;
                    n += 1;
                }
                if n == 0 {
                    return Err("\\x used with no following hex digits".to_string());
                }
                v as u8
            }
            b'0'..=b'7' => {
                let mut v: u32 = (c - b'0') as u32;
                let mut n = 1;
                while n < 3 && i < b.len() && (b'0'..=b'7').contains(&b[i]) {
                    v = v * 8 + (b[i] - b'0') as u32;
                    i += 1;
                    n += 1;
                }
                v as u8
            }
            other => other,
        };
        out.push(v);
    }
    Ok(out)
}

/// The scalar named by a scalar keyword.
pub fn scalar_name(s: &str) -> Option<ScalarName> {
    Some(match s {
        "bool" => ScalarName::Bool,
        "char" => ScalarName::Char,
        "uchar" => ScalarName::UChar,
        "short" => ScalarName::Short,
        "ushort" => ScalarName::UShort,
        "int" => ScalarName::Int,
        "uint" => ScalarName::UInt,
        "long" => ScalarName::Long,
        "ulong" => ScalarName::ULong,
        "half" => ScalarName::Half,
        "float" => ScalarName::Float,
        "double" => ScalarName::Double,
        _ => return None,
    })
}

/// `float4` → (Float, 4); vector sizes 2, 3, 4, 8, 16 (OpenCL C 2.0 §6.1.2).
pub fn vector_type_name(s: &str) -> Option<(ScalarName, u8)> {
    let split = s.find(|c: char| c.is_ascii_digit())?;
    let (base, digits) = s.split_at(split);
    let n: u8 = match digits {
        "2" => 2,
        "3" => 3,
        "4" => 4,
        "8" => 8,
        "16" => 16,
        _ => return None,
    };
    let scalar = scalar_name(base)?;
    if scalar == ScalarName::Bool {
        return None;
    }
    Some((scalar, n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers() {
        assert_eq!(
            parse_number("0x1Fu"),
            Ok(NumberLit::Int {
                value: 31,
                unsigned: true,
                long: false,
                non_decimal: true
            })
        );
        assert_eq!(
            parse_number("1.5f"),
            Ok(NumberLit::Float {
                value: 1.5,
                suffix: FloatSuffix::F
            })
        );
        assert_eq!(
            parse_number("0x1.8p1"),
            Ok(NumberLit::Float {
                value: 3.0,
                suffix: FloatSuffix::None
            })
        );
        assert_eq!(
            parse_number("1e3"),
            Ok(NumberLit::Float {
                value: 1000.0,
                suffix: FloatSuffix::None
            })
        );
        assert!(parse_number("12abc").is_err());
        assert_eq!(parse_char_literal("'\\n'"), Ok(10));
        assert_eq!(parse_char_literal("'A'"), Ok(65));
        assert_eq!(vector_type_name("uchar16"), Some((ScalarName::UChar, 16)));
        assert_eq!(vector_type_name("float5"), None);
    }
}
