//! Data-driven tests of the text format and the verifier: each `check` parses a module, verifies
//! it and compares the outcome with the expectation written beside it.

use kir::{parse_module, verify_module, Function, FunctionBuilder, Signature, Type};

/// Parses `input`; expects it to print back unchanged and to verify (`expect == "ok"`), or to
/// fail verification with errors containing each line of `expect`.
fn check(input: &str, expect: &str) {
    let module = match parse_module(input) {
        Ok(m) => m,
        Err(e) => panic!("parse error: {e}\n{input}"),
    };
    assert_eq!(
        module.to_string().trim(),
        input.trim(),
        "printing the parsed module changed it"
    );
    match (verify_module(&module), expect.trim()) {
        (Ok(()), "ok") => {}
        (Ok(()), want) => panic!("verified, but expected errors:\n{want}"),
        (Err(errors), "ok") => panic!("unexpected verifier errors:\n{errors}"),
        (Err(errors), want) => {
            let text = errors.to_string();
            for line in want.lines() {
                assert!(
                    text.contains(line.trim()),
                    "missing `{}` in:\n{text}",
                    line.trim()
                );
            }
        }
    }
}

const VADD: &str = r#"
module address_bits 64
function fn0 "vadd"(ptr_global, ptr_global, ptr_global) {
block0(v0: ptr_global, v1: ptr_global, v2: ptr_global):
    v3 = workitem.i64 global_id 0
    v4 = const.i64 4
    v5 = imul.i64 v3, v4
    v6 = ptradd.ptr_global v0, v5
    v7 = load.f32 v6 align 4
    v8 = ptradd.ptr_global v1, v5
    v9 = load.f32 v8 align 4
    v10 = fadd.f32 v7, v9
    v11 = ptradd.ptr_global v2, v5
    store v11, v10 align 4
    return
}
kernel "vadd" fn0("a" buffer_global "float*", "b" buffer_global "float*", "c" buffer_global "float*")
"#;

#[test]
fn vector_add_round_trips_and_verifies() {
    check(VADD, "ok");
}

#[test]
fn loops_with_block_parameters_verify() {
    check(
        r#"
module address_bits 64
global g0 "tile" local size 64 align 4
global g1 "table" constant size 8 align 4 init #0100000002000000
function fn0 "sum"(i32) -> i32 {
block0(v0: i32):
    v1 = const.i32 0
    jump block1(v1, v1)
block1(v2: i32, v3: i32):
    v4 = cmp.bool slt v2, v0
    brif v4, block2, block3(v3)
block2:
    v5 = iadd.i32 v3, v2
    v6 = const.i32 1
    v7 = iadd.i32 v2, v6
    barrier workgroup, workgroup, 0x110
    jump block1(v7, v5)
block3(v8: i32):
    switch v8, block4, [0: block4, 7: block5(v8)]
block4:
    return v8
block5(v9: i32):
    v10 = const.f32x4 [1.0, -0.5, 0x7fc00000, 3.25]
    v11 = extractlane.f32 v10, 2
    v12 = const.f32x4 [0.0, 0.0, 0.0, 0.0]
    v13 = shuffle.f32x2 v10, v12, [0, undef]
    v14 = globaladdr.ptr_local g0
    v15 = atomic.i32 iadd workgroup 0x0 v14, v9
    v16 = atomic.i32 cmpxchg device 0x8 0x2 v14, v15, v9
    atomic i32 store device 0x0 v14, v16
    v17 = builtin.f32 sqrt(v11)
    v18 = ftos.i32 rte sat v17
    return v18
}
"#,
        "ok",
    );
}

#[test]
fn verifier_reports_type_mismatches() {
    check(
        r#"
module address_bits 64
function fn0 "bad"(i32, i64) -> i32 {
block0(v0: i32, v1: i64):
    v2 = iadd.i32 v0, v1
    v3 = fadd.i32 v0, v0
    return v1
}
"#,
        "type mismatch: i32 vs i64\nfadd does not apply to i32\nreturns Some(I64), the signature says Some(I32)",
    );
}

#[test]
fn verifier_reports_use_not_dominated() {
    check(
        r#"
module address_bits 64
function fn0 "bad"(bool) -> i32 {
block0(v0: bool):
    brif v0, block1, block2
block1:
    v1 = const.i32 1
    jump block3
block2:
    jump block3
block3:
    return v1
}
"#,
        "inst4 (return v1)\nv1 is used where its definition does not dominate",
    );
}

#[test]
fn verifier_reports_block_structure_errors() {
    check(
        r#"
module address_bits 64
function fn0 "bad"(i32) {
block0(v0: i32):
    jump block1(v0, v0)
block1(v1: i32):
    return
    return
block2:
    v2 = const.i32 1
}
"#,
        "block1 takes 1 arguments, 2 given\nterminator in the middle of block1\nblock2 does not end in a terminator",
    );
}

#[test]
fn verifier_checks_calls_and_kernels() {
    check(
        r#"
module address_bits 64
function fn0 "callee"(i32) -> i32 {
block0(v0: i32):
    return v0
}
function fn1 "caller"(i64) {
block0(v0: i64):
    v1 = call.i32 fn0(v0)
    v2 = call.i32 fn7(v0)
    return
}
kernel "k" fn1("n" value i32 size 4 align 4 "int")
"#,
        "argument 0 is i64, fn0 wants i32\nfn7 does not exist\nargument 0 is Value",
    );
}

#[test]
fn parse_errors_carry_the_line() {
    let err = kir::parse_module(
        "module address_bits 64\nfunction fn0 \"f\"() {\nblock0:\n    v0 = frobnicate.i32 v1\n}\n",
    )
    .unwrap_err();
    assert_eq!(err.line, 4);
    assert!(err.message.contains("frobnicate"), "{err}");
}

#[test]
fn builder_output_matches_hand_written_text() {
    let mut func = Function::new(
        "mad",
        Signature {
            params: vec![Type::I32, Type::I32],
            ret: Some(Type::I32),
        },
    );
    let mut b = FunctionBuilder::new(&mut func);
    let entry = b.create_entry_block();
    b.switch_to_block(entry);
    let (x, y) = (b.block_params(entry)[0], b.block_params(entry)[1]);
    let product = b.imul(x, y);
    let one = b.iconst(Type::I32, -1);
    let sum = b.iadd(product, one);
    b.ret(Some(sum));
    let expected = "function \"mad\"(i32, i32) -> i32 {\nblock0(v0: i32, v1: i32):\n    v2 = imul.i32 v0, v1\n    v3 = const.i32 -1\n    v4 = iadd.i32 v2, v3\n    return v4\n}\n";
    assert_eq!(func.to_string(), expected);
    kir::verify_function(&func, None).unwrap();
    assert_eq!(kir::parse_function(expected).unwrap(), func);
}

#[test]
fn values_defined_twice_are_parse_errors_with_their_line() {
    let text = "module address_bits 64\nfunction fn0 \"f\"() {\nblock0:\n    v0 = const.i32 1\n    v0 = const.i32 2\n    return\n}\n";
    let err = kir::parse_module(text).unwrap_err();
    assert_eq!((err.line, err.message.as_str()), (5, "v0 defined twice"));
}

#[test]
fn local_memory_of_a_kernel_counts_variables_of_called_functions() {
    let module = parse_module(
        r#"
module address_bits 64
global g0 "a" local size 64 align 4
global g1 "b" local size 16 align 4
global g2 "c" local size 1000 align 4
function fn0 "helper"() {
block0:
    v0 = globaladdr.ptr_local g1
    return
}
function fn1 "k"() {
block0:
    v0 = globaladdr.ptr_local g0
    call fn0()
    return
}
kernel "k" fn1()
"#,
    )
    .unwrap();
    verify_module(&module).unwrap();
    // g0 directly, g1 through fn0; g2 is unused: 64 + 16.
    assert_eq!(module.kernel_local_mem_size(0), 80);
    assert_eq!(
        module.reachable_functions(kir::FuncRef(1)),
        vec![kir::FuncRef(1), kir::FuncRef(0)]
    );
}

#[test]
fn verifier_checks_builtin_arity() {
    check(
        r#"
module address_bits 64
function fn0 "f"(f32) -> f32 {
block0(v0: f32):
    v1 = builtin.f32 sqrt(v0, v0)
    v2 = builtin.f32 fma(v0, v1)
    return v2
}
"#,
        "builtin sqrt takes 1 arguments, 2 given\nbuiltin fma takes 3 arguments, 2 given",
    );
}

/// Parsing and verifying never panic: every single-character deletion, and substitutions
/// with characters of the syntax, of a module that uses most of the syntax.
#[test]
fn mutated_text_never_panics() {
    let base = r#"
module address_bits 64
global g0 "t" local size 8 align 4
function fn0 "f"(i32, ptr_local) -> i32 {
block0(v0: i32, v1: ptr_local):
    v2 = const.f32x4 [1.0, -0.5, 0x7fc00000, 3.25]
    v3 = extractlane.f32 v2, 2
    v4 = cmp.bool slt v0, v0
    brif v4, block1(v0), block2
block1(v5: i32):
    v6 = atomic.i32 cmpxchg device 0x8 0x2 v1, v5, v0
    switch v6, block2, [0: block2, 7: block2]
block2:
    v7 = builtin.f32 sqrt(v3)
    v8 = ftos.i32 rte sat v7
    store v1, v8 align 4
    return v8
}
kernel "k" fn0("n" value i32 size 4 align 4 "int", "l" local "int*")
"#;
    let chars: Vec<char> = base.chars().collect();
    let substitutes = [
        'v', '1', '.', ',', '(', ')', '[', ']', ':', '=', '"', '#', '-', 'x', ' ', '\n',
    ];
    let mut tried = 0;
    for i in 0..chars.len() {
        let mut variants = vec![chars[..i].iter().chain(&chars[i + 1..]).collect::<String>()];
        for &c in &substitutes {
            let mut v = chars.clone();
            v[i] = c;
            variants.push(v.into_iter().collect());
        }
        for text in variants {
            if let Ok(module) = parse_module(&text) {
                let _ = verify_module(&module);
                let _ = module.to_string();
            }
            tried += 1;
        }
    }
    assert!(tried > 5000);
}

const IMAGES: &str = r#"
module address_bits 64
function fn0 "k"(i64, i32, i64, ptr_global) {
block0(v0: i64, v1: i32, v2: i64, v3: ptr_global):
    v4 = const.f32x2 [0.5, 0.5]
    v5 = const.f32 0.0
    v6 = image.f32x4 sample(v0, v1, v4, v5)
    v7 = const.i32x2 [1, 2]
    image write(v2, v7, v6)
    v8 = image.i32x4 read(v0, v7)
    v9 = image.i32x2 size(v0)
    v10 = image.i32 order(v2)
    store v3, v9 align 8
    return
}
kernel "k" fn0("src" image2d_read_only "image2d_t", "s" sampler "sampler_t", "dst" image2d_array_depth_write_only "image2d_array_depth_t", "out" buffer_global "int2*")
"#;

#[test]
fn image_instructions_and_arguments_round_trip_and_verify() {
    check(IMAGES, "ok");
}

#[test]
fn image_instructions_are_type_checked() {
    // A sampler must be i32; a read gives a 4-vector or f32; writes have no result.
    let bad = IMAGES
        .replace("sample(v0, v1, v4, v5)", "sample(v0, v0, v4, v5)")
        .replace("image.i32x4 read(v0, v7)", "image.i32x2 read(v0, v7)")
        .replace("image.i32 order(v2)", "image.f32 order(v2)");
    check(
        &bad,
        "sampler of type i64
image texel of type i32x2
image query of type f32",
    );
}
