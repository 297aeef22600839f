//! The harness shared by the JIT's row-loop tests (`jit_row_proof`, `jit_row_prefix`,
//! `jit_range_proof`, `jit_loop_proof`): builds a kernel, runs it on one engine with one
//! thread, and compares the interpreter (the reference) with the strict JIT bit for bit,
//! error text included.

// Each test file uses a part of the harness.
#![allow(dead_code)]

pub use runtime::{
    Buffer, Context, EngineKind, Kernel, MemFlags, NdRange, Platform, Program, Queue,
};

pub fn context() -> Context {
    Context::new(
        Platform::get()
            .devices()
            .into_iter()
            .next()
            .expect("an oxcl device"),
    )
}

pub enum Arg {
    Buf(Vec<u8>),
    Val(Vec<u8>),
}

pub fn f32s(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

pub fn to_f32s(b: &[u8]) -> Vec<f32> {
    b.chunks(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

pub fn i32v(x: i32) -> Arg {
    Arg::Val(x.to_le_bytes().to_vec())
}

pub type Outcome = (Result<(), String>, Vec<Vec<u8>>);

/// Runs `kernel` of `source` on `engine`; returns every buffer after the run, or the error.
pub fn run(
    engine: EngineKind,
    source: &str,
    kernel: &str,
    args: &[Arg],
    global: &[usize],
    local: &[usize],
) -> Outcome {
    let ctx = context();
    let program = Program::from_source(&ctx, source, "kernel.cl");
    program
        .build("")
        .unwrap_or_else(|e| panic!("build: {e}\n{}", program.build_log()));
    let k: Kernel = program.kernel(kernel).expect("kernel");
    let mut bufs = Vec::new();
    for (i, a) in args.iter().enumerate() {
        match a {
            Arg::Buf(bytes) => {
                let b = Buffer::from_slice(&ctx, MemFlags::default(), bytes).expect("buffer");
                k.set_arg_buffer(i as u32, Some(&b)).expect("arg");
                bufs.push(b);
            }
            Arg::Val(bytes) => k.set_arg_bytes(i as u32, bytes).expect("arg"),
        }
    }
    let queue = Queue::new(&ctx).with_engine(engine).with_threads(1);
    let r = queue
        .nd_range(&k, &NdRange::new(global, Some(local), None))
        .map(|_| ())
        .map_err(|e| e.to_string());
    (r, bufs.iter().map(Buffer::to_vec).collect())
}

/// Runs on the interpreter and the JIT: the statuses (error text included) and every buffer
/// must be identical; returns the JIT's outcome.
pub fn both(
    source: &str,
    kernel: &str,
    args: &[Arg],
    global: &[usize],
    local: &[usize],
) -> Outcome {
    let reference = run(EngineKind::Interpreter, source, kernel, args, global, local);
    let jit = run(EngineKind::JitStrict, source, kernel, args, global, local);
    assert_eq!(jit.0, reference.0, "{kernel}: status");
    for (i, (r, j)) in reference.1.iter().zip(&jit.1).enumerate() {
        assert!(r == j, "{kernel}: buffer {i} differs");
    }
    jit
}
