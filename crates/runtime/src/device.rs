//! The platform and its one device, the CPU this process runs on.
//!
//! Everything the device reports is in one place, [`Device`]; the compiler's target and the
//! validator's environment are derived from it, so what the device claims is what the compiler
//! accepts and what the validator admits.

use std::sync::Arc;

/// The oxcl platform (API 4.1 "Querying Platform Info").
#[derive(Clone, Debug)]
pub struct Platform {
    device: Arc<Device>,
}

impl Platform {
    /// The platform, with the device sized to this machine.
    pub fn get() -> Platform {
        Platform {
            device: Arc::new(Device::host_cpu()),
        }
    }

    pub fn name(&self) -> &'static str {
        "oxcl"
    }

    pub fn vendor(&self) -> &'static str {
        "oxcl"
    }

    /// `OpenCL<space><major.minor><space><platform-specific information>`.
    pub fn version(&self) -> String {
        format!("OpenCL 3.0 oxcl {}", env!("CARGO_PKG_VERSION"))
    }

    pub fn profile(&self) -> &'static str {
        "FULL_PROFILE"
    }

    pub fn extensions(&self) -> &'static [&'static str] {
        &[]
    }

    /// The devices of the platform: one CPU device.
    pub fn devices(&self) -> Vec<Arc<Device>> {
        vec![self.device.clone()]
    }
}

/// The CPU device (API 4.2 "Querying Devices").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Device {
    pub name: String,
    /// `CL_DEVICE_MAX_COMPUTE_UNITS`: the cores available to this process.
    pub compute_units: u32,
    pub max_work_group_size: usize,
    pub max_work_item_sizes: [usize; 3],
    /// 64: pointers and `size_t` are 64-bit (SPIR-V Physical64).
    pub address_bits: u32,
    pub global_mem_size: u64,
    pub local_mem_size: u64,
    pub max_mem_alloc_size: u64,
    pub max_constant_buffer_size: u64,
    /// OpenCL extensions that work on this device.
    pub extensions: Vec<String>,
    /// OpenCL C 3.0 optional features that work on this device.
    pub features: Vec<String>,
    /// `CL_DEVICE_IMAGE_SUPPORT`: the one switch for images and samplers. On by default (both
    /// engines execute the image instructions); `OXCL_IMAGE_SUPPORT=0` (or `1`) in the
    /// environment overrides the default. When on, image objects can be created, the compiler
    /// defines `__IMAGE_SUPPORT__` and the `__opencl_c_images` features are reported.
    pub image_support: bool,
    /// The image limits (API 4.2), reported when [`Device::image_support`] is on.
    pub image_limits: ImageLimits,
}

/// Image limits of the device (API 4.2 "Querying Devices").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImageLimits {
    /// `CL_DEVICE_IMAGE2D_MAX_WIDTH` (also the limit of 1D images and arrays).
    pub image2d_max_width: usize,
    pub image2d_max_height: usize,
    pub image3d_max_width: usize,
    pub image3d_max_height: usize,
    pub image3d_max_depth: usize,
    /// `CL_DEVICE_IMAGE_MAX_BUFFER_SIZE`, in texels.
    pub image_max_buffer_size: usize,
    pub image_max_array_size: usize,
    pub max_samplers: u32,
    pub max_read_image_args: u32,
    pub max_write_image_args: u32,
    pub max_read_write_image_args: u32,
    /// `CL_DEVICE_IMAGE_PITCH_ALIGNMENT`, in pixels.
    pub pitch_alignment: u32,
    /// `CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT`, in pixels.
    pub base_address_alignment: u32,
}

impl ImageLimits {
    /// Limits for a CPU device: the full-profile minimums of the 2D/3D sizes and argument counts
    /// raised where host memory makes it free. Images are plain host memory read texel by texel,
    /// so no pitch or base alignment beyond one pixel is needed.
    fn host(max_mem_alloc_size: u64) -> ImageLimits {
        ImageLimits {
            image2d_max_width: 16384,
            image2d_max_height: 16384,
            image3d_max_width: 2048,
            image3d_max_height: 2048,
            image3d_max_depth: 2048,
            // Texels of at most 16 bytes must fit one allocation.
            image_max_buffer_size: (max_mem_alloc_size / 16).min(1 << 30) as usize,
            image_max_array_size: 2048,
            max_samplers: 16,
            max_read_image_args: 128,
            max_write_image_args: 64,
            max_read_write_image_args: 64,
            pitch_alignment: 1,
            base_address_alignment: 1,
        }
    }
}

/// Is image support on? `OXCL_IMAGE_SUPPORT=1`/`0` overrides the default (on).
fn image_support_from_env() -> bool {
    match std::env::var("OXCL_IMAGE_SUPPORT").as_deref() {
        Ok("1" | "true" | "on") => true,
        Ok("0" | "false" | "off") => false,
        _ => IMAGE_SUPPORT_DEFAULT,
    }
}

/// The default of [`Device::image_support`].
pub const IMAGE_SUPPORT_DEFAULT: bool = true;

impl Device {
    /// The device for this machine.
    pub fn host_cpu() -> Device {
        let compute_units = std::thread::available_parallelism().map_or(1, |n| n.get()) as u32;
        let global_mem_size = physical_memory().unwrap_or(4 << 30);
        let max_mem_alloc_size = (global_mem_size / 4).max(128 << 20);
        let mut device = Device {
            name: cpu_name().unwrap_or_else(|| "CPU".to_string()),
            compute_units,
            max_work_group_size: 1024,
            max_work_item_sizes: [1024, 1024, 1024],
            address_bits: 64,
            global_mem_size,
            local_mem_size: 64 << 10,
            max_mem_alloc_size,
            max_constant_buffer_size: 64 << 10,
            extensions: [
                "cl_khr_byte_addressable_store",
                // `half` arithmetic and every OpenCL.std function for `half` on both engines
                // (devlib `math::f16`, test `half_arithmetic`).
                "cl_khr_fp16",
                "cl_khr_fp64",
                // The 1.0 atomic extensions (core since 1.1; their `atom_*` names need them)
                // and the 64-bit atomics, on both engines (test `int64_atomics`).
                "cl_khr_global_int32_base_atomics",
                "cl_khr_global_int32_extended_atomics",
                "cl_khr_local_int32_base_atomics",
                "cl_khr_local_int32_extended_atomics",
                "cl_khr_int64_base_atomics",
                "cl_khr_int64_extended_atomics",
                "cl_khr_il_program",
                // Modules importing OpenCL.DebugInfo.100 validate and lower (the debug
                // instructions are ignored): kir/tests/lower_producers.rs.
                "cl_khr_spirv_extended_debug_info",
                "cl_khr_subgroups",
                // Named barriers of sub-groups of one work-item (`exec::named_barrier`).
                "cl_khr_subgroup_named_barrier",
            ]
            .iter()
            .map(|s| s.to_string())
            .collect(),
            // The memory orders and scopes are those of CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES and
            // CL_DEVICE_ATOMIC_FENCE_CAPABILITIES: a CPU provides all of them (host atomics and fences).
            features: [
                "__opencl_c_fp64",
                "__opencl_c_int64",
                "__opencl_c_generic_address_space",
                "__opencl_c_pipes",
                "__opencl_c_atomic_order_acq_rel",
                "__opencl_c_atomic_order_seq_cst",
                "__opencl_c_atomic_scope_device",
                "__opencl_c_atomic_scope_all_devices",
                "__opencl_c_subgroups",
                "__opencl_c_program_scope_global_variables",
                // Both engines run device-side enqueue (`exec::enqueue`, `device_queue`).
                "__opencl_c_device_enqueue",
                // Both engines run the work-group functions: kir lowers them to barriers around
                // a `__local` scratch cell (`kir::lower`, test `lower_ops`), and the group
                // instructions at work-group scope run like the sub-group ones.
                "__opencl_c_work_group_collective_functions",
            ]
            .iter()
            .map(|s| s.to_string())
            .collect(),
            image_support: false,
            image_limits: ImageLimits::host(max_mem_alloc_size),
        };
        device.set_image_support(image_support_from_env());
        device
    }

    /// Turns image support on or off, with the OpenCL C features that go with it
    /// (`__opencl_c_images`, `__opencl_c_read_write_images`, `__opencl_c_3d_image_writes`) and
    /// the image extensions whose kernels both engines run (3D image writes, depth images,
    /// mipmaps) and `cl_khr_image2d_from_buffer` (`CL_DEVICE_IMAGE_PITCH_ALIGNMENT` and
    /// `_BASE_ADDRESS_ALIGNMENT` are non-zero: 2D images from buffers are supported).
    pub fn set_image_support(&mut self, on: bool) {
        const IMAGE_FEATURES: [&str; 3] = [
            "__opencl_c_images",
            "__opencl_c_read_write_images",
            "__opencl_c_3d_image_writes",
        ];
        const IMAGE_EXTENSIONS: [&str; 5] = [
            "cl_khr_3d_image_writes",
            "cl_khr_depth_images",
            "cl_khr_mipmap_image",
            "cl_khr_mipmap_image_writes",
            "cl_khr_image2d_from_buffer",
        ];
        self.image_support = on;
        self.features
            .retain(|f| !IMAGE_FEATURES.contains(&f.as_str()));
        self.extensions
            .retain(|e| !IMAGE_EXTENSIONS.contains(&e.as_str()));
        if on {
            self.features
                .extend(IMAGE_FEATURES.iter().map(|s| s.to_string()));
            self.extensions
                .extend(IMAGE_EXTENSIONS.iter().map(|s| s.to_string()));
        }
    }

    pub fn vendor(&self) -> &'static str {
        "oxcl"
    }

    /// `CL_DEVICE_VERSION`.
    pub fn version(&self) -> String {
        format!("OpenCL 3.0 oxcl {}", env!("CARGO_PKG_VERSION"))
    }

    /// `CL_DEVICE_OPENCL_C_VERSION`: the highest OpenCL C 1.x/2.0 version accepted without
    /// `-cl-std=CL3.0`.
    pub fn opencl_c_version(&self) -> &'static str {
        "OpenCL C 1.2 oxcl"
    }

    /// `CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE`: the largest program-scope variable in the global
    /// address space (API 4.2: at least 64 KB when `__opencl_c_program_scope_global_variables` is
    /// supported). Program-scope variables live in host memory owned by the built program.
    pub fn max_global_variable_size(&self) -> usize {
        64 << 10
    }

    /// `CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE`.
    pub fn global_variable_preferred_total_size(&self) -> usize {
        1 << 20
    }

    /// `CL_DEVICE_IL_VERSION`.
    pub fn il_version(&self) -> &'static str {
        "SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2 SPIR-V_1.3 SPIR-V_1.4 SPIR-V_1.5 SPIR-V_1.6"
    }

    pub fn has_extension(&self, name: &str) -> bool {
        self.extensions.iter().any(|e| e == name)
    }

    /// What the compiler needs to know of this device.
    pub fn compile_target(&self) -> clc::pp::Target {
        clc::pp::Target {
            device_cl_version: 300,
            address_bits: self.address_bits,
            extensions: self.extensions.clone(),
            features: self.features.clone(),
            image_support: self.image_support,
            endian_little: cfg!(target_endian = "little"),
        }
    }

    /// The environment modules are validated against before they run.
    pub fn validation_env(&self) -> spv::valid::Env {
        let mut env = spv::valid::Env::opencl(
            spv::valid::ClVersion::Cl30,
            spv::valid::Profile::Full,
            self.address_bits,
        );
        env.extensions = self.extensions.clone();
        env.features = self.features.clone();
        // Pipe storage (SPIR-V 1.1, required of OpenCL 2.2 devices only): both engines run it
        // on the pipe implementation (`kir` lowers it to a program-scope pipe).
        if self.pipe_support() {
            env.capabilities.push(spv::Capability::PipeStorage);
        }
        env
    }
}

/// Total memory from /proc/meminfo, in bytes.
fn physical_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// The processor's model name from /proc/cpuinfo.
fn cpu_name() -> Option<String> {
    let text = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("model name"))?;
    Some(line.split_once(':')?.1.trim().to_string())
}
