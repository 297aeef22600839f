//! Anonymous struct and union members (C11 6.7.2.1p13, used by OpenCL C through C99 + the
//! common extension): they keep their own layout — the members of an anonymous struct inside a
//! union follow each other and overlap the other anonymous struct — and are reached by name.
//! pyopencl's `cfloat_t` is exactly this union. Expected values by hand from the C layout rules.

use runtime::{Buffer, Context, EngineKind, MemFlags, NdRange, Platform, Program, Queue};

const SOURCE: &str = r#"
typedef union { struct { float x, y; }; struct { float real, imag; }; } cfloat_t;
typedef struct { int tag; union { int i; float f; }; int after; } tagged;

cfloat_t make(float r, float i) { cfloat_t z; z.real = r; z.imag = i; return z; }

kernel void k(global float *out, cfloat_t a, tagged t) {
    out[0] = a.real;
    out[1] = a.imag;
    out[2] = a.x;
    out[3] = a.y;
    out[4] = (float)sizeof(cfloat_t);
    out[5] = (float)sizeof(tagged);
    out[6] = (float)t.i;
    out[7] = (float)t.after;
    out[8] = make(5.0f, 6.0f).imag;
    cfloat_t b = { 7.0f, 8.0f };
    out[9] = b.imag;
}
"#;

#[test]
fn anonymous_members_keep_their_layout() {
    let ctx = Context::new(Platform::get().devices().remove(0));
    let program = Program::from_source(&ctx, SOURCE, "anon.cl");
    program
        .build("")
        .unwrap_or_else(|e| panic!("{e}: {}", program.build_log()));
    for engine in [EngineKind::Interpreter, EngineKind::Jit] {
        let k = program.kernel("k").expect("kernel");
        let out = Buffer::new(&ctx, MemFlags::default(), 10 * 4).unwrap();
        k.set_arg_buffer(0, Some(&out)).unwrap();
        // cfloat_t: 8 bytes (two floats).
        let a: Vec<u8> = [1.5f32, -2.0]
            .iter()
            .flat_map(|f| f.to_le_bytes())
            .collect();
        k.set_arg_bytes(1, &a).expect("cfloat_t is 8 bytes");
        // tagged: int tag @0, union {int, float} @4, int after @8: 12 bytes.
        let t: Vec<u8> = [3i32, 42, 9].iter().flat_map(|v| v.to_le_bytes()).collect();
        k.set_arg_bytes(2, &t).expect("tagged is 12 bytes");
        Queue::new(&ctx)
            .with_engine(engine)
            .nd_range(&k, &NdRange::new(&[1], None, None))
            .expect("launch");
        let got: Vec<f32> = out
            .to_vec()
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        assert_eq!(
            got,
            [1.5, -2.0, 1.5, -2.0, 8.0, 12.0, 42.0, 9.0, 6.0, 8.0],
            "{engine:?}"
        );
    }
}
