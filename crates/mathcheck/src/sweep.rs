//! The exhaustive mode: every argument (or every `stride`-th bit pattern) of a one-argument
//! `float` or `half` function, spread over threads in large chunks. Each result goes through a
//! [`Sweeper`]: the `f64` estimate of [`crate::estimate`] decides most `float` inputs, NaN
//! arguments reuse the MPFR verdict of an earlier NaN with the same sign and the same output,
//! and only the rest is decided by MPFR.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::bound::Bound;
use crate::engine::{bound_of, check_output, count_against_allowance, mpfr_verdict, report, Tally};
use crate::engine::{CheckError, FunctionReport, Options};
use crate::estimate::{decide, estimator, Estimator, MARGIN};
use crate::kind::Kind;
use crate::measure::Verdict;
use crate::subject::{Input, Output, Shape, Subject};

/// Whether the exhaustive mode can try every argument of `subject`: the functions of one real
/// argument (also those with a second result, fract/modf/sincos/frexp/lgamma_r, and ilogb) of
/// `float` and `half`.
pub fn can_exhaust(subject: &Subject) -> bool {
    matches!(
        subject.shape,
        Shape::Unary | Shape::Pair | Shape::WithInt | Shape::IntResult
    ) && subject.kind != Kind::Double
}

/// Inputs per work unit of the exhaustive mode.
pub const CHUNK: u64 = 1 << 17;

/// A MPFR verdict for NaN arguments: (sign of the argument, output with NaNs made canonical).
type NanKey = (bool, [u64; 2], i32);

fn nan_key(x: f64, got: &Output) -> NanKey {
    let canonical = |v: f64| if v.is_nan() { u64::MAX } else { v.to_bits() };
    (
        x.is_sign_negative(),
        [canonical(got.v[0]), canonical(got.v[1])],
        got.k,
    )
}

/// Checks the results of one one-argument subject, input by input, into a [`Tally`].
pub(crate) struct Sweeper<'a> {
    subject: &'a Subject,
    bound: Bound,
    estimator: Option<&'a Estimator>,
    pub(crate) tally: Tally,
    nan_verdicts: Vec<(NanKey, Verdict)>,
    /// Inputs decided by MPFR.
    pub(crate) mpfr_calls: u64,
}

impl<'a> Sweeper<'a> {
    pub(crate) fn new(
        subject: &'a Subject,
        bound: Bound,
        estimator: Option<&'a Estimator>,
        histograms: bool,
    ) -> Sweeper<'a> {
        Sweeper {
            subject,
            bound,
            estimator,
            tally: Tally::new(histograms),
            nan_verdicts: Vec::new(),
            mpfr_calls: 0,
        }
    }

    /// Checks the output `got` for the argument `x`.
    pub(crate) fn check(&mut self, x: f64, got: &Output) -> Result<(), CheckError> {
        let kind = self.subject.kind;
        let input = Input {
            x: [x, 0.0, 0.0],
            n: 0,
        };
        if let Bound::Relaxed(rule) = self.bound {
            // Outside the row's domain any result is accepted: no reference needed.
            if !rule.in_domain(&input, self.subject.shape) {
                self.tally.add_undefined();
                return Ok(());
            }
        }
        if let Some(estimate) = self.estimator {
            let estimate = estimate(x);
            if let Some(error) = decide(kind, x, got, &estimate) {
                let verdict = Verdict {
                    error,
                    special: None,
                };
                let Bound::Relaxed(rule) = self.bound else {
                    self.tally.add(kind, &input, got, verdict);
                    return Ok(());
                };
                // A relaxed row: its allowance from the estimate too, unless the estimated error
                // is within the estimate's margin of it (then MPFR decides).
                let shape = self.subject.shape;
                match rule.allowed_ulps_estimated(kind, shape, &input, estimate.values[0]) {
                    Some(None) => {
                        self.tally.add_undefined();
                        return Ok(());
                    }
                    // Clearly within the smaller allowance or beyond the larger one (counted
                    // against the smaller: the larger fraction).
                    Some(Some((low, high))) if error <= low - MARGIN || error >= high + MARGIN => {
                        count_against_allowance(&mut self.tally, &input, error, low);
                        self.tally.add(kind, &input, got, verdict);
                        return Ok(());
                    }
                    _ => {}
                }
            }
        }
        if x.is_nan() {
            let key = nan_key(x, got);
            let verdict = match self.nan_verdicts.iter().find(|(k, _)| *k == key) {
                Some((_, v)) => v.clone(),
                None => {
                    self.mpfr_calls += 1;
                    let v = mpfr_verdict(self.subject, &input, got)?;
                    self.nan_verdicts.push((key, v.clone()));
                    v
                }
            };
            // A relaxed allowance may depend on the argument: reused there only when the
            // result is right (error 0, which no allowance can exceed).
            let relaxed = matches!(self.bound, Bound::Relaxed(_));
            if !relaxed || (verdict.error == 0.0 && verdict.special.is_none()) {
                self.tally.add(kind, &input, got, verdict);
                return Ok(());
            }
        }
        self.mpfr_calls += 1;
        check_output(self.subject, self.bound, &input, got, &mut self.tally)
    }
}

/// Makes the largest error of `tally` MPFR's where an estimate decided it (the estimate is
/// within [`crate::estimate::MARGIN`] of it).
pub(crate) fn confirm_worst(subject: &Subject, tally: &mut Tally) -> Result<(), CheckError> {
    if let Some((input, got)) = tally.worst {
        let verdict = mpfr_verdict(subject, &input, &got)?;
        tally.max_error = if verdict.error.is_nan() {
            f64::INFINITY
        } else {
            verdict.error
        };
    }
    Ok(())
}

#[cfg(target_os = "linux")]
mod cpu {
    extern "C" {
        pub fn clock_gettime(clock: i32, time: *mut [i64; 2]) -> i32;
    }
    /// Linux's CLOCK_THREAD_CPUTIME_ID.
    pub const THREAD_CPU: i32 = 3;
}

/// The CPU time of the calling thread in seconds (0 where unknown): the figure of speed that a
/// busy machine does not distort.
pub fn thread_cpu_seconds() -> f64 {
    #[cfg(target_os = "linux")]
    {
        let mut time = [0i64; 2];
        // SAFETY: `time` has the layout of a 64-bit `struct timespec`.
        if unsafe { cpu::clock_gettime(cpu::THREAD_CPU, &mut time) } == 0 {
            return time[0] as f64 + time[1] as f64 * 1e-9;
        }
    }
    0.0
}

/// Tries every argument (every `options.stride`-th) of a one-argument `float` or `half`
/// function on `options.threads` threads.
pub fn check_exhaustive(
    subject: &Subject,
    options: &Options,
) -> Result<FunctionReport, CheckError> {
    let start = Instant::now();
    let bound = bound_of(subject, options)?;
    let stride = options.stride.max(1);
    let offset = options.seed % stride;
    let patterns: u64 = 1 << subject.kind.bits();
    // Inputs tried: bit patterns offset, offset + stride, … below 2^bits.
    let total: u64 = (patterns - offset).div_ceil(stride);
    let chunks = total.div_ceil(CHUNK);
    let next_chunk = AtomicU64::new(0);
    let done = AtomicU64::new(0);
    let mpfr_calls = AtomicU64::new(0);
    let cpu_nanoseconds = AtomicU64::new(0);
    // Relaxed allowances are judged from the estimate too (`Sweeper::check`).
    let estimator = if !options.prescreen {
        None
    } else {
        estimator(subject.kind, &subject.name, subject.shape)
    };
    let threads = options.threads.max(1);
    let results: Mutex<Vec<Result<Tally, CheckError>>> = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let cpu_start = thread_cpu_seconds();
                let mut sweeper =
                    Sweeper::new(subject, bound, estimator.as_ref(), options.histograms);
                let outcome = loop {
                    let chunk = next_chunk.fetch_add(1, Ordering::Relaxed);
                    if chunk >= chunks {
                        break Ok(());
                    }
                    let mut failed = None;
                    let end = ((chunk + 1) * CHUNK).min(total);
                    for index in chunk * CHUNK..end {
                        let x = subject.kind.from_bits(offset + index * stride);
                        let input = Input {
                            x: [x, 0.0, 0.0],
                            n: 0,
                        };
                        let got = (subject.eval)(&input);
                        if let Err(e) = sweeper.check(x, &got) {
                            failed = Some(e);
                            break;
                        }
                    }
                    done.fetch_add(end - chunk * CHUNK, Ordering::Relaxed);
                    if let Some(e) = failed {
                        break Err(e);
                    }
                };
                mpfr_calls.fetch_add(sweeper.mpfr_calls, Ordering::Relaxed);
                let cpu = (thread_cpu_seconds() - cpu_start) * 1e9;
                cpu_nanoseconds.fetch_add(cpu as u64, Ordering::Relaxed);
                results
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .push(outcome.map(|()| sweeper.tally));
            });
        }
        if options.progress {
            show_progress(subject, &done, total, threads, &results, start);
        }
    });
    let mut merged = Tally::new(options.histograms);
    for result in results.into_inner().unwrap_or_else(|p| p.into_inner()) {
        merged.merge(result?);
    }
    if estimator.is_some() {
        confirm_worst(subject, &mut merged)?;
    }
    if options.progress || options.log_functions {
        let seconds = start.elapsed().as_secs_f64();
        eprintln!(
            "{} {}: {} inputs in {:.1} s, {:.1} ns of CPU per input, {} decided by MPFR",
            subject.name,
            subject.kind.name(),
            total,
            seconds,
            cpu_nanoseconds.load(Ordering::Relaxed) as f64 / total.max(1) as f64,
            mpfr_calls.load(Ordering::Relaxed)
        );
    }
    Ok(report(subject, bound, merged, stride == 1, start))
}

/// The progress line of one exhaustive run, once a second until every thread is done.
fn show_progress<T>(
    subject: &Subject,
    done: &AtomicU64,
    total: u64,
    threads: usize,
    results: &Mutex<Vec<T>>,
    start: Instant,
) {
    let mut last = Instant::now();
    while done.load(Ordering::Relaxed) < total && results.lock().map_or(0, |r| r.len()) < threads {
        std::thread::sleep(Duration::from_millis(100));
        if last.elapsed() >= Duration::from_secs(1) {
            last = Instant::now();
            let d = done.load(Ordering::Relaxed).min(total);
            let elapsed = start.elapsed().as_secs_f64();
            let eta = if d > 0 {
                elapsed * (total - d) as f64 / d as f64
            } else {
                0.0
            };
            eprint!(
                "\r{} {}: {:5.1}% ({} of {}), {:.0} s, about {:.0} s left   ",
                subject.name,
                subject.kind.name(),
                100.0 * d as f64 / total as f64,
                d,
                total,
                elapsed,
                eta
            );
        }
    }
    eprint!("\r{:78}\r", "");
}
