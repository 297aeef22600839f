//! Agreement with spirv-val on modules of a second producer: every kernel of `tests/corpus`
//! compiled by clang-15 + llvm-spirv-15, unchanged and under a fixed list of mutations (each
//! breaking or exercising one rule that both validators check: capabilities per environment,
//! addressing and memory models, signedness, scopes and memory semantics of barriers and
//! atomics per OpenCL version, image operands, types of operands, block structure, SPIR-V
//! versions). oxcl's verdict for `Env::from_target_env(E)` must equal
//! `spirv-val --target-env E` for E in opencl1.2, 2.0, 2.1 and 2.2.

#[path = "valid/common.rs"]
mod common;

use spv::valid::Env;
use std::path::PathBuf;
use std::process::Command;

const ENVS: [&str; 4] = ["opencl1.2", "opencl2.0", "opencl2.1", "opencl2.2"];

/// Constants the mutations may refer to, inserted after the 32-bit integer type.
const MUT_CONSTANTS: &str = "%mut_u0 = OpConstant %uint 0\n%mut_u1 = OpConstant %uint 1\n\
    %mut_u2 = OpConstant %uint 2\n%mut_u3 = OpConstant %uint 3\n%mut_u4 = OpConstant %uint 4\n\
    %mut_u16 = OpConstant %uint 16\n%mut_u258 = OpConstant %uint 258\n%mut_u264 = OpConstant %uint 264\n\
    %mut_u262 = OpConstant %uint 262\n%mut_u512 = OpConstant %uint 512\n";

fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/corpus")
}

/// clang-15 + llvm-spirv-15 (the working line of the design notes), disassembled by spirv-dis.
fn compile_to_text(cl: &std::path::Path) -> Option<String> {
    let bc = common::scratch("bc");
    let spv = common::scratch("spv");
    let o = Command::new("clang-15")
        .args([
            "-c",
            "-target",
            "spir64",
            "-cl-std=CL2.0",
            "-O0",
            "-emit-llvm",
        ])
        .arg("-o")
        .arg(&bc)
        .arg(cl)
        .output()
        .ok()?;
    if !o.status.success() {
        return None;
    }
    let o = Command::new("llvm-spirv-15")
        .arg("--spirv-max-version=1.0")
        .arg(&bc)
        .arg("-o")
        .arg(&spv)
        .output()
        .ok()?;
    if !o.status.success() {
        return None;
    }
    let o = Command::new("spirv-dis").arg(&spv).output().ok()?;
    o.status
        .success()
        .then(|| String::from_utf8_lossy(&o.stdout).into_owned())
}

/// Assembles with spirv-as for a SPIR-V version; None when the mutated text does not assemble.
fn assemble(text: &str, version: &str) -> Option<Vec<u8>> {
    let src = common::scratch("spvasm");
    let out = common::scratch("spv");
    std::fs::write(&src, text).ok()?;
    let o = Command::new("spirv-as")
        .arg("--target-env")
        .arg(format!("spv{version}"))
        .arg("-o")
        .arg(&out)
        .arg(&src)
        .output()
        .ok()?;
    if !o.status.success() {
        return None;
    }
    std::fs::read(&out).ok()
}

/// Replaces the first line that starts (after its result) with `op` by `f(line)`.
fn edit_first(
    text: &str,
    pred: impl Fn(&str) -> bool,
    f: impl Fn(&str) -> Option<String>,
) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    let k = lines.iter().position(|l| pred(l.trim()))?;
    let new = f(lines[k].trim())?;
    let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    out[k] = new;
    Some(out.join("\n") + "\n")
}

/// Replaces operand `n` (0 = first word after the opcode) of the first instruction with `op`.
fn set_operand(text: &str, op: &str, n: usize, value: &str) -> Option<String> {
    edit_first(
        text,
        |l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let at = if words.get(1) == Some(&"=") { 2 } else { 0 };
            words.get(at) == Some(&op)
        },
        |l| {
            let mut words: Vec<&str> = l.split_whitespace().collect();
            let at = if words.get(1) == Some(&"=") { 3 } else { 1 };
            let slot = words.get_mut(at + n)?;
            *slot = value;
            Some(words.join(" "))
        },
    )
}

/// Adds `OpCapability cap` after the Kernel capability.
fn add_cap(text: &str, cap: &str) -> Option<String> {
    edit_first(
        text,
        |l| l == "OpCapability Kernel",
        |l| Some(format!("{l}\nOpCapability {cap}")),
    )
}

/// One mutation: a name, the SPIR-V version to assemble for and the edit; in the environments
/// of `stricter` oxcl rejects the result citing `rule` where spirv-val 2023.1 (which does not
/// check barrier scopes and orders per OpenCL version) accepts it.
struct M {
    name: &'static str,
    version: &'static str,
    edit: fn(&str) -> Option<String>,
    stricter: &'static [&'static str],
    rule: &'static str,
}

/// Barrier rules of the environment that spirv-val does not check: env 2.1 / 3.3–6.3 "Scope for
/// Execution is generally limited to Workgroup (and Subgroup from 2.1)", "Scope for Memory is
/// limited to CrossDevice, Device, Workgroup, Invocation" (Subgroup from 2.1 in the 3.0 text),
/// and env 6.3 "For the Barrier Instructions OpControlBarrier and OpMemoryBarrier, the Scope for
/// execution must be Workgroup, the Scope for memory must be Workgroup, and the Memory
/// Semantics must be SequentiallyConsistent".
fn mutations() -> Vec<M> {
    vec![
        M {
            name: "unchanged",
            version: "1.0",
            edit: |t| Some(t.to_string()),
            stricter: &[],
            rule: "",
        },
        M {
            name: "SPIR-V 1.1",
            version: "1.1",
            edit: |t| Some(t.to_string()),
            stricter: &[],
            rule: "",
        },
        M {
            name: "SPIR-V 1.2",
            version: "1.2",
            edit: |t| Some(t.to_string()),
            stricter: &[],
            rule: "",
        },
        M {
            name: "signed int",
            version: "1.0",
            edit: |t| {
                edit_first(
                    t,
                    |l| l.ends_with("OpTypeInt 32 0"),
                    |l| Some(l.replace("OpTypeInt 32 0", "OpTypeInt 32 1")),
                )
            },
            stricter: &[],
            rule: "",
        },
        M {
            name: "no Int64 capability",
            version: "1.0",
            edit: |t| edit_first(t, |l| l == "OpCapability Int64", |_| Some(String::new())),
            stricter: &[],
            rule: "",
        },
        M {
            name: "no Addresses capability",
            version: "1.0",
            edit: |t| {
                edit_first(
                    t,
                    |l| l == "OpCapability Addresses",
                    |_| Some(String::new()),
                )
            },
            stricter: &[],
            rule: "",
        },
        M {
            name: "logical addressing",
            version: "1.0",
            edit: |t| {
                edit_first(
                    t,
                    |l| l.starts_with("OpMemoryModel"),
                    |_| Some("OpMemoryModel Logical OpenCL".into()),
                )
            },
            stricter: &[],
            rule: "",
        },
        M {
            name: "GLSL memory model",
            version: "1.0",
            edit: |t| {
                edit_first(
                    t,
                    |l| l.starts_with("OpMemoryModel"),
                    |_| Some("OpMemoryModel Physical64 GLSL450".into()),
                )
            },
            stricter: &[],
            rule: "",
        },
        M {
            name: "GLCompute entry point",
            version: "1.0",
            edit: |t| {
                edit_first(
                    t,
                    |l| l.starts_with("OpEntryPoint Kernel"),
                    |l| Some(l.replace("OpEntryPoint Kernel", "OpEntryPoint GLCompute")),
                )
            },
            stricter: &[],
            rule: "",
        },
        M {
            name: "Float16 capability",
            version: "1.0",
            edit: |t| add_cap(t, "Float16"),
            stricter: &[],
            rule: "",
        },
        M {
            name: "GenericPointer capability",
            version: "1.0",
            edit: |t| add_cap(t, "GenericPointer"),
            stricter: &[],
            rule: "",
        },
        M {
            name: "Pipes capability",
            version: "1.0",
            edit: |t| add_cap(t, "Pipes"),
            stricter: &[],
            rule: "",
        },
        M {
            name: "DeviceEnqueue capability",
            version: "1.0",
            edit: |t| add_cap(t, "DeviceEnqueue"),
            stricter: &[],
            rule: "",
        },
        M {
            name: "Groups capability",
            version: "1.0",
            edit: |t| add_cap(t, "Groups"),
            stricter: &[],
            rule: "",
        },
        M {
            name: "SubgroupDispatch capability",
            version: "1.1",
            edit: |t| add_cap(t, "SubgroupDispatch"),
            stricter: &[],
            rule: "",
        },
        M {
            name: "Int64Atomics capability",
            version: "1.0",
            edit: |t| add_cap(t, "Int64Atomics"),
            stricter: &[],
            rule: "",
        },
        M {
            name: "Shader capability",
            version: "1.0",
            edit: |t| add_cap(t, "Shader"),
            stricter: &[],
            rule: "",
        },
        M {
            name: "duplicate int type",
            version: "1.0",
            edit: |t| {
                edit_first(
                    t,
                    |l| l.ends_with("OpTypeInt 32 0"),
                    |l| Some(format!("{l}\n%mut_dup = OpTypeInt 32 0")),
                )
            },
            stricter: &[],
            rule: "",
        },
        M {
            name: "missing function end",
            version: "1.0",
            stricter: &[],
            rule: "",
            edit: |t| {
                let k = t.rfind("OpFunctionEnd")?;
                Some(format!("{}{}", &t[..k], &t[k + "OpFunctionEnd".len()..]))
            },
        },
        M {
            name: "missing return",
            version: "1.0",
            edit: |t| edit_first(t, |l| l == "OpReturn", |_| Some(String::new())),
            stricter: &[],
            rule: "",
        },
        M {
            name: "load of the wrong type",
            version: "1.0",
            edit: |t| {
                edit_first(
                    t,
                    |l| l.contains("= OpLoad %uint "),
                    |l| Some(l.replace("= OpLoad %uint ", "= OpLoad %ulong ")),
                )
            },
            stricter: &[],
            rule: "",
        },
        M {
            name: "store operands swapped",
            version: "1.0",
            stricter: &[],
            rule: "",
            edit: |t| {
                edit_first(
                    t,
                    |l| l.starts_with("OpStore "),
                    |l| {
                        let w: Vec<&str> = l.split_whitespace().collect();
                        Some(format!("OpStore {} {}", w.get(2)?, w.get(1)?))
                    },
                )
            },
        },
        M {
            name: "branch to a constant",
            version: "1.0",
            edit: |t| set_operand(t, "OpBranch", 0, "%mut_u1"),
            stricter: &[],
            rule: "",
        },
        M {
            name: "integer branch condition",
            version: "1.0",
            edit: |t| set_operand(t, "OpBranchConditional", 0, "%mut_u1"),
            stricter: &[],
            rule: "",
        },
        M {
            name: "call without its last argument",
            version: "1.0",
            stricter: &[],
            rule: "",
            edit: |t| {
                edit_first(
                    t,
                    |l| l.contains("= OpFunctionCall ") && l.split_whitespace().count() > 5,
                    |l| {
                        let mut w: Vec<&str> = l.split_whitespace().collect();
                        w.pop();
                        Some(w.join(" "))
                    },
                )
            },
        },
        M {
            name: "barrier memory scope Device",
            version: "1.0",
            edit: |t| set_operand(t, "OpControlBarrier", 1, "%mut_u1"),
            stricter: &["opencl1.2"],
            rule: "Scope for Memory of barrier",
        },
        M {
            name: "barrier memory scope CrossDevice",
            version: "1.0",
            edit: |t| set_operand(t, "OpControlBarrier", 1, "%mut_u0"),
            stricter: &["opencl1.2"],
            rule: "Scope for Memory of barrier",
        },
        M {
            name: "barrier memory scope Invocation",
            version: "1.0",
            edit: |t| set_operand(t, "OpControlBarrier", 1, "%mut_u4"),
            stricter: &["opencl1.2"],
            rule: "Scope for Memory of barrier",
        },
        M {
            name: "barrier memory scope Subgroup",
            version: "1.0",
            edit: |t| set_operand(t, "OpControlBarrier", 1, "%mut_u3"),
            stricter: &["opencl1.2", "opencl2.0"],
            rule: "Scope for Memory of barrier",
        },
        M {
            name: "barrier execution scope Subgroup",
            version: "1.0",
            edit: |t| set_operand(t, "OpControlBarrier", 0, "%mut_u3"),
            stricter: &["opencl1.2", "opencl2.0"],
            rule: "Scope for Execution",
        },
        M {
            name: "barrier execution scope Device",
            version: "1.0",
            edit: |t| set_operand(t, "OpControlBarrier", 0, "%mut_u1"),
            stricter: &["opencl1.2", "opencl2.0", "opencl2.1", "opencl2.2"],
            rule: "Scope for Execution",
        },
        M {
            name: "barrier relaxed",
            version: "1.0",
            edit: |t| set_operand(t, "OpControlBarrier", 2, "%mut_u0"),
            stricter: &["opencl1.2"],
            rule: "memory-order constraint of barrier",
        },
        M {
            name: "barrier acquire",
            version: "1.0",
            edit: |t| set_operand(t, "OpControlBarrier", 2, "%mut_u258"),
            stricter: &["opencl1.2"],
            rule: "memory-order constraint of barrier",
        },
        M {
            name: "barrier acquire-release",
            version: "1.0",
            edit: |t| set_operand(t, "OpControlBarrier", 2, "%mut_u264"),
            stricter: &["opencl1.2"],
            rule: "memory-order constraint of barrier",
        },
        M {
            name: "barrier two orders",
            version: "1.0",
            edit: |t| set_operand(t, "OpControlBarrier", 2, "%mut_u262"),
            stricter: &[],
            rule: "",
        },
        M {
            name: "barrier semantics not constant type",
            version: "1.0",
            edit: |t| set_operand(t, "OpControlBarrier", 2, "%ulong_0"),
            stricter: &[],
            rule: "",
        },
        M {
            name: "atomic scope Workgroup",
            version: "1.0",
            edit: |t| atomic_operand(t, 1, "%mut_u2"),
            stricter: &[],
            rule: "",
        },
        M {
            name: "atomic scope Subgroup",
            version: "1.0",
            edit: |t| atomic_operand(t, 1, "%mut_u3"),
            stricter: &[],
            rule: "",
        },
        M {
            name: "atomic scope Invocation",
            version: "1.0",
            edit: |t| atomic_operand(t, 1, "%mut_u4"),
            stricter: &[],
            rule: "",
        },
        M {
            name: "atomic scope CrossDevice",
            version: "1.0",
            edit: |t| atomic_operand(t, 1, "%mut_u0"),
            stricter: &[],
            rule: "",
        },
        M {
            name: "atomic sequentially consistent",
            version: "1.0",
            edit: |t| atomic_operand(t, 2, "%mut_u16"),
            stricter: &[],
            rule: "",
        },
        M {
            name: "atomic acquire-release",
            version: "1.0",
            edit: |t| atomic_operand(t, 2, "%mut_u264"),
            stricter: &[],
            rule: "",
        },
        M {
            name: "atomic two orders",
            version: "1.0",
            edit: |t| atomic_operand(t, 2, "%mut_u262"),
            stricter: &[],
            rule: "",
        },
        M {
            name: "image write with Lod",
            version: "1.0",
            edit: |t| {
                edit_first(
                    t,
                    |l| l.starts_with("OpImageWrite ") && l.split_whitespace().count() == 4,
                    |l| Some(format!("{l} Lod %mut_u0")),
                )
            },
            stricter: &[],
            rule: "",
        },
        M {
            name: "image read with ConstOffset",
            version: "1.0",
            edit: |t| {
                edit_first(
                    t,
                    |l| l.contains("= OpImageRead ") && l.split_whitespace().count() == 6,
                    |l| Some(format!("{l} ConstOffset %mut_u0")),
                )
            },
            stricter: &[],
            rule: "",
        },
    ]
}

/// Replaces operand `n` (pointer 0, scope 1, semantics 2) of the first atomic instruction.
fn atomic_operand(text: &str, n: usize, value: &str) -> Option<String> {
    edit_first(
        text,
        |l| l.contains("= OpAtomic") && !l.contains("OpAtomicFlag"),
        |l| {
            let mut words: Vec<&str> = l.split_whitespace().collect();
            let slot = words.get_mut(4 + n)?;
            *slot = value;
            Some(words.join(" "))
        },
    )
}

/// The corpus kernels (name, disassembly), compiled once for both tests.
fn compiled_corpus() -> &'static [(String, String)] {
    static CORPUS: std::sync::OnceLock<Vec<(String, String)>> = std::sync::OnceLock::new();
    CORPUS.get_or_init(|| {
        let mut sources: Vec<PathBuf> = std::fs::read_dir(corpus_dir())
            .expect("tests/corpus")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "cl"))
            .collect();
        sources.sort();
        sources
            .iter()
            .filter_map(|src| {
                let text = compile_to_text(src)?;
                Some((src.file_stem()?.to_string_lossy().into_owned(), text))
            })
            .collect()
    })
}

fn tools_present() -> bool {
    for tool in [
        "clang-15",
        "llvm-spirv-15",
        "spirv-val",
        "spirv-as",
        "spirv-dis",
    ] {
        if !common::have(tool) {
            eprintln!("skipped: {tool} is not installed");
            return false;
        }
    }
    true
}

/// Random edits of the corpus modules (seeded xorshift, so every run is the same): an id
/// operand replaced by another id of the module, a line deleted, a line without result
/// duplicated, two adjacent lines swapped. Edits that spirv-as refuses are dropped. Verdicts
/// must agree, except where oxcl rejects the module for a rule of [`STRICTER`].
/// Rules oxcl checks and spirv-val 2023.1 does not: env 3.0 "Alignment of Types" (an
/// `Alignment` decoration below the natural alignment of the variable's type), and SPIR-V 3.32.8
/// OpPtrAccessChain (Element, an element index like the indices of an access chain, is an
/// integer scalar), env 8.2 (FPRoundingMode decorates conversions only) and SPIR-V 3.20
/// (SaturatedConversion decorates conversions to integers only), env 3.0 Built-in Variables
/// ("All built-in variables must be in the Input storage class") and SPIR-V 3.32.11 OpBitcast
/// (a pointer bitcast keeps the storage class).
const STRICTER: &[&str] = &[
    "Alignment of Types",
    "Element must be an integer scalar",
    "FPRoundingMode only on",
    "SaturatedConversion only on",
    "built-in variables are in the Input storage class",
    "a pointer bitcast keeps the storage class",
];

#[test]
fn verdicts_on_randomly_edited_clang_modules_agree_with_spirv_val() {
    if !tools_present() {
        return;
    }
    // Longer runs: OXCL_AGREEMENT_EDITS (edits per kernel) and OXCL_AGREEMENT_SEED.
    let env_number = |name: &str| std::env::var(name).ok().and_then(|v| v.parse::<u64>().ok());
    let edits_per_kernel = env_number("OXCL_AGREEMENT_EDITS").unwrap_or(8) as usize;
    let mut seed: u64 = env_number("OXCL_AGREEMENT_SEED").unwrap_or(0x9E37_79B9_7F4A_7C15) | 1;
    let mut below = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n.max(1) as u64) as usize
    };
    let envs: Vec<Env> = ENVS
        .iter()
        .map(|e| Env::from_target_env(e).unwrap())
        .collect();
    let (mut modules, mut verdicts, mut stricter) = (0usize, 0usize, 0usize);
    let mut disagreements = Vec::new();
    for (kernel, text) in compiled_corpus() {
        let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with(';')).collect();
        let ids: Vec<&str> = lines
            .iter()
            .filter_map(|l| l.trim().split_once(" = ").map(|(id, _)| id.trim()))
            .collect();
        let mut made = 0;
        let mut attempts = 0;
        while made < edits_per_kernel && attempts < 10 * edits_per_kernel {
            attempts += 1;
            let mut edited: Vec<String> = lines.iter().map(|l| l.trim().to_string()).collect();
            let k = below(edited.len());
            match below(4) {
                0 => {
                    let mut words: Vec<String> =
                        edited[k].split_whitespace().map(str::to_string).collect();
                    let first = if words.get(1).is_some_and(|w| w == "=") {
                        3
                    } else {
                        1
                    };
                    let slots: Vec<usize> = (first..words.len())
                        .filter(|&w| words[w].starts_with('%'))
                        .collect();
                    if slots.is_empty() || ids.is_empty() {
                        continue;
                    }
                    let w = slots[below(slots.len())];
                    words[w] = ids[below(ids.len())].to_string();
                    edited[k] = words.join(" ");
                }
                1 => {
                    edited.remove(k);
                }
                2 if !edited[k].contains(" = ") => {
                    let line = edited[k].clone();
                    edited.insert(k, line);
                }
                3 if k + 1 < edited.len() => edited.swap(k, k + 1),
                _ => continue,
            }
            let Some(binary) = assemble(&(edited.join("\n") + "\n"), "1.0") else {
                continue;
            };
            made += 1;
            modules += 1;
            for (env_name, env) in ENVS.iter().zip(&envs) {
                let (theirs, log) = common::spirv_val(&binary, env_name).unwrap();
                let ours = spv::read_bytes(&binary)
                    .map_err(|e| e.to_string())
                    .and_then(|m| spv::valid::validate(m, env).map_err(|e| e.to_string()));
                verdicts += 1;
                if theirs == ours.is_ok() {
                    continue;
                }
                if theirs && matches!(&ours, Err(e) if STRICTER.iter().any(|r| e.contains(r))) {
                    stricter += 1;
                    continue;
                }
                disagreements.push(format!(
                    "{kernel} edit {made} [{env_name}] spirv-val ok={theirs} {}\n  oxcl: {}\n  line {k}: {}",
                    log.lines().next().unwrap_or(""),
                    ours.err().unwrap_or_else(|| "valid".into()).lines().next().unwrap_or(""),
                    edited.get(k).map(String::as_str).unwrap_or("")
                ));
            }
        }
    }
    eprintln!(
        "{modules} edited modules x {} environments = {verdicts} verdicts, {stricter} where oxcl checks a rule of STRICTER, {} disagreements",
        ENVS.len(),
        disagreements.len()
    );
    assert!(modules >= 100, "only {modules} edited modules assembled");
    assert!(
        disagreements.is_empty(),
        "{} disagreements:\n{}",
        disagreements.len(),
        disagreements.join("\n")
    );
}

#[test]
fn verdicts_on_mutated_clang_modules_agree_with_spirv_val() {
    for tool in [
        "clang-15",
        "llvm-spirv-15",
        "spirv-val",
        "spirv-as",
        "spirv-dis",
    ] {
        if !common::have(tool) {
            eprintln!("skipped: {tool} is not installed");
            return;
        }
    }
    let envs: Vec<Env> = ENVS
        .iter()
        .map(|e| Env::from_target_env(e).unwrap())
        .collect();
    let (mut modules, mut verdicts, mut valid, mut stricter) = (0usize, 0usize, 0usize, 0usize);
    let mut disagreements = Vec::new();
    // Each mutation on at most PER_MUTATION kernels (the capability and header mutations do
    // not depend on the kernel), to keep the test fast.
    const PER_MUTATION: usize = 10;
    let mut applied: std::collections::HashMap<&str, usize> = Default::default();
    for (kernel, text) in compiled_corpus() {
        let Some(text) = edit_first(
            text,
            |l| l.ends_with("= OpTypeInt 32 0"),
            |l| Some(format!("{l}\n{MUT_CONSTANTS}")),
        ) else {
            continue;
        };
        for m in mutations() {
            let (name, version) = (m.name, m.version);
            if applied.get(name).copied().unwrap_or(0) >= PER_MUTATION {
                continue;
            }
            let Some(mutated) = (m.edit)(&text) else {
                continue;
            };
            let Some(binary) = assemble(&mutated, version) else {
                continue;
            };
            modules += 1;
            *applied.entry(name).or_default() += 1;
            for (env_name, env) in ENVS.iter().zip(&envs) {
                let (theirs, log) = common::spirv_val(&binary, env_name).unwrap();
                let ours = spv::read_bytes(&binary)
                    .map_err(|e| e.to_string())
                    .and_then(|m| spv::valid::validate(m, env).map_err(|e| e.to_string()));
                verdicts += 1;
                valid += theirs as usize;
                if m.stricter.contains(env_name) {
                    stricter += 1;
                    let cites = matches!(&ours, Err(e) if e.contains(m.rule));
                    if !theirs || !cites {
                        disagreements.push(format!(
                            "{kernel} / {name} [{env_name}]: expected spirv-val to accept and oxcl to reject citing {:?}; spirv-val ok={theirs}, oxcl {:?}",
                            m.rule,
                            ours.as_ref().err()
                        ));
                    }
                    continue;
                }
                if theirs != ours.is_ok() {
                    let why = match &ours {
                        Ok(_) => "oxcl: valid".to_string(),
                        Err(e) => format!("oxcl: {}", e.lines().next().unwrap_or("")),
                    };
                    disagreements.push(format!(
                        "{kernel} / {name} [{env_name}] spirv-val ok={theirs} {}\n  {why}",
                        log.lines().next().unwrap_or("")
                    ));
                }
            }
        }
    }
    eprintln!(
        "{modules} modules x {} environments = {verdicts} verdicts ({valid} valid per spirv-val, {stricter} where oxcl checks an env rule spirv-val does not), {} disagreements",
        ENVS.len(),
        disagreements.len()
    );
    assert!(modules >= 100, "only {modules} modules were built");
    assert!(
        disagreements.is_empty(),
        "{} disagreements:\n{}",
        disagreements.len(),
        disagreements.join("\n")
    );
}
