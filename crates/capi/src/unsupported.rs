//! Entry points of features the device does not report (native kernels). Each validates its handles and returns the
//! error the specification gives when the device lacks the feature; none pretends to work.

use std::ffi::c_void;

use crate::consts::*;
use crate::entry::guard;
use crate::handle::Obj;
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
