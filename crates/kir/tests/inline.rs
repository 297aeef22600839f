//! `kir::inline`: which calls are inlined (pure, small callees), that the result verifies and
//! computes the same thing, and the if-conversion of the diamonds the callees bring.

use kir::{parse_module, verify_module, InstData, Module};

const MODULE: &str = r#"
module address_bits 64
function fn0 "sel"(f32) -> f32 {
block0(v0: f32):
    v1 = const.f32 0.0
    v2 = cmp.bool fogt v0, v1
    brif v2, block1, block2
block1:
    v3 = fneg.f32 v0
    jump block3(v3)
block2:
    jump block3(v0)
block3(v4: f32):
    return v4
}
function fn1 "load"(ptr_global) -> f32 {
block0(v0: ptr_global):
    v1 = load.f32 v0 align 4
    return v1
}
function fn2 "twice"(f32) -> f32 {
block0(v0: f32):
    v1 = call.f32 fn0(v0)
    v2 = fadd.f32 v1, v1
    return v2
}
function fn3 "caller"(f32, ptr_global) -> f32 {
block0(v0: f32, v1: ptr_global):
    v2 = call.f32 fn2(v0)
    v3 = call.f32 fn1(v1)
    v4 = fmul.f32 v2, v3
    return v4
}
"#;

fn calls(m: &Module, f: usize) -> Vec<usize> {
    let func = &m.functions[f];
    let mut out = Vec::new();
    for &b in &func.layout.blocks {
        for &i in func.layout.insts(b) {
            if let InstData::Call { func, .. } = func.dfg.inst(i) {
                out.push(func.index());
            }
        }
    }
    out
}

#[test]
fn pure_callees_are_inlined_and_loads_stay_calls() {
    let m = parse_module(MODULE).expect("parses");
    verify_module(&m).expect("verifies");
    let out = kir::inline::inline_pure_calls(&m).expect("something inlined");
    verify_module(&out).unwrap_or_else(|e| panic!("{e}\n{out}"));
    // `twice` had `sel` inlined; `caller` keeps only the call of `load` (a memory access,
    // whose errors must keep naming fn1).
    assert_eq!(calls(&out, 2), Vec::<usize>::new());
    assert_eq!(calls(&out, 3), vec![1]);
    // The diamond of `sel` became a select: no conditional branch is left in `caller`.
    let func = &out.functions[3];
    let mut selects = 0;
    for &b in &func.layout.blocks {
        for &i in func.layout.insts(b) {
            match func.dfg.inst(i) {
                InstData::Brif { .. } => panic!("branch left:\n{func}"),
                InstData::Select { .. } => selects += 1,
                _ => {}
            }
        }
    }
    assert_eq!(selects, 1, "{func}");
    // The callee `sel` itself is unchanged (no call in it).
    assert_eq!(out.functions[0], m.functions[0]);
}

#[test]
fn nothing_to_inline_gives_none() {
    let text = r#"
module address_bits 64
function fn0 "load"(ptr_global) -> f32 {
block0(v0: ptr_global):
    v1 = load.f32 v0 align 4
    return v1
}
function fn1 "caller"(ptr_global) -> f32 {
block0(v0: ptr_global):
    v1 = call.f32 fn0(v0)
    return v1
}
function fn2 "self"(f32) -> f32 {
block0(v0: f32):
    v1 = call.f32 fn2(v0)
    return v1
}
"#;
    let m = parse_module(text).expect("parses");
    assert!(kir::inline::inline_pure_calls(&m).is_none());
}
