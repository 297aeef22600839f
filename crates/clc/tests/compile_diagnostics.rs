//! Negative cases: each source must fail with the given clang-style diagnostic (text and
//! `line:col`), written by hand from what clang reports for the same mistake.

use clc::options::BuildOptions;
use clc::pp::Target;

fn errors_of(src: &str) -> String {
    let opts = BuildOptions::parse("").expect("options");
    let target = Target::default();
    match clc::compile(src, "t.cl", &opts, &target) {
        Ok(_) => panic!("expected an error for:\n{src}"),
        Err(e) => e.log,
    }
}

fn check(src: &str, expected: &[&str]) {
    let log = errors_of(src);
    for e in expected {
        assert!(log.contains(e), "missing `{e}` in:\n{log}");
    }
}

fn k(body: &str) -> String {
    format!("__kernel void k(__global int *p)\n{{\n{body}\n}}\n")
}

#[test]
fn undeclared_identifier() {
    check(
        &k("    int x = y + 1;"),
        &["t.cl:3:13: error: use of undeclared identifier 'y'"],
    );
}

#[test]
fn assignment_to_const() {
    check(
        &k("    const int c = 3;\n    c = 4;"),
        &["t.cl:4:5: error: cannot assign to variable 'c' with const-qualified type 'const int'"],
    );
}

#[test]
fn missing_semicolon_and_recovery_reports_every_error() {
    let log = errors_of(&k(
        "    int x = ;\n    p[0] = 1\n    p[1] = 2;\n    int z = w;",
    ));
    assert!(
        log.contains("t.cl:3:13: error: expected expression"),
        "{log}"
    );
    assert!(
        log.contains("t.cl:4:13: error: expected ';' after expression"),
        "{log}"
    );
    // clang-15 also reports the semantic error after the syntax errors.
    assert!(
        log.contains("t.cl:6:13: error: use of undeclared identifier 'w'"),
        "{log}"
    );
    assert!(log.contains("3 errors generated."), "{log}");
}

#[test]
fn vector_literal_component_count() {
    check(
        &k("    float4 f = (float4)(1.0f, 2.0f);"),
        &["t.cl:3:16: error: too few elements in vector initialization (expected 4 elements, have 2)"],
    );
}

/// clang-15 points at the declarator (4:12).
#[test]
fn implicit_vector_conversion_is_an_error() {
    check(
        &k("    int2 v = (int2)(1, 2);\n    float2 w = v;"),
        &["t.cl:4:12: error: initializing 'float2' from incompatible type 'int2'"],
    );
}

#[test]
fn vector_cast_between_types_is_an_error() {
    check(
        &k("    int4 v = (int4)(1);\n    float4 f = (float4)v;"),
        &["t.cl:4:16: error: invalid conversion between vector type 'int4' and 'float4'"],
    );
}

#[test]
fn unknown_function() {
    check(
        &k("    p[0] = foo(3);"),
        &["t.cl:3:12: error: implicit declaration of function 'foo' is invalid in OpenCL"],
    );
}

#[test]
fn builtin_without_matching_overload() {
    check(
        &k("    p[1] = max(p, 2);"),
        &[
            "t.cl:3:12: error: no matching function for call to 'max'",
            "note: candidate function not viable",
        ],
    );
}

/// clang-15 points at the closing parenthesis (2:46).
#[test]
fn wrong_argument_count_to_user_function() {
    check(
        "int f(int a, int b) { return a + b; }\n__kernel void k(__global int *p) { p[0] = f(1); }\n",
        &["t.cl:2:46: error: too few arguments to function call, expected 2, have 1"],
    );
}

#[test]
fn return_value_rules() {
    check(
        &k("    return 5;"),
        &["t.cl:3:12: error: void function 'k' should not return a value"],
    );
    check(
        "int bad(void) { return; }\n",
        &["t.cl:1:17: error: non-void function 'bad' should return a value"],
    );
}

#[test]
fn kernel_must_return_void() {
    check(
        "__kernel int k3(void) { return 1; }\n",
        &["t.cl:1:1: error: kernel must have void return type"],
    );
}

#[test]
fn double_needs_fp64() {
    check(
        &k("    double d = 1.0;"),
        &["t.cl:3:5: error: use of type 'double' requires cl_khr_fp64 support"],
    );
}

#[test]
fn recursion_is_diagnosed() {
    check(
        "void r2(int n);\nvoid r1(int n) { r2(n); }\nvoid r2(int n) { r1(n); }\n",
        &["error: recursive call to 'r1': recursion is not allowed in OpenCL C"],
    );
}

/// clang-15 points at the operator (4:15).
#[test]
fn invalid_operands() {
    check(
        &k("    float f = 1.0f;\n    int x = f % 2;"),
        &["t.cl:4:15: error: invalid operands to binary expression ('float' and 'int')"],
    );
}

#[test]
fn bad_swizzle() {
    check(
        &k("    float2 v = (float2)(1.0f);\n    float z = v.z;"),
        &["t.cl:4:17: error: vector component access exceeds type"],
    );
}

#[test]
fn private_pointer_kernel_argument() {
    check(
        "__kernel void k(int *p) { }\n",
        &["t.cl:1:22: error: kernel parameter cannot be declared as a pointer to the __private address space"],
    );
}

#[test]
fn break_outside_loop() {
    check(
        &k("    break;"),
        &["t.cl:3:5: error: 'break' statement not in loop or switch statement"],
    );
}

#[test]
fn warnings_do_not_fail_and_are_logged() {
    let opts = BuildOptions::parse("").expect("options");
    let c =
        clc::compile("int h(int a) { }\n", "t.cl", &opts, &Target::default()).expect("compiles");
    assert!(
        c.log
            .contains("t.cl:1:16: warning: non-void function does not return a value"),
        "{}",
        c.log
    );
}

#[test]
fn werror_turns_warnings_into_errors() {
    let opts = BuildOptions::parse("-Werror").expect("options");
    let r = clc::compile("int h(int a) { }\n", "t.cl", &opts, &Target::default());
    assert!(r.is_err());
}

#[test]
fn declared_but_undefined_function() {
    check(
        "float g(float);\n__kernel void k(__global float *p) { p[0] = g(1.0f); }\n",
        &["t.cl:2:45: error: function 'g' is used but never defined"],
    );
}

#[test]
fn half_arithmetic_needs_fp16() {
    check(
        "__kernel void k(__global half *p) { half x = p[0]; }\n",
        &["error: loading directly from pointer to type 'half' requires cl_khr_fp16; use vload_half"],
    );
}

#[test]
fn version_gated_builtin() {
    check(
        "__kernel void k(__global uint *p) { p[0] = get_local_linear_id(); }\n",
        &["t.cl:1:44: error: implicit declaration of function 'get_local_linear_id' is invalid in OpenCL"],
    );
}

#[test]
fn unknown_parameter_type_and_the_body_errors() {
    // clang-15 reports the unknown type and still checks the body.
    let log = errors_of("__kernel void k(__global foo *p) { x; y; }\nconstant int ok = 1;\n");
    assert!(
        log.contains("t.cl:1:26: error: unknown type name 'foo'"),
        "{log}"
    );
    assert!(
        log.contains("t.cl:1:36: error: use of undeclared identifier 'x'"),
        "{log}"
    );
    assert!(log.contains("3 errors generated."), "{log}");
}

/// Syntax and semantic errors of one file all reported, without cascades: the expected
/// lines are what clang-15 reports for the same file (clang also reports the short vector
/// literal of line 7, which is lost with its statement here).
#[test]
fn syntax_and_semantic_errors_together() {
    let src = "struct S { int a; int b };
float helper(float x) { return x * 2.0f }
int bad_params(int a, ) { return a; }
__kernel void k(__global float *p, __global int *q)
{
    int i = get_global_id(0);
    float4 v = (float4)(1.0f, 2.0f;
    p[i] = v.x + helper(p[i]);
    q[i] = bad_params(i);
    q[i] = undeclared_thing;
    for (int j = 0; j < 4 +; j++) { q[j] = j; }
    goto nowhere;
}
__kernel void k2(__global int *q) {
    q[0] = (1 + ;
    q[1] = missing_too;
    struct S s; s.a = 1; s.c = 2;
}
";
    let log = errors_of(src);
    let expected = [
        "t.cl:1:24: warning: expected ';' at end of declaration list",
        "t.cl:2:40: error: expected ';' after return statement",
        "t.cl:3:23: error: expected parameter declarator",
        "t.cl:7:35: error: expected ')'",
        "t.cl:10:12: error: use of undeclared identifier 'undeclared_thing'",
        "t.cl:11:28: error: expected expression",
        "t.cl:12:10: error: use of undeclared label 'nowhere'",
        "t.cl:15:17: error: expected expression",
        "t.cl:16:12: error: use of undeclared identifier 'missing_too'",
        "t.cl:17:28: error: no member named 'c' in 'struct S'",
    ];
    for e in expected {
        assert!(log.contains(e), "missing `{e}` in:\n{log}");
    }
    assert!(log.contains("9 errors generated."), "{log}");
    assert!(!log.contains("does not return"), "{log}");
}

/// An error inside the parentheses of `if`/`while`/`for`/`switch` does not lose the body.
#[test]
fn errors_in_conditions_keep_the_body() {
    let log = errors_of(&k(
        "    if (p[0] +) { p[1] = a; }\n    while (*) { p[2] = b; }\n    switch (p[0] +) { case 1: p[3] = c; }",
    ));
    for e in [
        "t.cl:3:15: error: expected expression",
        "t.cl:3:26: error: use of undeclared identifier 'a'",
        "t.cl:4:13: error: expected expression",
        "t.cl:4:24: error: use of undeclared identifier 'b'",
        "t.cl:5:19: error: expected expression",
        "t.cl:5:38: error: use of undeclared identifier 'c'",
    ] {
        assert!(log.contains(e), "missing `{e}` in:\n{log}");
    }
    assert!(log.contains("6 errors generated."), "{log}");
}

#[test]
fn top_level_recovery_skips_the_body() {
    let log = errors_of("__kernel void k(__global int *p, ) { a; b; c; }\n__kernel void j(__global int *q) { q[0] = 1 }\n");
    assert!(
        log.contains("t.cl:1:34: error: expected parameter declarator"),
        "{log}"
    );
    assert!(
        log.contains("t.cl:2:44: error: expected ';' after expression"),
        "{log}"
    );
    assert!(log.contains("2 errors generated."), "{log}");
}

#[test]
fn infinite_loops_need_no_return_after_them() {
    let src = "int f(int x) { while (1) { if (x > 3) return x; x++; } }\n\
               int g(int x) { for (;;) { x++; if (x > 9) return x; } }\n";
    let opts = BuildOptions::parse("").expect("options");
    let c = clc::compile(src, "t.cl", &opts, &Target::default()).expect("compiles");
    assert_eq!(c.log, "", "no warning expected");
}

#[test]
fn images_need_a_device_with_image_support() {
    check(
        "__kernel void k(__read_only image2d_t img, __global float4 *o) { }\n",
        &["t.cl:1:17: error: type 'image2d_t' requires image support, which this device does not have"],
    );
}
