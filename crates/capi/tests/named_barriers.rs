//! cl_khr_subgroup_named_barrier through the C API: the device claims the extension and
//! `CL_DEVICE_MAX_NAMED_BARRIER_COUNT_KHR` (at least the extension's minimum, 8), and a SPIR-V
//! 1.1 module using `OpNamedBarrierInitialize` / `OpMemoryNamedBarrier` (exec's test module,
//! assembled by spirv-as and checked by spirv-val) builds and runs: work-items 0 and 1 meet at
//! one barrier of sub-group count 2, work-items 2 and 3 at another, each reading what its
//! partner stored (expected values worked out by hand). Skips with a printed reason when
//! spirv-as or spirv-val is absent.

mod common;
mod direct;

use std::ffi::c_void;
use std::process::Command;
use std::ptr::null;

use direct::{check, Session};
use oxcl::consts::*;
use oxcl::device::*;
use oxcl::kernel::*;

const MODULE: &str = include_str!("../../exec/tests/consumer_coverage/named_barriers.spvasm");

fn assemble() -> Option<Vec<u8>> {
    let ok = |tool: &str| {
        Command::new(tool)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if !ok("spirv-as") || !ok("spirv-val") {
        eprintln!("skipping: spirv-as or spirv-val is not installed");
        return None;
    }
    let dir = std::env::temp_dir().join(format!("oxcl-named-barriers-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let (src, out) = (dir.join("m.spvasm"), dir.join("m.spv"));
    std::fs::write(&src, MODULE).expect("write");
    let o = Command::new("spirv-as")
        .args(["--target-env", "spv1.1", "-o"])
        .arg(&out)
        .arg(&src)
        .output()
        .expect("spirv-as");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = Command::new("spirv-val")
        .args(["--target-env", "spv1.1"])
        .arg(&out)
        .output()
        .expect("spirv-val");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let bytes = std::fs::read(&out).expect("read");
    let _ = std::fs::remove_dir_all(&dir);
    Some(bytes)
}

#[test]
fn named_barriers_are_claimed_and_run() {
    let s = Session::new();
    let mut buf = vec![0u8; 8192];
    let mut size = 0;
    let mut count = 0u32;
    // SAFETY: buffers of the given sizes.
    unsafe {
        check(
            clGetDeviceInfo(
                s.device,
                CL_DEVICE_EXTENSIONS,
                buf.len(),
                buf.as_mut_ptr() as *mut c_void,
                &mut size,
            ),
            "CL_DEVICE_EXTENSIONS",
        );
        check(
            clGetDeviceInfo(
                s.device,
                CL_DEVICE_MAX_NAMED_BARRIER_COUNT_KHR,
                4,
                &mut count as *mut u32 as *mut c_void,
                std::ptr::null_mut(),
            ),
            "CL_DEVICE_MAX_NAMED_BARRIER_COUNT_KHR",
        );
    }
    let extensions = String::from_utf8_lossy(&buf[..size]).into_owned();
    assert!(
        extensions
            .split_whitespace()
            .any(|e| e.trim_end_matches('\0') == "cl_khr_subgroup_named_barrier"),
        "{extensions}"
    );
    assert!(count >= 8, "CL_DEVICE_MAX_NAMED_BARRIER_COUNT_KHR {count}");
    let Some(il) = assemble() else { return };
    let program = s.program_from_il(&il);
    s.build(program, "");
    let kernel = s.kernel(program, "pairs");
    let out = s.buffer(&[0u32; 4]);
    s.arg_mem(kernel, 0, out);
    // SAFETY: a `__local` argument: size, no value.
    check(
        unsafe { clSetKernelArg(kernel, 1, 16, null()) },
        "clSetKernelArg(local)",
    );
    s.run(kernel, 4, Some(4));
    assert_eq!(s.read::<u32>(out, 4), [11, 10, 23, 22]);
    // SAFETY: handles of this test.
    unsafe {
        oxcl::memory::clReleaseMemObject(out);
        clReleaseKernel(kernel);
        oxcl::program::clReleaseProgram(program);
    }
}
