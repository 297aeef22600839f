//! The JIT against the reference interpreter, on every kir module of the interpreter's tests
//! (`tests/interp.rs`, read as text) plus variants with barriers in loops and called functions:
//! each kernel runs with generated arguments on both engines, and buffers, printf output and
//! errors must be identical. Independent expectations for the JIT's own rules (division by
//! zero, shifts, bounds checks, barriers) are in `jit_semantics.rs`.

use exec::{ArgValue, Engine, Interpreter, Jit, Launch, NdRange, RunStats};
use kir::{ArgKind, Module};

/// The raw-string kir modules of `tests/interp.rs`.
fn interp_test_modules() -> Vec<String> {
    let text = include_str!("interp.rs");
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("r#\"") {
        let after = &rest[start + 3..];
        let Some(end) = after.find("\"#") else { break };
        let body = &after[..end];
        if body.contains("module address_bits") {
            out.push(body.to_string());
        }
        rest = &after[end + 2..];
    }
    out
}

/// Argument bytes for one kernel; buffers are owned by `storage`.
fn make_args(module: &Module, kernel: usize, storage: &mut Vec<Vec<u8>>) -> Vec<ArgValue> {
    let k = &module.kernels[kernel];
    storage.clear();
    for (i, arg) in k.args.iter().enumerate() {
        let bytes: Vec<u8> = match &arg.kind {
            ArgKind::Buffer(_) => (0..4096u32)
                .map(|b| (b.wrapping_mul(37).wrapping_add(11 + i as u32) % 251) as u8 & 0x3f)
                .collect(),
            ArgKind::Value { size, .. } => {
                let mut v = vec![0u8; *size as usize];
                if let Some(first) = v.first_mut() {
                    *first = 5;
                }
                v
            }
            _ => Vec::new(),
        };
        storage.push(bytes);
    }
    let mut args = Vec::new();
    for (arg, bytes) in k.args.iter().zip(storage.iter_mut()) {
        args.push(match &arg.kind {
            ArgKind::Buffer(_) | ArgKind::Pipe { .. } => ArgValue::Buffer {
                ptr: bytes.as_mut_ptr(),
                len: bytes.len(),
            },
            ArgKind::Value { .. } => ArgValue::Bytes(bytes.clone()),
            ArgKind::LocalPtr => ArgValue::Local(256),
            ArgKind::Sampler => ArgValue::Bytes(vec![0x10, 0x11, 0, 0]),
            // Kernels with images are compared in `image_engines.rs`.
            ArgKind::Image(_) => ArgValue::Null,
        });
    }
    args
}

type Outcome = Result<(Vec<Vec<u8>>, Vec<u8>), String>;

fn run_on(
    engine: &dyn Engine,
    module: &Module,
    kernel: usize,
    nd: NdRange,
    threads: usize,
) -> Outcome {
    let mut storage = Vec::new();
    let args = make_args(module, kernel, &mut storage);
    let r: Result<RunStats, _> = engine.run(&Launch {
        module,
        kernel,
        args: &args,
        nd,
        threads,
    });
    match r {
        Ok(stats) => Ok((storage, stats.printf)),
        Err(e) => Err(e.to_string()),
    }
}

/// Runs every kernel of `text` on both engines over a few ranges; returns the kernels the JIT
/// did not compile.
fn compare_module(text: &str, jit: &Jit) -> Vec<String> {
    let module = kir::parse_module(text).unwrap_or_else(|e| panic!("parse: {e}\n{text}"));
    kir::verify_module(&module).unwrap_or_else(|e| panic!("verify: {e}\n{text}"));
    let mut not_compiled = Vec::new();
    for kernel in 0..module.kernels.len() {
        let name = &module.kernels[kernel].name;
        if let Err(why) = jit.compiles(&module, kernel) {
            not_compiled.push(format!("{name}: {why}"));
            continue;
        }
        let ranges = [
            // One thread: the order of work-groups (and so of atomics) is then deterministic.
            (NdRange::new_1d(64, 16), 1),
            (NdRange::new_1d(40, 32), 1),
            (
                NdRange {
                    work_dim: 2,
                    global_offset: [1, 2, 0],
                    global_size: [8, 6, 1],
                    local_size: [4, 3, 1],
                },
                1,
            ),
        ];
        for (nd, threads) in ranges {
            let want = run_on(&Interpreter::new(), &module, kernel, nd, threads);
            let got = run_on(jit, &module, kernel, nd, threads);
            assert_eq!(got, want, "kernel {name} over {nd:?}\n{text}");
        }
    }
    not_compiled
}

#[test]
fn interpreter_test_kernels_agree() {
    let jit = Jit::strict();
    let modules = interp_test_modules();
    assert!(modules.len() >= 6, "found only {} modules", modules.len());
    let mut not_compiled = Vec::new();
    for text in &modules {
        not_compiled.extend(compare_module(text, &jit));
    }
    assert!(
        not_compiled.is_empty(),
        "kernels the JIT does not compile: {not_compiled:?}"
    );
}

#[test]
fn barrier_variants_agree() {
    let jit = Jit::strict();
    let modules = interp_test_modules();
    let reduce = modules
        .iter()
        .find(|m| m.contains("kernel \"reduce\""))
        .expect("the reduce kernel");
    // The barrier of the loop moved into a called function.
    let called = reduce
        .replace(
            "block4:\n    barrier workgroup, workgroup, 0x110\n",
            "block4:\n    call fn1()\n",
        )
        .replace(
            "kernel \"reduce\"",
            "function fn1 \"sync\"() {\nblock0:\n    barrier workgroup, workgroup, 0x110\n    return\n}\nkernel \"reduce\"",
        );
    assert_ne!(&called, reduce);
    for text in [reduce.as_str(), called.as_str()] {
        let not_compiled = compare_module(text, &jit);
        assert!(not_compiled.is_empty(), "{not_compiled:?}");
    }
}
