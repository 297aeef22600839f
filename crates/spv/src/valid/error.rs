//! Validation errors: one per broken rule, each with the word offset and text of the offending
//! instruction and the citation of the rule it breaks.

use std::fmt;

/// One broken rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidationError {
    /// Word offset of the instruction in the binary (0 for module-wide errors or built modules).
    pub offset: u32,
    /// The disassembled instruction (`OpTypeInt 32 1`), or `(module)` for module-wide errors.
    pub instruction: String,
    /// The citation of the rule, e.g. `env 2.1 (Signedness must be 0 for OpTypeInt)`.
    pub rule: &'static str,
    /// What is wrong, in words.
    pub message: String,
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "word {}: {}: {}: {}",
            self.offset, self.instruction, self.rule, self.message
        )
    }
}

impl std::error::Error for ValidationError {}

/// Every broken rule of a module, in module order (never empty when returned by `validate`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidationErrors(pub Vec<ValidationError>);

impl ValidationErrors {
    /// Whether some error cites a rule containing `needle`.
    pub fn has_rule(&self, needle: &str) -> bool {
        self.0.iter().any(|e| e.rule.contains(needle))
    }

    pub fn iter(&self) -> std::slice::Iter<'_, ValidationError> {
        self.0.iter()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Display for ValidationErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ValidationErrors {}
