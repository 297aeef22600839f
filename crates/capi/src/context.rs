//! Contexts (API 4.4): creation from devices or a device type, properties, the error callback
//! (`pfn_notify`, called with the message of every kernel command that fails while it runs,
//! such as an out-of-bounds access or a write into read-only SVM memory; other errors are
//! return codes and build logs) and destructor callbacks.

use std::ffi::c_void;
use std::sync::atomic::{AtomicPtr, Ordering};
use std::sync::{Arc, Mutex};

use crate::consts::*;
use crate::device::{type_matches, DeviceObj};
use crate::entry::{guard, guard_create, ClResult, HostPtr};
use crate::handle::{get_list, ClObject, Kind, Obj};
use crate::info::{write_info, InfoValue};
use crate::platform::{devices, PlatformObj};
use crate::types::*;

/// Destructor callbacks (`clSetContextDestructorCallback`, `clSetMemObjectDestructorCallback`):
/// called in the reverse order of registration when the object goes.
#[derive(Default)]
pub struct DestructorCallbacks {
    list: Mutex<Vec<(unsafe extern "C" fn(*mut c_void, *mut c_void), HostPtr)>>,
    /// The handle passed to the callbacks.
    pub handle: AtomicPtr<c_void>,
}

impl DestructorCallbacks {
    pub fn push(
        &self,
        callback: unsafe extern "C" fn(*mut c_void, *mut c_void),
        user_data: *mut c_void,
    ) {
        self.list
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push((callback, HostPtr(user_data)));
    }
}

impl Drop for DestructorCallbacks {
    fn drop(&mut self) {
        let handle = self.handle.load(Ordering::SeqCst);
        let list = std::mem::take(&mut *self.list.lock().unwrap_or_else(|p| p.into_inner()));
        for (callback, user_data) in list.into_iter().rev() {
            // SAFETY: the application's callback with its own data.
            let _ = std::panic::catch_unwind(|| unsafe { callback(handle, user_data.0) });
        }
    }
}

pub struct ContextObj {
    pub context: runtime::Context,
    pub devices: Vec<Arc<Obj<DeviceObj>>>,
    /// The properties as given (terminating 0 included), for `CL_CONTEXT_PROPERTIES`.
    pub properties: Vec<cl_context_properties>,
    /// `pfn_notify` and `user_data` of the context's creation (module doc).
    pub notify: Option<(
        unsafe extern "C" fn(*const i8, *const c_void, usize, *mut c_void),
        HostPtr,
    )>,
    pub destructors: DestructorCallbacks,
}

impl ClObject for ContextObj {
    const KIND: Kind = Kind::Context;
    const INVALID: i32 = CL_INVALID_CONTEXT;
}

impl ContextObj {
    pub fn has_device(&self, device: &Arc<Obj<DeviceObj>>) -> bool {
        self.devices.iter().any(|d| Arc::ptr_eq(d, device))
    }

    /// API 4.4 `pfn_notify`: "a callback function that can be registered by the application.
    /// This callback function will be used by the OpenCL implementation to report information
    /// on errors during context creation as well as errors that occur at runtime in this
    /// context." Calls it (if any) with `message` as `errinfo`, no private info.
    pub fn report(&self, message: &str) {
        let Some((callback, user_data)) = &self.notify else {
            return;
        };
        let text = std::ffi::CString::new(message.replace('\0', " ")).unwrap_or_default();
        // SAFETY: the application's callback with its own data and a NUL-terminated string
        // valid for the call; "This callback function may be called asynchronously by the
        // OpenCL implementation. It is the responsibility of the application to ensure that
        // the callback function is thread-safe."
        let _ = std::panic::catch_unwind(|| unsafe {
            callback(text.as_ptr(), std::ptr::null(), 0, user_data.0)
        });
    }
}

/// Checks a context property list (API 4.4 table "List of supported context creation
/// properties") and returns a copy with its terminating 0.
///
/// # Safety
/// `properties` must be null or a 0-terminated list.
unsafe fn context_properties(
    properties: *const cl_context_properties,
) -> ClResult<Vec<cl_context_properties>> {
    let mut out = Vec::new();
    if properties.is_null() {
        return Ok(out);
    }
    let mut seen = Vec::new();
    let mut at = properties;
    loop {
        // SAFETY: the list is 0-terminated (caller's promise).
        let name = unsafe { *at };
        if name == 0 {
            break;
        }
        // SAFETY: each name is followed by its value.
        let value = unsafe { *at.add(1) };
        // "CL_INVALID_PROPERTY if ... the same property name is specified more than once."
        if seen.contains(&name) {
            return Err(CL_INVALID_PROPERTY);
        }
        seen.push(name);
        match name as u32 {
            // "CL_INVALID_PLATFORM if ... platform value specified in properties is not a valid platform."
            CL_CONTEXT_PLATFORM => {
                Obj::<PlatformObj>::get(value as *mut c_void).map_err(|_| CL_INVALID_PLATFORM)?;
            }
            CL_CONTEXT_INTEROP_USER_SYNC => {
                if value != 0 && value != 1 {
                    return Err(CL_INVALID_PROPERTY);
                }
            }
            // "CL_INVALID_PROPERTY if context property name in properties is not a supported property name".
            _ => return Err(CL_INVALID_PROPERTY),
        }
        out.push(name);
        out.push(value);
        // SAFETY: still inside the list.
        at = unsafe { at.add(2) };
    }
    out.push(0);
    Ok(out)
}

fn new_context(
    devices: Vec<Arc<Obj<DeviceObj>>>,
    properties: Vec<cl_context_properties>,
    pfn_notify: ContextNotify,
    user_data: *mut c_void,
) -> *mut c_void {
    let context = runtime::Context::new(devices[0].device.clone());
    let obj = Obj::create(ContextObj {
        context,
        devices,
        properties,
        notify: pfn_notify.map(|f| (f, HostPtr(user_data))),
        destructors: DestructorCallbacks::default(),
    });
    obj.destructors
        .handle
        .store(Obj::handle(&obj), Ordering::SeqCst);
    Obj::into_handle(obj)
}

/// `clCreateContext` (API 4.4).
pub unsafe extern "C" fn clCreateContext(
    properties: *const cl_context_properties,
    num_devices: cl_uint,
    device_list: *const cl_device_id,
    pfn_notify: ContextNotify,
    user_data: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_context {
    guard_create(errcode_ret, || {
        // SAFETY: a 0-terminated list or null.
        let properties = unsafe { context_properties(properties) }?;
        // "CL_INVALID_VALUE if devices is NULL; if num_devices is equal to zero; or if
        // pfn_notify is NULL but user_data is not NULL."
        if device_list.is_null()
            || num_devices == 0
            || (pfn_notify.is_none() && !user_data.is_null())
        {
            return Err(CL_INVALID_VALUE);
        }
        // "CL_INVALID_DEVICE if any device in devices is not a valid device."
        // SAFETY: `num_devices` handles.
        let mut list = unsafe { get_list::<DeviceObj>(device_list, num_devices) }?;
        list.dedup_by(|a, b| Arc::ptr_eq(a, b));
        Ok(new_context(list, properties, pfn_notify, user_data))
    })
}

/// `clCreateContextFromType` (API 4.4).
pub unsafe extern "C" fn clCreateContextFromType(
    properties: *const cl_context_properties,
    device_type: cl_device_type,
    pfn_notify: ContextNotify,
    user_data: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_context {
    guard_create(errcode_ret, || {
        // SAFETY: as above.
        let properties = unsafe { context_properties(properties) }?;
        // "CL_INVALID_VALUE if pfn_notify is NULL but user_data is not NULL."
        if pfn_notify.is_none() && !user_data.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        // "CL_INVALID_DEVICE_TYPE if device_type is not a valid value."
        // "CL_DEVICE_NOT_FOUND if no devices that match device_type and property values
        // specified in properties are currently available."
        if !type_matches(device_type)? {
            return Err(CL_DEVICE_NOT_FOUND);
        }
        Ok(new_context(
            devices().to_vec(),
            properties,
            pfn_notify,
            user_data,
        ))
    })
}

pub unsafe extern "C" fn clRetainContext(context: cl_context) -> cl_int {
    // "CL_INVALID_CONTEXT if context is not a valid OpenCL context."
    Obj::<ContextObj>::retain(context)
}

pub unsafe extern "C" fn clReleaseContext(context: cl_context) -> cl_int {
    Obj::<ContextObj>::release(context)
}

/// `clGetContextInfo` (API 4.4).
pub unsafe extern "C" fn clGetContextInfo(
    context: cl_context,
    param_name: cl_context_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    guard(|| {
        let obj = Obj::<ContextObj>::get(context)?;
        let value = match param_name {
            CL_CONTEXT_REFERENCE_COUNT => Ok(InfoValue::u32(obj.ref_count())),
            CL_CONTEXT_NUM_DEVICES => Ok(InfoValue::u32(obj.devices.len() as u32)),
            CL_CONTEXT_DEVICES => Ok(InfoValue::pod(
                &obj.devices
                    .iter()
                    .map(|d| Obj::handle(d) as usize)
                    .collect::<Vec<_>>(),
            )),
            CL_CONTEXT_PROPERTIES => Ok(InfoValue::pod(&obj.properties)),
            // "CL_INVALID_VALUE if param_name is not one of the supported values".
            _ => Err(CL_INVALID_VALUE),
        };
        // SAFETY: the caller's buffers.
        match unsafe { write_info(value, param_value_size, param_value, param_value_size_ret) } {
            CL_SUCCESS => Ok(()),
            e => Err(e),
        }
    })
}

/// `clSetContextDestructorCallback` (API 4.4).
pub unsafe extern "C" fn clSetContextDestructorCallback(
    context: cl_context,
    pfn_notify: ObjectCallback,
    user_data: *mut c_void,
) -> cl_int {
    guard(|| {
        let obj = Obj::<ContextObj>::get(context)?;
        // "CL_INVALID_VALUE if pfn_notify is NULL."
        let callback = pfn_notify.ok_or(CL_INVALID_VALUE)?;
        obj.destructors.push(callback, user_data);
        Ok(())
    })
}
