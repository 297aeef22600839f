//! The OpenCL 3.0 C API and the ICD entry points (`cl_khr_icd`) over `runtime`, built as
//! `liboxcl.so` for the ICD loader.
//!
//! Every entry point follows one shape: check each handle against the registry
//! ([`handle`]), check the arguments in the order the specification lists its errors (each
//! check beside the sentence it implements), call `runtime`, map its error to the code
//! ([`entry`]). No panic crosses the boundary. Only this crate knows C types ([`types`],
//! [`consts`]). The dispatch table and `clGetExtensionFunctionAddress` come from one list
//! ([`dispatch`]).
//!
//! Commands run on a worker thread per queue (`runtime::commands`), in order; blocking
//! commands wait for their event.

#![allow(
    non_snake_case,
    non_camel_case_types,
    clippy::missing_safety_doc,
    clippy::too_many_arguments
)]

pub mod consts;
pub mod context;
pub mod device;
pub mod dispatch;
pub mod entry;
pub mod event;
pub mod handle;
pub mod image;
pub mod info;
pub mod kernel;
pub mod memory;
pub mod native;
pub mod pipe;
pub mod platform;
pub mod program;
pub mod queue;
pub mod sampler;
pub mod subgroup;
pub mod svm;
pub mod types;
