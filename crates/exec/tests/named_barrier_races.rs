//! Checked mode's race tracking across named barriers (cl_khr_subgroup_named_barrier): a named
//! barrier orders the accesses of the work-items it released, and only theirs. Hand-written
//! SPIR-V 1.1 (`named_barrier_races/races.spvasm`, assembled by spirv-as and accepted by
//! spirv-val; clang-15 has no OpenCL C built-in for named barriers), one work-group of 4
//! work-items with sub-groups of one work-item, on the checked interpreter. The existing
//! named-barrier scenarios (`consumer_coverage/named_barrier_cases.rs`, run checked) are the
//! synchronised cases that must stay free of reports. Expected values are worked out by hand.
//! Skips with a printed reason when spirv-as or spirv-val is absent.

#[path = "consumer_coverage/harness.rs"]
mod harness;
#[path = "consumer_coverage/named_barrier_cases.rs"]
mod named_barrier_cases;

use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};

use exec::{ArgValue, Engine, ExecError, Interpreter, Launch, NdRange};

const SOURCE: &str = include_str!("named_barrier_races/races.spvasm");

fn module() -> Option<kir::Module> {
    if !named_barrier_cases::tools_available() {
        eprintln!("skipping: spirv-as or spirv-val is not installed");
        return None;
    }
    // One directory per call: the tests of this file run in parallel in one process.
    static CALLS: AtomicU32 = AtomicU32::new(0);
    let n = CALLS.fetch_add(1, Ordering::SeqCst);
    let dir = std::env::temp_dir().join(format!("named_barrier_races_{}_{n}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let (text, binary) = (dir.join("r.spvasm"), dir.join("r.spv"));
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
    let valid = spv::valid::validate(module, &harness::env()).expect("valid for oxcl");
    Some(kir::lower::lower(&valid).expect("lowered"))
}

/// Runs kernel `name` over one work-group of 4 with `out` (4 uints) and 16 bytes of `__local`.
fn run(
    engine: &dyn Engine,
    m: &kir::Module,
    name: &str,
    out: &mut [u32; 4],
) -> Result<(), ExecError> {
    let kernel = m
        .kernels
        .iter()
        .position(|k| k.name == name)
        .expect("kernel");
    let args = [
        ArgValue::Buffer {
            ptr: out.as_mut_ptr().cast(),
            len: 16,
        },
        ArgValue::Local(16),
    ];
    engine
        .run(&Launch {
            module: m,
            kernel,
            args: &args,
            nd: NdRange::new_1d(4, 4),
            threads: 1,
        })
        .map(|_| ())
}

fn checked() -> Interpreter {
    Interpreter {
        checked: true,
        ..Interpreter::new()
    }
}

/// The race checked mode must report: `(global id, access, other work-item, byte offset)`.
fn race(r: Result<(), ExecError>) -> ([u64; 3], &'static str, Option<u32>, u64) {
    match r {
        Err(ExecError::DataRace {
            global_id,
            access,
            other,
            offset,
            ..
        }) => (global_id, access, other, offset),
        other => panic!("expected a data race, got {other:?}"),
    }
}

/// `leak`: work-items 0 and 1 meet at a named barrier, then read tmp[2] and tmp[3], which
/// work-items 2 and 3 stored without meeting them. Work-items run in order, so 0 runs first
/// after the barrier: it reads byte 8 (tmp[2]) stored by work-item 2. Unchecked, the values
/// are read (12 and 13).
#[test]
fn a_read_of_a_store_the_named_barrier_did_not_order_is_a_race() {
    let Some(m) = module() else { return };
    let mut out = [0u32; 4];
    assert_eq!(
        race(run(&checked(), &m, "leak", &mut out)),
        ([0, 0, 0], "read", Some(2), 8)
    );
    let mut out = [0u32; 4];
    run(&Interpreter::new(), &m, "leak", &mut out).expect("unchecked run");
    assert_eq!(out, [12, 13, 0, 0]);
}

/// `chain`: work-item 2 stores tmp[2] = 42 and meets work-item 1, which then meets work-item
/// 0; work-item 0's read is ordered after the store through work-item 1: no race, out[0] = 42.
#[test]
fn a_store_ordered_through_two_named_barriers_is_no_race() {
    let Some(m) = module() else { return };
    let mut out = [0u32; 4];
    run(&checked(), &m, "chain", &mut out).expect("ordered accesses");
    assert_eq!(out, [42, 0, 0, 0]);
}

/// `unchained`: the same store and read, but work-item 0 meets work-item 3, which never met
/// work-item 2: a race on byte 8 with work-item 2, although both barriers opened before the
/// read (the earlier tracking forgot every access at any barrier).
#[test]
fn barriers_that_never_connect_the_two_work_items_leave_a_race() {
    let Some(m) = module() else { return };
    let mut out = [0u32; 4];
    assert_eq!(
        race(run(&checked(), &m, "unchained", &mut out)),
        ([0, 0, 0], "read", Some(2), 8)
    );
}

/// The synchronised scenarios of the named-barrier tests report nothing in checked mode.
#[test]
fn synchronised_named_barrier_scenarios_stay_free_of_reports() {
    if !named_barrier_cases::tools_available() {
        eprintln!("skipping: spirv-as or spirv-val is not installed");
        return;
    }
    let (m, _) = named_barrier_cases::module();
    let e = checked();
    named_barrier_cases::pairs(&e, &m);
    named_barrier_cases::rounds(&e, &m);
}
