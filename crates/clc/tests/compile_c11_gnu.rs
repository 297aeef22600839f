//! C11 and GNU constructs that clang-15 accepts in OpenCL C: `_Static_assert`, the `a ?: b`
//! shorthand, statement expressions `({ … })`, case ranges `case lo ... hi:`,
//! `__attribute__((overloadable))` user functions (named by their Itanium mangling, as
//! clang names them) and `ext_vector_type` typedefs. Valid programs pass spv::valid and
//! spirv-val and are accepted by clang-15; invalid ones get clang-15's diagnostic (same line,
//! column and text), checked against clang-15 itself when it is installed. The kernels run in
//! runtime/tests/c11_gnu.rs.

use std::process::Command;

use clc::options::BuildOptions;
use clc::pp::Target;

// Only the clang-15 run is used here.
#[allow(dead_code)]
mod warn_util;
use warn_util::clang15 as clang;

fn compile(src: &str) -> Result<clc::Compiled, clc::CompileError> {
    let opts = BuildOptions::parse("-cl-std=CL2.0").expect("options");
    let target = Target::default();
    clc::compile(src, "ext.cl", &opts, &target)
}

fn tool(name: &str) -> bool {
    Command::new(name).arg("--version").output().is_ok()
}

/// Validates with spv::valid and spirv-val (OpenCL 2.0); returns spirv-dis's text, or an
/// empty string when the tools are absent.
fn validate(m: clc::Compiled, tag: &str) -> String {
    let bytes = m.module.to_bytes();
    let env = spv::valid::Env::opencl(spv::valid::ClVersion::Cl20, spv::valid::Profile::Full, 64);
    if let Err(e) = spv::valid::validate(m.module, &env) {
        panic!("spv::valid: {e:?}");
    }
    if !tool("spirv-val") || !tool("spirv-dis") {
        eprintln!("spirv-val or spirv-dis not found: skipping");
        return String::new();
    }
    let f = std::env::temp_dir().join(format!("clc-c11gnu-{tag}-{}.spv", std::process::id()));
    std::fs::write(&f, bytes).expect("write");
    let val = Command::new("spirv-val")
        .args(["--target-env", "opencl2.0"])
        .arg(&f)
        .output()
        .expect("spirv-val");
    let dis = Command::new("spirv-dis")
        .arg(&f)
        .output()
        .expect("spirv-dis");
    let _ = std::fs::remove_file(&f);
    assert!(
        val.status.success(),
        "{}",
        String::from_utf8_lossy(&val.stderr)
    );
    String::from_utf8_lossy(&dis.stdout).into_owned()
}

const VALID: &str = r#"
_Static_assert(sizeof(int) == 4, "int is 4 bytes");
_Static_assert(sizeof(float4) == 16, "float4 is 16 bytes");
typedef float my4 __attribute__((ext_vector_type(4)));
typedef __attribute__((ext_vector_type(2))) uint my_uint2;
_Static_assert(sizeof(my4) == 16 && vec_step(my4) == 4, "my4 is a float4");
struct S { int a; _Static_assert(1, "in a struct"); };
#define OV __attribute__((overloadable))
OV int f(int x) { return x + 1; }
OV float f(float x) { return x * 2.0f; }
OV int f(global int *p) { return p[0]; }
OV float f(const local float4 *p, float4 q) { return p[0].y + q.w; }
OV int f(long x, ulong y, short z, ushort w, uchar u, bool b) { return 8; }
int g(int x) { return x; }
OV int g(float2 v) { return (int)v.y; }
kernel void k(global int *o, global float *p, local float4 *l) {
  _Static_assert(1, "block scope");
  int a = o[0];
  o[1] = a ?: 7;
  o[2] = ({ int t = a * 2; t + 1; });
  switch (a) { case 1 ... 3: o[3] = 1; break; case 4 ... 1000: o[3] = 2; break; default: o[3] = 0; }
  my4 v = (my4)(1.0f, 2.0f, 3.0f, 4.0f);
  float4 w = v;
  p[0] = v.x + w.w + dot(v, w);
  o[4] = f(3) + f((short)3) + f(o) + g(3) + g((float2)(1.0f, 2.0f));
  p[1] = f(3.0f) + f(l, w);
  o[5] = f(1L, 2UL, (short)1, (ushort)1, (uchar)1, true);
  long lv = o[7];
  switch (lv) { case 1 ... 1000: o[8] = 1; break; case 5000000000L: o[8] = 3; break; default: o[8] = 2; }
  ulong uv = o[9];
  switch (uv) { case 1 ... 1000: o[10] = 1; break; default: o[10] = 2; }
  my_uint2 u = (my_uint2)(5u, 6u);
  o[6] = u.y;
}
"#;

#[test]
fn extensions_compile_to_valid_spirv_like_clang() {
    let m = compile(VALID).unwrap_or_else(|e| panic!("{}", e.log));
    let text = validate(m, "valid");
    // clang-15's names for the overloads (llvm-dis of its output, by hand).
    for mangled in [
        "_Z1fi",
        "_Z1ff",
        "_Z1fPU3AS1i",
        "_Z1fPU3AS3KDv4_fS_",
        "_Z1flmsthb",
        "_Z1gDv2_f",
    ] {
        if !text.is_empty() {
            assert!(
                text.contains(&format!("OpName %{mangled} \"{mangled}\"")),
                "{mangled}"
            );
        }
    }
    if let Some((ok, log)) = clang(VALID, "c11gnu-valid") {
        assert!(ok, "clang-15 refuses: {log}");
    }
}

#[test]
fn overloads_are_mangled_as_clang_mangles_them() {
    let src = r#"
#define OV __attribute__((overloadable))
typedef struct { int a; } T;
OV int h(uint x, uint y, T s, T t) { return 5; }
OV int h(char2 a, char2 b, __generic uint *c, int *d) { return 6; }
OV int h(constant char *c) { return 7; }
kernel void k(global int *o, T s) {
  int i; uint u;
  o[0] = h(1u, 2u, s, s) + h((char2)1, (char2)2, &u, &i) + h((constant char *)0);
}
"#;
    let m = compile(src).unwrap_or_else(|e| panic!("{}", e.log));
    let text = validate(m, "mangle");
    for mangled in ["_Z1hjj1TS_", "_Z1hDv2_cS_PU3AS4jPU3AS4i", "_Z1hPU3AS2c"] {
        if !text.is_empty() {
            assert!(
                text.contains(&format!("\"{mangled}\"")),
                "{mangled}\n{text}"
            );
        }
    }
}

/// An overloadable function with a Block parameter (clang-15 refuses Block parameters, so
/// the mangling of the Block, `U13block_pointerF…E`, is clang's for Block types elsewhere) is
/// specialized per literal like any function with Block parameters.
#[test]
fn overloads_with_block_parameters_are_specialized() {
    let src = r#"
__attribute__((overloadable)) int apply(int x, int (^op)(int)) { return op(x); }
__attribute__((overloadable)) int apply(float x) { return (int)x; }
kernel void k(global int *o) { o[0] = apply(3, ^(int v) { return v * 2; }) + apply(2.0f); }
"#;
    let m = compile(src).unwrap_or_else(|e| panic!("{}", e.log));
    let text = validate(m, "blockov");
    if !text.is_empty() {
        assert!(text.contains("\"_Z5applyf\""), "{text}");
        assert!(
            text.contains("\"_Z5applyiU13block_pointerFiiE.blocks1\""),
            "{text}"
        );
    }
}

/// (program, clang-15's first error as `line:col: error: text`).
const INVALID: &[(&str, &str)] = &[
    (
        "_Static_assert(sizeof(int) == 8, \"int is 8\");",
        "1:1: error: static assertion failed due to requirement 'sizeof(int) == 8': int is 8",
    ),
    (
        "_Static_assert(0, \"zero\");",
        "1:1: error: static assertion failed: zero",
    ),
    (
        "#define N 3\n_Static_assert(N  >   4, \"macro\");",
        "2:1: error: static assertion failed due to requirement '3 > 4': macro",
    ),
    (
        "kernel void k(global int *o) {\n  int n = o[0];\n  _Static_assert(n, \"x\");\n}",
        "3:18: error: static assertion expression is not an integral constant expression",
    ),
    (
        "kernel void k(global int *o) { static_assert(1, \"x\"); }",
        "1:32: error: use of undeclared identifier 'static_assert'",
    ),
    (
        "struct S { int a; _Static_assert(sizeof(int) == 2, \"s\"); };",
        "1:19: error: static assertion failed due to requirement 'sizeof(int) == 2': s",
    ),
    (
        "int h = ({ 1; });",
        "1:9: error: statement expression not allowed at file scope",
    ),
    (
        "kernel void k(global int *o) {\n  switch (o[0]) { case 5 ... 7: break; case 6: break; }\n}",
        "2:24: error: duplicate case value '6'",
    ),
    (
        "kernel void k(global int *o) {\n  switch (o[0]) { case 1 ... 9: break; case 5 ... 20: break; }\n}",
        "2:45: error: duplicate case value '9'",
    ),
    (
        "typedef float2 v22 __attribute__((ext_vector_type(2)));",
        "1:35: error: invalid vector element type 'float2' (vector of 2 'float' values)",
    ),
    (
        "typedef bool vb __attribute__((ext_vector_type(2)));",
        "1:32: error: invalid vector element type 'bool'",
    ),
    (
        "float x __attribute__((ext_vector_type(2)));",
        "1:24: error: 'ext_vector_type' attribute only applies to typedefs",
    ),
    (
        "typedef int vz __attribute__((ext_vector_type(0)));",
        "1:31: error: zero vector size",
    ),
    (
        "__attribute__((overloadable)) int g(int x) { return 1; }\n__attribute__((overloadable)) int g(long x) { return 2; }\nkernel void k(global int *o) { o[0] = g(1u); }",
        "3:39: error: call to 'g' is ambiguous",
    ),
    (
        "__attribute__((overloadable)) int g(int x) { return 1; }\n__attribute__((overloadable)) int g(long x) { return 2; }\nkernel void k(global int *o) { o[0] = g(o); }",
        "3:39: error: no matching function for call to 'g'",
    ),
    (
        "__attribute__((overloadable)) int g(int x) { return 1; }\n__attribute__((overloadable)) int g(float x) { return 2; }\nkernel void k(global int *o) { o[0] = g(1L); }",
        "3:39: error: call to 'g' is ambiguous",
    ),
];

#[test]
fn invalid_uses_get_clangs_diagnostics() {
    for (k, (src, want)) in INVALID.iter().enumerate() {
        let log = match compile(src) {
            Ok(_) => panic!("accepted: {src}"),
            Err(e) => e.log,
        };
        assert!(
            log.lines().any(|l| l.ends_with(want)),
            "{src}\nwant {want}\ngot {log}"
        );
        if let Some((ok, clang_log)) = clang(src, &format!("c11gnu-bad{k}")) {
            assert!(!ok, "clang-15 accepts {src}");
            let first = clang_log
                .lines()
                .find(|l| l.contains(": error: "))
                .unwrap_or_default();
            assert!(first.ends_with(want), "clang-15 says {first}, want {want}");
        }
    }
}

#[test]
fn warnings_match_clang() {
    let src = "_Static_assert(1);\nkernel void k(global int *o) { switch (o[0]) { case 3 ... 1: break; } }";
    let m = compile(src).unwrap_or_else(|e| panic!("{}", e.log));
    for want in [
        "1:17: warning: '_Static_assert' with no message is a C2x extension",
        "2:53: warning: empty case range specified",
    ] {
        assert!(m.log.contains(want), "want {want}\n{}", m.log);
        if let Some((_, log)) = clang(src, "c11gnu-warn") {
            assert!(log.contains(want), "clang-15: {log}");
        }
    }
}
