//! Signature patterns and their expansion to concrete overloads.
//!
//! A pattern is a space-separated list of type tokens, the return type first. The family's
//! [`Domain`] gives the values of the type variable `T` (element type × vector width); the tokens
//! derived from `T` follow the spec's notation (OpenCL C 2.0 1.13.2, 1.13.3):
//!
//! | token | meaning |
//! | --- | --- |
//! | `T` | `gentype` itself |
//! | `S` | `sgentype`: the scalar element type of `T` |
//! | `I` | `intn`: 32-bit `int` with the vector width of `T` |
//! | `U` | `ugentype`: the unsigned integer type of `T`'s element width, same vector width |
//! | `G` | `igentype` of `select`: the signed integer type of `T`'s element width, same vector width |
//! | `R` | relational result: `int` for scalars, the signed integer of `T`'s element width for vectors |
//! | `W` | `upsample` result: the integer type twice as wide as `T`, same signedness |
//! | `*X` | pointer to `X` in each address space: generic only when the generic address space exists, else `__global`, `__local` and `__private` |
//! | `void` `bool` `int` `uint` `long` `ulong` `float` `size_t` | that concrete type |
//!
//! A pattern may start with a width filter: `@v` (vectors only), `@s` (scalars only) or `@34`
//! (3- and 4-component vectors only).

use crate::{Ctx, Domain, Family};

/// Scalar element types of OpenCL C.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Elem {
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

impl Elem {
    /// Size in bytes (`bool` as 1, its usual storage size).
    pub fn size(self) -> u32 {
        match self {
            Elem::Bool | Elem::Char | Elem::UChar => 1,
            Elem::Short | Elem::UShort | Elem::Half => 2,
            Elem::Int | Elem::UInt | Elem::Float => 4,
            Elem::Long | Elem::ULong | Elem::Double => 8,
        }
    }

    pub fn is_float(self) -> bool {
        matches!(self, Elem::Half | Elem::Float | Elem::Double)
    }

    pub fn is_integer(self) -> bool {
        !self.is_float() && self != Elem::Bool
    }

    pub fn is_signed(self) -> bool {
        matches!(self, Elem::Char | Elem::Short | Elem::Int | Elem::Long) || self.is_float()
    }

    /// The OpenCL C spelling: `uchar`, `float`, …
    pub fn name(self) -> &'static str {
        match self {
            Elem::Bool => "bool",
            Elem::Char => "char",
            Elem::UChar => "uchar",
            Elem::Short => "short",
            Elem::UShort => "ushort",
            Elem::Int => "int",
            Elem::UInt => "uint",
            Elem::Long => "long",
            Elem::ULong => "ulong",
            Elem::Half => "half",
            Elem::Float => "float",
            Elem::Double => "double",
        }
    }

    /// The integer type of the same width and the given signedness.
    pub fn integer_of_size(size: u32, signed: bool) -> Option<Elem> {
        Some(match (size, signed) {
            (1, true) => Elem::Char,
            (1, false) => Elem::UChar,
            (2, true) => Elem::Short,
            (2, false) => Elem::UShort,
            (4, true) => Elem::Int,
            (4, false) => Elem::UInt,
            (8, true) => Elem::Long,
            (8, false) => Elem::ULong,
            _ => return None,
        })
    }

    const ALL: [Elem; 12] = [
        Elem::Bool,
        Elem::Char,
        Elem::UChar,
        Elem::Short,
        Elem::UShort,
        Elem::Int,
        Elem::UInt,
        Elem::Long,
        Elem::ULong,
        Elem::Half,
        Elem::Float,
        Elem::Double,
    ];
}

/// Address spaces of OpenCL C.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum AddrSpace {
    Private,
    Global,
    Local,
    Constant,
    Generic,
}

/// A type in a built-in signature.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    Void,
    Scalar(Elem),
    /// Element type and width (2, 3, 4, 8 or 16).
    Vector(Elem, u8),
    Pointer(AddrSpace, Box<Ty>),
}

impl Ty {
    fn of(elem: Elem, lanes: u8) -> Ty {
        if lanes == 1 {
            Ty::Scalar(elem)
        } else {
            Ty::Vector(elem, lanes)
        }
    }
}

impl std::fmt::Display for Ty {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Ty::Void => f.write_str("void"),
            Ty::Scalar(elem) => f.write_str(elem.name()),
            Ty::Vector(elem, lanes) => write!(f, "{}{}", elem.name(), lanes),
            Ty::Pointer(space, pointee) => {
                let space = match space {
                    AddrSpace::Private => "__private ",
                    AddrSpace::Global => "__global ",
                    AddrSpace::Local => "__local ",
                    AddrSpace::Constant => "__constant ",
                    AddrSpace::Generic => "",
                };
                write!(f, "{space}{pointee} *")
            }
        }
    }
}

/// One concrete overload.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Overload {
    pub ret: Ty,
    pub params: Vec<Ty>,
}

impl std::fmt::Display for Overload {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} (", self.ret)?;
        for (i, param) in self.params.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{param}")?;
        }
        f.write_str(")")
    }
}

const WIDTHS: [u8; 6] = [1, 2, 3, 4, 8, 16];

fn domain_elems(domain: Domain, ctx: &Ctx) -> Vec<Elem> {
    let floats = || {
        let mut v = vec![Elem::Float];
        if ctx.fp64 {
            v.push(Elem::Double);
        }
        if ctx.fp16 {
            v.push(Elem::Half);
        }
        v
    };
    let integers = [
        Elem::Char,
        Elem::UChar,
        Elem::Short,
        Elem::UShort,
        Elem::Int,
        Elem::UInt,
        Elem::Long,
        Elem::ULong,
    ];
    match domain {
        // Concrete signatures: `T` is not used, one pass suffices.
        Domain::None => vec![Elem::Int],
        Domain::Float | Domain::FloatGeometric => floats(),
        Domain::FloatOnly | Domain::FloatOnlyGeometric => vec![Elem::Float],
        Domain::Integer => integers.to_vec(),
        Domain::Int32 => vec![Elem::Int, Elem::UInt],
        Domain::Upsample => integers[..6].to_vec(),
        Domain::SignedInteger => vec![Elem::Char, Elem::Short, Elem::Int, Elem::Long],
        Domain::GroupScalar => {
            let mut v = vec![Elem::Int, Elem::UInt, Elem::Long, Elem::ULong];
            v.extend(floats());
            v
        }
        Domain::All => {
            let mut v = integers.to_vec();
            v.extend(floats());
            v
        }
    }
}

/// Expands every pattern of `family` over its domain in `ctx`, without duplicates.
pub fn expand(family: &Family, ctx: &Ctx) -> Vec<Overload> {
    let widths: &[u8] = match family.domain {
        Domain::None | Domain::GroupScalar => &[1],
        Domain::FloatGeometric | Domain::FloatOnlyGeometric => &[1, 2, 3, 4],
        _ => &WIDTHS,
    };
    let mut out: Vec<Overload> = Vec::new();
    for pattern in family.sigs {
        let (filter, tokens) = match pattern.strip_prefix('@') {
            Some(rest) => {
                let (filter, tokens) = rest.split_once(' ').unwrap_or((rest, ""));
                (Some(filter), tokens)
            }
            None => (None, *pattern),
        };
        for elem in domain_elems(family.domain, ctx) {
            for &lanes in widths {
                let keep = match filter {
                    None => true,
                    Some("v") => lanes > 1,
                    Some("s") => lanes == 1,
                    Some("34") => lanes == 3 || lanes == 4,
                    Some(_) => false,
                };
                if !keep {
                    continue;
                }
                // A pointer token yields one type per address space; other tokens exactly one.
                for overload in combine(tokens, elem, lanes, ctx) {
                    if !out.contains(&overload) {
                        out.push(overload);
                    }
                }
            }
        }
    }
    out
}

/// The overloads of one pattern for one value of `T` (several when it has pointer parameters).
fn combine(tokens: &str, elem: Elem, lanes: u8, ctx: &Ctx) -> Vec<Overload> {
    let mut partial: Vec<Vec<Ty>> = vec![Vec::new()];
    for token in tokens.split_whitespace() {
        let choices = resolve(token, elem, lanes, ctx);
        if choices.is_empty() {
            return Vec::new();
        }
        let mut next = Vec::new();
        for prefix in &partial {
            for choice in &choices {
                let mut v = prefix.clone();
                v.push(choice.clone());
                next.push(v);
            }
        }
        partial = next;
    }
    partial
        .into_iter()
        .filter(|types| !types.is_empty())
        .map(|mut types| {
            let ret = types.remove(0);
            Overload { ret, params: types }
        })
        .collect()
}

/// The types a token stands for; empty when it has none for this `T` (the overload is skipped).
fn resolve(token: &str, elem: Elem, lanes: u8, ctx: &Ctx) -> Vec<Ty> {
    if let Some(pointee) = token.strip_prefix('*') {
        let Some(pointee) = resolve(pointee, elem, lanes, ctx).into_iter().next() else {
            return Vec::new();
        };
        let spaces: &[AddrSpace] = if ctx.generic_address_space {
            &[AddrSpace::Generic]
        } else {
            &[AddrSpace::Global, AddrSpace::Local, AddrSpace::Private]
        };
        return spaces
            .iter()
            .map(|&space| Ty::Pointer(space, Box::new(pointee.clone())))
            .collect();
    }
    let ty = match token {
        "T" => Ty::of(elem, lanes),
        "S" => Ty::Scalar(elem),
        "I" => Ty::of(Elem::Int, lanes),
        "U" => match Elem::integer_of_size(elem.size(), false) {
            Some(u) => Ty::of(u, lanes),
            None => return Vec::new(),
        },
        "G" => match Elem::integer_of_size(elem.size(), true) {
            Some(s) => Ty::of(s, lanes),
            None => return Vec::new(),
        },
        "R" if lanes == 1 => Ty::Scalar(Elem::Int),
        "R" => match Elem::integer_of_size(elem.size(), true) {
            Some(s) => Ty::Vector(s, lanes),
            None => return Vec::new(),
        },
        "W" => match Elem::integer_of_size(elem.size() * 2, elem.is_signed()) {
            Some(w) => Ty::of(w, lanes),
            None => return Vec::new(),
        },
        "void" => Ty::Void,
        "size_t" if ctx.address_bits == 32 => Ty::Scalar(Elem::UInt),
        "size_t" => Ty::Scalar(Elem::ULong),
        other => match Elem::ALL.iter().find(|e| e.name() == other) {
            Some(&e) => Ty::Scalar(e),
            None => return Vec::new(),
        },
    };
    vec![ty]
}

/// Parses an OpenCL C type name such as `float`, `uchar16`, `int3`: element and width (1 for scalars).
pub fn parse_type_name(name: &str) -> Option<(Elem, u8)> {
    let digits = name.trim_start_matches(|c: char| c.is_ascii_alphabetic());
    let base = &name[..name.len() - digits.len()];
    let elem = *Elem::ALL.iter().find(|e| e.name() == base)?;
    let lanes = match digits {
        "" => 1,
        "2" => 2,
        "3" => 3,
        "4" => 4,
        "8" => 8,
        "16" => 16,
        _ => return None,
    };
    Some((elem, lanes))
}
