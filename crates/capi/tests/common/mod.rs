//! Helpers shared by the tests that reach oxcl through the ICD loader: where `liboxcl.so` is,
//! a vendors directory for `OCL_ICD_VENDORS`, and tool probes.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// `liboxcl.so` of this build. `cargo test` writes the cdylib into `deps/` beside the test
/// executable (fresh for this build); `cargo build` puts a copy one level up, which may be older.
pub fn liboxcl() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let deps = exe.parent()?;
    [deps.join("liboxcl.so"), deps.parent()?.join("liboxcl.so")]
        .into_iter()
        .find(|p| p.exists())
}

/// A fresh directory holding `oxcl.icd`, for `OCL_ICD_VENDORS`.
pub fn vendors_dir(tag: &str) -> Option<PathBuf> {
    let lib = match liboxcl() {
        Some(lib) => lib,
        None => {
            eprintln!("skipped: liboxcl.so not found beside the test executable");
            return None;
        }
    };
    let dir = std::env::temp_dir().join(format!("oxcl-icd-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).ok()?;
    std::fs::write(dir.join("oxcl.icd"), format!("{}\n", lib.display())).ok()?;
    Some(dir)
}

pub fn have(tool: &str) -> bool {
    Command::new("sh")
        .arg("-c")
        .arg(format!("command -v {tool}"))
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The ICD loader's library (`libOpenCL.so.1`, ocl-icd) is installed.
pub fn loader_runtime_present() -> bool {
    [
        "/usr/lib/x86_64-linux-gnu/libOpenCL.so.1",
        "/usr/lib/libOpenCL.so.1",
        "/usr/lib64/libOpenCL.so.1",
    ]
    .iter()
    .any(|p| Path::new(p).exists())
}

/// A SPIR-V module from clang + llvm-spirv (the line DESIGN.md gives), or `None` when the
/// tools are absent.
pub fn clang_spirv(source: &str, tag: &str) -> Option<PathBuf> {
    if !have("clang-15") || !have("llvm-spirv-15") {
        eprintln!("note: clang-15/llvm-spirv-15 absent, the IL part is skipped");
        return None;
    }
    let dir = std::env::temp_dir().join(format!("oxcl-il-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).ok()?;
    let (cl, bc, spv) = (dir.join("k.cl"), dir.join("k.bc"), dir.join("k.spv"));
    std::fs::write(&cl, source).ok()?;
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
        .status()
        .ok()?;
    let spirv = Command::new("llvm-spirv-15")
        .arg("--spirv-max-version=1.2")
        .arg(&bc)
        .arg("-o")
        .arg(&spv)
        .status()
        .ok()?;
    (clang.success() && spirv.success()).then_some(spv)
}
