//! The quick check over every devlib math function and type (a small sample so it stays fast in
//! debug builds), a deliberately wrong function that must be reported, and the JSON output.

use mathcheck::subject::unary_subject;
use mathcheck::{check_all, check_sampled, select, Kind, Options};

fn small() -> Options {
    Options {
        samples: 2_000,
        ..Options::default()
    }
}

/// Functions devlib gets wrong today, each with what is wrong (none at the moment).
const KNOWN_FAILURES: &[(&str, &str)] = &[];

#[test]
fn every_devlib_function_passes_on_a_small_sample() {
    let subjects = select(&[], &[]).expect("all subjects");
    let reports = check_all(&subjects, &small()).expect("checked");
    assert_eq!(reports.len(), subjects.len());
    let failed: Vec<(String, &str)> = reports
        .iter()
        .filter(|r| !r.passed())
        .map(|r| (r.name.clone(), r.kind.name()))
        .collect();
    let expected: Vec<(String, &str)> = KNOWN_FAILURES
        .iter()
        .map(|(n, k)| (n.to_string(), *k))
        .collect();
    if failed != expected {
        eprintln!("{}", mathcheck::report::table(&reports));
    }
    assert_eq!(
        failed, expected,
        "failing functions (left) differ from the known failures (right)"
    );
}

#[test]
fn a_sin_four_ulp_off_fails() {
    // sin(x) + 4 ulp, computed with Rust's f64 sin (an independent, accurate sin).
    let wrong = unary_subject("sin", Kind::Float, |x| {
        let s = x.sin() as f32;
        if !s.is_finite() || s == 0.0 {
            return f64::from(s);
        }
        f64::from(f32::from_bits(s.to_bits() + 4))
    });
    let report = check_sampled(&wrong, &small()).expect("checked");
    assert!(!report.passed());
    // 4 steps is 4 ulp, or up to 8 where the steps cross into the next binade.
    assert!(
        report.max_error > 4.0 && report.max_error < 8.5,
        "{}",
        report.max_error
    );
    // The same construction without the offset passes.
    let right = unary_subject("sin", Kind::Float, |x| x.sin());
    assert!(check_sampled(&right, &small()).expect("checked").passed());
}

#[test]
fn a_wrong_edge_case_fails() {
    // exp with exp(-0) = 0.5: inside no bound, and an F.9 edge case.
    let wrong = unary_subject("exp", Kind::Half, |x| {
        if x == 0.0 && x.is_sign_negative() {
            0.5
        } else {
            x.exp()
        }
    });
    let report = check_sampled(&wrong, &small()).expect("checked");
    assert!(!report.passed());
    assert!(report.special_failures >= 1);
    // A sign error on a zero result is reported even though its ulp error is 0.
    let signless = unary_subject(
        "sin",
        Kind::Double,
        |x| if x == 0.0 { 0.0 } else { x.sin() },
    );
    let report = check_sampled(&signless, &small()).expect("checked");
    assert!(report.special_failures >= 1 && !report.passed());
}

#[test]
fn json_output_parses() {
    let subjects =
        select(&["exp".to_string(), "remquo".to_string()], &[Kind::Half]).expect("found");
    let reports = check_all(
        &subjects,
        &Options {
            samples: 100,
            ..Options::default()
        },
    )
    .expect("checked");
    let text = mathcheck::report::json(&reports).to_string();
    let value: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    let functions = value["functions"].as_array().expect("array");
    assert_eq!(functions.len(), 2);
    assert_eq!(functions[0]["function"], "exp");
    assert_eq!(functions[0]["type"], "half");
    assert!(functions[0]["max_ulp_error"].is_number());
    assert_eq!(functions[0]["bound_ulp"], 2.0);
    assert_eq!(value["failed"], 0);
}

#[test]
fn unknown_function_is_an_error() {
    assert!(select(&["sine".to_string()], &[]).is_err());
    assert!(select(&["half_exp".to_string()], &[Kind::Double]).is_err());
    assert_eq!(
        select(&["half_exp".to_string()], &[])
            .expect("float has it")
            .len(),
        1
    );
}

#[test]
fn every_conversion_passes_on_a_small_sample() {
    let reports = mathcheck::conversion::check_conversions(200, 7);
    // 11 × 11 pairs, vstore_half from float and double, vload_half.
    assert_eq!(reports.len(), 11 * 11 + 3);
    let failed: Vec<&str> = reports
        .iter()
        .filter(|r| !r.passed())
        .map(|r| r.name.as_str())
        .collect();
    if !failed.is_empty() {
        eprintln!("{}", mathcheck::conversion::table(&reports));
    }
    assert!(failed.is_empty(), "{failed:?}");
}

#[test]
fn every_geometric_function_passes_on_a_small_sample() {
    use mathcheck::geometric::{check_geometric, geo_subjects, table};
    let subjects = geo_subjects(&[], &[]);
    // dot, length, distance, normalize: 3 types × 4 widths; cross: 3 × 2; fast_*: float × 4.
    assert_eq!(subjects.len(), 4 * 3 * 4 + 3 * 2 + 3 * 4);
    let reports = check_geometric(&subjects, 300, 11, 2);
    let failed: Vec<String> = reports
        .iter()
        .filter(|r| !r.passed())
        .map(|r| {
            format!(
                "{} {} {}",
                r.subject.name,
                r.subject.kind.name(),
                r.subject.width
            )
        })
        .collect();
    if !failed.is_empty() {
        eprintln!("{}", table(&reports));
    }
    assert!(failed.is_empty(), "{failed:?}");
}

#[test]
fn a_strided_run_tries_every_kth_pattern() {
    // Half patterns 3, 10, 17, … below 2^16: ⌈(65536 − 3) / 7⌉ = 9362 of them.
    let subjects = select(&["exp".to_string()], &[Kind::Half]).expect("found");
    let options = Options {
        exhaustive: true,
        stride: 7,
        seed: 3,
        threads: 2,
        ..Options::default()
    };
    let report = mathcheck::check_exhaustive(&subjects[0], &options).expect("checked");
    assert_eq!(report.tried, 9362);
    assert!(!report.exhaustive && report.passed());
}

/// The float functions of 002's unsafe-math table and `x/y`, `1/x`, as oxcl runs them under
/// `-cl-unsafe-math-optimizations` (the same devlib functions and IEEE division).
#[test]
fn the_relaxed_table_passes_on_a_small_sample() {
    let names: Vec<String> = mathcheck::relaxed::FLOAT_RULES
        .iter()
        .map(|r| r.name.to_string())
        .collect();
    let subjects = mathcheck::select_relaxed(&names, &[Kind::Float]).expect("found");
    assert_eq!(subjects.len(), names.len());
    let options = Options {
        relaxed: true,
        ..small()
    };
    let reports = check_all(&subjects, &options).expect("checked");
    for r in &reports {
        assert!(
            matches!(r.bound, mathcheck::Bound::Relaxed(_)),
            "{} has no relaxed row",
            r.name
        );
    }
    let failed: Vec<&str> = reports
        .iter()
        .filter(|r| !r.passed())
        .map(|r| r.name.as_str())
        .collect();
    if !failed.is_empty() {
        eprintln!("{}", mathcheck::report::table(&reports));
    }
    assert!(failed.is_empty(), "{failed:?}");
    // Outside [-π, π] sin is undefined in this mode: the sample has such inputs.
    let sin = reports.iter().find(|r| r.name == "sin").expect("sin");
    assert!(sin.undefined > 0 && sin.max_fraction <= 1.0);
}

#[test]
fn relaxed_bounds_are_applied_per_input() {
    let relaxed = Options {
        relaxed: true,
        ..small()
    };
    // sin with an absolute error of 2^-12 (f64 sin, an independent reference): inside 002's
    // 2^-11 on [-π, π], far outside the full-profile 4 ulp. sin(±0) = ±0 stays exact (an edge
    // case of F.9, which no allowance relaxes).
    let off = |d: f64| move |x: f64| if x == 0.0 { x } else { x.sin() + d };
    let loose = unary_subject("sin", Kind::Float, off(2f64.powi(-12)));
    assert!(check_sampled(&loose, &relaxed).expect("checked").passed());
    assert!(!check_sampled(&loose, &small()).expect("checked").passed());
    let wrong = unary_subject("sin", Kind::Float, off(2f64.powi(-10)));
    let report = check_sampled(&wrong, &relaxed).expect("checked");
    assert!(!report.passed() && report.over_bound > 0);
    let (input, _) = report.first_over.expect("an input above the bound");
    assert!(input.x[0].abs() <= std::f64::consts::PI);
    // exp 4 to 8 ulp off (relative 2^-22): above 3 + floor(|2x|) only for |x| < 2.5.
    let exp = unary_subject("exp", Kind::Float, |x| x.exp() * (1.0 + 2f64.powi(-22)));
    let report = check_sampled(&exp, &relaxed).expect("checked");
    assert!(!report.passed());
    let (input, _) = report.first_over.expect("an input above the bound");
    assert!(input.x[0].abs() < 2.5, "{input:?}");
}
