//! The device library: OpenCL.std numerics, conversions, integer/common/geometric/relational
//! functions, in plain Rust. Numerics live here only: the interpreter, the JIT and the compiler's
//! constant folder all call this crate, so they agree by construction.
//!
//! - [`math`]: `math::{f64, f32, f16}` — every OpenCL.std math instruction plus the common and
//!   relational functions, same names in each module.
//! - [`geometric`]: dot, cross, length, distance, normalize (and `fast_*`) over slices.
//! - [`integer`]: the integer built-ins for every width, signed and unsigned.
//! - [`convert`]: scalar conversions with every rounding mode and saturation.
//! - [`ftz`]: flush-to-zero helpers.
//! - [`ulp`]: error in ulps against a reference (002 "Relative Error as ULPs").
//! - [`image`]: image formats, texel read/write conversions, sampler addressing and filtering.

pub mod convert;
pub mod float;
pub mod ftz;
pub mod geometric;
pub mod image;
pub mod image_access;
pub mod image_desc;
pub mod integer;
pub mod math;
pub mod ulp;

pub use float::Float;
pub use ftz::{ftz_f16, ftz_f32, ftz_f64};
