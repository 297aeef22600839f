//! Compiles every kernel of `tests/corpus/` and checks the SPIR-V with `spirv-val --target-env
//! opencl2.2` (skipped with a message when spirv-val is absent), for 64- and 32-bit targets.
//! Some outputs are also compared, instruction by instruction, with what clang-15 +
//! llvm-spirv-15 produce for the same source (barrier semantics, execution modes).

use std::path::{Path, PathBuf};
use std::process::Command;

use clc::options::BuildOptions;
use clc::pp::Target;

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus")
}

fn target(bits: u32) -> Target {
    Target {
        address_bits: bits,
        extensions: vec!["cl_khr_fp64".to_string(), "cl_khr_fp16".to_string()],
        ..Target::default()
    }
}

fn tool_exists(name: &str) -> bool {
    Command::new(name).arg("--version").output().is_ok()
}

fn compile_file(name: &str, bits: u32, options: &str) -> Vec<u8> {
    let path = corpus_dir().join(name);
    let src = std::fs::read_to_string(&path).expect("corpus file");
    let opts = BuildOptions::parse(options).expect("options");
    match clc::compile(&src, name, &opts, &target(bits)) {
        Ok(c) => c.module.to_bytes(),
        Err(e) => panic!("{name} failed to compile:\n{}", e.log),
    }
}

fn temp_file(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("clc-corpus-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let p = dir.join(name);
    std::fs::write(&p, bytes).expect("write spv");
    p
}

/// `spirv-val` verdict, or `None` when the tool is absent.
fn spirv_val(file: &Path) -> Option<Result<(), String>> {
    if !tool_exists("spirv-val") {
        return None;
    }
    let out = Command::new("spirv-val")
        .args(["--target-env", "opencl2.2"])
        .arg(file)
        .output()
        .ok()?;
    if out.status.success() {
        Some(Ok(()))
    } else {
        Some(Err(format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )))
    }
}

fn disassemble(file: &Path) -> Option<String> {
    let out = Command::new("spirv-dis").arg(file).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

fn check_valid(name: &str, options: &str) {
    for bits in [64, 32] {
        let bytes = compile_file(name, bits, options);
        let file = temp_file(&format!("{name}.{bits}.spv"), &bytes);
        match spirv_val(&file) {
            None => {
                eprintln!("spirv-val not found: skipping validation of {name}");
                return;
            }
            Some(Ok(())) => {}
            Some(Err(msg)) => panic!("{name} ({bits}-bit) is invalid SPIR-V:\n{msg}"),
        }
    }
}

macro_rules! corpus_tests {
    ($($test:ident => $file:literal $(, $opts:literal)?);* $(;)?) => {
        $(
            #[test]
            fn $test() {
                check_valid($file, concat!("" $(, $opts)?));
            }
        )*
    };
}

corpus_tests! {
    vector_add_validates => "vector_add.cl";
    saxpy_validates => "saxpy.cl";
    swizzles_validate => "swizzles.cl";
    structs_validate => "structs.cl";
    switch_validates => "switch.cl";
    loops_validate => "loops.cl";
    reduction_validates => "reduction.cl";
    intops_validate => "intops.cl";
    conversions_validate => "conversions.cl";
    helpers_validate => "helpers.cl";
    mandelbrot_validates => "mandelbrot.cl";
    atomics_validate => "atomics.cl";
    stress_validates => "stress.cl";
    kernel_calls_validate => "kernel_calls.cl";
    printf_validates => "printf.cl";
    tricky_validates => "tricky.cl";
    builtins_validate => "builtins.cl";
    builtins_cl20_validate => "builtins20.cl", "-cl-std=CL2.0";
    half_validates => "half.cl";
    attributes_validate => "attributes.cl";
    async_shuffle_validate => "async_shuffle.cl";
    initializers_validate => "initializers.cl";
    atomics20_validate => "atomics20.cl", "-cl-std=CL2.0";
    constant_loops_validate => "constant_loops.cl";
    address_spaces20_validate => "address_spaces20.cl", "-cl-std=CL2.0";
}

#[test]
fn every_corpus_file_validates_in_every_version() {
    let mut names: Vec<String> = std::fs::read_dir(corpus_dir())
        .expect("corpus dir")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".cl"))
        .collect();
    names.sort();
    assert!(names.len() >= 11);
    for n in names {
        check_valid(&n, "-cl-std=CL2.0");
        // Files named `*20.cl` use OpenCL C 2.0 features (1.2 lacks them, 3.0 makes them
        // optional).
        if !n.ends_with("20.cl") {
            check_valid(&n, "");
            check_valid(&n, "-cl-std=CL3.0");
        }
    }
}

/// The lines of `text` that contain `needle`, with result ids and type names dropped, so that
/// two producers' instructions compare.
fn lines_with(text: &str, needle: &str) -> Vec<String> {
    text.lines()
        .filter(|l| l.contains(needle))
        .map(|l| {
            l.split_whitespace()
                .filter(|w| !w.starts_with('%') || w.starts_with("%uint_"))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

/// Disassembly of clang-15 + llvm-spirv-15 output for a corpus file (None when the tools are
/// missing or fail).
fn llvm_spirv_disassembly(file: &str) -> Option<String> {
    if !tool_exists("spirv-dis") || Command::new("clang-15").arg("--version").output().is_err() {
        return None;
    }
    let dir = std::env::temp_dir().join(format!("clc-corpus-{}", std::process::id()));
    std::fs::create_dir_all(&dir).ok()?;
    let bc = dir.join(format!("{file}.bc"));
    let spv = dir.join(format!("{file}.theirs.spv"));
    let ok = Command::new("clang-15")
        .args([
            "-c",
            "-target",
            "spir64",
            "-cl-std=CL2.0",
            "-O0",
            "-emit-llvm",
            "-o",
        ])
        .arg(&bc)
        .arg(corpus_dir().join(file))
        .status()
        .is_ok_and(|s| s.success())
        && Command::new("llvm-spirv-15")
            .arg("--spirv-max-version=1.2")
            .arg(&bc)
            .arg("-o")
            .arg(&spv)
            .status()
            .is_ok_and(|s| s.success());
    if !ok {
        return None;
    }
    disassemble(&spv)
}

/// Our instructions containing each needle equal llvm-spirv's (ids dropped).
fn compare_with_llvm_spirv(file: &str, options: &str, needles: &[&str]) {
    let Some(theirs) = llvm_spirv_disassembly(file) else {
        eprintln!(
            "clang-15/llvm-spirv-15/spirv-dis unavailable: skipping the comparison for {file}"
        );
        return;
    };
    let ours = temp_file(
        &format!("{file}.ours.spv"),
        &compile_file(file, 64, options),
    );
    let ours = disassemble(&ours).expect("spirv-dis");
    for n in needles {
        assert_eq!(
            lines_with(&ours, n),
            lines_with(&theirs, n),
            "{file}: lines with {n}"
        );
    }
}

/// Barrier semantics and the `reqd_work_group_size` execution mode match clang + llvm-spirv.
#[test]
fn reduction_matches_llvm_spirv() {
    compare_with_llvm_spirv("reduction.cl", "", &["OpControlBarrier", "LocalSize "]);
}

/// `work_group_size_hint`, `vec_type_hint` (float4 = 5 | 4 << 16) and `reqd_work_group_size`.
#[test]
fn attributes_match_llvm_spirv() {
    compare_with_llvm_spirv("attributes.cl", "", &["OpExecutionMode"]);
}

/// OpenCL C 2.0 atomics: opcodes, scopes and memory semantics as llvm-spirv emits them.
#[test]
fn c11_atomics_match_llvm_spirv() {
    compare_with_llvm_spirv(
        "atomics20.cl",
        "-cl-std=CL2.0",
        &["OpAtomic", "OpMemoryBarrier", "OpControlBarrier"],
    );
}

/// Atomic opcodes and operand order (`atomic_cmpxchg` puts Value before Comparator).
#[test]
fn atomic_cmpxchg_operand_order() {
    if !tool_exists("spirv-dis") {
        eprintln!("spirv-dis not found: skipping");
        return;
    }
    let f = temp_file("atomics.spv", &compile_file("atomics.cl", 64, ""));
    let text = disassemble(&f).expect("disassembles");
    // atomic_cmpxchg(p, 1, 2): Equal/Unequal semantics 0, Value 2, Comparator 1.
    assert!(text.contains("%uint_0 %uint_0 %uint_2 %uint_1"), "{text}");
    assert!(text.contains("OpAtomicUMin"));
    // env 2.1 allows only integer atomics: atomic_xchg on a float goes through its bits.
    assert!(!text.contains("OpAtomicExchange %float"));
    assert!(text.contains("OpBitcast %_ptr_CrossWorkgroup_uint"));
}

#[test]
fn kernel_arg_type_string_and_names() {
    if !tool_exists("spirv-dis") {
        eprintln!("spirv-dis not found: skipping");
        return;
    }
    let f = temp_file("va.spv", &compile_file("vector_add.cl", 64, ""));
    let text = disassemble(&f).expect("disassembles");
    assert!(text.contains("OpString \"kernel_arg_type.vector_add.float*,float*,float*,int,\""));
    assert!(text.contains("OpEntryPoint Kernel %vector_add \"vector_add\""));
    for p in ["a", "b", "c", "n"] {
        assert!(
            text.contains(&format!("OpName %{p} \"{p}\"")),
            "missing OpName for {p}"
        );
    }
    assert!(text.contains("OpMemoryModel Physical64 OpenCL"));
    // env 2.2: OpenCL C 1.2 is 0x00010200.
    assert!(text.contains("OpSource OpenCL_C 66048"));
    let f32 = temp_file("va32.spv", &compile_file("vector_add.cl", 32, ""));
    let text32 = disassemble(&f32).expect("disassembles");
    assert!(text32.contains("OpMemoryModel Physical32 OpenCL"));
    assert!(text32.contains("OpTypeVector %uint 3"));
}

#[test]
fn kernel_argument_info() {
    let src = "typedef struct { int a; float b; } S;\n\
               __kernel void k(__global const float *restrict a, __local int *l, __constant float4 *c, uint n, S s) {}\n";
    let opts = BuildOptions::parse("").expect("options");
    let c = clc::compile(src, "k.cl", &opts, &target(64)).expect("compiles");
    assert_eq!(c.kernels.len(), 1);
    let k = &c.kernels[0];
    assert_eq!(k.name, "k");
    let names: Vec<&str> = k.args.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["a", "l", "c", "n", "s"]);
    let types: Vec<&str> = k.args.iter().map(|a| a.type_name.as_str()).collect();
    // clang-15 -cl-kernel-arg-info spells the typedef: kernel_arg_type "S".
    assert_eq!(types, ["float*", "int*", "float4*", "uint", "S"]);
    use clc::ast::AddrSpace;
    let spaces: Vec<AddrSpace> = k.args.iter().map(|a| a.address_space).collect();
    assert_eq!(
        spaces,
        [
            AddrSpace::Global,
            AddrSpace::Local,
            AddrSpace::Constant,
            AddrSpace::Private,
            AddrSpace::Private
        ]
    );
    assert!(k.args[0].is_const && k.args[0].is_restrict);
    assert!(!k.args[1].is_const && !k.args[1].is_restrict);
    // Sizes: pointers 8 bytes, uint 4, struct {int; float} 8.
    let sizes: Vec<u64> = k.args.iter().map(|a| a.size).collect();
    assert_eq!(sizes, [8, 8, 8, 4, 8]);
}
