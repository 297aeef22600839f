//! Compile-speed benchmark (issue 5 item 7): OpenCL C source → SPIR-V binary with clc and with
//! `clang-15 -c -target spir64 -O0 -emit-llvm` + `llvm-spirv-15`, side by side in one run, on
//! the `oxcl bench` kernels, the compiler corpus (`tests/corpus/`), the real-world corpus
//! (`tests/real_world/`) and a generated large program. Prints one row per input (median
//! wall time of `--reps` runs each; clang's time is the two processes as a user runs them)
//! and the ratio clang+llvm-spirv / clc. A benchmark, never a test: nothing is asserted.
//!
//! Run it in release: `cargo xtask bench-compile [--reps N] [--large N,M] [--json]`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use clc::options::BuildOptions;
use clc::pp::Target;

/// One benchmark input.
struct Input {
    name: String,
    source: String,
    /// `-cl-std=…` for both compilers.
    std: &'static str,
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v.get(v.len() / 2).copied().unwrap_or_default()
}

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The kernels of `oxcl bench` (the `SOURCE` string of `crates/cli/src/bench.rs`).
fn bench_kernels() -> Option<String> {
    let text = std::fs::read_to_string(manifest_dir().join("../cli/src/bench.rs")).ok()?;
    let start = text.find("const SOURCE: &str = r#\"")? + "const SOURCE: &str = r#\"".len();
    let len = text[start..].find("\"#;")?;
    Some(text[start..start + len].to_string())
}

/// A large program: `n` kernels with loops, vector arithmetic, built-in calls and helper
/// functions (about 30 lines each).
fn large_program(n: usize) -> String {
    let mut s = String::from("#define SCALE 3\n");
    for i in 0..n {
        s.push_str(&format!(
            r#"
static float helper{i}(float x, int k) {{
    float acc = 0.0f;
    for (int j = 0; j < k; ++j) {{
        acc += sin(x * (float)j) * 0.5f + fma(x, (float)j, acc) / (1.0f + fabs(acc));
        if (acc > 100.0f) break;
    }}
    return acc * SCALE;
}}

__kernel void k{i}(__global const float4 *in, __global float4 *out, __local float *tmp, int n) {{
    size_t gid = get_global_id(0);
    size_t lid = get_local_id(0);
    float4 v = in[gid];
    float4 w = (float4)(v.y, v.z, v.w, v.x) * (float4)({i}.0f);
    tmp[lid] = dot(v, w);
    barrier(CLK_LOCAL_MEM_FENCE);
    int4 m = convert_int4_sat(w) & (int4)(0xff);
    switch (m.x % 4) {{
        case 0: v += w; break;
        case 1: v -= w; break;
        case 2: v *= clamp(w, -1.0f, 1.0f); break;
        default: v = mad(v, w, (float4)(helper{i}(tmp[lid], n)));
    }}
    for (int r = 0; r < n; ++r) {{
        v = select(v, sqrt(fabs(v)), isgreater(v, w));
    }}
    out[gid] = v + (float4)(tmp[(lid + 1) % get_local_size(0)]);
}}
"#
        ));
    }
    s
}

fn inputs(large: &[usize]) -> Vec<Input> {
    let mut v = Vec::new();
    if let Some(src) = bench_kernels() {
        v.push(Input {
            name: "oxcl-bench-kernels".into(),
            source: src,
            std: "CL1.2",
        });
    }
    for (dir, label) in [
        ("tests/corpus", "corpus"),
        ("tests/real_world", "real_world"),
    ] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(manifest_dir().join(dir))
            .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        files.retain(|p| p.extension().is_some_and(|e| e == "cl"));
        files.sort();
        for f in files {
            let Ok(source) = std::fs::read_to_string(&f) else {
                continue;
            };
            let stem = f.file_stem().map(|s| s.to_string_lossy().into_owned());
            let stem = stem.unwrap_or_default();
            let std = if stem.contains("20") || source.contains("__generic") {
                "CL2.0"
            } else {
                "CL1.2"
            };
            v.push(Input {
                name: format!("{label}/{stem}"),
                source,
                std,
            });
        }
    }
    for n in large {
        v.push(Input {
            name: format!("large ({n} kernels)"),
            source: large_program(*n),
            std: "CL1.2",
        });
    }
    v
}

/// pyopencl's header directory (the real-world kernels include `pyopencl-complex.h`).
fn pyopencl_include() -> Option<PathBuf> {
    let out = Command::new("/usr/bin/python3")
        .args([
            "-c",
            "import os, pyopencl; print(os.path.join(os.path.dirname(pyopencl.__file__), 'cl'))",
        ])
        .output()
        .ok()?;
    let dir = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    dir.join("pyopencl-complex.h").exists().then_some(dir)
}

/// `-I` options for both compilers.
fn include_options() -> Vec<String> {
    pyopencl_include()
        .map(|d| vec!["-I".to_string(), d.display().to_string()])
        .unwrap_or_default()
}

fn target() -> Target {
    Target {
        extensions: vec!["cl_khr_fp64".into(), "cl_khr_fp16".into()],
        ..Target::default()
    }
}

/// clc: source → SPIR-V words → bytes.
fn time_clc(input: &Input, reps: usize) -> Result<Duration, String> {
    let opts = BuildOptions::parse(&format!(
        "-cl-std={} {}",
        input.std,
        include_options().join(" ")
    ))
    .map_err(|e| e.to_string())?;
    let target = target();
    let mut times = Vec::new();
    for _ in 0..reps {
        let t = Instant::now();
        let m = clc::compile(&input.source, &input.name, &opts, &target).map_err(|e| e.log)?;
        let bytes = m.module.to_bytes();
        times.push(t.elapsed());
        std::hint::black_box(bytes);
    }
    Ok(median(times))
}

/// One clang-15 run: `.cl` → `.bc`.
fn clang(
    input: &Input,
    includes: &[String],
    bc: &Path,
    cl: &Path,
    default_header: bool,
) -> Result<std::process::Output, String> {
    let mut cmd = Command::new("clang-15");
    cmd.args(["-c", "-target", "spir64", "-O0", "-emit-llvm"])
        .arg(format!("-cl-std={}", input.std))
        .args(includes);
    if default_header {
        cmd.args(["-Xclang", "-finclude-default-header"]);
    }
    cmd.arg("-o")
        .arg(bc)
        .arg(cl)
        .output()
        .map_err(|e| e.to_string())
}

/// clang-15 + llvm-spirv-15, as two processes.
fn time_clang(input: &Input, dir: &Path, reps: usize) -> Result<Duration, String> {
    let cl = dir.join("in.cl");
    let bc = dir.join("in.bc");
    let spv = dir.join("in.spv");
    std::fs::write(&cl, &input.source).map_err(|e| e.to_string())?;
    let includes = include_options();
    let mut times = Vec::new();
    for _ in 0..reps {
        let t = Instant::now();
        // The working line of the project's notes; with the full default header only when
        // the file needs it (clang-15 otherwise declares the built-ins from its tables).
        let mut out = clang(input, &includes, &bc, &cl, false)?;
        if !out.status.success() {
            out = clang(input, &includes, &bc, &cl, true)?;
        }
        if !out.status.success() {
            let log = String::from_utf8_lossy(&out.stderr).into_owned();
            let first_error = log
                .lines()
                .find(|l| l.contains("error"))
                .unwrap_or("clang failed");
            return Err(first_error.to_string());
        }
        let out = Command::new("llvm-spirv-15")
            .arg("--spirv-max-version=1.2")
            .arg(&bc)
            .arg("-o")
            .arg(&spv)
            .output()
            .map_err(|e| e.to_string())?;
        if !out.status.success() {
            return Err(String::from_utf8_lossy(&out.stderr)
                .lines()
                .next()
                .unwrap_or("llvm-spirv failed")
                .to_string());
        }
        times.push(t.elapsed());
    }
    Ok(median(times))
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let json = args.iter().any(|a| a == "--json");
    let reps = args
        .iter()
        .position(|a| a == "--reps")
        .and_then(|i| args.get(i + 1))
        .and_then(|r| r.parse().ok())
        .unwrap_or(5usize)
        .max(1);
    let have_clang = Command::new("clang-15").arg("--version").output().is_ok()
        && Command::new("llvm-spirv-15")
            .arg("--version")
            .output()
            .is_ok();
    if !have_clang {
        eprintln!("clang-15 or llvm-spirv-15 not found: only clc is timed");
    }
    let dir = std::env::temp_dir().join(format!("clc-compile-bench-{}", std::process::id()));
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("{}: {e}", dir.display());
        std::process::exit(2);
    }
    let mut rows = Vec::new();
    let (mut total_clc, mut total_clang) = (Duration::ZERO, Duration::ZERO);
    let mut corpus = (Duration::ZERO, Duration::ZERO);
    if !json {
        println!(
            "{:<40} {:>6} {:>10} {:>14} {:>7}",
            "input", "lines", "clc ms", "clang+spv ms", "ratio"
        );
    }
    // `--large N,M`: sizes of the generated programs (default 50 and 200 kernels).
    let large: Vec<usize> = args
        .iter()
        .position(|a| a == "--large")
        .and_then(|i| args.get(i + 1))
        .map(|l| l.split(',').filter_map(|n| n.parse().ok()).collect())
        .unwrap_or_else(|| vec![50, 200]);
    for input in inputs(&large) {
        let lines = input.source.lines().count();
        let ours = time_clc(&input, reps);
        let theirs = if have_clang {
            time_clang(&input, &dir, reps.min(3))
        } else {
            Err("not run".into())
        };
        match (&ours, &theirs) {
            (Ok(o), Ok(t)) => {
                total_clc += *o;
                total_clang += *t;
                if input.name.starts_with("corpus/") || input.name.starts_with("real_world/") {
                    corpus.0 += *o;
                    corpus.1 += *t;
                }
                let ratio = t.as_secs_f64() / o.as_secs_f64().max(1e-9);
                if !json {
                    println!(
                        "{:<40} {:>6} {:>10.2} {:>14.2} {:>6.1}x",
                        input.name,
                        lines,
                        ms(*o),
                        ms(*t),
                        ratio
                    );
                }
                rows.push(format!(
                    "{{\"input\":\"{}\",\"lines\":{lines},\"clc_ms\":{:.3},\"clang_ms\":{:.3},\"ratio\":{:.2}}}",
                    input.name,
                    ms(*o),
                    ms(*t),
                    ratio
                ));
            }
            (o, t) => {
                let why = |r: &Result<Duration, String>| match r {
                    Ok(d) => format!("{:.2} ms", ms(*d)),
                    Err(e) => format!("skipped: {}", e.lines().next().unwrap_or("")),
                };
                if !json {
                    println!(
                        "{:<40} {:>6} clc {} | clang {}",
                        input.name,
                        lines,
                        why(o),
                        why(t)
                    );
                }
            }
        }
    }
    let ratio = |p: (Duration, Duration)| p.1.as_secs_f64() / p.0.as_secs_f64().max(1e-9);
    if json {
        println!(
            "{{\"reps\":{reps},\"rows\":[{}],\"total_ratio\":{:.2},\"corpus_ratio\":{:.2}}}",
            rows.join(","),
            ratio((total_clc, total_clang)),
            ratio(corpus)
        );
    } else {
        println!(
            "corpus + real_world: clc {:.1} ms, clang+llvm-spirv {:.1} ms, ratio {:.1}x",
            ms(corpus.0),
            ms(corpus.1),
            ratio(corpus)
        );
        println!(
            "all inputs compiled by both: clc {:.1} ms, clang+llvm-spirv {:.1} ms, ratio {:.1}x",
            ms(total_clc),
            ms(total_clang),
            ratio((total_clc, total_clang))
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
