//! Corpus cases written in SPIR-V assembly (the kernel skeleton is `harness::Asm`), for the
//! instructions and module-level constructs clang-15 + llvm-spirv-15 do not emit. Expected values
//! are worked out by hand from the SPIR-V specification (section cited beside each value).

use std::collections::BTreeSet;

use super::harness::Asm;
use spv::Op;

const FLOAT_BITS_2: u32 = 0x4000_0000;
const FLOAT_BITS_1: u32 = 0x3f80_0000;

fn integer_and_logical() -> BTreeSet<Op> {
    Asm {
        decls: "
%m7 = OpConstant %uint 4294967289
%umax = OpConstant %uint 4294967295
%pair = OpTypeStruct %uint %uint
%fm55 = OpConstant %float -5.5
%nanbits = OpConstant %uint 2143289344
",
        body: "
%r0 = OpSNegate %uint %u5
%r1 = OpSMod %uint %m7 %u3
%r2 = OpNot %uint %u5
%carry = OpIAddCarry %pair %umax %u3
%r3 = OpCompositeExtract %uint %carry 0
%r4 = OpCompositeExtract %uint %carry 1
%borrow = OpISubBorrow %pair %u3 %u5
%r5 = OpCompositeExtract %uint %borrow 0
%r6 = OpCompositeExtract %uint %borrow 1
%umul = OpUMulExtended %pair %umax %u3
%r7 = OpCompositeExtract %uint %umul 0
%r8 = OpCompositeExtract %uint %umul 1
%smul = OpSMulExtended %pair %m7 %u3
%r9 = OpCompositeExtract %uint %smul 0
%r10 = OpCompositeExtract %uint %smul 1
%c11 = OpUGreaterThan %bool %m7 %u3
%r11 = OpSelect %uint %c11 %u1 %u0
%c12 = OpUGreaterThanEqual %bool %u3 %u5
%r12 = OpSelect %uint %c12 %u1 %u0
%c13 = OpULessThanEqual %bool %u5 %u5
%r13 = OpSelect %uint %c13 %u1 %u0
%c14 = OpSLessThanEqual %bool %m7 %u3
%r14 = OpSelect %uint %c14 %u1 %u0
%c15 = OpLogicalEqual %bool %true %false
%r15 = OpSelect %uint %c15 %u1 %u0
%c16 = OpLogicalNotEqual %bool %true %false
%r16 = OpSelect %uint %c16 %u1 %u0
%c17 = OpLogicalOr %bool %false %true
%r17 = OpSelect %uint %c17 %u1 %u0
%c18 = OpLogicalAnd %bool %true %false
%r18 = OpSelect %uint %c18 %u1 %u0
%c19 = OpLogicalNot %bool %false
%r19 = OpSelect %uint %c19 %u1 %u0
%frem = OpFRem %float %fm55 %f2
%r20 = OpBitcast %uint %frem
%fmod = OpFMod %float %fm55 %f2
%r21 = OpBitcast %uint %fmod
%v12 = OpCompositeConstruct %v2float %f1 %f2
%vts = OpVectorTimesScalar %v2float %v12 %fhalf
%vts1 = OpCompositeExtract %float %vts 1
%r22 = OpBitcast %uint %vts1
%fnan = OpBitcast %float %nanbits
%c23 = OpLessOrGreater %bool %f1 %f2
%r23 = OpSelect %uint %c23 %u1 %u0
%c24 = OpFUnordEqual %bool %fnan %f1
%r24 = OpSelect %uint %c24 %u1 %u0
%c25 = OpFUnordLessThan %bool %f1 %f2
%r25 = OpSelect %uint %c25 %u1 %u0
%c26 = OpFUnordGreaterThan %bool %fnan %f1
%r26 = OpSelect %uint %c26 %u1 %u0
%c27 = OpFUnordLessThanEqual %bool %f2 %f1
%r27 = OpSelect %uint %c27 %u1 %u0
%c28 = OpFUnordGreaterThanEqual %bool %f1 %f1
%r28 = OpSelect %uint %c28 %u1 %u0
%sat = OpSatConvertUToS %uchar %umax
%r29 = OpUConvert %uint %sat
%r30 = OpCopyObject %uint %u7
%vec = OpCompositeConstruct %v4uint %u1 %u2 %u3 %u4
%ins = OpVectorInsertDynamic %v4uint %vec %u9 %u2
%r31 = OpVectorExtractDynamic %uint %ins %u2
",
        ..Asm::default()
    }
    .run(
        "integer_and_logical",
        &[
            5u32.wrapping_neg(),
            // SPIR-V 3.42.13 OpSMod: the sign of the result is the sign of the divisor.
            2,
            !5,
            2,
            1,
            3u32.wrapping_sub(5),
            1,
            u32::MAX.wrapping_mul(3),
            2,
            (-21i32) as u32,
            u32::MAX,
            1,
            0,
            1,
            1,
            0,
            1,
            1,
            0,
            1,
            // OpFRem: sign of the dividend (-1.5); OpFMod: sign of the divisor (0.5).
            (-1.5f32).to_bits(),
            0.5f32.to_bits(),
            1.0f32.to_bits(),
            1,
            1,
            1,
            1,
            0,
            1,
            // OpSatConvertUToS to an 8-bit signed integer: 127.
            127,
            7,
            9,
        ],
    )
}

fn memory() -> BTreeSet<Op> {
    Asm {
        decls: "
%arr3 = OpTypeArray %uint %u3
%st = OpTypeStruct %uint %arr3
%st2 = OpTypeStruct %uint %arr3
%ptr_fn_st = OpTypePointer Function %st
%ptr_fn_arr3 = OpTypePointer Function %arr3
",
        body: "
%va = OpVariable %ptr_fn_st Function
%vb = OpVariable %ptr_fn_st Function
%vc = OpVariable %ptr_fn_st Function
%a0 = OpAccessChain %ptr_fn_uint %va %u0
OpStore %a0 %u7
%a1 = OpInBoundsAccessChain %ptr_fn_uint %va %u1 %u2
OpStore %a1 %u9
%a2 = OpAccessChain %ptr_fn_uint %va %u1 %u0
OpStore %a2 %u3
%a3 = OpAccessChain %ptr_fn_uint %va %u1 %u1
OpStore %a3 %u4
OpCopyMemory %vb %va
%b2 = OpAccessChain %ptr_fn_uint %vb %u1 %u2
%r0 = OpLoad %uint %b2
%r1 = OpSizeOf %uint %va
OpLifetimeStart %vc 0
OpCopyMemorySized %vc %va %l4
%c0 = OpAccessChain %ptr_fn_uint %vc %u0
%r2 = OpLoad %uint %c0
OpLifetimeStop %vc 0
%arrp = OpAccessChain %ptr_fn_arr3 %va %u1
%e0 = OpAccessChain %ptr_fn_uint %arrp %u0
%e2 = OpPtrAccessChain %ptr_fn_uint %e0 %u2
%r3 = OpLoad %uint %e2
%diff = OpPtrDiff %ulong %e2 %e0
%r4 = OpUConvert %uint %diff
%eq = OpPtrEqual %bool %e2 %a1
%r5 = OpSelect %uint %eq %u1 %u0
%ne = OpPtrNotEqual %bool %e2 %e0
%r6 = OpSelect %uint %ne %u1 %u0
%oi = OpConvertPtrToU %ulong %out
%ob = OpConvertUToPtr %ptr_cw_uint %oi
%same = OpPtrEqual %bool %ob %out
%r7 = OpSelect %uint %same %u1 %u0
%gen = OpPtrCastToGeneric %ptr_gen_uint %out
%r8 = OpGenericPtrMemSemantics %uint %gen
%genf = OpPtrCastToGeneric %ptr_gen_uint %e0
%backf = OpGenericCastToPtr %ptr_fn_uint %genf
%r9 = OpLoad %uint %backf
%whole = OpLoad %st %va
%logical = OpCopyLogical %st2 %whole
%r10 = OpCompositeExtract %uint %logical 1 1
",
        ..Asm::default()
    }
    .run(
        "memory",
        // OpSizeOf of struct { uint; uint[3]; } is 16 bytes; OpPtrDiff counts elements (2);
        // OpGenericPtrMemSemantics of a CrossWorkgroup pointer is CrossWorkgroupMemory (0x200).
        &[9, 16, 7, 9, 2, 1, 1, 1, 0x200, 3, 4],
    )
}

fn constants_debug_and_decorations() -> BTreeSet<Op> {
    Asm {
        capabilities: "OpExtension \"SPV_KHR_non_semantic_info\"",
        modes: "OpExecutionModeId %main LocalSizeId %u1 %u1 %u1",
        annotations: "
%file = OpString \"k.cl\"
OpSourceExtension \"cl_khr_fp16\"
OpSource OpenCL_C 200000 %file \"kernel void k\"
OpSourceContinued \"(global uint *out) {}\"
OpName %main \"k\"
OpMemberName %node 0 \"value\"
OpModuleProcessed \"hand-written for oxcl\"
OpDecorate %sc1 SpecId 1
OpDecorate %sc2 SpecId 2
OpDecorate %sct SpecId 3
OpDecorate %scf SpecId 4
OpDecorate %grp Volatile
%grp = OpDecorationGroup
OpGroupDecorate %grp %gv
OpDecorate %mgrp Volatile
%mgrp = OpDecorationGroup
OpGroupMemberDecorate %mgrp %node 0
OpMemberDecorate %node 1 Volatile
OpDecorateId %gv AlignmentId %u8
OpDecorateString %gv UserSemantic \"a global\"
OpMemberDecorateString %node 0 UserSemantic \"a member\"
",
        interface: "%gv",
        decls: "
%sc1 = OpSpecConstant %uint 10
%sc2 = OpSpecConstant %uint 3
%sct = OpSpecConstantTrue %bool
%scf = OpSpecConstantFalse %bool
%scc = OpSpecConstantComposite %v2uint %sc1 %sc2
%sco = OpSpecConstantOp %uint IMul %sc1 %sc2
%opaque = OpTypeOpaque \"struct.opaque\"
%ptr_cw_opaque = OpTypePointer CrossWorkgroup %opaque
OpTypeForwardPointer %ptr_cw_node CrossWorkgroup
%node = OpTypeStruct %uint %ptr_cw_node
%ptr_cw_node = OpTypePointer CrossWorkgroup %node
%ptr_fn_node = OpTypePointer Function %node
%gv = OpVariable %ptr_cw_uint CrossWorkgroup %u6
%null_opaque = OpConstantNull %ptr_cw_opaque
",
        body: "
%nv = OpVariable %ptr_fn_node Function
OpNop
OpLine %file 3 7
%n0 = OpAccessChain %ptr_fn_uint %nv %u0
OpStore %n0 %u5
OpNoLine
%r0 = OpCopyObject %uint %sco
%r1 = OpSelect %uint %sct %u1 %u0
%r2 = OpSelect %uint %scf %u1 %u0
%r3 = OpCompositeExtract %uint %scc 1
%r4 = OpLoad %uint %n0
%r5 = OpLoad %uint %gv Volatile
%isnull = OpPtrEqual %bool %null_opaque %null_opaque
%r6 = OpSelect %uint %isnull %u1 %u0
%r7 = OpSelect %uint %false %u1 %u2
",
        ..Asm::default()
    }
    .run(
        "constants_debug_and_decorations",
        &[30, 1, 0, 3, 5, 6, 1, 2],
    )
}

fn structured_control_flow() -> BTreeSet<Op> {
    Asm {
        body: "
OpBranch %header
%header = OpLabel
%i = OpPhi %uint %u0 %entry %inext %cont
%acc = OpPhi %uint %u0 %entry %accn %cont
%more = OpULessThan %bool %i %u5
OpLoopMerge %merge %cont None
OpBranchConditional %more %body %merge
%body = OpLabel
%accn = OpIAdd %uint %acc %i
OpBranch %cont
%cont = OpLabel
%inext = OpIAdd %uint %i %u1
OpBranch %header
%merge = OpLabel
%is9 = OpIEqual %bool %acc %u9
OpSelectionMerge %after None
OpBranchConditional %is9 %dead %after
%dead = OpLabel
OpUnreachable
%after = OpLabel
%r0 = OpCopyObject %uint %acc
",
        ..Asm::default()
    }
    .run("structured_control_flow", &[10])
}

fn atomic_flags() -> BTreeSet<Op> {
    Asm {
        interface: "%flag",
        decls: "%flag = OpVariable %ptr_wg_uint Workgroup",
        body: "
%t0 = OpAtomicFlagTestAndSet %bool %flag %u2 %u0
OpAtomicFlagClear %flag %u2 %u0
%t1 = OpAtomicFlagTestAndSet %bool %flag %u2 %u0
%t2 = OpAtomicFlagTestAndSet %bool %flag %u2 %u0
%r0 = OpSelect %uint %t0 %u1 %u0
%r1 = OpSelect %uint %t1 %u1 %u0
%r2 = OpSelect %uint %t2 %u1 %u0
",
        ..Asm::default()
    }
    .run("atomic_flags", &[0, 0, 1])
}

fn sub_groups() -> BTreeSet<Op> {
    Asm {
        capabilities: "
OpCapability Groups
OpCapability DeviceEnqueue
OpCapability SubgroupDispatch
OpCapability GroupNonUniform
OpCapability GroupNonUniformVote
OpCapability GroupNonUniformBallot
OpCapability GroupNonUniformArithmetic
OpCapability GroupNonUniformShuffle
OpCapability GroupNonUniformShuffleRelative
OpCapability GroupNonUniformClustered",
        decls: "
%ptr_gen_uchar = OpTypePointer Generic %uchar
%invfn = OpTypeFunction %void %ptr_gen_uchar
%param = OpConstantNull %ptr_gen_uchar
",
        body: "
%e = OpGroupNonUniformElect %bool %u3
%r0 = OpSelect %uint %e %u1 %u0
%all = OpGroupNonUniformAll %bool %u3 %true
%r1 = OpSelect %uint %all %u1 %u0
%any = OpGroupNonUniformAny %bool %u3 %false
%r2 = OpSelect %uint %any %u1 %u0
%alleq = OpGroupNonUniformAllEqual %bool %u3 %u5
%r3 = OpSelect %uint %alleq %u1 %u0
%r4 = OpGroupNonUniformBroadcast %uint %u3 %u7 %u0
%r5 = OpGroupNonUniformBroadcastFirst %uint %u3 %u8
%bal = OpGroupNonUniformBallot %v4uint %u3 %true
%r6 = OpCompositeExtract %uint %bal 0
%inv = OpGroupNonUniformInverseBallot %bool %u3 %bal
%r7 = OpSelect %uint %inv %u1 %u0
%bit = OpGroupNonUniformBallotBitExtract %bool %u3 %bal %u0
%r8 = OpSelect %uint %bit %u1 %u0
%r9 = OpGroupNonUniformBallotBitCount %uint %u3 Reduce %bal
%r10 = OpGroupNonUniformBallotBitCount %uint %u3 ExclusiveScan %bal
%r11 = OpGroupNonUniformBallotFindLSB %uint %u3 %bal
%r12 = OpGroupNonUniformBallotFindMSB %uint %u3 %bal
%r13 = OpGroupNonUniformShuffle %uint %u3 %u9 %u0
%r14 = OpGroupNonUniformShuffleXor %uint %u3 %u9 %u0
%r15 = OpGroupNonUniformShuffleUp %uint %u3 %u6 %u0
%r16 = OpGroupNonUniformShuffleDown %uint %u3 %u6 %u0
%r17 = OpGroupNonUniformIAdd %uint %u3 Reduce %u5
%r18 = OpGroupNonUniformIAdd %uint %u3 ExclusiveScan %u5
%fadd = OpGroupNonUniformFAdd %float %u3 InclusiveScan %f2
%r19 = OpBitcast %uint %fadd
%r20 = OpGroupNonUniformIMul %uint %u3 ExclusiveScan %u5
%fmul = OpGroupNonUniformFMul %float %u3 ExclusiveScan %f2
%r21 = OpBitcast %uint %fmul
%r22 = OpGroupNonUniformSMin %uint %u3 ExclusiveScan %u5
%r23 = OpGroupNonUniformUMin %uint %u3 Reduce %u5
%fmin = OpGroupNonUniformFMin %float %u3 ExclusiveScan %f2
%r24 = OpBitcast %uint %fmin
%r25 = OpGroupNonUniformSMax %uint %u3 ExclusiveScan %u5
%r26 = OpGroupNonUniformUMax %uint %u3 ClusteredReduce %u5 %u1
%fmax = OpGroupNonUniformFMax %float %u3 ExclusiveScan %f2
%r27 = OpBitcast %uint %fmax
%r28 = OpGroupNonUniformBitwiseAnd %uint %u3 ExclusiveScan %u5
%r29 = OpGroupNonUniformBitwiseOr %uint %u3 Reduce %u5
%r30 = OpGroupNonUniformBitwiseXor %uint %u3 ExclusiveScan %u5
%land = OpGroupNonUniformLogicalAnd %bool %u3 ExclusiveScan %false
%r31 = OpSelect %uint %land %u1 %u0
%lor = OpGroupNonUniformLogicalOr %bool %u3 Reduce %true
%r32 = OpSelect %uint %lor %u1 %u0
%lxor = OpGroupNonUniformLogicalXor %bool %u3 ExclusiveScan %true
%r33 = OpSelect %uint %lxor %u1 %u0
%r34 = OpGetKernelLocalSizeForSubgroupCount %uint %u4 %invoke %param %u1 %u1
%r35 = OpGetKernelMaxNumSubgroups %uint %invoke %param %u1 %u1
%r36 = OpGroupSMin %uint %u3 Reduce %u5
",
        functions: "
%invoke = OpFunction %void None %invfn
%ip = OpFunctionParameter %ptr_gen_uchar
%il = OpLabel
OpReturn
OpFunctionEnd
",
        ..Asm::default()
    }
    .run(
        "sub_groups",
        // Sub-groups of one work-item (kir::lower's documented size): every collective sees only
        // the work-item's own operand; exclusive scans give the identity (SPIR-V 3.42.24).
        &[
            1,
            1,
            0,
            1,
            7,
            8,
            1,
            1,
            1,
            1,
            0,
            0,
            0,
            9,
            9,
            6,
            6,
            5,
            0,
            FLOAT_BITS_2,
            1,
            FLOAT_BITS_1,
            i32::MAX as u32,
            5,
            f32::INFINITY.to_bits(),
            i32::MIN as u32,
            5,
            f32::NEG_INFINITY.to_bits(),
            u32::MAX,
            5,
            0,
            1,
            1,
            0,
            4,
            1024,
            5,
        ],
    )
}

/// Runs every assembly case; returns the opcodes of the modules that ran correctly.
pub fn run_all() -> BTreeSet<Op> {
    let mut ops = BTreeSet::new();
    ops.extend(integer_and_logical());
    ops.extend(memory());
    ops.extend(constants_debug_and_decorations());
    ops.extend(structured_control_flow());
    ops.extend(atomic_flags());
    ops.extend(sub_groups());
    ops
}
