//! The module driver: address model, module analysis, globals (built-in inputs, `__local`,
//! program-scope variables with initializers and relocations), kernel argument descriptions,
//! function declarations and bodies, kernels, and the final verification.

use std::collections::HashMap;

use spv::{AddressingModel, Decoration, Instruction, Op};

use super::constants::const_bytes_with_relocs;
use super::function::FnLower;
use super::kernel_args::{self, KernelParam};
use super::layout::{storage, SpvId, TypeKind};
use super::module_info::{self, FunctionRange, ModuleInfo};
use super::{InstExt, LowerError, LowerOptions};
use crate::{
    AddrSpace, FuncRef, Function, Global, GlobalRef, Kernel, Module, Reloc, Signature, Type,
};

/// Module-wide lowering state shared by all functions.
pub(crate) struct ModuleLowering<'a> {
    pub insts: &'a [Instruction],
    pub info: ModuleInfo,
    pub func_refs: HashMap<SpvId, FuncRef>,
    pub globals: HashMap<SpvId, (GlobalRef, AddrSpace)>,
    /// `Input` (or older modules' `UniformConstant`) variables decorated `BuiltIn`, with the
    /// BuiltIn number.
    pub builtin_vars: HashMap<SpvId, u32>,
    /// Kernel parameter descriptions of entry-point functions.
    pub kernel_params: HashMap<SpvId, Vec<KernelParam>>,
    pub address_bits: u32,
    /// A `__local` cell used by work-group collective functions, when the module has any.
    pub wg_scratch: Option<GlobalRef>,
    /// A `__private` u32 counting the named barriers the work-item initialized, when the
    /// module has `OpNamedBarrierInitialize` (see `lower_named_barrier_init`).
    pub named_barrier_counter: Option<GlobalRef>,
}

/// Lowers a module given as its instruction list (the caller guarantees it was validated).
pub(crate) fn lower_instructions(
    insts: &[Instruction],
    options: &LowerOptions,
) -> Result<Module, LowerError> {
    let address_bits = insts
        .iter()
        .find(|i| i.op == Op::MemoryModel)
        .map(|i| match i.int(0) {
            Some(m) if m == AddressingModel::Physical32 as u32 => Ok(32),
            Some(m) if m == AddressingModel::Physical64 as u32 => Ok(64),
            _ => Err(
                i.unsupported("only the Physical32 and Physical64 addressing models are supported")
            ),
        })
        .transpose()?
        .unwrap_or(64);
    let info = module_info::analyze(insts, address_bits, options)?;

    let mut lowering = ModuleLowering {
        insts,
        info,
        func_refs: HashMap::new(),
        globals: HashMap::new(),
        builtin_vars: HashMap::new(),
        kernel_params: HashMap::new(),
        address_bits,
        wg_scratch: None,
        named_barrier_counter: None,
    };
    let mut module = Module::new(address_bits);
    lowering.lower_globals(&mut module)?;
    lowering.lower_pipe_storages(&mut module)?;

    // Kernel parameter descriptions.
    for ep in lowering.info.entry_points.clone() {
        let range = lowering.function_range(ep.func)?.clone();
        let params = param_ids(&insts[range.start..range.end]);
        let mut described = Vec::new();
        for (index, (id, ty)) in params.iter().enumerate() {
            described.push(kernel_args::describe(
                &lowering.info,
                &ep.name,
                index,
                *id,
                *ty,
            )?);
        }
        lowering.kernel_params.insert(ep.func, described);
    }

    // Declare every function with a body, so calls can refer to any of them.
    let ranges = lowering.info.functions.clone();
    let mut to_lower = Vec::new();
    for range in &ranges {
        let body = &insts[range.start..range.end];
        if !body.iter().any(|i| i.op == Op::Label) {
            continue; // an import: calls to it are reported where they occur
        }
        let sig = lowering.signature(range, body)?;
        let name = lowering.function_name(range.id);
        let fref = module.declare_function(Function::new(name, sig));
        lowering.func_refs.insert(range.id, fref);
        to_lower.push((range.clone(), fref));
    }
    for (range, fref) in to_lower {
        let func = {
            let sig = module
                .function(fref)
                .map(|f| f.sig.clone())
                .ok_or_else(|| LowerError::Internal("lost a declared function".into()))?;
            let name = lowering.function_name(range.id);
            FnLower::run(&lowering, &range, Function::new(name, sig))?
        };
        if let Some(slot) = module.function_mut(fref) {
            *slot = func;
        }
    }

    for ep in &lowering.info.entry_points {
        let func = *lowering
            .func_refs
            .get(&ep.func)
            .ok_or_else(|| LowerError::Internal(format!("entry point {} has no body", ep.name)))?;
        let args = lowering
            .kernel_params
            .get(&ep.func)
            .map(|ps| ps.iter().map(|p| p.arg.clone()).collect())
            .unwrap_or_default();
        module.kernels.push(Kernel {
            name: ep.name.clone(),
            func,
            args,
            reqd_work_group_size: ep.local_size,
            work_group_size_hint: ep.local_size_hint,
            vec_type_hint: ep.vec_type_hint,
        });
    }
    super::verify_module(&module)?;
    Ok(module)
}

/// `(id, type)` of each `OpFunctionParameter` of a function.
fn param_ids(body: &[Instruction]) -> Vec<(SpvId, SpvId)> {
    body.iter()
        .filter(|i| i.op == Op::FunctionParameter)
        .filter_map(|i| Some((i.result?.0, i.result_type?.0)))
        .collect()
}

impl ModuleLowering<'_> {
    pub fn function_range(&self, id: SpvId) -> Result<&FunctionRange, LowerError> {
        self.info
            .functions
            .iter()
            .find(|f| f.id == id)
            .ok_or_else(|| LowerError::Internal(format!("%{id} is not a function")))
    }

    /// The kir name of a function: an entry point's name, else its OpName or linkage name
    /// (suffixed `.impl` when an entry point has the same name, as llvm-spirv's kernels calling
    /// their bodies do), else `f<id>`.
    pub fn function_name(&self, id: SpvId) -> String {
        if let Some(ep) = self.info.entry_points.iter().find(|e| e.func == id) {
            return ep.name.clone();
        }
        let name = self.plain_function_name(id);
        if self.info.entry_points.iter().any(|e| e.name == name) {
            format!("{name}.impl")
        } else {
            name
        }
    }

    fn plain_function_name(&self, id: SpvId) -> String {
        if let Some(n) = self.info.names.get(&id) {
            return n.clone();
        }
        for d in self.info.decorations_of(id) {
            if d.kind == Decoration::LinkageAttributes as u32 {
                if let Some(spv::Operand::Str(s)) = d.args.first() {
                    return s.clone();
                }
            }
        }
        format!("f{id}")
    }

    /// The kir value type of a SPIR-V type, or an error naming the instruction.
    pub fn value_type(&self, ty: SpvId, inst: &Instruction) -> Result<Type, LowerError> {
        self.info
            .types
            .value_type(ty)
            .ok_or_else(|| inst.unsupported(&format!("values of type %{ty}")))
    }

    fn signature(
        &self,
        range: &FunctionRange,
        body: &[Instruction],
    ) -> Result<Signature, LowerError> {
        let first = &body[0];
        let ret_ty = first.rty()?;
        let ret = match self.info.types.get(ret_ty).map(|t| &t.kind) {
            Some(TypeKind::Void) => None,
            _ => Some(self.value_type(ret_ty, first)?),
        };
        let params = if let Some(kps) = self.kernel_params.get(&range.id) {
            kps.iter().map(|p| p.ty).collect()
        } else {
            body.iter()
                .filter(|i| i.op == Op::FunctionParameter)
                .map(|i| self.value_type(i.rty()?, i))
                .collect::<Result<Vec<_>, _>>()?
        };
        Ok(Signature { params, ret })
    }

    /// Module-scope variables: built-in inputs, `__local` variables and program-scope
    /// `__global`/`__constant` variables with their initializers (pointers to other variables
    /// inside initializers become relocations).
    fn lower_globals(&mut self, module: &mut Module) -> Result<(), LowerError> {
        let mut pending = Vec::new();
        for g in self.info.globals.clone() {
            let inst = &self.insts[*self.info.defs.get(&g.id).unwrap_or(&0)];
            // A UniformConstant built-in (SPIR-V 1.0–1.2 producers; see spv's decoration rules)
            // reads the same work-item value as an Input one.
            let builtin_constant = g.storage == storage::UNIFORM_CONSTANT
                && self
                    .info
                    .decoration_literal(g.id, Decoration::BuiltIn)
                    .is_some();
            if g.storage == storage::INPUT || builtin_constant {
                let builtin = self
                    .info
                    .decoration_literal(g.id, Decoration::BuiltIn)
                    .ok_or_else(|| {
                        inst.unsupported("Input variables without BuiltIn are not supported")
                    })?;
                self.builtin_vars.insert(g.id, builtin);
                continue;
            }
            if !module_info::is_memory_global(g.storage) || g.storage == storage::PRIVATE {
                return Err(inst.unsupported("module-scope variables of this storage class"));
            }
            let space = super::layout::addr_space(g.storage)
                .ok_or_else(|| inst.unsupported("storage class"))?;
            let pointee = self
                .info
                .types
                .pointee(g.ptr_type)
                .ok_or_else(|| inst.malformed("variable type is not a pointer"))?;
            let size = u32::try_from(self.info.types.size(pointee))
                .map_err(|_| inst.unsupported("variables of 4 GiB or more"))?;
            let align = u32::try_from(self.info.types.align(pointee)).unwrap_or(1);
            let align = self
                .info
                .decoration_literal(g.id, Decoration::Alignment)
                .unwrap_or(align)
                .max(align);
            let name = self
                .info
                .names
                .get(&g.id)
                .cloned()
                .unwrap_or_else(|| format!("g{}", g.id));
            let gref = module.add_global(Global {
                name,
                space,
                size,
                align,
                init: None,
                relocs: Vec::new(),
            });
            self.globals.insert(g.id, (gref, space));
            if space != AddrSpace::Local {
                if let Some(init) = g.initializer {
                    pending.push((gref, init, inst));
                }
            }
        }
        let collectives = self.insts.iter().any(|i| {
            matches!(
                i.op,
                Op::GroupAll
                    | Op::GroupAny
                    | Op::GroupBroadcast
                    | Op::GroupIAdd
                    | Op::GroupFAdd
                    | Op::GroupSMin
                    | Op::GroupUMin
                    | Op::GroupFMin
                    | Op::GroupSMax
                    | Op::GroupUMax
                    | Op::GroupFMax
                    | Op::GroupReserveReadPipePackets
                    | Op::GroupReserveWritePipePackets
            )
        });
        if self
            .insts
            .iter()
            .any(|i| i.op == Op::NamedBarrierInitialize)
        {
            self.named_barrier_counter = Some(module.add_global(Global {
                name: "__named_barrier_count".into(),
                space: AddrSpace::Private,
                size: 4,
                align: 4,
                init: None,
                relocs: Vec::new(),
            }));
        }
        if collectives {
            self.wg_scratch = Some(module.add_global(Global {
                name: "__work_group_scratch".into(),
                space: AddrSpace::Local,
                size: 8,
                align: 8,
                init: None,
                relocs: Vec::new(),
            }));
        }
        for (gref, init, inst) in pending {
            let (bytes, relocs) =
                const_bytes_with_relocs(&self.info, init).map_err(|e| match e {
                    LowerError::Internal(_) => inst.unsupported("this initializer"),
                    other => other,
                })?;
            let mut kir_relocs = Vec::new();
            for r in relocs {
                let &(target, _) = self.globals.get(&r.target).ok_or_else(|| {
                    inst.unsupported("an initializer pointing to a variable that is not in memory")
                })?;
                kir_relocs.push(Reloc {
                    offset: u32::try_from(r.offset)
                        .map_err(|_| inst.unsupported("huge initializer"))?,
                    target,
                    addend: r.addend,
                });
            }
            let global = &mut module.globals[gref.index()];
            if bytes.iter().any(|b| *b != 0) || !kir_relocs.is_empty() {
                global.init = Some(bytes);
            }
            global.relocs = kir_relocs;
        }
        Ok(())
    }
}
