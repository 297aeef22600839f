//! Sub-group queries of kernels (API 5.9.4 `clGetKernelSubGroupInfo`, `cl_khr_subgroups`).
//! The engines run every work-item as its own sub-group (`Device::sub_group_size` is 1), so a
//! work-group of `n` work-items has `n` sub-groups.

use std::ffi::c_void;

use crate::consts::*;
use crate::device::DeviceObj;
use crate::entry::{guard, ClResult};
use crate::handle::Obj;
use crate::info::{answer, InfoValue};
use crate::kernel::{kernel_work_group_size, KernelObj};
use crate::types::*;

const SIZE_T: usize = std::mem::size_of::<usize>();

/// The `size_t` array at `input` (`input_size` bytes): "CL_INVALID_VALUE if ... the size in
/// bytes specified by input_value_size is not valid or if input_value is NULL".
///
/// # Safety
/// `input` must be null or point to `input_size` readable bytes.
unsafe fn input_sizes(
    input: *const c_void,
    input_size: usize,
    max_len: usize,
) -> ClResult<Vec<usize>> {
    let len = input_size / SIZE_T;
    if input.is_null() || input_size % SIZE_T != 0 || !(1..=max_len).contains(&len) {
        return Err(CL_INVALID_VALUE);
    }
    // SAFETY: the caller's promise; `size_t` values may be unaligned in the caller's memory.
    Ok((0..len)
        .map(|i| unsafe { (input as *const usize).add(i).read_unaligned() })
        .collect())
}

/// `CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT`: "Any returned work-group will have one dimension.
/// Other dimensions ... will be filled with the value 1. ... If no work-group size can
/// accommodate the requested number of sub-groups, 0 will be returned in each element".
fn local_size_for_sub_group_count(k: &KernelObj, count: usize, dims: usize) -> Vec<usize> {
    let device = k.program.context.context.device();
    let items = count * device.sub_group_size();
    let fits = match k.kernel.reqd_work_group_size() {
        // A required work-group size is the only local size the kernel runs with.
        Some([x, y, z]) => (y, z) == (1, 1) && x as usize == items,
        None => items <= kernel_work_group_size(k) && items <= device.max_work_item_sizes[0],
    };
    let mut local = vec![1; dims];
    if count == 0 || !fits {
        local.fill(0);
    } else {
        local[0] = items;
    }
    local
}

/// `clGetKernelSubGroupInfo` (API 5.9.4).
pub unsafe extern "C" fn clGetKernelSubGroupInfo(
    kernel: cl_kernel,
    device: cl_device_id,
    param_name: cl_kernel_sub_group_info,
    input_value_size: usize,
    input_value: *const c_void,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    guard(|| {
        // "CL_INVALID_KERNEL if kernel is a not a valid kernel object."
        let k = Obj::<KernelObj>::get(kernel)?;
        // "CL_INVALID_DEVICE if device is not in the list of devices associated with kernel or
        // if device is NULL but there is more than one device associated with kernel."
        if device.is_null() {
            if k.program.context.devices.len() != 1 {
                return Err(CL_INVALID_DEVICE);
            }
        } else {
            let d = Obj::<DeviceObj>::get(device)?;
            if !k.program.context.has_device(&d) {
                return Err(CL_INVALID_DEVICE);
            }
        }
        let dev = k.program.context.context.device();
        // "CL_INVALID_OPERATION if device does not support sub-groups."
        if !dev.sub_groups() {
            return Err(CL_INVALID_OPERATION);
        }
        let sub_group_size = dev.sub_group_size();
        let value = match param_name {
            // Input: the local work size of the intended dispatch (1 to 3 dimensions).
            CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE => {
                // SAFETY: `input_value_size` readable bytes.
                let local = unsafe { input_sizes(input_value, input_value_size, 3) }?;
                let items: usize = local.iter().product();
                InfoValue::usize(sub_group_size.min(items.max(1)))
            }
            CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE => {
                // SAFETY: as above.
                let local = unsafe { input_sizes(input_value, input_value_size, 3) }?;
                let items: usize = local.iter().product();
                InfoValue::usize(items.div_ceil(sub_group_size))
            }
            // Input: one size_t, the sub-group count; the output's dimensions come from
            // param_value_size.
            CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT => {
                // SAFETY: as above.
                let count = unsafe { input_sizes(input_value, input_value_size, 1) }?[0];
                let dims = (param_value_size / SIZE_T).clamp(1, 3);
                InfoValue::pod(&local_size_for_sub_group_count(&k, count, dims))
            }
            CL_KERNEL_MAX_NUM_SUB_GROUPS => {
                InfoValue::usize(kernel_work_group_size(&k) / sub_group_size)
            }
            // "the number of sub-groups per work-group specified in the kernel source or IL. If
            // the sub-group count is not specified then 0 is returned."
            CL_KERNEL_COMPILE_NUM_SUB_GROUPS => InfoValue::usize(k.kernel.compile_num_sub_groups()),
            // "CL_INVALID_VALUE if param_name is not one of the supported values".
            _ => return Err(CL_INVALID_VALUE),
        };
        // SAFETY: the caller's buffers.
        unsafe {
            answer(
                Ok(value),
                param_value_size,
                param_value,
                param_value_size_ret,
            )
        }
    })
}

/// `clGetKernelSubGroupInfoKHR` (`cl_khr_subgroups`): the core function.
pub unsafe extern "C" fn clGetKernelSubGroupInfoKHR(
    kernel: cl_kernel,
    device: cl_device_id,
    param_name: cl_kernel_sub_group_info,
    input_value_size: usize,
    input_value: *const c_void,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    // SAFETY: the same contract.
    unsafe {
        clGetKernelSubGroupInfo(
            kernel,
            device,
            param_name,
            input_value_size,
            input_value,
            param_value_size,
            param_value,
            param_value_size_ret,
        )
    }
}
