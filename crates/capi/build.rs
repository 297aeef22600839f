//! Binds every reference inside `liboxcl.so` to the library's own definitions
//! (`-Bsymbolic`), so the ICD loader's exports of the same `cl*` names, loaded first, are never
//! used in their place.

fn main() {
    println!("cargo:rustc-cdylib-link-arg=-Wl,-Bsymbolic");
}
