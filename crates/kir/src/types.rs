//! Value types: sign-agnostic scalars, vectors, untyped pointers and byte aggregates.
//!
//! Integers carry no signedness (as in SPIR-V and Cranelift): the operation decides how bits are
//! read. Pointers are untyped: all access chains are lowered to byte offsets, so a pointer is an
//! address plus its address space. Structs and arrays held as SSA values are `Agg`: `size` bytes
//! with an alignment, read and written by byte offset.
//!
//! Text syntax: `bool i8 i16 i32 i64 f16 f32 f64`, vectors `i32x4` / `boolx4`, pointers
//! `ptr_private ptr_global ptr_constant ptr_local ptr_generic`, aggregates `agg16a4` (16 bytes,
//! alignment 4).

use std::fmt;

/// A scalar type: the lane type of vectors.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ScalarType {
    Bool,
    I8,
    I16,
    I32,
    I64,
    F16,
    F32,
    F64,
}

impl ScalarType {
    /// All scalar types, in text-syntax order.
    pub const ALL: [ScalarType; 8] = [
        ScalarType::Bool,
        ScalarType::I8,
        ScalarType::I16,
        ScalarType::I32,
        ScalarType::I64,
        ScalarType::F16,
        ScalarType::F32,
        ScalarType::F64,
    ];

    /// Width in bits (`Bool` counts as 8: its in-memory size is one byte).
    pub fn bits(self) -> u32 {
        match self {
            ScalarType::Bool | ScalarType::I8 => 8,
            ScalarType::I16 | ScalarType::F16 => 16,
            ScalarType::I32 | ScalarType::F32 => 32,
            ScalarType::I64 | ScalarType::F64 => 64,
        }
    }

    /// Size in bytes.
    pub fn bytes(self) -> u32 {
        self.bits() / 8
    }

    pub fn is_int(self) -> bool {
        matches!(
            self,
            ScalarType::I8 | ScalarType::I16 | ScalarType::I32 | ScalarType::I64
        )
    }

    pub fn is_float(self) -> bool {
        matches!(self, ScalarType::F16 | ScalarType::F32 | ScalarType::F64)
    }

    pub fn is_bool(self) -> bool {
        self == ScalarType::Bool
    }

    /// The integer type of `bits` width, if there is one.
    pub fn int(bits: u32) -> Option<ScalarType> {
        match bits {
            8 => Some(ScalarType::I8),
            16 => Some(ScalarType::I16),
            32 => Some(ScalarType::I32),
            64 => Some(ScalarType::I64),
            _ => None,
        }
    }

    /// The float type of `bits` width, if there is one.
    pub fn float(bits: u32) -> Option<ScalarType> {
        match bits {
            16 => Some(ScalarType::F16),
            32 => Some(ScalarType::F32),
            64 => Some(ScalarType::F64),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            ScalarType::Bool => "bool",
            ScalarType::I8 => "i8",
            ScalarType::I16 => "i16",
            ScalarType::I32 => "i32",
            ScalarType::I64 => "i64",
            ScalarType::F16 => "f16",
            ScalarType::F32 => "f32",
            ScalarType::F64 => "f64",
        }
    }

    pub fn from_name(name: &str) -> Option<ScalarType> {
        ScalarType::ALL.into_iter().find(|s| s.name() == name)
    }
}

impl fmt::Display for ScalarType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An address space (OpenCL C 6.5 / SPIR-V storage classes after lowering).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum AddrSpace {
    /// Function / Private storage: memory of one work-item.
    Private,
    /// CrossWorkgroup: `__global` buffers and program-scope globals.
    Global,
    /// UniformConstant: `__constant`.
    Constant,
    /// Workgroup: `__local`, one copy per work-group.
    Local,
    /// Generic: may point into Private, Global or Local.
    Generic,
}

impl AddrSpace {
    pub const ALL: [AddrSpace; 5] = [
        AddrSpace::Private,
        AddrSpace::Global,
        AddrSpace::Constant,
        AddrSpace::Local,
        AddrSpace::Generic,
    ];

    pub fn name(self) -> &'static str {
        match self {
            AddrSpace::Private => "private",
            AddrSpace::Global => "global",
            AddrSpace::Constant => "constant",
            AddrSpace::Local => "local",
            AddrSpace::Generic => "generic",
        }
    }

    pub fn from_name(name: &str) -> Option<AddrSpace> {
        AddrSpace::ALL.into_iter().find(|s| s.name() == name)
    }
}

impl fmt::Display for AddrSpace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The type of an SSA value.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Type {
    Bool,
    I8,
    I16,
    I32,
    I64,
    F16,
    F32,
    F64,
    /// A vector of 2, 3, 4, 8 or 16 lanes.
    Vec(ScalarType, u8),
    /// An untyped pointer into an address space. Its size is `Module::address_bits / 8`.
    Ptr(AddrSpace),
    /// A struct or array value: `size` bytes, aligned to `align`.
    Agg {
        size: u32,
        align: u32,
    },
}

impl Type {
    /// The scalar type as a `Type`.
    pub fn scalar(s: ScalarType) -> Type {
        match s {
            ScalarType::Bool => Type::Bool,
            ScalarType::I8 => Type::I8,
            ScalarType::I16 => Type::I16,
            ScalarType::I32 => Type::I32,
            ScalarType::I64 => Type::I64,
            ScalarType::F16 => Type::F16,
            ScalarType::F32 => Type::F32,
            ScalarType::F64 => Type::F64,
        }
    }

    /// `Vec(lane, lanes)` if `lanes > 1`, else the scalar `lane`.
    pub fn vector(lane: ScalarType, lanes: u8) -> Type {
        if lanes <= 1 {
            Type::scalar(lane)
        } else {
            Type::Vec(lane, lanes)
        }
    }

    /// The scalar this type is, if it is a scalar.
    pub fn as_scalar(self) -> Option<ScalarType> {
        match self {
            Type::Bool => Some(ScalarType::Bool),
            Type::I8 => Some(ScalarType::I8),
            Type::I16 => Some(ScalarType::I16),
            Type::I32 => Some(ScalarType::I32),
            Type::I64 => Some(ScalarType::I64),
            Type::F16 => Some(ScalarType::F16),
            Type::F32 => Some(ScalarType::F32),
            Type::F64 => Some(ScalarType::F64),
            _ => None,
        }
    }

    /// The lane type of a scalar or vector (the scalar itself for scalars).
    pub fn lane_type(self) -> Option<ScalarType> {
        match self {
            Type::Vec(s, _) => Some(s),
            t => t.as_scalar(),
        }
    }

    /// Number of lanes: 1 for scalars (and for pointers/aggregates).
    pub fn lanes(self) -> u32 {
        match self {
            Type::Vec(_, n) => u32::from(n),
            _ => 1,
        }
    }

    /// The same shape with another lane type (`i32x4` → `boolx4`).
    pub fn with_lane(self, lane: ScalarType) -> Type {
        Type::vector(lane, self.lanes() as u8)
    }

    pub fn is_vector(self) -> bool {
        matches!(self, Type::Vec(..))
    }

    pub fn is_ptr(self) -> bool {
        matches!(self, Type::Ptr(_))
    }

    pub fn is_agg(self) -> bool {
        matches!(self, Type::Agg { .. })
    }

    /// Scalar or vector of integers.
    pub fn is_int(self) -> bool {
        self.lane_type().is_some_and(ScalarType::is_int)
    }

    /// Scalar or vector of floats.
    pub fn is_float(self) -> bool {
        self.lane_type().is_some_and(ScalarType::is_float)
    }

    /// Scalar or vector of bools.
    pub fn is_bool(self) -> bool {
        self.lane_type().is_some_and(ScalarType::is_bool)
    }

    /// Size in bytes in memory. A 3-lane vector occupies 4 lanes (OpenCL C 6.1.5);
    /// a pointer occupies `address_bits / 8`.
    pub fn size(self, address_bits: u32) -> u32 {
        match self {
            Type::Vec(s, 3) => s.bytes() * 4,
            Type::Vec(s, n) => s.bytes() * u32::from(n),
            Type::Ptr(_) => address_bits / 8,
            Type::Agg { size, .. } => size,
            t => t.as_scalar().map_or(0, ScalarType::bytes),
        }
    }

    /// Natural alignment in bytes (equal to the size for scalars, vectors and pointers).
    pub fn align(self, address_bits: u32) -> u32 {
        match self {
            Type::Agg { align, .. } => align,
            t => t.size(address_bits).max(1),
        }
    }
}

impl From<ScalarType> for Type {
    fn from(s: ScalarType) -> Type {
        Type::scalar(s)
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Type::Vec(s, n) => write!(f, "{s}x{n}"),
            Type::Ptr(space) => write!(f, "ptr_{space}"),
            Type::Agg { size, align } => write!(f, "agg{size}a{align}"),
            t => match t.as_scalar() {
                Some(s) => f.write_str(s.name()),
                None => f.write_str("?"),
            },
        }
    }
}

impl std::str::FromStr for Type {
    type Err = ();

    /// Parses the text syntax written by `Display`.
    fn from_str(text: &str) -> Result<Type, ()> {
        if let Some(s) = ScalarType::from_name(text) {
            return Ok(Type::scalar(s));
        }
        if let Some(space) = text.strip_prefix("ptr_") {
            return AddrSpace::from_name(space).map(Type::Ptr).ok_or(());
        }
        if let Some(rest) = text.strip_prefix("agg") {
            let (size, align) = rest.split_once('a').ok_or(())?;
            let size = size.parse().map_err(|_| ())?;
            let align = align.parse().map_err(|_| ())?;
            return Ok(Type::Agg { size, align });
        }
        let (lane, lanes) = text.split_once('x').ok_or(())?;
        let lane = ScalarType::from_name(lane).ok_or(())?;
        let lanes: u8 = lanes.parse().map_err(|_| ())?;
        if matches!(lanes, 2 | 3 | 4 | 8 | 16) {
            Ok(Type::Vec(lane, lanes))
        } else {
            Err(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_round_trip_through_text() {
        let cases = [
            (Type::I32, "i32"),
            (Type::Bool, "bool"),
            (Type::Vec(ScalarType::F32, 4), "f32x4"),
            (Type::Vec(ScalarType::Bool, 3), "boolx3"),
            (Type::Ptr(AddrSpace::Local), "ptr_local"),
            (Type::Agg { size: 24, align: 8 }, "agg24a8"),
        ];
        for (ty, text) in cases {
            assert_eq!(ty.to_string(), text);
            assert_eq!(text.parse::<Type>(), Ok(ty));
        }
        assert!("i32x5".parse::<Type>().is_err());
        assert!("ptr_foo".parse::<Type>().is_err());
    }

    #[test]
    fn sizes_follow_opencl_c_layout() {
        // OpenCL C 6.1.5: a 3-component vector has the size of a 4-component one.
        assert_eq!(Type::Vec(ScalarType::F32, 3).size(64), 16);
        assert_eq!(Type::Vec(ScalarType::I8, 16).size(64), 16);
        assert_eq!(Type::Ptr(AddrSpace::Global).size(32), 4);
        assert_eq!(Type::Ptr(AddrSpace::Global).size(64), 8);
        assert_eq!(Type::Agg { size: 12, align: 4 }.align(64), 4);
    }
}
