//! Kernel IR: an SSA control-flow graph lowered from a validated SPIR-V module.
//!
//! kir is shaped like Cranelift IR:
//! - entities are `u32` newtypes whose `Display` is the text syntax: values `v3`, blocks
//!   `block2`, instructions `inst7`, functions `fn1`, module variables `g0` ([`entity`]);
//! - data is separated from order: a [`Function`]'s [`DataFlowGraph`] owns instruction data,
//!   value types and block parameters, its [`Layout`] owns the block order and the instruction
//!   order inside each block;
//! - blocks take parameters instead of phi nodes; the entry block's parameters are the function's
//!   parameters; each instruction has at most one result;
//! - integers are sign-agnostic (the operation says how to read them), pointers are untyped
//!   addresses in an [`AddrSpace`] (access chains are lowered to byte offsets), structs and arrays
//!   held in SSA values are byte aggregates (`Type::Agg`) accessed by byte offset ([`types`]);
//! - device-library calls are [`BuiltinFn`]s, one per OpenCL.std instruction ([`builtin`]).
//!
//! Modules: [`Module`] holds functions, [`Kernel`] entry points with their argument kinds, and
//! module variables ([`Global`]). Build functions with [`FunctionBuilder`]. The text format
//! (`Display` on `Function`/`Module`, [`parse_module`]) and the [`verify`] pass come with it.

pub mod builder;
pub mod builtin;
pub mod entity;
pub mod function;
pub mod inline;
pub mod inst;
pub mod lower;
pub mod module;
pub mod parse;
pub mod pipe_layout;
pub mod print;
pub mod types;
pub mod verify;

pub use builder::FunctionBuilder;
pub use builtin::BuiltinFn;
pub use entity::{Block, FuncRef, GlobalRef, Inst, Value};
pub use function::{DataFlowGraph, Function, Layout, Signature, ValueData, ValueDef};
pub use inst::{
    AtomicOp, BinaryOp, BlockCall, CmpOp, ConvertOp, EnqueueOp, ImageOp, InstData, MemorySemantics,
    PipeOp, ReduceOp, Rounding, Scope, TestOp, UnaryOp, WorkItemQuery,
};
pub use module::{
    ArgKind, Global, ImageAccess, ImageArg, ImageDim, Kernel, KernelArg, Module, Reloc,
};
pub use parse::{parse_function, parse_module, ParseError};
pub use types::{AddrSpace, ScalarType, Type};
pub use verify::{verify_function, verify_module, VerifyError, VerifyErrors};
