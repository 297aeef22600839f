//! Entity references: `u32` newtypes naming values, blocks, instructions, functions and globals.
//!
//! Each entity's `Display` is its text syntax (`v3`, `block2`, `inst7`, `fn1`, `g0`), so printing
//! the IR and reading it back agree on names by construction.

use std::fmt;

macro_rules! entity {
    ($(#[$doc:meta])* $name:ident, $prefix:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
        pub struct $name(pub u32);

        impl $name {
            /// The text prefix of this entity kind (`v` for `v3`).
            pub const PREFIX: &'static str = $prefix;

            /// The entity with index `index`.
            pub fn new(index: usize) -> Self {
                Self(u32::try_from(index).unwrap_or(u32::MAX))
            }

            /// This entity's index into its table.
            pub fn index(self) -> usize {
                self.0 as usize
            }

            /// Parses the text syntax (`v3`) back into the entity.
            pub fn parse(text: &str) -> Option<Self> {
                let digits = text.strip_prefix($prefix)?;
                if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                    return None;
                }
                digits.parse().ok().map(Self)
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, concat!($prefix, "{}"), self.0)
            }
        }
    };
}

entity!(
    /// An SSA value: an instruction result or a block parameter.
    Value,
    "v"
);
entity!(
    /// A basic block of a function.
    Block,
    "block"
);
entity!(
    /// An instruction of a function.
    Inst,
    "inst"
);
entity!(
    /// A function of a module (index into `Module::functions`).
    FuncRef,
    "fn"
);
entity!(
    /// A module-scope variable (index into `Module::globals`).
    GlobalRef,
    "g"
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entities_print_and_parse_their_text_syntax() {
        assert_eq!(Value(3).to_string(), "v3");
        assert_eq!(Block(2).to_string(), "block2");
        assert_eq!(FuncRef(1).to_string(), "fn1");
        assert_eq!(GlobalRef(0).to_string(), "g0");
        assert_eq!(Value::parse("v17"), Some(Value(17)));
        assert_eq!(Block::parse("block0"), Some(Block(0)));
        assert_eq!(Value::parse("v"), None);
        assert_eq!(Value::parse("block1"), None);
        assert_eq!(Block::parse("block-1"), None);
    }
}
