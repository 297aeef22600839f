//! Programs (API 5.8): built from OpenCL C source or from SPIR-V, validated for the device, and
//! lowered to kernel IR.

use std::sync::{Arc, Mutex};

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
#[derive(Debug)]
pub(crate) struct Executable {
    pub(crate) spirv: spv::Module,
    pub(crate) kir: kir::Module,
    /// Work-groups must divide the global size: programs of OpenCL C 1.x and those built with
    /// `-cl-uniform-work-group-size` (API 5.8.6.4, 5.10 `CL_INVALID_WORK_GROUP_SIZE`).
    pub(crate) uniform_work_groups: bool,
}

#[derive(Debug)]
struct BuildState {
    status: BuildStatus,
    log: String,
    options: String,
    executable: Option<Arc<Executable>>,
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
        Program::new(context, ProgramSource::OpenClC { text: text.to_string(), file_name: file_name.to_string() })
    }

    /// `clCreateProgramWithIL`: a SPIR-V module in either byte order.
    pub fn from_il(context: &Context, il: &[u8]) -> Result<Program> {
        if il.is_empty() || il.len() % 4 != 0 {
            return Err(Error::InvalidValue(format!("IL of {} bytes is not a sequence of 32-bit words", il.len())));
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
            })),
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, BuildState> {
        self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// `clBuildProgram`: compile (from source), validate for the device and lower. On failure the
    /// build log says why, and the error carries it too.
    pub fn build(&self, options: &str) -> Result<()> {
        let parsed =
            clc::options::BuildOptions::parse(options).map_err(|e| Error::InvalidBuildOptions(e.to_string()))?;
        let result = self.build_executable(&parsed);
        let mut state = self.state();
        state.options = options.to_string();
        match result {
            Ok((executable, log)) => {
                state.status = BuildStatus::Success;
                state.log = log;
                state.executable = Some(Arc::new(executable));
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
    fn build_executable(&self, options: &clc::options::BuildOptions) -> std::result::Result<(Executable, String), String> {
        let device = self.context.device();
        let mut uniform_work_groups = options.uniform_work_group_size;
        let (module, log) = match &self.source {
            ProgramSource::OpenClC { text, file_name } => {
                let target = device.compile_target();
                uniform_work_groups |= options.opencl_c_version(target.device_cl_version) < 200;
                let compiled = clc::compile(text, file_name, options, &target).map_err(|e| e.log)?;
                (compiled.module, compiled.log)
            }
            ProgramSource::Il(bytes) => {
                let module = spv::read_bytes(bytes).map_err(|e| format!("invalid SPIR-V module: {e}\n"))?;
                (module, String::new())
            }
        };
        let spirv = module.clone();
        let valid = spv::valid::validate(module, &device.validation_env())
            .map_err(|e| format!("{log}SPIR-V validation failed:\n{e}\n"))?;
        let kir = kir::lower::lower(&valid).map_err(|e| format!("{log}error: {e}\n"))?;
        Ok((Executable { spirv, kir, uniform_work_groups }, log))
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
        self.state().executable.clone().ok_or(Error::InvalidProgramExecutable)
    }

    /// The SPIR-V module of a built program (what `oxcl build` writes).
    pub fn spirv(&self) -> Result<spv::Module> {
        Ok(self.executable()?.spirv.clone())
    }

    /// `CL_PROGRAM_KERNEL_NAMES`, in module order.
    pub fn kernel_names(&self) -> Result<Vec<String>> {
        Ok(self.executable()?.kir.kernels.iter().map(|k| k.name.clone()).collect())
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
