//! Kernels with image and sampler arguments, end to end: host images (`runtime::Image`) bound
//! as `exec::ArgValue::Image`, samplers as their encoded value. The kernels are compiled by
//! clang-15 + llvm-spirv-15 (skipped with a message when absent); expected texels are computed
//! here by hand-written references of the OpenCL C image functions.
//!
//! These tests need the engines' image instructions and the kernel IR's image argument kind
//! (the execution side of issue 6); they pass once that is merged.

use std::path::PathBuf;
use std::process::Command;
use std::sync::Arc;

use runtime::{
    AddressingMode, ArgKind, Buffer, ChannelOrder, ChannelType, Context, Device, FilterMode,
    HostPitches, Image, ImageAccess, ImageFormat, ImageShape, ImageSource, ImageType, MemFlags,
    NdRange, Program, Queue, Sampler,
};

fn context() -> Context {
    let mut device = Device::host_cpu();
    device.set_image_support(true);
    Context::new(Arc::new(device))
}

fn have(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// SPIR-V of an OpenCL C source from clang-15 + llvm-spirv-15, or `None` (with a message) when
/// the tools are absent.
fn spirv(source: &str, tag: &str) -> Option<Vec<u8>> {
    if !have("clang-15") || !have("llvm-spirv-15") {
        eprintln!("skipped: needs clang-15 and llvm-spirv-15");
        return None;
    }
    let dir: PathBuf =
        std::env::temp_dir().join(format!("oxcl-image-kernels-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cl = dir.join("k.cl");
    let bc = dir.join("k.bc");
    let spv = dir.join("k.spv");
    std::fs::write(&cl, source).unwrap();
    let clang = Command::new("clang-15")
        .args([
            "-c",
            "-target",
            "spir64",
            "-cl-std=CL2.0",
            "-O0",
            "-emit-llvm",
            "-o",
        ])
        .arg(&bc)
        .arg(&cl)
        .output()
        .unwrap();
    assert!(
        clang.status.success(),
        "{}",
        String::from_utf8_lossy(&clang.stderr)
    );
    let ls = Command::new("llvm-spirv-15")
        .arg("--spirv-max-version=1.2")
        .arg(&bc)
        .arg("-o")
        .arg(&spv)
        .output()
        .unwrap();
    assert!(
        ls.status.success(),
        "{}",
        String::from_utf8_lossy(&ls.stderr)
    );
    let words = std::fs::read(&spv).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    Some(words)
}

fn build(ctx: &Context, source: &str, tag: &str) -> Option<Program> {
    let il = spirv(source, tag)?;
    let program = Program::from_il(ctx, &il).unwrap();
    program.build("").unwrap();
    Some(program)
}

fn image2d(ctx: &Context, f: ImageFormat, w: usize, h: usize, data: Option<&[u8]>) -> Image {
    let source = match data {
        Some(d) => ImageSource::Copy(d, HostPitches::default()),
        None => ImageSource::Zeroed,
    };
    Image::new(
        ctx,
        ImageAccess::ReadWrite,
        f,
        ImageShape {
            image_type: ImageType::Image2D,
            width: w,
            height: h,
            depth: 1,
            array_size: 1,
        },
        source,
    )
    .unwrap()
}

const INVERT: &str = r#"
__kernel void invert(read_only image2d_t src, write_only image2d_t dst) {
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    float4 v = read_imagef(src, p);
    write_imagef(dst, p, (float4)(1.0f - v.x, 1.0f - v.y, 1.0f - v.z, v.w));
}
"#;

#[test]
fn invert_rgba8_image() {
    let ctx = context();
    let Some(program) = build(&ctx, INVERT, "invert") else {
        return;
    };
    let kernel = program.kernel("invert").unwrap();
    assert_eq!(kernel.arg_info(0).unwrap().kind, ArgKind::Image);
    let f = ImageFormat::new(ChannelOrder::RGBA, ChannelType::UnormInt8).unwrap();
    let (w, h) = (5, 3);
    let data: Vec<u8> = (0..w * h * 4).map(|i| (i * 7 % 256) as u8).collect();
    let src = image2d(&ctx, f, w, h, Some(&data));
    let dst = image2d(&ctx, f, w, h, None);
    kernel.set_arg_image(0, &src).unwrap();
    kernel.set_arg_image(1, &dst).unwrap();
    Queue::new(&ctx)
        .nd_range(&kernel, &NdRange::new(&[w, h], None, None))
        .unwrap();
    // (1 - c/255) × 255 rounds back to 255 - c; alpha is kept.
    let expect: Vec<u8> = data
        .chunks(4)
        .flat_map(|t| [255 - t[0], 255 - t[1], 255 - t[2], t[3]])
        .collect();
    assert_eq!(dst.to_vec().unwrap(), expect);
}

const SAMPLE: &str = r#"
__kernel void sample(read_only image2d_t src, sampler_t s, __global float4 *out, float dx) {
    int x = get_global_id(0), y = get_global_id(1);
    out[y * get_global_size(0) + x] = read_imagef(src, s, (float2)(x + dx, y + 0.5f));
}
"#;

#[test]
fn sampler_argument_with_clamp_to_edge_nearest() {
    let ctx = context();
    let Some(program) = build(&ctx, SAMPLE, "sample") else {
        return;
    };
    let kernel = program.kernel("sample").unwrap();
    // A 4×2 R FLOAT image, texel (x, y) = 10y + x.
    let f = ImageFormat::new(ChannelOrder::R, ChannelType::Float).unwrap();
    let data: Vec<u8> = (0..2)
        .flat_map(|y| (0..4).map(move |x| (10 * y + x) as f32))
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let src = image2d(&ctx, f, 4, 2, Some(&data));
    let out = Buffer::new(&ctx, MemFlags::default(), 4 * 2 * 16).unwrap();
    let sampler = Sampler {
        normalized_coords: false,
        addressing: AddressingMode::ClampToEdge,
        filter: FilterMode::Nearest,
        ..Sampler::default()
    };
    kernel.set_arg_image(0, &src).unwrap();
    kernel.set_arg_sampler(1, &sampler).unwrap();
    kernel.set_arg_buffer(2, Some(&out)).unwrap();
    // x + dx = x - 1.5: nearest is floor(x - 1.5), clamped to [0, 3].
    kernel.set_arg_bytes(3, &(-1.5f32).to_le_bytes()).unwrap();
    Queue::new(&ctx)
        .nd_range(&kernel, &NdRange::new(&[4, 2], None, None))
        .unwrap();
    let got: Vec<[f32; 4]> = out
        .to_vec()
        .chunks(16)
        .map(|c| {
            std::array::from_fn(|i| f32::from_le_bytes(c[4 * i..4 * i + 4].try_into().unwrap()))
        })
        .collect();
    for y in 0..2 {
        for x in 0..4i32 {
            let i = ((x as f32 - 1.5).floor() as i32).clamp(0, 3);
            let expect = [(10 * y + i) as f32, 0.0, 0.0, 1.0];
            assert_eq!(got[(y * 4 + x) as usize], expect, "({x}, {y})");
        }
    }
}

const QUERY: &str = r#"
__kernel void query(read_only image2d_t a, read_only image3d_t b, __global int *out) {
    out[0] = get_image_width(a);
    out[1] = get_image_height(a);
    out[2] = get_image_width(b);
    out[3] = get_image_height(b);
    out[4] = get_image_depth(b);
    out[5] = get_image_channel_order(a);
    out[6] = get_image_channel_data_type(b);
}
"#;

#[test]
fn image_queries_see_the_host_descriptor() {
    let ctx = context();
    let Some(program) = build(&ctx, QUERY, "query") else {
        return;
    };
    let kernel = program.kernel("query").unwrap();
    let a = image2d(
        &ctx,
        ImageFormat::new(ChannelOrder::BGRA, ChannelType::UnormInt8).unwrap(),
        7,
        3,
        None,
    );
    let b = Image::new(
        &ctx,
        ImageAccess::ReadOnly,
        ImageFormat::new(ChannelOrder::RG, ChannelType::HalfFloat).unwrap(),
        ImageShape {
            image_type: ImageType::Image3D,
            width: 2,
            height: 4,
            depth: 5,
            array_size: 1,
        },
        ImageSource::Zeroed,
    )
    .unwrap();
    let out = Buffer::new(&ctx, MemFlags::default(), 7 * 4).unwrap();
    kernel.set_arg_image(0, &a).unwrap();
    kernel.set_arg_image(1, &b).unwrap();
    kernel.set_arg_buffer(2, Some(&out)).unwrap();
    Queue::new(&ctx)
        .nd_range(&kernel, &NdRange::new(&[1], None, None))
        .unwrap();
    let got: Vec<i32> = out
        .to_vec()
        .chunks(4)
        .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    // CLK_BGRA = 0x10B6, CLK_HALF_FLOAT = 0x10DD (cl.xml).
    assert_eq!(got, [7, 3, 2, 4, 5, 0x10B6, 0x10DD]);
}

const WRITE_BUFFER_IMAGE: &str = r#"
__kernel void fill(write_only image1d_buffer_t img) {
    int x = get_global_id(0);
    write_imageui(img, x, (uint4)(x, 2 * x, 300, 4));
}
"#;

#[test]
fn kernel_writes_reach_the_buffer_of_a_1d_image_buffer() {
    let ctx = context();
    let Some(program) = build(&ctx, WRITE_BUFFER_IMAGE, "bufimg") else {
        return;
    };
    let kernel = program.kernel("fill").unwrap();
    let buffer = Buffer::new(&ctx, MemFlags::default(), 16).unwrap();
    let image = Image::new(
        &ctx,
        ImageAccess::WriteOnly,
        ImageFormat::new(ChannelOrder::RGBA, ChannelType::UnsignedInt8).unwrap(),
        ImageShape {
            image_type: ImageType::Image1DBuffer,
            width: 4,
            height: 1,
            depth: 1,
            array_size: 1,
        },
        ImageSource::Buffer(&buffer, 0),
    )
    .unwrap();
    kernel.set_arg_image(0, &image).unwrap();
    Queue::new(&ctx)
        .nd_range(&kernel, &NdRange::new(&[4], None, None))
        .unwrap();
    // 300 saturates to 255 (write_imageui to an 8-bit channel).
    let expect: Vec<u8> = (0..4u8).flat_map(|x| [x, 2 * x, 255, 4]).collect();
    assert_eq!(buffer.to_vec(), expect);
}
