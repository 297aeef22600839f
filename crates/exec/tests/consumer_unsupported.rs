//! What the consumer does not run yet fails with an error that names the instruction and the
//! capability (issue 3, "Producers other than oxcl"): named barriers (pipes run: `pipes.rs`,
//! device-side enqueue: `device_enqueue.rs`). FIXME(issue 3): these assert the current
//! behaviour; when the features land, these
//! cases become execution tests and `consumer_coverage::KNOWN_GAPS` shrinks.

#[path = "consumer_coverage/harness.rs"]
mod harness;

fn lower_error(module: spv::Module) -> String {
    let valid = spv::valid::validate(module, &harness::env()).expect("validates");
    match kir::lower::lower(&valid) {
        Ok(_) => panic!("lowered, but the feature is not implemented"),
        Err(e) => {
            assert!(
                matches!(e, kir::lower::LowerError::Unsupported { .. }),
                "{e:?}"
            );
            e.to_string()
        }
    }
}

#[test]
fn named_barriers_name_the_instruction_and_capability() {
    let text = "; Version: 1.1
OpCapability Addresses
OpCapability Kernel
OpCapability NamedBarrier
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %main \"k\"
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%nb = OpTypeNamedBarrier
%u1 = OpConstant %uint 1
%u2 = OpConstant %uint 2
%u0 = OpConstant %uint 0
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%l = OpLabel
%b = OpNamedBarrierInitialize %nb %u1
OpMemoryNamedBarrier %b %u2 %u0
OpReturn
OpFunctionEnd
";
    let module = spv::assemble(text).expect("assembles");
    let text = lower_error(module);
    assert!(text.contains("OpNamedBarrierInitialize"), "{text}");
    assert!(text.contains("capability NamedBarrier"), "{text}");
}
