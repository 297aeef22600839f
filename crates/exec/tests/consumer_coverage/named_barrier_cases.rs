//! Named barriers (cl_khr_subgroup_named_barrier; SPIR-V 1.1 `OpNamedBarrierInitialize`,
//! `OpMemoryNamedBarrier`) from hand-written SPIR-V (`named_barriers.spvasm`, assembled by
//! spirv-as for SPIR-V 1.1 and accepted by spirv-val; clang-15 has no OpenCL C built-in for
//! named barriers). oxcl's sub-groups have one work-item, so a barrier of sub-group count N
//! releases N work-items at a time. Expected values are worked out by hand.

// Shared by `named_barriers.rs` (per-scenario tests) and `consumer_coverage.rs` (`run_all`).
#![allow(dead_code)]

use std::collections::BTreeSet;
use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};

use exec::{ArgValue, Engine, ExecError, Interpreter, Jit, Launch, NdRange};
use spv::Op;

use super::harness;

const SOURCE: &str = include_str!("named_barriers.spvasm");

fn tool(name: &str) -> bool {
    Command::new(name)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Whether spirv-as and spirv-val are installed (else the callers skip).
pub fn tools_available() -> bool {
    tool("spirv-as") && tool("spirv-val")
}

/// The module (assembled and checked by SPIRV-Tools, validated and lowered by oxcl) and its
/// opcodes.
pub fn module() -> (kir::Module, BTreeSet<Op>) {
    static CALLS: AtomicU32 = AtomicU32::new(0);
    let n = CALLS.fetch_add(1, Ordering::SeqCst);
    let dir = std::env::temp_dir().join(format!("named_barriers_{}_{n}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let (text, binary) = (dir.join("nb.spvasm"), dir.join("nb.spv"));
    std::fs::write(&text, SOURCE).expect("write");
    let o = Command::new("spirv-as")
        .args(["--target-env", "spv1.1", "-o"])
        .arg(&binary)
        .arg(&text)
        .output()
        .expect("spirv-as");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = Command::new("spirv-val")
        .args(["--target-env", "spv1.1"])
        .arg(&binary)
        .output()
        .expect("spirv-val");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let bytes = std::fs::read(&binary).expect("read");
    let _ = std::fs::remove_dir_all(&dir);
    let module = spv::read_bytes(&bytes).expect("readable");
    let ops: BTreeSet<Op> = module.instructions.iter().map(|i| i.op).collect();
    let valid = spv::valid::validate(module, &harness::env()).expect("valid for oxcl");
    (kir::lower::lower(&valid).expect("lowered"), ops)
}

/// Every scenario on both engines; the opcodes covered.
pub fn run_all() -> BTreeSet<Op> {
    if !tools_available() {
        return BTreeSet::new();
    }
    let (m, ops) = module();
    for e in engines() {
        pairs(&*e, &m);
        rounds(&*e, &m);
        too_few(&*e, &m);
        bad_count(&*e, &m);
    }
    ops
}

pub fn engines() -> Vec<Box<dyn Engine>> {
    vec![
        Box::new(Interpreter {
            checked: true,
            ..Interpreter::new()
        }),
        Box::new(Jit::strict()),
    ]
}

/// Runs kernel `name` on one work-group of 4 (`pairs` gets `out` and a 16-byte `__local`).
fn run(engine: &dyn Engine, m: &kir::Module, name: &str, out: &mut [u32]) -> Result<(), ExecError> {
    let kernel = m
        .kernels
        .iter()
        .position(|k| k.name == name)
        .expect("kernel");
    let mut args = Vec::new();
    if !m.kernels[kernel].args.is_empty() {
        args.push(ArgValue::Buffer {
            ptr: out.as_mut_ptr().cast(),
            len: out.len() * 4,
        });
        args.push(ArgValue::Local(16));
    }
    let launch = Launch {
        module: m,
        kernel,
        args: &args,
        nd: NdRange::new_1d(4, 4),
        threads: 2,
    };
    engine.run(&launch).map(|_| ())
}

/// Scenario `pairs`: work-items 0 and 1 meet at barrier `a` (count 2), 2 and 3 at barrier
/// `b`; each reads what its partner stored before the barrier (tmp[lid] = lid + 10 or + 20).
/// A no-op barrier would let work-item 0 read before 1 stored; a work-group barrier would
/// diverge (two different barriers).
pub fn pairs(e: &dyn Engine, m: &kir::Module) {
    let mut out = [0u32; 4];
    run(e, m, "pairs", &mut out).unwrap_or_else(|err| panic!("{}: {err}", e.name()));
    assert_eq!(out, [11, 10, 23, 22], "{}", e.name());
}

/// Scenario `rounds`: work-items 0 and 1 reuse one barrier of count 2 for three rounds of
/// "store tmp[lid] = 10 r + lid; wait; add the partner's value; wait" (the second wait keeps a
/// store of the next round from overtaking the partner's read); 2 and 3 return at once.
/// Work-item 0 adds 1 + 11 + 21, work-item 1 adds 0 + 10 + 20.
pub fn rounds(e: &dyn Engine, m: &kir::Module) {
    let mut out = [0u32; 4];
    run(e, m, "rounds", &mut out).unwrap_or_else(|err| panic!("{}: {err}", e.name()));
    assert_eq!(out, [33, 30, 0, 0], "{}", e.name());
}

/// Scenario `too_few`: a barrier of count 3 that only two work-items reach never opens:
/// barrier divergence.
pub fn too_few(e: &dyn Engine, m: &kir::Module) {
    let err = run(e, m, "too_few", &mut []).expect_err("stuck work-group");
    assert!(
        matches!(err, ExecError::BarrierDivergence { .. }),
        "{}: {err}",
        e.name()
    );
}

/// Scenario `bad_count`: Subgroup Count 5 in a work-group of 4 sub-groups is an error.
pub fn bad_count(e: &dyn Engine, m: &kir::Module) {
    let err = run(e, m, "bad_count", &mut []).expect_err("bad count");
    let text = err.to_string();
    assert!(
        text.contains("sub-group count of 5"),
        "{}: {text}",
        e.name()
    );
}
