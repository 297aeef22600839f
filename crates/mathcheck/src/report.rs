//! Presenting results: the table for people and the JSON document for machines.

use serde_json::{json, Value};

use crate::engine::FunctionReport;
use crate::kind::Kind;
use crate::subject::{Input, Output, Shape};

/// `x` as the shortest decimal that reads back as the same value of `kind`.
pub fn format_value(kind: Kind, x: f64) -> String {
    if x.is_nan() {
        return "nan".to_string();
    }
    match kind {
        Kind::Double => format!("{x:e}"),
        Kind::Float | Kind::Half => format!("{:e}", x as f32),
    }
}

/// The arguments of a call as text: `x`, `(x, y)`, `(x, y, z)` or `(x, n)`.
pub fn format_input(kind: Kind, shape: Shape, input: &Input) -> String {
    let mut parts: Vec<String> = input.x[..shape.real_args()]
        .iter()
        .map(|v| format_value(kind, *v))
        .collect();
    if shape.has_int_arg() {
        parts.push(input.n.to_string());
    }
    if parts.len() == 1 {
        parts.remove(0)
    } else {
        format!("({})", parts.join(", "))
    }
}

/// The results of a call as text.
pub fn format_output(kind: Kind, shape: Shape, output: &Output) -> String {
    let mut parts: Vec<String> = output.v[..shape.real_results()]
        .iter()
        .map(|v| format_value(kind, *v))
        .collect();
    if matches!(
        shape,
        Shape::WithInt | Shape::IntResult | Shape::Remquo | Shape::Compare
    ) {
        parts.push(output.k.to_string());
    }
    if parts.len() == 1 {
        parts.remove(0)
    } else {
        format!("({})", parts.join(", "))
    }
}

fn format_error(e: f64) -> String {
    if e.is_infinite() {
        "inf".to_string()
    } else if e == 0.0 {
        "0".to_string()
    } else if e >= 1e5 {
        format!("{e:.2e}")
    } else {
        format!("{e:.3}")
    }
}

/// The table: one line per function and type, then a summary line.
pub fn table(reports: &[FunctionReport]) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "{:<14} {:<6} {:>6} {:>9} {:<40} {:>11} {:>9} {:>7}  {}\n",
        "function",
        "type",
        "bound",
        "max ulp",
        "worst input",
        "tried",
        ">0.5 ulp",
        "special",
        "result"
    ));
    for r in reports {
        let worst = match &r.worst {
            Some((input, _)) if r.max_error > 0.0 => format_input(r.kind, r.shape, input),
            _ => "-".to_string(),
        };
        let verdict = if r.name.starts_with("native_")
            && !(r.special_failures == 0 && r.bound.allows(r.max_error))
        {
            "info"
        } else if r.passed() {
            "pass"
        } else {
            "FAIL"
        };
        out.push_str(&format!(
            "{:<14} {:<6} {:>6} {:>9} {:<40} {:>11} {:>9} {:>7}  {}{}\n",
            r.name,
            r.kind.name(),
            r.bound.to_string(),
            format_error(r.max_error),
            worst,
            r.tried,
            r.misrounded,
            r.special_failures,
            verdict,
            if r.exhaustive { " (all inputs)" } else { "" }
        ));
        if let Some((input, message)) = &r.first_over {
            out.push_str(&format!(
                "    {} inputs above the relaxed bound, first {}({}): {message}\n",
                r.over_bound,
                r.name,
                format_input(r.kind, r.shape, input)
            ));
        }
        if matches!(r.bound, crate::Bound::Relaxed(_)) {
            out.push_str(&format!(
                "    relaxed: largest error {:.4} of the allowance, {} inputs outside the domain\n",
                r.max_fraction, r.undefined
            ));
        }
        if let Some((input, message)) = &r.first_special {
            out.push_str(&format!(
                "    edge case {}({}): {message}\n",
                r.name,
                format_input(r.kind, r.shape, input)
            ));
        }
    }
    let failed = reports.iter().filter(|r| !r.passed()).count();
    let tried: u64 = reports.iter().map(|r| r.tried).sum();
    out.push_str(&format!(
        "{} passed, {} failed ({} inputs)\n",
        reports.len() - failed,
        failed,
        tried
    ));
    out
}

fn number_or_inf(x: f64) -> Value {
    if x.is_finite() {
        json!(x)
    } else {
        json!("inf")
    }
}

/// The JSON document: `{"functions": [...], "passed": n, "failed": n}`; errors are numbers
/// (or the string "inf"), inputs and outputs exact decimal strings.
pub fn json(reports: &[FunctionReport]) -> Value {
    let functions: Vec<Value> = reports
        .iter()
        .map(|r| {
            json!({
                "function": r.name,
                "type": r.kind.name(),
                "bound_ulp": r.bound.limit(),
                "max_ulp_error": number_or_inf(r.max_error),
                "worst_input": r.worst.as_ref().map(|(i, _)| format_input(r.kind, r.shape, i)),
                "worst_output": r.worst.as_ref().map(|(_, o)| format_output(r.kind, r.shape, o)),
                "inputs_tried": r.tried,
                "inputs_above_half_ulp": r.misrounded,
                "exhaustive": r.exhaustive,
                "special_failures": r.special_failures,
                "first_special_failure": r.first_special.as_ref().map(|(i, m)| json!({
                    "input": format_input(r.kind, r.shape, i),
                    "message": m,
                })),
                "relaxed": matches!(r.bound, crate::Bound::Relaxed(_)).then(|| json!({
                    "rule": r.bound.to_string(),
                    "inputs_above_bound": r.over_bound,
                    "first_above_bound": r.first_over.as_ref().map(|(i, m)| json!({
                        "input": format_input(r.kind, r.shape, i),
                        "message": m,
                    })),
                    "max_fraction_of_allowance": number_or_inf(r.max_fraction),
                    "inputs_outside_domain": r.undefined,
                })),
                "seconds": r.seconds,
                "pass": r.passed(),
            })
        })
        .collect();
    let failed = reports.iter().filter(|r| !r.passed()).count();
    json!({ "functions": functions, "passed": reports.len() - failed, "failed": failed })
}
