//! Designated initializers naming members of anonymous struct/union members (C11 6.7.9p7
//! with 6.7.2.1p13: "the members of an anonymous structure or union are considered to be
//! members of the containing structure or union"), in private and `constant` objects, run on
//! both engines. pyopencl's complex types are this shape (`union { struct { float real,
//! imag; }; float2 v; }`). Expected values by hand (clang-15 accepts the same source).

use runtime::{Buffer, Context, EngineKind, MemFlags, NdRange, Platform, Program, Queue};

const SOURCE: &str = r#"
typedef union { struct { float real, imag; }; float2 v; } cf_t;
typedef struct { int a; struct { int x, y; }; union { int i; float f; }; int b; } S;
typedef struct { int a; struct { int x, y, z; }; int b; struct { int m, n; } s; int c; } T;
constant cf_t cz = { .imag = 2.0f };
constant S cs = { .y = 3, .f = 1.5f, .b = 9 };
kernel void k(global float *o, global int *p) {
  cf_t c = { .real = 1.0f, .imag = 2.0f };
  cf_t d = { .imag = 5.0f };
  S s = { .a = 1, .x = 2, .y = 3, .i = 4, .b = 5 };
  S t = { .y = 7, .b = 8 };
  S u = { 1, { 2, 3 }, { 4 }, 5 };
  o[0] = c.real; o[1] = c.imag; o[2] = d.real; o[3] = d.imag; o[4] = cz.real; o[5] = cz.imag;
  o[6] = cs.f;
  p[0] = s.a; p[1] = s.x; p[2] = s.y; p[3] = s.i; p[4] = s.b;
  p[5] = t.a; p[6] = t.x; p[7] = t.y; p[8] = t.i; p[9] = t.b;
  p[10] = cs.y; p[11] = cs.b; p[12] = cs.x;
  p[13] = u.a + 10 * u.x + 100 * u.y + 1000 * u.i + 10000 * u.b;
  /* C11 6.7.9p17: positional values after a designator go on in the designated member's
     struct, then in the enclosing one */
  T v = { .x = 1, 2, 3, 4, .s.m = 5, 6, 7 };
  p[14] = v.a; p[15] = v.x; p[16] = v.y; p[17] = v.z; p[18] = v.b;
  p[19] = v.s.m; p[20] = v.s.n; p[21] = v.c;
}
"#;

fn words(b: &Buffer) -> Vec<[u8; 4]> {
    b.to_vec()
        .chunks_exact(4)
        .map(|c| [c[0], c[1], c[2], c[3]])
        .collect()
}

#[test]
fn designators_reach_members_of_anonymous_members() {
    let ctx = Context::new(Platform::get().devices().remove(0));
    let program = Program::from_source(&ctx, SOURCE, "designators.cl");
    program
        .build("")
        .unwrap_or_else(|e| panic!("{e}: {}", program.build_log()));
    for engine in [EngineKind::Interpreter, EngineKind::Jit] {
        let k = program.kernel("k").expect("kernel");
        let o = Buffer::new(&ctx, MemFlags::default(), 7 * 4).unwrap();
        let p = Buffer::new(&ctx, MemFlags::default(), 22 * 4).unwrap();
        k.set_arg_buffer(0, Some(&o)).unwrap();
        k.set_arg_buffer(1, Some(&p)).unwrap();
        Queue::new(&ctx)
            .with_engine(engine)
            .nd_range(&k, &NdRange::new(&[1], None, None))
            .expect("launch");
        let floats: Vec<f32> = words(&o).into_iter().map(f32::from_le_bytes).collect();
        assert_eq!(floats, [1.0, 2.0, 0.0, 5.0, 0.0, 2.0, 1.5], "{engine:?}");
        let ints: Vec<i32> = words(&p).into_iter().map(i32::from_le_bytes).collect();
        assert_eq!(
            ints,
            [1, 2, 3, 4, 5, 0, 0, 7, 0, 8, 3, 9, 0, 54321, 0, 1, 2, 3, 4, 5, 6, 7],
            "{engine:?}"
        );
    }
}
