//! The exhaustive mode: its order of work (sweeps before the sampled functions), and its fast
//! path (the `f64` estimates) giving the same counts as MPFR alone, on strided sweeps.

use mathcheck::engine::{schedule, Mode};
use mathcheck::subject::unary_subject;
use mathcheck::{check_exhaustive, select, Kind, Options};

#[test]
fn sweeps_come_before_the_sampled_functions() {
    // pow (two arguments) and remquo cannot be exhausted; exp, sincos and ilogb can.
    let names = ["pow", "exp", "remquo", "sincos", "ilogb"].map(str::to_string);
    let subjects = select(&names, &[Kind::Float, Kind::Double]).expect("found");
    let position = |name: &str, kind: Kind| {
        subjects
            .iter()
            .position(|s| s.name == name && s.kind == kind)
            .expect("selected")
    };
    let options = Options {
        exhaustive: true,
        ..Options::default()
    };
    let plan = schedule(&subjects, &options);
    assert_eq!(plan.len(), subjects.len());
    // Float subjects come in the order exp, sincos, ilogb of `select` (type, then list order):
    // the exhaustive ones first, then everything else in subject order.
    let sweeps: Vec<usize> = plan
        .iter()
        .take_while(|(_, m)| *m == Mode::Exhaustive)
        .map(|(i, _)| *i)
        .collect();
    let mut expected = vec![
        position("exp", Kind::Float),
        position("sincos", Kind::Float),
        position("ilogb", Kind::Float),
    ];
    expected.sort();
    assert_eq!(sweeps, expected);
    assert!(plan[3..].iter().all(|(_, m)| *m == Mode::Sampled));
    let rest: Vec<usize> = plan[3..].iter().map(|(i, _)| *i).collect();
    let mut sorted = rest.clone();
    sorted.sort();
    assert_eq!(rest, sorted);
    // Without --exhaustive everything is sampled, in subject order.
    let quick = schedule(&subjects, &Options::default());
    assert!(quick
        .iter()
        .enumerate()
        .all(|(k, (i, m))| k == *i && *m == Mode::Sampled));
}

fn strided(stride: u64) -> Options {
    Options {
        exhaustive: true,
        stride,
        seed: 12345,
        threads: 2,
        ..Options::default()
    }
}

/// The estimates decide most inputs; the counts must be those of MPFR deciding every input.
#[test]
fn the_fast_path_agrees_with_mpfr() {
    let names = [
        "exp",
        "sin",
        "tgamma",
        "half_exp",
        "native_cos",
        "fract",
        "modf",
        "sincos",
        "frexp",
        "lgamma_r",
        "ilogb",
        "isnormal",
        "logb",
        "sign",
        "rint",
        "degrees",
    ]
    .map(str::to_string);
    let subjects = select(&names, &[Kind::Float]).expect("found");
    assert_eq!(subjects.len(), names.len());
    // About 16,000 inputs each, over every binade.
    let fast = strided(262_139);
    let slow = Options {
        prescreen: false,
        ..fast.clone()
    };
    for subject in &subjects {
        let a = check_exhaustive(subject, &fast).expect("checked");
        let b = check_exhaustive(subject, &slow).expect("checked");
        let what = &subject.name;
        assert_eq!(a.tried, b.tried, "{what}");
        assert_eq!(a.misrounded, b.misrounded, "{what}");
        assert_eq!(a.special_failures, b.special_failures, "{what}");
        assert!(
            (a.max_error - b.max_error).abs() <= mathcheck::estimate::MARGIN,
            "{what}: {} vs {}",
            a.max_error,
            b.max_error
        );
        assert_eq!(a.passed(), b.passed(), "{what}");
    }
}

#[test]
fn the_fast_path_catches_a_wrong_function() {
    // exp rounded, then 3 floats up (Rust's f64 exp, independent of devlib and glibc): at
    // least 3 ulp off wherever the result is finite and nonzero.
    let wrong = unary_subject("exp", Kind::Float, |x| {
        let e = x.exp() as f32;
        if !e.is_finite() || e == 0.0 {
            return f64::from(e);
        }
        f64::from(f32::from_bits(e.to_bits() + 3))
    });
    let fast = strided(262_139);
    let slow = Options {
        prescreen: false,
        ..fast.clone()
    };
    let a = check_exhaustive(&wrong, &fast).expect("checked");
    let b = check_exhaustive(&wrong, &slow).expect("checked");
    assert!(!a.passed());
    assert!(a.max_error > 2.5 && a.max_error < 6.5, "{}", a.max_error);
    assert_eq!(a.misrounded, b.misrounded);
    assert_eq!(a.max_error, b.max_error);
    // exp(x) is finite and nonzero in float for -103.97 < x < 88.73, about half of all
    // patterns (|x| < 2^7 on either side: (127 + 7) / 256 of each sign); each is misrounded.
    assert!(
        a.misrounded * 5 > a.tried * 2,
        "{} of {}",
        a.misrounded,
        a.tried
    );
}

#[test]
fn a_resumed_run_takes_saved_sweeps() {
    // Two half functions (2^16 arguments each) and one sampled (pow): the first run saves the
    // two sweeps, the second finds them and checks only pow again.
    let path = std::env::temp_dir().join(format!("mathcheck-resume-{}.jsonl", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let names = ["exp", "pow", "sqrt"].map(str::to_string);
    let subjects = select(&names, &[Kind::Half]).expect("found");
    let options = Options {
        exhaustive: true,
        samples: 200,
        dense_samples: 200,
        resume: Some(path.clone()),
        ..Options::default()
    };
    let first = mathcheck::check_all(&subjects, &options).expect("checked");
    let saved = std::fs::read_to_string(&path).expect("saved");
    assert_eq!(saved.lines().count(), 2);
    let second = mathcheck::check_all(&subjects, &options).expect("checked");
    assert_eq!(std::fs::read_to_string(&path).expect("saved"), saved);
    for (a, b) in first.iter().zip(&second) {
        assert_eq!(
            (&a.name, a.tried, a.max_error),
            (&b.name, b.tried, b.max_error)
        );
        assert_eq!(a.exhaustive, b.exhaustive);
    }
    assert_eq!(
        first.iter().filter(|r| r.exhaustive).count(),
        2,
        "exp and sqrt exhausted"
    );
    let _ = std::fs::remove_file(&path);
}
