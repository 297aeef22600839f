//! Contexts: the device a set of objects belongs to.

use std::sync::Arc;

use crate::Device;

/// A context over the device (API 5.1 "Contexts"). Cheap to clone.
#[derive(Clone, Debug)]
pub struct Context {
    device: Arc<Device>,
    /// The device queues of the context (`device_queue`), shared by its clones.
    device_queues: crate::device_queue::SharedDeviceQueues,
}

impl Context {
    pub fn new(device: Arc<Device>) -> Context {
        Context {
            device,
            device_queues: Default::default(),
        }
    }

    pub(crate) fn device_queues(&self) -> &crate::device_queue::SharedDeviceQueues {
        &self.device_queues
    }

    pub fn device(&self) -> &Arc<Device> {
        &self.device
    }
}
