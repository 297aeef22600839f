//! `oxcl mathcheck --pocl`: the one-argument `float` functions evaluated by PoCL (through
//! pyopencl, as `oxcl bench` runs it) on the same arguments as oxcl's exhaustive mode (every
//! `stride`-th bit pattern from the same offset, or all 2^32), both measured with the same MPFR
//! reference, ULP measure and fast path ([`crate::sweep::Sweeper`]), side by side.
//!
//! A Python helper builds one kernel per function (`out[i] = f(as_float(in[i]))`), computes the
//! arguments of each chunk itself and streams the results to stdout: per function a status
//! byte (`K`: results follow, [`CHUNK`] floats at a time; `E`: a 4-byte little-endian length and
//! the build log follow, no results), so oxcl checks one chunk while PoCL computes the next.
//! Without python3, pyopencl or the PoCL platform the comparison is skipped with the reason.

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::Instant;

use crate::bound::Bound;
use crate::engine::{bound_of, report, CheckError, FunctionReport, Options, Tally};
use crate::estimate::estimator;
use crate::kind::Kind;
use crate::subject::{Input, Output, Shape, Subject};
use crate::sweep::{confirm_worst, Sweeper};

/// Arguments per chunk: 16M floats (64 MiB) per transfer.
pub const CHUNK: u64 = 1 << 24;

/// The Python helper: `python3 -c SCRIPT NAMES STRIDE OFFSET TOTAL CHUNK`.
pub const SCRIPT: &str = r#"
import sys, struct
try:
    import numpy as np
    import pyopencl as cl
except ImportError as e:
    print(f"pyopencl/numpy not available: {e}", file=sys.stderr)
    sys.exit(3)
names = sys.argv[1].split(",")
stride, offset, total, chunk = (int(v) for v in sys.argv[2:6])
platforms = [p for p in cl.get_platforms() if "Portable Computing Language" in p.name]
if not platforms:
    print("PoCL platform not found", file=sys.stderr)
    sys.exit(3)
ctx = cl.Context(platforms[0].get_devices())
queue = cl.CommandQueue(ctx)
out = sys.stdout.buffer
for name in names:
    src = ("__kernel void k(__global const uint *in, __global float *out) {"
           " size_t i = get_global_id(0); out[i] = %s(as_float(in[i])); }" % name)
    try:
        kernel = cl.Program(ctx, src).build().k
    except cl.RuntimeError as e:
        message = str(e).encode()
        out.write(b"E" + struct.pack("<I", len(message)) + message)
        out.flush()
        continue
    out.write(b"K")
    start = 0
    while start < total:
        n = min(chunk, total - start)
        bits = (np.arange(start, start + n, dtype=np.uint64) * stride + offset).astype(np.uint32)
        mf = cl.mem_flags
        src_buf = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=bits)
        dst_buf = cl.Buffer(ctx, mf.WRITE_ONLY, 4 * n)
        kernel(queue, (n,), None, src_buf, dst_buf)
        result = np.empty(n, dtype=np.float32)
        cl.enqueue_copy(queue, result, dst_buf).wait()
        out.write(result.astype("<f4").tobytes())
        start += n
    out.flush()
"#;

/// Why the comparison could not be made.
#[derive(Debug, thiserror::Error)]
pub enum PoclError {
    /// python3, pyopencl, numpy or the PoCL platform is missing: skip, with this reason.
    #[error("PoCL comparison skipped: {0}")]
    Unavailable(String),
    #[error("PoCL helper failed: {0}")]
    Failed(String),
    #[error(transparent)]
    Check(#[from] CheckError),
}

/// One function measured on both implementations over the same arguments.
#[derive(Clone, Debug)]
pub struct Comparison {
    pub oxcl: FunctionReport,
    /// `None` when PoCL could not build the function (the reason is in `pocl_error`).
    pub pocl: Option<FunctionReport>,
    pub pocl_error: Option<String>,
}

/// What a function's section of the helper's output starts with.
#[derive(Debug, PartialEq, Eq)]
pub enum Section {
    /// Results follow.
    Results,
    /// PoCL could not build the kernel: its message.
    BuildError(String),
}

/// Reads the header of one function's section from `stream`.
pub fn read_section(stream: &mut impl Read) -> std::io::Result<Section> {
    let mut tag = [0u8; 1];
    stream.read_exact(&mut tag)?;
    match tag[0] {
        b'K' => Ok(Section::Results),
        b'E' => {
            let mut length = [0u8; 4];
            stream.read_exact(&mut length)?;
            let mut message = vec![0u8; u32::from_le_bytes(length) as usize];
            stream.read_exact(&mut message)?;
            Ok(Section::BuildError(
                String::from_utf8_lossy(&message).into_owned(),
            ))
        }
        other => Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("unexpected section tag {other:#04x}"),
        )),
    }
}

/// The `float` results in `bytes` (little-endian), widened to `f64`.
pub fn decode_results(bytes: &[u8]) -> impl Iterator<Item = f64> + '_ {
    bytes
        .chunks_exact(4)
        .map(|b| f64::from(f32::from_le_bytes([b[0], b[1], b[2], b[3]])))
}

/// The subjects the comparison covers: one-argument `float` functions (`T f(T)`).
pub fn comparable(subject: &Subject) -> bool {
    subject.kind == Kind::Float && subject.shape == Shape::Unary
}

/// Evaluates `subjects` (those [`comparable`]) on oxcl and on PoCL over the arguments of
/// `options.stride` and `options.seed` (as [`crate::check_exhaustive`]), on `options.threads`
/// threads, and measures both against MPFR.
pub fn compare_with_pocl(
    subjects: &[Subject],
    options: &Options,
) -> Result<Vec<Comparison>, PoclError> {
    let subjects: Vec<&Subject> = subjects.iter().filter(|s| comparable(s)).collect();
    if subjects.is_empty() {
        return Ok(Vec::new());
    }
    let stride = options.stride.max(1);
    let offset = options.seed % stride;
    let total = ((1u64 << 32) - offset).div_ceil(stride);
    let names: Vec<&str> = subjects.iter().map(|s| s.name.as_str()).collect();
    // The system Python, where pyopencl is installed (as `oxcl bench` runs it).
    let python = if std::path::Path::new("/usr/bin/python3").exists() {
        "/usr/bin/python3"
    } else {
        "python3"
    };
    let mut child = Command::new(python)
        .arg("-c")
        .arg(SCRIPT)
        .arg(names.join(","))
        .arg(stride.to_string())
        .arg(offset.to_string())
        .arg(total.to_string())
        .arg(CHUNK.to_string())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| PoclError::Unavailable(format!("cannot run python3: {e}")))?;
    let mut stderr = child.stderr.take();
    let log = std::thread::spawn(move || {
        let mut text = String::new();
        if let Some(s) = &mut stderr {
            let _ = s.read_to_string(&mut text);
        }
        text
    });
    let outcome = match child.stdout.take() {
        Some(mut stdout) => run_sections(&subjects, options, offset, total, &mut stdout),
        None => Err(PoclError::Failed("no output pipe".to_string())),
    };
    let status = child.wait();
    let log = log.join().unwrap_or_default();
    match outcome {
        Err(PoclError::Failed(e)) => {
            let code = status.ok().and_then(|s| s.code());
            if code == Some(3) {
                Err(PoclError::Unavailable(log.trim().to_string()))
            } else {
                Err(PoclError::Failed(format!("{e}; {}", log.trim())))
            }
        }
        other => other,
    }
}

fn run_sections(
    subjects: &[&Subject],
    options: &Options,
    offset: u64,
    total: u64,
    stdout: &mut impl Read,
) -> Result<Vec<Comparison>, PoclError> {
    let lost = |e: std::io::Error| PoclError::Failed(format!("reading PoCL's results: {e}"));
    let mut comparisons = Vec::new();
    for (k, subject) in subjects.iter().enumerate() {
        let section = read_section(stdout).map_err(lost)?;
        if options.progress || options.log_functions {
            eprintln!(
                "[{}/{}] {} float: oxcl and PoCL on {total} arguments",
                k + 1,
                subjects.len(),
                subject.name
            );
        }
        match section {
            Section::BuildError(message) => {
                let oxcl = crate::check_exhaustive(subject, options)?;
                comparisons.push(Comparison {
                    oxcl,
                    pocl: None,
                    pocl_error: Some(message),
                });
            }
            Section::Results => {
                let (oxcl, pocl) = check_both(subject, options, offset, total, |bytes| {
                    stdout.read_exact(bytes).map_err(lost)
                })?;
                comparisons.push(Comparison {
                    oxcl,
                    pocl: Some(pocl),
                    pocl_error: None,
                });
            }
        }
    }
    Ok(comparisons)
}

/// Checks oxcl's results and the results `fill` reads (PoCL's, in argument order) of one
/// subject over `total` arguments.
fn check_both(
    subject: &Subject,
    options: &Options,
    offset: u64,
    total: u64,
    mut fill: impl FnMut(&mut [u8]) -> Result<(), PoclError>,
) -> Result<(FunctionReport, FunctionReport), PoclError> {
    let start = Instant::now();
    let bound: Bound = bound_of(subject, options)?;
    let stride = options.stride.max(1);
    let estimate = if options.prescreen {
        estimator(subject.kind, &subject.name, subject.shape)
    } else {
        None
    };
    let threads = options.threads.max(1);
    let mut sides: Vec<(Sweeper<'_>, Sweeper<'_>)> = (0..threads)
        .map(|_| {
            (
                Sweeper::new(subject, bound, estimate.as_ref(), options.histograms),
                Sweeper::new(subject, bound, estimate.as_ref(), options.histograms),
            )
        })
        .collect();
    let mut buffer = vec![0u8; (CHUNK.min(total) * 4) as usize];
    let mut first = 0u64;
    while first < total {
        let n = CHUNK.min(total - first);
        let bytes = &mut buffer[..(n * 4) as usize];
        fill(bytes)?;
        let bytes = &*bytes;
        let per_thread = n.div_ceil(threads as u64);
        let outcomes: Vec<Result<(), PoclError>> = std::thread::scope(|scope| {
            let handles: Vec<_> = sides
                .iter_mut()
                .enumerate()
                .map(|(t, (ours, theirs))| {
                    scope.spawn(move || {
                        let from = (t as u64 * per_thread).min(n);
                        let to = ((t as u64 + 1) * per_thread).min(n);
                        let slice = &bytes[(from * 4) as usize..(to * 4) as usize];
                        for (j, pocl) in (from..to).zip(decode_results(slice)) {
                            let x = subject.kind.from_bits(offset + (first + j) * stride);
                            let input = Input {
                                x: [x, 0.0, 0.0],
                                n: 0,
                            };
                            let got = (subject.eval)(&input);
                            let theirs_got = Output {
                                v: [pocl, 0.0],
                                k: 0,
                            };
                            ours.check(x, &got)?;
                            theirs.check(x, &theirs_got)?;
                        }
                        Ok(())
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join().unwrap_or_else(|_| {
                        Err(PoclError::Failed("a checking thread panicked".to_string()))
                    })
                })
                .collect()
        });
        for outcome in outcomes {
            outcome?;
        }
        first += n;
    }
    let (mut ours, mut theirs) = (
        Tally::new(options.histograms),
        Tally::new(options.histograms),
    );
    for (a, b) in sides {
        ours.merge(a.tally);
        theirs.merge(b.tally);
    }
    if estimate.is_some() {
        confirm_worst(subject, &mut ours)?;
        confirm_worst(subject, &mut theirs)?;
    }
    Ok((
        report(subject, bound, ours, stride == 1, start),
        report(subject, bound, theirs, stride == 1, start),
    ))
}

/// The comparison as a table: per function the bound, then oxcl's and PoCL's max error, the
/// argument where it occurs and the count above 0.5 ulp.
pub fn table(comparisons: &[Comparison]) -> String {
    use crate::report::format_input;
    let mut out = format!(
        "{:<14} {:>6} {:>11} | {:>9} {:<15} {:>9} {:>7} {:>4} | {:>9} {:<15} {:>9} {:>7} {:>4}\n",
        "function",
        "bound",
        "tried",
        "oxcl ulp",
        "at",
        ">0.5 ulp",
        "special",
        "ok",
        "PoCL ulp",
        "at",
        ">0.5 ulp",
        "special",
        "ok"
    );
    let side = |r: &FunctionReport| {
        let at = r
            .worst
            .as_ref()
            .map(|(i, _)| format_input(r.kind, r.shape, i))
            .unwrap_or_default();
        let verdict = if r.passed() { "pass" } else { "FAIL" };
        format!(
            "{:>9} {:<15} {:>9} {:>7} {:>4}",
            error_text(r.max_error),
            at,
            r.misrounded,
            r.special_failures,
            verdict
        )
    };
    let mut notes = Vec::new();
    for c in comparisons {
        let pocl = match (&c.pocl, &c.pocl_error) {
            (Some(r), _) => side(r),
            (None, Some(e)) => format!("not built: {}", e.lines().next().unwrap_or("")),
            (None, None) => String::new(),
        };
        out.push_str(&format!(
            "{:<14} {:>6} {:>11} | {} | {}\n",
            c.oxcl.name,
            c.oxcl.bound.to_string(),
            c.oxcl.tried,
            side(&c.oxcl),
            pocl
        ));
        for (who, r) in [("oxcl", Some(&c.oxcl)), ("PoCL", c.pocl.as_ref())] {
            if let Some((input, message)) = r.and_then(|r| r.first_special.as_ref()) {
                notes.push(format!(
                    "  {who} {}({}): {message}\n",
                    c.oxcl.name,
                    format_input(Kind::Float, Shape::Unary, input)
                ));
            }
        }
    }
    if !notes.is_empty() {
        out.push_str("first edge-case failure (002 \"Edge Case Behavior\"):\n");
        out.extend(notes);
    }
    out
}

/// The comparison as JSON: `{"comparisons": [{"function", "oxcl": {...}, "pocl": {...} or
/// null, "pocl_error"}]}`, each side as a function of [`crate::report::json`].
pub fn json(comparisons: &[Comparison]) -> serde_json::Value {
    let side =
        |r: &FunctionReport| crate::report::json(std::slice::from_ref(r))["functions"][0].take();
    let rows: Vec<serde_json::Value> = comparisons
        .iter()
        .map(|c| {
            serde_json::json!({
                "function": c.oxcl.name,
                "oxcl": side(&c.oxcl),
                "pocl": c.pocl.as_ref().map(side),
                "pocl_error": c.pocl_error,
            })
        })
        .collect();
    serde_json::json!({ "comparisons": rows })
}

fn error_text(e: f64) -> String {
    if e.is_infinite() {
        "inf".to_string()
    } else if e >= 1e5 {
        format!("{e:.2e}")
    } else {
        format!("{e:.3}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_are_parsed() {
        let mut ok: &[u8] = b"K\x00\x00\x80\x3f";
        assert_eq!(read_section(&mut ok).expect("read"), Section::Results);
        // What follows the tag: 1.0f32 in little-endian.
        assert_eq!(decode_results(ok).collect::<Vec<_>>(), vec![1.0]);
        let mut error: &[u8] = b"E\x05\x00\x00\x00oops!K";
        assert_eq!(
            read_section(&mut error).expect("read"),
            Section::BuildError("oops!".to_string())
        );
        assert_eq!(error, b"K");
        assert!(read_section(&mut &b"X"[..]).is_err());
        assert!(read_section(&mut &b"E\x09\x00\x00\x00short"[..]).is_err());
        assert!(read_section(&mut &b""[..]).is_err());
    }

    #[test]
    fn results_decode_in_order() {
        // -2.5 = 0xc0200000, +inf = 0x7f800000, the smallest subnormal = 0x00000001.
        let bytes = [
            0x00, 0x00, 0x20, 0xc0, 0x00, 0x00, 0x80, 0x7f, 0x01, 0x00, 0x00, 0x00,
        ];
        let values: Vec<f64> = decode_results(&bytes).collect();
        assert_eq!(values, vec![-2.5, f64::INFINITY, 2f64.powi(-149)]);
    }
}
