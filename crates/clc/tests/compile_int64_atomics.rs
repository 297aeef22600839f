//! The 64-bit `atom_*` functions exist only with their extensions (cl_khr_int64_base_atomics
//! for add, sub, xchg, inc, dec and cmpxchg; cl_khr_int64_extended_atomics for min, max, and,
//! or and xor; OpenCL C 1.2 §9.4 "64-bit Atomics"): without them a call is an error naming
//! the function, never an invalid module.

use clc::options::BuildOptions;
use clc::pp::Target;

const SOURCE: &str = "kernel void k(global long *p) { atom_add(p, 1L); atom_max(p + 1, 2L); }";

fn compile(extensions: &[&str]) -> Result<(), String> {
    let target = Target {
        extensions: extensions.iter().map(|e| e.to_string()).collect(),
        ..Target::default()
    };
    let options = BuildOptions::parse("").expect("options");
    clc::compile(SOURCE, "k.cl", &options, &target)
        .map(|_| ())
        .map_err(|e| e.log)
}

#[test]
fn both_extensions_compile() {
    compile(&["cl_khr_int64_base_atomics", "cl_khr_int64_extended_atomics"])
        .unwrap_or_else(|log| panic!("{log}"));
}

#[test]
fn without_the_extensions_the_calls_are_errors() {
    let log = compile(&[]).expect_err("no 64-bit atomics");
    assert!(
        log.contains("error: no matching function for call to 'atom_add'"),
        "{log}"
    );
    assert!(
        log.contains("error: no matching function for call to 'atom_max'"),
        "{log}"
    );
    assert!(!log.contains("internal compiler error"), "{log}");
    // The base extension alone gives atom_add but not atom_max.
    let log = compile(&["cl_khr_int64_base_atomics"]).expect_err("no extended atomics");
    assert!(!log.contains("'atom_add'"), "{log}");
    assert!(
        log.contains("error: no matching function for call to 'atom_max'"),
        "{log}"
    );
}
