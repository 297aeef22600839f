//! Device-side enqueue scenarios (OpenCL C 2.0 §6.13.17) compiled by clang-15 + llvm-spirv-15
//! (their block literals, `ndrange_t` and local-size conventions): children per work-group,
//! nested children, markers and user events, a 2D child with local memory, the error codes
//! (clang's `opencl-c-base.h` values) and the kernel queries. Expected values are computed by
//! hand or by a Rust reference in each scenario.

// Shared by `device_enqueue.rs` (per-scenario tests) and `consumer_coverage.rs` (`run_all`).
#![allow(dead_code)]

use std::collections::BTreeSet;

use exec::enqueue::DeviceQueueConfig;
use exec::{ArgValue, Engine, Interpreter, Jit, Launch, NdRange, ProgramGlobals};
use spv::Op;

use super::harness;

const SOURCE: &str = r#"
kernel void per_group(global int *out) {
    queue_t q = get_default_queue();
    int g = get_group_id(0);
    if (get_local_id(0) == 0) {
        int r = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(4),
            ^{ size_t i = get_global_id(0) + g * 4; out[i] = (int)i * 2; });
        out[100 + g] = r;
    }
}

kernel void nested(global int *out) {
    enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(2), ^{
        int a = get_global_id(0);
        enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_WORK_GROUP, ndrange_1D(3), ^{
            out[a * 3 + get_global_id(0)] = 100 + a * 3 + (int)get_global_id(0);
        });
    });
}

kernel void events(global int *out, global ulong *prof) {
    queue_t q = get_default_queue();
    clk_event_t e1, e2, m, u, u2;
    out[20] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(4), 0, NULL, &e1,
        ^{ out[get_global_id(0)] = 1; });
    out[21] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(4), 1, &e1, &e2,
        ^{ out[4 + get_global_id(0)] = out[get_global_id(0)] + 10; });
    clk_event_t both[2] = {e1, e2};
    out[22] = enqueue_marker(q, 2, both, &m);
    u = create_user_event();
    out[23] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &u, NULL,
        ^{ out[8] = 7; });
    set_user_event_status(u, CL_COMPLETE);
    u2 = create_user_event();
    out[24] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &u2, NULL,
        ^{ out[10] = 99; });
    set_user_event_status(u2, -5);
    out[9] = is_valid_event(m);
    capture_event_profiling_info(e1, CLK_PROFILING_COMMAND_EXEC_TIME, prof);
    release_event(e1);
    release_event(e2);
    retain_event(m);
    release_event(m);
    release_event(m);
    release_event(u);
    release_event(u2);
}

kernel void null_events(global int *out) {
    queue_t q = get_default_queue();
    clk_event_t evt;
    out[0] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(4), 0, NULL, &evt,
        ^{ out[1 + get_global_id(0)] = 3; });
    out[5] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &evt, NULL,
        ^{ out[6] = out[1] + out[4] + 1; });
    out[7] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(2), 0, NULL, NULL,
        ^{ out[8 + get_global_id(0)] = 5; });
    release_event(evt);
}

kernel void null_event_constant(global int *out) {
    queue_t q = get_default_queue();
    clk_event_t none = CLK_NULL_EVENT;
    out[0] = is_valid_event(none);
    out[1] = is_valid_event(CLK_NULL_EVENT);
    clk_event_t e = CLK_NULL_EVENT;
    out[2] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(2), 0, NULL, &e,
        ^{ out[10 + get_global_id(0)] = 4; });
    out[3] = is_valid_event(e);
    clk_event_t m = CLK_NULL_EVENT;
    out[4] = enqueue_marker(q, 1, &none, &m);
    out[5] = is_valid_event(m);
    out[6] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &none, NULL,
        ^{ out[12] = 9; });
    out[7] = enqueue_marker(q, 1, &e, &m);
    out[8] = is_valid_event(m);
    clk_event_t pair[2] = {e, CLK_NULL_EVENT};
    out[9] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 2, pair, NULL,
        ^{ out[13] = 9; });
    out[14] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &m, NULL,
        ^{ out[15] = out[10] + out[11] + 1; });
    release_event(e);
    release_event(m);
}

kernel void profiling(global int *out, global ulong *prof) {
    queue_t q = get_default_queue();
    clk_event_t p;
    out[0] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 0, NULL, &p, ^{
        clk_event_t g;
        enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(64), 0, NULL,
            &g, ^{
                int acc = 0;
                for (int i = 0; i < 2000; i++) acc += i ^ (int)get_global_id(0);
                out[1 + get_global_id(0)] = acc;
            });
        capture_event_profiling_info(g, CLK_PROFILING_COMMAND_EXEC_TIME, prof + 2);
        release_event(g);
    });
    capture_event_profiling_info(p, CLK_PROFILING_COMMAND_EXEC_TIME, prof);
    release_event(p);
}

kernel void two_d(global int *out) {
    size_t off[2] = {1, 2};
    size_t gs[2] = {4, 4};
    size_t ls[2] = {2, 2};
    out[16] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT,
        ndrange_2D(off, gs, ls),
        ^(local void *pa, local void *pb) {
            local int *a = (local int *)pa;
            local int *b = (local int *)pb;
            int l = get_local_linear_id();
            a[l] = get_global_id(0);
            b[l] = get_global_id(1);
            barrier(CLK_LOCAL_MEM_FENCE);
            out[(get_global_id(1) - 2) * 4 + get_global_id(0) - 1] =
                a[(l + 1) % 4] * 100 + b[(l + 2) % 4] + get_local_size(0) * 1000;
        }, 16u, 16u);
}

kernel void errors(global int *out) {
    queue_t q = get_default_queue();
    out[1] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(2048, 2048), ^{ out[50] = 1; });
    out[2] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(4),
        ^(local void *p) { out[51] = 1; }, 0u);
    out[3] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(4), 1, NULL, NULL,
        ^{ out[52] = 1; });
    clk_event_t e1, e2;
    out[4] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 0, NULL, &e1,
        ^{ out[53] += 1; });
    out[5] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 0, NULL, &e2,
        ^{ out[54] += 1; });
    out[6] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), ^{ out[55] += 1; });
    out[7] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), ^{ out[56] += 1; });
    release_event(e1);
}

kernel void queries(global int *out) {
    size_t gs[2] = {8, 6};
    size_t ls[2] = {2, 3};
    ndrange_t nd = ndrange_2D(gs, ls);
    void (^blk)(void) = ^{ out[40] = 5; };
    out[0] = get_kernel_work_group_size(blk);
    out[1] = get_kernel_preferred_work_group_size_multiple(blk);
    out[2] = get_kernel_sub_group_count_for_ndrange(nd, blk);
    out[3] = get_kernel_max_sub_group_size_for_ndrange(nd, blk);
}
"#;

/// The lowered module and the SPIR-V opcodes clang + llvm-spirv used.
pub fn module() -> (kir::Module, BTreeSet<Op>) {
    let bytes = harness::compile(SOURCE, "CL2.0");
    let module = spv::read_bytes(&bytes).expect("readable SPIR-V");
    let ops: BTreeSet<Op> = module.instructions.iter().map(|i| i.op).collect();
    let valid = spv::valid::validate(module, &harness::env()).expect("valid module");
    (kir::lower::lower(&valid).expect("lowered"), ops)
}

/// Every scenario on both engines; the opcodes covered.
pub fn run_all() -> BTreeSet<Op> {
    let (m, ops) = module();
    for e in engines() {
        per_group(&*e, &m);
        nested(&*e, &m);
        events(&*e, &m);
        null_events(&*e, &m);
        null_event_constant(&*e, &m);
        profiling(&*e, &m);
        two_d(&*e, &m);
        errors(&*e, &m);
        queries(&*e, &m);
    }
    ops
}

const QUEUE: DeviceQueueConfig = DeviceQueueConfig {
    size: 16 * 1024,
    max_events: 1024,
    max_work_group_size: 1024,
};

pub fn engines() -> Vec<Box<dyn Engine>> {
    vec![
        Box::new(Interpreter {
            checked: true,
            ..Interpreter::new()
        }),
        Box::new(Jit::strict()),
    ]
}

/// Runs `name` over `nd` with int buffers of the given lengths; returns them.
fn run(
    engine: &dyn Engine,
    m: &kir::Module,
    name: &str,
    nd: NdRange,
    lens: &[usize],
    queue: Option<DeviceQueueConfig>,
) -> Vec<Vec<i64>> {
    let kernel = m
        .kernels
        .iter()
        .position(|k| k.name == name)
        .expect("kernel");
    let mut bufs: Vec<Vec<u64>> = lens.iter().map(|&n| vec![0u64; n]).collect();
    let args: Vec<ArgValue> = bufs
        .iter_mut()
        .map(|b| ArgValue::Buffer {
            ptr: b.as_mut_ptr().cast(),
            len: b.len() * 8,
        })
        .collect();
    let launch = Launch {
        module: m,
        kernel,
        args: &args,
        nd,
        threads: 2,
    };
    engine
        .run_with_device_queue(
            &launch,
            &ProgramGlobals::new(m),
            &exec::SvmSpace::default(),
            queue,
        )
        .unwrap_or_else(|e| panic!("{}: {name}: {e}", engine.name()));
    bufs.iter()
        .map(|b| b.iter().map(|&w| w as i64).collect())
        .collect()
}

/// The i32 at index `i` of a buffer of u64 words.
fn int(buf: &[i64], i: usize) -> i32 {
    let word = buf[i / 2] as u64;
    (word >> (32 * (i % 2))) as u32 as i32
}

/// Scenario `per_group` (test `device_enqueue::a_child_per_work_group`).
pub fn per_group(e: &dyn Engine, m: &kir::Module) {
    {
        let out = run(
            e,
            m,
            "per_group",
            NdRange::new_1d(16, 4),
            &[64],
            Some(QUEUE),
        );
        for i in 0..16 {
            assert_eq!(int(&out[0], i), i as i32 * 2, "{} out[{i}]", e.name());
        }
        for g in 0..4 {
            assert_eq!(int(&out[0], 100 + g), 0, "{} CLK_SUCCESS", e.name());
        }
    }
}

/// Scenario `nested` (test `device_enqueue::children_enqueue_children`).
pub fn nested(e: &dyn Engine, m: &kir::Module) {
    {
        let out = run(e, m, "nested", NdRange::new_1d(1, 1), &[8], Some(QUEUE));
        for i in 0..6 {
            assert_eq!(int(&out[0], i), 100 + i as i32, "{} out[{i}]", e.name());
        }
    }
}

/// Scenario `events` (test `device_enqueue::events_markers_and_user_events`).
pub fn events(e: &dyn Engine, m: &kir::Module) {
    {
        let out = run(e, m, "events", NdRange::new_1d(1, 1), &[16, 2], Some(QUEUE));
        let o = |i| int(&out[0], i);
        for i in 0..4 {
            assert_eq!(o(i), 1, "{} first child", e.name());
            assert_eq!(
                o(4 + i),
                11,
                "{} second child ran after the first",
                e.name()
            );
        }
        assert_eq!(
            o(8),
            7,
            "{} the child waiting on the completed user event",
            e.name()
        );
        assert_eq!(o(9), 1, "{} the marker's event is valid", e.name());
        assert_eq!(
            o(10),
            0,
            "{} a child waiting on a failed event does not run",
            e.name()
        );
        for i in 20..25 {
            assert_eq!(o(i), 0, "{} enqueue {i} returned CLK_SUCCESS", e.name());
        }
        // CLK_PROFILING_COMMAND_EXEC_TIME: end - start and complete - start, the same here.
        assert!(out[1][0] > 0, "{} execution time {}", e.name(), out[1][0]);
        assert_eq!(out[1][0], out[1][1], "{}", e.name());
    }
}

/// Scenario `null_events` (test `device_enqueue::null_event_pointers`): a NULL wait list with
/// a return event, a NULL return event, and both NULL (llvm-spirv: `OpConstantNull` pointers to
/// device events), which mean "no event" (OpenCL C 2.0 §6.13.17.1).
pub fn null_events(e: &dyn Engine, m: &kir::Module) {
    let out = run(
        e,
        m,
        "null_events",
        NdRange::new_1d(1, 1),
        &[8],
        Some(QUEUE),
    );
    let got: Vec<i32> = (0..10).map(|i| int(&out[0], i)).collect();
    // Three CLK_SUCCESS; the first child wrote 3s, the second waited for it (3 + 3 + 1).
    assert_eq!(got, [0, 3, 3, 3, 3, 0, 7, 0, 5, 5], "{}", e.name());
}

/// Scenario `null_event_constant` (test `device_enqueue::clk_null_event_constant`): clang's
/// `CLK_NULL_EVENT` (llvm-spirv-15: `OpConvertUToPtr %DeviceEvent %ulong_max`, accepted by
/// oxcl's validator as a documented tolerance) "refers to an invalid device event" (OpenCL C
/// 2.0 §6.13.17): `is_valid_event` gives 0; an event variable initialised with it and then
/// used as `event_ret` becomes valid; a wait list holding it gives
/// `CLK_INVALID_EVENT_WAIT_LIST` (-57 in opencl-c-base.h; §6.13.17.1 and .3: "event objects in
/// event_wait_list are not valid events"), the command is not queued and `event_ret` is left
/// alone. Valid wait lists succeed and their commands run.
pub fn null_event_constant(e: &dyn Engine, m: &kir::Module) {
    let out = run(
        e,
        m,
        "null_event_constant",
        NdRange::new_1d(1, 1),
        &[8],
        Some(QUEUE),
    );
    let got: Vec<i32> = (0..16).map(|i| int(&out[0], i)).collect();
    let want = [
        0,   // is_valid_event(none)
        0,   // is_valid_event(CLK_NULL_EVENT)
        0,   // enqueue_kernel with event_ret: CLK_SUCCESS
        1,   // e is now a valid event
        -57, // marker waiting on CLK_NULL_EVENT
        0,   // m untouched: still CLK_NULL_EVENT
        -57, // kernel waiting on CLK_NULL_EVENT
        0,   // marker waiting on e: CLK_SUCCESS
        1,   // m is now valid
        -57, // wait list {e, CLK_NULL_EVENT}
        4,   // first child, work-item 0
        4,   // first child, work-item 1
        0,   // the rejected kernel did not run
        0,   // the second rejected kernel did not run
        0,   // kernel waiting on the marker: CLK_SUCCESS
        9,   // it ran after the first child: 4 + 4 + 1
    ];
    assert_eq!(got, want, "{}", e.name());
}

/// Scenario `profiling` (test `device_enqueue::profiling_exec_time_and_complete`): a child P
/// that enqueues a grandchild G. OpenCL C 2.0 §6.13.17.8: the first value is END - START, the
/// second COMPLETE - START, where COMPLETE waits for the command's children (API, clGet-
/// EventProfilingInfo). G runs wholly after P ends and before P completes, so P's second
/// value is at least P's first plus G's run time; G has no children, so its two are equal.
pub fn profiling(e: &dyn Engine, m: &kir::Module) {
    let out = run(
        e,
        m,
        "profiling",
        NdRange::new_1d(1, 1),
        &[40, 4],
        Some(QUEUE),
    );
    for i in 0..64 {
        let want: i32 = (0..2000).map(|k| k ^ i as i32).sum();
        assert_eq!(int(&out[0], 1 + i), want, "{} out[{}]", e.name(), 1 + i);
    }
    let prof: Vec<u64> = out[1].iter().map(|&w| w as u64).collect();
    let (p_exec, p_complete, g_exec, g_complete) = (prof[0], prof[1], prof[2], prof[3]);
    assert!(p_exec > 0 && g_exec > 0, "{} {prof:?}", e.name());
    assert_eq!(g_exec, g_complete, "{} leaf: COMPLETE = END", e.name());
    assert!(
        p_complete >= p_exec + g_exec,
        "{} parent COMPLETE - START covers the grandchild: {prof:?}",
        e.name()
    );
}

/// Scenario `two_d` (test `device_enqueue::two_dimensional_child_with_local_memory`).
pub fn two_d(e: &dyn Engine, m: &kir::Module) {
    // Reference: the child's work-group (gx, gy) of 2x2 items; item l = lx + 2 ly has global
    // id (1 + 2 gx + lx, 2 + 2 gy + ly).
    let mut expected = [0i32; 16];
    for gy in 0..2 {
        for gx in 0..2 {
            let gid = |l: usize| (1 + 2 * gx + l % 2, 2 + 2 * gy + l / 2);
            for l in 0..4 {
                let (x, y) = gid(l);
                let a = gid((l + 1) % 4).0 as i32;
                let b = gid((l + 2) % 4).1 as i32;
                expected[(y - 2) * 4 + x - 1] = a * 100 + b + 2000;
            }
        }
    }
    {
        let out = run(e, m, "two_d", NdRange::new_1d(1, 1), &[16], Some(QUEUE));
        for (i, &want) in expected.iter().enumerate() {
            assert_eq!(int(&out[0], i), want, "{} out[{i}]", e.name());
        }
        assert_eq!(int(&out[0], 16), 0, "{} CLK_SUCCESS", e.name());
    }
}

/// Scenario `errors` (test `device_enqueue::enqueue_errors`).
pub fn errors(e: &dyn Engine, m: &kir::Module) {
    const CLK_INVALID_QUEUE: i32 = -102;
    const CLK_INVALID_NDRANGE: i32 = -160;
    const CLK_INVALID_ARG_SIZE: i32 = -51;
    const CLK_INVALID_EVENT_WAIT_LIST: i32 = -57;
    const CLK_EVENT_ALLOCATION_FAILURE: i32 = -100;
    const CLK_DEVICE_QUEUE_FULL: i32 = -161;
    {
        // No default device queue: CLK_NULL_QUEUE, and every enqueue fails.
        let out = run(e, m, "errors", NdRange::new_1d(1, 1), &[32], None);
        for i in 1..8 {
            assert_eq!(int(&out[0], i), CLK_INVALID_QUEUE, "{} out[{i}]", e.name());
        }
        // A queue of two commands and one event.
        let small = DeviceQueueConfig {
            size: 2 * exec::enqueue::COMMAND_BYTES,
            max_events: 1,
            max_work_group_size: 1024,
        };
        let out = run(e, m, "errors", NdRange::new_1d(1, 1), &[32], Some(small));
        let o = |i| int(&out[0], i);
        assert_eq!(
            o(1),
            CLK_INVALID_NDRANGE,
            "{} work-group over the limit",
            e.name()
        );
        assert_eq!(o(2), CLK_INVALID_ARG_SIZE, "{} local size 0", e.name());
        assert_eq!(o(3), CLK_INVALID_EVENT_WAIT_LIST, "{} NULL list", e.name());
        assert_eq!(o(4), 0, "{}", e.name());
        assert_eq!(
            o(5),
            CLK_EVENT_ALLOCATION_FAILURE,
            "{} second event",
            e.name()
        );
        assert_eq!(o(6), 0, "{}", e.name());
        assert_eq!(o(7), CLK_DEVICE_QUEUE_FULL, "{} third command", e.name());
        // Only the two accepted children ran.
        let ran: Vec<i32> = (50..57).map(o).collect();
        assert_eq!(ran, [0, 0, 0, 1, 0, 1, 0], "{}", e.name());
    }
}

/// Scenario `queries` (test `device_enqueue::kernel_queries`).
pub fn queries(e: &dyn Engine, m: &kir::Module) {
    {
        let out = run(e, m, "queries", NdRange::new_1d(1, 1), &[4], Some(QUEUE));
        let got: Vec<i32> = (0..4).map(|i| int(&out[0], i)).collect();
        // The device's work-group limit; any multiple; 2x3 work-items in sub-groups of 1.
        assert_eq!(got, [1024, 1, 6, 1], "{}", e.name());
    }
}
