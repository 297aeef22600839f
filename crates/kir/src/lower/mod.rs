//! Lowering of a validated SPIR-V module (`spv::valid::ValidModule`) to kir: [`lower`].
//!
//! **Invariant**: only a `ValidModule` is accepted, and the result passes the kir verifier (a
//! verifier failure is a [`LowerError::Internal`]). Input the lowering does not handle gives
//! [`LowerError::Unsupported`], never a panic.
//!
//! Stages: `module_info` (names, decorations with group decorations applied, the `layout` type
//! table, `constants`, module variables, entry points and execution modes) → `driver`: globals (built-in
//! inputs, `__local`, program-scope variables with initializers and relocations) → kernel
//! argument descriptions (`kernel_args`) → per function: `cfg` (dominators, frontiers),
//! `promote` (which `Function`-storage variables become SSA values), `function` (blocks with
//! parameters for `OpPhi` and for promoted variables at the iterated dominance frontiers of their
//! stores, Cytron et al.; walk in reverse post-order), instruction selection (`ops`, `memory`,
//! `ext_inst`, `group`), `cleanup` (dead pure instructions) → the kir verifier.
//!
//! Supported instructions (scalar and vector forms): arithmetic (`OpIAdd` … `OpFMod`,
//! `OpSNegate`, `OpFNegate`, `OpVectorTimesScalar`, `OpDot`), bit (`OpShift*`, `OpBitwise*`,
//! `OpNot`, `OpBitCount`, `OpBitReverse`), logical and relational (`OpLogical*`, `OpIEqual` …
//! `OpFUnordGreaterThanEqual`, `OpOrdered`, `OpUnordered`, `OpLessOrGreater`, `OpIsNan`,
//! `OpIsInf`, `OpIsFinite`, `OpIsNormal`, `OpSignBitSet`, `OpAny`, `OpAll`, `OpSelect`),
//! conversions (`OpConvert*`, `OpSConvert`, `OpUConvert`, `OpFConvert`, `OpSatConvert*`,
//! `OpBitcast`, `OpConvertPtrToU`, `OpConvertUToPtr`, `OpPtrCastToGeneric`, `OpGenericCastToPtr`,
//! `OpGenericCastToPtrExplicit`, with `FPRoundingMode`/`SaturatedConversion`), composites
//! (`OpCompositeConstruct/Extract/Insert`, `OpVectorExtractDynamic`, `OpVectorInsertDynamic`,
//! `OpVectorShuffle`, `OpCopyObject`, `OpUndef`), memory (`OpVariable`, `OpLoad`, `OpStore`,
//! `OpAccessChain`, `OpInBoundsAccessChain`, `OpPtrAccessChain`, `OpInBoundsPtrAccessChain`,
//! `OpCopyMemory`, `OpCopyMemorySized`, `OpPtrEqual`, `OpPtrNotEqual`), built-in variables
//! (whole loads and access chains), control flow (`OpBranch`, `OpBranchConditional`,
//! `OpSwitch`, `OpReturn`, `OpReturnValue`, `OpUnreachable`, `OpPhi`, `OpFunctionCall`),
//! synchronisation (`OpControlBarrier`, `OpMemoryBarrier`, all `OpAtomic*` of OpenCL including
//! the flag and float forms), work-group functions (`OpGroupAsyncCopy`, `OpGroupWaitEvents`,
//! `OpGroupAll`, `OpGroupAny`, `OpGroupBroadcast`, `OpGroupIAdd`/`FAdd`/`*Min`/`*Max` at
//! work-group and sub-group scope), sub-groups (`subgroup`: every `OpGroupNonUniform*` of the
//! cl_khr_subgroup_* extensions, `OpGetKernelLocalSizeForSubgroupCount`,
//! `OpGetKernelMaxNumSubgroups`; **the sub-group size is 1**), extended arithmetic
//! (`OpIAddCarry`, `OpISubBorrow`, `OpUMulExtended`, `OpSMulExtended`),
//! `OpGenericPtrMemSemantics`, `OpSizeOf`, `OpPtrDiff`, `OpCopyLogical`, specialization
//! constants (also as array lengths), `OpExtInst` of OpenCL.std (debug-information sets are
//! ignored), images (`image`: `OpSampledImage`, `OpImage`, `OpImageSampleExplicitLod` with
//! `Lod`, `OpImageRead`, `OpImageFetch`, `OpImageWrite`, `OpImageQuery*`, `OpConstantSampler`,
//! image kernel arguments as `ArgKind::Image`), pipes (`pipe`: `OpReadPipe` …
//! `OpGroupCommitWritePipe`, `OpIsValidReserveId`, `OpGetNum/MaxPipePackets`), pipe storage
//! (`pipe_storage`: `OpConstantPipeStorage` is a program-scope variable holding an empty pipe,
//! `OpCreatePipeFromPipeStorage` its address) and device-side
//! enqueue (`enqueue`: `OpEnqueueKernel`, `OpEnqueueMarker`, `OpBuildNDRange`, events, queues
//! and the `OpGetKernel*` queries).
//! `crates/exec/tests/consumer_coverage.rs` checks that every opcode an OpenCL full-profile
//! environment admits runs, except the gaps below.
//!
//! Not supported yet (an `Unsupported` error naming the instruction and the capability):
//! named barriers, image reads with explicit gradients (`Grad`),
//! calls to functions without a body (link modules first with `spv::link`).
//!
//! [`fuzz::read_validate_lower`] is the fuzzing entry point (read → validate → lower).

mod cfg;
mod cleanup;
mod constants;
mod driver;
mod enqueue;
mod ext_inst;
mod function;
pub mod fuzz;
mod group;
mod image;
mod kernel_args;
mod layout;
mod memory;
mod module_info;
mod ops;
mod pipe;
mod pipe_storage;
mod promote;
mod subgroup;
#[cfg(test)]
mod tests;

use std::collections::HashMap;

use spv::{Instruction, Operand};

use self::driver::lower_instructions;

/// Why a module could not be lowered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LowerError {
    /// A feature the lowering does not handle yet.
    #[error("word offset {offset}: `{instruction}`: not supported yet: {reason}")]
    Unsupported {
        /// Word offset of the instruction in the SPIR-V binary.
        offset: u32,
        /// The instruction in disassembly-like text.
        instruction: String,
        reason: String,
    },
    /// An instruction whose operands are not what the (validated) module should contain.
    #[error("word offset {offset}: `{instruction}`: {reason}")]
    Malformed {
        offset: u32,
        instruction: String,
        reason: String,
    },
    /// The lowering produced IR the kir verifier rejects, or broke one of its own invariants.
    #[error("internal lowering error: {0}")]
    Internal(String),
}

/// Options of the lowering.
#[derive(Debug, Clone, Default)]
pub struct LowerOptions {
    /// Values of specialization constants by `SpecId`, as the bits of the value zero-extended
    /// to 64 (integers and floats: their little-endian bits as given to
    /// `clSetProgramSpecializationConstant`; bools: 0 or 1). Constants not listed keep their
    /// default values.
    pub spec_constants: HashMap<u32, u64>,
}

/// Lowers a validated module with default options.
pub fn lower(module: &spv::valid::ValidModule) -> Result<crate::Module, LowerError> {
    lower_with(module, &LowerOptions::default())
}

/// Lowers a validated module.
pub fn lower_with(
    module: &spv::valid::ValidModule,
    options: &LowerOptions,
) -> Result<crate::Module, LowerError> {
    let spv_module = module.module();
    lower_instructions(&spv_module.instructions, options)
        .map_err(|e| e.with_disassembly(spv_module))
}

impl LowerError {
    /// Replaces the instruction text of an error by the disassembler's (`spv::instruction_text`),
    /// found by word offset.
    fn with_disassembly(self, module: &spv::Module) -> LowerError {
        let redo = |offset: u32, instruction: String| {
            module
                .instructions
                .iter()
                .find(|i| offset != 0 && i.offset == offset)
                .map(|i| spv::instruction_text(module, i))
                .unwrap_or(instruction)
        };
        match self {
            LowerError::Unsupported {
                offset,
                instruction,
                reason,
            } => LowerError::Unsupported {
                offset,
                instruction: redo(offset, instruction),
                reason,
            },
            LowerError::Malformed {
                offset,
                instruction,
                reason,
            } => LowerError::Malformed {
                offset,
                instruction: redo(offset, instruction),
                reason,
            },
            other => other,
        }
    }
}

/// Runs the kir verifier on the lowered module.
pub(crate) fn verify_module(module: &crate::Module) -> Result<(), LowerError> {
    crate::verify_module(module).map_err(|errors| {
        LowerError::Internal(format!(
            "the lowered module fails the kir verifier:\n{errors}"
        ))
    })
}

/// Operand accessors returning lowering errors instead of options.
pub(crate) trait InstExt {
    /// Operand `i` (after result type/result) as an id.
    fn id_op(&self, i: usize) -> Result<u32, LowerError>;
    /// Operand `i` as a one-word literal.
    fn lit(&self, i: usize) -> Result<u32, LowerError>;
    /// Operand `i` as a string.
    fn str_op(&self, i: usize) -> Result<&str, LowerError>;
    /// The result id.
    fn res(&self) -> Result<u32, LowerError>;
    /// The result type id.
    fn rty(&self) -> Result<u32, LowerError>;
    /// An error about this instruction.
    fn malformed(&self, reason: &str) -> LowerError;
    /// An "unsupported" error about this instruction.
    fn unsupported(&self, reason: &str) -> LowerError;
}

impl InstExt for Instruction {
    fn id_op(&self, i: usize) -> Result<u32, LowerError> {
        self.id(i)
            .map(|id| id.0)
            .ok_or_else(|| self.malformed(&format!("operand {i} is not an id")))
    }

    fn lit(&self, i: usize) -> Result<u32, LowerError> {
        self.int(i)
            .ok_or_else(|| self.malformed(&format!("operand {i} is not a literal")))
    }

    fn str_op(&self, i: usize) -> Result<&str, LowerError> {
        self.str(i)
            .ok_or_else(|| self.malformed(&format!("operand {i} is not a string")))
    }

    fn res(&self) -> Result<u32, LowerError> {
        self.result
            .map(|id| id.0)
            .ok_or_else(|| self.malformed("missing result id"))
    }

    fn rty(&self) -> Result<u32, LowerError> {
        self.result_type
            .map(|id| id.0)
            .ok_or_else(|| self.malformed("missing result type"))
    }

    fn malformed(&self, reason: &str) -> LowerError {
        LowerError::Malformed {
            offset: self.offset,
            instruction: inst_text(self),
            reason: reason.to_string(),
        }
    }

    fn unsupported(&self, reason: &str) -> LowerError {
        LowerError::Unsupported {
            offset: self.offset,
            instruction: inst_text(self),
            reason: reason.to_string(),
        }
    }
}

/// An instruction in `spirv-dis`-like text (`%5 = OpIAdd %uint %3 %4`), for error messages.
pub(crate) fn inst_text(inst: &Instruction) -> String {
    let mut s = String::new();
    if let Some(r) = inst.result {
        s.push_str(&format!("{r} = "));
    }
    s.push_str(inst.op.name());
    if let Some(t) = inst.result_type {
        s.push_str(&format!(" {t}"));
    }
    for op in &inst.operands {
        match op {
            Operand::Id(id) => s.push_str(&format!(" {id}")),
            Operand::Int(v) => s.push_str(&format!(" {v}")),
            Operand::Wide(v) => s.push_str(&format!(" {v}")),
            Operand::Str(t) => s.push_str(&format!(" {t:?}")),
        }
    }
    s
}
