//! Linking SPIR-V modules (the Linkage capability, SPIR-V 2.17 "Linkage"; the basis of
//! `clCompileProgram`/`clLinkProgram`): [`link`] merges modules into one, resolving each
//! function or variable decorated `LinkageAttributes "name" Import` to the one decorated
//! `LinkageAttributes "name" Export` (or `LinkOnceODR`).
//!
//! Steps:
//! 1. ids of module `k` are shifted past the ids of modules `0..k`;
//! 2. instructions are grouped by the sections of the logical layout (SPIR-V 2.4) and merged
//!    section by section, module order kept inside each section;
//! 3. duplicates are merged: capabilities, extensions, `OpExtInstImport`s of one set, and types
//!    and constants with the same opcode and operands (SPIR-V 2.8: non-aggregate types must be
//!    unique); types and constants carrying decorations are kept apart;
//! 4. every import is replaced by the export of its name: its declaration (an `OpFunction`
//!    without body, or an `OpVariable`) and the decorations and names of its ids are removed,
//!    and its uses refer to the export. A `LinkOnceODR` definition after the first of its name
//!    is replaced the same way. Imports of built-in variables (`BuiltIn`-decorated `Input`
//!    variables, which llvm-spirv marks `Import`) are not symbols and stay;
//! 5. function declarations are placed before function definitions (SPIR-V 2.4 item 10).
//!
//! Errors ([`LinkError`]) name the symbol: an import no module exports (unless
//! [`LinkOptions::allow_unresolved`]), two exports of one name, an import whose type differs
//! from its export's, modules with different addressing or memory models.

use std::collections::{HashMap, HashSet};

use crate::{Decoration, Header, Id, Instruction, Module, Op, Operand};

/// Why modules could not be linked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LinkError {
    #[error("no modules to link")]
    NoModules,
    /// An imported symbol that no module exports.
    #[error("unresolved symbol `{name}`: imported by module {module}, exported by none")]
    Unresolved { name: String, module: usize },
    /// Two modules (or one module twice) export the same name.
    #[error("duplicate symbol `{name}`: exported by module {first} and by module {second}")]
    Duplicate {
        name: String,
        first: usize,
        second: usize,
    },
    /// The import's type is not the export's type.
    #[error("symbol `{name}`: the import in module {import_module} and the export in module {export_module} have different types")]
    TypeMismatch {
        name: String,
        import_module: usize,
        export_module: usize,
    },
    /// Modules with different `OpMemoryModel`s.
    #[error("module {module} uses another addressing or memory model than module 0")]
    MemoryModel { module: usize },
    /// The merged module would need more ids than SPIR-V allows.
    #[error("the linked module needs more than 2^32 - 1 ids")]
    TooManyIds,
    /// An instruction without the operands its opcode requires.
    #[error("module {module}: malformed `{instruction}`")]
    Malformed { module: usize, instruction: String },
}

/// Options of [`link_with`].
#[derive(Debug, Clone, Default)]
pub struct LinkOptions {
    /// Keep imports that no module exports (linking into a library, `-create-library`).
    pub allow_unresolved: bool,
}

/// Links modules into one; every import must be resolved.
pub fn link(modules: &[Module]) -> Result<Module, LinkError> {
    link_with(modules, &LinkOptions::default())
}

/// SPIR-V LinkageType values.
const EXPORT: u32 = 0;
const IMPORT: u32 = 1;
const LINK_ONCE_ODR: u32 = 2;

/// Instructions of one module, by logical-layout section.
#[derive(Default)]
struct Sections {
    capabilities: Vec<Instruction>,
    extensions: Vec<Instruction>,
    ext_imports: Vec<Instruction>,
    memory_model: Vec<Instruction>,
    entry_points: Vec<Instruction>,
    modes: Vec<Instruction>,
    sources: Vec<Instruction>,
    names: Vec<Instruction>,
    processed: Vec<Instruction>,
    annotations: Vec<Instruction>,
    globals: Vec<Instruction>,
    /// Each function from `OpFunction` to `OpFunctionEnd`.
    functions: Vec<Vec<Instruction>>,
}

fn section_of(op: Op) -> usize {
    match op {
        Op::Capability => 0,
        Op::Extension => 1,
        Op::ExtInstImport => 2,
        Op::MemoryModel => 3,
        Op::EntryPoint => 4,
        Op::ExecutionMode | Op::ExecutionModeId => 5,
        Op::String | Op::Source | Op::SourceContinued | Op::SourceExtension => 6,
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
        _ => 10,
    }
}

impl Sections {
    fn split(instructions: Vec<Instruction>) -> Sections {
        let mut s = Sections::default();
        let mut current: Option<Vec<Instruction>> = None;
        for inst in instructions {
            if let Some(body) = current.as_mut() {
                let end = inst.op == Op::FunctionEnd;
                body.push(inst);
                if end {
                    s.functions.extend(current.take());
                }
                continue;
            }
            if inst.op == Op::Function {
                current = Some(vec![inst]);
                continue;
            }
            let list = match section_of(inst.op) {
                0 => &mut s.capabilities,
                1 => &mut s.extensions,
                2 => &mut s.ext_imports,
                3 => &mut s.memory_model,
                4 => &mut s.entry_points,
                5 => &mut s.modes,
                6 => &mut s.sources,
                7 => &mut s.names,
                8 => &mut s.processed,
                9 => &mut s.annotations,
                _ => &mut s.globals,
            };
            list.push(inst);
        }
        // A function without OpFunctionEnd (malformed input) is kept as it is.
        s.functions.extend(current);
        s
    }
}

/// Calls `f` on every id of an instruction (result type, result, id operands).
fn ids_mut(inst: &mut Instruction, mut f: impl FnMut(&mut Id)) {
    if let Some(t) = inst.result_type.as_mut() {
        f(t);
    }
    if let Some(r) = inst.result.as_mut() {
        f(r);
    }
    for op in &mut inst.operands {
        if let Operand::Id(id) = op {
            f(id);
        }
    }
}

/// Opcodes of types and of constants that may be merged when equal.
fn mergeable(op: Op) -> bool {
    matches!(
        op,
        Op::TypeVoid
            | Op::TypeBool
            | Op::TypeInt
            | Op::TypeFloat
            | Op::TypeVector
            | Op::TypeArray
            | Op::TypeStruct
            | Op::TypeOpaque
            | Op::TypePointer
            | Op::TypeFunction
            | Op::TypeEvent
            | Op::TypeDeviceEvent
            | Op::TypeReserveId
            | Op::TypeQueue
            | Op::TypePipe
            | Op::TypeSampler
            | Op::TypeImage
            | Op::TypeSampledImage
            | Op::TypePipeStorage
            | Op::TypeNamedBarrier
            | Op::ConstantTrue
            | Op::ConstantFalse
            | Op::Constant
            | Op::ConstantComposite
            | Op::ConstantNull
            | Op::ConstantSampler
    )
}

/// A symbol definition or import: module, id, linkage type.
#[derive(Clone, Debug)]
struct Symbol {
    module: usize,
    id: Id,
    linkage: u32,
}

/// Links modules into one (see the module documentation).
pub fn link_with(modules: &[Module], options: &LinkOptions) -> Result<Module, LinkError> {
    if modules.is_empty() {
        return Err(LinkError::NoModules);
    }
    // 1. Shift ids.
    let mut shifted = Vec::with_capacity(modules.len());
    let mut offset: u64 = 0;
    for module in modules {
        let max = module
            .instructions
            .iter()
            .flat_map(|i| i.result.into_iter().chain(i.used_ids()))
            .map(|id| u64::from(id.0))
            .max()
            .unwrap_or(0);
        let shift = u32::try_from(offset).map_err(|_| LinkError::TooManyIds)?;
        let mut insts = module.instructions.clone();
        for inst in &mut insts {
            inst.offset = 0;
            ids_mut(inst, |id| id.0 += shift);
        }
        offset += max;
        if offset >= u64::from(u32::MAX) {
            return Err(LinkError::TooManyIds);
        }
        shifted.push(Sections::split(insts));
    }

    // Decorations by (shifted) target id.
    let mut decorated: HashSet<Id> = HashSet::new();
    let mut builtins: HashSet<Id> = HashSet::new();
    let mut symbols: Vec<(String, Symbol)> = Vec::new();
    for (module, s) in shifted.iter().enumerate() {
        for inst in &s.annotations {
            let Some(target) = inst.id(0) else { continue };
            match inst.op {
                Op::Decorate => {
                    let kind = inst.int(1);
                    if kind == Some(Decoration::LinkageAttributes as u32) {
                        let (Some(name), Some(linkage)) = (inst.str(2), inst.int(3)) else {
                            return Err(LinkError::Malformed {
                                module,
                                instruction: format!("{inst:?}"),
                            });
                        };
                        symbols.push((
                            name.to_string(),
                            Symbol {
                                module,
                                id: target,
                                linkage,
                            },
                        ));
                        continue;
                    }
                    if kind == Some(Decoration::BuiltIn as u32) {
                        builtins.insert(target);
                    }
                    decorated.insert(target);
                }
                Op::MemberDecorate
                | Op::DecorateId
                | Op::DecorateString
                | Op::MemberDecorateString => {
                    decorated.insert(target);
                }
                Op::GroupDecorate | Op::GroupMemberDecorate => {
                    for op in &inst.operands[1..] {
                        if let Operand::Id(id) = op {
                            decorated.insert(*id);
                        }
                    }
                }
                _ => {}
            }
        }
    }

    // Replacements: merged duplicates and resolved imports → the id kept.
    let mut map: HashMap<Id, Id> = HashMap::new();

    // 3. Merge duplicates of types, constants and extended-instruction imports.
    let mut by_key: HashMap<(Op, Option<Id>, Vec<Operand>), Id> = HashMap::new();
    let mut ext_by_name: HashMap<String, Id> = HashMap::new();
    let resolve = |map: &HashMap<Id, Id>, id: Id| *map.get(&id).unwrap_or(&id);
    for s in &mut shifted {
        s.ext_imports.retain(|inst| {
            let (Some(result), Some(name)) = (inst.result, inst.str(0)) else {
                return true;
            };
            match ext_by_name.get(name) {
                Some(&first) => {
                    map.insert(result, first);
                    false
                }
                None => {
                    ext_by_name.insert(name.to_string(), result);
                    true
                }
            }
        });
        let mut kept = Vec::with_capacity(s.globals.len());
        for inst in std::mem::take(&mut s.globals) {
            let Some(result) = inst.result.filter(|_| mergeable(inst.op)) else {
                kept.push(inst);
                continue;
            };
            if decorated.contains(&result) {
                kept.push(inst);
                continue;
            }
            let mut key_inst = inst.clone();
            key_inst.result = None;
            ids_mut(&mut key_inst, |id| *id = resolve(&map, *id));
            let key = (inst.op, key_inst.result_type, key_inst.operands);
            match by_key.get(&key) {
                Some(&first) if !decorated.contains(&first) => {
                    map.insert(result, first);
                }
                _ => {
                    by_key.insert(key, result);
                    kept.push(inst);
                }
            }
        }
        s.globals = kept;
    }

    // 4. Resolve imports.
    let mut exports: HashMap<String, Symbol> = HashMap::new();
    for (name, sym) in &symbols {
        if sym.linkage == IMPORT || builtins.contains(&sym.id) {
            continue;
        }
        match exports.get(name) {
            None => {
                exports.insert(name.clone(), sym.clone());
            }
            Some(first) if sym.linkage == LINK_ONCE_ODR && first.linkage == LINK_ONCE_ODR => {}
            Some(first) => {
                return Err(LinkError::Duplicate {
                    name: name.clone(),
                    first: first.module,
                    second: sym.module,
                })
            }
        }
    }
    let type_of = |shifted: &[Sections], sym: &Symbol| -> Option<Id> {
        let s = &shifted[sym.module];
        for f in &s.functions {
            if let Some(first) = f.first().filter(|i| i.result == Some(sym.id)) {
                return first.id(1);
            }
        }
        s.globals
            .iter()
            .find(|i| i.result == Some(sym.id))
            .and_then(|i| i.result_type)
    };
    let mut replaced: HashSet<Id> = HashSet::new();
    for (name, sym) in &symbols {
        if builtins.contains(&sym.id) || sym.linkage == EXPORT {
            continue;
        }
        let Some(export) = exports.get(name) else {
            if options.allow_unresolved {
                continue;
            }
            return Err(LinkError::Unresolved {
                name: name.clone(),
                module: sym.module,
            });
        };
        if export.id == sym.id {
            continue;
        }
        let (a, b) = (type_of(&shifted, sym), type_of(&shifted, export));
        if a.map(|t| resolve(&map, t)) != b.map(|t| resolve(&map, t)) {
            return Err(LinkError::TypeMismatch {
                name: name.clone(),
                import_module: sym.module,
                export_module: export.module,
            });
        }
        map.insert(sym.id, export.id);
        replaced.insert(sym.id);
    }

    // Remove replaced definitions, collecting every id they define.
    let mut removed: HashSet<Id> = HashSet::new();
    for s in &mut shifted {
        s.functions.retain(|f| {
            let gone = f
                .first()
                .and_then(|i| i.result)
                .is_some_and(|r| replaced.contains(&r));
            if gone {
                removed.extend(f.iter().filter_map(|i| i.result));
            }
            !gone
        });
        s.globals.retain(|i| {
            let gone = i.result.is_some_and(|r| replaced.contains(&r));
            if gone {
                removed.extend(i.result);
            }
            !gone
        });
    }
    for s in &mut shifted {
        s.names
            .retain(|i| !i.id(0).is_some_and(|t| removed.contains(&t)));
        s.annotations.retain_mut(|i| match i.op {
            Op::GroupDecorate | Op::GroupMemberDecorate => {
                let step = if i.op == Op::GroupDecorate { 1 } else { 2 };
                let mut k = 1;
                while k < i.operands.len() {
                    if matches!(i.operands[k], Operand::Id(id) if removed.contains(&id)) {
                        let end = (k + step).min(i.operands.len());
                        i.operands.drain(k..end);
                    } else {
                        k += step;
                    }
                }
                i.operands.len() > 1
            }
            _ => !i.id(0).is_some_and(|t| removed.contains(&t)),
        });
    }

    // 5. Merge sections.
    let mut out: Vec<Instruction> = Vec::new();
    let mut seen_caps = HashSet::new();
    let mut seen_exts = HashSet::new();
    for s in &shifted {
        for i in &s.capabilities {
            if seen_caps.insert(i.int(0)) {
                out.push(i.clone());
            }
        }
    }
    for s in &shifted {
        for i in &s.extensions {
            if seen_exts.insert(i.str(0).map(str::to_string)) {
                out.push(i.clone());
            }
        }
    }
    out.extend(shifted.iter().flat_map(|s| s.ext_imports.iter().cloned()));
    let first_model = shifted.iter().find_map(|s| s.memory_model.first());
    for (module, s) in shifted.iter().enumerate() {
        if let (Some(a), Some(b)) = (first_model, s.memory_model.first()) {
            if a.operands != b.operands {
                return Err(LinkError::MemoryModel { module });
            }
        }
    }
    out.extend(first_model.cloned());
    let sections: [fn(&Sections) -> &Vec<Instruction>; 7] = [
        |s| &s.entry_points,
        |s| &s.modes,
        |s| &s.sources,
        |s| &s.names,
        |s| &s.processed,
        |s| &s.annotations,
        |s| &s.globals,
    ];
    for get in &sections {
        out.extend(shifted.iter().flat_map(|s| get(s).iter().cloned()));
    }
    let is_declaration = |f: &Vec<Instruction>| !f.iter().any(|i| i.op == Op::Label);
    for s in &shifted {
        out.extend(
            s.functions
                .iter()
                .filter(|f| is_declaration(f))
                .flat_map(|f| f.iter().cloned()),
        );
    }
    for s in &shifted {
        out.extend(
            s.functions
                .iter()
                .filter(|f| !is_declaration(f))
                .flat_map(|f| f.iter().cloned()),
        );
    }

    // Apply the replacement map (the decorations of replaced imports went with them), and drop
    // repeated interface ids of entry points.
    for inst in &mut out {
        ids_mut(inst, |id| *id = resolve(&map, *id));
        if inst.op == Op::EntryPoint {
            let mut seen = HashSet::new();
            let mut k = 0;
            inst.operands.retain(|op| {
                k += 1;
                match op {
                    Operand::Id(id) if k > 3 => seen.insert(*id),
                    _ => true,
                }
            });
        }
    }
    let bound = out
        .iter()
        .flat_map(|i| i.result.into_iter().chain(i.used_ids()))
        .map(|id| id.0)
        .max()
        .unwrap_or(0)
        .checked_add(1)
        .ok_or(LinkError::TooManyIds)?;
    let version = modules
        .iter()
        .map(|m| m.header.version)
        .max()
        .unwrap_or((1, 0));
    Ok(Module {
        header: Header {
            version,
            generator: modules[0].header.generator,
            bound,
            schema: 0,
        },
        instructions: out,
    })
}
