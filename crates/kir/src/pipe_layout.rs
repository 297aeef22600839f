//! The memory layout of a pipe (the OpenCL API leaves it to the implementation, `clCreatePipe`):
//! shared by the host's pipe objects (`runtime::Pipe`), the engines' pipe operations
//! (`exec::pipe`) and the lowering of pipe storage (`lower/pipe_storage.rs`: an
//! `OpConstantPipeStorage` becomes a program-scope variable holding an empty pipe).
//!
//! A pipe is an ordinary global buffer holding, little-endian:
//!
//! | bytes | field |
//! | --- | --- |
//! | 0..4 | lock word (0 free, 1 held): every operation runs under it |
//! | 4..8 | packet size in bytes |
//! | 8..12 | maximum number of packets (the ring's capacity) |
//! | 12..16 | packets written and committed, not yet read or reserved for reading |
//! | 16..24 | read position: packets ever reserved or read (slot = position mod capacity) |
//! | 24..32 | write position: packets ever reserved or written |
//! | 32..36 | magic `PIPE` (0x4550_4950) |
//! | 64..64+capacity | one state byte per slot: empty, being written, full, being read |
//! | [`packets_offset`].. | the packets, `packet size` bytes each |

pub const OFF_LOCK: u64 = 0;
pub const OFF_PACKET_SIZE: u64 = 4;
pub const OFF_MAX_PACKETS: u64 = 8;
pub const OFF_COUNT: u64 = 12;
pub const OFF_READ: u64 = 16;
pub const OFF_WRITE: u64 = 24;
pub const OFF_MAGIC: u64 = 32;
pub const OFF_STATES: u64 = 64;
pub const MAGIC: u32 = 0x4550_4950;

/// The largest capacity a pipe may have (its slot numbers fit 31 bits).
pub const MAX_PACKETS_LIMIT: u32 = (1 << 31) - 1;

/// Where the packets start: after the state bytes, 128-byte aligned (the largest OpenCL C type,
/// `long16`/`double16`, is 128 bytes).
pub fn packets_offset(max_packets: u32) -> u64 {
    (OFF_STATES + u64::from(max_packets)).div_ceil(128) * 128
}

/// Bytes of memory a pipe of `max_packets` packets of `packet_size` bytes needs.
pub fn byte_len(packet_size: u32, max_packets: u32) -> u64 {
    packets_offset(max_packets) + u64::from(packet_size) * u64::from(max_packets)
}

/// Writes an empty pipe's header and slot states into `mem`, which holds at least the first
/// [`packets_offset`] bytes of the pipe's memory (the packets need no initial value).
pub fn init(mem: &mut [u8], packet_size: u32, max_packets: u32) -> Result<(), &'static str> {
    if packet_size == 0 || max_packets == 0 {
        return Err("packet size and maximum packets must be positive");
    }
    if max_packets > MAX_PACKETS_LIMIT {
        return Err("too many packets");
    }
    let states_end = (OFF_STATES + u64::from(max_packets)) as usize;
    if (mem.len() as u64) < packets_offset(max_packets) {
        return Err("memory too small for the pipe");
    }
    mem[..states_end].fill(0);
    mem[4..8].copy_from_slice(&packet_size.to_le_bytes());
    mem[8..12].copy_from_slice(&max_packets.to_le_bytes());
    mem[32..36].copy_from_slice(&MAGIC.to_le_bytes());
    Ok(())
}
