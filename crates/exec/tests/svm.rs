//! Shared virtual memory through both engines: host addresses passed as SVM pointer arguments
//! and stored in SVM memory are followed by kernels, pointers kernels store are host addresses
//! the host follows, atomics work on SVM memory, and accesses outside every SVM allocation, and
//! writes into read-only allocations, are errors. Kernels are compiled by clang-15 + llvm-spirv-15 (skipped when absent); expected
//! values come from plain Rust in each test.

mod common;

use common::build;
use exec::{
    ArgValue, Engine, ExecError, Interpreter, Jit, Launch, NdRange, ProgramGlobals, RunStats,
    SvmRange, SvmSpace,
};

/// Runs `kernel` on the interpreter and on the strict JIT (no fallback): `before` prepares
/// memory, `check` inspects each engine's result right after its run.
fn run_both(
    module: &kir::Module,
    kernel: &str,
    args: &[ArgValue],
    nd: NdRange,
    svm: &SvmSpace,
    before: &mut dyn FnMut(),
    check: &mut dyn FnMut(&str, Result<RunStats, ExecError>),
) {
    let (index, _) = module.kernel(kernel).expect("kernel");
    let engines: [Box<dyn Engine>; 2] = [Box::new(Interpreter::new()), Box::new(Jit::strict())];
    for engine in &engines {
        before();
        let launch = Launch {
            module,
            kernel: index,
            args,
            nd,
            threads: 2,
        };
        check(
            engine.name(),
            engine.run_with_svm(&launch, &ProgramGlobals::new(module), svm),
        );
    }
}

const NODE: &str = "typedef struct node { long value; global struct node *next; } node;\n";

/// 16-byte nodes in one 8-byte-aligned SVM block: value, next (host address or 0).
fn svm_block(words: usize) -> (Vec<u64>, SvmSpace) {
    let mut block = vec![0u64; words];
    let space = SvmSpace::new(vec![SvmRange {
        base: block.as_mut_ptr().cast(),
        len: words * 8,
        read_only: false,
    }]);
    (block, space)
}

#[test]
fn kernel_walks_a_list_the_host_built() {
    let Some(m) = build(&format!(
        "{NODE}kernel void walk(global node *head, global long *out) {{
             long sum = 0;
             for (global node *n = head; n; n = n->next) sum += n->value;
             out[get_global_id(0)] = sum + (long)get_global_id(0);
         }}"
    )) else {
        return;
    };
    // Nodes 0..8 linked in the order 3, 0, 7, 5, 1, (end); out in words 32..36.
    let (mut block, svm) = svm_block(40);
    let base = block.as_mut_ptr() as u64;
    let order = [3usize, 0, 7, 5, 1];
    for (k, &i) in order.iter().enumerate() {
        block[2 * i] = 10 * (i as u64 + 1);
        block[2 * i + 1] = order.get(k + 1).map_or(0, |&j| base + 16 * j as u64);
    }
    let args = [
        ArgValue::SvmPointer(base + 16 * 3),
        ArgValue::SvmPointer(base + 8 * 32),
    ];
    let expected_sum: u64 = order.iter().map(|&i| 10 * (i as u64 + 1)).sum();
    let out_ptr = block.as_mut_ptr().wrapping_add(32);
    run_both(
        &m,
        "walk",
        &args,
        NdRange::new_1d(4, 2),
        &svm,
        // SAFETY: words 32..36 of the live block.
        &mut || unsafe { std::ptr::write_bytes(out_ptr, 0, 4) },
        &mut |engine, r| {
            r.unwrap_or_else(|e| panic!("{engine}: run failed: {e}"));
            // SAFETY: as above; the run is over.
            let out = unsafe { std::slice::from_raw_parts(out_ptr, 4) };
            assert_eq!(out, [0, 1, 2, 3].map(|g| expected_sum + g), "{engine}");
        },
    );
}

#[test]
fn host_follows_pointers_a_kernel_stored() {
    let Some(m) = build(&format!(
        "{NODE}kernel void link(global node *nodes, int n) {{
             int i = get_global_id(0);
             nodes[i].value = i * i;
             nodes[i].next = i + 1 < n ? &nodes[i + 1] : 0;
         }}"
    )) else {
        return;
    };
    let n = 16usize;
    let (mut block, svm) = svm_block(2 * n);
    let base = block.as_mut_ptr();
    let args = [
        ArgValue::SvmPointer(base as u64),
        ArgValue::Bytes((n as i32).to_le_bytes().to_vec()),
    ];
    run_both(
        &m,
        "link",
        &args,
        NdRange::new_1d(n as u64, 4),
        &svm,
        // SAFETY: the live block of 2n words.
        &mut || unsafe { std::ptr::write_bytes(base, 0xff, 2 * n) },
        &mut |engine, r| {
            r.unwrap_or_else(|e| panic!("{engine}: run failed: {e}"));
            // Follow the list from the host.
            let mut at = base as *const u64;
            let mut seen = Vec::new();
            while !at.is_null() {
                // SAFETY: the kernel stored addresses of nodes inside the block (checked on the
                // way).
                let (value, next) = unsafe { (*at, *at.add(1)) };
                seen.push(value);
                assert!(
                    next == 0 || (next >= base as u64 && next < base as u64 + 16 * n as u64),
                    "{engine}: node {} of {n}: next {next:#x}, base {:#x}\n{m}",
                    seen.len(),
                    base as u64
                );
                at = next as *const u64;
            }
            assert_eq!(
                seen,
                (0..n as u64).map(|i| i * i).collect::<Vec<_>>(),
                "{engine}"
            );
        },
    );
}

#[test]
fn atomics_on_svm_memory() {
    let Some(m) = build(
        "kernel void count(global int *counter, global long *sum) {
             atomic_inc(counter);
             atom_add(sum, (long)get_global_id(0));
         }",
    ) else {
        return;
    };
    let (mut block, svm) = svm_block(4);
    let base = block.as_mut_ptr();
    let args = [
        ArgValue::SvmPointer(base as u64),
        ArgValue::SvmPointer(base as u64 + 8),
    ];
    let n = 1000u64;
    run_both(
        &m,
        "count",
        &args,
        NdRange::new_1d(n, 10),
        &svm,
        // SAFETY: the live block of 4 words.
        &mut || unsafe { std::ptr::write_bytes(base, 0, 4) },
        &mut |engine, r| {
            r.unwrap_or_else(|e| panic!("{engine}: run failed: {e}"));
            // SAFETY: as above; the run is over.
            let (count, sum) = unsafe { (*base & 0xffff_ffff, *base.add(1)) };
            assert_eq!((count, sum), (n, n * (n - 1) / 2), "{engine}");
        },
    );
}

#[test]
fn accesses_outside_every_allocation_are_errors() {
    let Some(m) = build(
        "kernel void poke(global int *p, long index) {
             p[index] = 1;
         }",
    ) else {
        return;
    };
    let (mut block, svm) = svm_block(4);
    let base = block.as_mut_ptr() as u64;
    let guard = block.clone();
    for (pointer, index, what) in [
        (base, 8i64, "past the end"),
        (base, -1, "before the start"),
        (base + 4096 * 1024, 0, "no allocation"),
        (base, 1 << 40, "far away"),
    ] {
        let args = [
            ArgValue::SvmPointer(pointer),
            ArgValue::Bytes(index.to_le_bytes().to_vec()),
        ];
        run_both(
            &m,
            "poke",
            &args,
            NdRange::new_1d(1, 1),
            &svm,
            &mut || {},
            &mut |engine, r| match r {
                Err(ExecError::OutOfBounds { .. } | ExecError::InvalidPointer { .. }) => {}
                other => panic!("{engine}, {what}: expected a memory error, got {other:?}"),
            },
        );
    }
    assert_eq!(block, guard);
    // Without the SVM space the same pointer is invalid too.
    let args = [
        ArgValue::SvmPointer(base),
        ArgValue::Bytes(0i64.to_le_bytes().to_vec()),
    ];
    run_both(
        &m,
        "poke",
        &args,
        NdRange::new_1d(1, 1),
        &SvmSpace::default(),
        &mut || {},
        &mut |engine, r| {
            assert!(
                matches!(r, Err(ExecError::InvalidPointer { .. })),
                "{engine}: {r:?}"
            )
        },
    );
    assert_eq!(block, guard);
}

/// API 5.6.1: "Writing to a SVM buffer created with CL_MEM_READ_ONLY inside a kernel is
/// undefined": reads of a read-only allocation work, a store or an atomic into it is an
/// invalid access on both engines and leaves the memory as it was.
#[test]
fn writes_into_read_only_svm_are_errors() {
    let Some(m) = build(
        "kernel void sum(global const int *in, global int *out) {
             int i = get_global_id(0);
             out[i] = in[i] + in[i + 4];
         }
         kernel void store(global int *p) { p[get_global_id(0)] = 9; }
         kernel void bump(global int *p) { atomic_inc(p); }",
    ) else {
        return;
    };
    // Words 0..8 read-only (2·k), words 8..12 read-write.
    let mut ro = vec![0i32; 8];
    let mut rw = vec![0i32; 4];
    let svm = SvmSpace::new(vec![
        SvmRange {
            base: ro.as_mut_ptr().cast(),
            len: 32,
            read_only: true,
        },
        SvmRange {
            base: rw.as_mut_ptr().cast(),
            len: 16,
            read_only: false,
        },
    ]);
    let (ro_ptr, rw_ptr) = (ro.as_mut_ptr(), rw.as_mut_ptr());
    let reset = &mut || {
        for k in 0..8 {
            // SAFETY: the live vectors above.
            unsafe { *ro_ptr.add(k) = 2 * k as i32 };
        }
        // SAFETY: as above.
        unsafe { std::ptr::write_bytes(rw_ptr, 0, 4) };
    };
    let read_only = |engine: &str, r: Result<RunStats, ExecError>| {
        match r {
            Err(ExecError::InvalidPointer { reason, .. }) => {
                assert!(reason.contains("CL_MEM_READ_ONLY"), "{engine}: {reason}")
            }
            other => panic!("{engine}: expected a read-only SVM error, got {other:?}"),
        }
        // SAFETY: the run is over.
        let now = unsafe { std::slice::from_raw_parts(ro_ptr, 8) };
        assert_eq!(
            now,
            [0, 2, 4, 6, 8, 10, 12, 14],
            "{engine}: read-only memory changed"
        );
    };
    // out[i] = 2i + 2(i + 4) = 4i + 8.
    run_both(
        &m,
        "sum",
        &[
            ArgValue::SvmPointer(ro_ptr as u64),
            ArgValue::SvmPointer(rw_ptr as u64),
        ],
        NdRange::new_1d(4, 2),
        &svm,
        &mut *reset,
        &mut |engine, r| {
            r.unwrap_or_else(|e| panic!("{engine}: run failed: {e}"));
            // SAFETY: the run is over.
            let out = unsafe { std::slice::from_raw_parts(rw_ptr, 4) };
            assert_eq!(out, [8, 12, 16, 20], "{engine}");
        },
    );
    for kernel in ["store", "bump"] {
        run_both(
            &m,
            kernel,
            &[ArgValue::SvmPointer(ro_ptr as u64 + 4)],
            NdRange::new_1d(2, 2),
            &svm,
            &mut *reset,
            &mut |engine, r| read_only(&format!("{engine} {kernel}"), r),
        );
    }
    // The same kernels write the read-write allocation.
    run_both(
        &m,
        "store",
        &[ArgValue::SvmPointer(rw_ptr as u64)],
        NdRange::new_1d(4, 2),
        &svm,
        &mut *reset,
        &mut |engine, r| {
            r.unwrap_or_else(|e| panic!("{engine}: run failed: {e}"));
            // SAFETY: the run is over.
            let out = unsafe { std::slice::from_raw_parts(rw_ptr, 4) };
            assert_eq!(out, [9; 4], "{engine}");
        },
    );
}

/// A heap node of the host: value, next.
#[repr(C)]
struct HostNode {
    value: i64,
    next: *const HostNode,
}

#[test]
fn system_memory_is_followed_and_checked_on_both_engines() {
    let Some(m) = build(&format!(
        "{NODE}kernel void walk(global node *head, global long *out) {{
             long sum = 0;
             for (global node *n = head; n; n = n->next) sum += n->value;
             out[get_global_id(0)] = sum + (long)get_global_id(0);
         }}
         kernel void poke(global long *p) {{ *p = 1; }}"
    )) else {
        return;
    };
    // A list of boxed nodes (ordinary host heap memory, no SVM allocation at all).
    let mut head: *const HostNode = std::ptr::null();
    let mut nodes = Vec::new();
    for v in [5i64, 17, 40, 2] {
        let node = Box::new(HostNode {
            value: v,
            next: head,
        });
        head = &*node;
        nodes.push(node);
    }
    let mut out = vec![0i64; 4];
    let out_ptr = out.as_mut_ptr();
    let system = SvmSpace::new(Vec::new()).with_system_memory();
    let args = [
        ArgValue::SvmPointer(head as u64),
        ArgValue::SvmPointer(out_ptr as u64),
    ];
    run_both(
        &m,
        "walk",
        &args,
        NdRange::new_1d(4, 2),
        &system,
        // SAFETY: the live vector of 4 longs.
        &mut || unsafe { std::ptr::write_bytes(out_ptr, 0, 4) },
        &mut |engine, r| {
            r.unwrap_or_else(|e| panic!("{engine}: run failed: {e}"));
            // SAFETY: as above; the run is over.
            let got = unsafe { std::slice::from_raw_parts(out_ptr, 4) };
            assert_eq!(got, [64, 65, 66, 67], "{engine}");
        },
    );
    // Without system memory the same list is outside every allocation.
    run_both(
        &m,
        "walk",
        &args,
        NdRange::new_1d(4, 2),
        &SvmSpace::new(Vec::new()),
        &mut || {},
        &mut |engine, r| {
            assert!(
                matches!(r, Err(ExecError::InvalidPointer { .. })),
                "{engine}: {r:?}"
            );
        },
    );
    // Read-only static data and an unmapped page: errors, and nothing written.
    static CONSTANT: i64 = 99;
    for target in [&CONSTANT as *const i64 as u64, 0x1000] {
        run_both(
            &m,
            "poke",
            &[ArgValue::SvmPointer(target)],
            NdRange::new_1d(1, 1),
            &system,
            &mut || {},
            &mut |engine, r| {
                let e = r.expect_err("the store must fail");
                assert!(
                    matches!(e, ExecError::InvalidPointer { .. }),
                    "{engine}: {e}"
                );
            },
        );
    }
    assert_eq!(CONSTANT, 99);
    drop(nodes);
}
