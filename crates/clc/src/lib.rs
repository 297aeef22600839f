//! OpenCL C → SPIR-V compiler: `pp` (preprocessor) → `parse` (syntax tree, `ast`) → `emit`
//! (type checking with `sema` rules and SPIR-V emission), diagnostics rendered clang-style by
//! `diag`. The entry point is [`compile`].

pub mod ast;
pub mod diag;
pub mod emit;
pub mod lex;
pub mod options;
pub mod parse;
pub mod pp;
pub mod sema;
pub mod source;

pub use emit::{KernelArg, KernelMeta};

// ---- the `compile` driver -------------------------------------------------------------

use crate::diag::Diagnostics;
use crate::options::BuildOptions;
use crate::pp::Target;
use crate::source::SourceMap;

/// A compiled module plus the rendered warnings (empty when there were none).
#[derive(Debug)]
pub struct Compiled {
    pub module: spv::Module,
    pub log: String,
    /// Each kernel's arguments as declared (for `clGetKernelArgInfo`), in source order.
    pub kernels: Vec<emit::KernelMeta>,
}

/// Compilation failed; `log` holds the rendered diagnostics (clang style).
#[derive(Debug, thiserror::Error)]
#[error("{log}")]
pub struct CompileError {
    pub log: String,
}

/// Stack of the compiling thread: deeply nested (but legal) code recurses deeply in the parser
/// and the emitter. Only touched pages are committed.
const COMPILER_STACK_BYTES: usize = 256 << 20;

/// Compiles OpenCL C `source` (named `file_name` in diagnostics) to a SPIR-V 1.0 module for
/// the OpenCL environment. Never panics on any input: the work runs on a thread with a large
/// stack, and an internal error there becomes a `CompileError`.
pub fn compile(
    source: &str,
    file_name: &str,
    options: &BuildOptions,
    target: &Target,
) -> Result<Compiled, CompileError> {
    compile_with_linkage(source, file_name, options, target, false)
}

/// Compiles to an object for linking (`clCompileProgram`): like [`compile`], but every
/// non-static function with a body is decorated `LinkageAttributes … Export` and every called
/// function without one is declared `LinkageAttributes … Import` (SPIR-V 2.16.1), so that a
/// SPIR-V linker can resolve calls between modules. Kernels are entry points as usual.
pub fn compile_object(
    source: &str,
    file_name: &str,
    options: &BuildOptions,
    target: &Target,
) -> Result<Compiled, CompileError> {
    compile_with_linkage(source, file_name, options, target, true)
}

fn compile_with_linkage(
    source: &str,
    file_name: &str,
    options: &BuildOptions,
    target: &Target,
    linkage: bool,
) -> Result<Compiled, CompileError> {
    let job = {
        let (source, file_name) = (source.to_string(), file_name.to_string());
        let (options, target) = (options.clone(), target.clone());
        move || compile_here(&source, &file_name, &options, &target, linkage)
    };
    let worker = std::thread::Builder::new()
        .name("clc".into())
        .stack_size(COMPILER_STACK_BYTES)
        .spawn(job);
    match worker {
        Ok(handle) => handle.join().unwrap_or_else(|panic| {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            Err(CompileError {
                log: format!("error: internal compiler error: {what}\n1 error generated.\n"),
            })
        }),
        // No thread available: compile on this one.
        Err(_) => compile_here(source, file_name, options, target, linkage),
    }
}

/// `compile` on the current thread (the work of the `clc` thread).
fn compile_here(
    source: &str,
    file_name: &str,
    options: &BuildOptions,
    target: &Target,
    linkage: bool,
) -> Result<Compiled, CompileError> {
    let mut sources = SourceMap::new();
    let file = sources.add_file(file_name.to_string(), source.to_string());
    let mut diags = Diagnostics::new();
    diags.set_warnings_as_errors(options.warnings_as_errors);
    diags.set_suppress_warnings(options.suppress_warnings);
    let pre = crate::pp::preprocess(&mut sources, file, options, target, &mut diags);
    // After preprocessing errors the tokens are unreliable; after syntax errors the parser
    // has recovered, so sema still runs and reports the semantic errors too (clang-like).
    let module = if diags.has_errors() {
        None
    } else {
        let tu = crate::parse::parse(&pre.tokens, &mut diags);
        let has = |name: &str| target.extensions.iter().any(|e| e == name);
        let has_feature = |name: &str| target.features.iter().any(|e| e == name);
        let cl_version = options.opencl_c_version(target.device_cl_version);
        let opts = crate::emit::EmitOptions {
            cl_version,
            fp64: has("cl_khr_fp64") || has_feature("__opencl_c_fp64"),
            fp16: has("cl_khr_fp16"),
            single_precision_constant: options.single_precision_constant,
            generic_address_space: cl_version == 200
                || (cl_version >= 300 && has_feature("__opencl_c_generic_address_space")),
            work_group_collectives: cl_version == 200
                || (cl_version >= 300 && has_feature("__opencl_c_work_group_collective_functions")),
            subgroups: cl_version >= 200
                && (has("cl_khr_subgroups") || has_feature("__opencl_c_subgroups")),
            int64_base_atomics: has("cl_khr_int64_base_atomics"),
            int64_extended_atomics: has("cl_khr_int64_extended_atomics"),
            linkage,
        };
        crate::emit::emit_translation_unit(&tu, target, opts, &mut diags)
    };
    let log = diags.render(&sources);
    match module {
        Some((module, kernels)) if !diags.has_errors() => Ok(Compiled {
            module,
            log,
            kernels,
        }),
        _ => Err(CompileError { log }),
    }
}
