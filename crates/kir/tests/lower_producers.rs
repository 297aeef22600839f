//! Modules from producers other than oxcl validate and lower: every kernel of `tests/corpus`
//! compiled by clang-15 + llvm-spirv-15 with `-g` (OpenCL.DebugInfo.100 instructions, OpLine,
//! OpModuleProcessed, decoration groups, LinkageAttributes on built-in variables), with
//! `--spirv-max-version=1.4` (SPIR-V 1.4 modules where llvm-spirv uses a 1.4 feature), and a
//! hand-written kernel using the instructions new in SPIR-V 1.4 assembled by spirv-as for 1.4,
//! 1.5 and 1.6. The validation environment is the OpenCL 3.0 device of `spirv-val`-style
//! naming (1.0–1.6 accepted) with `cl_khr_spirv_extended_debug_info`.

use std::path::{Path, PathBuf};
use std::process::Command;

fn have(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kir_producers_{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    dir.join(name)
}

fn env() -> spv::valid::Env {
    spv::valid::Env::from_target_env("opencl3.0")
        .expect("env")
        .with_extension("cl_khr_spirv_extended_debug_info")
}

/// The `//! options:` line of a corpus kernel (e.g. `-DTILE=16`).
fn options(source: &str) -> Vec<String> {
    source
        .lines()
        .filter_map(|l| l.strip_prefix("//! options:"))
        .flat_map(|o| o.split_whitespace().map(str::to_string).collect::<Vec<_>>())
        .collect()
}

/// clang-15 (with the kernel's options and `extra`) + llvm-spirv-15 at `max_version`.
fn compile(cl: &Path, extra: &[&str], max_version: &str) -> Vec<u8> {
    let source = std::fs::read_to_string(cl).expect("corpus source");
    let stem = cl.file_stem().unwrap().to_string_lossy().into_owned();
    let bc = scratch(&format!("{stem}-{max_version}.bc"));
    let spv = scratch(&format!("{stem}-{max_version}.spv"));
    let o = Command::new("clang-15")
        .args([
            "-c",
            "-target",
            "spir64",
            "-cl-std=CL2.0",
            "-O0",
            "-emit-llvm",
        ])
        .args(extra)
        .args(options(&source))
        .arg("-o")
        .arg(&bc)
        .arg(cl)
        .output()
        .expect("clang-15");
    assert!(
        o.status.success(),
        "clang-15 {stem}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let o = Command::new("llvm-spirv-15")
        .arg(format!("--spirv-max-version={max_version}"))
        .arg(&bc)
        .arg("-o")
        .arg(&spv)
        .output()
        .expect("llvm-spirv-15");
    assert!(
        o.status.success(),
        "llvm-spirv-15 {stem}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    std::fs::read(&spv).expect("spv")
}

fn corpus() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/corpus");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("tests/corpus")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cl"))
        .collect();
    files.sort();
    files
}

/// Reads, validates and lowers; panics with the kernel's name on any failure.
fn validate_and_lower(name: &str, binary: &[u8]) -> spv::Module {
    let module = spv::read_bytes(binary).unwrap_or_else(|e| panic!("{name}: read: {e}"));
    let valid =
        spv::valid::validate(module, &env()).unwrap_or_else(|e| panic!("{name}: validate: {e}"));
    if let Err(e) = kir::lower::lower(&valid) {
        panic!("{name}: lower: {e}");
    }
    valid.into_module()
}

#[test]
fn corpus_with_debug_info_validates_and_lowers() {
    if !have("clang-15") || !have("llvm-spirv-15") {
        eprintln!("skipped: clang-15 or llvm-spirv-15 is not installed");
        return;
    }
    let (mut debug_sets, mut lines, mut processed) = (0, 0, 0);
    let files = corpus();
    for cl in &files {
        let name = cl.file_stem().unwrap().to_string_lossy().into_owned();
        let module = validate_and_lower(&name, &compile(cl, &["-g"], "1.2"));
        let has = |op: spv::Op| module.instructions.iter().any(|i| i.op == op);
        if module
            .instructions
            .iter()
            .any(|i| i.op == spv::Op::ExtInstImport && i.str(0) == Some("OpenCL.DebugInfo.100"))
        {
            debug_sets += 1;
        }
        lines += has(spv::Op::Line) as usize;
        processed += has(spv::Op::ModuleProcessed) as usize;
    }
    // The producer's debug conventions must really be exercised.
    assert_eq!(
        debug_sets,
        files.len(),
        "modules importing OpenCL.DebugInfo.100"
    );
    assert_eq!(lines, files.len(), "modules with OpLine");
    eprintln!(
        "{} kernels with -g: {debug_sets} import OpenCL.DebugInfo.100, {lines} have OpLine, {processed} OpModuleProcessed",
        files.len()
    );
}

#[test]
fn corpus_at_spirv_1_4_validates_and_lowers() {
    if !have("clang-15") || !have("llvm-spirv-15") {
        eprintln!("skipped: clang-15 or llvm-spirv-15 is not installed");
        return;
    }
    let mut at_14 = 0;
    for cl in corpus() {
        let name = cl.file_stem().unwrap().to_string_lossy().into_owned();
        let module = validate_and_lower(&name, &compile(&cl, &[], "1.4"));
        at_14 += (module.header.version == (1, 4)) as usize;
    }
    assert!(at_14 >= 5, "only {at_14} modules came out as SPIR-V 1.4");
}

/// A kernel using the instructions SPIR-V 1.4 adds (OpPtrEqual, OpPtrNotEqual, OpPtrDiff,
/// OpSelect of pointers, OpCopyLogical), with its complete 1.4 interface.
const KERNEL_14: &str = "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\n\
    %ocl = OpExtInstImport \"OpenCL.std\"\nOpMemoryModel Physical64 OpenCL\n\
    OpEntryPoint Kernel %main \"k\" %gid %wg\n\
    OpDecorate %gid BuiltIn GlobalInvocationId\nOpDecorate %gid Constant\n\
    %void = OpTypeVoid\n%bool = OpTypeBool\n%uint = OpTypeInt 32 0\n%ulong = OpTypeInt 64 0\n\
    %v3ulong = OpTypeVector %ulong 3\n%ptr_in_v3 = OpTypePointer Input %v3ulong\n\
    %ptr_cw_uint = OpTypePointer CrossWorkgroup %uint\n%ptr_wg_uint = OpTypePointer Workgroup %uint\n\
    %kfn = OpTypeFunction %void %ptr_cw_uint\n%u1 = OpConstant %uint 1\n\
    %ul1 = OpConstant %ulong 1\n%u4 = OpConstant %uint 4\n%arr = OpTypeArray %uint %u4\n\
    %st = OpTypeStruct %uint %arr\n%st2 = OpTypeStruct %uint %arr\n%cst = OpConstantNull %st\n\
    %gid = OpVariable %ptr_in_v3 Input\n%wg = OpVariable %ptr_wg_uint Workgroup\n\
    %main = OpFunction %void None %kfn\n%out = OpFunctionParameter %ptr_cw_uint\n%entry = OpLabel\n\
    %ids = OpLoad %v3ulong %gid\n%id = OpCompositeExtract %ulong %ids 0\n\
    %p = OpInBoundsPtrAccessChain %ptr_cw_uint %out %id\n%q = OpPtrAccessChain %ptr_cw_uint %out %ul1\n\
    %eq = OpPtrEqual %bool %p %q\n%ne = OpPtrNotEqual %bool %p %q\n%d = OpPtrDiff %ulong %p %q\n\
    %sel = OpSelect %ptr_cw_uint %ne %p %q\n%cl = OpCopyLogical %st2 %cst\n\
    %e = OpCompositeExtract %uint %cl 0\n%v = OpSelect %uint %eq %u1 %e\n%dw = OpUConvert %uint %d\n\
    OpStore %wg %dw\n%w = OpLoad %uint %wg\n%s = OpIAdd %uint %v %w\nOpStore %sel %s\n\
    OpReturn\nOpFunctionEnd\n";

#[test]
fn spirv_as_modules_of_versions_1_3_to_1_6_validate_and_lower() {
    if !have("spirv-as") {
        eprintln!("skipped: spirv-as is not installed");
        return;
    }
    for version in ["1.3", "1.4", "1.5", "1.6"] {
        // 1.3 has none of the 1.4 instructions, and its interface lists Input / Output
        // variables only.
        let text = if version == "1.3" {
            KERNEL_14
                .replace("%gid %wg\n", "%gid\n")
                .replace(
                    "%eq = OpPtrEqual %bool %p %q\n%ne = OpPtrNotEqual %bool %p %q\n%d = OpPtrDiff %ulong %p %q\n\
                     %sel = OpSelect %ptr_cw_uint %ne %p %q\n%cl = OpCopyLogical %st2 %cst\n",
                    "%eq = OpULessThan %bool %id %ul1\n%d = OpIAdd %ulong %id %ul1\n%sel = OpCopyObject %ptr_cw_uint %p\n%cl = OpCopyObject %st %cst\n",
                )
        } else {
            KERNEL_14.to_string()
        };
        let src = scratch(&format!("k{version}.spvasm"));
        let out = scratch(&format!("k{version}.spv"));
        std::fs::write(&src, &text).unwrap();
        let o = Command::new("spirv-as")
            .arg("--target-env")
            .arg(format!("spv{version}"))
            .arg("-o")
            .arg(&out)
            .arg(&src)
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "spirv-as {version}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let module = validate_and_lower(version, &std::fs::read(&out).unwrap());
        let (major, minor) = version.split_once('.').unwrap();
        assert_eq!(
            module.header.version,
            (major.parse().unwrap(), minor.parse().unwrap())
        );
    }
}
