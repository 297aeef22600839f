//! Images and samplers: image types with access qualifiers, `sampler_t` arguments, program-scope
//! and literal constant samplers, and the image built-ins, compared with clang-15 +
//! llvm-spirv-15 (the sequence of image instructions with their result types, the image types,
//! the constant samplers) and validated by `spv::valid` and `spirv-val`. Without image support
//! in the target, image types are a clear error. Tool checks skip with a message when absent.

use std::process::Command;

use clc::options::BuildOptions;
use clc::pp::Target;

const SOURCE: &str = r#"
__constant sampler_t s = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR;
__kernel void k(read_only image2d_t a, write_only image2d_t b, sampler_t sa,
                read_only image1d_t c, read_only image2d_depth_t d, read_write image3d_t e,
                read_only image1d_buffer_t bu, read_only image2d_array_t ar,
                write_only image1d_array_t wa, __global int *o) {
  float4 x = read_imagef(a, s, (float2)(0.5f, 0.5f));
  int4 y = read_imagei(a, sa, (int2)(1, 1));
  uint4 z = read_imageui(a, (int2)(1, 1));
  write_imagef(b, (int2)(0, 0), x);
  float4 w = read_imagef(c, s, 0.5f);
  float dd = read_imagef(d, s, (float2)(0.5f, 0.5f));
  float4 ee = read_imagef(e, (int4)(0, 0, 0, 0));
  write_imagef(e, (int4)(0, 0, 0, 0), ee);
  float4 ff = read_imagef(ar, CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST,
                          (float4)(1.0f, 2.0f, 0.0f, 0.0f));
  write_imagei(wa, (int2)(3, 1), y);
  uint4 bb = read_imageui(bu, 5);
  o[0] = get_image_width(a) + get_image_height(a) + get_image_depth(e)
       + get_image_channel_data_type(a) + get_image_channel_order(a) + get_image_width(bu)
       + (int)get_image_array_size(ar);
  int2 dm = get_image_dim(a);
  int4 dm3 = get_image_dim(e);
  o[1] = dm.x + dm3.z + y.x + z.x + w.x + dd + ff.y + bb.x;
}
"#;

fn tool(name: &str) -> bool {
    Command::new(name).arg("--version").output().is_ok()
}

fn image_target() -> Target {
    Target {
        image_support: true,
        extensions: vec!["cl_khr_3d_image_writes".into()],
        ..Target::default()
    }
}

fn dis(file: &std::path::Path) -> String {
    let out = Command::new("spirv-dis")
        .arg(file)
        .output()
        .expect("spirv-dis");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Image instructions in order: opcode and result type (value ids dropped); the image and
/// sampler types and constant samplers as a sorted set of their full text.
fn image_facts(text: &str) -> (Vec<String>, Vec<String>) {
    let mut seq = Vec::new();
    let mut decls = Vec::new();
    for l in text.lines() {
        let rhs = l.split_once('=').map(|(_, r)| r.trim()).unwrap_or(l.trim());
        let toks: Vec<&str> = rhs.split_whitespace().collect();
        let Some(op) = toks.first() else { continue };
        if op.starts_with("OpTypeImage") || op.starts_with("OpConstantSampler") {
            // The sampler type is a bare id: keep only the sampler's operands.
            let from = if op.starts_with("OpConstantSampler") {
                2
            } else {
                1
            };
            let rest = toks[from..].join(" ").replace('%', "");
            decls.push(format!("{op} {rest}"));
        } else if op.starts_with("OpImage") || *op == "OpSampledImage" {
            let ty = if *op == "OpImageWrite" {
                ""
            } else {
                toks.get(1).copied().unwrap_or("")
            };
            let ty = if *op == "OpSampledImage" { "" } else { ty };
            seq.push(format!("{op} {ty}"));
        }
    }
    decls.sort();
    decls.dedup();
    (seq, decls)
}

#[test]
fn image_kernels_validate_and_match_llvm_spirv() {
    let opts = BuildOptions::parse("-cl-std=CL2.0").expect("options");
    let m = clc::compile(SOURCE, "im.cl", &opts, &image_target())
        .unwrap_or_else(|e| panic!("{}", e.log));
    let bytes = m.module.to_bytes();
    let env = spv::valid::Env::opencl(spv::valid::ClVersion::Cl20, spv::valid::Profile::Full, 64)
        .with_feature("__opencl_c_images")
        .with_feature("__opencl_c_read_write_images");
    if let Err(e) = spv::valid::validate(m.module, &env) {
        panic!("spv::valid: {e:?}");
    }
    let arg_types: Vec<&str> = m.kernels[0]
        .args
        .iter()
        .map(|a| a.type_name.as_str())
        .collect();
    assert_eq!(
        arg_types,
        [
            "image2d_t",
            "image2d_t",
            "sampler_t",
            "image1d_t",
            "image2d_depth_t",
            "image3d_t",
            "image1d_buffer_t",
            "image2d_array_t",
            "image1d_array_t",
            "int*"
        ]
    );
    use clc::ast::ImageAccess::{ReadOnly, ReadWrite, WriteOnly};
    let access: Vec<_> = m.kernels[0]
        .args
        .iter()
        .map(|a| a.access_qualifier)
        .collect();
    assert_eq!(
        access,
        [
            Some(ReadOnly),
            Some(WriteOnly),
            None,
            Some(ReadOnly),
            Some(ReadOnly),
            Some(ReadWrite),
            Some(ReadOnly),
            Some(ReadOnly),
            Some(WriteOnly),
            None
        ]
    );
    if !tool("spirv-val") || !tool("spirv-dis") {
        eprintln!("spirv-val or spirv-dis not found: skipping");
        return;
    }
    let dir = std::env::temp_dir().join(format!("clc-images-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let ours = dir.join("ours.spv");
    std::fs::write(&ours, &bytes).expect("write");
    let val = Command::new("spirv-val")
        .args(["--target-env", "opencl2.2"])
        .arg(&ours)
        .output()
        .expect("spirv-val");
    assert!(
        val.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&val.stderr),
        dis(&ours)
    );
    if !tool("clang-15") || !tool("llvm-spirv-15") {
        eprintln!("clang-15 or llvm-spirv-15 not found: skipping the comparison");
        return;
    }
    let (cl, bc, theirs) = (dir.join("im.cl"), dir.join("im.bc"), dir.join("im.spv"));
    std::fs::write(&cl, SOURCE).expect("write");
    let st = Command::new("clang-15")
        .args([
            "-c",
            "-target",
            "spir64",
            "-cl-std=CL2.0",
            "-O0",
            "-emit-llvm",
        ])
        .args(["-Xclang", "-finclude-default-header", "-o"])
        .arg(&bc)
        .arg(&cl)
        .status()
        .expect("clang");
    assert!(st.success());
    let st = Command::new("llvm-spirv-15")
        .arg("--spirv-max-version=1.2")
        .arg(&bc)
        .arg("-o")
        .arg(&theirs)
        .status()
        .expect("llvm-spirv");
    assert!(st.success());
    let (o, t) = (dis(&ours), dis(&theirs));
    let (oseq, odecl) = image_facts(&o);
    let (tseq, tdecl) = image_facts(&t);
    assert!(tseq.len() > 15, "{t}");
    assert_eq!(oseq, tseq, "ours:\n{o}\ntheirs:\n{t}");
    assert_eq!(odecl, tdecl, "ours:\n{o}\ntheirs:\n{t}");
    for cap in [
        "ImageBasic",
        "ImageReadWrite",
        "LiteralSampler",
        "Sampled1D",
        "SampledBuffer",
    ] {
        assert!(o.contains(&format!("OpCapability {cap}")), "{cap}:\n{o}");
    }
}

#[test]
fn images_need_device_support() {
    let opts = BuildOptions::parse("-cl-std=CL2.0").expect("options");
    let err = clc::compile(SOURCE, "im.cl", &opts, &Target::default()).expect_err("no images");
    assert!(err.log.contains("requires image support"), "{}", err.log);
    let err = clc::compile(
        "__kernel void k(read_only image2d_t a, __global float4 *o) { write_imagef(a, (int2)(0, 0), o[0]); }",
        "w.cl",
        &opts,
        &image_target(),
    )
    .expect_err("write to read_only");
    assert!(
        err.log.contains("cannot write a read_only image"),
        "{}",
        err.log
    );
}

/// OpenCL C 2.0 §6.13.14.1: a program-scope sampler is declared `const sampler_t` or
/// `constant sampler_t`; both give the same constant sampler. Without either qualifier it is an
/// error (clang-15's message, checked by running it on the same line).
#[test]
fn program_scope_samplers_are_const_or_constant() {
    let body = "sampler_t s = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;\n\
                kernel void k(read_only image2d_t i, global float4 *o) { o[0] = read_imagef(i, s, (int2)(0)); }\n";
    let opts = BuildOptions::parse("-cl-std=CL1.2").expect("options");
    for qualifier in ["const ", "__constant "] {
        let src = format!("{qualifier}{body}");
        match clc::compile(&src, "s.cl", &opts, &image_target()) {
            Ok(module) => {
                let text = spv::dis::disassemble(&module.module);
                let line = text
                    .lines()
                    .find(|l| l.contains("OpConstantSampler"))
                    .map(|l| l.split_once('=').map_or(l, |(_, r)| r).trim().to_string());
                // CLK_ADDRESS_CLAMP is SamplerAddressingMode Clamp, unnormalized coordinates
                // are Param 0, CLK_FILTER_NEAREST is SamplerFilterMode Nearest.
                assert_eq!(
                    line.as_deref().map(|l| l
                        .split_whitespace()
                        .skip(2)
                        .collect::<Vec<_>>()
                        .join(" ")),
                    Some("Clamp 0 Nearest".to_string()),
                    "{qualifier}: {text}"
                );
            }
            Err(e) => panic!("{qualifier}: {}", e.log),
        }
    }
    let err = clc::compile(body, "s.cl", &opts, &image_target()).expect_err("no qualifier");
    assert!(
        err.log.contains(
            "1:11: error: global sampler requires a const or constant address space qualifier"
        ),
        "{}",
        err.log
    );
}

/// Read-write images need OpenCL C 2.0 (3.0: `__opencl_c_read_write_images`); writes to 3D
/// images need cl_khr_3d_image_writes (3.0: `__opencl_c_3d_image_writes`). The read-write
/// message is clang-15's.
#[test]
fn read_write_and_3d_writes_need_device_support() {
    let rw = "__kernel void k(read_write image2d_t a) { }";
    let no_rw = "access qualifier 'read_write' can not be used for '__read_write image2d_t' prior to OpenCL C version 2.0 or in version 3.0 and without __opencl_c_read_write_images feature";
    let images_only = Target {
        image_support: true,
        ..Target::default()
    };
    for std in ["-cl-std=CL1.2", "-cl-std=CL3.0"] {
        let opts = BuildOptions::parse(std).expect("options");
        let err = clc::compile(rw, "rw.cl", &opts, &images_only).expect_err("read_write");
        assert!(err.log.contains(no_rw), "{std}: {}", err.log);
    }
    let with_rw = Target {
        features: vec![
            "__opencl_c_images".into(),
            "__opencl_c_read_write_images".into(),
        ],
        ..images_only.clone()
    };
    for (std, target) in [("-cl-std=CL2.0", &images_only), ("-cl-std=CL3.0", &with_rw)] {
        let opts = BuildOptions::parse(std).expect("options");
        if let Err(e) = clc::compile(rw, "rw.cl", &opts, target) {
            panic!("{std}: {}", e.log);
        }
    }
    let w3 =
        "__kernel void k(write_only image3d_t a) { write_imagef(a, (int4)(0), (float4)(1.0f)); }";
    let opts = BuildOptions::parse("-cl-std=CL2.0").expect("options");
    let err = clc::compile(w3, "w3.cl", &opts, &images_only).expect_err("3d write");
    assert!(
        err.log.contains("requires cl_khr_3d_image_writes"),
        "{}",
        err.log
    );
    if let Err(e) = clc::compile(w3, "w3.cl", &opts, &image_target()) {
        panic!("{}", e.log);
    }
    let opts = BuildOptions::parse("-cl-std=CL3.0").expect("options");
    let err = clc::compile(w3, "w3.cl", &opts, &image_target()).expect_err("3d write in 3.0");
    assert!(
        err.log.contains("requires cl_khr_3d_image_writes"),
        "{}",
        err.log
    );
    let with_3d = Target {
        features: vec![
            "__opencl_c_images".into(),
            "__opencl_c_3d_image_writes".into(),
        ],
        ..images_only
    };
    if let Err(e) = clc::compile(w3, "w3.cl", &opts, &with_3d) {
        panic!("{}", e.log);
    }
}

/// Every image built-in overload of OpenCL C 2.0 §6.13.14 (reads with and without a sampler,
/// with float and int coordinates; writes; queries), for every image type, compiled in one
/// module that must pass `spv::valid` and `spirv-val`.
#[test]
fn every_image_overload_validates() {
    // (type, float coordinate, int coordinate, has height, has depth, arrayed, is depth image)
    let images = [
        ("image1d_t", "float", "int", false, false, false, false),
        ("image1d_buffer_t", "", "int", false, false, false, false),
        (
            "image1d_array_t",
            "float2",
            "int2",
            false,
            false,
            true,
            false,
        ),
        ("image2d_t", "float2", "int2", true, false, false, false),
        (
            "image2d_array_t",
            "float4",
            "int4",
            true,
            false,
            true,
            false,
        ),
        (
            "image2d_depth_t",
            "float2",
            "int2",
            true,
            false,
            false,
            true,
        ),
        (
            "image2d_array_depth_t",
            "float4",
            "int4",
            true,
            false,
            true,
            true,
        ),
        ("image3d_t", "float4", "int4", true, true, false, false),
    ];
    let mut src = String::from(
        "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n\
         __constant sampler_t smp = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;\n",
    );
    let mut calls = 0;
    for (k, (ty, fc, ic, h, d, arr, depth)) in images.iter().enumerate() {
        let suffixes: &[(&str, &str)] = if *depth {
            &[("f", "float")]
        } else {
            &[
                ("f", "float4"),
                ("i", "int4"),
                ("ui", "uint4"),
                ("h", "half4"),
            ]
        };
        let texel = |t: &str| {
            if *depth {
                "float".to_string()
            } else {
                t.to_string()
            }
        };
        let mut body = String::new();
        for (sfx, t) in suffixes {
            let t = texel(t);
            body.push_str(&format!(
                "    {{ {t} v = read_image{sfx}(r, ({ic})(0)); o[{calls}] = (int)v; }}\n",
            ));
            calls += 1;
            if !fc.is_empty() {
                body.push_str(&format!(
                    "    {{ {t} v = read_image{sfx}(r, smp, ({fc})(0)); o[{calls}] = (int)v; }}\n"
                ));
                body.push_str(&format!(
                    "    {{ {t} v = read_image{sfx}(r, s, ({ic})(0)); o[{calls}] = (int)v; }}\n"
                ));
                calls += 2;
            }
            body.push_str(&format!("    write_image{sfx}(w, ({ic})(0), ({t})(0));\n"));
            body.push_str(&format!(
                "    write_image{sfx}(rw, ({ic})(0), read_image{sfx}(rw, ({ic})(0)));\n"
            ));
            calls += 3;
        }
        let mut q = vec![
            "get_image_width(r)",
            "get_image_channel_data_type(r)",
            "get_image_channel_order(w)",
        ];
        if *h {
            q.push("get_image_height(r)");
            q.push("get_image_dim(r).x");
        }
        if *d {
            q.push("get_image_depth(rw)");
        }
        if *arr {
            q.push("(int)get_image_array_size(r)");
        }
        calls += q.len();
        body.push_str(&format!("    o[0] = {};\n", q.join(" + ")));
        // Unwrapped `(int)v` of a vector is not valid C: take the first component.
        let body = if *depth {
            body
        } else {
            body.replace("(int)v;", "(int)v.x;")
        };
        src.push_str(&format!(
            "__kernel void k{k}(read_only {ty} r, write_only {ty} w, read_write {ty} rw, sampler_t s, __global int *o)\n{{\n{body}}}\n"
        ));
    }
    let target = Target {
        image_support: true,
        extensions: vec![
            "cl_khr_fp16".into(),
            "cl_khr_depth_images".into(),
            "cl_khr_3d_image_writes".into(),
        ],
        ..Target::default()
    };
    let opts = BuildOptions::parse("-cl-std=CL2.0").expect("options");
    let m = clc::compile(&src, "all.cl", &opts, &target)
        .unwrap_or_else(|e| panic!("{}\n--- source ---\n{src}", e.log));
    assert!(calls > 100, "{calls}");
    let bytes = m.module.to_bytes();
    let env = spv::valid::Env::opencl(spv::valid::ClVersion::Cl20, spv::valid::Profile::Full, 64)
        .with_extension("cl_khr_fp16")
        .with_feature("__opencl_c_images")
        .with_feature("__opencl_c_read_write_images")
        .with_feature("__opencl_c_3d_image_writes");
    if let Err(e) = spv::valid::validate(m.module, &env) {
        panic!("spv::valid: {e:?}");
    }
    if !tool("spirv-val") {
        eprintln!("spirv-val not found: skipping");
        return;
    }
    let dir = std::env::temp_dir().join(format!("clc-images-all-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let file = dir.join("all.spv");
    std::fs::write(&file, &bytes).expect("write");
    let val = Command::new("spirv-val")
        .args(["--target-env", "opencl2.2"])
        .arg(&file)
        .output()
        .expect("spirv-val");
    assert!(
        val.status.success(),
        "{}",
        String::from_utf8_lossy(&val.stderr)
    );
}
