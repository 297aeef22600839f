//! Buffer objects (API 5.2, 5.5): creation with every flag, sub-buffers, queries, destructor
//! callbacks, and the buffer commands (read, write, copy, fill, their rectangular forms, map,
//! unmap, migrate).

use std::ffi::c_void;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

use runtime::RectLayout;

use crate::consts::*;
use crate::context::{ContextObj, DestructorCallbacks};
use crate::entry::{code, guard, guard_create, ClResult, HostPtr};
use crate::event::EventObj;
use crate::handle::{ClObject, Kind, Obj};
use crate::info::{answer, InfoValue};
use crate::queue::{begin, Command, QueueObj};
use crate::types::*;

pub struct MemObj {
    pub context: Arc<Obj<ContextObj>>,
    pub buffer: runtime::Buffer,
    pub flags: cl_mem_flags,
    /// `CL_MEM_HOST_PTR`: the `host_ptr` of a `CL_MEM_USE_HOST_PTR` buffer (plus the origin for
    /// its sub-buffers), else null.
    pub host_ptr: HostPtr,
    /// `CL_MEM_ASSOCIATED_MEMOBJECT` and `CL_MEM_OFFSET` of a sub-buffer.
    pub parent: Option<(Arc<Obj<MemObj>>, usize)>,
    pub properties: Vec<cl_mem_properties>,
    /// The image of an image object (`buffer` is then its memory); `None` for buffers.
    pub image: Option<runtime::Image>,
    pub map_count: AtomicU32,
    /// Addresses handed out by clEnqueueMapBuffer and not unmapped yet.
    pub mappings: Mutex<Vec<usize>>,
    /// The pipe, when the object is one (`clCreatePipe`): `buffer` is its memory.
    pub pipe: Option<runtime::Pipe>,
    /// Last, so the callbacks run after everything else of the object is gone.
    pub destructors: DestructorCallbacks,
}

impl ClObject for MemObj {
    const KIND: Kind = Kind::Mem;
    const INVALID: i32 = CL_INVALID_MEM_OBJECT;
}

impl MemObj {
    /// The outermost buffer and the offset in it, to tell when two ranges share memory.
    fn root(&self) -> (usize, usize) {
        match &self.parent {
            Some((parent, offset)) => {
                let (root, base) = parent.root();
                (root, base + offset)
            }
            None => (self as *const MemObj as usize, 0),
        }
    }
}

pub(crate) const ACCESS_FLAGS: u64 = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
pub(crate) const HOST_ACCESS_FLAGS: u64 =
    CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
pub(crate) const HOST_PTR_FLAGS: u64 =
    CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;
const BUFFER_FLAGS: u64 =
    ACCESS_FLAGS | HOST_ACCESS_FLAGS | HOST_PTR_FLAGS | CL_MEM_KERNEL_READ_AND_WRITE;

/// API 5.2.1 "CL_INVALID_VALUE if values specified in flags are not valid as defined in the
/// Memory Flags table": unknown bits, or more than one of a mutually exclusive group.
pub(crate) fn check_flags(flags: cl_mem_flags) -> ClResult<()> {
    let exclusive = |group: u64| (flags & group).count_ones() <= 1;
    if flags & !BUFFER_FLAGS != 0
        || !exclusive(ACCESS_FLAGS)
        || !exclusive(HOST_ACCESS_FLAGS)
        || (flags & CL_MEM_USE_HOST_PTR != 0
            && flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR) != 0)
    {
        return Err(CL_INVALID_VALUE);
    }
    Ok(())
}

pub(crate) fn runtime_flags(flags: cl_mem_flags) -> runtime::MemFlags {
    runtime::MemFlags {
        read_only: flags & CL_MEM_READ_ONLY != 0,
        write_only: flags & CL_MEM_WRITE_ONLY != 0,
    }
}

fn create_buffer(
    context: cl_context,
    properties: Vec<cl_mem_properties>,
    flags: cl_mem_flags,
    size: usize,
    host_ptr: *mut c_void,
) -> ClResult<*mut c_void> {
    // "CL_INVALID_CONTEXT if context is not a valid context."
    let context = Obj::<ContextObj>::get(context)?;
    check_flags(flags)?;
    // "CL_INVALID_BUFFER_SIZE if size is 0, or if size is greater than
    // CL_DEVICE_MAX_MEM_ALLOC_SIZE for all devices in context."
    if size == 0 || size as u64 > context.context.device().max_mem_alloc_size {
        return Err(CL_INVALID_BUFFER_SIZE);
    }
    // "CL_INVALID_HOST_PTR if host_ptr is NULL and CL_MEM_USE_HOST_PTR or CL_MEM_COPY_HOST_PTR
    // are set in flags or if host_ptr is not NULL but CL_MEM_COPY_HOST_PTR or
    // CL_MEM_USE_HOST_PTR are not set in flags."
    let wants_ptr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR) != 0;
    if wants_ptr == host_ptr.is_null() {
        return Err(CL_INVALID_HOST_PTR);
    }
    // "CL_INVALID_BUFFER_SIZE ... if CL_MEM_USE_HOST_PTR or CL_MEM_COPY_HOST_PTR is set in
    // flags, and host_ptr is a pointer returned by clSVMAlloc, and size is greater than the size
    // passed to clSVMAlloc" (checked for any pointer into an SVM allocation).
    if wants_ptr {
        if let Some(svm) = context.context.svm_find(host_ptr as *const u8) {
            if !svm.contains(host_ptr as usize, size) {
                return Err(CL_INVALID_BUFFER_SIZE);
            }
        }
    }
    let rt_flags = runtime_flags(flags);
    let buffer = if flags & CL_MEM_USE_HOST_PTR != 0 {
        // SAFETY: the application keeps `host_ptr` valid for `size` bytes while the buffer
        // lives (API 5.2.1, CL_MEM_USE_HOST_PTR).
        unsafe {
            runtime::Buffer::use_host_ptr(&context.context, rt_flags, host_ptr as *mut u8, size)
        }
    } else if flags & CL_MEM_COPY_HOST_PTR != 0 {
        // SAFETY: `host_ptr` points to `size` readable bytes (the API's contract).
        let data = unsafe { std::slice::from_raw_parts(host_ptr as *const u8, size) };
        runtime::Buffer::from_slice(&context.context, rt_flags, data)
    } else {
        runtime::Buffer::new(&context.context, rt_flags, size)
    }
    .map_err(|e| match e {
        runtime::Error::OutOfHostMemory(_) => CL_MEM_OBJECT_ALLOCATION_FAILURE,
        other => code(other),
    })?;
    let host_ptr = if flags & CL_MEM_USE_HOST_PTR != 0 {
        host_ptr
    } else {
        std::ptr::null_mut()
    };
    Ok(new_mem(
        context,
        buffer,
        flags,
        HostPtr(host_ptr),
        None,
        properties,
        None,
    ))
}

pub(crate) fn new_mem(
    context: Arc<Obj<ContextObj>>,
    buffer: runtime::Buffer,
    flags: cl_mem_flags,
    host_ptr: HostPtr,
    parent: Option<(Arc<Obj<MemObj>>, usize)>,
    properties: Vec<cl_mem_properties>,
    image: Option<runtime::Image>,
) -> *mut c_void {
    new_mem_object(
        context, buffer, flags, host_ptr, parent, properties, image, None,
    )
}

/// A new memory object's handle (a buffer; an image when `image` is given, a pipe when `pipe`
/// is).
#[allow(clippy::too_many_arguments)]
pub(crate) fn new_mem_object(
    context: Arc<Obj<ContextObj>>,
    buffer: runtime::Buffer,
    flags: cl_mem_flags,
    host_ptr: HostPtr,
    parent: Option<(Arc<Obj<MemObj>>, usize)>,
    properties: Vec<cl_mem_properties>,
    image: Option<runtime::Image>,
    pipe: Option<runtime::Pipe>,
) -> *mut c_void {
    let obj = Obj::create(MemObj {
        context,
        buffer,
        flags,
        host_ptr,
        parent,
        properties,
        image,
        map_count: AtomicU32::new(0),
        mappings: Mutex::new(Vec::new()),
        pipe,
        destructors: DestructorCallbacks::default(),
    });
    obj.destructors
        .handle
        .store(Obj::handle(&obj), Ordering::SeqCst);
    Obj::into_handle(obj)
}

/// `clCreateBuffer` (API 5.2.1).
pub unsafe extern "C" fn clCreateBuffer(
    context: cl_context,
    flags: cl_mem_flags,
    size: usize,
    host_ptr: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    // "If the value specified for flags is 0, the default is used which is CL_MEM_READ_WRITE."
    guard_create(errcode_ret, || {
        create_buffer(context, Vec::new(), flags, size, host_ptr)
    })
}

/// `clCreateBufferWithProperties` (API 5.2.1): OpenCL 3.0 defines no buffer properties.
pub unsafe extern "C" fn clCreateBufferWithProperties(
    context: cl_context,
    properties: *const cl_mem_properties,
    flags: cl_mem_flags,
    size: usize,
    host_ptr: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    guard_create(errcode_ret, || {
        Obj::<ContextObj>::get(context)?;
        let mut list = Vec::new();
        if !properties.is_null() {
            // SAFETY: a 0-terminated list.
            if unsafe { *properties } != 0 {
                // "CL_INVALID_PROPERTY if a property name in properties is not a supported
                // property name".
                return Err(CL_INVALID_PROPERTY);
            }
            list.push(0);
        }
        create_buffer(context, list, flags, size, host_ptr)
    })
}

/// `clCreateSubBuffer` (API 5.2.1).
pub unsafe extern "C" fn clCreateSubBuffer(
    buffer: cl_mem,
    flags: cl_mem_flags,
    create_type: cl_buffer_create_type,
    create_info: *const c_void,
    errcode_ret: *mut cl_int,
) -> cl_mem {
    guard_create(errcode_ret, || {
        // "CL_INVALID_MEM_OBJECT if buffer is not a valid buffer object or is a sub-buffer object."
        let parent = Obj::<MemObj>::get(buffer)?;
        if parent.parent.is_some() || parent.image.is_some() {
            return Err(CL_INVALID_MEM_OBJECT);
        }
        check_flags(flags)?;
        let p = parent.flags;
        // "CL_INVALID_VALUE if buffer was created with CL_MEM_WRITE_ONLY and flags specifies
        // CL_MEM_READ_WRITE or CL_MEM_READ_ONLY, or if buffer was created with CL_MEM_READ_ONLY
        // and flags specifies CL_MEM_READ_WRITE or CL_MEM_WRITE_ONLY, or if flags specifies
        // CL_MEM_USE_HOST_PTR, CL_MEM_ALLOC_HOST_PTR or CL_MEM_COPY_HOST_PTR."
        if (p & CL_MEM_WRITE_ONLY != 0 && flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY) != 0)
            || (p & CL_MEM_READ_ONLY != 0 && flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY) != 0)
            || flags & HOST_PTR_FLAGS != 0
        {
            return Err(CL_INVALID_VALUE);
        }
        // "CL_INVALID_VALUE if buffer was created with CL_MEM_HOST_WRITE_ONLY and flags specify
        // CL_MEM_HOST_READ_ONLY, or if buffer was created with CL_MEM_HOST_READ_ONLY and flags
        // specify CL_MEM_HOST_WRITE_ONLY, or if buffer was created with CL_MEM_HOST_NO_ACCESS
        // and flags specify CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_WRITE_ONLY."
        if (p & CL_MEM_HOST_WRITE_ONLY != 0 && flags & CL_MEM_HOST_READ_ONLY != 0)
            || (p & CL_MEM_HOST_READ_ONLY != 0 && flags & CL_MEM_HOST_WRITE_ONLY != 0)
            || (p & CL_MEM_HOST_NO_ACCESS != 0
                && flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY) != 0)
        {
            return Err(CL_INVALID_VALUE);
        }
        // "CL_INVALID_VALUE if the value specified in buffer_create_type is not valid" and
        // "if value(s) specified in buffer_create_info ... is NULL".
        if create_type != CL_BUFFER_CREATE_TYPE_REGION || create_info.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        // SAFETY: a cl_buffer_region for CL_BUFFER_CREATE_TYPE_REGION.
        let region = unsafe { *(create_info as *const cl_buffer_region) };
        // "CL_INVALID_BUFFER_SIZE if the size field of the cl_buffer_region structure passed in
        // buffer_create_info is 0."
        if region.size == 0 {
            return Err(CL_INVALID_BUFFER_SIZE);
        }
        // "CL_INVALID_VALUE if the region specified by the cl_buffer_region structure passed in
        // buffer_create_info is out of bounds in buffer."
        if region
            .origin
            .checked_add(region.size)
            .map_or(true, |end| end > parent.buffer.size())
        {
            return Err(CL_INVALID_VALUE);
        }
        // "CL_MISALIGNED_SUB_BUFFER_OFFSET if there are no devices in context associated with
        // buffer for which the origin field of the cl_buffer_region structure passed in
        // buffer_create_info is aligned to the CL_DEVICE_MEM_BASE_ADDR_ALIGN value."
        if region.origin % 128 != 0 {
            return Err(CL_MISALIGNED_SUB_BUFFER_OFFSET);
        }
        // Flags not given are inherited (API 5.2.1 "Memory Flags" for sub-buffers).
        let mut sub_flags = flags;
        if flags & ACCESS_FLAGS == 0 {
            sub_flags |= p & ACCESS_FLAGS;
        }
        if flags & HOST_ACCESS_FLAGS == 0 {
            sub_flags |= p & HOST_ACCESS_FLAGS;
        }
        sub_flags |= p & HOST_PTR_FLAGS;
        let sub = parent
            .buffer
            .sub_buffer(runtime_flags(sub_flags), region.origin, region.size)
            .map_err(code)?;
        let host_ptr = if parent.host_ptr.0.is_null() {
            HostPtr(std::ptr::null_mut())
        } else {
            // SAFETY: within the application's host allocation of the parent's size.
            HostPtr(unsafe { (parent.host_ptr.0 as *mut u8).add(region.origin) } as *mut c_void)
        };
        Ok(new_mem(
            parent.context.clone(),
            sub,
            sub_flags,
            host_ptr,
            Some((parent.clone(), region.origin)),
            Vec::new(),
            None,
        ))
    })
}

pub unsafe extern "C" fn clRetainMemObject(memobj: cl_mem) -> cl_int {
    // "CL_INVALID_MEM_OBJECT if memobj is not a valid memory object."
    Obj::<MemObj>::retain(memobj)
}

pub unsafe extern "C" fn clReleaseMemObject(memobj: cl_mem) -> cl_int {
    Obj::<MemObj>::release(memobj)
}

/// `clSetMemObjectDestructorCallback` (API 5.5.1).
pub unsafe extern "C" fn clSetMemObjectDestructorCallback(
    memobj: cl_mem,
    pfn_notify: ObjectCallback,
    user_data: *mut c_void,
) -> cl_int {
    guard(|| {
        let obj = Obj::<MemObj>::get(memobj)?;
        // "CL_INVALID_VALUE if pfn_notify is NULL."
        let callback = pfn_notify.ok_or(CL_INVALID_VALUE)?;
        obj.destructors.push(callback, user_data);
        Ok(())
    })
}

/// `clGetMemObjectInfo` (API 5.5.3).
pub unsafe extern "C" fn clGetMemObjectInfo(
    memobj: cl_mem,
    param_name: cl_mem_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    guard(|| {
        let m = Obj::<MemObj>::get(memobj)?;
        let value = match param_name {
            CL_MEM_TYPE => Ok(InfoValue::u32(if m.pipe.is_some() {
                CL_MEM_OBJECT_PIPE
            } else {
                m.image.as_ref().map_or(CL_MEM_OBJECT_BUFFER, |i| {
                    crate::image::mem_object_type(i.image_type())
                })
            })),
            CL_MEM_FLAGS => Ok(InfoValue::u64(m.flags)),
            CL_MEM_SIZE => Ok(InfoValue::usize(
                m.image.as_ref().map_or(m.buffer.size(), |i| i.size()),
            )),
            CL_MEM_HOST_PTR => Ok(InfoValue::ptr(m.host_ptr.0)),
            CL_MEM_MAP_COUNT => Ok(InfoValue::u32(m.map_count.load(Ordering::SeqCst))),
            CL_MEM_REFERENCE_COUNT => Ok(InfoValue::u32(m.ref_count())),
            CL_MEM_CONTEXT => Ok(InfoValue::ptr(Obj::handle(&m.context))),
            CL_MEM_ASSOCIATED_MEMOBJECT => Ok(InfoValue::ptr(
                m.parent
                    .as_ref()
                    .map_or(std::ptr::null_mut(), |(p, _)| Obj::handle(p)),
            )),
            CL_MEM_OFFSET => Ok(InfoValue::usize(m.parent.as_ref().map_or(0, |(_, o)| *o))),
            // A CL_MEM_USE_HOST_PTR buffer (or a sub-buffer of one) whose memory lies in a
            // live SVM allocation of the context.
            // A buffer (or sub-buffer of one) created with CL_MEM_USE_HOST_PTR on SVM memory
            // (runtime::Buffer::svm), even after that memory was freed with clSVMFree.
            CL_MEM_USES_SVM_POINTER => Ok(InfoValue::bool(
                m.flags & CL_MEM_USE_HOST_PTR != 0 && m.buffer.svm().is_some(),
            )),
            CL_MEM_PROPERTIES => Ok(InfoValue::pod(&m.properties)),
            // "CL_INVALID_VALUE if param_name is not valid".
            _ => Err(CL_INVALID_VALUE),
        };
        // SAFETY: the caller's buffers.
        unsafe { answer(value, param_value_size, param_value, param_value_size_ret) }
    })
}

/// A buffer argument of a command: valid, of the queue's context.
pub(crate) fn command_buffer(q: &Arc<Obj<QueueObj>>, mem: cl_mem) -> ClResult<Arc<Obj<MemObj>>> {
    // "CL_INVALID_MEM_OBJECT if buffer is not a valid buffer object."
    let m = command_mem(q, mem)?;
    if m.image.is_some() {
        return Err(CL_INVALID_MEM_OBJECT);
    }
    Ok(m)
}

/// A memory object (buffer or image) of a command: valid, of the queue's context.
pub(crate) fn command_mem(q: &Arc<Obj<QueueObj>>, mem: cl_mem) -> ClResult<Arc<Obj<MemObj>>> {
    let m = Obj::<MemObj>::get(mem)?;
    if m.pipe.is_some() {
        return Err(CL_INVALID_MEM_OBJECT);
    }
    // "CL_INVALID_CONTEXT if the context associated with command_queue and buffer are not the same."
    if !Arc::ptr_eq(&m.context, &q.context) {
        return Err(CL_INVALID_CONTEXT);
    }
    Ok(m)
}

fn in_bounds(m: &MemObj, offset: usize, size: usize) -> bool {
    offset
        .checked_add(size)
        .is_some_and(|end| end <= m.buffer.size())
}

/// "CL_INVALID_OPERATION if clEnqueueReadBuffer is called on buffer which has been created with
/// CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS" (and the write form).
pub(crate) fn check_host_read(m: &MemObj) -> ClResult<()> {
    if m.flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS) != 0 {
        return Err(CL_INVALID_OPERATION);
    }
    Ok(())
}

pub(crate) fn check_host_write(m: &MemObj) -> ClResult<()> {
    if m.flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS) != 0 {
        return Err(CL_INVALID_OPERATION);
    }
    Ok(())
}

/// `clEnqueueReadBuffer` (API 5.2.2).
pub unsafe extern "C" fn clEnqueueReadBuffer(
    queue: cl_command_queue,
    buffer: cl_mem,
    blocking_read: cl_bool,
    offset: usize,
    size: usize,
    ptr: *mut c_void,
    num_events: cl_uint,
    events: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    guard(|| {
        // SAFETY: the caller's wait list.
        let (q, wait_for) = unsafe { begin(queue, num_events, events) }?;
        let m = command_buffer(&q, buffer)?;
        // "CL_INVALID_VALUE if the region being read or written specified by offset and size is
        // out of bounds" and "if ptr is NULL".
        if !in_bounds(&m, offset, size) || ptr.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        check_host_read(&m)?;
        let host = HostPtr(ptr);
        let command = Command {
            queue: &q,
            command_type: CL_COMMAND_READ_BUFFER,
            wait_for,
            blocking: blocking_read != 0,
            event_out: event,
            kind: runtime::commands::CommandKind::Command,
        };
        command.submit(Box::new(move || {
            let host = host;
            // SAFETY: the application gives `size` writable bytes at `ptr` until the read completes.
            let out = unsafe { std::slice::from_raw_parts_mut(host.0 as *mut u8, size) };
            m.buffer.read(offset, out)
        }))
    })
}

/// `clEnqueueWriteBuffer` (API 5.2.2).
pub unsafe extern "C" fn clEnqueueWriteBuffer(
    queue: cl_command_queue,
    buffer: cl_mem,
    blocking_write: cl_bool,
    offset: usize,
    size: usize,
    ptr: *const c_void,
    num_events: cl_uint,
    events: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    guard(|| {
        // SAFETY: the caller's wait list.
        let (q, wait_for) = unsafe { begin(queue, num_events, events) }?;
        let m = command_buffer(&q, buffer)?;
        // "CL_INVALID_VALUE if the region being read or written specified by offset and size is
        // out of bounds" and "if ptr is NULL".
        if !in_bounds(&m, offset, size) || ptr.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        check_host_write(&m)?;
        let blocking = blocking_write != 0;
        // A non-blocking write copies the data now, so the application may reuse `ptr` at once
        // (allowed: "the OpenCL implementation may copy the data").
        // SAFETY: `size` readable bytes at `ptr`.
        let data = unsafe { std::slice::from_raw_parts(ptr as *const u8, size) }.to_vec();
        let command = Command {
            queue: &q,
            command_type: CL_COMMAND_WRITE_BUFFER,
            wait_for,
            blocking,
            event_out: event,
            kind: runtime::commands::CommandKind::Command,
        };
        command.submit(Box::new(move || m.buffer.write(offset, &data)))
    })
}

/// Do two byte ranges of buffers overlap in memory?
fn overlap(a: &MemObj, a_offset: usize, b: &MemObj, b_offset: usize, size: usize) -> bool {
    let (root_a, base_a) = a.root();
    let (root_b, base_b) = b.root();
    let (start_a, start_b) = (base_a + a_offset, base_b + b_offset);
    root_a == root_b && start_a < start_b + size && start_b < start_a + size
}

/// `clEnqueueCopyBuffer` (API 5.2.3).
pub unsafe extern "C" fn clEnqueueCopyBuffer(
    queue: cl_command_queue,
    src_buffer: cl_mem,
    dst_buffer: cl_mem,
    src_offset: usize,
    dst_offset: usize,
    size: usize,
    num_events: cl_uint,
    events: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    guard(|| {
        // SAFETY: the caller's wait list.
        let (q, wait_for) = unsafe { begin(queue, num_events, events) }?;
        let src = command_buffer(&q, src_buffer)?;
        let dst = command_buffer(&q, dst_buffer)?;
        // "CL_INVALID_VALUE if src_offset, dst_offset, size, src_offset + size or dst_offset +
        // size require accessing elements outside the src_buffer and dst_buffer buffer objects
        // respectively."
        if !in_bounds(&src, src_offset, size) || !in_bounds(&dst, dst_offset, size) {
            return Err(CL_INVALID_VALUE);
        }
        // "CL_MEM_COPY_OVERLAP if src_buffer and dst_buffer are the same buffer or sub-buffer
        // object and the source and destination regions overlap or if src_buffer and dst_buffer
        // are different sub-buffers of the same associated buffer object and they overlap."
        if overlap(&src, src_offset, &dst, dst_offset, size) {
            return Err(CL_MEM_COPY_OVERLAP);
        }
        let command = Command {
            queue: &q,
            command_type: CL_COMMAND_COPY_BUFFER,
            wait_for,
            blocking: false,
            event_out: event,
            kind: runtime::commands::CommandKind::Command,
        };
        command.submit(Box::new(move || {
            if size == 0 {
                return Ok(());
            }
            dst.buffer
                .copy_from(dst_offset, &src.buffer, src_offset, size)
        }))
    })
}

/// `clEnqueueFillBuffer` (API 5.2.4).
pub unsafe extern "C" fn clEnqueueFillBuffer(
    queue: cl_command_queue,
    buffer: cl_mem,
    pattern: *const c_void,
    pattern_size: usize,
    offset: usize,
    size: usize,
    num_events: cl_uint,
    events: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    guard(|| {
        // SAFETY: the caller's wait list.
        let (q, wait_for) = unsafe { begin(queue, num_events, events) }?;
        let m = command_buffer(&q, buffer)?;
        // "CL_INVALID_VALUE if offset or offset + size require accessing elements outside the
        // buffer buffer object respectively"; "if pattern is NULL or if pattern_size is 0 or if
        // pattern_size is not one of { 1, 2, 4, 8, 16, 32, 64, 128 }"; "if offset and size are
        // not a multiple of pattern_size".
        if !in_bounds(&m, offset, size)
            || pattern.is_null()
            || !pattern_size.is_power_of_two()
            || pattern_size > 128
            || offset % pattern_size != 0
            || size % pattern_size != 0
        {
            return Err(CL_INVALID_VALUE);
        }
        // SAFETY: `pattern_size` readable bytes; "the memory associated with pattern can be
        // reused or freed after the function returns", so it is copied now.
        let pattern =
            unsafe { std::slice::from_raw_parts(pattern as *const u8, pattern_size) }.to_vec();
        let command = Command {
            queue: &q,
            command_type: CL_COMMAND_FILL_BUFFER,
            wait_for,
            blocking: false,
            event_out: event,
            kind: runtime::commands::CommandKind::Command,
        };
        command.submit(Box::new(move || {
            if size == 0 {
                Ok(())
            } else {
                m.buffer.fill(&pattern, offset, size)
            }
        }))
    })
}

/// Reads a `size_t[3]` argument.
///
/// # Safety
/// `p` must be null or point to three `size_t`.
pub(crate) unsafe fn triple(p: *const usize) -> ClResult<[usize; 3]> {
    if p.is_null() {
        return Err(CL_INVALID_VALUE);
    }
    // SAFETY: the caller's promise.
    Ok(unsafe { [*p, *p.add(1), *p.add(2)] })
}

/// The checks shared by the rectangular commands: "CL_INVALID_VALUE if any region array
/// element is 0", the pitch rules (RectLayout::check_pitches), and the bounds.
fn rect_layout(
    origin: [usize; 3],
    row: usize,
    slice: usize,
    region: [usize; 3],
    size: Option<usize>,
) -> ClResult<RectLayout> {
    if region.contains(&0) {
        return Err(CL_INVALID_VALUE);
    }
    // "CL_INVALID_VALUE if row_pitch is not 0 and is less than region[0]" (and the slice rules).
    if (row != 0 && row < region[0])
        || (slice != 0 && slice < region[1].saturating_mul(if row == 0 { region[0] } else { row }))
    {
        return Err(CL_INVALID_VALUE);
    }
    let layout = RectLayout::new(origin, row, slice, region);
    layout.check_pitches(region).map_err(|_| CL_INVALID_VALUE)?;
    // "CL_INVALID_VALUE if the region being read or written specified by (buffer_origin,
    // region, buffer_row_pitch, buffer_slice_pitch) is out of bounds."
    match (layout.extent(region), size) {
        (None, _) => Err(CL_INVALID_VALUE),
        (Some(end), Some(size)) if end > size => Err(CL_INVALID_VALUE),
        _ => Ok(layout),
    }
}

/// `clEnqueueReadBufferRect` (API 5.2.2).
pub unsafe extern "C" fn clEnqueueReadBufferRect(
    queue: cl_command_queue,
    buffer: cl_mem,
    blocking_read: cl_bool,
    buffer_origin: *const usize,
    host_origin: *const usize,
    region: *const usize,
    buffer_row_pitch: usize,
    buffer_slice_pitch: usize,
    host_row_pitch: usize,
    host_slice_pitch: usize,
    ptr: *mut c_void,
    num_events: cl_uint,
    events: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    guard(|| {
        // SAFETY: the caller's wait list.
        let (q, wait_for) = unsafe { begin(queue, num_events, events) }?;
        let m = command_buffer(&q, buffer)?;
        // SAFETY: three size_t each (null is CL_INVALID_VALUE).
        let (bo, ho, region) = unsafe {
            (
                triple(buffer_origin)?,
                triple(host_origin)?,
                triple(region)?,
            )
        };
        // "CL_INVALID_VALUE if ... ptr is NULL".
        if ptr.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        let buffer_layout = rect_layout(
            bo,
            buffer_row_pitch,
            buffer_slice_pitch,
            region,
            Some(m.buffer.size()),
        )?;
        let host_layout = rect_layout(ho, host_row_pitch, host_slice_pitch, region, None)?;
        check_host_read(&m)?;
        let host_len = host_layout.extent(region).unwrap_or(0);
        let host = HostPtr(ptr);
        let command = Command {
            queue: &q,
            command_type: CL_COMMAND_READ_BUFFER_RECT,
            wait_for,
            blocking: blocking_read != 0,
            event_out: event,
            kind: runtime::commands::CommandKind::Command,
        };
        command.submit(Box::new(move || {
            let host = host;
            // SAFETY: the application's memory covers the host rectangle.
            let out = unsafe { std::slice::from_raw_parts_mut(host.0 as *mut u8, host_len) };
            m.buffer
                .read_rect(&buffer_layout, out, &host_layout, region)
        }))
    })
}

/// `clEnqueueWriteBufferRect` (API 5.2.2).
pub unsafe extern "C" fn clEnqueueWriteBufferRect(
    queue: cl_command_queue,
    buffer: cl_mem,
    blocking_write: cl_bool,
    buffer_origin: *const usize,
    host_origin: *const usize,
    region: *const usize,
    buffer_row_pitch: usize,
    buffer_slice_pitch: usize,
    host_row_pitch: usize,
    host_slice_pitch: usize,
    ptr: *const c_void,
    num_events: cl_uint,
    events: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    guard(|| {
        // SAFETY: the caller's wait list.
        let (q, wait_for) = unsafe { begin(queue, num_events, events) }?;
        let m = command_buffer(&q, buffer)?;
        // SAFETY: three size_t each (null is CL_INVALID_VALUE).
        let (bo, ho, region) = unsafe {
            (
                triple(buffer_origin)?,
                triple(host_origin)?,
                triple(region)?,
            )
        };
        if ptr.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        let buffer_layout = rect_layout(
            bo,
            buffer_row_pitch,
            buffer_slice_pitch,
            region,
            Some(m.buffer.size()),
        )?;
        let host_layout = rect_layout(ho, host_row_pitch, host_slice_pitch, region, None)?;
        check_host_write(&m)?;
        let host_len = host_layout.extent(region).unwrap_or(0);
        let host = HostPtr(ptr as *mut c_void);
        let command = Command {
            queue: &q,
            command_type: CL_COMMAND_WRITE_BUFFER_RECT,
            wait_for,
            blocking: blocking_write != 0,
            event_out: event,
            kind: runtime::commands::CommandKind::Command,
        };
        command.submit(Box::new(move || {
            let host = host;
            // SAFETY: the application's memory covers the host rectangle until completion.
            let data = unsafe { std::slice::from_raw_parts(host.0 as *const u8, host_len) };
            m.buffer
                .write_rect(&buffer_layout, data, &host_layout, region)
        }))
    })
}

/// Do two rectangles of the same memory share a byte? (Row intervals, swept in order.)
fn rects_overlap(
    a: &RectLayout,
    a_base: usize,
    b: &RectLayout,
    b_base: usize,
    region: [usize; 3],
) -> bool {
    let rows = |l: &RectLayout, base: usize| -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for z in 0..region[2] {
            for y in 0..region[1] {
                let start = base
                    + (l.origin[2] + z) * l.slice_pitch
                    + (l.origin[1] + y) * l.row_pitch
                    + l.origin[0];
                out.push((start, start + region[0]));
            }
        }
        out
    };
    let mut all: Vec<(usize, usize, bool)> = rows(a, a_base)
        .into_iter()
        .map(|(s, e)| (s, e, true))
        .collect();
    all.extend(rows(b, b_base).into_iter().map(|(s, e)| (s, e, false)));
    all.sort();
    let (mut end_a, mut end_b) = (0usize, 0usize);
    for (start, end, is_a) in all {
        if (is_a && start < end_b) || (!is_a && start < end_a) {
            return true;
        }
        if is_a {
            end_a = end_a.max(end);
        } else {
            end_b = end_b.max(end);
        }
    }
    false
}

/// `clEnqueueCopyBufferRect` (API 5.2.3).
pub unsafe extern "C" fn clEnqueueCopyBufferRect(
    queue: cl_command_queue,
    src_buffer: cl_mem,
    dst_buffer: cl_mem,
    src_origin: *const usize,
    dst_origin: *const usize,
    region: *const usize,
    src_row_pitch: usize,
    src_slice_pitch: usize,
    dst_row_pitch: usize,
    dst_slice_pitch: usize,
    num_events: cl_uint,
    events: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    guard(|| {
        // SAFETY: the caller's wait list.
        let (q, wait_for) = unsafe { begin(queue, num_events, events) }?;
        let src = command_buffer(&q, src_buffer)?;
        let dst = command_buffer(&q, dst_buffer)?;
        // SAFETY: three size_t each (null is CL_INVALID_VALUE).
        let (so, d_o, region) =
            unsafe { (triple(src_origin)?, triple(dst_origin)?, triple(region)?) };
        let src_layout = rect_layout(
            so,
            src_row_pitch,
            src_slice_pitch,
            region,
            Some(src.buffer.size()),
        )?;
        let dst_layout = rect_layout(
            d_o,
            dst_row_pitch,
            dst_slice_pitch,
            region,
            Some(dst.buffer.size()),
        )?;
        let (src_root, src_base) = src.root();
        let (dst_root, dst_base) = dst.root();
        if src_root == dst_root {
            // "CL_INVALID_VALUE if src_buffer and dst_buffer are the same buffer object and
            // src_slice_pitch is not equal to dst_slice_pitch and src_row_pitch is not equal to
            // dst_row_pitch."
            if Arc::ptr_eq(&src, &dst)
                && src_layout.slice_pitch != dst_layout.slice_pitch
                && src_layout.row_pitch != dst_layout.row_pitch
            {
                return Err(CL_INVALID_VALUE);
            }
            // "CL_MEM_COPY_OVERLAP if src_buffer and dst_buffer are the same buffer or sub-buffer
            // object and the source and destination regions overlap ..."
            if rects_overlap(&src_layout, src_base, &dst_layout, dst_base, region) {
                return Err(CL_MEM_COPY_OVERLAP);
            }
        }
        let command = Command {
            queue: &q,
            command_type: CL_COMMAND_COPY_BUFFER_RECT,
            wait_for,
            blocking: false,
            event_out: event,
            kind: runtime::commands::CommandKind::Command,
        };
        command.submit(Box::new(move || {
            dst.buffer
                .copy_rect_from(&dst_layout, &src.buffer, &src_layout, region)
        }))
    })
}

/// `clEnqueueMapBuffer` (API 5.2.5). Buffers live in host memory, so the mapped region is the
/// buffer's own memory (for `CL_MEM_USE_HOST_PTR`, the application's `host_ptr`).
pub unsafe extern "C" fn clEnqueueMapBuffer(
    queue: cl_command_queue,
    buffer: cl_mem,
    blocking_map: cl_bool,
    map_flags: cl_map_flags,
    offset: usize,
    size: usize,
    num_events: cl_uint,
    events: *const cl_event,
    event: *mut cl_event,
    errcode_ret: *mut cl_int,
) -> *mut c_void {
    guard_create(errcode_ret, || {
        // SAFETY: the caller's wait list.
        let (q, wait_for) = unsafe { begin(queue, num_events, events) }?;
        let m = command_buffer(&q, buffer)?;
        // "CL_INVALID_VALUE if region being mapped given by (offset, size) is out of bounds or if
        // size is 0 or if values specified in map_flags are not valid."
        let valid_flags = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
        if !in_bounds(&m, offset, size)
            || size == 0
            || map_flags & !valid_flags != 0
            || (map_flags & CL_MAP_WRITE_INVALIDATE_REGION != 0
                && map_flags & (CL_MAP_READ | CL_MAP_WRITE) != 0)
        {
            return Err(CL_INVALID_VALUE);
        }
        check_map_access(&m, map_flags)?;
        // SAFETY: in bounds (checked).
        let address = unsafe { m.buffer.host_address().add(offset) } as *mut c_void;
        submit_map(
            &q,
            &m,
            address,
            CL_COMMAND_MAP_BUFFER,
            wait_for,
            blocking_map != 0,
            event,
        )
    })
}

/// API 5.2.3 / 5.3.6: "CL_INVALID_OPERATION if buffer [image] has been created with
/// CL_MEM_HOST_WRITE_ONLY or CL_MEM_HOST_NO_ACCESS and CL_MAP_READ is set in map_flags or if
/// buffer [image] has been created with CL_MEM_HOST_READ_ONLY or CL_MEM_HOST_NO_ACCESS and
/// CL_MAP_WRITE or CL_MAP_WRITE_INVALIDATE_REGION is set in map_flags."
pub(crate) fn check_map_access(m: &MemObj, map_flags: cl_map_flags) -> ClResult<()> {
    if (map_flags & CL_MAP_READ != 0
        && m.flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS) != 0)
        || (map_flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION) != 0
            && m.flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS) != 0)
    {
        return Err(CL_INVALID_OPERATION);
    }
    Ok(())
}

/// Records the mapping of `address` in `m` (so unmapping it is valid) and enqueues the map
/// command; a failed enqueue forgets the mapping again.
pub(crate) fn submit_map(
    q: &Arc<Obj<QueueObj>>,
    m: &MemObj,
    address: *mut c_void,
    command_type: cl_uint,
    wait_for: Vec<Arc<Obj<EventObj>>>,
    blocking: bool,
    event: *mut cl_event,
) -> ClResult<*mut c_void> {
    m.map_count.fetch_add(1, Ordering::SeqCst);
    m.mappings
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .push(address as usize);
    let command = Command {
        queue: q,
        command_type,
        wait_for,
        blocking,
        event_out: event,
        kind: runtime::commands::CommandKind::Command,
    };
    if let Err(e) = command.submit(Box::new(|| Ok(()))) {
        forget_mapping(m, address as usize);
        return Err(e);
    }
    Ok(address)
}

pub(crate) fn forget_mapping(m: &MemObj, address: usize) -> bool {
    let mut mappings = m.mappings.lock().unwrap_or_else(|p| p.into_inner());
    match mappings.iter().position(|&a| a == address) {
        Some(i) => {
            mappings.swap_remove(i);
            m.map_count.fetch_sub(1, Ordering::SeqCst);
            true
        }
        None => false,
    }
}

/// `clEnqueueUnmapMemObject` (API 5.5.2).
pub unsafe extern "C" fn clEnqueueUnmapMemObject(
    queue: cl_command_queue,
    memobj: cl_mem,
    mapped_ptr: *mut c_void,
    num_events: cl_uint,
    events: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    guard(|| {
        // SAFETY: the caller's wait list.
        let (q, wait_for) = unsafe { begin(queue, num_events, events) }?;
        let m = command_mem(&q, memobj)?;
        // "CL_INVALID_VALUE if mapped_ptr is not a valid pointer returned by clEnqueueMapBuffer
        // or clEnqueueMapImage for memobj." The mapping is recorded when the map is enqueued
        // and consumed when the unmap is, so a second unmap of one mapping is refused.
        if !forget_mapping(&m, mapped_ptr as usize) {
            return Err(CL_INVALID_VALUE);
        }
        let command = Command {
            queue: &q,
            command_type: CL_COMMAND_UNMAP_MEM_OBJECT,
            wait_for,
            blocking: false,
            event_out: event,
            kind: runtime::commands::CommandKind::Command,
        };
        command.submit(Box::new(|| Ok(())))
    })
}

/// `clEnqueueMigrateMemObjects` (API 5.5.4): one memory serves host and device; a marker.
pub unsafe extern "C" fn clEnqueueMigrateMemObjects(
    queue: cl_command_queue,
    num_mem_objects: cl_uint,
    mem_objects: *const cl_mem,
    flags: cl_mem_migration_flags,
    num_events: cl_uint,
    events: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    guard(|| {
        // SAFETY: the caller's wait list.
        let (q, wait_for) = unsafe { begin(queue, num_events, events) }?;
        // "CL_INVALID_VALUE if num_mem_objects is zero or if mem_objects is NULL" and "if flags
        // is not 0 or is not any of the values described in the table above".
        if num_mem_objects == 0 || mem_objects.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        if flags & !(CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED) != 0 {
            return Err(CL_INVALID_VALUE);
        }
        // "CL_INVALID_MEM_OBJECT if any of the memory objects in mem_objects is not a valid
        // memory object"; "CL_INVALID_CONTEXT if the context associated with command_queue and
        // memory objects in mem_objects are not the same".
        // SAFETY: `num_mem_objects` handles.
        for m in unsafe { crate::handle::get_list::<MemObj>(mem_objects, num_mem_objects) }? {
            if !Arc::ptr_eq(&m.context, &q.context) {
                return Err(CL_INVALID_CONTEXT);
            }
        }
        let command = Command {
            queue: &q,
            command_type: CL_COMMAND_MIGRATE_MEM_OBJECTS,
            wait_for,
            blocking: false,
            event_out: event,
            kind: runtime::commands::CommandKind::Command,
        };
        command.submit(Box::new(|| Ok(())))
    })
}
