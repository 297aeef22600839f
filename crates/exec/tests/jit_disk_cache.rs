//! The JIT's on-disk cache: a second process (this test binary run again) and fresh engines
//! reading the same cache directory run every kir module of the interpreter's tests without
//! compiling anything and give the interpreter's results, bit for bit; damaged cache files
//! are ignored and rewritten; concurrent writers leave readable files; a disabled cache
//! writes nothing. "Compiled" is counted by the engine (functions Cranelift compiled), not
//! inferred from timing.

use std::path::{Path, PathBuf};
use std::process::Command;

use exec::{ArgValue, DiskCache, Engine, Interpreter, Jit, Launch, NdRange};
use kir::{ArgKind, Module};

/// The raw-string kir modules of `tests/interp.rs`.
fn corpus() -> Vec<Module> {
    let text = include_str!("interp.rs");
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("r#\"") {
        let after = &rest[start + 3..];
        let Some(end) = after.find("\"#") else { break };
        let body = &after[..end];
        if body.contains("module address_bits") {
            let module = kir::parse_module(body).unwrap_or_else(|e| panic!("parse: {e}\n{body}"));
            out.push(module);
        }
        rest = &after[end + 2..];
    }
    assert!(out.len() >= 6, "found only {} modules", out.len());
    out
}

/// Buffers and printf output of kernel `kernel` over one range, or its error.
fn run_kernel(engine: &dyn Engine, module: &Module, kernel: usize) -> String {
    let k = &module.kernels[kernel];
    let mut storage: Vec<Vec<u8>> = k
        .args
        .iter()
        .enumerate()
        .map(|(i, arg)| match &arg.kind {
            ArgKind::Buffer(_) => (0..4096u32)
                .map(|b| (b.wrapping_mul(37).wrapping_add(11 + i as u32) % 251) as u8 & 0x3f)
                .collect(),
            ArgKind::Value { size, .. } => {
                let mut v = vec![0u8; *size as usize];
                if let Some(first) = v.first_mut() {
                    *first = 5;
                }
                v
            }
            _ => Vec::new(),
        })
        .collect();
    let args: Vec<ArgValue> = k
        .args
        .iter()
        .zip(storage.iter_mut())
        .map(|(arg, bytes)| match &arg.kind {
            ArgKind::Buffer(_) | ArgKind::Pipe { .. } => ArgValue::Buffer {
                ptr: bytes.as_mut_ptr(),
                len: bytes.len(),
            },
            ArgKind::Value { .. } => ArgValue::Bytes(bytes.clone()),
            ArgKind::LocalPtr => ArgValue::Local(256),
            ArgKind::Sampler => ArgValue::Bytes(vec![0x10, 0x11, 0, 0]),
            ArgKind::Image(_) => ArgValue::Null,
        })
        .collect();
    let result = engine.run(&Launch {
        module,
        kernel,
        args: &args,
        nd: NdRange::new_1d(64, 16),
        threads: 1,
    });
    match result {
        Ok(stats) => format!("{storage:?} {:?}", stats.printf),
        Err(e) => format!("error: {e}"),
    }
}

/// Outcomes of every corpus kernel the JIT compiles, one line each.
fn run_corpus(jit: &Jit) -> Vec<String> {
    let mut lines = Vec::new();
    for (m, module) in corpus().iter().enumerate() {
        for kernel in 0..module.kernels.len() {
            if jit.compiles(module, kernel).is_err() {
                continue;
            }
            lines.push(format!("{m}.{kernel} {}", run_kernel(jit, module, kernel)));
        }
    }
    lines
}

/// The interpreter's outcomes for the kernels of `lines`.
fn interpreter_corpus(lines: &[String]) -> Vec<String> {
    let modules = corpus();
    lines
        .iter()
        .map(|line| {
            let id = line.split(' ').next().unwrap_or_default();
            let (m, k) = id.split_once('.').unwrap_or_default();
            let (m, k): (usize, usize) = (m.parse().unwrap_or(0), k.parse().unwrap_or(0));
            format!("{id} {}", run_kernel(&Interpreter::new(), &modules[m], k))
        })
        .collect()
}

fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("oxcl-jitcache-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn cache_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    files.sort();
    files
}

fn strict_with(cache: DiskCache) -> Jit {
    let mut jit = Jit::with_disk_cache(cache);
    jit.fallback = false;
    jit
}

fn strict_in(dir: &Path) -> Jit {
    strict_with(DiskCache::Dir(dir.to_path_buf()))
}

/// Run as a child process by `a_second_process_compiles_nothing` (does nothing otherwise):
/// runs the corpus with the cache the environment names and writes the outcomes and counts.
#[test]
fn child_process_half() {
    let Some(out) = std::env::var_os("OXCL_JITCACHE_TEST_OUT") else {
        return;
    };
    let jit = Jit::strict();
    let lines = run_corpus(&jit);
    let stats = jit.stats();
    let report = format!(
        "{} {} {}\n{}",
        stats.functions_compiled,
        stats.functions_loaded,
        stats.files_written,
        lines.join("\n")
    );
    std::fs::write(out, report).expect("write the child's report");
}

/// Runs `child_process_half` in a new process with `env`; returns (compiled, loaded, written)
/// and the outcome lines.
fn child(env: &[(&str, &Path)], out: &Path) -> ((u64, u64, u64), Vec<String>) {
    let exe = std::env::current_exe().expect("test binary");
    let mut cmd = Command::new(exe);
    cmd.args(["--exact", "child_process_half", "--test-threads", "1"])
        .env_remove("OXCL_CACHE")
        .env_remove("OXCL_CACHE_DIR")
        .env("OXCL_JITCACHE_TEST_OUT", out);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let run = cmd.output().expect("run the child");
    assert!(
        run.status.success(),
        "child failed: {}{}",
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
    let report = std::fs::read_to_string(out).expect("child's report");
    let mut lines = report.lines();
    let counts: Vec<u64> = lines
        .next()
        .unwrap_or_default()
        .split(' ')
        .map(|n| n.parse().expect("count"))
        .collect();
    (
        (counts[0], counts[1], counts[2]),
        lines.map(str::to_string).collect(),
    )
}

#[test]
fn a_second_process_compiles_nothing() {
    let dir = fresh_dir("process");
    let cache = dir.join("cache");
    let cold_jit = strict_in(&cache);
    let cold = run_corpus(&cold_jit);
    let stats = cold_jit.stats();
    assert!(stats.functions_compiled > 0);
    assert_eq!(stats.functions_loaded, 0);
    assert!(stats.files_written > 0);
    assert_eq!(cold, interpreter_corpus(&cold), "cold JIT vs interpreter");

    // OXCL_CACHE_DIR names the directory: nothing is compiled, every function is loaded.
    let ((compiled, loaded, written), warm) =
        child(&[("OXCL_CACHE_DIR", &cache)], &dir.join("warm.txt"));
    assert_eq!(compiled, 0, "the second process compiled functions");
    assert_eq!(loaded, stats.functions_compiled);
    assert_eq!(written, 0);
    assert_eq!(warm, cold, "warm run vs cold run");

    // OXCL_CACHE=0 disables the cache: everything compiled, nothing written.
    let off = dir.join("off");
    let ((compiled, loaded, _), again) = child(
        &[("OXCL_CACHE", Path::new("0")), ("OXCL_CACHE_DIR", &off)],
        &dir.join("off.txt"),
    );
    assert_eq!(compiled, stats.functions_compiled);
    assert_eq!(loaded, 0);
    assert!(!off.exists(), "a disabled cache wrote {off:?}");
    assert_eq!(again, cold);

    // XDG_CACHE_HOME without OXCL_CACHE_DIR: the cache is XDG_CACHE_HOME/oxcl.
    let xdg = dir.join("xdg");
    let (_, xdg_run) = child(&[("XDG_CACHE_HOME", &xdg)], &dir.join("xdg.txt"));
    assert_eq!(xdg_run, cold);
    assert_eq!(
        cache_files(&xdg.join("oxcl")).len(),
        cache_files(&cache).len()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn damaged_files_are_ignored_and_rewritten() {
    let dir = fresh_dir("damaged");
    let cold = run_corpus(&strict_in(&dir));
    let files = cache_files(&dir);
    assert!(files.len() >= 3, "only {} cache files", files.len());
    // Truncated, one byte flipped in the code, garbage.
    let bytes = std::fs::read(&files[0]).expect("read");
    std::fs::write(&files[0], &bytes[..bytes.len() / 2]).expect("write");
    let mut bytes = std::fs::read(&files[1]).expect("read");
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&files[1], &bytes).expect("write");
    std::fs::write(&files[2], b"not a cache file at all").expect("write");

    let jit = strict_in(&dir);
    assert_eq!(run_corpus(&jit), cold);
    let stats = jit.stats();
    assert_eq!(stats.files_rejected, 3);
    assert!(stats.functions_compiled > 0);
    assert_eq!(stats.files_written, 3, "the damaged files are rewritten");

    let jit = strict_in(&dir);
    assert_eq!(run_corpus(&jit), cold);
    assert_eq!(jit.stats().functions_compiled, 0);
    assert_eq!(jit.stats().files_rejected, 0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn concurrent_writers_leave_readable_files() {
    let dir = fresh_dir("concurrent");
    let results: Vec<Vec<String>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..3)
            .map(|_| s.spawn(|| run_corpus(&strict_in(&dir))))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("writer thread"))
            .collect()
    });
    assert!(results.windows(2).all(|w| w[0] == w[1]));
    let jit = strict_in(&dir);
    assert_eq!(run_corpus(&jit), results[0]);
    assert_eq!(jit.stats().functions_compiled, 0);
    assert_eq!(jit.stats().files_rejected, 0);
    // Only final files remain (no temporary files).
    assert!(cache_files(&dir)
        .iter()
        .all(|f| f.extension().is_some_and(|e| e == "oxjit")));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_disabled_cache_compiles_every_time() {
    let first = strict_with(DiskCache::Off);
    let lines = run_corpus(&first);
    let second = strict_with(DiskCache::Off);
    assert_eq!(run_corpus(&second), lines);
    assert_eq!(
        second.stats().functions_compiled,
        first.stats().functions_compiled
    );
    assert_eq!(second.stats().functions_loaded, 0);
    assert_eq!(second.stats().files_written, 0);
}
