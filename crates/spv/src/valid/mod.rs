//! The OpenCL SPIR-V environment validator: [`validate`] checks a [`Module`] against an
//! [`Env`] and returns a [`ValidModule`], the evidence the lowering demands, or every broken
//! rule found.
//!
//! Rules checked (each error cites its rule; sources: the OpenCL SPIR-V Environment
//! Specification 2.2-7 chapters 2–7 as "env N", its 3.0 text as "env 3.0 …", and the SPIR-V
//! specification as "SPIR-V N"):
//!
//! - **Structure** (`layout`, `ids`, `cfg`): logical layout and section order, one
//!   `OpMemoryModel`, ids defined once and below the bound, used ids defined, result types are
//!   types, type operands are types and value operands are not, module-level definitions before
//!   use (forward pointers excepted), functions of blocks each starting with `OpLabel` and ending
//!   with one terminator, function variables first in the first block, phis first in their block
//!   with one parent per predecessor, merge instructions before their branch, branch targets in
//!   the same function, ids local to their function, definitions dominating their uses, operand
//!   lists following the grammar, functions / parameters / calls / variables / loads / stores /
//!   returns agreeing with their types, boolean branch conditions, no stores to Input or
//!   UniformConstant memory.
//! - **Instruction types** (`types`): operand and result types of arithmetic, bit,
//!   relational, logical, conversion, composite, vector, access-chain, select, phi and copy
//!   instructions.
//! - **Pipe storage** (`pipe_storage`): Result Types of `OpConstantPipeStorage` and
//!   `OpCreatePipeFromPipeStorage`, packet size and alignment, the Pipe Storage operand's type.
//! - **Module-wide rules** (`module_rules`): non-aggregate types declared once, function
//!   declarations imported and before definitions, execution modes on entry points, entry points
//!   unique by name and execution model, entry-point interfaces complete for the static call
//!   tree (Input / Output variables before SPIR-V 1.4; every global variable, listed once, from
//!   1.4).
//! - **Capabilities and versions** (`caps`): the module's SPIR-V version is accepted by the
//!   environment; declared capabilities are supported by it; `OpExtension`s are allowed;
//!   instructions, enumerants and types are enabled by declared capabilities and exist in the
//!   module's version; scalar widths and vector sizes are OpenCL's.
//! - **OpenCL rules** (`opencl`): Kernel entry points returning void with allowed argument types;
//!   Physical32/64 addressing matching the device and the OpenCL memory model; `OpTypeInt`
//!   Signedness 0; image type and image access rules (no optional Image Operands on
//!   `OpImageWrite` but a Lod with mipmap writes, no ConstOffset, scalar float reads of depth
//!   images, the instructions multi-sampled images allow); atomic types, pointers, scopes and
//!   orders (64-bit atomics with WorkgroupMemory at Workgroup scope, env 7.2.8); execution and
//!   memory scopes of barriers and group instructions per version; `local void*` parameters of
//!   enqueued Invoke functions (env 7.2.3); no recursion.
//! - **Decorations** (`decorations`): *FPRoundingMode* and *SaturatedConversion* targets,
//!   *Constant* on variables only, alignments, built-in variables (storage class, supported set,
//!   types).
//! - **Extended instructions** (`extinst`): imported sets, `OpExtInst` numbers, `printf` operands.

mod caps;
mod cfg;
mod context;
mod decorations;
mod env;
mod error;
mod extinst;
mod ids;
mod layout;
mod module_rules;
mod opencl;
mod operands;
mod pipe_storage;
mod types;

pub use env::{feature, ClVersion, Env, Profile, UnknownTargetEnv};
pub use error::{ValidationError, ValidationErrors};

use crate::Module;

/// A module that passed [`validate`] for an environment. Only `validate` constructs it.
#[derive(Debug, Clone)]
pub struct ValidModule {
    module: Module,
    env: Env,
}

impl ValidModule {
    /// The validated module.
    pub fn module(&self) -> &Module {
        &self.module
    }

    /// The environment it was validated for.
    pub fn env(&self) -> &Env {
        &self.env
    }

    /// The validated module, giving up the evidence.
    pub fn into_module(self) -> Module {
        self.module
    }
}

/// Checks `module` against every rule of the environment `env` (see the module documentation)
/// and returns it as a [`ValidModule`], or every broken rule. Never panics.
pub fn validate(module: Module, env: &Env) -> Result<ValidModule, ValidationErrors> {
    let errors = {
        let mut ctx = context::Ctx::new(&module, env);
        layout::check(&mut ctx);
        ids::check(&mut ctx);
        cfg::check(&mut ctx);
        module_rules::check(&mut ctx);
        types::check(&mut ctx);
        pipe_storage::check(&mut ctx);
        caps::check(&mut ctx);
        opencl::check(&mut ctx);
        decorations::check(&mut ctx);
        extinst::check(&mut ctx);
        let mut errors = ctx.errors;
        errors.sort_by_key(|e| e.offset);
        errors
    };
    if errors.is_empty() {
        Ok(ValidModule {
            module,
            env: env.clone(),
        })
    } else {
        Err(ValidationErrors(errors))
    }
}
