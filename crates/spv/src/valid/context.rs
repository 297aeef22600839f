//! The validation context: the module indexed for lookups (definitions, functions and blocks,
//! decorations, capabilities, extended instruction sets) and the list of errors found so far.
//! Every lookup returns an `Option`, so checks stay total on malformed modules.

use super::env::Env;
use super::error::ValidationError;
use super::operands::{classify, Slot};
use crate::{
    Capability, Decoration, Id, Instruction, Module, Op, Operand, OperandCategory, OperandKind,
    StorageClass,
};
use std::collections::{HashMap, HashSet};

/// One basic block: instruction indices of its label and terminator.
#[derive(Clone, Debug)]
pub(crate) struct Block {
    pub label: usize,
    /// The terminator, when the block has one.
    pub terminator: Option<usize>,
}

/// One function: instruction indices of `OpFunction`, its parameters, blocks and `OpFunctionEnd`.
#[derive(Clone, Debug)]
pub(crate) struct Function {
    pub def: usize,
    pub params: Vec<usize>,
    pub blocks: Vec<Block>,
}

/// A decoration applied to an id: the decoration and its parameters.
#[derive(Clone, Debug)]
pub(crate) struct Applied {
    /// The decorating instruction.
    pub by: usize,
    pub decoration: Decoration,
    pub params: Vec<Operand>,
}

pub(crate) struct Ctx<'m> {
    pub module: &'m Module,
    pub env: &'m Env,
    /// Id → index of its (first) defining instruction.
    pub defs: HashMap<u32, usize>,
    /// Per instruction, its operands' grammar kinds (None when they do not fit the grammar).
    pub slots: Vec<Option<Vec<Slot>>>,
    /// Per instruction, the function it belongs to (index into `functions`).
    pub func_of: Vec<Option<usize>>,
    pub functions: Vec<Function>,
    /// Declared capabilities, implicit ones included.
    pub caps: HashSet<Capability>,
    /// Declared SPIR-V extensions.
    pub extensions: HashSet<String>,
    /// Id of `OpExtInstImport` → set name.
    pub ext_sets: HashMap<u32, String>,
    /// Target id → decorations (from `OpDecorate`, and `OpGroupDecorate` through groups).
    pub decorations: HashMap<u32, Vec<Applied>>,
    pub errors: Vec<ValidationError>,
}

impl<'m> Ctx<'m> {
    pub fn new(module: &'m Module, env: &'m Env) -> Ctx<'m> {
        let insts = &module.instructions;
        let mut defs = HashMap::new();
        let mut ext_sets = HashMap::new();
        let mut extensions = HashSet::new();
        let mut declared = Vec::new();
        for (i, inst) in insts.iter().enumerate() {
            if let Some(r) = inst.result {
                defs.entry(r.0).or_insert(i);
            }
            match inst.op {
                Op::ExtInstImport => {
                    if let (Some(r), Some(name)) = (inst.result, inst.str(0)) {
                        ext_sets.insert(r.0, name.to_string());
                    }
                }
                Op::Extension => {
                    if let Some(name) = inst.str(0) {
                        extensions.insert(name.to_string());
                    }
                }
                Op::Capability => {
                    if let Some(c) = inst.int(0).and_then(Capability::from_u32) {
                        declared.push(c);
                    }
                }
                _ => {}
            }
        }
        // Implicitly declared capabilities (the "depends on" column of the grammar).
        let mut caps = HashSet::new();
        while let Some(c) = declared.pop() {
            if caps.insert(c) {
                declared.extend_from_slice(c.capabilities());
            }
        }
        let slots = insts
            .iter()
            .map(|inst| {
                let std = inst.op == Op::ExtInst
                    && inst
                        .id(0)
                        .and_then(|s| ext_sets.get(&s.0))
                        .is_some_and(|n| n == "OpenCL.std");
                classify(inst, std).ok()
            })
            .collect();
        let mut ctx = Ctx {
            module,
            env,
            defs,
            slots,
            func_of: vec![None; insts.len()],
            functions: Vec::new(),
            caps,
            extensions,
            ext_sets,
            decorations: HashMap::new(),
            errors: Vec::new(),
        };
        ctx.collect_decorations();
        ctx
    }

    fn collect_decorations(&mut self) {
        let insts = &self.module.instructions;
        let mut groups: HashMap<u32, Vec<Applied>> = HashMap::new();
        for (i, inst) in insts.iter().enumerate() {
            if !matches!(inst.op, Op::Decorate | Op::DecorateId | Op::DecorateString) {
                continue;
            }
            let (Some(target), Some(d)) = (inst.id(0), inst.int(1).and_then(Decoration::from_u32))
            else {
                continue;
            };
            let applied = Applied {
                by: i,
                decoration: d,
                params: inst.operands[2..].to_vec(),
            };
            let is_group = self
                .def(target)
                .is_some_and(|t| t.op == Op::DecorationGroup);
            if is_group {
                groups.entry(target.0).or_default().push(applied);
            } else {
                self.decorations.entry(target.0).or_default().push(applied);
            }
        }
        for inst in insts {
            if inst.op != Op::GroupDecorate {
                continue;
            }
            let Some(group) = inst.id(0) else { continue };
            let Some(applied) = groups.get(&group.0) else {
                continue;
            };
            for t in inst.operands.iter().skip(1).filter_map(Operand::as_id) {
                self.decorations
                    .entry(t.0)
                    .or_default()
                    .extend(applied.iter().cloned());
            }
        }
    }

    pub fn inst(&self, i: usize) -> &'m Instruction {
        &self.module.instructions[i]
    }

    /// The instruction defining `id`.
    pub fn def(&self, id: Id) -> Option<&'m Instruction> {
        let insts = &self.module.instructions;
        self.defs.get(&id.0).map(|&i| &insts[i])
    }

    /// The opcode of the instruction defining `id`.
    pub fn def_op(&self, id: Id) -> Option<Op> {
        self.def(id).map(|i| i.op)
    }

    /// Whether `id` is defined by a type declaration.
    pub fn is_type(&self, id: Id) -> bool {
        self.def(id).is_some_and(|i| is_type_op(i.op))
    }

    /// The result type of the value `id`.
    pub fn type_of(&self, id: Id) -> Option<Id> {
        self.def(id).and_then(|i| i.result_type)
    }

    /// Width of an `OpTypeInt`.
    pub fn int_width(&self, ty: Id) -> Option<u32> {
        self.def(ty)
            .filter(|i| i.op == Op::TypeInt)
            .and_then(|i| i.int(0))
    }

    /// Width of an `OpTypeFloat`.
    pub fn float_width(&self, ty: Id) -> Option<u32> {
        self.def(ty)
            .filter(|i| i.op == Op::TypeFloat)
            .and_then(|i| i.int(0))
    }

    /// (component type, count) of an `OpTypeVector`.
    pub fn vector(&self, ty: Id) -> Option<(Id, u32)> {
        self.def(ty)
            .filter(|i| i.op == Op::TypeVector)
            .and_then(|i| Some((i.id(0)?, i.int(1)?)))
    }

    /// (storage class, pointee) of an `OpTypePointer`.
    pub fn pointer(&self, ty: Id) -> Option<(StorageClass, Id)> {
        self.def(ty)
            .filter(|i| i.op == Op::TypePointer)
            .and_then(|i| Some((StorageClass::from_u32(i.int(0)?)?, i.id(1)?)))
    }

    /// The value of a 32-bit integer `OpConstant` (spec constants are not constant here).
    pub fn const_u32(&self, id: Id) -> Option<u32> {
        let d = self.def(id).filter(|i| i.op == Op::Constant)?;
        if self.int_width(d.result_type?)? != 32 {
            return None;
        }
        d.int(0)
    }

    /// The value of an integer `OpConstant` of any width up to 64, or 0 for `OpConstantNull`.
    pub fn const_int(&self, id: Id) -> Option<u64> {
        let d = self.def(id)?;
        self.int_width(d.result_type?)?;
        match d.op {
            Op::Constant => d.wide(0),
            Op::ConstantNull => Some(0),
            _ => None,
        }
    }

    /// Decorations applied to `id`.
    pub fn decorations_of(&self, id: Id) -> &[Applied] {
        self.decorations
            .get(&id.0)
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    pub fn has_cap(&self, c: Capability) -> bool {
        self.caps.contains(&c)
    }

    /// Records a broken rule at instruction `i`.
    pub fn error(&mut self, i: usize, rule: &'static str, message: impl Into<String>) {
        let inst = self.inst(i);
        // The disassembler's text scans the module once per call: use it for the first errors.
        let instruction = if self.errors.len() < 64 {
            crate::dis::instruction_text(self.module, inst)
        } else {
            self.text(i)
        };
        self.errors.push(ValidationError {
            offset: inst.offset,
            instruction,
            rule,
            message: message.into(),
        });
    }

    /// Records a module-wide broken rule.
    pub fn module_error(&mut self, rule: &'static str, message: impl Into<String>) {
        self.errors.push(ValidationError {
            offset: 0,
            instruction: "(module)".into(),
            rule,
            message: message.into(),
        });
    }

    /// One-line text of instruction `i`, in `spirv-dis` style with numeric ids.
    pub fn text(&self, i: usize) -> String {
        let inst = self.inst(i);
        let mut out = String::new();
        if let Some(r) = inst.result {
            out.push_str(&format!("{r} = "));
        }
        out.push_str(inst.op.name());
        if let Some(t) = inst.result_type {
            out.push_str(&format!(" {t}"));
        }
        let slots = self.slots[i].as_deref().unwrap_or(&[]);
        for (n, operand) in inst.operands.iter().enumerate() {
            out.push(' ');
            let kind = slots.iter().find(|s| s.index == n).map(|s| s.kind);
            match operand {
                Operand::Id(id) => out.push_str(&id.to_string()),
                Operand::Wide(v) => out.push_str(&v.to_string()),
                Operand::Str(s) => out.push_str(&format!("{s:?}")),
                Operand::Int(v) => match kind {
                    Some(k) if k.category() == OperandCategory::ValueEnum => {
                        match k.enumerant(*v) {
                            Some(e) => out.push_str(e.name),
                            None => out.push_str(&v.to_string()),
                        }
                    }
                    Some(k) if k.category() == OperandCategory::BitEnum => {
                        out.push_str(&bit_names(k, *v))
                    }
                    _ => out.push_str(&v.to_string()),
                },
            }
        }
        out
    }
}

fn bit_names(kind: OperandKind, v: u32) -> String {
    if v == 0 {
        return kind
            .enumerant(0)
            .map(|e| e.name.to_string())
            .unwrap_or_else(|| "0".into());
    }
    let mut names = Vec::new();
    for bit in 0..32 {
        let m = 1u32 << bit;
        if v & m != 0 {
            match kind.enumerant(m) {
                Some(e) => names.push(e.name.to_string()),
                None => names.push(format!("{m:#x}")),
            }
        }
    }
    names.join("|")
}

/// Whether the opcode declares a type.
pub(crate) fn is_type_op(op: Op) -> bool {
    (op.info().class == "Type-Declaration" || op.name().starts_with("OpType"))
        && op != Op::TypeForwardPointer
}

/// Whether the opcode creates a (spec) constant.
pub(crate) fn is_constant_op(op: Op) -> bool {
    op.info().class == "Constant-Creation"
}
