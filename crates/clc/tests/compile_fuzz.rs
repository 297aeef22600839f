//! The compiler never panics: random bytes, random token soup and mutated corpus kernels all
//! end in `Ok` or `Err` (a deterministic xorshift generator keeps runs reproducible).

use clc::options::BuildOptions;
use clc::pp::Target;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn run(src: &str) {
    let opts = BuildOptions::parse("").expect("options");
    let mut target = Target::default();
    target.extensions.push("cl_khr_fp64".into());
    // `compile` turns a panic of its worker thread into an error: look for that too.
    if let Err(e) = clc::compile(src, "fuzz.cl", &opts, &target) {
        assert!(
            !e.log.contains("internal compiler error"),
            "{}\n--- source ---\n{src}",
            e.log
        );
    }
}

const WORDS: &[&str] = &[
    "__kernel",
    "void",
    "int",
    "float4",
    "uint",
    "char",
    "__global",
    "__local",
    "const",
    "*",
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    ";",
    ",",
    "=",
    "+=",
    "<<",
    ">>=",
    "?",
    ":",
    "if",
    "else",
    "for",
    "while",
    "do",
    "switch",
    "case",
    "default",
    "break",
    "continue",
    "return",
    "struct",
    "union",
    "typedef",
    "enum",
    "x",
    "y",
    "p",
    "get_global_id",
    "barrier",
    "convert_int4",
    "as_float",
    "0",
    "1",
    "0x7fffffff",
    "1.5f",
    ".",
    "->",
    ".xyzw",
    "s0",
    "hi",
    "&",
    "&&",
    "||",
    "!",
    "~",
    "-",
    "++",
    "--",
    "sizeof",
    "vec_step",
    "(float4)",
    "'a'",
    "\"s\"",
    "#define",
    "#if",
    "#endif",
    "\n",
    "goto",
    "L",
    "__attribute__((reqd_work_group_size(1,1,1)))",
    "double",
    "half",
    "size_t",
];

#[test]
fn random_token_soup_never_panics() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    for _ in 0..400 {
        let n = 1 + rng.below(60);
        let mut s = String::new();
        for _ in 0..n {
            s.push_str(WORDS[rng.below(WORDS.len())]);
            s.push(' ');
        }
        run(&s);
    }
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = Rng(0xdead_beef_cafe_f00d);
    for _ in 0..300 {
        let n = rng.below(200);
        let bytes: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
        run(&String::from_utf8_lossy(&bytes));
    }
}

#[test]
fn mutated_corpus_never_panics() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("corpus")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "cl"))
        .collect();
    files.sort();
    let mut rng = Rng(0x0bad_c0de_1234_5678);
    for f in files {
        let src = std::fs::read_to_string(&f).expect("read");
        let chars: Vec<char> = src.chars().collect();
        for _ in 0..40 {
            let mut c = chars.clone();
            for _ in 0..1 + rng.below(4) {
                if c.is_empty() {
                    break;
                }
                let i = rng.below(c.len());
                match rng.below(3) {
                    0 => {
                        c.remove(i);
                    }
                    1 => c.insert(
                        i,
                        ['(', ')', ';', '{', '}', '*', '.', 'x', '0'][rng.below(9)],
                    ),
                    _ => {
                        let j = rng.below(c.len());
                        c.swap(i, j);
                    }
                }
            }
            let s: String = c.into_iter().collect();
            run(&s);
        }
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let src = format!(
        "__kernel void k(__global int *p) {{ p[0] = {}1{}; }}",
        "(".repeat(5000),
        ")".repeat(5000)
    );
    run(&src);
    let src = format!(
        "__kernel void k(__global int *p) {{ {} }}",
        "{".repeat(5000)
    );
    run(&src);
    let src = format!(
        "__kernel void k(__global int *p) {{ p[0] = {}1; }}",
        "-".repeat(5000)
    );
    run(&src);
}

/// Any nesting depth either compiles or stops with "nesting too deep", on a 2 MiB thread
/// (the default for spawned threads), never with a stack overflow; moderate depths compile.
#[test]
fn deep_nesting_fits_a_small_stack() {
    let handle = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(|| {
            for n in (10..=260).step_by(25) {
                let parens = format!(
                    "__kernel void k(__global int *p) {{ p[0] = {}1{}; }}",
                    "(".repeat(n),
                    ")".repeat(n)
                );
                let unary = format!(
                    "__kernel void k(__global int *p) {{ p[0] = {}1; }}",
                    "- ".repeat(n)
                );
                let ternary = format!(
                    "__kernel void k(__global int *p) {{ int x = p[0]; p[1] = {}0; }}",
                    (0..n)
                        .map(|i| format!("x == {i} ? {i} : "))
                        .collect::<String>()
                );
                let blocks = format!(
                    "__kernel void k(__global int *p) {{ {} p[0] = 1; {} }}",
                    "{".repeat(n),
                    "}".repeat(n)
                );
                let ifs = format!(
                    "__kernel void k(__global int *p) {{ {} p[0] = 1; }}",
                    "if (p[1]) ".repeat(n)
                );
                let sum = format!(
                    "__kernel void k(__global int *p) {{ p[0] = 1{}; }}",
                    " + p[1]".repeat(n * 20)
                );
                for src in [parens, unary, ternary, blocks, ifs, sum] {
                    let opts = BuildOptions::parse("").expect("options");
                    match clc::compile(&src, "deep.cl", &opts, &Target::default()) {
                        Ok(_) => {}
                        Err(e) => {
                            assert!(e.log.contains("nesting too deep"), "{}", e.log);
                            assert!(n > 60, "depth {n} should compile: {}", e.log);
                        }
                    }
                }
            }
        })
        .expect("thread");
    handle.join().expect("no stack overflow");
}
