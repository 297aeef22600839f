//! `oxcl mathcheck`: checks every devlib math function against a correctly rounded MPFR
//! reference and the ULP bounds of the numerical-compliance chapter (002 "ULP Values for Math
//! Instructions - Full Profile", through `builtins::ulp::FULL_PROFILE`), including the exact
//! edge cases of 002 "Edge Case Behavior".
//!
//! - [`subject`]: the functions under test (devlib, per type, uniform `f64` interface).
//! - [`reference`]: the MPFR reference of each OpenCL.std function.
//! - [`measure`]: error in ulps and the edge-case rules.
//! - [`inputs`]: special values, hard cases, random inputs.
//! - [`engine`]: the quick (sampled) and exhaustive runs, on all cores.
//! - [`report`], [`plot`]: the table, JSON and PNG plots.
//! - [`geometric`]: dot, cross, length, distance, normalize and `fast_*` per vector width.
//! - [`relaxed`]: the `-cl-unsafe-math-optimizations` table (`--relaxed`).
//! - [`sweep`], [`estimate`]: the exhaustive sweeps and their fast `f64` pre-screen.
//! - [`pocl`]: the same sweeps on PoCL through pyopencl, measured alike (`--pocl`).
//! - [`resume`]: saving exhaustive results so an interrupted run can go on.
//!
//! MPFR (through `rug`) is a dependency of this crate only: the runtime never links it.

pub mod bound;
pub mod conversion;
pub mod engine;
pub mod estimate;
pub mod geometric;
pub mod glibc;
pub mod inputs;
pub mod kind;
pub mod measure;
pub mod plot;
pub mod pocl;
pub mod reference;
pub mod relaxed;
pub mod report;
pub mod resume;
pub mod subject;
pub mod sweep;

pub use bound::Bound;
pub use engine::{check_all, check_exhaustive, check_sampled, CheckError, FunctionReport, Options};
pub use kind::Kind;
pub use subject::{all_subjects, Subject};

/// The subjects named in `names` (all when empty) of the types in `kinds` (all when empty),
/// in report order (type, then function); an unknown name is an error.
pub fn select(names: &[String], kinds: &[Kind]) -> Result<Vec<Subject>, String> {
    let kinds: Vec<Kind> = if kinds.is_empty() {
        Kind::ALL.to_vec()
    } else {
        kinds.to_vec()
    };
    let mut chosen = Vec::new();
    let mut found = vec![false; names.len()];
    for kind in kinds {
        for s in all_subjects(kind) {
            if names.is_empty() {
                chosen.push(s);
            } else if let Some(i) = names.iter().position(|n| *n == s.name) {
                found[i] = true;
                chosen.push(s);
            }
        }
    }
    if let Some(i) = found.iter().position(|f| !f) {
        return Err(format!(
            "unknown function `{}` for the selected types",
            names[i]
        ));
    }
    Ok(chosen)
}

/// The subjects of a relaxed run (`--relaxed`): [`select`]'s, plus `divide` and `recip` (the
/// engines' `OpFDiv` on `float`, which 002's unsafe-math table bounds) when `float` is among
/// `kinds` and `names` is empty or names them.
pub fn select_relaxed(names: &[String], kinds: &[Kind]) -> Result<Vec<Subject>, String> {
    let is_division = |n: &String| n == "divide" || n == "recip";
    let others: Vec<String> = names.iter().filter(|n| !is_division(n)).cloned().collect();
    let mut chosen = if others.is_empty() && !names.is_empty() {
        Vec::new()
    } else {
        select(&others, kinds)?
    };
    if kinds.is_empty() || kinds.contains(&Kind::Float) {
        chosen.extend(
            relaxed::division_subjects()
                .into_iter()
                .filter(|s| names.is_empty() || names.contains(&s.name)),
        );
    } else if names.iter().any(is_division) {
        return Err("`divide` and `recip` are checked for float only".to_string());
    }
    Ok(chosen)
}
