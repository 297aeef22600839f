//! Module-level analysis: names, decorations (group decorations applied), the type table,
//! constants, module-scope variables, entry points with their execution modes, and the
//! `kernel_arg_type.*` strings llvm-spirv writes.

use std::collections::{HashMap, HashSet};

use spv::{Decoration, ExecutionMode, Instruction, Op, Operand};

use super::constants::Const;
use super::layout::{round_up, storage, SpvId, TypeKind, TypeTable};
use super::{inst_text, InstExt, LowerError, LowerOptions};

/// One decoration: its number and its literal/id operands.
#[derive(Clone, Debug)]
pub(crate) struct Decor {
    pub kind: u32,
    pub args: Vec<Operand>,
}

/// A module-scope `OpVariable`.
#[derive(Clone, Debug)]
pub(crate) struct GlobalVar {
    pub id: SpvId,
    pub ptr_type: SpvId,
    pub storage: u32,
    pub initializer: Option<SpvId>,
}

/// An `OpEntryPoint` with its execution modes.
#[derive(Clone, Debug)]
pub(crate) struct EntryPoint {
    pub func: SpvId,
    pub name: String,
    pub local_size: Option<[u32; 3]>,
    pub local_size_hint: Option<[u32; 3]>,
    pub vec_type_hint: Option<u32>,
}

/// One `OpFunction … OpFunctionEnd` range of the instruction list.
#[derive(Clone, Debug)]
pub(crate) struct FunctionRange {
    pub id: SpvId,
    /// Index of the `OpFunction` instruction.
    pub start: usize,
    /// Index one past the `OpFunctionEnd` instruction.
    pub end: usize,
}

/// Everything the function lowering needs to know about the module.
#[derive(Default, Debug)]
pub(crate) struct ModuleInfo {
    pub names: HashMap<SpvId, String>,
    pub decorations: HashMap<SpvId, Vec<Decor>>,
    pub member_decorations: HashMap<(SpvId, u32), Vec<Decor>>,
    pub types: TypeTable,
    pub constants: HashMap<SpvId, Const>,
    /// Ids of `OpExtInstImport "OpenCL.std"`.
    pub opencl_std: HashSet<SpvId>,
    /// Ids of other extended instruction set imports, with their names.
    pub other_ext: HashMap<SpvId, String>,
    pub globals: Vec<GlobalVar>,
    pub entry_points: Vec<EntryPoint>,
    pub strings: Vec<String>,
    pub functions: Vec<FunctionRange>,
    /// Result id → defining instruction index, for every module-level result.
    pub defs: HashMap<SpvId, usize>,
    /// `OpTypeImage` ids with their declared image type (kernel arguments of that type become
    /// `ArgKind::Image`); images of other dimensionalities (Cube, Rect, SubpassData) are absent.
    pub image_types: HashMap<SpvId, crate::ImageArg>,
}

impl ModuleInfo {
    pub fn decorations_of(&self, id: SpvId) -> &[Decor] {
        self.decorations.get(&id).map_or(&[], Vec::as_slice)
    }

    pub fn decoration(&self, id: SpvId, kind: Decoration) -> Option<&Decor> {
        self.decorations_of(id)
            .iter()
            .find(|d| d.kind == kind as u32)
    }

    pub fn has_decoration(&self, id: SpvId, kind: Decoration) -> bool {
        self.decoration(id, kind).is_some()
    }

    /// The first literal of a decoration (`BuiltIn GlobalInvocationId` → its number).
    pub fn decoration_literal(&self, id: SpvId, kind: Decoration) -> Option<u32> {
        match self.decoration(id, kind)?.args.first()? {
            Operand::Int(v) => Some(*v),
            _ => None,
        }
    }

    /// Whether an `OpExtInst` belongs to a debug-information set (no effect on execution).
    pub fn is_debug_ext_inst(&self, inst: &Instruction) -> bool {
        inst.op == Op::ExtInst
            && inst.id(0).is_some_and(|set| {
                self.other_ext.get(&set.0).is_some_and(|name| {
                    name == "OpenCL.DebugInfo.100" || name.starts_with("NonSemantic.")
                })
            })
    }

    /// `FuncParamAttr` values attached to an id.
    pub fn func_param_attrs(&self, id: SpvId) -> Vec<u32> {
        self.decorations_of(id)
            .iter()
            .filter(|d| d.kind == Decoration::FuncParamAttr as u32)
            .filter_map(|d| match d.args.first() {
                Some(Operand::Int(v)) => Some(*v),
                _ => None,
            })
            .collect()
    }

    /// The `kernel_arg_type.<kernel>.` string's type names, if llvm-spirv wrote one.
    pub fn kernel_arg_type_names(&self, kernel: &str) -> Option<Vec<String>> {
        let prefix = format!("kernel_arg_type.{kernel}.");
        let s = self.strings.iter().find(|s| s.starts_with(&prefix))?;
        let list = &s[prefix.len()..];
        Some(
            list.split(',')
                .filter(|t| !t.is_empty())
                .map(|t| t.trim().to_string())
                .collect(),
        )
    }
}

/// Builds the module information from the instruction list.
pub(crate) fn analyze(
    insts: &[Instruction],
    address_bits: u32,
    options: &LowerOptions,
) -> Result<ModuleInfo, LowerError> {
    let mut info = ModuleInfo::default();
    info.types.pointer_bytes = u64::from(address_bits / 8);
    collect_decorations(insts, &mut info)?;

    let mut pending_mode_ids = Vec::new();
    let mut i = 0;
    while i < insts.len() {
        let inst = &insts[i];
        if let Some(r) = inst.result {
            info.defs.insert(r.0, i);
        }
        match inst.op {
            Op::Name => {
                if let (Ok(target), Ok(name)) = (inst.id_op(0), inst.str_op(1)) {
                    info.names.insert(target, name.to_string());
                }
            }
            Op::String => {
                if let Ok(s) = inst.str_op(0) {
                    info.strings.push(s.to_string());
                }
            }
            Op::ExtInstImport => {
                let name = inst.str_op(0)?;
                if name == "OpenCL.std" {
                    info.opencl_std.insert(inst.res()?);
                } else {
                    info.other_ext.insert(inst.res()?, name.to_string());
                }
            }
            Op::EntryPoint => {
                // Execution model 6 is Kernel; others cannot pass the OpenCL validator.
                info.entry_points.push(EntryPoint {
                    func: inst.id_op(1)?,
                    name: inst.str_op(2)?.to_string(),
                    local_size: None,
                    local_size_hint: None,
                    vec_type_hint: None,
                });
            }
            Op::ExecutionMode => {
                let func = inst.id_op(0)?;
                let mode = inst.lit(1)?;
                let three = || -> Result<[u32; 3], LowerError> {
                    Ok([inst.lit(2)?, inst.lit(3)?, inst.lit(4)?])
                };
                for ep in info.entry_points.iter_mut().filter(|e| e.func == func) {
                    if mode == ExecutionMode::LocalSize as u32 {
                        ep.local_size = Some(three()?);
                    } else if mode == ExecutionMode::LocalSizeHint as u32 {
                        ep.local_size_hint = Some(three()?);
                    } else if mode == ExecutionMode::VecTypeHint as u32 {
                        ep.vec_type_hint = Some(inst.lit(2)?);
                    }
                }
            }
            Op::ExecutionModeId => pending_mode_ids.push(i),
            Op::Function => {
                let start = i;
                let id = inst.res()?;
                while i < insts.len() && insts[i].op != Op::FunctionEnd {
                    if let Some(r) = insts[i].result {
                        info.defs.insert(r.0, i);
                    }
                    i += 1;
                }
                info.functions.push(FunctionRange {
                    id,
                    start,
                    end: (i + 1).min(insts.len()),
                });
            }
            Op::Variable => {
                info.globals.push(GlobalVar {
                    id: inst.res()?,
                    ptr_type: inst.rty()?,
                    storage: inst.lit(0)?,
                    initializer: inst.id_op(1).ok(),
                });
            }
            _ => {
                if inst.op == Op::TypeImage {
                    if let Some(image) = image_arg(inst) {
                        info.image_types.insert(inst.res()?, image);
                    }
                }
                if inst.op == Op::TypeForwardPointer {
                    // A pointer type used before its OpTypePointer (a struct holding a pointer
                    // to itself): pointer-sized from here on, so the struct's layout is right;
                    // the OpTypePointer that follows replaces the placeholder pointee.
                    let id = inst.id_op(0)?;
                    let storage = inst.lit(1)?;
                    info.types.insert(
                        id,
                        TypeKind::Pointer {
                            storage,
                            pointee: id,
                        },
                    );
                } else if let Some(kind) = type_kind(inst, &info)? {
                    let id = inst.res()?;
                    info.types.insert(id, kind);
                } else if let Some(c) = Const::from_inst(inst)? {
                    let id = inst.res()?;
                    info.constants.insert(id, c);
                    // Specialize at once: later types (array lengths, SPIR-V 2.12) and
                    // constants see the specialized value.
                    specialize(&mut info, options, id);
                }
            }
        }
        i += 1;
    }
    for index in pending_mode_ids {
        apply_execution_mode_id(&insts[index], &mut info)?;
    }
    Ok(info)
}

/// Replaces the default value of specialization constant `id` by the one the options give for
/// its `SpecId`, if any.
fn specialize(info: &mut ModuleInfo, options: &LowerOptions, id: SpvId) {
    if options.spec_constants.is_empty() {
        return;
    }
    let Some(spec_id) = info.decoration_literal(id, Decoration::SpecId) else {
        return;
    };
    let Some(&value) = options.spec_constants.get(&spec_id) else {
        return;
    };
    if let Some(Const::Scalar { bits, .. }) = info.constants.get_mut(&id) {
        *bits = value;
    }
}

/// `OpExecutionModeId` LocalSizeId / LocalSizeHintId: sizes given as constant ids (defined
/// after the execution modes, hence applied once the constants are known).
fn apply_execution_mode_id(inst: &Instruction, info: &mut ModuleInfo) -> Result<(), LowerError> {
    let func = inst.id_op(0)?;
    let mode = inst.lit(1)?;
    if mode != ExecutionMode::LocalSizeId as u32 && mode != ExecutionMode::LocalSizeHintId as u32 {
        return Ok(());
    }
    let mut sizes = [0u32; 3];
    for (k, size) in sizes.iter_mut().enumerate() {
        let id = inst.id_op(2 + k)?;
        let c = info
            .constants
            .get(&id)
            .and_then(|c| c.scalar_bits(info))
            .ok_or_else(|| inst.unsupported("non-constant work-group sizes"))?;
        *size = u32::try_from(c).map_err(|_| inst.malformed("work-group size"))?;
    }
    for ep in info.entry_points.iter_mut().filter(|e| e.func == func) {
        if mode == ExecutionMode::LocalSizeId as u32 {
            ep.local_size = Some(sizes);
        } else {
            ep.local_size_hint = Some(sizes);
        }
    }
    Ok(())
}

/// Collects decorations, expanding `OpGroupDecorate`/`OpGroupMemberDecorate`.
fn collect_decorations(insts: &[Instruction], info: &mut ModuleInfo) -> Result<(), LowerError> {
    for inst in insts {
        match inst.op {
            Op::Decorate | Op::DecorateId | Op::DecorateString => {
                let target = inst.id_op(0)?;
                let kind = inst.lit(1)?;
                info.decorations.entry(target).or_default().push(Decor {
                    kind,
                    args: inst.operands.get(2..).unwrap_or(&[]).to_vec(),
                });
            }
            Op::MemberDecorate | Op::MemberDecorateString => {
                let target = inst.id_op(0)?;
                let member = inst.lit(1)?;
                let kind = inst.lit(2)?;
                info.member_decorations
                    .entry((target, member))
                    .or_default()
                    .push(Decor {
                        kind,
                        args: inst.operands.get(3..).unwrap_or(&[]).to_vec(),
                    });
            }
            _ => {}
        }
    }
    for inst in insts {
        match inst.op {
            Op::GroupDecorate => {
                let group = inst.id_op(0)?;
                let decors = info.decorations.get(&group).cloned().unwrap_or_default();
                for k in 1..inst.operands.len() {
                    let target = inst.id_op(k)?;
                    info.decorations
                        .entry(target)
                        .or_default()
                        .extend(decors.iter().cloned());
                }
            }
            Op::GroupMemberDecorate => {
                let group = inst.id_op(0)?;
                let decors = info.decorations.get(&group).cloned().unwrap_or_default();
                let mut k = 1;
                while k + 1 < inst.operands.len() {
                    let target = inst.id_op(k)?;
                    let member = inst.lit(k + 1)?;
                    info.member_decorations
                        .entry((target, member))
                        .or_default()
                        .extend(decors.iter().cloned());
                    k += 2;
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// The type an instruction declares, if it is a type declaration.
fn type_kind(inst: &Instruction, info: &ModuleInfo) -> Result<Option<TypeKind>, LowerError> {
    let opaque = |what: &'static str| Ok(Some(TypeKind::Opaque { what }));
    match inst.op {
        Op::TypeVoid => Ok(Some(TypeKind::Void)),
        Op::TypeBool => Ok(Some(TypeKind::Bool)),
        Op::TypeInt => Ok(Some(TypeKind::Int {
            width: inst.lit(0)?,
            signed: inst.lit(1)? != 0,
        })),
        Op::TypeFloat => Ok(Some(TypeKind::Float {
            width: inst.lit(0)?,
        })),
        Op::TypeVector => Ok(Some(TypeKind::Vector {
            elem: inst.id_op(0)?,
            count: inst.lit(1)?,
        })),
        Op::TypeArray => {
            let elem = inst.id_op(0)?;
            let len_id = inst.id_op(1)?;
            let len = info
                .constants
                .get(&len_id)
                .and_then(|c| c.scalar_bits(info))
                .ok_or_else(|| LowerError::Unsupported {
                    offset: inst.offset,
                    instruction: inst_text(inst),
                    reason:
                        "array lengths that are not constant integers (specialization constants)"
                            .into(),
                })?;
            let stride = array_stride(info, inst.res()?)
                .unwrap_or_else(|| round_up(info.types.size(elem), info.types.align(elem)));
            Ok(Some(TypeKind::Array { elem, len, stride }))
        }
        Op::TypeRuntimeArray => {
            let elem = inst.id_op(0)?;
            let stride = array_stride(info, inst.res()?)
                .unwrap_or_else(|| round_up(info.types.size(elem), info.types.align(elem)));
            Ok(Some(TypeKind::RuntimeArray { elem, stride }))
        }
        Op::TypeStruct => {
            let id = inst.res()?;
            let members = (0..inst.operands.len())
                .map(|k| inst.id_op(k))
                .collect::<Result<Vec<_>, _>>()?;
            let packed = info.has_decoration(id, Decoration::CPacked);
            let explicit: Vec<Option<u64>> = (0..members.len() as u32)
                .map(|m| {
                    info.member_decorations.get(&(id, m)).and_then(|ds| {
                        ds.iter()
                            .find(|d| d.kind == Decoration::Offset as u32)
                            .and_then(|d| match d.args.first() {
                                Some(Operand::Int(v)) => Some(u64::from(*v)),
                                _ => None,
                            })
                    })
                })
                .collect();
            let offsets = if !members.is_empty() && explicit.iter().all(Option::is_some) {
                explicit.into_iter().flatten().collect()
            } else {
                info.types.natural_offsets(&members, packed)
            };
            Ok(Some(TypeKind::Struct {
                members,
                offsets,
                packed,
            }))
        }
        Op::TypePointer => Ok(Some(TypeKind::Pointer {
            storage: inst.lit(0)?,
            pointee: inst.id_op(1)?,
        })),
        Op::TypeForwardPointer => Ok(None),
        Op::TypeFunction => {
            let ret = inst.id_op(0)?;
            let params = (1..inst.operands.len())
                .map(|k| inst.id_op(k))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Some(TypeKind::Function { ret, params }))
        }
        Op::TypeEvent => opaque("event_t"),
        Op::TypeDeviceEvent => opaque("clk_event_t"),
        Op::TypeReserveId => opaque("reserve_id_t"),
        Op::TypeQueue => opaque("queue_t"),
        Op::TypeNamedBarrier => opaque("named_barrier"),
        // SPIR-V 3.7 Access Qualifier: 0 ReadOnly, 1 WriteOnly, 2 ReadWrite.
        Op::TypePipe => match inst.lit(0)? {
            1 => opaque("write_only pipe"),
            2 => opaque("read_write pipe"),
            _ => opaque("read_only pipe"),
        },
        // A pipe storage is the address of its memory, like a pipe (`lower/pipe_storage.rs`).
        Op::TypePipeStorage => opaque("pipe storage"),
        Op::TypeImage => opaque("image"),
        Op::TypeSampler => opaque("sampler_t"),
        Op::TypeSampledImage => opaque("sampled image"),
        Op::TypeOpaque => opaque("opaque"),
        _ => Ok(None),
    }
}

/// The declared type of an `OpTypeImage` (operands: sampled type, Dim, Depth, Arrayed, MS,
/// Sampled, Image Format, Access Qualifier); `None` for dimensionalities OpenCL does not have.
fn image_arg(inst: &Instruction) -> Option<crate::ImageArg> {
    use crate::{ImageAccess, ImageDim};
    let dim = match inst.int(1)? {
        0 => ImageDim::D1,
        1 => ImageDim::D2,
        2 => ImageDim::D3,
        5 => ImageDim::Buffer,
        _ => return None,
    };
    let access = match inst.int(7) {
        Some(1) => ImageAccess::WriteOnly,
        Some(2) => ImageAccess::ReadWrite,
        _ => ImageAccess::ReadOnly,
    };
    Some(crate::ImageArg {
        dim,
        arrayed: inst.int(3)? == 1,
        depth: inst.int(2)? == 1,
        access,
    })
}

fn array_stride(info: &ModuleInfo, id: SpvId) -> Option<u64> {
    info.decoration_literal(id, Decoration::ArrayStride)
        .map(u64::from)
}

/// The storage classes of module-scope variables that become kir globals.
pub(crate) fn is_memory_global(storage_class: u32) -> bool {
    matches!(
        storage_class,
        storage::WORKGROUP
            | storage::CROSS_WORKGROUP
            | storage::UNIFORM_CONSTANT
            | storage::PRIVATE
    )
}
