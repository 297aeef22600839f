//! `true` and `false` (OpenCL C 2.0 §6.1.1: "The value true expands to the integer constant 1
//! and the value false expands to the integer constant 0"), in expressions and in integer
//! constant expressions (pyopencl's reductions write `pcl_out_type acc = true;`). Expected
//! values by hand.

use runtime::{Buffer, Context, EngineKind, MemFlags, NdRange, Platform, Program, Queue};

const SOURCE: &str = r#"
kernel void k(global int *out) {
    bool b = true;
    int arr[true + 2];
    out[0] = true;
    out[1] = false;
    out[2] = b + true;
    out[3] = (int)sizeof(arr);
    out[4] = !false && b;
}
"#;

#[test]
fn true_and_false_are_the_integer_constants_1_and_0() {
    let ctx = Context::new(Platform::get().devices().remove(0));
    let program = Program::from_source(&ctx, SOURCE, "bool.cl");
    program
        .build("")
        .unwrap_or_else(|e| panic!("{e}: {}", program.build_log()));
    for engine in [EngineKind::Interpreter, EngineKind::Jit] {
        let k = program.kernel("k").expect("kernel");
        let out = Buffer::new(&ctx, MemFlags::default(), 5 * 4).unwrap();
        k.set_arg_buffer(0, Some(&out)).unwrap();
        Queue::new(&ctx)
            .with_engine(engine)
            .nd_range(&k, &NdRange::new(&[1], None, None))
            .expect("launch");
        let got: Vec<i32> = out
            .to_vec()
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        assert_eq!(got, [1, 0, 2, 12, 1], "{engine:?}");
    }
}
