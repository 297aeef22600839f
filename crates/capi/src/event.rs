//! Event objects (API 5.11), user events, callbacks, profiling (API 5.14), markers and barriers
//! (API 5.12).

use std::ffi::c_void;
use std::sync::Arc;

use runtime::commands::{CommandKind, EventState, COMPLETE, RUNNING, SUBMITTED};

use crate::consts::*;
use crate::context::ContextObj;
use crate::entry::{guard, guard_create, HostPtr};
use crate::handle::{get_list, ClObject, Kind, Obj};
use crate::info::{answer, InfoValue};
use crate::queue::{begin, Command, QueueObj};
use crate::types::*;

pub struct EventObj {
    pub context: Arc<Obj<ContextObj>>,
    /// The queue of a command's event; `None` for a user event.
    pub queue: Option<Arc<Obj<QueueObj>>>,
    pub command_type: cl_uint,
    pub state: Arc<EventState>,
}

impl ClObject for EventObj {
    const KIND: Kind = Kind::Event;
    const INVALID: i32 = CL_INVALID_EVENT;
}

impl EventObj {
    pub fn for_command(
        queue: &Arc<Obj<QueueObj>>,
        command_type: cl_uint,
        state: Arc<EventState>,
    ) -> Arc<Obj<EventObj>> {
        Obj::create(EventObj {
            context: queue.context.clone(),
            queue: Some(queue.clone()),
            command_type,
            state,
        })
    }
}

/// `clWaitForEvents` (API 5.11).
pub unsafe extern "C" fn clWaitForEvents(
    num_events: cl_uint,
    event_list: *const cl_event,
) -> cl_int {
    guard(|| {
        // "CL_INVALID_VALUE if num_events is zero or event_list is NULL."
        if num_events == 0 || event_list.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        // "CL_INVALID_EVENT if event objects specified in event_list are not valid event objects."
        // SAFETY: `num_events` handles.
        let events = unsafe { get_list::<EventObj>(event_list, num_events) }?;
        // "CL_INVALID_CONTEXT if events specified in event_list do not belong to the same context."
        if events
            .iter()
            .any(|e| !Arc::ptr_eq(&e.context, &events[0].context))
        {
            return Err(CL_INVALID_CONTEXT);
        }
        let mut failed = false;
        for event in &events {
            failed |= event.state.wait() < COMPLETE;
        }
        // "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST if the execution status of any of the
        // events in event_list is a negative integer value."
        if failed {
            return Err(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        }
        Ok(())
    })
}

/// `clGetEventInfo` (API 5.11).
pub unsafe extern "C" fn clGetEventInfo(
    event: cl_event,
    param_name: cl_event_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    guard(|| {
        let e = Obj::<EventObj>::get(event)?;
        let value = match param_name {
            CL_EVENT_COMMAND_QUEUE => Ok(InfoValue::ptr(
                e.queue.as_ref().map_or(std::ptr::null_mut(), Obj::handle),
            )),
            CL_EVENT_CONTEXT => Ok(InfoValue::ptr(Obj::handle(&e.context))),
            CL_EVENT_COMMAND_TYPE => Ok(InfoValue::u32(e.command_type)),
            CL_EVENT_COMMAND_EXECUTION_STATUS => Ok(InfoValue::i32(e.state.status())),
            CL_EVENT_REFERENCE_COUNT => Ok(InfoValue::u32(e.ref_count())),
            _ => Err(CL_INVALID_VALUE),
        };
        // SAFETY: the caller's buffers.
        unsafe { answer(value, param_value_size, param_value, param_value_size_ret) }
    })
}

pub unsafe extern "C" fn clRetainEvent(event: cl_event) -> cl_int {
    // "CL_INVALID_EVENT if event is not a valid event object."
    Obj::<EventObj>::retain(event)
}

pub unsafe extern "C" fn clReleaseEvent(event: cl_event) -> cl_int {
    Obj::<EventObj>::release(event)
}

/// `clGetEventProfilingInfo` (API 5.14).
pub unsafe extern "C" fn clGetEventProfilingInfo(
    event: cl_event,
    param_name: cl_profiling_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    guard(|| {
        let e = Obj::<EventObj>::get(event)?;
        // "CL_PROFILING_INFO_NOT_AVAILABLE if the CL_QUEUE_PROFILING_ENABLE flag is not set for
        // the command-queue, if the execution status of the command identified by event is not
        // CL_COMPLETE or if event is a user event object."
        let profiling = e.queue.as_ref().is_some_and(|q| q.profiling());
        if !profiling || e.state.status() != COMPLETE {
            return Err(CL_PROFILING_INFO_NOT_AVAILABLE);
        }
        let times = e.state.profiling();
        let value = match param_name {
            CL_PROFILING_COMMAND_QUEUED => Ok(times.queued),
            CL_PROFILING_COMMAND_SUBMIT => Ok(times.submit),
            CL_PROFILING_COMMAND_START => Ok(times.start),
            // API 5.14: END is when the command finished, COMPLETE when it "and any child
            // commands enqueued by this command on the device have finished execution".
            CL_PROFILING_COMMAND_END => Ok(times.end),
            CL_PROFILING_COMMAND_COMPLETE => Ok(times.complete),
            // "CL_INVALID_VALUE if param_name is not valid".
            _ => Err(CL_INVALID_VALUE),
        };
        // SAFETY: the caller's buffers.
        unsafe {
            answer(
                value.map(InfoValue::u64),
                param_value_size,
                param_value,
                param_value_size_ret,
            )
        }
    })
}

/// `clCreateUserEvent` (API 5.11).
pub unsafe extern "C" fn clCreateUserEvent(
    context: cl_context,
    errcode_ret: *mut cl_int,
) -> cl_event {
    guard_create(errcode_ret, || {
        // "CL_INVALID_CONTEXT if context is not a valid context."
        let context = Obj::<ContextObj>::get(context)?;
        // "The execution status of the user event object created is set to CL_SUBMITTED."
        let state = EventState::new(SUBMITTED);
        Ok(Obj::into_handle(Obj::create(EventObj {
            context,
            queue: None,
            command_type: CL_COMMAND_USER,
            state,
        })))
    })
}

/// `clSetUserEventStatus` (API 5.11).
pub unsafe extern "C" fn clSetUserEventStatus(event: cl_event, execution_status: cl_int) -> cl_int {
    guard(|| {
        let e = Obj::<EventObj>::get(event)?;
        // "CL_INVALID_EVENT if event is not a valid user event object."
        if e.queue.is_some() {
            return Err(CL_INVALID_EVENT);
        }
        // "CL_INVALID_VALUE if the execution_status is not CL_COMPLETE or a negative integer value."
        if execution_status > COMPLETE {
            return Err(CL_INVALID_VALUE);
        }
        // "CL_INVALID_OPERATION if the execution_status for event has already been changed by a
        // previous call to clSetUserEventStatus."
        if !e.state.set_status(execution_status) {
            return Err(CL_INVALID_OPERATION);
        }
        Ok(())
    })
}

/// `clSetEventCallback` (API 5.11).
pub unsafe extern "C" fn clSetEventCallback(
    event: cl_event,
    command_exec_callback_type: cl_int,
    pfn_notify: EventCallback,
    user_data: *mut c_void,
) -> cl_int {
    guard(|| {
        let e = Obj::<EventObj>::get(event)?;
        // "CL_INVALID_VALUE if pfn_event_notify is NULL or if command_exec_callback_type is not
        // CL_SUBMITTED, CL_RUNNING, or CL_COMPLETE."
        let callback = pfn_notify.ok_or(CL_INVALID_VALUE)?;
        if ![SUBMITTED, RUNNING, COMPLETE].contains(&command_exec_callback_type) {
            return Err(CL_INVALID_VALUE);
        }
        let user_data = HostPtr(user_data);
        let keep = e.clone();
        e.state.on_status(
            command_exec_callback_type,
            Box::new(move |status| {
                let handle = Obj::handle(&keep);
                // API 5.11: the callback gets the status it was registered for, or the error.
                let reported = if status < COMPLETE {
                    status
                } else {
                    command_exec_callback_type
                };
                let data = user_data;
                // SAFETY: the application's callback with its own data.
                let _ = std::panic::catch_unwind(|| unsafe { callback(handle, reported, data.0) });
                drop(keep);
            }),
        );
        Ok(())
    })
}

/// Markers and barriers (API 5.12): "If event_wait_list is NULL, then this particular command
/// waits until all previous enqueued commands to command_queue have completed"; a barrier also
/// "blocks command execution, that is, any following commands enqueued after it do not execute
/// until it completes".
fn marker(
    queue: cl_command_queue,
    num_events: cl_uint,
    events: *const cl_event,
    event_out: *mut cl_event,
    command_type: cl_uint,
) -> crate::entry::ClResult<()> {
    // SAFETY: the caller's wait list.
    let (q, wait_for) = unsafe { begin(queue, num_events, events) }?;
    let kind = if command_type == CL_COMMAND_BARRIER {
        CommandKind::Barrier
    } else if wait_for.is_empty() {
        CommandKind::MarkerAll
    } else {
        CommandKind::Command
    };
    Command {
        queue: &q,
        command_type,
        wait_for,
        blocking: false,
        event_out,
        kind,
    }
    .submit(Box::new(|| Ok(())))
}

/// `clEnqueueMarkerWithWaitList` (API 5.12).
pub unsafe extern "C" fn clEnqueueMarkerWithWaitList(
    queue: cl_command_queue,
    num_events: cl_uint,
    events: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    guard(|| marker(queue, num_events, events, event, CL_COMMAND_MARKER))
}

/// `clEnqueueBarrierWithWaitList` (API 5.12).
pub unsafe extern "C" fn clEnqueueBarrierWithWaitList(
    queue: cl_command_queue,
    num_events: cl_uint,
    events: *const cl_event,
    event: *mut cl_event,
) -> cl_int {
    guard(|| marker(queue, num_events, events, event, CL_COMMAND_BARRIER))
}

/// `clEnqueueMarker` (1.1, deprecated).
pub unsafe extern "C" fn clEnqueueMarker(queue: cl_command_queue, event: *mut cl_event) -> cl_int {
    guard(|| {
        Obj::<QueueObj>::get(queue)?;
        // "CL_INVALID_VALUE if event is NULL."
        if event.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        marker(queue, 0, std::ptr::null(), event, CL_COMMAND_MARKER)
    })
}

/// `clEnqueueBarrier` (1.1, deprecated).
pub unsafe extern "C" fn clEnqueueBarrier(queue: cl_command_queue) -> cl_int {
    guard(|| {
        marker(
            queue,
            0,
            std::ptr::null(),
            std::ptr::null_mut(),
            CL_COMMAND_BARRIER,
        )
    })
}

/// `clEnqueueWaitForEvents` (1.1, deprecated).
pub unsafe extern "C" fn clEnqueueWaitForEvents(
    queue: cl_command_queue,
    num_events: cl_uint,
    event_list: *const cl_event,
) -> cl_int {
    guard(|| {
        Obj::<QueueObj>::get(queue)?;
        // "CL_INVALID_VALUE if num_events is 0 or event_list is NULL."
        if num_events == 0 || event_list.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        // SAFETY: `num_events` handles.
        unsafe { get_list::<EventObj>(event_list, num_events) }?;
        marker(
            queue,
            num_events,
            event_list,
            std::ptr::null_mut(),
            CL_COMMAND_BARRIER,
        )
    })
}
