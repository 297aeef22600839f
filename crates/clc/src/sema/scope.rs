//! Block scopes (C99 6.2.1): ordinary identifiers (variables, enum constants, typedef names) and
//! struct/union/enum tags.

use std::collections::HashMap;

use super::types::Type;
use crate::ast::AddrSpace;
use spv::Id;

/// What an ordinary identifier names.
#[derive(Clone, Debug)]
pub enum Symbol {
    /// A variable: `ptr` is the SPIR-V pointer to its storage.
    Var {
        ptr: Id,
        ty: Type,
        space: AddrSpace,
        is_const: bool,
    },
    EnumConst(i64),
    Typedef(Type),
    /// A named constant value without storage: a `sampler_t` initialized by a literal
    /// (an `OpConstantSampler`, env 2.9).
    Value {
        id: Id,
        ty: Type,
    },
}

#[derive(Default, Debug)]
struct Scope {
    names: HashMap<String, Symbol>,
    tags: HashMap<String, Tag>,
}

/// A struct/union (record index) or enum tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tag {
    Record(u32),
    Enum,
}

/// The ordinary identifiers and tags of the enclosing function (`Scopes::local_symbols`).
pub type LocalSymbols = (Vec<(String, Symbol)>, Vec<(String, Tag)>);

/// The stack of open scopes; index 0 is file scope.
#[derive(Debug)]
pub struct Scopes {
    stack: Vec<Scope>,
}

impl Default for Scopes {
    fn default() -> Self {
        Scopes {
            stack: vec![Scope::default()],
        }
    }
}

impl Scopes {
    pub fn push(&mut self) {
        self.stack.push(Scope::default());
    }

    pub fn pop(&mut self) {
        if self.stack.len() > 1 {
            self.stack.pop();
        }
    }

    /// Number of open scopes (1 at file scope).
    pub fn depth(&self) -> usize {
        self.stack.len()
    }

    pub fn is_file_scope(&self) -> bool {
        self.stack.len() == 1
    }

    /// Declares `name` in the innermost scope; returns the previous symbol of that scope.
    pub fn declare(&mut self, name: &str, sym: Symbol) -> Option<Symbol> {
        self.stack
            .last_mut()
            .and_then(|s| s.names.insert(name.to_string(), sym))
    }

    pub fn declared_here(&self, name: &str) -> Option<&Symbol> {
        self.stack.last().and_then(|s| s.names.get(name))
    }

    pub fn lookup(&self, name: &str) -> Option<&Symbol> {
        self.stack.iter().rev().find_map(|s| s.names.get(name))
    }

    pub fn declare_tag(&mut self, name: &str, tag: Tag) {
        if let Some(s) = self.stack.last_mut() {
            s.tags.insert(name.to_string(), tag);
        }
    }

    pub fn tag_here(&self, name: &str) -> Option<Tag> {
        self.stack.last().and_then(|s| s.tags.get(name).copied())
    }

    pub fn lookup_tag(&self, name: &str) -> Option<Tag> {
        self.stack
            .iter()
            .rev()
            .find_map(|s| s.tags.get(name).copied())
    }

    /// Every ordinary identifier and tag visible outside file scope (the innermost one of
    /// each name): what a Block literal's body sees of its enclosing function (§1.12.3).
    pub fn local_symbols(&self) -> LocalSymbols {
        let mut names: HashMap<String, Symbol> = HashMap::new();
        let mut tags: HashMap<String, Tag> = HashMap::new();
        for s in self.stack.iter().skip(1) {
            for (n, sym) in &s.names {
                names.insert(n.clone(), sym.clone());
            }
            for (n, t) in &s.tags {
                tags.insert(n.clone(), *t);
            }
        }
        let mut names: Vec<(String, Symbol)> = names.into_iter().collect();
        names.sort_by(|a, b| a.0.cmp(&b.0));
        let mut tags: Vec<(String, Tag)> = tags.into_iter().collect();
        tags.sort_by(|a, b| a.0.cmp(&b.0));
        (names, tags)
    }
}
