//! Whole-image access over an [`ImageDesc`] and the image's bytes: sampled reads (env §9.2
//! addressing and filtering in 1D, 2D and 3D, §9.5 layer selection of image arrays), sampler-less
//! reads (§9.7), integer-coordinate writes, with mip levels (cl_khr_mipmap_image).
//!
//! The memory is behind the [`ImageMemory`] trait so that engines can work on raw memory shared
//! by work-items while tests use plain byte vectors.
//!
//! Deterministic choices where the specification leaves results undefined:
//! - `CL_ADDRESS_NONE` with a texel outside the image, and sampler-less reads outside the image
//!   (coordinates, layer or mip level out of range) read the border color of
//!   [`crate::image::border_color`];
//! - linear filtering of an integer image (undefined, OpenCL C §6.13.14.2) filters as nearest;
//! - the layer of a sampled array read is `clamp(rint(w), 0, layers - 1)` (§9.5), the layer of a
//!   sampler-less read is the integer as given (outside: border color);
//! - writes outside the image (coordinates, layer or level) are ignored (nothing is stored);
//! - the mip level of a sampled read with an explicit level of detail `lod` is the nearest level,
//!   `0` for `lod <= 0.5`, else `ceil(lod + 0.5) - 1`, clamped to the last level (the OpenGL
//!   rule for nearest mipmap selection, which cl_khr_mipmap_image refers to); NaN selects 0;
//! - the linear mip filter blends levels `floor(lod)` and `floor(lod) + 1` by `frac(lod)` (the
//!   OpenGL rule), reads level 0 alone for `lod <= 0` and the last level alone beyond it, and
//!   filters integer images as the nearest level.

use crate::image::{
    border_color, linear_taps, nearest_index, read_texel, write_texel, ChannelOrder, ChannelType,
    FilterMode, ImageError, Sampler, Texel, TexelKind,
};
use crate::image_desc::{ImageDesc, ImageType};

/// Byte access to an image's memory. Offsets come from [`ImageDesc::texel_offset`]; callers
/// check `desc.byte_len() <= len` once, before any access.
pub trait ImageMemory {
    /// Copies `out.len()` bytes at `offset` into `out`.
    fn load(&self, offset: usize, out: &mut [u8]);
    /// Copies `bytes` to `offset`.
    fn store(&self, offset: usize, bytes: &[u8]);
}

impl ImageMemory for [std::cell::Cell<u8>] {
    fn load(&self, offset: usize, out: &mut [u8]) {
        for (k, b) in out.iter_mut().enumerate() {
            *b = self.get(offset + k).map_or(0, std::cell::Cell::get);
        }
    }

    fn store(&self, offset: usize, bytes: &[u8]) {
        for (k, b) in bytes.iter().enumerate() {
            if let Some(c) = self.get(offset + k) {
                c.set(*b);
            }
        }
    }
}

/// Checks that `desc` describes a well-formed image and returns the bytes it occupies
/// ([`ImageDesc::byte_len`]), or why it is malformed. Engines call this before any access, so
/// the offset arithmetic of [`ImageDesc`] cannot overflow.
pub fn checked_byte_len(desc: &ImageDesc) -> Result<usize, String> {
    const LIMIT: u128 = 1 << 48;
    let es = desc.format.element_size();
    let sizes = [desc.width, desc.height, desc.depth, desc.array_size];
    if sizes.iter().any(|&n| n == 0 || n as u128 > LIMIT) {
        return Err(format!("image sizes {sizes:?} must be between 1 and 2^48"));
    }
    let max_dim = desc.width.max(desc.height).max(desc.depth);
    let max_levels = usize::BITS - max_dim.leading_zeros();
    if desc.mip_levels == 0 || desc.mip_levels > max_levels {
        return Err(format!(
            "{} mip levels for a largest size of {max_dim}",
            desc.mip_levels
        ));
    }
    if (desc.row_pitch as u128) < desc.width as u128 * es as u128 {
        return Err(format!(
            "row pitch {} is less than width {} x element size {es}",
            desc.row_pitch, desc.width
        ));
    }
    let rows = match desc.image_type {
        ImageType::Image2D | ImageType::Image2DArray | ImageType::Image3D => desc.height,
        _ => 1,
    };
    let row_bytes = if desc.image_type == ImageType::Image1DArray {
        desc.width as u128 * es as u128
    } else {
        desc.row_pitch as u128 * rows as u128
    };
    if (desc.slice_pitch as u128) < row_bytes {
        return Err(format!(
            "slice pitch {} is less than the {row_bytes} bytes of one slice",
            desc.slice_pitch
        ));
    }
    let slices = match desc.image_type {
        ImageType::Image3D => desc.depth,
        ImageType::Image1DArray | ImageType::Image2DArray => desc.array_size,
        _ => 1,
    };
    if desc.slice_pitch as u128 * slices as u128 > LIMIT {
        return Err("image larger than 2^48 bytes".into());
    }
    Ok(desc.byte_len())
}

/// Number of coordinates of one layer (1, 2, 3).
fn dims(desc: &ImageDesc) -> usize {
    desc.image_type.dims()
}

/// Layers of an array image (1 otherwise).
fn layers(desc: &ImageDesc) -> usize {
    if desc.image_type.is_array() {
        desc.array_size
    } else {
        1
    }
}

/// The `(x, y, z)` of [`ImageDesc::texel_offset`] for texel `ijk` of `layer`.
fn position(desc: &ImageDesc, ijk: [usize; 3], layer: usize) -> (usize, usize, usize) {
    match desc.image_type {
        ImageType::Image1D | ImageType::Image1DBuffer => (ijk[0], 0, 0),
        ImageType::Image1DArray => (ijk[0], layer, 0),
        ImageType::Image2D => (ijk[0], ijk[1], 0),
        ImageType::Image2DArray => (ijk[0], ijk[1], layer),
        ImageType::Image3D => (ijk[0], ijk[1], ijk[2]),
    }
}

/// The texel at `ijk` of `layer` in mip `level`, `None` outside the image.
fn fetch<M: ImageMemory + ?Sized>(
    desc: &ImageDesc,
    mem: &M,
    level: u32,
    ijk: [usize; 3],
    layer: usize,
) -> Option<Texel> {
    let (x, y, z) = position(desc, ijk, layer);
    let offset = desc.texel_offset(level, x, y, z)?;
    let mut buf = [0u8; 16];
    let n = desc.format.element_size();
    let bytes = buf.get_mut(..n)?;
    mem.load(offset, bytes);
    read_texel(&desc.format, bytes).ok()
}

/// A texel as four 32-bit patterns (floats as their bits).
pub fn texel_bits(t: Texel) -> [u32; 4] {
    match t {
        Texel::Float(f) => f.map(f32::to_bits),
        Texel::Int(i) => i.map(|x| x as u32),
        Texel::Uint(u) => u,
    }
}

/// The texel of `kind` with the 32-bit patterns `bits`.
pub fn texel_from_bits(kind: TexelKind, bits: [u32; 4]) -> Texel {
    match kind {
        TexelKind::Float => Texel::Float(bits.map(f32::from_bits)),
        TexelKind::Int => Texel::Int(bits.map(|x| x as i32)),
        TexelKind::Uint => Texel::Uint(bits),
    }
}

/// A sampler from its 32-bit `sampler_t` encoding (clang's `opencl-c-base.h`:
/// `CLK_NORMALIZED_COORDS_TRUE` 1, `CLK_ADDRESS_NONE` 0, `CLAMP_TO_EDGE` 2, `CLAMP` 4, `REPEAT` 6,
/// `MIRRORED_REPEAT` 8, `CLK_FILTER_NEAREST` 0x10, `CLK_FILTER_LINEAR` 0x20). Unknown addressing
/// bits read as `None`; a filter other than linear as nearest.
pub fn sampler_from_bits(bits: u32) -> Sampler {
    use crate::image::AddressingMode;
    let addressing = match (bits >> 1) & 7 {
        1 => AddressingMode::ClampToEdge,
        2 => AddressingMode::Clamp,
        3 => AddressingMode::Repeat,
        4 => AddressingMode::MirroredRepeat,
        _ => AddressingMode::None,
    };
    Sampler {
        normalized_coords: bits & 1 != 0,
        addressing,
        filter: if bits & 0x30 == 0x20 {
            FilterMode::Linear
        } else {
            FilterMode::Nearest
        },
    }
}

/// The SPIR-V Image Channel Order of a channel order, which `OpImageQueryOrder` returns
/// (env §2.5 Table 3; the `CL_*` value is this plus `0x10B0`).
pub fn channel_order_code(order: ChannelOrder) -> u32 {
    use ChannelOrder::*;
    match order {
        R => 0,
        A => 1,
        RG => 2,
        RA => 3,
        RGB => 4,
        RGBA => 5,
        BGRA => 6,
        ARGB => 7,
        Intensity => 8,
        Luminance => 9,
        Rx => 10,
        RGx => 11,
        RGBx => 12,
        Depth => 13,
        SRGB => 15,
        SRGBx => 16,
        SRGBA => 17,
        SBGRA => 18,
        ABGR => 19,
    }
}

/// The SPIR-V Image Channel Data Type of a channel type, which `OpImageQueryFormat` returns
/// (env §2.6 Table 4; the `CL_*` value is this plus `0x10D0`).
pub fn channel_type_code(channel_type: ChannelType) -> u32 {
    use ChannelType::*;
    match channel_type {
        SnormInt8 => 0,
        SnormInt16 => 1,
        UnormInt8 => 2,
        UnormInt16 => 3,
        UnormShort565 => 4,
        UnormShort555 => 5,
        UnormInt101010 => 6,
        SignedInt8 => 7,
        SignedInt16 => 8,
        SignedInt32 => 9,
        UnsignedInt8 => 10,
        UnsignedInt16 => 11,
        UnsignedInt32 => 12,
        HalfFloat => 13,
        Float => 14,
        UnormInt101010_2 => 16,
    }
}

/// The mip level a sampled read with level of detail `lod` uses (see the module doc).
pub fn mip_level_for_lod(desc: &ImageDesc, lod: f32) -> u32 {
    let last = desc.mip_levels.saturating_sub(1);
    if lod.is_nan() || lod <= 0.5 {
        return 0;
    }
    let level = (lod + 0.5).ceil() - 1.0;
    if level >= last as f32 {
        last
    } else {
        level as u32
    }
}

/// The mipmap state of a sampler (cl_khr_mipmap_image sampler properties, API 5.8.1):
/// `CL_SAMPLER_MIP_FILTER_MODE`, `CL_SAMPLER_LOD_MIN` and `CL_SAMPLER_LOD_MAX`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MipSampling {
    /// "CL_FILTER_NEAREST - Use the nearest mipmap level"; "CL_FILTER_LINEAR - Use a weighted
    /// average of the two mipmap levels nearest to the image coordinate".
    pub filter: FilterMode,
    /// "the minimum value to which the computed level of detail lambda is clamped" (0.0).
    pub lod_min: f32,
    /// "the maximum value to which the computed level of detail lambda is clamped" (MAXFLOAT).
    pub lod_max: f32,
}

impl Default for MipSampling {
    /// API 5.8.1: "The default is CL_FILTER_NEAREST", "0.0f", "MAXFLOAT".
    fn default() -> MipSampling {
        MipSampling {
            filter: FilterMode::Nearest,
            lod_min: 0.0,
            lod_max: f32::MAX,
        }
    }
}

/// Bit of a 32-bit `sampler_t` value that selects the linear mip filter (unused by clang's
/// `CLK_*` constants, which stop at 0x20; program-scope samplers always use the defaults).
const MIP_LINEAR_BIT: u32 = 0x40;
/// Shift of the index of a sampler's lod clamps in [`LOD_CLAMPS`] (0: the defaults).
const LOD_INDEX_SHIFT: u32 = 8;
/// Most distinct non-default lod clamp pairs a process can use (24 bits of index).
const MAX_LOD_CLAMPS: usize = (1 << (32 - LOD_INDEX_SHIFT)) - 1;

/// The non-default `(lod_min, lod_max)` pairs (as bits) in use: a kernel's `sampler_t` is 32
/// bits wide, too narrow for two floats, so it carries an index into this table. Pairs are
/// interned once and never removed; the table holds each distinct pair once.
static LOD_CLAMPS: std::sync::Mutex<Vec<(u32, u32)>> = std::sync::Mutex::new(Vec::new());

impl MipSampling {
    /// The bits of a `sampler_t` value that carry this mip state (to OR with the bits of
    /// the sampler's filter, addressing and coordinates), or an error when the process
    /// already uses [`MAX_LOD_CLAMPS`] distinct lod clamp pairs.
    pub fn encode(&self) -> Result<u32, String> {
        let filter = if self.filter == FilterMode::Linear {
            MIP_LINEAR_BIT
        } else {
            0
        };
        let defaults = MipSampling::default();
        let pair = (self.lod_min.to_bits(), self.lod_max.to_bits());
        if pair == (defaults.lod_min.to_bits(), defaults.lod_max.to_bits()) {
            return Ok(filter);
        }
        let mut table = LOD_CLAMPS.lock().unwrap_or_else(|e| e.into_inner());
        let index = match table.iter().position(|&p| p == pair) {
            Some(i) => i + 1,
            None if table.len() < MAX_LOD_CLAMPS => {
                table.push(pair);
                table.len()
            }
            None => {
                return Err(format!(
                    "more than {MAX_LOD_CLAMPS} distinct sampler lod clamps in one process"
                ))
            }
        };
        Ok(filter | (index as u32) << LOD_INDEX_SHIFT)
    }

    /// The mip state of a 32-bit `sampler_t` value (the defaults for clang's constants and
    /// for an unknown clamp index).
    pub fn from_bits(bits: u32) -> MipSampling {
        let mut m = MipSampling::default();
        if bits & MIP_LINEAR_BIT != 0 {
            m.filter = FilterMode::Linear;
        }
        let index = (bits >> LOD_INDEX_SHIFT) as usize;
        if index != 0 {
            let table = LOD_CLAMPS.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(&(min, max)) = table.get(index - 1) {
                m.lod_min = f32::from_bits(min);
                m.lod_max = f32::from_bits(max);
            }
        }
        m
    }

    /// The level of detail after the clamps: `lambda' = min(max(lod, lod_min), lod_max)` (NaN
    /// stays NaN, which selects level 0).
    pub fn clamp_lod(&self, lod: f32) -> f32 {
        if lod.is_nan() {
            return lod;
        }
        let mut l = lod;
        if l < self.lod_min {
            l = self.lod_min;
        }
        if l > self.lod_max {
            l = self.lod_max;
        }
        l
    }
}

/// The levels and weights of a linear mip filter for level of detail `lod` (clamped already):
/// `(d1, d2, f)` with the result `(1 - f) * T(d1) + f * T(d2)`. The OpenGL rule that
/// cl_khr_mipmap_image refers to: `lod <= 0` (magnification) or NaN reads level 0 alone;
/// `lod >= q` (the last level) reads level `q` alone; otherwise `d1 = floor(lod)`,
/// `d2 = d1 + 1`, `f = frac(lod)`.
pub fn linear_mip_levels(desc: &ImageDesc, lod: f32) -> (u32, u32, f32) {
    let last = desc.mip_levels.saturating_sub(1);
    if lod.is_nan() || lod <= 0.0 {
        return (0, 0, 0.0);
    }
    if lod >= last as f32 {
        return (last, last, 0.0);
    }
    let d1 = lod.floor();
    (d1 as u32, d1 as u32 + 1, lod - d1)
}

/// A read with a sampler (env §9.2, §9.5): `coord` holds the coordinates of the image's
/// dimensions, then the layer coordinate of an array image (1D array: `coord[1]`, 2D array:
/// `coord[2]`); `lod` is the explicit level of detail, used with the default mip state (the
/// nearest level, no clamps). The texel has the image's kind (float reads of normalized, half
/// and float formats; sRGB converted before filtering).
pub fn sample<M: ImageMemory + ?Sized>(
    desc: &ImageDesc,
    mem: &M,
    sampler: &Sampler,
    coord: [f32; 4],
    lod: f32,
) -> Texel {
    sample_mip(desc, mem, sampler, &MipSampling::default(), coord, lod)
}

/// [`sample`] with the sampler's mip state: `lod` is clamped to `[lod_min, lod_max]`, then the
/// nearest level is read ([`mip_level_for_lod`]) or the two nearest levels are blended
/// ([`linear_mip_levels`]). Integer images read the nearest level (linear filtering of integer
/// images is undefined, OpenCL C §6.13.14.2).
pub fn sample_mip<M: ImageMemory + ?Sized>(
    desc: &ImageDesc,
    mem: &M,
    sampler: &Sampler,
    mip: &MipSampling,
    coord: [f32; 4],
    lod: f32,
) -> Texel {
    let lod = mip.clamp_lod(lod);
    let float = desc.format.texel_kind() == TexelKind::Float;
    if mip.filter != FilterMode::Linear || !float || desc.mip_levels <= 1 {
        return sample_level(desc, mem, sampler, coord, mip_level_for_lod(desc, lod));
    }
    let (d1, d2, f) = linear_mip_levels(desc, lod);
    let t1 = sample_level(desc, mem, sampler, coord, d1);
    if d1 == d2 {
        return t1;
    }
    let t2 = sample_level(desc, mem, sampler, coord, d2);
    match (t1, t2) {
        (Texel::Float(a), Texel::Float(b)) => {
            Texel::Float(std::array::from_fn(|k| (1.0 - f) * a[k] + f * b[k]))
        }
        _ => t1,
    }
}

/// A sampled read of mip `level` (env §9.2 addressing and filtering within that level).
fn sample_level<M: ImageMemory + ?Sized>(
    desc: &ImageDesc,
    mem: &M,
    sampler: &Sampler,
    coord: [f32; 4],
    level: u32,
) -> Texel {
    let size = desc.level_size(level);
    let n = dims(desc);
    let layer = if desc.image_type.is_array() {
        // env §9.5: layer = clamp(rint(w), 0, layers - 1).
        crate::image::array_layer(coord[n], layers(desc) as u32) as usize
    } else {
        0
    };
    let border = border_color(&desc.format);
    let linear =
        sampler.filter == FilterMode::Linear && desc.format.texel_kind() == TexelKind::Float;
    if !linear {
        let mut ijk = [0usize; 3];
        for a in 0..n {
            match nearest_index(coord[a], size[a] as u32, sampler) {
                Some(i) => ijk[a] = i as usize,
                None => return border,
            }
        }
        return fetch(desc, mem, level, ijk, layer).unwrap_or(border);
    }
    let taps: Vec<_> = (0..n)
        .map(|a| linear_taps(coord[a], size[a] as u32, sampler))
        .collect();
    let border_f = match border {
        Texel::Float(f) => f,
        _ => [0.0; 4],
    };
    // The texel at corner `c` (bit a set: the second tap along axis a).
    let corner = |c: usize| -> [f32; 4] {
        let mut ijk = [0usize; 3];
        for (a, t) in taps.iter().enumerate() {
            let i = if c >> a & 1 == 0 { t.i0 } else { t.i1 };
            match i {
                Some(i) => ijk[a] = i as usize,
                None => return border_f,
            }
        }
        match fetch(desc, mem, level, ijk, layer) {
            Some(Texel::Float(f)) => f,
            _ => border_f,
        }
    };
    // env §9.2.1 Linear Filtering: the weighted sum in the order the specification writes it.
    let mut out = [0.0f32; 4];
    for c in 0..(1usize << n) {
        let mut w = 1.0f32;
        for (a, t) in taps.iter().enumerate() {
            w *= if c >> a & 1 == 0 { 1.0 - t.a } else { t.a };
        }
        let t = corner(c);
        for k in 0..4 {
            out[k] += w * t[k];
        }
    }
    Texel::Float(out)
}

/// The texel position of integer `coord` (layer included) in `level`, `None` outside.
fn int_position(desc: &ImageDesc, coord: [i64; 4], level: u32) -> Option<([usize; 3], usize)> {
    if level >= desc.mip_levels {
        return None;
    }
    let size = desc.level_size(level);
    let n = dims(desc);
    let mut ijk = [0usize; 3];
    for a in 0..n {
        let c = coord[a];
        if c < 0 || c as u64 >= size[a] as u64 {
            return None;
        }
        ijk[a] = c as usize;
    }
    let layer = if desc.image_type.is_array() {
        let l = coord[n];
        if l < 0 || l as u64 >= layers(desc) as u64 {
            return None;
        }
        l as usize
    } else {
        0
    };
    Some((ijk, layer))
}

/// A sampler-less read (env §9.7) of the texel at integer `coord` (layer of an array image
/// after the coordinates) in mip `level`; the border color outside the image.
pub fn read<M: ImageMemory + ?Sized>(
    desc: &ImageDesc,
    mem: &M,
    coord: [i64; 4],
    level: u32,
) -> Texel {
    let border = border_color(&desc.format);
    match int_position(desc, coord, level) {
        Some((ijk, layer)) => fetch(desc, mem, level, ijk, layer).unwrap_or(border),
        None => border,
    }
}

/// Writes `texel` (converted as env §9.4 says) at integer `coord` of mip `level`. Returns
/// `Ok(false)` when the position is outside the image (nothing is written).
pub fn write<M: ImageMemory + ?Sized>(
    desc: &ImageDesc,
    mem: &M,
    coord: [i64; 4],
    level: u32,
    texel: Texel,
) -> Result<bool, ImageError> {
    let Some((ijk, layer)) = int_position(desc, coord, level) else {
        return Ok(false);
    };
    let (x, y, z) = position(desc, ijk, layer);
    let Some(offset) = desc.texel_offset(level, x, y, z) else {
        return Ok(false);
    };
    let mut buf = [0u8; 16];
    let n = desc.format.element_size();
    let bytes = &mut buf[..n.min(16)];
    write_texel(&desc.format, texel, bytes)?;
    mem.store(offset, bytes);
    Ok(true)
}

#[cfg(test)]
mod tests {
    //! Expected values computed by hand from the formulas of env chapter 9.
    use super::*;
    use crate::image::{AddressingMode, ImageFormat};
    use std::cell::Cell;

    fn fmt(o: ChannelOrder, t: ChannelType) -> ImageFormat {
        ImageFormat::new(o, t).unwrap()
    }

    fn cells(v: &mut [u8]) -> &[Cell<u8>] {
        Cell::from_mut(v).as_slice_of_cells()
    }

    fn smp(norm: bool, addressing: AddressingMode, filter: FilterMode) -> Sampler {
        Sampler {
            normalized_coords: norm,
            addressing,
            filter,
        }
    }

    /// A 4x2 R float image with texel (i, j) = 10 j + i.
    fn r_float_4x2() -> (ImageDesc, Vec<u8>) {
        let d = ImageDesc::packed(
            ImageType::Image2D,
            fmt(ChannelOrder::R, ChannelType::Float),
            4,
            2,
            1,
            1,
        );
        let bytes = (0..8)
            .flat_map(|k| ((10 * (k / 4) + k % 4) as f32).to_le_bytes())
            .collect();
        (d, bytes)
    }

    fn r(t: Texel) -> f32 {
        match t {
            Texel::Float(f) => f[0],
            _ => f32::NAN,
        }
    }

    #[test]
    fn nearest_each_addressing_mode() {
        let (d, mut b) = r_float_4x2();
        let m = cells(&mut b);
        let s = |a| smp(false, a, FilterMode::Nearest);
        // (2.7, 1.2) → i = 2, j = 1 → 12.
        assert_eq!(
            r(sample(
                &d,
                m,
                &s(AddressingMode::None),
                [2.7, 1.2, 0.0, 0.0],
                0.0
            )),
            12.0
        );
        // x = -0.5: clamp-to-edge → 0; clamp → border (R: alpha 1, r 0).
        assert_eq!(
            r(sample(
                &d,
                m,
                &s(AddressingMode::ClampToEdge),
                [-0.5, 0.0, 0.0, 0.0],
                0.0
            )),
            0.0
        );
        assert_eq!(
            sample(&d, m, &s(AddressingMode::Clamp), [-0.5, 1.0, 0.0, 0.0], 0.0),
            Texel::Float([0.0, 0.0, 0.0, 1.0])
        );
        assert_eq!(
            r(sample(
                &d,
                m,
                &s(AddressingMode::ClampToEdge),
                [9.0, 5.0, 0.0, 0.0],
                0.0
            )),
            13.0
        );
        // Normalized repeat: s = 1.3 → frac 0.3 × 4 = 1.2 → 1; t = -0.25 → 0.75 × 2 = 1.5 → 1.
        let rep = smp(true, AddressingMode::Repeat, FilterMode::Nearest);
        assert_eq!(r(sample(&d, m, &rep, [1.3, -0.25, 0.0, 0.0], 0.0)), 11.0);
        // Mirrored repeat: s = 1.3 → s' = |1.3 - 2 rint(0.65)| = 0.7 → 2.8 → 2; t = 0.2 → 0.4 → 0.
        let mir = smp(true, AddressingMode::MirroredRepeat, FilterMode::Nearest);
        assert_eq!(r(sample(&d, m, &mir, [1.3, 0.2, 0.0, 0.0], 0.0)), 2.0);
    }

    #[test]
    fn linear_2d_weights() {
        let (d, mut b) = r_float_4x2();
        let m = cells(&mut b);
        // u = 1.75, v = 1.0: i0 = 1, i1 = 2, a = 0.25; j0 = 0, j1 = 1, b = 0.5.
        // T = .75*.5*1 + .25*.5*2 + .75*.5*11 + .25*.5*12 = 6.25.
        let s = smp(false, AddressingMode::ClampToEdge, FilterMode::Linear);
        assert_eq!(r(sample(&d, m, &s, [1.75, 1.0, 0.0, 0.0], 0.0)), 6.25);
        // Clamp at the left edge: u = 0.25 → i0 = -1 (border 0), i1 = 0, a = 0.75; v = 0.5 → j0 = 0
        // = j1 - 1, b = 0: T = .25*0 + .75*0 = 0 for row 0.
        let c = smp(false, AddressingMode::Clamp, FilterMode::Linear);
        assert_eq!(r(sample(&d, m, &c, [0.25, 0.5, 0.0, 0.0], 0.0)), 0.0);
        // u = 0.25 at row 1 (v = 1.5): .25*border(0) + .75*10 = 7.5.
        assert_eq!(r(sample(&d, m, &c, [0.25, 1.5, 0.0, 0.0], 0.0)), 7.5);
    }

    #[test]
    fn array_layers_and_sampler_less_reads() {
        let f = fmt(ChannelOrder::RGBA, ChannelType::UnsignedInt8);
        let d = ImageDesc::packed(ImageType::Image1DArray, f, 2, 1, 1, 3);
        // Texel x of layer l = (x, l, 7, 9).
        let mut b: Vec<u8> = (0..6).flat_map(|k| [k % 2, k / 2, 7, 9]).collect();
        let m = cells(&mut b);
        let s = smp(false, AddressingMode::ClampToEdge, FilterMode::Nearest);
        // Layer rint(1.5) = 2 (ties to even); rint(7) clamped to 2; rint(-3) clamped to 0.
        assert_eq!(
            sample(&d, m, &s, [1.0, 1.5, 0.0, 0.0], 0.0),
            Texel::Uint([1, 2, 7, 9])
        );
        assert_eq!(
            sample(&d, m, &s, [0.0, 7.0, 0.0, 0.0], 0.0),
            Texel::Uint([0, 2, 7, 9])
        );
        assert_eq!(
            sample(&d, m, &s, [0.0, -3.0, 0.0, 0.0], 0.0),
            Texel::Uint([0, 0, 7, 9])
        );
        assert_eq!(read(&d, m, [1, 1, 0, 0], 0), Texel::Uint([1, 1, 7, 9]));
        // Outside: the border color (RGBA: transparent black).
        assert_eq!(read(&d, m, [2, 0, 0, 0], 0), Texel::Uint([0, 0, 0, 0]));
        assert_eq!(read(&d, m, [0, 3, 0, 0], 0), Texel::Uint([0, 0, 0, 0]));
    }

    #[test]
    fn writes_round_and_ignore_outside() {
        let f = fmt(ChannelOrder::RGBA, ChannelType::UnormInt8);
        let mut d = ImageDesc::packed(ImageType::Image3D, f, 2, 2, 2, 1);
        d.mip_levels = 2; // level 1 is 1x1x1 at byte 32
        let mut b = vec![0u8; d.byte_len()];
        let m = cells(&mut b);
        // 0.5 × 255 = 127.5 → 128 (ties to even); 1.2 saturates to 255; -1 to 0; 0.25 → 63.75 → 64.
        let t = Texel::Float([0.5, 1.2, -1.0, 0.25]);
        assert_eq!(write(&d, m, [1, 0, 1, 0], 0, t), Ok(true));
        assert_eq!(write(&d, m, [0, 0, 0, 0], 1, t), Ok(true));
        assert_eq!(write(&d, m, [2, 0, 0, 0], 0, t), Ok(false));
        assert_eq!(write(&d, m, [0, 0, 0, 0], 2, t), Ok(false));
        assert_eq!(&b[16 + 4..16 + 8], &[128, 255, 0, 64]);
        assert_eq!(&b[32..36], &[128, 255, 0, 64]);
        assert_eq!(b.iter().filter(|&&x| x != 0).count(), 6);
    }

    #[test]
    fn linear_3d_and_mip_selection() {
        let f = fmt(ChannelOrder::R, ChannelType::Float);
        let mut d = ImageDesc::packed(ImageType::Image3D, f, 2, 2, 2, 1);
        d.mip_levels = 2;
        // Level 0 texel (i, j, k) = i + 2 j + 4 k; level 1 (1x1x1) = 100.
        let mut b: Vec<u8> = (0..8)
            .map(|k| k as f32)
            .chain([100.0])
            .flat_map(f32::to_le_bytes)
            .collect();
        let m = cells(&mut b);
        // Normalized (0.5, 0.5, 0.5) → u = v = w = 1: a = b = c = 0.5, the mean 3.5.
        let s = smp(true, AddressingMode::ClampToEdge, FilterMode::Linear);
        assert_eq!(r(sample(&d, m, &s, [0.5, 0.5, 0.5, 0.0], 0.0)), 3.5);
        assert_eq!(r(sample(&d, m, &s, [0.5, 0.5, 0.5, 0.0], 0.7)), 100.0);
        assert_eq!(mip_level_for_lod(&d, 0.5), 0);
        assert_eq!(mip_level_for_lod(&d, 9.0), 1);
    }

    /// A 4x4 R float 2D image with 3 levels whose every texel of level l is 10^l (1, 10, 100),
    /// so a sample's value shows the level weights directly.
    fn r_float_levels() -> (ImageDesc, Vec<u8>) {
        let mut d = ImageDesc::packed(
            ImageType::Image2D,
            fmt(ChannelOrder::R, ChannelType::Float),
            4,
            4,
            1,
            1,
        );
        d.mip_levels = 3; // 4x4, 2x2, 1x1
        let bytes = std::iter::repeat_n(1.0f32, 16)
            .chain(std::iter::repeat_n(10.0, 4))
            .chain([100.0])
            .flat_map(f32::to_le_bytes)
            .collect();
        (d, bytes)
    }

    #[test]
    fn linear_mip_filter_blends_two_levels() {
        let (d, mut b) = r_float_levels();
        let m = cells(&mut b);
        let s = smp(true, AddressingMode::ClampToEdge, FilterMode::Nearest);
        let lin = MipSampling {
            filter: FilterMode::Linear,
            ..MipSampling::default()
        };
        let at =
            |mip: &MipSampling, lod: f32| r(sample_mip(&d, m, &s, mip, [0.3, 0.6, 0.0, 0.0], lod));
        // lod 0.25: 0.75 * 1 + 0.25 * 10 = 3.25; lod 1.5: 0.5 * 10 + 0.5 * 100 = 55.
        assert_eq!(at(&lin, 0.25), 3.25);
        assert_eq!(at(&lin, 1.5), 55.0);
        // lod <= 0: level 0 alone; lod >= q = 2: level 2 alone.
        assert_eq!(at(&lin, -3.0), 1.0);
        assert_eq!(at(&lin, 2.0), 100.0);
        assert_eq!(at(&lin, 7.5), 100.0);
        // Nearest mip filter: lod 1.4 → ceil(1.9) - 1 = 1 → 10; lod 1.6 → 2 → 100.
        let near = MipSampling::default();
        assert_eq!(at(&near, 1.4), 10.0);
        assert_eq!(at(&near, 1.6), 100.0);
        // Clamps: lambda' = min(max(lod, lod_min), lod_max).
        let clamped = MipSampling {
            filter: FilterMode::Linear,
            lod_min: 0.5,
            lod_max: 1.25,
        };
        assert_eq!(at(&clamped, 0.0), 5.5); // 0.5: 0.5 * 1 + 0.5 * 10
        assert_eq!(at(&clamped, 2.0), 32.5); // 1.25: 0.75 * 10 + 0.25 * 100
        let near_max = MipSampling {
            lod_max: 0.5,
            ..MipSampling::default()
        };
        assert_eq!(at(&near_max, 9.0), 1.0);
    }

    #[test]
    fn mip_state_round_trips_through_sampler_bits() {
        assert_eq!(MipSampling::default().encode(), Ok(0));
        assert_eq!(MipSampling::from_bits(0x15), MipSampling::default());
        let m = MipSampling {
            filter: FilterMode::Linear,
            lod_min: 0.75,
            lod_max: 3.5,
        };
        let bits = m.encode().unwrap();
        assert_eq!(bits & 0x3f, 0, "the clang sampler bits stay free");
        assert_eq!(MipSampling::from_bits(bits | 0x15), m);
        // The same pair is interned once.
        assert_eq!(m.encode(), Ok(bits));
        let other = MipSampling { lod_min: 1.0, ..m };
        assert_ne!(other.encode().unwrap(), bits);
        assert_eq!(MipSampling::from_bits(other.encode().unwrap()), other);
    }

    #[test]
    fn srgb_converts_before_filtering() {
        let f = fmt(ChannelOrder::SRGBA, ChannelType::UnormInt8);
        let d = ImageDesc::packed(ImageType::Image1D, f, 2, 1, 1, 1);
        let mut b = vec![0, 0, 0, 255, 255, 255, 255, 255];
        let m = cells(&mut b);
        let s = smp(false, AddressingMode::ClampToEdge, FilterMode::Linear);
        // Between the two texels: 0.5 × linear(0) + 0.5 × linear(1) = 0.5 (not sRGB 0.5 → 0.214).
        match sample(&d, m, &s, [1.0, 0.0, 0.0, 0.0], 0.0) {
            Texel::Float(t) => assert_eq!(t, [0.5, 0.5, 0.5, 1.0]),
            t => panic!("{t:?}"),
        }
    }

    #[test]
    fn sampler_bits_decode_as_clang_encodes_them() {
        // opencl-c-base.h: CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_MIRRORED_REPEAT |
        // CLK_FILTER_LINEAR = 1 | 8 | 0x20.
        assert_eq!(
            sampler_from_bits(0x29),
            smp(true, AddressingMode::MirroredRepeat, FilterMode::Linear)
        );
        assert_eq!(
            sampler_from_bits(0x14),
            smp(false, AddressingMode::Clamp, FilterMode::Nearest)
        );
        assert_eq!(
            sampler_from_bits(0x12),
            smp(false, AddressingMode::ClampToEdge, FilterMode::Nearest)
        );
        assert_eq!(
            sampler_from_bits(0x16),
            smp(false, AddressingMode::Repeat, FilterMode::Nearest)
        );
    }

    #[test]
    fn query_codes_follow_env_tables_3_and_4() {
        // CL_sBGRA 0x10C2 - 0x10B0; CL_ABGR 0x10C3; CL_UNORM_INT_101010_2 0x10E0 - 0x10D0.
        assert_eq!(channel_order_code(ChannelOrder::SBGRA), 0x10C2 - 0x10B0);
        assert_eq!(channel_order_code(ChannelOrder::ABGR), 0x10C3 - 0x10B0);
        assert_eq!(channel_order_code(ChannelOrder::Depth), 0x10BD - 0x10B0);
        assert_eq!(
            channel_type_code(ChannelType::UnormInt101010_2),
            0x10E0 - 0x10D0
        );
        assert_eq!(channel_type_code(ChannelType::Float), 0x10DE - 0x10D0);
    }

    #[test]
    fn malformed_descriptors_are_rejected() {
        let f = fmt(ChannelOrder::RGBA, ChannelType::UnormInt8);
        let good = ImageDesc::packed(ImageType::Image2D, f, 4, 2, 1, 1);
        assert_eq!(checked_byte_len(&good), Ok(32));
        assert!(checked_byte_len(&ImageDesc { width: 0, ..good }).is_err());
        assert!(checked_byte_len(&ImageDesc {
            row_pitch: 15,
            ..good
        })
        .is_err());
        assert!(checked_byte_len(&ImageDesc {
            slice_pitch: 8,
            ..good
        })
        .is_err());
        // 4x2 has at most 3 levels (4x2, 2x1, 1x1).
        assert!(checked_byte_len(&ImageDesc {
            mip_levels: 3,
            ..good
        })
        .is_ok());
        assert!(checked_byte_len(&ImageDesc {
            mip_levels: 4,
            ..good
        })
        .is_err());
        assert!(checked_byte_len(&ImageDesc {
            width: usize::MAX,
            ..good
        })
        .is_err());
        let huge = ImageDesc {
            row_pitch: 1 << 40,
            slice_pitch: 1 << 41,
            ..ImageDesc::packed(ImageType::Image3D, f, 4, 2, 1 << 20, 1)
        };
        assert!(checked_byte_len(&huge).is_err());
    }
}
