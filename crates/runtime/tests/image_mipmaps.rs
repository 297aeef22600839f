//! cl_khr_mipmap_image on the host side: mipmapped image creation, host commands on one mip
//! level (the level is the extra origin coordinate, API 5.3 "Specifying Mipmap Levels to Image
//! Operations"), and a kernel compiled by clang-15 + llvm-spirv-15 (skipped with a message when
//! absent) that reads with an explicit lod and writes with a lod. Expected values are computed
//! by hand in this file.

use std::path::PathBuf;
use std::process::Command;
use std::sync::Arc;

use runtime::{
    ChannelOrder, ChannelType, Context, Device, Error, HostPitches, Image, ImageAccess,
    ImageFormat, ImageShape, ImageSource, ImageType, NdRange, Program, Queue, Texel,
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
        std::env::temp_dir().join(format!("oxcl-image-mipmaps-{tag}-{}", std::process::id()));
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
        ])
        .arg("-o")
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

fn shape2d(w: usize, h: usize) -> ImageShape {
    ImageShape {
        image_type: ImageType::Image2D,
        width: w,
        height: h,
        depth: 1,
        array_size: 1,
    }
}

fn r_float() -> ImageFormat {
    ImageFormat::new(ChannelOrder::R, ChannelType::Float).unwrap()
}

fn floats(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

fn bytes(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// Level sizes of an 8×4 image: max(1, size >> level).
const LEVELS: [(usize, usize); 4] = [(8, 4), (4, 2), (2, 1), (1, 1)];

/// The texel the host writes at (x, y) of level l.
fn texel(l: usize, x: usize, y: usize) -> f32 {
    (100 * l + 10 * y + x) as f32
}

fn mipmapped(ctx: &Context) -> Image {
    Image::new_mipmapped(ctx, ImageAccess::ReadWrite, r_float(), shape2d(8, 4), 4).unwrap()
}

/// Writes every level from the host, origin[2] naming the level.
fn fill_levels(image: &Image) {
    for (l, &(w, h)) in LEVELS.iter().enumerate() {
        let data: Vec<f32> = (0..h)
            .flat_map(|y| (0..w).map(move |x| texel(l, x, y)))
            .collect();
        image
            .write([0, 0, l], [w, h, 1], &bytes(&data), HostPitches::default())
            .unwrap();
    }
}

fn read_level(image: &Image, l: usize) -> Vec<f32> {
    let (w, h) = LEVELS[l];
    let mut out = vec![0u8; w * h * 4];
    image
        .read([0, 0, l], [w, h, 1], &mut out, HostPitches::default())
        .unwrap();
    floats(&out)
}

#[test]
fn creation_rules_and_level_sizes() {
    let ctx = context();
    let image = mipmapped(&ctx);
    assert_eq!(image.mip_levels(), 4);
    // 8×4 + 4×2 + 2×1 + 1×1 texels of 4 bytes.
    assert_eq!(image.size(), (32 + 8 + 2 + 1) * 4);
    // log2(8) + 1 = 4 levels at most.
    let too_many = Image::new_mipmapped(&ctx, ImageAccess::ReadWrite, r_float(), shape2d(8, 4), 5);
    assert!(matches!(too_many, Err(Error::InvalidImageDescriptor(_))));
    // One level is an ordinary image.
    let one = Image::new_mipmapped(&ctx, ImageAccess::ReadWrite, r_float(), shape2d(8, 4), 1);
    assert_eq!(one.unwrap().mip_levels(), 0);
    // No mipmapped depth images.
    let depth = ImageFormat::new(ChannelOrder::Depth, ChannelType::Float).unwrap();
    let d = Image::new_mipmapped(&ctx, ImageAccess::ReadWrite, depth, shape2d(8, 4), 2);
    assert!(matches!(d, Err(Error::InvalidImageDescriptor(_))));
    // Mipmapped 3D images are refused with a clear error (their level would be origin[3]).
    let shape3d = ImageShape {
        image_type: ImageType::Image3D,
        depth: 4,
        ..shape2d(8, 4)
    };
    let e = Image::new_mipmapped(&ctx, ImageAccess::ReadWrite, r_float(), shape3d, 2);
    assert!(
        matches!(&e, Err(Error::InvalidImageDescriptor(m)) if m.contains("not supported yet")),
        "{e:?}"
    );
}

#[test]
fn host_commands_address_one_level() {
    let ctx = context();
    let image = mipmapped(&ctx);
    fill_levels(&image);
    for (l, &(w, h)) in LEVELS.iter().enumerate() {
        let expect: Vec<f32> = (0..h)
            .flat_map(|y| (0..w).map(move |x| texel(l, x, y)))
            .collect();
        assert_eq!(read_level(&image, l), expect, "level {l}");
    }
    // Level 1 (4×2) is at byte 8×4×4 = 128 of the memory.
    let all = floats(&image.storage().to_vec());
    assert_eq!(
        all[32..40],
        [100., 101., 102., 103., 110., 111., 112., 113.]
    );
    // A region outside level 2 (2×1), a level that does not exist.
    let mut out = [0u8; 16];
    assert!(image
        .read([0, 0, 2], [4, 1, 1], &mut out, HostPitches::default())
        .is_err());
    assert!(matches!(
        image.read([0, 0, 4], [1, 1, 1], &mut out, HostPitches::default()),
        Err(Error::InvalidMipLevel(_))
    ));
    // Fill a sub-region of level 1, copy level 2 into level 1, map level 1.
    image
        .fill(Texel::Float([7.0, 0.0, 0.0, 1.0]), [1, 1, 1], [2, 1, 1])
        .unwrap();
    image
        .copy_from([2, 0, 1], &image, [0, 0, 2], [2, 1, 1])
        .unwrap();
    assert_eq!(
        read_level(&image, 1),
        [100., 101., 200., 201., 110., 7., 7., 113.]
    );
    let (ptr, row_pitch, slice_pitch) = image.map([1, 1, 1], [1, 1, 1]).unwrap();
    assert_eq!((row_pitch, slice_pitch), (16, 0));
    // SAFETY: the mapped texel lies in the image, which lives.
    let v = unsafe { std::ptr::read_unaligned(ptr as *const f32) };
    assert_eq!(v, 7.0);
    // Levels 0 and 3 are untouched.
    assert_eq!(read_level(&image, 3), [300.]);
    assert_eq!(read_level(&image, 0)[9], texel(0, 1, 1));
}

const MIP_KERNEL: &str = r#"
__kernel void mips(read_only image2d_t src, write_only image2d_t dst) {
    const sampler_t s = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE |
                        CLK_FILTER_NEAREST;
    int x = get_global_id(0), y = get_global_id(1);
    int levels = get_image_num_mip_levels(src);
    for (int l = 0; l < levels; l++) {
        int w = max(get_image_width(src) >> l, 1);
        int h = max(get_image_height(src) >> l, 1);
        if (x < w && y < h) {
            float2 c = (float2)((x + 0.5f) / w, (y + 0.5f) / h);
            float v = read_imagef(src, s, c, (float)l).x;
            write_imagef(dst, (int2)(x, y), l, (float4)(2.0f * v + 1.0f, 0.0f, 0.0f, 1.0f));
        }
    }
}
"#;

#[test]
fn kernel_reads_and_writes_each_level() {
    let ctx = context();
    // oxcl's own compiler, then clang + llvm-spirv when installed.
    let from_source = Program::from_source(&ctx, MIP_KERNEL, "mips.cl");
    if let Err(e) = from_source.build("-cl-std=CL2.0") {
        panic!("clc: {e}");
    }
    run_mip_kernel(&ctx, &from_source);
    let Some(il) = spirv(MIP_KERNEL, "mips") else {
        return;
    };
    let program = Program::from_il(&ctx, &il).unwrap();
    program.build("").unwrap();
    run_mip_kernel(&ctx, &program);
}

fn run_mip_kernel(ctx: &Context, program: &Program) {
    let ctx = ctx.clone();
    let kernel = program.kernel("mips").unwrap();
    let src = mipmapped(&ctx);
    fill_levels(&src);
    let dst =
        Image::new_mipmapped(&ctx, ImageAccess::ReadWrite, r_float(), shape2d(8, 4), 4).unwrap();
    kernel.set_arg_image(0, &src).unwrap();
    kernel.set_arg_image(1, &dst).unwrap();
    Queue::new(&ctx)
        .nd_range(&kernel, &NdRange::new(&[8, 4], None, None))
        .unwrap();
    for (l, &(w, h)) in LEVELS.iter().enumerate() {
        let expect: Vec<f32> = (0..h)
            .flat_map(|y| (0..w).map(move |x| 2.0 * texel(l, x, y) + 1.0))
            .collect();
        assert_eq!(read_level(&dst, l), expect, "level {l}");
    }
    // An ordinary image created with ImageSource still works next to mipmapped ones.
    let plain = Image::new(
        &ctx,
        ImageAccess::ReadWrite,
        r_float(),
        shape2d(2, 2),
        ImageSource::Zeroed,
    )
    .unwrap();
    assert_eq!(plain.mip_levels(), 0);
}
