//! Thread safety (API appendix A.2: "All OpenCL API calls are thread-safe" except
//! `clSetKernelArg`/`clSetKernelExecInfo` on one kernel from several threads): several host
//! threads build their own programs, enqueue kernels on a shared queue and on their own
//! out-of-order queues, release objects while commands using them are pending, and race
//! retain/release and queries on shared objects. Expected values are computed in the test.

mod direct;

use std::ffi::{c_void, CString};
use std::ptr::{null, null_mut};
use std::sync::atomic::{AtomicUsize, Ordering};

use direct::{check, Session};
use oxcl::consts::*;
use oxcl::event::*;
use oxcl::kernel::*;
use oxcl::memory::*;
use oxcl::program::*;
use oxcl::queue::*;

const THREADS: usize = 6;
const ROUNDS: usize = 4;
const N: usize = 1024;

/// Handles are plain addresses; the API makes them safe to share.
#[derive(Copy, Clone)]
struct Shared(*mut c_void);
// SAFETY: OpenCL objects may be used from any thread (appendix A.2).
unsafe impl Send for Shared {}
unsafe impl Sync for Shared {}

fn source(t: usize, round: usize) -> String {
    format!(
        "__kernel void f(__global const int *in, __global int *out) {{\n\
           size_t i = get_global_id(0);\n\
           out[i] = in[i] * {m} + {c};\n\
         }}\n",
        m = t + 2,
        c = round * 10
    )
}

/// One thread's work: per round, its own program, kernel and buffers; the kernel runs on the
/// shared in-order queue and on the thread's out-of-order queue, the input buffer is released
/// before the kernels have finished, and the results are read after waiting on the events.
fn worker(s: &Session, t: usize, shared_queue: Shared, errors: &AtomicUsize) {
    let mut err = 0;
    // SAFETY: all handles come from the API; buffers are sized for the reads and writes.
    unsafe {
        let props = [
            CL_QUEUE_PROPERTIES as u64,
            CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
            0,
        ];
        let own_queue =
            clCreateCommandQueueWithProperties(s.context, s.device, props.as_ptr(), &mut err);
        check(err, "clCreateCommandQueueWithProperties");
        for round in 0..ROUNDS {
            let text = CString::new(source(t, round)).expect("source");
            let ptr = text.as_ptr();
            let program = clCreateProgramWithSource(s.context, 1, &ptr, null(), &mut err);
            check(err, "clCreateProgramWithSource");
            check(
                clBuildProgram(program, 0, null(), null(), None, null_mut()),
                "clBuildProgram",
            );
            let name = CString::new("f").expect("name");
            let kernel = clCreateKernel(program, name.as_ptr(), &mut err);
            check(err, "clCreateKernel");
            // The kernel keeps its program alive (API 5.8.7: "the program ... is deleted once
            // ... all kernel objects associated with program have been deleted").
            check(clReleaseProgram(program), "clReleaseProgram");
            let input: Vec<i32> = (0..N as i32).map(|i| i * 3 - (t as i32) * 7).collect();
            let in_buf = s.buffer(&input);
            let out_a = s.buffer(&vec![0i32; N]);
            let out_b = s.buffer(&vec![0i32; N]);
            let mut events = [null_mut(); 2];
            let global = N;
            for (i, (queue, out)) in [(shared_queue.0, out_a), (own_queue, out_b)]
                .into_iter()
                .enumerate()
            {
                check(
                    clSetKernelArg(kernel, 0, 8, &in_buf as *const _ as *const c_void),
                    "clSetKernelArg",
                );
                check(
                    clSetKernelArg(kernel, 1, 8, &out as *const _ as *const c_void),
                    "clSetKernelArg",
                );
                check(
                    clEnqueueNDRangeKernel(
                        queue,
                        kernel,
                        1,
                        null(),
                        &global,
                        null(),
                        0,
                        null(),
                        &mut events[i],
                    ),
                    "clEnqueueNDRangeKernel",
                );
            }
            // Released while the kernels may still run: the commands keep it alive.
            check(clReleaseMemObject(in_buf), "clReleaseMemObject");
            check(clReleaseKernel(kernel), "clReleaseKernel");
            check(clWaitForEvents(2, events.as_ptr()), "clWaitForEvents");
            let expected: Vec<i32> = input
                .iter()
                .map(|v| v * (t as i32 + 2) + (round as i32) * 10)
                .collect();
            for out in [out_a, out_b] {
                if s.read::<i32>(out, N) != expected {
                    errors.fetch_add(1, Ordering::SeqCst);
                }
                check(clReleaseMemObject(out), "clReleaseMemObject");
            }
            for e in events {
                check(clReleaseEvent(e), "clReleaseEvent");
            }
        }
        check(clFinish(own_queue), "clFinish");
        check(clReleaseCommandQueue(own_queue), "clReleaseCommandQueue");
    }
}

unsafe extern "C" fn count_completion(_event: *mut c_void, status: i32, data: *mut c_void) {
    if status == CL_COMPLETE as i32 {
        // SAFETY: `data` is the test's counter, alive until the test has waited for it.
        unsafe { &*(data as *const AtomicUsize) }.fetch_add(1, Ordering::SeqCst);
    }
}

#[test]
fn threads_build_enqueue_and_release_concurrently() {
    let s = Session::new();
    let shared_queue = Shared(s.queue);
    let errors = AtomicUsize::new(0);
    let callbacks = AtomicUsize::new(0);
    // A program shared by the racing retain/release thread.
    let shared_program = Shared(s.build_source(&source(0, 0), ""));
    std::thread::scope(|scope| {
        for t in 0..THREADS {
            let (s, errors) = (&s, &errors);
            scope.spawn(move || worker(s, t, shared_queue, errors));
        }
        // Retain/release and info queries on shared objects, kernels created and released.
        let s_ref = &s;
        scope.spawn(move || {
            let program = shared_program;
            let name = CString::new("f").expect("name");
            for _ in 0..200 {
                // SAFETY: a live program handle; out-values sized for the queries.
                unsafe {
                    check(clRetainProgram(program.0), "clRetainProgram");
                    let mut err = 0;
                    let kernel = clCreateKernel(program.0, name.as_ptr(), &mut err);
                    check(err, "clCreateKernel");
                    let mut n = 0usize;
                    check(
                        clGetProgramInfo(
                            program.0,
                            CL_PROGRAM_NUM_KERNELS,
                            8,
                            &mut n as *mut usize as *mut c_void,
                            null_mut(),
                        ),
                        "clGetProgramInfo",
                    );
                    assert_eq!(n, 1);
                    check(clReleaseKernel(kernel), "clReleaseKernel");
                    check(clReleaseProgram(program.0), "clReleaseProgram");
                    let mut refs = 0u32;
                    check(
                        clGetCommandQueueInfo(
                            s_ref.queue,
                            CL_QUEUE_REFERENCE_COUNT,
                            4,
                            &mut refs as *mut u32 as *mut c_void,
                            null_mut(),
                        ),
                        "clGetCommandQueueInfo",
                    );
                }
            }
        });
        // User events completed from one thread while markers on the shared queue wait for
        // them and callbacks count completions.
        let (s_ref, callbacks) = (&s, &callbacks);
        scope.spawn(move || {
            let queue = shared_queue;
            for _ in 0..50 {
                // SAFETY: live handles; the callback's data outlives the scope.
                unsafe {
                    let mut err = 0;
                    let user = clCreateUserEvent(s_ref.context, &mut err);
                    check(err, "clCreateUserEvent");
                    let mut marker = null_mut();
                    check(
                        clEnqueueMarkerWithWaitList(queue.0, 1, &user, &mut marker),
                        "clEnqueueMarkerWithWaitList",
                    );
                    check(
                        clSetEventCallback(
                            marker,
                            CL_COMPLETE as i32,
                            Some(count_completion),
                            callbacks as *const AtomicUsize as *mut c_void,
                        ),
                        "clSetEventCallback",
                    );
                    check(
                        clSetUserEventStatus(user, CL_COMPLETE as i32),
                        "clSetUserEventStatus",
                    );
                    check(clWaitForEvents(1, &marker), "clWaitForEvents");
                    check(clReleaseEvent(marker), "clReleaseEvent");
                    check(clReleaseEvent(user), "clReleaseEvent");
                }
            }
        });
    });
    // SAFETY: live handles.
    unsafe {
        check(clFinish(s.queue), "clFinish");
        check(clReleaseProgram(shared_program.0), "clReleaseProgram");
    }
    assert_eq!(errors.load(Ordering::SeqCst), 0, "wrong results");
    // A callback runs once its event is complete; the wait above may return first (API 5.11:
    // callbacks are called asynchronously), so allow them a moment.
    for _ in 0..200 {
        if callbacks.load(Ordering::SeqCst) == 50 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert_eq!(callbacks.load(Ordering::SeqCst), 50);
}

/// Builds of one program from several threads: a build that starts while another runs gets
/// "CL_INVALID_OPERATION if the build of a program executable ... by a previous call to
/// clBuildProgram for program has not completed"; the others succeed, and the program ends
/// built.
#[test]
fn concurrent_builds_of_one_program_succeed_or_are_refused() {
    let s = Session::new();
    // A program whose build takes a moment.
    let mut text = String::new();
    for i in 0..40 {
        text += &format!(
            "__kernel void k{i}(__global float *p) {{ size_t j = get_global_id(0); \
             p[j] = sin(p[j]) * {i}.0f + cos(p[j] * 2.0f) - exp(p[j] / 8.0f); }}\n"
        );
    }
    let source = CString::new(text).expect("source");
    let ptr = source.as_ptr();
    let mut err = 0;
    // SAFETY: one NUL-terminated string.
    let program =
        Shared(unsafe { clCreateProgramWithSource(s.context, 1, &ptr, null(), &mut err) });
    check(err, "clCreateProgramWithSource");
    let results: Vec<i32> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..4)
            .map(|_| {
                scope.spawn(move || {
                    let program = program;
                    // SAFETY: a live program handle.
                    unsafe { clBuildProgram(program.0, 0, null(), null(), None, null_mut()) }
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("thread"))
            .collect()
    });
    assert!(
        results
            .iter()
            .all(|&r| r == CL_SUCCESS || r == CL_INVALID_OPERATION),
        "{results:?}"
    );
    assert!(results.contains(&CL_SUCCESS), "{results:?}");
    let mut n = 0usize;
    // SAFETY: a size_t out-value.
    unsafe {
        check(
            clGetProgramInfo(
                program.0,
                CL_PROGRAM_NUM_KERNELS,
                8,
                &mut n as *mut usize as *mut c_void,
                null_mut(),
            ),
            "clGetProgramInfo",
        );
        check(clReleaseProgram(program.0), "clReleaseProgram");
    }
    assert_eq!(n, 40);
}
