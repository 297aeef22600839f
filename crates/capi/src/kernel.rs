//! Kernel objects (API 5.9) and the kernel commands (API 5.10: clEnqueueNDRangeKernel,
//! clEnqueueTask).

use std::ffi::c_void;
use std::sync::atomic::Ordering;
use std::sync::Arc;

use runtime::ArgKind;

use crate::consts::*;
use crate::device::DeviceObj;
use crate::entry::{c_str, code, guard, guard_create, ClResult};
use crate::handle::{ClObject, Kind, Obj};
use crate::info::{answer, InfoValue};
use crate::memory::MemObj;
use crate::program::{Origin, ProgramObj};
use crate::queue::{begin, Command};
use crate::types::*;

pub struct KernelObj {
    pub program: Arc<Obj<ProgramObj>>,
    pub kernel: runtime::Kernel,
}

impl ClObject for KernelObj {
    const KIND: Kind = Kind::Kernel;
    const INVALID: i32 = CL_INVALID_KERNEL;
}

impl Drop for KernelObj {
    fn drop(&mut self) {
        self.program.kernels.fetch_sub(1, Ordering::SeqCst);
    }
}

fn new_kernel(program: &Arc<Obj<ProgramObj>>, kernel: runtime::Kernel) -> *mut c_void {
    program.kernels.fetch_add(1, Ordering::SeqCst);
    Obj::into_handle(Obj::create(KernelObj {
        program: program.clone(),
        kernel,
    }))
}

/// `clCreateKernel` (API 5.9.1).
pub unsafe extern "C" fn clCreateKernel(
    program: cl_program,
    kernel_name: *const i8,
    errcode_ret: *mut cl_int,
) -> cl_kernel {
    guard_create(errcode_ret, || {
        // "CL_INVALID_PROGRAM if program is not a valid program object."
        let p = Obj::<ProgramObj>::get(program)?;
        // "CL_INVALID_VALUE if kernel_name is NULL."
        // SAFETY: NUL-terminated or null.
        let name = unsafe { c_str(kernel_name) }.ok_or(CL_INVALID_VALUE)?;
        // "CL_INVALID_PROGRAM_EXECUTABLE if there is no successfully built executable for
        // program"; "CL_INVALID_KERNEL_NAME if kernel_name is not found in program."
        let kernel = p.program.kernel(&name).map_err(code)?;
        Ok(new_kernel(&p, kernel))
    })
}

/// `clCreateKernelsInProgram` (API 5.9.1).
pub unsafe extern "C" fn clCreateKernelsInProgram(
    program: cl_program,
    num_kernels: cl_uint,
    kernels: *mut cl_kernel,
    num_kernels_ret: *mut cl_uint,
) -> cl_int {
    guard(|| {
        let p = Obj::<ProgramObj>::get(program)?;
        // "CL_INVALID_PROGRAM_EXECUTABLE if there is no successfully built executable for any
        // device in program."
        let names = p.program.kernel_names().map_err(code)?;
        // "CL_INVALID_VALUE if kernels is not NULL and num_kernels is less than the number of
        // kernels in program."
        if !kernels.is_null() && (num_kernels as usize) < names.len() {
            return Err(CL_INVALID_VALUE);
        }
        if !kernels.is_null() {
            for (i, name) in names.iter().enumerate() {
                let kernel = p.program.kernel(name).map_err(code)?;
                // SAFETY: `num_kernels` ≥ names.len() entries.
                unsafe { *kernels.add(i) = new_kernel(&p, kernel) };
            }
        }
        if !num_kernels_ret.is_null() {
            // SAFETY: a writable cl_uint.
            unsafe { *num_kernels_ret = names.len() as u32 };
        }
        Ok(())
    })
}

/// `clCloneKernel` (API 5.9.1).
pub unsafe extern "C" fn clCloneKernel(
    source_kernel: cl_kernel,
    errcode_ret: *mut cl_int,
) -> cl_kernel {
    guard_create(errcode_ret, || {
        // "CL_INVALID_KERNEL if kernel is not a valid kernel object."
        let k = Obj::<KernelObj>::get(source_kernel)?;
        Ok(new_kernel(&k.program, k.kernel.duplicate()))
    })
}

pub unsafe extern "C" fn clRetainKernel(kernel: cl_kernel) -> cl_int {
    // "CL_INVALID_KERNEL if kernel is not a valid kernel object."
    Obj::<KernelObj>::retain(kernel)
}

pub unsafe extern "C" fn clReleaseKernel(kernel: cl_kernel) -> cl_int {
    Obj::<KernelObj>::release(kernel)
}

/// `clSetKernelArg` (API 5.9.2).
pub unsafe extern "C" fn clSetKernelArg(
    kernel: cl_kernel,
    arg_index: cl_uint,
    arg_size: usize,
    arg_value: *const c_void,
) -> cl_int {
    guard(|| {
        let k = Obj::<KernelObj>::get(kernel)?;
        // "CL_INVALID_ARG_INDEX if arg_index is not a valid argument index."
        let info = k.kernel.arg_info(arg_index).map_err(code)?;
        match info.kind {
            ArgKind::Global | ArgKind::Constant => {
                // "CL_INVALID_ARG_SIZE if ... the argument is a memory object and arg_size !=
                // sizeof(cl_mem)".
                if arg_size != std::mem::size_of::<cl_mem>() {
                    return Err(CL_INVALID_ARG_SIZE);
                }
                // "If the argument is a buffer object, the arg_value pointer can be NULL or point
                // to a NULL value in which case a NULL value will be used as the value".
                // SAFETY: `arg_size` = sizeof(cl_mem) readable bytes when not null.
                let mem = if arg_value.is_null() {
                    std::ptr::null_mut()
                } else {
                    unsafe { *(arg_value as *const cl_mem) }
                };
                if mem.is_null() {
                    return k.kernel.set_arg_buffer(arg_index, None).map_err(code);
                }
                // "CL_INVALID_MEM_OBJECT for an argument declared to be a memory object when the
                // specified arg_value is not a valid memory object".
                // ... or a pipe given for a buffer ("the memory object type does not match").
                let m = Obj::<MemObj>::get(mem)?;
                // An image or a pipe is not a buffer.
                if !Arc::ptr_eq(&m.context, &k.program.context)
                    || m.image.is_some()
                    || m.pipe.is_some()
                {
                    return Err(CL_INVALID_MEM_OBJECT);
                }
                k.kernel
                    .set_arg_buffer(arg_index, Some(&m.buffer))
                    .map_err(code)
            }
            ArgKind::Local => {
                // "CL_INVALID_ARG_VALUE if the argument is declared with the local qualifier and
                // arg_value is not NULL"; "CL_INVALID_ARG_SIZE if arg_size is zero and the
                // argument is declared with the local qualifier".
                if !arg_value.is_null() {
                    return Err(CL_INVALID_ARG_VALUE);
                }
                if arg_size == 0 {
                    return Err(CL_INVALID_ARG_SIZE);
                }
                k.kernel.set_arg_local(arg_index, arg_size).map_err(code)
            }
            ArgKind::Value { size } => {
                // "CL_INVALID_ARG_VALUE if arg_value specified is not a valid value" (NULL for an
                // argument passed by value); "CL_INVALID_ARG_SIZE if arg_size does not match the
                // size of the data type for an argument that is not a memory object".
                if arg_value.is_null() {
                    return Err(CL_INVALID_ARG_VALUE);
                }
                if arg_size != size {
                    return Err(CL_INVALID_ARG_SIZE);
                }
                // SAFETY: `arg_size` readable bytes.
                let bytes = unsafe { std::slice::from_raw_parts(arg_value as *const u8, arg_size) };
                k.kernel.set_arg_bytes(arg_index, bytes).map_err(code)
            }
            ArgKind::Sampler => {
                // "CL_INVALID_ARG_SIZE if ... the argument is a sampler and arg_size !=
                // sizeof(cl_sampler)"; "CL_INVALID_SAMPLER for an argument declared to be of type
                // sampler_t when the specified arg_value is not a valid sampler object".
                if arg_size != std::mem::size_of::<cl_sampler>() {
                    return Err(CL_INVALID_ARG_SIZE);
                }
                if arg_value.is_null() {
                    return Err(CL_INVALID_SAMPLER);
                }
                // SAFETY: `arg_size` = sizeof(cl_sampler) readable bytes.
                let handle = unsafe { *(arg_value as *const cl_sampler) };
                let s = Obj::<crate::sampler::SamplerObj>::get(handle)?;
                k.kernel
                    .set_arg_sampler(arg_index, &s.sampler)
                    .map_err(code)
            }
            ArgKind::Image => {
                // "CL_INVALID_ARG_SIZE if ... the argument is a memory object and arg_size !=
                // sizeof(cl_mem)"; "CL_INVALID_MEM_OBJECT for an argument declared to be a memory
                // object when the specified arg_value is not a valid memory object" (an image
                // argument needs an image).
                if arg_size != std::mem::size_of::<cl_mem>() {
                    return Err(CL_INVALID_ARG_SIZE);
                }
                if arg_value.is_null() {
                    return Err(CL_INVALID_ARG_VALUE);
                }
                // SAFETY: `arg_size` = sizeof(cl_mem) readable bytes.
                let mem = unsafe { *(arg_value as *const cl_mem) };
                let m = Obj::<MemObj>::get(mem)?;
                let image = match &m.image {
                    Some(image) if Arc::ptr_eq(&m.context, &k.program.context) => image,
                    _ => return Err(CL_INVALID_MEM_OBJECT),
                };
                k.kernel.set_arg_image(arg_index, image).map_err(code)
            }
            ArgKind::Pipe { .. } => {
                // "CL_INVALID_ARG_SIZE if ... the argument is a memory object and arg_size !=
                // sizeof(cl_mem)".
                if arg_size != std::mem::size_of::<cl_mem>() {
                    return Err(CL_INVALID_ARG_SIZE);
                }
                // "CL_INVALID_ARG_VALUE if arg_value specified is not a valid value" (a pipe
                // argument has no NULL value).
                if arg_value.is_null() {
                    return Err(CL_INVALID_ARG_VALUE);
                }
                // SAFETY: `arg_size` = sizeof(cl_mem) readable bytes.
                let mem = unsafe { *(arg_value as *const cl_mem) };
                // "CL_INVALID_MEM_OBJECT for an argument declared to be a memory object when the
                // specified arg_value is not a valid memory object or the memory object type
                // does not match the argument's".
                let m = Obj::<MemObj>::get(mem)?;
                let pipe = m.pipe.as_ref().ok_or(CL_INVALID_MEM_OBJECT)?;
                if !Arc::ptr_eq(&m.context, &k.program.context) {
                    return Err(CL_INVALID_MEM_OBJECT);
                }
                k.kernel.set_arg_pipe(arg_index, pipe).map_err(code)
            }
        }
    })
}

/// `CL_KERNEL_ATTRIBUTES`: the attributes as written in the source.
fn attributes(k: &runtime::Kernel) -> String {
    let mut out = Vec::new();
    if let Some([x, y, z]) = k.reqd_work_group_size() {
        out.push(format!("reqd_work_group_size({x},{y},{z})"));
    }
    if let Some([x, y, z]) = k.work_group_size_hint() {
        out.push(format!("work_group_size_hint({x},{y},{z})"));
    }
    out.join(" ")
}

/// `clGetKernelInfo` (API 5.9.3).
pub unsafe extern "C" fn clGetKernelInfo(
    kernel: cl_kernel,
    param_name: cl_kernel_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    guard(|| {
        let k = Obj::<KernelObj>::get(kernel)?;
        let value = match param_name {
            CL_KERNEL_FUNCTION_NAME => Ok(InfoValue::str(k.kernel.name())),
            CL_KERNEL_NUM_ARGS => Ok(InfoValue::u32(k.kernel.num_args())),
            CL_KERNEL_REFERENCE_COUNT => Ok(InfoValue::u32(k.ref_count())),
            CL_KERNEL_CONTEXT => Ok(InfoValue::ptr(Obj::handle(&k.program.context))),
            CL_KERNEL_PROGRAM => Ok(InfoValue::ptr(Obj::handle(&k.program))),
            CL_KERNEL_ATTRIBUTES => Ok(InfoValue::str(&attributes(&k.kernel))),
            _ => Err(CL_INVALID_VALUE),
        };
        // SAFETY: the caller's buffers.
        unsafe { answer(value, param_value_size, param_value, param_value_size_ret) }
    })
}

/// `clGetKernelArgInfo` (API 5.9.3).
pub unsafe extern "C" fn clGetKernelArgInfo(
    kernel: cl_kernel,
    arg_index: cl_uint,
    param_name: cl_kernel_arg_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    guard(|| {
        let k = Obj::<KernelObj>::get(kernel)?;
        // "CL_INVALID_ARG_INDEX if arg_index is not a valid argument index."
        let info = k.kernel.arg_info(arg_index).map_err(code)?;
        // "CL_KERNEL_ARG_INFO_NOT_AVAILABLE if the argument information is not available for
        // kernel": "Kernel argument information is only available if the program object
        // associated with kernel ... is created with clCreateProgramWithSource and the program
        // executable is built with the -cl-kernel-arg-info option".
        let requested = k
            .program
            .program
            .build_options()
            .split_whitespace()
            .any(|o| o == "-cl-kernel-arg-info");
        if k.program.origin != Origin::Source || !requested {
            return Err(CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
        }
        let value = match param_name {
            CL_KERNEL_ARG_ADDRESS_QUALIFIER => Ok(InfoValue::u32(match info.kind {
                // Image and pipe objects are in global memory (clang's kernel_arg_addr_space).
                ArgKind::Global | ArgKind::Image | ArgKind::Pipe { .. } => {
                    CL_KERNEL_ARG_ADDRESS_GLOBAL
                }
                ArgKind::Constant => CL_KERNEL_ARG_ADDRESS_CONSTANT,
                ArgKind::Local => CL_KERNEL_ARG_ADDRESS_LOCAL,
                ArgKind::Value { .. } | ArgKind::Sampler => CL_KERNEL_ARG_ADDRESS_PRIVATE,
            })),
            // Only images and pipes have access qualifiers.
            CL_KERNEL_ARG_ACCESS_QUALIFIER => Ok(InfoValue::u32(match info.kind {
                ArgKind::Pipe { write_only: true } => CL_KERNEL_ARG_ACCESS_WRITE_ONLY,
                ArgKind::Pipe { write_only: false } => CL_KERNEL_ARG_ACCESS_READ_ONLY,
                _ => match k.kernel.image_access(arg_index) {
                    Some(runtime::ImageArgAccess::ReadOnly) => CL_KERNEL_ARG_ACCESS_READ_ONLY,
                    Some(runtime::ImageArgAccess::WriteOnly) => CL_KERNEL_ARG_ACCESS_WRITE_ONLY,
                    Some(runtime::ImageArgAccess::ReadWrite) => CL_KERNEL_ARG_ACCESS_READ_WRITE,
                    None => CL_KERNEL_ARG_ACCESS_NONE,
                },
            })),
            CL_KERNEL_ARG_TYPE_NAME => Ok(InfoValue::str(&info.type_name)),
            // FIXME(issue 7): const/restrict/volatile are not carried to the kernel IR yet.
            CL_KERNEL_ARG_TYPE_QUALIFIER => Ok(InfoValue::u64(match info.kind {
                ArgKind::Constant => CL_KERNEL_ARG_TYPE_CONST,
                ArgKind::Pipe { .. } => CL_KERNEL_ARG_TYPE_PIPE,
                _ => CL_KERNEL_ARG_TYPE_NONE as u64,
            })),
            CL_KERNEL_ARG_NAME => Ok(InfoValue::str(&info.name)),
            _ => Err(CL_INVALID_VALUE),
        };
        // SAFETY: the caller's buffers.
        unsafe { answer(value, param_value_size, param_value, param_value_size_ret) }
    })
}

/// The largest work-group a kernel can run with (`CL_KERNEL_WORK_GROUP_SIZE`).
pub(crate) fn kernel_work_group_size(k: &KernelObj) -> usize {
    match k.kernel.reqd_work_group_size() {
        Some([x, y, z]) => (x as usize) * (y as usize) * (z as usize),
        None => k.program.context.context.device().max_work_group_size,
    }
}

/// `clGetKernelWorkGroupInfo` (API 5.9.3).
pub unsafe extern "C" fn clGetKernelWorkGroupInfo(
    kernel: cl_kernel,
    device: cl_device_id,
    param_name: cl_kernel_work_group_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    guard(|| {
        let k = Obj::<KernelObj>::get(kernel)?;
        // "CL_INVALID_DEVICE if device is not in the list of devices associated with kernel or
        // if device is NULL but there is more than one device associated with kernel."
        if device.is_null() {
            if k.program.context.devices.len() != 1 {
                return Err(CL_INVALID_DEVICE);
            }
        } else {
            let d = Obj::<DeviceObj>::get(device)?;
            if !k.program.context.has_device(&d) {
                return Err(CL_INVALID_DEVICE);
            }
        }
        let value = match param_name {
            // "CL_INVALID_VALUE if param_name is CL_KERNEL_GLOBAL_WORK_SIZE and device is not a
            // custom device and kernel is not a built-in kernel."
            CL_KERNEL_GLOBAL_WORK_SIZE => Err(CL_INVALID_VALUE),
            CL_KERNEL_WORK_GROUP_SIZE => Ok(InfoValue::usize(kernel_work_group_size(&k))),
            CL_KERNEL_COMPILE_WORK_GROUP_SIZE => {
                let reqd = k.kernel.reqd_work_group_size().unwrap_or([0; 3]);
                Ok(InfoValue::pod(&reqd.map(|v| v as usize)))
            }
            // "the amount of local memory ... used by a kernel. This includes local memory that
            // may be needed by an implementation to execute the kernel, variables declared
            // inside the kernel with the __local address qualifier and local memory to be
            // allocated for arguments to the kernel declared as pointers with the __local
            // address qualifier and whose size is specified with clSetKernelArg."
            CL_KERNEL_LOCAL_MEM_SIZE => Ok(InfoValue::u64(
                k.kernel.static_local_mem_size() + k.kernel.local_arg_bytes(),
            )),
            CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE => Ok(InfoValue::usize(1)),
            // Private memory lives on the host stack and heap, not in a fixed per-item budget.
            CL_KERNEL_PRIVATE_MEM_SIZE => Ok(InfoValue::u64(0)),
            _ => Err(CL_INVALID_VALUE),
        };
        // SAFETY: the caller's buffers.
        unsafe { answer(value, param_value_size, param_value, param_value_size_ret) }
    })
}

/// Reads `work_dim` `size_t` values.
///
/// # Safety
/// `p` must be null or hold `work_dim` values.
unsafe fn sizes(p: *const usize, work_dim: usize) -> Option<Vec<usize>> {
    // SAFETY: the caller's promise.
    (!p.is_null()).then(|| unsafe { std::slice::from_raw_parts(p, work_dim) }.to_vec())
}

fn enqueue_kernel(
    queue: cl_command_queue,
    kernel: cl_kernel,
    work_dim: cl_uint,
    global_work_offset: *const usize,
    global_work_size: *const usize,
    local_work_size: *const usize,
    num_events: cl_uint,
    events: *const cl_event,
    event: *mut cl_event,
    command_type: cl_uint,
) -> ClResult<()> {
    // SAFETY: the caller's wait list.
    let (q, wait_for) = unsafe { begin(queue, num_events, events) }?;
    let k = Obj::<KernelObj>::get(kernel)?;
    // "CL_INVALID_CONTEXT if the context associated with command_queue and kernel are not the same."
    if !Arc::ptr_eq(&q.context, &k.program.context) {
        return Err(CL_INVALID_CONTEXT);
    }
    // "CL_INVALID_WORK_DIMENSION if work_dim is not valid for the device".
    if !(1..=3).contains(&work_dim) {
        return Err(CL_INVALID_WORK_DIMENSION);
    }
    let dims = work_dim as usize;
    // SAFETY: `work_dim` values each, when not null.
    let (offset, global, local) = unsafe {
        (
            sizes(global_work_offset, dims),
            sizes(global_work_size, dims),
            sizes(local_work_size, dims),
        )
    };
    let device = q.context.context.device();
    if let Some(local) = &local {
        // "CL_INVALID_WORK_ITEM_SIZE if the number of work-items specified in any dimension of
        // local_work_size is not valid for the device (is greater than the corresponding value
        // returned for CL_DEVICE_MAX_WORK_ITEM_SIZES)".
        if local
            .iter()
            .zip(device.max_work_item_sizes)
            .any(|(&l, max)| l > max)
        {
            return Err(CL_INVALID_WORK_ITEM_SIZE);
        }
        // "CL_INVALID_WORK_GROUP_SIZE if local_work_size is not NULL and if the total number of
        // work-items in the work-group is greater than ... CL_KERNEL_WORK_GROUP_SIZE" (or zero).
        let total = local.iter().try_fold(1usize, |acc, &l| acc.checked_mul(l));
        if total.map_or(true, |t| t == 0 || t > kernel_work_group_size(&k)) {
            return Err(CL_INVALID_WORK_GROUP_SIZE);
        }
    }
    // "If global_work_size is NULL or the value in any passed dimension is zero, then the kernel
    // command will trivially succeed after its event dependencies are satisfied" (OpenCL 2.1+);
    // the arguments must still be set.
    let trivial = global.as_ref().map_or(true, |g| g.contains(&0));
    let global = global.unwrap_or_else(|| vec![0; dims]);
    if let Some(offset) = &offset {
        // "CL_INVALID_GLOBAL_OFFSET if the value specified in global_work_size plus the
        // corresponding value in global_work_offset for any dimensions is greater than the
        // maximum value representable by size_t".
        if offset
            .iter()
            .zip(&global)
            .any(|(&o, &g)| o.checked_add(g).is_none())
        {
            return Err(CL_INVALID_GLOBAL_OFFSET);
        }
    }
    let range = runtime::NdRange::new(&global, local.as_deref(), offset.as_deref());
    if trivial {
        // "CL_INVALID_KERNEL_ARGS if any kernel arguments for kernel have not been set".
        if (0..k.kernel.num_args()).any(|i| !k.kernel.is_arg_set(i)) {
            return Err(CL_INVALID_KERNEL_ARGS);
        }
        let command = Command {
            queue: &q,
            command_type,
            wait_for,
            blocking: false,
            event_out: event,
            kind: runtime::commands::CommandKind::Command,
        };
        return command.submit(Box::new(|| Ok(())));
    }
    // The checks of the runtime: arguments set, work-group size (uniformity, reqd size, limits).
    q.runner.check_nd_range(&k.kernel, &range).map_err(code)?;
    // "The argument values ... are captured when the command is enqueued."
    let snapshot = k.kernel.duplicate();
    let runner = q.runner.clone();
    let context = q.context.clone();
    let command = Command {
        queue: &q,
        command_type,
        wait_for,
        blocking: false,
        event_out: event,
        kind: runtime::commands::CommandKind::Command,
    };
    command.submit_kernel(Box::new(move || {
        // A failure while the kernel runs (an invalid access, a data race in checked mode, …)
        // ends the command with its error code and goes to the context's error callback.
        // API 5.14: the event's END excludes the kernels it enqueued on the device, its
        // COMPLETE includes them.
        let run = runner.nd_range(&snapshot, &range);
        run.map(|event| {
            let times = event.profiling();
            times.complete.saturating_sub(times.end)
        })
        .map_err(|e| {
            context.report(&format!("oxcl: {e}"));
            e
        })
    }))
}

/// `clEnqueueNDRangeKernel` (API 5.10).
pub unsafe extern "C" fn clEnqueueNDRangeKernel(
    queue: cl_command_queue,
    kernel: cl_kernel,
    work_dim: cl_uint,
    global_work_offset: *const usize,
    global_work_size: *const usize,
    local_work_size: *const usize,
    num_events: cl_uint,
    events: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    guard(|| {
        enqueue_kernel(
            queue,
            kernel,
            work_dim,
            global_work_offset,
            global_work_size,
            local_work_size,
            num_events,
            events,
            event,
            CL_COMMAND_NDRANGE_KERNEL,
        )
    })
}

/// `clEnqueueTask` (API 5.10, deprecated by 2.0): a range of one work-item.
pub unsafe extern "C" fn clEnqueueTask(
    queue: cl_command_queue,
    kernel: cl_kernel,
    num_events: cl_uint,
    events: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    let one = [1usize];
    guard(|| {
        enqueue_kernel(
            queue,
            kernel,
            1,
            std::ptr::null(),
            one.as_ptr(),
            one.as_ptr(),
            num_events,
            events,
            event,
            CL_COMMAND_TASK,
        )
    })
}
