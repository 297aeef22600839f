//! Unit tests of the lowering on modules that are read but not validated: they cover
//! constructs the validator does not accept yet (`OpSpecConstantOp`), so the lowering's own
//! behaviour is checked independently of it. Expected values are hand-computed.

use std::process::Command;

use super::{lower_instructions, LowerOptions};
use crate::{GlobalRef, InstData, Reloc};

fn tool(name: &str) -> bool {
    Command::new(name)
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

fn temp(tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("kir_lower_unit_{tag}_{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn assemble(tag: &str, text: &str) -> Option<Vec<u8>> {
    if !tool("spirv-as") {
        eprintln!("skipping: spirv-as is not installed");
        return None;
    }
    let dir = temp(tag);
    std::fs::write(dir.join("k.spvasm"), text).expect("write");
    let out = Command::new("spirv-as")
        .args(["--target-env", "spv1.0", "-o"])
        .arg(dir.join("k.spv"))
        .arg(dir.join("k.spvasm"))
        .output()
        .expect("spirv-as");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = std::fs::read(dir.join("k.spv")).expect("read");
    let _ = std::fs::remove_dir_all(&dir);
    Some(bytes)
}

fn compile(tag: &str, source: &str) -> Option<Vec<u8>> {
    if !tool("clang-15") || !tool("llvm-spirv-15") {
        eprintln!("skipping: clang-15 or llvm-spirv-15 is not installed");
        return None;
    }
    let dir = temp(tag);
    std::fs::write(dir.join("k.cl"), source).expect("write");
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
        .arg(dir.join("k.bc"))
        .arg(dir.join("k.cl"))
        .output()
        .expect("clang-15");
    assert!(
        clang.status.success(),
        "{}",
        String::from_utf8_lossy(&clang.stderr)
    );
    let tr = Command::new("llvm-spirv-15")
        .arg("--spirv-max-version=1.2")
        .arg(dir.join("k.bc"))
        .arg("-o")
        .arg(dir.join("k.spv"))
        .output()
        .expect("llvm-spirv-15");
    assert!(
        tr.status.success(),
        "{}",
        String::from_utf8_lossy(&tr.stderr)
    );
    let bytes = std::fs::read(dir.join("k.spv")).expect("read");
    let _ = std::fs::remove_dir_all(&dir);
    Some(bytes)
}

fn lower_bytes(bytes: &[u8], options: &LowerOptions) -> crate::Module {
    let module = spv::read_bytes(bytes).expect("readable");
    lower_instructions(&module.instructions, options).expect("lowers")
}

/// The bytes of the constant stored by the first `store` of kernel `k`.
fn stored_constant(m: &crate::Module) -> Vec<u8> {
    let (_, k) = m.kernel("k").expect("kernel k");
    let f = m.function(k.func).expect("function");
    let mut consts = std::collections::HashMap::new();
    for b in &f.layout.blocks {
        for i in f.layout.insts(*b) {
            match f.dfg.inst(*i) {
                InstData::Const { bytes } => {
                    consts.insert(f.dfg.inst_result(*i), bytes.clone());
                }
                InstData::Store { value, .. } => return consts[&Some(*value)].clone(),
                _ => {}
            }
        }
    }
    panic!("no store in {f}");
}

#[test]
fn spec_constant_ops_are_evaluated_with_specialized_values() {
    let asm = r#"
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpDecorate %sc SpecId 3
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
     %ptr_gu = OpTypePointer CrossWorkgroup %uint
         %sc = OpSpecConstant %uint 42
     %uint_5 = OpConstant %uint 5
        %mul = OpSpecConstantOp %uint IMul %sc %uint_5
        %sub = OpSpecConstantOp %uint ISub %mul %uint_5
         %fn = OpTypeFunction %void %ptr_gu
          %k = OpFunction %void None %fn
        %out = OpFunctionParameter %ptr_gu
          %l = OpLabel
               OpStore %out %sub Aligned 4
               OpReturn
               OpFunctionEnd
"#;
    let Some(bytes) = assemble("specop", asm) else {
        return;
    };
    // 42 * 5 - 5 = 205; with SpecId 3 = 10: 10 * 5 - 5 = 45.
    let m = lower_bytes(&bytes, &LowerOptions::default());
    assert_eq!(stored_constant(&m), 205u32.to_le_bytes());
    let mut options = LowerOptions::default();
    options.spec_constants.insert(3, 10);
    let m = lower_bytes(&bytes, &options);
    assert_eq!(stored_constant(&m), 45u32.to_le_bytes());
}

#[test]
fn pointer_initializers_become_relocations() {
    let src = r#"
        __global int x = 5;
        __global int arr[4] = {1, 2, 3, 4};
        __global int *p = &x;
        __global int *q = &arr[2];
        typedef struct { int a; __global int *ptr; } R;
        __global R r = { 7, &arr[1] };
        __kernel void k(__global int *o) { o[0] = *p + *q + *r.ptr + r.a + *(&arr[3]); }"#;
    let Some(bytes) = compile("relocs", src) else {
        return;
    };
    let m = lower_bytes(&bytes, &LowerOptions::default());
    let index = |name: &str| m.globals.iter().position(|g| g.name == name).expect(name) as u32;
    let (x, arr) = (index("x"), index("arr"));
    let p = &m.globals[index("p") as usize];
    assert_eq!(p.size, 8);
    assert_eq!(
        p.relocs,
        vec![Reloc {
            offset: 0,
            target: GlobalRef(x),
            addend: 0
        }]
    );
    let q = &m.globals[index("q") as usize];
    assert_eq!(
        q.relocs,
        vec![Reloc {
            offset: 0,
            target: GlobalRef(arr),
            addend: 8
        }]
    );
    // struct { int a; int *ptr; }: a = 7 at 0, ptr at 8 → &arr[1], size 16.
    let r = &m.globals[index("r") as usize];
    assert_eq!(r.size, 16);
    assert_eq!(
        r.relocs,
        vec![Reloc {
            offset: 8,
            target: GlobalRef(arr),
            addend: 4
        }]
    );
    assert_eq!(&r.init.as_ref().expect("init")[0..4], &7i32.to_le_bytes());
}

#[test]
fn switches_on_64_bit_selectors_keep_wide_case_values() {
    let src = r#"
        __kernel void k(__global long *o, long x) {
            switch (x) { case 0: o[0] = 1; break; case 1L << 40: o[0] = 2; break;
                         case -1L: o[0] = 3; break; default: o[0] = 4; }
        }"#;
    let Some(bytes) = compile("switch64", src) else {
        return;
    };
    let m = lower_bytes(&bytes, &LowerOptions::default());
    let mut cases = Vec::new();
    for f in &m.functions {
        for b in &f.layout.blocks {
            for i in f.layout.insts(*b) {
                if let InstData::Switch { cases: c, .. } = f.dfg.inst(*i) {
                    cases.extend(c.iter().map(|(v, _)| *v));
                }
            }
        }
    }
    cases.sort_unstable();
    assert_eq!(cases, vec![0, 1 << 40, u64::MAX]);
}
