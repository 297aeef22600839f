//! Pipes on the interpreter and the JIT: the producer/consumer scenarios of
//! `consumer_coverage/pipe_cases.rs` (clang-15 + llvm-spirv-15 modules; expected multisets and
//! counts computed from the kernels' definitions), one test per scenario and engine, plus the
//! errors a launch reports for memory that is not a pipe. Skips with a printed reason when the
//! tools are absent.

mod common;
#[path = "consumer_coverage/harness.rs"]
mod harness;
#[path = "consumer_coverage/pipe_cases.rs"]
mod pipe_cases;

use exec::{ArgValue, Engine, Interpreter, Jit, Launch, NdRange};

fn module() -> Option<kir::Module> {
    if !harness::tools_available() {
        eprintln!("skipping: clang-15 or llvm-spirv-15 is not installed");
        return None;
    }
    let bytes = harness::compile(pipe_cases::SOURCE, "CL2.0");
    let module = spv::read_bytes(&bytes).expect("readable SPIR-V");
    let valid = spv::valid::validate(module, &harness::env()).expect("valid pipes module");
    Some(kir::lower::lower(&valid).expect("lowered"))
}

fn checked() -> Interpreter {
    Interpreter {
        checked: true,
        ..Interpreter::new()
    }
}

#[test]
fn plain_reads_and_writes() {
    let Some(m) = module() else { return };
    pipe_cases::plain(&checked(), &m);
    pipe_cases::plain(&Jit::new(), &m);
}

#[test]
fn reservations() {
    let Some(m) = module() else { return };
    pipe_cases::reserved(&checked(), &m);
    pipe_cases::reserved(&Jit::new(), &m);
}

#[test]
fn work_group_reservations() {
    let Some(m) = module() else { return };
    pipe_cases::work_group(&checked(), &m);
    pipe_cases::work_group(&Jit::new(), &m);
}

#[test]
fn vector_packets() {
    let Some(m) = module() else { return };
    pipe_cases::vectors(&checked(), &m);
    pipe_cases::vectors(&Jit::new(), &m);
}

#[test]
fn many_threads_share_a_pipe() {
    // 4096 work-items in 64 groups on 4 threads write, then read: every packet arrives once.
    let Some(m) = module() else { return };
    for engine in [&checked() as &dyn Engine, &Jit::new()] {
        let src: Vec<i32> = (0..4096).collect();
        let mut mems = vec![
            pipe_cases::new_pipe(4, 4096),
            pipe_cases::int_bytes(&src),
            vec![0u8; 4096 * 4],
        ];
        pipe_cases::launch(engine, &m, "producer", &mut mems, &[1, 0], 4096, 64);
        pipe_cases::launch(engine, &m, "consumer", &mut mems, &[0, 2], 4096, 64);
        let mut got = pipe_cases::ints(&mems[2]);
        got.sort_unstable();
        assert_eq!(got, src, "{}", engine.name());
    }
}

#[test]
fn a_buffer_that_is_not_a_pipe_is_rejected() {
    let Some(m) = module() else { return };
    let (index, _) = m.kernel("counts").expect("kernel");
    let mut not_pipe = vec![0u8; 256];
    let mut info = vec![0u8; 8];
    let args = [
        ArgValue::Buffer {
            ptr: not_pipe.as_mut_ptr(),
            len: not_pipe.len(),
        },
        ArgValue::Buffer {
            ptr: info.as_mut_ptr(),
            len: info.len(),
        },
    ];
    for engine in [&checked() as &dyn Engine, &Jit::new()] {
        let err = engine
            .run(&Launch {
                module: &m,
                kernel: index,
                args: &args,
                nd: NdRange::new_1d(1, 1),
                threads: 1,
            })
            .expect_err("not a pipe");
        assert!(err.to_string().contains("not a pipe"), "{err}");
    }
}

#[test]
fn a_packet_size_mismatch_is_an_error() {
    // The kernel reads `int` packets (4 bytes) from a pipe of 8-byte packets.
    let Some(m) = module() else { return };
    let mut mems = vec![pipe_cases::new_pipe(8, 4), Vec::new(), vec![0u8; 4]];
    let (index, _) = m.kernel("consumer").expect("kernel");
    let args: Vec<ArgValue> = [0usize, 2]
        .iter()
        .map(|&k| ArgValue::Buffer {
            ptr: mems[k].as_mut_ptr(),
            len: mems[k].len(),
        })
        .collect();
    for engine in [&checked() as &dyn Engine, &Jit::new()] {
        let err = engine
            .run(&Launch {
                module: &m,
                kernel: index,
                args: &args,
                nd: NdRange::new_1d(1, 1),
                threads: 1,
            })
            .expect_err("packet size mismatch");
        assert!(err.to_string().contains("packet size"), "{err}");
    }
}

const SUB_GROUP: &str = r#"
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
kernel void sgproducer(global const int *src, write_only pipe int p) {
    reserve_id_t r = sub_group_reserve_write_pipe(p, 1);
    if (is_valid_reserve_id(r)) {
        write_pipe(p, r, 0, &src[get_global_id(0)]);
        sub_group_commit_write_pipe(p, r);
    }
}
kernel void sgconsumer(read_only pipe int p, global int *dst) {
    reserve_id_t r = sub_group_reserve_read_pipe(p, 1);
    if (is_valid_reserve_id(r)) {
        read_pipe(p, r, 0, &dst[get_global_id(0)]);
        sub_group_commit_read_pipe(p, r);
    }
}
"#;

#[test]
fn reservations_with_32_bit_reserve_ids() {
    // On the 32-bit `spir` target pointers and reserve ids are 32-bit integers.
    let Some(m) = common::build_for(pipe_cases::SOURCE, "spir") else {
        return;
    };
    assert_eq!(m.address_bits, 32);
    for engine in [&checked() as &dyn Engine, &Jit::new()] {
        pipe_cases::plain(engine, &m);
        pipe_cases::reserved(engine, &m);
        pipe_cases::work_group(engine, &m);
    }
}

#[test]
fn sub_group_reservations() {
    // kir's sub-groups are single work-items, so a sub-group reservation of 1 packet is one
    // work-item's.
    if !harness::tools_available() {
        eprintln!("skipping: clang-15 or llvm-spirv-15 is not installed");
        return;
    }
    let bytes = harness::compile(SUB_GROUP, "CL2.0");
    let valid = spv::valid::validate(spv::read_bytes(&bytes).expect("reads"), &harness::env())
        .expect("valid");
    let m = kir::lower::lower(&valid).expect("lowered");
    for engine in [&checked() as &dyn Engine, &Jit::new()] {
        let src: Vec<i32> = (0..40).map(|i| i * i - 7).collect();
        // 40 writers, room for 32: 8 reservations fail; 40 readers: 8 find the pipe empty.
        let mut mems = vec![
            pipe_cases::new_pipe(4, 32),
            pipe_cases::int_bytes(&src),
            pipe_cases::int_bytes(&[i32::MIN; 40]),
        ];
        pipe_cases::launch(engine, &m, "sgproducer", &mut mems, &[1, 0], 40, 8);
        pipe_cases::launch(engine, &m, "sgconsumer", &mut mems, &[0, 2], 40, 8);
        let got = pipe_cases::ints(&mems[2]);
        assert_eq!(
            got.iter().filter(|&&x| x == i32::MIN).count(),
            8,
            "{}",
            engine.name()
        );
        let got: Vec<i32> = got.into_iter().filter(|&x| x != i32::MIN).collect();
        assert!(
            got.iter().all(|x| src.contains(x)),
            "{}: {got:?}",
            engine.name()
        );
        let distinct: std::collections::BTreeSet<i32> = got.iter().copied().collect();
        assert_eq!(distinct.len(), 32, "{}", engine.name());
    }
}
