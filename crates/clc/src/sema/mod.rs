//! Semantic rules of OpenCL C shared by the emitter: resolved types, sizes and alignment, the
//! usual arithmetic conversions (OpenCL C 2.0 §6.1, §6.2), and scoped symbol tables.
//!
//! Type checking itself happens while emitting (`crate::emit`): each expression is checked and
//! lowered in one walk, so the checks live beside the instructions they guard.

pub mod scope;
pub mod types;

pub use scope::{Scopes, Symbol};
pub use types::{Pointee, Record, Scalar, Type};
