//! Program objects (API 5.8): from source, IL and oxcl binaries; build, compile, link; queries.
//! Builds run inside the call; a `pfn_notify` is called when the build is done (API 5.8.2:
//! "clBuildProgram does not need to wait for the build to complete" — it may).

use std::ffi::c_void;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

use crate::consts::*;
use crate::context::ContextObj;
use crate::device::DeviceObj;
use crate::entry::{c_str, code, guard, guard_create, ClResult};
use crate::handle::{get_list, ClObject, Kind, Obj};
use crate::info::{answer, InfoValue};
use crate::types::*;

/// How a program was created (which operations apply).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    Source,
    Il,
    Binary,
    /// The result of clLinkProgram.
    Linked,
}

pub struct ProgramObj {
    pub context: Arc<Obj<ContextObj>>,
    pub program: runtime::Program,
    pub origin: Origin,
    /// Kernel objects alive for this program (API 5.8.2 "CL_INVALID_OPERATION if there are
    /// kernel objects attached to program").
    pub kernels: AtomicUsize,
    /// A clBuildProgram or clCompileProgram is running on another thread.
    pub building: AtomicBool,
}

/// Marks a program as being built for the guard's lifetime: "CL_INVALID_OPERATION if the build
/// of a program executable for any of the devices listed in device_list by a previous call to
/// clBuildProgram for program has not completed" (and alike for clCompileProgram).
struct Building<'a>(&'a AtomicBool);

impl<'a> Building<'a> {
    fn start(flag: &'a AtomicBool) -> ClResult<Building<'a>> {
        if flag.swap(true, Ordering::SeqCst) {
            return Err(CL_INVALID_OPERATION);
        }
        Ok(Building(flag))
    }
}

impl Drop for Building<'_> {
    fn drop(&mut self) {
        self.0.store(false, Ordering::SeqCst);
    }
}

impl ClObject for ProgramObj {
    const KIND: Kind = Kind::Program;
    const INVALID: i32 = CL_INVALID_PROGRAM;
}

type BuildNotify = Option<unsafe extern "C" fn(cl_program, *mut c_void)>;

fn new_program(
    context: Arc<Obj<ContextObj>>,
    program: runtime::Program,
    origin: Origin,
) -> Arc<Obj<ProgramObj>> {
    Obj::create(ProgramObj {
        context,
        program,
        origin,
        kernels: AtomicUsize::new(0),
        building: AtomicBool::new(false),
    })
}

/// `clCreateProgramWithSource` (API 5.8.1).
pub unsafe extern "C" fn clCreateProgramWithSource(
    context: cl_context,
    count: cl_uint,
    strings: *const *const i8,
    lengths: *const usize,
    errcode_ret: *mut cl_int,
) -> cl_program {
    guard_create(errcode_ret, || {
        // "CL_INVALID_CONTEXT if context is not a valid context."
        let context = Obj::<ContextObj>::get(context)?;
        // "CL_INVALID_VALUE if count is zero or if strings or any entry in strings is NULL."
        if count == 0 || strings.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        let mut text = Vec::new();
        for i in 0..count as usize {
            // SAFETY: `count` string pointers.
            let s = unsafe { *strings.add(i) };
            if s.is_null() {
                return Err(CL_INVALID_VALUE);
            }
            // "If an element in lengths is zero, its accompanying string is null-terminated.
            // If lengths is NULL, all strings in the strings argument are considered null-terminated."
            // SAFETY: `lengths` has `count` entries when not null.
            let len = if lengths.is_null() {
                0
            } else {
                unsafe { *lengths.add(i) }
            };
            if len == 0 {
                // SAFETY: NUL-terminated.
                text.extend_from_slice(unsafe { std::ffi::CStr::from_ptr(s) }.to_bytes());
            } else {
                // SAFETY: `len` bytes.
                text.extend_from_slice(unsafe { std::slice::from_raw_parts(s as *const u8, len) });
            }
        }
        let text = String::from_utf8_lossy(&text);
        let program = runtime::Program::from_source(&context.context, &text, "program.cl");
        Ok(Obj::into_handle(new_program(
            context,
            program,
            Origin::Source,
        )))
    })
}

/// `clCreateProgramWithIL` (API 5.8.1).
pub unsafe extern "C" fn clCreateProgramWithIL(
    context: cl_context,
    il: *const c_void,
    length: usize,
    errcode_ret: *mut cl_int,
) -> cl_program {
    guard_create(errcode_ret, || {
        let context = Obj::<ContextObj>::get(context)?;
        // "CL_INVALID_VALUE if il is NULL or if length is zero" and "if the length-byte memory
        // pointed to by il does not contain well-formed intermediate language input".
        if il.is_null() || length == 0 {
            return Err(CL_INVALID_VALUE);
        }
        // SAFETY: `length` readable bytes.
        let bytes = unsafe { std::slice::from_raw_parts(il as *const u8, length) };
        let magic = bytes
            .get(..4)
            .map(|m| u32::from_le_bytes([m[0], m[1], m[2], m[3]]));
        if !matches!(magic, Some(0x0723_0203) | Some(0x0302_2307)) {
            return Err(CL_INVALID_VALUE);
        }
        let program =
            runtime::Program::from_il(&context.context, bytes).map_err(|_| CL_INVALID_VALUE)?;
        Ok(Obj::into_handle(new_program(context, program, Origin::Il)))
    })
}

/// `clCreateProgramWithBinary` (API 5.8.1): oxcl binaries (`CL_PROGRAM_BINARIES` output).
pub unsafe extern "C" fn clCreateProgramWithBinary(
    context: cl_context,
    num_devices: cl_uint,
    device_list: *const cl_device_id,
    lengths: *const usize,
    binaries: *const *const u8,
    binary_status: *mut cl_int,
    errcode_ret: *mut cl_int,
) -> cl_program {
    guard_create(errcode_ret, || {
        let context = Obj::<ContextObj>::get(context)?;
        // "CL_INVALID_VALUE if device_list is NULL or num_devices is zero."
        if device_list.is_null() || num_devices == 0 {
            return Err(CL_INVALID_VALUE);
        }
        // "CL_INVALID_DEVICE if any device in device_list is not in the list of devices
        // associated with context."
        // SAFETY: `num_devices` handles.
        let devices = unsafe { get_list::<DeviceObj>(device_list, num_devices) }?;
        if devices.iter().any(|d| !context.has_device(d)) {
            return Err(CL_INVALID_DEVICE);
        }
        // "CL_INVALID_VALUE if lengths or binaries is NULL or if any entry in lengths[i] is zero
        // or binaries[i] is NULL."
        if lengths.is_null() || binaries.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        let mut program = None;
        let mut first_error = None;
        for i in 0..num_devices as usize {
            // SAFETY: `num_devices` entries each.
            let (len, ptr) = unsafe { (*lengths.add(i), *binaries.add(i)) };
            let status = if len == 0 || ptr.is_null() {
                CL_INVALID_VALUE
            } else {
                // SAFETY: `len` readable bytes.
                let bytes = unsafe { std::slice::from_raw_parts(ptr, len) };
                match runtime::Program::from_binary(&context.context, bytes) {
                    Ok(p) => {
                        program.get_or_insert(p);
                        CL_SUCCESS
                    }
                    // "CL_INVALID_BINARY if an invalid program binary was encountered for any
                    // device. binary_status will return specific status for each device."
                    Err(_) => CL_INVALID_BINARY,
                }
            };
            if !binary_status.is_null() {
                // SAFETY: `num_devices` entries.
                unsafe { *binary_status.add(i) = status };
            }
            if status != CL_SUCCESS {
                first_error.get_or_insert(status);
            }
        }
        if let Some(error) = first_error {
            return Err(error);
        }
        let program = program.ok_or(CL_INVALID_BINARY)?;
        Ok(Obj::into_handle(new_program(
            context,
            program,
            Origin::Binary,
        )))
    })
}

/// `clCreateProgramWithBuiltInKernels` (API 5.8.1): the device has no built-in kernels.
pub unsafe extern "C" fn clCreateProgramWithBuiltInKernels(
    context: cl_context,
    num_devices: cl_uint,
    device_list: *const cl_device_id,
    _kernel_names: *const i8,
    errcode_ret: *mut cl_int,
) -> cl_program {
    guard_create(errcode_ret, || {
        let context = Obj::<ContextObj>::get(context)?;
        if device_list.is_null() || num_devices == 0 {
            return Err(CL_INVALID_VALUE);
        }
        // "CL_INVALID_DEVICE if any device in device_list is not in the list of devices
        // associated with context."
        // SAFETY: `num_devices` handles.
        let devices = unsafe { get_list::<DeviceObj>(device_list, num_devices) }?;
        if devices.iter().any(|d| !context.has_device(d)) {
            return Err(CL_INVALID_DEVICE);
        }
        // "CL_INVALID_VALUE if kernel_names is NULL or kernel_names contains a kernel name that
        // is not supported by any of the devices in device_list."
        Err(CL_INVALID_VALUE)
    })
}

pub unsafe extern "C" fn clRetainProgram(program: cl_program) -> cl_int {
    // "CL_INVALID_PROGRAM if program is not a valid program object."
    Obj::<ProgramObj>::retain(program)
}

pub unsafe extern "C" fn clReleaseProgram(program: cl_program) -> cl_int {
    Obj::<ProgramObj>::release(program)
}

/// The device-list rules of clBuildProgram/clCompileProgram/clLinkProgram: "CL_INVALID_VALUE if
/// device_list is NULL and num_devices is greater than zero, or if device_list is not NULL and
/// num_devices is zero" and "CL_INVALID_DEVICE if any device in device_list is not in the list
/// of devices associated with program".
fn check_devices(
    context: &ContextObj,
    num_devices: cl_uint,
    device_list: *const cl_device_id,
) -> ClResult<()> {
    if device_list.is_null() != (num_devices == 0) {
        return Err(CL_INVALID_VALUE);
    }
    // SAFETY: `num_devices` handles.
    let devices = unsafe { get_list::<DeviceObj>(device_list, num_devices) }?;
    if devices.iter().any(|d| !context.has_device(d)) {
        return Err(CL_INVALID_DEVICE);
    }
    Ok(())
}

/// Options as a string (null is empty).
fn options_text(options: *const i8) -> String {
    // SAFETY: NUL-terminated or null.
    unsafe { c_str(options) }.unwrap_or_default()
}

fn notify(callback: BuildNotify, program: &Arc<Obj<ProgramObj>>, user_data: *mut c_void) {
    if let Some(callback) = callback {
        let handle = Obj::handle(program);
        let data = crate::entry::HostPtr(user_data);
        // SAFETY: the application's callback with its own data.
        let _ = std::panic::catch_unwind(move || unsafe { callback(handle, data.0) });
    }
}

/// `clBuildProgram` (API 5.8.2).
pub unsafe extern "C" fn clBuildProgram(
    program: cl_program,
    num_devices: cl_uint,
    device_list: *const cl_device_id,
    options: *const i8,
    pfn_notify: BuildNotify,
    user_data: *mut c_void,
) -> cl_int {
    guard(|| {
        let p = Obj::<ProgramObj>::get(program)?;
        check_devices(&p.context, num_devices, device_list)?;
        // "CL_INVALID_VALUE if pfn_notify is NULL but user_data is not NULL."
        if pfn_notify.is_none() && !user_data.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        // "CL_INVALID_OPERATION if there are kernel objects attached to program."
        if p.kernels.load(Ordering::SeqCst) > 0 {
            return Err(CL_INVALID_OPERATION);
        }
        // "CL_INVALID_OPERATION if program was not created with clCreateProgramWithSource,
        // clCreateProgramWithIL or clCreateProgramWithBinary."
        if p.origin == Origin::Linked {
            return Err(CL_INVALID_OPERATION);
        }
        let _building = Building::start(&p.building)?;
        let result = p.program.build(&options_text(options));
        notify(pfn_notify, &p, user_data);
        // CL_INVALID_BUILD_OPTIONS / CL_BUILD_PROGRAM_FAILURE from the runtime.
        result.map_err(code)
    })
}

/// `clCompileProgram` (API 5.8.3).
pub unsafe extern "C" fn clCompileProgram(
    program: cl_program,
    num_devices: cl_uint,
    device_list: *const cl_device_id,
    options: *const i8,
    num_input_headers: cl_uint,
    input_headers: *const cl_program,
    header_include_names: *const *const i8,
    pfn_notify: BuildNotify,
    user_data: *mut c_void,
) -> cl_int {
    guard(|| {
        let p = Obj::<ProgramObj>::get(program)?;
        check_devices(&p.context, num_devices, device_list)?;
        // "CL_INVALID_VALUE if num_input_headers is zero and header_include_names or
        // input_headers are not NULL or if num_input_headers is not zero and
        // header_include_names or input_headers are NULL."
        if (num_input_headers == 0 && (!header_include_names.is_null() || !input_headers.is_null()))
            || (num_input_headers != 0
                && (header_include_names.is_null() || input_headers.is_null()))
        {
            return Err(CL_INVALID_VALUE);
        }
        // "CL_INVALID_VALUE if pfn_notify is NULL but user_data is not NULL."
        if pfn_notify.is_none() && !user_data.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        // "CL_INVALID_OPERATION if there are kernel objects attached to program."
        if p.kernels.load(Ordering::SeqCst) > 0 {
            return Err(CL_INVALID_OPERATION);
        }
        // "CL_INVALID_OPERATION if program has no source or IL available, i.e. it has not been
        // created with clCreateProgramWithSource or clCreateProgramWithIL."
        if !matches!(p.origin, Origin::Source | Origin::Il) {
            return Err(CL_INVALID_OPERATION);
        }
        // SAFETY: `num_input_headers` handles.
        let headers = unsafe { get_list::<ProgramObj>(input_headers, num_input_headers) }?;
        let mut embedded = Vec::new();
        for (i, header) in headers.iter().enumerate() {
            // SAFETY: `num_input_headers` names.
            let name = unsafe { c_str(*header_include_names.add(i)) }.ok_or(CL_INVALID_VALUE)?;
            embedded.push((
                name,
                header.program.source_text().unwrap_or_default().to_string(),
            ));
        }
        let _building = Building::start(&p.building)?;
        let result = p.program.compile(&options_text(options), &embedded);
        notify(pfn_notify, &p, user_data);
        result.map_err(|e| match e {
            // "CL_INVALID_COMPILER_OPTIONS if the compiler options specified by options are invalid."
            runtime::Error::InvalidBuildOptions(_) => CL_INVALID_COMPILER_OPTIONS,
            other => code(other),
        })
    })
}

/// `clLinkProgram` (API 5.8.4).
pub unsafe extern "C" fn clLinkProgram(
    context: cl_context,
    num_devices: cl_uint,
    device_list: *const cl_device_id,
    options: *const i8,
    num_input_programs: cl_uint,
    input_programs: *const cl_program,
    pfn_notify: BuildNotify,
    user_data: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_program {
    let mut failed_program: *mut c_void = std::ptr::null_mut();
    let result = guard_create(errcode_ret, || {
        let context = Obj::<ContextObj>::get(context)?;
        check_devices(&context, num_devices, device_list)?;
        // "CL_INVALID_VALUE if num_input_programs is zero and input_programs is NULL or if
        // num_input_programs is zero and input_programs is not NULL or if num_input_programs is
        // not zero and input_programs is NULL."
        if num_input_programs == 0 || input_programs.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        if pfn_notify.is_none() && !user_data.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        // "CL_INVALID_PROGRAM if programs specified in input_programs are not valid program objects."
        // SAFETY: `num_input_programs` handles.
        let inputs = unsafe { get_list::<ProgramObj>(input_programs, num_input_programs) }?;
        // "CL_INVALID_OPERATION if the compilation or build of a program executable for any of
        // the devices listed in device_list by a previous call to clCompileProgram or
        // clBuildProgram for program has not completed" — here: an input without an object.
        if inputs.iter().any(|p| p.program.object().is_none()) {
            return Err(CL_INVALID_OPERATION);
        }
        let programs: Vec<runtime::Program> = inputs.iter().map(|p| p.program.clone()).collect();
        match runtime::Program::link(&context.context, &programs, &options_text(options)) {
            Ok(program) => {
                let obj = new_program(context, program, Origin::Linked);
                notify(pfn_notify, &obj, user_data);
                Ok(Obj::into_handle(obj))
            }
            // "CL_LINK_PROGRAM_FAILURE if there is a failure to link the compiled binaries and/or
            // libraries": the program object is returned so its build log can be read.
            Err(runtime::Error::LinkProgramFailure(_, program)) => {
                let obj = new_program(context, program, Origin::Linked);
                notify(pfn_notify, &obj, user_data);
                failed_program = Obj::into_handle(obj);
                Err(CL_LINK_PROGRAM_FAILURE)
            }
            // "CL_INVALID_LINKER_OPTIONS if the linker options specified by options are invalid."
            Err(runtime::Error::InvalidBuildOptions(_)) => Err(CL_INVALID_LINKER_OPTIONS),
            Err(other) => Err(code(other)),
        }
    });
    if result.is_null() {
        failed_program
    } else {
        result
    }
}

fn program_info(p: &Arc<Obj<ProgramObj>>, param_name: cl_program_info) -> ClResult<InfoValue> {
    let program = &p.program;
    Ok(match param_name {
        CL_PROGRAM_REFERENCE_COUNT => InfoValue::u32(p.ref_count()),
        CL_PROGRAM_CONTEXT => InfoValue::ptr(Obj::handle(&p.context)),
        CL_PROGRAM_NUM_DEVICES => InfoValue::u32(p.context.devices.len() as u32),
        CL_PROGRAM_DEVICES => InfoValue::pod(
            &p.context
                .devices
                .iter()
                .map(|d| Obj::handle(d) as usize)
                .collect::<Vec<_>>(),
        ),
        // "an empty string or the appropriate program source code is returned" for IL/binary.
        CL_PROGRAM_SOURCE => InfoValue::str(program.source_text().unwrap_or("")),
        // "If program is created with clCreateProgramWithSource, clCreateProgramWithBinary or
        // clCreateProgramWithBuiltInKernels, the memory pointed to by param_value will be
        // unchanged and param_value_size_ret will be set to 0."
        CL_PROGRAM_IL => InfoValue(
            program
                .il()
                .filter(|_| p.origin == Origin::Il)
                .map(|b| b.to_vec())
                .unwrap_or_default(),
        ),
        CL_PROGRAM_BINARY_SIZES => InfoValue::usize(program.binary().len()),
        // "CL_INVALID_PROGRAM_EXECUTABLE if param_name is CL_PROGRAM_NUM_KERNELS or
        // CL_PROGRAM_KERNEL_NAMES and a successful program executable has not been built".
        CL_PROGRAM_NUM_KERNELS => InfoValue::usize(program.kernel_names().map_err(code)?.len()),
        CL_PROGRAM_KERNEL_NAMES => InfoValue::str(&program.kernel_names().map_err(code)?.join(";")),
        // "CL_INVALID_PROGRAM_EXECUTABLE if param_name is ... CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT,
        // or CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT and a successful program executable has not
        // been built"; OpenCL C and SPIR-V programs of this device have no program-scope
        // constructors or destructors (a C++ for OpenCL feature), so the answer is CL_FALSE.
        CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT | CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT => {
            program.kernel_names().map_err(code)?;
            InfoValue::bool(false)
        }
        _ => return Err(CL_INVALID_VALUE),
    })
}

/// `clGetProgramInfo` (API 5.8.9).
pub unsafe extern "C" fn clGetProgramInfo(
    program: cl_program,
    param_name: cl_program_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    guard(|| {
        let p = Obj::<ProgramObj>::get(program)?;
        if param_name == CL_PROGRAM_BINARIES {
            // An array of one pointer per device, each to a buffer of CL_PROGRAM_BINARY_SIZES
            // bytes; "If an entry value in the array is NULL, the implementation skips copying
            // the program binary for the specific device identified by the array index."
            let n = p.context.devices.len();
            let needed = n * std::mem::size_of::<*mut u8>();
            if !param_value.is_null() {
                if param_value_size < needed {
                    return Err(CL_INVALID_VALUE);
                }
                let binary = p.program.binary();
                for i in 0..n {
                    // SAFETY: `n` pointers in the caller's array.
                    let dst = unsafe { *(param_value as *const *mut u8).add(i) };
                    if !dst.is_null() {
                        // SAFETY: the caller sized each buffer by CL_PROGRAM_BINARY_SIZES.
                        unsafe {
                            std::ptr::copy_nonoverlapping(binary.as_ptr(), dst, binary.len())
                        };
                    }
                }
            }
            if !param_value_size_ret.is_null() {
                // SAFETY: a writable size_t.
                unsafe { *param_value_size_ret = needed };
            }
            return Ok(());
        }
        // SAFETY: the caller's buffers.
        unsafe {
            answer(
                program_info(&p, param_name),
                param_value_size,
                param_value,
                param_value_size_ret,
            )
        }
    })
}

/// `clGetProgramBuildInfo` (API 5.8.9).
pub unsafe extern "C" fn clGetProgramBuildInfo(
    program: cl_program,
    device: cl_device_id,
    param_name: cl_program_build_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    guard(|| {
        let p = Obj::<ProgramObj>::get(program)?;
        // "CL_INVALID_DEVICE if device is not in the list of devices associated with program."
        let d = Obj::<DeviceObj>::get(device)?;
        if !p.context.has_device(&d) {
            return Err(CL_INVALID_DEVICE);
        }
        let value = match param_name {
            CL_PROGRAM_BUILD_STATUS => Ok(InfoValue::i32(match p.program.build_status() {
                runtime::BuildStatus::None => CL_BUILD_NONE,
                runtime::BuildStatus::Error => CL_BUILD_ERROR,
                runtime::BuildStatus::Success => CL_BUILD_SUCCESS as i32,
            })),
            CL_PROGRAM_BUILD_OPTIONS => Ok(InfoValue::str(&p.program.build_options())),
            CL_PROGRAM_BUILD_LOG => Ok(InfoValue::str(&p.program.build_log())),
            CL_PROGRAM_BINARY_TYPE => Ok(InfoValue::u32(p.program.binary_type() as u32)),
            // The program-scope variables of the global address space; 0 before a successful
            // build (nothing has been allocated).
            CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE => Ok(InfoValue::usize(
                p.program.global_variable_total_size().unwrap_or(0),
            )),
            _ => Err(CL_INVALID_VALUE),
        };
        // SAFETY: the caller's buffers.
        unsafe { answer(value, param_value_size, param_value, param_value_size_ret) }
    })
}

/// `clSetProgramReleaseCallback` (API 5.8.5, deprecated by 3.0): no program-scope destructors.
pub unsafe extern "C" fn clSetProgramReleaseCallback(
    program: cl_program,
    _pfn_notify: BuildNotify,
    _user_data: *mut c_void,
) -> cl_int {
    guard(|| {
        Obj::<ProgramObj>::get(program)?;
        // "CL_INVALID_OPERATION if no devices in the context associated with program support
        // destructors for program scope global variables."
        Err(CL_INVALID_OPERATION)
    })
}

/// `clSetProgramSpecializationConstant` (API 5.8.6).
pub unsafe extern "C" fn clSetProgramSpecializationConstant(
    program: cl_program,
    spec_id: cl_uint,
    spec_size: usize,
    spec_value: *const c_void,
) -> cl_int {
    guard(|| {
        let p = Obj::<ProgramObj>::get(program)?;
        // "CL_INVALID_PROGRAM if program is not a valid program object created from an
        // intermediate language (e.g. SPIR-V)".
        if p.origin != Origin::Il {
            return Err(CL_INVALID_PROGRAM);
        }
        // "CL_INVALID_SPEC_ID if spec_id is not a valid specialization constant identifier."
        let ty = *p
            .program
            .spec_constants()
            .get(&spec_id)
            .ok_or(CL_INVALID_SPEC_ID)?;
        // "CL_INVALID_VALUE if spec_size does not match the size of the specialization constant
        // in the module, or if spec_value is NULL."
        if spec_size != ty.size || spec_value.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        // SAFETY: `spec_size` readable bytes.
        let value = unsafe { std::slice::from_raw_parts(spec_value as *const u8, spec_size) };
        p.program.set_spec_constant(spec_id, value).map_err(code)
    })
}
