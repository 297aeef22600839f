//! The platform (API 4.1) and the ICD entry points (`cl_khr_icd`).

use std::ffi::c_void;
use std::sync::{Arc, OnceLock};

use crate::consts::*;
use crate::device::DeviceObj;
use crate::entry::{c_str, guard};
use crate::handle::{ClObject, Kind, Obj};
use crate::info::{write_info, InfoValue};
use crate::types::*;

/// The one platform and its device, alive for the whole process.
pub struct PlatformObj {
    pub platform: runtime::Platform,
    pub devices: OnceLock<Vec<Arc<Obj<DeviceObj>>>>,
}

impl ClObject for PlatformObj {
    const KIND: Kind = Kind::Platform;
    const INVALID: i32 = CL_INVALID_PLATFORM;
}

/// The ICD suffix (`CL_PLATFORM_ICD_SUFFIX_KHR`) for extension functions.
pub const ICD_SUFFIX: &str = "OXCL";

/// The platform object, created on first use.
pub fn platform() -> &'static Arc<Obj<PlatformObj>> {
    static PLATFORM: OnceLock<Arc<Obj<PlatformObj>>> = OnceLock::new();
    PLATFORM.get_or_init(|| {
        Obj::create(PlatformObj {
            platform: runtime::Platform::get(),
            devices: OnceLock::new(),
        })
    })
}

/// The device objects of the platform.
pub fn devices() -> &'static [Arc<Obj<DeviceObj>>] {
    let platform = platform();
    let devices = platform.devices.get_or_init(|| {
        platform
            .platform
            .devices()
            .into_iter()
            .map(|device| Obj::create(DeviceObj::root(device)))
            .collect()
    });
    // SAFETY-free: `platform()` is a static `Arc`, so the devices live for the process.
    let devices: &'static [Arc<Obj<DeviceObj>>] = unsafe { &*(devices.as_slice() as *const _) };
    devices
}

/// Checks a platform argument: null means the only platform (API 4.2: "If platform is NULL, the
/// behavior is implementation-defined"; oxcl picks itself).
pub fn check_platform(platform_id: cl_platform_id) -> Result<(), i32> {
    if platform_id.is_null() {
        return Ok(());
    }
    Obj::<PlatformObj>::get(platform_id).map(|_| ())
}

/// `clIcdGetPlatformIDsKHR` (`cl_khr_icd`).
pub unsafe extern "C" fn clIcdGetPlatformIDsKHR(
    num_entries: cl_uint,
    platforms: *mut cl_platform_id,
    num_platforms: *mut cl_uint,
) -> cl_int {
    // cl_khr_icd: "CL_PLATFORM_NOT_FOUND_KHR if zero platforms are available" — there is
    // always one, so the answer is clGetPlatformIDs'.
    // SAFETY: the same contract as clGetPlatformIDs.
    unsafe { clGetPlatformIDs(num_entries, platforms, num_platforms) }
}

/// `clGetPlatformIDs` (API 4.1).
pub unsafe extern "C" fn clGetPlatformIDs(
    num_entries: cl_uint,
    platforms: *mut cl_platform_id,
    num_platforms: *mut cl_uint,
) -> cl_int {
    guard(|| {
        // "CL_INVALID_VALUE if num_entries is equal to zero and platforms is not NULL or if both
        // num_platforms and platforms are NULL."
        if (num_entries == 0 && !platforms.is_null())
            || (num_platforms.is_null() && platforms.is_null())
        {
            return Err(CL_INVALID_VALUE);
        }
        if !platforms.is_null() {
            // SAFETY: `platforms` holds at least `num_entries` ≥ 1 entries.
            unsafe { *platforms = Obj::handle(platform()) };
        }
        if !num_platforms.is_null() {
            // SAFETY: a writable cl_uint.
            unsafe { *num_platforms = 1 };
        }
        Ok(())
    })
}

/// `clGetPlatformInfo` (API 4.1).
pub unsafe extern "C" fn clGetPlatformInfo(
    platform_id: cl_platform_id,
    param_name: cl_platform_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    guard(|| {
        // "CL_INVALID_PLATFORM if platform is not a valid platform."
        check_platform(platform_id)?;
        let p = &platform().platform;
        // "Extensions defined here must be supported by all devices associated with this
        // platform": the platform's own, cl_khr_icd, and those every device reports.
        let all_devices = p.devices();
        let mut extensions: Vec<&str> = p
            .extensions()
            .iter()
            .copied()
            .chain(["cl_khr_icd"])
            .collect();
        if let Some(first) = all_devices.first() {
            for extension in &first.extensions {
                let everywhere = all_devices.iter().all(|d| d.has_extension(extension));
                if everywhere && !extensions.contains(&extension.as_str()) {
                    extensions.push(extension);
                }
            }
        }
        let value = match param_name {
            CL_PLATFORM_PROFILE => InfoValue::str(p.profile()),
            CL_PLATFORM_VERSION => InfoValue::str(&p.version()),
            CL_PLATFORM_NUMERIC_VERSION => InfoValue::u32(make_version(3, 0, 0)),
            CL_PLATFORM_NAME => InfoValue::str(p.name()),
            CL_PLATFORM_VENDOR => InfoValue::str(p.vendor()),
            CL_PLATFORM_EXTENSIONS => InfoValue::str(&extensions.join(" ")),
            CL_PLATFORM_EXTENSIONS_WITH_VERSION => {
                let list: Vec<(&str, u32)> = extensions
                    .iter()
                    .map(|e| (*e, make_version(1, 0, 0)))
                    .collect();
                InfoValue::name_versions(&list)
            }
            // The CPU clock: nanoseconds (API 5.14 timers), resolution 1 ns.
            CL_PLATFORM_HOST_TIMER_RESOLUTION => InfoValue::u64(1),
            CL_PLATFORM_ICD_SUFFIX_KHR => InfoValue::str(ICD_SUFFIX),
            // "CL_INVALID_VALUE if param_name is not one of the supported values".
            _ => return Err(CL_INVALID_VALUE),
        };
        // SAFETY: the caller's buffers.
        match unsafe {
            write_info(
                Ok(value),
                param_value_size,
                param_value,
                param_value_size_ret,
            )
        } {
            CL_SUCCESS => Ok(()),
            e => Err(e),
        }
    })
}

/// `clGetExtensionFunctionAddress` (API 9, deprecated by 1.2, still the ICD's way in).
pub unsafe extern "C" fn clGetExtensionFunctionAddress(func_name: *const i8) -> *mut c_void {
    // SAFETY: a NUL-terminated name or null.
    let name = unsafe { c_str(func_name) };
    std::panic::catch_unwind(|| {
        name.map_or(std::ptr::null_mut(), |n| {
            crate::dispatch::function_address(&n)
        })
    })
    .unwrap_or(std::ptr::null_mut())
}

/// `clGetExtensionFunctionAddressForPlatform` (API 9.3).
pub unsafe extern "C" fn clGetExtensionFunctionAddressForPlatform(
    platform_id: cl_platform_id,
    func_name: *const i8,
) -> *mut c_void {
    if check_platform(platform_id).is_err() {
        return std::ptr::null_mut();
    }
    // SAFETY: as above.
    unsafe { clGetExtensionFunctionAddress(func_name) }
}

/// `clUnloadPlatformCompiler` (API 5.8.8): a hint; the compiler is a library here.
pub unsafe extern "C" fn clUnloadPlatformCompiler(platform_id: cl_platform_id) -> cl_int {
    // "CL_INVALID_PLATFORM if platform is not a valid platform."
    guard(|| {
        check_platform(platform_id).and_then(|()| {
            if platform_id.is_null() {
                Err(CL_INVALID_PLATFORM)
            } else {
                Ok(())
            }
        })
    })
}

/// `clUnloadCompiler` (1.1, deprecated).
pub unsafe extern "C" fn clUnloadCompiler() -> cl_int {
    CL_SUCCESS
}

/// The symbols the ICD loader looks up in `liboxcl.so`. The dispatch table and every call inside
/// the library use the unexported functions above, so the loader's own exports of the same names
/// can never be bound in their place.
pub mod exports {
    use super::*;

    #[export_name = "clIcdGetPlatformIDsKHR"]
    pub unsafe extern "C" fn icd_get_platform_ids(
        num_entries: cl_uint,
        platforms: *mut cl_platform_id,
        num_platforms: *mut cl_uint,
    ) -> cl_int {
        // SAFETY: the caller's contract is the function's.
        unsafe { clIcdGetPlatformIDsKHR(num_entries, platforms, num_platforms) }
    }

    #[export_name = "clGetExtensionFunctionAddress"]
    pub unsafe extern "C" fn get_extension_function_address(func_name: *const i8) -> *mut c_void {
        // SAFETY: as above.
        unsafe { clGetExtensionFunctionAddress(func_name) }
    }

    #[export_name = "clGetExtensionFunctionAddressForPlatform"]
    pub unsafe extern "C" fn get_extension_function_address_for_platform(
        platform_id: cl_platform_id,
        func_name: *const i8,
    ) -> *mut c_void {
        // SAFETY: as above.
        unsafe { clGetExtensionFunctionAddressForPlatform(platform_id, func_name) }
    }
}
