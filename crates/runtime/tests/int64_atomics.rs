//! 64-bit atomics (cl_khr_int64_base_atomics, cl_khr_int64_extended_atomics, which the device
//! claims) and the 1.0 `atom_*` names of the 32-bit ones, on `__global` and `__local` memory,
//! through the 1.x functions and the C11 ones of OpenCL C 2.0, on both engines. Many
//! work-items update the same locations, so only order-independent results are checked;
//! expected values by hand.

use runtime::{Buffer, Context, EngineKind, MemFlags, NdRange, Platform, Program, Queue};

const SOURCE: &str = r#"
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
#pragma OPENCL EXTENSION cl_khr_global_int32_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_local_int32_extended_atomics : enable
#if !defined(cl_khr_int64_base_atomics) || !defined(cl_khr_int64_extended_atomics)
#error "the device claims the 64-bit atomics: their macros must be defined"
#endif
kernel void k(global long *g, global ulong *u, global atomic_long *c, global int *i32,
              local long *l) {
    long id = get_global_id(0);
    if (get_local_id(0) == 0) { l[0] = 0; l[1] = 0; }
    barrier(CLK_LOCAL_MEM_FENCE);
    // Values past 2^32, so a 32-bit operation would be caught.
    atom_add(&g[0], id + (1L << 33));
    atom_sub(&g[1], 3L);
    atom_inc(&g[2]);
    atom_dec(&g[3]);
    atom_max(&g[4], id * 1000000000L);
    atom_min(&g[5], -id * 1000000000L);
    atom_or(&u[0], 1UL << (id % 64));
    atom_and(&u[1], ~(1UL << (id % 64)));
    atom_xor(&u[2], 1UL << 40);
    atom_max(&u[3], (ulong)id << 40);
    atom_cmpxchg(&g[6], id, id + 1);
    atom_xchg(&g[7], 42L);
    atom_add(&l[0], id << 32);
    atom_max(&l[1], id);
    atomic_fetch_add(&c[0], 1L << 34);
    atomic_fetch_max(&c[1], id);
    long expected = 0;
    if (id == 0) atomic_compare_exchange_strong(&c[2], &expected, -5L);
    atom_add(&i32[0], 2);
    atom_inc(&i32[1]);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0) {
        atom_add(&g[8], l[0]);
        atom_max(&g[9], l[1]);
    }
}
"#;

#[test]
fn int64_atomics_on_both_engines() {
    let ctx = Context::new(Platform::get().devices().remove(0));
    let program = Program::from_source(&ctx, SOURCE, "int64_atomics.cl");
    program
        .build("-cl-std=CL2.0")
        .unwrap_or_else(|e| panic!("{e}: {}", program.build_log()));
    let (n, local) = (256i64, 64usize);
    for engine in [EngineKind::Interpreter, EngineKind::JitStrict] {
        let k = program.kernel("k").expect("kernel");
        let g = Buffer::new(&ctx, MemFlags::default(), 10 * 8).unwrap();
        let mut init = vec![0i64; 10];
        init[1] = 1000;
        init[3] = 7;
        init[5] = 0;
        init[6] = 0;
        let bytes: Vec<u8> = init.iter().flat_map(|x| x.to_le_bytes()).collect();
        g.write(0, &bytes).expect("write");
        let u = Buffer::new(&ctx, MemFlags::default(), 4 * 8).unwrap();
        let uinit = [0u64, u64::MAX, 0, 0];
        let ubytes: Vec<u8> = uinit.iter().flat_map(|x| x.to_le_bytes()).collect();
        u.write(0, &ubytes).expect("write");
        let c = Buffer::new(&ctx, MemFlags::default(), 3 * 8).unwrap();
        let i32s = Buffer::new(&ctx, MemFlags::default(), 2 * 4).unwrap();
        k.set_arg_buffer(0, Some(&g)).unwrap();
        k.set_arg_buffer(1, Some(&u)).unwrap();
        k.set_arg_buffer(2, Some(&c)).unwrap();
        k.set_arg_buffer(3, Some(&i32s)).unwrap();
        k.set_arg_local(4, 2 * 8).unwrap();
        Queue::new(&ctx)
            .with_engine(engine)
            .nd_range(&k, &NdRange::new(&[n as usize], Some(&[local]), None))
            .expect("launch");
        let longs = |b: &Buffer| -> Vec<i64> {
            b.to_vec()
                .chunks_exact(8)
                .map(|x| i64::from_le_bytes(x.try_into().unwrap()))
                .collect()
        };
        let got = longs(&g);
        let sum_ids = n * (n - 1) / 2;
        // g[6]: compare-exchange chains 0 → 1 → … only in id order; at least the first step
        // (id 0 finds 0) happens, and every value is one more than a step taken.
        assert!(got[6] >= 1 && got[6] <= n, "{engine:?}: cmpxchg {}", got[6]);
        let groups = n / local as i64;
        // Each group's local sum: ids of the group shifted by 32.
        let local_sum: i64 = (0..n).map(|id| id << 32).sum();
        assert_eq!(
            [got[0], got[1], got[2], got[3], got[4], got[5], got[7], got[8], got[9]],
            [
                sum_ids + n * (1i64 << 33),
                1000 - 3 * n,
                n,
                7 - n,
                (n - 1) * 1_000_000_000,
                -(n - 1) * 1_000_000_000,
                42,
                local_sum,
                n - 1
            ],
            "{engine:?}: {got:?} ({groups} groups)"
        );
        let ugot: Vec<u64> = longs(&u).iter().map(|&x| x as u64).collect();
        // 256 ids cover every bit 0..63; 256 xors of one bit cancel out.
        assert_eq!(ugot, [u64::MAX, 0, 0, ((n - 1) as u64) << 40], "{engine:?}");
        assert_eq!(longs(&c), [n << 34, n - 1, -5], "{engine:?}");
        let igot: Vec<i32> = i32s
            .to_vec()
            .chunks_exact(4)
            .map(|x| i32::from_le_bytes(x.try_into().unwrap()))
            .collect();
        assert_eq!(igot, [2 * n as i32, n as i32], "{engine:?}");
    }
}
