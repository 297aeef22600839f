//! Shared virtual memory through the runtime API: `Svm` allocations, `Kernel::set_arg_svm`, a
//! kernel summing a list the host linked and doubling values in place through the same host
//! addresses, a freed allocation's address becoming a system pointer, and the error of a
//! non-pointer argument. Expected
//! values are computed in the test.

use std::sync::Arc;

use runtime::{Context, Device, EngineKind, NdRange, Program, Queue, Svm, SvmFlags};

const SOURCE: &str =
    "typedef struct node { int value; int pad; global struct node *next; } node;\n\
    __kernel void walk(global node *head, global int *out) {\n\
        int s = 0;\n\
        for (global node *n = head; n; n = n->next) { s += n->value; n->value *= 2; }\n\
        out[0] = s;\n\
    }\n";

#[test]
fn kernels_follow_host_pointers_in_svm() {
    let ctx = Context::new(Arc::new(Device::host_cpu()));
    let program = Program::from_source(&ctx, SOURCE, "svm.cl");
    program.build("").unwrap();
    let kernel = program.kernel("walk").unwrap();
    let fine = SvmFlags {
        fine_grain: true,
        ..SvmFlags::default()
    };
    for engine in [EngineKind::Interpreter, EngineKind::Jit] {
        let nodes = Svm::new(&ctx, fine, 5 * 16, 0).unwrap();
        let out = Svm::new(&ctx, fine, 4, 0).unwrap();
        let base = nodes.as_ptr();
        // Node i at 16 * i: value, pad, next; linked 4 -> 2 -> 0.
        for (i, next) in [(4usize, Some(2usize)), (2, Some(0)), (0, None)] {
            // SAFETY: inside the 80-byte allocation, 8-byte aligned.
            unsafe {
                *(base.add(16 * i) as *mut i32) = 10 + i as i32;
                *(base.add(16 * i + 8) as *mut u64) =
                    next.map_or(0, |j| base as u64 + 16 * j as u64);
            }
        }
        // SAFETY: in bounds.
        kernel.set_arg_svm(0, unsafe { base.add(16 * 4) }).unwrap();
        kernel.set_arg_svm(1, out.as_ptr()).unwrap();
        let queue = Queue::new(&ctx).with_engine(engine);
        queue
            .nd_range(&kernel, &NdRange::new(&[1], None, None))
            .unwrap();
        // SAFETY: the run is over; the allocations are alive.
        let (sum, doubled) = unsafe {
            (
                *(out.as_ptr() as *const i32),
                [0, 2, 4].map(|i| *(base.add(16 * i) as *const i32)),
            )
        };
        assert_eq!((sum, doubled), (10 + 12 + 14, [20, 24, 28]), "{engine:?}");
        // A freed allocation is no SVM allocation any more: its address is a system pointer
        // (fine-grained system SVM), reachable while the memory stays mapped (here `out`
        // still owns it).
        assert!(ctx.svm_free(out.as_ptr()));
        assert!(ctx.svm_find(out.as_ptr()).is_none());
        queue
            .nd_range(&kernel, &NdRange::new(&[1], None, None))
            .unwrap();
        // SAFETY: `out` keeps the memory alive.
        let again = unsafe { *(out.as_ptr() as *const i32) };
        assert_eq!(again, 20 + 24 + 28, "{engine:?}");
        assert!(ctx.svm_free(nodes.as_ptr()));
    }
    // Only global and constant pointers take an SVM pointer (CL_INVALID_ARG_VALUE).
    let other = Program::from_source(&ctx, "__kernel void k(int x) {}", "k.cl");
    other.build("").unwrap();
    let k = other.kernel("k").unwrap();
    let svm = Svm::new(&ctx, SvmFlags::default(), 4, 0).unwrap();
    assert_eq!(k.set_arg_svm(0, svm.as_ptr()).unwrap_err().code(), -50);
}
