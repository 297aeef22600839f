//! cl_khr_subgroups end to end (clang-15 + llvm-spirv-15 → spv::valid → kir::lower → the
//! interpreter), against oxcl's documented sub-group size of 1 (`kir::lower::subgroup`): every
//! work-item is its own sub-group, so `get_sub_group_id` is the local linear id,
//! `get_num_sub_groups` the work-group size, and each sub-group function sees one value.
//! Expected values are computed in Rust from that definition and OpenCL C 6.15.19 / the
//! cl_khr_subgroups specification. Skips with a printed reason when the tools are absent.

#[path = "consumer_coverage/harness.rs"]
mod harness;

use harness::{run_cl, u32s, u64s, Arg, Case};

const SUBGROUPS: &str = r#"
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
kernel void k(global uint *o, global long *l, global float *f) {
    uint i = get_global_id(0);
    uint b = i * 10;
    o[b + 0] = get_sub_group_size();
    o[b + 1] = get_max_sub_group_size();
    o[b + 2] = get_num_sub_groups();
    o[b + 3] = get_enqueued_num_sub_groups();
    o[b + 4] = get_sub_group_id();
    o[b + 5] = get_sub_group_local_id();
    sub_group_barrier(CLK_LOCAL_MEM_FENCE);
    o[b + 6] = sub_group_all((int)i > 2) + 2 * sub_group_any((int)i == 1) + 4 * sub_group_broadcast(i, 0);
    o[b + 7] = sub_group_reduce_add(i) + sub_group_reduce_min(i) * 100 + sub_group_reduce_max(i) * 10000;
    o[b + 8] = sub_group_scan_inclusive_add(i) + sub_group_scan_exclusive_add(i + 1) * 100;
    o[b + 9] = sub_group_scan_exclusive_min(i) ;
    l[i * 2 + 0] = sub_group_scan_exclusive_max((long)i);
    l[i * 2 + 1] = sub_group_reduce_add((long)i << 40) + sub_group_scan_inclusive_min((ulong)i);
    f[i * 2 + 0] = sub_group_scan_exclusive_min((float)i);
    f[i * 2 + 1] = sub_group_reduce_max((float)i * 0.5f) + sub_group_scan_exclusive_add(2.0f);
}
"#;

#[test]
fn sub_group_functions_follow_the_documented_size_of_one() {
    if !harness::tools_available() {
        eprintln!("skipping: clang-15 or llvm-spirv-15 is not installed");
        return;
    }
    let (items, local) = (12u32, 4u32);
    let mut o = Vec::new();
    let mut l = Vec::new();
    let mut f = Vec::new();
    for i in 0..items {
        let lid = i % local;
        o.extend([
            1,
            1,
            local,
            local,
            lid,
            0,
            u32::from(i > 2) + 2 * u32::from(i == 1) + 4 * i,
            i + i * 100 + i * 10000,
            // inclusive add of i, plus 100 × the exclusive add (the identity, 0).
            i,
            // Exclusive scans of one work-item give the identity: UINT_MAX for min.
            u32::MAX,
        ]);
        l.push(i64::MIN as u64);
        l.push(((i as u64) << 40) + i as u64);
        // Exclusive float add of one work-item: the identity 0.
        f.extend([f32::INFINITY, i as f32 * 0.5]);
    }
    let case = Case::new(
        "sub_groups",
        vec![
            Arg::Buffer(vec![0; o.len() * 4], u32s(&o)),
            Arg::Buffer(vec![0; l.len() * 8], u64s(&l)),
            Arg::Buffer(
                vec![0; f.len() * 4],
                f.iter().flat_map(|v| v.to_le_bytes()).collect(),
            ),
        ],
    )
    .range(items as u64, local as u64);
    run_cl(SUBGROUPS, "CL2.0", &case);
}
