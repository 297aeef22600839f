//! Features that are not supported yet give a clear error saying so (never a crash or a
//! misleading message): blocks and device-side enqueue (pipes: `compile_pipes.rs`).

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
fn blocks_and_enqueue_are_reported_as_not_supported_yet() {
    for src in [
        "__kernel void k(__global int *o) { int (^b)(int) = ^(int x) { return x; }; o[0] = b(1); }",
        "__kernel void k(__global int *o) { queue_t q = get_default_queue(); }",
        "__kernel void k(__global int *o) { ndrange_t r = ndrange_1D(1); }",
    ] {
        let log = error_of(src);
        assert!(log.contains("not supported yet"), "{src}\n{log}");
    }
}
