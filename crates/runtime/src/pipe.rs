//! Pipe memory objects (API 5.4 "Pipes", `clCreatePipe`): a FIFO of fixed-size packets that
//! kernels write and read. The memory layout is implementation-defined; oxcl's is
//! `exec::pipe`'s (a header with read/write positions and slot states, then the packets) in an
//! ordinary [`Buffer`], so a launch locks and passes a pipe like any buffer.

use crate::{Buffer, Context, Error, MemFlags, Result};

/// `CL_DEVICE_PIPE_MAX_PACKET_SIZE`: the full-profile minimum (1024 bytes).
pub const PIPE_MAX_PACKET_SIZE: u32 = 1024;
/// `CL_DEVICE_MAX_PIPE_ARGS`: the full-profile minimum.
pub const MAX_PIPE_ARGS: u32 = 16;
/// `CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS`: reservations are only limited by a pipe's packets;
/// this is a number every pipe of at least that many packets honours.
pub const PIPE_MAX_ACTIVE_RESERVATIONS: u32 = 16;

/// A pipe. Clones share the same memory.
#[derive(Clone, Debug)]
pub struct Pipe {
    buffer: Buffer,
    packet_size: u32,
    max_packets: u32,
    flags: MemFlags,
}

impl Pipe {
    /// An empty pipe of `max_packets` packets of `packet_size` bytes (`clCreatePipe`).
    pub fn new(
        context: &Context,
        flags: MemFlags,
        packet_size: u32,
        max_packets: u32,
    ) -> Result<Pipe> {
        // API clCreatePipe: "CL_INVALID_PIPE_SIZE if pipe_packet_size is 0 or the
        // pipe_packet_size exceeds CL_DEVICE_PIPE_MAX_PACKET_SIZE ... or if pipe_max_packets
        // is 0."
        if packet_size == 0 || packet_size > PIPE_MAX_PACKET_SIZE {
            return Err(Error::InvalidPipeSize(format!(
                "packet size {packet_size} (must be 1..={PIPE_MAX_PACKET_SIZE})"
            )));
        }
        if max_packets == 0 || max_packets >= 1 << 31 {
            return Err(Error::InvalidPipeSize(format!(
                "maximum packets {max_packets} (must be 1..2^31)"
            )));
        }
        let len = exec::pipe::byte_len(packet_size, max_packets);
        if len > context.device().max_mem_alloc_size {
            return Err(Error::InvalidPipeSize(format!(
                "{max_packets} packets of {packet_size} bytes exceed the maximum allocation"
            )));
        }
        let len = len as usize;
        let buffer = Buffer::new(context, MemFlags::default(), len)?;
        let mut header = vec![0u8; exec::pipe::packets_offset(max_packets) as usize];
        exec::pipe::init(&mut header, packet_size, max_packets).map_err(|e| {
            Error::InvalidPipeSize(format!("{max_packets} packets of {packet_size} bytes: {e}"))
        })?;
        buffer.write(0, &header)?;
        Ok(Pipe {
            buffer,
            packet_size,
            max_packets,
            flags,
        })
    }

    /// `CL_PIPE_PACKET_SIZE`.
    pub fn packet_size(&self) -> u32 {
        self.packet_size
    }

    /// `CL_PIPE_MAX_PACKETS`.
    pub fn max_packets(&self) -> u32 {
        self.max_packets
    }

    /// The flags the pipe was created with (`CL_MEM_FLAGS`).
    pub fn flags(&self) -> MemFlags {
        self.flags
    }

    /// The memory holding the pipe (`CL_MEM_SIZE` is its size).
    pub fn buffer(&self) -> &Buffer {
        &self.buffer
    }

    /// Two handles to the same pipe?
    pub fn same(&self, other: &Pipe) -> bool {
        self.buffer.same(&other.buffer)
    }
}
