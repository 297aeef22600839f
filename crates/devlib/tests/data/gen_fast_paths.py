"""Reference values for tests/fast_paths.rs (mpmath at 400 bits): the double erfc at the
boundaries of its plain-f64 paths (as double-double hex pairs) and the float tan, lgamma,
exp10 and asinh correctly rounded (f32 bit patterns). Run: python3 gen_fast_paths.py"""
import struct
import mpmath

mpmath.mp.prec = 400


def f64_bits(v):
    return struct.unpack("<Q", struct.pack("<d", v))[0]


def f32_round(v):
    # Correct rounding to binary32 (normal range): round to 24 significant bits.
    m, e = mpmath.frexp(v)  # v = m 2^e, 0.5 <= |m| < 1
    scaled = mpmath.ldexp(m, 24)
    r = int(mpmath.nint(scaled))
    return float(mpmath.ldexp(r, e - 24))


def f32_bits(v):
    return struct.unpack("<I", struct.pack("<f", v))[0]


erfc_args = [0.4999999999999999, 0.5, 0.8437499999999999, 0.84375, 1.2499999999999998, 1.25,
             2.857142857142857, 2.8571428571428577, 5.0, 10.0, 26.0, -0.3, -0.84375, -1.0,
             -1.25, -2.0, -5.9999999999999999, 1e-10, -1e-10, 26.55625128643878,
             26.553061135082295, 27.2, 27.99]
for x in erfc_args:
    v = mpmath.erfc(mpmath.mpf(x))
    hi = float(v)
    lo = float(v - hi)
    print(f"erfc {f64_bits(x):016x} {f64_bits(hi):016x} {f64_bits(lo):016x}")

f32_cases = {
    "tan": [1.0e7, 3.0e9, 1.2345678e15, -7.654321e20, 1.0e30, 3.4e38, 1.5707964, 100.0],
    "lgamma": [-0.5, -1.5, -2.5, -3.25, -9.75, -20.1, -100.5, -189.3, -0.001, -2.4570247],
    "exp10": [-37.5, -3.3, 0.001, 1.5, 7.25, 38.5],
    "asinh": [1e-5, 0.75, -3.0, 1234.5, 1e30],
}
for name, xs in f32_cases.items():
    for x in xs:
        xf = struct.unpack("<f", struct.pack("<f", x))[0]
        a = mpmath.mpf(xf)
        v = {"tan": mpmath.tan, "lgamma": lambda t: mpmath.log(abs(mpmath.gamma(t))),
             "exp10": lambda t: mpmath.power(10, t), "asinh": mpmath.asinh}[name](a)
        print(f"{name} {f32_bits(xf):08x} {f32_bits(f32_round(v)):08x}")
