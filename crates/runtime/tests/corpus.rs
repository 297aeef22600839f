//! The end-to-end corpus: every kernel of `tests/corpus/*.cl` runs on oxcl twice — compiled by
//! oxcl's compiler and by clang-15 + llvm-spirv-15 — and both results must equal what PoCL
//! computes for the same inputs (PoCL is the independent source of expected values).
//!
//! Each corpus file starts with `//!` lines describing the run:
//!
//! ```text
//! //! kernel: NAME
//! //! global: X[,Y[,Z]]
//! //! local: X[,Y[,Z]]          (optional)
//! //! offset: X[,Y[,Z]]         (optional)
//! //! options: BUILD OPTIONS    (optional)
//! //! arg: TYPE[COUNT] GEN      a buffer of COUNT elements: GEN is zeros, iota, rand(LO,HI) or bits
//! //! arg: TYPE VALUE[,VALUE…]  a value
//! //! arg: local BYTES          __local memory
//! //! compare: ulp N            (optional) floats may differ by N ulp; default: bit-exact
//! ```
//!
//! Tests skip the parts whose tools are absent, saying so; CI installs all of them.

use std::path::{Path, PathBuf};
use std::process::Command;

use runtime::{Buffer, Context, MemFlags, NdRange, Platform, Program, Queue};

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[derive(Clone, Debug)]
enum Arg {
    Buffer {
        elem: Elem,
        lanes: usize,
        count: usize,
        gen: String,
    },
    Value {
        elem: Elem,
        lanes: usize,
        values: Vec<String>,
    },
    Local(usize),
}

#[derive(Copy, Clone, Debug, PartialEq)]
enum Elem {
    I(usize, bool),
    F(usize),
}

impl Elem {
    fn size(self) -> usize {
        match self {
            Elem::I(s, _) | Elem::F(s) => s,
        }
    }

    fn descr(self) -> String {
        match self {
            Elem::I(1, signed) => format!("|{}1", if signed { 'i' } else { 'u' }),
            Elem::I(s, signed) => format!("<{}{s}", if signed { 'i' } else { 'u' }),
            Elem::F(s) => format!("<f{s}"),
        }
    }
}

fn parse_type(name: &str) -> (Elem, usize) {
    let digits = name.trim_start_matches(|c: char| c.is_ascii_alphabetic());
    let base = &name[..name.len() - digits.len()];
    let elem = match base {
        "char" => Elem::I(1, true),
        "uchar" => Elem::I(1, false),
        "short" => Elem::I(2, true),
        "ushort" => Elem::I(2, false),
        "int" => Elem::I(4, true),
        "uint" => Elem::I(4, false),
        "long" => Elem::I(8, true),
        "ulong" => Elem::I(8, false),
        "half" => Elem::F(2),
        "float" => Elem::F(4),
        "double" => Elem::F(8),
        _ => panic!("corpus: unknown type {name}"),
    };
    let lanes: usize = if digits.is_empty() {
        1
    } else {
        digits.parse().expect("vector width")
    };
    (elem, if lanes == 3 { 4 } else { lanes })
}

struct Case {
    name: String,
    path: PathBuf,
    kernel: String,
    global: Vec<usize>,
    local: Option<Vec<usize>>,
    offset: Option<Vec<usize>>,
    options: String,
    args: Vec<Arg>,
    ulp: u64,
}

fn dims(text: &str) -> Vec<usize> {
    text.split(',')
        .map(|v| v.trim().parse().expect("corpus: bad size"))
        .collect()
}

fn parse_case(name: &str) -> Case {
    let path = repo_root().join("tests/corpus").join(format!("{name}.cl"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut case = Case {
        name: name.to_string(),
        path,
        kernel: String::new(),
        global: Vec::new(),
        local: None,
        offset: None,
        options: String::new(),
        args: Vec::new(),
        ulp: 0,
    };
    for line in text.lines().filter_map(|l| l.strip_prefix("//!")) {
        let Some((key, value)) = line.split_once(':') else {
            continue;
        };
        let value = value.trim();
        match key.trim() {
            "kernel" => case.kernel = value.to_string(),
            "global" => case.global = dims(value),
            "local" => case.local = Some(dims(value)),
            "offset" => case.offset = Some(dims(value)),
            "options" => case.options = value.to_string(),
            "compare" => {
                let n = value.strip_prefix("ulp").expect("compare: ulp N");
                case.ulp = n.trim().parse().expect("ulp count");
            }
            "arg" => {
                let (ty, rest) = value.split_once(' ').expect("arg: TYPE VALUE");
                let rest = rest.trim();
                case.args.push(if ty == "local" {
                    Arg::Local(rest.parse().expect("local bytes"))
                } else if let Some((ty, count)) = ty.split_once('[') {
                    let (elem, lanes) = parse_type(ty);
                    let count = count.trim_end_matches(']').parse().expect("count");
                    Arg::Buffer {
                        elem,
                        lanes,
                        count,
                        gen: rest.to_string(),
                    }
                } else {
                    let (elem, lanes) = parse_type(ty);
                    Arg::Value {
                        elem,
                        lanes,
                        values: rest.split(',').map(|s| s.trim().to_string()).collect(),
                    }
                });
            }
            _ => {}
        }
    }
    assert!(
        !case.kernel.is_empty() && !case.global.is_empty(),
        "{name}: header lacks kernel/global"
    );
    case
}

/// xorshift64*: deterministic inputs for each case and argument.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn encode(elem: Elem, v: f64, bits: u64) -> Vec<u8> {
    match elem {
        Elem::F(4) => (v as f32).to_le_bytes().to_vec(),
        Elem::F(8) => v.to_le_bytes().to_vec(),
        Elem::F(2) => half::f16::from_f64(v).to_le_bytes().to_vec(),
        Elem::I(s, _) => bits.to_le_bytes()[..s].to_vec(),
        Elem::F(_) => unreachable!("only half, float and double"),
    }
}

fn parse_value(elem: Elem, text: &str) -> Vec<u8> {
    match elem {
        Elem::F(_) => encode(elem, text.parse::<f64>().expect("float value"), 0),
        Elem::I(..) => {
            let v: i128 = text.parse().expect("integer value");
            encode(elem, 0.0, v as u64)
        }
    }
}

fn generate(
    case: &Case,
    index: usize,
    elem: Elem,
    lanes: usize,
    count: usize,
    gen: &str,
) -> Vec<u8> {
    let seed = case.name.bytes().fold(0x9e37_79b9_7f4a_7c15u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    });
    let mut rng = Rng(seed ^ (index as u64 + 1).wrapping_mul(0xd6e8_feb8_6659_fd93) | 1);
    let n = count * lanes;
    let mut out = Vec::with_capacity(n * elem.size());
    for i in 0..n {
        let bytes = match gen {
            "zeros" => vec![0; elem.size()],
            "iota" => encode(elem, i as f64, i as u64),
            "bits" => encode(elem, f64::from_bits(rng.next()), rng.next()),
            g if g.starts_with("rand(") => {
                let inner = g.trim_start_matches("rand(").trim_end_matches(')');
                let (lo, hi) = inner.split_once(',').expect("rand(LO,HI)");
                let (lo, hi): (f64, f64) = (
                    lo.trim().parse().expect("lo"),
                    hi.trim().parse().expect("hi"),
                );
                let u = rng.unit();
                let v = lo + (hi - lo) * u;
                encode(elem, v, (lo + ((hi - lo + 1.0) * u).floor()) as i64 as u64)
            }
            other => panic!("{}: unknown generator {other}", case.name),
        };
        out.extend(bytes);
    }
    out
}

fn npy_bytes(descr: &str, shape: &[usize], data: &[u8]) -> Vec<u8> {
    let shape = if shape.len() == 1 {
        format!("({},)", shape[0])
    } else {
        format!(
            "({})",
            shape
                .iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    let mut header = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}");
    let unpadded = 10 + header.len() + 1;
    header.push_str(&" ".repeat((64 - unpadded % 64) % 64));
    header.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend((header.len() as u16).to_le_bytes());
    out.extend(header.as_bytes());
    out.extend(data);
    out
}

fn npy_data(bytes: &[u8]) -> Vec<u8> {
    let header_len = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
    bytes[10 + header_len..].to_vec()
}

/// Inputs of a case: for each argument, its initial bytes (buffers and values) or local size.
fn inputs(case: &Case) -> Vec<Vec<u8>> {
    case.args
        .iter()
        .enumerate()
        .map(|(i, arg)| match arg {
            Arg::Buffer {
                elem,
                lanes,
                count,
                gen,
            } => generate(case, i, *elem, *lanes, *count, gen),
            Arg::Value {
                elem,
                lanes,
                values,
            } => {
                let mut bytes = Vec::new();
                for lane in 0..*lanes {
                    let text = values.get(lane).or(values.first()).expect("value");
                    bytes.extend(parse_value(
                        *elem,
                        if lane < values.len() || values.len() == 1 {
                            text
                        } else {
                            "0"
                        },
                    ));
                }
                bytes
            }
            Arg::Local(_) => Vec::new(),
        })
        .collect()
}

/// Runs the case on oxcl from a program; returns the final contents of every buffer argument.
fn run_oxcl(
    case: &Case,
    program: Program,
    inputs: &[Vec<u8>],
) -> Result<Vec<Option<Vec<u8>>>, String> {
    program
        .build(&case.options)
        .map_err(|e| format!("build: {e}"))?;
    let kernel = program.kernel(&case.kernel).map_err(|e| e.to_string())?;
    let context = program.context().clone();
    let mut buffers = Vec::new();
    for (i, arg) in case.args.iter().enumerate() {
        let index = i as u32;
        match arg {
            Arg::Buffer { .. } => {
                let b = Buffer::from_slice(&context, MemFlags::default(), &inputs[i])
                    .map_err(|e| e.to_string())?;
                kernel
                    .set_arg_buffer(index, Some(&b))
                    .map_err(|e| format!("arg {i}: {e}"))?;
                buffers.push(Some(b));
            }
            Arg::Value { .. } => {
                kernel
                    .set_arg_bytes(index, &inputs[i])
                    .map_err(|e| format!("arg {i}: {e}"))?;
                buffers.push(None);
            }
            Arg::Local(size) => {
                kernel
                    .set_arg_local(index, *size)
                    .map_err(|e| format!("arg {i}: {e}"))?;
                buffers.push(None);
            }
        }
    }
    let range = NdRange::new(&case.global, case.local.as_deref(), case.offset.as_deref());
    Queue::new(&context)
        .nd_range(&kernel, &range)
        .map_err(|e| format!("run: {e}"))?;
    Ok(buffers.into_iter().map(|b| b.map(|b| b.to_vec())).collect())
}

fn context() -> Context {
    Context::new(Platform::get().devices().remove(0))
}

fn tool(name: &str) -> bool {
    Command::new(name)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// SPIR-V for the case from clang-15 + llvm-spirv-15, or why not.
fn clang_spirv(case: &Case, dir: &Path) -> Result<Vec<u8>, String> {
    let bc = dir.join("k.bc");
    let spv = dir.join("k.spv");
    let mut clang = Command::new("clang-15");
    clang.args([
        "-c",
        "-target",
        "spir64",
        "-cl-std=CL2.0",
        "-O0",
        "-emit-llvm",
        "-Xclang",
        "-finclude-default-header",
    ]);
    clang.args(case.options.split_whitespace());
    clang.arg("-o").arg(&bc).arg(&case.path);
    let out = clang.output().map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(format!(
            "clang-15 failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let out = Command::new("llvm-spirv-15")
        .arg("--spirv-max-version=1.2")
        .arg(&bc)
        .arg("-o")
        .arg(&spv)
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(format!(
            "llvm-spirv-15 failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    std::fs::read(&spv).map_err(|e| e.to_string())
}

/// PoCL's results, `Ok(None)` when PoCL is not installed.
fn run_pocl(
    case: &Case,
    inputs: &[Vec<u8>],
    dir: &Path,
) -> Result<Option<Vec<Option<Vec<u8>>>>, String> {
    let mut job = format!(
        "global {}\n",
        case.global
            .iter()
            .map(|v| v.to_string())
            .collect::<Vec<_>>()
            .join(",")
    );
    if let Some(local) = &case.local {
        job += &format!(
            "local {}\n",
            local
                .iter()
                .map(|v| v.to_string())
                .collect::<Vec<_>>()
                .join(",")
        );
    }
    if let Some(offset) = &case.offset {
        job += &format!(
            "offset {}\n",
            offset
                .iter()
                .map(|v| v.to_string())
                .collect::<Vec<_>>()
                .join(",")
        );
    }
    if !case.options.is_empty() {
        job += &format!("options {}\n", case.options);
    }
    for (i, arg) in case.args.iter().enumerate() {
        match arg {
            Arg::Buffer {
                elem, lanes, count, ..
            } => {
                let path = dir.join(format!("in_{i}.npy"));
                let shape = if *lanes == 1 {
                    vec![*count]
                } else {
                    vec![*count, *lanes]
                };
                std::fs::write(&path, npy_bytes(&elem.descr(), &shape, &inputs[i]))
                    .map_err(|e| e.to_string())?;
                job += &format!("arg buffer {}\n", path.display());
            }
            Arg::Value { .. } => {
                job += &format!(
                    "arg value {}\n",
                    inputs[i]
                        .iter()
                        .map(|b| format!("{b:02x}"))
                        .collect::<String>()
                )
            }
            Arg::Local(size) => job += &format!("arg local {size}\n"),
        }
    }
    std::fs::write(dir.join("job.txt"), job).map_err(|e| e.to_string())?;
    let out = Command::new("/usr/bin/python3")
        .arg(repo_root().join("tests/pocl_oracle.py"))
        .arg(&case.path)
        .arg(&case.kernel)
        .arg(dir)
        .output();
    let out = match out {
        Ok(out) => out,
        Err(_) => return Ok(None),
    };
    if out.status.code() == Some(3) {
        eprintln!(
            "{}: {}",
            case.name,
            String::from_utf8_lossy(&out.stderr).trim()
        );
        return Ok(None);
    }
    if !out.status.success() {
        return Err(format!(
            "PoCL run failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let mut results = Vec::new();
    for (i, arg) in case.args.iter().enumerate() {
        results.push(match arg {
            Arg::Buffer { .. } => {
                let bytes =
                    std::fs::read(dir.join(format!("pocl_{i}.npy"))).map_err(|e| e.to_string())?;
                Some(npy_data(&bytes))
            }
            _ => None,
        });
    }
    Ok(Some(results))
}

fn ulp_distance(elem: Elem, a: u64, b: u64) -> u64 {
    let key = |bits: u64, size: usize| -> i128 {
        let sign = 1u64 << (size * 8 - 1);
        let magnitude = (bits & (sign - 1)) as i128;
        if bits & sign != 0 {
            -magnitude
        } else {
            magnitude
        }
    };
    let size = elem.size();
    let nan = |bits: u64| match size {
        2 => half::f16::from_bits(bits as u16).is_nan(),
        4 => f32::from_bits(bits as u32).is_nan(),
        _ => f64::from_bits(bits).is_nan(),
    };
    if nan(a) || nan(b) {
        return if nan(a) && nan(b) { 0 } else { u64::MAX };
    }
    (key(a, size) - key(b, size)).unsigned_abs() as u64
}

/// The first difference between two results of one buffer, as text.
fn compare(case: &Case, index: usize, expected: &[u8], actual: &[u8]) -> Option<String> {
    let Arg::Buffer { elem, .. } = case.args[index] else {
        return None;
    };
    if expected.len() != actual.len() {
        return Some(format!(
            "argument {index}: {} bytes, expected {}",
            actual.len(),
            expected.len()
        ));
    }
    let size = elem.size();
    let mut bad = 0usize;
    let mut first = None;
    for (i, (e, a)) in expected
        .chunks_exact(size)
        .zip(actual.chunks_exact(size))
        .enumerate()
    {
        let mut eb = [0u8; 8];
        let mut ab = [0u8; 8];
        eb[..size].copy_from_slice(e);
        ab[..size].copy_from_slice(a);
        let (e, a) = (u64::from_le_bytes(eb), u64::from_le_bytes(ab));
        let ok = match elem {
            Elem::F(_) => ulp_distance(elem, e, a) <= case.ulp,
            Elem::I(..) => e == a,
        };
        if !ok {
            bad += 1;
            first.get_or_insert((i, e, a));
        }
    }
    first.map(|(i, e, a)| {
        let show = |bits: u64| match elem {
            Elem::F(4) => format!("{} ({bits:#x})", f32::from_bits(bits as u32)),
            Elem::F(8) => format!("{} ({bits:#x})", f64::from_bits(bits)),
            Elem::I(s, true) => format!("{}", ((bits << (64 - 8 * s)) as i64) >> (64 - 8 * s)),
            _ => format!("{bits:#x}"),
        };
        format!(
            "argument {index}: {bad} elements differ; first at element {i}: got {}, expected {}",
            show(a),
            show(e)
        )
    })
}

fn check_case(name: &str) {
    let case = parse_case(name);
    let inputs = inputs(&case);
    let dir = std::env::temp_dir().join(format!("oxcl-corpus-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");

    let expected = match run_pocl(&case, &inputs, &dir) {
        Ok(Some(results)) => Some(results),
        Ok(None) => {
            eprintln!(
                "{name}: PoCL (python3-pyopencl) not available: results are not compared, only run"
            );
            None
        }
        Err(e) => panic!("{name}: {e}"),
    };

    let source = std::fs::read_to_string(&case.path).expect("source");
    let mut runs = vec![(
        "oxcl compiler",
        run_oxcl(
            &case,
            Program::from_source(&context(), &source, &case.path.display().to_string()),
            &inputs,
        ),
    )];
    if tool("clang-15") && tool("llvm-spirv-15") {
        let result = clang_spirv(&case, &dir).and_then(|il| {
            let program = Program::from_il(&context(), &il).map_err(|e| e.to_string())?;
            run_oxcl(&case, program, &inputs)
        });
        runs.push(("clang-15 + llvm-spirv-15", result));
    } else {
        eprintln!("{name}: clang-15/llvm-spirv-15 not installed: the second producer is skipped");
    }
    let _ = std::fs::remove_dir_all(&dir);

    let mut failures = Vec::new();
    for (producer, result) in runs {
        match result {
            Err(e) => failures.push(format!("[{producer}] {e}")),
            Ok(results) => {
                if let Some(expected) = &expected {
                    for (i, (e, a)) in expected.iter().zip(&results).enumerate() {
                        if let (Some(e), Some(a)) = (e, a) {
                            if let Some(diff) = compare(&case, i, e, a) {
                                failures.push(format!("[{producer}] {diff}"));
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{name}:\n{}", failures.join("\n"));
}

macro_rules! corpus {
    ($($name:ident),* $(,)?) => {
        $(#[test] fn $name() { check_case(stringify!($name)); })*

        /// Every file of the corpus has a test above.
        #[test]
        fn corpus_is_complete() {
            let listed = [$(stringify!($name)),*];
            let mut missing = Vec::new();
            for entry in std::fs::read_dir(repo_root().join("tests/corpus")).expect("tests/corpus") {
                let path = entry.expect("entry").path();
                if path.extension().is_some_and(|e| e == "cl") {
                    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default().to_string();
                    if !listed.contains(&stem.as_str()) {
                        missing.push(stem);
                    }
                }
            }
            assert!(missing.is_empty(), "corpus files without a test: {missing:?}");
        }
    };
}

corpus! {
    as_type,
    bitops,
    char_short,
    constant_filter,
    conversions,
    double_math,
    helpers,
    histogram,
    int_arith,
    local_array,
    logic_ops,
    long_math,
    loops,
    mandelbrot,
    math_basic,
    math_trans,
    matmul_naive,
    matmul_tiled,
    nbody_step,
    nested_loops,
    offset_3d,
    prefix_scan,
    preprocessor,
    private_array,
    reduce_local,
    rsqrt_mix,
    saxpy,
    select_vec,
    stencil2d,
    struct_buffer,
    switch_case,
    swizzle,
    transpose,
    typedef_enum,
    vadd,
    vadd_int4,
    vector_convert,
    work_item,
}
