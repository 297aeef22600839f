//! One assertion per line of 002 "Edge Case Behavior" ("Additional Requirements Beyond ISO/IEC
//! 9899:TC2" and "Changes to ISO/IEC 9899: TC2 Behavior"), run for `float` and `double`, plus a
//! selection of C99 F.9 special values. Expected values are the ones the specification prescribes.

macro_rules! edge_case_tests {
    ($module:ident, $t:ident, $smallest_subnormal_bits:expr, $nan_payload:ty) => {
        mod $module {
            use devlib::geometric;
            use devlib::math::$module as m;

            const INF: $t = $t::INFINITY;
            const NAN: $t = $t::NAN;

            /// Same value, including the sign of zero; all NaNs are alike.
            fn same(a: $t, b: $t) -> bool {
                (a.is_nan() && b.is_nan()) || a.to_bits() == b.to_bits()
            }

            #[track_caller]
            fn check(actual: $t, expected: $t) {
                assert!(
                    same(actual, expected),
                    "got {actual:?} ({:#x}), expected {expected:?}",
                    actual.to_bits()
                );
            }

            #[test]
            fn acospi() {
                check(m::acospi(1.0), 0.0); // acospi(1) = +0
                check(m::acospi(1.5), NAN); // NaN for |x| > 1
                check(m::acospi(-1.5), NAN);
            }

            #[test]
            fn asinpi() {
                check(m::asinpi(0.0), 0.0); // asinpi(±0) = ±0
                check(m::asinpi(-0.0), -0.0);
                check(m::asinpi(2.0), NAN); // NaN for |x| > 1
                check(m::asinpi(-2.0), NAN);
            }

            #[test]
            fn atanpi() {
                check(m::atanpi(0.0), 0.0); // atanpi(±0) = ±0
                check(m::atanpi(-0.0), -0.0);
                check(m::atanpi(INF), 0.5); // atanpi(±∞) = ±0.5
                check(m::atanpi(-INF), -0.5);
            }

            #[test]
            fn atan2pi() {
                check(m::atan2pi(0.0, -0.0), 1.0); // (±0, -0) = ±1
                check(m::atan2pi(-0.0, -0.0), -1.0);
                check(m::atan2pi(0.0, 0.0), 0.0); // (±0, +0) = ±0
                check(m::atan2pi(-0.0, 0.0), -0.0);
                check(m::atan2pi(0.0, -3.0), 1.0); // (±0, x<0) = ±1
                check(m::atan2pi(-0.0, -3.0), -1.0);
                check(m::atan2pi(0.0, 3.0), 0.0); // (±0, x>0) = ±0
                check(m::atan2pi(-0.0, 3.0), -0.0);
                check(m::atan2pi(-2.0, 0.0), -0.5); // (y<0, ±0) = -0.5
                check(m::atan2pi(-2.0, -0.0), -0.5);
                check(m::atan2pi(2.0, 0.0), 0.5); // (y>0, ±0) = 0.5
                check(m::atan2pi(2.0, -0.0), 0.5);
                check(m::atan2pi(2.0, -INF), 1.0); // (±y, -∞) = ±1, finite y > 0
                check(m::atan2pi(-2.0, -INF), -1.0);
                check(m::atan2pi(2.0, INF), 0.0); // (±y, +∞) = ±0, finite y > 0
                check(m::atan2pi(-2.0, INF), -0.0);
                check(m::atan2pi(INF, 5.0), 0.5); // (±∞, finite x) = ±0.5
                check(m::atan2pi(-INF, -5.0), -0.5);
                check(m::atan2pi(INF, -INF), 0.75); // (±∞, -∞) = ±0.75
                check(m::atan2pi(-INF, -INF), -0.75);
                check(m::atan2pi(INF, INF), 0.25); // (±∞, +∞) = ±0.25
                check(m::atan2pi(-INF, INF), -0.25);
            }

            #[test]
            fn ceil() {
                check(m::ceil(-0.5), -0.0); // ceil(-1 < x < 0) = -0
                check(m::ceil(-0.999), -0.0);
            }

            #[test]
            fn cospi() {
                check(m::cospi(0.0), 1.0); // cospi(±0) = 1
                check(m::cospi(-0.0), 1.0);
                check(m::cospi(0.5), 0.0); // cospi(n + 0.5) = +0
                check(m::cospi(1.5), 0.0);
                check(m::cospi(-0.5), 0.0);
                check(m::cospi(-7.5), 0.0);
                check(m::cospi(1000001.5), 0.0);
                check(m::cospi(INF), NAN); // cospi(±∞) = NaN
                check(m::cospi(-INF), NAN);
            }

            #[test]
            fn exp10() {
                check(m::exp10(0.0), 1.0); // exp10(±0) = 1
                check(m::exp10(-0.0), 1.0);
                check(m::exp10(-INF), 0.0); // exp10(-∞) = +0
                check(m::exp10(INF), INF); // exp10(+∞) = +∞
            }

            #[test]
            fn distance_without_overflow_or_underflow() {
                let big: $t = $t::MAX / 4.0;
                let d = geometric::distance(&[big, big], &[0.0 as $t, 0.0]);
                assert!(d.is_finite() && (d / big - core::$t::consts::SQRT_2).abs() < 1e-6);
                let tiny: $t = $t::MIN_POSITIVE * 8.0;
                let d = geometric::distance(&[tiny, 0.0], &[0.0 as $t, tiny]);
                assert!((d / tiny - core::$t::consts::SQRT_2).abs() < 1e-6);
                let d = geometric::distance(&[$t::MAX], &[-$t::MAX]);
                check(d, INF); // the true distance exceeds the range
            }

            #[test]
            fn fdim() {
                check(m::fdim(1.0, NAN), NAN); // fdim(any, NaN) = NaN
                check(m::fdim(NAN, 1.0), NAN); // fdim(NaN, any) = NaN
            }

            #[test]
            fn fmod() {
                check(m::fmod(0.0, NAN), NAN); // fmod(±0, NaN) = NaN
                check(m::fmod(-0.0, NAN), NAN);
            }

            #[test]
            fn fract() {
                let just_below_one = $t::from_bits((1.0 as $t).to_bits() - 1);
                for x in [-1e-30 as $t, -1e-10, 5.0, -3.0, 1e20, -0.1, 0.7] {
                    let (f, _) = m::fract(x); // never ≥ 1.0, never < 0
                    assert!((0.0..1.0).contains(&f), "fract({x}) = {f}");
                }
                check(m::fract(-1e-30).0, just_below_one);
                let (f, i) = m::fract(0.0);
                check(f, 0.0); // fract(+0) = +0, +0
                check(i, 0.0);
                let (f, i) = m::fract(-0.0);
                check(f, -0.0); // fract(-0) = -0, -0
                check(i, -0.0);
                let (f, i) = m::fract(INF);
                check(f, 0.0); // fract(+∞) = +0, +∞
                check(i, INF);
                let (f, i) = m::fract(-INF);
                check(f, -0.0); // fract(-∞) = -0, -∞
                check(i, -INF);
                let (f, i) = m::fract(NAN);
                check(f, NAN); // fract(NaN) = NaN, NaN
                check(i, NAN);
            }

            #[test]
            fn frexp() {
                assert!(m::frexp(INF) == (INF, 0)); // frexp(±∞) = ±∞, 0
                assert!(m::frexp(-INF) == (-INF, 0));
                let (v, e) = m::frexp(NAN); // frexp(NaN) = NaN, 0
                assert!(v.is_nan() && e == 0);
            }

            #[test]
            fn length_without_overflow_or_underflow() {
                let big: $t = $t::MAX / 2.0;
                let l = geometric::length(&[big, big, 0.0, 0.0]);
                assert!(l.is_finite() && (l / big - core::$t::consts::SQRT_2).abs() < 1e-6);
                let tiny = $t::from_bits($smallest_subnormal_bits) * 3.0;
                check(geometric::length(&[0.0, tiny, 0.0]), tiny);
                let l =
                    geometric::length(&[(3.0 as $t) * $t::MIN_POSITIVE, 4.0 * $t::MIN_POSITIVE]);
                check(l, 5.0 * $t::MIN_POSITIVE);
            }

            #[test]
            fn lgamma_r() {
                assert_eq!(m::lgamma_r(0.0).1, 0); // signp = 0 for zero
                assert_eq!(m::lgamma_r(-0.0).1, 0);
                assert_eq!(m::lgamma_r(-3.0).1, 0); // and for negative integers
                assert_eq!(m::lgamma_r(2.5).1, 1);
                assert_eq!(m::lgamma_r(-0.5).1, -1);
            }

            #[test]
            fn nextafter() {
                let tiny = $t::from_bits($smallest_subnormal_bits);
                check(m::nextafter(-0.0, 1.0), tiny); // smallest positive denormal
                check(m::nextafter(0.0, -1.0), -tiny); // smallest negative denormal
            }

            #[test]
            fn normalize() {
                let big: $t = $t::MAX / 2.0;
                let n = geometric::normalize(&[big, big]);
                assert!((n[0] - core::$t::consts::FRAC_1_SQRT_2).abs() < 1e-6); // no overflow
                let tiny = $t::from_bits($smallest_subnormal_bits);
                let n = geometric::normalize(&[tiny, 0.0]);
                check(n[0], 1.0); // no underflow
                let z: [$t; 3] = [0.0, -0.0, 0.0];
                let n = geometric::normalize(&z); // all zero: v returned
                assert!(n.iter().zip(&z).all(|(a, b)| same(*a, *b)));
                let n = geometric::normalize(&[1.0, NAN, 2.0]); // any NaN: all NaN
                assert!(n.iter().all(|c| c.is_nan()));
                let n = geometric::normalize(&[INF, -3.0, -INF, 2.0]); // ∞ → ±1, others → 0*v
                let h = core::$t::consts::FRAC_1_SQRT_2;
                assert!((n[0] - h).abs() < 1e-6 && (n[2] + h).abs() < 1e-6);
                check(n[1], -0.0);
                check(n[3], 0.0);
            }

            #[test]
            fn pow() {
                check(m::pow(0.0, -INF), INF); // pow(±0, -∞) = +∞
                check(m::pow(-0.0, -INF), INF);
            }

            #[test]
            fn pown() {
                for x in [0.0, -0.0, NAN, INF, -INF, 3.5] {
                    check(m::pown(x, 0), 1.0); // pown(x, 0) = 1
                }
                check(m::pown(0.0, -3), INF); // (±0, odd n<0) = ±∞
                check(m::pown(-0.0, -3), -INF);
                check(m::pown(0.0, -2), INF); // (±0, even n<0) = +∞
                check(m::pown(-0.0, -2), INF);
                check(m::pown(0.0, 4), 0.0); // (±0, even n>0) = +0
                check(m::pown(-0.0, 4), 0.0);
                check(m::pown(0.0, 3), 0.0); // (±0, odd n>0) = ±0
                check(m::pown(-0.0, 3), -0.0);
            }

            #[test]
            fn powr() {
                check(m::powr(2.5, 0.0), 1.0); // powr(x, ±0) = 1, finite x > 0
                check(m::powr(2.5, -0.0), 1.0);
                check(m::powr(0.0, -2.0), INF); // powr(±0, finite y<0) = +∞
                check(m::powr(-0.0, -2.0), INF);
                check(m::powr(0.0, -INF), INF); // powr(±0, -∞) = +∞
                check(m::powr(-0.0, -INF), INF);
                check(m::powr(0.0, 3.0), 0.0); // powr(±0, y>0) = +0
                check(m::powr(-0.0, 3.0), 0.0);
                check(m::powr(1.0, 7.5), 1.0); // powr(+1, finite y) = 1
                check(m::powr(-2.0, 2.0), NAN); // powr(x<0, y) = NaN
                check(m::powr(0.0, 0.0), NAN); // powr(±0, ±0) = NaN
                check(m::powr(-0.0, -0.0), NAN);
                check(m::powr(INF, 0.0), NAN); // powr(+∞, ±0) = NaN
                check(m::powr(INF, -0.0), NAN);
                check(m::powr(1.0, INF), NAN); // powr(+1, ±∞) = NaN
                check(m::powr(1.0, -INF), NAN);
                check(m::powr(2.0, NAN), NAN); // powr(x>=0, NaN) = NaN
                check(m::powr(0.0, NAN), NAN);
                check(m::powr(NAN, 0.0), NAN); // powr(NaN, y) = NaN
            }

            #[test]
            fn rint() {
                check(m::rint(-0.5), -0.0); // rint(-0.5 <= x < 0) = -0
                check(m::rint(-0.25), -0.0);
                check(m::rint(2.5), 2.0); // always round to nearest even
                check(m::rint(3.5), 4.0);
            }

            #[test]
            fn remquo() {
                for (x, y) in [(INF, 1.0), (-INF, 2.0), (3.0, 0.0), (NAN, 1.0), (1.0, NAN)] {
                    let (r, q) = m::remquo(x, y); // NaN and 0 in quo
                    assert!(r.is_nan() && q == 0, "remquo({x}, {y})");
                }
                let (r, q) = m::remquo(10.0, 3.0);
                check(r, 1.0);
                assert_eq!(q & 0x7f, 3);
                let (r, q) = m::remquo(-11.0, 2.0); // quotient -5.5 rounds to -6
                check(r, 1.0);
                assert_eq!(q, -6);
            }

            #[test]
            fn rootn() {
                check(m::rootn(0.0, -3), INF); // (±0, odd n<0) = ±∞
                check(m::rootn(-0.0, -3), -INF);
                check(m::rootn(0.0, -2), INF); // (±0, even n<0) = +∞
                check(m::rootn(-0.0, -2), INF);
                check(m::rootn(0.0, 2), 0.0); // (±0, even n>0) = +0
                check(m::rootn(-0.0, 2), 0.0);
                check(m::rootn(0.0, 3), 0.0); // (±0, odd n>0) = ±0
                check(m::rootn(-0.0, 3), -0.0);
                check(m::rootn(-8.0, 2), NAN); // x<0, even n: NaN
                check(m::rootn(8.0, 0), NAN); // n = 0: NaN
                check(m::rootn(-8.0, 3), -2.0);
            }

            #[test]
            fn round() {
                check(m::round(-0.25), -0.0); // round(-0.5 < x < 0) = -0
                check(m::round(-0.49), -0.0);
                check(m::round(-0.5), -1.0);
                check(m::round(2.5), 3.0);
            }

            #[test]
            fn sinpi() {
                check(m::sinpi(0.0), 0.0); // sinpi(±0) = ±0
                check(m::sinpi(-0.0), -0.0);
                check(m::sinpi(1.0), 0.0); // sinpi(+n) = +0
                check(m::sinpi(4.0), 0.0);
                check(m::sinpi(3e7), 0.0);
                check(m::sinpi(-1.0), -0.0); // sinpi(-n) = -0
                check(m::sinpi(-6.0), -0.0);
                check(m::sinpi(INF), NAN); // sinpi(±∞) = NaN
                check(m::sinpi(-INF), NAN);
                check(m::sinpi(0.5), 1.0);
                check(m::sinpi(-1.5), 1.0);
            }

            #[test]
            fn tanpi() {
                check(m::tanpi(0.0), 0.0); // tanpi(±0) = ±0
                check(m::tanpi(-0.0), -0.0);
                check(m::tanpi(INF), NAN); // tanpi(±∞) = NaN
                check(m::tanpi(-INF), NAN);
                check(m::tanpi(2.0), 0.0); // even n: copysign(0, n)
                check(m::tanpi(-4.0), -0.0);
                check(m::tanpi(3.0), -0.0); // odd n: copysign(0, -n)
                check(m::tanpi(-5.0), 0.0);
                check(m::tanpi(0.5), INF); // n + 0.5, n even: +∞
                check(m::tanpi(2.5), INF);
                check(m::tanpi(-1.5), INF);
                check(m::tanpi(1.5), -INF); // n + 0.5, n odd: -∞
                check(m::tanpi(-0.5), -INF);
                check(m::tanpi(0.25), 1.0);
                check(m::tanpi(-0.25), -1.0);
            }

            #[test]
            fn trunc() {
                check(m::trunc(-0.5), -0.0); // trunc(-1 < x < 0) = -0
                check(m::trunc(-0.999), -0.0);
            }

            #[test]
            fn modf() {
                let (f, i) = m::modf(-3.5); // iptr = trunc(x), copysign(x - iptr, x)
                check(f, -0.5);
                check(i, -3.0);
                let (f, i) = m::modf(INF);
                check(f, 0.0);
                check(i, INF);
                let (f, i) = m::modf(-INF);
                check(f, -0.0);
                check(i, -INF);
                let (f, i) = m::modf(-4.0);
                check(f, -0.0);
                check(i, -4.0);
            }

            #[test]
            fn nan_payload() {
                let n = m::nan(5 as $nan_payload);
                assert!(n.is_nan());
                assert_eq!(n.to_bits() & 0xff, 5);
            }

            /// A few C99 F.9 special values, through the same paths.
            #[test]
            fn c99_annex_f() {
                check(m::sin(-0.0), -0.0);
                check(m::tan(-0.0), -0.0);
                check(m::cos(INF), NAN);
                check(m::exp(-INF), 0.0);
                check(m::exp2(INF), INF);
                check(m::expm1(-0.0), -0.0);
                check(m::log(0.0), -INF);
                check(m::log(-1.0), NAN);
                check(m::log2(1.0), 0.0);
                check(m::log1p(-1.0), -INF);
                check(m::sqrt(-0.0), -0.0);
                check(m::rsqrt(0.0), INF);
                check(m::cbrt(-8.0), -2.0);
                check(m::atan2(0.0, -0.0), core::$t::consts::PI);
                check(m::hypot(INF, NAN), INF);
                check(m::pow(-1.0, INF), 1.0);
                check(m::pow(1.0, NAN), 1.0);
                check(m::pow(NAN, 0.0), 1.0);
                check(m::pow(-0.0, -3.0), -INF);
                check(m::tgamma(-0.0), -INF);
                check(m::tgamma(-2.0), NAN);
                check(m::lgamma(1.0), 0.0);
                check(m::erf(-0.0), -0.0);
                check(m::erfc(INF), 0.0);
                check(m::ldexp(1.0, 3), 8.0);
                check(m::logb(0.0), -INF);
                assert_eq!(m::ilogb(0.0), i32::MIN);
                assert_eq!(m::ilogb(NAN), i32::MAX);
                check(m::fmax(NAN, 2.0), 2.0);
                check(m::fmin(3.0, NAN), 3.0);
                check(m::maxmag(-3.0, 2.0), -3.0);
                check(m::minmag(-3.0, 2.0), 2.0);
                check(m::maxmag(-2.0, 2.0), 2.0);
                check(m::minmag(-2.0, 2.0), -2.0);
                check(m::asinh(-0.0), -0.0);
                check(m::atanh(1.0), INF);
                check(m::acosh(1.0), 0.0);
                check(m::sinh(-INF), -INF);
                check(m::tanh(-INF), -1.0);
                check(m::remainder(5.0, 2.0), 1.0);
                check(m::remainder(7.0, 2.0), -1.0);
            }
        }
    };
}

edge_case_tests!(f32, f32, 1u32, u32);
edge_case_tests!(f64, f64, 1u64, u64);

/// The same 002 edge cases for `half`, through the narrowing path.
mod f16 {
    use devlib::math::f16 as m;
    use half::f16;

    fn v(x: f32) -> f16 {
        f16::from_f32(x)
    }

    #[track_caller]
    fn check(actual: f16, expected: f32) {
        let e = v(expected);
        let ok = (actual.is_nan() && e.is_nan()) || actual.to_bits() == e.to_bits();
        assert!(
            ok,
            "got {actual} ({:#x}), expected {expected}",
            actual.to_bits()
        );
    }

    const INF: f32 = f32::INFINITY;
    const NAN: f32 = f32::NAN;

    #[test]
    fn inverse_trigonometric_pi() {
        check(m::acospi(v(1.0)), 0.0);
        check(m::acospi(v(1.5)), NAN);
        check(m::asinpi(v(-0.0)), -0.0);
        check(m::asinpi(v(-2.0)), NAN);
        check(m::atanpi(v(-0.0)), -0.0);
        check(m::atanpi(v(INF)), 0.5);
        check(m::atan2pi(v(-0.0), v(-0.0)), -1.0);
        check(m::atan2pi(v(0.0), v(0.0)), 0.0);
        check(m::atan2pi(v(-0.0), v(-3.0)), -1.0);
        check(m::atan2pi(v(-0.0), v(3.0)), -0.0);
        check(m::atan2pi(v(-2.0), v(0.0)), -0.5);
        check(m::atan2pi(v(2.0), v(-0.0)), 0.5);
        check(m::atan2pi(v(-2.0), v(-INF)), -1.0);
        check(m::atan2pi(v(-2.0), v(INF)), -0.0);
        check(m::atan2pi(v(-INF), v(5.0)), -0.5);
        check(m::atan2pi(v(INF), v(-INF)), 0.75);
        check(m::atan2pi(v(-INF), v(INF)), -0.25);
    }

    #[test]
    fn rounding_functions() {
        check(m::ceil(v(-0.5)), -0.0);
        check(m::rint(v(-0.5)), -0.0);
        check(m::rint(v(2.5)), 2.0);
        check(m::round(v(-0.25)), -0.0);
        check(m::trunc(v(-0.75)), -0.0);
        let (f, i) = m::fract(v(-0.0));
        check(f, -0.0);
        check(i, -0.0);
        let (f, i) = m::fract(v(-INF));
        check(f, -0.0);
        check(i, -INF);
        check(m::fract(v(-1e-7)).0, 1.0 - 2f32.powi(-11)); // largest half below 1
        let (f, i) = m::modf(v(-INF));
        check(f, -0.0);
        check(i, -INF);
        assert!(m::frexp(v(INF)) == (v(INF), 0));
    }

    #[test]
    fn trigonometric_pi() {
        check(m::cospi(v(-0.0)), 1.0);
        check(m::cospi(v(1.5)), 0.0);
        check(m::cospi(v(-INF)), NAN);
        check(m::sinpi(v(-0.0)), -0.0);
        check(m::sinpi(v(3.0)), 0.0);
        check(m::sinpi(v(-3.0)), -0.0);
        check(m::sinpi(v(INF)), NAN);
        check(m::tanpi(v(-0.0)), -0.0);
        check(m::tanpi(v(2.0)), 0.0);
        check(m::tanpi(v(3.0)), -0.0);
        check(m::tanpi(v(0.5)), INF);
        check(m::tanpi(v(1.5)), -INF);
        check(m::tanpi(v(INF)), NAN);
    }

    #[test]
    fn exponential_and_powers() {
        check(m::exp10(v(-0.0)), 1.0);
        check(m::exp10(v(-INF)), 0.0);
        check(m::exp10(v(INF)), INF);
        check(m::fdim(v(1.0), v(NAN)), NAN);
        check(m::fmod(v(-0.0), v(NAN)), NAN);
        check(m::pow(v(-0.0), v(-INF)), INF);
        check(m::pown(v(NAN), 0), 1.0);
        check(m::pown(v(-0.0), -3), -INF);
        check(m::pown(v(-0.0), -2), INF);
        check(m::pown(v(-0.0), 2), 0.0);
        check(m::pown(v(-0.0), 3), -0.0);
        check(m::powr(v(2.0), v(-0.0)), 1.0);
        check(m::powr(v(-0.0), v(-1.0)), INF);
        check(m::powr(v(0.0), v(-INF)), INF);
        check(m::powr(v(-0.0), v(1.0)), 0.0);
        check(m::powr(v(1.0), v(3.0)), 1.0);
        check(m::powr(v(-1.0), v(2.0)), NAN);
        check(m::powr(v(0.0), v(0.0)), NAN);
        check(m::powr(v(INF), v(0.0)), NAN);
        check(m::powr(v(1.0), v(INF)), NAN);
        check(m::powr(v(1.0), v(NAN)), NAN);
        check(m::powr(v(NAN), v(1.0)), NAN);
        check(m::rootn(v(-0.0), -3), -INF);
        check(m::rootn(v(-0.0), -2), INF);
        check(m::rootn(v(-0.0), 2), 0.0);
        check(m::rootn(v(-0.0), 3), -0.0);
        check(m::rootn(v(-4.0), 2), NAN);
        check(m::rootn(v(4.0), 0), NAN);
    }

    #[test]
    fn remquo_lgamma_nextafter() {
        let (r, q) = m::remquo(v(INF), v(1.0));
        assert!(r.is_nan() && q == 0);
        let (r, q) = m::remquo(v(1.0), v(0.0));
        assert!(r.is_nan() && q == 0);
        assert_eq!(m::lgamma_r(v(-2.0)).1, 0);
        assert_eq!(m::lgamma_r(v(0.0)).1, 0);
        assert_eq!(m::nextafter(v(-0.0), v(1.0)).to_bits(), 0x0001);
        assert_eq!(m::nextafter(v(0.0), v(-1.0)).to_bits(), 0x8001);
    }
}

/// pown on subnormal x (found by `oxcl mathcheck`): values by hand, 2^-1074 is the smallest
/// subnormal double.
#[test]
fn pown_of_subnormals() {
    use devlib::math::f64::pown;
    let tiny = f64::from_bits(1); // 2^-1074
    assert_eq!(pown(tiny, 1), tiny);
    assert_eq!(pown(-tiny, 1), -tiny);
    assert_eq!(pown(tiny, 2), 0.0);
    let x = 2f64.powi(-1070);
    assert_eq!(pown(x, -1), 2f64.powi(1000) * 2f64.powi(70));
    assert_eq!(pown(x, -2), f64::INFINITY);
}
