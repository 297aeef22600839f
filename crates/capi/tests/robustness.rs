//! Every entry point oxcl provides, called with arguments no application should pass — all
//! zero, and a foreign pointer where the first handle goes — returns an error (or NULL) and
//! never crashes the process (issue 7: "a process using oxcl never aborts because of what an
//! API call was given").
//!
//! A third pass gives each live object of every kind as the first argument, the rest zero, to
//! every entry point but the releases: whatever the result, the process survives.
//!
//! The entry points are taken from the dispatch list by name and called through one wide
//! signature of 12 pointer-sized integer arguments. On x86-64 System V every OpenCL argument
//! (integers, pointers, handles, `size_t`) is passed in an integer register or an 8-byte stack
//! slot, and arguments a callee does not declare are ignored, so the call is well defined at
//! the ABI level; the test runs on that target only.

#![cfg(all(target_arch = "x86_64", target_os = "linux"))]

mod direct;

use std::ffi::c_void;

use direct::Session;
use oxcl::consts::*;
use oxcl::dispatch::{dispatch_names, function_address};

type Wide = unsafe extern "C" fn(
    usize,
    usize,
    usize,
    usize,
    usize,
    usize,
    usize,
    usize,
    usize,
    usize,
    usize,
    usize,
) -> usize;

/// Entry points that return a pointer (an object, a mapping, an address) rather than `cl_int`.
fn returns_pointer(name: &str) -> bool {
    let status = ["clCreateKernelsInProgram", "clCreateSubDevices"];
    (name.starts_with("clCreate") && !status.contains(&name))
        || name.starts_with("clLink")
        || name.starts_with("clClone")
        || name.starts_with("clEnqueueMap")
        || name.starts_with("clGetExtensionFunctionAddress")
        || name == "clSVMAlloc"
}

/// `clSVMFree` returns nothing; `clUnloadCompiler` has no argument to be wrong about.
fn no_status(name: &str) -> bool {
    matches!(name, "clSVMFree" | "clUnloadCompiler")
}

/// Entry points whose first argument is not a handle (a count, a property list, a name).
fn first_is_not_a_handle(name: &str) -> bool {
    matches!(
        name,
        "clGetPlatformIDs"
            | "clCreateContext"
            | "clCreateContextFromType"
            | "clWaitForEvents"
            | "clGetExtensionFunctionAddress"
            | "clUnloadCompiler"
    )
}

/// Calls entry point `name` with `args`; its raw return value.
fn raw_call(name: &str, args: [usize; 12]) -> usize {
    let address = function_address(name);
    assert!(!address.is_null(), "{name}");
    // SAFETY: see the module documentation; every entry point has at most 12 integer-class
    // arguments and returns an integer or a pointer.
    unsafe {
        let f: Wide = std::mem::transmute::<*mut c_void, Wide>(address);
        f(
            args[0], args[1], args[2], args[3], args[4], args[5], args[6], args[7], args[8],
            args[9], args[10], args[11],
        )
    }
}

/// Calls `name` with `args` and says what went wrong, if anything.
fn call(name: &str, args: [usize; 12]) -> Option<String> {
    let result = raw_call(name, args);
    if no_status(name) {
        return None;
    }
    if returns_pointer(name) {
        return (result != 0).then(|| format!("{name} returned {result:#x}"));
    }
    let status = result as u32 as i32;
    (status == CL_SUCCESS).then(|| format!("{name} returned CL_SUCCESS"))
}

#[test]
fn every_entry_point_refuses_zero_arguments() {
    let mut failures = Vec::new();
    let mut called = 0;
    for (name, filled) in dispatch_names() {
        if !filled {
            continue;
        }
        called += 1;
        failures.extend(call(name, [0; 12]));
    }
    assert!(called > 100, "{called} entry points");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_entry_point_refuses_a_foreign_first_handle() {
    static JUNK: [u64; 16] = [0x5A5A_5A5A_5A5A_5A5A; 16];
    let foreign = [0x1234usize, JUNK.as_ptr() as usize, usize::MAX & !7];
    let mut failures = Vec::new();
    for (name, filled) in dispatch_names() {
        if !filled || first_is_not_a_handle(name) {
            continue;
        }
        for &handle in &foreign {
            let mut args = [0usize; 12];
            args[0] = handle;
            failures.extend(call(name, args));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_entry_point_survives_live_handles_with_zero_arguments() {
    let s = Session::new();
    let program = s.build_source(
        "__kernel void k(__global int *p, int v) { p[get_global_id(0)] = v; }\n",
        "",
    );
    let kernel = s.kernel(program, "k");
    let buffer = s.buffer(&[0i32; 16]);
    let mut err = 0;
    // SAFETY: a live context.
    let user_event = unsafe { oxcl::event::clCreateUserEvent(s.context, &mut err) };
    assert_eq!(err, CL_SUCCESS);
    let handles = [
        s.platform, s.device, s.context, s.queue, buffer, program, kernel, user_event,
    ];
    let mut called = 0;
    for (name, filled) in dispatch_names() {
        if !filled || name.starts_with("clRelease") || first_is_not_a_handle(name) {
            continue;
        }
        for &handle in &handles {
            let mut args = [0usize; 12];
            args[0] = handle as usize;
            raw_call(name, args);
            called += 1;
        }
    }
    assert!(called > 800, "{called} calls");
    // SAFETY: live handles created here (a retain above may keep them alive longer).
    unsafe {
        oxcl::queue::clFinish(s.queue);
        oxcl::event::clReleaseEvent(user_event);
        oxcl::kernel::clReleaseKernel(kernel);
        oxcl::program::clReleaseProgram(program);
        oxcl::memory::clReleaseMemObject(buffer);
    }
}
