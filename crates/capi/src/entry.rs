//! The boundary: no panic crosses into C, and errors become codes.

use std::ffi::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::consts::*;

/// A result whose error is an OpenCL error code.
pub type ClResult<T> = Result<T, i32>;

/// The code of a runtime error.
pub fn code(e: runtime::Error) -> i32 {
    e.code()
}

/// Runs an entry point that returns `cl_int`; a panic becomes `CL_OUT_OF_HOST_MEMORY`.
pub fn guard(f: impl FnOnce() -> ClResult<()>) -> i32 {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => CL_SUCCESS,
        Ok(Err(code)) => code,
        Err(_) => CL_OUT_OF_HOST_MEMORY,
    }
}

/// Runs an entry point that returns an object and reports through `errcode_ret`.
pub(crate) fn guard_create(
    errcode_ret: *mut i32,
    f: impl FnOnce() -> ClResult<*mut c_void>,
) -> *mut c_void {
    let (result, code) = match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(handle)) => (handle, CL_SUCCESS),
        Ok(Err(code)) => (std::ptr::null_mut(), code),
        Err(_) => (std::ptr::null_mut(), CL_OUT_OF_HOST_MEMORY),
    };
    if !errcode_ret.is_null() {
        // SAFETY: the caller gives a writable `cl_int` or null.
        unsafe { *errcode_ret = code };
    }
    result
}

/// A NUL-terminated C string, or `None` for null / invalid UTF-8.
///
/// # Safety
/// `s` must be null or point to a NUL-terminated string.
pub unsafe fn c_str(s: *const i8) -> Option<String> {
    if s.is_null() {
        return None;
    }
    // SAFETY: the caller's promise.
    let bytes = unsafe { std::ffi::CStr::from_ptr(s) };
    Some(bytes.to_string_lossy().into_owned())
}

/// A pointer the host gave us, sendable to the queue's worker thread. Its validity for the
/// command's duration is the application's promise (API 5.2.2 "the application must not
/// modify ... until the command completes").
#[derive(Copy, Clone)]
pub struct HostPtr(pub *mut c_void);
// SAFETY: see above; the pointer is only used by the one command it was given for.
unsafe impl Send for HostPtr {}
unsafe impl Sync for HostPtr {}
