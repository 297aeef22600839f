//! The JIT's own rules, with expected values computed in plain Rust: wrapping integer
//! arithmetic that never traps, shifts modulo the width, bounds-checked accesses reported as
//! errors, barriers, the compile cache, and the fallback for kernels it cannot compile.

use std::sync::Arc;

use exec::{ArgValue, Engine, ExecError, Jit, Launch, NdRange};

fn module(text: &str) -> kir::Module {
    let module = kir::parse_module(text).unwrap_or_else(|e| panic!("parse: {e}"));
    kir::verify_module(&module).unwrap_or_else(|e| panic!("verify: {e}"));
    module
}

fn buffer(bytes: &mut [u8]) -> ArgValue {
    ArgValue::Buffer {
        ptr: bytes.as_mut_ptr(),
        len: bytes.len(),
    }
}

const OPS: &str = r#"
module address_bits 64
function fn0 "ops"(ptr_global, i32, i32) {
block0(v0: ptr_global, v1: i32, v2: i32):
    v3 = sdiv.i32 v1, v2
    v4 = srem.i32 v1, v2
    v5 = udiv.i32 v1, v2
    v6 = shl.i32 v1, v2
    v7 = ashr.i32 v1, v2
    v8 = lshr.i32 v1, v2
    v9 = const.i64 4
    store v0, v3 align 4
    v10 = ptradd.ptr_global v0, v9
    store v10, v4 align 4
    v11 = ptradd.ptr_global v10, v9
    store v11, v5 align 4
    v12 = ptradd.ptr_global v11, v9
    store v12, v6 align 4
    v13 = ptradd.ptr_global v12, v9
    store v13, v7 align 4
    v14 = ptradd.ptr_global v13, v9
    store v14, v8 align 4
    return
}
kernel "ops" fn0("out" buffer_global "int*", "a" value i32 size 4 align 4 "int", "b" value i32 size 4 align 4 "int")
"#;

#[test]
fn integer_operations_wrap_and_never_trap() {
    let m = module(OPS);
    let jit = Jit::strict();
    let cases: [(i32, i32); 6] = [
        (7, 0),
        (i32::MIN, -1),
        (-7, 2),
        (1, 33),
        (-8, 35),
        (123_456, -7),
    ];
    for (a, b) in cases {
        let mut out = vec![0u8; 24];
        let args = [
            buffer(&mut out),
            ArgValue::Bytes(a.to_le_bytes().to_vec()),
            ArgValue::Bytes(b.to_le_bytes().to_vec()),
        ];
        jit.run(&Launch {
            module: &m,
            kernel: 0,
            args: &args,
            nd: NdRange::new_1d(1, 1),
            threads: 1,
        })
        .unwrap_or_else(|e| panic!("{a} {b}: {e}"));
        let got: Vec<i32> = out
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let s = (b as u32 % 32) as i32;
        let want = vec![
            if b == 0 { 0 } else { a.wrapping_div(b) },
            if b == 0 { 0 } else { a.wrapping_rem(b) },
            if b == 0 {
                0
            } else {
                (a as u32 / b as u32) as i32
            },
            a.wrapping_shl(s as u32),
            a >> s,
            ((a as u32) >> s) as i32,
        ];
        assert_eq!(got, want, "a = {a}, b = {b}");
    }
}

const COPY: &str = r#"
module address_bits 64
function fn0 "copy"(ptr_global, ptr_global) {
block0(v0: ptr_global, v1: ptr_global):
    v2 = workitem.i64 global_id 0
    v3 = const.i64 4
    v4 = imul.i64 v2, v3
    v5 = ptradd.ptr_global v0, v4
    v6 = load.f32 v5 align 4
    v7 = ptradd.ptr_global v1, v4
    store v7, v6 align 4
    return
}
kernel "copy" fn0("a" buffer_global "float*", "b" buffer_global "float*")
"#;

#[test]
fn out_of_bounds_accesses_are_errors() {
    let m = module(COPY);
    let mut a = vec![1u8; 40];
    let mut b = vec![0u8; 64];
    let args = [buffer(&mut a), buffer(&mut b)];
    let r = Jit::strict().run(&Launch {
        module: &m,
        kernel: 0,
        args: &args,
        nd: NdRange::new_1d(16, 4),
        threads: 1,
    });
    match r {
        Err(ExecError::OutOfBounds {
            global_id,
            offset,
            size,
            len,
            access,
            ..
        }) => {
            // Work-item 10 reads bytes 40..44 of the 40-byte buffer.
            assert_eq!(global_id, [10, 0, 0]);
            assert_eq!((offset, size, len, access), (40, 4, 40, "load"));
        }
        other => panic!("expected an out-of-bounds error, got {other:?}"),
    }
    // Work-items before the faulting one copied their element.
    assert!(b[..40].iter().all(|&x| x == 1));
}

#[test]
fn compiled_kernels_are_cached() {
    let m = module(COPY);
    let jit = Jit::new();
    let first = jit.compile(&m, 0).expect("compiles");
    let second = jit.compile(&m, 0).expect("compiles");
    assert!(Arc::ptr_eq(&first, &second));
    // A different module at another address compiles separately.
    let other = module(COPY);
    let third = jit.compile(&other, 0).expect("compiles");
    assert!(!Arc::ptr_eq(&first, &third));
}

const DIVERGE: &str = r#"
module address_bits 64
function fn0 "diverge"() {
block0:
    v0 = workitem.i64 local_id 0
    v1 = const.i64 0
    v2 = cmp.bool ieq v0, v1
    brif v2, block1, block2
block1:
    barrier workgroup, workgroup, 0x110
    jump block2
block2:
    return
}
kernel "diverge" fn0()
"#;

#[test]
fn barrier_divergence_is_reported() {
    let m = module(DIVERGE);
    let r = Jit::strict().run(&Launch {
        module: &m,
        kernel: 0,
        args: &[],
        nd: NdRange::new_1d(4, 4),
        threads: 1,
    });
    assert!(
        matches!(r, Err(ExecError::BarrierDivergence { .. })),
        "{r:?}"
    );
}

/// A kernel passing a struct by value: aggregates are byte lanes in the JIT.
const AGG: &str = r#"
module address_bits 64
function fn0 "agg"(ptr_global, agg8a4) {
block0(v0: ptr_global, v1: agg8a4):
    v2 = extractbytes.i32 v1, 4
    store v0, v2 align 4
    return
}
kernel "agg" fn0("out" buffer_global "int*", "s" value agg8a4 size 8 align 4 "struct S")
"#;

/// Recursion (which OpenCL C forbids, but kir can express): the strict JIT refuses it, the
/// default JIT runs it on the interpreter.
const RECURSE: &str = r#"
module address_bits 64
function fn0 "rec"(ptr_global) {
block0(v0: ptr_global):
    v1 = const.i32 3
    v2 = call.i32 fn1(v1)
    store v0, v2 align 4
    return
}
function fn1 "down"(i32) -> i32 {
block0(v0: i32):
    v1 = const.i32 0
    v2 = cmp.bool ieq v0, v1
    brif v2, block1, block2
block1:
    v3 = const.i32 42
    return v3
block2:
    v4 = const.i32 1
    v5 = isub.i32 v0, v4
    v6 = call.i32 fn1(v5)
    return v6
}
kernel "rec" fn0("out" buffer_global "int*")
"#;

fn run_one(jit: &Jit, text: &str, extra: Vec<ArgValue>) -> Result<i32, ExecError> {
    let m = module(text);
    let mut out = vec![0u8; 4];
    let mut args = vec![buffer(&mut out)];
    args.extend(extra);
    jit.run(&Launch {
        module: &m,
        kernel: 0,
        args: &args,
        nd: NdRange::new_1d(1, 1),
        threads: 1,
    })?;
    Ok(i32::from_le_bytes([out[0], out[1], out[2], out[3]]))
}

#[test]
fn aggregates_are_compiled() {
    let arg = || vec![ArgValue::Bytes(vec![1, 0, 0, 0, 42, 0, 0, 0])];
    assert_eq!(run_one(&Jit::strict(), AGG, arg()), Ok(42));
}

#[test]
fn unsupported_kernels_fall_back_or_fail_clearly() {
    assert_eq!(run_one(&Jit::new(), RECURSE, Vec::new()), Ok(42));
    match run_one(&Jit::strict(), RECURSE, Vec::new()) {
        Err(ExecError::Unsupported { what, .. }) => assert!(what.contains("recursion"), "{what}"),
        other => panic!("expected Unsupported, got {other:?}"),
    }
}
