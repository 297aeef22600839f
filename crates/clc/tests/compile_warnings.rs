//! Warnings for the usual suspects, as clang-15 gives them for the same source (recorded
//! below from clang-15, and compared with a live clang-15 run when it is installed): the
//! discarded result of a built-in opencl-c.h declares `const` (-Wunused-value), integer
//! division or remainder by a constant zero (-Wdivision-by-zero, at the operator), and integer
//! constants whose value changes in an implicit conversion (-Wconstant-conversion), a pointer
//! conversion that drops `const` or `volatile` from the pointee (at the declarator; clang spells
//! the types with their address spaces, brought to oxcl's spelling below).

mod warn_util;

use clc::options::BuildOptions;
use clc::pp::Target;

const SOURCE: &str = r#"kernel void k(global float *o, global int *p) {
  sin(o[1]);
  get_global_id(0);
  convert_int(o[0]);
  p[2] = 1 / 0;
  p[3] = p[1] % 0;
  char a = 200; short b = 40000; ushort c = -1; uchar d = -1; char e = -129; uint f = -1;
  int g = 0x80000000; uchar h = 256; int i = 5000000000L; uchar j = 255; char l = -128;
  p[0] = a + b + c + d + e + f + g + h + i + j + l;
  float fr; fract(o[0], &fr);
  barrier(CLK_GLOBAL_MEM_FENCE);
  const global int *cp = p; global int *q = cp; constant char *s = "str";
  volatile global int *vp = p; global int *r = vp; q[0] = r[0] + s[0];
}
"#;

/// clang-15's warnings: (line, column or 0 where only the line is compared, text).
const CLANG: &[(u32, u32, &str)] = &[
    (2, 3, "ignoring return value of function declared with const attribute"),
    (3, 3, "ignoring return value of function declared with const attribute"),
    (4, 3, "ignoring return value of function declared with const attribute"),
    (5, 12, "division by zero is undefined"),
    (6, 15, "remainder by zero is undefined"),
    (7, 12, "implicit conversion from 'int' to 'char' changes value from 200 to -56"),
    (7, 27, "implicit conversion from 'int' to 'short' changes value from 40000 to -25536"),
    (7, 72, "implicit conversion from 'int' to 'char' changes value from -129 to 127"),
    (8, 33, "implicit conversion from 'int' to 'uchar' (aka 'unsigned char') changes value from 256 to 0"),
    (8, 46, "implicit conversion from 'long' to 'int' changes value from 5000000000 to 705032704"),
    (12, 41, "initializing '__global int *' with an expression of type '__global const int *' discards qualifiers"),
    (13, 44, "initializing '__global int *' with an expression of type '__global volatile int *' discards qualifiers"),
];

/// Warnings of a log, with clang's spelling of pointer types brought to oxcl's.
fn warnings(log: &str) -> Vec<(u32, u32, String)> {
    warn_util::warnings(log)
        .into_iter()
        .map(|(line, col, text)| {
            // clang: 'const __global int *__private'; oxcl: '__global const int *'.
            let text = text
                .replace(" *__private", " *")
                .replace("'const __global", "'__global const")
                .replace("'volatile __global", "'__global volatile");
            (line, col, text)
        })
        .collect()
}

fn check(found: &[(u32, u32, String)], who: &str) {
    warn_util::assert_same(found, CLANG, who);
}

#[test]
fn usual_suspects_warn_like_clang() {
    let opts = BuildOptions::parse("-cl-std=CL2.0").expect("options");
    let c = clc::compile(SOURCE, "w.cl", &opts, &Target::default())
        .unwrap_or_else(|e| panic!("{}", e.log));
    check(&warnings(&c.log), "oxcl");
    // -w silences them.
    let opts = BuildOptions::parse("-cl-std=CL2.0 -w").expect("options");
    let c = clc::compile(SOURCE, "w.cl", &opts, &Target::default()).expect("compiles");
    assert!(warnings(&c.log).is_empty(), "{}", c.log);
}

#[test]
fn recorded_warnings_are_clang_15s() {
    let Some(stderr) = warn_util::clang15_stderr(SOURCE, "warnings") else {
        return;
    };
    check(&warnings(&stderr), "clang-15");
}
