//! Sampler objects (API 5.8): a sampler's properties and the 32-bit value a `sampler_t` kernel
//! argument carries.

pub use devlib::image::{AddressingMode, FilterMode};
pub use devlib::image_access::MipSampling;

use crate::{Error, Result};

/// A sampler (`clCreateSamplerWithProperties`), with the mip filter and lod clamps of
/// `cl_khr_mipmap_image` in `mip`.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sampler {
    pub normalized_coords: bool,
    pub addressing: AddressingMode,
    pub filter: FilterMode,
    /// `CL_SAMPLER_MIP_FILTER_MODE`, `CL_SAMPLER_LOD_MIN`, `CL_SAMPLER_LOD_MAX`.
    pub mip: MipSampling,
}

impl Default for Sampler {
    /// API 5.8.1: "CL_SAMPLER_NORMALIZED_COORDS ... default CL_TRUE", "CL_SAMPLER_ADDRESSING_MODE
    /// ... default CL_ADDRESS_CLAMP", "CL_SAMPLER_FILTER_MODE ... default CL_FILTER_NEAREST".
    fn default() -> Sampler {
        Sampler {
            normalized_coords: true,
            addressing: AddressingMode::Clamp,
            filter: FilterMode::Nearest,
            mip: MipSampling::default(),
        }
    }
}

impl Sampler {
    /// The value of a `sampler_t` argument: the bits of OpenCL C's sampler constants
    /// (`CLK_NORMALIZED_COORDS_TRUE` = 1, `CLK_ADDRESS_NONE` = 0, `_CLAMP_TO_EDGE` = 2,
    /// `_CLAMP` = 4, `_REPEAT` = 6, `_MIRRORED_REPEAT` = 8, `CLK_FILTER_NEAREST` = 0x10,
    /// `_LINEAR` = 0x20, as in clang's `opencl-c-base.h`), the encoding of `OpConstantSampler`
    /// literals the engines decode; the mip state takes the bits above (see
    /// [`MipSampling::encode`]: bit 0x40 the linear mip filter, bits 8.. the index of
    /// non-default lod clamps), which can fail only when a process uses 2^24 - 1 distinct clamp
    /// pairs.
    pub fn encode(&self) -> Result<u32> {
        let addressing = match self.addressing {
            AddressingMode::None => 0,
            AddressingMode::ClampToEdge => 2,
            AddressingMode::Clamp => 4,
            AddressingMode::Repeat => 6,
            AddressingMode::MirroredRepeat => 8,
        };
        let filter = match self.filter {
            FilterMode::Nearest => 0x10,
            FilterMode::Linear => 0x20,
        };
        let mip = self.mip.encode().map_err(Error::InvalidValue)?;
        Ok(u32::from(self.normalized_coords) | addressing | filter | mip)
    }

    /// The devlib sampler the engines use.
    pub fn to_devlib(&self) -> devlib::image::Sampler {
        devlib::image::Sampler {
            normalized_coords: self.normalized_coords,
            addressing: self.addressing,
            filter: self.filter,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding_matches_opencl_c_constants() {
        // CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR = 1 | 6 | 0x20.
        let s = Sampler {
            normalized_coords: true,
            addressing: AddressingMode::Repeat,
            filter: FilterMode::Linear,
            mip: MipSampling::default(),
        };
        assert_eq!(s.encode().unwrap(), 0x27);
        // CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST.
        let s = Sampler {
            normalized_coords: false,
            addressing: AddressingMode::ClampToEdge,
            filter: FilterMode::Nearest,
            mip: MipSampling::default(),
        };
        assert_eq!(s.encode().unwrap(), 0x12);
        assert_eq!(Sampler::default().encode().unwrap(), 0x15);
        let s = Sampler {
            addressing: AddressingMode::MirroredRepeat,
            ..Sampler::default()
        };
        assert_eq!(s.encode().unwrap(), 0x19);
        let s = Sampler {
            addressing: AddressingMode::None,
            ..Sampler::default()
        };
        assert_eq!(s.encode().unwrap(), 0x11);
        // The linear mip filter: bit 0x40 above the clang bits.
        let s = Sampler {
            mip: MipSampling {
                filter: FilterMode::Linear,
                ..MipSampling::default()
            },
            ..Sampler::default()
        };
        assert_eq!(s.encode().unwrap(), 0x55);
    }
}
