//! Computes the build id the JIT's on-disk cache keys its files with (see `jit/disk_cache.rs`):
//! a hash of this crate's sources (the code generator and the runtime layout it bakes into
//! code), the workspace's `Cargo.lock` (Cranelift's version) and the compiler's version, so
//! any change to them invalidates cached code automatically.

use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let mut files = Vec::new();
    collect(&manifest.join("src"), &mut files);
    files.sort();
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    for file in &files {
        file.strip_prefix(&manifest)
            .unwrap_or(file)
            .hash(&mut hasher);
        std::fs::read(file).unwrap_or_default().hash(&mut hasher);
    }
    let lock = manifest.join("../../Cargo.lock");
    std::fs::read(&lock).unwrap_or_default().hash(&mut hasher);
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let version = std::process::Command::new(rustc)
        .arg("-V")
        .output()
        .map(|o| o.stdout)
        .unwrap_or_default();
    version.hash(&mut hasher);
    for var in ["TARGET", "PROFILE", "OPT_LEVEL"] {
        std::env::var(var).unwrap_or_default().hash(&mut hasher);
    }
    println!(
        "cargo:rustc-env=OXCL_EXEC_BUILD_ID={:016x}",
        hasher.finish()
    );
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed={}", lock.display());
}

/// Every file under `dir`.
fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, out);
        } else {
            out.push(path);
        }
    }
}
