//! Host objects of OpenCL in idiomatic Rust: platform, device, context, buffers, programs, kernels, queues.
