//! Helpers shared by the `valid_*` tests: assembling SPIR-V text with `spirv-as`, running
//! `spirv-val`, and validating with oxcl. Tools that are absent make the caller skip.

#![allow(dead_code)]

use spv::valid::{validate, Env, ValidModule, ValidationErrors};
use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

static COUNTER: AtomicUsize = AtomicUsize::new(0);

/// A fresh scratch path under the target directory.
pub fn scratch(ext: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("oxcl-valid-tests-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let n = COUNTER.fetch_add(1, Ordering::SeqCst);
    dir.join(format!("m{n}.{ext}"))
}

/// Whether a tool runs (`tool --version`).
pub fn have(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

/// Assembles SPIR-V text for SPIR-V `version` ("1.0", "1.2"…) with `spirv-as`, or with oxcl's
/// own assembler (`spv::asm`) when spirv-as is absent or `OXCL_TEST_OWN_ASSEMBLER` is set.
/// Panics if the text does not assemble (a test bug). Returns an Option so callers can skip.
pub fn assemble(text: &str, version: &str) -> Option<Vec<u8>> {
    if std::env::var_os("OXCL_TEST_OWN_ASSEMBLER").is_some() || !have("spirv-as") {
        let mut module =
            spv::asm::assemble(text).unwrap_or_else(|e| panic!("spv::asm failed: {e}\n{text}"));
        let (major, minor) = version.split_once('.').expect("version like 1.0");
        module.header.version = (major.parse().unwrap(), minor.parse().unwrap());
        return Some(module.to_bytes());
    }
    let src = scratch("spvasm");
    let out = scratch("spv");
    std::fs::write(&src, text).unwrap();
    let o = Command::new("spirv-as")
        .arg("--target-env")
        .arg(format!("spv{version}"))
        .arg("-o")
        .arg(&out)
        .arg(&src)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "spirv-as failed: {}\n{text}",
        String::from_utf8_lossy(&o.stderr)
    );
    Some(std::fs::read(&out).unwrap())
}

/// `spirv-val --target-env env` verdict on a binary; None when spirv-val is absent.
pub fn spirv_val(binary: &[u8], env: &str) -> Option<(bool, String)> {
    if !have("spirv-val") {
        eprintln!("skipped: spirv-val is not installed");
        return None;
    }
    let path = scratch("spv");
    std::fs::write(&path, binary).unwrap();
    let o = Command::new("spirv-val")
        .arg("--target-env")
        .arg(env)
        .arg(&path)
        .output()
        .unwrap();
    Some((
        o.status.success(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    ))
}

/// oxcl's verdict on a binary.
pub fn oxcl_val(binary: &[u8], env: &Env) -> Result<ValidModule, ValidationErrors> {
    let module = spv::read_bytes(binary).expect("the binary reads");
    validate(module, env)
}

/// Assembles and validates; None when spirv-as is absent.
pub fn check_text(
    text: &str,
    version: &str,
    env: &Env,
) -> Option<Result<ValidModule, ValidationErrors>> {
    let binary = assemble(text, version)?;
    Some(oxcl_val(&binary, env))
}

/// A kernel module: `caps` (capability names), `globals` (types, constants, variables) and the
/// body of the kernel `%main` after its entry label (must end with a terminator). The module
/// declares `%void`, `%fn_void`, `%uint`, `%ulong`, `%uint_0`…`%uint_2`, `%ulong_0`.
pub fn kernel(caps: &[&str], globals: &str, body: &str) -> String {
    let mut s = String::new();
    for c in ["Addresses", "Kernel", "Int64"].iter().chain(caps) {
        s.push_str(&format!("OpCapability {c}\n"));
    }
    s.push_str(
        "%ocl = OpExtInstImport \"OpenCL.std\"\n\
         OpMemoryModel Physical64 OpenCL\n\
         OpEntryPoint Kernel %main \"main\"\n",
    );
    s.push_str(&module_rest(globals, body));
    s
}

/// Everything after OpEntryPoint for [`kernel`] (annotations go in `globals` before `;types`).
pub fn module_rest(globals: &str, body: &str) -> String {
    let (annotations, types) = match globals.split_once(";types") {
        Some((a, t)) => (a, t),
        None => ("", globals),
    };
    format!(
        "{annotations}\n\
         %void = OpTypeVoid\n\
         %fn_void = OpTypeFunction %void\n\
         %uint = OpTypeInt 32 0\n\
         %ulong = OpTypeInt 64 0\n\
         %uint_0 = OpConstant %uint 0\n\
         %uint_1 = OpConstant %uint 1\n\
         %uint_2 = OpConstant %uint 2\n\
         %ulong_0 = OpConstant %ulong 0\n\
         {types}\n\
         %main = OpFunction %void None %fn_void\n\
         %entry = OpLabel\n\
         {body}\n\
         OpFunctionEnd\n"
    )
}

/// Asserts that validation failed with an error whose rule contains `rule`.
#[track_caller]
pub fn expect_rule(result: Result<ValidModule, ValidationErrors>, rule: &str) {
    match result {
        Ok(_) => panic!("expected an error citing {rule:?}, the module validated"),
        Err(e) => assert!(
            e.has_rule(rule),
            "expected an error citing {rule:?}, got:\n{e}"
        ),
    }
}

/// Asserts that validation succeeded.
#[track_caller]
pub fn expect_ok(result: Result<ValidModule, ValidationErrors>) {
    if let Err(e) = result {
        panic!("expected the module to validate, got:\n{e}");
    }
}
