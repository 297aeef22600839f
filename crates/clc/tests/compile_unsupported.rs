//! Features that are not supported yet give a clear error saying so (never a crash or a
//! misleading message): Blocks passed to functions and Block variables at program scope
//! (pipes: `compile_pipes.rs`; Blocks and device-side enqueue: `compile_enqueue.rs`).

use clc::options::BuildOptions;
use clc::pp::Target;

fn error_of(src: &str) -> String {
    let opts = BuildOptions::parse("-cl-std=CL2.0").expect("options");
    match clc::compile(src, "u.cl", &opts, &Target::default()) {
        Ok(_) => panic!("expected an error for:\n{src}"),
        Err(e) => e.log,
    }
}

#[test]
fn block_parameters_and_program_scope_blocks_are_reported_as_not_supported_yet() {
    for src in [
        // OpenCL C 2.0 §1.12.5 example 1: legal, but needs a Block passed at run time.
        "void f(global int *x, int (^bar)(int, int)) { *x = bar(*x, *x); }",
        // §1.12.3: a Block variable at program scope.
        "int g; int (^getg)(void) = ^{ return g; };",
    ] {
        let log = error_of(src);
        assert!(log.contains("not supported yet"), "{src}\n{log}");
    }
}
