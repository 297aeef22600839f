//! Conversion tests against hand-computed bit patterns at every rounding mode and boundary.

use devlib::convert::{self, convert, Rounding, ScalarKind as K};
use half::f16;

const MODES: [Rounding; 4] = [Rounding::Rte, Rounding::Rtz, Rounding::Rtp, Rounding::Rtn];

fn f32b(x: f32) -> u64 {
    u64::from(x.to_bits())
}
fn f64b(x: f64) -> u64 {
    x.to_bits()
}

/// Checks `convert(bits, from, to, mode, sat)` for the four modes: expected in Rte, Rtz, Rtp, Rtn order.
#[track_caller]
fn check_modes(bits: u64, from: K, to: K, sat: bool, expected: [u64; 4]) {
    for (mode, want) in MODES.iter().zip(expected) {
        let got = convert(bits, from, to, Some(*mode), sat);
        assert_eq!(
            got, want,
            "{from:?}->{to:?} {mode:?} of {bits:#x}: got {got:#x}, want {want:#x}"
        );
    }
}

#[test]
fn int_to_f32_directed_rounding() {
    // 2^24 + 1 lies between 2^24 and 2^24 + 2; the tie goes to even (2^24).
    check_modes(
        16777217,
        K::U32,
        K::F32,
        false,
        [0x4b80_0000, 0x4b80_0000, 0x4b80_0001, 0x4b80_0000],
    );
    check_modes(
        16777217,
        K::I32,
        K::F32,
        false,
        [0x4b80_0000, 0x4b80_0000, 0x4b80_0001, 0x4b80_0000],
    );
    // i32::MAX = 2^31 - 1: neighbours 2^31 - 128 (0x4effffff) and 2^31 (0x4f000000).
    check_modes(
        0x7fff_ffff,
        K::I32,
        K::F32,
        false,
        [0x4f00_0000, 0x4eff_ffff, 0x4f00_0000, 0x4eff_ffff],
    );
    // -(2^31 - 1): toward +inf is -(2^31 - 128).
    let neg = (-2147483647i32) as u32 as u64;
    check_modes(
        neg,
        K::I32,
        K::F32,
        false,
        [0xcf00_0000, 0xceff_ffff, 0xceff_ffff, 0xcf00_0000],
    );
    // i32::MIN = -2^31 is exact.
    check_modes(0x8000_0000, K::I32, K::F32, false, [0xcf00_0000; 4]);
    // u64::MAX = 2^64 - 1: neighbours 2^64 - 2^40 (0x5f7fffff) and 2^64 (0x5f800000).
    check_modes(
        u64::MAX,
        K::U64,
        K::F32,
        false,
        [0x5f80_0000, 0x5f7f_ffff, 0x5f80_0000, 0x5f7f_ffff],
    );
    // i64 -1 → -1.0
    check_modes(u64::MAX, K::I64, K::F32, false, [0xbf80_0000; 4]);
    // default rounding for int → float is to nearest even
    assert_eq!(convert(16777219, K::U32, K::F32, None, false), 0x4b80_0002);
    assert_eq!(convert(0, K::I32, K::F32, None, false), 0);
}

#[test]
fn int_to_f64_and_f16() {
    check_modes(
        u64::MAX,
        K::U64,
        K::F64,
        false,
        [
            0x43f0_0000_0000_0000,
            0x43ef_ffff_ffff_ffff,
            0x43f0_0000_0000_0000,
            0x43ef_ffff_ffff_ffff,
        ],
    );
    check_modes(
        (1u64 << 53) + 1,
        K::I64,
        K::F64,
        false,
        [
            0x4340_0000_0000_0000,
            0x4340_0000_0000_0000,
            0x4340_0000_0000_0001,
            0x4340_0000_0000_0000,
        ],
    );
    check_modes(u64::MAX, K::I64, K::F64, false, [0xbff0_0000_0000_0000; 4]);
    // 65535 → half: 65504 is the largest finite; 65520 is the rounding boundary.
    check_modes(
        65535,
        K::U16,
        K::F16,
        false,
        [0x7c00, 0x7bff, 0x7c00, 0x7bff],
    );
    check_modes(
        2049,
        K::I32,
        K::F16,
        false,
        [0x6800, 0x6800, 0x6801, 0x6800],
    );
    // u8 255 → half exact (0x5bf8 = 255.0)
    check_modes(255, K::U8, K::F16, false, [0x5bf8; 4]);
}

#[test]
fn float_to_int_rounding() {
    let m05 = f32b(-0.5);
    check_modes(m05, K::F32, K::I32, false, [0, 0, 0, 0xffff_ffff]);
    let m15 = f32b(-1.5);
    check_modes(
        m15,
        K::F32,
        K::I32,
        false,
        [0xffff_fffe, 0xffff_ffff, 0xffff_ffff, 0xffff_fffe],
    );
    check_modes(f32b(2.5), K::F32, K::I32, false, [2, 2, 3, 2]);
    check_modes(f32b(3.5), K::F32, K::I32, false, [4, 3, 4, 3]);
    check_modes(f64b(-7.25), K::F64, K::I8, false, [0xf9, 0xf9, 0xf9, 0xf8]);
    check_modes(f64b(1e-300), K::F64, K::I64, false, [0, 0, 1, 0]);
    check_modes(f64b(-1e-300), K::F64, K::I64, false, [0, 0, 0, u64::MAX]);
    // default is toward zero
    assert_eq!(
        convert(f32b(-1.9), K::F32, K::I32, None, false),
        0xffff_ffff
    );
    assert_eq!(convert(f32b(1.9), K::F32, K::U8, None, false), 1);
    // half → int
    assert_eq!(convert(0x7bff, K::F16, K::I32, None, false), 65504);
    assert_eq!(
        convert(0x3e00, K::F16, K::I32, Some(Rounding::Rte), false),
        2
    ); // 1.5 → 2
}

#[test]
fn float_to_int_saturation() {
    let nan = u64::from(f32::NAN.to_bits());
    for to in [K::I8, K::U8, K::I16, K::U16, K::I32, K::U32, K::I64, K::U64] {
        assert_eq!(convert(nan, K::F32, to, None, true), 0, "NaN → {to:?}");
    }
    assert_eq!(convert(f32b(3e9), K::F32, K::I32, None, true), 0x7fff_ffff);
    assert_eq!(
        convert(f32b(3e9), K::F32, K::U32, None, true),
        3_000_000_000
    );
    assert_eq!(convert(f32b(-1.0), K::F32, K::U32, None, true), 0);
    assert_eq!(
        convert(f32b(-0.5), K::F32, K::U8, Some(Rounding::Rtn), true),
        0
    );
    assert_eq!(
        convert(f32b(1e20), K::F32, K::I64, None, true),
        i64::MAX as u64
    );
    assert_eq!(convert(f32b(1e20), K::F32, K::U64, None, true), u64::MAX);
    assert_eq!(
        convert(f32b(f32::INFINITY), K::F32, K::I8, None, true),
        0x7f
    );
    assert_eq!(
        convert(f32b(f32::NEG_INFINITY), K::F32, K::I8, None, true),
        0x80
    );
    assert_eq!(convert(f32b(300.0), K::F32, K::U8, None, true), 255);
    assert_eq!(convert(f32b(-129.0), K::F32, K::I8, None, true), 0x80);
    // 2^63 does not fit i64, -2^63 does.
    assert_eq!(
        convert(f64b(2f64.powi(63)), K::F64, K::I64, None, true),
        i64::MAX as u64
    );
    assert_eq!(
        convert(f64b(-(2f64.powi(63))), K::F64, K::I64, None, true),
        0x8000_0000_0000_0000
    );
    // 4294967295.5: to nearest even is 2^32 (out of range, saturates), toward zero fits.
    assert_eq!(
        convert(
            f64b(4294967295.5),
            K::F64,
            K::U32,
            Some(Rounding::Rte),
            true
        ),
        0xffff_ffff
    );
    assert_eq!(
        convert(
            f64b(4294967295.5),
            K::F64,
            K::U32,
            Some(Rounding::Rtz),
            true
        ),
        0xffff_ffff
    );
    assert_eq!(
        convert(
            f64b(4294967294.5),
            K::F64,
            K::U32,
            Some(Rounding::Rte),
            true
        ),
        4294967294
    );
}

#[test]
fn float_to_int_out_of_range_without_sat_is_saturated() {
    // Implementation-defined (002 "Out-of-Range Conversions"); oxcl documents saturation.
    assert_eq!(convert(f32b(3e9), K::F32, K::I32, None, false), 0x7fff_ffff);
    assert_eq!(convert(f32b(f32::NAN), K::F32, K::I32, None, false), 0);
    assert_eq!(convert(f32b(-5.0), K::F32, K::U16, None, false), 0);
}

#[test]
fn int_to_int() {
    let m1 = (-1i32) as u32 as u64;
    assert_eq!(convert(m1, K::I32, K::U8, None, false), 0xff);
    assert_eq!(convert(m1, K::I32, K::U8, None, true), 0);
    assert_eq!(convert(300, K::U32, K::I8, None, false), 44);
    assert_eq!(convert(300, K::U32, K::I8, None, true), 127);
    assert_eq!(
        convert((-5i64) as u64, K::I64, K::U64, None, false),
        0xffff_ffff_ffff_fffb
    );
    assert_eq!(convert((-5i64) as u64, K::I64, K::U64, None, true), 0);
    assert_eq!(
        convert(u64::MAX, K::U64, K::I64, None, true),
        i64::MAX as u64
    );
    assert_eq!(convert(u64::MAX, K::U64, K::I64, None, false), u64::MAX);
    assert_eq!(convert(0xff, K::I8, K::I32, None, false), 0xffff_ffff);
    assert_eq!(convert(0xff, K::U8, K::I32, None, false), 0xff);
    assert_eq!(convert(0x8000, K::I16, K::I8, None, true), 0x80);
    // bits above the source width are ignored
    assert_eq!(convert(0x1_0000_0005, K::U32, K::U64, None, false), 5);
}

#[test]
fn f32_to_f16_all_modes() {
    // 65520 is exactly halfway between 65504 and 2^16 (which overflows).
    check_modes(
        f32b(65520.0),
        K::F32,
        K::F16,
        false,
        [0x7c00, 0x7bff, 0x7c00, 0x7bff],
    );
    check_modes(
        f32b(-65520.0),
        K::F32,
        K::F16,
        false,
        [0xfc00, 0xfbff, 0xfbff, 0xfc00],
    );
    check_modes(f32b(65504.0), K::F32, K::F16, false, [0x7bff; 4]);
    check_modes(
        f32b(1e10),
        K::F32,
        K::F16,
        false,
        [0x7c00, 0x7bff, 0x7c00, 0x7bff],
    );
    // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: even is 1.
    check_modes(
        f32b(1.0 + 2f32.powi(-11)),
        K::F32,
        K::F16,
        false,
        [0x3c00, 0x3c00, 0x3c01, 0x3c00],
    );
    check_modes(
        f32b(1.0 + 3.0 * 2f32.powi(-11)),
        K::F32,
        K::F16,
        false,
        [0x3c02, 0x3c01, 0x3c02, 0x3c01],
    );
    // Subnormals: 2^-24 is the smallest; 2^-25 is halfway to 0.
    check_modes(f32b(2f32.powi(-24)), K::F32, K::F16, false, [0x0001; 4]);
    check_modes(
        f32b(2f32.powi(-25)),
        K::F32,
        K::F16,
        false,
        [0x0000, 0x0000, 0x0001, 0x0000],
    );
    check_modes(
        f32b(-(2f32.powi(-25))),
        K::F32,
        K::F16,
        false,
        [0x8000, 0x8000, 0x8000, 0x8001],
    );
    check_modes(
        f32b(1.5 * 2f32.powi(-24)),
        K::F32,
        K::F16,
        false,
        [0x0002, 0x0001, 0x0002, 0x0001],
    );
    // Largest subnormal rounding up to the smallest normal (0x0400 = 2^-14).
    check_modes(
        f32b(2f32.powi(-14) - 2f32.powi(-30)),
        K::F32,
        K::F16,
        false,
        [0x0400, 0x03ff, 0x0400, 0x03ff],
    );
    check_modes(f32b(-0.0), K::F32, K::F16, false, [0x8000; 4]);
    check_modes(f32b(f32::INFINITY), K::F32, K::F16, false, [0x7c00; 4]);
    let nan = convert(f32b(f32::NAN), K::F32, K::F16, None, false);
    assert!(
        nan & 0x7c00 == 0x7c00 && nan & 0x3ff != 0 && nan & 0x200 != 0,
        "{nan:#x}"
    );
    // Typed helpers agree.
    assert_eq!(
        convert::f32_to_f16(65520.0, Rounding::Rtz),
        f16::from_bits(0x7bff)
    );
    assert_eq!(convert::f64_to_f16(65520.0, Rounding::Rte), f16::INFINITY);
}

#[test]
fn f64_to_f16_uses_every_bit_for_rounding() {
    // 1 + 2^-11 + 2^-40: just above the halfway point, so it rounds up in to-nearest.
    let x = 1.0 + 2f64.powi(-11) + 2f64.powi(-40);
    assert_eq!(convert(f64b(x), K::F64, K::F16, None, false), 0x3c01);
    assert_eq!(convert::f64_to_f16(x, Rounding::Rte).to_bits(), 0x3c01);
    use devlib::Float;
    assert_eq!(<f16 as Float>::from_f64(x).to_bits(), 0x3c01);
}

#[test]
fn f64_to_f32_all_modes() {
    // f32::MAX + half an ulp = 2^128 - 2^103: the tie goes to even, which overflows.
    let x = 2f64.powi(128) - 2f64.powi(103);
    check_modes(
        f64b(x),
        K::F64,
        K::F32,
        false,
        [0x7f80_0000, 0x7f7f_ffff, 0x7f80_0000, 0x7f7f_ffff],
    );
    check_modes(f64b(1e-46), K::F64, K::F32, false, [0, 0, 1, 0]);
    check_modes(
        f64b(-1e-46),
        K::F64,
        K::F32,
        false,
        [0x8000_0000, 0x8000_0000, 0x8000_0000, 0x8000_0001],
    );
    check_modes(
        f64b(0.1),
        K::F64,
        K::F32,
        false,
        [0x3dcc_cccd, 0x3dcc_cccc, 0x3dcc_cccd, 0x3dcc_cccc],
    );
    check_modes(
        f64b(-0.1),
        K::F64,
        K::F32,
        false,
        [0xbdcc_cccd, 0xbdcc_cccc, 0xbdcc_cccc, 0xbdcc_cccd],
    );
    assert_eq!(
        convert::f64_to_f32(0.1, Rounding::Rtz).to_bits(),
        0x3dcc_cccc
    );
}

#[test]
fn widening_is_exact() {
    check_modes(0x7bff, K::F16, K::F32, false, [f32b(65504.0); 4]);
    check_modes(0x0001, K::F16, K::F32, false, [f32b(2f32.powi(-24)); 4]);
    check_modes(0x8000, K::F16, K::F64, false, [f64b(-0.0); 4]);
    check_modes(0xfc00, K::F16, K::F64, false, [f64b(f64::NEG_INFINITY); 4]);
    check_modes(
        1,
        K::F32,
        K::F64,
        false,
        [f64b(f64::from(f32::from_bits(1))); 4],
    );
    assert_eq!(
        convert::f16_to_f32(f16::from_bits(0x3555)),
        f32::from_bits(0x3eaa_a000)
    );
    assert_eq!(convert::f16_to_f64(f16::from_bits(0x0200)), 2f64.powi(-15));
    let nan = convert(0x7e01, K::F16, K::F32, None, false);
    assert!(f32::from_bits(nan as u32).is_nan());
}

/// Every f16 value round-trips through f32 and f64, and int → f32 matches Rust's `as` (which is
/// round-to-nearest-even) on a sweep of values.
#[test]
fn sweeps_against_rust_as() {
    for bits in 0..=u16::MAX as u64 {
        let wide = convert(bits, K::F16, K::F64, None, false);
        if f64::from_bits(wide).is_nan() {
            continue;
        }
        assert_eq!(convert(wide, K::F64, K::F16, None, false), bits);
        let f = convert(bits, K::F16, K::F32, None, false);
        assert_eq!(f, u64::from((f64::from_bits(wide) as f32).to_bits()));
    }
    let mut s = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..200_000 {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        let v = s >> (s % 64);
        assert_eq!(
            convert(v, K::U64, K::F32, None, false),
            u64::from((v as f32).to_bits())
        );
        assert_eq!(
            convert(v, K::I64, K::F64, None, false),
            ((v as i64) as f64).to_bits()
        );
        let x = f64::from_bits(s);
        if x.is_finite() {
            assert_eq!(
                convert(s, K::F64, K::F32, None, false),
                u64::from((x as f32).to_bits())
            );
            let t = x.trunc();
            if t.abs() < 9.2e18 {
                assert_eq!(convert(s, K::F64, K::I64, None, true), (t as i64) as u64);
            }
        }
    }
}

/// The fast f64 → half path of `Float::from_f64` agrees with the general routine everywhere:
/// near every half value and its midpoints, and at random doubles.
#[test]
fn f16_from_f64_fast_path_matches_general_routine() {
    use devlib::Float;
    let general = |x: f64| convert(x.to_bits(), K::F64, K::F16, Some(Rounding::Rte), false) as u16;
    for bits in 0..0x7c00u16 {
        let v = convert::f16_to_f64(f16::from_bits(bits));
        let next = convert::f16_to_f64(f16::from_bits(bits + 1));
        let mid = (v + next) / 2.0; // exact
        for x in [
            v,
            mid,
            f64::from_bits(mid.to_bits() + 1),
            f64::from_bits(mid.to_bits() - 1),
        ] {
            for x in [x, -x] {
                assert_eq!(<f16 as Float>::from_f64(x).to_bits(), general(x), "{x:e}");
            }
        }
    }
    let mut st = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..100_000 {
        st ^= st << 13;
        st ^= st >> 7;
        st ^= st << 17;
        let x = f64::from_bits((st & 0x80ff_ffff_ffff_ffff) | 0x3e00_0000_0000_0000);
        assert_eq!(<f16 as Float>::from_f64(x).to_bits(), general(x), "{x:e}");
    }
}

/// Directed rounding derived independently: take Rust's round-to-nearest (`as`, or
/// `half::f16::from_f32`) and step one value toward the mode's direction when it lies on the
/// wrong side of the exact value (compared exactly).
fn directed_from_nearest<T: Copy + PartialOrd>(
    nearest: T,
    cmp_to_exact: core::cmp::Ordering,
    exact_negative: bool,
    mode: Rounding,
    next_up: impl Fn(T) -> T,
    next_down: impl Fn(T) -> T,
) -> T {
    use core::cmp::Ordering::*;
    match (mode, cmp_to_exact) {
        (Rounding::Rte, _) | (_, Equal) => nearest,
        (Rounding::Rtp, Less) => next_up(nearest),
        (Rounding::Rtn, Greater) => next_down(nearest),
        (Rounding::Rtz, Greater) if !exact_negative => next_down(nearest),
        (Rounding::Rtz, Less) if exact_negative => next_up(nearest),
        _ => nearest,
    }
}

fn f16_next_up(h: f16) -> f16 {
    let b = h.to_bits();
    f16::from_bits(match b {
        0x8000 => 0x0001,
        _ if b & 0x8000 != 0 => b - 1,
        _ => b + 1,
    })
}

fn f16_next_down(h: f16) -> f16 {
    let b = h.to_bits();
    f16::from_bits(match b {
        0x0000 => 0x8001,
        _ if b & 0x8000 != 0 => b + 1,
        _ => b - 1,
    })
}

#[test]
fn directed_rounding_matches_independent_oracle() {
    let mut st = 0x0123_4567_89ab_cdefu64;
    let mut next = || {
        st ^= st << 13;
        st ^= st >> 7;
        st ^= st << 17;
        st
    };
    for _ in 0..100_000 {
        let bits = next();
        // f64 → f32
        let x = f64::from_bits(bits);
        if x.is_finite() {
            let r = x as f32;
            let ord = f64::from(r)
                .partial_cmp(&x)
                .unwrap_or(core::cmp::Ordering::Equal);
            for mode in MODES {
                let want =
                    directed_from_nearest(r, ord, x < 0.0, mode, f32::next_up, f32::next_down);
                let got = convert(bits, K::F64, K::F32, Some(mode), false);
                assert_eq!(got, u64::from(want.to_bits()), "f64 {x:e} → f32 {mode:?}");
            }
        }
        // f64 → i64 in every mode: trunc / ceil / floor / round_ties_even
        let z = x / f64::from_bits(0x4000_0000_0000_0000 + ((next() % 64) << 52)); // spread magnitudes
        if z.is_finite() && z.abs() < 4e18 {
            let want = [z.round_ties_even(), z.trunc(), z.ceil(), z.floor()];
            for (mode, w) in MODES.iter().zip(want) {
                let got = convert(z.to_bits(), K::F64, K::I64, Some(*mode), false);
                assert_eq!(got, (w as i64) as u64, "f64 {z:e} → i64 {mode:?}");
            }
        }
        // i64 / u64 → f32 and f64
        let shift = next() % 64;
        let v = bits >> shift;
        let signed = v as i64;
        for mode in MODES {
            let r = signed as f32;
            let ord = i128::from(signed).cmp(&(f64::from(r) as i128)).reverse();
            let want =
                directed_from_nearest(r, ord, signed < 0, mode, f32::next_up, f32::next_down);
            assert_eq!(
                convert(v, K::I64, K::F32, Some(mode), false),
                u64::from(want.to_bits()),
                "i64 {signed} {mode:?}"
            );
            let r = v as f64;
            let ord = i128::from(v).cmp(&(r as i128)).reverse();
            let want = directed_from_nearest(r, ord, false, mode, f64::next_up, f64::next_down);
            assert_eq!(
                convert(v, K::U64, K::F64, Some(mode), false),
                want.to_bits(),
                "u64 {v} {mode:?}"
            );
        }
        // f32 → f16 (half's from_f32 rounds to nearest even from the full f32 mantissa)
        let y = f32::from_bits(bits as u32);
        if y.is_finite() {
            let r = f16::from_f32(y);
            let ord = r
                .to_f32()
                .partial_cmp(&y)
                .unwrap_or(core::cmp::Ordering::Equal);
            for mode in MODES {
                let want = directed_from_nearest(r, ord, y < 0.0, mode, f16_next_up, f16_next_down);
                let got = convert(u64::from(y.to_bits()), K::F32, K::F16, Some(mode), false);
                assert_eq!(got, u64::from(want.to_bits()), "f32 {y:e} → f16 {mode:?}");
            }
        }
    }
}

/// The fast paths of `convert` (through Rust's `as`) agree with the exact routine for every
/// pair of kinds, every mode and saturation, at random and boundary bit patterns.
#[test]
fn fast_paths_agree_with_reference_routine() {
    use devlib::convert::convert_reference;
    let kinds = [
        K::I8,
        K::U8,
        K::I16,
        K::U16,
        K::I32,
        K::U32,
        K::I64,
        K::U64,
        K::F16,
        K::F32,
        K::F64,
    ];
    let modes = [
        None,
        Some(Rounding::Rte),
        Some(Rounding::Rtz),
        Some(Rounding::Rtp),
        Some(Rounding::Rtn),
    ];
    let mut st = 0xdead_beef_cafe_f00du64;
    let mut samples: Vec<u64> = vec![
        0,
        1,
        u64::MAX,
        0x8000_0000,
        0x7fff_ffff,
        0x7f80_0000,
        0xff80_0000,
        0x7fc0_0000,
        0x4f00_0000,
        0xcf00_0000,
        0x7ff0_0000_0000_0000,
        0x43e0_0000_0000_0000,
        0xc3e0_0000_0000_0000,
        0x41df_ffff_ffc0_0000,
        (-0.5f64).to_bits(),
        2.5f64.to_bits(),
        u64::from(2.5f32.to_bits()),
        u64::from((-1.5f32).to_bits()),
    ];
    for _ in 0..4_000 {
        st ^= st << 13;
        st ^= st >> 7;
        st ^= st << 17;
        samples.push(st);
        samples.push(st >> (st % 61));
    }
    for &bits in &samples {
        for from in kinds {
            let masked = if from.bits() == 64 {
                bits
            } else {
                bits & ((1u64 << from.bits()) - 1)
            };
            for to in kinds {
                for mode in modes {
                    for sat in [false, true] {
                        let fast = convert(masked, from, to, mode, sat);
                        let slow = convert_reference(masked, from, to, mode, sat);
                        assert_eq!(
                            fast, slow,
                            "{masked:#x} {from:?}->{to:?} {mode:?} sat={sat}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn vload_vstore_half() {
    use devlib::convert::{vload_half, vstore_half_f32, vstore_half_f64};
    assert_eq!(vload_half(0x3c00), 1.0);
    assert_eq!(vload_half(0xfbff), -65504.0);
    assert_eq!(vstore_half_f32(65520.0, None), 0x7c00);
    assert_eq!(vstore_half_f32(65520.0, Some(Rounding::Rtz)), 0x7bff);
    assert_eq!(
        vstore_half_f32(-(2f32.powi(-25)), Some(Rounding::Rtn)),
        0x8001
    );
    // 1 + 2^-11 + 2^-40 rounds up only when rounded once from the double.
    assert_eq!(
        vstore_half_f64(1.0 + 2f64.powi(-11) + 2f64.powi(-40), None),
        0x3c01
    );
    assert_eq!(vstore_half_f64(0.1, Some(Rounding::Rtp)), 0x2e67);
    assert_eq!(vstore_half_f64(0.1, Some(Rounding::Rtz)), 0x2e66);
}
