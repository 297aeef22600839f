//! Shared helpers for the tests comparing oxcl's warnings with clang-15's: parse `file:line:col:
//! warning: text` lines, compare them with a recorded list, and run clang-15 on a source.

use std::process::Command;

/// Warnings of a compiler log as (line, column, text without the `[-W…]` flag name).
pub fn warnings(log: &str) -> Vec<(u32, u32, String)> {
    log.lines()
        .filter_map(|l| {
            let (pos, text) = l.split_once(": warning: ")?;
            let mut it = pos.rsplit(':');
            let col = it.next()?.parse().ok()?;
            let line = it.next()?.parse().ok()?;
            let text = match text.rfind(" [-W") {
                Some(k) => &text[..k],
                None => text,
            };
            Some((line, col, text.to_string()))
        })
        .collect()
}

/// Checks that `found` holds exactly the warnings of `want` (a column of 0 matches any column);
/// `who` names the compiler in the panic message.
pub fn assert_same(found: &[(u32, u32, String)], want: &[(u32, u32, &str)], who: &str) {
    for (line, col, text) in want {
        assert!(
            found
                .iter()
                .any(|(l, c, t)| l == line && (*col == 0 || c == col) && t == text),
            "{who} does not say {line}:{col}: {text}\n{found:?}"
        );
    }
    assert_eq!(found.len(), want.len(), "{who}: {found:?}");
}

/// clang-15's diagnostics for `source` compiled as OpenCL C 2.0 for spir64, or `None` (with a
/// printed reason) when clang-15 is not installed.
pub fn clang15_stderr(source: &str, tag: &str) -> Option<String> {
    clang15(source, tag).map(|(_, stderr)| stderr)
}

/// Whether clang-15 accepts `source` (OpenCL C 2.0, spir64) and its diagnostics, or `None`
/// (with a printed reason) when clang-15 is not installed.
pub fn clang15(source: &str, tag: &str) -> Option<(bool, String)> {
    if Command::new("clang-15").arg("--version").output().is_err() {
        eprintln!("clang-15 not found: skipping");
        return None;
    }
    let f = std::env::temp_dir().join(format!("clc-{tag}-{}.cl", std::process::id()));
    std::fs::write(&f, source).expect("write");
    let out = Command::new("clang-15")
        .args([
            "-c",
            "-emit-llvm",
            "-target",
            "spir64",
            "-cl-std=CL2.0",
            "-o",
            "/dev/null",
        ])
        .arg(&f)
        .output()
        .expect("clang-15");
    let _ = std::fs::remove_file(&f);
    Some((
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    ))
}
