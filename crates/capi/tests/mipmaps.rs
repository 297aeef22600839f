//! cl_khr_mipmap_image through the C API, called directly: a mipmapped 2D image, one level
//! written and read back (origin[2] is the level), `CL_IMAGE_NUM_MIP_LEVELS`,
//! `CL_INVALID_MIP_LEVEL`, host pointers refused, and the sampler's mip filter property.
//! Expected values are computed by hand here.

mod direct;

use std::ffi::c_void;
use std::ptr::{null, null_mut};

use oxcl::consts::*;
use oxcl::image::*;
use oxcl::memory::clReleaseMemObject;
use oxcl::sampler::*;
use oxcl::types::*;

fn desc(levels: u32) -> cl_image_desc {
    cl_image_desc {
        image_type: CL_MEM_OBJECT_IMAGE2D,
        image_width: 8,
        image_height: 4,
        image_depth: 0,
        image_array_size: 0,
        image_row_pitch: 0,
        image_slice_pitch: 0,
        num_mip_levels: levels,
        num_samples: 0,
        mem_object: null_mut(),
    }
}

#[test]
fn mipmapped_image_through_the_c_api() {
    let s = direct::Session::new();
    let format = cl_image_format {
        image_channel_order: CL_R,
        image_channel_data_type: CL_FLOAT,
    };
    let mut err = 0;
    // SAFETY: valid handles and descriptors throughout.
    unsafe {
        let image = clCreateImage(
            s.context,
            CL_MEM_READ_WRITE,
            &format,
            &desc(4),
            null_mut(),
            &mut err,
        );
        direct::check(err, "clCreateImage");
        let mut levels: cl_uint = 0;
        let status = clGetImageInfo(
            image,
            CL_IMAGE_NUM_MIP_LEVELS,
            4,
            &mut levels as *mut cl_uint as *mut c_void,
            null_mut(),
        );
        direct::check(status, "clGetImageInfo");
        assert_eq!(levels, 4);
        // Level 1 is 4×2.
        let data: [f32; 8] = [1., 2., 3., 4., 5., 6., 7., 8.];
        let (origin, region) = ([0usize, 0, 1], [4usize, 2, 1]);
        let status = clEnqueueWriteImage(
            s.queue,
            image,
            1,
            origin.as_ptr(),
            region.as_ptr(),
            0,
            0,
            data.as_ptr() as *const c_void,
            0,
            null(),
            null_mut(),
        );
        direct::check(status, "clEnqueueWriteImage");
        let mut back = [0f32; 8];
        let status = clEnqueueReadImage(
            s.queue,
            image,
            1,
            origin.as_ptr(),
            region.as_ptr(),
            0,
            0,
            back.as_mut_ptr() as *mut c_void,
            0,
            null(),
            null_mut(),
        );
        direct::check(status, "clEnqueueReadImage");
        assert_eq!(back, data);
        // Level 0 is still zero; level 4 does not exist; 8×2 does not fit level 1.
        let status = clEnqueueReadImage(
            s.queue,
            image,
            1,
            [0usize, 0, 0].as_ptr(),
            region.as_ptr(),
            0,
            0,
            back.as_mut_ptr() as *mut c_void,
            0,
            null(),
            null_mut(),
        );
        direct::check(status, "clEnqueueReadImage level 0");
        assert_eq!(back, [0.0; 8]);
        let bad_level = clEnqueueReadImage(
            s.queue,
            image,
            1,
            [0usize, 0, 4].as_ptr(),
            [1usize, 1, 1].as_ptr(),
            0,
            0,
            back.as_mut_ptr() as *mut c_void,
            0,
            null(),
            null_mut(),
        );
        assert_eq!(bad_level, CL_INVALID_MIP_LEVEL);
        let too_big = clEnqueueReadImage(
            s.queue,
            image,
            1,
            origin.as_ptr(),
            [8usize, 2, 1].as_ptr(),
            0,
            0,
            back.as_mut_ptr() as *mut c_void,
            0,
            null(),
            null_mut(),
        );
        assert_eq!(too_big, CL_INVALID_VALUE);
        direct::check(clReleaseMemObject(image), "clReleaseMemObject");

        // "The host_ptr argument to clCreateImage must be a NULL value."
        let mut host = [0f32; 32];
        let with_ptr = clCreateImage(
            s.context,
            CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
            &format,
            &desc(2),
            host.as_mut_ptr() as *mut c_void,
            &mut err,
        );
        assert!(with_ptr.is_null());
        assert_eq!(err, CL_INVALID_HOST_PTR);
        // 5 levels exceed log2(8) + 1.
        let too_many = clCreateImage(
            s.context,
            CL_MEM_READ_WRITE,
            &format,
            &desc(5),
            null_mut(),
            &mut err,
        );
        assert!(too_many.is_null());
        assert_eq!(err, CL_INVALID_IMAGE_DESCRIPTOR);

        // The nearest mip filter is accepted and reported; the linear one is not.
        let props: [cl_sampler_properties; 3] = [
            CL_SAMPLER_MIP_FILTER_MODE as cl_sampler_properties,
            CL_FILTER_NEAREST as cl_sampler_properties,
            0,
        ];
        let sampler = clCreateSamplerWithProperties(s.context, props.as_ptr(), &mut err);
        direct::check(err, "clCreateSamplerWithProperties");
        let mut mode: cl_uint = 0;
        let status = clGetSamplerInfo(
            sampler,
            CL_SAMPLER_MIP_FILTER_MODE,
            4,
            &mut mode as *mut cl_uint as *mut c_void,
            null_mut(),
        );
        direct::check(status, "clGetSamplerInfo");
        assert_eq!(mode, CL_FILTER_NEAREST);
        direct::check(clReleaseSampler(sampler), "clReleaseSampler");
        let props: [cl_sampler_properties; 3] = [
            CL_SAMPLER_MIP_FILTER_MODE as cl_sampler_properties,
            CL_FILTER_LINEAR as cl_sampler_properties,
            0,
        ];
        let linear = clCreateSamplerWithProperties(s.context, props.as_ptr(), &mut err);
        assert!(linear.is_null());
        assert_eq!(err, CL_INVALID_VALUE);
    }
}
