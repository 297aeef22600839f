//! The OpenCL C preprocessor (C99 6.10 with the OpenCL C additions of OpenCL C 2.0 6.10 /
//! unified OpenCL C 6.12 "Preprocessor Directives and Macros").
//!
//! Structure: a stack of files being read ([`FileCtx`], each with its own conditional stack),
//! [`directives`] for `#…` lines, [`macros`] for expansion (Prosser's hide-set algorithm, which
//! implements C99 6.10.3.4's "painted blue" rule), [`expr`] for `#if` expressions and
//! [`predefined`] for the built-in macros. The predefined macros and the `-D`/`-U` options are
//! preprocessed as two pseudo-files, `<built-in>` and `<command line>`, before the main file,
//! as clang does.

mod directives;
mod expr;
mod macros;
mod predefined;

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

use crate::diag::{Diagnostic, Diagnostics};
use crate::lex::{self, Token, TokenKind};
use crate::options::BuildOptions;
use crate::source::{FileId, SourceMap, Span};

pub use crate::lex::tokens_to_string;

/// What the preprocessor needs to know about the device.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// `CL_DEVICE_VERSION` as a number, e.g. 300; the value of `__OPENCL_VERSION__`. The default
    /// OpenCL C version (no `-cl-std`) is the highest 1.x not above it.
    pub device_cl_version: u32,
    /// 32 or 64: selects `__SPIR32__`/`__SPIR64__`.
    pub address_bits: u32,
    /// Supported extensions (`cl_khr_fp64`, …): each is predefined as a macro with value 1.
    pub extensions: Vec<String>,
    /// Supported OpenCL C 3.0 features (`__opencl_c_fp64`, …): predefined to 1 for OpenCL C 3.0.
    pub features: Vec<String>,
    pub image_support: bool,
    pub endian_little: bool,
}

impl Default for Target {
    fn default() -> Target {
        Target {
            device_cl_version: 300,
            address_bits: 64,
            extensions: Vec::new(),
            features: Vec::new(),
            image_support: false,
            endian_little: true,
        }
    }
}

/// `#pragma OPENCL EXTENSION name : enable|disable` (OpenCL C 2.0 9.1, unified 6.12.1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExtensionPragma {
    /// The extension name, or `all`.
    pub name: String,
    pub enable: bool,
    pub span: Span,
    /// Index in [`Preprocessed::tokens`] of the first token after the pragma: the pragma
    /// applies from that token on.
    pub token_index: usize,
}

/// `#pragma OPENCL FP_CONTRACT ON|OFF|DEFAULT` (OpenCL C 2.0 6.13.2 / C99 7.12.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FpContract {
    On,
    Off,
    Default,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FpContractPragma {
    pub state: FpContract,
    pub span: Span,
    /// Index in [`Preprocessed::tokens`] of the first token after the pragma.
    pub token_index: usize,
}

/// The result of preprocessing one translation unit.
#[derive(Debug, Clone, Default)]
pub struct Preprocessed {
    /// The fully expanded token stream: no directives left. Tokens produced by a macro body carry
    /// the span of the (outermost) expansion site; tokens from macro arguments keep their own.
    pub tokens: Vec<Token>,
    /// `#pragma OPENCL EXTENSION` directives (and `_Pragma` equivalents), in source order.
    pub extension_pragmas: Vec<ExtensionPragma>,
    /// `#pragma OPENCL FP_CONTRACT` directives, in source order.
    pub fp_contract_pragmas: Vec<FpContractPragma>,
}

/// Preprocesses `main` (already added to `sources`): runs the directives, expands macros and
/// returns the token stream. Included files are read from the file system and added to
/// `sources`. Problems are reported to `diags` (never a panic); the caller should check
/// `diags.has_errors()`. `-w`/`-Werror` from `opts` are applied to `diags`.
pub fn preprocess(
    sources: &mut SourceMap,
    main: FileId,
    opts: &BuildOptions,
    target: &Target,
    diags: &mut Diagnostics,
) -> Preprocessed {
    preprocess_with_headers(sources, main, opts, target, &[], diags)
}

/// [`preprocess`] with the embedded headers of `clCompileProgram` (API 5.8.3): `(include name,
/// source)` pairs, "first searched before the headers in the list of directories specified by
/// the -I compile option"; the first of several entries with the same name is used. A quoted
/// `#include` inside an embedded header `dir/h.h` looks for `dir/name` first.
pub fn preprocess_with_headers(
    sources: &mut SourceMap,
    main: FileId,
    opts: &BuildOptions,
    target: &Target,
    headers: &[(String, String)],
    diags: &mut Diagnostics,
) -> Preprocessed {
    // API 5.8.6.4: -w and -Werror.
    diags.set_suppress_warnings(opts.suppress_warnings);
    diags.set_warnings_as_errors(opts.warnings_as_errors);
    let c_version = opts.opencl_c_version(target.device_cl_version);
    // API 5.8.6.5: "-cl-std=CL2.0 ... will fail to compile the program for any devices with
    // CL_DEVICE_OPENCL_C_VERSION equal to OpenCL C 1.2 or earlier" (and likewise for the others).
    if c_version > target.device_cl_version {
        diags.error_nospan(format!(
            "OpenCL C version {}.{} is not supported by this device (OpenCL {}.{})",
            c_version / 100,
            c_version % 100 / 10,
            target.device_cl_version / 100,
            target.device_cl_version % 100 / 10
        ));
    }
    let builtin_text = predefined::builtin_prelude(opts, target, c_version);
    let cmdline_text = predefined::command_line_prelude(opts);
    let builtin = sources.add_file("<built-in>".to_string(), builtin_text);
    let cmdline = sources.add_file("<command line>".to_string(), cmdline_text);

    let main_dir = std::path::Path::new(sources.name(main))
        .parent()
        .map(std::path::Path::to_path_buf);
    let builtin_span = Span::new(builtin, 0, 0);
    let mut macros = HashMap::new();
    // C99 6.10.8.
    for (name, b) in [
        ("__FILE__", macros::Builtin::File),
        ("__LINE__", macros::Builtin::Line),
        ("__DATE__", macros::Builtin::Date),
        ("__TIME__", macros::Builtin::Time),
        ("__COUNTER__", macros::Builtin::Counter),
    ] {
        macros.insert(
            name.to_string(),
            std::rc::Rc::new(macros::Macro {
                params: None,
                variadic: false,
                body: Vec::new(),
                def_span: builtin_span,
                builtin: Some(b),
            }),
        );
    }
    let mut pp = Preprocessor {
        sources,
        diags,
        include_dirs: opts.include_dirs.clone(),
        headers: headers.to_vec(),
        embedded_files: HashMap::new(),
        once_files: HashSet::new(),
        extensions: target.extensions.clone(),
        macros,
        hide_sets: macros::HideSets::new(),
        expand_depth: 0,
        produced_tokens: 0,
        budget_exhausted: false,
        files: Vec::new(),
        pragma_once: HashSet::new(),
        result: Preprocessed::default(),
        date_time: predefined::date_and_time(std::time::SystemTime::now()),
        counter: 0,
    };
    // The stack's last entry is read first: built-ins, then the command line, then the main file.
    pp.push_file(main, main_dir);
    pp.push_file(cmdline, None);
    pp.push_file(builtin, None);
    pp.run();
    pp.result
}

/// Maximum `#include` nesting (clang's limit).
const MAX_INCLUDE_DEPTH: usize = 200;

/// The state of one `#if`/`#ifdef`/`#ifndef` … `#endif` group (C99 6.10.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CondState {
    /// The current group is being processed.
    Active,
    /// No group taken yet; skipping, a later `#elif`/`#else` may be taken.
    Pending,
    /// A group was already taken; skip the rest.
    Done,
    /// The enclosing region is skipped: skip everything up to the matching `#endif`.
    Dead,
}

#[derive(Debug, Clone)]
struct Cond {
    state: CondState,
    seen_else: bool,
    /// The `#if`/`#ifdef`/`#ifndef` that opened the group.
    span: Span,
}

/// A file being read.
struct FileCtx {
    file: FileId,
    tokens: Vec<Token>,
    pos: usize,
    conds: Vec<Cond>,
    /// Directory searched first for `#include "…"` (`None` for pseudo-files and embedded
    /// headers).
    dir: Option<PathBuf>,
    /// For an embedded header: the directory part of its include name (`""` for none).
    embedded_dir: Option<String>,
    /// The lexer's diagnostics not yet reported, last first.
    lex_diags: Vec<Diagnostic>,
}

impl FileCtx {
    fn active(&self) -> bool {
        self.conds
            .last()
            .is_none_or(|c| c.state == CondState::Active)
    }
}

pub(crate) struct Preprocessor<'a> {
    sources: &'a mut SourceMap,
    diags: &'a mut Diagnostics,
    include_dirs: Vec<PathBuf>,
    /// Embedded headers (`clCompileProgram`): (include name, text).
    headers: Vec<(String, String)>,
    /// Embedded headers already added to the source map.
    embedded_files: HashMap<String, FileId>,
    /// Files that said `#pragma once` (by id, for embedded headers).
    once_files: HashSet<FileId>,
    /// The device's extensions (for `#pragma OPENCL EXTENSION`).
    extensions: Vec<String>,
    macros: HashMap<String, std::rc::Rc<macros::Macro>>,
    hide_sets: macros::HideSets,
    /// Nesting of argument pre-expansion ([`macros`]).
    expand_depth: u32,
    /// Tokens produced by macro expansion so far, and whether the limit was hit.
    produced_tokens: u64,
    budget_exhausted: bool,
    files: Vec<FileCtx>,
    /// Canonical paths of files that said `#pragma once`.
    pragma_once: HashSet<PathBuf>,
    result: Preprocessed,
    /// `__DATE__` and `__TIME__` (C99 6.10.8p1), fixed at the start of preprocessing.
    date_time: (String, String),
    /// The next value of `__COUNTER__`.
    counter: u64,
}

impl Preprocessor<'_> {
    fn push_file(&mut self, file: FileId, dir: Option<PathBuf>) {
        let text = self.sources.text(file).to_string();
        let mut lex_diags = Diagnostics::new();
        let tokens = lex::lex_raw(file, &text, &mut lex_diags);
        let mut lex_diags: Vec<Diagnostic> = lex_diags.iter().cloned().collect();
        // Reported when reading reaches them, so that all diagnostics come in source order.
        lex_diags.reverse();
        self.files.push(FileCtx {
            file,
            tokens,
            pos: 0,
            conds: Vec::new(),
            dir,
            embedded_dir: None,
            lex_diags,
        });
    }

    /// The main loop: expands macros over the whole input and emits the result.
    fn run(&mut self) {
        let mut pending = std::collections::VecDeque::new();
        while let Some(t) = self.pull(&mut pending, true) {
            if let Some(t) = self.try_expand(t, &mut pending, true) {
                self.emit(t.tok);
            }
        }
    }

    fn emit(&mut self, t: Token) {
        if t.kind == TokenKind::Unknown {
            lex::report_unknown(&t, self.diags);
            return;
        }
        self.result.tokens.push(t);
    }

    /// The next token of the input files, after directives and conditional skipping; `None` at
    /// the end of the main file.
    fn next_file_token(&mut self) -> Option<Token> {
        loop {
            let ctx = self.files.last_mut()?;
            let here = ctx.tokens.get(ctx.pos).map_or(u32::MAX, |t| t.span.start);
            while ctx
                .lex_diags
                .last()
                .is_some_and(|d| d.span.map_or(0, |s| s.start) < here)
            {
                if let Some(d) = ctx.lex_diags.pop() {
                    self.diags.push(d);
                }
            }
            let Some(t) = ctx.tokens.get(ctx.pos) else {
                // C99 6.10.1: each group ends in the file it starts in.
                let ctx = self.files.pop()?;
                for c in ctx.conds.iter().rev() {
                    self.diags
                        .error(c.span, "unterminated conditional directive");
                }
                continue;
            };
            if t.line_start && t.is_punct(lex::Punct::Hash) {
                let hash = t.clone();
                let mut end = ctx.pos + 1;
                while end < ctx.tokens.len() && !ctx.tokens[end].line_start {
                    end += 1;
                }
                let line: Vec<Token> = ctx.tokens[ctx.pos + 1..end].to_vec();
                ctx.pos = end;
                self.directive(hash, line);
                continue;
            }
            if !ctx.active() {
                ctx.pos += 1;
                continue;
            }
            ctx.pos += 1;
            return Some(t.clone());
        }
    }
}
