//! Errors of the runtime, each corresponding to an OpenCL error code (API appendix F).

/// A runtime error. [`Error::code`] gives the OpenCL error code the C API returns.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("invalid value: {0}")]
    InvalidValue(String),
    #[error("invalid build options: {0}")]
    InvalidBuildOptions(String),
    /// The build log says why.
    #[error("build failed:\n{0}")]
    BuildProgramFailure(String),
    #[error("compilation failed:\n{0}")]
    CompileProgramFailure(String),
    /// The log, and the program object (whose build log holds it) that `clLinkProgram` returns.
    #[error("link failed:\n{0}")]
    LinkProgramFailure(String, crate::Program),
    #[error("invalid program: {0}")]
    InvalidProgram(String),
    #[error("the program has not been built successfully")]
    InvalidProgramExecutable,
    #[error("invalid binary (SPIR-V module): {0}")]
    InvalidBinary(String),
    #[error("no kernel named `{0}` in the program")]
    InvalidKernelName(String),
    #[error("invalid argument index {0}")]
    InvalidArgIndex(u32),
    #[error("invalid value for argument {index}: {reason}")]
    InvalidArgValue { index: u32, reason: String },
    #[error("invalid size for argument {index}: {reason}")]
    InvalidArgSize { index: u32, reason: String },
    #[error("kernel arguments not set: {0:?}")]
    InvalidKernelArgs(Vec<u32>),
    #[error("invalid work dimension {0} (must be 1, 2 or 3)")]
    InvalidWorkDimension(u32),
    #[error("invalid global work size: {0}")]
    InvalidGlobalWorkSize(String),
    #[error("invalid work-group size: {0}")]
    InvalidWorkGroupSize(String),
    #[error("invalid pipe size: {0}")]
    InvalidPipeSize(String),
    #[error("invalid buffer size {0}")]
    InvalidBufferSize(usize),
    #[error("host pointer: {0}")]
    InvalidHostPtr(String),
    #[error("out of bounds: {0}")]
    OutOfBounds(String),
    #[error("out of host memory allocating {0} bytes")]
    OutOfHostMemory(usize),
    #[error("invalid operation: {0}")]
    InvalidOperation(String),
    #[error("invalid image size: {0}")]
    InvalidImageSize(String),
    #[error("invalid image descriptor: {0}")]
    InvalidImageDescriptor(String),
    #[error("invalid mip level: {0}")]
    InvalidMipLevel(String),
    #[error("invalid image format descriptor: {0}")]
    InvalidImageFormatDescriptor(String),
    #[error("image format not supported: {0}")]
    ImageFormatNotSupported(String),
    #[error("the source and destination images have different formats")]
    ImageFormatMismatch,
    #[error("the source and destination regions overlap")]
    CopyOverlap,
    /// `CL_OUT_OF_RESOURCES`: a device limit (device queues per context).
    #[error("out of resources: {0}")]
    OutOfResources(String),
    /// The engine's error, in the message itself (not as a `source`, so that error chains
    /// print it once).
    #[error("kernel execution failed: {0}")]
    Execution(exec::ExecError),
}

impl From<exec::ExecError> for Error {
    fn from(e: exec::ExecError) -> Error {
        Error::Execution(e)
    }
}

impl Error {
    /// The OpenCL error code (`CL_INVALID_VALUE` = -30, …).
    pub fn code(&self) -> i32 {
        match self {
            Error::InvalidValue(_) | Error::OutOfBounds(_) => -30,
            Error::InvalidBuildOptions(_) => -43,
            Error::BuildProgramFailure(_) => -11,
            Error::InvalidProgramExecutable => -45,
            Error::CompileProgramFailure(_) => -15,
            Error::LinkProgramFailure(..) => -17,
            Error::InvalidProgram(_) => -44,
            Error::InvalidBinary(_) => -42,
            Error::InvalidKernelName(_) => -46,
            Error::InvalidArgIndex(_) => -49,
            Error::InvalidArgValue { .. } => -50,
            Error::InvalidArgSize { .. } => -51,
            Error::InvalidKernelArgs(_) => -52,
            Error::InvalidWorkDimension(_) => -53,
            Error::InvalidGlobalWorkSize(_) => -63,
            Error::InvalidWorkGroupSize(_) => -54,
            Error::InvalidBufferSize(_) => -61,
            Error::InvalidPipeSize(_) => -69,
            Error::InvalidHostPtr(_) => -37,
            Error::OutOfHostMemory(_) => -6,
            Error::InvalidOperation(_) => -59,
            Error::InvalidImageSize(_) => -40,
            Error::InvalidImageDescriptor(_) => -65,
            Error::InvalidMipLevel(_) => -62,
            Error::InvalidImageFormatDescriptor(_) => -39,
            Error::ImageFormatNotSupported(_) => -10,
            Error::ImageFormatMismatch => -9,
            Error::CopyOverlap => -8,
            // CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST is for waits; a failed kernel is
            // reported as CL_OUT_OF_RESOURCES, as implementations do for faulting kernels.
            Error::Execution(_) | Error::OutOfResources(_) => -5,
        }
    }
}
