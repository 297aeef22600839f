//! The C types of the OpenCL API (`CL/cl.h`, `CL/cl_platform.h`) this crate exchanges.

use std::ffi::c_void;

pub type cl_int = i32;
pub type cl_uint = u32;
pub type cl_ulong = u64;
pub type cl_bool = u32;
pub type cl_bitfield = u64;
pub type cl_properties = u64;
pub type cl_device_type = cl_bitfield;
pub type cl_platform_info = cl_uint;
pub type cl_device_info = cl_uint;
pub type cl_context_info = cl_uint;
pub type cl_context_properties = isize;
pub type cl_command_queue_info = cl_uint;
pub type cl_command_queue_properties = cl_bitfield;
pub type cl_queue_properties = cl_properties;
pub type cl_mem_flags = cl_bitfield;
pub type cl_mem_info = cl_uint;
pub type cl_mem_properties = cl_properties;
pub type cl_map_flags = cl_bitfield;
pub type cl_mem_migration_flags = cl_bitfield;
pub type cl_buffer_create_type = cl_uint;
pub type cl_program_info = cl_uint;
pub type cl_program_build_info = cl_uint;
pub type cl_kernel_info = cl_uint;
pub type cl_kernel_arg_info = cl_uint;
pub type cl_kernel_work_group_info = cl_uint;
pub type cl_kernel_sub_group_info = cl_uint;
pub type cl_kernel_exec_info = cl_uint;
pub type cl_event_info = cl_uint;
pub type cl_profiling_info = cl_uint;
pub type cl_sampler_info = cl_uint;
pub type cl_image_info = cl_uint;
pub type cl_pipe_info = cl_uint;
pub type cl_mem_object_type = cl_uint;
pub type cl_addressing_mode = cl_uint;
pub type cl_filter_mode = cl_uint;
pub type cl_sampler_properties = cl_properties;
pub type cl_pipe_properties = isize;
pub type cl_svm_mem_flags = cl_bitfield;
pub type cl_device_partition_property = isize;
pub type cl_version = cl_uint;

/// Every handle is a pointer to an object whose first member is the ICD dispatch table.
pub type cl_platform_id = *mut c_void;
pub type cl_device_id = *mut c_void;
pub type cl_context = *mut c_void;
pub type cl_command_queue = *mut c_void;
pub type cl_mem = *mut c_void;
pub type cl_program = *mut c_void;
pub type cl_kernel = *mut c_void;
pub type cl_event = *mut c_void;
pub type cl_sampler = *mut c_void;

/// `cl_name_version` (API 4.1).
#[repr(C)]
#[derive(Copy, Clone)]
pub struct cl_name_version {
    pub version: cl_version,
    pub name: [u8; 64],
}

/// `cl_buffer_region` (API 5.2.1 clCreateSubBuffer).
#[repr(C)]
#[derive(Copy, Clone)]
pub struct cl_buffer_region {
    pub origin: usize,
    pub size: usize,
}

/// `cl_image_format`.
#[repr(C)]
#[derive(Copy, Clone)]
pub struct cl_image_format {
    pub image_channel_order: cl_uint,
    pub image_channel_data_type: cl_uint,
}

/// `CL_MAKE_VERSION`.
pub const fn make_version(major: u32, minor: u32, patch: u32) -> cl_version {
    (major << 22) | (minor << 12) | patch
}

pub type ContextNotify = Option<unsafe extern "C" fn(*const i8, *const c_void, usize, *mut c_void)>;
pub type ObjectCallback = Option<unsafe extern "C" fn(*mut c_void, *mut c_void)>;
pub type EventCallback = Option<unsafe extern "C" fn(cl_event, cl_int, *mut c_void)>;
