#!/usr/bin/env python3
"""Generates f64_reference.txt: reference values for the double-precision accuracy test.

Each line: `name x_bits y_or_n ref_hi_bits ref_lo_bits` (hex bit patterns; `y_or_n` is `-` for
one-argument functions, a decimal integer for pown/rootn). The reference is the exact value,
computed with mpmath at 300 bits and stored as a double-double hi + lo. Deterministic (seeded).
Run: python3 gen_f64_reference.py > f64_reference.txt
(optional arguments: samples per function, seed — for a larger run outside the committed file)
"""
import random
import sys
import struct
import mpmath
from mpmath import mp, mpf

mp.prec = 300
rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 20261122)
N = int(sys.argv[1]) if len(sys.argv) > 1 else 150


def bits(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def dd(v):
    """(hi, lo) doubles with hi + lo ≈ v to ~106 bits; hi = v rounded to nearest double."""
    if mpmath.isinf(v) or abs(v) > mpf(2) ** 1024:
        return (float("inf") if v > 0 else float("-inf")), 0.0
    with mp.workprec(53):
        hi = float(+v)
    if abs(hi) == float("inf"):
        return hi, 0.0
    rest = v - mpf(hi)
    with mp.workprec(53):
        lo = float(+rest)
    return hi, lo


def uniform(lo, hi):
    return rng.uniform(lo, hi)


def logu(lo_exp, hi_exp, signed=False):
    x = 2.0 ** rng.uniform(lo_exp, hi_exp)
    if signed and rng.random() < 0.5:
        x = -x
    return x


def near_half_integer():
    """k/2 plus or minus a tiny offset: near the zeros and poles of sinpi/cospi/tanpi."""
    k = rng.randint(-40, 40) / 2
    return k + rng.choice([-1, 1]) * 2.0 ** rng.uniform(-50, -2)


def pi_fn(f):
    return lambda x: f(x) / mp.pi


def tanpi(x):
    c = mpmath.cospi(x)
    return mpf("nan") if c == 0 else mpmath.sinpi(x) / c


def rootn(x, n):
    if x < 0:
        return -mpmath.root(-x, n) if n > 0 else -1 / mpmath.root(-x, -n)
    return mpmath.root(x, n) if n > 0 else 1 / mpmath.root(x, -n)


UNARY = [
    ("acos", mpmath.acos, [lambda: uniform(-1, 1)]),
    ("acosh", mpmath.acosh, [lambda: uniform(1, 1000), lambda: 1 + logu(-50, -1)]),
    ("acospi", pi_fn(mpmath.acos), [lambda: uniform(-1, 1)]),
    ("asin", mpmath.asin, [lambda: uniform(-1, 1), lambda: logu(-60, -1, True)]),
    ("asinh", mpmath.asinh, [lambda: uniform(-1000, 1000), lambda: logu(-60, 600, True)]),
    ("asinpi", pi_fn(mpmath.asin), [lambda: uniform(-1, 1), lambda: logu(-1070, -1, True)]),
    ("atan", mpmath.atan, [lambda: uniform(-50, 50), lambda: logu(-60, 600, True)]),
    ("atanh", mpmath.atanh, [lambda: uniform(-1, 1), lambda: logu(-60, -1, True)]),
    ("atanpi", pi_fn(mpmath.atan), [lambda: uniform(-50, 50), lambda: logu(-1070, 600, True)]),
    ("cbrt", mpmath.cbrt, [lambda: logu(-1070, 1020, True)]),
    ("cos", mpmath.cos, [lambda: uniform(-10, 10), lambda: uniform(-1e5, 1e5), lambda: logu(-30, 1000, True)]),
    ("cosh", mpmath.cosh, [lambda: uniform(-710, 710)]),
    ("cospi", mpmath.cospi, [lambda: uniform(-2, 2), lambda: uniform(-1e6, 1e6), lambda: logu(-30, 60, True), near_half_integer]),
    ("erf", mpmath.erf, [lambda: uniform(-6, 6), lambda: logu(-60, 3, True)]),
    ("erfc", mpmath.erfc, [lambda: uniform(-6, 27)]),
    ("exp", mpmath.exp, [lambda: uniform(-745, 709), lambda: logu(-60, 0, True)]),
    ("exp2", lambda x: mpf(2) ** x, [lambda: uniform(-1074, 1023)]),
    ("exp10", lambda x: mpf(10) ** x, [lambda: uniform(-323, 308), lambda: uniform(-2, 2)]),
    ("expm1", mpmath.expm1, [lambda: uniform(-40, 709), lambda: logu(-60, 0, True)]),
    ("log", mpmath.log, [lambda: logu(-1074, 1023), lambda: uniform(0.5, 2)]),
    ("log2", lambda x: mpmath.log(x, 2), [lambda: logu(-1074, 1023), lambda: uniform(0.5, 2)]),
    ("log10", mpmath.log10, [lambda: logu(-1074, 1023), lambda: uniform(0.5, 2)]),
    ("log1p", mpmath.log1p, [lambda: uniform(-1, 1), lambda: logu(-60, 1000)]),
    ("rsqrt", lambda x: 1 / mpmath.sqrt(x), [lambda: logu(-1074, 1023)]),
    ("sin", mpmath.sin, [lambda: uniform(-10, 10), lambda: uniform(-1e5, 1e5), lambda: logu(-30, 1000, True)]),
    ("sinh", mpmath.sinh, [lambda: uniform(-710, 710), lambda: logu(-60, 0, True)]),
    ("sinpi", mpmath.sinpi, [lambda: uniform(-2, 2), lambda: uniform(-1e6, 1e6), lambda: logu(-1070, 60, True), near_half_integer]),
    ("sqrt", mpmath.sqrt, [lambda: logu(-1074, 1023)]),
    ("tan", mpmath.tan, [lambda: uniform(-10, 10), lambda: uniform(-1e5, 1e5)]),
    ("tanh", mpmath.tanh, [lambda: uniform(-20, 20), lambda: logu(-60, 0, True)]),
    ("tanpi", tanpi, [lambda: uniform(-2, 2), lambda: uniform(-1e6, 1e6), lambda: logu(-1070, 0, True), near_half_integer]),
    ("tgamma", mpmath.gamma, [lambda: uniform(0, 171), lambda: uniform(-170, 0), lambda: uniform(-5, 5)]),
]

BINARY = [
    ("atan2", mpmath.atan2, lambda: (uniform(-10, 10), uniform(-10, 10))),
    ("atan2pi", lambda y, x: mpmath.atan2(y, x) / mp.pi, lambda: (uniform(-10, 10), uniform(-10, 10))),
    ("hypot", mpmath.hypot, lambda: (logu(-1074, 1023, True), logu(-1074, 1023, True))),
    ("pow", mpmath.power, lambda: (logu(-20, 20), uniform(-40, 40))),
    ("powr", mpmath.power, lambda: (logu(-1000, 1000), uniform(-1, 1))),
]

INT_ARG = [
    ("pown", lambda x, n: mpf(x) ** n, lambda: (uniform(-10, 10), rng.randint(-300, 300))),
    ("pown", lambda x, n: mpf(x) ** n, lambda: (1 + uniform(-1e-6, 1e-6), rng.randint(-2**31, 2**31 - 1))),
    ("rootn", rootn, lambda: (logu(-1074, 1023, True), rng.choice([-7, -3, -1, 3, 5, 7, 9, 101]))),
    ("rootn", rootn, lambda: (logu(-1074, 1023), rng.randint(-1000, 1000) or 2)),
]


def emit(name, a, b, v):
    hi, lo = dd(v)
    print(f"{name} {bits(a):016x} {b} {bits(hi):016x} {bits(lo):016x}")


for name, f, gens in UNARY:
    for gen in gens:
        for _ in range(N // len(gens) + 20):
            x = gen()
            v = f(mpf(x))
            if isinstance(v, mpmath.mpc) or mpmath.isnan(v):
                continue
            emit(name, x, "-", v)

for name, f, gen in BINARY:
    for _ in range(N):
        y, x = gen()
        emit(name, y, f"{bits(x):016x}", f(mpf(y), mpf(x)))

for name, f, gen in INT_ARG:
    for _ in range(N // 2):
        x, n = gen()
        emit(name, x, str(n), f(x, n))
