//! Kernels split at their barriers run as phase loops (a native loop over a row of work-items
//! per phase, one spill area per group): results, barrier counts and divergence reports over
//! 2- and 3-dimensional groups with non-uniform last groups, with expected values computed in
//! plain Rust (and divergence reports also compared with the interpreter's).

use exec::{ArgValue, Engine, ExecError, Interpreter, Jit, Launch, NdRange};

fn module(text: &str) -> kir::Module {
    let module = kir::parse_module(text).unwrap_or_else(|e| panic!("parse: {e}"));
    kir::verify_module(&module).unwrap_or_else(|e| panic!("verify: {e}"));
    module
}

fn buffer(bytes: &mut [u8]) -> ArgValue {
    ArgValue::Buffer {
        ptr: bytes.as_mut_ptr(),
        len: bytes.len(),
    }
}

/// Every work-item of a 2-D group stores its input in local memory; after the barrier it
/// reads the work-item mirrored through the group (local linear id `count - 1 - ll`) and adds
/// the scalar parameter `k`.
const FLIP: &str = r#"
module address_bits 64
function fn0 "flip"(ptr_global, ptr_global, ptr_local, i32) {
block0(v0: ptr_global, v1: ptr_global, v2: ptr_local, v3: i32):
    v4 = workitem.i64 local_id 0
    v5 = workitem.i64 local_id 1
    v6 = workitem.i64 local_size 0
    v7 = workitem.i64 local_size 1
    v8 = workitem.i64 global_linear_id 0
    v9 = const.i64 4
    v10 = imul.i64 v8, v9
    v11 = ptradd.ptr_global v0, v10
    v12 = load.i32 v11 align 4
    v13 = imul.i64 v5, v6
    v14 = iadd.i64 v13, v4
    v15 = imul.i64 v14, v9
    v16 = ptradd.ptr_local v2, v15
    store v16, v12 align 4
    barrier workgroup, workgroup, 0x110
    v17 = imul.i64 v6, v7
    v18 = const.i64 1
    v19 = isub.i64 v17, v18
    v20 = isub.i64 v19, v14
    v21 = imul.i64 v20, v9
    v22 = ptradd.ptr_local v2, v21
    v23 = load.i32 v22 align 4
    v24 = iadd.i32 v23, v3
    v25 = ptradd.ptr_global v1, v10
    store v25, v24 align 4
    return
}
kernel "flip" fn0("in" buffer_global "int*", "out" buffer_global "int*", "scratch" local "int*", "k" value i32 size 4 align 4 "int")
"#;

/// Local and global ids of every work-item of a 1–3-D range, by group: for each group, the
/// global ids of its work-items in local-linear order.
fn groups_of(nd: &NdRange) -> Vec<Vec<[u64; 3]>> {
    let mut out = Vec::new();
    let n = nd.num_groups();
    for gz in 0..n[2] {
        for gy in 0..n[1] {
            for gx in 0..n[0] {
                let g = [gx, gy, gz];
                let start: [u64; 3] = std::array::from_fn(|d| g[d] * nd.local_size[d]);
                let size: [u64; 3] =
                    std::array::from_fn(|d| nd.local_size[d].min(nd.global_size[d] - start[d]));
                let mut items = Vec::new();
                for z in 0..size[2] {
                    for y in 0..size[1] {
                        for x in 0..size[0] {
                            let l = [x, y, z];
                            items.push(std::array::from_fn(|d| {
                                nd.global_offset[d] + start[d] + l[d]
                            }));
                        }
                    }
                }
                out.push(items);
            }
        }
    }
    out
}

fn linear(nd: &NdRange, g: [u64; 3]) -> usize {
    let o = nd.global_offset;
    let s = nd.global_size;
    (((g[2] - o[2]) * s[1] + (g[1] - o[1])) * s[0] + (g[0] - o[0])) as usize
}

#[test]
fn values_live_across_a_barrier_in_2d_groups() {
    let m = module(FLIP);
    let nd = NdRange {
        work_dim: 2,
        global_offset: [1, 2, 0],
        global_size: [10, 7, 1],
        local_size: [4, 3, 1],
    };
    let total = 70;
    let input: Vec<i32> = (0..total).map(|i| i * 13 - 200).collect();
    let k = 1000i32;
    let mut expected = vec![0i32; total as usize];
    for items in groups_of(&nd) {
        let count = items.len();
        for (ll, &g) in items.iter().enumerate() {
            let mirror = items[count - 1 - ll];
            expected[linear(&nd, g)] = input[linear(&nd, mirror)] + k;
        }
    }
    for jit in [Jit::strict(), Jit::new()] {
        let mut inb: Vec<u8> = input.iter().flat_map(|x| x.to_le_bytes()).collect();
        let mut outb = vec![0u8; inb.len()];
        let args = [
            buffer(&mut inb),
            buffer(&mut outb),
            ArgValue::Local(12 * 4),
            ArgValue::Bytes(k.to_le_bytes().to_vec()),
        ];
        let stats = jit
            .run(&Launch {
                module: &m,
                kernel: 0,
                args: &args,
                nd,
                threads: 2,
            })
            .expect("runs");
        let got: Vec<i32> = outb
            .chunks(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        assert_eq!(got, expected);
        // 3 × 3 groups, one barrier each.
        assert_eq!(stats.barriers, 9);
        assert_eq!(stats.work_items, 70);
    }
}

/// Four rounds of a barrier in a loop (as in a tiled matrix product): every work-item stores
/// `ll * t + global_id(0)` in local memory and, after the barrier, adds its neighbour's
/// (local linear id `ll + 1` modulo the group size) to its sum; a second barrier ends the round.
const ROUNDS: &str = r#"
module address_bits 64
function fn0 "rounds"(ptr_global, ptr_local) {
block0(v0: ptr_global, v1: ptr_local):
    v2 = workitem.i64 local_linear_id 0
    v3 = workitem.i64 global_linear_id 0
    v4 = workitem.i64 local_size 0
    v5 = workitem.i64 local_size 1
    v6 = workitem.i64 local_size 2
    v7 = imul.i64 v4, v5
    v8 = imul.i64 v7, v6
    v9 = workitem.i64 global_id 0
    v10 = const.i64 0
    v11 = const.i64 8
    v12 = imul.i64 v2, v11
    v13 = ptradd.ptr_local v1, v12
    v14 = const.i64 1
    v15 = iadd.i64 v2, v14
    v16 = urem.i64 v15, v8
    v17 = imul.i64 v16, v11
    v18 = ptradd.ptr_local v1, v17
    jump block1(v10, v10)
block1(v19: i64, v20: i64):
    v21 = const.i64 4
    v22 = cmp.bool ult v19, v21
    brif v22, block2, block3
block2:
    v23 = imul.i64 v2, v19
    v24 = iadd.i64 v23, v9
    store v13, v24 align 8
    barrier workgroup, workgroup, 0x110
    v26 = load.i64 v18 align 8
    v27 = iadd.i64 v20, v26
    barrier workgroup, workgroup, 0x110
    v28 = iadd.i64 v19, v14
    jump block1(v28, v27)
block3:
    v29 = imul.i64 v3, v11
    v30 = ptradd.ptr_global v0, v29
    store v30, v20 align 8
    return
}
kernel "rounds" fn0("out" buffer_global "long*", "scratch" local "long*")
"#;

#[test]
fn barriers_in_a_loop_in_3d_groups() {
    let m = module(ROUNDS);
    let nd = NdRange {
        work_dim: 3,
        global_offset: [0, 1, 0],
        global_size: [5, 3, 3],
        local_size: [2, 2, 2],
    };
    let total = 45usize;
    let mut expected = vec![0i64; total];
    for items in groups_of(&nd) {
        let count = items.len();
        for (ll, &g) in items.iter().enumerate() {
            let next = (ll + 1) % count;
            let sum: i64 = (0..4)
                .map(|t| (next as i64) * t + items[next][0] as i64)
                .sum();
            expected[linear(&nd, g)] = sum;
        }
    }
    for threads in [1, 2] {
        let mut outb = vec![0u8; total * 8];
        let args = [buffer(&mut outb), ArgValue::Local(8 * 8)];
        let stats = Jit::strict()
            .run(&Launch {
                module: &m,
                kernel: 0,
                args: &args,
                nd,
                threads,
            })
            .expect("runs");
        let got: Vec<i64> = outb
            .chunks(8)
            .map(|c| i64::from_le_bytes(c.try_into().expect("8 bytes")))
            .collect();
        assert_eq!(got, expected);
        // 3 × 2 × 2 groups, 8 barriers each.
        assert_eq!(stats.barriers, 12 * 8);
    }
}

/// Work-item (2, 1) of each group returns before the barrier the others wait at; with
/// `early` = 0 work-item (0, 1) does instead (the first of its row).
const SKIP: &str = r#"
module address_bits 64
function fn0 "skip"(i64) {
block0(v0: i64):
    v1 = workitem.i64 local_id 0
    v2 = workitem.i64 local_id 1
    v3 = cmp.bool ieq v1, v0
    v4 = const.i64 1
    v5 = cmp.bool ieq v2, v4
    v6 = and.bool v3, v5
    brif v6, block2, block1
block1:
    barrier workgroup, workgroup, 0x110
    jump block2
block2:
    return
}
kernel "skip" fn0("early" value i64 size 8 align 8 "long")
"#;

#[test]
fn divergence_is_reported_with_the_first_diverging_work_item() {
    let m = module(SKIP);
    let nd = NdRange {
        work_dim: 2,
        global_offset: [0, 0, 0],
        global_size: [4, 2, 1],
        local_size: [4, 2, 1],
    };
    for x in [2u64, 0] {
        let args = [ArgValue::Bytes(x.to_le_bytes().to_vec())];
        let launch = Launch {
            module: &m,
            kernel: 0,
            args: &args,
            nd,
            threads: 1,
        };
        let jit = Jit::strict().run(&launch).unwrap_err();
        match &jit {
            ExecError::BarrierDivergence { detail, .. } => {
                let want = format!("but local work-item [{x}, 1, 0] returned");
                assert!(
                    detail.starts_with("local work-item [0, 0, 0] waits at the barrier"),
                    "{detail}"
                );
                assert!(detail.ends_with(&want), "{detail}");
            }
            other => panic!("expected barrier divergence, got {other}"),
        }
        let interp = Interpreter::new().run(&launch).unwrap_err();
        assert_eq!(jit.to_string(), interp.to_string());
    }
}

/// A tree reduction over the local linear id of a 2-D group, plus work-item 0's own input: the
/// first barrier keeps fewer values than the one in the loop (which also keeps that input), so
/// a work-item storing at the second must not overwrite what a later work-item of its row
/// still has to reload from the first.
const TREE: &str = r#"
module address_bits 64
function fn0 "tree"(ptr_global, ptr_global, ptr_local) {
block0(v0: ptr_global, v1: ptr_global, v2: ptr_local):
    v3 = workitem.i64 local_linear_id 0
    v4 = workitem.i64 global_linear_id 0
    v5 = workitem.i64 local_size 0
    v30 = workitem.i64 local_size 1
    v31 = imul.i64 v5, v30
    v6 = const.i64 4
    v7 = imul.i64 v4, v6
    v8 = ptradd.ptr_global v0, v7
    v9 = load.i32 v8 align 4
    v10 = imul.i64 v3, v6
    v11 = ptradd.ptr_local v2, v10
    store v11, v9 align 4
    barrier workgroup, workgroup, 0x110
    v40 = load.i32 v11 align 4
    v12 = const.i64 1
    v13 = lshr.i64 v31, v12
    jump block1(v13)
block1(v14: i64):
    v15 = const.i64 0
    v16 = cmp.bool ugt v14, v15
    brif v16, block2, block5
block2:
    v17 = cmp.bool ult v3, v14
    brif v17, block3, block4
block3:
    v18 = iadd.i64 v3, v14
    v19 = imul.i64 v18, v6
    v20 = ptradd.ptr_local v2, v19
    v21 = load.i32 v20 align 4
    v22 = load.i32 v11 align 4
    v23 = iadd.i32 v22, v21
    store v11, v23 align 4
    jump block4
block4:
    barrier workgroup, workgroup, 0x110
    v24 = lshr.i64 v14, v12
    jump block1(v24)
block5:
    v25 = cmp.bool ieq v3, v15
    brif v25, block6, block7
block6:
    v41 = load.i32 v2 align 4
    v26 = iadd.i32 v41, v40
    v27 = workitem.i64 group_id 0
    v32 = workitem.i64 group_id 1
    v33 = workitem.i64 num_groups 0
    v34 = imul.i64 v32, v33
    v35 = iadd.i64 v34, v27
    v28 = imul.i64 v35, v6
    v29 = ptradd.ptr_global v1, v28
    store v29, v26 align 4
    jump block7
block7:
    return
}
kernel "tree" fn0("in" buffer_global "int*", "out" buffer_global "int*", "tmp" local "int*")
"#;

#[test]
fn barriers_keeping_different_values_share_the_spill_area() {
    let m = module(TREE);
    let nd = NdRange {
        work_dim: 2,
        global_offset: [0, 0, 0],
        global_size: [16, 8, 1],
        local_size: [8, 2, 1],
    };
    let input: Vec<i32> = (0..128).map(|i| (i * 7919) % 1000 - 500).collect();
    let mut expected = Vec::new();
    for items in groups_of(&nd) {
        let sum: i32 = items.iter().map(|&g| input[linear(&nd, g)]).sum();
        expected.push(sum + input[linear(&nd, items[0])]);
    }
    let mut inb: Vec<u8> = input.iter().flat_map(|x| x.to_le_bytes()).collect();
    let mut outb = vec![0u8; expected.len() * 4];
    let args = [buffer(&mut inb), buffer(&mut outb), ArgValue::Local(16 * 4)];
    let stats = Jit::strict()
        .run(&Launch {
            module: &m,
            kernel: 0,
            args: &args,
            nd,
            threads: 1,
        })
        .expect("runs");
    let got: Vec<i32> = outb
        .chunks(4)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    assert_eq!(got, expected);
    // 8 groups of 16: one barrier before the loop and one per halving step (4).
    assert_eq!(stats.barriers, 8 * 5);
}
