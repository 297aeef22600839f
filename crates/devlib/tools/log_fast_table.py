#!/usr/bin/env python3
"""Prints the table of devlib's math/log_fast.rs (mantissa interval [1 + j/128, 1 + (j+1)/128):
invc = the double nearest 1/midpoint, -log(invc) as a double-double), mpmath at 300 bits."""
import mpmath as mp

mp.mp.prec = 300
for j in range(128):
    mid = 1 + (mp.mpf(j) + mp.mpf(1) / 2) / 128
    invc = float(1 / mid)
    v = -mp.log(mp.mpf(invc))
    hi = float(v)
    lo = float(v - mp.mpf(hi))
    print(f"    ({invc!r}, {hi!r}, {lo!r}),")
