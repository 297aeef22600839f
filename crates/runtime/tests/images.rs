//! Host-side images (API 5.3): creation of every type, pitches, the supported-format list, read,
//! write, copy, fill, map and the image↔buffer copies, with expected bytes worked out by hand.
//! No kernel runs here (kernels with image arguments are in `image_kernels.rs`).

use std::sync::Arc;

use runtime::{
    Buffer, ChannelOrder, ChannelType, Context, Device, Error, HostPitches, Image, ImageAccess,
    ImageFormat, ImageShape, ImageSource, ImageType, MemFlags, Texel,
};

fn context() -> Context {
    let mut device = Device::host_cpu();
    device.set_image_support(true);
    Context::new(Arc::new(device))
}

fn format(order: ChannelOrder, ty: ChannelType) -> ImageFormat {
    ImageFormat::new(order, ty).unwrap()
}

fn rgba8() -> ImageFormat {
    format(ChannelOrder::RGBA, ChannelType::UnormInt8)
}

fn shape(image_type: ImageType, w: usize, h: usize, d: usize, a: usize) -> ImageShape {
    ImageShape {
        image_type,
        width: w,
        height: h,
        depth: d,
        array_size: a,
    }
}

fn packed() -> HostPitches {
    HostPitches::default()
}

#[test]
fn creation_needs_image_support() {
    let mut device = Device::host_cpu();
    device.set_image_support(false);
    let ctx = Context::new(Arc::new(device));
    let err = Image::new(
        &ctx,
        ImageAccess::ReadWrite,
        rgba8(),
        shape(ImageType::Image2D, 2, 2, 1, 1),
        ImageSource::Zeroed,
    )
    .unwrap_err();
    assert_eq!(err.code(), -59); // CL_INVALID_OPERATION
}

#[test]
fn image_support_switch_sets_the_features() {
    let mut device = Device::host_cpu();
    device.set_image_support(true);
    assert!(device.image_support());
    assert!(device.features.iter().any(|f| f == "__opencl_c_images"));
    assert!(device.compile_target().image_support);
    device.set_image_support(false);
    assert!(!device.features.iter().any(|f| f.contains("image")));
}

#[test]
fn copy_host_ptr_2d_with_row_pitch() {
    let ctx = context();
    // 2×2 RGBA8 from host rows of 12 bytes (4 bytes of padding after each row).
    let host: Vec<u8> = (0..24).collect();
    let image = Image::new(
        &ctx,
        ImageAccess::ReadOnly,
        rgba8(),
        shape(ImageType::Image2D, 2, 2, 1, 1),
        ImageSource::Copy(
            &host,
            HostPitches {
                row_pitch: 12,
                slice_pitch: 0,
            },
        ),
    )
    .unwrap();
    assert_eq!(image.desc().row_pitch, 8);
    assert_eq!(image.size(), 16);
    let expect: Vec<u8> = (0..8).chain(12..20).collect();
    assert_eq!(image.to_vec().unwrap(), expect);
    // Read texel (1, 1) alone.
    let mut out = [0u8; 4];
    image
        .read([1, 1, 0], [1, 1, 1], &mut out, packed())
        .unwrap();
    assert_eq!(out, [16, 17, 18, 19]);
}

#[test]
fn use_host_ptr_shares_the_memory_with_its_pitches() {
    let ctx = context();
    // A 3×2 R8 image in host rows of 4 bytes.
    let mut host = vec![0u8; 8];
    let image = unsafe {
        Image::use_host_ptr(
            &ctx,
            ImageAccess::ReadWrite,
            format(ChannelOrder::R, ChannelType::UnsignedInt8),
            shape(ImageType::Image2D, 3, 2, 1, 1),
            host.as_mut_ptr(),
            HostPitches {
                row_pitch: 4,
                slice_pitch: 0,
            },
        )
    }
    .unwrap();
    assert_eq!(image.desc().row_pitch, 4);
    image
        .write([0, 0, 0], [3, 2, 1], &[1, 2, 3, 4, 5, 6], packed())
        .unwrap();
    drop(image);
    assert_eq!(host, [1, 2, 3, 0, 4, 5, 6, 0]);
}

#[test]
fn every_image_type_reads_back_what_was_written() {
    let ctx = context();
    let f = format(ChannelOrder::R, ChannelType::UnsignedInt16);
    let cases = [
        (shape(ImageType::Image1D, 5, 1, 1, 1), [5, 1, 1]),
        (shape(ImageType::Image1DArray, 4, 1, 1, 3), [4, 3, 1]),
        (shape(ImageType::Image2D, 3, 4, 1, 1), [3, 4, 1]),
        (shape(ImageType::Image2DArray, 3, 2, 1, 2), [3, 2, 2]),
        (shape(ImageType::Image3D, 2, 3, 4, 1), [2, 3, 4]),
    ];
    for (s, region) in cases {
        let image = Image::new(&ctx, ImageAccess::ReadWrite, f, s, ImageSource::Zeroed).unwrap();
        assert_eq!(image.full_region(), region, "{s:?}");
        let n: usize = region.iter().product();
        let data: Vec<u8> = (0..n as u16).flat_map(|v| (v * 3).to_le_bytes()).collect();
        image.write([0; 3], region, &data, packed()).unwrap();
        assert_eq!(image.to_vec().unwrap(), data, "{s:?}");
        // The last texel, read alone.
        let last = region.map(|r| r - 1);
        let mut out = [0u8; 2];
        image.read(last, [1, 1, 1], &mut out, packed()).unwrap();
        assert_eq!(u16::from_le_bytes(out), (n as u16 - 1) * 3, "{s:?}");
    }
}

#[test]
fn sub_region_read_with_host_pitches_3d() {
    let ctx = context();
    // 4×3×2 R8: texel (x, y, z) = 100z + 10y + x.
    let data: Vec<u8> = (0..2)
        .flat_map(|z| (0..3).flat_map(move |y| (0..4).map(move |x| 100 * z + 10 * y + x)))
        .collect();
    let image = Image::new(
        &ctx,
        ImageAccess::ReadOnly,
        format(ChannelOrder::R, ChannelType::UnsignedInt8),
        shape(ImageType::Image3D, 4, 3, 2, 1),
        ImageSource::Copy(&data, packed()),
    )
    .unwrap();
    // Region 2×2×2 at (1, 1, 0) into host rows of 3 bytes and slices of 8.
    let mut out = vec![0xEEu8; 16];
    image
        .read(
            [1, 1, 0],
            [2, 2, 2],
            &mut out,
            HostPitches {
                row_pitch: 3,
                slice_pitch: 8,
            },
        )
        .unwrap();
    let e = 0xEE;
    assert_eq!(
        out,
        [11, 12, e, 21, 22, e, e, e, 111, 112, e, 121, 122, e, e, e]
    );
}

#[test]
fn one_d_array_layers_use_the_slice_pitch() {
    let ctx = context();
    let image = Image::new(
        &ctx,
        ImageAccess::ReadWrite,
        format(ChannelOrder::R, ChannelType::UnsignedInt8),
        shape(ImageType::Image1DArray, 3, 1, 1, 2),
        ImageSource::Zeroed,
    )
    .unwrap();
    // Two layers from host layers 4 bytes apart.
    image
        .write(
            [0, 0, 0],
            [3, 2, 1],
            &[1, 2, 3, 9, 4, 5, 6],
            HostPitches {
                row_pitch: 0,
                slice_pitch: 4,
            },
        )
        .unwrap();
    assert_eq!(image.to_vec().unwrap(), [1, 2, 3, 4, 5, 6]);
}

#[test]
fn region_rules_and_bounds() {
    let ctx = context();
    let image = Image::new(
        &ctx,
        ImageAccess::ReadWrite,
        rgba8(),
        shape(ImageType::Image2D, 4, 4, 1, 1),
        ImageSource::Zeroed,
    )
    .unwrap();
    let mut out = vec![0u8; 256];
    // API 5.3.3: a 2D image needs origin[2] = 0 and region[2] = 1; no zero region; in bounds.
    for (origin, region) in [
        ([0, 0, 1], [1, 1, 1]),
        ([0, 0, 0], [1, 1, 2]),
        ([0, 0, 0], [0, 1, 1]),
        ([3, 0, 0], [2, 1, 1]),
        ([0, 4, 0], [1, 1, 1]),
    ] {
        let err = image.read(origin, region, &mut out, packed()).unwrap_err();
        assert_eq!(err.code(), -30, "{origin:?} {region:?}"); // CL_INVALID_VALUE
    }
    // A slice pitch for a 2D image is invalid; a row pitch under width × element size too.
    let bad = HostPitches {
        row_pitch: 0,
        slice_pitch: 64,
    };
    assert_eq!(
        image
            .read([0; 3], [4, 4, 1], &mut out, bad)
            .unwrap_err()
            .code(),
        -30
    );
    let bad = HostPitches {
        row_pitch: 15,
        slice_pitch: 0,
    };
    assert_eq!(
        image
            .read([0; 3], [4, 1, 1], &mut out, bad)
            .unwrap_err()
            .code(),
        -30
    );
    // The host buffer is too small.
    let mut small = vec![0u8; 63];
    assert!(image.read([0; 3], [4, 4, 1], &mut small, packed()).is_err());
}

#[test]
fn size_limits_give_invalid_image_size() {
    let ctx = context();
    let limits = ctx.device().image_limits.clone();
    for s in [
        shape(ImageType::Image2D, 0, 1, 1, 1),
        shape(ImageType::Image2D, limits.image2d_max_width + 1, 1, 1, 1),
        shape(ImageType::Image2D, 1, limits.image2d_max_height + 1, 1, 1),
        shape(ImageType::Image3D, 1, 1, limits.image3d_max_depth + 1, 1),
        shape(ImageType::Image2DArray, 1, 1, 1, 0),
        shape(
            ImageType::Image1DArray,
            1,
            1,
            1,
            limits.image_max_array_size + 1,
        ),
    ] {
        let err = Image::new(
            &ctx,
            ImageAccess::ReadWrite,
            rgba8(),
            s,
            ImageSource::Zeroed,
        )
        .unwrap_err();
        assert_eq!(err.code(), -40, "{s:?}"); // CL_INVALID_IMAGE_SIZE
    }
}

#[test]
fn supported_formats_follow_the_rules() {
    use runtime::supported_formats;
    let rw2d = supported_formats(ImageType::Image2D, ImageAccess::ReadWrite);
    let ro2d = supported_formats(ImageType::Image2D, ImageAccess::ReadOnly);
    let ro3d = supported_formats(ImageType::Image3D, ImageAccess::ReadOnly);
    let has = |list: &[ImageFormat], o, t| list.contains(&format(o, t));
    // The minimum list of API 5.3.2.1 for read-write and read-only 2D images.
    for (o, t) in [
        (ChannelOrder::RGBA, ChannelType::UnormInt8),
        (ChannelOrder::RGBA, ChannelType::Float),
        (ChannelOrder::RGBA, ChannelType::HalfFloat),
        (ChannelOrder::RGBA, ChannelType::SignedInt32),
        (ChannelOrder::RGBA, ChannelType::UnsignedInt16),
        (ChannelOrder::BGRA, ChannelType::UnormInt8),
        (ChannelOrder::R, ChannelType::Float),
        (ChannelOrder::RG, ChannelType::SnormInt16),
    ] {
        assert!(has(&rw2d, o, t), "{o:?} {t:?}");
    }
    // sRGB: read-only only; depth: 2D and 2D arrays only.
    assert!(has(&ro2d, ChannelOrder::SRGBA, ChannelType::UnormInt8));
    assert!(!has(&rw2d, ChannelOrder::SRGBA, ChannelType::UnormInt8));
    assert!(has(&ro2d, ChannelOrder::Depth, ChannelType::Float));
    assert!(!has(&ro3d, ChannelOrder::Depth, ChannelType::Float));
    // Invalid combinations (API 5.3.1.1: CL_RGB only with the packed types) never appear.
    assert!(ro2d.iter().all(|f| f.order() != ChannelOrder::RGB
        || matches!(
            f.channel_type(),
            ChannelType::UnormShort565 | ChannelType::UnormShort555 | ChannelType::UnormInt101010
        )));
    // Count: every valid (order, type) pair of devlib. Per order, the valid types by the
    // table of API 5.3.1.1: R, A, RG, RA, Rx, RGx, RGBA: all 12 non-packed types (snorm8/16,
    // unorm8/16, sint8/16/32, uint8/16/32, half, float) = 7 × 12 = 84; RGB, RGBx: 565, 555,
    // 101010 = 2 × 3 = 6; RGBA also 101010_2: 1; BGRA, ARGB, ABGR: 4 each = 12; Intensity,
    // Luminance: 6 each = 12; Depth: 2; sRGB, sRGBx, sRGBA, sBGRA: 1 each = 4.
    assert_eq!(ro2d.len(), 84 + 6 + 1 + 12 + 12 + 2 + 4);
    assert_eq!(rw2d.len(), 84 + 6 + 1 + 12 + 12 + 2);
    assert_eq!(ro3d.len(), 84 + 6 + 1 + 12 + 12 + 4);
}

#[test]
fn unsupported_format_for_the_type_is_rejected() {
    let ctx = context();
    let err = Image::new(
        &ctx,
        ImageAccess::ReadOnly,
        format(ChannelOrder::Depth, ChannelType::Float),
        shape(ImageType::Image3D, 2, 2, 2, 1),
        ImageSource::Zeroed,
    )
    .unwrap_err();
    assert_eq!(err.code(), -10); // CL_IMAGE_FORMAT_NOT_SUPPORTED
    let err = Image::new(
        &ctx,
        ImageAccess::WriteOnly,
        format(ChannelOrder::SRGBA, ChannelType::UnormInt8),
        shape(ImageType::Image2D, 2, 2, 1, 1),
        ImageSource::Zeroed,
    )
    .unwrap_err();
    assert_eq!(err.code(), -10);
}

#[test]
fn fill_converts_the_colour_to_the_format() {
    let ctx = context();
    let new = |f: ImageFormat| {
        Image::new(
            &ctx,
            ImageAccess::ReadWrite,
            f,
            shape(ImageType::Image2D, 3, 2, 1, 1),
            ImageSource::Zeroed,
        )
        .unwrap()
    };
    // RGBA UNORM_INT8: 0.5 × 255 = 127.5 → 128 (round to nearest even), 1.2 saturates to 255,
    // -1 to 0, 0.25 × 255 = 63.75 → 64.
    let image = new(rgba8());
    image
        .fill(Texel::Float([0.5, 1.2, -1.0, 0.25]), [1, 0, 0], [2, 2, 1])
        .unwrap();
    let t = [128, 255, 0, 64];
    let z = [0u8; 4];
    let expect: Vec<u8> = [z, t, t, z, t, t].concat();
    assert_eq!(image.to_vec().unwrap(), expect);
    // BGRA UNORM_INT8 stores B, G, R, A: red (1, 0, 0, 1) is [0, 0, 255, 255].
    let image = new(format(ChannelOrder::BGRA, ChannelType::UnormInt8));
    image
        .fill(Texel::Float([1.0, 0.0, 0.0, 1.0]), [0; 3], [3, 2, 1])
        .unwrap();
    assert_eq!(&image.to_vec().unwrap()[..4], &[0, 0, 255, 255]);
    // RG SIGNED_INT16: integers clamp to [-32768, 32767], little-endian.
    let image = new(format(ChannelOrder::RG, ChannelType::SignedInt16));
    image
        .fill(Texel::Int([-40000, 300, 7, 9]), [0; 3], [1, 1, 1])
        .unwrap();
    assert_eq!(&image.to_vec().unwrap()[..4], &[0x00, 0x80, 0x2C, 0x01]);
    // R FLOAT keeps the value.
    let image = new(format(ChannelOrder::R, ChannelType::Float));
    image
        .fill(Texel::Float([-2.5, 0.0, 0.0, 0.0]), [0; 3], [3, 2, 1])
        .unwrap();
    assert_eq!(&image.to_vec().unwrap()[20..], &(-2.5f32).to_le_bytes());
    // RGB UNORM_SHORT_565: (1, 0.5, 0) → r = 31, g = round(31.5) = 32, b = 0:
    // 31 << 11 | 32 << 5 = 0xFC00.
    let image = new(format(ChannelOrder::RGB, ChannelType::UnormShort565));
    image
        .fill(Texel::Float([1.0, 0.5, 0.0, 1.0]), [0; 3], [1, 1, 1])
        .unwrap();
    assert_eq!(&image.to_vec().unwrap()[..2], &0xFC00u16.to_le_bytes());
    // A float colour for an integer image is an error.
    let image = new(format(ChannelOrder::R, ChannelType::UnsignedInt8));
    assert!(image
        .fill(Texel::Float([1.0; 4]), [0; 3], [1, 1, 1])
        .is_err());
}

#[test]
fn copy_between_images_and_overlap() {
    let ctx = context();
    let f = format(ChannelOrder::R, ChannelType::UnsignedInt8);
    let data: Vec<u8> = (0..16).collect();
    let src = Image::new(
        &ctx,
        ImageAccess::ReadWrite,
        f,
        shape(ImageType::Image2D, 4, 4, 1, 1),
        ImageSource::Copy(&data, packed()),
    )
    .unwrap();
    // 2D → 3D: a 2×2 block at (1, 1) of src to slice 1 of a 2×2×2 image.
    let dst = Image::new(
        &ctx,
        ImageAccess::ReadWrite,
        f,
        shape(ImageType::Image3D, 2, 2, 2, 1),
        ImageSource::Zeroed,
    )
    .unwrap();
    dst.copy_from([0, 0, 1], &src, [1, 1, 0], [2, 2, 1])
        .unwrap();
    assert_eq!(dst.to_vec().unwrap(), [0, 0, 0, 0, 5, 6, 9, 10]);
    // Within one image: disjoint is fine, overlapping is CL_MEM_COPY_OVERLAP.
    src.copy_from([2, 2, 0], &src, [0, 0, 0], [2, 2, 1])
        .unwrap();
    assert_eq!(src.to_vec().unwrap()[10..12], [0, 1]);
    assert_eq!(src.to_vec().unwrap()[14..16], [4, 5]);
    let err = src
        .copy_from([1, 1, 0], &src, [0, 0, 0], [2, 2, 1])
        .unwrap_err();
    assert!(matches!(err, Error::CopyOverlap));
    assert_eq!(err.code(), -8);
    // Different formats: CL_IMAGE_FORMAT_MISMATCH.
    let other = Image::new(
        &ctx,
        ImageAccess::ReadWrite,
        format(ChannelOrder::R, ChannelType::SignedInt8),
        shape(ImageType::Image2D, 4, 4, 1, 1),
        ImageSource::Zeroed,
    )
    .unwrap();
    assert_eq!(
        other
            .copy_from([0; 3], &src, [0; 3], [1, 1, 1])
            .unwrap_err()
            .code(),
        -9
    );
}

#[test]
fn image_buffer_copies_are_tightly_packed() {
    let ctx = context();
    let f = format(ChannelOrder::RG, ChannelType::UnsignedInt8);
    let data: Vec<u8> = (0..24).collect(); // 3×4 texels of 2 bytes
    let image = Image::new(
        &ctx,
        ImageAccess::ReadWrite,
        f,
        shape(ImageType::Image2D, 3, 4, 1, 1),
        ImageSource::Copy(&data, packed()),
    )
    .unwrap();
    let buffer = Buffer::new(&ctx, MemFlags::default(), 32).unwrap();
    // Texels (1..3, 2..4) → buffer at 4: rows [14..18], [20..24].
    image
        .copy_to_buffer([1, 2, 0], [2, 2, 1], &buffer, 4)
        .unwrap();
    let mut expect = vec![0u8; 32];
    expect[4..8].copy_from_slice(&[14, 15, 16, 17]);
    expect[8..12].copy_from_slice(&[20, 21, 22, 23]);
    assert_eq!(buffer.to_vec(), expect);
    // Back into texels (0..2, 0..2).
    image
        .copy_from_buffer(&buffer, 4, [0, 0, 0], [2, 2, 1])
        .unwrap();
    assert_eq!(
        &image.to_vec().unwrap()[..12],
        &[14, 15, 16, 17, 4, 5, 20, 21, 22, 23, 10, 11]
    );
    // Out of the buffer's range.
    assert_eq!(
        image
            .copy_to_buffer([0; 3], [3, 4, 1], &buffer, 12)
            .unwrap_err()
            .code(),
        -30
    );
}

#[test]
fn buffer_images_share_the_buffer_memory() {
    let ctx = context();
    let buffer = Buffer::from_slice(&ctx, MemFlags::default(), &[0u8; 64]).unwrap();
    let f = format(ChannelOrder::R, ChannelType::UnsignedInt8);
    let image = Image::new(
        &ctx,
        ImageAccess::ReadWrite,
        f,
        shape(ImageType::Image1DBuffer, 64, 1, 1, 1),
        ImageSource::Buffer(&buffer, 0),
    )
    .unwrap();
    image
        .write([10, 0, 0], [2, 1, 1], &[7, 8], packed())
        .unwrap();
    assert_eq!(buffer.to_vec()[10..12], [7, 8]);
    assert!(image.buffer().unwrap().same(&buffer));
    // A 2D image over the buffer with rows of 16 bytes: texel (1, 2) is byte 33.
    let image2d = Image::new(
        &ctx,
        ImageAccess::ReadWrite,
        f,
        shape(ImageType::Image2D, 8, 4, 1, 1),
        ImageSource::Buffer(&buffer, 16),
    )
    .unwrap();
    buffer.write(33, &[42]).unwrap();
    let mut out = [0u8];
    image2d
        .read([1, 2, 0], [1, 1, 1], &mut out, packed())
        .unwrap();
    assert_eq!(out, [42]);
    // Too small a buffer: CL_INVALID_IMAGE_SIZE.
    let err = Image::new(
        &ctx,
        ImageAccess::ReadWrite,
        f,
        shape(ImageType::Image1DBuffer, 65, 1, 1, 1),
        ImageSource::Buffer(&buffer, 0),
    )
    .unwrap_err();
    assert_eq!(err.code(), -40);
    // A 1D image buffer needs a buffer; a 3D image cannot have one.
    let err = Image::new(
        &ctx,
        ImageAccess::ReadWrite,
        f,
        shape(ImageType::Image1DBuffer, 4, 1, 1, 1),
        ImageSource::Zeroed,
    )
    .unwrap_err();
    assert_eq!(err.code(), -65);
    let err = Image::new(
        &ctx,
        ImageAccess::ReadWrite,
        f,
        shape(ImageType::Image3D, 2, 2, 2, 1),
        ImageSource::Buffer(&buffer, 0),
    )
    .unwrap_err();
    assert_eq!(err.code(), -65);
}

#[test]
fn map_gives_the_texel_address_and_pitches() {
    let ctx = context();
    let f = format(ChannelOrder::R, ChannelType::UnsignedInt8);
    let image = Image::new(
        &ctx,
        ImageAccess::ReadWrite,
        f,
        shape(ImageType::Image2DArray, 4, 3, 1, 2),
        ImageSource::Zeroed,
    )
    .unwrap();
    let (ptr, row, slice) = image.map([1, 2, 1], [2, 1, 1]).unwrap();
    assert_eq!((row, slice), (4, 12));
    // SAFETY: texel (1, 2, layer 1) and its neighbour are in the image, which lives.
    unsafe {
        *ptr = 5;
        *ptr.add(1) = 6;
    }
    let mut out = [0u8; 2];
    image
        .read([1, 2, 1], [2, 1, 1], &mut out, packed())
        .unwrap();
    assert_eq!(out, [5, 6]);
    // byte 12 + 2 × 4 + 1 = 21.
    assert_eq!(image.to_vec().unwrap()[21], 5);
    // 2D images have no slice pitch.
    let image = Image::new(
        &ctx,
        ImageAccess::ReadWrite,
        f,
        shape(ImageType::Image2D, 4, 3, 1, 1),
        ImageSource::Zeroed,
    )
    .unwrap();
    let (_, row, slice) = image.map([0; 3], [1, 1, 1]).unwrap();
    assert_eq!((row, slice), (4, 0));
    assert!(image.map([0, 3, 0], [1, 1, 1]).is_err());
}

#[test]
fn sampler_arguments_are_set_and_checked() {
    use runtime::{AddressingMode, ArgKind, FilterMode, NdRange, Program, Queue, Sampler};
    let ctx = context();
    let source = "__kernel void k(sampler_t s, __global int *p) { p[get_global_id(0)] = 7; }\n";
    let program = Program::from_source(&ctx, source, "k.cl");
    program.build("").unwrap();
    let kernel = program.kernel("k").unwrap();
    assert_eq!(kernel.arg_info(0).unwrap().kind, ArgKind::Sampler);
    let sampler = Sampler {
        normalized_coords: true,
        addressing: AddressingMode::Repeat,
        filter: FilterMode::Linear,
        ..Sampler::default()
    };
    kernel.set_arg_sampler(0, &sampler).unwrap();
    // A sampler for a pointer, an image for a sampler: CL_INVALID_ARG_VALUE.
    assert_eq!(kernel.set_arg_sampler(1, &sampler).unwrap_err().code(), -50);
    let image = Image::new(
        &ctx,
        ImageAccess::ReadWrite,
        rgba8(),
        shape(ImageType::Image2D, 1, 1, 1, 1),
        ImageSource::Zeroed,
    )
    .unwrap();
    assert_eq!(kernel.set_arg_image(0, &image).unwrap_err().code(), -50);
    assert_eq!(kernel.set_arg_image(1, &image).unwrap_err().code(), -50);
    let out = Buffer::new(&ctx, MemFlags::default(), 8).unwrap();
    kernel.set_arg_buffer(1, Some(&out)).unwrap();
    Queue::new(&ctx)
        .nd_range(&kernel, &NdRange::new(&[2], None, None))
        .unwrap();
    assert_eq!(out.to_vec(), [7, 0, 0, 0, 7, 0, 0, 0]);
}

#[test]
fn srgb_view_of_an_rgba_image_shares_its_texels() {
    let ctx = context();
    let data = [10u8, 20, 30, 40, 50, 60, 70, 80];
    let linear = Image::new(
        &ctx,
        ImageAccess::ReadOnly,
        rgba8(),
        shape(ImageType::Image2D, 2, 1, 1, 1),
        ImageSource::Copy(&data, packed()),
    )
    .unwrap();
    let srgb_format = format(ChannelOrder::SRGBA, ChannelType::UnormInt8);
    let view = Image::new(
        &ctx,
        ImageAccess::ReadOnly,
        srgb_format,
        shape(ImageType::Image2D, 2, 1, 1, 1),
        ImageSource::Image(&linear),
    )
    .unwrap();
    assert_eq!(view.format(), srgb_format);
    assert_eq!(view.to_vec().unwrap(), data);
    // Writes through the original are seen by the view (one memory).
    linear
        .write([1, 0, 0], [1, 1, 1], &[1, 2, 3, 4], packed())
        .unwrap();
    assert_eq!(view.to_vec().unwrap()[4..], [1, 2, 3, 4]);
    // API 5.3.1 "Compatible Image Channel Orders": BGRA cannot view RGBA (-39); the size must
    // match (-65); the data type must match.
    let err = Image::new(
        &ctx,
        ImageAccess::ReadOnly,
        format(ChannelOrder::BGRA, ChannelType::UnormInt8),
        shape(ImageType::Image2D, 2, 1, 1, 1),
        ImageSource::Image(&linear),
    )
    .unwrap_err();
    assert_eq!(err.code(), -39);
    let err = Image::new(
        &ctx,
        ImageAccess::ReadOnly,
        srgb_format,
        shape(ImageType::Image2D, 1, 1, 1, 1),
        ImageSource::Image(&linear),
    )
    .unwrap_err();
    assert_eq!(err.code(), -65);
    let err = Image::new(
        &ctx,
        ImageAccess::ReadOnly,
        format(ChannelOrder::RGBA, ChannelType::SignedInt8),
        shape(ImageType::Image2D, 2, 1, 1, 1),
        ImageSource::Image(&linear),
    )
    .unwrap_err();
    assert_eq!(err.code(), -39);
}
