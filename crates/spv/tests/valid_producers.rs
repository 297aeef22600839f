//! Modules that real producers emit and `spirv-val --target-env opencl2.2` accepts (checked by
//! hand when the files were written, and again here when spirv-val is installed): oxcl must
//! accept them too.

use std::path::Path;
use std::process::Command;

use spv::valid::{validate, Env};

fn check(name: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/valid_producers")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    let module = spv::asm::assemble(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    if let Err(errors) = validate(module.clone(), &Env::from_target_env("opencl2.2").unwrap()) {
        panic!("{name}: {errors}");
    }
    let have_val = Command::new("spirv-val")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !have_val {
        eprintln!("{name}: spirv-val not installed: agreement not re-checked");
        return;
    }
    let spv = std::env::temp_dir().join(format!(
        "oxcl-valid-producers-{}-{name}.spv",
        std::process::id()
    ));
    std::fs::write(&spv, module.to_bytes()).unwrap();
    let out = Command::new("spirv-val")
        .args(["--target-env", "opencl2.2"])
        .arg(&spv)
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&spv);
    assert!(
        out.status.success(),
        "spirv-val rejects {name}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// OpSwitch case literals are 64-bit when the selector is (SPIR-V 3.42.17).
#[test]
fn switch_on_a_64_bit_selector() {
    check("switch64.spvasm");
}

/// llvm-spirv writes program-scope pointer initializers as OpSpecConstantOp (SPIR-V 3.42.7).
#[test]
fn spec_constant_op_with_operands() {
    check("spec_constant_op.spvasm");
}
