//! Diagnostics: clang-style rendering, `-w`, `-Werror`, and preprocessor diagnostics' locations.

mod pp_util;
use clc::diag::{Diagnostics, Severity};
use clc::source::{SourceMap, Span};

#[test]
fn render_clang_style() {
    let mut sm = SourceMap::new();
    let f = sm.add_file(
        "k.cl".into(),
        "kernel void k() {\n  int y = x + 1;\n}\n".into(),
    );
    let mut d = Diagnostics::new();
    d.error(Span::new(f, 28, 29), "use of undeclared identifier 'x'");
    d.warning(Span::new(f, 24, 25), "unused variable 'y'");
    d.note(Span::new(f, 0, 6), "in this kernel");
    d.error_nospan("something global");
    assert_eq!(
        d.render(&sm),
        "k.cl:2:11: error: use of undeclared identifier 'x'\n  int y = x + 1;\n          ^\n\
         k.cl:2:7: warning: unused variable 'y'\n  int y = x + 1;\n      ^\n\
         k.cl:1:1: note: in this kernel\nkernel void k() {\n^~~~~~\n\
         error: something global\n\
         1 warning and 2 errors generated.\n"
    );
    assert_eq!(d.errors_count(), 2);
    assert!(d.has_errors());
}

#[test]
fn render_multi_char_span_and_tabs_and_clipping() {
    let mut sm = SourceMap::new();
    let f = sm.add_file("t.cl".into(), "\tfoo(bar);\nnext\n".into());
    let mut d = Diagnostics::new();
    d.error(Span::new(f, 1, 4), "bad foo");
    // A span running past the end of its line is clipped to the line.
    d.error(Span::new(f, 5, 16), "long");
    assert_eq!(
        d.render(&sm),
        "t.cl:1:2: error: bad foo\n\tfoo(bar);\n\t^~~\nt.cl:1:6: error: long\n\tfoo(bar);\n\t    ^~~~~\n2 errors generated.\n"
    );
}

#[test]
fn single_error_and_no_errors_footer() {
    let mut sm = SourceMap::new();
    let f = sm.add_file("a.cl".into(), "x".into());
    let mut d = Diagnostics::new();
    d.warning(Span::new(f, 0, 1), "w");
    assert_eq!(
        d.render(&sm),
        "a.cl:1:1: warning: w\nx\n^\n1 warning generated.\n"
    );
    d.warning(Span::new(f, 0, 1), "w2");
    assert!(d.render(&sm).ends_with("\n2 warnings generated.\n"));
    d.error(Span::new(f, 0, 1), "e");
    assert!(d
        .render(&sm)
        .ends_with("\n2 warnings and 1 error generated.\n"));
    let mut only_error = Diagnostics::new();
    only_error.error(Span::new(f, 0, 1), "e");
    assert!(only_error.render(&sm).ends_with("\n1 error generated.\n"));
    assert_eq!(Diagnostics::new().render(&sm), "");
}

#[test]
fn werror_and_w() {
    let mut sm = SourceMap::new();
    let f = sm.add_file("a.cl".into(), "x".into());
    let s = Span::new(f, 0, 1);
    let mut d = Diagnostics::new();
    d.set_warnings_as_errors(true);
    d.warning(s, "now an error");
    assert_eq!(d.iter().next().unwrap().severity, Severity::Error);
    let mut d = Diagnostics::new();
    d.set_suppress_warnings(true);
    d.warning(s, "dropped");
    d.note(s, "its note is dropped too");
    d.error(s, "kept");
    d.note(s, "note of the error is kept");
    let msgs: Vec<&str> = d.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(msgs, vec!["kept", "note of the error is kept"]);
}

#[test]
fn preprocessor_diagnostics_point_at_the_problem() {
    let r = pp_util::run(
        "int a;\n#if 1 +\n#endif\n#include \"missing.h\"\n  #error stop here\n/* open\n",
    );
    assert_eq!(
        r.diags.render(&r.sources),
        "test.cl:2:7: error: expected value in expression\n#if 1 +\n      ^\n\
         test.cl:4:2: error: 'missing.h' file not found\n#include \"missing.h\"\n ^~~~~~~\n\
         test.cl:5:4: error: stop here\n  #error stop here\n   ^~~~~\n\
         test.cl:6:1: error: unterminated /* comment\n/* open\n^~\n\
         4 errors generated.\n"
    );
}

#[test]
fn line_directive_moves_reported_locations() {
    let r = pp_util::run("#line 40 \"orig.cl\"\n#error here\n");
    assert!(r
        .diags
        .render(&r.sources)
        .starts_with("orig.cl:40:2: error: here\n#error here\n"));
}

#[test]
fn macro_expansion_errors_point_at_the_invocation() {
    let r = pp_util::run("#define cat(a,b) a##b\nint x = cat(+,/);\n");
    assert_eq!(
        r.diags.render(&r.sources),
        "test.cl:2:9: error: pasting formed '+/', an invalid preprocessing token\nint x = cat(+,/);\n        ^~~\n1 error generated.\n"
    );
}
