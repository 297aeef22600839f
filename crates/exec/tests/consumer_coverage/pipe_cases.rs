//! Pipes end to end (OpenCL C 2.0 §6.13.16; SPIR-V 3.42.23): kernels compiled by clang-15 +
//! llvm-spirv-15, a producer launch writing a pipe and a consumer launch reading it, on the
//! interpreter and the JIT. The order of packets written by different work-items is unspecified,
//! so the checks compare multisets and counts computed here from the kernels' definitions.

#![allow(dead_code)]

use std::collections::BTreeSet;

use exec::{ArgValue, Engine, Interpreter, Jit, Launch, NdRange};
use spv::Op;

use super::harness;

pub const SOURCE: &str = r#"
kernel void producer(global const int *src, write_only pipe int p) {
    int gid = get_global_id(0);
    write_pipe(p, &src[gid]);
}
kernel void consumer(read_only pipe int p, global int *dst) {
    int gid = get_global_id(0);
    int v = -1;
    if (read_pipe(p, &v) != 0) v = -7;
    dst[gid] = v;
}
kernel void rproducer(global const int *src, write_only pipe int p, global int *ok) {
    int gid = get_global_id(0);
    reserve_id_t r = reserve_write_pipe(p, 2);
    ok[gid] = is_valid_reserve_id(r);
    if (is_valid_reserve_id(r)) {
        write_pipe(p, r, 1, &src[2 * gid + 1]);
        write_pipe(p, r, 0, &src[2 * gid]);
        commit_write_pipe(p, r);
    }
}
kernel void rconsumer(read_only pipe int p, global int *dst) {
    int gid = get_global_id(0);
    reserve_id_t r = reserve_read_pipe(p, 3);
    if (is_valid_reserve_id(r)) {
        for (int k = 0; k < 3; k++) read_pipe(p, r, k, &dst[3 * gid + k]);
        commit_read_pipe(p, r);
    }
}
kernel void gproducer(global const int *src, write_only pipe int p) {
    int lid = get_local_id(0);
    reserve_id_t r = work_group_reserve_write_pipe(p, get_local_size(0));
    if (is_valid_reserve_id(r)) {
        write_pipe(p, r, lid, &src[get_global_id(0)]);
        work_group_commit_write_pipe(p, r);
    }
}
kernel void gconsumer(read_only pipe int p, global int *dst) {
    int lid = get_local_id(0);
    reserve_id_t r = work_group_reserve_read_pipe(p, get_local_size(0));
    if (is_valid_reserve_id(r)) {
        read_pipe(p, r, lid, &dst[get_global_id(0)]);
        work_group_commit_read_pipe(p, r);
    }
}
kernel void counts(read_only pipe int p, global uint *info) {
    info[0] = get_pipe_num_packets(p);
    info[1] = get_pipe_max_packets(p);
}
kernel void vproducer(write_only pipe float4 p) {
    float g = get_global_id(0);
    float4 v = (float4)(g, g + 0.5f, -g, 2.0f * g);
    write_pipe(p, &v);
}
kernel void vconsumer(read_only pipe float4 p, global float4 *dst) {
    float4 v = (float4)(-1.0f);
    read_pipe(p, &v);
    dst[get_global_id(0)] = v;
}
"#;

/// Runs `kernel` of `module` over `global`/`local` with the memory objects `mems` (each used as
/// a buffer or pipe argument, in order `args`).
pub fn launch(
    engine: &dyn Engine,
    module: &kir::Module,
    kernel: &str,
    mems: &mut [Vec<u8>],
    args: &[usize],
    global: u64,
    local: u64,
) {
    let (index, _) = module
        .kernel(kernel)
        .unwrap_or_else(|| panic!("no kernel {kernel}"));
    let values: Vec<ArgValue> = args
        .iter()
        .map(|&m| ArgValue::Buffer {
            ptr: mems[m].as_mut_ptr(),
            len: mems[m].len(),
        })
        .collect();
    engine
        .run(&Launch {
            module,
            kernel: index,
            args: &values,
            nd: NdRange::new_1d(global, local),
            threads: 2,
        })
        .unwrap_or_else(|e| panic!("{kernel} on {}: {e}", engine.name()));
}

pub fn new_pipe(packet_size: u32, max_packets: u32) -> Vec<u8> {
    let mut mem = vec![0u8; exec::pipe::byte_len(packet_size, max_packets) as usize];
    exec::pipe::init(&mut mem, packet_size, max_packets).expect("pipe init");
    mem
}

pub fn ints(bytes: &[u8]) -> Vec<i32> {
    bytes
        .chunks_exact(4)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

pub fn int_bytes(v: &[i32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn sorted(mut v: Vec<i32>) -> Vec<i32> {
    v.sort_unstable();
    v
}

/// Pipe memory object indices and buffers of a scenario.
const PIPE: usize = 0;
const SRC: usize = 1;
const DST: usize = 2;
const AUX: usize = 3;

/// Plain `write_pipe`/`read_pipe`: 64 packets written by 64 work-items, read by 70 (six reads
/// find the pipe empty); then the pipe is empty.
pub fn plain(engine: &dyn Engine, module: &kir::Module) {
    let src: Vec<i32> = (0..64).map(|i| i * 3 + 1).collect();
    let mut mems = vec![
        new_pipe(4, 100),
        int_bytes(&src),
        vec![0u8; 70 * 4],
        vec![0u8; 8],
    ];
    launch(engine, module, "producer", &mut mems, &[SRC, PIPE], 64, 8);
    launch(engine, module, "counts", &mut mems, &[PIPE, AUX], 1, 1);
    assert_eq!(ints(&mems[AUX]), [64, 100], "{}: counts", engine.name());
    launch(engine, module, "consumer", &mut mems, &[PIPE, DST], 70, 10);
    let mut expected = src.clone();
    expected.extend([-7; 6]);
    assert_eq!(
        sorted(ints(&mems[DST])),
        sorted(expected),
        "{}: consumer",
        engine.name()
    );
    launch(engine, module, "counts", &mut mems, &[PIPE, AUX], 1, 1);
    assert_eq!(ints(&mems[AUX]), [0, 100], "{}: drained", engine.name());
}

/// Reservations of 2 packets into a pipe of 21: exactly 10 of 16 work-items succeed; then
/// reservations of 3 for reading: 6 of 8 succeed (18 packets), 2 packets stay.
pub fn reserved(engine: &dyn Engine, module: &kir::Module) {
    let src: Vec<i32> = (0..32).map(|i| 1000 + i).collect();
    let mut mems = vec![
        new_pipe(4, 21),
        int_bytes(&src),
        int_bytes(&[i32::MIN; 24]),
        vec![0u8; 16 * 4],
    ];
    launch(
        engine,
        module,
        "rproducer",
        &mut mems,
        &[SRC, PIPE, AUX],
        16,
        4,
    );
    let ok = ints(&mems[AUX]);
    assert_eq!(
        ok.iter().filter(|&&x| x == 1).count(),
        10,
        "{}",
        engine.name()
    );
    assert!(ok.iter().all(|&x| x == 0 || x == 1));
    // Each successful work-item g wrote src[2g] then src[2g + 1] into consecutive packets.
    let written: Vec<i32> = (0..16)
        .filter(|&g| ok[g] == 1)
        .flat_map(|g| [src[2 * g], src[2 * g + 1]])
        .collect();
    launch(engine, module, "rconsumer", &mut mems, &[PIPE, DST], 8, 2);
    let dst = ints(&mems[DST]);
    let groups: Vec<&[i32]> = dst.chunks(3).collect();
    let read: Vec<&[i32]> = groups
        .iter()
        .copied()
        .filter(|c| c[0] != i32::MIN)
        .collect();
    assert_eq!(read.len(), 6, "{}: {dst:?}", engine.name());
    for g in groups.iter().filter(|c| c[0] == i32::MIN) {
        assert_eq!(*g, [i32::MIN; 3]);
    }
    // Reads see packets in the pipe's order: 18 of the 20 written, as whole pairs or halves
    // consistent with the writes (a multiset check with the 2 left-over packets).
    let mut got: Vec<i32> = read.concat();
    launch(engine, module, "counts", &mut mems, &[PIPE, AUX], 1, 1);
    assert_eq!(ints(&mems[AUX])[..2], [2, 21], "{}: counts", engine.name());
    let mut rest = vec![i32::MIN; 2];
    mems[DST] = int_bytes(&rest);
    launch(engine, module, "consumer", &mut mems, &[PIPE, DST], 2, 1);
    rest = ints(&mems[DST]);
    got.extend(rest);
    assert_eq!(sorted(got), sorted(written), "{}", engine.name());
}

/// Work-group reservations: 6 groups of 4 write into a pipe of 20 (5 succeed); 7 groups of 4
/// read (5 succeed, 2 find the pipe empty).
pub fn work_group(engine: &dyn Engine, module: &kir::Module) {
    let src: Vec<i32> = (0..24).map(|i| 7 * i - 50).collect();
    let mut mems = vec![
        new_pipe(4, 20),
        int_bytes(&src),
        int_bytes(&[i32::MIN; 28]),
        vec![0u8; 8],
    ];
    launch(engine, module, "gproducer", &mut mems, &[SRC, PIPE], 24, 4);
    launch(engine, module, "counts", &mut mems, &[PIPE, AUX], 1, 1);
    assert_eq!(ints(&mems[AUX]), [20, 20], "{}: counts", engine.name());
    launch(engine, module, "gconsumer", &mut mems, &[PIPE, DST], 28, 4);
    let dst = ints(&mems[DST]);
    let full: Vec<&[i32]> = dst.chunks(4).filter(|c| c[0] != i32::MIN).collect();
    assert_eq!(full.len(), 5, "{}: {dst:?}", engine.name());
    for c in dst.chunks(4).filter(|c| c[0] == i32::MIN) {
        assert_eq!(
            c,
            [i32::MIN; 4],
            "{}: a group reads all or nothing",
            engine.name()
        );
    }
    // Every group read one whole group's reservation, in order: a 4-aligned run of `src`.
    for c in &full {
        let g = src
            .iter()
            .position(|&x| x == c[0])
            .expect("a written value");
        assert!(
            g % 4 == 0 && c[..] == src[g..g + 4],
            "{}: {c:?}",
            engine.name()
        );
    }
    let got: BTreeSet<i32> = full.concat().into_iter().collect();
    assert_eq!(got.len(), 20, "{}: distinct packets", engine.name());
}

/// Packets of a vector type (16 bytes).
pub fn vectors(engine: &dyn Engine, module: &kir::Module) {
    let mut mems = vec![new_pipe(16, 8), Vec::new(), vec![0u8; 10 * 16]];
    launch(engine, module, "vproducer", &mut mems, &[PIPE], 8, 8);
    launch(engine, module, "vconsumer", &mut mems, &[PIPE, DST], 10, 5);
    let floats: Vec<[u32; 4]> = mems[DST]
        .chunks_exact(16)
        .map(|c| {
            std::array::from_fn(|k| {
                u32::from_le_bytes([c[4 * k], c[4 * k + 1], c[4 * k + 2], c[4 * k + 3]])
            })
        })
        .collect();
    let mut expected: Vec<[u32; 4]> = (0..8)
        .map(|g| {
            let g = g as f32;
            [g, g + 0.5, -g, 2.0 * g].map(f32::to_bits)
        })
        .collect();
    expected.extend([[(-1.0f32).to_bits(); 4]; 2]);
    let (mut got, mut want) = (floats, expected);
    got.sort_unstable();
    want.sort_unstable();
    assert_eq!(got, want, "{}", engine.name());
}

/// Every scenario on the interpreter (checked mode) and the JIT; returns the module's opcodes.
pub fn run_all() -> BTreeSet<Op> {
    let bytes = harness::compile(SOURCE, "CL2.0");
    let module = spv::read_bytes(&bytes).expect("readable SPIR-V");
    let mut ops: BTreeSet<Op> = module.instructions.iter().map(|i| i.op).collect();
    let valid = spv::valid::validate(module, &harness::env()).expect("valid pipes module");
    let lowered = kir::lower::lower(&valid).unwrap_or_else(|e| panic!("lowering failed: {e}"));
    let interp = Interpreter {
        checked: true,
        ..Interpreter::new()
    };
    let jit = Jit::new();
    for engine in [&interp as &dyn Engine, &jit] {
        plain(engine, &lowered);
        reserved(engine, &lowered);
        work_group(engine, &lowered);
        vectors(engine, &lowered);
    }
    ops.extend(pipe_storage());
    ops
}

/// Pipe storage (SPIR-V 1.1 *PipeStorage*): one work-item writes 7 and 9 into a storage of
/// capacity 2 through a pipe made from it, a third write finds it full (-1), it reads 7 then 9
/// back through a second pipe made from the same storage, and a third read finds it empty.
fn pipe_storage() -> BTreeSet<Op> {
    harness::Asm {
        version: "1.1",
        capabilities: "OpCapability Pipes\nOpCapability PipeStorage",
        decls: "%pstore = OpTypePipeStorage\n%wpipe = OpTypePipe WriteOnly\n\
                %rpipe = OpTypePipe ReadOnly",
        body: "%v = OpVariable %ptr_fn_uint Function
%g = OpPtrCastToGeneric %ptr_gen_uint %v
%storage = OpConstantPipeStorage %pstore 4 4 2
%wp = OpCreatePipeFromPipeStorage %wpipe %storage
%rp = OpCreatePipeFromPipeStorage %rpipe %storage
OpStore %v %u7
%r0 = OpWritePipe %uint %wp %g %u4 %u4
OpStore %v %u9
%r1 = OpWritePipe %uint %wp %g %u4 %u4
%r2 = OpWritePipe %uint %wp %g %u4 %u4
%r3 = OpGetNumPipePackets %uint %rp %u4 %u4
OpStore %v %u0
%r4 = OpReadPipe %uint %rp %g %u4 %u4
%r5 = OpLoad %uint %v
%r6 = OpReadPipe %uint %rp %g %u4 %u4
%r7 = OpLoad %uint %v
%r8 = OpReadPipe %uint %rp %g %u4 %u4
%r9 = OpGetMaxPipePackets %uint %wp %u4 %u4",
        ..Default::default()
    }
    .run(
        "pipe storage",
        &[0, 0, u32::MAX, 2, 0, 7, 0, 9, u32::MAX, 2],
    )
}
