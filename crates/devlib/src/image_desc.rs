//! The shape and memory layout of one image memory object (OpenCL API spec §5.3.1.2 "Image
//! Descriptor": `cl_image_desc`), shared by the host runtime, which allocates and copies images,
//! and the engines, which read and write texels during a launch.
//!
//! Layout: mip level 0 starts at byte 0 with the descriptor's row and slice pitches; texel
//! `(x, y, z)` of level 0 is at `z * slice_pitch + y * row_pitch + x * element_size`, where `z` is
//! the depth slice of a 3D image or the layer of a 2D array, and `y` the layer of a 1D array
//! (API §5.3.1.2: the slice pitch of a 1D array is the size of one layer). Levels 1.. of a
//! mipmapped image (cl_khr_mipmap_image) follow, each tightly packed, level by level.

use crate::image::ImageFormat;

/// `cl_mem_object_type` of an image.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImageType {
    Image1D,
    Image1DBuffer,
    Image1DArray,
    Image2D,
    Image2DArray,
    Image3D,
}

impl ImageType {
    /// Number of coordinates addressing a texel inside one layer (1, 2 or 3).
    pub fn dims(self) -> usize {
        match self {
            ImageType::Image1D | ImageType::Image1DBuffer | ImageType::Image1DArray => 1,
            ImageType::Image2D | ImageType::Image2DArray => 2,
            ImageType::Image3D => 3,
        }
    }

    pub fn is_array(self) -> bool {
        matches!(self, ImageType::Image1DArray | ImageType::Image2DArray)
    }
}

/// An image's type, format, size and pitches. Sizes of unused dimensions are 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ImageDesc {
    pub image_type: ImageType,
    pub format: ImageFormat,
    pub width: usize,
    /// 1 for 1D images and 1D arrays.
    pub height: usize,
    /// 1 unless 3D.
    pub depth: usize,
    /// Layers of an array image; 1 otherwise.
    pub array_size: usize,
    /// Bytes between rows of level 0 (≥ width × element size).
    pub row_pitch: usize,
    /// Bytes between slices (3D) or layers (arrays) of level 0; for 1D and 2D images the size of
    /// the one slice.
    pub slice_pitch: usize,
    /// Mip levels (≥ 1; 1 when not mipmapped).
    pub mip_levels: u32,
}

impl ImageDesc {
    /// A tightly packed image with one mip level. `height`/`depth`/`array_size` of unused
    /// dimensions should be 1.
    pub fn packed(
        image_type: ImageType,
        format: ImageFormat,
        width: usize,
        height: usize,
        depth: usize,
        array_size: usize,
    ) -> ImageDesc {
        let row_pitch = width * format.element_size();
        let rows = if image_type == ImageType::Image1DArray {
            1
        } else {
            height
        };
        ImageDesc {
            image_type,
            format,
            width,
            height,
            depth,
            array_size,
            row_pitch,
            slice_pitch: row_pitch * rows,
            mip_levels: 1,
        }
    }

    /// Slices (3D depth) or layers (arrays) of level 0, 1 otherwise.
    fn slices(&self) -> usize {
        match self.image_type {
            ImageType::Image3D => self.depth,
            ImageType::Image1DArray | ImageType::Image2DArray => self.array_size,
            _ => 1,
        }
    }

    /// Width, height and depth of mip `level` (each halved per level, at least 1; layers are
    /// not reduced).
    pub fn level_size(&self, level: u32) -> [usize; 3] {
        let shrink = |n: usize| (n >> level.min(63)).max(1);
        let height = if self.image_type.dims() >= 2 {
            shrink(self.height)
        } else {
            self.height
        };
        let depth = if self.image_type == ImageType::Image3D {
            shrink(self.depth)
        } else {
            self.depth
        };
        [shrink(self.width), height, depth]
    }

    /// Byte offset and (row pitch, slice pitch) of mip `level`.
    pub fn level_layout(&self, level: u32) -> (usize, usize, usize) {
        let mut offset = self.slice_pitch * self.slices();
        if level == 0 {
            return (0, self.row_pitch, self.slice_pitch);
        }
        let es = self.format.element_size();
        for l in 1..=level {
            let [w, h, d] = self.level_size(l);
            let row = w * es;
            let slice = if self.image_type == ImageType::Image1DArray {
                row
            } else {
                row * h
            };
            if l == level {
                return (offset, row, slice);
            }
            let slices = match self.image_type {
                ImageType::Image3D => d,
                ImageType::Image1DArray | ImageType::Image2DArray => self.array_size,
                _ => 1,
            };
            offset += slice * slices;
        }
        (offset, self.row_pitch, self.slice_pitch)
    }

    /// Bytes of memory the image occupies, all mip levels included.
    pub fn byte_len(&self) -> usize {
        let (offset, _, slice) = self.level_layout(self.mip_levels.saturating_sub(1));
        let slices = match self.image_type {
            ImageType::Image3D => self.level_size(self.mip_levels.saturating_sub(1))[2],
            ImageType::Image1DArray | ImageType::Image2DArray => self.array_size,
            _ => 1,
        };
        offset + slice * slices
    }

    /// Byte offset of the texel at `x` and `y`, and `z` (3D slice or array layer; for a 1D
    /// array the layer is `y`), in mip `level`; `None` outside the image.
    pub fn texel_offset(&self, level: u32, x: usize, y: usize, z: usize) -> Option<usize> {
        if level >= self.mip_levels {
            return None;
        }
        let [w, h, d] = self.level_size(level);
        let (rows, slices) = match self.image_type {
            ImageType::Image1D | ImageType::Image1DBuffer => (1, 1),
            ImageType::Image1DArray => (self.array_size, 1),
            ImageType::Image2D => (h, 1),
            ImageType::Image2DArray => (h, self.array_size),
            ImageType::Image3D => (h, d),
        };
        if x >= w || y >= rows || z >= slices {
            return None;
        }
        let (base, row_pitch, slice_pitch) = self.level_layout(level);
        let row_step = if self.image_type == ImageType::Image1DArray {
            slice_pitch
        } else {
            row_pitch
        };
        Some(base + z * slice_pitch + y * row_step + x * self.format.element_size())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::image::{ChannelOrder, ChannelType};

    fn rgba8() -> ImageFormat {
        ImageFormat::new(ChannelOrder::RGBA, ChannelType::UnormInt8).unwrap()
    }

    #[test]
    fn packed_2d_offsets_by_hand() {
        let d = ImageDesc::packed(ImageType::Image2D, rgba8(), 5, 3, 1, 1);
        assert_eq!(d.row_pitch, 20);
        assert_eq!(d.byte_len(), 60);
        assert_eq!(d.texel_offset(0, 4, 2, 0), Some(2 * 20 + 16));
        assert_eq!(d.texel_offset(0, 5, 0, 0), None);
        assert_eq!(d.texel_offset(0, 0, 3, 0), None);
    }

    #[test]
    fn array_1d_layer_is_y() {
        let d = ImageDesc::packed(ImageType::Image1DArray, rgba8(), 4, 1, 1, 3);
        assert_eq!(d.slice_pitch, 16);
        assert_eq!(d.texel_offset(0, 1, 2, 0), Some(2 * 16 + 4));
        assert_eq!(d.byte_len(), 48);
    }

    #[test]
    fn mip_levels_follow_level_zero() {
        let mut d = ImageDesc::packed(ImageType::Image2D, rgba8(), 8, 4, 1, 1);
        d.mip_levels = 4; // 8x4, 4x2, 2x1, 1x1
        assert_eq!(d.level_size(3), [1, 1, 1]);
        assert_eq!(d.level_layout(1), (128, 16, 32));
        assert_eq!(d.level_layout(2), (160, 8, 8));
        assert_eq!(d.level_layout(3), (168, 4, 4));
        assert_eq!(d.byte_len(), 172);
        assert_eq!(d.texel_offset(2, 1, 0, 0), Some(164));
    }
}
