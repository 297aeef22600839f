//! Image texels and samplers (OpenCL SPIR-V environment spec §9 "Image Addressing and
//! Filtering"; OpenCL C 2.0 §6.13.14; memory layouts from the OpenCL API spec "Image Format
//! Descriptor"): channel formats, texel read/write conversions, sampler addressing and the
//! weights of linear filtering. Pure functions over bytes and coordinates; the caller owns the
//! image memory.
//!
//! Deterministic choices where the specification leaves freedom: NaN written to a normalized
//! or integer-converted channel becomes 0; +∞ saturates to the channel maximum, -∞ to the
//! minimum; coordinates out of range with `AddressingMode::None` read the border color (like
//! `Clamp`); repeat modes with unnormalized coordinates divide by the size first.

use crate::convert::{f16_to_f32, f32_to_f16, Rounding};
use half::f16;

/// Image channel order (`cl_channel_order`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChannelOrder {
    R,
    A,
    RG,
    RA,
    RGB,
    RGBA,
    BGRA,
    ARGB,
    ABGR,
    Intensity,
    Luminance,
    Rx,
    RGx,
    RGBx,
    Depth,
    SRGB,
    SRGBx,
    SRGBA,
    SBGRA,
}

/// Image channel data type (`cl_channel_type`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChannelType {
    SnormInt8,
    SnormInt16,
    UnormInt8,
    UnormInt16,
    UnormShort565,
    UnormShort555,
    UnormInt101010,
    UnormInt101010_2,
    SignedInt8,
    SignedInt16,
    SignedInt32,
    UnsignedInt8,
    UnsignedInt16,
    UnsignedInt32,
    HalfFloat,
    Float,
}

/// What a read returns / a write takes: `read_imagef`, `read_imagei`, `read_imageui`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TexelKind {
    Float,
    Int,
    Uint,
}

/// A texel as the kernel sees it: four components (R, G, B, A) after the channel mapping of
/// env §9.6 Table 9.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Texel {
    Float([f32; 4]),
    Int([i32; 4]),
    Uint([u32; 4]),
}

/// Errors for malformed formats or buffers.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ImageError {
    #[error("channel order {order:?} cannot be used with channel data type {channel_type:?}")]
    InvalidFormat {
        order: ChannelOrder,
        channel_type: ChannelType,
    },
    #[error("texel buffer has {got} bytes, the format {format:?} needs {need}")]
    WrongSize {
        format: ImageFormat,
        got: usize,
        need: usize,
    },
    #[error("a {got:?} texel cannot be written to an image whose reads return {expected:?}")]
    KindMismatch { expected: TexelKind, got: TexelKind },
}

/// A validated image format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ImageFormat {
    order: ChannelOrder,
    channel_type: ChannelType,
}

/// Which memory channel holds each of R, G, B, A (`None`: the default 0, or 1 for alpha).
fn channel_map(order: ChannelOrder) -> [Option<usize>; 4] {
    use ChannelOrder::*;
    match order {
        R | Rx | Depth => [Some(0), None, None, None],
        A => [None, None, None, Some(0)],
        RG | RGx => [Some(0), Some(1), None, None],
        RA => [Some(0), None, None, Some(1)],
        RGB | RGBx | SRGB | SRGBx => [Some(0), Some(1), Some(2), None],
        RGBA | SRGBA => [Some(0), Some(1), Some(2), Some(3)],
        BGRA | SBGRA => [Some(2), Some(1), Some(0), Some(3)],
        ARGB => [Some(1), Some(2), Some(3), Some(0)],
        ABGR => [Some(3), Some(2), Some(1), Some(0)],
        Intensity => [Some(0), Some(0), Some(0), Some(0)],
        Luminance => [Some(0), Some(0), Some(0), None],
    }
}

impl ImageFormat {
    /// Validates the combination (API spec "Image Format Descriptor": packed types need RGB/RGBx
    /// or RGBA, sRGB needs UnormInt8, Depth needs UnormInt16 or Float).
    pub fn new(order: ChannelOrder, channel_type: ChannelType) -> Result<Self, ImageError> {
        use ChannelOrder as O;
        use ChannelType as T;
        let ok = match channel_type {
            T::UnormShort565 | T::UnormShort555 | T::UnormInt101010 => {
                matches!(order, O::RGB | O::RGBx)
            }
            T::UnormInt101010_2 => order == O::RGBA,
            _ => match order {
                O::RGB | O::RGBx => false, // only with the packed types
                O::SRGB | O::SRGBx | O::SRGBA | O::SBGRA => channel_type == T::UnormInt8,
                O::Depth => matches!(channel_type, T::UnormInt16 | T::Float),
                O::BGRA | O::ARGB | O::ABGR => matches!(
                    channel_type,
                    T::UnormInt8 | T::SnormInt8 | T::SignedInt8 | T::UnsignedInt8
                ),
                O::Intensity | O::Luminance => matches!(
                    channel_type,
                    T::UnormInt8
                        | T::UnormInt16
                        | T::SnormInt8
                        | T::SnormInt16
                        | T::HalfFloat
                        | T::Float
                ),
                _ => true,
            },
        };
        if ok {
            Ok(ImageFormat {
                order,
                channel_type,
            })
        } else {
            Err(ImageError::InvalidFormat {
                order,
                channel_type,
            })
        }
    }

    pub fn order(&self) -> ChannelOrder {
        self.order
    }

    pub fn channel_type(&self) -> ChannelType {
        self.channel_type
    }

    /// Number of channels stored in memory per element (x padding channels included).
    pub fn channel_count(&self) -> usize {
        use ChannelOrder::*;
        match self.order {
            R | A | Intensity | Luminance | Depth => 1,
            RG | RA | Rx => 2,
            RGB | SRGB | RGx => 3,
            RGBA | BGRA | ARGB | ABGR | RGBx | SRGBx | SRGBA | SBGRA => 4,
        }
    }

    /// Bytes per image element.
    pub fn element_size(&self) -> usize {
        use ChannelType::*;
        match self.channel_type {
            UnormShort565 | UnormShort555 => 2,
            UnormInt101010 | UnormInt101010_2 => 4,
            SnormInt8 | UnormInt8 | SignedInt8 | UnsignedInt8 => self.channel_count(),
            SnormInt16 | UnormInt16 | SignedInt16 | UnsignedInt16 | HalfFloat => {
                2 * self.channel_count()
            }
            SignedInt32 | UnsignedInt32 | Float => 4 * self.channel_count(),
        }
    }

    /// The texel kind reads return and writes take.
    pub fn texel_kind(&self) -> TexelKind {
        use ChannelType::*;
        match self.channel_type {
            SignedInt8 | SignedInt16 | SignedInt32 => TexelKind::Int,
            UnsignedInt8 | UnsignedInt16 | UnsignedInt32 => TexelKind::Uint,
            _ => TexelKind::Float,
        }
    }

    fn is_srgb(&self) -> bool {
        use ChannelOrder::*;
        matches!(self.order, SRGB | SRGBx | SRGBA | SBGRA)
    }

    fn check_size(&self, len: usize) -> Result<(), ImageError> {
        let need = self.element_size();
        if len == need {
            Ok(())
        } else {
            Err(ImageError::WrongSize {
                format: *self,
                got: len,
                need,
            })
        }
    }
}

/// The border color of `CL_ADDRESS_CLAMP` (OpenCL C 2.0 §6.13.14.1 "Determining the border
/// color"): transparent black when the order has an alpha (or padding) channel, opaque black
/// otherwise. Integer images use the same values as integers.
pub fn border_color(format: &ImageFormat) -> Texel {
    use ChannelOrder::*;
    let alpha = match format.order {
        R | RG | RGB | Luminance | SRGB | Depth => 1,
        _ => 0,
    };
    match format.texel_kind() {
        TexelKind::Float => Texel::Float([0.0, 0.0, 0.0, alpha as f32]),
        TexelKind::Int => Texel::Int([0, 0, 0, alpha]),
        TexelKind::Uint => Texel::Uint([0, 0, 0, alpha as u32]),
    }
}

fn le_u16(b: &[u8], i: usize) -> u16 {
    u16::from_le_bytes([b[2 * i], b[2 * i + 1]])
}

fn le_u32(b: &[u8], i: usize) -> u32 {
    u32::from_le_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]])
}

/// env §9.4.1: normalized unsigned integer → float, `round_to_float(x / max)`.
fn unorm_to_float(x: u32, max: u32) -> f32 {
    (f64::from(x) / f64::from(max)) as f32
}

/// env §9.4.1: normalized signed integer → float, `max(-1, round_to_float(x / max))`.
fn snorm_to_float(x: i32, max: i32) -> f32 {
    ((f64::from(x) / f64::from(max)) as f32).max(-1.0)
}

/// env §9.4.1: float → normalized integer, `rte(max(lo, min(hi, scale × x)))`; NaN → 0.
fn float_to_norm(x: f32, scale: f32, lo: f32, hi: f32) -> i32 {
    if x.is_nan() {
        return 0;
    }
    (f64::from(scale) * f64::from(x))
        .clamp(f64::from(lo), f64::from(hi))
        .round_ties_even() as i32
}

/// env §9.4.5: sRGB → linear.
fn srgb_to_linear(r: f32) -> f32 {
    let r = f64::from(r);
    let y = if r <= 0.04045 {
        r / 12.92
    } else {
        libm::pow((r + 0.055) / 1.055, 2.4)
    };
    y as f32
}

/// env §9.4.5: linear → sRGB (NaN and negatives → 0, above 1 → 1).
fn linear_to_srgb(y: f32) -> f32 {
    if y.is_nan() || y < 0.0 {
        return 0.0;
    }
    let y = f64::from(y);
    let r = if y < 0.0031308 {
        12.92 * y
    } else if y <= 1.0 {
        1.055 * libm::pow(y, 1.0 / 2.4) - 0.055
    } else {
        1.0
    };
    r as f32
}

/// Raw channel values of one element in memory order, as floats (normalized and float types)
/// or as integers.
enum Channels {
    Float([f32; 4]),
    Int([i32; 4]),
    Uint([u32; 4]),
}

fn decode_channels(format: &ImageFormat, b: &[u8]) -> Channels {
    use ChannelType::*;
    let n = format.channel_count();
    let mut f = [0.0f32; 4];
    let mut i = [0i32; 4];
    let mut u = [0u32; 4];
    match format.channel_type {
        UnormInt8 => (0..n).for_each(|c| f[c] = unorm_to_float(u32::from(b[c]), 255)),
        UnormInt16 => (0..n).for_each(|c| f[c] = unorm_to_float(u32::from(le_u16(b, c)), 65535)),
        SnormInt8 => (0..n).for_each(|c| f[c] = snorm_to_float(i32::from(b[c] as i8), 127)),
        SnormInt16 => {
            (0..n).for_each(|c| f[c] = snorm_to_float(i32::from(le_u16(b, c) as i16), 32767))
        }
        UnormShort565 => {
            let v = u32::from(le_u16(b, 0));
            f[0] = unorm_to_float(v >> 11, 31);
            f[1] = unorm_to_float((v >> 5) & 63, 63);
            f[2] = unorm_to_float(v & 31, 31);
        }
        UnormShort555 => {
            let v = u32::from(le_u16(b, 0));
            f[0] = unorm_to_float((v >> 10) & 31, 31);
            f[1] = unorm_to_float((v >> 5) & 31, 31);
            f[2] = unorm_to_float(v & 31, 31);
        }
        UnormInt101010 => {
            let v = le_u32(b, 0);
            f[0] = unorm_to_float((v >> 20) & 1023, 1023);
            f[1] = unorm_to_float((v >> 10) & 1023, 1023);
            f[2] = unorm_to_float(v & 1023, 1023);
        }
        UnormInt101010_2 => {
            let v = le_u32(b, 0);
            f[0] = unorm_to_float(v >> 22, 1023);
            f[1] = unorm_to_float((v >> 12) & 1023, 1023);
            f[2] = unorm_to_float((v >> 2) & 1023, 1023);
            f[3] = unorm_to_float(v & 3, 3);
        }
        HalfFloat => (0..n).for_each(|c| f[c] = f16_to_f32(f16::from_bits(le_u16(b, c)))),
        Float => (0..n).for_each(|c| f[c] = f32::from_bits(le_u32(b, c))),
        SignedInt8 => {
            (0..n).for_each(|c| i[c] = i32::from(b[c] as i8));
            return Channels::Int(i);
        }
        SignedInt16 => {
            (0..n).for_each(|c| i[c] = i32::from(le_u16(b, c) as i16));
            return Channels::Int(i);
        }
        SignedInt32 => {
            (0..n).for_each(|c| i[c] = le_u32(b, c) as i32);
            return Channels::Int(i);
        }
        UnsignedInt8 => {
            (0..n).for_each(|c| u[c] = u32::from(b[c]));
            return Channels::Uint(u);
        }
        UnsignedInt16 => {
            (0..n).for_each(|c| u[c] = u32::from(le_u16(b, c)));
            return Channels::Uint(u);
        }
        UnsignedInt32 => {
            (0..n).for_each(|c| u[c] = le_u32(b, c));
            return Channels::Uint(u);
        }
    }
    Channels::Float(f)
}

/// Reads one image element (`element_size()` bytes, little-endian) and converts it to the texel
/// a kernel sees: normalized conversion (env §9.4.1), sRGB to linear (§9.4.5), the channel
/// mapping of §9.6 Table 9.
pub fn read_texel(format: &ImageFormat, bytes: &[u8]) -> Result<Texel, ImageError> {
    format.check_size(bytes.len())?;
    let map = channel_map(format.order);
    let pick = |c: usize, default: f32, f: &[f32; 4]| map[c].map_or(default, |m| f[m]);
    Ok(match decode_channels(format, bytes) {
        Channels::Float(f) => {
            let mut t = [
                pick(0, 0.0, &f),
                pick(1, 0.0, &f),
                pick(2, 0.0, &f),
                pick(3, 1.0, &f),
            ];
            if format.is_srgb() {
                for c in &mut t[..3] {
                    *c = srgb_to_linear(*c);
                }
            }
            Texel::Float(t)
        }
        Channels::Int(v) => {
            Texel::Int([0, 1, 2, 3].map(|c| map[c].map_or(if c == 3 { 1 } else { 0 }, |m| v[m])))
        }
        Channels::Uint(v) => {
            Texel::Uint([0, 1, 2, 3].map(|c| map[c].map_or(if c == 3 { 1 } else { 0 }, |m| v[m])))
        }
    })
}

/// Converts a texel written by a kernel and stores it as one element in `out`
/// (`element_size()` bytes, little-endian): float → normalized with round to nearest even and
/// saturation (env §9.4.1), float → half with round to nearest even (§9.4.2), integer clamping
/// (§9.4.4), linear to sRGB (§9.4.5). For Intensity/Luminance/Depth the R component is stored.
pub fn write_texel(format: &ImageFormat, texel: Texel, out: &mut [u8]) -> Result<(), ImageError> {
    use ChannelType::*;
    format.check_size(out.len())?;
    let got = match texel {
        Texel::Float(_) => TexelKind::Float,
        Texel::Int(_) => TexelKind::Int,
        Texel::Uint(_) => TexelKind::Uint,
    };
    if got != format.texel_kind() {
        return Err(ImageError::KindMismatch {
            expected: format.texel_kind(),
            got,
        });
    }
    // Memory channel m receives the component that maps to it.
    let map = channel_map(format.order);
    let n = format.channel_count();
    let mut source = [0usize; 4];
    for (m, src) in source.iter_mut().enumerate().take(n) {
        *src = (0..4).find(|&c| map[c] == Some(m)).unwrap_or(3);
    }
    let put16 =
        |out: &mut [u8], i: usize, v: u16| out[2 * i..2 * i + 2].copy_from_slice(&v.to_le_bytes());
    let put32 =
        |out: &mut [u8], i: usize, v: u32| out[4 * i..4 * i + 4].copy_from_slice(&v.to_le_bytes());
    match texel {
        Texel::Float(mut t) => {
            if format.is_srgb() {
                for c in &mut t[..3] {
                    *c = linear_to_srgb(*c);
                }
            }
            let ch = |m: usize| t[source[m]];
            let unorm = |x: f32, max: u32| float_to_norm(x, max as f32, 0.0, max as f32) as u32;
            match format.channel_type {
                UnormInt8 => (0..n).for_each(|m| out[m] = unorm(ch(m), 255) as u8),
                UnormInt16 => (0..n).for_each(|m| put16(out, m, unorm(ch(m), 65535) as u16)),
                SnormInt8 => (0..n)
                    .for_each(|m| out[m] = float_to_norm(ch(m), 127.0, -128.0, 127.0) as i8 as u8),
                SnormInt16 => (0..n).for_each(|m| {
                    put16(
                        out,
                        m,
                        float_to_norm(ch(m), 32767.0, -32768.0, 32767.0) as i16 as u16,
                    )
                }),
                UnormShort565 => {
                    let v = (unorm(t[0], 31) << 11) | (unorm(t[1], 63) << 5) | unorm(t[2], 31);
                    put16(out, 0, v as u16);
                }
                UnormShort555 => {
                    let v = (unorm(t[0], 31) << 10) | (unorm(t[1], 31) << 5) | unorm(t[2], 31);
                    put16(out, 0, v as u16);
                }
                UnormInt101010 => {
                    let v =
                        (unorm(t[0], 1023) << 20) | (unorm(t[1], 1023) << 10) | unorm(t[2], 1023);
                    put32(out, 0, v);
                }
                UnormInt101010_2 => {
                    let v = (unorm(t[0], 1023) << 22)
                        | (unorm(t[1], 1023) << 12)
                        | (unorm(t[2], 1023) << 2)
                        | unorm(t[3], 3);
                    put32(out, 0, v);
                }
                HalfFloat => {
                    (0..n).for_each(|m| put16(out, m, f32_to_f16(ch(m), Rounding::Rte).to_bits()))
                }
                Float => (0..n).for_each(|m| put32(out, m, ch(m).to_bits())),
                _ => {}
            }
        }
        Texel::Int(t) => {
            let ch = |m: usize| t[source[m]];
            match format.channel_type {
                SignedInt8 => (0..n).for_each(|m| out[m] = ch(m).clamp(-128, 127) as i8 as u8),
                SignedInt16 => {
                    (0..n).for_each(|m| put16(out, m, ch(m).clamp(-32768, 32767) as i16 as u16))
                }
                _ => (0..n).for_each(|m| put32(out, m, ch(m) as u32)),
            }
        }
        Texel::Uint(t) => {
            let ch = |m: usize| t[source[m]];
            match format.channel_type {
                UnsignedInt8 => (0..n).for_each(|m| out[m] = ch(m).min(255) as u8),
                UnsignedInt16 => (0..n).for_each(|m| put16(out, m, ch(m).min(65535) as u16)),
                _ => (0..n).for_each(|m| put32(out, m, ch(m))),
            }
        }
    }
    Ok(())
}

/// Sampler addressing mode (`cl_addressing_mode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AddressingMode {
    None,
    ClampToEdge,
    Clamp,
    Repeat,
    MirroredRepeat,
}

/// Sampler filter mode (`cl_filter_mode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FilterMode {
    Nearest,
    Linear,
}

/// A sampler's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Sampler {
    pub normalized_coords: bool,
    pub addressing: AddressingMode,
    pub filter: FilterMode,
}

impl Sampler {
    /// The sampler of sampler-less reads (env §9.7): nearest, unnormalized, no addressing.
    pub const SAMPLERLESS: Sampler = Sampler {
        normalized_coords: false,
        addressing: AddressingMode::None,
        filter: FilterMode::Nearest,
    };
}

/// `(int)floor(x)`, saturating (coordinates are undefined for ∞/NaN; NaN gives 0).
fn floor_int(x: f32) -> i64 {
    x.floor() as i64
}

/// Index inside [0, size) or `None` (border color / undefined).
fn inside(i: i64, size: u32) -> Option<u32> {
    (0..i64::from(size)).contains(&i).then_some(i as u32)
}

/// `address_mode` of env §9.2.1 Table 8, then the inside test.
fn clamp_mode(i: i64, size: u32, mode: AddressingMode) -> Option<u32> {
    let size_i = i64::from(size);
    match mode {
        AddressingMode::ClampToEdge => inside(i.clamp(0, size_i - 1), size),
        _ => inside(i, size), // Clamp: -1 and size are border; None: out of range → border
    }
}

/// The repeat modes work on normalized coordinates.
fn normalized(coord: f32, size: u32, sampler: &Sampler) -> f32 {
    if sampler.normalized_coords {
        coord
    } else {
        coord / size as f32
    }
}

/// Nearest filtering along one axis of `size` texels: the texel index, or `None` for the border
/// color (env §9.2.1–9.2.3, nearest).
pub fn nearest_index(coord: f32, size: u32, sampler: &Sampler) -> Option<u32> {
    if size == 0 {
        return None;
    }
    let w = size as f32;
    match sampler.addressing {
        AddressingMode::None | AddressingMode::Clamp | AddressingMode::ClampToEdge => {
            let u = if sampler.normalized_coords {
                coord * w
            } else {
                coord
            };
            clamp_mode(floor_int(u), size, sampler.addressing)
        }
        AddressingMode::Repeat => {
            let s = normalized(coord, size, sampler);
            let u = (s - s.floor()) * w;
            let mut i = floor_int(u);
            if i > i64::from(size) - 1 {
                i -= i64::from(size);
            }
            inside(i, size)
        }
        AddressingMode::MirroredRepeat => {
            let s = normalized(coord, size, sampler);
            let s2 = (s - 2.0 * (0.5 * s).round_ties_even()).abs();
            let i = floor_int(s2 * w).min(i64::from(size) - 1);
            inside(i, size)
        }
    }
}

/// Linear filtering along one axis: the two texels (each `None` for the border color) and the
/// weight `a` of the second (the first has `1 - a`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LinearTaps {
    pub i0: Option<u32>,
    pub i1: Option<u32>,
    pub a: f32,
}

/// The taps of linear filtering along one axis of `size` texels (env §9.2.1–9.2.3, linear).
pub fn linear_taps(coord: f32, size: u32, sampler: &Sampler) -> LinearTaps {
    let w = size as f32;
    let size_i = i64::from(size);
    let frac = |x: f32| x - x.floor();
    match sampler.addressing {
        AddressingMode::None | AddressingMode::Clamp | AddressingMode::ClampToEdge => {
            let u = if sampler.normalized_coords {
                coord * w
            } else {
                coord
            };
            let base = floor_int(u - 0.5);
            LinearTaps {
                i0: clamp_mode(base, size, sampler.addressing),
                i1: clamp_mode(base + 1, size, sampler.addressing),
                a: frac(u - 0.5),
            }
        }
        AddressingMode::Repeat => {
            let s = normalized(coord, size, sampler);
            let u = (s - s.floor()) * w;
            let mut i0 = floor_int(u - 0.5);
            let mut i1 = i0 + 1;
            if i0 < 0 {
                i0 += size_i;
            }
            if i1 > size_i - 1 {
                i1 -= size_i;
            }
            LinearTaps {
                i0: inside(i0, size),
                i1: inside(i1, size),
                a: frac(u - 0.5),
            }
        }
        AddressingMode::MirroredRepeat => {
            let s = normalized(coord, size, sampler);
            let s2 = (s - 2.0 * (0.5 * s).round_ties_even()).abs();
            let u = s2 * w;
            let i0 = floor_int(u - 0.5);
            LinearTaps {
                i0: inside(i0.max(0), size),
                i1: inside((i0 + 1).min(size_i - 1), size),
                a: frac(u - 0.5),
            }
        }
    }
}

/// The image-array layer a sampled read selects (env §9.5): `clamp(rint(coord), 0, layers - 1)`.
pub fn array_layer(coord: f32, layers: u32) -> u32 {
    let l = coord.round_ties_even();
    if l.is_nan() || l < 0.0 || layers == 0 {
        0
    } else {
        (l as u64).min(u64::from(layers) - 1) as u32
    }
}

/// Linear interpolation of two texels: `(1 - a) × t0 + a × t1`, per component.
pub fn lerp_texel(t0: [f32; 4], t1: [f32; 4], a: f32) -> [f32; 4] {
    [0, 1, 2, 3].map(|c| (1.0 - a) * t0[c] + a * t1[c])
}
