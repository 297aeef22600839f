//! `oxcl run` with PNG image arguments: a kernel inverts a PNG (`--arg image:in.png`, `--arg
//! image:WxH:rgba8`, `--out 1=out.png`). The kernel is compiled by clang-15 + llvm-spirv-15
//! (skipped with a message when absent); the expected pixels are computed here.
//!
//! Needs the engines' image instructions (the execution side of issue 6); passes once merged.

use std::path::{Path, PathBuf};
use std::process::Command;

fn have(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

fn temp_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("oxcl-cli-images-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn compile(dir: &Path, source: &str) -> Option<PathBuf> {
    if !have("clang-15") || !have("llvm-spirv-15") {
        eprintln!("skipped: needs clang-15 and llvm-spirv-15");
        return None;
    }
    let cl = dir.join("invert.cl");
    let bc = dir.join("invert.bc");
    let spv = dir.join("invert.spv");
    std::fs::write(&cl, source).unwrap();
    let ok = Command::new("clang-15")
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
        .status()
        .unwrap()
        .success()
        && Command::new("llvm-spirv-15")
            .arg("--spirv-max-version=1.2")
            .arg(&bc)
            .arg("-o")
            .arg(&spv)
            .status()
            .unwrap()
            .success();
    assert!(ok, "clang/llvm-spirv failed");
    Some(spv)
}

const INVERT: &str = r#"
__kernel void invert(read_only image2d_t src, write_only image2d_t dst) {
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    float4 v = read_imagef(src, p);
    write_imagef(dst, p, (float4)(1.0f - v.x, 1.0f - v.y, 1.0f - v.z, v.w));
}
"#;

#[test]
fn oxcl_run_inverts_a_png() {
    let dir = temp_dir();
    let Some(spv) = compile(&dir, INVERT) else {
        return;
    };
    let (w, h) = (6u32, 4u32);
    let pixels: Vec<u8> = (0..w * h * 4).map(|i| (i * 13 % 256) as u8).collect();
    let input = dir.join("in.png");
    {
        let file = std::fs::File::create(&input).unwrap();
        let mut encoder = png::Encoder::new(file, w, h);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        encoder
            .write_header()
            .unwrap()
            .write_image_data(&pixels)
            .unwrap();
    }
    let output = dir.join("out.png");
    let out = Command::new(env!("CARGO_BIN_EXE_oxcl"))
        .env("OXCL_IMAGE_SUPPORT", "1")
        .arg("run")
        .arg(&spv)
        .args(["--kernel", "invert", "--global", "6,4"])
        .arg(format!("--arg=image:{}", input.display()))
        .arg("--arg=image:6x4:rgba8")
        .arg(format!("--out=1={}", output.display()))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let mut reader = png::Decoder::new(std::fs::File::open(&output).unwrap())
        .read_info()
        .unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!((info.width, info.height), (w, h));
    assert_eq!(info.color_type, png::ColorType::Rgba);
    let expect: Vec<u8> = pixels
        .chunks(4)
        .flat_map(|p| [255 - p[0], 255 - p[1], 255 - p[2], p[3]])
        .collect();
    assert_eq!(&buf[..info.buffer_size()], &expect[..]);
    let _ = std::fs::remove_dir_all(&dir);
}
