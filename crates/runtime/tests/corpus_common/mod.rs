//! The corpus harness shared by `corpus.rs` (oxcl against PoCL) and `jit_corpus.rs` (JIT against
//! interpreter): the `//!` header format of `tests/corpus/*.cl` (documented in `corpus.rs`), the
//! deterministic input generation, and running a case on oxcl.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use runtime::{Buffer, Context, MemFlags, NdRange, Platform, Program, Queue};

pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[derive(Clone, Debug)]
pub enum Arg {
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
pub enum Elem {
    I(usize, bool),
    F(usize),
}

impl Elem {
    pub fn size(self) -> usize {
        match self {
            Elem::I(s, _) | Elem::F(s) => s,
        }
    }

    pub fn descr(self) -> String {
        match self {
            Elem::I(1, signed) => format!("|{}1", if signed { 'i' } else { 'u' }),
            Elem::I(s, signed) => format!("<{}{s}", if signed { 'i' } else { 'u' }),
            Elem::F(s) => format!("<f{s}"),
        }
    }
}

pub fn parse_type(name: &str) -> (Elem, usize) {
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

pub struct Case {
    pub name: String,
    pub path: PathBuf,
    pub kernel: String,
    pub global: Vec<usize>,
    pub local: Option<Vec<usize>>,
    pub offset: Option<Vec<usize>>,
    pub options: String,
    pub args: Vec<Arg>,
    pub ulp: u64,
}

pub fn dims(text: &str) -> Vec<usize> {
    text.split(',')
        .map(|v| v.trim().parse().expect("corpus: bad size"))
        .collect()
}

pub fn parse_case(name: &str) -> Case {
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
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

pub fn encode(elem: Elem, v: f64, bits: u64) -> Vec<u8> {
    match elem {
        Elem::F(4) => (v as f32).to_le_bytes().to_vec(),
        Elem::F(8) => v.to_le_bytes().to_vec(),
        Elem::F(2) => half::f16::from_f64(v).to_le_bytes().to_vec(),
        Elem::I(s, _) => bits.to_le_bytes()[..s].to_vec(),
        Elem::F(_) => unreachable!("only half, float and double"),
    }
}

pub fn parse_value(elem: Elem, text: &str) -> Vec<u8> {
    match elem {
        Elem::F(_) => encode(elem, text.parse::<f64>().expect("float value"), 0),
        Elem::I(..) => {
            let v: i128 = text.parse().expect("integer value");
            encode(elem, 0.0, v as u64)
        }
    }
}

pub fn generate(
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

/// Inputs of a case: for each argument, its initial bytes (buffers and values) or local size.
pub fn inputs(case: &Case) -> Vec<Vec<u8>> {
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
pub fn run_oxcl(
    engine: Option<runtime::EngineKind>,
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
    let queue = match engine {
        Some(engine) => Queue::new(&context).with_engine(engine),
        None => Queue::new(&context),
    };
    queue
        .nd_range(&kernel, &range)
        .map_err(|e| format!("run: {e}"))?;
    Ok(buffers.into_iter().map(|b| b.map(|b| b.to_vec())).collect())
}

pub fn context() -> Context {
    Context::new(Platform::get().devices().remove(0))
}

#[macro_export]
macro_rules! corpus {
    ($($name:ident),* $(,)?) => {
        $(#[test] fn $name() { check_case(stringify!($name)); })*

        /// Every file of the corpus has a test above.
        #[test]
        fn corpus_is_complete() {
            let listed = [$(stringify!($name)),*];
            let mut missing = Vec::new();
            for entry in std::fs::read_dir(corpus_common::repo_root().join("tests/corpus")).expect("tests/corpus") {
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
