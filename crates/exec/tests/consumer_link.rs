//! Linking (`spv::link`): OpenCL C pieces compiled separately by clang-15 + llvm-spirv-15
//! (`clang -c -emit-llvm` of each file, then llvm-spirv of each: functions and program-scope
//! variables declared in one file and defined in another get `LinkageAttributes` Import and
//! Export), linked, validated by `spv::valid` (and by spirv-val when installed), lowered and
//! run. Errors name the symbol. spirv-link, when installed, must agree on which link succeeds.

use std::process::Command;

use exec::{ArgValue, Engine, Interpreter, Launch, NdRange};
use spv::link::{link, link_with, LinkError, LinkOptions};

fn tools_available() -> bool {
    let ok = |tool: &str| {
        Command::new(tool)
            .arg("--version")
            .output()
            .map(|o| o.status.success())
            .unwrap_or(false)
    };
    ok("clang-15") && ok("llvm-spirv-15")
}

fn temp_dir(tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("consumer_link_{}_{tag}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Compiles one OpenCL C file to a SPIR-V module (no linking).
fn compile(source: &str, tag: &str) -> spv::Module {
    let dir = temp_dir(tag);
    let (cl, bc, out) = (dir.join("k.cl"), dir.join("k.bc"), dir.join("k.spv"));
    std::fs::write(&cl, source).expect("write");
    let clang = Command::new("clang-15")
        .args([
            "-c",
            "-target",
            "spir64",
            "-cl-std=CL2.0",
            "-O0",
            "-emit-llvm",
            "-o",
        ])
        .arg(&bc)
        .arg(&cl)
        .output()
        .expect("clang-15");
    assert!(
        clang.status.success(),
        "{}",
        String::from_utf8_lossy(&clang.stderr)
    );
    let tr = Command::new("llvm-spirv-15")
        .arg("--spirv-max-version=1.2")
        .arg(&bc)
        .arg("-o")
        .arg(&out)
        .output()
        .expect("llvm-spirv-15");
    assert!(
        tr.status.success(),
        "{}",
        String::from_utf8_lossy(&tr.stderr)
    );
    let bytes = std::fs::read(&out).expect("read");
    let _ = std::fs::remove_dir_all(&dir);
    spv::read_bytes(&bytes).expect("readable")
}

fn bytes_of(module: &spv::Module) -> Vec<u8> {
    module
        .to_words()
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect()
}

/// Whether spirv-link links the modules (`None` when it is not installed).
fn spirv_link_accepts(modules: &[&spv::Module], tag: &str) -> Option<bool> {
    let dir = temp_dir(tag);
    let mut cmd = Command::new("spirv-link");
    cmd.arg("--target-env").arg("opencl2.2");
    for (k, m) in modules.iter().enumerate() {
        let p = dir.join(format!("m{k}.spv"));
        std::fs::write(&p, bytes_of(m)).expect("write");
        cmd.arg(p);
    }
    cmd.arg("-o").arg(dir.join("linked.spv"));
    let out = cmd.output().ok()?;
    let _ = std::fs::remove_dir_all(&dir);
    Some(out.status.success())
}

/// spirv-val's verdict on a module (`None` when it is not installed).
fn spirv_val_accepts(module: &spv::Module, tag: &str) -> Option<(bool, String)> {
    let dir = temp_dir(tag);
    let p = dir.join("linked.spv");
    std::fs::write(&p, bytes_of(module)).expect("write");
    let out = Command::new("spirv-val")
        .args(["--target-env", "opencl2.0"])
        .arg(&p)
        .output()
        .ok()?;
    let _ = std::fs::remove_dir_all(&dir);
    Some((
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    ))
}

const MAIN: &str = r#"
int add3(int x);
float scale(float x, int k);
extern global int counter;
extern constant int table[4];
kernel void k(global int *out, global float *f) {
    int i = get_global_id(0);
    out[i] = add3(i) * counter + table[i & 3];
    f[i] = scale((float)i, 4);
    counter += 0;
}
"#;

const LIB: &str = r#"
global int counter = 5;
constant int table[4] = {10, 20, 30, 40};
int add3(int x) { return x + 3; }
"#;

const LIB2: &str = r#"
float scale(float x, int k) { return x * (float)k + 0.5f; }
"#;

fn env() -> spv::valid::Env {
    spv::valid::Env::opencl(spv::valid::ClVersion::Cl20, spv::valid::Profile::Full, 64)
}

#[test]
fn functions_and_variables_link_across_modules_and_run() {
    if !tools_available() {
        eprintln!("skipping: clang-15 or llvm-spirv-15 is not installed");
        return;
    }
    let (main, lib, lib2) = (
        compile(MAIN, "main"),
        compile(LIB, "lib"),
        compile(LIB2, "lib2"),
    );
    let linked = link(&[main.clone(), lib.clone(), lib2.clone()]).expect("links");
    if let Some(accepts) = spirv_link_accepts(&[&main, &lib, &lib2], "oracle_ok") {
        assert!(accepts, "spirv-link rejects the pieces");
    }
    if let Some((ok, why)) = spirv_val_accepts(&linked, "val") {
        assert!(ok, "spirv-val rejects the linked module: {why}");
    }
    let valid = spv::valid::validate(linked, &env()).expect("the linked module validates");
    let module = kir::lower::lower(&valid).expect("lowers");
    let (index, _) = module.kernel("k").expect("kernel k");
    let n = 8usize;
    let mut out = vec![0i32; n];
    let mut f = vec![0f32; n];
    let args = [
        ArgValue::Buffer {
            ptr: out.as_mut_ptr().cast(),
            len: n * 4,
        },
        ArgValue::Buffer {
            ptr: f.as_mut_ptr().cast(),
            len: n * 4,
        },
    ];
    Interpreter::new()
        .run(&Launch {
            module: &module,
            kernel: index,
            args: &args,
            nd: NdRange::new_1d(n as u64, 4),
            threads: 1,
        })
        .expect("runs");
    let table = [10, 20, 30, 40];
    let expected: Vec<i32> = (0..n as i32)
        .map(|i| (i + 3) * 5 + table[(i & 3) as usize])
        .collect();
    assert_eq!(out, expected);
    let expected_f: Vec<f32> = (0..n).map(|i| i as f32 * 4.0 + 0.5).collect();
    assert_eq!(f, expected_f);
}

#[test]
fn the_order_of_modules_does_not_matter() {
    if !tools_available() {
        eprintln!("skipping: clang-15 or llvm-spirv-15 is not installed");
        return;
    }
    let (main, lib, lib2) = (
        compile(MAIN, "o_main"),
        compile(LIB, "o_lib"),
        compile(LIB2, "o_lib2"),
    );
    let linked = link(&[lib2, lib, main]).expect("links");
    let valid = spv::valid::validate(linked, &env()).expect("validates");
    let module = kir::lower::lower(&valid).expect("lowers");
    assert!(module.kernel("k").is_some());
}

#[test]
fn unresolved_and_duplicate_symbols_are_errors_naming_the_symbol() {
    if !tools_available() {
        eprintln!("skipping: clang-15 or llvm-spirv-15 is not installed");
        return;
    }
    let (main, lib, lib2) = (
        compile(MAIN, "e_main"),
        compile(LIB, "e_lib"),
        compile(LIB2, "e_lib2"),
    );
    // `scale` is missing.
    let err = link(&[main.clone(), lib.clone()]).expect_err("scale is unresolved");
    assert_eq!(
        err,
        LinkError::Unresolved {
            name: "scale".into(),
            module: 0
        }
    );
    assert!(err.to_string().contains("`scale`"));
    if let Some(accepts) = spirv_link_accepts(&[&main, &lib], "oracle_unresolved") {
        assert!(!accepts, "spirv-link links an unresolved import");
    }
    // A library link keeps the import.
    let partial = link_with(
        &[main.clone(), lib.clone()],
        &LinkOptions {
            allow_unresolved: true,
        },
    )
    .expect("partial link");
    let imports: Vec<&str> = partial
        .instructions
        .iter()
        .filter(|i| {
            i.op == spv::Op::Decorate
                && i.int(1) == Some(spv::Decoration::LinkageAttributes as u32)
                && i.int(3) == Some(1)
        })
        .filter_map(|i| i.str(2))
        .collect();
    assert!(imports.contains(&"scale"), "{imports:?}");
    assert!(!imports.contains(&"add3"), "{imports:?}");
    // Two definitions of `counter` and `add3`.
    let err = link(&[main.clone(), lib.clone(), lib2.clone(), lib.clone()])
        .expect_err("duplicate exports");
    match &err {
        LinkError::Duplicate {
            name,
            first: 1,
            second: 3,
        } => assert!(
            name == "counter" || name == "add3" || name == "table",
            "{name}"
        ),
        other => panic!("unexpected {other:?}"),
    }
    if let Some(accepts) = spirv_link_accepts(&[&main, &lib, &lib2, &lib], "oracle_dup") {
        assert!(!accepts, "spirv-link links duplicate exports");
    }
}

#[test]
fn an_import_of_another_type_is_an_error() {
    if !tools_available() {
        eprintln!("skipping: clang-15 or llvm-spirv-15 is not installed");
        return;
    }
    let main = compile(MAIN, "t_main");
    let lib = compile(LIB, "t_lib");
    let wrong = compile("long scale(long x, int k) { return x * k; }", "t_wrong");
    let err = link(&[main, lib, wrong]).expect_err("types differ");
    assert_eq!(
        err,
        LinkError::TypeMismatch {
            name: "scale".into(),
            import_module: 0,
            export_module: 2
        }
    );
}

#[test]
fn linking_nothing_is_an_error_and_one_module_links_to_itself() {
    assert_eq!(link(&[]), Err(LinkError::NoModules));
    let module = spv::assemble(
        "OpCapability Addresses\nOpCapability Kernel\nOpMemoryModel Physical64 OpenCL\n\
         OpEntryPoint Kernel %f \"k\"\n%void = OpTypeVoid\n%fn = OpTypeFunction %void\n\
         %f = OpFunction %void None %fn\n%l = OpLabel\nOpReturn\nOpFunctionEnd\n",
    )
    .expect("assembles");
    let linked = link(std::slice::from_ref(&module)).expect("links");
    assert_eq!(linked.instructions, {
        let mut insts = module.instructions.clone();
        insts.iter_mut().for_each(|i| i.offset = 0);
        insts
    });
}
