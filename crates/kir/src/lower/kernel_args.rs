//! Kernel argument descriptions (OpenCL C 6.9 / env 2.x kernel parameters): pointer storage class
//! → buffer kind, `ByVal` `Function` pointers → structs passed by value, samplers, and by-value
//! scalars and vectors, with the OpenCL C type name for `clGetKernelArgInfo`.

use spv::FunctionParameterAttribute;

use super::layout::{storage, SpvId, TypeKind};
use super::module_info::ModuleInfo;
use super::LowerError;
use crate::{AddrSpace, ArgKind, KernelArg, ScalarType, Type};

/// How a kernel's SPIR-V parameter is received in kir.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct KernelParam {
    pub arg: KernelArg,
    /// The kir parameter type.
    pub ty: Type,
    /// The SPIR-V parameter is a `ByVal` pointer: kir passes the value, the lowering stores it
    /// in a private copy and uses that copy's address.
    pub by_val: bool,
}

/// Describes parameter `id` of type `ty` of kernel `kernel`.
pub(crate) fn describe(
    info: &ModuleInfo,
    kernel: &str,
    index: usize,
    id: SpvId,
    ty: SpvId,
) -> Result<KernelParam, LowerError> {
    let name = info.names.get(&id).cloned().unwrap_or_default();
    let by_val_attr = info
        .func_param_attrs(id)
        .contains(&(FunctionParameterAttribute::ByVal as u32));
    let named_ty = match info.types.pointee(ty) {
        Some(pointee) if by_val_attr => pointee,
        _ => ty,
    };
    let type_name = info
        .kernel_arg_type_names(kernel)
        .and_then(|names| names.get(index).cloned())
        .unwrap_or_else(|| type_name(info, named_ty));
    let unsupported = |what: &str| LowerError::Unsupported {
        offset: 0,
        instruction: format!("kernel {kernel} parameter {index} ({name})"),
        reason: format!("{what} kernel arguments"),
    };
    let tinfo = info
        .types
        .get(ty)
        .ok_or_else(|| LowerError::Internal(format!("parameter type %{ty} is not a type")))?;
    let (kind, kir_ty, by_val) = match &tinfo.kind {
        TypeKind::Pointer {
            storage: sc,
            pointee,
        } => {
            let by_val = by_val_attr;
            match *sc {
                storage::CROSS_WORKGROUP => (
                    ArgKind::Buffer(AddrSpace::Global),
                    Type::Ptr(AddrSpace::Global),
                    false,
                ),
                storage::UNIFORM_CONSTANT => (
                    ArgKind::Buffer(AddrSpace::Constant),
                    Type::Ptr(AddrSpace::Constant),
                    false,
                ),
                storage::WORKGROUP => (ArgKind::LocalPtr, Type::Ptr(AddrSpace::Local), false),
                // The entry points llvm-spirv makes of block invoke functions (device-side
                // enqueue) take the block literal as a generic pointer: a buffer.
                storage::GENERIC => (
                    ArgKind::Buffer(AddrSpace::Generic),
                    Type::Ptr(AddrSpace::Generic),
                    false,
                ),
                storage::FUNCTION | storage::PRIVATE if by_val => {
                    let vt = info
                        .types
                        .value_type(*pointee)
                        .ok_or_else(|| unsupported("this by-value"))?;
                    let size = u32::try_from(info.types.size(*pointee))
                        .map_err(|_| unsupported("huge"))?;
                    let align = u32::try_from(info.types.align(*pointee))
                        .map_err(|_| unsupported("huge"))?;
                    (
                        ArgKind::Value {
                            ty: vt,
                            size,
                            align,
                        },
                        vt,
                        true,
                    )
                }
                _ => return Err(unsupported("private pointer")),
            }
        }
        TypeKind::Opaque { what: "sampler_t" } => (ArgKind::Sampler, Type::I32, false),
        TypeKind::Opaque { what: "image" } => match info.image_types.get(&ty) {
            Some(image) => (
                ArgKind::Image(*image),
                ScalarType::int(info.types.pointer_bytes as u32 * 8)
                    .map(Type::scalar)
                    .unwrap_or(Type::I64),
                false,
            ),
            None => return Err(unsupported("this image type as")),
        },
        TypeKind::Opaque { what } if what.ends_with(" pipe") => (
            ArgKind::Pipe {
                write_only: *what == "write_only pipe",
            },
            Type::Ptr(AddrSpace::Global),
            false,
        ),
        TypeKind::Opaque { what } => return Err(unsupported(what)),
        TypeKind::Bool
        | TypeKind::Int { .. }
        | TypeKind::Float { .. }
        | TypeKind::Vector { .. } => {
            let vt = info
                .types
                .value_type(ty)
                .ok_or_else(|| unsupported("this"))?;
            let size = u32::try_from(tinfo.size).map_err(|_| unsupported("huge"))?;
            let align = u32::try_from(tinfo.align).map_err(|_| unsupported("huge"))?;
            (
                ArgKind::Value {
                    ty: vt,
                    size,
                    align,
                },
                vt,
                false,
            )
        }
        TypeKind::Struct { .. } | TypeKind::Array { .. } => {
            let vt = info
                .types
                .value_type(ty)
                .ok_or_else(|| unsupported("this"))?;
            let size = u32::try_from(tinfo.size).map_err(|_| unsupported("huge"))?;
            let align = u32::try_from(tinfo.align).map_err(|_| unsupported("huge"))?;
            (
                ArgKind::Value {
                    ty: vt,
                    size,
                    align,
                },
                vt,
                false,
            )
        }
        _ => return Err(unsupported("this type of")),
    };
    Ok(KernelParam {
        arg: KernelArg {
            name,
            kind,
            type_name,
        },
        ty: kir_ty,
        by_val,
    })
}

/// An OpenCL C spelling of a SPIR-V type (signedness is not recorded in SPIR-V: integers are
/// named as unsigned, as llvm-spirv's types are).
pub(crate) fn type_name(info: &ModuleInfo, ty: SpvId) -> String {
    let Some(t) = info.types.get(ty) else {
        return String::new();
    };
    match &t.kind {
        TypeKind::Void => "void".into(),
        TypeKind::Bool => "bool".into(),
        TypeKind::Int { width, .. } => match width {
            8 => "uchar",
            16 => "ushort",
            32 => "uint",
            _ => "ulong",
        }
        .into(),
        TypeKind::Float { width } => match width {
            16 => "half",
            32 => "float",
            _ => "double",
        }
        .into(),
        TypeKind::Vector { elem, count } => format!("{}{count}", type_name(info, *elem)),
        TypeKind::Pointer { pointee, .. } => format!("{}*", type_name(info, *pointee)),
        TypeKind::Struct { .. } => {
            let n = info.names.get(&ty).map(String::as_str).unwrap_or("");
            let n = n
                .strip_prefix("struct.")
                .or_else(|| n.strip_prefix("union."))
                .unwrap_or(n);
            if n.is_empty() {
                "struct".into()
            } else {
                n.to_string()
            }
        }
        TypeKind::Array { elem, len, .. } => format!("{}[{len}]", type_name(info, *elem)),
        TypeKind::RuntimeArray { elem, .. } => format!("{}[]", type_name(info, *elem)),
        TypeKind::Opaque { what } => (*what).to_string(),
        TypeKind::Function { .. } => String::new(),
    }
}
