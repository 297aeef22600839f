//! Specialization constants as array lengths (SPIR-V 2.12: an `OpTypeArray` length may be an
//! `OpSpecConstant`), and spec-constant overrides (`kir::lower::LowerOptions::spec_constants`,
//! the values of `clSetProgramSpecializationConstant`). Expected values are worked out by hand.

#[path = "consumer_coverage/harness.rs"]
mod harness;

use exec::{ArgValue, Engine, Interpreter, Launch, NdRange};

const MODULE: &str = "
; Version: 1.2
OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %main \"k\"
OpDecorate %n SpecId 7
OpDecorate %scale SpecId 8
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%n = OpSpecConstant %uint 4
%scale = OpSpecConstant %uint 3
%last = OpSpecConstantOp %uint ISub %n %u1
%arr = OpTypeArray %uint %n
%ptr_fn_arr = OpTypePointer Function %arr
%ptr_fn_uint = OpTypePointer Function %uint
%ptr_cw_uint = OpTypePointer CrossWorkgroup %uint
%ptr_cw_arr = OpTypePointer CrossWorkgroup %arr
%kfn = OpTypeFunction %void %ptr_cw_arr
%main = OpFunction %void None %kfn
%out = OpFunctionParameter %ptr_cw_arr
%entry = OpLabel
%tmp = OpVariable %ptr_fn_arr Function
%slot = OpAccessChain %ptr_fn_uint %tmp %last
%v = OpIMul %uint %scale %n
OpStore %slot %v
%whole = OpLoad %arr %tmp
OpStore %out %whole
OpReturn
OpFunctionEnd
";

/// Runs the kernel with spec-constant overrides; returns the output buffer (8 uints).
fn run(overrides: &[(u32, u64)]) -> Vec<u32> {
    let module = spv::assemble(MODULE).expect("assembles");
    let valid = spv::valid::validate(module, &harness::env()).expect("validates");
    let options = kir::lower::LowerOptions {
        spec_constants: overrides.iter().copied().collect(),
    };
    let lowered = kir::lower::lower_with(&valid, &options).expect("lowers");
    let mut out = vec![0xdead_beefu32; 8];
    let args = [ArgValue::Buffer {
        ptr: out.as_mut_ptr().cast(),
        len: 32,
    }];
    Interpreter::new()
        .run(&Launch {
            module: &lowered,
            kernel: 0,
            args: &args,
            nd: NdRange::new_1d(1, 1),
            threads: 1,
        })
        .expect("runs");
    out
}

#[test]
fn an_array_length_given_by_a_spec_constant_follows_its_value() {
    // Default: uint[4], element 3 = 3 * 4; the whole array (16 bytes, private memory zeroed by
    // the interpreter's stackalloc) is stored.
    let d = 0xdead_beef;
    assert_eq!(run(&[]), vec![0, 0, 0, 12, d, d, d, d]);
    // n = 6, scale = 5: uint[6], element 5 = 30.
    assert_eq!(run(&[(7, 6), (8, 5)]), vec![0, 0, 0, 0, 0, 30, d, d]);
}
