//! Memory layout and kernel argument descriptions produced by `kir::lower`, checked against
//! hand-computed OpenCL C layouts (OpenCL C 6.1.5 alignment of types, env "Alignment of Types").

mod lower_common;

use kir::{AddrSpace, ArgKind, InstData, Type};
use lower_common::{kernel_func, lower_asm, lower_source};

/// Byte offsets added by `ptradd` with a constant offset, in order of appearance.
fn constant_ptradd_offsets(func: &kir::Function) -> Vec<i64> {
    let mut consts = std::collections::HashMap::new();
    let mut out = Vec::new();
    for block in &func.layout.blocks {
        for inst in func.layout.insts(*block) {
            match func.dfg.inst(*inst) {
                InstData::Const { bytes } => {
                    if let Some(v) = func.dfg.inst_result(*inst) {
                        let mut b = [0u8; 8];
                        for (i, x) in bytes.iter().take(8).enumerate() {
                            b[i] = *x;
                        }
                        consts.insert(v, i64::from_le_bytes(b));
                    }
                }
                InstData::PtrAdd { offset, .. } => {
                    if let Some(c) = consts.get(offset) {
                        out.push(*c);
                    }
                }
                _ => {}
            }
        }
    }
    out
}

#[test]
fn struct_by_value_has_c_layout_with_float4_alignment() {
    // struct { char c; float4 v; int i; }: c at 0, v at 16 (aligned to 16), i at 32, size 48.
    let src = r#"
        typedef struct { char c; float4 v; int i; } S;
        __kernel void k(__global float *out, S s) {
            out[0] = s.v.y;
            out[1] = (float)s.i;
            out[2] = (float)s.c;
        }"#;
    let Some(m) = lower_source(src) else { return };
    let (_, k) = m.kernel("k").unwrap();
    assert_eq!(k.args.len(), 2);
    assert_eq!(k.args[0].kind, ArgKind::Buffer(AddrSpace::Global));
    assert_eq!(
        k.args[1].kind,
        ArgKind::Value {
            ty: Type::Agg {
                size: 48,
                align: 16
            },
            size: 48,
            align: 16
        }
    );
    assert_eq!(k.args[1].type_name, "S");
    // The body reads the members at 16 and 32 (c at 0 needs no offset).
    let body = m
        .functions
        .iter()
        .find(|f| f.name == "k.impl")
        .expect("body function");
    let offsets = constant_ptradd_offsets(body);
    assert!(offsets.contains(&16), "{offsets:?}\n{body}");
    assert!(offsets.contains(&32), "{offsets:?}\n{body}");
}

#[test]
fn struct_without_offset_decorations_gets_natural_layout() {
    // Hand-written: OpTypeStruct { uchar, float4, uint } without padding members: the lowering
    // pads by itself (0, 16, 32; size 48, alignment 16).
    let asm = r#"
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int8
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpName %S "struct.S"
               OpDecorate %st FuncParamAttr ByVal
       %void = OpTypeVoid
      %uchar = OpTypeInt 8 0
       %uint = OpTypeInt 32 0
      %float = OpTypeFloat 32
    %v4float = OpTypeVector %float 4
          %S = OpTypeStruct %uchar %v4float %uint
      %ptr_S = OpTypePointer Function %S
     %ptr_fu = OpTypePointer Function %uint
     %ptr_fv = OpTypePointer Function %v4float
     %ptr_gu = OpTypePointer CrossWorkgroup %uint
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
         %fn = OpTypeFunction %void %ptr_gu %ptr_S
          %k = OpFunction %void None %fn
        %out = OpFunctionParameter %ptr_gu
         %st = OpFunctionParameter %ptr_S
          %l = OpLabel
         %pi = OpInBoundsPtrAccessChain %ptr_fu %st %uint_0 %uint_2
          %i = OpLoad %uint %pi Aligned 4
         %pv = OpInBoundsPtrAccessChain %ptr_fv %st %uint_0 %uint_1
          %v = OpLoad %v4float %pv Aligned 16
               OpStore %out %i Aligned 4
               OpReturn
               OpFunctionEnd
"#;
    let Some(m) = lower_asm(asm) else { return };
    let m = m.expect("lowers");
    let (_, k) = m.kernel("k").unwrap();
    assert_eq!(
        k.args[1].kind,
        ArgKind::Value {
            ty: Type::Agg {
                size: 48,
                align: 16
            },
            size: 48,
            align: 16
        }
    );
    assert_eq!(k.args[1].type_name, "S");
    let f = kernel_func(&m, "k");
    assert_eq!(constant_ptradd_offsets(f), vec![32, 16], "{f}");
}

#[test]
fn packed_struct_has_no_padding() {
    // __attribute__((packed)): c at 0, i at 1, s at 5, size 7, alignment 1.
    let src = r#"
        typedef struct __attribute__((packed)) { char c; int i; short s; } P;
        __kernel void k(__global int *out, P p) {
            out[0] = p.i;
            out[1] = p.s;
        }"#;
    let Some(m) = lower_source(src) else { return };
    let (_, k) = m.kernel("k").unwrap();
    assert_eq!(
        k.args[1].kind,
        ArgKind::Value {
            ty: Type::Agg { size: 7, align: 1 },
            size: 7,
            align: 1
        }
    );
    let body = m
        .functions
        .iter()
        .find(|f| f.name == "k.impl")
        .expect("body");
    let offsets = constant_ptradd_offsets(body);
    assert!(
        offsets.contains(&1) && offsets.contains(&5),
        "{offsets:?}\n{body}"
    );
}

#[test]
fn three_component_vectors_take_four_components() {
    // struct { float3 a; float b; }: a is 16 bytes aligned to 16, b at 16, size 32.
    let src = r#"
        typedef struct { float3 a; float b; } T;
        __kernel void k(__global float *out, T t, char3 c, int3 i) {
            out[0] = t.b + c.y + i.z;
        }"#;
    let Some(m) = lower_source(src) else { return };
    let (_, k) = m.kernel("k").unwrap();
    assert_eq!(
        k.args[1].kind,
        ArgKind::Value {
            ty: Type::Agg {
                size: 32,
                align: 16
            },
            size: 32,
            align: 16
        }
    );
    assert_eq!(
        k.args[2].kind,
        ArgKind::Value {
            ty: Type::Vec(kir::ScalarType::I8, 3),
            size: 4,
            align: 4
        }
    );
    assert_eq!(
        k.args[3].kind,
        ArgKind::Value {
            ty: Type::Vec(kir::ScalarType::I32, 3),
            size: 16,
            align: 16
        }
    );
    let body = m
        .functions
        .iter()
        .find(|f| f.name == "k.impl")
        .expect("body");
    assert!(constant_ptradd_offsets(body).contains(&16), "{body}");
}

#[test]
fn kernel_argument_kinds_sizes_and_names() {
    let src = r#"
        __kernel void k(__global float *a, __constant int *b, __local short *c, int d,
                        float4 e, long f, double g, sampler_t s, uchar h) {
            a[0] = b[0] + c[0] + d + e.x + f + g + h;
        }"#;
    let Some(m) = lower_source(src) else { return };
    let (_, k) = m.kernel("k").unwrap();
    let kinds: Vec<ArgKind> = k.args.iter().map(|a| a.kind.clone()).collect();
    assert_eq!(
        kinds,
        vec![
            ArgKind::Buffer(AddrSpace::Global),
            ArgKind::Buffer(AddrSpace::Constant),
            ArgKind::LocalPtr,
            ArgKind::Value {
                ty: Type::I32,
                size: 4,
                align: 4
            },
            ArgKind::Value {
                ty: Type::Vec(kir::ScalarType::F32, 4),
                size: 16,
                align: 16
            },
            ArgKind::Value {
                ty: Type::I64,
                size: 8,
                align: 8
            },
            ArgKind::Value {
                ty: Type::F64,
                size: 8,
                align: 8
            },
            ArgKind::Sampler,
            ArgKind::Value {
                ty: Type::I8,
                size: 1,
                align: 1
            },
        ]
    );
    let names: Vec<&str> = k.args.iter().map(|a| a.type_name.as_str()).collect();
    assert_eq!(names[0], "float*");
    assert_eq!(names[4], "float4");
    assert_eq!(names[6], "double");
    assert_eq!(names[7], "sampler_t");
    // The kernel function's parameters match the argument kinds.
    let f = kernel_func(&m, "k");
    assert_eq!(
        f.sig.params,
        vec![
            Type::Ptr(AddrSpace::Global),
            Type::Ptr(AddrSpace::Constant),
            Type::Ptr(AddrSpace::Local),
            Type::I32,
            Type::Vec(kir::ScalarType::F32, 4),
            Type::I64,
            Type::F64,
            Type::I32,
            Type::I8,
        ]
    );
}

#[test]
fn work_group_size_attributes_become_kernel_properties() {
    let src = r#"
        __kernel __attribute__((reqd_work_group_size(8, 4, 1)))
        void a(__global int *o) { o[0] = 1; }
        __kernel __attribute__((work_group_size_hint(16, 1, 1)))
        void b(__global int *o) { o[0] = 2; }"#;
    let Some(m) = lower_source(src) else { return };
    let (_, a) = m.kernel("a").unwrap();
    assert_eq!(a.reqd_work_group_size, Some([8, 4, 1]));
    assert_eq!(a.work_group_size_hint, None);
    let (_, b) = m.kernel("b").unwrap();
    assert_eq!(b.reqd_work_group_size, None);
    assert_eq!(b.work_group_size_hint, Some([16, 1, 1]));
}

#[test]
fn program_scope_variables_become_globals_with_initializers() {
    let src = r#"
        __constant int tab[4] = {1, 2, 3, 4};
        __global float g = 2.5f;
        __kernel void k(__global int *o) {
            __local float lm[16];
            lm[get_local_id(0)] = g;
            o[get_global_id(0)] = tab[get_global_id(0) & 3] + (int)lm[0];
        }"#;
    let Some(m) = lower_source(src) else { return };
    let tab = m.globals.iter().find(|g| g.name == "tab").expect("tab");
    assert_eq!(tab.space, AddrSpace::Constant);
    assert_eq!(tab.size, 16);
    let expect: Vec<u8> = [1i32, 2, 3, 4]
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    assert_eq!(tab.init.as_deref(), Some(expect.as_slice()));
    let g = m.globals.iter().find(|g| g.name == "g").expect("g");
    assert_eq!(g.space, AddrSpace::Global);
    assert_eq!(g.init.as_deref(), Some(2.5f32.to_le_bytes().as_slice()));
    let lm = m
        .globals
        .iter()
        .find(|g| g.name.ends_with("lm"))
        .expect("lm");
    assert_eq!(
        (lm.space, lm.size, lm.init.clone()),
        (AddrSpace::Local, 64, None)
    );
}

#[test]
fn pointers_in_program_scope_initializers_become_relocations() {
    let src = r#"
        __global int x = 5;
        __global int arr[4] = {1, 2, 3, 4};
        __global int *p = &x;
        __global int *q = &arr[2];
        typedef struct { int a; __global int *ptr; } R;
        __global R r = { 7, &arr[1] };
        __kernel void k(__global int *o) { o[0] = *p + *q + *r.ptr + r.a + *(&arr[3]); }"#;
    let Some(m) = lower_source(src) else { return };
    let index = |name: &str| m.globals.iter().position(|g| g.name == name).expect(name);
    let (x, arr) = (index("x"), index("arr"));
    let p = &m.globals[index("p")];
    assert_eq!(p.size, 8);
    assert_eq!(
        p.relocs,
        vec![kir::Reloc {
            offset: 0,
            target: kir::GlobalRef(x as u32),
            addend: 0
        }]
    );
    let q = &m.globals[index("q")];
    assert_eq!(
        q.relocs,
        vec![kir::Reloc {
            offset: 0,
            target: kir::GlobalRef(arr as u32),
            addend: 8
        }]
    );
    // struct { int a; int *ptr; }: ptr at 8, a = 7 at 0, size 16.
    let r = &m.globals[index("r")];
    assert_eq!(r.size, 16);
    assert_eq!(
        r.relocs,
        vec![kir::Reloc {
            offset: 8,
            target: kir::GlobalRef(arr as u32),
            addend: 4
        }]
    );
    let init = r.init.as_ref().expect("r has an initializer");
    assert_eq!(&init[0..4], &7i32.to_le_bytes());
}

#[test]
fn local_size_id_execution_modes_read_constants() {
    // SPIR-V 1.2 OpExecutionModeId LocalSizeId with constant ids (OpenCL 2.2 environment).
    let asm = r#"
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpExecutionModeId %k LocalSizeId %uint_4 %uint_2 %uint_1
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
     %uint_4 = OpConstant %uint 4
     %uint_2 = OpConstant %uint 2
     %uint_1 = OpConstant %uint 1
         %fn = OpTypeFunction %void
          %k = OpFunction %void None %fn
          %l = OpLabel
               OpReturn
               OpFunctionEnd
"#;
    let Some(bytes) = lower_common::assemble_for(asm, "spv1.2") else {
        return;
    };
    let env = spv::valid::Env::from_target_env("opencl2.2").expect("env");
    let valid = lower_common::validate_for(&bytes, &env);
    let m = kir::lower::lower(&valid).expect("lowers");
    let (_, k) = m.kernel("k").unwrap();
    assert_eq!(k.reqd_work_group_size, Some([4, 2, 1]));
}

#[test]
fn kernel_arg_type_strings_give_type_names() {
    // The `kernel_arg_type.<kernel>.<t1>,<t2>,` string (as llvm-spirv and clc write it) wins
    // over names derived from the signless SPIR-V types.
    let asm = r#"
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
         %ts = OpString "kernel_arg_type.k.int*,uint,"
               OpName %a "a"
               OpName %b "b"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
     %ptr_gu = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %ptr_gu %uint
          %k = OpFunction %void None %fn
          %a = OpFunctionParameter %ptr_gu
          %b = OpFunctionParameter %uint
          %l = OpLabel
               OpStore %a %b Aligned 4
               OpReturn
               OpFunctionEnd
"#;
    let Some(m) = lower_asm(asm) else { return };
    let m = m.expect("lowers");
    let (_, k) = m.kernel("k").unwrap();
    let names: Vec<(&str, &str)> = k
        .args
        .iter()
        .map(|a| (a.name.as_str(), a.type_name.as_str()))
        .collect();
    assert_eq!(names, vec![("a", "int*"), ("b", "uint")]);
}
