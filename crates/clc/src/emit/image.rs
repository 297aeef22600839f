//! Image and sampler built-ins (OpenCL C 2.0 §6.13.14), emitted as llvm-spirv-15 does:
//! `read_image{f,i,ui,h}` with a sampler → `OpSampledImage` + `OpImageSampleExplicitLod … Lod 0`,
//! without one → `OpImageRead`; `write_image{f,i,ui,h}` → `OpImageWrite`; `get_image_*` →
//! `OpImageQuerySizeLod` (`OpImageQuerySize` for buffer images), `OpImageQueryFormat` /
//! `OpImageQueryOrder` plus the `CLK_*` base value. Sampler values: program-scope and literal
//! samplers become `OpConstantSampler` (env 2.9: addressing, normalized, filter).

use spv::{Capability, Id, Op, Operand};

use super::{Emitter, Val};
use crate::ast::{Expr, ImageAccess};
use crate::sema::types::{ImageDim, ImageType};
use crate::sema::{Scalar, Type};
use crate::source::Span;

/// `CLK_SNORM_INT8`: `OpImageQueryFormat` counts from 0, OpenCL C from this value.
const CHANNEL_DATA_TYPE_BASE: i128 = 0x10D0;
/// `CLK_R`: the base of the channel orders.
const CHANNEL_ORDER_BASE: i128 = 0x10B0;

impl<'a> Emitter<'a> {
    /// `OpConstantSampler` from the bits of a `CLK_*` sampler value (the encoding of the
    /// predefined macros: bit 0 normalized, bits 1-3 addressing mode × 2, 0x10/0x20 filter).
    pub(crate) fn constant_sampler(&mut self, bits: u32) -> Id {
        // ImageBasic (with the sampler type) first: spirv-val allows LiteralSampler only
        // after it.
        let t = self.spv_type(&Type::Sampler);
        self.b.capability(Capability::LiteralSampler);
        let addressing = (bits >> 1) & 7;
        let normalized = bits & 1;
        let filter = u32::from(bits & 0x20 != 0);
        self.b.global(
            Op::ConstantSampler,
            Some(t),
            vec![
                Operand::Int(addressing),
                Operand::Int(normalized),
                Operand::Int(filter),
            ],
        )
    }

    /// A sampler argument: a `sampler_t` value, or an integer constant (a literal sampler).
    fn sampler_arg(&mut self, e: &Expr) -> Option<Id> {
        if let Some(bits) = self.const_int(e) {
            return Some(self.constant_sampler(bits as u32));
        }
        let v = self.rvalue(e)?;
        if v.ty != Type::Sampler {
            let msg = format!(
                "passing '{}' to parameter of incompatible type 'sampler_t'",
                self.type_name(&v.ty)
            );
            self.error(e.span, msg);
            return None;
        }
        Some(v.id)
    }

    fn image_arg(&mut self, name: &str, e: &Expr) -> Option<(Val, ImageType)> {
        let v = self.rvalue(e)?;
        match v.ty {
            Type::Image(i) => Some((v.clone(), i)),
            _ => {
                let msg = format!(
                    "no matching function for call to '{name}': the first argument must be an image, not '{}'",
                    self.type_name(&v.ty)
                );
                self.error(e.span, msg);
                None
            }
        }
    }

    /// A coordinate converted to `int`/`float` with the lanes the image needs.
    fn coord_arg(&mut self, name: &str, e: &Expr, img: &ImageType, float_ok: bool) -> Option<Val> {
        let v = self.rvalue(e)?;
        let lanes = img.coord_lanes();
        let elem = match v.ty.elem() {
            Some(Scalar::Float) if float_ok => Scalar::Float,
            Some(s) if s.is_integer() => Scalar::Int,
            _ => {
                let msg = format!(
                    "no matching function for call to '{name}': bad coordinate type '{}'",
                    self.type_name(&v.ty)
                );
                self.error(e.span, msg);
                return None;
            }
        };
        let want = Type::vector_or_scalar(elem, lanes);
        if v.ty.lanes() != lanes {
            let msg = format!(
                "no matching function for call to '{name}': coordinate must be '{}', not '{}'",
                self.type_name(&want),
                self.type_name(&v.ty)
            );
            self.error(e.span, msg);
            return None;
        }
        self.implicit_convert(v, &want, e.span, "passing")
    }

    /// The texel type of `read_image{f,i,ui,h}` / `write_image*` from the name's suffix.
    fn texel_elem(&self, suffix: &str) -> Option<Scalar> {
        Some(match suffix {
            "f" => Scalar::Float,
            "i" => Scalar::Int,
            "ui" => Scalar::UInt,
            "h" => Scalar::Half,
            _ => return None,
        })
    }

    /// Image built-ins by name; `None` when `name` is not one.
    pub(crate) fn image_call(
        &mut self,
        name: &str,
        args: &[Expr],
        span: Span,
    ) -> Option<Option<Val>> {
        if let Some(suffix) = name.strip_prefix("read_image") {
            let elem = self.texel_elem(suffix)?;
            return Some(self.read_image(name, elem, args, span));
        }
        if let Some(suffix) = name.strip_prefix("write_image") {
            let elem = self.texel_elem(suffix)?;
            return Some(self.write_image(name, elem, args, span));
        }
        if name.starts_with("get_image_") {
            return Some(self.image_query(name, args, span));
        }
        None
    }

    fn check_images(&mut self, span: Span) -> Option<()> {
        if !self.target.image_support {
            self.error(
                span,
                "image functions require image support, which this device does not have",
            );
            return None;
        }
        Some(())
    }

    fn read_image(&mut self, name: &str, elem: Scalar, args: &[Expr], span: Span) -> Option<Val> {
        self.check_images(span)?;
        // cl_khr_mipmap_image: `read_image{f,i,ui}(image, sampler, coord, float lod)`.
        let with_lod = args.len() == 4 && self.has_extension("cl_khr_mipmap_image");
        if args.len() != 2 && args.len() != 3 && !with_lod {
            self.error(span, format!("no matching function for call to '{name}'"));
            return None;
        }
        let (img, it) = self.image_arg(name, &args[0])?;
        if it.access == ImageAccess::WriteOnly {
            self.error(
                args[0].span,
                format!("'{name}' cannot read a write_only image"),
            );
            return None;
        }
        if elem == Scalar::Half && !self.opts.fp16 {
            self.error(span, format!("'{name}' requires cl_khr_fp16"));
            return None;
        }
        // Depth images read one float (§6.13.14.2).
        let ret = if it.depth {
            Type::Scalar(elem)
        } else {
            Type::Vector(elem, 4)
        };
        // SPIR-V has no signed integer types: int4 and uint4 texels are both v4uint.
        let spv_elem = if elem == Scalar::Int {
            Scalar::UInt
        } else {
            elem
        };
        let v4 = self.spv_type(&Type::Vector(spv_elem, 4));
        let texel = if args.len() >= 3 {
            if it.access != ImageAccess::ReadOnly {
                self.error(
                    args[0].span,
                    format!("'{name}' with a sampler needs a read_only image"),
                );
                return None;
            }
            let sampler = self.sampler_arg(&args[1])?;
            let coord = self.coord_arg(name, &args[2], &it, true)?;
            let it_id = self.spv_type(&img.ty);
            let st = self
                .b
                .global_dedup(Op::TypeSampledImage, None, vec![Operand::Id(it_id)]);
            let si = self.inst(
                Op::SampledImage,
                st,
                vec![Operand::Id(img.id), Operand::Id(sampler)],
            );
            let lod = if with_lod {
                let v = self.rvalue(&args[3])?;
                self.implicit_convert(v, &Type::Scalar(Scalar::Float), args[3].span, "passing")?
                    .id
            } else {
                self.float_const(Scalar::Float, 0.0)
            };
            self.inst(
                Op::ImageSampleExplicitLod,
                v4,
                vec![
                    Operand::Id(si),
                    Operand::Id(coord.id),
                    Operand::Int(spv::ImageOperands::LOD.0),
                    Operand::Id(lod),
                ],
            )
        } else {
            let coord = self.coord_arg(name, &args[1], &it, false)?;
            // SPIR-V 3.37.10: reading a depth image gives a scalar.
            let t = if it.depth { self.spv_type(&ret) } else { v4 };
            let id = self.inst(
                Op::ImageRead,
                t,
                vec![Operand::Id(img.id), Operand::Id(coord.id)],
            );
            if it.depth {
                return Some(Val { id, ty: ret });
            }
            id
        };
        let id = if it.depth {
            let t = self.spv_type(&ret);
            self.inst(
                Op::CompositeExtract,
                t,
                vec![Operand::Id(texel), Operand::Int(0)],
            )
        } else {
            texel
        };
        Some(Val { id, ty: ret })
    }

    fn write_image(&mut self, name: &str, elem: Scalar, args: &[Expr], span: Span) -> Option<Val> {
        self.check_images(span)?;
        // cl_khr_mipmap_image_writes: `write_image{f,i,ui}(image, coord, int lod, color)`.
        let with_lod = args.len() == 4 && self.has_extension("cl_khr_mipmap_image_writes");
        if args.len() != 3 && !with_lod {
            self.error(span, format!("no matching function for call to '{name}'"));
            return None;
        }
        let (img, it) = self.image_arg(name, &args[0])?;
        if it.access == ImageAccess::ReadOnly {
            self.error(
                args[0].span,
                format!("'{name}' cannot write a read_only image"),
            );
            return None;
        }
        if elem == Scalar::Half && !self.opts.fp16 {
            self.error(span, format!("'{name}' requires cl_khr_fp16"));
            return None;
        }
        if it.dim == ImageDim::D3 && !self.image3d_writes_allowed() {
            // OpenCL C 2.0 §6.13.14.4 / 3.0 §6.15.15.4: 3D writes are an extension/feature.
            self.error(
                span,
                format!("'{name}' to an image3d_t requires cl_khr_3d_image_writes (__opencl_c_3d_image_writes in OpenCL C 3.0)"),
            );
            return None;
        }
        let coord = self.coord_arg(name, &args[1], &it, false)?;
        let color_ty = if it.depth {
            Type::Scalar(elem)
        } else {
            Type::Vector(elem, 4)
        };
        let mut operands = vec![Operand::Id(img.id), Operand::Id(coord.id)];
        let color_arg = if with_lod { &args[3] } else { &args[2] };
        let color = self.rvalue(color_arg)?;
        let color = self.implicit_convert(color, &color_ty, color_arg.span, "passing")?;
        operands.push(Operand::Id(color.id));
        if with_lod {
            let lod = self.rvalue(&args[2])?;
            let lod = self.implicit_convert(lod, &Type::INT, args[2].span, "passing")?;
            // env 7.2.10: OpImageWrite takes a Lod operand with cl_khr_mipmap_image_writes.
            operands.push(Operand::Int(spv::ImageOperands::LOD.0));
            operands.push(Operand::Id(lod.id));
        }
        self.b.inst_no_result(Op::ImageWrite, operands);
        Some(Val {
            id: self.b.id(),
            ty: Type::Void,
        })
    }

    /// `OpImageQuerySizeLod … 0` (or `OpImageQuerySize` for buffers) with `n` lanes of `s`.
    fn image_size(&mut self, img: &Val, it: &ImageType, s: Scalar) -> Id {
        let t = self.spv_type(&Type::vector_or_scalar(s, it.size_lanes()));
        if it.dim == ImageDim::Buffer {
            self.inst(Op::ImageQuerySize, t, vec![Operand::Id(img.id)])
        } else {
            let zero = self.int_const(Scalar::UInt, 0);
            self.inst(
                Op::ImageQuerySizeLod,
                t,
                vec![Operand::Id(img.id), Operand::Id(zero)],
            )
        }
    }

    fn size_component(&mut self, size: Id, it: &ImageType, s: Scalar, k: u32) -> Id {
        if it.size_lanes() == 1 {
            return size;
        }
        let t = self.scalar_ty(s);
        self.inst(
            Op::CompositeExtract,
            t,
            vec![Operand::Id(size), Operand::Int(k)],
        )
    }

    fn image_query(&mut self, name: &str, args: &[Expr], span: Span) -> Option<Val> {
        self.check_images(span)?;
        if args.len() != 1 {
            self.error(span, format!("no matching function for call to '{name}'"));
            return None;
        }
        let (img, it) = self.image_arg(name, &args[0])?;
        let dims = match it.dim {
            ImageDim::D1 | ImageDim::Buffer => 1,
            ImageDim::D2 => 2,
            ImageDim::D3 => 3,
        };
        let int = |id| Val { id, ty: Type::INT };
        match name {
            "get_image_width" | "get_image_height" | "get_image_depth" => {
                let k = match name {
                    "get_image_width" => 0,
                    "get_image_height" => 1,
                    _ => 2,
                };
                if k >= dims {
                    self.error(
                        span,
                        format!(
                            "no matching function for call to '{name}' with '{}'",
                            it.name()
                        ),
                    );
                    return None;
                }
                let size = self.image_size(&img, &it, Scalar::UInt);
                Some(int(self.size_component(size, &it, Scalar::UInt, k)))
            }
            "get_image_array_size" => {
                if !it.arrayed {
                    self.error(
                        span,
                        format!(
                            "no matching function for call to '{name}' with '{}'",
                            it.name()
                        ),
                    );
                    return None;
                }
                let st = self.size_t();
                let s = st.elem().unwrap_or(Scalar::ULong);
                let size = self.image_size(&img, &it, s);
                let id = self.size_component(size, &it, s, dims);
                Some(Val { id, ty: st })
            }
            "get_image_dim" => {
                if dims < 2 {
                    self.error(
                        span,
                        format!(
                            "no matching function for call to '{name}' with '{}'",
                            it.name()
                        ),
                    );
                    return None;
                }
                let size = self.image_size(&img, &it, Scalar::UInt);
                let (lanes, ret) = if dims == 2 {
                    (2, Type::Vector(Scalar::Int, 2))
                } else {
                    (4, Type::Vector(Scalar::Int, 4))
                };
                let mut parts = Vec::new();
                for k in 0..dims {
                    parts.push(Operand::Id(self.size_component(size, &it, Scalar::UInt, k)));
                }
                while parts.len() < lanes {
                    parts.push(Operand::Id(self.int_const(Scalar::UInt, 0)));
                }
                let t = self.spv_type(&ret);
                let id = self.inst(Op::CompositeConstruct, t, parts);
                Some(Val { id, ty: ret })
            }
            // cl_khr_mipmap_image: `int get_image_num_mip_levels(image)` → OpImageQueryLevels.
            "get_image_num_mip_levels" if self.has_extension("cl_khr_mipmap_image") => {
                let t = self.scalar_ty(Scalar::UInt);
                let id = self.inst(Op::ImageQueryLevels, t, vec![Operand::Id(img.id)]);
                Some(int(id))
            }
            "get_image_channel_data_type" | "get_image_channel_order" => {
                let (op, base) = if name == "get_image_channel_data_type" {
                    (Op::ImageQueryFormat, CHANNEL_DATA_TYPE_BASE)
                } else {
                    (Op::ImageQueryOrder, CHANNEL_ORDER_BASE)
                };
                let t = self.scalar_ty(Scalar::UInt);
                let q = self.inst(op, t, vec![Operand::Id(img.id)]);
                let b = self.int_const(Scalar::UInt, base);
                let id = self.inst(Op::IAdd, t, vec![Operand::Id(q), Operand::Id(b)]);
                Some(int(id))
            }
            _ => {
                self.error(span, format!("'{name}' is not supported yet"));
                None
            }
        }
    }
}
