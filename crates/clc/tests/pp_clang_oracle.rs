//! Cross-checks the preprocessor against `clang-15 -E` (an independent implementation) on
//! inputs that do not depend on predefined macros. Skips when clang-15 is not installed.

mod pp_util;
use std::process::Command;

fn clang_tokens(src: &str) -> Option<Vec<String>> {
    let dir = std::env::temp_dir().join(format!("clcpp_oracle_{}", std::process::id()));
    std::fs::create_dir_all(&dir).ok()?;
    let path = dir.join(format!("in{}.c", src.len()));
    std::fs::write(&path, src).ok()?;
    let out = Command::new("clang-15")
        .args(["-E", "-P", "-x", "c", "-std=c99"])
        .arg(&path)
        .output()
        .ok()?;
    assert!(
        out.status.success(),
        "clang failed on {src:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).ok()?;
    Some(pp_util::lines_of(&text).concat())
}

const CASES: &[&str] = &[
    "#define f(a) a*g\n#define g(a) f(a)\nf(2)(9)\n",
    "#define x 3\n#define f(a) f(x * (a))\n#undef x\n#define x 2\n#define g f\n#define z z[0]\n#define h g(~\n#define m(a) a(w)\n#define w 0,1\n#define t(a) a\nf(y+1) + f(f(z)) % t(t(g)(0) + t)(1);\ng(x+(3,4)-w) | h 5) & m\n(f)^m(m);\n",
    "#define AA BB\n#define BB AA\n#define id(x) x\nid(AA) AA BB\n",
    "#define cat(a, b) a ## b\n#define xcat(a, b) cat(a, b)\n#define X 1\ncat(X, X) xcat(X, X) cat(, X) cat(X, )\n",
    "#define s(x) #x\n#define xs(x) s(x)\n#define V 1 +   2\ns(V) xs(V) s( \"a\\\\b\"  'c' ) s(/* c */ a /* d */ b)\n",
    "#define v(fmt, ...) f(fmt, __VA_ARGS__)\n#define w(...) g(__VA_ARGS__)\nv(a, 1, (2, 3)) w() w(1,2)\n",
    "#define obj (obj + 1)\n#define fn(x) fn(x + obj)\nfn(fn(obj))\n",
    "#define LPAREN (\n#define F(x) <x>\n#define G F LPAREN 1 )\nG\n",
    "#define EMPTY\n#define f(x) [x]\nf(EMPTY) f() EMPTY f EMPTY (1)\n",
    "#define q(x) x\n#define r(x,y) x ## y\nq(q)(1) r(q,)(2) r(,q)(3)\n",
    "#if 1 ? 2 : (1/0)\na\n#endif\n#if -1 > 0u\nb\n#endif\n#if (0x7fffffffffffffff + 0) > 0\nc\n#endif\n#if ~0u == 18446744073709551615u\nd\n#endif\n",
    "#if 'A' == 65 && '\\0' == 0 && 'ab' == 24930\ne\n#endif\n#if (3 ^ 5) == 6 && (-8 >> 1) == -4 && (1 << 62) > 0\nf\n#endif\n",
    "#define A defined(B)\n#define B\n#if A && defined B && !defined C\ng\n#endif\n",
];

#[test]
fn agrees_with_clang() {
    if Command::new("clang-15").arg("--version").output().is_err() {
        eprintln!("skipping: clang-15 not installed");
        return;
    }
    for src in CASES {
        let want = clang_tokens(src).expect("clang output");
        let r = pp_util::run(src);
        assert!(r.errors().is_empty(), "{src:?}: {:?}", r.errors());
        let got = pp_util::group_lines(&r.out.tokens).concat();
        assert_eq!(got, want, "input:\n{src}");
    }
}

/// Predefined macros whose replacement lists must match clang's `opencl-c-base.h` (and clang's
/// own predefined macros) token for token.
#[test]
fn predefined_macros_agree_with_clang_opencl_headers() {
    if Command::new("clang-15").arg("--version").output().is_err() {
        eprintln!("skipping: clang-15 not installed");
        return;
    }
    let src = "BEGIN_MARKER\n__OPENCL_C_VERSION__ CL_VERSION_1_0 CL_VERSION_1_1 CL_VERSION_1_2 CL_VERSION_2_0 CL_VERSION_3_0 __ENDIAN_LITTLE__ __SPIR__ __SPIR64__ __kernel_exec(4, float4) kernel_exec(2,int)
NULL MAXFLOAT HUGE_VALF INFINITY FLT_DIG FLT_MANT_DIG FLT_MAX_10_EXP FLT_MAX_EXP FLT_MIN_10_EXP FLT_MIN_EXP FLT_RADIX FLT_MAX FLT_MIN FLT_EPSILON
M_E_F M_LOG2E_F M_LOG10E_F M_LN2_F M_LN10_F M_PI_F M_PI_2_F M_PI_4_F M_1_PI_F M_2_PI_F M_2_SQRTPI_F M_SQRT2_F M_SQRT1_2_F
CHAR_BIT INT_MAX LONG_MAX SCHAR_MAX SHRT_MAX UCHAR_MAX USHRT_MAX UINT_MAX ULONG_MAX
CLK_LOCAL_MEM_FENCE CLK_GLOBAL_MEM_FENCE CLK_IMAGE_MEM_FENCE CLK_ADDRESS_NONE CLK_ADDRESS_CLAMP_TO_EDGE CLK_ADDRESS_CLAMP CLK_ADDRESS_REPEAT CLK_ADDRESS_MIRRORED_REPEAT CLK_NORMALIZED_COORDS_FALSE CLK_NORMALIZED_COORDS_TRUE CLK_FILTER_NEAREST CLK_FILTER_LINEAR
CLK_SNORM_INT8 CLK_SNORM_INT16 CLK_UNORM_INT8 CLK_UNORM_INT16 CLK_UNORM_SHORT_565 CLK_UNORM_SHORT_555 CLK_UNORM_INT_101010 CLK_SIGNED_INT8 CLK_SIGNED_INT16 CLK_SIGNED_INT32 CLK_UNSIGNED_INT8 CLK_UNSIGNED_INT16 CLK_UNSIGNED_INT32 CLK_HALF_FLOAT CLK_FLOAT CLK_UNORM_INT24
CLK_R CLK_A CLK_RG CLK_RA CLK_RGB CLK_RGBA CLK_BGRA CLK_ARGB CLK_INTENSITY CLK_LUMINANCE CLK_Rx CLK_RGx CLK_RGBx CLK_DEPTH CLK_DEPTH_STENCIL CLK_sRGB CLK_sRGBx CLK_sRGBA CLK_sBGRA CLK_ABGR
HUGE_VAL DBL_DIG DBL_MANT_DIG DBL_MAX_10_EXP DBL_MAX_EXP DBL_MIN_10_EXP DBL_MIN_EXP DBL_MAX DBL_MIN DBL_EPSILON M_E M_LOG2E M_LOG10E M_LN2 M_LN10 M_PI M_PI_2 M_PI_4 M_1_PI M_2_PI M_2_SQRTPI M_SQRT2 M_SQRT1_2
CLK_SUCCESS CLK_ENQUEUE_FAILURE CLK_INVALID_QUEUE CLK_INVALID_NDRANGE CLK_INVALID_EVENT_WAIT_LIST CLK_DEVICE_QUEUE_FULL CLK_INVALID_ARG_SIZE CLK_EVENT_ALLOCATION_FAILURE CLK_OUT_OF_RESOURCES CLK_NULL_QUEUE CLK_ENQUEUE_FLAGS_NO_WAIT CLK_ENQUEUE_FLAGS_WAIT_KERNEL CLK_ENQUEUE_FLAGS_WAIT_WORK_GROUP CLK_PROFILING_COMMAND_EXEC_TIME
";
    let dir = std::env::temp_dir().join(format!("clcpp_oracle_pre_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("p.cl");
    std::fs::write(&path, src).unwrap();
    let out = Command::new("clang-15")
        .args([
            "-E",
            "-P",
            "-x",
            "cl",
            "-cl-std=CL2.0",
            "-target",
            "spir64",
            "-Xclang",
            "-finclude-default-header",
        ])
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    // The header's own declarations come first: compare what follows the marker.
    let marker = text.find("BEGIN_MARKER").expect("marker in clang output");
    let want = pp_util::lines_of(&text[marker + "BEGIN_MARKER".len()..]).concat();
    let target = clc::pp::Target {
        extensions: vec!["cl_khr_fp64".into()],
        image_support: true,
        ..Default::default()
    };
    let r = pp_util::run_with(src, "p.cl", "-cl-std=CL2.0", &target);
    assert!(r.errors().is_empty(), "{:?}", r.errors());
    let got = pp_util::group_lines(&r.out.tokens).concat();
    assert_eq!(got[0], "BEGIN_MARKER");
    assert_eq!(got[1..], want[..]);
}

/// xorshift64*, so that failures reproduce.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545F4914F6CDD1D)
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[(self.next() % xs.len() as u64) as usize]
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A random program of object-like and function-like macros (with `#`, `##`, variadic
/// parameters, mutual references) and random uses of them.
fn random_macro_program(rng: &mut Rng) -> String {
    const NAMES: &[&str] = &["A", "B", "C", "f", "g", "h"];
    const ATOMS: &[&str] = &[
        "x", "y", "1", "2", "+", "-", "*", "(", ")", ",", "A", "B", "C", "f", "g", "h", "[", "]",
        "\"s\"", "'c'", ".", "#", "=", "<", "<<",
    ];
    let mut src = String::new();
    for name in NAMES {
        let function_like = rng.below(2) == 0;
        let params: Vec<&str> = if function_like {
            ["p", "q", "r"][..rng.below(3) as usize + 1].to_vec()
        } else {
            Vec::new()
        };
        let variadic = function_like && rng.below(3) == 0;
        src.push_str("#define ");
        src.push_str(name);
        if function_like {
            let mut list: Vec<String> = params.iter().map(|s| s.to_string()).collect();
            if variadic {
                list.push("...".into());
            }
            src.push_str(&format!("({})", list.join(", ")));
        }
        let mut body: Vec<String> = Vec::new();
        for _ in 0..rng.below(6) {
            let choice = rng.below(10);
            let tok = if function_like && choice < 3 {
                rng.pick(&params).to_string()
            } else if function_like && choice == 3 {
                format!("#{}", rng.pick(&params))
            } else if variadic && choice == 4 {
                "__VA_ARGS__".to_string()
            } else if variadic && choice == 5 {
                "#__VA_ARGS__".to_string()
            } else if variadic && choice == 6 {
                ", ## __VA_ARGS__".to_string()
            } else {
                rng.pick(ATOMS).to_string()
            };
            if !body.is_empty() && rng.below(6) == 0 {
                body.push("##".into());
            }
            body.push(tok);
        }
        src.push(' ');
        src.push_str(&body.join(" "));
        src.push('\n');
    }
    for _ in 0..3 {
        let mut line = Vec::new();
        for _ in 0..rng.below(12) + 1 {
            line.push(rng.pick(ATOMS));
        }
        src.push_str(&line.join(" "));
        src.push_str(" ;\n");
    }
    src
}

#[test]
fn random_macro_programs_agree_with_clang() {
    if Command::new("clang-15").arg("--version").output().is_err() {
        eprintln!("skipping: clang-15 not installed");
        return;
    }
    let dir = std::env::temp_dir().join(format!("clcpp_oracle_rand_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // SEED=n explores other programs.
    let mut rng = Rng(std::env::var("SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5EED));
    let mut compared = 0;
    for i in 0..100 {
        let src = random_macro_program(&mut rng);
        let path = dir.join(format!("r{i}.c"));
        std::fs::write(&path, &src).unwrap();
        let out = Command::new("clang-15")
            .args(["-E", "-P", "-x", "c", "-std=c99"])
            .arg(&path)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        let r = pp_util::run(&src);
        let clang_failed = !out.status.success() || stderr.contains("error");
        // Both must agree on whether the program is valid.
        assert_eq!(
            clang_failed,
            r.diags.has_errors(),
            "input:\n{src}\nclang:\n{stderr}\nours:\n{}",
            r.diags.render(&r.sources)
        );
        if clang_failed {
            continue;
        }
        let want = pp_util::lines_of(&String::from_utf8_lossy(&out.stdout)).concat();
        let got = pp_util::group_lines(&r.out.tokens).concat();
        assert_eq!(got, want, "input:\n{src}");
        compared += 1;
    }
    assert!(compared >= 20, "only {compared} valid programs");
}

fn random_expr(rng: &mut Rng, depth: u32) -> String {
    const LEAVES: &[&str] = &[
        "0",
        "1",
        "2",
        "7",
        "-1",
        "0u",
        "1u",
        "3u",
        "0x7fffffffffffffff",
        "0xffffffffffffffff",
        "'a'",
        "'\\377'",
        "x",
        "defined(A)",
        "defined B",
        "010",
        "100000",
        "-2147483648",
        "4294967295u",
    ];
    const BINARY: &[&str] = &[
        "+", "-", "*", "/", "%", "<<", ">>", "<", ">", "<=", ">=", "==", "!=", "&", "^", "|", "&&",
        "||",
    ];
    const UNARY: &[&str] = &["-", "+", "~", "!"];
    if depth == 0 || rng.below(4) == 0 {
        return rng.pick(LEAVES).to_string();
    }
    match rng.below(5) {
        0 => format!("{}({})", rng.pick(UNARY), random_expr(rng, depth - 1)),
        1 => format!(
            "({} ? {} : {})",
            random_expr(rng, depth - 1),
            random_expr(rng, depth - 1),
            random_expr(rng, depth - 1)
        ),
        _ => {
            let op = rng.pick(BINARY);
            // Shift counts stay in range: shifting by 64 or more is undefined behaviour.
            let rhs = if op == "<<" || op == ">>" {
                rng.pick(&["0", "1", "3", "31", "62", "63"]).to_string()
            } else {
                random_expr(rng, depth - 1)
            };
            format!("({} {op} {rhs})", random_expr(rng, depth - 1))
        }
    }
}

/// Random `#if` expressions: the branch taken and whether the expression is an error (division
/// by zero) must match clang.
#[test]
fn random_if_expressions_agree_with_clang() {
    if Command::new("clang-15").arg("--version").output().is_err() {
        eprintln!("skipping: clang-15 not installed");
        return;
    }
    // SEED=n explores other expressions.
    let mut rng = Rng(std::env::var("SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0xE4F));
    let mut src = String::from("#define A\n");
    for i in 0..300 {
        let e = random_expr(&mut rng, 4);
        src.push_str(&format!("#if {e}\nyes{i}\n#else\nno{i}\n#endif\n"));
    }
    let dir = std::env::temp_dir().join(format!("clcpp_oracle_if_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("if.c");
    std::fs::write(&path, &src).unwrap();
    let out = Command::new("clang-15")
        .args(["-E", "-P", "-x", "c", "-std=c99", "-w", "-ferror-limit=0"])
        .arg(&path)
        .output()
        .unwrap();
    let r = pp_util::run(&src);
    // Compare the branch taken and the error lines.
    let want = pp_util::lines_of(&String::from_utf8_lossy(&out.stdout)).concat();
    let got = pp_util::group_lines(&r.out.tokens).concat();
    let clang_errors: Vec<u32> = String::from_utf8_lossy(&out.stderr)
        .lines()
        .filter(|l| l.contains(": error:"))
        .filter_map(|l| l.split(':').nth(1)?.parse().ok())
        .collect();
    let our_errors: Vec<u32> = r
        .diags
        .iter()
        .filter(|d| d.severity == clc::diag::Severity::Error)
        .map(|d| {
            r.sources
                .line_col(d.span.unwrap().file, d.span.unwrap().start)
                .0
        })
        .collect();
    assert_eq!(our_errors, clang_errors, "{}", r.diags.render(&r.sources));
    assert_eq!(got, want);
}
