//! Buffers created on SVM memory (API 5.2.1 `CL_MEM_USE_HOST_PTR`: "If host_ptr is a pointer
//! returned by clSVMAlloc … the buffer is created using that SVM memory"), through the C API:
//! a kernel given the buffer stores pointers derived from it that the host and a kernel given
//! the SVM pointer follow, a kernel given the buffer follows (and compares) host-built
//! pointers, sub-buffers and buffers at an offset inside an allocation alias it too, and the
//! buffer keeps its memory alive after `clSVMFree`. A kernel writing into SVM memory allocated
//! with `CL_MEM_READ_ONLY` (directly or through a buffer on it) fails its command (event status
//! `CL_OUT_OF_RESOURCES`, the code of every execution fault) and the context's error callback
//! gets the message; the memory is unchanged. Expected values are computed by hand here.

mod direct;

use std::ffi::{c_void, CStr};
use std::ptr::{null, null_mut};
use std::sync::Mutex;

use direct::{check, Session};
use oxcl::consts::*;
use oxcl::context::*;
use oxcl::event::*;
use oxcl::kernel::*;
use oxcl::memory::*;
use oxcl::queue::*;
use oxcl::svm::*;
use oxcl::types::cl_buffer_region;

const SOURCE: &str = r#"
typedef struct node { long value; global struct node *next; } node;
kernel void link(global node *nodes, int n, long base) {
    int i = get_global_id(0);
    nodes[i].value = base + i;
    nodes[i].next = i + 1 < n ? &nodes[i + 1] : 0;
}
kernel void walk(global node *head, global long *out) {
    long sum = 0, count = 0;
    for (global node *n = head; n; n = n->next) { sum += n->value; count++; }
    out[0] = sum;
    out[1] = count;
}
kernel void same(global node *nodes, global int *out) {
    int i = get_global_id(0);
    out[i] = nodes[i].next == &nodes[i + 1];
}
kernel void add(global int *data, int k) { data[get_global_id(0)] += k; }
kernel void sum(global const int *in, global int *out) {
    int i = get_global_id(0);
    out[i] = in[i] + in[i + 4];
}
"#;

#[repr(C)]
#[derive(Copy, Clone)]
struct Node {
    value: i64,
    next: *mut Node,
}

const NODES: usize = 16;

fn arg<T>(kernel: *mut c_void, index: u32, value: &T) {
    // SAFETY: `value` is readable for its size.
    check(
        unsafe {
            clSetKernelArg(
                kernel,
                index,
                std::mem::size_of::<T>(),
                value as *const T as *const c_void,
            )
        },
        "clSetKernelArg",
    );
}

/// Blocking map then unmap of `size` bytes: the host may look at coarse-grained SVM memory in
/// between (API 5.6.2); `look` does.
fn mapped<R>(s: &Session, ptr: *mut c_void, size: usize, look: impl FnOnce() -> R) -> R {
    // SAFETY: a live allocation of `size` bytes.
    unsafe {
        check(
            clEnqueueSVMMap(
                s.queue,
                CL_TRUE,
                CL_MAP_READ | CL_MAP_WRITE,
                ptr,
                size,
                0,
                null(),
                null_mut(),
            ),
            "clEnqueueSVMMap",
        );
        let out = look();
        check(
            clEnqueueSVMUnmap(s.queue, ptr, 0, null(), null_mut()),
            "clEnqueueSVMUnmap",
        );
        check(clFinish(s.queue), "clFinish");
        out
    }
}

fn buffer_on(s: &Session, ptr: *mut c_void, size: usize) -> *mut c_void {
    let mut err = 0;
    // SAFETY: `ptr` lies in a live SVM allocation holding `size` bytes from it.
    let mem = unsafe { clCreateBuffer(s.context, CL_MEM_USE_HOST_PTR, size, ptr, &mut err) };
    check(err, "clCreateBuffer on SVM");
    mem
}

/// `[sum, count]` of the list starting at `head` (`walk` given an SVM pointer or a buffer).
fn walk(s: &Session, kernel: *mut c_void, set_head: impl FnOnce(*mut c_void)) -> Vec<i64> {
    let out = s.buffer(&[0i64; 2]);
    set_head(kernel);
    s.arg_mem(kernel, 1, out);
    s.run(kernel, 1, None);
    let result = s.read::<i64>(out, 2);
    // SAFETY: a buffer this test made.
    unsafe { clReleaseMemObject(out) };
    result
}

#[test]
fn a_buffer_on_svm_memory_is_that_memory_for_kernels() {
    let s = Session::new();
    let program = s.build_source(SOURCE, "-cl-std=CL2.0");
    let (link, walk_k, same, add) = (
        s.kernel(program, "link"),
        s.kernel(program, "walk"),
        s.kernel(program, "same"),
        s.kernel(program, "add"),
    );
    let bytes = NODES * std::mem::size_of::<Node>();
    // SAFETY: a valid context.
    let chain = unsafe { clSVMAlloc(s.context, CL_MEM_READ_WRITE, bytes, 0) } as *mut Node;
    assert!(!chain.is_null(), "clSVMAlloc");
    let whole = buffer_on(&s, chain.cast(), bytes);
    let node = |i: usize| chain.wrapping_add(i);

    // 1. `link` through the buffer: the pointers it stores are the host's addresses.
    s.arg_mem(link, 0, whole);
    arg(link, 1, &(NODES as i32));
    arg(link, 2, &100i64);
    s.run(link, NODES, None);
    let linked = mapped(&s, chain.cast(), bytes, || {
        // SAFETY: mapped SVM memory of NODES nodes.
        (0..NODES)
            .map(|i| unsafe { ((*node(i)).value, (*node(i)).next) })
            .collect::<Vec<_>>()
    });
    for (i, (value, next)) in linked.iter().enumerate() {
        assert_eq!(*value, 100 + i as i64, "node {i} value");
        let expected = if i + 1 < NODES {
            node(i + 1)
        } else {
            null_mut()
        };
        assert_eq!(*next, expected, "node {i} next");
    }

    // 2. A kernel given the SVM pointer follows what the buffer's kernel stored:
    //    100 + 101 + … + 115 = 16 × 100 + 120.
    let through_svm = walk(&s, walk_k, |k| {
        // SAFETY: a live SVM allocation.
        check(
            unsafe { clSetKernelArgSVMPointer(k, 0, chain as *const c_void) },
            "clSetKernelArgSVMPointer",
        )
    });
    assert_eq!(through_svm, vec![1720, 16]);

    // 3. The host links the nodes backwards with values 1000·i; a kernel given a sub-buffer
    //    starting at node 8 (128 bytes, CL_DEVICE_MEM_BASE_ADDR_ALIGN) walks 8, 7, …, 0:
    //    1000 × (0 + 1 + … + 8) = 36000 over 9 nodes.
    mapped(&s, chain.cast(), bytes, || {
        for i in 0..NODES {
            // SAFETY: mapped SVM memory.
            unsafe {
                *node(i) = Node {
                    value: 1000 * i as i64,
                    next: if i > 0 { node(i - 1) } else { null_mut() },
                }
            };
        }
    });
    let region = cl_buffer_region {
        origin: 8 * std::mem::size_of::<Node>(),
        size: 8 * std::mem::size_of::<Node>(),
    };
    let mut err = 0;
    // SAFETY: a valid region of `whole`.
    let upper = unsafe {
        clCreateSubBuffer(
            whole,
            CL_MEM_READ_WRITE,
            CL_BUFFER_CREATE_TYPE_REGION,
            &region as *const cl_buffer_region as *const c_void,
            &mut err,
        )
    };
    check(err, "clCreateSubBuffer");
    // API 5.5.5: CL_MEM_USES_SVM_POINTER is true for a sub-buffer of a buffer on SVM memory.
    let mut uses = 0u32;
    // SAFETY: a cl_bool out-value.
    check(
        unsafe {
            clGetMemObjectInfo(
                upper,
                CL_MEM_USES_SVM_POINTER,
                4,
                &mut uses as *mut u32 as *mut c_void,
                null_mut(),
            )
        },
        "clGetMemObjectInfo",
    );
    assert_eq!(uses, CL_TRUE, "CL_MEM_USES_SVM_POINTER of the sub-buffer");
    let through_sub = walk(&s, walk_k, |k| s.arg_mem(k, 0, upper));
    assert_eq!(through_sub, vec![36000, 9]);

    // 4. Pointers the host stored compare equal to pointers a kernel derives from the buffer:
    //    node i points to node i − 1, so `nodes[i].next == &nodes[i + 1]` holds nowhere; after
    //    the host links node i to node i + 1 for even i it holds exactly there.
    mapped(&s, chain.cast(), bytes, || {
        for i in (0..NODES - 1).step_by(2) {
            // SAFETY: mapped SVM memory.
            unsafe { (*node(i)).next = node(i + 1) };
        }
    });
    let flags = s.buffer(&[7i32; NODES - 1]);
    s.arg_mem(same, 0, whole);
    s.arg_mem(same, 1, flags);
    s.run(same, NODES - 1, None);
    let expected: Vec<i32> = (0..NODES - 1).map(|i| i32::from(i % 2 == 0)).collect();
    assert_eq!(s.read::<i32>(flags, NODES - 1), expected);

    // 5. `link` through the sub-buffer links nodes 8..15 only, with the host's addresses;
    //    nodes 0..7 keep what the host stored in step 4.
    s.arg_mem(link, 0, upper);
    arg(link, 1, &8i32);
    arg(link, 2, &500i64);
    s.run(link, 8, None);
    mapped(&s, chain.cast(), bytes, || {
        for i in 0..NODES {
            // SAFETY: mapped SVM memory.
            let Node { value, next } = unsafe { *node(i) };
            let (want_value, want_next) = match i {
                8..=14 => (500 + (i - 8) as i64, node(i + 1)),
                15 => (507, null_mut()),
                _ if i % 2 == 0 => (1000 * i as i64, node(i + 1)),
                _ => (1000 * i as i64, node(i - 1)),
            };
            assert_eq!(
                (value, next),
                (want_value, want_next),
                "node {i} after step 5"
            );
        }
    });

    // 6. A buffer at an offset inside an allocation of 64 ints (ints 16..31): the kernel's
    //    writes show through the SVM pointer, the host's through the buffer; after clSVMFree
    //    the buffer keeps the memory and still works.
    // SAFETY: a valid context.
    let ints = unsafe { clSVMAlloc(s.context, CL_MEM_READ_WRITE, 64 * 4, 0) } as *mut i32;
    assert!(!ints.is_null());
    mapped(&s, ints.cast(), 256, || {
        for i in 0..64 {
            // SAFETY: mapped SVM memory of 64 ints.
            unsafe { *ints.add(i) = i as i32 };
        }
    });
    let middle = buffer_on(&s, ints.wrapping_add(16).cast(), 16 * 4);
    s.arg_mem(add, 0, middle);
    arg(add, 1, &5i32);
    s.run(add, 16, None);
    let seen = mapped(&s, ints.cast(), 256, || {
        // SAFETY: mapped SVM memory.
        (0..64)
            .map(|i| unsafe { *ints.add(i) })
            .collect::<Vec<i32>>()
    });
    let expected: Vec<i32> = (0..64)
        .map(|i| if (16..32).contains(&i) { i + 5 } else { i })
        .collect();
    assert_eq!(seen, expected);
    // SAFETY: the allocation is live; the buffer still refers to it.
    unsafe { clSVMFree(s.context, ints.cast()) };
    arg(add, 1, &-20i32);
    s.run(add, 16, None);
    let expected: Vec<i32> = (16..32).map(|i| i + 5 - 20).collect();
    assert_eq!(s.read::<i32>(middle, 16), expected);

    // SAFETY: objects this test made.
    unsafe {
        clReleaseMemObject(middle);
        clReleaseMemObject(flags);
        clReleaseMemObject(upper);
        clReleaseMemObject(whole);
        clSVMFree(s.context, chain.cast());
        for k in [link, walk_k, same, add] {
            clReleaseKernel(k);
        }
        oxcl::program::clReleaseProgram(program);
    }
}

/// Messages the context's error callback received.
static REPORTED: Mutex<Vec<String>> = Mutex::new(Vec::new());

unsafe extern "C" fn on_error(
    text: *const i8,
    _info: *const c_void,
    _cb: usize,
    data: *mut c_void,
) {
    assert_eq!(data as usize, 0x5eed, "user_data passed through");
    // SAFETY: the implementation passes a NUL-terminated string.
    let text = unsafe { CStr::from_ptr(text) }
        .to_string_lossy()
        .into_owned();
    REPORTED
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .push(text);
}

/// The event status of one run of `kernel` over `global` work-items.
fn status_of_run(s: &Session, kernel: *mut c_void, global: usize) -> i32 {
    let mut event = null_mut();
    let mut status = 1;
    // SAFETY: valid handles and out-pointers.
    unsafe {
        check(
            clEnqueueNDRangeKernel(
                s.queue,
                kernel,
                1,
                null(),
                &global,
                null(),
                0,
                null(),
                &mut event,
            ),
            "clEnqueueNDRangeKernel",
        );
        // CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST when the command failed.
        let waited = clWaitForEvents(1, &event);
        check(
            clGetEventInfo(
                event,
                CL_EVENT_COMMAND_EXECUTION_STATUS,
                4,
                &mut status as *mut i32 as *mut c_void,
                null_mut(),
            ),
            "clGetEventInfo",
        );
        clReleaseEvent(event);
        let expected_wait = if status < 0 {
            CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST
        } else {
            CL_SUCCESS
        };
        assert_eq!(waited, expected_wait, "clWaitForEvents (status {status})");
    }
    status
}

#[test]
fn kernel_writes_into_read_only_svm_fail_and_are_reported() {
    let base = Session::new();
    let mut err = 0;
    // SAFETY: one valid device; the callback is thread-safe.
    let context = unsafe {
        clCreateContext(
            null(),
            1,
            &base.device,
            Some(on_error),
            0x5eed as *mut c_void,
            &mut err,
        )
    };
    check(err, "clCreateContext with a callback");
    // SAFETY: valid handles.
    let queue =
        unsafe { clCreateCommandQueueWithProperties(context, base.device, null(), &mut err) };
    check(err, "clCreateCommandQueueWithProperties");
    let s = Session {
        platform: base.platform,
        device: base.device,
        context,
        queue,
    };
    let program = s.build_source(SOURCE, "-cl-std=CL2.0");
    let (sum, add) = (s.kernel(program, "sum"), s.kernel(program, "add"));
    // SAFETY: a valid context.
    let ro = unsafe { clSVMAlloc(s.context, CL_MEM_READ_ONLY, 8 * 4, 0) } as *mut i32;
    assert!(!ro.is_null(), "clSVMAlloc(CL_MEM_READ_ONLY)");
    // The host may write it (the flag is about kernels): ro[k] = 3k.
    mapped(&s, ro.cast(), 32, || {
        for k in 0..8 {
            // SAFETY: mapped SVM memory of 8 ints.
            unsafe { *ro.add(k) = 3 * k as i32 };
        }
    });
    let ro_contents = || {
        mapped(&s, ro.cast(), 32, || {
            // SAFETY: mapped SVM memory.
            (0..8).map(|k| unsafe { *ro.add(k) }).collect::<Vec<i32>>()
        })
    };

    // Kernels read it: out[i] = 3i + 3(i + 4) = 6i + 12.
    let out = s.buffer(&[0i32; 4]);
    // SAFETY: a live SVM allocation.
    check(
        unsafe { clSetKernelArgSVMPointer(sum, 0, ro as *const c_void) },
        "clSetKernelArgSVMPointer",
    );
    s.arg_mem(sum, 1, out);
    assert_eq!(status_of_run(&s, sum, 4), CL_COMPLETE as i32);
    assert_eq!(s.read::<i32>(out, 4), vec![12, 18, 24, 30]);
    assert!(REPORTED
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .is_empty());

    // A kernel writing it through the SVM pointer: the command fails, the callback says why.
    // SAFETY: as above.
    check(
        unsafe { clSetKernelArgSVMPointer(add, 0, ro as *const c_void) },
        "clSetKernelArgSVMPointer",
    );
    arg(add, 1, &1i32);
    assert_eq!(status_of_run(&s, add, 8), CL_OUT_OF_RESOURCES);
    let expected: Vec<i32> = (0..8).map(|k| 3 * k).collect();
    assert_eq!(ro_contents(), expected, "read-only SVM memory changed");
    {
        let reported = REPORTED.lock().unwrap_or_else(|p| p.into_inner());
        assert_eq!(reported.len(), 1, "{reported:?}");
        assert!(
            reported[0].contains("add") && reported[0].contains("CL_MEM_READ_ONLY"),
            "{}",
            reported[0]
        );
    }

    // Through a buffer created on it: the same.
    let on_ro = buffer_on(&s, ro.wrapping_add(4).cast(), 16);
    s.arg_mem(add, 0, on_ro);
    assert_eq!(status_of_run(&s, add, 4), CL_OUT_OF_RESOURCES);
    assert_eq!(ro_contents(), expected, "read-only SVM memory changed");
    assert_eq!(REPORTED.lock().unwrap_or_else(|p| p.into_inner()).len(), 2);

    // SAFETY: objects this test made.
    unsafe {
        clReleaseMemObject(on_ro);
        clReleaseMemObject(out);
        clSVMFree(s.context, ro.cast());
        clReleaseKernel(sum);
        clReleaseKernel(add);
        oxcl::program::clReleaseProgram(program);
    }
}
