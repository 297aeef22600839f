//! Source files held in memory, addressed by `FileId`, with byte-offset `Span`s and line/column lookup.

/// Index of a file in a [`SourceMap`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FileId(pub u32);

/// A byte range `start..end` in one file.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Span {
    pub file: FileId,
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(file: FileId, start: u32, end: u32) -> Span {
        Span { file, start, end }
    }

    /// The smallest span covering both (when they are in the same file; otherwise `self`).
    pub fn to(self, other: Span) -> Span {
        if self.file != other.file {
            return self;
        }
        Span {
            file: self.file,
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
}

/// A `#line` directive's effect: from byte `offset` on, the physical line `physical_line` is
/// presumed to be line `presumed_line` of file `presumed_name` (C99 6.10.4).
#[derive(Clone, Debug)]
struct LineDirective {
    offset: u32,
    physical_line: u32,
    presumed_line: u32,
    presumed_name: Option<String>,
}

struct SourceFile {
    name: String,
    text: String,
    /// Byte offset of the start of each line.
    line_starts: Vec<u32>,
    line_directives: Vec<LineDirective>,
}

/// All source files of one compilation (the main file and every included file).
#[derive(Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    pub fn new() -> SourceMap {
        SourceMap::default()
    }

    /// Adds a file; `name` is used in diagnostics and, for `#include "…"`, as the path whose
    /// directory is searched first.
    pub fn add_file(&mut self, name: String, text: String) -> FileId {
        let mut line_starts = vec![0u32];
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' {
                line_starts.push(i as u32 + 1);
            }
        }
        self.files.push(SourceFile {
            name,
            text,
            line_starts,
            line_directives: Vec::new(),
        });
        FileId(self.files.len() as u32 - 1)
    }

    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// Finds a file by exact name (used to avoid reading the same include twice).
    pub fn find(&self, name: &str) -> Option<FileId> {
        self.files
            .iter()
            .position(|f| f.name == name)
            .map(|i| FileId(i as u32))
    }

    fn file(&self, file: FileId) -> Option<&SourceFile> {
        self.files.get(file.0 as usize)
    }

    pub fn name(&self, file: FileId) -> &str {
        self.file(file)
            .map(|f| f.name.as_str())
            .unwrap_or("<unknown>")
    }

    pub fn text(&self, file: FileId) -> &str {
        self.file(file).map(|f| f.text.as_str()).unwrap_or("")
    }

    /// 1-based physical line and column (column counted in bytes) of a byte offset.
    pub fn line_col(&self, file: FileId, offset: u32) -> (u32, u32) {
        let Some(f) = self.file(file) else {
            return (1, 1);
        };
        let offset = offset.min(f.text.len() as u32);
        let line_index = match f.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        (
            line_index as u32 + 1,
            offset - f.line_starts[line_index] + 1,
        )
    }

    /// Text of 1-based physical line `line1`, without its line terminator.
    pub fn line_text(&self, file: FileId, line1: u32) -> &str {
        let Some(f) = self.file(file) else {
            return "";
        };
        let i = line1.saturating_sub(1) as usize;
        let Some(&start) = f.line_starts.get(i) else {
            return "";
        };
        let end = f
            .line_starts
            .get(i + 1)
            .map(|&e| e as usize)
            .unwrap_or(f.text.len());
        let line = &f.text[start as usize..end];
        line.trim_end_matches(['\n', '\r'])
    }

    /// Records a `#line` directive whose effect starts at byte `offset` (the start of the line
    /// after the directive): that line is presumed to be `presumed_line` (C99 6.10.4).
    pub fn add_line_directive(
        &mut self,
        file: FileId,
        offset: u32,
        presumed_line: u32,
        presumed_name: Option<String>,
    ) {
        let (physical_line, _) = self.line_col(file, offset);
        if let Some(f) = self.files.get_mut(file.0 as usize) {
            f.line_directives.push(LineDirective {
                offset,
                physical_line,
                presumed_line,
                presumed_name,
            });
        }
    }

    /// The presumed file name and line of an offset, after `#line` directives (C99 6.10.4);
    /// the column is the physical one.
    pub fn presumed_location(&self, file: FileId, offset: u32) -> (&str, u32, u32) {
        let (line, col) = self.line_col(file, offset);
        let Some(f) = self.file(file) else {
            return ("<unknown>", line, col);
        };
        let mut name = f.name.as_str();
        let mut presumed = line;
        for d in &f.line_directives {
            if d.offset > offset {
                break;
            }
            if let Some(n) = &d.presumed_name {
                name = n.as_str();
            }
            presumed = d.presumed_line.wrapping_add(line - d.physical_line);
        }
        (name, presumed, col)
    }
}
