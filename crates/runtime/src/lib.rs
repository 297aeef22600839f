//! Host objects of OpenCL in idiomatic Rust: platform, device, context, buffers, programs,
//! images, samplers, kernels, command queues and events.
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
pub mod device_queue;
mod error;
mod image;
mod kernel;
mod pipe;
mod program;
mod queue;
mod sampler;
mod spec_constants;
mod svm;

pub use buffer::{Buffer, MemFlags, RectLayout};
pub use context::Context;
pub use device::{Device, Platform};
pub use device::{ImageLimits, IMAGE_SUPPORT_DEFAULT};
pub use device_queue::DeviceQueue;
pub use devlib::image::{
    read_texel, write_texel, ChannelOrder, ChannelType, ImageFormat, Texel, TexelKind,
};
pub use devlib::image_desc::{ImageDesc, ImageType};
pub use error::Error;
pub use image::{
    format_supported, supported_formats, HostPitches, Image, ImageAccess, ImageOrigin, ImageShape,
    ImageSource,
};
pub use kernel::{ArgInfo, ArgKind, Kernel};
/// The access qualifier of an image kernel argument.
pub use kir::ImageAccess as ImageArgAccess;
pub use pipe::{Pipe, MAX_PIPE_ARGS, PIPE_MAX_ACTIVE_RESERVATIONS, PIPE_MAX_PACKET_SIZE};
pub use program::{BinaryType, BuildStatus, Program};
pub use queue::{EngineKind, Event, NdRange, ProfilingInfo, Queue};
pub use sampler::{AddressingMode, FilterMode, MipSampling, Sampler};
pub use spec_constants::SpecConstantType;
pub use svm::{Svm, SvmFlags, MAX_SVM_ALIGN, SVM_MIN_ALIGN};

/// A result of this crate.
pub type Result<T> = std::result::Result<T, Error>;
