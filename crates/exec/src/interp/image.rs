//! Image instructions (kir `image`), shared by the interpreter and the JIT's helper
//! (`jit::image_rt`) so both engines give the same bits.
//!
//! An image value is a pointer (`memory::PtrLayout` encoding) to the shared region the image
//! argument was bound to; that region carries the image's `ImageDesc` (`SharedRegion::image`).
//! Texel conversions, addressing and filtering are `devlib::image_access` (env §9).
//!
//! Choices where the specification leaves the result undefined (besides those of
//! `devlib::image_access`: border color outside the image, writes outside ignored):
//! - a read whose result type does not match the image (`read_imagef` of an integer image,
//!   `read_imagei` of a float image) returns the texel's 32-bit patterns reinterpreted; a write
//!   of the wrong kind reinterprets the given 32-bit patterns as the image's kind;
//! - `read_imageh` converts the float texel to half rounding to nearest even;
//! - a negative or too-large mip level reads the border color and writes nothing.

use devlib::image::{Texel, TexelKind};
use devlib::image_access::{self, ImageMemory};
use devlib::image_desc::{ImageDesc, ImageType};
use kir::{ImageOp, ScalarType, Type};

use super::builtins::BuiltinError;
use super::memory::{PtrLayout, RegionRef, SharedRegion};
use super::value::Val;

/// The image memory of a bound image argument: raw memory shared by the work-items.
struct RawImage {
    base: *mut u8,
    len: usize,
}

impl ImageMemory for RawImage {
    fn load(&self, offset: usize, out: &mut [u8]) {
        if offset
            .checked_add(out.len())
            .is_some_and(|end| end <= self.len)
        {
            // SAFETY: inside the `len` bytes the launch's caller keeps valid (crate contract).
            unsafe {
                std::ptr::copy_nonoverlapping(self.base.add(offset), out.as_mut_ptr(), out.len())
            }
        }
    }

    fn store(&self, offset: usize, bytes: &[u8]) {
        if offset
            .checked_add(bytes.len())
            .is_some_and(|end| end <= self.len)
        {
            // SAFETY: as in `load`.
            unsafe {
                std::ptr::copy_nonoverlapping(bytes.as_ptr(), self.base.add(offset), bytes.len())
            }
        }
    }
}

fn bad(what: String) -> BuiltinError {
    BuiltinError::Unsupported(what)
}

/// The image an image handle names.
fn image_of(
    handle: u64,
    layout: PtrLayout,
    shared: &[SharedRegion],
) -> Result<(ImageDesc, RawImage), BuiltinError> {
    if let (RegionRef::Shared(i), 0) = layout.decode(handle) {
        if let Some(r) = shared.get(i) {
            if let Some(desc) = r.image {
                return Ok((
                    desc,
                    RawImage {
                        base: r.base,
                        len: r.len,
                    },
                ));
            }
        }
    }
    Err(bad(format!("image operand {handle:#x} is not an image")))
}

/// The lanes of a coordinate as floats (integer coordinates converted exactly as `(float)`).
fn float_coord(ty: Type, v: &Val) -> [f32; 4] {
    let mut c = [0.0f32; 4];
    for (i, x) in c.iter_mut().enumerate().take(ty.lanes().min(4) as usize) {
        let bits = v.lane(i);
        *x = match ty.lane_type() {
            Some(ScalarType::F32) => f32::from_bits(bits as u32),
            Some(ScalarType::F16) => f32::from(half::f16::from_bits(bits as u16)),
            _ => bits as u32 as i32 as f32,
        };
    }
    c
}

/// The lanes of a coordinate as integers (float coordinates rounded down).
fn int_coord(ty: Type, v: &Val) -> [i64; 4] {
    let mut c = [0i64; 4];
    for (i, x) in c.iter_mut().enumerate().take(ty.lanes().min(4) as usize) {
        let bits = v.lane(i);
        *x = match ty.lane_type() {
            Some(ScalarType::F32) => f32::from_bits(bits as u32).floor() as i64,
            Some(ScalarType::I64) => bits as i64,
            Some(ScalarType::I16) => i64::from(bits as u16 as i16),
            Some(ScalarType::I8) => i64::from(bits as u8 as i8),
            _ => i64::from(bits as u32 as i32),
        };
    }
    c
}

/// A mip level operand: `None` when negative or beyond `u32`.
fn level_of(ty: Type, v: &Val) -> Option<u32> {
    u32::try_from(int_coord(ty, v)[0]).ok()
}

/// The value of a read of `rty` from `texel`.
fn texel_value(rty: Type, texel: Texel) -> Val {
    let bits = image_access::texel_bits(texel);
    match rty {
        Type::F32 => Val::S(u64::from(bits[0])),
        Type::Vec(ScalarType::F16, _) => Val::V(
            bits.iter()
                .map(|&b| {
                    let h = devlib::convert::f32_to_f16(
                        f32::from_bits(b),
                        devlib::convert::Rounding::Rte,
                    );
                    u64::from(h.to_bits())
                })
                .collect(),
        ),
        _ => Val::V(bits.iter().map(|&b| u64::from(b)).collect()),
    }
}

/// The texel of the image's `kind` a write of `ty` stores.
fn texel_arg(ty: Type, v: &Val, kind: TexelKind) -> Texel {
    let mut bits = [0u32; 4];
    match ty {
        Type::F32 => bits[0] = v.lane(0) as u32,
        Type::Vec(ScalarType::F16, _) => {
            for (i, b) in bits.iter_mut().enumerate() {
                *b = f32::from(half::f16::from_bits(v.lane(i) as u16)).to_bits();
            }
        }
        _ => {
            for (i, b) in bits.iter_mut().enumerate() {
                *b = v.lane(i) as u32;
            }
        }
    }
    image_access::texel_from_bits(kind, bits)
}

/// Width, height, depth / layers of `desc` at `level`, in the order of `OpImageQuerySizeLod`.
fn size_lanes(desc: &ImageDesc, level: u32) -> Vec<u64> {
    let [w, h, d] = desc.level_size(level);
    let layers = desc.array_size as u64;
    match desc.image_type {
        ImageType::Image1D | ImageType::Image1DBuffer => vec![w as u64],
        ImageType::Image1DArray => vec![w as u64, layers],
        ImageType::Image2D => vec![w as u64, h as u64],
        ImageType::Image2DArray => vec![w as u64, h as u64, layers],
        ImageType::Image3D => vec![w as u64, h as u64, d as u64],
    }
}

/// Runs one image instruction. `args` are the operands with their types, `rty` the result type.
pub(crate) fn call(
    op: ImageOp,
    rty: Option<Type>,
    args: &[(Type, Val)],
    layout: PtrLayout,
    shared: &[SharedRegion],
) -> Result<Option<Val>, BuiltinError> {
    let (least, _) = op.arity();
    if args.len() < least {
        return Err(bad(format!("image {op} with {} operands", args.len())));
    }
    let (desc, mem) = image_of(args[0].1.lane(0), layout, shared)?;
    let result = |lanes: Vec<u64>| -> Option<Val> {
        let t = rty?;
        let mask = t.lane_type().map_or(u64::MAX, |s| {
            if s.bits() >= 64 {
                u64::MAX
            } else {
                (1u64 << s.bits()) - 1
            }
        });
        let n = t.lanes() as usize;
        let lanes: Vec<u64> = (0..n)
            .map(|i| lanes.get(i).copied().unwrap_or(0) & mask)
            .collect();
        Some(Val::from_lanes(t, lanes))
    };
    Ok(match op {
        ImageOp::Read => {
            let coord = int_coord(args[1].0, &args[1].1);
            let texel = match args.get(2) {
                Some((t, v)) => match level_of(*t, v) {
                    Some(level) => image_access::read(&desc, &mem, coord, level),
                    None => devlib::image::border_color(&desc.format),
                },
                None => image_access::read(&desc, &mem, coord, 0),
            };
            rty.map(|t| texel_value(t, texel))
        }
        ImageOp::Sample => {
            let bits = args[1].1.lane(0) as u32;
            let sampler = image_access::sampler_from_bits(bits);
            let mip = image_access::MipSampling::from_bits(bits);
            let coord = float_coord(args[2].0, &args[2].1);
            let lod = float_coord(args[3].0, &args[3].1)[0];
            let texel = image_access::sample_mip(&desc, &mem, &sampler, &mip, coord, lod);
            rty.map(|t| texel_value(t, texel))
        }
        ImageOp::Write => {
            let coord = int_coord(args[1].0, &args[1].1);
            let texel = texel_arg(args[2].0, &args[2].1, desc.format.texel_kind());
            let level = match args.get(3) {
                Some((t, v)) => level_of(*t, v),
                None => Some(0),
            };
            if let Some(level) = level {
                image_access::write(&desc, &mem, coord, level, texel)
                    .map_err(|e| bad(format!("image write: {e}")))?;
            }
            None
        }
        ImageOp::Size => {
            let level = match args.get(1) {
                Some((t, v)) => level_of(*t, v).unwrap_or(0),
                None => 0,
            };
            result(size_lanes(&desc, level))
        }
        ImageOp::Levels => result(vec![u64::from(desc.mip_levels)]),
        ImageOp::Samples => result(vec![1]),
        ImageOp::Format => result(vec![u64::from(image_access::channel_type_code(
            desc.format.channel_type(),
        ))]),
        ImageOp::Order => result(vec![u64::from(image_access::channel_order_code(
            desc.format.order(),
        ))]),
    })
}
