//! Build options of `clBuildProgram`/`clCompileProgram`/`clLinkProgram` (OpenCL 3.0 API spec
//! 5.8.6 "Compiler Options" and 5.8.7 "Linker Options"), parsed from the options string.
//!
//! Arguments are separated by white space; `"…"` and `'…'` group (and are removed), and `\`
//! escapes the next character inside double quotes and outside quotes. An unknown option is an
//! error naming it (the runtime maps it to `CL_INVALID_BUILD_OPTIONS`/`CL_INVALID_LINKER_OPTIONS`).

use std::path::PathBuf;

/// OpenCL C language versions selectable with `-cl-std=`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ClStd {
    Cl10,
    Cl11,
    Cl12,
    Cl20,
    Cl30,
}

impl ClStd {
    /// The value of `__OPENCL_C_VERSION__` for this version (100, 110, 120, 200, 300).
    pub fn version(self) -> u32 {
        match self {
            ClStd::Cl10 => 100,
            ClStd::Cl11 => 110,
            ClStd::Cl12 => 120,
            ClStd::Cl20 => 200,
            ClStd::Cl30 => 300,
        }
    }

    /// `CL1.0` … `CL3.0` (the value of `-cl-std=`).
    pub fn from_option_value(s: &str) -> Option<ClStd> {
        Some(match s {
            "CL1.0" => ClStd::Cl10,
            "CL1.1" => ClStd::Cl11,
            "CL1.2" => ClStd::Cl12,
            "CL2.0" => ClStd::Cl20,
            "CL3.0" => ClStd::Cl30,
            _ => return None,
        })
    }

    pub fn from_version(v: u32) -> Option<ClStd> {
        Some(match v {
            100 => ClStd::Cl10,
            110 => ClStd::Cl11,
            120 => ClStd::Cl12,
            200 => ClStd::Cl20,
            300 => ClStd::Cl30,
            _ => return None,
        })
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OptionsError {
    #[error("unknown build option '{0}'")]
    UnknownOption(String),
    #[error("missing argument to build option '{0}'")]
    MissingArgument(String),
    #[error("invalid value '{value}' for build option '{option}'")]
    InvalidValue { option: String, value: String },
    #[error("unterminated quote in build options")]
    UnterminatedQuote,
    #[error("{0}")]
    InvalidCombination(String),
}

/// Parsed build options. `Default` is "no options".
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BuildOptions {
    /// `-D name` (None: defined to 1) and `-D name=definition`, in order.
    pub defines: Vec<(String, Option<String>)>,
    /// `-U name`, applied after all `-D`s.
    pub undefines: Vec<String>,
    /// `-I dir`, in order.
    pub include_dirs: Vec<PathBuf>,
    /// `-cl-std=`; `None` means the highest OpenCL C 1.x the device supports.
    pub cl_std: Option<ClStd>,
    /// `-w`
    pub suppress_warnings: bool,
    /// `-Werror`
    pub warnings_as_errors: bool,
    pub single_precision_constant: bool,
    /// `-cl-denorms-are-zero` (also implied by `-cl-unsafe-math-optimizations`).
    pub denorms_are_zero: bool,
    pub fp32_correctly_rounded_divide_sqrt: bool,
    pub opt_disable: bool,
    /// `-cl-strict-aliasing` (deprecated by 1.1; accepted, no effect).
    pub strict_aliasing: bool,
    /// `-cl-mad-enable` (also implied by `-cl-unsafe-math-optimizations`).
    pub mad_enable: bool,
    /// `-cl-no-signed-zeros` (also implied by `-cl-unsafe-math-optimizations`).
    pub no_signed_zeros: bool,
    /// `-cl-unsafe-math-optimizations` (also implied by `-cl-fast-relaxed-math`).
    pub unsafe_math: bool,
    /// `-cl-finite-math-only` (also implied by `-cl-fast-relaxed-math`).
    pub finite_math_only: bool,
    /// `-cl-fast-relaxed-math`: defines `__FAST_RELAXED_MATH__`.
    pub fast_relaxed_math: bool,
    pub kernel_arg_info: bool,
    pub uniform_work_group_size: bool,
    pub no_subgroup_ifp: bool,
    /// `-g`
    pub debug_info: bool,
    /// Linker option `-create-library` (only from [`BuildOptions::parse_link`]).
    pub create_library: bool,
    /// Linker option `-enable-link-options` (only from [`BuildOptions::parse_link`]).
    pub enable_link_options: bool,
}

impl BuildOptions {
    /// Parses an options string (the `options` argument of `clBuildProgram` and friends).
    pub fn parse(s: &str) -> Result<BuildOptions, OptionsError> {
        let args = split_args(s)?;
        let mut o = BuildOptions::default();
        let mut i = 0;
        while i < args.len() {
            let arg = args[i].as_str();
            i += 1;
            // Options with a separate or attached argument: -D, -U, -I.
            if let Some(flag @ ("-D" | "-U" | "-I")) = arg.get(..2) {
                let value = if arg.len() > 2 {
                    arg[2..].to_string()
                } else {
                    let Some(v) = args.get(i) else {
                        return Err(OptionsError::MissingArgument(flag.to_string()));
                    };
                    i += 1;
                    v.clone()
                };
                if value.is_empty() {
                    return Err(OptionsError::MissingArgument(flag.to_string()));
                }
                match flag {
                    "-D" => o.defines.push(match value.split_once('=') {
                        Some((name, def)) => (name.to_string(), Some(def.to_string())),
                        None => (value, None),
                    }),
                    "-U" => o.undefines.push(value),
                    _ => o.include_dirs.push(PathBuf::from(value)),
                }
                continue;
            }
            if let Some(v) = arg.strip_prefix("-cl-std=") {
                o.cl_std = Some(ClStd::from_option_value(v).ok_or_else(|| {
                    OptionsError::InvalidValue {
                        option: "-cl-std".into(),
                        value: v.into(),
                    }
                })?);
                continue;
            }
            match arg {
                "-w" => o.suppress_warnings = true,
                "-Werror" => o.warnings_as_errors = true,
                "-cl-single-precision-constant" => o.single_precision_constant = true,
                "-cl-denorms-are-zero" => o.denorms_are_zero = true,
                "-cl-fp32-correctly-rounded-divide-sqrt" => {
                    o.fp32_correctly_rounded_divide_sqrt = true
                }
                "-cl-opt-disable" => o.opt_disable = true,
                "-cl-strict-aliasing" => o.strict_aliasing = true,
                "-cl-uniform-work-group-size" => o.uniform_work_group_size = true,
                "-cl-no-subgroup-ifp" => o.no_subgroup_ifp = true,
                "-cl-mad-enable" => o.mad_enable = true,
                "-cl-no-signed-zeros" => o.no_signed_zeros = true,
                // API 5.8.6.3: "includes the -cl-no-signed-zeros, -cl-mad-enable, and
                // -cl-denorms-are-zero options".
                "-cl-unsafe-math-optimizations" => {
                    o.unsafe_math = true;
                    o.no_signed_zeros = true;
                    o.mad_enable = true;
                    o.denorms_are_zero = true;
                }
                "-cl-finite-math-only" => o.finite_math_only = true,
                // API 5.8.6.3: "Sets the optimization options -cl-finite-math-only and
                // -cl-unsafe-math-optimizations".
                "-cl-fast-relaxed-math" => {
                    o.fast_relaxed_math = true;
                    o.finite_math_only = true;
                    o.unsafe_math = true;
                    o.no_signed_zeros = true;
                    o.mad_enable = true;
                    o.denorms_are_zero = true;
                }
                "-cl-kernel-arg-info" => o.kernel_arg_info = true,
                "-g" => o.debug_info = true,
                _ => return Err(OptionsError::UnknownOption(arg.to_string())),
            }
        }
        Ok(o)
    }

    /// Parses the options of `clLinkProgram` (API 5.8.7): `-create-library`,
    /// `-enable-link-options` (only with `-create-library`) and the program linking options
    /// `-cl-denorms-are-zero`, `-cl-no-signed-zeros`, `-cl-unsafe-math-optimizations`,
    /// `-cl-finite-math-only`, `-cl-fast-relaxed-math`, `-cl-no-subgroup-ifp`. Anything else is
    /// an error (`CL_INVALID_LINKER_OPTIONS`).
    pub fn parse_link(s: &str) -> Result<BuildOptions, OptionsError> {
        const LINK_MATH: &[&str] = &[
            "-cl-denorms-are-zero",
            "-cl-no-signed-zeros",
            "-cl-unsafe-math-optimizations",
            "-cl-finite-math-only",
            "-cl-fast-relaxed-math",
            "-cl-no-subgroup-ifp",
        ];
        let mut math = Vec::new();
        let mut create_library = false;
        let mut enable_link_options = false;
        for arg in split_args(s)? {
            match arg.as_str() {
                "-create-library" => create_library = true,
                "-enable-link-options" => enable_link_options = true,
                a if LINK_MATH.contains(&a) => math.push(arg),
                _ => return Err(OptionsError::UnknownOption(arg)),
            }
        }
        // API 5.8.7.1: "This option must be specified with the create-library option."
        if enable_link_options && !create_library {
            return Err(OptionsError::InvalidCombination(
                "-enable-link-options requires -create-library".into(),
            ));
        }
        let mut o = BuildOptions::parse(&math.join(" "))?;
        o.create_library = create_library;
        o.enable_link_options = enable_link_options;
        Ok(o)
    }

    /// The OpenCL C version compiled for: `-cl-std`, or else "the highest OpenCL C 1.x language
    /// version supported by each device" (API 5.8.6.5) for a device of OpenCL C version
    /// `device_c_version` (e.g. 300 → 120, 110 → 110).
    pub fn opencl_c_version(&self, device_c_version: u32) -> u32 {
        match self.cl_std {
            Some(s) => s.version(),
            None => device_c_version.clamp(100, 120),
        }
    }
}

/// Splits an options string into arguments, honouring quotes and backslash escapes.
fn split_args(s: &str) -> Result<Vec<String>, OptionsError> {
    let mut args = Vec::new();
    let mut cur = String::new();
    let mut in_arg = false;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_arg {
                    args.push(std::mem::take(&mut cur));
                    in_arg = false;
                }
            }
            '"' => {
                in_arg = true;
                loop {
                    match chars.next() {
                        None => return Err(OptionsError::UnterminatedQuote),
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(e @ ('"' | '\\')) => cur.push(e),
                            Some(e) => {
                                cur.push('\\');
                                cur.push(e);
                            }
                            None => return Err(OptionsError::UnterminatedQuote),
                        },
                        Some(ch) => cur.push(ch),
                    }
                }
            }
            '\'' => {
                in_arg = true;
                loop {
                    match chars.next() {
                        None => return Err(OptionsError::UnterminatedQuote),
                        Some('\'') => break,
                        Some(ch) => cur.push(ch),
                    }
                }
            }
            '\\' => {
                in_arg = true;
                match chars.next() {
                    Some(e) => cur.push(e),
                    None => cur.push('\\'),
                }
            }
            c => {
                in_arg = true;
                cur.push(c);
            }
        }
    }
    if in_arg {
        args.push(cur);
    }
    Ok(args)
}
