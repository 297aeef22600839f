//! Id references (SPIR-V 2.16.1 "Universal Validation Rules" and the instruction pages of
//! chapter 3.32): every used id is defined, result types are types, operands that must be types
//! are types and value operands are not, module-level definitions come before their uses
//! (except through `OpTypeForwardPointer`), functions, parameters, calls, variables, loads and
//! stores agree with their types.

use super::context::{is_constant_op, is_type_op, Ctx};
use super::operands::Slot;
use crate::{Id, Op, OperandKind, StorageClass};
use std::collections::HashSet;

const UNDEFINED: &str = "SPIR-V 2.16.1 (every id used must be defined)";
const RESULT_TYPE: &str = "SPIR-V 2.16.1 (Result Type must be a type)";
const FUNCTION_USE: &str = "SPIR-V 2.16.1 (a function's id is used only as the Function of \
     OpFunctionCall, an Invoke operand, or by entry points, execution modes and annotations)";
const TYPE_OPERAND: &str = "SPIR-V 3.32 (operand must be a type)";
const VALUE_OPERAND: &str = "SPIR-V 2.16.1 (a value operand cannot be a type)";
const FORWARD: &str =
    "SPIR-V 2.4 (module-level ids are defined before use, except forward pointers)";
const GRAMMAR: &str = "SPIR-V 3 (instruction operands follow the grammar)";

/// Operand positions (after result type/result) that must name a type.
fn type_operands(op: Op, count: usize) -> Vec<usize> {
    match op {
        Op::TypeVector | Op::TypeMatrix | Op::TypeRuntimeArray | Op::TypeSampledImage => vec![0],
        Op::TypeArray => vec![0],
        Op::TypeImage => vec![0],
        Op::TypePointer => vec![1],
        Op::TypeStruct | Op::TypeFunction => (0..count).collect(),
        Op::Function => vec![1],
        _ => Vec::new(),
    }
}

/// Instructions whose id operands may name anything (annotations, debug, modes, entry points).
fn refers_to_anything(op: Op) -> bool {
    matches!(
        op,
        Op::Name
            | Op::MemberName
            | Op::Decorate
            | Op::MemberDecorate
            | Op::DecorateId
            | Op::DecorateString
            | Op::MemberDecorateString
            | Op::GroupDecorate
            | Op::GroupMemberDecorate
            | Op::EntryPoint
            | Op::ExecutionMode
            | Op::ExecutionModeId
            | Op::TypeForwardPointer
            | Op::Source
            | Op::Line
    ) || is_type_op(op)
}

/// Whether operand `k` (after result type and result) of `op` may name a function.
fn function_operand(op: Op, k: usize) -> bool {
    match op {
        Op::FunctionCall => k == 0,
        // Operands: Queue, Flags, ND Range, Num Events, Wait Events, Ret Event, Invoke, …
        Op::EnqueueKernel => k == 6,
        // Operands: ND Range, Invoke, … / Invoke, …
        Op::GetKernelNDrangeSubGroupCount
        | Op::GetKernelNDrangeMaxSubGroupSize
        | Op::GetKernelLocalSizeForSubgroupCount => k == 1,
        Op::GetKernelWorkGroupSize
        | Op::GetKernelPreferredWorkGroupSizeMultiple
        | Op::GetKernelMaxNumSubgroups => k == 0,
        _ => false,
    }
}

/// Whether instruction `i` is an `OpExtInst` of a set other than OpenCL.std (debug information,
/// non-semantic sets), whose operands may refer to anything, also forward.
fn is_foreign_ext_inst(ctx: &Ctx<'_>, i: usize) -> bool {
    let inst = ctx.inst(i);
    inst.op == Op::ExtInst
        && inst
            .id(0)
            .and_then(|s| ctx.ext_sets.get(&s.0))
            .is_some_and(|name| name != "OpenCL.std")
}

pub(crate) fn check(ctx: &mut Ctx<'_>) {
    let n = ctx.module.instructions.len();
    let mut forward_pointers: HashSet<u32> = HashSet::new();
    for i in 0..n {
        let inst = ctx.inst(i);
        if ctx.slots[i].is_none() {
            let why = super::operands::classify(inst, false)
                .err()
                .unwrap_or_else(|| "operands do not fit the grammar".into());
            ctx.error(i, GRAMMAR, why);
        }
        if inst.op == Op::TypeForwardPointer {
            if let Some(p) = inst.id(0) {
                forward_pointers.insert(p.0);
            }
        }
        // Result type.
        if let Some(t) = inst.result_type {
            if !ctx.defs.contains_key(&t.0) {
                ctx.error(i, UNDEFINED, format!("result type {t} is not defined"));
            } else if !ctx.is_type(t) {
                ctx.error(i, RESULT_TYPE, format!("result type {t} is not a type"));
            }
        }
        let types_at = type_operands(inst.op, inst.operands.len());
        let anything = refers_to_anything(inst.op) || is_foreign_ext_inst(ctx, i);
        let module_level = ctx.func_of[i].is_none();
        for (k, operand) in inst.operands.iter().enumerate() {
            let Some(x) = operand.as_id() else { continue };
            let Some(&d) = ctx.defs.get(&x.0) else {
                // Forward-declared pointers are defined later by OpTypePointer; a missing one
                // is still undefined.
                ctx.error(i, UNDEFINED, format!("{x} is not defined"));
                continue;
            };
            if module_level && d > i {
                let allowed = if inst.op == Op::TypeForwardPointer {
                    true
                } else if is_type_op(inst.op) {
                    forward_pointers.contains(&x.0)
                } else {
                    anything
                };
                if !allowed {
                    ctx.error(i, FORWARD, format!("{x} is used before its definition"));
                }
            }
            if types_at.contains(&k) {
                if !ctx.is_type(x) {
                    ctx.error(i, TYPE_OPERAND, format!("operand {x} must be a type"));
                }
            } else if !anything && ctx.is_type(x) {
                ctx.error(
                    i,
                    VALUE_OPERAND,
                    format!("operand {x} is a type, not a value"),
                );
            } else if !anything && ctx.inst(d).op == Op::Function && !function_operand(inst.op, k) {
                ctx.error(
                    i,
                    FUNCTION_USE,
                    format!("{x} is a function, which this operand cannot name"),
                );
            } else if inst.op == Op::TypeArray
                && k == 1
                && !ctx.def_op(x).is_some_and(is_constant_op)
            {
                ctx.error(
                    i,
                    "SPIR-V 3.32.6 OpTypeArray (Length must be a constant)",
                    format!("{x} is not a constant"),
                );
            }
        }
        check_instruction_types(ctx, i);
    }
    check_functions(ctx);
}

/// Type agreement of single instructions.
fn check_instruction_types(ctx: &mut Ctx<'_>, i: usize) {
    let inst = ctx.inst(i);
    match inst.op {
        Op::Variable => {
            let storage = inst.int(0).and_then(StorageClass::from_u32);
            match inst.result_type.and_then(|t| ctx.pointer(t)) {
                None => ctx.error(
                    i,
                    "SPIR-V 3.32.8 OpVariable (Result Type must be an OpTypePointer)",
                    "the result type is not a pointer type",
                ),
                Some((sc, _)) if Some(sc) != storage => ctx.error(
                    i,
                    "SPIR-V 3.32.8 OpVariable (Storage Class must match the pointer type's)",
                    "the storage class differs from the result type's",
                ),
                Some((_, pointee)) => {
                    let init = inst.id(1);
                    if init.is_some() && init.and_then(|x| ctx.type_of(x)) != Some(pointee) {
                        ctx.error(
                            i,
                            "SPIR-V 3.32.8 OpVariable (Initializer has the pointee type)",
                            "the initializer's type differs from the variable's pointee type",
                        );
                    }
                }
            }
        }
        Op::CopyMemory | Op::CopyMemorySized => {
            let pointee = |k: usize| {
                inst.id(k)
                    .and_then(|x| ctx.type_of(x))
                    .and_then(|t| ctx.pointer(t))
                    .map(|p| p.1)
            };
            let (target, source) = (pointee(0), pointee(1));
            if target.is_none() || source.is_none() {
                ctx.error(
                    i,
                    "SPIR-V 3.32.8 OpCopyMemory / OpCopyMemorySized (Target and Source are pointers)",
                    "the Target or Source operand is not a pointer",
                );
            } else if inst.op == Op::CopyMemory && target != source {
                ctx.error(
                    i,
                    "SPIR-V 3.32.8 OpCopyMemory (Target and Source point to the same type)",
                    "the Target and Source pointee types differ",
                );
            }
            if inst.op == Op::CopyMemorySized {
                let size = inst.id(2).and_then(|x| ctx.type_of(x));
                if size.and_then(|t| ctx.int_width(t)).is_none() {
                    ctx.error(
                        i,
                        "SPIR-V 3.32.8 OpCopyMemorySized (Size is an integer scalar)",
                        "the Size operand is not an integer scalar",
                    );
                }
                let zero = inst.id(2).is_some_and(|x| {
                    ctx.const_int(x) == Some(0) || ctx.def_op(x) == Some(Op::ConstantNull)
                });
                if zero {
                    ctx.error(
                        i,
                        "SPIR-V 3.32.8 OpCopyMemorySized (a constant Size must not be 0)",
                        "the Size operand is the constant 0",
                    );
                }
            }
        }
        Op::Switch => {
            let selector = inst.id(0).and_then(|x| ctx.type_of(x));
            if selector.and_then(|t| ctx.int_width(t)).is_none() {
                ctx.error(
                    i,
                    "SPIR-V 3.32.17 OpSwitch (Selector must be an integer scalar)",
                    "the selector is not an integer scalar",
                );
            }
        }
        Op::Load => {
            let pointee = inst
                .id(0)
                .and_then(|p| ctx.type_of(p))
                .and_then(|t| ctx.pointer(t));
            match pointee {
                None => ctx.error(
                    i,
                    "SPIR-V 3.32.8 OpLoad (Pointer must be a pointer)",
                    "the Pointer operand is not a pointer",
                ),
                Some((_, pt)) if Some(pt) != inst.result_type => ctx.error(
                    i,
                    "SPIR-V 3.32.8 OpLoad (Result Type is the pointee type)",
                    "the result type differs from the pointer's pointee type",
                ),
                Some(_) => {}
            }
        }
        Op::Store => {
            let pointee = inst
                .id(0)
                .and_then(|p| ctx.type_of(p))
                .and_then(|t| ctx.pointer(t));
            let object = inst.id(1).and_then(|o| ctx.type_of(o));
            match pointee {
                None => ctx.error(
                    i,
                    "SPIR-V 3.32.8 OpStore (Pointer must be a pointer)",
                    "the Pointer operand is not a pointer",
                ),
                Some((_, pt)) if Some(pt) != object => ctx.error(
                    i,
                    "SPIR-V 3.32.8 OpStore (Object type is the pointee type)",
                    "the object's type differs from the pointer's pointee type",
                ),
                Some((StorageClass::Input | StorageClass::UniformConstant, _)) => ctx.error(
                    i,
                    "SPIR-V 2.16.1 (Input and UniformConstant memory is read-only)",
                    "the Pointer points to read-only storage",
                ),
                Some(_) => {}
            }
        }
        Op::FunctionCall => {
            let Some(callee) = inst.id(0) else { return };
            let Some(def) = ctx.def(callee).filter(|d| d.op == Op::Function) else {
                ctx.error(
                    i,
                    "SPIR-V 3.32.9 OpFunctionCall (Function must be an OpFunction)",
                    format!("{callee} is not a function"),
                );
                return;
            };
            if def.result_type != inst.result_type {
                ctx.error(
                    i,
                    "SPIR-V 3.32.9 OpFunctionCall (Result Type is the callee's return type)",
                    "the result type differs from the callee's return type",
                );
            }
            let params = def
                .id(1)
                .and_then(|ft| ctx.def(ft))
                .filter(|t| t.op == Op::TypeFunction);
            if let Some(ft) = params {
                let expected: Vec<Option<Id>> =
                    ft.operands.iter().skip(1).map(|o| o.as_id()).collect();
                let args: Vec<Option<Id>> = inst
                    .operands
                    .iter()
                    .skip(1)
                    .map(|a| a.as_id().and_then(|a| ctx.type_of(a)))
                    .collect();
                if expected.len() != args.len() {
                    ctx.error(
                        i,
                        "SPIR-V 3.32.9 OpFunctionCall (one argument per parameter)",
                        format!("{} arguments for {} parameters", args.len(), expected.len()),
                    );
                } else if expected.iter().zip(&args).any(|(e, a)| e != a) {
                    ctx.error(
                        i,
                        "SPIR-V 3.32.9 OpFunctionCall (argument types match the parameter types)",
                        "an argument's type differs from its parameter's type",
                    );
                }
            }
        }
        Op::ReturnValue | Op::Return => {
            let Some(f) = ctx.func_of[i].and_then(|f| ctx.functions.get(f)) else {
                return;
            };
            let ret = ctx.inst(f.def).result_type;
            let void = ret.and_then(|t| ctx.def_op(t)) == Some(Op::TypeVoid);
            if inst.op == Op::Return && !void {
                ctx.error(
                    i,
                    "SPIR-V 3.32.17 OpReturn (only in functions returning void)",
                    "the function does not return void",
                );
            }
            if inst.op == Op::ReturnValue {
                let value = inst.id(0).and_then(|v| ctx.type_of(v));
                if void || value != ret {
                    ctx.error(
                        i,
                        "SPIR-V 3.32.17 OpReturnValue (Value's type is the function's return type)",
                        "the value's type differs from the function's return type",
                    );
                }
            }
        }
        Op::BranchConditional => {
            let cond = inst
                .id(0)
                .and_then(|c| ctx.type_of(c))
                .and_then(|t| ctx.def_op(t));
            if cond != Some(Op::TypeBool) {
                ctx.error(
                    i,
                    "SPIR-V 3.32.17 OpBranchConditional (Condition must be a Boolean scalar)",
                    "the condition is not a bool",
                );
            }
        }
        Op::Constant => {
            let ok = inst
                .result_type
                .and_then(|t| ctx.def_op(t))
                .is_some_and(|op| matches!(op, Op::TypeInt | Op::TypeFloat));
            if !ok {
                ctx.error(
                    i,
                    "SPIR-V 3.32.7 OpConstant (Result Type must be a scalar int or float)",
                    "the result type is not an integer or float type",
                );
            }
        }
        Op::ConstantTrue | Op::ConstantFalse => {
            let ok = inst.result_type.and_then(|t| ctx.def_op(t)) == Some(Op::TypeBool);
            if !ok {
                ctx.error(
                    i,
                    "SPIR-V 3.32.7 OpConstantTrue/False (Result Type must be OpTypeBool)",
                    "the result type is not a boolean type",
                );
            }
        }
        _ => {}
    }
}

/// OpFunction / OpFunctionParameter agreement with the function type.
fn check_functions(ctx: &mut Ctx<'_>) {
    let functions = ctx.functions.clone();
    for f in &functions {
        let def = ctx.inst(f.def);
        let ft = def
            .id(1)
            .and_then(|t| ctx.def(t))
            .filter(|t| t.op == Op::TypeFunction);
        let Some(ft) = ft else {
            ctx.error(
                f.def,
                "SPIR-V 3.32.9 OpFunction (Function Type must be an OpTypeFunction)",
                "the function type is not an OpTypeFunction",
            );
            continue;
        };
        if ft.id(0) != def.result_type {
            ctx.error(
                f.def,
                "SPIR-V 3.32.9 OpFunction (Result Type is the function type's return type)",
                "the result type differs from the function type's return type",
            );
        }
        let expected: Vec<Option<Id>> = ft.operands.iter().skip(1).map(|o| o.as_id()).collect();
        if expected.len() != f.params.len() {
            ctx.error(
                f.def,
                "SPIR-V 3.32.9 OpFunctionParameter (one per parameter of the function type)",
                format!(
                    "{} parameters for a function type with {}",
                    f.params.len(),
                    expected.len()
                ),
            );
            continue;
        }
        for (k, &p) in f.params.iter().enumerate() {
            if ctx.inst(p).result_type != expected[k] {
                ctx.error(
                    p,
                    "SPIR-V 3.32.9 OpFunctionParameter (Result Type is the parameter type)",
                    "the parameter's type differs from the function type",
                );
            }
        }
    }
}

/// The enumerant operands (ValueEnum / BitEnum) of instruction `i`: (kind, value).
pub(crate) fn enum_operands(ctx: &Ctx<'_>, i: usize) -> Vec<(OperandKind, u32)> {
    let inst = ctx.inst(i);
    let slots: &[Slot] = ctx.slots[i].as_deref().unwrap_or(&[]);
    slots
        .iter()
        .filter(|s| {
            matches!(
                s.kind.category(),
                crate::OperandCategory::ValueEnum | crate::OperandCategory::BitEnum
            )
        })
        .filter_map(|s| {
            inst.operands
                .get(s.index)
                .and_then(|o| o.as_int())
                .map(|v| (s.kind, v))
        })
        .collect()
}
