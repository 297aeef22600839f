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
//! Safety contract: the caller of a launch keeps every range of its `SvmSpace` valid for reads
//! and writes for the whole run (the runtime holds a reference to each allocation).

use kir::AddrSpace;

use crate::interp::memory::Fault;

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
}

/// A launch without SVM.
pub static NO_SVM: SvmSpace = SvmSpace { ranges: Vec::new() };

impl SvmSpace {
    /// The space of `ranges` (empty ranges are dropped; ranges must not overlap, as distinct
    /// live allocations never do).
    pub fn new(mut ranges: Vec<SvmRange>) -> SvmSpace {
        ranges.retain(|r| r.len > 0);
        ranges.sort_by_key(|r| r.base as usize);
        SvmSpace { ranges }
    }

    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// The host address of `size` bytes at host address `addr`, when they lie inside one
    /// allocation; the fault an access there reports otherwise.
    pub fn find(&self, addr: u64, size: u64) -> Result<*mut u8, Fault> {
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
        let at = self.find(addr, size)?;
        let after = self.ranges.partition_point(|r| r.base as u64 <= addr);
        match after.checked_sub(1).and_then(|i| self.ranges.get(i)) {
            Some(range) if range.read_only => Err(Fault::Invalid {
                pointer: addr,
                reason: "write to SVM memory allocated with CL_MEM_READ_ONLY",
            }),
            _ => Ok(at),
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
}
