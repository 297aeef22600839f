//! The `oxcl` command as a user runs it: exit codes, messages, files written.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn oxcl(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_oxcl"))
        .args(args)
        .current_dir(repo_root())
        .output()
        .expect("run oxcl")
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("oxcl-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

fn have(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// A panic exits with 101; every failure of oxcl must be an ordinary error (exit 1).
fn assert_clean_failure(out: &Output, what: &str) {
    assert_eq!(
        out.status.code(),
        Some(1),
        "{what}: stdout {} stderr {}",
        text(&out.stdout),
        text(&out.stderr)
    );
    assert!(
        !text(&out.stderr).contains("panicked"),
        "{what}: {}",
        text(&out.stderr)
    );
}

#[test]
fn the_readme_example_runs_saxpy() {
    let out = oxcl(&[
        "run",
        "examples/saxpy.cl",
        "--kernel",
        "saxpy",
        "--global",
        "8",
        "--arg",
        "float:2",
        "--arg",
        "@examples/x.npy",
        "--arg",
        "@examples/y.npy",
        "--show",
        "2",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // y = 2 * x + 10 for x = 0..7, computed by hand.
    assert!(
        text(&out.stdout).contains("argument 2: [10, 12, 14, 16, 18, 20, 22, 24]"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn run_writes_npy_outputs_with_the_input_dtype() {
    let source = temp("square.cl");
    std::fs::write(
        &source,
        "__kernel void sq(__global int *v, int k) { int i = get_global_id(0); v[i] = i * i + k; }",
    )
    .unwrap();
    let out_path = temp("sq.npy");
    let out = oxcl(&[
        "run",
        source.to_str().unwrap(),
        "--kernel",
        "sq",
        "--global",
        "6",
        "--local",
        "3",
        "--arg",
        "zeros:int:6",
        "--arg",
        "int:-1",
        "--out",
        &format!("0={}", out_path.display()),
        "--repeat",
        "3",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let bytes = std::fs::read(&out_path).unwrap();
    assert_eq!(&bytes[..6], b"\x93NUMPY");
    let header_len = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
    let header = text(&bytes[10..10 + header_len]);
    assert!(
        header.contains("'descr': '<i4'") && header.contains("(6,)"),
        "{header}"
    );
    let values: Vec<i32> = bytes[10 + header_len..]
        .chunks_exact(4)
        .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(values, vec![-1, 0, 3, 8, 15, 24]);
}

#[test]
fn build_output_passes_spirv_val_for_every_corpus_kernel() {
    if !have("spirv-val") {
        eprintln!("skipped: spirv-val (spirv-tools) is not installed");
        return;
    }
    let mut failures = Vec::new();
    for entry in std::fs::read_dir(repo_root().join("tests/corpus")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "cl") {
            continue;
        }
        let source = std::fs::read_to_string(&path).unwrap();
        let options = source
            .lines()
            .find_map(|l| l.strip_prefix("//! options:"))
            .map(|o| o.trim().to_string())
            .unwrap_or_default();
        let spv = temp(&format!(
            "{}.spv",
            path.file_stem().unwrap().to_str().unwrap()
        ));
        let out = oxcl(&[
            "build",
            path.to_str().unwrap(),
            "-o",
            spv.to_str().unwrap(),
            "--options",
            &options,
        ]);
        if !out.status.success() {
            failures.push(format!(
                "{}: oxcl build failed:\n{}",
                path.display(),
                text(&out.stderr)
            ));
            continue;
        }
        let val = Command::new("spirv-val")
            .args(["--target-env", "opencl2.2"])
            .arg(&spv)
            .output()
            .unwrap();
        if !val.status.success() {
            failures.push(format!(
                "{}: spirv-val: {}",
                path.display(),
                text(&val.stderr)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn compile_errors_are_reported_with_locations() {
    // Two semantic errors: both are reported, each with its line and column.
    let source = temp("bad.cl");
    std::fs::write(
        &source,
        "__kernel void k(__global int *p)\n{\n    p[0] = undeclared + 1;\n    p[1] = also_missing;\n}\n",
    )
    .unwrap();
    let out = oxcl(&[
        "build",
        source.to_str().unwrap(),
        "-o",
        temp("bad.spv").to_str().unwrap(),
    ]);
    assert_clean_failure(&out, "build of bad OpenCL C");
    let stderr = text(&out.stderr);
    assert!(stderr.contains("bad.cl:3:12: error:"), "{stderr}");
    assert!(
        stderr.contains("bad.cl:4:12: error:"),
        "every error of the file is reported: {stderr}"
    );
    // Two syntax errors: the parser recovers and reports both.
    let syntax = temp("syntax.cl");
    std::fs::write(
        &syntax,
        "__kernel void k(__global int *p)\n{\n    int x = ;\n    p[0] = (1 + ;\n}\n",
    )
    .unwrap();
    let out = oxcl(&[
        "build",
        syntax.to_str().unwrap(),
        "-o",
        temp("syntax.spv").to_str().unwrap(),
    ]);
    assert_clean_failure(&out, "build of OpenCL C with syntax errors");
    let stderr = text(&out.stderr);
    assert!(stderr.contains("syntax.cl:3:13: error:"), "{stderr}");
    assert!(stderr.contains("syntax.cl:4:"), "{stderr}");
}

#[test]
fn malformed_spirv_is_an_error_not_a_crash() {
    // Truncated header, wrong magic, random words, and a valid header with a truncated instruction.
    let mut cases: Vec<Vec<u8>> = vec![
        vec![],
        vec![3, 2, 35, 7],
        vec![0xde, 0xad, 0xbe, 0xef, 0, 0, 0, 0],
    ];
    let mut header: Vec<u8> = [0x0723_0203u32, 0x0001_0000, 0, 10, 0]
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    header.extend(((5u32 << 16) | 17).to_le_bytes()); // OpCapability with 5 words but 1 present
    cases.push(header);
    let mut state = 0x1234_5678_9abc_def0u64;
    for len in [6usize, 20, 64] {
        let mut words = vec![0x0723_0203u32, 0x0001_0000, 0, 100, 0];
        for _ in 0..len {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            words.push(state as u32);
        }
        cases.push(words.iter().flat_map(|w| w.to_le_bytes()).collect());
    }
    for (i, bytes) in cases.iter().enumerate() {
        let path = temp(&format!("bad{i}.spv"));
        std::fs::write(&path, bytes).unwrap();
        for command in ["val", "dis"] {
            let out = oxcl(&[command, path.to_str().unwrap()]);
            assert_clean_failure(&out, &format!("oxcl {command} on case {i}"));
        }
        let out = oxcl(&[
            "run",
            path.to_str().unwrap(),
            "--kernel",
            "k",
            "--global",
            "1",
        ]);
        assert_clean_failure(&out, &format!("oxcl run on case {i}"));
    }
}

#[test]
fn val_names_the_rule_a_module_breaks() {
    if !have("spirv-as") {
        eprintln!("skipped: spirv-as (spirv-tools) is not installed");
        return;
    }
    // env 2.1: the memory model must be OpenCL with Physical addressing; this uses GLSL450/Logical.
    let asm = temp("glsl.spvasm");
    std::fs::write(
        &asm,
        "OpCapability Addresses\nOpCapability Kernel\nOpCapability Shader\nOpMemoryModel Logical GLSL450\n\
         OpEntryPoint Kernel %f \"k\"\n%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%f = OpFunction %void None %fn\n\
         %l = OpLabel\nOpReturn\nOpFunctionEnd\n",
    )
    .unwrap();
    let spv = temp("glsl.spv");
    let status = Command::new("spirv-as")
        .args(["--target-env", "spv1.0"])
        .arg(&asm)
        .arg("-o")
        .arg(&spv)
        .output()
        .unwrap();
    assert!(status.status.success(), "{}", text(&status.stderr));
    let out = oxcl(&["val", spv.to_str().unwrap(), "--env", "opencl2.2"]);
    assert_clean_failure(&out, "val of a GLSL memory model module");
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("OpMemoryModel"),
        "names the instruction: {stderr}"
    );
    assert!(stderr.contains("env"), "cites the rule: {stderr}");
}

#[test]
fn dis_output_reassembles_to_the_same_module() {
    if !have("spirv-as") {
        eprintln!("skipped: spirv-as (spirv-tools) is not installed");
        return;
    }
    let spv = temp("saxpy.spv");
    let out = oxcl(&["build", "examples/saxpy.cl", "-o", spv.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let dis = oxcl(&["dis", spv.to_str().unwrap()]);
    assert!(dis.status.success(), "{}", text(&dis.stderr));
    let asm = temp("saxpy.spvasm");
    std::fs::write(&asm, &dis.stdout).unwrap();
    let again = temp("saxpy2.spv");
    let status = Command::new("spirv-as")
        .args(["--preserve-numeric-ids", "--target-env", "spv1.0"])
        .arg(&asm)
        .arg("-o")
        .arg(&again)
        .output()
        .unwrap();
    assert!(status.status.success(), "{}", text(&status.stderr));
    let (a, b) = (std::fs::read(&spv).unwrap(), std::fs::read(&again).unwrap());
    // The header's generator word differs (spirv-as writes its own); everything else is identical.
    assert_eq!(a.len(), b.len());
    assert_eq!(&a[..8], &b[..8], "magic and version");
    assert_eq!(&a[12..], &b[12..], "bound, schema and every instruction");
}

#[test]
fn info_describes_the_platform_and_device() {
    let out = oxcl(&["info"]);
    assert!(out.status.success());
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("Platform Name                oxcl"),
        "{stdout}"
    );
    assert!(
        stdout.contains("Device Type                  CPU"),
        "{stdout}"
    );
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    assert!(
        stdout.contains(&format!("Max compute units            {cores}")),
        "{stdout}"
    );
}

#[test]
fn run_rejects_image_and_sampler_specs_for_other_arguments() {
    // saxpy(float a, __global float *x, __global float *y): an image for a pointer, a sampler
    // for a float, and a PNG that is not one are each a clean error naming the argument.
    let png = temp("not-a.png");
    std::fs::write(&png, b"not a png").unwrap();
    let cases: [(&str, String, &str); 3] = [
        ("float:2", "image:4x2:rgba8".to_string(), "an image"),
        (
            "sampler:normalized,clamp,nearest",
            "@examples/x.npy".to_string(),
            "a sampler",
        ),
        ("float:2", format!("image:{}", png.display()), "not-a.png"),
    ];
    for (first, second, expect) in cases {
        let out = oxcl(&[
            "run",
            "examples/saxpy.cl",
            "--kernel",
            "saxpy",
            "--global",
            "8",
            "--arg",
            first,
            "--arg",
            &second,
            "--arg",
            "@examples/y.npy",
        ]);
        assert_clean_failure(&out, &format!("{first} {second}"));
        assert!(
            text(&out.stderr).contains(expect),
            "{first} {second}: {}",
            text(&out.stderr)
        );
    }
}

#[test]
fn run_help_documents_image_arguments() {
    let out = oxcl(&["run", "--help"]);
    let help = text(&out.stdout);
    for needle in [
        "image:PATH.png",
        "image:WIDTHxHEIGHT:FORMAT",
        "sampler:",
        "PATH.png",
    ] {
        assert!(help.contains(needle), "`{needle}` missing from:\n{help}");
    }
}

#[test]
fn run_gives_a_kernel_an_empty_pipe() {
    if !have("clang-15") || !have("llvm-spirv-15") {
        eprintln!("skipping: clang-15 or llvm-spirv-15 is not installed");
        return;
    }
    let (cl, bc, spv) = (temp("pipe.cl"), temp("pipe.bc"), temp("pipe.spv"));
    std::fs::write(
        &cl,
        "kernel void w(write_only pipe int p, global int *status) {\n\
         int v = get_global_id(0); status[get_global_id(0)] = write_pipe(p, &v); }\n",
    )
    .unwrap();
    let clang = Command::new("clang-15")
        .args([
            "-c",
            "-target",
            "spir64",
            "-cl-std=CL2.0",
            "-O0",
            "-emit-llvm",
            "-o",
        ])
        .arg(&bc)
        .arg(&cl)
        .status()
        .unwrap();
    let tr = Command::new("llvm-spirv-15")
        .arg("--spirv-max-version=1.2")
        .arg(&bc)
        .arg("-o")
        .arg(&spv)
        .status()
        .unwrap();
    assert!(clang.success() && tr.success());
    let out_path = temp("status.npy");
    let out = oxcl(&[
        "run",
        spv.to_str().unwrap(),
        "--kernel",
        "w",
        "--global",
        "10",
        "--local",
        "5",
        "--arg",
        "pipe:4:6",
        "--arg",
        "zeros:int:10",
        "--out",
        &format!("1={}", out_path.display()),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let bytes = std::fs::read(&out_path).unwrap();
    let header_len = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
    let status: Vec<i32> = bytes[10 + header_len..]
        .chunks_exact(4)
        .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    // A pipe of 6 packets takes 6 of the 10 writes (0); the other 4 find it full (negative).
    assert_eq!(status.iter().filter(|&&s| s == 0).count(), 6, "{status:?}");
    assert_eq!(status.iter().filter(|&&s| s < 0).count(), 4, "{status:?}");
    // A pipe argument given something else is an error naming the form to use.
    let out = oxcl(&[
        "run",
        spv.to_str().unwrap(),
        "--kernel",
        "w",
        "--global",
        "1",
        "--arg",
        "zeros:int:1",
        "--arg",
        "zeros:int:1",
    ]);
    assert_clean_failure(&out, "buffer for a pipe");
    assert!(
        text(&out.stderr).contains("pipe:PACKET_BYTES:MAX_PACKETS"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn run_check_reports_local_memory_races_once() {
    // Work-item l reads its neighbour's slot with no barrier after the writes: a race that
    // only checked mode reports (OpenCL C 2.0 §3.3.5: unordered conflicting accesses).
    let source = temp("race.cl");
    std::fs::write(
        &source,
        "kernel void racy(global int *out, local int *t) {\n\
         int l = get_local_id(0);\n\
         t[l] = l;\n\
         out[get_global_id(0)] = t[(l + 1) % get_local_size(0)];\n\
         }\n",
    )
    .expect("write");
    let path = source.to_str().expect("path");
    let args = [
        "run",
        path,
        "--kernel",
        "racy",
        "--global",
        "8",
        "--local",
        "8",
        "--arg",
        "zeros:int:8",
        "--arg",
        "local:32",
    ];
    let plain = oxcl(&args);
    assert!(plain.status.success(), "{}", text(&plain.stderr));
    let mut checked_args = args.to_vec();
    checked_args.push("--check");
    let checked = oxcl(&checked_args);
    assert_clean_failure(&checked, "racy kernel in checked mode");
    let err = text(&checked.stderr);
    // Work-item 0 reads t[1] (byte 4) before work-item 1 writes it.
    assert!(
        err.contains(
            "data race: write of byte 4 of local memory also accessed by local work-item 0"
        ),
        "{err}"
    );
    assert_eq!(err.matches("data race").count(), 1, "{err}");
    // With a barrier between the writes and the reads there is no race.
    std::fs::write(
        &source,
        "kernel void racy(global int *out, local int *t) {\n\
         int l = get_local_id(0);\n\
         t[l] = l;\n\
         barrier(CLK_LOCAL_MEM_FENCE);\n\
         out[get_global_id(0)] = t[(l + 1) % get_local_size(0)];\n\
         }\n",
    )
    .expect("write");
    let fixed = oxcl(&checked_args);
    assert!(fixed.status.success(), "{}", text(&fixed.stderr));
}
