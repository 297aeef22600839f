//! Host objects of OpenCL in idiomatic Rust: platform, device, context, buffers, programs,
//! kernels, command queues and events.
//!
//! This is the layer the C API (`capi`) and the `oxcl` command line sit on. It knows no C types.
//! The pipeline behind a program build: OpenCL C source → `clc::compile` → SPIR-V →
//! `spv::valid::validate` for this device's environment → `kir::lower::lower` → a kernel IR
//! module that an `exec::Engine` runs. Building from IL skips the first step; nothing runs that
//! did not pass validation.
//!
//! Command queues are in order and execute each command when it is enqueued (an in-order queue
//! may do so: the command is complete when the enqueue call returns), so every [`Event`] is
//! already complete and carries its profiling times.

mod buffer;
pub mod commands;
mod context;
mod device;
mod device_caps;
mod error;
mod kernel;
mod pipe;
mod program;
mod queue;

pub use buffer::{Buffer, MemFlags, RectLayout};
pub use context::Context;
pub use device::{Device, Platform};
pub use error::Error;
pub use kernel::{ArgInfo, ArgKind, Kernel};
pub use pipe::{Pipe, MAX_PIPE_ARGS, PIPE_MAX_ACTIVE_RESERVATIONS, PIPE_MAX_PACKET_SIZE};
pub use program::{BinaryType, BuildStatus, Program};
pub use queue::{EngineKind, Event, NdRange, ProfilingInfo, Queue};

/// A result of this crate.
pub type Result<T> = std::result::Result<T, Error>;
