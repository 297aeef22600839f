//! Pipe memory objects: the layout both the host (`runtime`'s `Pipe`) and the engines use, and
//! the pipe operations of kir's `pipe` instruction (SPIR-V 3.42.23; OpenCL C 2.0 §6.13.16).
//!
//! A pipe is an ordinary global buffer ([`crate::ArgValue::Buffer`] for a kir `ArgKind::Pipe`
//! argument, or the program-scope variable of an `OpConstantPipeStorage`) with the layout of
//! [`kir::pipe_layout`] (header with the lock word, packet size, capacity, count, read and write
//! positions; one state byte per slot; the packets).
//!
//! A write takes the slot at the write position if it is empty, a read the slot at the read
//! position if it is full; otherwise they fail (the pipe is full or empty from that point of view:
//! a packet reserved and not yet committed blocks the ones behind it). A reservation takes
//! `n` consecutive slots in one step (all empty for writing, all full for reading) and marks them
//! as being written or read; its commit marks them full or empty. Operations hold the lock word
//! (an atomic compare-and-swap spin) only for their own duration, so work-groups on different
//! threads share a pipe safely; the lock's acquire and release order the packet bytes.
//!
//! A reserve id is an integer: 0 is invalid (a failed reservation); a valid 64-bit id is
//! `1 << 63 | first_slot << 32 | count`, a 32-bit one `1 << 31 | first_slot << 16 | count` (a
//! reservation whose slot or count does not fit fails).

pub use kir::pipe_layout::{byte_len, init, packets_offset};
use kir::pipe_layout::{
    MAGIC, OFF_COUNT, OFF_LOCK, OFF_MAGIC, OFF_MAX_PACKETS, OFF_PACKET_SIZE, OFF_READ, OFF_STATES,
    OFF_WRITE,
};
use kir::PipeOp;

use crate::interp::memory::{Fault, Memory};

const EMPTY: u8 = 0;
const WRITING: u8 = 1;
const FULL: u8 = 2;
const READING: u8 = 3;

/// Checks that `len` bytes at `ptr` (valid for reads, see the crate's safety contract) hold a
/// pipe made by [`init`].
pub(crate) fn check_header(ptr: *const u8, len: usize) -> Result<(), &'static str> {
    if ptr.is_null() || len < OFF_STATES as usize {
        return Err("too small for a pipe header");
    }
    let word = |off: u64| {
        // SAFETY: off + 4 <= 64 <= len, and the memory is valid for reads (crate contract).
        unsafe { std::ptr::read_unaligned(ptr.add(off as usize).cast::<u32>()) }
    };
    if word(OFF_MAGIC) != MAGIC {
        return Err("no pipe header");
    }
    let (size, max) = (word(OFF_PACKET_SIZE), word(OFF_MAX_PACKETS));
    if size == 0 || max == 0 || max >= 1 << 31 || byte_len(size, max) > len as u64 {
        return Err("corrupt pipe header");
    }
    Ok(())
}

/// A reservation decoded from its id.
struct Reservation {
    first: u64,
    count: u64,
}

fn encode_rid(first: u64, count: u64, bits: u32) -> u64 {
    if bits == 32 {
        if first >= 1 << 15 || count >= 1 << 16 {
            return 0;
        }
        1 << 31 | first << 16 | count
    } else {
        1 << 63 | first << 32 | count
    }
}

fn decode_rid(rid: u64, bits: u32) -> Option<Reservation> {
    if bits == 32 {
        (rid & 1 << 31 != 0).then_some(Reservation {
            first: (rid >> 16) & 0x7fff,
            count: rid & 0xffff,
        })
    } else {
        (rid & 1 << 63 != 0).then_some(Reservation {
            first: (rid >> 32) & 0x7fff_ffff,
            count: rid & 0xffff_ffff,
        })
    }
}

/// A pipe operation's view of the pipe while it holds the lock.
struct Locked<'m, 'a> {
    mem: &'m mut Memory<'a>,
    pipe: u64,
    packet_size: u64,
    capacity: u64,
}

impl Locked<'_, '_> {
    fn at(&self, off: u64) -> u64 {
        self.mem.layout.add(self.pipe, off as i64)
    }

    fn get(&mut self, off: u64, width: usize) -> Result<u64, Fault> {
        let mut b = [0u8; 8];
        let p = self.at(off);
        // The pipe's own memory: synchronised by its lock, not by the kernel.
        self.mem.untracked(|m| m.read(p, &mut b[..width]))?;
        Ok(u64::from_le_bytes(b))
    }

    fn set(&mut self, off: u64, width: usize, value: u64) -> Result<(), Fault> {
        let p = self.at(off);
        self.mem
            .untracked(|m| m.write(p, &value.to_le_bytes()[..width]))
    }

    fn state(&mut self, slot: u64) -> Result<u8, Fault> {
        Ok(self.get(OFF_STATES + slot, 1)? as u8)
    }

    fn set_state(&mut self, slot: u64, state: u8) -> Result<(), Fault> {
        self.set(OFF_STATES + slot, 1, u64::from(state))
    }

    fn packet(&self, slot: u64) -> u64 {
        // `capacity` fits in 31 bits (checked by `init` and `check_header`).
        self.at(packets_offset(self.capacity as u32) + slot * self.packet_size)
    }

    /// Copies the packet in `slot` to the kernel's `dst`.
    fn copy_out(&mut self, slot: u64, dst: u64) -> Result<(), Fault> {
        let mut buf = vec![0u8; self.packet_size as usize];
        let src = self.packet(slot);
        self.mem.untracked(|m| m.read(src, &mut buf))?;
        self.mem.write(dst, &buf)
    }

    /// Copies the kernel's `src` into the packet in `slot`.
    fn copy_in(&mut self, slot: u64, src: u64) -> Result<(), Fault> {
        let mut buf = vec![0u8; self.packet_size as usize];
        self.mem.read(src, &mut buf)?;
        let dst = self.packet(slot);
        self.mem.untracked(|m| m.write(dst, &buf))
    }

    fn add_count(&mut self, delta: i64) -> Result<(), Fault> {
        let n = self.get(OFF_COUNT, 4)? as i64 + delta;
        self.set(OFF_COUNT, 4, n.max(0) as u64)
    }

    /// Takes `n` slots from the position at `pos_off` if all are in state `from`, moving them
    /// to `to`; returns the first slot.
    fn take(&mut self, pos_off: u64, n: u64, from: u8, to: u8) -> Result<Option<u64>, Fault> {
        if n == 0 || n > self.capacity {
            return Ok(None);
        }
        let pos = self.get(pos_off, 8)?;
        let first = pos % self.capacity;
        for k in 0..n {
            if self.state((first + k) % self.capacity)? != from {
                return Ok(None);
            }
        }
        for k in 0..n {
            self.set_state((first + k) % self.capacity, to)?;
        }
        self.set(pos_off, 8, pos.wrapping_add(n))?;
        Ok(Some(first))
    }

    /// The slot of packet `index` of a reservation, if the id and index are valid.
    fn reserved_slot(&self, rid: u64, index: u64, rid_bits: u32) -> Option<u64> {
        let r = decode_rid(rid, rid_bits)?;
        (index < r.count && r.first < self.capacity).then(|| (r.first + index) % self.capacity)
    }

    fn run(&mut self, op: PipeOp, args: &[u64], rid_bits: u32) -> Result<u64, Fault> {
        let arg = |i: usize| args.get(i).copied().unwrap_or(0);
        // OpenCL C 6.13.16.2: 0 when the operation succeeded, a negative value otherwise.
        let status = |ok: bool| if ok { 0 } else { u64::from(u32::MAX) };
        Ok(match op {
            PipeOp::Read => match self.take(OFF_READ, 1, FULL, READING)? {
                Some(slot) => {
                    self.copy_out(slot, arg(1))?;
                    self.set_state(slot, EMPTY)?;
                    self.add_count(-1)?;
                    status(true)
                }
                None => status(false),
            },
            PipeOp::Write => match self.take(OFF_WRITE, 1, EMPTY, WRITING)? {
                Some(slot) => {
                    self.copy_in(slot, arg(1))?;
                    self.set_state(slot, FULL)?;
                    self.add_count(1)?;
                    status(true)
                }
                None => status(false),
            },
            PipeOp::ReservedRead | PipeOp::ReservedWrite => {
                let index = arg(2) & 0xffff_ffff;
                match self.reserved_slot(arg(1), index, rid_bits) {
                    Some(slot) if op == PipeOp::ReservedRead => {
                        self.copy_out(slot, arg(3))?;
                        status(true)
                    }
                    Some(slot) => {
                        self.copy_in(slot, arg(3))?;
                        status(true)
                    }
                    None => status(false),
                }
            }
            PipeOp::ReserveRead | PipeOp::ReserveWrite => {
                let n = arg(1) & 0xffff_ffff;
                let (pos, from, to) = if op == PipeOp::ReserveRead {
                    (OFF_READ, FULL, READING)
                } else {
                    (OFF_WRITE, EMPTY, WRITING)
                };
                // Check the id can encode the reservation before taking the slots.
                let pos_now = self.get(pos, 8)?;
                if encode_rid(pos_now % self.capacity, n, rid_bits) == 0 {
                    return Ok(0);
                }
                match self.take(pos, n, from, to)? {
                    Some(first) => {
                        if op == PipeOp::ReserveRead {
                            self.add_count(-(n as i64))?;
                        }
                        encode_rid(first, n, rid_bits)
                    }
                    None => 0,
                }
            }
            PipeOp::CommitRead | PipeOp::CommitWrite => {
                if let Some(r) = decode_rid(arg(1), rid_bits) {
                    let (from, to) = if op == PipeOp::CommitRead {
                        (READING, EMPTY)
                    } else {
                        (WRITING, FULL)
                    };
                    let mut moved = 0;
                    for k in 0..r.count.min(self.capacity) {
                        let slot = (r.first + k) % self.capacity;
                        if self.state(slot)? == from {
                            self.set_state(slot, to)?;
                            moved += 1;
                        }
                    }
                    if op == PipeOp::CommitWrite {
                        self.add_count(moved)?;
                    }
                }
                0
            }
            PipeOp::NumPackets => self.get(OFF_COUNT, 4)?,
            PipeOp::MaxPackets => self.capacity,
        })
    }
}

/// Runs pipe operation `op` with the kir operands' values `args` (see `kir::PipeOp`); reserve
/// ids are `rid_bits` wide. Returns the result's bits (0 for the commits).
pub(crate) fn execute(
    mem: &mut Memory<'_>,
    op: PipeOp,
    args: &[u64],
    rid_bits: u32,
) -> Result<u64, Fault> {
    let pipe = args.first().copied().unwrap_or(0);
    let invalid = |reason| Fault::Invalid {
        pointer: pipe,
        reason,
    };
    if pipe & mem.layout.offset_mask() != 0 {
        return Err(invalid("pipe operation on a pointer that is not a pipe"));
    }
    if mem.atomic_load(mem.layout.add(pipe, OFF_MAGIC as i64), 4)? != u64::from(MAGIC) {
        return Err(invalid("pipe operation on memory that is not a pipe"));
    }
    let lock = mem.layout.add(pipe, OFF_LOCK as i64);
    let mut spins = 0u32;
    // Acquire the lock word (compare-and-swap 0 → 1).
    while mem.atomic_update(lock, 4, |x| if x == 0 { 1 } else { x })? != 0 {
        spins = spins.wrapping_add(1);
        if spins.is_multiple_of(64) {
            std::thread::yield_now();
        } else {
            std::hint::spin_loop();
        }
    }
    let result = (|| {
        let mut locked = Locked {
            mem: &mut *mem,
            pipe,
            packet_size: 0,
            capacity: 0,
        };
        locked.packet_size = locked.get(OFF_PACKET_SIZE, 4)?;
        locked.capacity = locked.get(OFF_MAX_PACKETS, 4)?;
        if locked.capacity == 0 || locked.capacity >= 1 << 31 || locked.packet_size == 0 {
            return Err(invalid("corrupt pipe header"));
        }
        // SPIR-V 3.42.23: Packet Size must be the pipe's packet size.
        let given_size = args
            .get(op.arg_count().saturating_sub(2))
            .copied()
            .unwrap_or(0)
            & 0xffff_ffff;
        if given_size != locked.packet_size {
            return Err(invalid(
                "the packet size of the pipe operation differs from the pipe's",
            ));
        }
        locked.run(op, args, rid_bits)
    })();
    mem.atomic_update(lock, 4, |_| 0)?;
    result
}
