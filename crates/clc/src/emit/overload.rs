//! User functions declared `__attribute__((overloadable))` (clang's C extension, which
//! OpenCL C uses for its built-ins): each overload is named by its Itanium mangling, as clang
//! names it (`int f(float)` is `_Z1ff`), and a call picks the best viable overload by C++'s
//! ranking of implicit conversions (exact match, promotion, conversion; C++ [over.ics.rank]).
//! At most one function of the name may lack the attribute; it keeps its plain name.

use super::Emitter;
use crate::ast::{AddrSpace, DeclSpec, Declarator, Expr};
use crate::sema::{Scalar, Type};
use crate::source::Span;

/// How an argument converts to a parameter (C++ [over.ics.scs], ordered best first).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Rank {
    Exact,
    Promotion,
    Conversion,
}

/// Whether a function declaration carries `__attribute__((overloadable))`.
pub fn is_overloadable(spec: &DeclSpec, d: &Declarator) -> bool {
    spec.attrs
        .iter()
        .chain(d.attrs.iter())
        .any(|a| a.name == "overloadable")
}

/// The Itanium-mangled name of `name` with these parameter types (as clang-15 mangles for
/// SPIR: address spaces as `U3AS<n>` vendor qualifiers, vectors as `Dv<n>_<elem>`).
pub fn mangle(name: &str, params: &[Type], records: &[crate::sema::Record]) -> String {
    let mut out = format!("_Z{}{name}", name.len());
    let mut subs: Vec<String> = Vec::new();
    if params.is_empty() {
        out.push('v');
    }
    for p in params {
        out.push_str(&mangle_type(p, &mut subs, records));
    }
    out
}

fn scalar_code(s: Scalar) -> &'static str {
    match s {
        Scalar::Bool => "b",
        Scalar::Char => "c",
        Scalar::UChar => "h",
        Scalar::Short => "s",
        Scalar::UShort => "t",
        Scalar::Int => "i",
        Scalar::UInt => "j",
        Scalar::Long => "l",
        Scalar::ULong => "m",
        Scalar::Half => "Dh",
        Scalar::Float => "f",
        Scalar::Double => "d",
    }
}

/// `S_`, `S0_`, `S1_`, … `SA_` (base 36) for the `k`-th substitution candidate.
fn substitution(k: usize) -> String {
    if k == 0 {
        return "S_".to_string();
    }
    let mut n = k - 1;
    let mut digits = Vec::new();
    loop {
        let d = (n % 36) as u8;
        digits.push(if d < 10 { b'0' + d } else { b'A' + d - 10 } as char);
        n /= 36;
        if n == 0 {
            break;
        }
    }
    format!("S{}_", digits.iter().rev().collect::<String>())
}

/// A substitutable component: reuses an earlier occurrence or records this one. `full` is
/// the component's expansion (its identity), `text` what is written when it is new.
fn substitutable(full: String, text: String, subs: &mut Vec<String>) -> String {
    if let Some(k) = subs.iter().position(|s| *s == full) {
        return substitution(k);
    }
    subs.push(full);
    text
}

/// The full expansion of a type (no substitutions), its identity for substitution.
fn expand(t: &Type, records: &[crate::sema::Record]) -> String {
    mangle_type_with(t, &mut Vec::new(), records, false)
}

fn mangle_type(t: &Type, subs: &mut Vec<String>, records: &[crate::sema::Record]) -> String {
    mangle_type_with(t, subs, records, true)
}

fn mangle_type_with(
    t: &Type,
    subs: &mut Vec<String>,
    records: &[crate::sema::Record],
    use_subs: bool,
) -> String {
    let sub = |full: String, text: String, subs: &mut Vec<String>| {
        if use_subs {
            substitutable(full, text, subs)
        } else {
            text
        }
    };
    match t {
        Type::Void => "v".to_string(),
        Type::Scalar(s) => scalar_code(*s).to_string(),
        Type::Vector(s, n) => {
            let text = format!("Dv{n}_{}", scalar_code(*s));
            sub(text.clone(), text, subs)
        }
        Type::Record(i) => {
            let name = records
                .get(*i as usize)
                .map(|r| r.name.clone())
                .unwrap_or_default();
            let text = format!("{}{name}", name.len());
            sub(text.clone(), text, subs)
        }
        Type::Pointer(p) => {
            let mut quals = String::new();
            let space = match p.space {
                AddrSpace::Private => None,
                AddrSpace::Global => Some(1),
                AddrSpace::Constant => Some(2),
                AddrSpace::Local => Some(3),
                AddrSpace::Generic => Some(4),
            };
            if let Some(n) = space {
                quals.push_str(&format!("U3AS{n}"));
            }
            // clang drops `const` on `constant` pointees (they are const anyway).
            if p.is_volatile {
                quals.push('V');
            }
            if p.is_const && p.space != AddrSpace::Constant {
                quals.push('K');
            }
            let pointee_full = expand(&p.ty, records);
            let pointee = mangle_type_with(&p.ty, subs, records, use_subs);
            let qualified = if quals.is_empty() {
                pointee
            } else {
                let full = format!("{quals}{pointee_full}");
                sub(full, format!("{quals}{pointee}"), subs)
            };
            let full = format!("P{quals}{pointee_full}");
            sub(full, format!("P{qualified}"), subs)
        }
        Type::Array(e, n) => format!("A{n}_{}", mangle_type_with(e, subs, records, use_subs)),
        // clang: a Block is `U13block_pointer` on its function type.
        Type::Block(sig) => {
            let mut f = format!("F{}", mangle_type_with(&sig.ret, subs, records, use_subs));
            if sig.params.is_empty() {
                f.push('v');
            }
            for p in &sig.params {
                f.push_str(&mangle_type_with(p, subs, records, use_subs));
            }
            f.push('E');
            format!("U13block_pointer{f}")
        }
        other => {
            let name = format!("{other:?}");
            format!("{}{name}", name.len())
        }
    }
}

/// The conversion of an argument of type `arg` to parameter type `param`; `None` when there
/// is none. `null` says the argument is the null pointer constant `0`.
fn rank(arg: &Type, param: &Type, null: bool) -> Option<Rank> {
    let arg = match arg {
        Type::Array(e, _) => Type::pointer((**e).clone(), AddrSpace::Private, false),
        other => other.clone(),
    };
    if super::convert::same_unqualified(&arg, param) {
        return Some(Rank::Exact);
    }
    match (&arg, param) {
        (Type::Scalar(a), Type::Scalar(p)) => {
            // C++ [conv.prom], [conv.fpprom].
            let int_promotion = *p == Scalar::Int
                && (matches!(a, Scalar::Bool | Scalar::Char | Scalar::UChar)
                    || matches!(a, Scalar::Short | Scalar::UShort));
            let float_promotion = *a == Scalar::Float && *p == Scalar::Double;
            Some(if int_promotion || float_promotion {
                Rank::Promotion
            } else {
                Rank::Conversion
            })
        }
        (Type::Vector(..), Type::Vector(..)) => None,
        (Type::Block(a), Type::Block(p)) if a.same_signature(p) => Some(Rank::Exact),
        (Type::Scalar(s), Type::Pointer(_)) if null && s.is_integer() => Some(Rank::Conversion),
        (Type::Pointer(a), Type::Pointer(p)) => {
            let space_ok = a.space == p.space
                || (p.space == AddrSpace::Generic && a.space != AddrSpace::Constant);
            if !space_ok {
                return None;
            }
            let qual_ok = (!a.is_const || p.is_const) && (!a.is_volatile || p.is_volatile);
            if !qual_ok {
                return None;
            }
            if super::convert::same_unqualified(&a.ty, &p.ty) {
                Some(if a.space == p.space {
                    Rank::Exact
                } else {
                    Rank::Conversion
                })
            } else if p.ty == Type::Void {
                Some(Rank::Conversion)
            } else {
                None
            }
        }
        _ => None,
    }
}

impl<'a> Emitter<'a> {
    /// The key of a function in `funcs`: its mangled name when it is overloadable.
    pub fn function_key(&self, name: &str, params: &[Type], overloadable: bool) -> String {
        if overloadable {
            mangle(name, params, &self.records)
        } else {
            name.to_string()
        }
    }

    /// The `funcs` key of the overload of `name` that a call with `args` selects, or `None`
    /// after reporting that no overload or more than one fits.
    pub fn resolve_overload(
        &mut self,
        name: &str,
        keys: &[String],
        args: &[Expr],
        name_span: Span,
    ) -> Option<String> {
        let mut arg_types = Vec::new();
        for a in args {
            arg_types.push(self.probe_type(a));
        }
        if arg_types.iter().any(|t| t.is_none()) {
            // Report the arguments' own errors.
            for a in args {
                let _ = self.rvalue_or_void(a);
            }
            return None;
        }
        let arg_types: Vec<Type> = arg_types.into_iter().flatten().collect();
        let nulls: Vec<bool> = args.iter().map(|a| self.const_int(a) == Some(0)).collect();
        let mut viable: Vec<(String, Vec<Rank>)> = Vec::new();
        for k in keys {
            let Some(sig) = self.funcs.get(k) else {
                continue;
            };
            if sig.params.len() != args.len() {
                continue;
            }
            let ranks: Option<Vec<Rank>> = arg_types
                .iter()
                .zip(&sig.params)
                .zip(&nulls)
                .map(|((a, p), n)| rank(a, p, *n))
                .collect();
            if let Some(r) = ranks {
                viable.push((k.clone(), r));
            }
        }
        // C++ [over.match.best]: better or equal for every argument, better for one.
        let better = |x: &[Rank], y: &[Rank]| {
            x.iter().zip(y).all(|(a, b)| a <= b) && x.iter().zip(y).any(|(a, b)| a < b)
        };
        let best: Vec<&(String, Vec<Rank>)> = viable
            .iter()
            .filter(|(k, r)| viable.iter().all(|(k2, r2)| k2 == k || better(r, r2)))
            .collect();
        if let [(k, _)] = best.as_slice() {
            return Some(k.clone());
        }
        if viable.is_empty() {
            self.error(
                name_span,
                format!("no matching function for call to '{name}'"),
            );
            for k in keys {
                if let Some(sig) = self.funcs.get(k).cloned() {
                    self.diags.note(sig.span, "candidate function not viable");
                }
            }
        } else {
            self.error(name_span, format!("call to '{name}' is ambiguous"));
            for (k, _) in &viable {
                if let Some(sig) = self.funcs.get(k).cloned() {
                    self.diags.note(sig.span, "candidate function");
                }
            }
        }
        None
    }
}
