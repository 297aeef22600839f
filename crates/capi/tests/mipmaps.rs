//! cl_khr_mipmap_image through the C API, called directly: a mipmapped 2D image, one level
//! written and read back (origin[2] is the level), `CL_IMAGE_NUM_MIP_LEVELS`,
//! `CL_INVALID_MIP_LEVEL`, host pointers refused; a mipmapped 3D image and 2D array addressed
//! with 4-element origins (origin[3] is the level); the sampler's mip filter and lod clamp
//! properties, queried and used by a kernel. Expected values are computed by hand here.

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

        // The nearest mip filter is accepted and reported.
        let props: [cl_sampler_properties; 3] = [
            CL_SAMPLER_MIP_FILTER_MODE as cl_sampler_properties,
            CL_FILTER_NEAREST as cl_sampler_properties,
            0,
        ];
        let sampler = clCreateSamplerWithProperties(s.context, props.as_ptr(), &mut err);
        direct::check(err, "clCreateSamplerWithProperties");
        assert_eq!(
            sampler_u32(sampler, CL_SAMPLER_MIP_FILTER_MODE),
            CL_FILTER_NEAREST
        );
        direct::check(clReleaseSampler(sampler), "clReleaseSampler");
    }
}

/// A `cl_uint` sampler query.
///
/// # Safety
/// `sampler` must be a valid sampler.
unsafe fn sampler_u32(sampler: cl_sampler, name: cl_sampler_info) -> cl_uint {
    let mut v: cl_uint = 0;
    // SAFETY: a valid sampler and a 4-byte answer.
    let status = unsafe {
        clGetSamplerInfo(
            sampler,
            name,
            4,
            &mut v as *mut cl_uint as *mut c_void,
            null_mut(),
        )
    };
    direct::check(status, "clGetSamplerInfo");
    v
}

/// A `cl_float` sampler query.
///
/// # Safety
/// `sampler` must be a valid sampler.
unsafe fn sampler_f32(sampler: cl_sampler, name: cl_sampler_info) -> f32 {
    let mut v = 0f32;
    let mut size = 0usize;
    // SAFETY: a valid sampler and a 4-byte answer.
    let status = unsafe {
        clGetSamplerInfo(
            sampler,
            name,
            4,
            &mut v as *mut f32 as *mut c_void,
            &mut size,
        )
    };
    direct::check(status, "clGetSamplerInfo");
    assert_eq!(size, 4, "a cl_float");
    v
}

/// The `cl_sampler_properties` value of a `cl_float` property: its bits in the low 32 bits.
fn float_property(v: f32) -> cl_sampler_properties {
    cl_sampler_properties::from(v.to_bits())
}

#[test]
fn mipmapped_3d_image_and_2d_array_take_the_level_in_origin_3() {
    let s = direct::Session::new();
    let format = cl_image_format {
        image_channel_order: CL_R,
        image_channel_data_type: CL_FLOAT,
    };
    let mut err = 0;
    // SAFETY: valid handles and descriptors throughout; every origin has 4 elements.
    unsafe {
        // 8×4×4 with 4 levels: 8×4×4, 4×2×2, 2×1×1, 1×1×1.
        let d3 = cl_image_desc {
            image_type: CL_MEM_OBJECT_IMAGE3D,
            image_depth: 4,
            ..desc(4)
        };
        let image = clCreateImage(
            s.context,
            CL_MEM_READ_WRITE,
            &format,
            &d3,
            null_mut(),
            &mut err,
        );
        direct::check(err, "clCreateImage 3D");
        let read = |origin: [usize; 4], region: [usize; 3], out: &mut [f32]| {
            clEnqueueReadImage(
                s.queue,
                image,
                1,
                origin.as_ptr(),
                region.as_ptr(),
                0,
                0,
                out.as_mut_ptr() as *mut c_void,
                0,
                null(),
                null_mut(),
            )
        };
        // Level 1 (4×2×2), written whole with origin[3] = 1.
        let data: Vec<f32> = (0..16).map(|k| k as f32 + 0.5).collect();
        let status = clEnqueueWriteImage(
            s.queue,
            image,
            1,
            [0usize, 0, 0, 1].as_ptr(),
            [4usize, 2, 2].as_ptr(),
            0,
            0,
            data.as_ptr() as *const c_void,
            0,
            null(),
            null_mut(),
        );
        direct::check(status, "clEnqueueWriteImage level 1");
        let mut back = [0f32; 16];
        direct::check(read([0, 0, 0, 1], [4, 2, 2], &mut back), "read level 1");
        assert_eq!(back.to_vec(), data);
        // Level 0 is untouched; level 4 does not exist; 4×2×3 does not fit level 1.
        direct::check(read([0, 0, 0, 0], [4, 2, 2], &mut back), "read level 0");
        assert_eq!(back, [0.0; 16]);
        assert_eq!(
            read([0, 0, 0, 4], [1, 1, 1], &mut back),
            CL_INVALID_MIP_LEVEL
        );
        assert_eq!(read([0, 0, 0, 1], [4, 2, 3], &mut back), CL_INVALID_VALUE);
        // Copy texel (3, 1, 1) of level 1 (index 1×8 + 1×4 + 3 = 15) into level 2 at (1, 0, 0):
        // the same image, different levels, so no overlap.
        let status = clEnqueueCopyImage(
            s.queue,
            image,
            image,
            [3usize, 1, 1, 1].as_ptr(),
            [1usize, 0, 0, 2].as_ptr(),
            [1usize, 1, 1].as_ptr(),
            0,
            null(),
            null_mut(),
        );
        direct::check(status, "clEnqueueCopyImage");
        let mut level2 = [0f32; 2];
        direct::check(read([0, 0, 0, 2], [2, 1, 1], &mut level2), "read level 2");
        assert_eq!(level2, [0.0, 15.5]);
        // Map texel (1, 1, 1) of level 1: the level's pitches, 4 × 4 and 4 × 4 × 2 bytes.
        let (mut row, mut slice) = (0usize, 0usize);
        let mapped = clEnqueueMapImage(
            s.queue,
            image,
            1,
            CL_MAP_READ,
            [1usize, 1, 1, 1].as_ptr(),
            [1usize, 1, 1].as_ptr(),
            &mut row,
            &mut slice,
            0,
            null(),
            null_mut(),
            &mut err,
        );
        direct::check(err, "clEnqueueMapImage");
        assert_eq!((row, slice), (16, 32));
        assert_eq!(std::ptr::read_unaligned(mapped as *const f32), 13.5);
        direct::check(
            oxcl::memory::clEnqueueUnmapMemObject(s.queue, image, mapped, 0, null(), null_mut()),
            "clEnqueueUnmapMemObject",
        );
        direct::check(oxcl::queue::clFinish(s.queue), "clFinish");
        direct::check(clReleaseMemObject(image), "clReleaseMemObject");

        // A 2D array of 3 layers: fill layer 2 of level 1 (4×2) with 7, read it back.
        let da = cl_image_desc {
            image_type: CL_MEM_OBJECT_IMAGE2D_ARRAY,
            image_array_size: 3,
            ..desc(3)
        };
        let array = clCreateImage(
            s.context,
            CL_MEM_READ_WRITE,
            &format,
            &da,
            null_mut(),
            &mut err,
        );
        direct::check(err, "clCreateImage 2D array");
        let color = [7f32, 0.0, 0.0, 1.0];
        let status = clEnqueueFillImage(
            s.queue,
            array,
            color.as_ptr() as *const c_void,
            [0usize, 0, 2, 1].as_ptr(),
            [4usize, 2, 1].as_ptr(),
            0,
            null(),
            null_mut(),
        );
        direct::check(status, "clEnqueueFillImage");
        let mut layers = [0f32; 24];
        let status = clEnqueueReadImage(
            s.queue,
            array,
            1,
            [0usize, 0, 0, 1].as_ptr(),
            [4usize, 2, 3].as_ptr(),
            0,
            0,
            layers.as_mut_ptr() as *mut c_void,
            0,
            null(),
            null_mut(),
        );
        direct::check(status, "clEnqueueReadImage 2D array level 1");
        let mut expect = [0f32; 24];
        expect[16..].fill(7.0);
        assert_eq!(layers, expect);
        direct::check(clReleaseMemObject(array), "clReleaseMemObject");
    }
}

const AT_LODS: &str = r#"
__kernel void at_lods(read_only image2d_t img, sampler_t s, __global float *out) {
    int i = get_global_id(0);
    float lods[4] = {0.25f, 1.25f, 2.0f, 3.5f};
    out[i] = read_imagef(img, s, (float2)(0.3f, 0.6f), lods[i]).x;
}
"#;

#[test]
fn linear_mip_filter_and_lod_clamps_through_the_c_api() {
    let s = direct::Session::new();
    let format = cl_image_format {
        image_channel_order: CL_R,
        image_channel_data_type: CL_FLOAT,
    };
    let mut err = 0;
    // SAFETY: valid handles and descriptors throughout.
    unsafe {
        let props: [cl_sampler_properties; 11] = [
            CL_SAMPLER_NORMALIZED_COORDS as cl_sampler_properties,
            1,
            CL_SAMPLER_MIP_FILTER_MODE as cl_sampler_properties,
            CL_FILTER_LINEAR as cl_sampler_properties,
            CL_SAMPLER_LOD_MIN as cl_sampler_properties,
            float_property(0.5),
            CL_SAMPLER_LOD_MAX as cl_sampler_properties,
            float_property(2.5),
            CL_SAMPLER_FILTER_MODE as cl_sampler_properties,
            CL_FILTER_NEAREST as cl_sampler_properties,
            0,
        ];
        let sampler = clCreateSamplerWithProperties(s.context, props.as_ptr(), &mut err);
        direct::check(err, "clCreateSamplerWithProperties");
        assert_eq!(
            sampler_u32(sampler, CL_SAMPLER_MIP_FILTER_MODE),
            CL_FILTER_LINEAR
        );
        assert_eq!(sampler_f32(sampler, CL_SAMPLER_LOD_MIN), 0.5);
        assert_eq!(sampler_f32(sampler, CL_SAMPLER_LOD_MAX), 2.5);
        // The defaults: 0.0f and MAXFLOAT.
        let plain = clCreateSamplerWithProperties(s.context, null(), &mut err);
        direct::check(err, "clCreateSamplerWithProperties (defaults)");
        assert_eq!(sampler_f32(plain, CL_SAMPLER_LOD_MIN), 0.0);
        assert_eq!(sampler_f32(plain, CL_SAMPLER_LOD_MAX), f32::MAX);
        direct::check(clReleaseSampler(plain), "clReleaseSampler");
        // A NaN clamp is not a valid value.
        let nan: [cl_sampler_properties; 3] = [
            CL_SAMPLER_LOD_MIN as cl_sampler_properties,
            float_property(f32::NAN),
            0,
        ];
        let bad = clCreateSamplerWithProperties(s.context, nan.as_ptr(), &mut err);
        assert!(bad.is_null());
        assert_eq!(err, CL_INVALID_VALUE);

        // Level l of the 8×4 image is 10^l everywhere (filled level by level, origin[2]).
        let image = clCreateImage(
            s.context,
            CL_MEM_READ_WRITE,
            &format,
            &desc(4),
            null_mut(),
            &mut err,
        );
        direct::check(err, "clCreateImage");
        for (l, (w, h)) in [(8usize, 4usize), (4, 2), (2, 1), (1, 1)]
            .into_iter()
            .enumerate()
        {
            let color = [10f32.powi(l as i32), 0.0, 0.0, 1.0];
            let status = clEnqueueFillImage(
                s.queue,
                image,
                color.as_ptr() as *const c_void,
                [0usize, 0, l].as_ptr(),
                [w, h, 1].as_ptr(),
                0,
                null(),
                null_mut(),
            );
            direct::check(status, "clEnqueueFillImage");
        }
        let program = s.build_source(AT_LODS, "-cl-std=CL2.0");
        let kernel = s.kernel(program, "at_lods");
        let out = s.buffer(&[0f32; 4]);
        s.arg_mem(kernel, 0, image);
        let status = oxcl::kernel::clSetKernelArg(
            kernel,
            1,
            std::mem::size_of::<cl_sampler>(),
            &sampler as *const cl_sampler as *const c_void,
        );
        direct::check(status, "clSetKernelArg sampler");
        s.arg_mem(kernel, 2, out);
        s.run(kernel, 4, None);
        // lambda' = min(max(lod, 0.5), 2.5), then (1 - frac) T(floor) + frac T(floor + 1):
        // 0.25 → 0.5: 0.5 × 1 + 0.5 × 10 = 5.5; 1.25: 0.75 × 10 + 0.25 × 100 = 32.5;
        // 2.0: 100; 3.5 → 2.5: 0.5 × 100 + 0.5 × 1000 = 550.
        assert_eq!(s.read::<f32>(out, 4), [5.5, 32.5, 100.0, 550.0]);
        direct::check(clReleaseSampler(sampler), "clReleaseSampler");
        direct::check(clReleaseMemObject(image), "clReleaseMemObject");
        direct::check(clReleaseMemObject(out), "clReleaseMemObject");
    }
}
