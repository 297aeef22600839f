//! `printf` formats checked at compile time (OpenCL C 2.0 §6.13.13.2; issue: "printf with
//! compile-time checking of the format", "warnings for … format mismatches in printf"): the
//! warnings clang-15 gives for the same source (`-Wformat`, recorded below from clang-15 and
//! compared with a live clang-15 run when it is installed). Warnings about an argument point at
//! the argument (clang's column); those about the format text point at the literal.

mod warn_util;

use clc::options::BuildOptions;
use clc::pp::Target;

const SOURCE: &str = r#"kernel void k(global int *o, global char *s) {
  uint2 ui = (uint2)(1, 2);
  float4 f = (float4)(1.0f);
  printf("%d\n", 1.0f);
  printf("%f\n", 1);
  printf("%d %d\n", 1);
  printf("%d\n", 1, 2);
  printf("%y\n", 1);
  printf("%#v2hx\n", ui);
  printf("%v4hlf\n", f);
  printf("%v4f\n", f);
  printf("%s\n", s);
  printf("%ld\n", 1);
  printf("%u\n", -1);
  printf("%c\n", 65);
  printf("%p\n", o);
  printf("%x\n", 1L);
  printf("%hhd %hd\n", (char)1, (short)2);
  printf("%v2hld\n", (int2)(1));
  printf("%5.2f %-3d %+i %05x %%\n", 1.0f, 2, 3, 4u);
  printf("%s\n", 3);
  printf("%d\n", (int2)(1));
  printf("%v3hld\n", (int3)(1));
  printf("%v2hld\n", (uint2)(1));
  printf("%n\n", o);
  printf("%5");
  printf("f4 = %2.2v4hlf\n", f);
  printf("uc = %#v4hhx\n", (uchar4)(0xFA, 0xFB, 0xFC, 0xFD));
}
"#;

/// clang-15's warnings for SOURCE: (line, column or 0 for "somewhere in the format", text).
const CLANG: &[(u32, u32, &str)] = &[
    (4, 18, "format specifies type 'int' but the argument has type 'float'"),
    (5, 18, "format specifies type 'double' but the argument has type 'int'"),
    (6, 0, "more '%' conversions than data arguments"),
    (7, 21, "data argument not used by format string"),
    (8, 0, "invalid conversion specifier 'y'"),
    (9, 22, "format specifies type 'unsigned short __attribute__((ext_vector_type(2)))' but the argument has type 'uint2' (vector of 2 'uint' values)"),
    (11, 20, "format specifies type 'double __attribute__((ext_vector_type(4)))' but the argument has type 'float4' (vector of 4 'float' values)"),
    (13, 19, "format specifies type 'long' but the argument has type 'int'"),
    (17, 18, "format specifies type 'unsigned int' but the argument has type 'long'"),
    (21, 18, "format specifies type 'char *' but the argument has type 'int'"),
    (22, 18, "format specifies type 'int' but the argument has type 'int2' (vector of 2 'int' values)"),
    (24, 22, "format specifies type 'int __attribute__((ext_vector_type(2)))' but the argument has type 'uint2' (vector of 2 'uint' values)"),
    (25, 0, "invalid conversion specifier 'n'"),
    (26, 0, "incomplete format specifier"),
];

/// (line, column, text) of every warning in a log.
#[test]
fn printf_formats_are_checked_like_clang() {
    let opts = BuildOptions::parse("-cl-std=CL2.0").expect("options");
    let c = clc::compile(SOURCE, "p.cl", &opts, &Target::default())
        .unwrap_or_else(|e| panic!("{}", e.log));
    warn_util::assert_same(&warn_util::warnings(&c.log), CLANG, "oxcl");
    // -Werror makes them errors.
    let opts = BuildOptions::parse("-cl-std=CL2.0 -Werror").expect("options");
    assert!(clc::compile(SOURCE, "p.cl", &opts, &Target::default()).is_err());
}

#[test]
fn recorded_warnings_are_clang_15s() {
    let Some(stderr) = warn_util::clang15_stderr(SOURCE, "printf") else {
        return;
    };
    warn_util::assert_same(&warn_util::warnings(&stderr), CLANG, "clang-15");
}
