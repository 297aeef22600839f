//! Pipes through the Rust API (API 5.4): `Pipe::new`, `Kernel::set_arg_pipe`, a producer kernel
//! and a consumer kernel passing data through a pipe on each engine, the device's pipe
//! queries, and the size errors of `clCreatePipe`. The kernels are compiled by clang-15 +
//! llvm-spirv-15 (a test skips with a printed reason when they are absent); expected values are
//! computed here from the kernels' definitions.

use std::process::Command;

use runtime::{
    ArgKind, Buffer, Context, EngineKind, Error, MemFlags, NdRange, Pipe, Platform, Program, Queue,
};

const SOURCE: &str = r#"
kernel void produce(global const float *src, write_only pipe float p) {
    size_t i = get_global_id(0);
    float v = src[i] * 2.0f;
    write_pipe(p, &v);
}
kernel void consume(read_only pipe float p, global float *dst, global int *status) {
    size_t i = get_global_id(0);
    float v = -1.0f;
    status[i] = read_pipe(p, &v);
    dst[i] = v;
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
    let dir = std::env::temp_dir().join(format!("runtime_pipes_{}_{call}", std::process::id()));
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

fn floats(b: &Buffer) -> Vec<f32> {
    b.to_vec()
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

#[test]
fn a_producer_and_a_consumer_share_a_pipe() {
    let Some(il) = spirv() else { return };
    for engine in [EngineKind::Interpreter, EngineKind::Jit] {
        let ctx = context();
        let program = Program::from_il(&ctx, &il).expect("program");
        program.build("").expect("build");
        let produce = program.kernel("produce").expect("produce");
        let consume = program.kernel("consume").expect("consume");
        assert_eq!(
            produce.arg_info(1).unwrap().kind,
            ArgKind::Pipe { write_only: true }
        );
        assert_eq!(
            consume.arg_info(0).unwrap().kind,
            ArgKind::Pipe { write_only: false }
        );
        let n = 256usize;
        let src: Vec<f32> = (0..n).map(|i| i as f32 * 0.25).collect();
        let src_bytes: Vec<u8> = src.iter().flat_map(|v| v.to_le_bytes()).collect();
        let src_buf = Buffer::from_slice(&ctx, MemFlags::default(), &src_bytes).unwrap();
        // Room for every packet but not for more: 8 consumers beyond n find it empty.
        let pipe = Pipe::new(&ctx, MemFlags::default(), 4, n as u32).expect("pipe");
        let dst = Buffer::new(&ctx, MemFlags::default(), (n + 8) * 4).unwrap();
        let status = Buffer::new(&ctx, MemFlags::default(), (n + 8) * 4).unwrap();
        produce.set_arg_buffer(0, Some(&src_buf)).unwrap();
        produce.set_arg_pipe(1, &pipe).unwrap();
        consume.set_arg_pipe(0, &pipe).unwrap();
        consume.set_arg_buffer(1, Some(&dst)).unwrap();
        consume.set_arg_buffer(2, Some(&status)).unwrap();
        // A pipe is not a buffer argument, nor a buffer a pipe.
        assert!(matches!(
            produce.set_arg_buffer(1, Some(&src_buf)),
            Err(Error::InvalidArgValue { .. })
        ));
        assert!(matches!(
            consume.set_arg_pipe(1, &pipe),
            Err(Error::InvalidArgValue { .. })
        ));
        let queue = Queue::new(&ctx).with_engine(engine);
        queue
            .nd_range(&produce, &NdRange::new(&[n], Some(&[16]), None))
            .expect("produce");
        queue
            .nd_range(&consume, &NdRange::new(&[n + 8], Some(&[8]), None))
            .expect("consume");
        let mut got = floats(&dst);
        let statuses: Vec<i32> = status
            .to_vec()
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        assert_eq!(
            statuses.iter().filter(|&&s| s == 0).count(),
            n,
            "{engine:?}"
        );
        assert_eq!(statuses.iter().filter(|&&s| s < 0).count(), 8, "{engine:?}");
        let mut expected: Vec<f32> = src.iter().map(|v| v * 2.0).collect();
        expected.extend([-1.0; 8]);
        got.sort_by(f32::total_cmp);
        expected.sort_by(f32::total_cmp);
        assert_eq!(got, expected, "{engine:?}");
    }
}

#[test]
fn the_device_reports_pipes() {
    let device = Platform::get().devices().remove(0);
    assert!(device.pipe_support());
    // API 4.2 full-profile minimums: 16 pipe arguments, 1 reservation, 1024-byte packets.
    let (args, reservations, packet) = device.pipe_limits();
    assert!(args >= 16 && reservations >= 1 && packet >= 1024);
    assert!(device.validation_env().has_feature("__opencl_c_pipes"));
}

#[test]
fn pipe_sizes_are_checked() {
    let ctx = context();
    // clCreatePipe: CL_INVALID_PIPE_SIZE (-69) for a zero or too large packet, or zero packets.
    for (size, max) in [(0, 4), (runtime::PIPE_MAX_PACKET_SIZE + 1, 4), (4, 0)] {
        let e = Pipe::new(&ctx, MemFlags::default(), size, max).expect_err("bad size");
        assert_eq!(e.code(), -69, "{size} {max}: {e}");
    }
    let p = Pipe::new(&ctx, MemFlags::default(), 16, 10).expect("pipe");
    assert_eq!((p.packet_size(), p.max_packets()), (16, 10));
    // The memory holds the header and 10 packets of 16 bytes.
    assert!(p.buffer().size() >= 10 * 16);
}
