//! Run-time values of the interpreter and their conversion to and from memory bytes.
//!
//! A scalar is its bit pattern zero-extended to `u64` (bools are 0 or 1, pointers their encoded
//! address, see `memory`); a vector is one such pattern per lane; an aggregate is its bytes.

use kir::{ScalarType, Type};

/// One SSA value at run time.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Val {
    S(u64),
    V(Vec<u64>),
    A(Vec<u8>),
}

impl Default for Val {
    fn default() -> Val {
        Val::S(0)
    }
}

/// The mask of the low `bits` bits.
pub fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// Sign-extends the low `bits` bits of `x` to i64.
pub fn sext(x: u64, bits: u32) -> i64 {
    if bits >= 64 {
        x as i64
    } else {
        let shift = 64 - bits;
        ((x << shift) as i64) >> shift
    }
}

/// Width in bits of a lane as held in a register (bool: 1 bit, value 0 or 1).
pub fn lane_bits(s: ScalarType) -> u32 {
    s.bits()
}

impl Val {
    /// The scalar bits (lane 0 of a vector, 0 for aggregates).
    pub fn s(&self) -> u64 {
        match self {
            Val::S(x) => *x,
            Val::V(l) => l.first().copied().unwrap_or(0),
            Val::A(_) => 0,
        }
    }

    /// The lanes: one for a scalar.
    pub fn lanes(&self) -> Vec<u64> {
        match self {
            Val::S(x) => vec![*x],
            Val::V(l) => l.clone(),
            Val::A(_) => Vec::new(),
        }
    }

    /// Lane `i` (a scalar is its own lane 0).
    pub fn lane(&self, i: usize) -> u64 {
        match self {
            Val::S(x) => *x,
            Val::V(l) => l.get(i).copied().unwrap_or(0),
            Val::A(_) => 0,
        }
    }

    /// Builds a scalar or vector value from lanes, according to `ty`.
    pub fn from_lanes(ty: Type, lanes: Vec<u64>) -> Val {
        if ty.is_vector() {
            Val::V(lanes)
        } else {
            Val::S(lanes.first().copied().unwrap_or(0))
        }
    }

    /// Bytes in memory layout for a value of type `ty`: `access_size` bytes (a 3-lane vector
    /// writes 3 lanes).
    pub fn to_bytes(&self, ty: Type, address_bits: u32) -> Vec<u8> {
        match (self, ty) {
            (Val::A(bytes), _) => bytes.clone(),
            (_, Type::Vec(s, n)) => {
                let width = s.bytes() as usize;
                let mut out = Vec::with_capacity(width * usize::from(n));
                for i in 0..usize::from(n) {
                    out.extend_from_slice(&self.lane(i).to_le_bytes()[..width]);
                }
                out
            }
            (_, Type::Ptr(_)) => self.s().to_le_bytes()[..(address_bits / 8) as usize].to_vec(),
            (_, t) => {
                let width = t.as_scalar().map_or(8, ScalarType::bytes) as usize;
                self.s().to_le_bytes()[..width].to_vec()
            }
        }
    }

    /// Decodes `bytes` (at least `access_size(ty)` long; missing bytes read as zero) as `ty`.
    pub fn from_bytes(ty: Type, bytes: &[u8], address_bits: u32) -> Val {
        // Fast path: non-bool scalars of the exact width.
        if let Some(s) = ty.as_scalar() {
            let width = s.bytes() as usize;
            if !s.is_bool() && bytes.len() >= width && width <= 8 {
                let mut raw = [0u8; 8];
                raw[..width].copy_from_slice(&bytes[..width]);
                return Val::S(u64::from_le_bytes(raw));
            }
        }
        let read = |offset: usize, width: usize| -> u64 {
            let mut raw = [0u8; 8];
            for (k, slot) in raw.iter_mut().enumerate().take(width) {
                *slot = bytes.get(offset + k).copied().unwrap_or(0);
            }
            u64::from_le_bytes(raw)
        };
        match ty {
            Type::Agg { size, .. } => {
                let mut out = bytes.to_vec();
                out.resize(size as usize, 0);
                Val::A(out)
            }
            Type::Vec(s, n) => {
                let width = s.bytes() as usize;
                let lanes = (0..usize::from(n))
                    .map(|i| {
                        let v = read(i * width, width);
                        if s.is_bool() {
                            u64::from(v != 0)
                        } else {
                            v
                        }
                    })
                    .collect();
                Val::V(lanes)
            }
            Type::Ptr(_) => Val::S(read(0, (address_bits / 8) as usize)),
            Type::Bool => Val::S(u64::from(read(0, 1) != 0)),
            t => Val::S(read(0, t.as_scalar().map_or(8, ScalarType::bytes) as usize)),
        }
    }
}

/// Bytes a load or store of `ty` touches: lanes × width for vectors (3 lanes for a 3-vector),
/// the pointer size for pointers, the type size otherwise.
pub fn access_size(ty: Type, address_bits: u32) -> u64 {
    match ty {
        Type::Vec(s, n) => u64::from(s.bytes()) * u64::from(n),
        t => u64::from(t.size(address_bits)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_round_trip() {
        let v = Val::V(vec![1, 0xffff_ffff, 7]);
        let ty = Type::Vec(ScalarType::I32, 3);
        let bytes = v.to_bytes(ty, 64);
        assert_eq!(bytes.len(), 12);
        assert_eq!(Val::from_bytes(ty, &bytes, 64), v);
        assert_eq!(sext(0xff, 8), -1);
        assert_eq!(sext(0x7f, 8), 127);
        assert_eq!(mask(64), u64::MAX);
    }
}
