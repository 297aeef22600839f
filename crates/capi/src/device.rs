//! Devices (API 4.2, 4.3): `clGetDeviceIDs`, `clGetDeviceInfo` (every OpenCL 3.0 query, with
//! what is true of oxcl), sub-devices and the device timers.
//!
//! Sub-devices (API 4.3, `clCreateSubDevices`): a device partitions `CL_DEVICE_PARTITION_EQUALLY`
//! or `CL_DEVICE_PARTITION_BY_COUNTS` into devices with fewer compute units (worker threads:
//! a queue on a sub-device runs kernels on that many threads). They can be partitioned again,
//! are reference counted (root devices are not) and keep their parent alive.

use std::ffi::c_void;
use std::sync::Arc;

use crate::consts::*;
use crate::entry::guard;
use crate::handle::{ClObject, Kind, Obj};
use crate::info::{write_info, InfoValue};
use crate::platform::{check_platform, devices, platform};
use crate::types::*;
use runtime::device_queue::{
    MAX_ON_DEVICE_EVENTS, MAX_ON_DEVICE_QUEUES, QUEUE_ON_DEVICE_MAX_SIZE,
    QUEUE_ON_DEVICE_PREFERRED_SIZE,
};

pub struct DeviceObj {
    pub device: Arc<runtime::Device>,
    /// The device this one was partitioned from (`None` for the root device).
    pub parent: Option<Arc<Obj<DeviceObj>>>,
    /// `CL_DEVICE_PARTITION_TYPE`: the properties of that partition, terminator included.
    pub partition: Vec<cl_device_partition_property>,
}

impl DeviceObj {
    /// The root device of the platform.
    pub fn root(device: Arc<runtime::Device>) -> DeviceObj {
        DeviceObj {
            device,
            parent: None,
            partition: Vec::new(),
        }
    }

    pub fn is_sub_device(&self) -> bool {
        self.parent.is_some()
    }
}

impl ClObject for DeviceObj {
    const KIND: Kind = Kind::Device;
    const INVALID: i32 = CL_INVALID_DEVICE;
}

/// Every device type bit the API defines.
const DEVICE_TYPES: u64 = CL_DEVICE_TYPE_DEFAULT
    | CL_DEVICE_TYPE_CPU
    | CL_DEVICE_TYPE_GPU
    | CL_DEVICE_TYPE_ACCELERATOR
    | CL_DEVICE_TYPE_CUSTOM;

/// Does the device type mask select oxcl's CPU device?
pub fn type_matches(device_type: cl_device_type) -> Result<bool, i32> {
    // API 4.2: "CL_INVALID_DEVICE_TYPE if device_type is not a valid value."
    if device_type != CL_DEVICE_TYPE_ALL && device_type & !DEVICE_TYPES != 0 {
        return Err(CL_INVALID_DEVICE_TYPE);
    }
    Ok(device_type == CL_DEVICE_TYPE_ALL
        || device_type & (CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_DEFAULT) != 0)
}

/// `clGetDeviceIDs` (API 4.2).
pub unsafe extern "C" fn clGetDeviceIDs(
    platform_id: cl_platform_id,
    device_type: cl_device_type,
    num_entries: cl_uint,
    out_devices: *mut cl_device_id,
    num_devices: *mut cl_uint,
) -> cl_int {
    guard(|| {
        // "CL_INVALID_PLATFORM if platform is not a valid platform."
        check_platform(platform_id)?;
        let selected = type_matches(device_type)?;
        // "CL_INVALID_VALUE if num_entries is equal to zero and devices is not NULL or if both
        // num_devices and devices are NULL."
        if (num_entries == 0 && !out_devices.is_null())
            || (num_devices.is_null() && out_devices.is_null())
        {
            return Err(CL_INVALID_VALUE);
        }
        // "CL_DEVICE_NOT_FOUND if no OpenCL devices that matched device_type were found."
        if !selected {
            return Err(CL_DEVICE_NOT_FOUND);
        }
        let all = devices();
        if !out_devices.is_null() {
            for (i, device) in all.iter().take(num_entries as usize).enumerate() {
                // SAFETY: `out_devices` holds `num_entries` entries.
                unsafe { *out_devices.add(i) = Obj::handle(device) };
            }
        }
        if !num_devices.is_null() {
            // SAFETY: a writable cl_uint.
            unsafe { *num_devices = all.len() as u32 };
        }
        Ok(())
    })
}

/// The atomic orders and scopes the device's features give (API 4.2
/// `CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES`; relaxed order and work-group scope are the minimum).
fn atomic_capabilities(device: &runtime::Device, fence: bool) -> u64 {
    let has = |f: &str| device.features.iter().any(|x| x == f);
    let mut caps = CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP;
    if fence {
        // Fences: acquire-release is the minimum too, and work-item scope is for image fences.
        caps |= CL_DEVICE_ATOMIC_ORDER_ACQ_REL;
    }
    for (feature, bit) in [
        (
            "__opencl_c_atomic_order_acq_rel",
            CL_DEVICE_ATOMIC_ORDER_ACQ_REL,
        ),
        (
            "__opencl_c_atomic_order_seq_cst",
            CL_DEVICE_ATOMIC_ORDER_SEQ_CST,
        ),
        (
            "__opencl_c_atomic_scope_device",
            CL_DEVICE_ATOMIC_SCOPE_DEVICE,
        ),
        (
            "__opencl_c_atomic_scope_all_devices",
            CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES,
        ),
    ] {
        if has(feature) {
            caps |= bit;
        }
    }
    caps
}

/// The value of one `clGetDeviceInfo` query.
fn device_info(obj: &Arc<Obj<DeviceObj>>, param_name: cl_device_info) -> Result<InfoValue, i32> {
    let d = &*obj.device;
    let has_fp64 = d.has_extension("cl_khr_fp64");
    let has_fp16 = d.has_extension("cl_khr_fp16");
    let v = match param_name {
        CL_DEVICE_TYPE => InfoValue::u64(CL_DEVICE_TYPE_CPU),
        CL_DEVICE_VENDOR_ID => InfoValue::u32(0),
        CL_DEVICE_MAX_COMPUTE_UNITS => InfoValue::u32(d.compute_units),
        CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS => InfoValue::u32(3),
        CL_DEVICE_MAX_WORK_GROUP_SIZE => InfoValue::usize(d.max_work_group_size),
        CL_DEVICE_MAX_WORK_ITEM_SIZES => InfoValue::pod(&d.max_work_item_sizes),
        // The interpreter runs one work-item at a time: scalars are as fast as vectors.
        CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR
        | CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT
        | CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT
        | CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG
        | CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT
        | CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR
        | CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT
        | CL_DEVICE_NATIVE_VECTOR_WIDTH_INT
        | CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG
        | CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT => InfoValue::u32(1),
        // "If double precision is not supported, CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE must return 0."
        CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE | CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE => {
            InfoValue::u32(has_fp64 as u32)
        }
        // 0 without cl_khr_fp16 (API 4.2).
        CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF | CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF => {
            InfoValue::u32(has_fp16 as u32)
        }
        CL_DEVICE_MAX_CLOCK_FREQUENCY => InfoValue::u32(d.max_clock_mhz()),
        CL_DEVICE_ADDRESS_BITS => InfoValue::u32(d.address_bits),
        CL_DEVICE_MAX_MEM_ALLOC_SIZE => InfoValue::u64(d.max_mem_alloc_size),
        // The image limits are those of the device with image support, 0 without ("If
        // CL_DEVICE_IMAGE_SUPPORT is CL_FALSE, the value is 0" for the limits whose minimum
        // applies only to devices that support images).
        CL_DEVICE_IMAGE_SUPPORT => InfoValue::bool(d.image_support()),
        CL_DEVICE_MAX_READ_IMAGE_ARGS => InfoValue::u32(image_limit(d, |l| l.max_read_image_args)),
        CL_DEVICE_MAX_WRITE_IMAGE_ARGS => {
            InfoValue::u32(image_limit(d, |l| l.max_write_image_args))
        }
        CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS => {
            InfoValue::u32(image_limit(d, |l| l.max_read_write_image_args))
        }
        CL_DEVICE_IMAGE2D_MAX_WIDTH => InfoValue::usize(image_limit(d, |l| l.image2d_max_width)),
        CL_DEVICE_IMAGE2D_MAX_HEIGHT => InfoValue::usize(image_limit(d, |l| l.image2d_max_height)),
        CL_DEVICE_IMAGE3D_MAX_WIDTH => InfoValue::usize(image_limit(d, |l| l.image3d_max_width)),
        CL_DEVICE_IMAGE3D_MAX_HEIGHT => InfoValue::usize(image_limit(d, |l| l.image3d_max_height)),
        CL_DEVICE_IMAGE3D_MAX_DEPTH => InfoValue::usize(image_limit(d, |l| l.image3d_max_depth)),
        CL_DEVICE_IMAGE_MAX_BUFFER_SIZE => {
            InfoValue::usize(image_limit(d, |l| l.image_max_buffer_size))
        }
        CL_DEVICE_IMAGE_MAX_ARRAY_SIZE => {
            InfoValue::usize(image_limit(d, |l| l.image_max_array_size))
        }
        CL_DEVICE_MAX_SAMPLERS => InfoValue::u32(image_limit(d, |l| l.max_samplers)),
        CL_DEVICE_IMAGE_PITCH_ALIGNMENT => InfoValue::u32(image_limit(d, |l| l.pitch_alignment)),
        CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT => {
            InfoValue::u32(image_limit(d, |l| l.base_address_alignment))
        }
        // The full-profile minimum; arguments are copied, so any size works up to this.
        CL_DEVICE_MAX_PARAMETER_SIZE => InfoValue::usize(d.max_parameter_size()),
        CL_DEVICE_MEM_BASE_ADDR_ALIGN => InfoValue::u32(d.mem_base_addr_align_bits()),
        // Deprecated by 1.2: the alignment in bytes.
        CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE => InfoValue::u32(d.mem_base_addr_align_bits() / 8),
        CL_DEVICE_SINGLE_FP_CONFIG => {
            InfoValue::u64(CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST | CL_FP_FMA)
        }
        // cl_khr_fp16: `half` operations are computed in `f32` and rounded once, which is
        // correctly rounded for +, -, ×, ÷ and sqrt (24 ≥ 2 × 11 + 2 bits), with subnormals,
        // infinities and NaNs; `fma` is fused (devlib's exact double-double sum).
        CL_DEVICE_HALF_FP_CONFIG if has_fp16 => {
            InfoValue::u64(CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST | CL_FP_FMA)
        }
        // API 4.2: the minimum double precision capability.
        CL_DEVICE_DOUBLE_FP_CONFIG => InfoValue::u64(if has_fp64 {
            CL_FP_FMA | CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN | CL_FP_DENORM
        } else {
            0
        }),
        CL_DEVICE_GLOBAL_MEM_CACHE_TYPE => InfoValue::u32(CL_READ_WRITE_CACHE),
        CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE => InfoValue::u32(d.global_mem_cacheline_size()),
        CL_DEVICE_GLOBAL_MEM_CACHE_SIZE => InfoValue::u64(d.global_mem_cache_size()),
        CL_DEVICE_GLOBAL_MEM_SIZE => InfoValue::u64(d.global_mem_size),
        CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE => InfoValue::u64(d.max_constant_buffer_size),
        CL_DEVICE_MAX_CONSTANT_ARGS => InfoValue::u32(d.max_constant_args()),
        // Local memory is ordinary host memory.
        CL_DEVICE_LOCAL_MEM_TYPE => InfoValue::u32(CL_GLOBAL),
        CL_DEVICE_LOCAL_MEM_SIZE => InfoValue::u64(d.local_mem_size),
        CL_DEVICE_ERROR_CORRECTION_SUPPORT => InfoValue::bool(false),
        // Event times are nanoseconds of a monotonic clock.
        CL_DEVICE_PROFILING_TIMER_RESOLUTION => InfoValue::usize(1),
        CL_DEVICE_ENDIAN_LITTLE => InfoValue::bool(cfg!(target_endian = "little")),
        CL_DEVICE_AVAILABLE | CL_DEVICE_COMPILER_AVAILABLE | CL_DEVICE_LINKER_AVAILABLE => {
            InfoValue::bool(true)
        }
        // Native kernels: `native.rs`.
        CL_DEVICE_EXECUTION_CAPABILITIES => InfoValue::u64(CL_EXEC_KERNEL | CL_EXEC_NATIVE_KERNEL),
        // Profiling and out-of-order queues (CL_DEVICE_QUEUE_PROPERTIES is the same query).
        CL_DEVICE_QUEUE_ON_HOST_PROPERTIES => InfoValue::u64(crate::queue::supported_properties(d)),
        // Device queues (runtime::device_queue), all 0 without device-side enqueue (API 4.2).
        CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES => InfoValue::u64(if d.device_enqueue() {
            CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE
        } else {
            0
        }),
        CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE => {
            InfoValue::u32(device_enqueue_limit(d, QUEUE_ON_DEVICE_PREFERRED_SIZE))
        }
        CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE => {
            InfoValue::u32(device_enqueue_limit(d, QUEUE_ON_DEVICE_MAX_SIZE))
        }
        CL_DEVICE_MAX_ON_DEVICE_QUEUES => {
            InfoValue::u32(device_enqueue_limit(d, MAX_ON_DEVICE_QUEUES))
        }
        CL_DEVICE_MAX_ON_DEVICE_EVENTS => {
            InfoValue::u32(device_enqueue_limit(d, MAX_ON_DEVICE_EVENTS))
        }
        // cl_khr_subgroup_named_barrier.
        CL_DEVICE_MAX_NAMED_BARRIER_COUNT_KHR
            if d.has_extension("cl_khr_subgroup_named_barrier") =>
        {
            InfoValue::u32(d.max_named_barrier_count())
        }
        CL_DEVICE_NAME => InfoValue::str(&d.name),
        CL_DEVICE_VENDOR => InfoValue::str(d.vendor()),
        CL_DRIVER_VERSION => InfoValue::str(env!("CARGO_PKG_VERSION")),
        CL_DEVICE_PROFILE => InfoValue::str("FULL_PROFILE"),
        CL_DEVICE_VERSION => InfoValue::str(&d.version()),
        CL_DEVICE_NUMERIC_VERSION => {
            let (major, minor, patch) = d.numeric_version();
            InfoValue::u32(make_version(major, minor, patch))
        }
        CL_DEVICE_OPENCL_C_VERSION => InfoValue::str(d.opencl_c_version()),
        CL_DEVICE_OPENCL_C_ALL_VERSIONS => {
            let list: Vec<(&str, u32)> = d
                .opencl_c_all_versions()
                .iter()
                .map(|&(ma, mi)| ("OpenCL C", make_version(ma, mi, 0)))
                .collect();
            InfoValue::name_versions(&list)
        }
        CL_DEVICE_OPENCL_C_FEATURES => {
            let list: Vec<(&str, u32)> = d
                .features
                .iter()
                .map(|f| (f.as_str(), make_version(3, 0, 0)))
                .collect();
            InfoValue::name_versions(&list)
        }
        CL_DEVICE_EXTENSIONS => InfoValue::str(&d.extensions.join(" ")),
        CL_DEVICE_EXTENSIONS_WITH_VERSION => {
            let list: Vec<(&str, u32)> = d
                .extensions
                .iter()
                .map(|e| (e.as_str(), make_version(1, 0, 0)))
                .collect();
            InfoValue::name_versions(&list)
        }
        CL_DEVICE_IL_VERSION => InfoValue::str(d.il_version()),
        CL_DEVICE_ILS_WITH_VERSION => {
            let list: Vec<(&str, u32)> = d
                .il_versions()
                .iter()
                .map(|&(ma, mi)| ("SPIR-V", make_version(ma, mi, 0)))
                .collect();
            InfoValue::name_versions(&list)
        }
        CL_DEVICE_BUILT_IN_KERNELS => InfoValue::str(""),
        CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION => InfoValue::empty(),
        CL_DEVICE_PLATFORM => InfoValue::ptr(Obj::handle(platform())),
        CL_DEVICE_HOST_UNIFIED_MEMORY => InfoValue::bool(true),
        CL_DEVICE_PARENT_DEVICE => InfoValue::ptr(
            obj.parent
                .as_ref()
                .map_or(std::ptr::null_mut(), Obj::handle),
        ),
        // At most one sub-device per compute unit.
        CL_DEVICE_PARTITION_MAX_SUB_DEVICES => InfoValue::u32(d.compute_units),
        CL_DEVICE_PARTITION_PROPERTIES => InfoValue::pod(&PARTITION_PROPERTIES),
        // No partition by affinity domain.
        CL_DEVICE_PARTITION_AFFINITY_DOMAIN => InfoValue::u64(0),
        // "If device is a root-level device ... param_value_size_ret may be 0."
        CL_DEVICE_PARTITION_TYPE if obj.is_sub_device() => InfoValue::pod(&obj.partition),
        CL_DEVICE_PARTITION_TYPE => InfoValue::empty(),
        // "The reference count returned ... for a root-level device ... is 1" (it is not
        // counted).
        CL_DEVICE_REFERENCE_COUNT if obj.is_sub_device() => InfoValue::u32(obj.ref_count()),
        CL_DEVICE_REFERENCE_COUNT => InfoValue::u32(1),
        CL_DEVICE_PREFERRED_INTEROP_USER_SYNC => InfoValue::bool(true),
        CL_DEVICE_PRINTF_BUFFER_SIZE => InfoValue::usize(d.printf_buffer_size()),
        CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE => InfoValue::usize(d.max_global_variable_size()),
        CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE => {
            InfoValue::usize(d.global_variable_preferred_total_size())
        }
        CL_DEVICE_SVM_CAPABILITIES => InfoValue::u64(crate::svm::SVM_CAPABILITIES),
        CL_DEVICE_MAX_PIPE_ARGS => InfoValue::u32(d.pipe_limits().0),
        CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS => InfoValue::u32(d.pipe_limits().1),
        CL_DEVICE_PIPE_MAX_PACKET_SIZE => InfoValue::u32(d.pipe_limits().2),
        CL_DEVICE_PIPE_SUPPORT => InfoValue::bool(d.pipe_support()),
        // 0: natural alignment.
        CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT
        | CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT
        | CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT => InfoValue::u32(0),
        CL_DEVICE_MAX_NUM_SUB_GROUPS => InfoValue::u32(d.max_num_sub_groups()),
        CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS => InfoValue::bool(false),
        CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES => InfoValue::u64(atomic_capabilities(d, false)),
        CL_DEVICE_ATOMIC_FENCE_CAPABILITIES => InfoValue::u64(atomic_capabilities(d, true)),
        CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT => InfoValue::bool(d.non_uniform_work_groups()),
        CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE => InfoValue::usize(1),
        CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT => InfoValue::bool(
            d.features
                .iter()
                .any(|f| f == "__opencl_c_work_group_collective_functions"),
        ),
        CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT => InfoValue::bool(
            d.features
                .iter()
                .any(|f| f == "__opencl_c_generic_address_space"),
        ),
        CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES => InfoValue::u64(if d.device_enqueue() {
            CL_DEVICE_QUEUE_SUPPORTED | CL_DEVICE_QUEUE_REPLACEABLE_DEFAULT
        } else {
            0
        }),
        // Not a conformant implementation (yet).
        CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED => InfoValue::str("v0000-01-01-00"),
        // "CL_INVALID_VALUE if param_name is not one of the supported values".
        _ => return Err(CL_INVALID_VALUE),
    };
    Ok(v)
}

/// `clGetDeviceInfo` (API 4.2).
pub unsafe extern "C" fn clGetDeviceInfo(
    device: cl_device_id,
    param_name: cl_device_info,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> cl_int {
    guard(|| {
        // "CL_INVALID_DEVICE if device is not a valid device."
        let obj = Obj::<DeviceObj>::get(device)?;
        let value = device_info(&obj, param_name);
        // SAFETY: the caller's buffers.
        match unsafe { write_info(value, param_value_size, param_value, param_value_size_ret) } {
            CL_SUCCESS => Ok(()),
            e => Err(e),
        }
    })
}

/// `CL_DEVICE_PARTITION_PROPERTIES`: the partition types `clCreateSubDevices` takes.
const PARTITION_PROPERTIES: [cl_device_partition_property; 2] = [
    CL_DEVICE_PARTITION_EQUALLY as cl_device_partition_property,
    CL_DEVICE_PARTITION_BY_COUNTS as cl_device_partition_property,
];

/// The compute units of each sub-device a partition makes of a device with `units`, or the
/// error code `clCreateSubDevices` gives; also the properties as they are stored
/// (`CL_DEVICE_PARTITION_TYPE`, terminator included).
///
/// # Safety
/// `properties` must be null or a list terminated as API 4.3 specifies.
unsafe fn partition(
    properties: *const cl_device_partition_property,
    units: u32,
) -> Result<(Vec<u32>, Vec<cl_device_partition_property>), i32> {
    // "CL_INVALID_VALUE if values specified in properties are not valid or if values
    // specified in properties are valid but not supported by the device."
    if properties.is_null() {
        return Err(CL_INVALID_VALUE);
    }
    // SAFETY: the caller's list: a partition type and its values.
    let at = |i: usize| unsafe { *properties.add(i) };
    let kind = at(0);
    if kind == CL_DEVICE_PARTITION_EQUALLY as cl_device_partition_property {
        // "Split the aggregate device into as many smaller aggregate devices as can be
        // created, each containing n compute units ... the remaining compute units are not
        // used."
        let n = at(1);
        if at(2) != 0 || n <= 0 {
            return Err(CL_INVALID_VALUE);
        }
        // "CL_DEVICE_PARTITION_FAILED if the partition name is supported by the
        // implementation but in_device could not be further partitioned."
        if n as u64 > units as u64 {
            return Err(CL_DEVICE_PARTITION_FAILED);
        }
        let count = units / n as u32;
        Ok((vec![n as u32; count as usize], vec![kind, n, 0]))
    } else if kind == CL_DEVICE_PARTITION_BY_COUNTS as cl_device_partition_property {
        // "a list of compute unit counts terminated with
        // CL_DEVICE_PARTITION_BY_COUNTS_LIST_END".
        let mut counts = Vec::new();
        let mut i = 1;
        loop {
            let c = at(i);
            i += 1;
            if c == CL_DEVICE_PARTITION_BY_COUNTS_LIST_END as cl_device_partition_property {
                break;
            }
            // "CL_INVALID_DEVICE_PARTITION_COUNT if ... the number of compute units requested
            // for one or more sub-devices is less than zero or the number of sub-devices
            // requested exceeds CL_DEVICE_PARTITION_MAX_SUB_DEVICES" (a sub-device of no
            // compute unit could run nothing either).
            if c <= 0 || c as u64 > units as u64 || counts.len() >= units as usize {
                return Err(CL_INVALID_DEVICE_PARTITION_COUNT);
            }
            counts.push(c as u32);
        }
        if at(i) != 0 {
            return Err(CL_INVALID_VALUE);
        }
        // "... or the total number of compute units requested exceeds
        // CL_DEVICE_MAX_COMPUTE_UNITS for in_device".
        let total: u64 = counts.iter().map(|&c| c as u64).sum();
        if counts.is_empty() || total > units as u64 {
            return Err(CL_INVALID_DEVICE_PARTITION_COUNT);
        }
        let mut stored = vec![kind];
        stored.extend(counts.iter().map(|&c| c as cl_device_partition_property));
        stored.extend([
            CL_DEVICE_PARTITION_BY_COUNTS_LIST_END as cl_device_partition_property,
            0,
        ]);
        Ok((counts, stored))
    } else {
        Err(CL_INVALID_VALUE)
    }
}

/// `clCreateSubDevices` (API 4.3).
pub unsafe extern "C" fn clCreateSubDevices(
    in_device: cl_device_id,
    properties: *const cl_device_partition_property,
    num_devices: cl_uint,
    out_devices: *mut cl_device_id,
    num_devices_ret: *mut cl_uint,
) -> cl_int {
    guard(|| {
        // "CL_INVALID_DEVICE if in_device is not a valid device."
        let parent = Obj::<DeviceObj>::get(in_device)?;
        // SAFETY: the caller's property list.
        let (units, stored) = unsafe { partition(properties, parent.device.compute_units) }?;
        // "CL_INVALID_VALUE if out_devices is not NULL and num_devices is less than the number
        // of sub-devices created by the partition scheme."
        if !out_devices.is_null() && (num_devices as usize) < units.len() {
            return Err(CL_INVALID_VALUE);
        }
        if !out_devices.is_null() {
            for (i, &n) in units.iter().enumerate() {
                let mut device = (*parent.device).clone();
                device.compute_units = n;
                let sub = Obj::create(DeviceObj {
                    device: Arc::new(device),
                    parent: Some(parent.clone()),
                    partition: stored.clone(),
                });
                // SAFETY: `out_devices` holds at least `units.len()` entries (checked above).
                unsafe { *out_devices.add(i) = Obj::into_handle(sub) };
            }
        }
        if !num_devices_ret.is_null() {
            // SAFETY: a writable cl_uint.
            unsafe { *num_devices_ret = units.len() as cl_uint };
        }
        Ok(())
    })
}

/// `clRetainDevice`: counts references of sub-devices; "the reference count of a root-level
/// device remains unchanged".
pub unsafe extern "C" fn clRetainDevice(device: cl_device_id) -> cl_int {
    guard(|| {
        if Obj::<DeviceObj>::get(device)?.is_sub_device() {
            match Obj::<DeviceObj>::retain(device) {
                CL_SUCCESS => Ok(()),
                e => Err(e),
            }
        } else {
            Ok(())
        }
    })
}

/// `clReleaseDevice`: as `clRetainDevice`; a sub-device whose count reaches 0 is gone once no
/// context or queue uses it.
pub unsafe extern "C" fn clReleaseDevice(device: cl_device_id) -> cl_int {
    guard(|| {
        if Obj::<DeviceObj>::get(device)?.is_sub_device() {
            match Obj::<DeviceObj>::release(device) {
                CL_SUCCESS => Ok(()),
                e => Err(e),
            }
        } else {
            Ok(())
        }
    })
}

/// `clGetHostTimer` (API 4.3): the host clock, which is also the device clock.
pub unsafe extern "C" fn clGetHostTimer(
    device: cl_device_id,
    host_timestamp: *mut cl_ulong,
) -> cl_int {
    guard(|| {
        Obj::<DeviceObj>::get(device)?;
        // "CL_INVALID_VALUE if host_timestamp is NULL."
        if host_timestamp.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        // SAFETY: a writable cl_ulong.
        unsafe { *host_timestamp = runtime::commands::now() };
        Ok(())
    })
}

/// `clGetDeviceAndHostTimer` (API 4.3): one clock serves both.
pub unsafe extern "C" fn clGetDeviceAndHostTimer(
    device: cl_device_id,
    device_timestamp: *mut cl_ulong,
    host_timestamp: *mut cl_ulong,
) -> cl_int {
    guard(|| {
        Obj::<DeviceObj>::get(device)?;
        // "CL_INVALID_VALUE if host_timestamp or device_timestamp is NULL."
        if host_timestamp.is_null() || device_timestamp.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        let now = runtime::commands::now();
        // SAFETY: writable cl_ulongs.
        unsafe {
            *device_timestamp = now;
            *host_timestamp = now;
        }
        Ok(())
    })
}

/// An image limit of the device, 0 when it does not support images.
fn image_limit<T: Default>(d: &runtime::Device, f: impl Fn(&runtime::ImageLimits) -> T) -> T {
    if d.image_support() {
        f(&d.image_limits)
    } else {
        T::default()
    }
}

/// A device queue limit, or 0 when the device has no device-side enqueue.
fn device_enqueue_limit(d: &runtime::Device, limit: u32) -> u32 {
    if d.device_enqueue() {
        limit
    } else {
        0
    }
}
