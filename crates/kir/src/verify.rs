//! The verifier: checks that a module obeys kir's invariants, so engines may assume them.
//!
//! Invariants checked, per function:
//! 1. A function with a body has an entry block (the first in the layout) whose parameters
//!    have the signature's parameter types; no branch targets the entry block.
//! 2. Every block in the layout is non-empty and ends in exactly one terminator; no terminator
//!    appears before the end. No block or instruction is placed twice.
//! 3. Every operand names a value that exists: the result of an instruction in the layout or a
//!    parameter of a block in the layout.
//! 4. Every use is dominated by its definition (in a reachable block: an earlier instruction of
//!    the same block, a parameter of the block, or a definition in a dominating block).
//! 5. Branch targets are blocks in the layout; the arguments match the target's parameters in
//!    number and type.
//! 6. Operand and result types agree with each instruction's rules (documented on `InstData`
//!    and the op enums): e.g. `iadd` on equal integer types, float ops on floats, comparisons
//!    give bool shapes, conversions other than bitcasts keep the lane count, loads and stores go through pointers,
//!    no store into `constant` memory, lanes in range, byte ranges inside aggregates,
//!    constants have the size of their type, atomic arguments have the memory type.
//! 7. Calls name an existing function; arguments match its parameters and the result its
//!    return type. Builtin calls have the OpenCL.std instruction's number of value operands. `return` matches the function's return type. `globaladdr` names an existing
//!    global and gives a pointer into that global's space. `image` instructions have their
//!    operation's operand count, an integer image handle, an `i32` sampler, and texels of type
//!    `f32x4`, `f16x4`, `i32x4` or `f32`; queries give integers. `pipe` operations have their
//!    operation's operands (a `ptr_global` pipe, i32 packet size and alignment last) and result.
//!    `enqueue` operations have their operation's operands (integers or pointers), an invoke
//!    function exactly when the operation names one (taking the block literal pointer, then one
//!    parameter per local size) and an integer result when they have one.
//!
//! Per module: every kernel names an existing function whose parameters match the kernel's
//! arguments one to one (`Buffer(space)` ↔ `Ptr(space)`, `LocalPtr` ↔ `Ptr(Local)`,
//! `Value { ty, .. }` ↔ `ty`, `Sampler` ↔ `i32`, `Image(_)` ↔ the pointer-sized integer,
//! `Pipe` ↔ `Ptr(Global)`) and which returns nothing; relocations of globals
//! lie inside their initializer and name existing globals; `Local` globals have no initializer;
//! `address_bits` is 32 or 64.

use std::fmt;

use crate::{
    AddrSpace, ArgKind, AtomicOp, BinaryOp, Block, BlockCall, CmpOp, ConvertOp, EnqueueOp,
    Function, ImageOp, Inst, InstData, Module, PipeOp, ScalarType, Type, UnaryOp, Value, ValueDef,
};

/// One violated invariant, with where it was found.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("{location}: {message}")]
pub struct VerifyError {
    /// `function "name"`, `function "name" inst3 (v5 = iadd.i32 v1, v2)`, `kernel "k"`, ….
    pub location: String,
    pub message: String,
}

/// All violations found.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub struct VerifyErrors(pub Vec<VerifyError>);

impl fmt::Display for VerifyErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

/// Checks every invariant listed in the module doc.
pub fn verify_module(module: &Module) -> Result<(), VerifyErrors> {
    let mut errors = Vec::new();
    if module.address_bits != 32 && module.address_bits != 64 {
        errors.push(VerifyError {
            location: "module".into(),
            message: format!("address_bits {} is not 32 or 64", module.address_bits),
        });
    }
    for (index, global) in module.globals.iter().enumerate() {
        let location = format!("global g{index} {:?}", global.name);
        let mut err = |message: String| {
            errors.push(VerifyError {
                location: location.clone(),
                message,
            })
        };
        if let Some(init) = &global.init {
            if init.len() != global.size as usize {
                err(format!(
                    "initializer has {} bytes, size is {}",
                    init.len(),
                    global.size
                ));
            }
            if global.space == AddrSpace::Local {
                err("local variables cannot have an initializer".into());
            }
        }
        if !global.align.is_power_of_two() {
            err(format!("alignment {} is not a power of two", global.align));
        }
        for reloc in &global.relocs {
            if reloc.target.index() >= module.globals.len() {
                err(format!("relocation names missing {}", reloc.target));
            }
            if u64::from(reloc.offset) + u64::from(module.address_bits / 8) > u64::from(global.size)
            {
                err(format!(
                    "relocation at {} lies outside the variable",
                    reloc.offset
                ));
            }
        }
    }
    for func in &module.functions {
        verify_function_in(func, Some(module), &mut errors);
    }
    for kernel in &module.kernels {
        let location = format!("kernel {:?}", kernel.name);
        let mut err = |message: String| {
            errors.push(VerifyError {
                location: location.clone(),
                message,
            })
        };
        let Some(func) = module.function(kernel.func) else {
            err(format!("names missing {}", kernel.func));
            continue;
        };
        if func.sig.ret.is_some() {
            err("kernel function returns a value".into());
        }
        if func.sig.params.len() != kernel.args.len() {
            err(format!(
                "{} arguments but the function has {} parameters",
                kernel.args.len(),
                func.sig.params.len()
            ));
            continue;
        }
        for (i, (arg, &param)) in kernel.args.iter().zip(&func.sig.params).enumerate() {
            let expected = match arg.kind {
                ArgKind::Buffer(space) => Type::Ptr(space),
                ArgKind::LocalPtr => Type::Ptr(AddrSpace::Local),
                ArgKind::Value { ty, .. } => ty,
                ArgKind::Sampler => Type::I32,
                ArgKind::Image(_) => module.ptr_int_type(),
                ArgKind::Pipe { .. } => Type::Ptr(AddrSpace::Global),
            };
            if expected != param {
                err(format!(
                    "argument {i} is {:?} but parameter has type {param}",
                    arg.kind
                ));
            }
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(VerifyErrors(errors))
    }
}

/// Checks one function; `module` (if given) resolves calls and globals.
pub fn verify_function(func: &Function, module: Option<&Module>) -> Result<(), VerifyErrors> {
    let mut errors = Vec::new();
    verify_function_in(func, module, &mut errors);
    if errors.is_empty() {
        Ok(())
    } else {
        Err(VerifyErrors(errors))
    }
}

fn verify_function_in(func: &Function, module: Option<&Module>, errors: &mut Vec<VerifyError>) {
    let mut v = FnVerifier {
        func,
        module,
        errors,
        fn_location: format!("function {:?}", func.name),
    };
    v.run();
}

struct FnVerifier<'a> {
    func: &'a Function,
    module: Option<&'a Module>,
    errors: &'a mut Vec<VerifyError>,
    fn_location: String,
}

/// Where each value is defined, for dominance checks.
#[derive(Clone, Copy)]
enum DefSite {
    Missing,
    Param(Block),
    Inst(Block, usize),
}

impl FnVerifier<'_> {
    fn err(&mut self, message: impl Into<String>) {
        self.errors.push(VerifyError {
            location: self.fn_location.clone(),
            message: message.into(),
        });
    }

    fn inst_err(&mut self, inst: Inst, message: impl Into<String>) {
        let mut text = String::new();
        let _ = crate::print::write_inst(&mut text, self.func, inst);
        self.errors.push(VerifyError {
            location: format!("{} {inst} ({text})", self.fn_location),
            message: message.into(),
        });
    }

    fn address_bits(&self) -> u32 {
        self.module.map_or(64, |m| m.address_bits)
    }

    fn run(&mut self) {
        let func = self.func;
        let dfg = &func.dfg;
        let layout = &func.layout;
        let Some(entry) = layout.entry_block() else {
            return; // A declaration without a body.
        };
        // 1. Entry parameters.
        if !dfg.block_is_valid(entry) {
            self.err(format!("entry {entry} does not exist"));
            return;
        }
        let entry_types: Vec<Type> = dfg
            .block_params(entry)
            .iter()
            .map(|&p| self.ty(p))
            .collect();
        if entry_types != func.sig.params {
            self.err(format!(
                "entry block parameters {entry_types:?} differ from the signature {:?}",
                func.sig.params
            ));
        }
        // 2. Layout shape; definition sites.
        let mut def_site = vec![DefSite::Missing; dfg.num_values()];
        let mut seen_blocks = vec![false; dfg.num_blocks()];
        let mut seen_insts = vec![false; dfg.num_insts()];
        for &block in &layout.blocks {
            if !dfg.block_is_valid(block) {
                self.err(format!("{block} in the layout does not exist"));
                continue;
            }
            if std::mem::replace(&mut seen_blocks[block.index()], true) {
                self.err(format!("{block} placed twice"));
            }
            for &p in dfg.block_params(block) {
                if let Some(site) = def_site.get_mut(p.index()) {
                    *site = DefSite::Param(block);
                }
            }
            let insts = layout.insts(block);
            if insts.is_empty() {
                self.err(format!("{block} is empty"));
            }
            for (pos, &inst) in insts.iter().enumerate() {
                if inst.index() >= dfg.num_insts() {
                    self.err(format!("{inst} in {block} does not exist"));
                    continue;
                }
                if std::mem::replace(&mut seen_insts[inst.index()], true) {
                    self.err(format!("{inst} placed twice"));
                }
                let is_last = pos + 1 == insts.len();
                let is_term = dfg.inst(inst).is_terminator();
                if is_term && !is_last {
                    self.inst_err(inst, format!("terminator in the middle of {block}"));
                }
                if !is_term && is_last {
                    self.inst_err(inst, format!("{block} does not end in a terminator"));
                }
                if let Some(r) = dfg.inst_result(inst) {
                    if let Some(site) = def_site.get_mut(r.index()) {
                        if dfg.value_def(r) == ValueDef::Result(inst) {
                            *site = DefSite::Inst(block, pos);
                        }
                    }
                }
            }
        }
        // CFG and dominators over reachable blocks.
        let doms = Dominators::compute(func);
        // 3–7 per instruction.
        for &block in &layout.blocks {
            if !dfg.block_is_valid(block) {
                continue;
            }
            for (pos, &inst) in layout.insts(block).iter().enumerate() {
                if inst.index() >= dfg.num_insts() {
                    continue;
                }
                let data = dfg.inst(inst);
                let mut ok = true;
                for operand in data.operands() {
                    match def_site
                        .get(operand.index())
                        .copied()
                        .unwrap_or(DefSite::Missing)
                    {
                        DefSite::Missing => {
                            self.inst_err(inst, format!("{operand} is not defined"));
                            ok = false;
                        }
                        site if doms.is_reachable(block)
                            && !doms.def_dominates(site, block, pos) =>
                        {
                            self.inst_err(
                                inst,
                                format!("{operand} is used where its definition does not dominate"),
                            );
                        }
                        _ => {}
                    }
                }
                for target in data.branch_targets() {
                    if !layout.is_in_layout(target.block) || !dfg.block_is_valid(target.block) {
                        self.inst_err(
                            inst,
                            format!("branch to {} which is not in the layout", target.block),
                        );
                        ok = false;
                    } else if target.block == entry {
                        self.inst_err(inst, "branch to the entry block");
                    }
                }
                if ok {
                    self.check_types(inst);
                }
            }
        }
    }

    fn ty(&self, value: Value) -> Type {
        self.func.dfg.value_type(value)
    }

    fn check_block_call(&mut self, inst: Inst, call: &BlockCall) {
        let params = self.func.dfg.block_params(call.block);
        if params.len() != call.args.len() {
            self.inst_err(
                inst,
                format!(
                    "{} takes {} arguments, {} given",
                    call.block,
                    params.len(),
                    call.args.len()
                ),
            );
            return;
        }
        for (i, (&arg, &param)) in call.args.iter().zip(params).enumerate() {
            if self.ty(arg) != self.ty(param) {
                self.inst_err(
                    inst,
                    format!(
                        "argument {i} to {} is {}, parameter is {}",
                        call.block,
                        self.ty(arg),
                        self.ty(param)
                    ),
                );
            }
        }
    }

    fn check_types(&mut self, inst: Inst) {
        let func = self.func;
        let data = func.dfg.inst(inst);
        let result = func.dfg.inst_result(inst).map(|r| self.ty(r));
        let problem = self.type_problem(data, result);
        if let Some(message) = problem {
            self.inst_err(inst, message);
        }
        match data {
            InstData::Jump { dest } => self.check_block_call(inst, dest),
            InstData::Brif {
                then_dest,
                else_dest,
                ..
            } => {
                self.check_block_call(inst, then_dest);
                self.check_block_call(inst, else_dest);
            }
            InstData::Switch { default, cases, .. } => {
                self.check_block_call(inst, default);
                for (_, dest) in cases {
                    self.check_block_call(inst, dest);
                }
            }
            _ => {}
        }
    }

    /// The first type rule `data` breaks, if any.
    fn type_problem(&self, data: &InstData, result: Option<Type>) -> Option<String> {
        let ty = |v: Value| self.ty(v);
        let bits = self.address_bits();
        let want_result = |r: Option<Type>| -> Result<Type, String> {
            r.ok_or_else(|| "missing result".to_string())
        };
        let no_result = |r: Option<Type>| -> Result<(), String> {
            match r {
                Some(t) => Err(format!("has a result of type {t} but produces none")),
                None => Ok(()),
            }
        };
        let check = || -> Result<(), String> {
            match data {
                InstData::Const { bytes } => {
                    let t = want_result(result)?;
                    let size = t.size(bits) as usize;
                    let ptr_ok = t.is_ptr() && (bytes.len() == 4 || bytes.len() == 8);
                    if bytes.len() != size && !ptr_ok {
                        return Err(format!(
                            "constant has {} bytes, {t} has {size}",
                            bytes.len()
                        ));
                    }
                }
                InstData::Unary { op, arg } => {
                    let t = want_result(result)?;
                    same(t, ty(*arg))?;
                    let fits = match op {
                        UnaryOp::INeg | UnaryOp::BitCount | UnaryOp::BitReverse => t.is_int(),
                        UnaryOp::Not => t.is_int() || t.is_bool(),
                        UnaryOp::FNeg => t.is_float(),
                    };
                    if !fits {
                        return Err(format!("{op} does not apply to {t}"));
                    }
                }
                InstData::Binary { op, a, b } => {
                    let t = want_result(result)?;
                    same(t, ty(*a))?;
                    let is_shift = matches!(op, BinaryOp::Shl | BinaryOp::LShr | BinaryOp::AShr);
                    if is_shift {
                        if !ty(*b).is_int() || ty(*b).lanes() != t.lanes() {
                            return Err(format!("shift amount {} does not fit {t}", ty(*b)));
                        }
                    } else {
                        same(t, ty(*b))?;
                    }
                    let fits = match op {
                        BinaryOp::FAdd
                        | BinaryOp::FSub
                        | BinaryOp::FMul
                        | BinaryOp::FDiv
                        | BinaryOp::FRem
                        | BinaryOp::FMod => t.is_float(),
                        BinaryOp::And | BinaryOp::Or | BinaryOp::Xor => t.is_int() || t.is_bool(),
                        _ => t.is_int(),
                    };
                    if !fits {
                        return Err(format!("{op} does not apply to {t}"));
                    }
                }
                InstData::Cmp { op, a, b } => {
                    let t = want_result(result)?;
                    let (ta, tb) = (ty(*a), ty(*b));
                    same(ta, tb)?;
                    same(t, ta.with_lane(ScalarType::Bool))?;
                    let fits = match op {
                        CmpOp::LogicalEq | CmpOp::LogicalNe => ta.is_bool(),
                        CmpOp::IEq
                        | CmpOp::INe
                        | CmpOp::ULt
                        | CmpOp::ULe
                        | CmpOp::UGt
                        | CmpOp::UGe
                        | CmpOp::SLt
                        | CmpOp::SLe
                        | CmpOp::SGt
                        | CmpOp::SGe => ta.is_int() || ta.is_ptr(),
                        _ => ta.is_float(),
                    };
                    if !fits {
                        return Err(format!("{op} does not apply to {ta}"));
                    }
                }
                InstData::Test { op, arg } => {
                    let t = want_result(result)?;
                    if !ty(*arg).is_float() {
                        return Err(format!("{op} needs floats"));
                    }
                    same(t, ty(*arg).with_lane(ScalarType::Bool))?;
                }
                InstData::Reduce { arg, .. } => {
                    same(want_result(result)?, Type::Bool)?;
                    if !ty(*arg).is_bool() {
                        return Err("reduction of a non-bool".into());
                    }
                }
                InstData::Select { cond, a, b } => {
                    let t = want_result(result)?;
                    same(t, ty(*a))?;
                    same(t, ty(*b))?;
                    let c = ty(*cond);
                    if c != Type::Bool && !(c.is_bool() && c.lanes() == t.lanes() && t.is_vector())
                    {
                        return Err(format!("select condition {c} does not fit {t}"));
                    }
                }
                InstData::Convert { op, arg, .. } => {
                    let to = want_result(result)?;
                    let from = ty(*arg);
                    // SPIR-V 3.42.11: OpBitcast may change the component count when the total
                    // bit width stays the same; every other conversion works per component.
                    if to.lanes() != from.lanes() && *op != ConvertOp::Bitcast {
                        return Err(format!(
                            "conversion changes the lane count ({from} to {to})"
                        ));
                    }
                    let fits = match op {
                        ConvertOp::SToF | ConvertOp::UToF => from.is_int() && to.is_float(),
                        ConvertOp::FToS | ConvertOp::FToU => from.is_float() && to.is_int(),
                        ConvertOp::FConvert => from.is_float() && to.is_float(),
                        ConvertOp::SConvert
                        | ConvertOp::UConvert
                        | ConvertOp::SToU
                        | ConvertOp::UToS => from.is_int() && to.is_int(),
                        ConvertOp::Bitcast => {
                            from.size(bits) == to.size(bits)
                                && !from.is_agg()
                                && !to.is_agg()
                                && !from.is_bool()
                                && !to.is_bool()
                        }
                        ConvertOp::PtrToInt => {
                            from.is_ptr() && to.as_scalar().is_some_and(ScalarType::is_int)
                        }
                        ConvertOp::IntToPtr => {
                            to.is_ptr() && from.as_scalar().is_some_and(ScalarType::is_int)
                        }
                        ConvertOp::PtrCast | ConvertOp::PtrCastChecked => {
                            from.is_ptr() && to.is_ptr()
                        }
                    };
                    if !fits {
                        return Err(format!("{op} cannot convert {from} to {to}"));
                    }
                }
                InstData::Load { ptr, align } => {
                    want_result(result)?;
                    is_ptr(ty(*ptr))?;
                    power_of_two(*align)?;
                }
                InstData::Store { ptr, align, .. } => {
                    no_result(result)?;
                    if ty(*ptr) == Type::Ptr(AddrSpace::Constant) {
                        return Err("store into constant memory".into());
                    }
                    is_ptr(ty(*ptr))?;
                    power_of_two(*align)?;
                }
                InstData::PtrAdd { ptr, offset } => {
                    let t = want_result(result)?;
                    is_ptr(ty(*ptr))?;
                    same(t, ty(*ptr))?;
                    is_int_scalar(ty(*offset))?;
                }
                InstData::StackAlloc { align, .. } => {
                    same(want_result(result)?, Type::Ptr(AddrSpace::Private))?;
                    power_of_two(*align)?;
                }
                InstData::GlobalAddr { global } => {
                    let t = want_result(result)?;
                    if let Some(module) = self.module {
                        let g = module
                            .global(*global)
                            .ok_or_else(|| format!("{global} does not exist"))?;
                        same(t, Type::Ptr(g.space))?;
                    }
                }
                InstData::Memcpy { dst, src, size } => {
                    no_result(result)?;
                    is_ptr(ty(*dst))?;
                    is_ptr(ty(*src))?;
                    is_int_scalar(ty(*size))?;
                }
                InstData::Memset { dst, byte, size } => {
                    no_result(result)?;
                    is_ptr(ty(*dst))?;
                    is_int_scalar(ty(*byte))?;
                    is_int_scalar(ty(*size))?;
                }
                InstData::ExtractLane { vec, lane } => {
                    let v = ty(*vec);
                    in_lanes(v, u32::from(*lane))?;
                    same(want_result(result)?, lane_of(v)?)?;
                }
                InstData::InsertLane { vec, lane, value } => {
                    let v = ty(*vec);
                    in_lanes(v, u32::from(*lane))?;
                    same(ty(*value), lane_of(v)?)?;
                    same(want_result(result)?, v)?;
                }
                InstData::ExtractLaneDyn { vec, index } => {
                    let v = ty(*vec);
                    is_int_scalar(ty(*index))?;
                    same(want_result(result)?, lane_of(v)?)?;
                }
                InstData::InsertLaneDyn { vec, index, value } => {
                    let v = ty(*vec);
                    is_int_scalar(ty(*index))?;
                    same(ty(*value), lane_of(v)?)?;
                    same(want_result(result)?, v)?;
                }
                InstData::Shuffle { a, b, mask } => {
                    let (ta, tb) = (ty(*a), ty(*b));
                    let lane = lane_of(ta)?;
                    if ta.lane_type() != tb.lane_type() {
                        return Err(format!("shuffle of {ta} and {tb}"));
                    }
                    let total = ta.lanes() + tb.lanes();
                    if let Some(bad) = mask.iter().find(|&&m| m != u32::MAX && m >= total) {
                        return Err(format!("mask entry {bad} beyond {total} lanes"));
                    }
                    same(
                        want_result(result)?,
                        Type::vector(
                            lane.as_scalar().unwrap_or(ScalarType::I32),
                            mask.len() as u8,
                        ),
                    )?;
                }
                InstData::Splat { value } => {
                    let t = want_result(result)?;
                    if !t.is_vector() {
                        return Err("splat result is not a vector".into());
                    }
                    same(ty(*value), lane_of(t)?)?;
                }
                InstData::ExtractBytes { agg, offset } => {
                    let t = want_result(result)?;
                    in_agg(ty(*agg), *offset, t.size(bits))?;
                }
                InstData::InsertBytes { agg, offset, value } => {
                    let a = ty(*agg);
                    in_agg(a, *offset, ty(*value).size(bits))?;
                    same(want_result(result)?, a)?;
                }
                InstData::WorkItem { .. } | InstData::WorkItemDyn { .. } => {
                    let t = want_result(result)?;
                    if t != Type::I32 && t != Type::I64 {
                        return Err(format!("work-item query of type {t}"));
                    }
                    if let InstData::WorkItemDyn { dim, .. } = data {
                        is_int_scalar(ty(*dim))?;
                    }
                }
                InstData::Call { func: callee, args } => {
                    if let Some(module) = self.module {
                        let f = module
                            .function(*callee)
                            .ok_or_else(|| format!("{callee} does not exist"))?;
                        if f.sig.params.len() != args.len() {
                            return Err(format!(
                                "{callee} takes {} arguments, {} given",
                                f.sig.params.len(),
                                args.len()
                            ));
                        }
                        for (i, (&arg, &param)) in args.iter().zip(&f.sig.params).enumerate() {
                            if ty(arg) != param {
                                return Err(format!(
                                    "argument {i} is {}, {callee} wants {param}",
                                    ty(arg)
                                ));
                            }
                        }
                        if result != f.sig.ret {
                            return Err(format!(
                                "result {result:?} but {callee} returns {:?}",
                                f.sig.ret
                            ));
                        }
                    }
                }
                InstData::Image { op, args } => {
                    let (least, most) = op.arity();
                    if args.len() < least || args.len() > most {
                        return Err(format!(
                            "image {op} takes {least} to {most} operands, {} given",
                            args.len()
                        ));
                    }
                    is_int_scalar(ty(args[0]))?;
                    let texel = |t: Type| match t {
                        Type::F32 => Ok(()),
                        Type::Vec(ScalarType::F32 | ScalarType::F16 | ScalarType::I32, 4) => Ok(()),
                        t => Err(format!("image texel of type {t}")),
                    };
                    match op {
                        ImageOp::Read | ImageOp::Sample => {
                            texel(want_result(result)?)?;
                            if *op == ImageOp::Sample && ty(args[1]) != Type::I32 {
                                return Err(format!("sampler of type {}", ty(args[1])));
                            }
                        }
                        ImageOp::Write => {
                            no_result(result)?;
                            texel(ty(args[2]))?;
                        }
                        _ => {
                            let t = want_result(result)?;
                            if !t.lane_type().is_some_and(ScalarType::is_int) {
                                return Err(format!("image query of type {t}"));
                            }
                        }
                    }
                }
                InstData::Builtin {
                    func: builtin,
                    args,
                } => {
                    let (arity, variadic) = (builtin.arity(), builtin.is_variadic());
                    if args.len() < arity || (!variadic && args.len() > arity) {
                        return Err(format!(
                            "builtin {builtin} takes {arity} arguments, {} given",
                            args.len()
                        ));
                    }
                }
                InstData::Barrier { .. } | InstData::Fence { .. } => no_result(result)?,
                InstData::NamedBarrier { barrier, .. } => {
                    no_result(result)?;
                    if ty(*barrier) != Type::I64 {
                        return Err("a named barrier handle is an i64".into());
                    }
                }
                InstData::Atomic {
                    op,
                    ty: mem,
                    ptr,
                    args,
                    ..
                } => {
                    is_ptr(ty(*ptr))?;
                    if !matches!(mem, Type::I32 | Type::I64 | Type::F32 | Type::F64) {
                        return Err(format!("atomic on {mem}"));
                    }
                    let arity = match op {
                        AtomicOp::Load
                        | AtomicOp::IIncrement
                        | AtomicOp::IDecrement
                        | AtomicOp::FlagTestAndSet
                        | AtomicOp::FlagClear => 0,
                        AtomicOp::CmpXchg => 2,
                        _ => 1,
                    };
                    if args.len() != arity {
                        return Err(format!(
                            "atomic {op} takes {arity} arguments, {} given",
                            args.len()
                        ));
                    }
                    for &arg in args {
                        same(ty(arg), *mem)?;
                    }
                    let expected = match op {
                        AtomicOp::Store | AtomicOp::FlagClear => None,
                        AtomicOp::FlagTestAndSet => Some(Type::Bool),
                        _ => Some(*mem),
                    };
                    if result != expected {
                        return Err(format!("result {result:?}, expected {expected:?}"));
                    }
                }
                InstData::Pipe { op, args } => {
                    if args.len() != op.arg_count() {
                        return Err(format!(
                            "pipe {op} takes {} arguments, {} given",
                            op.arg_count(),
                            args.len()
                        ));
                    }
                    if ty(args[0]) != Type::Ptr(AddrSpace::Global) {
                        return Err(format!("pipe {op} on {}, not a ptr_global", ty(args[0])));
                    }
                    // The packet size and alignment come last.
                    for &arg in &args[args.len() - 2..] {
                        same(ty(arg), Type::I32)?;
                    }
                    match op {
                        PipeOp::Read | PipeOp::Write => is_ptr(ty(args[1]))?,
                        PipeOp::ReservedRead | PipeOp::ReservedWrite => {
                            is_int_scalar(ty(args[1]))?;
                            is_int_scalar(ty(args[2]))?;
                            is_ptr(ty(args[3]))?;
                        }
                        PipeOp::ReserveRead
                        | PipeOp::ReserveWrite
                        | PipeOp::CommitRead
                        | PipeOp::CommitWrite => is_int_scalar(ty(args[1]))?,
                        PipeOp::NumPackets | PipeOp::MaxPackets => {}
                    }
                    match op {
                        PipeOp::CommitRead | PipeOp::CommitWrite => no_result(result)?,
                        // A reserve id is an integer of either width.
                        PipeOp::ReserveRead | PipeOp::ReserveWrite => {
                            let t = want_result(result)?;
                            if t != Type::I32 && t != Type::I64 {
                                return Err(format!("reserve id of type {t}"));
                            }
                        }
                        _ => same(want_result(result)?, Type::I32)?,
                    }
                }
                InstData::Enqueue { op, invoke, args } => {
                    let enough = if *op == EnqueueOp::Kernel {
                        args.len() >= op.arg_count()
                    } else {
                        args.len() == op.arg_count()
                    };
                    if !enough {
                        return Err(format!(
                            "enqueue {op} takes {} arguments, {} given",
                            op.arg_count(),
                            args.len()
                        ));
                    }
                    if invoke.is_some() != op.has_invoke() {
                        return Err(format!("enqueue {op} with a wrong invoke function"));
                    }
                    if let (Some(module), Some(f)) = (self.module, invoke) {
                        let sig = &module
                            .function(*f)
                            .ok_or_else(|| format!("{f} does not exist"))?
                            .sig;
                        if sig.params.first().is_none_or(|p| !p.is_ptr()) {
                            return Err(format!("invoke {f} does not take the block literal"));
                        }
                        if *op == EnqueueOp::Kernel
                            && sig.params.len() != 1 + (args.len() - op.arg_count())
                        {
                            return Err(format!(
                                "invoke {f} takes {} parameters for {} local sizes",
                                sig.params.len(),
                                args.len() - op.arg_count()
                            ));
                        }
                    }
                    for &a in args {
                        let t = ty(a);
                        if !t.is_ptr() {
                            is_int_scalar(t)?;
                        }
                    }
                    if op.has_result() {
                        is_int_scalar(want_result(result)?)?;
                    } else {
                        no_result(result)?;
                    }
                }
                InstData::Jump { .. } | InstData::Unreachable => no_result(result)?,
                InstData::Brif { cond, .. } => {
                    no_result(result)?;
                    same(ty(*cond), Type::Bool)?;
                }
                InstData::Switch { value, .. } => {
                    no_result(result)?;
                    is_int_scalar(ty(*value))?;
                }
                InstData::Return { value } => {
                    no_result(result)?;
                    let given = value.map(ty);
                    if given != self.func.sig.ret {
                        return Err(format!(
                            "returns {given:?}, the signature says {:?}",
                            self.func.sig.ret
                        ));
                    }
                }
            }
            Ok(())
        };
        check().err()
    }
}

fn same(a: Type, b: Type) -> Result<(), String> {
    if a == b {
        Ok(())
    } else {
        Err(format!("type mismatch: {a} vs {b}"))
    }
}

fn is_ptr(t: Type) -> Result<(), String> {
    if t.is_ptr() {
        Ok(())
    } else {
        Err(format!("expected a pointer, found {t}"))
    }
}

fn is_int_scalar(t: Type) -> Result<(), String> {
    if t.as_scalar().is_some_and(ScalarType::is_int) {
        Ok(())
    } else {
        Err(format!("expected an integer scalar, found {t}"))
    }
}

fn power_of_two(align: u32) -> Result<(), String> {
    if align.is_power_of_two() {
        Ok(())
    } else {
        Err(format!("alignment {align} is not a power of two"))
    }
}

fn lane_of(t: Type) -> Result<Type, String> {
    match t {
        Type::Vec(s, _) => Ok(Type::scalar(s)),
        _ => Err(format!("expected a vector, found {t}")),
    }
}

fn in_lanes(t: Type, lane: u32) -> Result<(), String> {
    lane_of(t)?;
    if lane < t.lanes() {
        Ok(())
    } else {
        Err(format!("lane {lane} out of range for {t}"))
    }
}

fn in_agg(t: Type, offset: u32, size: u32) -> Result<(), String> {
    match t {
        Type::Agg { size: agg_size, .. }
            if u64::from(offset) + u64::from(size) <= u64::from(agg_size) =>
        {
            Ok(())
        }
        Type::Agg { .. } => Err(format!(
            "bytes {offset}..{} outside {t}",
            u64::from(offset) + u64::from(size)
        )),
        _ => Err(format!("expected an aggregate, found {t}")),
    }
}

/// Immediate dominators of the reachable blocks (Cooper, Harvey, Kennedy: "A Simple, Fast
/// Dominance Algorithm").
struct Dominators {
    /// Indexed by block: reverse-postorder number, `usize::MAX` if unreachable.
    rpo_number: Vec<usize>,
    /// Indexed by block: immediate dominator (the entry is its own).
    idom: Vec<Option<Block>>,
}

impl Dominators {
    fn compute(func: &Function) -> Dominators {
        let n = func.dfg.num_blocks();
        let mut rpo_number = vec![usize::MAX; n];
        let mut idom = vec![None; n];
        let Some(entry) = func.entry_block() else {
            return Dominators { rpo_number, idom };
        };
        let succs = |b: Block| -> Vec<Block> {
            func.terminator(b)
                .map(|t| {
                    func.dfg
                        .inst(t)
                        .branch_targets()
                        .into_iter()
                        .map(|c| c.block)
                        .filter(|t| t.index() < n && func.layout.is_in_layout(*t))
                        .collect()
                })
                .unwrap_or_default()
        };
        // Iterative DFS for postorder.
        let mut postorder = Vec::new();
        let mut visited = vec![false; n];
        let mut stack = vec![(entry, succs(entry), 0usize)];
        visited[entry.index()] = true;
        while let Some((block, s, i)) = stack.last_mut() {
            if *i < s.len() {
                let next = s[*i];
                *i += 1;
                if !visited[next.index()] {
                    visited[next.index()] = true;
                    let next_succs = succs(next);
                    stack.push((next, next_succs, 0));
                }
            } else {
                postorder.push(*block);
                stack.pop();
            }
        }
        let rpo: Vec<Block> = postorder.iter().rev().copied().collect();
        for (i, b) in rpo.iter().enumerate() {
            rpo_number[b.index()] = i;
        }
        let mut preds: Vec<Vec<Block>> = vec![Vec::new(); n];
        for &b in &rpo {
            for s in succs(b) {
                preds[s.index()].push(b);
            }
        }
        idom[entry.index()] = Some(entry);
        let mut changed = true;
        while changed {
            changed = false;
            for &b in rpo.iter().skip(1) {
                let mut new_idom: Option<Block> = None;
                for &p in &preds[b.index()] {
                    if idom[p.index()].is_none() {
                        continue;
                    }
                    new_idom = Some(match new_idom {
                        None => p,
                        Some(cur) => intersect(&idom, &rpo_number, p, cur),
                    });
                }
                if new_idom.is_some() && idom[b.index()] != new_idom {
                    idom[b.index()] = new_idom;
                    changed = true;
                }
            }
        }
        Dominators { rpo_number, idom }
    }

    fn is_reachable(&self, block: Block) -> bool {
        self.rpo_number
            .get(block.index())
            .is_some_and(|&n| n != usize::MAX)
    }

    /// Whether block `a` dominates block `b` (both reachable).
    fn dominates(&self, a: Block, mut b: Block) -> bool {
        loop {
            if a == b {
                return true;
            }
            match self.idom.get(b.index()).copied().flatten() {
                Some(up) if up != b => b = up,
                _ => return false,
            }
        }
    }

    /// Whether a definition at `site` dominates a use at instruction `pos` of `block`.
    fn def_dominates(&self, site: DefSite, block: Block, pos: usize) -> bool {
        match site {
            DefSite::Missing => false,
            DefSite::Param(b) => self.is_reachable(b) && self.dominates(b, block),
            DefSite::Inst(b, p) if b == block => p < pos,
            DefSite::Inst(b, _) => self.is_reachable(b) && self.dominates(b, block),
        }
    }
}

fn intersect(idom: &[Option<Block>], rpo: &[usize], mut a: Block, mut b: Block) -> Block {
    while a != b {
        while rpo[a.index()] > rpo[b.index()] {
            a = idom[a.index()].unwrap_or(a);
        }
        while rpo[b.index()] > rpo[a.index()] {
            b = idom[b.index()].unwrap_or(b);
        }
    }
    a
}
