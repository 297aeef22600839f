//! Sampler objects (API 5.8): creation from arguments or a property list, queries, and the
//! reference count. A sampler kernel argument passes `runtime::Sampler::encode`.

use std::ffi::c_void;
use std::sync::Arc;

use runtime::{AddressingMode, FilterMode, MipSampling, Sampler};

use crate::consts::*;
use crate::context::ContextObj;
use crate::entry::{guard, guard_create, ClResult};
use crate::handle::{ClObject, Kind, Obj};
use crate::info::{answer, InfoValue};
use crate::types::*;

pub struct SamplerObj {
    pub context: Arc<Obj<ContextObj>>,
    pub sampler: Sampler,
    /// `CL_SAMPLER_PROPERTIES`: the list given to `clCreateSamplerWithProperties`.
    pub properties: Vec<cl_sampler_properties>,
}

impl ClObject for SamplerObj {
    const KIND: Kind = Kind::Sampler;
    const INVALID: i32 = CL_INVALID_SAMPLER;
}

fn addressing(mode: u64) -> ClResult<AddressingMode> {
    Ok(match mode as u32 {
        CL_ADDRESS_NONE => AddressingMode::None,
        CL_ADDRESS_CLAMP_TO_EDGE => AddressingMode::ClampToEdge,
        CL_ADDRESS_CLAMP => AddressingMode::Clamp,
        CL_ADDRESS_REPEAT => AddressingMode::Repeat,
        CL_ADDRESS_MIRRORED_REPEAT => AddressingMode::MirroredRepeat,
        _ => return Err(CL_INVALID_VALUE),
    })
    .and_then(|m| {
        if mode > u32::MAX as u64 {
            Err(CL_INVALID_VALUE)
        } else {
            Ok(m)
        }
    })
}

fn filter(mode: u64) -> ClResult<FilterMode> {
    match mode {
        m if m == CL_FILTER_NEAREST as u64 => Ok(FilterMode::Nearest),
        m if m == CL_FILTER_LINEAR as u64 => Ok(FilterMode::Linear),
        _ => Err(CL_INVALID_VALUE),
    }
}

/// A `cl_float` lod clamp property: the float's bits in the low 32 bits of the value.
fn lod(value: cl_sampler_properties) -> ClResult<f32> {
    let v = f32::from_bits(value as u32);
    if v.is_nan() {
        return Err(CL_INVALID_VALUE);
    }
    Ok(v)
}

fn create(
    context: cl_context,
    sampler: impl FnOnce() -> ClResult<(Sampler, Vec<cl_sampler_properties>)>,
) -> ClResult<*mut c_void> {
    // "CL_INVALID_CONTEXT if context is not a valid context."
    let context = Obj::<ContextObj>::get(context)?;
    // "CL_INVALID_OPERATION if images are not supported by any device associated with context".
    if !context.context.device().image_support() {
        return Err(CL_INVALID_OPERATION);
    }
    let (sampler, properties) = sampler()?;
    // The kernel-argument encoding interns the lod clamps; a full table is reported now.
    sampler.encode().map_err(|_| CL_OUT_OF_RESOURCES)?;
    Ok(Obj::into_handle(Obj::create(SamplerObj {
        context,
        sampler,
        properties,
    })))
}

/// `clCreateSampler` (API 5.8.1, deprecated in 2.0).
pub unsafe extern "C" fn clCreateSampler(
    context: cl_context,
    normalized_coords: cl_bool,
    addressing_mode: cl_addressing_mode,
    filter_mode: cl_filter_mode,
    errcode_ret: *mut cl_int,
) -> cl_sampler {
    guard_create(errcode_ret, || {
        create(context, || {
            // "CL_INVALID_VALUE if addressing_mode, filter_mode, normalized_coords or a
            // combination of these arguements are not valid."
            if normalized_coords > 1 {
                return Err(CL_INVALID_VALUE);
            }
            Ok((
                Sampler {
                    normalized_coords: normalized_coords != 0,
                    addressing: addressing(addressing_mode as u64)?,
                    filter: filter(filter_mode as u64)?,
                    mip: MipSampling::default(),
                },
                Vec::new(),
            ))
        })
    })
}

/// `clCreateSamplerWithProperties` (API 5.8.1): "CL_INVALID_VALUE if the property name in
/// sampler_properties is not a supported property name, if the value specified for a supported
/// property name is not valid, or if the same property name is specified more than once." The
/// mipmap properties of `cl_khr_mipmap_image`: `CL_SAMPLER_MIP_FILTER_MODE` (nearest or
/// linear) and the `cl_float` lod clamps `CL_SAMPLER_LOD_MIN`/`LOD_MAX`, whose value is the
/// float's bits in the low 32 bits of the `cl_sampler_properties` (a union of the two, as
/// drivers read it); NaN clamps are invalid values.
pub unsafe extern "C" fn clCreateSamplerWithProperties(
    context: cl_context,
    properties: *const cl_sampler_properties,
    errcode_ret: *mut cl_int,
) -> cl_sampler {
    guard_create(errcode_ret, || {
        create(context, || {
            let mut sampler = Sampler::default();
            let mut list = Vec::new();
            let mut seen = Vec::new();
            if !properties.is_null() {
                let mut p = properties;
                loop {
                    // SAFETY: a 0-terminated list of (name, value) pairs.
                    let name = unsafe { *p };
                    if name == 0 {
                        list.push(0);
                        break;
                    }
                    // SAFETY: each name is followed by its value.
                    let value = unsafe { *p.add(1) };
                    if seen.contains(&name) {
                        return Err(CL_INVALID_VALUE);
                    }
                    seen.push(name);
                    match name as u32 {
                        CL_SAMPLER_NORMALIZED_COORDS if value <= 1 => {
                            sampler.normalized_coords = value != 0
                        }
                        CL_SAMPLER_ADDRESSING_MODE => sampler.addressing = addressing(value)?,
                        CL_SAMPLER_FILTER_MODE => sampler.filter = filter(value)?,
                        CL_SAMPLER_MIP_FILTER_MODE => sampler.mip.filter = filter(value)?,
                        CL_SAMPLER_LOD_MIN => sampler.mip.lod_min = lod(value)?,
                        CL_SAMPLER_LOD_MAX => sampler.mip.lod_max = lod(value)?,
                        _ => return Err(CL_INVALID_VALUE),
                    }
                    list.extend([name, value]);
                    // SAFETY: within the list (the terminator comes later).
                    p = unsafe { p.add(2) };
                }
            }
            Ok((sampler, list))
        })
    })
}

pub unsafe extern "C" fn clRetainSampler(sampler: cl_sampler) -> cl_int {
    // "CL_INVALID_SAMPLER if sampler is not a valid sampler object."
    Obj::<SamplerObj>::retain(sampler)
}

pub unsafe extern "C" fn clReleaseSampler(sampler: cl_sampler) -> cl_int {
    Obj::<SamplerObj>::release(sampler)
}

/// `clGetSamplerInfo` (API 5.8.2).
pub unsafe extern "C" fn clGetSamplerInfo(
    sampler: cl_sampler,
    param_name: cl_sampler_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    guard(|| {
        let s = Obj::<SamplerObj>::get(sampler)?;
        let value = match param_name {
            CL_SAMPLER_REFERENCE_COUNT => Ok(InfoValue::u32(s.ref_count())),
            CL_SAMPLER_CONTEXT => Ok(InfoValue::ptr(Obj::handle(&s.context))),
            CL_SAMPLER_NORMALIZED_COORDS => Ok(InfoValue::bool(s.sampler.normalized_coords)),
            CL_SAMPLER_ADDRESSING_MODE => Ok(InfoValue::u32(match s.sampler.addressing {
                AddressingMode::None => CL_ADDRESS_NONE,
                AddressingMode::ClampToEdge => CL_ADDRESS_CLAMP_TO_EDGE,
                AddressingMode::Clamp => CL_ADDRESS_CLAMP,
                AddressingMode::Repeat => CL_ADDRESS_REPEAT,
                AddressingMode::MirroredRepeat => CL_ADDRESS_MIRRORED_REPEAT,
            })),
            CL_SAMPLER_FILTER_MODE => Ok(InfoValue::u32(match s.sampler.filter {
                FilterMode::Nearest => CL_FILTER_NEAREST,
                FilterMode::Linear => CL_FILTER_LINEAR,
            })),
            CL_SAMPLER_MIP_FILTER_MODE => Ok(InfoValue::u32(match s.sampler.mip.filter {
                FilterMode::Nearest => CL_FILTER_NEAREST,
                FilterMode::Linear => CL_FILTER_LINEAR,
            })),
            // cl_khr_mipmap_image: cl_float.
            CL_SAMPLER_LOD_MIN => Ok(InfoValue::pod(&[s.sampler.mip.lod_min])),
            CL_SAMPLER_LOD_MAX => Ok(InfoValue::pod(&[s.sampler.mip.lod_max])),
            CL_SAMPLER_PROPERTIES => Ok(InfoValue::pod(&s.properties)),
            // "CL_INVALID_VALUE if param_name is not valid".
            _ => Err(CL_INVALID_VALUE),
        };
        // SAFETY: the caller's buffers.
        unsafe { answer(value, param_value_size, param_value, param_value_size_ret) }
    })
}
