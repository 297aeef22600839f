//! pyopencl's `ReductionKernel` first stage (`dot`: `map_expr = x[i]*y[i]`, `a+b`) on the
//! JIT's vectorised phase loop, whose loop exits differ between work-items (`if (i >=
//! pcl_stop) break;`) and whose index steps by the run-time `pcl_step`
//! (`compile::vector::lane_exit`, `compile::vector::uniform_step`): partial sums against a
//! Rust reference (same order of `f32` operations) and the interpreter, for exact ranges,
//! tails that end inside an iteration of 4 work-items, a start and offsets, steps other than
//! 1 (the scalar phase loop), an `int` counter with a second induction variable, and
//! out-of-bounds reads reported for the same work-item as the interpreter reports them.

mod jit_harness;

use jit_harness::{both, f32s, i32v, to_f32s, Arg};

/// pyopencl's reduction template (pyopencl/reduction.py, `KERNEL`) rendered for a work-group
/// of `g` work-items, `float` output, `neutral = 0`, `reduce_expr = a+b`, `map_expr =
/// x[i]*y[i]` and `arguments = const float *x, const float *y` (the `pyopencl-complex.h`
/// include and fp64 pragma left out: unused).
fn pyopencl_dot_source(g: usize) -> String {
    let mut tree = String::new();
    let mut cur = g;
    while cur > 1 {
        let half = cur / 2;
        tree += &format!(
            "
            barrier(CLK_LOCAL_MEM_FENCE);
            if (pcl_lid < {half})
            {{
                pcl_ldata[pcl_lid] = PCL_REDUCE(
                  pcl_ldata[pcl_lid],
                  pcl_ldata[pcl_lid + {half}]);
            }}
"
        );
        cur = half;
    }
    format!(
        "
    #define PCL_GROUP_SIZE {g}
    #define PCL_READ_AND_MAP(i) (x[i]*y[i])
    #define PCL_REDUCE(a, b) (a+b)

    typedef float pcl_out_type;

    __kernel void reduce_kernel_stage1(
      __global pcl_out_type *pcl_out__base, long pcl_out__offset,
      __global float *x__base, long x__offset, __global float *y__base, long y__offset,
      long pcl_start, long pcl_step, long pcl_stop,
      unsigned int pcl_seq_count, long n)
    {{
        __global pcl_out_type *pcl_out = (__global pcl_out_type *) (
            (__global char *) pcl_out__base + pcl_out__offset);
        __global float *x = (__global float *) ((__global char *) x__base + x__offset);
__global float *y = (__global float *) ((__global char *) y__base + y__offset);

        __local pcl_out_type pcl_ldata[PCL_GROUP_SIZE];

        unsigned int pcl_lid = get_local_id(0);

        const long pcl_base_idx =
            get_group_id(0)*PCL_GROUP_SIZE*pcl_seq_count + pcl_lid;
        long i = pcl_start + pcl_base_idx * pcl_step;

        pcl_out_type pcl_acc = 0;
        for (unsigned pcl_s = 0; pcl_s < pcl_seq_count; ++pcl_s)
        {{
          if (i >= pcl_stop)
            break;
          pcl_acc = PCL_REDUCE(pcl_acc, PCL_READ_AND_MAP(i));

          i += PCL_GROUP_SIZE*pcl_step;
        }}

        pcl_ldata[pcl_lid] = pcl_acc;
{tree}
        if (pcl_lid == 0) pcl_out[get_group_id(0)] = pcl_ldata[0];
    }}
"
    )
}

fn long(x: i64) -> Arg {
    Arg::Val(x.to_le_bytes().to_vec())
}

fn uint(x: u32) -> Arg {
    Arg::Val(x.to_le_bytes().to_vec())
}

/// Deterministic inputs with varied magnitudes (so that the order of the sums matters).
fn data(n: usize, seed: u32) -> Vec<f32> {
    let mut s = seed.wrapping_mul(2654435761).wrapping_add(1);
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            (s % 20011) as f32 / 97.0 - 100.0
        })
        .collect()
}

/// The kernel's partial sums computed in Rust: each work-item's sequential sum, then the tree.
fn reference(
    x: &[f32],
    y: &[f32],
    g: usize,
    groups: usize,
    (start, step, stop): (i64, i64, i64),
    seq: u32,
) -> Vec<f32> {
    (0..groups)
        .map(|grp| {
            let mut ldata: Vec<f32> = (0..g)
                .map(|lid| {
                    let base = (grp * g * seq as usize + lid) as i64;
                    let mut i = start + base * step;
                    let mut acc = 0.0f32;
                    for _ in 0..seq {
                        if i >= stop {
                            break;
                        }
                        acc += x[i as usize] * y[i as usize];
                        i += g as i64 * step;
                    }
                    acc
                })
                .collect();
            let mut cur = g;
            while cur > 1 {
                cur /= 2;
                for lid in 0..cur {
                    ldata[lid] += ldata[lid + cur];
                }
            }
            ldata[0]
        })
        .collect()
}

/// Runs stage 1 over `start..stop` by `step` as pyopencl launches it (`groups` groups of `g`,
/// `seq` = the work-items' trip count); checks it against the reference and the interpreter.
fn check_dot(g: usize, groups: usize, len: usize, (start, step, stop): (i64, i64, i64)) {
    let x = data(len, 1);
    let y = data(len, 2);
    let sz = ((stop - start) / step) as usize;
    let macro_size = groups * g;
    let seq = sz.div_ceil(macro_size).max(1) as u32;
    let src = pyopencl_dot_source(g);
    let args = [
        Arg::Buf(f32s(&vec![0.0; groups])),
        long(0),
        Arg::Buf(f32s(&x)),
        long(0),
        Arg::Buf(f32s(&y)),
        long(0),
        long(start),
        long(step),
        long(stop),
        uint(seq),
        long(sz as i64),
    ];
    let (status, bufs) = both(&src, "reduce_kernel_stage1", &args, &[groups * g], &[g]);
    assert_eq!(status, Ok(()), "range {start}..{stop} by {step}");
    let expected = reference(&x, &y, g, groups, (start, step, stop), seq);
    assert_eq!(
        to_f32s(&bufs[0]),
        expected,
        "range {start}..{stop} by {step}"
    );
}

#[test]
fn whole_iterations() {
    // 8 groups of 64 work-items, 4 elements each.
    check_dot(64, 8, 2048, (0, 1, 2048));
}

#[test]
fn tails_end_inside_an_iteration() {
    for stop in [2047, 2045, 2042, 1999, 1537, 70, 3] {
        check_dot(64, 8, 2048, (0, 1, stop));
    }
}

#[test]
fn start_and_steps_other_than_one() {
    check_dot(64, 4, 2048, (5, 1, 2041));
    check_dot(64, 4, 2048, (0, 2, 2048));
    check_dot(64, 4, 2048, (3, 3, 2047));
}

#[test]
fn byte_offsets() {
    let (g, groups, n) = (32usize, 4usize, 1000usize);
    let x = data(n + 8, 3);
    let y = data(n + 8, 4);
    let seq = n.div_ceil(g * groups) as u32;
    let args = [
        Arg::Buf(f32s(&vec![0.0; groups + 1])),
        long(4),
        Arg::Buf(f32s(&x)),
        long(12),
        Arg::Buf(f32s(&y)),
        long(32),
        long(0),
        long(1),
        long(n as i64),
        uint(seq),
        long(n as i64),
    ];
    let src = pyopencl_dot_source(g);
    let (status, bufs) = both(&src, "reduce_kernel_stage1", &args, &[g * groups], &[g]);
    assert_eq!(status, Ok(()));
    let expected = reference(&x[3..], &y[8..], g, groups, (0, 1, n as i64), seq);
    assert_eq!(to_f32s(&bufs[0])[1..], expected[..]);
}

#[test]
fn out_of_bounds_reads_are_reported_as_by_the_interpreter() {
    // `y` is shorter than the range: some work-item's read fails.
    let (g, groups, n) = (64usize, 4usize, 1024usize);
    for y_len in [1000usize, 1023, 2] {
        let args = [
            Arg::Buf(f32s(&vec![0.0; groups])),
            long(0),
            Arg::Buf(f32s(&data(n, 5))),
            long(0),
            Arg::Buf(f32s(&data(y_len, 6))),
            long(0),
            long(0),
            long(1),
            long(n as i64),
            uint(4),
            long(n as i64),
        ];
        let src = pyopencl_dot_source(g);
        let (status, _) = both(&src, "reduce_kernel_stage1", &args, &[g * groups], &[g]);
        assert!(status.is_err(), "y of {y_len} floats: {status:?}");
    }
}

/// A hand-written variant: an `int` counter tested `s < count` (signed), a second induction
/// variable `j` (an `int` index stepping by the group size) and the break on the range's end.
const INT_COUNTER: &str = "
__kernel void sums(__global float *out, __global const float *x, int stop, int count)
{
    __local float part[16];
    int lid = get_local_id(0);
    int j = get_group_id(0) * 16 * count + lid;
    float acc = 0.0f;
    for (int s = 0; s < count; s++) {
        if (j >= stop)
            break;
        acc = acc + x[j] * 2.0f;
        j += 16;
    }
    part[lid] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
        float t = 0.0f;
        for (int k = 0; k < 16; k++)
            t = t + part[k];
        out[get_group_id(0)] = t;
    }
}
";

#[test]
fn int_counter_and_second_index() {
    let (g, groups, count) = (16usize, 6usize, 5i32);
    let x = data(g * groups * count as usize, 7);
    for stop in [480i32, 479, 301, 17] {
        let args = [
            Arg::Buf(f32s(&vec![0.0; groups])),
            Arg::Buf(f32s(&x)),
            i32v(stop),
            i32v(count),
        ];
        let (status, bufs) = both(INT_COUNTER, "sums", &args, &[g * groups], &[g]);
        assert_eq!(status, Ok(()));
        let expected: Vec<f32> = (0..groups)
            .map(|grp| {
                let part: Vec<f32> = (0..g)
                    .map(|lid| {
                        let mut j = (grp * g * count as usize + lid) as i32;
                        let mut acc = 0.0f32;
                        for _ in 0..count {
                            if j >= stop {
                                break;
                            }
                            acc += x[j as usize] * 2.0;
                            j += 16;
                        }
                        acc
                    })
                    .collect();
                part.iter().fold(0.0f32, |t, &p| t + p)
            })
            .collect();
        assert_eq!(to_f32s(&bufs[0]), expected, "stop {stop}");
    }
}
