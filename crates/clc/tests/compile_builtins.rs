//! Every family of the `builtins` table compiles: for each family, calls with the first
//! overload and with a vector overload are generated (arguments are local variables of the
//! parameter types), compiled, and the module checked with spirv-val when present.

use std::process::Command;

use builtins::{Ctx, Ty};
use clc::options::BuildOptions;
use clc::pp::Target;

fn spell(t: &Ty) -> String {
    match t {
        Ty::Void => "void".into(),
        Ty::Scalar(e) => e.name().into(),
        Ty::Vector(e, n) => format!("{}{}", e.name(), n),
        Ty::Pointer(_, p) => format!("{} *", spell(p)),
    }
}

/// A kernel body calling `name` with the overload `o` (pointer arguments point to privates).
fn call_source(name: &str, o: &builtins::Overload, k: usize) -> String {
    let mut body = String::new();
    let mut args = Vec::new();
    for (i, p) in o.params.iter().enumerate() {
        match p {
            Ty::Pointer(_, inner) => {
                body.push_str(&format!(
                    "    {} a{i} = ({})(0);\n",
                    spell(inner),
                    spell(inner)
                ));
                args.push(format!("&a{i}"));
            }
            _ => {
                body.push_str(&format!("    {} a{i} = ({})(1);\n", spell(p), spell(p)));
                args.push(format!("a{i}"));
            }
        }
    }
    let call = format!("{name}({})", args.join(", "));
    let use_result = match &o.ret {
        Ty::Void => format!("    {call};\n"),
        r => format!(
            "    {} r = {call};\n    out[{k}] = (int)(sizeof(r));\n",
            spell(r)
        ),
    };
    format!("__kernel void k{k}(__global int *out)\n{{\n{body}{use_result}}}\n")
}

#[test]
fn every_family_compiles_cl20() {
    every_family_compiles(200, "-cl-std=CL2.0");
}

#[test]
fn every_family_compiles_cl12() {
    every_family_compiles(120, "");
}

fn every_family_compiles(cl_version: u32, options: &str) {
    let ctx = Ctx {
        cl_version,
        fp64: true,
        fp16: false,
        generic_address_space: cl_version == 200,
        address_bits: 64,
        work_group_collectives: cl_version == 200,
        subgroups: false,
    };
    let mut src = String::from("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
    let mut k = 0;
    for fam in builtins::FAMILIES {
        let overloads = fam.overloads(&ctx);
        let mut picks: Vec<&builtins::Overload> = overloads.iter().take(1).collect();
        if let Some(v) = overloads
            .iter()
            .find(|o| o.params.iter().any(|p| matches!(p, Ty::Vector(_, 4))))
        {
            picks.push(v);
        }
        for o in picks {
            // Barrier flags must be constants: use a literal.
            let s = if matches!(
                fam.lowering,
                builtins::Lowering::Barrier | builtins::Lowering::MemFence
            ) {
                let args: Vec<&str> = o
                    .params
                    .iter()
                    .enumerate()
                    .map(|(i, _)| {
                        if i == 0 {
                            "CLK_LOCAL_MEM_FENCE"
                        } else {
                            "memory_scope_work_group"
                        }
                    })
                    .collect();
                format!(
                    "__kernel void k{k}(__global int *out)\n{{\n    {}({});\n}}\n",
                    fam.name,
                    args.join(", ")
                )
            } else {
                call_source(fam.name, o, k)
            };
            src.push_str(&s);
            k += 1;
        }
    }
    assert!(k > 150, "only {k} calls generated");
    let opts = BuildOptions::parse(options).expect("options");
    let target = Target {
        extensions: vec!["cl_khr_fp64".into()],
        ..Target::default()
    };
    let compiled = match clc::compile(&src, "families.cl", &opts, &target) {
        Ok(c) => c,
        Err(e) => panic!("{}\n--- source ---\n{src}", e.log),
    };
    assert_eq!(compiled.kernels.len(), k);
    if Command::new("spirv-val").arg("--version").output().is_err() {
        eprintln!("spirv-val not found: skipping validation");
        return;
    }
    let dir = std::env::temp_dir().join(format!("clc-families-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let file = dir.join(format!("families{cl_version}.spv"));
    std::fs::write(&file, compiled.module.to_bytes()).expect("write");
    let out = Command::new("spirv-val")
        .args(["--target-env", "opencl2.2"])
        .arg(&file)
        .output()
        .expect("run");
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
