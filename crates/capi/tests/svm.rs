//! Shared virtual memory through the ICD loader: `tests/c/svm.c` (built with cc against
//! `-lOpenCL`) checks every SVM entry point, its error codes, command types and kernels that
//! follow host-built pointers; `tests/pyopencl_svm.py` runs SVM kernels on oxcl and on PoCL and
//! compares both with values computed in Python. Skips with a printed reason when a tool is
//! absent.

mod common;

use std::path::Path;
use std::process::Command;

use common::{have, loader_runtime_present, vendors_dir};

#[test]
fn c_program_uses_svm_through_the_loader() {
    if !have("cc") || !loader_runtime_present() || !Path::new("/usr/include/CL/cl.h").exists() {
        eprintln!("skipped: needs cc, the OpenCL headers and libOpenCL.so (ocl-icd)");
        return;
    }
    let Some(dir) = vendors_dir("svm-c") else {
        return;
    };
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c/svm.c");
    let exe = dir.join("svm");
    let cc = Command::new("cc")
        .args(["-Wall", "-Wno-deprecated-declarations", "-o"])
        .arg(&exe)
        .arg(&source)
        .args(["-lOpenCL"])
        .output()
        .expect("run cc");
    assert!(
        cc.status.success(),
        "cc failed:\n{}",
        String::from_utf8_lossy(&cc.stderr)
    );
    let run = Command::new(&exe)
        .env("OCL_ICD_VENDORS", &dir)
        .output()
        .expect("run the C program");
    let stdout = String::from_utf8_lossy(&run.stdout).into_owned();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        run.status.success(),
        "svm.c failed ({:?}):\n{stdout}\n{}",
        run.status,
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(stdout.contains(" passed, 0 failed"), "{stdout}");
    eprintln!("{stdout}");
}

#[test]
fn svm_kernels_match_pocl() {
    let python = "/usr/bin/python3";
    let probe = Command::new(python)
        .args(["-c", "import pyopencl, numpy"])
        .output();
    if !probe.is_ok_and(|o| o.status.success()) {
        eprintln!("skipped: {python} with pyopencl and numpy is not available");
        return;
    }
    let pocl = Path::new("/etc/OpenCL/vendors/pocl.icd");
    if !pocl.exists() {
        eprintln!("skipped: PoCL (/etc/OpenCL/vendors/pocl.icd) is not installed");
        return;
    }
    let Some(dir) = vendors_dir("pyopencl-svm") else {
        return;
    };
    std::fs::copy(pocl, dir.join("pocl.icd")).expect("copy pocl.icd");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/pyopencl_svm.py");
    let out = Command::new(python)
        .arg(&script)
        .env("OCL_ICD_VENDORS", &dir)
        .output()
        .expect("run python3");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    let _ = std::fs::remove_dir_all(&dir);
    if text.contains("SKIP") {
        eprintln!("skipped: {text}");
        return;
    }
    eprintln!("{text}");
    assert!(
        out.status.success(),
        "SVM comparison with PoCL failed:\n{text}"
    );
    assert!(text.contains("svm ok"), "{text}");
}
