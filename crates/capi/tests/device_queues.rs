//! On-device queues through the C API (API 5.1): `clCreateCommandQueueWithProperties` with
//! `CL_QUEUE_ON_DEVICE` (+`CL_QUEUE_ON_DEVICE_DEFAULT`, `CL_QUEUE_SIZE`) and its errors,
//! `clGetCommandQueueInfo` of a device queue, host commands refused on it,
//! `clSetDefaultDeviceCommandQueue`, the device's device-side enqueue queries (API 4.2, values
//! of `runtime::device_queue`), and a kernel compiled by clang-15 + llvm-spirv-15 whose children
//! have run when `clFinish` returns (expected values computed by hand), and the host-side
//! profiling of such a parent: `CL_PROFILING_COMMAND_END` excludes its children,
//! `CL_PROFILING_COMMAND_COMPLETE` includes them (API 5.14).

mod common;
mod direct;

use std::ffi::c_void;
use std::ptr::{null, null_mut};

use direct::{check, Session};
use oxcl::consts::*;
use oxcl::device::*;
use oxcl::event::*;
use oxcl::kernel::*;
use oxcl::memory::*;
use oxcl::queue::*;

fn device_info<T: Copy + Default>(session: &Session, name: u32) -> T {
    let mut v = T::default();
    // SAFETY: an out-value of the queried type's size.
    check(
        unsafe {
            clGetDeviceInfo(
                session.device,
                name,
                std::mem::size_of::<T>(),
                &mut v as *mut T as *mut c_void,
                null_mut(),
            )
        },
        "clGetDeviceInfo",
    );
    v
}

fn device_queue(session: &Session, properties: &[u64]) -> Result<*mut c_void, i32> {
    let mut err = 0;
    // SAFETY: a 0-terminated property list.
    let q = unsafe {
        clCreateCommandQueueWithProperties(
            session.context,
            session.device,
            properties.as_ptr(),
            &mut err,
        )
    };
    if err == CL_SUCCESS {
        Ok(q)
    } else {
        Err(err)
    }
}

fn queue_info<T: Copy + Default>(queue: *mut c_void, name: u32) -> Result<T, i32> {
    let mut v = T::default();
    // SAFETY: an out-value of the queried type's size.
    let status = unsafe {
        clGetCommandQueueInfo(
            queue,
            name,
            std::mem::size_of::<T>(),
            &mut v as *mut T as *mut c_void,
            null_mut(),
        )
    };
    if status == CL_SUCCESS {
        Ok(v)
    } else {
        Err(status)
    }
}

const ON_DEVICE: u64 = CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_ON_DEVICE;
const PROPS: u64 = CL_QUEUE_PROPERTIES as u64;
const SIZE: u64 = CL_QUEUE_SIZE as u64;

#[test]
fn device_queries() {
    let s = Session::new();
    assert_eq!(
        device_info::<u64>(&s, CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES),
        CL_DEVICE_QUEUE_SUPPORTED | CL_DEVICE_QUEUE_REPLACEABLE_DEFAULT
    );
    // API 4.2 full-profile minimums.
    assert_eq!(
        device_info::<u64>(&s, CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES),
        CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE
    );
    assert_eq!(
        device_info::<u32>(&s, CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE),
        16 * 1024
    );
    assert_eq!(
        device_info::<u32>(&s, CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE),
        256 * 1024
    );
    assert_eq!(device_info::<u32>(&s, CL_DEVICE_MAX_ON_DEVICE_QUEUES), 1);
    assert_eq!(device_info::<u32>(&s, CL_DEVICE_MAX_ON_DEVICE_EVENTS), 1024);
}

#[test]
fn creating_and_using_device_queues() {
    let s = Session::new();
    // "CL_INVALID_VALUE if values specified in properties are not valid": ON_DEVICE needs
    // out-of-order execution, DEFAULT needs ON_DEVICE, CL_QUEUE_SIZE needs ON_DEVICE and at
    // most CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE.
    for bad in [
        vec![PROPS, CL_QUEUE_ON_DEVICE, 0],
        vec![
            PROPS,
            CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_ON_DEVICE_DEFAULT,
            0,
        ],
        vec![SIZE, 4096, 0],
        vec![PROPS, ON_DEVICE, SIZE, 256 * 1024 + 1, 0],
    ] {
        assert_eq!(device_queue(&s, &bad), Err(CL_INVALID_VALUE), "{bad:?}");
    }
    let q = device_queue(&s, &[PROPS, ON_DEVICE, SIZE, 8192, 0]).expect("device queue");
    assert_eq!(queue_info::<u32>(q, CL_QUEUE_SIZE), Ok(8192));
    assert_eq!(
        queue_info::<u32>(s.queue, CL_QUEUE_SIZE),
        Err(CL_INVALID_COMMAND_QUEUE)
    );
    // Not the default yet.
    assert_eq!(queue_info::<usize>(q, CL_QUEUE_DEVICE_DEFAULT), Ok(0));
    // CL_DEVICE_MAX_ON_DEVICE_QUEUES is 1.
    assert_eq!(
        device_queue(&s, &[PROPS, ON_DEVICE, 0]),
        Err(CL_OUT_OF_RESOURCES)
    );
    // Host commands are refused.
    let data = [0u32; 4];
    let buf = s.buffer(&data);
    let mut out = [0u32; 4];
    // SAFETY: a 16-byte destination.
    let status = unsafe {
        clEnqueueReadBuffer(
            q,
            buf,
            CL_TRUE,
            0,
            16,
            out.as_mut_ptr() as *mut c_void,
            0,
            null(),
            null_mut(),
        )
    };
    assert_eq!(status, CL_INVALID_COMMAND_QUEUE);
    // SAFETY: handles of this test.
    unsafe {
        assert_eq!(
            clSetDefaultDeviceCommandQueue(s.context, s.device, s.queue),
            CL_INVALID_COMMAND_QUEUE
        );
        check(
            clSetDefaultDeviceCommandQueue(s.context, s.device, q),
            "clSetDefaultDeviceCommandQueue",
        );
    }
    assert_eq!(
        queue_info::<usize>(q, CL_QUEUE_DEVICE_DEFAULT),
        Ok(q as usize)
    );
    // SAFETY: handles of this test.
    unsafe {
        clReleaseMemObject(buf);
        check(clReleaseCommandQueue(q), "clReleaseCommandQueue");
    }
}

const SOURCE: &str = r#"
kernel void parent(global int *out) {
    int r = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(4),
        ^{ out[get_global_id(0)] = 3 * (int)get_global_id(0) + 1; });
    out[8] = r;
}
"#;

#[test]
fn children_run_before_the_parent_completes() {
    let Some(path) = common::clang_spirv(SOURCE, "device_queues") else {
        return;
    };
    let il = std::fs::read(path).expect("read the module");
    let s = Session::new();
    let program = s.program_from_il(&il);
    s.build(program, "");
    let kernel = s.kernel(program, "parent");
    let q = device_queue(&s, &[PROPS, ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT, 0])
        .expect("default device queue");
    let out = s.buffer(&[0i32; 9]);
    s.arg_mem(kernel, 0, out);
    s.run(kernel, 1, None);
    assert_eq!(s.read::<i32>(out, 9), [1, 4, 7, 10, 0, 0, 0, 0, 0]);
    // SAFETY: handles of this test.
    unsafe {
        clReleaseMemObject(out);
        clReleaseKernel(kernel);
        oxcl::program::clReleaseProgram(program);
        clReleaseCommandQueue(q);
    }
}

/// API 5.1, footnote to `CL_QUEUE_ON_DEVICE_DEFAULT`: "If a default device queue has already
/// been created, calling clCreateCommandQueueWithProperties with CL_QUEUE_PROPERTIES set to
/// CL_QUEUE_ON_DEVICE and CL_QUEUE_ON_DEVICE_DEFAULT will return the default device queue
/// that has already been created and increment its reference count by 1."
#[test]
fn a_second_default_device_queue_is_the_first_retained() {
    let s = Session::new();
    let default = [PROPS, ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT, 0];
    let first = device_queue(&s, &default).expect("default device queue");
    assert_eq!(queue_info::<u32>(first, CL_QUEUE_REFERENCE_COUNT), Ok(1));
    let second = device_queue(
        &s,
        &[PROPS, ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT, SIZE, 4096, 0],
    )
    .expect("the default device queue again");
    assert_eq!(second, first, "the same handle");
    assert_eq!(queue_info::<u32>(first, CL_QUEUE_REFERENCE_COUNT), Ok(2));
    assert_eq!(
        queue_info::<usize>(second, CL_QUEUE_DEVICE_DEFAULT),
        Ok(first as usize)
    );
    // Invalid properties are still refused before the existing queue is looked up.
    assert_eq!(
        device_queue(
            &s,
            &[PROPS, CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT, 0]
        ),
        Err(CL_INVALID_VALUE)
    );
    // A non-default device queue is a new queue: over CL_DEVICE_MAX_ON_DEVICE_QUEUES (1).
    assert_eq!(
        device_queue(&s, &[PROPS, ON_DEVICE, 0]),
        Err(CL_OUT_OF_RESOURCES)
    );
    // SAFETY: handles of this test; two API references to release.
    unsafe {
        check(clReleaseCommandQueue(second), "clReleaseCommandQueue");
        assert_eq!(queue_info::<u32>(first, CL_QUEUE_REFERENCE_COUNT), Ok(1));
        check(clReleaseCommandQueue(first), "clReleaseCommandQueue");
    }
}

const PROFILED_SOURCE: &str = r#"
kernel void parent(global ulong *out, int n) {
    enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(64),
        ^{
            ulong acc = get_global_id(0);
            for (int k = 0; k < n; k++) acc = acc * 6364136223846793005UL + 1442695040888963407UL;
            out[get_global_id(0)] = acc;
        });
}
kernel void alone(global ulong *out) { out[get_global_id(0)] = 7; }
"#;

/// (START, END, COMPLETE) of a profiled event.
fn profile(event: *mut c_void) -> [u64; 3] {
    [
        CL_PROFILING_COMMAND_START,
        CL_PROFILING_COMMAND_END,
        CL_PROFILING_COMMAND_COMPLETE,
    ]
    .map(|name| {
        let mut v = 0u64;
        // SAFETY: a complete event of a profiling queue; a u64 out-value.
        check(
            unsafe {
                clGetEventProfilingInfo(
                    event,
                    name,
                    8,
                    &mut v as *mut u64 as *mut c_void,
                    null_mut(),
                )
            },
            "clGetEventProfilingInfo",
        );
        v
    })
}

/// The profile of one run of `kernel` on `queue` over `global` work-items.
fn profiled_run(queue: *mut c_void, kernel: *mut c_void, global: usize) -> [u64; 3] {
    let mut event = null_mut();
    // SAFETY: valid handles and out-pointer.
    unsafe {
        check(
            clEnqueueNDRangeKernel(
                queue,
                kernel,
                1,
                null(),
                &global,
                null(),
                0,
                null(),
                &mut event,
            ),
            "clEnqueueNDRangeKernel",
        );
        check(clWaitForEvents(1, &event), "clWaitForEvents");
    }
    let times = profile(event);
    // SAFETY: the event of this run.
    unsafe { clReleaseEvent(event) };
    times
}

/// API 5.14: `CL_PROFILING_COMMAND_END` is when "the command identified by event has finished
/// execution", `CL_PROFILING_COMMAND_COMPLETE` when it "and any child commands enqueued by this
/// command on the device have finished execution". The parent only enqueues; its 64 children
/// run 20000 steps of a linear congruential generator each, so almost all of the time between
/// START and COMPLETE is theirs: END must lie before COMPLETE by more than START lies before
/// END. A kernel without children has END = COMPLETE.
#[test]
fn a_parent_kernels_end_excludes_its_children_and_complete_includes_them() {
    let Some(path) = common::clang_spirv(PROFILED_SOURCE, "device_queues_profiling") else {
        return;
    };
    let il = std::fs::read(path).expect("read the module");
    let s = Session::new();
    let mut err = 0;
    let properties = [PROPS, CL_QUEUE_PROFILING_ENABLE, 0];
    // SAFETY: a 0-terminated property list.
    let profiled = unsafe {
        clCreateCommandQueueWithProperties(s.context, s.device, properties.as_ptr(), &mut err)
    };
    check(err, "clCreateCommandQueueWithProperties(PROFILING)");
    let program = s.program_from_il(&il);
    s.build(program, "");
    let (parent, alone) = (s.kernel(program, "parent"), s.kernel(program, "alone"));
    let q = device_queue(&s, &[PROPS, ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT, 0])
        .expect("default device queue");
    let out = s.buffer(&[0u64; 64]);
    s.arg_mem(parent, 0, out);
    let steps = 20000i32;
    // SAFETY: an int argument.
    check(
        unsafe { clSetKernelArg(parent, 1, 4, &steps as *const i32 as *const c_void) },
        "clSetKernelArg",
    );
    let [start, end, complete] = profiled_run(profiled, parent, 1);
    // The children ran: the generator's value after `steps` steps from each id.
    let expected: Vec<u64> = (0..64u64)
        .map(|id| {
            (0..steps).fold(id, |acc, _| {
                acc.wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407)
            })
        })
        .collect();
    assert_eq!(s.read::<u64>(out, 64), expected);
    assert!(
        start <= end && end < complete,
        "START {start}, END {end}, COMPLETE {complete}"
    );
    // (How long the children took against the parent is not asserted: timings depend on the
    // machine's load.)
    s.arg_mem(alone, 0, out);
    let [start, end, complete] = profiled_run(profiled, alone, 4);
    assert!(start <= end && end == complete, "{start} {end} {complete}");
    // SAFETY: handles of this test.
    unsafe {
        clReleaseMemObject(out);
        clReleaseKernel(parent);
        clReleaseKernel(alone);
        oxcl::program::clReleaseProgram(program);
        clReleaseCommandQueue(q);
        clReleaseCommandQueue(profiled);
    }
}
