//! A SPIR-V 1.0 module in the form old producers wrote (llvm-spirv before 2020, as in pyopencl's
//! `add-vectors-64.spv`): the `GlobalInvocationId` built-in is a `UniformConstant` variable
//! decorated `Constant` and `LinkageAttributes … Import`, not listed in the entry point's
//! interface, and a decoration group marks two parameters `NoWrite`. The OpenCL 2.1/2.2
//! environment (v2.2-7) that governs SPIR-V 1.0 states no storage class for built-ins, and
//! spirv-val accepts the module, so `clCreateProgramWithIL` must build and run it. Assembled with
//! spirv-as (skipped when absent); expected values: `res[i] = a[i] + b[i]` computed here.

use runtime::{Buffer, Context, EngineKind, MemFlags, NdRange, Platform, Program, Queue};
use std::process::Command;

const MODULE: &str = r#"
OpCapability Addresses
OpCapability Linkage
OpCapability Kernel
OpCapability Int64
%1 = OpExtInstImport "OpenCL.std"
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %sum "sum"
OpSource OpenCL_C 200000
OpName %gid "__spirv_BuiltInGlobalInvocationId"
OpDecorate %nowrite FuncParamAttr NoWrite
%nowrite = OpDecorationGroup
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %gid Constant
OpDecorate %gid LinkageAttributes "__spirv_BuiltInGlobalInvocationId" Import
OpGroupDecorate %nowrite %a %b
%ulong = OpTypeInt 64 0
%uint = OpTypeInt 32 0
%v3ulong = OpTypeVector %ulong 3
%ptr_v3 = OpTypePointer UniformConstant %v3ulong
%void = OpTypeVoid
%float = OpTypeFloat 32
%ptr_f = OpTypePointer CrossWorkgroup %float
%fn = OpTypeFunction %void %ptr_f %ptr_f %ptr_f
%gid = OpVariable %ptr_v3 UniformConstant
%sum = OpFunction %void None %fn
%a = OpFunctionParameter %ptr_f
%b = OpFunctionParameter %ptr_f
%res = OpFunctionParameter %ptr_f
%entry = OpLabel
%ids = OpLoad %v3ulong %gid
%call = OpCompositeExtract %ulong %ids 0
%conv = OpUConvert %uint %call
%i = OpSConvert %ulong %conv
%pa = OpInBoundsPtrAccessChain %ptr_f %a %i
%va = OpLoad %float %pa Aligned 4
%pb = OpInBoundsPtrAccessChain %ptr_f %b %i
%vb = OpLoad %float %pb Aligned 4
%add = OpFAdd %float %va %vb
%pr = OpInBoundsPtrAccessChain %ptr_f %res %i
OpStore %pr %add Aligned 4
OpReturn
OpFunctionEnd
"#;

fn assemble(text: &str) -> Option<Vec<u8>> {
    let dir = std::env::temp_dir().join(format!("oxcl-ucbuiltin-{}", std::process::id()));
    std::fs::create_dir_all(&dir).ok()?;
    let (src, out) = (dir.join("m.spvasm"), dir.join("m.spv"));
    std::fs::write(&src, text).ok()?;
    let status = Command::new("spirv-as")
        .args(["--target-env", "spv1.0", "-o"])
        .arg(&out)
        .arg(&src)
        .status()
        .ok()?;
    assert!(status.success(), "spirv-as rejected the module");
    let binary = std::fs::read(&out).ok();
    let _ = std::fs::remove_dir_all(&dir);
    binary
}

fn floats(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

#[test]
fn uniform_constant_builtin_module_runs_on_both_engines() {
    let Some(il) = assemble(MODULE) else {
        eprintln!("skipped: spirv-as is not installed");
        return;
    };
    let ctx = Context::new(Platform::get().devices().remove(0));
    let program = Program::from_il(&ctx, &il).expect("IL accepted");
    program
        .build("")
        .unwrap_or_else(|e| panic!("{e}: {}", program.build_log()));
    let n = 1000usize;
    let a: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
    let b: Vec<f32> = (0..n).map(|i| 1000.0 - i as f32 * 3.0).collect();
    let expected: Vec<f32> = a.iter().zip(&b).map(|(x, y)| x + y).collect();
    let bytes = |v: &[f32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    for engine in [EngineKind::Interpreter, EngineKind::Jit] {
        let k = program.kernel("sum").expect("kernel");
        let da = Buffer::new(&ctx, MemFlags::default(), n * 4).unwrap();
        let db = Buffer::new(&ctx, MemFlags::default(), n * 4).unwrap();
        let dr = Buffer::new(&ctx, MemFlags::default(), n * 4).unwrap();
        da.write(0, &bytes(&a)).unwrap();
        db.write(0, &bytes(&b)).unwrap();
        k.set_arg_buffer(0, Some(&da)).unwrap();
        k.set_arg_buffer(1, Some(&db)).unwrap();
        k.set_arg_buffer(2, Some(&dr)).unwrap();
        Queue::new(&ctx)
            .with_engine(engine)
            .nd_range(&k, &NdRange::new(&[n], None, None))
            .expect("launch");
        assert_eq!(floats(&dr.to_vec()), expected, "{engine:?}");
    }
}
