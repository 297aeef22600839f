//! One minimal module per validation rule, each breaking exactly that rule (written as SPIR-V
//! assembly and assembled with spirv-as, or with `spv::asm` where spirv-as is absent, or built
//! from an assembled module by editing the model), and the rule citation asserted in the error.
//! Each module's expected verdict comes from the specification text cited, not from the
//! validator's output.

#[path = "valid/common.rs"]
mod common;

use common::{check_text, expect_ok, expect_rule, kernel};
use spv::valid::{feature, validate, ClVersion, Env, Profile};
use spv::{Id, Op, Operand};

fn cl20() -> Env {
    Env::opencl(ClVersion::Cl20, Profile::Full, 64)
}

fn cl12() -> Env {
    Env::opencl(ClVersion::Cl12, Profile::Full, 64)
}

/// Assembles a kernel module (SPIR-V 1.0) and validates it for `env`.
fn run(
    caps: &[&str],
    globals: &str,
    body: &str,
    env: &Env,
) -> Option<Result<spv::valid::ValidModule, spv::valid::ValidationErrors>> {
    check_text(&kernel(caps, globals, body), "1.0", env)
}

#[test]
fn template_kernel_is_valid() {
    let Some(r) = run(&[], "", "OpReturn", &cl20()) else {
        return;
    };
    expect_ok(r);
    let Some(r) = run(&[], "", "OpReturn", &cl12()) else {
        return;
    };
    expect_ok(r);
}

// ---- env 2.1: entry points and memory model

#[test]
fn entry_point_model_must_be_kernel() {
    let text =
        "OpCapability Addresses\nOpCapability Kernel\nOpCapability Shader\nOpCapability Int64\n\
                OpMemoryModel Physical64 OpenCL\nOpEntryPoint GLCompute %main \"main\"\n\
                OpExecutionMode %main LocalSize 1 1 1\n"
            .to_string()
            + &common::module_rest("", "OpReturn");
    let Some(r) = check_text(&text, "1.0", &cl20()) else {
        return;
    };
    expect_rule(r, "Execution Model must be Kernel");
}

#[test]
fn addressing_model_must_match_address_bits() {
    let Some(r) = run(
        &[],
        "",
        "OpReturn",
        &Env::opencl(ClVersion::Cl20, Profile::Full, 32),
    ) else {
        return;
    };
    expect_rule(r, "Addressing Model must be Physical32 or Physical64");
}

#[test]
fn memory_model_must_be_opencl() {
    let text =
        "OpCapability Addresses\nOpCapability Kernel\nOpCapability Shader\nOpCapability Int64\n\
                OpMemoryModel Physical64 GLSL450\nOpEntryPoint Kernel %main \"main\"\n"
            .to_string()
            + &common::module_rest("", "OpReturn");
    let Some(r) = check_text(&text, "1.0", &cl20()) else {
        return;
    };
    expect_rule(r, "Memory Model must be OpenCL");
}

#[test]
fn kernel_must_return_void() {
    let text = "OpCapability Addresses\nOpCapability Kernel\nOpMemoryModel Physical64 OpenCL\n\
                OpEntryPoint Kernel %f \"f\"\n%uint = OpTypeInt 32 0\n%u0 = OpConstant %uint 0\n\
                %ft = OpTypeFunction %uint\n%f = OpFunction %uint None %ft\n%l = OpLabel\n\
                OpReturnValue %u0\nOpFunctionEnd\n";
    let Some(r) = check_text(text, "1.0", &cl20()) else {
        return;
    };
    expect_rule(r, "env 2.8");
}

#[test]
fn kernel_arguments_have_allowed_types() {
    let text = "OpCapability Addresses\nOpCapability Kernel\nOpMemoryModel Physical64 OpenCL\n\
                OpEntryPoint Kernel %f \"f\"\n%void = OpTypeVoid\n%bool = OpTypeBool\n\
                %ft = OpTypeFunction %void %bool\n%f = OpFunction %void None %ft\n\
                %p = OpFunctionParameter %bool\n%l = OpLabel\nOpReturn\nOpFunctionEnd\n";
    let Some(r) = check_text(text, "1.0", &cl20()) else {
        return;
    };
    expect_rule(r, "env 2.9");
    // A pointer to Function storage is not an allowed argument unless passed ByVal.
    let text = "OpCapability Addresses\nOpCapability Kernel\nOpMemoryModel Physical64 OpenCL\n\
                OpEntryPoint Kernel %f \"f\"\n%void = OpTypeVoid\n%uint = OpTypeInt 32 0\n\
                %pf = OpTypePointer Function %uint\n\
                %ft = OpTypeFunction %void %pf\n%f = OpFunction %void None %ft\n\
                %p = OpFunctionParameter %pf\n%l = OpLabel\nOpReturn\nOpFunctionEnd\n";
    let Some(r) = check_text(text, "1.0", &cl20()) else {
        return;
    };
    expect_rule(r, "env 2.9");
}

// ---- env 2.1: types

#[test]
fn int_signedness_must_be_zero() {
    let Some(r) = run(&[], "%int = OpTypeInt 32 1", "OpReturn", &cl20()) else {
        return;
    };
    expect_rule(r, "Signedness must be 0 for OpTypeInt");
}

#[test]
fn int_widths_need_capabilities_and_are_opencl_widths() {
    let Some(r) = run(&[], "%c = OpTypeInt 8 0", "OpReturn", &cl20()) else {
        return;
    };
    expect_rule(r, "capabilities used must be declared");
    let Some(r) = run(&["Int8"], "%c = OpTypeInt 8 0", "OpReturn", &cl20()) else {
        return;
    };
    expect_ok(r);
    let Some(r) = run(&[], "%c = OpTypeInt 24 0", "OpReturn", &cl20()) else {
        return;
    };
    expect_rule(r, "env 2.4.1");
}

#[test]
fn vector_sizes() {
    let Some(r) = run(&[], "%v = OpTypeVector %uint 16", "OpReturn", &cl20()) else {
        return;
    };
    expect_rule(r, "capabilities used must be declared");
    let Some(r) = run(
        &["Vector16"],
        "%v = OpTypeVector %uint 16",
        "OpReturn",
        &cl20(),
    ) else {
        return;
    };
    expect_ok(r);
    let Some(r) = run(
        &["Vector16"],
        "%v = OpTypeVector %uint 5",
        "OpReturn",
        &cl20(),
    ) else {
        return;
    };
    expect_rule(r, "env 2.4.1");
}

fn images_env() -> Env {
    cl20().with_feature(feature::IMAGES)
}

fn image_globals(image: &str) -> String {
    format!("%float = OpTypeFloat 32\n%img = {image}")
}

#[test]
fn image_type_rules() {
    let ok = image_globals("OpTypeImage %void 2D 0 0 0 0 Unknown ReadOnly");
    let Some(r) = run(&["ImageBasic"], &ok, "OpReturn", &images_env()) else {
        return;
    };
    expect_ok(r);
    for bad in [
        "OpTypeImage %float 2D 0 0 0 0 Unknown ReadOnly", // Sampled Type must be void
        "OpTypeImage %void 2D 0 0 0 1 Unknown ReadOnly",  // Sampled must be 0
        "OpTypeImage %void 2D 0 0 1 0 Unknown ReadOnly",  // MS must be 0
        "OpTypeImage %void 3D 0 1 0 0 Unknown ReadOnly",  // Arrayed only for 1D / 2D
        "OpTypeImage %void 2D 0 0 0 0 Rgba8 ReadOnly",    // Image Format Unknown
        "OpTypeImage %void 2D 0 0 0 0 Unknown",           // Access Qualifier present
    ] {
        let caps: &[&str] = if bad.contains("Rgba8") {
            &["ImageBasic", "Shader"]
        } else {
            &["ImageBasic"]
        };
        let Some(r) = run(caps, &image_globals(bad), "OpReturn", &images_env()) else {
            return;
        };
        expect_rule(r, "env 2.1 (OpTypeImage rules)");
    }
}

#[test]
fn image_dims_and_depth_follow_the_table() {
    let Some(r) = run(
        &["ImageBasic", "Shader"],
        &image_globals("OpTypeImage %void Cube 0 0 0 0 Unknown ReadOnly"),
        "OpReturn",
        &images_env(),
    ) else {
        return;
    };
    expect_rule(r, "env 2.4.2");
    let Some(r) = run(
        &["ImageBasic", "Sampled1D"],
        &image_globals("OpTypeImage %void 1D 1 0 0 0 Unknown ReadOnly"),
        "OpReturn",
        &images_env(),
    ) else {
        return;
    };
    expect_rule(r, "env 2.4.2");
}

#[test]
fn images_need_image_support() {
    let g = image_globals("OpTypeImage %void 2D 0 0 0 0 Unknown ReadOnly");
    let Some(r) = run(&["ImageBasic"], &g, "OpReturn", &cl20()) else {
        return;
    };
    expect_rule(r, "capabilities an OpenCL environment supports");
}

#[test]
fn read_write_images_not_in_opencl_1_2() {
    let g = image_globals("OpTypeImage %void 2D 0 0 0 0 Unknown ReadWrite");
    let env = cl12().with_feature(feature::IMAGES);
    let Some(r) = run(&["ImageBasic", "ImageReadWrite"], &g, "OpReturn", &env) else {
        return;
    };
    expect_rule(r, "capabilities an OpenCL environment supports");
}

fn image_write(dim: &str, operands: &str) -> (String, String) {
    let globals = format!(
        "%float = OpTypeFloat 32\n%v4 = OpTypeVector %float 4\n%v2 = OpTypeVector %uint 2\n\
         %img = OpTypeImage %void {dim} 0 0 0 0 Unknown WriteOnly\n\
         %fnk = OpTypeFunction %void %img\n%f0 = OpConstant %float 0\n%tex = OpConstantComposite %v4 %f0 %f0 %f0 %f0\n\
         %coord = OpConstantComposite %v2 %uint_0 %uint_0\n%c3 = OpConstant %uint 3"
    );
    let body = format!("OpImageWrite %imgp %coord %tex {operands}\nOpReturn");
    (globals, body)
}

/// A kernel taking one image argument `%imgp`.
fn image_kernel(globals: &str, body: &str) -> String {
    let mut text = String::from(
        "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\nOpCapability ImageBasic\n\
         OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %k \"k\"\n",
    );
    text += &format!(
        "%void = OpTypeVoid\n%fn_void = OpTypeFunction %void\n%uint = OpTypeInt 32 0\n%ulong = OpTypeInt 64 0\n\
         %uint_0 = OpConstant %uint 0\n{globals}\n%k = OpFunction %void None %fnk\n%imgp = OpFunctionParameter %img\n\
         %entry = OpLabel\n{body}\nOpFunctionEnd\n"
    );
    text
}

#[test]
fn image_write_rules() {
    let (g, b) = image_write("2D", "");
    let Some(r) = check_text(&image_kernel(&g, &b), "1.0", &images_env()) else {
        return;
    };
    expect_ok(r);
    // ConstOffset is not allowed.
    let (g, b) = image_write("2D", "ConstOffset %coord");
    let Some(r) = check_text(&image_kernel(&g, &b), "1.0", &images_env()) else {
        return;
    };
    expect_rule(r, "ConstOffset");
    // A non-zero Lod needs cl_khr_mipmap_image_writes.
    let (g, b) = image_write("2D", "Lod %c3");
    let Some(r) = check_text(&image_kernel(&g, &b), "1.0", &images_env()) else {
        return;
    };
    expect_rule(r, "mipmap");
    // 3D image writes: core in 2.0, an extension in 1.2.
    let (g, b) = image_write("3D", "");
    let text = image_kernel(
        &g.replace("%v2 = OpTypeVector %uint 2", "%v2 = OpTypeVector %uint 4")
            .replace(
                "%coord = OpConstantComposite %v2 %uint_0 %uint_0",
                "%coord = OpConstantComposite %v2 %uint_0 %uint_0 %uint_0 %uint_0",
            ),
        &b,
    );
    let Some(r) = check_text(&text, "1.0", &images_env()) else {
        return;
    };
    expect_ok(r);
    let env12 = cl12().with_feature(feature::IMAGES);
    let Some(r) = check_text(&text, "1.0", &env12) else {
        return;
    };
    expect_rule(r, "env 7.2.1");
    let Some(r) = check_text(
        &text,
        "1.0",
        &env12.clone().with_extension("cl_khr_3d_image_writes"),
    ) else {
        return;
    };
    expect_ok(r);
}

#[test]
fn sampled_image_needs_a_sampler() {
    let globals = "%float = OpTypeFloat 32\n%v4 = OpTypeVector %float 4\n%v2 = OpTypeVector %float 2\n\
                   %img = OpTypeImage %void 2D 0 0 0 0 Unknown ReadOnly\n%si = OpTypeSampledImage %img\n\
                   %fnk = OpTypeFunction %void %img\n%f0 = OpConstant %float 0\n%coord = OpConstantComposite %v2 %f0 %f0";
    let body = "%s = OpSampledImage %si %imgp %imgp\n%t = OpImageSampleExplicitLod %v4 %s %coord Lod %f0\nOpReturn";
    let Some(r) = check_text(&image_kernel(globals, body), "1.0", &images_env()) else {
        return;
    };
    expect_rule(r, "OpSampledImage");
}

// ---- env 2.1: atomics

fn atomic_globals(extra: &str) -> String {
    format!(
        "%ushort = OpTypeInt 16 0\n%pg = OpTypePointer CrossWorkgroup %uint\n%pl = OpTypePointer CrossWorkgroup %ulong\n\
         %ps = OpTypePointer CrossWorkgroup %ushort\n%pc = OpTypePointer UniformConstant %uint\n\
         %g = OpVariable %pg CrossWorkgroup\n%gl = OpVariable %pl CrossWorkgroup\n%gs = OpVariable %ps CrossWorkgroup\n\
         %gc = OpVariable %pc UniformConstant %uint_0\n%s1 = OpConstant %ushort 1\n%uint_4 = OpConstant %uint 4\n\
         %uint_16 = OpConstant %uint 16\n%uint_18 = OpConstant %uint 18\n{extra}"
    )
}

#[test]
fn atomics_are_32_bit_integers() {
    let Some(r) = run(
        &["Int16"],
        &atomic_globals(""),
        "%a = OpAtomicIAdd %uint %g %uint_2 %uint_0 %uint_1\nOpReturn",
        &cl20(),
    ) else {
        return;
    };
    expect_ok(r);
    let Some(r) = run(
        &["Int16"],
        &atomic_globals(""),
        "%a = OpAtomicIAdd %ushort %gs %uint_2 %uint_0 %s1\nOpReturn",
        &cl20(),
    ) else {
        return;
    };
    expect_rule(r, "atomic instructions use 32-bit integers");
    let body = "%l1 = OpConstant %ulong 1\n";
    let Some(r) = run(
        &["Int16"],
        &atomic_globals(body),
        "%a = OpAtomicIAdd %ulong %gl %uint_2 %uint_0 %l1\nOpReturn",
        &cl20(),
    ) else {
        return;
    };
    expect_rule(r, "atomic instructions use 32-bit integers");
    let env = cl20().with_extension("cl_khr_int64_base_atomics");
    let Some(r) = run(
        &["Int16", "Int64Atomics"],
        &atomic_globals(body),
        "%a = OpAtomicIAdd %ulong %gl %uint_2 %uint_0 %l1\nOpReturn",
        &env,
    ) else {
        return;
    };
    expect_ok(r);
    // Int64Atomics itself needs the extension.
    let Some(r) = run(
        &["Int16", "Int64Atomics"],
        &atomic_globals(body),
        "%a = OpAtomicIAdd %ulong %gl %uint_2 %uint_0 %l1\nOpReturn",
        &cl20(),
    ) else {
        return;
    };
    expect_rule(r, "capabilities an OpenCL environment supports");
}

#[test]
fn atomic_pointer_storage_classes() {
    let Some(r) = run(
        &["Int16"],
        &atomic_globals(""),
        "%a = OpAtomicIAdd %uint %gc %uint_2 %uint_0 %uint_1\nOpReturn",
        &cl20(),
    ) else {
        return;
    };
    expect_rule(
        r,
        "atomic Pointer must point to Function, Workgroup or CrossWorkgroup",
    );
}

#[test]
fn atomic_scopes_and_orders_per_version() {
    // OpenCL 1.2: Scope Device and Relaxed only.
    let Some(r) = run(
        &["Int16"],
        &atomic_globals(""),
        "%a = OpAtomicIAdd %uint %g %uint_1 %uint_0 %uint_1\nOpReturn",
        &cl12(),
    ) else {
        return;
    };
    expect_ok(r);
    let Some(r) = run(
        &["Int16"],
        &atomic_globals(""),
        "%a = OpAtomicIAdd %uint %g %uint_2 %uint_0 %uint_1\nOpReturn",
        &cl12(),
    ) else {
        return;
    };
    expect_rule(r, "Scope for Memory of atomic instructions");
    let Some(r) = run(
        &["Int16"],
        &atomic_globals(""),
        "%a = OpAtomicIAdd %uint %g %uint_1 %uint_16 %uint_1\nOpReturn",
        &cl12(),
    ) else {
        return;
    };
    expect_rule(r, "memory-order constraint of atomic instructions");
    // OpenCL 2.0: Invocation is not an atomic scope; one memory order at most.
    let Some(r) = run(
        &["Int16"],
        &atomic_globals(""),
        "%a = OpAtomicIAdd %uint %g %uint_4 %uint_0 %uint_1\nOpReturn",
        &cl20(),
    ) else {
        return;
    };
    expect_rule(r, "Scope for Memory of atomic instructions");
    let Some(r) = run(
        &["Int16"],
        &atomic_globals(""),
        "%a = OpAtomicIAdd %uint %g %uint_2 %uint_18 %uint_1\nOpReturn",
        &cl20(),
    ) else {
        return;
    };
    expect_rule(r, "at most one memory-order bit");
    // OpenCL 3.0 without __opencl_c_atomic_order_seq_cst.
    let env30 = Env::opencl(ClVersion::Cl30, Profile::Full, 64);
    let Some(r) = run(
        &["Int16"],
        &atomic_globals(""),
        "%a = OpAtomicIAdd %uint %g %uint_2 %uint_16 %uint_1\nOpReturn",
        &env30,
    ) else {
        return;
    };
    expect_rule(r, "memory-order constraint of atomic instructions");
    let Some(r) = run(
        &["Int16"],
        &atomic_globals(""),
        "%a = OpAtomicIAdd %uint %g %uint_2 %uint_16 %uint_1\nOpReturn",
        &env30.clone().with_feature(feature::ATOMIC_ORDER_SEQ_CST),
    ) else {
        return;
    };
    expect_ok(r);
}

// ---- env 2.1 / 6.3: barriers and execution scopes

#[test]
fn barrier_rules() {
    let g = "%uint_272 = OpConstant %uint 272\n%uint_256 = OpConstant %uint 256";
    let Some(r) = run(
        &[],
        g,
        "OpControlBarrier %uint_2 %uint_2 %uint_272\nOpReturn",
        &cl12(),
    ) else {
        return;
    };
    expect_ok(r);
    let Some(r) = run(
        &[],
        g,
        "OpControlBarrier %uint_2 %uint_1 %uint_272\nOpReturn",
        &cl12(),
    ) else {
        return;
    };
    expect_rule(r, "Scope for Memory of barrier instructions");
    let Some(r) = run(
        &[],
        g,
        "OpControlBarrier %uint_2 %uint_2 %uint_256\nOpReturn",
        &cl12(),
    ) else {
        return;
    };
    expect_rule(r, "memory-order constraint of barrier instructions");
    let Some(r) = run(
        &[],
        g,
        "OpControlBarrier %uint_1 %uint_2 %uint_272\nOpReturn",
        &cl20(),
    ) else {
        return;
    };
    expect_rule(r, "Scope for Execution");
    // Subgroup execution scope: 2.1 yes, 2.0 only with cl_khr_subgroups.
    let g3 = format!("{g}\n%uint_3 = OpConstant %uint 3");
    let Some(r) = run(
        &[],
        &g3,
        "OpControlBarrier %uint_3 %uint_2 %uint_272\nOpReturn",
        &cl20(),
    ) else {
        return;
    };
    expect_rule(r, "Scope for Execution");
    let Some(r) = run(
        &[],
        &g3,
        "OpControlBarrier %uint_3 %uint_2 %uint_272\nOpReturn",
        &cl20().with_extension("cl_khr_subgroups"),
    ) else {
        return;
    };
    expect_ok(r);
    let Some(r) = run(
        &[],
        &g3,
        "OpControlBarrier %uint_3 %uint_2 %uint_272\nOpReturn",
        &Env::opencl(ClVersion::Cl21, Profile::Full, 64),
    ) else {
        return;
    };
    expect_ok(r);
}

#[test]
fn group_instructions_not_in_opencl_1_2() {
    let Some(r) = run(
        &["Groups"],
        "",
        "%s = OpGroupIAdd %uint %uint_2 Reduce %uint_1\nOpReturn",
        &cl12(),
    ) else {
        return;
    };
    expect_rule(r, "env 6.3");
    let Some(r) = run(
        &["Groups"],
        "",
        "%s = OpGroupIAdd %uint %uint_2 Reduce %uint_1\nOpReturn",
        &cl20(),
    ) else {
        return;
    };
    expect_ok(r);
}

#[test]
fn async_copy_execution_scope_is_workgroup() {
    let g = "%uint_3 = OpConstant %uint 3\n%ev = OpTypeEvent\n%pg = OpTypePointer CrossWorkgroup %uint\n\
             %pw = OpTypePointer Workgroup %uint\n%g = OpVariable %pg CrossWorkgroup\n%w = OpVariable %pw Workgroup\n\
             %nullev = OpConstantNull %ev";
    let env = Env::opencl(ClVersion::Cl21, Profile::Full, 64);
    let Some(r) = run(
        &[],
        g,
        "%e = OpGroupAsyncCopy %ev %uint_2 %w %g %ulong_0 %ulong_0 %nullev\nOpReturn",
        &env,
    ) else {
        return;
    };
    expect_ok(r);
    let Some(r) = run(
        &[],
        g,
        "%e = OpGroupAsyncCopy %ev %uint_3 %w %g %ulong_0 %ulong_0 %nullev\nOpReturn",
        &env,
    ) else {
        return;
    };
    expect_rule(
        r,
        "OpGroupAsyncCopy and OpGroupWaitEvents must be Workgroup",
    );
}

// ---- env 2.1: recursion

#[test]
fn recursion_is_rejected() {
    let text = "OpCapability Addresses\nOpCapability Kernel\nOpMemoryModel Physical64 OpenCL\n\
                OpEntryPoint Kernel %k \"k\"\n%void = OpTypeVoid\n%fv = OpTypeFunction %void\n\
                %k = OpFunction %void None %fv\n%l0 = OpLabel\n%c0 = OpFunctionCall %void %a\nOpReturn\nOpFunctionEnd\n\
                %a = OpFunction %void None %fv\n%l1 = OpLabel\n%c1 = OpFunctionCall %void %b\nOpReturn\nOpFunctionEnd\n\
                %b = OpFunction %void None %fv\n%l2 = OpLabel\n%c2 = OpFunctionCall %void %a\nOpReturn\nOpFunctionEnd\n";
    let Some(r) = check_text(text, "1.0", &cl20()) else {
        return;
    };
    expect_rule(r, "Recursion is not supported");
}

// ---- decorations

#[test]
fn rounding_mode_only_on_conversions() {
    let ok = "OpDecorate %c FPRoundingMode RTZ\n;types %float = OpTypeFloat 32";
    let Some(r) = run(
        &[],
        ok,
        "%c = OpConvertUToF %float %uint_1\nOpReturn",
        &cl20(),
    ) else {
        return;
    };
    expect_ok(r);
    let bad = "OpDecorate %c FPRoundingMode RTZ\n;types %float = OpTypeFloat 32\n%f1 = OpConstant %float 1";
    let Some(r) = run(&[], bad, "%c = OpFAdd %float %f1 %f1\nOpReturn", &cl20()) else {
        return;
    };
    expect_rule(r, "env 8.2");
}

#[test]
fn saturated_conversion_only_to_integers() {
    let ok = "OpDecorate %c SaturatedConversion\n;types %float = OpTypeFloat 32\n%f1 = OpConstant %float 1";
    let Some(r) = run(&[], ok, "%c = OpConvertFToU %uint %f1\nOpReturn", &cl20()) else {
        return;
    };
    expect_ok(r);
    let bad = "OpDecorate %c SaturatedConversion\n;types %float = OpTypeFloat 32";
    let Some(r) = run(
        &[],
        bad,
        "%c = OpConvertUToF %float %uint_1\nOpReturn",
        &cl20(),
    ) else {
        return;
    };
    expect_rule(r, "SaturatedConversion only on conversions to integer");
}

#[test]
fn alignment_rules() {
    let g = "OpDecorate %v Alignment 2\n;types %pf = OpTypePointer Function %uint";
    let Some(r) = run(&[], g, "%v = OpVariable %pf Function\nOpReturn", &cl20()) else {
        return;
    };
    expect_rule(r, "Alignment of Types");
    let g = "OpDecorate %v Alignment 4\n;types %pf = OpTypePointer Function %uint";
    let Some(r) = run(&[], g, "%v = OpVariable %pf Function\nOpReturn", &cl20()) else {
        return;
    };
    expect_ok(r);
    let g = "%pf = OpTypePointer Function %uint";
    let Some(r) = run(
        &[],
        g,
        "%v = OpVariable %pf Function\n%x = OpLoad %uint %v Aligned 3\nOpReturn",
        &cl20(),
    ) else {
        return;
    };
    expect_rule(r, "Aligned must be a power of two");
}

#[test]
fn builtin_variables() {
    let ok = "OpDecorate %gid BuiltIn GlobalInvocationId\n;types %v3 = OpTypeVector %ulong 3\n\
              %pv = OpTypePointer Input %v3\n%gid = OpVariable %pv Input";
    let Some(r) = run(&[], ok, "OpReturn", &cl20()) else {
        return;
    };
    expect_ok(r);
    // Wrong size_t width for Physical64.
    let bad = "OpDecorate %gid BuiltIn GlobalInvocationId\n;types %v3 = OpTypeVector %uint 3\n\
               %pv = OpTypePointer Input %v3\n%gid = OpVariable %pv Input";
    let Some(r) = run(&[], bad, "OpReturn", &cl20()) else {
        return;
    };
    expect_rule(r, "required SPIR-V type of a built-in");
    // Not Input storage.
    let bad = "OpDecorate %gid BuiltIn GlobalInvocationId\n;types %v3 = OpTypeVector %ulong 3\n\
               %pv = OpTypePointer CrossWorkgroup %v3\n%gid = OpVariable %pv CrossWorkgroup";
    let Some(r) = run(&[], bad, "OpReturn", &cl20()) else {
        return;
    };
    expect_rule(r, "Input storage class");
    // UniformConstant built-ins, as SPIR-V 1.0-1.2 producers (llvm-spirv before 2020) emit them:
    // env v2.2-7 states no storage class for built-ins, so a 1.0-1.2 module may use them in
    // every environment (spirv-val accepts them too); from SPIR-V 1.3 only the 3.0 environment
    // governs, and it requires Input.
    let uc = "OpDecorate %gid BuiltIn GlobalInvocationId\nOpDecorate %gid Constant\n;types \
              %v3 = OpTypeVector %ulong 3\n%pv = OpTypePointer UniformConstant %v3\n\
              %gid = OpVariable %pv UniformConstant";
    let body = "%x = OpLoad %v3 %gid\nOpReturn";
    let cl30 = Env::opencl(ClVersion::Cl30, Profile::Full, 64);
    for (env, version) in [
        (cl12(), "1.0"),
        (cl20(), "1.0"),
        (cl30.clone(), "1.0"),
        (cl30.clone(), "1.2"),
    ] {
        let Some(r) = check_text(&kernel(&[], uc, body), version, &env) else {
            return;
        };
        expect_ok(r);
    }
    let Some(r) = check_text(&kernel(&[], uc, body), "1.3", &cl30) else {
        return;
    };
    expect_rule(r, "Input storage class");
    // Sub-group built-ins need sub-groups.
    let sg = "OpDecorate %s BuiltIn SubgroupMaxSize\n;types %pu = OpTypePointer Input %uint\n%s = OpVariable %pu Input";
    let Some(r) = run(&[], sg, "OpReturn", &cl20()) else {
        return;
    };
    expect_rule(r, "supported BuiltIn decorations");
    let Some(r) = run(
        &[],
        sg,
        "OpReturn",
        &Env::opencl(ClVersion::Cl21, Profile::Full, 64),
    ) else {
        return;
    };
    expect_ok(r);
    // WorkDim is a 32-bit integer.
    let wd = "OpDecorate %s BuiltIn WorkDim\n;types %pu = OpTypePointer Input %ulong\n%s = OpVariable %pu Input";
    let Some(r) = run(&[], wd, "OpReturn", &cl20()) else {
        return;
    };
    expect_rule(r, "required SPIR-V type of a built-in");
}

// ---- extended instruction sets and printf

#[test]
fn ext_inst_imports() {
    let text = kernel(&[], "", "OpReturn").replace(
        "%ocl = OpExtInstImport \"OpenCL.std\"",
        "%ocl = OpExtInstImport \"GLSL.std.450\"",
    );
    let Some(r) = check_text(&text, "1.0", &cl20()) else {
        return;
    };
    expect_rule(r, "Extended Instruction Sets");
    let text = kernel(&[], "", "OpReturn").replace(
        "%ocl = OpExtInstImport \"OpenCL.std\"",
        "%ocl = OpExtInstImport \"OpenCL.DebugInfo.100\"",
    );
    let Some(r) = check_text(&text, "1.0", &cl20()) else {
        return;
    };
    expect_rule(r, "Extended Instruction Sets");
    let Some(r) = check_text(
        &text,
        "1.0",
        &cl20().with_extension("cl_khr_spirv_extended_debug_info"),
    ) else {
        return;
    };
    expect_ok(r);
    // NonSemantic.* sets need SPV_KHR_non_semantic_info, which every environment accepts.
    let imported = kernel(&[], "", "OpReturn").replace(
        "%ocl = OpExtInstImport \"OpenCL.std\"",
        "%ocl = OpExtInstImport \"NonSemantic.Oxcl.Test\"",
    );
    let Some(r) = check_text(&imported, "1.0", &cl20()) else {
        return;
    };
    expect_rule(r, "Extended Instruction Sets");
    let declared = imported.replace(
        "%ocl = OpExtInstImport",
        "OpExtension \"SPV_KHR_non_semantic_info\"\n%ocl = OpExtInstImport",
    );
    let Some(r) = check_text(&declared, "1.0", &cl20()) else {
        return;
    };
    expect_ok(r);
}

fn printf_globals(format: &str) -> String {
    let mut bytes: Vec<u8> = format.bytes().collect();
    bytes.push(0);
    let mut g = String::from(
        "%uchar = OpTypeInt 8 0\n%float = OpTypeFloat 32\n%f1 = OpConstant %float 1\n",
    );
    let mut names = Vec::new();
    for (k, b) in bytes.iter().enumerate() {
        g += &format!("%ch{k} = OpConstant %uchar {b}\n");
        names.push(format!("%ch{k}"));
    }
    g += &format!(
        "%len = OpConstant %ulong {}\n%arr = OpTypeArray %uchar %len\n%parr = OpTypePointer UniformConstant %arr\n\
         %pch = OpTypePointer UniformConstant %uchar\n%str = OpConstantComposite %arr {}\n\
         %fmt = OpVariable %parr UniformConstant %str\n",
        bytes.len(),
        names.join(" ")
    );
    g
}

#[test]
fn printf_operands() {
    let body = |args: &str| {
        format!("%p = OpInBoundsPtrAccessChain %pch %fmt %ulong_0 %ulong_0\n%r = OpExtInst %uint %ocl printf %p {args}\nOpReturn")
    };
    let Some(r) = run(
        &["Int8"],
        &printf_globals("%d %f\n"),
        &body("%uint_1 %f1"),
        &cl20(),
    ) else {
        return;
    };
    expect_ok(r);
    let Some(r) = run(
        &["Int8"],
        &printf_globals("%d %f\n"),
        &body("%f1 %uint_1"),
        &cl20(),
    ) else {
        return;
    };
    expect_rule(r, "Printf Operands");
    let Some(r) = run(
        &["Int8"],
        &printf_globals("%d %d\n"),
        &body("%uint_1"),
        &cl20(),
    ) else {
        return;
    };
    expect_rule(r, "Printf Operands");
    let Some(r) = run(
        &["Int8"],
        &printf_globals("%lld\n"),
        &body("%ulong_0"),
        &cl20(),
    ) else {
        return;
    };
    expect_rule(r, "Printf Operands");
}

// ---- capabilities, versions, extensions

#[test]
fn optional_capabilities_need_extensions_or_features() {
    let g = "%double = OpTypeFloat 64";
    let Some(r) = run(&["Float64"], g, "OpReturn", &cl20()) else {
        return;
    };
    expect_rule(r, "capabilities an OpenCL environment supports");
    let Some(r) = run(
        &["Float64"],
        g,
        "OpReturn",
        &cl20().with_extension("cl_khr_fp64"),
    ) else {
        return;
    };
    expect_ok(r);
    let env30 = Env::opencl(ClVersion::Cl30, Profile::Full, 64);
    let Some(r) = run(
        &["Float64"],
        g,
        "OpReturn",
        &env30.clone().with_feature(feature::FP64),
    ) else {
        return;
    };
    expect_ok(r);
    let h = "%half = OpTypeFloat 16";
    let Some(r) = run(&["Float16"], h, "OpReturn", &cl20()) else {
        return;
    };
    expect_rule(r, "capabilities an OpenCL environment supports");
    let Some(r) = run(
        &["Float16"],
        h,
        "OpReturn",
        &cl20().with_extension("cl_khr_fp16"),
    ) else {
        return;
    };
    expect_ok(r);
    // Float16Buffer is always supported.
    let Some(r) = run(&["Float16Buffer"], h, "OpReturn", &cl20()) else {
        return;
    };
    expect_ok(r);
}

#[test]
fn capabilities_per_version_and_profile() {
    // GenericPointer: 2.x yes, 1.2 no, 3.0 only with the feature.
    let Some(r) = run(&["GenericPointer"], "", "OpReturn", &cl20()) else {
        return;
    };
    expect_ok(r);
    let Some(r) = run(&["GenericPointer"], "", "OpReturn", &cl12()) else {
        return;
    };
    expect_rule(r, "capabilities an OpenCL environment supports");
    let env30 = Env::opencl(ClVersion::Cl30, Profile::Full, 64);
    let Some(r) = run(&["GenericPointer"], "", "OpReturn", &env30) else {
        return;
    };
    expect_rule(r, "capabilities an OpenCL environment supports");
    let Some(r) = run(
        &["GenericPointer"],
        "",
        "OpReturn",
        &env30.clone().with_feature(feature::GENERIC_ADDRESS_SPACE),
    ) else {
        return;
    };
    expect_ok(r);
    // Pipes: 2.0 yes, 1.2 no.
    let Some(r) = run(&["Pipes"], "", "OpReturn", &cl12()) else {
        return;
    };
    expect_rule(r, "capabilities an OpenCL environment supports");
    // Int64 in the embedded profile needs cles_khr_int64.
    let emb = Env::opencl(ClVersion::Cl20, Profile::Embedded, 64);
    let Some(r) = run(&[], "", "OpReturn", &emb) else {
        return;
    };
    expect_rule(r, "capabilities an OpenCL environment supports");
    let Some(r) = run(
        &[],
        "",
        "OpReturn",
        &emb.clone().with_extension("cles_khr_int64"),
    ) else {
        return;
    };
    expect_ok(r);
    // Shader capabilities are never supported.
    let Some(r) = run(&["Shader"], "", "OpReturn", &cl20()) else {
        return;
    };
    expect_rule(r, "capabilities an OpenCL environment supports");
    // LiteralSampler needs ImageBasic declared.
    let env = images_env();
    let Some(r) = run(&["LiteralSampler"], "", "OpReturn", &env) else {
        return;
    };
    expect_rule(r, "capabilities an OpenCL environment supports");
    let Some(r) = run(&["ImageBasic", "LiteralSampler"], "", "OpReturn", &env) else {
        return;
    };
    expect_ok(r);
}

#[test]
fn instructions_need_declared_capabilities() {
    // OpTypePipe needs Pipes.
    let Some(r) = run(&[], "%pipe = OpTypePipe ReadOnly", "OpReturn", &cl20()) else {
        return;
    };
    expect_rule(r, "capabilities used must be declared");
    let Some(r) = run(
        &["Pipes"],
        "%pipe = OpTypePipe ReadOnly",
        "OpReturn",
        &cl20(),
    ) else {
        return;
    };
    expect_ok(r);
    // Storage class Generic needs GenericPointer.
    let Some(r) = run(
        &[],
        "%pg = OpTypePointer Generic %uint",
        "OpReturn",
        &cl20(),
    ) else {
        return;
    };
    expect_rule(r, "capabilities used must be declared");
}

#[test]
fn spirv_versions_per_environment() {
    let text = kernel(&[], "", "OpReturn");
    let Some(r) = check_text(&text, "1.1", &cl20()) else {
        return;
    };
    expect_rule(r, "SPIR-V versions an OpenCL environment accepts");
    let Some(r) = check_text(
        &text,
        "1.2",
        &Env::opencl(ClVersion::Cl22, Profile::Full, 64),
    ) else {
        return;
    };
    expect_ok(r);
    let Some(r) = check_text(
        &text,
        "1.3",
        &Env::opencl(ClVersion::Cl22, Profile::Full, 64),
    ) else {
        return;
    };
    expect_rule(r, "SPIR-V versions an OpenCL environment accepts");
    let Some(r) = check_text(
        &text,
        "1.4",
        &Env::opencl(ClVersion::Cl30, Profile::Full, 64),
    ) else {
        return;
    };
    expect_ok(r);
}

#[test]
fn instructions_newer_than_the_module() {
    // OpSizeOf appeared in SPIR-V 1.1.
    let g = "%pf = OpTypePointer Function %uint";
    let body = "%v = OpVariable %pf Function\n%s = OpSizeOf %uint %v\nOpReturn";
    let Some(r) = run(&[], g, body, &cl20()) else {
        return;
    };
    expect_rule(r, "exist in the module's version");
    let env22 = Env::opencl(ClVersion::Cl22, Profile::Full, 64);
    let Some(r) = check_text(&kernel(&[], g, body), "1.1", &env22) else {
        return;
    };
    expect_ok(r);
}

#[test]
fn extensions_must_be_supported() {
    let text = kernel(&[], "", "OpReturn").replace(
        "%ocl = ",
        "OpExtension \"SPV_KHR_no_integer_wrap_decoration\"\n%ocl = ",
    );
    let Some(r) = check_text(&text, "1.0", &cl20()) else {
        return;
    };
    expect_rule(
        r,
        "OpExtension only for SPIR-V extensions the environment supports",
    );
    let env = cl20().with_extension("cl_khr_spirv_no_integer_wrap_decoration");
    let Some(r) = check_text(&text, "1.0", &env) else {
        return;
    };
    expect_ok(r);
}

// ---- structure

#[test]
fn used_ids_must_be_defined() {
    let Some(r) = run(
        &[],
        "",
        "%x = OpIAdd %uint %nowhere %uint_1\nOpReturn",
        &cl20(),
    ) else {
        return;
    };
    expect_rule(r, "every id used must be defined");
}

#[test]
fn result_type_must_be_a_type() {
    let Some(r) = run(
        &[],
        "",
        "%x = OpIAdd %uint_1 %uint_1 %uint_1\nOpReturn",
        &cl20(),
    ) else {
        return;
    };
    expect_rule(r, "Result Type must be a type");
}

#[test]
fn value_operand_cannot_be_a_type() {
    let Some(r) = run(
        &[],
        "",
        "%x = OpIAdd %uint %uint %uint_1\nOpReturn",
        &cl20(),
    ) else {
        return;
    };
    expect_rule(r, "a value operand cannot be a type");
}

#[test]
fn type_operands_must_be_types() {
    let Some(r) = run(&[], "%v = OpTypeVector %uint_1 4", "OpReturn", &cl20()) else {
        return;
    };
    expect_rule(r, "operand must be a type");
}

#[test]
fn module_level_forward_references() {
    let Some(r) = run(
        &["Int16"],
        "%p = OpTypePointer CrossWorkgroup %later\n%later = OpTypeInt 16 0",
        "OpReturn",
        &cl20(),
    ) else {
        return;
    };
    expect_rule(r, "defined before use");
    // Through OpTypeForwardPointer it is fine.
    let g = "OpTypeForwardPointer %pn CrossWorkgroup\n%node = OpTypeStruct %uint %pn\n%pn = OpTypePointer CrossWorkgroup %node";
    let Some(r) = run(&[], g, "OpReturn", &cl20()) else {
        return;
    };
    expect_ok(r);
}

#[test]
fn section_order() {
    let text = kernel(&[], "", "OpReturn")
        .replace("OpFunctionEnd\n", "OpFunctionEnd\nOpName %main \"late\"\n");
    let Some(r) = check_text(&text, "1.0", &cl20()) else {
        return;
    };
    expect_rule(r, "logical layout");
}

#[test]
fn blocks_end_with_a_terminator() {
    let Some(r) = run(
        &[],
        "",
        "%x = OpIAdd %uint %uint_1 %uint_1\n%next = OpLabel\nOpReturn",
        &cl20(),
    ) else {
        return;
    };
    expect_rule(r, "ends with one termination instruction");
    let Some(r) = run(
        &[],
        "",
        "OpReturn\n%x = OpIAdd %uint %uint_1 %uint_1",
        &cl20(),
    ) else {
        return;
    };
    expect_rule(r, "ends with one termination instruction");
}

#[test]
fn function_variables_first_in_first_block() {
    let g = "%pf = OpTypePointer Function %uint";
    let Some(r) = run(
        &[],
        g,
        "%x = OpIAdd %uint %uint_1 %uint_1\n%v = OpVariable %pf Function\nOpReturn",
        &cl20(),
    ) else {
        return;
    };
    expect_rule(
        r,
        "function variables are the first instructions of the first block",
    );
    let Some(r) = run(
        &[],
        g,
        "OpBranch %b\n%b = OpLabel\n%v = OpVariable %pf Function\nOpReturn",
        &cl20(),
    ) else {
        return;
    };
    expect_rule(
        r,
        "function variables are the first instructions of the first block",
    );
    let g2 = "%pf = OpTypePointer Function %uint\n%pw = OpTypePointer Workgroup %uint";
    let Some(r) = run(&[], g2, "%v = OpVariable %pw Workgroup\nOpReturn", &cl20()) else {
        return;
    };
    expect_rule(r, "Storage Class must be Function");
}

fn diamond(phi: &str) -> String {
    format!(
        "%c = OpULessThan %bool %uint_1 %uint_2\nOpSelectionMerge %m None\nOpBranchConditional %c %t %e\n\
         %t = OpLabel\n%a = OpIAdd %uint %uint_1 %uint_1\nOpBranch %m\n\
         %e = OpLabel\n%b = OpIAdd %uint %uint_2 %uint_2\nOpBranch %m\n\
         %m = OpLabel\n{phi}\nOpReturn"
    )
}

#[test]
fn phi_rules() {
    let g = "%bool = OpTypeBool";
    let Some(r) = run(&[], g, &diamond("%p = OpPhi %uint %a %t %b %e"), &cl20()) else {
        return;
    };
    expect_ok(r);
    let Some(r) = run(&[], g, &diamond("%p = OpPhi %uint %a %t"), &cl20()) else {
        return;
    };
    expect_rule(r, "one parent per predecessor");
    let Some(r) = run(
        &[],
        g,
        &diamond("%p = OpPhi %uint %a %t %b %entry"),
        &cl20(),
    ) else {
        return;
    };
    expect_rule(r, "one parent per predecessor");
    let Some(r) = run(
        &[],
        g,
        &diamond("%z = OpIAdd %uint %uint_1 %uint_1\n%p = OpPhi %uint %a %t %b %e"),
        &cl20(),
    ) else {
        return;
    };
    expect_rule(r, "must be the first instructions of a block");
    // A phi value must be available at the end of its parent.
    let Some(r) = run(&[], g, &diamond("%p = OpPhi %uint %b %t %b %e"), &cl20()) else {
        return;
    };
    expect_rule(r, "must dominate its uses");
}

#[test]
fn definitions_dominate_uses() {
    let g = "%bool = OpTypeBool";
    let Some(r) = run(&[], g, &diamond("%u = OpIAdd %uint %a %uint_1"), &cl20()) else {
        return;
    };
    expect_rule(r, "must dominate its uses");
    // Same block, use before the definition.
    let Some(r) = run(
        &[],
        "",
        "%u = OpIAdd %uint %w %uint_1\n%w = OpIAdd %uint %uint_1 %uint_1\nOpReturn",
        &cl20(),
    ) else {
        return;
    };
    expect_rule(r, "must dominate its uses");
}

#[test]
fn merge_instruction_precedes_its_branch() {
    let g = "%bool = OpTypeBool";
    let body = "%c = OpULessThan %bool %uint_1 %uint_2\nOpSelectionMerge %m None\n%z = OpIAdd %uint %uint_1 %uint_1\n\
                OpBranchConditional %c %m %m\n%m = OpLabel\nOpReturn";
    let Some(r) = run(&[], g, body, &cl20()) else {
        return;
    };
    expect_rule(r, "merge instruction immediately precedes its branch");
}

#[test]
fn branch_targets_are_labels_of_the_function() {
    let Some(r) = run(&[], "", "OpBranch %uint_1", &cl20()) else {
        return;
    };
    expect_rule(r, "branch targets are labels of the same function");
}

#[test]
fn load_store_and_call_types() {
    let g = "%pf = OpTypePointer Function %uint";
    let Some(r) = run(
        &[],
        g,
        "%v = OpVariable %pf Function\n%x = OpLoad %ulong %v\nOpReturn",
        &cl20(),
    ) else {
        return;
    };
    expect_rule(r, "OpLoad");
    let Some(r) = run(
        &[],
        g,
        "%v = OpVariable %pf Function\nOpStore %v %ulong_0\nOpReturn",
        &cl20(),
    ) else {
        return;
    };
    expect_rule(r, "OpStore");
    let text = "OpCapability Addresses\nOpCapability Kernel\nOpMemoryModel Physical64 OpenCL\n\
                OpEntryPoint Kernel %k \"k\"\n%void = OpTypeVoid\n%uint = OpTypeInt 32 0\n%u1 = OpConstant %uint 1\n\
                %fv = OpTypeFunction %void\n%fu = OpTypeFunction %void %uint\n\
                %k = OpFunction %void None %fv\n%l0 = OpLabel\n%c0 = OpFunctionCall %void %h\nOpReturn\nOpFunctionEnd\n\
                %h = OpFunction %void None %fu\n%p = OpFunctionParameter %uint\n%l1 = OpLabel\nOpReturn\nOpFunctionEnd\n";
    let Some(r) = check_text(text, "1.0", &cl20()) else {
        return;
    };
    expect_rule(r, "one argument per parameter");
}

/// Edits of an assembled module that spirv-as cannot express.
#[test]
fn edited_modules() {
    let Some(binary) = common::assemble(
        &kernel(&[], "", "%x = OpIAdd %uint %uint_1 %uint_1\nOpReturn"),
        "1.0",
    ) else {
        return;
    };
    let module = spv::read_bytes(&binary).unwrap();
    // The same id defined twice.
    let mut m = module.clone();
    let x = m
        .instructions
        .iter()
        .position(|i| i.op == Op::IAdd)
        .unwrap();
    let dup = m.instructions[x].clone();
    m.instructions.insert(x + 1, dup);
    expect_rule(validate(m, &cl20()), "an id is defined exactly once");
    // An id at or above the bound.
    let mut m = module.clone();
    m.header.bound = 3;
    expect_rule(validate(m, &cl20()), "0 < id < bound");
    // No OpMemoryModel.
    let mut m = module.clone();
    m.instructions.retain(|i| i.op != Op::MemoryModel);
    expect_rule(validate(m, &cl20()), "logical layout");
    // An instruction outside any block (label removed).
    let mut m = module.clone();
    m.instructions.retain(|i| i.op != Op::Label);
    expect_rule(validate(m, &cl20()), "a block starts with OpLabel");
    // Operands that do not fit the grammar.
    let mut m = module.clone();
    m.instructions[x]
        .operands
        .push(Operand::Str("extra".into()));
    expect_rule(validate(m, &cl20()), "operands follow the grammar");
    // An id used across functions: a second function using %x.
    let mut m = module.clone();
    let end = m.instructions.len();
    let void = m
        .instructions
        .iter()
        .find(|i| i.op == Op::TypeVoid)
        .unwrap()
        .result
        .unwrap();
    let fnty = m
        .instructions
        .iter()
        .find(|i| i.op == Op::TypeFunction)
        .unwrap()
        .result
        .unwrap();
    let uint = m
        .instructions
        .iter()
        .find(|i| i.op == Op::TypeInt)
        .unwrap()
        .result
        .unwrap();
    let xid = m.instructions[x].result.unwrap();
    let b = m.header.bound;
    m.header.bound = b + 3;
    m.instructions.extend([
        spv::Instruction::new(
            Op::Function,
            Some(void),
            Some(Id(b)),
            vec![Operand::Int(0), Operand::Id(fnty)],
        ),
        spv::Instruction::new(Op::Label, None, Some(Id(b + 1)), vec![]),
        spv::Instruction::new(
            Op::IAdd,
            Some(uint),
            Some(Id(b + 2)),
            vec![Operand::Id(xid), Operand::Id(xid)],
        ),
        spv::Instruction::new(Op::Return, None, None, vec![]),
        spv::Instruction::new(Op::FunctionEnd, None, None, vec![]),
    ]);
    assert_eq!(m.instructions.len(), end + 5);
    expect_rule(validate(m, &cl20()), "local to it");
}

#[test]
fn module_wide_rules() {
    // Non-aggregate types are declared once (SPIR-V 2.8).
    let Some(r) = run(&[], "%uint_again = OpTypeInt 32 0", "OpReturn", &cl20()) else {
        return;
    };
    expect_rule(r, "declared once");
    // Function declarations are imported and come before definitions.
    let body = "OpReturn\nOpFunctionEnd\n%decl = OpFunction %void None %fn_void";
    let Some(r) = run(&["Linkage"], "", body, &cl20()) else {
        return;
    };
    expect_rule(r, "must be decorated LinkageAttributes Import");
    let Some(r) = run(
        &["Linkage"],
        "OpDecorate %decl LinkageAttributes \"x\" Import\n;types",
        body,
        &cl20(),
    ) else {
        return;
    };
    expect_rule(r, "function declarations come before function definitions");
    // Execution modes name entry points; entry points are unique.
    let other =
        "OpReturn\nOpFunctionEnd\n%other = OpFunction %void None %fn_void\n%ol = OpLabel\nOpReturn";
    let text = kernel(&[], "", other).replace(
        "OpEntryPoint Kernel %main \"main\"\n",
        "OpEntryPoint Kernel %main \"main\"\nOpExecutionMode %other ContractionOff\n",
    );
    let Some(r) = check_text(&text, "1.0", &cl20()) else {
        return;
    };
    expect_rule(r, "Entry Point must be an entry point");
    let text = kernel(&[], "", other).replace(
        "OpEntryPoint Kernel %main \"main\"\n",
        "OpEntryPoint Kernel %main \"main\"\nOpEntryPoint Kernel %other \"main\"\n",
    );
    let Some(r) = check_text(&text, "1.0", &cl20()) else {
        return;
    };
    expect_rule(r, "Name and Execution Model are unique");
}

#[test]
fn returns_conditions_and_read_only_stores() {
    let Some(r) = run(&[], "", "OpReturnValue %uint_0", &cl20()) else {
        return;
    };
    expect_rule(r, "OpReturnValue");
    let Some(r) = run(
        &[],
        "",
        "OpSelectionMerge %m None\nOpBranchConditional %uint_1 %m %m\n%m = OpLabel\nOpReturn",
        &cl20(),
    ) else {
        return;
    };
    expect_rule(r, "Condition must be a Boolean scalar");
    let g =
        "%pc = OpTypePointer UniformConstant %uint\n%gc = OpVariable %pc UniformConstant %uint_0";
    let Some(r) = run(&[], g, "OpStore %gc %uint_1\nOpReturn", &cl20()) else {
        return;
    };
    expect_rule(r, "read-only");
}

#[test]
fn constant_sampler_type() {
    let env = images_env();
    let ok = "%s = OpTypeSampler\n%cs = OpConstantSampler %s None 0 Nearest";
    let Some(r) = run(&["ImageBasic", "LiteralSampler"], ok, "OpReturn", &env) else {
        return;
    };
    expect_ok(r);
    let bad = "%cs = OpConstantSampler %uint None 0 Nearest";
    let Some(r) = run(&["ImageBasic", "LiteralSampler"], bad, "OpReturn", &env) else {
        return;
    };
    expect_rule(r, "env 2.4.2");
}

const TYPED: &str = "%float = OpTypeFloat 32\n%f1 = OpConstant %float 1\n%v2 = OpTypeVector %uint 2\n%v4 = OpTypeVector %uint 4\n%v2c = OpConstantComposite %v2 %uint_1 %uint_2\n%bool = OpTypeBool\n%st = OpTypeStruct %uint %float\n%pst = OpTypePointer CrossWorkgroup %st\n%pfl = OpTypePointer CrossWorkgroup %float\n%gs = OpVariable %pst CrossWorkgroup";

#[test]
fn instruction_types() {
    let ok = "%a = OpIAdd %uint %uint_1 %uint_2\n%b = OpFAdd %float %f1 %f1\n%c = OpIEqual %bool %a %uint_1\n\
              %d = OpConvertUToF %float %a\n%e = OpBitcast %uint %b\n%g = OpCompositeConstruct %v4 %v2c %v2c\n\
              %h = OpVectorShuffle %v2 %g %v2c 5 4294967295\n%i = OpCompositeExtract %uint %g 3\n\
              %j = OpInBoundsAccessChain %pfl %gs %uint_1\n%k = OpSelect %uint %c %a %i\n%l = OpUConvert %ulong %a\n\
              %m = OpShiftLeftLogical %v2 %v2c %v2c\nOpReturn";
    let Some(r) = run(&[], TYPED, ok, &cl20()) else {
        return;
    };
    expect_ok(r);
    for (body, rule) in [
        (
            "%x = OpIAdd %uint %f1 %uint_1",
            "arithmetic operand and result types",
        ),
        (
            "%x = OpFAdd %uint %f1 %f1",
            "arithmetic operand and result types",
        ),
        (
            "%x = OpIEqual %uint %uint_1 %uint_2",
            "relational and logical",
        ),
        (
            "%x = OpIEqual %bool %uint_1 %ulong_0",
            "relational and logical",
        ),
        (
            "%x = OpSelect %uint %uint_1 %uint_1 %uint_2",
            "relational and logical",
        ),
        (
            "%x = OpConvertFToU %uint %uint_1",
            "conversion operand and result types",
        ),
        (
            "%x = OpUConvert %uint %uint_1",
            "conversion operand and result types",
        ),
        (
            "%x = OpBitcast %ulong %uint_1",
            "conversion operand and result types",
        ),
        (
            "%g = OpCompositeConstruct %v4 %v2c %v2c\n%x = OpCompositeExtract %uint %g 4",
            "composite instruction",
        ),
        (
            "%x = OpVectorShuffle %v2 %v2c %v2c 0 4",
            "composite instruction",
        ),
        (
            "%x = OpCompositeConstruct %v4 %v2c %uint_1",
            "composite instruction",
        ),
        (
            "%x = OpInBoundsAccessChain %pfl %gs %uint_0",
            "access chain",
        ),
        (
            "%x = OpShiftLeftLogical %v2 %v2c %uint_1",
            "bit instruction",
        ),
    ] {
        let Some(r) = run(&[], TYPED, &format!("{body}\nOpReturn"), &cl20()) else {
            return;
        };
        expect_rule(r, rule);
    }
}

#[test]
fn opencl_std_operand_types() {
    let g = "%float = OpTypeFloat 32\n%f1 = OpConstant %float 1\n%v4 = OpTypeVector %float 4";
    let Some(r) = run(&[], g, "%x = OpExtInst %float %ocl sqrt %f1\n%y = OpExtInst %uint %ocl s_max %uint_1 %uint_2\nOpReturn", &cl20()) else { return };
    expect_ok(r);
    let Some(r) = run(
        &[],
        g,
        "%x = OpExtInst %float %ocl sqrt %uint_1\nOpReturn",
        &cl20(),
    ) else {
        return;
    };
    expect_rule(r, "OpenCL.ExtendedInstructionSet.100");
    let Some(r) = run(
        &[],
        g,
        "%x = OpExtInst %uint %ocl fmax %uint_1 %uint_1\nOpReturn",
        &cl20(),
    ) else {
        return;
    };
    expect_rule(r, "OpenCL.ExtendedInstructionSet.100");
    let Some(r) = run(
        &[],
        g,
        "%x = OpExtInst %uint %ocl s_max %uint_1 %ulong_0\nOpReturn",
        &cl20(),
    ) else {
        return;
    };
    expect_rule(r, "OpenCL.ExtendedInstructionSet.100");
    let Some(r) = run(
        &[],
        g,
        "%x = OpExtInst %v4 %ocl length %f1\nOpReturn",
        &cl20(),
    ) else {
        return;
    };
    expect_rule(r, "OpenCL.ExtendedInstructionSet.100");
}

// ---- reporting

#[test]
fn all_errors_are_reported_with_location_and_citation() {
    let text = kernel(
        &[],
        "%int = OpTypeInt 32 1\n%short = OpTypeInt 16 1",
        "OpReturn",
    );
    let Some(binary) = common::assemble(&text, "1.0") else {
        return;
    };
    let errors = common::oxcl_val(&binary, &cl20()).unwrap_err();
    // Both signed types and the missing Int16 capability are reported.
    let signedness = errors
        .iter()
        .filter(|e| e.rule.contains("Signedness must be 0"))
        .count();
    assert_eq!(signedness, 2, "{errors}");
    assert!(
        errors.has_rule("capabilities used must be declared"),
        "{errors}"
    );
    // The offset is the word offset of `OpTypeInt 32 1` in the binary, found by scanning words.
    let words: Vec<u32> = binary
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let mut offset = 5;
    let mut found = None;
    while offset < words.len() {
        let (count, opcode) = (words[offset] >> 16, words[offset] & 0xffff);
        if opcode == 21 && words[offset + 2] == 32 && words[offset + 3] == 1 {
            found = Some(offset as u32);
            break;
        }
        offset += count.max(1) as usize;
    }
    let found = found.unwrap();
    let e = errors
        .iter()
        .find(|e| e.rule.contains("Signedness") && e.offset == found)
        .expect("located error");
    let shown = e.to_string();
    assert!(shown.starts_with(&format!("word {found}: ")), "{shown}");
    assert!(shown.contains("OpTypeInt 32 1"), "{shown}");
    assert!(
        shown.contains("env 2.1 (Signedness must be 0 for OpTypeInt)"),
        "{shown}"
    );
}

#[test]
fn target_env_names() {
    for (name, v, p) in [
        ("opencl1.2", ClVersion::Cl12, Profile::Full),
        ("opencl1.2embedded", ClVersion::Cl12, Profile::Embedded),
        ("opencl2.0", ClVersion::Cl20, Profile::Full),
        ("opencl2.0embedded", ClVersion::Cl20, Profile::Embedded),
        ("opencl2.1", ClVersion::Cl21, Profile::Full),
        ("opencl2.1embedded", ClVersion::Cl21, Profile::Embedded),
        ("opencl2.2", ClVersion::Cl22, Profile::Full),
        ("opencl2.2embedded", ClVersion::Cl22, Profile::Embedded),
        ("opencl3.0", ClVersion::Cl30, Profile::Full),
        ("opencl3.0embedded", ClVersion::Cl30, Profile::Embedded),
        ("opencl3.0-embedded", ClVersion::Cl30, Profile::Embedded),
    ] {
        let env = Env::from_target_env(name).unwrap();
        assert_eq!(
            (env.cl_version, env.profile, env.address_bits),
            (v, p, 64),
            "{name}"
        );
    }
    assert!(Env::from_target_env("vulkan1.0").is_err());
    assert!(Env::from_target_env("opencl1.1").is_err());
    assert!(Env::from_target_env("opencl2.0embeddedx").is_err());
}

// ---- env 2.1 image writes, env 7.2.2 depth reads, env 7.2.7 multi-sampled images,
// ---- env 7.2.8 64-bit atomics

/// OpenCL 2.0 with image support.
fn cl20_images() -> Env {
    cl20().with_feature(feature::IMAGES)
}

/// A kernel taking an image of type `ty` as `%im` and running `stmt`; declares `%float`, `%v4f`,
/// `%v2u`, `%cz` (a null coordinate) and `%fz` (a null color).
fn param_image_kernel(caps: &[&str], ty: &str, stmt: &str) -> String {
    let mut all = vec!["ImageBasic"];
    all.extend_from_slice(caps);
    kernel(
        &all,
        &format!(
            "%float = OpTypeFloat 32\n%img = {ty}\n%v4f = OpTypeVector %float 4\n\
             %v2u = OpTypeVector %uint 2\n%cz = OpConstantNull %v2u\n%fz = OpConstantNull %v4f\n%fn_img = OpTypeFunction %void %img"
        ),
        "OpReturn",
    )
    .replace("%main = OpFunction %void None %fn_void", "%main = OpFunction %void None %fn_img")
    .replace(
        "%entry = OpLabel\n",
        &format!("%im = OpFunctionParameter %img\n%entry = OpLabel\n{stmt}\n"),
    )
}

/// env 2.1 (seed 000): "The image write instruction OpImageWrite must not include any optional
/// Image Operands"; env 7.2.10: with cl_khr_mipmap_image_writes a Lod is accepted.
#[test]
fn image_write_takes_no_image_operands() {
    let ty = "OpTypeImage %void 2D 0 0 0 0 Unknown WriteOnly";
    let Some(r) = check_text(
        &param_image_kernel(&[], ty, "OpImageWrite %im %cz %fz"),
        "1.0",
        &cl20_images(),
    ) else {
        return;
    };
    expect_ok(r);
    for operands in ["Lod %uint_0", "Sample %uint_0"] {
        let text = param_image_kernel(&[], ty, &format!("OpImageWrite %im %cz %fz {operands}"));
        let r = check_text(&text, "1.0", &cl20_images()).unwrap();
        expect_rule(
            r,
            "OpImageWrite must not include any optional Image Operands",
        );
    }
    let env = cl20_images()
        .with_extension("cl_khr_mipmap_image")
        .with_extension("cl_khr_mipmap_image_writes");
    let text = param_image_kernel(&["ImageMipmap"], ty, "OpImageWrite %im %cz %fz Lod %uint_1");
    expect_ok(check_text(&text, "1.0", &env).unwrap());
}

/// env 7.2.2 with OpenCL C `read_imagef` of a depth image returning `float` (and spirv-val's
/// OpenCL rule "Expected Result Type from a depth image read to result in a scalar float").
#[test]
fn depth_image_reads_return_a_scalar_float() {
    let ty = "OpTypeImage %void 2D 1 0 0 0 Unknown ReadOnly";
    let Some(r) = check_text(
        &param_image_kernel(&[], ty, "%r = OpImageRead %float %im %cz"),
        "1.0",
        &cl20_images(),
    ) else {
        return;
    };
    expect_ok(r);
    let r = check_text(
        &param_image_kernel(&[], ty, "%r = OpImageRead %v4f %im %cz"),
        "1.0",
        &cl20_images(),
    )
    .unwrap();
    expect_rule(r, "a depth image read returns a scalar float");
}

/// env 7.2.7: "The 2D multi-sampled images may be used with the following instructions:
/// OpImageRead, OpImageQuerySizeLod, OpImageQueryFormat, OpImageQueryOrder, OpImageQuerySamples".
#[test]
fn multi_sampled_images_only_with_the_listed_instructions() {
    let env = cl20_images().with_extension("cl_khr_gl_msaa_sharing");
    let ty = "OpTypeImage %void 2D 0 0 1 0 Unknown ReadOnly";
    let Some(r) = check_text(
        &param_image_kernel(
            &[],
            ty,
            "%r = OpImageRead %v4f %im %cz Sample %uint_1\n%n = OpImageQuerySamples %uint %im",
        ),
        "1.0",
        &env,
    ) else {
        return;
    };
    expect_ok(r);
    let r = check_text(
        &param_image_kernel(
            &[],
            ty,
            "%f = OpImageQueryFormat %uint %im\n%l = OpImageQueryLevels %uint %im",
        ),
        "1.0",
        &env,
    )
    .unwrap();
    expect_rule(r, "2D multi-sampled images are used only with");
}

/// env 7.2.8: "When the WorkgroupMemory Memory Semantic is used the Scope must be Workgroup"
/// (64-bit atomics); 32-bit atomics are not concerned.
#[test]
fn wide_atomics_with_workgroup_memory_use_the_workgroup_scope() {
    let env = cl20().with_extension("cl_khr_int64_base_atomics");
    let globals = "%pl = OpTypePointer Workgroup %ulong\n%gl = OpVariable %pl Workgroup\n\
                   %pu = OpTypePointer Workgroup %uint\n%gu = OpVariable %pu Workgroup\n\
                   %l1 = OpConstant %ulong 1\n%sem = OpConstant %uint 256";
    let caps = ["Int64Atomics"];
    let ok = "%a = OpAtomicIAdd %ulong %gl %uint_2 %sem %l1\n\
              %b = OpAtomicIAdd %uint %gu %uint_1 %sem %uint_1\nOpReturn";
    let Some(r) = run(&caps, globals, ok, &env) else {
        return;
    };
    expect_ok(r);
    let bad = "%a = OpAtomicIAdd %ulong %gl %uint_1 %sem %l1\nOpReturn";
    expect_rule(
        run(&caps, globals, bad, &env).unwrap(),
        "when the WorkgroupMemory Memory Semantic is used the Scope must be Workgroup",
    );
}

// ---- SPIR-V 3.32.5 entry point interfaces, SPIR-V 3.20 Constant

/// SPIR-V 3.32.5 (1.0–1.3): the interface is "a superset of those [Input / Output variables]
/// referenced by the entry point's static call tree"; a helper function's use counts.
#[test]
fn interface_lists_the_input_variables_of_the_call_tree() {
    let globals =
        "OpDecorate %gid BuiltIn GlobalInvocationId\n;types %v3 = OpTypeVector %ulong 3\n\
                   %pv = OpTypePointer Input %v3\n%gid = OpVariable %pv Input";
    let body = "%r = OpFunctionCall %void %helper\nOpReturn\nOpFunctionEnd\n\
                %helper = OpFunction %void None %fn_void\n%hl = OpLabel\n%x = OpLoad %v3 %gid\nOpReturn";
    let Some(r) = run(&[], globals, body, &cl20()) else {
        return;
    };
    expect_rule(r, "superset of the Input / Output variables");
    let listed = kernel(&[], globals, body).replace(
        "OpEntryPoint Kernel %main \"main\"\n",
        "OpEntryPoint Kernel %main \"main\" %gid\n",
    );
    expect_ok(check_text(&listed, "1.0", &cl20()).unwrap());
}

/// SPIR-V 3.20 Decoration: Constant "Indicates that a global variable is constant" — it
/// decorates variables only.
#[test]
fn constant_decorates_variables_only() {
    let Some(r) = run(
        &[],
        "OpDecorate %uint_1 Constant\n;types",
        "OpReturn",
        &cl20(),
    ) else {
        return;
    };
    expect_rule(r, "Constant: indicates that a global variable is constant");
}

/// SPIR-V 2.16.1: a function's result id is not a value; it is named by OpFunctionCall,
/// entry points, execution modes, annotations and the Invoke operands of device-side enqueue.
#[test]
fn a_function_is_not_a_value() {
    let body = "%v = OpVariable %pf Function\nOpStore %v %main\nOpReturn";
    let Some(r) = run(&[], "%pf = OpTypePointer Function %uint", body, &cl20()) else {
        return;
    };
    expect_rule(
        r,
        "a function's id is used only as the Function of OpFunctionCall",
    );
}

/// The CLK_NULL_EVENT tolerance (llvm-spirv-15's `OpConvertUToPtr %DeviceEvent %constant`) is
/// exactly that pattern: SPIR-V 3.32.11 ("Result Type must be a physical pointer type")
/// still rejects a non-constant operand converted to a device event and a constant converted
/// to any other non-pointer type.
#[test]
fn convert_u_to_ptr_device_event_tolerance_is_narrow() {
    let globals = "%dev = OpTypeDeviceEvent\n\
                   %ulong_max = OpConstant %ulong 18446744073709551615\n";
    let caps = ["DeviceEnqueue"];
    let ok = kernel(
        &caps,
        globals,
        "%e = OpConvertUToPtr %dev %ulong_max\nOpReturn",
    );
    if let Some(r) = check_text(&ok, "1.0", &cl20()) {
        expect_ok(r);
    }
    // spirv-val, without the tolerance, rejects even the producer pattern.
    if let Some(binary) = common::assemble(&ok, "1.0") {
        if let Some((valid, log)) = common::spirv_val(&binary, "opencl2.0") {
            assert!(
                !valid,
                "spirv-val accepted OpConvertUToPtr to OpTypeDeviceEvent"
            );
            assert!(log.contains("ConvertUToPtr"), "{log}");
        }
    }
    let zero = kernel(
        &caps,
        globals,
        "%e = OpConvertUToPtr %dev %ulong_0\nOpReturn",
    );
    if let Some(r) = check_text(&zero, "1.0", &cl20()) {
        expect_ok(r);
    }
    // A value computed at run time is not the producer pattern.
    let computed = kernel(
        &caps,
        globals,
        "%x = OpIAdd %ulong %ulong_max %ulong_0\n\
         %e = OpConvertUToPtr %dev %x\nOpReturn",
    );
    if let Some(r) = check_text(&computed, "1.0", &cl20()) {
        expect_rule(r, "SPIR-V 3.32.11");
    }
    // Another non-pointer Result Type (an integer) stays invalid.
    let to_int = kernel(
        &caps,
        globals,
        "%e = OpConvertUToPtr %uint %ulong_max\nOpReturn",
    );
    if let Some(r) = check_text(&to_int, "1.0", &cl20()) {
        expect_rule(r, "SPIR-V 3.32.11");
    }
}
