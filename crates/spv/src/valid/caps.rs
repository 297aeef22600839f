//! Capabilities, versions and extensions: the module's SPIR-V version is one the environment
//! accepts (env 3–6, 3.0 "Supported SPIR-V Versions"); each declared capability is supported by
//! the environment (env 3–6 capability lists, 3.0 "Required Capabilities", env 7 extensions);
//! each `OpExtension` is allowed (env 7.1); every instruction, enumerant and type the module uses
//! is enabled by a declared capability or extension and exists in the module's version
//! (SPIR-V 2.16.1, "the module must declare the capabilities it uses"); type widths and vector
//! sizes are the ones OpenCL supports (env 2.4.1).

use super::context::Ctx;
use super::ids::enum_operands;
use crate::{Capability, Op, OperandCategory};

const ENV_VERSION: &str = "env 3-6 (SPIR-V versions an OpenCL environment accepts)";
const ENV_CAPABILITY: &str = "env 3-6, 7 (capabilities an OpenCL environment supports)";
const ENV_EXTENSION: &str =
    "env 7.1 (OpExtension only for SPIR-V extensions the environment supports)";
const DECLARED: &str = "SPIR-V 2.16.1 (capabilities used must be declared)";
const TOO_NEW: &str =
    "SPIR-V 2.16.1 (instructions and enumerants must exist in the module's version)";
const TYPES: &str = "env 2.4.1 (supported scalar and vector types)";

pub(crate) fn check(ctx: &mut Ctx<'_>) {
    let version = ctx.module.header.version;
    let max = ctx.env.max_spirv_version();
    if version > max || version < (1, 0) {
        ctx.module_error(
            ENV_VERSION,
            format!(
                "SPIR-V {}.{} is not accepted by {} (accepts 1.0 to {}.{})",
                version.0, version.1, ctx.env, max.0, max.1
            ),
        );
    }
    for i in 0..ctx.module.instructions.len() {
        let inst = ctx.inst(i);
        match inst.op {
            Op::Capability => {
                let Some(value) = inst.int(0) else { continue };
                match Capability::from_u32(value) {
                    None => ctx.error(i, ENV_CAPABILITY, format!("unknown capability {value}")),
                    Some(cap) => {
                        let caps = ctx.caps.clone();
                        let declared = move |c: Capability| caps.contains(&c);
                        let allowed = ctx.env.capability_allowed(cap, &declared);
                        // A capability enabled by a declared (and allowed) SPIR-V extension is
                        // accepted, as the environment accepts that extension.
                        let by_extension = cap.extensions().iter().any(|e| {
                            ctx.extensions.contains(*e) && ctx.env.spirv_extension_allowed(e)
                        });
                        if let Err(why) = allowed {
                            if !by_extension {
                                ctx.error(i, ENV_CAPABILITY, why);
                            }
                        }
                        check_version(ctx, i, cap.version(), cap.extensions(), cap.name());
                    }
                }
            }
            Op::Extension => {
                let name = inst.str(0).unwrap_or("");
                if !ctx.env.spirv_extension_allowed(name) {
                    ctx.error(
                        i,
                        ENV_EXTENSION,
                        format!("SPIR-V extension {name} is not supported by {}", ctx.env),
                    );
                }
            }
            op => {
                let info = op.info();
                check_version(ctx, i, info.version, info.extensions, info.name);
                check_removed(ctx, i, info.last_version, info.name);
                check_declared(ctx, i, info.capabilities, info.extensions, info.name);
                for (kind, value) in enum_operands(ctx, i) {
                    let infos: Vec<_> = if kind.category() == OperandCategory::BitEnum {
                        (0..32)
                            .map(|b| 1u32 << b)
                            .filter(|m| value & m != 0)
                            .filter_map(|m| kind.enumerant(m))
                            .collect()
                    } else {
                        kind.enumerant(value).into_iter().collect()
                    };
                    for e in infos {
                        let what = format!("{} {}", kind.name(), e.name);
                        check_version(ctx, i, e.version, e.extensions, &what);
                        check_removed(ctx, i, e.last_version, &what);
                        check_declared(ctx, i, e.capabilities, e.extensions, &what);
                    }
                }
                check_type_capabilities(ctx, i);
            }
        }
    }
}

fn extension_declared(ctx: &Ctx<'_>, extensions: &[&str]) -> bool {
    extensions.iter().any(|e| ctx.extensions.contains(*e))
}

fn check_version(ctx: &mut Ctx<'_>, i: usize, needed: (u8, u8), extensions: &[&str], what: &str) {
    let version = ctx.module.header.version;
    if needed > version && !extension_declared(ctx, extensions) {
        let msg = if needed == (0xff, 0xff) {
            format!("{what} needs one of the SPIR-V extensions {extensions:?}")
        } else {
            format!(
                "{what} needs SPIR-V {}.{}, the module is {}.{}",
                needed.0, needed.1, version.0, version.1
            )
        };
        ctx.error(i, TOO_NEW, msg);
    }
}

fn check_removed(ctx: &mut Ctx<'_>, i: usize, last: Option<(u8, u8)>, what: &str) {
    let version = ctx.module.header.version;
    if let Some(last) = last {
        if version > last {
            ctx.error(
                i,
                TOO_NEW,
                format!("{what} was removed after SPIR-V {}.{}", last.0, last.1),
            );
        }
    }
}

fn check_declared(
    ctx: &mut Ctx<'_>,
    i: usize,
    caps: &[Capability],
    extensions: &[&str],
    what: &str,
) {
    if caps.is_empty()
        || caps.iter().any(|c| ctx.has_cap(*c))
        || extension_declared(ctx, extensions)
    {
        return;
    }
    let names: Vec<&str> = caps.iter().map(|c| c.name()).collect();
    ctx.error(
        i,
        DECLARED,
        format!("{what} needs one of the capabilities {}", names.join(", ")),
    );
}

/// Capabilities and OpenCL support of numeric and vector types (env 2.4.1).
fn check_type_capabilities(ctx: &mut Ctx<'_>, i: usize) {
    let inst = ctx.inst(i);
    match inst.op {
        Op::TypeInt => {
            let width = inst.int(0).unwrap_or(0);
            let need = match width {
                8 => Some(Capability::Int8),
                16 => Some(Capability::Int16),
                32 => None,
                64 => Some(Capability::Int64),
                _ => {
                    ctx.error(
                        i,
                        TYPES,
                        format!("integer width {width} is not 8, 16, 32 or 64"),
                    );
                    None
                }
            };
            if let Some(c) = need {
                check_declared(ctx, i, &[c], &[], &format!("a {width}-bit integer type"));
            }
        }
        Op::TypeFloat => {
            let width = inst.int(0).unwrap_or(0);
            match width {
                16 => check_declared(
                    ctx,
                    i,
                    &[Capability::Float16, Capability::Float16Buffer],
                    &[],
                    "a 16-bit float type",
                ),
                32 => {}
                64 => check_declared(ctx, i, &[Capability::Float64], &[], "a 64-bit float type"),
                _ => ctx.error(i, TYPES, format!("float width {width} is not 16, 32 or 64")),
            }
            if inst.operands.len() > 1 {
                ctx.error(
                    i,
                    TYPES,
                    "floating-point encodings other than IEEE 754 are not supported",
                );
            }
        }
        Op::TypeVector => {
            let count = inst.int(1).unwrap_or(0);
            match count {
                2..=4 => {}
                8 | 16 => check_declared(
                    ctx,
                    i,
                    &[Capability::Vector16],
                    &[],
                    &format!("a {count}-component vector"),
                ),
                _ => ctx.error(
                    i,
                    TYPES,
                    format!("vector component count {count} is not 2, 3, 4, 8 or 16"),
                ),
            }
            let component = inst.id(0).and_then(|c| ctx.def_op(c));
            if !matches!(
                component,
                Some(Op::TypeInt | Op::TypeFloat | Op::TypeBool) | None
            ) {
                ctx.error(
                    i,
                    TYPES,
                    "vector components must be scalar integer, float or bool types",
                );
            }
        }
        _ => {}
    }
}
