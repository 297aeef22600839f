//! The families, section by section of OpenCL C 2.0 1.13 (seed 003) / OpenCL C 3.0 6.15.

use crate::Category::{self, *};
use crate::Domain::{
    self, All, Float, FloatGeometric, FloatOnly, FloatOnlyGeometric, Int32, None, SignedInteger,
    Upsample,
};
use crate::Lowering::{
    self, Barrier, Core, ExtInst, ExtInstByKind, ExtInstBySign, GroupArith, GroupBroadcast,
    GroupPredicate, MemFence, SignBitsReduce, SubgroupBarrier,
};
use crate::{Family, GroupOperation, GroupScope, Requires};

const fn f(
    name: &'static str,
    category: Category,
    domain: Domain,
    sigs: &'static [&'static str],
    lowering: Lowering,
) -> Family {
    Family {
        name,
        category,
        domain,
        sigs,
        lowering,
        since: 100,
        requires: Requires::Nothing,
    }
}

const fn requires(family: Family, requires: Requires) -> Family {
    Family { requires, ..family }
}

/// A work-group function (OpenCL C 2.0 1.13.15): since 2.0, needing the collectives.
const fn work_group(
    name: &'static str,
    domain: Domain,
    sigs: &'static [&'static str],
    lowering: Lowering,
) -> Family {
    requires(
        since(f(name, WorkGroup, domain, sigs, lowering), 200),
        Requires::WorkGroupCollectives,
    )
}

/// A sub-group function (cl_khr_subgroups; OpenCL C 3.0 6.15.16).
const fn sub_group(
    name: &'static str,
    domain: Domain,
    sigs: &'static [&'static str],
    lowering: Lowering,
) -> Family {
    requires(
        since(f(name, SubGroup, domain, sigs, lowering), 200),
        Requires::Subgroups,
    )
}

/// `reduce`/`scan` of `add`/`min`/`max` over a work-group or a sub-group.
const fn group_arith(
    name: &'static str,
    op: &'static str,
    operation: GroupOperation,
    scope: GroupScope,
) -> Family {
    let (float, signed, unsigned) = match op.as_bytes()[1] {
        b'd' => ("OpGroupFAdd", "OpGroupIAdd", "OpGroupIAdd"),
        b'i' => ("OpGroupFMin", "OpGroupSMin", "OpGroupUMin"),
        _ => ("OpGroupFMax", "OpGroupSMax", "OpGroupUMax"),
    };
    let lowering = GroupArith {
        float,
        signed,
        unsigned,
        operation,
        scope,
    };
    match scope {
        GroupScope::WorkGroup => work_group(name, Domain::GroupScalar, UNARY, lowering),
        GroupScope::SubGroup => sub_group(name, Domain::GroupScalar, UNARY, lowering),
    }
}

const fn since(family: Family, version: u32) -> Family {
    Family {
        since: version,
        ..family
    }
}

const UNARY: &[&str] = &["T T"];
const BINARY: &[&str] = &["T T T"];
const TERNARY: &[&str] = &["T T T T"];
const MINMAX: &[&str] = &["T T T", "@v T T S"];
const WORK_ITEM: &[&str] = &["size_t uint"];

/// A math function of `gentype` with the same name in OpenCL C and OpenCL.std.
const fn math(name: &'static str, sigs: &'static [&'static str]) -> Family {
    f(name, Math, Float, sigs, ExtInst(name))
}

const fn int_by_sign(
    name: &'static str,
    sigs: &'static [&'static str],
    signed: &'static str,
    unsigned: &'static str,
) -> Family {
    f(
        name,
        Integer,
        Domain::Integer,
        sigs,
        ExtInstBySign { signed, unsigned },
    )
}

const fn relational(name: &'static str, sigs: &'static [&'static str], op: &'static str) -> Family {
    f(name, Relational, Float, sigs, Lowering::Predicate(op))
}

/// Every family of the table.
pub static FAMILIES: &[Family] = &[
    // 1.13.1 Work-item functions.
    f(
        "get_work_dim",
        WorkItem,
        None,
        &["uint"],
        Lowering::WorkItem("WorkDim"),
    ),
    f(
        "get_global_size",
        WorkItem,
        None,
        WORK_ITEM,
        Lowering::WorkItem("GlobalSize"),
    ),
    f(
        "get_global_id",
        WorkItem,
        None,
        WORK_ITEM,
        Lowering::WorkItem("GlobalInvocationId"),
    ),
    f(
        "get_local_size",
        WorkItem,
        None,
        WORK_ITEM,
        Lowering::WorkItem("WorkgroupSize"),
    ),
    since(
        f(
            "get_enqueued_local_size",
            WorkItem,
            None,
            WORK_ITEM,
            Lowering::WorkItem("EnqueuedWorkgroupSize"),
        ),
        200,
    ),
    f(
        "get_local_id",
        WorkItem,
        None,
        WORK_ITEM,
        Lowering::WorkItem("LocalInvocationId"),
    ),
    f(
        "get_num_groups",
        WorkItem,
        None,
        WORK_ITEM,
        Lowering::WorkItem("NumWorkgroups"),
    ),
    f(
        "get_group_id",
        WorkItem,
        None,
        WORK_ITEM,
        Lowering::WorkItem("WorkgroupId"),
    ),
    since(
        f(
            "get_global_offset",
            WorkItem,
            None,
            WORK_ITEM,
            Lowering::WorkItem("GlobalOffset"),
        ),
        110,
    ),
    since(
        f(
            "get_global_linear_id",
            WorkItem,
            None,
            &["size_t"],
            Lowering::WorkItem("GlobalLinearId"),
        ),
        200,
    ),
    since(
        f(
            "get_local_linear_id",
            WorkItem,
            None,
            &["size_t"],
            Lowering::WorkItem("LocalInvocationIndex"),
        ),
        200,
    ),
    // 1.13.2 Math functions.
    math("acos", UNARY),
    math("acosh", UNARY),
    math("acospi", UNARY),
    math("asin", UNARY),
    math("asinh", UNARY),
    math("asinpi", UNARY),
    math("atan", UNARY),
    math("atan2", BINARY),
    math("atanh", UNARY),
    math("atanpi", UNARY),
    math("atan2pi", BINARY),
    math("cbrt", UNARY),
    math("ceil", UNARY),
    math("copysign", BINARY),
    math("cos", UNARY),
    math("cosh", UNARY),
    math("cospi", UNARY),
    math("erfc", UNARY),
    math("erf", UNARY),
    math("exp", UNARY),
    math("exp2", UNARY),
    math("exp10", UNARY),
    math("expm1", UNARY),
    math("fabs", UNARY),
    math("fdim", BINARY),
    math("floor", UNARY),
    math("fma", TERNARY),
    math("fmax", MINMAX),
    math("fmin", MINMAX),
    math("fmod", BINARY),
    math("fract", &["T T *T"]),
    math("frexp", &["T T *I"]),
    math("hypot", BINARY),
    math("ilogb", &["I T"]),
    math("ldexp", &["T T I", "@v T T int"]),
    math("lgamma", UNARY),
    math("lgamma_r", &["T T *I"]),
    math("log", UNARY),
    math("log2", UNARY),
    math("log10", UNARY),
    math("log1p", UNARY),
    math("logb", UNARY),
    math("mad", TERNARY),
    math("maxmag", BINARY),
    math("minmag", BINARY),
    math("modf", &["T T *T"]),
    math("nan", &["T U"]),
    math("nextafter", BINARY),
    math("pow", BINARY),
    math("pown", &["T T I"]),
    math("powr", BINARY),
    math("remainder", BINARY),
    math("remquo", &["T T T *I"]),
    math("rint", UNARY),
    math("rootn", &["T T I"]),
    math("round", UNARY),
    math("rsqrt", UNARY),
    math("sin", UNARY),
    math("sincos", &["T T *T"]),
    math("sinh", UNARY),
    math("sinpi", UNARY),
    math("sqrt", UNARY),
    math("tan", UNARY),
    math("tanh", UNARY),
    math("tanpi", UNARY),
    math("tgamma", UNARY),
    math("trunc", UNARY),
    f("half_cos", HalfMath, FloatOnly, UNARY, ExtInst("half_cos")),
    f(
        "half_divide",
        HalfMath,
        FloatOnly,
        BINARY,
        ExtInst("half_divide"),
    ),
    f("half_exp", HalfMath, FloatOnly, UNARY, ExtInst("half_exp")),
    f(
        "half_exp2",
        HalfMath,
        FloatOnly,
        UNARY,
        ExtInst("half_exp2"),
    ),
    f(
        "half_exp10",
        HalfMath,
        FloatOnly,
        UNARY,
        ExtInst("half_exp10"),
    ),
    f("half_log", HalfMath, FloatOnly, UNARY, ExtInst("half_log")),
    f(
        "half_log2",
        HalfMath,
        FloatOnly,
        UNARY,
        ExtInst("half_log2"),
    ),
    f(
        "half_log10",
        HalfMath,
        FloatOnly,
        UNARY,
        ExtInst("half_log10"),
    ),
    f(
        "half_powr",
        HalfMath,
        FloatOnly,
        BINARY,
        ExtInst("half_powr"),
    ),
    f(
        "half_recip",
        HalfMath,
        FloatOnly,
        UNARY,
        ExtInst("half_recip"),
    ),
    f(
        "half_rsqrt",
        HalfMath,
        FloatOnly,
        UNARY,
        ExtInst("half_rsqrt"),
    ),
    f("half_sin", HalfMath, FloatOnly, UNARY, ExtInst("half_sin")),
    f(
        "half_sqrt",
        HalfMath,
        FloatOnly,
        UNARY,
        ExtInst("half_sqrt"),
    ),
    f("half_tan", HalfMath, FloatOnly, UNARY, ExtInst("half_tan")),
    f(
        "native_cos",
        NativeMath,
        FloatOnly,
        UNARY,
        ExtInst("native_cos"),
    ),
    f(
        "native_divide",
        NativeMath,
        FloatOnly,
        BINARY,
        ExtInst("native_divide"),
    ),
    f(
        "native_exp",
        NativeMath,
        FloatOnly,
        UNARY,
        ExtInst("native_exp"),
    ),
    f(
        "native_exp2",
        NativeMath,
        FloatOnly,
        UNARY,
        ExtInst("native_exp2"),
    ),
    f(
        "native_exp10",
        NativeMath,
        FloatOnly,
        UNARY,
        ExtInst("native_exp10"),
    ),
    f(
        "native_log",
        NativeMath,
        FloatOnly,
        UNARY,
        ExtInst("native_log"),
    ),
    f(
        "native_log2",
        NativeMath,
        FloatOnly,
        UNARY,
        ExtInst("native_log2"),
    ),
    f(
        "native_log10",
        NativeMath,
        FloatOnly,
        UNARY,
        ExtInst("native_log10"),
    ),
    f(
        "native_powr",
        NativeMath,
        FloatOnly,
        BINARY,
        ExtInst("native_powr"),
    ),
    f(
        "native_recip",
        NativeMath,
        FloatOnly,
        UNARY,
        ExtInst("native_recip"),
    ),
    f(
        "native_rsqrt",
        NativeMath,
        FloatOnly,
        UNARY,
        ExtInst("native_rsqrt"),
    ),
    f(
        "native_sin",
        NativeMath,
        FloatOnly,
        UNARY,
        ExtInst("native_sin"),
    ),
    f(
        "native_sqrt",
        NativeMath,
        FloatOnly,
        UNARY,
        ExtInst("native_sqrt"),
    ),
    f(
        "native_tan",
        NativeMath,
        FloatOnly,
        UNARY,
        ExtInst("native_tan"),
    ),
    // 1.13.3 Integer functions (max, min and clamp are shared with 1.13.4 below).
    int_by_sign("abs", &["U T"], "s_abs", "u_abs"),
    int_by_sign("abs_diff", &["U T T"], "s_abs_diff", "u_abs_diff"),
    int_by_sign("add_sat", BINARY, "s_add_sat", "u_add_sat"),
    int_by_sign("hadd", BINARY, "s_hadd", "u_hadd"),
    int_by_sign("rhadd", BINARY, "s_rhadd", "u_rhadd"),
    f("clz", Integer, Domain::Integer, UNARY, ExtInst("clz")),
    since(
        f("ctz", Integer, Domain::Integer, UNARY, ExtInst("ctz")),
        200,
    ),
    int_by_sign("mad_hi", TERNARY, "s_mad_hi", "u_mad_hi"),
    int_by_sign("mad_sat", TERNARY, "s_mad_sat", "u_mad_sat"),
    int_by_sign("mul_hi", BINARY, "s_mul_hi", "u_mul_hi"),
    f(
        "rotate",
        Integer,
        Domain::Integer,
        BINARY,
        ExtInst("rotate"),
    ),
    int_by_sign("sub_sat", BINARY, "s_sub_sat", "u_sub_sat"),
    f(
        "upsample",
        Integer,
        Upsample,
        &["W T U"],
        ExtInstBySign {
            signed: "s_upsample",
            unsigned: "u_upsample",
        },
    ),
    since(
        f(
            "popcount",
            Integer,
            Domain::Integer,
            UNARY,
            ExtInst("popcount"),
        ),
        120,
    ),
    f(
        "mad24",
        Integer,
        Int32,
        TERNARY,
        ExtInstBySign {
            signed: "s_mad24",
            unsigned: "u_mad24",
        },
    ),
    f(
        "mul24",
        Integer,
        Int32,
        BINARY,
        ExtInstBySign {
            signed: "s_mul24",
            unsigned: "u_mul24",
        },
    ),
    // 1.13.3 / 1.13.4: defined on integers and floats alike.
    f(
        "clamp",
        Common,
        All,
        &["T T T T", "@v T T S S"],
        ExtInstByKind {
            float: "fclamp",
            signed: "s_clamp",
            unsigned: "u_clamp",
        },
    ),
    f(
        "max",
        Common,
        All,
        MINMAX,
        ExtInstByKind {
            float: "fmax_common",
            signed: "s_max",
            unsigned: "u_max",
        },
    ),
    f(
        "min",
        Common,
        All,
        MINMAX,
        ExtInstByKind {
            float: "fmin_common",
            signed: "s_min",
            unsigned: "u_min",
        },
    ),
    // 1.13.4 Common functions.
    f("degrees", Common, Float, UNARY, ExtInst("degrees")),
    f(
        "mix",
        Common,
        Float,
        &["T T T T", "@v T T T S"],
        ExtInst("mix"),
    ),
    f("radians", Common, Float, UNARY, ExtInst("radians")),
    f(
        "step",
        Common,
        Float,
        &["T T T", "@v T S T"],
        ExtInst("step"),
    ),
    f(
        "smoothstep",
        Common,
        Float,
        &["T T T T", "@v T S S T"],
        ExtInst("smoothstep"),
    ),
    f("sign", Common, Float, UNARY, ExtInst("sign")),
    // 1.13.5 Geometric functions. `dot` on scalars is a multiplication (OpDot takes vectors only).
    f(
        "cross",
        Geometric,
        FloatGeometric,
        &["@34 T T T"],
        ExtInst("cross"),
    ),
    f("dot", Geometric, FloatGeometric, &["S T T"], Core("OpDot")),
    f(
        "distance",
        Geometric,
        FloatGeometric,
        &["S T T"],
        ExtInst("distance"),
    ),
    f(
        "length",
        Geometric,
        FloatGeometric,
        &["S T"],
        ExtInst("length"),
    ),
    f(
        "normalize",
        Geometric,
        FloatGeometric,
        UNARY,
        ExtInst("normalize"),
    ),
    f(
        "fast_distance",
        Geometric,
        FloatOnlyGeometric,
        &["S T T"],
        ExtInst("fast_distance"),
    ),
    f(
        "fast_length",
        Geometric,
        FloatOnlyGeometric,
        &["S T"],
        ExtInst("fast_length"),
    ),
    f(
        "fast_normalize",
        Geometric,
        FloatOnlyGeometric,
        UNARY,
        ExtInst("fast_normalize"),
    ),
    // 1.13.6 Relational functions.
    relational("isequal", &["R T T"], "OpFOrdEqual"),
    relational("isnotequal", &["R T T"], "OpFUnordNotEqual"),
    relational("isgreater", &["R T T"], "OpFOrdGreaterThan"),
    relational("isgreaterequal", &["R T T"], "OpFOrdGreaterThanEqual"),
    relational("isless", &["R T T"], "OpFOrdLessThan"),
    relational("islessequal", &["R T T"], "OpFOrdLessThanEqual"),
    relational("islessgreater", &["R T T"], "OpLessOrGreater"),
    relational("isfinite", &["R T"], "OpIsFinite"),
    relational("isinf", &["R T"], "OpIsInf"),
    relational("isnan", &["R T"], "OpIsNan"),
    relational("isnormal", &["R T"], "OpIsNormal"),
    relational("isordered", &["R T T"], "OpOrdered"),
    relational("isunordered", &["R T T"], "OpUnordered"),
    relational("signbit", &["R T"], "OpSignBitSet"),
    f(
        "any",
        Relational,
        SignedInteger,
        &["int T"],
        SignBitsReduce("OpAny"),
    ),
    f(
        "all",
        Relational,
        SignedInteger,
        &["int T"],
        SignBitsReduce("OpAll"),
    ),
    f("bitselect", Relational, All, TERNARY, ExtInst("bitselect")),
    f(
        "select",
        Relational,
        All,
        &["T T T G", "T T T U"],
        ExtInst("select"),
    ),
    // 1.13.8 Synchronization functions; 1.13.9 explicit memory fences.
    f("barrier", Synchronization, None, &["void uint"], Barrier),
    since(
        f(
            "work_group_barrier",
            Synchronization,
            None,
            &["void uint", "void uint int"],
            Barrier,
        ),
        200,
    ),
    f("mem_fence", Synchronization, None, &["void uint"], MemFence),
    f(
        "read_mem_fence",
        Synchronization,
        None,
        &["void uint"],
        MemFence,
    ),
    f(
        "write_mem_fence",
        Synchronization,
        None,
        &["void uint"],
        MemFence,
    ),
    // 1.13.15 Work-group functions.
    work_group(
        "work_group_all",
        None,
        &["int int"],
        GroupPredicate("OpGroupAll", GroupScope::WorkGroup),
    ),
    work_group(
        "work_group_any",
        None,
        &["int int"],
        GroupPredicate("OpGroupAny", GroupScope::WorkGroup),
    ),
    work_group(
        "work_group_broadcast",
        Domain::GroupScalar,
        &[
            "T T size_t",
            "T T size_t size_t",
            "T T size_t size_t size_t",
        ],
        GroupBroadcast(GroupScope::WorkGroup),
    ),
    group_arith(
        "work_group_reduce_add",
        "add",
        GroupOperation::Reduce,
        GroupScope::WorkGroup,
    ),
    group_arith(
        "work_group_reduce_min",
        "min",
        GroupOperation::Reduce,
        GroupScope::WorkGroup,
    ),
    group_arith(
        "work_group_reduce_max",
        "max",
        GroupOperation::Reduce,
        GroupScope::WorkGroup,
    ),
    group_arith(
        "work_group_scan_inclusive_add",
        "add",
        GroupOperation::InclusiveScan,
        GroupScope::WorkGroup,
    ),
    group_arith(
        "work_group_scan_inclusive_min",
        "min",
        GroupOperation::InclusiveScan,
        GroupScope::WorkGroup,
    ),
    group_arith(
        "work_group_scan_inclusive_max",
        "max",
        GroupOperation::InclusiveScan,
        GroupScope::WorkGroup,
    ),
    group_arith(
        "work_group_scan_exclusive_add",
        "add",
        GroupOperation::ExclusiveScan,
        GroupScope::WorkGroup,
    ),
    group_arith(
        "work_group_scan_exclusive_min",
        "min",
        GroupOperation::ExclusiveScan,
        GroupScope::WorkGroup,
    ),
    group_arith(
        "work_group_scan_exclusive_max",
        "max",
        GroupOperation::ExclusiveScan,
        GroupScope::WorkGroup,
    ),
    // cl_khr_subgroups (OpenCL C 3.0 6.15.16 sub-group functions).
    sub_group(
        "get_sub_group_size",
        None,
        &["uint"],
        Lowering::WorkItem("SubgroupSize"),
    ),
    sub_group(
        "get_max_sub_group_size",
        None,
        &["uint"],
        Lowering::WorkItem("SubgroupMaxSize"),
    ),
    sub_group(
        "get_num_sub_groups",
        None,
        &["uint"],
        Lowering::WorkItem("NumSubgroups"),
    ),
    sub_group(
        "get_enqueued_num_sub_groups",
        None,
        &["uint"],
        Lowering::WorkItem("NumEnqueuedSubgroups"),
    ),
    sub_group(
        "get_sub_group_id",
        None,
        &["uint"],
        Lowering::WorkItem("SubgroupId"),
    ),
    sub_group(
        "get_sub_group_local_id",
        None,
        &["uint"],
        Lowering::WorkItem("SubgroupLocalInvocationId"),
    ),
    sub_group(
        "sub_group_barrier",
        None,
        &["void uint", "void uint int"],
        SubgroupBarrier,
    ),
    sub_group(
        "sub_group_all",
        None,
        &["int int"],
        GroupPredicate("OpGroupAll", GroupScope::SubGroup),
    ),
    sub_group(
        "sub_group_any",
        None,
        &["int int"],
        GroupPredicate("OpGroupAny", GroupScope::SubGroup),
    ),
    sub_group(
        "sub_group_broadcast",
        Domain::GroupScalar,
        &["T T uint"],
        GroupBroadcast(GroupScope::SubGroup),
    ),
    group_arith(
        "sub_group_reduce_add",
        "add",
        GroupOperation::Reduce,
        GroupScope::SubGroup,
    ),
    group_arith(
        "sub_group_reduce_min",
        "min",
        GroupOperation::Reduce,
        GroupScope::SubGroup,
    ),
    group_arith(
        "sub_group_reduce_max",
        "max",
        GroupOperation::Reduce,
        GroupScope::SubGroup,
    ),
    group_arith(
        "sub_group_scan_inclusive_add",
        "add",
        GroupOperation::InclusiveScan,
        GroupScope::SubGroup,
    ),
    group_arith(
        "sub_group_scan_inclusive_min",
        "min",
        GroupOperation::InclusiveScan,
        GroupScope::SubGroup,
    ),
    group_arith(
        "sub_group_scan_inclusive_max",
        "max",
        GroupOperation::InclusiveScan,
        GroupScope::SubGroup,
    ),
    group_arith(
        "sub_group_scan_exclusive_add",
        "add",
        GroupOperation::ExclusiveScan,
        GroupScope::SubGroup,
    ),
    group_arith(
        "sub_group_scan_exclusive_min",
        "min",
        GroupOperation::ExclusiveScan,
        GroupScope::SubGroup,
    ),
    group_arith(
        "sub_group_scan_exclusive_max",
        "max",
        GroupOperation::ExclusiveScan,
        GroupScope::SubGroup,
    ),
];
