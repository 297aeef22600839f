//! Pipe storage (SPIR-V 1.1, capability *PipeStorage*): where the environment admits the
//! capability (env 3.1 and 3.0 "Required Capabilities": OpenCL 2.2 devices; other devices that
//! list it in `Env::capabilities`), where the instructions may appear (in a block, as spirv-val
//! requires: the verdicts agree), and the operand rules of SPIR-V 3.42.23 that oxcl checks and
//! spirv-val 2023.1 does not (its OpenCL environments accept all of these modules).

#[path = "valid/common.rs"]
mod common;

use common::{check_text, expect_rule, kernel, spirv_val};
use spv::valid::Env;
use spv::Capability;

const TYPES: &str =
    "%ps = OpTypePipeStorage\n%rpipe = OpTypePipe ReadOnly\n%wpipe = OpTypePipe WriteOnly";
const CAPS: &[&str] = &["Pipes", "PipeStorage"];

fn env(name: &str) -> Env {
    Env::from_target_env(name).expect("env")
}

fn body(stmts: &str) -> String {
    format!("{stmts}\nOpReturn")
}

const GOOD: &str = "%s = OpConstantPipeStorage %ps 8 4 16\n\
                    %w = OpCreatePipeFromPipeStorage %wpipe %s\n\
                    %r = OpCreatePipeFromPipeStorage %rpipe %s";

#[test]
fn a_pipe_storage_in_a_block_is_valid_as_for_spirv_val() {
    let text = kernel(CAPS, TYPES, &body(GOOD));
    let Some(binary) = common::assemble(&text, "1.1") else {
        return;
    };
    let ours = common::oxcl_val(&binary, &env("opencl2.2"));
    assert!(ours.is_ok(), "{:?}", ours.err());
    if let Some((theirs, log)) = spirv_val(&binary, "opencl2.2") {
        assert!(theirs, "spirv-val: {log}");
    }
}

#[test]
fn a_pipe_storage_at_module_scope_is_invalid_as_for_spirv_val() {
    // OpConstantPipeStorage is a Pipe instruction, not a Constant-Creation one: spirv-val says
    // "ConstantPipeStorage must appear in a block".
    let globals = format!("{TYPES}\n%s = OpConstantPipeStorage %ps 4 4 8");
    let text = kernel(
        CAPS,
        &globals,
        &body("%w = OpCreatePipeFromPipeStorage %wpipe %s"),
    );
    let Some(binary) = common::assemble(&text, "1.1") else {
        return;
    };
    let ours = common::oxcl_val(&binary, &env("opencl2.2"));
    expect_rule(ours, "SPIR-V 2.4");
    if let Some((theirs, log)) = spirv_val(&binary, "opencl2.2") {
        assert!(!theirs, "spirv-val accepted it");
        assert!(log.contains("must appear in a block"), "{log}");
    }
}

#[test]
fn the_capability_follows_the_environment() {
    let text = kernel(CAPS, TYPES, &body(GOOD));
    for name in ["opencl1.2", "opencl2.0", "opencl2.1", "opencl3.0"] {
        let Some(result) = check_text(&text, "1.1", &env(name)) else {
            return;
        };
        // 1.2 to 2.1 accept SPIR-V 1.0 only; a 3.0 device without pipe storage.
        match result {
            Ok(_) => panic!("{name} accepted pipe storage"),
            Err(e) if name == "opencl3.0" => {
                assert!(
                    e.has_rule("capabilities an OpenCL environment supports"),
                    "{e}"
                )
            }
            Err(_) => {}
        }
    }
    // A 3.0 device listing the capability (oxcl's: `runtime::Device::validation_env`).
    let device = env("opencl3.0").with_capability(Capability::PipeStorage);
    let result = check_text(&text, "1.1", &device).expect("assembled above");
    assert!(result.is_ok(), "{:?}", result.err());
    // PipeStorage and its instructions exist from SPIR-V 1.1.
    let result = check_text(&text, "1.0", &env("opencl2.2")).expect("assembled above");
    assert!(result.is_err(), "a SPIR-V 1.0 module used pipe storage");
}

#[test]
fn the_capability_must_be_declared() {
    // SPIR-V 2.16.1: OpTypePipeStorage and the two instructions need PipeStorage.
    let text = kernel(&["Pipes"], TYPES, &body(GOOD));
    if let Some(result) = check_text(&text, "1.1", &env("opencl2.2")) {
        expect_rule(result, "capabilities used must be declared");
    }
}

/// Asserts oxcl rejects the body (after `TYPES`) for OpenCL 2.2 citing `rule`.
#[track_caller]
fn rejected(stmts: &str, rule: &str) {
    let globals = format!("{TYPES}\n%float = OpTypeFloat 32");
    let text = kernel(CAPS, &globals, &body(stmts));
    if let Some(result) = check_text(&text, "1.1", &env("opencl2.2")) {
        expect_rule(result, rule);
    }
}

#[test]
fn constant_pipe_storage_operands() {
    // SPIR-V 3.42.23: Result Type must be OpTypePipeStorage.
    rejected(
        "%s = OpConstantPipeStorage %uint 4 4 8",
        "Result Type must be OpTypePipeStorage",
    );
    // 1 <= Packet Alignment <= Packet Size; Packet Alignment evenly divides Packet Size.
    let packet = "1 <= Packet Alignment <= Packet Size";
    rejected("%s = OpConstantPipeStorage %ps 4 0 8", packet);
    rejected("%s = OpConstantPipeStorage %ps 4 8 8", packet);
    rejected("%s = OpConstantPipeStorage %ps 0 1 8", packet);
    rejected("%s = OpConstantPipeStorage %ps 12 8 8", packet);
    // The edge cases that are valid: alignment equal to the size, alignment 1, capacity 0
    // (the minimum number of packets the storage holds).
    for ok in [
        "%s = OpConstantPipeStorage %ps 4 4 1",
        "%s = OpConstantPipeStorage %ps 12 1 3",
        "%s = OpConstantPipeStorage %ps 16 8 0",
    ] {
        let text = kernel(CAPS, TYPES, &body(ok));
        if let Some(result) = check_text(&text, "1.1", &env("opencl2.2")) {
            assert!(result.is_ok(), "{ok}: {:?}", result.err());
        }
    }
}

#[test]
fn create_pipe_from_pipe_storage_operands() {
    // SPIR-V 3.42.23: Result Type must be OpTypePipe.
    rejected(
        "%s = OpConstantPipeStorage %ps 4 4 8\n%p = OpCreatePipeFromPipeStorage %uint %s",
        "Result Type must be OpTypePipe",
    );
    rejected(
        "%s = OpConstantPipeStorage %ps 4 4 8\n%p = OpCreatePipeFromPipeStorage %ps %s",
        "Result Type must be OpTypePipe",
    );
    // Pipe Storage must be a pipe-storage object.
    rejected(
        "%p = OpCreatePipeFromPipeStorage %rpipe %uint_1",
        "Pipe Storage must be a pipe-storage object",
    );
}
