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
    // A 3D image halves its depth too: 8×4×4, 4×2×2, 2×1×1, 1×1×1.
    let image3d = Image::new_mipmapped(&ctx, ImageAccess::ReadWrite, r_float(), shape3d(), 4);
    let image3d = image3d.unwrap();
    assert_eq!(image3d.mip_levels(), 4);
    assert_eq!(image3d.size(), (128 + 16 + 2 + 1) * 4);
    assert_eq!(image3d.level_region(1), [4, 2, 2]);
    // A 2D array keeps its layers: 3 × (8×4 + 4×2 + 2×1 + 1×1).
    let array = Image::new_mipmapped(&ctx, ImageAccess::ReadWrite, r_float(), shape2d_array(), 4);
    let array = array.unwrap();
    assert_eq!(array.size(), 3 * (32 + 8 + 2 + 1) * 4);
    assert_eq!(array.level_region(2), [2, 1, 3]);
    // log2(8) + 1 = 4 levels at most for 3D too.
    let too_many = Image::new_mipmapped(&ctx, ImageAccess::ReadWrite, r_float(), shape3d(), 5);
    assert!(matches!(too_many, Err(Error::InvalidImageDescriptor(_))));
}

fn shape3d() -> ImageShape {
    ImageShape {
        image_type: ImageType::Image3D,
        depth: 4,
        ..shape2d(8, 4)
    }
}

fn shape2d_array() -> ImageShape {
    ImageShape {
        image_type: ImageType::Image2DArray,
        array_size: 3,
        ..shape2d(8, 4)
    }
}

/// Level sizes (width, height, depth or layers) of the 8×4×4 3D image and the 8×4, 3-layer 2D
/// array: max(1, size >> level), layers not reduced.
fn levels_of(image_type: ImageType) -> [[usize; 3]; 4] {
    match image_type {
        ImageType::Image3D => [[8, 4, 4], [4, 2, 2], [2, 1, 1], [1, 1, 1]],
        _ => [[8, 4, 3], [4, 2, 3], [2, 1, 3], [1, 1, 3]],
    }
}

/// The texel the host writes at (x, y, z) of level l of a 3D image or 2D array.
fn texel3(l: usize, x: usize, y: usize, z: usize) -> f32 {
    (1000 * l + 100 * z + 10 * y + x) as f32
}

/// Every texel of one level, x fastest.
fn level_texels(sizes: [usize; 3], value: impl Fn(usize, usize, usize) -> f32) -> Vec<f32> {
    let [w, h, d] = sizes;
    (0..d)
        .flat_map(|z| (0..h).flat_map(move |y| (0..w).map(move |x| (x, y, z))))
        .map(|(x, y, z)| value(x, y, z))
        .collect()
}

/// Writes every level of a mipmapped 3D image or 2D array, origin[3] naming the level.
fn fill_levels3(image: &Image) {
    for (l, &size) in levels_of(image.image_type()).iter().enumerate() {
        let data = level_texels(size, |x, y, z| texel3(l, x, y, z));
        image
            .write([0, 0, 0, l], size, &bytes(&data), HostPitches::default())
            .unwrap();
    }
}

fn read_level3(image: &Image, l: usize) -> Vec<f32> {
    let size = levels_of(image.image_type())[l];
    let mut out = vec![0u8; size.iter().product::<usize>() * 4];
    image
        .read([0, 0, 0, l], size, &mut out, HostPitches::default())
        .unwrap();
    floats(&out)
}

#[test]
fn host_commands_address_levels_of_3d_images_and_2d_arrays() {
    let ctx = context();
    for shape in [shape3d(), shape2d_array()] {
        let t = shape.image_type;
        let image =
            Image::new_mipmapped(&ctx, ImageAccess::ReadWrite, r_float(), shape, 4).unwrap();
        fill_levels3(&image);
        for (l, &size) in levels_of(t).iter().enumerate() {
            let expect = level_texels(size, |x, y, z| texel3(l, x, y, z));
            assert_eq!(read_level3(&image, l), expect, "{t:?} level {l}");
        }
        // Level 1 follows level 0 (8×4×4 or 8×4×3 texels), tightly packed: its texel (1, 1, 1)
        // is at 4×2 texels per slice or layer + one row + 1.
        let level1_start = if t == ImageType::Image3D { 128 } else { 96 };
        let all = floats(&image.storage().to_vec());
        assert_eq!(all[level1_start + 8 + 4 + 1], texel3(1, 1, 1, 1));
        // A 3-element origin is level 0; origin[3] beyond the levels is CL_INVALID_MIP_LEVEL.
        let mut one = [0u8; 4];
        image
            .read([2, 1, 1], [1, 1, 1], &mut one, HostPitches::default())
            .unwrap();
        assert_eq!(floats(&one), [texel3(0, 2, 1, 1)]);
        assert!(matches!(
            image.read([0, 0, 0, 4], [1, 1, 1], &mut one, HostPitches::default()),
            Err(Error::InvalidMipLevel(_))
        ));
        // A region outside level 2 (2×1 by 1 slice or 3 layers).
        let mut big = [0u8; 64];
        assert!(image
            .read([0, 0, 0, 2], [2, 2, 1], &mut big, HostPitches::default())
            .is_err());
        // Fill a texel of level 1, copy level 2 (slice/layer 0, 2×1) into level 1 at (2, 1, 1),
        // copy level 3 to a buffer and the buffer into level 0 at (7, 3, 2).
        image
            .fill(Texel::Float([-5.0, 0.0, 0.0, 1.0]), [0, 0, 1, 1], [1, 1, 1])
            .unwrap();
        image
            .copy_from([2, 1, 1, 1], &image, [0, 0, 0, 2], [2, 1, 1])
            .unwrap();
        let buffer = runtime::Buffer::new(&ctx, runtime::MemFlags::default(), 8).unwrap();
        image
            .copy_to_buffer([0, 0, 0, 3], [1, 1, 1], &buffer, 4)
            .unwrap();
        image
            .copy_from_buffer(&buffer, 4, [7, 3, 2, 0], [1, 1, 1])
            .unwrap();
        let mut expect1 = level_texels(levels_of(t)[1], |x, y, z| texel3(1, x, y, z));
        // Level 1 is 4×2 per slice/layer: (x, y, z) at z × 8 + y × 4 + x.
        expect1[8] = -5.0;
        expect1[8 + 4 + 2] = texel3(2, 0, 0, 0);
        expect1[8 + 4 + 3] = texel3(2, 1, 0, 0);
        assert_eq!(read_level3(&image, 1), expect1, "{t:?}");
        assert_eq!(
            read_level3(&image, 0)[2 * 32 + 3 * 8 + 7],
            texel3(3, 0, 0, 0)
        );
        // Map a texel of level 1: the level's own pitches (4×4 bytes per row, 2 rows a slice).
        let (ptr, row_pitch, slice_pitch) = image.map([1, 1, 1, 1], [1, 1, 1]).unwrap();
        assert_eq!((row_pitch, slice_pitch), (16, 32));
        // SAFETY: the mapped texel lies in the image, which lives.
        let v = unsafe { std::ptr::read_unaligned(ptr as *const f32) };
        assert_eq!(v, texel3(1, 1, 1, 1));
        // Levels 2 and 3 are untouched.
        for l in [2, 3] {
            let expect = level_texels(levels_of(t)[l], |x, y, z| texel3(l, x, y, z));
            assert_eq!(read_level3(&image, l), expect, "{t:?} level {l}");
        }
    }
    // An image without levels takes no level in origin[3].
    let plain = Image::new(
        &ctx,
        ImageAccess::ReadWrite,
        r_float(),
        shape3d(),
        ImageSource::Zeroed,
    )
    .unwrap();
    let mut one = [0u8; 4];
    assert!(matches!(
        plain.read([0, 0, 0, 1], [1, 1, 1], &mut one, HostPitches::default()),
        Err(Error::InvalidValue(_))
    ));
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

const MIP_KERNELS_3D: &str = r#"
#pragma OPENCL EXTENSION cl_khr_3d_image_writes : enable
__kernel void mips3d(read_only image3d_t src, write_only image3d_t dst) {
    const sampler_t s = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE |
                        CLK_FILTER_NEAREST;
    int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
    int levels = get_image_num_mip_levels(src);
    for (int l = 0; l < levels; l++) {
        int w = max(get_image_width(src) >> l, 1);
        int h = max(get_image_height(src) >> l, 1);
        int d = max(get_image_depth(src) >> l, 1);
        if (x < w && y < h && z < d) {
            float4 c = (float4)((x + 0.5f) / w, (y + 0.5f) / h, (z + 0.5f) / d, 0.0f);
            float v = read_imagef(src, s, c, (float)l).x;
            write_imagef(dst, (int4)(x, y, z, 0), l, (float4)(2.0f * v + 1.0f, 0.0f, 0.0f, 1.0f));
        }
    }
}

__kernel void mips_array(read_only image2d_array_t src, write_only image2d_array_t dst) {
    const sampler_t s = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE |
                        CLK_FILTER_NEAREST;
    int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
    int levels = get_image_num_mip_levels(src);
    for (int l = 0; l < levels; l++) {
        int w = max(get_image_width(src) >> l, 1);
        int h = max(get_image_height(src) >> l, 1);
        if (x < w && y < h) {
            float4 c = (float4)((x + 0.5f) / w, (y + 0.5f) / h, (float)z, 0.0f);
            float v = read_imagef(src, s, c, (float)l).x;
            write_imagef(dst, (int4)(x, y, z, 0), l, (float4)(2.0f * v + 1.0f, 0.0f, 0.0f, 1.0f));
        }
    }
}
"#;

/// The engines a mipmap kernel must give the same answers on.
const ENGINES: [runtime::EngineKind; 2] = [
    runtime::EngineKind::Interpreter,
    runtime::EngineKind::JitStrict,
];

#[test]
fn kernels_read_and_write_levels_of_3d_images_and_2d_arrays() {
    let ctx = context();
    let from_source = Program::from_source(&ctx, MIP_KERNELS_3D, "mips3d.cl");
    if let Err(e) = from_source.build("-cl-std=CL2.0") {
        panic!("clc: {e}");
    }
    run_3d_kernels(&ctx, &from_source);
    let Some(il) = spirv(MIP_KERNELS_3D, "mips3d") else {
        return;
    };
    let program = Program::from_il(&ctx, &il).unwrap();
    program.build("").unwrap();
    run_3d_kernels(&ctx, &program);
}

fn run_3d_kernels(ctx: &Context, program: &Program) {
    for (name, shape) in [("mips3d", shape3d()), ("mips_array", shape2d_array())] {
        for engine in ENGINES {
            let kernel = program.kernel(name).unwrap();
            let src =
                Image::new_mipmapped(ctx, ImageAccess::ReadWrite, r_float(), shape, 4).unwrap();
            fill_levels3(&src);
            let dst =
                Image::new_mipmapped(ctx, ImageAccess::ReadWrite, r_float(), shape, 4).unwrap();
            kernel.set_arg_image(0, &src).unwrap();
            kernel.set_arg_image(1, &dst).unwrap();
            let [w, h, d] = levels_of(shape.image_type)[0];
            Queue::new(ctx)
                .with_engine(engine)
                .nd_range(&kernel, &NdRange::new(&[w, h, d], None, None))
                .unwrap();
            for (l, &size) in levels_of(shape.image_type).iter().enumerate() {
                let expect = level_texels(size, |x, y, z| 2.0 * texel3(l, x, y, z) + 1.0);
                assert_eq!(
                    read_level3(&dst, l),
                    expect,
                    "{name} on {engine:?}, level {l}"
                );
            }
        }
    }
}

const SAMPLE_AT_LODS: &str = r#"
__kernel void at_lods(read_only image2d_t src, sampler_t s, __global const float *lods,
                      __global float *out) {
    int x = get_global_id(0), y = get_global_id(1), k = get_global_id(2);
    float2 c = (float2)((x + 0.5f) / 8.0f, (y + 0.5f) / 4.0f);
    out[(k * 4 + y) * 8 + x] = read_imagef(src, s, c, lods[k]).x;
}
"#;

/// Levels of detail the sampler test reads at (with the level-0 texel centres of an 8×4 image).
const LODS: [f32; 10] = [-1.0, 0.0, 0.25, 0.5, 0.6, 1.0, 1.75, 2.5, 3.0, 6.0];

/// The reference of a mipmapped read with a nearest, clamp-to-edge, normalized sampler at the
/// centre of level-0 texel (x, y) of the 8×4 image of `texel`, from the formulas of the
/// cl_khr_mipmap_image sampler properties (API 5.8.1) and the OpenGL mipmapping rules they
/// come from: lambda' = min(max(lod, lod_min), lod_max); the nearest mip filter takes level 0
/// for lambda' <= 1/2, else ceil(lambda' + 1/2) - 1, at most q = 3; the linear mip filter
/// blends d1 = floor(lambda') and d1 + 1 as (1 - frac) T(d1) + frac T(d1 + 1), level 0 alone
/// for lambda' <= 0 and level q alone for lambda' >= q. In a level of size w × h the nearest
/// texel of normalized u is floor(u w) (env §9.2.1).
fn reference_sample(mip: &runtime::MipSampling, lod: f32, x: usize, y: usize) -> f32 {
    let q = 3usize;
    let mut lambda = lod;
    if lambda < mip.lod_min {
        lambda = mip.lod_min;
    }
    if lambda > mip.lod_max {
        lambda = mip.lod_max;
    }
    let at_level = |l: usize| {
        let (w, h) = LEVELS[l];
        let u = (x as f32 + 0.5) / 8.0;
        let v = (y as f32 + 0.5) / 4.0;
        let i = ((u * w as f32).floor() as usize).min(w - 1);
        let j = ((v * h as f32).floor() as usize).min(h - 1);
        texel(l, i, j)
    };
    match mip.filter {
        runtime::FilterMode::Nearest => {
            let l = if lambda <= 0.5 {
                0
            } else {
                ((lambda + 0.5).ceil() as usize - 1).min(q)
            };
            at_level(l)
        }
        runtime::FilterMode::Linear => {
            if lambda <= 0.0 {
                at_level(0)
            } else if lambda >= q as f32 {
                at_level(q)
            } else {
                let d1 = lambda.floor();
                let f = lambda - d1;
                (1.0 - f) * at_level(d1 as usize) + f * at_level(d1 as usize + 1)
            }
        }
    }
}

#[test]
fn sampler_mip_filter_and_lod_clamps() {
    let ctx = context();
    let program = Program::from_source(&ctx, SAMPLE_AT_LODS, "lods.cl");
    if let Err(e) = program.build("-cl-std=CL2.0") {
        panic!("clc: {e}");
    }
    let src = mipmapped(&ctx);
    fill_levels(&src);
    let lods: Vec<u8> = LODS.iter().flat_map(|v| v.to_le_bytes()).collect();
    let lods = runtime::Buffer::from_slice(&ctx, runtime::MemFlags::default(), &lods).unwrap();
    let mips = [
        runtime::MipSampling::default(),
        runtime::MipSampling {
            filter: runtime::FilterMode::Linear,
            ..runtime::MipSampling::default()
        },
        runtime::MipSampling {
            filter: runtime::FilterMode::Nearest,
            lod_min: 0.75,
            lod_max: 1.9,
        },
        runtime::MipSampling {
            filter: runtime::FilterMode::Linear,
            lod_min: 0.3,
            lod_max: 2.25,
        },
    ];
    for mip in mips {
        let sampler = runtime::Sampler {
            normalized_coords: true,
            addressing: runtime::AddressingMode::ClampToEdge,
            filter: runtime::FilterMode::Nearest,
            mip,
        };
        for engine in ENGINES {
            let kernel = program.kernel("at_lods").unwrap();
            let out = runtime::Buffer::new(&ctx, runtime::MemFlags::default(), 32 * 4 * LODS.len())
                .unwrap();
            kernel.set_arg_image(0, &src).unwrap();
            kernel.set_arg_sampler(1, &sampler).unwrap();
            kernel.set_arg_buffer(2, Some(&lods)).unwrap();
            kernel.set_arg_buffer(3, Some(&out)).unwrap();
            Queue::new(&ctx)
                .with_engine(engine)
                .nd_range(&kernel, &NdRange::new(&[8, 4, LODS.len()], None, None))
                .unwrap();
            let got = floats(&out.to_vec());
            for (k, &lod) in LODS.iter().enumerate() {
                for y in 0..4 {
                    for x in 0..8 {
                        assert_eq!(
                            got[(k * 4 + y) * 8 + x],
                            reference_sample(&mip, lod, x, y),
                            "{mip:?} on {engine:?}, lod {lod}, texel ({x}, {y})"
                        );
                    }
                }
            }
        }
    }
}
