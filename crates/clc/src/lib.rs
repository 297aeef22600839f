//! OpenCL C → SPIR-V compiler.
