//! Shared virtual memory (OpenCL 3.0 API §5.6): host allocations a kernel addresses by their
//! host address.
//!
//! A pointer whose region tag is 0 (`interp::memory`) and whose offset is not 0 is a host
//! address: x86-64 and AArch64 user addresses lie below 2^47, so every host address already is
//! such a pointer, and the value a kernel computes is the value the host follows (and the other
//! way round). An access through such a pointer is checked against the [`SvmSpace`] of the
//! launch (the live SVM allocations of the context): it must lie inside one allocation, or the
//! access faults (`Fault::Invalid` outside every allocation, `Fault::OutOfBounds` when it starts
//! inside one and runs past its end). SVM memory is `__global`. A write (store or atomic) into
//! an allocation made with `CL_MEM_READ_ONLY` is reported as an invalid access rather than
//! done: API 5.6.1 leaves it undefined, and a checked implementation says so
//! ([`SvmSpace::find_for_write`]).
//!
//! Fine-grained system SVM (API 5.6.2, `CL_DEVICE_SVM_FINE_GRAIN_SYSTEM`): with
//! [`SvmSpace::with_system_memory`], a host address outside every allocation is followed when it
//! lies in memory the process has mapped (`/proc/self/maps`, read again when an address is not
//! found), readable for loads and writable for stores, and not within [`SVM_GUARD`] bytes of an
//! allocation (an overrun of the allocation); anything else faults as before. So a
//! kernel can follow any pointer of the host program (`malloc`, the stack, static data) and a
//! wrong one is an error, not a crash.
//!
//! Safety contract: the caller of a launch keeps every range of its `SvmSpace` valid for reads
//! and writes for the whole run (the runtime holds a reference to each allocation); with system
//! memory, the host program keeps the memory its kernels use mapped while they run (as a C
//! program must not free what a kernel is using).

use std::sync::{Arc, RwLock};

use kir::AddrSpace;

use crate::interp::memory::Fault;

/// Bytes left unused on each side of every SVM allocation when system memory is reachable
/// (`runtime::Svm` allocates them): an access there overruns the allocation and is reported,
/// instead of reaching whatever host memory lies next to it.
pub const SVM_GUARD: u64 = 4096;

/// One SVM allocation: `len` bytes of host memory at `base`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SvmRange {
    pub base: *mut u8,
    pub len: usize,
    /// Allocated with `CL_MEM_READ_ONLY`: kernels may not write it.
    pub read_only: bool,
}

// SAFETY: a plain address range; the launch contract makes the caller responsible for it.
unsafe impl Send for SvmRange {}
// SAFETY: as above.
unsafe impl Sync for SvmRange {}

/// The SVM allocations a launch may touch, sorted by address.
#[derive(Clone, Debug, Default)]
pub struct SvmSpace {
    ranges: Vec<SvmRange>,
    /// Fine-grained system SVM: the process's mappings, for addresses outside `ranges`.
    system: Option<Arc<SystemMemory>>,
}

/// A launch without SVM.
pub static NO_SVM: SvmSpace = SvmSpace {
    ranges: Vec::new(),
    system: None,
};

impl SvmSpace {
    /// The space of `ranges` (empty ranges are dropped; ranges must not overlap, as distinct
    /// live allocations never do).
    pub fn new(mut ranges: Vec<SvmRange>) -> SvmSpace {
        ranges.retain(|r| r.len > 0);
        ranges.sort_by_key(|r| r.base as usize);
        SvmSpace {
            ranges,
            system: None,
        }
    }

    /// The same space, where host memory outside the allocations is reachable too
    /// (fine-grained system SVM; see the module doc).
    pub fn with_system_memory(mut self) -> SvmSpace {
        self.system = Some(Arc::new(SystemMemory::default()));
        self
    }

    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty() && self.system.is_none()
    }

    /// The host address of `size` bytes at host address `addr`, when they lie inside one
    /// allocation (or, with system memory, in readable mapped memory); the fault an access
    /// there reports otherwise.
    pub fn find(&self, addr: u64, size: u64) -> Result<*mut u8, Fault> {
        self.find_in_allocations(addr, size)
            .or_else(|fault| match &self.system {
                Some(system) if !self.near_allocation(addr) => {
                    system.find(addr, size, false).ok_or(fault)
                }
                _ => Err(fault),
            })
    }

    /// Whether `addr` lies inside an allocation or within [`SVM_GUARD`] bytes of one.
    fn near_allocation(&self, addr: u64) -> bool {
        let after = self.ranges.partition_point(|r| r.base as u64 <= addr);
        let below = after.checked_sub(1).and_then(|i| self.ranges.get(i));
        let above = self.ranges.get(after);
        below.is_some_and(|r| addr - (r.base as u64) < r.len as u64 + SVM_GUARD)
            || above.is_some_and(|r| (r.base as u64).saturating_sub(SVM_GUARD) <= addr)
    }

    /// The allocation containing `addr`, if any.
    fn allocation_at(&self, addr: u64) -> Option<&SvmRange> {
        let after = self.ranges.partition_point(|r| r.base as u64 <= addr);
        let range = self.ranges.get(after.checked_sub(1)?)?;
        (addr - (range.base as u64) < range.len as u64).then_some(range)
    }

    /// [`SvmSpace::find`] among the allocations only.
    fn find_in_allocations(&self, addr: u64, size: u64) -> Result<*mut u8, Fault> {
        // The last allocation starting at or below `addr`.
        let after = self.ranges.partition_point(|r| r.base as u64 <= addr);
        let Some(range) = after.checked_sub(1).and_then(|i| self.ranges.get(i)) else {
            return Err(outside(addr));
        };
        let offset = addr - range.base as u64;
        let len = range.len as u64;
        if offset >= len {
            return Err(outside(addr));
        }
        match offset.checked_add(size) {
            Some(end) if end <= len => Ok(range.base.wrapping_add(offset as usize)),
            _ => Err(Fault::OutOfBounds {
                space: AddrSpace::Global,
                offset,
                size,
                len,
            }),
        }
    }

    /// As [`SvmSpace::find`], for a write: an allocation made with `CL_MEM_READ_ONLY` gives
    /// `Fault::Invalid` (API 5.6.1: "Writing to a SVM buffer created with CL_MEM_READ_ONLY
    /// inside a kernel is undefined").
    pub fn find_for_write(&self, addr: u64, size: u64) -> Result<*mut u8, Fault> {
        match self.allocation_at(addr) {
            Some(range) if range.read_only => Err(Fault::Invalid {
                pointer: addr,
                reason: "write to SVM memory allocated with CL_MEM_READ_ONLY",
            }),
            Some(_) => self.find_in_allocations(addr, size),
            None => match &self.system {
                Some(_) if self.near_allocation(addr) => Err(outside(addr)),
                Some(system) => system.find(addr, size, true).ok_or_else(|| {
                    if system.find(addr, size, false).is_some() {
                        Fault::Invalid {
                            pointer: addr,
                            reason: "write to host memory that is mapped read-only",
                        }
                    } else {
                        outside_system(addr)
                    }
                }),
                None => Err(outside(addr)),
            },
        }
    }

    /// Whether `addr` lies inside an allocation (the address space query of a pointer).
    pub fn contains(&self, addr: u64) -> bool {
        self.find(addr, 0).is_ok()
    }
}

fn outside(addr: u64) -> Fault {
    Fault::Invalid {
        pointer: addr,
        reason: "host address outside every SVM allocation of the context",
    }
}

fn outside_system(addr: u64) -> Fault {
    Fault::Invalid {
        pointer: addr,
        reason: "host address outside every SVM allocation and every mapping of the process",
    }
}

/// One run of host memory the process has mapped, with its permissions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Mapping {
    start: u64,
    end: u64,
    read: bool,
    write: bool,
}

/// The process's mappings as last read from `/proc/self/maps`, sorted, adjacent mappings with
/// the same permissions merged (an object may straddle two of them).
#[derive(Debug, Default)]
struct SystemMemory {
    mappings: RwLock<Vec<Mapping>>,
}

impl SystemMemory {
    /// The host address of `size` bytes at `addr`, when they lie in mapped memory with the
    /// permission needed; the mappings are read again once when they do not.
    fn find(&self, addr: u64, size: u64, write: bool) -> Option<*mut u8> {
        let end = addr.checked_add(size)?;
        let covered = |maps: &[Mapping]| {
            let after = maps.partition_point(|m| m.start <= addr);
            let m = maps.get(after.checked_sub(1)?)?;
            (m.read && (!write || m.write) && addr < m.end && end <= m.end).then_some(())
        };
        if covered(&self.mappings.read().ok()?).is_some() {
            return Some(addr as *mut u8);
        }
        let fresh = read_mappings();
        let found = covered(&fresh).is_some();
        if let Ok(mut maps) = self.mappings.write() {
            *maps = fresh;
        }
        found.then_some(addr as *mut u8)
    }
}

/// The mappings of `/proc/self/maps` that kernels may touch: not the kernel's own pages
/// (`[vvar]`, `[vdso]`, `[vsyscall]`, whose reads can fault) nor device files, whose reads
/// have side effects or fault.
fn read_mappings() -> Vec<Mapping> {
    let text = std::fs::read_to_string("/proc/self/maps").unwrap_or_default();
    let mut maps: Vec<Mapping> = Vec::new();
    for line in text.lines() {
        let mut fields = line.split_whitespace();
        let (Some(range), Some(perms)) = (fields.next(), fields.next()) else {
            continue;
        };
        let path = fields.nth(3).unwrap_or("");
        if path.starts_with("[v") || path.starts_with("/dev/") {
            continue;
        }
        let Some((lo, hi)) = range.split_once('-') else {
            continue;
        };
        let (Ok(start), Ok(end)) = (u64::from_str_radix(lo, 16), u64::from_str_radix(hi, 16))
        else {
            continue;
        };
        let m = Mapping {
            start,
            end,
            read: perms.starts_with('r'),
            write: perms.as_bytes().get(1) == Some(&b'w'),
        };
        match maps.last_mut() {
            Some(last) if last.end == m.start && (last.read, last.write) == (m.read, m.write) => {
                last.end = m.end;
            }
            _ => maps.push(m),
        }
    }
    maps.sort_by_key(|m| m.start);
    maps
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accesses_must_lie_inside_one_allocation() {
        // Two allocations with a gap between them: bytes 0..16 and 32..40 of one block.
        let mut block = vec![0u8; 64];
        let pa = block.as_mut_ptr();
        let pb = pa.wrapping_add(32);
        let space = SvmSpace::new(vec![
            SvmRange {
                base: pb,
                len: 8,
                read_only: true,
            },
            SvmRange {
                base: pa,
                len: 16,
                read_only: false,
            },
        ]);
        let (ia, ib) = (pa as u64, pb as u64);
        assert_eq!(space.find(ia, 16), Ok(pa));
        assert_eq!(space.find(ia + 12, 4), Ok(pa.wrapping_add(12)));
        assert_eq!(space.find(ib + 4, 4), Ok(pb.wrapping_add(4)));
        assert_eq!(
            space.find(ia + 12, 8),
            Err(Fault::OutOfBounds {
                space: AddrSpace::Global,
                offset: 12,
                size: 8,
                len: 16
            })
        );
        assert!(matches!(space.find(ia + 16, 1), Err(Fault::Invalid { .. })));
        assert!(matches!(space.find(8, 1), Err(Fault::Invalid { .. })));
        assert!(space.contains(ia + 15) && !space.contains(ia + 16));
        assert!(NO_SVM.find(ia, 1).is_err());
        // Writes: allowed in the read-write allocation, refused in the read-only one.
        assert_eq!(space.find_for_write(ia + 12, 4), Ok(pa.wrapping_add(12)));
        assert!(matches!(
            space.find_for_write(ib + 4, 4),
            Err(Fault::Invalid { .. })
        ));
        assert!(matches!(
            space.find_for_write(ia + 12, 8),
            Err(Fault::OutOfBounds { .. })
        ));
    }

    #[test]
    fn system_memory_is_reachable_where_it_is_mapped() {
        let mut heap = vec![7u8; 4096];
        // An allocation of 64 bytes with its guards on both sides, as the runtime makes it.
        let guard = SVM_GUARD as usize;
        let mut block = vec![0u8; 64 + 2 * guard];
        let alloc = &mut block[guard..guard + 64];
        let space = SvmSpace::new(vec![SvmRange {
            base: alloc.as_mut_ptr(),
            len: 64,
            read_only: true,
        }])
        .with_system_memory();
        let h = heap.as_mut_ptr() as u64;
        assert_eq!(space.find(h, 4096), Ok(heap.as_mut_ptr()));
        assert_eq!(
            space.find_for_write(h + 8, 8),
            Ok(heap.as_mut_ptr().wrapping_add(8))
        );
        // The allocations keep their rules: read-only, and bounded by their size.
        let a = alloc.as_mut_ptr() as u64;
        assert!(matches!(
            space.find_for_write(a, 4),
            Err(Fault::Invalid { .. })
        ));
        assert!(matches!(
            space.find(a + 60, 8),
            Err(Fault::OutOfBounds { .. })
        ));
        // Overruns into the guards are not host memory.
        assert!(matches!(space.find(a + 64, 4), Err(Fault::Invalid { .. })));
        assert!(matches!(
            space.find_for_write(a + 64 + SVM_GUARD - 8, 4),
            Err(Fault::Invalid { .. })
        ));
        assert!(matches!(space.find(a - 4, 4), Err(Fault::Invalid { .. })));
        // Static string data is mapped read-only.
        static TEXT: &str = "read-only data of the test binary";
        let t = TEXT.as_ptr() as u64;
        assert_eq!(space.find(t, 4), Ok(TEXT.as_ptr() as *mut u8));
        assert!(matches!(
            space.find_for_write(t, 4),
            Err(Fault::Invalid { reason, .. }) if reason.contains("read-only")
        ));
        // Page 1 is never mapped; nor is the top of the user address space.
        assert!(matches!(space.find(0x1000, 4), Err(Fault::Invalid { .. })));
        assert!(matches!(
            space.find((1 << 47) - 8, 4),
            Err(Fault::Invalid { .. })
        ));
        assert!(space.contains(h) && !space.contains(0x1000));
        // Without system memory the same heap address is outside every allocation.
        let plain = SvmSpace::new(Vec::new());
        assert!(matches!(plain.find(h, 4), Err(Fault::Invalid { .. })));
    }
}
