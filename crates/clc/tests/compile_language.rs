//! Language features beyond the basics: string literals as arrays (`sizeof`, char-array
//! initializers), static local variables, designated initializers, compound literals, constant
//! unions and `volatile`. Each module must pass `spv::valid` (OpenCL 2.0 environment) and
//! `spirv-val --target-env opencl2.2` (skipped with a message when absent); the facts checked in
//! the disassembly come from the C rules (hand-computed sizes and bytes).

use std::process::Command;

use clc::options::BuildOptions;
use clc::pp::Target;

fn compile(src: &str, options: &str) -> spv::Module {
    let opts = BuildOptions::parse(options).expect("options");
    let target = Target::default();
    match clc::compile(src, "lang.cl", &opts, &target) {
        Ok(c) => c.module,
        Err(e) => panic!("{}\n--- source ---\n{src}", e.log),
    }
}

fn compile_err(src: &str, options: &str) -> String {
    let opts = BuildOptions::parse(options).expect("options");
    match clc::compile(src, "lang.cl", &opts, &Target::default()) {
        Ok(_) => panic!("expected an error for:\n{src}"),
        Err(e) => e.log,
    }
}

/// Validates with spv::valid and spirv-val; returns spirv-dis's disassembly (friendly names
/// such as `%uchar`), or an empty string when the tools are absent.
fn check(m: spv::Module, cl: spv::valid::ClVersion) -> String {
    let text = spv::disassemble(&m);
    let bytes = m.to_bytes();
    let env = spv::valid::Env::opencl(cl, spv::valid::Profile::Full, 64);
    if let Err(e) = spv::valid::validate(m, &env) {
        panic!("spv::valid rejected the module: {e:?}\n{text}");
    }
    if Command::new("spirv-val").arg("--version").output().is_err() {
        eprintln!("spirv-val not found: skipping its check");
        return String::new();
    }
    let dir = std::env::temp_dir().join(format!("clc-lang-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let file = dir.join(format!("m{}.spv", text.len()));
    std::fs::write(&file, &bytes).expect("write");
    let out = Command::new("spirv-val")
        .args(["--target-env", "opencl2.2"])
        .arg(&file)
        .output()
        .expect("run spirv-val");
    assert!(
        out.status.success(),
        "{}{}\n{text}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    match Command::new("spirv-dis").arg(&file).output() {
        Ok(o) if o.status.success() => String::from_utf8_lossy(&o.stdout).into_owned(),
        _ => {
            eprintln!("spirv-dis not found: skipping the disassembly checks");
            String::new()
        }
    }
}

/// Whether disassembly checks can run (spirv-dis gave text).
fn have(text: &str) -> bool {
    !text.is_empty()
}

fn cl20() -> spv::valid::ClVersion {
    spv::valid::ClVersion::Cl20
}

#[test]
fn sizeof_string_literal_counts_the_nul() {
    let m = compile(
        "__kernel void k(__global ulong *o) { o[0] = sizeof(\"ab\"); o[1] = sizeof \"\"; }",
        "",
    );
    let text = check(m, cl20());
    // C99 6.4.5: "ab" is char[3], "" is char[1].
    assert!(
        !have(&text) || text.contains("OpConstant %ulong 3"),
        "{text}"
    );
    assert!(
        !have(&text) || text.contains("OpConstant %ulong 1"),
        "{text}"
    );
}

#[test]
fn char_arrays_from_string_literals() {
    let src = r#"
        __constant char greeting[] = "hi";
        __kernel void k(__global char *o) {
            char s[] = "abc";
            char t[6] = "xy";
            o[0] = s[0] + t[1] + greeting[1] + (char)sizeof(s) + (char)sizeof(greeting);
        }"#;
    let text = check(compile(src, ""), cl20());
    // s is char[4], greeting char[3].
    assert!(
        !have(&text) || text.contains("OpTypeArray %uchar %uint_4") || text.contains("%uint_4"),
        "{text}"
    );
    assert!(
        !have(&text) || text.contains("OpConstant %uchar 97"),
        "'a' stored: {text}"
    );
    assert!(
        !have(&text) || text.contains("OpConstant %uchar 121"),
        "'y' stored: {text}"
    );
    let err = compile_err("__kernel void k() { int a[2] = \"x\"; }", "");
    assert!(err.contains("initializer list"), "{err}");
}

#[test]
fn static_locals_are_program_scope_globals_in_cl20() {
    let src = "__kernel void k(__global int *o) { static int n = 5; static __global int m; \
               o[0] = n++ + m; }";
    let text = check(compile(src, "-cl-std=CL2.0"), cl20());
    assert!(
        !have(&text) || text.contains("CrossWorkgroup %int_5") || text.contains("CrossWorkgroup"),
        "{text}"
    );
    assert!(
        !have(&text) || text.contains("OpName") && text.contains("k.n"),
        "{text}"
    );
    let err = compile_err("__kernel void k() { static int n = 5; }", "-cl-std=CL1.2");
    assert!(err.contains("constant address space"), "{err}");
    // `static __constant` works in every version.
    let text = check(
        compile(
            "__kernel void k(__global int *o) { static __constant int t[2] = {1, 2}; o[0] = t[1]; }",
            "-cl-std=CL1.2",
        ),
        spv::valid::ClVersion::Cl12,
    );
    assert!(!have(&text) || text.contains("UniformConstant"), "{text}");
}

#[test]
fn designated_initializers() {
    let src = r#"
        typedef struct { int a; float b; int c[3]; } S;
        __constant S cs = { .c = {[2] = 7}, .a = 1 };
        __constant int ci[] = { [4] = 9 };
        __kernel void k(__global int *o) {
            S s = { .b = 2.0f, .c[1] = 3 };
            int v[] = { [3] = 4, 5 };
            o[0] = s.a + (int)s.b + s.c[1] + cs.c[2] + ci[4] + v[4] + (int)sizeof(v) + (int)sizeof(ci);
        }"#;
    let text = check(compile(src, ""), cl20());
    // v has 5 elements, ci 5: arrays of length 5 exist.
    assert!(!have(&text) || text.contains("%uint_5"), "{text}");
    let err = compile_err(
        "typedef struct { int a; } S; __kernel void k() { S s = { .zz = 1 }; }",
        "",
    );
    assert!(err.contains("does not refer to any field"), "{err}");
    let err = compile_err("__kernel void k() { int a[2] = { [2] = 1 }; }", "");
    assert!(err.contains("exceeds array bounds"), "{err}");
}

/// C11 6.7.9p7 with 6.7.2.1p13: a designator may name a member of an anonymous member
/// (pyopencl's `cfloat_t` is `union { struct { float real, imag; }; float2 v; }`), in private
/// and constant objects; positional values after it go on in that member (6.7.9p17). The
/// values are checked by running the kernel (runtime/tests/anonymous_designators.rs).
#[test]
fn designators_into_anonymous_members() {
    let src = r#"
        typedef union { struct { float real, imag; }; float2 v; } cf_t;
        typedef struct { int a; struct { int x, y, z; }; union { int i; float f; }; int b; } S;
        __constant cf_t cz = { .imag = 2.0f };
        __constant S cs = { .y = 3, .f = 1.5f, .b = 9 };
        __kernel void k(__global float *o, __global int *p) {
            cf_t c = { .real = 1.0f, .imag = 2.0f };
            S s = { .x = 1, 2, 3, .i = 4 };
            o[0] = c.imag + cz.imag + cs.f;
            p[0] = s.y + s.z + s.i + cs.b;
        }"#;
    let text = check(compile(src, ""), cl20());
    // cs = { 0, { 0, 3, 0 }, { 1.5f }, 9 }; a union constant is its bytes: 1.5f is
    // 0x3fc00000, little-endian 0 0 192 63.
    assert!(
        !have(&text) || text.contains("%uchar_0 %uchar_0 %uchar_192 %uchar_63"),
        "{text}"
    );
    assert!(!have(&text) || text.contains("%uint_3 %"), "{text}");
    let err = compile_err(
        "typedef struct { int a; struct { int x; }; } S; __kernel void k() { S s = { .y = 1 }; }",
        "",
    );
    assert!(err.contains("does not refer to any field"), "{err}");
}

/// A comparison has type int (C99 6.5.8p6), so built-in overloads taking int win:
/// `select(1, 2, a > b)` is `select(int, int, int)`, not ambiguous with `(int, int, uint)`
/// (clang-15 accepts it).
#[test]
fn comparisons_choose_int_overloads() {
    let src = r#"
        __kernel void k(__global int *o) {
            int2 v = (int2)(1, 2);
            bool b = v.x < v.y;
            o[0] = select(1, 2, v.x > 0) + select(3, 4, b) + abs(v.x == v.y);
        }"#;
    check(compile(src, ""), cl20());
}

/// clang's `__builtin_expect` (used for `likely`/`unlikely` macros) is its first argument as
/// a `long`; clang-15 accepts this source.
#[test]
fn builtin_expect_is_its_first_argument() {
    let src = r#"
        #define likely(x) __builtin_expect(!!(x), 1)
        __kernel void k(__global int *o) {
            if (likely(o[1] == 0)) o[0] = 1;
            o[2] = (int)__builtin_expect(o[3], o[4]);
        }"#;
    check(compile(src, ""), cl20());
    let err = compile_err(
        "__kernel void k(__global int *o) { o[0] = __builtin_expect(1); }",
        "",
    );
    assert!(err.contains("too few arguments"), "{err}");
}

#[test]
fn compound_literals() {
    let src = r#"
        typedef struct { int x, y; } P;
        int sum(P p) { return p.x + p.y; }
        __kernel void k(__global int *o) {
            o[0] = sum((P){1, 2}) + ((int[]){4, 5, 6})[2] + (P){.y = 3}.y;
            int *p = (int[2]){7, 8};
            o[1] = p[1];
        }"#;
    check(compile(src, "-cl-std=CL1.2"), spv::valid::ClVersion::Cl12);
}

#[test]
fn constant_union_initializers() {
    let src = r#"
        typedef union { uint u; float f; uchar b[4]; } U;
        __constant U one = { 0x01020304u };
        __constant U fl = { .f = 1.0f };
        __kernel void k(__global uint *o) { o[0] = one.b[0] + fl.u; U l = { .f = 2.0f }; o[1] = l.u; }"#;
    let text = check(compile(src, ""), cl20());
    // little-endian bytes of 0x01020304 are 4 3 2 1; of 1.0f (0x3f800000) are 0 0 128 63.
    assert!(
        !have(&text) || text.contains("OpConstant %uchar 63"),
        "{text}"
    );
    assert!(
        !have(&text) || text.contains("OpConstant %uchar 128"),
        "{text}"
    );
    assert!(
        !have(&text) || text.contains("OpConstant %uchar 4"),
        "{text}"
    );
}

/// C99 6.5.2.3: `f().member` of a union returned by value (pyopencl's complex types are unions:
/// `cfloat_cast(cfloat_fromreal(x))` reads `.real` of a call's result).
#[test]
fn members_of_union_values() {
    let src = r#"
        typedef union { struct { float re, im; } s; float2 v; } C;
        C make(float re) { C c; c.s.re = re; c.s.im = 0.0f; return c; }
        typedef union { uint u; float f; } U;
        U bits(float f) { U x; x.f = f; return x; }
        __kernel void k(__global float *o, __global uint *u) {
            o[0] = make(3.0f).s.re + make(4.0f).v.x;
            u[0] = bits(1.0f).u;
        }"#;
    let text = check(compile(src, ""), cl20());
    // The union values are copied to private memory and read through a reinterpreted pointer.
    assert!(
        !have(&text) || text.contains("OpBitcast %_ptr_Function_uint"),
        "{text}"
    );
}

#[test]
fn volatile_accesses_are_marked() {
    let src = r#"
        __kernel void k(volatile __global int *p, __global int *q) {
            volatile int x = p[0];
            x += 1;
            p[1] = x;
            q[0] = 2;
        }"#;
    let text = check(compile(src, ""), cl20());
    let volatile_stores = text
        .lines()
        .filter(|l| l.contains("OpStore") && l.contains("Volatile"))
        .count();
    let volatile_loads = text
        .lines()
        .filter(|l| l.contains("OpLoad") && l.contains("Volatile"))
        .count();
    // stores: x = p[0], x += 1, p[1] = x; loads: p[0], x (for +=), x (for p[1] = x).
    if !have(&text) {
        return;
    }
    assert_eq!(volatile_stores, 3, "{text}");
    assert_eq!(volatile_loads, 3, "{text}");
    let plain_store = text
        .lines()
        .any(|l| l.contains("OpStore") && !l.contains("Volatile"));
    assert!(plain_store, "q[0] = 2 is not volatile: {text}");
}

#[test]
fn objects_export_and_import_functions_for_linking() {
    let opts = BuildOptions::parse("").expect("options");
    let target = Target::default();
    let user = "int helper(int x);\n\
                static int twice(int x) { return 2 * x; }\n\
                __kernel void k(__global int *o) { o[0] = helper(o[1]) + twice(1); }";
    let lib = "int helper(int x) { return x + 1; }";
    let a = clc::compile_object(user, "user.cl", &opts, &target).expect("user object");
    let b = clc::compile_object(lib, "lib.cl", &opts, &target).expect("library object");
    let ta = check(a.module, cl20());
    let tb = check(b.module, cl20());
    // SPIR-V 2.16.1: the declaration is imported, the definition exported, statics stay local.
    assert!(
        !have(&ta) || ta.contains("LinkageAttributes \"helper\" Import"),
        "{ta}"
    );
    assert!(!have(&ta) || !ta.contains("\"twice\" Export"), "{ta}");
    assert!(
        !have(&tb) || tb.contains("LinkageAttributes \"helper\" Export"),
        "{tb}"
    );
    // Without the object mode an undefined callee stays an error.
    let err = match clc::compile(user, "user.cl", &opts, &target) {
        Ok(_) => panic!("expected an error"),
        Err(e) => e.log,
    };
    assert!(err.contains("never defined"), "{err}");
    // spirv-link resolves the import; the result validates.
    if Command::new("spirv-link")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("spirv-link not found: skipping the link check");
        return;
    }
    let dir = std::env::temp_dir().join(format!("clc-link-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let a = clc::compile_object(user, "user.cl", &opts, &target).expect("user object");
    let b = clc::compile_object(lib, "lib.cl", &opts, &target).expect("library object");
    let (fa, fb, out) = (dir.join("a.spv"), dir.join("b.spv"), dir.join("ab.spv"));
    std::fs::write(&fa, a.module.to_bytes()).expect("write");
    std::fs::write(&fb, b.module.to_bytes()).expect("write");
    let link = Command::new("spirv-link")
        .args(["--target-env", "opencl2.2"])
        .arg(&fa)
        .arg(&fb)
        .arg("-o")
        .arg(&out)
        .output()
        .expect("run spirv-link");
    assert!(
        link.status.success(),
        "{}",
        String::from_utf8_lossy(&link.stderr)
    );
    let val = Command::new("spirv-val")
        .args(["--target-env", "opencl2.2"])
        .arg(&out)
        .output()
        .expect("run spirv-val");
    assert!(
        val.status.success(),
        "{}",
        String::from_utf8_lossy(&val.stderr)
    );
}

/// A struct holding pointers to itself (a linked list node, in two address spaces) is declared
/// with `OpTypeForwardPointer` before the struct and its `OpTypePointer` after (SPIR-V 2.4); the
/// node is 24 bytes (C layout: a long, then two 8-byte pointers).
#[test]
fn self_referencing_struct_uses_a_forward_pointer() {
    let m = compile(
        "typedef struct node { long value; global struct node *next; \
                               private struct node *scratch; } node;\n\
         __kernel void k(__global node *n, __global ulong *o) {\n\
             o[0] = sizeof(node);\n\
             long s = 0;\n\
             for (global node *p = n; p; p = p->next) s += p->value;\n\
             n[1].next = &n[0];\n\
             o[1] = s;\n\
         }",
        "",
    );
    let text = check(m, cl20());
    if have(&text) {
        assert!(text.contains("OpTypeForwardPointer"), "{text}");
        assert!(text.contains("%ulong_24"), "sizeof(node) is 24:\n{text}");
    }
}
