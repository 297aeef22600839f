//! Checks that the committed grammar tables in `src/generated/` are what `cargo xtask codegen`
//! produces from the Khronos grammars today (rspirv-style "generated, committed, checked fresh").

#[path = "../../../xtask/src/codegen.rs"]
mod codegen;

use std::path::PathBuf;

#[test]
fn generated_tables_are_fresh() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let grammar = match std::env::var_os("OXCL_SPIRV_GRAMMAR_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => root.join("../shared/spirv"),
    };
    if !grammar.join("spirv.core.grammar.json").exists() {
        eprintln!("skipping: no SPIR-V grammar at {}", grammar.display());
        return;
    }
    let files = codegen::generate(&grammar).expect("generating tables");
    for (name, text) in files {
        let path = root.join("crates/spv/src/generated").join(name);
        let committed = std::fs::read_to_string(&path).expect("reading committed table");
        assert!(
            committed == text,
            "{} is stale: run `cargo xtask codegen`",
            path.display()
        );
    }
}
