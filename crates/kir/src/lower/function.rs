//! The per-function lowering machinery: for each function body the prologue (parameters,
//! stack slots, constants), the blocks with their parameters (from `OpPhi` and from promoted variables), and the walk over the reachable
//! blocks in reverse post-order that selects instructions (`ops`, `memory`, `ext_inst`).
//!
//! SSA construction for promoted variables (Cytron et al.): a block gets a parameter for a
//! variable when it lies in the iterated dominance frontier of the blocks storing to it; the
//! value of a variable at a block's entry is that parameter, or else the value at the exit of the
//! block's immediate dominator. Reverse post-order visits dominators first, so every value used
//! is lowered before its use; branch arguments are each predecessor's exit values.

use std::collections::HashMap;

use spv::{Decoration, Instruction, Op};

use super::cfg::Cfg;
use super::constants::{const_address, const_bytes, scalar_value};
use super::driver::ModuleLowering;
use super::layout::{storage, SpvId};
use super::module_info::FunctionRange;
use super::promote::{self, Promotion};
use super::{InstExt, LowerError};
use crate::{AddrSpace, Block, BlockCall, Function, InstData, Type, Value};

/// One SPIR-V block of the function being lowered.
#[derive(Debug, Clone)]
pub(crate) struct SpvBlock {
    pub label: SpvId,
    /// Instruction indices (into the function body) after the `OpLabel`, terminator included.
    pub start: usize,
    pub end: usize,
    pub kir: Block,
    /// `OpPhi` results, in order: the first block parameters.
    pub phis: Vec<SpvId>,
    /// Promoted variables with a parameter here, in order: the next block parameters.
    pub var_params: Vec<SpvId>,
}

/// The lowering of one function.
pub(crate) struct FnLower<'m, 'a> {
    pub m: &'m ModuleLowering<'a>,
    pub func: Function,
    pub body: &'a [Instruction],
    pub vals: HashMap<SpvId, Value>,
    pub prologue: Block,
    pub cur: Block,
    pub blocks: Vec<SpvBlock>,
    pub label_index: HashMap<SpvId, usize>,
    pub cfg: Cfg,
    pub promo: Promotion,
    /// Current values of promoted variables in the block being lowered.
    pub var_vals: HashMap<SpvId, Value>,
    /// Values of promoted variables at the exit of each lowered block.
    pub exit_vals: Vec<Option<HashMap<SpvId, Value>>>,
    /// Initial values of promoted variables.
    pub initial_vals: HashMap<SpvId, Value>,
    /// Access chains into built-in variables: (BuiltIn, dimension index id).
    pub builtin_parts: HashMap<SpvId, (u32, SpvId)>,
    pub zero_consts: HashMap<(Type, u64), Value>,
    /// SPIR-V result type of every result id of the function body.
    pub result_types: HashMap<SpvId, SpvId>,
    /// Vectors loaded from built-in variables, with their lane values (extracts fold to these).
    pub builtin_vectors: HashMap<Value, Vec<Value>>,
    /// Scalar integer constants (zero-extended bits), for folding.
    pub int_consts: HashMap<Value, u64>,
    /// `OpSampledImage` results: their (image, sampler) values (see `image`).
    pub sampled_images: HashMap<SpvId, (Value, Value)>,
}

impl<'m, 'a> FnLower<'m, 'a> {
    pub(crate) fn run(
        m: &'m ModuleLowering<'a>,
        range: &FunctionRange,
        mut func: Function,
    ) -> Result<Function, LowerError> {
        let body = &m.insts[range.start..range.end];
        // The prologue is the kir entry block: parameters, stack slots, constants.
        let prologue = func.dfg.make_block();
        for ty in func.sig.params.clone() {
            func.dfg.append_block_param(prologue, ty);
        }
        func.layout.append_block(prologue);

        // Blocks.
        let mut blocks = Vec::new();
        let mut label_index = HashMap::new();
        let mut k = 0;
        while k < body.len() {
            if body[k].op == Op::Label {
                let label = body[k].res()?;
                let start = k + 1;
                let mut end = start;
                while end < body.len() && !is_terminator(body[end].op) {
                    end += 1;
                }
                if end >= body.len() {
                    return Err(body[k].malformed("block without a terminator"));
                }
                label_index.insert(label, blocks.len());
                blocks.push(SpvBlock {
                    label,
                    start,
                    end: end + 1,
                    kir: Block(0),
                    phis: Vec::new(),
                    var_params: Vec::new(),
                });
                k = end + 1;
            } else {
                k += 1;
            }
        }
        let mut succs = Vec::with_capacity(blocks.len());
        for b in &blocks {
            let term = &body[b.end - 1];
            let mut s = Vec::new();
            for label in successor_labels(term) {
                let idx = *label_index
                    .get(&label)
                    .ok_or_else(|| term.malformed("branch to an unknown label"))?;
                s.push(idx);
            }
            succs.push(s);
        }
        let cfg = Cfg::new(succs);
        let promo = promote::analyze(body, &m.info);

        let mut this = FnLower {
            m,
            func,
            body,
            vals: HashMap::new(),
            prologue,
            cur: prologue,
            blocks,
            label_index,
            cfg,
            promo,
            var_vals: HashMap::new(),
            exit_vals: Vec::new(),
            initial_vals: HashMap::new(),
            builtin_parts: HashMap::new(),
            zero_consts: HashMap::new(),
            result_types: body
                .iter()
                .filter_map(|i| Some((i.result?.0, i.result_type?.0)))
                .collect(),
            builtin_vectors: HashMap::new(),
            int_consts: HashMap::new(),
            sampled_images: HashMap::new(),
        };
        this.exit_vals = vec![None; this.blocks.len()];
        this.setup_params(range)?;
        this.setup_blocks()?;
        this.setup_variables()?;
        if this.blocks.is_empty() {
            return Err(LowerError::Internal("function without blocks".into()));
        }
        let first = this.blocks[0].kir;
        for &b in &this.cfg.rpo.clone() {
            this.lower_block(b)?;
        }
        let jump = InstData::Jump {
            dest: BlockCall::new(first, Vec::new()),
        };
        let (inst, _) = this.func.dfg.make_inst(jump, None);
        this.func.layout.append_inst(this.prologue, inst);
        let mut func = this.func;
        super::cleanup::remove_dead_code(&mut func);
        Ok(func)
    }

    /// Maps `OpFunctionParameter`s to the prologue's parameters (with private copies of
    /// by-value structs).
    fn setup_params(&mut self, range: &FunctionRange) -> Result<(), LowerError> {
        let kernel = self.m.kernel_params.get(&range.id);
        let params: Vec<Value> = self.func.dfg.block_params(self.prologue).to_vec();
        let spv_params: Vec<&Instruction> = self
            .body
            .iter()
            .filter(|i| i.op == Op::FunctionParameter)
            .collect();
        for (k, inst) in spv_params.into_iter().enumerate() {
            let id = inst.res()?;
            let value = *params
                .get(k)
                .ok_or_else(|| inst.malformed("more parameters than the function type"))?;
            let by_val_kernel = kernel.and_then(|ps| ps.get(k)).is_some_and(|p| p.by_val);
            let by_val_attr = self
                .m
                .info
                .func_param_attrs(id)
                .contains(&(spv::FunctionParameterAttribute::ByVal as u32));
            let pointee = self.m.info.types.pointee(inst.rty()?);
            if by_val_kernel || by_val_attr {
                let pointee = pointee.ok_or_else(|| inst.malformed("ByVal on a non-pointer"))?;
                let size = self.m.info.types.size(pointee);
                let align = self.m.info.types.align(pointee);
                let slot = self.pro(
                    InstData::StackAlloc {
                        size: size as u32,
                        align: align as u32,
                    },
                    Type::Ptr(AddrSpace::Private),
                );
                if by_val_kernel {
                    self.pro_void(InstData::Store {
                        ptr: slot,
                        value,
                        align: align as u32,
                    });
                } else {
                    let n = self.pro_int_const(size);
                    self.pro_void(InstData::Memcpy {
                        dst: slot,
                        src: value,
                        size: n,
                    });
                }
                self.vals.insert(id, slot);
            } else {
                self.vals.insert(id, value);
            }
        }
        Ok(())
    }

    /// Creates kir blocks for reachable SPIR-V blocks, with parameters for `OpPhi`s and for
    /// promoted variables at iterated dominance frontiers of their stores.
    fn setup_blocks(&mut self) -> Result<(), LowerError> {
        for b in 0..self.blocks.len() {
            if !self.cfg.reachable(b) {
                continue;
            }
            let kir = self.func.dfg.make_block();
            self.func.layout.append_block(kir);
            self.blocks[b].kir = kir;
            let (start, end) = (self.blocks[b].start, self.blocks[b].end);
            for inst in &self.body[start..end] {
                if inst.op == Op::Phi {
                    let ty = self.m.value_type(inst.rty()?, inst)?;
                    let v = self.func.dfg.append_block_param(kir, ty);
                    self.vals.insert(inst.res()?, v);
                    self.blocks[b].phis.push(inst.res()?);
                }
            }
        }
        // Stores per promoted variable.
        let mut def_blocks: HashMap<SpvId, Vec<usize>> = HashMap::new();
        for (b, blk) in self.blocks.iter().enumerate() {
            if !self.cfg.reachable(b) {
                continue;
            }
            for inst in &self.body[blk.start..blk.end] {
                if inst.op != Op::Store {
                    continue;
                }
                let Some(ptr) = inst.id(0) else { continue };
                let var = if self.promo.vars.contains_key(&ptr.0) {
                    ptr.0
                } else if let Some(p) = self.promo.parts.get(&ptr.0) {
                    p.var
                } else {
                    continue;
                };
                let list = def_blocks.entry(var).or_default();
                if !list.contains(&b) {
                    list.push(b);
                }
            }
        }
        let mut vars: Vec<SpvId> = self.promo.vars.keys().copied().collect();
        vars.sort_unstable();
        for var in vars {
            let mut defs = def_blocks.remove(&var).unwrap_or_default();
            defs.push(0);
            let ty_id = self.promo.vars[&var];
            let Some(ty) = self.m.info.types.value_type(ty_id) else {
                continue;
            };
            for b in self.cfg.iterated_frontier(&defs) {
                let kir = self.blocks[b].kir;
                self.func.dfg.append_block_param(kir, ty);
                self.blocks[b].var_params.push(var);
            }
        }
        Ok(())
    }

    /// Stack slots for variables that stay in memory, initial values for promoted ones.
    fn setup_variables(&mut self) -> Result<(), LowerError> {
        for inst in self.body {
            if inst.op != Op::Variable {
                continue;
            }
            let id = inst.res()?;
            let ptr_ty = inst.rty()?;
            let pointee = self
                .m
                .info
                .types
                .pointee(ptr_ty)
                .ok_or_else(|| inst.malformed("variable type is not a pointer"))?;
            let init = inst.id(1).map(|i| i.0);
            if let Some(&vty) = self.promo.vars.get(&id) {
                let ty = self.m.value_type(vty, inst)?;
                let v = match init {
                    Some(init) => self.value(init, inst)?,
                    None => self.zero(ty),
                };
                self.initial_vals.insert(id, v);
                continue;
            }
            let sc = inst.lit(0)?;
            if sc != storage::FUNCTION {
                return Err(inst.unsupported("function-scope variables of this storage class"));
            }
            let size = self.m.info.types.size(pointee);
            let align = self
                .m
                .info
                .decoration_literal(id, Decoration::Alignment)
                .map(u64::from)
                .unwrap_or(1)
                .max(self.m.info.types.align(pointee));
            let slot = self.pro(
                InstData::StackAlloc {
                    size: u32::try_from(size).map_err(|_| inst.unsupported("huge variables"))?,
                    align: align as u32,
                },
                Type::Ptr(AddrSpace::Private),
            );
            if let Some(init) = init {
                let v = self.value(init, inst)?;
                self.pro_void(InstData::Store {
                    ptr: slot,
                    value: v,
                    align: align as u32,
                });
            }
            self.vals.insert(id, slot);
        }
        Ok(())
    }

    fn lower_block(&mut self, b: usize) -> Result<(), LowerError> {
        self.cur = self.blocks[b].kir;
        // Entry values of promoted variables.
        let mut entry: HashMap<SpvId, Value> = if b == 0 {
            self.initial_vals.clone()
        } else {
            let idom = self.cfg.idom[b]
                .ok_or_else(|| LowerError::Internal("reachable block without idom".into()))?;
            self.exit_vals[idom]
                .clone()
                .ok_or_else(|| LowerError::Internal("dominator not lowered first".into()))?
        };
        let params = self.func.dfg.block_params(self.cur).to_vec();
        let nphi = self.blocks[b].phis.len();
        for (k, var) in self.blocks[b].var_params.clone().into_iter().enumerate() {
            entry.insert(var, params[nphi + k]);
        }
        self.var_vals = entry;
        let (start, end) = (self.blocks[b].start, self.blocks[b].end);
        for idx in start..end - 1 {
            let inst = &self.body[idx];
            self.lower_inst(inst)?;
        }
        self.exit_vals[b] = Some(self.var_vals.clone());
        let term = &self.body[end - 1];
        self.lower_terminator(b, term)
    }

    /// Arguments for the edge `from` → block with label `to`.
    fn edge(
        &mut self,
        from: usize,
        to: SpvId,
        inst: &Instruction,
    ) -> Result<BlockCall, LowerError> {
        let t = *self
            .label_index
            .get(&to)
            .ok_or_else(|| inst.malformed("branch to an unknown label"))?;
        let from_label = self.blocks[from].label;
        let mut args = Vec::new();
        for phi in self.blocks[t].phis.clone() {
            let phi_inst = &self.body[self.phi_index(t, phi)?];
            let mut found = None;
            let mut k = 0;
            while k + 1 < phi_inst.operands.len() {
                if phi_inst.id(k + 1).map(|i| i.0) == Some(from_label) {
                    found = phi_inst.id(k).map(|i| i.0);
                    break;
                }
                k += 2;
            }
            let value_id = found
                .ok_or_else(|| phi_inst.malformed("OpPhi has no operand for a predecessor"))?;
            args.push(self.value(value_id, phi_inst)?);
        }
        for var in self.blocks[t].var_params.clone() {
            let v = match self.var_vals.get(&var) {
                Some(v) => *v,
                None => {
                    let ty = self.m.value_type(self.promo.vars[&var], inst)?;
                    self.zero(ty)
                }
            };
            args.push(v);
        }
        Ok(BlockCall::new(self.blocks[t].kir, args))
    }

    fn phi_index(&self, block: usize, phi: SpvId) -> Result<usize, LowerError> {
        let (s, e) = (self.blocks[block].start, self.blocks[block].end);
        (s..e)
            .find(|&i| self.body[i].result.map(|r| r.0) == Some(phi))
            .ok_or_else(|| LowerError::Internal("lost an OpPhi".into()))
    }

    fn lower_terminator(&mut self, b: usize, inst: &Instruction) -> Result<(), LowerError> {
        let data = match inst.op {
            Op::Branch => InstData::Jump {
                dest: self.edge(b, inst.id_op(0)?, inst)?,
            },
            Op::BranchConditional => {
                let cond = self.value(inst.id_op(0)?, inst)?;
                let then_dest = self.edge(b, inst.id_op(1)?, inst)?;
                let else_dest = self.edge(b, inst.id_op(2)?, inst)?;
                InstData::Brif {
                    cond,
                    then_dest,
                    else_dest,
                }
            }
            Op::Switch => {
                let value = self.value(inst.id_op(0)?, inst)?;
                let bits = self.func.dfg.value_type(value).size(self.m.address_bits) * 8;
                let default = self.edge(b, inst.id_op(1)?, inst)?;
                let mut cases = Vec::new();
                let mut k = 2;
                while k + 1 < inst.operands.len() {
                    let lit = inst
                        .wide(k)
                        .ok_or_else(|| inst.malformed("switch case literal"))?;
                    let lit = if bits >= 64 {
                        lit
                    } else {
                        lit & ((1u64 << bits) - 1)
                    };
                    let dest = self.edge(b, inst.id_op(k + 1)?, inst)?;
                    cases.push((lit, dest));
                    k += 2;
                }
                InstData::Switch {
                    value,
                    default,
                    cases,
                }
            }
            Op::Return => InstData::Return { value: None },
            Op::ReturnValue => {
                let v = self.value(inst.id_op(0)?, inst)?;
                InstData::Return { value: Some(v) }
            }
            Op::Unreachable => InstData::Unreachable,
            _ => return Err(inst.unsupported("this block terminator")),
        };
        self.emit_void(data);
        Ok(())
    }

    // ---- emission helpers ----

    /// Appends an instruction with a result of type `ty` to the current block (integer
    /// arithmetic and conversions on constants fold to constants).
    pub fn emit(&mut self, data: InstData, ty: Type) -> Value {
        if let Some(v) = self.fold(&data, ty) {
            return v;
        }
        let (inst, v) = self.func.dfg.make_inst(data, Some(ty));
        self.func.layout.append_inst(self.cur, inst);
        v.unwrap_or(Value(u32::MAX))
    }

    /// Appends an instruction without a result to the current block.
    pub fn emit_void(&mut self, data: InstData) {
        let (inst, _) = self.func.dfg.make_inst(data, None);
        self.func.layout.append_inst(self.cur, inst);
    }

    /// Appends an instruction with a result to the prologue.
    pub fn pro(&mut self, data: InstData, ty: Type) -> Value {
        let int_bits = match (&data, ty.as_scalar()) {
            (InstData::Const { bytes }, Some(s)) if s.is_int() => {
                let mut b = [0u8; 8];
                for (slot, byte) in b.iter_mut().zip(bytes) {
                    *slot = *byte;
                }
                Some(u64::from_le_bytes(b))
            }
            _ => None,
        };
        let (inst, v) = self.func.dfg.make_inst(data, Some(ty));
        self.func.layout.append_inst(self.prologue, inst);
        let v = v.unwrap_or(Value(u32::MAX));
        if let Some(bits) = int_bits {
            self.int_consts.insert(v, bits);
        }
        v
    }

    /// The folded value of an integer operation on constants, if it is one.
    fn fold(&mut self, data: &InstData, ty: Type) -> Option<Value> {
        let bits = ty.as_scalar().filter(|s| s.is_int())?.bits();
        let mask = |v: u64| {
            if bits >= 64 {
                v
            } else {
                v & ((1u64 << bits) - 1)
            }
        };
        let value = match *data {
            InstData::Convert {
                op,
                arg,
                rounding: None,
                saturate: false,
            } if matches!(op, crate::ConvertOp::SConvert | crate::ConvertOp::UConvert) => {
                let a = *self.int_consts.get(&arg)?;
                let from = self.func.dfg.value_type(arg).as_scalar()?.bits();
                if op == crate::ConvertOp::SConvert && from < 64 {
                    let shift = 64 - from;
                    mask((((a << shift) as i64) >> shift) as u64)
                } else {
                    mask(a)
                }
            }
            InstData::Binary { op, a, b } => {
                let (x, y) = (*self.int_consts.get(&a)?, *self.int_consts.get(&b)?);
                match op {
                    crate::BinaryOp::IAdd => mask(x.wrapping_add(y)),
                    crate::BinaryOp::ISub => mask(x.wrapping_sub(y)),
                    crate::BinaryOp::IMul => mask(x.wrapping_mul(y)),
                    crate::BinaryOp::And => x & y,
                    crate::BinaryOp::Or => x | y,
                    crate::BinaryOp::Xor => x ^ y,
                    _ => return None,
                }
            }
            _ => return None,
        };
        Some(self.int_const(ty, value))
    }

    fn pro_void(&mut self, data: InstData) {
        let (inst, _) = self.func.dfg.make_inst(data, None);
        self.func.layout.append_inst(self.prologue, inst);
    }

    /// A pointer-width integer constant in the prologue.
    pub fn pro_int_const(&mut self, value: u64) -> Value {
        let ty = self.ptr_int();
        self.int_const(ty, value)
    }

    /// The pointer-width integer type.
    pub fn ptr_int(&self) -> Type {
        if self.m.address_bits == 32 {
            Type::I32
        } else {
            Type::I64
        }
    }

    /// A constant of scalar/vector type `ty` with every lane `value` (in the prologue, cached).
    pub fn int_const(&mut self, ty: Type, value: u64) -> Value {
        if let Some(v) = self.zero_consts.get(&(ty, value)) {
            return *v;
        }
        let size = ty.size(self.m.address_bits) as usize;
        let lane = ty.lane_type().map_or(size, |l| l.bytes() as usize).max(1);
        let mut bytes = vec![0u8; size];
        for (i, byte) in bytes.iter_mut().enumerate() {
            let shift = (i % lane) * 8;
            *byte = if shift < 64 {
                (value >> shift) as u8
            } else {
                0
            };
        }
        let v = self.pro(InstData::Const { bytes }, ty);
        self.zero_consts.insert((ty, value), v);
        v
    }

    /// The all-zero value of a type (used for undefined values).
    pub fn zero(&mut self, ty: Type) -> Value {
        self.int_const(ty, 0)
    }

    /// The kir value of a SPIR-V id: a lowered result, a constant, or a global's address.
    pub fn value(&mut self, id: SpvId, user: &Instruction) -> Result<Value, LowerError> {
        if let Some(v) = self.vals.get(&id) {
            return Ok(*v);
        }
        if let Some((var, addend)) = const_address(&self.m.info, id) {
            // The address of a variable (plus a constant offset), from OpSpecConstantOp.
            if var != id {
                let base = self.value(var, user)?;
                let ty = match self.m.info.constants.get(&id) {
                    Some(c) => self.m.value_type(c.ty(), user)?,
                    None => self.func.dfg.value_type(base),
                };
                let base = if self.func.dfg.value_type(base) == ty {
                    base
                } else {
                    self.pro(
                        InstData::Convert {
                            op: crate::ConvertOp::PtrCast,
                            arg: base,
                            rounding: None,
                            saturate: false,
                        },
                        ty,
                    )
                };
                let v = if addend == 0 {
                    base
                } else {
                    let off = self.pro_int_const(addend as u64);
                    self.pro(
                        InstData::PtrAdd {
                            ptr: base,
                            offset: off,
                        },
                        ty,
                    )
                };
                self.vals.insert(id, v);
                return Ok(v);
            }
        }
        if let Some(c) = self.m.info.constants.get(&id) {
            let ty = self.m.value_type(c.ty(), user)?;
            let bytes = const_bytes(&self.m.info, id)?;
            let v = self.pro(InstData::Const { bytes }, ty);
            self.vals.insert(id, v);
            return Ok(v);
        }
        if let Some(&(global, space)) = self.m.globals.get(&id) {
            let v = self.pro(InstData::GlobalAddr { global }, Type::Ptr(space));
            self.vals.insert(id, v);
            return Ok(v);
        }
        if self.m.builtin_vars.contains_key(&id) {
            return Err(
                user.unsupported("built-in variables used other than by OpLoad or access chains")
            );
        }
        if self.promo.vars.contains_key(&id) || self.promo.parts.contains_key(&id) {
            return Err(LowerError::Internal(format!(
                "promoted variable %{id} used as a value"
            )));
        }
        Err(user.malformed(&format!("%{id} is used before its definition")))
    }

    /// The SPIR-V type of a result id (function body, module-scope values, constants).
    pub fn type_of(&self, id: SpvId) -> Option<SpvId> {
        if let Some(t) = self.result_types.get(&id) {
            return Some(*t);
        }
        let idx = *self.m.info.defs.get(&id)?;
        self.m.insts.get(idx)?.result_type.map(|t| t.0)
    }

    /// The integer bits of a constant operand (scopes, semantics).
    pub fn const_operand(&self, id: SpvId, user: &Instruction) -> Result<u64, LowerError> {
        scalar_value(&self.m.info, id)
            .map_err(|_| user.unsupported(&format!("%{id} must be a constant here")))
    }
}

fn is_terminator(op: Op) -> bool {
    matches!(
        op,
        Op::Branch
            | Op::BranchConditional
            | Op::Switch
            | Op::Return
            | Op::ReturnValue
            | Op::Unreachable
            | Op::Kill
            | Op::TerminateInvocation
    )
}

fn successor_labels(term: &Instruction) -> Vec<SpvId> {
    match term.op {
        Op::Branch => term.id(0).map(|i| vec![i.0]).unwrap_or_default(),
        Op::BranchConditional => [term.id(1), term.id(2)]
            .into_iter()
            .flatten()
            .map(|i| i.0)
            .collect(),
        Op::Switch => {
            let mut out: Vec<SpvId> = term.id(1).map(|i| vec![i.0]).unwrap_or_default();
            let mut k = 3;
            while k < term.operands.len() {
                if let Some(i) = term.id(k) {
                    out.push(i.0);
                }
                k += 2;
            }
            out
        }
        _ => Vec::new(),
    }
}
