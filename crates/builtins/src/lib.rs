//! The one table of OpenCL C built-in function families.
//!
//! Each [`Family`] names a built-in (`sqrt`, `get_global_id`, `clamp`, …), the domain of types it is
//! defined on, its signature patterns (the spec's `gentype` notation, see [`sig`]), the OpenCL C
//! version it appeared in, and how it maps to SPIR-V ([`Lowering`]: an OpenCL.std extended
//! instruction, a core opcode, a built-in variable, …). [`Family::overloads`] expands a family to
//! every concrete overload for a compilation context ([`Ctx`]: OpenCL C version, fp16/fp64, generic
//! address space).
//!
//! The compiler (`clc`) declares and lowers built-ins from this table, the lowering (`kir`) resolves
//! OpenCL.std instructions against the same names, and tests walk it for coverage. Accuracy bounds
//! come from [`ulp::FULL_PROFILE`].
//!
//! This crate depends on nothing: SPIR-V names are kept as strings (`"OpDot"`, OpenCL.std `"s_abs"`)
//! and resolved by the consumers against the grammar tables of `spv`.
//!
//! Work-group collectives and sub-group functions are families here ([`Requires`] says which
//! device support they need). Not yet in the table: images (whose argument types are not
//! [`Ty`]s yet), pipes, atomics, async copies, printf, address-space
//! qualifier functions, shuffle, and the `vload`/`vstore` families — the compiler knows those
//! by name. The device-side enqueue built-ins are listed in [`enqueue::DEVICE_ENQUEUE`].

pub mod enqueue;
pub mod sig;
pub mod ulp;

mod table;

pub use enqueue::{is_device_enqueue, EnqueueOverload, DEVICE_ENQUEUE};
pub use sig::{AddrSpace, Elem, Overload, Ty};
pub use table::FAMILIES;

/// What part of section 6.13 (OpenCL C 2.0: 1.13) a family belongs to.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Category {
    WorkItem,
    Math,
    HalfMath,
    NativeMath,
    Integer,
    Common,
    Geometric,
    Relational,
    Synchronization,
    /// OpenCL C 2.0 1.13.15 work-group functions.
    WorkGroup,
    /// cl_khr_subgroups / `__opencl_c_subgroups` (OpenCL C 3.0 6.15.16).
    SubGroup,
}

/// What besides the OpenCL C version a family needs from the device.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Requires {
    Nothing,
    /// Work-group collective functions: OpenCL C 2.0, or 3.0 with
    /// `__opencl_c_work_group_collective_functions`.
    WorkGroupCollectives,
    /// Sub-groups: `cl_khr_subgroups` or `__opencl_c_subgroups`.
    Subgroups,
}

/// The scope of a group instruction.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GroupScope {
    /// SPIR-V `Workgroup` (2).
    WorkGroup,
    /// SPIR-V `Subgroup` (3).
    SubGroup,
}

/// The `GroupOperation` of an arithmetic group instruction.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GroupOperation {
    Reduce,
    InclusiveScan,
    ExclusiveScan,
}

/// The set of element types a family's type variable `T` ranges over.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Domain {
    /// No type variable: the signature is concrete.
    None,
    /// `gentype` of the math functions: float, double (fp64), half (fp16), scalar and every vector width.
    Float,
    /// `gentypef`/`gentyped` restricted to scalars and 2, 3, 4 components (geometric functions).
    FloatGeometric,
    /// Only `float` scalars and vectors (the `half_` and `native_` families).
    FloatOnly,
    /// Only `float` scalars and 2, 3, 4 components (the `fast_` geometric functions).
    FloatOnlyGeometric,
    /// `gentype` of the integer functions: char … ulong, scalar and every vector width.
    Integer,
    /// Only 32-bit integers (`mul24`, `mad24`).
    Int32,
    /// char … uint (the narrow operands of `upsample`: char, short, int and unsigned ones).
    Upsample,
    /// Signed integers only (`any`, `all`).
    SignedInteger,
    /// Scalars of the work-group and sub-group functions: int, uint, long, ulong, float, and
    /// half / double when supported.
    GroupScalar,
    /// Every integer and float element type (`select`, `bitselect`).
    All,
}

/// How a call is expressed in SPIR-V.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Lowering {
    /// `OpExtInst` of OpenCL.std with the arguments in order.
    ExtInst(&'static str),
    /// An OpenCL.std instruction chosen by the signedness of the integer element type.
    ExtInstBySign {
        signed: &'static str,
        unsigned: &'static str,
    },
    /// An OpenCL.std instruction chosen by element kind (float, signed integer, unsigned integer).
    ExtInstByKind {
        float: &'static str,
        signed: &'static str,
        unsigned: &'static str,
    },
    /// The value of a built-in variable (`BuiltIn` decoration name) at index `dim` (the argument), or the
    /// scalar variable itself for `get_work_dim`.
    WorkItem(&'static str),
    /// A core opcode that returns a `bool` (or vector of `bool`); the compiler converts the result to the
    /// OpenCL C result type (scalar 1/0 as `int`, vector -1/0) — the relational functions.
    Predicate(&'static str),
    /// A core opcode whose result is the call's result (`OpDot`).
    Core(&'static str),
    /// `any`/`all`: the core op applied to the sign bits (`x < 0`) of an integer vector.
    SignBitsReduce(&'static str),
    /// `OpControlBarrier` with work-group execution scope; the argument is `cl_mem_fence_flags`.
    Barrier,
    /// `OpMemoryBarrier` with work-group scope; the argument is `cl_mem_fence_flags`.
    MemFence,
    /// `sub_group_barrier`: `OpControlBarrier` with sub-group execution scope (and work-group
    /// memory scope unless one is given, as llvm-spirv emits it).
    SubgroupBarrier,
    /// `OpGroupAll` / `OpGroupAny` on `x != 0`, the `bool` result selected to `int` 1/0.
    GroupPredicate(&'static str, GroupScope),
    /// `OpGroupBroadcast`; work-group local ids of 2 or 3 dimensions become a `size_t` vector.
    GroupBroadcast(GroupScope),
    /// `OpGroup{F,I,S,U}{Add,Min,Max}` chosen by element kind, with a `GroupOperation`.
    GroupArith {
        float: &'static str,
        signed: &'static str,
        unsigned: &'static str,
        operation: GroupOperation,
        scope: GroupScope,
    },
}

/// Minimum accuracy of a math function for one floating-point type (env 8.5).
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Accuracy {
    CorrectlyRounded,
    /// At most this many ulp.
    Ulp(f32),
    ImplementationDefined,
    /// `mad`: either a correctly rounded fma or a multiply then add, each correctly rounded.
    MadEitherWay,
    /// The function is not defined for this type.
    NotApplicable,
}

/// One built-in function family.
#[derive(Copy, Clone, Debug)]
pub struct Family {
    pub name: &'static str,
    pub category: Category,
    pub domain: Domain,
    /// Signature patterns, see [`sig`]: return type first, then the parameters.
    pub sigs: &'static [&'static str],
    pub lowering: Lowering,
    /// The first OpenCL C version (100, 110, 120, 200, 300) that has the family.
    pub since: u32,
    /// Device support the family needs besides the version.
    pub requires: Requires,
}

/// The compilation context that decides which overloads exist.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Ctx {
    /// OpenCL C version: 100, 110, 120, 200 or 300.
    pub cl_version: u32,
    pub fp64: bool,
    /// `half` arithmetic (cl_khr_fp16); without it `half` is a storage type only.
    pub fp16: bool,
    /// The generic address space (OpenCL C 2.0, or 3.0 with `__opencl_c_generic_address_space`).
    pub generic_address_space: bool,
    /// 32 or 64: the width of `size_t`.
    pub address_bits: u32,
    /// Work-group collective functions exist (2.0, or 3.0 with the feature).
    pub work_group_collectives: bool,
    /// Sub-group functions exist (`cl_khr_subgroups` or `__opencl_c_subgroups`).
    pub subgroups: bool,
}

impl Family {
    /// Every concrete overload of this family in `ctx`; empty when the family does not exist there.
    pub fn overloads(&self, ctx: &Ctx) -> Vec<Overload> {
        if ctx.cl_version < self.since {
            return Vec::new();
        }
        let supported = match self.requires {
            Requires::Nothing => true,
            Requires::WorkGroupCollectives => ctx.work_group_collectives,
            Requires::Subgroups => ctx.subgroups,
        };
        if !supported {
            return Vec::new();
        }
        sig::expand(self, ctx)
    }

    /// The accuracy bound for this family and element type, if it is a math function in the table.
    pub fn accuracy(&self, elem: Elem) -> Option<Accuracy> {
        let name = match self.lowering {
            Lowering::ExtInst(name) => name,
            Lowering::ExtInstByKind { float, .. } => float,
            _ => return None,
        };
        let row = ulp::FULL_PROFILE.iter().find(|row| row.0 == name)?;
        match elem {
            Elem::Double => Some(row.1),
            Elem::Float => Some(row.2),
            Elem::Half => Some(row.3),
            _ => None,
        }
    }
}

/// The family named `name`, if it is a built-in.
pub fn lookup(name: &str) -> Option<&'static Family> {
    FAMILIES.iter().find(|family| family.name == name)
}

/// A parsed `convert_<type>[_sat][_<rounding>]` name (OpenCL C 2.0 1.2.3 "Explicit Conversions").
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ConvertName {
    pub to: Elem,
    /// 1 for scalars, else the vector width.
    pub lanes: u8,
    pub saturate: bool,
    pub rounding: Option<Rounding>,
}

/// Rounding-mode suffix of a conversion or `vstore_half`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Rounding {
    Rte,
    Rtz,
    Rtp,
    Rtn,
}

impl Rounding {
    pub fn from_suffix(suffix: &str) -> Option<Rounding> {
        Some(match suffix {
            "rte" => Rounding::Rte,
            "rtz" => Rounding::Rtz,
            "rtp" => Rounding::Rtp,
            "rtn" => Rounding::Rtn,
            _ => return None,
        })
    }

    /// The SPIR-V `FPRoundingMode` enumerant name.
    pub fn spirv_name(self) -> &'static str {
        match self {
            Rounding::Rte => "RTE",
            Rounding::Rtz => "RTZ",
            Rounding::Rtp => "RTP",
            Rounding::Rtn => "RTN",
        }
    }
}

/// Parses `convert_int4_sat_rte` and the like; `None` when `name` is not a conversion.
pub fn parse_convert(name: &str) -> Option<ConvertName> {
    let rest = name.strip_prefix("convert_")?;
    let mut parts = rest.split('_');
    let (to, lanes) = sig::parse_type_name(parts.next()?)?;
    if to == Elem::Bool {
        return None;
    }
    let mut saturate = false;
    let mut rounding = None;
    let mut next = parts.next();
    if next == Some("sat") {
        saturate = true;
        next = parts.next();
    }
    if let Some(suffix) = next {
        rounding = Some(Rounding::from_suffix(suffix)?);
        next = parts.next();
    }
    if next.is_some() {
        return None;
    }
    Some(ConvertName {
        to,
        lanes,
        saturate,
        rounding,
    })
}

/// Parses `as_float4` and the like (OpenCL C 2.0 1.2.4 "Reinterpreting Data As Another Type").
pub fn parse_as_type(name: &str) -> Option<(Elem, u8)> {
    let (elem, lanes) = sig::parse_type_name(name.strip_prefix("as_")?)?;
    (elem != Elem::Bool).then_some((elem, lanes))
}

#[cfg(test)]
mod tests;
