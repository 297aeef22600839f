//! Pipe storage through the Rust API: a program built from SPIR-V 1.1 assembly whose kernels
//! `writer` and `reader` reach one `OpConstantPipeStorage` (4-byte packets, capacity 4) through
//! a helper function. The device's validation environment accepts *PipeStorage*; the storage
//! belongs to the built program, so packets written by one command are read by a later command
//! running the other kernel, on each engine; a second program has its own storage. Expected
//! values by hand.

use runtime::{Buffer, Context, EngineKind, MemFlags, NdRange, Platform, Program, Queue};

/// `helper(mode, data, status)`: work-item `i` writes `data[i]` (mode 0) or reads into
/// `data[i]` (mode 1) and stores the status (0 or -1) in `status[i]`.
const MODULE: &str = r#"; Version: 1.1
OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpCapability GenericPointer
OpCapability Pipes
OpCapability PipeStorage
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %writer "writer" %gid_var
OpEntryPoint Kernel %reader "reader" %gid_var
OpDecorate %gid_var BuiltIn GlobalInvocationId
OpDecorate %gid_var Constant
%void = OpTypeVoid
%bool = OpTypeBool
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%v3ulong = OpTypeVector %ulong 3
%ps = OpTypePipeStorage
%rpipe = OpTypePipe ReadOnly
%wpipe = OpTypePipe WriteOnly
%pg = OpTypePointer CrossWorkgroup %uint
%pgen = OpTypePointer Generic %uint
%pin = OpTypePointer Input %v3ulong
%gid_var = OpVariable %pin Input
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_4 = OpConstant %uint 4
%fn_k = OpTypeFunction %void %pg %pg
%fn_h = OpTypeFunction %void %uint %pg %pg
%helper = OpFunction %void None %fn_h
%mode = OpFunctionParameter %uint
%data = OpFunctionParameter %pg
%status = OpFunctionParameter %pg
%entry = OpLabel
%storage = OpConstantPipeStorage %ps 4 4 4
%gid3 = OpLoad %v3ulong %gid_var
%gid = OpCompositeExtract %ulong %gid3 0
%elem = OpInBoundsPtrAccessChain %pg %data %gid
%st = OpInBoundsPtrAccessChain %pg %status %gid
%gelem = OpPtrCastToGeneric %pgen %elem
%is_write = OpIEqual %bool %mode %uint_0
OpSelectionMerge %end None
OpBranchConditional %is_write %write %read
%write = OpLabel
%wp = OpCreatePipeFromPipeStorage %wpipe %storage
%w = OpWritePipe %uint %wp %gelem %uint_4 %uint_4
OpStore %st %w Aligned 4
OpBranch %end
%read = OpLabel
%rp = OpCreatePipeFromPipeStorage %rpipe %storage
%r = OpReadPipe %uint %rp %gelem %uint_4 %uint_4
OpStore %st %r Aligned 4
OpBranch %end
%end = OpLabel
OpReturn
OpFunctionEnd
%writer = OpFunction %void None %fn_k
%wd = OpFunctionParameter %pg
%ws = OpFunctionParameter %pg
%we = OpLabel
%c0 = OpFunctionCall %void %helper %uint_0 %wd %ws
OpReturn
OpFunctionEnd
%reader = OpFunction %void None %fn_k
%rd = OpFunctionParameter %pg
%rs = OpFunctionParameter %pg
%re = OpLabel
%c1 = OpFunctionCall %void %helper %uint_1 %rd %rs
OpReturn
OpFunctionEnd
"#;

fn words(b: &Buffer) -> Vec<u32> {
    b.to_vec()
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// Runs `kernel` of `program` over `data` (one work-item per word); returns (data, status).
fn run(
    ctx: &Context,
    queue: &Queue,
    program: &Program,
    kernel: &str,
    data: &[u32],
) -> (Vec<u32>, Vec<u32>) {
    let k = program.kernel(kernel).expect("kernel");
    let bytes: Vec<u8> = data.iter().flat_map(|v| v.to_le_bytes()).collect();
    let data_buf = Buffer::from_slice(ctx, MemFlags::default(), &bytes).unwrap();
    let status = Buffer::new(ctx, MemFlags::default(), data.len() * 4).unwrap();
    k.set_arg_buffer(0, Some(&data_buf)).unwrap();
    k.set_arg_buffer(1, Some(&status)).unwrap();
    queue
        .nd_range(&k, &NdRange::new(&[data.len()], Some(&[1]), None))
        .unwrap_or_else(|e| panic!("{kernel}: {e}"));
    (words(&data_buf), words(&status))
}

const FAILED: u32 = u32::MAX;

#[test]
fn the_storage_belongs_to_the_built_program() {
    let il = spv::assemble(MODULE).expect("assembles").to_bytes();
    for engine in [EngineKind::Interpreter, EngineKind::Jit] {
        let ctx = Context::new(Platform::get().devices().remove(0));
        let program = Program::from_il(&ctx, &il).expect("program");
        program.build("").expect("build");
        // The storage is the program's global storage: a 64-byte header, 4 slot states
        // (rounded up to 128 bytes) and 4 packets of 4 bytes.
        assert_eq!(program.global_variable_total_size().unwrap(), 128 + 16);
        let queue = Queue::new(&ctx).with_engine(engine);
        // Capacity 4: of 6 writers, 4 succeed (whichever run first) and 2 find it full.
        let (_, status) = run(&ctx, &queue, &program, "writer", &[10, 11, 12, 13, 14, 15]);
        assert_eq!(status.iter().filter(|&&s| s == 0).count(), 4, "{engine:?}");
        assert_eq!(status.iter().filter(|&&s| s == FAILED).count(), 2);
        let mut written: Vec<u32> = (0..6)
            .filter(|&i| status[i] == 0)
            .map(|i| 10 + i as u32)
            .collect();
        // Another program from the same IL has its own, empty, storage.
        let other = Program::from_il(&ctx, &il).expect("program");
        other.build("").expect("build");
        let (_, status) = run(&ctx, &queue, &other, "reader", &[0; 2]);
        assert_eq!(status, [FAILED; 2], "{engine:?}: another program's storage");
        // The reader of the first program gets the 4 packets; 2 more reads find it empty.
        let (got, status) = run(&ctx, &queue, &program, "reader", &[0; 6]);
        assert_eq!(status.iter().filter(|&&s| s == 0).count(), 4, "{engine:?}");
        let mut read: Vec<u32> = (0..6).filter(|&i| status[i] == 0).map(|i| got[i]).collect();
        read.sort_unstable();
        written.sort_unstable();
        assert_eq!(read, written, "{engine:?}");
    }
}

#[test]
fn the_device_accepts_pipe_storage() {
    let device = Platform::get().devices().remove(0);
    let env = device.validation_env();
    assert!(env.capabilities.contains(&spv::Capability::PipeStorage));
}
