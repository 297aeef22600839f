//! Minimal reproductions, written here, of what real-world OpenCL C (image-processing and
//! password-hashing kernels of public projects, not stored in this repository) needed from the
//! compiler: a scalar argument splatting to a vector parameter of a built-in (clang's vector
//! splat conversion), `INFINITY`/`HUGE_VALF` (clang's `__builtin_inff()`), and prototypes that
//! are never defined nor called (no `OpName` for an id that is never defined). Each program is
//! accepted by clang-15 (checked when it is installed), compiles for OpenCL C 1.2 and 2.0 and
//! passes spv::valid and spirv-val; the overload picked is the one clang-15 picks.

use std::process::Command;

use clc::options::BuildOptions;
use clc::pp::Target;

// Only the clang-15 run is used here.
#[allow(dead_code)]
mod warn_util;
use warn_util::clang15 as clang;

fn tool(name: &str) -> bool {
    Command::new(name).arg("--version").output().is_ok()
}

/// Compiles `src` for `std` ("CL1.2" or "CL2.0"), validates it with spv::valid and spirv-val
/// and returns spirv-dis's text (empty when the tools are absent).
fn build(src: &str, std: &str, tag: &str) -> String {
    let opts = BuildOptions::parse(&format!("-cl-std={std}")).expect("options");
    let compiled = match clc::compile(src, "repro.cl", &opts, &Target::default()) {
        Ok(c) => c,
        Err(e) => panic!("{tag} ({std}) does not compile:\n{}", e.log),
    };
    let bytes = compiled.module.to_bytes();
    let (version, env_name) = if std == "CL1.2" {
        (spv::valid::ClVersion::Cl12, "opencl1.2")
    } else {
        (spv::valid::ClVersion::Cl20, "opencl2.0")
    };
    let env = spv::valid::Env::opencl(version, spv::valid::Profile::Full, 64);
    if let Err(e) = spv::valid::validate(compiled.module, &env) {
        panic!("{tag} ({std}): spv::valid: {e:?}");
    }
    if !tool("spirv-val") || !tool("spirv-dis") {
        eprintln!("spirv-val or spirv-dis not found: skipping their checks");
        return String::new();
    }
    let f = std::env::temp_dir().join(format!("clc-rwrepro-{tag}-{}.spv", std::process::id()));
    std::fs::write(&f, bytes).expect("write");
    let val = Command::new("spirv-val")
        .args(["--target-env", env_name])
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
        "{tag} ({std}): {}",
        String::from_utf8_lossy(&val.stderr)
    );
    String::from_utf8_lossy(&dis.stdout).into_owned()
}

fn clang_accepts(src: &str, tag: &str) {
    if let Some((ok, stderr)) = clang(src, tag) {
        assert!(ok, "clang-15 rejects {tag}:\n{stderr}");
    }
}

/// The OpenCL.std instructions of the module's function bodies, in order.
fn ext_insts(dis: &str) -> Vec<String> {
    dis.lines()
        .filter(|l| l.contains("OpExtInst "))
        .map(|l| l.split_whitespace().nth(5).unwrap_or("").to_string())
        .collect()
}

/// clang-15 resolves these by splatting the scalar argument (its mangled callees are
/// `_Z4fmaxDv4_fS_`, `_Z5clampDv4_iS_S_`, `_Z11native_powrDv4_fS_`, `_Z3powDv4_fS_`,
/// `_Z4stepfDv4_f`), and still prefers an overload that takes the scalar as it is
/// (`fmin(float4, 1)` is `_Z4fminDv4_ff`).
const SPLAT: &str = r#"
kernel void k(global float4 *o, global int4 *p, float f, int i) {
  o[0] = fmax(f, o[1]);
  p[0] = clamp(p[1], i, p[2]);
  o[2] = native_powr(o[3], f);
  o[3] = pow(o[3], i);
  p[1] = max(i, p[1]);
  o[4] = mix(f, o[2], o[3]);
  o[5] = step(f, o[1]);
  o[6] = fmin(o[1], 1);
}
"#;

#[test]
fn scalar_arguments_splat_to_vector_parameters() {
    clang_accepts(SPLAT, "splat");
    for std in ["CL1.2", "CL2.0"] {
        let dis = build(SPLAT, std, "splat");
        if dis.is_empty() {
            continue;
        }
        let insts = ext_insts(&dis);
        for want in [
            "fmax",
            "s_clamp",
            "native_powr",
            "pow",
            "s_max",
            "mix",
            "step",
            "fmin",
        ] {
            assert!(
                insts.iter().any(|i| i == want),
                "{std}: no OpenCL.std {want} in {insts:?}"
            );
        }
        // Every one of them works on four lanes: no scalar OpenCL.std call is left.
        for line in dis.lines().filter(|l| l.contains("OpExtInst ")) {
            let ty = line.split_whitespace().nth(3).unwrap_or("");
            assert!(ty.starts_with("%v4"), "{std}: not a vector call: {line}");
        }
    }
}

/// A scalar that converts to the vector's element type splats too (`pow(float4, int)`), but a
/// vector never converts to a vector of another type: clang-15 and oxcl both reject this.
#[test]
fn no_vector_to_vector_conversion_through_an_argument() {
    let src = "kernel void k(global float4 *o, global int4 *p) { o[0] = fmax(o[1], p[0]); }";
    if let Some((ok, _)) = clang(src, "nosplat") {
        assert!(!ok, "clang-15 accepts a vector conversion");
    }
    let opts = BuildOptions::parse("-cl-std=CL1.2").expect("options");
    let err = match clc::compile(src, "repro.cl", &opts, &Target::default()) {
        Ok(_) => panic!("fmax(float4, int4) compiled"),
        Err(e) => e.log,
    };
    assert!(
        err.contains("no matching function for call to 'fmax'"),
        "{err}"
    );
}

/// `INFINITY` and `HUGE_VALF` are `__builtin_inff()` and `__builtin_huge_valf()` (2.0 §6.13.2,
/// clang's opencl-c-base.h), in a function and in a program-scope constant.
const INFINITIES: &str = r#"
__constant float lowest = -INFINITY;
kernel void k(global float *o, int n) {
  float m = INFINITY;
  for (int i = 0; i < n; i++) m = min(o[i], m);
  float4 lo = (float4)(-INFINITY, -INFINITY, 0.0f, HUGE_VALF);
  o[0] = m + lo.w + lowest + __builtin_inff() + __builtin_huge_valf();
}
"#;

#[test]
fn infinity_macros_compile() {
    clang_accepts(INFINITIES, "inf");
    for std in ["CL1.2", "CL2.0"] {
        let dis = build(INFINITIES, std, "inf");
        if dis.is_empty() {
            continue;
        }
        // +inf as a 32-bit float is 0x7f800000, -inf 0xff800000.
        assert!(dis.contains("0x1p+128") || dis.contains("Inf"), "{dis}");
        assert!(dis.contains("-0x1p+128") || dis.contains("-Inf"), "{dis}");
    }
}

/// A prototype that is neither defined nor called (hashcat's vendor-specific helpers are
/// declared for every vendor and defined for some) leaves nothing in the module: no `OpName`
/// naming an id without a definition (SPIR-V 2.16.1).
const UNUSED_PROTOTYPE: &str = r#"
uint byte_perm(const uint a, const uint b, const int c);
uint used(uint a);
uint used(uint a) { return a + 1; }
kernel void k(global uint *o) { o[0] = used(o[1]); }
"#;

#[test]
fn unused_prototypes_leave_no_names() {
    clang_accepts(UNUSED_PROTOTYPE, "proto");
    for std in ["CL1.2", "CL2.0"] {
        let dis = build(UNUSED_PROTOTYPE, std, "proto");
        if dis.is_empty() {
            continue;
        }
        assert!(!dis.contains("\"byte_perm\""), "{dis}");
        assert!(dis.contains("OpName %used \"used\""), "{dis}");
    }
}

/// `&&` and `||` with a scalar and a vector operand (a conformance-suite build test): the
/// scalar is widened and the result is a vector, both sides evaluated (1.2 §6.3.h), as
/// clang-15 compiles it. Here `a && b` on `int` and `int4` is an `int4` stored as such.
const MIXED_LOGICAL: &str = r#"
kernel void k(global int4 *out, int a) {
  int4 b = out[0];
  out[1] = a && b;
  out[2] = b || a;
  out[3] = (a > 1) && (b < 3);
}
"#;

#[test]
fn logical_operators_on_a_scalar_and_a_vector() {
    clang_accepts(MIXED_LOGICAL, "logic");
    for std in ["CL1.2", "CL2.0"] {
        let dis = build(MIXED_LOGICAL, std, "logic");
        if dis.is_empty() {
            continue;
        }
        // Component-wise: vector OpLogicalAnd/OpLogicalOr, no short-circuit branch.
        assert!(dis.contains("OpLogicalAnd %v4bool"), "{dis}");
        assert!(dis.contains("OpLogicalOr %v4bool"), "{dis}");
    }
}

/// The 64-bit `atom_*` functions need `cl_khr_int64_base_atomics` (or `_extended_` for
/// min/max/and/or/xor): without it a call is an error with a location, not a module that the
/// device's SPIR-V environment rejects; with it the module declares `Int64Atomics`.
#[test]
fn int64_atomics_follow_the_extensions() {
    let src = "kernel void k(global long *out, local long *mem, long v) {\n  *mem = 0;\n  out[0] = atom_add(mem, v);\n  out[1] = atom_max(mem, v);\n}\n";
    let opts = BuildOptions::parse("-cl-std=CL1.2").expect("options");
    let err = match clc::compile(src, "repro.cl", &opts, &Target::default()) {
        Ok(_) => panic!("64-bit atom_add compiled without cl_khr_int64_base_atomics"),
        Err(e) => e.log,
    };
    assert!(
        err.contains("repro.cl:3:") && err.contains("atom_add"),
        "{err}"
    );
    assert!(
        err.contains("repro.cl:4:") && err.contains("atom_max"),
        "{err}"
    );
    let base_only = Target {
        extensions: vec!["cl_khr_int64_base_atomics".into()],
        ..Target::default()
    };
    let err = match clc::compile(src, "repro.cl", &opts, &base_only) {
        Ok(_) => panic!("64-bit atom_max compiled without cl_khr_int64_extended_atomics"),
        Err(e) => e.log,
    };
    assert!(!err.contains("repro.cl:3:"), "{err}");
    assert!(err.contains("repro.cl:4:"), "{err}");
    let both = Target {
        extensions: vec![
            "cl_khr_int64_base_atomics".into(),
            "cl_khr_int64_extended_atomics".into(),
        ],
        ..Target::default()
    };
    let compiled = match clc::compile(src, "repro.cl", &opts, &both) {
        Ok(c) => c,
        Err(e) => panic!("{}", e.log),
    };
    let words = compiled.module.to_words();
    // OpCapability (opcode 17, one operand) Int64Atomics (12).
    assert!(
        words.windows(2).any(|w| w == [(2 << 16) | 17, 12]),
        "no OpCapability Int64Atomics"
    );
}

/// GNU alternate keywords (`__const`, `__volatile__`, `__inline__`, `__signed`, `__restrict__`),
/// which clang-15 accepts: an image-processing library declares its kernels' inputs
/// `__global __const uchar *`.
const GNU_KEYWORDS: &str = r#"
__inline int f1(__const int a) { return a; }
__inline__ int f2(__const__ int a) { return a; }
static inline int f3(__signed int a, __signed__ char b) { return a + b; }
kernel void k(global int * __restrict o, global __volatile int *v, global int * __restrict__ q,
              global __const uchar *src) {
  __volatile__ int x = 1;
  o[0] = f1(x) + f2(x) + f3(x, 1) + *v + q[0] + src[0];
}
"#;

#[test]
fn gnu_alternate_keywords() {
    clang_accepts(GNU_KEYWORDS, "gnukw");
    for std in ["CL1.2", "CL2.0"] {
        build(GNU_KEYWORDS, std, "gnukw");
    }
    // `__const` is `const`: assigning through it is an error, as in clang-15.
    let src = "kernel void k(global __const int *p) { p[0] = 1; }";
    if let Some((ok, _)) = clang(src, "gnuconst") {
        assert!(!ok, "clang-15 accepts a store through __const");
    }
    let opts = BuildOptions::parse("-cl-std=CL1.2").expect("options");
    assert!(
        clc::compile(src, "repro.cl", &opts, &Target::default()).is_err(),
        "a store through a __const pointer compiled"
    );
}
