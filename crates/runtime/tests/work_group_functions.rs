//! The work-group functions (OpenCL C 3.0 §6.15.15, feature
//! `__opencl_c_work_group_collective_functions`) through the runtime, compiled with
//! `-cl-std=CL2.0` (where they are mandatory) and `-cl-std=CL3.0` (where the device's feature
//! enables them), on both engines, in uneven work-groups and with several groups running at
//! once. Expected values from a Rust reference in the test.

use runtime::{Buffer, Context, EngineKind, MemFlags, NdRange, Platform, Program, Queue};

const SOURCE: &str = r#"
#if defined(__OPENCL_C_VERSION__) && __OPENCL_C_VERSION__ >= 300 && !defined(__opencl_c_work_group_collective_functions)
#error "the device claims the feature: its macro must be defined"
#endif
kernel void k(global const int *in, global int *out, global float *fout) {
    size_t g = get_global_id(0);
    int v = in[g];
    out[g * 8 + 0] = work_group_reduce_add(v);
    out[g * 8 + 1] = work_group_reduce_min(v);
    out[g * 8 + 2] = work_group_reduce_max(v);
    out[g * 8 + 3] = work_group_scan_inclusive_add(v);
    out[g * 8 + 4] = work_group_scan_exclusive_max(v);
    out[g * 8 + 5] = work_group_broadcast(v, get_local_size(0) - 1);
    out[g * 8 + 6] = work_group_any(v == 7) + 2 * work_group_all(v > -100);
    out[g * 8 + 7] = (int)work_group_scan_exclusive_add((uint)v);
    fout[g] = work_group_reduce_add((float)v * 0.5f);
}
"#;

/// The inputs: small signed values, some repeated.
fn input(n: usize) -> Vec<i32> {
    (0..n).map(|i| ((i * 29 + 3) % 41) as i32 - 20).collect()
}

/// What the kernel writes for the work-items of one group holding `v`.
fn expected_group(v: &[i32]) -> (Vec<[i32; 8]>, f32) {
    let sum: i32 = v.iter().sum();
    let min = *v.iter().min().unwrap();
    let max = *v.iter().max().unwrap();
    let last = *v.last().unwrap();
    let flags = v.iter().any(|&x| x == 7) as i32 + 2 * v.iter().all(|&x| x > -100) as i32;
    let rows = (0..v.len())
        .map(|l| {
            let inclusive: i32 = v[..=l].iter().sum();
            // The identity of max for int is INT_MIN (§6.15.15).
            let exclusive_max = v[..l].iter().copied().max().unwrap_or(i32::MIN);
            let exclusive_add = v[..l].iter().fold(0u32, |a, &x| a.wrapping_add(x as u32));
            [
                sum,
                min,
                max,
                inclusive,
                exclusive_max,
                last,
                flags,
                exclusive_add as i32,
            ]
        })
        .collect();
    // Halves of small integers add exactly in any order.
    let fsum: f32 = v.iter().map(|&x| x as f32 * 0.5).sum();
    (rows, fsum)
}

fn run(std: &str, global: usize, local: usize) {
    let ctx = Context::new(Platform::get().devices().remove(0));
    let program = Program::from_source(&ctx, SOURCE, "work_group_functions.cl");
    program
        .build(std)
        .unwrap_or_else(|e| panic!("{std}: {e}: {}", program.build_log()));
    let data = input(global);
    let bytes: Vec<u8> = data.iter().flat_map(|x| x.to_le_bytes()).collect();
    for engine in [EngineKind::Interpreter, EngineKind::JitStrict] {
        let k = program.kernel("k").expect("kernel");
        let inb = Buffer::new(&ctx, MemFlags::default(), bytes.len()).unwrap();
        inb.write(0, &bytes).expect("write");
        let out = Buffer::new(&ctx, MemFlags::default(), global * 32).unwrap();
        let fout = Buffer::new(&ctx, MemFlags::default(), global * 4).unwrap();
        k.set_arg_buffer(0, Some(&inb)).unwrap();
        k.set_arg_buffer(1, Some(&out)).unwrap();
        k.set_arg_buffer(2, Some(&fout)).unwrap();
        Queue::new(&ctx)
            .with_engine(engine)
            .nd_range(&k, &NdRange::new(&[global], Some(&[local]), None))
            .expect("launch");
        let got: Vec<i32> = out
            .to_vec()
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let fgot: Vec<f32> = fout
            .to_vec()
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        // Non-uniform work-groups: the last group is the remainder (API 5.9.2).
        for (gi, chunk) in data.chunks(local).enumerate() {
            let (rows, fsum) = expected_group(chunk);
            for (l, row) in rows.iter().enumerate() {
                let g = gi * local + l;
                assert_eq!(
                    &got[g * 8..g * 8 + 8],
                    row,
                    "{std} {engine:?} work-item {g}"
                );
                assert_eq!(fgot[g], fsum, "{std} {engine:?} work-item {g}");
            }
        }
    }
}

#[test]
fn work_group_functions_in_opencl_c_2_0() {
    run("-cl-std=CL2.0", 64, 16);
}

#[test]
fn work_group_functions_in_opencl_c_3_0_with_the_feature() {
    run("-cl-std=CL3.0", 100, 32);
}
