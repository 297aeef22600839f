//! More of what the device reports (API 4.2 "Querying Devices"), kept beside [`Device`] so the
//! C API's `clGetDeviceInfo` and the CLI's `oxcl info` give the same answers.

use crate::buffer::BUFFER_ALIGN;
use crate::Device;

impl Device {
    /// `CL_DEVICE_MAX_PARAMETER_SIZE`: the full-profile minimum (arguments are copied, so any
    /// size up to this works).
    pub fn max_parameter_size(&self) -> usize {
        1024
    }

    /// `CL_DEVICE_MEM_BASE_ADDR_ALIGN`, in bits: buffers are [`BUFFER_ALIGN`]-byte aligned.
    pub fn mem_base_addr_align_bits(&self) -> u32 {
        (BUFFER_ALIGN * 8) as u32
    }

    /// `CL_DEVICE_MAX_CONSTANT_ARGS`: the full-profile minimum.
    pub fn max_constant_args(&self) -> u32 {
        8
    }

    /// `CL_DEVICE_PRINTF_BUFFER_SIZE`: the full-profile minimum, 1 MiB.
    pub fn printf_buffer_size(&self) -> usize {
        1 << 20
    }

    /// `CL_DEVICE_IMAGE_SUPPORT`: the [`Device::image_support`] switch.
    pub fn image_support(&self) -> bool {
        self.image_support
    }

    /// `CL_DEVICE_PIPE_SUPPORT`: pipes run on both engines (`exec::pipe`); the
    /// `__opencl_c_pipes` feature is claimed with them.
    pub fn pipe_support(&self) -> bool {
        self.features.iter().any(|f| f == "__opencl_c_pipes")
    }

    /// `CL_DEVICE_MAX_PIPE_ARGS`, `CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS` and
    /// `CL_DEVICE_PIPE_MAX_PACKET_SIZE` (0 without pipe support, as API 4.2 says).
    pub fn pipe_limits(&self) -> (u32, u32, u32) {
        if self.pipe_support() {
            (
                crate::MAX_PIPE_ARGS,
                crate::PIPE_MAX_ACTIVE_RESERVATIONS,
                crate::PIPE_MAX_PACKET_SIZE,
            )
        } else {
            (0, 0, 0)
        }
    }

    /// `CL_DEVICE_QUEUE_ON_HOST_PROPERTIES`: out-of-order execution and profiling (as
    /// `(out_of_order, profiling)`).
    pub fn queue_properties(&self) -> (bool, bool) {
        (true, true)
    }

    /// Fine-grained system SVM (`CL_DEVICE_SVM_FINE_GRAIN_SYSTEM`): kernels follow any host
    /// address the process has mapped (`exec::SvmSpace::with_system_memory`), so `malloc`ed
    /// memory, the stack and static data are SVM memory.
    pub fn fine_grain_system_svm(&self) -> bool {
        true
    }

    /// `CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT`: the runtime runs partial work-groups.
    pub fn non_uniform_work_groups(&self) -> bool {
        true
    }

    /// `CL_DEVICE_NUMERIC_VERSION` as (major, minor, patch).
    pub fn numeric_version(&self) -> (u32, u32, u32) {
        (3, 0, 0)
    }

    /// `CL_DEVICE_OPENCL_C_ALL_VERSIONS`: the OpenCL C versions `-cl-std` accepts, as
    /// (major, minor). OpenCL C 2.0 is listed only while the device has every feature that
    /// 2.0 made mandatory and 3.0 optional (OpenCL C 3.0 "Unified Specification": "compilers
    /// for OpenCL C 2.0 will provide these features").
    pub fn opencl_c_all_versions(&self) -> Vec<(u32, u32)> {
        const MANDATORY_IN_2_0: [&str; 9] = [
            "__opencl_c_generic_address_space",
            "__opencl_c_pipes",
            "__opencl_c_device_enqueue",
            "__opencl_c_program_scope_global_variables",
            "__opencl_c_work_group_collective_functions",
            "__opencl_c_atomic_order_acq_rel",
            "__opencl_c_atomic_order_seq_cst",
            "__opencl_c_atomic_scope_device",
            "__opencl_c_atomic_scope_all_devices",
        ];
        let has = |name: &str| self.features.iter().any(|f| f == name);
        // Read-write images and 3D image writes were mandatory in 2.0 for devices with images.
        let images_ok = !has("__opencl_c_images")
            || (has("__opencl_c_read_write_images") && has("__opencl_c_3d_image_writes"));
        let mut versions = vec![(1, 0), (1, 1), (1, 2)];
        if images_ok && MANDATORY_IN_2_0.iter().all(|f| has(f)) {
            versions.push((2, 0));
        }
        versions.push((3, 0));
        versions
    }

    /// The SPIR-V versions of [`Device::il_version`], as (major, minor).
    pub fn il_versions(&self) -> Vec<(u32, u32)> {
        self.il_version()
            .split_whitespace()
            .filter_map(|v| {
                let (major, minor) = v.strip_prefix("SPIR-V_")?.split_once('.')?;
                Some((major.parse().ok()?, minor.parse().ok()?))
            })
            .collect()
    }

    /// `CL_DEVICE_MAX_CLOCK_FREQUENCY` in MHz, from sysfs or /proc/cpuinfo (0 when unknown).
    pub fn max_clock_mhz(&self) -> u32 {
        std::fs::read_to_string("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq")
            .ok()
            .and_then(|s| s.trim().parse::<u64>().ok())
            .map(|khz| (khz / 1000) as u32)
            .or_else(|| {
                let text = std::fs::read_to_string("/proc/cpuinfo").ok()?;
                let line = text.lines().find(|l| l.starts_with("cpu MHz"))?;
                line.split_once(':')?
                    .1
                    .trim()
                    .parse::<f64>()
                    .ok()
                    .map(|mhz| mhz as u32)
            })
            .unwrap_or(0)
    }

    /// `CL_DEVICE_GLOBAL_MEM_CACHE_SIZE`: the last-level cache, from sysfs (0 when unknown).
    pub fn global_mem_cache_size(&self) -> u64 {
        (0..8)
            .rev()
            .filter_map(|i| {
                std::fs::read_to_string(format!("/sys/devices/system/cpu/cpu0/cache/index{i}/size"))
                    .ok()
            })
            .find_map(|s| {
                let s = s.trim();
                let (digits, scale) = match (s.strip_suffix('K'), s.strip_suffix('M')) {
                    (Some(d), _) => (d, 1024),
                    (_, Some(d)) => (d, 1 << 20),
                    _ => (s, 1),
                };
                digits.parse::<u64>().ok().map(|n| n * scale)
            })
            .unwrap_or(0)
    }

    /// `CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE`.
    pub fn global_mem_cacheline_size(&self) -> u32 {
        64
    }

    /// `CL_DEVICE_MAX_NAMED_BARRIER_COUNT_KHR` (cl_khr_subgroup_named_barrier; both engines
    /// run named barriers, `exec::named_barrier`), 0 when the extension is not claimed.
    pub fn max_named_barrier_count(&self) -> u32 {
        if self.has_extension("cl_khr_subgroup_named_barrier") {
            exec::named_barrier::MAX_NAMED_BARRIERS
        } else {
            0
        }
    }

    /// Sub-groups are claimed (`cl_khr_subgroups`, `__opencl_c_subgroups`).
    pub fn sub_groups(&self) -> bool {
        self.has_extension("cl_khr_subgroups")
    }

    /// The sub-group size of every kernel: each work-item is its own sub-group (the engines
    /// run sub-groups of one work-item; `kir::lower::subgroup`).
    pub fn sub_group_size(&self) -> usize {
        1
    }

    /// `CL_DEVICE_MAX_NUM_SUB_GROUPS`: a work-group of the largest size has one sub-group per
    /// work-item.
    pub fn max_num_sub_groups(&self) -> u32 {
        if self.sub_groups() {
            (self.max_work_group_size / self.sub_group_size()) as u32
        } else {
            0
        }
    }
}
