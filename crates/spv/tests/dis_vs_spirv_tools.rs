//! Our disassembler against SPIRV-Tools: modules assembled by `spirv-as` from the hand-written
//! `tests/data/*.spvasm` must disassemble to exactly what `spirv-dis --raw-id` prints, and
//! `spirv-as` of our text must give back the same module; our assembler must agree with
//! `spirv-as` on the same text and on our disassembly. Skips when the tools are absent.

use std::path::{Path, PathBuf};
use std::process::Command;

fn data_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/data")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "spvasm"))
        .collect();
    files.sort();
    files
}

/// A scratch path; each test uses its own file names (`name` starts with the test's data name).
fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("spv-dis-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn remove_scratch(name: &str) {
    for suffix in [".spvasm", ".spv", ".dis.spv", ".again.spvasm", ".again.spv"] {
        let _ = std::fs::remove_file(tmp(&format!("{name}{suffix}")));
    }
    // Removes the directory only once it is empty (the other test may still use it).
    let _ = std::fs::remove_dir(tmp("x").parent().unwrap());
}

fn target_env(text: &str) -> String {
    text.lines()
        .next()
        .and_then(|l| l.strip_prefix("; target-env: "))
        .unwrap_or("spv1.0")
        .trim()
        .to_string()
}

/// `spirv-as` text → bytes, or `None` when the tool is missing.
fn spirv_as(text: &str, env: &str, name: &str) -> Option<Vec<u8>> {
    let src = tmp(&format!("{name}.spvasm"));
    let out = tmp(&format!("{name}.spv"));
    std::fs::write(&src, text).unwrap();
    let r = Command::new("spirv-as")
        .args(["--preserve-numeric-ids", "--target-env", env, "-o"])
        .arg(&out)
        .arg(&src)
        .output()
        .ok()?;
    assert!(
        r.status.success(),
        "spirv-as {name}: {}",
        String::from_utf8_lossy(&r.stderr)
    );
    Some(std::fs::read(&out).unwrap())
}

fn spirv_dis(bytes: &[u8], name: &str) -> Option<String> {
    let path = tmp(&format!("{name}.dis.spv"));
    std::fs::write(&path, bytes).unwrap();
    let r = Command::new("spirv-dis")
        .args(["--raw-id", "--no-color"])
        .arg(&path)
        .output()
        .ok()?;
    assert!(r.status.success(), "spirv-dis {name}");
    Some(String::from_utf8(r.stdout).unwrap())
}

#[test]
fn disassembly_matches_spirv_dis_and_reassembles() {
    let files = data_files();
    assert!(files.len() >= 3);
    for file in files {
        let name = file.file_stem().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&file).unwrap();
        let env = target_env(&text);
        let Some(bytes) = spirv_as(&text, &env, &name) else {
            eprintln!("skipping: spirv-as not available");
            return;
        };
        let module = spv::read_bytes(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(module.to_bytes(), bytes, "{name}: read/write round trip");
        let ours = spv::disassemble(&module);
        let Some(theirs) = spirv_dis(&bytes, &name) else {
            eprintln!("skipping: spirv-dis not available");
            return;
        };
        for (i, (a, b)) in ours.lines().zip(theirs.lines()).enumerate() {
            assert_eq!(a, b, "{name}: line {}", i + 1);
        }
        assert_eq!(ours, theirs, "{name}: whole text");
        // spirv-as of our text gives the same module (its generator word is its own).
        let again = spirv_as(&ours, &env, &format!("{name}.again")).unwrap();
        let again = spv::read_bytes(&again).unwrap();
        assert_eq!(
            again.header.version, module.header.version,
            "{name}: version"
        );
        assert_eq!(again.header.bound, module.header.bound, "{name}: bound");
        assert_eq!(
            again.instructions, module.instructions,
            "{name}: instructions"
        );
        // Our assembler agrees with spirv-as on the hand-written text…
        let ours_from_text = spv::assemble(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let strip = |m: &spv::Module| -> Vec<spv::Instruction> {
            m.instructions
                .iter()
                .map(|i| spv::Instruction {
                    offset: 0,
                    ..i.clone()
                })
                .collect()
        };
        assert_eq!(strip(&ours_from_text), strip(&module), "{name}: assemble");
        assert_eq!(
            ours_from_text.header.bound, module.header.bound,
            "{name}: bound"
        );
        // …and reads its own disassembly back to the identical module.
        let back = spv::assemble(&ours).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            back.to_words(),
            module.to_words(),
            "{name}: assemble(disassemble)"
        );
        remove_scratch(&name);
    }
}

#[test]
fn instruction_text_is_one_line() {
    let Some(bytes) = spirv_as(
        "OpCapability Kernel\nOpCapability Addresses\nOpMemoryModel Physical32 OpenCL\n%1 = OpTypeInt 32 0\n%2 = OpConstant %1 7\n",
        "spv1.0",
        "one_line",
    ) else {
        eprintln!("skipping: spirv-as not available");
        return;
    };
    let m = spv::read_bytes(&bytes).unwrap();
    assert_eq!(
        spv::instruction_text(&m, &m.instructions[4]),
        "%2 = OpConstant %1 7"
    );
    assert_eq!(
        spv::instruction_text(&m, &m.instructions[2]),
        "OpMemoryModel Physical32 OpenCL"
    );
    remove_scratch("one_line");
}
