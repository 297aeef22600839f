//! Pipe storage (SPIR-V 1.1, capability *PipeStorage*) on the interpreter and the JIT: a
//! hand-written module (`pipe_storage/store.spvasm`) whose helper function holds one
//! `OpConstantPipeStorage` (4-byte packets, capacity 8) and creates a write-only and a
//! read-only pipe from it; the kernels `writer`, `reader` and `counts` call it. The storage is
//! a program-scope object: packets written by one launch are read by a later launch of another
//! kernel of the same program (one `ProgramGlobals`), writes fail when it is full and reads when
//! it is empty (OpenCL C 2.0 §6.13.16.2: 0 on success, a negative value otherwise). Also:
//! reservations and work-group reservations on a storage passed between functions
//! (`pipe_storage/reserve.spvasm`, two threads), a packet size other than the storage's, two
//! constants being two storages, a Physical32 module, the module size limit. Both engines
//! everywhere; expected values by hand.

use exec::{ArgValue, Engine, Interpreter, Jit, Launch, NdRange, ProgramGlobals};
use spv::valid::Env;

const STORE: &str = include_str!("pipe_storage/store.spvasm");
const RESERVE: &str = include_str!("pipe_storage/reserve.spvasm");

/// `-1` as the kernels' `uint` status: a failed pipe operation.
const FAILED: u32 = u32::MAX;

fn lower(text: &str, env: &Env) -> kir::Module {
    let module = spv::assemble(text).expect("assembles");
    let valid = spv::valid::validate(module, env).expect("valid");
    kir::lower::lower(&valid).expect("lowered")
}

fn engines() -> [Box<dyn Engine>; 2] {
    [
        Box::new(Interpreter {
            checked: true,
            ..Interpreter::new()
        }),
        Box::new(Jit::new()),
    ]
}

fn words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn word_bytes(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Runs `kernel(data, status)` over `n` work-items in groups of `local` on one thread;
/// returns the new `(data, status)`.
fn launch(
    engine: &dyn Engine,
    module: &kir::Module,
    globals: &ProgramGlobals,
    kernel: &str,
    data: &[u32],
    n: u64,
    local: u64,
) -> (Vec<u32>, Vec<u32>) {
    launch_on(engine, module, globals, kernel, data, n, local, 1)
}

/// [`launch`] on `threads` worker threads.
#[allow(clippy::too_many_arguments)]
fn launch_on(
    engine: &dyn Engine,
    module: &kir::Module,
    globals: &ProgramGlobals,
    kernel: &str,
    data: &[u32],
    n: u64,
    local: u64,
    threads: usize,
) -> (Vec<u32>, Vec<u32>) {
    let (index, _) = module.kernel(kernel).expect("kernel");
    let mut data = word_bytes(data);
    let mut status = vec![0xabu8; n as usize * 4];
    let args = [
        ArgValue::Buffer {
            ptr: data.as_mut_ptr(),
            len: data.len(),
        },
        ArgValue::Buffer {
            ptr: status.as_mut_ptr(),
            len: status.len(),
        },
    ];
    engine
        .run_with_globals(
            &Launch {
                module,
                kernel: index,
                args: &args,
                nd: NdRange::new_1d(n, local),
                threads,
            },
            globals,
        )
        .unwrap_or_else(|e| panic!("{kernel} on {}: {e}", engine.name()));
    (words(&data), words(&status))
}

/// `(packets in the pipe, capacity)` from the `counts` kernel.
fn counts(engine: &dyn Engine, module: &kir::Module, globals: &ProgramGlobals) -> (u32, u32) {
    let (data, status) = launch(engine, module, globals, "counts", &[0], 1, 1);
    (data[0], status[0])
}

fn sorted(mut v: Vec<u32>) -> Vec<u32> {
    v.sort_unstable();
    v
}

/// The whole scenario on one engine and one environment; returns everything the kernels
/// produced, for the engine comparison.
fn scenario(engine: &dyn Engine, module: &kir::Module) -> Vec<Vec<u32>> {
    let name = engine.name().to_string();
    let globals = ProgramGlobals::new(module);
    let mut seen = Vec::new();
    assert_eq!(counts(engine, module, &globals), (0, 8), "{name}: fresh");

    // 12 writers, room for 8: exactly 8 writes succeed, 4 find the pipe full.
    let src: Vec<u32> = (0..12).map(|i| 100 + 7 * i).collect();
    let (_, status) = launch(engine, module, &globals, "writer", &src, 12, 4);
    assert_eq!(status.iter().filter(|&&s| s == 0).count(), 8, "{name}");
    assert_eq!(status.iter().filter(|&&s| s == FAILED).count(), 4, "{name}");
    let written: Vec<u32> = (0..12)
        .filter(|&g| status[g] == 0)
        .map(|g| src[g])
        .collect();
    seen.push(status);
    assert_eq!(counts(engine, module, &globals), (8, 8), "{name}: full");

    // A later launch of another kernel reads them: 12 readers, 8 packets, 4 find it empty.
    let (got, status) = launch(engine, module, &globals, "reader", &[0; 12], 12, 3);
    assert_eq!(status.iter().filter(|&&s| s == 0).count(), 8, "{name}");
    assert_eq!(status.iter().filter(|&&s| s == FAILED).count(), 4, "{name}");
    let read: Vec<u32> = (0..12)
        .filter(|&g| status[g] == 0)
        .map(|g| got[g])
        .collect();
    assert_eq!(sorted(read), sorted(written), "{name}: the packets written");
    // Failed reads leave the destination alone.
    assert!((0..12).all(|g| status[g] == 0 || got[g] == 0), "{name}");
    seen.push(status);
    seen.push(got);
    assert_eq!(counts(engine, module, &globals), (0, 8), "{name}: drained");

    // Empty: every read fails.
    let (got, status) = launch(engine, module, &globals, "reader", &[5; 4], 4, 4);
    assert_eq!(status, [FAILED; 4], "{name}: empty");
    assert_eq!(got, [5; 4], "{name}");

    // The ring wraps: 3 more packets after 8 went through, read back in order by one work-item
    // each launch (a pipe is first in, first out for a single reader).
    let (_, status) = launch(engine, module, &globals, "writer", &[41, 42, 43], 3, 1);
    assert_eq!(status, [0; 3], "{name}");
    for expected in [41, 42, 43] {
        let (got, status) = launch(engine, module, &globals, "reader", &[0], 1, 1);
        assert_eq!((got[0], status[0]), (expected, 0), "{name}: in order");
    }

    // Fresh program-scope storage starts empty again.
    let other = ProgramGlobals::new(module);
    assert_eq!(
        counts(engine, module, &other),
        (0, 8),
        "{name}: new program"
    );
    seen
}

#[test]
fn packets_persist_across_launches_and_kernels() {
    let env = Env::from_target_env("opencl2.2").expect("env");
    let module = lower(STORE, &env);
    let [interp, jit] = engines();
    let a = scenario(interp.as_ref(), &module);
    let b = scenario(jit.as_ref(), &module);
    // On one thread both engines run the work-items in the same order.
    assert_eq!(a, b, "interpreter and JIT differ");
}

/// Reservations on a pipe storage passed between functions, on two threads: 8 work-items
/// reserve 2 packets each in a storage of 10 (exactly 5 succeed); then work-groups of 4 reserve
/// 4 packets for the group (2 of 3 groups succeed, 2 packets stay); then a group of 2 takes the
/// last 2. Every packet written is read once.
fn reservations(engine: &dyn Engine, module: &kir::Module) {
    let name = engine.name().to_string();
    let globals = ProgramGlobals::new(module);
    let src: Vec<u32> = (0..16).map(|i| 1000 + i).collect();
    let (_, ok) = launch_on(engine, module, &globals, "rwriter", &src, 8, 2, 2);
    assert_eq!(ok.iter().filter(|&&x| x == 1).count(), 5, "{name}: {ok:?}");
    assert!(ok.iter().all(|&x| x <= 1), "{name}");
    let written: Vec<u32> = (0..8)
        .filter(|&g| ok[g] == 1)
        .flat_map(|g| [src[2 * g], src[2 * g + 1]])
        .collect();

    let (got, ok) = launch_on(engine, module, &globals, "greader", &[0; 12], 12, 4, 2);
    for group in ok.chunks(4) {
        assert!(group == [1; 4] || group == [0; 4], "{name}: {ok:?}");
    }
    assert_eq!(ok.iter().filter(|&&x| x == 1).count(), 8, "{name}: {ok:?}");
    let mut read: Vec<u32> = (0..12).filter(|&g| ok[g] == 1).map(|g| got[g]).collect();
    let (got, ok) = launch_on(engine, module, &globals, "greader", &[0; 2], 2, 2, 2);
    assert_eq!(ok, [1, 1], "{name}: the last 2 packets");
    read.extend(got);
    assert_eq!(sorted(read), sorted(written), "{name}");
    let (_, ok) = launch_on(engine, module, &globals, "greader", &[0; 2], 2, 2, 2);
    assert_eq!(ok, [0, 0], "{name}: empty");
}

#[test]
fn reservations_on_a_storage_passed_between_functions() {
    let env = Env::from_target_env("opencl2.2").expect("env");
    let module = lower(RESERVE, &env);
    for engine in engines() {
        reservations(engine.as_ref(), &module);
    }
}

#[test]
fn a_packet_size_other_than_the_storage_s_is_an_error() {
    // SPIR-V 3.42.23: Packet Size must be the pipe's; the storage has 4-byte packets.
    let text = STORE.replace(
        "%w = OpWritePipe %uint %wp %gelem %uint_4 %uint_4",
        "%w = OpWritePipe %uint %wp %gelem %uint_2 %uint_2",
    );
    let env = Env::from_target_env("opencl2.2").expect("env");
    let module = lower(&text, &env);
    let (index, _) = module.kernel("writer").expect("kernel");
    let mut data = vec![0u8; 4];
    let mut status = vec![0u8; 4];
    let args = [
        ArgValue::Buffer {
            ptr: data.as_mut_ptr(),
            len: data.len(),
        },
        ArgValue::Buffer {
            ptr: status.as_mut_ptr(),
            len: status.len(),
        },
    ];
    for engine in engines() {
        let err = engine
            .run(&Launch {
                module: &module,
                kernel: index,
                args: &args,
                nd: NdRange::new_1d(1, 1),
                threads: 1,
            })
            .expect_err("packet size mismatch");
        assert!(
            err.to_string().contains("packet size"),
            "{}: {err}",
            engine.name()
        );
    }
}

#[test]
fn each_constant_is_its_own_storage() {
    // A second OpConstantPipeStorage with the same operands is another object: the `counts`
    // kernel reads the new one, which stays empty while the writer fills the first.
    let text = STORE
        .replace(
            "%storage = OpConstantPipeStorage %ps 4 4 8",
            "%storage = OpConstantPipeStorage %ps 4 4 8\n%other = OpConstantPipeStorage %ps 4 4 8",
        )
        .replace(
            "%count = OpLabel",
            "%count = OpLabel\n%rp2 = OpCreatePipeFromPipeStorage %rpipe %other",
        )
        .replace(
            "%n = OpGetNumPipePackets %uint %rp %uint_4 %uint_4",
            "%n = OpGetNumPipePackets %uint %rp2 %uint_4 %uint_4",
        );
    let env = Env::from_target_env("opencl2.2").expect("env");
    let module = lower(&text, &env);
    assert_eq!(
        module
            .globals
            .iter()
            .filter(|g| g.space == kir::AddrSpace::Global)
            .count(),
        2
    );
    for engine in engines() {
        let globals = ProgramGlobals::new(&module);
        launch(
            engine.as_ref(),
            &module,
            &globals,
            "writer",
            &[1, 2, 3],
            3,
            1,
        );
        assert_eq!(
            counts(engine.as_ref(), &module, &globals),
            (0, 8),
            "{}",
            engine.name()
        );
    }
}

#[test]
fn the_device_environment_of_oxcl_accepts_it() {
    // A 3.0 device listing PipeStorage, as `runtime::Device::validation_env` does.
    let env = Env::from_target_env("opencl3.0")
        .expect("env")
        .with_capability(spv::Capability::PipeStorage);
    let module = lower(STORE, &env);
    let globals = ProgramGlobals::new(&module);
    let jit = Jit::new();
    let (_, status) = launch(&jit, &module, &globals, "writer", &[9; 9], 9, 3);
    assert_eq!(status.iter().filter(|&&s| s == 0).count(), 8);
    assert_eq!(counts(&jit, &module, &globals), (8, 8));
}

#[test]
fn storage_beyond_the_module_limit_is_unsupported() {
    // 1024-byte packets × 65536 = 64 MiB of packets, plus the header and slot states: over
    // the 64 MiB the storages of a module may take.
    let text = STORE.replace(
        "OpConstantPipeStorage %ps 4 4 8",
        "OpConstantPipeStorage %ps 1024 4 65536",
    );
    let module = spv::assemble(&text).expect("assembles");
    let env = Env::from_target_env("opencl2.2").expect("env");
    let valid = spv::valid::validate(module, &env).expect("valid");
    match kir::lower::lower(&valid) {
        Ok(_) => panic!("lowered a storage over the limit"),
        Err(e) => {
            assert!(
                matches!(e, kir::lower::LowerError::Unsupported { .. }),
                "{e:?}"
            );
            assert!(e.to_string().contains("64 MiB"), "{e}");
        }
    }
}

/// One work-item of a Physical32 module (32-bit pointers and pipes) writes 5 and 6 into a
/// storage of capacity 1 (the second write fails: full), reads 5 back, and a second read fails
/// (empty); `out` gets the six results.
const PHYSICAL32: &str = "; Version: 1.1
OpCapability Addresses
OpCapability Kernel
OpCapability GenericPointer
OpCapability Pipes
OpCapability PipeStorage
OpMemoryModel Physical32 OpenCL
OpEntryPoint Kernel %k \"k\"
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%ps = OpTypePipeStorage
%rpipe = OpTypePipe ReadOnly
%wpipe = OpTypePipe WriteOnly
%pg = OpTypePointer CrossWorkgroup %uint
%pf = OpTypePointer Function %uint
%pgen = OpTypePointer Generic %uint
%fn = OpTypeFunction %void %pg
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%u2 = OpConstant %uint 2
%u3 = OpConstant %uint 3
%u4 = OpConstant %uint 4
%u5 = OpConstant %uint 5
%u6 = OpConstant %uint 6
%k = OpFunction %void None %fn
%out = OpFunctionParameter %pg
%e = OpLabel
%v = OpVariable %pf Function
%g = OpPtrCastToGeneric %pgen %v
%s = OpConstantPipeStorage %ps 4 4 1
%wp = OpCreatePipeFromPipeStorage %wpipe %s
%rp = OpCreatePipeFromPipeStorage %rpipe %s
OpStore %v %u5
%a = OpWritePipe %uint %wp %g %u4 %u4
OpStore %v %u6
%b = OpWritePipe %uint %wp %g %u4 %u4
OpStore %v %u0
%c = OpReadPipe %uint %rp %g %u4 %u4
%x = OpLoad %uint %v
%d = OpReadPipe %uint %rp %g %u4 %u4
%n = OpGetNumPipePackets %uint %rp %u4 %u4
%o1 = OpInBoundsPtrAccessChain %pg %out %u1
%o2 = OpInBoundsPtrAccessChain %pg %out %u2
%o3 = OpInBoundsPtrAccessChain %pg %out %u3
%o4 = OpInBoundsPtrAccessChain %pg %out %u4
%o5 = OpInBoundsPtrAccessChain %pg %out %u5
OpStore %out %a Aligned 4
OpStore %o1 %b Aligned 4
OpStore %o2 %c Aligned 4
OpStore %o3 %x Aligned 4
OpStore %o4 %d Aligned 4
OpStore %o5 %n Aligned 4
OpReturn
OpFunctionEnd
";

#[test]
fn a_32_bit_module_uses_its_storage() {
    let mut env = Env::from_target_env("opencl2.2").expect("env");
    env.address_bits = 32;
    let module = lower(PHYSICAL32, &env);
    assert_eq!(module.address_bits, 32);
    let (index, _) = module.kernel("k").expect("kernel");
    for engine in engines() {
        let mut out = vec![0xeeu8; 24];
        let args = [ArgValue::Buffer {
            ptr: out.as_mut_ptr(),
            len: out.len(),
        }];
        engine
            .run(&Launch {
                module: &module,
                kernel: index,
                args: &args,
                nd: NdRange::new_1d(1, 1),
                threads: 1,
            })
            .unwrap_or_else(|e| panic!("{}: {e}", engine.name()));
        assert_eq!(
            words(&out),
            [0, FAILED, 0, 5, FAILED, 0],
            "{}",
            engine.name()
        );
    }
}

#[test]
fn the_lowered_module_prints_and_parses_back() {
    // The storage is an initialised `__global` variable of the kir text format: 8 packets of
    // 4 bytes after a header of 128 bytes (64 + 8 slot states, rounded up to 128).
    let env = Env::from_target_env("opencl2.2").expect("env");
    let module = lower(STORE, &env);
    let storage = module
        .globals
        .iter()
        .find(|g| g.name == "storage")
        .expect("the storage variable, named by OpName");
    assert_eq!(
        (storage.size, storage.space),
        (128 + 32, kir::AddrSpace::Global)
    );
    let text = module.to_string();
    let parsed = kir::parse_module(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    // Entity numbers are renumbered by printing, so compare the variables and the text.
    assert_eq!(parsed.globals, module.globals);
    assert_eq!(parsed.to_string(), text);
}
