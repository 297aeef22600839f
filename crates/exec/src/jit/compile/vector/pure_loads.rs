//! Proven loads as pure values: in a kernel whose only effect is one store, the unchecked
//! loop's loads proven in bounds for the row (`row_proof`) carry Cranelift's `readonly` and
//! `can_move` flags (a pure value), so Cranelift places each where its value is first needed instead of where the kernel reads
//! it. A convolution's 25 taps then load, multiply and add one after the other, instead of
//! loading all 25 vectors first and keeping them on the stack until the sums.
//!
//! Why it is exact: with one store and no other effect (no calls, atomics, `memcpy`), nothing
//! in an iteration writes memory before that store, and what the iteration computes after it
//! is not observable; a load only moves to where its value is used, which the store, when it
//! uses it, follows. A proven access's address changes with the iteration, so no load is taken
//! out of the row loop, and an iteration's loads never see an earlier iteration's memory
//! differently from the loop's order. Proven loads cannot fault (`notrap`).

use cranelift_codegen::ir::MemFlagsData;
use kir::{Function, InstData};

/// The flags of a proven access in the unchecked loop of `func` (see the module doc).
pub(super) fn proven_flags(func: &Function, load: bool) -> MemFlagsData {
    let flags = MemFlagsData::new().with_notrap();
    if load && single_store(func) {
        flags.with_readonly().with_can_move()
    } else {
        flags
    }
}

/// Whether the only instruction of `func` with an effect is one store.
fn single_store(func: &Function) -> bool {
    if std::env::var("OXCL_PURE_LOADS").is_ok_and(|v| v == "0") {
        return false;
    }
    let mut stores = 0;
    for &b in &func.layout.blocks {
        for &i in func.layout.insts(b) {
            let data = func.dfg.inst(i);
            if super::has_effect(func, data) {
                if !matches!(data, InstData::Store { .. }) {
                    return false;
                }
                stores += 1;
            }
        }
    }
    stores == 1
}
