//! Contexts: the device a set of objects belongs to.

use std::sync::Arc;

use crate::Device;

/// A context over the device (API 5.1 "Contexts"). Cheap to clone.
#[derive(Clone, Debug)]
pub struct Context {
    device: Arc<Device>,
    /// The live SVM allocations (`crate::svm`), shared by the clones.
    svm: Arc<crate::svm::SvmTable>,
    /// The device queues of the context (`device_queue`), shared by its clones.
    device_queues: crate::device_queue::SharedDeviceQueues,
}

impl Context {
    pub fn new(device: Arc<Device>) -> Context {
        Context {
            device,
            svm: Arc::default(),
            device_queues: Default::default(),
        }
    }

    pub(crate) fn device_queues(&self) -> &crate::device_queue::SharedDeviceQueues {
        &self.device_queues
    }

    pub fn device(&self) -> &Arc<Device> {
        &self.device
    }

    pub(crate) fn svm_table(&self) -> &crate::svm::SvmTable {
        &self.svm
    }
}
