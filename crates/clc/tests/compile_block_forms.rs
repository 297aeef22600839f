//! Blocks as function parameters (OpenCL C 2.0 §1.12.5 Example 1; OpenCL C 3.0 §6.12.5
//! forbids them again) and program-scope Block variables (§1.12.3, §1.12.5 Examples 3-4):
//! modules pass `spv::valid` and `spirv-val --target-env opencl2.0`, a function with Block
//! parameters is emitted once per combination of literals (no function pointers in SPIR-V),
//! and the rules are diagnosed. The kernels run in runtime/tests/block_forms.rs.
//! clang-15 refuses Block parameters even for CL2.0 (with the 3.0 message checked here) and
//! accepts the program-scope forms; llvm-spirv-15 then emits the `__block_literal_global`
//! constant this compiler emits too.

use std::process::Command;

use clc::options::BuildOptions;
use clc::pp::Target;

fn compile(src: &str, options: &str) -> Result<clc::Compiled, clc::CompileError> {
    let opts = BuildOptions::parse(options).expect("options");
    let target = Target {
        features: vec![
            "__opencl_c_device_enqueue".into(),
            "__opencl_c_generic_address_space".into(),
            "__opencl_c_program_scope_global_variables".into(),
        ],
        ..Target::default()
    };
    clc::compile(src, "blk.cl", &opts, &target)
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
    let f = std::env::temp_dir().join(format!("clc-blockforms-{tag}-{}.spv", std::process::id()));
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

/// Definitions (`OpFunction` lines) whose name starts with `prefix`.
fn functions_named(text: &str, prefix: &str) -> usize {
    text.lines()
        .filter(|l| {
            l.contains("= OpFunction ") && l.trim_start().starts_with(&format!("%{prefix}"))
        })
        .count()
}

const EXAMPLE_1: &str = r#"
void foo(global int *x, int (^bar)(int, int))
{
    *x = bar(*x, *x);
}
int twice(int v, int (^f)(int));
int apply(int v, int (^f)(int), int (^g)(int)) { return twice(f(v), g); }
int twice(int v, int (^f)(int)) { return f(f(v)); }
kernel void k(global int *x, global int *z)
{
    if (*z > 2)
        foo(x, ^int(int x, int y){ return x + y + *z; });
    else
        foo(x, ^int(int x, int y){ return (x * y) - *z; });
    int (^inc)(int) = ^(int a) { return a + 1; };
    x[1] = twice(x[1], inc) + twice(x[2], inc) + apply(1, inc, inc);
}
"#;

#[test]
fn block_parameters_are_specialized_per_literal() {
    let m = compile(EXAMPLE_1, "-cl-std=CL2.0").unwrap_or_else(|e| panic!("{}", e.log));
    let text = validate(m, "ex1");
    if text.is_empty() {
        return;
    }
    // foo: one body per literal; twice: one for `inc` (both calls and the call from apply
    // share it); apply: one.
    assert_eq!(functions_named(&text, "foo_blocks"), 2, "{text}");
    assert_eq!(functions_named(&text, "twice_blocks"), 1, "{text}");
    assert_eq!(functions_named(&text, "apply_blocks"), 1, "{text}");
    // No function of the template's own name (it only exists specialized).
    assert!(!text.contains("OpName %foo \"foo\""), "{text}");
}

#[test]
fn block_parameters_are_refused_outside_opencl_c_2_0() {
    let src = "void f(global int *x, int (^bar)(int)) { *x = bar(*x); }";
    let err = compile(src, "-cl-std=CL3.0").expect_err("3.0 forbids Block parameters");
    assert!(
        err.log.contains(
            "1:29: error: declaring function parameter of type 'int (^)(int)' is not allowed"
        ),
        "{}",
        err.log
    );
    // Calls of the refused function are not reported again as implicit declarations.
    let err = compile(
        "int f(int (^b)(void)) { return b(); } kernel void k(global int *p) { *p = f(^{ return 1; }); }",
        "-cl-std=CL3.0",
    )
    .expect_err("3.0");
    assert!(!err.log.contains("implicit declaration"), "{}", err.log);
    if !tool("clang-15") {
        eprintln!("clang-15 not found: skipping the comparison");
        return;
    }
    let f = std::env::temp_dir().join(format!("clc-blockparam-{}.cl", std::process::id()));
    std::fs::write(&f, src).expect("write");
    let out = Command::new("clang-15")
        .args([
            "-c",
            "-emit-llvm",
            "-target",
            "spir64",
            "-cl-std=CL3.0",
            "-o",
            "/dev/null",
        ])
        .arg(&f)
        .output()
        .expect("clang-15");
    let _ = std::fs::remove_file(&f);
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        log.contains("1:29: error: declaring function parameter of type"),
        "{log}"
    );
}

/// A function with Block parameters that nothing calls is still type-checked (clang checks
/// every function body): its errors are reported at clang-15's places (clang-15 also
/// refuses the parameters themselves, see above). A valid one compiles and adds nothing to
/// the module.
#[test]
fn never_called_block_parameter_functions_are_checked() {
    let src = "int apply(int x, int (^op)(int)) {\n  int y = undefined_thing + x;\n  return op(y, 2);\n}\nkernel void k(global int *o) { o[0] = 1; }\n";
    let err = compile(src, "-cl-std=CL2.0").expect_err("errors in an uncalled body");
    for want in [
        "2:11: error: use of undeclared identifier 'undefined_thing'",
        "3:16: error: too many arguments to block call, expected 1, have 2",
    ] {
        assert!(err.log.contains(want), "want {want}\n{}", err.log);
    }
    let ok = "int twice(int x, int (^op)(int)) { int y = op(x); int (^b)(int) = ^(int v) { return v + 1; }; return op(b(y)) + x; }\nkernel void k(global int *o) { o[0] = 1; }\n";
    let m = compile(ok, "-cl-std=CL2.0").unwrap_or_else(|e| panic!("{}", e.log));
    let text = validate(m, "uncalled");
    assert!(!text.contains("twice"), "{text}");
    if !tool("clang-15") {
        eprintln!("clang-15 not found: skipping the comparison");
        return;
    }
    let f = std::env::temp_dir().join(format!("clc-uncalled-{}.cl", std::process::id()));
    std::fs::write(&f, src).expect("write");
    let out = Command::new("clang-15")
        .args([
            "-c",
            "-emit-llvm",
            "-target",
            "spir64",
            "-cl-std=CL2.0",
            "-o",
            "/dev/null",
        ])
        .arg(&f)
        .output()
        .expect("clang-15");
    let _ = std::fs::remove_file(&f);
    let log = String::from_utf8_lossy(&out.stderr);
    for want in [
        "2:11: error: use of undeclared identifier 'undefined_thing'",
        "3:16: error: too many arguments to block call, expected 1, have 2",
    ] {
        assert!(log.contains(want), "clang-15: {log}");
    }
}

const PROGRAM_SCOPE: &str = r#"
int GlobalInt = 0;
int (^getGlobalInt)(void) = ^{ return GlobalInt; };
constant int C = 5;
int (^addC)(int) = ^(int a) { return C + a; };
int (^alias)(int) = addC;
void (^bl0)(void) = ^{ GlobalInt = 1; };
kernel void k(global int *x)
{
    void (^bl2)(void) = ^{ bl0(); };
    bl2();
    x[0] = getGlobalInt() + addC(3) + alias(4);
    enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), bl0);
}
"#;

#[test]
fn program_scope_block_variables_compile_like_clang() {
    for std in ["-cl-std=CL2.0", "-cl-std=CL3.0"] {
        let m = compile(PROGRAM_SCOPE, std).unwrap_or_else(|e| panic!("{std}: {}", e.log));
        let text = validate(m, "ps");
        if text.is_empty() {
            return;
        }
        // As llvm-spirv-15 for clang-15's output: a `CrossWorkgroup` constant literal per
        // program-scope literal (the alias shares addC's), invoke functions named after the
        // variables, and bl0's enqueue kernel.
        let literals = text
            .lines()
            .filter(|l| l.contains("OpVariable") && l.contains("__block_literal_global"))
            .count();
        assert_eq!(literals, 3, "{text}");
        for name in [
            "getGlobalInt_block_invoke",
            "addC_block_invoke",
            "bl0_block_invoke",
            "bl0_block_invoke_kernel",
        ] {
            assert!(text.contains(&format!("\"{name}\"")), "{name}\n{text}");
        }
    }
}

/// §1.12.5 and Example 3's illegal lines; messages as clang-15's where clang diagnoses them.
#[test]
fn program_scope_block_rules_are_diagnosed() {
    let cases: &[(&str, &str)] = &[
        (
            "int (^getAnotherGlobalInt)(void);",
            "1:7: error: invalid block variable declaration - must be initialized",
        ),
        (
            "extern int (^getExternGlobalInt)(void);",
            "error: invalid block variable declaration - using 'extern' storage class is disallowed",
        ),
        (
            "int g; int (^getg)(void) = ^{ return g; }; void foo() { getg = ^{ return 0; }; }",
            "error: expression is not assignable",
        ),
        (
            "int (^b)(void) = ^{ return 1; }; float (^c)(void) = b;",
            "error: initializing 'float (^)(void)' with an expression of incompatible type 'int (^)(void)'",
        ),
        (
            "int (^b)(void) = ^{ return 1; }; int (^b)(void) = ^{ return 2; };",
            "error: redefinition of 'b'",
        ),
        (
            "int f(int (^b)(int)) { return b(1); } kernel void k(global int *p) { *p = f(^{ return 1; }); }",
            "error: passing 'int (^)(void)' to parameter of incompatible type 'int (^)(int)'",
        ),
        (
            "int f(int (^b)(void)) { return b(); } kernel void k(global int *p) { *p = f(3); }",
            "error: passing 'int' to parameter of incompatible type 'int (^)(void)'",
        ),
        (
            "kernel void k(int (^b)(void)) {}",
            "1:21: error: declaring function parameter of type 'int (^)(void)' is not allowed",
        ),
        (
            "int f(int (^b)(void)) { return f(b); } kernel void k(global int *p) { *p = f(^{ return 1; }); }",
            "error: recursive call to 'f': recursion is not allowed in OpenCL C",
        ),
        (
            "int f(int (^b)(void)) { return f(^{ return 2; }); } kernel void k(global int *p) { *p = f(^{ return 1; }); }",
            "error: recursive call to 'f': recursion is not allowed in OpenCL C",
        ),
        (
            "int f(int (^b)(void)) { int (^c)(void) = ^{ return b(); }; return c(); } kernel void k(global int *p) { *p = f(^{ return 1; }); }",
            "error: cannot refer to a block inside block",
        ),
        (
            "int f(int (^b)(void)); kernel void k(global int *p) { *p = f(^{ return 1; }); }",
            "error: function 'f' is used but never defined",
        ),
    ];
    for (src, want) in cases {
        let err = compile(src, "-cl-std=CL2.0").expect_err(src);
        assert!(
            err.log.contains(want),
            "{src}\nwant: {want}\ngot: {}",
            err.log
        );
    }
    // The first two are clang-15's diagnostics too.
    if !tool("clang-15") {
        eprintln!("clang-15 not found: skipping the comparison");
        return;
    }
    let dir = std::env::temp_dir().join(format!("clc-blockrules2-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    for (i, (src, want)) in cases.iter().take(2).enumerate() {
        let f = dir.join(format!("r{i}.cl"));
        std::fs::write(&f, src).expect("write");
        let out = Command::new("clang-15")
            .args([
                "-c",
                "-emit-llvm",
                "-target",
                "spir64",
                "-cl-std=CL2.0",
                "-o",
                "/dev/null",
            ])
            .arg(&f)
            .output()
            .expect("clang-15");
        let log = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "clang accepts {src}");
        assert!(log.contains(want), "clang: {log}\nwant: {want}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Physical32: the same modules are valid with 32-bit pointers (12-byte literal headers).
#[test]
fn block_forms_validate_on_physical32() {
    let opts = BuildOptions::parse("-cl-std=CL2.0").expect("options");
    let target = Target {
        address_bits: 32,
        features: vec!["__opencl_c_device_enqueue".into()],
        ..Target::default()
    };
    for src in [EXAMPLE_1, PROGRAM_SCOPE] {
        let m =
            clc::compile(src, "blk32.cl", &opts, &target).unwrap_or_else(|e| panic!("{}", e.log));
        let env =
            spv::valid::Env::opencl(spv::valid::ClVersion::Cl20, spv::valid::Profile::Full, 32);
        if let Err(e) = spv::valid::validate(m.module, &env) {
            panic!("spv::valid: {e:?}");
        }
    }
}
