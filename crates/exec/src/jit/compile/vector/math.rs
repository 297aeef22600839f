//! `exp`, `log`, `log2` and `log10` of varying `float` values on vectors: the `f64`
//! algorithms devlib's scalar `float` functions evaluate (`devlib::math::f32::exp` is the
//! `libm` (msun) `exp` of the widened argument, `log`, `log2` and `log10` msun's, each rounded
//! once when that is clearly not a midpoint case), written with the same operations in the
//! same order on two `f64x2` halves of the `f32x4`, so every lane has the bits of the scalar
//! function.
//!
//! Lanes the fast path does not cover go to the scalar function: for `exp`, arguments with
//! |x| ≥ 708.39… (msun's special-case threshold: overflow, underflow, ±∞) or NaN; for `log`,
//! `log2` and `log10`, arguments that are not positive and finite; for all four, results whose
//! `f64` value lies within the ambiguity margin of a float midpoint (devlib then decides with
//! its double-double evaluation: margin 4 `f64` ulps for `log`, 16 for the others); for `exp`
//! also results below 2^-126 (devlib tests those on the subnormal grid). Any
//! such lane sends the whole vector through the scalar calls (the same helpers the scalar
//! translation calls), which is rare in real data.
//!
//! msun `exp` (argument reduction `x = k ln2 + r`, `k` from `INVLN2 x ± 0.5` truncated, or ±1,
//! or 0 by magnitude; rational approximation; `scalbn(y, k)`): the three reductions are one
//! formula here, `hi = x - k ln2hi`, `lo = k ln2lo`, which gives the scalar values exactly
//! for `k = 0` too (`x - 0 = x`, `lo = +0`); arguments below 2^-28 give `1 + x` (selected).
//! `scalbn(y, k)` is one multiplication by 2^k for |k| ≤ 1022, which these `k` are.
//! msun `log`: the exponent and mantissa reduction on the high word (integer lanes), then the
//! polynomial; `k` as `f64` by the 1.5·2^52 trick (exact for these small integers); `log2` and
//! `log10` continue from the same polynomial with msun's hi/lo split.

// The constants are msun's (libm's sources), digit for digit.
#![allow(clippy::excessive_precision, clippy::approx_constant)]

use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{
    types, ConstantData, Endianness, InstBuilder, MemFlagsData, Type as ClType,
};
use cranelift_module::{Linkage, Module as _};
use kir::{BuiltinFn, InstData, ScalarType};

use super::super::{bargs, sig_of, ClValue, Translator, Unsupported};
use super::is_f32;

/// Which vector function a built-in is computed with.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum VecMath {
    Exp,
    Log,
    Log2,
    Log10,
}

/// The vector function computing `func` on `float`, if any: `half_` and `native_` forms are
/// devlib's full-accuracy functions too.
fn vec_math(func: BuiltinFn) -> Option<VecMath> {
    use BuiltinFn as B;
    match func {
        B::Exp | B::HalfExp | B::NativeExp => Some(VecMath::Exp),
        B::Log | B::HalfLog | B::NativeLog => Some(VecMath::Log),
        B::Log2 | B::HalfLog2 | B::NativeLog2 => Some(VecMath::Log2),
        B::Log10 | B::HalfLog10 | B::NativeLog10 => Some(VecMath::Log10),
        _ => None,
    }
}

// msun e_exp.c constants (libm 0.2 `exp`).
const EXP_LN2HI: f64 = 6.93147180369123816490e-01;
const EXP_LN2LO: f64 = 1.90821492927058770002e-10;
const EXP_INVLN2: f64 = 1.44269504088896338700e+00;
const EXP_P1: f64 = 1.66666666666666019037e-01;
const EXP_P2: f64 = -2.77777777770155933842e-03;
const EXP_P3: f64 = 6.61375632143793436117e-05;
const EXP_P4: f64 = -1.65339022054652515390e-06;
const EXP_P5: f64 = 4.13813679705723846039e-08;
/// |x| from which msun takes its special cases (high word 0x4086232b).
const EXP_SPECIAL: u64 = 0x4086_232b_0000_0000;
/// |x| from which the reduction uses `k = trunc(INVLN2 x ± 0.5)` (high word ≥ 0x3ff0a2b2).
const EXP_K_ROUNDED: u64 = 0x3ff0_a2b2_0000_0000;
/// |x| from which the reduction uses `k = ±1` (high word > 0x3fd62e42).
const EXP_K_ONE: u64 = 0x3fd6_2e43_0000_0000;
/// |x| from which the reduction runs at all (high word > 0x3e300000); below, `1 + x`.
const EXP_REDUCED: u64 = 0x3e30_0001_0000_0000;

// msun e_log.c constants (libm 0.2 `log`).
const LOG_LN2_HI: f64 = 6.93147180369123816490e-01;
const LOG_LN2_LO: f64 = 1.90821492927058770002e-10;
const LG1: f64 = 6.666666666666735130e-01;
const LG2: f64 = 3.999999999940941908e-01;
const LG3: f64 = 2.857142874366239149e-01;
const LG4: f64 = 2.222219843214978396e-01;
const LG5: f64 = 1.818357216161805012e-01;
const LG6: f64 = 1.531383769920937332e-01;
const LG7: f64 = 1.479819860511658591e-01;
// msun e_log2.c and e_log10.c constants.
const IVLN2HI: f64 = 1.44269504072144627571e+00;
const IVLN2LO: f64 = 1.67517131648865118353e-10;
const IVLN10HI: f64 = 4.34294481878168880939e-01;
const IVLN10LO: f64 = 2.50829467116452752298e-11;
const LOG10_2HI: f64 = 3.01029995663611771306e-01;
const LOG10_2LO: f64 = 3.69423907715893078616e-13;
/// devlib `rounding::AMBIGUOUS_F64_ULPS`: `f64` logs this close to a float midpoint (in the
/// 29 low mantissa bits) take devlib's double-double path.
const LOG_AMBIGUOUS_ULPS: i64 = 4;
/// devlib `rounding::NARROW_MARGIN_F64_ULPS`: the margin of float `exp`, `log2` and `log10`.
const NARROW_AMBIGUOUS_ULPS: i64 = 16;

/// Flags of a bitcast between vector types.
fn vec_cast() -> MemFlagsData {
    MemFlagsData::new().with_endianness(Endianness::Little)
}

impl Translator<'_, '_> {
    /// `inst` (a varying `float` `exp` or `log`) on `f32x4` forms; returns whether it was
    /// translated so.
    pub(super) fn simd_math_inst(&mut self, inst: kir::Inst) -> Result<bool, Unsupported> {
        let func = self.func;
        let Some(r) = func.dfg.inst_result(inst) else {
            return Ok(false);
        };
        let InstData::Builtin { func: bf, args } = func.dfg.inst(inst) else {
            return Ok(false);
        };
        let Some(which) = vec_math(*bf) else {
            return Ok(false);
        };
        if args.len() != 1 || !is_f32(self.ty(r)) || self.ty(args[0]) != self.ty(r) {
            return Ok(false);
        }
        let Some(direct) = crate::jit::math_rt::direct(*bf, ScalarType::F32) else {
            return Ok(false);
        };
        let sig = sig_of(self.m, &direct.params, &[direct.ret]);
        let id = self
            .m
            .declare_function(direct.name, Linkage::Import, &sig)
            .map_err(|e| e.to_string())?;
        let xs = self.simd_of(args[0])?;
        let mut out = Vec::new();
        for x in xs {
            let (fast, bad) = match which {
                VecMath::Exp => self.exp_f32x4(x),
                VecMath::Log | VecMath::Log2 | VecMath::Log10 => self.log_f32x4(x, which),
            };
            // Any lane off the fast path: every lane through the scalar function.
            let any = self.b.ins().vany_true(bad);
            let slow = self.b.create_block();
            let join = self.b.create_block();
            let res = self.b.append_block_param(join, types::F32X4);
            self.b.ins().brif(any, slow, &[], join, &bargs(&[fast]));
            self.b.switch_to_block(slow);
            self.b.set_cold_block(slow);
            let fref = self.m.declare_func_in_func(id, self.b.func);
            let mut v = x;
            for j in 0..4u8 {
                let l = self.b.ins().extractlane(x, j);
                let call = self.b.ins().call(fref, &[l]);
                let y = self.b.inst_results(call)[0];
                v = self.b.ins().insertlane(v, y, j);
            }
            self.b.ins().jump(join, &bargs(&[v]));
            self.b.switch_to_block(join);
            out.push(res);
        }
        self.vs().simd.insert(r, out);
        Ok(true)
    }

    fn f64x2(&mut self, c: f64) -> ClValue {
        let s = self.b.ins().f64const(c);
        self.b.ins().splat(types::F64X2, s)
    }

    fn i64x2(&mut self, c: i64) -> ClValue {
        let s = self.b.ins().iconst(types::I64, c);
        self.b.ins().splat(types::I64X2, s)
    }

    fn cast(&mut self, ty: ClType, x: ClValue) -> ClValue {
        if self.b.func.dfg.value_type(x) == ty {
            return x;
        }
        self.b.ins().bitcast(ty, vec_cast(), x)
    }

    /// Lanes of `a` where `mask` (a compare result) is set, of `b` elsewhere.
    fn sel(&mut self, mask: ClValue, a: ClValue, b: ClValue) -> ClValue {
        let ty = self.b.func.dfg.value_type(a);
        let m = self.cast(ty, mask);
        self.b.ins().bitselect(m, a, b)
    }

    /// Byte shuffle of `f32x4`s `a` and `b` (bytes 16.. are `b`'s).
    fn shuffle_bytes(&mut self, a: ClValue, b: ClValue, mask: [u8; 16]) -> ClValue {
        let a = self.cast(types::I8X16, a);
        let b = self.cast(types::I8X16, b);
        let imm = self
            .b
            .func
            .dfg
            .immediates
            .push(ConstantData::from(mask.to_vec()));
        let r = self.b.ins().shuffle(a, b, imm);
        self.cast(types::F32X4, r)
    }

    /// The two `f64x2` halves (lanes 0–1, lanes 2–3) of `f32x4` `x`, exactly widened.
    fn widen_halves(&mut self, x: ClValue) -> [ClValue; 2] {
        let lo = self.b.ins().fvpromote_low(x);
        let mut m = [0u8; 16];
        for (i, b) in m.iter_mut().enumerate() {
            *b = (8 + i % 8) as u8;
        }
        let up = self.shuffle_bytes(x, x, m);
        let hi = self.b.ins().fvpromote_low(up);
        [lo, hi]
    }

    /// The `f32x4` of two `f64x2` halves, each lane rounded to nearest even (Rust's `as f32`).
    fn narrow_halves(&mut self, lo: ClValue, hi: ClValue) -> ClValue {
        let a = self.b.ins().fvdemote(lo);
        let b = self.b.ins().fvdemote(hi);
        let mut m = [0u8; 16];
        for (i, v) in m.iter_mut().enumerate() {
            *v = if i < 8 { i as u8 } else { (8 + i) as u8 };
        }
        self.shuffle_bytes(a, b, m)
    }

    /// `exp` of `f32x4` `x`: the result and an `i64x2` mask of lanes (pairs) off the fast path.
    fn exp_f32x4(&mut self, x: ClValue) -> (ClValue, ClValue) {
        let [lo, hi] = self.widen_halves(x);
        let (rl, bl) = self.exp_f64x2(lo);
        let (rh, bh) = self.exp_f64x2(hi);
        let r = self.narrow_halves(rl, rh);
        let bad = self.b.ins().bor(bl, bh);
        (r, bad)
    }

    /// msun `exp` on `f64x2` (see the module doc) and the `i64x2` mask of special lanes.
    fn exp_f64x2(&mut self, x: ClValue) -> (ClValue, ClValue) {
        let ax = self.b.ins().fabs(x);
        let thr = |t: &mut Self, bits: u64| t.f64x2(f64::from_bits(bits));
        let special = thr(self, EXP_SPECIAL);
        let ok = self.b.ins().fcmp(FloatCC::LessThan, ax, special);
        let ok = self.cast(types::I64X2, ok);
        let bad = self.b.ins().bnot(ok);
        let zero = self.f64x2(0.0);
        let neg = self.b.ins().fcmp(FloatCC::LessThan, x, zero);
        // k for |x| ≥ 1.5 ln2: (INVLN2 x + HALF[sign]) truncated.
        let half_p = self.f64x2(0.5);
        let half_n = self.f64x2(-0.5);
        let half = self.sel(neg, half_n, half_p);
        let invln2 = self.f64x2(EXP_INVLN2);
        let t = self.b.ins().fmul(invln2, x);
        let t = self.b.ins().fadd(t, half);
        let k_big = self.b.ins().trunc(t);
        // k = 1 - 2 sign below that.
        let one_p = self.f64x2(1.0);
        let one_n = self.f64x2(-1.0);
        let k_one = self.sel(neg, one_n, one_p);
        let t_round = thr(self, EXP_K_ROUNDED);
        let big = self.b.ins().fcmp(FloatCC::GreaterThanOrEqual, ax, t_round);
        let t_one = thr(self, EXP_K_ONE);
        let mid = self.b.ins().fcmp(FloatCC::GreaterThanOrEqual, ax, t_one);
        let k = self.sel(mid, k_one, zero);
        let k = self.sel(big, k_big, k);
        let ln2hi = self.f64x2(EXP_LN2HI);
        let ln2lo = self.f64x2(EXP_LN2LO);
        let kh = self.b.ins().fmul(k, ln2hi);
        let hi = self.b.ins().fsub(x, kh);
        let lo = self.b.ins().fmul(k, ln2lo);
        let r = self.b.ins().fsub(hi, lo);
        // c = r - xx (P1 + xx (P2 + xx (P3 + xx (P4 + xx P5)))).
        let xx = self.b.ins().fmul(r, r);
        let mut p = self.f64x2(EXP_P5);
        for c in [EXP_P4, EXP_P3, EXP_P2, EXP_P1] {
            let m = self.b.ins().fmul(xx, p);
            let cv = self.f64x2(c);
            p = self.b.ins().fadd(cv, m);
        }
        let m = self.b.ins().fmul(xx, p);
        let c = self.b.ins().fsub(r, m);
        // y = 1 + (r c / (2 - c) - lo + hi).
        let rc = self.b.ins().fmul(r, c);
        let two = self.f64x2(2.0);
        let d = self.b.ins().fsub(two, c);
        let q = self.b.ins().fdiv(rc, d);
        let q = self.b.ins().fsub(q, lo);
        let q = self.b.ins().fadd(q, hi);
        let y = self.b.ins().fadd(one_p, q);
        // scalbn(y, k) = y × 2^k: 2^k's bits are (k + 1023) << 52, k + 1023 taken from the low
        // bits of 2^52 + 1023 + k.
        let magic = self.f64x2(4_503_599_627_371_519.0);
        let biased = self.b.ins().fadd(k, magic);
        let biased = self.cast(types::I64X2, biased);
        let scale = self.b.ins().ishl_imm_u(biased, 52);
        let scale = self.cast(types::F64X2, scale);
        let scaled = self.b.ins().fmul(y, scale);
        // |x| ≤ 2^-28: 1 + x.
        let tiny_x = self.b.ins().fadd(one_p, x);
        let t_red = thr(self, EXP_REDUCED);
        let reduced = self.b.ins().fcmp(FloatCC::GreaterThanOrEqual, ax, t_red);
        let v = self.sel(reduced, scaled, tiny_x);
        let amb = self.near_midpoint(v, NARROW_AMBIGUOUS_ULPS);
        let bad = self.b.ins().bor(bad, amb);
        // Results below the normal float range: devlib tests them on the subnormal grid.
        let min_normal = self.f64x2(f64::from(f32::MIN_POSITIVE));
        let below = self.b.ins().fcmp(FloatCC::LessThan, v, min_normal);
        let below = self.cast(types::I64X2, below);
        let bad = self.b.ins().bor(bad, below);
        (v, bad)
    }

    /// `log`, `log2` or `log10` of `f32x4` `x`: the result and an `i64x2` mask of lanes
    /// (pairs) to recompute.
    fn log_f32x4(&mut self, x: ClValue, which: VecMath) -> (ClValue, ClValue) {
        // Positive and finite (subnormal floats are normal doubles): msun's main path.
        let zero = self.b.ins().f32const(0.0);
        let zero = self.b.ins().splat(types::F32X4, zero);
        let inf = self.b.ins().f32const(f32::INFINITY);
        let inf = self.b.ins().splat(types::F32X4, inf);
        let pos = self.b.ins().fcmp(FloatCC::GreaterThan, x, zero);
        let fin = self.b.ins().fcmp(FloatCC::LessThan, x, inf);
        let ok = self.b.ins().band(pos, fin);
        let ok = self.cast(types::I64X2, ok);
        let bad_in = self.b.ins().bnot(ok);
        let [lo, hi] = self.widen_halves(x);
        if which != VecMath::Log {
            // devlib's log2 and log10: msun's, rounded once unless near a float midpoint.
            let rl = self.log2_10_f64x2(lo, which);
            let rh = self.log2_10_f64x2(hi, which);
            let al = self.near_midpoint(rl, NARROW_AMBIGUOUS_ULPS);
            let ah = self.near_midpoint(rh, NARROW_AMBIGUOUS_ULPS);
            let amb = self.b.ins().bor(al, ah);
            let bad = self.b.ins().bor(bad_in, amb);
            return (self.narrow_halves(rl, rh), bad);
        }
        let (rl, al) = self.log_f64x2(lo);
        let (rh, ah) = self.log_f64x2(hi);
        let r = self.narrow_halves(rl, rh);
        let amb = self.b.ins().bor(al, ah);
        let bad = self.b.ins().bor(bad_in, amb);
        (r, bad)
    }

    /// msun's reduction of positive normal `x` to `2^k (1 + f)` and the polynomial shared by
    /// its `log`, `log2` and `log10`: `(f, hfsq, s, r, k as f64)`.
    fn log_reduce(&mut self, x: ClValue) -> [ClValue; 5] {
        let ui = self.cast(types::I64X2, x);
        // hx += 0x3ff00000 - 0x3fe6a09e; k = (hx >> 20) - 0x3ff;
        // hx = (hx & 0x000fffff) + 0x3fe6a09e (all below 2^32: u32 arithmetic).
        let hx = self.b.ins().ushr_imm_u(ui, 32);
        let c = self.i64x2(0x3ff0_0000 - 0x3fe6_a09e);
        let hx = self.b.ins().iadd(hx, c);
        let e = self.b.ins().ushr_imm_u(hx, 20);
        let bias = self.i64x2(0x3ff);
        let k = self.b.ins().isub(e, bias);
        let mask = self.i64x2(0x000f_ffff);
        let m = self.b.ins().band(hx, mask);
        let c = self.i64x2(0x3fe6_a09e);
        let hx = self.b.ins().iadd(m, c);
        let hx = self.b.ins().ishl_imm_u(hx, 32);
        let low_mask = self.i64x2(0xffff_ffff);
        let low = self.b.ins().band(ui, low_mask);
        let ui = self.b.ins().bor(hx, low);
        let x = self.cast(types::F64X2, ui);
        // k as f64: 1.5·2^52 + k (its bits plus k), minus 1.5·2^52.
        let magic_bits = self.i64x2(0x4338_0000_0000_0000);
        let kb = self.b.ins().iadd(k, magic_bits);
        let kf = self.cast(types::F64X2, kb);
        let magic = self.f64x2(6_755_399_441_055_744.0);
        let dk = self.b.ins().fsub(kf, magic);
        let one = self.f64x2(1.0);
        let f = self.b.ins().fsub(x, one);
        let half = self.f64x2(0.5);
        let hf = self.b.ins().fmul(half, f);
        let hfsq = self.b.ins().fmul(hf, f);
        let two = self.f64x2(2.0);
        let d = self.b.ins().fadd(two, f);
        let s = self.b.ins().fdiv(f, d);
        let z = self.b.ins().fmul(s, s);
        let w = self.b.ins().fmul(z, z);
        // t1 = w (LG2 + w (LG4 + w LG6)); t2 = z (LG1 + w (LG3 + w (LG5 + w LG7))).
        let horner = |t: &mut Self, cs: &[f64]| {
            let mut p = t.f64x2(cs[0]);
            for &c in &cs[1..] {
                let m = t.b.ins().fmul(w, p);
                let cv = t.f64x2(c);
                p = t.b.ins().fadd(cv, m);
            }
            p
        };
        let p1 = horner(self, &[LG6, LG4, LG2]);
        let t1 = self.b.ins().fmul(w, p1);
        let p2 = horner(self, &[LG7, LG5, LG3, LG1]);
        let t2 = self.b.ins().fmul(z, p2);
        let r = self.b.ins().fadd(t2, t1);
        [f, hfsq, s, r, dk]
    }

    /// msun `log2` or `log10` on `f64x2` (positive normal lanes).
    fn log2_10_f64x2(&mut self, x: ClValue, which: VecMath) -> ClValue {
        let [f, hfsq, s, r, dk] = self.log_reduce(x);
        // hi = f - hfsq with its low word cleared; lo = f - hi - hfsq + s (hfsq + r).
        let hi = self.b.ins().fsub(f, hfsq);
        let hb = self.cast(types::I64X2, hi);
        let top = self.i64x2(-1i64 << 32);
        let hb = self.b.ins().band(hb, top);
        let hi = self.cast(types::F64X2, hb);
        let lo = self.b.ins().fsub(f, hi);
        let lo = self.b.ins().fsub(lo, hfsq);
        let a = self.b.ins().fadd(hfsq, r);
        let sa = self.b.ins().fmul(s, a);
        let lo = self.b.ins().fadd(lo, sa);
        let lohi = self.b.ins().fadd(lo, hi);
        let (y, val_hi, val_lo) = if which == VecMath::Log2 {
            // val_hi = hi IVLN2HI; val_lo = (lo + hi) IVLN2LO + lo IVLN2HI; y = k.
            let c = self.f64x2(IVLN2HI);
            let val_hi = self.b.ins().fmul(hi, c);
            let cl = self.f64x2(IVLN2LO);
            let a = self.b.ins().fmul(lohi, cl);
            let b = self.b.ins().fmul(lo, c);
            (dk, val_hi, self.b.ins().fadd(a, b))
        } else {
            // val_hi = hi IVLN10HI; y = k LOG10_2HI;
            // val_lo = k LOG10_2LO + (lo + hi) IVLN10LO + lo IVLN10HI.
            let c = self.f64x2(IVLN10HI);
            let val_hi = self.b.ins().fmul(hi, c);
            let c2 = self.f64x2(LOG10_2HI);
            let y = self.b.ins().fmul(dk, c2);
            let c3 = self.f64x2(LOG10_2LO);
            let a = self.b.ins().fmul(dk, c3);
            let cl = self.f64x2(IVLN10LO);
            let b = self.b.ins().fmul(lohi, cl);
            let a = self.b.ins().fadd(a, b);
            let b = self.b.ins().fmul(lo, c);
            (y, val_hi, self.b.ins().fadd(a, b))
        };
        // w = y + val_hi; val_lo += (y - w) + val_hi; val_hi = w; val_lo + val_hi.
        let w = self.b.ins().fadd(y, val_hi);
        let d = self.b.ins().fsub(y, w);
        let d = self.b.ins().fadd(d, val_hi);
        let val_lo = self.b.ins().fadd(val_lo, d);
        self.b.ins().fadd(val_lo, w)
    }

    /// msun `log` on `f64x2` (positive normal lanes) and the `i64x2` mask of lanes whose
    /// value is ambiguous for the rounding to `f32` (devlib's `f64_to_f32_if_unambiguous`).
    fn log_f64x2(&mut self, x: ClValue) -> (ClValue, ClValue) {
        let [f, hfsq, s, r, dk] = self.log_reduce(x);
        // s (hfsq + r) + dk LN2_LO - hfsq + f + dk LN2_HI, left to right.
        let a = self.b.ins().fadd(hfsq, r);
        let v = self.b.ins().fmul(s, a);
        let ln2lo = self.f64x2(LOG_LN2_LO);
        let kl = self.b.ins().fmul(dk, ln2lo);
        let v = self.b.ins().fadd(v, kl);
        let v = self.b.ins().fsub(v, hfsq);
        let v = self.b.ins().fadd(v, f);
        let ln2hi = self.f64x2(LOG_LN2_HI);
        let kh = self.b.ins().fmul(dk, ln2hi);
        let y = self.b.ins().fadd(v, kh);
        let amb = self.near_midpoint(y, LOG_AMBIGUOUS_ULPS);
        (y, amb)
    }

    /// The `i64x2` mask of lanes of `y` whose 29 low mantissa bits lie within `margin` of
    /// 2^28 (a float midpoint): devlib's rounding test without its range checks, so a superset
    /// of the lanes devlib decides on its slow path (the others it flags only go through the
    /// scalar function, which returns the same bits).
    fn near_midpoint(&mut self, y: ClValue, margin: i64) -> ClValue {
        let yb = self.cast(types::I64X2, y);
        let m29 = self.i64x2((1 << 29) - 1);
        let low = self.b.ins().band(yb, m29);
        let off = self.i64x2((1 << 28) - margin);
        let d = self.b.ins().isub(low, off);
        let lim = self.i64x2(2 * margin + 1);
        self.b.ins().icmp(IntCC::UnsignedLessThan, d, lim)
    }
}
