//! Image instructions (OpenCL SPIR-V environment §2.4.2, §9; OpenCL C 6.13.14) to kir `image`
//! instructions.
//!
//! An image value is the handle the engine binds to an image argument (a pointer-sized integer,
//! `ArgKind::Image`); a sampler is its 32-bit encoded value (`OpConstantSampler` in
//! `constants`). `OpSampledImage` makes no kir value: SPIR-V requires its result to be used in
//! the same block (SPIR-V 2.16.1, "all OpSampledImage instructions must be in the same block in
//! which their Result <id> are consumed"), so the lowering remembers the (image, sampler) pair
//! and each consumer takes both operands (`OpImage` gives the image back).

use spv::{Instruction, Op};

use super::function::FnLower;
use super::{InstExt, LowerError};
use crate::{ImageOp, InstData};

/// SPIR-V Image Operands bits (SPIR-V 3.14).
const OPERANDS_LOD: u32 = 0x2;
const OPERANDS_GRAD: u32 = 0x4;

impl FnLower<'_, '_> {
    /// Lowers `inst` if it is an image instruction; `Ok(false)` otherwise.
    pub(crate) fn lower_image(&mut self, inst: &Instruction) -> Result<bool, LowerError> {
        let (op, args) = match inst.op {
            Op::SampledImage => {
                let image = self.value(inst.id_op(0)?, inst)?;
                let sampler = self.value(inst.id_op(1)?, inst)?;
                self.sampled_images.insert(inst.res()?, (image, sampler));
                return Ok(true);
            }
            Op::Image => {
                let (image, _) = self.sampled(inst.id_op(0)?, inst)?;
                self.vals.insert(inst.res()?, image);
                return Ok(true);
            }
            Op::ImageSampleExplicitLod => {
                let (image, sampler) = self.sampled(inst.id_op(0)?, inst)?;
                let coord = self.value(inst.id_op(1)?, inst)?;
                let mask = inst.int(2).unwrap_or(0);
                if mask & OPERANDS_GRAD != 0 {
                    return Err(inst.unsupported("image reads with explicit gradients (Grad)"));
                }
                let lod = if mask & OPERANDS_LOD != 0 {
                    self.value(inst.id_op(3)?, inst)?
                } else {
                    self.int_const(crate::Type::F32, 0)
                };
                (ImageOp::Sample, vec![image, sampler, coord, lod])
            }
            Op::ImageRead | Op::ImageFetch => {
                let image = self.image_operand(inst.id_op(0)?, inst)?;
                let coord = self.value(inst.id_op(1)?, inst)?;
                let mut args = vec![image, coord];
                if inst.int(2).unwrap_or(0) & OPERANDS_LOD != 0 {
                    args.push(self.value(inst.id_op(3)?, inst)?);
                }
                (ImageOp::Read, args)
            }
            Op::ImageWrite => {
                let image = self.image_operand(inst.id_op(0)?, inst)?;
                let coord = self.value(inst.id_op(1)?, inst)?;
                let texel = self.value(inst.id_op(2)?, inst)?;
                let mut args = vec![image, coord, texel];
                if inst.int(3).unwrap_or(0) & OPERANDS_LOD != 0 {
                    args.push(self.value(inst.id_op(4)?, inst)?);
                }
                self.emit_void(InstData::Image {
                    op: ImageOp::Write,
                    args,
                });
                return Ok(true);
            }
            Op::ImageQuerySizeLod => {
                let image = self.image_operand(inst.id_op(0)?, inst)?;
                let lod = self.value(inst.id_op(1)?, inst)?;
                (ImageOp::Size, vec![image, lod])
            }
            Op::ImageQuerySize => (
                ImageOp::Size,
                vec![self.image_operand(inst.id_op(0)?, inst)?],
            ),
            Op::ImageQueryLevels => (
                ImageOp::Levels,
                vec![self.image_operand(inst.id_op(0)?, inst)?],
            ),
            Op::ImageQuerySamples => (
                ImageOp::Samples,
                vec![self.image_operand(inst.id_op(0)?, inst)?],
            ),
            Op::ImageQueryFormat => (
                ImageOp::Format,
                vec![self.image_operand(inst.id_op(0)?, inst)?],
            ),
            Op::ImageQueryOrder => (
                ImageOp::Order,
                vec![self.image_operand(inst.id_op(0)?, inst)?],
            ),
            _ => return Ok(false),
        };
        let ty = self.m.value_type(inst.rty()?, inst)?;
        let v = self.emit(InstData::Image { op, args }, ty);
        self.vals.insert(inst.res()?, v);
        Ok(true)
    }

    /// The (image, sampler) of an `OpSampledImage` result.
    fn sampled(
        &mut self,
        id: u32,
        inst: &Instruction,
    ) -> Result<(crate::Value, crate::Value), LowerError> {
        self.sampled_images.get(&id).copied().ok_or_else(|| {
            inst.unsupported("sampled images not made by OpSampledImage in the same function")
        })
    }

    /// An image operand: an image value, or the image of a sampled image.
    fn image_operand(&mut self, id: u32, inst: &Instruction) -> Result<crate::Value, LowerError> {
        match self.sampled_images.get(&id) {
            Some(&(image, _)) => Ok(image),
            None => self.value(id, inst),
        }
    }
}
