//! ND-range rules of `clEnqueueNDRangeKernel` (API 5.10) and the runtime objects' error codes,
//! with expected values computed by hand in each test. (PoCL 3.1 has no non-uniform work-groups,
//! so these are not in the PoCL-compared corpus.)

use runtime::{Buffer, Context, Error, Kernel, MemFlags, NdRange, Platform, Program, Queue};

fn context() -> Context {
    Context::new(Platform::get().devices().remove(0))
}

fn build(source: &str, options: &str) -> Program {
    let program = Program::from_source(&context(), source, "test.cl");
    if let Err(e) = program.build(options) {
        panic!("build failed: {e}");
    }
    program
}

fn read_u32(buffer: &Buffer) -> Vec<u32> {
    buffer
        .to_vec()
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

const IDS: &str = "__kernel void ids(__global uint *sizes, __global uint *ids) {
    size_t i = get_global_id(0);
    sizes[i] = get_local_size(0) * 1000 + get_enqueued_local_size(0);
    ids[i] = get_group_id(0) * 100000 + get_local_id(0) * 10 + get_num_groups(0);
}";

fn ids_kernel(options: &str) -> (Kernel, Buffer, Buffer) {
    let program = build(IDS, options);
    let kernel = program.kernel("ids").unwrap();
    let sizes = Buffer::new(program.context(), MemFlags::default(), 1000 * 4).unwrap();
    let ids = Buffer::new(program.context(), MemFlags::default(), 1000 * 4).unwrap();
    kernel.set_arg_buffer(0, Some(&sizes)).unwrap();
    kernel.set_arg_buffer(1, Some(&ids)).unwrap();
    (kernel, sizes, ids)
}

#[test]
fn non_uniform_work_groups_in_opencl_c_3_0() {
    let (kernel, sizes, ids) = ids_kernel("-cl-std=CL3.0");
    let queue = Queue::new(&context());
    queue
        .nd_range(&kernel, &NdRange::new(&[1000], Some(&[64]), None))
        .unwrap();
    // 15 full groups of 64 and a last group of 1000 - 960 = 40 work-items; 16 groups in all.
    let sizes = read_u32(&sizes);
    let ids = read_u32(&ids);
    for i in 0..1000u32 {
        let (group, lid) = (i / 64, i % 64);
        let local = if group == 15 { 40 } else { 64 };
        assert_eq!(sizes[i as usize], local * 1000 + 64, "work-item {i}");
        assert_eq!(
            ids[i as usize],
            group * 100000 + lid * 10 + 16,
            "work-item {i}"
        );
    }
}

#[test]
fn opencl_c_1_2_programs_require_uniform_work_groups() {
    let src = "__kernel void k(__global int *p) { p[get_global_id(0)] = 1; }";
    let program = build(src, "");
    let kernel = program.kernel("k").unwrap();
    let b = Buffer::new(program.context(), MemFlags::default(), 4000).unwrap();
    kernel.set_arg_buffer(0, Some(&b)).unwrap();
    let queue = Queue::new(&context());
    let err = queue
        .nd_range(&kernel, &NdRange::new(&[1000], Some(&[64]), None))
        .unwrap_err();
    assert!(matches!(err, Error::InvalidWorkGroupSize(_)), "{err}");
    assert_eq!(err.code(), -54); // CL_INVALID_WORK_GROUP_SIZE
                                 // -cl-uniform-work-group-size makes a 3.0 program uniform too.
    let program = build(src, "-cl-std=CL3.0 -cl-uniform-work-group-size");
    let kernel = program.kernel("k").unwrap();
    kernel.set_arg_buffer(0, Some(&b)).unwrap();
    assert_eq!(
        queue
            .nd_range(&kernel, &NdRange::new(&[1000], Some(&[64]), None))
            .unwrap_err()
            .code(),
        -54
    );
    // Without a local size the runtime picks one that divides the global size.
    queue
        .nd_range(&kernel, &NdRange::new(&[1000], None, None))
        .unwrap();
    assert!(b.to_vec().chunks_exact(4).all(|c| c == [1, 0, 0, 0]));
}

#[test]
fn reqd_work_group_size_is_used_and_enforced() {
    let src = "__kernel __attribute__((reqd_work_group_size(8, 1, 1)))
        void k(__global uint *p) { p[get_global_id(0)] = get_local_size(0); }";
    let program = build(src, "");
    let kernel = program.kernel("k").unwrap();
    assert_eq!(kernel.reqd_work_group_size(), Some([8, 1, 1]));
    let b = Buffer::new(program.context(), MemFlags::default(), 64 * 4).unwrap();
    kernel.set_arg_buffer(0, Some(&b)).unwrap();
    let queue = Queue::new(&context());
    assert_eq!(
        queue
            .nd_range(&kernel, &NdRange::new(&[64], Some(&[16]), None))
            .unwrap_err()
            .code(),
        -54
    );
    queue
        .nd_range(&kernel, &NdRange::new(&[64], None, None))
        .unwrap();
    assert!(read_u32(&b).iter().all(|&v| v == 8));
}

#[test]
fn launch_errors_have_their_codes() {
    let (kernel, _, _) = ids_kernel("-cl-std=CL3.0");
    let queue = Queue::new(&context());
    let bad_dim = NdRange {
        work_dim: 4,
        global_offset: [0; 3],
        global_size: [1; 3],
        local_size: None,
    };
    assert_eq!(queue.nd_range(&kernel, &bad_dim).unwrap_err().code(), -53); // CL_INVALID_WORK_DIMENSION
    let too_big = NdRange::new(&[4096], Some(&[2048]), None);
    assert_eq!(queue.nd_range(&kernel, &too_big).unwrap_err().code(), -54);
    let overflow = NdRange::new(&[usize::MAX], None, Some(&[2]));
    assert_eq!(queue.nd_range(&kernel, &overflow).unwrap_err().code(), -63); // CL_INVALID_GLOBAL_WORK_SIZE
                                                                             // A global size of 0 trivially succeeds on an OpenCL 2.1+ device.
    queue
        .nd_range(&kernel, &NdRange::new(&[0], None, None))
        .unwrap();
}

#[test]
fn kernel_argument_errors_have_their_codes() {
    let src =
        "__kernel void k(__global float *p, float4 v, __local int *l) { p[0] = v.x; l[0] = 1; }";
    let program = build(src, "");
    assert_eq!(program.kernel_names().unwrap(), vec!["k".to_string()]);
    assert_eq!(program.kernel("nope").unwrap_err().code(), -46); // CL_INVALID_KERNEL_NAME
    let kernel = program.kernel("k").unwrap();
    assert_eq!(kernel.num_args(), 3);
    let queue = Queue::new(&context());
    // Nothing set yet: CL_INVALID_KERNEL_ARGS.
    assert_eq!(
        queue
            .nd_range(&kernel, &NdRange::new(&[1], None, None))
            .unwrap_err()
            .code(),
        -52
    );
    assert_eq!(kernel.set_arg_bytes(3, &[0; 4]).unwrap_err().code(), -49); // CL_INVALID_ARG_INDEX
    assert_eq!(kernel.set_arg_bytes(1, &[0; 12]).unwrap_err().code(), -51); // float4 is 16 bytes
    assert_eq!(kernel.set_arg_local(2, 0).unwrap_err().code(), -51);
    assert_eq!(kernel.set_arg_local(0, 16).unwrap_err().code(), -50); // CL_INVALID_ARG_VALUE
    let b = Buffer::new(program.context(), MemFlags::default(), 4).unwrap();
    kernel.set_arg_buffer(0, Some(&b)).unwrap();
    kernel
        .set_arg_bytes(
            1,
            &[1.5f32, 2.0, 3.0, 4.0]
                .iter()
                .flat_map(|f| f.to_le_bytes())
                .collect::<Vec<_>>(),
        )
        .unwrap();
    kernel.set_arg_local(2, 64).unwrap();
    queue
        .nd_range(&kernel, &NdRange::new(&[1], None, None))
        .unwrap();
    assert_eq!(b.to_vec(), 1.5f32.to_le_bytes());
}

#[test]
fn out_of_bounds_kernels_fail_with_an_error() {
    let src = "__kernel void k(__global int *p) { p[get_global_id(0) + 4] = 7; }";
    let program = build(src, "");
    let kernel = program.kernel("k").unwrap();
    let b = Buffer::new(program.context(), MemFlags::default(), 16).unwrap();
    kernel.set_arg_buffer(0, Some(&b)).unwrap();
    let err = Queue::new(&context())
        .nd_range(&kernel, &NdRange::new(&[4], None, None))
        .unwrap_err();
    assert!(matches!(err, Error::Execution(_)), "{err}");
}

#[test]
fn build_failures_keep_the_log() {
    let program = Program::from_source(&context(), "__kernel void k() { int x = y; }", "bad.cl");
    let err = program.build("").unwrap_err();
    assert_eq!(err.code(), -11); // CL_BUILD_PROGRAM_FAILURE
    assert!(
        program.build_log().contains("bad.cl:1:29: error:"),
        "{}",
        program.build_log()
    );
    assert_eq!(program.build_status(), runtime::BuildStatus::Error);
    assert_eq!(program.kernel("k").unwrap_err().code(), -45); // CL_INVALID_PROGRAM_EXECUTABLE
    assert_eq!(program.build("-cl-std=CL9.9").unwrap_err().code(), -43); // CL_INVALID_BUILD_OPTIONS
}

#[test]
fn buffers_read_write_copy_fill() {
    let ctx = context();
    assert_eq!(
        Buffer::new(&ctx, MemFlags::default(), 0)
            .unwrap_err()
            .code(),
        -61
    ); // CL_INVALID_BUFFER_SIZE
    let a = Buffer::from_slice(&ctx, MemFlags::default(), &[1, 2, 3, 4, 5, 6, 7, 8]).unwrap();
    let b = Buffer::new(&ctx, MemFlags::default(), 8).unwrap();
    let queue = Queue::new(&ctx);
    queue.copy_buffer(&a, &b, 2, 0, 4).unwrap();
    queue.fill_buffer(&b, &[9, 9], 4, 4).unwrap();
    let mut out = [0u8; 8];
    queue.read_buffer(&b, 0, &mut out).unwrap();
    assert_eq!(out, [3, 4, 5, 6, 9, 9, 9, 9]);
    assert_eq!(queue.read_buffer(&b, 4, &mut out).unwrap_err().code(), -30);
    assert_eq!(queue.copy_buffer(&a, &a, 0, 2, 4).unwrap_err().code(), -30); // overlapping
    let event = queue.write_buffer(&a, 0, &[0; 4]).unwrap();
    let p = event.profiling();
    assert!(p.queued <= p.start && p.start <= p.end);
}

#[test]
fn compiled_objects_link_into_one_program() {
    // clCompileProgram + clLinkProgram (API 5.8.3, 5.8.4): the kernel calls a function defined in
    // another object; expected values by hand: out[i] = 3 * i + 1.
    let ctx = context();
    let lib = Program::from_source(&ctx, "int affine(int x) { return 3 * x + 1; }", "lib.cl");
    lib.compile("", &[]).unwrap();
    let main = Program::from_source(
        &ctx,
        "int affine(int x);\n__kernel void k(__global int *o) { int i = get_global_id(0); o[i] = affine(i); }",
        "main.cl",
    );
    main.compile("", &[]).unwrap();
    let linked = Program::link(&ctx, &[main, lib], "").unwrap_or_else(|e| panic!("{e}"));
    let kernel = linked.kernel("k").unwrap();
    let b = Buffer::new(&ctx, MemFlags::default(), 8 * 4).unwrap();
    kernel.set_arg_buffer(0, Some(&b)).unwrap();
    Queue::new(&ctx)
        .nd_range(&kernel, &NdRange::new(&[8], None, None))
        .unwrap();
    assert_eq!(read_u32(&b), vec![1, 4, 7, 10, 13, 16, 19, 22]);
    // A missing definition is a link error naming the symbol.
    let alone = Program::from_source(
        &ctx,
        "int nowhere(int);\n__kernel void k(__global int *o) { o[0] = nowhere(1); }",
        "m.cl",
    );
    alone.compile("", &[]).unwrap();
    let err = Program::link(&ctx, &[alone], "").unwrap_err();
    assert_eq!(err.code(), -17, "{err}"); // CL_LINK_PROGRAM_FAILURE
}

/// OpenCL C 3.0 §6.8 with `__opencl_c_program_scope_global_variables`: program-scope and
/// `static` variables in the global address space keep their values across launches of the
/// same program (values by hand: `calls` is 3 after three launches; `counter` is 1 + 3 × 4).
#[test]
fn program_scope_global_variables_persist_across_launches() {
    let src = "global int counter = 1;
static global int calls;
kernel void bump(global int *out) {
    atomic_fetch_add_explicit((volatile global atomic_int *)&counter, 1, memory_order_relaxed,
                              memory_scope_device);
    if (get_global_id(0) == 0) calls++;
    work_group_barrier(CLK_GLOBAL_MEM_FENCE);
    out[0] = calls;
}
kernel void read_counter(global int *out) { out[0] = counter; }";
    let program = build(src, "-cl-std=CL3.0");
    let out = Buffer::new(program.context(), MemFlags::default(), 4).unwrap();
    let bump = program.kernel("bump").unwrap();
    bump.set_arg_buffer(0, Some(&out)).unwrap();
    let queue = Queue::new(&context());
    for _ in 0..3 {
        queue
            .nd_range(&bump, &NdRange::new(&[4], Some(&[4]), None))
            .unwrap();
    }
    assert_eq!(read_u32(&out), vec![3]);
    let read = program.kernel("read_counter").unwrap();
    read.set_arg_buffer(0, Some(&out)).unwrap();
    queue
        .nd_range(&read, &NdRange::new(&[1], Some(&[1]), None))
        .unwrap();
    // 1 + 3 launches × 4 work-items.
    assert_eq!(read_u32(&out), vec![13]);
}
