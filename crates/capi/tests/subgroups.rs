//! Sub-groups through the C API: the device's claims (`cl_khr_subgroups`,
//! `__opencl_c_subgroups`, `CL_DEVICE_MAX_NUM_SUB_GROUPS`), every `clGetKernelSubGroupInfo`
//! query and its errors (API 5.9.4), and kernels using the sub-group built-ins (from oxcl's
//! compiler and, when installed, from clang-15 + llvm-spirv-15). The expected results are
//! computed here from the sub-group size the API reports and the spec's definitions (OpenCL C
//! 3.0 6.15.16).

mod common;
mod direct;

use std::ffi::c_void;
use std::ptr::{null, null_mut};

use direct::{check, spirv_as, Session};
use oxcl::consts::*;
use oxcl::device::*;
use oxcl::kernel::*;
use oxcl::program::*;
use oxcl::subgroup::*;

fn device_string(session: &Session, name: u32) -> String {
    let mut buf = vec![0u8; 8192];
    let mut size = 0;
    // SAFETY: a buffer of `buf.len()` bytes.
    check(
        unsafe {
            clGetDeviceInfo(
                session.device,
                name,
                buf.len(),
                buf.as_mut_ptr() as *mut c_void,
                &mut size,
            )
        },
        "clGetDeviceInfo",
    );
    String::from_utf8_lossy(&buf[..size.saturating_sub(1)]).into_owned()
}

fn device_u32(session: &Session, name: u32) -> u32 {
    let mut v = 0u32;
    // SAFETY: a cl_uint out-value.
    check(
        unsafe {
            clGetDeviceInfo(
                session.device,
                name,
                4,
                &mut v as *mut u32 as *mut c_void,
                null_mut(),
            )
        },
        "clGetDeviceInfo",
    );
    v
}

fn device_usize(session: &Session, name: u32) -> usize {
    let mut v = 0usize;
    // SAFETY: a size_t out-value.
    check(
        unsafe {
            clGetDeviceInfo(
                session.device,
                name,
                8,
                &mut v as *mut usize as *mut c_void,
                null_mut(),
            )
        },
        "clGetDeviceInfo",
    );
    v
}

/// A `size_t` answer of `clGetKernelSubGroupInfo` with `input` as input value.
fn sub_group_info(
    kernel: *mut c_void,
    device: *mut c_void,
    name: u32,
    input: &[usize],
) -> (i32, usize) {
    let mut v = usize::MAX;
    // SAFETY: `input` and the out-value are valid for their sizes.
    let status = unsafe {
        clGetKernelSubGroupInfo(
            kernel,
            device,
            name,
            std::mem::size_of_val(input),
            if input.is_empty() {
                null()
            } else {
                input.as_ptr() as *const c_void
            },
            8,
            &mut v as *mut usize as *mut c_void,
            null_mut(),
        )
    };
    (status, v)
}

const SOURCE: &str = r#"
__kernel void sg(__global uint *info, __global const int *vals, __global int *out) {
    size_t g = get_global_id(0);
    info[g * 5 + 0] = get_sub_group_size();
    info[g * 5 + 1] = get_max_sub_group_size();
    info[g * 5 + 2] = get_num_sub_groups();
    info[g * 5 + 3] = get_sub_group_id();
    info[g * 5 + 4] = get_sub_group_local_id();
    int v = vals[g];
    out[g * 6 + 0] = sub_group_reduce_add(v);
    out[g * 6 + 1] = sub_group_scan_exclusive_add(v);
    out[g * 6 + 2] = sub_group_scan_inclusive_max(v);
    out[g * 6 + 3] = sub_group_broadcast(v, 0);
    out[g * 6 + 4] = sub_group_all(v > -40);
    out[g * 6 + 5] = sub_group_any(v > 10);
    sub_group_barrier(CLK_GLOBAL_MEM_FENCE);
}
"#;

const GLOBAL: usize = 96;
const LOCAL: usize = 32;

/// Runs `sg` and checks each work-item's results against the definitions, for sub-groups of
/// `size` consecutive local ids (the last one possibly smaller).
fn run_and_check(session: &Session, program: *mut c_void, size: usize) {
    let kernel = session.kernel(program, "sg");
    let vals: Vec<i32> = (0..GLOBAL as i32).map(|i| (i * 29) % 61 - 30).collect();
    let info = session.buffer(&vec![0u32; GLOBAL * 5]);
    let input = session.buffer(&vals);
    let out = session.buffer(&vec![0i32; GLOBAL * 6]);
    session.arg_mem(kernel, 0, info);
    session.arg_mem(kernel, 1, input);
    session.arg_mem(kernel, 2, out);
    session.run(kernel, GLOBAL, Some(LOCAL));
    let info: Vec<u32> = session.read(info, GLOBAL * 5);
    let out: Vec<i32> = session.read(out, GLOBAL * 6);
    for g in 0..GLOBAL {
        let (group, lid) = (g / LOCAL, g % LOCAL);
        let (sub, sub_lid) = (lid / size, lid % size);
        let first = group * LOCAL + sub * size;
        let members = &vals[first..(first + size).min((group + 1) * LOCAL)];
        let expected_info = [
            members.len() as u32,
            size as u32,
            LOCAL.div_ceil(size) as u32,
            sub as u32,
            sub_lid as u32,
        ];
        assert_eq!(&info[g * 5..g * 5 + 5], &expected_info, "work-item {g}");
        let got = &out[g * 6..g * 6 + 6];
        assert_eq!(got[0], members.iter().sum::<i32>(), "reduce_add, item {g}");
        assert_eq!(
            got[1],
            members[..sub_lid].iter().sum::<i32>(),
            "scan_exclusive_add, item {g}"
        );
        assert_eq!(
            got[2],
            *members[..=sub_lid].iter().max().expect("one"),
            "scan_inclusive_max, item {g}"
        );
        assert_eq!(got[3], members[0], "broadcast, item {g}");
        assert_eq!(
            got[4] != 0,
            members.iter().all(|&v| v > -40),
            "all, item {g}"
        );
        assert_eq!(
            got[5] != 0,
            members.iter().any(|&v| v > 10),
            "any, item {g}"
        );
    }
    // SAFETY: handle created here.
    unsafe { clReleaseKernel(kernel) };
}

#[test]
fn device_claims_sub_groups_and_kernels_use_them() {
    let session = Session::new();
    assert!(device_string(&session, CL_DEVICE_EXTENSIONS)
        .split(' ')
        .any(|e| e == "cl_khr_subgroups"));
    let max_wg = device_usize(&session, CL_DEVICE_MAX_WORK_GROUP_SIZE);
    let max_num = device_u32(&session, CL_DEVICE_MAX_NUM_SUB_GROUPS) as usize;
    assert!(max_num >= 1 && max_num <= max_wg);

    let program = session.build_source(SOURCE, "-cl-std=CL3.0");
    let kernel = session.kernel(program, "sg");
    let dev = session.device;
    let (status, size) = sub_group_info(
        kernel,
        dev,
        CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
        &[LOCAL],
    );
    check(status, "CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE");
    assert!((1..=LOCAL).contains(&size));
    // The device's maximum number of sub-groups and the sub-group size cover its largest
    // work-group.
    assert!(max_num * size >= max_wg);
    // A NULL device is the one device of the context.
    assert_eq!(
        sub_group_info(
            kernel,
            null_mut(),
            CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE,
            &[LOCAL]
        ),
        (CL_SUCCESS, LOCAL.div_ceil(size))
    );
    assert_eq!(
        sub_group_info(
            kernel,
            dev,
            CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE,
            &[8, 4, 2]
        ),
        (CL_SUCCESS, 64usize.div_ceil(size))
    );
    let (status, max_sub_groups) = sub_group_info(kernel, dev, CL_KERNEL_MAX_NUM_SUB_GROUPS, &[]);
    check(status, "CL_KERNEL_MAX_NUM_SUB_GROUPS");
    let mut wg = 0usize;
    // SAFETY: a size_t out-value.
    check(
        unsafe {
            clGetKernelWorkGroupInfo(
                kernel,
                dev,
                CL_KERNEL_WORK_GROUP_SIZE,
                8,
                &mut wg as *mut usize as *mut c_void,
                null_mut(),
            )
        },
        "CL_KERNEL_WORK_GROUP_SIZE",
    );
    assert_eq!(max_sub_groups, wg.div_ceil(size));
    assert!(max_sub_groups <= max_num);
    assert_eq!(
        sub_group_info(kernel, dev, CL_KERNEL_COMPILE_NUM_SUB_GROUPS, &[]),
        (CL_SUCCESS, 0)
    );

    // CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT: one dimension used, the others 1; the local
    // size it gives makes exactly that many sub-groups; an impossible count gives zeros.
    let mut local = [usize::MAX; 3];
    let mut ret = 0usize;
    // SAFETY: one size_t in, three out.
    check(
        unsafe {
            clGetKernelSubGroupInfo(
                kernel,
                dev,
                CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                8,
                &4usize as *const usize as *const c_void,
                24,
                local.as_mut_ptr() as *mut c_void,
                &mut ret,
            )
        },
        "CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT",
    );
    assert_eq!(ret, 24);
    assert_eq!(local[1..], [1, 1]);
    assert_eq!(
        sub_group_info(kernel, dev, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, &local),
        (CL_SUCCESS, 4)
    );
    let too_many = max_sub_groups + 1;
    // SAFETY: as above.
    check(
        unsafe {
            clGetKernelSubGroupInfo(
                kernel,
                dev,
                CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                8,
                &too_many as *const usize as *const c_void,
                24,
                local.as_mut_ptr() as *mut c_void,
                null_mut(),
            )
        },
        "CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT",
    );
    assert_eq!(local, [0, 0, 0]);

    // Errors (API 5.9.4).
    // "CL_INVALID_KERNEL if kernel is a not a valid kernel object."
    assert_eq!(
        sub_group_info(null_mut(), dev, CL_KERNEL_MAX_NUM_SUB_GROUPS, &[]).0,
        CL_INVALID_KERNEL
    );
    assert_eq!(
        sub_group_info(program, dev, CL_KERNEL_MAX_NUM_SUB_GROUPS, &[]).0,
        CL_INVALID_KERNEL
    );
    // "CL_INVALID_DEVICE if device is not in the list of devices associated with kernel".
    assert_eq!(
        sub_group_info(kernel, session.context, CL_KERNEL_MAX_NUM_SUB_GROUPS, &[]).0,
        CL_INVALID_DEVICE
    );
    // "CL_INVALID_VALUE if param_name is not one of the supported values".
    assert_eq!(
        sub_group_info(kernel, dev, CL_KERNEL_WORK_GROUP_SIZE, &[]).0,
        CL_INVALID_VALUE
    );
    // "... or if the size in bytes specified by param_value_size is less than size of the
    // return type ... and param_value is not NULL."
    let mut small = 0u32;
    // SAFETY: a 4-byte out-value, too small for the size_t answer.
    let status = unsafe {
        clGetKernelSubGroupInfo(
            kernel,
            dev,
            CL_KERNEL_MAX_NUM_SUB_GROUPS,
            0,
            null(),
            4,
            &mut small as *mut u32 as *mut c_void,
            null_mut(),
        )
    };
    assert_eq!(status, CL_INVALID_VALUE);
    // "CL_INVALID_VALUE if param_name is CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
    // CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE or CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT and the
    // size in bytes specified by input_value_size is not valid or if input_value is NULL."
    for name in [
        CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
        CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE,
        CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
    ] {
        assert_eq!(
            sub_group_info(kernel, dev, name, &[]).0,
            CL_INVALID_VALUE,
            "{name:#x} without input"
        );
        assert_eq!(
            sub_group_info(kernel, dev, name, &[1, 1, 1, 1]).0,
            CL_INVALID_VALUE,
            "{name:#x} with 4 sizes"
        );
        let mut v = 0usize;
        // SAFETY: 5 bytes of a valid array: a size that is not a multiple of size_t.
        let status = unsafe {
            clGetKernelSubGroupInfo(
                kernel,
                dev,
                name,
                5,
                [8usize].as_ptr() as *const c_void,
                8,
                &mut v as *mut usize as *mut c_void,
                null_mut(),
            )
        };
        assert_eq!(status, CL_INVALID_VALUE, "{name:#x} with 5 input bytes");
    }
    assert_eq!(
        sub_group_info(
            kernel,
            dev,
            CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
            &[1, 1]
        )
        .0,
        CL_INVALID_VALUE
    );
    // The KHR name is the same function.
    let mut v = 0usize;
    // SAFETY: valid input and output.
    let status = unsafe {
        clGetKernelSubGroupInfoKHR(
            kernel,
            dev,
            CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE,
            8,
            [LOCAL].as_ptr() as *const c_void,
            8,
            &mut v as *mut usize as *mut c_void,
            null_mut(),
        )
    };
    assert_eq!((status, v), (CL_SUCCESS, LOCAL.div_ceil(size)));

    run_and_check(&session, program, size);
    // SAFETY: handles created here.
    unsafe {
        clReleaseKernel(kernel);
        clReleaseProgram(program);
    }

    // The same kernel compiled by clang-15 + llvm-spirv-15 (OpGroup* instructions).
    let clang_source = format!("#pragma OPENCL EXTENSION cl_khr_subgroups : enable\n{SOURCE}");
    if let Some(path) = common::clang_spirv(&clang_source, "subgroups") {
        let il = std::fs::read(path).expect("read the module");
        let program = session.program_from_il(&il);
        session.build(program, "");
        run_and_check(&session, program, size);
        // SAFETY: handle created here.
        unsafe { clReleaseProgram(program) };
    }
}

/// `SubgroupsPerWorkgroup` in the IL is what `CL_KERNEL_COMPILE_NUM_SUB_GROUPS` reports.
const DISPATCH_MODULE: &str = r#"
OpCapability Addresses
OpCapability Kernel
OpCapability SubgroupDispatch
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "fixed"
OpEntryPoint Kernel %k2 "free"
OpExecutionMode %k SubgroupsPerWorkgroup 4
%void = OpTypeVoid
%fn = OpTypeFunction %void
%k = OpFunction %void None %fn
%e = OpLabel
OpReturn
OpFunctionEnd
%k2 = OpFunction %void None %fn
%e2 = OpLabel
OpReturn
OpFunctionEnd
"#;

#[test]
fn compile_num_sub_groups_comes_from_the_il() {
    let Some(il) = spirv_as(DISPATCH_MODULE, "dispatch") else {
        return;
    };
    let session = Session::new();
    let program = session.program_from_il(&il);
    session.build(program, "");
    let fixed = session.kernel(program, "fixed");
    let free = session.kernel(program, "free");
    assert_eq!(
        sub_group_info(fixed, session.device, CL_KERNEL_COMPILE_NUM_SUB_GROUPS, &[]),
        (CL_SUCCESS, 4)
    );
    assert_eq!(
        sub_group_info(free, session.device, CL_KERNEL_COMPILE_NUM_SUB_GROUPS, &[]),
        (CL_SUCCESS, 0)
    );
    // SAFETY: handles created here.
    unsafe {
        clReleaseKernel(fixed);
        clReleaseKernel(free);
        clReleaseProgram(program);
    }
}
