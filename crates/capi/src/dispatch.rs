//! The ICD dispatch table (`CL/cl_icd.h` `struct _cl_icd_dispatch`, in its order) and
//! `clGetExtensionFunctionAddress`, both generated from the one list below (as rusticl does).
//! Entries written `(absent name)` are sharing extensions oxcl does not provide (GL, D3D, EGL,
//! the EXT device fission); their slots are null.

use std::ffi::c_void;

use crate::context::*;
use crate::device::*;
use crate::event::*;
use crate::image::*;
use crate::kernel::*;
use crate::memory::*;
use crate::native::*;
use crate::pipe::*;
use crate::platform::*;
use crate::program::*;
use crate::queue::*;
use crate::sampler::*;
use crate::subgroup::*;
use crate::svm::*;

/// The table: one pointer per `cl_icd_dispatch` member.
#[repr(C)]
pub struct Dispatch(pub [*const c_void; DISPATCH_LEN]);
// SAFETY: immutable function pointers.
unsafe impl Sync for Dispatch {}

macro_rules! entry_points {
    ($($entry:tt),* $(,)?) => {
        const DISPATCH_LEN: usize = [$(entry_points!(@one $entry)),*].len();
        /// The dispatch table every object points to.
        pub static DISPATCH: Dispatch = Dispatch([$(entry_points!(@ptr $entry)),*]);
        /// `(name, address)` of every entry point oxcl provides.
        static BY_NAME: &[(&str, Entry)] = &[$(entry_points!(@named $entry)),*];
    };
    (@one $entry:tt) => { () };
    (@ptr (absent $name:ident)) => { std::ptr::null() };
    (@ptr $name:ident) => { $name as *const c_void };
    (@named (absent $name:ident)) => { (stringify!($name), Entry(std::ptr::null())) };
    (@named $name:ident) => { (stringify!($name), Entry($name as *const c_void)) };
}

struct Entry(*const c_void);
// SAFETY: immutable function pointers.
unsafe impl Sync for Entry {}

entry_points![
    // OpenCL 1.0
    clGetPlatformIDs, clGetPlatformInfo, clGetDeviceIDs, clGetDeviceInfo, clCreateContext,
    clCreateContextFromType, clRetainContext, clReleaseContext, clGetContextInfo, clCreateCommandQueue,
    clRetainCommandQueue, clReleaseCommandQueue, clGetCommandQueueInfo, clSetCommandQueueProperty,
    clCreateBuffer, clCreateImage2D, clCreateImage3D, clRetainMemObject, clReleaseMemObject,
    clGetSupportedImageFormats, clGetMemObjectInfo, clGetImageInfo, clCreateSampler, clRetainSampler,
    clReleaseSampler, clGetSamplerInfo, clCreateProgramWithSource, clCreateProgramWithBinary,
    clRetainProgram, clReleaseProgram, clBuildProgram, clUnloadCompiler, clGetProgramInfo,
    clGetProgramBuildInfo, clCreateKernel, clCreateKernelsInProgram, clRetainKernel, clReleaseKernel,
    clSetKernelArg, clGetKernelInfo, clGetKernelWorkGroupInfo, clWaitForEvents, clGetEventInfo,
    clRetainEvent, clReleaseEvent, clGetEventProfilingInfo, clFlush, clFinish, clEnqueueReadBuffer,
    clEnqueueWriteBuffer, clEnqueueCopyBuffer, clEnqueueReadImage, clEnqueueWriteImage,
    clEnqueueCopyImage, clEnqueueCopyImageToBuffer, clEnqueueCopyBufferToImage, clEnqueueMapBuffer,
    clEnqueueMapImage, clEnqueueUnmapMemObject, clEnqueueNDRangeKernel, clEnqueueTask,
    clEnqueueNativeKernel, clEnqueueMarker, clEnqueueWaitForEvents, clEnqueueBarrier,
    clGetExtensionFunctionAddress, (absent clCreateFromGLBuffer), (absent clCreateFromGLTexture2D),
    (absent clCreateFromGLTexture3D), (absent clCreateFromGLRenderbuffer), (absent clGetGLObjectInfo),
    (absent clGetGLTextureInfo), (absent clEnqueueAcquireGLObjects), (absent clEnqueueReleaseGLObjects),
    (absent clGetGLContextInfoKHR),
    // cl_khr_d3d10_sharing
    (absent clGetDeviceIDsFromD3D10KHR), (absent clCreateFromD3D10BufferKHR),
    (absent clCreateFromD3D10Texture2DKHR), (absent clCreateFromD3D10Texture3DKHR),
    (absent clEnqueueAcquireD3D10ObjectsKHR), (absent clEnqueueReleaseD3D10ObjectsKHR),
    // OpenCL 1.1
    clSetEventCallback, clCreateSubBuffer, clSetMemObjectDestructorCallback, clCreateUserEvent,
    clSetUserEventStatus, clEnqueueReadBufferRect, clEnqueueWriteBufferRect, clEnqueueCopyBufferRect,
    // cl_ext_device_fission
    (absent clCreateSubDevicesEXT), (absent clRetainDeviceEXT), (absent clReleaseDeviceEXT),
    // cl_khr_gl_event
    (absent clCreateEventFromGLsyncKHR),
    // OpenCL 1.2
    clCreateSubDevices, clRetainDevice, clReleaseDevice, clCreateImage, clCreateProgramWithBuiltInKernels,
    clCompileProgram, clLinkProgram, clUnloadPlatformCompiler, clGetKernelArgInfo, clEnqueueFillBuffer,
    clEnqueueFillImage, clEnqueueMigrateMemObjects, clEnqueueMarkerWithWaitList,
    clEnqueueBarrierWithWaitList, clGetExtensionFunctionAddressForPlatform, (absent clCreateFromGLTexture),
    // cl_khr_d3d11_sharing
    (absent clGetDeviceIDsFromD3D11KHR), (absent clCreateFromD3D11BufferKHR),
    (absent clCreateFromD3D11Texture2DKHR), (absent clCreateFromD3D11Texture3DKHR),
    (absent clCreateFromDX9MediaSurfaceKHR), (absent clEnqueueAcquireD3D11ObjectsKHR),
    (absent clEnqueueReleaseD3D11ObjectsKHR),
    // cl_khr_dx9_media_sharing
    (absent clGetDeviceIDsFromDX9MediaAdapterKHR), (absent clEnqueueAcquireDX9MediaSurfacesKHR),
    (absent clEnqueueReleaseDX9MediaSurfacesKHR),
    // cl_khr_egl_image
    (absent clCreateFromEGLImageKHR), (absent clEnqueueAcquireEGLObjectsKHR),
    (absent clEnqueueReleaseEGLObjectsKHR),
    // cl_khr_egl_event
    (absent clCreateEventFromEGLSyncKHR),
    // OpenCL 2.0
    clCreateCommandQueueWithProperties, clCreatePipe, clGetPipeInfo, clSVMAlloc, clSVMFree,
    clEnqueueSVMFree, clEnqueueSVMMemcpy, clEnqueueSVMMemFill, clEnqueueSVMMap, clEnqueueSVMUnmap,
    clCreateSamplerWithProperties, clSetKernelArgSVMPointer, clSetKernelExecInfo,
    // cl_khr_sub_groups
    clGetKernelSubGroupInfoKHR,
    // OpenCL 2.1
    clCloneKernel, clCreateProgramWithIL, clEnqueueSVMMigrateMem, clGetDeviceAndHostTimer, clGetHostTimer,
    clGetKernelSubGroupInfo, clSetDefaultDeviceCommandQueue,
    // OpenCL 2.2
    clSetProgramReleaseCallback, clSetProgramSpecializationConstant,
    // OpenCL 3.0
    clCreateBufferWithProperties, clCreateImageWithProperties, clSetContextDestructorCallback,
];

/// The address of the entry point `name`, or null. `clIcdGetPlatformIDsKHR` is the ICD's own.
pub fn function_address(name: &str) -> *mut c_void {
    match name {
        "clIcdGetPlatformIDsKHR" => return clIcdGetPlatformIDsKHR as *mut c_void,
        // cl_khr_il_program (reported by the device) names its entry point with the suffix.
        "clCreateProgramWithILKHR" => return clCreateProgramWithIL as *mut c_void,
        _ => {}
    }
    BY_NAME
        .iter()
        .find(|(n, _)| *n == name)
        .map_or(std::ptr::null_mut(), |(_, e)| e.0 as *mut c_void)
}

/// The entry-point names in dispatch-table order (checked against `cl_icd.h` by a test), and
/// whether oxcl fills the slot.
pub fn dispatch_names() -> Vec<(&'static str, bool)> {
    BY_NAME
        .iter()
        .map(|(name, entry)| (*name, !entry.0.is_null()))
        .collect()
}

/// The number of dispatch slots.
pub fn dispatch_len() -> usize {
    DISPATCH_LEN
}
