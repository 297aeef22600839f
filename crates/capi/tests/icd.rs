//! oxcl through the ICD loader (Debian's ocl-icd): C programs built against `-lOpenCL`,
//! `clinfo` and pyopencl, each pointed at `liboxcl.so` with `OCL_ICD_VENDORS` (a directory
//! holding `oxcl.icd`). Expected values come from the clients themselves (C and numpy compute
//! them from the inputs). Tools that are absent make a test skip with a printed reason.

mod common;

use std::path::Path;
use std::process::Command;

use common::{clang_spirv, have, vendors_dir};

fn loader_present() -> bool {
    [
        "/usr/lib/x86_64-linux-gnu/libOpenCL.so",
        "/usr/lib/libOpenCL.so",
        "/usr/lib64/libOpenCL.so",
    ]
    .iter()
    .any(|p| Path::new(p).exists())
}

/// Builds `tests/c/<name>.c` against the loader and runs it on oxcl; returns its output.
fn run_c_program(name: &str) -> Option<String> {
    run_c_program_with(name, &[])
}

fn run_c_program_with(name: &str, args: &[&std::ffi::OsStr]) -> Option<String> {
    run_c_program_env(name, args, &[])
}

/// As [`run_c_program_with`], with environment variables for the program (such as
/// `OXCL_IMAGE_SUPPORT`).
fn run_c_program_env(
    name: &str,
    args: &[&std::ffi::OsStr],
    envs: &[(&str, &str)],
) -> Option<String> {
    if !have("cc") || !loader_present() || !Path::new("/usr/include/CL/cl.h").exists() {
        eprintln!("skipped: needs cc, the OpenCL headers and libOpenCL.so (ocl-icd)");
        return None;
    }
    let dir = vendors_dir(name)?;
    let source = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/c")
        .join(format!("{name}.c"));
    let exe = dir.join(name);
    let cc = Command::new("cc")
        .args(["-Wall", "-Wno-deprecated-declarations", "-o"])
        .arg(&exe)
        .arg(&source)
        .args(["-lOpenCL", "-lm", "-lpthread"])
        .output()
        .expect("run cc");
    assert!(
        cc.status.success(),
        "cc failed:\n{}",
        String::from_utf8_lossy(&cc.stderr)
    );
    let run = Command::new(&exe)
        .args(args)
        .envs(envs.iter().copied())
        .env("OCL_ICD_VENDORS", &dir)
        .output()
        .expect("run the C program");
    let stdout = String::from_utf8_lossy(&run.stdout).into_owned();
    assert!(
        run.status.success(),
        "{name} failed ({:?}):\n{stdout}\n{}",
        run.status,
        String::from_utf8_lossy(&run.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
    Some(stdout)
}

/// The `N passed, M failed` line of a C program.
fn counts(output: &str) -> (u32, u32) {
    let line = output
        .lines()
        .find(|l| l.ends_with(" failed"))
        .expect("a summary line");
    let numbers: Vec<u32> = line
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|w| w.parse().ok())
        .collect();
    (numbers[0], numbers[1])
}

#[test]
fn c_program_runs_kernels_through_the_loader() {
    let Some(output) = run_c_program("vadd") else {
        return;
    };
    let (passed, failed) = counts(&output);
    assert_eq!(failed, 0, "{output}");
    assert!(passed >= 43, "{output}");
}

#[test]
fn c_program_gets_documented_error_codes_through_the_loader() {
    // The program checks the errors of a device without images.
    let Some(output) = run_c_program_env("errors", &[], &[("OXCL_IMAGE_SUPPORT", "0")]) else {
        return;
    };
    let (passed, failed) = counts(&output);
    assert_eq!(failed, 0, "{output}");
    assert!(passed >= 79, "{output}");
}

#[test]
fn c_program_creates_reads_writes_copies_fills_and_maps_images_through_the_loader() {
    let Some(output) = run_c_program_env("images", &[], &[("OXCL_IMAGE_SUPPORT", "1")]) else {
        return;
    };
    let (passed, failed) = counts(&output);
    assert_eq!(failed, 0, "{output}");
    assert!(passed >= 190, "{output}");
}

#[test]
fn c_program_compiles_links_and_orders_commands_through_the_loader() {
    let times3 =
        "__kernel void times3(__global int *p) { size_t i = get_global_id(0); p[i] = p[i] * 3; }\n";
    let il = clang_spirv(times3, "programs");
    let arg = il
        .as_ref()
        .map_or(std::ffi::OsStr::new("-"), |p| p.as_os_str());
    let Some(output) = run_c_program_with("programs", &[arg]) else {
        return;
    };
    let (passed, failed) = counts(&output);
    assert_eq!(failed, 0, "{output}");
    assert!(passed >= if il.is_some() { 29 } else { 24 }, "{output}");
}

#[test]
fn c_program_passes_data_through_a_pipe() {
    let kernels = "kernel void produce(global const int *src, write_only pipe int p) {\n\
                   write_pipe(p, &src[get_global_id(0)]);\n}\n\
                   kernel void consume(read_only pipe int p, global int *dst) {\n\
                   int v = 0; read_pipe(p, &v); dst[get_global_id(0)] = v + 1;\n}\n";
    let il = clang_spirv(kernels, "pipes");
    let arg = il
        .as_ref()
        .map_or(std::ffi::OsStr::new("-"), |p| p.as_os_str());
    let Some(output) = run_c_program_with("pipes", &[arg]) else {
        return;
    };
    let (passed, failed) = counts(&output);
    assert_eq!(failed, 0, "{output}");
    assert!(passed >= if il.is_some() { 30 } else { 18 }, "{output}");
}

#[test]
fn c_program_uses_the_api_from_several_threads() {
    let Some(output) = run_c_program("threads") else {
        return;
    };
    let (passed, failed) = counts(&output);
    assert_eq!(failed, 0, "{output}");
    assert!(passed >= 5, "{output}");
}

/// clinfo lists the platform and device and no query fails.
#[test]
fn clinfo_lists_oxcl_with_every_query_answered() {
    if !have("clinfo") {
        eprintln!("skipped: clinfo is not installed");
        return;
    }
    let Some(dir) = vendors_dir("clinfo") else {
        return;
    };
    // With and without images: clinfo then lists the image formats and limits too.
    for (args, images) in [
        (&[][..], "0"),
        (&["--raw"][..], "0"),
        (&[][..], "1"),
        (&["--raw"][..], "1"),
    ] {
        let out = Command::new("clinfo")
            .args(args)
            .env("OXCL_IMAGE_SUPPORT", images)
            .env("OCL_ICD_VENDORS", &dir)
            .output()
            .expect("run clinfo");
        let text = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "clinfo {args:?} failed:\n{text}");
        assert!(text.contains("oxcl"), "no oxcl platform:\n{text}");
        // clinfo shows a failed query as `<error: …>`, `Invalid …` or a CL_* error name.
        let failures: Vec<&str> = text
            .lines()
            .filter(|l| {
                let lower = l.to_lowercase();
                (lower.contains("error")
                    && !lower.contains("error correction")
                    && !lower.contains("error_correction"))
                    || lower.contains("invalid")
            })
            .collect();
        assert!(
            failures.is_empty(),
            "clinfo {args:?} reports failures:\n{}",
            failures.join("\n")
        );
    }
    let out = Command::new("clinfo")
        .env("OXCL_IMAGE_SUPPORT", "0")
        .env("OCL_ICD_VENDORS", &dir)
        .output()
        .expect("run clinfo");
    let text = String::from_utf8_lossy(&out.stdout);
    let field = |name: &str| {
        text.lines()
            .find(|l| l.trim_start().starts_with(name))
            .map(|l| l[name.len() + 2..].trim().to_string())
    };
    assert_eq!(field("Platform Name").as_deref(), Some("oxcl"));
    assert_eq!(
        field("Platform Version").map(|v| v.starts_with("OpenCL 3.0")),
        Some(true)
    );
    assert_eq!(field("Device Type").as_deref(), Some("CPU"));
    assert_eq!(field("Image support").as_deref(), Some("No"));
    assert_eq!(field("Number of devices").as_deref(), Some("1"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// pyopencl (Debian's python3-pyopencl) builds and runs kernels; numpy computes the expected values.
#[test]
fn pyopencl_runs_kernels_and_matches_numpy() {
    let python = "/usr/bin/python3";
    let probe = Command::new(python)
        .args(["-c", "import pyopencl, numpy"])
        .output();
    if !probe.is_ok_and(|o| o.status.success()) {
        eprintln!("skipped: {python} with pyopencl and numpy is not available");
        return;
    }
    let Some(dir) = vendors_dir("pyopencl") else {
        return;
    };
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/pyopencl_vadd.py");
    let out = Command::new(python)
        .arg(&script)
        .env("OCL_ICD_VENDORS", &dir)
        .output()
        .expect("run python3");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "pyopencl script failed:\n{text}");
    assert!(text.contains("pyopencl ok"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// oxcl and PoCL side by side: both platforms are listed, oxcl is selected by name.
#[test]
fn oxcl_coexists_with_another_platform() {
    let pocl = Path::new("/etc/OpenCL/vendors/pocl.icd");
    if !pocl.exists() || !have("clinfo") {
        eprintln!("skipped: needs /etc/OpenCL/vendors/pocl.icd and clinfo");
        return;
    }
    let Some(dir) = vendors_dir("pocl") else {
        return;
    };
    std::fs::copy(pocl, dir.join("pocl.icd")).expect("copy pocl.icd");
    let out = Command::new("clinfo")
        .arg("-l")
        .env("OCL_ICD_VENDORS", &dir)
        .output()
        .expect("run clinfo");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("oxcl") && text.contains("Portable Computing Language"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn c_program_finds_every_feature_reported_consistently() {
    // With images and without: the image features, extensions and formats follow the switch.
    for images in ["1", "0"] {
        let Some(output) = run_c_program_env("consistency", &[], &[("OXCL_IMAGE_SUPPORT", images)])
        else {
            return;
        };
        let (passed, failed) = counts(&output);
        assert_eq!(failed, 0, "images {images}: {output}");
        assert!(passed >= 50, "images {images}: {output}");
    }
}

#[test]
fn c_program_runs_native_kernels_through_the_loader() {
    let Some(output) = run_c_program("native") else {
        return;
    };
    let (passed, failed) = counts(&output);
    assert_eq!(failed, 0, "{output}");
    assert!(passed >= 18, "{output}");
}

#[test]
fn c_program_partitions_the_device_through_the_loader() {
    let Some(output) = run_c_program("subdevices") else {
        return;
    };
    let (passed, failed) = counts(&output);
    assert_eq!(failed, 0, "{output}");
    assert!(passed >= 40, "{output}");
}
