//! Each preprocessing directive, macro expansion rules and `#if` arithmetic (C99 6.10).

mod pp_util;
use clc::pp::FpContract;
use pp_util::{check, run};

#[test]
fn object_like_and_undef() {
    check("#define A 1 + 2\nA\n#undef A\nA\n", "1 + 2\nA\n");
}

#[test]
fn function_like_needs_paren() {
    check("#define f(x) [x]\nf f (1) f\n(2)\n", "f [1] [2]\n");
}

#[test]
fn function_like_without_params() {
    check("#define p() int\np() p\n", "int p\n");
}

#[test]
fn space_before_paren_makes_object_like() {
    check("#define f (x) x\nf(1)\n", "(x) x(1)\n");
}

#[test]
fn arguments_are_fully_expanded_first() {
    check(
        "#define ONE 1\n#define id(x) x\n#define twice(x) x x\nid(ONE) twice(ONE)\n",
        "1 1 1\n",
    );
}

#[test]
fn nested_parentheses_and_commas_in_arguments() {
    check("#define first(a, b) a\nfirst((1, 2), 3)\n", "(1, 2)\n");
}

#[test]
fn multi_line_invocation() {
    check("#define f(a, b) a + b\nf(1,\n  2) end\n", "1 + 2 end\n");
}

#[test]
fn painted_blue_self_reference() {
    // C99 6.10.3.4p2: the name is not replaced again.
    check("#define foo foo + 1\nfoo\n", "foo + 1\n");
    check("#define a b\n#define b a\na b\n", "a b\n");
    check(
        "#define f(x) f(x) + x\nf(f(1))\n",
        "f(f(1) + 1) + f(1) + 1\n",
    );
}

#[test]
fn painted_blue_stays_painted_when_rescanned() {
    // `AA` produced inside the expansion of `AA` stays unexpandable even in the outer rescan.
    check(
        "#define AA BB\n#define BB AA\n#define id(x) x\nid(AA)\n",
        "AA\n",
    );
}

#[test]
fn stringize_spacing_and_escapes() {
    check(
        "#define s(x) #x\ns(  a   +\n b  ) s(\"q\\n\") s('\"') s() s(a\\b)\n",
        r#""a + b" "\"q\\n\"" "'\"'" "" "a\b""#,
    );
}

#[test]
fn paste_forms_tokens() {
    check(
        "#define cat(a, b) a ## b\ncat(x, 1) cat(+, =) cat(<<, =) cat(., 5) cat(1, e5)\n",
        "x1 += <<= .5 1e5\n",
    );
}

#[test]
fn paste_result_is_rescanned() {
    check(
        "#define cat(a, b) a ## b\n#define xy 42\ncat(x, y)\n",
        "42\n",
    );
}

#[test]
fn paste_of_macro_arguments_is_not_expanded() {
    check("#define cat(a, b) a ## b\n#define X 1\ncat(X, X)\n", "XX\n");
}

#[test]
fn invalid_paste_is_an_error() {
    let r = run("#define cat(a, b) a ## b\ncat(+, -)\n");
    assert_eq!(
        r.errors(),
        vec!["pasting formed '+-', an invalid preprocessing token"]
    );
    assert_eq!(r.text(), "+ -");
}

#[test]
fn variadic_macros() {
    check(
        "#define v(fmt, ...) f(fmt, __VA_ARGS__)\nv(a, 1, 2) v(b, 1) v(c)\n",
        "f(a, 1, 2) f(b, 1) f(c, )\n",
    );
}

#[test]
fn gnu_comma_paste_drops_comma_for_empty_va_args() {
    check(
        "#define v(fmt, ...) f(fmt, ## __VA_ARGS__)\nv(a) v(b, 1, 2)\n",
        "f(a) f(b, 1, 2)\n",
    );
}

#[test]
fn wrong_argument_count() {
    let r = run("#define f(a, b) a\nf(1) f(1, 2, 3) x\n");
    assert_eq!(
        r.errors(),
        vec![
            "too few arguments provided to function-like macro invocation",
            "too many arguments provided to function-like macro invocation",
        ]
    );
    assert_eq!(r.text(), "x");
}

#[test]
fn unterminated_invocation() {
    let r = run("#define f(a) a\nf(1, 2\n");
    assert_eq!(
        r.errors(),
        vec!["unterminated function-like macro invocation"]
    );
}

#[test]
fn define_errors() {
    let r = run(
        "#define\n#define 3\n#define defined\n#define f(a, a) a\n#define g(a b) a\n#define h(a) #b\n#define i ## x\n#define j x ##\n",
    );
    assert_eq!(
        r.errors(),
        vec![
            "macro name missing",
            "macro name must be an identifier",
            "'defined' cannot be used as a macro name",
            "duplicate macro parameter name 'a'",
            "expected ',' or ')' in macro parameter list",
            "'#' is not followed by a macro parameter",
            "'##' cannot appear at either end of a macro expansion",
            "'##' cannot appear at either end of a macro expansion",
        ]
    );
}

#[test]
fn hash_in_object_like_macro_is_a_token() {
    check("#define H # x\nH\n", "# x\n");
}

#[test]
fn macro_expanding_to_directive_is_not_a_directive() {
    check("#define D #define\nD X 1\nX\n", "#define X 1\nX\n");
}

#[test]
fn conditionals_nest() {
    check(
        r#"#define A
#ifdef A
a
#ifndef A
no1
#elif 1
b
#else
no2
#endif
#else
no3
#if 1
no4
#endif
#endif
#ifndef B
c
#endif
#if 0
#if 1
no5
#else
no6
#endif
#elif defined A && !defined(B)
d
#elif 1
no7
#endif
"#,
        "a\nb\nc\nd\n",
    );
}

#[test]
fn skipped_groups_may_hold_garbage() {
    check(
        "#if 0\n#bogus directive\ndon't ' \" @ $\n#error not reached\n#else\nok\n#endif\n",
        "ok\n",
    );
}

#[test]
fn unbalanced_conditionals() {
    let r = run("#endif\n#else\n#elif 1\n#if 1\n#else\n#else\n#endif\n#if 1\n");
    assert_eq!(
        r.errors(),
        vec![
            "#endif without #if",
            "#else without #if",
            "#elif without #if",
            "#else after #else",
            "unterminated conditional directive",
        ]
    );
}

#[test]
fn if_expression_arithmetic() {
    // Each line: an expression whose C value (hand computed) is nonzero.
    let true_exprs = [
        "1 + 2 * 3 == 7",
        "(1 + 2) * 3 == 9",
        "10 / 3 == 3 && 10 % 3 == 1",
        "-7 / 2 == -3 && -7 % 2 == -1",
        "1 << 4 == 16 && 256 >> 4 == 16",
        "(5 & 3) == 1 && (5 | 3) == 7 && (5 ^ 3) == 6",
        "~0 == -1",
        "!0 && !!5 == 1",
        "-1 < 0",
        // Usual arithmetic conversions: -1 becomes UINTMAX_MAX.
        "-1 > 0u",
        "(0u - 1) == 18446744073709551615u",
        "0xffffffffffffffff == -1",
        "0xffffffffffffffff > 0",
        "-1 >> 63 == -1",
        "(1 ? -1 : 0u) > 0",
        "(0 ? 1 : 2) == 2",
        "010 == 8 && 0x10 == 16 && 0b101 == 5",
        "'a' == 97 && '\\n' == 10 && '\\377' == -1 && '\\x41' == 65",
        "2147483647L + 1 == 2147483648",
        "9223372036854775807 + 1 < 0",
        "!(0 && (1 / 0))",
        "1 || (1 % 0)",
        "(0 ? 1 / 0 : 3) == 3",
        "undefined_identifier == 0",
        "true == 0",
        "(1, 2) == 2",
        "defined(__OPENCL_VERSION__) && defined __LINE__",
        "__LINE__ == 1",
        "-9223372036854775807 - 1 < 0",
        "3 > 2 > 0 && (3 > 2) == 1",
        "4 >= 4 && 4 <= 4 && 3 != 4",
    ];
    for e in true_exprs {
        let r = run(&format!("#if {e}\nyes\n#else\nno\n#endif\n"));
        assert!(r.errors().is_empty(), "{e}: {:?}", r.errors());
        assert_eq!(r.text(), "yes", "#if {e}");
    }
    let false_exprs = [
        "0",
        "1 - 1",
        "-1 > 0",
        "0u > 1",
        "1 && 0",
        "0 || 0",
        "(2 > 1) == 2",
    ];
    for e in false_exprs {
        let r = run(&format!("#if {e}\nyes\n#else\nno\n#endif\n"));
        assert!(r.errors().is_empty(), "{e}: {:?}", r.errors());
        assert_eq!(r.text(), "no", "#if {e}");
    }
}

#[test]
fn if_expression_errors() {
    let cases = [
        ("#if\n#endif\n", "#if with no expression"),
        (
            "#if 1 / 0\n#endif\n",
            "division by zero in preprocessor expression",
        ),
        (
            "#if 1 % 0\n#endif\n",
            "remainder by zero in preprocessor expression",
        ),
        (
            "#if 1.5\n#endif\n",
            "floating point literal in preprocessor expression",
        ),
        (
            "#if (1\n#endif\n",
            "expected ')' in preprocessor expression",
        ),
        ("#if 1 +\n#endif\n", "expected value in expression"),
        (
            "#if 1 2\n#endif\n",
            "token is not a valid binary operator in a preprocessor subexpression",
        ),
        (
            "#if 1 ? 2\n#endif\n",
            "expected ':' in conditional expression",
        ),
        (
            "#if \"s\"\n#endif\n",
            "invalid token at start of a preprocessor expression",
        ),
        (
            "#if 1zz\n#endif\n",
            "invalid suffix 'zz' on integer constant",
        ),
        (
            "#if 99999999999999999999\n#endif\n",
            "integer literal is too large to be represented in any integer type",
        ),
        (
            "#if defined\n#endif\n",
            "macro name missing after 'defined'",
        ),
        ("#if defined(X\n#endif\n", "missing ')' after 'defined'"),
        ("#if 09\n#endif\n", "invalid digit '9' in octal constant"),
    ];
    for (src, msg) in cases {
        let r = run(src);
        assert_eq!(r.errors(), vec![msg], "{src:?}");
    }
}

#[test]
fn if_expression_deep_nesting_is_an_error_not_a_crash() {
    let src = format!(
        "#if {}1{}\n#endif\n",
        "(".repeat(100_000),
        ")".repeat(100_000)
    );
    let r = run(&src);
    assert_eq!(
        r.errors(),
        vec!["preprocessor expression nested too deeply"]
    );
}

#[test]
fn if_uses_macros_but_not_in_defined() {
    check(
        "#define A 2\n#define B A + 1\n#define F(x) x * 2\n#if B == 3 && F(B) == 4 && defined B\nok\n#endif\n",
        "ok\n",
    );
}

#[test]
fn defined_from_macro_expansion() {
    check(
        "#define D defined(X)\n#define X\n#if D\nok\n#endif\n",
        "ok\n",
    );
}

#[test]
fn line_directive_changes_line_and_file() {
    check(
        "__LINE__\n#line 100\n__LINE__\n__LINE__ __FILE__\n#line 7 \"other.cl\"\n__FILE__ __LINE__\n#define N 50\n#line N\n__LINE__\n",
        "1\n100\n101 \"test.cl\"\n\"other.cl\" 7\n50\n",
    );
}

#[test]
fn line_directive_errors() {
    let r = run("#line\n#line x\n#line 5 six\n");
    assert_eq!(
        r.errors(),
        vec![
            "#line directive requires a simple digit sequence",
            "#line directive requires a simple digit sequence",
            "invalid filename for #line directive",
        ]
    );
}

#[test]
fn error_and_warning_directives() {
    let r = run("#error this  is \"bad\"\n#warning careful here\n#error\nx\n");
    assert_eq!(r.errors(), vec!["this is \"bad\"", "#error"]);
    assert_eq!(r.warnings(), vec!["careful here"]);
    assert_eq!(r.text(), "x");
}

#[test]
fn null_directive_and_unknown_directive() {
    let r = run("#\n# /* comment */\n#foo bar\n#3x\nok\n");
    assert_eq!(
        r.errors(),
        vec![
            "invalid preprocessing directive",
            "#line directive requires a simple digit sequence"
        ]
    );
    assert_eq!(r.text(), "ok");
}

#[test]
fn extra_tokens_warnings() {
    let r = run("#ifdef A B\n#else C\n#endif D\n#undef X Y\n");
    assert_eq!(
        r.warnings(),
        vec![
            "extra tokens at end of #ifdef directive",
            "extra tokens at end of #else directive",
            "extra tokens at end of #endif directive",
            "extra tokens at end of #undef directive",
        ]
    );
}

#[test]
fn file_and_line_in_macros() {
    check(
        "#define L __LINE__\n#define F(x) x __LINE__\nL\nF(\n__LINE__)\n",
        "3\n5 4\n",
    );
}

#[test]
fn opencl_extension_pragmas_are_recorded() {
    let target = clc::pp::Target {
        extensions: vec!["cl_khr_fp64".into(), "cl_khr_fp16".into()],
        ..Default::default()
    };
    let r = pp_util::run_with(
        "a\n#pragma OPENCL EXTENSION cl_khr_fp64 : enable\nb c\n#pragma OPENCL EXTENSION all : disable\n#pragma OPENCL EXTENSION cl_foo : enable\n#pragma OPENCL EXTENSION cl_khr_fp16 : maybe\nd\n",
        "t.cl",
        "",
        &target,
    );
    let got: Vec<(String, bool, usize)> = r
        .out
        .extension_pragmas
        .iter()
        .map(|p| (p.name.clone(), p.enable, p.token_index))
        .collect();
    assert_eq!(
        got,
        vec![
            ("cl_khr_fp64".to_string(), true, 1),
            ("all".to_string(), false, 3)
        ]
    );
    assert_eq!(
        r.warnings(),
        vec![
            "unsupported OpenCL extension 'cl_foo' - ignoring",
            "expected 'enable' or 'disable' - ignoring",
        ]
    );
    assert_eq!(r.text(), "a\nb c\nd");
}

#[test]
fn fp_contract_pragma_and_unknown_pragmas() {
    let r = run("#pragma OPENCL FP_CONTRACT OFF\nx\n#pragma OPENCL FP_CONTRACT ON\n#pragma OPENCL FP_CONTRACT DEFAULT\n#pragma unroll 4\n#pragma STDC FP_CONTRACT ON\n#pragma whatever\ny\n");
    let got: Vec<(FpContract, usize)> = r
        .out
        .fp_contract_pragmas
        .iter()
        .map(|p| (p.state, p.token_index))
        .collect();
    assert_eq!(
        got,
        vec![
            (FpContract::Off, 0),
            (FpContract::On, 1),
            (FpContract::Default, 1)
        ]
    );
    assert!(r.diags.is_empty(), "{}", r.diags.render(&r.sources));
    assert_eq!(r.text(), "x\ny");
}

#[test]
fn pragma_operator() {
    let r = run("#define P(x) _Pragma(#x)\na P(OPENCL FP_CONTRACT OFF) b _Pragma(\"OPENCL FP_CONTRACT ON\") c\n");
    let got: Vec<(FpContract, usize)> = r
        .out
        .fp_contract_pragmas
        .iter()
        .map(|p| (p.state, p.token_index))
        .collect();
    assert_eq!(got, vec![(FpContract::Off, 1), (FpContract::On, 2)]);
    assert_eq!(r.text(), "a b c");
    let r = run("_Pragma(1)\n");
    assert_eq!(
        r.errors(),
        vec!["_Pragma takes a parenthesized string literal"]
    );
}

#[test]
fn redefinition_warns_and_notes() {
    let r = run("#define A 1\n#define A 2\nA\n");
    assert_eq!(r.warnings(), vec!["'A' macro redefined"]);
    assert_eq!(r.text(), "2");
    assert_eq!(r.diags.len(), 2); // the note "previous definition is here"
}

#[test]
fn stray_characters_and_unterminated_literals_are_errors_in_active_code() {
    let r = run("a @ b\n'x\n\"abc\n");
    assert_eq!(
        r.errors(),
        vec![
            "invalid character '@' in source",
            "missing terminating ' character",
            "missing terminating '\"' character",
        ]
    );
    assert_eq!(r.text(), "a b");
}

#[test]
fn output_spacing_avoids_accidental_pasting() {
    let r = run("#define PLUS +\n#define E(x) x\n+PLUS -E(-)x E(1)E(2)\n");
    assert_eq!(r.text(), "+ + - -x 1 2");
}

#[test]
fn elif_after_a_taken_group_is_not_evaluated() {
    // C99 6.10.1p6: only the first true group is processed; later #elif expressions are
    // skipped (so their errors are not diagnosed), as in skipped groups.
    check(
        "#if 1\na\n#elif 1/0\nb\n#elif garbage (\nc\n#endif\n#if 0\n#if 1/0\n#endif\n#elif 2\nd\n#endif\n",
        "a\nd\n",
    );
}

#[test]
fn directives_inside_macro_arguments() {
    // Undefined behaviour in C99 (6.10.3p11); processed in order, as clang does.
    check(
        "#define f(x) [x]\nf(1\n#ifdef NOPE\n2\n#else\n3\n#endif\n)\n",
        "[1 3]\n",
    );
}
