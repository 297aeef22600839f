//! Integer built-in functions against hand-computed values.

use devlib::integer::*;

#[test]
fn abs_and_abs_diff() {
    assert_eq!(abs(i8::MIN), 128u8);
    assert_eq!(abs(-5i32), 5u32);
    assert_eq!(abs(7u16), 7u16);
    assert_eq!(abs(i64::MIN), 1u64 << 63);
    assert_eq!(abs_diff(-128i8, 127i8), 255u8);
    assert_eq!(abs_diff(3u32, 10u32), 7u32);
    assert_eq!(abs_diff(i32::MIN, i32::MAX), u32::MAX);
}

#[test]
fn saturating_add_sub() {
    assert_eq!(add_sat(100i8, 100i8), 127);
    assert_eq!(add_sat(-100i8, -100i8), -128);
    assert_eq!(add_sat(200u8, 100u8), 255);
    assert_eq!(sub_sat(5u8, 10u8), 0);
    assert_eq!(sub_sat(i32::MIN, 1), i32::MIN);
    assert_eq!(add_sat(u64::MAX, 1), u64::MAX);
    assert_eq!(sub_sat(i64::MAX, -1), i64::MAX);
    assert_eq!(add_sat(3i16, -5i16), -2);
}

#[test]
fn halving_add() {
    assert_eq!(hadd(255u8, 255u8), 255);
    assert_eq!(hadd(-1i8, -2i8), -2); // floor(-1.5)
    assert_eq!(rhadd(255u8, 254u8), 255);
    assert_eq!(rhadd(-1i8, -2i8), -1);
    assert_eq!(hadd(u64::MAX, u64::MAX - 2), u64::MAX - 1);
    assert_eq!(rhadd(i32::MAX, i32::MAX), i32::MAX);
}

#[test]
fn bit_counts() {
    assert_eq!(clz(1u8), 7);
    assert_eq!(clz(0u32), 32);
    assert_eq!(clz(-1i16), 0);
    assert_eq!(clz(0x00ff_0000i32), 8);
    assert_eq!(ctz(0u64), 64);
    assert_eq!(ctz(8i32), 3);
    assert_eq!(ctz(0i8), 8);
    assert_eq!(popcount(-1i8), 8);
    assert_eq!(popcount(0xf0f0u16), 8);
    assert_eq!(popcount(u64::MAX), 64);
}

#[test]
fn high_multiply() {
    assert_eq!(mul_hi(0xffff_ffffu32, 0xffff_ffffu32), 0xffff_fffe);
    assert_eq!(mul_hi(-1i32, 1i32), -1);
    assert_eq!(mul_hi(u64::MAX, u64::MAX), u64::MAX - 1);
    assert_eq!(mul_hi(i64::MIN, i64::MIN), 1i64 << 62);
    assert_eq!(mul_hi(100u8, 100u8), 39); // 10000 = 39 * 256 + 16
    assert_eq!(mad_hi(16u8, 16u8, 1u8), 2);
    assert_eq!(mad_hi(255u8, 255u8, 2u8), 0); // 254 + 2 wraps
}

#[test]
fn saturating_multiply_add() {
    assert_eq!(mad_sat(i32::MAX, 2, 0), i32::MAX);
    assert_eq!(mad_sat(u64::MAX, u64::MAX, u64::MAX), u64::MAX);
    assert_eq!(mad_sat(-100i8, 2, 10), -128);
    assert_eq!(mad_sat(i64::MIN, 1, -1), i64::MIN);
    assert_eq!(mad_sat(10u16, 10u16, 5u16), 105);
}

#[test]
fn mul24_mad24() {
    assert_eq!(mul24(-3i32, 5i32), -15);
    assert_eq!(mul24(0xff_ffffu32, 2u32), 0x1ff_fffe);
    assert_eq!(mad24(1000u32, 1000u32, 7u32), 1_000_007);
    assert_eq!(mad24(-8_388_608i32, 1, -1), -8_388_609);
}

#[test]
fn rotations() {
    assert_eq!(rotate(0x81u8, 1u8), 0x03);
    assert_eq!(rotate(1u32, 33u32), 2);
    assert_eq!(rotate(-128i8, -1i8), 64); // -1 mod 8 = 7: 0x80 rotl 7 = 0x40
    assert_eq!(rotate(0x8000_0000_0000_0001u64, 4u64), 0x18);
    assert_eq!(rotate(0x1234i16, 0i16), 0x1234);
}

#[test]
fn upsampling() {
    assert_eq!(upsample(-1i8, 0xffu8), -1i16);
    assert_eq!(upsample(0x1234u16, 0x5678u16), 0x1234_5678u32);
    assert_eq!(upsample(1i32, 0u32), 1i64 << 32);
    assert_eq!(upsample(-2i16, 0x8000u16), -0x1_8000i32);
}

#[test]
fn min_max_clamp() {
    assert_eq!(max(-3i32, 2), 2);
    assert_eq!(min(-3i32, 2), -3);
    assert_eq!(max(200u8, 100), 200);
    assert_eq!(clamp(5i32, 0, 3), 3);
    assert_eq!(clamp(-5i64, 0, 3), 0);
    assert_eq!(clamp(2u16, 0, 3), 2);
}

#[test]
fn bit_selection() {
    assert_eq!(bitselect(0x0fu8, 0xf0u8, 0x3cu8), 0x33);
    assert_eq!(bitselect(-1i32, 0, 0x0000_ffff), -65536);
}

#[test]
fn dispatch_by_opencl_std_name() {
    assert_eq!(unary::<u8>("clz").map(|f| f(1)), Some(7));
    assert_eq!(unary::<i32>("popcount").map(|f| f(-1)), Some(32));
    assert_eq!(binary::<i8>("s_add_sat").map(|f| f(100, 100)), Some(127));
    assert_eq!(binary::<u8>("u_add_sat").map(|f| f(200, 100)), Some(255));
    assert_eq!(
        binary::<u32>("u_mul_hi").map(|f| f(0xffff_ffff, 2)),
        Some(1)
    );
    assert_eq!(binary::<i32>("s_mul24").map(|f| f(-3, 5)), Some(-15));
    assert_eq!(binary::<u16>("rotate").map(|f| f(0x8001, 1)), Some(0x0003));
    assert_eq!(
        ternary::<u16>("u_mad_sat").map(|f| f(300, 300, 0)),
        Some(u16::MAX)
    );
    assert_eq!(ternary::<i64>("s_clamp").map(|f| f(9, 0, 3)), Some(3));
    assert_eq!(
        ternary::<u32>("bitselect").map(|f| f(0, u32::MAX, 0xf0)),
        Some(0xf0)
    );
    assert!(binary::<i32>("s_abs").is_none() && unary::<i32>("nope").is_none());
    for n in [
        "s_hadd",
        "u_hadd",
        "s_rhadd",
        "u_rhadd",
        "s_max",
        "u_max",
        "s_min",
        "u_min",
        "s_sub_sat",
        "u_sub_sat",
        "u_mul24",
        "s_mul_hi",
    ] {
        assert!(binary::<i32>(n).is_some(), "{n}");
    }
    for n in [
        "s_mad_hi",
        "u_mad_hi",
        "s_mad_sat",
        "s_mad24",
        "u_mad24",
        "u_clamp",
    ] {
        assert!(ternary::<u64>(n).is_some(), "{n}");
    }
}
