//! Resuming an exhaustive run: each function's result is appended to a file (one JSON object
//! per line) as soon as it is complete, and a later run with the same file takes the results
//! found there instead of checking those functions again.

use std::io::Write;
use std::path::Path;

use serde_json::{json, Value};

use crate::bound::bound;
use crate::engine::FunctionReport;
use crate::kind::Kind;
use crate::subject::{Input, Output, Subject};

fn input_value(input: &Input) -> Value {
    json!({ "x": input.x.iter().map(|v| v.to_bits()).collect::<Vec<_>>(), "n": input.n })
}

fn input_from(v: &Value) -> Option<Input> {
    let bits = v["x"].as_array()?;
    let mut input = Input {
        x: [0.0; 3],
        n: i32::try_from(v["n"].as_i64()?).ok()?,
    };
    for (slot, b) in input.x.iter_mut().zip(bits) {
        *slot = f64::from_bits(b.as_u64()?);
    }
    Some(input)
}

/// One line of the resume file.
fn record(r: &FunctionReport) -> Value {
    json!({
        "function": r.name,
        "type": r.kind.name(),
        "max_error_bits": r.max_error.to_bits(),
        "worst": r.worst.as_ref().map(|(i, o)| json!({
            "input": input_value(i),
            "v": o.v.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
            "k": o.k,
        })),
        "tried": r.tried,
        "misrounded": r.misrounded,
        "special_failures": r.special_failures,
        "first_special": r.first_special.as_ref().map(|(i, m)| json!({ "input": input_value(i), "message": m })),
        "exhaustive": r.exhaustive,
        "seconds": r.seconds,
    })
}

/// Appends the result of one function to `path`.
pub fn append(path: &Path, r: &FunctionReport) -> std::io::Result<()> {
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?;
    writeln!(file, "{}", record(r))
}

/// The saved result for `subject` in `path`, if any (unreadable lines are skipped: they are
/// what an interrupted write leaves).
pub fn find(path: &Path, subject: &Subject) -> Option<FunctionReport> {
    let text = std::fs::read_to_string(path).ok()?;
    text.lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .find_map(|v| {
            if v["function"] != subject.name.as_str()
                || Kind::parse(v["type"].as_str()?)? != subject.kind
            {
                return None;
            }
            let worst = match &v["worst"] {
                Value::Null => None,
                w => {
                    let vs = w["v"].as_array()?;
                    let output = Output {
                        v: [
                            f64::from_bits(vs.first()?.as_u64()?),
                            f64::from_bits(vs.get(1)?.as_u64()?),
                        ],
                        k: i32::try_from(w["k"].as_i64()?).ok()?,
                    };
                    Some((input_from(&w["input"])?, output))
                }
            };
            let first_special = match &v["first_special"] {
                Value::Null => None,
                s => Some((input_from(&s["input"])?, s["message"].as_str()?.to_string())),
            };
            Some(FunctionReport {
                name: subject.name.clone(),
                kind: subject.kind,
                shape: subject.shape,
                bound: bound(&subject.name, subject.kind)?,
                max_error: f64::from_bits(v["max_error_bits"].as_u64()?),
                worst,
                tried: v["tried"].as_u64()?,
                misrounded: v["misrounded"].as_u64().unwrap_or(0),
                special_failures: v["special_failures"].as_u64()?,
                first_special,
                over_bound: 0,
                first_over: None,
                max_fraction: 0.0,
                undefined: 0,
                exhaustive: v["exhaustive"].as_bool()?,
                seconds: v["seconds"].as_f64()?,
                histogram: None,
            })
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::subject::unary_subject;

    #[test]
    fn a_saved_result_reads_back() {
        let subject = unary_subject("exp", Kind::Half, f64::exp);
        let report = FunctionReport {
            name: "exp".into(),
            kind: Kind::Half,
            shape: subject.shape,
            bound: crate::Bound::Ulp(2.0),
            max_error: 0.49,
            worst: Some((
                Input {
                    x: [1.5, 0.0, 0.0],
                    n: 0,
                },
                Output {
                    v: [4.48046875, 0.0],
                    k: 0,
                },
            )),
            tried: 65536,
            misrounded: 3,
            special_failures: 1,
            first_special: Some((
                Input {
                    x: [-0.0, 0.0, 0.0],
                    n: 0,
                },
                "expected 1".into(),
            )),
            over_bound: 0,
            first_over: None,
            max_fraction: 0.0,
            undefined: 0,
            exhaustive: true,
            seconds: 0.5,
            histogram: None,
        };
        let path =
            std::env::temp_dir().join(format!("mathcheck-resume-{}.jsonl", std::process::id()));
        let _ = std::fs::remove_file(&path);
        append(&path, &report).expect("written");
        let back = find(&path, &subject).expect("found");
        let _ = std::fs::remove_file(&path);
        assert_eq!(back.max_error, 0.49);
        assert_eq!(back.worst, report.worst);
        assert_eq!(
            back.first_special
                .as_ref()
                .map(|(i, _)| i.x[0].is_sign_negative()),
            Some(true)
        );
        assert_eq!(
            (
                back.tried,
                back.misrounded,
                back.special_failures,
                back.exhaustive
            ),
            (65536, 3, 1, true)
        );
        assert!(find(&path, &unary_subject("log", Kind::Half, f64::ln)).is_none());
    }
}
