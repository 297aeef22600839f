//! Running ND-ranges of kir kernels: the `Engine` trait and the reference interpreter.
