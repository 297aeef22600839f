//! Shared virtual memory (API 5.6): `clSVMAlloc`/`clSVMFree`, the SVM enqueue commands,
//! `clSetKernelArgSVMPointer` and `clSetKernelExecInfo`, over `runtime::Svm`.
//!
//! The device reports coarse- and fine-grained buffer SVM, fine-grained system SVM and atomics
//! (`CL_DEVICE_SVM_CAPABILITIES`). The CPU and the host share one coherent memory, so an SVM
//! pointer is the same address on both sides, map and unmap are synchronisation points only,
//! and every live allocation of the context is reachable from every kernel (which is what
//! `CL_KERNEL_EXEC_INFO_SVM_PTRS` asks for). Kernel accesses are checked against the live
//! allocations and, when the kernel was given system memory (an argument outside every
//! allocation, or `CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM` set to `CL_TRUE`:
//! `runtime::Kernel::reaches_system_memory`), against the memory the process has mapped
//! (`exec::svm`): outside them a kernel fails with an execution error, never touching unmapped
//! memory.

use std::ffi::c_void;

use crate::consts::*;
use crate::context::ContextObj;
use crate::entry::{code, guard, HostPtr};
use crate::handle::Obj;
use crate::kernel::KernelObj;
use crate::queue::{begin, Command};
use crate::types::*;

/// What `CL_DEVICE_SVM_CAPABILITIES` reports.
pub const SVM_CAPABILITIES: u64 = CL_DEVICE_SVM_COARSE_GRAIN_BUFFER
    | CL_DEVICE_SVM_FINE_GRAIN_BUFFER
    | CL_DEVICE_SVM_FINE_GRAIN_SYSTEM
    | CL_DEVICE_SVM_ATOMICS;

/// The `cl_svm_mem_flags` of the SVM Memory Flags table, or `None` when they break its rules.
fn svm_flags(flags: cl_svm_mem_flags) -> Option<runtime::SvmFlags> {
    let access = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
    let known = access | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS;
    // Unknown bits, or more than one access qualifier.
    if flags & !known != 0 || (flags & access).count_ones() > 1 {
        return None;
    }
    Some(runtime::SvmFlags {
        read_only: flags & CL_MEM_READ_ONLY != 0,
        write_only: flags & CL_MEM_WRITE_ONLY != 0,
        fine_grain: flags & CL_MEM_SVM_FINE_GRAIN_BUFFER != 0,
        atomics: flags & CL_MEM_SVM_ATOMICS != 0,
    })
}

/// `clSVMAlloc` (API 5.6.1): NULL on any failure, "like malloc".
pub unsafe extern "C" fn clSVMAlloc(
    context: cl_context,
    flags: cl_svm_mem_flags,
    size: usize,
    alignment: cl_uint,
) -> *mut c_void {
    let r = std::panic::catch_unwind(|| {
        // "context is not a valid context"; flags not following the table; "CL_MEM_SVM_ATOMICS
        // without CL_MEM_SVM_FINE_GRAIN_BUFFER", size and alignment rules (runtime::Svm::new).
        let c = Obj::<ContextObj>::get(context).ok()?;
        let flags = svm_flags(flags)?;
        let svm = runtime::Svm::new(&c.context, flags, size, alignment as usize).ok()?;
        Some(svm.as_ptr().cast::<c_void>())
    });
    r.ok().flatten().unwrap_or(std::ptr::null_mut())
}

/// `clSVMFree` (API 5.6.1): frees an allocation of `context`; anything else (NULL, a pointer
/// `clSVMAlloc` did not return, an invalid context) is ignored.
pub unsafe extern "C" fn clSVMFree(context: cl_context, svm_pointer: *mut c_void) {
    let _ = std::panic::catch_unwind(|| {
        if let Ok(c) = Obj::<ContextObj>::get(context) {
            c.context.svm_free(svm_pointer.cast::<u8>());
        }
    });
}

/// The callback type of `clEnqueueSVMFree`.
pub type SvmFreeCallback =
    unsafe extern "C" fn(cl_command_queue, cl_uint, *mut *mut c_void, *mut c_void);

/// `clEnqueueSVMFree`: frees the pointers (or calls the application's callback with them)
/// when the command runs.
pub unsafe extern "C" fn clEnqueueSVMFree(
    queue: cl_command_queue,
    num_svm_pointers: cl_uint,
    svm_pointers: *mut *mut c_void,
    free_func: Option<SvmFreeCallback>,
    user_data: *mut c_void,
    num_events: cl_uint,
    events: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    guard(|| {
        // SAFETY: the caller's wait list.
        let (q, wait_for) = unsafe { begin(queue, num_events, events) }?;
        // "CL_INVALID_VALUE if num_svm_pointers is 0 and svm_pointers is non-NULL, or if
        // svm_pointers is NULL and num_svm_pointers is not 0."
        if (num_svm_pointers == 0) != svm_pointers.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        let pointers: Vec<HostPtr> = (0..num_svm_pointers as usize)
            // SAFETY: `num_svm_pointers` readable pointers.
            .map(|i| HostPtr(unsafe { *svm_pointers.add(i) }))
            .collect();
        let context = q.context.context.clone();
        let queue_handle = HostPtr(queue);
        let user_data = HostPtr(user_data);
        let command = Command {
            queue: &q,
            command_type: CL_COMMAND_SVM_FREE,
            wait_for,
            blocking: false,
            event_out: event,
            kind: runtime::commands::CommandKind::Command,
        };
        command.submit(Box::new(move || {
            let (queue_handle, user_data) = (queue_handle, user_data);
            match free_func {
                Some(callback) => {
                    let mut list: Vec<*mut c_void> = pointers.iter().map(|p| p.0).collect();
                    // SAFETY: the application's callback with its own data; "the list of SVM
                    // pointers to free" is our copy of the array it gave.
                    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| unsafe {
                        callback(
                            queue_handle.0,
                            num_svm_pointers,
                            list.as_mut_ptr(),
                            user_data.0,
                        )
                    }));
                }
                None => {
                    for p in &pointers {
                        context.svm_free(p.0.cast::<u8>());
                    }
                }
            }
            Ok(())
        }))
    })
}

/// Whether `[a, a + n)` and `[b, b + n)` overlap.
fn overlap(a: usize, b: usize, n: usize) -> bool {
    n > 0 && a < b.saturating_add(n) && b < a.saturating_add(n)
}

/// A range starting inside an SVM allocation of the queue's context must end inside it
/// (memory safety of the copy; outside SVM the application's promise is all there is, as for
/// `clEnqueueWriteBuffer`'s host pointer).
fn check_svm_range(context: &runtime::Context, ptr: *const c_void, size: usize) -> ClResult<()> {
    match context.svm_find(ptr.cast::<u8>()) {
        Some(svm) if !svm.contains(ptr as usize, size) => Err(CL_INVALID_VALUE),
        _ => Ok(()),
    }
}

type ClResult<T> = crate::entry::ClResult<T>;

/// `clEnqueueSVMMemcpy`.
pub unsafe extern "C" fn clEnqueueSVMMemcpy(
    queue: cl_command_queue,
    blocking_copy: cl_bool,
    dst_ptr: *mut c_void,
    src_ptr: *const c_void,
    size: usize,
    num_events: cl_uint,
    events: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    guard(|| {
        // SAFETY: the caller's wait list.
        let (q, wait_for) = unsafe { begin(queue, num_events, events) }?;
        // "CL_INVALID_VALUE if dst_ptr is NULL, if src_ptr is NULL".
        if dst_ptr.is_null() || src_ptr.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        // "CL_MEM_COPY_OVERLAP if the values specified for dst_ptr, src_ptr and size result in
        // an overlapping copy."
        if overlap(dst_ptr as usize, src_ptr as usize, size) {
            return Err(CL_MEM_COPY_OVERLAP);
        }
        check_svm_range(&q.context.context, dst_ptr, size)?;
        check_svm_range(&q.context.context, src_ptr, size)?;
        let (dst, src) = (HostPtr(dst_ptr), HostPtr(src_ptr as *mut c_void));
        let command = Command {
            queue: &q,
            command_type: CL_COMMAND_SVM_MEMCPY,
            wait_for,
            blocking: blocking_copy != 0,
            event_out: event,
            kind: runtime::commands::CommandKind::Command,
        };
        command.submit(Box::new(move || {
            let (dst, src) = (dst, src);
            if size > 0 {
                // SAFETY: the application gives `size` bytes at each pointer (inside their SVM
                // allocations when they are SVM pointers, checked above); no overlap.
                unsafe {
                    std::ptr::copy_nonoverlapping(src.0 as *const u8, dst.0 as *mut u8, size)
                };
            }
            Ok(())
        }))
    })
}

/// `clEnqueueSVMMemFill`.
pub unsafe extern "C" fn clEnqueueSVMMemFill(
    queue: cl_command_queue,
    svm_ptr: *mut c_void,
    pattern: *const c_void,
    pattern_size: usize,
    size: usize,
    num_events: cl_uint,
    events: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    guard(|| {
        // SAFETY: the caller's wait list.
        let (q, wait_for) = unsafe { begin(queue, num_events, events) }?;
        // "CL_INVALID_VALUE if svm_ptr is NULL, if svm_ptr is not aligned to pattern_size
        // bytes, if pattern is NULL, if pattern_size is zero, if pattern_size is not a power of
        // two, if pattern_size is greater than 128, if size is not a multiple of pattern_size".
        if svm_ptr.is_null()
            || pattern.is_null()
            || !pattern_size.is_power_of_two()
            || pattern_size > 128
            || !(svm_ptr as usize).is_multiple_of(pattern_size)
            || !size.is_multiple_of(pattern_size)
        {
            return Err(CL_INVALID_VALUE);
        }
        check_svm_range(&q.context.context, svm_ptr, size)?;
        // SAFETY: `pattern_size` readable bytes (the pattern is copied at enqueue time).
        let bytes = unsafe { std::slice::from_raw_parts(pattern as *const u8, pattern_size) };
        let bytes = bytes.to_vec();
        let dst = HostPtr(svm_ptr);
        let command = Command {
            queue: &q,
            command_type: CL_COMMAND_SVM_MEMFILL,
            wait_for,
            blocking: false,
            event_out: event,
            kind: runtime::commands::CommandKind::Command,
        };
        command.submit(Box::new(move || {
            let dst = dst;
            // SAFETY: the application gives `size` writable bytes at `svm_ptr`.
            let out = unsafe { std::slice::from_raw_parts_mut(dst.0 as *mut u8, size) };
            for chunk in out.chunks_exact_mut(bytes.len()) {
                chunk.copy_from_slice(&bytes);
            }
            Ok(())
        }))
    })
}

/// A command that only orders itself in the queue (SVM map, unmap and migration: the device
/// works in host memory directly).
fn sync_point(
    q: &std::sync::Arc<Obj<crate::queue::QueueObj>>,
    command_type: cl_uint,
    wait_for: Vec<std::sync::Arc<Obj<crate::event::EventObj>>>,
    blocking: bool,
    event: *mut cl_event,
) -> ClResult<()> {
    Command {
        queue: q,
        command_type,
        wait_for,
        blocking,
        event_out: event,
        kind: runtime::commands::CommandKind::Command,
    }
    .submit(Box::new(|| Ok(())))
}

/// `clEnqueueSVMMap`: the memory is the host's already; the command completes in order.
pub unsafe extern "C" fn clEnqueueSVMMap(
    queue: cl_command_queue,
    blocking_map: cl_bool,
    map_flags: cl_map_flags,
    svm_ptr: *mut c_void,
    size: usize,
    num_events: cl_uint,
    events: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    guard(|| {
        // SAFETY: the caller's wait list.
        let (q, wait_for) = unsafe { begin(queue, num_events, events) }?;
        // "CL_INVALID_VALUE if svm_ptr is NULL, if size is zero, if values specified in
        // map_flags are not valid" (CL_MAP_WRITE_INVALIDATE_REGION excludes the others).
        let known = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
        if svm_ptr.is_null()
            || size == 0
            || map_flags & !known != 0
            || (map_flags & CL_MAP_WRITE_INVALIDATE_REGION != 0
                && map_flags & (CL_MAP_READ | CL_MAP_WRITE) != 0)
        {
            return Err(CL_INVALID_VALUE);
        }
        check_svm_range(&q.context.context, svm_ptr, size)?;
        sync_point(&q, CL_COMMAND_SVM_MAP, wait_for, blocking_map != 0, event)
    })
}

/// `clEnqueueSVMUnmap`.
pub unsafe extern "C" fn clEnqueueSVMUnmap(
    queue: cl_command_queue,
    svm_ptr: *mut c_void,
    num_events: cl_uint,
    events: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    guard(|| {
        // SAFETY: the caller's wait list.
        let (q, wait_for) = unsafe { begin(queue, num_events, events) }?;
        // "CL_INVALID_VALUE if svm_ptr is NULL".
        if svm_ptr.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        sync_point(&q, CL_COMMAND_SVM_UNMAP, wait_for, false, event)
    })
}

/// `clEnqueueSVMMigrateMem`: host and device memory are one, so nothing moves.
pub unsafe extern "C" fn clEnqueueSVMMigrateMem(
    queue: cl_command_queue,
    num_svm_pointers: cl_uint,
    svm_pointers: *const *const c_void,
    sizes: *const usize,
    flags: cl_mem_migration_flags,
    num_events: cl_uint,
    events: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    guard(|| {
        // SAFETY: the caller's wait list.
        let (q, wait_for) = unsafe { begin(queue, num_events, events) }?;
        // "CL_INVALID_VALUE if num_svm_pointers is zero, if svm_pointers is NULL, if flags is
        // not zero and is not a valid combination", and "if sizes[i] is non-zero and the memory
        // range ... is not contained within an SVM allocation returned by clSVMAlloc".
        let known = CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED;
        if num_svm_pointers == 0 || svm_pointers.is_null() || flags & !known != 0 {
            return Err(CL_INVALID_VALUE);
        }
        for i in 0..num_svm_pointers as usize {
            // SAFETY: `num_svm_pointers` readable entries in each array (sizes may be NULL).
            let (ptr, size) = unsafe {
                (
                    *svm_pointers.add(i),
                    if sizes.is_null() { 0 } else { *sizes.add(i) },
                )
            };
            let inside = q
                .context
                .context
                .svm_find(ptr.cast::<u8>())
                .is_some_and(|svm| svm.contains(ptr as usize, size));
            if ptr.is_null() || !inside {
                return Err(CL_INVALID_VALUE);
            }
        }
        sync_point(&q, CL_COMMAND_SVM_MIGRATE_MEM, wait_for, false, event)
    })
}

/// `clSetKernelArgSVMPointer` (API 5.9.2): the argument is the host address itself.
pub unsafe extern "C" fn clSetKernelArgSVMPointer(
    kernel: cl_kernel,
    arg_index: cl_uint,
    arg_value: *const c_void,
) -> cl_int {
    guard(|| {
        let k = Obj::<KernelObj>::get(kernel)?;
        // "CL_INVALID_ARG_INDEX if arg_index is not a valid argument index"; "CL_INVALID_ARG_VALUE
        // if arg_value specified is not a valid value" (not a global or constant pointer).
        k.kernel
            .set_arg_svm(arg_index, arg_value.cast::<u8>())
            .map_err(code)
    })
}

/// `clSetKernelExecInfo` (API 5.9.3).
pub unsafe extern "C" fn clSetKernelExecInfo(
    kernel: cl_kernel,
    param_name: cl_kernel_exec_info,
    param_value_size: usize,
    param_value: *const c_void,
) -> cl_int {
    guard(|| {
        let k = Obj::<KernelObj>::get(kernel)?;
        // "CL_INVALID_VALUE if param_name is not valid, if param_value is NULL and
        // param_value_size is greater than zero, or if the size specified by param_value_size is
        // not valid."
        if param_value.is_null() && param_value_size > 0 {
            return Err(CL_INVALID_VALUE);
        }
        match param_name {
            // An array of SVM pointers the kernel uses besides its arguments: every live
            // allocation of the context is reachable by every kernel here, so the list needs no
            // recording.
            CL_KERNEL_EXEC_INFO_SVM_PTRS => {
                if !param_value_size.is_multiple_of(std::mem::size_of::<*const c_void>()) {
                    return Err(CL_INVALID_VALUE);
                }
                Ok(())
            }
            CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM => {
                if param_value_size != std::mem::size_of::<cl_bool>() || param_value.is_null() {
                    return Err(CL_INVALID_VALUE);
                }
                // SAFETY: a readable cl_bool.
                let on = unsafe { *(param_value as *const cl_bool) } != CL_FALSE;
                // "CL_INVALID_OPERATION if ... param_value is CL_TRUE and no devices in the
                // context associated with kernel support fine-grain system SVM allocations."
                // The device does: host memory is reachable from every launch either way
                // (with CL_FALSE, undefined behaviour may be what CL_TRUE defines).
                if on && SVM_CAPABILITIES & CL_DEVICE_SVM_FINE_GRAIN_SYSTEM == 0 {
                    return Err(CL_INVALID_OPERATION);
                }
                k.kernel.set_fine_grain_system(on);
                Ok(())
            }
            _ => Err(CL_INVALID_VALUE),
        }
    })
}
