//! The JIT's pipe helper: kir `pipe` instructions call [`jit_pipe`], which runs the operation
//! the interpreter's way (`crate::pipe::execute` on the work-item's `Memory`), so both engines
//! agree by construction.

use kir::PipeOp;

use super::rt::ItemCtx;

/// Pipe operation `op` (index in `PipeOp::ALL`) on the `nargs` operand values at `args` (each
/// zero-extended to u64); reserve ids are `rid_bits` wide. Writes the result to `res`; returns
/// 0, or nonzero after recording the error in the context.
pub extern "C" fn jit_pipe(
    ctx: *mut ItemCtx,
    site: u32,
    op: u32,
    rid_bits: u32,
    args: *const u64,
    nargs: u32,
    res: *mut u64,
) -> i32 {
    // SAFETY: JIT code passes its own context.
    let ctx = unsafe { &mut *ctx };
    let Some(&op) = PipeOp::ALL.get(op as usize) else {
        return ctx.set_unsupported(site, "bad pipe operation".into());
    };
    // SAFETY: JIT code passes a stack slot holding `nargs` values.
    let values = unsafe { std::slice::from_raw_parts(args, nargs as usize) }.to_vec();
    let r = {
        let mut mem = ctx.memory();
        crate::pipe::execute(&mut mem, op, &values, rid_bits)
    };
    match r {
        Ok(v) => {
            // SAFETY: JIT code passes a slot for the result.
            unsafe { *res = v };
            0
        }
        Err(f) => ctx.set_fault(site, "pipe", f),
    }
}
