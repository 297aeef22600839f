//! Modules produced by clang-15 + llvm-spirv-15 from OpenCL C kernels (a second producer of
//! SPIR-V) must validate for OpenCL 2.0 and be accepted by spirv-val too.

#[path = "valid/common.rs"]
mod common;

use spv::valid::Env;
use std::process::Command;

/// Compiles OpenCL C with the working line of the design notes; None when the tools are absent.
fn compile(source: &str) -> Option<Vec<u8>> {
    compile_with(source, &[])
}

/// [`compile`] with extra clang arguments.
fn compile_with(source: &str, clang_args: &[&str]) -> Option<Vec<u8>> {
    if !common::have("clang-15") || !common::have("llvm-spirv-15") {
        eprintln!("skipped: clang-15 or llvm-spirv-15 is not installed");
        return None;
    }
    let cl = common::scratch("cl");
    let bc = common::scratch("bc");
    let spv = common::scratch("spv");
    std::fs::write(&cl, source).unwrap();
    let o = Command::new("clang-15")
        .args([
            "-c",
            "-target",
            "spir64",
            "-cl-std=CL2.0",
            "-O0",
            "-emit-llvm",
        ])
        .args(clang_args)
        .arg("-o")
        .arg(&bc)
        .arg(&cl)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "clang failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let o = Command::new("llvm-spirv-15")
        .arg("--spirv-max-version=1.2")
        .arg(&bc)
        .arg("-o")
        .arg(&spv)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "llvm-spirv failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    Some(std::fs::read(&spv).unwrap())
}

#[track_caller]
fn check(source: &str) {
    let Some(binary) = compile(source) else {
        return;
    };
    if let Some((ok, log)) = common::spirv_val(&binary, "opencl2.0") {
        assert!(ok, "spirv-val rejects the clang module: {log}");
    }
    let env = Env::from_target_env("opencl2.0").unwrap();
    common::expect_ok(common::oxcl_val(&binary, &env));
}

#[test]
fn vector_add() {
    check(
        "kernel void vadd(global const float* a, global const float* b, global float* c) {\n\
           size_t i = get_global_id(0); c[i] = a[i] + b[i];\n\
         }\n",
    );
}

#[test]
fn local_reduction_with_barrier() {
    check(
        "kernel void reduce(global const int* in, global int* out, local int* scratch) {\n\
           size_t l = get_local_id(0);\n\
           scratch[l] = in[get_global_id(0)];\n\
           barrier(CLK_LOCAL_MEM_FENCE);\n\
           for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {\n\
             if (l < s) scratch[l] += scratch[l + s];\n\
             barrier(CLK_LOCAL_MEM_FENCE);\n\
           }\n\
           if (l == 0) out[get_group_id(0)] = scratch[0];\n\
         }\n",
    );
}

#[test]
fn atomics() {
    check(
        "kernel void count(global int* counter, global atomic_int* a, local int* l) {\n\
           atomic_inc(counter);\n\
           atomic_add(counter, 3);\n\
           atomic_max(counter, 7);\n\
           atomic_cmpxchg(counter, 1, 2);\n\
           atomic_fetch_add_explicit(a, 1, memory_order_relaxed, memory_scope_work_group);\n\
           atomic_store(a, 4);\n\
           if (get_local_id(0) == 0) *l = 0;\n\
           barrier(CLK_LOCAL_MEM_FENCE);\n\
           atomic_add(l, 1);\n\
         }\n",
    );
}

#[test]
fn printf_and_math() {
    check(
        "kernel void k(global float* x, int n) {\n\
           float v = sqrt(x[0]) + sin(x[1]) + fma(x[2], x[3], x[4]);\n\
           x[5] = v;\n\
           if (n > 2) printf(\"%d %f %s\\n\", n, v, \"ok\");\n\
         }\n",
    );
}

#[test]
fn functions_structs_and_vectors() {
    check(
        "typedef struct { int a; float b; } pair;\n\
         static float helper(float4 v, int k) { return v.x * k + v.w; }\n\
         kernel void k(global float4* x, pair p, global int* out) {\n\
           size_t i = get_global_id(0);\n\
           float3 t = (float3)(1.0f, 2.0f, 3.0f);\n\
           out[i] = (int)helper(x[i], p.a) + (int)t.y;\n\
           switch (p.a) { case 1: out[0] = 1; break; case 2: out[1] = 2; break; default: break; }\n\
         }\n",
    );
}

#[test]
fn images_and_samplers() {
    check(
        "kernel void img(read_only image2d_t src, write_only image2d_t dst, sampler_t s, read_write image2d_t rw) {\n\
           int2 p = (int2)(get_global_id(0), get_global_id(1));\n\
           float4 v = read_imagef(src, s, p) + read_imagef(src, p);\n\
           write_imagef(dst, p, v);\n\
           write_imagef(rw, p, read_imagef(rw, p));\n\
         }\n\
         constant sampler_t cs = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;\n\
         kernel void img2(read_only image2d_t src, global float4* out) { out[0] = read_imagef(src, cs, (int2)(0, 0)); }\n",
    );
}

#[test]
fn async_copy_work_group_functions_and_fences() {
    check(
        "kernel void copy(global const float* g, local float* l, global float* o) {\n\
           event_t e = async_work_group_copy(l, g, 64, 0);\n\
           wait_group_events(1, &e);\n\
           o[get_global_id(0)] = work_group_reduce_add(l[get_local_id(0)]);\n\
           atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acq_rel, memory_scope_device);\n\
         }\n",
    );
}

#[test]
fn conversions_half_and_printf_vectors() {
    check(
        "kernel void conv(global float* f, global int* i, global half* h, global uchar* c) {\n\
           size_t g = get_global_id(0);\n\
           i[g] = convert_int_sat_rte(f[g]);\n\
           c[g] = convert_uchar_sat(i[g]);\n\
           f[g] = vload_half(g, h) + convert_float_rtz(i[g]);\n\
           vstore_half_rte(f[g], g, h);\n\
           printf(\"%v4hlf %ld %c\\n\", (float4)(1.0f), (long)g, 'a');\n\
         }\n",
    );
}

#[test]
fn generic_pointers_and_doubles() {
    check(
        "int gen(int* p) { return *p; }\n\
         kernel void genp(global int* a, local int* b, global double* d) {\n\
           b[0] = 1;\n\
           a[0] = gen(a) + gen(b);\n\
           global int* q = to_global((int*)a);\n\
           if (q) q[1] = 2;\n\
           d[0] = sqrt(d[1]) * 2.0;\n\
         }\n",
    );
}

/// OpenCL C 1.2 atomics and fences as llvm-spirv-15 writes them use Workgroup memory scope and
/// AcquireRelease fences (see `spirv-dis`), which env 6.3 forbids in an OpenCL 1.2 environment
/// ("the Scope must be Device, and the Memory Semantics must be Relaxed"; barriers
/// "SequentiallyConsistent"). spirv-val does not check these rules; oxcl does, and accepts the
/// same module for OpenCL 2.0.
#[test]
fn opencl_1_2_atomic_scopes_from_llvm_spirv() {
    if !common::have("clang-15") || !common::have("llvm-spirv-15") {
        eprintln!("skipped: clang-15 or llvm-spirv-15 is not installed");
        return;
    }
    let cl = common::scratch("cl");
    let bc = common::scratch("bc");
    let spv = common::scratch("spv");
    std::fs::write(
        &cl,
        "kernel void count(global int* c) { atomic_inc(c); mem_fence(CLK_GLOBAL_MEM_FENCE); }\n",
    )
    .unwrap();
    let ok = Command::new("clang-15")
        .args([
            "-c",
            "-target",
            "spir64",
            "-cl-std=CL1.2",
            "-O0",
            "-emit-llvm",
            "-o",
        ])
        .arg(&bc)
        .arg(&cl)
        .status()
        .unwrap()
        .success()
        && Command::new("llvm-spirv-15")
            .arg("--spirv-max-version=1.0")
            .arg(&bc)
            .arg("-o")
            .arg(&spv)
            .status()
            .unwrap()
            .success();
    assert!(ok, "clang-15 / llvm-spirv-15 failed");
    let binary = std::fs::read(&spv).unwrap();
    let errors =
        common::oxcl_val(&binary, &Env::from_target_env("opencl1.2").unwrap()).unwrap_err();
    assert!(
        errors.has_rule("Scope for Memory of atomic instructions"),
        "{errors}"
    );
    assert!(
        errors.has_rule("memory-order constraint of barrier instructions"),
        "{errors}"
    );
    common::expect_ok(common::oxcl_val(
        &binary,
        &Env::from_target_env("opencl2.0").unwrap(),
    ));
}

/// With `-g`, llvm-spirv-15 writes a SPIR-V 1.1 module importing OpenCL.DebugInfo.100, which an
/// OpenCL 2.2 device with cl_khr_spirv_extended_debug_info accepts (env 7), and one without the
/// extension does not. The debug instructions sit between function variables and in blocks.
#[test]
fn debug_info() {
    let source = "kernel void vadd(global const float* a, global float* c) {\n\
                    size_t i = get_global_id(0); float t = a[i] * 2.0f; c[i] = t;\n\
                  }\n";
    let Some(binary) = compile_with(source, &["-g"]) else {
        return;
    };
    // (spirv-val 2023.1 rejects llvm-spirv-15's DebugTypePointer operands; oxcl does not check
    // the operands of OpenCL.DebugInfo.100 instructions.)
    let env = Env::from_target_env("opencl2.2").unwrap();
    common::expect_ok(common::oxcl_val(
        &binary,
        &env.clone()
            .with_extension("cl_khr_spirv_extended_debug_info"),
    ));
    common::expect_rule(common::oxcl_val(&binary, &env), "Extended Instruction Sets");
}

#[test]
fn struct_by_value_and_small_integer_arguments() {
    check(
        "typedef struct { float3 p; int k; char c; } S;\n\
         kernel void byval(S s, char c, short sh, uchar4 v, global float* out) { out[0] = s.p.y + s.k + c + sh + v.z; }\n",
    );
}

#[test]
fn image_kinds_and_queries() {
    check(
        "kernel void img3(write_only image3d_t d, read_only image1d_buffer_t b, read_only image2d_array_t a,\n\
                          read_only image2d_depth_t dep, sampler_t smp, global int4* o) {\n\
           write_imagef(d, (int4)(0, 0, 0, 0), (float4)(1.0f));\n\
           o[0] = read_imagei(b, 0) + (int4)(get_image_width(a), get_image_array_size(a), get_image_dim(a));\n\
           o[1].x = (int)read_imagef(dep, smp, (float2)(0.5f, 0.5f));\n\
           o[2].y = get_image_channel_order(a) + get_image_channel_data_type(a);\n\
         }\n",
    );
}

#[test]
fn pipes() {
    check(
        "kernel void pipes(read_only pipe int p, write_only pipe float q, global int* o) {\n\
           int v; read_pipe(p, &v); float f = v; write_pipe(q, &f);\n\
           reserve_id_t r = reserve_read_pipe(p, 2);\n\
           if (is_valid_reserve_id(r)) { read_pipe(p, r, 0, &v); commit_read_pipe(p, r); }\n\
           o[0] = get_pipe_num_packets(p) + get_pipe_max_packets(q);\n\
         }\n",
    );
}

#[test]
fn device_side_enqueue() {
    check(
        "void blockfn(global int* a) { a[0] = 1; }\n\
         kernel void enq(global int* a) {\n\
           queue_t q = get_default_queue();\n\
           ndrange_t nd = ndrange_1D(64);\n\
           enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, nd, ^{ blockfn(a); });\n\
         }\n",
    );
}

#[test]
fn work_group_collectives() {
    check(
        "kernel void wg(global int* a, global float* f) {\n\
           a[0] = work_group_all(a[1]) + work_group_any(a[2]) + work_group_broadcast(a[3], 0)\n\
                  + work_group_scan_inclusive_max(a[4]);\n\
           f[0] = work_group_reduce_min(f[1]);\n\
         }\n",
    );
}

#[test]
fn vectors_doubles_longs_and_relational() {
    check(
        "kernel void vec(global float3* v, global double2* d, global long* l, global ulong* u) {\n\
           float3 t = vload3(0, (global float*)v) * 2.0f; vstore3(t, 1, (global float*)v);\n\
           d[0] = d[1] * 2.0 + (double2)(l[0], u[0]);\n\
           l[1] = mul_hi(l[2], l[3]) + rotate(l[4], 3L) + popcount(u[1]) + clz(u[2]);\n\
           bool b = isnan(t.x) || any(isinf(t));\n\
           if (b) l[5] = select(1L, 2L, (long)(l[6] > 0));\n\
         }\n",
    );
}

/// Sub-group functions need sub-groups: accepted with cl_khr_subgroups (env 7.2.11) or by
/// OpenCL 2.1, rejected by a plain OpenCL 2.0 device.
#[test]
fn sub_groups() {
    let source = "#pragma OPENCL EXTENSION cl_khr_subgroups : enable\n\
                  kernel void sg(global int* a) {\n\
                    a[get_global_id(0)] = sub_group_reduce_add(a[0]) + get_sub_group_size() + get_sub_group_local_id();\n\
                    sub_group_barrier(CLK_LOCAL_MEM_FENCE);\n\
                  }\n";
    let Some(binary) = compile_with(source, &["-cl-ext=+cl_khr_subgroups"]) else {
        return;
    };
    let env20 = Env::from_target_env("opencl2.0").unwrap();
    common::expect_ok(common::oxcl_val(
        &binary,
        &env20.clone().with_extension("cl_khr_subgroups"),
    ));
    let errors = common::oxcl_val(&binary, &env20).unwrap_err();
    assert!(errors.has_rule("Scope for Execution"), "{errors}");
    assert!(errors.has_rule("supported BuiltIn decorations"), "{errors}");
}

/// Many OpenCL.std built-ins with scalar arguments widened to vectors by the compiler.
#[test]
fn builtin_function_families() {
    check(
        "kernel void m(global float4* f, global int4* i, global float* s, global double* d) {\n\
  float4 a = f[0], b = f[1];\n\
  f[2] = fmax(a, 2.0f) + fmin(a, b) + clamp(a, 0.0f, 1.0f) + step(0.5f, a) + smoothstep(0.0f, 1.0f, a) + mix(a, b, 0.25f);\n\
  f[3] = ldexp(a, i[0]) + pown(a, i[1]) + rootn(a, i[2]) + native_sin(a) + half_exp(a) + fma(a, b, a) + mad(a, b, b);\n\
  f[4] = (float4)(dot(a, b), length(a), distance(a, b), fast_length(a)) + normalize(a) + cross(a, b);\n\
  i[3] = clamp(i[0], 1, 5) + max(i[1], 3) + (int)abs_diff(i[2], i[3]).x + mad24(i[0], i[1], i[2]) + ilogb(a);\n\
  s[0] = fract(s[1], s + 2) + modf(s[3], s + 4) + nan(1u) + frexp(s[5], (global int*)i);\n\
  d[0] = sqrt(d[1]) + fmax(d[2], 1.0);\n\
  f[5] = select(a, b, i[0]) + bitselect(a, b, a) + shuffle(a, (uint4)(3,2,1,0)) + shuffle2(a, b, (uint4)(7,0,1,2));\n\
  f[6] = degrees(a) + sign(a) + copysign(a, b) + fdim(a, b) + maxmag(a, b) + rsqrt(a) + half_divide(a, b) + native_powr(a, b);\n\
  i[4] = rotate(i[0], i[1]) + popcount(i[2]) + mul24(i[0], i[1]) + add_sat(i[0], i[3]) + hadd(i[1], i[2]) + (int4)upsample((short4)1, (ushort4)2);\n\
}\n",
    );
}

/// env 7.2.3: "If the OpenCL environment supports the extension
/// cl_khr_device_enqueue_local_arg_types, then environment will allow Invoke functions to be
/// passed to OpEnqueueKernel with Workgroup memory pointer parameters of any type" — without
/// it they are `local void*` (clang's `uchar` Workgroup pointers).
#[test]
fn enqueue_local_argument_types() {
    let source = "kernel void k(global int* out) {\n\
                    queue_t q = get_default_queue();\n\
                    enqueue_kernel(q, CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(1),\n\
                                   ^(local void* p){ out[0] = 1; }, 16u);\n\
                  }\n";
    let Some(binary) = compile(source) else {
        return;
    };
    let env = Env::from_target_env("opencl2.0").unwrap();
    common::expect_ok(common::oxcl_val(&binary, &env));
    if !common::have("spirv-dis") || !common::have("spirv-as") {
        eprintln!("skipped: spirv-dis or spirv-as is not installed");
        return;
    }
    let path = common::scratch("spv");
    std::fs::write(&path, &binary).unwrap();
    let o = Command::new("spirv-dis").arg(&path).output().unwrap();
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    let wider = text.replace(
        "%_ptr_Workgroup_uchar = OpTypePointer Workgroup %uchar",
        "%_ptr_Workgroup_uchar = OpTypePointer Workgroup %uint",
    );
    assert_ne!(
        wider, text,
        "the invoke function has no local void* parameter"
    );
    let binary = common::assemble(&wider, "1.0").unwrap();
    common::expect_rule(common::oxcl_val(&binary, &env), "env 7.2.3");
    common::expect_ok(common::oxcl_val(
        &binary,
        &env.with_extension("cl_khr_device_enqueue_local_arg_types"),
    ));
}

/// `CLK_NULL_EVENT` is `__builtin_astype(SIZE_MAX, clk_event_t)` in clang-15's
/// opencl-c-base.h; llvm-spirv-15 turns it into `OpConvertUToPtr %DeviceEvent %ulong_max`.
/// SPIR-V 3.32.11 (OpConvertUToPtr): "Result Type must be a physical pointer type", and
/// OpTypeDeviceEvent is not one, so spirv-val rejects the module for every OpenCL environment.
/// oxcl accepts exactly this producer pattern (integer constant to OpTypeDeviceEvent) as a
/// documented tolerance (spv::valid types rules), because users run clang-built kernels and
/// expect PoCL's behaviour for the same source. Null *pointers* to events (`NULL` wait lists and
/// return events) are `OpConstantNull` of a pointer type, valid for both.
#[test]
fn clk_null_event_from_llvm_spirv_is_accepted_by_oxcl_and_rejected_by_spirv_val() {
    let null_event = "kernel void k(global int* o) {\n\
           clk_event_t e = CLK_NULL_EVENT;\n\
           o[0] = is_valid_event(e);\n\
         }\n";
    let Some(binary) = compile(null_event) else {
        return;
    };
    let module = spv::read_bytes(&binary).expect("the binary reads");
    assert!(
        module
            .instructions
            .iter()
            .any(|i| i.op == spv::Op::ConvertUToPtr),
        "llvm-spirv-15 no longer encodes CLK_NULL_EVENT as OpConvertUToPtr"
    );
    let env = Env::from_target_env("opencl2.0").unwrap();
    if let Some((ok, log)) = common::spirv_val(&binary, "opencl2.0") {
        assert!(!ok, "spirv-val accepted the module");
        assert!(log.contains("ConvertUToPtr"), "{log}");
    }
    common::expect_ok(common::oxcl_val(&binary, &env));
    check(
        "kernel void k(global int* o) {\n\
           queue_t q = get_default_queue();\n\
           clk_event_t e;\n\
           o[0] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(4), 0, NULL, &e,\n\
               ^{ o[1] = 1; });\n\
           o[2] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(4), 0, NULL, NULL,\n\
               ^{ o[3] = 1; });\n\
           o[4] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(4), 1, &e, NULL,\n\
               ^{ o[5] = 1; });\n\
           release_event(e);\n\
         }\n",
    );
}
