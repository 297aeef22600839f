//! Instruction coverage of `kir::lower` on kernels compiled by clang-15 + llvm-spirv-15: each
//! kernel must lower (no "not supported" error), and selected instructions must appear with the
//! operands the OpenCL C source implies.

mod lower_common;

use kir::{BuiltinFn, InstData};
use lower_common::{count_ops, lower_asm, lower_source};

/// All instructions of all functions of a module.
fn all_insts(m: &kir::Module) -> Vec<InstData> {
    let mut out = Vec::new();
    for f in &m.functions {
        for b in &f.layout.blocks {
            for i in f.layout.insts(*b) {
                out.push(f.dfg.inst(*i).clone());
            }
        }
    }
    out
}

fn builtins_used(m: &kir::Module) -> Vec<BuiltinFn> {
    all_insts(m)
        .into_iter()
        .filter_map(|d| match d {
            InstData::Builtin { func, .. } => Some(func),
            _ => None,
        })
        .collect()
}

#[test]
fn integer_and_bit_operations_lower() {
    let src = r#"
        __kernel void k(__global int *o, __global uint *u, int a, int b, uint c, long l) {
            o[0] = a + b; o[1] = a - b; o[2] = a * b; o[3] = a / b; o[4] = a % b;
            u[0] = c / 3u; u[1] = c % 7u; o[5] = a << 3; o[6] = a >> 2; u[2] = c >> 1;
            o[7] = a & b; o[8] = a | b; o[9] = a ^ b; o[10] = ~a; o[11] = -a; o[12] = !a;
            o[13] = a < b; o[14] = a <= b; o[15] = c > 3u; o[16] = a == b; o[17] = a != b;
            o[18] = (a && b) || c;
            o[19] = clz(a) + popcount(c) + ctz(a);
            o[20] = rotate(a, b) + abs(a) + abs_diff(a, b) + add_sat(a, b) + sub_sat(a, b);
            o[21] = hadd(a, b) + rhadd(a, b) + mad24(a, b, a) + mul24(a, b) + mul_hi(a, b);
            o[22] = max(a, b) + min(a, b) + clamp(a, 0, 10) + mad_sat(a, b, a) + mad_hi(a, b, a);
            o[23] = (int)upsample((short)a, (ushort)b) + (int)(l >> 3) + (int)(l * l);
            o[24] = select(a, b, a > b) + bitselect(a, b, (int)c);
        }"#;
    let Some(m) = lower_source(src) else { return };
    let insts = all_insts(&m);
    let has = |f: &dyn Fn(&InstData) -> bool| insts.iter().any(f);
    assert!(has(&|d| matches!(
        d,
        InstData::Binary {
            op: kir::BinaryOp::SDiv,
            ..
        }
    )));
    assert!(has(&|d| matches!(
        d,
        InstData::Binary {
            op: kir::BinaryOp::SRem,
            ..
        }
    )));
    assert!(has(&|d| matches!(
        d,
        InstData::Binary {
            op: kir::BinaryOp::UDiv,
            ..
        }
    )));
    assert!(has(&|d| matches!(
        d,
        InstData::Binary {
            op: kir::BinaryOp::AShr,
            ..
        }
    )));
    assert!(has(&|d| matches!(
        d,
        InstData::Binary {
            op: kir::BinaryOp::LShr,
            ..
        }
    )));
    let b = builtins_used(&m);
    for f in [
        BuiltinFn::Clz,
        BuiltinFn::Rotate,
        BuiltinFn::SAbs,
        BuiltinFn::SMulHi,
    ] {
        assert!(b.contains(&f), "{f:?} missing in {b:?}");
    }
    // popcount is the core OpBitCount.
    assert!(has(&|d| matches!(
        d,
        InstData::Unary {
            op: kir::UnaryOp::BitCount,
            ..
        }
    )));
}

#[test]
fn float_math_and_relational_functions_lower() {
    let src = r#"
        __kernel void k(__global float *o, __global int *r, float x, float y, float4 v, double d) {
            o[0] = sqrt(x) + sin(x) + cos(y) + exp(x) + log(y) + pow(x, y) + fma(x, y, x);
            o[1] = fmin(x, y) + fmax(x, y) + fabs(x) + floor(x) + ceil(x) + rint(x) + trunc(x);
            o[2] = native_sin(x) + half_cos(x) + native_divide(x, y) + rsqrt(x) + hypot(x, y);
            o[3] = dot(v, v) + length(v) + distance(v, v) + normalize(v).x + cross(v, v).y;
            o[4] = mix(x, y, 0.5f) + step(x, y) + smoothstep(0.0f, 1.0f, x) + sign(x) + degrees(x);
            r[0] = isnan(x) + isinf(y) + isfinite(x) + isnormal(y) + signbit(x);
            r[1] = isequal(x, y) + isless(x, y) + islessgreater(x, y) + isordered(x, y) + isunordered(x, y);
            r[2] = any(isgreater(v, v)) + all(isless(v, v));
            o[5] = (float)(sqrt(d) * d) + copysign(x, y) + fmod(x, y) + remainder(x, y);
            o[6] = x / y + x * y - y;
            int e; o[7] = frexp(x, &e) + e; float ip; o[8] = modf(x, &ip) + ip;
        }"#;
    let Some(m) = lower_source(src) else { return };
    let b = builtins_used(&m);
    for f in [
        BuiltinFn::Sqrt,
        BuiltinFn::Sin,
        BuiltinFn::Pow,
        BuiltinFn::Fma,
        BuiltinFn::Frexp,
        BuiltinFn::Modf,
        BuiltinFn::Cross,
    ] {
        assert!(b.contains(&f), "{f:?} missing in {b:?}");
    }
    let insts = all_insts(&m);
    assert!(insts.iter().any(|d| matches!(
        d,
        InstData::Test {
            op: kir::TestOp::IsNan,
            ..
        }
    )));
    assert!(insts.iter().any(|d| matches!(
        d,
        InstData::Reduce {
            op: kir::ReduceOp::All,
            ..
        }
    )));
}

#[test]
fn conversions_carry_rounding_and_saturation() {
    let src = r#"
        __kernel void k(__global int *o, __global uchar *c, __global float *f, float x, int i, uint u, long l) {
            o[0] = convert_int_sat_rte(x);
            o[1] = convert_int_rtp(x);
            c[0] = convert_uchar_sat(i);
            c[1] = convert_uchar_sat(x);
            f[0] = convert_float_rtz(l);
            o[2] = convert_int_sat(u);
            o[3] = as_int(x);
            f[1] = (float)u + (float)i;
            c[2] = (uchar)l;
        }"#;
    let Some(m) = lower_source(src) else { return };
    let insts = all_insts(&m);
    let has_convert = |op: kir::ConvertOp, rounding: Option<kir::Rounding>, saturate: bool| {
        insts.iter().any(|d| {
            matches!(d, InstData::Convert { op: o, rounding: r, saturate: s, .. }
                if *o == op && *r == rounding && *s == saturate)
        })
    };
    assert!(has_convert(
        kir::ConvertOp::FToS,
        Some(kir::Rounding::Rte),
        true
    ));
    assert!(has_convert(
        kir::ConvertOp::FToS,
        Some(kir::Rounding::Rtp),
        false
    ));
    assert!(has_convert(kir::ConvertOp::FToU, None, true));
    assert!(has_convert(
        kir::ConvertOp::SToF,
        Some(kir::Rounding::Rtz),
        false
    ));
    assert!(has_convert(kir::ConvertOp::Bitcast, None, false));
}

#[test]
fn vector_operations_lower() {
    let src = r#"
        __kernel void k(__global float4 *o, __global int8 *p, float4 a, float2 b, int8 c, uint4 m) {
            float4 s = a.wzyx + (float4)(b, b.yx);
            o[0] = s * 2.0f;
            o[1] = shuffle(a, m);
            o[2] = shuffle2(a, a, m);
            p[0] = c.s01234567 + (int8)(1) + (c > 3);
            o[3] = (float4)(a.x, b, 1.0f);
            o[4] = select(a, s, (int4)(-1, 0, -1, 0));
            float f[4]; vstore4(a, 0, f); o[5] = vload4(0, f);
            o[6].y = a.z;
        }"#;
    let Some(m) = lower_source(src) else { return };
    let insts = all_insts(&m);
    assert!(insts.iter().any(|d| matches!(d, InstData::Shuffle { .. })));
    // shuffle/shuffle2 with mask vectors become per-lane dynamic extracts.
    let b = builtins_used(&m);
    assert!(
        !b.contains(&BuiltinFn::Shuffle) && !b.contains(&BuiltinFn::Shuffle2),
        "{b:?}"
    );
    assert!(insts
        .iter()
        .any(|d| matches!(d, InstData::ExtractLaneDyn { .. })));
}

#[test]
fn vector_loads_and_stores_become_memory_accesses() {
    let src = r#"
        __kernel void k(__global float *a, __global half *h, __global float *o) {
            float4 v = vload4(1, a);
            vstore4(v, 2, o);
            float3 t = vload3(0, a);
            vstore3(t, 1, o);
            float x = vload_half(3, h);
            vstore_half_rtz(x, 5, h);
            float4 y = vload_half4(1, h);
            vstorea_half4_rtp(y, 2, h);
            o[0] = x;
        }"#;
    let Some(m) = lower_source(src) else { return };
    let b = builtins_used(&m);
    assert!(
        b.is_empty(),
        "vector loads/stores should not be builtin calls: {b:?}"
    );
    let insts = all_insts(&m);
    let f16x4 = kir::Type::Vec(kir::ScalarType::F16, 4);
    let f = m
        .functions
        .iter()
        .find(|f| f.name == "k.impl")
        .expect("body");
    let loads_of = |ty: kir::Type| {
        f.layout
            .blocks
            .iter()
            .flat_map(|b| f.layout.insts(*b))
            .filter(|i| matches!(f.dfg.inst(**i), InstData::Load { .. }))
            .filter(|i| f.dfg.inst_result(**i).map(|v| f.dfg.value_type(v)) == Some(ty))
            .count()
    };
    // vload4 (clang also reloads the float3 temporary as a float4 from its stack slot).
    assert!(
        loads_of(kir::Type::Vec(kir::ScalarType::F32, 4)) >= 1,
        "{f}"
    );
    assert_eq!(loads_of(kir::Type::Vec(kir::ScalarType::F32, 3)), 1, "{f}");
    assert_eq!(loads_of(kir::Type::F16), 1, "{f}");
    assert_eq!(loads_of(f16x4), 1, "{f}");
    assert!(insts.iter().any(|d| matches!(
        d,
        InstData::Convert {
            op: kir::ConvertOp::FConvert,
            rounding: Some(kir::Rounding::Rtz),
            ..
        }
    )));
    assert!(insts.iter().any(|d| matches!(
        d,
        InstData::Convert {
            op: kir::ConvertOp::FConvert,
            rounding: Some(kir::Rounding::Rtp),
            ..
        }
    )));
}

#[test]
fn atomics_and_barriers_read_their_constant_operands() {
    let src = r#"
        __kernel void k(__global int *g, __local int *l, __global uint *u) {
            atomic_add(g, 1);
            atomic_sub(g, 2);
            atomic_xchg(g, 3);
            atomic_cmpxchg(g, 4, 5);
            atomic_inc(l);
            atomic_dec(l);
            atomic_min(g, 6); atomic_max(g, 7); atomic_min(u, 6u); atomic_max(u, 7u);
            atomic_and(g, 8); atomic_or(g, 9); atomic_xor(g, 10);
            barrier(CLK_LOCAL_MEM_FENCE);
            barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
            mem_fence(CLK_GLOBAL_MEM_FENCE);
            atomic_int *ai = (atomic_int *)g;
            atomic_store_explicit(ai, 1, memory_order_relaxed, memory_scope_device);
            g[1] = atomic_load(ai) + atomic_fetch_add_explicit(ai, 2, memory_order_relaxed);
        }"#;
    let Some(m) = lower_source(src) else { return };
    let insts = all_insts(&m);
    let ops: Vec<kir::AtomicOp> = insts
        .iter()
        .filter_map(|d| match d {
            InstData::Atomic { op, .. } => Some(*op),
            _ => None,
        })
        .collect();
    for op in [
        kir::AtomicOp::IAdd,
        kir::AtomicOp::ISub,
        kir::AtomicOp::Exchange,
        kir::AtomicOp::CmpXchg,
        kir::AtomicOp::IIncrement,
        kir::AtomicOp::IDecrement,
        kir::AtomicOp::SMin,
        kir::AtomicOp::UMax,
        kir::AtomicOp::Xor,
        kir::AtomicOp::Store,
        kir::AtomicOp::Load,
    ] {
        assert!(ops.contains(&op), "{op:?} missing in {ops:?}");
    }
    // barrier(CLK_LOCAL_MEM_FENCE): workgroup scopes, WorkgroupMemory | SequentiallyConsistent.
    assert!(insts.iter().any(|d| matches!(
        d,
        InstData::Barrier {
            exec_scope: kir::Scope::Workgroup,
            mem_scope: kir::Scope::Workgroup,
            semantics: 0x110
        }
    )));
    assert!(insts.iter().any(|d| matches!(d, InstData::Fence { .. })));
}

#[test]
fn control_flow_and_work_item_functions_lower() {
    let src = r#"
        int helper(int x) { return x > 3 ? x * 2 : x - 1; }
        __kernel void k(__global int *o, int n) {
            int acc = 0;
            switch (n) { case 0: acc = 1; break; case 5: acc = helper(n); break; default: acc = -1; }
            int i = 0;
            do { acc += i; i++; if (acc > 100) break; } while (i < n);
            while (n-- > 0) { if (n == 3) continue; acc ^= n; }
            o[get_global_id(0)] = acc + get_local_size(1) + get_num_groups(0) + get_group_id(2)
                + get_global_size(0) + get_global_offset(0) + get_work_dim()
                + get_local_linear_id() + get_global_linear_id() + get_enqueued_local_size(0);
        }"#;
    let Some(m) = lower_source(src) else { return };
    let insts = all_insts(&m);
    let queries: Vec<kir::WorkItemQuery> = insts
        .iter()
        .filter_map(|d| match d {
            InstData::WorkItem { query, .. } => Some(*query),
            _ => None,
        })
        .collect();
    for q in [
        kir::WorkItemQuery::GlobalId,
        kir::WorkItemQuery::LocalSize,
        kir::WorkItemQuery::NumGroups,
        kir::WorkItemQuery::GroupId,
        kir::WorkItemQuery::GlobalSize,
        kir::WorkItemQuery::GlobalOffset,
        kir::WorkItemQuery::WorkDim,
        kir::WorkItemQuery::LocalLinearId,
        kir::WorkItemQuery::GlobalLinearId,
        kir::WorkItemQuery::EnqueuedLocalSize,
    ] {
        assert!(queries.contains(&q), "{q:?} missing in {queries:?}");
    }
    assert!(insts.iter().any(|d| matches!(d, InstData::Switch { .. })));
    assert!(insts.iter().any(|d| matches!(d, InstData::Call { .. })));
}

#[test]
fn dynamic_work_item_dimensions_use_dynamic_queries() {
    let src = r#"
        __kernel void k(__global ulong *o, uint d) {
            o[0] = get_global_id(d) + get_local_size(d);
        }"#;
    let Some(m) = lower_source(src) else { return };
    let insts = all_insts(&m);
    let ok = insts
        .iter()
        .any(|d| matches!(d, InstData::WorkItemDyn { .. }))
        || insts
            .iter()
            .any(|d| matches!(d, InstData::ExtractLaneDyn { .. }));
    assert!(ok, "no dynamic query");
}

#[test]
fn generic_pointers_and_private_memory_lower() {
    let src = r#"
        typedef struct { int a[4]; float f; } T;
        void fill(T *t, int v) { for (int i = 0; i < 4; i++) t->a[i] = v + i; t->f = v; }
        int total(__generic int *p, int n) { int s = 0; for (int i = 0; i < n; i++) s += p[i]; return s; }
        __kernel void k(__global int *o, __local int *l, T in) {
            T t; fill(&t, o[0]);
            T copy = t;
            l[0] = 1;
            o[1] = total(copy.a, 4) + total(o, 2) + total(l, 1) + (int)in.f;
            __global int *g = to_global((__generic int *)o);
            o[2] = g ? 1 : 0;
        }"#;
    let Some(m) = lower_source(src) else { return };
    let insts = all_insts(&m);
    assert!(
        insts.iter().any(|d| matches!(d, InstData::Memcpy { .. })),
        "struct copy is a memcpy"
    );
    assert!(insts.iter().any(|d| matches!(
        d,
        InstData::Convert {
            op: kir::ConvertOp::PtrCastChecked,
            ..
        }
    )));
}

#[test]
fn printf_is_a_builtin_call_with_the_format_in_constant_memory() {
    let src = r#"
        __kernel void k(__global int *o) { printf("%d %f\n", o[0], 1.5f); }"#;
    let Some(m) = lower_source(src) else { return };
    let f = m
        .functions
        .iter()
        .find(|f| f.name == "k.impl")
        .expect("body");
    let call = f
        .layout
        .blocks
        .iter()
        .flat_map(|b| f.layout.insts(*b))
        .find_map(|i| match f.dfg.inst(*i) {
            InstData::Builtin {
                func: BuiltinFn::Printf,
                args,
            } => Some(args.clone()),
            _ => None,
        })
        .expect("a printf builtin");
    assert_eq!(call.len(), 3, "{f}");
    assert!(
        matches!(
            f.dfg.value_type(call[0]),
            kir::Type::Ptr(kir::AddrSpace::Constant)
        ),
        "{f}"
    );
    // Varargs floats are promoted to double (C99 6.5.2.2).
    assert_eq!(f.dfg.value_type(call[2]), kir::Type::F64, "{f}");
    let format = m
        .globals
        .iter()
        .find(|g| g.space == kir::AddrSpace::Constant)
        .and_then(|g| g.init.clone())
        .expect("format string global");
    assert_eq!(format, b"%d %f\n\0".to_vec());
}

#[test]
fn specialization_constants_take_defaults_or_given_values() {
    let asm = r#"
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpDecorate %sc SpecId 7
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
     %ptr_gu = OpTypePointer CrossWorkgroup %uint
         %sc = OpSpecConstant %uint 42
         %fn = OpTypeFunction %void %ptr_gu
          %k = OpFunction %void None %fn
        %out = OpFunctionParameter %ptr_gu
          %l = OpLabel
               OpStore %out %sc Aligned 4
               OpReturn
               OpFunctionEnd
"#;
    let stored_constant = |m: &kir::Module| -> Vec<u8> {
        let f = lower_common::kernel_func(m, "k");
        let mut consts = std::collections::HashMap::new();
        for b in &f.layout.blocks {
            for i in f.layout.insts(*b) {
                match f.dfg.inst(*i) {
                    InstData::Const { bytes } => {
                        consts.insert(f.dfg.inst_result(*i).unwrap(), bytes.clone());
                    }
                    InstData::Store { value, .. } => return consts[value].clone(),
                    _ => {}
                }
            }
        }
        panic!("no store in {f}");
    };
    let Some(m) = lower_asm(asm) else { return };
    assert_eq!(stored_constant(&m.expect("lowers")), 42u32.to_le_bytes());
    let bytes = lower_common::assemble(asm).unwrap();
    let valid = lower_common::validate(&bytes);
    let mut options = kir::lower::LowerOptions::default();
    options.spec_constants.insert(7, 100);
    let m = kir::lower::lower_with(&valid, &options).expect("lowers");
    assert_eq!(stored_constant(&m), 100u32.to_le_bytes());
}

#[test]
fn kernels_calling_kernels_pass_structs_by_value() {
    let src = r#"
        typedef struct { int a; int b; } P;
        __kernel void inner(__global int *o, P p) { o[0] = p.a + p.b; }
        __kernel void outer(__global int *o, P p) { p.a += 1; inner(o, p); }"#;
    let Some(m) = lower_source(src) else { return };
    assert_eq!(m.kernels.len(), 2);
    let outer = m
        .functions
        .iter()
        .find(|f| f.name == "outer.impl")
        .expect("outer body");
    assert!(count_ops(outer, "call") >= 1, "{outer}");
}

#[test]
fn async_work_group_copies_become_copy_loops_and_barriers() {
    let src = r#"
        __kernel void k(__global const float *in, __global float *out, __local float *tmp) {
            event_t e = async_work_group_copy(tmp, in + get_group_id(0) * 16, 16, 0);
            wait_group_events(1, &e);
            out[get_global_id(0)] = tmp[get_local_id(0)] * 2.0f;
            event_t e2 = async_work_group_strided_copy(out, tmp, 16, 2, 0);
            wait_group_events(1, &e2);
        }"#;
    let Some(m) = lower_source(src) else { return };
    let insts = all_insts(&m);
    let waits = insts
        .iter()
        .filter(|d| {
            matches!(
                d,
                InstData::Barrier {
                    semantics: 0x310,
                    ..
                }
            )
        })
        .count();
    assert_eq!(waits, 2);
    let copiers = insts
        .iter()
        .filter(|d| {
            matches!(
                d,
                InstData::WorkItem {
                    query: kir::WorkItemQuery::LocalLinearId,
                    ..
                }
            )
        })
        .count();
    assert_eq!(copiers, 2);
}

#[test]
fn images_lower_to_image_instructions_and_image_arguments() {
    let src = r#"
        __constant sampler_t smp = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;
        __kernel void k(__read_only image2d_t im, __global float4 *o) {
            o[0] = read_imagef(im, smp, (int2)(0, 0));
        }"#;
    let Some(bytes) = lower_common::compile(src) else {
        return;
    };
    let valid = lower_common::validate(&bytes);
    let m = kir::lower::lower(&valid).expect("lowers");
    assert_eq!(
        m.kernels[0].args[0].kind,
        kir::ArgKind::Image(kir::ImageArg {
            dim: kir::ImageDim::D2,
            arrayed: false,
            depth: false,
            access: kir::ImageAccess::ReadOnly,
        })
    );
    let samples = all_insts(&m)
        .iter()
        .filter(|d| {
            matches!(
                d,
                InstData::Image {
                    op: kir::ImageOp::Sample,
                    ..
                }
            )
        })
        .count();
    assert_eq!(samples, 1);
}

#[test]
fn debug_information_is_ignored() {
    let src = r#"
        __kernel void k(__global int *o, int n) {
            int acc = 0;
            for (int i = 0; i < n; i++) acc += i;
            o[get_global_id(0)] = acc;
        }"#;
    let Some(bytes) = lower_common::compile_with(src, &["-target", "spir64", "-g"]) else {
        return;
    };
    // Debug information needs SPIR-V 1.1 (OpenCL 2.1+) and cl_khr_spirv_extended_debug_info.
    let env = spv::valid::Env::from_target_env("opencl2.2")
        .expect("env")
        .with_extension("cl_khr_spirv_extended_debug_info");
    let valid = lower_common::validate_for(&bytes, &env);
    let m = kir::lower::lower(&valid).expect("lowers with debug information");
    let f = m
        .functions
        .iter()
        .find(|f| f.name == "k.impl")
        .expect("body");
    assert_eq!(count_ops(f, "stackalloc"), 0, "{f}");
}

#[test]
fn thirty_two_bit_modules_use_four_byte_pointers() {
    let src = r#"
        typedef struct { char c; __global int *p; int i; } S;
        __kernel void k(__global int *o, S s, __local int *l) {
            size_t g = get_global_id(0);
            l[0] = s.i;
            o[g] = *s.p + l[0] + (int)sizeof(size_t);
        }"#;
    let Some(bytes) = lower_common::compile_with(src, &["-target", "spir"]) else {
        return;
    };
    let env = spv::valid::Env::opencl(spv::valid::ClVersion::Cl20, spv::valid::Profile::Full, 32);
    let valid = lower_common::validate_for(&bytes, &env);
    let m = kir::lower::lower(&valid).expect("lowers");
    assert_eq!(m.address_bits, 32);
    let (_, k) = m.kernel("k").unwrap();
    // struct { char c; int *p; int i; } with 4-byte pointers: c 0, p 4, i 8, size 12.
    assert_eq!(
        k.args[1].kind,
        kir::ArgKind::Value {
            ty: kir::Type::Agg { size: 12, align: 4 },
            size: 12,
            align: 4
        }
    );
    let f = m
        .functions
        .iter()
        .find(|f| f.name == "k.impl")
        .expect("body");
    let queries: Vec<kir::Type> = f
        .layout
        .blocks
        .iter()
        .flat_map(|b| f.layout.insts(*b))
        .filter(|i| matches!(f.dfg.inst(**i), InstData::WorkItem { .. }))
        .filter_map(|i| f.dfg.inst_result(*i).map(|v| f.dfg.value_type(v)))
        .collect();
    assert_eq!(queries, vec![kir::Type::I32], "{f}");
}

#[test]
fn work_group_collectives_use_barriers_and_a_local_scratch_cell() {
    let src = r#"
        __kernel void k(__global int *o, __global float *f) {
            size_t g = get_global_id(0);
            o[g] = work_group_reduce_add((int)g) + work_group_broadcast((int)g, 1)
                 + work_group_any(g == 3);
            f[g] = work_group_scan_exclusive_min(f[g]);
        }"#;
    let Some(m) = lower_source(src) else { return };
    let scratch = m
        .globals
        .iter()
        .find(|g| g.space == kir::AddrSpace::Local && g.size == 8)
        .expect("a local scratch cell");
    assert_eq!(scratch.init, None);
    let barriers = all_insts(&m)
        .iter()
        .filter(|d| {
            matches!(
                d,
                InstData::Barrier {
                    exec_scope: kir::Scope::Workgroup,
                    ..
                }
            )
        })
        .count();
    // reduce, any and scan: 3 each (after init, per step, after the read); broadcast: 3.
    assert_eq!(barriers, 12);
}

#[test]
fn access_chains_into_built_in_variables_select_a_dimension() {
    let asm = r#"
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k" %gid
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %gid Constant
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
    %v3ulong = OpTypeVector %ulong 3
     %ptr_in = OpTypePointer Input %v3ulong
    %ptr_inl = OpTypePointer Input %ulong
     %ptr_gl = OpTypePointer CrossWorkgroup %ulong
     %uint_1 = OpConstant %uint 1
        %gid = OpVariable %ptr_in Input
         %fn = OpTypeFunction %void %ptr_gl %uint
          %k = OpFunction %void None %fn
        %out = OpFunctionParameter %ptr_gl
          %d = OpFunctionParameter %uint
          %l = OpLabel
         %p1 = OpAccessChain %ptr_inl %gid %uint_1
         %y = OpLoad %ulong %p1 Aligned 8
         %pd = OpAccessChain %ptr_inl %gid %d
         %z = OpLoad %ulong %pd Aligned 8
          %s = OpIAdd %ulong %y %z
               OpStore %out %s Aligned 8
               OpReturn
               OpFunctionEnd
"#;
    let Some(m) = lower_asm(asm) else { return };
    let m = m.expect("lowers");
    let insts = all_insts(&m);
    assert!(insts.iter().any(|d| matches!(
        d,
        InstData::WorkItem {
            query: kir::WorkItemQuery::GlobalId,
            dim: 1
        }
    )));
    assert!(insts.iter().any(|d| matches!(
        d,
        InstData::WorkItemDyn {
            query: kir::WorkItemQuery::GlobalId,
            ..
        }
    )));
}

#[test]
fn sub_group_collectives_are_the_work_items_own_values() {
    // kir sub-groups are single work-items: no loops, no extra barriers.
    let src = r#"
        #pragma OPENCL EXTENSION cl_khr_subgroups : enable
        __kernel void k(__global int *o) {
            int x = get_global_id(0);
            o[x] = sub_group_reduce_add(x) + sub_group_scan_exclusive_max(x) + sub_group_broadcast(x, 0)
                 + sub_group_all(x > 0);
        }"#;
    let Some(bytes) = lower_common::compile(src) else {
        return;
    };
    let env = spv::valid::Env::from_target_env("opencl2.0")
        .expect("env")
        .with_extension("cl_khr_subgroups");
    let valid = lower_common::validate_for(&bytes, &env);
    let m = kir::lower::lower(&valid).expect("lowers");
    let insts = all_insts(&m);
    assert!(!insts.iter().any(|d| matches!(d, InstData::Barrier { .. })));
    assert!(!insts.iter().any(|d| matches!(d, InstData::Brif { .. })));
}

#[test]
fn unsupported_constructs_name_the_instruction_and_its_offset() {
    // A call of a function without a body (modules must be linked first).
    let asm = r#"
               OpCapability Addresses
               OpCapability Linkage
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpDecorate %ext LinkageAttributes "ext" Import
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
        %fnu = OpTypeFunction %uint
         %fn = OpTypeFunction %void
        %ext = OpFunction %uint None %fnu
               OpFunctionEnd
          %k = OpFunction %void None %fn
          %l = OpLabel
          %c = OpFunctionCall %uint %ext
               OpReturn
               OpFunctionEnd
"#;
    let Some(result) = lower_asm(asm) else { return };
    match result {
        Err(kir::lower::LowerError::Unsupported {
            offset,
            instruction,
            ..
        }) => {
            assert!(offset > 0);
            assert!(instruction.contains("OpFunctionCall"), "{instruction}");
        }
        other => panic!("expected Unsupported, got {other:?}"),
    }
}

/// llvm-spirv-15's `CLK_NULL_EVENT` (`OpConvertUToPtr %DeviceEvent %SIZE_MAX`, accepted by
/// `spv::valid` as a tolerance) is the null device event: the pointer-sized all-ones handle
/// (kir `enqueue` docs), passed as is to `is_valid`. Any other constant names no event and is
/// reported as unsupported.
#[test]
fn clk_null_event_constant_lowers_to_the_all_ones_handle() {
    let module = |value: &str| {
        format!(
            r#"
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpCapability DeviceEnqueue
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
       %bool = OpTypeBool
      %ulong = OpTypeInt 64 0
        %dev = OpTypeDeviceEvent
          %c = OpConstant %ulong {value}
         %fn = OpTypeFunction %void
          %k = OpFunction %void None %fn
          %l = OpLabel
          %e = OpConvertUToPtr %dev %c
          %v = OpIsValidEvent %bool %e
               OpReturn
               OpFunctionEnd
"#
        )
    };
    let Some(result) = lower_asm(&module("18446744073709551615")) else {
        return;
    };
    let m = result.expect("CLK_NULL_EVENT lowers");
    let insts = all_insts(&m);
    let handle = insts.iter().find_map(|d| match d {
        InstData::Enqueue {
            op: kir::EnqueueOp::IsValid,
            args,
            ..
        } => Some(args[0]),
        _ => None,
    });
    let handle = handle.expect("an is_valid enqueue instruction");
    let f = lower_common::kernel_func(&m, "k");
    assert_eq!(f.dfg.value_type(handle), kir::Type::I64);
    let bytes = match f.dfg.value_def(handle) {
        kir::ValueDef::Result(i) => match f.dfg.inst(i) {
            InstData::Const { bytes } => Some(bytes.clone()),
            _ => None,
        },
        kir::ValueDef::Param(..) => None,
    };
    assert_eq!(
        bytes,
        Some(vec![0xff; 8]),
        "the handle is the all-ones constant"
    );

    let Some(result) = lower_asm(&module("5")) else {
        return;
    };
    match result {
        Err(kir::lower::LowerError::Unsupported { instruction, .. }) => {
            assert!(instruction.contains("OpConvertUToPtr"), "{instruction}");
        }
        other => panic!("expected Unsupported, got {other:?}"),
    }
}
