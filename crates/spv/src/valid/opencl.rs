//! The OpenCL environment rules of env 2.1 ("Validation Rules", and the 3.0 text of the same
//! chapter), 2.4 (supported image types), 2.7–2.9 (kernels, return types, arguments), 3.3–6.3
//! (per-version scope and group rules) and 7 (extensions that relax them):
//!
//! - `OpEntryPoint` execution model is *Kernel*; the entry function returns void; kernel
//!   parameter types are the allowed ones.
//! - `OpMemoryModel` is *Physical32*/*Physical64* matching the address bits, memory model *OpenCL*.
//! - `OpTypeInt` Signedness is 0.
//! - `OpTypeImage`: Sampled Type void, Sampled 0, MS 0, Arrayed only for 1D/2D, Dim in the
//!   supported table, Depth only for 2D, Image Format Unknown, Access Qualifier present.
//! - Image reads and writes: no *ConstOffset*; a non-zero *Lod* needs the mipmap extensions;
//!   writes to 3D images need 3D image writes.
//! - Atomic instructions: 32-bit integers (64-bit with *Int64Atomics*), pointers to *Function*,
//!   *Workgroup*, *CrossWorkgroup* (or *Generic*), scopes and memory orders per version.
//! - Execution and memory scopes of barriers and group instructions per version; group
//!   instructions not available in OpenCL 1.2.
//! - No recursion in the static call graph of an entry point.

use super::context::Ctx;
use super::env::{feature, ClVersion};
use crate::{
    AccessQualifier, AddressingModel, Capability, Decoration, Dim, ExecutionModel,
    FunctionParameterAttribute, Id, ImageFormat, ImageOperands, MemoryModel, MemorySemantics, Op,
    OperandKind, Scope, StorageClass,
};
use std::collections::HashMap;

const ENTRY_MODEL: &str = "env 2.1 (OpEntryPoint Execution Model must be Kernel)";
const KERNEL_RETURN: &str = "env 2.8 (an entry point's Result Type must be OpTypeVoid)";
const KERNEL_ARGS: &str = "env 2.9 (allowed kernel argument types)";
const ADDRESSING: &str =
    "env 2.1 (Addressing Model must be Physical32 or Physical64, matching CL_DEVICE_ADDRESS_BITS)";
const MEMORY_MODEL: &str = "env 2.1 (Memory Model must be OpenCL)";
const SIGNEDNESS: &str = "env 2.1 (Signedness must be 0 for OpTypeInt)";
const IMAGE_TYPE: &str = "env 2.1 (OpTypeImage rules)";
const IMAGE_TABLE: &str = "env 2.4.2 (supported image types)";
const IMAGE_OPERANDS: &str = "env 2.1 (image reads and writes must not use ConstOffset)";
const WRITE_OPERANDS: &str = "env 2.1 (OpImageWrite must not include any optional Image Operands; \
     env 7.2.10: a Lod with cl_khr_mipmap_image_writes)";
const DEPTH_READ: &str =
    "env 7.2.2 / OpenCL C read_imagef on depth images (a depth image read returns a scalar float)";
const MULTISAMPLED_USE: &str =
    "env 7.2.7 (cl_khr_gl_msaa_sharing: 2D multi-sampled images are used \
     only with OpImageRead, OpImageQuerySizeLod, OpImageQueryFormat, OpImageQueryOrder and \
     OpImageQuerySamples)";
const LOCAL_ARG_TYPES: &str =
    "env 7.2.3 (Workgroup pointer parameters of an Invoke function of any \
     type need cl_khr_device_enqueue_local_arg_types; otherwise they are local void*)";
const MIPMAP: &str =
    "env 7.2.9-7.2.10 (non-zero Lod needs cl_khr_mipmap_image / cl_khr_mipmap_image_writes)";
const IMAGE_3D_WRITES: &str = "env 7.2.1 (writes to 3D images need cl_khr_3d_image_writes)";
const SAMPLED_IMAGE: &str = "env 2.4.2 (OpTypeSampledImage / OpSampledImage operand types)";
const ATOMIC_TYPE: &str =
    "env 2.1 (atomic instructions use 32-bit integers, 64-bit with Int64Atomics)";
const ATOMIC_POINTER: &str =
    "env 2.1 (atomic Pointer must point to Function, Workgroup or CrossWorkgroup storage)";
const ATOMIC_WIDE_SCOPE: &str = "env 7.2.8 (cl_khr_int64_base_atomics: when the WorkgroupMemory \
     Memory Semantic is used the Scope must be Workgroup)";
const ATOMIC_SCOPE: &str = "env 2.1 (Scope for Memory of atomic instructions)";
const ATOMIC_ORDER: &str = "env 2.1 (memory-order constraint of atomic instructions)";
const BARRIER_SCOPE: &str = "env 2.1 (Scope for Memory of barrier instructions)";
const BARRIER_ORDER: &str = "env 2.1 (memory-order constraint of barrier instructions)";
const EXEC_SCOPE: &str = "env 2.1 (Scope for Execution)";
const SCOPE_TYPE: &str = "SPIR-V 2.16.1 (Scope and Memory Semantics are 32-bit integers)";
const ONE_ORDER: &str = "SPIR-V 3.25 Memory Semantics (at most one memory-order bit)";
const GROUPS_12: &str = "env 6.3 (OpenCL 1.2 does not support these group instructions)";
const RECURSION: &str =
    "env 2.1 (Recursion is not supported: the static call graph must not contain cycles)";

pub(crate) fn check(ctx: &mut Ctx<'_>) {
    for i in 0..ctx.module.instructions.len() {
        let op = ctx.inst(i).op;
        match op {
            Op::EntryPoint => entry_point(ctx, i),
            Op::MemoryModel => memory_model(ctx, i),
            Op::TypeInt if ctx.inst(i).int(1).unwrap_or(0) != 0 => {
                ctx.error(i, SIGNEDNESS, "Signedness is not 0");
            }
            Op::TypeImage => image_type(ctx, i),
            Op::TypeSampledImage => {
                let image = ctx.inst(i).id(0);
                if image.and_then(|t| ctx.def_op(t)) != Some(Op::TypeImage) {
                    ctx.error(i, SAMPLED_IMAGE, "Image Type must be an OpTypeImage");
                }
            }
            Op::SampledImage => {
                let inst = ctx.inst(i);
                let sampler = inst.id(1).and_then(|s| ctx.type_of(s));
                if sampler.and_then(|t| ctx.def_op(t)) != Some(Op::TypeSampler) {
                    ctx.error(i, SAMPLED_IMAGE, "Sampler must have type OpTypeSampler");
                }
                let image = inst.id(0).and_then(|s| ctx.type_of(s));
                let result_image = inst
                    .result_type
                    .and_then(|t| ctx.def(t))
                    .filter(|t| t.op == Op::TypeSampledImage)
                    .and_then(|t| t.id(0));
                if result_image.is_none() || result_image != image {
                    ctx.error(
                        i,
                        SAMPLED_IMAGE,
                        "Result Type must be an OpTypeSampledImage of the Image operand's type",
                    );
                }
            }
            Op::ConstantSampler => {
                let ty = ctx.inst(i).result_type.and_then(|t| ctx.def_op(t));
                if ty != Some(Op::TypeSampler) {
                    ctx.error(i, SAMPLED_IMAGE, "Result Type must be OpTypeSampler");
                }
            }
            _ if is_image_use(op) => multisampled_use(ctx, i),
            _ => {}
        }
        match op {
            Op::EnqueueKernel => enqueue_local_args(ctx, i),
            Op::ImageWrite => image_access(ctx, i, 3, true),
            Op::ImageRead | Op::ImageFetch | Op::ImageSampleExplicitLod => {
                image_access(ctx, i, 2, false)
            }
            _ => {}
        }
        if op.info().class == "Atomic" {
            atomic(ctx, i);
        }
        scopes(ctx, i);
    }
    recursion(ctx);
}

fn entry_point(ctx: &mut Ctx<'_>, i: usize) {
    let inst = ctx.inst(i);
    if inst.int(0).and_then(ExecutionModel::from_u32) != Some(ExecutionModel::Kernel) {
        ctx.error(i, ENTRY_MODEL, "the execution model is not Kernel");
    }
    let Some(fid) = inst.id(1) else { return };
    let Some(&fdef) = ctx.defs.get(&fid.0) else {
        return;
    };
    let func = ctx.inst(fdef);
    if func.op != Op::Function {
        ctx.error(
            i,
            "SPIR-V 3.32.5 OpEntryPoint (Entry Point must be an OpFunction)",
            format!("{fid} is not a function"),
        );
        return;
    }
    if func.result_type.and_then(|t| ctx.def_op(t)) != Some(Op::TypeVoid) {
        ctx.error(i, KERNEL_RETURN, "the kernel does not return void");
    }
    let Some(fi) = ctx.functions.iter().position(|f| f.def == fdef) else {
        return;
    };
    // Invoke functions of device-side enqueue (and the entry points producers wrap them in)
    // take the block literal as a Generic pointer (env 2.9: "environments that support …
    // optional features may allow additional types").
    let invoke = is_invoke_function(ctx, fid) || ctx.has_cap(Capability::DeviceEnqueue);
    let params = ctx.functions[fi].params.clone();
    for p in params {
        let Some(pid) = ctx.inst(p).result else {
            continue;
        };
        let Some(ty) = ctx.inst(p).result_type else {
            continue;
        };
        let byval = ctx.decorations_of(pid).iter().any(|d| {
            d.decoration == Decoration::FuncParamAttr
                && d.params
                    .first()
                    .and_then(|v| v.as_int())
                    .and_then(FunctionParameterAttribute::from_u32)
                    == Some(FunctionParameterAttribute::ByVal)
        });
        let generic_block = invoke && ctx.pointer(ty).map(|p| p.0) == Some(StorageClass::Generic);
        if generic_block {
            continue;
        }
        if let Err(why) = kernel_arg_type(ctx, ty, byval, 0) {
            ctx.error(p, KERNEL_ARGS, why);
        }
    }
}

/// Whether function `f` is the Invoke operand of a device-side enqueue or kernel query.
fn is_invoke_function(ctx: &Ctx<'_>, f: Id) -> bool {
    ctx.module.instructions.iter().any(|inst| {
        matches!(
            inst.op,
            Op::EnqueueKernel
                | Op::GetKernelNDrangeSubGroupCount
                | Op::GetKernelNDrangeMaxSubGroupSize
                | Op::GetKernelWorkGroupSize
                | Op::GetKernelPreferredWorkGroupSizeMultiple
                | Op::GetKernelLocalSizeForSubgroupCount
                | Op::GetKernelMaxNumSubgroups
        ) && inst.operands.iter().any(|o| o.as_id() == Some(f))
    })
}

/// Whether `ty` is an allowed kernel argument type (env 2.9; 3.0 text allows 16/32/64-bit floats).
/// `byval` accepts a Function pointer decorated `FuncParamAttr ByVal` (a struct passed by value).
fn kernel_arg_type(ctx: &Ctx<'_>, ty: Id, byval: bool, depth: u32) -> Result<(), String> {
    let Some(def) = ctx.def(ty) else {
        return Ok(());
    };
    match def.op {
        Op::TypeInt
        | Op::TypeFloat
        | Op::TypeVector
        | Op::TypeSampler
        | Op::TypeImage
        | Op::TypePipe
        | Op::TypeQueue => Ok(()),
        Op::TypeStruct => {
            if depth > 32 {
                return Ok(());
            }
            for m in def.operands.iter().filter_map(|o| o.as_id()) {
                match ctx.def_op(m) {
                    Some(Op::TypeInt | Op::TypeFloat | Op::TypeVector | Op::TypePointer) | None => {
                    }
                    Some(Op::TypeStruct) => kernel_arg_type(ctx, m, false, depth + 1)?,
                    Some(other) => {
                        return Err(format!(
                            "a struct argument member has type {}",
                            other.name()
                        ))
                    }
                }
            }
            Ok(())
        }
        Op::TypePointer => match ctx.pointer(ty).map(|p| p.0) {
            Some(
                StorageClass::CrossWorkgroup
                | StorageClass::Workgroup
                | StorageClass::UniformConstant,
            ) => Ok(()),
            Some(StorageClass::Function) if byval => Ok(()),
            Some(sc) => Err(format!(
                "a pointer argument has storage class {}",
                sc.name()
            )),
            None => Ok(()),
        },
        other => Err(format!("an argument has type {}", other.name())),
    }
}

fn memory_model(ctx: &mut Ctx<'_>, i: usize) {
    let inst = ctx.inst(i);
    let addressing = inst.int(0).and_then(AddressingModel::from_u32);
    let expected = if ctx.env.address_bits == 32 {
        AddressingModel::Physical32
    } else {
        AddressingModel::Physical64
    };
    if addressing != Some(expected) {
        let found = addressing.map(|a| a.name()).unwrap_or("unknown");
        ctx.error(
            i,
            ADDRESSING,
            format!(
                "addressing model {found}, the device has {}-bit addresses ({})",
                ctx.env.address_bits,
                expected.name()
            ),
        );
    }
    if inst.int(1).and_then(MemoryModel::from_u32) != Some(MemoryModel::OpenCL) {
        ctx.error(i, MEMORY_MODEL, "the memory model is not OpenCL");
    }
}

fn image_type(ctx: &mut Ctx<'_>, i: usize) {
    let inst = ctx.inst(i);
    let sampled_type = inst.id(0);
    let dim = inst.int(1).and_then(Dim::from_u32);
    let depth = inst.int(2).unwrap_or(0);
    let arrayed = inst.int(3).unwrap_or(0);
    let ms = inst.int(4).unwrap_or(0);
    let sampled = inst.int(5).unwrap_or(0);
    let format = inst.int(6).and_then(ImageFormat::from_u32);
    let access = inst.int(7).and_then(AccessQualifier::from_u32);
    let has_access = inst.operands.len() > 7;
    if sampled_type.and_then(|t| ctx.def_op(t)) != Some(Op::TypeVoid) {
        ctx.error(i, IMAGE_TYPE, "Sampled Type must be OpTypeVoid");
    }
    if sampled != 0 {
        ctx.error(i, IMAGE_TYPE, "Sampled must be 0");
    }
    if ms != 0 && !(ctx.env.has_extension("cl_khr_gl_msaa_sharing") && dim == Some(Dim::Dim2D)) {
        ctx.error(
            i,
            IMAGE_TYPE,
            "MS must be 0 (multi-sampled 2D images need cl_khr_gl_msaa_sharing)",
        );
    }
    if arrayed != 0 && !matches!(dim, Some(Dim::Dim1D | Dim::Dim2D)) {
        ctx.error(i, IMAGE_TYPE, "Arrayed may only be 1 when Dim is 1D or 2D");
    }
    if format != Some(ImageFormat::Unknown) {
        ctx.error(i, IMAGE_TYPE, "Image Format must be Unknown");
    }
    if !has_access {
        ctx.error(i, IMAGE_TYPE, "the Access Qualifier must be present");
    }
    if !matches!(
        dim,
        Some(Dim::Dim1D | Dim::Dim2D | Dim::Dim3D | Dim::Buffer)
    ) {
        let name = dim.map(|d| d.name()).unwrap_or("unknown");
        ctx.error(
            i,
            IMAGE_TABLE,
            format!("Dim {name} is not a supported image dimensionality"),
        );
    }
    if depth > 1 {
        ctx.error(i, IMAGE_TABLE, "Depth must be 0 or 1");
    }
    if depth == 1 {
        if dim != Some(Dim::Dim2D) {
            ctx.error(i, IMAGE_TABLE, "depth images must be 2D");
        }
        let v = ctx.env.cl_version;
        let core = matches!(v, ClVersion::Cl20 | ClVersion::Cl21 | ClVersion::Cl22);
        if !core && !ctx.env.has_extension("cl_khr_depth_images") {
            ctx.error(
                i,
                "env 7.2.2 (depth images need cl_khr_depth_images)",
                "depth images are not supported by the environment",
            );
        }
    }
    if access == Some(AccessQualifier::ReadWrite)
        && (ctx.env.cl_version == ClVersion::Cl12
            || (ctx.env.cl_version == ClVersion::Cl30
                && !ctx.env.has_feature(feature::READ_WRITE_IMAGES)))
    {
        ctx.error(
            i,
            "env 3-6 (ReadWrite images need ImageReadWrite support, OpenCL 2.0 or newer)",
            "read-write images are not supported by the environment",
        );
    }
}

/// The image type of an image (or sampled image) value.
fn image_of(ctx: &Ctx<'_>, value: Id) -> Option<Id> {
    let ty = ctx.type_of(value)?;
    match ctx.def_op(ty)? {
        Op::TypeImage => Some(ty),
        Op::TypeSampledImage => ctx.def(ty)?.id(0),
        _ => None,
    }
}

/// env 7.2.3: without cl_khr_device_enqueue_local_arg_types, the Workgroup pointer parameters
/// of the Invoke function of `OpEnqueueKernel` are `local void*` (pointers to 8-bit integers).
fn enqueue_local_args(ctx: &mut Ctx<'_>, i: usize) {
    if ctx
        .env
        .has_extension("cl_khr_device_enqueue_local_arg_types")
    {
        return;
    }
    // Operands: Queue, Flags, ND Range, Num Events, Wait Events, Ret Event, Invoke, …
    let Some(fn_type) = ctx
        .inst(i)
        .id(6)
        .and_then(|f| ctx.def(f))
        .and_then(|f| (f.op == Op::Function).then(|| f.id(1)).flatten())
    else {
        return;
    };
    let Some(ty) = ctx.def(fn_type).filter(|t| t.op == Op::TypeFunction) else {
        return;
    };
    let params: Vec<Id> = ty
        .operands
        .iter()
        .skip(1)
        .filter_map(|o| o.as_id())
        .collect();
    for p in params {
        if let Some((StorageClass::Workgroup, pointee)) = ctx.pointer(p) {
            if ctx.int_width(pointee) != Some(8) {
                ctx.error(
                    i,
                    LOCAL_ARG_TYPES,
                    "a Workgroup pointer parameter of the Invoke function does not point to an 8-bit integer",
                );
            }
        }
    }
}

/// Instructions whose first operand is an image (or sampled image) value.
fn is_image_use(op: Op) -> bool {
    op.info().class == "Image" && !matches!(op, Op::TypeImage | Op::TypeSampledImage)
        || op == Op::SampledImage
}

/// env 7.2.7: the instructions a multi-sampled image may be used with.
fn multisampled_use(ctx: &mut Ctx<'_>, i: usize) {
    let inst = ctx.inst(i);
    let ms = inst
        .id(0)
        .and_then(|img| image_of(ctx, img))
        .and_then(|t| ctx.def(t))
        .and_then(|t| t.int(4));
    let allowed = matches!(
        inst.op,
        Op::ImageRead
            | Op::ImageQuerySizeLod
            | Op::ImageQuerySize
            | Op::ImageQueryFormat
            | Op::ImageQueryOrder
            | Op::ImageQuerySamples
    );
    if ms == Some(1) && !allowed {
        ctx.error(
            i,
            MULTISAMPLED_USE,
            format!("{} cannot use a multi-sampled image", inst.op.name()),
        );
    }
}

/// Image read or write instruction `i` whose Image Operands mask is operand `mask_at`.
fn image_access(ctx: &mut Ctx<'_>, i: usize, mask_at: usize, write: bool) {
    let inst = ctx.inst(i);
    if let Some(mask) = inst.int(mask_at).map(ImageOperands) {
        let mipmap_lod =
            mask.0 == ImageOperands::LOD.0 && ctx.env.has_extension("cl_khr_mipmap_image_writes");
        if write && mask.0 != 0 && !mipmap_lod {
            ctx.error(
                i,
                WRITE_OPERANDS,
                "optional Image Operands are not allowed on OpImageWrite",
            );
        }
        if mask.contains(ImageOperands::CONST_OFFSET) {
            ctx.error(
                i,
                IMAGE_OPERANDS,
                "the ConstOffset image operand is not allowed",
            );
        }
        if mask.contains(ImageOperands::LOD) {
            // The Lod operand is the first parameter when Bias (0x1) is absent, which OpenCL
            // never uses (Bias needs Shader).
            let lod = inst.id(mask_at + 1);
            let zero = lod.and_then(|l| ctx.const_int(l)) == Some(0)
                || lod.and_then(|l| ctx.def(l)).is_some_and(|d| {
                    d.op == Op::ConstantNull || (d.op == Op::Constant && d.int(0) == Some(0))
                });
            let ext = if write {
                "cl_khr_mipmap_image_writes"
            } else {
                "cl_khr_mipmap_image"
            };
            if !zero && !ctx.env.has_extension(ext) {
                ctx.error(i, MIPMAP, format!("a non-zero Lod needs {ext}"));
            }
        }
    }
    if inst.op == Op::ImageRead {
        let depth = inst
            .id(0)
            .and_then(|img| image_of(ctx, img))
            .and_then(|t| ctx.def(t))
            .and_then(|t| t.int(2));
        let scalar_float = inst.result_type.and_then(|t| ctx.float_width(t)).is_some()
            && inst.result_type.and_then(|t| ctx.vector(t)).is_none();
        if depth == Some(1) && !scalar_float {
            ctx.error(
                i,
                DEPTH_READ,
                "the Result Type of a read from a depth image must be a scalar float",
            );
        }
    }
    if write {
        let dim = inst
            .id(0)
            .and_then(|img| image_of(ctx, img))
            .and_then(|t| ctx.def(t))
            .and_then(|t| t.int(1))
            .and_then(Dim::from_u32);
        if dim == Some(Dim::Dim3D)
            && !ctx.env.has_feature(feature::IMAGE_3D_WRITES)
            && !ctx.env.has_extension("cl_khr_3d_image_writes")
        {
            ctx.error(
                i,
                IMAGE_3D_WRITES,
                "writes to 3D images are not supported by the environment",
            );
        }
    }
}

/// Operand positions of the value operands of an atomic instruction (after result type/result).
fn atomic_values(op: Op) -> &'static [usize] {
    match op {
        Op::AtomicStore
        | Op::AtomicExchange
        | Op::AtomicIAdd
        | Op::AtomicISub
        | Op::AtomicSMin
        | Op::AtomicUMin
        | Op::AtomicSMax
        | Op::AtomicUMax
        | Op::AtomicAnd
        | Op::AtomicOr
        | Op::AtomicXor => &[3],
        Op::AtomicCompareExchange | Op::AtomicCompareExchangeWeak => &[4, 5],
        _ => &[],
    }
}

fn atomic(ctx: &mut Ctx<'_>, i: usize) {
    let inst = ctx.inst(i);
    let op = inst.op;
    let is_flag = matches!(op, Op::AtomicFlagTestAndSet | Op::AtomicFlagClear);
    let is_float = matches!(
        op,
        Op::AtomicFAddEXT | Op::AtomicFMinEXT | Op::AtomicFMaxEXT
    );
    // The integer type the instruction operates on.
    let mut data_types: Vec<Id> = Vec::new();
    if !is_flag && !is_float {
        data_types.extend(inst.result_type);
        for &k in atomic_values(op) {
            if let Some(t) = inst.id(k).and_then(|v| ctx.type_of(v)) {
                data_types.push(t);
            }
        }
    }
    let int64 = ctx.has_cap(Capability::Int64Atomics);
    // One report per instruction, for the first offending type.
    for t in data_types.iter().copied() {
        let why = match ctx.int_width(t) {
            Some(32) => continue,
            Some(64) if int64 => continue,
            Some(64) => "64-bit atomics need the Int64Atomics capability",
            _ => "the type is not a 32-bit integer scalar",
        };
        ctx.error(i, ATOMIC_TYPE, why);
        break;
    }
    // env 7.2.8: 64-bit atomics with WorkgroupMemory semantics use the Workgroup scope.
    let wide = data_types.iter().any(|&t| ctx.int_width(t) == Some(64));
    if wide && !is_flag {
        let semantics_at: &[usize] = if matches!(
            op,
            Op::AtomicCompareExchange | Op::AtomicCompareExchangeWeak
        ) {
            &[2, 3]
        } else {
            &[2]
        };
        let workgroup_memory = semantics_at
            .iter()
            .filter_map(|&k| inst.id(k).and_then(|s| ctx.const_u32(s)))
            .any(|s| s & 0x100 != 0);
        let scope = inst.id(1).and_then(|s| ctx.const_u32(s));
        if workgroup_memory && scope.is_some_and(|s| s != Scope::Workgroup as u32) {
            ctx.error(
                i,
                ATOMIC_WIDE_SCOPE,
                "a 64-bit atomic with WorkgroupMemory semantics must use the Workgroup scope",
            );
        }
    }
    // Pointer operand.
    let pointer = inst
        .id(0)
        .and_then(|p| ctx.type_of(p))
        .and_then(|t| ctx.pointer(t));
    match pointer {
        None => ctx.error(i, ATOMIC_POINTER, "the Pointer operand is not a pointer"),
        Some((sc, pointee)) => {
            let generic_ok =
                ctx.env.cl_version >= ClVersion::Cl20 && ctx.has_cap(Capability::GenericPointer);
            let ok = matches!(
                sc,
                StorageClass::Function | StorageClass::Workgroup | StorageClass::CrossWorkgroup
            ) || (sc == StorageClass::Generic && generic_ok);
            if !ok {
                ctx.error(
                    i,
                    ATOMIC_POINTER,
                    format!("the Pointer points to {} storage", sc.name()),
                );
            }
            if let Some(&t) = data_types.first() {
                if t != pointee {
                    ctx.error(
                        i,
                        "SPIR-V 3.32.18 (the atomic Pointer's pointee type is the instruction's type)",
                        "the pointer's pointee type differs from the result / value type",
                    );
                }
            }
        }
    }
}

/// Execution / memory scope and memory semantics operands of any instruction.
fn scopes(ctx: &mut Ctx<'_>, i: usize) {
    let Some(slots) = ctx.slots[i].clone() else {
        return;
    };
    let op = ctx.inst(i).op;
    let atomic = op.info().class == "Atomic";
    let barrier = matches!(op, Op::ControlBarrier | Op::MemoryBarrier);
    for s in slots {
        let Some(id) = ctx.inst(i).operands.get(s.index).and_then(|o| o.as_id()) else {
            continue;
        };
        if !matches!(
            s.kind,
            OperandKind::IdScope | OperandKind::IdMemorySemantics
        ) {
            continue;
        }
        let ty = ctx.type_of(id);
        if ty.and_then(|t| ctx.int_width(t)) != Some(32) {
            ctx.error(i, SCOPE_TYPE, format!("{id} is not a 32-bit integer"));
            continue;
        }
        // Only constant scopes and semantics can be checked (kernels allow others).
        let Some(value) = ctx.const_u32(id) else {
            continue;
        };
        if s.kind == OperandKind::IdMemorySemantics {
            semantics(ctx, i, value, atomic, barrier);
        } else if s.name == "Execution" {
            execution_scope(ctx, i, value);
        } else {
            memory_scope(ctx, i, value, atomic, barrier);
        }
    }
    if ctx.env.cl_version == ClVersion::Cl12
        && matches!(
            op,
            Op::GroupAll
                | Op::GroupAny
                | Op::GroupBroadcast
                | Op::GroupIAdd
                | Op::GroupFAdd
                | Op::GroupFMin
                | Op::GroupUMin
                | Op::GroupSMin
                | Op::GroupFMax
                | Op::GroupUMax
                | Op::GroupSMax
        )
        && !ctx.env.has_extension("cl_khr_subgroups")
    {
        ctx.error(
            i,
            GROUPS_12,
            format!("{} is not supported in OpenCL 1.2", op.name()),
        );
    }
}

fn execution_scope(ctx: &mut Ctx<'_>, i: usize, value: u32) {
    let op = ctx.inst(i).op;
    let scope = Scope::from_u32(value);
    let name = scope.map(|s| s.name()).unwrap_or("unknown");
    if matches!(op, Op::GroupAsyncCopy | Op::GroupWaitEvents) {
        if scope != Some(Scope::Workgroup) {
            ctx.error(i, "env 2.1 (Scope for Execution of OpGroupAsyncCopy and OpGroupWaitEvents must be Workgroup)", format!("execution scope {name}"));
        }
        return;
    }
    let ok = match scope {
        Some(Scope::Workgroup) => {
            // Work-group collective (Group) instructions need work-group collective functions.
            op.info().class != "Group"
                || ctx
                    .env
                    .has_feature(feature::WORK_GROUP_COLLECTIVE_FUNCTIONS)
                || ctx.env.cl_version == ClVersion::Cl12
        }
        Some(Scope::Subgroup) => ctx.env.subgroups(),
        _ => false,
    };
    if !ok {
        ctx.error(
            i,
            EXEC_SCOPE,
            format!("execution scope {name} is not allowed in {}", ctx.env),
        );
    }
}

fn memory_scope(ctx: &mut Ctx<'_>, i: usize, value: u32, atomic: bool, barrier: bool) {
    let env = ctx.env;
    let scope = Scope::from_u32(value);
    let name = scope.map(|s| s.name()).unwrap_or("unknown");
    let rule = if atomic { ATOMIC_SCOPE } else { BARRIER_SCOPE };
    if env.cl_version == ClVersion::Cl12 {
        // env 6.3: atomics use Device, barriers Workgroup.
        let expected = if atomic {
            Scope::Device
        } else {
            Scope::Workgroup
        };
        let subgroup_ok =
            !atomic && scope == Some(Scope::Subgroup) && env.has_extension("cl_khr_subgroups");
        if (atomic || barrier) && scope != Some(expected) && !subgroup_ok {
            ctx.error(
                i,
                rule,
                format!(
                    "memory scope {name} (OpenCL 1.2 requires {})",
                    expected.name()
                ),
            );
        }
        return;
    }
    let ok = match scope {
        Some(Scope::CrossDevice) => env.has_feature(feature::ATOMIC_SCOPE_ALL_DEVICES),
        Some(Scope::Device) => env.has_feature(feature::ATOMIC_SCOPE_DEVICE),
        Some(Scope::Workgroup) => true,
        Some(Scope::Subgroup) => env.subgroups(),
        // memory_scope_work_item is only for fences (atomic_work_item_fence).
        Some(Scope::Invocation) => !atomic,
        _ => false,
    };
    if !ok {
        ctx.error(
            i,
            rule,
            format!("memory scope {name} is not allowed in {env}"),
        );
    }
}

fn semantics(ctx: &mut Ctx<'_>, i: usize, value: u32, atomic: bool, barrier: bool) {
    let env = ctx.env;
    let sem = MemorySemantics(value);
    let orders = [
        MemorySemantics::ACQUIRE,
        MemorySemantics::RELEASE,
        MemorySemantics::ACQUIRE_RELEASE,
        MemorySemantics::SEQUENTIALLY_CONSISTENT,
    ];
    let set: Vec<MemorySemantics> = orders
        .iter()
        .copied()
        .filter(|o| sem.contains(*o))
        .collect();
    if set.len() > 1 {
        ctx.error(i, ONE_ORDER, "more than one memory-order bit is set");
        return;
    }
    let order = set.first().copied();
    let rule = if atomic { ATOMIC_ORDER } else { BARRIER_ORDER };
    if env.cl_version == ClVersion::Cl12 {
        if atomic && order.is_some() {
            ctx.error(i, rule, "OpenCL 1.2 atomics must be Relaxed");
        }
        if barrier && order != Some(MemorySemantics::SEQUENTIALLY_CONSISTENT) {
            ctx.error(
                i,
                rule,
                "OpenCL 1.2 barriers must be SequentiallyConsistent",
            );
        }
        return;
    }
    let ok = match order {
        None => true,
        Some(MemorySemantics::SEQUENTIALLY_CONSISTENT) => {
            env.has_feature(feature::ATOMIC_ORDER_SEQ_CST)
        }
        Some(_) => env.has_feature(feature::ATOMIC_ORDER_ACQ_REL),
    };
    if !ok && (atomic || barrier) {
        ctx.error(
            i,
            rule,
            format!("the memory order is not supported by {env}"),
        );
    }
}

/// env 2.1: no cycles in the static call graph of an entry point.
fn recursion(ctx: &mut Ctx<'_>) {
    let nf = ctx.functions.len();
    let by_id: HashMap<u32, usize> = ctx
        .functions
        .iter()
        .enumerate()
        .filter_map(|(k, f)| ctx.inst(f.def).result.map(|r| (r.0, k)))
        .collect();
    // Calls of each function: (callee function, calling instruction).
    let mut calls: Vec<Vec<(usize, usize)>> = vec![Vec::new(); nf];
    for (i, inst) in ctx.module.instructions.iter().enumerate() {
        if inst.op != Op::FunctionCall {
            continue;
        }
        let (Some(f), Some(callee)) = (ctx.func_of[i], inst.id(0).and_then(|c| by_id.get(&c.0)))
        else {
            continue;
        };
        calls[f].push((*callee, i));
    }
    let mut roots: Vec<usize> = ctx
        .module
        .instructions
        .iter()
        .filter(|i| i.op == Op::EntryPoint)
        .filter_map(|i| i.id(1))
        .filter_map(|id| by_id.get(&id.0).copied())
        .collect();
    if roots.is_empty() {
        roots = (0..nf).collect();
    }
    // Iterative DFS with colours: 0 white, 1 on stack, 2 done.
    let mut colour = vec![0u8; nf];
    let mut reported = vec![false; ctx.module.instructions.len()];
    for root in roots {
        if colour[root] != 0 {
            continue;
        }
        let mut stack = vec![(root, 0usize)];
        colour[root] = 1;
        while let Some(&mut (f, ref mut next)) = stack.last_mut() {
            if *next < calls[f].len() {
                let (callee, at) = calls[f][*next];
                *next += 1;
                match colour[callee] {
                    0 => {
                        colour[callee] = 1;
                        stack.push((callee, 0));
                    }
                    1 if !reported[at] => {
                        reported[at] = true;
                        ctx.error(at, RECURSION, "this call closes a cycle in the call graph");
                    }
                    _ => {}
                }
            } else {
                colour[f] = 2;
                stack.pop();
            }
        }
    }
}
