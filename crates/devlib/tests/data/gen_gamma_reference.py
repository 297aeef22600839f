#!/usr/bin/env python3
"""Generates gamma_reference.txt: reference values for the double lgamma/tgamma accuracy test.

Each line: `name x_bits ref_hi_bits ref_lo_bits` (hex bit patterns), the exact value computed
with mpmath at 300 bits as a double-double hi + lo (lgamma: log|Γ(x)|). Random arguments over
every region of the implementation plus the hard cases: next to the poles, next to lgamma's
zeros (1, 2 and the negative ones, found here with mpmath), around the region boundaries, tiny
and huge arguments, tgamma's overflow and underflow. Deterministic (seeded).
Run: python3 gen_gamma_reference.py > gamma_reference.txt
(optional arguments: random samples per region, seed — for a larger run outside the committed
file, read by the test through DEVLIB_GAMMA_REFERENCE)
"""
import random
import struct
import sys

import mpmath
from mpmath import mp, mpf

mp.prec = 300
N = int(sys.argv[1]) if len(sys.argv) > 1 else 60
rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 20261122)


def bits(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def dd(v):
    if mpmath.isinf(v) or abs(v) >= mpf(2) ** 1024:
        return (float("inf") if v > 0 else float("-inf")), 0.0
    tiny = mpf(2) ** -1074
    if abs(v) < mpf(2) ** -1022:
        # Subnormal: rounded once to a multiple of 2^-1074 (float() could round twice).
        hi = float(mpmath.nint(v / tiny) * tiny)
        return hi, float(v - mpf(hi))
    with mp.workprec(53):
        hi = float(+v)
    if abs(hi) == float("inf"):
        return hi, 0.0
    with mp.workprec(53):
        lo = float(+(v - mpf(hi)))
    return hi, lo


def lgamma(x):
    return mpmath.loggamma(mpf(x)).real if x > 0 else mpmath.log(abs(mpmath.gamma(mpf(x))))


def tgamma(x):
    return mpmath.gamma(mpf(x))


def ulps_from(x, k):
    """x moved by k ulps (k may be negative)."""
    b = bits(x)
    if x < 0:
        k = -k
    b += k
    return struct.unpack("<d", struct.pack("<Q", b))[0]


def emit(name, x):
    if x == int(x) and x <= 0:
        return
    v = lgamma(x) if name == "lgamma" else tgamma(x)
    hi, lo = dd(v)
    print(f"{name} {bits(x):016x} {bits(hi):016x} {bits(lo):016x}")


def logu(lo_exp, hi_exp):
    return 2.0 ** rng.uniform(lo_exp, hi_exp)


regions = [
    lambda: rng.uniform(0, 3),
    lambda: rng.uniform(3, 12),
    lambda: rng.uniform(12, 200),
    lambda: logu(7, 1017),
    lambda: rng.uniform(-17, 0),
    lambda: rng.uniform(-190, -17),
    lambda: -logu(7.5, 52),
    lambda: logu(-70, 0) * rng.choice([-1, 1]),
    # the poles: -n ± 2^-k
    lambda: -rng.randint(1, 185) + rng.choice([-1, 1]) * 2.0 ** rng.uniform(-45, -2),
]
tg_regions = [
    lambda: rng.uniform(0, 12),
    lambda: rng.uniform(12, 171.6),
    lambda: rng.uniform(-12, 0),
    lambda: rng.uniform(-190, -11),
    lambda: rng.uniform(-184, -170.5),  # subnormal results
    lambda: logu(-70, 0) * rng.choice([-1, 1]),
    lambda: -rng.randint(1, 185) + rng.choice([-1, 1]) * 2.0 ** rng.uniform(-45, -2),
]

hard = []
# Around 1 and 2 (lgamma's zeros) and the 0.03 boundaries, tgamma(1) = tgamma(2) = 1.
for c in (1.0, 2.0):
    for k in range(1, 60, 3):
        hard += [c + 2.0 ** -k, c - 2.0 ** -k]
    for d in (0.03, 0.0299999, 0.0300001):
        hard += [c + d, c - d]
# The negative zeros of lgamma with doubles near them, and their neighbourhoods.
for n in range(2, 19):
    a, b = mpf(-n - 1), mpf(-n)
    m = mpmath.findroot(mpmath.digamma, a + mpf(1) / 2)
    for lo, hi in ((a, m), (m, b)):
        try:
            x0 = mpmath.findroot(lambda t: mpmath.log(abs(mpmath.gamma(t))),
                                 (lo + mpf(10) ** -40 if lo == a else lo,
                                  hi - mpf(10) ** -40 if hi == b else hi), solver="anderson")
        except (ValueError, ZeroDivisionError):
            continue
        z = float(x0)
        if z == int(z):
            continue
        hard += [ulps_from(z, k) for k in (-3, -2, -1, 0, 1, 2, 3)]
        hard += [ulps_from(z, s * 2 ** j) for j in range(2, 50, 4) for s in (-1, 1)]
# Tiny and huge arguments, the Stirling/reflection boundaries.
for v in (5e-324, 1e-310, 2.2250738585072014e-308, 1e-300, 1e-30, 8.7e-19, 8.6e-19, 8.8e-19,
          1e-10, 12.0, 11.999999999999998, 12.000000000000002, 3.0, 2.9999999999999996, 1e10,
          1e100, 2.5e305, 1e300, 2.552e305, 2.5563e305, 2.5564e305, 2.5599e305, 2.56e305, 2.5601e305, 2.6e305, 1e307, 1.7976931348623157e308, -17.0000000000001, -16.9999999999999, -11.000000000001,
          -10.999999999999, -189.99999999, -190.5, -1e15 - 0.5, -4503599627370495.5, 0.5, 1.5,
          2.5, 171.6, 171.62, 171.624, -170.5, -171.5, -175.25, -180.5, -183.9, -189.1):
    hard += [v, -v] if v > 0 and v < 1e-9 else [v]

for x in hard:
    for name in ("lgamma", "tgamma"):
        if name == "tgamma" and x > 171.7:
            continue
        emit(name, x)
for gen in regions:
    for _ in range(N):
        emit("lgamma", gen())
for gen in tg_regions:
    for _ in range(N):
        emit("tgamma", gen())
