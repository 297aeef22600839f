//! Image memory objects (API 5.3): creation of every image type, the supported-format list, and
//! the image commands (read, write, copy, fill, copies to and from buffers, map).
//!
//! An image's memory is a [`Buffer`] (so kernels lock it like any buffer) laid out as its
//! [`ImageDesc`] says: level 0 at byte 0, texel `(x, y, z)` at `z * slice_pitch + y * row_pitch +
//! x * element_size` (for a 1D array, the layer `y` at `y * slice_pitch`). A 1D image buffer and a
//! 2D image created from a buffer share that buffer's memory.

use std::sync::Arc;

use devlib::image::{ChannelOrder, ChannelType, ImageFormat, Texel};
use devlib::image_desc::{ImageDesc, ImageType};

use crate::{Buffer, Context, Device, Error, MemFlags, Result};

/// How kernels may access an image: the access flags of `clGetSupportedImageFormats` (API 5.3.2)
/// and of image creation.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ImageAccess {
    /// `CL_MEM_READ_WRITE` (the default): `read_only` or `write_only` in any one kernel.
    ReadWrite,
    /// `CL_MEM_READ_ONLY`.
    ReadOnly,
    /// `CL_MEM_WRITE_ONLY`.
    WriteOnly,
    /// `CL_MEM_KERNEL_READ_AND_WRITE`: `read_write` image arguments.
    KernelReadAndWrite,
}

/// Every channel order, in `cl.xml` value order.
const ORDERS: [ChannelOrder; 19] = [
    ChannelOrder::R,
    ChannelOrder::A,
    ChannelOrder::RG,
    ChannelOrder::RA,
    ChannelOrder::RGB,
    ChannelOrder::RGBA,
    ChannelOrder::BGRA,
    ChannelOrder::ARGB,
    ChannelOrder::Intensity,
    ChannelOrder::Luminance,
    ChannelOrder::Rx,
    ChannelOrder::RGx,
    ChannelOrder::RGBx,
    ChannelOrder::Depth,
    ChannelOrder::SRGB,
    ChannelOrder::SRGBx,
    ChannelOrder::SRGBA,
    ChannelOrder::SBGRA,
    ChannelOrder::ABGR,
];

/// Every channel data type, in `cl.xml` value order.
const TYPES: [ChannelType; 16] = [
    ChannelType::SnormInt8,
    ChannelType::SnormInt16,
    ChannelType::UnormInt8,
    ChannelType::UnormInt16,
    ChannelType::UnormShort565,
    ChannelType::UnormShort555,
    ChannelType::UnormInt101010,
    ChannelType::SignedInt8,
    ChannelType::SignedInt16,
    ChannelType::SignedInt32,
    ChannelType::UnsignedInt8,
    ChannelType::UnsignedInt16,
    ChannelType::UnsignedInt32,
    ChannelType::HalfFloat,
    ChannelType::Float,
    ChannelType::UnormInt101010_2,
];

/// Is `format` supported for images of `image_type` accessed as `access`?
///
/// Every combination `devlib` converts is supported, except: depth images are 2D images and 2D
/// arrays only (`cl_khr_depth_images`: "CL_DEPTH ... for 2D images and 2D image arrays"), and
/// sRGB images are read-only (writing them needs `cl_khr_srgb_image_writes`, not claimed).
pub fn format_supported(format: &ImageFormat, image_type: ImageType, access: ImageAccess) -> bool {
    let order = format.order();
    if order == ChannelOrder::Depth
        && !matches!(image_type, ImageType::Image2D | ImageType::Image2DArray)
    {
        return false;
    }
    let srgb = matches!(
        order,
        ChannelOrder::SRGB | ChannelOrder::SRGBx | ChannelOrder::SRGBA | ChannelOrder::SBGRA
    );
    !(srgb && access != ImageAccess::ReadOnly)
}

/// `clGetSupportedImageFormats` (API 5.3.2): the formats supported for `image_type` and
/// `access`, in `cl.xml` order of channel order, then channel type.
pub fn supported_formats(image_type: ImageType, access: ImageAccess) -> Vec<ImageFormat> {
    ORDERS
        .iter()
        .flat_map(|&order| TYPES.iter().map(move |&ty| (order, ty)))
        .filter_map(|(order, ty)| ImageFormat::new(order, ty).ok())
        .filter(|f| format_supported(f, image_type, access))
        .collect()
}

/// The size of an image to create (API 5.3.1.2 `cl_image_desc`, with the unused sizes 1).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ImageShape {
    pub image_type: ImageType,
    pub width: usize,
    pub height: usize,
    pub depth: usize,
    pub array_size: usize,
}

impl ImageShape {
    /// API 5.3.1: "CL_INVALID_IMAGE_SIZE if image dimensions specified in image_desc exceed the
    /// maximum image dimensions described in the Device Queries table" (and a size of 0).
    pub fn check(&self, device: &Device) -> Result<()> {
        let l = &device.image_limits;
        let (max_w, max_h, max_d, check_h, check_d, check_a) = match self.image_type {
            ImageType::Image1D => (l.image2d_max_width, 0, 0, false, false, false),
            ImageType::Image1DBuffer => (l.image_max_buffer_size, 0, 0, false, false, false),
            ImageType::Image1DArray => (l.image2d_max_width, 0, 0, false, false, true),
            ImageType::Image2D => (
                l.image2d_max_width,
                l.image2d_max_height,
                0,
                true,
                false,
                false,
            ),
            ImageType::Image2DArray => (
                l.image2d_max_width,
                l.image2d_max_height,
                0,
                true,
                false,
                true,
            ),
            ImageType::Image3D => (
                l.image3d_max_width,
                l.image3d_max_height,
                l.image3d_max_depth,
                true,
                true,
                false,
            ),
        };
        let bad = |what: &str, v: usize, max: usize| {
            Err(Error::InvalidImageSize(format!(
                "{what} {v} of a {:?} (must be 1 to {max})",
                self.image_type
            )))
        };
        if self.width == 0 || self.width > max_w {
            return bad("width", self.width, max_w);
        }
        if check_h && (self.height == 0 || self.height > max_h) {
            return bad("height", self.height, max_h);
        }
        if check_d && (self.depth == 0 || self.depth > max_d) {
            return bad("depth", self.depth, max_d);
        }
        if check_a && (self.array_size == 0 || self.array_size > l.image_max_array_size) {
            return bad("array size", self.array_size, l.image_max_array_size);
        }
        Ok(())
    }

    /// The sizes with the unused dimensions set to 1.
    fn normalized(self) -> ImageShape {
        let t = self.image_type;
        ImageShape {
            image_type: t,
            width: self.width,
            height: if t.dims() >= 2 { self.height } else { 1 },
            depth: if t == ImageType::Image3D {
                self.depth
            } else {
                1
            },
            array_size: if t.is_array() { self.array_size } else { 1 },
        }
    }

    /// Rows per slice or layer: 1 for 1D images and 1D arrays.
    fn rows(&self) -> usize {
        if self.image_type.dims() >= 2 {
            self.height
        } else {
            1
        }
    }
}

/// The `origin` of an image command as cl_khr_mipmap_image reads it (API 5.3 "Specifying
/// Mipmap Levels to Image Operations"): the texel coordinates, then the mip level of a
/// mipmapped image in the first coordinate the image type leaves unused ("If image is a 1D
/// image, origin[1] specifies the mip level to use"; origin[2] for a 1D image array or a 2D
/// image; "If image is a 2D image array or a 3D image, origin[3] specifies the mip level").
/// A 3-element origin converts with `origin[3] = 0`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct ImageOrigin(pub [usize; 4]);

impl From<[usize; 3]> for ImageOrigin {
    fn from(o: [usize; 3]) -> ImageOrigin {
        ImageOrigin([o[0], o[1], o[2], 0])
    }
}

impl From<[usize; 4]> for ImageOrigin {
    fn from(o: [usize; 4]) -> ImageOrigin {
        ImageOrigin(o)
    }
}

impl ImageOrigin {
    /// The origin of mip `level` at texel `at` of an image of `image_type` (the level in the
    /// element [`ImageOrigin`] describes; 1D image buffers have no levels).
    pub fn at_level(image_type: ImageType, at: [usize; 3], level: usize) -> ImageOrigin {
        let mut o = [at[0], at[1], at[2], 0];
        o[level_slot(image_type)] = level;
        ImageOrigin(o)
    }
}

/// The element of an origin that names the mip level of a mipmapped image of `image_type`.
fn level_slot(image_type: ImageType) -> usize {
    match image_type {
        ImageType::Image1D | ImageType::Image1DBuffer => 1,
        ImageType::Image1DArray | ImageType::Image2D => 2,
        ImageType::Image2DArray | ImageType::Image3D => 3,
    }
}

/// Pitches of a host memory region holding image data (`image_row_pitch`/`image_slice_pitch`
/// of `cl_image_desc`, `row_pitch`/`slice_pitch` of the image commands): 0 means tightly packed.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct HostPitches {
    pub row_pitch: usize,
    pub slice_pitch: usize,
}

/// A host region's resolved layout for `region` of an image of `image_type` with elements of
/// `element_size` bytes: (row pitch, slice pitch), checked as API 5.3.1.2 and 5.3.3 say.
fn resolve_pitches(
    image_type: ImageType,
    element_size: usize,
    region: [usize; 3],
    pitches: HostPitches,
) -> Result<(usize, usize)> {
    let min_row = region[0].saturating_mul(element_size);
    let row = if pitches.row_pitch == 0 {
        min_row
    } else {
        pitches.row_pitch
    };
    // "This value must be greater than or equal to the element size in bytes × width."
    if row < min_row {
        return Err(Error::InvalidValue(format!(
            "row pitch {row} is less than {min_row} (element size × width)"
        )));
    }
    // Rows per slice: a 1D array's slice is one layer (one row).
    let rows = if image_type == ImageType::Image1DArray {
        1
    } else {
        region[1]
    };
    let min_slice = row.saturating_mul(rows);
    let has_slices = matches!(
        image_type,
        ImageType::Image3D | ImageType::Image1DArray | ImageType::Image2DArray
    );
    // "slice_pitch ... must be 0 if image is a 1D or 2D image."
    if !has_slices && pitches.slice_pitch != 0 {
        return Err(Error::InvalidValue(format!(
            "slice pitch {} given for a {image_type:?} (must be 0)",
            pitches.slice_pitch
        )));
    }
    let slice = if pitches.slice_pitch == 0 {
        min_slice
    } else {
        pitches.slice_pitch
    };
    if slice < min_slice {
        return Err(Error::InvalidValue(format!(
            "slice pitch {slice} is less than {min_slice} (row pitch × height)"
        )));
    }
    Ok((row, slice))
}

/// The byte offset of row `y` of slice `z` in a host region with these pitches (for a 1D array,
/// `y` is the layer).
fn host_row_offset(image_type: ImageType, row: usize, slice: usize, y: usize, z: usize) -> usize {
    if image_type == ImageType::Image1DArray {
        y * slice
    } else {
        z * slice + y * row
    }
}

/// Bytes a host region of `region` with resolved pitches spans.
fn host_extent(image_type: ImageType, es: usize, row: usize, slice: usize, r: [usize; 3]) -> usize {
    if r.contains(&0) {
        return 0;
    }
    host_row_offset(image_type, row, slice, r[1] - 1, r[2] - 1) + r[0] * es
}

/// The data an image starts with.
pub enum ImageSource<'a> {
    /// Zero-filled.
    Zeroed,
    /// `CL_MEM_COPY_HOST_PTR`: a copy of host data laid out with these pitches.
    Copy(&'a [u8], HostPitches),
    /// `CL_MEM_USE_HOST_PTR`: the application's memory, laid out with these pitches, is the
    /// image's memory.
    ///
    /// Safety contract (of the unsafe constructor taking it): the pointer is valid for the
    /// image's size for as long as the image lives.
    UseHostPtr(*mut u8, HostPitches),
    /// A 1D image buffer or a 2D image from a buffer (API 5.3.1.2 `mem_object`): the buffer's
    /// memory with this row pitch (0: packed).
    Buffer(&'a Buffer, usize),
    /// A 2D image viewing another 2D image's texels with a compatible channel order (API 5.3.1:
    /// "Creating a 2D image object from another 2D image object creates a new 2D image object
    /// that shares the image data store with mem_object but views the pixels in the image with
    /// a different image channel order").
    Image(&'a Image),
}

/// API 5.3.1 "Compatible Image Channel Orders": sRGB and linear views of the same texels, and
/// `CL_DEPTH` over `CL_R` (an order is compatible with itself too).
fn compatible_orders(view: ChannelOrder, stored: ChannelOrder) -> bool {
    use ChannelOrder::*;
    view == stored
        || matches!(
            (view, stored),
            (SBGRA, BGRA)
                | (BGRA, SBGRA)
                | (SRGBA, RGBA)
                | (RGBA, SRGBA)
                | (SRGB, RGB)
                | (RGB, SRGB)
                | (SRGBx, RGBx)
                | (RGBx, SRGBx)
                | (Depth, R)
        )
}

/// An image. Clones share the image.
#[derive(Clone)]
pub struct Image {
    inner: Arc<ImageInner>,
}

struct ImageInner {
    storage: Buffer,
    desc: ImageDesc,
    access: ImageAccess,
    /// The buffer a 1D image buffer or 2D image was created from.
    buffer: Option<Buffer>,
}

impl std::fmt::Debug for Image {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Image")
            .field("desc", &self.inner.desc)
            .finish()
    }
}

/// The `MemFlags` of an access.
fn mem_flags(access: ImageAccess) -> MemFlags {
    MemFlags {
        read_only: access == ImageAccess::ReadOnly,
        write_only: access == ImageAccess::WriteOnly,
    }
}

impl Image {
    /// A zero-filled image or one initialised with a copy of host data (`clCreateImage` without
    /// `CL_MEM_USE_HOST_PTR`), or a view of a buffer.
    pub fn new(
        context: &Context,
        access: ImageAccess,
        format: ImageFormat,
        shape: ImageShape,
        source: ImageSource<'_>,
    ) -> Result<Image> {
        if let ImageSource::UseHostPtr(..) = source {
            return Err(Error::InvalidValue(
                "a host pointer image must be created with Image::use_host_ptr".into(),
            ));
        }
        // SAFETY: not a `UseHostPtr` source (checked).
        unsafe { Image::create(context, access, format, shape, source) }
    }

    /// `CL_MEM_USE_HOST_PTR`: an image whose memory is the application's.
    ///
    /// # Safety
    /// `ptr` must be valid for reads and writes of the image's size (rows and slices of the given
    /// pitches) for as long as any clone of the image lives.
    pub unsafe fn use_host_ptr(
        context: &Context,
        access: ImageAccess,
        format: ImageFormat,
        shape: ImageShape,
        ptr: *mut u8,
        pitches: HostPitches,
    ) -> Result<Image> {
        // SAFETY: the caller's promise.
        unsafe {
            Image::create(
                context,
                access,
                format,
                shape,
                ImageSource::UseHostPtr(ptr, pitches),
            )
        }
    }

    /// `cl_khr_mipmap_image`: a zero-filled image with `mip_levels` mip levels (API 5.3.1.2
    /// "Mipmap Images": the host pointer must be NULL, so the image starts zeroed; 1 level is
    /// an ordinary image). Level `l` is `max(1, size >> l)` in each dimension; the memory holds
    /// every level as [`ImageDesc::level_layout`] says.
    pub fn new_mipmapped(
        context: &Context,
        access: ImageAccess,
        format: ImageFormat,
        shape: ImageShape,
        mip_levels: u32,
    ) -> Result<Image> {
        let image = Image::new(context, access, format, shape, ImageSource::Zeroed)?;
        if mip_levels <= 1 {
            return Ok(image);
        }
        let d = *image.desc();
        // "Mip-mapped images cannot be created for CL_MEM_OBJECT_IMAGE1D_BUFFER images, depth
        // images or multi-sampled (i.e. msaa) images."
        if d.image_type == ImageType::Image1DBuffer || format.order() == ChannelOrder::Depth {
            return Err(Error::InvalidImageDescriptor(format!(
                "a {:?} of {:?} cannot be mipmapped",
                d.image_type,
                format.order()
            )));
        }
        // Each level halves the largest dimension: at most log2(max dimension) + 1 levels.
        let largest = match d.image_type {
            ImageType::Image3D => d.width.max(d.height).max(d.depth),
            ImageType::Image2D | ImageType::Image2DArray => d.width.max(d.height),
            _ => d.width,
        };
        let max_levels = usize::BITS - largest.leading_zeros();
        if mip_levels > max_levels {
            return Err(Error::InvalidImageDescriptor(format!(
                "{mip_levels} mip levels for a largest dimension of {largest} (at most {max_levels})"
            )));
        }
        let mut desc = d;
        desc.mip_levels = mip_levels;
        let storage = Buffer::new(context, mem_flags(access), desc.byte_len())?;
        Ok(Image {
            inner: Arc::new(ImageInner {
                storage,
                desc,
                access,
                buffer: None,
            }),
        })
    }

    /// `CL_IMAGE_NUM_MIP_LEVELS`: 0 for an image that is not mipmapped.
    pub fn mip_levels(&self) -> u32 {
        if self.inner.desc.mip_levels > 1 {
            self.inner.desc.mip_levels
        } else {
            0
        }
    }

    unsafe fn create(
        context: &Context,
        access: ImageAccess,
        format: ImageFormat,
        shape: ImageShape,
        source: ImageSource<'_>,
    ) -> Result<Image> {
        let device = context.device();
        // API 5.3.1: "CL_INVALID_OPERATION if there are no devices in context that support
        // images (CL_DEVICE_IMAGE_SUPPORT ... is CL_FALSE)."
        if !device.image_support {
            return Err(Error::InvalidOperation(
                "the device does not support images (CL_DEVICE_IMAGE_SUPPORT is CL_FALSE)".into(),
            ));
        }
        let shape = shape.normalized();
        if let ImageSource::Image(stored) = source {
            return Image::view(stored, access, format, shape);
        }
        let is_buffer_image = matches!(source, ImageSource::Buffer(..));
        // API 5.3.1.2: mem_object "can be a buffer memory object if image_type is
        // CL_MEM_OBJECT_IMAGE1D_BUFFER or CL_MEM_OBJECT_IMAGE2D"; a 1D image buffer needs one.
        if (shape.image_type == ImageType::Image1DBuffer) != is_buffer_image
            && !(is_buffer_image && shape.image_type == ImageType::Image2D)
        {
            return Err(Error::InvalidImageDescriptor(format!(
                "a {:?} {} a buffer",
                shape.image_type,
                if is_buffer_image {
                    "cannot be created from"
                } else {
                    "must be created from"
                }
            )));
        }
        shape.check(device)?;
        // "CL_IMAGE_FORMAT_NOT_SUPPORTED if the image_format is not supported."
        if !format_supported(&format, shape.image_type, access) {
            return Err(Error::ImageFormatNotSupported(format!(
                "{:?}/{:?} for a {:?} with {access:?} access",
                format.order(),
                format.channel_type(),
                shape.image_type
            )));
        }
        let es = format.element_size();
        let packed = ImageDesc::packed(
            shape.image_type,
            format,
            shape.width,
            shape.height,
            shape.depth,
            shape.array_size,
        );
        let full = [
            shape.width,
            if shape.image_type == ImageType::Image1DArray {
                shape.array_size
            } else {
                shape.rows()
            },
            match shape.image_type {
                ImageType::Image3D => shape.depth,
                ImageType::Image2DArray => shape.array_size,
                _ => 1,
            },
        ];
        let flags = mem_flags(access);
        let (storage, desc, buffer) = match source {
            ImageSource::Image(stored) => return Image::view(stored, access, format, shape),
            ImageSource::Zeroed => (
                Buffer::new(context, flags, packed.byte_len())?,
                packed,
                None,
            ),
            ImageSource::Copy(data, pitches) => {
                let image = Image {
                    inner: Arc::new(ImageInner {
                        storage: Buffer::new(context, flags, packed.byte_len())?,
                        desc: packed,
                        access,
                        buffer: None,
                    }),
                };
                image.write([0; 3], full, data, pitches)?;
                return Ok(image);
            }
            ImageSource::UseHostPtr(ptr, pitches) => {
                let (row, slice) = host_pitches_for_desc(shape.image_type, es, full, pitches)?;
                let mut desc = packed;
                desc.row_pitch = row;
                desc.slice_pitch = slice;
                // SAFETY: the caller's promise covers the image's bytes.
                let storage =
                    unsafe { Buffer::use_host_ptr(context, flags, ptr, desc.byte_len()) }?;
                (storage, desc, None)
            }
            ImageSource::Buffer(buffer, row_pitch) => {
                let limits = &device.image_limits;
                let row = if row_pitch == 0 {
                    shape.width * es
                } else {
                    row_pitch
                };
                // API 5.3.1.2: "image_row_pitch ... must be a multiple of the maximum of the
                // CL_DEVICE_IMAGE_PITCH_ALIGNMENT value ... × the size of the element".
                // API 5.3.1: "CL_INVALID_IMAGE_FORMAT_DESCRIPTOR if a 2D image is created from a
                // buffer and the row pitch and base address alignment does not follow the rules".
                if row < shape.width * es
                    || !row.is_multiple_of(limits.pitch_alignment as usize * es)
                {
                    return Err(Error::InvalidImageFormatDescriptor(format!(
                        "row pitch {row} for a width of {} elements of {es} bytes",
                        shape.width
                    )));
                }
                let mut desc = packed;
                desc.row_pitch = row;
                desc.slice_pitch = row * shape.rows();
                // "CL_INVALID_IMAGE_SIZE if image_type is CL_MEM_OBJECT_IMAGE1D_BUFFER or
                // CL_MEM_OBJECT_IMAGE2D and mem_object is a buffer and the size required exceeds
                // the size of the buffer".
                let need = (shape.rows() - 1) * row + shape.width * es;
                if need > buffer.size() {
                    return Err(Error::InvalidImageSize(format!(
                        "the image needs {need} bytes, the buffer has {}",
                        buffer.size()
                    )));
                }
                // "CL_INVALID_IMAGE_FORMAT_DESCRIPTOR if ... the base address of the buffer is
                // not aligned to CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT pixels" (sub-buffers).
                let base = buffer.host_address() as usize;
                if !base.is_multiple_of(limits.base_address_alignment as usize * es) {
                    return Err(Error::InvalidImageFormatDescriptor(format!(
                        "buffer address {base:#x} is not aligned to {} bytes",
                        limits.base_address_alignment as usize * es
                    )));
                }
                // The image is a view of the buffer: same memory and lock.
                let view = buffer.sub_buffer(buffer.flags(), 0, desc.byte_len().max(1))?;
                (view, desc, Some(buffer.clone()))
            }
        };
        Ok(Image {
            inner: Arc::new(ImageInner {
                storage,
                desc,
                access,
                buffer,
            }),
        })
    }

    /// A 2D image over `stored`'s memory with another, compatible format (API 5.3.1: the
    /// descriptor must match, the channel data type must match and the orders be compatible).
    fn view(
        stored: &Image,
        access: ImageAccess,
        format: ImageFormat,
        shape: ImageShape,
    ) -> Result<Image> {
        let d = stored.desc();
        if d.mip_levels > 1 {
            return Err(Error::InvalidImageDescriptor(
                "an image view of a mipmapped image is not supported".into(),
            ));
        }
        if d.image_type != ImageType::Image2D
            || shape.image_type != ImageType::Image2D
            || shape.width != d.width
            || shape.height != d.height
        {
            return Err(Error::InvalidImageDescriptor(
                "an image view must be a 2D image of the same size as its 2D image".into(),
            ));
        }
        if format.channel_type() != d.format.channel_type()
            || !compatible_orders(format.order(), d.format.order())
        {
            return Err(Error::InvalidImageFormatDescriptor(format!(
                "{:?}/{:?} cannot view an image of {:?}/{:?}",
                format.order(),
                format.channel_type(),
                d.format.order(),
                d.format.channel_type()
            )));
        }
        if !format_supported(&format, ImageType::Image2D, access) {
            return Err(Error::ImageFormatNotSupported(format!(
                "{:?}/{:?} with {access:?} access",
                format.order(),
                format.channel_type()
            )));
        }
        let mut desc = *d;
        desc.format = format;
        Ok(Image {
            inner: Arc::new(ImageInner {
                storage: stored.inner.storage.clone(),
                desc,
                access,
                buffer: None,
            }),
        })
    }

    pub fn desc(&self) -> &ImageDesc {
        &self.inner.desc
    }

    pub fn format(&self) -> ImageFormat {
        self.inner.desc.format
    }

    pub fn image_type(&self) -> ImageType {
        self.inner.desc.image_type
    }

    pub fn access(&self) -> ImageAccess {
        self.inner.access
    }

    /// `CL_MEM_SIZE`: the bytes of the image's memory.
    pub fn size(&self) -> usize {
        self.inner.desc.byte_len()
    }

    /// The buffer a 1D image buffer or 2D image was created from (`CL_IMAGE_BUFFER`).
    pub fn buffer(&self) -> Option<&Buffer> {
        self.inner.buffer.as_ref()
    }

    /// The memory (a buffer, shared with the source buffer of a buffer image).
    pub fn storage(&self) -> &Buffer {
        &self.inner.storage
    }

    /// Two handles to the same image?
    pub fn same(&self, other: &Image) -> bool {
        Arc::ptr_eq(&self.inner, &other.inner)
    }

    /// `(width, height, depth)` in texels of the addressable region: height is the layer count
    /// of a 1D array and depth that of a 2D array (the `region` of a whole image).
    pub fn full_region(&self) -> [usize; 3] {
        self.level_region(0)
    }

    /// `full_region` of mip `level`.
    pub fn level_region(&self, level: u32) -> [usize; 3] {
        let d = &self.inner.desc;
        let [w, h, dep] = d.level_size(level);
        match d.image_type {
            ImageType::Image1D | ImageType::Image1DBuffer => [w, 1, 1],
            ImageType::Image1DArray => [w, d.array_size, 1],
            ImageType::Image2D => [w, h, 1],
            ImageType::Image2DArray => [w, h, d.array_size],
            ImageType::Image3D => [w, h, dep],
        }
    }

    /// The mip level an `origin` addresses and the origin within that level (see
    /// [`ImageOrigin`]). Images that are not mipmapped: level 0, with origin[3] required to be
    /// 0 and the other elements returned as given (their rules are [`Image::check_region`]'s).
    pub fn locate(&self, origin: impl Into<ImageOrigin>) -> Result<(u32, [usize; 3])> {
        let ImageOrigin(o) = origin.into();
        let d = &self.inner.desc;
        let three = [o[0], o[1], o[2]];
        if d.mip_levels <= 1 {
            if o[3] != 0 {
                return Err(Error::InvalidValue(format!(
                    "origin[3] is {} for an image without mip levels (must be 0)",
                    o[3]
                )));
            }
            return Ok((0, three));
        }
        let slot = level_slot(d.image_type);
        let level = o[slot];
        if level >= d.mip_levels as usize {
            return Err(Error::InvalidMipLevel(format!(
                "level {level} of an image with {} levels",
                d.mip_levels
            )));
        }
        if slot < 3 && o[3] != 0 {
            return Err(Error::InvalidValue(format!(
                "origin[3] is {} for a {:?} (its level is origin[{slot}])",
                o[3], d.image_type
            )));
        }
        let mut inside = three;
        if slot < 3 {
            inside[slot] = 0;
        }
        Ok((level as u32, inside))
    }

    /// API 5.3.3: the origin and region rules of the image's type ("If image is a 2D image
    /// object, origin[2] must be 0 ... region[2] must be 1", the region nonzero) and in bounds.
    /// For a mipmapped image, the level named in `origin` (see [`Image::locate`]) must exist and
    /// the region lie in that level.
    pub fn check_region(&self, origin: impl Into<ImageOrigin>, region: [usize; 3]) -> Result<()> {
        let (level, origin) = self.locate(origin)?;
        if region.contains(&0) {
            return Err(Error::InvalidValue(format!(
                "region {region:?} has a zero size"
            )));
        }
        let used = match self.image_type() {
            ImageType::Image1D | ImageType::Image1DBuffer => 1,
            ImageType::Image1DArray | ImageType::Image2D => 2,
            _ => 3,
        };
        for d in used..3 {
            if origin[d] != 0 || region[d] != 1 {
                return Err(Error::InvalidValue(format!(
                    "origin[{d}] must be 0 and region[{d}] 1 for a {:?}",
                    self.image_type()
                )));
            }
        }
        let full = self.level_region(level);
        for d in 0..3 {
            if origin[d]
                .checked_add(region[d])
                .is_none_or(|end| end > full[d])
            {
                return Err(Error::OutOfBounds(format!(
                    "region {region:?} at {origin:?} outside an image of {full:?}"
                )));
            }
        }
        Ok(())
    }

    /// The byte offset of the first texel of row `y`, slice `z` of a region at `origin` (in the
    /// mip level `origin` names).
    fn row_offset(&self, origin: ImageOrigin, y: usize, z: usize) -> usize {
        let d = &self.inner.desc;
        let Ok((level, origin)) = self.locate(origin) else {
            return usize::MAX;
        };
        d.texel_offset(level, origin[0], origin[1] + y, origin[2] + z)
            .unwrap_or(usize::MAX)
    }

    /// `clEnqueueReadImage`: copies `region` at `origin` to `out`, laid out with `pitches`.
    pub fn read(
        &self,
        origin: impl Into<ImageOrigin>,
        region: [usize; 3],
        out: &mut [u8],
        pitches: HostPitches,
    ) -> Result<()> {
        let origin = origin.into();
        self.check_region(origin, region)?;
        let es = self.format().element_size();
        let t = self.image_type();
        let (row, slice) = resolve_pitches(t, es, region, pitches)?;
        check_host_len(out.len(), host_extent(t, es, row, slice, region))?;
        let storage = &self.inner.storage;
        let _guard = storage.lock();
        let (base, _) = storage.raw();
        for z in 0..region[2] {
            for y in 0..region[1] {
                let src = self.row_offset(origin, y, z);
                let dst = host_row_offset(t, row, slice, y, z);
                // SAFETY: the row lies in the image (check_region) and in `out` (check_host_len);
                // the lock is held.
                unsafe {
                    std::ptr::copy_nonoverlapping(
                        base.add(src),
                        out[dst..].as_mut_ptr(),
                        region[0] * es,
                    )
                };
            }
        }
        Ok(())
    }

    /// `clEnqueueWriteImage`: copies `data`, laid out with `pitches`, to `region` at `origin`.
    pub fn write(
        &self,
        origin: impl Into<ImageOrigin>,
        region: [usize; 3],
        data: &[u8],
        pitches: HostPitches,
    ) -> Result<()> {
        let origin = origin.into();
        self.check_region(origin, region)?;
        let es = self.format().element_size();
        let t = self.image_type();
        let (row, slice) = resolve_pitches(t, es, region, pitches)?;
        check_host_len(data.len(), host_extent(t, es, row, slice, region))?;
        let storage = &self.inner.storage;
        let _guard = storage.lock();
        let (base, _) = storage.raw();
        for z in 0..region[2] {
            for y in 0..region[1] {
                let dst = self.row_offset(origin, y, z);
                let src = host_row_offset(t, row, slice, y, z);
                // SAFETY: as in `read`.
                unsafe {
                    std::ptr::copy_nonoverlapping(
                        data[src..].as_ptr(),
                        base.add(dst),
                        region[0] * es,
                    )
                };
            }
        }
        Ok(())
    }

    /// The whole image, tightly packed.
    pub fn to_vec(&self) -> Result<Vec<u8>> {
        let region = self.full_region();
        let es = self.format().element_size();
        let mut out = vec![0u8; region.iter().product::<usize>() * es];
        self.read([0usize; 3], region, &mut out, HostPitches::default())?;
        Ok(out)
    }

    /// `clEnqueueCopyImage`: `region` of `src` at `src_origin` to this image at `dst_origin`.
    /// API 5.3.4: "CL_IMAGE_FORMAT_MISMATCH if src_image and dst_image do not use the same image
    /// format"; "CL_MEM_COPY_OVERLAP if src_image and dst_image are the same image object and
    /// the source and destination regions overlap".
    pub fn copy_from(
        &self,
        dst_origin: impl Into<ImageOrigin>,
        src: &Image,
        src_origin: impl Into<ImageOrigin>,
        region: [usize; 3],
    ) -> Result<()> {
        let (dst_origin, src_origin) = (dst_origin.into(), src_origin.into());
        if src.format() != self.format() {
            return Err(Error::ImageFormatMismatch);
        }
        // Copies between 1D/2D/3D images of different types move rows of texels; the region
        // must be valid for both.
        src.check_region(src_origin, region)?;
        self.check_region(dst_origin, region)?;
        let (src_level, src_at) = src.locate(src_origin)?;
        let (dst_level, dst_at) = self.locate(dst_origin)?;
        if self.same(src)
            && src_level == dst_level
            && (0..3).all(|d| ranges_overlap(src_at[d], dst_at[d], region[d]))
        {
            return Err(Error::CopyOverlap);
        }
        let es = self.format().element_size();
        let mut tmp = vec![0u8; region.iter().product::<usize>() * es];
        let packed = packed_pitches(src.image_type(), region, es);
        src.read(src_origin, region, &mut tmp, packed)?;
        let packed = packed_pitches(self.image_type(), region, es);
        self.write(dst_origin, region, &tmp, packed)
    }

    /// `clEnqueueCopyImageToBuffer`: `region` at `origin` to `buffer` at `offset`, tightly
    /// packed (API 5.3.5: "the size in bytes of the region to be copied ... is computed as
    /// width × height × depth × bytes/image element").
    pub fn copy_to_buffer(
        &self,
        origin: impl Into<ImageOrigin>,
        region: [usize; 3],
        buffer: &Buffer,
        offset: usize,
    ) -> Result<()> {
        let origin = origin.into();
        self.check_region(origin, region)?;
        let es = self.format().element_size();
        let len = region.iter().product::<usize>() * es;
        check_buffer_range(buffer, offset, len)?;
        let mut tmp = vec![0u8; len];
        self.read(
            origin,
            region,
            &mut tmp,
            packed_pitches(self.image_type(), region, es),
        )?;
        buffer.write(offset, &tmp)
    }

    /// `clEnqueueCopyBufferToImage`: tightly packed texels of `buffer` at `offset` to `region`
    /// at `origin`.
    pub fn copy_from_buffer(
        &self,
        buffer: &Buffer,
        offset: usize,
        origin: impl Into<ImageOrigin>,
        region: [usize; 3],
    ) -> Result<()> {
        let origin = origin.into();
        self.check_region(origin, region)?;
        let es = self.format().element_size();
        let len = region.iter().product::<usize>() * es;
        check_buffer_range(buffer, offset, len)?;
        let mut tmp = vec![0u8; len];
        buffer.read(offset, &mut tmp)?;
        self.write(
            origin,
            region,
            &tmp,
            packed_pitches(self.image_type(), region, es),
        )
    }

    /// `clEnqueueFillImage` (API 5.3.6): every texel of `region` gets `color` converted to the
    /// image's format as a kernel's write would (float colours for normalized, half and float
    /// formats, signed or unsigned integers for the integer formats; linear colours are
    /// converted to sRGB).
    pub fn fill(
        &self,
        color: Texel,
        origin: impl Into<ImageOrigin>,
        region: [usize; 3],
    ) -> Result<()> {
        let origin = origin.into();
        self.check_region(origin, region)?;
        let format = self.format();
        let mut element = vec![0u8; format.element_size()];
        devlib::image::write_texel(&format, color, &mut element)
            .map_err(|e| Error::InvalidValue(format!("fill color: {e}")))?;
        let count = region.iter().product::<usize>();
        let data: Vec<u8> = element
            .iter()
            .copied()
            .cycle()
            .take(count * element.len())
            .collect();
        let packed = packed_pitches(self.image_type(), region, element.len());
        self.write(origin, region, &data, packed)
    }

    /// `clEnqueueMapImage`: the address of the texel at `origin` in the image's memory and the
    /// image's (row pitch, slice pitch); the memory stays valid while the image lives.
    pub fn map(
        &self,
        origin: impl Into<ImageOrigin>,
        region: [usize; 3],
    ) -> Result<(*mut u8, usize, usize)> {
        let origin = origin.into();
        self.check_region(origin, region)?;
        let d = &self.inner.desc;
        let offset = self.row_offset(origin, 0, 0);
        // SAFETY: the offset lies within the image's memory (check_region).
        let ptr = unsafe { self.inner.storage.host_address().add(offset) };
        let (level, _) = self.locate(origin)?;
        let (_, row_pitch, slice_pitch) = d.level_layout(level);
        let slice = match d.image_type {
            ImageType::Image1D | ImageType::Image1DBuffer | ImageType::Image2D => 0,
            _ => slice_pitch,
        };
        Ok((ptr, row_pitch, slice))
    }

    /// The argument a launch passes to the engines, for a launch that holds the storage's lock.
    pub(crate) fn exec_arg(&self) -> exec::ArgValue {
        let (ptr, len) = self.inner.storage.raw();
        exec::ArgValue::Image {
            ptr,
            len,
            desc: self.inner.desc,
        }
    }
}

/// The packed pitches of a host region in the conventions of `image_type`.
fn packed_pitches(image_type: ImageType, region: [usize; 3], es: usize) -> HostPitches {
    let row = region[0] * es;
    let has_slices = matches!(
        image_type,
        ImageType::Image3D | ImageType::Image1DArray | ImageType::Image2DArray
    );
    HostPitches {
        row_pitch: row,
        slice_pitch: if !has_slices {
            0
        } else if image_type == ImageType::Image1DArray {
            row
        } else {
            row * region[1]
        },
    }
}

/// The pitches a `CL_MEM_USE_HOST_PTR`/`CL_MEM_COPY_HOST_PTR` image's host memory has
/// (API 5.3.1.2: "image_row_pitch ... If host_ptr is not NULL and image_row_pitch = 0,
/// image_row_pitch is calculated as image_width × size of element in bytes").
fn host_pitches_for_desc(
    image_type: ImageType,
    es: usize,
    full: [usize; 3],
    pitches: HostPitches,
) -> Result<(usize, usize)> {
    let (row, slice) = resolve_pitches(image_type, es, full, pitches)?;
    // "image_row_pitch ... must be a multiple of the image element size in bytes";
    // "image_slice_pitch ... must be a multiple of the image_row_pitch".
    if !row.is_multiple_of(es) || (row != 0 && !slice.is_multiple_of(row)) {
        return Err(Error::InvalidImageDescriptor(format!(
            "row pitch {row} / slice pitch {slice} not multiples of the element size {es} / row pitch"
        )));
    }
    // For 1D and 2D images the descriptor's slice pitch is the size of the one slice.
    let slice = match image_type {
        ImageType::Image1D | ImageType::Image1DBuffer => row,
        ImageType::Image2D => row * full[1],
        _ => slice,
    };
    Ok((row, slice))
}

fn ranges_overlap(a: usize, b: usize, len: usize) -> bool {
    a < b + len && b < a + len
}

fn check_host_len(len: usize, need: usize) -> Result<()> {
    if need > len {
        return Err(Error::OutOfBounds(format!(
            "the host region needs {need} bytes, {len} given"
        )));
    }
    Ok(())
}

fn check_buffer_range(buffer: &Buffer, offset: usize, len: usize) -> Result<()> {
    if offset
        .checked_add(len)
        .is_none_or(|end| end > buffer.size())
    {
        return Err(Error::OutOfBounds(format!(
            "{len} bytes at offset {offset} of a buffer of {} bytes",
            buffer.size()
        )));
    }
    Ok(())
}
