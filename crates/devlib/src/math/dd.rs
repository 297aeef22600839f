//! Double-double arithmetic (an unevaluated sum `hi + lo` of two `f64`, about 106 bits), used
//! where one rounding of `f64` is not accurate enough: argument scaling by π in sinpi/cospi/tanpi
//! and the integer powers of pown/rootn.

/// `hi + lo` with `|lo| ≤ ulp(hi)/2`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Dd {
    pub(crate) hi: f64,
    pub(crate) lo: f64,
}

/// π as a double-double.
pub(crate) const PI: Dd = Dd {
    hi: core::f64::consts::PI,
    lo: 1.2246467991473532e-16,
};

/// Whether the CPU has the FMA instruction: always when the build targets it, detected once at
/// run time on a baseline x86-64 build, never elsewhere.
#[inline(always)]
pub(crate) fn has_fma() -> bool {
    #[cfg(target_feature = "fma")]
    {
        true
    }
    #[cfg(all(target_arch = "x86_64", not(target_feature = "fma")))]
    {
        use std::sync::atomic::{AtomicU8, Ordering};
        // 0: not known yet, 1: no, 2: yes.
        static FMA: AtomicU8 = AtomicU8::new(0);
        match FMA.load(Ordering::Relaxed) {
            2 => true,
            1 => false,
            _ => {
                let found = std::arch::is_x86_feature_detected!("fma");
                FMA.store(1 + u8::from(found), Ordering::Relaxed);
                found
            }
        }
    }
    #[cfg(all(not(target_arch = "x86_64"), not(target_feature = "fma")))]
    {
        false
    }
}

/// Defines `$name` as `$body` run through a copy of it compiled for the FMA instruction when
/// the CPU has it (x86-64 builds for the baseline CPU): the double-double helpers are
/// `#[inline(always)]`, so inside the copy [`two_prod`]'s `f64::mul_add` is one instruction
/// instead of Dekker's product. Elsewhere `$name` is `$body`.
macro_rules! fma_dispatch {
    ($(#[$attr:meta])* $vis:vis fn $name:ident($x:ident: f64) -> $ret:ty = $body:path) => {
        $(#[$attr])*
        $vis fn $name($x: f64) -> $ret {
            #[cfg(all(target_arch = "x86_64", not(target_feature = "fma")))]
            {
                #[target_feature(enable = "fma")]
                unsafe fn with_fma($x: f64) -> $ret {
                    $body($x)
                }
                if $crate::math::dd::has_fma() {
                    // SAFETY: the CPU has the FMA instruction (checked just above).
                    return unsafe { with_fma($x) };
                }
            }
            $body($x)
        }
    };
}
pub(crate) use fma_dispatch;

/// Exact product: `a × b = hi + lo` (lo exact unless it underflows).
/// With the FMA instruction, `lo = fma(a, b, -hi)`. Without it in the build (the baseline
/// x86-64 target), `f64::mul_add` is a call of the C library's fma (the instruction behind a
/// call when the CPU has it, a software routine costing tens of ns otherwise): Dekker's
/// product is used when the CPU lacks it, and inside the copies of [`fma_dispatch`] the call
/// becomes the instruction. Dekker's product: both factors split into 26-bit halves
/// (Veltkamp), whose products are exact as long as nothing overflows and |a·b| ≥ 2^-968 (the
/// smallest partial product stays normal); outside that range (and for zero, ∞ and NaN) the
/// fma routine.
#[inline(always)]
pub(crate) fn two_prod(a: f64, b: f64) -> Dd {
    let hi = a * b;
    #[cfg(target_feature = "fma")]
    let lo = a.mul_add(b, -hi);
    #[cfg(not(target_feature = "fma"))]
    let lo = if has_fma() {
        a.mul_add(b, -hi)
    } else {
        const TINY: f64 = f64::from_bits(0x0370_0000_0000_0000); // 2^-968
        const HUGE: f64 = f64::from_bits(0x7e20_0000_0000_0000); // 2^995
        if hi.abs() >= TINY && a.abs() <= HUGE && b.abs() <= HUGE {
            let (ah, al) = split(a);
            let (bh, bl) = split(b);
            ((ah * bh - hi) + ah * bl + al * bh) + al * bl
        } else {
            a.mul_add(b, -hi)
        }
    };
    Dd { hi, lo }
}

/// Veltkamp's split: `a = hi + lo` with both halves of at most 26 significant bits.
#[cfg(not(target_feature = "fma"))]
#[inline(always)]
fn split(a: f64) -> (f64, f64) {
    const SPLITTER: f64 = 134217729.0; // 2^27 + 1
    let t = SPLITTER * a;
    let hi = t - (t - a);
    (hi, a - hi)
}

/// `x` rounded to the nearest integer, ties to even, for |x| < 2^51: the addition of 1.5·2^52
/// rounds (`f64::round_ties_even` is a library call on the baseline x86-64 target).
#[inline]
pub(crate) fn round_to_int(x: f64) -> f64 {
    const SHIFTER: f64 = 6755399441055744.0; // 1.5 · 2^52
    (x + SHIFTER) - SHIFTER
}

/// Exact sum of two `f64` with `|a| ≥ |b|` not required.
#[inline(always)]
pub(crate) fn two_sum(a: f64, b: f64) -> Dd {
    let hi = a + b;
    let bb = hi - a;
    let lo = (a - (hi - bb)) + (b - bb);
    Dd { hi, lo }
}

#[inline(always)]
fn renormalize(hi: f64, lo: f64) -> Dd {
    let s = hi + lo;
    Dd {
        hi: s,
        lo: lo - (s - hi),
    }
}

impl Dd {
    #[inline(always)]
    pub(crate) fn from_f64(x: f64) -> Dd {
        Dd { hi: x, lo: 0.0 }
    }
    #[inline(always)]
    pub(crate) fn mul(self, o: Dd) -> Dd {
        let p = two_prod(self.hi, o.hi);
        let lo = p.lo + (self.hi * o.lo + self.lo * o.hi);
        renormalize(p.hi, lo)
    }
    #[inline(always)]
    pub(crate) fn mul_f64(self, b: f64) -> Dd {
        let p = two_prod(self.hi, b);
        renormalize(p.hi, p.lo + self.lo * b)
    }
    /// Quotient with relative error about 2^-104: `q1 = hi / o.hi`, then the remainder
    /// `self - q1·o` (its leading part exact through fma, Sterbenz) divided once more.
    #[inline(always)]
    pub(crate) fn div(self, o: Dd) -> Dd {
        let q1 = self.hi / o.hi;
        let p = two_prod(q1, o.hi);
        let r = ((self.hi - p.hi) - p.lo + self.lo) - q1 * o.lo;
        fast_two_sum(q1, r / o.hi)
    }
    #[inline(always)]
    pub(crate) fn add(self, o: Dd) -> Dd {
        let s = two_sum(self.hi, o.hi);
        let t = two_sum(self.lo, o.lo);
        let r = renormalize(s.hi, s.lo + t.hi);
        renormalize(r.hi, r.lo + t.lo)
    }
    #[inline(always)]
    pub(crate) fn sub(self, o: Dd) -> Dd {
        self.add(Dd {
            hi: -o.hi,
            lo: -o.lo,
        })
    }
    /// Multiplies by 2^k exactly (no overflow/underflow for the magnitudes used here).
    fn scale(self, k: i32) -> Dd {
        // 2^k itself overflows for k > 1023 (normalising a subnormal needs k up to 1074), so
        // scale in two exact steps.
        let half = k / 2;
        let (f, g) = (libm::scalbn(1.0, half), libm::scalbn(1.0, k - half));
        Dd {
            hi: self.hi * f * g,
            lo: self.lo * f * g,
        }
    }
}

/// A double-double with a separate binary exponent: `dd × 2^exp`, `dd.hi` in [0.5, 1).
#[derive(Clone, Copy, Debug)]
pub(crate) struct WideDd {
    pub(crate) dd: Dd,
    pub(crate) exp: i64,
}

impl WideDd {
    /// From a positive finite `f64`.
    pub(crate) fn new(x: f64) -> WideDd {
        WideDd {
            dd: Dd::from_f64(x),
            exp: 0,
        }
        .normalized()
    }
    fn normalized(self) -> WideDd {
        let (_, e) = libm::frexp(self.dd.hi);
        WideDd {
            dd: self.dd.scale(-e),
            exp: self.exp + i64::from(e),
        }
    }
    pub(crate) fn mul(self, o: WideDd) -> WideDd {
        WideDd {
            dd: self.dd.mul(o.dd),
            exp: self.exp + o.exp,
        }
        .normalized()
    }
    pub(crate) fn recip(self) -> WideDd {
        WideDd {
            dd: Dd::from_f64(1.0).div(self.dd),
            exp: -self.exp,
        }
        .normalized()
    }
    /// Rounds to `f64` (double rounding only in the subnormal range).
    #[inline(always)]
    pub(crate) fn to_f64(self) -> f64 {
        let e = self.exp.clamp(-4000, 4000) as i32;
        libm::scalbn(self.dd.hi + self.dd.lo, e)
    }
}

/// `x^n` for positive finite `x` as a double-double, when every intermediate power stays well
/// inside the normal range (`|n × log2 x| < 900`); `None` otherwise.
pub(crate) fn powi_dd_in_range(x: f64, n: i64) -> Option<Dd> {
    let e = libm::ilogb(x);
    // |log2 x| ≤ |e| + 1; every intermediate is x^k with 1 ≤ k ≤ |n|.
    let bound = (i64::from(e.unsigned_abs()) + 1).saturating_mul(n.abs());
    if bound >= 900 || !(x.is_normal()) {
        return None;
    }
    let mut base = Dd::from_f64(x);
    let mut acc = Dd::from_f64(1.0);
    let mut k = n.unsigned_abs();
    while k != 0 {
        if k & 1 == 1 {
            acc = acc.mul(base);
        }
        k >>= 1;
        if k != 0 {
            base = base.mul(base);
        }
    }
    Some(if n < 0 {
        Dd::from_f64(1.0).div(acc)
    } else {
        acc
    })
}

/// `x^n` for positive finite `x`, relative error about `|n| × 2^-104`.
pub(crate) fn powi_wide(x: f64, n: i64) -> WideDd {
    let mut base = WideDd::new(x);
    let mut acc = WideDd::new(1.0);
    let mut k = n.unsigned_abs();
    while k != 0 {
        if k & 1 == 1 {
            acc = acc.mul(base);
        }
        k >>= 1;
        if k != 0 {
            base = base.mul(base);
        }
    }
    if n < 0 {
        acc.recip()
    } else {
        acc
    }
}

/// π/2 as a double-double.
pub(crate) const FRAC_PI_2: Dd = Dd {
    hi: core::f64::consts::FRAC_PI_2,
    lo: 6.123233995736766e-17,
};

/// Exact sum when `|a| ≥ |b|` (or `a` is zero).
#[inline(always)]
pub(crate) fn fast_two_sum(a: f64, b: f64) -> Dd {
    let hi = a + b;
    Dd {
        hi,
        lo: b - (hi - a),
    }
}

impl Dd {
    /// The nearest `f64` (one rounding of `hi + lo`).
    #[inline(always)]
    pub(crate) fn to_f64(self) -> f64 {
        self.hi + self.lo
    }
    /// `hi + lo` rounded to odd: the `f64` toward zero of the exact sum with its last bit set
    /// when the sum is not exact (the sticky bit). Rounding that value again to a format of at
    /// most 51 bits (`f32`, `half`) gives the correct rounding of `hi + lo`, where rounding the
    /// nearest `f64` again can land on a midpoint and round the wrong way.
    pub(crate) fn to_f64_odd(self) -> f64 {
        let s = two_sum(self.hi, self.lo);
        if s.lo == 0.0 || !s.hi.is_finite() || s.hi.to_bits() & 1 == 1 {
            return s.hi;
        }
        // s.hi is even and inexact: step to its neighbour toward the exact value (odd).
        let toward_larger_magnitude = (s.lo > 0.0) == (s.hi > 0.0);
        let bits = s.hi.to_bits();
        f64::from_bits(if toward_larger_magnitude {
            bits + 1
        } else {
            bits - 1
        })
    }
    /// [`Dd::to_f64`] (`NEAREST`: the `FAST` variants of a function, the `double` ones) or
    /// [`Dd::to_f64_odd`] (the accurate variant, the fallback of the correctly rounded `float`
    /// and `half` functions, rounded once more).
    #[inline(always)]
    pub(crate) fn to_f64_nearest_or_odd<const NEAREST: bool>(self) -> f64 {
        if NEAREST {
            self.to_f64()
        } else {
            self.to_f64_odd()
        }
    }
    #[inline(always)]
    pub(crate) fn neg(self) -> Dd {
        Dd {
            hi: -self.hi,
            lo: -self.lo,
        }
    }
    #[inline(always)]
    pub(crate) fn add_f64(self, b: f64) -> Dd {
        let s = two_sum(self.hi, b);
        renormalize(s.hi, s.lo + self.lo)
    }
    /// Multiplies by a power of two (exact while the result stays normal).
    #[inline(always)]
    pub(crate) fn mul_pow2(self, f: f64) -> Dd {
        Dd {
            hi: self.hi * f,
            lo: self.lo * f,
        }
    }
    /// Square root, relative error about 2^-100.
    pub(crate) fn sqrt(self) -> Dd {
        if self.hi <= 0.0 {
            return Dd::from_f64(self.hi.sqrt());
        }
        let s = self.hi.sqrt();
        let sq = two_prod(s, s);
        let r = (self.hi - sq.hi - sq.lo + self.lo) / (2.0 * s);
        fast_two_sum(s, r)
    }
}

/// `a / b` for `f64` operands as a double-double (exact remainder through fma), for quotients
/// and remainders inside the normal range.
pub(crate) fn div_f64(a: f64, b: f64) -> Dd {
    let q = a / b;
    // a - q·b is exact (q·b = p.hi + p.lo exactly, a - p.hi exact by Sterbenz).
    let p = two_prod(q, b);
    let r = (a - p.hi) - p.lo;
    fast_two_sum(q, r / b)
}
