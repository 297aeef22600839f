//! `oxcl run`: build a program, set arguments from the command line, run a kernel, write
//! buffers back as `.npy` and images as `.png`.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{anyhow, bail, Context, Result};

use crate::argspec::{self, ArgSpec};
use crate::image_io::{self, ImageData};
use crate::npy::Npy;

#[derive(clap::Args)]
pub struct RunArgs {
    /// An OpenCL C source (.cl) or SPIR-V module (.spv).
    file: PathBuf,
    /// The kernel to run.
    #[arg(long)]
    kernel: String,
    /// Global size: X[,Y[,Z]].
    #[arg(long)]
    global: String,
    /// Work-group size: X[,Y[,Z]] (default: chosen by oxcl).
    #[arg(long)]
    local: Option<String>,
    /// Global offset: X[,Y[,Z]].
    #[arg(long)]
    offset: Option<String>,
    /// Build options.
    #[arg(long, allow_hyphen_values = true)]
    options: Option<String>,
    /// One per kernel argument, in order: TYPE:VALUE, @PATH.npy, zeros:TYPE:COUNT, local:BYTES,
    /// image:PATH.png (a 2D image read from a PNG: gray → R, gray+alpha → RA, RGB/RGBA → RGBA;
    /// UNORM_INT8 or, for 16-bit PNGs, UNORM_INT16), image:WIDTHxHEIGHT:FORMAT (a zeroed 2D
    /// image; FORMAT is r8, ra8, rgba8, bgra8, r16, rgba16, r32f, rgba32f, rgba16f, r8ui,
    /// rgba8ui, r32ui, rgba32ui, r32i or rgba32i), sampler:COORDS,ADDRESSING,FILTER (normalized
    /// or unnormalized; none, clamp_to_edge, clamp, repeat or mirrored_repeat; nearest or
    /// linear), pipe:PACKET_BYTES:MAX_PACKETS (an empty pipe).
    #[arg(long = "arg", allow_hyphen_values = true)]
    args: Vec<String>,
    /// Write argument INDEX after the run: INDEX=PATH.npy for a buffer, INDEX=PATH.png for an
    /// image (8- and 16-bit normalized formats as stored, others as RGBA 8-bit).
    #[arg(long = "out")]
    outs: Vec<String>,
    /// Print buffer argument INDEX after the run.
    #[arg(long = "show")]
    shows: Vec<usize>,
    /// Run the kernel N times (each on the initial buffer contents) and report the median time.
    #[arg(long, default_value_t = 1)]
    repeat: usize,
    /// Worker threads (default: all cores).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Run on the interpreter in checked mode: also report data races between the work-items
    /// of a work-group on `__local` and `__global` memory (out-of-bounds accesses and barrier
    /// divergence are errors on every engine). Programs using liboxcl.so get the same with
    /// `OXCL_ENGINE=checked`.
    #[arg(long)]
    check: bool,
}

fn parse_dims(text: &str, what: &str) -> Result<Vec<usize>> {
    let dims: Vec<usize> = text
        .split(',')
        .map(|d| {
            d.trim()
                .parse::<usize>()
                .with_context(|| format!("bad --{what} `{text}`"))
        })
        .collect::<Result<_>>()?;
    if dims.is_empty() || dims.len() > 3 {
        bail!("--{what} takes 1 to 3 sizes, got `{text}`");
    }
    Ok(dims)
}

pub fn run(args: &RunArgs) -> Result<ExitCode> {
    let platform = runtime::Platform::get();
    let device = platform.devices().remove(0);
    let context = runtime::Context::new(device);
    let is_spirv = args.file.extension().is_some_and(|e| e == "spv");
    let program = if is_spirv {
        let il = std::fs::read(&args.file)
            .with_context(|| format!("reading {}", args.file.display()))?;
        runtime::Program::from_il(&context, &il)?
    } else {
        let source = std::fs::read_to_string(&args.file)
            .with_context(|| format!("reading {}", args.file.display()))?;
        runtime::Program::from_source(&context, &source, &args.file.display().to_string())
    };
    if let Err(error) = program.build(args.options.as_deref().unwrap_or("")) {
        match error {
            runtime::Error::BuildProgramFailure(log) => {
                eprint!("{log}");
                return Ok(ExitCode::FAILURE);
            }
            other => return Err(other.into()),
        }
    }
    eprint!("{}", program.build_log());
    let kernel = program.kernel(&args.kernel)?;
    if args.args.len() != kernel.num_args() as usize {
        bail!(
            "kernel `{}` takes {} arguments, {} given with --arg",
            args.kernel,
            kernel.num_args(),
            args.args.len()
        );
    }

    // Set the arguments, keeping each buffer with its initial contents and array shape.
    let mut buffers: Vec<Option<(runtime::Buffer, Npy)>> = Vec::new();
    let mut images: Vec<Option<(runtime::Image, ImageData)>> = Vec::new();
    for (index, spec) in args.args.iter().enumerate() {
        let index_u32 = index as u32;
        let info = kernel.arg_info(index_u32)?;
        let spec = argspec::parse(spec).with_context(|| format!("--arg {index}"))?;
        let mut buffer = None;
        let mut image = None;
        match (spec, info.kind) {
            (ArgSpec::Image(data), runtime::ArgKind::Image) => {
                let i = runtime::Image::new(
                    &context,
                    runtime::ImageAccess::ReadWrite,
                    data.format,
                    runtime::ImageShape {
                        image_type: runtime::ImageType::Image2D,
                        width: data.width,
                        height: data.height,
                        depth: 1,
                        array_size: 1,
                    },
                    runtime::ImageSource::Copy(&data.data, runtime::HostPitches::default()),
                )
                .with_context(|| format!("--arg {index}"))?;
                kernel.set_arg_image(index_u32, &i)?;
                image = Some((i, data));
            }
            (ArgSpec::Sampler(sampler), runtime::ArgKind::Sampler) => {
                kernel.set_arg_sampler(index_u32, &sampler)?;
            }
            (ArgSpec::Buffer(npy), runtime::ArgKind::Global | runtime::ArgKind::Constant) => {
                let b =
                    runtime::Buffer::from_slice(&context, runtime::MemFlags::default(), &npy.data)
                        .with_context(|| format!("--arg {index}"))?;
                kernel.set_arg_buffer(index_u32, Some(&b))?;
                buffer = Some((b, npy));
            }
            (
                ArgSpec::Value { bytes, .. },
                runtime::ArgKind::Value { .. } | runtime::ArgKind::Sampler,
            ) => {
                kernel
                    .set_arg_bytes(index_u32, &bytes)
                    .with_context(|| format!("--arg {index} ({})", info.type_name))?;
            }
            (ArgSpec::Local(size), runtime::ArgKind::Local) => {
                kernel.set_arg_local(index_u32, size)?
            }
            (
                ArgSpec::Pipe {
                    packet_size,
                    max_packets,
                },
                runtime::ArgKind::Pipe { .. },
            ) => {
                let pipe = runtime::Pipe::new(
                    &context,
                    runtime::MemFlags::default(),
                    packet_size,
                    max_packets,
                )
                .with_context(|| format!("--arg {index}"))?;
                kernel.set_arg_pipe(index_u32, &pipe)?;
            }
            (spec, kind) => bail!(
                "--arg {index}: {} given for argument `{}` which is {}",
                match spec {
                    ArgSpec::Buffer(_) => "a buffer",
                    ArgSpec::Value { .. } => "a value",
                    ArgSpec::Local(_) => "local memory",
                    ArgSpec::Image(_) => "an image",
                    ArgSpec::Sampler(_) => "a sampler",
                    ArgSpec::Pipe { .. } => "a pipe",
                },
                info.name,
                match kind {
                    runtime::ArgKind::Global =>
                        "a __global pointer (use @FILE.npy or zeros:TYPE:COUNT)".to_string(),
                    runtime::ArgKind::Constant =>
                        "a __constant pointer (use @FILE.npy or zeros:TYPE:COUNT)".to_string(),
                    runtime::ArgKind::Local => "a __local pointer (use local:BYTES)".to_string(),
                    runtime::ArgKind::Value { size } =>
                        format!("a value of {size} bytes (use TYPE:VALUE)"),
                    runtime::ArgKind::Sampler =>
                        "a sampler (use sampler:COORDS,ADDRESSING,FILTER)".to_string(),
                    runtime::ArgKind::Image =>
                        "an image (use image:PATH.png or image:WIDTHxHEIGHT:FORMAT)".to_string(),
                    runtime::ArgKind::Pipe { .. } =>
                        "a pipe (use pipe:PACKET_BYTES:MAX_PACKETS)".to_string(),
                }
            ),
        }
        buffers.push(buffer);
        images.push(image);
    }

    let global = parse_dims(&args.global, "global")?;
    let local = args
        .local
        .as_deref()
        .map(|l| parse_dims(l, "local"))
        .transpose()?;
    let offset = args
        .offset
        .as_deref()
        .map(|o| parse_dims(o, "offset"))
        .transpose()?;
    if local.as_ref().is_some_and(|l| l.len() != global.len())
        || offset.as_ref().is_some_and(|o| o.len() != global.len())
    {
        bail!("--global, --local and --offset must have the same number of dimensions");
    }
    let range = runtime::NdRange::new(&global, local.as_deref(), offset.as_deref());
    let mut queue = runtime::Queue::new(&context).with_threads(args.threads);
    if args.check {
        queue = queue.with_engine(runtime::EngineKind::Checked);
    }
    // A default device queue, so kernels can enqueue children (device-side enqueue); kept
    // alive for the whole run.
    let _device_queue = runtime::DeviceQueue::new(&context, None, true).ok();
    let mut times = Vec::new();
    for repeat in 0..args.repeat.max(1) {
        if repeat > 0 {
            for (b, npy) in buffers.iter().flatten() {
                b.write(0, &npy.data)?;
            }
            for (i, data) in images.iter().flatten() {
                i.write(
                    [0; 3],
                    i.full_region(),
                    &data.data,
                    runtime::HostPitches::default(),
                )?;
            }
        }
        let event = queue.nd_range(&kernel, &range)?;
        times.push(event.duration_ns());
    }
    times.sort_unstable();
    let median = times[times.len() / 2];
    println!(
        "kernel {}: global {:?}, {} run(s), median {:.3} ms",
        args.kernel,
        global,
        times.len(),
        median as f64 / 1e6
    );

    for out in &args.outs {
        let (index, path) = out
            .split_once('=')
            .ok_or_else(|| anyhow!("--out takes INDEX=PATH.npy, got `{out}`"))?;
        let index: usize = index
            .parse()
            .with_context(|| format!("bad index in --out `{out}`"))?;
        if let Some((image, data)) = images.get(index).and_then(|i| i.as_ref()) {
            if !path.to_ascii_lowercase().ends_with(".png") {
                bail!("--out {index}: argument {index} is an image, written as INDEX=PATH.png");
            }
            let result = ImageData {
                data: image.to_vec()?,
                ..data.clone()
            };
            let bytes = image_io::encode_png(&result)?;
            std::fs::write(path, bytes).with_context(|| format!("writing {path}"))?;
            println!(
                "wrote argument {index} to {path} ({}x{} image)",
                data.width, data.height
            );
            continue;
        }
        let (b, npy) = buffers
            .get(index)
            .and_then(|b| b.as_ref())
            .ok_or_else(|| anyhow!("--out {index}: argument {index} is not a buffer"))?;
        let result = Npy {
            data: b.to_vec(),
            ..npy.clone()
        };
        std::fs::write(path, result.to_bytes()).with_context(|| format!("writing {path}"))?;
        println!(
            "wrote argument {index} to {path} ({}, shape {:?})",
            npy.descr, npy.shape
        );
    }
    for &index in &args.shows {
        let (b, npy) = buffers
            .get(index)
            .and_then(|b| b.as_ref())
            .ok_or_else(|| anyhow!("--show {index}: argument {index} is not a buffer"))?;
        println!(
            "argument {index}: {}",
            format_values(&npy.descr, &b.to_vec(), 32)
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The first `max` elements of raw data of a dtype, as text.
fn format_values(descr: &str, data: &[u8], max: usize) -> String {
    let size = crate::npy::dtype_size(descr).unwrap_or(1);
    let count = data.len() / size;
    let mut parts: Vec<String> = data
        .chunks_exact(size)
        .take(max)
        .map(|c| {
            let mut b = [0u8; 8];
            b[..size].copy_from_slice(c);
            let u = u64::from_le_bytes(b);
            match &descr[1..] {
                "i1" => (u as u8 as i8).to_string(),
                "i2" => (u as u16 as i16).to_string(),
                "i4" => (u as u32 as i32).to_string(),
                "i8" => (u as i64).to_string(),
                "f2" => half::f16::from_bits(u as u16).to_string(),
                "f4" => f32::from_bits(u as u32).to_string(),
                "f8" => f64::from_bits(u).to_string(),
                _ => u.to_string(),
            }
        })
        .collect();
    if count > max {
        parts.push(format!("… ({count} elements)"));
    }
    format!("[{}]", parts.join(", "))
}
