//! `oxcl mathcheck`: checks devlib's math functions against MPFR and the ULP bounds of the
//! numerical-compliance chapter, and prints a table (or JSON), optionally PNG plots of the
//! error distribution. The exit status is non-zero when any function fails its bound or an
//! edge case.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Result};

/// Arguments of `oxcl mathcheck`.
#[derive(clap::Args, Debug)]
pub struct MathcheckArgs {
    /// Try every argument of the one-argument float (2^32) and half (2^16) functions, on all
    /// cores; the others (double, several arguments) get --dense-samples random inputs.
    #[arg(long)]
    pub exhaustive: bool,
    /// Only these functions (OpenCL.std names; repeatable or comma-separated); `convert` names
    /// the conversion checks, which otherwise run only when neither --func nor --type is given;
    /// the geometric functions (dot, cross, length, distance, normalize, fast_*) are checked at
    /// vector widths 1 to 4 in a table of their own.
    #[arg(long = "func", value_delimiter = ',')]
    pub functions: Vec<String>,
    /// Only these types: float, double, half (repeatable or comma-separated).
    #[arg(long = "type", value_delimiter = ',')]
    pub types: Vec<String>,
    /// Random inputs per function, besides special values and hard cases.
    #[arg(long, default_value_t = ::mathcheck::engine::DEFAULT_SAMPLES)]
    pub samples: usize,
    /// Random inputs per function that --exhaustive cannot exhaust (double, several arguments).
    #[arg(long, default_value_t = ::mathcheck::engine::DENSE_SAMPLES)]
    pub dense_samples: usize,
    /// With --exhaustive or --pocl: try every N-th bit pattern only (a dense, evenly spread
    /// sample).
    #[arg(long, default_value_t = 1)]
    pub stride: u64,
    /// Seed of the random inputs.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Print JSON instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Write a PNG of the error distribution of each function to this directory.
    #[arg(long)]
    pub plot: Option<PathBuf>,
    /// Save each exhaustive result to this file as it completes, and take the results already
    /// saved there instead of checking those functions again (resumes an interrupted run).
    #[arg(long)]
    pub resume: Option<PathBuf>,
    /// Check against 002's `-cl-unsafe-math-optimizations` / `-cl-fast-relaxed-math` table
    /// (float rows; per-input bounds such as 3 + floor(|2x|) ulp for exp and an absolute error
    /// of 2^-11 for sin on [-pi, pi]; any result outside a row's domain), with x/y and 1/x as the
    /// engines divide. Functions and types without a row keep their full-profile bound.
    #[arg(long)]
    pub relaxed: bool,
    /// Compare with PoCL: evaluate the one-argument float functions (those of --func, default
    /// all of them, half_ and native_ included) on PoCL through /usr/bin/python3 and pyopencl,
    /// on the arguments of --exhaustive (every --stride-th bit pattern; all 2^32 with stride 1),
    /// in chunks of 16M, and print oxcl's and PoCL's max error, where it occurs and the count
    /// above 0.5 ulp side by side, both against the same MPFR reference. Skipped with the reason
    /// when python3, pyopencl or PoCL is missing.
    #[arg(long)]
    pub pocl: bool,
    /// No progress output on stderr (the live progress line is shown on terminals only; the
    /// line per exhaustive function always).
    #[arg(long, short)]
    pub quiet: bool,
}

/// Runs the command.
pub fn run(args: &MathcheckArgs) -> Result<ExitCode> {
    let mut kinds = Vec::new();
    for name in &args.types {
        match ::mathcheck::Kind::parse(name) {
            Some(kind) => kinds.push(kind),
            None => bail!("unknown type `{name}` (expected float, double or half)"),
        }
    }
    // `convert` names the conversion checks; they also run when no function or type is chosen.
    let conversions = args.functions.iter().any(|f| f == "convert")
        || (args.functions.is_empty() && kinds.is_empty());
    // The geometric functions (dot, cross, length, …) run per vector width in their own table,
    // when named or when no function is chosen.
    let geometric_names: Vec<String> = args
        .functions
        .iter()
        .filter(|f| ::mathcheck::geometric::is_geometric(f))
        .cloned()
        .collect();
    let geometric_subjects = if args.functions.is_empty() || !geometric_names.is_empty() {
        ::mathcheck::geometric::geo_subjects(&geometric_names, &kinds)
    } else {
        Vec::new()
    };
    let functions: Vec<String> = args
        .functions
        .iter()
        .filter(|f| *f != "convert" && !::mathcheck::geometric::is_geometric(f))
        .cloned()
        .collect();
    let subjects = if functions.is_empty() && !args.functions.is_empty() {
        Vec::new() // only `convert` or geometric functions were named
    } else if args.relaxed {
        ::mathcheck::select_relaxed(&functions, &kinds).map_err(anyhow::Error::msg)?
    } else {
        ::mathcheck::select(&functions, &kinds).map_err(anyhow::Error::msg)?
    };
    let mut options = ::mathcheck::Options {
        samples: args.samples,
        exhaustive: args.exhaustive,
        histograms: args.plot.is_some(),
        progress: !args.quiet && std::io::stderr().is_terminal(),
        log_functions: !args.quiet,
        resume: args.resume.clone(),
        dense_samples: args.dense_samples,
        stride: args.stride.max(1),
        relaxed: args.relaxed,
        ..::mathcheck::Options::default()
    };
    if let Some(seed) = args.seed {
        options.seed = seed;
    }
    if let Some(threads) = args.threads {
        options.threads = threads.max(1);
    }
    if args.pocl {
        return compare_with_pocl(args, &subjects, &options);
    }
    let reports = ::mathcheck::check_all(&subjects, &options)?;
    let conversion_reports = if conversions {
        ::mathcheck::conversion::check_conversions(
            ::mathcheck::conversion::samples_for(args.samples),
            options.seed,
        )
    } else {
        Vec::new()
    };
    let geometric_reports = ::mathcheck::geometric::check_geometric(
        &geometric_subjects,
        ::mathcheck::geometric::samples_for(if args.exhaustive {
            args.dense_samples
        } else {
            args.samples
        }),
        options.seed,
        options.threads,
    );
    if args.json {
        let mut value = ::mathcheck::report::json(&reports);
        if let Some(object) = value.as_object_mut() {
            object.insert(
                "geometric".to_string(),
                ::mathcheck::geometric::json(&geometric_reports),
            );
            object.insert(
                "conversions".to_string(),
                ::mathcheck::conversion::json(&conversion_reports),
            );
        }
        println!("{value:#}");
    } else {
        if !reports.is_empty() {
            print!("{}", ::mathcheck::report::table(&reports));
        }
        if !geometric_reports.is_empty() {
            print!("{}", ::mathcheck::geometric::table(&geometric_reports));
        }
        if conversions {
            print!("{}", ::mathcheck::conversion::table(&conversion_reports));
        }
    }
    if let Some(dir) = &args.plot {
        let written = ::mathcheck::plot::write_plots(dir, &reports)?;
        if !args.quiet {
            eprintln!("wrote {} plots to {}", written.len(), dir.display());
        }
    }
    Ok(
        if reports.iter().all(|r| r.passed())
            && conversion_reports.iter().all(|r| r.passed())
            && geometric_reports.iter().all(|r| r.passed())
        {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        },
    )
}

/// `--pocl`: the side-by-side table (or JSON) of oxcl and PoCL; fails when an oxcl row fails.
fn compare_with_pocl(
    args: &MathcheckArgs,
    subjects: &[::mathcheck::Subject],
    options: &::mathcheck::Options,
) -> Result<ExitCode> {
    use ::mathcheck::pocl::{self, PoclError};
    if !args.types.is_empty() && !args.types.iter().any(|t| t == "float") {
        bail!("--pocl compares the one-argument float functions: add --type float");
    }
    let skipped: Vec<&str> = subjects
        .iter()
        .filter(|s| s.kind == ::mathcheck::Kind::Float && !pocl::comparable(s))
        .map(|s| s.name.as_str())
        .collect();
    if !args.functions.is_empty() && !skipped.is_empty() {
        eprintln!(
            "--pocl compares functions T f(T) only; not compared: {}",
            skipped.join(", ")
        );
    }
    let comparisons = match pocl::compare_with_pocl(subjects, options) {
        Ok(c) => c,
        Err(PoclError::Unavailable(reason)) => {
            eprintln!("PoCL comparison skipped: {reason}");
            return Ok(ExitCode::SUCCESS);
        }
        Err(e) => return Err(e.into()),
    };
    if args.json {
        println!("{:#}", pocl::json(&comparisons));
    } else {
        print!("{}", pocl::table(&comparisons));
    }
    Ok(if comparisons.iter().all(|c| c.oxcl.passed()) {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
