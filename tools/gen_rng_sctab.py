#!/usr/bin/env python3
"""Prints kernels/ga_philox.cuh's table of sin and cos of 2 pi i / 256
(i = 0..255), each as a float32 pair hi + lo (hi correctly rounded, lo
the rest correctly rounded; mpmath at 100 digits): sin hi, cos hi, sin lo,
cos lo,
and the small-angle coefficients of ga_rng_sincos24t in its units
(angle = 2 pi f 2^-24, f an integer in [-2^15, 2^15])."""
import struct
import mpmath as mp

mp.mp.dps = 100


def r32(x):
    """x rounded to the nearest float32 (ties to even)"""
    x = mp.mpf(x)
    if x == 0:
        return mp.mpf(0)
    m, e = mp.frexp(x)                      # x = m 2^e, 0.5 <= |m| < 1
    q = mp.nint(m * 2 ** 24)                # 24 significant bits, ties to even
    v = float(q) * 2.0 ** (e - 24)
    assert struct.unpack("f", struct.pack("f", v))[0] == v
    return mp.mpf(v)


def f32(x):
    v = float(r32(x))
    return "0.0f" if v == 0 else "%.9ef" % v


vals = []
for i in range(256):
    a = mp.mpf(i) / 128                     # exact: sinpi/cospi give exact zeros
    sn, cs = mp.sinpi(a), mp.cospi(a)
    vals += [f32(sn), f32(cs), f32(sn - r32(sn)), f32(cs - r32(cs))]
print("static const/* sin, cos, their low parts */ float ga_rng_sc256[1024] = {")
for k in range(0, 1024, 4):
    print("  " + ", ".join(vals[k:k + 4]) + ",")
print("};")
t = 2 * mp.pi / 2 ** 24
print("k1 %s k3 %s k2 %s" % (f32(t), f32(-t ** 3 / 6), f32(-t ** 2 / 2)))
