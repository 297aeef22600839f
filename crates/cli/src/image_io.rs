//! PNG files as image arguments of `oxcl run`: decoding a PNG into the texels of a fitting
//! OpenCL image format, and encoding an image's texels as a PNG.
//!
//! PNG → format: gray 8 → `CL_R`/`CL_UNORM_INT8`, gray+alpha 8 → `CL_RA`/`CL_UNORM_INT8`, RGB 8
//! and RGBA 8 → `CL_RGBA`/`CL_UNORM_INT8` (RGB gets an opaque alpha: OpenCL has no 3-channel
//! 8-bit format), and the same orders with `CL_UNORM_INT16` for 16-bit PNGs. Palette and
//! low-bit-depth PNGs are expanded to 8 bits first.
//!
//! Format → PNG: normalized 8- and 16-bit formats of one, two or four channels are written
//! as they are stored (gray, gray+alpha, RGBA; BGRA, ARGB and ABGR reordered to RGBA); every
//! other format goes through the kernel's view of a texel (`read_texel`) and is written as RGBA
//! 8-bit, floats clamped to [0, 1] and integers to [0, 255].

use anyhow::{bail, Context, Result};
use runtime::{ChannelOrder, ChannelType, ImageFormat, Texel};

/// An image's format, size and tightly packed texels.
#[derive(Clone, Debug, PartialEq)]
pub struct ImageData {
    pub format: ImageFormat,
    pub width: usize,
    pub height: usize,
    pub data: Vec<u8>,
}

fn format(order: ChannelOrder, ty: ChannelType) -> Result<ImageFormat> {
    ImageFormat::new(order, ty).context("image format")
}

/// Decodes a PNG file's bytes.
pub fn decode_png(bytes: &[u8]) -> Result<ImageData> {
    let mut decoder = png::Decoder::new(bytes);
    // Palette and 1/2/4-bit images become 8-bit; 16-bit stays 16-bit.
    decoder.set_transformations(png::Transformations::EXPAND);
    let mut reader = decoder.read_info().context("reading the PNG header")?;
    let mut buf = vec![0u8; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).context("decoding the PNG")?;
    let (width, height) = (info.width as usize, info.height as usize);
    let pixels = &buf[..info.buffer_size()];
    let sixteen = info.bit_depth == png::BitDepth::Sixteen;
    let ty = if sixteen {
        ChannelType::UnormInt16
    } else {
        ChannelType::UnormInt8
    };
    let bytes_per = if sixteen { 2 } else { 1 };
    // PNG samples are big-endian; image memory is little-endian.
    let to_le = |samples: &[u8]| -> Vec<u8> {
        if sixteen {
            samples.chunks_exact(2).flat_map(|s| [s[1], s[0]]).collect()
        } else {
            samples.to_vec()
        }
    };
    let (order, data) = match info.color_type {
        png::ColorType::Grayscale => (ChannelOrder::R, to_le(pixels)),
        png::ColorType::GrayscaleAlpha => (ChannelOrder::RA, to_le(pixels)),
        png::ColorType::Rgba => (ChannelOrder::RGBA, to_le(pixels)),
        png::ColorType::Rgb => {
            let opaque = vec![0xFFu8; bytes_per];
            let mut out = Vec::with_capacity(width * height * 4 * bytes_per);
            for pixel in pixels.chunks_exact(3 * bytes_per) {
                out.extend(to_le(pixel));
                out.extend(&opaque);
            }
            (ChannelOrder::RGBA, out)
        }
        png::ColorType::Indexed => bail!("indexed PNG left unexpanded"),
    };
    Ok(ImageData {
        format: format(order, ty)?,
        width,
        height,
        data,
    })
}

/// Encodes texels as a PNG file's bytes.
pub fn encode_png(image: &ImageData) -> Result<Vec<u8>> {
    let f = image.format;
    let n = image.width * image.height;
    let direct = match (f.order(), f.channel_type()) {
        (ChannelOrder::R | ChannelOrder::Luminance | ChannelOrder::Intensity, t) => {
            Some((png::ColorType::Grayscale, t, [0usize, 0, 0, 0], 1))
        }
        (ChannelOrder::RA, t) => Some((png::ColorType::GrayscaleAlpha, t, [0, 1, 0, 0], 2)),
        (ChannelOrder::RGBA, t) => Some((png::ColorType::Rgba, t, [0, 1, 2, 3], 4)),
        (ChannelOrder::BGRA, t) => Some((png::ColorType::Rgba, t, [2, 1, 0, 3], 4)),
        (ChannelOrder::ARGB, t) => Some((png::ColorType::Rgba, t, [1, 2, 3, 0], 4)),
        (ChannelOrder::ABGR, t) => Some((png::ColorType::Rgba, t, [3, 2, 1, 0], 4)),
        _ => None,
    }
    .filter(|(_, t, _, _)| matches!(t, ChannelType::UnormInt8 | ChannelType::UnormInt16));
    let (color, depth, samples) = match direct {
        Some((color, t, pick, channels)) => {
            let wide = t == ChannelType::UnormInt16;
            let es = f.element_size();
            let mut out = Vec::with_capacity(n * es);
            for texel in image.data.chunks_exact(es).take(n) {
                for &c in &pick[..channels] {
                    if wide {
                        // Little-endian memory to big-endian PNG samples.
                        out.extend([texel[2 * c + 1], texel[2 * c]]);
                    } else {
                        out.push(texel[c]);
                    }
                }
            }
            let depth = if wide {
                png::BitDepth::Sixteen
            } else {
                png::BitDepth::Eight
            };
            (color, depth, out)
        }
        None => {
            let es = f.element_size();
            let mut out = Vec::with_capacity(n * 4);
            for texel in image.data.chunks_exact(es).take(n) {
                let t = devlib_read(&f, texel)?;
                out.extend(rgba8_of(t));
            }
            (png::ColorType::Rgba, png::BitDepth::Eight, out)
        }
    };
    let mut bytes = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut bytes, image.width as u32, image.height as u32);
        encoder.set_color(color);
        encoder.set_depth(depth);
        let mut writer = encoder.write_header().context("writing the PNG header")?;
        writer
            .write_image_data(&samples)
            .context("writing the PNG data")?;
    }
    Ok(bytes)
}

fn devlib_read(f: &ImageFormat, texel: &[u8]) -> Result<Texel> {
    runtime::read_texel(f, texel).context("reading a texel")
}

/// A texel as RGBA 8-bit: floats clamped to [0, 1] and scaled (round to nearest), integers
/// clamped to [0, 255].
fn rgba8_of(t: Texel) -> [u8; 4] {
    match t {
        Texel::Float(v) => v.map(|c| (c.clamp(0.0, 1.0) * 255.0).round() as u8),
        Texel::Int(v) => v.map(|c| c.clamp(0, 255) as u8),
        Texel::Uint(v) => v.map(|c| c.min(255) as u8),
    }
}

/// The format names of `image:WIDTHxHEIGHT:FORMAT`.
pub const FORMAT_NAMES: &[(&str, ChannelOrder, ChannelType)] = &[
    ("r8", ChannelOrder::R, ChannelType::UnormInt8),
    ("ra8", ChannelOrder::RA, ChannelType::UnormInt8),
    ("rgba8", ChannelOrder::RGBA, ChannelType::UnormInt8),
    ("bgra8", ChannelOrder::BGRA, ChannelType::UnormInt8),
    ("r16", ChannelOrder::R, ChannelType::UnormInt16),
    ("rgba16", ChannelOrder::RGBA, ChannelType::UnormInt16),
    ("r32f", ChannelOrder::R, ChannelType::Float),
    ("rgba32f", ChannelOrder::RGBA, ChannelType::Float),
    ("rgba16f", ChannelOrder::RGBA, ChannelType::HalfFloat),
    ("r8ui", ChannelOrder::R, ChannelType::UnsignedInt8),
    ("rgba8ui", ChannelOrder::RGBA, ChannelType::UnsignedInt8),
    ("r32ui", ChannelOrder::R, ChannelType::UnsignedInt32),
    ("rgba32ui", ChannelOrder::RGBA, ChannelType::UnsignedInt32),
    ("r32i", ChannelOrder::R, ChannelType::SignedInt32),
    ("rgba32i", ChannelOrder::RGBA, ChannelType::SignedInt32),
];

/// A format by its `image:` name.
pub fn format_by_name(name: &str) -> Result<ImageFormat> {
    match FORMAT_NAMES.iter().find(|(n, _, _)| *n == name) {
        Some((_, order, ty)) => format(*order, *ty),
        None => bail!(
            "unknown image format `{name}` (one of {})",
            FORMAT_NAMES
                .iter()
                .map(|(n, _, _)| *n)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    /// A PNG made with the png crate's encoder from hand-written samples.
    fn png_of(color: png::ColorType, depth: png::BitDepth, w: u32, h: u32, data: &[u8]) -> Vec<u8> {
        let mut bytes = Vec::new();
        {
            let mut e = png::Encoder::new(&mut bytes, w, h);
            e.set_color(color);
            e.set_depth(depth);
            e.write_header().unwrap().write_image_data(data).unwrap();
        }
        bytes
    }

    fn context() -> runtime::Context {
        let mut device = runtime::Device::host_cpu();
        device.set_image_support(true);
        runtime::Context::new(Arc::new(device))
    }

    /// PNG → image object → PNG, without a kernel: the pixels come back unchanged.
    fn round_trip(png_bytes: &[u8]) -> (ImageData, Vec<u8>) {
        let decoded = decode_png(png_bytes).unwrap();
        let image = runtime::Image::new(
            &context(),
            runtime::ImageAccess::ReadWrite,
            decoded.format,
            runtime::ImageShape {
                image_type: runtime::ImageType::Image2D,
                width: decoded.width,
                height: decoded.height,
                depth: 1,
                array_size: 1,
            },
            runtime::ImageSource::Copy(&decoded.data, runtime::HostPitches::default()),
        )
        .unwrap();
        let back = ImageData {
            data: image.to_vec().unwrap(),
            ..decoded.clone()
        };
        (decoded, encode_png(&back).unwrap())
    }

    fn pixels(png_bytes: &[u8]) -> (png::ColorType, png::BitDepth, Vec<u8>) {
        let mut reader = png::Decoder::new(png_bytes).read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut buf).unwrap();
        buf.truncate(info.buffer_size());
        (info.color_type, info.bit_depth, buf)
    }

    #[test]
    fn rgba8_round_trip_through_an_image() {
        let data: Vec<u8> = (0..3 * 2 * 4).map(|i| (i * 10) as u8).collect();
        let png_bytes = png_of(png::ColorType::Rgba, png::BitDepth::Eight, 3, 2, &data);
        let (decoded, out) = round_trip(&png_bytes);
        assert_eq!(decoded.format.order(), ChannelOrder::RGBA);
        assert_eq!(decoded.format.channel_type(), ChannelType::UnormInt8);
        assert_eq!(decoded.data, data);
        assert_eq!(
            pixels(&out),
            (png::ColorType::Rgba, png::BitDepth::Eight, data)
        );
    }

    #[test]
    fn rgb8_gets_an_opaque_alpha() {
        let data = [1u8, 2, 3, 4, 5, 6];
        let png_bytes = png_of(png::ColorType::Rgb, png::BitDepth::Eight, 2, 1, &data);
        let (decoded, out) = round_trip(&png_bytes);
        assert_eq!(decoded.data, [1, 2, 3, 255, 4, 5, 6, 255]);
        assert_eq!(pixels(&out).2, [1, 2, 3, 255, 4, 5, 6, 255]);
    }

    #[test]
    fn gray16_is_unorm_int16_little_endian() {
        // Samples 0x0102 and 0xA0B0, big-endian in the PNG.
        let data = [0x01u8, 0x02, 0xA0, 0xB0];
        let png_bytes = png_of(
            png::ColorType::Grayscale,
            png::BitDepth::Sixteen,
            2,
            1,
            &data,
        );
        let (decoded, out) = round_trip(&png_bytes);
        assert_eq!(decoded.format.order(), ChannelOrder::R);
        assert_eq!(decoded.format.channel_type(), ChannelType::UnormInt16);
        assert_eq!(decoded.data, [0x02, 0x01, 0xB0, 0xA0]);
        assert_eq!(
            pixels(&out),
            (
                png::ColorType::Grayscale,
                png::BitDepth::Sixteen,
                data.to_vec()
            )
        );
    }

    #[test]
    fn gray_alpha_and_float_images() {
        let data = [10u8, 20, 30, 40];
        let png_bytes = png_of(
            png::ColorType::GrayscaleAlpha,
            png::BitDepth::Eight,
            2,
            1,
            &data,
        );
        let (decoded, out) = round_trip(&png_bytes);
        assert_eq!(decoded.format.order(), ChannelOrder::RA);
        assert_eq!(pixels(&out).2, data);
        // An RGBA float image: 0.5 → 127.5 → 128, 2.0 clamps to 255, -1 to 0.
        let f = format(ChannelOrder::RGBA, ChannelType::Float).unwrap();
        let texel: Vec<u8> = [0.5f32, 2.0, -1.0, 1.0]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let out = encode_png(&ImageData {
            format: f,
            width: 1,
            height: 1,
            data: texel,
        })
        .unwrap();
        assert_eq!(pixels(&out).2, [128, 255, 0, 255]);
        // BGRA is reordered to RGBA.
        let f = format(ChannelOrder::BGRA, ChannelType::UnormInt8).unwrap();
        let out = encode_png(&ImageData {
            format: f,
            width: 1,
            height: 1,
            data: vec![1, 2, 3, 4],
        })
        .unwrap();
        assert_eq!(pixels(&out).2, [3, 2, 1, 4]);
    }

    #[test]
    fn not_a_png() {
        assert!(decode_png(b"not a png").is_err());
        assert!(format_by_name("rgb8").is_err());
        assert!(format_by_name("rgba8").is_ok());
    }
}
