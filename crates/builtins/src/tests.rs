//! Expansion checks against overloads written out by hand from the spec's function tables.

use super::*;

fn ctx(cl_version: u32, fp64: bool, generic: bool) -> Ctx {
    Ctx {
        cl_version,
        fp64,
        fp16: false,
        generic_address_space: generic,
        address_bits: 64,
        work_group_collectives: cl_version >= 200,
        subgroups: false,
    }
}

fn names(family: &str, ctx: &Ctx) -> Vec<String> {
    lookup(family)
        .unwrap()
        .overloads(ctx)
        .iter()
        .map(|o| o.to_string())
        .collect()
}

#[test]
fn sqrt_has_every_float_width_and_double_only_with_fp64() {
    let without = names("sqrt", &ctx(120, false, false));
    assert_eq!(without.len(), 6);
    assert!(without.contains(&"float3 (float3)".to_string()));
    let with = names("sqrt", &ctx(120, true, false));
    assert_eq!(with.len(), 12);
    assert!(with.contains(&"double16 (double16)".to_string()));
}

#[test]
fn fmin_has_the_scalar_second_argument_form_for_vectors_only() {
    let all = names("fmin", &ctx(120, false, false));
    // 6 gentype forms + 5 vector forms with a scalar second argument (1.13.2: fmin(gentype, sgentype)).
    assert_eq!(all.len(), 11);
    assert!(all.contains(&"float4 (float4, float)".to_string()));
    assert!(!all.contains(&"float (float, float, float)".to_string()));
}

#[test]
fn pointer_arguments_follow_the_address_space_rules() {
    let v12 = names("fract", &ctx(120, false, false));
    assert!(v12.contains(&"float (float, __global float *)".to_string()));
    assert!(v12.contains(&"float (float, __local float *)".to_string()));
    assert!(v12.contains(&"float (float, __private float *)".to_string()));
    assert_eq!(v12.len(), 18);
    let v20 = names("fract", &ctx(200, false, true));
    assert_eq!(
        v20,
        vec![
            "float (float, float *)",
            "float2 (float2, float2 *)",
            "float3 (float3, float3 *)",
            "float4 (float4, float4 *)",
            "float8 (float8, float8 *)",
            "float16 (float16, float16 *)"
        ]
    );
}

#[test]
fn integer_abs_returns_the_unsigned_type() {
    let all = names("abs", &ctx(120, false, false));
    assert_eq!(all.len(), 48);
    assert!(all.contains(&"uchar (char)".to_string()));
    assert!(all.contains(&"ulong16 (long16)".to_string()));
}

#[test]
fn upsample_widens() {
    let all = names("upsample", &ctx(120, false, false));
    assert!(all.contains(&"short (char, uchar)".to_string()));
    assert!(all.contains(&"ulong4 (uint4, uint4)".to_string()));
    assert_eq!(all.len(), 36);
}

#[test]
fn relational_results_are_int_for_scalars_and_same_width_for_vectors() {
    let all = names("isnan", &ctx(120, true, false));
    assert!(all.contains(&"int (float)".to_string()));
    assert!(all.contains(&"int (double)".to_string()));
    assert!(all.contains(&"long4 (double4)".to_string()));
    assert!(all.contains(&"int8 (float8)".to_string()));
}

#[test]
fn work_item_functions_use_size_t_of_the_address_width() {
    assert_eq!(
        names("get_global_id", &ctx(120, false, false)),
        vec!["ulong (uint)"]
    );
    let c32 = Ctx {
        address_bits: 32,
        ..ctx(120, false, false)
    };
    assert_eq!(names("get_global_id", &c32), vec!["uint (uint)"]);
    assert!(names("get_global_linear_id", &ctx(120, false, false)).is_empty());
    assert_eq!(
        names("get_global_linear_id", &ctx(200, false, true)),
        vec!["ulong ()"]
    );
}

#[test]
fn geometric_functions_stop_at_four_components() {
    let cross = names("cross", &ctx(120, false, false));
    assert_eq!(
        cross,
        vec!["float3 (float3, float3)", "float4 (float4, float4)"]
    );
    let dot = names("dot", &ctx(120, true, false));
    assert_eq!(dot.len(), 8);
    assert!(dot.contains(&"double (double4, double4)".to_string()));
}

#[test]
fn convert_names_parse() {
    assert_eq!(
        parse_convert("convert_int4_sat_rte"),
        Some(ConvertName {
            to: Elem::Int,
            lanes: 4,
            saturate: true,
            rounding: Some(Rounding::Rte)
        })
    );
    assert_eq!(
        parse_convert("convert_float"),
        Some(ConvertName {
            to: Elem::Float,
            lanes: 1,
            saturate: false,
            rounding: None
        })
    );
    assert_eq!(parse_convert("convert_float5"), None);
    assert_eq!(parse_convert("convert_int_rtq"), None);
    assert_eq!(parse_convert("convert_bool"), None);
    assert_eq!(parse_as_type("as_uchar16"), Some((Elem::UChar, 16)));
    assert_eq!(parse_as_type("as_ulong3"), Some((Elem::ULong, 3)));
}

#[test]
fn accuracy_comes_from_the_full_profile_table() {
    let sqrt = lookup("sqrt").unwrap();
    assert_eq!(sqrt.accuracy(Elem::Float), Some(Accuracy::Ulp(3.0)));
    assert_eq!(
        sqrt.accuracy(Elem::Double),
        Some(Accuracy::CorrectlyRounded)
    );
    assert_eq!(
        lookup("pow").unwrap().accuracy(Elem::Float),
        Some(Accuracy::Ulp(16.0))
    );
    assert_eq!(lookup("min").unwrap().accuracy(Elem::Float), None);
}

#[test]
fn every_extinst_name_is_an_opencl_std_instruction() {
    // The instruction names of extinst.opencl.std.100.grammar.json, read from the grammar file.
    let grammar = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/spirv/extinst.opencl.std.100.grammar.json"
    ));
    let Ok(grammar) = grammar else {
        eprintln!("skipped: the shared grammar directory is not beside the repository");
        return;
    };
    for family in FAMILIES {
        let names: Vec<&str> = match family.lowering {
            Lowering::ExtInst(n) => vec![n],
            Lowering::ExtInstBySign { signed, unsigned } => vec![signed, unsigned],
            Lowering::ExtInstByKind {
                float,
                signed,
                unsigned,
            } => vec![float, signed, unsigned],
            _ => vec![],
        };
        for name in names {
            assert!(
                grammar.contains(&format!("\"opname\" : \"{name}\"")),
                "{name} of {}",
                family.name
            );
        }
    }
}

#[test]
fn family_names_are_unique() {
    for (i, a) in FAMILIES.iter().enumerate() {
        assert!(
            FAMILIES[i + 1..].iter().all(|b| b.name != a.name),
            "{} twice",
            a.name
        );
    }
}
