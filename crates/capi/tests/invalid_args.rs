//! The invalid-argument cases of the entry points that `tests/c/errors.c` does not reach, each
//! expected code taken from the function's "Errors" list in the API specification (3.0) and
//! appendix F; the specification sentence sits beside each group. The calls go to `liboxcl`
//! directly (no loader), so handles the loader would dereference — foreign pointers, released
//! objects, handles of the wrong kind — reach oxcl's registry, which must reject them.
//!
//! Every mismatch is collected and reported together.

mod direct;

use std::ffi::{c_void, CString};
use std::ptr::{null, null_mut};

use direct::{check, Session};
use oxcl::consts::*;
use oxcl::context::*;
use oxcl::device::*;
use oxcl::event::*;
use oxcl::kernel::*;
use oxcl::memory::*;
use oxcl::platform::*;
use oxcl::program::*;
use oxcl::queue::*;

/// Collects `(what, got, expected)` mismatches.
#[derive(Default)]
struct Expect {
    failures: Vec<String>,
    checks: usize,
}

impl Expect {
    #[track_caller]
    fn code(&mut self, what: &str, got: i32, expected: i32) {
        self.checks += 1;
        if got != expected {
            let line = std::panic::Location::caller().line();
            self.failures.push(format!(
                "line {line}: {what}: got {got}, expected {expected}"
            ));
        }
    }

    /// A creation call: null result and the code in `errcode_ret`.
    #[track_caller]
    fn created(&mut self, what: &str, handle: *mut c_void, err: i32, expected: i32) {
        self.code(what, err, expected);
        if expected != CL_SUCCESS && !handle.is_null() {
            self.failures
                .push(format!("{what}: a handle returned with an error"));
        }
    }

    fn done(self) {
        assert!(
            self.failures.is_empty(),
            "{} of {} checks failed:\n{}",
            self.failures.len(),
            self.checks,
            self.failures.join("\n")
        );
        eprintln!("{} checks passed", self.checks);
    }
}

/// Pointers that are not handles: a small integer, a stack address holding junk, the address
/// of a function.
fn foreign_pointers() -> Vec<*mut c_void> {
    static JUNK: [u64; 8] = [0xDEAD_BEEF; 8];
    vec![
        0x1234 as *mut c_void,
        JUNK.as_ptr() as *mut c_void,
        foreign_pointers as *const () as *mut c_void,
        usize::MAX as *mut c_void,
    ]
}

const SOURCE: &str = "__kernel void k(__global int *p, int v) { p[get_global_id(0)] = v; }\n\
                      __kernel void k2(__global int *p) { p[0] = 2; }\n";

unsafe extern "C" fn object_callback(_: *mut c_void, _: *mut c_void) {}

#[test]
fn platform_device_and_context_errors() {
    let s = Session::new();
    let mut e = Expect::default();
    let mut n = 0u32;
    let mut platform = null_mut();
    let mut buf = [0u8; 64];
    // SAFETY: every pointer below is valid for what the call writes, or deliberately null.
    unsafe {
        // clGetPlatformIDs: "CL_INVALID_VALUE if num_entries is equal to zero and platforms
        // is not NULL or if both num_platforms and platforms are NULL."
        e.code(
            "clGetPlatformIDs(0, p)",
            clGetPlatformIDs(0, &mut platform, null_mut()),
            CL_INVALID_VALUE,
        );
        e.code(
            "clGetPlatformIDs(null, null)",
            clGetPlatformIDs(1, null_mut(), null_mut()),
            CL_INVALID_VALUE,
        );
        // clGetPlatformInfo / clGetDeviceIDs: "CL_INVALID_PLATFORM if platform is not a valid
        // platform."
        for bad in foreign_pointers() {
            e.code(
                "clGetPlatformInfo(foreign)",
                clGetPlatformInfo(
                    bad,
                    CL_PLATFORM_NAME,
                    64,
                    buf.as_mut_ptr() as *mut c_void,
                    null_mut(),
                ),
                CL_INVALID_PLATFORM,
            );
            let mut d = null_mut();
            e.code(
                "clGetDeviceIDs(foreign)",
                clGetDeviceIDs(bad, CL_DEVICE_TYPE_ALL, 1, &mut d, null_mut()),
                CL_INVALID_PLATFORM,
            );
            e.code(
                "clUnloadPlatformCompiler(foreign)",
                clUnloadPlatformCompiler(bad),
                CL_INVALID_PLATFORM,
            );
            e.code(
                "clGetDeviceInfo(foreign)",
                clGetDeviceInfo(
                    bad,
                    CL_DEVICE_NAME,
                    64,
                    buf.as_mut_ptr() as *mut c_void,
                    null_mut(),
                ),
                CL_INVALID_DEVICE,
            );
            e.code(
                "clRetainDevice(foreign)",
                clRetainDevice(bad),
                CL_INVALID_DEVICE,
            );
            e.code(
                "clReleaseDevice(foreign)",
                clReleaseDevice(bad),
                CL_INVALID_DEVICE,
            );
            e.code(
                "clRetainContext(foreign)",
                clRetainContext(bad),
                CL_INVALID_CONTEXT,
            );
            e.code(
                "clReleaseContext(foreign)",
                clReleaseContext(bad),
                CL_INVALID_CONTEXT,
            );
            e.code(
                "clGetContextInfo(foreign)",
                clGetContextInfo(
                    bad,
                    CL_CONTEXT_NUM_DEVICES,
                    4,
                    buf.as_mut_ptr() as *mut c_void,
                    null_mut(),
                ),
                CL_INVALID_CONTEXT,
            );
        }
        // A device where a platform belongs.
        e.code(
            "clGetPlatformInfo(device)",
            clGetPlatformInfo(
                s.device,
                CL_PLATFORM_NAME,
                64,
                buf.as_mut_ptr() as *mut c_void,
                null_mut(),
            ),
            CL_INVALID_PLATFORM,
        );
        // clGetDeviceIDs: "CL_INVALID_VALUE if num_entries is equal to zero and devices is not
        // NULL or if both num_devices and devices are NULL."
        e.code(
            "clGetDeviceIDs(null, null)",
            clGetDeviceIDs(s.platform, CL_DEVICE_TYPE_ALL, 1, null_mut(), null_mut()),
            CL_INVALID_VALUE,
        );
        // Root devices: retain/release succeed and change nothing.
        e.code("clRetainDevice(root)", clRetainDevice(s.device), CL_SUCCESS);
        e.code(
            "clReleaseDevice(root)",
            clReleaseDevice(s.device),
            CL_SUCCESS,
        );
        // clCreateSubDevices: "CL_INVALID_DEVICE if in_device is not a valid device";
        // "CL_INVALID_VALUE if values specified in properties are not valid or if values
        // specified in properties are valid but not supported by the device."
        let props = [CL_DEVICE_PARTITION_EQUALLY as isize, 1, 0];
        let mut out = [null_mut(); 4];
        e.code(
            "clCreateSubDevices(foreign)",
            clCreateSubDevices(
                0x1234 as *mut c_void,
                props.as_ptr(),
                4,
                out.as_mut_ptr(),
                &mut n,
            ),
            CL_INVALID_DEVICE,
        );
        let unknown = [0x7777isize, 1, 0];
        e.code(
            "clCreateSubDevices(unknown property)",
            clCreateSubDevices(s.device, unknown.as_ptr(), 4, out.as_mut_ptr(), &mut n),
            CL_INVALID_VALUE,
        );
        // clGetDeviceAndHostTimer / clGetHostTimer: "CL_INVALID_DEVICE if device is not a valid
        // device"; "CL_INVALID_VALUE if host_timestamp or device_timestamp is NULL."
        let (mut t0, mut t1) = (0u64, 0u64);
        e.code(
            "clGetDeviceAndHostTimer(foreign)",
            clGetDeviceAndHostTimer(0x1234 as *mut c_void, &mut t0, &mut t1),
            CL_INVALID_DEVICE,
        );
        e.code(
            "clGetDeviceAndHostTimer(null device ts)",
            clGetDeviceAndHostTimer(s.device, null_mut(), &mut t1),
            CL_INVALID_VALUE,
        );
        e.code(
            "clGetDeviceAndHostTimer(null host ts)",
            clGetDeviceAndHostTimer(s.device, &mut t0, null_mut()),
            CL_INVALID_VALUE,
        );
        e.code(
            "clGetHostTimer(foreign)",
            clGetHostTimer(0x1234 as *mut c_void, &mut t0),
            CL_INVALID_DEVICE,
        );
        e.code(
            "clGetHostTimer(null)",
            clGetHostTimer(s.device, null_mut()),
            CL_INVALID_VALUE,
        );
        e.code(
            "clGetHostTimer",
            clGetHostTimer(s.device, &mut t0),
            CL_SUCCESS,
        );
        // clGetExtensionFunctionAddressForPlatform: NULL for an invalid platform or name.
        let name = CString::new("clGetKernelSubGroupInfoKHR").expect("name");
        if !clGetExtensionFunctionAddressForPlatform(0x1234 as *mut c_void, name.as_ptr()).is_null()
        {
            e.failures
                .push("clGetExtensionFunctionAddressForPlatform(foreign) is not NULL".into());
        }
        if !clGetExtensionFunctionAddressForPlatform(s.platform, null()).is_null() {
            e.failures
                .push("clGetExtensionFunctionAddressForPlatform(NULL name) is not NULL".into());
        }

        // clCreateContext: "CL_INVALID_VALUE if devices is NULL"; "if num_devices is equal to
        // zero"; "CL_INVALID_DEVICE if any device in devices is not a valid device";
        // "CL_INVALID_PLATFORM if properties is NULL and no platform could be selected or if
        // platform value specified in properties is not a valid platform"; "CL_INVALID_PROPERTY
        // if ... the same property name is specified more than once".
        let mut err = 0;
        let c = clCreateContext(null(), 1, null(), None, null_mut(), &mut err);
        e.created("clCreateContext(devices NULL)", c, err, CL_INVALID_VALUE);
        let c = clCreateContext(null(), 0, &s.device, None, null_mut(), &mut err);
        e.created("clCreateContext(0 devices)", c, err, CL_INVALID_VALUE);
        let bad_device = 0x1234 as *mut c_void;
        let c = clCreateContext(null(), 1, &bad_device, None, null_mut(), &mut err);
        e.created("clCreateContext(foreign device)", c, err, CL_INVALID_DEVICE);
        let props = [CL_CONTEXT_PLATFORM as isize, 0x1234, 0];
        let c = clCreateContext(props.as_ptr(), 1, &s.device, None, null_mut(), &mut err);
        e.created(
            "clCreateContext(foreign platform)",
            c,
            err,
            CL_INVALID_PLATFORM,
        );
        let twice = [
            CL_CONTEXT_PLATFORM as isize,
            s.platform as isize,
            CL_CONTEXT_PLATFORM as isize,
            s.platform as isize,
            0,
        ];
        let c = clCreateContext(twice.as_ptr(), 1, &s.device, None, null_mut(), &mut err);
        e.created(
            "clCreateContext(property twice)",
            c,
            err,
            CL_INVALID_PROPERTY,
        );
        // clCreateContextFromType: "CL_INVALID_DEVICE_TYPE if device_type is not a valid value."
        let c = clCreateContextFromType(null(), 1 << 40, None, null_mut(), &mut err);
        e.created(
            "clCreateContextFromType(bad type)",
            c,
            err,
            CL_INVALID_DEVICE_TYPE,
        );
        // clGetContextInfo: "CL_INVALID_VALUE if param_name is not one of the supported values
        // or if size in bytes specified by param_value_size is < size of return type".
        e.code(
            "clGetContextInfo(small)",
            clGetContextInfo(
                s.context,
                CL_CONTEXT_NUM_DEVICES,
                2,
                buf.as_mut_ptr() as *mut c_void,
                null_mut(),
            ),
            CL_INVALID_VALUE,
        );
        // clSetContextDestructorCallback: "CL_INVALID_CONTEXT if context is not a valid
        // context"; "CL_INVALID_VALUE if pfn_notify is NULL."
        e.code(
            "clSetContextDestructorCallback(foreign)",
            clSetContextDestructorCallback(
                0x1234 as *mut c_void,
                Some(object_callback),
                null_mut(),
            ),
            CL_INVALID_CONTEXT,
        );
        e.code(
            "clSetContextDestructorCallback(NULL)",
            clSetContextDestructorCallback(s.context, None, null_mut()),
            CL_INVALID_VALUE,
        );
        // A released context is no longer a valid context.
        let c = clCreateContext(null(), 1, &s.device, None, null_mut(), &mut err);
        check(err, "clCreateContext");
        check(clReleaseContext(c), "clReleaseContext");
        e.code(
            "clGetContextInfo(released)",
            clGetContextInfo(
                c,
                CL_CONTEXT_NUM_DEVICES,
                4,
                buf.as_mut_ptr() as *mut c_void,
                null_mut(),
            ),
            CL_INVALID_CONTEXT,
        );
        e.code(
            "clReleaseContext(released)",
            clReleaseContext(c),
            CL_INVALID_CONTEXT,
        );
        let q = clCreateCommandQueueWithProperties(c, s.device, null(), &mut err);
        e.created(
            "clCreateCommandQueueWithProperties(released context)",
            q,
            err,
            CL_INVALID_CONTEXT,
        );
    }
    e.done();
}

#[test]
fn queue_and_memory_errors() {
    let s = Session::new();
    let mut e = Expect::default();
    let mut err = 0;
    let mut buf = [0u8; 256];
    let host = [0i32; 64];
    // SAFETY: every pointer below is valid for what the call reads or writes, or deliberately
    // invalid.
    unsafe {
        for bad in foreign_pointers() {
            e.code(
                "clRetainCommandQueue(foreign)",
                clRetainCommandQueue(bad),
                CL_INVALID_COMMAND_QUEUE,
            );
            e.code(
                "clReleaseCommandQueue(foreign)",
                clReleaseCommandQueue(bad),
                CL_INVALID_COMMAND_QUEUE,
            );
            e.code("clFlush(foreign)", clFlush(bad), CL_INVALID_COMMAND_QUEUE);
            e.code("clFinish(foreign)", clFinish(bad), CL_INVALID_COMMAND_QUEUE);
            e.code(
                "clGetCommandQueueInfo(foreign)",
                clGetCommandQueueInfo(
                    bad,
                    CL_QUEUE_CONTEXT,
                    8,
                    buf.as_mut_ptr() as *mut c_void,
                    null_mut(),
                ),
                CL_INVALID_COMMAND_QUEUE,
            );
            e.code(
                "clRetainMemObject(foreign)",
                clRetainMemObject(bad),
                CL_INVALID_MEM_OBJECT,
            );
            e.code(
                "clReleaseMemObject(foreign)",
                clReleaseMemObject(bad),
                CL_INVALID_MEM_OBJECT,
            );
            e.code(
                "clGetMemObjectInfo(foreign)",
                clGetMemObjectInfo(
                    bad,
                    CL_MEM_SIZE,
                    8,
                    buf.as_mut_ptr() as *mut c_void,
                    null_mut(),
                ),
                CL_INVALID_MEM_OBJECT,
            );
            let m = clCreateBuffer(bad, CL_MEM_READ_WRITE, 16, null_mut(), &mut err);
            e.created(
                "clCreateBuffer(foreign context)",
                m,
                err,
                CL_INVALID_CONTEXT,
            );
        }
        // clCreateCommandQueueWithProperties: "CL_INVALID_DEVICE if device is not a valid
        // device or is not associated with context"; "CL_INVALID_VALUE if values specified in
        // properties are not valid".
        let q = clCreateCommandQueueWithProperties(s.context, s.context, null(), &mut err);
        e.created(
            "clCreateCommandQueueWithProperties(context as device)",
            q,
            err,
            CL_INVALID_DEVICE,
        );
        let props = [0x7777u64, 1, 0];
        let q = clCreateCommandQueueWithProperties(s.context, s.device, props.as_ptr(), &mut err);
        e.created(
            "clCreateCommandQueueWithProperties(unknown property)",
            q,
            err,
            CL_INVALID_VALUE,
        );
        // clGetCommandQueueInfo: "CL_INVALID_VALUE if param_name is not one of the supported
        // values or if size in bytes specified by param_value_size is < size of return type".
        e.code(
            "clGetCommandQueueInfo(bad name)",
            clGetCommandQueueInfo(
                s.queue,
                0xFFFF,
                8,
                buf.as_mut_ptr() as *mut c_void,
                null_mut(),
            ),
            CL_INVALID_VALUE,
        );
        e.code(
            "clGetCommandQueueInfo(small)",
            clGetCommandQueueInfo(
                s.queue,
                CL_QUEUE_CONTEXT,
                4,
                buf.as_mut_ptr() as *mut c_void,
                null_mut(),
            ),
            CL_INVALID_VALUE,
        );
        // clSetCommandQueueProperty (1.0, deprecated): "CL_INVALID_COMMAND_QUEUE if
        // command_queue is not a valid command-queue".
        e.code(
            "clSetCommandQueueProperty(foreign)",
            clSetCommandQueueProperty(
                0x1234 as *mut c_void,
                CL_QUEUE_PROFILING_ENABLE,
                CL_TRUE,
                null_mut(),
            ),
            CL_INVALID_COMMAND_QUEUE,
        );

        // clCreateBufferWithProperties: "CL_INVALID_PROPERTY if a property name in properties
        // is not a supported property name".
        let props = [0x7777u64, 1, 0];
        let m = clCreateBufferWithProperties(
            s.context,
            props.as_ptr(),
            CL_MEM_READ_WRITE,
            16,
            null_mut(),
            &mut err,
        );
        e.created(
            "clCreateBufferWithProperties(unknown property)",
            m,
            err,
            CL_INVALID_PROPERTY,
        );
        let m = clCreateBufferWithProperties(
            s.context,
            null(),
            CL_MEM_READ_WRITE,
            0,
            null_mut(),
            &mut err,
        );
        e.created(
            "clCreateBufferWithProperties(size 0)",
            m,
            err,
            CL_INVALID_BUFFER_SIZE,
        );
        // "CL_INVALID_VALUE if values specified in flags are not valid".
        let m = clCreateBuffer(s.context, 1 << 40, 16, null_mut(), &mut err);
        e.created("clCreateBuffer(undefined flag)", m, err, CL_INVALID_VALUE);
        let m = clCreateBuffer(
            s.context,
            CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS,
            16,
            null_mut(),
            &mut err,
        );
        e.created(
            "clCreateBuffer(two host access flags)",
            m,
            err,
            CL_INVALID_VALUE,
        );
        // "CL_INVALID_BUFFER_SIZE if size is 0 or if size is greater than
        // CL_DEVICE_MAX_MEM_ALLOC_SIZE".
        let m = clCreateBuffer(
            s.context,
            CL_MEM_READ_WRITE,
            usize::MAX / 2,
            null_mut(),
            &mut err,
        );
        e.created("clCreateBuffer(huge)", m, err, CL_INVALID_BUFFER_SIZE);

        let b = clCreateBuffer(s.context, CL_MEM_READ_WRITE, 256, null_mut(), &mut err);
        check(err, "clCreateBuffer");
        let read_only_host =
            clCreateBuffer(s.context, CL_MEM_HOST_READ_ONLY, 256, null_mut(), &mut err);
        check(err, "clCreateBuffer");
        // clGetMemObjectInfo: "CL_INVALID_VALUE if param_name is not valid, or if size in bytes
        // specified by param_value_size is < size of return type".
        e.code(
            "clGetMemObjectInfo(bad name)",
            clGetMemObjectInfo(b, 0xFFFF, 8, buf.as_mut_ptr() as *mut c_void, null_mut()),
            CL_INVALID_VALUE,
        );
        e.code(
            "clGetMemObjectInfo(small)",
            clGetMemObjectInfo(
                b,
                CL_MEM_SIZE,
                4,
                buf.as_mut_ptr() as *mut c_void,
                null_mut(),
            ),
            CL_INVALID_VALUE,
        );
        // clSetMemObjectDestructorCallback: "CL_INVALID_MEM_OBJECT if memobj is not a valid
        // memory object"; "CL_INVALID_VALUE if pfn_notify is NULL."
        e.code(
            "clSetMemObjectDestructorCallback(foreign)",
            clSetMemObjectDestructorCallback(
                0x1234 as *mut c_void,
                Some(object_callback),
                null_mut(),
            ),
            CL_INVALID_MEM_OBJECT,
        );
        e.code(
            "clSetMemObjectDestructorCallback(NULL)",
            clSetMemObjectDestructorCallback(b, None, null_mut()),
            CL_INVALID_VALUE,
        );

        // clCreateSubBuffer: "CL_INVALID_MEM_OBJECT if buffer is not a valid buffer object or
        // is a sub-buffer object"; "CL_INVALID_VALUE if ... buffer_create_type is not
        // CL_BUFFER_CREATE_TYPE_REGION"; "if buffer_create_info is NULL"; "CL_INVALID_BUFFER_SIZE
        // if the size field of the cl_buffer_region structure ... is 0";
        // "CL_INVALID_VALUE if the region specified by the cl_buffer_region structure passed
        // in buffer_create_info is out of bounds of buffer".
        let region = [0usize, 128];
        let m = clCreateSubBuffer(
            0x1234 as *mut c_void,
            CL_MEM_READ_WRITE,
            CL_BUFFER_CREATE_TYPE_REGION,
            region.as_ptr() as *const c_void,
            &mut err,
        );
        e.created("clCreateSubBuffer(foreign)", m, err, CL_INVALID_MEM_OBJECT);
        let m = clCreateSubBuffer(
            b,
            CL_MEM_READ_WRITE,
            0x7777,
            region.as_ptr() as *const c_void,
            &mut err,
        );
        e.created("clCreateSubBuffer(bad type)", m, err, CL_INVALID_VALUE);
        let m = clCreateSubBuffer(
            b,
            CL_MEM_READ_WRITE,
            CL_BUFFER_CREATE_TYPE_REGION,
            null(),
            &mut err,
        );
        e.created("clCreateSubBuffer(NULL info)", m, err, CL_INVALID_VALUE);
        let empty = [0usize, 0];
        let m = clCreateSubBuffer(
            b,
            CL_MEM_READ_WRITE,
            CL_BUFFER_CREATE_TYPE_REGION,
            empty.as_ptr() as *const c_void,
            &mut err,
        );
        e.created("clCreateSubBuffer(size 0)", m, err, CL_INVALID_BUFFER_SIZE);
        let outside = [128usize, 256];
        let m = clCreateSubBuffer(
            b,
            CL_MEM_READ_WRITE,
            CL_BUFFER_CREATE_TYPE_REGION,
            outside.as_ptr() as *const c_void,
            &mut err,
        );
        e.created("clCreateSubBuffer(out of bounds)", m, err, CL_INVALID_VALUE);
        let sub = clCreateSubBuffer(
            b,
            CL_MEM_READ_WRITE,
            CL_BUFFER_CREATE_TYPE_REGION,
            region.as_ptr() as *const c_void,
            &mut err,
        );
        check(err, "clCreateSubBuffer");
        let m = clCreateSubBuffer(
            sub,
            CL_MEM_READ_WRITE,
            CL_BUFFER_CREATE_TYPE_REGION,
            region.as_ptr() as *const c_void,
            &mut err,
        );
        e.created(
            "clCreateSubBuffer(of a sub-buffer)",
            m,
            err,
            CL_INVALID_MEM_OBJECT,
        );

        // clEnqueueWriteBuffer: "CL_INVALID_COMMAND_QUEUE"; "CL_INVALID_MEM_OBJECT"; "CL_INVALID_VALUE
        // if the region being read or written specified by (offset, size) is out of bounds or if
        // ptr is a NULL value"; "CL_INVALID_EVENT_WAIT_LIST if event_wait_list is NULL and
        // num_events_in_wait_list > 0"; "CL_INVALID_OPERATION if clEnqueueWriteBuffer is called
        // on buffer which has been created with CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_NO_ACCESS".
        let p = host.as_ptr() as *const c_void;
        e.code(
            "clEnqueueWriteBuffer(foreign queue)",
            clEnqueueWriteBuffer(
                0x1234 as *mut c_void,
                b,
                CL_TRUE,
                0,
                16,
                p,
                0,
                null(),
                null_mut(),
            ),
            CL_INVALID_COMMAND_QUEUE,
        );
        e.code(
            "clEnqueueWriteBuffer(foreign mem)",
            clEnqueueWriteBuffer(
                s.queue,
                0x1234 as *mut c_void,
                CL_TRUE,
                0,
                16,
                p,
                0,
                null(),
                null_mut(),
            ),
            CL_INVALID_MEM_OBJECT,
        );
        e.code(
            "clEnqueueWriteBuffer(out of bounds)",
            clEnqueueWriteBuffer(s.queue, b, CL_TRUE, 200, 100, p, 0, null(), null_mut()),
            CL_INVALID_VALUE,
        );
        e.code(
            "clEnqueueWriteBuffer(NULL ptr)",
            clEnqueueWriteBuffer(s.queue, b, CL_TRUE, 0, 16, null(), 0, null(), null_mut()),
            CL_INVALID_VALUE,
        );
        e.code(
            "clEnqueueWriteBuffer(wait list NULL)",
            clEnqueueWriteBuffer(s.queue, b, CL_TRUE, 0, 16, p, 1, null(), null_mut()),
            CL_INVALID_EVENT_WAIT_LIST,
        );
        let no_events = [null_mut::<c_void>()];
        e.code(
            "clEnqueueWriteBuffer(wait list without count)",
            clEnqueueWriteBuffer(
                s.queue,
                b,
                CL_TRUE,
                0,
                16,
                p,
                0,
                no_events.as_ptr(),
                null_mut(),
            ),
            CL_INVALID_EVENT_WAIT_LIST,
        );
        e.code(
            "clEnqueueWriteBuffer(foreign event)",
            clEnqueueWriteBuffer(
                s.queue,
                b,
                CL_TRUE,
                0,
                16,
                p,
                1,
                [0x1234 as *mut c_void].as_ptr(),
                null_mut(),
            ),
            CL_INVALID_EVENT_WAIT_LIST,
        );
        e.code(
            "clEnqueueWriteBuffer(host read-only)",
            clEnqueueWriteBuffer(
                s.queue,
                read_only_host,
                CL_TRUE,
                0,
                16,
                p,
                0,
                null(),
                null_mut(),
            ),
            CL_INVALID_OPERATION,
        );
        // clEnqueueWriteBufferRect: "CL_INVALID_VALUE if the region being read or written
        // specified by (buffer_origin, region, buffer_row_pitch, buffer_slice_pitch) is out of
        // bounds"; "if any region array element is 0"; "if buffer_row_pitch is not 0 and is
        // less than region[0]"; "if host_row_pitch is not 0 and is less than region[0]";
        // "if ptr is NULL".
        let zero = [0usize; 3];
        let region = [16usize, 4, 1];
        let rect = |origin: &[usize; 3],
                    region: &[usize; 3],
                    row: usize,
                    host_row: usize,
                    ptr: *const c_void| {
            clEnqueueWriteBufferRect(
                s.queue,
                b,
                CL_TRUE,
                origin.as_ptr(),
                zero.as_ptr(),
                region.as_ptr(),
                row,
                0,
                host_row,
                0,
                ptr,
                0,
                null(),
                null_mut(),
            )
        };
        e.code(
            "clEnqueueWriteBufferRect(ok)",
            rect(&zero, &region, 0, 0, p),
            CL_SUCCESS,
        );
        e.code(
            "clEnqueueWriteBufferRect(out of bounds)",
            rect(&[0, 60, 0], &region, 0, 0, p),
            CL_INVALID_VALUE,
        );
        e.code(
            "clEnqueueWriteBufferRect(region 0)",
            rect(&zero, &[16, 0, 1], 0, 0, p),
            CL_INVALID_VALUE,
        );
        e.code(
            "clEnqueueWriteBufferRect(row pitch < region)",
            rect(&zero, &region, 8, 0, p),
            CL_INVALID_VALUE,
        );
        e.code(
            "clEnqueueWriteBufferRect(host row pitch < region)",
            rect(&zero, &region, 0, 8, p),
            CL_INVALID_VALUE,
        );
        e.code(
            "clEnqueueWriteBufferRect(NULL ptr)",
            rect(&zero, &region, 0, 0, null()),
            CL_INVALID_VALUE,
        );
        // clEnqueueCopyBufferRect: "CL_MEM_COPY_OVERLAP if src_buffer and dst_buffer are the same
        // buffer or sub-buffer object and the source and destination regions overlap";
        // out-of-bounds regions are CL_INVALID_VALUE.
        let copy = |src_origin: &[usize; 3], dst_origin: &[usize; 3], region: &[usize; 3]| {
            clEnqueueCopyBufferRect(
                s.queue,
                b,
                b,
                src_origin.as_ptr(),
                dst_origin.as_ptr(),
                region.as_ptr(),
                32,
                0,
                32,
                0,
                0,
                null(),
                null_mut(),
            )
        };
        e.code(
            "clEnqueueCopyBufferRect(ok)",
            copy(&zero, &[0, 4, 0], &region),
            CL_SUCCESS,
        );
        e.code(
            "clEnqueueCopyBufferRect(overlap)",
            copy(&zero, &[0, 2, 0], &region),
            CL_MEM_COPY_OVERLAP,
        );
        e.code(
            "clEnqueueCopyBufferRect(out of bounds)",
            copy(&zero, &[0, 6, 0], &region),
            CL_INVALID_VALUE,
        );
        e.code(
            "clEnqueueCopyBufferRect(region 0)",
            copy(&zero, &[0, 4, 0], &[0, 4, 1]),
            CL_INVALID_VALUE,
        );
        // clEnqueueMigrateMemObjects: "CL_INVALID_VALUE if num_mem_objects is zero or if
        // mem_objects is NULL"; "if flags is not 0 or is not any of the values described";
        // "CL_INVALID_MEM_OBJECT if any of the memory objects in mem_objects is not a valid
        // memory object".
        e.code(
            "clEnqueueMigrateMemObjects(0)",
            clEnqueueMigrateMemObjects(s.queue, 0, &b, 0, 0, null(), null_mut()),
            CL_INVALID_VALUE,
        );
        e.code(
            "clEnqueueMigrateMemObjects(NULL)",
            clEnqueueMigrateMemObjects(s.queue, 1, null(), 0, 0, null(), null_mut()),
            CL_INVALID_VALUE,
        );
        e.code(
            "clEnqueueMigrateMemObjects(bad flags)",
            clEnqueueMigrateMemObjects(s.queue, 1, &b, 1 << 9, 0, null(), null_mut()),
            CL_INVALID_VALUE,
        );
        e.code(
            "clEnqueueMigrateMemObjects(foreign mem)",
            clEnqueueMigrateMemObjects(
                s.queue,
                1,
                [0x1234 as *mut c_void].as_ptr(),
                0,
                0,
                null(),
                null_mut(),
            ),
            CL_INVALID_MEM_OBJECT,
        );
        e.code(
            "clEnqueueMigrateMemObjects(ok)",
            clEnqueueMigrateMemObjects(
                s.queue,
                1,
                &b,
                CL_MIGRATE_MEM_OBJECT_HOST,
                0,
                null(),
                null_mut(),
            ),
            CL_SUCCESS,
        );
        // A buffer of another context: "CL_INVALID_CONTEXT if the context associated with
        // command_queue and buffer are not the same".
        let other = clCreateContext(null(), 1, &s.device, None, null_mut(), &mut err);
        check(err, "clCreateContext");
        let foreign_buffer = clCreateBuffer(other, CL_MEM_READ_WRITE, 64, null_mut(), &mut err);
        check(err, "clCreateBuffer");
        e.code(
            "clEnqueueWriteBuffer(other context)",
            clEnqueueWriteBuffer(
                s.queue,
                foreign_buffer,
                CL_TRUE,
                0,
                16,
                p,
                0,
                null(),
                null_mut(),
            ),
            CL_INVALID_CONTEXT,
        );
        e.code(
            "clEnqueueCopyBuffer(other context)",
            oxcl::memory::clEnqueueCopyBuffer(
                s.queue,
                b,
                foreign_buffer,
                0,
                0,
                16,
                0,
                null(),
                null_mut(),
            ),
            CL_INVALID_CONTEXT,
        );
        check(clReleaseMemObject(foreign_buffer), "clReleaseMemObject");
        check(clReleaseContext(other), "clReleaseContext");
        // Released objects are no longer valid.
        check(clReleaseMemObject(sub), "clReleaseMemObject");
        e.code(
            "clGetMemObjectInfo(released)",
            clGetMemObjectInfo(
                sub,
                CL_MEM_SIZE,
                8,
                buf.as_mut_ptr() as *mut c_void,
                null_mut(),
            ),
            CL_INVALID_MEM_OBJECT,
        );
        e.code(
            "clReleaseMemObject(released)",
            clReleaseMemObject(sub),
            CL_INVALID_MEM_OBJECT,
        );
        let q = clCreateCommandQueueWithProperties(s.context, s.device, null(), &mut err);
        check(err, "clCreateCommandQueueWithProperties");
        check(clReleaseCommandQueue(q), "clReleaseCommandQueue");
        e.code("clFinish(released)", clFinish(q), CL_INVALID_COMMAND_QUEUE);
        e.code(
            "clEnqueueWriteBuffer(released queue)",
            clEnqueueWriteBuffer(q, b, CL_TRUE, 0, 16, p, 0, null(), null_mut()),
            CL_INVALID_COMMAND_QUEUE,
        );
        check(clReleaseMemObject(b), "clReleaseMemObject");
        check(clReleaseMemObject(read_only_host), "clReleaseMemObject");
    }
    e.done();
}

#[test]
fn program_kernel_and_event_errors() {
    let s = Session::new();
    let mut e = Expect::default();
    let mut err = 0;
    let mut buf = [0u8; 256];
    let mut n = 0u32;
    // SAFETY: every pointer below is valid for what the call reads or writes, or deliberately
    // invalid.
    unsafe {
        for bad in foreign_pointers() {
            e.code(
                "clRetainProgram(foreign)",
                clRetainProgram(bad),
                CL_INVALID_PROGRAM,
            );
            e.code(
                "clReleaseProgram(foreign)",
                clReleaseProgram(bad),
                CL_INVALID_PROGRAM,
            );
            e.code(
                "clGetProgramInfo(foreign)",
                clGetProgramInfo(
                    bad,
                    CL_PROGRAM_NUM_DEVICES,
                    4,
                    buf.as_mut_ptr() as *mut c_void,
                    null_mut(),
                ),
                CL_INVALID_PROGRAM,
            );
            e.code(
                "clBuildProgram(foreign)",
                clBuildProgram(bad, 0, null(), null(), None, null_mut()),
                CL_INVALID_PROGRAM,
            );
            e.code(
                "clRetainKernel(foreign)",
                clRetainKernel(bad),
                CL_INVALID_KERNEL,
            );
            e.code(
                "clReleaseKernel(foreign)",
                clReleaseKernel(bad),
                CL_INVALID_KERNEL,
            );
            e.code(
                "clGetKernelInfo(foreign)",
                clGetKernelInfo(
                    bad,
                    CL_KERNEL_FUNCTION_NAME,
                    64,
                    buf.as_mut_ptr() as *mut c_void,
                    null_mut(),
                ),
                CL_INVALID_KERNEL,
            );
            e.code(
                "clSetKernelArg(foreign)",
                clSetKernelArg(bad, 0, 4, [0u32].as_ptr() as *const c_void),
                CL_INVALID_KERNEL,
            );
            let k = clCloneKernel(bad, &mut err);
            e.created("clCloneKernel(foreign)", k, err, CL_INVALID_KERNEL);
            e.code(
                "clRetainEvent(foreign)",
                clRetainEvent(bad),
                CL_INVALID_EVENT,
            );
            e.code(
                "clReleaseEvent(foreign)",
                clReleaseEvent(bad),
                CL_INVALID_EVENT,
            );
            e.code(
                "clWaitForEvents(foreign)",
                clWaitForEvents(1, &bad),
                CL_INVALID_EVENT,
            );
            e.code(
                "clGetEventInfo(foreign)",
                clGetEventInfo(
                    bad,
                    CL_EVENT_COMMAND_TYPE,
                    4,
                    buf.as_mut_ptr() as *mut c_void,
                    null_mut(),
                ),
                CL_INVALID_EVENT,
            );
        }
        // clCreateProgramWithIL: "CL_INVALID_VALUE if il is NULL or if length is zero"; "if the
        // length-byte memory pointed to by il does not contain well-formed intermediate
        // language input".
        let junk = [0x55u8; 64];
        let p = clCreateProgramWithIL(s.context, null(), 64, &mut err);
        e.created("clCreateProgramWithIL(NULL)", p, err, CL_INVALID_VALUE);
        let p = clCreateProgramWithIL(s.context, junk.as_ptr() as *const c_void, 0, &mut err);
        e.created("clCreateProgramWithIL(length 0)", p, err, CL_INVALID_VALUE);
        let p = clCreateProgramWithIL(s.context, junk.as_ptr() as *const c_void, 64, &mut err);
        e.created("clCreateProgramWithIL(junk)", p, err, CL_INVALID_VALUE);
        let p = clCreateProgramWithIL(
            0x1234 as *mut c_void,
            junk.as_ptr() as *const c_void,
            64,
            &mut err,
        );
        e.created(
            "clCreateProgramWithIL(foreign context)",
            p,
            err,
            CL_INVALID_CONTEXT,
        );
        // clCreateProgramWithBinary: "CL_INVALID_VALUE if device_list is NULL or num_devices is
        // zero"; "CL_INVALID_DEVICE if any device in device_list is not in the list of devices
        // associated with context"; "CL_INVALID_VALUE if lengths or binaries is NULL or if any
        // entry in lengths[i] is zero or binaries[i] is NULL"; "CL_INVALID_BINARY if an
        // invalid program binary was encountered for any device".
        let len = junk.len();
        let bin = junk.as_ptr();
        let mut status = 0;
        let p =
            clCreateProgramWithBinary(s.context, 0, &s.device, &len, &bin, &mut status, &mut err);
        e.created(
            "clCreateProgramWithBinary(0 devices)",
            p,
            err,
            CL_INVALID_VALUE,
        );
        let p =
            clCreateProgramWithBinary(s.context, 1, &s.context, &len, &bin, &mut status, &mut err);
        e.created(
            "clCreateProgramWithBinary(context as device)",
            p,
            err,
            CL_INVALID_DEVICE,
        );
        let p =
            clCreateProgramWithBinary(s.context, 1, &s.device, null(), &bin, &mut status, &mut err);
        e.created(
            "clCreateProgramWithBinary(lengths NULL)",
            p,
            err,
            CL_INVALID_VALUE,
        );
        let zero_len = 0usize;
        let p = clCreateProgramWithBinary(
            s.context,
            1,
            &s.device,
            &zero_len,
            &bin,
            &mut status,
            &mut err,
        );
        e.created(
            "clCreateProgramWithBinary(length 0)",
            p,
            err,
            CL_INVALID_VALUE,
        );
        e.code("binary_status of a zero length", status, CL_INVALID_VALUE);
        let p =
            clCreateProgramWithBinary(s.context, 1, &s.device, &len, &bin, &mut status, &mut err);
        e.created("clCreateProgramWithBinary(junk)", p, err, CL_INVALID_BINARY);
        e.code("binary_status of junk", status, CL_INVALID_BINARY);
        // clCreateProgramWithBuiltInKernels: "CL_INVALID_VALUE if kernel_names is NULL or
        // kernel_names contains a kernel name that is not supported by any of the devices".
        let names = CString::new("no_such_kernel").expect("name");
        let p =
            clCreateProgramWithBuiltInKernels(s.context, 1, &s.device, names.as_ptr(), &mut err);
        e.created(
            "clCreateProgramWithBuiltInKernels(unknown)",
            p,
            err,
            CL_INVALID_VALUE,
        );
        let p = clCreateProgramWithBuiltInKernels(s.context, 1, &s.device, null(), &mut err);
        e.created(
            "clCreateProgramWithBuiltInKernels(NULL)",
            p,
            err,
            CL_INVALID_VALUE,
        );
        let p =
            clCreateProgramWithBuiltInKernels(s.context, 1, &s.context, names.as_ptr(), &mut err);
        e.created(
            "clCreateProgramWithBuiltInKernels(context as device)",
            p,
            err,
            CL_INVALID_DEVICE,
        );

        let text = CString::new(SOURCE).expect("source");
        let ptr = text.as_ptr();
        let unbuilt = clCreateProgramWithSource(s.context, 1, &ptr, null(), &mut err);
        check(err, "clCreateProgramWithSource");
        // clCreateProgramWithSource: "CL_INVALID_VALUE if count is zero or if strings or any
        // entry in strings is NULL."
        let p = clCreateProgramWithSource(s.context, 0, &ptr, null(), &mut err);
        e.created(
            "clCreateProgramWithSource(count 0)",
            p,
            err,
            CL_INVALID_VALUE,
        );
        let entries = [ptr, null()];
        let p = clCreateProgramWithSource(s.context, 2, entries.as_ptr(), null(), &mut err);
        e.created(
            "clCreateProgramWithSource(NULL entry)",
            p,
            err,
            CL_INVALID_VALUE,
        );
        // clCreateKernelsInProgram: "CL_INVALID_PROGRAM_EXECUTABLE if there is no successfully
        // built executable for any device in program"; "CL_INVALID_VALUE if kernels is not NULL
        // and num_kernels is less than the number of kernels in program".
        let mut kernels = [null_mut(); 4];
        e.code(
            "clCreateKernelsInProgram(unbuilt)",
            clCreateKernelsInProgram(unbuilt, 4, kernels.as_mut_ptr(), &mut n),
            CL_INVALID_PROGRAM_EXECUTABLE,
        );
        // clCreateKernel: "CL_INVALID_PROGRAM_EXECUTABLE if there is no successfully built
        // executable for program".
        let name = CString::new("k").expect("name");
        let k = clCreateKernel(unbuilt, name.as_ptr(), &mut err);
        e.created(
            "clCreateKernel(unbuilt)",
            k,
            err,
            CL_INVALID_PROGRAM_EXECUTABLE,
        );
        // clGetProgramInfo: CL_PROGRAM_NUM_KERNELS before a build.
        e.code(
            "clGetProgramInfo(NUM_KERNELS unbuilt)",
            clGetProgramInfo(
                unbuilt,
                CL_PROGRAM_NUM_KERNELS,
                8,
                buf.as_mut_ptr() as *mut c_void,
                null_mut(),
            ),
            CL_INVALID_PROGRAM_EXECUTABLE,
        );
        // clBuildProgram: "CL_INVALID_VALUE if device_list is NULL and num_devices is greater
        // than zero, or if device_list is not NULL and num_devices is zero"; "CL_INVALID_DEVICE
        // if any device in device_list is not in the list of devices associated with program";
        // "CL_INVALID_BUILD_OPTIONS if the build options specified by options are invalid".
        e.code(
            "clBuildProgram(NULL list, 1)",
            clBuildProgram(unbuilt, 1, null(), null(), None, null_mut()),
            CL_INVALID_VALUE,
        );
        e.code(
            "clBuildProgram(list, 0)",
            clBuildProgram(unbuilt, 0, &s.device, null(), None, null_mut()),
            CL_INVALID_VALUE,
        );
        e.code(
            "clBuildProgram(context as device)",
            clBuildProgram(unbuilt, 1, &s.context, null(), None, null_mut()),
            CL_INVALID_DEVICE,
        );
        let bad_options = CString::new("-cl-no-such-option").expect("options");
        e.code(
            "clBuildProgram(bad options)",
            clBuildProgram(unbuilt, 0, null(), bad_options.as_ptr(), None, null_mut()),
            CL_INVALID_BUILD_OPTIONS,
        );
        // clCompileProgram: "CL_INVALID_VALUE if num_input_headers is zero and
        // header_include_names or input_headers are not NULL or if num_input_headers is not
        // zero and header_include_names or input_headers are NULL"; "CL_INVALID_COMPILER_OPTIONS
        // if the compiler options specified by options are invalid".
        let header_name = CString::new("h.h").expect("name");
        let hn = header_name.as_ptr();
        e.code(
            "clCompileProgram(headers without count)",
            clCompileProgram(
                unbuilt,
                0,
                null(),
                null(),
                0,
                &unbuilt,
                &hn,
                None,
                null_mut(),
            ),
            CL_INVALID_VALUE,
        );
        e.code(
            "clCompileProgram(count without names)",
            clCompileProgram(
                unbuilt,
                0,
                null(),
                null(),
                1,
                &unbuilt,
                null(),
                None,
                null_mut(),
            ),
            CL_INVALID_VALUE,
        );
        e.code(
            "clCompileProgram(bad options)",
            clCompileProgram(
                unbuilt,
                0,
                null(),
                bad_options.as_ptr(),
                0,
                null(),
                null(),
                None,
                null_mut(),
            ),
            CL_INVALID_COMPILER_OPTIONS,
        );
        e.code(
            "clCompileProgram(foreign header)",
            clCompileProgram(
                unbuilt,
                0,
                null(),
                null(),
                1,
                &(0x1234 as *mut c_void),
                &hn,
                None,
                null_mut(),
            ),
            CL_INVALID_PROGRAM,
        );
        // clLinkProgram: "CL_INVALID_VALUE if num_input_programs is zero and input_programs is
        // NULL ..."; "CL_INVALID_PROGRAM if programs specified in input_programs are not valid
        // program objects"; "CL_INVALID_OPERATION if the compilation or build of a program
        // executable for any of the devices listed in device_list by a previous call to
        // clCompileProgram or clBuildProgram for program has not completed".
        let p = clLinkProgram(
            s.context,
            0,
            null(),
            null(),
            0,
            null(),
            None,
            null_mut(),
            &mut err,
        );
        e.created("clLinkProgram(no inputs)", p, err, CL_INVALID_VALUE);
        let foreign = 0x1234 as *mut c_void;
        let p = clLinkProgram(
            s.context,
            0,
            null(),
            null(),
            1,
            &foreign,
            None,
            null_mut(),
            &mut err,
        );
        e.created("clLinkProgram(foreign input)", p, err, CL_INVALID_PROGRAM);
        let p = clLinkProgram(
            s.context,
            0,
            null(),
            null(),
            1,
            &unbuilt,
            None,
            null_mut(),
            &mut err,
        );
        e.created(
            "clLinkProgram(uncompiled input)",
            p,
            err,
            CL_INVALID_OPERATION,
        );
        let p = clLinkProgram(
            0x1234 as *mut c_void,
            0,
            null(),
            null(),
            1,
            &unbuilt,
            None,
            null_mut(),
            &mut err,
        );
        e.created("clLinkProgram(foreign context)", p, err, CL_INVALID_CONTEXT);
        // clGetProgramBuildInfo: "CL_INVALID_DEVICE if device is not in the list of devices
        // associated with program"; "CL_INVALID_VALUE if param_name is not valid".
        e.code(
            "clGetProgramBuildInfo(context as device)",
            clGetProgramBuildInfo(
                unbuilt,
                s.context,
                CL_PROGRAM_BUILD_STATUS,
                4,
                buf.as_mut_ptr() as *mut c_void,
                null_mut(),
            ),
            CL_INVALID_DEVICE,
        );
        e.code(
            "clGetProgramBuildInfo(bad name)",
            clGetProgramBuildInfo(
                unbuilt,
                s.device,
                0xFFFF,
                4,
                buf.as_mut_ptr() as *mut c_void,
                null_mut(),
            ),
            CL_INVALID_VALUE,
        );
        // clGetProgramInfo: "CL_INVALID_VALUE if param_name is not valid, or if size in bytes
        // specified by param_value_size is < size of return type".
        e.code(
            "clGetProgramInfo(bad name)",
            clGetProgramInfo(
                unbuilt,
                0xFFFF,
                8,
                buf.as_mut_ptr() as *mut c_void,
                null_mut(),
            ),
            CL_INVALID_VALUE,
        );
        e.code(
            "clGetProgramInfo(small)",
            clGetProgramInfo(
                unbuilt,
                CL_PROGRAM_NUM_DEVICES,
                2,
                buf.as_mut_ptr() as *mut c_void,
                null_mut(),
            ),
            CL_INVALID_VALUE,
        );
        // clSetProgramReleaseCallback: "CL_INVALID_PROGRAM if program is not a valid program
        // object".
        e.code(
            "clSetProgramReleaseCallback(foreign)",
            clSetProgramReleaseCallback(0x1234 as *mut c_void, None, null_mut()),
            CL_INVALID_PROGRAM,
        );

        // A built program.
        let program = s.build_source(SOURCE, "");
        e.code(
            "clCreateKernelsInProgram(too few)",
            clCreateKernelsInProgram(program, 1, kernels.as_mut_ptr(), &mut n),
            CL_INVALID_VALUE,
        );
        e.code(
            "clCreateKernelsInProgram(count)",
            clCreateKernelsInProgram(program, 0, null_mut(), &mut n),
            CL_SUCCESS,
        );
        e.code("number of kernels", n as i32, 2);
        // clCreateKernel: "CL_INVALID_KERNEL_NAME if kernel_name is not found in program";
        // "CL_INVALID_VALUE if kernel_name is NULL".
        let missing = CString::new("missing").expect("name");
        let k = clCreateKernel(program, missing.as_ptr(), &mut err);
        e.created("clCreateKernel(missing)", k, err, CL_INVALID_KERNEL_NAME);
        let k = clCreateKernel(program, null(), &mut err);
        e.created("clCreateKernel(NULL name)", k, err, CL_INVALID_VALUE);
        let kernel = s.kernel(program, "k");
        // clBuildProgram: "CL_INVALID_OPERATION if there are kernel objects attached to program."
        e.code(
            "clBuildProgram(kernels attached)",
            clBuildProgram(program, 0, null(), null(), None, null_mut()),
            CL_INVALID_OPERATION,
        );
        // clGetKernelInfo: "CL_INVALID_VALUE if param_name is not valid, or if size in bytes
        // specified by param_value_size is < size of return type".
        e.code(
            "clGetKernelInfo(bad name)",
            clGetKernelInfo(
                kernel,
                0xFFFF,
                64,
                buf.as_mut_ptr() as *mut c_void,
                null_mut(),
            ),
            CL_INVALID_VALUE,
        );
        e.code(
            "clGetKernelInfo(small)",
            clGetKernelInfo(
                kernel,
                CL_KERNEL_FUNCTION_NAME,
                1,
                buf.as_mut_ptr() as *mut c_void,
                null_mut(),
            ),
            CL_INVALID_VALUE,
        );
        // clGetKernelArgInfo: "CL_INVALID_ARG_INDEX if arg_index is not a valid argument
        // index"; "CL_KERNEL_ARG_INFO_NOT_AVAILABLE if the argument information is not
        // available for kernel"; "CL_INVALID_KERNEL if kernel is a not a valid kernel object".
        e.code(
            "clGetKernelArgInfo(index)",
            clGetKernelArgInfo(
                kernel,
                9,
                CL_KERNEL_ARG_NAME,
                64,
                buf.as_mut_ptr() as *mut c_void,
                null_mut(),
            ),
            CL_INVALID_ARG_INDEX,
        );
        e.code(
            "clGetKernelArgInfo(no -cl-kernel-arg-info)",
            clGetKernelArgInfo(
                kernel,
                0,
                CL_KERNEL_ARG_NAME,
                64,
                buf.as_mut_ptr() as *mut c_void,
                null_mut(),
            ),
            CL_KERNEL_ARG_INFO_NOT_AVAILABLE,
        );
        e.code(
            "clGetKernelArgInfo(foreign)",
            clGetKernelArgInfo(
                0x1234 as *mut c_void,
                0,
                CL_KERNEL_ARG_NAME,
                64,
                buf.as_mut_ptr() as *mut c_void,
                null_mut(),
            ),
            CL_INVALID_KERNEL,
        );
        // clSetKernelArg: "CL_INVALID_ARG_INDEX"; "CL_INVALID_MEM_OBJECT for an argument
        // declared to be a memory object when the specified arg_value is not a valid memory
        // object"; "CL_INVALID_ARG_SIZE if arg_size does not match the size of the data type
        // for an argument that is not a memory object".
        e.code(
            "clSetKernelArg(index)",
            clSetKernelArg(kernel, 5, 4, [1u32].as_ptr() as *const c_void),
            CL_INVALID_ARG_INDEX,
        );
        let junk_mem = 0x1234usize;
        e.code(
            "clSetKernelArg(foreign mem)",
            clSetKernelArg(kernel, 0, 8, &junk_mem as *const usize as *const c_void),
            CL_INVALID_MEM_OBJECT,
        );
        e.code(
            "clSetKernelArg(size)",
            clSetKernelArg(kernel, 1, 8, [1u64].as_ptr() as *const c_void),
            CL_INVALID_ARG_SIZE,
        );
        // clEnqueueTask / clEnqueueNDRangeKernel: "CL_INVALID_KERNEL_ARGS if the kernel argument
        // values have not been specified".
        e.code(
            "clEnqueueTask(args unset)",
            clEnqueueTask(s.queue, kernel, 0, null(), null_mut()),
            CL_INVALID_KERNEL_ARGS,
        );
        e.code(
            "clEnqueueTask(foreign kernel)",
            clEnqueueTask(s.queue, 0x1234 as *mut c_void, 0, null(), null_mut()),
            CL_INVALID_KERNEL,
        );
        e.code(
            "clEnqueueTask(foreign queue)",
            clEnqueueTask(0x1234 as *mut c_void, kernel, 0, null(), null_mut()),
            CL_INVALID_COMMAND_QUEUE,
        );
        // clCloneKernel copies the arguments set so far.
        let out = s.buffer(&[0i32; 4]);
        s.arg_mem(kernel, 0, out);
        check(
            clSetKernelArg(kernel, 1, 4, [7i32].as_ptr() as *const c_void),
            "clSetKernelArg",
        );
        let clone = clCloneKernel(kernel, &mut err);
        e.code("clCloneKernel", err, CL_SUCCESS);
        e.code(
            "clEnqueueTask(clone)",
            clEnqueueTask(s.queue, clone, 0, null(), null_mut()),
            CL_SUCCESS,
        );
        check(clFinish(s.queue), "clFinish");
        e.code("clone's result", s.read::<i32>(out, 1)[0], 7);
        // clEnqueueNDRangeKernel: "CL_INVALID_GLOBAL_WORK_SIZE if global_work_size is NULL.
        // This error condition does not apply when the device associated with command_queue
        // supports OpenCL 2.1 or newer" (a NULL or zero global size runs nothing);
        // "CL_INVALID_GLOBAL_OFFSET if the value specified in global_work_size plus the
        // corresponding value in global_work_offset for any dimensions is greater than the
        // maximum value representable by size_t"; "CL_INVALID_WORK_ITEM_SIZE if the number of work-items specified in
        // any of local_work_size[0], ... is greater than the corresponding values specified by
        // CL_DEVICE_MAX_WORK_ITEM_SIZES".
        let global = [4usize, 1, 1];
        e.code(
            "clEnqueueNDRangeKernel(NULL global)",
            clEnqueueNDRangeKernel(
                s.queue,
                kernel,
                1,
                null(),
                null(),
                null(),
                0,
                null(),
                null_mut(),
            ),
            CL_SUCCESS,
        );
        let big_local = [1usize << 20];
        let big_global = [1usize << 20];
        e.code(
            "clEnqueueNDRangeKernel(local > max item size)",
            clEnqueueNDRangeKernel(
                s.queue,
                kernel,
                1,
                null(),
                big_global.as_ptr(),
                big_local.as_ptr(),
                0,
                null(),
                null_mut(),
            ),
            CL_INVALID_WORK_ITEM_SIZE,
        );
        e.code(
            "clEnqueueNDRangeKernel(work_dim 4)",
            clEnqueueNDRangeKernel(
                s.queue,
                kernel,
                4,
                null(),
                global.as_ptr(),
                null(),
                0,
                null(),
                null_mut(),
            ),
            CL_INVALID_WORK_DIMENSION,
        );
        let offset = [usize::MAX];
        e.code(
            "clEnqueueNDRangeKernel(offset overflow)",
            clEnqueueNDRangeKernel(
                s.queue,
                kernel,
                1,
                offset.as_ptr(),
                global.as_ptr(),
                null(),
                0,
                null(),
                null_mut(),
            ),
            CL_INVALID_GLOBAL_OFFSET,
        );

        // Events: clEnqueueMarkerWithWaitList / clEnqueueBarrierWithWaitList:
        // "CL_INVALID_EVENT_WAIT_LIST if event_wait_list is NULL and num_events_in_wait_list > 0,
        // or event_wait_list is not NULL and num_events_in_wait_list is 0, or if event objects in
        // event_wait_list are not valid events"; "CL_INVALID_CONTEXT if the context associated
        // with command_queue and events in event_wait_list are not the same".
        e.code(
            "clEnqueueMarkerWithWaitList(NULL, 1)",
            clEnqueueMarkerWithWaitList(s.queue, 1, null(), null_mut()),
            CL_INVALID_EVENT_WAIT_LIST,
        );
        e.code(
            "clEnqueueBarrierWithWaitList(NULL, 1)",
            clEnqueueBarrierWithWaitList(s.queue, 1, null(), null_mut()),
            CL_INVALID_EVENT_WAIT_LIST,
        );
        e.code(
            "clEnqueueMarkerWithWaitList(foreign queue)",
            clEnqueueMarkerWithWaitList(0x1234 as *mut c_void, 0, null(), null_mut()),
            CL_INVALID_COMMAND_QUEUE,
        );
        let other = clCreateContext(null(), 1, &s.device, None, null_mut(), &mut err);
        check(err, "clCreateContext");
        let other_event = clCreateUserEvent(other, &mut err);
        check(err, "clCreateUserEvent");
        e.code(
            "clEnqueueMarkerWithWaitList(other context)",
            clEnqueueMarkerWithWaitList(s.queue, 1, &other_event, null_mut()),
            CL_INVALID_CONTEXT,
        );
        e.code(
            "clEnqueueBarrierWithWaitList(other context)",
            clEnqueueBarrierWithWaitList(s.queue, 1, &other_event, null_mut()),
            CL_INVALID_CONTEXT,
        );
        // clWaitForEvents: "CL_INVALID_VALUE if num_events is zero or event_list is NULL";
        // "CL_INVALID_CONTEXT if events specified in event_list do not belong to the same
        // context".
        e.code(
            "clWaitForEvents(0)",
            clWaitForEvents(0, &other_event),
            CL_INVALID_VALUE,
        );
        e.code(
            "clWaitForEvents(NULL)",
            clWaitForEvents(1, null()),
            CL_INVALID_VALUE,
        );
        let own_event = clCreateUserEvent(s.context, &mut err);
        check(err, "clCreateUserEvent");
        let mixed = [own_event, other_event];
        e.code(
            "clWaitForEvents(two contexts)",
            clWaitForEvents(2, mixed.as_ptr()),
            CL_INVALID_CONTEXT,
        );
        // clEnqueueMarker (1.1): "CL_INVALID_VALUE if event is a NULL value";
        // clEnqueueWaitForEvents (1.1): "CL_INVALID_VALUE if num_events is 0 or event_list is
        // NULL"; "CL_INVALID_CONTEXT if the context associated with command_queue and events in
        // event_list are not the same"; clEnqueueBarrier: "CL_INVALID_COMMAND_QUEUE".
        e.code(
            "clEnqueueMarker(NULL)",
            clEnqueueMarker(s.queue, null_mut()),
            CL_INVALID_VALUE,
        );
        e.code(
            "clEnqueueWaitForEvents(0)",
            clEnqueueWaitForEvents(s.queue, 0, &own_event),
            CL_INVALID_VALUE,
        );
        e.code(
            "clEnqueueWaitForEvents(NULL)",
            clEnqueueWaitForEvents(s.queue, 1, null()),
            CL_INVALID_VALUE,
        );
        e.code(
            "clEnqueueWaitForEvents(other context)",
            clEnqueueWaitForEvents(s.queue, 1, &other_event),
            CL_INVALID_CONTEXT,
        );
        e.code(
            "clEnqueueBarrier(foreign)",
            clEnqueueBarrier(0x1234 as *mut c_void),
            CL_INVALID_COMMAND_QUEUE,
        );
        // clSetUserEventStatus: "CL_INVALID_EVENT if event is not a valid user event object";
        // "CL_INVALID_VALUE if the execution_status is not CL_COMPLETE or a negative integer
        // value"; "CL_INVALID_OPERATION if the execution_status for event has already been
        // changed by a previous call to clSetUserEventStatus".
        e.code(
            "clSetUserEventStatus(foreign)",
            clSetUserEventStatus(0x1234 as *mut c_void, CL_COMPLETE as i32),
            CL_INVALID_EVENT,
        );
        e.code(
            "clSetUserEventStatus(running)",
            clSetUserEventStatus(own_event, CL_RUNNING as i32),
            CL_INVALID_VALUE,
        );
        e.code(
            "clSetUserEventStatus(complete)",
            clSetUserEventStatus(own_event, CL_COMPLETE as i32),
            CL_SUCCESS,
        );
        e.code(
            "clSetUserEventStatus(twice)",
            clSetUserEventStatus(own_event, CL_COMPLETE as i32),
            CL_INVALID_OPERATION,
        );
        // clSetEventCallback: "CL_INVALID_VALUE if pfn_event_notify is NULL or if
        // command_exec_callback_type is not CL_SUBMITTED, CL_RUNNING, or CL_COMPLETE."
        e.code(
            "clSetEventCallback(NULL)",
            clSetEventCallback(own_event, CL_COMPLETE as i32, None, null_mut()),
            CL_INVALID_VALUE,
        );
        // clGetEventProfilingInfo: "CL_PROFILING_INFO_NOT_AVAILABLE if ... the event is a user
        // event object"; "CL_INVALID_EVENT if event is a not a valid event object".
        let mut t = 0u64;
        e.code(
            "clGetEventProfilingInfo(user event)",
            clGetEventProfilingInfo(
                own_event,
                CL_PROFILING_COMMAND_START,
                8,
                &mut t as *mut u64 as *mut c_void,
                null_mut(),
            ),
            CL_PROFILING_INFO_NOT_AVAILABLE,
        );
        e.code(
            "clGetEventProfilingInfo(foreign)",
            clGetEventProfilingInfo(
                0x1234 as *mut c_void,
                CL_PROFILING_COMMAND_START,
                8,
                &mut t as *mut u64 as *mut c_void,
                null_mut(),
            ),
            CL_INVALID_EVENT,
        );
        // Released objects.
        check(
            clSetUserEventStatus(other_event, CL_COMPLETE as i32),
            "clSetUserEventStatus",
        );
        check(clReleaseEvent(other_event), "clReleaseEvent");
        check(clReleaseEvent(own_event), "clReleaseEvent");
        e.code(
            "clGetEventInfo(released)",
            clGetEventInfo(
                own_event,
                CL_EVENT_COMMAND_TYPE,
                4,
                buf.as_mut_ptr() as *mut c_void,
                null_mut(),
            ),
            CL_INVALID_EVENT,
        );
        e.code(
            "clWaitForEvents(released)",
            clWaitForEvents(1, &own_event),
            CL_INVALID_EVENT,
        );
        check(clReleaseKernel(clone), "clReleaseKernel");
        check(clReleaseKernel(kernel), "clReleaseKernel");
        e.code(
            "clSetKernelArg(released)",
            clSetKernelArg(kernel, 1, 4, [1u32].as_ptr() as *const c_void),
            CL_INVALID_KERNEL,
        );
        e.code(
            "clEnqueueTask(released kernel)",
            clEnqueueTask(s.queue, kernel, 0, null(), null_mut()),
            CL_INVALID_KERNEL,
        );
        check(clReleaseProgram(program), "clReleaseProgram");
        e.code(
            "clCreateKernel(released program)",
            {
                let k = clCreateKernel(program, name.as_ptr(), &mut err);
                if !k.is_null() {
                    -1
                } else {
                    err
                }
            },
            CL_INVALID_PROGRAM,
        );
        check(clReleaseProgram(unbuilt), "clReleaseProgram");
        check(clReleaseMemObject(out), "clReleaseMemObject");
        check(clReleaseContext(other), "clReleaseContext");
    }
    e.done();
}

#[test]
fn kernel_argument_info_needs_the_build_option() {
    let s = Session::new();
    let mut e = Expect::default();
    let mut buf = [0u8; 64];
    let program = s.build_source(SOURCE, "-cl-kernel-arg-info");
    let kernel = s.kernel(program, "k");
    // SAFETY: a 64-byte buffer.
    unsafe {
        let mut size = 0usize;
        e.code(
            "clGetKernelArgInfo(with the option)",
            clGetKernelArgInfo(
                kernel,
                1,
                CL_KERNEL_ARG_NAME,
                64,
                buf.as_mut_ptr() as *mut c_void,
                &mut size,
            ),
            CL_SUCCESS,
        );
        e.code("argument name", (&buf[..size] == b"v\0") as i32, 1);
        e.code(
            "clGetKernelArgInfo(bad name)",
            clGetKernelArgInfo(
                kernel,
                1,
                0xFFFF,
                64,
                buf.as_mut_ptr() as *mut c_void,
                null_mut(),
            ),
            CL_INVALID_VALUE,
        );
        e.code(
            "clGetKernelArgInfo(small)",
            clGetKernelArgInfo(
                kernel,
                1,
                CL_KERNEL_ARG_NAME,
                1,
                buf.as_mut_ptr() as *mut c_void,
                null_mut(),
            ),
            CL_INVALID_VALUE,
        );
        check(clReleaseKernel(kernel), "clReleaseKernel");
        check(clReleaseProgram(program), "clReleaseProgram");
    }
    e.done();
}

#[test]
fn buffer_flag_map_and_launch_errors() {
    let s = Session::new();
    let mut e = Expect::default();
    let mut err = 0;
    let mut host = [0i32; 64];
    // SAFETY: every pointer below is valid for what the call reads or writes, or deliberately
    // invalid.
    unsafe {
        let write_only = clCreateBuffer(s.context, CL_MEM_WRITE_ONLY, 256, null_mut(), &mut err);
        check(err, "clCreateBuffer");
        let no_access = clCreateBuffer(s.context, CL_MEM_HOST_NO_ACCESS, 256, null_mut(), &mut err);
        check(err, "clCreateBuffer");
        let region = [0usize, 128];
        let info = region.as_ptr() as *const c_void;
        // clCreateSubBuffer: "CL_INVALID_VALUE if buffer was created with CL_MEM_WRITE_ONLY and
        // flags specifies CL_MEM_READ_WRITE or CL_MEM_READ_ONLY"; "if buffer was created with
        // CL_MEM_HOST_NO_ACCESS and flags specify CL_MEM_HOST_READ_ONLY or
        // CL_MEM_HOST_WRITE_ONLY"; "if value specified in flags is not valid".
        let m = clCreateSubBuffer(
            write_only,
            CL_MEM_READ_ONLY,
            CL_BUFFER_CREATE_TYPE_REGION,
            info,
            &mut err,
        );
        e.created(
            "clCreateSubBuffer(read-only of write-only)",
            m,
            err,
            CL_INVALID_VALUE,
        );
        let m = clCreateSubBuffer(
            no_access,
            CL_MEM_HOST_READ_ONLY,
            CL_BUFFER_CREATE_TYPE_REGION,
            info,
            &mut err,
        );
        e.created(
            "clCreateSubBuffer(host read of no access)",
            m,
            err,
            CL_INVALID_VALUE,
        );
        let m = clCreateSubBuffer(
            write_only,
            CL_MEM_USE_HOST_PTR,
            CL_BUFFER_CREATE_TYPE_REGION,
            info,
            &mut err,
        );
        e.created("clCreateSubBuffer(host ptr flag)", m, err, CL_INVALID_VALUE);
        // clEnqueueMapBuffer: "CL_INVALID_VALUE if region being mapped given by (offset, size)
        // is out of bounds or if size is 0 or if values specified in map_flags are not valid";
        // "CL_INVALID_OPERATION if buffer has been created with CL_MEM_HOST_NO_ACCESS".
        let map = |mem: *mut c_void, flags: u64, offset: usize, size: usize, err: &mut i32| {
            clEnqueueMapBuffer(
                s.queue,
                mem,
                CL_TRUE,
                flags,
                offset,
                size,
                0,
                null(),
                null_mut(),
                err,
            )
        };
        let p = map(write_only, CL_MAP_READ, 200, 100, &mut err);
        e.created(
            "clEnqueueMapBuffer(out of bounds)",
            p,
            err,
            CL_INVALID_VALUE,
        );
        let p = map(
            write_only,
            CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION,
            0,
            16,
            &mut err,
        );
        e.created(
            "clEnqueueMapBuffer(read and invalidate)",
            p,
            err,
            CL_INVALID_VALUE,
        );
        let p = map(write_only, 1 << 7, 0, 16, &mut err);
        e.created(
            "clEnqueueMapBuffer(undefined flag)",
            p,
            err,
            CL_INVALID_VALUE,
        );
        let p = map(no_access, CL_MAP_READ, 0, 16, &mut err);
        e.created(
            "clEnqueueMapBuffer(no host access)",
            p,
            err,
            CL_INVALID_OPERATION,
        );
        let p = map(0x1234 as *mut c_void, CL_MAP_READ, 0, 16, &mut err);
        e.created("clEnqueueMapBuffer(foreign)", p, err, CL_INVALID_MEM_OBJECT);
        // clEnqueueUnmapMemObject: "CL_INVALID_MEM_OBJECT if memobj is not a valid memory
        // object"; "CL_INVALID_VALUE if mapped_ptr is not a valid pointer returned by
        // clEnqueueMapBuffer or clEnqueueMapImage for memobj".
        let mapped = map(write_only, CL_MAP_WRITE, 0, 64, &mut err);
        check(err, "clEnqueueMapBuffer");
        e.code(
            "clEnqueueUnmapMemObject(foreign)",
            clEnqueueUnmapMemObject(
                s.queue,
                0x1234 as *mut c_void,
                mapped,
                0,
                null(),
                null_mut(),
            ),
            CL_INVALID_MEM_OBJECT,
        );
        e.code(
            "clEnqueueUnmapMemObject(other buffer)",
            clEnqueueUnmapMemObject(s.queue, no_access, mapped, 0, null(), null_mut()),
            CL_INVALID_VALUE,
        );
        e.code(
            "clEnqueueUnmapMemObject",
            clEnqueueUnmapMemObject(s.queue, write_only, mapped, 0, null(), null_mut()),
            CL_SUCCESS,
        );
        e.code(
            "clEnqueueUnmapMemObject(twice)",
            clEnqueueUnmapMemObject(s.queue, write_only, mapped, 0, null(), null_mut()),
            CL_INVALID_VALUE,
        );
        // clEnqueueReadBuffer on a host-no-access buffer, and a read past the end.
        e.code(
            "clEnqueueReadBuffer(no host access)",
            clEnqueueReadBuffer(
                s.queue,
                no_access,
                CL_TRUE,
                0,
                16,
                host.as_mut_ptr() as *mut c_void,
                0,
                null(),
                null_mut(),
            ),
            CL_INVALID_OPERATION,
        );
        // clEnqueueCopyBuffer: "CL_INVALID_VALUE if src_offset, dst_offset, size, src_offset +
        // size or dst_offset + size require accessing elements outside the src_buffer and
        // dst_buffer buffer objects respectively" (3.0 lists no error for a size of 0).
        e.code(
            "clEnqueueCopyBuffer(outside)",
            oxcl::memory::clEnqueueCopyBuffer(
                s.queue,
                write_only,
                no_access,
                200,
                0,
                100,
                0,
                null(),
                null_mut(),
            ),
            CL_INVALID_VALUE,
        );
        e.code(
            "clEnqueueCopyBuffer(size 0)",
            oxcl::memory::clEnqueueCopyBuffer(
                s.queue,
                write_only,
                no_access,
                0,
                0,
                0,
                0,
                null(),
                null_mut(),
            ),
            CL_SUCCESS,
        );
        // clEnqueueFillBuffer: "CL_INVALID_VALUE if pattern is NULL or if pattern_size is 0".
        e.code(
            "clEnqueueFillBuffer(NULL pattern)",
            clEnqueueFillBuffer(s.queue, write_only, null(), 4, 0, 16, 0, null(), null_mut()),
            CL_INVALID_VALUE,
        );

        // Kernels: __local arguments, reqd_work_group_size, uniform work-groups.
        let source = "__kernel void loc(__global int *p, __local int *tmp) { tmp[0] = 1; p[0] = tmp[0]; }\n\
                      __kernel __attribute__((reqd_work_group_size(4, 1, 1))) void fixed(__global int *p) { p[get_global_id(0)] = 1; }\n";
        let program = s.build_source(source, "-cl-std=CL1.2");
        let loc = s.kernel(program, "loc");
        let fixed = s.kernel(program, "fixed");
        // clSetKernelArg: "CL_INVALID_ARG_VALUE if the argument is declared with the local
        // qualifier and arg_value is not NULL"; "CL_INVALID_ARG_SIZE if ... the argument is
        // declared with the local qualifier and the arg_size is zero".
        e.code(
            "clSetKernelArg(local with value)",
            clSetKernelArg(loc, 1, 16, host.as_ptr() as *const c_void),
            CL_INVALID_ARG_VALUE,
        );
        e.code(
            "clSetKernelArg(local of size 0)",
            clSetKernelArg(loc, 1, 0, null()),
            CL_INVALID_ARG_SIZE,
        );
        e.code(
            "clSetKernelArg(local)",
            clSetKernelArg(loc, 1, 16, null()),
            CL_SUCCESS,
        );
        // A NULL buffer argument is allowed ("If the argument is a buffer object, the
        // arg_value pointer can be NULL or point to a NULL value").
        e.code(
            "clSetKernelArg(NULL buffer)",
            clSetKernelArg(fixed, 0, 8, null()),
            CL_SUCCESS,
        );
        let out = s.buffer(&[0i32; 16]);
        s.arg_mem(fixed, 0, out);
        // clEnqueueNDRangeKernel: "CL_INVALID_WORK_GROUP_SIZE if local_work_size is specified
        // and does not match the required work-group size for kernel in the program source";
        // "if the work-group size must be uniform and the local_work_size is not NULL, [and]
        // is not equal to the required work-group size specified in the kernel source, or the
        // global_work_size is not evenly divisible by the local_work_size".
        let (global, local8, local4) = ([16usize], [8usize], [4usize]);
        e.code(
            "clEnqueueNDRangeKernel(local != reqd)",
            clEnqueueNDRangeKernel(
                s.queue,
                fixed,
                1,
                null(),
                global.as_ptr(),
                local8.as_ptr(),
                0,
                null(),
                null_mut(),
            ),
            CL_INVALID_WORK_GROUP_SIZE,
        );
        e.code(
            "clEnqueueNDRangeKernel(local = reqd)",
            clEnqueueNDRangeKernel(
                s.queue,
                fixed,
                1,
                null(),
                global.as_ptr(),
                local4.as_ptr(),
                0,
                null(),
                null_mut(),
            ),
            CL_SUCCESS,
        );
        let odd = [10usize];
        e.code(
            "clEnqueueNDRangeKernel(CL1.2, global not a multiple)",
            clEnqueueNDRangeKernel(
                s.queue,
                fixed,
                1,
                null(),
                odd.as_ptr(),
                local4.as_ptr(),
                0,
                null(),
                null_mut(),
            ),
            CL_INVALID_WORK_GROUP_SIZE,
        );
        // clGetKernelWorkGroupInfo: "CL_INVALID_DEVICE if device is not in the list of devices
        // associated with kernel"; "CL_INVALID_VALUE if param_name is not valid".
        let mut wg = 0usize;
        e.code(
            "clGetKernelWorkGroupInfo(context as device)",
            clGetKernelWorkGroupInfo(
                fixed,
                s.context,
                CL_KERNEL_WORK_GROUP_SIZE,
                8,
                &mut wg as *mut usize as *mut c_void,
                null_mut(),
            ),
            CL_INVALID_DEVICE,
        );
        e.code(
            "clGetKernelWorkGroupInfo(bad name)",
            clGetKernelWorkGroupInfo(
                fixed,
                s.device,
                0xFFFF,
                8,
                &mut wg as *mut usize as *mut c_void,
                null_mut(),
            ),
            CL_INVALID_VALUE,
        );
        e.code(
            "clGetKernelWorkGroupInfo(foreign)",
            clGetKernelWorkGroupInfo(
                0x1234 as *mut c_void,
                s.device,
                CL_KERNEL_WORK_GROUP_SIZE,
                8,
                &mut wg as *mut usize as *mut c_void,
                null_mut(),
            ),
            CL_INVALID_KERNEL,
        );
        check(clFinish(s.queue), "clFinish");
        check(clReleaseKernel(loc), "clReleaseKernel");
        check(clReleaseKernel(fixed), "clReleaseKernel");
        check(clReleaseProgram(program), "clReleaseProgram");
        check(clReleaseMemObject(out), "clReleaseMemObject");
        check(clReleaseMemObject(write_only), "clReleaseMemObject");
        check(clReleaseMemObject(no_access), "clReleaseMemObject");
    }
    e.done();
}

/// Features the device does not report answer with the code the specification gives for a
/// device without them, after checking their handles.
#[test]
fn unreported_features_give_their_documented_codes() {
    let s = Session::new();
    let mut e = Expect::default();
    // SAFETY: every pointer below is valid for what the call reads or writes, or deliberately
    // invalid.
    unsafe {
        let mut exec_caps = 0u64;
        check(
            clGetDeviceInfo(
                s.device,
                CL_DEVICE_EXECUTION_CAPABILITIES,
                8,
                &mut exec_caps as *mut u64 as *mut c_void,
                null_mut(),
            ),
            "clGetDeviceInfo",
        );
        // Native kernels are reported (`tests/c/native.c` runs them).
        e.code(
            "CL_EXEC_NATIVE_KERNEL",
            (exec_caps & CL_EXEC_NATIVE_KERNEL) as i32,
            CL_EXEC_NATIVE_KERNEL as i32,
        );
        let program = s.build_source(SOURCE, "");
        let kernel = s.kernel(program, "k");
        // SVM is reported (CL_DEVICE_SVM_CAPABILITIES): its entry points check their handles
        // and arguments ("CL_INVALID_COMMAND_QUEUE", "CL_INVALID_KERNEL", "CL_INVALID_ARG_VALUE
        // if arg_value specified is not a valid value": `v` is an int).
        let mut data = [0u8; 16];
        let p = data.as_mut_ptr() as *mut c_void;
        e.code(
            "clEnqueueSVMMemcpy(foreign queue)",
            oxcl::svm::clEnqueueSVMMemcpy(
                0x1234 as *mut c_void,
                CL_TRUE,
                p,
                p,
                4,
                0,
                null(),
                null_mut(),
            ),
            CL_INVALID_COMMAND_QUEUE,
        );
        e.code(
            "clSetKernelArgSVMPointer(foreign)",
            oxcl::svm::clSetKernelArgSVMPointer(0x1234 as *mut c_void, 0, p),
            CL_INVALID_KERNEL,
        );
        e.code(
            "clSetKernelArgSVMPointer(int argument)",
            oxcl::svm::clSetKernelArgSVMPointer(kernel, 1, p),
            CL_INVALID_ARG_VALUE,
        );
        let ptrs = [p];
        e.code(
            "clSetKernelExecInfo(bad name)",
            oxcl::svm::clSetKernelExecInfo(kernel, 0xFFFF, 8, ptrs.as_ptr() as *const c_void),
            CL_INVALID_VALUE,
        );
        // clEnqueueNativeKernel: "CL_INVALID_VALUE if user_func is NULL".
        e.code(
            "clEnqueueNativeKernel",
            oxcl::native::clEnqueueNativeKernel(
                s.queue,
                None,
                null_mut(),
                0,
                0,
                null(),
                null(),
                0,
                null(),
                null_mut(),
            ),
            CL_INVALID_VALUE,
        );
        // clSetDefaultDeviceCommandQueue: "CL_INVALID_COMMAND_QUEUE if command_queue is not a
        // valid command-queue for device" (a host queue is not an on-device queue).
        e.code(
            "clSetDefaultDeviceCommandQueue",
            oxcl::queue::clSetDefaultDeviceCommandQueue(s.context, s.device, s.queue),
            CL_INVALID_COMMAND_QUEUE,
        );
        e.code(
            "clSetDefaultDeviceCommandQueue(foreign context)",
            oxcl::queue::clSetDefaultDeviceCommandQueue(0x1234 as *mut c_void, s.device, s.queue),
            CL_INVALID_CONTEXT,
        );
        // clSetProgramReleaseCallback (deprecated by 3.0): "CL_INVALID_OPERATION if no devices
        // in the context associated with program support destructors for program scope global
        // variables."
        e.code(
            "clSetProgramReleaseCallback",
            clSetProgramReleaseCallback(program, Some(program_release), null_mut()),
            CL_INVALID_OPERATION,
        );
        check(clReleaseKernel(kernel), "clReleaseKernel");
        check(clReleaseProgram(program), "clReleaseProgram");
    }
    e.done();
}

unsafe extern "C" fn program_release(_: *mut c_void, _: *mut c_void) {}

#[test]
fn event_query_errors() {
    let s = Session::new();
    let mut e = Expect::default();
    let mut err = 0;
    // SAFETY: every pointer below is valid for what the call reads or writes, or deliberately
    // invalid.
    unsafe {
        // clCreateUserEvent: "CL_INVALID_CONTEXT if context is not a valid context."
        let ev = clCreateUserEvent(0x1234 as *mut c_void, &mut err);
        e.created("clCreateUserEvent(foreign)", ev, err, CL_INVALID_CONTEXT);
        let ev = clCreateUserEvent(s.device, &mut err);
        e.created("clCreateUserEvent(device)", ev, err, CL_INVALID_CONTEXT);
        // A command on a queue without CL_QUEUE_PROFILING_ENABLE: "CL_PROFILING_INFO_NOT_AVAILABLE
        // if the CL_QUEUE_PROFILING_ENABLE flag is not set for the command-queue".
        let mut marker = null_mut();
        check(
            clEnqueueMarkerWithWaitList(s.queue, 0, null(), &mut marker),
            "clEnqueueMarkerWithWaitList",
        );
        check(clWaitForEvents(1, &marker), "clWaitForEvents");
        let mut t = 0u64;
        e.code(
            "clGetEventProfilingInfo(no profiling)",
            clGetEventProfilingInfo(
                marker,
                CL_PROFILING_COMMAND_END,
                8,
                &mut t as *mut u64 as *mut c_void,
                null_mut(),
            ),
            CL_PROFILING_INFO_NOT_AVAILABLE,
        );
        // On a profiling queue: "CL_INVALID_VALUE if param_name is not valid, or if size in
        // bytes specified by param_value_size is < size of return type".
        let props = [CL_QUEUE_PROPERTIES as u64, CL_QUEUE_PROFILING_ENABLE, 0];
        let q = clCreateCommandQueueWithProperties(s.context, s.device, props.as_ptr(), &mut err);
        check(err, "clCreateCommandQueueWithProperties");
        let mut profiled = null_mut();
        check(
            clEnqueueMarkerWithWaitList(q, 0, null(), &mut profiled),
            "clEnqueueMarkerWithWaitList",
        );
        check(clWaitForEvents(1, &profiled), "clWaitForEvents");
        e.code(
            "clGetEventProfilingInfo",
            clGetEventProfilingInfo(
                profiled,
                CL_PROFILING_COMMAND_END,
                8,
                &mut t as *mut u64 as *mut c_void,
                null_mut(),
            ),
            CL_SUCCESS,
        );
        e.code(
            "clGetEventProfilingInfo(bad name)",
            clGetEventProfilingInfo(
                profiled,
                0xFFFF,
                8,
                &mut t as *mut u64 as *mut c_void,
                null_mut(),
            ),
            CL_INVALID_VALUE,
        );
        e.code(
            "clGetEventProfilingInfo(small)",
            clGetEventProfilingInfo(
                profiled,
                CL_PROFILING_COMMAND_END,
                4,
                &mut t as *mut u64 as *mut c_void,
                null_mut(),
            ),
            CL_INVALID_VALUE,
        );
        // clGetEventInfo: "CL_INVALID_VALUE if param_name is not valid, or if size in bytes
        // specified by param_value_size is < size of return type".
        let mut v = 0u32;
        e.code(
            "clGetEventInfo(bad name)",
            clGetEventInfo(
                marker,
                0xFFFF,
                4,
                &mut v as *mut u32 as *mut c_void,
                null_mut(),
            ),
            CL_INVALID_VALUE,
        );
        e.code(
            "clGetEventInfo(small)",
            clGetEventInfo(
                marker,
                CL_EVENT_COMMAND_TYPE,
                2,
                &mut v as *mut u32 as *mut c_void,
                null_mut(),
            ),
            CL_INVALID_VALUE,
        );
        // clSetEventCallback: "CL_INVALID_EVENT if event is not a valid event object";
        // "CL_INVALID_VALUE if ... command_exec_callback_type is not CL_SUBMITTED, CL_RUNNING,
        // or CL_COMPLETE."
        e.code(
            "clSetEventCallback(foreign)",
            clSetEventCallback(
                0x1234 as *mut c_void,
                CL_COMPLETE as i32,
                Some(event_callback),
                null_mut(),
            ),
            CL_INVALID_EVENT,
        );
        e.code(
            "clSetEventCallback(bad type)",
            clSetEventCallback(marker, 7, Some(event_callback), null_mut()),
            CL_INVALID_VALUE,
        );
        // clSetUserEventStatus on an event that is not a user event: "CL_INVALID_EVENT if
        // event is not a valid user event object".
        e.code(
            "clSetUserEventStatus(command event)",
            clSetUserEventStatus(marker, CL_COMPLETE as i32),
            CL_INVALID_EVENT,
        );
        check(clReleaseEvent(marker), "clReleaseEvent");
        check(clReleaseEvent(profiled), "clReleaseEvent");
        check(clReleaseCommandQueue(q), "clReleaseCommandQueue");
    }
    e.done();
}

unsafe extern "C" fn event_callback(_: *mut c_void, _: i32, _: *mut c_void) {}
