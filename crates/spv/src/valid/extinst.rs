//! Extended instruction sets (env 3.0 "Extended Instruction Sets", env 7
//! `cl_khr_spirv_extended_debug_info`): which sets a module may import, that `OpExtInst` names an
//! imported set and an instruction of it, and the OpenCL.std `printf` operands (env 3.0 "Printf
//! Operands": each argument's type matches its conversion specification).

use super::context::Ctx;
use crate::{Id, Op, OpenClStd, StorageClass};

const IMPORT: &str = "env 3.0 Extended Instruction Sets (OpenCL.std; OpenCL.DebugInfo.100 with cl_khr_spirv_extended_debug_info)";
const EXT_INST: &str =
    "SPIR-V 3.32.2 OpExtInst (Set is an OpExtInstImport, Instruction is one of the set)";
const PRINTF: &str = "env 3.0 Printf Operands (argument types match the format specifiers)";

pub(crate) fn check(ctx: &mut Ctx<'_>) {
    for i in 0..ctx.module.instructions.len() {
        let inst = ctx.inst(i);
        match inst.op {
            Op::ExtInstImport => {
                let name = inst.str(0).unwrap_or("");
                let ok = name == "OpenCL.std"
                    || (name == "OpenCL.DebugInfo.100"
                        && ctx.env.has_extension("cl_khr_spirv_extended_debug_info"))
                    || (name.starts_with("NonSemantic.")
                        && (ctx.extensions.contains("SPV_KHR_non_semantic_info")
                            || ctx.module.header.version >= (1, 6)));
                if !ok {
                    ctx.error(
                        i,
                        IMPORT,
                        format!("the extended instruction set {name:?} is not supported"),
                    );
                }
            }
            Op::ExtInst => {
                let Some(set) = inst.id(0) else { continue };
                let Some(name) = ctx.ext_sets.get(&set.0).cloned() else {
                    ctx.error(i, EXT_INST, format!("{set} is not an OpExtInstImport"));
                    continue;
                };
                if name != "OpenCL.std" {
                    continue;
                }
                let number = inst.int(1).unwrap_or(u32::MAX);
                match OpenClStd::from_u32(number) {
                    None => ctx.error(
                        i,
                        EXT_INST,
                        format!("{number} is not an OpenCL.std instruction"),
                    ),
                    Some(OpenClStd::Printf) => printf(ctx, i),
                    Some(ext) => typed(ctx, i, ext),
                }
            }
            _ => {}
        }
    }
}

const TYPES: &str = "OpenCL.ExtendedInstructionSet.100 (operand and result types)";

/// Float functions whose operands all have the (float scalar or vector) Result Type.
const FLOAT_SAME: &[&str] = &[
    "acos",
    "acosh",
    "acospi",
    "asin",
    "asinh",
    "asinpi",
    "atan",
    "atan2",
    "atanh",
    "atanpi",
    "atan2pi",
    "cbrt",
    "ceil",
    "copysign",
    "cos",
    "cosh",
    "cospi",
    "erfc",
    "erf",
    "exp",
    "exp2",
    "exp10",
    "expm1",
    "fabs",
    "fdim",
    "floor",
    "fma",
    "fmax",
    "fmin",
    "fmod",
    "hypot",
    "lgamma",
    "log",
    "log2",
    "log10",
    "log1p",
    "logb",
    "mad",
    "maxmag",
    "minmag",
    "nextafter",
    "pow",
    "powr",
    "remainder",
    "rint",
    "round",
    "rsqrt",
    "sin",
    "sinh",
    "sinpi",
    "sqrt",
    "tan",
    "tanh",
    "tanpi",
    "tgamma",
    "trunc",
    "half_cos",
    "half_divide",
    "half_exp",
    "half_exp2",
    "half_exp10",
    "half_log",
    "half_log2",
    "half_log10",
    "half_powr",
    "half_recip",
    "half_rsqrt",
    "half_sin",
    "half_sqrt",
    "half_tan",
    "native_cos",
    "native_divide",
    "native_exp",
    "native_exp2",
    "native_exp10",
    "native_log",
    "native_log2",
    "native_log10",
    "native_powr",
    "native_recip",
    "native_rsqrt",
    "native_sin",
    "native_sqrt",
    "native_tan",
    "fclamp",
    "degrees",
    "mix",
    "radians",
    "step",
    "smoothstep",
    "sign",
    "normalize",
    "fast_normalize",
    "cross",
];

/// Integer functions whose operands all have the (integer scalar or vector) Result Type.
const INT_SAME: &[&str] = &[
    "s_abs",
    "u_abs",
    "s_abs_diff",
    "u_abs_diff",
    "s_add_sat",
    "u_add_sat",
    "s_hadd",
    "u_hadd",
    "s_rhadd",
    "u_rhadd",
    "s_clamp",
    "u_clamp",
    "clz",
    "ctz",
    "s_mad_hi",
    "u_mad_hi",
    "u_mad_sat",
    "s_mad_sat",
    "s_max",
    "u_max",
    "s_min",
    "u_min",
    "s_mul_hi",
    "u_mul_hi",
    "rotate",
    "s_sub_sat",
    "u_sub_sat",
    "s_mad24",
    "u_mad24",
    "s_mul24",
    "u_mul24",
    "popcount",
];

/// Geometric functions returning a float scalar from float vectors of its component type.
const FLOAT_REDUCE: &[&str] = &["length", "distance", "fast_length", "fast_distance"];

/// Operand and result types of the OpenCL.std functions in the tables above.
fn typed(ctx: &mut Ctx<'_>, i: usize, ext: OpenClStd) {
    let inst = ctx.inst(i);
    let Some(rt) = inst.result_type else { return };
    let name = ext.name();
    let args: Vec<Option<Id>> = inst
        .operands
        .iter()
        .skip(2)
        .map(|o| o.as_id().and_then(|v| ctx.type_of(v)))
        .collect();
    let scalar_of = |t: Id| ctx.vector(t).map(|v| v.0).unwrap_or(t);
    let ok = if FLOAT_SAME.contains(&name) {
        ctx.float_width(scalar_of(rt)).is_some() && args.iter().all(|a| *a == Some(rt))
    } else if INT_SAME.contains(&name) {
        ctx.int_width(scalar_of(rt)).is_some() && args.iter().all(|a| *a == Some(rt))
    } else if FLOAT_REDUCE.contains(&name) {
        ctx.float_width(rt).is_some()
            && args.first().copied().flatten().is_some()
            && args
                .iter()
                .all(|a| *a == args[0] && a.map(scalar_of) == Some(rt))
    } else {
        return;
    };
    if !ok {
        ctx.error(
            i,
            TYPES,
            format!("the operands of {name} must have the Result Type (of the right kind)"),
        );
    }
}

/// The bytes of a constant string that `ptr` points to (a UniformConstant variable whose
/// initializer is a composite of 8-bit constants, through zero-index access chains).
fn constant_string(ctx: &Ctx<'_>, mut ptr: Id) -> Option<Vec<u8>> {
    for _ in 0..8 {
        let d = ctx.def(ptr)?;
        match d.op {
            Op::Variable => {
                if d.int(0).and_then(StorageClass::from_u32) != Some(StorageClass::UniformConstant)
                {
                    return None;
                }
                let init = ctx.def(d.id(1)?)?;
                if init.op != Op::ConstantComposite {
                    return None;
                }
                let mut bytes = Vec::new();
                for c in init.operands.iter() {
                    let b = ctx.const_int(c.as_id()?)?;
                    if b == 0 {
                        break;
                    }
                    bytes.push(b as u8);
                }
                return Some(bytes);
            }
            Op::AccessChain
            | Op::InBoundsAccessChain
            | Op::PtrAccessChain
            | Op::InBoundsPtrAccessChain => {
                let all_zero = d
                    .operands
                    .iter()
                    .skip(1)
                    .all(|o| o.as_id().and_then(|x| ctx.const_int(x)) == Some(0));
                if !all_zero {
                    return None;
                }
                ptr = d.id(0)?;
            }
            Op::Bitcast | Op::PtrCastToGeneric => ptr = d.id(0)?,
            _ => return None,
        }
    }
    None
}

/// What one conversion specification accepts.
#[derive(Debug, PartialEq)]
enum Arg {
    /// Integer of this width, `vector` components (None: scalar).
    Int(u32, Option<u32>),
    /// Float of one of these widths.
    Float(&'static [u32], Option<u32>),
    Pointer,
}

/// Parses a printf format into the argument each specification takes, or a description of
/// the undefined construct (env 3.0 "Printf Operands" restrictions).
fn parse_format(format: &[u8], address_bits: u32) -> Result<Vec<Arg>, String> {
    let mut args = Vec::new();
    let mut k = 0;
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    while k < format.len() {
        if format[k] != b'%' {
            k += 1;
            continue;
        }
        let start = k;
        k += 1;
        if format.get(k) == Some(&b'%') {
            k += 1;
            continue;
        }
        while k < format.len() && b"-+ #0".contains(&format[k]) {
            k += 1;
        }
        if format.get(k) == Some(&b'*') {
            return Err("the * field width is undefined".into());
        }
        while k < format.len() && format[k].is_ascii_digit() {
            k += 1;
        }
        if format.get(k) == Some(&b'.') {
            k += 1;
            if format.get(k) == Some(&b'*') {
                return Err("the * precision is undefined".into());
            }
            while k < format.len() && format[k].is_ascii_digit() {
                k += 1;
            }
        }
        let mut vector = None;
        if format.get(k) == Some(&b'v') {
            k += 1;
            let ds = k;
            while k < format.len() && format[k].is_ascii_digit() {
                k += 1;
            }
            let n: u32 = text(&format[ds..k]).parse().unwrap_or(0);
            if ![2, 3, 4, 8, 16].contains(&n) {
                return Err(format!("vector size {n} in {}", text(&format[start..k])));
            }
            vector = Some(n);
        }
        let ls = k;
        while k < format.len() && b"hlLjzt".contains(&format[k]) {
            k += 1;
        }
        let length = text(&format[ls..k]);
        let Some(&conv) = format.get(k) else {
            return Err(format!("incomplete conversion {}", text(&format[start..])));
        };
        k += 1;
        let spec = text(&format[start..k]);
        let int_width = |length: &str, vector: Option<u32>| -> Result<u32, String> {
            match (length, vector) {
                ("hh", None) | ("h", None) | ("", None) => Ok(32),
                ("l", None) => Ok(64),
                ("hh", Some(_)) => Ok(8),
                ("h", Some(_)) => Ok(16),
                ("hl", Some(_)) => Ok(32),
                ("l", Some(_)) => Ok(64),
                _ => Err(format!("length modifier {length:?} is undefined in {spec}")),
            }
        };
        let _ = address_bits;
        match conv {
            b'd' | b'i' | b'o' | b'u' | b'x' | b'X' => {
                args.push(Arg::Int(int_width(&length, vector)?, vector))
            }
            b'c' => {
                if !length.is_empty() || vector.is_some() {
                    return Err(format!("{spec} is undefined"));
                }
                args.push(Arg::Int(32, None));
            }
            b'a' | b'A' | b'e' | b'E' | b'f' | b'F' | b'g' | b'G' => {
                let widths: &'static [u32] = match (length.as_str(), vector) {
                    ("", None) => &[32, 64],
                    ("h", Some(_)) => &[16],
                    ("hl", Some(_)) => &[32],
                    ("l", Some(_)) => &[64],
                    _ => return Err(format!("length modifier {length:?} is undefined in {spec}")),
                };
                args.push(Arg::Float(widths, vector));
            }
            b's' | b'p' => {
                if !length.is_empty() || vector.is_some() {
                    return Err(format!("{spec} is undefined"));
                }
                args.push(Arg::Pointer);
            }
            b'n' => return Err("the n conversion is undefined".into()),
            _ => return Err(format!("unknown conversion {spec}")),
        }
    }
    Ok(args)
}

fn printf(ctx: &mut Ctx<'_>, i: usize) {
    let inst = ctx.inst(i);
    if inst.result_type.and_then(|t| ctx.int_width(t)) != Some(32) {
        ctx.error(i, PRINTF, "printf returns a 32-bit integer");
    }
    let Some(format_ptr) = inst.id(2) else { return };
    let format_type = ctx.type_of(format_ptr).and_then(|t| ctx.pointer(t));
    match format_type {
        Some((StorageClass::UniformConstant, pointee)) if ctx.int_width(pointee) == Some(8) => {}
        _ => {
            ctx.error(
                i,
                PRINTF,
                "the format must be a pointer to 8-bit integers in UniformConstant storage",
            );
            return;
        }
    }
    let Some(format) = constant_string(ctx, format_ptr) else {
        return;
    };
    let specs = match parse_format(&format, ctx.env.address_bits) {
        Ok(s) => s,
        Err(why) => {
            ctx.error(i, PRINTF, why);
            return;
        }
    };
    let args: Vec<Option<Id>> = inst.operands.iter().skip(3).map(|o| o.as_id()).collect();
    if args.len() != specs.len() {
        ctx.error(
            i,
            PRINTF,
            format!(
                "the format has {} conversions but {} arguments are given",
                specs.len(),
                args.len()
            ),
        );
        return;
    }
    for (n, (spec, arg)) in specs.iter().zip(args).enumerate() {
        let Some(ty) = arg.and_then(|a| ctx.type_of(a)) else {
            continue;
        };
        let (scalar, count) = match ctx.vector(ty) {
            Some((c, n)) => (c, Some(n)),
            None => (ty, None),
        };
        let ok = match spec {
            Arg::Int(w, v) => *v == count && ctx.int_width(scalar) == Some(*w),
            Arg::Float(ws, v) => {
                *v == count && ctx.float_width(scalar).is_some_and(|w| ws.contains(&w))
            }
            Arg::Pointer => ctx.pointer(ty).is_some(),
        };
        if !ok {
            ctx.error(
                i,
                PRINTF,
                format!(
                    "argument {} does not match its conversion ({spec:?})",
                    n + 1
                ),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_formats() {
        assert_eq!(
            parse_format(b"%d %f\n", 64).unwrap(),
            vec![Arg::Int(32, None), Arg::Float(&[32, 64], None)]
        );
        assert_eq!(
            parse_format(b"%v4hlf %%", 64).unwrap(),
            vec![Arg::Float(&[32], Some(4))]
        );
        assert_eq!(
            parse_format(b"%ld %s %p", 64).unwrap(),
            vec![Arg::Int(64, None), Arg::Pointer, Arg::Pointer]
        );
        assert!(parse_format(b"%*d", 64).is_err());
        assert!(parse_format(b"%lld", 64).is_err());
        assert!(parse_format(b"%n", 64).is_err());
        assert!(parse_format(b"%v5d", 64).is_err());
    }
}
