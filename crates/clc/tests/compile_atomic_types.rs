//! The atomic types of OpenCL C 2.0 §6.13.11.6 are distinct types: every valid use (the
//! C11-style functions, `ATOMIC_VAR_INIT`, `atomic_flag_*`, reading an atomic object) compiles
//! to valid SPIR-V, and the invalid uses of §6.13.11.8 get clang-15's diagnostics at clang's
//! line and column: operators on atomic objects, assignment to or from one, initialization
//! outside the global address space, `atomic_load` on a plain `int *`, a `constant` atomic,
//! and the incompatible-pointer warnings between `int *` and `atomic_int *`. Expected texts are
//! clang-15's (without its address-space spelling of lvalue types); clang-15 itself is asked
//! for the line, column and severity when installed.

use std::process::Command;

use clc::options::BuildOptions;
use clc::pp::Target;

// Only the clang-15 run is used here.
#[allow(dead_code)]
mod warn_util;
use warn_util::clang15 as clang;

fn compile(src: &str) -> Result<clc::Compiled, clc::CompileError> {
    let opts = BuildOptions::parse("-cl-std=CL2.0").expect("options");
    clc::compile(src, "at.cl", &opts, &Target::default())
}

fn tool(name: &str) -> bool {
    Command::new(name).arg("--version").output().is_ok()
}

const VALID: &str = r#"
global atomic_int gv = ATOMIC_VAR_INIT(3);
global atomic_flag gf = ATOMIC_VAR_INIT(0);
kernel void k(global atomic_int *a, global atomic_float *af, global int *o,
              global atomic_uint *au) {
  atomic_init(a, 1);
  atomic_store(a, 2);
  atomic_store_explicit(a, 2, memory_order_release, memory_scope_device);
  int v = atomic_load(a);
  v += atomic_exchange(a, 5);
  int e = 5;
  bool ok = atomic_compare_exchange_strong(a, &e, 6);
  ok = ok && atomic_compare_exchange_weak_explicit(a, &e, 7, memory_order_acq_rel,
                                                  memory_order_relaxed, memory_scope_work_group);
  v += atomic_fetch_add(a, 1) + atomic_fetch_sub(a, 1) + atomic_fetch_or(a, 1)
     + atomic_fetch_xor(a, 1) + atomic_fetch_and(a, 1) + atomic_fetch_min(a, 1)
     + atomic_fetch_max(a, 1);
  v += atomic_fetch_add_explicit(au, 1u, memory_order_relaxed);
  float f = atomic_load(af);
  atomic_store(af, 1.5f);
  f += atomic_exchange(af, 2.5f);
  bool t = atomic_flag_test_and_set(&gf);
  atomic_flag_clear(&gf);
  t = atomic_flag_test_and_set_explicit(&gf, memory_order_relaxed, memory_scope_device);
  int read = a[3];
  v += atomic_load(&gv) + read + (int)af[0] + (a[1] ? 1 : 0);
  local atomic_int la;
  if (get_local_id(0) == 0) atomic_init(&la, 0);
  o[0] = v + ok + t + (int)f + sizeof(atomic_int) + sizeof(atomic_flag);
}
"#;

#[test]
fn valid_uses_compile_to_valid_spirv() {
    let m = compile(VALID).unwrap_or_else(|e| panic!("{}", e.log));
    assert!(!m.log.contains("warning"), "{}", m.log);
    let bytes = m.module.to_bytes();
    let env = spv::valid::Env::opencl(spv::valid::ClVersion::Cl20, spv::valid::Profile::Full, 64);
    if let Err(e) = spv::valid::validate(m.module, &env) {
        panic!("spv::valid: {e:?}");
    }
    if tool("spirv-val") {
        let f = std::env::temp_dir().join(format!("clc-atomic-{}.spv", std::process::id()));
        std::fs::write(&f, bytes).expect("write");
        let val = Command::new("spirv-val")
            .args(["--target-env", "opencl2.0"])
            .arg(&f)
            .output()
            .expect("spirv-val");
        let _ = std::fs::remove_file(&f);
        assert!(
            val.status.success(),
            "{}",
            String::from_utf8_lossy(&val.stderr)
        );
    } else {
        eprintln!("spirv-val not found: skipping");
    }
    if let Some((ok, log)) = clang(VALID, "atomic-valid") {
        assert!(ok, "clang-15 refuses: {log}");
        assert!(!log.contains("warning"), "{log}");
    }
}

/// (program, expected diagnostic `line:col: severity: text`).
const DIAGNOSED: &[(&str, &str)] = &[
    (
        "kernel void k(global atomic_int *a) { a[0] = 1; }",
        "1:44: error: atomic variable can be assigned to a variable only in global address space",
    ),
    (
        "kernel void k(global atomic_int *a, global int *o) { o[0] = a[0]; }",
        "1:59: error: atomic variable can be assigned to a variable only in global address space",
    ),
    (
        "kernel void k(global atomic_int *a) { a[0] += 2; }",
        "1:44: error: invalid operands to binary expression ('atomic_int' and 'int')",
    ),
    (
        "kernel void k(global atomic_int *a, global int *o) { o[0] = a[0] + 1; }",
        "1:66: error: invalid operands to binary expression ('atomic_int' and 'int')",
    ),
    (
        "kernel void k(global atomic_int *a, global int *o) { o[0] = a[0] == 1; }",
        "1:66: error: invalid operands to binary expression ('atomic_int' and 'int')",
    ),
    (
        "kernel void k(global atomic_int *a) { a[0]++; }",
        "1:43: error: invalid argument type 'atomic_int' to unary expression",
    ),
    (
        "kernel void k(global atomic_int *a) { ++a[0]; }",
        "1:39: error: invalid argument type 'atomic_int' to unary expression",
    ),
    (
        "kernel void k(global int *o) { atomic_int p = ATOMIC_VAR_INIT(3); o[0] = atomic_load(&p); }",
        "1:47: error: atomic variable can be initialized to a variable only in global address space",
    ),
    (
        "constant atomic_int c = ATOMIC_VAR_INIT(1);",
        "1:25: error: atomic variable can be initialized to a variable only in global address space",
    ),
    (
        "kernel void k(global int *ip) { atomic_load(ip); }",
        "1:33: error: call to 'atomic_load' is ambiguous",
    ),
    (
        "kernel void k(constant atomic_int *ca) { atomic_load(ca); }",
        "1:42: error: no matching function for call to 'atomic_load'",
    ),
    (
        "kernel void k(global int *ip) { atomic_store(ip, 1); }",
        "1:46: warning: incompatible pointer types passing '__global int *' to parameter of type 'volatile __generic _Atomic(int) *'",
    ),
    (
        "kernel void k(global uint *ip) { atomic_fetch_add(ip, 1u); }",
        "1:51: warning: incompatible pointer types passing '__global uint *' to parameter of type 'volatile __generic _Atomic(unsigned int) *'",
    ),
    (
        "kernel void k(global int *ip) { atomic_flag_clear(ip); }",
        "1:51: warning: incompatible pointer types passing '__global int *' to parameter of type 'volatile __generic atomic_flag *' (aka 'volatile __generic _Atomic(int) *')",
    ),
    (
        "kernel void k(global int *p) { atomic_add((volatile global atomic_int *)p, 1); }",
        "1:43: warning: incompatible pointer types passing '__global volatile atomic_int *' to parameter of type '__global volatile int *'",
    ),
    (
        "void f(global int *p) { *p = 1; }\nkernel void k(global atomic_int *a) { f(a); }",
        "2:41: warning: incompatible pointer types passing '__global atomic_int *' to parameter of type '__global int *'",
    ),
    (
        "void f(global atomic_int *p) { atomic_store(p, 1); }\nkernel void k(global int *a) { f(a); }",
        "2:34: warning: incompatible pointer types passing '__global int *' to parameter of type '__global atomic_int *'",
    ),
];

#[test]
fn invalid_uses_get_clangs_diagnostics() {
    for (k, (src, want)) in DIAGNOSED.iter().enumerate() {
        let log = match compile(src) {
            Ok(m) => m.log,
            Err(e) => e.log,
        };
        assert!(
            log.lines().any(|l| l
                .strip_prefix("at.cl:")
                .is_some_and(|rest| rest.starts_with(want))),
            "{src}\nwant {want}\ngot {log}"
        );
        let is_error = want.contains(": error: ");
        assert_eq!(compile(src).is_err(), is_error, "verdict for {src}: {log}");
        if let Some((ok, clang_log)) = clang(src, &format!("atomic-bad{k}")) {
            assert_eq!(!ok, is_error, "clang-15's verdict for {src}: {clang_log}");
            // Same place and severity; clang spells lvalue types with their address space.
            let (place, rest) = want.split_at(want.find(": ").unwrap_or(0));
            let head: String = rest.chars().take_while(|c| *c != '\'').collect();
            assert!(
                clang_log
                    .lines()
                    .any(|l| l.contains(&format!(":{place}{head}"))),
                "clang-15 does not say {place}{head} for {src}:\n{clang_log}"
            );
        }
    }
}
