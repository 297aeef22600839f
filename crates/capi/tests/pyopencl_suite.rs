//! pyopencl's own test suite on oxcl: the quick files of the `test/` directory of the pyopencl
//! sdist matching the installed pyopencl (`test_wrapper.py`, `test_enqueue_copy.py`,
//! `test_arrays_in_structs.py`, `test_clrandom.py`, about a minute together) run with pytest through the ICD loader
//! with oxcl as the only platform. Every test that passed on PoCL 3.1 (the list below, from
//! `scripts/pyopencl-suite.sh` on this machine) must pass on oxcl, or be skipped by the suite
//! because the device does not claim the optional feature it needs (SVM): the suite itself
//! checks the results against numpy, so PoCL is only the witness of which tests a correct
//! implementation passes.
//!
//! The suite's sources come from `scripts/pyopencl-suite.sh` (it unpacks them into
//! `target/pyopencl-suite/`); `OXCL_PYOPENCL_TESTS` may point at another `test/` directory.
//! Skips with a printed reason when pytest, pyopencl or the sources are absent.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::vendors_dir;

const PYTHON: &str = "/usr/bin/python3";

/// Test files run here, with the tests PoCL 3.1 passed in each (pytest names without the
/// context-factory parameter). PoCL's results on the other tests of these files: `test_spirv`
/// skipped (no SPIR-V input; see [`OXCL_FEATURE_PASSES`]), `test_image_2d`/`test_image_3d` expected failures on PoCL.
const POCL_PASSES: &[(&str, &[&str])] = &[
    (
        "test_wrapper.py",
        &[
            "test_allocator",
            "test_buffer_get_host_array",
            "test_can_build_and_run_binary",
            "test_capture_call",
            "test_coarse_grain_svm",
            "test_command_queue_context_manager",
            "test_compile_link",
            "test_context_dep_memoize",
            "test_copy_buffer",
            "test_copy_buffer_rect",
            "test_device_topology_amd_constructor",
            "test_empty_ndrange",
            "test_enqueue_barrier_marker",
            "test_enqueue_copy_array",
            "test_enqueue_copy_array_2",
            "test_event_set_callback",
            "test_fine_grain_svm",
            "test_get_info",
            "test_global_offset",
            "test_header_dep_handling",
            "test_image_format_constructor",
            "test_int_ptr",
            "test_invalid_kernel_names_cause_failures",
            "test_map_dtype",
            "test_mempool",
            "test_mempool_2",
            "test_mempool_32bit_issues",
            "test_nonempty_supported_image_formats",
            "test_platform_get_devices",
            "test_program_valued_get_info",
            "test_sub_buffers",
            "test_that_python_args_fail",
            "test_threaded_nanny_events",
            "test_unload_compiler",
            "test_user_event",
            "test_vector_args",
            "test_wait_for_events",
        ],
    ),
    (
        "test_enqueue_copy.py",
        &["test_enqueue_copy_rect_2d", "test_enqueue_copy_rect_3d"],
    ),
    (
        "test_arrays_in_structs.py",
        &["test_struct_with_array_fields"],
    ),
    // 21 parametrizations (generator × dtype), all passed by PoCL 3.1.
    ("test_clrandom.py", &["test_clrandom_dtypes"]),
];

/// Tests PoCL 3.1 skips for lack of a feature oxcl claims, which must pass on oxcl (the suite
/// checks the result against numpy): `test_spirv` loads pyopencl's `add-vectors-64.spv`, a
/// SPIR-V 1.0 module of the llvm-spirv 14 era whose built-in variable is in UniformConstant
/// storage (PoCL 3.1 takes no SPIR-V input).
const OXCL_FEATURE_PASSES: &[(&str, &str)] = &[("test_wrapper.py", "test_spirv")];

/// The suite's `test/` directory: `OXCL_PYOPENCL_TESTS`, or what the script unpacked.
fn suite_dir() -> Option<PathBuf> {
    if let Ok(dir) = std::env::var("OXCL_PYOPENCL_TESTS") {
        return Some(PathBuf::from(dir));
    }
    let version = Command::new(PYTHON)
        .args(["-c", "import pyopencl.version as v; print(v.VERSION_TEXT)"])
        .output()
        .ok()
        .filter(|o| o.status.success())?;
    let version = String::from_utf8_lossy(&version.stdout).trim().to_string();
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = workspace.join(format!("target/pyopencl-suite/pyopencl-{version}/test"));
    dir.is_dir().then_some(dir)
}

/// Outcome of each test case in a JUnit XML file written by pytest: the name without its
/// parameter, and `pass`, `skip: <message>` or `fail`. Parametrized tests count once per
/// outcome; the worst outcome wins.
fn junit_outcomes(xml: &str) -> BTreeMap<String, String> {
    let mut outcomes: BTreeMap<String, String> = BTreeMap::new();
    for case in xml.split("<testcase ").skip(1) {
        let name = attribute(&format!(" {case}"), "name").unwrap_or_default();
        let base = name.split('[').next().unwrap_or_default().to_string();
        let body_end = case.find("</testcase>").unwrap_or(case.len());
        let body = &case[..body_end];
        let outcome = if body.contains("<failure") || body.contains("<error") {
            "fail".to_string()
        } else if let Some(at) = body.find("<skipped") {
            format!(
                "skip: {}",
                attribute(&body[at..], "message").unwrap_or_default()
            )
        } else {
            "pass".to_string()
        };
        let worse = match outcomes.get(&base) {
            Some(previous) if previous == "fail" => false,
            Some(previous) if previous.starts_with("skip") => outcome == "fail",
            _ => true,
        };
        if worse {
            outcomes.insert(base, outcome);
        }
    }
    outcomes
}

fn attribute(tag: &str, name: &str) -> Option<String> {
    // A space before the name, so that `name` does not match the end of `classname`.
    let key = format!(" {name}=\"");
    let start = tag.find(&key)? + key.len();
    let end = start + tag[start..].find('"')?;
    Some(tag[start..end].to_string())
}

#[test]
fn pyopencl_suite_passes_what_pocl_passes() {
    let probe = Command::new(PYTHON)
        .args(["-c", "import pyopencl, numpy, pytest"])
        .output();
    if !probe.is_ok_and(|o| o.status.success()) {
        eprintln!("skipped: {PYTHON} with pyopencl, numpy and pytest is not available");
        return;
    }
    let Some(tests) = suite_dir() else {
        eprintln!(
            "skipped: pyopencl's test sources are absent (run scripts/pyopencl-suite.sh once, \
             or set OXCL_PYOPENCL_TESTS)"
        );
        return;
    };
    let Some(vendors) = vendors_dir("pyopencl-suite") else {
        return;
    };
    let mut problems = Vec::new();
    for (file, pocl_passes) in POCL_PASSES {
        let xml_path = vendors.join(file.replace(".py", ".xml"));
        let out = Command::new(PYTHON)
            .args(["-m", "pytest", "-p", "no:cacheprovider", "-q", "-rfEs"])
            .arg(format!("--junitxml={}", xml_path.display()))
            .arg(file)
            .current_dir(&tests)
            .env("OCL_ICD_VENDORS", &vendors)
            // pyopencl caches binaries by driver version: a changed compiler must not be
            // served a stale binary.
            .env("PYOPENCL_NO_CACHE", "1")
            .output()
            .expect("run pytest");
        let log = String::from_utf8_lossy(&out.stdout);
        eprintln!("{file}: {}", log.lines().last().unwrap_or("no output"));
        let xml = std::fs::read_to_string(&xml_path).unwrap_or_default();
        let outcomes = junit_outcomes(&xml);
        for test in *pocl_passes {
            match outcomes.get(*test).map(String::as_str) {
                Some("pass") => {}
                // An optional feature the device does not claim (pyopencl's own skip).
                Some(skip) if skip.contains("does not support") => {
                    eprintln!("  {file}::{test} {skip}");
                }
                other => problems.push(format!("{file}::{test}: {other:?}\n{log}")),
            }
        }
        for (_, test) in OXCL_FEATURE_PASSES.iter().filter(|(f, _)| f == file) {
            let outcome = outcomes.get(*test).map(String::as_str);
            if outcome != Some("pass") {
                problems.push(format!("{file}::{test}: {outcome:?}\n{log}"));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&vendors);
    assert!(
        problems.is_empty(),
        "tests PoCL passes that oxcl does not:\n{}",
        problems.join("\n")
    );
}
