//! Compiler diagnostics (errors, warnings, notes) with spans, rendered clang-style:
//! `file:line:col: error: message`, the source line, and a `^~~~` marker.

use crate::source::{SourceMap, Span};

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
    Note,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub span: Option<Span>,
    pub message: String,
}

/// The diagnostics of one compilation, in the order they were reported.
#[derive(Default, Debug, Clone)]
pub struct Diagnostics {
    list: Vec<Diagnostic>,
    warnings_as_errors: bool,
    suppress_warnings: bool,
    /// Whether the last warning was dropped by `-w`, so that its notes are dropped too.
    last_dropped: bool,
}

impl Diagnostics {
    pub fn new() -> Diagnostics {
        Diagnostics::default()
    }

    /// `-Werror`: warnings reported from now on become errors.
    pub fn set_warnings_as_errors(&mut self, on: bool) {
        self.warnings_as_errors = on;
    }

    /// `-w`: warnings reported from now on are dropped.
    pub fn set_suppress_warnings(&mut self, on: bool) {
        self.suppress_warnings = on;
    }

    pub fn push(&mut self, mut d: Diagnostic) {
        match d.severity {
            Severity::Warning if self.suppress_warnings => {
                self.last_dropped = true;
                return;
            }
            Severity::Warning if self.warnings_as_errors => d.severity = Severity::Error,
            Severity::Note if self.last_dropped => return,
            _ => {}
        }
        self.last_dropped = false;
        self.list.push(d);
    }

    pub fn error(&mut self, span: Span, msg: impl Into<String>) {
        self.push(Diagnostic {
            severity: Severity::Error,
            span: Some(span),
            message: msg.into(),
        });
    }

    pub fn warning(&mut self, span: Span, msg: impl Into<String>) {
        self.push(Diagnostic {
            severity: Severity::Warning,
            span: Some(span),
            message: msg.into(),
        });
    }

    pub fn note(&mut self, span: Span, msg: impl Into<String>) {
        self.push(Diagnostic {
            severity: Severity::Note,
            span: Some(span),
            message: msg.into(),
        });
    }

    pub fn error_nospan(&mut self, msg: impl Into<String>) {
        self.push(Diagnostic {
            severity: Severity::Error,
            span: None,
            message: msg.into(),
        });
    }

    pub fn warning_nospan(&mut self, msg: impl Into<String>) {
        self.push(Diagnostic {
            severity: Severity::Warning,
            span: None,
            message: msg.into(),
        });
    }

    pub fn has_errors(&self) -> bool {
        self.errors_count() > 0
    }

    pub fn errors_count(&self) -> usize {
        self.list
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count()
    }

    pub fn warnings_count(&self) -> usize {
        self.list
            .iter()
            .filter(|d| d.severity == Severity::Warning)
            .count()
    }

    pub fn iter(&self) -> std::slice::Iter<'_, Diagnostic> {
        self.list.iter()
    }

    pub fn len(&self) -> usize {
        self.list.len()
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Appends the diagnostics of `other` (keeping this collection's `-w`/`-Werror` settings).
    pub fn extend(&mut self, other: Diagnostics) {
        for d in other.list {
            self.push(d);
        }
    }

    /// Renders every diagnostic clang-style, then clang's summary line (`1 warning and 2 errors
    /// generated.`) when there are warnings or errors:
    ///
    /// ```text
    /// k.cl:3:9: error: use of undeclared identifier 'x'
    ///   int y = x + 1;
    ///           ^
    /// 1 error generated.
    /// ```
    pub fn render(&self, sources: &SourceMap) -> String {
        let mut out = String::new();
        for d in &self.list {
            render_one(&mut out, d, sources);
        }
        // clang's summary line: "1 warning generated.", "2 errors generated.",
        // "1 warning and 2 errors generated.".
        let plural = |n: usize, what: &str| {
            if n == 1 {
                format!("1 {what}")
            } else {
                format!("{n} {what}s")
            }
        };
        let (warnings, errors) = (self.warnings_count(), self.errors_count());
        let summary = match (warnings, errors) {
            (0, 0) => None,
            (w, 0) => Some(plural(w, "warning")),
            (0, e) => Some(plural(e, "error")),
            (w, e) => Some(format!(
                "{} and {}",
                plural(w, "warning"),
                plural(e, "error")
            )),
        };
        if let Some(summary) = summary {
            out.push_str(&summary);
            out.push_str(" generated.\n");
        }
        out
    }
}

/// Renders one diagnostic (with its source line and caret marker when it has a span).
pub fn render_one(out: &mut String, d: &Diagnostic, sources: &SourceMap) {
    let Some(span) = d.span else {
        out.push_str(&format!("{}: {}\n", d.severity.as_str(), d.message));
        return;
    };
    let (name, presumed_line, _) = sources.presumed_location(span.file, span.start);
    let (line, col) = sources.line_col(span.file, span.start);
    out.push_str(&format!(
        "{}:{}:{}: {}: {}\n",
        name,
        presumed_line,
        col,
        d.severity.as_str(),
        d.message
    ));
    let text = sources.line_text(span.file, line);
    out.push_str(text);
    out.push('\n');
    // The marker: spaces (tabs kept so columns line up) up to the caret, then `~` to the span
    // end, clipped to the line.
    let start = (col - 1) as usize;
    let mut marker = String::new();
    for ch in text.get(..start).unwrap_or(text).chars() {
        marker.push(if ch == '\t' { '\t' } else { ' ' });
    }
    marker.push('^');
    let span_len = span.end.saturating_sub(span.start) as usize;
    let rest_of_line = text.len().saturating_sub(start);
    let tilde_bytes = span_len.min(rest_of_line).saturating_sub(1);
    let tilde_chars = text
        .get(start..start + 1 + tilde_bytes)
        .map(|s| s.chars().count().saturating_sub(1))
        .unwrap_or(0);
    for _ in 0..tilde_chars {
        marker.push('~');
    }
    out.push_str(&marker);
    out.push('\n');
}
