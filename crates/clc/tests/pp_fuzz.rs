//! Robustness: random byte strings and random token soups through the lexer and the
//! preprocessor must never panic (DESIGN.md: "The compiler ... never panic on any input").

mod pp_util;
use clc::diag::Diagnostics;
use clc::lex;
use clc::source::FileId;

/// xorshift64*: a small deterministic generator, so failures reproduce.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545F4914F6CDD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = Rng(0x9E3779B97F4A7C15);
    for _ in 0..2000 {
        let len = rng.below(80);
        let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let mut d = Diagnostics::new();
        let _ = lex::lex(FileId(0), &text, &mut d);
        let _ = pp_util::run(&text);
    }
}

#[test]
fn random_preprocessor_soup_never_panics() {
    const PIECES: &[&str] = &[
        "#",
        "##",
        "#define",
        "#undef",
        "#if",
        "#ifdef",
        "#ifndef",
        "#elif",
        "#else",
        "#endif",
        "#include",
        "#line",
        "#error",
        "#pragma",
        "#warning",
        "defined",
        "(",
        ")",
        ",",
        "...",
        "__VA_ARGS__",
        "f",
        "g",
        "x",
        "y",
        "1",
        "0",
        "0x",
        "1.5",
        "'a'",
        "'",
        "\"s\"",
        "\"",
        "<",
        ">",
        "+",
        "-",
        "/",
        "%",
        "?",
        ":",
        "\n",
        " ",
        "\\\n",
        "\\",
        "/*",
        "*/",
        "//",
        "_Pragma",
        "OPENCL",
        "EXTENSION",
        "FP_CONTRACT",
        "__LINE__",
        "__FILE__",
        "<:",
        "%:",
        "@",
        "\t",
        "\r\n",
        "once",
        "99999999999999999999999",
        "<stdio.h>",
        "\"nonexistent.h\"",
    ];
    let mut rng = Rng(42);
    for _ in 0..2500 {
        let n = rng.below(60);
        let mut text = String::new();
        for _ in 0..n {
            text.push_str(PIECES[rng.below(PIECES.len())]);
            if rng.below(3) == 0 {
                text.push(' ');
            }
        }
        let r = pp_util::run(&text);
        let _ = r.diags.render(&r.sources);
        let _ = r.text();
    }
}

#[test]
fn deeply_nested_macro_arguments_are_an_error_not_a_crash() {
    let src = format!(
        "#define f(x) x\n{}1{}\n",
        "f(".repeat(20_000),
        ")".repeat(20_000)
    );
    let r = pp_util::run(&src);
    assert_eq!(r.errors(), vec!["macro arguments nested too deeply"]);
}

#[test]
fn exponential_expansion_is_bounded() {
    // Each level doubles: 2^40 tokens if unbounded.
    let mut src = String::from("#define d(x) x x\n");
    src.push_str(&"d(".repeat(40));
    src.push('1');
    src.push_str(&")".repeat(40));
    src.push('\n');
    let r = pp_util::run(&src);
    assert_eq!(r.errors(), vec!["macro expansion produces too many tokens"]);
}

#[test]
fn nesting_just_below_the_limit_works() {
    let n = 125; // 250 nested parentheses
    let src = format!(
        "#define f(x) x\n#define g(x, y) y x\n{}1{}\n",
        "f(g(0, ".repeat(n),
        "))".repeat(n)
    );
    let r = pp_util::run(&src);
    assert!(r.errors().is_empty(), "{:?}", r.errors());
    // g(0, y) is `y 0`: the 1 comes first, then one 0 per level.
    let want = format!("1{}", " 0".repeat(n));
    assert_eq!(r.text(), want);
}
