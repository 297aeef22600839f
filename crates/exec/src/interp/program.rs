//! `ProgramGlobals`: the storage of a program's module-scope variables.
//!
//! Program-scope `__global` variables keep their values from one kernel launch to the next
//! (OpenCL C 2.0 §6.5.1), so their storage belongs to the built program, not to a launch. The
//! runtime creates one `ProgramGlobals` per built program and passes it to every launch
//! (`Engine::run_with_globals`); `Engine::run` uses fresh storage. `__local` variables get fresh
//! memory per work-group and `Private` module variables per work-item; this type only records
//! their sizes and initial contents.

use std::sync::atomic::{AtomicU64, Ordering};

use kir::{AddrSpace, GlobalRef, Module};

use super::memory::{PtrLayout, RegionRef, SharedRegion};

/// Where a module variable lives during a run.
#[derive(Clone, Copy, Debug)]
pub(crate) enum GlobalLoc {
    Shared(usize),
    Local(usize),
    Private(usize),
}

/// Storage of one program's module-scope variables, shared by all its launches.
pub struct ProgramGlobals {
    /// Identifies the module layout this storage was made for.
    num_globals: usize,
    address_bits: u32,
    /// One allocation per program-scope variable, 8-byte aligned. Atomics give the interior
    /// mutability the kernels' raw-pointer writes need.
    storage: Vec<Box<[AtomicU64]>>,
    pub(crate) shared: Vec<SharedRegion>,
    pub(crate) globals: Vec<GlobalLoc>,
    pub(crate) local_sizes: Vec<usize>,
    pub(crate) private_inits: Vec<Vec<u8>>,
}

impl ProgramGlobals {
    /// Storage for `module`'s variables, holding their initial values (relocations resolved).
    pub fn new(module: &Module) -> ProgramGlobals {
        let layout = PtrLayout::new(module.address_bits);
        let mut p = ProgramGlobals {
            num_globals: module.globals.len(),
            address_bits: module.address_bits,
            storage: Vec::new(),
            shared: Vec::new(),
            globals: Vec::new(),
            local_sizes: Vec::new(),
            private_inits: Vec::new(),
        };
        for global in &module.globals {
            let size = global.size as usize;
            let mut init = global.init.clone().unwrap_or_default();
            init.resize(size, 0);
            let loc = match global.space {
                AddrSpace::Local => {
                    p.local_sizes.push(size);
                    GlobalLoc::Local(p.local_sizes.len() - 1)
                }
                AddrSpace::Private => {
                    p.private_inits.push(init);
                    GlobalLoc::Private(p.private_inits.len() - 1)
                }
                space => {
                    let words: Box<[AtomicU64]> = (0..size.div_ceil(8).max(1))
                        .map(|w| {
                            let mut raw = [0u8; 8];
                            for (k, slot) in raw.iter_mut().enumerate() {
                                *slot = init.get(w * 8 + k).copied().unwrap_or(0);
                            }
                            AtomicU64::new(u64::from_le_bytes(raw))
                        })
                        .collect();
                    // The boxed slice never moves, so the address stays valid while `p` lives.
                    let base = words.as_ptr().cast::<u8>().cast_mut();
                    p.storage.push(words);
                    p.shared.push(SharedRegion {
                        base,
                        len: size,
                        space,
                        image: None,
                    });
                    GlobalLoc::Shared(p.shared.len() - 1)
                }
            };
            p.globals.push(loc);
        }
        // Relocations: pointers to module variables inside initializers.
        let width = (module.address_bits / 8) as usize;
        for (g, global) in module.globals.iter().enumerate() {
            for reloc in &global.relocs {
                let target = p.global_pointer(layout, reloc.target);
                let value = layout.add(target, reloc.addend).to_le_bytes();
                let at = reloc.offset as usize;
                match p.globals[g] {
                    GlobalLoc::Shared(i) => {
                        for (k, &byte) in value[..width].iter().enumerate() {
                            p.write_byte(i, at + k, byte);
                        }
                    }
                    GlobalLoc::Private(i) => {
                        if let Some(slot) = p.private_inits[i].get_mut(at..at + width) {
                            slot.copy_from_slice(&value[..width]);
                        }
                    }
                    GlobalLoc::Local(_) => {}
                }
            }
        }
        p
    }

    /// Whether this storage was made for `module`'s layout of variables.
    pub fn fits(&self, module: &Module) -> bool {
        self.num_globals == module.globals.len() && self.address_bits == module.address_bits
    }

    /// The pointer to variable `g` as kernels see it.
    pub(crate) fn global_pointer(&self, layout: PtrLayout, g: GlobalRef) -> u64 {
        match self.globals.get(g.index()) {
            Some(GlobalLoc::Shared(i)) => layout.encode(RegionRef::Shared(*i), 0),
            Some(GlobalLoc::Local(i)) => layout.encode(RegionRef::Local(*i), 0),
            Some(GlobalLoc::Private(i)) => layout.encode(RegionRef::Private(*i), 0),
            None => 0,
        }
    }

    fn write_byte(&self, region: usize, at: usize, byte: u8) {
        if let Some(word) = self.storage.get(region).and_then(|w| w.get(at / 8)) {
            let shift = (at % 8) * 8;
            let _ = word.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |x| {
                Some((x & !(0xff << shift)) | (u64::from(byte) << shift))
            });
        }
    }

    /// The current bytes of program-scope variable `g` (`None` for `__local`/private variables
    /// and unknown ones). Call it while no launch runs.
    pub fn read(&self, g: GlobalRef) -> Option<Vec<u8>> {
        let GlobalLoc::Shared(i) = *self.globals.get(g.index())? else {
            return None;
        };
        let words = self.storage.get(i)?;
        let bytes: Vec<u8> = words
            .iter()
            .flat_map(|w| w.load(Ordering::SeqCst).to_le_bytes())
            .collect();
        Some(bytes[..self.shared[i].len].to_vec())
    }
}

// SAFETY: the raw pointers in `shared` point into `storage`, owned by this value and only
// mutated through atomics or through kernel accesses that follow the crate's launch contract.
unsafe impl Send for ProgramGlobals {}
// SAFETY: as above.
unsafe impl Sync for ProgramGlobals {}
