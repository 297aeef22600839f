//! SPIR-V versions 1.0 to 1.6: which environment accepts which version (env 3.0 "Supported
//! SPIR-V Versions": 2.1 and `cl_khr_il_program` accept 1.0, 2.2 accepts 1.0–1.2, a 3.0 device
//! lists its own versions — this device 1.0–1.6, `Env::max_spirv_version`), and the rules that
//! change from 1.4 (SPIR-V 3.32.5: the OpEntryPoint interface lists every global variable the
//! entry point uses; pointer comparison, difference and selection, OpCopyLogical). Expected
//! verdicts come from `spirv-val --target-env spv1.N` (the universal rules of the version) and
//! from `spirv-val --target-env openclX` for the version limits.

#[path = "valid/common.rs"]
mod common;

use spv::valid::Env;

/// A kernel using instructions new in SPIR-V 1.4 (OpPtrEqual, OpPtrNotEqual, OpPtrDiff, OpSelect
/// of pointers, OpCopyLogical) with a Workgroup and an Input variable; `interface` is its
/// OpEntryPoint interface list.
fn module_14(interface: &str) -> String {
    format!(
        "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\n\
         %ocl = OpExtInstImport \"OpenCL.std\"\nOpMemoryModel Physical64 OpenCL\n\
         OpEntryPoint Kernel %main \"k\" {interface}\n\
         OpDecorate %gid BuiltIn GlobalInvocationId\nOpDecorate %gid Constant\n\
         %void = OpTypeVoid\n%bool = OpTypeBool\n%uint = OpTypeInt 32 0\n%ulong = OpTypeInt 64 0\n\
         %v3ulong = OpTypeVector %ulong 3\n%ptr_in_v3 = OpTypePointer Input %v3ulong\n\
         %ptr_cw_uint = OpTypePointer CrossWorkgroup %uint\n%ptr_wg_uint = OpTypePointer Workgroup %uint\n\
         %kfn = OpTypeFunction %void %ptr_cw_uint\n%u0 = OpConstant %uint 0\n%u1 = OpConstant %uint 1\n\
         %ul1 = OpConstant %ulong 1\n%u4 = OpConstant %uint 4\n%arr = OpTypeArray %uint %u4\n\
         %st = OpTypeStruct %uint %arr\n%st2 = OpTypeStruct %uint %arr\n%cst = OpConstantNull %st\n\
         %gid = OpVariable %ptr_in_v3 Input\n%wg = OpVariable %ptr_wg_uint Workgroup\n\
         %main = OpFunction %void None %kfn\n%out = OpFunctionParameter %ptr_cw_uint\n%entry = OpLabel\n\
         %ids = OpLoad %v3ulong %gid\n%id = OpCompositeExtract %ulong %ids 0\n\
         %p = OpInBoundsPtrAccessChain %ptr_cw_uint %out %id\n%q = OpPtrAccessChain %ptr_cw_uint %out %ul1\n\
         %eq = OpPtrEqual %bool %p %q\n%ne = OpPtrNotEqual %bool %p %q\n%d = OpPtrDiff %ulong %p %q\n\
         %sel = OpSelect %ptr_cw_uint %ne %p %q\n%cl = OpCopyLogical %st2 %cst\n\
         %e = OpCompositeExtract %uint %cl 0\n%v = OpSelect %uint %eq %u1 %e\n%dw = OpUConvert %uint %d\n\
         OpStore %wg %dw\n%w = OpLoad %uint %wg\n%s = OpIAdd %uint %v %w\nOpStore %sel %s\n\
         OpReturn\nOpFunctionEnd\n"
    )
}

/// A module valid in every version: a kernel storing its global id.
const PLAIN: &str = "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\n\
    OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %main \"k\" %gid\n\
    OpDecorate %gid BuiltIn GlobalInvocationId\n%void = OpTypeVoid\n%ulong = OpTypeInt 64 0\n\
    %v3 = OpTypeVector %ulong 3\n%pin = OpTypePointer Input %v3\n%pcw = OpTypePointer CrossWorkgroup %ulong\n\
    %kfn = OpTypeFunction %void %pcw\n%gid = OpVariable %pin Input\n\
    %main = OpFunction %void None %kfn\n%out = OpFunctionParameter %pcw\n%l = OpLabel\n\
    %ids = OpLoad %v3 %gid\n%id = OpCompositeExtract %ulong %ids 0\n\
    %p = OpInBoundsPtrAccessChain %pcw %out %id\nOpStore %p %id\nOpReturn\nOpFunctionEnd\n";

const VERSIONS: [&str; 7] = ["1.0", "1.1", "1.2", "1.3", "1.4", "1.5", "1.6"];

/// env 3.0 "Supported SPIR-V Versions": 1.2/2.0/2.1 accept 1.0, 2.2 accepts 1.0–1.2 (agreeing
/// with spirv-val's OpenCL environments), the 3.0 device accepts 1.0–1.6.
#[test]
fn each_environment_accepts_its_versions() {
    if !common::have("spirv-as") {
        eprintln!("skipped: spirv-as is not installed");
        return;
    }
    for version in VERSIONS {
        let binary = common::assemble(PLAIN, version).unwrap();
        for env_name in [
            "opencl1.2",
            "opencl2.0",
            "opencl2.1",
            "opencl2.2",
            "opencl3.0",
        ] {
            let env = Env::from_target_env(env_name).unwrap();
            let ours = common::oxcl_val(&binary, &env);
            let max = env.max_spirv_version();
            let (major, minor) = version.split_once('.').unwrap();
            let v: (u8, u8) = (major.parse().unwrap(), minor.parse().unwrap());
            assert_eq!(ours.is_ok(), v <= max, "{version} [{env_name}]: {ours:?}");
            if env_name != "opencl3.0" && common::have("spirv-val") {
                let (theirs, log) = common::spirv_val(&binary, env_name).unwrap();
                assert_eq!(
                    ours.is_ok(),
                    theirs,
                    "{version} [{env_name}]: spirv-val {log}"
                );
            }
        }
    }
    assert_eq!(
        Env::from_target_env("opencl3.0")
            .unwrap()
            .max_spirv_version(),
        (1, 6)
    );
}

/// SPIR-V 3.32.5 from 1.4: the interface lists all global variables of the call tree, once.
/// spirv-val's universal rules of each version decide the expected verdict; oxcl validates for
/// the OpenCL 3.0 device.
#[test]
fn version_14_interfaces_and_instructions_agree_with_spirv_val() {
    if !common::have("spirv-as") || !common::have("spirv-val") {
        eprintln!("skipped: spirv-as or spirv-val is not installed");
        return;
    }
    let env = Env::from_target_env("opencl3.0").unwrap();
    let cases = [
        ("complete interface", "%gid %wg", true),
        ("Workgroup variable missing", "%gid", false),
        ("Input variable missing", "%wg", false),
        ("variable listed twice", "%gid %wg %wg", false),
    ];
    for version in ["1.4", "1.5", "1.6"] {
        for (name, interface, expected) in cases {
            let binary = common::assemble(&module_14(interface), version).unwrap();
            let (theirs, log) = common::spirv_val(&binary, &format!("spv{version}")).unwrap();
            assert_eq!(theirs, expected, "{name} {version}: spirv-val {log}");
            let ours = common::oxcl_val(&binary, &env);
            assert_eq!(ours.is_ok(), expected, "{name} {version}: {ours:?}");
            if !expected {
                common::expect_rule(ours, "from version 1.4, the Interface lists");
            }
        }
    }
}

/// Modules of llvm-spirv-15 with `--spirv-max-version=1.4` (it raises the version to 1.4 when it
/// uses a 1.4 feature, e.g. NoSignedWrap) validate for the 3.0 device and for spirv-val 1.4.
#[test]
fn llvm_spirv_14_modules_validate() {
    for tool in ["clang-15", "llvm-spirv-15", "spirv-val"] {
        if !common::have(tool) {
            eprintln!("skipped: {tool} is not installed");
            return;
        }
    }
    let env = Env::from_target_env("opencl3.0").unwrap();
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/corpus");
    let mut at_14 = 0;
    for name in [
        "histogram",
        "reduce_local",
        "prefix_scan",
        "stencil2d",
        "transpose",
        "mandelbrot",
        "int_arith",
        "loops",
    ] {
        let cl = dir.join(format!("{name}.cl"));
        let bc = common::scratch("bc");
        let spv_path = common::scratch("spv");
        let o = std::process::Command::new("clang-15")
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
            .unwrap();
        assert!(o.status.success(), "clang {name}");
        let o = std::process::Command::new("llvm-spirv-15")
            .arg("--spirv-max-version=1.4")
            .arg(&bc)
            .arg("-o")
            .arg(&spv_path)
            .output()
            .unwrap();
        assert!(o.status.success(), "llvm-spirv {name}");
        let binary = std::fs::read(&spv_path).unwrap();
        let module = spv::read_bytes(&binary).unwrap();
        if module.header.version == (1, 4) {
            at_14 += 1;
        }
        let (theirs, log) = common::spirv_val(&binary, "spv1.4").unwrap();
        assert!(theirs, "{name}: spirv-val {log}");
        common::expect_ok(spv::valid::validate(module, &env));
    }
    assert!(
        at_14 >= 2,
        "llvm-spirv produced only {at_14} SPIR-V 1.4 modules"
    );
}
