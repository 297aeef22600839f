//! The `oxcl` command line: `info`, `build`, `val`, `dis`, `run`, `mathcheck`, `bench`.

mod argspec;
mod bench;
mod image_io;
mod mathcheck;
mod npy;
mod run;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "oxcl",
    version,
    about = "OpenCL on the CPU: compile, validate, disassemble and run kernels"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print the platform and device, like clinfo.
    Info,
    /// Compile OpenCL C to SPIR-V.
    Build {
        /// The OpenCL C source file.
        file: PathBuf,
        /// The SPIR-V output (default: FILE with the extension .spv).
        #[arg(short = 'o', long = "output")]
        output: Option<PathBuf>,
        /// Build options as one string (`-D`, `-I`, `-cl-std=`, `-w`, `-Werror`, …).
        #[arg(long, allow_hyphen_values = true)]
        options: Option<String>,
        /// Build options, given after the file.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        build_options: Vec<String>,
    },
    /// Validate a SPIR-V module for an OpenCL environment.
    Val {
        file: PathBuf,
        /// opencl1.2, opencl2.0, opencl2.1, opencl2.2 or opencl3.0, optionally followed by
        /// `embedded` (default: this device's environment).
        #[arg(long)]
        env: Option<String>,
    },
    /// Disassemble a SPIR-V module (the text of `spirv-dis --raw-id`).
    Dis { file: PathBuf },
    /// Build and run a kernel.
    Run(run::RunArgs),
    /// Check the device math library against MPFR and the specification's ULP bounds.
    Mathcheck(mathcheck::MathcheckArgs),
    /// Benchmark oxcl's JIT and interpreter against PoCL.
    Bench(bench::BenchArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Info => info(),
        Command::Build {
            file,
            output,
            options,
            build_options,
        } => {
            let mut all = options.unwrap_or_default();
            for option in build_options {
                all.push(' ');
                all.push_str(&option);
            }
            build(&file, output, &all)
        }
        Command::Val { file, env } => validate(&file, env.as_deref()),
        Command::Dis { file } => disassemble(&file),
        Command::Run(args) => run::run(&args),
        Command::Mathcheck(args) => mathcheck::run(&args),
        Command::Bench(args) => bench::run(&args),
    };
    match result {
        Ok(code) => code,
        Err(error) => {
            eprintln!("oxcl: error: {error:#}");
            ExitCode::FAILURE
        }
    }
}

fn info() -> Result<ExitCode> {
    let platform = runtime::Platform::get();
    println!("Platform Name                {}", platform.name());
    println!("Platform Vendor              {}", platform.vendor());
    println!("Platform Version             {}", platform.version());
    println!("Platform Profile             {}", platform.profile());
    for device in platform.devices() {
        println!();
        println!("Device Name                  {}", device.name);
        println!("Device Vendor                {}", device.vendor());
        println!("Device Type                  CPU");
        println!("Device Version               {}", device.version());
        println!("Device OpenCL C Version      {}", device.opencl_c_version());
        println!("Device IL Version            {}", device.il_version());
        println!("Max compute units            {}", device.compute_units);
        println!(
            "Max work-group size          {}",
            device.max_work_group_size
        );
        println!(
            "Max work-item sizes          {:?}",
            device.max_work_item_sizes
        );
        println!("Address bits                 {}", device.address_bits);
        println!(
            "Global memory size           {} bytes",
            device.global_mem_size
        );
        println!(
            "Max memory allocation        {} bytes",
            device.max_mem_alloc_size
        );
        println!(
            "Local memory size            {} bytes",
            device.local_mem_size
        );
        println!(
            "Extensions                   {}",
            device.extensions.join(" ")
        );
        println!("OpenCL C features            {}", device.features.join(" "));
    }
    Ok(ExitCode::SUCCESS)
}

fn read_spirv(path: &Path) -> Result<spv::Module> {
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    spv::read_bytes(&bytes).with_context(|| format!("{}: invalid SPIR-V", path.display()))
}

fn build(file: &Path, output: Option<PathBuf>, options: &str) -> Result<ExitCode> {
    let source =
        std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
    let options = clc::options::BuildOptions::parse(options)?;
    let device = runtime::Device::host_cpu();
    let compiled = match clc::compile(
        &source,
        &file.display().to_string(),
        &options,
        &device.compile_target(),
    ) {
        Ok(compiled) => compiled,
        Err(error) => {
            eprint!("{}", error.log);
            return Ok(ExitCode::FAILURE);
        }
    };
    eprint!("{}", compiled.log);
    let words = compiled.module.to_words();
    // Our output must be valid for the device it is built for: an error here is a compiler bug.
    if let Err(errors) = spv::valid::validate(compiled.module, &device.validation_env()) {
        eprintln!("internal compiler error: the generated SPIR-V is not valid:\n{errors}");
        return Ok(ExitCode::FAILURE);
    }
    let output = output.unwrap_or_else(|| file.with_extension("spv"));
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&output, bytes).with_context(|| format!("writing {}", output.display()))?;
    Ok(ExitCode::SUCCESS)
}

fn validate(file: &Path, env: Option<&str>) -> Result<ExitCode> {
    let module = read_spirv(file)?;
    let (env, env_name) = match env {
        Some(name) => (spv::valid::Env::from_target_env(name)?, name.to_string()),
        None => (
            runtime::Device::host_cpu().validation_env(),
            "this device (OpenCL 3.0, full profile)".into(),
        ),
    };
    match spv::valid::validate(module, &env) {
        Ok(_) => {
            println!("{}: valid for {env_name}", file.display());
            Ok(ExitCode::SUCCESS)
        }
        Err(errors) => {
            eprintln!("{}: not valid for {env_name}:", file.display());
            eprintln!("{errors}");
            Ok(ExitCode::FAILURE)
        }
    }
}

fn disassemble(file: &Path) -> Result<ExitCode> {
    let module = read_spirv(file)?;
    print!("{}", spv::dis::disassemble(&module));
    Ok(ExitCode::SUCCESS)
}
