//! Native kernels (API 5.10, `clEnqueueNativeKernel`): a host function run as a command of the
//! queue. The device reports `CL_EXEC_NATIVE_KERNEL`: on a CPU the "device" is the host, so
//! the function is called on the queue's worker with a copy of the argument block, in which
//! each memory object handle named by `args_mem_loc` is replaced by the address of the
//! buffer's memory, every buffer being locked (as for a kernel launch) while the function runs.

use std::ffi::c_void;
use std::sync::Arc;

use crate::consts::*;
use crate::entry::guard;
use crate::handle::Obj;
use crate::memory::MemObj;
use crate::queue::{begin, Command};
use crate::types::*;

/// The function a native kernel runs.
type NativeFn = unsafe extern "C" fn(*mut c_void);

/// The copied argument block: 16-byte aligned, as `malloc` would give it.
struct ArgBlock(Vec<u128>);

impl ArgBlock {
    fn copy_of(args: *const u8, len: usize) -> ArgBlock {
        let mut words = vec![0u128; len.div_ceil(16)];
        // SAFETY: the caller gives `len` readable bytes at `args`; the block holds at least
        // `len` bytes.
        unsafe { std::ptr::copy_nonoverlapping(args, words.as_mut_ptr().cast::<u8>(), len) };
        ArgBlock(words)
    }

    fn as_mut_ptr(&mut self) -> *mut u8 {
        self.0.as_mut_ptr().cast()
    }
}

/// `clEnqueueNativeKernel`.
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn clEnqueueNativeKernel(
    queue: cl_command_queue,
    user_func: Option<NativeFn>,
    args: *mut c_void,
    cb_args: usize,
    num_mem_objects: cl_uint,
    mem_list: *const cl_mem,
    args_mem_loc: *const *const c_void,
    num_events: cl_uint,
    events: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    guard(|| {
        // SAFETY: the caller's wait list.
        let (q, wait_for) = unsafe { begin(queue, num_events, events) }?;
        // "CL_INVALID_VALUE if user_func is NULL; if args is a NULL value and cb_args > 0, or
        // if args is a NULL value and num_mem_objects > 0; if args is not NULL and cb_args is
        // 0; if num_mem_objects > 0 and mem_list or args_mem_loc are NULL; if num_mem_objects
        // = 0 and mem_list or args_mem_loc are not NULL."
        let Some(user_func) = user_func else {
            return Err(CL_INVALID_VALUE);
        };
        if (args.is_null() && (cb_args > 0 || num_mem_objects > 0))
            || (!args.is_null() && cb_args == 0)
            || (num_mem_objects > 0 && (mem_list.is_null() || args_mem_loc.is_null()))
            || (num_mem_objects == 0 && (!mem_list.is_null() || !args_mem_loc.is_null()))
        {
            return Err(CL_INVALID_VALUE);
        }
        let mut objects: Vec<(Arc<Obj<MemObj>>, usize)> = Vec::new();
        for i in 0..num_mem_objects as usize {
            // SAFETY: `num_mem_objects` readable entries in each list.
            let (handle, loc) = unsafe { (*mem_list.add(i), *args_mem_loc.add(i)) };
            // "CL_INVALID_MEM_OBJECT if one or more memory objects specified in mem_list are not
            // valid or are not buffer objects."
            let mem = Obj::<MemObj>::get(handle)?;
            if mem.image.is_some() || mem.pipe.is_some() {
                return Err(CL_INVALID_MEM_OBJECT);
            }
            // Each location holds a handle inside the argument block (where the pointer to
            // the memory goes): elsewhere the copy could not be patched.
            let offset = (loc as usize).wrapping_sub(args as usize);
            let handle_size = std::mem::size_of::<cl_mem>();
            if offset > cb_args || cb_args - offset < handle_size {
                return Err(CL_INVALID_VALUE);
            }
            objects.push((mem, offset));
        }
        // The argument block is copied now (the application may reuse it at once).
        let mut block = ArgBlock::copy_of(args as *const u8, cb_args);
        let command = Command {
            queue: &q,
            command_type: CL_COMMAND_NATIVE_KERNEL,
            wait_for,
            blocking: false,
            event_out: event,
            kind: runtime::commands::CommandKind::Command,
        };
        command.submit(Box::new(move || {
            let buffers: Vec<&runtime::Buffer> = objects.iter().map(|(m, _)| &m.buffer).collect();
            runtime::Buffer::with_locked(&buffers, |addresses| {
                let base = block.as_mut_ptr();
                for ((_, offset), address) in objects.iter().zip(addresses) {
                    // SAFETY: `offset + size_of::<cl_mem>()` ≤ the block's length (checked);
                    // the slot may be unaligned.
                    unsafe {
                        base.add(*offset)
                            .cast::<*mut u8>()
                            .write_unaligned(*address)
                    };
                }
                // SAFETY: the application's function, called as API 5.10 specifies, with the
                // memory objects (retained by `objects`) locked for its duration.
                unsafe { user_func(base.cast()) };
            });
            Ok(())
        }))
    })
}
