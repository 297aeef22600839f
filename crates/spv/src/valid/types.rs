//! Operand and result types of the value instructions a consumer executes (SPIR-V 3.32
//! instruction pages): arithmetic, bit, relational and logical instructions, conversions,
//! composite and vector instructions (and `OpConstantComposite`), access chains, `OpSelect`,
//! `OpPhi` and `OpCopyObject`.
//! OpenCL integers have no signedness, so "same type" means the same declaration.
//!
//! One compatibility tolerance: `OpConvertUToPtr` whose Result Type is `OpTypeDeviceEvent` and
//! whose operand is an integer `OpConstant`. SPIR-V 3.32.11 wants a physical pointer Result
//! Type, and spirv-val rejects the instruction, but clang-15's opencl-c-base.h defines
//! `CLK_NULL_EVENT` as `__builtin_astype(SIZE_MAX, clk_event_t)` and llvm-spirv-15 emits it as
//! `OpConvertUToPtr %DeviceEvent %size_max`; users run such clang-built kernels and expect
//! what PoCL does with the same source. The value names the null device event (kir lowers an
//! all-ones constant to `CLK_NULL_EVENT`, an invalid event). Every other `OpConvertUToPtr`
//! (a non-constant or non-integer operand, any other non-pointer Result Type) stays invalid.

use super::context::Ctx;
use crate::{Id, Op, StorageClass};

/// The scalar kind of a numeric or boolean type.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Kind {
    Int,
    Float,
    Bool,
}

/// A scalar or vector type: kind, component width (0 for bool), component count (1 for scalars).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Shape {
    kind: Kind,
    width: u32,
    count: u32,
}

fn shape(ctx: &Ctx<'_>, ty: Id) -> Option<Shape> {
    let (scalar, count) = match ctx.vector(ty) {
        Some((c, n)) => (c, n),
        None => (ty, 1),
    };
    let def = ctx.def(scalar)?;
    let (kind, width) = match def.op {
        Op::TypeInt => (Kind::Int, def.int(0)?),
        Op::TypeFloat => (Kind::Float, def.int(0)?),
        Op::TypeBool => (Kind::Bool, 0),
        _ => return None,
    };
    Some(Shape { kind, width, count })
}

/// The tolerance of the module doc: `OpConvertUToPtr` whose Result Type is
/// `OpTypeDeviceEvent` and whose operand is an integer `OpConstant` (llvm-spirv-15's
/// `CLK_NULL_EVENT`). Anything else converting to `OpTypeDeviceEvent` stays invalid.
fn null_device_event(ctx: &Ctx<'_>, i: usize) -> bool {
    let inst = ctx.inst(i);
    let device_event = inst
        .result_type
        .and_then(|rt| ctx.def(rt))
        .is_some_and(|d| d.op == Op::TypeDeviceEvent);
    let constant = inst
        .id(0)
        .and_then(|v| ctx.def(v))
        .is_some_and(|d| d.op == Op::Constant)
        && is_int_scalar(operand_type(ctx, i, 0).and_then(|t| shape(ctx, t)));
    device_event && constant
}

fn is_int_scalar(s: Option<Shape>) -> bool {
    s.is_some_and(|s| s.kind == Kind::Int && s.count == 1)
}

const ARITH: &str = "SPIR-V 3.32.13 (arithmetic operand and result types)";
const BIT: &str = "SPIR-V 3.32.14 (bit instruction operand and result types)";
const RELATIONAL: &str = "SPIR-V 3.32.15 (relational and logical operand and result types)";
const CONVERSION: &str = "SPIR-V 3.32.11 (conversion operand and result types)";
const COMPOSITE: &str = "SPIR-V 3.32.12 (composite instruction operand and result types)";
const ACCESS_CHAIN: &str = "SPIR-V 3.32.8 (access chain base, indices and result type)";
const SAME_TYPE: &str = "SPIR-V 3.32 (operand types equal the Result Type)";

pub(crate) fn check(ctx: &mut Ctx<'_>) {
    for i in 0..ctx.module.instructions.len() {
        if ctx.func_of[i].is_some() {
            check_instruction(ctx, i);
        } else if ctx.inst(i).op == Op::ConstantComposite {
            composite_construct(ctx, i);
        }
    }
}

fn operand_type(ctx: &Ctx<'_>, i: usize, k: usize) -> Option<Id> {
    ctx.inst(i).id(k).and_then(|v| ctx.type_of(v))
}

fn check_instruction(ctx: &mut Ctx<'_>, i: usize) {
    let inst = ctx.inst(i);
    let op = inst.op;
    let Some(rt) = inst.result_type else { return };
    let result = shape(ctx, rt);
    match op {
        // Integer arithmetic: result int; operands of the result type.
        Op::IAdd
        | Op::ISub
        | Op::IMul
        | Op::SDiv
        | Op::UDiv
        | Op::SRem
        | Op::SMod
        | Op::UMod
        | Op::SNegate => same_operands(ctx, i, Kind::Int, ARITH),
        Op::FAdd | Op::FSub | Op::FMul | Op::FDiv | Op::FRem | Op::FMod | Op::FNegate => {
            same_operands(ctx, i, Kind::Float, ARITH)
        }
        Op::BitwiseAnd | Op::BitwiseOr | Op::BitwiseXor | Op::Not => {
            same_operands(ctx, i, Kind::Int, BIT)
        }
        Op::ShiftLeftLogical | Op::ShiftRightLogical | Op::ShiftRightArithmetic => {
            // Result is the Base's type; Shift is an integer with the same component count.
            let base = operand_type(ctx, i, 0);
            let shift = operand_type(ctx, i, 1).and_then(|t| shape(ctx, t));
            let ok = result.is_some_and(|r| r.kind == Kind::Int)
                && base == Some(rt)
                && shift.is_some_and(|s| {
                    s.kind == Kind::Int && Some(s.count) == result.map(|r| r.count)
                });
            if !ok {
                ctx.error(i, BIT, "Result Type and Base must be the same integer type, Shift an integer of the same component count");
            }
        }
        Op::IEqual
        | Op::INotEqual
        | Op::UGreaterThan
        | Op::SGreaterThan
        | Op::UGreaterThanEqual
        | Op::SGreaterThanEqual
        | Op::ULessThan
        | Op::SLessThan
        | Op::ULessThanEqual
        | Op::SLessThanEqual => compare(ctx, i, Kind::Int),
        Op::FOrdEqual
        | Op::FUnordEqual
        | Op::FOrdNotEqual
        | Op::FUnordNotEqual
        | Op::FOrdLessThan
        | Op::FUnordLessThan
        | Op::FOrdGreaterThan
        | Op::FUnordGreaterThan
        | Op::FOrdLessThanEqual
        | Op::FUnordLessThanEqual
        | Op::FOrdGreaterThanEqual
        | Op::FUnordGreaterThanEqual => compare(ctx, i, Kind::Float),
        Op::LogicalEqual
        | Op::LogicalNotEqual
        | Op::LogicalOr
        | Op::LogicalAnd
        | Op::LogicalNot => same_operands(ctx, i, Kind::Bool, RELATIONAL),
        Op::IsNan | Op::IsInf | Op::IsFinite | Op::IsNormal | Op::SignBitSet => {
            let x = operand_type(ctx, i, 0).and_then(|t| shape(ctx, t));
            let ok = result.is_some_and(|r| r.kind == Kind::Bool)
                && x.is_some_and(|x| {
                    x.kind == Kind::Float && Some(x.count) == result.map(|r| r.count)
                });
            if !ok {
                ctx.error(
                    i,
                    RELATIONAL,
                    "the operand must be a float with as many components as the boolean result",
                );
            }
        }
        Op::Any | Op::All => {
            let x = operand_type(ctx, i, 0).and_then(|t| shape(ctx, t));
            let ok = result
                == Some(Shape {
                    kind: Kind::Bool,
                    width: 0,
                    count: 1,
                })
                && x.is_some_and(|x| x.kind == Kind::Bool && x.count > 1);
            if !ok {
                ctx.error(
                    i,
                    RELATIONAL,
                    "the result must be a boolean scalar and the operand a boolean vector",
                );
            }
        }
        Op::Select => {
            let cond = operand_type(ctx, i, 0).and_then(|t| shape(ctx, t));
            let objects_ok =
                operand_type(ctx, i, 1) == Some(rt) && operand_type(ctx, i, 2) == Some(rt);
            let cond_ok = cond.is_some_and(|c| {
                c.kind == Kind::Bool && (c.count == 1 || Some(c.count) == result.map(|r| r.count))
            });
            if !objects_ok || !cond_ok {
                ctx.error(
                    i,
                    RELATIONAL,
                    "the objects must have the Result Type and the condition be a boolean scalar or a vector of as many components",
                );
            }
        }
        Op::ConvertFToU | Op::ConvertFToS => convert(ctx, i, Kind::Float, Kind::Int, false),
        Op::ConvertSToF | Op::ConvertUToF => convert(ctx, i, Kind::Int, Kind::Float, false),
        Op::UConvert | Op::SConvert | Op::SatConvertSToU | Op::SatConvertUToS => convert(
            ctx,
            i,
            Kind::Int,
            Kind::Int,
            op != Op::SatConvertSToU && op != Op::SatConvertUToS,
        ),
        Op::FConvert => convert(ctx, i, Kind::Float, Kind::Float, true),
        Op::ConvertPtrToU => {
            let from_ptr = operand_type(ctx, i, 0)
                .and_then(|t| ctx.pointer(t))
                .is_some();
            if !from_ptr || !is_int_scalar(result) {
                ctx.error(
                    i,
                    CONVERSION,
                    "OpConvertPtrToU converts a pointer to an integer scalar",
                );
            }
        }
        Op::ConvertUToPtr => {
            let from = operand_type(ctx, i, 0).and_then(|t| shape(ctx, t));
            if null_device_event(ctx, i) {
                // The module doc's tolerance: llvm-spirv-15's encoding of CLK_NULL_EVENT.
            } else if ctx.pointer(rt).is_none() || !is_int_scalar(from) {
                // SPIR-V 3.32.11: "Result Type must be a physical pointer type".
                ctx.error(
                    i,
                    CONVERSION,
                    "OpConvertUToPtr converts an integer scalar to a pointer",
                );
            }
        }
        Op::PtrCastToGeneric => {
            let from = operand_type(ctx, i, 0).and_then(|t| ctx.pointer(t));
            let to = ctx.pointer(rt);
            let ok = matches!(
                from.map(|p| p.0),
                Some(
                    StorageClass::CrossWorkgroup | StorageClass::Workgroup | StorageClass::Function
                )
            ) && to.map(|p| p.0) == Some(StorageClass::Generic)
                && from.map(|p| p.1) == to.map(|p| p.1);
            if !ok {
                ctx.error(
                    i,
                    CONVERSION,
                    "OpPtrCastToGeneric casts a CrossWorkgroup, Workgroup or Function pointer to a Generic pointer to the same type",
                );
            }
        }
        Op::GenericCastToPtr | Op::GenericCastToPtrExplicit => {
            let from = operand_type(ctx, i, 0).and_then(|t| ctx.pointer(t));
            let to = ctx.pointer(rt);
            let ok = from.map(|p| p.0) == Some(StorageClass::Generic)
                && matches!(
                    to.map(|p| p.0),
                    Some(
                        StorageClass::CrossWorkgroup
                            | StorageClass::Workgroup
                            | StorageClass::Function
                    )
                )
                && from.map(|p| p.1) == to.map(|p| p.1);
            if !ok {
                ctx.error(i, CONVERSION, "the cast goes from a Generic pointer to a CrossWorkgroup, Workgroup or Function pointer to the same type");
            }
        }
        Op::Bitcast => bitcast(ctx, i),
        Op::CopyObject if operand_type(ctx, i, 0) != Some(rt) => {
            ctx.error(
                i,
                SAME_TYPE,
                "the operand's type differs from the Result Type",
            );
        }
        Op::Phi => {
            let values: Vec<Option<Id>> =
                inst.operands.iter().step_by(2).map(|o| o.as_id()).collect();
            if values
                .iter()
                .any(|v| v.and_then(|v| ctx.type_of(v)) != Some(rt))
            {
                ctx.error(
                    i,
                    SAME_TYPE,
                    "an OpPhi value's type differs from the Result Type",
                );
            }
        }
        Op::CompositeExtract => composite_extract(ctx, i),
        Op::CompositeInsert => {
            let composite = operand_type(ctx, i, 1);
            if composite != Some(rt) {
                ctx.error(
                    i,
                    COMPOSITE,
                    "the Composite's type differs from the Result Type",
                );
            } else {
                // SPIR-V 3.32.12: Object has the type of the member the indices select.
                let mut ty = composite;
                for o in ctx.inst(i).operands.iter().skip(2) {
                    ty = ty.and_then(|t| member(ctx, t, u64::from(o.as_int().unwrap_or(u32::MAX))));
                }
                if ty.is_none() || ty != operand_type(ctx, i, 0) {
                    ctx.error(
                        i,
                        COMPOSITE,
                        "the Object's type is not the type of the member the indices select",
                    );
                }
            }
        }
        Op::VectorExtractDynamic => {
            let v = operand_type(ctx, i, 0).and_then(|t| ctx.vector(t));
            let index = operand_type(ctx, i, 1).and_then(|t| shape(ctx, t));
            if v.map(|v| v.0) != Some(rt) || !is_int_scalar(index) {
                ctx.error(i, COMPOSITE, "the Vector's component type must be the Result Type and Index an integer scalar");
            }
        }
        Op::VectorInsertDynamic => {
            let component = operand_type(ctx, i, 1);
            let index = operand_type(ctx, i, 2).and_then(|t| shape(ctx, t));
            let ok = operand_type(ctx, i, 0) == Some(rt)
                && ctx.vector(rt).map(|v| v.0) == component
                && component.is_some()
                && index.is_some_and(|x| x.kind == Kind::Int && x.count == 1);
            if !ok {
                ctx.error(i, COMPOSITE, "Vector must have the Result Type, Component its component type, Index be an integer scalar");
            }
        }
        Op::VectorShuffle => vector_shuffle(ctx, i),
        Op::CompositeConstruct => composite_construct(ctx, i),
        Op::AccessChain | Op::InBoundsAccessChain => access_chain(ctx, i, false),
        Op::PtrAccessChain | Op::InBoundsPtrAccessChain => access_chain(ctx, i, true),
        _ => {}
    }
}

/// Result of `kind`; every id operand has the Result Type.
fn same_operands(ctx: &mut Ctx<'_>, i: usize, kind: Kind, rule: &'static str) {
    let inst = ctx.inst(i);
    let Some(rt) = inst.result_type else { return };
    let result_ok = shape(ctx, rt).is_some_and(|r| r.kind == kind);
    let operands_ok = inst
        .operands
        .iter()
        .all(|o| o.as_id().and_then(|v| ctx.type_of(v)) == Some(rt));
    if !result_ok || !operands_ok {
        let what = match kind {
            Kind::Int => "integer",
            Kind::Float => "floating-point",
            Kind::Bool => "boolean",
        };
        ctx.error(
            i,
            rule,
            format!(
                "the Result Type must be an {what} scalar or vector and every operand of that type"
            ),
        );
    }
}

/// Comparison: both operands of one `kind` type, a boolean result with as many components.
fn compare(ctx: &mut Ctx<'_>, i: usize, kind: Kind) {
    let inst = ctx.inst(i);
    let Some(rt) = inst.result_type else { return };
    let a = operand_type(ctx, i, 0);
    let b = operand_type(ctx, i, 1);
    let sa = a.and_then(|t| shape(ctx, t));
    let r = shape(ctx, rt);
    let ok = a.is_some()
        && a == b
        && sa.is_some_and(|s| s.kind == kind)
        && r.is_some_and(|r| r.kind == Kind::Bool && Some(r.count) == sa.map(|s| s.count));
    if !ok {
        ctx.error(
            i,
            RELATIONAL,
            "the operands must have one type and the result be a boolean of as many components",
        );
    }
}

/// Conversion from `from` to `to` keeping the component count; `widths_differ` when the
/// instruction changes the width (UConvert, SConvert, FConvert).
fn convert(ctx: &mut Ctx<'_>, i: usize, from: Kind, to: Kind, widths_differ: bool) {
    let Some(rt) = ctx.inst(i).result_type else {
        return;
    };
    let r = shape(ctx, rt);
    let x = operand_type(ctx, i, 0).and_then(|t| shape(ctx, t));
    let ok = match (r, x) {
        (Some(r), Some(x)) => {
            r.kind == to
                && x.kind == from
                && r.count == x.count
                && (!widths_differ || r.width != x.width)
        }
        _ => false,
    };
    if !ok {
        ctx.error(i, CONVERSION, "the operand and Result Type do not fit the conversion (kinds, component counts, widths)");
    }
}

/// Size in bits of a scalar, vector or pointer type.
fn bits(ctx: &Ctx<'_>, ty: Id) -> Option<u64> {
    if ctx.pointer(ty).is_some() {
        return Some(u64::from(ctx.env.address_bits));
    }
    let s = shape(ctx, ty)?;
    if s.kind == Kind::Bool {
        return None;
    }
    Some(u64::from(s.width) * u64::from(s.count))
}

fn bitcast(ctx: &mut Ctx<'_>, i: usize) {
    let Some(rt) = ctx.inst(i).result_type else {
        return;
    };
    let Some(from) = operand_type(ctx, i, 0) else {
        return;
    };
    let both_pointers = ctx.pointer(rt).is_some() && ctx.pointer(from).is_some();
    if both_pointers {
        if ctx.pointer(rt).map(|p| p.0) != ctx.pointer(from).map(|p| p.0) {
            ctx.error(i, CONVERSION, "a pointer bitcast keeps the storage class");
        }
        return;
    }
    let ok = match (bits(ctx, rt), bits(ctx, from)) {
        (Some(a), Some(b)) => a == b,
        _ => false,
    };
    if !ok {
        ctx.error(
            i,
            CONVERSION,
            "OpBitcast converts between numeric or pointer types of the same size",
        );
    }
}

/// The member or element type of a composite at a literal index.
fn member(ctx: &Ctx<'_>, ty: Id, index: u64) -> Option<Id> {
    let def = ctx.def(ty)?;
    match def.op {
        Op::TypeVector => {
            let (c, n) = ctx.vector(ty)?;
            (index < u64::from(n)).then_some(c)
        }
        Op::TypeArray => {
            let len = def.id(1).and_then(|l| ctx.const_int(l));
            match len {
                Some(len) if index >= len => None,
                _ => def.id(0),
            }
        }
        Op::TypeRuntimeArray | Op::TypeMatrix => def.id(0),
        Op::TypeStruct => def.operands.get(usize::try_from(index).ok()?)?.as_id(),
        _ => None,
    }
}

fn composite_extract(ctx: &mut Ctx<'_>, i: usize) {
    let inst = ctx.inst(i);
    let Some(rt) = inst.result_type else { return };
    let mut ty = operand_type(ctx, i, 0);
    for o in inst.operands.iter().skip(1) {
        ty = ty.and_then(|t| member(ctx, t, u64::from(o.as_int().unwrap_or(u32::MAX))));
    }
    if ty != Some(rt) {
        ctx.error(
            i,
            COMPOSITE,
            "the indices do not select a member of the Result Type",
        );
    }
}

fn vector_shuffle(ctx: &mut Ctx<'_>, i: usize) {
    let inst = ctx.inst(i);
    let Some(rt) = inst.result_type else { return };
    let a = operand_type(ctx, i, 0).and_then(|t| ctx.vector(t));
    let b = operand_type(ctx, i, 1).and_then(|t| ctx.vector(t));
    let r = ctx.vector(rt);
    let (Some(a), Some(b), Some(r)) = (a, b, r) else {
        ctx.error(i, COMPOSITE, "OpVectorShuffle takes and returns vectors");
        return;
    };
    let total = u64::from(a.1) + u64::from(b.1);
    let components: Vec<u32> = inst
        .operands
        .iter()
        .skip(2)
        .filter_map(|o| o.as_int())
        .collect();
    let ok = a.0 == r.0
        && b.0 == r.0
        && components.len() == r.1 as usize
        && components
            .iter()
            .all(|&c| c == u32::MAX || u64::from(c) < total);
    if !ok {
        ctx.error(
            i,
            COMPOSITE,
            "the vectors must share the result's component type, with one in-range component index per result component",
        );
    }
}

fn composite_construct(ctx: &mut Ctx<'_>, i: usize) {
    let inst = ctx.inst(i);
    let Some(rt) = inst.result_type else { return };
    let Some(def) = ctx.def(rt) else { return };
    let types: Vec<Option<Id>> = inst
        .operands
        .iter()
        .map(|o| o.as_id().and_then(|v| ctx.type_of(v)))
        .collect();
    let ok = match def.op {
        Op::TypeVector => {
            // Scalars and vectors of the component type adding up to the component count.
            let Some((c, n)) = ctx.vector(rt) else { return };
            let mut count = 0u64;
            let mut fits = true;
            for t in &types {
                match t {
                    Some(t) if *t == c => count += 1,
                    Some(t) => match ctx.vector(*t) {
                        Some((tc, tn)) if tc == c => count += u64::from(tn),
                        _ => fits = false,
                    },
                    None => fits = false,
                }
            }
            fits && count == u64::from(n)
        }
        Op::TypeStruct => {
            let members: Vec<Option<Id>> = def.operands.iter().map(|o| o.as_id()).collect();
            members == types
        }
        Op::TypeArray => {
            let len = def.id(1).and_then(|l| ctx.const_int(l));
            let elem = def.id(0);
            len.is_none() || len == Some(types.len() as u64) && types.iter().all(|t| *t == elem)
        }
        _ => false,
    };
    if !ok {
        ctx.error(
            i,
            COMPOSITE,
            "the constituents do not match the Result Type's members",
        );
    }
}

fn access_chain(ctx: &mut Ctx<'_>, i: usize, ptr_chain: bool) {
    let inst = ctx.inst(i);
    let Some(rt) = inst.result_type else { return };
    let base = operand_type(ctx, i, 0).and_then(|t| ctx.pointer(t));
    let Some((storage, mut ty)) = base else {
        ctx.error(i, ACCESS_CHAIN, "Base must be a pointer");
        return;
    };
    let first = if ptr_chain { 2 } else { 1 };
    if ptr_chain {
        let element = operand_type(ctx, i, 1).and_then(|t| shape(ctx, t));
        if !is_int_scalar(element) {
            ctx.error(i, ACCESS_CHAIN, "Element must be an integer scalar");
        }
    }
    for o in inst.operands.iter().skip(first) {
        let Some(index) = o.as_id() else { return };
        let is_struct = ctx.def_op(ty) == Some(Op::TypeStruct);
        let literal = ctx.const_int(index);
        let next = if is_struct {
            literal.and_then(|k| member(ctx, ty, k))
        } else {
            let int_index = ctx
                .type_of(index)
                .and_then(|t| shape(ctx, t))
                .is_some_and(|s| s.kind == Kind::Int && s.count == 1);
            if !int_index {
                ctx.error(i, ACCESS_CHAIN, "indices must be integer scalars");
                return;
            }
            match ctx.def_op(ty) {
                Some(Op::TypeArray | Op::TypeRuntimeArray | Op::TypeVector | Op::TypeMatrix) => {
                    ctx.def(ty).and_then(|d| d.id(0))
                }
                _ => None,
            }
        };
        match next {
            Some(n) => ty = n,
            None => {
                ctx.error(
                    i,
                    ACCESS_CHAIN,
                    "an index does not select a member (struct indices must be in-range constants)",
                );
                return;
            }
        }
    }
    if ctx.pointer(rt) != Some((storage, ty)) {
        ctx.error(
            i,
            ACCESS_CHAIN,
            "the Result Type must be a pointer of the Base's storage class to the selected type",
        );
    }
}
