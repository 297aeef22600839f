//! Agreement with spirv-val: a corpus of valid and invalid modules on rules that both
//! validators check, where oxcl's verdict must equal `spirv-val --target-env` for OpenCL 1.2,
//! 2.0, 2.1 and 2.2 (the `Env::from_target_env` environment of the same name).

#[path = "valid/common.rs"]
mod common;

use common::{kernel, module_rest};
use spv::valid::Env;

const ENVS: [&str; 4] = ["opencl1.2", "opencl2.0", "opencl2.1", "opencl2.2"];

/// A kernel module for SPIR-V `version` with the given capabilities, annotations/globals, body.
fn k(version: &'static str, caps: &[&str], globals: &str, body: &str) -> (&'static str, String) {
    (version, kernel(caps, globals, body))
}

/// A module from its header lines (capabilities … entry points) and the rest.
fn raw(version: &'static str, head: &str, globals: &str, body: &str) -> (&'static str, String) {
    (version, format!("{head}\n{}", module_rest(globals, body)))
}

const HEAD_NO_INT64: &str = "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\n";

fn diamond(phi: &str) -> String {
    format!(
        "%c = OpULessThan %bool %uint_1 %uint_2\nOpSelectionMerge %m None\nOpBranchConditional %c %t %e\n\
         %t = OpLabel\n%a = OpIAdd %uint %uint_1 %uint_1\nOpBranch %m\n\
         %e = OpLabel\n%b = OpIAdd %uint %uint_2 %uint_2\nOpBranch %m\n\
         %m = OpLabel\n{phi}\nOpReturn"
    )
}

const LOOP: &str = "OpBranch %h\n%h = OpLabel\n%i = OpPhi %uint %uint_0 %entry %n %body\n\
                    %c = OpULessThan %bool %i %uint_2\nOpLoopMerge %exit %body None\nOpBranchConditional %c %body %exit\n\
                    %body = OpLabel\n%n = OpIAdd %uint %i %uint_1\nOpBranch %h\n%exit = OpLabel\nOpReturn";

const ATOMIC_GLOBALS: &str = "%ushort = OpTypeInt 16 0\n%pg = OpTypePointer CrossWorkgroup %uint\n\
    %pl = OpTypePointer CrossWorkgroup %ulong\n%ps = OpTypePointer CrossWorkgroup %ushort\n\
    %pc = OpTypePointer UniformConstant %uint\n%g = OpVariable %pg CrossWorkgroup\n%gl = OpVariable %pl CrossWorkgroup\n\
    %gs = OpVariable %ps CrossWorkgroup\n%gc = OpVariable %pc UniformConstant %uint_0\n%s1 = OpConstant %ushort 1\n\
    %l1 = OpConstant %ulong 1";

fn image(ty: &str) -> String {
    format!("%float = OpTypeFloat 32\n%img = {ty}")
}

/// A kernel taking an image of type `ty` as `%im`, running `stmt` first; declares `%float`,
/// `%v4f`, `%v2u` and the null constants `%cz` (coordinate) and `%fz` (color).
fn ik(ty: &str, stmt: &str) -> (&'static str, String) {
    let globals = format!(
        "{}\n%v4f = OpTypeVector %float 4\n%v2u = OpTypeVector %uint 2\n%cz = OpConstantNull %v2u\n%fz = OpConstantNull %v4f\n%fn_img = OpTypeFunction %void %img",
        image(ty)
    );
    let (v, text) = k("1.0", &["ImageBasic"], &globals, "OpReturn");
    let text = text
        .replace(
            "%main = OpFunction %void None %fn_void",
            "%main = OpFunction %void None %fn_img",
        )
        .replace(
            "%entry = OpLabel\n",
            &format!("%im = OpFunctionParameter %img\n%entry = OpLabel\n{stmt}\n"),
        );
    (v, text)
}

fn corpus() -> Vec<(&'static str, (&'static str, String))> {
    let b = "%bool = OpTypeBool";
    vec![
        // ---- valid everywhere
        ("template", k("1.0", &[], "", "OpReturn")),
        ("small types", k("1.0", &["Int8", "Int16", "Vector16", "Float16Buffer"], "%c = OpTypeInt 8 0\n%s = OpTypeInt 16 0\n%v = OpTypeVector %c 16\n%h = OpTypeFloat 16", "OpReturn")),
        ("double", k("1.0", &["Float64"], "%d = OpTypeFloat 64\n%d1 = OpConstant %d 1", "OpReturn")),
        ("image 2D", k("1.0", &["ImageBasic"], &image("OpTypeImage %void 2D 0 0 0 0 Unknown ReadOnly"), "OpReturn")),
        ("image 1D array", k("1.0", &["ImageBasic", "Sampled1D", "Image1D"], &image("OpTypeImage %void 1D 0 1 0 0 Unknown WriteOnly"), "OpReturn")),
        ("phi diamond", k("1.0", &[], b, &diamond("%p = OpPhi %uint %a %t %b %e"))),
        ("loop", k("1.0", &[], b, LOOP)),
        ("call", raw("1.0", "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\nOpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %main \"main\"", "", "%r = OpFunctionCall %void %helper\nOpReturn\nOpFunctionEnd\n%helper = OpFunction %void None %fn_void\n%hl = OpLabel\nOpReturn")),
        ("atomic device relaxed", k("1.0", &["Int16"], ATOMIC_GLOBALS, "%a = OpAtomicIAdd %uint %g %uint_1 %uint_0 %uint_1\nOpReturn")),
        ("barrier", k("1.0", &[], "%sem = OpConstant %uint 272", "OpControlBarrier %uint_2 %uint_2 %sem\nOpReturn")),
        ("forward pointer", k("1.0", &[], "OpTypeForwardPointer %pn CrossWorkgroup\n%node = OpTypeStruct %uint %pn\n%pn = OpTypePointer CrossWorkgroup %node", "OpReturn")),
        // ---- valid for some versions only
        ("generic pointer", k("1.0", &["GenericPointer"], "%pg = OpTypePointer Generic %uint", "OpReturn")),
        ("pipes", k("1.0", &["Pipes"], "%pipe = OpTypePipe ReadOnly", "OpReturn")),
        ("device enqueue", k("1.0", &["DeviceEnqueue"], "%q = OpTypeQueue", "OpReturn")),
        ("groups", k("1.0", &["Groups"], "", "OpReturn")),
        ("read-write image", k("1.0", &["ImageBasic", "ImageReadWrite"], &image("OpTypeImage %void 2D 0 0 0 0 Unknown ReadWrite"), "OpReturn")),
        ("SPIR-V 1.1", k("1.1", &[], "", "OpReturn")),
        ("SPIR-V 1.2", k("1.2", &[], "", "OpReturn")),
        ("SPIR-V 1.3", k("1.3", &[], "", "OpReturn")),
        ("subgroup dispatch", k("1.1", &["SubgroupDispatch"], "", "OpReturn")),
        // ---- invalid everywhere
        ("float16", k("1.0", &["Float16"], "%h = OpTypeFloat 16", "OpReturn")),
        ("int64 atomics capability", k("1.0", &["Int64Atomics"], "", "OpReturn")),
        ("shader capability", k("1.0", &["Shader"], "", "OpReturn")),
        ("literal sampler without images", k("1.0", &["LiteralSampler"], "", "OpReturn")),
        ("signed int", k("1.0", &[], "%int = OpTypeInt 32 1", "OpReturn")),
        ("vector of 5", k("1.0", &[], "%v = OpTypeVector %uint 5", "OpReturn")),
        ("vector of 16 without Vector16", k("1.0", &[], "%v = OpTypeVector %uint 16", "OpReturn")),
        ("int8 without capability", k("1.0", &[], "%c = OpTypeInt 8 0", "OpReturn")),
        ("double without capability", k("1.0", &[], "%d = OpTypeFloat 64", "OpReturn")),
        ("image sampled 1", k("1.0", &["ImageBasic"], &image("OpTypeImage %void 2D 0 0 0 1 Unknown ReadOnly"), "OpReturn")),
        ("image without access qualifier", k("1.0", &["ImageBasic"], &image("OpTypeImage %void 2D 0 0 0 0 Unknown"), "OpReturn")),
        ("image arrayed 3D", k("1.0", &["ImageBasic"], &image("OpTypeImage %void 3D 0 1 0 0 Unknown ReadOnly"), "OpReturn")),
        ("image multisampled", k("1.0", &["ImageBasic"], &image("OpTypeImage %void 2D 0 0 1 0 Unknown ReadOnly"), "OpReturn")),
        ("image float sampled type", k("1.0", &["ImageBasic"], &image("OpTypeImage %float 2D 0 0 0 0 Unknown ReadOnly"), "OpReturn")),
        ("execution model GLCompute", raw("1.0", &format!("{HEAD_NO_INT64}OpCapability Shader\nOpMemoryModel Physical64 OpenCL\nOpEntryPoint GLCompute %main \"main\"\nOpExecutionMode %main LocalSize 1 1 1"), "", "OpReturn")),
        ("atomic 64-bit", k("1.0", &["Int16"], ATOMIC_GLOBALS, "%a = OpAtomicIAdd %ulong %gl %uint_1 %uint_0 %l1\nOpReturn")),
        ("atomic on UniformConstant", k("1.0", &["Int16"], ATOMIC_GLOBALS, "%a = OpAtomicIAdd %uint %gc %uint_1 %uint_0 %uint_1\nOpReturn")),
        ("undefined id", k("1.0", &[], "", "%x = OpIAdd %uint %nowhere %uint_1\nOpReturn")),
        ("result type not a type", k("1.0", &[], "", "%x = OpIAdd %uint_1 %uint_1 %uint_1\nOpReturn")),
        ("operand is a type", k("1.0", &[], "", "%x = OpIAdd %uint %uint %uint_1\nOpReturn")),
        ("missing terminator", k("1.0", &[], "", "%x = OpIAdd %uint %uint_1 %uint_1\n%next = OpLabel\nOpReturn")),
        ("phi missing parent", k("1.0", &[], b, &diamond("%p = OpPhi %uint %a %t"))),
        ("phi after other instruction", k("1.0", &[], b, &diamond("%z = OpIAdd %uint %uint_1 %uint_1\n%p = OpPhi %uint %a %t %b %e"))),
        ("use not dominated", k("1.0", &[], b, &diamond("%u = OpIAdd %uint %a %uint_1"))),
        ("use before def in block", k("1.0", &[], "", "%u = OpIAdd %uint %w %uint_1\n%w = OpIAdd %uint %uint_1 %uint_1\nOpReturn")),
        ("variable not first", k("1.0", &[], "%pf = OpTypePointer Function %uint", "%x = OpIAdd %uint %uint_1 %uint_1\n%v = OpVariable %pf Function\nOpReturn")),
        ("type forward reference", k("1.0", &["Int16"], "%p = OpTypePointer CrossWorkgroup %later\n%later = OpTypeInt 16 0", "OpReturn")),
        ("name after types", (("1.0"), kernel(&[], "", "OpReturn").replace("OpFunctionEnd\n", "OpFunctionEnd\nOpName %main \"late\"\n"))),
        ("load type mismatch", k("1.0", &[], "%pf = OpTypePointer Function %uint", "%v = OpVariable %pf Function\n%x = OpLoad %ulong %v\nOpReturn")),
        ("kernel returns int", raw("1.0", "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\nOpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %f \"f\"", "", "OpReturn\nOpFunctionEnd\n%ft = OpTypeFunction %uint\n%f = OpFunction %uint None %ft\n%fl = OpLabel\nOpReturnValue %uint_0")),
        ("logical addressing", raw("1.0", &format!("{HEAD_NO_INT64}OpMemoryModel Logical OpenCL\nOpEntryPoint Kernel %main \"main\""), "", "OpReturn")),
        ("branch to non-label", k("1.0", &[], "", "OpBranch %uint_1")),
        ("duplicate int type", k("1.0", &[], "%uint_again = OpTypeInt 32 0", "OpReturn")),
        ("duplicate function type", k("1.0", &[], "%fn_again = OpTypeFunction %void", "OpReturn")),
        ("duplicate pointer types", k("1.0", &[], "%p1 = OpTypePointer CrossWorkgroup %uint\n%p2 = OpTypePointer CrossWorkgroup %uint", "OpReturn")),
        ("declaration not imported", k("1.0", &["Linkage"], "", "OpReturn\nOpFunctionEnd\n%decl = OpFunction %void None %fn_void")),
        ("declaration after definition", k("1.0", &["Linkage"], "OpDecorate %decl LinkageAttributes \"ext\" Import\n;types", "OpReturn\nOpFunctionEnd\n%decl = OpFunction %void None %fn_void")),
        ("execution mode on a non-entry point", (("1.0"), kernel(&[], "", "OpReturn\nOpFunctionEnd\n%other = OpFunction %void None %fn_void\n%ol = OpLabel\nOpReturn").replace("OpEntryPoint Kernel %main \"main\"\n", "OpEntryPoint Kernel %main \"main\"\nOpExecutionMode %other ContractionOff\n"))),
        ("execution mode on the kernel", (("1.0"), kernel(&[], "", "OpReturn").replace("OpEntryPoint Kernel %main \"main\"\n", "OpEntryPoint Kernel %main \"main\"\nOpExecutionMode %main LocalSize 64 1 1\n"))),
        ("duplicate entry point name", (("1.0"), kernel(&[], "", "OpReturn\nOpFunctionEnd\n%other = OpFunction %void None %fn_void\n%ol = OpLabel\nOpReturn").replace("OpEntryPoint Kernel %main \"main\"\n", "OpEntryPoint Kernel %main \"main\"\nOpEntryPoint Kernel %other \"main\"\n"))),
        ("declaration imported", (("1.0"), String::from(
            "OpCapability Addresses\nOpCapability Kernel\nOpCapability Linkage\nOpMemoryModel Physical64 OpenCL\n\
             OpEntryPoint Kernel %main \"main\"\nOpDecorate %decl LinkageAttributes \"ext\" Import\n\
             %void = OpTypeVoid\n%fn_void = OpTypeFunction %void\n%decl = OpFunction %void None %fn_void\nOpFunctionEnd\n\
             %main = OpFunction %void None %fn_void\n%l = OpLabel\n%c = OpFunctionCall %void %decl\nOpReturn\nOpFunctionEnd\n"
        ))),
        ("generic variable", k("1.0", &["GenericPointer"], "%pg = OpTypePointer Generic %uint\n%gv = OpVariable %pg Generic", "OpReturn")),
        ("input variable with initializer", k("1.0", &[], "%pi = OpTypePointer Input %uint\n%iv = OpVariable %pi Input %uint_0", "OpReturn")),
        ("workgroup variable", k("1.0", &[], "%pw = OpTypePointer Workgroup %uint\n%wv = OpVariable %pw Workgroup", "OpReturn")),
        ("library without entry points", (("1.0"), String::from("OpCapability Addresses\nOpCapability Kernel\nOpCapability Linkage\nOpMemoryModel Physical64 OpenCL\n%u = OpTypeInt 32 0\n"))),
        ("no entry point without Linkage", (("1.0"), String::from("OpCapability Addresses\nOpCapability Kernel\nOpMemoryModel Physical64 OpenCL\n%u = OpTypeInt 32 0\n"))),
        ("typed ok", k("1.0", &[], "%float = OpTypeFloat 32\n%f1 = OpConstant %float 1\n%v2 = OpTypeVector %uint 2\n%v4 = OpTypeVector %uint 4\n%v2c = OpConstantComposite %v2 %uint_1 %uint_2\n%bool = OpTypeBool\n%st = OpTypeStruct %uint %float\n%pst = OpTypePointer CrossWorkgroup %st\n%pfl = OpTypePointer CrossWorkgroup %float\n%gs = OpVariable %pst CrossWorkgroup", "%a = OpIAdd %uint %uint_1 %uint_2\n%b = OpFAdd %float %f1 %f1\n%c = OpIEqual %bool %a %uint_1\n%d = OpConvertUToF %float %a\n%e = OpBitcast %uint %b\n%g = OpCompositeConstruct %v4 %v2c %v2c\n%h = OpVectorShuffle %v2 %g %v2c 5 4294967295\n%i = OpCompositeExtract %uint %g 3\n%j = OpInBoundsAccessChain %pfl %gs %uint_1\n%k = OpSelect %uint %c %a %i\n%l = OpUConvert %ulong %a\n%m = OpShiftLeftLogical %v2 %v2c %v2c\nOpReturn")),
        ("iadd of a float", k("1.0", &[], "%float = OpTypeFloat 32\n%f1 = OpConstant %float 1\n%v2 = OpTypeVector %uint 2\n%v4 = OpTypeVector %uint 4\n%v2c = OpConstantComposite %v2 %uint_1 %uint_2\n%bool = OpTypeBool\n%st = OpTypeStruct %uint %float\n%pst = OpTypePointer CrossWorkgroup %st\n%pfl = OpTypePointer CrossWorkgroup %float\n%gs = OpVariable %pst CrossWorkgroup", "%x = OpIAdd %uint %f1 %uint_1\nOpReturn")),
        ("fadd with int result", k("1.0", &[], "%float = OpTypeFloat 32\n%f1 = OpConstant %float 1\n%v2 = OpTypeVector %uint 2\n%v4 = OpTypeVector %uint 4\n%v2c = OpConstantComposite %v2 %uint_1 %uint_2\n%bool = OpTypeBool\n%st = OpTypeStruct %uint %float\n%pst = OpTypePointer CrossWorkgroup %st\n%pfl = OpTypePointer CrossWorkgroup %float\n%gs = OpVariable %pst CrossWorkgroup", "%x = OpFAdd %uint %f1 %f1\nOpReturn")),
        ("compare result not bool", k("1.0", &[], "%float = OpTypeFloat 32\n%f1 = OpConstant %float 1\n%v2 = OpTypeVector %uint 2\n%v4 = OpTypeVector %uint 4\n%v2c = OpConstantComposite %v2 %uint_1 %uint_2\n%bool = OpTypeBool\n%st = OpTypeStruct %uint %float\n%pst = OpTypePointer CrossWorkgroup %st\n%pfl = OpTypePointer CrossWorkgroup %float\n%gs = OpVariable %pst CrossWorkgroup", "%x = OpIEqual %uint %uint_1 %uint_2\nOpReturn")),
        ("compare different widths", k("1.0", &[], "%float = OpTypeFloat 32\n%f1 = OpConstant %float 1\n%v2 = OpTypeVector %uint 2\n%v4 = OpTypeVector %uint 4\n%v2c = OpConstantComposite %v2 %uint_1 %uint_2\n%bool = OpTypeBool\n%st = OpTypeStruct %uint %float\n%pst = OpTypePointer CrossWorkgroup %st\n%pfl = OpTypePointer CrossWorkgroup %float\n%gs = OpVariable %pst CrossWorkgroup", "%x = OpIEqual %bool %uint_1 %ulong_0\nOpReturn")),
        ("convert from wrong kind", k("1.0", &[], "%float = OpTypeFloat 32\n%f1 = OpConstant %float 1\n%v2 = OpTypeVector %uint 2\n%v4 = OpTypeVector %uint 4\n%v2c = OpConstantComposite %v2 %uint_1 %uint_2\n%bool = OpTypeBool\n%st = OpTypeStruct %uint %float\n%pst = OpTypePointer CrossWorkgroup %st\n%pfl = OpTypePointer CrossWorkgroup %float\n%gs = OpVariable %pst CrossWorkgroup", "%x = OpConvertFToU %uint %uint_1\nOpReturn")),
        ("uconvert same width", k("1.0", &[], "%float = OpTypeFloat 32\n%f1 = OpConstant %float 1\n%v2 = OpTypeVector %uint 2\n%v4 = OpTypeVector %uint 4\n%v2c = OpConstantComposite %v2 %uint_1 %uint_2\n%bool = OpTypeBool\n%st = OpTypeStruct %uint %float\n%pst = OpTypePointer CrossWorkgroup %st\n%pfl = OpTypePointer CrossWorkgroup %float\n%gs = OpVariable %pst CrossWorkgroup", "%x = OpUConvert %uint %uint_1\nOpReturn")),
        ("bitcast size mismatch", k("1.0", &[], "%float = OpTypeFloat 32\n%f1 = OpConstant %float 1\n%v2 = OpTypeVector %uint 2\n%v4 = OpTypeVector %uint 4\n%v2c = OpConstantComposite %v2 %uint_1 %uint_2\n%bool = OpTypeBool\n%st = OpTypeStruct %uint %float\n%pst = OpTypePointer CrossWorkgroup %st\n%pfl = OpTypePointer CrossWorkgroup %float\n%gs = OpVariable %pst CrossWorkgroup", "%x = OpBitcast %ulong %uint_1\nOpReturn")),
        ("extract out of range", k("1.0", &[], "%float = OpTypeFloat 32\n%f1 = OpConstant %float 1\n%v2 = OpTypeVector %uint 2\n%v4 = OpTypeVector %uint 4\n%v2c = OpConstantComposite %v2 %uint_1 %uint_2\n%bool = OpTypeBool\n%st = OpTypeStruct %uint %float\n%pst = OpTypePointer CrossWorkgroup %st\n%pfl = OpTypePointer CrossWorkgroup %float\n%gs = OpVariable %pst CrossWorkgroup", "%g = OpCompositeConstruct %v4 %v2c %v2c\n%x = OpCompositeExtract %uint %g 4\nOpReturn")),
        ("shuffle index out of range", k("1.0", &[], "%float = OpTypeFloat 32\n%f1 = OpConstant %float 1\n%v2 = OpTypeVector %uint 2\n%v4 = OpTypeVector %uint 4\n%v2c = OpConstantComposite %v2 %uint_1 %uint_2\n%bool = OpTypeBool\n%st = OpTypeStruct %uint %float\n%pst = OpTypePointer CrossWorkgroup %st\n%pfl = OpTypePointer CrossWorkgroup %float\n%gs = OpVariable %pst CrossWorkgroup", "%x = OpVectorShuffle %v2 %v2c %v2c 0 4\nOpReturn")),
        ("construct wrong count", k("1.0", &[], "%float = OpTypeFloat 32\n%f1 = OpConstant %float 1\n%v2 = OpTypeVector %uint 2\n%v4 = OpTypeVector %uint 4\n%v2c = OpConstantComposite %v2 %uint_1 %uint_2\n%bool = OpTypeBool\n%st = OpTypeStruct %uint %float\n%pst = OpTypePointer CrossWorkgroup %st\n%pfl = OpTypePointer CrossWorkgroup %float\n%gs = OpVariable %pst CrossWorkgroup", "%x = OpCompositeConstruct %v4 %v2c %uint_1\nOpReturn")),
        ("access chain wrong result", k("1.0", &[], "%float = OpTypeFloat 32\n%f1 = OpConstant %float 1\n%v2 = OpTypeVector %uint 2\n%v4 = OpTypeVector %uint 4\n%v2c = OpConstantComposite %v2 %uint_1 %uint_2\n%bool = OpTypeBool\n%st = OpTypeStruct %uint %float\n%pst = OpTypePointer CrossWorkgroup %st\n%pfl = OpTypePointer CrossWorkgroup %float\n%gs = OpVariable %pst CrossWorkgroup", "%x = OpInBoundsAccessChain %pfl %gs %uint_0\nOpReturn")),
        ("select non-bool condition", k("1.0", &[], "%float = OpTypeFloat 32\n%f1 = OpConstant %float 1\n%v2 = OpTypeVector %uint 2\n%v4 = OpTypeVector %uint 4\n%v2c = OpConstantComposite %v2 %uint_1 %uint_2\n%bool = OpTypeBool\n%st = OpTypeStruct %uint %float\n%pst = OpTypePointer CrossWorkgroup %st\n%pfl = OpTypePointer CrossWorkgroup %float\n%gs = OpVariable %pst CrossWorkgroup", "%x = OpSelect %uint %uint_1 %uint_1 %uint_2\nOpReturn")),
        ("shift count mismatch", k("1.0", &[], "%float = OpTypeFloat 32\n%f1 = OpConstant %float 1\n%v2 = OpTypeVector %uint 2\n%v4 = OpTypeVector %uint 4\n%v2c = OpConstantComposite %v2 %uint_1 %uint_2\n%bool = OpTypeBool\n%st = OpTypeStruct %uint %float\n%pst = OpTypePointer CrossWorkgroup %st\n%pfl = OpTypePointer CrossWorkgroup %float\n%gs = OpVariable %pst CrossWorkgroup", "%x = OpShiftLeftLogical %v2 %v2c %uint_1\nOpReturn")),
        ("interface is not a variable", (("1.0"), kernel(&[], "", "OpReturn").replace("OpEntryPoint Kernel %main \"main\"\n", "OpEntryPoint Kernel %main \"main\" %uint_1\n"))),
        ("interface is an Input variable", (("1.0"), kernel(&[], "OpDecorate %gid BuiltIn GlobalInvocationId\n;types %v3 = OpTypeVector %ulong 3\n%pv = OpTypePointer Input %v3\n%gid = OpVariable %pv Input", "OpReturn").replace("OpEntryPoint Kernel %main \"main\"\n", "OpEntryPoint Kernel %main \"main\" %gid\n"))),
        ("interface is a CrossWorkgroup variable", (("1.0"), kernel(&[], "%pg = OpTypePointer CrossWorkgroup %uint\n%gv = OpVariable %pg CrossWorkgroup", "OpReturn").replace("OpEntryPoint Kernel %main \"main\"\n", "OpEntryPoint Kernel %main \"main\" %gv\n"))),
        ("opencl.std ok", k("1.0", &[], "%float = OpTypeFloat 32\n%f1 = OpConstant %float 1\n%v4 = OpTypeVector %float 4", "%x = OpExtInst %float %ocl sqrt %f1\n%y = OpExtInst %uint %ocl s_max %uint_1 %uint_2\n%z = OpExtInst %float %ocl fma %f1 %f1 %f1\nOpReturn")),
        ("sqrt of an integer", k("1.0", &[], "%float = OpTypeFloat 32\n%f1 = OpConstant %float 1\n%v4 = OpTypeVector %float 4", "%x = OpExtInst %float %ocl sqrt %uint_1\nOpReturn")),
        ("fmax with integer result", k("1.0", &[], "%float = OpTypeFloat 32\n%f1 = OpConstant %float 1\n%v4 = OpTypeVector %float 4", "%x = OpExtInst %uint %ocl fmax %uint_1 %uint_1\nOpReturn")),
        ("s_max of mixed widths", k("1.0", &[], "%float = OpTypeFloat 32\n%f1 = OpConstant %float 1\n%v4 = OpTypeVector %float 4", "%x = OpExtInst %uint %ocl s_max %uint_1 %ulong_0\nOpReturn")),
        ("length returning a vector", k("1.0", &[], "%float = OpTypeFloat 32\n%f1 = OpConstant %float 1\n%v4 = OpTypeVector %float 4", "%x = OpExtInst %v4 %ocl length %f1\nOpReturn")),
        ("imported entry point", (("1.0"), String::from("OpCapability Addresses\nOpCapability Kernel\nOpCapability Linkage\nOpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %f \"f\"\nOpDecorate %f LinkageAttributes \"f\" Import\n%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%f = OpFunction %void None %fn\nOpFunctionEnd\n"))),
        ("imported definition", k("1.0", &["Linkage"], "OpDecorate %main LinkageAttributes \"main\" Import\n;types", "OpReturn")),
        ("initializer of the wrong type", k("1.0", &[], "%pg = OpTypePointer CrossWorkgroup %uint\n%gv = OpVariable %pg CrossWorkgroup %ulong_0", "OpReturn")),
        ("constant composite ok", k("1.0", &[], "%v2 = OpTypeVector %uint 2\n%c = OpConstantComposite %v2 %uint_1 %uint_2", "OpReturn")),
        ("switch on a float", k("1.0", &[], "%float = OpTypeFloat 32\n%f1 = OpConstant %float 1", "OpSelectionMerge %m None\nOpSwitch %f1 %m\n%m = OpLabel\nOpReturn")),
        ("switch ok", k("1.0", &[], "", "OpSelectionMerge %m None\nOpSwitch %uint_1 %m 0 %c0 1 %m\n%c0 = OpLabel\nOpBranch %m\n%m = OpLabel\nOpReturn")),
        ("return value in void function", k("1.0", &[], "", "OpReturnValue %uint_0")),
        ("store to constant memory", k("1.0", &[], "%pc = OpTypePointer UniformConstant %uint\n%gc = OpVariable %pc UniformConstant %uint_0", "OpStore %gc %uint_1\nOpReturn")),
        ("Constant on a non-variable", k("1.0", &[], "OpDecorate %uint_1 Constant\n;types", "OpReturn")),
        ("Constant on a variable", k("1.0", &[], "OpDecorate %gc Constant\n;types %pc = OpTypePointer UniformConstant %uint\n%gc = OpVariable %pc UniformConstant %uint_0", "OpReturn")),
        ("used Input variable not in the interface", k("1.0", &[], "OpDecorate %gid BuiltIn GlobalInvocationId\n;types %v3 = OpTypeVector %ulong 3\n%pv = OpTypePointer Input %v3\n%gid = OpVariable %pv Input", "%x = OpLoad %v3 %gid\nOpReturn")),
        ("used Input variable in the interface", ("1.0", kernel(&[], "OpDecorate %gid BuiltIn GlobalInvocationId\n;types %v3 = OpTypeVector %ulong 3\n%pv = OpTypePointer Input %v3\n%gid = OpVariable %pv Input", "%x = OpLoad %v3 %gid\nOpReturn").replace("OpEntryPoint Kernel %main \"main\"\n", "OpEntryPoint Kernel %main \"main\" %gid\n"))),
        ("used Input variable in the interface of 1.2", ("1.2", kernel(&[], "OpDecorate %gid BuiltIn GlobalInvocationId\n;types %v3 = OpTypeVector %ulong 3\n%pv = OpTypePointer Input %v3\n%gid = OpVariable %pv Input", "%x = OpLoad %v3 %gid\nOpReturn").replace("OpEntryPoint Kernel %main \"main\"\n", "OpEntryPoint Kernel %main \"main\" %gid\n"))),
        ("UniformConstant built-in of a 1.0 module", k("1.0", &[], "OpDecorate %gid BuiltIn GlobalInvocationId\nOpDecorate %gid Constant\n;types %v3 = OpTypeVector %ulong 3\n%pv = OpTypePointer UniformConstant %v3\n%gid = OpVariable %pv UniformConstant", "%x = OpLoad %v3 %gid\nOpReturn")),
        ("used Workgroup variable not in the interface", k("1.0", &[], "%pw = OpTypePointer Workgroup %uint\n%wv = OpVariable %pw Workgroup", "OpStore %wv %uint_1\nOpReturn")),
        ("function id stored as a value", k("1.0", &[], "%pf = OpTypePointer Function %uint", "%v = OpVariable %pf Function\nOpStore %v %main\nOpReturn")),
        ("copy memory sized", k("1.0", &[], "%pf = OpTypePointer Function %uint", "%a = OpVariable %pf Function\n%b = OpVariable %pf Function\nOpCopyMemorySized %a %b %uint_2\nOpCopyMemory %a %b\nOpReturn")),
        ("copy memory sized of size 0", k("1.0", &[], "%pf = OpTypePointer Function %uint", "%a = OpVariable %pf Function\n%b = OpVariable %pf Function\nOpCopyMemorySized %a %b %ulong_0\nOpReturn")),
        ("copy memory sized to a value", k("1.0", &[], "%pf = OpTypePointer Function %uint", "%a = OpVariable %pf Function\n%b = OpVariable %pf Function\nOpCopyMemorySized %uint_1 %b %ulong_0\nOpReturn")),
        ("copy memory between types", k("1.0", &[], "%pf = OpTypePointer Function %uint\n%pl = OpTypePointer Function %ulong", "%a = OpVariable %pf Function\n%b = OpVariable %pl Function\nOpCopyMemory %a %b\nOpReturn")),
        ("composite insert of the member type", k("1.0", &[], "%v2 = OpTypeVector %uint 2\n%c = OpConstantComposite %v2 %uint_1 %uint_2", "%x = OpCompositeInsert %v2 %uint_0 %c 1\nOpReturn")),
        ("composite insert of another type", k("1.0", &[], "%v2 = OpTypeVector %uint 2\n%c = OpConstantComposite %v2 %uint_1 %uint_2", "%x = OpCompositeInsert %v2 %ulong_0 %c 1\nOpReturn")),
        ("depth image type", ik("OpTypeImage %void 2D 1 0 0 0 Unknown ReadOnly", "")),
        ("depth image read of a vector", ik("OpTypeImage %void 2D 1 0 0 0 Unknown ReadOnly", "%r = OpImageRead %v4f %im %cz")),
        ("depth image read of a float", ik("OpTypeImage %void 2D 1 0 0 0 Unknown ReadOnly", "%r = OpImageRead %float %im %cz")),
        ("image read of a vector", ik("OpTypeImage %void 2D 0 0 0 0 Unknown ReadOnly", "%r = OpImageRead %v4f %im %cz")),
        ("image write", ik("OpTypeImage %void 2D 0 0 0 0 Unknown WriteOnly", "OpImageWrite %im %cz %fz")),
        ("image write with Lod", ik("OpTypeImage %void 2D 0 0 0 0 Unknown WriteOnly", "OpImageWrite %im %cz %fz Lod %uint_0")),
        ("branch condition not bool", k("1.0", &[], "", "OpSelectionMerge %m None\nOpBranchConditional %uint_1 %m %m\n%m = OpLabel\nOpReturn")),
    ]
}

/// Modules spirv-val 2023.1 accepts in every OpenCL environment although they break an OpenCL
/// environment rule it does not check (env 2.1 atomics of 16 bits, env 2.1 recursion, env 8.2
/// rounding modes, 3.0 extended instruction sets, env 7.1 extensions, SPIR-V 3.32.7 constant
/// composite members): oxcl rejects them.
fn stricter() -> Vec<(&'static str, (&'static str, String))> {
    vec![
        ("atomic 16-bit", k("1.0", &["Int16"], ATOMIC_GLOBALS, "%a = OpAtomicIAdd %ushort %gs %uint_1 %uint_0 %s1\nOpReturn")),
        ("recursion", raw("1.0", "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\nOpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %main \"main\"", "", "%r = OpFunctionCall %void %helper\nOpReturn\nOpFunctionEnd\n%helper = OpFunction %void None %fn_void\n%hl = OpLabel\n%r2 = OpFunctionCall %void %helper\nOpReturn")),
        ("rounding mode on add", k("1.0", &[], "OpDecorate %c FPRoundingMode RTZ\n;types %float = OpTypeFloat 32\n%f1 = OpConstant %float 1", "%c = OpFAdd %float %f1 %f1\nOpReturn")),
        ("GLSL import", (("1.0"), kernel(&[], "", "OpReturn").replace("\"OpenCL.std\"", "\"GLSL.std.450\""))),
        ("unknown extension", (("1.0"), kernel(&[], "", "OpReturn").replace("%ocl = ", "OpExtension \"SPV_KHR_no_integer_wrap_decoration\"\n%ocl = "))),
        ("constant composite of the wrong members", k("1.0", &[], "%v2 = OpTypeVector %uint 2\n%c = OpConstantComposite %v2 %uint_1 %ulong_0", "OpReturn")),
    ]
}

#[test]
fn oxcl_checks_rules_spirv_val_does_not() {
    if !common::have("spirv-val") || !common::have("spirv-as") {
        eprintln!("skipped: spirv-val or spirv-as is not installed");
        return;
    }
    for (name, (version, text)) in stricter() {
        let binary = common::assemble(&text, version).unwrap();
        for env_name in ENVS {
            let (theirs, log) = common::spirv_val(&binary, env_name).unwrap();
            assert!(
                theirs,
                "{name} [{env_name}]: spirv-val now rejects it: {log}"
            );
            let env = Env::from_target_env(env_name).unwrap();
            assert!(
                common::oxcl_val(&binary, &env).is_err(),
                "{name} [{env_name}]: oxcl accepts it"
            );
        }
    }
}

/// Cases that oxcl rejects for OpenCL 1.2 only (env 7.2.2), and spirv-val accepts.
const DEPTH_STRICTER_IN_12: &[&str] = &["depth image type", "depth image read of a float"];

#[test]
fn verdicts_agree_with_spirv_val() {
    if !common::have("spirv-val") || !common::have("spirv-as") {
        eprintln!("skipped: spirv-val or spirv-as is not installed");
        return;
    }
    let cases = corpus();
    assert!(cases.len() >= 25);
    let mut disagreements = Vec::new();
    let (mut valid, mut invalid) = (0, 0);
    for (name, (version, text)) in &cases {
        let binary = common::assemble(text, version).unwrap();
        for env_name in ENVS {
            let (theirs, log) = common::spirv_val(&binary, env_name).unwrap();
            let env = Env::from_target_env(env_name).unwrap();
            let ours = common::oxcl_val(&binary, &env);
            if env_name == "opencl1.2" && DEPTH_STRICTER_IN_12.contains(name) {
                // env 7.2.2: depth images need cl_khr_depth_images in OpenCL 1.2 (core from
                // 2.0); spirv-val accepts them in every OpenCL environment.
                assert!(
                    theirs,
                    "{name} [{env_name}]: spirv-val now rejects it: {log}"
                );
                assert!(
                    matches!(&ours, Err(e) if e.has_rule("env 7.2.2")),
                    "{name} [{env_name}]: oxcl should reject it citing env 7.2.2: {ours:?}"
                );
                continue;
            }
            if theirs {
                valid += 1;
            } else {
                invalid += 1;
            }
            if theirs != ours.is_ok() {
                let why = match &ours {
                    Ok(_) => "oxcl: valid".to_string(),
                    Err(e) => format!("oxcl: {e}"),
                };
                disagreements.push(format!(
                    "{name} [{env_name}] spirv-val ok={theirs} {}\n  {why}",
                    log.trim()
                ));
            }
        }
    }
    eprintln!(
        "{} cases x {} environments: {valid} valid, {invalid} invalid",
        cases.len(),
        ENVS.len()
    );
    assert!(
        disagreements.is_empty(),
        "{} disagreements:\n{}",
        disagreements.len(),
        disagreements.join("\n")
    );
}
