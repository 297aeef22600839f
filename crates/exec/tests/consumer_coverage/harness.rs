//! The harness of the opcode-coverage corpus: builds a case (OpenCL C through clang-15 +
//! llvm-spirv-15, or SPIR-V assembly through `spv::assemble`), validates it for a full-profile
//! OpenCL 3.0 device with every optional feature and extension oxcl knows, lowers it, runs it
//! on the interpreter, compares every output buffer with the expected bytes, and records the
//! opcodes of the modules that ran correctly. Shared by several test crates, each using a part.

#![allow(dead_code)]

use std::collections::BTreeSet;
use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};

use exec::{ArgValue, Engine, Interpreter, Launch, NdRange};
use spv::valid::{feature, Env};
use spv::Op;

/// The device environment of the corpus: OpenCL 3.0 full profile with all features and
/// extensions (a module may use anything the environment admits), and pipe storage, which
/// oxcl's device supports beyond what the 3.0 environment requires.
pub fn env() -> Env {
    let mut env = Env::from_target_env("opencl3.0")
        .expect("env")
        .with_capability(spv::Capability::PipeStorage);
    for f in [feature::INT64, feature::FP64] {
        env = env.with_feature(f);
    }
    for x in [
        "cl_khr_fp16",
        "cl_khr_fp64",
        "cl_khr_int64_base_atomics",
        "cl_khr_int64_extended_atomics",
        "cl_khr_subgroups",
        "cl_khr_subgroup_non_uniform_vote",
        "cl_khr_subgroup_ballot",
        "cl_khr_subgroup_non_uniform_arithmetic",
        "cl_khr_subgroup_shuffle",
        "cl_khr_subgroup_shuffle_relative",
        "cl_khr_subgroup_clustered_reduce",
        "cl_khr_subgroup_named_barrier",
    ] {
        env = env.with_extension(x);
    }
    env
}

/// One kernel argument with its initial bytes, and the bytes it must hold afterwards (buffers).
pub enum Arg {
    /// A buffer: initial contents, expected contents.
    Buffer(Vec<u8>, Vec<u8>),
    /// A by-value argument.
    Value(Vec<u8>),
    /// A `__local` pointer of this many bytes.
    Local(usize),
    /// An image: initial memory, expected memory, layout.
    Image(Vec<u8>, Vec<u8>, devlib::image_desc::ImageDesc),
}

/// A corpus case.
pub struct Case {
    pub name: &'static str,
    pub kernel: &'static str,
    pub args: Vec<Arg>,
    pub global: u64,
    pub local: u64,
    /// Expected printf output, if the case checks it.
    pub printf: Option<String>,
}

impl Case {
    pub fn new(name: &'static str, args: Vec<Arg>) -> Case {
        Case {
            name,
            kernel: "k",
            args,
            global: 1,
            local: 1,
            printf: None,
        }
    }

    pub fn range(mut self, global: u64, local: u64) -> Case {
        self.global = global;
        self.local = local;
        self
    }

    pub fn printf(mut self, text: &str) -> Case {
        self.printf = Some(text.to_string());
        self
    }
}

/// Little-endian bytes of `u32`s.
pub fn u32s(values: &[u32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// Little-endian bytes of `u64`s.
pub fn u64s(values: &[u64]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// Little-endian bytes of `f32`s.
pub fn f32s(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

pub fn tools_available() -> bool {
    let ok = |tool: &str| {
        Command::new(tool)
            .arg("--version")
            .output()
            .map(|o| o.status.success())
            .unwrap_or(false)
    };
    ok("clang-15") && ok("llvm-spirv-15")
}

static COUNTER: AtomicU32 = AtomicU32::new(0);

/// OpenCL C → SPIR-V bytes with clang-15 (`-cl-std=std`) and llvm-spirv-15 (DESIGN.md's line).
pub fn compile(source: &str, std: &str) -> Vec<u8> {
    let n = COUNTER.fetch_add(1, Ordering::SeqCst);
    let dir = std::env::temp_dir().join(format!("consumer_cov_{}_{n}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let (cl, bc, out) = (dir.join("k.cl"), dir.join("k.bc"), dir.join("k.spv"));
    std::fs::write(&cl, source).expect("write source");
    let clang = Command::new("clang-15")
        .args(["-c", "-target", "spir64", "-O0", "-emit-llvm"])
        .arg(format!("-cl-std={std}"))
        .arg("-o")
        .arg(&bc)
        .arg(&cl)
        .output()
        .expect("run clang-15");
    assert!(
        clang.status.success(),
        "clang-15: {}",
        String::from_utf8_lossy(&clang.stderr)
    );
    let tr = Command::new("llvm-spirv-15")
        .arg("--spirv-max-version=1.2")
        .arg(&bc)
        .arg("-o")
        .arg(&out)
        .output()
        .expect("run llvm-spirv-15");
    assert!(
        tr.status.success(),
        "llvm-spirv-15: {}",
        String::from_utf8_lossy(&tr.stderr)
    );
    let bytes = std::fs::read(&out).expect("read spv");
    let _ = std::fs::remove_dir_all(&dir);
    bytes
}

/// Validates, lowers and runs `module` on `case`; panics (naming the case) on any failure or
/// wrong output, and returns the opcodes of the module.
pub fn run_module(module: spv::Module, case: &Case) -> BTreeSet<Op> {
    let ops: BTreeSet<Op> = module.instructions.iter().map(|i| i.op).collect();
    let valid = spv::valid::validate(module, &env())
        .unwrap_or_else(|e| panic!("{}: validation failed: {e:?}", case.name));
    let lowered =
        kir::lower::lower(&valid).unwrap_or_else(|e| panic!("{}: lowering failed: {e}", case.name));
    let (index, _) = lowered
        .kernel(case.kernel)
        .unwrap_or_else(|| panic!("{}: no kernel {}", case.name, case.kernel));
    let mut storage: Vec<Vec<u8>> = case
        .args
        .iter()
        .map(|a| match a {
            Arg::Buffer(init, _) | Arg::Image(init, _, _) => init.clone(),
            _ => Vec::new(),
        })
        .collect();
    let values: Vec<ArgValue> = case
        .args
        .iter()
        .zip(storage.iter_mut())
        .map(|(a, bytes)| match a {
            Arg::Buffer(..) => ArgValue::Buffer {
                ptr: bytes.as_mut_ptr(),
                len: bytes.len(),
            },
            Arg::Value(v) => ArgValue::Bytes(v.clone()),
            Arg::Local(n) => ArgValue::Local(*n),
            Arg::Image(_, _, desc) => ArgValue::Image {
                ptr: bytes.as_mut_ptr(),
                len: bytes.len(),
                desc: *desc,
            },
        })
        .collect();
    let stats = Interpreter {
        checked: true,
        ..Interpreter::new()
    }
    .run(&Launch {
        module: &lowered,
        kernel: index,
        args: &values,
        nd: NdRange::new_1d(case.global, case.local),
        threads: 1,
    })
    .unwrap_or_else(|e| panic!("{}: run failed: {e}\n{lowered}", case.name));
    for (k, (arg, got)) in case.args.iter().zip(&storage).enumerate() {
        if let Arg::Buffer(_, expected) | Arg::Image(_, expected, _) = arg {
            assert_eq!(got, expected, "{}: buffer argument {k}", case.name);
        }
    }
    if let Some(text) = &case.printf {
        assert_eq!(
            String::from_utf8_lossy(&stats.printf),
            *text,
            "{}: printf output",
            case.name
        );
    }
    ops
}

/// Compiles OpenCL C and runs the case.
pub fn run_cl(source: &str, std: &str, case: &Case) -> BTreeSet<Op> {
    let bytes = compile(source, std);
    let module = spv::read_bytes(&bytes).expect("readable SPIR-V");
    run_module(module, case)
}

/// Parts of a hand-written kernel `k(global uint *out)` in SPIR-V assembly. The prelude declares
/// the capabilities, `OpenCL.std` as `%std`, and the types `%void %bool %uchar %ushort %uint
/// %ulong %half %float %double %v2uint %v4uint %v2float %v4float %v2bool %v4bool`, pointer
/// types `%ptr_cw_uint %ptr_fn_uint %ptr_wg_uint %ptr_gen_uint %ptr_cw_ulong`, and constants
/// `%u0`…`%u9`, `%l0`…`%l4` (ulong), `%f0 %f1 %f2 %fhalf` (float), `%true %false`.
/// The body starts in the entry block with `%out` defined; it defines `%r0 … %r{n-1}` (uint)
/// and leaves the current block open: the harness stores `%rI` to `out[I]` and returns.
#[derive(Default)]
pub struct Asm {
    pub version: &'static str,
    pub capabilities: &'static str,
    pub interface: &'static str,
    pub modes: &'static str,
    pub annotations: &'static str,
    pub decls: &'static str,
    pub body: &'static str,
    pub functions: &'static str,
}

const PRELUDE_TYPES: &str = "
%void = OpTypeVoid
%bool = OpTypeBool
%uchar = OpTypeInt 8 0
%ushort = OpTypeInt 16 0
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%half = OpTypeFloat 16
%float = OpTypeFloat 32
%double = OpTypeFloat 64
%v2uint = OpTypeVector %uint 2
%v4uint = OpTypeVector %uint 4
%v2float = OpTypeVector %float 2
%v4float = OpTypeVector %float 4
%v2bool = OpTypeVector %bool 2
%v4bool = OpTypeVector %bool 4
%ptr_cw_uint = OpTypePointer CrossWorkgroup %uint
%ptr_cw_ulong = OpTypePointer CrossWorkgroup %ulong
%ptr_fn_uint = OpTypePointer Function %uint
%ptr_wg_uint = OpTypePointer Workgroup %uint
%ptr_gen_uint = OpTypePointer Generic %uint
%kfn = OpTypeFunction %void %ptr_cw_uint
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%u2 = OpConstant %uint 2
%u3 = OpConstant %uint 3
%u4 = OpConstant %uint 4
%u5 = OpConstant %uint 5
%u6 = OpConstant %uint 6
%u7 = OpConstant %uint 7
%u8 = OpConstant %uint 8
%u9 = OpConstant %uint 9
%l0 = OpConstant %ulong 0
%l1 = OpConstant %ulong 1
%l2 = OpConstant %ulong 2
%l3 = OpConstant %ulong 3
%l4 = OpConstant %ulong 4
%f0 = OpConstant %float 0
%f1 = OpConstant %float 1
%f2 = OpConstant %float 2
%fhalf = OpConstant %float 0.5
%true = OpConstantTrue %bool
%false = OpConstantFalse %bool
";

impl Asm {
    /// The module text for results `%r0 … %r{results-1}`.
    pub fn text(&self, results: usize) -> String {
        let version = if self.version.is_empty() {
            "1.4"
        } else {
            self.version
        };
        let mut s = format!("; Version: {version}\n");
        for cap in [
            "Addresses",
            "Linkage",
            "Kernel",
            "Int8",
            "Int16",
            "Int64",
            "Float16",
            "Float64",
            "GenericPointer",
            "Vector16",
        ] {
            s.push_str(&format!("OpCapability {cap}\n"));
        }
        s.push_str(self.capabilities);
        s.push_str("\n%std = OpExtInstImport \"OpenCL.std\"\nOpMemoryModel Physical64 OpenCL\n");
        s.push_str(&format!(
            "OpEntryPoint Kernel %main \"k\" {}\n",
            self.interface
        ));
        s.push_str(self.modes);
        s.push('\n');
        s.push_str(self.annotations);
        s.push_str(PRELUDE_TYPES);
        for i in 0..results {
            s.push_str(&format!("%__idx{i} = OpConstant %ulong {i}\n"));
        }
        s.push_str(self.decls);
        s.push_str(
            "\n%main = OpFunction %void None %kfn\n%out = OpFunctionParameter %ptr_cw_uint\n%entry = OpLabel\n",
        );
        s.push_str(self.body);
        s.push('\n');
        for i in 0..results {
            s.push_str(&format!(
                "%__p{i} = OpInBoundsPtrAccessChain %ptr_cw_uint %out %__idx{i}\nOpStore %__p{i} %r{i} Aligned 4\n"
            ));
        }
        s.push_str("OpReturn\nOpFunctionEnd\n");
        s.push_str(self.functions);
        s
    }

    /// Assembles and runs with one `out` buffer that must end as `expected`.
    pub fn run(&self, name: &'static str, expected: &[u32]) -> BTreeSet<Op> {
        let text = self.text(expected.len());
        let module =
            spv::assemble(&text).unwrap_or_else(|e| panic!("{name}: assembly: {e}\n{text}"));
        let case = Case::new(
            name,
            vec![Arg::Buffer(vec![0xcd; expected.len() * 4], u32s(expected))],
        );
        run_module(module, &case)
    }
}
