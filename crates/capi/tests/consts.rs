//! `src/consts.rs` against the installed Khronos headers: every constant has the value of its
//! `#define` in `CL/cl.h` (or `CL/cl_ext.h` for the ICD names).

use std::collections::HashMap;

/// `#define CL_NAME value` lines of a header, value with casts and spaces removed.
fn defines(path: &str) -> Option<HashMap<String, String>> {
    let text = std::fs::read_to_string(path).ok()?;
    let mut out = HashMap::new();
    for line in text.lines() {
        let mut words = line.split_whitespace();
        if words.next() != Some("#define") {
            continue;
        }
        let (Some(name), Some(value)) = (words.next(), words.next()) else {
            continue;
        };
        if !name.starts_with("CL_") {
            continue;
        }
        let rest: Vec<&str> = std::iter::once(value)
            .chain(words.take_while(|w| !w.starts_with("/*")))
            .collect();
        out.entry(name.to_string())
            .or_insert_with(|| normalize(&rest.join("")));
    }
    Some(out)
}

/// Evaluates the simple forms the headers use: `N`, `0xN`, `-N`, `(1 << N)`, `((cl_bitfield)1 << N)`.
fn normalize(value: &str) -> String {
    let v: String = value.chars().filter(|c| !c.is_whitespace()).collect();
    let v = v
        .replace("(cl_bitfield)", "")
        .replace("(cl_mem_flags)", "")
        .replace("u64", "");
    let v = v.trim_start_matches('(').trim_end_matches(')').to_string();
    let parse = |s: &str| -> Option<i128> {
        let s = s.trim_end_matches(['u', 'U']);
        if let Some(hex) = s.strip_prefix("0x") {
            i128::from_str_radix(hex, 16).ok()
        } else {
            s.parse().ok()
        }
    };
    if let Some((base, shift)) = v.split_once("<<") {
        let (base, shift) = (
            parse(base.trim_matches(['(', ')'])),
            parse(shift.trim_matches(['(', ')'])),
        );
        if let (Some(b), Some(s)) = (base, shift) {
            return (b << s).to_string();
        }
    }
    parse(&v).map_or(v, |n| n.to_string())
}

#[test]
fn constants_match_the_khronos_headers() {
    let (Some(cl), Some(ext)) = (
        defines("/usr/include/CL/cl.h"),
        defines("/usr/include/CL/cl_ext.h"),
    ) else {
        eprintln!("skipped: the OpenCL headers (opencl-c-headers) are not installed");
        return;
    };
    let ours = include_str!("../src/consts.rs");
    let mut checked = 0;
    for line in ours.lines().filter(|l| l.starts_with("pub const ")) {
        let (name, rest) = line["pub const ".len()..]
            .split_once(':')
            .expect("a typed constant");
        let value = rest
            .split_once('=')
            .expect("a value")
            .1
            .trim()
            .trim_end_matches(';');
        let header = cl
            .get(name)
            .or_else(|| ext.get(name))
            .unwrap_or_else(|| panic!("{name} is in no header"));
        assert_eq!(normalize(value), *header, "{name}");
        checked += 1;
    }
    assert!(checked > 400, "{checked}");
}
