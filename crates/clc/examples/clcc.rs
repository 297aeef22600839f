//! Minimal compiler driver for trying clc by hand:
//! `clcc FILE.cl [OPTIONS] [-ext NAME]… [-feature NAME]… [-images] -o OUT.spv`.
//! Prints the diagnostics; exits 1 on a compile error.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(file) = args.first() else {
        eprintln!("usage: clcc FILE.cl [build options] [-o OUT.spv]");
        std::process::exit(2);
    };
    let mut out = None;
    let mut opts = Vec::new();
    let mut target = clc::pp::Target::default();
    let mut it = args.iter().skip(1);
    while let Some(a) = it.next() {
        if a == "-o" {
            out = it.next().cloned();
        } else if a == "-ext" {
            target.extensions.extend(it.next().cloned());
        } else if a == "-feature" {
            target.features.extend(it.next().cloned());
        } else if a == "-images" {
            target.image_support = true;
        } else {
            opts.push(a.clone());
        }
    }
    let source = match std::fs::read_to_string(file) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{file}: {e}");
            std::process::exit(2);
        }
    };
    let options = match clc::options::BuildOptions::parse(&opts.join(" ")) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    match clc::compile(&source, file, &options, &target) {
        Ok(c) => {
            eprint!("{}", c.log);
            if let Some(out) = out {
                if let Err(e) = std::fs::write(&out, c.module.to_bytes()) {
                    eprintln!("{out}: {e}");
                    std::process::exit(2);
                }
            }
        }
        Err(e) => {
            eprint!("{}", e.log);
            std::process::exit(1);
        }
    }
}
