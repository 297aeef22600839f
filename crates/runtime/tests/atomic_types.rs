//! OpenCL C 2.0 atomic types (§6.13.11.6) at run time on both engines: a program-scope
//! `atomic_int` and `atomic_flag` initialized with `ATOMIC_VAR_INIT`, `atomic_fetch_add` from
//! every work-item, `atomic_flag_test_and_set` letting exactly one work-item win, and reading
//! atomic objects directly (an atomic load). Expected values by hand.

use runtime::{Buffer, Context, EngineKind, MemFlags, NdRange, Platform, Program, Queue};

const SOURCE: &str = r#"
global atomic_int counter = ATOMIC_VAR_INIT(5);
global atomic_flag flag = ATOMIC_VAR_INIT(0);
kernel void k(global atomic_int *hits, global int *out, global atomic_float *f) {
    int gid = (int)get_global_id(0);
    atomic_fetch_add(hits, gid + 1);
    atomic_fetch_add(&counter, 1);
    if (!atomic_flag_test_and_set(&flag))
        atomic_fetch_add(&hits[1], 1);
    if (gid == 3)
        atomic_store(f, 2.5f);
    work_group_barrier(CLK_GLOBAL_MEM_FENCE);
    if (gid == 0) {
        int total = hits[0];
        int winners = atomic_load(&hits[1]);
        int c = counter;
        float r = f[0];
        out[0] = total;
        out[1] = winners;
        out[2] = c;
        out[3] = (int)(r * 2.0f);
    }
}
"#;

#[test]
fn atomic_types_run() {
    let ctx = Context::new(Platform::get().devices().remove(0));
    for engine in [EngineKind::Interpreter, EngineKind::Jit] {
        // A fresh program per engine: the program-scope atomics start at their initializers.
        let program = Program::from_source(&ctx, SOURCE, "atomic_types.cl");
        program
            .build("-cl-std=CL2.0")
            .unwrap_or_else(|e| panic!("{e}: {}", program.build_log()));
        let k = program.kernel("k").expect("kernel");
        let hits = Buffer::new(&ctx, MemFlags::default(), 2 * 4).unwrap();
        hits.write(0, &[0u8; 8]).expect("write");
        let out = Buffer::new(&ctx, MemFlags::default(), 4 * 4).unwrap();
        let f = Buffer::new(&ctx, MemFlags::default(), 4).unwrap();
        k.set_arg_buffer(0, Some(&hits)).unwrap();
        k.set_arg_buffer(1, Some(&out)).unwrap();
        k.set_arg_buffer(2, Some(&f)).unwrap();
        Queue::new(&ctx)
            .with_engine(engine)
            .nd_range(&k, &NdRange::new(&[64], Some(&[64]), None))
            .expect("launch");
        let got: Vec<i32> = out
            .to_vec()
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        // 1 + 2 + … + 64 = 2080; one flag winner; 5 + 64 = 69; 2.5 * 2 = 5.
        assert_eq!(got, [2080, 1, 69, 5], "{engine:?}");
    }
}
