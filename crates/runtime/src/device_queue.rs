//! On-device command queues (API 5.1 `CL_QUEUE_ON_DEVICE`, `CL_QUEUE_ON_DEVICE_DEFAULT`,
//! `CL_QUEUE_SIZE`, `clSetDefaultDeviceCommandQueue`) and the device's device-side enqueue
//! limits (API 4.2).
//!
//! A [`DeviceQueue`] is the target of `enqueue_kernel` in kernels: the host never enqueues into
//! it. A context has at most one default device queue per device ([`Context`]); every kernel
//! launch of the context gets it as the launch's `exec::enqueue::DeviceQueueConfig`, so kernels
//! enqueue children into it and the launch (with its host event) completes after them. The
//! device allows [`MAX_ON_DEVICE_QUEUES`] live device queues per context.

use std::sync::{Arc, Mutex, Weak};

use crate::{Context, Device, Error, Result};

/// `CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE` in bytes.
pub const QUEUE_ON_DEVICE_PREFERRED_SIZE: u32 = 16 * 1024;
/// `CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE` in bytes.
pub const QUEUE_ON_DEVICE_MAX_SIZE: u32 = 256 * 1024;
/// `CL_DEVICE_MAX_ON_DEVICE_QUEUES`.
pub const MAX_ON_DEVICE_QUEUES: u32 = 1;
/// `CL_DEVICE_MAX_ON_DEVICE_EVENTS`.
pub const MAX_ON_DEVICE_EVENTS: u32 = 1024;

impl Device {
    /// Device-side enqueue runs on both engines (`exec::enqueue`): the
    /// `__opencl_c_device_enqueue` feature is claimed with it.
    pub fn device_enqueue(&self) -> bool {
        self.features
            .iter()
            .any(|f| f == "__opencl_c_device_enqueue")
    }
}

/// An on-device command queue.
#[derive(Debug)]
pub struct DeviceQueue {
    size: u32,
    max_work_group_size: usize,
}

impl DeviceQueue {
    /// A device queue of `size` bytes (`CL_QUEUE_SIZE`; the preferred size when `None`) in
    /// `context`; with `make_default`, the context's default device queue.
    pub fn new(
        context: &Context,
        size: Option<u32>,
        make_default: bool,
    ) -> Result<Arc<DeviceQueue>> {
        let device = context.device();
        if !device.device_enqueue() {
            return Err(Error::InvalidOperation(
                "the device does not support device-side enqueue".into(),
            ));
        }
        let size = size.unwrap_or(QUEUE_ON_DEVICE_PREFERRED_SIZE);
        // API 5.1: CL_QUEUE_SIZE "must be a value <= CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE".
        if size == 0 || size > QUEUE_ON_DEVICE_MAX_SIZE {
            return Err(Error::InvalidValue(format!(
                "CL_QUEUE_SIZE {size} is not in 1..={QUEUE_ON_DEVICE_MAX_SIZE}"
            )));
        }
        let mut queues = context
            .device_queues()
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        queues.live.retain(|q| q.strong_count() > 0);
        // API 5.1: with CL_QUEUE_ON_DEVICE_DEFAULT an existing default device queue is
        // returned (OpenCL 2.1 and newer).
        if make_default {
            if let Some(existing) = queues.default.as_ref().and_then(Weak::upgrade) {
                return Ok(existing);
            }
        }
        if queues.live.len() >= MAX_ON_DEVICE_QUEUES as usize {
            return Err(Error::OutOfResources(format!(
                "at most {MAX_ON_DEVICE_QUEUES} device queue(s) per context"
            )));
        }
        let queue = Arc::new(DeviceQueue {
            size,
            max_work_group_size: device.max_work_group_size,
        });
        queues.live.push(Arc::downgrade(&queue));
        if make_default {
            queues.default = Some(Arc::downgrade(&queue));
        }
        Ok(queue)
    }

    /// `CL_QUEUE_SIZE`.
    pub fn size(&self) -> u32 {
        self.size
    }

    /// What a kernel launch passes to the engine.
    pub fn exec_config(&self) -> exec::enqueue::DeviceQueueConfig {
        exec::enqueue::DeviceQueueConfig {
            size: self.size,
            max_events: MAX_ON_DEVICE_EVENTS,
            max_work_group_size: self.max_work_group_size as u64,
        }
    }
}

/// The device queues of a context.
#[derive(Debug, Default)]
pub(crate) struct DeviceQueues {
    default: Option<Weak<DeviceQueue>>,
    live: Vec<Weak<DeviceQueue>>,
}

impl Context {
    /// The default device queue, while it is alive.
    pub fn default_device_queue(&self) -> Option<Arc<DeviceQueue>> {
        let queues = self
            .device_queues()
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        queues.default.as_ref().and_then(Weak::upgrade)
    }

    /// `clSetDefaultDeviceCommandQueue`: makes `queue` the default device queue.
    pub fn set_default_device_queue(&self, queue: &Arc<DeviceQueue>) {
        let mut queues = self
            .device_queues()
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        queues.default = Some(Arc::downgrade(queue));
    }
}

pub(crate) type SharedDeviceQueues = Arc<Mutex<DeviceQueues>>;
