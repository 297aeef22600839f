//! Entry points of features the device does not report (images and samplers, SVM,
//! native kernels, sub-groups, on-device queues). Each validates its handles and returns the
//! error the specification gives when the device lacks the feature; none pretends to work.

use std::ffi::c_void;

use crate::consts::*;
use crate::context::ContextObj;
use crate::device::DeviceObj;
use crate::entry::{guard, guard_create};
use crate::handle::Obj;
use crate::kernel::KernelObj;
use crate::queue::QueueObj;
use crate::types::*;

type ImageDesc = c_void;

/// "CL_INVALID_OPERATION if there are no devices in context that support images
/// (CL_DEVICE_IMAGE_SUPPORT is CL_FALSE)" — clCreateImage*, clCreateSampler*.
fn no_images(context: cl_context) -> Result<*mut c_void, i32> {
    Obj::<ContextObj>::get(context)?;
    Err(CL_INVALID_OPERATION)
}

pub unsafe extern "C" fn clCreateImage(
    context: cl_context,
    _flags: cl_mem_flags,
    _format: *const cl_image_format,
    _desc: *const ImageDesc,
    _host_ptr: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    guard_create(errcode_ret, || no_images(context))
}

pub unsafe extern "C" fn clCreateImageWithProperties(
    context: cl_context,
    _properties: *const cl_mem_properties,
    _flags: cl_mem_flags,
    _format: *const cl_image_format,
    _desc: *const ImageDesc,
    _host_ptr: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    guard_create(errcode_ret, || no_images(context))
}

pub unsafe extern "C" fn clCreateImage2D(
    context: cl_context,
    _flags: cl_mem_flags,
    _format: *const cl_image_format,
    _width: usize,
    _height: usize,
    _row_pitch: usize,
    _host_ptr: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    guard_create(errcode_ret, || no_images(context))
}

pub unsafe extern "C" fn clCreateImage3D(
    context: cl_context,
    _flags: cl_mem_flags,
    _format: *const cl_image_format,
    _width: usize,
    _height: usize,
    _depth: usize,
    _row_pitch: usize,
    _slice_pitch: usize,
    _host_ptr: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    guard_create(errcode_ret, || no_images(context))
}

/// `clGetSupportedImageFormats`: no formats on a device without images.
pub unsafe extern "C" fn clGetSupportedImageFormats(
    context: cl_context,
    flags: cl_mem_flags,
    image_type: cl_mem_object_type,
    num_entries: cl_uint,
    image_formats: *mut cl_image_format,
    num_image_formats: *mut cl_uint,
) -> cl_int {
    guard(|| {
        // "CL_INVALID_CONTEXT if context is not a valid context."
        Obj::<ContextObj>::get(context)?;
        // "CL_INVALID_VALUE if flags or image_type are not valid, or if num_entries is 0 and
        // image_formats is not NULL."
        let valid_types = [
            CL_MEM_OBJECT_IMAGE1D,
            CL_MEM_OBJECT_IMAGE1D_BUFFER,
            CL_MEM_OBJECT_IMAGE1D_ARRAY,
            CL_MEM_OBJECT_IMAGE2D,
            CL_MEM_OBJECT_IMAGE2D_ARRAY,
            CL_MEM_OBJECT_IMAGE3D,
        ];
        let valid_flags = CL_MEM_READ_WRITE
            | CL_MEM_WRITE_ONLY
            | CL_MEM_READ_ONLY
            | CL_MEM_USE_HOST_PTR
            | CL_MEM_ALLOC_HOST_PTR
            | CL_MEM_COPY_HOST_PTR
            | CL_MEM_HOST_WRITE_ONLY
            | CL_MEM_HOST_READ_ONLY
            | CL_MEM_HOST_NO_ACCESS
            | CL_MEM_KERNEL_READ_AND_WRITE;
        if flags & !valid_flags != 0
            || !valid_types.contains(&image_type)
            || (num_entries == 0 && !image_formats.is_null())
        {
            return Err(CL_INVALID_VALUE);
        }
        if !num_image_formats.is_null() {
            // SAFETY: a writable cl_uint.
            unsafe { *num_image_formats = 0 };
        }
        Ok(())
    })
}

/// No memory object is an image: "CL_INVALID_MEM_OBJECT if image is a not a valid image object".
pub unsafe extern "C" fn clGetImageInfo(
    _image: cl_mem,
    _param_name: cl_image_info,
    _size: usize,
    _value: *mut c_void,
    _size_ret: *mut usize,
) -> cl_int {
    CL_INVALID_MEM_OBJECT
}

pub unsafe extern "C" fn clCreateSampler(
    context: cl_context,
    _normalized: cl_bool,
    _addressing: cl_addressing_mode,
    _filter: cl_filter_mode,
    errcode_ret: *mut cl_int,
) -> cl_sampler {
    guard_create(errcode_ret, || no_images(context))
}

pub unsafe extern "C" fn clCreateSamplerWithProperties(
    context: cl_context,
    _properties: *const cl_sampler_properties,
    errcode_ret: *mut cl_int,
) -> cl_sampler {
    guard_create(errcode_ret, || no_images(context))
}

/// No sampler exists: "CL_INVALID_SAMPLER if sampler is not a valid sampler object".
pub unsafe extern "C" fn clRetainSampler(_sampler: cl_sampler) -> cl_int {
    CL_INVALID_SAMPLER
}

pub unsafe extern "C" fn clReleaseSampler(_sampler: cl_sampler) -> cl_int {
    CL_INVALID_SAMPLER
}

pub unsafe extern "C" fn clGetSamplerInfo(
    _sampler: cl_sampler,
    _param_name: cl_sampler_info,
    _size: usize,
    _value: *mut c_void,
    _size_ret: *mut usize,
) -> cl_int {
    CL_INVALID_SAMPLER
}

/// An image command: the queue is checked, and no memory object is an image
/// ("CL_INVALID_MEM_OBJECT if image is not a valid image object").
fn image_command(queue: cl_command_queue) -> cl_int {
    guard(|| {
        Obj::<QueueObj>::get(queue)?;
        Err(CL_INVALID_MEM_OBJECT)
    })
}

pub unsafe extern "C" fn clEnqueueReadImage(
    queue: cl_command_queue,
    _image: cl_mem,
    _blocking: cl_bool,
    _origin: *const usize,
    _region: *const usize,
    _row_pitch: usize,
    _slice_pitch: usize,
    _ptr: *mut c_void,
    _num_events: cl_uint,
    _events: *const cl_event,
    _event: *mut cl_event,
) -> cl_int {
    image_command(queue)
}

pub unsafe extern "C" fn clEnqueueWriteImage(
    queue: cl_command_queue,
    _image: cl_mem,
    _blocking: cl_bool,
    _origin: *const usize,
    _region: *const usize,
    _row_pitch: usize,
    _slice_pitch: usize,
    _ptr: *const c_void,
    _num_events: cl_uint,
    _events: *const cl_event,
    _event: *mut cl_event,
) -> cl_int {
    image_command(queue)
}

pub unsafe extern "C" fn clEnqueueCopyImage(
    queue: cl_command_queue,
    _src: cl_mem,
    _dst: cl_mem,
    _src_origin: *const usize,
    _dst_origin: *const usize,
    _region: *const usize,
    _num_events: cl_uint,
    _events: *const cl_event,
    _event: *mut cl_event,
) -> cl_int {
    image_command(queue)
}

pub unsafe extern "C" fn clEnqueueCopyImageToBuffer(
    queue: cl_command_queue,
    _src: cl_mem,
    _dst: cl_mem,
    _src_origin: *const usize,
    _region: *const usize,
    _dst_offset: usize,
    _num_events: cl_uint,
    _events: *const cl_event,
    _event: *mut cl_event,
) -> cl_int {
    image_command(queue)
}

pub unsafe extern "C" fn clEnqueueCopyBufferToImage(
    queue: cl_command_queue,
    _src: cl_mem,
    _dst: cl_mem,
    _src_offset: usize,
    _dst_origin: *const usize,
    _region: *const usize,
    _num_events: cl_uint,
    _events: *const cl_event,
    _event: *mut cl_event,
) -> cl_int {
    image_command(queue)
}

pub unsafe extern "C" fn clEnqueueFillImage(
    queue: cl_command_queue,
    _image: cl_mem,
    _color: *const c_void,
    _origin: *const usize,
    _region: *const usize,
    _num_events: cl_uint,
    _events: *const cl_event,
    _event: *mut cl_event,
) -> cl_int {
    image_command(queue)
}

pub unsafe extern "C" fn clEnqueueMapImage(
    queue: cl_command_queue,
    _image: cl_mem,
    _blocking: cl_bool,
    _flags: cl_map_flags,
    _origin: *const usize,
    _region: *const usize,
    _row_pitch: *mut usize,
    _slice_pitch: *mut usize,
    _num_events: cl_uint,
    _events: *const cl_event,
    _event: *mut cl_event,
    errcode_ret: *mut cl_int,
) -> *mut c_void {
    guard_create(errcode_ret, || Err(image_command(queue)))
}

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

/// `clGetKernelSubGroupInfo`: "CL_INVALID_OPERATION if device does not support subgroups."
pub unsafe extern "C" fn clGetKernelSubGroupInfo(
    kernel: cl_kernel,
    _device: cl_device_id,
    _param_name: cl_kernel_sub_group_info,
    _input_size: usize,
    _input: *const c_void,
    _size: usize,
    _value: *mut c_void,
    _size_ret: *mut usize,
) -> cl_int {
    guard(|| {
        Obj::<KernelObj>::get(kernel)?;
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

/// `clGetKernelSubGroupInfoKHR` (`cl_khr_subgroups`, not reported): as the core function.
pub unsafe extern "C" fn clGetKernelSubGroupInfoKHR(
    kernel: cl_kernel,
    device: cl_device_id,
    param_name: cl_kernel_sub_group_info,
    input_size: usize,
    input: *const c_void,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> cl_int {
    // SAFETY: the same contract.
    unsafe {
        clGetKernelSubGroupInfo(
            kernel, device, param_name, input_size, input, size, value, size_ret,
        )
    }
}
