//! Predefined macros (OpenCL C 2.0 6.10 / unified OpenCL C 6.12 "Preprocessor Directives and
//! Macros", 6.13.2.1 and 6.13.3 (2.0 numbering: "Floating-point macros and pragmas", "Integer
//! macros"), the feature macros of unified 6.2.1) and the `-D`/`-U` options (API 5.8.6.1),
//! written as `#define` text that is preprocessed before the main file.

use std::fmt::Write;

use super::Target;
use crate::options::BuildOptions;

/// The OpenCL C 3.0 features that OpenCL C 2.0 has as core functionality (unified OpenCL C
/// 6.2.1: optional from 3.0 on). Images, `fp64` and subgroups still depend on the device.
const FEATURES_IMPLIED_BY_2_0: &[&str] = &[
    "__opencl_c_atomic_order_acq_rel",
    "__opencl_c_atomic_order_seq_cst",
    "__opencl_c_atomic_scope_device",
    "__opencl_c_atomic_scope_all_devices",
    "__opencl_c_device_enqueue",
    "__opencl_c_generic_address_space",
    "__opencl_c_int64",
    "__opencl_c_pipes",
    "__opencl_c_program_scope_global_variables",
    "__opencl_c_work_group_collective_functions",
];

/// The `<built-in>` pseudo-file: every predefined macro for this target and OpenCL C version.
pub(super) fn builtin_prelude(opts: &BuildOptions, target: &Target, c_version: u32) -> String {
    let mut s = String::new();
    let mut def = |name: &str, value: &str| {
        let _ = writeln!(s, "#define {name} {value}");
    };
    // OpenCL C 2.0 6.10.
    def("__OPENCL_VERSION__", &target.device_cl_version.to_string());
    def("__OPENCL_C_VERSION__", &c_version.to_string());
    def("CL_VERSION_1_0", "100");
    def("CL_VERSION_1_1", "110");
    def("CL_VERSION_1_2", "120");
    def("CL_VERSION_2_0", "200");
    def("CL_VERSION_3_0", "300");
    if target.endian_little {
        def("__ENDIAN_LITTLE__", "1");
    }
    if target.image_support {
        def("__IMAGE_SUPPORT__", "1");
    }
    def(
        "__kernel_exec(X, typen)",
        "__kernel __attribute__((work_group_size_hint(X, 1, 1))) __attribute__((vec_type_hint(typen)))",
    );
    def(
        "kernel_exec(X, typen)",
        "__kernel __attribute__((work_group_size_hint(X, 1, 1))) __attribute__((vec_type_hint(typen)))",
    );
    if opts.fast_relaxed_math {
        def("__FAST_RELAXED_MATH__", "1");
    }
    // SPIR-V environment targets, as clang defines them for `-target spir`/`spir64`.
    def("__SPIR__", "1");
    if target.address_bits == 64 {
        def("__SPIR64__", "1");
    } else {
        def("__SPIR32__", "1");
    }
    // C99 6.10.8p1: OpenCL C is based on C99; a freestanding environment.
    def("__STDC__", "1");
    def("__STDC_VERSION__", "199901L");
    def("__STDC_HOSTED__", "0");
    // 2.0 6.13.2: fma is as fast as a multiply and an add (it is one operation on this device).
    def("FP_FAST_FMAF", "1");
    let has_fp64 = target.extensions.iter().any(|e| e == "cl_khr_fp64")
        || target.features.iter().any(|f| f == "__opencl_c_fp64");
    if has_fp64 {
        def("FP_FAST_FMA", "1");
    }
    // Extension macros (2.0 9.1): each supported extension is defined to 1.
    for e in &target.extensions {
        def(e, "1");
    }
    // Feature macros (unified 6.2.1): OpenCL C 3.0 defines the supported features; for 2.0,
    // the features that 2.0 has as core language.
    if c_version >= 300 {
        for f in &target.features {
            def(f, "1");
        }
    } else if c_version >= 200 {
        for f in FEATURES_IMPLIED_BY_2_0 {
            def(f, "1");
        }
        if target.image_support {
            def("__opencl_c_images", "1");
            def("__opencl_c_read_write_images", "1");
            if target
                .extensions
                .iter()
                .any(|e| e == "cl_khr_3d_image_writes")
            {
                def("__opencl_c_3d_image_writes", "1");
            }
        }
        if has_fp64 {
            def("__opencl_c_fp64", "1");
        }
        if target.extensions.iter().any(|e| e == "cl_khr_subgroups") {
            def("__opencl_c_subgroups", "1");
        }
    }
    // 2.0 6.10: "The NULL macro expands to a null pointer constant" (requires OpenCL C 2.0).
    if c_version >= 200 {
        def("NULL", "((void*)0)");
    }
    s.push_str(LIMITS);
    if has_fp64 {
        s.push_str(LIMITS_DOUBLE);
    }
    s.push_str(CONSTANTS);
    if c_version >= 200 {
        s.push_str(CONSTANTS_2_0);
    }
    s
}

/// 2.0 6.13.2 and 6.13.3: float and integer macros with the values the specification gives.
/// As in clang's `opencl-c-base.h`, `INFINITY`/`HUGE_VALF`/`HUGE_VAL` use the built-in functions
/// `__builtin_inff()`, `__builtin_huge_valf()`, `__builtin_huge_val()` (the front end must know
/// them) and `NAN` is `as_float(INT_MAX)`.
const LIMITS: &str = r#"#define MAXFLOAT 0x1.fffffep127f
#define HUGE_VALF (__builtin_huge_valf())
#define INFINITY (__builtin_inff())
#define NAN as_float(INT_MAX)
#define FLT_DIG 6
#define FLT_MANT_DIG 24
#define FLT_MAX_10_EXP +38
#define FLT_MAX_EXP +128
#define FLT_MIN_10_EXP -37
#define FLT_MIN_EXP -125
#define FLT_RADIX 2
#define FLT_MAX 0x1.fffffep127f
#define FLT_MIN 0x1.0p-126f
#define FLT_EPSILON 0x1.0p-23f
#define FP_ILOGB0 INT_MIN
#define FP_ILOGBNAN INT_MAX
#define M_E_F 2.71828182845904523536028747135266250f
#define M_LOG2E_F 1.44269504088896340735992468100189214f
#define M_LOG10E_F 0.434294481903251827651128918916605082f
#define M_LN2_F 0.693147180559945309417232121458176568f
#define M_LN10_F 2.30258509299404568401799145468436421f
#define M_PI_F 3.14159265358979323846264338327950288f
#define M_PI_2_F 1.57079632679489661923132169163975144f
#define M_PI_4_F 0.785398163397448309615660845819875721f
#define M_1_PI_F 0.318309886183790671537767526745028724f
#define M_2_PI_F 0.636619772367581343075535053490057448f
#define M_2_SQRTPI_F 1.12837916709551257389615890312154517f
#define M_SQRT2_F 1.41421356237309504880168872420969808f
#define M_SQRT1_2_F 0.707106781186547524400844362104849039f
#define CHAR_BIT 8
#define CHAR_MAX SCHAR_MAX
#define CHAR_MIN SCHAR_MIN
#define INT_MAX 2147483647
#define INT_MIN (-2147483647 - 1)
#define LONG_MAX 0x7fffffffffffffffL
#define LONG_MIN (-0x7fffffffffffffffL - 1)
#define SCHAR_MAX 127
#define SCHAR_MIN (-127 - 1)
#define SHRT_MAX 32767
#define SHRT_MIN (-32767 - 1)
#define UCHAR_MAX 255
#define USHRT_MAX 65535
#define UINT_MAX 0xffffffff
#define ULONG_MAX 0xffffffffffffffffUL
"#;

/// 2.0 6.13.2: the double macros, "if double precision is supported by the device".
const LIMITS_DOUBLE: &str = r#"#define HUGE_VAL (__builtin_huge_val())
#define DBL_DIG 15
#define DBL_MANT_DIG 53
#define DBL_MAX_10_EXP +308
#define DBL_MAX_EXP +1024
#define DBL_MIN_10_EXP -307
#define DBL_MIN_EXP -1021
#define DBL_MAX 0x1.fffffffffffffp1023
#define DBL_MIN 0x1.0p-1022
#define DBL_EPSILON 0x1.0p-52
#define M_E 0x1.5bf0a8b145769p+1
#define M_LOG2E 0x1.71547652b82fep+0
#define M_LOG10E 0x1.bcb7b1526e50ep-2
#define M_LN2 0x1.62e42fefa39efp-1
#define M_LN10 0x1.26bb1bbb55516p+1
#define M_PI 0x1.921fb54442d18p+1
#define M_PI_2 0x1.921fb54442d18p+0
#define M_PI_4 0x1.921fb54442d18p-1
#define M_1_PI 0x1.45f306dc9c883p-2
#define M_2_PI 0x1.45f306dc9c883p-1
#define M_2_SQRTPI 0x1.20dd750429b6dp+0
#define M_SQRT2 0x1.6a09e667f3bcdp+0
#define M_SQRT1_2 0x1.6a09e667f3bcdp-1
"#;

/// Constants the built-in functions take, with the values clang's `opencl-c-base.h` gives them
/// (they match the OpenCL API's `cl_mem_fence_flags` bits, `CL_*` channel orders/types and the
/// SPIR-V sampler encoding llvm-spirv expects): memory fence flags (2.0 6.13.8), sampler
/// properties (6.13.14.1), image channel orders and data types (6.13.14.7).
const CONSTANTS: &str = r#"#define CLK_LOCAL_MEM_FENCE 0x01
#define CLK_GLOBAL_MEM_FENCE 0x02
#define CLK_IMAGE_MEM_FENCE 0x04
#define CLK_ADDRESS_NONE 0
#define CLK_ADDRESS_CLAMP_TO_EDGE 2
#define CLK_ADDRESS_CLAMP 4
#define CLK_ADDRESS_REPEAT 6
#define CLK_ADDRESS_MIRRORED_REPEAT 8
#define CLK_NORMALIZED_COORDS_FALSE 0
#define CLK_NORMALIZED_COORDS_TRUE 1
#define CLK_FILTER_NEAREST 0x10
#define CLK_FILTER_LINEAR 0x20
#define CLK_SNORM_INT8 0x10D0
#define CLK_SNORM_INT16 0x10D1
#define CLK_UNORM_INT8 0x10D2
#define CLK_UNORM_INT16 0x10D3
#define CLK_UNORM_SHORT_565 0x10D4
#define CLK_UNORM_SHORT_555 0x10D5
#define CLK_UNORM_INT_101010 0x10D6
#define CLK_SIGNED_INT8 0x10D7
#define CLK_SIGNED_INT16 0x10D8
#define CLK_SIGNED_INT32 0x10D9
#define CLK_UNSIGNED_INT8 0x10DA
#define CLK_UNSIGNED_INT16 0x10DB
#define CLK_UNSIGNED_INT32 0x10DC
#define CLK_HALF_FLOAT 0x10DD
#define CLK_FLOAT 0x10DE
#define CLK_UNORM_INT24 0x10DF
#define CLK_UNORM_INT_101010_2 0x10E0
#define CLK_R 0x10B0
#define CLK_A 0x10B1
#define CLK_RG 0x10B2
#define CLK_RA 0x10B3
#define CLK_RGB 0x10B4
#define CLK_RGBA 0x10B5
#define CLK_BGRA 0x10B6
#define CLK_ARGB 0x10B7
#define CLK_INTENSITY 0x10B8
#define CLK_LUMINANCE 0x10B9
#define CLK_Rx 0x10BA
#define CLK_RGx 0x10BB
#define CLK_RGBx 0x10BC
#define CLK_DEPTH 0x10BD
#define CLK_DEPTH_STENCIL 0x10BE
#define CLK_sRGB 0x10BF
#define CLK_sRGBx 0x10C0
#define CLK_sRGBA 0x10C1
#define CLK_sBGRA 0x10C2
#define CLK_ABGR 0x10C3
"#;

/// OpenCL C 2.0 6.13.17 device-side enqueue constants (clang's values).
const CONSTANTS_2_0: &str = r#"#define CLK_SUCCESS 0
#define ATOMIC_VAR_INIT(x) (x)
#define CLK_ENQUEUE_FAILURE -101
#define CLK_INVALID_QUEUE -102
#define CLK_INVALID_NDRANGE -160
#define CLK_INVALID_EVENT_WAIT_LIST -57
#define CLK_DEVICE_QUEUE_FULL -161
#define CLK_INVALID_ARG_SIZE -51
#define CLK_EVENT_ALLOCATION_FAILURE -100
#define CLK_OUT_OF_RESOURCES -5
#define CLK_NULL_QUEUE 0
#define CLK_ENQUEUE_FLAGS_NO_WAIT 0x0
#define CLK_ENQUEUE_FLAGS_WAIT_KERNEL 0x1
#define CLK_ENQUEUE_FLAGS_WAIT_WORK_GROUP 0x2
#define CLK_PROFILING_COMMAND_EXEC_TIME 0x1
"#;

/// The `<command line>` pseudo-file: `-D` in order, then `-U` (API 5.8.6.1).
pub(super) fn command_line_prelude(opts: &BuildOptions) -> String {
    let mut s = String::new();
    for (name, value) in &opts.defines {
        // "the definition will be truncated by embedded newline characters".
        let value = value
            .as_deref()
            .map_or("1", |v| v.split('\n').next().unwrap_or(""));
        let name = name.split('\n').next().unwrap_or("");
        let _ = writeln!(s, "#define {name} {value}");
    }
    for name in &opts.undefines {
        let name = name.split('\n').next().unwrap_or("");
        let _ = writeln!(s, "#undef {name}");
    }
    s
}

/// `__DATE__` ("Mmm dd yyyy", day padded with a space) and `__TIME__` ("hh:mm:ss") for `now`
/// in UTC (C99 6.10.8p1).
pub(super) fn date_and_time(now: std::time::SystemTime) -> (String, String) {
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let secs = now
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Days since 1970-01-01 → civil date (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    let date = format!("{} {:>2} {}", MONTHS[(month - 1) as usize], day, year);
    let time = format!("{:02}:{:02}:{:02}", rem / 3600, rem % 3600 / 60, rem % 60);
    (date, time)
}

#[cfg(test)]
mod tests {
    use super::date_and_time;
    use std::time::{Duration, UNIX_EPOCH};

    #[test]
    fn date_and_time_formats() {
        // Expected values from `date -u -d @N`.
        let at = |s: u64| date_and_time(UNIX_EPOCH + Duration::from_secs(s));
        assert_eq!(at(0), ("Jan  1 1970".into(), "00:00:00".into()));
        assert_eq!(at(951_782_400), ("Feb 29 2000".into(), "00:00:00".into()));
        assert_eq!(at(1_795_300_000), ("Nov 21 2026".into(), "22:26:40".into()));
        assert_eq!(at(4_102_444_799), ("Dec 31 2099".into(), "23:59:59".into()));
    }
}
