//! Running the checks: every input of a subject is evaluated by devlib and by the MPFR
//! reference and compared ([`measure::compare`]); results are tallied per subject. The quick
//! mode spreads subjects over threads; the exhaustive mode spreads the 2^32 `float` (or 2^16
//! `half`) arguments of one one-argument function over threads, with a progress line on stderr.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use crate::bound::{bound, Bound};
use crate::inputs::{fixed_inputs, random_input, Rng};
use crate::kind::Kind;
use crate::measure::{compare, Verdict};
use crate::reference::reference;
use crate::subject::{Input, Output, Shape, Subject};

/// How to check.
#[derive(Clone, Debug)]
pub struct Options {
    /// Random inputs per function, on top of the special values and hard cases.
    pub samples: usize,
    /// Seed of the random inputs (each function derives its own stream from it).
    pub seed: u64,
    /// Try every argument of one-argument `float` and `half` functions.
    pub exhaustive: bool,
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Collect the error distribution for plots.
    pub histograms: bool,
    /// Print progress on stderr: a live line (`\r`), for terminals.
    pub progress: bool,
    /// Print a line per exhaustive function on stderr as it starts and ends (also into logs).
    pub log_functions: bool,
    /// Exhaustive results are saved to this file and taken from it when already there.
    pub resume: Option<std::path::PathBuf>,
    /// In the exhaustive mode, random inputs per function that cannot be exhausted (`double`,
    /// two and three arguments): the denser sampling of that mode.
    pub dense_samples: usize,
    /// The exhaustive mode tries every `stride`-th bit pattern (1: all of them), from an
    /// offset below `stride` derived from the seed: a dense sample evenly spread over every
    /// binade, for re-checks that cannot afford all 2^32 arguments.
    pub stride: u64,
    /// Check `float` against 002's `-cl-unsafe-math-optimizations` table where it has a row
    /// (per-input allowances, see [`crate::relaxed`]); every other bound stays.
    pub relaxed: bool,
    /// In the exhaustive mode, let the `f64` estimates of [`crate::estimate`] decide the
    /// `float` inputs they can (off: every input goes to MPFR, for checking the estimates).
    pub prescreen: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            samples: DEFAULT_SAMPLES,
            seed: 0x0c1_5eed,
            exhaustive: false,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            histograms: false,
            progress: false,
            log_functions: false,
            resume: None,
            dense_samples: DENSE_SAMPLES,
            stride: 1,
            relaxed: false,
            prescreen: true,
        }
    }
}

/// Random inputs per function in the quick mode: about 230 functions × 20,000 inputs, a few
/// million in all.
pub const DEFAULT_SAMPLES: usize = 20_000;

/// Random inputs per sampled function in the exhaustive mode (`double` and the functions of
/// several arguments): 50 times the quick mode.
pub const DENSE_SAMPLES: usize = 1_000_000;

/// Columns of the error-over-input-range histogram.
pub const COLUMNS: usize = 512;
/// Bins of the error-value histogram, each [`BIN_WIDTH`] ulp wide (the last collects the rest).
pub const BINS: usize = 64;
pub const BIN_WIDTH: f64 = 1.0 / 16.0;

/// The distribution of errors of one function.
#[derive(Clone, Debug, PartialEq)]
pub struct Histogram {
    /// The largest error among inputs whose first argument falls in each column (columns
    /// split the type's values in bit-pattern order: -NaN, -∞ … -0 | +0 … +∞, +NaN).
    pub columns: Vec<f64>,
    /// How many inputs had an error in [i·BIN_WIDTH, (i+1)·BIN_WIDTH) (finite errors only).
    pub bins: Vec<u64>,
}

impl Histogram {
    fn new() -> Histogram {
        Histogram {
            columns: vec![0.0; COLUMNS],
            bins: vec![0; BINS],
        }
    }
    fn add(&mut self, kind: Kind, x: f64, error: f64) {
        let column = column_of(kind, x);
        if error > self.columns[column] || error.is_nan() {
            self.columns[column] = error;
        }
        if error.is_finite() {
            let bin = ((error / BIN_WIDTH) as usize).min(BINS - 1);
            self.bins[bin] += 1;
        }
    }
    fn merge(&mut self, other: &Histogram) {
        for (a, b) in self.columns.iter_mut().zip(&other.columns) {
            *a = a.max(*b);
        }
        for (a, b) in self.bins.iter_mut().zip(&other.bins) {
            *a += b;
        }
    }
}

/// The histogram column of `x`: its position in the monotone order of bit patterns.
fn column_of(kind: Kind, x: f64) -> usize {
    let bits = kind.to_bits(x);
    let half = 1u64 << (kind.bits() - 1);
    let magnitude = bits & (half - 1);
    let key = if bits & half != 0 {
        half - 1 - magnitude
    } else {
        half + magnitude
    };
    ((u128::from(key) * COLUMNS as u128) >> kind.bits()) as usize
}

/// The result of checking one function of one type.
#[derive(Clone, Debug)]
pub struct FunctionReport {
    pub name: String,
    pub kind: Kind,
    pub shape: Shape,
    pub bound: Bound,
    /// The largest error measured, in ulps.
    pub max_error: f64,
    /// Where it occurred, and what devlib returned there.
    pub worst: Option<(Input, Output)>,
    /// Inputs tried.
    pub tried: u64,
    /// Inputs whose error exceeds 0.5 ulp (not correctly rounded).
    pub misrounded: u64,
    /// Inputs whose result breaks an exact edge-case rule.
    pub special_failures: u64,
    /// The first such input and what is wrong.
    pub first_special: Option<(Input, String)>,
    /// Relaxed bounds ([`Bound::Relaxed`]): inputs whose error exceeds what the row allows
    /// there, the first of them with its error and allowance, the largest error as a fraction
    /// of the allowance, and the inputs outside the row's domain (any result accepted).
    pub over_bound: u64,
    pub first_over: Option<(Input, String)>,
    pub max_fraction: f64,
    pub undefined: u64,
    /// Whether every argument was tried.
    pub exhaustive: bool,
    pub seconds: f64,
    pub histogram: Option<Histogram>,
}

impl FunctionReport {
    /// Within the bound, with every edge case exact (`native_*` functions, whose accuracy and
    /// edge cases are implementation-defined, always pass).
    pub fn passed(&self) -> bool {
        if self.name.starts_with("native_") {
            return true;
        }
        self.special_failures == 0 && self.over_bound == 0 && self.bound.allows(self.max_error)
    }
}

/// Running totals of one function (one per thread, merged at the end).
#[derive(Clone, Debug)]
pub(crate) struct Tally {
    pub(crate) max_error: f64,
    pub(crate) worst: Option<(Input, Output)>,
    tried: u64,
    misrounded: u64,
    special_failures: u64,
    first_special: Option<(Input, String)>,
    over_bound: u64,
    first_over: Option<(Input, String)>,
    max_fraction: f64,
    undefined: u64,
    histogram: Option<Histogram>,
}

impl Tally {
    pub(crate) fn new(histograms: bool) -> Tally {
        Tally {
            max_error: 0.0,
            worst: None,
            tried: 0,
            misrounded: 0,
            special_failures: 0,
            first_special: None,
            over_bound: 0,
            first_over: None,
            max_fraction: 0.0,
            undefined: 0,
            histogram: histograms.then(Histogram::new),
        }
    }
    pub(crate) fn add(&mut self, kind: Kind, input: &Input, got: &Output, verdict: Verdict) {
        self.tried += 1;
        let error = verdict.error;
        if error > 0.5 || error.is_nan() {
            self.misrounded += 1;
        }
        if error > self.max_error
            || (self.worst.is_none() && error >= self.max_error)
            || error.is_nan()
        {
            self.max_error = if error.is_nan() { f64::INFINITY } else { error };
            self.worst = Some((*input, *got));
        }
        if let Some(message) = verdict.special {
            self.special_failures += 1;
            if self.first_special.is_none() {
                self.first_special = Some((*input, message));
            }
        }
        if let Some(h) = &mut self.histogram {
            h.add(kind, input.x[0], error);
        }
    }
    pub(crate) fn merge(&mut self, other: Tally) {
        if (other.max_error > self.max_error || self.worst.is_none()) && other.worst.is_some() {
            self.max_error = other.max_error;
            self.worst = other.worst;
        }
        self.tried += other.tried;
        self.misrounded += other.misrounded;
        self.special_failures += other.special_failures;
        if self.first_special.is_none() {
            self.first_special = other.first_special;
        }
        self.over_bound += other.over_bound;
        if self.first_over.is_none() {
            self.first_over = other.first_over;
        }
        self.max_fraction = self.max_fraction.max(other.max_fraction);
        self.undefined += other.undefined;
        if let (Some(a), Some(b)) = (&mut self.histogram, &other.histogram) {
            a.merge(b);
        }
    }
}

/// Errors of the engine.
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    #[error("{name} ({kind}): no MPFR reference for this function")]
    NoReference { name: String, kind: &'static str },
    #[error("{name} ({kind}): the ULP table has no bound for this function and type")]
    NoBound { name: String, kind: &'static str },
}

/// Checks one input of `subject` against `bound`.
fn check_input(
    subject: &Subject,
    bound: Bound,
    input: &Input,
    tally: &mut Tally,
) -> Result<(), CheckError> {
    let got = (subject.eval)(input);
    check_output(subject, bound, input, &got, tally)
}

/// The MPFR verdict on the output `got` of `subject` for `input`.
pub(crate) fn mpfr_verdict(
    subject: &Subject,
    input: &Input,
    got: &Output,
) -> Result<Verdict, CheckError> {
    let reference =
        reference(&subject.name, subject.kind, input).ok_or_else(|| CheckError::NoReference {
            name: subject.name.clone(),
            kind: subject.kind.name(),
        })?;
    Ok(compare(
        subject.kind,
        &subject.name,
        subject.shape,
        input,
        got,
        &reference,
    ))
}

/// Checks the output `got` of `subject` for `input` against MPFR and `bound`.
pub(crate) fn check_output(
    subject: &Subject,
    bound: Bound,
    input: &Input,
    got: &Output,
    tally: &mut Tally,
) -> Result<(), CheckError> {
    let reference =
        reference(&subject.name, subject.kind, input).ok_or_else(|| CheckError::NoReference {
            name: subject.name.clone(),
            kind: subject.kind.name(),
        })?;
    let verdict = compare(
        subject.kind,
        &subject.name,
        subject.shape,
        input,
        got,
        &reference,
    );
    if let (Bound::Relaxed(rule), Some(first)) = (bound, reference.values.first()) {
        let Some(allowed) = rule.allowed_ulps(subject.kind, subject.shape, input, &first.value)
        else {
            tally.add_undefined();
            return Ok(());
        };
        count_against_allowance(tally, input, verdict.error, allowed);
    }
    tally.add(subject.kind, input, got, verdict);
    Ok(())
}

impl Tally {
    /// Counts an input outside a relaxed row's domain, where the result is undefined.
    pub(crate) fn add_undefined(&mut self) {
        self.tried += 1;
        self.undefined += 1;
    }
}

/// Records an error of `error` ulps where a relaxed row allows `allowed` (the largest fraction
/// of the allowance, the inputs over it).
pub(crate) fn count_against_allowance(tally: &mut Tally, input: &Input, error: f64, allowed: f64) {
    tally.max_fraction = tally.max_fraction.max(error / allowed);
    if error > allowed || error.is_nan() {
        tally.over_bound += 1;
        if tally.first_over.is_none() {
            tally.first_over = Some((
                *input,
                format!("error {error:.3} ulp, {allowed} ulp allowed there"),
            ));
        }
    }
}

pub(crate) fn bound_of(subject: &Subject, options: &Options) -> Result<Bound, CheckError> {
    let found = if options.relaxed {
        crate::bound::relaxed_bound(&subject.name, subject.kind)
    } else {
        bound(&subject.name, subject.kind)
    };
    found.ok_or_else(|| CheckError::NoBound {
        name: subject.name.clone(),
        kind: subject.kind.name(),
    })
}

/// A seed per function and type, so results do not depend on the order of checking.
fn subject_seed(seed: u64, subject: &Subject) -> u64 {
    let mut h = seed ^ (subject.kind as u64).wrapping_mul(0x1000_0000_01b3);
    for b in subject.name.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The quick check of one subject: special values, hard cases and `options.samples` random
/// inputs, on the calling thread.
pub fn check_sampled(subject: &Subject, options: &Options) -> Result<FunctionReport, CheckError> {
    let start = Instant::now();
    let bound = bound_of(subject, options)?;
    let mut tally = Tally::new(options.histograms);
    for input in fixed_inputs(&subject.name, subject.shape, subject.kind) {
        check_input(subject, bound, &input, &mut tally)?;
    }
    let mut rng = Rng::new(subject_seed(options.seed, subject));
    for _ in 0..options.samples {
        let input = random_input(&subject.name, subject.shape, subject.kind, &mut rng);
        check_input(subject, bound, &input, &mut tally)?;
    }
    Ok(report(subject, bound, tally, false, start))
}

pub(crate) fn report(
    subject: &Subject,
    bound: Bound,
    tally: Tally,
    exhaustive: bool,
    start: Instant,
) -> FunctionReport {
    FunctionReport {
        name: subject.name.clone(),
        kind: subject.kind,
        shape: subject.shape,
        bound,
        max_error: tally.max_error,
        worst: tally.worst,
        tried: tally.tried,
        misrounded: tally.misrounded,
        special_failures: tally.special_failures,
        first_special: tally.first_special,
        over_bound: tally.over_bound,
        first_over: tally.first_over,
        max_fraction: tally.max_fraction,
        undefined: tally.undefined,
        exhaustive,
        seconds: start.elapsed().as_secs_f64(),
        histogram: tally.histogram,
    }
}

pub use crate::sweep::{can_exhaust, check_exhaustive};

/// What [`check_all`] does with one subject.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Every argument (every `stride`-th), on all threads.
    Exhaustive,
    /// Special values, hard cases and random inputs, several subjects at a time.
    Sampled,
}

/// The order in which [`check_all`] works: the exhaustive sweeps first (a user asking for them
/// gets them before the long dense samples of the functions that cannot be exhausted), then the
/// sampled subjects; each part in the order of `subjects`. Indices into `subjects`.
pub fn schedule(subjects: &[Subject], options: &Options) -> Vec<(usize, Mode)> {
    let exhaustive = |s: &Subject| options.exhaustive && can_exhaust(s);
    let sweeps = (0..subjects.len())
        .filter(|&i| exhaustive(&subjects[i]))
        .map(|i| (i, Mode::Exhaustive));
    let sampled = (0..subjects.len())
        .filter(|&i| !exhaustive(&subjects[i]))
        .map(|i| (i, Mode::Sampled));
    sweeps.chain(sampled).collect()
}

/// Checks every subject in the order of [`schedule`]: with `options.exhaustive`, one-argument
/// `float`/`half` functions are exhausted one after another (each on all threads, saved to and
/// taken from `options.resume`), then the rest is sampled, several functions at a time.
/// Reports come back in the order of `subjects`.
pub fn check_all(
    subjects: &[Subject],
    options: &Options,
) -> Result<Vec<FunctionReport>, CheckError> {
    let mut slots: Vec<Option<Result<FunctionReport, CheckError>>> =
        (0..subjects.len()).map(|_| None).collect();
    let plan = schedule(subjects, options);
    let sweeps: Vec<usize> = plan
        .iter()
        .filter(|(_, m)| *m == Mode::Exhaustive)
        .map(|(i, _)| *i)
        .collect();
    let sampled: Vec<usize> = plan
        .iter()
        .filter(|(_, m)| *m == Mode::Sampled)
        .map(|(i, _)| *i)
        .collect();
    // Resume files hold complete runs only: a strided run neither reads nor writes them.
    // Nor a relaxed run, whose bounds differ from those of the saved results.
    let resume = options
        .resume
        .as_ref()
        .filter(|_| options.stride <= 1 && !options.relaxed);
    for (k, &i) in sweeps.iter().enumerate() {
        let subject = &subjects[i];
        if let Some(saved) = resume
            .map(|p| p.as_path())
            .and_then(|path| crate::resume::find(path, subject))
        {
            if options.progress || options.log_functions {
                eprintln!(
                    "[{}/{}] {} {}: taken from the resume file",
                    k + 1,
                    sweeps.len(),
                    subject.name,
                    subject.kind.name()
                );
            }
            slots[i] = Some(Ok(saved));
            continue;
        }
        if options.progress || options.log_functions {
            eprintln!(
                "[{}/{}] {} {}: exhaustive",
                k + 1,
                sweeps.len(),
                subject.name,
                subject.kind.name()
            );
        }
        let result = check_exhaustive(subject, options);
        if let (Some(path), Ok(r)) = (resume, &result) {
            if let Err(e) = crate::resume::append(path, r) {
                eprintln!("warning: cannot save to {}: {e}", path.display());
            }
        }
        if options.progress || options.log_functions {
            if let Ok(r) = &result {
                eprintln!(
                    "[{}/{}] {} {}: max error {} ulp, {} above 0.5 ulp, {}",
                    k + 1,
                    sweeps.len(),
                    r.name,
                    r.kind.name(),
                    r.max_error,
                    r.misrounded,
                    if r.passed() { "pass" } else { "FAIL" }
                );
            }
        }
        slots[i] = Some(result);
    }
    // The exhaustive mode samples what it cannot exhaust more densely.
    let sampling = Options {
        samples: if options.exhaustive {
            options.dense_samples.max(options.samples)
        } else {
            options.samples
        },
        ..options.clone()
    };
    let next = AtomicUsize::new(0);
    let finished = AtomicUsize::new(0);
    let out = Mutex::new(&mut slots);
    std::thread::scope(|scope| {
        for _ in 0..options.threads.max(1).min(sampled.len().max(1)) {
            scope.spawn(|| loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                let Some(&i) = sampled.get(k) else { break };
                let result = check_sampled(&subjects[i], &sampling);
                let n = finished.fetch_add(1, Ordering::Relaxed) + 1;
                if options.progress {
                    eprint!(
                        "\rsampled {n}/{}: {} {}          ",
                        sampled.len(),
                        subjects[i].name,
                        subjects[i].kind.name()
                    );
                }
                out.lock().unwrap_or_else(|p| p.into_inner())[i] = Some(result);
            });
        }
    });
    if options.progress && !sampled.is_empty() {
        eprintln!();
    }
    // Every slot was filled by one of the two loops above.
    slots.into_iter().flatten().collect()
}
