//! Shared virtual memory (API 5.6): host memory that kernels address by its host address.
//!
//! An [`Svm`] allocation lives in its context's table of live allocations from
//! [`Svm::new`] (`clSVMAlloc`) until [`Context::svm_free`] (`clSVMFree`); its memory is freed
//! when the last reference goes, so a kernel launch, which holds a reference to every live
//! allocation of the context for its whole run (`Context::svm_snapshot`), never touches freed
//! memory even when the application frees an allocation a running kernel uses. Kernels reach
//! SVM memory through host addresses (`exec::svm`): an access outside every live allocation is
//! an execution error, not a crash (with fine-grained system SVM, when the kernel was given
//! system memory, an access to mapped host memory is allowed too; the `exec::SVM_GUARD` bytes
//! around each allocation keep an overrun of an allocation an error). The CPU shares one coherent memory with the host, so
//! coarse- and fine-grained buffers behave alike and map/unmap need no copies.

use std::alloc::Layout;
use std::collections::BTreeMap;
use std::ptr::NonNull;
use std::sync::{Arc, Mutex};

use crate::{Context, Error, Result};

/// The flags of an SVM allocation (`cl_svm_mem_flags`, API 5.6.1).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct SvmFlags {
    pub read_only: bool,
    pub write_only: bool,
    /// `CL_MEM_SVM_FINE_GRAIN_BUFFER`.
    pub fine_grain: bool,
    /// `CL_MEM_SVM_ATOMICS` (requires `fine_grain`).
    pub atomics: bool,
}

/// Alignment of every allocation when none larger is asked for: the size of the largest
/// OpenCL C type, as for buffers.
pub const SVM_MIN_ALIGN: usize = crate::buffer::BUFFER_ALIGN;

/// An SVM allocation. Clones share the same memory.
#[derive(Clone)]
pub struct Svm {
    inner: Arc<SvmStorage>,
}

impl std::fmt::Debug for Svm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Svm")
            .field("ptr", &self.inner.ptr)
            .field("size", &self.inner.size)
            .field("flags", &self.inner.flags)
            .finish()
    }
}

struct SvmStorage {
    /// The first byte of the allocation.
    ptr: NonNull<u8>,
    size: usize,
    /// The block from the allocator: the allocation with `pad` unused bytes on each side
    /// (at least `exec::SVM_GUARD`: overruns are reported, not sent to other host memory).
    block: NonNull<u8>,
    layout: Layout,
    flags: SvmFlags,
}

// SAFETY: the memory is plain bytes shared with the application and kernels by design (SVM);
// the storage itself is immutable.
unsafe impl Send for SvmStorage {}
// SAFETY: as above.
unsafe impl Sync for SvmStorage {}

impl Drop for SvmStorage {
    fn drop(&mut self) {
        // SAFETY: allocated in `Svm::new` with this layout.
        unsafe { std::alloc::dealloc(self.block.as_ptr(), self.layout) };
    }
}

/// The live SVM allocations of a context, by address.
#[derive(Default)]
pub(crate) struct SvmTable {
    live: Mutex<BTreeMap<usize, Svm>>,
}

impl std::fmt::Debug for SvmTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SvmTable").finish_non_exhaustive()
    }
}

impl SvmTable {
    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<usize, Svm>> {
        self.live.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl Svm {
    /// `clSVMAlloc`: `size` zeroed bytes aligned to `alignment` (0: the default, else a power of
    /// two), registered in `context` until `Context::svm_free`.
    pub fn new(context: &Context, flags: SvmFlags, size: usize, alignment: usize) -> Result<Svm> {
        // API 5.6.1: "size is 0 or > CL_DEVICE_MAX_MEM_ALLOC_SIZE value for any device in
        // context" and "values specified in flags do not follow rules" and "alignment is not a
        // power of two or ... larger than the largest supported alignment" all fail.
        let max = context.device().max_mem_alloc_size;
        if size == 0 || size as u64 > max {
            return Err(Error::InvalidBufferSize(size));
        }
        if flags.read_only && flags.write_only {
            return Err(Error::InvalidValue(
                "CL_MEM_READ_ONLY together with CL_MEM_WRITE_ONLY".into(),
            ));
        }
        if flags.atomics && !flags.fine_grain {
            return Err(Error::InvalidValue(
                "CL_MEM_SVM_ATOMICS without CL_MEM_SVM_FINE_GRAIN_BUFFER".into(),
            ));
        }
        if alignment != 0 && (!alignment.is_power_of_two() || alignment > MAX_SVM_ALIGN) {
            return Err(Error::InvalidValue(format!(
                "alignment {alignment} is not a power of two up to {MAX_SVM_ALIGN}"
            )));
        }
        // The guards keep the allocation's alignment: `pad` is a multiple of it.
        let align = alignment.max(SVM_MIN_ALIGN);
        let pad = align.max(exec::SVM_GUARD as usize);
        let layout = size
            .checked_add(2 * pad)
            .and_then(|total| Layout::from_size_align(total, align).ok())
            .ok_or(Error::InvalidBufferSize(size))?;
        // SAFETY: the layout has a non-zero size.
        let block = unsafe { std::alloc::alloc_zeroed(layout) };
        let block = NonNull::new(block).ok_or(Error::OutOfHostMemory(size))?;
        // SAFETY: `pad + size` bytes lie inside the block.
        let ptr = unsafe { block.add(pad) };
        let svm = Svm {
            inner: Arc::new(SvmStorage {
                ptr,
                size,
                block,
                layout,
                flags,
            }),
        };
        context
            .svm_table()
            .lock()
            .insert(ptr.as_ptr() as usize, svm.clone());
        Ok(svm)
    }

    /// The first byte (what `clSVMAlloc` returns).
    pub fn as_ptr(&self) -> *mut u8 {
        self.inner.ptr.as_ptr()
    }

    pub fn size(&self) -> usize {
        self.inner.size
    }

    pub fn flags(&self) -> SvmFlags {
        self.inner.flags
    }

    /// Whether `len` bytes at `addr` lie inside this allocation.
    pub fn contains(&self, addr: usize, len: usize) -> bool {
        let base = self.as_ptr() as usize;
        addr >= base && addr - base <= self.size() && len <= self.size() - (addr - base)
    }
}

/// The largest alignment `Svm::new` accepts (a page of the largest common size).
pub const MAX_SVM_ALIGN: usize = 1 << 16;

impl Context {
    /// `clSVMFree`: removes the allocation starting at `ptr` from the context; its memory is
    /// freed once no kernel launch uses it any more. Returns whether there was one.
    pub fn svm_free(&self, ptr: *const u8) -> bool {
        self.svm_table().lock().remove(&(ptr as usize)).is_some()
    }

    /// The live allocation containing the byte at `ptr`.
    pub fn svm_find(&self, ptr: *const u8) -> Option<Svm> {
        let addr = ptr as usize;
        let live = self.svm_table().lock();
        let (_, svm) = live.range(..=addr).next_back()?;
        (addr - (svm.as_ptr() as usize) < svm.size()).then(|| svm.clone())
    }

    /// Every live allocation and those of `extra` (kept alive by the caller while a launch
    /// runs), and the `exec::SvmSpace` naming them.
    pub(crate) fn svm_snapshot<'a>(
        &self,
        extra: impl Iterator<Item = &'a Svm>,
    ) -> (Vec<Svm>, exec::SvmSpace) {
        let mut keep: Vec<Svm> = self.svm_table().lock().values().cloned().collect();
        for svm in extra {
            if !keep.iter().any(|k| k.as_ptr() == svm.as_ptr()) {
                keep.push(svm.clone());
            }
        }
        let space = exec::SvmSpace::new(
            keep.iter()
                .map(|s| exec::SvmRange {
                    base: s.as_ptr(),
                    len: s.size(),
                    read_only: s.flags().read_only,
                })
                .collect(),
        );
        (keep, space)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn context() -> Context {
        Context::new(std::sync::Arc::new(crate::Device::host_cpu()))
    }

    /// Allocation, lookup and free through a context; the memory outlives `svm_free` while
    /// referenced.
    #[test]
    fn alloc_find_free() {
        let c = context();
        let flags = SvmFlags::default();
        let a = Svm::new(&c, flags, 100, 0).unwrap();
        let b = Svm::new(&c, flags, 8, 4096).unwrap();
        assert_eq!(b.as_ptr() as usize % 4096, 0);
        assert_eq!(a.as_ptr() as usize % SVM_MIN_ALIGN, 0);
        let inside = a.as_ptr().wrapping_add(99);
        assert_eq!(c.svm_find(inside).map(|s| s.as_ptr()), Some(a.as_ptr()));
        assert!(c
            .svm_find(a.as_ptr().wrapping_add(100))
            .is_none_or(|s| s.as_ptr() != a.as_ptr()));
        assert!(a.contains(a.as_ptr() as usize + 50, 50));
        assert!(!a.contains(a.as_ptr() as usize + 50, 51));
        assert_eq!(c.svm_snapshot(std::iter::empty()).0.len(), 2);
        assert!(c.svm_free(a.as_ptr()));
        assert!(!c.svm_free(a.as_ptr()));
        assert!(c.svm_find(inside).is_none());
        // `a` still holds the memory.
        // SAFETY: `a` keeps the allocation alive.
        unsafe { *inside = 7 };
        assert!(Svm::new(&c, flags, 0, 0).is_err());
        assert!(Svm::new(&c, flags, 8, 3).is_err());
        let atomics_only = SvmFlags {
            atomics: true,
            ..flags
        };
        assert!(Svm::new(&c, atomics_only, 8, 0).is_err());
    }
}
