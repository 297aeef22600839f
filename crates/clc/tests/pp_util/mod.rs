//! Shared helpers for the preprocessor tests: run the preprocessor on a string and compare the
//! output with an expected text, line by line and token by token.
#![allow(dead_code)]

use clc::diag::{Diagnostics, Severity};
use clc::lex::{self, Token};
use clc::options::BuildOptions;
use clc::pp::{self, Preprocessed, Target};
use clc::source::SourceMap;

pub struct Run {
    pub out: Preprocessed,
    pub diags: Diagnostics,
    pub sources: SourceMap,
}

impl Run {
    pub fn text(&self) -> String {
        lex::tokens_to_string(&self.out.tokens)
    }
    pub fn errors(&self) -> Vec<String> {
        self.messages(Severity::Error)
    }
    pub fn warnings(&self) -> Vec<String> {
        self.messages(Severity::Warning)
    }
    pub fn messages(&self, s: Severity) -> Vec<String> {
        self.diags
            .iter()
            .filter(|d| d.severity == s)
            .map(|d| d.message.clone())
            .collect()
    }
}

pub fn run_with(src: &str, name: &str, options: &str, target: &Target) -> Run {
    let mut sources = SourceMap::new();
    let main = sources.add_file(name.to_string(), src.to_string());
    let opts = BuildOptions::parse(options).expect("test options parse");
    let mut diags = Diagnostics::new();
    let out = pp::preprocess(&mut sources, main, &opts, target, &mut diags);
    Run {
        out,
        diags,
        sources,
    }
}

pub fn run(src: &str) -> Run {
    run_with(src, "test.cl", "", &Target::default())
}

/// Token spellings of each non-empty line of `text`.
pub fn lines_of(text: &str) -> Vec<Vec<String>> {
    let mut sources = SourceMap::new();
    let f = sources.add_file("expected".into(), text.to_string());
    let mut d = Diagnostics::new();
    group_lines(&lex::lex(f, text, &mut d))
}

pub fn group_lines(tokens: &[Token]) -> Vec<Vec<String>> {
    let mut lines: Vec<Vec<String>> = Vec::new();
    for t in tokens {
        if t.line_start || lines.is_empty() {
            lines.push(Vec::new());
        }
        lines.last_mut().unwrap().push(t.text.clone());
    }
    lines
}

/// Preprocesses `src` and checks that the output has the tokens of `expected`, line by line,
/// and that there were no errors.
#[track_caller]
pub fn check(src: &str, expected: &str) {
    let r = run(src);
    assert_eq!(
        r.errors(),
        Vec::<String>::new(),
        "unexpected errors:\n{}",
        r.diags.render(&r.sources)
    );
    check_output(&r, expected);
}

#[track_caller]
pub fn check_output(r: &Run, expected: &str) {
    let got = group_lines(&r.out.tokens);
    let want = lines_of(expected);
    assert_eq!(
        got,
        want,
        "\n--- got ---\n{}\n--- want ---\n{}\n",
        r.text(),
        expected
    );
}
