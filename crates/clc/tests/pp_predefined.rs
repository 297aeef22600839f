//! Predefined macros (OpenCL C 2.0 6.10, unified OpenCL C 6.12 and 6.2.1) and `-D`/`-U`.

mod pp_util;
use clc::pp::Target;
use pp_util::{check_output, run_with};

fn expand(src: &str, options: &str, target: &Target) -> String {
    let r = run_with(src, "p.cl", options, target);
    assert!(r.errors().is_empty(), "{}", r.diags.render(&r.sources));
    r.text()
}

fn is_defined(name: &str, options: &str, target: &Target) -> bool {
    expand(
        &format!("#ifdef {name}\nyes\n#else\nno\n#endif\n"),
        options,
        target,
    ) == "yes"
}

#[test]
fn versions() {
    let t = Target::default(); // device OpenCL 3.0
    assert_eq!(
        expand("__OPENCL_VERSION__ __OPENCL_C_VERSION__ CL_VERSION_1_0 CL_VERSION_1_1 CL_VERSION_1_2 CL_VERSION_2_0 CL_VERSION_3_0", "", &t),
        "300 120 100 110 120 200 300"
    );
    // API 5.8.6.5: without -cl-std, the highest OpenCL C 1.x the device supports.
    let old = Target {
        device_cl_version: 110,
        ..Target::default()
    };
    assert_eq!(
        expand("__OPENCL_VERSION__ __OPENCL_C_VERSION__", "", &old),
        "110 110"
    );
    for (opt, v) in [
        ("CL1.0", "100"),
        ("CL1.1", "110"),
        ("CL1.2", "120"),
        ("CL2.0", "200"),
        ("CL3.0", "300"),
    ] {
        assert_eq!(
            expand("__OPENCL_C_VERSION__", &format!("-cl-std={opt}"), &t),
            v
        );
    }
}

#[test]
fn device_properties() {
    let little = Target {
        endian_little: true,
        image_support: true,
        address_bits: 64,
        ..Target::default()
    };
    let big = Target {
        endian_little: false,
        image_support: false,
        address_bits: 32,
        ..Target::default()
    };
    assert!(is_defined("__ENDIAN_LITTLE__", "", &little));
    assert!(!is_defined("__ENDIAN_LITTLE__", "", &big));
    assert!(is_defined("__IMAGE_SUPPORT__", "", &little));
    assert!(!is_defined("__IMAGE_SUPPORT__", "", &big));
    assert_eq!(
        expand("__ENDIAN_LITTLE__ __IMAGE_SUPPORT__", "", &little),
        "1 1"
    );
    assert!(is_defined("__SPIR__", "", &little));
    assert!(is_defined("__SPIR64__", "", &little));
    assert!(!is_defined("__SPIR32__", "", &little));
    assert!(is_defined("__SPIR32__", "", &big));
    assert!(!is_defined("__SPIR64__", "", &big));
}

#[test]
fn fast_relaxed_math() {
    let t = Target::default();
    assert!(!is_defined("__FAST_RELAXED_MATH__", "", &t));
    assert!(!is_defined(
        "__FAST_RELAXED_MATH__",
        "-cl-unsafe-math-optimizations",
        &t
    ));
    assert_eq!(
        expand("__FAST_RELAXED_MATH__", "-cl-fast-relaxed-math", &t),
        "1"
    );
}

#[test]
fn fma_macros() {
    let t = Target::default();
    assert!(is_defined("FP_FAST_FMAF", "", &t));
    assert!(!is_defined("FP_FAST_FMA", "", &t));
    let fp64 = Target {
        extensions: vec!["cl_khr_fp64".into()],
        ..Target::default()
    };
    assert!(is_defined("FP_FAST_FMA", "", &fp64));
    assert!(is_defined("DBL_MAX", "", &fp64));
    assert!(!is_defined("DBL_MAX", "", &t));
}

#[test]
fn kernel_exec() {
    let r = run_with(
        "__kernel_exec(64, float4) void k(void);\nkernel_exec(1, int) void j(void);\n",
        "p.cl",
        "",
        &Target::default(),
    );
    check_output(
        &r,
        "__kernel __attribute__((work_group_size_hint(64, 1, 1))) __attribute__((vec_type_hint(float4))) void k(void);\n__kernel __attribute__((work_group_size_hint(1, 1, 1))) __attribute__((vec_type_hint(int))) void j(void);\n",
    );
}

#[test]
fn extension_macros() {
    let t = Target {
        extensions: vec!["cl_khr_fp64".into(), "cl_khr_int64_base_atomics".into()],
        ..Target::default()
    };
    assert_eq!(
        expand("cl_khr_fp64 cl_khr_int64_base_atomics cl_khr_fp16", "", &t),
        "1 1 cl_khr_fp16"
    );
}

#[test]
fn feature_macros_follow_the_language_version() {
    let t = Target {
        features: vec!["__opencl_c_fp64".into(), "__opencl_c_images".into()],
        extensions: vec![],
        image_support: false,
        ..Target::default()
    };
    // OpenCL C 3.0: exactly the device's features.
    assert!(is_defined("__opencl_c_fp64", "-cl-std=CL3.0", &t));
    assert!(is_defined("__opencl_c_images", "-cl-std=CL3.0", &t));
    assert!(!is_defined(
        "__opencl_c_generic_address_space",
        "-cl-std=CL3.0",
        &t
    ));
    // OpenCL C 1.2: none.
    assert!(!is_defined("__opencl_c_fp64", "", &t));
    // OpenCL C 2.0: the features 2.0 has as core language.
    for f in [
        "__opencl_c_generic_address_space",
        "__opencl_c_pipes",
        "__opencl_c_device_enqueue",
        "__opencl_c_program_scope_global_variables",
        "__opencl_c_atomic_order_seq_cst",
        "__opencl_c_atomic_scope_all_devices",
        "__opencl_c_work_group_collective_functions",
        "__opencl_c_int64",
    ] {
        assert!(is_defined(f, "-cl-std=CL2.0", &t), "{f}");
    }
    assert!(!is_defined("__opencl_c_images", "-cl-std=CL2.0", &t));
    // fp64 is the device's (here from its feature list).
    assert!(is_defined("__opencl_c_fp64", "-cl-std=CL2.0", &t));
    assert!(!is_defined(
        "__opencl_c_fp64",
        "-cl-std=CL2.0",
        &Target::default()
    ));
}

#[test]
fn null_from_opencl_c_2_0() {
    let t = Target::default();
    assert_eq!(expand("NULL", "-cl-std=CL2.0", &t), "((void*)0)");
    assert_eq!(expand("NULL", "", &t), "NULL");
}

#[test]
fn numeric_limits_have_the_specified_values() {
    // 2.0 6.13.3: "The macro names given in the following list must use the values specified".
    let t = Target::default();
    let src = "#if CHAR_BIT == 8 && CHAR_MAX == 127 && CHAR_MIN == -128 && INT_MAX == 2147483647 && INT_MIN == -2147483648 && LONG_MAX == 9223372036854775807 && LONG_MIN == -9223372036854775807 - 1 && SCHAR_MAX == 127 && SCHAR_MIN == -128 && SHRT_MAX == 32767 && SHRT_MIN == -32768 && UCHAR_MAX == 255 && USHRT_MAX == 65535 && UINT_MAX == 4294967295 && ULONG_MAX == 18446744073709551615u && FLT_DIG == 6 && FLT_MANT_DIG == 24 && FLT_MAX_10_EXP == 38 && FLT_MAX_EXP == 128 && FLT_MIN_10_EXP == -37 && FLT_MIN_EXP == -125 && FLT_RADIX == 2\nok\n#endif\n";
    assert_eq!(expand(src, "", &t), "ok");
    assert_eq!(
        expand(
            "FLT_MAX FLT_MIN FLT_EPSILON M_PI_F CLK_LOCAL_MEM_FENCE CLK_GLOBAL_MEM_FENCE",
            "",
            &t
        ),
        "0x1.fffffep127f 0x1.0p-126f 0x1.0p-23f 3.14159265358979323846264338327950288f 0x01 0x02"
    );
}

#[test]
fn command_line_defines_and_undefines() {
    let t = Target::default();
    assert_eq!(
        expand(
            "A B C F(3) __OPENCL_VERSION__ __SPIR__",
            "-D A -DB=2 -D 'C=x y' -D'F(v)=v*v' -U __SPIR__ -D __OPENCL_VERSION__=7",
            &t
        ),
        "1 2 x y 3*3 7 __SPIR__"
    );
}

#[test]
fn file_macro_uses_the_file_name() {
    assert_eq!(expand("__FILE__", "", &Target::default()), "\"p.cl\"");
}

#[test]
fn c99_standard_macros() {
    let t = Target::default();
    assert_eq!(
        expand("__STDC__ __STDC_VERSION__ __STDC_HOSTED__", "", &t),
        "1 199901L 0"
    );
    assert_eq!(
        expand("__COUNTER__ __COUNTER__ __COUNTER__", "", &t),
        "0 1 2"
    );
    let date = expand("__DATE__", "", &t);
    assert_eq!(date.len(), "\"Mmm dd yyyy\"".len(), "{date}");
    let time = expand("__TIME__", "", &t);
    assert_eq!(time.len(), "\"hh:mm:ss\"".len(), "{time}");
}

#[test]
fn cl_std_above_the_device_version_is_an_error() {
    let old = Target {
        device_cl_version: 120,
        ..Target::default()
    };
    let r = run_with("x\n", "p.cl", "-cl-std=CL2.0", &old);
    assert_eq!(
        r.errors(),
        vec!["OpenCL C version 2.0 is not supported by this device (OpenCL 1.2)"]
    );
    let r = run_with("x\n", "p.cl", "-cl-std=CL1.1", &old);
    assert!(r.errors().is_empty());
}
