//! Compile-time checking of `printf` formats (OpenCL C 2.0 §6.13.13.2, seed 003 §1.13.13
//! "printf format string"): each conversion specification is parsed (flags, width,
//! precision, the OpenCL vector specifier `vN`, length modifiers `hh h hl l`, conversion) and
//! matched against its argument, with clang-15's `-Wformat` warnings: a mismatched argument
//! type, too few or too many arguments, an invalid conversion specifier, an incomplete
//! specification. (The behaviour in all these cases is undefined, so they are warnings.)

use super::Emitter;
use crate::sema::{Scalar, Type};
use crate::source::Span;

/// A length modifier (§1.13.13: `hh`, `h`, `hl` only with a vector specifier, `l`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Length {
    None,
    Hh,
    H,
    Hl,
    L,
    /// `ll`, `j`, `z`, `t`, `L`: reserved in OpenCL C.
    Reserved(char),
}

/// One conversion specification of a format.
#[derive(Clone, Debug, PartialEq, Eq)]
struct ConvSpec {
    vector: Option<u32>,
    length: Length,
    conv: char,
}

/// A problem in the format text itself.
#[derive(Clone, Debug, PartialEq, Eq)]
enum FormatIssue {
    Invalid(char),
    Incomplete,
}

/// The conversion specifications of `fmt` in order (`%%` takes no argument and is skipped),
/// or the first problem of the text.
fn parse_format(fmt: &str) -> Result<Vec<ConvSpec>, FormatIssue> {
    let chars: Vec<char> = fmt.chars().collect();
    let mut specs = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '%' {
            i += 1;
            continue;
        }
        i += 1;
        if chars.get(i) == Some(&'%') {
            i += 1;
            continue;
        }
        while matches!(chars.get(i), Some('-' | '+' | ' ' | '#' | '0')) {
            i += 1;
        }
        while chars.get(i).is_some_and(|c| c.is_ascii_digit()) {
            i += 1;
        }
        if chars.get(i) == Some(&'.') {
            i += 1;
            while chars.get(i).is_some_and(|c| c.is_ascii_digit()) {
                i += 1;
            }
        }
        let mut vector = None;
        if chars.get(i) == Some(&'v') {
            i += 1;
            let start = i;
            while chars.get(i).is_some_and(|c| c.is_ascii_digit()) {
                i += 1;
            }
            let n: String = chars[start..i].iter().collect();
            match n.parse::<u32>() {
                Ok(n @ (2 | 3 | 4 | 8 | 16)) => vector = Some(n),
                _ => return Err(FormatIssue::Invalid('v')),
            }
        }
        let length = match (chars.get(i), chars.get(i + 1)) {
            (Some('h'), Some('h')) => {
                i += 2;
                Length::Hh
            }
            (Some('h'), Some('l')) => {
                i += 2;
                Length::Hl
            }
            (Some('h'), _) => {
                i += 1;
                Length::H
            }
            (Some('l'), Some('l')) => {
                i += 2;
                Length::Reserved('l')
            }
            (Some('l'), _) => {
                i += 1;
                Length::L
            }
            (Some(c @ ('j' | 'z' | 't' | 'L')), _) => {
                let c = *c;
                i += 1;
                Length::Reserved(c)
            }
            _ => Length::None,
        };
        let Some(&conv) = chars.get(i) else {
            return Err(FormatIssue::Incomplete);
        };
        i += 1;
        if !"diouxXfFeEgGaAcsp".contains(conv) {
            return Err(FormatIssue::Invalid(conv));
        }
        specs.push(ConvSpec {
            vector,
            length,
            conv,
        });
    }
    Ok(specs)
}

/// What a conversion expects: a scalar of this type (after the default argument
/// promotions), a vector, a string or any pointer.
#[derive(Clone, Debug, PartialEq)]
enum Expected {
    Scalar(Scalar),
    Vector(Scalar, u32),
    CharPointer,
    VoidPointer,
    /// Not expressible (an `l` on `c`/`s`, `hl` without `v`…): no type check.
    Unchecked,
}

fn expected(spec: &ConvSpec) -> Expected {
    let int_like = "diouxXc".contains(spec.conv);
    let unsigned = "ouxX".contains(spec.conv);
    let pick = |signed: Scalar, uns: Scalar| if unsigned { uns } else { signed };
    match (spec.vector, spec.conv) {
        (_, 's') if spec.length == Length::None => Expected::CharPointer,
        (_, 'p') if spec.length == Length::None => Expected::VoidPointer,
        (None, 'c') if spec.length == Length::None => Expected::Scalar(Scalar::Int),
        (None, _) if int_like => match spec.length {
            // hh and h arguments arrive promoted to int.
            Length::None | Length::Hh | Length::H => {
                Expected::Scalar(pick(Scalar::Int, Scalar::UInt))
            }
            Length::L => Expected::Scalar(pick(Scalar::Long, Scalar::ULong)),
            _ => Expected::Unchecked,
        },
        (None, _) => match spec.length {
            Length::None => Expected::Scalar(Scalar::Double),
            _ => Expected::Unchecked,
        },
        (Some(n), c) if c != 'c' => {
            let elem = match (int_like, spec.length) {
                (true, Length::Hh) => pick(Scalar::Char, Scalar::UChar),
                (true, Length::H) => pick(Scalar::Short, Scalar::UShort),
                (true, Length::Hl) => pick(Scalar::Int, Scalar::UInt),
                (true, Length::L) => pick(Scalar::Long, Scalar::ULong),
                (false, Length::H) => Scalar::Half,
                (false, Length::Hl) => Scalar::Float,
                (false, Length::L) => Scalar::Double,
                // §1.13.13: "If a vector specifier appears without a length modifier, the
                // behavior is undefined" (clang then expects a vector of int or double).
                (true, _) => pick(Scalar::Int, Scalar::UInt),
                (false, _) => Scalar::Double,
            };
            Expected::Vector(elem, n)
        }
        _ => Expected::Unchecked,
    }
}

/// clang's spelling of a C scalar type in format warnings.
fn c_name(s: Scalar) -> &'static str {
    match s {
        Scalar::Bool => "bool",
        Scalar::Char => "char",
        Scalar::UChar => "unsigned char",
        Scalar::Short => "short",
        Scalar::UShort => "unsigned short",
        Scalar::Int => "int",
        Scalar::UInt => "unsigned int",
        Scalar::Long => "long",
        Scalar::ULong => "unsigned long",
        Scalar::Half => "half",
        Scalar::Float => "float",
        Scalar::Double => "double",
    }
}

fn expected_name(e: &Expected) -> String {
    match e {
        Expected::Scalar(s) => c_name(*s).to_string(),
        Expected::Vector(s, n) => format!("{} __attribute__((ext_vector_type({n})))", c_name(*s)),
        Expected::CharPointer => "char *".into(),
        Expected::VoidPointer => "void *".into(),
        Expected::Unchecked => String::new(),
    }
}

/// Whether an argument of type `arg` (before promotions) fits `e` as clang accepts it:
/// integers of the same size (after the integer promotions) in either signedness, floating
/// scalars for `double` (promoted), vectors of exactly the element type and length.
fn fits(arg: &Type, e: &Expected) -> bool {
    match (e, arg) {
        (Expected::Unchecked, _) => true,
        (Expected::Scalar(want), Type::Scalar(got)) => {
            if want.is_float() {
                return got.is_float();
            }
            if got.is_float() {
                return false;
            }
            let promoted = if got.bits() < 32 || *got == Scalar::Bool {
                32
            } else {
                got.bits()
            };
            promoted == want.bits()
        }
        (Expected::Vector(want, n), Type::Vector(got, m)) => want == got && u32::from(*m) == *n,
        (Expected::CharPointer, Type::Pointer(p)) => {
            matches!(
                p.ty,
                Type::Scalar(Scalar::Char | Scalar::UChar) | Type::Array(..)
            )
        }
        (Expected::CharPointer, Type::Array(elem, _)) => {
            matches!(**elem, Type::Scalar(Scalar::Char | Scalar::UChar))
        }
        (Expected::VoidPointer, Type::Pointer(_)) => true,
        _ => false,
    }
}

impl<'a> Emitter<'a> {
    /// clang's spelling of an argument type in format warnings (`'uint2' (vector of 2
    /// 'uint' values)`).
    fn format_arg_name(&self, t: &Type) -> String {
        match t {
            Type::Vector(s, n) => {
                let elem = self.type_name(&Type::Scalar(*s));
                format!("'{}' (vector of {n} '{elem}' values)", self.type_name(t))
            }
            t => format!("'{}'", self.type_name(t)),
        }
    }

    /// Checks `printf`'s format `fmt` (the literal at `fmt_span`) against the types of the
    /// arguments after it, as clang's `-Wformat` does; everything found is a warning.
    pub(crate) fn check_printf_format(&mut self, fmt: &str, fmt_span: Span, args: &[(Type, Span)]) {
        let specs = match parse_format(fmt) {
            Ok(s) => s,
            Err(FormatIssue::Invalid(c)) => {
                self.warning(fmt_span, format!("invalid conversion specifier '{c}'"));
                return;
            }
            Err(FormatIssue::Incomplete) => {
                self.warning(fmt_span, "incomplete format specifier");
                return;
            }
        };
        for (k, spec) in specs.iter().enumerate() {
            if let Length::Reserved(c) = spec.length {
                let m = if c == 'l' {
                    "ll".to_string()
                } else {
                    c.to_string()
                };
                self.warning(
                    fmt_span,
                    format!("length modifier '{m}' is reserved in OpenCL C (§6.13.13.2)"),
                );
                continue;
            }
            let Some((arg, at)) = args.get(k) else {
                self.warning(fmt_span, "more '%' conversions than data arguments");
                return;
            };
            let e = expected(spec);
            if !fits(arg, &e) {
                let msg = format!(
                    "format specifies type '{}' but the argument has type {}",
                    expected_name(&e),
                    self.format_arg_name(arg)
                );
                self.warning(*at, msg);
            }
        }
        if let Some((_, at)) = args.get(specs.len()) {
            self.warning(*at, "data argument not used by format string");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_specification_examples() {
        let s = parse_format("f4 = %2.2v4hlf\n").expect("valid");
        assert_eq!(
            s,
            [ConvSpec {
                vector: Some(4),
                length: Length::Hl,
                conv: 'f'
            }]
        );
        let s = parse_format("uc = %#v4hhx %% %-05.3ld").expect("valid");
        assert_eq!(s.len(), 2);
        assert_eq!(expected(&s[0]), Expected::Vector(Scalar::UChar, 4));
        assert_eq!(expected(&s[1]), Expected::Scalar(Scalar::Long));
        assert_eq!(parse_format("%y"), Err(FormatIssue::Invalid('y')));
        assert_eq!(parse_format("%n"), Err(FormatIssue::Invalid('n')));
        assert_eq!(parse_format("%v5d"), Err(FormatIssue::Invalid('v')));
        assert_eq!(parse_format("abc %5"), Err(FormatIssue::Incomplete));
    }
}
