//! Entry points of features the device does not report (native kernels, on-device
//! queues). Each validates its handles and returns the
//! error the specification gives when the device lacks the feature; none pretends to work.

use std::ffi::c_void;

use crate::consts::*;
use crate::context::ContextObj;
use crate::device::DeviceObj;
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

/// `clSetDefaultDeviceCommandQueue`: "CL_INVALID_OPERATION if device does not support a
/// replaceable default on-device queue."
pub unsafe extern "C" fn clSetDefaultDeviceCommandQueue(
    context: cl_context,
    device: cl_device_id,
    _queue: cl_command_queue,
) -> cl_int {
    guard(|| {
        Obj::<ContextObj>::get(context)?;
        Obj::<DeviceObj>::get(device)?;
        Err(CL_INVALID_OPERATION)
    })
}
