//! Developer chores: `cargo xtask codegen [--check]` regenerates the SPIR-V grammar tables in
//! `crates/spv/src/generated/` from the Khronos grammars in `../shared/spirv` (or the directory named
//! by `OXCL_SPIRV_GRAMMAR_DIR`); `--check` only reports whether the committed files are fresh.
//! `cargo xtask bench [args…]` builds the `oxcl` CLI in release and runs `oxcl bench args…`
//! (JIT vs interpreter vs PoCL; see `crates/cli/src/bench.rs`).

mod codegen;

use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};

fn repo_root() -> PathBuf {
    // xtask/ is one level below the workspace root.
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."))
}

/// `OXCL_SPIRV_GRAMMAR_DIR`, else `../shared/spirv` relative to the repository root.
fn grammar_dir(root: &Path) -> PathBuf {
    match std::env::var_os("OXCL_SPIRV_GRAMMAR_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => root.join("../shared/spirv"),
    }
}

fn codegen(check: bool) -> Result<()> {
    let root = repo_root();
    let grammar = grammar_dir(&root);
    let files = codegen::generate(&grammar).map_err(anyhow::Error::msg)?;
    let out_dir = root.join("crates/spv/src/generated");
    std::fs::create_dir_all(&out_dir).with_context(|| format!("creating {}", out_dir.display()))?;
    let mut stale = Vec::new();
    for (name, text) in files {
        let path = out_dir.join(name);
        let current = std::fs::read_to_string(&path).unwrap_or_default();
        if current == text {
            continue;
        }
        if check {
            stale.push(path.display().to_string());
        } else {
            std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
            println!("wrote {}", path.display());
        }
    }
    if !stale.is_empty() {
        bail!(
            "stale generated files (run `cargo xtask codegen`): {}",
            stale.join(", ")
        );
    }
    Ok(())
}

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("codegen") => codegen(args.iter().any(|a| a == "--check")),
        Some("bench") => bench(&args[1..]),
        Some("bench-compile") => bench_compile(&args[1..]),
        _ => bail!("usage: cargo xtask codegen [--check] | cargo xtask bench [oxcl bench options] | cargo xtask bench-compile [--reps N] [--json]"),
    }
}

/// `cargo run --release -p clc --example compile_bench -- args…`: compile speed of clc against
/// clang-15 + llvm-spirv-15, side by side (issue 5).
fn bench_compile(args: &[String]) -> Result<()> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = std::process::Command::new(cargo)
        .current_dir(repo_root())
        .args([
            "run",
            "--release",
            "--quiet",
            "-p",
            "clc",
            "--example",
            "compile_bench",
            "--",
        ])
        .args(args)
        .status()
        .context("running cargo")?;
    if !status.success() {
        bail!("compile_bench failed ({status})");
    }
    Ok(())
}

/// `cargo run --release -p cli -- bench args…` (timings only mean something in release).
fn bench(args: &[String]) -> Result<()> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = std::process::Command::new(cargo)
        .current_dir(repo_root())
        .args([
            "run",
            "--release",
            "--quiet",
            "-p",
            "cli",
            "--bin",
            "oxcl",
            "--",
            "bench",
        ])
        .args(args)
        .status()
        .context("running cargo")?;
    if !status.success() {
        bail!("oxcl bench failed ({status})");
    }
    Ok(())
}
