#!/usr/bin/env python3
"""tools/gen_ziggurat.py: the float32 normal ziggurat's tables (Marsaglia and
Tsang, 2000, their RNOR with 256 layers) as the C text between the
GA_RNG_ZIG markers of kernels/ga_philox.cuh.  Rewrites that block in place:

    python3 tools/gen_ziggurat.py kernels/ga_philox.cuh

A value takes one 32-bit word w: layer i = w & 255, sign = bit 8, and the
23-bit magnitude m = w >> 9; x = m * W[i] (W[i] = x_i / 2^23) is accepted at
once when m < K[i] = floor(2^23 x_{i-1} / x_i) (layer 1, the top, never;
layer 0, the base strip of area v = rectangle + tail, K = 2^23 r f(r) / v).
F[i] = f(x_i) = exp(-x_i^2 / 2) for the wedge test.  Computed in double; the tables are the float32/uint32 values,
written in hex so that the host and NVRTC read the same bits."""
import math
import struct
import sys

N = 256
R = 3.6541528853610088     # x_255: the tail's start
V = 0.00492867323399       # every layer's area
M = float(1 << 23)


def f(x):
    return math.exp(-0.5 * x * x)


def tables():
    # x[i]: layer i's right edge, x[255] = r; layer 1 is the top (from 0),
    # layer 0 the base strip (rectangle plus tail)
    x = [0.0] * N
    x[N - 1] = R
    for i in range(N - 2, 0, -1):
        x[i] = math.sqrt(-2.0 * math.log(V / x[i + 1] + f(x[i + 1])))
    K = [0] * N
    W = [0.0] * N
    F = [0.0] * N
    q = V / f(R)               # the base strip's width
    K[0] = int(math.floor(R / q * M))
    W[0] = q / M
    F[0] = 1.0
    K[1] = 0                   # the top layer: always the wedge test
    for i in range(1, N):
        W[i] = x[i] / M
        F[i] = f(x[i])
        if i < N - 1:
            K[i + 1] = int(math.floor(x[i] / x[i + 1] * M))
    return K, W, F


def f32hex(v):
    return "0x%08xu" % struct.unpack("<I", struct.pack("<f", v))[0]


def block():
    K, W, F = tables()
    out = ["// GA_RNG_ZIG begin: written by tools/gen_ziggurat.py (256 layers, r = %.16g, v = %.14g)" % (R, V)]
    for name, vals in (("K", ["0x%06xu" % k for k in K]), ("W", [f32hex(w) for w in W]), ("F", [f32hex(v) for v in F])):
        out.append("#define GA_RNG_ZIG_%s \\" % name)
        for j in range(0, N, 8):
            tail = ", \\" if j + 8 < N else ""
            out.append("  " + ", ".join(vals[j:j + 8]) + tail)
    out.append("// GA_RNG_ZIG end")
    return "\n".join(out) + "\n"


def main():
    path = sys.argv[1]
    text = open(path).read()
    a = text.index("// GA_RNG_ZIG begin")
    b = text.index("// GA_RNG_ZIG end")
    b = text.index("\n", b) + 1
    open(path, "w").write(text[:a] + block() + text[b:])


if __name__ == "__main__":
    main()
