//! What the consumer does not run fails with an error that names the instruction and the
//! capability (issue 3, "Producers other than oxcl"): pipe storage, which the OpenCL 3.0
//! environment requires of OpenCL 2.2 devices only (named barriers run: `named_barriers.rs`,
//! pipes: `pipes.rs`, device-side enqueue: `device_enqueue.rs`).

use spv::valid::Env;

#[test]
fn pipe_storage_names_the_instruction_and_capability() {
    let text = "; Version: 1.1
OpCapability Addresses
OpCapability Kernel
OpCapability Pipes
OpCapability PipeStorage
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %main \"k\"
%void = OpTypeVoid
%ps = OpTypePipeStorage
%pipe = OpTypePipe ReadOnly
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%l = OpLabel
%cps = OpConstantPipeStorage %ps 4 4 8
%p = OpCreatePipeFromPipeStorage %pipe %cps
OpReturn
OpFunctionEnd
";
    let module = spv::assemble(text).expect("assembles");
    let env = Env::from_target_env("opencl2.2").expect("env");
    let valid = spv::valid::validate(module, &env).expect("validates for OpenCL 2.2");
    match kir::lower::lower(&valid) {
        Ok(_) => panic!("lowered, but pipe storage is not implemented"),
        Err(e) => {
            assert!(
                matches!(e, kir::lower::LowerError::Unsupported { .. }),
                "{e:?}"
            );
            let text = e.to_string();
            assert!(text.contains("OpConstantPipeStorage"), "{text}");
            assert!(text.contains("capability PipeStorage"), "{text}");
        }
    }
}
