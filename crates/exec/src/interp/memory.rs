//! Memory of a run and bounds-checked access to it.
//!
//! A pointer is `tag << offset_bits | offset`: the tag names a region, the offset is a byte
//! offset into it. Tags come in three classes (`n = 2^tag_bits`):
//! - `0`: the null region: offset 0 is the null pointer, any other offset a host address into
//!   shared virtual memory, valid only inside an allocation of the launch's `SvmSpace`
//!   (`crate::svm`);
//! - `1 .. n/4`: shared regions, the same for every work-item of the run: global and constant
//!   buffers passed as arguments and program-scope variables, living in memory that outlives the
//!   run (`SharedRegion` holds raw pointers; see the crate's safety contract);
//! - `n/4 .. n/2`: local regions of the executing work-group (`__local` variables, then `Local`
//!   arguments);
//! - `n/2 .. n`: private regions of the executing work-item (module `Private` variables, then
//!   `stackalloc`s, freed when their function returns).
//!
//! With 64-bit addressing tags have 16 bits and offsets 48; with 32-bit addressing 8 and 24
//! (regions of at most 16 MiB). Pointer arithmetic (`ptradd`) changes only the offset, wrapping
//! inside the offset bits, so it can never move a pointer into another region. Every access
//! checks that `offset + size` lies inside the region and reports a `Fault` otherwise.
//!
//! Local and private regions are touched only by the thread running their work-group, so they
//! are plain vectors. Shared regions may be touched by several threads: plain accesses use
//! unaligned raw-pointer copies (OpenCL leaves racing accesses undefined), atomics use
//! `AtomicU32`/`AtomicU64::from_ptr` on aligned addresses.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

use kir::AddrSpace;

/// Pointer encoding of a module.
#[derive(Clone, Copy, Debug)]
pub struct PtrLayout {
    pub tag_bits: u32,
    pub offset_bits: u32,
}

/// The region a pointer names.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RegionRef {
    Null,
    Shared(usize),
    Local(usize),
    Private(usize),
}

impl PtrLayout {
    pub fn new(address_bits: u32) -> PtrLayout {
        if address_bits == 32 {
            PtrLayout {
                tag_bits: 8,
                offset_bits: 24,
            }
        } else {
            PtrLayout {
                tag_bits: 16,
                offset_bits: 48,
            }
        }
    }

    fn n(self) -> u64 {
        1u64 << self.tag_bits
    }

    pub fn offset_mask(self) -> u64 {
        (1u64 << self.offset_bits) - 1
    }

    /// Largest number of regions of each class.
    pub fn max_shared(self) -> usize {
        (self.n() / 4 - 1) as usize
    }

    pub fn max_local(self) -> usize {
        (self.n() / 4) as usize
    }

    pub fn max_private(self) -> usize {
        (self.n() / 2) as usize
    }

    /// The pointer to `offset` of `region` (offset wrapped to the offset bits).
    pub fn encode(self, region: RegionRef, offset: u64) -> u64 {
        let tag = match region {
            RegionRef::Null => return 0,
            RegionRef::Shared(i) => 1 + i as u64,
            RegionRef::Local(i) => self.n() / 4 + i as u64,
            RegionRef::Private(i) => self.n() / 2 + i as u64,
        };
        (tag << self.offset_bits) | (offset & self.offset_mask())
    }

    pub fn decode(self, ptr: u64) -> (RegionRef, u64) {
        let tag = (ptr >> self.offset_bits) & (self.n() - 1);
        let offset = ptr & self.offset_mask();
        let n = self.n();
        let region = if tag == 0 {
            RegionRef::Null
        } else if tag < n / 4 {
            RegionRef::Shared((tag - 1) as usize)
        } else if tag < n / 2 {
            RegionRef::Local((tag - n / 4) as usize)
        } else {
            RegionRef::Private((tag - n / 2) as usize)
        };
        (region, offset)
    }

    /// `ptr + delta`, changing only the offset. The null pointer plus 0 stays null.
    pub fn add(self, ptr: u64, delta: i64) -> u64 {
        let tag_part = ptr & !self.offset_mask();
        tag_part | (ptr.wrapping_add(delta as u64) & self.offset_mask())
    }
}

/// Memory outliving the run, shared by all threads.
#[derive(Clone, Copy, Debug)]
pub struct SharedRegion {
    pub base: *mut u8,
    pub len: usize,
    pub space: AddrSpace,
    /// The layout of an image argument's memory (image instructions take the region's pointer
    /// as the image's handle; see `interp::image`).
    pub image: Option<devlib::image_desc::ImageDesc>,
}

// SAFETY: a `SharedRegion` is an address range the launch's caller (or the interpreter, for
// program-scope variables) keeps valid for the whole run; concurrent access to it follows the
// crate-level contract (atomics are real atomics, plain racing accesses are the kernel's UB).
unsafe impl Send for SharedRegion {}
// SAFETY: as above.
unsafe impl Sync for SharedRegion {}

/// Why an access failed.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Fault {
    OutOfBounds {
        space: AddrSpace,
        offset: u64,
        size: u64,
        len: u64,
    },
    Invalid {
        pointer: u64,
        reason: &'static str,
    },
    Misaligned {
        space: AddrSpace,
        offset: u64,
    },
    /// Checked mode: a local-memory data race with work-item `other` (local linear index;
    /// [`LocalShadow`] always knows it).
    Race {
        space: AddrSpace,
        offset: u64,
        other: Option<u32>,
        write: bool,
    },
}

/// The memory one work-item sees while it runs.
pub struct Memory<'a> {
    pub layout: PtrLayout,
    pub shared: &'a [SharedRegion],
    /// The SVM allocations host-address pointers (tag 0) may reach.
    pub svm: &'a crate::svm::SvmSpace,
    pub local: &'a mut [Vec<u8>],
    pub private: &'a mut Vec<Vec<u8>>,
    /// Checked mode: the group's record of local-memory accesses, and who is accessing.
    pub shadow: Option<&'a mut LocalShadow>,
    pub item: u32,
}

/// Checked mode: for every byte of the group's local memory, and every byte of `__global`
/// memory (buffers and SVM, by host address) the group touched since its last work-group
/// barrier, the last write and the reads since
/// it (work-item index + 1, 0 = nobody, each with the work-item's clock at the access). Two
/// work-items touching a byte, at least one writing, with no synchronisation between the two
/// accesses is a data race (OpenCL C 2.0 §3.3.4 memory model: unsynchronised conflicting
/// accesses are undefined).
///
/// Synchronisation: a work-group barrier orders everything before it ([`LocalShadow::clear`]);
/// a named barrier orders only the work-items of the phase it released
/// ([`LocalShadow::synchronize`]). For those, every work-item has a vector clock (created at the
/// first named barrier; before it each work-item's own clock is 1 and it knows nothing of the
/// others): an access by `b` is ordered after an access recorded as (`a`, clock `c`) when
/// `a == b` or `b`'s clock knows `a` at `c` or later. Concurrent readers of a byte are kept in
/// a side table (reads ordered before a newer read of the same byte are dropped, as a write
/// ordered after the newer read is ordered after them too).
///
/// Global memory: only work-items of one work-group are compared, and a work-group barrier
/// orders their accesses whatever its fence flags (as kernels commonly rely on). Work-items of
/// different work-groups can only synchronise through atomics and fences, which this record
/// does not model, so conflicts between work-groups are not reported (no false reports).
pub struct LocalShadow {
    regions: Vec<Vec<ShadowCell>>,
    /// `__global` bytes by host address.
    global: std::collections::HashMap<u64, ShadowCell>,
    /// Per work-item vector clocks (empty until the first named barrier).
    clocks: Vec<Vec<u32>>,
    /// The reads of bytes read by several unordered work-items: (region, offset) → reads
    /// (region `GLOBAL_REGION` with the host address for global bytes).
    shared_reads: std::collections::HashMap<(usize, usize), Vec<(u32, u32)>>,
}

/// The `shared_reads` region of global bytes.
const GLOBAL_REGION: usize = usize::MAX;

/// Records an access by work-item `item` (clock `now`) to one byte whose record is `cell`
/// (`key` in `shared_reads`); the other work-item's index + 1 when the access races with it.
#[allow(clippy::too_many_arguments)]
fn access_cell(
    cell: &mut ShadowCell,
    key: (usize, usize),
    clocks: &[Vec<u32>],
    shared_reads: &mut std::collections::HashMap<(usize, usize), Vec<(u32, u32)>>,
    item: u32,
    now: u32,
    write: bool,
) -> Result<(), u32> {
    let me = item + 1;
    if cell.writer != 0 && !ordered(clocks, item, cell.writer - 1, cell.write_clock) {
        return Err(cell.writer);
    }
    if write {
        if cell.reader == SHARED {
            let reads = shared_reads.remove(&key).unwrap_or_default();
            if let Some(&(r, _)) = reads
                .iter()
                .find(|&&(r, c)| !ordered(clocks, item, r - 1, c))
            {
                shared_reads.insert(key, reads);
                return Err(r);
            }
        } else if cell.reader != 0 && !ordered(clocks, item, cell.reader - 1, cell.read_clock) {
            return Err(cell.reader);
        }
        // Every earlier access is ordered before this write, so before whatever is ordered
        // after it.
        *cell = ShadowCell {
            writer: me,
            write_clock: now,
            reader: 0,
            read_clock: 0,
        };
    } else if cell.reader == SHARED {
        let reads = shared_reads.entry(key).or_default();
        reads.retain(|&(r, c)| !ordered(clocks, item, r - 1, c));
        reads.push((me, now));
    } else if cell.reader == 0 || ordered(clocks, item, cell.reader - 1, cell.read_clock) {
        cell.reader = me;
        cell.read_clock = now;
    } else {
        shared_reads.insert(key, vec![(cell.reader, cell.read_clock), (me, now)]);
        cell.reader = SHARED;
    }
    Ok(())
}

/// One byte's record: the last writer and its clock, the reader (or [`SHARED`]) and its clock.
#[derive(Clone, Copy, Default)]
struct ShadowCell {
    writer: u32,
    write_clock: u32,
    reader: u32,
    read_clock: u32,
}

/// `ShadowCell::reader` when the reads are in `LocalShadow::shared_reads`.
const SHARED: u32 = u32::MAX;

/// Whether `clocks[me]` knows `other` (work-item index) at `clock` (see [`LocalShadow`]).
fn ordered(clocks: &[Vec<u32>], me: u32, other: u32, clock: u32) -> bool {
    other == me
        || clocks
            .get(me as usize)
            .and_then(|c| c.get(other as usize))
            .is_some_and(|&known| known >= clock)
}

impl LocalShadow {
    pub fn new(sizes: &[usize]) -> LocalShadow {
        LocalShadow {
            regions: sizes
                .iter()
                .map(|&n| vec![ShadowCell::default(); n])
                .collect(),
            global: std::collections::HashMap::new(),
            clocks: Vec::new(),
            shared_reads: std::collections::HashMap::new(),
        }
    }

    /// Forgets all accesses (a work-group barrier orders everything before it).
    pub fn clear(&mut self) {
        for region in &mut self.regions {
            region.fill(ShadowCell::default());
        }
        self.global.clear();
        self.shared_reads.clear();
    }

    /// A named barrier released `members` (local linear indices) of a group of `items`
    /// work-items: each member's accesses so far are ordered before the accesses every member
    /// makes from now on; the others stay unordered with them.
    pub fn synchronize(&mut self, members: &[usize], items: usize) {
        if self.clocks.is_empty() {
            self.clocks = (0..items)
                .map(|i| {
                    let mut clock = vec![0u32; items];
                    clock[i] = 1;
                    clock
                })
                .collect();
        }
        let mut joined = vec![0u32; items];
        for &m in members {
            if let Some(clock) = self.clocks.get(m) {
                for (j, c) in joined.iter_mut().zip(clock) {
                    *j = (*j).max(*c);
                }
            }
        }
        for &m in members {
            if let Some(clock) = self.clocks.get_mut(m) {
                clock.copy_from_slice(&joined);
                clock[m] = clock[m].saturating_add(1);
            }
        }
    }

    /// Work-item `item`'s own clock.
    fn clock(&self, item: u32) -> u32 {
        self.clocks
            .get(item as usize)
            .and_then(|c| c.get(item as usize))
            .copied()
            .unwrap_or(1)
    }

    /// Records an access of `len` bytes at `offset` of region `region` by work-item `item`;
    /// reports the first conflicting byte.
    fn access(
        &mut self,
        region: usize,
        offset: u64,
        len: u64,
        item: u32,
        write: bool,
    ) -> Result<(), Fault> {
        let now = self.clock(item);
        let LocalShadow {
            regions,
            clocks,
            shared_reads,
            ..
        } = self;
        let Some(bytes) = regions.get_mut(region) else {
            return Ok(());
        };
        let start = offset.min(bytes.len() as u64) as usize;
        let end = offset.saturating_add(len).min(bytes.len() as u64) as usize;
        for (at, cell) in bytes.iter_mut().enumerate().take(end).skip(start) {
            access_cell(cell, (region, at), clocks, shared_reads, item, now, write).map_err(
                |other| Fault::Race {
                    space: AddrSpace::Local,
                    offset: at as u64,
                    other: Some(other - 1),
                    write,
                },
            )?;
        }
        Ok(())
    }

    /// Records an access of `len` `__global` bytes at host address `address` by work-item
    /// `item`; a race is reported at `report + k` for byte k (the offset in the buffer, or the
    /// address for SVM memory).
    fn access_global(
        &mut self,
        address: u64,
        report: u64,
        len: u64,
        item: u32,
        write: bool,
    ) -> Result<(), Fault> {
        let now = self.clock(item);
        let LocalShadow {
            global,
            clocks,
            shared_reads,
            ..
        } = self;
        for k in 0..len {
            let at = address.wrapping_add(k);
            let cell = global.entry(at).or_default();
            let key = (GLOBAL_REGION, at as usize);
            access_cell(cell, key, clocks, shared_reads, item, now, write).map_err(|other| {
                Fault::Race {
                    space: AddrSpace::Global,
                    offset: report.wrapping_add(k),
                    other: Some(other - 1),
                    write,
                }
            })?;
        }
        Ok(())
    }
}

/// A resolved, bounds-checked byte range.
enum Place<'m> {
    Shared(*mut u8, AddrSpace, u64),
    Plain(&'m mut [u8], AddrSpace),
}

impl Memory<'_> {
    /// Finds `size` bytes at `ptr`, checking bounds.
    fn place(&mut self, ptr: u64, size: u64) -> Result<Place<'_>, Fault> {
        let (region, offset) = self.layout.decode(ptr);
        let check = |len: u64, space: AddrSpace| -> Result<(), Fault> {
            match offset.checked_add(size) {
                Some(end) if end <= len => Ok(()),
                _ => Err(Fault::OutOfBounds {
                    space,
                    offset,
                    size,
                    len,
                }),
            }
        };
        match region {
            RegionRef::Null if offset == 0 => Err(Fault::Invalid {
                pointer: ptr,
                reason: "null pointer",
            }),
            // API 5.6: a host address into shared virtual memory.
            RegionRef::Null => {
                let at = self.svm.find(offset, size)?;
                Ok(Place::Shared(at, AddrSpace::Global, offset))
            }
            RegionRef::Shared(i) => {
                let r = self.shared.get(i).ok_or(Fault::Invalid {
                    pointer: ptr,
                    reason: "no such global region",
                })?;
                check(r.len as u64, r.space)?;
                // SAFETY: offset + size <= len, and `base..base+len` is valid (SharedRegion contract).
                let at = unsafe { r.base.add(offset as usize) };
                Ok(Place::Shared(at, r.space, offset))
            }
            RegionRef::Local(i) => {
                let r = self.local.get_mut(i).ok_or(Fault::Invalid {
                    pointer: ptr,
                    reason: "no such local region",
                })?;
                check(r.len() as u64, AddrSpace::Local)?;
                Ok(Place::Plain(
                    &mut r[offset as usize..(offset + size) as usize],
                    AddrSpace::Local,
                ))
            }
            RegionRef::Private(i) => {
                let r = self.private.get_mut(i).ok_or(Fault::Invalid {
                    pointer: ptr,
                    reason: "private memory that no longer exists",
                })?;
                check(r.len() as u64, AddrSpace::Private)?;
                Ok(Place::Plain(
                    &mut r[offset as usize..(offset + size) as usize],
                    AddrSpace::Private,
                ))
            }
        }
    }

    /// The address space `ptr` points into (`None` for null or dangling pointers).
    pub fn space_of(&self, ptr: u64) -> Option<AddrSpace> {
        match self.layout.decode(ptr) {
            (RegionRef::Null, offset) => {
                (offset != 0 && self.svm.contains(offset)).then_some(AddrSpace::Global)
            }
            (region, _) => self.space_of_region(region),
        }
    }

    fn space_of_region(&self, region: RegionRef) -> Option<AddrSpace> {
        match region {
            RegionRef::Null => None,
            RegionRef::Shared(i) => self.shared.get(i).map(|r| r.space),
            RegionRef::Local(_) => Some(AddrSpace::Local),
            RegionRef::Private(_) => Some(AddrSpace::Private),
        }
    }

    /// Checked mode: records a plain (non-atomic) local or global access.
    fn track(&mut self, ptr: u64, len: u64, write: bool) -> Result<(), Fault> {
        let Some(shadow) = self.shadow.as_deref_mut() else {
            return Ok(());
        };
        match self.layout.decode(ptr) {
            (RegionRef::Local(i), offset) => shadow.access(i, offset, len, self.item, write),
            (RegionRef::Shared(i), offset) => match self.shared.get(i) {
                // Buffers (not constant memory, which nothing writes, nor images, whose
                // accesses go through the image built-ins); out-of-bounds accesses are reported
                // by the access itself.
                Some(r)
                    if r.space == AddrSpace::Global
                        && r.image.is_none()
                        && offset.saturating_add(len) <= r.len as u64 =>
                {
                    let address = (r.base as u64).wrapping_add(offset);
                    shadow.access_global(address, offset, len, self.item, write)
                }
                _ => Ok(()),
            },
            // SVM memory, by its host address.
            (RegionRef::Null, address) if address != 0 => {
                shadow.access_global(address, address, len, self.item, write)
            }
            _ => Ok(()),
        }
    }

    /// Runs `f` with checked mode's record of accesses switched off: for memory whose accesses
    /// the implementation synchronises itself (a pipe's header and packets under its lock).
    pub(crate) fn untracked<R>(&mut self, f: impl FnOnce(&mut Self) -> R) -> R {
        let shadow = self.shadow.take();
        let result = f(self);
        self.shadow = shadow;
        result
    }

    pub fn read(&mut self, ptr: u64, buf: &mut [u8]) -> Result<(), Fault> {
        self.track(ptr, buf.len() as u64, false)?;
        match self.place(ptr, buf.len() as u64)? {
            // SAFETY: `place` checked the range lies inside the region.
            Place::Shared(at, _, _) => unsafe {
                std::ptr::copy_nonoverlapping(at, buf.as_mut_ptr(), buf.len())
            },
            Place::Plain(bytes, _) => buf.copy_from_slice(bytes),
        }
        Ok(())
    }

    /// A write through a host address must not land in read-only SVM memory (`crate::svm`).
    fn check_svm_write(&self, ptr: u64, size: u64) -> Result<(), Fault> {
        match self.layout.decode(ptr) {
            (RegionRef::Null, offset) if offset != 0 => {
                self.svm.find_for_write(offset, size).map(|_| ())
            }
            _ => Ok(()),
        }
    }

    pub fn write(&mut self, ptr: u64, data: &[u8]) -> Result<(), Fault> {
        self.track(ptr, data.len() as u64, true)?;
        self.check_svm_write(ptr, data.len() as u64)?;
        match self.place(ptr, data.len() as u64)? {
            Place::Shared(_, AddrSpace::Constant, _) => {
                return Err(Fault::Invalid {
                    pointer: ptr,
                    reason: "write to constant memory",
                })
            }
            // SAFETY: `place` checked the range lies inside the region.
            Place::Shared(at, _, _) => unsafe {
                std::ptr::copy_nonoverlapping(data.as_ptr(), at, data.len())
            },
            Place::Plain(bytes, _) => bytes.copy_from_slice(data),
        }
        Ok(())
    }

    /// Atomically replaces the `width`-byte (4 or 8) integer at `ptr` by `update(old)` and
    /// returns `old`. `update` may run several times (compare-and-swap loop).
    pub fn atomic_update(
        &mut self,
        ptr: u64,
        width: u64,
        update: impl Fn(u64) -> u64,
    ) -> Result<u64, Fault> {
        let region_offset = ptr & self.layout.offset_mask();
        self.check_svm_write(ptr, width)?;
        match self.place(ptr, width)? {
            Place::Shared(at, space, offset) => {
                if !(at as usize).is_multiple_of(width as usize) {
                    return Err(Fault::Misaligned { space, offset });
                }
                if space == AddrSpace::Constant {
                    return Err(Fault::Invalid {
                        pointer: ptr,
                        reason: "atomic write to constant memory",
                    });
                }
                if width == 4 {
                    // SAFETY: aligned, in bounds, valid for the run (SharedRegion contract); all
                    // concurrent atomic accesses to it also go through atomics.
                    let atomic = unsafe { AtomicU32::from_ptr(at.cast::<u32>()) };
                    let old = atomic
                        .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |x| {
                            Some(update(u64::from(x)) as u32)
                        })
                        .unwrap_or_else(|x| x);
                    Ok(u64::from(old))
                } else {
                    // SAFETY: as above.
                    let atomic = unsafe { AtomicU64::from_ptr(at.cast::<u64>()) };
                    let old = atomic
                        .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |x| Some(update(x)))
                        .unwrap_or_else(|x| x);
                    Ok(old)
                }
            }
            Place::Plain(bytes, space) => {
                if !region_offset.is_multiple_of(width) {
                    return Err(Fault::Misaligned {
                        space,
                        offset: region_offset,
                    });
                }
                let mut raw = [0u8; 8];
                raw[..bytes.len()].copy_from_slice(bytes);
                let old = u64::from_le_bytes(raw);
                let new = update(old);
                bytes.copy_from_slice(&new.to_le_bytes()[..bytes.len()]);
                Ok(old)
            }
        }
    }

    /// Atomically reads the `width`-byte integer at `ptr`.
    pub fn atomic_load(&mut self, ptr: u64, width: u64) -> Result<u64, Fault> {
        match self.place(ptr, width)? {
            Place::Shared(at, space, offset) => {
                if !(at as usize).is_multiple_of(width as usize) {
                    return Err(Fault::Misaligned { space, offset });
                }
                // SAFETY: aligned, in bounds, valid for the run.
                Ok(if width == 4 {
                    u64::from(
                        unsafe { AtomicU32::from_ptr(at.cast::<u32>()) }.load(Ordering::SeqCst),
                    )
                } else {
                    unsafe { AtomicU64::from_ptr(at.cast::<u64>()) }.load(Ordering::SeqCst)
                })
            }
            Place::Plain(bytes, _) => {
                let mut raw = [0u8; 8];
                raw[..bytes.len()].copy_from_slice(bytes);
                Ok(u64::from_le_bytes(raw))
            }
        }
    }

    /// A fresh zeroed private region; returns its pointer.
    pub fn alloc_private(&mut self, size: u64, limit: u64) -> Result<u64, Fault> {
        let index = self.private.len();
        let held: u64 = self.private.iter().map(|r| r.len() as u64).sum();
        if index >= self.layout.max_private()
            || size > self.layout.offset_mask()
            || held.saturating_add(size) > limit
        {
            return Err(Fault::Invalid {
                pointer: 0,
                reason: "private memory exhausted",
            });
        }
        self.private.push(vec![0; size as usize]);
        Ok(self.layout.encode(RegionRef::Private(index), 0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointers_keep_their_region_under_arithmetic() {
        let layout = PtrLayout::new(64);
        let p = layout.encode(RegionRef::Local(3), 8);
        assert_eq!(layout.decode(p), (RegionRef::Local(3), 8));
        let q = layout.add(p, -16);
        assert_eq!(layout.decode(q).0, RegionRef::Local(3));
        assert_eq!(layout.decode(layout.add(q, 16)), (RegionRef::Local(3), 8));
        assert_eq!(layout.decode(0).0, RegionRef::Null);
        let small = PtrLayout::new(32);
        let r = small.encode(RegionRef::Private(5), 100);
        assert!(r <= u64::from(u32::MAX));
        assert_eq!(small.decode(r), (RegionRef::Private(5), 100));
        assert_eq!(
            small.decode(small.encode(RegionRef::Shared(0), 1)),
            (RegionRef::Shared(0), 1)
        );
    }

    #[test]
    fn accesses_are_bounds_checked() {
        let layout = PtrLayout::new(64);
        let mut local = vec![vec![0u8; 8]];
        let mut private = Vec::new();
        let mut mem = Memory {
            layout,
            shared: &[],
            svm: &crate::svm::NO_SVM,
            local: &mut local,
            private: &mut private,
            shadow: None,
            item: 0,
        };
        let p = layout.encode(RegionRef::Local(0), 4);
        mem.write(p, &[1, 2, 3, 4]).unwrap();
        let mut buf = [0u8; 4];
        mem.read(p, &mut buf).unwrap();
        assert_eq!(buf, [1, 2, 3, 4]);
        assert_eq!(
            mem.write(layout.add(p, 1), &[0; 4]),
            Err(Fault::OutOfBounds {
                space: AddrSpace::Local,
                offset: 5,
                size: 4,
                len: 8
            })
        );
        assert!(matches!(mem.read(0, &mut buf), Err(Fault::Invalid { .. })));
        let old = mem.atomic_update(p, 4, |x| x + 1).unwrap();
        assert_eq!(old, 0x0403_0201);
    }
}
