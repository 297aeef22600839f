//! Modules: functions, kernels (entry points with their argument descriptions) and module-scope
//! variables.

use crate::{AddrSpace, FuncRef, Function, GlobalRef, InstData, Type};

/// How the host passes one kernel argument (OpenCL C 6.9 kernel argument kinds).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ArgKind {
    /// A `__global` or `__constant` pointer: a buffer (or null). The parameter has type `Ptr(space)`.
    Buffer(AddrSpace),
    /// A `__local` pointer: the host gives a size and each work-group gets fresh local memory.
    /// The parameter has type `Ptr(Local)`.
    LocalPtr,
    /// A value passed by copy (scalar, vector or struct), laid out as `ty` in memory. The
    /// parameter has type `ty` (`Agg` for structs).
    Value { ty: Type, size: u32, align: u32 },
    /// A `sampler_t`, passed as its 32-bit encoded value. The parameter has type `i32`.
    Sampler,
    /// An image memory object (`image2d_t` …, SPIR-V `OpTypeImage`). The host passes the image
    /// (`exec::ArgValue::Image`); the parameter is the image's handle, an integer of pointer
    /// width (`Module::ptr_int_type`), which image instructions take.
    Image(ImageArg),
    /// A pipe memory object (`read_only`/`write_only pipe T`, SPIR-V `OpTypePipe`). The
    /// parameter has type `Ptr(Global)`: the pipe's memory, laid out as `exec::pipe` says.
    Pipe { write_only: bool },
}

/// The declared type of an image argument (SPIR-V `OpTypeImage` operands, env §2.4.2).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct ImageArg {
    pub dim: ImageDim,
    pub arrayed: bool,
    /// A depth image (cl_khr_depth_images): reads return one float.
    pub depth: bool,
    pub access: ImageAccess,
}

/// Image dimensionality (SPIR-V Dim `1D`, `2D`, `3D`, `Buffer`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ImageDim {
    D1,
    D2,
    D3,
    Buffer,
}

/// Image access qualifier (SPIR-V AccessQualifier).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ImageAccess {
    ReadOnly,
    WriteOnly,
    ReadWrite,
}

impl ImageArg {
    /// The text syntax: `image2d_array_depth_read_only` (OpenCL C type name with the access).
    pub fn name(&self) -> String {
        let dim = match self.dim {
            ImageDim::D1 => "1d",
            ImageDim::D2 => "2d",
            ImageDim::D3 => "3d",
            ImageDim::Buffer => "1d_buffer",
        };
        let access = match self.access {
            ImageAccess::ReadOnly => "read_only",
            ImageAccess::WriteOnly => "write_only",
            ImageAccess::ReadWrite => "read_write",
        };
        format!(
            "image{dim}{}{}_{access}",
            if self.arrayed { "_array" } else { "" },
            if self.depth { "_depth" } else { "" }
        )
    }

    /// Reads [`ImageArg::name`] back.
    pub fn from_name(text: &str) -> Option<ImageArg> {
        let dims = [
            ("1d_buffer", ImageDim::Buffer),
            ("1d", ImageDim::D1),
            ("2d", ImageDim::D2),
            ("3d", ImageDim::D3),
        ];
        let accesses = [
            ("read_only", ImageAccess::ReadOnly),
            ("write_only", ImageAccess::WriteOnly),
            ("read_write", ImageAccess::ReadWrite),
        ];
        let rest = text.strip_prefix("image")?;
        let (rest, dim) = dims
            .iter()
            .find_map(|(n, d)| rest.strip_prefix(n).map(|r| (r, *d)))?;
        let (rest, arrayed) = match rest.strip_prefix("_array") {
            Some(r) => (r, true),
            None => (rest, false),
        };
        let (rest, depth) = match rest.strip_prefix("_depth") {
            Some(r) => (r, true),
            None => (rest, false),
        };
        let rest = rest.strip_prefix('_')?;
        let access = accesses
            .iter()
            .find_map(|(n, a)| (rest == *n).then_some(*a))?;
        Some(ImageArg {
            dim,
            arrayed,
            depth,
            access,
        })
    }
}

/// One kernel argument.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct KernelArg {
    /// Source name (SPIR-V OpName of the parameter); may be empty.
    pub name: String,
    pub kind: ArgKind,
    /// The OpenCL C type name for `clGetKernelArgInfo` (`"float*"`), empty when unknown.
    pub type_name: String,
}

/// A kernel: an entry point of the module.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Kernel {
    pub name: String,
    /// The function implementing the kernel; its parameters match `args` one to one.
    pub func: FuncRef,
    pub args: Vec<KernelArg>,
    /// `reqd_work_group_size` (SPIR-V LocalSize execution mode).
    pub reqd_work_group_size: Option<[u32; 3]>,
    /// `work_group_size_hint` (SPIR-V LocalSizeHint).
    pub work_group_size_hint: Option<[u32; 3]>,
    /// `vec_type_hint` (SPIR-V VecTypeHint), the encoded operand.
    pub vec_type_hint: Option<u32>,
}

/// A pointer stored inside a global's initializer: at byte `offset` of the initializer lives the
/// address of `target` plus `addend`, `address_bits` wide.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Reloc {
    pub offset: u32,
    pub target: GlobalRef,
    pub addend: i64,
}

/// A module-scope variable: a program-scope `__global`/`__constant` variable (one copy per
/// program) or a `__local` variable declared in a kernel (one copy per work-group).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Global {
    pub name: String,
    pub space: AddrSpace,
    pub size: u32,
    pub align: u32,
    /// Initial contents (`size` bytes); `None` means zero-filled (and is the only choice for `Local`).
    pub init: Option<Vec<u8>>,
    /// Pointers to other globals inside `init`.
    pub relocs: Vec<Reloc>,
}

/// A lowered SPIR-V module.
#[derive(Clone, PartialEq, Debug)]
pub struct Module {
    pub functions: Vec<Function>,
    pub kernels: Vec<Kernel>,
    pub globals: Vec<Global>,
    /// 32 or 64 (SPIR-V Physical32 / Physical64 addressing).
    pub address_bits: u32,
}

impl Default for Module {
    fn default() -> Module {
        Module::new(64)
    }
}

impl Module {
    pub fn new(address_bits: u32) -> Module {
        Module {
            functions: Vec::new(),
            kernels: Vec::new(),
            globals: Vec::new(),
            address_bits,
        }
    }

    /// Adds a function, returning its reference.
    pub fn add_function(&mut self, func: Function) -> FuncRef {
        self.functions.push(func);
        FuncRef::new(self.functions.len() - 1)
    }

    /// Reserves a function slot to fill later (for mutually referring functions).
    pub fn declare_function(&mut self, func: Function) -> FuncRef {
        self.add_function(func)
    }

    pub fn add_global(&mut self, global: Global) -> GlobalRef {
        self.globals.push(global);
        GlobalRef::new(self.globals.len() - 1)
    }

    pub fn function(&self, func: FuncRef) -> Option<&Function> {
        self.functions.get(func.index())
    }

    pub fn function_mut(&mut self, func: FuncRef) -> Option<&mut Function> {
        self.functions.get_mut(func.index())
    }

    pub fn global(&self, global: GlobalRef) -> Option<&Global> {
        self.globals.get(global.index())
    }

    /// The kernel named `name`.
    pub fn kernel(&self, name: &str) -> Option<(usize, &Kernel)> {
        self.kernels
            .iter()
            .enumerate()
            .find(|(_, k)| k.name == name)
    }

    /// `func` and every function it calls, directly or not (each once, `func` first).
    pub fn reachable_functions(&self, func: FuncRef) -> Vec<FuncRef> {
        let mut seen = vec![false; self.functions.len()];
        let mut order = Vec::new();
        let mut stack = vec![func];
        while let Some(f) = stack.pop() {
            if f.index() >= seen.len() || std::mem::replace(&mut seen[f.index()], true) {
                continue;
            }
            order.push(f);
            for data in &self.functions[f.index()].dfg.insts {
                if let InstData::Call { func: callee, .. } = data {
                    stack.push(*callee);
                }
                // Device-side enqueue: the invoke function runs as a child kernel.
                if let InstData::Enqueue {
                    invoke: Some(callee),
                    ..
                } = data
                {
                    stack.push(*callee);
                }
            }
        }
        order
    }

    /// Module variables whose address functions reachable from `func` take, each once.
    pub fn globals_used_by(&self, func: FuncRef) -> Vec<GlobalRef> {
        let mut used = vec![false; self.globals.len()];
        for f in self.reachable_functions(func) {
            for data in &self.functions[f.index()].dfg.insts {
                if let InstData::GlobalAddr { global } = data {
                    if let Some(slot) = used.get_mut(global.index()) {
                        *slot = true;
                    }
                }
            }
        }
        (0..self.globals.len())
            .filter(|&g| used[g])
            .map(GlobalRef::new)
            .collect()
    }

    /// Bytes of `__local` module variables kernel `kernel` uses (the static part of
    /// `CL_KERNEL_LOCAL_MEM_SIZE`; `__local` pointer arguments come on top). 0 for a bad index.
    pub fn kernel_local_mem_size(&self, kernel: usize) -> u64 {
        let Some(k) = self.kernels.get(kernel) else {
            return 0;
        };
        self.globals_used_by(k.func)
            .into_iter()
            .filter_map(|g| self.global(g))
            .filter(|g| g.space == AddrSpace::Local)
            .map(|g| u64::from(g.size))
            .sum()
    }

    /// The integer type of pointer width (`i32` or `i64`).
    pub fn ptr_int_type(&self) -> Type {
        if self.address_bits == 32 {
            Type::I32
        } else {
            Type::I64
        }
    }
}
