//! Running a kernel on PoCL (the system's OpenCL CPU driver) through a small C harness, as an
//! independent oracle for differential tests.

use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;

/// A kernel argument of a differential test.
#[derive(Clone, Debug)]
pub enum Arg {
    Buffer(Vec<u8>),
    Local(usize),
    Scalar(Vec<u8>),
}

/// The result of a run: every buffer's final bytes and the printf output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub buffers: Vec<Vec<u8>>,
    pub printf: String,
}

static HARNESS: OnceLock<Option<PathBuf>> = OnceLock::new();
static COUNTER: AtomicU32 = AtomicU32::new(0);

/// The compiled harness, or `None` (with a printed reason) when cc, OpenCL or a device is missing.
fn harness() -> Option<&'static PathBuf> {
    HARNESS
        .get_or_init(|| {
            let dir = std::env::temp_dir().join(format!("exec_pocl_{}", std::process::id()));
            std::fs::create_dir_all(&dir).ok()?;
            let src = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/common/pocl_harness.c");
            let exe = dir.join("harness");
            let cc = Command::new("cc")
                .arg("-O1")
                .arg("-o")
                .arg(&exe)
                .arg(src)
                .arg("-lOpenCL")
                .output();
            match cc {
                Ok(out) if out.status.success() => Some(exe),
                Ok(out) => {
                    eprintln!(
                        "skipping PoCL comparison: cannot build the harness: {}",
                        String::from_utf8_lossy(&out.stderr)
                    );
                    None
                }
                Err(e) => {
                    eprintln!("skipping PoCL comparison: no C compiler: {e}");
                    None
                }
            }
        })
        .as_ref()
}

/// Runs `kernel` of `source` on PoCL; `None` when PoCL is unavailable.
pub fn run(
    source: &str,
    kernel: &str,
    global: &[u64],
    local: &[u64],
    args: &[Arg],
) -> Option<Outcome> {
    let exe = harness()?;
    let n = COUNTER.fetch_add(1, Ordering::SeqCst);
    let dir = std::env::temp_dir().join(format!("exec_pocl_{}_{n}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let cl = dir.join("k.cl");
    std::fs::write(&cl, source).expect("write source");
    let join = |v: &[u64]| v.iter().map(u64::to_string).collect::<Vec<_>>().join(",");
    let mut cmd = Command::new(exe);
    cmd.arg(&cl).arg(kernel).arg(join(global)).arg(join(local));
    let mut paths = Vec::new();
    for (i, arg) in args.iter().enumerate() {
        match arg {
            Arg::Buffer(bytes) => {
                let p = dir.join(format!("buf{i}"));
                std::fs::write(&p, bytes).expect("write buffer");
                cmd.arg(format!("b:{}", p.display()));
                paths.push(p);
            }
            Arg::Local(size) => {
                cmd.arg(format!("l:{size}"));
            }
            Arg::Scalar(bytes) => {
                cmd.arg(format!(
                    "s:{}",
                    bytes.iter().map(|b| format!("{b:02x}")).collect::<String>()
                ));
            }
        }
    }
    let out = cmd.output().expect("run harness");
    match out.status.code() {
        Some(0) => {}
        Some(77) => {
            eprintln!("skipping PoCL comparison: no OpenCL device");
            return None;
        }
        _ => panic!("PoCL run failed: {}", String::from_utf8_lossy(&out.stderr)),
    }
    let buffers = paths
        .iter()
        .map(|p| std::fs::read(p).expect("read buffer"))
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    Some(Outcome {
        buffers,
        printf: String::from_utf8_lossy(&out.stdout).into_owned(),
    })
}
