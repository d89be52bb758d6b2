#!/usr/bin/env python3
"""Fits the polynomials of the float32 normal draw (kernels/ga_philox.cuh):
log1p(t) = t + t^2 q(t) on t in [-1/3, 1/3] (deg q = 8), and on y in
[-1/8, 1/8] turns sin(2 pi y) = y S(y^2) (deg S = 3), cos(2 pi y) =
1 + y^2 C(y^2) (deg C = 3).  Lawson's iteration on weighted least squares
gives near-minimax coefficients for the relative error of the function;
they are printed as float32 hex-exact decimal.  Run: python3 tools/fit_rng_poly.py
The exhaustive ulp check of the result is spec/c (test_rng_poly)."""
import numpy as np

def lawson(x, target, basis, weight, iters=60):
    A = basis(x)
    w = np.ones_like(x)
    for _ in range(iters):
        sw = np.sqrt(w)
        c, *_ = np.linalg.lstsq(A * (sw * weight)[:, None], target * sw * weight, rcond=None)
        err = np.abs((A @ c - target) * weight)
        w = w * err
        w /= w.sum()
    return c, err.max()

def f32(c):
    return [float(np.float32(v)) for v in c]

n = 20001
# log1p: q(t) = (log1p(t) - t) / t^2; error of log1p = t^2 dq, relative to log1p(t)
t = np.cos(np.linspace(0, np.pi, n)) / 3.0
t = t[np.abs(t) > 1e-6]
q = (np.log1p(t) - t) / t**2
cq, e = lawson(t, q, lambda x: np.vander(x, 9, increasing=True), t**2 / np.abs(np.log1p(t)))
print("log1p q (t^0..t^8), max rel", e)
for v in f32(cq): print("  %.9e" % v)
# the normal draw's -2 log (ga_rng_m2log24): q of degree 7 with q(0) = -1/2
# exactly, (q + 1/2) / t fitted; printed scaled for Horner in T = -2t:
# coefficient of t^k times (-2)^(7-k) / 256
r = (q + 0.5) / t
cr, e = lawson(t, r, lambda x: np.vander(x, 7, increasing=True), t**3 / np.abs(np.log1p(t)))
print("-2 log1p: q (t^7..t^0) scaled for T = -2t, max rel", e)
cm = [-0.5] + f32(cr)
for k in range(7, -1, -1): print("  %.9e" % float(np.float32(cm[k]) * np.float32((-2.0) ** (7 - k) / 256)))
# sin: S(z) = sin(2 pi y) / y, z = y^2; relative error = dS / S
y = np.cos(np.linspace(0, np.pi / 2, n)) / 8.0
y = y[y > 1e-7]
S = np.sin(2 * np.pi * y) / y
cs, e = lawson(y, S, lambda x: np.vander(x * x, 4, increasing=True), 1.0 / np.abs(S))
print("sin S (z^0..z^3), max rel", e)
for v in f32(cs): print("  %.9e" % v)
# cos: C(z) = (cos(2 pi y) - 1) / y^2; error of cos = y^2 dC, relative to cos
C = (np.cos(2 * np.pi * y) - 1) / y**2
cc, e = lawson(y, C, lambda x: np.vander(x * x, 4, increasing=True), y**2 / np.cos(2 * np.pi * y))
print("cos C (z^0..z^3), max rel", e)
for v in f32(cc): print("  %.9e" % v)

# float64 sin/cos of 2 pi y, |y| <= 1/8: Taylor coefficients (2 pi)^n / n!
# to n = 17 (sin) and 18 (cos), the remainder below 1e-19; printed with 17
# significant digits (each the double nearest the exact value)
from decimal import Decimal, getcontext
from math import factorial
getcontext().prec = 60
PI = Decimal("3.14159265358979323846264338327950288419716939937510582097494")
for name, first in (("sin", 1), ("cos", 2)):
    print("float64 %s (2 pi)^n / n!, n = %d, %d, ..." % (name, first, first + 2))
    for n in range(first, first + 18, 2):
        c = (2 * PI) ** n / factorial(n) * (-1) ** (n // 2)
        print("  %s" % repr(float(c)))
