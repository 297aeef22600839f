//! Developer chores: `cargo xtask codegen`.
fn main() {}
