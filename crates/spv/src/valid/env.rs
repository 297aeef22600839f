//! The OpenCL environment a module is validated for: OpenCL version, profile, address width,
//! OpenCL extensions and OpenCL 3.0 optional features, and the decisions that depend on them
//! (accepted SPIR-V versions, supported capabilities, SPIR-V extensions, scopes).

use crate::Capability;
use std::fmt;

/// The OpenCL version of the device.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ClVersion {
    Cl12,
    Cl20,
    Cl21,
    Cl22,
    Cl30,
}

impl ClVersion {
    /// `"1.2"`, `"2.0"`, …
    pub fn as_str(self) -> &'static str {
        match self {
            ClVersion::Cl12 => "1.2",
            ClVersion::Cl20 => "2.0",
            ClVersion::Cl21 => "2.1",
            ClVersion::Cl22 => "2.2",
            ClVersion::Cl30 => "3.0",
        }
    }
}

/// The OpenCL profile of the device.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Profile {
    Full,
    Embedded,
}

/// A device environment to validate against.
///
/// `extensions` holds OpenCL extension names (`cl_khr_fp64`) and, for devices that report them
/// through `cl_khr_spirv_queries`, SPIR-V extension names (`SPV_KHR_…`). `features` holds the
/// OpenCL C 3.0 optional feature names (`__opencl_c_images`, `__opencl_c_fp64`,
/// `__opencl_c_generic_address_space`, `__opencl_c_pipes`, `__opencl_c_device_enqueue`,
/// `__opencl_c_subgroups`, `__opencl_c_int64`, `__opencl_c_read_write_images`,
/// `__opencl_c_3d_image_writes`, `__opencl_c_atomic_order_acq_rel`, …). They also describe device
/// properties of earlier versions: `__opencl_c_images` is `CL_DEVICE_IMAGE_SUPPORT`, and features
/// that a 2.x version makes mandatory (generic address space, pipes, device enqueue, …) are implied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Env {
    pub cl_version: ClVersion,
    pub profile: Profile,
    /// `CL_DEVICE_ADDRESS_BITS`: 32 or 64.
    pub address_bits: u32,
    pub extensions: Vec<String>,
    pub features: Vec<String>,
    /// Optional SPIR-V capabilities the device supports beyond those its version, profile,
    /// features and extensions make required (a device may consume more than the environment
    /// requires; cl_khr_spirv_queries reports them as `CL_DEVICE_SPIRV_CAPABILITIES_KHR`).
    /// Consulted for *PipeStorage*, which the environment requires of OpenCL 2.2 devices only.
    pub capabilities: Vec<Capability>,
}

/// The error of [`Env::from_target_env`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown target environment `{0}` (expected opencl1.2, opencl2.0, opencl2.1, opencl2.2 or opencl3.0, optionally followed by `embedded`)")]
pub struct UnknownTargetEnv(pub String);

/// Feature names used by the checks.
pub mod feature {
    pub const IMAGES: &str = "__opencl_c_images";
    pub const READ_WRITE_IMAGES: &str = "__opencl_c_read_write_images";
    pub const IMAGE_3D_WRITES: &str = "__opencl_c_3d_image_writes";
    pub const FP64: &str = "__opencl_c_fp64";
    pub const INT64: &str = "__opencl_c_int64";
    pub const GENERIC_ADDRESS_SPACE: &str = "__opencl_c_generic_address_space";
    pub const PIPES: &str = "__opencl_c_pipes";
    pub const DEVICE_ENQUEUE: &str = "__opencl_c_device_enqueue";
    pub const SUBGROUPS: &str = "__opencl_c_subgroups";
    pub const WORK_GROUP_COLLECTIVE_FUNCTIONS: &str = "__opencl_c_work_group_collective_functions";
    pub const ATOMIC_ORDER_ACQ_REL: &str = "__opencl_c_atomic_order_acq_rel";
    pub const ATOMIC_ORDER_SEQ_CST: &str = "__opencl_c_atomic_order_seq_cst";
    pub const ATOMIC_SCOPE_DEVICE: &str = "__opencl_c_atomic_scope_device";
    pub const ATOMIC_SCOPE_ALL_DEVICES: &str = "__opencl_c_atomic_scope_all_devices";
}

/// OpenCL extensions that enable a SPIR-V extension (env 3.0 "OpenCL Extensions").
const SPIRV_EXTENSION_ENABLERS: &[(&str, &str)] = &[
    (
        "SPV_KHR_no_integer_wrap_decoration",
        "cl_khr_spirv_no_integer_wrap_decoration",
    ),
    ("SPV_KHR_linkonce_odr", "cl_khr_spirv_linkonce_odr"),
    ("SPV_KHR_bit_instructions", "cl_khr_extended_bit_ops"),
    ("SPV_KHR_integer_dot_product", "cl_khr_integer_dot_product"),
    ("SPV_KHR_expect_assume", "cl_khr_expect_assume"),
    ("SPV_KHR_subgroup_rotate", "cl_khr_subgroup_rotate"),
    (
        "SPV_KHR_uniform_group_instructions",
        "cl_khr_work_group_uniform_arithmetic",
    ),
    ("SPV_KHR_shader_clock", "cl_khr_kernel_clock"),
];

impl Env {
    /// The minimal device of a version and profile: the capabilities every such device must
    /// support, no optional capability, extension or feature (add them with
    /// [`Env::with_extension`] / [`Env::with_feature`]).
    pub fn opencl(cl_version: ClVersion, profile: Profile, address_bits: u32) -> Env {
        Env {
            cl_version,
            profile,
            address_bits,
            extensions: Vec::new(),
            features: Vec::new(),
            capabilities: Vec::new(),
        }
    }

    /// The environment named like `spirv-val --target-env`: `opencl1.2`, `opencl2.0`,
    /// `opencl2.1`, `opencl2.2`, `opencl3.0`, each optionally followed by `embedded` (or
    /// `-embedded`). Like spirv-val, the named device accepts the optional capabilities
    /// *ImageBasic* (with its companions, read-write images from 2.0) and *Float64*, and has
    /// 64-bit addresses; for 3.0 it has the features of a 2.x device.
    pub fn from_target_env(name: &str) -> Result<Env, UnknownTargetEnv> {
        let unknown = || UnknownTargetEnv(name.to_string());
        let rest = name.strip_prefix("opencl").ok_or_else(unknown)?;
        let (version, profile) = match rest
            .strip_suffix("embedded")
            .map(|v| v.strip_suffix('-').unwrap_or(v))
        {
            Some(v) => (v, Profile::Embedded),
            None => (rest, Profile::Full),
        };
        let cl_version = match version {
            "1.2" => ClVersion::Cl12,
            "2.0" => ClVersion::Cl20,
            "2.1" => ClVersion::Cl21,
            "2.2" => ClVersion::Cl22,
            "3.0" => ClVersion::Cl30,
            _ => return Err(unknown()),
        };
        let mut env = Env::opencl(cl_version, profile, 64)
            .with_feature(feature::IMAGES)
            .with_feature(feature::FP64);
        if cl_version >= ClVersion::Cl20 {
            env = env.with_feature(feature::READ_WRITE_IMAGES);
        }
        if cl_version == ClVersion::Cl30 {
            for f in [
                feature::GENERIC_ADDRESS_SPACE,
                feature::PIPES,
                feature::DEVICE_ENQUEUE,
                feature::SUBGROUPS,
                feature::WORK_GROUP_COLLECTIVE_FUNCTIONS,
                feature::IMAGE_3D_WRITES,
                feature::ATOMIC_ORDER_ACQ_REL,
                feature::ATOMIC_ORDER_SEQ_CST,
                feature::ATOMIC_SCOPE_DEVICE,
                feature::ATOMIC_SCOPE_ALL_DEVICES,
            ] {
                env = env.with_feature(f);
            }
        }
        Ok(env)
    }

    /// Adds an OpenCL (or SPIR-V) extension name.
    pub fn with_extension(mut self, name: &str) -> Env {
        if !self.extensions.iter().any(|e| e == name) {
            self.extensions.push(name.to_string());
        }
        self
    }

    /// Adds an OpenCL C 3.0 optional feature name.
    pub fn with_feature(mut self, name: &str) -> Env {
        if !self.features.iter().any(|f| f == name) {
            self.features.push(name.to_string());
        }
        self
    }

    /// Adds an optional SPIR-V capability the device supports (see [`Env::capabilities`]).
    pub fn with_capability(mut self, cap: Capability) -> Env {
        if !self.capabilities.contains(&cap) {
            self.capabilities.push(cap);
        }
        self
    }

    /// Whether the extension is listed.
    pub fn has_extension(&self, name: &str) -> bool {
        self.extensions.iter().any(|e| e == name)
    }

    /// Whether the feature is listed or implied by the OpenCL version (2.x makes the generic
    /// address space, pipes, device enqueue, work-group collectives, 3D image writes and all
    /// atomic orders and scopes mandatory; 2.1 and 2.2 add sub-groups; full profile has int64).
    pub fn has_feature(&self, name: &str) -> bool {
        if self.features.iter().any(|f| f == name) {
            return true;
        }
        let v = self.cl_version;
        let two_x = matches!(v, ClVersion::Cl20 | ClVersion::Cl21 | ClVersion::Cl22);
        match name {
            feature::GENERIC_ADDRESS_SPACE
            | feature::PIPES
            | feature::DEVICE_ENQUEUE
            | feature::WORK_GROUP_COLLECTIVE_FUNCTIONS
            | feature::IMAGE_3D_WRITES
            | feature::ATOMIC_ORDER_ACQ_REL
            | feature::ATOMIC_ORDER_SEQ_CST
            | feature::ATOMIC_SCOPE_DEVICE
            | feature::ATOMIC_SCOPE_ALL_DEVICES => two_x,
            feature::SUBGROUPS => matches!(v, ClVersion::Cl21 | ClVersion::Cl22),
            feature::INT64 => self.profile == Profile::Full,
            feature::FP64 => self.has_extension("cl_khr_fp64"),
            _ => false,
        }
    }

    pub(crate) fn images(&self) -> bool {
        self.has_feature(feature::IMAGES)
    }

    /// Sub-groups: core in 2.1/2.2, a feature in 3.0, `cl_khr_subgroups` elsewhere.
    pub(crate) fn subgroups(&self) -> bool {
        self.has_feature(feature::SUBGROUPS) || self.has_extension("cl_khr_subgroups")
    }

    /// The SPIR-V versions the environment accepts: 1.2 and 2.0 (with cl_khr_il_program) and
    /// 2.1 accept 1.0 (env 4, 5, 6); 2.2 accepts 1.0–1.2 (env 3); a 3.0 device reports its own
    /// list, taken here as 1.0–1.6.
    pub fn max_spirv_version(&self) -> (u8, u8) {
        match self.cl_version {
            ClVersion::Cl12 | ClVersion::Cl20 | ClVersion::Cl21 => (1, 0),
            ClVersion::Cl22 => (1, 2),
            ClVersion::Cl30 => (1, 6),
        }
    }

    /// Whether the environment lets a module declare `cap` (env 3–6 and 3.0 "Required
    /// Capabilities", env 7 "OpenCL Extensions"). `declared` tells whether a capability is declared
    /// (explicitly or implicitly) by the module, for the capabilities that come with *ImageBasic*.
    /// Returns `Err(reason)` when not allowed.
    pub(crate) fn capability_allowed(
        &self,
        cap: Capability,
        declared: &dyn Fn(Capability) -> bool,
    ) -> Result<(), String> {
        use Capability as C;
        let v = self.cl_version;
        let two_x = matches!(v, ClVersion::Cl20 | ClVersion::Cl21 | ClVersion::Cl22);
        let ok = match cap {
            // Guaranteed in every version and profile.
            C::Addresses
            | C::Float16Buffer
            | C::Int16
            | C::Int8
            | C::Kernel
            | C::Linkage
            | C::Vector16 => true,
            C::Int64 => self.has_feature(feature::INT64) || self.has_extension("cles_khr_int64"),
            C::GenericPointer => self.has_feature(feature::GENERIC_ADDRESS_SPACE),
            C::Pipes => self.has_feature(feature::PIPES),
            C::DeviceEnqueue => self.has_feature(feature::DEVICE_ENQUEUE),
            C::Groups => {
                two_x
                    || self.subgroups()
                    || self.has_feature(feature::WORK_GROUP_COLLECTIVE_FUNCTIONS)
            }
            C::SubgroupDispatch => {
                v == ClVersion::Cl22 || (v == ClVersion::Cl30 && self.subgroups())
            }
            // env 3.1 / 3.0 "Required Capabilities": OpenCL 2.2 devices; other devices when
            // they list it in `capabilities`.
            C::PipeStorage => v == ClVersion::Cl22 || self.capabilities.contains(&cap),
            C::ImageBasic => self.images(),
            C::LiteralSampler | C::Sampled1D | C::Image1D | C::SampledBuffer | C::ImageBuffer => {
                self.images() && declared(C::ImageBasic)
            }
            C::ImageReadWrite => {
                self.images()
                    && declared(C::ImageBasic)
                    && (two_x || self.has_feature(feature::READ_WRITE_IMAGES))
            }
            C::Float64 => self.has_feature(feature::FP64) || self.has_extension("cl_khr_fp64"),
            C::Float16 => self.has_extension("cl_khr_fp16"),
            C::Int64Atomics => {
                self.has_extension("cl_khr_int64_base_atomics")
                    || self.has_extension("cl_khr_int64_extended_atomics")
            }
            C::NamedBarrier => self.has_extension("cl_khr_subgroup_named_barrier"),
            C::ImageMipmap => self.has_extension("cl_khr_mipmap_image_writes"),
            C::GroupNonUniform => {
                self.has_extension("cl_khr_subgroup_non_uniform_vote")
                    || self.has_extension("cl_khr_subgroup_ballot")
                    || self.has_extension("cl_khr_subgroup_non_uniform_arithmetic")
                    || self.has_extension("cl_khr_subgroup_shuffle")
                    || self.has_extension("cl_khr_subgroup_shuffle_relative")
                    || self.has_extension("cl_khr_subgroup_clustered_reduce")
            }
            C::GroupNonUniformVote => self.has_extension("cl_khr_subgroup_non_uniform_vote"),
            C::GroupNonUniformBallot => self.has_extension("cl_khr_subgroup_ballot"),
            C::GroupNonUniformArithmetic => {
                self.has_extension("cl_khr_subgroup_non_uniform_arithmetic")
            }
            C::GroupNonUniformShuffle => self.has_extension("cl_khr_subgroup_shuffle"),
            C::GroupNonUniformShuffleRelative => {
                self.has_extension("cl_khr_subgroup_shuffle_relative")
            }
            C::GroupNonUniformClustered => self.has_extension("cl_khr_subgroup_clustered_reduce"),
            _ => false,
        };
        if ok {
            Ok(())
        } else {
            Err(format!(
                "capability {} is not supported by {self}",
                cap.name()
            ))
        }
    }

    /// Whether a module may declare the SPIR-V extension with `OpExtension` (env 7.1: only
    /// SPIR-V extensions that an OpenCL extension of the device names, or that the device lists;
    /// and `SPV_KHR_non_semantic_info`, whose instructions carry no semantics).
    pub(crate) fn spirv_extension_allowed(&self, name: &str) -> bool {
        // Non-semantic instructions may be ignored by any consumer, so every environment
        // accepts the extension that introduces them.
        if self.has_extension(name) || name == "SPV_KHR_non_semantic_info" {
            return true;
        }
        SPIRV_EXTENSION_ENABLERS
            .iter()
            .any(|(spv, cl)| *spv == name && self.has_extension(cl))
    }
}

impl std::str::FromStr for Env {
    type Err = UnknownTargetEnv;

    /// [`Env::from_target_env`].
    fn from_str(name: &str) -> Result<Env, UnknownTargetEnv> {
        Env::from_target_env(name)
    }
}

impl fmt::Display for Env {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let profile = match self.profile {
            Profile::Full => "Full",
            Profile::Embedded => "Embedded",
        };
        write!(
            f,
            "OpenCL {} {profile} Profile ({}-bit",
            self.cl_version.as_str(),
            self.address_bits
        )?;
        for e in &self.extensions {
            write!(f, ", {e}")?;
        }
        for x in &self.features {
            write!(f, ", {x}")?;
        }
        f.write_str(")")
    }
}
