//! Kernels written in kir text, run by the interpreter; expected values come from plain Rust in
//! each test.

use exec::{ArgValue, Engine, ExecError, Interpreter, Launch, NdRange, RunStats};

fn module(text: &str) -> kir::Module {
    let module = kir::parse_module(text).unwrap_or_else(|e| panic!("parse: {e}"));
    if let Err(e) = kir::verify_module(&module) {
        panic!("verify: {e}");
    }
    module
}

fn run(
    module: &kir::Module,
    args: &[ArgValue],
    nd: NdRange,
    threads: usize,
) -> Result<RunStats, ExecError> {
    Interpreter::new().run(&Launch {
        module,
        kernel: 0,
        args,
        nd,
        threads,
    })
}

fn buffer(bytes: &mut [u8]) -> ArgValue {
    ArgValue::Buffer {
        ptr: bytes.as_mut_ptr(),
        len: bytes.len(),
    }
}

fn f32_bytes(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

fn i32_bytes(values: &[i32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

fn i32s(bytes: &[u8]) -> Vec<i32> {
    bytes
        .chunks_exact(4)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn f32s(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

const VADD: &str = r#"
module address_bits 64
function fn0 "vadd"(ptr_global, ptr_global, ptr_global) {
block0(v0: ptr_global, v1: ptr_global, v2: ptr_global):
    v3 = workitem.i64 global_id 0
    v4 = const.i64 4
    v5 = imul.i64 v3, v4
    v6 = ptradd.ptr_global v0, v5
    v7 = load.f32 v6 align 4
    v8 = ptradd.ptr_global v1, v5
    v9 = load.f32 v8 align 4
    v10 = fadd.f32 v7, v9
    v11 = ptradd.ptr_global v2, v5
    store v11, v10 align 4
    return
}
kernel "vadd" fn0("a" buffer_global "float*", "b" buffer_global "float*", "c" buffer_global "float*")
"#;

#[test]
fn vector_add_over_a_non_uniform_range() {
    let m = module(VADD);
    let n = 1000usize; // 15 groups of 64 and a last group of 40
    let a: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
    let b: Vec<f32> = (0..n).map(|i| 1.0 / (i as f32 + 1.0)).collect();
    let (mut ab, mut bb, mut cb) = (f32_bytes(&a), f32_bytes(&b), vec![0u8; n * 4]);
    let args = [buffer(&mut ab), buffer(&mut bb), buffer(&mut cb)];
    let stats = run(&m, &args, NdRange::new_1d(n as u64, 64), 0).unwrap();
    let expected: Vec<f32> = a.iter().zip(&b).map(|(x, y)| x + y).collect();
    assert_eq!(f32s(&cb), expected);
    assert_eq!(stats.work_items, n as u64);
    assert_eq!(stats.work_groups, 16);
    // 9 instructions with results, the store and the return.
    assert_eq!(stats.instructions, 11 * n as u64);
}

#[test]
fn out_of_bounds_store_is_reported() {
    let m = module(VADD);
    let (mut ab, mut bb) = (vec![0u8; 64], vec![0u8; 64]);
    let mut cb = vec![0u8; 40]; // room for 10 floats, 16 work-items
    let args = [buffer(&mut ab), buffer(&mut bb), buffer(&mut cb)];
    let err = run(&m, &args, NdRange::new_1d(16, 4), 3).unwrap_err();
    match err {
        ExecError::OutOfBounds {
            kernel,
            global_id,
            access,
            space,
            offset,
            size,
            len,
            at,
        } => {
            assert_eq!(kernel, "vadd");
            assert_eq!(global_id, [10, 0, 0]);
            assert_eq!(
                (access, space, offset, size, len),
                ("store", kir::AddrSpace::Global, 40, 4, 40)
            );
            assert!(at.contains("inst9"), "{at}");
        }
        other => panic!("unexpected {other}"),
    }
}

const REDUCE: &str = r#"
module address_bits 64
function fn0 "reduce"(ptr_global, ptr_global, ptr_local) {
block0(v0: ptr_global, v1: ptr_global, v2: ptr_local):
    v3 = workitem.i64 local_id 0
    v4 = workitem.i64 global_id 0
    v5 = workitem.i64 local_size 0
    v6 = const.i64 4
    v7 = imul.i64 v4, v6
    v8 = ptradd.ptr_global v0, v7
    v9 = load.i32 v8 align 4
    v10 = imul.i64 v3, v6
    v11 = ptradd.ptr_local v2, v10
    store v11, v9 align 4
    barrier workgroup, workgroup, 0x110
    v12 = const.i64 1
    v13 = lshr.i64 v5, v12
    jump block1(v13)
block1(v14: i64):
    v15 = const.i64 0
    v16 = cmp.bool ugt v14, v15
    brif v16, block2, block5
block2:
    v17 = cmp.bool ult v3, v14
    brif v17, block3, block4
block3:
    v18 = iadd.i64 v3, v14
    v19 = imul.i64 v18, v6
    v20 = ptradd.ptr_local v2, v19
    v21 = load.i32 v20 align 4
    v22 = load.i32 v11 align 4
    v23 = iadd.i32 v22, v21
    store v11, v23 align 4
    jump block4
block4:
    barrier workgroup, workgroup, 0x110
    v24 = lshr.i64 v14, v12
    jump block1(v24)
block5:
    v25 = cmp.bool ieq v3, v15
    brif v25, block6, block7
block6:
    v26 = load.i32 v2 align 4
    v27 = workitem.i64 group_id 0
    v28 = imul.i64 v27, v6
    v29 = ptradd.ptr_global v1, v28
    store v29, v26 align 4
    jump block7
block7:
    return
}
kernel "reduce" fn0("in" buffer_global "int*", "out" buffer_global "int*", "tmp" local "int*")
"#;

fn check_reduction(text: &str) {
    let m = module(text);
    let (groups, local) = (8usize, 32usize);
    let input: Vec<i32> = (0..groups * local)
        .map(|i| (i as i32 * 7919) % 1000 - 500)
        .collect();
    let mut inb = i32_bytes(&input);
    let mut outb = vec![0u8; groups * 4];
    let args = [
        buffer(&mut inb),
        buffer(&mut outb),
        ArgValue::Local(local * 4),
    ];
    let stats = run(
        &m,
        &args,
        NdRange::new_1d((groups * local) as u64, local as u64),
        2,
    )
    .unwrap();
    let expected: Vec<i32> = input.chunks(local).map(|c| c.iter().sum()).collect();
    assert_eq!(i32s(&outb), expected);
    // One barrier before the loop and one per halving step (5 for 32 items), per group.
    assert_eq!(stats.barriers, (groups * 6) as u64);
}

#[test]
fn local_memory_reduction_with_barriers_in_a_loop() {
    check_reduction(REDUCE);
}

#[test]
fn barrier_inside_a_called_function() {
    let text = REDUCE
        .replace("block4:\n    barrier workgroup, workgroup, 0x110\n", "block4:\n    call fn1()\n")
        .replace(
            "kernel \"reduce\"",
            "function fn1 \"sync\"() {\nblock0:\n    barrier workgroup, workgroup, 0x110\n    return\n}\nkernel \"reduce\"",
        );
    check_reduction(&text);
}

#[test]
fn barrier_divergence_is_reported() {
    let text = r#"
module address_bits 64
function fn0 "diverge"() {
block0:
    v0 = workitem.i64 local_id 0
    v1 = const.i64 2
    v2 = cmp.bool ult v0, v1
    brif v2, block1, block2
block1:
    barrier workgroup, workgroup, 0x110
    jump block2
block2:
    return
}
kernel "diverge" fn0()
"#;
    let m = module(text);
    let err = run(&m, &[], NdRange::new_1d(8, 4), 1).unwrap_err();
    assert!(
        matches!(err, ExecError::BarrierDivergence { ref kernel, group_id: [0, 0, 0], .. } if kernel == "diverge"),
        "{err}"
    );
}

#[test]
fn two_dimensional_non_uniform_range_with_offset() {
    let text = r#"
module address_bits 64
function fn0 "ids"(ptr_global) {
block0(v0: ptr_global):
    v1 = workitem.i64 global_linear_id 0
    v2 = const.i64 16
    v3 = imul.i64 v1, v2
    v4 = ptradd.ptr_global v0, v3
    v5 = workitem.i32 global_id 0
    store v4, v5 align 4
    v6 = const.i64 4
    v7 = ptradd.ptr_global v4, v6
    v8 = workitem.i32 global_id 1
    store v7, v8 align 4
    v9 = ptradd.ptr_global v7, v6
    v10 = workitem.i32 local_size 0
    v11 = workitem.i32 local_size 1
    v12 = imul.i32 v10, v11
    store v9, v12 align 4
    v13 = ptradd.ptr_global v9, v6
    v14 = workitem.i32 local_linear_id 0
    v15 = workitem.i32 num_groups 1
    v16 = const.i32 1000
    v17 = imul.i32 v15, v16
    v18 = iadd.i32 v14, v17
    store v13, v18 align 4
    return
}
kernel "ids" fn0("out" buffer_global "int4*")
"#;
    let m = module(text);
    let (gx, gy, lx, ly, ox, oy) = (10u64, 7u64, 4u64, 3u64, 100u64, 200u64);
    let nd = NdRange {
        work_dim: 2,
        global_offset: [ox, oy, 0],
        global_size: [gx, gy, 1],
        local_size: [lx, ly, 1],
    };
    let mut out = vec![0u8; (gx * gy * 16) as usize];
    run(&m, &[buffer(&mut out)], nd, 2).unwrap();
    let got = i32s(&out);
    for y in 0..gy {
        for x in 0..gx {
            let i = ((y * gx + x) * 4) as usize;
            // The last group in x has 10 - 8 = 2 columns, in y 7 - 6 = 1 row.
            let lsx = if x >= 8 { 2 } else { 4 };
            let lsy = if y >= 6 { 1 } else { 3 };
            let local_linear = (y % ly) * lsx + (x % lx);
            let expected = [
                (ox + x) as i32,
                (oy + y) as i32,
                (lsx * lsy) as i32,
                (local_linear + 3 * 1000) as i32,
            ];
            assert_eq!(&got[i..i + 4], &expected, "work-item ({x}, {y})");
        }
    }
}

#[test]
fn division_by_zero_and_atomics() {
    let text = r#"
module address_bits 64
function fn0 "divs"(ptr_global, ptr_global, i32) {
block0(v0: ptr_global, v1: ptr_global, v2: i32):
    v3 = workitem.i32 global_id 0
    v4 = udiv.i32 v3, v2
    v5 = srem.i32 v3, v2
    v6 = iadd.i32 v4, v5
    v7 = const.i64 4
    v8 = workitem.i64 global_id 0
    v9 = imul.i64 v8, v7
    v10 = ptradd.ptr_global v0, v9
    store v10, v6 align 4
    v11 = const.i32 1
    v12 = atomic.i32 iadd device 0x0 v1, v3
    return
}
kernel "divs" fn0("out" buffer_global "int*", "sum" buffer_global "int*", "n" value i32 size 4 align 4 "int")
"#;
    let m = module(text);
    let n = 200u64;
    // Keep the counter 4-aligned for the atomic: a u32 vector's storage.
    let mut counter = vec![0u32; 1];
    let counter_arg = ArgValue::Buffer {
        ptr: counter.as_mut_ptr().cast(),
        len: 4,
    };
    let mut out = vec![0xffu8; (n * 4) as usize];
    let args = [
        buffer(&mut out),
        counter_arg,
        ArgValue::Bytes(0i32.to_le_bytes().to_vec()),
    ];
    run(&m, &args, NdRange::new_1d(n, 8), 4).unwrap();
    // SPIR-V leaves division by zero undefined; the interpreter defines it as 0, never a trap.
    assert!(i32s(&out).iter().all(|&v| v == 0));
    assert_eq!(counter[0] as u64, (0..n).sum::<u64>());
}

#[test]
fn bad_arguments_are_errors() {
    let m = module(VADD);
    let err = run(&m, &[ArgValue::Null], NdRange::new_1d(4, 4), 1).unwrap_err();
    assert!(
        matches!(
            err,
            ExecError::ArgCount {
                expected: 3,
                given: 1,
                ..
            }
        ),
        "{err}"
    );
    let err = run(
        &m,
        &[ArgValue::Local(4), ArgValue::Null, ArgValue::Null],
        NdRange::new_1d(4, 4),
        1,
    )
    .unwrap_err();
    assert!(
        matches!(err, ExecError::BadArgument { index: 0, .. }),
        "{err}"
    );
    // A null buffer is a valid argument; dereferencing it is not.
    let err = run(
        &m,
        &[ArgValue::Null, ArgValue::Null, ArgValue::Null],
        NdRange::new_1d(4, 4),
        1,
    )
    .unwrap_err();
    assert!(
        matches!(
            err,
            ExecError::InvalidPointer {
                reason: "null pointer",
                ..
            }
        ),
        "{err}"
    );
    let bad_nd = NdRange {
        work_dim: 4,
        ..NdRange::new_1d(4, 4)
    };
    let err = run(
        &m,
        &[ArgValue::Null, ArgValue::Null, ArgValue::Null],
        bad_nd,
        1,
    )
    .unwrap_err();
    assert!(matches!(err, ExecError::BadNdRange(_)), "{err}");
}

#[test]
fn builtins_apply_per_component_and_store_through_pointers() {
    let text = r#"
module address_bits 64
global g0 "fmt" constant size 20 align 1 init #782025642c20252e327632686c66210a00000000
function fn0 "math"(ptr_global, ptr_global) {
block0(v0: ptr_global, v1: ptr_global):
    v2 = const.f32x4 [2.0, 9.0, 0.25, -1.0]
    v3 = builtin.f32x4 sqrt(v2)
    store v0, v3 align 16
    v4 = const.f64 48.0
    v5 = stackalloc.ptr_private 4 align 4
    v6 = builtin.f64 frexp(v4, v5)
    v7 = const.i64 16
    v8 = ptradd.ptr_global v0, v7
    store v8, v6 align 8
    v9 = load.i32 v5 align 4
    v10 = const.i64 24
    v11 = ptradd.ptr_global v0, v10
    store v11, v9 align 4
    v12 = const.i32x2 [-5, 7]
    v13 = builtin.i32x2 s_abs(v12)
    store v1, v13 align 8
    v14 = const.i32 -3
    v15 = const.f32x2 [1.5, -0.25]
    v16 = globaladdr.ptr_constant g0
    v17 = builtin.i32 printf(v16, v14, v15)
    return
}
kernel "math" fn0("out" buffer_global "float*", "ints" buffer_global "int*")
"#;
    let m = module(text);
    let mut out = vec![0u8; 28];
    let mut ints = vec![0u8; 8];
    let stats = run(
        &m,
        &[buffer(&mut out), buffer(&mut ints)],
        NdRange::new_1d(1, 1),
        1,
    )
    .unwrap();
    let floats = f32s(&out[..16]);
    assert_eq!(floats[..3], [2f32.sqrt(), 3.0, 0.5]);
    assert!(floats[3].is_nan());
    // 48 = 0.75 * 2^6
    assert_eq!(f64::from_le_bytes(out[16..24].try_into().unwrap()), 0.75);
    assert_eq!(i32s(&out[24..28]), [6]);
    assert_eq!(i32s(&ints), [5, 7]);
    // The format string is "x %d, %.2v2hlf!\n".
    assert_eq!(
        String::from_utf8(stats.printf).unwrap(),
        "x -3, 1.50,-0.25!\n"
    );
}

#[test]
fn program_scope_variables_persist_across_launches() {
    let text = r#"
module address_bits 64
global g0 "counter" global size 4 align 4 init #05000000
global g1 "self" global size 8 align 8 init #0000000000000000 reloc 0 g0 0
function fn0 "bump"(ptr_global) {
block0(v0: ptr_global):
    v1 = globaladdr.ptr_global g1
    v2 = load.ptr_global v1 align 8
    v3 = const.i32 1
    v4 = atomic.i32 iadd device 0x0 v2, v3
    v5 = workitem.i64 global_id 0
    v6 = const.i64 4
    v7 = imul.i64 v5, v6
    v8 = ptradd.ptr_global v0, v7
    store v8, v4 align 4
    return
}
kernel "bump" fn0("old" buffer_global "int*")
"#;
    let m = module(text);
    let globals = exec::ProgramGlobals::new(&m);
    let mut out = vec![0u8; 16];
    for _ in 0..2 {
        let args = [buffer(&mut out)];
        Interpreter::new()
            .run_with_globals(
                &Launch {
                    module: &m,
                    kernel: 0,
                    args: &args,
                    nd: NdRange::new_1d(4, 2),
                    threads: 2,
                },
                &globals,
            )
            .unwrap();
    }
    // 5 initially, 4 increments per launch, reached through a pointer stored in another variable.
    assert_eq!(
        globals.read(kir::GlobalRef(0)),
        Some(13i32.to_le_bytes().to_vec())
    );
    let mut old = i32s(&out);
    old.sort();
    assert_eq!(old, [9, 10, 11, 12]);
    // A plain `run` starts from the initial values again.
    run(&m, &[buffer(&mut out)], NdRange::new_1d(4, 4), 1).unwrap();
    let mut old = i32s(&out);
    old.sort();
    assert_eq!(old, [5, 6, 7, 8]);
}

#[test]
fn checked_mode_reports_local_memory_races() {
    let checked = Interpreter {
        checked: true,
        ..Interpreter::new()
    };
    let launch = |m: &kir::Module, inb: &mut Vec<u8>, outb: &mut Vec<u8>| {
        let args = [buffer(inb), buffer(outb), ArgValue::Local(8 * 4)];
        checked.run(&Launch {
            module: m,
            kernel: 0,
            args: &args,
            nd: NdRange::new_1d(16, 8),
            threads: 1,
        })
    };
    let (mut inb, mut outb) = (i32_bytes(&[1; 16]), vec![0u8; 8]);
    // The correct reduction has no race.
    launch(&module(REDUCE), &mut inb, &mut outb).unwrap();
    assert_eq!(i32s(&outb), [8, 8]);
    // Without the barrier at the end of each step, work-item 0 runs its whole loop first and
    // reads tmp[1] in the last step; work-item 1 then writes tmp[1] in its first step, with no
    // barrier in between.
    let racy = REDUCE.replace(
        "block4:\n    barrier workgroup, workgroup, 0x110\n",
        "block4:\n",
    );
    let err = launch(&module(&racy), &mut inb, &mut outb).unwrap_err();
    match err {
        ExecError::DataRace {
            kernel,
            global_id,
            access,
            other,
            ..
        } => {
            assert_eq!(kernel, "reduce");
            assert_eq!((global_id, access, other), ([1, 0, 0], "write", Some(0)));
        }
        other => panic!("unexpected {other}"),
    }
}

/// Arguments of the right kinds for any kernel: zeroed values, 64-byte buffers, 16 bytes of
/// local memory.
fn any_args(kernel: &kir::Kernel, storage: &mut Vec<Vec<u8>>) -> Vec<ArgValue> {
    storage.clear();
    storage.resize(kernel.args.len(), vec![0u8; 64]);
    kernel
        .args
        .iter()
        .zip(storage.iter_mut())
        .map(|(arg, bytes)| match &arg.kind {
            kir::ArgKind::Buffer(_) | kir::ArgKind::Pipe { .. } => ArgValue::Buffer {
                ptr: bytes.as_mut_ptr(),
                len: bytes.len(),
            },
            kir::ArgKind::LocalPtr => ArgValue::Local(16),
            kir::ArgKind::Value { size, .. } => ArgValue::Bytes(vec![0; *size as usize]),
            kir::ArgKind::Sampler => ArgValue::Bytes(vec![0; 4]),
            kir::ArgKind::Image(_) => ArgValue::Null,
        })
        .collect()
}

/// Verified modules never make the interpreter panic: every single-character mutation of a
/// few kernels that still parses and verifies runs to a result or an error.
#[test]
fn mutated_verified_kernels_never_panic() {
    let interp = Interpreter {
        max_steps_per_item: 10_000,
        checked: true,
        ..Interpreter::new()
    };
    let substitutes = ['1', '2', '0', 'v', '-', '8'];
    let mut ran = 0;
    for base in [VADD, REDUCE] {
        let chars: Vec<char> = base.chars().collect();
        for i in 0..chars.len() {
            for &c in &substitutes {
                let mut v = chars.clone();
                v[i] = c;
                let text: String = v.into_iter().collect();
                let Ok(m) = kir::parse_module(&text) else {
                    continue;
                };
                if kir::verify_module(&m).is_err() || m.kernels.is_empty() {
                    continue;
                }
                let mut storage = Vec::new();
                let args = any_args(&m.kernels[0], &mut storage);
                let _ = interp.run(&Launch {
                    module: &m,
                    kernel: 0,
                    args: &args,
                    nd: NdRange::new_1d(4, 2),
                    threads: 1,
                });
                ran += 1;
            }
        }
    }
    assert!(ran > 100, "{ran}");
}
