//! Command queues (API 5.1) and the enqueue path every command shares: wait-list checks, the
//! command's event, blocking (API 5.13 `clFlush`, `clFinish`).

use std::ffi::c_void;
use std::sync::{Arc, Mutex, Weak};

use crate::consts::*;
use crate::context::ContextObj;
use crate::device::DeviceObj;
use crate::entry::{guard, guard_create, ClResult};
use crate::event::EventObj;
use crate::handle::{ClObject, Kind, Obj};
use crate::info::{answer, InfoValue};
use crate::types::*;

pub struct QueueObj {
    pub context: Arc<Obj<ContextObj>>,
    pub device: Arc<Obj<DeviceObj>>,
    pub properties: cl_command_queue_properties,
    /// `CL_QUEUE_PROPERTIES_ARRAY`: the list given to clCreateCommandQueueWithProperties.
    pub properties_array: Vec<cl_queue_properties>,
    /// Runs kernels (its checks and launch).
    pub runner: runtime::Queue,
    pub engine: runtime::commands::CommandQueue,
    /// Set for an on-device queue (`CL_QUEUE_ON_DEVICE`): kernels enqueue into it, the host
    /// does not.
    pub device_queue: Option<Arc<runtime::DeviceQueue>>,
}

impl ClObject for QueueObj {
    const KIND: Kind = Kind::Queue;
    const INVALID: i32 = CL_INVALID_COMMAND_QUEUE;
}

impl QueueObj {
    pub fn profiling(&self) -> bool {
        self.properties & CL_QUEUE_PROFILING_ENABLE != 0
    }
}

/// The queue properties the device supports (`CL_DEVICE_QUEUE_ON_HOST_PROPERTIES`).
pub fn supported_properties(device: &runtime::Device) -> u64 {
    let (out_of_order, profiling) = device.queue_properties();
    let mut properties = 0;
    if out_of_order {
        properties |= CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;
    }
    if profiling {
        properties |= CL_QUEUE_PROFILING_ENABLE;
    }
    properties
}

/// The queue object of each live on-device queue, so that a second `CL_QUEUE_ON_DEVICE_DEFAULT`
/// request can hand out the default device queue's own handle.
static DEVICE_QUEUE_OBJECTS: Mutex<Vec<(Weak<runtime::DeviceQueue>, Weak<Obj<QueueObj>>)>> =
    Mutex::new(Vec::new());

/// The handle of `default`'s queue object with one more API reference, if the application
/// still holds it.
fn retain_default_queue(default: &Arc<runtime::DeviceQueue>) -> Option<*mut c_void> {
    let objects = DEVICE_QUEUE_OBJECTS
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    let obj = objects
        .iter()
        .find(|(dq, _)| std::ptr::eq(dq.as_ptr(), Arc::as_ptr(default)))
        .and_then(|(_, obj)| obj.upgrade())?;
    Obj::retain_held(&obj)
}

/// Every bit `cl_command_queue_properties` defines.
const DEFINED_PROPERTIES: u64 = CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE
    | CL_QUEUE_PROFILING_ENABLE
    | CL_QUEUE_ON_DEVICE
    | CL_QUEUE_ON_DEVICE_DEFAULT;

fn create_queue(
    context: cl_context,
    device: cl_device_id,
    properties: cl_command_queue_properties,
    queue_size: Option<u32>,
    properties_array: Vec<cl_queue_properties>,
) -> ClResult<*mut c_void> {
    // "CL_INVALID_CONTEXT if context is not a valid context."
    let context = Obj::<ContextObj>::get(context)?;
    // "CL_INVALID_DEVICE if device is not a valid device or is not associated with context."
    let device = Obj::<DeviceObj>::get(device)?;
    if !context.has_device(&device) {
        return Err(CL_INVALID_DEVICE);
    }
    // "CL_INVALID_VALUE if values specified in properties are not valid."
    if properties & !DEFINED_PROPERTIES != 0
        || (properties & CL_QUEUE_ON_DEVICE_DEFAULT != 0 && properties & CL_QUEUE_ON_DEVICE == 0)
        || (properties & CL_QUEUE_ON_DEVICE != 0
            && properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE == 0)
    {
        return Err(CL_INVALID_VALUE);
    }
    // "CL_INVALID_QUEUE_PROPERTIES if values specified in properties are valid but are not
    // supported by the device." (On-device queues need device-side enqueue.)
    let mut supported = supported_properties(&device.device);
    if device.device.device_enqueue() {
        supported |= CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT;
    }
    if properties & !supported != 0 {
        return Err(CL_INVALID_QUEUE_PROPERTIES);
    }
    let make_default = properties & CL_QUEUE_ON_DEVICE_DEFAULT != 0;
    if make_default {
        // API 5.1 (footnote to CL_QUEUE_ON_DEVICE_DEFAULT): "If a default device queue has
        // already been created, calling clCreateCommandQueueWithProperties with
        // CL_QUEUE_PROPERTIES set to CL_QUEUE_ON_DEVICE and CL_QUEUE_ON_DEVICE_DEFAULT will
        // return the default device queue that has already been created and increment its
        // reference count by 1."
        if let Some(handle) = context
            .context
            .default_device_queue()
            .as_ref()
            .and_then(retain_default_queue)
        {
            return Ok(handle);
        }
    }
    let device_queue = if properties & CL_QUEUE_ON_DEVICE != 0 {
        Some(
            runtime::DeviceQueue::new(&context.context, queue_size, make_default).map_err(|e| {
                match e {
                    // "CL_INVALID_VALUE if values specified in properties are not valid"
                    // (CL_QUEUE_SIZE above CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE).
                    runtime::Error::InvalidValue(_) => CL_INVALID_VALUE,
                    // "CL_OUT_OF_RESOURCES": more than CL_DEVICE_MAX_ON_DEVICE_QUEUES.
                    _ => CL_OUT_OF_RESOURCES,
                }
            })?,
        )
    } else {
        None
    };
    let out_of_order = properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE != 0;
    let engine = runtime::commands::CommandQueue::with_order(out_of_order)
        .map_err(|_| CL_OUT_OF_HOST_MEMORY)?;
    let mut runner = runtime::Queue::new(&context.context);
    // A sub-device's compute units are the worker threads its kernels run on.
    if device.is_sub_device() {
        runner = runner.with_threads(device.device.compute_units as usize);
    }
    let obj = Obj::create(QueueObj {
        context,
        device,
        properties,
        properties_array,
        runner,
        engine,
        device_queue,
    });
    if let Some(dq) = &obj.device_queue {
        let mut objects = DEVICE_QUEUE_OBJECTS
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        objects.retain(|(_, o)| o.strong_count() > 0);
        objects.push((Arc::downgrade(dq), Arc::downgrade(&obj)));
    }
    Ok(Obj::into_handle(obj))
}

/// `clCreateCommandQueueWithProperties` (API 5.1).
pub unsafe extern "C" fn clCreateCommandQueueWithProperties(
    context: cl_context,
    device: cl_device_id,
    properties: *const cl_queue_properties,
    errcode_ret: *mut cl_int,
) -> cl_command_queue {
    guard_create(errcode_ret, || {
        let mut flags = 0;
        let mut size = None;
        let mut array = Vec::new();
        if !properties.is_null() {
            let mut seen = Vec::new();
            let mut at = properties;
            loop {
                // SAFETY: a 0-terminated list of (name, value) pairs.
                let name = unsafe { *at };
                if name == 0 {
                    break;
                }
                // SAFETY: as above.
                let value = unsafe { *at.add(1) };
                if seen.contains(&name) {
                    return Err(CL_INVALID_VALUE);
                }
                seen.push(name);
                match name as u32 {
                    CL_QUEUE_PROPERTIES => flags = value,
                    CL_QUEUE_SIZE => {
                        size = Some(u32::try_from(value).map_err(|_| CL_INVALID_VALUE)?)
                    }
                    // "CL_INVALID_VALUE if values specified in properties are not valid."
                    _ => return Err(CL_INVALID_VALUE),
                }
                array.extend([name, value]);
                // SAFETY: still inside the list.
                at = unsafe { at.add(2) };
            }
            array.push(0);
        }
        // CL_QUEUE_SIZE "can only be specified if CL_QUEUE_ON_DEVICE is set".
        if size.is_some() && flags & CL_QUEUE_ON_DEVICE == 0 {
            return Err(CL_INVALID_VALUE);
        }
        create_queue(context, device, flags, size, array)
    })
}

/// `clCreateCommandQueue` (API 5.1, deprecated by 2.0).
pub unsafe extern "C" fn clCreateCommandQueue(
    context: cl_context,
    device: cl_device_id,
    properties: cl_command_queue_properties,
    errcode_ret: *mut cl_int,
) -> cl_command_queue {
    guard_create(errcode_ret, || {
        // clCreateCommandQueue makes host queues only (its properties are the 1.x ones):
        // on-device queues come from clCreateCommandQueueWithProperties.
        if properties & (CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT) != 0
            && properties & !DEFINED_PROPERTIES == 0
        {
            return Err(CL_INVALID_QUEUE_PROPERTIES);
        }
        create_queue(context, device, properties, None, Vec::new())
    })
}

pub unsafe extern "C" fn clRetainCommandQueue(queue: cl_command_queue) -> cl_int {
    // "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid command-queue."
    Obj::<QueueObj>::retain(queue)
}

/// `clReleaseCommandQueue`: "performs an implicit flush"; queued commands still complete.
pub unsafe extern "C" fn clReleaseCommandQueue(queue: cl_command_queue) -> cl_int {
    Obj::<QueueObj>::release(queue)
}

/// `clGetCommandQueueInfo` (API 5.1).
pub unsafe extern "C" fn clGetCommandQueueInfo(
    queue: cl_command_queue,
    param_name: cl_command_queue_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    guard(|| {
        let q = Obj::<QueueObj>::get(queue)?;
        let value = match param_name {
            CL_QUEUE_CONTEXT => Ok(InfoValue::ptr(Obj::handle(&q.context))),
            CL_QUEUE_DEVICE => Ok(InfoValue::ptr(Obj::handle(&q.device))),
            CL_QUEUE_REFERENCE_COUNT => Ok(InfoValue::u32(q.ref_count())),
            CL_QUEUE_PROPERTIES => Ok(InfoValue::u64(q.properties)),
            CL_QUEUE_PROPERTIES_ARRAY => Ok(InfoValue::pod(&q.properties_array)),
            // "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid command-queue for
            // param_name" (CL_QUEUE_SIZE is for device queues).
            CL_QUEUE_SIZE => match &q.device_queue {
                Some(dq) => Ok(InfoValue::u32(dq.size())),
                None => Err(CL_INVALID_COMMAND_QUEUE),
            },
            // The default device queue, when it is this queue (see clSetDefaultDeviceCommandQueue).
            CL_QUEUE_DEVICE_DEFAULT => Ok(InfoValue::ptr(match &q.device_queue {
                Some(dq)
                    if q.context
                        .context
                        .default_device_queue()
                        .is_some_and(|d| Arc::ptr_eq(&d, dq)) =>
                {
                    Obj::handle(&q)
                }
                _ => std::ptr::null_mut(),
            })),
            _ => Err(CL_INVALID_VALUE),
        };
        // SAFETY: the caller's buffers.
        unsafe { answer(value, param_value_size, param_value, param_value_size_ret) }
    })
}

/// `clSetCommandQueueProperty` (OpenCL 1.0 only, removed later): not supported.
pub unsafe extern "C" fn clSetCommandQueueProperty(
    queue: cl_command_queue,
    _properties: cl_command_queue_properties,
    _enable: cl_bool,
    _old_properties: *mut cl_command_queue_properties,
) -> cl_int {
    guard(|| {
        Obj::<QueueObj>::get(queue)?;
        Err(CL_INVALID_OPERATION)
    })
}

/// `clFlush` (API 5.13): commands go to the worker as they are queued.
pub unsafe extern "C" fn clFlush(queue: cl_command_queue) -> cl_int {
    guard(|| Obj::<QueueObj>::get(queue).map(|_| ()))
}

/// `clFinish` (API 5.13): blocks until every queued command is complete.
pub unsafe extern "C" fn clFinish(queue: cl_command_queue) -> cl_int {
    guard(|| {
        let q = Obj::<QueueObj>::get(queue)?;
        q.engine.finish();
        Ok(())
    })
}

/// The events of a wait list, checked (the rule of every `clEnqueue*`):
/// "CL_INVALID_EVENT_WAIT_LIST if event_wait_list is NULL and num_events_in_wait_list is greater
/// than zero, or event_wait_list is not NULL and num_events_in_wait_list is 0, or if event
/// objects in event_wait_list are not valid events" and "CL_INVALID_CONTEXT if the context
/// associated with command_queue and events in event_wait_list are not the same".
///
/// # Safety
/// `list` must hold `num` handles when not null.
pub unsafe fn wait_list(
    context: &Arc<Obj<ContextObj>>,
    num: cl_uint,
    list: *const cl_event,
) -> ClResult<Vec<Arc<Obj<EventObj>>>> {
    if list.is_null() != (num == 0) {
        return Err(CL_INVALID_EVENT_WAIT_LIST);
    }
    // SAFETY: the caller's promise.
    let events = unsafe { crate::handle::get_list::<EventObj>(list, num) }
        .map_err(|_| CL_INVALID_EVENT_WAIT_LIST)?;
    if events.iter().any(|e| !Arc::ptr_eq(&e.context, context)) {
        return Err(CL_INVALID_CONTEXT);
    }
    Ok(events)
}

/// A command ready to queue.
pub struct Command<'a> {
    pub queue: &'a Arc<Obj<QueueObj>>,
    pub command_type: cl_uint,
    pub wait_for: Vec<Arc<Obj<EventObj>>>,
    pub blocking: bool,
    pub event_out: *mut cl_event,
    /// Marker and barrier commands order themselves against the others.
    pub kind: runtime::commands::CommandKind,
}

impl Command<'_> {
    /// Queues `work`, returns its event to the application if asked, and for a blocking
    /// command waits: "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST if the ... operations are
    /// blocking and the execution status of any of the events in event_wait_list is a negative
    /// integer value"; a blocking command that fails returns its error.
    pub fn submit(self, work: runtime::commands::Work) -> ClResult<()> {
        self.submit_kernel(Box::new(move || work().map(|()| 0)))
    }

    /// [`Command::submit`] for a kernel command, whose work returns the time its
    /// device-enqueued children took (`runtime::commands::KernelWork`).
    pub fn submit_kernel(self, work: runtime::commands::KernelWork) -> ClResult<()> {
        // API 5.1: a device queue takes commands from kernels only.
        if self.queue.device_queue.is_some() {
            return Err(CL_INVALID_COMMAND_QUEUE);
        }
        let deps = self.wait_for.iter().map(|e| e.state.clone()).collect();
        let state = self.queue.engine.submit_kernel(deps, self.kind, work);
        if !self.event_out.is_null() {
            let event = EventObj::for_command(self.queue, self.command_type, state.clone());
            // SAFETY: the caller's writable cl_event.
            unsafe { *self.event_out = Obj::into_handle(event) };
        }
        if self.blocking {
            match state.wait() {
                CL_COMPLETE_I32 => {}
                runtime::commands::ERROR_FOR_EVENTS_IN_WAIT_LIST => {
                    return Err(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
                }
                error => return Err(error),
            }
        }
        Ok(())
    }
}

const CL_COMPLETE_I32: i32 = CL_COMPLETE as i32;

/// A command's queue and the events it waits for.
pub type QueueAndWaitList = (Arc<Obj<QueueObj>>, Vec<Arc<Obj<EventObj>>>);

/// The common checks of an enqueue: the queue, the wait list.
///
/// # Safety
/// As [`wait_list`].
pub unsafe fn begin(
    queue: cl_command_queue,
    num_events: cl_uint,
    events: *const cl_event,
) -> ClResult<QueueAndWaitList> {
    // "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid host command-queue."
    let q = Obj::<QueueObj>::get(queue)?;
    // SAFETY: the caller's promise.
    let wait_for = unsafe { wait_list(&q.context, num_events, events) }?;
    Ok((q, wait_for))
}

/// `clSetDefaultDeviceCommandQueue` (API 5.1).
pub unsafe extern "C" fn clSetDefaultDeviceCommandQueue(
    context: cl_context,
    device: cl_device_id,
    queue: cl_command_queue,
) -> cl_int {
    guard(|| {
        // "CL_INVALID_CONTEXT if context is not a valid context."
        let context = Obj::<ContextObj>::get(context)?;
        // "CL_INVALID_DEVICE if device is not a valid device or is not associated with context."
        let device = Obj::<DeviceObj>::get(device)?;
        if !context.has_device(&device) {
            return Err(CL_INVALID_DEVICE);
        }
        // "CL_INVALID_OPERATION if device does not support a replaceable default on-device
        // queue."
        if !device.device.device_enqueue() {
            return Err(CL_INVALID_OPERATION);
        }
        // "CL_INVALID_COMMAND_QUEUE if command_queue is not a valid command-queue for device."
        let q = Obj::<QueueObj>::get(queue)?;
        let Some(dq) = &q.device_queue else {
            return Err(CL_INVALID_COMMAND_QUEUE);
        };
        if !Arc::ptr_eq(&q.context, &context) || !Arc::ptr_eq(&q.device, &device) {
            return Err(CL_INVALID_COMMAND_QUEUE);
        }
        context.context.set_default_device_queue(dq);
        Ok(())
    })
}
