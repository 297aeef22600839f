//! The type table: every SPIR-V type id with its kir value type and its memory layout.
//!
//! Layout rules (env 2.x "Alignment of Types", OpenCL C 6.1.5): integers, floats and pointers are
//! aligned to their size; vectors to their size, where a 3-component vector is sized as four
//! components; arrays have their element's alignment and a stride of the element size (or the
//! `ArrayStride` decoration); structs use `Offset` decorations when present, else the natural C
//! layout with padding, or no padding at all when decorated `CPacked`.

use std::collections::HashMap;

use crate::{AddrSpace, ScalarType, Type};

/// A SPIR-V id (the `u32` of `spv::Id`).
pub(crate) type SpvId = u32;

/// The shape of a SPIR-V type, with ids of component types.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum TypeKind {
    Void,
    Bool,
    Int {
        width: u32,
        signed: bool,
    },
    Float {
        width: u32,
    },
    Vector {
        elem: SpvId,
        count: u32,
    },
    Array {
        elem: SpvId,
        len: u64,
        stride: u64,
    },
    /// An array whose length is unknown (only behind pointers).
    RuntimeArray {
        elem: SpvId,
        stride: u64,
    },
    Struct {
        members: Vec<SpvId>,
        offsets: Vec<u64>,
        packed: bool,
    },
    Pointer {
        storage: u32,
        pointee: SpvId,
    },
    Function {
        ret: SpvId,
        params: Vec<SpvId>,
    },
    /// Event, DeviceEvent, ReserveId, Queue, Pipe, Image, Sampler, SampledImage, Opaque: a handle.
    Opaque {
        what: &'static str,
    },
}

/// One entry of the type table.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct TypeInfo {
    pub kind: TypeKind,
    /// Size in bytes in memory (0 for void/function types).
    pub size: u64,
    /// Alignment in bytes.
    pub align: u64,
}

/// Storage class numbers (SPIR-V spec 3.7) used by the lowering.
pub(crate) mod storage {
    pub const UNIFORM_CONSTANT: u32 = 0;
    pub const INPUT: u32 = 1;
    pub const WORKGROUP: u32 = 4;
    pub const CROSS_WORKGROUP: u32 = 5;
    pub const PRIVATE: u32 = 6;
    pub const FUNCTION: u32 = 7;
    pub const GENERIC: u32 = 8;
    pub const IMAGE: u32 = 11;
}

/// The kir address space of a SPIR-V storage class.
pub(crate) fn addr_space(storage_class: u32) -> Option<AddrSpace> {
    match storage_class {
        storage::UNIFORM_CONSTANT => Some(AddrSpace::Constant),
        storage::WORKGROUP => Some(AddrSpace::Local),
        storage::CROSS_WORKGROUP => Some(AddrSpace::Global),
        storage::PRIVATE | storage::FUNCTION | storage::INPUT => Some(AddrSpace::Private),
        storage::GENERIC => Some(AddrSpace::Generic),
        storage::IMAGE => Some(AddrSpace::Global),
        _ => None,
    }
}

/// Rounds `value` up to a multiple of `align` (a power of two or 1).
pub(crate) fn round_up(value: u64, align: u64) -> u64 {
    if align <= 1 {
        value
    } else {
        value.div_ceil(align) * align
    }
}

/// The table of all types of a module.
#[derive(Default, Debug)]
pub(crate) struct TypeTable {
    pub types: HashMap<SpvId, TypeInfo>,
    /// Pointer size in bytes (4 for Physical32, 8 for Physical64).
    pub pointer_bytes: u64,
}

impl TypeTable {
    pub fn get(&self, id: SpvId) -> Option<&TypeInfo> {
        self.types.get(&id)
    }

    /// The scalar kir type of a scalar SPIR-V type.
    pub fn scalar(&self, id: SpvId) -> Option<ScalarType> {
        match self.get(id)?.kind {
            TypeKind::Bool => Some(ScalarType::Bool),
            TypeKind::Int { width, .. } => ScalarType::int(width),
            TypeKind::Float { width } => ScalarType::float(width),
            _ => None,
        }
    }

    /// The kir value type of a SPIR-V type (None for void and function types).
    pub fn value_type(&self, id: SpvId) -> Option<Type> {
        let info = self.get(id)?;
        match &info.kind {
            TypeKind::Void | TypeKind::Function { .. } => None,
            TypeKind::Bool | TypeKind::Int { .. } | TypeKind::Float { .. } => {
                self.scalar(id).map(Type::scalar)
            }
            TypeKind::Vector { elem, count } => {
                let lane = self.scalar(*elem)?;
                Some(Type::Vec(lane, u8::try_from(*count).ok()?))
            }
            TypeKind::Pointer { storage, .. } => addr_space(*storage).map(Type::Ptr),
            TypeKind::Array { .. } | TypeKind::Struct { .. } | TypeKind::RuntimeArray { .. } => {
                Some(Type::Agg {
                    size: u32::try_from(info.size).ok()?,
                    align: u32::try_from(info.align).ok()?,
                })
            }
            // A sampler is its 32-bit encoded value (kir `ArgKind::Sampler`); other opaque
            // objects are pointer-sized handles.
            TypeKind::Opaque { what: "sampler_t" } => Some(Type::I32),
            // A named barrier is an i64 handle whatever the address size (kir `namedbarrier`).
            TypeKind::Opaque {
                what: "named_barrier",
            } => Some(Type::I64),
            // A pipe is the address of its memory object (kir `ArgKind::Pipe`); so is a pipe
            // storage (`lower/pipe_storage.rs`).
            TypeKind::Opaque { what } if what.ends_with(" pipe") || *what == "pipe storage" => {
                Some(Type::Ptr(crate::AddrSpace::Global))
            }
            TypeKind::Opaque { .. } => {
                ScalarType::int(self.pointer_bytes as u32 * 8).map(Type::scalar)
            }
        }
    }

    /// The pointee type of a pointer type.
    pub fn pointee(&self, ptr_type: SpvId) -> Option<SpvId> {
        match self.get(ptr_type)?.kind {
            TypeKind::Pointer { pointee, .. } => Some(pointee),
            _ => None,
        }
    }

    pub fn size(&self, id: SpvId) -> u64 {
        self.get(id).map_or(0, |t| t.size)
    }

    pub fn align(&self, id: SpvId) -> u64 {
        self.get(id).map_or(1, |t| t.align)
    }

    /// The byte offset and type of component `index` of a composite type: struct member,
    /// array element or vector component.
    pub fn component(&self, composite: SpvId, index: u64) -> Option<(u64, SpvId)> {
        match &self.get(composite)?.kind {
            TypeKind::Struct {
                members, offsets, ..
            } => {
                let i = usize::try_from(index).ok()?;
                Some((*offsets.get(i)?, *members.get(i)?))
            }
            TypeKind::Array { elem, stride, .. } | TypeKind::RuntimeArray { elem, stride } => {
                Some((index.checked_mul(*stride)?, *elem))
            }
            TypeKind::Vector { elem, .. } => Some((index.checked_mul(self.size(*elem))?, *elem)),
            _ => None,
        }
    }

    /// The element stride of an array, vector or (for pointer arithmetic) any type.
    pub fn stride(&self, composite: SpvId) -> Option<(u64, SpvId)> {
        match &self.get(composite)?.kind {
            TypeKind::Array { elem, stride, .. } | TypeKind::RuntimeArray { elem, stride } => {
                Some((*stride, *elem))
            }
            TypeKind::Vector { elem, .. } => Some((self.size(*elem), *elem)),
            _ => None,
        }
    }

    /// Inserts a scalar or vector type, computing its layout.
    pub fn insert(&mut self, id: SpvId, kind: TypeKind) {
        let (size, align) = self.layout_of(&kind);
        self.types.insert(id, TypeInfo { kind, size, align });
    }

    fn layout_of(&self, kind: &TypeKind) -> (u64, u64) {
        match kind {
            TypeKind::Void | TypeKind::Function { .. } => (0, 1),
            TypeKind::Bool => (1, 1),
            TypeKind::Int { width, .. } | TypeKind::Float { width } => {
                let bytes = u64::from(*width).div_ceil(8).max(1);
                (bytes, bytes)
            }
            // env "Alignment of Types": a vector is aligned to its size; a 3-component vector
            // is sized as four components.
            TypeKind::Vector { elem, count } => {
                let lanes = if *count == 3 { 4 } else { u64::from(*count) };
                let size = self.size(*elem) * lanes;
                (size, size.max(1))
            }
            TypeKind::Array { elem, len, stride } => (stride * len, self.align(*elem)),
            TypeKind::RuntimeArray { elem, .. } => (0, self.align(*elem)),
            TypeKind::Struct {
                members,
                offsets,
                packed,
            } => {
                let mut end = 0u64;
                let mut align = 1u64;
                for (m, off) in members.iter().zip(offsets) {
                    end = end.max(off + self.size(*m));
                    if !packed {
                        align = align.max(self.align(*m));
                    }
                }
                (round_up(end, align), align)
            }
            TypeKind::Opaque { what: "sampler_t" } => (4, 4),
            TypeKind::Opaque {
                what: "named_barrier",
            } => (8, 8),
            TypeKind::Pointer { .. } | TypeKind::Opaque { .. } => {
                (self.pointer_bytes, self.pointer_bytes)
            }
        }
    }

    /// Natural C member offsets of a struct (packed: no padding).
    pub fn natural_offsets(&self, members: &[SpvId], packed: bool) -> Vec<u64> {
        let mut offsets = Vec::with_capacity(members.len());
        let mut at = 0u64;
        for m in members {
            if !packed {
                at = round_up(at, self.align(*m));
            }
            offsets.push(at);
            at += self.size(*m);
        }
        offsets
    }
}
