//! `printf` (OpenCL C 6.15.14): formats the arguments with the format string's conversion
//! specifications, C99 style, plus the OpenCL vector specifier `%v4hlf`. Returns 0 on success
//! and -1 (all ones) when the format is malformed.

use kir::{ScalarType, Type};

use super::builtins::BuiltinError;
use super::memory::Memory;
use super::value::{sext, Val};

/// The longest format string read (bytes), a guard against unterminated strings.
const MAX_FORMAT: usize = 1 << 16;

pub(crate) fn printf(
    args: &[(Type, Val)],
    mem: &mut Memory<'_>,
    out: &mut Vec<u8>,
    address_bits: u32,
) -> Result<u64, BuiltinError> {
    let Some((_, format_ptr)) = args.first() else {
        return Ok(u64::from(u32::MAX));
    };
    let format = read_c_string(mem, format_ptr.s())?;
    let mut rest = &args[1..];
    let mut i = 0;
    let mut text = Vec::new();
    while i < format.len() {
        let c = format[i];
        if c != b'%' {
            text.push(c);
            i += 1;
            continue;
        }
        if format.get(i + 1) == Some(&b'%') {
            text.push(b'%');
            i += 2;
            continue;
        }
        let Some((spec, used)) = Spec::parse(&format[i + 1..]) else {
            return Ok(u64::from(u32::MAX));
        };
        i += 1 + used;
        let Some(((ty, value), tail)) = rest.split_first() else {
            return Ok(u64::from(u32::MAX));
        };
        rest = tail;
        if spec.conversion == b's' {
            let s = if value.s() == 0 {
                b"(null)".to_vec()
            } else {
                read_c_string(mem, value.s())?
            };
            let s = match spec.precision {
                Some(p) => s[..p.min(s.len())].to_vec(),
                None => s,
            };
            pad(&mut text, &s, &spec, false);
            continue;
        }
        let lanes = spec.vector.unwrap_or(1) as usize;
        for lane in 0..lanes {
            if lane > 0 {
                text.push(b',');
            }
            let bits = value.lane(lane);
            let lane_ty = ty.lane_type().unwrap_or(if ty.is_ptr() {
                ScalarType::I64
            } else {
                ScalarType::I32
            });
            format_one(&mut text, &spec, lane_ty, bits, ty.is_ptr(), address_bits);
        }
    }
    out.extend_from_slice(&text);
    Ok(0)
}

fn read_c_string(mem: &mut Memory<'_>, ptr: u64) -> Result<Vec<u8>, BuiltinError> {
    let mut s = Vec::new();
    let mut at = ptr;
    loop {
        let mut b = [0u8; 1];
        mem.read(at, &mut b)?;
        if b[0] == 0 || s.len() >= MAX_FORMAT {
            return Ok(s);
        }
        s.push(b[0]);
        at = mem.layout.add(at, 1);
    }
}

/// One conversion specification.
#[derive(Default, Debug)]
struct Spec {
    left: bool,
    plus: bool,
    space: bool,
    alt: bool,
    zero: bool,
    width: usize,
    precision: Option<usize>,
    vector: Option<u32>,
    conversion: u8,
}

impl Spec {
    /// Parses after the `%`; returns the spec and the bytes used.
    fn parse(f: &[u8]) -> Option<(Spec, usize)> {
        let mut s = Spec::default();
        let mut i = 0;
        while let Some(&c) = f.get(i) {
            match c {
                b'-' => s.left = true,
                b'+' => s.plus = true,
                b' ' => s.space = true,
                b'#' => s.alt = true,
                b'0' => s.zero = true,
                _ => break,
            }
            i += 1;
        }
        let number = |i: &mut usize| {
            let start = *i;
            while f.get(*i).is_some_and(u8::is_ascii_digit) {
                *i += 1;
            }
            std::str::from_utf8(&f[start..*i])
                .ok()
                .and_then(|t| t.parse::<usize>().ok())
        };
        s.width = number(&mut i).unwrap_or(0);
        if f.get(i) == Some(&b'.') {
            i += 1;
            s.precision = Some(number(&mut i).unwrap_or(0));
        }
        if f.get(i) == Some(&b'v') {
            i += 1;
            let n = number(&mut i)?;
            if ![2, 3, 4, 8, 16].contains(&n) {
                return None;
            }
            s.vector = Some(n as u32);
        }
        // Length modifiers only say how wide the argument is; the IR type says it already.
        while f.get(i).is_some_and(|c| b"hlLjzt".contains(c)) {
            i += 1;
        }
        let c = *f.get(i)?;
        if !b"diouxXcsfFeEgGaAp".contains(&c) {
            return None;
        }
        s.conversion = c;
        Some((s, i + 1))
    }
}

fn pad(out: &mut Vec<u8>, body: &[u8], spec: &Spec, numeric: bool) {
    let fill = spec.width.saturating_sub(body.len());
    if spec.left {
        out.extend_from_slice(body);
        out.extend(std::iter::repeat_n(b' ', fill));
    } else if spec.zero && numeric {
        // Zeros go after the sign and any 0x prefix.
        let sign_len = body.iter().take_while(|c| b"+- ".contains(c)).count();
        let prefix_len =
            if body[sign_len..].starts_with(b"0x") || body[sign_len..].starts_with(b"0X") {
                2
            } else {
                0
            };
        let (head, tail) = body.split_at(sign_len + prefix_len);
        out.extend_from_slice(head);
        out.extend(std::iter::repeat_n(b'0', fill));
        out.extend_from_slice(tail);
    } else {
        out.extend(std::iter::repeat_n(b' ', fill));
        out.extend_from_slice(body);
    }
}

fn format_one(
    out: &mut Vec<u8>,
    spec: &Spec,
    lane: ScalarType,
    bits: u64,
    is_ptr: bool,
    address_bits: u32,
) {
    let width = if is_ptr { address_bits } else { lane.bits() };
    let body: String = match spec.conversion {
        b'd' | b'i' => {
            let v = sext(bits, width);
            let digits = int_digits(v.unsigned_abs(), 10, false, spec.precision);
            sign_prefix(v < 0, spec) + &digits
        }
        b'u' => int_digits(bits, 10, false, spec.precision),
        b'o' => {
            let d = int_digits(bits, 8, false, spec.precision);
            if spec.alt && !d.starts_with('0') {
                format!("0{d}")
            } else {
                d
            }
        }
        b'x' | b'X' => {
            let upper = spec.conversion == b'X';
            let d = int_digits(bits, 16, upper, spec.precision);
            if spec.alt && bits != 0 {
                format!("{}{d}", if upper { "0X" } else { "0x" })
            } else {
                d
            }
        }
        b'p' => format!("0x{bits:x}"),
        b'c' => (bits as u8 as char).to_string(),
        _ => {
            let x = match lane {
                ScalarType::F16 => devlib::convert::f16_to_f64(half::f16::from_bits(bits as u16)),
                ScalarType::F32 => f64::from(f32::from_bits(bits as u32)),
                _ => f64::from_bits(bits),
            };
            float(x, spec)
        }
    };
    let numeric = !matches!(spec.conversion, b'c' | b's');
    let zero_ok = numeric
        && (spec.precision.is_none()
            || matches!(
                spec.conversion,
                b'f' | b'F' | b'e' | b'E' | b'g' | b'G' | b'a' | b'A'
            ));
    let spec_fill = Spec {
        zero: spec.zero && zero_ok,
        ..Spec {
            left: spec.left,
            width: spec.width,
            ..Spec::default()
        }
    };
    pad(out, body.as_bytes(), &spec_fill, numeric);
}

fn sign_prefix(negative: bool, spec: &Spec) -> String {
    if negative {
        "-".into()
    } else if spec.plus {
        "+".into()
    } else if spec.space {
        " ".into()
    } else {
        String::new()
    }
}

fn int_digits(v: u64, radix: u32, upper: bool, precision: Option<usize>) -> String {
    let mut d = match radix {
        8 => format!("{v:o}"),
        16 if upper => format!("{v:X}"),
        16 => format!("{v:x}"),
        _ => v.to_string(),
    };
    match precision {
        // C99 7.19.6.1: precision 0 with value 0 prints no digits.
        Some(0) if v == 0 => d.clear(),
        Some(p) if d.len() < p => d = "0".repeat(p - d.len()) + &d,
        _ => {}
    }
    d
}

/// `%f %e %g %a` (and upper-case forms) of `x`.
fn float(x: f64, spec: &Spec) -> String {
    let upper = spec.conversion.is_ascii_uppercase();
    let sign = sign_prefix(x.is_sign_negative() && !x.is_nan(), spec);
    let body = if x.is_nan() {
        "nan".to_string()
    } else if x.is_infinite() {
        "inf".to_string()
    } else {
        let a = x.abs();
        match spec.conversion.to_ascii_lowercase() {
            b'f' => fixed(a, spec.precision.unwrap_or(6), spec.alt),
            b'e' => exponent(a, spec.precision.unwrap_or(6), spec.alt),
            b'g' => general(a, spec.precision.unwrap_or(6), spec.alt),
            _ => hex_float(a, spec.precision, spec.alt),
        }
    };
    let body = if upper {
        body.to_ascii_uppercase()
    } else {
        body
    };
    sign + &body
}

fn fixed(a: f64, precision: usize, alt: bool) -> String {
    let mut s = format!("{a:.precision$}");
    if alt && precision == 0 {
        s.push('.');
    }
    s
}

/// `d.ddde±XX` with the C exponent format (at least two digits).
fn exponent(a: f64, precision: usize, alt: bool) -> String {
    let s = format!("{a:.precision$e}");
    let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let mut mantissa = mantissa.to_string();
    if alt && precision == 0 {
        mantissa.push('.');
    }
    format!(
        "{mantissa}e{}{:02}",
        if exp < 0 { '-' } else { '+' },
        exp.unsigned_abs()
    )
}

/// C99 `%g`: `%e` if the exponent is < -4 or ≥ precision, else `%f`; trailing zeros removed
/// unless `#`.
fn general(a: f64, precision: usize, alt: bool) -> String {
    let p = precision.max(1);
    let e_form = format!("{a:.prec$e}", prec = p - 1);
    let exp: i64 = e_form
        .split_once('e')
        .and_then(|(_, e)| e.parse().ok())
        .unwrap_or(0);
    let s = if exp < -4 || exp >= p as i64 {
        exponent(a, p - 1, alt)
    } else {
        fixed(a, (p as i64 - 1 - exp) as usize, alt)
    };
    if alt {
        return s;
    }
    let (mantissa, exp_part) = match s.find('e') {
        Some(i) => (s[..i].to_string(), s[i..].to_string()),
        None => (s.clone(), String::new()),
    };
    let mantissa = if mantissa.contains('.') {
        mantissa
            .trim_end_matches('0')
            .trim_end_matches('.')
            .to_string()
    } else {
        mantissa
    };
    mantissa + &exp_part
}

/// C99 `%a`: `0x1.hhhp±d` (normalised; subnormals too), exact unless a precision rounds it.
fn hex_float(a: f64, precision: Option<usize>, alt: bool) -> String {
    if a == 0.0 {
        let digits = precision.map_or(String::new(), |p| "0".repeat(p));
        let dot = if !digits.is_empty() || alt { "." } else { "" };
        return format!("0x0{dot}{digits}p+0");
    }
    let bits = a.to_bits();
    let raw_exp = ((bits >> 52) & 0x7ff) as i64;
    let mut mant = bits & ((1u64 << 52) - 1);
    let mut exp = raw_exp - 1023;
    if raw_exp == 0 {
        // Subnormal: normalise so the leading digit is 1.
        let shift = mant.leading_zeros() as i64 - 11;
        mant = (mant << shift) & ((1u64 << 52) - 1);
        exp = -1022 - shift;
    }
    let mut lead = 1u64;
    let mut digits = format!("{mant:013x}");
    if let Some(p) = precision {
        if p < 13 {
            // Round to nearest even on the dropped hex digits.
            let drop = (13 - p) as u32 * 4;
            let full = (1u64 << 52) | mant;
            let kept = full >> drop;
            let rem = full & ((1u64 << drop) - 1);
            let half = 1u64 << (drop - 1);
            let rounded = if rem > half || (rem == half && kept & 1 == 1) {
                kept + 1
            } else {
                kept
            };
            lead = rounded >> (p as u32 * 4);
            let frac = rounded & ((1u64 << (p as u32 * 4)) - 1);
            digits = if p == 0 {
                String::new()
            } else {
                format!("{frac:0width$x}", width = p)
            };
            if lead == 2 {
                lead = 1;
                exp += 1;
            }
        } else {
            digits.push_str(&"0".repeat(p - 13));
        }
    } else {
        digits = digits.trim_end_matches('0').to_string();
    }
    let dot = if !digits.is_empty() || alt { "." } else { "" };
    format!(
        "0x{lead}{dot}{digits}p{}{}",
        if exp < 0 { '-' } else { '+' },
        exp.unsigned_abs()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fmt(spec: &str, x: f64) -> String {
        let (s, _) = Spec::parse(spec.as_bytes()).unwrap();
        float(x, &s)
    }

    #[test]
    fn floats_format_like_c() {
        // Expected strings: C99 printf as glibc prints them.
        assert_eq!(fmt("f", 1.5), "1.500000");
        assert_eq!(fmt(".2e", 12345.678), "1.23e+04");
        assert_eq!(fmt("g", 0.0001), "0.0001");
        assert_eq!(fmt("g", 0.00001), "1e-05");
        assert_eq!(fmt("g", 123456789.0), "1.23457e+08");
        assert_eq!(fmt("g", 100.0), "100");
        assert_eq!(fmt("a", 1.0), "0x1p+0");
        assert_eq!(fmt("a", 0.5), "0x1p-1");
        assert_eq!(fmt("A", 10.0), "0X1.4P+3");
        assert_eq!(fmt("+.3f", 2.0), "+2.000");
        assert_eq!(fmt("f", f64::INFINITY), "inf");
        assert_eq!(fmt("E", f64::NAN), "NAN");
    }

    #[test]
    fn matches_pocl_output() {
        // Expected strings printed by PoCL 3.1 for the same specifications and values.
        let one = |spec: &str, lane: ScalarType, bits: u64| {
            let mut out = Vec::new();
            let (s, _) = Spec::parse(spec.as_bytes()).unwrap();
            format_one(&mut out, &s, lane, bits, false, 64);
            String::from_utf8(out).unwrap()
        };
        // 3.14159f (bits 0x40490fd0), promoted to double as printf arguments are.
        let pi = f64::from(f32::from_bits(0x4049_0fd0)).to_bits();
        assert_eq!(one("5i", ScalarType::I32, 123), "  123");
        assert_eq!(one("-4d", ScalarType::I32, (-123i32) as u32 as u64), "-123");
        assert_eq!(one("#X", ScalarType::I32, 123), "0X7B");
        assert_eq!(one("o", ScalarType::I32, 123), "173");
        assert_eq!(one("e", ScalarType::F64, pi), "3.141590e+00");
        assert_eq!(one("g", ScalarType::F64, pi), "3.14159");
        assert_eq!(one("a", ScalarType::F64, pi), "0x1.921fap+1");
        assert_eq!(
            one("ld", ScalarType::I64, (-9_000_000_000i64) as u64),
            "-9000000000"
        );
    }

    #[test]
    fn integers_and_padding() {
        let mut out = Vec::new();
        let (s, _) = Spec::parse(b"05d").unwrap();
        format_one(
            &mut out,
            &s,
            ScalarType::I32,
            (-42i32) as u32 as u64,
            false,
            64,
        );
        assert_eq!(String::from_utf8(out).unwrap(), "-0042");
        let mut out = Vec::new();
        let (s, _) = Spec::parse(b"#x").unwrap();
        format_one(&mut out, &s, ScalarType::I32, 255, false, 64);
        assert_eq!(String::from_utf8(out).unwrap(), "0xff");
        let mut out = Vec::new();
        let (s, _) = Spec::parse(b"-4u|").unwrap();
        format_one(&mut out, &s, ScalarType::I8, 7, false, 64);
        assert_eq!(String::from_utf8(out).unwrap(), "7   ");
    }
}
