//! The fuzzing entry point shared by the cargo-fuzz target (`fuzz/fuzz_targets/
//! read_validate_lower.rs`) and the mutation test (`crates/kir/tests/lower_fuzz.rs`):
//! [`read_validate_lower`] runs `spv::read_bytes` → `spv::valid::validate` → [`super::lower`]
//! (→ the kir verifier, which `lower` runs) on arbitrary bytes. None of these may panic: bad input
//! is an error value. The first byte of the input picks the environment, so a fuzzer explores
//! every OpenCL version, profile and address width; the rest is the SPIR-V binary.

use spv::valid::{feature, ClVersion, Env, Profile};

/// How far an input got through the pipeline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// `spv::read_bytes` rejected it.
    Unreadable,
    /// `spv::valid::validate` rejected it.
    Invalid,
    /// `lower` rejected it (unsupported or malformed).
    NotLowered,
    /// It lowered to a verified kir module.
    Lowered,
}

/// The environment selected by `selector` (the first input byte): bits 0–2 the OpenCL version
/// (1.2, 2.0, 2.1, 2.2, 3.0, modulo 5), bit 3 embedded profile, bit 4 32-bit addresses, bit 5 the
/// optional extensions, bit 6 the OpenCL 3.0 optional features.
pub fn env_for(selector: u8) -> Env {
    let version = match (selector & 0x07) % 5 {
        0 => ClVersion::Cl12,
        1 => ClVersion::Cl20,
        2 => ClVersion::Cl21,
        3 => ClVersion::Cl22,
        _ => ClVersion::Cl30,
    };
    let profile = if selector & 0x08 != 0 {
        Profile::Embedded
    } else {
        Profile::Full
    };
    let bits = if selector & 0x10 != 0 { 32 } else { 64 };
    let mut env = Env::opencl(version, profile, bits);
    if selector & 0x20 != 0 {
        env = env
            .with_extension("cl_khr_fp16")
            .with_extension("cl_khr_fp64")
            .with_extension("cl_khr_int64_base_atomics")
            .with_extension("cl_khr_int64_extended_atomics")
            .with_extension("cl_khr_subgroups")
            .with_extension("cl_khr_subgroup_ballot")
            .with_extension("cl_khr_subgroup_non_uniform_vote")
            .with_extension("cl_khr_subgroup_non_uniform_arithmetic")
            .with_extension("cl_khr_subgroup_shuffle")
            .with_extension("cl_khr_subgroup_shuffle_relative")
            .with_extension("cl_khr_subgroup_clustered_reduce");
    }
    if selector & 0x40 != 0 {
        for f in [
            feature::IMAGES,
            feature::FP64,
            feature::INT64,
            feature::GENERIC_ADDRESS_SPACE,
            feature::PIPES,
            feature::DEVICE_ENQUEUE,
            feature::SUBGROUPS,
            feature::WORK_GROUP_COLLECTIVE_FUNCTIONS,
            feature::ATOMIC_ORDER_SEQ_CST,
            feature::ATOMIC_SCOPE_DEVICE,
        ] {
            env = env.with_feature(f);
        }
    }
    env
}

/// Runs the consumer's front half on `data` (first byte: environment selector, rest: SPIR-V).
/// Never panics; returns how far the input got.
pub fn read_validate_lower(data: &[u8]) -> Stage {
    let Some((&selector, binary)) = data.split_first() else {
        return Stage::Unreadable;
    };
    let Ok(module) = spv::read_bytes(binary) else {
        return Stage::Unreadable;
    };
    let Ok(valid) = spv::valid::validate(module, &env_for(selector)) else {
        return Stage::Invalid;
    };
    match super::lower(&valid) {
        Ok(_) => Stage::Lowered,
        Err(_) => Stage::NotLowered,
    }
}
