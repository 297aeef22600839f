//! Kernel IR: an SSA control-flow graph lowered from a validated SPIR-V module.
