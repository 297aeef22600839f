//! `#include` (C99 6.10.2) with real files: search order, `-I`, macro-expanded names, depth limit,
//! `#pragma once`, conditionals balanced per file, missing files.

mod pp_util;
use std::path::{Path, PathBuf};

use pp_util::{check_output, run_with};

/// A fresh temporary directory with the given files (`name` may contain `/`).
fn temp_tree(test: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("clcpp_inc_{}_{}", test, std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (name, text) in files {
        let p = dir.join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    dir
}

fn main_in(dir: &Path) -> String {
    dir.join("main.cl").to_string_lossy().into_owned()
}

#[test]
fn quoted_include_relative_to_including_file() {
    let dir = temp_tree(
        "rel",
        &[
            ("a.h", "int a;\n#include \"sub/b.h\"\n"),
            ("sub/b.h", "int b;\n#include \"c.h\"\n"),
            ("sub/c.h", "int c;\n"),
            ("c.h", "int wrong_c;\n"),
        ],
    );
    let r = run_with(
        "#include \"a.h\"\nint main_;\n",
        &main_in(&dir),
        "",
        &Default::default(),
    );
    assert!(r.errors().is_empty(), "{}", r.diags.render(&r.sources));
    check_output(&r, "int a;\nint b;\nint c;\nint main_;\n");
}

#[test]
fn include_dirs_in_order_and_angled_only_in_include_dirs() {
    let dir = temp_tree(
        "idirs",
        &[
            ("inc1/x.h", "one\n"),
            ("inc2/x.h", "two\n"),
            ("inc2/y.h", "why\n"),
            ("local.h", "local\n"),
        ],
    );
    let opts = format!(
        "-I {} -I{}",
        dir.join("inc1").display(),
        dir.join("inc2").display()
    );
    let r = run_with(
        "#include <x.h>\n#include \"y.h\"\n#include \"local.h\"\n#include <local.h>\n",
        &main_in(&dir),
        &opts,
        &Default::default(),
    );
    assert_eq!(r.errors(), vec!["'local.h' file not found"]);
    check_output(&r, "one\nwhy\nlocal\n");
}

#[test]
fn quoted_include_dir_option() {
    let dir = temp_tree("quoted", &[("my inc/q.h", "q\n")]);
    let opts = format!("-I \"{}\"", dir.join("my inc").display());
    let r = run_with(
        "#include <q.h>\n",
        &main_in(&dir),
        &opts,
        &Default::default(),
    );
    assert!(r.errors().is_empty(), "{}", r.diags.render(&r.sources));
    check_output(&r, "q\n");
}

#[test]
fn macro_expanded_include_names() {
    let dir = temp_tree("macro", &[("inc/m.h", "m\n"), ("n.h", "n\n")]);
    let opts = format!("-I {}", dir.join("inc").display());
    let r = run_with(
        "#define H <m.h>\n#define Q \"n.h\"\n#include H\n#include Q\n",
        &main_in(&dir),
        &opts,
        &Default::default(),
    );
    assert!(r.errors().is_empty(), "{}", r.diags.render(&r.sources));
    check_output(&r, "m\nn\n");
}

#[test]
fn include_guards_and_pragma_once() {
    let dir = temp_tree(
        "once",
        &[
            ("g.h", "#ifndef G_H\n#define G_H\nguarded\n#endif\n"),
            ("o.h", "#pragma once\nonce\n"),
        ],
    );
    let r = run_with(
        "#include \"g.h\"\n#include \"g.h\"\n#include \"o.h\"\n#include \"o.h\"\n",
        &main_in(&dir),
        "",
        &Default::default(),
    );
    assert!(r.errors().is_empty(), "{}", r.diags.render(&r.sources));
    check_output(&r, "guarded\nonce\n");
}

#[test]
fn recursive_include_hits_depth_limit() {
    let dir = temp_tree("deep", &[("self.h", "x\n#include \"self.h\"\n")]);
    let r = run_with(
        "#include \"self.h\"\n",
        &main_in(&dir),
        "",
        &Default::default(),
    );
    assert_eq!(r.errors(), vec!["#include nested too deeply"]);
    assert_eq!(r.out.tokens.len(), 200);
}

#[test]
fn file_and_line_inside_included_file() {
    let dir = temp_tree("fileline", &[("h.h", "\n__LINE__ __FILE__\n")]);
    let r = run_with(
        "#include \"h.h\"\n__LINE__ __FILE__\n",
        &main_in(&dir),
        "",
        &Default::default(),
    );
    let h = dir.join("h.h");
    check_output(
        &r,
        &format!("2 \"{}\"\n2 \"{}\"\n", h.display(), main_in(&dir)),
    );
}

#[test]
fn unbalanced_conditional_in_header() {
    let dir = temp_tree("unbal", &[("u.h", "#if 1\nu\n")]);
    let r = run_with(
        "#include \"u.h\"\n#endif\nm\n",
        &main_in(&dir),
        "",
        &Default::default(),
    );
    assert_eq!(
        r.errors(),
        vec!["unterminated conditional directive", "#endif without #if"]
    );
    check_output(&r, "u\nm\n");
}

#[test]
fn include_syntax_errors() {
    let r = pp_util::run(
        "#include\n#include foo\n#include <a.h\n#include \"\"\n#include \"nope_not_here.h\"\n",
    );
    assert_eq!(
        r.errors(),
        vec![
            "expected \"FILENAME\" or <FILENAME>",
            "expected \"FILENAME\" or <FILENAME>",
            "expected '>'",
            "empty filename",
            "'nope_not_here.h' file not found",
        ]
    );
}

#[test]
fn embedded_headers_come_first() {
    use clc::diag::Diagnostics;
    use clc::options::BuildOptions;
    use clc::source::SourceMap;
    // The example of API 5.8.3 (clCompileProgram), plus a real -I directory that must lose.
    let dir = temp_tree(
        "embedded",
        &[
            ("inc/foo.h", "from_disk\n"),
            ("inc/disk_only.h", "disk_only\n"),
        ],
    );
    let headers = vec![
        ("foo.h".to_string(), "embedded_foo\n".to_string()),
        (
            "mydir/myinc.h".to_string(),
            "#pragma once\nmyinc\n#include \"sib.h\"\n".to_string(),
        ),
        ("mydir/sib.h".to_string(), "sibling\n".to_string()),
        ("foo.h".to_string(), "second_foo_ignored\n".to_string()),
    ];
    let mut sources = SourceMap::new();
    let main = sources.add_file(
        "prog.cl".into(),
        "#include <foo.h>\n#include <mydir/myinc.h>\n#include \"mydir/myinc.h\"\n#include <disk_only.h>\n".into(),
    );
    let opts = BuildOptions::parse(&format!("-I {}", dir.join("inc").display())).unwrap();
    let mut diags = Diagnostics::new();
    let out = clc::pp::preprocess_with_headers(
        &mut sources,
        main,
        &opts,
        &Default::default(),
        &headers,
        &mut diags,
    );
    assert!(diags.is_empty(), "{}", diags.render(&sources));
    assert_eq!(
        pp_util::group_lines(&out.tokens),
        pp_util::lines_of("embedded_foo\nmyinc\nsibling\ndisk_only\n")
    );
}
