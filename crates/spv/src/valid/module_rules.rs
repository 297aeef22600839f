//! Module-wide SPIR-V rules a consumer relies on: non-aggregate types declared once (SPIR-V 2.8),
//! function declarations imported through linkage (SPIR-V 2.16.1), execution modes naming entry
//! points, entry points unique by name and execution model (SPIR-V 3.32.5), a module without
//! entry points declares *Linkage*.

use super::context::Ctx;
use crate::{Capability, Decoration, LinkageType, Op, StorageClass};
use std::collections::{HashMap, HashSet};

const UNIQUE_TYPES: &str = "SPIR-V 2.8 (non-aggregate, non-pointer types are declared once)";
const DECLARATION: &str =
    "SPIR-V 2.16.1 (a function declaration must be decorated LinkageAttributes Import)";
const MODE_TARGET: &str = "SPIR-V 3.32.6 OpExecutionMode (Entry Point must be an entry point)";
const ENTRY_INTERFACE: &str =
    "SPIR-V 3.32.5 OpEntryPoint (Interface ids are Input / Output global variables)";
const ENTRY_INTERFACE_14: &str =
    "SPIR-V 3.32.5 OpEntryPoint (from version 1.4, the Interface lists \
     every global variable the entry point's static call tree references, each once)";
const ENTRY_INTERFACE_10: &str =
    "SPIR-V 3.32.5 OpEntryPoint (before version 1.4, the Interface is a \
     superset of the Input / Output variables the entry point's static call tree references)";
const ENTRY_UNIQUE: &str = "SPIR-V 3.32.5 OpEntryPoint (Name and Execution Model are unique)";

pub(crate) fn check(ctx: &mut Ctx<'_>) {
    unique_types(ctx);
    declarations(ctx);
    entry_points(ctx);
    interfaces_complete(ctx);
}

fn unique_types(ctx: &mut Ctx<'_>) {
    let mut seen: HashMap<(Op, String), u32> = HashMap::new();
    for i in 0..ctx.module.instructions.len() {
        let inst = ctx.inst(i);
        let unique = matches!(
            inst.op,
            Op::TypeVoid
                | Op::TypeBool
                | Op::TypeInt
                | Op::TypeFloat
                | Op::TypeVector
                | Op::TypeMatrix
                | Op::TypeImage
                | Op::TypeSampler
                | Op::TypeSampledImage
                | Op::TypeEvent
                | Op::TypeDeviceEvent
                | Op::TypeReserveId
                | Op::TypeQueue
                | Op::TypePipe
                | Op::TypePipeStorage
                | Op::TypeNamedBarrier
                | Op::TypeFunction
        );
        if !unique {
            continue;
        }
        let key = (inst.op, format!("{:?}", inst.operands));
        let r = inst.result.map(|r| r.0).unwrap_or(0);
        if let Some(first) = seen.insert(key, r) {
            ctx.error(
                i,
                UNIQUE_TYPES,
                format!("the same type is already declared as %{first}"),
            );
        }
    }
}

fn declarations(ctx: &mut Ctx<'_>) {
    let functions = ctx.functions.clone();
    let mut defined = false;
    for f in &functions {
        if !f.blocks.is_empty() {
            defined = true;
        } else if defined {
            ctx.error(
                f.def,
                "SPIR-V 2.4 (function declarations come before function definitions)",
                "a function declaration follows a function definition",
            );
        }
    }
    let entries: HashSet<u32> = ctx
        .module
        .instructions
        .iter()
        .filter(|i| i.op == Op::EntryPoint)
        .filter_map(|i| i.id(1))
        .map(|f| f.0)
        .collect();
    for f in &functions {
        let Some(id) = ctx.inst(f.def).result else {
            continue;
        };
        let imported = ctx.decorations_of(id).iter().any(|d| {
            d.decoration == Decoration::LinkageAttributes
                && d.params
                    .get(1)
                    .and_then(|p| p.as_int())
                    .and_then(LinkageType::from_u32)
                    == Some(LinkageType::Import)
        });
        if f.blocks.is_empty() && !imported {
            ctx.error(
                f.def,
                DECLARATION,
                "a function without blocks is not imported",
            );
        }
        if !f.blocks.is_empty() && imported {
            ctx.error(
                f.def,
                "SPIR-V 2.16.1 (a function definition cannot have the Import linkage type)",
                "a function with blocks is decorated Import",
            );
        }
        if entries.contains(&id.0) && f.blocks.is_empty() {
            ctx.error(
                f.def,
                "SPIR-V 3.32.5 OpEntryPoint (Entry Point is a function definition)",
                "the entry point has no body",
            );
        }
    }
}

fn entry_points(ctx: &mut Ctx<'_>) {
    let any_entry = ctx
        .module
        .instructions
        .iter()
        .any(|i| i.op == Op::EntryPoint);
    if !any_entry && !ctx.has_cap(Capability::Linkage) {
        ctx.module_error(
            "SPIR-V 2.16.1 (a module without OpEntryPoint must declare the Linkage capability)",
            "the module has no entry point and does not declare Linkage",
        );
    }
    let mut entries: HashSet<u32> = HashSet::new();
    let mut names: HashSet<(u32, String)> = HashSet::new();
    for i in 0..ctx.module.instructions.len() {
        let inst = ctx.inst(i);
        if inst.op != Op::EntryPoint {
            continue;
        }
        if let Some(f) = inst.id(1) {
            entries.insert(f.0);
        }
        // Interface ids are module-scope Input / Output variables (all globals from SPIR-V 1.4).
        let version = ctx.module.header.version;
        for x in inst.operands.iter().skip(3).filter_map(|o| o.as_id()) {
            let var = ctx.def(x).filter(|d| d.op == Op::Variable);
            let storage = var.and_then(|d| d.int(0)).and_then(StorageClass::from_u32);
            let ok = match storage {
                Some(StorageClass::Input | StorageClass::Output) => true,
                Some(StorageClass::Function) | None => false,
                Some(_) => version >= (1, 4),
            };
            if !ok {
                ctx.error(
                    i,
                    ENTRY_INTERFACE,
                    format!("interface {x} is not a module-scope Input or Output variable"),
                );
            }
        }
        let key = (
            inst.int(0).unwrap_or(u32::MAX),
            inst.str(2).unwrap_or("").to_string(),
        );
        if !names.insert(key) {
            ctx.error(
                i,
                ENTRY_UNIQUE,
                "another entry point has the same name and execution model",
            );
        }
    }
    for i in 0..ctx.module.instructions.len() {
        let inst = ctx.inst(i);
        if !matches!(inst.op, Op::ExecutionMode | Op::ExecutionModeId) {
            continue;
        }
        let target = inst.id(0);
        if !target.is_some_and(|t| entries.contains(&t.0)) {
            ctx.error(i, MODE_TARGET, "the target is not an entry point");
        }
    }
}

/// SPIR-V 3.32.5: the interface of an entry point lists each module-scope variable (version 1.4
/// and later: any storage class but Function, each only once; before: Input and Output) that an
/// instruction of a function in its static call tree uses.
fn interfaces_complete(ctx: &mut Ctx<'_>) {
    let since_14 = ctx.module.header.version >= (1, 4);
    let rule = if since_14 {
        ENTRY_INTERFACE_14
    } else {
        ENTRY_INTERFACE_10
    };
    let nf = ctx.functions.len();
    let mut by_id: HashMap<u32, usize> = HashMap::new();
    for (k, f) in ctx.functions.iter().enumerate() {
        if let Some(id) = ctx.inst(f.def).result {
            by_id.entry(id.0).or_insert(k);
        }
    }
    // Per function: the global variables it uses and the functions it calls.
    let mut uses: Vec<Vec<u32>> = vec![Vec::new(); nf];
    let mut calls: Vec<Vec<usize>> = vec![Vec::new(); nf];
    for i in 0..ctx.module.instructions.len() {
        let Some(f) = ctx.func_of[i] else { continue };
        let inst = ctx.inst(i);
        if inst.op == Op::FunctionCall {
            if let Some(callee) = inst.id(0).and_then(|c| by_id.get(&c.0)) {
                calls[f].push(*callee);
            }
        }
        for id in inst.operands.iter().filter_map(|o| o.as_id()) {
            let Some(&d) = ctx.defs.get(&id.0) else {
                continue;
            };
            let def = ctx.inst(d);
            let storage = def.int(0).and_then(StorageClass::from_u32);
            let interface_class = if since_14 {
                storage != Some(StorageClass::Function)
            } else {
                matches!(storage, Some(StorageClass::Input | StorageClass::Output))
            };
            let global = def.op == Op::Variable && ctx.func_of[d].is_none() && interface_class;
            if global && !uses[f].contains(&id.0) {
                uses[f].push(id.0);
            }
        }
    }
    for i in 0..ctx.module.instructions.len() {
        let inst = ctx.inst(i);
        if inst.op != Op::EntryPoint {
            continue;
        }
        let listed: Vec<u32> = inst
            .operands
            .iter()
            .skip(3)
            .filter_map(|o| o.as_id())
            .map(|x| x.0)
            .collect();
        let mut seen = HashSet::new();
        for x in &listed {
            if !seen.insert(*x) && since_14 {
                ctx.error(i, rule, format!("interface %{x} is listed twice"));
            }
        }
        let Some(&root) = inst.id(1).and_then(|f| by_id.get(&f.0)) else {
            continue;
        };
        let mut reached = vec![false; nf];
        let mut stack = vec![root];
        let mut missing: Vec<u32> = Vec::new();
        while let Some(f) = stack.pop() {
            if std::mem::replace(&mut reached[f], true) {
                continue;
            }
            for v in &uses[f] {
                if !seen.contains(v) && !missing.contains(v) {
                    missing.push(*v);
                }
            }
            stack.extend(calls[f].iter().copied().filter(|c| !reached[*c]));
        }
        for v in missing {
            ctx.error(
                i,
                rule,
                format!("the entry point uses global variable %{v} but does not list it in its interface"),
            );
        }
    }
}
