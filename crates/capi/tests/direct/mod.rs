//! Helpers for tests that call the C API of `liboxcl` directly (no loader): a context and an
//! in-order queue on the device, programs from source or SPIR-V text, buffers and launches.
//! Every call's status is checked; a failure names the call.

#![allow(dead_code)]

use std::ffi::{c_void, CString};
use std::path::PathBuf;
use std::process::Command;
use std::ptr::{null, null_mut};

use oxcl::consts::*;
use oxcl::context::*;
use oxcl::device::*;
use oxcl::kernel::*;
use oxcl::memory::*;
use oxcl::platform::*;
use oxcl::program::*;
use oxcl::queue::*;

/// A context and queue on the one device.
pub struct Session {
    pub platform: *mut c_void,
    pub device: *mut c_void,
    pub context: *mut c_void,
    pub queue: *mut c_void,
}

// SAFETY: the handles are thread-safe OpenCL objects (API appendix A.2).
unsafe impl Send for Session {}
unsafe impl Sync for Session {}

#[track_caller]
pub fn check(status: i32, what: &str) {
    assert_eq!(status, CL_SUCCESS, "{what} returned {status}");
}

impl Session {
    pub fn new() -> Session {
        let mut platform = null_mut();
        let mut device = null_mut();
        let mut err = 0;
        // SAFETY: valid out-pointers; the handles come from the API.
        unsafe {
            check(
                clGetPlatformIDs(1, &mut platform, null_mut()),
                "clGetPlatformIDs",
            );
            check(
                clGetDeviceIDs(platform, CL_DEVICE_TYPE_DEFAULT, 1, &mut device, null_mut()),
                "clGetDeviceIDs",
            );
            let context = clCreateContext(null(), 1, &device, None, null_mut(), &mut err);
            check(err, "clCreateContext");
            let queue = clCreateCommandQueueWithProperties(context, device, null(), &mut err);
            check(err, "clCreateCommandQueueWithProperties");
            Session {
                platform,
                device,
                context,
                queue,
            }
        }
    }

    /// A program from OpenCL C source, built with `options`.
    pub fn build_source(&self, source: &str, options: &str) -> *mut c_void {
        let text = CString::new(source).expect("source");
        let ptr = text.as_ptr();
        let mut err = 0;
        // SAFETY: one NUL-terminated string.
        unsafe {
            let program = clCreateProgramWithSource(self.context, 1, &ptr, null(), &mut err);
            check(err, "clCreateProgramWithSource");
            self.build(program, options);
            program
        }
    }

    /// A program from SPIR-V binary words (not yet built).
    pub fn program_from_il(&self, words: &[u8]) -> *mut c_void {
        let mut err = 0;
        // SAFETY: `words.len()` readable bytes.
        let program = unsafe {
            clCreateProgramWithIL(
                self.context,
                words.as_ptr() as *const c_void,
                words.len(),
                &mut err,
            )
        };
        check(err, "clCreateProgramWithIL");
        program
    }

    /// Builds `program`; on failure the assertion shows the build log.
    pub fn build(&self, program: *mut c_void, options: &str) {
        let options = CString::new(options).expect("options");
        // SAFETY: valid handles and strings.
        let status =
            unsafe { clBuildProgram(program, 1, &self.device, options.as_ptr(), None, null_mut()) };
        assert_eq!(
            status,
            CL_SUCCESS,
            "clBuildProgram: {status}\n{}",
            self.build_log(program)
        );
    }

    pub fn build_log(&self, program: *mut c_void) -> String {
        let mut size = 0usize;
        let mut log = vec![0u8; 1 << 16];
        // SAFETY: a buffer of `log.len()` bytes.
        unsafe {
            clGetProgramBuildInfo(
                program,
                self.device,
                CL_PROGRAM_BUILD_LOG,
                log.len(),
                log.as_mut_ptr() as *mut c_void,
                &mut size,
            )
        };
        String::from_utf8_lossy(&log[..size.min(log.len())]).into_owned()
    }

    pub fn kernel(&self, program: *mut c_void, name: &str) -> *mut c_void {
        let name = CString::new(name).expect("name");
        let mut err = 0;
        // SAFETY: valid handle and string.
        let kernel = unsafe { clCreateKernel(program, name.as_ptr(), &mut err) };
        check(err, "clCreateKernel");
        kernel
    }

    /// A read-write buffer holding a copy of `data`.
    pub fn buffer<T: Copy>(&self, data: &[T]) -> *mut c_void {
        let mut err = 0;
        // SAFETY: `data` is readable for its byte size.
        let mem = unsafe {
            clCreateBuffer(
                self.context,
                CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                std::mem::size_of_val(data),
                data.as_ptr() as *mut c_void,
                &mut err,
            )
        };
        check(err, "clCreateBuffer");
        mem
    }

    /// Reads a whole buffer of `n` elements.
    pub fn read<T: Copy + Default>(&self, mem: *mut c_void, n: usize) -> Vec<T> {
        let mut out = vec![T::default(); n];
        // SAFETY: `out` is writable for its byte size.
        check(
            unsafe {
                clEnqueueReadBuffer(
                    self.queue,
                    mem,
                    CL_TRUE,
                    0,
                    std::mem::size_of_val(&out[..]),
                    out.as_mut_ptr() as *mut c_void,
                    0,
                    null(),
                    null_mut(),
                )
            },
            "clEnqueueReadBuffer",
        );
        out
    }

    /// Sets argument `index` to a buffer.
    pub fn arg_mem(&self, kernel: *mut c_void, index: u32, mem: *mut c_void) {
        // SAFETY: a `cl_mem` value.
        check(
            unsafe {
                clSetKernelArg(
                    kernel,
                    index,
                    std::mem::size_of::<*mut c_void>(),
                    &mem as *const _ as *const c_void,
                )
            },
            "clSetKernelArg",
        );
    }

    /// Runs `kernel` over `global` work-items (1-D, local size chosen by the implementation
    /// unless given) and waits.
    pub fn run(&self, kernel: *mut c_void, global: usize, local: Option<usize>) {
        let local_ptr = local.as_ref().map_or(null(), |l| l as *const usize);
        // SAFETY: valid sizes.
        unsafe {
            check(
                clEnqueueNDRangeKernel(
                    self.queue,
                    kernel,
                    1,
                    null(),
                    &global,
                    local_ptr,
                    0,
                    null(),
                    null_mut(),
                ),
                "clEnqueueNDRangeKernel",
            );
            check(clFinish(self.queue), "clFinish");
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        // SAFETY: handles this session created.
        unsafe {
            clReleaseCommandQueue(self.queue);
            clReleaseContext(self.context);
        }
    }
}

/// The bytes of a SPIR-V module assembled by `spirv-as` (and checked by `spirv-val` for the
/// OpenCL 2.2 environment), or `None` when the tools are absent.
pub fn spirv_as(text: &str, tag: &str) -> Option<Vec<u8>> {
    let have = |tool: &str| {
        Command::new("sh")
            .arg("-c")
            .arg(format!("command -v {tool}"))
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if !have("spirv-as") || !have("spirv-val") {
        eprintln!("skipped: spirv-as/spirv-val (SPIRV-Tools) are not installed");
        return None;
    }
    let dir: PathBuf =
        std::env::temp_dir().join(format!("oxcl-spvas-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).ok()?;
    let (src, out) = (dir.join("m.spvasm"), dir.join("m.spv"));
    std::fs::write(&src, text).ok()?;
    let asm = Command::new("spirv-as")
        .args(["--target-env", "spv1.2", "-o"])
        .arg(&out)
        .arg(&src)
        .output()
        .ok()?;
    assert!(
        asm.status.success(),
        "spirv-as: {}",
        String::from_utf8_lossy(&asm.stderr)
    );
    let val = Command::new("spirv-val")
        .args(["--target-env", "opencl2.2"])
        .arg(&out)
        .output()
        .ok()?;
    assert!(
        val.status.success(),
        "spirv-val: {}",
        String::from_utf8_lossy(&val.stderr)
    );
    let bytes = std::fs::read(&out).ok()?;
    let _ = std::fs::remove_dir_all(&dir);
    Some(bytes)
}
