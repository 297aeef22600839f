//! The text format: `Display` for `Function` and `Module`.
//!
//! ```text
//! module address_bits 64
//! global g0 "tile" local size 256 align 4
//! global g1 "table" constant size 8 align 4 init #0100000002000000
//! function fn0 "vadd"(ptr_global, ptr_global, i32) {
//! block0(v0: ptr_global, v1: ptr_global, v2: i32):
//!     v3 = workitem.i64 global_id 0
//!     v4 = const.i64 4
//!     v5 = imul.i64 v3, v4
//!     v6 = ptradd.ptr_global v0, v5
//!     v7 = load.f32 v6 align 4
//!     brif v8, block1(v7), block2
//! ...
//! }
//! kernel "vadd" fn0("a" buffer_global "float*", "n" value i32 size 4 align 4 "int") reqd_work_group_size(64, 1, 1)
//! ```
//!
//! Each instruction with a result prints `vN = opcode.T operands` where `T` is the result type;
//! the syntax of every instruction is on its `InstData` variant. `parse` reads this format back.

use std::fmt::{self, Write};

use crate::{
    ArgKind, BlockCall, Function, Global, Inst, InstData, Kernel, Module, ScalarType, Type, Value,
};

impl fmt::Display for Function {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_function(f, self, None)
    }
}

impl fmt::Display for Module {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "module address_bits {}", self.address_bits)?;
        for (index, global) in self.globals.iter().enumerate() {
            write_global(f, index, global)?;
        }
        for (index, func) in self.functions.iter().enumerate() {
            write_function(f, func, Some(index))?;
        }
        for kernel in &self.kernels {
            write_kernel(f, kernel)?;
        }
        Ok(())
    }
}

fn write_global(f: &mut dyn Write, index: usize, global: &Global) -> fmt::Result {
    write!(
        f,
        "global g{index} {:?} {} size {} align {}",
        global.name, global.space, global.size, global.align
    )?;
    if let Some(init) = &global.init {
        write!(f, " init #")?;
        for byte in init {
            write!(f, "{byte:02x}")?;
        }
    }
    for reloc in &global.relocs {
        write!(
            f,
            " reloc {} {} {}",
            reloc.offset, reloc.target, reloc.addend
        )?;
    }
    writeln!(f)
}

fn write_kernel(f: &mut dyn Write, kernel: &Kernel) -> fmt::Result {
    write!(f, "kernel {:?} {}(", kernel.name, kernel.func)?;
    for (i, arg) in kernel.args.iter().enumerate() {
        if i > 0 {
            write!(f, ", ")?;
        }
        write!(f, "{:?} ", arg.name)?;
        match &arg.kind {
            ArgKind::Buffer(space) => write!(f, "buffer_{space}")?,
            ArgKind::LocalPtr => write!(f, "local")?,
            ArgKind::Value { ty, size, align } => {
                write!(f, "value {ty} size {size} align {align}")?
            }
            ArgKind::Sampler => write!(f, "sampler")?,
            ArgKind::Image(image) => write!(f, "{}", image.name())?,
            ArgKind::Pipe { write_only: false } => write!(f, "pipe_read")?,
            ArgKind::Pipe { write_only: true } => write!(f, "pipe_write")?,
        }
        write!(f, " {:?}", arg.type_name)?;
    }
    write!(f, ")")?;
    let triple = |f: &mut dyn Write, name: &str, v: Option<[u32; 3]>| match v {
        Some([x, y, z]) => write!(f, " {name}({x}, {y}, {z})"),
        None => Ok(()),
    };
    triple(f, "reqd_work_group_size", kernel.reqd_work_group_size)?;
    triple(f, "work_group_size_hint", kernel.work_group_size_hint)?;
    if let Some(hint) = kernel.vec_type_hint {
        write!(f, " vec_type_hint({hint:#x})")?;
    }
    writeln!(f)
}

fn write_function(f: &mut dyn Write, func: &Function, index: Option<usize>) -> fmt::Result {
    write!(f, "function ")?;
    if let Some(index) = index {
        write!(f, "fn{index} ")?;
    }
    write!(f, "{:?}(", func.name)?;
    for (i, ty) in func.sig.params.iter().enumerate() {
        if i > 0 {
            write!(f, ", ")?;
        }
        write!(f, "{ty}")?;
    }
    write!(f, ")")?;
    if let Some(ret) = func.sig.ret {
        write!(f, " -> {ret}")?;
    }
    writeln!(f, " {{")?;
    for &block in &func.layout.blocks {
        write!(f, "{block}")?;
        let params = func.dfg.block_params(block);
        if !params.is_empty() {
            write!(f, "(")?;
            for (i, &p) in params.iter().enumerate() {
                if i > 0 {
                    write!(f, ", ")?;
                }
                write!(f, "{p}: {}", func.dfg.value_type(p))?;
            }
            write!(f, ")")?;
        }
        writeln!(f, ":")?;
        for &inst in func.layout.insts(block) {
            write!(f, "    ")?;
            write_inst(f, func, inst)?;
            writeln!(f)?;
        }
    }
    writeln!(f, "}}")
}

/// Writes one instruction (without indentation or newline).
pub fn write_inst(f: &mut dyn Write, func: &Function, inst: Inst) -> fmt::Result {
    let data = func.dfg.inst(inst);
    if let Some(result) = func.dfg.inst_result(inst) {
        write!(
            f,
            "{result} = {}.{} ",
            data.opcode_name(),
            func.dfg.value_type(result)
        )?;
    } else {
        write!(f, "{}", data.opcode_name())?;
        if !matches!(
            data,
            InstData::Return { value: None } | InstData::Unreachable
        ) {
            write!(f, " ")?;
        }
    }
    let ty = func.dfg.inst_result(inst).map(|v| func.dfg.value_type(v));
    match data {
        InstData::Const { bytes } => write_const(f, ty.unwrap_or(Type::I8), bytes),
        InstData::Unary { arg, .. } => write!(f, "{arg}"),
        InstData::Binary { a, b, .. } => write!(f, "{a}, {b}"),
        InstData::Cmp { op, a, b } => write!(f, "{op} {a}, {b}"),
        InstData::Test { op, arg } => write!(f, "{op} {arg}"),
        InstData::Reduce { op, arg } => write!(f, "{op} {arg}"),
        InstData::Select { cond, a, b } => write!(f, "{cond}, {a}, {b}"),
        InstData::Convert {
            arg,
            rounding,
            saturate,
            ..
        } => {
            if let Some(r) = rounding {
                write!(f, "{r} ")?;
            }
            if *saturate {
                write!(f, "sat ")?;
            }
            write!(f, "{arg}")
        }
        InstData::Load { ptr, align } => write!(f, "{ptr} align {align}"),
        InstData::Store { ptr, value, align } => write!(f, "{ptr}, {value} align {align}"),
        InstData::PtrAdd { ptr, offset } => write!(f, "{ptr}, {offset}"),
        InstData::StackAlloc { size, align } => write!(f, "{size} align {align}"),
        InstData::GlobalAddr { global } => write!(f, "{global}"),
        InstData::Memcpy { dst, src, size } => write!(f, "{dst}, {src}, {size}"),
        InstData::Memset { dst, byte, size } => write!(f, "{dst}, {byte}, {size}"),
        InstData::ExtractLane { vec, lane } => write!(f, "{vec}, {lane}"),
        InstData::InsertLane { vec, lane, value } => write!(f, "{vec}, {lane}, {value}"),
        InstData::ExtractLaneDyn { vec, index } => write!(f, "{vec}, {index}"),
        InstData::InsertLaneDyn { vec, index, value } => write!(f, "{vec}, {index}, {value}"),
        InstData::Shuffle { a, b, mask } => {
            write!(f, "{a}, {b}, [")?;
            for (i, m) in mask.iter().enumerate() {
                if i > 0 {
                    write!(f, ", ")?;
                }
                if *m == u32::MAX {
                    write!(f, "undef")?;
                } else {
                    write!(f, "{m}")?;
                }
            }
            write!(f, "]")
        }
        InstData::Splat { value } => write!(f, "{value}"),
        InstData::ExtractBytes { agg, offset } => write!(f, "{agg}, {offset}"),
        InstData::InsertBytes { agg, offset, value } => write!(f, "{agg}, {offset}, {value}"),
        InstData::WorkItem { query, dim } => write!(f, "{query} {dim}"),
        InstData::WorkItemDyn { query, dim } => write!(f, "{query} {dim}"),
        InstData::Call { func: callee, args } => {
            write!(f, "{callee}")?;
            write_args(f, args)
        }
        InstData::Builtin {
            func: builtin,
            args,
        } => {
            write!(f, "{builtin}")?;
            write_args(f, args)
        }
        InstData::Image { op, args } => {
            write!(f, "{op}")?;
            write_args(f, args)
        }
        InstData::Pipe { op, args } => {
            write!(f, "{op}")?;
            write_args(f, args)
        }
        InstData::Enqueue { op, invoke, args } => {
            write!(f, "{op}")?;
            if let Some(invoke) = invoke {
                write!(f, " {invoke}")?;
            }
            write_args(f, args)
        }
        InstData::Barrier {
            exec_scope,
            mem_scope,
            semantics,
        } => {
            write!(f, "{exec_scope}, {mem_scope}, {semantics:#x}")
        }
        InstData::Fence { scope, semantics } => write!(f, "{scope}, {semantics:#x}"),
        InstData::NamedBarrier {
            barrier,
            mem_scope,
            semantics,
        } => write!(f, "{mem_scope}, {semantics:#x} {barrier}"),
        InstData::Atomic {
            op,
            ty: mem_ty,
            ptr,
            scope,
            semantics,
            semantics_unequal,
            args,
        } => {
            if ty.is_none() {
                // Store / flag_clear have no result to carry the memory type.
                write!(f, "{mem_ty} ")?;
            }
            write!(f, "{op} {scope} {semantics:#x} ")?;
            if *op == crate::AtomicOp::CmpXchg {
                write!(f, "{semantics_unequal:#x} ")?;
            }
            write!(f, "{ptr}")?;
            for arg in args {
                write!(f, ", {arg}")?;
            }
            Ok(())
        }
        InstData::Jump { dest } => write_block_call(f, dest),
        InstData::Brif {
            cond,
            then_dest,
            else_dest,
        } => {
            write!(f, "{cond}, ")?;
            write_block_call(f, then_dest)?;
            write!(f, ", ")?;
            write_block_call(f, else_dest)
        }
        InstData::Switch {
            value,
            default,
            cases,
        } => {
            write!(f, "{value}, ")?;
            write_block_call(f, default)?;
            write!(f, ", [")?;
            for (i, (case, dest)) in cases.iter().enumerate() {
                if i > 0 {
                    write!(f, ", ")?;
                }
                write!(f, "{case}: ")?;
                write_block_call(f, dest)?;
            }
            write!(f, "]")
        }
        InstData::Return { value } => match value {
            Some(v) => write!(f, "{v}"),
            None => Ok(()),
        },
        InstData::Unreachable => Ok(()),
    }
}

fn write_args(f: &mut dyn Write, args: &[Value]) -> fmt::Result {
    write!(f, "(")?;
    for (i, arg) in args.iter().enumerate() {
        if i > 0 {
            write!(f, ", ")?;
        }
        write!(f, "{arg}")?;
    }
    write!(f, ")")
}

fn write_block_call(f: &mut dyn Write, call: &BlockCall) -> fmt::Result {
    write!(f, "{}", call.block)?;
    if !call.args.is_empty() {
        write_args(f, &call.args)?;
    }
    Ok(())
}

/// Writes a constant of type `ty`: `true`, `-3`, `1.5`, `0x7fc00000` (non-finite floats as bits),
/// `null`, `[1, 2, 3, 4]` (vectors), `#0a0b` (aggregates and anything else, bytes in memory order).
fn write_const(f: &mut dyn Write, ty: Type, bytes: &[u8]) -> fmt::Result {
    match ty {
        Type::Vec(lane, n) => {
            let width = lane.bytes() as usize;
            write!(f, "[")?;
            for i in 0..usize::from(n) {
                if i > 0 {
                    write!(f, ", ")?;
                }
                match bytes.get(i * width..(i + 1) * width) {
                    Some(chunk) => write_scalar(f, lane, chunk)?,
                    None => write!(f, "?")?,
                }
            }
            write!(f, "]")
        }
        Type::Ptr(_) if bytes.iter().all(|&b| b == 0) => write!(f, "null"),
        t => match t.as_scalar() {
            Some(s) if bytes.len() == s.bytes() as usize => write_scalar(f, s, bytes),
            _ => write_hex_bytes(f, bytes),
        },
    }
}

fn write_hex_bytes(f: &mut dyn Write, bytes: &[u8]) -> fmt::Result {
    write!(f, "#")?;
    for byte in bytes {
        write!(f, "{byte:02x}")?;
    }
    Ok(())
}

fn write_scalar(f: &mut dyn Write, s: ScalarType, bytes: &[u8]) -> fmt::Result {
    let mut raw = [0u8; 8];
    raw[..bytes.len().min(8)].copy_from_slice(&bytes[..bytes.len().min(8)]);
    let bits = u64::from_le_bytes(raw);
    match s {
        ScalarType::Bool => write!(f, "{}", bits != 0),
        ScalarType::I8 => write!(f, "{}", bits as u8 as i8),
        ScalarType::I16 => write!(f, "{}", bits as u16 as i16),
        ScalarType::I32 => write!(f, "{}", bits as u32 as i32),
        ScalarType::I64 => write!(f, "{}", bits as i64),
        ScalarType::F16 => {
            let value = f16_bits_to_f64(bits as u16);
            if value.is_finite() {
                write!(f, "{:?}", value as f32)
            } else {
                write!(f, "{:#06x}", bits as u16)
            }
        }
        ScalarType::F32 => {
            let value = f32::from_bits(bits as u32);
            if value.is_finite() {
                write!(f, "{value:?}")
            } else {
                write!(f, "{:#010x}", bits as u32)
            }
        }
        ScalarType::F64 => {
            let value = f64::from_bits(bits);
            if value.is_finite() {
                write!(f, "{value:?}")
            } else {
                write!(f, "{bits:#018x}")
            }
        }
    }
}

/// Exact value of an IEEE binary16 (text format only; numerics live in devlib).
pub(crate) fn f16_bits_to_f64(bits: u16) -> f64 {
    let sign = if bits & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = i32::from((bits >> 10) & 0x1f);
    let frac = f64::from(bits & 0x3ff);
    match exp {
        0 => sign * frac * 2f64.powi(-24),
        31 if frac == 0.0 => sign * f64::INFINITY,
        31 => f64::NAN,
        _ => sign * (1.0 + frac / 1024.0) * 2f64.powi(exp - 15),
    }
}
