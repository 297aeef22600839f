//! Device-side enqueue on the interpreter and the JIT: the scenarios of
//! `consumer_coverage/enqueue_cases.rs`, one test per scenario (both engines). Skips with a
//! printed reason when clang-15 or llvm-spirv-15 is absent.

#[path = "consumer_coverage/enqueue_cases.rs"]
mod enqueue_cases;
#[path = "consumer_coverage/harness.rs"]
mod harness;

use enqueue_cases as cases;

fn module() -> Option<kir::Module> {
    if !harness::tools_available() {
        eprintln!("skipping: clang-15 or llvm-spirv-15 is not installed");
        return None;
    }
    Some(cases::module().0)
}

#[test]
fn a_child_per_work_group() {
    let Some(m) = module() else { return };
    for e in cases::engines() {
        cases::per_group(&*e, &m);
    }
}

#[test]
fn children_enqueue_children() {
    let Some(m) = module() else { return };
    for e in cases::engines() {
        cases::nested(&*e, &m);
    }
}

#[test]
fn events_markers_and_user_events() {
    let Some(m) = module() else { return };
    for e in cases::engines() {
        cases::events(&*e, &m);
    }
}

#[test]
fn null_event_pointers() {
    let Some(m) = module() else { return };
    for e in cases::engines() {
        cases::null_events(&*e, &m);
    }
}

#[test]
fn clk_null_event_constant() {
    let Some(m) = module() else { return };
    for e in cases::engines() {
        cases::null_event_constant(&*e, &m);
    }
}

#[test]
fn profiling_exec_time_and_complete() {
    let Some(m) = module() else { return };
    for e in cases::engines() {
        cases::profiling(&*e, &m);
    }
}

#[test]
fn two_dimensional_child_with_local_memory() {
    let Some(m) = module() else { return };
    for e in cases::engines() {
        cases::two_d(&*e, &m);
    }
}

#[test]
fn enqueue_errors() {
    let Some(m) = module() else { return };
    for e in cases::engines() {
        cases::errors(&*e, &m);
    }
}

#[test]
fn kernel_queries() {
    let Some(m) = module() else { return };
    for e in cases::engines() {
        cases::queries(&*e, &m);
    }
}

#[test]
fn enqueue_instructions_print_and_parse_back() {
    let Some(m) = module() else { return };
    let text = m.to_string();
    assert!(text.contains("enqueue.i32 kernel fn"), "{text}");
    let parsed = kir::parse_module(&text).unwrap_or_else(|e| panic!("{e:?}\n{text}"));
    kir::verify_module(&parsed).expect("verifies");
    assert_eq!(parsed.to_string(), text);
}
