//! The `opencl3` Rust crate as a client of oxcl through the ICD loader: `opencl3` opens
//! `libOpenCL.so.1` (Debian's ocl-icd) at run time, and `OCL_ICD_VENDORS` points the loader at
//! `liboxcl.so`. The client picks the `oxcl` platform, creates a context and a queue, builds
//! programs from source (and from IL when clang-15 + llvm-spirv-15 are present), runs kernels
//! and reads results back. Expected values are computed here in Rust from the inputs.
//!
//! The loader reads `OCL_ICD_VENDORS` once, when first used, so the client runs in a child
//! process (this test executable again, running only `client`, with the variable set).

mod common;

use std::process::Command;

use opencl3::command_queue::{CommandQueue, CL_QUEUE_PROFILING_ENABLE};
use opencl3::context::Context;
use opencl3::device::{Device, CL_DEVICE_TYPE_ALL};
use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::memory::{Buffer, CL_MEM_READ_ONLY, CL_MEM_READ_WRITE, CL_MEM_WRITE_ONLY};
use opencl3::platform::get_platforms;
use opencl3::program::Program;
use opencl3::types::{cl_float, cl_int, cl_uint, CL_BLOCKING, CL_NON_BLOCKING};

const CHILD: &str = "OXCL_OPENCL3_CHILD";

#[test]
fn opencl3_crate_runs_kernels_on_oxcl_through_the_loader() {
    if !common::loader_runtime_present() {
        eprintln!("skipped: libOpenCL.so.1 (ocl-icd) is not installed");
        return;
    }
    let Some(dir) = common::vendors_dir("opencl3") else {
        return;
    };
    let times3 =
        "__kernel void times3(__global int *p) { size_t i = get_global_id(0); p[i] = p[i] * 3; }\n";
    let il = common::clang_spirv(times3, "opencl3");
    let exe = std::env::current_exe().expect("test executable");
    let mut child = Command::new(exe);
    child
        .args(["client", "--exact", "--nocapture", "--test-threads=1"])
        .env("OCL_ICD_VENDORS", &dir)
        .env(CHILD, "1");
    if let Some(il) = &il {
        child.env("OXCL_OPENCL3_IL", il);
    }
    let out = child.output().expect("run the opencl3 client");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "opencl3 client failed:\n{text}");
    assert!(text.contains("opencl3 client: source ok"), "{text}");
    if il.is_some() {
        assert!(text.contains("opencl3 client: il ok"), "{text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

const SOURCE: &str = r#"
__kernel void saxpy(__global float *z, __global const float *x, __global const float *y, float a) {
    size_t i = get_global_id(0);
    z[i] = a * x[i] + y[i];
}

__kernel void group_sum(__global const int *in, __global int *out, __local int *scratch) {
    size_t l = get_local_id(0), n = get_local_size(0);
    scratch[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = n / 2; s > 0; s /= 2) {
        if (l < s) scratch[l] += scratch[l + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0) out[get_group_id(0)] = scratch[0];
}

__kernel void collatz(__global const uint *start, __global uint *steps) {
    size_t i = get_global_id(0);
    uint v = start[i], n = 0;
    while (v != 1) { v = (v & 1) ? 3 * v + 1 : v / 2; n++; }
    steps[i] = n;
}
"#;

/// The client: runs only in the child process (the parent sets `CHILD`).
#[test]
fn client() {
    if std::env::var_os(CHILD).is_none() {
        return;
    }
    let platform = get_platforms()
        .expect("clGetPlatformIDs")
        .into_iter()
        .find(|p| p.name().is_ok_and(|n| n == "oxcl"))
        .expect("the oxcl platform");
    let device_id = *platform
        .get_devices(CL_DEVICE_TYPE_ALL)
        .expect("clGetDeviceIDs")
        .first()
        .expect("a device");
    let device = Device::new(device_id);
    assert!(device.version().expect("version").starts_with("OpenCL 3.0"));
    let context = Context::from_device(&device).expect("clCreateContext");
    let queue =
        CommandQueue::create_default_with_properties(&context, CL_QUEUE_PROFILING_ENABLE, 0)
            .expect("clCreateCommandQueueWithProperties");
    let program =
        Program::create_and_build_from_source(&context, SOURCE, "").expect("clBuildProgram");
    let mut names: Vec<&str> = program.kernel_names().split(';').collect();
    names.sort_unstable();
    assert_eq!(names, ["collatz", "group_sum", "saxpy"]);

    saxpy(&context, &queue, &program);
    group_sum(&context, &queue, &program);
    sub_group_queries(&device, &program);
    collatz(&context, &queue, &program);
    println!("opencl3 client: source ok");

    if let Some(path) = std::env::var_os("OXCL_OPENCL3_IL") {
        let il = std::fs::read(path).expect("read the SPIR-V module");
        let program = Program::create_and_build_from_il(&context, &il, "").expect("build from IL");
        let kernel = Kernel::create(&program, "times3").expect("clCreateKernel");
        let input: Vec<cl_int> = (0..100).map(|i| i * 7 - 300).collect();
        let mut data = unsafe {
            Buffer::<cl_int>::create(
                &context,
                CL_MEM_READ_WRITE,
                input.len(),
                std::ptr::null_mut(),
            )
        }
        .expect("clCreateBuffer");
        unsafe { queue.enqueue_write_buffer(&mut data, CL_BLOCKING, 0, &input, &[]) }
            .expect("write");
        unsafe {
            ExecuteKernel::new(&kernel)
                .set_arg(&data)
                .set_global_work_size(input.len())
                .enqueue_nd_range(&queue)
        }
        .expect("enqueue times3");
        let mut output = vec![0; input.len()];
        unsafe { queue.enqueue_read_buffer(&data, CL_BLOCKING, 0, &mut output, &[]) }
            .expect("read");
        let expected: Vec<cl_int> = input.iter().map(|v| v * 3).collect();
        assert_eq!(output, expected);
        println!("opencl3 client: il ok");
    }
}

/// `z = a·x + y` with values whose products and sums are exact in `f32` (so contraction to
/// `fma` cannot change them); a non-blocking write waited on through its event; profiling times.
fn saxpy(context: &Context, queue: &CommandQueue, program: &Program) {
    const N: usize = 1000;
    let kernel = Kernel::create(program, "saxpy").expect("clCreateKernel saxpy");
    assert_eq!(kernel.num_args().expect("num_args"), 4);
    assert_eq!(kernel.function_name().expect("function_name"), "saxpy");
    let xs: Vec<cl_float> = (0..N).map(|i| (i % 37) as f32 - 18.0).collect();
    let ys: Vec<cl_float> = (0..N).map(|i| (i as f32) * 0.5).collect();
    let a: cl_float = 4.0;
    let mut x =
        unsafe { Buffer::<cl_float>::create(context, CL_MEM_READ_ONLY, N, std::ptr::null_mut()) }
            .expect("x");
    let mut y =
        unsafe { Buffer::<cl_float>::create(context, CL_MEM_READ_ONLY, N, std::ptr::null_mut()) }
            .expect("y");
    let z =
        unsafe { Buffer::<cl_float>::create(context, CL_MEM_WRITE_ONLY, N, std::ptr::null_mut()) }
            .expect("z");
    unsafe { queue.enqueue_write_buffer(&mut x, CL_BLOCKING, 0, &xs, &[]) }.expect("write x");
    let y_written = unsafe { queue.enqueue_write_buffer(&mut y, CL_NON_BLOCKING, 0, &ys, &[]) }
        .expect("write y");
    let run = unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&z)
            .set_arg(&x)
            .set_arg(&y)
            .set_arg(&a)
            .set_global_work_size(N)
            .set_wait_event(&y_written)
            .enqueue_nd_range(queue)
    }
    .expect("enqueue saxpy");
    let mut zs = vec![0.0f32; N];
    let read = unsafe { queue.enqueue_read_buffer(&z, CL_NON_BLOCKING, 0, &mut zs, &[run.get()]) }
        .expect("read z");
    read.wait().expect("wait for the read");
    let expected: Vec<f32> = xs.iter().zip(&ys).map(|(x, y)| a * x + y).collect();
    assert_eq!(zs, expected);
    let start = run.profiling_command_start().expect("profiling start");
    let end = run.profiling_command_end().expect("profiling end");
    assert!(start <= end, "profiling: start {start} > end {end}");
}

/// A work-group tree reduction in local memory (`__local` argument, barriers), local size 64.
fn group_sum(context: &Context, queue: &CommandQueue, program: &Program) {
    const N: usize = 1024;
    const LOCAL: usize = 64;
    let kernel = Kernel::create(program, "group_sum").expect("clCreateKernel group_sum");
    let input: Vec<cl_int> = (0..N as i32).map(|i| (i * 37) % 101 - 50).collect();
    let mut src =
        unsafe { Buffer::<cl_int>::create(context, CL_MEM_READ_ONLY, N, std::ptr::null_mut()) }
            .expect("in");
    let dst = unsafe {
        Buffer::<cl_int>::create(context, CL_MEM_WRITE_ONLY, N / LOCAL, std::ptr::null_mut())
    }
    .expect("out");
    unsafe { queue.enqueue_write_buffer(&mut src, CL_BLOCKING, 0, &input, &[]) }.expect("write");
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&src)
            .set_arg(&dst)
            .set_arg_local_buffer(LOCAL * std::mem::size_of::<cl_int>())
            .set_global_work_size(N)
            .set_local_work_size(LOCAL)
            .enqueue_nd_range(queue)
    }
    .expect("enqueue group_sum");
    let mut sums = vec![0; N / LOCAL];
    unsafe { queue.enqueue_read_buffer(&dst, CL_BLOCKING, 0, &mut sums, &[]) }.expect("read");
    let expected: Vec<cl_int> = input.chunks(LOCAL).map(|c| c.iter().sum()).collect();
    assert_eq!(sums, expected);
}

/// Data-dependent loops, with a global offset: only items 100.. run.
fn collatz(context: &Context, queue: &CommandQueue, program: &Program) {
    const N: usize = 300;
    const OFFSET: usize = 100;
    let kernel = Kernel::create(program, "collatz").expect("clCreateKernel collatz");
    let starts: Vec<cl_uint> = (1..=N as u32).collect();
    let mut src =
        unsafe { Buffer::<cl_uint>::create(context, CL_MEM_READ_ONLY, N, std::ptr::null_mut()) }
            .expect("start");
    let mut dst =
        unsafe { Buffer::<cl_uint>::create(context, CL_MEM_READ_WRITE, N, std::ptr::null_mut()) }
            .expect("steps");
    unsafe { queue.enqueue_write_buffer(&mut src, CL_BLOCKING, 0, &starts, &[]) }.expect("write");
    let sentinel = vec![u32::MAX; N];
    unsafe { queue.enqueue_write_buffer(&mut dst, CL_BLOCKING, 0, &sentinel, &[]) }.expect("write");
    unsafe {
        ExecuteKernel::new(&kernel)
            .set_arg(&src)
            .set_arg(&dst)
            .set_global_work_offset(OFFSET)
            .set_global_work_size(N - OFFSET)
            .enqueue_nd_range(queue)
    }
    .expect("enqueue collatz");
    queue.finish().expect("clFinish");
    let mut steps = vec![0; N];
    unsafe { queue.enqueue_read_buffer(&dst, CL_BLOCKING, 0, &mut steps, &[]) }.expect("read");
    let reference = |mut v: u32| {
        let mut n = 0;
        while v != 1 {
            v = if v & 1 == 1 { 3 * v + 1 } else { v / 2 };
            n += 1;
        }
        n
    };
    for (i, (&got, &start)) in steps.iter().zip(&starts).enumerate() {
        let expected = if i < OFFSET {
            u32::MAX
        } else {
            reference(start)
        };
        assert_eq!(got, expected, "collatz item {i} (start {start})");
    }
}

/// `clGetKernelSubGroupInfo` through the loader: the sub-group count for a local size is the
/// number of sub-groups of the size the same API reports.
fn sub_group_queries(device: &Device, program: &Program) {
    use opencl3::kernel::{
        get_kernel_sub_group_info, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
        CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE,
    };
    let extensions = device.extensions().expect("CL_DEVICE_EXTENSIONS");
    if !extensions.split(' ').any(|e| e == "cl_khr_subgroups") {
        println!("opencl3 client: no sub-groups claimed");
        return;
    }
    let kernel = Kernel::create(program, "group_sum").expect("clCreateKernel group_sum");
    let local = [48usize];
    let query = |name| -> usize {
        get_kernel_sub_group_info(
            kernel.get(),
            device.id(),
            name,
            std::mem::size_of_val(&local),
            local.as_ptr() as *const std::ffi::c_void,
        )
        .expect("clGetKernelSubGroupInfo")
        .into()
    };
    let size = query(CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE);
    assert!((1..=48).contains(&size));
    assert_eq!(
        query(CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE),
        48usize.div_ceil(size)
    );
}
