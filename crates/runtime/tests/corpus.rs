//! The end-to-end corpus: every kernel of `tests/corpus/*.cl` runs on oxcl twice — compiled by
//! oxcl's compiler and by clang-15 + llvm-spirv-15 — and both results must equal what PoCL
//! computes for the same inputs (PoCL is the independent source of expected values).
//!
//! Each corpus file starts with `//!` lines describing the run:
//!
//! ```text
//! //! kernel: NAME
//! //! global: X[,Y[,Z]]
//! //! local: X[,Y[,Z]]          (optional)
//! //! offset: X[,Y[,Z]]         (optional)
//! //! options: BUILD OPTIONS    (optional)
//! //! arg: TYPE[COUNT] GEN      a buffer of COUNT elements: GEN is zeros, iota, rand(LO,HI) or bits
//! //! arg: TYPE VALUE[,VALUE…]  a value
//! //! arg: local BYTES          __local memory
//! //! compare: ulp N            (optional) floats may differ by N ulp; default: bit-exact
//! ```
//!
//! Tests skip the parts whose tools are absent, saying so; CI installs all of them.

use std::path::Path;
use std::process::Command;

mod corpus_common;

use corpus_common::*;
use runtime::Program;

fn npy_bytes(descr: &str, shape: &[usize], data: &[u8]) -> Vec<u8> {
    let shape = if shape.len() == 1 {
        format!("({},)", shape[0])
    } else {
        format!(
            "({})",
            shape
                .iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    let mut header = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}");
    let unpadded = 10 + header.len() + 1;
    header.push_str(&" ".repeat((64 - unpadded % 64) % 64));
    header.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend((header.len() as u16).to_le_bytes());
    out.extend(header.as_bytes());
    out.extend(data);
    out
}

fn npy_data(bytes: &[u8]) -> Vec<u8> {
    let header_len = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
    bytes[10 + header_len..].to_vec()
}

fn tool(name: &str) -> bool {
    Command::new(name)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// SPIR-V for the case from clang-15 + llvm-spirv-15, or why not.
fn clang_spirv(case: &Case, dir: &Path) -> Result<Vec<u8>, String> {
    let bc = dir.join("k.bc");
    let spv = dir.join("k.spv");
    let mut clang = Command::new("clang-15");
    clang.args([
        "-c",
        "-target",
        "spir64",
        "-cl-std=CL2.0",
        "-O0",
        "-emit-llvm",
        "-Xclang",
        "-finclude-default-header",
    ]);
    clang.args(case.options.split_whitespace());
    clang.arg("-o").arg(&bc).arg(&case.path);
    let out = clang.output().map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(format!(
            "clang-15 failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let out = Command::new("llvm-spirv-15")
        .arg("--spirv-max-version=1.2")
        .arg(&bc)
        .arg("-o")
        .arg(&spv)
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(format!(
            "llvm-spirv-15 failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    std::fs::read(&spv).map_err(|e| e.to_string())
}

/// PoCL's results, `Ok(None)` when PoCL is not installed.
fn run_pocl(
    case: &Case,
    inputs: &[Vec<u8>],
    dir: &Path,
) -> Result<Option<Vec<Option<Vec<u8>>>>, String> {
    let mut job = format!(
        "global {}\n",
        case.global
            .iter()
            .map(|v| v.to_string())
            .collect::<Vec<_>>()
            .join(",")
    );
    if let Some(local) = &case.local {
        job += &format!(
            "local {}\n",
            local
                .iter()
                .map(|v| v.to_string())
                .collect::<Vec<_>>()
                .join(",")
        );
    }
    if let Some(offset) = &case.offset {
        job += &format!(
            "offset {}\n",
            offset
                .iter()
                .map(|v| v.to_string())
                .collect::<Vec<_>>()
                .join(",")
        );
    }
    if !case.options.is_empty() {
        job += &format!("options {}\n", case.options);
    }
    for (i, arg) in case.args.iter().enumerate() {
        match arg {
            Arg::Buffer {
                elem, lanes, count, ..
            } => {
                let path = dir.join(format!("in_{i}.npy"));
                let shape = if *lanes == 1 {
                    vec![*count]
                } else {
                    vec![*count, *lanes]
                };
                std::fs::write(&path, npy_bytes(&elem.descr(), &shape, &inputs[i]))
                    .map_err(|e| e.to_string())?;
                job += &format!("arg buffer {}\n", path.display());
            }
            Arg::Value { .. } => {
                job += &format!(
                    "arg value {}\n",
                    inputs[i]
                        .iter()
                        .map(|b| format!("{b:02x}"))
                        .collect::<String>()
                )
            }
            Arg::Local(size) => job += &format!("arg local {size}\n"),
        }
    }
    std::fs::write(dir.join("job.txt"), job).map_err(|e| e.to_string())?;
    let out = Command::new("/usr/bin/python3")
        .arg(repo_root().join("tests/pocl_oracle.py"))
        .arg(&case.path)
        .arg(&case.kernel)
        .arg(dir)
        .output();
    let out = match out {
        Ok(out) => out,
        Err(_) => return Ok(None),
    };
    if out.status.code() == Some(3) {
        eprintln!(
            "{}: {}",
            case.name,
            String::from_utf8_lossy(&out.stderr).trim()
        );
        return Ok(None);
    }
    if !out.status.success() {
        return Err(format!(
            "PoCL run failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let mut results = Vec::new();
    for (i, arg) in case.args.iter().enumerate() {
        results.push(match arg {
            Arg::Buffer { .. } => {
                let bytes =
                    std::fs::read(dir.join(format!("pocl_{i}.npy"))).map_err(|e| e.to_string())?;
                Some(npy_data(&bytes))
            }
            _ => None,
        });
    }
    Ok(Some(results))
}

fn ulp_distance(elem: Elem, a: u64, b: u64) -> u64 {
    let key = |bits: u64, size: usize| -> i128 {
        let sign = 1u64 << (size * 8 - 1);
        let magnitude = (bits & (sign - 1)) as i128;
        if bits & sign != 0 {
            -magnitude
        } else {
            magnitude
        }
    };
    let size = elem.size();
    let nan = |bits: u64| match size {
        2 => half::f16::from_bits(bits as u16).is_nan(),
        4 => f32::from_bits(bits as u32).is_nan(),
        _ => f64::from_bits(bits).is_nan(),
    };
    if nan(a) || nan(b) {
        return if nan(a) && nan(b) { 0 } else { u64::MAX };
    }
    (key(a, size) - key(b, size)).unsigned_abs() as u64
}

/// The first difference between two results of one buffer, as text.
fn compare(case: &Case, index: usize, expected: &[u8], actual: &[u8]) -> Option<String> {
    let Arg::Buffer { elem, .. } = case.args[index] else {
        return None;
    };
    if expected.len() != actual.len() {
        return Some(format!(
            "argument {index}: {} bytes, expected {}",
            actual.len(),
            expected.len()
        ));
    }
    let size = elem.size();
    let mut bad = 0usize;
    let mut first = None;
    for (i, (e, a)) in expected
        .chunks_exact(size)
        .zip(actual.chunks_exact(size))
        .enumerate()
    {
        let mut eb = [0u8; 8];
        let mut ab = [0u8; 8];
        eb[..size].copy_from_slice(e);
        ab[..size].copy_from_slice(a);
        let (e, a) = (u64::from_le_bytes(eb), u64::from_le_bytes(ab));
        let ok = match elem {
            Elem::F(_) => ulp_distance(elem, e, a) <= case.ulp,
            Elem::I(..) => e == a,
        };
        if !ok {
            bad += 1;
            first.get_or_insert((i, e, a));
        }
    }
    first.map(|(i, e, a)| {
        let show = |bits: u64| match elem {
            Elem::F(4) => format!("{} ({bits:#x})", f32::from_bits(bits as u32)),
            Elem::F(8) => format!("{} ({bits:#x})", f64::from_bits(bits)),
            Elem::I(s, true) => format!("{}", ((bits << (64 - 8 * s)) as i64) >> (64 - 8 * s)),
            _ => format!("{bits:#x}"),
        };
        format!(
            "argument {index}: {bad} elements differ; first at element {i}: got {}, expected {}",
            show(a),
            show(e)
        )
    })
}

fn check_case(name: &str) {
    let case = parse_case(name);
    let inputs = inputs(&case);
    let dir = std::env::temp_dir().join(format!("oxcl-corpus-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");

    let expected = match run_pocl(&case, &inputs, &dir) {
        Ok(Some(results)) => Some(results),
        Ok(None) => {
            eprintln!(
                "{name}: PoCL (python3-pyopencl) not available: results are not compared, only run"
            );
            None
        }
        Err(e) => panic!("{name}: {e}"),
    };

    let source = std::fs::read_to_string(&case.path).expect("source");
    let mut runs = vec![(
        "oxcl compiler",
        run_oxcl(
            None,
            &case,
            Program::from_source(&context(), &source, &case.path.display().to_string()),
            &inputs,
        ),
    )];
    if tool("clang-15") && tool("llvm-spirv-15") {
        let result = clang_spirv(&case, &dir).and_then(|il| {
            let program = Program::from_il(&context(), &il).map_err(|e| e.to_string())?;
            run_oxcl(None, &case, program, &inputs)
        });
        runs.push(("clang-15 + llvm-spirv-15", result));
    } else {
        eprintln!("{name}: clang-15/llvm-spirv-15 not installed: the second producer is skipped");
    }
    let _ = std::fs::remove_dir_all(&dir);

    let mut failures = Vec::new();
    for (producer, result) in runs {
        match result {
            Err(e) => failures.push(format!("[{producer}] {e}")),
            Ok(results) => {
                if let Some(expected) = &expected {
                    for (i, (e, a)) in expected.iter().zip(&results).enumerate() {
                        if let (Some(e), Some(a)) = (e, a) {
                            if let Some(diff) = compare(&case, i, e, a) {
                                failures.push(format!("[{producer}] {diff}"));
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{name}:\n{}", failures.join("\n"));
}

corpus! {
    as_type,
    bitops,
    char_short,
    constant_filter,
    conversions,
    double_math,
    helpers,
    histogram,
    int_arith,
    local_array,
    logic_ops,
    long_math,
    loops,
    mandelbrot,
    math_basic,
    math_trans,
    matmul_naive,
    matmul_tiled,
    nbody_step,
    nested_loops,
    offset_3d,
    prefix_scan,
    preprocessor,
    private_array,
    reduce_local,
    rsqrt_mix,
    saxpy,
    select_vec,
    stencil2d,
    struct_buffer,
    switch_case,
    strings_goto,
    swizzle,
    transpose,
    typedef_enum,
    vadd,
    vadd_int4,
    vector_convert,
    work_item,
}
