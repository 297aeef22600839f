//! Pipes (OpenCL C 2.0 §6.13.16): `pipe` kernel arguments, `reserve_id_t`, and every pipe
//! built-in (2- and 4-argument `read_pipe`/`write_pipe`, reservations, commits, their
//! work-group and sub-group forms, packet queries, `is_valid_reserve_id`), compared with
//! clang-15 + llvm-spirv-15 (the sequence of pipe instructions with their constant size and
//! alignment operands, the pipe types, the capabilities) and validated by `spirv-val
//! --target-env opencl2.0/2.2`; misuse gives clang's diagnostics. Tool checks skip with a
//! message when the tool is absent.

use std::process::Command;

use clc::options::BuildOptions;
use clc::pp::Target;

const SOURCE: &str = r#"
struct pair { int a; char b; };
__kernel void producer(__global const int *src, write_only pipe int out, write_only pipe struct pair ps)
{
    int i = get_global_id(0);
    write_pipe(out, &src[i]);
    reserve_id_t r = reserve_write_pipe(out, 2);
    if (is_valid_reserve_id(r)) {
        write_pipe(out, r, 0, &src[i]);
        write_pipe(out, r, 1u, &src[i]);
        commit_write_pipe(out, r);
    }
    reserve_id_t g = work_group_reserve_write_pipe(out, 1);
    if (is_valid_reserve_id(g)) {
        write_pipe(out, g, 0, &src[i]);
        work_group_commit_write_pipe(out, g);
    }
    struct pair p = { i, 1 };
    write_pipe(ps, &p);
}
__kernel void consumer(read_only pipe float4 in, __global float4 *dst, __global uint *n,
                       pipe uchar bytes)
{
    int i = get_global_id(0);
    float4 v;
    int ok = read_pipe(in, &v);
    reserve_id_t r = reserve_read_pipe(in, 1);
    if (is_valid_reserve_id(r)) {
        read_pipe(in, r, 0, &v);
        commit_read_pipe(in, r);
    }
    reserve_id_t s = sub_group_reserve_read_pipe(in, 1);
    if (is_valid_reserve_id(s)) {
        read_pipe(in, s, 0, &dst[i]);
        sub_group_commit_read_pipe(in, s);
    }
    uchar c;
    read_pipe(bytes, &c);
    n[0] = get_pipe_num_packets(in) + c;
    n[1] = get_pipe_max_packets(bytes);
    dst[i] = v + (float)ok;
}
"#;

fn tool(name: &str) -> bool {
    Command::new(name).arg("--version").output().is_ok()
}

fn subgroup_target() -> Target {
    Target {
        extensions: vec!["cl_khr_subgroups".into()],
        ..Target::default()
    }
}

fn dis(file: &std::path::Path) -> String {
    let out = Command::new("spirv-dis")
        .arg(file)
        .output()
        .expect("spirv-dis");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Pipe instructions in order: the opcode, its result type, and its constant operands
/// (spirv-dis names constants by value: `%uint_16`); other value ids are dropped. Plus the
/// sorted pipe types.
fn pipe_facts(text: &str) -> (Vec<String>, Vec<String>) {
    let mut seq = Vec::new();
    let mut types = Vec::new();
    for l in text.lines() {
        let rhs = l.split_once('=').map(|(_, r)| r.trim()).unwrap_or(l.trim());
        let toks: Vec<&str> = rhs.split_whitespace().collect();
        let Some(op) = toks.first() else { continue };
        if *op == "OpTypePipe" || *op == "OpTypeReserveId" {
            types.push(toks.join(" "));
        } else if op.contains("Pipe") || *op == "OpIsValidReserveId" {
            let kept: Vec<&str> = toks
                .iter()
                .copied()
                .filter(|t| {
                    !t.starts_with('%')
                        || t.starts_with("%uint")
                        || *t == "%bool"
                        || *t == "%ReserveId"
                })
                .collect();
            seq.push(kept.join(" "));
        }
    }
    types.sort();
    types.dedup();
    (seq, types)
}

fn capabilities(text: &str) -> Vec<String> {
    let mut caps: Vec<String> = text
        .lines()
        .filter_map(|l| l.trim().strip_prefix("OpCapability "))
        .map(str::to_string)
        .collect();
    caps.sort();
    caps
}

#[test]
fn pipe_kernels_validate_and_match_llvm_spirv() {
    let opts = BuildOptions::parse("-cl-std=CL2.0").expect("options");
    let m = clc::compile(SOURCE, "pipes.cl", &opts, &subgroup_target())
        .unwrap_or_else(|e| panic!("{}", e.log));
    // Argument info: pipes are spelled by their packet type, with their access qualifier.
    use clc::ast::ImageAccess::{ReadOnly, WriteOnly};
    let facts: Vec<Vec<(String, bool, Option<clc::ast::ImageAccess>)>> = m
        .kernels
        .iter()
        .map(|k| {
            k.args
                .iter()
                .map(|a| (a.type_name.clone(), a.is_pipe, a.access_qualifier))
                .collect()
        })
        .collect();
    assert_eq!(
        facts,
        [
            vec![
                ("int*".to_string(), false, None),
                ("int".to_string(), true, Some(WriteOnly)),
                ("struct pair".to_string(), true, Some(WriteOnly)),
            ],
            vec![
                ("float4".to_string(), true, Some(ReadOnly)),
                ("float4*".to_string(), false, None),
                ("uint*".to_string(), false, None),
                ("uchar".to_string(), true, Some(ReadOnly)),
            ],
        ]
    );
    let bytes = m.module.to_bytes();
    if !tool("spirv-val") || !tool("spirv-dis") {
        eprintln!("spirv-val or spirv-dis not found: skipping");
        return;
    }
    let dir = std::env::temp_dir().join(format!("clc-pipes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let ours = dir.join("ours.spv");
    std::fs::write(&ours, &bytes).expect("write");
    for env in ["opencl2.0", "opencl2.2"] {
        let val = Command::new("spirv-val")
            .args(["--target-env", env])
            .arg(&ours)
            .output()
            .expect("spirv-val");
        assert!(
            val.status.success(),
            "{env}: {}\n{}",
            String::from_utf8_lossy(&val.stderr),
            dis(&ours)
        );
    }
    if !tool("clang-15") || !tool("llvm-spirv-15") {
        eprintln!("clang-15 or llvm-spirv-15 not found: skipping the comparison");
        return;
    }
    let (cl, bc, theirs) = (dir.join("p.cl"), dir.join("p.bc"), dir.join("p.spv"));
    std::fs::write(&cl, SOURCE).expect("write");
    let st = Command::new("clang-15")
        .args([
            "-c",
            "-target",
            "spir64",
            "-cl-std=CL2.0",
            "-O0",
            "-emit-llvm",
        ])
        .args(["-Xclang", "-finclude-default-header", "-o"])
        .arg(&bc)
        .arg(&cl)
        .status()
        .expect("clang");
    assert!(st.success());
    let st = Command::new("llvm-spirv-15")
        .arg("--spirv-max-version=1.2")
        .arg(&bc)
        .arg("-o")
        .arg(&theirs)
        .status()
        .expect("llvm-spirv");
    assert!(st.success());
    let (o, t) = (dis(&ours), dis(&theirs));
    let (oseq, otypes) = pipe_facts(&o);
    let (tseq, ttypes) = pipe_facts(&t);
    assert!(tseq.len() > 20, "{t}");
    assert_eq!(oseq, tseq, "ours:\n{o}\ntheirs:\n{t}");
    assert_eq!(otypes, ttypes);
    let ocaps = capabilities(&o);
    assert!(ocaps.iter().any(|c| c == "Pipes"), "{ocaps:?}");
    // Every capability we declare, llvm-spirv declares too.
    let tcaps = capabilities(&t);
    for c in &ocaps {
        assert!(tcaps.contains(c), "{c} not in {tcaps:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn errors_of(src: &str, std: &str) -> String {
    let opts = BuildOptions::parse(std).expect("options");
    match clc::compile(src, "t.cl", &opts, &Target::default()) {
        Ok(_) => panic!("expected an error for:\n{src}"),
        Err(e) => e.log,
    }
}

/// The diagnostics clang-15 gives for the same mistakes (same text; for argument types the
/// location is the argument where clang points at the call).
#[test]
fn pipe_misuse_is_diagnosed() {
    let src = "__kernel void k(write_only pipe int p, read_only pipe int q, __global float *f)
{
    int v;
    read_pipe(p, &v);
    write_pipe(q, &v);
    read_pipe(q, f);
    read_pipe(q, 3, 0, &v);
    commit_read_pipe(q, 5);
}
__kernel void k2(read_write pipe int p) {}
";
    let log = errors_of(src, "-cl-std=CL2.0");
    for e in [
        "t.cl:4:15: error: invalid pipe access modifier (expecting read_only)",
        "t.cl:5:16: error: invalid pipe access modifier (expecting write_only)",
        "error: invalid argument type to function 'read_pipe' (expecting 'int *' having '__global float *')",
        "error: invalid argument type to function 'read_pipe' (expecting 'reserve_id_t' having 'int')",
        "error: invalid argument type to function 'commit_read_pipe' (expecting 'reserve_id_t' having 'int')",
        "t.cl:10:18: error: access qualifier 'read_write' can not be used for 'read_only pipe int'",
    ] {
        assert!(log.contains(e), "missing `{e}` in:\n{log}");
    }
    assert!(log.contains("6 errors generated."), "{log}");
}

/// Pipes are OpenCL C 2.0 (3.0 with `__opencl_c_pipes`); sub-group reservations need
/// cl_khr_subgroups.
#[test]
fn pipes_need_their_version_and_features() {
    let src = "__kernel void k(read_only pipe int p) {}\n";
    let log = errors_of(src, "-cl-std=CL1.2");
    assert!(
        log.contains("t.cl:1:17: error: pipes are not supported"),
        "{log}"
    );
    let log = errors_of(src, "-cl-std=CL3.0");
    assert!(
        log.contains("t.cl:1:17: error: pipes are not supported"),
        "{log}"
    );
    let with_pipes = Target {
        features: vec!["__opencl_c_pipes".into()],
        ..Target::default()
    };
    let opts = BuildOptions::parse("-cl-std=CL3.0").expect("options");
    if let Err(e) = clc::compile(src, "t.cl", &opts, &with_pipes) {
        panic!("{}", e.log);
    }
    let sub = "__kernel void k(read_only pipe int p) { reserve_id_t r = sub_group_reserve_read_pipe(p, 1); }\n";
    let log = errors_of(sub, "-cl-std=CL2.0");
    assert!(
        log.contains(
            "error: 'sub_group_reserve_read_pipe' requires the cl_khr_subgroups extension"
        ),
        "{log}"
    );
}
