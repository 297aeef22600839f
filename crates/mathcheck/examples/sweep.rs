//! `oxcl mathcheck` without the CLI (whose release build needs the whole compiler), for long
//! runs in release: `cargo run --release -p mathcheck --example sweep -- TYPE FUNC[,FUNC…]|all
//! [--exhaustive [--stride K]] [--relaxed] [--samples N] [--threads N] [--seed N] [--resume FILE]`
//! (`--stride K`: every K-th bit pattern only). Prints the table (with the count of inputs
//! above 0.5 ulp).

use std::process::ExitCode;

fn main() -> ExitCode {
    match run() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("sweep: {e}");
            eprintln!(
                "usage: sweep TYPE FUNC[,FUNC...] [--exhaustive [--stride K]] [--relaxed] [--samples N] \
                 [--threads N] [--seed N] [--resume FILE]"
            );
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<bool, String> {
    let mut args = std::env::args().skip(1);
    let kind = args.next().ok_or("no type")?;
    let kind = mathcheck::Kind::parse(&kind).ok_or(format!("unknown type `{kind}`"))?;
    let functions = args.next().ok_or("no function")?;
    // `all`: every function of the type.
    let names: Vec<String> = if functions == "all" {
        Vec::new()
    } else {
        functions.split(',').map(str::to_string).collect()
    };
    let mut options = mathcheck::Options {
        progress: true,
        ..mathcheck::Options::default()
    };
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--exhaustive" => options.exhaustive = true,
            "--relaxed" => options.relaxed = true,
            "--samples" => {
                let n = value()?.parse().map_err(|e| format!("--samples: {e}"))?;
                options.samples = n;
                options.dense_samples = n;
            }
            "--threads" => {
                options.threads = value()?.parse().map_err(|e| format!("--threads: {e}"))?;
            }
            "--resume" => options.resume = Some(value()?.into()),
            "--stride" => {
                options.stride = value()?.parse().map_err(|e| format!("--stride: {e}"))?;
            }
            "--seed" => {
                options.seed = value()?.parse().map_err(|e| format!("--seed: {e}"))?;
            }
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    let subjects = if options.relaxed {
        mathcheck::select_relaxed(&names, &[kind])?
    } else {
        mathcheck::select(&names, &[kind])?
    };
    let reports = mathcheck::check_all(&subjects, &options).map_err(|e| e.to_string())?;
    print!("{}", mathcheck::report::table(&reports));
    Ok(reports.iter().all(|r| r.passed()))
}
