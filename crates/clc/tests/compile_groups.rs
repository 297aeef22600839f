//! Work-group and sub-group functions compared with clang-15 + llvm-spirv-15: the sequence of
//! group instructions (opcode, result type, scope, group operation) and barriers must match
//! what llvm-spirv emits for the same source. Skipped with a message when the tools are absent.

use std::process::Command;

use clc::options::BuildOptions;
use clc::pp::Target;

const SOURCE: &str = r#"
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
__kernel void k(__global int *o, __global float *f, __global ulong *u, __global uint *w) {
  o[0] = work_group_all(o[1]);
  o[1] = work_group_any(o[2]);
  o[2] = work_group_broadcast(o[3], (size_t)1);
  o[3] = work_group_broadcast(o[3], (size_t)1, (size_t)2);
  f[0] = work_group_reduce_add(f[1]);
  f[1] = work_group_scan_inclusive_max(f[1]);
  o[4] = work_group_scan_inclusive_min(o[4]);
  u[0] = work_group_scan_exclusive_max(u[0]);
  w[0] = work_group_reduce_min(w[0]);
  w[1] = work_group_scan_exclusive_add(w[1]);
  o[6] = get_sub_group_size() + get_max_sub_group_size() + get_num_sub_groups()
       + get_enqueued_num_sub_groups() + get_sub_group_id() + get_sub_group_local_id();
  o[7] = sub_group_broadcast(o[7], 1u);
  o[8] = sub_group_reduce_add(o[8]);
  o[9] = sub_group_all(o[9]);
  o[10] = sub_group_any(o[10]);
  f[2] = sub_group_scan_exclusive_min(f[2]);
  sub_group_barrier(CLK_LOCAL_MEM_FENCE);
}
"#;

fn tool(name: &str) -> bool {
    Command::new(name).arg("--version").output().is_ok()
}

/// The group instructions and barriers of a disassembly, without result ids and value operands.
fn group_lines(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| l.contains("OpGroup") || l.contains("OpControlBarrier"))
        .map(|l| {
            let rhs = l.split_once('=').map(|(_, r)| r).unwrap_or(l);
            let toks: Vec<&str> = rhs.split_whitespace().collect();
            let keep = match toks.first() {
                Some(&"OpControlBarrier") => 4,
                Some(op) if op.starts_with("OpGroupAll") || op.starts_with("OpGroupAny") => 3,
                Some(&"OpGroupBroadcast") => 3,
                _ => 4, // op, type, scope, operation
            };
            toks.into_iter().take(keep).collect::<Vec<_>>().join(" ")
        })
        .collect()
}

fn dis(file: &std::path::Path) -> String {
    let out = Command::new("spirv-dis")
        .arg(file)
        .output()
        .expect("spirv-dis");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn group_functions_match_llvm_spirv() {
    if !tool("clang-15") || !tool("llvm-spirv-15") || !tool("spirv-dis") {
        eprintln!("clang-15, llvm-spirv-15 or spirv-dis not found: skipping");
        return;
    }
    let dir = std::env::temp_dir().join(format!("clc-groups-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let cl = dir.join("k.cl");
    std::fs::write(&cl, SOURCE).expect("write");
    let (bc, theirs, ours) = (dir.join("k.bc"), dir.join("k.spv"), dir.join("ours.spv"));
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
    let target = Target {
        extensions: vec!["cl_khr_subgroups".into()],
        ..Target::default()
    };
    let opts = BuildOptions::parse("-cl-std=CL2.0").expect("options");
    let m = clc::compile(SOURCE, "k.cl", &opts, &target).unwrap_or_else(|e| panic!("{}", e.log));
    std::fs::write(&ours, m.module.to_bytes()).expect("write");
    let val = Command::new("spirv-val")
        .args(["--target-env", "opencl2.2"])
        .arg(&ours)
        .output()
        .expect("spirv-val");
    assert!(
        val.status.success(),
        "{}",
        String::from_utf8_lossy(&val.stderr)
    );
    let (t, o) = (dis(&theirs), dis(&ours));
    assert_eq!(group_lines(&o), group_lines(&t), "ours:\n{o}\ntheirs:\n{t}");
    assert_eq!(group_lines(&t).len(), 16, "{t}");
    assert!(o.contains("OpCapability Groups"));
    for b in [
        "SubgroupSize",
        "SubgroupMaxSize",
        "NumSubgroups",
        "NumEnqueuedSubgroups",
        "SubgroupId",
        "SubgroupLocalInvocationId",
    ] {
        assert!(o.contains(&format!("BuiltIn {b}")), "{b} missing:\n{o}");
    }
}
