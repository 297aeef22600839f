//! The macro examples of the C99 standard (6.10.3.4, 6.10.3.5): inputs and expected outputs are
//! copied from the standard's text.

mod pp_util;
use pp_util::{check, check_output, run, run_with};

/// C99 6.10.3.5 EXAMPLE 3.
#[test]
fn c99_example_3() {
    check(
        r#"#define x 3
#define f(a) f(x * (a))
#undef x
#define x 2
#define g f
#define z z[0]
#define h g(~
#define m(a) a(w)
#define w 0,1
#define t(a) a
#define p() int
#define q(x) x
#define r(x,y) x ## y
#define str(x) # x
f(y+1) + f(f(z)) % t(t(g)(0) + t)(1);
g(x+(3,4)-w) | h 5) & m
(f)^m(m);
p() i[q()] = { q(1), r(2,3), r(4,), r(,5), r(,) };
char c[2][6] = { str(hello), str() };
"#,
        r#"f(2 * (y+1)) + f(2 * (f(2 * (z[0])))) % f(2 * (0)) + t(1);
f(2 * (2+(3,4)-0,1)) | f(2 * (~ 5)) & f(2 * (0,1))^m(0,1);
int i[] = { 1, 23, 4, 5, };
char c[2][6] = { "hello", "" };
"#,
    );
}

/// C99 6.10.3.5 EXAMPLE 4 (the `#include` line's result goes to a real file `vers2.h`).
#[test]
fn c99_example_4() {
    let dir = std::env::temp_dir().join(format!("clcpp_example4_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("vers2.h"), "included_vers2_h\n").unwrap();
    let main = dir.join("main.cl");
    let src = r#"#define str(s) # s
#define xstr(s) str(s)
#define debug(s, t) printf("x" # s "= %d, x" # t "= %s", \
 x ## s, x ## t)
#define INCFILE(n) vers ## n
#define glue(a, b) a ## b
#define xglue(a, b) glue(a, b)
#define HIGHLOW "hello"
#define LOW LOW ", world"
debug(1, 2);
fputs(str(strncmp("abc\0d", "abc", '\4') // this goes away
 == 0) str(: @\n), s);
#include xstr(INCFILE(2).h)
glue(HIGH, LOW);
xglue(HIGH, LOW)
"#;
    let r = run_with(src, main.to_str().unwrap(), "", &Default::default());
    assert!(r.errors().is_empty(), "{}", r.diags.render(&r.sources));
    check_output(
        &r,
        r#"printf("x" "1" "= %d, x" "2" "= %s", x1, x2);
fputs("strncmp(\"abc\\0d\", \"abc\", '\\4') == 0" ": @\n", s);
included_vers2_h
"hello";
"hello" ", world"
"#,
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// C99 6.10.3.5 EXAMPLE 5: placemarkers.
#[test]
fn c99_example_5() {
    check(
        r#"#define t(x,y,z) x ## y ## z
int j[] = { t(1,2,3), t(,4,5), t(6,,7), t(8,9,),
 t(10,,), t(,11,), t(,,12), t(,,) };
"#,
        r#"int j[] = { 123, 45, 67, 89,
 10, 11, 12, };
"#,
    );
}

/// C99 6.10.3.5 EXAMPLE 6: valid redefinitions are silent.
#[test]
fn c99_example_6_valid_redefinitions() {
    let r = run(r#"#define OBJ_LIKE (1-1)
#define OBJ_LIKE /* white space */ (1-1) /* other */
#define FUNC_LIKE(a) ( a )
#define FUNC_LIKE( a )( /* note the white space */ \
 a /* other stuff on this line
 */ )
"#);
    assert!(r.diags.is_empty(), "{}", r.diags.render(&r.sources));
}

/// C99 6.10.3.5 EXAMPLE 6: each invalid redefinition is diagnosed.
#[test]
fn c99_example_6_invalid_redefinitions() {
    let r = run(r#"#define OBJ_LIKE (1-1)
#define FUNC_LIKE(a) ( a )
#define OBJ_LIKE (0) // different token sequence
#define OBJ_LIKE (1 - 1) // different white space
#define FUNC_LIKE(b) ( a ) // different parameter usage
#define FUNC_LIKE(b) ( b ) // different parameter spelling
"#);
    assert_eq!(
        r.warnings(),
        vec![
            "'OBJ_LIKE' macro redefined",
            "'OBJ_LIKE' macro redefined",
            "'FUNC_LIKE' macro redefined",
            "'FUNC_LIKE' macro redefined",
        ]
    );
}

/// C99 6.10.3.5 EXAMPLE 7: variable arguments.
#[test]
fn c99_example_7() {
    let src = r#"#define debug(...) fprintf(stderr, __VA_ARGS__)
#define showlist(...) puts(#__VA_ARGS__)
#define report(test, ...) ((test)?puts(#test):\
 printf(__VA_ARGS__))
debug("Flag");
debug("X = %d\n", x);
showlist(The first, second, and third items.);
report(x>y, "x is %d but y is %d", x, y);
"#;
    check(
        src,
        r#"fprintf(stderr, "Flag" );
fprintf(stderr, "X = %d\n", x );
puts( "The first, second, and third items." );
((x>y)?puts("x>y"): printf("x is %d but y is %d", x, y));
"#,
    );
}

/// C99 6.10.3.3 EXAMPLE: `hash_hash`.
#[test]
fn c99_hash_hash_example() {
    check(
        r#"#define hash_hash # ## #
#define mkstr(a) # a
#define in_between(a) mkstr(a)
#define join(c, d) in_between(c hash_hash d)
char p[] = join(x, y);
"#,
        r#"char p[] = "x ## y";"#,
    );
}

/// C99 6.10.3.5 EXAMPLE 1 and 2.
#[test]
fn c99_examples_1_and_2() {
    check(
        "#define TABSIZE 100\nint table[TABSIZE];\n#define max(a, b) ((a) > (b) ? (a) : (b))\nmax(1, x)\n",
        "int table[100];\n((1) > (x) ? (1) : (x))\n",
    );
}
