//! Contexts: the device a set of objects belongs to.

use std::sync::Arc;

use crate::Device;

/// A context over the device (API 5.1 "Contexts"). Cheap to clone.
#[derive(Clone, Debug)]
pub struct Context {
    device: Arc<Device>,
}

impl Context {
    pub fn new(device: Arc<Device>) -> Context {
        Context { device }
    }

    pub fn device(&self) -> &Arc<Device> {
        &self.device
    }
}
