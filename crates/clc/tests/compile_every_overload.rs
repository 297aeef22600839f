//! Walks the `builtins` table and compiles a call to EVERY overload of every family, for
//! OpenCL C 1.2, 2.0 and 3.0 with a device's features (fp64, fp16, generic address space,
//! work-group collectives, sub-groups), then checks each module with `spv::valid` for the same
//! environment and with `spirv-val --target-env opencl2.2` (skipped with a message when absent).
//!
//! One kernel per family holds the calls of all its overloads; pointer arguments point into
//! memory of the overload's address space (kernel arguments for `__global`, a `__local` array,
//! private variables for `__private` and the generic address space).

use std::process::Command;

use builtins::{AddrSpace, Ctx, Lowering, Ty};
use clc::options::BuildOptions;
use clc::pp::Target;

fn spell(t: &Ty) -> String {
    match t {
        Ty::Void => "void".into(),
        Ty::Scalar(e) => e.name().into(),
        Ty::Vector(e, n) => format!("{}{}", e.name(), n),
        Ty::Pointer(space, p) => {
            let s = match space {
                AddrSpace::Global => "__global ",
                AddrSpace::Local => "__local ",
                AddrSpace::Private => "__private ",
                AddrSpace::Constant => "__constant ",
                AddrSpace::Generic => "",
            };
            format!("{s}{} *", spell(p))
        }
    }
}

/// Statements calling overload `o` of `name`; `n` makes local names unique.
fn call(name: &str, lowering: Lowering, o: &builtins::Overload, n: usize) -> String {
    let mut body = String::from("    {\n");
    let mut args = Vec::new();
    for (i, p) in o.params.iter().enumerate() {
        if matches!(
            lowering,
            Lowering::Barrier | Lowering::MemFence | Lowering::SubgroupBarrier
        ) {
            // Fence flags and scopes must be constants.
            args.push(
                if i == 0 {
                    "CLK_LOCAL_MEM_FENCE"
                } else {
                    "memory_scope_work_group"
                }
                .into(),
            );
            continue;
        }
        match p {
            Ty::Pointer(space, inner) => {
                let t = spell(inner);
                match space {
                    AddrSpace::Global => args.push(format!("(__global {t} *)g")),
                    AddrSpace::Local => args.push(format!("(__local {t} *)l")),
                    AddrSpace::Constant => args.push(format!("(__constant {t} *)c")),
                    AddrSpace::Private | AddrSpace::Generic => {
                        body.push_str(&format!("        {t} p{i} = ({t})(0);\n"));
                        args.push(format!("&p{i}"));
                    }
                }
            }
            _ => {
                let t = spell(p);
                body.push_str(&format!("        {t} a{i} = ({t})(1);\n"));
                args.push(format!("a{i}"));
            }
        }
    }
    let call = format!("{name}({})", args.join(", "));
    match &o.ret {
        Ty::Void => body.push_str(&format!("        {call};\n")),
        r => body.push_str(&format!(
            "        {} r = {call};\n        out[{n}] = (int)sizeof(r);\n",
            spell(r)
        )),
    }
    body.push_str("    }\n");
    body
}

/// Calls per generated kernel.
const CALLS_PER_KERNEL: usize = 8;

struct Version {
    std: &'static str,
    ctx: Ctx,
    target: Target,
    env: spv::valid::Env,
}

fn version(cl: u32) -> Version {
    let (extensions, features): (Vec<&str>, Vec<&str>) = match cl {
        120 => (vec!["cl_khr_fp64", "cl_khr_fp16"], vec![]),
        200 => (
            vec!["cl_khr_fp64", "cl_khr_fp16", "cl_khr_subgroups"],
            vec![],
        ),
        _ => (
            vec!["cl_khr_fp64", "cl_khr_fp16", "cl_khr_subgroups"],
            vec![
                "__opencl_c_fp64",
                "__opencl_c_generic_address_space",
                "__opencl_c_program_scope_global_variables",
                "__opencl_c_work_group_collective_functions",
                "__opencl_c_subgroups",
                "__opencl_c_atomic_order_seq_cst",
                "__opencl_c_atomic_scope_device",
            ],
        ),
    };
    let (std, spv_cl) = match cl {
        120 => ("-cl-std=CL1.2", spv::valid::ClVersion::Cl12),
        200 => ("-cl-std=CL2.0", spv::valid::ClVersion::Cl20),
        _ => ("-cl-std=CL3.0", spv::valid::ClVersion::Cl30),
    };
    let mut env = spv::valid::Env::opencl(spv_cl, spv::valid::Profile::Full, 64);
    for e in &extensions {
        env = env.with_extension(e);
    }
    for f in &features {
        env = env.with_feature(f);
    }
    Version {
        std,
        ctx: Ctx {
            cl_version: cl,
            fp64: true,
            fp16: true,
            generic_address_space: cl >= 200,
            address_bits: 64,
            work_group_collectives: cl >= 200,
            subgroups: cl >= 200,
        },
        target: Target {
            device_cl_version: cl.max(120),
            extensions: extensions.iter().map(|s| s.to_string()).collect(),
            features: features.iter().map(|s| s.to_string()).collect(),
            ..Target::default()
        },
        env,
    }
}

fn every_overload(cl: u32) {
    let v = version(cl);
    let mut src = String::from(
        "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n",
    );
    let mut calls = 0;
    for (k, fam) in builtins::FAMILIES.iter().enumerate() {
        let overloads = fam.overloads(&v.ctx);
        if overloads.is_empty() {
            continue;
        }
        let needs_local = overloads.iter().any(|o| {
            o.params
                .iter()
                .any(|p| matches!(p, Ty::Pointer(AddrSpace::Local, _)))
        });
        let local = if needs_local {
            "    __local long l[64];\n"
        } else {
            ""
        };
        // Kernels of a few calls each: spirv-val's time grows faster than linearly with
        // the size of a function.
        for (part, chunk) in overloads.chunks(CALLS_PER_KERNEL).enumerate() {
            src.push_str(&format!(
                "__kernel void k{k}_{part}(__global int *out, __global long *g, __constant long *c)\n{{\n{local}"
            ));
            for o in chunk {
                src.push_str(&call(fam.name, fam.lowering, o, calls % 1024));
                calls += 1;
            }
            src.push_str("}\n");
        }
    }
    assert!(calls > 1000, "only {calls} overloads at CL{cl}");
    let opts = BuildOptions::parse(v.std).expect("options");
    let t0 = std::time::Instant::now();
    let compiled = match clc::compile(&src, "overloads.cl", &opts, &v.target) {
        Ok(c) => c,
        Err(e) => panic!(
            "CL{cl}: {}",
            e.log.lines().take(40).collect::<Vec<_>>().join("\n")
        ),
    };
    eprintln!("CL{cl}: {calls} overloads compiled in {:?}", t0.elapsed());
    let t0 = std::time::Instant::now();
    let bytes = compiled.module.to_bytes();
    if let Err(e) = spv::valid::validate(compiled.module, &v.env) {
        let text = format!("{e:?}");
        panic!(
            "spv::valid rejected CL{cl}: {}",
            &text[..text.len().min(3000)]
        );
    }
    eprintln!("CL{cl}: spv::valid in {:?}", t0.elapsed());
    if Command::new("spirv-val").arg("--version").output().is_err() {
        eprintln!("spirv-val not found: skipping its check");
        return;
    }
    let dir = std::env::temp_dir().join(format!("clc-overloads-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let file = dir.join(format!("overloads{cl}.spv"));
    std::fs::write(&file, &bytes).expect("write");
    let out = Command::new("spirv-val")
        .args(["--target-env", "opencl2.2"])
        .arg(&file)
        .output()
        .expect("run spirv-val");
    assert!(
        out.status.success(),
        "CL{cl}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn every_overload_compiles_and_validates_cl12() {
    every_overload(120);
}

#[test]
fn every_overload_compiles_and_validates_cl20() {
    every_overload(200);
}

#[test]
fn every_overload_compiles_and_validates_cl30() {
    every_overload(300);
}
