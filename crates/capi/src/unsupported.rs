//! Entry points of features the device does not report (SVM, native kernels, on-device
//! queues). Each validates its handles and returns the
//! error the specification gives when the device lacks the feature; none pretends to work.

use std::ffi::c_void;

use crate::consts::*;
use crate::entry::guard;
use crate::handle::Obj;
use crate::kernel::KernelObj;
use crate::queue::QueueObj;
use crate::types::*;

/// `clEnqueueNativeKernel`: "CL_INVALID_OPERATION if the device associated with command_queue
/// cannot execute the native kernel" (CL_DEVICE_EXECUTION_CAPABILITIES has no CL_EXEC_NATIVE_KERNEL).
pub unsafe extern "C" fn clEnqueueNativeKernel(
    queue: cl_command_queue,
    _user_func: Option<unsafe extern "C" fn(*mut c_void)>,
    _args: *mut c_void,
    _cb_args: usize,
    _num_mem_objects: cl_uint,
    _mem_list: *const cl_mem,
    _args_mem_loc: *const *const c_void,
    _num_events: cl_uint,
    _events: *const cl_event,
    _event: *mut cl_event,
) -> cl_int {
    guard(|| {
        Obj::<QueueObj>::get(queue)?;
        Err(CL_INVALID_OPERATION)
    })
}

/// `clSVMAlloc`: NULL, as for any failure (the device reports no SVM capabilities).
pub unsafe extern "C" fn clSVMAlloc(
    _context: cl_context,
    _flags: cl_svm_mem_flags,
    _size: usize,
    _alignment: cl_uint,
) -> *mut c_void {
    std::ptr::null_mut()
}

/// `clSVMFree`: nothing was allocated, so nothing to free.
pub unsafe extern "C" fn clSVMFree(_context: cl_context, _svm_pointer: *mut c_void) {}

/// The SVM commands: "CL_INVALID_OPERATION if the device associated with command queue does not
/// support SVM."
fn no_svm(queue: cl_command_queue) -> cl_int {
    guard(|| {
        Obj::<QueueObj>::get(queue)?;
        Err(CL_INVALID_OPERATION)
    })
}

pub unsafe extern "C" fn clEnqueueSVMFree(
    queue: cl_command_queue,
    _num: cl_uint,
    _pointers: *mut *mut c_void,
    _free_func: Option<
        unsafe extern "C" fn(cl_command_queue, cl_uint, *mut *mut c_void, *mut c_void),
    >,
    _user_data: *mut c_void,
    _num_events: cl_uint,
    _events: *const cl_event,
    _event: *mut cl_event,
) -> cl_int {
    no_svm(queue)
}

pub unsafe extern "C" fn clEnqueueSVMMemcpy(
    queue: cl_command_queue,
    _blocking: cl_bool,
    _dst: *mut c_void,
    _src: *const c_void,
    _size: usize,
    _num_events: cl_uint,
    _events: *const cl_event,
    _event: *mut cl_event,
) -> cl_int {
    no_svm(queue)
}

pub unsafe extern "C" fn clEnqueueSVMMemFill(
    queue: cl_command_queue,
    _ptr: *mut c_void,
    _pattern: *const c_void,
    _pattern_size: usize,
    _size: usize,
    _num_events: cl_uint,
    _events: *const cl_event,
    _event: *mut cl_event,
) -> cl_int {
    no_svm(queue)
}

pub unsafe extern "C" fn clEnqueueSVMMap(
    queue: cl_command_queue,
    _blocking: cl_bool,
    _flags: cl_map_flags,
    _ptr: *mut c_void,
    _size: usize,
    _num_events: cl_uint,
    _events: *const cl_event,
    _event: *mut cl_event,
) -> cl_int {
    no_svm(queue)
}

pub unsafe extern "C" fn clEnqueueSVMUnmap(
    queue: cl_command_queue,
    _ptr: *mut c_void,
    _num_events: cl_uint,
    _events: *const cl_event,
    _event: *mut cl_event,
) -> cl_int {
    no_svm(queue)
}

pub unsafe extern "C" fn clEnqueueSVMMigrateMem(
    queue: cl_command_queue,
    _num: cl_uint,
    _pointers: *const *const c_void,
    _sizes: *const usize,
    _flags: cl_mem_migration_flags,
    _num_events: cl_uint,
    _events: *const cl_event,
    _event: *mut cl_event,
) -> cl_int {
    no_svm(queue)
}

/// "CL_INVALID_OPERATION if no devices in the context associated with kernel support SVM."
pub unsafe extern "C" fn clSetKernelArgSVMPointer(
    kernel: cl_kernel,
    _arg_index: cl_uint,
    _arg_value: *const c_void,
) -> cl_int {
    guard(|| {
        Obj::<KernelObj>::get(kernel)?;
        Err(CL_INVALID_OPERATION)
    })
}

/// `clSetKernelExecInfo`: every parameter is about SVM, which no device here supports.
pub unsafe extern "C" fn clSetKernelExecInfo(
    kernel: cl_kernel,
    param_name: cl_kernel_exec_info,
    _size: usize,
    param_value: *const c_void,
) -> cl_int {
    guard(|| {
        Obj::<KernelObj>::get(kernel)?;
        // "CL_INVALID_VALUE if param_name is not valid, if param_value is NULL".
        if !matches!(
            param_name,
            CL_KERNEL_EXEC_INFO_SVM_PTRS | CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM
        ) || param_value.is_null()
        {
            return Err(CL_INVALID_VALUE);
        }
        // "CL_INVALID_OPERATION if ... no devices in the context associated with kernel support SVM."
        Err(CL_INVALID_OPERATION)
    })
}
