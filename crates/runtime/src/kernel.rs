//! Kernel objects (API 5.9): a kernel of a built program with its argument values.

use std::sync::{Arc, Mutex};

use crate::program::Executable;
use crate::{Buffer, Error, Image, ImageAccess, Program, Result, Sampler};

/// How an argument is passed (the address qualifier of `clGetKernelArgInfo`, plus by-value size).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ArgKind {
    /// A `__global` pointer: a buffer or null.
    Global,
    /// A `__constant` pointer: a buffer or null.
    Constant,
    /// A `__local` pointer: the host gives a size.
    Local,
    /// A value of this many bytes (scalar, vector or struct).
    Value { size: usize },
    /// A `sampler_t`.
    Sampler,
    /// An image (`image2d_t`, …): the host gives an image memory object.
    Image,
    /// A pipe (`read_only` or `write_only pipe T`).
    Pipe { write_only: bool },
}

/// One argument's description.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArgInfo {
    pub name: String,
    /// OpenCL C type name, such as `float*` (empty when the module does not say).
    pub type_name: String,
    pub kind: ArgKind,
}

/// The value set for an argument.
#[derive(Clone, Debug)]
pub(crate) enum ArgValue {
    Buffer(Buffer),
    Null,
    Bytes(Vec<u8>),
    Local(usize),
    Image(Image),
    /// A host address into shared virtual memory (`Kernel::set_arg_svm`).
    Svm(u64),
}

/// A kernel. Clones share argument values (like retained `cl_kernel` handles).
#[derive(Clone, Debug)]
pub struct Kernel {
    program: Program,
    executable: Arc<Executable>,
    index: usize,
    args: Arc<Mutex<Vec<Option<ArgValue>>>>,
    /// `CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM` when the application set it (see
    /// [`Kernel::reaches_system_memory`]).
    fine_grain_system: Arc<Mutex<Option<bool>>>,
}

impl Kernel {
    pub(crate) fn new(program: Program, executable: Arc<Executable>, index: usize) -> Kernel {
        let count = executable.kir.kernels[index].args.len();
        Kernel {
            program,
            executable,
            index,
            args: Arc::new(Mutex::new(vec![None; count])),
            fine_grain_system: Arc::new(Mutex::new(None)),
        }
    }

    /// `clSetKernelExecInfo(CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM)`.
    pub fn set_fine_grain_system(&self, on: bool) {
        *self
            .fine_grain_system
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(on);
    }

    /// Whether a launch lets the kernel reach host memory outside the SVM allocations
    /// (fine-grained system SVM, `exec::SvmSpace::with_system_memory`): when the application
    /// set `CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM` to `CL_TRUE`, or passed an argument
    /// that is a system pointer (`is_system_pointer`: outside every SVM allocation).
    ///
    /// API 5.9.3 makes `CL_TRUE` the default. oxcl departs from it for kernels given only
    /// buffers and `clSVMAlloc` pointers: they keep reporting an access outside their memory as
    /// an error instead of touching whatever host memory lies there, which is what a checked
    /// implementation owes an application that never handed it system memory.
    pub fn reaches_system_memory(&self, is_system_pointer: impl Fn(u64) -> bool) -> bool {
        let set = *self
            .fine_grain_system
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let args = self
            .args
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        set == Some(true)
            || args.iter().any(|a| match a {
                Some(ArgValue::Svm(addr)) => is_system_pointer(*addr),
                _ => false,
            })
    }

    fn desc(&self) -> &kir::Kernel {
        &self.executable.kir.kernels[self.index]
    }

    pub fn name(&self) -> &str {
        &self.desc().name
    }

    pub fn num_args(&self) -> u32 {
        self.desc().args.len() as u32
    }

    pub fn program(&self) -> &Program {
        &self.program
    }

    /// `CL_KERNEL_COMPILE_NUM_SUB_GROUPS`: the `SubgroupsPerWorkgroup(Id)` execution mode of
    /// the kernel's entry point in the IL (SPIR-V 3.6), or 0 when it has none.
    pub fn compile_num_sub_groups(&self) -> usize {
        use spv::{Op, Operand};
        let instructions = &self.executable.spirv.instructions;
        let name = self.name();
        let Some(func) = instructions.iter().find_map(|i| match &i.operands[..] {
            [Operand::Int(_), Operand::Id(func), Operand::Str(n), ..]
                if i.op == Op::EntryPoint && n == name =>
            {
                Some(*func)
            }
            _ => None,
        }) else {
            return 0;
        };
        let constant = |id: spv::Id| {
            instructions.iter().find_map(|i| match i.operands.first() {
                Some(Operand::Int(v)) if i.op == Op::Constant && i.result == Some(id) => {
                    Some(*v as usize)
                }
                _ => None,
            })
        };
        instructions
            .iter()
            .filter(|i| matches!(i.op, Op::ExecutionMode | Op::ExecutionModeId))
            .find_map(|i| match i.operands[..] {
                // SubgroupsPerWorkgroup = 36, SubgroupsPerWorkgroupId = 37.
                [Operand::Id(f), Operand::Int(36), Operand::Int(n), ..] if f == func => {
                    Some(n as usize)
                }
                [Operand::Id(f), Operand::Int(37), Operand::Id(c), ..] if f == func => constant(c),
                _ => None,
            })
            .unwrap_or(0)
    }

    /// `reqd_work_group_size`, if the kernel has one.
    pub fn reqd_work_group_size(&self) -> Option<[u32; 3]> {
        self.desc().reqd_work_group_size
    }

    /// The access qualifier of image argument `index` (`None` for other arguments).
    pub fn image_access(&self, index: u32) -> Option<kir::ImageAccess> {
        match self.desc().args.get(index as usize)?.kind {
            kir::ArgKind::Image(declared) => Some(declared.access),
            _ => None,
        }
    }

    /// Argument `index`'s description.
    pub fn arg_info(&self, index: u32) -> Result<ArgInfo> {
        let arg = self
            .desc()
            .args
            .get(index as usize)
            .ok_or(Error::InvalidArgIndex(index))?;
        let kind = match &arg.kind {
            kir::ArgKind::Buffer(kir::AddrSpace::Constant) => ArgKind::Constant,
            kir::ArgKind::Buffer(_) => ArgKind::Global,
            kir::ArgKind::LocalPtr => ArgKind::Local,
            kir::ArgKind::Value { size, .. } => ArgKind::Value {
                size: *size as usize,
            },
            kir::ArgKind::Sampler => ArgKind::Sampler,
            kir::ArgKind::Image(_) => ArgKind::Image,
            kir::ArgKind::Pipe { write_only } => ArgKind::Pipe {
                write_only: *write_only,
            },
        };
        Ok(ArgInfo {
            name: arg.name.clone(),
            type_name: arg.type_name.clone(),
            kind,
        })
    }

    fn set(&self, index: u32, value: ArgValue) {
        let mut args = self
            .args
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        args[index as usize] = Some(value);
    }

    /// Sets a `__global`/`__constant` pointer argument to a buffer, or to null with `None`.
    pub fn set_arg_buffer(&self, index: u32, buffer: Option<&Buffer>) -> Result<()> {
        match self.arg_info(index)?.kind {
            ArgKind::Global | ArgKind::Constant => {}
            other => {
                return Err(Error::InvalidArgValue {
                    index,
                    reason: format!("a buffer given for a {other:?} argument"),
                })
            }
        }
        self.set(
            index,
            buffer.map_or(ArgValue::Null, |b| ArgValue::Buffer(b.clone())),
        );
        Ok(())
    }

    /// `clSetKernelArgSVMPointer` (API 5.9.2): a `__global`/`__constant` pointer argument set to
    /// a host address, normally inside an SVM allocation of the context (any value is accepted:
    /// the kernel's accesses through it are checked against the live allocations when it runs;
    /// null is the null pointer).
    pub fn set_arg_svm(&self, index: u32, ptr: *const u8) -> Result<()> {
        match self.arg_info(index)?.kind {
            ArgKind::Global | ArgKind::Constant => {}
            other => {
                return Err(Error::InvalidArgValue {
                    index,
                    reason: format!("an SVM pointer given for a {other:?} argument"),
                })
            }
        }
        let value = if ptr.is_null() {
            ArgValue::Null
        } else {
            ArgValue::Svm(ptr as u64)
        };
        self.set(index, value);
        Ok(())
    }

    /// Sets a pipe argument (the pipe's memory is passed like a buffer; engines read its
    /// `exec::pipe` layout).
    pub fn set_arg_pipe(&self, index: u32, pipe: &crate::Pipe) -> Result<()> {
        match self.arg_info(index)?.kind {
            ArgKind::Pipe { .. } => {}
            other => {
                return Err(Error::InvalidArgValue {
                    index,
                    reason: format!("a pipe given for a {other:?} argument"),
                })
            }
        }
        self.set(index, ArgValue::Buffer(pipe.buffer().clone()));
        Ok(())
    }

    /// Sets a by-value argument from its bytes (the OpenCL C memory layout of its type).
    pub fn set_arg_bytes(&self, index: u32, bytes: &[u8]) -> Result<()> {
        match self.arg_info(index)?.kind {
            ArgKind::Value { size } if size == bytes.len() => {}
            ArgKind::Value { size } => {
                return Err(Error::InvalidArgSize {
                    index,
                    reason: format!(
                        "{} bytes given for an argument of {size} bytes",
                        bytes.len()
                    ),
                })
            }
            ArgKind::Sampler if bytes.len() == 4 => {}
            other => {
                return Err(Error::InvalidArgValue {
                    index,
                    reason: format!("a value given for a {other:?} argument"),
                })
            }
        }
        self.set(index, ArgValue::Bytes(bytes.to_vec()));
        Ok(())
    }

    /// Sets an image argument (API 5.9.2: "If the argument is an image object, the arg_value
    /// pointer ... the image object").
    pub fn set_arg_image(&self, index: u32, image: &Image) -> Result<()> {
        let declared = match &self.desc().args.get(index as usize).map(|a| &a.kind) {
            Some(kir::ArgKind::Image(declared)) => *declared,
            _ => {
                let other = self.arg_info(index)?.kind;
                return Err(Error::InvalidArgValue {
                    index,
                    reason: format!("an image given for a {other:?} argument"),
                });
            }
        };
        if let Some(reason) = image_arg_mismatch(&declared, image) {
            return Err(Error::InvalidArgValue { index, reason });
        }
        self.set(index, ArgValue::Image(image.clone()));
        Ok(())
    }

    /// Sets a `sampler_t` argument: the engines receive the 32-bit encoded sampler value.
    pub fn set_arg_sampler(&self, index: u32, sampler: &Sampler) -> Result<()> {
        if self.arg_info(index)?.kind != ArgKind::Sampler {
            return Err(Error::InvalidArgValue {
                index,
                reason: "a sampler given for an argument that is not a sampler_t".into(),
            });
        }
        let bits = sampler.encode().map_err(|e| Error::InvalidArgValue {
            index,
            reason: e.to_string(),
        })?;
        self.set(index, ArgValue::Bytes(bits.to_le_bytes().to_vec()));
        Ok(())
    }

    /// Sets a `__local` pointer argument to `size` bytes of local memory per work-group.
    pub fn set_arg_local(&self, index: u32, size: usize) -> Result<()> {
        if self.arg_info(index)?.kind != ArgKind::Local {
            return Err(Error::InvalidArgValue {
                index,
                reason: "a local size given for a non-local argument".into(),
            });
        }
        if size == 0 {
            return Err(Error::InvalidArgSize {
                index,
                reason: "local memory size 0".into(),
            });
        }
        self.set(index, ArgValue::Local(size));
        Ok(())
    }

    /// The argument values, or the indices of the ones not set.
    pub(crate) fn arg_values(&self) -> Result<Vec<ArgValue>> {
        let args = self
            .args
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let missing: Vec<u32> = (0..args.len() as u32)
            .filter(|&i| args[i as usize].is_none())
            .collect();
        if !missing.is_empty() {
            return Err(Error::InvalidKernelArgs(missing));
        }
        Ok(args.iter().flatten().cloned().collect())
    }

    pub(crate) fn kir_module(&self) -> &kir::Module {
        &self.executable.kir
    }

    pub(crate) fn requires_uniform_work_groups(&self) -> bool {
        self.executable.uniform_work_groups
    }

    pub(crate) fn program_globals(&self) -> &exec::ProgramGlobals {
        &self.executable.globals
    }

    pub(crate) fn index(&self) -> usize {
        self.index
    }
}

impl Kernel {
    /// `clCloneKernel` (API 5.9.1): a new kernel object with a copy of the argument values set so
    /// far; later changes to either do not affect the other. Also how a command captures the
    /// arguments at enqueue time.
    pub fn duplicate(&self) -> Kernel {
        let args = self
            .args
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clone();
        Kernel {
            program: self.program.clone(),
            executable: self.executable.clone(),
            index: self.index,
            args: Arc::new(Mutex::new(args)),
            fine_grain_system: Arc::new(Mutex::new(
                *self
                    .fine_grain_system
                    .lock()
                    .unwrap_or_else(|poisoned| poisoned.into_inner()),
            )),
        }
    }

    /// `work_group_size_hint`, if the kernel has one.
    pub fn work_group_size_hint(&self) -> Option<[u32; 3]> {
        self.desc().work_group_size_hint
    }

    /// Has argument `index` been given a value?
    pub fn is_arg_set(&self, index: u32) -> bool {
        let args = self
            .args
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        matches!(args.get(index as usize), Some(Some(_)))
    }

    /// The bytes of the kernel's own `__local` variables (per work-group).
    pub fn static_local_mem_size(&self) -> u64 {
        self.executable.kir.kernel_local_mem_size(self.index)
    }

    /// The bytes of local memory the `__local` pointer arguments set so far ask for
    /// (`CL_KERNEL_LOCAL_MEM_SIZE` counts these plus the kernel's own `__local` variables).
    pub fn local_arg_bytes(&self) -> u64 {
        let args = self
            .args
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        args.iter()
            .map(|a| match a {
                Some(ArgValue::Local(size)) => *size as u64,
                _ => 0,
            })
            .sum()
    }
}

/// Why `image` cannot be bound to an argument declared as `declared`, if it cannot: the image
/// type must be the declared one, and (API 5.9.2, clSetKernelArg) a `read_only` argument takes
/// no `CL_MEM_WRITE_ONLY` image, a `write_only` argument no `CL_MEM_READ_ONLY` image.
fn image_arg_mismatch(declared: &kir::ImageArg, image: &Image) -> Option<String> {
    use devlib::image_desc::ImageType as T;
    use kir::ImageDim as D;
    let ty = image.image_type();
    let type_ok = match (declared.dim, declared.arrayed) {
        (D::D1, false) => ty == T::Image1D,
        (D::D1, true) => ty == T::Image1DArray,
        (D::D2, false) => ty == T::Image2D,
        (D::D2, true) => ty == T::Image2DArray,
        (D::D3, _) => ty == T::Image3D,
        (D::Buffer, _) => ty == T::Image1DBuffer,
    };
    if !type_ok {
        return Some(format!(
            "a {ty:?} image given for an argument declared {}",
            declared.name()
        ));
    }
    let access = image.access();
    let access_ok = match declared.access {
        kir::ImageAccess::ReadOnly => access != ImageAccess::WriteOnly,
        kir::ImageAccess::WriteOnly => access != ImageAccess::ReadOnly,
        kir::ImageAccess::ReadWrite => {
            !matches!(access, ImageAccess::ReadOnly | ImageAccess::WriteOnly)
        }
    };
    (!access_ok).then(|| {
        format!(
            "an image created {access:?} given for an argument declared {}",
            declared.name()
        )
    })
}
