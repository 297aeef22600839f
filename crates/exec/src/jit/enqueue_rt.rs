//! The JIT's device-side enqueue helper: kir `enqueue` instructions call [`jit_enqueue`],
//! which runs the operation the interpreter's way (`crate::enqueue::EnqueueSite::execute` on
//! the work-item's `Memory` and the launch's device queue), so both engines agree by
//! construction.

use kir::{EnqueueOp, FuncRef};

use super::rt::{ItemCtx, Shared};
use crate::enqueue::EnqueueSite;

/// Enqueue operation `op` (index in `EnqueueOp::ALL`) with invoke function `invoke`
/// (`u32::MAX`: none) on the `nargs` operand values at `args` (each zero-extended to u64).
/// Writes the result to `res`; returns 0, or nonzero after recording the error in the context.
pub extern "C" fn jit_enqueue(
    ctx: *mut ItemCtx,
    site: u32,
    op: u32,
    invoke: u32,
    args: *const u64,
    nargs: u32,
    res: *mut u64,
) -> i32 {
    // SAFETY: JIT code passes its own context.
    let ctx = unsafe { &mut *ctx };
    let Some(&op) = EnqueueOp::ALL.get(op as usize) else {
        return ctx.set_unsupported(site, "bad enqueue operation".into());
    };
    let invoke = (invoke != u32::MAX).then(|| FuncRef::new(invoke as usize));
    // SAFETY: JIT code passes a stack slot holding `nargs` values.
    let values = unsafe { std::slice::from_raw_parts(args, nargs as usize) }.to_vec();
    // SAFETY: set by the launch before any JIT code runs and outlives it.
    let sh: &Shared<'static> = unsafe { &*ctx.shared };
    let r = {
        let mut mem = ctx.memory();
        let mut site = EnqueueSite {
            queue: sh.queue,
            mem: &mut mem,
            shared: sh.shared,
            address_bits: sh.address_bits,
        };
        site.execute(op, invoke, &values)
    };
    match r {
        Ok(v) => {
            // SAFETY: JIT code passes a slot for the result.
            unsafe { *res = v };
            0
        }
        Err(f) => ctx.set_fault(site, "enqueue", f),
    }
}
