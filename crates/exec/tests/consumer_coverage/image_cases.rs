//! Corpus cases with images and samplers: one OpenCL C kernel (clang-15 + llvm-spirv-15) and one
//! SPIR-V assembly module for the image instructions clang does not emit (`OpImage`,
//! `OpImageQuerySize`, `OpImageQueryLevels`). Expected values by hand from env chapter 9 and the
//! `CL_*` constants of cl.h.

use std::collections::BTreeSet;

use devlib::image::{ChannelOrder, ChannelType, ImageFormat};
use devlib::image_desc::{ImageDesc, ImageType};
use spv::Op;

use super::harness::{run_cl, run_module, u32s, Arg, Case};

const SAMPLERS: &str = r#"
const sampler_t cs = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_NEAREST;
kernel void k(read_only image2d_t src, sampler_t s, write_only image2d_t dst, global uint *out) {
    float4 a = read_imagef(src, s, (int2)(1, 0));
    write_imagef(dst, (int2)(0, 1), a);
    float4 b = read_imagef(src, cs, (float2)(1.25f, 0.75f));
    float4 c = read_imagef(src, (int2)(1, 1));
    out[0] = get_image_width(src);
    out[1] = get_image_channel_order(src);
    out[2] = get_image_channel_data_type(src);
    out[3] = convert_uint_rte(b.x * 255.0f);
    out[4] = convert_uint_rte(c.x * 255.0f);
    out[5] = get_image_height(dst);
}
"#;

fn rgba8_2x2() -> ImageDesc {
    let f = ImageFormat::new(ChannelOrder::RGBA, ChannelType::UnormInt8).expect("format");
    ImageDesc::packed(ImageType::Image2D, f, 2, 2, 1, 1)
}

fn samplers() -> BTreeSet<Op> {
    // Texel (i, j) = (10 (2 j + i) + 1, 51, 102, 255).
    let src: Vec<u8> = (0..4u8).flat_map(|k| [10 * k + 1, 51, 102, 255]).collect();
    // The sampler argument: unnormalized, CLK_ADDRESS_CLAMP, nearest: (1, 0) reads texel (1, 0),
    // written unchanged (k / 255 × 255 rounds back to k) at (0, 1), bytes 8..12.
    let mut dst = vec![0u8; 16];
    dst[8..12].copy_from_slice(&[11, 51, 102, 255]);
    let case = Case::new(
        "image samplers",
        vec![
            Arg::Image(src.clone(), src, rgba8_2x2()),
            Arg::Value(0x14u32.to_le_bytes().to_vec()),
            Arg::Image(vec![0; 16], dst, rgba8_2x2()),
            // Width 2, CL_RGBA 0x10B5, CL_UNORM_INT8 0x10D2; the constant sampler repeats:
            // (1.25, 0.75) → (frac × 2) = (0.5, 1.5) → texel (0, 1) = 21; texel (1, 1) = 31;
            // height 2.
            Arg::Buffer(vec![0; 24], u32s(&[2, 0x10B5, 0x10D2, 21, 31, 2])),
        ],
    );
    run_cl(SAMPLERS, "CL2.0", &case)
}

const QUERIES: &str = "
OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpCapability ImageBasic
OpCapability LiteralSampler
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %main \"k\"
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%float = OpTypeFloat 32
%v2uint = OpTypeVector %uint 2
%v4float = OpTypeVector %float 4
%img = OpTypeImage %void 2D 0 0 0 0 Unknown ReadOnly
%smp = OpTypeSampler
%simg = OpTypeSampledImage %img
%ptr = OpTypePointer CrossWorkgroup %uint
%fn = OpTypeFunction %void %img %ptr
%cs = OpConstantSampler %smp None 0 Nearest
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%l1 = OpConstant %ulong 1
%l2 = OpConstant %ulong 2
%l3 = OpConstant %ulong 3
%l4 = OpConstant %ulong 4
%coord = OpConstantComposite %v2uint %u1 %u0
%main = OpFunction %void None %fn
%im = OpFunctionParameter %img
%out = OpFunctionParameter %ptr
%e = OpLabel
%si = OpSampledImage %simg %im %cs
%im2 = OpImage %img %si
%t = OpImageRead %v4float %im2 %coord
%tx = OpCompositeExtract %float %t 0
%r0 = OpBitcast %uint %tx
%sz = OpImageQuerySize %v2uint %im2
%r1 = OpCompositeExtract %uint %sz 0
%r2 = OpCompositeExtract %uint %sz 1
%r3 = OpImageQueryLevels %uint %im
%r4 = OpImageQueryFormat %uint %im2
OpStore %out %r0 Aligned 4
%p1 = OpInBoundsPtrAccessChain %ptr %out %l1
OpStore %p1 %r1 Aligned 4
%p2 = OpInBoundsPtrAccessChain %ptr %out %l2
OpStore %p2 %r2 Aligned 4
%p3 = OpInBoundsPtrAccessChain %ptr %out %l3
OpStore %p3 %r3 Aligned 4
%p4 = OpInBoundsPtrAccessChain %ptr %out %l4
OpStore %p4 %r4 Aligned 4
OpReturn
OpFunctionEnd
";

fn queries() -> BTreeSet<Op> {
    let f = ImageFormat::new(ChannelOrder::R, ChannelType::Float).expect("format");
    let desc = ImageDesc::packed(ImageType::Image2D, f, 2, 1, 1, 1);
    let image: Vec<u8> = [7.0f32, 9.5].iter().flat_map(|x| x.to_le_bytes()).collect();
    let module = spv::assemble(QUERIES).unwrap_or_else(|e| panic!("assembly: {e}"));
    let case = Case::new(
        "image queries",
        vec![
            Arg::Image(image.clone(), image, desc),
            // Texel (1, 0) = 9.5 (bits 0x41180000); size 2 x 1; 1 level; SPIR-V Float = 14
            // (env 2.6: OpImageQueryFormat returns the SPIR-V Image Channel Data Type).
            Arg::Buffer(vec![0; 20], u32s(&[0x4118_0000, 2, 1, 1, 14])),
        ],
    );
    run_module(module, &case)
}

pub fn run_all() -> BTreeSet<Op> {
    let mut ops = samplers();
    ops.extend(queries());
    ops
}
