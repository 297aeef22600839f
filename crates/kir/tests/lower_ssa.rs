//! SSA construction of `kir::lower`: `Function`-storage variables of -O0 code become values with
//! block parameters at joins; variables whose address escapes stay in stack slots; `OpPhi`
//! becomes block parameters.

mod lower_common;

use lower_common::{count_ops, kernel_func, lower_asm, lower_source};

fn body<'m>(m: &'m kir::Module, kernel: &str) -> &'m kir::Function {
    let impl_name = format!("{kernel}.impl");
    m.functions
        .iter()
        .find(|f| f.name == impl_name)
        .unwrap_or_else(|| kernel_func(m, kernel))
}

#[test]
fn simple_kernel_keeps_no_stack_slots() {
    let src = r#"
        __kernel void vadd(__global const float *a, __global const float *b,
                           __global float *c, int n) {
            size_t i = get_global_id(0);
            if (i < n) c[i] = a[i] + b[i];
        }"#;
    let Some(m) = lower_source(src) else { return };
    let f = body(&m, "vadd");
    assert_eq!(count_ops(f, "stackalloc"), 0, "{f}");
    assert_eq!(count_ops(f, "load"), 2, "{f}");
    assert_eq!(count_ops(f, "store"), 1, "{f}");
    // get_global_id(0) is one query, not three.
    assert_eq!(count_ops(f, "workitem"), 1, "{f}");
}

#[test]
fn loop_variables_become_block_parameters() {
    let src = r#"
        __kernel void sum(__global int *out, int n) {
            int acc = 0;
            for (int k = 0; k < n; k++) acc += k * k;
            out[0] = acc;
        }"#;
    let Some(m) = lower_source(src) else { return };
    let f = body(&m, "sum");
    assert_eq!(count_ops(f, "stackalloc"), 0, "{f}");
    assert_eq!(count_ops(f, "load"), 0, "{f}");
    // The loop header takes acc and k.
    let max_params = f
        .layout
        .blocks
        .iter()
        .skip(1)
        .map(|b| f.dfg.block_params(*b).len())
        .max()
        .unwrap_or(0);
    assert!(max_params >= 2, "{f}");
}

#[test]
fn private_structs_and_vectors_accessed_by_constant_paths_are_promoted() {
    let src = r#"
        typedef struct { int a; float4 v; } S;
        __kernel void k(__global float *out) {
            S s;
            s.a = 3;
            s.v = (float4)(1.0f, 2.0f, 3.0f, 4.0f);
            int4 iv = (int4)(1, 2, 3, 4);
            iv.y = 7;
            out[0] = s.a + s.v.z + iv.y;
        }"#;
    let Some(m) = lower_source(src) else { return };
    let f = body(&m, "k");
    assert_eq!(count_ops(f, "stackalloc"), 0, "{f}");
}

#[test]
fn arrays_indexed_dynamically_stay_in_memory() {
    let src = r#"
        __kernel void k(__global int *out, int n) {
            int tmp[8];
            for (int i = 0; i < 8; i++) tmp[i] = i * n;
            out[0] = tmp[n & 7];
        }"#;
    let Some(m) = lower_source(src) else { return };
    let f = body(&m, "k");
    assert_eq!(count_ops(f, "stackalloc"), 1, "{f}");
    let slot = f
        .layout
        .blocks
        .iter()
        .flat_map(|b| f.layout.insts(*b))
        .find_map(|i| match f.dfg.inst(*i) {
            kir::InstData::StackAlloc { size, align } => Some((*size, *align)),
            _ => None,
        });
    assert_eq!(slot, Some((32, 4)));
}

#[test]
fn phi_instructions_become_block_parameters() {
    // max(a, b) written with OpPhi.
    let asm = r#"
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
     %ptr_gu = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %ptr_gu %uint %uint
          %k = OpFunction %void None %fn
        %out = OpFunctionParameter %ptr_gu
          %a = OpFunctionParameter %uint
          %b = OpFunctionParameter %uint
      %entry = OpLabel
          %c = OpSGreaterThan %bool %a %b
               OpSelectionMerge %join None
               OpBranchConditional %c %then %join
       %then = OpLabel
               OpBranch %join
       %join = OpLabel
          %m = OpPhi %uint %a %then %b %entry
               OpStore %out %m Aligned 4
               OpReturn
               OpFunctionEnd
"#;
    let Some(m) = lower_asm(asm) else { return };
    let m = m.expect("lowers");
    let f = kernel_func(&m, "k");
    let text = f.to_string();
    // The join block has one i32 parameter; the two edges pass a and b.
    let params: Vec<usize> = f
        .layout
        .blocks
        .iter()
        .map(|b| f.dfg.block_params(*b).len())
        .collect();
    assert!(params.iter().skip(1).any(|&n| n == 1), "{text}");
    assert_eq!(count_ops(f, "store"), 1, "{text}");
    let params = f.params().to_vec();
    let (a, b) = (params[1], params[2]);
    let mut passed = Vec::new();
    for blk in &f.layout.blocks {
        for inst in f.layout.insts(*blk) {
            for call in f.dfg.inst(*inst).branch_targets() {
                passed.extend(call.args.iter().copied());
            }
        }
    }
    assert!(passed.contains(&a) && passed.contains(&b), "{text}");
}

#[test]
fn variables_whose_address_escapes_stay_in_memory() {
    let src = r#"
        void set(int *p) { *p = 5; }
        __kernel void k(__global int *out) {
            int x = 1;
            set(&x);
            out[0] = x;
        }"#;
    let Some(m) = lower_source(src) else { return };
    let f = body(&m, "k");
    assert_eq!(count_ops(f, "stackalloc"), 1, "{f}");
    assert_eq!(count_ops(f, "call"), 1, "{f}");
}

#[test]
fn unusual_control_flow_lowers_and_verifies() {
    // An unreachable block branching into a join (its OpPhi operand is dropped), a self-loop
    // with an OpPhi fed by itself, a switch with only a default, OpUndef as a phi operand, a
    // call to a function defined later that returns a struct, and OpUnreachable.
    let asm = r#"
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
       %pair = OpTypeStruct %uint %uint
     %ptr_gu = OpTypePointer CrossWorkgroup %uint
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
    %uint_10 = OpConstant %uint 10
      %undef = OpUndef %uint
         %fn = OpTypeFunction %void %ptr_gu %uint
      %fpair = OpTypeFunction %pair %uint
          %k = OpFunction %void None %fn
        %out = OpFunctionParameter %ptr_gu
          %n = OpFunctionParameter %uint
      %entry = OpLabel
               OpBranch %loop
       %dead = OpLabel
               OpBranch %join
       %loop = OpLabel
          %i = OpPhi %uint %uint_0 %entry %next %loop
       %next = OpIAdd %uint %i %uint_1
       %more = OpULessThan %bool %next %n
               OpBranchConditional %more %loop %sw
         %sw = OpLabel
               OpSwitch %next %join
       %join = OpLabel
          %v = OpPhi %uint %next %sw %undef %dead
          %p = OpFunctionCall %pair %mk %v
          %a = OpCompositeExtract %uint %p 0
          %b = OpCompositeExtract %uint %p 1
          %s = OpIAdd %uint %a %b
          %c = OpULessThan %bool %s %uint_10
               OpBranchConditional %c %store %never
      %store = OpLabel
               OpStore %out %s Aligned 4
               OpReturn
      %never = OpLabel
               OpUnreachable
               OpFunctionEnd
         %mk = OpFunction %pair None %fpair
          %x = OpFunctionParameter %uint
         %mb = OpLabel
         %pp = OpCompositeConstruct %pair %x %x
               OpReturnValue %pp
               OpFunctionEnd
"#;
    let Some(m) = lower_asm(asm) else { return };
    let m = m.expect("lowers");
    kir::verify_module(&m).expect("verifies");
    let f = kernel_func(&m, "k");
    assert_eq!(count_ops(f, "unreachable"), 1, "{f}");
    assert_eq!(count_ops(f, "call"), 1, "{f}");
    let callee = m
        .functions
        .iter()
        .find(|g| g.sig.ret.is_some())
        .expect("callee");
    assert_eq!(callee.sig.ret, Some(kir::Type::Agg { size: 8, align: 4 }));
}
