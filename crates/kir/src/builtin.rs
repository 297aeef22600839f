//! `BuiltinFn`: device-library functions a `builtin` instruction calls.
//!
//! One variant per instruction of the OpenCL.std extended instruction set (SPIR-V
//! `OpenCL.std` version 100), named after the grammar's `opname`; the text syntax is that opname
//! (`builtin.f32 sqrt(v1)`). The lowering resolves `OpExtInst` to a variant; the interpreter maps
//! it to `devlib`, applying it per component on vectors.
//!
//! GENERATED from `shared/spirv/extinst.opencl.std.100.grammar.json` (variant list and opcodes);
//! the `opcodes_match_the_grammar` test checks it against the grammar file.

use std::fmt;

/// An OpenCL.std extended instruction.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum BuiltinFn {
    Acos,
    Acosh,
    Acospi,
    Asin,
    Asinh,
    Asinpi,
    Atan,
    Atan2,
    Atanh,
    Atanpi,
    Atan2pi,
    Cbrt,
    Ceil,
    Copysign,
    Cos,
    Cosh,
    Cospi,
    Erfc,
    Erf,
    Exp,
    Exp2,
    Exp10,
    Expm1,
    Fabs,
    Fdim,
    Floor,
    Fma,
    Fmax,
    Fmin,
    Fmod,
    Fract,
    Frexp,
    Hypot,
    Ilogb,
    Ldexp,
    Lgamma,
    LgammaR,
    Log,
    Log2,
    Log10,
    Log1p,
    Logb,
    Mad,
    Maxmag,
    Minmag,
    Modf,
    Nan,
    Nextafter,
    Pow,
    Pown,
    Powr,
    Remainder,
    Remquo,
    Rint,
    Rootn,
    Round,
    Rsqrt,
    Sin,
    Sincos,
    Sinh,
    Sinpi,
    Sqrt,
    Tan,
    Tanh,
    Tanpi,
    Tgamma,
    Trunc,
    HalfCos,
    HalfDivide,
    HalfExp,
    HalfExp2,
    HalfExp10,
    HalfLog,
    HalfLog2,
    HalfLog10,
    HalfPowr,
    HalfRecip,
    HalfRsqrt,
    HalfSin,
    HalfSqrt,
    HalfTan,
    NativeCos,
    NativeDivide,
    NativeExp,
    NativeExp2,
    NativeExp10,
    NativeLog,
    NativeLog2,
    NativeLog10,
    NativePowr,
    NativeRecip,
    NativeRsqrt,
    NativeSin,
    NativeSqrt,
    NativeTan,
    Fclamp,
    Degrees,
    FmaxCommon,
    FminCommon,
    Mix,
    Radians,
    Step,
    Smoothstep,
    Sign,
    Cross,
    Distance,
    Length,
    Normalize,
    FastDistance,
    FastLength,
    FastNormalize,
    SAbs,
    SAbsDiff,
    SAddSat,
    UAddSat,
    SHadd,
    UHadd,
    SRhadd,
    URhadd,
    SClamp,
    UClamp,
    Clz,
    Ctz,
    SMadHi,
    UMadSat,
    SMadSat,
    SMax,
    UMax,
    SMin,
    UMin,
    SMulHi,
    Rotate,
    SSubSat,
    USubSat,
    UUpsample,
    SUpsample,
    Popcount,
    SMad24,
    UMad24,
    SMul24,
    UMul24,
    Vloadn,
    Vstoren,
    VloadHalf,
    VloadHalfn,
    VstoreHalf,
    VstoreHalfR,
    VstoreHalfn,
    VstoreHalfnR,
    VloadaHalfn,
    VstoreaHalfn,
    VstoreaHalfnR,
    Shuffle,
    Shuffle2,
    Printf,
    Prefetch,
    Bitselect,
    Select,
    UAbs,
    UAbsDiff,
    UMulHi,
    UMadHi,
}

/// (variant, grammar opname, opcode, value operands) for every OpenCL.std instruction; the
/// operand count is the grammar's `IdRef` operands without a quantifier (`printf` takes more).
const TABLE: &[(BuiltinFn, &str, u32, usize)] = &[
    (BuiltinFn::Acos, "acos", 0, 1),
    (BuiltinFn::Acosh, "acosh", 1, 1),
    (BuiltinFn::Acospi, "acospi", 2, 1),
    (BuiltinFn::Asin, "asin", 3, 1),
    (BuiltinFn::Asinh, "asinh", 4, 1),
    (BuiltinFn::Asinpi, "asinpi", 5, 1),
    (BuiltinFn::Atan, "atan", 6, 1),
    (BuiltinFn::Atan2, "atan2", 7, 2),
    (BuiltinFn::Atanh, "atanh", 8, 1),
    (BuiltinFn::Atanpi, "atanpi", 9, 1),
    (BuiltinFn::Atan2pi, "atan2pi", 10, 2),
    (BuiltinFn::Cbrt, "cbrt", 11, 1),
    (BuiltinFn::Ceil, "ceil", 12, 1),
    (BuiltinFn::Copysign, "copysign", 13, 2),
    (BuiltinFn::Cos, "cos", 14, 1),
    (BuiltinFn::Cosh, "cosh", 15, 1),
    (BuiltinFn::Cospi, "cospi", 16, 1),
    (BuiltinFn::Erfc, "erfc", 17, 1),
    (BuiltinFn::Erf, "erf", 18, 1),
    (BuiltinFn::Exp, "exp", 19, 1),
    (BuiltinFn::Exp2, "exp2", 20, 1),
    (BuiltinFn::Exp10, "exp10", 21, 1),
    (BuiltinFn::Expm1, "expm1", 22, 1),
    (BuiltinFn::Fabs, "fabs", 23, 1),
    (BuiltinFn::Fdim, "fdim", 24, 2),
    (BuiltinFn::Floor, "floor", 25, 1),
    (BuiltinFn::Fma, "fma", 26, 3),
    (BuiltinFn::Fmax, "fmax", 27, 2),
    (BuiltinFn::Fmin, "fmin", 28, 2),
    (BuiltinFn::Fmod, "fmod", 29, 2),
    (BuiltinFn::Fract, "fract", 30, 2),
    (BuiltinFn::Frexp, "frexp", 31, 2),
    (BuiltinFn::Hypot, "hypot", 32, 2),
    (BuiltinFn::Ilogb, "ilogb", 33, 1),
    (BuiltinFn::Ldexp, "ldexp", 34, 2),
    (BuiltinFn::Lgamma, "lgamma", 35, 1),
    (BuiltinFn::LgammaR, "lgamma_r", 36, 2),
    (BuiltinFn::Log, "log", 37, 1),
    (BuiltinFn::Log2, "log2", 38, 1),
    (BuiltinFn::Log10, "log10", 39, 1),
    (BuiltinFn::Log1p, "log1p", 40, 1),
    (BuiltinFn::Logb, "logb", 41, 1),
    (BuiltinFn::Mad, "mad", 42, 3),
    (BuiltinFn::Maxmag, "maxmag", 43, 2),
    (BuiltinFn::Minmag, "minmag", 44, 2),
    (BuiltinFn::Modf, "modf", 45, 2),
    (BuiltinFn::Nan, "nan", 46, 1),
    (BuiltinFn::Nextafter, "nextafter", 47, 2),
    (BuiltinFn::Pow, "pow", 48, 2),
    (BuiltinFn::Pown, "pown", 49, 2),
    (BuiltinFn::Powr, "powr", 50, 2),
    (BuiltinFn::Remainder, "remainder", 51, 2),
    (BuiltinFn::Remquo, "remquo", 52, 3),
    (BuiltinFn::Rint, "rint", 53, 1),
    (BuiltinFn::Rootn, "rootn", 54, 2),
    (BuiltinFn::Round, "round", 55, 1),
    (BuiltinFn::Rsqrt, "rsqrt", 56, 1),
    (BuiltinFn::Sin, "sin", 57, 1),
    (BuiltinFn::Sincos, "sincos", 58, 2),
    (BuiltinFn::Sinh, "sinh", 59, 1),
    (BuiltinFn::Sinpi, "sinpi", 60, 1),
    (BuiltinFn::Sqrt, "sqrt", 61, 1),
    (BuiltinFn::Tan, "tan", 62, 1),
    (BuiltinFn::Tanh, "tanh", 63, 1),
    (BuiltinFn::Tanpi, "tanpi", 64, 1),
    (BuiltinFn::Tgamma, "tgamma", 65, 1),
    (BuiltinFn::Trunc, "trunc", 66, 1),
    (BuiltinFn::HalfCos, "half_cos", 67, 1),
    (BuiltinFn::HalfDivide, "half_divide", 68, 2),
    (BuiltinFn::HalfExp, "half_exp", 69, 1),
    (BuiltinFn::HalfExp2, "half_exp2", 70, 1),
    (BuiltinFn::HalfExp10, "half_exp10", 71, 1),
    (BuiltinFn::HalfLog, "half_log", 72, 1),
    (BuiltinFn::HalfLog2, "half_log2", 73, 1),
    (BuiltinFn::HalfLog10, "half_log10", 74, 1),
    (BuiltinFn::HalfPowr, "half_powr", 75, 2),
    (BuiltinFn::HalfRecip, "half_recip", 76, 1),
    (BuiltinFn::HalfRsqrt, "half_rsqrt", 77, 1),
    (BuiltinFn::HalfSin, "half_sin", 78, 1),
    (BuiltinFn::HalfSqrt, "half_sqrt", 79, 1),
    (BuiltinFn::HalfTan, "half_tan", 80, 1),
    (BuiltinFn::NativeCos, "native_cos", 81, 1),
    (BuiltinFn::NativeDivide, "native_divide", 82, 2),
    (BuiltinFn::NativeExp, "native_exp", 83, 1),
    (BuiltinFn::NativeExp2, "native_exp2", 84, 1),
    (BuiltinFn::NativeExp10, "native_exp10", 85, 1),
    (BuiltinFn::NativeLog, "native_log", 86, 1),
    (BuiltinFn::NativeLog2, "native_log2", 87, 1),
    (BuiltinFn::NativeLog10, "native_log10", 88, 1),
    (BuiltinFn::NativePowr, "native_powr", 89, 2),
    (BuiltinFn::NativeRecip, "native_recip", 90, 1),
    (BuiltinFn::NativeRsqrt, "native_rsqrt", 91, 1),
    (BuiltinFn::NativeSin, "native_sin", 92, 1),
    (BuiltinFn::NativeSqrt, "native_sqrt", 93, 1),
    (BuiltinFn::NativeTan, "native_tan", 94, 1),
    (BuiltinFn::Fclamp, "fclamp", 95, 3),
    (BuiltinFn::Degrees, "degrees", 96, 1),
    (BuiltinFn::FmaxCommon, "fmax_common", 97, 2),
    (BuiltinFn::FminCommon, "fmin_common", 98, 2),
    (BuiltinFn::Mix, "mix", 99, 3),
    (BuiltinFn::Radians, "radians", 100, 1),
    (BuiltinFn::Step, "step", 101, 2),
    (BuiltinFn::Smoothstep, "smoothstep", 102, 3),
    (BuiltinFn::Sign, "sign", 103, 1),
    (BuiltinFn::Cross, "cross", 104, 2),
    (BuiltinFn::Distance, "distance", 105, 2),
    (BuiltinFn::Length, "length", 106, 1),
    (BuiltinFn::Normalize, "normalize", 107, 1),
    (BuiltinFn::FastDistance, "fast_distance", 108, 2),
    (BuiltinFn::FastLength, "fast_length", 109, 1),
    (BuiltinFn::FastNormalize, "fast_normalize", 110, 1),
    (BuiltinFn::SAbs, "s_abs", 141, 1),
    (BuiltinFn::SAbsDiff, "s_abs_diff", 142, 2),
    (BuiltinFn::SAddSat, "s_add_sat", 143, 2),
    (BuiltinFn::UAddSat, "u_add_sat", 144, 2),
    (BuiltinFn::SHadd, "s_hadd", 145, 2),
    (BuiltinFn::UHadd, "u_hadd", 146, 2),
    (BuiltinFn::SRhadd, "s_rhadd", 147, 2),
    (BuiltinFn::URhadd, "u_rhadd", 148, 2),
    (BuiltinFn::SClamp, "s_clamp", 149, 3),
    (BuiltinFn::UClamp, "u_clamp", 150, 3),
    (BuiltinFn::Clz, "clz", 151, 1),
    (BuiltinFn::Ctz, "ctz", 152, 1),
    (BuiltinFn::SMadHi, "s_mad_hi", 153, 3),
    (BuiltinFn::UMadSat, "u_mad_sat", 154, 3),
    (BuiltinFn::SMadSat, "s_mad_sat", 155, 3),
    (BuiltinFn::SMax, "s_max", 156, 2),
    (BuiltinFn::UMax, "u_max", 157, 2),
    (BuiltinFn::SMin, "s_min", 158, 2),
    (BuiltinFn::UMin, "u_min", 159, 2),
    (BuiltinFn::SMulHi, "s_mul_hi", 160, 2),
    (BuiltinFn::Rotate, "rotate", 161, 2),
    (BuiltinFn::SSubSat, "s_sub_sat", 162, 2),
    (BuiltinFn::USubSat, "u_sub_sat", 163, 2),
    (BuiltinFn::UUpsample, "u_upsample", 164, 2),
    (BuiltinFn::SUpsample, "s_upsample", 165, 2),
    (BuiltinFn::Popcount, "popcount", 166, 1),
    (BuiltinFn::SMad24, "s_mad24", 167, 3),
    (BuiltinFn::UMad24, "u_mad24", 168, 3),
    (BuiltinFn::SMul24, "s_mul24", 169, 2),
    (BuiltinFn::UMul24, "u_mul24", 170, 2),
    (BuiltinFn::Vloadn, "vloadn", 171, 2),
    (BuiltinFn::Vstoren, "vstoren", 172, 3),
    (BuiltinFn::VloadHalf, "vload_half", 173, 2),
    (BuiltinFn::VloadHalfn, "vload_halfn", 174, 2),
    (BuiltinFn::VstoreHalf, "vstore_half", 175, 3),
    (BuiltinFn::VstoreHalfR, "vstore_half_r", 176, 3),
    (BuiltinFn::VstoreHalfn, "vstore_halfn", 177, 3),
    (BuiltinFn::VstoreHalfnR, "vstore_halfn_r", 178, 3),
    (BuiltinFn::VloadaHalfn, "vloada_halfn", 179, 2),
    (BuiltinFn::VstoreaHalfn, "vstorea_halfn", 180, 3),
    (BuiltinFn::VstoreaHalfnR, "vstorea_halfn_r", 181, 3),
    (BuiltinFn::Shuffle, "shuffle", 182, 2),
    (BuiltinFn::Shuffle2, "shuffle2", 183, 3),
    (BuiltinFn::Printf, "printf", 184, 1),
    (BuiltinFn::Prefetch, "prefetch", 185, 2),
    (BuiltinFn::Bitselect, "bitselect", 186, 3),
    (BuiltinFn::Select, "select", 187, 3),
    (BuiltinFn::UAbs, "u_abs", 201, 1),
    (BuiltinFn::UAbsDiff, "u_abs_diff", 202, 2),
    (BuiltinFn::UMulHi, "u_mul_hi", 203, 2),
    (BuiltinFn::UMadHi, "u_mad_hi", 204, 3),
];

impl BuiltinFn {
    /// Every builtin, in grammar order.
    pub fn all() -> impl Iterator<Item = BuiltinFn> {
        TABLE.iter().map(|entry| entry.0)
    }

    /// The OpenCL.std opname (`"sqrt"`, `"s_abs"`).
    pub fn name(self) -> &'static str {
        TABLE
            .iter()
            .find(|entry| entry.0 == self)
            .map_or("?", |entry| entry.1)
    }

    /// The OpenCL.std extended-instruction opcode.
    pub fn opcode(self) -> u32 {
        TABLE
            .iter()
            .find(|entry| entry.0 == self)
            .map_or(u32::MAX, |entry| entry.2)
    }

    /// How many value operands the instruction takes; `printf` takes at least this many.
    pub fn arity(self) -> usize {
        TABLE
            .iter()
            .find(|entry| entry.0 == self)
            .map_or(0, |entry| entry.3)
    }

    /// Whether the instruction takes extra operands after `arity()` (only `printf`).
    pub fn is_variadic(self) -> bool {
        self == BuiltinFn::Printf
    }

    /// The builtin with OpenCL.std opcode `opcode`.
    pub fn from_opcode(opcode: u32) -> Option<BuiltinFn> {
        TABLE
            .iter()
            .find(|entry| entry.2 == opcode)
            .map(|entry| entry.0)
    }

    /// The builtin named `name` (an OpenCL.std opname).
    pub fn from_name(name: &str) -> Option<BuiltinFn> {
        TABLE
            .iter()
            .find(|entry| entry.1 == name)
            .map(|entry| entry.0)
    }
}

impl fmt::Display for BuiltinFn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opcodes_match_the_grammar() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../../shared/spirv/extinst.opencl.std.100.grammar.json"
        );
        let Ok(text) = std::fs::read_to_string(path) else {
            eprintln!("skipping: grammar file {path} not present");
            return;
        };
        // Every `"opname" : "x", "opcode" : n` pair of the grammar is in the table.
        let mut pairs = 0;
        for chunk in text.split("\"opname\"").skip(1) {
            let name = chunk.split('"').nth(1).unwrap_or_default();
            let opcode: u32 = chunk
                .split("\"opcode\"")
                .nth(1)
                .and_then(|rest| {
                    rest.trim_start_matches([' ', ':'])
                        .split(|c: char| !c.is_ascii_digit())
                        .next()
                })
                .and_then(|digits| digits.parse().ok())
                .unwrap_or(u32::MAX);
            let builtin = BuiltinFn::from_name(name);
            assert_eq!(builtin.map(BuiltinFn::opcode), Some(opcode), "{name}");
            pairs += 1;
        }
        assert_eq!(pairs, BuiltinFn::all().count());
        assert_eq!(BuiltinFn::from_opcode(61), Some(BuiltinFn::Sqrt));
        assert_eq!(BuiltinFn::SAbs.to_string(), "s_abs");
    }
}
