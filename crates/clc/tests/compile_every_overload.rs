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

/// An argument expression for a device-enqueue parameter spelled `p` (the kernel declares
/// `q`, `nd`, `ev`, `evr`, `s2`, `s3`, `out`, `prof`); a Block with `locals` `local void *`
/// parameters.
fn enqueue_arg(p: &str, locals: usize) -> String {
    match p {
        "queue_t" => "q".into(),
        "kernel_enqueue_flags_t" => "CLK_ENQUEUE_FLAGS_WAIT_KERNEL".into(),
        "const ndrange_t" => "nd".into(),
        "uint" => "1u".into(),
        "const clk_event_t *" => "&ev".into(),
        "clk_event_t *" => "&evr".into(),
        "void (^)(void)" => "^{ out[0] = 1; }".into(),
        "void (^)(local void *, ...)" => {
            let params: Vec<String> = (0..locals).map(|i| format!("local void *p{i}")).collect();
            format!(
                "^({}){{ ((local int *)p0)[0] = out[0]; }}",
                params.join(", ")
            )
        }
        "clk_event_t" => "ev".into(),
        "int" => "0".into(),
        "clk_profiling_info" => "CLK_PROFILING_COMMAND_EXEC_TIME".into(),
        "global void *" => "prof".into(),
        "size_t" => "8".into(),
        "const size_t[2]" => "s2".into(),
        "const size_t[3]" => "s3".into(),
        other => panic!("no argument for parameter type '{other}'"),
    }
}

/// Every device-side enqueue overload (`builtins::DEVICE_ENQUEUE`; the Block forms with one to
/// three `local void *` parameters) in a kernel of its own, for OpenCL C 2.0 and for 3.0 with
/// `__opencl_c_device_enqueue`, checked by `spv::valid` and `spirv-val`.
fn every_device_enqueue_overload(cl: u32) {
    let mut v = version(cl);
    if cl >= 300 {
        v.target
            .features
            .push("__opencl_c_device_enqueue".to_string());
        v.env = v.env.with_feature("__opencl_c_device_enqueue");
    }
    let mut src = String::new();
    let mut calls = 0;
    for (k, o) in builtins::DEVICE_ENQUEUE.iter().enumerate() {
        let has_local_block = o.params.contains(&"void (^)(local void *, ...)");
        let variants = if has_local_block { 1..=3 } else { 1..=1 };
        for locals in variants {
            let mut args: Vec<String> = o.params.iter().map(|p| enqueue_arg(p, locals)).collect();
            if o.local_sizes {
                args.extend((0..locals).map(|i| format!("{}u", 16 * (i + 1))));
            }
            let call = format!("{}({})", o.name, args.join(", "));
            let stmt = match o.ret {
                "void" => format!("{call};"),
                "queue_t" | "ndrange_t" => format!("{} r = {call};", o.ret),
                "clk_event_t" => format!("clk_event_t r = {call}; release_event(r);"),
                _ => format!("out[1] = (int)({call});"),
            };
            src.push_str(&format!(
                "__kernel void e{k}_{locals}(__global int *out, __global ulong *prof) {{\n\
                 \x20   queue_t q = get_default_queue();\n\
                 \x20   ndrange_t nd = ndrange_1D(64);\n\
                 \x20   clk_event_t ev = create_user_event();\n\
                 \x20   clk_event_t evr;\n\
                 \x20   size_t s2[2] = {{8, 8}};\n\
                 \x20   size_t s3[3] = {{4, 4, 4}};\n\
                 \x20   {stmt}\n\
                 }}\n"
            ));
            calls += 1;
        }
    }
    assert!(calls >= builtins::DEVICE_ENQUEUE.len());
    let opts = BuildOptions::parse(v.std).expect("options");
    let compiled = match clc::compile(&src, "enqueue.cl", &opts, &v.target) {
        Ok(c) => c,
        Err(e) => panic!("CL{cl}: {}\n{src}", e.log),
    };
    let bytes = compiled.module.to_bytes();
    if let Err(e) = spv::valid::validate(compiled.module, &v.env) {
        panic!("spv::valid rejected CL{cl}: {e:?}");
    }
    if Command::new("spirv-val").arg("--version").output().is_err() {
        eprintln!("spirv-val not found: skipping its check");
        return;
    }
    let dir = std::env::temp_dir().join(format!("clc-enqueue-overloads-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let file = dir.join(format!("enqueue{cl}.spv"));
    std::fs::write(&file, &bytes).expect("write");
    let out = Command::new("spirv-val")
        .args(["--target-env", "opencl2.2"])
        .arg(&file)
        .output()
        .expect("run spirv-val");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        out.status.success(),
        "CL{cl}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn every_device_enqueue_overload_compiles_and_validates() {
    every_device_enqueue_overload(200);
    every_device_enqueue_overload(300);
}
