//! Build option parsing (OpenCL 3.0 API 5.8.6 "Compiler Options", 5.8.7 "Linker Options").

use std::path::PathBuf;

use clc::options::{BuildOptions, ClStd, OptionsError};

#[test]
fn empty_is_default() {
    assert_eq!(BuildOptions::parse("").unwrap(), BuildOptions::default());
    assert_eq!(
        BuildOptions::parse("  \t \n").unwrap(),
        BuildOptions::default()
    );
}

#[test]
fn defines_in_all_spellings() {
    let o = BuildOptions::parse("-D A -DB -D C=1 -DD=x+y -D \"E=a b\" -D'F(x)=x' -DG=").unwrap();
    assert_eq!(
        o.defines,
        vec![
            ("A".to_string(), None),
            ("B".to_string(), None),
            ("C".to_string(), Some("1".to_string())),
            ("D".to_string(), Some("x+y".to_string())),
            ("E".to_string(), Some("a b".to_string())),
            ("F(x)".to_string(), Some("x".to_string())),
            ("G".to_string(), Some(String::new())),
        ]
    );
}

#[test]
fn undefines_and_include_dirs() {
    let o = BuildOptions::parse("-U X -UY -I /a/b -I/c -I \"/d e/f\"").unwrap();
    assert_eq!(o.undefines, vec!["X", "Y"]);
    assert_eq!(
        o.include_dirs,
        vec![
            PathBuf::from("/a/b"),
            PathBuf::from("/c"),
            PathBuf::from("/d e/f")
        ]
    );
}

#[test]
fn cl_std_values() {
    for (v, s) in [
        ("CL1.0", ClStd::Cl10),
        ("CL1.1", ClStd::Cl11),
        ("CL1.2", ClStd::Cl12),
        ("CL2.0", ClStd::Cl20),
        ("CL3.0", ClStd::Cl30),
    ] {
        assert_eq!(
            BuildOptions::parse(&format!("-cl-std={v}")).unwrap().cl_std,
            Some(s)
        );
    }
    assert_eq!(
        BuildOptions::parse("-cl-std=CL9.9"),
        Err(OptionsError::InvalidValue {
            option: "-cl-std".into(),
            value: "CL9.9".into()
        })
    );
    assert_eq!(BuildOptions::parse("").unwrap().opencl_c_version(300), 120);
    assert_eq!(BuildOptions::parse("").unwrap().opencl_c_version(110), 110);
    assert_eq!(
        BuildOptions::parse("-cl-std=CL2.0")
            .unwrap()
            .opencl_c_version(300),
        200
    );
}

#[test]
fn flags() {
    let o = BuildOptions::parse(
        "-w -Werror -cl-single-precision-constant -cl-denorms-are-zero -cl-fp32-correctly-rounded-divide-sqrt -cl-opt-disable -cl-strict-aliasing -cl-mad-enable -cl-no-signed-zeros -cl-finite-math-only -cl-kernel-arg-info -cl-uniform-work-group-size -cl-no-subgroup-ifp -g",
    )
    .unwrap();
    let expected = BuildOptions {
        suppress_warnings: true,
        warnings_as_errors: true,
        single_precision_constant: true,
        denorms_are_zero: true,
        fp32_correctly_rounded_divide_sqrt: true,
        opt_disable: true,
        strict_aliasing: true,
        mad_enable: true,
        no_signed_zeros: true,
        finite_math_only: true,
        kernel_arg_info: true,
        uniform_work_group_size: true,
        no_subgroup_ifp: true,
        debug_info: true,
        ..BuildOptions::default()
    };
    assert_eq!(o, expected);
}

#[test]
fn implied_math_options() {
    // API 5.8.6.3: -cl-unsafe-math-optimizations includes -cl-no-signed-zeros, -cl-mad-enable
    // and -cl-denorms-are-zero; -cl-fast-relaxed-math sets -cl-finite-math-only and
    // -cl-unsafe-math-optimizations.
    let u = BuildOptions::parse("-cl-unsafe-math-optimizations").unwrap();
    assert!(u.unsafe_math && u.no_signed_zeros && u.mad_enable && u.denorms_are_zero);
    assert!(!u.finite_math_only && !u.fast_relaxed_math);
    let f = BuildOptions::parse("-cl-fast-relaxed-math").unwrap();
    assert!(f.fast_relaxed_math && f.finite_math_only && f.unsafe_math);
    assert!(f.no_signed_zeros && f.mad_enable && f.denorms_are_zero);
}

#[test]
fn errors_name_the_option() {
    assert_eq!(
        BuildOptions::parse("-O3"),
        Err(OptionsError::UnknownOption("-O3".into()))
    );
    assert_eq!(
        BuildOptions::parse("-cl-mad-enable -cl-fast"),
        Err(OptionsError::UnknownOption("-cl-fast".into()))
    );
    assert_eq!(
        BuildOptions::parse("foo.cl"),
        Err(OptionsError::UnknownOption("foo.cl".into()))
    );
    assert_eq!(
        BuildOptions::parse("-D"),
        Err(OptionsError::MissingArgument("-D".into()))
    );
    assert_eq!(
        BuildOptions::parse("-I"),
        Err(OptionsError::MissingArgument("-I".into()))
    );
    assert_eq!(
        BuildOptions::parse("-D \"A"),
        Err(OptionsError::UnterminatedQuote)
    );
    assert_eq!(
        BuildOptions::parse("-O3").unwrap_err().to_string(),
        "unknown build option '-O3'"
    );
}

#[test]
fn linker_options() {
    let o = BuildOptions::parse_link("-create-library -enable-link-options -cl-fast-relaxed-math")
        .unwrap();
    assert!(o.create_library && o.enable_link_options && o.fast_relaxed_math && o.unsafe_math);
    assert_eq!(
        BuildOptions::parse_link("").unwrap(),
        BuildOptions::default()
    );
    // Compile-only options are not linker options, and the reverse.
    assert_eq!(
        BuildOptions::parse_link("-D X"),
        Err(OptionsError::UnknownOption("-D".into()))
    );
    assert_eq!(
        BuildOptions::parse_link("-cl-mad-enable"),
        Err(OptionsError::UnknownOption("-cl-mad-enable".into()))
    );
    assert_eq!(
        BuildOptions::parse("-create-library"),
        Err(OptionsError::UnknownOption("-create-library".into()))
    );
    assert!(matches!(
        BuildOptions::parse_link("-enable-link-options"),
        Err(OptionsError::InvalidCombination(_))
    ));
}
