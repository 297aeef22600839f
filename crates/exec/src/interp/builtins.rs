//! Device-library calls: maps each `kir::BuiltinFn` (an OpenCL.std instruction) to `devlib`,
//! applying it per component on vectors (a scalar argument of a vector call is used for every
//! component). Functions with a pointer argument (`frexp`, `modf`, `fract`, `sincos`, `remquo`,
//! `lgamma_r`) store their second result through it. `printf` formats into the run's output.
//! The `vload*`/`vstore*` family and `select` are expanded by the lowering and never reach here.

use devlib::integer::Int;
use devlib::Float;
use half::f16;
use kir::{BuiltinFn, ScalarType, Type};

use super::memory::{Fault, Memory};
use super::printf;
use super::value::Val;

pub(crate) enum BuiltinError {
    Fault(Fault),
    Unsupported(String),
}

impl From<Fault> for BuiltinError {
    fn from(f: Fault) -> BuiltinError {
        BuiltinError::Fault(f)
    }
}

fn unsupported(func: BuiltinFn, detail: &str) -> BuiltinError {
    BuiltinError::Unsupported(format!("builtin `{func}` {detail}"))
}

/// Calls `func` on `args` (type, value); `result` is the call's result type.
pub(crate) fn call(
    func: BuiltinFn,
    result: Option<Type>,
    args: &[(Type, Val)],
    mem: &mut Memory<'_>,
    out: &mut Vec<u8>,
    address_bits: u32,
) -> Result<Option<Val>, BuiltinError> {
    use BuiltinFn as B;
    let Some(first) = args.first() else {
        return Err(unsupported(func, "without arguments"));
    };
    let arg_ty = first.0;
    match func {
        B::Printf => return printf::printf(args, mem, out, address_bits).map(|v| Some(Val::S(v))),
        B::Prefetch => return Ok(None),
        B::Cross
        | B::Distance
        | B::Length
        | B::Normalize
        | B::FastDistance
        | B::FastLength
        | B::FastNormalize => {
            return geometric(func, result, args).map(Some);
        }
        B::Shuffle | B::Shuffle2 => {
            let rty = result.ok_or_else(|| unsupported(func, "without a result"))?;
            let mut source = first.1.lanes();
            let n = source.len() as u64 * if func == B::Shuffle2 { 2 } else { 1 };
            if func == B::Shuffle2 {
                source.extend(args.get(1).map(|a| a.1.lanes()).unwrap_or_default());
            }
            let mask = args.last().map(|a| a.1.lanes()).unwrap_or_default();
            // OpenCL C 6.15.10: only the low log2(2n) (shuffle2) / log2(n) bits of each mask
            // component count; n is a power of two.
            let lanes = mask
                .iter()
                .map(|&m| source[(m % n.max(1)) as usize])
                .collect();
            return Ok(Some(Val::from_lanes(rty, lanes)));
        }
        B::Frexp | B::Modf | B::Fract | B::Sincos | B::Remquo | B::LgammaR => {
            return with_out_pointer(func, result, args, mem, address_bits).map(Some);
        }
        B::Vloadn
        | B::Vstoren
        | B::VloadHalf
        | B::VloadHalfn
        | B::VstoreHalf
        | B::VstoreHalfR
        | B::VstoreHalfn
        | B::VstoreHalfnR
        | B::VloadaHalfn
        | B::VstoreaHalfn
        | B::VstoreaHalfnR
        | B::Select => {
            return Err(unsupported(func, "as a call (kir::lower expands it)"));
        }
        _ => {}
    }
    let rty = result.ok_or_else(|| unsupported(func, "without a result"))?;
    let lanes = rty.lanes() as usize;
    let mut out_lanes = Vec::with_capacity(lanes);
    let lane_args = |i: usize| -> Vec<u64> { args.iter().map(|(_, v)| v.lane(i)).collect() };
    if let Some(kind) = int_kind(func) {
        let s = arg_ty.lane_type().unwrap_or(ScalarType::I32);
        for i in 0..lanes {
            let a = lane_args(i);
            out_lanes.push(
                int_lane(func, s, kind, &a)
                    .ok_or_else(|| unsupported(func, &format!("on {arg_ty}")))?,
            );
        }
    } else {
        // Float functions dispatch on the argument type, `nan` on the result type.
        let s = if func == B::Nan { rty } else { arg_ty }
            .lane_type()
            .unwrap_or(ScalarType::F32);
        for i in 0..lanes {
            let a = lane_args(i);
            let r = match s {
                ScalarType::F16 => float_f16(func, &a),
                ScalarType::F32 => float_f32(func, &a),
                ScalarType::F64 => float_f64(func, &a),
                _ => None,
            };
            out_lanes.push(r.ok_or_else(|| unsupported(func, &format!("on {arg_ty}")))?);
        }
    }
    Ok(Some(Val::from_lanes(rty, out_lanes)))
}

/// How an integer builtin reads its operands.
#[derive(Clone, Copy, PartialEq, Eq)]
enum IntKind {
    Signed,
    Unsigned,
}

fn int_kind(func: BuiltinFn) -> Option<IntKind> {
    use BuiltinFn as B;
    Some(match func {
        B::SAbs
        | B::SAbsDiff
        | B::SAddSat
        | B::SHadd
        | B::SRhadd
        | B::SClamp
        | B::SMadHi
        | B::SMadSat
        | B::SMax
        | B::SMin
        | B::SMulHi
        | B::SSubSat
        | B::SUpsample
        | B::SMad24
        | B::SMul24 => IntKind::Signed,
        B::UAbs
        | B::UAbsDiff
        | B::UAddSat
        | B::UHadd
        | B::URhadd
        | B::UClamp
        | B::UMadSat
        | B::UMax
        | B::UMin
        | B::USubSat
        | B::UUpsample
        | B::UMad24
        | B::UMul24
        | B::UMulHi
        | B::UMadHi
        | B::Clz
        | B::Ctz
        | B::Popcount
        | B::Rotate
        | B::Bitselect => IntKind::Unsigned,
        _ => return None,
    })
}

/// One lane of an integer builtin on lanes of type `s` (bitselect also on float lanes: it
/// works on the bits).
fn int_lane(func: BuiltinFn, s: ScalarType, kind: IntKind, a: &[u64]) -> Option<u64> {
    let bits = if s.is_bool() { 8 } else { s.bits() };
    match (bits, kind) {
        (8, IntKind::Signed) => int_op::<i8>(func, a),
        (16, IntKind::Signed) => int_op::<i16>(func, a),
        (32, IntKind::Signed) => int_op::<i32>(func, a),
        (64, IntKind::Signed) => int_op::<i64>(func, a),
        (8, IntKind::Unsigned) => int_op::<u8>(func, a),
        (16, IntKind::Unsigned) => int_op::<u16>(func, a),
        (32, IntKind::Unsigned) => int_op::<u32>(func, a),
        (64, IntKind::Unsigned) => int_op::<u64>(func, a),
        _ => None,
    }
}

fn int_op<T: Int + Upsampled>(func: BuiltinFn, a: &[u64]) -> Option<u64> {
    use devlib::integer as di;
    use BuiltinFn as B;
    let x = |i: usize| a.get(i).map(|&v| T::from_bits_u64(v));
    Some(match func {
        B::SAbs | B::UAbs => di::abs(x(0)?).to_bits_u64(),
        B::SAbsDiff | B::UAbsDiff => di::abs_diff(x(0)?, x(1)?).to_bits_u64(),
        B::SAddSat | B::UAddSat => di::add_sat(x(0)?, x(1)?).to_bits_u64(),
        B::SSubSat | B::USubSat => di::sub_sat(x(0)?, x(1)?).to_bits_u64(),
        B::SHadd | B::UHadd => di::hadd(x(0)?, x(1)?).to_bits_u64(),
        B::SRhadd | B::URhadd => di::rhadd(x(0)?, x(1)?).to_bits_u64(),
        B::SClamp | B::UClamp => di::clamp(x(0)?, x(1)?, x(2)?).to_bits_u64(),
        B::Clz => di::clz(x(0)?).to_bits_u64(),
        B::Ctz => di::ctz(x(0)?).to_bits_u64(),
        B::Popcount => di::popcount(x(0)?).to_bits_u64(),
        B::SMulHi | B::UMulHi => di::mul_hi(x(0)?, x(1)?).to_bits_u64(),
        B::SMadHi | B::UMadHi => di::mad_hi(x(0)?, x(1)?, x(2)?).to_bits_u64(),
        B::SMadSat | B::UMadSat => di::mad_sat(x(0)?, x(1)?, x(2)?).to_bits_u64(),
        B::SMul24 | B::UMul24 => di::mul24(x(0)?, x(1)?).to_bits_u64(),
        B::SMad24 | B::UMad24 => di::mad24(x(0)?, x(1)?, x(2)?).to_bits_u64(),
        B::Rotate => di::rotate(x(0)?, x(1)?).to_bits_u64(),
        B::SMax | B::UMax => di::max(x(0)?, x(1)?).to_bits_u64(),
        B::SMin | B::UMin => di::min(x(0)?, x(1)?).to_bits_u64(),
        B::Bitselect => di::bitselect(x(0)?, x(1)?, x(2)?).to_bits_u64(),
        B::SUpsample | B::UUpsample => T::upsample_bits(*a.first()?, *a.get(1)?)?,
        _ => return None,
    })
}

/// `upsample` for the types that have a double-width type.
trait Upsampled {
    fn upsample_bits(hi: u64, lo: u64) -> Option<u64>;
}

macro_rules! upsampled {
    ($($t:ty => $u:ty),*) => {$(
        impl Upsampled for $t {
            fn upsample_bits(hi: u64, lo: u64) -> Option<u64> {
                Some(devlib::integer::upsample(<$t>::from_bits_u64(hi), <$u>::from_bits_u64(lo)).to_bits_u64())
            }
        }
    )*};
}
upsampled!(i8 => u8, i16 => u16, i32 => u32, u8 => u8, u16 => u16, u32 => u32);
impl Upsampled for i64 {
    fn upsample_bits(_: u64, _: u64) -> Option<u64> {
        None
    }
}
impl Upsampled for u64 {
    fn upsample_bits(_: u64, _: u64) -> Option<u64> {
        None
    }
}

/// The float builtins every type has, on `devlib::math::$m` (`$t` values, `$payload` nan codes).
macro_rules! float_common {
    ($m:ident, $t:ty, $payload:ty, $func:expr, $a:expr) => {{
        use devlib::math::$m as m;
        use BuiltinFn as B;
        let a: &[u64] = $a;
        let x = |i: usize| a.get(i).map(|&v| <$t as Float>::from_bits_u64(v));
        let k = |i: usize| a.get(i).map(|&v| v as u32 as i32);
        let r: $t = match $func {
            B::Acos => m::acos(x(0)?),
            B::Acosh => m::acosh(x(0)?),
            B::Acospi => m::acospi(x(0)?),
            B::Asin => m::asin(x(0)?),
            B::Asinh => m::asinh(x(0)?),
            B::Asinpi => m::asinpi(x(0)?),
            B::Atan => m::atan(x(0)?),
            B::Atan2 => m::atan2(x(0)?, x(1)?),
            B::Atanh => m::atanh(x(0)?),
            B::Atanpi => m::atanpi(x(0)?),
            B::Atan2pi => m::atan2pi(x(0)?, x(1)?),
            B::Cbrt => m::cbrt(x(0)?),
            B::Ceil => m::ceil(x(0)?),
            B::Copysign => m::copysign(x(0)?, x(1)?),
            B::Cos => m::cos(x(0)?),
            B::Cosh => m::cosh(x(0)?),
            B::Cospi => m::cospi(x(0)?),
            B::Erfc => m::erfc(x(0)?),
            B::Erf => m::erf(x(0)?),
            B::Exp => m::exp(x(0)?),
            B::Exp2 => m::exp2(x(0)?),
            B::Exp10 => m::exp10(x(0)?),
            B::Expm1 => m::expm1(x(0)?),
            B::Fabs => m::fabs(x(0)?),
            B::Fdim => m::fdim(x(0)?, x(1)?),
            B::Floor => m::floor(x(0)?),
            B::Fma => m::fma(x(0)?, x(1)?, x(2)?),
            B::Fmax => m::fmax(x(0)?, x(1)?),
            B::Fmin => m::fmin(x(0)?, x(1)?),
            B::Fmod => m::fmod(x(0)?, x(1)?),
            B::Hypot => m::hypot(x(0)?, x(1)?),
            B::Ilogb => return Some(u64::from(m::ilogb(x(0)?) as u32)),
            B::Ldexp => m::ldexp(x(0)?, k(1)?),
            B::Lgamma => m::lgamma(x(0)?),
            B::Log => m::log(x(0)?),
            B::Log2 => m::log2(x(0)?),
            B::Log10 => m::log10(x(0)?),
            B::Log1p => m::log1p(x(0)?),
            B::Logb => m::logb(x(0)?),
            B::Mad => m::mad(x(0)?, x(1)?, x(2)?),
            B::Maxmag => m::maxmag(x(0)?, x(1)?),
            B::Minmag => m::minmag(x(0)?, x(1)?),
            B::Nan => m::nan(*a.first()? as $payload),
            B::Nextafter => m::nextafter(x(0)?, x(1)?),
            B::Pow => m::pow(x(0)?, x(1)?),
            B::Pown => m::pown(x(0)?, k(1)?),
            B::Powr => m::powr(x(0)?, x(1)?),
            B::Remainder => m::remainder(x(0)?, x(1)?),
            B::Rint => m::rint(x(0)?),
            B::Rootn => m::rootn(x(0)?, k(1)?),
            B::Round => m::round(x(0)?),
            B::Rsqrt => m::rsqrt(x(0)?),
            B::Sin => m::sin(x(0)?),
            B::Sinh => m::sinh(x(0)?),
            B::Sinpi => m::sinpi(x(0)?),
            B::Sqrt => m::sqrt(x(0)?),
            B::Tan => m::tan(x(0)?),
            B::Tanh => m::tanh(x(0)?),
            B::Tanpi => m::tanpi(x(0)?),
            B::Tgamma => m::tgamma(x(0)?),
            B::Trunc => m::trunc(x(0)?),
            B::Fclamp => m::clamp(x(0)?, x(1)?, x(2)?),
            B::Degrees => m::degrees(x(0)?),
            B::FmaxCommon => m::max(x(0)?, x(1)?),
            B::FminCommon => m::min(x(0)?, x(1)?),
            B::Mix => m::mix(x(0)?, x(1)?, x(2)?),
            B::Radians => m::radians(x(0)?),
            B::Step => m::step(x(0)?, x(1)?),
            B::Smoothstep => m::smoothstep(x(0)?, x(1)?, x(2)?),
            B::Sign => m::sign(x(0)?),
            // half_* and native_* of types other than float: the full-accuracy function.
            B::HalfCos | B::NativeCos => m::cos(x(0)?),
            B::HalfExp | B::NativeExp => m::exp(x(0)?),
            B::HalfExp2 | B::NativeExp2 => m::exp2(x(0)?),
            B::HalfExp10 | B::NativeExp10 => m::exp10(x(0)?),
            B::HalfLog | B::NativeLog => m::log(x(0)?),
            B::HalfLog2 | B::NativeLog2 => m::log2(x(0)?),
            B::HalfLog10 | B::NativeLog10 => m::log10(x(0)?),
            B::HalfPowr | B::NativePowr => m::powr(x(0)?, x(1)?),
            B::HalfRsqrt | B::NativeRsqrt => m::rsqrt(x(0)?),
            B::HalfSin | B::NativeSin => m::sin(x(0)?),
            B::HalfSqrt | B::NativeSqrt => m::sqrt(x(0)?),
            B::HalfTan | B::NativeTan => m::tan(x(0)?),
            B::HalfDivide | B::NativeDivide => x(0)? / x(1)?,
            B::HalfRecip | B::NativeRecip => <$t as Float>::one() / x(0)?,
            _ => return None,
        };
        Some(r.to_bits_u64())
    }};
}

fn float_f16(func: BuiltinFn, a: &[u64]) -> Option<u64> {
    float_common!(f16, f16, u16, func, a)
}

fn float_f64(func: BuiltinFn, a: &[u64]) -> Option<u64> {
    float_common!(f64, f64, u64, func, a)
}

fn float_f32(func: BuiltinFn, a: &[u64]) -> Option<u64> {
    use devlib::math::f32 as m;
    use BuiltinFn as B;
    let x = |i: usize| a.get(i).map(|&v| f32::from_bits(v as u32));
    // The reduced-accuracy float variants devlib defines for float.
    let r = match func {
        B::HalfCos => m::half_cos(x(0)?),
        B::HalfDivide => m::half_divide(x(0)?, x(1)?),
        B::HalfExp => m::half_exp(x(0)?),
        B::HalfExp2 => m::half_exp2(x(0)?),
        B::HalfExp10 => m::half_exp10(x(0)?),
        B::HalfLog => m::half_log(x(0)?),
        B::HalfLog2 => m::half_log2(x(0)?),
        B::HalfLog10 => m::half_log10(x(0)?),
        B::HalfPowr => m::half_powr(x(0)?, x(1)?),
        B::HalfRecip => m::half_recip(x(0)?),
        B::HalfRsqrt => m::half_rsqrt(x(0)?),
        B::HalfSin => m::half_sin(x(0)?),
        B::HalfSqrt => m::half_sqrt(x(0)?),
        B::HalfTan => m::half_tan(x(0)?),
        B::NativeCos => m::native_cos(x(0)?),
        B::NativeDivide => m::native_divide(x(0)?, x(1)?),
        B::NativeExp => m::native_exp(x(0)?),
        B::NativeExp2 => m::native_exp2(x(0)?),
        B::NativeExp10 => m::native_exp10(x(0)?),
        B::NativeLog => m::native_log(x(0)?),
        B::NativeLog2 => m::native_log2(x(0)?),
        B::NativeLog10 => m::native_log10(x(0)?),
        B::NativePowr => m::native_powr(x(0)?, x(1)?),
        B::NativeRecip => m::native_recip(x(0)?),
        B::NativeRsqrt => m::native_rsqrt(x(0)?),
        B::NativeSin => m::native_sin(x(0)?),
        B::NativeSqrt => m::native_sqrt(x(0)?),
        B::NativeTan => m::native_tan(x(0)?),
        _ => return float_common!(f32, f32, u32, func, a),
    };
    Some(u64::from(r.to_bits()))
}

/// Functions returning a second result through a pointer (the last argument).
fn with_out_pointer(
    func: BuiltinFn,
    result: Option<Type>,
    args: &[(Type, Val)],
    mem: &mut Memory<'_>,
    address_bits: u32,
) -> Result<Val, BuiltinError> {
    use BuiltinFn as B;
    let rty = result.ok_or_else(|| unsupported(func, "without a result"))?;
    let (ptr_ty, ptr) = args
        .last()
        .ok_or_else(|| unsupported(func, "without a pointer"))?;
    if !ptr_ty.is_ptr() {
        return Err(unsupported(func, "whose last argument is not a pointer"));
    }
    let s = rty.lane_type().unwrap_or(ScalarType::F32);
    let lanes = rty.lanes() as usize;
    let (mut main, mut second) = (Vec::with_capacity(lanes), Vec::with_capacity(lanes));
    for i in 0..lanes {
        let a: Vec<u64> = args.iter().map(|(_, v)| v.lane(i)).collect();
        let pair = match s {
            ScalarType::F16 => pair_lane::<f16>(func, &a),
            ScalarType::F32 => pair_lane::<f32>(func, &a),
            ScalarType::F64 => pair_lane::<f64>(func, &a),
            _ => None,
        };
        let (r, o) = pair.ok_or_else(|| unsupported(func, &format!("on {rty}")))?;
        main.push(r);
        second.push(o);
    }
    // frexp, remquo and lgamma_r store ints; modf, fract and sincos store the argument type.
    let second_lane = if matches!(func, B::Frexp | B::Remquo | B::LgammaR) {
        ScalarType::I32
    } else {
        s
    };
    let second_ty = rty.with_lane(second_lane);
    let bytes = Val::from_lanes(second_ty, second).to_bytes(second_ty, address_bits);
    mem.write(ptr.s(), &bytes)?;
    Ok(Val::from_lanes(rty, main))
}

/// The per-type functions with two results, dispatched through `PairMath`.
fn pair_lane<F: PairMath>(func: BuiltinFn, a: &[u64]) -> Option<(u64, u64)> {
    use BuiltinFn as B;
    let x = |i: usize| a.get(i).map(|&v| F::from_bits_u64(v));
    let int = |v: i32| u64::from(v as u32);
    Some(match func {
        B::Frexp => {
            let (m, e) = F::frexp(x(0)?);
            (m.to_bits_u64(), int(e))
        }
        B::Modf => {
            let (f, i) = F::modf(x(0)?);
            (f.to_bits_u64(), i.to_bits_u64())
        }
        B::Fract => {
            let (f, fl) = F::fract(x(0)?);
            (f.to_bits_u64(), fl.to_bits_u64())
        }
        B::Sincos => {
            let (s, c) = F::sincos(x(0)?);
            (s.to_bits_u64(), c.to_bits_u64())
        }
        B::Remquo => {
            let (r, q) = F::remquo(x(0)?, x(1)?);
            (r.to_bits_u64(), int(q))
        }
        B::LgammaR => {
            let (l, s) = F::lgamma_r(x(0)?);
            (l.to_bits_u64(), int(s))
        }
        _ => return None,
    })
}

/// Two-result math of one float type.
trait PairMath: Float {
    fn frexp(x: Self) -> (Self, i32);
    fn modf(x: Self) -> (Self, Self);
    fn fract(x: Self) -> (Self, Self);
    fn sincos(x: Self) -> (Self, Self);
    fn remquo(x: Self, y: Self) -> (Self, i32);
    fn lgamma_r(x: Self) -> (Self, i32);
}

macro_rules! pair_math {
    ($($t:ident),*) => {$(
        impl PairMath for $t {
            fn frexp(x: Self) -> (Self, i32) { devlib::math::$t::frexp(x) }
            fn modf(x: Self) -> (Self, Self) { devlib::math::$t::modf(x) }
            fn fract(x: Self) -> (Self, Self) { devlib::math::$t::fract(x) }
            fn sincos(x: Self) -> (Self, Self) { devlib::math::$t::sincos(x) }
            fn remquo(x: Self, y: Self) -> (Self, i32) { devlib::math::$t::remquo(x, y) }
            fn lgamma_r(x: Self) -> (Self, i32) { devlib::math::$t::lgamma_r(x) }
        }
    )*};
}
pair_math!(f16, f32, f64);

/// cross, distance, length, normalize and their fast variants: whole-vector functions.
fn geometric(
    func: BuiltinFn,
    result: Option<Type>,
    args: &[(Type, Val)],
) -> Result<Val, BuiltinError> {
    let rty = result.ok_or_else(|| unsupported(func, "without a result"))?;
    let s = args
        .first()
        .and_then(|a| a.0.lane_type())
        .unwrap_or(ScalarType::F32);
    let r = match s {
        ScalarType::F16 => geometric_in::<f16>(func, rty, args),
        ScalarType::F32 => geometric_in::<f32>(func, rty, args),
        ScalarType::F64 => geometric_in::<f64>(func, rty, args),
        _ => None,
    };
    r.ok_or_else(|| unsupported(func, &format!("on {s}")))
}

fn geometric_in<F: Float>(func: BuiltinFn, rty: Type, args: &[(Type, Val)]) -> Option<Val> {
    use devlib::geometric as g;
    use BuiltinFn as B;
    let vec = |i: usize| -> Option<Vec<F>> {
        Some(
            args.get(i)?
                .1
                .lanes()
                .into_iter()
                .map(F::from_bits_u64)
                .collect(),
        )
    };
    let bits = |v: Vec<F>| -> Val {
        Val::from_lanes(rty, v.into_iter().map(Float::to_bits_u64).collect())
    };
    Some(match func {
        B::Cross => {
            let (a, b) = (vec(0)?, vec(1)?);
            match (a.len(), b.len()) {
                (3, 3) => bits(g::cross3(&[a[0], a[1], a[2]], &[b[0], b[1], b[2]]).to_vec()),
                (4, 4) => {
                    bits(g::cross4(&[a[0], a[1], a[2], a[3]], &[b[0], b[1], b[2], b[3]]).to_vec())
                }
                _ => return None,
            }
        }
        B::Distance => Val::S(g::distance(&vec(0)?, &vec(1)?).to_bits_u64()),
        B::FastDistance => Val::S(g::fast_distance(&vec(0)?, &vec(1)?).to_bits_u64()),
        B::Length => Val::S(g::length(&vec(0)?).to_bits_u64()),
        B::FastLength => Val::S(g::fast_length(&vec(0)?).to_bits_u64()),
        B::Normalize => bits(g::normalize(&vec(0)?)),
        B::FastNormalize => bits(g::fast_normalize(&vec(0)?)),
        _ => return None,
    })
}

/// Whether `call` computes `func` lane by lane through [`lane`] (every builtin except printf,
/// prefetch, the geometric functions, shuffles, the out-pointer functions and the ones the
/// lowering expands).
pub(crate) fn is_elementwise(func: BuiltinFn) -> bool {
    use BuiltinFn as B;
    !matches!(
        func,
        B::Printf
            | B::Prefetch
            | B::Cross
            | B::Distance
            | B::Length
            | B::Normalize
            | B::FastDistance
            | B::FastLength
            | B::FastNormalize
            | B::Shuffle
            | B::Shuffle2
            | B::Frexp
            | B::Modf
            | B::Fract
            | B::Sincos
            | B::Remquo
            | B::LgammaR
            | B::Vloadn
            | B::Vstoren
            | B::VloadHalf
            | B::VloadHalfn
            | B::VstoreHalf
            | B::VstoreHalfR
            | B::VstoreHalfn
            | B::VstoreHalfnR
            | B::VloadaHalfn
            | B::VstoreaHalfn
            | B::VstoreaHalfnR
            | B::Select
    )
}

/// One lane of an element-wise builtin, exactly as `call` computes it: `rty` is the call's
/// result type, `arg_ty` its first argument's type, `a` the lane of every argument. Used by the
/// JIT so both engines share one implementation.
pub(crate) fn lane(func: BuiltinFn, rty: Type, arg_ty: Type, a: &[u64]) -> Option<u64> {
    if let Some(kind) = int_kind(func) {
        let s = arg_ty.lane_type().unwrap_or(ScalarType::I32);
        return int_lane(func, s, kind, a);
    }
    let s = if func == BuiltinFn::Nan { rty } else { arg_ty }
        .lane_type()
        .unwrap_or(ScalarType::F32);
    match s {
        ScalarType::F16 => float_f16(func, a),
        ScalarType::F32 => float_f32(func, a),
        ScalarType::F64 => float_f64(func, a),
        _ => None,
    }
}
