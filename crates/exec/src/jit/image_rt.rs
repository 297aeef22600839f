//! The JIT's helper for image instructions: JIT code spills the operands' lanes and calls
//! [`jit_image`], which runs the interpreter's `interp::image::call` on the launch's shared
//! regions, so images give the same bits on both engines.

use crate::interp::builtins::BuiltinError;
use crate::interp::image;
use crate::interp::value::Val;

use super::rt::{ItemCtx, SiteKind};

/// An image instruction, the interpreter's way. `args` holds each operand's lanes (u64 each, in
/// order), `res` receives the result's lanes.
pub extern "C" fn jit_image(ctx: *mut ItemCtx, site: u32, args: *const u64, res: *mut u64) -> i32 {
    // SAFETY: JIT code passes its own context.
    let ctx = unsafe { &mut *ctx };
    let SiteKind::Image {
        op,
        result,
        args: tys,
    } = ctx.site(site).kind.clone()
    else {
        return ctx.set_unsupported(site, "bad image site".into());
    };
    let mut vals = Vec::with_capacity(tys.len());
    let mut k = 0usize;
    for ty in &tys {
        let n = ty.lanes() as usize;
        // SAFETY: JIT code passes one u64 per lane of every operand.
        let lanes: Vec<u64> = (0..n).map(|i| unsafe { *args.add(k + i) }).collect();
        k += n;
        vals.push((*ty, Val::from_lanes(*ty, lanes)));
    }
    let r = {
        let sh = ctx.sh();
        image::call(op, result, &vals, sh.layout, sh.shared)
    };
    match r {
        Ok(v) => {
            if let (Some(v), Some(rty)) = (v, result) {
                for i in 0..rty.lanes() as usize {
                    // SAFETY: JIT code reserves one u64 per result lane.
                    unsafe { *res.add(i) = v.lane(i) };
                }
            }
            0
        }
        Err(BuiltinError::Unsupported(what)) => ctx.set_unsupported(site, what),
        Err(BuiltinError::Fault(_)) => ctx.set_unsupported(site, "image access fault".into()),
    }
}
