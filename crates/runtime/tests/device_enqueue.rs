//! Device-side enqueue through the Rust API: a default device queue (`runtime::DeviceQueue`)
//! receives the children a kernel enqueues, `Queue::nd_range` returns after them (its event's
//! `end` before the children ran, `complete` after them, API 5.14), a context
//! without one makes `enqueue_kernel` fail with `CLK_INVALID_QUEUE`, and the device queue limits
//! and errors of API 5.1. Kernels compiled by clang-15 + llvm-spirv-15 (skips with a printed
//! reason when they are absent); expected values computed by hand.

use std::process::Command;

use runtime::device_queue::{MAX_ON_DEVICE_QUEUES, QUEUE_ON_DEVICE_MAX_SIZE};
use runtime::{
    Buffer, Context, DeviceQueue, EngineKind, Error, MemFlags, NdRange, Platform, Program, Queue,
};

const SOURCE: &str = r#"
kernel void parent(global int *out) {
    int g = get_group_id(0);
    if (get_local_id(0) == 0) {
        int r = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(8),
            ^{ size_t i = get_global_id(0) + g * 8;
               enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1),
                   ^{ out[64 + i] = (int)i + 1000; });
               out[i] = (int)i * 2; });
        out[200 + g] = r;
    }
}
"#;

fn context() -> Context {
    Context::new(Platform::get().devices().remove(0))
}

/// The source compiled by the working clang line of DESIGN.md, or `None` without the tools.
fn spirv() -> Option<Vec<u8>> {
    let ok = |tool: &str| {
        Command::new(tool)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if !ok("clang-15") || !ok("llvm-spirv-15") {
        eprintln!("skipping: clang-15 or llvm-spirv-15 is not installed");
        return None;
    }
    // One directory per call: the tests run in parallel in one process.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!(
        "runtime_device_enqueue_{}_{call}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let (cl, bc, spv) = (dir.join("k.cl"), dir.join("k.bc"), dir.join("k.spv"));
    std::fs::write(&cl, SOURCE).expect("write");
    let clang = Command::new("clang-15")
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
        .arg(&cl)
        .output()
        .expect("clang-15");
    assert!(
        clang.status.success(),
        "{}",
        String::from_utf8_lossy(&clang.stderr)
    );
    let tr = Command::new("llvm-spirv-15")
        .arg("--spirv-max-version=1.2")
        .arg(&bc)
        .arg("-o")
        .arg(&spv)
        .output()
        .expect("llvm-spirv-15");
    assert!(
        tr.status.success(),
        "{}",
        String::from_utf8_lossy(&tr.stderr)
    );
    let bytes = std::fs::read(&spv).expect("read");
    let _ = std::fs::remove_dir_all(&dir);
    Some(bytes)
}

fn ints(b: &Buffer) -> Vec<i32> {
    b.to_vec()
        .chunks_exact(4)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// Runs `parent` over 4 groups of 4 work-items; returns the output buffer and the launch's
/// profiling times.
fn run_parent_profiled(
    ctx: &Context,
    il: &[u8],
    engine: EngineKind,
) -> (Vec<i32>, runtime::ProfilingInfo) {
    let program = Program::from_il(ctx, il).expect("program");
    program.build("").expect("build");
    let parent = program.kernel("parent").expect("parent");
    let out = Buffer::new(ctx, MemFlags::default(), 256 * 4).unwrap();
    parent.set_arg_buffer(0, Some(&out)).unwrap();
    let event = Queue::new(ctx)
        .with_engine(engine)
        .nd_range(&parent, &NdRange::new(&[16], Some(&[4]), None))
        .expect("launch");
    (ints(&out), event.profiling())
}

#[test]
fn children_and_grandchildren_complete_with_the_parent() {
    let Some(il) = spirv() else { return };
    for engine in [EngineKind::Interpreter, EngineKind::Jit] {
        let ctx = context();
        let _queue = DeviceQueue::new(&ctx, None, true).expect("default device queue");
        let (out, times) = run_parent_profiled(&ctx, &il, engine);
        for i in 0..32 {
            assert_eq!(out[i], i as i32 * 2, "{engine:?} child {i}");
            assert_eq!(out[64 + i], i as i32 + 1000, "{engine:?} grandchild {i}");
        }
        assert_eq!(&out[200..204], &[0; 4], "{engine:?} CLK_SUCCESS");
        // The parent's own end precedes the 36 commands it enqueued; complete follows them.
        assert!(
            times.start <= times.end && times.end < times.complete,
            "{engine:?}: {times:?}"
        );
    }
}

#[test]
fn without_a_default_device_queue_enqueue_fails() {
    let Some(il) = spirv() else { return };
    let ctx = context();
    let (out, times) = run_parent_profiled(&ctx, &il, EngineKind::Interpreter);
    // CLK_INVALID_QUEUE (opencl-c-base.h) and no child ran: end is complete.
    assert_eq!(&out[200..204], &[-102; 4]);
    assert!(out[..200].iter().all(|&v| v == 0));
    assert_eq!(times.end, times.complete, "{times:?}");
    // A queue that was dropped is no default any more.
    {
        let _queue = DeviceQueue::new(&ctx, Some(4096), true).expect("queue");
        assert!(ctx.default_device_queue().is_some());
    }
    assert!(ctx.default_device_queue().is_none());
}

#[test]
fn device_queue_limits() {
    let ctx = context();
    assert!(ctx.device().device_enqueue());
    assert!(ctx
        .device()
        .features
        .iter()
        .any(|f| f == "__opencl_c_device_enqueue"));
    // API 5.1: CL_QUEUE_SIZE at most CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE.
    assert!(matches!(
        DeviceQueue::new(&ctx, Some(QUEUE_ON_DEVICE_MAX_SIZE + 1), false),
        Err(Error::InvalidValue(_))
    ));
    let first = DeviceQueue::new(&ctx, Some(QUEUE_ON_DEVICE_MAX_SIZE), false).expect("queue");
    assert_eq!(first.size(), QUEUE_ON_DEVICE_MAX_SIZE);
    assert_eq!(MAX_ON_DEVICE_QUEUES, 1);
    assert!(matches!(
        DeviceQueue::new(&ctx, None, false),
        Err(Error::OutOfResources(_))
    ));
    // The first one becomes the default (clSetDefaultDeviceCommandQueue).
    assert!(ctx.default_device_queue().is_none());
    ctx.set_default_device_queue(&first);
    assert!(ctx
        .default_device_queue()
        .is_some_and(|d| std::sync::Arc::ptr_eq(&d, &first)));
}

/// The same kernel compiled by oxcl's own compiler (Blocks and `enqueue_kernel` in clc) runs
/// its children and grandchildren on both engines.
#[test]
fn oxcl_compiled_blocks_enqueue_children() {
    for engine in [EngineKind::Interpreter, EngineKind::Jit] {
        let ctx = context();
        let _queue = DeviceQueue::new(&ctx, None, true).expect("default device queue");
        let program = Program::from_source(&ctx, SOURCE, "parent.cl");
        program
            .build("-cl-std=CL2.0")
            .unwrap_or_else(|e| panic!("{e}: {}", program.build_log()));
        let parent = program.kernel("parent").expect("parent");
        let out = Buffer::new(&ctx, MemFlags::default(), 256 * 4).unwrap();
        parent.set_arg_buffer(0, Some(&out)).unwrap();
        Queue::new(&ctx)
            .with_engine(engine)
            .nd_range(&parent, &NdRange::new(&[16], Some(&[4]), None))
            .expect("launch");
        let out = ints(&out);
        for i in 0..32 {
            assert_eq!(out[i], i as i32 * 2, "{engine:?} child {i}");
            assert_eq!(out[64 + i], i as i32 + 1000, "{engine:?} grandchild {i}");
        }
        assert_eq!(&out[200..204], &[0; 4], "{engine:?} CLK_SUCCESS");
    }
}
