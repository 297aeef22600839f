//! The harness shared by the JIT's runtime tests (`jit_row_proof`, `jit_row_prefix`,
//! `jit_range_proof`, `jit_loop_proof`, `jit_vector`, `jit_masked`, `jit_phase_vector`,
//! `jit_idle_phases`, `jit_group_fusion`, …): builds a kernel, runs it on one engine, and
//! compares the interpreter (the reference) with the strict JIT bit for bit, error text
//! included.

// Each test file uses a part of the harness.
#![allow(dead_code)]

pub mod kernels;
#[allow(unused_imports)]
pub use kernels::{conv5_reference, floats, stencil_reference, tiled_reference, CONV5, STENCIL};

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
    /// A buffer initialised with these bytes; it is returned after the run.
    Buf(Vec<u8>),
    /// A value argument.
    Val(Vec<u8>),
    /// A `__local` argument of this many bytes.
    Local(usize),
}

pub fn f32s(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

pub fn to_f32s(b: &[u8]) -> Vec<f32> {
    b.chunks(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

pub fn to_i32s(b: &[u8]) -> Vec<i32> {
    b.chunks(4)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

pub fn to_u32s(b: &[u8]) -> Vec<u32> {
    b.chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

pub fn i32v(x: i32) -> Arg {
    Arg::Val(x.to_le_bytes().to_vec())
}

pub type Outcome = (Result<(), String>, Vec<Vec<u8>>);

/// How a kernel is built and enqueued.
pub struct Launch<'a> {
    pub global: &'a [usize],
    pub local: &'a [usize],
    pub offset: Option<&'a [usize]>,
    /// Worker threads of the queue; 0 means all cores.
    pub threads: usize,
    /// Build options of the program.
    pub options: &'a str,
}

impl<'a> Launch<'a> {
    /// No offset, one thread, no build options.
    pub fn new(global: &'a [usize], local: &'a [usize]) -> Self {
        Launch {
            global,
            local,
            offset: None,
            threads: 1,
            options: "",
        }
    }

    pub fn options(self, options: &'a str) -> Self {
        Launch { options, ..self }
    }
}

/// Runs `kernel` of `source` on `engine` as `launch` says; returns every buffer after the
/// run, or the error.
pub fn launch(
    engine: EngineKind,
    source: &str,
    kernel: &str,
    args: &[Arg],
    launch: &Launch<'_>,
) -> Outcome {
    let ctx = context();
    let program = Program::from_source(&ctx, source, "kernel.cl");
    program
        .build(launch.options)
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
            Arg::Local(size) => k.set_arg_local(i as u32, *size).expect("arg"),
        }
    }
    let queue = Queue::new(&ctx)
        .with_engine(engine)
        .with_threads(launch.threads);
    let range = NdRange::new(launch.global, Some(launch.local), launch.offset);
    let r = queue
        .nd_range(&k, &range)
        .map(|_| ())
        .map_err(|e| e.to_string());
    (r, bufs.iter().map(Buffer::to_vec).collect())
}

/// Runs `kernel` of `source` on `engine` with one thread and no build options.
pub fn run(
    engine: EngineKind,
    source: &str,
    kernel: &str,
    args: &[Arg],
    global: &[usize],
    local: &[usize],
) -> Outcome {
    launch(engine, source, kernel, args, &Launch::new(global, local))
}

/// Runs on the interpreter and the JIT; the statuses (error text included) must be identical.
pub fn engines_with(
    source: &str,
    kernel: &str,
    args: &[Arg],
    how: &Launch<'_>,
) -> (Outcome, Outcome) {
    let reference = launch(EngineKind::Interpreter, source, kernel, args, how);
    let jit = launch(EngineKind::JitStrict, source, kernel, args, how);
    assert_eq!(jit.0, reference.0, "{kernel}: status");
    (reference, jit)
}

/// [`engines_with`] with one thread and no build options.
pub fn engines(
    source: &str,
    kernel: &str,
    args: &[Arg],
    global: &[usize],
    local: &[usize],
) -> (Outcome, Outcome) {
    engines_with(source, kernel, args, &Launch::new(global, local))
}

/// Panics, naming the first differing 32-bit word, unless every buffer of the two runs is
/// identical.
pub fn assert_same_buffers(kernel: &str, reference: &Outcome, jit: &Outcome) {
    for (i, (r, j)) in reference.1.iter().zip(&jit.1).enumerate() {
        if r != j {
            let (rw, jw) = (to_u32s(r), to_u32s(j));
            let k = rw.iter().zip(&jw).position(|(a, b)| a != b).unwrap_or(0);
            let (a, b) = (rw.get(k).copied(), jw.get(k).copied());
            panic!(
                "{kernel}: buffer {i} differs at word {k}: {a:#x?} ({:?}) vs {b:#x?} ({:?})",
                a.map(f32::from_bits),
                b.map(f32::from_bits)
            );
        }
    }
}

/// Runs on the interpreter and the JIT: the statuses (error text included) and every buffer
/// must be identical; returns the JIT's outcome.
pub fn both_with(source: &str, kernel: &str, args: &[Arg], how: &Launch<'_>) -> Outcome {
    let (reference, jit) = engines_with(source, kernel, args, how);
    assert_same_buffers(kernel, &reference, &jit);
    jit
}

/// [`both_with`] with one thread and no build options.
pub fn both(
    source: &str,
    kernel: &str,
    args: &[Arg],
    global: &[usize],
    local: &[usize],
) -> Outcome {
    both_with(source, kernel, args, &Launch::new(global, local))
}
