#!/usr/bin/env python3
"""Writes spec/data/fft_ref.lua: NumPy 2's answers for ga.fft (and the
window functions and i0), for spec/fft_spec.lua (CI has no NumPy; the spec
reads the committed file).

    python3 tools/gen_fft_ref.py

A case is {id=, fn=, args={arg...}, want=result}; fn is "fft.rfft",
"hamming"...  An arg is an array {dtype=, shape=, re={...}, im={...}} (im
only for complex dtypes; values flat in C order), a number, a string, nil
({nil=true}) or {list={...}} (a Lua table: s, axes).  Axes are converted to
gpuarray's 1-based ones here."""
import numpy as np

from refdata import Cases, ax1

REF = Cases()
case = REF.case

rng = np.random.default_rng(20261127)


def rnd(shape, dtype):
    dt = np.dtype(dtype)
    if dt.kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dt)
    if dt.kind in "iu":
        return rng.integers(0, 9, shape).astype(dt)
    if dt.kind == "b":
        return rng.integers(0, 2, shape).astype(bool)
    return rng.standard_normal(shape).astype(dt)


# 1-D transforms: lengths odd, even, prime, Bluestein-sized; every norm;
# n crop and pad; dtypes
for n in [1, 2, 3, 4, 5, 6, 7, 8, 11, 12, 16, 30, 97, 128, 131, 210, 257]:
    for dt in ["complex128", "complex64"]:
        x = rnd(n, dt)
        case(f"fft_{dt}_{n}", "fft.fft", [x], np.fft.fft(x))
        case(f"ifft_{dt}_{n}", "fft.ifft", [x], np.fft.ifft(x))
    for dt in ["float64", "float32"]:
        x = rnd(n, dt)
        case(f"rfft_{dt}_{n}", "fft.rfft", [x], np.fft.rfft(x))
        case(f"fft_{dt}_{n}", "fft.fft", [x], np.fft.fft(x))
    m = n // 2 + 1
    for dt in ["complex128", "complex64"]:
        y = rnd(m, dt)
        case(f"irfft_{dt}_{n}", "fft.irfft", [y, n], np.fft.irfft(y, n))
for norm in ["backward", "ortho", "forward"]:
    x = rnd(10, "complex128")
    r = rnd(9, "float64")
    case(f"fft_norm_{norm}", "fft.fft", [x, None, None, norm], np.fft.fft(x, norm=norm))
    case(f"ifft_norm_{norm}", "fft.ifft", [x, None, None, norm], np.fft.ifft(x, norm=norm))
    case(f"rfft_norm_{norm}", "fft.rfft", [r, None, None, norm], np.fft.rfft(r, norm=norm))
    case(f"irfft_norm_{norm}", "fft.irfft", [x, None, None, norm], np.fft.irfft(x, norm=norm))
    case(f"hfft_norm_{norm}", "fft.hfft", [x, None, None, norm], np.fft.hfft(x, norm=norm))
    case(f"ihfft_norm_{norm}", "fft.ihfft", [r, None, None, norm], np.fft.ihfft(r, norm=norm))
    x3 = rnd((3, 4, 5), "complex128")
    case(f"fftn_norm_{norm}", "fft.fftn", [x3, None, None, norm], np.fft.fftn(x3, norm=norm))
    case(f"ifftn_norm_{norm}", "fft.ifftn", [x3, None, None, norm], np.fft.ifftn(x3, norm=norm))
    r3 = rnd((3, 4, 6), "float64")
    case(f"rfftn_norm_{norm}", "fft.rfftn", [r3, None, None, norm], np.fft.rfftn(r3, norm=norm))
    case(f"irfftn_norm_{norm}", "fft.irfftn", [x3, None, None, norm], np.fft.irfftn(x3, norm=norm))
x = rnd(12, "complex128")
case("fft_crop", "fft.fft", [x, 7], np.fft.fft(x, 7))
case("fft_pad", "fft.fft", [x, 17], np.fft.fft(x, 17))
case("ifft_pad", "fft.ifft", [x, 20], np.fft.ifft(x, 20))
r = rnd(12, "float64")
case("rfft_crop", "fft.rfft", [r, 9], np.fft.rfft(r, 9))
case("rfft_pad", "fft.rfft", [r, 15], np.fft.rfft(r, 15))
case("irfft_default_n", "fft.irfft", [x], np.fft.irfft(x))
case("irfft_odd_n", "fft.irfft", [x, 21], np.fft.irfft(x, 21))
case("irfft_crop", "fft.irfft", [x, 8], np.fft.irfft(x, 8))
case("hfft_n", "fft.hfft", [x, 13], np.fft.hfft(x, 13))
case("ihfft_n", "fft.ihfft", [r, 7], np.fft.ihfft(r, 7))
# dtype promotion: ints, bool, float16
for dt in ["int64", "int32", "uint8", "bool", "float16"]:
    x = rnd(8, dt)
    case(f"fft_{dt}", "fft.fft", [x], np.fft.fft(x))
    case(f"rfft_{dt}", "fft.rfft", [x], np.fft.rfft(x))
# N-D, axes
x2 = rnd((6, 10), "complex128")
for ax in [0, 1, -1, -2]:
    case(f"fft_2d_axis{ax}", "fft.fft", [x2, None, ax1(ax)], np.fft.fft(x2, axis=ax))
    case(f"rfft_2d_axis{ax}", "fft.rfft", [x2.real.copy(), None, ax1(ax)], np.fft.rfft(x2.real, axis=ax))
    case(f"irfft_2d_axis{ax}", "fft.irfft", [x2, None, ax1(ax)], np.fft.irfft(x2, axis=ax))
case("fft2", "fft.fft2", [x2], np.fft.fft2(x2))
case("ifft2", "fft.ifft2", [x2], np.fft.ifft2(x2))
case("fft2_s", "fft.fft2", [x2, [4, 12]], np.fft.fft2(x2, s=(4, 12)))
case("rfft2", "fft.rfft2", [x2.real.copy()], np.fft.rfft2(x2.real))
case("irfft2", "fft.irfft2", [x2], np.fft.irfft2(x2))
case("irfft2_s", "fft.irfft2", [x2, [5, 9]], np.fft.irfft2(x2, s=(5, 9)))
x4 = rnd((2, 3, 4, 5), "complex128")
case("fftn_4d", "fft.fftn", [x4], np.fft.fftn(x4))
case("fftn_axes", "fft.fftn", [x4, None, ax1([3, 1])], np.fft.fftn(x4, axes=(3, 1)))
case("fftn_axes_s", "fft.fftn", [x4, [3, 6], ax1([1, -1])], np.fft.fftn(x4, s=(3, 6), axes=(1, -1)))
case("ifftn_axes", "fft.ifftn", [x4, None, ax1([2, 0])], np.fft.ifftn(x4, axes=(2, 0)))
r4 = rnd((2, 3, 4, 6), "float64")
case("rfftn_4d", "fft.rfftn", [r4], np.fft.rfftn(r4))
case("rfftn_axes", "fft.rfftn", [r4, None, ax1([0, 2])], np.fft.rfftn(r4, axes=(0, 2)))
case("irfftn_4d", "fft.irfftn", [x4], np.fft.irfftn(x4))
case("irfftn_axes_s", "fft.irfftn", [x4, [4, 7], ax1([1, 2])], np.fft.irfftn(x4, s=(4, 7), axes=(1, 2)))
x3f = rnd((4, 5, 6), "complex64")
case("fftn_c64", "fft.fftn", [x3f], np.fft.fftn(x3f))
case("rfftn_f32", "fft.rfftn", [x3f.real.copy()], np.fft.rfftn(x3f.real))
# frequencies and shifts
for n in [1, 4, 5, 8, 9]:
    case(f"fftfreq_{n}", "fft.fftfreq", [n, 0.1], np.fft.fftfreq(n, 0.1))
    case(f"rfftfreq_{n}", "fft.rfftfreq", [n], np.fft.rfftfreq(n))
xs = np.arange(15.0).reshape(3, 5)
case("fftshift", "fft.fftshift", [xs], np.fft.fftshift(xs))
case("ifftshift", "fft.ifftshift", [xs], np.fft.ifftshift(xs))
case("fftshift_axis", "fft.fftshift", [xs, ax1(1)], np.fft.fftshift(xs, axes=1))
case("ifftshift_axes", "fft.ifftshift", [xs, ax1([0])], np.fft.ifftshift(xs, axes=[0]))
# windows and i0
for M in [0, 1, 2, 5, 8, 51]:
    for w in ["hamming", "hanning", "blackman", "bartlett"]:
        case(f"{w}_{M}", w, [M], getattr(np, w)(M))
    case(f"kaiser_{M}", "kaiser", [M, 8.6], np.kaiser(M, 8.6))
case("kaiser_beta0", "kaiser", [7, 0.0], np.kaiser(7, 0.0))
xi = np.array([0.0, 0.25, -1.0, 2.5, 7.0, 15.0, 29.5, 30.5, 55.0, 300.0, 700.0])
case("i0", "i0", [xi], np.i0(xi))
case("i0_f32", "i0", [xi[:8].astype(np.float32)], np.i0(xi[:8].astype(np.float32)))



REF.write("spec/data/fft_ref.lua",
          "-- Generated by tools/gen_fft_ref.py with NumPy %s: NumPy's answers for\n"
          "-- spec/fft_spec.lua (axes already 1-based).  Do not edit.\n" % np.__version__)
