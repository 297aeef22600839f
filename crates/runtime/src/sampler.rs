//! Sampler objects (API 5.8): a sampler's properties and the 32-bit value a `sampler_t` kernel
//! argument carries.

pub use devlib::image::{AddressingMode, FilterMode};

/// A sampler (`clCreateSamplerWithProperties`). Mipmapped reads take the nearest level of an
/// explicit lod (the `CL_FILTER_NEAREST` mip filter); linear mip filtering and the lod clamps of
/// `cl_khr_mipmap_image` are not supported.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Sampler {
    pub normalized_coords: bool,
    pub addressing: AddressingMode,
    pub filter: FilterMode,
}

impl Default for Sampler {
    /// API 5.8.1: "CL_SAMPLER_NORMALIZED_COORDS ... default CL_TRUE", "CL_SAMPLER_ADDRESSING_MODE
    /// ... default CL_ADDRESS_CLAMP", "CL_SAMPLER_FILTER_MODE ... default CL_FILTER_NEAREST".
    fn default() -> Sampler {
        Sampler {
            normalized_coords: true,
            addressing: AddressingMode::Clamp,
            filter: FilterMode::Nearest,
        }
    }
}

impl Sampler {
    /// The value of a `sampler_t` argument: the bits of OpenCL C's sampler constants
    /// (`CLK_NORMALIZED_COORDS_TRUE` = 1, `CLK_ADDRESS_NONE` = 0, `_CLAMP_TO_EDGE` = 2,
    /// `_CLAMP` = 4, `_REPEAT` = 6, `_MIRRORED_REPEAT` = 8, `CLK_FILTER_NEAREST` = 0x10,
    /// `_LINEAR` = 0x20, as in clang's `opencl-c-base.h`), the encoding of `OpConstantSampler`
    /// literals the engines decode.
    pub fn encode(&self) -> u32 {
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
        u32::from(self.normalized_coords) | addressing | filter
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
        };
        assert_eq!(s.encode(), 0x27);
        // CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST.
        let s = Sampler {
            normalized_coords: false,
            addressing: AddressingMode::ClampToEdge,
            filter: FilterMode::Nearest,
        };
        assert_eq!(s.encode(), 0x12);
        assert_eq!(Sampler::default().encode(), 0x15);
        let s = Sampler {
            addressing: AddressingMode::MirroredRepeat,
            ..Sampler::default()
        };
        assert_eq!(s.encode(), 0x19);
        let s = Sampler {
            addressing: AddressingMode::None,
            ..Sampler::default()
        };
        assert_eq!(s.encode(), 0x11);
    }
}
