//! Images compared with PoCL: the same OpenCL C kernels (convolution with linear sampling and
//! normalized coordinates, rotation with each addressing mode and both filters, format round
//! trips, 3D and array reads) run through pyopencl on oxcl and on PoCL, both platforms visible
//! through the ICD loader; `tests/pyopencl_images.py` compares the outputs within the image
//! tolerances of the numerical compliance chapter (unorm8 within 2/255 after linear filtering,
//! small relative errors for float) and prints the largest differences measured. PoCL is an
//! independent implementation, so its output is the expected value. Skips with a printed reason
//! when pyopencl or PoCL is absent.

mod common;

use std::path::Path;
use std::process::Command;

use common::vendors_dir;

#[test]
fn image_kernels_match_pocl() {
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
    let Some(dir) = vendors_dir("pyopencl-images") else {
        return;
    };
    std::fs::copy(pocl, dir.join("pocl.icd")).expect("copy pocl.icd");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/pyopencl_images.py");
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
        "image comparison with PoCL failed:\n{text}"
    );
    assert!(text.contains("images ok"), "{text}");
}
