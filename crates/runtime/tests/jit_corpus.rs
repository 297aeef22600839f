//! The JIT against the interpreter on the end-to-end corpus: every kernel of
//! `tests/corpus/*.cl`, compiled by oxcl's compiler, with the inputs `corpus.rs` generates (the
//! shared harness in `corpus_common`), runs on `EngineKind::Interpreter` (the reference) and on
//! `EngineKind::JitStrict` (native code, no fallback), and every buffer must come out
//! bit-identical.

mod corpus_common;

use corpus_common::*;
use runtime::{EngineKind, Program};

/// Runs the case on `engine`; returns the final contents of every buffer argument.
fn run_on(
    case: &Case,
    engine: EngineKind,
    inputs: &[Vec<u8>],
) -> Result<Vec<Option<Vec<u8>>>, String> {
    let source = std::fs::read_to_string(&case.path).map_err(|e| e.to_string())?;
    let program = Program::from_source(&context(), &source, &case.path.display().to_string());
    run_oxcl(Some(engine), case, program, inputs)
}

const NOT_COMPILED: &[(&str, &str)] = &[];

fn check_case(name: &str) {
    let case = parse_case(name);
    let inputs = inputs(&case);
    let reference = run_on(&case, EngineKind::Interpreter, &inputs)
        .unwrap_or_else(|e| panic!("{name}: interpreter: {e}"));
    if let Some((_, what)) = NOT_COMPILED.iter().find(|(n, _)| *n == name) {
        // FIXME(issue 8): compile these too; until then the fallback must give the reference.
        let err = run_on(&case, EngineKind::JitStrict, &inputs).err();
        assert!(
            err.as_deref().is_some_and(|e| e.contains("not supported")),
            "{name}: expected the JIT to refuse it ({what}), got {err:?}"
        );
        let fallback = run_on(&case, EngineKind::Jit, &inputs)
            .unwrap_or_else(|e| panic!("{name}: jit with fallback: {e}"));
        assert_eq!(fallback, reference, "{name}: fallback differs");
        return;
    }
    let jit = run_on(&case, EngineKind::JitStrict, &inputs)
        .unwrap_or_else(|e| panic!("{name}: jit: {e}"));
    for (i, (r, j)) in reference.iter().zip(&jit).enumerate() {
        if let (Some(r), Some(j)) = (r, j) {
            if let Some(at) = r.iter().zip(j.iter()).position(|(a, b)| a != b) {
                panic!(
                    "{name}: argument {i} differs first at byte {at}: interpreter {:02x?}, jit {:02x?}",
                    &r[at..(at + 8).min(r.len())],
                    &j[at..(at + 8).min(j.len())]
                );
            }
            assert_eq!(r.len(), j.len(), "{name}: argument {i} length");
        }
    }
}

corpus! {
    as_type,
    bitops,
    char_short,
    constant_filter,
    conversions,
    double_math,
    helpers,
    histogram,
    int_arith,
    local_array,
    logic_ops,
    long_math,
    loops,
    mandelbrot,
    math_basic,
    math_trans,
    matmul_naive,
    matmul_tiled,
    nbody_step,
    nested_loops,
    offset_3d,
    prefix_scan,
    preprocessor,
    private_array,
    reduce_local,
    rsqrt_mix,
    saxpy,
    select_vec,
    stencil2d,
    strings_goto,
    struct_buffer,
    switch_case,
    swizzle,
    transpose,
    typedef_enum,
    vadd,
    vadd_int4,
    vector_convert,
    work_item,
}
