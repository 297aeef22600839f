//! The `oxcl` command line.
fn main() {}
