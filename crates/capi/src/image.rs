//! Image objects (API 5.3): creation (`clCreateImage*`), the supported formats, `clGetImageInfo`
//! and the image commands (read, write, copy, copies to and from buffers, fill, map; unmap is
//! `clEnqueueUnmapMemObject` in `memory`). The image work itself is `runtime::Image`.

use std::ffi::c_void;
use std::sync::Arc;

use runtime::{ChannelOrder, ChannelType, HostPitches, ImageAccess, ImageFormat, ImageType};

use crate::consts::*;
use crate::context::ContextObj;
use crate::entry::{code, guard, guard_create, ClResult, HostPtr};
use crate::handle::Obj;
use crate::info::{answer, InfoValue};
use crate::memory::{
    check_flags, check_host_read, check_host_write, check_map_access, command_buffer, command_mem,
    new_mem, submit_map, triple, MemObj, ACCESS_FLAGS, HOST_ACCESS_FLAGS, HOST_PTR_FLAGS,
};
use crate::queue::{begin, Command, QueueObj};
use crate::types::*;

/// `cl_image_desc` (API 5.3.1.2).
#[repr(C)]
#[derive(Copy, Clone)]
pub struct cl_image_desc {
    pub image_type: cl_mem_object_type,
    pub image_width: usize,
    pub image_height: usize,
    pub image_depth: usize,
    pub image_array_size: usize,
    pub image_row_pitch: usize,
    pub image_slice_pitch: usize,
    pub num_mip_levels: cl_uint,
    pub num_samples: cl_uint,
    /// `buffer` / `mem_object`.
    pub mem_object: cl_mem,
}

const CL_SRGB: u32 = 0x10BF;
const CL_SRGBX: u32 = 0x10C0;
const CL_SRGBA: u32 = 0x10C1;
const CL_SBGRA: u32 = 0x10C2;
const CL_RX: u32 = 0x10BA;
const CL_RGX: u32 = 0x10BB;
const CL_RGBX: u32 = 0x10BC;

/// `cl_channel_order` ↔ devlib, in `cl.xml` values.
const ORDERS: [(u32, ChannelOrder); 19] = [
    (CL_R, ChannelOrder::R),
    (CL_A, ChannelOrder::A),
    (CL_RG, ChannelOrder::RG),
    (CL_RA, ChannelOrder::RA),
    (CL_RGB, ChannelOrder::RGB),
    (CL_RGBA, ChannelOrder::RGBA),
    (CL_BGRA, ChannelOrder::BGRA),
    (CL_ARGB, ChannelOrder::ARGB),
    (CL_INTENSITY, ChannelOrder::Intensity),
    (CL_LUMINANCE, ChannelOrder::Luminance),
    (CL_RX, ChannelOrder::Rx),
    (CL_RGX, ChannelOrder::RGx),
    (CL_RGBX, ChannelOrder::RGBx),
    (CL_DEPTH, ChannelOrder::Depth),
    (CL_SRGB, ChannelOrder::SRGB),
    (CL_SRGBX, ChannelOrder::SRGBx),
    (CL_SRGBA, ChannelOrder::SRGBA),
    (CL_SBGRA, ChannelOrder::SBGRA),
    (CL_ABGR, ChannelOrder::ABGR),
];

/// `cl_channel_type` ↔ devlib.
const TYPES: [(u32, ChannelType); 16] = [
    (CL_SNORM_INT8, ChannelType::SnormInt8),
    (CL_SNORM_INT16, ChannelType::SnormInt16),
    (CL_UNORM_INT8, ChannelType::UnormInt8),
    (CL_UNORM_INT16, ChannelType::UnormInt16),
    (CL_UNORM_SHORT_565, ChannelType::UnormShort565),
    (CL_UNORM_SHORT_555, ChannelType::UnormShort555),
    (CL_UNORM_INT_101010, ChannelType::UnormInt101010),
    (CL_SIGNED_INT8, ChannelType::SignedInt8),
    (CL_SIGNED_INT16, ChannelType::SignedInt16),
    (CL_SIGNED_INT32, ChannelType::SignedInt32),
    (CL_UNSIGNED_INT8, ChannelType::UnsignedInt8),
    (CL_UNSIGNED_INT16, ChannelType::UnsignedInt16),
    (CL_UNSIGNED_INT32, ChannelType::UnsignedInt32),
    (CL_HALF_FLOAT, ChannelType::HalfFloat),
    (CL_FLOAT, ChannelType::Float),
    (CL_UNORM_INT_101010_2, ChannelType::UnormInt101010_2),
];

/// The `cl_image_format` of a format.
pub fn cl_format(format: &ImageFormat) -> cl_image_format {
    let order = ORDERS
        .iter()
        .find(|(_, o)| *o == format.order())
        .map_or(0, |(c, _)| *c);
    let ty = TYPES
        .iter()
        .find(|(_, t)| *t == format.channel_type())
        .map_or(0, |(c, _)| *c);
    cl_image_format {
        image_channel_order: order,
        image_channel_data_type: ty,
    }
}

/// A `cl_image_format` as a devlib format: "CL_INVALID_IMAGE_FORMAT_DESCRIPTOR if values
/// specified in image_format are not valid"; formats the API defines that oxcl does not
/// implement (`CL_DEPTH_STENCIL`, `CL_UNORM_INT24`) are `CL_IMAGE_FORMAT_NOT_SUPPORTED`.
pub fn parse_format(f: &cl_image_format) -> ClResult<ImageFormat> {
    let known_unsupported =
        f.image_channel_order == CL_DEPTH_STENCIL || f.image_channel_data_type == CL_UNORM_INT24;
    let order = ORDERS
        .iter()
        .find(|(c, _)| *c == f.image_channel_order)
        .map(|(_, o)| *o);
    let ty = TYPES
        .iter()
        .find(|(c, _)| *c == f.image_channel_data_type)
        .map(|(_, t)| *t);
    match (order, ty) {
        (Some(order), Some(ty)) => {
            ImageFormat::new(order, ty).map_err(|_| CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
        }
        _ if known_unsupported
            && (order.is_some() || f.image_channel_order == CL_DEPTH_STENCIL)
            && (ty.is_some() || f.image_channel_data_type == CL_UNORM_INT24) =>
        {
            Err(CL_IMAGE_FORMAT_NOT_SUPPORTED)
        }
        _ => Err(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR),
    }
}

/// `cl_mem_object_type` of an image type.
pub fn mem_object_type(t: ImageType) -> cl_mem_object_type {
    match t {
        ImageType::Image1D => CL_MEM_OBJECT_IMAGE1D,
        ImageType::Image1DBuffer => CL_MEM_OBJECT_IMAGE1D_BUFFER,
        ImageType::Image1DArray => CL_MEM_OBJECT_IMAGE1D_ARRAY,
        ImageType::Image2D => CL_MEM_OBJECT_IMAGE2D,
        ImageType::Image2DArray => CL_MEM_OBJECT_IMAGE2D_ARRAY,
        ImageType::Image3D => CL_MEM_OBJECT_IMAGE3D,
    }
}

fn image_type(t: cl_mem_object_type) -> Option<ImageType> {
    Some(match t {
        CL_MEM_OBJECT_IMAGE1D => ImageType::Image1D,
        CL_MEM_OBJECT_IMAGE1D_BUFFER => ImageType::Image1DBuffer,
        CL_MEM_OBJECT_IMAGE1D_ARRAY => ImageType::Image1DArray,
        CL_MEM_OBJECT_IMAGE2D => ImageType::Image2D,
        CL_MEM_OBJECT_IMAGE2D_ARRAY => ImageType::Image2DArray,
        CL_MEM_OBJECT_IMAGE3D => ImageType::Image3D,
        _ => return None,
    })
}

/// The kernel access of memory flags (read-write when none is given).
fn access(flags: cl_mem_flags) -> ImageAccess {
    if flags & CL_MEM_KERNEL_READ_AND_WRITE != 0 {
        ImageAccess::KernelReadAndWrite
    } else if flags & CL_MEM_READ_ONLY != 0 {
        ImageAccess::ReadOnly
    } else if flags & CL_MEM_WRITE_ONLY != 0 {
        ImageAccess::WriteOnly
    } else {
        ImageAccess::ReadWrite
    }
}

/// "CL_INVALID_OPERATION if there are no devices in context that support images".
fn check_image_support(context: &ContextObj) -> ClResult<()> {
    if !context.context.device().image_support() {
        return Err(CL_INVALID_OPERATION);
    }
    Ok(())
}

/// `clCreateImage` and its variants (API 5.3.1).
unsafe fn create_image(
    context: cl_context,
    properties: Vec<cl_mem_properties>,
    flags: cl_mem_flags,
    format: *const cl_image_format,
    desc: *const cl_image_desc,
    host_ptr: *mut c_void,
) -> ClResult<*mut c_void> {
    // "CL_INVALID_CONTEXT if context is not a valid context."
    let context = Obj::<ContextObj>::get(context)?;
    check_image_support(&context)?;
    // "CL_INVALID_VALUE if values specified in flags are not valid."
    check_flags(flags)?;
    // "CL_INVALID_IMAGE_FORMAT_DESCRIPTOR if values specified in image_format are not valid or
    // if image_format is NULL."
    if format.is_null() {
        return Err(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    }
    // SAFETY: a readable cl_image_format.
    let format = parse_format(unsafe { &*format })?;
    // "CL_INVALID_IMAGE_DESCRIPTOR if values specified in image_desc are not valid or if
    // image_desc is NULL."
    if desc.is_null() {
        return Err(CL_INVALID_IMAGE_DESCRIPTOR);
    }
    // SAFETY: a readable cl_image_desc.
    let d = unsafe { *desc };
    let ty = image_type(d.image_type).ok_or(CL_INVALID_IMAGE_DESCRIPTOR)?;
    // "num_samples must be 0" (multi-sampling is an extension oxcl does not report).
    if d.num_samples != 0 {
        return Err(CL_INVALID_IMAGE_DESCRIPTOR);
    }
    // cl_khr_mipmap_image (API 5.3.1.2 "Mipmap Images"): "CL_MEM_USE_HOST_PTR or
    // CL_MEM_COPY_HOST_PTR cannot be specified if a mipmapped image is created. The host_ptr
    // argument to clCreateImage must be a NULL value" (the error is not specified: oxcl returns
    // CL_INVALID_HOST_PTR), and a mipmapped image is not created from a memory object.
    let mipmapped = d.num_mip_levels > 1;
    if mipmapped {
        if !host_ptr.is_null() || flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR) != 0 {
            return Err(CL_INVALID_HOST_PTR);
        }
        if !d.mem_object.is_null() {
            return Err(CL_INVALID_IMAGE_DESCRIPTOR);
        }
    }
    // "mem_object ... must be NULL" unless a 1D image buffer or a 2D image from a buffer or
    // another 2D image; a 1D image buffer needs one.
    let source = if d.mem_object.is_null() {
        if ty == ImageType::Image1DBuffer {
            return Err(CL_INVALID_IMAGE_DESCRIPTOR);
        }
        None
    } else {
        if !matches!(ty, ImageType::Image1DBuffer | ImageType::Image2D) {
            return Err(CL_INVALID_IMAGE_DESCRIPTOR);
        }
        let m = Obj::<MemObj>::get(d.mem_object).map_err(|_| CL_INVALID_IMAGE_DESCRIPTOR)?;
        if !Arc::ptr_eq(&m.context, &context) {
            return Err(CL_INVALID_IMAGE_DESCRIPTOR);
        }
        // "A 2D image can be created from another 2D image object": a 1D image buffer needs a
        // buffer, and "all of the values specified in image_desc must match the image
        // descriptor information associated with mem_object" (a row pitch of 0 or the same).
        if let Some(stored) = &m.image {
            if ty != ImageType::Image2D
                || (d.image_row_pitch != 0 && d.image_row_pitch != stored.desc().row_pitch)
            {
                return Err(CL_INVALID_IMAGE_DESCRIPTOR);
            }
        }
        Some(m)
    };
    let es = format.element_size();
    // "CL_INVALID_IMAGE_DESCRIPTOR": "image_row_pitch must be 0 if host_ptr is NULL" (unless the
    // image is created from a buffer) and "image_slice_pitch must be 0 if host_ptr is NULL";
    // with a host pointer, "If image_row_pitch is not 0, it must be ≥ image_width × size of
    // element in bytes and must be a multiple of the image element size in bytes", and the
    // slice pitch "must be ≥ image_row_pitch × image_height ... a multiple of the row pitch".
    let rows = if ty.dims() >= 2 { d.image_height } else { 1 };
    if host_ptr.is_null() {
        if d.image_slice_pitch != 0 || (source.is_none() && d.image_row_pitch != 0) {
            return Err(CL_INVALID_IMAGE_DESCRIPTOR);
        }
    } else {
        let row = d.image_row_pitch;
        if row != 0 && (row < d.image_width.saturating_mul(es) || row % es != 0) {
            return Err(CL_INVALID_IMAGE_DESCRIPTOR);
        }
        let row = if row == 0 {
            d.image_width.saturating_mul(es)
        } else {
            row
        };
        let slice = d.image_slice_pitch;
        let min_slice = if ty == ImageType::Image1DArray {
            row
        } else {
            row.saturating_mul(rows)
        };
        if slice != 0
            && (matches!(
                ty,
                ImageType::Image3D | ImageType::Image1DArray | ImageType::Image2DArray
            ) && (slice < min_slice || slice % row.max(1) != 0))
        {
            return Err(CL_INVALID_IMAGE_DESCRIPTOR);
        }
    }
    let shape = runtime::ImageShape {
        image_type: ty,
        width: d.image_width,
        height: d.image_height,
        depth: d.image_depth,
        array_size: d.image_array_size,
    };
    // "CL_INVALID_IMAGE_SIZE if image dimensions specified in image_desc exceed the maximum image
    // dimensions ... for all devices in context."
    shape.check(context.context.device()).map_err(code)?;
    // "CL_INVALID_HOST_PTR if host_ptr is NULL and CL_MEM_USE_HOST_PTR or CL_MEM_COPY_HOST_PTR
    // are set in flags or if host_ptr is not NULL but CL_MEM_COPY_HOST_PTR or
    // CL_MEM_USE_HOST_PTR are not set in flags."
    let wants_ptr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR) != 0;
    if wants_ptr == host_ptr.is_null() {
        return Err(CL_INVALID_HOST_PTR);
    }
    let mut flags = flags;
    if let Some(m) = &source {
        let p = m.flags;
        // "CL_INVALID_VALUE if an image is being created from another memory object (buffer or
        // image) under one of the following circumstances: 1) mem_object was created with
        // CL_MEM_WRITE_ONLY and flags specifies CL_MEM_READ_WRITE or CL_MEM_READ_ONLY, 2)
        // mem_object was created with CL_MEM_READ_ONLY and flags specifies CL_MEM_READ_WRITE or
        // CL_MEM_WRITE_ONLY, 3) flags specifies CL_MEM_USE_HOST_PTR or CL_MEM_ALLOC_HOST_PTR or
        // CL_MEM_COPY_HOST_PTR"; the host access flags likewise.
        if (p & CL_MEM_WRITE_ONLY != 0 && flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY) != 0)
            || (p & CL_MEM_READ_ONLY != 0 && flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY) != 0)
            || flags & HOST_PTR_FLAGS != 0
            || (p & CL_MEM_HOST_WRITE_ONLY != 0 && flags & CL_MEM_HOST_READ_ONLY != 0)
            || (p & CL_MEM_HOST_READ_ONLY != 0 && flags & CL_MEM_HOST_WRITE_ONLY != 0)
            || (p & CL_MEM_HOST_NO_ACCESS != 0
                && flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY) != 0)
        {
            return Err(CL_INVALID_VALUE);
        }
        // Flags not given are inherited from the memory object.
        if flags & ACCESS_FLAGS == 0 {
            flags |= p & ACCESS_FLAGS;
        }
        if flags & HOST_ACCESS_FLAGS == 0 {
            flags |= p & HOST_ACCESS_FLAGS;
        }
    }
    let access = access(flags);
    // "CL_IMAGE_FORMAT_NOT_SUPPORTED if there are no devices in context that support
    // image_format" (for this image type and access).
    if !runtime::format_supported(&format, ty, access) {
        return Err(CL_IMAGE_FORMAT_NOT_SUPPORTED);
    }
    let pitches = HostPitches {
        row_pitch: d.image_row_pitch,
        slice_pitch: if matches!(
            ty,
            ImageType::Image3D | ImageType::Image1DArray | ImageType::Image2DArray
        ) {
            d.image_slice_pitch
        } else {
            0
        },
    };
    let rt = &context.context;
    let image = if let Some(m) = &source {
        let from = match &m.image {
            Some(stored) => runtime::ImageSource::Image(stored),
            None => runtime::ImageSource::Buffer(&m.buffer, d.image_row_pitch),
        };
        runtime::Image::new(rt, access, format, shape, from)
    } else if flags & CL_MEM_USE_HOST_PTR != 0 {
        // SAFETY: the application keeps `host_ptr` valid for the image's rows and slices while
        // the image lives (API 5.3.1, CL_MEM_USE_HOST_PTR).
        unsafe {
            runtime::Image::use_host_ptr(rt, access, format, shape, host_ptr as *mut u8, pitches)
        }
    } else if flags & CL_MEM_COPY_HOST_PTR != 0 {
        let full = host_len(ty, es, &d, pitches);
        // SAFETY: `host_ptr` points to the image's rows and slices (the API's contract).
        let data = unsafe { std::slice::from_raw_parts(host_ptr as *const u8, full) };
        runtime::Image::new(
            rt,
            access,
            format,
            shape,
            runtime::ImageSource::Copy(data, pitches),
        )
    } else if mipmapped {
        runtime::Image::new_mipmapped(rt, access, format, shape, d.num_mip_levels)
    } else {
        runtime::Image::new(rt, access, format, shape, runtime::ImageSource::Zeroed)
    }
    .map_err(|e| match e {
        runtime::Error::OutOfHostMemory(_) | runtime::Error::InvalidBufferSize(_) => {
            CL_MEM_OBJECT_ALLOCATION_FAILURE
        }
        other => code(other),
    })?;
    let host = if flags & CL_MEM_USE_HOST_PTR != 0 {
        host_ptr
    } else {
        std::ptr::null_mut()
    };
    let parent = source.map(|m| (m, 0));
    Ok(new_mem(
        context.clone(),
        image.storage().clone(),
        flags,
        HostPtr(host),
        parent,
        properties,
        Some(image),
    ))
}

/// The bytes of host memory holding a whole image with these pitches.
fn host_len(ty: ImageType, es: usize, d: &cl_image_desc, p: HostPitches) -> usize {
    let row = if p.row_pitch == 0 {
        d.image_width * es
    } else {
        p.row_pitch
    };
    let (rows, slices) = match ty {
        ImageType::Image1D | ImageType::Image1DBuffer => (1, 1),
        ImageType::Image1DArray => (1, d.image_array_size),
        ImageType::Image2D => (d.image_height, 1),
        ImageType::Image2DArray => (d.image_height, d.image_array_size),
        ImageType::Image3D => (d.image_height, d.image_depth),
    };
    let slice = if p.slice_pitch == 0 {
        row * rows
    } else {
        p.slice_pitch
    };
    (slices - 1) * slice + (rows - 1) * row + d.image_width * es
}

pub unsafe extern "C" fn clCreateImage(
    context: cl_context,
    flags: cl_mem_flags,
    format: *const cl_image_format,
    desc: *const cl_image_desc,
    host_ptr: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    // SAFETY: the caller's pointers.
    guard_create(errcode_ret, || unsafe {
        create_image(context, Vec::new(), flags, format, desc, host_ptr)
    })
}

/// `clCreateImageWithProperties`: OpenCL 3.0 defines no image properties.
pub unsafe extern "C" fn clCreateImageWithProperties(
    context: cl_context,
    properties: *const cl_mem_properties,
    flags: cl_mem_flags,
    format: *const cl_image_format,
    desc: *const cl_image_desc,
    host_ptr: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    guard_create(errcode_ret, || {
        Obj::<ContextObj>::get(context)?;
        let mut list = Vec::new();
        if !properties.is_null() {
            // SAFETY: a 0-terminated list.
            if unsafe { *properties } != 0 {
                // "CL_INVALID_PROPERTY if a property name in properties is not a supported
                // property name".
                return Err(CL_INVALID_PROPERTY);
            }
            list.push(0);
        }
        // SAFETY: the caller's pointers.
        unsafe { create_image(context, list, flags, format, desc, host_ptr) }
    })
}

/// `clCreateImage2D` (deprecated in 1.2): `clCreateImage` with a 2D descriptor.
pub unsafe extern "C" fn clCreateImage2D(
    context: cl_context,
    flags: cl_mem_flags,
    format: *const cl_image_format,
    width: usize,
    height: usize,
    row_pitch: usize,
    host_ptr: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    let desc = cl_image_desc {
        image_type: CL_MEM_OBJECT_IMAGE2D,
        image_width: width,
        image_height: height,
        image_depth: 1,
        image_array_size: 1,
        image_row_pitch: row_pitch,
        image_slice_pitch: 0,
        num_mip_levels: 0,
        num_samples: 0,
        mem_object: std::ptr::null_mut(),
    };
    // SAFETY: the caller's pointers; `desc` is local.
    guard_create(errcode_ret, || unsafe {
        create_image(context, Vec::new(), flags, format, &desc, host_ptr)
    })
}

/// `clCreateImage3D` (deprecated in 1.2).
pub unsafe extern "C" fn clCreateImage3D(
    context: cl_context,
    flags: cl_mem_flags,
    format: *const cl_image_format,
    width: usize,
    height: usize,
    depth: usize,
    row_pitch: usize,
    slice_pitch: usize,
    host_ptr: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    let desc = cl_image_desc {
        image_type: CL_MEM_OBJECT_IMAGE3D,
        image_width: width,
        image_height: height,
        image_depth: depth,
        image_array_size: 1,
        image_row_pitch: row_pitch,
        image_slice_pitch: slice_pitch,
        num_mip_levels: 0,
        num_samples: 0,
        mem_object: std::ptr::null_mut(),
    };
    // SAFETY: as above.
    guard_create(errcode_ret, || unsafe {
        create_image(context, Vec::new(), flags, format, &desc, host_ptr)
    })
}

/// `clGetSupportedImageFormats` (API 5.3.2).
pub unsafe extern "C" fn clGetSupportedImageFormats(
    context: cl_context,
    flags: cl_mem_flags,
    image_type_code: cl_mem_object_type,
    num_entries: cl_uint,
    image_formats: *mut cl_image_format,
    num_image_formats: *mut cl_uint,
) -> cl_int {
    guard(|| {
        // "CL_INVALID_CONTEXT if context is not a valid context."
        let context = Obj::<ContextObj>::get(context)?;
        // "CL_INVALID_VALUE if flags or image_type are not valid, or if num_entries is 0 and
        // image_formats is not NULL."
        check_flags(flags)?;
        let ty = image_type(image_type_code).ok_or(CL_INVALID_VALUE)?;
        if num_entries == 0 && !image_formats.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        // A device without images supports no format.
        let formats = if context.context.device().image_support() {
            runtime::supported_formats(ty, access(flags))
        } else {
            Vec::new()
        };
        if !num_image_formats.is_null() {
            // SAFETY: a writable cl_uint.
            unsafe { *num_image_formats = formats.len() as cl_uint };
        }
        if !image_formats.is_null() {
            for (i, f) in formats.iter().take(num_entries as usize).enumerate() {
                // SAFETY: `num_entries` writable entries.
                unsafe { *image_formats.add(i) = cl_format(f) };
            }
        }
        Ok(())
    })
}

/// The image of a handle: "CL_INVALID_MEM_OBJECT if image is a not a valid image object".
fn get_image(mem: cl_mem) -> ClResult<(Arc<Obj<MemObj>>, runtime::Image)> {
    let m = Obj::<MemObj>::get(mem)?;
    let image = m.image.clone().ok_or(CL_INVALID_MEM_OBJECT)?;
    Ok((m, image))
}

/// `clGetImageInfo` (API 5.3.7).
pub unsafe extern "C" fn clGetImageInfo(
    image: cl_mem,
    param_name: cl_image_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    guard(|| {
        let (m, img) = get_image(image)?;
        let d = img.desc();
        let t = d.image_type;
        let value = match param_name {
            CL_IMAGE_FORMAT => Ok(InfoValue::pod(&[cl_format(&d.format)])),
            CL_IMAGE_ELEMENT_SIZE => Ok(InfoValue::usize(d.format.element_size())),
            CL_IMAGE_ROW_PITCH => Ok(InfoValue::usize(d.row_pitch)),
            // "For a 1D image, 1D image buffer and 2D image object return 0."
            CL_IMAGE_SLICE_PITCH => Ok(InfoValue::usize(match t {
                ImageType::Image1D | ImageType::Image1DBuffer | ImageType::Image2D => 0,
                _ => d.slice_pitch,
            })),
            CL_IMAGE_WIDTH => Ok(InfoValue::usize(d.width)),
            // "For a 1D image, 1D image buffer and 1D image array object, height = 0."
            CL_IMAGE_HEIGHT => Ok(InfoValue::usize(if t.dims() >= 2 { d.height } else { 0 })),
            // "For a 1D image, 1D image buffer, 2D image or 1D and 2D image array object,
            // depth = 0."
            CL_IMAGE_DEPTH => Ok(InfoValue::usize(if t == ImageType::Image3D {
                d.depth
            } else {
                0
            })),
            // "If image is not an image array, 0 is returned."
            CL_IMAGE_ARRAY_SIZE => Ok(InfoValue::usize(if t.is_array() {
                d.array_size
            } else {
                0
            })),
            CL_IMAGE_BUFFER => Ok(InfoValue::ptr(
                m.parent
                    .as_ref()
                    .filter(|_| t == ImageType::Image1DBuffer)
                    .map_or(std::ptr::null_mut(), |(p, _)| Obj::handle(p)),
            )),
            // "Return num_mip_levels associated with image" (0 when not mipmapped).
            CL_IMAGE_NUM_MIP_LEVELS => Ok(InfoValue::u32(img.mip_levels())),
            CL_IMAGE_NUM_SAMPLES => Ok(InfoValue::u32(0)),
            // "CL_INVALID_VALUE if param_name is not valid".
            _ => Err(CL_INVALID_VALUE),
        };
        // SAFETY: the caller's buffers.
        unsafe { answer(value, param_value_size, param_value, param_value_size_ret) }
    })
}

/// An image argument of a command: valid, an image, of the queue's context.
fn command_image(
    q: &Arc<Obj<QueueObj>>,
    mem: cl_mem,
) -> ClResult<(Arc<Obj<MemObj>>, runtime::Image)> {
    let m = command_mem(q, mem)?;
    let image = m.image.clone().ok_or(CL_INVALID_MEM_OBJECT)?;
    // "CL_INVALID_OPERATION if the device associated with command_queue does not support
    // images".
    check_image_support(&q.context)?;
    Ok((m, image))
}

/// The region checks of the image commands: "CL_INVALID_VALUE if the region being read or
/// written specified by origin and region is out of bounds or if ptr is a NULL value", "if
/// values in origin and region do not follow rules described in the argument description".
fn check_region(
    image: &runtime::Image,
    origin: runtime::ImageOrigin,
    region: [usize; 3],
) -> ClResult<()> {
    // cl_khr_mipmap_image: "CL_INVALID_MIP_LEVEL if ... the mip level specified in origin is
    // not a valid level for image".
    image.check_region(origin, region).map_err(|e| match e {
        runtime::Error::InvalidMipLevel(_) => CL_INVALID_MIP_LEVEL,
        _ => CL_INVALID_VALUE,
    })
}

/// An image command's `origin` (`const size_t origin[3]`): API 5.3 "Specifying Mipmap Levels to
/// Image Operations": "If image is a 2D image array or a 3D image, origin[3] specifies the mip
/// level to use", so a fourth element is read for those image types when they are mipmapped
/// (the application passes 4 elements then); otherwise only three are read.
///
/// # Safety
/// `p` must be null or point to three `size_t`, four for a mipmapped 2D array or 3D image.
unsafe fn image_origin(image: &runtime::Image, p: *const usize) -> ClResult<runtime::ImageOrigin> {
    // SAFETY: the caller's promise.
    let [x, y, z] = unsafe { triple(p) }?;
    let level_in_fourth = image.mip_levels() > 1
        && matches!(
            image.image_type(),
            ImageType::Image2DArray | ImageType::Image3D
        );
    // SAFETY: a fourth element for these images (the caller's promise; `p` is not null).
    let level = if level_in_fourth {
        unsafe { *p.add(3) }
    } else {
        0
    };
    Ok(runtime::ImageOrigin([x, y, z, level]))
}

/// The host pitches of a read or write: "CL_INVALID_VALUE if image is a 1D or 2D image and
/// slice_pitch or input_slice_pitch is not zero", and the pitch minimums.
fn host_pitches(
    image: &runtime::Image,
    region: [usize; 3],
    row: usize,
    slice: usize,
) -> ClResult<(HostPitches, usize)> {
    let t = image.image_type();
    let es = image.format().element_size();
    if matches!(
        t,
        ImageType::Image1D | ImageType::Image1DBuffer | ImageType::Image2D
    ) && slice != 0
    {
        return Err(CL_INVALID_VALUE);
    }
    let r = if row == 0 { region[0] * es } else { row };
    if r < region[0] * es {
        return Err(CL_INVALID_VALUE);
    }
    let one_row = t == ImageType::Image1DArray;
    let min_slice = if one_row { r } else { r * region[1] };
    let s = if slice == 0 { min_slice } else { slice };
    if s < min_slice {
        return Err(CL_INVALID_VALUE);
    }
    let len = if one_row {
        (region[1] - 1) * s + region[0] * es
    } else {
        (region[2] - 1) * s + (region[1] - 1) * r + region[0] * es
    };
    Ok((
        HostPitches {
            row_pitch: row,
            slice_pitch: slice,
        },
        len,
    ))
}

/// `clEnqueueReadImage` (API 5.3.3).
pub unsafe extern "C" fn clEnqueueReadImage(
    queue: cl_command_queue,
    image: cl_mem,
    blocking_read: cl_bool,
    origin: *const usize,
    region: *const usize,
    row_pitch: usize,
    slice_pitch: usize,
    ptr: *mut c_void,
    num_events: cl_uint,
    events: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    guard(|| {
        // SAFETY: the caller's wait list.
        let (q, wait_for) = unsafe { begin(queue, num_events, events) }?;
        let (m, img) = command_image(&q, image)?;
        // SAFETY: three size_t each, four for a mipmapped origin (null is CL_INVALID_VALUE).
        let (origin, region) = unsafe { (image_origin(&img, origin)?, triple(region)?) };
        check_region(&img, origin, region)?;
        let (pitches, len) = host_pitches(&img, region, row_pitch, slice_pitch)?;
        if ptr.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        check_host_read(&m)?;
        let host = HostPtr(ptr);
        let command = Command {
            queue: &q,
            command_type: CL_COMMAND_READ_IMAGE,
            wait_for,
            blocking: blocking_read != 0,
            event_out: event,
            kind: runtime::commands::CommandKind::Command,
        };
        command.submit(Box::new(move || {
            let host = host;
            // SAFETY: the application's memory covers the host region until completion.
            let out = unsafe { std::slice::from_raw_parts_mut(host.0 as *mut u8, len) };
            img.read(origin, region, out, pitches)
        }))
    })
}

/// `clEnqueueWriteImage` (API 5.3.3).
pub unsafe extern "C" fn clEnqueueWriteImage(
    queue: cl_command_queue,
    image: cl_mem,
    blocking_write: cl_bool,
    origin: *const usize,
    region: *const usize,
    input_row_pitch: usize,
    input_slice_pitch: usize,
    ptr: *const c_void,
    num_events: cl_uint,
    events: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    guard(|| {
        // SAFETY: the caller's wait list.
        let (q, wait_for) = unsafe { begin(queue, num_events, events) }?;
        let (m, img) = command_image(&q, image)?;
        // SAFETY: three size_t each, four for a mipmapped origin.
        let (origin, region) = unsafe { (image_origin(&img, origin)?, triple(region)?) };
        check_region(&img, origin, region)?;
        let (pitches, len) = host_pitches(&img, region, input_row_pitch, input_slice_pitch)?;
        if ptr.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        check_host_write(&m)?;
        let host = HostPtr(ptr as *mut c_void);
        let command = Command {
            queue: &q,
            command_type: CL_COMMAND_WRITE_IMAGE,
            wait_for,
            blocking: blocking_write != 0,
            event_out: event,
            kind: runtime::commands::CommandKind::Command,
        };
        command.submit(Box::new(move || {
            let host = host;
            // SAFETY: the application's memory covers the host region until completion.
            let data = unsafe { std::slice::from_raw_parts(host.0 as *const u8, len) };
            img.write(origin, region, data, pitches)
        }))
    })
}

/// `clEnqueueCopyImage` (API 5.3.4).
pub unsafe extern "C" fn clEnqueueCopyImage(
    queue: cl_command_queue,
    src_image: cl_mem,
    dst_image: cl_mem,
    src_origin: *const usize,
    dst_origin: *const usize,
    region: *const usize,
    num_events: cl_uint,
    events: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    guard(|| {
        // SAFETY: the caller's wait list.
        let (q, wait_for) = unsafe { begin(queue, num_events, events) }?;
        let (_, src) = command_image(&q, src_image)?;
        let (_, dst) = command_image(&q, dst_image)?;
        // "CL_IMAGE_FORMAT_MISMATCH if src_image and dst_image do not use the same image format."
        if src.format() != dst.format() {
            return Err(CL_IMAGE_FORMAT_MISMATCH);
        }
        // SAFETY: three size_t each, four for a mipmapped origin.
        let (so, d_o, region) = unsafe {
            (
                image_origin(&src, src_origin)?,
                image_origin(&dst, dst_origin)?,
                triple(region)?,
            )
        };
        check_region(&src, so, region)?;
        check_region(&dst, d_o, region)?;
        // "CL_MEM_COPY_OVERLAP if src_image and dst_image are the same image object and the
        // source and destination regions overlap" (regions of different mip levels do not).
        let (src_level, s_at) = src.locate(so).map_err(|_| CL_INVALID_VALUE)?;
        let (dst_level, d_at) = dst.locate(d_o).map_err(|_| CL_INVALID_VALUE)?;
        if src.same(&dst)
            && src_level == dst_level
            && (0..3).all(|d| s_at[d] < d_at[d] + region[d] && d_at[d] < s_at[d] + region[d])
        {
            return Err(CL_MEM_COPY_OVERLAP);
        }
        let command = Command {
            queue: &q,
            command_type: CL_COMMAND_COPY_IMAGE,
            wait_for,
            blocking: false,
            event_out: event,
            kind: runtime::commands::CommandKind::Command,
        };
        command.submit(Box::new(move || dst.copy_from(d_o, &src, so, region)))
    })
}

/// `clEnqueueCopyImageToBuffer` (API 5.3.5).
pub unsafe extern "C" fn clEnqueueCopyImageToBuffer(
    queue: cl_command_queue,
    src_image: cl_mem,
    dst_buffer: cl_mem,
    src_origin: *const usize,
    region: *const usize,
    dst_offset: usize,
    num_events: cl_uint,
    events: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    guard(|| {
        // SAFETY: the caller's wait list.
        let (q, wait_for) = unsafe { begin(queue, num_events, events) }?;
        let (_, src) = command_image(&q, src_image)?;
        // "CL_INVALID_MEM_OBJECT if src_image is not a valid image object or dst_buffer is not a
        // valid buffer object".
        let dst = command_buffer(&q, dst_buffer)?;
        // SAFETY: three size_t each, four for a mipmapped origin.
        let (origin, region) = unsafe { (image_origin(&src, src_origin)?, triple(region)?) };
        check_region(&src, origin, region)?;
        // "CL_INVALID_VALUE if the region specified by dst_offset and dst_offset + dst_cb refer
        // to a region outside dst_buffer."
        let len = region.iter().product::<usize>() * src.format().element_size();
        if dst_offset
            .checked_add(len)
            .map_or(true, |end| end > dst.buffer.size())
        {
            return Err(CL_INVALID_VALUE);
        }
        let command = Command {
            queue: &q,
            command_type: CL_COMMAND_COPY_IMAGE_TO_BUFFER,
            wait_for,
            blocking: false,
            event_out: event,
            kind: runtime::commands::CommandKind::Command,
        };
        command.submit(Box::new(move || {
            src.copy_to_buffer(origin, region, &dst.buffer, dst_offset)
        }))
    })
}

/// `clEnqueueCopyBufferToImage` (API 5.3.5).
pub unsafe extern "C" fn clEnqueueCopyBufferToImage(
    queue: cl_command_queue,
    src_buffer: cl_mem,
    dst_image: cl_mem,
    src_offset: usize,
    dst_origin: *const usize,
    region: *const usize,
    num_events: cl_uint,
    events: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    guard(|| {
        // SAFETY: the caller's wait list.
        let (q, wait_for) = unsafe { begin(queue, num_events, events) }?;
        let src = command_buffer(&q, src_buffer)?;
        let (_, dst) = command_image(&q, dst_image)?;
        // SAFETY: three size_t each, four for a mipmapped origin.
        let (origin, region) = unsafe { (image_origin(&dst, dst_origin)?, triple(region)?) };
        check_region(&dst, origin, region)?;
        // "CL_INVALID_VALUE if the region specified by src_offset and src_offset + src_cb refer
        // to a region outside src_buffer."
        let len = region.iter().product::<usize>() * dst.format().element_size();
        if src_offset
            .checked_add(len)
            .map_or(true, |end| end > src.buffer.size())
        {
            return Err(CL_INVALID_VALUE);
        }
        let command = Command {
            queue: &q,
            command_type: CL_COMMAND_COPY_BUFFER_TO_IMAGE,
            wait_for,
            blocking: false,
            event_out: event,
            kind: runtime::commands::CommandKind::Command,
        };
        command.submit(Box::new(move || {
            dst.copy_from_buffer(&src.buffer, src_offset, origin, region)
        }))
    })
}

/// `clEnqueueFillImage` (API 5.3.6): "The fill color is a single floating-point value if the
/// channel order is CL_DEPTH. Otherwise, the fill color is a four component RGBA
/// floating-point color value if the image channel data type is not an unnormalized signed or
/// unsigned integer type, is a four component signed integer value if the image channel data
/// type is an unnormalized signed integer type and is a four component unsigned integer value
/// if the image channel data type is an unnormalized unsigned integer type."
pub unsafe extern "C" fn clEnqueueFillImage(
    queue: cl_command_queue,
    image: cl_mem,
    fill_color: *const c_void,
    origin: *const usize,
    region: *const usize,
    num_events: cl_uint,
    events: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    guard(|| {
        // SAFETY: the caller's wait list.
        let (q, wait_for) = unsafe { begin(queue, num_events, events) }?;
        let (_, img) = command_image(&q, image)?;
        // "CL_INVALID_VALUE if fill_color is NULL."
        if fill_color.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        // SAFETY: three size_t each, four for a mipmapped origin.
        let (origin, region) = unsafe { (image_origin(&img, origin)?, triple(region)?) };
        check_region(&img, origin, region)?;
        let format = img.format();
        // SAFETY: the colour has 4 components of 4 bytes (1 for a depth image).
        let color = unsafe {
            if format.order() == ChannelOrder::Depth {
                let v = *(fill_color as *const f32);
                runtime::Texel::Float([v, 0.0, 0.0, 1.0])
            } else {
                match format.texel_kind() {
                    runtime::TexelKind::Float => {
                        runtime::Texel::Float(*(fill_color as *const [f32; 4]))
                    }
                    runtime::TexelKind::Int => {
                        runtime::Texel::Int(*(fill_color as *const [i32; 4]))
                    }
                    runtime::TexelKind::Uint => {
                        runtime::Texel::Uint(*(fill_color as *const [u32; 4]))
                    }
                }
            }
        };
        let command = Command {
            queue: &q,
            command_type: CL_COMMAND_FILL_IMAGE,
            wait_for,
            blocking: false,
            event_out: event,
            kind: runtime::commands::CommandKind::Command,
        };
        command.submit(Box::new(move || img.fill(color, origin, region)))
    })
}

/// `clEnqueueMapImage` (API 5.3.8). Images live in host memory: the mapped region is the
/// image's own memory, with the image's pitches.
pub unsafe extern "C" fn clEnqueueMapImage(
    queue: cl_command_queue,
    image: cl_mem,
    blocking_map: cl_bool,
    map_flags: cl_map_flags,
    origin: *const usize,
    region: *const usize,
    image_row_pitch: *mut usize,
    image_slice_pitch: *mut usize,
    num_events: cl_uint,
    events: *const cl_event,
    event: *mut cl_event,
    errcode_ret: *mut cl_int,
) -> *mut c_void {
    guard_create(errcode_ret, || {
        // SAFETY: the caller's wait list.
        let (q, wait_for) = unsafe { begin(queue, num_events, events) }?;
        let (m, img) = command_image(&q, image)?;
        // SAFETY: three size_t each, four for a mipmapped origin.
        let (origin, region) = unsafe { (image_origin(&img, origin)?, triple(region)?) };
        // "CL_INVALID_VALUE if region being mapped given by (origin, origin + region) is out of
        // bounds or if values specified in map_flags are not valid"; "if image_row_pitch is
        // NULL"; "if image is a 3D image, 1D or 2D image array object and image_slice_pitch is
        // NULL".
        check_region(&img, origin, region)?;
        let valid_flags = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
        if map_flags & !valid_flags != 0
            || (map_flags & CL_MAP_WRITE_INVALIDATE_REGION != 0
                && map_flags & (CL_MAP_READ | CL_MAP_WRITE) != 0)
        {
            return Err(CL_INVALID_VALUE);
        }
        if image_row_pitch.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        let needs_slice = matches!(
            img.image_type(),
            ImageType::Image3D | ImageType::Image1DArray | ImageType::Image2DArray
        );
        if needs_slice && image_slice_pitch.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        check_map_access(&m, map_flags)?;
        let (address, row, slice) = img.map(origin, region).map_err(|_| CL_INVALID_VALUE)?;
        // SAFETY: writable size_t's (checked non-null; the slice pitch may be null for 1D/2D).
        unsafe {
            *image_row_pitch = row;
            if !image_slice_pitch.is_null() {
                *image_slice_pitch = slice;
            }
        }
        let address = address as *mut c_void;
        submit_map(
            &q,
            &m,
            address,
            CL_COMMAND_MAP_IMAGE,
            wait_for,
            blocking_map != 0,
            event,
        )
    })
}
