//! OpenCL C types after resolution (OpenCL C 2.0 §6.1): scalars, vectors, pointers with an
//! address space, arrays, structs/unions; sizes and alignments (§6.1.5), and their spelling
//! in diagnostics.

use crate::ast::{AddrSpace, ScalarName};

/// Scalar types (§6.1.1). `size_t` and friends are resolved to `uint`/`ulong` by the target.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Scalar {
    Bool,
    Char,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
    Half,
    Float,
    Double,
}

impl Scalar {
    pub fn from_name(n: ScalarName) -> Scalar {
        match n {
            ScalarName::Bool => Scalar::Bool,
            ScalarName::Char => Scalar::Char,
            ScalarName::UChar => Scalar::UChar,
            ScalarName::Short => Scalar::Short,
            ScalarName::UShort => Scalar::UShort,
            ScalarName::Int => Scalar::Int,
            ScalarName::UInt => Scalar::UInt,
            ScalarName::Long => Scalar::Long,
            ScalarName::ULong => Scalar::ULong,
            ScalarName::Half => Scalar::Half,
            ScalarName::Float => Scalar::Float,
            ScalarName::Double => Scalar::Double,
        }
    }

    pub fn bits(self) -> u32 {
        match self {
            Scalar::Bool => 1,
            Scalar::Char | Scalar::UChar => 8,
            Scalar::Short | Scalar::UShort | Scalar::Half => 16,
            Scalar::Int | Scalar::UInt | Scalar::Float => 32,
            Scalar::Long | Scalar::ULong | Scalar::Double => 64,
        }
    }

    /// Size in bytes (`bool` is 1).
    pub fn size(self) -> u32 {
        (self.bits() / 8).max(1)
    }

    pub fn is_float(self) -> bool {
        matches!(self, Scalar::Half | Scalar::Float | Scalar::Double)
    }

    pub fn is_integer(self) -> bool {
        !self.is_float() && self != Scalar::Bool
    }

    pub fn is_signed(self) -> bool {
        matches!(
            self,
            Scalar::Char | Scalar::Short | Scalar::Int | Scalar::Long
        )
    }

    /// Integer conversion rank (C99 6.3.1.1); floats rank above all integers.
    pub fn rank(self) -> u32 {
        match self {
            Scalar::Bool => 0,
            Scalar::Char | Scalar::UChar => 1,
            Scalar::Short | Scalar::UShort => 2,
            Scalar::Int | Scalar::UInt => 3,
            Scalar::Long | Scalar::ULong => 4,
            Scalar::Half => 5,
            Scalar::Float => 6,
            Scalar::Double => 7,
        }
    }

    pub fn int_of(bits: u32, signed: bool) -> Scalar {
        match (bits, signed) {
            (8, true) => Scalar::Char,
            (8, false) => Scalar::UChar,
            (16, true) => Scalar::Short,
            (16, false) => Scalar::UShort,
            (64, true) => Scalar::Long,
            (64, false) => Scalar::ULong,
            (_, true) => Scalar::Int,
            (_, false) => Scalar::UInt,
        }
    }

    /// The unsigned integer of the same width (for `ugentype`).
    pub fn to_unsigned(self) -> Scalar {
        if self.is_integer() {
            Scalar::int_of(self.bits(), false)
        } else {
            self
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Scalar::Bool => "bool",
            Scalar::Char => "char",
            Scalar::UChar => "uchar",
            Scalar::Short => "short",
            Scalar::UShort => "ushort",
            Scalar::Int => "int",
            Scalar::UInt => "uint",
            Scalar::Long => "long",
            Scalar::ULong => "ulong",
            Scalar::Half => "half",
            Scalar::Float => "float",
            Scalar::Double => "double",
        }
    }

    pub fn from_elem(e: builtins::Elem) -> Scalar {
        use builtins::Elem as E;
        match e {
            E::Bool => Scalar::Bool,
            E::Char => Scalar::Char,
            E::UChar => Scalar::UChar,
            E::Short => Scalar::Short,
            E::UShort => Scalar::UShort,
            E::Int => Scalar::Int,
            E::UInt => Scalar::UInt,
            E::Long => Scalar::Long,
            E::ULong => Scalar::ULong,
            E::Half => Scalar::Half,
            E::Float => Scalar::Float,
            E::Double => Scalar::Double,
        }
    }
}

/// A record (struct or union) definition; fields in order.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    pub name: String,
    pub is_union: bool,
    pub fields: Vec<(String, Type)>,
    /// False while only declared (`struct S;`).
    pub complete: bool,
}

/// A resolved type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    Void,
    Scalar(Scalar),
    Vector(Scalar, u8),
    Pointer(Box<Pointee>),
    Array(Box<Type>, u32),
    /// Index into the record table.
    Record(u32),
    /// `event_t` (opaque).
    Event,
    /// `image2d_t` and the other image types (§6.1.4), with their access qualifier.
    Image(ImageType),
    /// `sampler_t` (§6.1.4).
    Sampler,
    /// `pipe T` (§6.13.16): the packet type and whether the pipe is `write_only` (else
    /// `read_only`, the default).
    Pipe(Box<Type>, bool),
    /// `reserve_id_t` (§6.13.16.2).
    ReserveId,
    /// `queue_t` (§6.13.17): a device queue (`OpTypeQueue`).
    Queue,
    /// `clk_event_t` (§6.13.17): a device-side event (`OpTypeDeviceEvent`).
    ClkEvent,
    /// `ndrange_t` (§6.13.17.1): llvm-spirv's `struct ndrange_t { uint dims; size_t offset[3],
    /// global[3], local[3]; }`, the result of `OpBuildNDRange`.
    NdRange,
    /// A Block reference (§1.12): its signature and, once bound, the literal it refers to.
    Block(Box<BlockSig>),
    /// An atomic type of OpenCL C 2.0 §6.13.11.6 (`atomic_int` is `Atomic(Int)`; clang's
    /// `_Atomic(int)`): laid out as its value type, but only the atomic functions operate on
    /// it (§6.13.11.8: no operators). `atomic_flag` is `Atomic(Int)` too, as in clang.
    Atomic(Scalar),
}

/// The type of a Block (§1.12.2) plus the Block literal a value refers to (blocks are
/// statically determinable, §1.12.5, so every Block value is one known literal).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BlockSig {
    pub ret: Type,
    pub params: Vec<Type>,
    /// Index of the literal in the emitter's table; `None` for a declared type.
    pub literal: Option<u32>,
}

impl BlockSig {
    /// Same return and parameter types (the literal does not matter).
    pub fn same_signature(&self, other: &BlockSig) -> bool {
        self.ret == other.ret && self.params == other.params
    }
}

/// An image type: its dimensionality and access.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct ImageType {
    pub dim: ImageDim,
    pub arrayed: bool,
    pub depth: bool,
    pub access: crate::ast::ImageAccess,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ImageDim {
    D1,
    D2,
    D3,
    Buffer,
}

impl ImageType {
    /// `image2d_array_t` → (2D, arrayed); `None` for other names.
    pub fn from_name(name: &str, access: crate::ast::ImageAccess) -> Option<ImageType> {
        let (dim, arrayed, depth) = match name {
            "image1d_t" => (ImageDim::D1, false, false),
            "image1d_array_t" => (ImageDim::D1, true, false),
            "image1d_buffer_t" => (ImageDim::Buffer, false, false),
            "image2d_t" => (ImageDim::D2, false, false),
            "image2d_array_t" => (ImageDim::D2, true, false),
            "image2d_depth_t" => (ImageDim::D2, false, true),
            "image2d_array_depth_t" => (ImageDim::D2, true, true),
            "image3d_t" => (ImageDim::D3, false, false),
            _ => return None,
        };
        Some(ImageType {
            dim,
            arrayed,
            depth,
            access,
        })
    }

    /// The OpenCL C spelling (`image2d_array_t`).
    pub fn name(&self) -> &'static str {
        match (self.dim, self.arrayed, self.depth) {
            (ImageDim::D1, false, _) => "image1d_t",
            (ImageDim::D1, true, _) => "image1d_array_t",
            (ImageDim::Buffer, _, _) => "image1d_buffer_t",
            (ImageDim::D2, false, false) => "image2d_t",
            (ImageDim::D2, true, false) => "image2d_array_t",
            (ImageDim::D2, false, true) => "image2d_depth_t",
            (ImageDim::D2, true, true) => "image2d_array_depth_t",
            (ImageDim::D3, _, _) => "image3d_t",
        }
    }

    /// Components of an integer coordinate (`int`, `int2`, `int4`): dimensions plus the layer.
    pub fn coord_lanes(&self) -> u8 {
        let n = match self.dim {
            ImageDim::D1 | ImageDim::Buffer => 1,
            ImageDim::D2 => 2,
            ImageDim::D3 => 3,
        } + self.arrayed as u8;
        if n == 3 {
            4
        } else {
            n
        }
    }

    /// Components of `OpImageQuerySize(Lod)`: dimensions plus the layer count.
    pub fn size_lanes(&self) -> u8 {
        (match self.dim {
            ImageDim::D1 | ImageDim::Buffer => 1,
            ImageDim::D2 => 2,
            ImageDim::D3 => 3,
        }) + self.arrayed as u8
    }
}

/// What a pointer points to: the type, its address space and qualifiers.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Pointee {
    pub ty: Type,
    pub space: AddrSpace,
    pub is_const: bool,
    pub is_volatile: bool,
}

impl Type {
    pub const INT: Type = Type::Scalar(Scalar::Int);
    pub const UINT: Type = Type::Scalar(Scalar::UInt);
    pub const BOOL: Type = Type::Scalar(Scalar::Bool);

    pub fn pointer(ty: Type, space: AddrSpace, is_const: bool) -> Type {
        Type::Pointer(Box::new(Pointee {
            ty,
            space,
            is_const,
            is_volatile: false,
        }))
    }

    pub fn vector_or_scalar(s: Scalar, n: u8) -> Type {
        if n <= 1 {
            Type::Scalar(s)
        } else {
            Type::Vector(s, n)
        }
    }

    pub fn scalar(&self) -> Option<Scalar> {
        match self {
            Type::Scalar(s) => Some(*s),
            _ => None,
        }
    }

    /// The element scalar of a scalar or vector.
    pub fn elem(&self) -> Option<Scalar> {
        match self {
            Type::Scalar(s) | Type::Vector(s, _) => Some(*s),
            _ => None,
        }
    }

    /// Components: 1 for scalars, n for vectors.
    pub fn lanes(&self) -> u8 {
        match self {
            Type::Vector(_, n) => *n,
            _ => 1,
        }
    }

    pub fn is_vector(&self) -> bool {
        matches!(self, Type::Vector(..))
    }

    pub fn is_arith(&self) -> bool {
        matches!(self, Type::Scalar(_) | Type::Vector(..))
    }

    pub fn is_scalar_arith(&self) -> bool {
        matches!(self, Type::Scalar(_))
    }

    pub fn is_integer(&self) -> bool {
        self.elem()
            .is_some_and(|s| s.is_integer() || s == Scalar::Bool)
    }

    pub fn is_float(&self) -> bool {
        self.elem().is_some_and(|s| s.is_float())
    }

    pub fn is_pointer(&self) -> bool {
        matches!(self, Type::Pointer(_))
    }

    pub fn pointee(&self) -> Option<&Pointee> {
        match self {
            Type::Pointer(p) => Some(p),
            _ => None,
        }
    }

    /// Scalar types plus pointers (what a condition may have, C99 6.8.4.1).
    pub fn is_scalar_like(&self) -> bool {
        matches!(self, Type::Scalar(_) | Type::Pointer(_))
    }

    /// The same shape with another element type (for vectors keeps the width).
    pub fn with_elem(&self, s: Scalar) -> Type {
        Type::vector_or_scalar(s, self.lanes())
    }

    /// Spelling for diagnostics, like clang (`float4`, `__global int *`).
    pub fn display(&self, records: &[Record]) -> String {
        match self {
            Type::Void => "void".into(),
            Type::Scalar(s) => s.name().into(),
            Type::Atomic(s) => format!("atomic_{}", s.name()),
            Type::Vector(s, n) => format!("{}{}", s.name(), n),
            Type::Pointer(p) => {
                let mut s = String::new();
                if p.space != AddrSpace::Private && p.space != AddrSpace::Generic {
                    s.push_str(p.space.keyword());
                    s.push(' ');
                }
                if p.is_const {
                    s.push_str("const ");
                }
                if p.is_volatile {
                    s.push_str("volatile ");
                }
                s.push_str(&p.ty.display(records));
                s.push_str(" *");
                s
            }
            Type::Array(t, n) => format!("{}[{}]", t.display(records), n),
            Type::Record(i) => match records.get(*i as usize) {
                Some(r) => format!("{} {}", if r.is_union { "union" } else { "struct" }, r.name),
                None => "struct <error>".into(),
            },
            Type::Event => "event_t".into(),
            Type::Image(i) => {
                let access = match i.access {
                    crate::ast::ImageAccess::ReadOnly => "__read_only",
                    crate::ast::ImageAccess::WriteOnly => "__write_only",
                    crate::ast::ImageAccess::ReadWrite => "__read_write",
                };
                format!("{access} {}", i.name())
            }
            Type::Sampler => "sampler_t".into(),
            Type::Pipe(t, write) => format!(
                "{} pipe {}",
                if *write { "write_only" } else { "read_only" },
                t.display(records)
            ),
            Type::ReserveId => "reserve_id_t".into(),
            Type::Queue => "queue_t".into(),
            Type::ClkEvent => "clk_event_t".into(),
            Type::NdRange => "ndrange_t".into(),
            Type::Block(b) => {
                let params: Vec<String> = b.params.iter().map(|p| p.display(records)).collect();
                let params = if params.is_empty() {
                    "void".to_string()
                } else {
                    params.join(", ")
                };
                format!("{} (^)({params})", b.ret.display(records))
            }
        }
    }
}

/// Size and alignment in bytes (§6.1.5: a 3-component vector has the size and alignment of a
/// 4-component one; vectors are aligned to their size). `pointer_bytes` is 4 or 8.
pub fn size_align(ty: &Type, records: &[Record], pointer_bytes: u32) -> (u64, u64) {
    match ty {
        Type::Void => (1, 1),
        // §6.13.11.6: atomic types have the size of their value type.
        Type::Scalar(s) | Type::Atomic(s) => (s.size() as u64, s.size() as u64),
        Type::Vector(s, n) => {
            let n = if *n == 3 { 4 } else { *n as u64 };
            let sz = s.size() as u64 * n;
            (sz, sz)
        }
        Type::Pointer(_)
        | Type::Event
        | Type::Image(_)
        | Type::Pipe(..)
        | Type::ReserveId
        | Type::Queue
        | Type::ClkEvent
        | Type::Block(_) => (pointer_bytes as u64, pointer_bytes as u64),
        // `{ uint; size_t[3]; size_t[3]; size_t[3] }`.
        Type::NdRange => ((pointer_bytes as u64) * 10, pointer_bytes as u64),
        // A sampler is a 32-bit value (llvm-spirv: `i32` before translation).
        Type::Sampler => (4, 4),
        Type::Array(t, n) => {
            let (s, a) = size_align(t, records, pointer_bytes);
            (s.saturating_mul(*n as u64), a)
        }
        Type::Record(i) => {
            let Some(r) = records.get(*i as usize) else {
                return (1, 1);
            };
            let mut size = 0u64;
            let mut align = 1u64;
            for (_, f) in &r.fields {
                let (s, a) = size_align(f, records, pointer_bytes);
                align = align.max(a);
                if r.is_union {
                    size = size.max(s);
                } else {
                    size = size.div_ceil(a) * a + s;
                }
            }
            let size = size.div_ceil(align) * align;
            (size.max(if r.fields.is_empty() { 0 } else { 1 }), align)
        }
    }
}

/// Byte offset of each field of a struct (C layout, §6.1.5).
pub fn field_offsets(r: &Record, records: &[Record], pointer_bytes: u32) -> Vec<u64> {
    let mut out = Vec::new();
    let mut size = 0u64;
    for (_, f) in &r.fields {
        let (s, a) = size_align(f, records, pointer_bytes);
        if r.is_union {
            out.push(0);
        } else {
            size = size.div_ceil(a) * a;
            out.push(size);
            size += s;
        }
    }
    out
}

/// Usual arithmetic conversions of two scalar types (C99 6.3.1.8, OpenCL C 2.0 §6.2.6).
pub fn common_scalar(a: Scalar, b: Scalar) -> Scalar {
    if a.is_float() || b.is_float() {
        return if a.rank() >= b.rank() { a } else { b };
    }
    let a = promote(a);
    let b = promote(b);
    if a == b {
        return a;
    }
    if a.is_signed() == b.is_signed() {
        return if a.rank() >= b.rank() { a } else { b };
    }
    let (s, u) = if a.is_signed() { (a, b) } else { (b, a) };
    if u.rank() >= s.rank() {
        u
    } else if s.bits() > u.bits() {
        s
    } else {
        s.to_unsigned()
    }
}

/// Integer promotion (C99 6.3.1.1): types ranked below `int` become `int`.
pub fn promote(s: Scalar) -> Scalar {
    if s.is_integer() && s.rank() < 3 || s == Scalar::Bool {
        Scalar::Int
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_conversions() {
        assert_eq!(common_scalar(Scalar::Char, Scalar::UChar), Scalar::Int);
        assert_eq!(common_scalar(Scalar::Int, Scalar::UInt), Scalar::UInt);
        assert_eq!(common_scalar(Scalar::Long, Scalar::UInt), Scalar::Long);
        assert_eq!(common_scalar(Scalar::ULong, Scalar::Int), Scalar::ULong);
        assert_eq!(common_scalar(Scalar::Float, Scalar::Long), Scalar::Float);
        assert_eq!(common_scalar(Scalar::Float, Scalar::Double), Scalar::Double);
    }

    #[test]
    fn layout() {
        let recs = vec![Record {
            name: "S".into(),
            is_union: false,
            fields: vec![
                ("a".into(), Type::Scalar(Scalar::Char)),
                ("b".into(), Type::Vector(Scalar::Float, 3)),
                ("c".into(), Type::Scalar(Scalar::Short)),
            ],
            complete: true,
        }];
        // char at 0, float3 (16-byte aligned) at 16, short at 32, size rounded to 48.
        assert_eq!(size_align(&Type::Record(0), &recs, 8), (48, 16));
        assert_eq!(field_offsets(&recs[0], &recs, 8), vec![0, 16, 32]);
    }
}
