//! Real-world OpenCL C that no one here wrote: the kernels pyopencl 2022.3.1 generates for a
//! dot-product and a max `ReductionKernel`, an `InclusiveScanKernel` and an
//! `ElementwiseKernel` (stored in `tests/real_world/`, unmodified), and pyopencl's own device
//! libraries (Random123 Philox/Threefry, the Bessel and Airy functions) included from the
//! installed pyopencl. Each compiles for OpenCL C 1.2 and 2.0 and passes `spirv-val` for the
//! matching environment. Parts whose tools or headers are absent are skipped with a message.

use std::path::{Path, PathBuf};
use std::process::Command;

use clc::options::BuildOptions;
use clc::pp::Target;

/// pyopencl's header directory (`pyopencl-complex.h`, `pyopencl-random123/`, …).
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

fn spirv_val(bytes: &[u8], env: &str, name: &str) -> Option<Result<(), String>> {
    if Command::new("spirv-val").arg("--version").output().is_err() {
        return None;
    }
    let dir = std::env::temp_dir().join(format!("clc-real-world-{}", std::process::id()));
    std::fs::create_dir_all(&dir).ok()?;
    let file = dir.join(format!("{name}.spv"));
    std::fs::write(&file, bytes).ok()?;
    let out = Command::new("spirv-val")
        .args(["--target-env", env])
        .arg(&file)
        .output()
        .ok()?;
    let _ = std::fs::remove_file(&file);
    Some(if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    })
}

fn fp64_target() -> Target {
    Target {
        extensions: vec!["cl_khr_fp64".into()],
        features: vec!["__opencl_c_fp64".into()],
        ..Target::default()
    }
}

/// Compiles `source` for 1.2 and 2.0 with `include` on the path; failures are collected.
fn check(name: &str, source: &str, include: &Path, failures: &mut Vec<String>) {
    for (std, env) in [("CL1.2", "opencl1.2"), ("CL2.0", "opencl2.0")] {
        let opts = BuildOptions::parse(&format!("-cl-std={std} -I {}", include.display()))
            .expect("options");
        match clc::compile(source, name, &opts, &fp64_target()) {
            Err(e) => failures.push(format!("{name} ({std}):\n{}", e.log)),
            Ok(c) => match spirv_val(&c.module.to_bytes(), env, name) {
                None => eprintln!("spirv-val not found: {name} compiled, not validated"),
                Some(Ok(())) => {}
                Some(Err(e)) => failures.push(format!("{name} ({std}): spirv-val: {e}")),
            },
        }
    }
}

#[test]
fn pyopencl_generated_kernels_compile_and_validate() {
    let Some(include) = pyopencl_include() else {
        eprintln!("pyopencl (its headers) not installed: skipping");
        return;
    };
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/real_world");
    let mut names: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/real_world")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cl"))
        .collect();
    names.sort();
    assert!(names.len() >= 8);
    let mut failures = Vec::new();
    for p in &names {
        let source = std::fs::read_to_string(p).expect("read");
        let name = p
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        check(&name, &source, &include, &mut failures);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn pyopencl_device_libraries_compile_and_validate() {
    let Some(include) = pyopencl_include() else {
        eprintln!("pyopencl (its headers) not installed: skipping");
        return;
    };
    let random123 = r#"
#include <pyopencl-random123/philox.cl>
#include <pyopencl-random123/threefry.cl>
__kernel void gen(__global uint4 *out, uint seed)
{
    uint i = get_global_id(0);
    philox4x32_ctr_t c = {{i, 0, 0, 0}};
    philox4x32_key_t k = {{seed, 0}};
    philox4x32_ctr_t r = philox4x32(c, k);
    threefry4x32_ctr_t c2 = {{i, 1, 0, 0}};
    threefry4x32_key_t k2 = {{seed, 1, 2, 3}};
    threefry4x32_ctr_t r2 = threefry4x32(c2, k2);
    out[i] = (uint4)(r.v[0] ^ r2.v[0], r.v[1], r.v[2], r.v[3] + r2.v[3]);
}
"#;
    let bessel = r#"
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#include <pyopencl-bessel-j.cl>
#include <pyopencl-bessel-y.cl>
#include <pyopencl-airy.cl>
__kernel void b(__global double *out, __global const double *x)
{
    int i = get_global_id(0);
    out[i] = bessel_jn(2, x[i]) + bessel_yn(1, x[i]);
}
"#;
    let mut failures = Vec::new();
    check("random123.cl", random123, &include, &mut failures);
    check("bessel.cl", bessel, &include, &mut failures);
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
