//! The C API called directly (no loader): the dispatch table against `cl_icd.h`, handle
//! validation of pointers the loader would never let through, and the two-call info protocol.

use std::ffi::c_void;
use std::ptr::{null, null_mut};

use oxcl::consts::*;
use oxcl::context::*;
use oxcl::device::*;
use oxcl::dispatch::{dispatch_len, dispatch_names, function_address};
use oxcl::platform::*;

/// The member names of `struct _cl_icd_dispatch`, in order, from the installed header.
fn header_dispatch_members() -> Option<Vec<String>> {
    let text = std::fs::read_to_string("/usr/include/CL/cl_icd.h").ok()?;
    let start = text.find("typedef struct _cl_icd_dispatch {")?;
    let body = &text[start..];
    let body = &body[..body.find("} cl_icd_dispatch;")?];
    // Each member is `cl_api_NAME NAME;`, possibly across two lines.
    let words: Vec<&str> = body
        .split(|c: char| c.is_whitespace() || c == ';')
        .filter(|w| !w.is_empty())
        .collect();
    Some(
        words
            .iter()
            .filter_map(|w| w.strip_prefix("cl_api_"))
            .map(|w| w.to_string())
            .collect(),
    )
}

#[test]
fn dispatch_table_follows_cl_icd_h() {
    let Some(members) = header_dispatch_members() else {
        eprintln!("skipped: /usr/include/CL/cl_icd.h (opencl-headers) is not installed");
        return;
    };
    let ours: Vec<&str> = dispatch_names().iter().map(|(n, _)| *n).collect();
    assert_eq!(ours, members);
    assert_eq!(dispatch_len(), members.len());
}

#[test]
fn every_core_entry_point_is_filled() {
    // The slots left empty are the sharing extensions (GL, D3D, DX9, EGL) and EXT fission.
    for (name, filled) in dispatch_names() {
        let sharing = ["GL", "D3D", "DX9", "EGL", "EXT"]
            .iter()
            .any(|s| name.contains(s));
        assert_eq!(filled, !sharing, "{name}");
        if filled {
            assert!(!function_address(name).is_null(), "{name}");
        }
    }
    assert!(!function_address("clIcdGetPlatformIDsKHR").is_null());
    // cl_khr_il_program is reported, so its suffixed entry point exists.
    assert!(!function_address("clCreateProgramWithILKHR").is_null());
    assert!(function_address("clNoSuchFunction").is_null());
}

fn platform_and_device() -> (*mut c_void, *mut c_void) {
    let mut platform = null_mut();
    let mut device = null_mut();
    // SAFETY: valid out-pointers.
    unsafe {
        assert_eq!(clGetPlatformIDs(1, &mut platform, null_mut()), CL_SUCCESS);
        assert_eq!(
            clGetDeviceIDs(platform, CL_DEVICE_TYPE_DEFAULT, 1, &mut device, null_mut()),
            CL_SUCCESS
        );
    }
    (platform, device)
}

#[test]
fn foreign_pointers_are_rejected_without_being_dereferenced() {
    let mut junk = [0xDEAD_BEEFu64; 4];
    let junk = junk.as_mut_ptr() as *mut c_void;
    let mut size = 0usize;
    // SAFETY: the entry points must not touch the junk pointer's memory.
    unsafe {
        assert_eq!(
            clGetDeviceInfo(junk, CL_DEVICE_NAME, 0, null_mut(), &mut size),
            CL_INVALID_DEVICE
        );
        assert_eq!(
            clGetPlatformInfo(junk, CL_PLATFORM_NAME, 0, null_mut(), &mut size),
            CL_INVALID_PLATFORM
        );
        assert_eq!(clRetainContext(junk), CL_INVALID_CONTEXT);
        assert_eq!(clReleaseContext(null_mut()), CL_INVALID_CONTEXT);
        assert_eq!(
            oxcl::memory::clReleaseMemObject(junk),
            CL_INVALID_MEM_OBJECT
        );
        assert_eq!(oxcl::event::clWaitForEvents(1, &junk), CL_INVALID_EVENT);
        assert_eq!(oxcl::queue::clFinish(junk), CL_INVALID_COMMAND_QUEUE);
    }
}

#[test]
fn info_queries_follow_the_two_call_protocol() {
    let (platform, device) = platform_and_device();
    let mut size = 0usize;
    // SAFETY: buffers sized by the first call.
    unsafe {
        assert_eq!(
            clGetPlatformInfo(platform, CL_PLATFORM_NAME, 0, null_mut(), &mut size),
            CL_SUCCESS
        );
        assert_eq!(size, "oxcl".len() + 1);
        let mut name = vec![0u8; size];
        assert_eq!(
            clGetPlatformInfo(
                platform,
                CL_PLATFORM_NAME,
                size,
                name.as_mut_ptr() as *mut c_void,
                null_mut()
            ),
            CL_SUCCESS
        );
        assert_eq!(&name, b"oxcl\0");
        // Too small a buffer.
        assert_eq!(
            clGetPlatformInfo(
                platform,
                CL_PLATFORM_NAME,
                2,
                name.as_mut_ptr() as *mut c_void,
                null_mut()
            ),
            CL_INVALID_VALUE
        );
        // A cl_bool answer is 4 bytes; the non-uniform work-group support is claimed (runtime does it).
        let mut flag = 0u32;
        assert_eq!(
            clGetDeviceInfo(
                device,
                CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT,
                4,
                &mut flag as *mut u32 as *mut c_void,
                &mut size
            ),
            CL_SUCCESS
        );
        assert_eq!((flag, size), (1, 4));
        // cl_name_version entries are 4 + 64 bytes.
        assert_eq!(
            clGetDeviceInfo(device, CL_DEVICE_ILS_WITH_VERSION, 0, null_mut(), &mut size),
            CL_SUCCESS
        );
        assert!(size > 0 && size % 68 == 0, "{size}");
    }
}

#[test]
fn every_opencl_3_device_query_is_answered() {
    let (_, device) = platform_and_device();
    // Every CL_DEVICE_* query of the OpenCL 3.0 core headers (0x1000..=0x1072, less the
    // numbers cl.h leaves unused), plus CL_DRIVER_VERSION.
    let unused = [
        0x102D_u32, 0x1033, 0x105F, 0x106A, 0x106B, 0x106C, 0x106D, 0x106E,
    ];
    for query in (0x1000u32..=0x1072)
        .filter(|q| !unused.contains(q))
        .chain([CL_DRIVER_VERSION])
    {
        let mut size = 0usize;
        // SAFETY: size query only.
        let code = unsafe { clGetDeviceInfo(device, query, 0, null_mut(), &mut size) };
        assert_eq!(code, CL_SUCCESS, "query {query:#x}");
        let mut value = vec![0u8; size.max(1)];
        // SAFETY: a buffer of the announced size.
        let code = unsafe {
            clGetDeviceInfo(
                device,
                query,
                size,
                value.as_mut_ptr() as *mut c_void,
                null_mut(),
            )
        };
        assert_eq!(code, CL_SUCCESS, "query {query:#x}");
    }
}

#[test]
fn contexts_count_references_and_call_destructors_in_reverse() {
    use std::sync::Mutex;
    static ORDER: Mutex<Vec<usize>> = Mutex::new(Vec::new());
    unsafe extern "C" fn record(_context: *mut c_void, data: *mut c_void) {
        ORDER.lock().unwrap().push(data as usize);
    }
    let (_, device) = platform_and_device();
    let mut err = 0;
    // SAFETY: valid arguments; the context is released to 0 at the end.
    unsafe {
        let ctx = clCreateContext(null(), 1, &device, None, null_mut(), &mut err);
        assert_eq!(err, CL_SUCCESS);
        assert_eq!(
            clSetContextDestructorCallback(ctx, Some(record), 1 as *mut c_void),
            CL_SUCCESS
        );
        assert_eq!(
            clSetContextDestructorCallback(ctx, Some(record), 2 as *mut c_void),
            CL_SUCCESS
        );
        assert_eq!(
            clSetContextDestructorCallback(ctx, None, null_mut()),
            CL_INVALID_VALUE
        );
        assert_eq!(clRetainContext(ctx), CL_SUCCESS);
        let mut refs = 0u32;
        clGetContextInfo(
            ctx,
            CL_CONTEXT_REFERENCE_COUNT,
            4,
            &mut refs as *mut u32 as *mut c_void,
            null_mut(),
        );
        assert_eq!(refs, 2);
        assert_eq!(clReleaseContext(ctx), CL_SUCCESS);
        assert!(ORDER.lock().unwrap().is_empty());
        assert_eq!(clReleaseContext(ctx), CL_SUCCESS);
        // "called in the reverse order of registration".
        assert_eq!(*ORDER.lock().unwrap(), vec![2, 1]);
        // The handle is gone: a further release is detected, not a use after free.
        assert_eq!(clReleaseContext(ctx), CL_INVALID_CONTEXT);
    }
}

/// A `cl_device_info` value of `N` bytes.
fn device_bytes<const N: usize>(device: *mut c_void, query: u32) -> [u8; N] {
    let mut value = [0u8; N];
    let mut size = 0usize;
    // SAFETY: a buffer of N bytes.
    let code = unsafe {
        clGetDeviceInfo(
            device,
            query,
            N,
            value.as_mut_ptr() as *mut c_void,
            &mut size,
        )
    };
    assert_eq!((code, size), (CL_SUCCESS, N), "query {query:#x}");
    value
}

#[test]
fn half_precision_and_opencl_c_2_0_are_reported_with_their_features() {
    let (_, device) = platform_and_device();
    // cl_khr_fp16: CL_DEVICE_HALF_FP_CONFIG (0x1033) at least round to nearest with
    // infinities and NaNs; half vector widths 1.
    let config = u64::from_le_bytes(device_bytes::<8>(device, 0x1033));
    let minimum = CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN;
    assert_eq!(config & minimum, minimum, "{config:#x}");
    for query in [
        CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF,
        CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF,
    ] {
        assert_eq!(u32::from_le_bytes(device_bytes::<4>(device, query)), 1);
    }
    let mut size = 0usize;
    // SAFETY: size query, then a buffer of that size.
    let text = unsafe {
        clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, 0, null_mut(), &mut size);
        let mut buf = vec![0u8; size];
        clGetDeviceInfo(
            device,
            CL_DEVICE_EXTENSIONS,
            size,
            buf.as_mut_ptr() as *mut c_void,
            null_mut(),
        );
        String::from_utf8_lossy(&buf).into_owned()
    };
    assert!(
        text.split_whitespace().any(|e| e == "cl_khr_fp16"),
        "{text}"
    );
    // Work-group collective functions, and with them OpenCL C 2.0 among the versions (each
    // entry a cl_name_version: a 4-byte version and a 64-byte name).
    let support = device_bytes::<4>(device, CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT);
    assert_eq!(u32::from_le_bytes(support), CL_TRUE);
    // SAFETY: size query, then a buffer of that size.
    let versions = unsafe {
        clGetDeviceInfo(
            device,
            CL_DEVICE_OPENCL_C_ALL_VERSIONS,
            0,
            null_mut(),
            &mut size,
        );
        let mut buf = vec![0u8; size];
        clGetDeviceInfo(
            device,
            CL_DEVICE_OPENCL_C_ALL_VERSIONS,
            size,
            buf.as_mut_ptr() as *mut c_void,
            null_mut(),
        );
        buf
    };
    let listed: Vec<u32> = versions
        .chunks_exact(68)
        .map(|e| u32::from_le_bytes([e[0], e[1], e[2], e[3]]))
        .collect();
    // CL_MAKE_VERSION(2, 0, 0) = 2 << 22.
    assert!(listed.contains(&(2 << 22)), "{listed:x?}");
}
