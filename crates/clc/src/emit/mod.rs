//! Type checking and SPIR-V emission in one walk over the syntax tree.
//!
//! Output conventions (OpenCL SPIR-V environment, env 000 §2-§3):
//! - SPIR-V 1.0, `Addresses` + `Kernel`, `Physical64`/`Physical32` and the `OpenCL` memory model;
//! - every named variable lives in memory (`OpVariable Function` for locals and copies of
//!   parameters); the consumer promotes them to registers;
//! - control flow is unstructured (no merge instructions, allowed for `Kernel` modules), with
//!   blocks emitted so that each follows its dominator;
//! - integer types have signedness 0 (env 2.1); the OpenCL C signedness lives in [`Type`].

mod atomic_types;
mod block;
mod block_param;
mod call;
mod consts;
mod convert;
mod decl;
mod enqueue;
mod expr;
mod func;
mod gnu;
mod image;
mod overload;
mod pipe;
mod printf_format;
mod stmt;
mod types;

use std::collections::{HashMap, HashSet};

use spv::{Builder, Capability, Id, Op, Operand};

use crate::ast::{AddrSpace, TranslationUnit};
use crate::diag::Diagnostics;
use crate::pp::Target;
use crate::sema::{Record, Scopes, Type};
use crate::source::Span;

/// A value: a SPIR-V id and its OpenCL C type.
#[derive(Clone, Debug)]
pub struct Val {
    pub id: Id,
    pub ty: Type,
}

/// Something that can be assigned to.
#[derive(Clone, Debug)]
pub enum LVal {
    /// Memory at `ptr` (a SPIR-V pointer in the storage class of `space`).
    Mem {
        ptr: Id,
        ty: Type,
        space: AddrSpace,
        is_const: bool,
    },
    /// Some components of a vector lvalue: `v.xz`, `v.hi`.
    Swizzle { base: Box<LVal>, comps: Vec<u32> },
}

/// A user function's signature.
#[derive(Clone, Debug)]
pub struct FuncSig {
    pub id: Id,
    pub ret: Type,
    pub params: Vec<Type>,
    pub is_kernel: bool,
    pub defined: bool,
    /// `static`: internal linkage, never exported.
    pub is_static: bool,
    pub span: Span,
}

/// Compilation settings the emitter needs.
#[derive(Clone, Debug)]
pub struct EmitOptions {
    /// OpenCL C version (100, 110, 120, 200, 300).
    pub cl_version: u32,
    pub fp64: bool,
    pub fp16: bool,
    /// `-cl-single-precision-constant`.
    pub single_precision_constant: bool,
    /// The generic address space exists (OpenCL C 2.0, or 3.0 with
    /// `__opencl_c_generic_address_space`): unqualified pointers point to it (§6.5).
    pub generic_address_space: bool,
    /// Work-group collective functions (2.0, or 3.0 with
    /// `__opencl_c_work_group_collective_functions`).
    pub work_group_collectives: bool,
    /// Sub-group functions (`cl_khr_subgroups` or `__opencl_c_subgroups`).
    pub subgroups: bool,
    /// 64-bit `atom_add`/`sub`/`xchg`/`inc`/`dec`/`cmpxchg` (`cl_khr_int64_base_atomics`).
    pub int64_base_atomics: bool,
    /// 64-bit `atom_min`/`max`/`and`/`or`/`xor` (`cl_khr_int64_extended_atomics`).
    pub int64_extended_atomics: bool,
    /// Compiling an object for linking (`clCompileProgram`): non-static functions with a body
    /// are exported and called functions without one imported (`LinkageAttributes`, SPIR-V
    /// 2.16.1), instead of an error.
    pub linkage: bool,
}

/// Kernel facts recorded for the entry points, emitted at the end.
struct KernelInfo {
    id: Id,
    name: String,
    span: Span,
    attrs: Vec<crate::ast::Attribute>,
    arg_types: Vec<String>,
}

/// One kernel argument as declared (for `clGetKernelArgInfo`, OpenCL 3.0 API §5.9.3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelArg {
    pub name: String,
    /// The type as llvm-spirv spells it in `kernel_arg_type` (`float*`, `int4`, `struct S`).
    pub type_name: String,
    /// The pointee's address space for pointers; `Private` for arguments passed by value.
    pub address_space: AddrSpace,
    pub is_pointer: bool,
    /// Pointee qualifiers (pointers only) and `restrict` of the pointer itself.
    pub is_const: bool,
    pub is_volatile: bool,
    pub is_restrict: bool,
    /// Size in bytes of the argument value (pointer size for pointers).
    pub size: u64,
    /// The access qualifier of an image argument (`CL_KERNEL_ARG_ACCESS_QUALIFIER`); `None`
    /// for every other type.
    pub access_qualifier: Option<crate::ast::ImageAccess>,
    /// A `pipe` argument (`CL_KERNEL_ARG_TYPE_PIPE`).
    pub is_pipe: bool,
}

/// A kernel's interface (the same facts are in the module: entry point, names, modes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelMeta {
    pub name: String,
    pub args: Vec<KernelArg>,
}

/// Per-function emission state.
#[derive(Default)]
pub(crate) struct FnState {
    pub name: String,
    pub ret: Option<Type>,
    pub is_kernel: bool,
    pub break_targets: Vec<Id>,
    pub continue_targets: Vec<Id>,
    /// Case/default statement (by address) → its block, one map per open switch.
    pub case_blocks: Vec<HashMap<usize, Id>>,
    pub labels: HashMap<String, Id>,
    pub defined_labels: HashSet<String>,
    /// Where each label was first used by a `goto` (for "use of undeclared label").
    pub goto_spans: HashMap<String, Span>,
    /// The body lost a statement to a syntax error (no "does not return a value" then).
    pub saw_syntax_error: bool,
    /// Scope depth of the function body's outermost block.
    pub body_depth: usize,
    /// Blocks that some branch targets (so their code is reachable).
    pub branched_to: HashSet<Id>,
    pub entry: Option<Id>,
    /// In a Block invoke function: the top-level function that encloses the literal.
    pub block_owner: String,
    /// At program scope, while a Block variable's initializer is evaluated: the variable's
    /// return type (what a literal without one returns, §1.12.3).
    pub global_block_ret: Option<Type>,
}

pub(crate) struct Emitter<'a> {
    pub b: Builder,
    pub diags: &'a mut Diagnostics,
    pub target: &'a Target,
    pub opts: EmitOptions,
    pub records: Vec<Record>,
    pub scopes: Scopes,
    pub funcs: HashMap<String, FuncSig>,
    /// The `funcs` keys (mangled names) of the overloads of each overloadable function name,
    /// plus the plain name when one declaration of the name lacks the attribute.
    pub overloads: HashMap<String, Vec<String>>,
    pub fs: FnState,
    /// BuiltIn variable name → its Input variable.
    pub builtin_vars: HashMap<&'static str, Id>,
    /// Module-scope variables (for the entry point interfaces of SPIR-V ≥ 1.4; unused in 1.0).
    pub record_types: HashMap<u32, Id>,
    /// Structs whose member types are being emitted, with the forward-declared pointer types
    /// (storage class, id) their members use to point to them (a self-referencing struct).
    pub records_in_progress: HashMap<u32, Vec<(spv::StorageClass, Id)>>,
    kernels: Vec<KernelInfo>,
    /// Public description of every kernel, in source order.
    pub kernel_meta: Vec<KernelMeta>,
    /// Caller → callees, for diagnosing recursion.
    pub calls: HashMap<String, Vec<(String, Span)>>,
    /// Counter for names of `__local` variables hoisted to module scope.
    pub local_counter: u32,
    /// Types found by `probe_type`, by expression address (keeps nested `?:` linear).
    pub probe_cache: HashMap<usize, Option<Type>>,
    /// Pointers to volatile objects: their loads and stores get `MemoryAccess Volatile`.
    pub volatile_ptrs: HashSet<Id>,
    /// Names in code dropped by parse-error recovery: not reported as undeclared.
    pub recovered_names: HashSet<String>,
    /// Every Block literal met so far (§1.12), by [`crate::sema::types::BlockSig::literal`].
    pub(crate) blocks: Vec<block::BlockLit>,
    /// Literals whose invoke function is still to be emitted.
    pub(crate) pending_blocks: Vec<u32>,
    /// Literals whose enqueue kernel was asked for after their invoke function was emitted.
    pub(crate) pending_block_kernels: Vec<u32>,
    /// Literals per top-level function (for the `_block_invoke_N` names).
    pub(crate) block_counts: HashMap<String, u32>,
    /// Functions with Block parameters, emitted per call's literals.
    pub(crate) templates: block_param::Templates,
    /// `struct.ndrange_t`, made once.
    pub(crate) ndrange_ty: Option<Id>,
    /// Expanded overloads of the built-in families called so far, by family name.
    pub(crate) overload_cache: HashMap<&'static str, std::rc::Rc<Vec<builtins::Overload>>>,
    /// Type-checking a never-called function with Block parameters into a scratch module
    /// (`block_param.rs`): its Block parameters are unbound.
    pub(crate) check_only: bool,
    /// The name of the variable whose initializer `store_initializer` is storing (where
    /// clang reports the initializer's type errors).
    pub(crate) declarator_span: Option<Span>,
}

impl<'a> Emitter<'a> {
    pub fn new(target: &'a Target, opts: EmitOptions, diags: &'a mut Diagnostics) -> Self {
        let mut b = Builder::new((1, 0));
        b.capability(Capability::Addresses);
        b.capability(Capability::Kernel);
        let addressing = if target.address_bits == 32 {
            spv::AddressingModel::Physical32
        } else {
            spv::AddressingModel::Physical64
        };
        b.memory_model(addressing, spv::MemoryModel::OpenCL);
        // env 2.2: OpSource OpenCL_C with the version as 0 | major | minor | revision.
        let version = ((opts.cl_version / 100) << 16) | (((opts.cl_version / 10) % 10) << 8);
        b.source(spv::SourceLanguage::OpenCL_C, version);
        Emitter {
            b,
            diags,
            target,
            opts,
            records: Vec::new(),
            scopes: Scopes::default(),
            funcs: HashMap::new(),
            overloads: HashMap::new(),
            fs: FnState::default(),
            builtin_vars: HashMap::new(),
            record_types: HashMap::new(),
            records_in_progress: HashMap::new(),
            kernels: Vec::new(),
            kernel_meta: Vec::new(),
            calls: HashMap::new(),
            local_counter: 0,
            probe_cache: HashMap::new(),
            volatile_ptrs: HashSet::new(),
            recovered_names: HashSet::new(),
            blocks: Vec::new(),
            pending_blocks: Vec::new(),
            pending_block_kernels: Vec::new(),
            block_counts: HashMap::new(),
            templates: block_param::Templates::default(),
            ndrange_ty: None,
            overload_cache: HashMap::new(),
            check_only: false,
            declarator_span: None,
        }
    }

    pub fn error(&mut self, span: Span, msg: impl Into<String>) {
        self.diags.error(span, msg);
    }

    /// An "undeclared `name`" error, unless `name` occurred in code dropped after a syntax
    /// error (its declaration may be what was dropped: no cascade).
    pub fn error_undeclared(&mut self, name: &str, span: Span, msg: impl Into<String>) {
        if !self.recovered_names.contains(name) {
            self.diags.error(span, msg);
        }
    }

    pub fn warning(&mut self, span: Span, msg: impl Into<String>) {
        self.diags.warning(span, msg);
    }

    pub fn pointer_bits(&self) -> u32 {
        if self.target.address_bits == 32 {
            32
        } else {
            64
        }
    }

    /// `size_t` for this target.
    pub fn size_t(&self) -> Type {
        if self.pointer_bits() == 32 {
            Type::UINT
        } else {
            Type::Scalar(crate::sema::Scalar::ULong)
        }
    }

    pub fn type_name(&self, ty: &Type) -> String {
        ty.display(&self.records)
    }

    // ---- blocks ------------------------------------------------------------------------

    /// Starts block `label` (emitting it now fixes its place in the layout).
    pub fn begin_block(&mut self, label: Id) {
        self.b.begin_block(Some(label));
    }

    /// `OpBranch target` unless the current block already ended.
    pub fn branch(&mut self, target: Id) {
        if !self.b.block_terminated() {
            self.b.inst_no_result(Op::Branch, vec![Operand::Id(target)]);
            self.fs.branched_to.insert(target);
        }
    }

    pub fn branch_cond(&mut self, cond: Id, t: Id, f: Id) {
        if !self.b.block_terminated() {
            self.b.inst_no_result(
                Op::BranchConditional,
                vec![Operand::Id(cond), Operand::Id(t), Operand::Id(f)],
            );
            self.fs.branched_to.insert(t);
            self.fs.branched_to.insert(f);
        }
    }

    /// After a terminator: opens a fresh (unreachable) block so that emission can go on.
    pub fn ensure_open_block(&mut self) {
        if self.b.block_terminated() {
            let l = self.b.id();
            self.begin_block(l);
        }
    }

    /// Whether the current block can be reached (entry or branched to).
    pub fn current_reachable(&self) -> bool {
        match self.b.current_block() {
            Some(b) => self.fs.entry == Some(b) || self.fs.branched_to.contains(&b),
            None => false,
        }
    }

    /// The emitted module, after kernels' entry points and modes are added.
    pub fn finish(mut self) -> (spv::Module, Vec<KernelMeta>) {
        self.finish_kernels();
        let meta = std::mem::take(&mut self.kernel_meta);
        (self.b.finish(), meta)
    }
}

/// Emits a whole translation unit. Returns `None` when errors were reported.
pub fn emit_translation_unit(
    tu: &TranslationUnit,
    target: &Target,
    opts: EmitOptions,
    diags: &mut Diagnostics,
) -> Option<(spv::Module, Vec<KernelMeta>)> {
    let mut em = Emitter::new(target, opts, diags);
    em.translation_unit(tu);
    if em.diags.has_errors() {
        return None;
    }
    Some(em.finish())
}
