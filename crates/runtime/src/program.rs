//! Programs (API 5.8): built from OpenCL C source or from SPIR-V, validated for the device, and
//! lowered to kernel IR.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::spec_constants::{self, SpecConstantType};
use crate::{Context, Error, Kernel, Result};

/// `CL_PROGRAM_BUILD_STATUS`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BuildStatus {
    None,
    Error,
    Success,
}

/// What a program is made from.
#[derive(Clone, Debug)]
enum ProgramSource {
    /// OpenCL C source and the file name used in diagnostics and for `#include "…"`.
    OpenClC { text: String, file_name: String },
    /// A SPIR-V module (`clCreateProgramWithIL`).
    Il(Vec<u8>),
}

/// The result of a successful build: the validated SPIR-V and the kernel IR lowered from it.
pub(crate) struct Executable {
    pub(crate) spirv: spv::Module,
    pub(crate) kir: kir::Module,
    /// Work-groups must divide the global size: programs of OpenCL C 1.x and those built with
    /// `-cl-uniform-work-group-size` (API 5.8.6.4, 5.10 `CL_INVALID_WORK_GROUP_SIZE`).
    pub(crate) uniform_work_groups: bool,
    /// Program-scope variables: they keep their values from one launch to the next
    /// (OpenCL C 2.0 6.5.1), so their storage belongs to the built program.
    pub(crate) globals: exec::ProgramGlobals,
}

impl std::fmt::Debug for Executable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Executable")
            .field("kernels", &self.kir.kernels.len())
            .field("uniform_work_groups", &self.uniform_work_groups)
            .finish_non_exhaustive()
    }
}

#[derive(Debug)]
struct BuildState {
    status: BuildStatus,
    log: String,
    options: String,
    executable: Option<Arc<Executable>>,
    /// The SPIR-V of a compiled (`clCompileProgram`) or linked-as-library object.
    object: Option<Vec<u8>>,
    binary_type: BinaryType,
    /// Values of specialization constants by `SpecId` for later builds (API 5.8.6), as
    /// `kir::lower::LowerOptions::spec_constants` takes them.
    spec_constants: HashMap<u32, u64>,
}

/// A program object.
#[derive(Clone, Debug)]
pub struct Program {
    context: Context,
    source: ProgramSource,
    state: Arc<Mutex<BuildState>>,
}

impl Program {
    /// `clCreateProgramWithSource`. `file_name` appears in diagnostics; `#include "…"` is looked
    /// up beside it.
    pub fn from_source(context: &Context, text: &str, file_name: &str) -> Program {
        Program::new(
            context,
            ProgramSource::OpenClC {
                text: text.to_string(),
                file_name: file_name.to_string(),
            },
        )
    }

    /// `clCreateProgramWithIL`: a SPIR-V module in either byte order.
    pub fn from_il(context: &Context, il: &[u8]) -> Result<Program> {
        if il.is_empty() || il.len() % 4 != 0 {
            return Err(Error::InvalidValue(format!(
                "IL of {} bytes is not a sequence of 32-bit words",
                il.len()
            )));
        }
        Ok(Program::new(context, ProgramSource::Il(il.to_vec())))
    }

    fn new(context: &Context, source: ProgramSource) -> Program {
        Program {
            context: context.clone(),
            source,
            state: Arc::new(Mutex::new(BuildState {
                status: BuildStatus::None,
                log: String::new(),
                options: String::new(),
                executable: None,
                object: None,
                binary_type: BinaryType::None,
                spec_constants: HashMap::new(),
            })),
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, BuildState> {
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// `clBuildProgram`: compile (from source), validate for the device and lower. On failure the
    /// build log says why, and the error carries it too.
    pub fn build(&self, options: &str) -> Result<()> {
        let parsed = clc::options::BuildOptions::parse(options)
            .map_err(|e| Error::InvalidBuildOptions(e.to_string()))?;
        let result = self.build_executable(&parsed);
        let mut state = self.state();
        state.options = options.to_string();
        match result {
            Ok((executable, log)) => {
                state.status = BuildStatus::Success;
                state.log = log;
                state.executable = Some(Arc::new(executable));
                state.binary_type = BinaryType::Executable;
                Ok(())
            }
            Err(log) => {
                state.status = BuildStatus::Error;
                state.log = log.clone();
                state.executable = None;
                Err(Error::BuildProgramFailure(log))
            }
        }
    }

    /// The build pipeline; `Err` is the build log of a failed build.
    fn build_executable(
        &self,
        options: &clc::options::BuildOptions,
    ) -> std::result::Result<(Executable, String), String> {
        let device = self.context.device();
        let mut uniform_work_groups = options.uniform_work_group_size;
        let (module, log) = match &self.source {
            ProgramSource::OpenClC { text, file_name } => {
                let target = device.compile_target();
                uniform_work_groups |= options.opencl_c_version(target.device_cl_version) < 200;
                let compiled =
                    clc::compile(text, file_name, options, &target).map_err(|e| e.log)?;
                (compiled.module, compiled.log)
            }
            ProgramSource::Il(bytes) => {
                let module =
                    spv::read_bytes(bytes).map_err(|e| format!("invalid SPIR-V module: {e}\n"))?;
                (module, String::new())
            }
        };
        let spirv = module.clone();
        let valid = spv::valid::validate(module, &device.validation_env())
            .map_err(|e| format!("{log}SPIR-V validation failed:\n{e}\n"))?;
        let lower_options = kir::lower::LowerOptions {
            spec_constants: self.state().spec_constants.clone(),
        };
        let kir = kir::lower::lower_with(&valid, &lower_options)
            .map_err(|e| format!("{log}error: {e}\n"))?;
        let globals = exec::ProgramGlobals::new(&kir);
        Ok((
            Executable {
                spirv,
                kir,
                uniform_work_groups,
                globals,
            },
            log,
        ))
    }

    pub fn build_status(&self) -> BuildStatus {
        self.state().status
    }

    /// `CL_PROGRAM_BUILD_LOG`.
    pub fn build_log(&self) -> String {
        self.state().log.clone()
    }

    /// `CL_PROGRAM_BUILD_OPTIONS`.
    pub fn build_options(&self) -> String {
        self.state().options.clone()
    }

    pub fn context(&self) -> &Context {
        &self.context
    }

    pub(crate) fn executable(&self) -> Result<Arc<Executable>> {
        self.state()
            .executable
            .clone()
            .ok_or(Error::InvalidProgramExecutable)
    }

    /// The SPIR-V module of a built program (what `oxcl build` writes).
    pub fn spirv(&self) -> Result<spv::Module> {
        Ok(self.executable()?.spirv.clone())
    }

    /// `CL_PROGRAM_KERNEL_NAMES`, in module order.
    pub fn kernel_names(&self) -> Result<Vec<String>> {
        Ok(self
            .executable()?
            .kir
            .kernels
            .iter()
            .map(|k| k.name.clone())
            .collect())
    }

    /// The specialization constants of an IL program by `SpecId` (none for a program from
    /// OpenCL C source or a module that cannot be read).
    pub fn spec_constants(&self) -> HashMap<u32, SpecConstantType> {
        match &self.source {
            ProgramSource::Il(bytes) => spv::read_bytes(bytes)
                .map(|module| spec_constants::types(&module))
                .unwrap_or_default(),
            ProgramSource::OpenClC { .. } => HashMap::new(),
        }
    }

    /// `clSetProgramSpecializationConstant`: the value of constant `spec_id` for the builds
    /// that follow ("the last provided value ... override[s] any previously specified value").
    pub fn set_spec_constant(&self, spec_id: u32, value: &[u8]) -> Result<()> {
        let ty = *self
            .spec_constants()
            .get(&spec_id)
            .ok_or_else(|| Error::InvalidValue(format!("no specialization constant {spec_id}")))?;
        // API 5.8.6: "CL_INVALID_VALUE if spec_size does not match the size of the
        // specialization constant in the module".
        if value.len() != ty.size {
            return Err(Error::InvalidValue(format!(
                "specialization constant {spec_id} has {} bytes, not {}",
                ty.size,
                value.len()
            )));
        }
        self.state()
            .spec_constants
            .insert(spec_id, spec_constants::bits(ty, value));
        Ok(())
    }

    /// `CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE`: bytes of the program-scope variables in
    /// the global address space of the built program.
    pub fn global_variable_total_size(&self) -> Result<usize> {
        Ok(self
            .executable()?
            .kir
            .globals
            .iter()
            .filter(|g| g.space == kir::AddrSpace::Global)
            .map(|g| g.size as usize)
            .sum())
    }

    /// `clCreateKernel`.
    pub fn kernel(&self, name: &str) -> Result<Kernel> {
        let executable = self.executable()?;
        let index = executable
            .kir
            .kernel(name)
            .map(|(index, _)| index)
            .ok_or_else(|| Error::InvalidKernelName(name.to_string()))?;
        Ok(Kernel::new(self.clone(), executable, index))
    }
}

/// `CL_PROGRAM_BINARY_TYPE` (API 5.8.9), with the values of `cl_program_binary_type`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BinaryType {
    None = 0,
    CompiledObject = 1,
    Library = 2,
    Executable = 4,
}

/// The oxcl program binary: this magic, a little-endian `u32` format version, the `u32`
/// [`BinaryType`], then the SPIR-V module's bytes.
const BINARY_MAGIC: &[u8; 8] = b"OXCLBIN\0";
const BINARY_VERSION: u32 = 1;

fn encode_binary(kind: BinaryType, spirv: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(16 + spirv.len());
    out.extend_from_slice(BINARY_MAGIC);
    out.extend_from_slice(&BINARY_VERSION.to_le_bytes());
    out.extend_from_slice(&(kind as u32).to_le_bytes());
    out.extend_from_slice(spirv);
    out
}

fn decode_binary(bytes: &[u8]) -> Result<(BinaryType, &[u8])> {
    if bytes.len() < 16 || &bytes[..8] != BINARY_MAGIC {
        return Err(Error::InvalidBinary(
            "not an oxcl program binary (no OXCLBIN header)".into(),
        ));
    }
    let word =
        |at: usize| u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    if word(8) != BINARY_VERSION {
        return Err(Error::InvalidBinary(format!(
            "oxcl binary format version {} (expected {BINARY_VERSION})",
            word(8)
        )));
    }
    let kind = match word(12) {
        1 => BinaryType::CompiledObject,
        2 => BinaryType::Library,
        4 => BinaryType::Executable,
        other => return Err(Error::InvalidBinary(format!("unknown binary type {other}"))),
    };
    let spirv = &bytes[16..];
    if spirv.is_empty() || spirv.len() % 4 != 0 {
        return Err(Error::InvalidBinary(
            "the SPIR-V module is not a sequence of 32-bit words".into(),
        ));
    }
    Ok((kind, spirv))
}

impl Program {
    /// `clCreateProgramWithBinary` with an oxcl binary (see [`Program::binary`]). An executable
    /// must still be built (API 5.8.1: "clBuildProgram ... must be called"); an object or library
    /// can be linked.
    pub fn from_binary(context: &Context, bytes: &[u8]) -> Result<Program> {
        let (kind, spirv) = decode_binary(bytes)?;
        spv::read_bytes(spirv).map_err(|e| Error::InvalidBinary(e.to_string()))?;
        let program = Program::new(context, ProgramSource::Il(spirv.to_vec()));
        {
            let mut state = program.state();
            state.binary_type = kind;
            if kind != BinaryType::Executable {
                state.object = Some(spirv.to_vec());
            }
        }
        Ok(program)
    }

    /// `CL_PROGRAM_BINARIES`: the executable, else the compiled object, as an oxcl binary;
    /// empty when there is neither.
    pub fn binary(&self) -> Vec<u8> {
        let state = self.state();
        if let Some(executable) = &state.executable {
            return encode_binary(BinaryType::Executable, &executable.spirv.to_bytes());
        }
        match &state.object {
            Some(spirv) => encode_binary(state.binary_type, spirv),
            None => Vec::new(),
        }
    }

    /// `CL_PROGRAM_BINARY_TYPE`.
    pub fn binary_type(&self) -> BinaryType {
        self.state().binary_type
    }

    /// `CL_PROGRAM_SOURCE`: the OpenCL C source, if the program was created from source.
    pub fn source_text(&self) -> Option<&str> {
        match &self.source {
            ProgramSource::OpenClC { text, .. } => Some(text),
            ProgramSource::Il(_) => None,
        }
    }

    /// `CL_PROGRAM_IL`: the IL, if the program was created from IL.
    pub fn il(&self) -> Option<&[u8]> {
        match &self.source {
            ProgramSource::Il(bytes) => Some(bytes),
            ProgramSource::OpenClC { .. } => None,
        }
    }

    /// `clCompileProgram` (API 5.8.3): OpenCL C source to a compiled object (SPIR-V). The
    /// `headers` are `(include name, source)` pairs that `#include "name"` finds before the `-I`
    /// directories. A program from IL or binary is an object already.
    pub fn compile(&self, options: &str, headers: &[(String, String)]) -> Result<()> {
        let mut parsed = clc::options::BuildOptions::parse(options)
            .map_err(|e| Error::InvalidBuildOptions(e.to_string()))?;
        let result = match &self.source {
            ProgramSource::OpenClC { text, file_name } => {
                // The embedded headers go to a private directory searched first.
                let dir = HeaderDir::new(headers)
                    .map_err(|e| format!("error: cannot stage the input headers: {e}\n"));
                match dir {
                    Ok(dir) => {
                        if let Some(path) = &dir.path {
                            parsed.include_dirs.insert(0, path.clone());
                        }
                        clc::compile_object(
                            text,
                            file_name,
                            &parsed,
                            &self.context.device().compile_target(),
                        )
                        .map(|c| (c.module.to_bytes(), c.log))
                        .map_err(|e| e.log)
                    }
                    Err(log) => Err(log),
                }
            }
            ProgramSource::Il(bytes) => Ok((bytes.clone(), String::new())),
        };
        let mut state = self.state();
        state.options = options.to_string();
        state.executable = None;
        match result {
            Ok((spirv, log)) => {
                state.status = BuildStatus::Success;
                state.log = log;
                state.object = Some(spirv);
                state.binary_type = BinaryType::CompiledObject;
                Ok(())
            }
            Err(log) => {
                state.status = BuildStatus::Error;
                state.log = log.clone();
                state.object = None;
                state.binary_type = BinaryType::None;
                Err(Error::CompileProgramFailure(log))
            }
        }
    }

    /// The compiled object of `clCompileProgram` (or of a binary), for linking.
    pub fn object(&self) -> Option<Vec<u8>> {
        self.state().object.clone()
    }

    /// `clLinkProgram` (API 5.8.4): a new program from compiled objects, linked into one SPIR-V
    /// module by `spv::link`, then built (or, with `-create-library`, kept as a library).
    pub fn link(context: &Context, objects: &[Program], options: &str) -> Result<Program> {
        let create_library = options.split_whitespace().any(|o| o == "-create-library");
        let link_options: Vec<&str> = options
            .split_whitespace()
            .filter(|o| !matches!(*o, "-create-library" | "-enable-link-options"))
            .collect();
        let mut modules = Vec::new();
        for object in objects {
            match object.object() {
                Some(spirv) => modules.push(spirv),
                None => {
                    return Err(Error::InvalidProgram(
                        "an input program has no compiled object or library".into(),
                    ))
                }
            }
        }
        // API 5.8.4: the objects are linked into one module (spv::link resolves each Import by the
        // Export of the same name); a library may keep unresolved imports.
        let linked = match modules.as_slice() {
            [] => Err("error: no objects to link\n".to_string()),
            _ => modules
                .iter()
                .map(|bytes| {
                    spv::read_bytes(bytes)
                        .map_err(|e| format!("error: invalid SPIR-V object: {e}\n"))
                })
                .collect::<std::result::Result<Vec<_>, _>>()
                .and_then(|parsed| {
                    let link_options = spv::link::LinkOptions {
                        allow_unresolved: create_library,
                    };
                    spv::link::link_with(&parsed, &link_options)
                        .map(|m| m.to_bytes())
                        .map_err(|e| format!("error: {e}\n"))
                }),
        };
        let linked = match linked {
            Ok(bytes) => bytes,
            Err(log) => {
                let program = Program::new(context, ProgramSource::Il(Vec::new()));
                let mut state = program.state();
                state.status = BuildStatus::Error;
                state.log = log.clone();
                drop(state);
                return Err(Error::LinkProgramFailure(log, program));
            }
        };
        let program = Program::new(context, ProgramSource::Il(linked.clone()));
        if create_library {
            {
                let mut state = program.state();
                state.status = BuildStatus::Success;
                state.options = options.to_string();
                state.object = Some(linked);
                state.binary_type = BinaryType::Library;
            }
            return Ok(program);
        }
        // Linking options of API 5.8.6.8 other than -create-library are accepted by the build.
        match program.build(&link_options.join(" ")) {
            Ok(()) => {
                program.state().options = options.to_string();
                Ok(program)
            }
            Err(Error::BuildProgramFailure(log)) => Err(Error::LinkProgramFailure(log, program)),
            Err(other) => Err(other),
        }
    }
}

/// A temporary directory holding `clCompileProgram`'s input headers, removed on drop.
struct HeaderDir {
    path: Option<std::path::PathBuf>,
}

impl HeaderDir {
    fn new(headers: &[(String, String)]) -> std::io::Result<HeaderDir> {
        if headers.is_empty() {
            return Ok(HeaderDir { path: None });
        }
        static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!("oxcl-headers-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&path)?;
        let dir = HeaderDir {
            path: Some(path.clone()),
        };
        for (name, text) in headers {
            // "The first of several entries with the same name is used."
            let file = path.join(name.trim_start_matches('/'));
            if file.exists() || name.split('/').any(|c| c == "..") {
                continue;
            }
            if let Some(parent) = file.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::write(file, text)?;
        }
        Ok(dir)
    }
}

impl Drop for HeaderDir {
    fn drop(&mut self) {
        if let Some(path) = &self.path {
            let _ = std::fs::remove_dir_all(path);
        }
    }
}
