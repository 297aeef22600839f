//! The one table of OpenCL C built-in function families and their SPIR-V mappings.
