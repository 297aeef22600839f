//! The device library: OpenCL.std numerics, conversions, integer/common/geometric/relational functions.
