//! Shared helpers of the end-to-end tests: OpenCL C → SPIR-V (clang-15 + llvm-spirv-15, the
//! working line of DESIGN.md) → `spv::valid` → `kir::lower` → verified kir.

#![allow(dead_code)]

pub mod pocl;

use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};

pub fn tools_available() -> bool {
    let ok = |tool: &str| {
        Command::new(tool)
            .arg("--version")
            .output()
            .map(|o| o.status.success())
            .unwrap_or(false)
    };
    ok("clang-15") && ok("llvm-spirv-15")
}

static COUNTER: AtomicU32 = AtomicU32::new(0);

/// OpenCL C → validated, lowered kir (64-bit); `None` when the tools are missing.
pub fn build(source: &str) -> Option<kir::Module> {
    build_for(source, "spir64")
}

/// OpenCL C → validated, lowered kir for `target` (`spir` or `spir64`).
pub fn build_for(source: &str, target: &str) -> Option<kir::Module> {
    try_build_for(source, target).map(|r| r.unwrap_or_else(|e| panic!("lowering failed: {e}")))
}

/// Like `build_for`, but a lowering failure is returned (compile and validation failures panic).
pub fn try_build_for(
    source: &str,
    target: &str,
) -> Option<Result<kir::Module, kir::lower::LowerError>> {
    if !tools_available() {
        eprintln!("skipping: clang-15 or llvm-spirv-15 is not installed");
        return None;
    }
    let n = COUNTER.fetch_add(1, Ordering::SeqCst);
    let dir = std::env::temp_dir().join(format!("exec_e2e_{}_{n}", std::process::id()));
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
        .expect("run clang-15");
    assert!(
        clang.status.success(),
        "clang-15: {}",
        String::from_utf8_lossy(&clang.stderr)
    );
    let tr = Command::new("llvm-spirv-15")
        .arg("--spirv-max-version=1.2")
        .arg(&bc)
        .arg("-o")
        .arg(&spv_path)
        .output()
        .expect("run llvm-spirv-15");
    assert!(
        tr.status.success(),
        "llvm-spirv-15: {}",
        String::from_utf8_lossy(&tr.stderr)
    );
    let bytes = std::fs::read(&spv_path).expect("read spv");
    let _ = std::fs::remove_dir_all(&dir);
    let module = spv::read_bytes(&bytes).expect("readable SPIR-V");
    let address_bits = if target == "spir" { 32 } else { 64 };
    let env = spv::valid::Env::opencl(
        spv::valid::ClVersion::Cl20,
        spv::valid::Profile::Full,
        address_bits,
    )
    .with_extension("cl_khr_fp64")
    .with_extension("cl_khr_int64_base_atomics")
    .with_extension("cl_khr_int64_extended_atomics");
    let valid =
        spv::valid::validate(module, &env).unwrap_or_else(|e| panic!("validation failed: {e:?}"));
    let lowered = match kir::lower::lower(&valid) {
        Ok(m) => m,
        Err(e) => return Some(Err(e)),
    };
    if let Err(e) = kir::verify_module(&lowered) {
        panic!("lowered module fails the verifier: {e}\n{lowered}");
    }
    // The text format reads back what it prints, on real lowered modules.
    let text = lowered.to_string();
    let reparsed = kir::parse_module(&text).unwrap_or_else(|e| panic!("reparse: {e}\n{text}"));
    assert_eq!(reparsed.to_string(), text);
    Some(Ok(lowered))
}
