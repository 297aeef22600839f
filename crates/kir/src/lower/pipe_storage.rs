//! Pipe storage (SPIR-V 1.1, capability *PipeStorage*; SPIR-V 3.42.23 `OpConstantPipeStorage`,
//! `OpCreatePipeFromPipeStorage`; env 3.1: required of OpenCL 2.2 devices).
//!
//! A pipe storage is a program-scope object: each `OpConstantPipeStorage` (a constant, so the
//! same object every time it is executed, whichever work-item, launch or kernel executes it)
//! becomes a `__global` module variable holding an empty pipe with the layout of
//! [`crate::pipe_layout`], like the memory of a pipe kernel argument. Its contents persist across
//! the launches of the program (the engines' `ProgramGlobals`), as program-scope variables do.
//! A pipe-storage value is the address of that memory (`ptr_global`), and
//! `OpCreatePipeFromPipeStorage` is that same address: the pipe instructions then use it exactly
//! as they use a pipe kernel argument (`lower/pipe.rs`).
//!
//! Capacity is "the minimum number of Packet Size blocks" the storage can hold (SPIR-V
//! 3.42.23), so a capacity of 0 gets one slot (a pipe needs at least one). The storages of a
//! module take at most [`MAX_STORAGE_BYTES`] together (more is reported as unsupported): the
//! lowering and every built program allocate them whole.

use spv::{Instruction, Op};

use super::driver::ModuleLowering;
use super::function::FnLower;
use super::{InstExt, LowerError};
use crate::{pipe_layout, AddrSpace, Global, Module};

/// Alignment of a pipe storage's memory: the packets start 128-byte aligned within it
/// ([`pipe_layout::packets_offset`]).
const STORAGE_ALIGN: u32 = 128;

/// The most bytes the pipe storages of one module may take (headers, slot states and packets):
/// 64 MiB, e.g. a million 64-byte packets.
pub(crate) const MAX_STORAGE_BYTES: u64 = 64 << 20;

impl ModuleLowering<'_> {
    /// Makes one `__global` module variable, holding an empty pipe, per
    /// `OpConstantPipeStorage Result Type, Packet Size, Packet Alignment, Capacity`.
    pub(crate) fn lower_pipe_storages(&mut self, module: &mut Module) -> Result<(), LowerError> {
        let mut total = 0u64;
        for inst in self
            .insts
            .iter()
            .filter(|i| i.op == Op::ConstantPipeStorage)
        {
            let id = inst.res()?;
            let packet_size = inst.lit(0)?;
            let capacity = inst.lit(2)?.max(1);
            if capacity > pipe_layout::MAX_PACKETS_LIMIT {
                return Err(inst.unsupported("pipe storage of 2^31 packets or more"));
            }
            let bytes = pipe_layout::byte_len(packet_size, capacity);
            total += bytes;
            if total > MAX_STORAGE_BYTES {
                return Err(inst.unsupported(&format!(
                    "pipe storage beyond {} MiB in a module",
                    MAX_STORAGE_BYTES >> 20
                )));
            }
            let size = u32::try_from(bytes)
                .map_err(|_| inst.unsupported("pipe storage of 4 GiB or more"))?;
            let mut init = vec![0u8; size as usize];
            pipe_layout::init(&mut init, packet_size, capacity)
                .map_err(|reason| inst.malformed(reason))?;
            let name = self
                .info
                .names
                .get(&id)
                .cloned()
                .unwrap_or_else(|| format!("pipe_storage{id}"));
            let gref = module.add_global(Global {
                name,
                space: AddrSpace::Global,
                size,
                align: STORAGE_ALIGN,
                init: Some(init),
                relocs: Vec::new(),
            });
            self.globals.insert(id, (gref, AddrSpace::Global));
        }
        Ok(())
    }
}

impl FnLower<'_, '_> {
    /// `OpConstantPipeStorage` has no code (its value is its variable's address, which
    /// `FnLower::value` finds among the module's variables); `OpCreatePipeFromPipeStorage`
    /// is the storage's address.
    pub(crate) fn lower_pipe_storage(&mut self, inst: &Instruction) -> Result<(), LowerError> {
        match inst.op {
            Op::ConstantPipeStorage => Ok(()),
            Op::CreatePipeFromPipeStorage => {
                let storage = self.value(inst.id_op(0)?, inst)?;
                self.vals.insert(inst.res()?, storage);
                Ok(())
            }
            _ => Err(inst.unsupported("this pipe storage instruction")),
        }
    }
}
