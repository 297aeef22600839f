//! Fuzz target: `spv::read_bytes` → `spv::valid::validate` → `kir::lower` (with the kir
//! verifier) must never panic on any input (DESIGN.md: "The compiler and the validator never
//! panic on any input"). The first byte picks the OpenCL environment, the rest is the SPIR-V
//! binary; see `kir::lower::fuzz`. The same function runs on thousands of mutated modules in the
//! ordinary test `crates/kir/tests/lower_fuzz.rs`.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = kir::lower::fuzz::read_validate_lower(data);
});
