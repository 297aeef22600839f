//! Module structure (SPIR-V 2.4 "Logical Layout of a Module", 2.2 "Terminology"): section order,
//! one `OpMemoryModel`, ids defined once and below the bound, functions made of blocks that start
//! with `OpLabel` and end with one terminator, `OpVariable` and `OpPhi` placement, merge
//! instructions just before their terminator. Builds `Ctx::functions` and `Ctx::func_of`.

use super::context::{is_constant_op, is_type_op, Block, Ctx, Function};
use crate::{Op, StorageClass};
use std::collections::HashSet;

const LAYOUT: &str = "SPIR-V 2.4 (logical layout of a module)";
const BLOCKS: &str =
    "SPIR-V 2.2.5 (a block starts with OpLabel and ends with one termination instruction)";

/// Whether the opcode ends a block (SPIR-V 3.x "Termination Instructions").
pub(crate) fn is_terminator(op: Op) -> bool {
    matches!(
        op,
        Op::Branch
            | Op::BranchConditional
            | Op::Switch
            | Op::Return
            | Op::ReturnValue
            | Op::Kill
            | Op::Unreachable
            | Op::TerminateInvocation
            | Op::IgnoreIntersectionKHR
            | Op::TerminateRayKHR
            | Op::EmitMeshTasksEXT
    )
}

/// The module section (in layout order) an instruction outside functions belongs to; `None` for
/// instructions that only appear inside functions.
fn section(op: Op) -> Option<u8> {
    Some(match op {
        Op::Capability => 0,
        Op::Extension => 1,
        Op::ExtInstImport => 2,
        Op::MemoryModel => 3,
        Op::EntryPoint => 4,
        Op::ExecutionMode | Op::ExecutionModeId => 5,
        Op::String | Op::SourceExtension | Op::Source | Op::SourceContinued => 6,
        Op::Name | Op::MemberName => 7,
        Op::ModuleProcessed => 8,
        Op::Decorate
        | Op::MemberDecorate
        | Op::DecorationGroup
        | Op::GroupDecorate
        | Op::GroupMemberDecorate
        | Op::DecorateId
        | Op::DecorateString
        | Op::MemberDecorateString => 9,
        Op::Variable | Op::Undef | Op::Line | Op::NoLine | Op::ExtInst | Op::TypeForwardPointer => {
            10
        }
        op if is_type_op(op) || is_constant_op(op) => 10,
        Op::Function => 11,
        _ => return None,
    })
}

enum State {
    Module,
    /// Inside function `f` before its first block (parameters).
    Header,
    /// Inside a block that has not ended yet.
    InBlock,
    /// Inside a function, after a terminator.
    AfterBlock,
}

/// Checks section order, function and block structure; fills `ctx.functions` / `ctx.func_of`.
// The index `i` names the instruction in errors and in `func_of`, so it is the loop variable.
#[allow(clippy::needless_range_loop)]
pub(crate) fn check(ctx: &mut Ctx<'_>) {
    check_ids(ctx);
    let n = ctx.module.instructions.len();
    let mut section_now = 0u8;
    let mut memory_models = 0;
    let mut state = State::Module;
    let mut functions: Vec<Function> = Vec::new();
    let mut func_of = vec![None; n];
    for i in 0..n {
        let op = ctx.inst(i).op;
        if op == Op::MemoryModel {
            memory_models += 1;
        }
        match op {
            Op::Function => {
                if !matches!(state, State::Module) {
                    ctx.error(
                        i,
                        LAYOUT,
                        "OpFunction inside a function (missing OpFunctionEnd)",
                    );
                    close_open_block(ctx, &state, i);
                }
                functions.push(Function {
                    def: i,
                    params: Vec::new(),
                    blocks: Vec::new(),
                });
                section_now = 11;
                state = State::Header;
                func_of[i] = Some(functions.len() - 1);
            }
            Op::FunctionParameter => match (&state, functions.last_mut()) {
                (State::Header, Some(f)) => {
                    f.params.push(i);
                    func_of[i] = Some(functions.len() - 1);
                }
                _ => ctx.error(
                    i,
                    LAYOUT,
                    "OpFunctionParameter must directly follow OpFunction or another parameter",
                ),
            },
            Op::FunctionEnd => {
                if matches!(state, State::Module) {
                    ctx.error(i, LAYOUT, "OpFunctionEnd outside a function");
                } else {
                    close_open_block(ctx, &state, i);
                    func_of[i] = Some(functions.len() - 1);
                }
                state = State::Module;
            }
            Op::Label => {
                if matches!(state, State::Module) {
                    ctx.error(i, LAYOUT, "OpLabel outside a function");
                    continue;
                }
                close_open_block(ctx, &state, i);
                if let Some(f) = functions.last_mut() {
                    f.blocks.push(Block {
                        label: i,
                        terminator: None,
                    });
                    func_of[i] = Some(functions.len() - 1);
                }
                state = State::InBlock;
            }
            _ => match state {
                State::Module => match section(op) {
                    None => ctx.error(
                        i,
                        LAYOUT,
                        format!("{} is only allowed inside a function block", op.name()),
                    ),
                    Some(s) if s < section_now => ctx.error(
                        i,
                        LAYOUT,
                        format!("{} is out of order in the module", op.name()),
                    ),
                    Some(s) => section_now = s,
                },
                State::Header | State::AfterBlock => {
                    ctx.error(i, BLOCKS, format!("{} is outside a block", op.name()));
                }
                State::InBlock => {
                    let function_ok = match section(op) {
                        None => true,
                        Some(_) => matches!(
                            op,
                            Op::Variable | Op::Undef | Op::Line | Op::NoLine | Op::ExtInst
                        ),
                    };
                    if !function_ok {
                        ctx.error(
                            i,
                            LAYOUT,
                            format!("{} is not allowed inside a function", op.name()),
                        );
                    }
                    func_of[i] = Some(functions.len() - 1);
                    if is_terminator(op) {
                        if let Some(b) = functions.last_mut().and_then(|f| f.blocks.last_mut()) {
                            b.terminator = Some(i);
                        }
                        state = State::AfterBlock;
                    }
                }
            },
        }
    }
    if !matches!(state, State::Module) {
        if let Some(f) = functions.last() {
            let def = f.def;
            ctx.error(def, LAYOUT, "function has no OpFunctionEnd");
        }
    }
    if memory_models != 1 {
        ctx.module_error(
            LAYOUT,
            format!("the module must have exactly one OpMemoryModel, it has {memory_models}"),
        );
    }
    ctx.functions = functions;
    ctx.func_of = func_of;
    check_block_contents(ctx);
}

fn close_open_block(ctx: &mut Ctx<'_>, state: &State, at: usize) {
    if matches!(state, State::InBlock) {
        ctx.error(
            at,
            BLOCKS,
            "the previous block has no termination instruction",
        );
    }
}

/// Each id defined once (SPIR-V 2.2.1) and below the header bound (SPIR-V 2.3).
fn check_ids(ctx: &mut Ctx<'_>) {
    let bound = ctx.module.header.bound;
    let mut seen = HashSet::new();
    for i in 0..ctx.module.instructions.len() {
        let Some(r) = ctx.inst(i).result else {
            continue;
        };
        if r.0 == 0 || r.0 >= bound {
            ctx.error(
                i,
                "SPIR-V 2.3 (0 < id < bound)",
                format!("result id {r} is not below the bound {bound}"),
            );
        }
        if !seen.insert(r.0) {
            ctx.error(
                i,
                "SPIR-V 2.2.1 (an id is defined exactly once)",
                format!("{r} is defined more than once"),
            );
        }
    }
}

/// Placement rules inside blocks: function variables, phis, merge instructions.
fn check_block_contents(ctx: &mut Ctx<'_>) {
    let functions = ctx.functions.clone();
    for f in &functions {
        for (b, block) in f.blocks.iter().enumerate() {
            let end = block.terminator.unwrap_or(block.label);
            let mut leading = true; // still in the phi / variable prefix of the block
            for i in block.label + 1..end {
                let inst = ctx.inst(i);
                let op = inst.op;
                let foreign_ext = op == Op::ExtInst
                    && inst
                        .id(0)
                        .and_then(|s| ctx.ext_sets.get(&s.0))
                        .is_some_and(|name| name != "OpenCL.std");
                match op {
                    Op::Line | Op::NoLine => {}
                    Op::ExtInst if foreign_ext => {}
                    Op::Variable => {
                        let storage = inst.int(0).and_then(StorageClass::from_u32);
                        if storage != Some(StorageClass::Function) {
                            ctx.error(
                                i,
                                "SPIR-V 3.32.8 OpVariable (inside a function, Storage Class must be Function)",
                                "a variable inside a function must have Function storage",
                            );
                        }
                        if b != 0 || !leading {
                            ctx.error(
                                i,
                                "SPIR-V 2.4 (function variables are the first instructions of the first block)",
                                "OpVariable must be at the start of the function's first block",
                            );
                        }
                    }
                    Op::Phi => {
                        if !leading {
                            ctx.error(
                                i,
                                "SPIR-V 3.32.17 OpPhi (must be the first instructions of a block)",
                                "OpPhi must be at the start of its block",
                            );
                        }
                    }
                    Op::SelectionMerge | Op::LoopMerge => {
                        leading = false;
                        let next = block.terminator.filter(|&t| t == i + 1);
                        let ok = matches!(
                            (op, next.map(|t| ctx.inst(t).op)),
                            (Op::LoopMerge, Some(Op::Branch | Op::BranchConditional))
                                | (Op::SelectionMerge, Some(Op::BranchConditional | Op::Switch))
                        );
                        if !ok {
                            ctx.error(
                                i,
                                "SPIR-V 2.11 (a merge instruction immediately precedes its branch)",
                                format!("{} must be the second-to-last instruction of its block, before a conditional branch or switch", op.name()),
                            );
                        }
                    }
                    _ => leading = false,
                }
            }
        }
    }
    // Storage classes and initializers of variables (SPIR-V 3.32.8 OpVariable).
    for i in 0..ctx.module.instructions.len() {
        let inst = ctx.inst(i);
        if inst.op != Op::Variable {
            continue;
        }
        let storage = inst.int(0).and_then(StorageClass::from_u32);
        if storage == Some(StorageClass::Generic) {
            ctx.error(
                i,
                "SPIR-V 3.32.8 OpVariable (Storage Class must not be Generic)",
                "a variable cannot have Generic storage",
            );
        }
        if storage == Some(StorageClass::Input) && inst.operands.len() > 1 {
            ctx.error(
                i,
                "SPIR-V 3.32.8 OpVariable (no Initializer for Input variables)",
                "an Input variable cannot have an initializer",
            );
        }
    }
    // Module-scope variables must not be Function storage.
    for i in 0..ctx.module.instructions.len() {
        let inst = ctx.inst(i);
        if inst.op == Op::Variable
            && ctx.func_of[i].is_none()
            && inst.int(0).and_then(StorageClass::from_u32) == Some(StorageClass::Function)
        {
            ctx.error(
                i,
                "SPIR-V 3.32.8 OpVariable (Function storage only inside a function)",
                "a module-scope variable must not have Function storage",
            );
        }
    }
}
