//! Buffer objects (API 5.2): device memory in host RAM, aligned for every OpenCL C type.
//!
//! A buffer created with `CL_MEM_USE_HOST_PTR` on memory of an SVM allocation (API 5.2.1: "If
//! host_ptr is a pointer returned by clSVMAlloc … the buffer is created using that SVM memory")
//! is that memory: it keeps the allocation alive and reaches kernels as the host address itself
//! (an SVM pointer, `exec::svm`), so pointers a kernel derives from it are the addresses the host
//! and other kernels see through the SVM pointer, and the other way round. Its sub-buffers too.

use std::alloc::Layout;
use std::ptr::NonNull;
use std::sync::{Arc, Mutex, MutexGuard};

use crate::{Context, Error, Result};

/// Buffers are aligned to 128 bytes, the size of the largest OpenCL C type (`long16`/`double16`),
/// which is also `CL_DEVICE_MEM_BASE_ADDR_ALIGN` in bytes (1024 bits).
pub const BUFFER_ALIGN: usize = 128;

/// Memory flags (`cl_mem_flags`, API 5.2.1) that change behaviour here.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct MemFlags {
    /// `CL_MEM_READ_ONLY`: kernels may not write it.
    pub read_only: bool,
    /// `CL_MEM_WRITE_ONLY`: kernels may not read it.
    pub write_only: bool,
}

/// A buffer. Clones share the same memory.
#[derive(Clone)]
pub struct Buffer {
    inner: Arc<Storage>,
}

impl std::fmt::Debug for Buffer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Buffer")
            .field("size", &self.size())
            .finish()
    }
}

struct Storage {
    ptr: NonNull<u8>,
    size: usize,
    /// Where the memory came from: our allocation (freed on drop) or the host's (`use_host_ptr`).
    owned: bool,
    flags: MemFlags,
    /// Held while the host or a kernel accesses the memory; a sub-buffer shares its parent's.
    lock: Arc<Mutex<()>>,
    /// The buffer a sub-buffer lies in (kept alive as long as the sub-buffer) and its offset there.
    parent: Option<(Buffer, usize)>,
    /// The SVM allocation the memory lies in (`use_host_ptr` on SVM memory; sub-buffers inherit
    /// it), kept alive as long as the buffer.
    svm: Option<crate::Svm>,
}

// SAFETY: the memory is only accessed through `Buffer`'s methods, which hold `lock`, or by a
// kernel launch, which holds the locks of all its buffers for the whole run.
unsafe impl Send for Storage {}
unsafe impl Sync for Storage {}

impl Drop for Storage {
    fn drop(&mut self) {
        if self.owned {
            // SAFETY: allocated in `Buffer::new` with this layout.
            unsafe { std::alloc::dealloc(self.ptr.as_ptr(), layout(self.size)) };
        }
    }
}

fn layout(size: usize) -> Layout {
    // `size` was checked against the device's maximum allocation, far below isize::MAX.
    Layout::from_size_align(size, BUFFER_ALIGN).unwrap_or(Layout::new::<u8>())
}

impl Buffer {
    /// A zero-filled buffer of `size` bytes (`clCreateBuffer` without a host pointer).
    pub fn new(context: &Context, flags: MemFlags, size: usize) -> Result<Buffer> {
        let max = context.device().max_mem_alloc_size;
        if size == 0 || size as u64 > max {
            return Err(Error::InvalidBufferSize(size));
        }
        if flags.read_only && flags.write_only {
            return Err(Error::InvalidValue(
                "CL_MEM_READ_ONLY together with CL_MEM_WRITE_ONLY".into(),
            ));
        }
        // SAFETY: the layout has a non-zero size.
        let ptr = unsafe { std::alloc::alloc_zeroed(layout(size)) };
        let ptr = NonNull::new(ptr).ok_or(Error::OutOfHostMemory(size))?;
        Ok(Buffer {
            inner: Arc::new(Storage {
                ptr,
                size,
                owned: true,
                flags,
                lock: Arc::default(),
                parent: None,
                svm: None,
            }),
        })
    }

    /// A buffer initialised with a copy of `data` (`CL_MEM_COPY_HOST_PTR`).
    pub fn from_slice(context: &Context, flags: MemFlags, data: &[u8]) -> Result<Buffer> {
        let buffer = Buffer::new(context, flags, data.len())?;
        buffer.write(0, data)?;
        Ok(buffer)
    }

    /// A buffer that uses the host's memory directly (`CL_MEM_USE_HOST_PTR`). When `ptr` lies in
    /// a live SVM allocation of `context`, the buffer must lie inside it (API 5.2.1
    /// `CL_INVALID_BUFFER_SIZE`: "host_ptr is a pointer returned by clSVMAlloc and size is greater
    /// than the size passed to clSVMAlloc") and is created on that SVM memory (module doc).
    ///
    /// # Safety
    /// `ptr` must be valid for reads and writes of `size` bytes for as long as any clone of the
    /// returned buffer lives, and must not be accessed otherwise while a command uses it.
    pub unsafe fn use_host_ptr(
        context: &Context,
        flags: MemFlags,
        ptr: *mut u8,
        size: usize,
    ) -> Result<Buffer> {
        let max = context.device().max_mem_alloc_size;
        if size == 0 || size as u64 > max {
            return Err(Error::InvalidBufferSize(size));
        }
        let ptr =
            NonNull::new(ptr).ok_or_else(|| Error::InvalidHostPtr("null host pointer".into()))?;
        let svm = context.svm_find(ptr.as_ptr());
        if let Some(svm) = &svm {
            if !svm.contains(ptr.as_ptr() as usize, size) {
                return Err(Error::InvalidBufferSize(size));
            }
        }
        Ok(Buffer {
            inner: Arc::new(Storage {
                ptr,
                size,
                owned: false,
                flags,
                lock: Arc::default(),
                parent: None,
                svm,
            }),
        })
    }

    pub fn size(&self) -> usize {
        self.inner.size
    }

    pub fn flags(&self) -> MemFlags {
        self.inner.flags
    }

    /// Two handles to the same memory?
    pub fn same(&self, other: &Buffer) -> bool {
        Arc::ptr_eq(&self.inner, &other.inner)
    }

    fn check_range(&self, offset: usize, len: usize) -> Result<()> {
        match offset.checked_add(len) {
            Some(end) if end <= self.size() => Ok(()),
            _ => Err(Error::OutOfBounds(format!(
                "range {offset}..{} of a buffer of {} bytes",
                offset.saturating_add(len),
                self.size()
            ))),
        }
    }

    /// Copies `out.len()` bytes from `offset` into `out`.
    pub fn read(&self, offset: usize, out: &mut [u8]) -> Result<()> {
        self.check_range(offset, out.len())?;
        let _guard = self.lock();
        // SAFETY: in bounds (checked), and the lock excludes kernels and other host accesses.
        unsafe {
            std::ptr::copy_nonoverlapping(
                self.inner.ptr.as_ptr().add(offset),
                out.as_mut_ptr(),
                out.len(),
            )
        };
        Ok(())
    }

    /// Copies `data` to `offset`.
    pub fn write(&self, offset: usize, data: &[u8]) -> Result<()> {
        self.check_range(offset, data.len())?;
        let _guard = self.lock();
        // SAFETY: as in `read`.
        unsafe {
            std::ptr::copy_nonoverlapping(
                data.as_ptr(),
                self.inner.ptr.as_ptr().add(offset),
                data.len(),
            )
        };
        Ok(())
    }

    /// Copies `len` bytes from `src` at `src_offset` to `self` at `dst_offset`; the two ranges of
    /// the same buffer must not overlap (API 5.2.3, `CL_MEM_COPY_OVERLAP`).
    pub fn copy_from(
        &self,
        dst_offset: usize,
        src: &Buffer,
        src_offset: usize,
        len: usize,
    ) -> Result<()> {
        self.check_range(dst_offset, len)?;
        src.check_range(src_offset, len)?;
        if self.same(src) {
            if dst_offset < src_offset + len && src_offset < dst_offset + len {
                return Err(Error::InvalidValue(
                    "overlapping copy within one buffer (CL_MEM_COPY_OVERLAP)".into(),
                ));
            }
            let _guard = self.lock();
            let base = self.inner.ptr.as_ptr();
            // SAFETY: both ranges in bounds and disjoint; lock held.
            unsafe {
                std::ptr::copy_nonoverlapping(base.add(src_offset), base.add(dst_offset), len)
            };
            return Ok(());
        }
        let mut tmp = vec![0u8; len];
        src.read(src_offset, &mut tmp)?;
        self.write(dst_offset, &tmp)
    }

    /// Fills `len` bytes at `offset` with repetitions of `pattern` (`clEnqueueFillBuffer`).
    pub fn fill(&self, pattern: &[u8], offset: usize, len: usize) -> Result<()> {
        if pattern.is_empty() || offset % pattern.len() != 0 || len % pattern.len() != 0 {
            return Err(Error::InvalidValue(
                "fill offset and size must be multiples of the pattern size".into(),
            ));
        }
        let data: Vec<u8> = pattern.iter().copied().cycle().take(len).collect();
        self.write(offset, &data)
    }

    /// The whole contents.
    pub fn to_vec(&self) -> Vec<u8> {
        let mut out = vec![0u8; self.size()];
        // Cannot fail: the range is the whole buffer.
        let _ = self.read(0, &mut out);
        out
    }

    pub(crate) fn lock(&self) -> MutexGuard<'_, ()> {
        self.inner
            .lock
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Identifies the lock: buffers with the same id must be locked once (a sub-buffer and its
    /// parent share one).
    pub(crate) fn lock_id(&self) -> usize {
        Arc::as_ptr(&self.inner.lock) as usize
    }

    /// The SVM allocation this buffer's memory lies in (module doc), if any.
    pub fn svm(&self) -> Option<&crate::Svm> {
        self.inner.svm.as_ref()
    }

    /// The memory, for a kernel launch that holds [`Buffer::lock`].
    pub(crate) fn raw(&self) -> (*mut u8, usize) {
        (self.inner.ptr.as_ptr(), self.inner.size)
    }

    /// Runs `f` with the host address of each of `buffers` while every one of them is locked,
    /// as a kernel launch locks its buffers (each lock once, in a fixed order, so two commands
    /// sharing buffers cannot deadlock): a native kernel's view of its memory objects
    /// (API 5.10, `clEnqueueNativeKernel`).
    pub fn with_locked<R>(buffers: &[&Buffer], f: impl FnOnce(&[*mut u8]) -> R) -> R {
        let mut order: Vec<&Buffer> = buffers.to_vec();
        order.sort_by_key(|b| b.lock_id());
        order.dedup_by(|a, b| a.lock_id() == b.lock_id());
        let _guards: Vec<_> = order.iter().map(|b| b.lock()).collect();
        let addresses: Vec<*mut u8> = buffers.iter().map(|b| b.host_address()).collect();
        f(&addresses)
    }
}

/// A rectangular region's placement in linear memory (API 5.2.3 `clEnqueueReadBufferRect`): the
/// origin in bytes, rows and slices, and the pitches in bytes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RectLayout {
    pub origin: [usize; 3],
    pub row_pitch: usize,
    pub slice_pitch: usize,
}

impl RectLayout {
    /// API 5.2.3: a pitch of 0 means "tightly packed": `row_pitch = region[0]`,
    /// `slice_pitch = region[1] * row_pitch`.
    pub fn new(
        origin: [usize; 3],
        row_pitch: usize,
        slice_pitch: usize,
        region: [usize; 3],
    ) -> RectLayout {
        let row_pitch = if row_pitch == 0 { region[0] } else { row_pitch };
        let slice_pitch = if slice_pitch == 0 {
            region[1].saturating_mul(row_pitch)
        } else {
            slice_pitch
        };
        RectLayout {
            origin,
            row_pitch,
            slice_pitch,
        }
    }

    /// The byte offset of row `y` of slice `z` of the region.
    fn row_offset(&self, y: usize, z: usize) -> Option<usize> {
        let slice = (self.origin[2].checked_add(z)?).checked_mul(self.slice_pitch)?;
        let row = (self.origin[1].checked_add(y)?).checked_mul(self.row_pitch)?;
        slice.checked_add(row)?.checked_add(self.origin[0])
    }

    /// One past the last byte the region touches (0 for an empty region), or `None` on overflow.
    pub fn extent(&self, region: [usize; 3]) -> Option<usize> {
        if region.contains(&0) {
            return Some(0);
        }
        self.row_offset(region[1] - 1, region[2] - 1)?
            .checked_add(region[0])
    }

    /// API 5.2.3 `CL_INVALID_VALUE`: "row_pitch is not 0 and is less than region[0]" and
    /// "slice_pitch is not 0 and is less than region[1] × row_pitch" (checked on the resolved
    /// pitches, which is equivalent), and "slice_pitch is not 0 and is not a multiple of row_pitch".
    pub fn check_pitches(&self, region: [usize; 3]) -> Result<()> {
        if self.row_pitch < region[0] {
            return Err(Error::InvalidValue(format!(
                "row pitch {} is less than region[0] {}",
                self.row_pitch, region[0]
            )));
        }
        if self.slice_pitch < region[1].saturating_mul(self.row_pitch) {
            return Err(Error::InvalidValue(format!(
                "slice pitch {} is less than region[1] × row pitch {}",
                self.slice_pitch,
                region[1].saturating_mul(self.row_pitch)
            )));
        }
        if self.row_pitch != 0 && self.slice_pitch % self.row_pitch != 0 {
            return Err(Error::InvalidValue(
                "slice pitch is not a multiple of the row pitch".into(),
            ));
        }
        Ok(())
    }

    /// The (offset, length) of each row of the region, slice by slice.
    fn rows(&self, region: [usize; 3]) -> impl Iterator<Item = usize> + '_ {
        (0..region[2]).flat_map(move |z| {
            (0..region[1]).map(move |y| self.row_offset(y, z).unwrap_or(usize::MAX))
        })
    }
}

impl Buffer {
    /// `clCreateSubBuffer` with `CL_BUFFER_CREATE_TYPE_REGION`: `size` bytes at `origin` of this
    /// buffer, sharing its memory (and its lock).
    pub fn sub_buffer(&self, flags: MemFlags, origin: usize, size: usize) -> Result<Buffer> {
        if size == 0 {
            return Err(Error::InvalidBufferSize(0));
        }
        self.check_range(origin, size)?;
        // SAFETY: `origin + size` lies within the buffer (checked).
        let ptr = unsafe { NonNull::new_unchecked(self.inner.ptr.as_ptr().add(origin)) };
        Ok(Buffer {
            inner: Arc::new(Storage {
                ptr,
                size,
                owned: false,
                flags,
                lock: self.inner.lock.clone(),
                parent: Some((self.clone(), origin)),
                svm: self.inner.svm.clone(),
            }),
        })
    }

    /// The buffer a sub-buffer was created from and its offset there.
    pub fn parent(&self) -> Option<(&Buffer, usize)> {
        self.inner.parent.as_ref().map(|(b, o)| (b, *o))
    }

    /// The address of the first byte (what `clEnqueueMapBuffer` returns, plus the offset): the
    /// memory stays valid as long as any clone of the buffer lives.
    pub fn host_address(&self) -> *mut u8 {
        self.inner.ptr.as_ptr()
    }

    fn check_rect(&self, layout: &RectLayout, region: [usize; 3]) -> Result<()> {
        layout.check_pitches(region)?;
        match layout.extent(region) {
            Some(end) if end <= self.size() => Ok(()),
            _ => Err(Error::OutOfBounds(format!(
                "rectangle {region:?} at {layout:?} outside a buffer of {} bytes",
                self.size()
            ))),
        }
    }

    /// `clEnqueueReadBufferRect`: copies `region` from this buffer at `layout` to `host` at
    /// `host_layout`.
    pub fn read_rect(
        &self,
        layout: &RectLayout,
        host: &mut [u8],
        host_layout: &RectLayout,
        region: [usize; 3],
    ) -> Result<()> {
        self.check_rect(layout, region)?;
        check_host_rect(host.len(), host_layout, region)?;
        let _guard = self.lock();
        for (src, dst) in layout.rows(region).zip(host_layout.rows(region)) {
            // SAFETY: every row lies within the buffer (check_rect); the lock is held.
            unsafe {
                std::ptr::copy_nonoverlapping(
                    self.inner.ptr.as_ptr().add(src),
                    host[dst..].as_mut_ptr(),
                    region[0],
                )
            };
        }
        Ok(())
    }

    /// `clEnqueueWriteBufferRect`.
    pub fn write_rect(
        &self,
        layout: &RectLayout,
        host: &[u8],
        host_layout: &RectLayout,
        region: [usize; 3],
    ) -> Result<()> {
        self.check_rect(layout, region)?;
        check_host_rect(host.len(), host_layout, region)?;
        let _guard = self.lock();
        for (dst, src) in layout.rows(region).zip(host_layout.rows(region)) {
            // SAFETY: as in `read_rect`.
            unsafe {
                std::ptr::copy_nonoverlapping(
                    host[src..].as_ptr(),
                    self.inner.ptr.as_ptr().add(dst),
                    region[0],
                )
            };
        }
        Ok(())
    }

    /// `clEnqueueCopyBufferRect`: from `src` at `src_layout` to this buffer at `layout`.
    pub fn copy_rect_from(
        &self,
        layout: &RectLayout,
        src: &Buffer,
        src_layout: &RectLayout,
        region: [usize; 3],
    ) -> Result<()> {
        self.check_rect(layout, region)?;
        src.check_rect(src_layout, region)?;
        let packed = RectLayout::new([0; 3], 0, 0, region);
        let mut tmp = vec![0u8; packed.extent(region).unwrap_or(0)];
        src.read_rect(src_layout, &mut tmp, &packed, region)?;
        self.write_rect(layout, &tmp, &packed, region)
    }
}

fn check_host_rect(len: usize, layout: &RectLayout, region: [usize; 3]) -> Result<()> {
    layout.check_pitches(region)?;
    match layout.extent(region) {
        Some(end) if end <= len => Ok(()),
        _ => Err(Error::OutOfBounds(format!(
            "host rectangle {region:?} at {layout:?} outside {len} bytes"
        ))),
    }
}
