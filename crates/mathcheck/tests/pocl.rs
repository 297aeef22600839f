//! The PoCL comparison (`oxcl mathcheck --pocl`) on a tiny stride: PoCL's results must arrive
//! in argument order (its exact functions then have no error at all) and oxcl's side must be
//! what the exhaustive mode measures on the same arguments. Skipped, with the reason, when
//! python3, pyopencl or PoCL is missing.

use mathcheck::pocl::{compare_with_pocl, PoclError};
use mathcheck::{check_exhaustive, select, Kind, Options};

#[test]
fn pocl_and_oxcl_are_measured_on_the_same_arguments() {
    let names = ["fabs", "floor", "sqrt", "exp", "half_exp"].map(str::to_string);
    // Also a two-argument function, which the comparison leaves out.
    let mut subjects = select(&names, &[Kind::Float]).expect("found");
    subjects.extend(select(&["pow".to_string()], &[Kind::Float]).expect("found"));
    // 2^32 / 1,048,573 ≈ 4096 arguments per function, from offset 7.
    let options = Options {
        exhaustive: true,
        stride: 1_048_573,
        seed: 7,
        threads: 2,
        ..Options::default()
    };
    let comparisons = match compare_with_pocl(&subjects, &options) {
        Ok(c) => c,
        Err(PoclError::Unavailable(reason)) => {
            eprintln!("skipped: {reason}");
            return;
        }
        Err(e) => panic!("{e}"),
    };
    assert_eq!(comparisons.len(), names.len());
    let expected_tried = ((1u64 << 32) - 7).div_ceil(1_048_573);
    for (c, subject) in comparisons.iter().zip(&subjects) {
        assert_eq!(c.oxcl.name, subject.name);
        let pocl = c.pocl.as_ref().expect("PoCL builds every function here");
        assert_eq!((c.oxcl.tried, pocl.tried), (expected_tried, expected_tried));
        // oxcl's side is the exhaustive mode's measure of the same arguments.
        let alone = check_exhaustive(subject, &options).expect("checked");
        assert_eq!(c.oxcl.max_error, alone.max_error, "{}", subject.name);
        assert_eq!(c.oxcl.misrounded, alone.misrounded, "{}", subject.name);
    }
    let pocl = |name: &str| {
        comparisons
            .iter()
            .find(|c| c.oxcl.name == name)
            .and_then(|c| c.pocl.clone())
            .expect("compared")
    };
    // fabs and floor are exact everywhere (also NaN and ±∞): any shift or misread of PoCL's
    // results would show here as a large error.
    for name in ["fabs", "floor"] {
        let r = pocl(name);
        assert_eq!((r.max_error, r.misrounded), (0.0, 0), "{name}");
        assert_eq!(r.special_failures, 0, "{name}");
    }
    // PoCL's exp is within 002's 3 ulp; half_exp within 8192.
    assert!(pocl("exp").max_error <= 3.0);
    assert!(pocl("half_exp").max_error <= 8192.0);
    let table = mathcheck::pocl::table(&comparisons);
    assert!(table.lines().count() > names.len());
    eprintln!("{table}");
}
