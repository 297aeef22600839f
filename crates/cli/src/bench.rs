//! `oxcl bench`: the benchmark set of issue 8 on oxcl's JIT (all cores and one core), oxcl's
//! interpreter (smaller sizes) and PoCL (through pyopencl and the ICD loader, when installed),
//! with native Rust loops for saxpy and the sum as the memory-bandwidth limit.
//!
//! For each benchmark: one checked run on each engine (results must agree with oxcl's JIT
//! within the benchmark's tolerance), then `--reps` timed runs; the table shows the median
//! kernel time, the throughput (GB/s, GFLOP/s or Mitems/s), the build time (source → runnable:
//! program build plus the first launch's excess over the median, where JIT compilation and
//! PoCL's work-group compilation happen) and the JIT's throughput ratio to PoCL. `--json`
//! prints one JSON object instead. The JIT's on-disk cache is off unless `--warm-build` is
//! given, so oxcl's build time is a cold one.

use std::fmt::Write as _;
use std::path::Path;
use std::process::{Command, ExitCode};
use std::time::Instant;

use anyhow::{anyhow, bail, Context as _, Result};
use clap::Args;
use runtime::{Buffer, Context, EngineKind, MemFlags, NdRange, Platform, Program, Queue};

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Small sizes and one repetition (a smoke test).
    #[arg(long)]
    pub quick: bool,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Timed repetitions per engine (default 5, 1 with --quick).
    #[arg(long)]
    pub reps: Option<usize>,
    /// Only benchmarks whose name contains this.
    #[arg(long)]
    pub only: Option<String>,
    /// Skip PoCL.
    #[arg(long)]
    pub no_pocl: bool,
    /// Skip the interpreter.
    #[arg(long)]
    pub no_interp: bool,
    /// Keep the JIT's on-disk cache on (build times are then warm once an earlier run filled
    /// it); by default it is off and build times are cold.
    #[arg(long)]
    pub warm_build: bool,
}

/// How a buffer's elements compare between engines.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Check {
    /// Not an output.
    Input,
    /// f32 elements within `rel` relative (or absolute, near zero) error.
    F32(f64),
    /// u32 elements equal, except at most this fraction of them.
    U32(f64),
}

#[derive(Clone, Debug)]
enum BArg {
    Buf(Vec<u8>, Check),
    Val(Vec<u8>),
    Local(usize),
}

/// One benchmark instance at one size.
struct Case {
    global: Vec<usize>,
    local: Option<Vec<usize>>,
    args: Vec<BArg>,
    /// Work per run, in `unit`s × 1e9 for GB/s and GFLOP/s, × 1e6 for Mitems/s.
    work: f64,
    unit: &'static str,
}

struct Bench {
    name: &'static str,
    kernel: &'static str,
    source: &'static str,
    /// Problem size: full, quick, interpreter (full run), interpreter (quick run).
    sizes: [usize; 4],
    make: fn(usize) -> Case,
}

const SOURCE: &str = r#"
__kernel void saxpy(float a, __global const float *x, __global float *y) {
    size_t i = get_global_id(0);
    y[i] = a * x[i] + y[i];
}

__kernel void sum(__global const float *in, __global float *partial, __local float *scratch) {
    size_t lid = get_local_id(0);
    scratch[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (lid < s)
            scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        partial[get_group_id(0)] = scratch[0];
}

__kernel void sgemm_naive(int n, __global const float *A, __global const float *B, __global float *C) {
    int row = get_global_id(1), col = get_global_id(0);
    float acc = 0.0f;
    for (int k = 0; k < n; k++)
        acc += A[row * n + k] * B[k * n + col];
    C[row * n + col] = acc;
}

#define TS 16
__kernel void sgemm_tiled(int n, __global const float *A, __global const float *B, __global float *C) {
    __local float As[TS][TS];
    __local float Bs[TS][TS];
    int lr = get_local_id(1), lc = get_local_id(0);
    int row = get_global_id(1), col = get_global_id(0);
    float acc = 0.0f;
    for (int t = 0; t < n; t += TS) {
        As[lr][lc] = A[row * n + t + lc];
        Bs[lr][lc] = B[(t + lr) * n + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TS; k++)
            acc += As[lr][k] * Bs[k][lc];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    C[row * n + col] = acc;
}

__kernel void stencil(int n, __global const float *in, __global float *out) {
    int x = get_global_id(0), y = get_global_id(1);
    int i = y * n + x;
    if (x == 0 || y == 0 || x == n - 1 || y == n - 1) {
        out[i] = in[i];
        return;
    }
    out[i] = 0.5f * in[i] + 0.125f * (in[i - 1] + in[i + 1] + in[i - n] + in[i + n]);
}

__kernel void histogram(__global const uchar *data, __global uint *hist) {
    atomic_inc(&hist[data[get_global_id(0)]]);
}

__kernel void nbody(int n, float eps2, __global const float4 *pos, __global float4 *acc) {
    int i = get_global_id(0);
    float4 p = pos[i];
    float ax = 0.0f, ay = 0.0f, az = 0.0f;
    for (int j = 0; j < n; j++) {
        float4 q = pos[j];
        float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
        float r2 = dx * dx + dy * dy + dz * dz + eps2;
        float inv = 1.0f / sqrt(r2);
        float s = q.w * inv * inv * inv;
        ax += s * dx;
        ay += s * dy;
        az += s * dz;
    }
    acc[i] = (float4)(ax, ay, az, 0.0f);
}

__kernel void mandelbrot(int w, int maxit, __global uint *out) {
    int x = get_global_id(0), y = get_global_id(1);
    float cr = -2.0f + 3.0f * x / w;
    float ci = -1.5f + 3.0f * y / w;
    float zr = 0.0f, zi = 0.0f;
    int it = 0;
    while (it < maxit && zr * zr + zi * zi < 4.0f) {
        float t = zr * zr - zi * zi + cr;
        zi = 2.0f * zr * zi + ci;
        zr = t;
        it++;
    }
    out[y * w + x] = it;
}

float cnd(float d) {
    const float A1 = 0.31938153f, A2 = -0.356563782f, A3 = 1.781477937f;
    const float A4 = -1.821255978f, A5 = 1.330274429f;
    float k = 1.0f / (1.0f + 0.2316419f * fabs(d));
    float c = 0.3989422804f * exp(-0.5f * d * d) * (k * (A1 + k * (A2 + k * (A3 + k * (A4 + k * A5)))));
    return d > 0.0f ? 1.0f - c : c;
}

__kernel void blackscholes(float r, float v, __global const float *S, __global const float *X,
                           __global const float *T, __global float *call, __global float *put) {
    int i = get_global_id(0);
    float s = S[i], x = X[i], t = T[i];
    float sq = sqrt(t);
    float d1 = (log(s / x) + (r + 0.5f * v * v) * t) / (v * sq);
    float d2 = d1 - v * sq;
    float e = exp(-r * t);
    call[i] = s * cnd(d1) - x * e * cnd(d2);
    put[i] = x * e * cnd(-d2) - s * cnd(-d1);
}

__kernel void conv5(int n, __constant float *filt, __global const float *in, __global float *out) {
    int x = get_global_id(0), y = get_global_id(1);
    float acc = 0.0f;
    for (int dy = -2; dy <= 2; dy++) {
        for (int dx = -2; dx <= 2; dx++) {
            int xx = clamp(x + dx, 0, n - 1);
            int yy = clamp(y + dy, 0, n - 1);
            acc += filt[(dy + 2) * 5 + dx + 2] * in[yy * n + xx];
        }
    }
    out[y * n + x] = acc;
}
"#;

/// xorshift64*: deterministic inputs.
struct Rng(u64);

impl Rng {
    fn unit(&mut self) -> f32 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let x = self.0.wrapping_mul(0x2545_f491_4f6c_dd1d);
        (x >> 40) as f32 / (1u64 << 24) as f32
    }
}

fn floats(n: usize, seed: u64, lo: f32, hi: f32) -> Vec<u8> {
    let mut rng = Rng(seed | 1);
    (0..n)
        .flat_map(|_| (lo + (hi - lo) * rng.unit()).to_le_bytes())
        .collect()
}

fn i32v(x: i32) -> BArg {
    BArg::Val(x.to_le_bytes().to_vec())
}

fn f32v(x: f32) -> BArg {
    BArg::Val(x.to_le_bytes().to_vec())
}

fn benches() -> Vec<Bench> {
    vec![
        Bench {
            name: "saxpy",
            kernel: "saxpy",
            source: SOURCE,
            sizes: [16 << 20, 1 << 16, 1 << 18, 1 << 12],
            make: |n| Case {
                global: vec![n],
                local: Some(vec![256]),
                args: vec![
                    f32v(2.5),
                    BArg::Buf(floats(n, 1, -1.0, 1.0), Check::Input),
                    BArg::Buf(floats(n, 2, -1.0, 1.0), Check::F32(1e-5)),
                ],
                work: 12.0 * n as f64,
                unit: "GB/s",
            },
        },
        Bench {
            name: "sum",
            kernel: "sum",
            source: SOURCE,
            sizes: [16 << 20, 1 << 16, 1 << 16, 1 << 12],
            make: |n| Case {
                global: vec![n],
                local: Some(vec![256]),
                args: vec![
                    BArg::Buf(floats(n, 3, 0.0, 1.0), Check::Input),
                    BArg::Buf(vec![0; 4 * (n / 256)], Check::F32(1e-4)),
                    BArg::Local(256 * 4),
                ],
                work: 4.0 * n as f64,
                unit: "GB/s",
            },
        },
        Bench {
            name: "sgemm_naive",
            kernel: "sgemm_naive",
            source: SOURCE,
            sizes: [512, 64, 64, 16],
            make: |n| Case {
                global: vec![n, n],
                local: Some(vec![16, 16]),
                args: vec![
                    i32v(n as i32),
                    BArg::Buf(floats(n * n, 4, -1.0, 1.0), Check::Input),
                    BArg::Buf(floats(n * n, 5, -1.0, 1.0), Check::Input),
                    BArg::Buf(vec![0; 4 * n * n], Check::F32(1e-3)),
                ],
                work: 2.0 * (n as f64).powi(3),
                unit: "GFLOP/s",
            },
        },
        Bench {
            name: "sgemm_tiled",
            kernel: "sgemm_tiled",
            source: SOURCE,
            sizes: [1024, 64, 64, 16],
            make: |n| Case {
                global: vec![n, n],
                local: Some(vec![16, 16]),
                args: vec![
                    i32v(n as i32),
                    BArg::Buf(floats(n * n, 6, -1.0, 1.0), Check::Input),
                    BArg::Buf(floats(n * n, 7, -1.0, 1.0), Check::Input),
                    BArg::Buf(vec![0; 4 * n * n], Check::F32(1e-3)),
                ],
                work: 2.0 * (n as f64).powi(3),
                unit: "GFLOP/s",
            },
        },
        Bench {
            name: "stencil",
            kernel: "stencil",
            source: SOURCE,
            sizes: [4096, 256, 256, 64],
            make: |n| Case {
                global: vec![n, n],
                local: Some(vec![64, 4]),
                args: vec![
                    i32v(n as i32),
                    BArg::Buf(floats(n * n, 8, 0.0, 1.0), Check::Input),
                    BArg::Buf(vec![0; 4 * n * n], Check::F32(1e-5)),
                ],
                work: 8.0 * (n * n) as f64,
                unit: "GB/s",
            },
        },
        Bench {
            name: "histogram",
            kernel: "histogram",
            source: SOURCE,
            sizes: [16 << 20, 1 << 16, 1 << 18, 1 << 12],
            make: |n| {
                let mut rng = Rng(9);
                let data: Vec<u8> = (0..n).map(|_| (rng.unit() * 256.0) as u8).collect();
                Case {
                    global: vec![n],
                    local: Some(vec![256]),
                    args: vec![
                        BArg::Buf(data, Check::Input),
                        BArg::Buf(vec![0; 4 * 256], Check::U32(0.0)),
                    ],
                    work: n as f64,
                    unit: "GB/s",
                }
            },
        },
        Bench {
            name: "nbody",
            kernel: "nbody",
            source: SOURCE,
            sizes: [16 << 10, 1024, 1024, 256],
            make: |n| {
                let mut pos = floats(4 * n, 10, -1.0, 1.0);
                // Positive masses in w.
                for i in 0..n {
                    let m = 0.5f32 + (i % 7) as f32 * 0.1;
                    pos[16 * i + 12..16 * i + 16].copy_from_slice(&m.to_le_bytes());
                }
                Case {
                    global: vec![n],
                    local: Some(vec![64]),
                    args: vec![
                        i32v(n as i32),
                        f32v(0.01),
                        BArg::Buf(pos, Check::Input),
                        BArg::Buf(vec![0; 16 * n], Check::F32(1e-3)),
                    ],
                    work: 20.0 * (n as f64) * (n as f64),
                    unit: "GFLOP/s",
                }
            },
        },
        Bench {
            name: "mandelbrot",
            kernel: "mandelbrot",
            source: SOURCE,
            sizes: [4096, 128, 256, 64],
            make: |n| Case {
                global: vec![n, n],
                local: Some(vec![64, 4]),
                args: vec![
                    i32v(n as i32),
                    i32v(256),
                    BArg::Buf(vec![0; 4 * n * n], Check::U32(0.01)),
                ],
                work: (n * n) as f64,
                unit: "Mpix/s",
            },
        },
        Bench {
            name: "blackscholes",
            kernel: "blackscholes",
            source: SOURCE,
            sizes: [16 << 20, 1 << 14, 1 << 16, 1 << 12],
            make: |n| Case {
                global: vec![n],
                local: Some(vec![256]),
                args: vec![
                    f32v(0.02),
                    f32v(0.3),
                    BArg::Buf(floats(n, 11, 5.0, 30.0), Check::Input),
                    BArg::Buf(floats(n, 12, 1.0, 100.0), Check::Input),
                    BArg::Buf(floats(n, 13, 0.25, 10.0), Check::Input),
                    BArg::Buf(vec![0; 4 * n], Check::F32(1e-3)),
                    BArg::Buf(vec![0; 4 * n], Check::F32(1e-3)),
                ],
                work: n as f64,
                unit: "Mopt/s",
            },
        },
        Bench {
            name: "conv5x5",
            kernel: "conv5",
            source: SOURCE,
            sizes: [4096, 256, 256, 64],
            make: |n| Case {
                global: vec![n, n],
                local: Some(vec![64, 4]),
                args: vec![
                    i32v(n as i32),
                    BArg::Buf(floats(25, 14, 0.0, 0.08), Check::Input),
                    BArg::Buf(floats(n * n, 15, 0.0, 1.0), Check::Input),
                    BArg::Buf(vec![0; 4 * n * n], Check::F32(1e-4)),
                ],
                work: 50.0 * (n * n) as f64,
                unit: "GFLOP/s",
            },
        },
    ]
}

/// Timings of one engine on one case.
#[derive(Clone, Debug, Default)]
struct Timing {
    median_ns: f64,
    build_ms: f64,
    size: usize,
    /// Throughput in the case's unit.
    rate: f64,
    outputs: Vec<Vec<u8>>,
}

fn throughput(case: &Case, ns: f64) -> f64 {
    let scale = if case.unit.starts_with('M') { 1e6 } else { 1e9 };
    if ns <= 0.0 {
        return 0.0;
    }
    case.work / scale / (ns / 1e9)
}

fn median(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// Runs `bench` at `size` on an oxcl engine: one checked run, then `reps` timed runs.
fn run_oxcl(
    bench: &Bench,
    size: usize,
    engine: EngineKind,
    threads: usize,
    reps: usize,
) -> Result<Timing> {
    let case = (bench.make)(size);
    let context = Context::new(
        Platform::get()
            .devices()
            .into_iter()
            .next()
            .ok_or_else(|| anyhow!("no oxcl device"))?,
    );
    let t0 = Instant::now();
    let program = Program::from_source(&context, bench.source, "bench.cl");
    program
        .build("")
        .map_err(|e| anyhow!("build: {e}\n{}", program.build_log()))?;
    let build_ns = t0.elapsed().as_nanos() as f64;
    let kernel = program.kernel(bench.kernel)?;
    let mut buffers = Vec::new();
    for (i, arg) in case.args.iter().enumerate() {
        let index = i as u32;
        match arg {
            BArg::Buf(bytes, _) => {
                let b = Buffer::from_slice(&context, MemFlags::default(), bytes)?;
                kernel.set_arg_buffer(index, Some(&b))?;
                buffers.push(Some(b));
            }
            BArg::Val(bytes) => {
                kernel.set_arg_bytes(index, bytes)?;
                buffers.push(None);
            }
            BArg::Local(n) => {
                kernel.set_arg_local(index, *n)?;
                buffers.push(None);
            }
        }
    }
    let range = NdRange::new(&case.global, case.local.as_deref(), None);
    let queue = Queue::new(&context)
        .with_engine(engine)
        .with_threads(threads);
    let t1 = Instant::now();
    queue.nd_range(&kernel, &range)?;
    let first_ns = t1.elapsed().as_nanos() as f64;
    let outputs = buffers
        .iter()
        .map(|b| b.as_ref().map(Buffer::to_vec).unwrap_or_default())
        .collect();
    let mut times = Vec::new();
    for _ in 0..reps {
        let t = Instant::now();
        queue.nd_range(&kernel, &range)?;
        times.push(t.elapsed().as_nanos() as f64);
    }
    let med = if times.is_empty() {
        first_ns
    } else {
        median(times)
    };
    Ok(Timing {
        median_ns: med,
        build_ms: (build_ns + (first_ns - med).max(0.0)) / 1e6,
        size,
        rate: throughput(&case, med),
        outputs,
    })
}

const POCL_SCRIPT: &str = r#"
import sys, time
try:
    import numpy as np
    import pyopencl as cl
except ImportError as e:
    print(f"pyopencl/numpy not available: {e}", file=sys.stderr)
    sys.exit(3)
job = sys.argv[1]
src, kernel_name, glob, local, reps, args = None, None, None, None, 1, []
for line in open(job):
    key, _, rest = line.rstrip("\n").partition(" ")
    if key == "source": src = open(rest).read()
    elif key == "kernel": kernel_name = rest
    elif key == "global": glob = tuple(int(v) for v in rest.split(","))
    elif key == "local": local = tuple(int(v) for v in rest.split(","))
    elif key == "reps": reps = int(rest)
    elif key == "arg":
        kind, _, value = rest.partition(" ")
        args.append((kind, value))
platforms = [p for p in cl.get_platforms() if "Portable Computing Language" in p.name]
if not platforms:
    print("PoCL platform not found", file=sys.stderr)
    sys.exit(3)
ctx = cl.Context(platforms[0].get_devices())
queue = cl.CommandQueue(ctx, properties=cl.command_queue_properties.PROFILING_ENABLE)
t0 = time.perf_counter()
program = cl.Program(ctx, src).build()
kernel = getattr(program, kernel_name)
build = time.perf_counter() - t0
bufs = []
for i, (kind, value) in enumerate(args):
    if kind == "buffer":
        host = np.fromfile(value, dtype=np.uint8)
        buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=host)
        bufs.append((buf, host, value))
        kernel.set_arg(i, buf)
    elif kind == "value":
        kernel.set_arg(i, np.frombuffer(bytes.fromhex(value), dtype=np.uint8))
    else:
        kernel.set_arg(i, cl.LocalMemory(int(value)))
t1 = time.perf_counter()
cl.enqueue_nd_range_kernel(queue, kernel, glob, local).wait()
first = time.perf_counter() - t1
for buf, host, path in bufs:
    cl.enqueue_copy(queue, host, buf).wait()
    host.tofile(path + ".out")
times = []
for _ in range(reps):
    t = time.perf_counter()
    cl.enqueue_nd_range_kernel(queue, kernel, glob, local).wait()
    times.append(time.perf_counter() - t)
times.sort()
med = times[len(times) // 2] if times else first
print(f"build_ns {int((build + max(first - med, 0.0)) * 1e9)}")
print(f"median_ns {int(med * 1e9)}")
"#;

/// Runs `bench` on PoCL; `Ok(None)` when PoCL is not available.
fn run_pocl(bench: &Bench, size: usize, reps: usize, dir: &Path) -> Result<Option<Timing>> {
    let case = (bench.make)(size);
    std::fs::create_dir_all(dir)?;
    let script = dir.join("pocl_bench.py");
    std::fs::write(&script, POCL_SCRIPT)?;
    let source = dir.join("bench.cl");
    std::fs::write(&source, bench.source)?;
    let join = |v: &[usize]| v.iter().map(usize::to_string).collect::<Vec<_>>().join(",");
    let mut job = format!(
        "source {}\nkernel {}\nglobal {}\nreps {reps}\n",
        source.display(),
        bench.kernel,
        join(&case.global)
    );
    if let Some(local) = &case.local {
        job += &format!("local {}\n", join(local));
    }
    let mut paths = Vec::new();
    for (i, arg) in case.args.iter().enumerate() {
        match arg {
            BArg::Buf(bytes, _) => {
                let path = dir.join(format!("arg{i}.bin"));
                std::fs::write(&path, bytes)?;
                job += &format!("arg buffer {}\n", path.display());
                paths.push(Some(path));
            }
            BArg::Val(bytes) => {
                let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
                job += &format!("arg value {hex}\n");
                paths.push(None);
            }
            BArg::Local(n) => {
                job += &format!("arg local {n}\n");
                paths.push(None);
            }
        }
    }
    let job_path = dir.join("job.txt");
    std::fs::write(&job_path, job)?;
    let out = match Command::new("/usr/bin/python3")
        .arg(&script)
        .arg(&job_path)
        .env("POCL_KERNEL_CACHE", "0")
        .output()
    {
        Ok(out) => out,
        Err(_) => return Ok(None),
    };
    if out.status.code() == Some(3) {
        return Ok(None);
    }
    if !out.status.success() {
        bail!("PoCL failed: {}", String::from_utf8_lossy(&out.stderr));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let field = |name: &str| -> f64 {
        text.lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(0.0)
    };
    let med = field("median_ns");
    let mut outputs = Vec::new();
    for p in &paths {
        outputs.push(match p {
            Some(p) => std::fs::read(p.with_extension("bin.out"))?,
            None => Vec::new(),
        });
    }
    Ok(Some(Timing {
        median_ns: med,
        build_ms: field("build_ns") / 1e6,
        size,
        rate: throughput(&case, med),
        outputs,
    }))
}

/// The first disagreement between two engines' outputs, if any.
fn disagreement(case: &Case, a: &[Vec<u8>], b: &[Vec<u8>]) -> Option<String> {
    for (i, arg) in case.args.iter().enumerate() {
        let BArg::Buf(_, check) = arg else { continue };
        let (x, y) = (a.get(i)?, b.get(i)?);
        if x.len() != y.len() {
            return Some(format!("argument {i}: {} vs {} bytes", x.len(), y.len()));
        }
        match *check {
            Check::Input => {}
            Check::F32(rel) => {
                for (k, (p, q)) in x.chunks_exact(4).zip(y.chunks_exact(4)).enumerate() {
                    let p = f32::from_le_bytes([p[0], p[1], p[2], p[3]]) as f64;
                    let q = f32::from_le_bytes([q[0], q[1], q[2], q[3]]) as f64;
                    let scale = p.abs().max(q.abs()).max(1.0);
                    if (p - q).abs() > rel * scale || p.is_nan() != q.is_nan() {
                        return Some(format!("argument {i} element {k}: {p} vs {q}"));
                    }
                }
            }
            Check::U32(fraction) => {
                let n = x.len() / 4;
                let bad = x
                    .chunks_exact(4)
                    .zip(y.chunks_exact(4))
                    .filter(|(p, q)| p != q)
                    .count();
                if bad as f64 > fraction * n as f64 {
                    return Some(format!("argument {i}: {bad} of {n} elements differ"));
                }
            }
        }
    }
    None
}

/// Native Rust saxpy and sum over `n` floats on `threads` threads: (saxpy GB/s, sum GB/s).
fn native_limits(n: usize, threads: usize, reps: usize) -> (f64, f64) {
    let x: Vec<f32> = (0..n).map(|i| (i % 1000) as f32 * 0.001).collect();
    let mut y: Vec<f32> = vec![1.0; n];
    let chunk = n.div_ceil(threads.max(1));
    let mut saxpy = Vec::new();
    let mut sums = Vec::new();
    for _ in 0..reps.max(1) {
        let t = Instant::now();
        std::thread::scope(|s| {
            for (xs, ys) in x.chunks(chunk).zip(y.chunks_mut(chunk)) {
                s.spawn(move || {
                    for (yv, xv) in ys.iter_mut().zip(xs) {
                        *yv = 2.5 * xv + *yv;
                    }
                });
            }
        });
        saxpy.push(t.elapsed().as_nanos() as f64);
        let t = Instant::now();
        let total: f32 = std::thread::scope(|s| {
            let handles: Vec<_> = x
                .chunks(chunk)
                .map(|xs| {
                    s.spawn(move || {
                        // Eight accumulators so the loop vectorises.
                        let mut acc = [0f32; 8];
                        for c in xs.chunks_exact(8) {
                            for k in 0..8 {
                                acc[k] += c[k];
                            }
                        }
                        acc.iter().sum::<f32>()
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap_or(0.0)).sum()
        });
        std::hint::black_box(total);
        sums.push(t.elapsed().as_nanos() as f64);
    }
    std::hint::black_box(&y);
    let gbs = |bytes: f64, ns: f64| if ns > 0.0 { bytes / ns } else { 0.0 };
    (
        gbs(12.0 * n as f64, median(saxpy)),
        gbs(4.0 * n as f64, median(sums)),
    )
}

/// One benchmark's results.
struct Row {
    name: &'static str,
    unit: &'static str,
    jit: Option<Timing>,
    jit1: Option<Timing>,
    interp: Option<Timing>,
    pocl: Option<Timing>,
    agree: String,
}

pub fn run(args: &BenchArgs) -> Result<ExitCode> {
    if !args.warm_build {
        // Read by the JIT at each compilation; set before any thread of this process starts.
        std::env::set_var("OXCL_CACHE", "0");
    }
    let reps = args.reps.unwrap_or(if args.quick { 1 } else { 5 });
    let dir = std::env::temp_dir().join(format!("oxcl-bench-{}", std::process::id()));
    let mut rows = Vec::new();
    let mut failed = false;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    for bench in benches() {
        if args
            .only
            .as_deref()
            .is_some_and(|o| !bench.name.contains(o))
        {
            continue;
        }
        let size = if args.quick {
            bench.sizes[1]
        } else {
            bench.sizes[0]
        };
        let isize = if args.quick {
            bench.sizes[3]
        } else {
            bench.sizes[2]
        };
        if !args.json {
            eprintln!("running {} ...", bench.name);
        }
        let case = (bench.make)(size);
        let jit = run_oxcl(&bench, size, EngineKind::Jit, 0, reps)
            .with_context(|| format!("{}: oxcl jit", bench.name))?;
        let jit1 = if cores > 1 {
            Some(
                run_oxcl(&bench, size, EngineKind::Jit, 1, reps)
                    .with_context(|| format!("{}: oxcl jit, one thread", bench.name))?,
            )
        } else {
            None
        };
        let interp = if args.no_interp {
            None
        } else {
            Some(
                run_oxcl(&bench, isize, EngineKind::Interpreter, 0, reps.min(2))
                    .with_context(|| format!("{}: oxcl interpreter", bench.name))?,
            )
        };
        let pocl = if args.no_pocl {
            None
        } else {
            run_pocl(&bench, size, reps, &dir.join(bench.name))
                .with_context(|| format!("{}: PoCL", bench.name))?
        };
        let mut agree = Vec::new();
        if let Some(t) = &jit1 {
            if let Some(d) = disagreement(&case, &jit.outputs, &t.outputs) {
                agree.push(format!("jit(1 thread) differs: {d}"));
            }
        }
        if let Some(p) = &pocl {
            if let Some(d) = disagreement(&case, &jit.outputs, &p.outputs) {
                agree.push(format!("PoCL differs: {d}"));
            }
        }
        if let Some(i) = &interp {
            if i.size == size {
                if let Some(d) = disagreement(&case, &jit.outputs, &i.outputs) {
                    agree.push(format!("interpreter differs: {d}"));
                }
            } else if let Ok(small) = run_oxcl(&bench, isize, EngineKind::Jit, 0, 0) {
                let icase = (bench.make)(isize);
                if let Some(d) = disagreement(&icase, &small.outputs, &i.outputs) {
                    agree.push(format!("interpreter differs: {d}"));
                }
            }
        }
        failed |= !agree.is_empty();
        rows.push(Row {
            name: bench.name,
            unit: case.unit,
            jit: Some(jit),
            jit1,
            interp,
            pocl,
            agree: if agree.is_empty() {
                "ok".into()
            } else {
                agree.join("; ")
            },
        });
    }
    let native_n = if args.quick { 1 << 16 } else { 16 << 20 };
    let native_all = native_limits(native_n, cores, reps);
    let native_one = native_limits(native_n, 1, reps);
    let _ = std::fs::remove_dir_all(&dir);
    if args.json {
        println!("{}", json(&rows, native_all, native_one, cores));
    } else {
        print!("{}", table(&rows, native_all, native_one, cores));
    }
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

fn ratio(rows: &Row) -> Option<f64> {
    let (j, p) = (rows.jit.as_ref()?, rows.pocl.as_ref()?);
    (p.rate > 0.0).then(|| j.rate / p.rate)
}

fn table(rows: &[Row], native_all: (f64, f64), native_one: (f64, f64), cores: usize) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{:<13} {:>8} {:>11} {:>10} {:>10} {:>10} {:>10} {:>9} {:>9} {:>7}  {}",
        "benchmark",
        "unit",
        "jit ms",
        "jit",
        "jit 1core",
        "interp",
        "pocl",
        "jit bld",
        "pocl bld",
        "x pocl",
        "check"
    );
    let rate = |t: &Option<Timing>| {
        t.as_ref()
            .map_or("-".to_string(), |t| format!("{:.3}", t.rate))
    };
    let mut logs = Vec::new();
    for r in rows {
        let x = ratio(r);
        if let Some(x) = x {
            logs.push(x.ln());
        }
        let _ = writeln!(
            s,
            "{:<13} {:>8} {:>11.3} {:>10} {:>10} {:>10} {:>10} {:>9} {:>9} {:>7}  {}",
            r.name,
            r.unit,
            r.jit.as_ref().map_or(0.0, |t| t.median_ns / 1e6),
            rate(&r.jit),
            rate(&r.jit1),
            rate(&r.interp),
            rate(&r.pocl),
            r.jit
                .as_ref()
                .map_or("-".into(), |t| format!("{:.1}ms", t.build_ms)),
            r.pocl
                .as_ref()
                .map_or("-".into(), |t| format!("{:.1}ms", t.build_ms)),
            x.map_or("-".into(), |x| format!("{x:.2}")),
            r.agree
        );
    }
    if !logs.is_empty() {
        let g = (logs.iter().sum::<f64>() / logs.len() as f64).exp();
        let _ = writeln!(s, "geometric mean of jit/PoCL throughput: {g:.2}x");
    }
    let _ = writeln!(
        s,
        "native Rust bandwidth limit: saxpy {:.2} GB/s, sum {:.2} GB/s on {cores} cores; {:.2} / {:.2} GB/s on 1 core",
        native_all.0, native_all.1, native_one.0, native_one.1
    );
    s
}

fn json(rows: &[Row], native_all: (f64, f64), native_one: (f64, f64), cores: usize) -> String {
    let t = |t: &Option<Timing>| match t {
        Some(t) => format!(
            "{{\"size\":{},\"median_ms\":{:.6},\"rate\":{:.6},\"build_ms\":{:.3}}}",
            t.size,
            t.median_ns / 1e6,
            t.rate,
            t.build_ms
        ),
        None => "null".into(),
    };
    let items: Vec<String> = rows
        .iter()
        .map(|r| {
            format!(
                "{{\"name\":\"{}\",\"unit\":\"{}\",\"jit\":{},\"jit_1core\":{},\"interpreter\":{},\"pocl\":{},\"ratio_to_pocl\":{},\"check\":\"{}\"}}",
                r.name,
                r.unit,
                t(&r.jit),
                t(&r.jit1),
                t(&r.interp),
                t(&r.pocl),
                ratio(r).map_or("null".into(), |x| format!("{x:.4}")),
                r.agree.replace('\\', "\\\\").replace('"', "'")
            )
        })
        .collect();
    format!(
        "{{\"cores\":{cores},\"native\":{{\"saxpy_gbs\":{:.3},\"sum_gbs\":{:.3},\"saxpy_gbs_1core\":{:.3},\"sum_gbs_1core\":{:.3}}},\"benchmarks\":[{}]}}",
        native_all.0,
        native_all.1,
        native_one.0,
        native_one.1,
        items.join(",")
    )
}
