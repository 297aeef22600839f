//! Named barriers on the interpreter and the JIT: the scenarios of
//! `consumer_coverage/named_barrier_cases.rs`, one test per scenario (both engines). Skips with
//! a printed reason when spirv-as or spirv-val is absent.

#[path = "consumer_coverage/harness.rs"]
mod harness;
#[path = "consumer_coverage/named_barrier_cases.rs"]
mod named_barrier_cases;

use named_barrier_cases as cases;

fn module() -> Option<kir::Module> {
    if !cases::tools_available() {
        eprintln!("skipping: spirv-as or spirv-val is not installed");
        return None;
    }
    Some(cases::module().0)
}

#[test]
fn pairs_meet_at_their_own_barrier() {
    let Some(m) = module() else { return };
    for e in cases::engines() {
        cases::pairs(&*e, &m);
    }
}

#[test]
fn a_barrier_serves_several_phases() {
    let Some(m) = module() else { return };
    for e in cases::engines() {
        cases::rounds(&*e, &m);
    }
}

#[test]
fn too_few_arrivals_is_divergence() {
    let Some(m) = module() else { return };
    for e in cases::engines() {
        cases::too_few(&*e, &m);
    }
}

#[test]
fn a_count_above_the_sub_groups_is_an_error() {
    let Some(m) = module() else { return };
    for e in cases::engines() {
        cases::bad_count(&*e, &m);
    }
}

#[test]
fn named_barriers_print_and_parse_back() {
    let Some(m) = module() else { return };
    let text = m.to_string();
    assert!(text.contains("namedbarrier workgroup, 0x110 v"), "{text}");
    let parsed = kir::parse_module(&text).unwrap_or_else(|e| panic!("{e:?}\n{text}"));
    kir::verify_module(&parsed).expect("verifies");
    assert_eq!(parsed.to_string(), text);
}
