//! Blocks (OpenCL C 2.0 §1.12) in the forms clang-15 refuses or cannot lower, compiled by
//! oxcl's compiler and run on both engines: Blocks as function parameters (§1.12.5 Example 1),
//! program-scope Block variables (§1.12.3, Example 3 and Example 4's `bl0`), and both passed
//! to `enqueue_kernel`. Expected values by hand.

use runtime::{
    Buffer, Context, DeviceQueue, EngineKind, MemFlags, NdRange, Platform, Program, Queue,
};

const SOURCE: &str = r#"
int GlobalInt = 0;
int (^getGlobalInt)(void) = ^{ return GlobalInt; };
constant int C = 5;
int (^addC)(int) = ^(int a) { return C + a + GlobalInt; };
int (^sameAsAddC)(int) = addC;
void (^bl0)(global int *) = ^(global int *p) { *p = 77; };

/* §1.12.5 Example 1 */
void foo(global int *x, int (^bar)(int, int))
{
    *x = bar(*x, *x);
}

/* a prototype first: the specialization waits for the body */
int twice_then(int v, int (^f)(int));

/* a Block parameter passed on to another function with a Block parameter */
int apply_both(int v, int (^f)(int), int (^g)(int))
{
    return twice_then(f(v), g);
}

int twice_then(int v, int (^f)(int))
{
    return f(f(v));
}

/* a Block parameter enqueued */
int launch(global int *out, void (^work)(void))
{
    return enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(4), work);
}

kernel void k(global int *x, global int *z, global int *out)
{
    int i = get_global_id(0);
    if (*z > 2)
        foo(x + i, ^int(int x, int y){ return x + y + *z; });
    else
        foo(x + i, ^int(int x, int y){ return (x * y) - *z; });

    int k3 = 3;
    int (^add3)(int) = ^(int a) { return a + k3; };
    int (^mul2)(int) = ^(int a) { return a * 2; };
    if (i == 0) {
        out[0] = twice_then(1, add3);                 /* 1+3+3 = 7 */
        out[1] = twice_then(5, mul2);                 /* 20 */
        out[2] = apply_both(1, add3, mul2);           /* (1+3)*2*2 = 16 */
        out[3] = apply_both(2, mul2, add3);           /* 2*2+3+3 = 10 */
        out[4] = twice_then(10, ^(int a){ return a - k3; }); /* 4 */
        GlobalInt = 4;
        out[5] = getGlobalInt();                      /* 4 */
        out[6] = addC(3);                             /* 5+3+4 = 12 */
        out[7] = sameAsAddC(10);                      /* 19 */
        out[8] = twice_then(1, addC);                 /* 1+9+9 = 19 */
        void (^inner)(void) = ^{ bl0(out + 9); };     /* Example 4: bl0 is a global */
        inner();
        out[10] = launch(out, ^{ out[16 + get_global_id(0)] = (int)get_global_id(0) + k3; });
        out[11] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1),
                                 ^{ out[12] = getGlobalInt() + 100; });
    }
}
"#;

fn ints(b: &Buffer) -> Vec<i32> {
    b.to_vec()
        .chunks_exact(4)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn int_buffer(ctx: &Context, v: &[i32]) -> Buffer {
    let bytes: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
    let b = Buffer::new(ctx, MemFlags::default(), bytes.len()).unwrap();
    b.write(0, &bytes).unwrap();
    b
}

#[test]
fn block_parameters_and_program_scope_blocks_run() {
    for engine in [EngineKind::Interpreter, EngineKind::Jit] {
        for zv in [3, 1] {
            let ctx = Context::new(Platform::get().devices().remove(0));
            let _q = DeviceQueue::new(&ctx, None, true).expect("default device queue");
            let program = Program::from_source(&ctx, SOURCE, "blocks.cl");
            program
                .build("-cl-std=CL2.0")
                .unwrap_or_else(|e| panic!("{e}: {}", program.build_log()));
            let k = program.kernel("k").expect("kernel");
            let x = int_buffer(&ctx, &[2, 3, 4, 5]);
            let z = int_buffer(&ctx, &[zv]);
            let out = int_buffer(&ctx, &[0; 20]);
            k.set_arg_buffer(0, Some(&x)).unwrap();
            k.set_arg_buffer(1, Some(&z)).unwrap();
            k.set_arg_buffer(2, Some(&out)).unwrap();
            Queue::new(&ctx)
                .with_engine(engine)
                .nd_range(&k, &NdRange::new(&[4], None, None))
                .expect("launch");
            // Example 1: x + x + z when z > 2, else x * x - z.
            let want: Vec<i32> = [2, 3, 4, 5]
                .iter()
                .map(|&v| if zv > 2 { v + v + zv } else { v * v - zv })
                .collect();
            assert_eq!(ints(&x), want, "{engine:?} z={zv}");
            let got = ints(&out);
            assert_eq!(
                &got[..13],
                &[7, 20, 16, 10, 4, 4, 12, 19, 19, 77, 0, 0, 104],
                "{engine:?}"
            );
            assert_eq!(
                &got[16..20],
                &[3, 4, 5, 6],
                "{engine:?} enqueued Block parameter"
            );
        }
    }
}
