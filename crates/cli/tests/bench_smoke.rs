//! `oxcl bench --quick` as a smoke test: every benchmark runs on the JIT (all cores and one)
//! and on the interpreter, and their results agree. No timing is asserted.

use std::process::Command;

#[test]
fn quick_bench_runs_every_benchmark_and_results_agree() {
    let out = Command::new(env!("CARGO_BIN_EXE_oxcl"))
        .args(["bench", "--quick", "--no-pocl", "--reps", "1", "--json"])
        .output()
        .expect("run oxcl bench");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "oxcl bench failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let names = [
        "saxpy",
        "sum",
        "sgemm_naive",
        "sgemm_tiled",
        "stencil",
        "histogram",
        "nbody",
        "mandelbrot",
        "blackscholes",
        "conv5x5",
    ];
    for name in names {
        assert!(
            stdout.contains(&format!("\"name\":\"{name}\"")),
            "{name} missing from {stdout}"
        );
    }
    assert_eq!(
        stdout.matches("\"check\":\"ok\"").count(),
        names.len(),
        "{stdout}"
    );
    assert!(stdout.contains("\"native\":{\"saxpy_gbs\":"), "{stdout}");
}
