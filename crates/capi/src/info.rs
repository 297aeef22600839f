//! The two-call protocol of every `clGet*Info` query (API 4.1 clGetPlatformInfo and alike):
//! the caller asks for the size with a null `param_value`, then for the value.

use std::ffi::c_void;

use crate::consts::*;
use crate::types::cl_name_version;

/// The bytes of a query's value.
pub struct InfoValue(pub Vec<u8>);

impl InfoValue {
    /// Plain-data values: integers, `size_t` arrays, handles, structs of those.
    pub fn pod<T: Copy>(values: &[T]) -> InfoValue {
        let len = std::mem::size_of_val(values);
        // SAFETY: `T: Copy` plain data; any initialised bytes may be read as `u8`.
        InfoValue(unsafe { std::slice::from_raw_parts(values.as_ptr() as *const u8, len) }.to_vec())
    }

    pub fn u32(v: u32) -> InfoValue {
        InfoValue::pod(&[v])
    }

    pub fn i32(v: i32) -> InfoValue {
        InfoValue::pod(&[v])
    }

    pub fn u64(v: u64) -> InfoValue {
        InfoValue::pod(&[v])
    }

    pub fn usize(v: usize) -> InfoValue {
        InfoValue::pod(&[v])
    }

    /// `cl_bool`.
    pub fn bool(v: bool) -> InfoValue {
        InfoValue::u32(v as u32)
    }

    pub fn ptr(v: *mut c_void) -> InfoValue {
        InfoValue::pod(&[v as usize])
    }

    /// A NUL-terminated string.
    pub fn str(s: &str) -> InfoValue {
        let mut bytes = s.as_bytes().to_vec();
        bytes.push(0);
        InfoValue(bytes)
    }

    /// A `cl_name_version` array.
    pub fn name_versions(entries: &[(&str, u32)]) -> InfoValue {
        let list: Vec<cl_name_version> = entries
            .iter()
            .map(|(name, version)| {
                let mut out = cl_name_version {
                    version: *version,
                    name: [0; 64],
                };
                let n = name.len().min(63);
                out.name[..n].copy_from_slice(&name.as_bytes()[..n]);
                out
            })
            .collect();
        InfoValue::pod(&list)
    }

    pub fn empty() -> InfoValue {
        InfoValue(Vec::new())
    }
}

/// Writes `value` by the protocol. API 4.1: "CL_INVALID_VALUE if ... size in bytes specified
/// by param_value_size is < size of return type ... and param_value is not NULL".
///
/// # Safety
/// `param_value` must be writable for `param_value_size` bytes when not null, and
/// `param_value_size_ret` writable when not null.
pub unsafe fn write_info(
    value: Result<InfoValue, i32>,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> i32 {
    let value = match value {
        Ok(v) => v.0,
        Err(e) => return e,
    };
    if !param_value.is_null() {
        if param_value_size < value.len() {
            return CL_INVALID_VALUE;
        }
        // SAFETY: the caller's promise; `value.len() <= param_value_size`.
        unsafe {
            std::ptr::copy_nonoverlapping(value.as_ptr(), param_value as *mut u8, value.len())
        };
    }
    if !param_value_size_ret.is_null() {
        // SAFETY: the caller's promise.
        unsafe { *param_value_size_ret = value.len() };
    }
    CL_SUCCESS
}

/// [`write_info`] as a result, for entry points built on `?`.
///
/// # Safety
/// As [`write_info`].
pub unsafe fn answer(
    value: Result<InfoValue, i32>,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> Result<(), i32> {
    // SAFETY: the caller's promise.
    match unsafe { write_info(value, param_value_size, param_value, param_value_size_ret) } {
        CL_SUCCESS => Ok(()),
        e => Err(e),
    }
}
