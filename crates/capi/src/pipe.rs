//! Pipe objects (API 5.4): `clCreatePipe` and `clGetPipeInfo`. A pipe is a `cl_mem` whose
//! `MemObj` holds a `runtime::Pipe` (its memory is the object's buffer); kernels get it through
//! `clSetKernelArg`. Buffer commands on a pipe are rejected (`memory::command_buffer`).

use std::ffi::c_void;

use crate::consts::*;
use crate::context::ContextObj;
use crate::entry::{code, guard, guard_create, ClResult, HostPtr};
use crate::handle::Obj;
use crate::info::{answer, InfoValue};
use crate::memory::{new_mem_object, MemObj};
use crate::types::*;

/// The flags a pipe may be created with (API 5.4.1: "Only CL_MEM_READ_WRITE and
/// CL_MEM_HOST_NO_ACCESS can be specified when creating a pipe object").
const PIPE_FLAGS: cl_mem_flags = CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS;

/// `clCreatePipe` (API 5.4.1).
pub unsafe extern "C" fn clCreatePipe(
    context: cl_context,
    flags: cl_mem_flags,
    pipe_packet_size: cl_uint,
    pipe_max_packets: cl_uint,
    properties: *const cl_pipe_properties,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    guard_create(errcode_ret, || {
        create_pipe(
            context,
            flags,
            pipe_packet_size,
            pipe_max_packets,
            properties,
        )
    })
}

fn create_pipe(
    context: cl_context,
    flags: cl_mem_flags,
    packet_size: cl_uint,
    max_packets: cl_uint,
    properties: *const cl_pipe_properties,
) -> ClResult<*mut c_void> {
    // "CL_INVALID_CONTEXT if context is not a valid context."
    let context = Obj::<ContextObj>::get(context)?;
    // "CL_INVALID_OPERATION if no devices in context support pipes."
    if !context.context.device().pipe_support() {
        return Err(CL_INVALID_OPERATION);
    }
    // "CL_INVALID_VALUE if values specified in flags are not as defined above."
    if flags & !PIPE_FLAGS != 0 {
        return Err(CL_INVALID_VALUE);
    }
    // "If the value specified for flags is 0, the default is used which is CL_MEM_READ_WRITE |
    // CL_MEM_HOST_NO_ACCESS."
    let flags = if flags == 0 { PIPE_FLAGS } else { flags };
    // "CL_INVALID_VALUE if properties is not NULL."
    if !properties.is_null() {
        return Err(CL_INVALID_VALUE);
    }
    // "CL_INVALID_PIPE_SIZE if pipe_packet_size is 0 or the pipe_packet_size exceeds
    // CL_DEVICE_PIPE_MAX_PACKET_SIZE ... or if pipe_max_packets is 0" (`runtime::Pipe::new`).
    let pipe = runtime::Pipe::new(
        &context.context,
        runtime::MemFlags::default(),
        packet_size,
        max_packets,
    )
    .map_err(|e| match e {
        // "CL_MEM_OBJECT_ALLOCATION_FAILURE if there is a failure to allocate memory for the
        // pipe object."
        runtime::Error::OutOfHostMemory(_) => CL_MEM_OBJECT_ALLOCATION_FAILURE,
        other => code(other),
    })?;
    Ok(new_mem_object(
        context,
        pipe.buffer().clone(),
        flags,
        HostPtr(std::ptr::null_mut()),
        None,
        Vec::new(),
        None,
        Some(pipe),
    ))
}

/// `clGetPipeInfo` (API 5.4.2).
pub unsafe extern "C" fn clGetPipeInfo(
    pipe: cl_mem,
    param_name: cl_pipe_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    guard(|| {
        // "CL_INVALID_MEM_OBJECT if pipe is a not a valid pipe object."
        let m = Obj::<MemObj>::get(pipe)?;
        let p = m.pipe.as_ref().ok_or(CL_INVALID_MEM_OBJECT)?;
        let value = match param_name {
            CL_PIPE_PACKET_SIZE => Ok(InfoValue::u32(p.packet_size())),
            CL_PIPE_MAX_PACKETS => Ok(InfoValue::u32(p.max_packets())),
            // "If the properties argument specified in clCreatePipe used to create pipe was
            // NULL, the implementation must return param_value_size_ret equal to 0" (it must
            // be NULL).
            CL_PIPE_PROPERTIES => Ok(InfoValue::pod::<cl_pipe_properties>(&[])),
            // "CL_INVALID_VALUE if param_name is not one of the supported values".
            _ => Err(CL_INVALID_VALUE),
        };
        // SAFETY: the caller's buffers.
        unsafe { answer(value, param_value_size, param_value, param_value_size_ret) }
    })
}
