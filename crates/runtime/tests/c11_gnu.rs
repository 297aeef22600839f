//! C11 and GNU constructs clang accepts in OpenCL C, run on both engines: `_Static_assert`,
//! `a ?: b` (evaluating `a` once; on vectors by the sign bits), statement expressions, case ranges (short ones listed in
//! the switch, long ones tested before the default), `overloadable` user functions and
//! `ext_vector_type` typedefs. Expected values by hand from C semantics.

use runtime::{Buffer, Context, EngineKind, MemFlags, NdRange, Platform, Program, Queue};

const SOURCE: &str = r#"
_Static_assert(sizeof(long) == 8, "long is 8 bytes");
typedef float my4 __attribute__((ext_vector_type(4)));
typedef int myint2 __attribute__((ext_vector_type(2)));
#define OV __attribute__((overloadable))
OV int pick(int x) { return 100 + x; }
OV int pick(float x) { return 200 + (int)x; }
OV int pick(global int *p) { return 300 + p[1]; }
OV int pick(myint2 v) { return 400 + v.x + v.y; }
OV int twice(int x, int (^op)(int)) { return op(op(x)); }
OV int twice(float x) { return (int)(x * 2.0f); }

int classify(int v) {
    switch (v) {
    case -5 ... -1: return 1;
    case 0: return 2;
    case 1 ... 3: return 3;
    case 10 ... 100000: return 4;
    default: return 5;
    }
}

kernel void k(global int *io, global float *f) {
    _Static_assert(sizeof(my4) == 16, "my4 is a float4");
    int zero = io[0];
    int seven = io[1];
    int count = 0;
    io[2] = zero ?: seven;
    io[3] = seven ?: 99;
    io[4] = (count++, seven) ?: 5;
    io[5] = count;
    io[6] = ({ int t = seven * 3; t + 1; });
    io[7] = classify(-3) * 10000 + classify(0) * 1000 + classify(2) * 100
          + classify(50000) * 10 + classify(7);
    io[8] = classify(100000) * 10 + classify(100001);
    io[9] = pick(seven) + pick(2.5f) * 1000;
    io[10] = pick(io) + pick((myint2)(3, 4)) * 1000;
    my4 v = (my4)(1.0f, 2.0f, 3.0f, 4.0f);
    float4 w = v * 2.0f;
    f[0] = dot(v, w);
    f[1] = v.w + w.x;
    f[2] = (float)vec_step(my4);
    // Vector shorthand: components of va whose sign bit is set, else vb's (§6.3.i).
    int4 va = (int4)(-1, 0, 5, -7);
    int4 vb = (int4)(10, 20, 30, 40);
    vstore4(va ?: vb, 0, io + 11);
    // 64-bit selectors: a long range tested before the default, one listed.
    long big = (long)seven * 1000000000L;
    ulong ub = 500;
    io[15] = ({ int r; switch (big) { case 1 ... 1000: r = 1; break;
                                      case 6000000000L ... 8000000000L: r = 2; break;
                                      default: r = 3; } r; });
    io[16] = ({ int r; switch (ub) { case 1 ... 1000: r = 4; break; default: r = 5; } r; });
    io[17] = twice(3, ^(int v) { return v + 10; }) + twice(1.5f) * 100;
}
"#;

#[test]
fn c11_and_gnu_constructs_run() {
    let ctx = Context::new(Platform::get().devices().remove(0));
    let program = Program::from_source(&ctx, SOURCE, "c11_gnu.cl");
    program
        .build("-cl-std=CL2.0")
        .unwrap_or_else(|e| panic!("{e}: {}", program.build_log()));
    for engine in [EngineKind::Interpreter, EngineKind::Jit] {
        let k = program.kernel("k").expect("kernel");
        let io = Buffer::new(&ctx, MemFlags::default(), 18 * 4).unwrap();
        let mut init = vec![0u8; 18 * 4];
        init[4..8].copy_from_slice(&7i32.to_le_bytes());
        io.write(0, &init).expect("write");
        let f = Buffer::new(&ctx, MemFlags::default(), 3 * 4).unwrap();
        k.set_arg_buffer(0, Some(&io)).unwrap();
        k.set_arg_buffer(1, Some(&f)).unwrap();
        Queue::new(&ctx)
            .with_engine(engine)
            .nd_range(&k, &NdRange::new(&[1], None, None))
            .expect("launch");
        let got: Vec<i32> = io
            .to_vec()
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        // io[9]: pick(7) = 107, pick(2.5f) = 202; io[10]: pick(io) = 300 + io[1] = 307,
        // pick((3, 4)) = 407; io[11..15]: (-1, 0, 5, -7) ?: (10, 20, 30, 40).
        assert_eq!(
            got,
            [
                0,
                7,
                7,
                7,
                7,
                1,
                22,
                12345,
                45,
                107 + 202 * 1000,
                307 + 407 * 1000,
                -1,
                20,
                30,
                -7,
                2,
                4,
                23 + 300
            ],
            "{engine:?}"
        );
        let got: Vec<f32> = f
            .to_vec()
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        // dot((1,2,3,4), (2,4,6,8)) = 2 + 8 + 18 + 32 = 60; 4 + 2 = 6.
        assert_eq!(got, [60.0, 6.0, 4.0], "{engine:?}");
    }
}
