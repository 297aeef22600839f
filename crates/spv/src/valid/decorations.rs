//! Decoration rules: *FPRoundingMode* only on the five conversions of env 8.2 (3.0 "Rounding
//! Modes for Conversions"), *SaturatedConversion* only on conversions to integers (SPIR-V 3.20
//! Decoration), alignments (3.0 "Alignment of Types": variables at least naturally aligned;
//! SPIR-V 3.26 Memory Operands: *Aligned* is a power of two), and built-in variables (3.0
//! "Built-in Variables": *Input* storage, the listed built-ins, their required types).
//!
//! One compatibility tolerance: a SPIR-V 1.0–1.2 module may hold its built-in variables in
//! *UniformConstant* storage. The "*Input* storage class" rule is new in the 3.0 environment; the
//! OpenCL 2.1/2.2 environment (v2.2-7, the one that governs SPIR-V 1.0–1.2 modules) states no
//! storage class for built-ins, producers of that time (llvm-spirv before 2020, the SPIR 1.2/2.0
//! translators) put them in *UniformConstant*, and spirv-val accepts them in every OpenCL
//! environment. Such a variable is read-only like an *Input* one, so it means the same thing.

use super::context::Ctx;
use crate::{BuiltIn, Decoration, Id, MemoryAccess, Op, OperandKind, StorageClass};

const ROUNDING: &str =
    "env 8.2 (FPRoundingMode only on OpConvertFToU/FToS/SToF/UToF and OpFConvert)";
const SATURATED: &str =
    "SPIR-V 3.20 Decoration (SaturatedConversion only on conversions to integer)";
const ALIGNMENT: &str =
    "env 3.0 Alignment of Types (objects are aligned to the size of their type)";
const CONSTANT: &str =
    "SPIR-V 3.20 Decoration (Constant: indicates that a global variable is constant; applies to variables)";
const ALIGNED: &str = "SPIR-V 3.26 Memory Operands (Aligned must be a power of two)";
const BUILTIN_STORAGE: &str =
    "env 3.0 Built-in Variables (built-in variables are in the Input storage class)";
const BUILTIN_SET: &str = "env 3.0 Built-in Variables (supported BuiltIn decorations)";
const BUILTIN_TYPE: &str = "env 3.0 Built-in Variables (required SPIR-V type of a built-in)";

pub(crate) fn check(ctx: &mut Ctx<'_>) {
    let mut targets: Vec<u32> = ctx.decorations.keys().copied().collect();
    targets.sort_unstable();
    for t in targets {
        let applied = ctx.decorations_of(Id(t)).to_vec();
        let def = ctx.def(Id(t));
        let target_op = def.map(|d| d.op);
        for a in applied {
            match a.decoration {
                Decoration::FPRoundingMode if !rounding_target(target_op) => {
                    ctx.error(
                        a.by,
                        ROUNDING,
                        format!("%{t} is not a conversion that may carry a rounding mode"),
                    );
                }
                Decoration::SaturatedConversion if !saturating_target(target_op) => {
                    ctx.error(
                        a.by,
                        SATURATED,
                        format!("%{t} is not a conversion to an integer type"),
                    );
                }
                Decoration::Alignment => {
                    let align = a.params.first().and_then(|p| p.as_int()).unwrap_or(0);
                    if !align.is_power_of_two() {
                        ctx.error(
                            a.by,
                            ALIGNMENT,
                            format!("alignment {align} is not a power of two"),
                        );
                    } else if target_op == Some(Op::Variable) {
                        let pointee = def
                            .and_then(|d| d.result_type)
                            .and_then(|p| ctx.pointer(p))
                            .map(|p| p.1);
                        if let Some(need) = pointee.and_then(|p| natural_alignment(ctx, p, 0)) {
                            if u64::from(align) < need {
                                ctx.error(
                                    a.by,
                                    ALIGNMENT,
                                    format!("alignment {align} is below the {need}-byte alignment of the variable's type"),
                                );
                            }
                        }
                    }
                }
                Decoration::Constant if def.is_some() && target_op != Some(Op::Variable) => {
                    ctx.error(a.by, CONSTANT, format!("%{t} is not a variable"));
                }
                Decoration::BuiltIn => {
                    builtin(ctx, t, a.by, a.params.first().and_then(|p| p.as_int()))
                }
                _ => {}
            }
        }
    }
    // Aligned memory operands.
    for i in 0..ctx.module.instructions.len() {
        let Some(slots) = ctx.slots[i].clone() else {
            continue;
        };
        let inst = ctx.inst(i);
        for s in slots.iter().filter(|s| s.kind == OperandKind::MemoryAccess) {
            let mask = inst.int(s.index).unwrap_or(0);
            if mask & MemoryAccess::ALIGNED.0 == 0 {
                continue;
            }
            // Parameters follow in bit order; Volatile (0x1) has none, so Aligned's literal is next.
            if let Some(align) = inst.int(s.index + 1) {
                if !align.is_power_of_two() {
                    ctx.error(i, ALIGNED, format!("Aligned {align} is not a power of two"));
                }
            }
        }
    }
}

/// The conversions that may carry *FPRoundingMode* (env 8.2).
fn rounding_target(op: Option<Op>) -> bool {
    matches!(
        op,
        Some(Op::ConvertFToU | Op::ConvertFToS | Op::ConvertSToF | Op::ConvertUToF | Op::FConvert)
    )
}

/// The conversions to integer types that may carry *SaturatedConversion*.
fn saturating_target(op: Option<Op>) -> bool {
    matches!(
        op,
        Some(
            Op::ConvertFToU
                | Op::ConvertFToS
                | Op::UConvert
                | Op::SConvert
                | Op::SatConvertSToU
                | Op::SatConvertUToS
        )
    )
}

/// The alignment an object of type `ty` needs (env 3.0 "Alignment of Types"), for scalars,
/// vectors, pointers and arrays of them; None for other types.
fn natural_alignment(ctx: &Ctx<'_>, ty: Id, depth: u32) -> Option<u64> {
    if depth > 16 {
        return None;
    }
    let def = ctx.def(ty)?;
    match def.op {
        Op::TypeInt | Op::TypeFloat => Some(u64::from(def.int(0)? / 8).max(1)),
        Op::TypePointer => Some(u64::from(ctx.env.address_bits / 8)),
        Op::TypeVector => {
            let (c, n) = ctx.vector(ty)?;
            let elem = natural_alignment(ctx, c, depth + 1)?;
            let n = if n == 3 { 4 } else { u64::from(n) };
            Some(elem.saturating_mul(n))
        }
        Op::TypeArray => natural_alignment(ctx, def.id(0)?, depth + 1),
        _ => None,
    }
}

/// The type a built-in variable must have.
enum Want {
    Uint32,
    SizeT,
    SizeT3,
    Uint4,
}

fn builtin(ctx: &mut Ctx<'_>, target: u32, by: usize, value: Option<u32>) {
    let Some(b) = value.and_then(BuiltIn::from_u32) else {
        ctx.error(by, BUILTIN_SET, "unknown BuiltIn value");
        return;
    };
    use BuiltIn as B;
    let subgroups = ctx.env.subgroups();
    let (want, supported) = match b {
        B::WorkDim => (Want::Uint32, true),
        B::GlobalSize
        | B::GlobalInvocationId
        | B::WorkgroupSize
        | B::EnqueuedWorkgroupSize
        | B::LocalInvocationId
        | B::NumWorkgroups
        | B::WorkgroupId
        | B::GlobalOffset => (Want::SizeT3, true),
        B::GlobalLinearId | B::LocalInvocationIndex => (Want::SizeT, true),
        B::SubgroupSize
        | B::SubgroupMaxSize
        | B::NumSubgroups
        | B::NumEnqueuedSubgroups
        | B::SubgroupId
        | B::SubgroupLocalInvocationId => (Want::Uint32, subgroups),
        B::SubgroupEqMask
        | B::SubgroupGeMask
        | B::SubgroupGtMask
        | B::SubgroupLeMask
        | B::SubgroupLtMask => (Want::Uint4, ctx.env.has_extension("cl_khr_subgroup_ballot")),
        _ => (Want::Uint32, false),
    };
    if !supported {
        ctx.error(
            by,
            BUILTIN_SET,
            format!("BuiltIn {} is not supported by {}", b.name(), ctx.env),
        );
        return;
    }
    let Some(def) = ctx.def(Id(target)) else {
        return;
    };
    if def.op != Op::Variable {
        ctx.error(
            by,
            BUILTIN_STORAGE,
            format!(
                "BuiltIn {} decorates a {}, not a variable",
                b.name(),
                def.op.name()
            ),
        );
        return;
    }
    let pointer = def.result_type.and_then(|t| ctx.pointer(t));
    let Some((sc, pointee)) = pointer else { return };
    if sc != StorageClass::Input && !older_uniform_constant_builtin(ctx, sc) {
        ctx.error(
            by,
            BUILTIN_STORAGE,
            format!("built-in variable has storage class {}", sc.name()),
        );
    }
    let size_t = ctx.env.address_bits;
    let ok = match want {
        Want::Uint32 => ctx.int_width(pointee) == Some(32),
        Want::SizeT => ctx.int_width(pointee) == Some(size_t),
        Want::SizeT3 => ctx
            .vector(pointee)
            .is_some_and(|(c, n)| n == 3 && ctx.int_width(c) == Some(size_t)),
        Want::Uint4 => ctx
            .vector(pointee)
            .is_some_and(|(c, n)| n == 4 && ctx.int_width(c) == Some(32)),
    };
    if !ok {
        let expected = match want {
            Want::Uint32 => "a 32-bit integer".to_string(),
            Want::SizeT => format!("a {size_t}-bit integer (size_t)"),
            Want::SizeT3 => format!("a vector of 3 {size_t}-bit integers (size_t)"),
            Want::Uint4 => "a vector of 4 32-bit integers".to_string(),
        };
        ctx.error(
            by,
            BUILTIN_TYPE,
            format!("BuiltIn {} must have type {expected}", b.name()),
        );
    }
}

/// The tolerance of the module doc: *UniformConstant* built-ins in a SPIR-V 1.0–1.2 module (env
/// v2.2-7 has no storage-class rule for built-ins; the 3.0 environment added *Input*).
fn older_uniform_constant_builtin(ctx: &Ctx<'_>, sc: StorageClass) -> bool {
    sc == StorageClass::UniformConstant && ctx.module.header.version <= (1, 2)
}
