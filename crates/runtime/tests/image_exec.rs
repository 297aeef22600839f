//! Image kernels end to end: OpenCL C compiled by oxcl's `clc` and by clang-15 + llvm-spirv-15
//! (skipped with a message when absent), validated, lowered, run on the interpreter and on the
//! JIT (strict: no fallback) with image memory built here from an `ImageDesc`. Both engines must
//! give identical bytes; expected values come from a reference of env chapter 9 written in this
//! file (addressing, filtering, conversions), and from the `CL_*` constants of the API headers.

use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};

use devlib::image::{ChannelOrder, ChannelType, ImageFormat};
use devlib::image_desc::{ImageDesc, ImageType};
use exec::{ArgValue, Engine, Interpreter, Jit, Launch, NdRange};

// ---------------------------------------------------------------- compilation

fn env(address_bits: u32) -> spv::valid::Env {
    use spv::valid::feature;
    spv::valid::Env::opencl(
        spv::valid::ClVersion::Cl20,
        spv::valid::Profile::Full,
        address_bits,
    )
    .with_feature(feature::IMAGES)
    .with_feature(feature::READ_WRITE_IMAGES)
    .with_feature(feature::IMAGE_3D_WRITES)
    .with_extension("cl_khr_3d_image_writes")
    .with_extension("cl_khr_depth_images")
    .with_extension("cl_khr_mipmap_image")
    .with_extension("cl_khr_mipmap_image_writes")
}

fn lower(bytes: &[u8], who: &str) -> kir::Module {
    lower_for(bytes, who, 64)
}

fn lower_for(bytes: &[u8], who: &str, address_bits: u32) -> kir::Module {
    let module = spv::read_bytes(bytes).expect("readable SPIR-V");
    let valid = spv::valid::validate(module, &env(address_bits))
        .unwrap_or_else(|e| panic!("{who}: validation failed: {e:?}"));
    let m = kir::lower::lower(&valid).unwrap_or_else(|e| panic!("{who}: lowering failed: {e}"));
    let text = m.to_string();
    let reparsed = kir::parse_module(&text).unwrap_or_else(|e| panic!("reparse: {e}\n{text}"));
    assert_eq!(reparsed.to_string(), text);
    m
}

fn by_clc(source: &str) -> kir::Module {
    let target = clc::pp::Target {
        image_support: true,
        extensions: vec![
            "cl_khr_3d_image_writes".into(),
            "cl_khr_depth_images".into(),
            "cl_khr_fp16".into(),
        ],
        ..clc::pp::Target::default()
    };
    let options = clc::options::BuildOptions::parse("-cl-std=CL2.0").expect("options");
    let compiled = clc::compile(source, "k.cl", &options, &target)
        .unwrap_or_else(|e| panic!("clc failed: {}", e.log));
    let words = compiled.module.to_words();
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    lower(&bytes, "clc")
}

static COUNTER: AtomicU32 = AtomicU32::new(0);

fn by_clang(source: &str) -> Option<kir::Module> {
    by_clang_for(source, "spir64")
}

/// clang-15 + llvm-spirv-15 for `target` (`spir` or `spir64`).
fn by_clang_for(source: &str, target: &str) -> Option<kir::Module> {
    let ok = |tool: &str| {
        Command::new(tool)
            .arg("--version")
            .output()
            .map(|o| o.status.success())
            .unwrap_or(false)
    };
    if !(ok("clang-15") && ok("llvm-spirv-15")) {
        eprintln!("skipping the clang half: clang-15 or llvm-spirv-15 is not installed");
        return None;
    }
    let n = COUNTER.fetch_add(1, Ordering::SeqCst);
    let dir = std::env::temp_dir().join(format!("image_exec_{}_{n}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let (cl, bc, spv_path) = (dir.join("k.cl"), dir.join("k.bc"), dir.join("k.spv"));
    std::fs::write(&cl, source).expect("write source");
    let clang = Command::new("clang-15")
        .args([
            "-c",
            "-target",
            target,
            "-cl-std=CL2.0",
            "-O0",
            "-emit-llvm",
            "-o",
        ])
        .arg(&bc)
        .arg(&cl)
        .output()
        .expect("clang-15");
    assert!(
        clang.status.success(),
        "{}",
        String::from_utf8_lossy(&clang.stderr)
    );
    let tr = Command::new("llvm-spirv-15")
        .arg("--spirv-max-version=1.2")
        .arg(&bc)
        .arg("-o")
        .arg(&spv_path)
        .output()
        .expect("llvm-spirv-15");
    assert!(
        tr.status.success(),
        "{}",
        String::from_utf8_lossy(&tr.stderr)
    );
    let bytes = std::fs::read(&spv_path).expect("spv");
    let _ = std::fs::remove_dir_all(&dir);
    let bits = if target == "spir" { 32 } else { 64 };
    Some(lower_for(&bytes, "clang", bits))
}

/// The kernel compiled by each available compiler.
fn modules(source: &str) -> Vec<(&'static str, kir::Module)> {
    let mut out = vec![("clc", by_clc(source))];
    if let Some(m) = by_clang(source) {
        out.push(("clang", m));
    }
    out
}

// ---------------------------------------------------------------- running

/// One argument: its bytes (buffers and images are copied per engine).
#[derive(Clone)]
enum Arg {
    Buf(Vec<u8>),
    Img(Vec<u8>, ImageDesc),
    Bytes(Vec<u8>),
}

/// Runs `kernel` on both engines with fresh copies of `args`; asserts identical memory after
/// the run and returns it (one entry per argument: buffer or image bytes, empty otherwise).
fn run_both(module: &kir::Module, kernel: &str, args: &[Arg], global: [u64; 2]) -> Vec<Vec<u8>> {
    let (index, _) = module.kernel(kernel).expect("kernel");
    let interp = Interpreter::new();
    let jit = Jit::strict();
    let engines: [&dyn Engine; 2] = [&interp, &jit];
    let mut results = Vec::new();
    for engine in engines {
        let mut mem: Vec<Vec<u8>> = args
            .iter()
            .map(|a| match a {
                Arg::Buf(b) | Arg::Img(b, _) => b.clone(),
                Arg::Bytes(_) => Vec::new(),
            })
            .collect();
        let values: Vec<ArgValue> = args
            .iter()
            .zip(mem.iter_mut())
            .map(|(a, m)| match a {
                Arg::Buf(_) => ArgValue::Buffer {
                    ptr: m.as_mut_ptr(),
                    len: m.len(),
                },
                Arg::Img(_, desc) => ArgValue::Image {
                    ptr: m.as_mut_ptr(),
                    len: m.len(),
                    desc: *desc,
                },
                Arg::Bytes(b) => ArgValue::Bytes(b.clone()),
            })
            .collect();
        let nd = NdRange {
            work_dim: 2,
            global_offset: [0; 3],
            global_size: [global[0], global[1], 1],
            local_size: [1, 1, 1],
        };
        engine
            .run(&Launch {
                module,
                kernel: index,
                args: &values,
                nd,
                threads: 1,
            })
            .unwrap_or_else(|e| panic!("{}: {e}\n{module}", engine.name()));
        results.push(mem);
    }
    assert_eq!(results[0], results[1], "interpreter and JIT differ");
    results.swap_remove(0)
}

fn floats(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn float_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn fmt(o: ChannelOrder, t: ChannelType) -> ImageFormat {
    ImageFormat::new(o, t).expect("format")
}

// ---------------------------------------------------------------- the chapter 9 reference

/// Addressing modes as `CLK_ADDRESS_*` values.
const NONE: u32 = 0;
const CLAMP_TO_EDGE: u32 = 2;
const CLAMP: u32 = 4;
const REPEAT: u32 = 6;
const MIRRORED_REPEAT: u32 = 8;
const NORMALIZED: u32 = 1;
const NEAREST: u32 = 0x10;
const LINEAR: u32 = 0x20;

/// env §9.2 along one axis: the texel index for nearest filtering (`None`: border color).
fn ref_nearest(s: f32, w: i64, sampler: u32) -> Option<i64> {
    let norm = sampler & 1 != 0;
    let wf = w as f32;
    match sampler & 0xe {
        REPEAT => {
            let u = (s - s.floor()) * wf;
            let mut i = u.floor() as i64;
            if i > w - 1 {
                i -= w;
            }
            Some(i)
        }
        MIRRORED_REPEAT => {
            let s2 = 2.0 * (0.5 * s).round_ties_even();
            let s2 = (s - s2).abs();
            let u = s2 * wf;
            Some((u.floor() as i64).min(w - 1))
        }
        mode => {
            let u = if norm { s * wf } else { s };
            let i = u.floor() as i64;
            let i = if mode == CLAMP_TO_EDGE {
                i.clamp(0, w - 1)
            } else {
                i
            };
            (0..w).contains(&i).then_some(i)
        }
    }
}

/// env §9.2 linear filtering along one axis: (i0, i1, a).
fn ref_linear(s: f32, w: i64, sampler: u32) -> (Option<i64>, Option<i64>, f32) {
    let norm = sampler & 1 != 0;
    let wf = w as f32;
    let frac = |x: f32| x - x.floor();
    let inside = |i: i64| (0..w).contains(&i).then_some(i);
    match sampler & 0xe {
        REPEAT => {
            let u = (s - s.floor()) * wf;
            let mut i0 = (u - 0.5).floor() as i64;
            let mut i1 = i0 + 1;
            if i0 < 0 {
                i0 += w;
            }
            if i1 > w - 1 {
                i1 -= w;
            }
            (inside(i0), inside(i1), frac(u - 0.5))
        }
        MIRRORED_REPEAT => {
            let s2 = 2.0 * (0.5 * s).round_ties_even();
            let u = (s - s2).abs() * wf;
            let i0 = (u - 0.5).floor() as i64;
            let i1 = i0 + 1;
            (inside(i0.max(0)), inside(i1.min(w - 1)), frac(u - 0.5))
        }
        mode => {
            let u = if norm { s * wf } else { s };
            let i0 = (u - 0.5).floor() as i64;
            let clamp = |i: i64| {
                if mode == CLAMP_TO_EDGE {
                    i.clamp(0, w - 1)
                } else {
                    i
                }
            };
            (inside(clamp(i0)), inside(clamp(i0 + 1)), frac(u - 0.5))
        }
    }
}

/// A 2D RGBA float image in a test: texel (i, j).
struct RefImage {
    w: i64,
    h: i64,
    texels: Vec<[f32; 4]>,
}

impl RefImage {
    fn at(&self, i: Option<i64>, j: Option<i64>) -> [f32; 4] {
        match (i, j) {
            // RGBA border color: (0, 0, 0, 0) (OpenCL C 6.13.14.1).
            (Some(i), Some(j)) => self.texels[(j * self.w + i) as usize],
            _ => [0.0; 4],
        }
    }

    fn sample(&self, s: f32, t: f32, sampler: u32) -> [f32; 4] {
        if sampler & LINEAR != 0 {
            let (i0, i1, a) = ref_linear(s, self.w, sampler);
            let (j0, j1, b) = ref_linear(t, self.h, sampler);
            let (t00, t10, t01, t11) = (
                self.at(i0, j0),
                self.at(i1, j0),
                self.at(i0, j1),
                self.at(i1, j1),
            );
            std::array::from_fn(|c| {
                (1.0 - a) * (1.0 - b) * t00[c]
                    + a * (1.0 - b) * t10[c]
                    + (1.0 - a) * b * t01[c]
                    + a * b * t11[c]
            })
        } else {
            self.at(
                ref_nearest(s, self.w, sampler),
                ref_nearest(t, self.h, sampler),
            )
        }
    }
}

// ---------------------------------------------------------------- tests

const SAMPLE_2D: &str = "
kernel void sample2d(read_only image2d_t img, sampler_t s, global const float2 *coords,
                     global float4 *out) {
    size_t i = get_global_id(0);
    out[i] = read_imagef(img, s, coords[i]);
}";

#[test]
fn sampled_reads_every_addressing_mode_and_filter() {
    let (w, h) = (5i64, 3i64);
    let reference = RefImage {
        w,
        h,
        texels: (0..w * h)
            .map(|k| {
                let (i, j) = ((k % w) as f32, (k / w) as f32);
                [i, j, i * j + 0.5, 10.0 * i + j]
            })
            .collect(),
    };
    let desc = ImageDesc::packed(
        ImageType::Image2D,
        fmt(ChannelOrder::RGBA, ChannelType::Float),
        w as usize,
        h as usize,
        1,
        1,
    );
    let image: Vec<u8> = reference
        .texels
        .iter()
        .flat_map(|t| float_bytes(t))
        .collect();
    // Coordinates inside, on texel edges and centres, and outside on every side.
    let unnorm: Vec<[f32; 2]> = vec![
        [0.5, 0.5],
        [2.25, 1.75],
        [4.9, 2.99],
        [-0.7, 1.2],
        [5.3, -0.2],
        [1.0, 3.6],
        [0.0, 0.0],
        [3.5, 2.5],
        [-3.2, 7.9],
    ];
    let coords_for = |norm: bool| -> Vec<[f32; 2]> {
        if norm {
            unnorm
                .iter()
                .map(|c| [c[0] / w as f32, c[1] / h as f32])
                .chain([[1.3, -0.45], [-1.7, 2.2], [0.999, 0.001]])
                .collect()
        } else {
            unnorm.clone()
        }
    };
    let mut checked = 0;
    for (who, m) in modules(SAMPLE_2D) {
        for norm in [false, true] {
            let modes: &[u32] = if norm {
                &[NONE, CLAMP_TO_EDGE, CLAMP, REPEAT, MIRRORED_REPEAT]
            } else {
                // Repeat modes need normalized coordinates (OpenCL C 6.13.14.1).
                &[NONE, CLAMP_TO_EDGE, CLAMP]
            };
            for &mode in modes {
                for filter in [NEAREST, LINEAR] {
                    let sampler = mode | filter | if norm { NORMALIZED } else { 0 };
                    let coords = coords_for(norm);
                    let n = coords.len();
                    let cbytes: Vec<u8> = coords.iter().flat_map(|c| float_bytes(c)).collect();
                    let out = run_both(
                        &m,
                        "sample2d",
                        &[
                            Arg::Img(image.clone(), desc),
                            Arg::Bytes(sampler.to_le_bytes().to_vec()),
                            Arg::Buf(cbytes),
                            Arg::Buf(vec![0; 16 * n]),
                        ],
                        [n as u64, 1],
                    );
                    let got = floats(&out[3]);
                    for (k, c) in coords.iter().enumerate() {
                        // CL_ADDRESS_NONE outside the image is undefined: not compared.
                        let outside = |x: f32, size: i64| {
                            let u = if norm { x * size as f32 } else { x };
                            let margin = if filter == LINEAR { 0.5 } else { 0.0 };
                            u < margin || u >= size as f32 - margin
                        };
                        if mode == NONE && (outside(c[0], w) || outside(c[1], h)) {
                            continue;
                        }
                        let want = reference.sample(c[0], c[1], sampler);
                        for ch in 0..4 {
                            let g = got[4 * k + ch];
                            let tol = if filter == LINEAR { 1e-4 } else { 0.0 };
                            assert!(
                                (g - want[ch]).abs() <= tol,
                                "{who} sampler {sampler:#x} coord {c:?} channel {ch}: got {g}, want {}",
                                want[ch]
                            );
                        }
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 100, "only {checked} reads compared");
}

const INT_RW: &str = "
kernel void copy_int(read_only image2d_t src, write_only image2d_t dst,
                     read_only image2d_t usrc, write_only image2d_t udst) {
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    int4 v = read_imagei(src, p);
    write_imagei(dst, p, v * 2 - 1);
    const sampler_t s = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
    uint4 u = read_imageui(usrc, s, p + (int2)(1, 0));
    write_imageui(udst, p, u + (uint4)(250, 0, 70000, 1));
}";

#[test]
fn integer_reads_and_writes_saturate() {
    let (w, h) = (4usize, 2usize);
    let si16 = fmt(ChannelOrder::RGBA, ChannelType::SignedInt16);
    let u8f = fmt(ChannelOrder::RGBA, ChannelType::UnsignedInt8);
    let d16 = ImageDesc::packed(ImageType::Image2D, si16, w, h, 1, 1);
    let d8 = ImageDesc::packed(ImageType::Image2D, u8f, w, h, 1, 1);
    let src: Vec<i16> = (0..w * h * 4).map(|k| (k as i16 - 10) * 1500).collect();
    let src_bytes: Vec<u8> = src.iter().flat_map(|v| v.to_le_bytes()).collect();
    let usrc: Vec<u8> = (0..w * h * 4).map(|k| (k * 9) as u8).collect();
    for (who, m) in modules(INT_RW) {
        let out = run_both(
            &m,
            "copy_int",
            &[
                Arg::Img(src_bytes.clone(), d16),
                Arg::Img(vec![0; d16.byte_len()], d16),
                Arg::Img(usrc.clone(), d8),
                Arg::Img(vec![0; d8.byte_len()], d8),
            ],
            [w as u64, h as u64],
        );
        // write_imagei to a 16-bit channel saturates (env §9.4.4).
        let dst: Vec<i16> = out[1]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        for k in 0..src.len() {
            let want = (i32::from(src[k]) * 2 - 1).clamp(-32768, 32767) as i16;
            assert_eq!(dst[k], want, "{who} signed channel {k}");
        }
        // read_imageui with clamp-to-edge one texel to the right, + (250, 0, 70000, 1), saturated.
        for y in 0..h {
            for x in 0..w {
                let sx = (x + 1).min(w - 1);
                for c in 0..4 {
                    let v = u32::from(usrc[(y * w + sx) * 4 + c]) + [250, 0, 70000, 1][c];
                    assert_eq!(
                        u32::from(out[3][(y * w + x) * 4 + c]),
                        v.min(255),
                        "{who} unsigned ({x}, {y}) channel {c}"
                    );
                }
            }
        }
    }
}

const WRITE_UNORM: &str = "
kernel void store(write_only image2d_t img, global const float4 *v) {
    int i = get_global_id(0);
    write_imagef(img, (int2)(i, 0), v[i]);
    write_imagef(img, (int2)(i + 100, 0), v[i]);
    write_imagef(img, (int2)(-1, 0), v[i]);
}";

#[test]
fn write_imagef_rounds_to_nearest_even_and_ignores_outside() {
    let desc = ImageDesc::packed(
        ImageType::Image2D,
        fmt(ChannelOrder::BGRA, ChannelType::UnormInt8),
        3,
        1,
        1,
        1,
    );
    let values: [[f32; 4]; 3] = [
        [0.5 / 255.0 * 1.0, 1.5 / 255.0, 2.5 / 255.0, 1.0],
        [-0.3, 1.7, 0.5, 0.25],
        [127.5 / 255.0, 0.0, 200.0 / 255.0, 3.0],
    ];
    let vbytes: Vec<u8> = values.iter().flat_map(|v| float_bytes(v)).collect();
    for (who, m) in modules(WRITE_UNORM) {
        let out = run_both(
            &m,
            "store",
            &[
                Arg::Img(vec![0xAA; desc.byte_len()], desc),
                Arg::Buf(vbytes.clone()),
            ],
            [3, 1],
        );
        for (i, v) in values.iter().enumerate() {
            // env §9.4.1: round_to_nearest_even(clamp(255 x, 0, 255)); BGRA stores B, G, R, A.
            let conv = |x: f32| (f64::from(x) * 255.0).clamp(0.0, 255.0).round_ties_even() as u8;
            let want = [conv(v[2]), conv(v[1]), conv(v[0]), conv(v[3])];
            assert_eq!(&out[0][4 * i..4 * i + 4], &want, "{who} texel {i}");
        }
    }
}

const QUERIES: &str = "
kernel void q(read_only image1d_t a, read_only image2d_t b, read_only image3d_t c,
              read_only image1d_array_t d, read_only image2d_array_t e, global int *out) {
    out[0] = get_image_width(a);
    out[1] = get_image_width(b);
    out[2] = get_image_height(b);
    int4 dim = get_image_dim(c);
    out[3] = dim.x; out[4] = dim.y; out[5] = dim.z; out[6] = dim.w;
    out[7] = get_image_depth(c);
    out[8] = get_image_array_size(d);
    out[9] = get_image_array_size(e);
    int2 ed = get_image_dim(e);
    out[10] = ed.x; out[11] = ed.y;
    out[12] = get_image_channel_order(a);
    out[13] = get_image_channel_data_type(a);
    out[14] = get_image_channel_order(b);
    out[15] = get_image_channel_data_type(b);
    out[16] = get_image_channel_order(c);
    out[17] = get_image_channel_data_type(c);
    out[18] = get_image_width(d);
}";

#[test]
fn image_queries_return_sizes_and_cl_constants() {
    let a = ImageDesc::packed(
        ImageType::Image1D,
        fmt(ChannelOrder::R, ChannelType::SnormInt16),
        7,
        1,
        1,
        1,
    );
    let b = ImageDesc::packed(
        ImageType::Image2D,
        fmt(ChannelOrder::BGRA, ChannelType::UnormInt8),
        6,
        4,
        1,
        1,
    );
    let c = ImageDesc::packed(
        ImageType::Image3D,
        fmt(ChannelOrder::RG, ChannelType::HalfFloat),
        3,
        2,
        5,
        1,
    );
    let d = ImageDesc::packed(
        ImageType::Image1DArray,
        fmt(ChannelOrder::RGBA, ChannelType::Float),
        2,
        1,
        1,
        9,
    );
    let e = ImageDesc::packed(
        ImageType::Image2DArray,
        fmt(ChannelOrder::RGBA, ChannelType::Float),
        4,
        3,
        1,
        2,
    );
    let mut all = modules(QUERIES);
    if let Some(m) = by_clang_for(QUERIES, "spir") {
        all.push(("clang spir (32-bit)", m));
    }
    for (who, m) in all {
        let out = run_both(
            &m,
            "q",
            &[
                Arg::Img(vec![0; a.byte_len()], a),
                Arg::Img(vec![0; b.byte_len()], b),
                Arg::Img(vec![0; c.byte_len()], c),
                Arg::Img(vec![0; d.byte_len()], d),
                Arg::Img(vec![0; e.byte_len()], e),
                Arg::Buf(vec![0; 4 * 19]),
            ],
            [1, 1],
        );
        // cl.h: CL_R 0x10B0, CL_RG 0x10B2, CL_BGRA 0x10B6; CL_SNORM_INT16 0x10D1,
        // CL_UNORM_INT8 0x10D2, CL_HALF_FLOAT 0x10DD.
        let want: [u32; 19] = [
            7, 6, 4, 3, 2, 5, 0, 5, 9, 2, 4, 3, 0x10B0, 0x10D1, 0x10B6, 0x10D2, 0x10B2, 0x10DD, 2,
        ];
        assert_eq!(words(&out[5]), want, "{who}");
    }
}

const ARRAYS_3D: &str = "
const sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
kernel void layers(read_only image2d_array_t arr, read_only image1d_array_t arr1,
                   read_only image3d_t vol, global const float4 *coords, global float4 *out) {
    int i = get_global_id(0);
    float4 c = coords[i];
    out[3 * i] = read_imagef(arr, nearest, c);
    out[3 * i + 1] = read_imagef(arr1, nearest, c.xy);
    const sampler_t lin = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP | CLK_FILTER_LINEAR;
    out[3 * i + 2] = read_imagef(vol, lin, c);
}";

#[test]
fn array_layers_and_3d_linear() {
    let f = fmt(ChannelOrder::R, ChannelType::Float);
    // 2D array 2x2 with 3 layers: texel (i, j, l) = 100 l + 10 j + i.
    let arr = ImageDesc::packed(ImageType::Image2DArray, f, 2, 2, 1, 3);
    let arr_bytes: Vec<u8> = (0..12)
        .flat_map(|k| ((100 * (k / 4) + 10 * ((k / 2) % 2) + k % 2) as f32).to_le_bytes())
        .collect();
    // 1D array 3 wide with 2 layers: texel (i, l) = 10 l + i.
    let arr1 = ImageDesc::packed(ImageType::Image1DArray, f, 3, 1, 1, 2);
    let arr1_bytes = float_bytes(&[0.0, 1.0, 2.0, 10.0, 11.0, 12.0]);
    // 3D 2x2x2: texel (i, j, k) = i + 2 j + 4 k.
    let vol = ImageDesc::packed(ImageType::Image3D, f, 2, 2, 2, 1);
    let vol_bytes = float_bytes(&[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]);
    let coords: [[f32; 4]; 4] = [
        [0.5, 1.5, 1.5, 0.0],   // layer rint(1.5) = 2
        [1.9, 0.2, 2.5, 0.0],   // layer rint(2.5) = 2
        [0.1, 0.7, -4.0, 0.0],  // layer clamped to 0
        [0.25, 0.5, 0.75, 0.0], // 3D: u = 0.5, v = 1, w = 1.5
    ];
    let cbytes: Vec<u8> = coords.iter().flat_map(|c| float_bytes(c)).collect();
    for (who, m) in modules(ARRAYS_3D) {
        let out = run_both(
            &m,
            "layers",
            &[
                Arg::Img(arr_bytes.clone(), arr),
                Arg::Img(arr1_bytes.clone(), arr1),
                Arg::Img(vol_bytes.clone(), vol),
                Arg::Buf(cbytes.clone()),
                Arg::Buf(vec![0; 16 * 3 * coords.len()]),
            ],
            [coords.len() as u64, 1],
        );
        let got = floats(&out[4]);
        let r = |k: usize, which: usize| got[4 * (3 * k + which)];
        // env §9.5: layer = clamp(rint(w), 0, d - 1); nearest clamp-to-edge in the layer.
        assert_eq!(r(0, 0), 200.0 + 10.0, "{who}");
        assert_eq!(r(1, 0), 200.0 + 1.0, "{who}");
        assert_eq!(r(2, 0), 0.0, "{who}");
        // 1D array: the layer is coord.y: rint(1.5) = 2 → clamped to 1; rint(0.2) = 0; 0.7 → 1.
        assert_eq!(r(0, 1), 10.0, "{who}");
        assert_eq!(r(1, 1), 1.0, "{who}");
        assert_eq!(r(2, 1), 10.0, "{who}");
        // 3D linear, clamp, coords (0.25, 0.5, 0.75) × 2 = (0.5, 1, 1.5): a = 0, b = .5, c = 0,
        // i0 = 0, j0 = 0, j1 = 1, k0 = 1: T = .5 T(0,0,1) + .5 T(0,1,1) = .5 × 4 + .5 × 6 = 5.
        assert_eq!(r(3, 2), 5.0, "{who}");
    }
}

const READ_WRITE: &str = "
kernel void bump(read_write image3d_t v, sampler_t unused) {
    int4 p = (int4)(get_global_id(0), get_global_id(1), 1, 0);
    float4 t = read_imagef(v, p);
    write_imagef(v, p, t + (float4)(0.25f, 0.5f, 0.0f, 0.0f));
}";

#[test]
fn read_write_3d_image() {
    let desc = ImageDesc::packed(
        ImageType::Image3D,
        fmt(ChannelOrder::RG, ChannelType::Float),
        2,
        2,
        2,
        1,
    );
    let init: Vec<f32> = (0..16).map(|k| k as f32).collect();
    for (who, m) in modules(READ_WRITE) {
        let out = run_both(
            &m,
            "bump",
            &[
                Arg::Img(float_bytes(&init), desc),
                Arg::Bytes(0x10u32.to_le_bytes().to_vec()),
            ],
            [2, 2],
        );
        let got = floats(&out[0]);
        for k in 0..16 {
            // Slice 1 holds elements 4..8 (floats 8..16): R + 0.25, G + 0.5.
            let bump = if k >= 8 { [0.25, 0.5][k % 2] } else { 0.0 };
            assert_eq!(got[k], init[k] + bump, "{who} float {k}");
        }
    }
}

#[test]
fn mismatched_or_short_images_are_errors() {
    let m = by_clc(SAMPLE_2D);
    let (index, _) = m.kernel("sample2d").expect("kernel");
    let f = fmt(ChannelOrder::RGBA, ChannelType::Float);
    let good = ImageDesc::packed(ImageType::Image2D, f, 2, 2, 1, 1);
    let three_d = ImageDesc::packed(ImageType::Image3D, f, 2, 2, 2, 1);
    let mut mem = vec![0u8; three_d.byte_len()];
    let mut out = vec![0u8; 16];
    let mut coords = vec![0u8; 8];
    let cases = [
        (three_d, mem.len()),
        (good, good.byte_len() - 1),
        (
            ImageDesc {
                row_pitch: 4,
                ..good
            },
            mem.len(),
        ),
    ];
    for (desc, len) in cases {
        let args = [
            ArgValue::Image {
                ptr: mem.as_mut_ptr(),
                len,
                desc,
            },
            ArgValue::Bytes(vec![0x10, 0, 0, 0]),
            ArgValue::Buffer {
                ptr: coords.as_mut_ptr(),
                len: 8,
            },
            ArgValue::Buffer {
                ptr: out.as_mut_ptr(),
                len: 16,
            },
        ];
        for engine in [&Interpreter::new() as &dyn Engine, &Jit::strict()] {
            let r = engine.run(&Launch {
                module: &m,
                kernel: index,
                args: &args,
                nd: NdRange::new_1d(1, 1),
                threads: 1,
            });
            match r {
                Err(exec::ExecError::BadArgument { index: 0, .. }) => {}
                other => panic!("{desc:?} len {len}: {other:?}"),
            }
        }
    }
}

// ---------------------------------------------------------------- PoCL, texel by texel

const POCL_SCRIPT: &str = r#"
import json, sys
import numpy as np
import pyopencl as cl
spec = json.load(open(sys.argv[1]))
ctx = cl.Context([d for p in cl.get_platforms() for d in p.get_devices()
                  if 'pthread' in d.name or 'cpu' in d.name.lower()][:1])
q = cl.CommandQueue(ctx)
prg = cl.Program(ctx, spec['source']).build()
modes = {0: cl.addressing_mode.NONE, 2: cl.addressing_mode.CLAMP_TO_EDGE,
         4: cl.addressing_mode.CLAMP, 6: cl.addressing_mode.REPEAT,
         8: cl.addressing_mode.MIRRORED_REPEAT}
for c in spec['cases']:
    fmt = cl.ImageFormat(getattr(cl.channel_order, c['order']), getattr(cl.channel_type, c['type']))
    raw = np.fromfile(c['image'], dtype=np.uint8)
    img = cl.Image(ctx, cl.mem_flags.READ_ONLY | cl.mem_flags.COPY_HOST_PTR, fmt,
                   shape=(c['w'], c['h']), hostbuf=raw)
    coords = np.fromfile(c['coords'], dtype=np.float32)
    n = len(coords) // 2
    cb = cl.Buffer(ctx, cl.mem_flags.READ_ONLY | cl.mem_flags.COPY_HOST_PTR, hostbuf=coords)
    ob = cl.Buffer(ctx, cl.mem_flags.WRITE_ONLY, 16 * n)
    s = c['sampler']
    smp = cl.Sampler(ctx, bool(s & 1), modes[s & 0xe],
                     cl.filter_mode.LINEAR if s & 0x20 else cl.filter_mode.NEAREST)
    prg.sample2d(q, (n,), None, img, smp, cb, ob)
    out = np.empty(4 * n, dtype=np.float32)
    cl.enqueue_copy(q, out, ob)
    out.tofile(c['out'])
"#;

fn pocl_usable() -> bool {
    Command::new("/usr/bin/python3")
        .args([
            "-c",
            "import pyopencl as cl; assert any(d.image_support for p in cl.get_platforms() for d in p.get_devices())",
        ])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

#[test]
fn sampled_reads_match_pocl_texel_by_texel() {
    if !pocl_usable() {
        eprintln!("skipping: /usr/bin/python3 with pyopencl and an image-capable OpenCL device (PoCL) is not available");
        return;
    }
    let dir = std::env::temp_dir().join(format!("image_pocl_{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let (w, h) = (6usize, 4usize);
    // A deterministic pattern; unorm bytes and floats in [0, 4).
    let unorm: Vec<u8> = (0..w * h * 4)
        .map(|k| ((k * 37 + 11) % 256) as u8)
        .collect();
    let float: Vec<u8> = (0..w * h * 4)
        .flat_map(|k| (((k * 29 + 5) % 64) as f32 / 16.0).to_le_bytes())
        .collect();
    let formats = [
        ("RGBA", "UNORM_INT8", ChannelType::UnormInt8, unorm),
        ("RGBA", "FLOAT", ChannelType::Float, float),
    ];
    let mut coords: Vec<[f32; 2]> = Vec::new();
    for k in 0..40 {
        let x = (k as f32 * 0.731).rem_euclid(1.0) * 8.0 - 1.0;
        let y = (k as f32 * 0.377 + 0.1).rem_euclid(1.0) * 6.0 - 1.0;
        coords.push([x, y]);
    }
    let mut cases = Vec::new();
    let mut ours = Vec::new();
    let m = by_clc(SAMPLE_2D);
    for (fi, (order, ty, ct, bytes)) in formats.iter().enumerate() {
        let desc = ImageDesc::packed(ImageType::Image2D, fmt(ChannelOrder::RGBA, *ct), w, h, 1, 1);
        let image_path = dir.join(format!("img{fi}.bin"));
        std::fs::write(&image_path, bytes).expect("write image");
        for norm in [false, true] {
            let modes: &[u32] = if norm {
                &[CLAMP_TO_EDGE, CLAMP, REPEAT, MIRRORED_REPEAT]
            } else {
                &[CLAMP_TO_EDGE, CLAMP]
            };
            for &mode in modes {
                for filter in [NEAREST, LINEAR] {
                    let sampler = mode | filter | if norm { NORMALIZED } else { 0 };
                    let cs: Vec<[f32; 2]> = coords
                        .iter()
                        .map(|c| {
                            if norm {
                                [c[0] / w as f32, c[1] / h as f32]
                            } else {
                                *c
                            }
                        })
                        .collect();
                    let cbytes: Vec<u8> = cs.iter().flat_map(|c| float_bytes(c)).collect();
                    let k = cases.len();
                    let coords_path = dir.join(format!("coords{k}.bin"));
                    std::fs::write(&coords_path, &cbytes).expect("write coords");
                    let out = run_both(
                        &m,
                        "sample2d",
                        &[
                            Arg::Img(bytes.clone(), desc),
                            Arg::Bytes(sampler.to_le_bytes().to_vec()),
                            Arg::Buf(cbytes),
                            Arg::Buf(vec![0; 16 * cs.len()]),
                        ],
                        [cs.len() as u64, 1],
                    );
                    ours.push((
                        format!("{ty} sampler {sampler:#x}"),
                        cs.clone(),
                        floats(&out[3]),
                    ));
                    cases.push(format!(
                        r#"{{"order": "{order}", "type": "{ty}", "w": {w}, "h": {h}, "image": {:?}, "coords": {:?}, "sampler": {sampler}, "out": {:?}}}"#,
                        image_path.to_string_lossy(),
                        coords_path.to_string_lossy(),
                        dir.join(format!("out{k}.bin")).to_string_lossy(),
                    ));
                }
            }
        }
    }
    let spec = format!(
        r#"{{"source": {:?}, "cases": [{}]}}"#,
        SAMPLE_2D,
        cases.join(", ")
    );
    let spec_path = dir.join("spec.json");
    std::fs::write(&spec_path, spec).expect("write spec");
    let script_path = dir.join("pocl.py");
    std::fs::write(&script_path, POCL_SCRIPT).expect("write script");
    let run = Command::new("/usr/bin/python3")
        .arg(&script_path)
        .arg(&spec_path)
        .output()
        .expect("python3");
    assert!(
        run.status.success(),
        "PoCL script failed: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    for (k, (what, cs, got)) in ours.iter().enumerate() {
        let pocl = floats(&std::fs::read(dir.join(format!("out{k}.bin"))).expect("PoCL output"));
        for (i, c) in cs.iter().enumerate() {
            for ch in 0..4 {
                let (a, b) = (got[4 * i + ch], pocl[4 * i + ch]);
                // Nearest is exact; linear within the chapter's filtering tolerance (§9.3 lets
                // the weights be computed with reduced precision: 1/256 of the texel range).
                // Normalized reads convert within 1.5 ulp (env §9.4.1): 1.2e-7 covers [0, 1].
                let linear = what.contains("sampler 0x2");
                let tol = if linear {
                    4.0 / 256.0
                } else if what.starts_with("UNORM") {
                    1.2e-7
                } else {
                    0.0
                };
                assert!(
                    (a - b).abs() <= tol,
                    "{what} coord {c:?} channel {ch}: oxcl {a}, PoCL {b}"
                );
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

const MISC: &str = "
float fetch(read_only image2d_depth_t d, sampler_t s, float2 c) { return read_imagef(d, s, c); }
kernel void misc(read_only image2d_depth_t d, read_only image1d_buffer_t b, read_only image1d_t h,
                 write_only image2d_depth_t dw, global float *out) {
    const sampler_t s = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
    out[0] = fetch(d, s, (float2)(1.5f, 0.5f));
    out[1] = read_imagef(d, (int2)(0, 1));
    float4 t = read_imagef(b, 2);
    out[2] = t.x;
    out[3] = t.w;
    out[4] = get_image_width(b);
    float4 hv = read_imagef(h, s, 1.5f);
    out[5] = hv.y;
    out[6] = hv.w;
    out[7] = get_image_channel_order(d);
    write_imagef(dw, (int2)(1, 0), 0.75f);
}";

#[test]
fn depth_buffer_and_half_images_through_a_helper_function() {
    let depth_f = fmt(ChannelOrder::Depth, ChannelType::Float);
    let d = ImageDesc::packed(ImageType::Image2D, depth_f, 2, 2, 1, 1);
    let b = ImageDesc::packed(
        ImageType::Image1DBuffer,
        fmt(ChannelOrder::R, ChannelType::Float),
        4,
        1,
        1,
        1,
    );
    let h = ImageDesc::packed(
        ImageType::Image1D,
        fmt(ChannelOrder::RG, ChannelType::HalfFloat),
        3,
        1,
        1,
        1,
    );
    let half_bytes: Vec<u8> = [1.0f32, 0.5, 2.0, 0.25, 3.0, 0.125]
        .iter()
        .flat_map(|&x| half::f16::from_f32(x).to_bits().to_le_bytes())
        .collect();
    let dw = ImageDesc::packed(
        ImageType::Image2D,
        fmt(ChannelOrder::Depth, ChannelType::UnormInt16),
        2,
        1,
        1,
        1,
    );
    for (who, m) in modules(MISC) {
        let out = run_both(
            &m,
            "misc",
            &[
                Arg::Img(float_bytes(&[0.1, 0.2, 0.3, 0.4]), d),
                Arg::Img(float_bytes(&[5.0, 6.0, 7.0, 8.0]), b),
                Arg::Img(half_bytes.clone(), h),
                Arg::Img(vec![0; 4], dw),
                Arg::Buf(vec![0; 32]),
            ],
            [1, 1],
        );
        let got = floats(&out[4]);
        // Depth reads return the one channel; R images read (r, 0, 0, 1) (env §9.6 Table 9);
        // the RG half image at 1.5 reads texel 1, alpha 1; CL_DEPTH is 0x10BD.
        assert_eq!(
            got,
            [0.2, 0.3, 7.0, 1.0, 4.0, 0.25, 1.0, 0x10BD as f32],
            "{who}"
        );
        // 0.75 × 65535 = 49151.25 → 49151 (round to nearest even, env §9.4.1).
        assert_eq!(&out[3], &[0, 0, 0xff, 0xbf], "{who}");
    }
}

const MIPMAPS: &str = "
kernel void mip(read_only image2d_t img, write_only image2d_t w, global float *out) {
    const sampler_t s = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
    out[0] = read_imagef(img, s, (float2)(0.5f, 0.5f), 1.0f).x;
    out[1] = read_imagef(img, s, (float2)(0.5f, 0.5f), 0.25f).x;
    out[2] = read_imagef(img, s, (float2)(0.5f, 0.5f), 7.0f).x;
    out[3] = get_image_num_mip_levels(img);
    write_imagef(w, (int2)(1, 0), 1, (float4)(0.5f));
}";

/// cl_khr_mipmap_image(_writes), with clang's built-ins (clc does not declare the mipmap
/// overloads yet).
#[test]
fn mip_levels_with_explicit_lod() {
    let Some(m) = by_clang(MIPMAPS) else {
        return;
    };
    let f = fmt(ChannelOrder::R, ChannelType::Float);
    let mut img = ImageDesc::packed(ImageType::Image2D, f, 4, 4, 1, 1);
    img.mip_levels = 3; // 4x4 of 1.0, 2x2 of 2.0, 1x1 of 3.0
    let levels: Vec<f32> = [1.0f32; 16]
        .into_iter()
        .chain([2.0; 4])
        .chain([3.0])
        .collect();
    let mut w = ImageDesc::packed(ImageType::Image2D, f, 4, 4, 1, 1);
    w.mip_levels = 2; // level 1 (2x2) starts at byte 64
    let out = run_both(
        &m,
        "mip",
        &[
            Arg::Img(float_bytes(&levels), img),
            Arg::Img(vec![0; w.byte_len()], w),
            Arg::Buf(vec![0; 16]),
        ],
        [1, 1],
    );
    // Nearest mip selection: lod 1 → level 1, lod 0.25 → level 0, lod 7 → the last level.
    assert_eq!(floats(&out[2]), [2.0, 1.0, 3.0, 3.0]);
    let written = floats(&out[1]);
    assert_eq!(written[16 + 1], 0.5);
    assert_eq!(written.iter().filter(|&&x| x != 0.0).count(), 1);
}

const SRGB_AND_BORDERS: &str = "
kernel void srgb(read_only image1d_t s, read_only image2d_t r, write_only image1d_t ws,
                 global float4 *out) {
    const sampler_t lin = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_LINEAR;
    out[0] = read_imagef(s, 0);
    out[1] = read_imagef(s, lin, 1.0f);
    out[2] = read_imagef(s, lin, -0.25f);
    out[3] = read_imagef(r, (int2)(-1, 0));
    out[4] = read_imagef(r, (int2)(0, 5));
    write_imagef(ws, 0, (float4)(0.5f, 0.0f, 1.0f, 0.5f));
}";

/// sRGB (env §9.4.5: converted to linear before filtering, back on writes) and the border
/// color (OpenCL C 6.13.14.1) of clamped and out-of-range sampler-less reads.
#[test]
fn srgb_conversions_and_border_colors() {
    let srgba = fmt(ChannelOrder::SRGBA, ChannelType::UnormInt8);
    let s = ImageDesc::packed(ImageType::Image1D, srgba, 2, 1, 1, 1);
    let r = ImageDesc::packed(
        ImageType::Image2D,
        fmt(ChannelOrder::R, ChannelType::Float),
        1,
        1,
        1,
        1,
    );
    // The sRGB → linear formula of env §9.4.5, in f64.
    let to_linear = |c: u8| {
        let x = f64::from(c) / 255.0;
        (if x <= 0.04045 {
            x / 12.92
        } else {
            ((x + 0.055) / 1.055).powf(2.4)
        }) as f32
    };
    let to_srgb = |y: f64| {
        let x = if y < 0.0031308 {
            12.92 * y
        } else {
            1.055 * y.powf(1.0 / 2.4) - 0.055
        };
        (x * 255.0).round_ties_even() as u8
    };
    let texels = [10u8, 100, 200, 51, 255, 0, 128, 255];
    for (who, m) in modules(SRGB_AND_BORDERS) {
        let out = run_both(
            &m,
            "srgb",
            &[
                Arg::Img(texels.to_vec(), s),
                Arg::Img(float_bytes(&[9.0]), r),
                Arg::Img(vec![0; 8], s),
                Arg::Buf(vec![0; 16 * 5]),
            ],
            [1, 1],
        );
        let got = floats(&out[3]);
        let t0 = [to_linear(10), to_linear(100), to_linear(200), 51.0 / 255.0];
        let t1 = [to_linear(255), to_linear(0), to_linear(128), 1.0];
        let close = |a: f32, b: f32| (a - b).abs() <= 1e-6;
        for c in 0..4 {
            assert!(
                close(got[c], t0[c]),
                "{who} texel 0 channel {c}: {}",
                got[c]
            );
            // Linear at u = 1.0: halfway between texels 0 and 1, after conversion to linear.
            let mid = 0.5 * t0[c] + 0.5 * t1[c];
            assert!(
                close(got[4 + c], mid),
                "{who} mid channel {c}: {}",
                got[4 + c]
            );
            // u = -0.25: i0 = -1 (border, transparent black for sRGBA), i1 = 0, a = 0.25.
            assert!(close(got[8 + c], 0.25 * t0[c]), "{who} edge channel {c}");
        }
        // CL_R border color: (0, 0, 0, 1).
        assert_eq!(
            &got[12..20],
            &[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0],
            "{who}"
        );
        assert_eq!(
            &out[2][..4],
            &[to_srgb(0.5), 0, 255, 128],
            "{who} sRGB write (alpha stays linear: 0.5 × 255 = 127.5 → 128)"
        );
    }
}

const ROUND_TRIP: &str = "
kernel void rd(read_only image2d_t img, int w, global float4 *out) {
    int i = get_global_id(0);
    out[i] = read_imagef(img, (int2)(i % w, i / w));
}
kernel void wr(write_only image2d_t img, int w, global const float4 *v) {
    int i = get_global_id(0);
    write_imagef(img, (int2)(i % w, i / w), v[i]);
}";

const POCL_ROUND_TRIP: &str = r#"
import json, sys
import numpy as np
import pyopencl as cl
spec = json.load(open(sys.argv[1]))
ctx = cl.Context([d for p in cl.get_platforms() for d in p.get_devices()
                  if 'pthread' in d.name or 'cpu' in d.name.lower()][:1])
q = cl.CommandQueue(ctx)
prg = cl.Program(ctx, spec['source']).build()
mf = cl.mem_flags
for c in spec['cases']:
    fmt = cl.ImageFormat(getattr(cl.channel_order, c['order']), getattr(cl.channel_type, c['type']))
    w, h = c['w'], c['h']
    raw = np.fromfile(c['image'], dtype=np.uint8)
    try:
        img = cl.Image(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, fmt, shape=(w, h), hostbuf=raw)
        out_img = cl.Image(ctx, mf.WRITE_ONLY, fmt, shape=(w, h))
    except cl.Error:
        continue
    n = w * h
    ob = cl.Buffer(ctx, mf.WRITE_ONLY, 16 * n)
    prg.rd(q, (n,), None, img, np.int32(w), ob)
    out = np.empty(4 * n, dtype=np.float32)
    cl.enqueue_copy(q, out, ob)
    out.tofile(c['read'])
    vals = np.fromfile(c['values'], dtype=np.float32)
    vb = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=vals)
    prg.wr(q, (n,), None, out_img, np.int32(w), vb)
    back = np.empty(len(raw), dtype=np.uint8)
    cl.enqueue_copy(q, back, out_img, origin=(0, 0), region=(w, h))
    back.tofile(c['written'])
"#;

/// Reads and writes of every float-read format PoCL supports, compared with PoCL: reads within
/// 1.5 ulp (env §9.4.1), writes within one unit of the channel (PoCL may round differently
/// from round-to-nearest-even, which env §9.4.1 allows within 0.6).
#[test]
fn format_round_trips_match_pocl() {
    if !pocl_usable() {
        eprintln!("skipping: /usr/bin/python3 with pyopencl and an image-capable OpenCL device (PoCL) is not available");
        return;
    }
    use ChannelOrder as O;
    use ChannelType as T;
    let formats = [
        ("RGBA", "UNORM_INT8", O::RGBA, T::UnormInt8),
        ("RGBA", "UNORM_INT16", O::RGBA, T::UnormInt16),
        ("RGBA", "SNORM_INT8", O::RGBA, T::SnormInt8),
        ("RGBA", "SNORM_INT16", O::RGBA, T::SnormInt16),
        ("RGBA", "HALF_FLOAT", O::RGBA, T::HalfFloat),
        ("RGBA", "FLOAT", O::RGBA, T::Float),
        ("BGRA", "UNORM_INT8", O::BGRA, T::UnormInt8),
        ("R", "UNORM_INT8", O::R, T::UnormInt8),
        ("RG", "SNORM_INT16", O::RG, T::SnormInt16),
        ("A", "UNORM_INT16", O::A, T::UnormInt16),
        ("RA", "HALF_FLOAT", O::RA, T::HalfFloat),
        ("INTENSITY", "UNORM_INT8", O::Intensity, T::UnormInt8),
        ("LUMINANCE", "FLOAT", O::Luminance, T::Float),
        ("RGB", "UNORM_SHORT_565", O::RGB, T::UnormShort565),
        ("RGB", "UNORM_SHORT_555", O::RGB, T::UnormShort555),
        ("RGB", "UNORM_INT_101010", O::RGB, T::UnormInt101010),
    ];
    let dir = std::env::temp_dir().join(format!("image_pocl_rt_{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let (w, h) = (8usize, 4usize);
    let n = w * h;
    let m = by_clc(ROUND_TRIP);
    let mut cases = Vec::new();
    let mut ours = Vec::new();
    for (k, (order, ty, o, t)) in formats.iter().enumerate() {
        let format = fmt(*o, *t);
        let desc = ImageDesc::packed(ImageType::Image2D, format, w, h, 1, 1);
        let es = format.element_size();
        // Image bytes: a pattern; float channels get finite values in [-2, 2).
        let mut raw: Vec<u8> = (0..n * es)
            .map(|b| ((b * 73 + 29 + k) % 256) as u8)
            .collect();
        if *t == T::Float {
            raw = (0..n * es / 4)
                .flat_map(|i| (((i * 37 + k) % 64) as f32 / 16.0 - 2.0).to_le_bytes())
                .collect();
        }
        if *t == T::HalfFloat {
            raw = (0..n * es / 2)
                .flat_map(|i| {
                    half::f16::from_f32(((i * 41 + k) % 64) as f32 / 16.0 - 2.0)
                        .to_bits()
                        .to_le_bytes()
                })
                .collect();
        }
        // Values written: from -1.2 to 1.2 in uneven steps.
        let values: Vec<f32> = (0..4 * n)
            .map(|i| ((i * 53 + 7 * k) % 97) as f32 / 40.0 - 1.2)
            .collect();
        let vbytes = float_bytes(&values);
        let read = run_both(
            &m,
            "rd",
            &[
                Arg::Img(raw.clone(), desc),
                Arg::Bytes((w as i32).to_le_bytes().to_vec()),
                Arg::Buf(vec![0; 16 * n]),
            ],
            [n as u64, 1],
        );
        let written = run_both(
            &m,
            "wr",
            &[
                Arg::Img(vec![0; raw.len()], desc),
                Arg::Bytes((w as i32).to_le_bytes().to_vec()),
                Arg::Buf(vbytes.clone()),
            ],
            [n as u64, 1],
        );
        let path = |what: &str| dir.join(format!("{what}{k}.bin"));
        std::fs::write(path("image"), &raw).expect("write");
        std::fs::write(path("values"), &vbytes).expect("write");
        cases.push(format!(
            r#"{{"order": "{order}", "type": "{ty}", "w": {w}, "h": {h}, "image": {:?}, "values": {:?}, "read": {:?}, "written": {:?}}}"#,
            path("image").to_string_lossy(),
            path("values").to_string_lossy(),
            path("read").to_string_lossy(),
            path("written").to_string_lossy(),
        ));
        ours.push((
            format!("{order} {ty}"),
            format,
            floats(&read[2]),
            written[0].clone(),
        ));
    }
    let spec = format!(
        r#"{{"source": {:?}, "cases": [{}]}}"#,
        ROUND_TRIP,
        cases.join(", ")
    );
    std::fs::write(dir.join("spec.json"), spec).expect("spec");
    std::fs::write(dir.join("pocl.py"), POCL_ROUND_TRIP).expect("script");
    let run = Command::new("/usr/bin/python3")
        .arg(dir.join("pocl.py"))
        .arg(dir.join("spec.json"))
        .output()
        .expect("python3");
    assert!(
        run.status.success(),
        "PoCL script failed: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    let mut compared = 0;
    for (k, (what, format, got, written)) in ours.iter().enumerate() {
        let Ok(pocl_read) = std::fs::read(dir.join(format!("read{k}.bin"))) else {
            eprintln!("PoCL does not support {what}: not compared");
            continue;
        };
        let pocl_read = floats(&pocl_read);
        for (i, (&a, &b)) in got.iter().zip(&pocl_read).enumerate() {
            let ulp = f32::EPSILON * a.abs().max(f32::MIN_POSITIVE);
            assert!(
                (a - b).abs() <= 1.5 * ulp,
                "{what}: read lane {i}: oxcl {a}, PoCL {b}"
            );
        }
        // Writes: decode both with the format's read conversion and compare within one unit.
        let pocl_written = std::fs::read(dir.join(format!("written{k}.bin"))).expect("written");
        let unit = match format.channel_type() {
            T::UnormInt8 => 1.0 / 255.0,
            T::SnormInt8 => 1.0 / 127.0,
            T::UnormInt16 => 1.0 / 65535.0,
            T::SnormInt16 => 1.0 / 32767.0,
            T::UnormShort555 | T::UnormShort565 => 1.0 / 31.0,
            T::UnormInt101010 => 1.0 / 1023.0,
            _ => 0.0,
        } * 1.0001;
        let es = format.element_size();
        for (e, (x, y)) in written
            .chunks_exact(es)
            .zip(pocl_written.chunks_exact(es))
            .enumerate()
        {
            let dx = devlib::image::read_texel(format, x).expect("decode");
            let dy = devlib::image::read_texel(format, y).expect("decode");
            let (devlib::image::Texel::Float(fx), devlib::image::Texel::Float(fy)) = (dx, dy)
            else {
                panic!("float formats only");
            };
            for c in 0..4 {
                assert!(
                    (fx[c] - fy[c]).abs() <= unit,
                    "{what}: written element {e} channel {c}: oxcl {x:?} PoCL {y:?}"
                );
            }
        }
        compared += 1;
    }
    assert!(compared >= 6, "only {compared} formats compared with PoCL");
    let _ = std::fs::remove_dir_all(&dir);
}

const HALVES: &str = "
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void h(read_only image2d_t img, write_only image2d_t o, global half4 *out) {
    half4 t = read_imageh(img, (int2)(1, 0));
    out[0] = t;
    write_imageh(o, (int2)(0, 0), t * (half)2);
}";

/// `read_imageh` / `write_imageh` (cl_khr_fp16): the float texel rounded to half (nearest
/// even), and halves written as floats.
#[test]
fn half_reads_and_writes() {
    let f = fmt(ChannelOrder::RGBA, ChannelType::UnormInt16);
    let d = ImageDesc::packed(ImageType::Image2D, f, 2, 1, 1, 1);
    // Texel 1 = (1, 21845, 65535, 0) / 65535.
    let image: Vec<u8> = [0u16, 0, 0, 0, 1, 21845, 65535, 0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    for (who, m) in modules(HALVES) {
        let out = run_both(
            &m,
            "h",
            &[
                Arg::Img(image.clone(), d),
                Arg::Img(vec![0; 16], d),
                Arg::Buf(vec![0; 8]),
            ],
            [1, 1],
        );
        let got: Vec<half::f16> = out[2]
            .chunks_exact(2)
            .map(|c| half::f16::from_bits(u16::from_le_bytes([c[0], c[1]])))
            .collect();
        let want: Vec<half::f16> = [1.0 / 65535.0, 21845.0 / 65535.0, 1.0, 0.0]
            .iter()
            .map(|&x: &f64| half::f16::from_f64(x))
            .collect();
        assert_eq!(got, want, "{who}");
        // Written: 2 t saturated, as unorm16: round(65535 × min(2 t, 1)).
        let written: Vec<u16> = out[1][..8]
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect();
        let expect: Vec<u16> = want
            .iter()
            .map(|h| {
                let x = (2.0 * h.to_f64()).min(1.0);
                (x * 65535.0).round_ties_even() as u16
            })
            .collect();
        assert_eq!(written, expect, "{who}");
    }
}
