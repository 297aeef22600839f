//! `ExecError`: why a launch failed. Errors raised inside a kernel name the kernel, the
//! work-item (global id) and where in the IR it happened (`fn1 "name" inst7`).
//!
//! Undefined behaviour that SPIR-V lets engines resolve arbitrarily is not an error: integer
//! division by zero yields 0, out-of-range shifts are masked, out-of-range lane indices read 0.

use kir::AddrSpace;

/// A failed launch.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum ExecError {
    #[error("kernel index {0} does not exist")]
    NoSuchKernel(usize),
    #[error("kernel `{kernel}`: {given} arguments given, {expected} expected")]
    ArgCount {
        kernel: String,
        expected: usize,
        given: usize,
    },
    #[error("kernel `{kernel}`: argument {index}: {reason}")]
    BadArgument {
        kernel: String,
        index: usize,
        reason: String,
    },
    /// Device-side enqueue: children that can never run, or a failed child bookkeeping step.
    #[error("device-side enqueue: {0}")]
    DeviceEnqueue(String),
    #[error("bad ND-range: {0}")]
    BadNdRange(String),
    #[error(
        "kernel `{kernel}`, work-item {global_id:?}, {at}: out-of-bounds {access} of {size} bytes at offset {offset} of a {len}-byte {space} region"
    )]
    OutOfBounds {
        kernel: String,
        global_id: [u64; 3],
        at: String,
        access: &'static str,
        space: AddrSpace,
        offset: u64,
        size: u64,
        len: u64,
    },
    #[error("kernel `{kernel}`, work-item {global_id:?}, {at}: {access} through an invalid pointer {pointer:#x} ({reason})")]
    InvalidPointer {
        kernel: String,
        global_id: [u64; 3],
        at: String,
        access: &'static str,
        pointer: u64,
        reason: &'static str,
    },
    #[error("kernel `{kernel}`, work-item {global_id:?}, {at}: atomic access at misaligned offset {offset} of {space} memory")]
    MisalignedAtomic {
        kernel: String,
        global_id: [u64; 3],
        at: String,
        space: AddrSpace,
        offset: u64,
    },
    #[error(
        "kernel `{kernel}`, work-item {global_id:?}, {at}: data race: {access} of byte {offset} of {} memory also accessed by {} with no barrier ordering the two accesses",
        space_name(*.space),
        other_item(.other)
    )]
    DataRace {
        kernel: String,
        global_id: [u64; 3],
        at: String,
        access: &'static str,
        /// `Local`, or `Global` (the byte is then the offset in the buffer, or the host
        /// address of SVM memory).
        space: AddrSpace,
        offset: u64,
        /// The other work-item's local linear index (`None` when it is not known; checked mode
        /// always names it).
        other: Option<u32>,
    },
    #[error("kernel `{kernel}`, work-group {group_id:?}: barrier divergence: {detail}")]
    BarrierDivergence {
        kernel: String,
        group_id: [u64; 3],
        detail: String,
    },
    #[error("kernel `{kernel}`, work-item {global_id:?}, {at}: reached `unreachable`")]
    Unreachable {
        kernel: String,
        global_id: [u64; 3],
        at: String,
    },
    #[error(
        "kernel `{kernel}`, work-item {global_id:?}, {at}: call depth limit ({limit}) exceeded"
    )]
    CallDepth {
        kernel: String,
        global_id: [u64; 3],
        at: String,
        limit: usize,
    },
    #[error("kernel `{kernel}`, work-item {global_id:?}, {at}: not supported yet: {what}")]
    Unsupported {
        kernel: String,
        global_id: [u64; 3],
        at: String,
        what: String,
    },
    #[error("kernel `{kernel}`: the ProgramGlobals were made for another module")]
    ProgramGlobalsMismatch { kernel: String },
    #[error("kernel `{kernel}`, work-item {global_id:?}, {at}: step limit ({limit} instructions) reached")]
    StepLimit {
        kernel: String,
        global_id: [u64; 3],
        at: String,
        limit: u64,
    },
    #[error("kernel `{kernel}`, {at}: malformed IR (run the verifier): {what}")]
    Malformed {
        kernel: String,
        at: String,
        what: String,
    },
}

/// The other work-item of a data race, as a message names it.
fn other_item(other: &Option<u32>) -> String {
    match other {
        Some(index) => format!("local work-item {index}"),
        None => "another work-item".to_string(),
    }
}

/// An address space as a message names it.
fn space_name(space: AddrSpace) -> &'static str {
    match space {
        AddrSpace::Local => "local",
        AddrSpace::Global => "global",
        AddrSpace::Constant => "constant",
        AddrSpace::Private => "private",
        AddrSpace::Generic => "generic",
    }
}
