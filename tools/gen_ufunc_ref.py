#!/usr/bin/env python3
"""Writes spec/data/ufunc_ref.lua: NumPy's answers for every ufunc row of
src/base/ga_ops.def, for spec/ufunc_spec.lua (CI has no NumPy; the spec only
reads the generated file, which is committed).

    python3 tools/gen_ufunc_ref.py            # needs numpy (2.x)

The file returns a table:
  numpy    NumPy's version
  dtypes   the 14 dtype names, in the order of the dtype strings below
  chars    dtype -> one character (NumPy's, '.' = error)
  types    op -> {nin=, nout=, unary=, binary=, int=, float=, rint=, bool=, clip=}
           result dtypes as strings of characters, one entry of `nout`
           characters per case:
             unary:  one entry per dtype (14)
             binary: 14 x 14 array-dtype pairs, row-major (a's dtype first)
             int / float / bool: (array of each dtype, Lua 1 / 1.5 / true)
                                 -- Lua integers and floats are NEP 50 weak
                                 -- scalars; a boolean is np.True_
             rint:   (Lua 1, array of each dtype)
             clip:   (x, lo, hi) all of each dtype
  inputs   dtype -> the unary input values
  binputs  dtype -> the binary input values (every pair (a, b) of them is a
           case: n*n cases, a = binputs[i], b = binputs[j], i outer)
  exps     int64 second operands of ldexp; decimals of _round
  values   op -> dtype -> {out0 values, out1 values}: NumPy's results for
           loop dtype `dtype` on the inputs above (the first operand of a
           TI row runs over `inputs`, the second over `exps`; clip runs over
           clip_cases). "raise" marks a case where NumPy raises (integer
           power with a negative exponent).
Encoding: floats are Lua numbers written so that they read back exactly
(shortest repr, inf / -inf / nan); complex numbers are two consecutive
numbers (re, im); uint64 values are stored as the int64 with the same bits;
bool values are true/false.
"""
import math
import os
import sys
import warnings

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "spec", "data", "ufunc_ref.lua")

DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64",
          "uint64", "float16", "float32", "float64", "complex64", "complex128"]
CHARS = {"bool": "?", "int8": "b", "uint8": "B", "int16": "h", "uint16": "H", "int32": "i",
         "uint32": "I", "int64": "q", "uint64": "Q", "float16": "e", "float32": "f",
         "float64": "d", "complex64": "F", "complex128": "D"}
INTS = ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"]
FLOATS = ["float16", "float32", "float64"]
CPLX = ["complex64", "complex128"]
# type sets of src/base/ga_ops.h
TSETS = {
    "ALL": ["bool"] + INTS + FLOATS + CPLX, "NUM": INTS + FLOATS + CPLX,
    "REAL": INTS + FLOATS, "INT": INTS, "FLOAT": FLOATS, "INEXACT": FLOATS + CPLX,
    "BOOLREAL": ["bool"] + INTS + FLOATS, "BOOLINT": ["bool"] + INTS,
    "FPOW": ["float64", "complex128"],
}


def read_ops():
    """(name, nin, nout, typeset, sig) of every row of src/base/ga_ops.def"""
    rows = []
    with open(os.path.join(ROOT, "src", "base", "ga_ops.def")) as f:
        for line in f:
            if not line.startswith("GA_OP("):
                continue
            parts = [p.strip() for p in line[6:].split(",")]
            rows.append((parts[1].strip('"'), int(parts[2]), int(parts[3]),
                         parts[4].replace("GA_T_", ""), parts[5]))
    return rows


def np_round(x, d):
    """np.round with an array of decimals"""
    out = np.empty_like(x)
    for dd in np.unique(d):
        m = d == dd
        out[m] = np.round(x[m], int(dd))
    return out


def np_func(name):
    """NumPy's function for an op row (None: no NumPy counterpart)."""
    special = {
        "copy": lambda x: np.array(x, copy=True),
        "clip": np._core.umath.clip,
        "sinc": np.sinc,
        "isreal": np.isreal,
        "iscomplex": np.iscomplex,
        "_round": np_round,
        "_angle": np.angle,
        "_arange": None,
    }
    if name in special:
        return special[name]
    if name.startswith("_"):   # the bodies of composed functions (_where, _tril, ...)
        return None
    return getattr(np, name)


# ---------------------------------------------------------------- result dtypes
def outs_of(r):
    return r if isinstance(r, tuple) else (r,)


def dchars(f, args, nout):
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            r = f(*args)
        return "".join(CHARS[np.asarray(o).dtype.name] for o in outs_of(r))
    except (TypeError, ValueError, OverflowError):
        return "." * nout


def arr(dt):
    return np.ones(2, dtype=dt)


def dtype_table(name, nin, nout):
    f = np_func(name)
    t = {}
    if nin == 1:
        t["unary"] = "".join(dchars(f, [arr(d)], nout) for d in DTYPES)
    elif nin == 2:
        t["binary"] = "".join(dchars(f, [arr(a), arr(b)], nout) for a in DTYPES for b in DTYPES)
        t["int"] = "".join(dchars(f, [arr(d), 1], nout) for d in DTYPES)
        t["float"] = "".join(dchars(f, [arr(d), 1.5], nout) for d in DTYPES)
        t["bool"] = "".join(dchars(f, [arr(d), True], nout) for d in DTYPES)
        t["rint"] = "".join(dchars(f, [1, arr(d)], nout) for d in DTYPES)
    else:
        t["clip"] = "".join(dchars(f, [arr(d), arr(d), arr(d)], nout) for d in DTYPES)
    return t


# ---------------------------------------------------------------- input values
def int_inputs(dt, binary):
    info = np.iinfo(dt)
    if binary:
        vals = [0, 1, -1, 3, -7, 42, info.min, info.max] if info.min < 0 else \
               [0, 1, 2, 3, 7, 42, info.max, info.max // 2 + 1]
    else:
        vals = [0, 1, -1, 2, -3, 7, -8, 13, 42, 100, info.min, info.min + 1, info.max, info.max - 1] \
            if info.min < 0 else [0, 1, 2, 3, 7, 8, 13, 42, 100, info.max, info.max - 1, info.max // 2, info.max // 2 + 1]
    return [v for v in vals if info.min <= v <= info.max]


def float_inputs(dt, binary):
    fi = np.finfo(dt)
    tiny_sub = float(np.nextafter(np.array(0, dt), np.array(1, dt)))
    if binary:
        vals = [0.0, -0.0, 1.0, -1.5, 2.5, 7.25, -3.0, tiny_sub, float(fi.max), math.inf, -math.inf, math.nan]
    else:
        vals = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 0.75, -0.3, 1.5, -2.5, 3.0, 0.1, -7.25, 10.0, 100.0, 1e-3,
                tiny_sub, -tiny_sub, float(fi.smallest_normal), float(fi.max), -float(fi.max),
                math.inf, -math.inf, math.nan]
    # the values the dtype holds (0.1 rounds; the file records what is fed)
    return [float(v) for v in np.array(vals, dtype=dt)]


def complex_inputs(dt, binary):
    inf, nan = math.inf, math.nan
    rt = np.float32 if dt == "complex64" else np.float64
    tiny = float(np.nextafter(rt(0), rt(1)))
    if binary:
        vals = [(0, 0), (-0.0, 0), (1, 0), (0, 1), (-1.5, 2.5), (3, -4), (1e-3, 100), (inf, 0), (0, -inf),
                (nan, 0)]
    else:
        vals = [(0, 0), (-0.0, 0), (0, -0.0), (-0.0, -0.0), (1, 0), (-1, 0), (0, 1), (0, -1), (1, 1),
                (-1.5, 2.5), (0.5, -0.25), (3, -4), (0.1, 0.2), (1e-3, 100), (20, -3), (tiny, 0),
                (inf, 0), (-inf, 0), (0, inf), (-inf, -1), (inf, inf), (inf, -inf), (-inf, inf), (nan, 0),
                (0, nan), (nan, nan), (inf, nan), (nan, -inf)]
    return [complex(c) for c in np.array([complex(r, i) for r, i in vals], dtype=dt)]


def inputs(dt, binary):
    if dt == "bool":
        return [False, True]
    if dt in INTS:
        return int_inputs(dt, binary)
    if dt in FLOATS:
        return float_inputs(dt, binary)
    return complex_inputs(dt, binary)


RAISE = object()   # a case where NumPy raises: "raise" in the file
EXPS = [0, 1, -1, 2, -3, 10, -20, 200, -1100, 2 ** 40, -(2 ** 40)]
DECIMALS = [0, 1, 2, -1]


# ---------------------------------------------------------------- values
def run_elementwise(f, cols, dtypes):
    """NumPy's outputs for columns of inputs; on an error (integer power
    with a negative exponent) element by element, False where it raises."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        args = [np.array(c, dtype=d) for c, d in zip(cols, dtypes)]
        try:
            r = [np.asarray(o) for o in outs_of(f(*args))]
            return [o.tolist() for o in r], [o.dtype.name for o in r]
        except (ValueError, ZeroDivisionError):
            pass
        n = len(cols[0])
        per = []
        odt = None
        for i in range(n):
            try:
                r = f(*[a[i:i + 1] for a in args])
                per.append([np.asarray(o).tolist()[0] for o in outs_of(r)])
                odt = [np.asarray(o).dtype.name for o in outs_of(r)]
            except (ValueError, ZeroDivisionError):
                per.append(None)   # RAISE below
        nout = len(odt)
        return [[(p[k] if p is not None else RAISE) for p in per] for k in range(nout)], odt


def loop_arg_dtypes(sig, t):
    """dtypes of the inputs of loop t (ga_ops.h)"""
    return {"TI": [t, "int64"]}.get(sig, [t, t, t])


def values_for(name, nin, sig, t):
    f = np_func(name)
    if nin == 1:
        xs = inputs(t, False)
        cols, dts = [xs], [t]
    elif sig == "TI":
        xs = inputs(t, False)
        es = DECIMALS if name == "_round" else EXPS
        cols = [[x for x in xs for e in es], [e for x in xs for e in es]]
        dts = [t, "int64"]
    elif nin == 2:
        xs = inputs(t, True)
        cols = [[a for a in xs for b in xs], [b for a in xs for b in xs]]
        dts = [t, t]
    else:
        cols = [list(c) for c in zip(*clip_cases(t))]
        dts = [t, t, t]
    outs, odts = run_elementwise(f, cols, dts)
    return outs, odts


def clip_cases(t):
    xs = inputs(t, True)
    # every x against a few (lo, hi) bounds drawn from the same values, lo > hi included
    n = len(xs)
    bounds = [(xs[i % n], xs[j % n]) for i, j in ((0, 2), (1, n - 1), (n - 1, 0), (2, 2))]
    if t in FLOATS:
        bounds += [(-math.inf, math.nan), (math.nan, 1.0)]
    return [(x, lo, hi) for x in xs for lo, hi in bounds]


# ---------------------------------------------------------------- Lua output
def lua_num(v, dt):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        if dt == "uint64" and v >= 2 ** 63:
            v -= 2 ** 64
        if v == -(2 ** 63):
            return "math.mininteger"
        return str(v)
    v = float(v)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return repr(v)   # reads back exactly; 1e+20 is a float in Lua too


def lua_list(vals, dt):
    out = []
    for v in vals:
        if v is RAISE:
            out.append('"raise"')
        elif isinstance(v, complex):
            out.append(lua_num(v.real, dt) + "," + lua_num(v.imag, dt))
        else:
            out.append(lua_num(v, dt))
    return "{" + ",".join(out) + "}"


def main():
    ops = read_ops()
    w = []
    w.append("-- Generated by tools/gen_ufunc_ref.py with NumPy %s; do not edit." % np.__version__)
    w.append("-- NumPy's result dtypes and values for every ufunc row (see the script's")
    w.append("-- docstring for the layout); read by spec/ufunc_spec.lua.")
    w.append("local inf, nan = math.huge, math.abs(0.0 / 0.0) -- NumPy's nan: sign bit clear")
    w.append("local R = { numpy = %r, exps = %s, decimals = %s }" % (
        np.__version__, lua_list(EXPS, "int64"), lua_list(DECIMALS, "int64")))
    w.append("R.dtypes = {%s}" % ",".join('"%s"' % d for d in DTYPES))
    w.append("R.chars = {%s}" % ",".join('%s="%s"' % (d, CHARS[d]) for d in DTYPES))
    w.append("R.inputs = {")
    for d in DTYPES:
        w.append("  %s = %s," % (d, lua_list(inputs(d, False), d)))
    w.append("}")
    w.append("R.binputs = {")
    for d in DTYPES:
        w.append("  %s = %s," % (d, lua_list(inputs(d, True), d)))
    w.append("}")
    w.append("R.clip_cases = {")
    for d in DTYPES:
        cs = clip_cases(d)
        w.append("  %s = {%s, %s, %s}," % (d, *(lua_list([c[k] for c in cs], d) for k in range(3))))
    w.append("}")
    w.append("R.types = {}")
    w.append("R.values = {}")
    for name, nin, nout, tset, sig in ops:
        f = np_func(name)
        if f is None:
            continue
        if not name.startswith("_"):
            t = dtype_table(name, nin, nout)
            w.append("R.types.%s = {nin=%d, nout=%d, %s}" % (
                name, nin, nout, ", ".join('%s="%s"' % (k, v) for k, v in t.items())))
        w.append("R.values.%s = {" % name)
        for t in TSETS[tset]:
            outs, odts = values_for(name, nin, sig, t)
            w.append("  %s = {%s}," % (t, ", ".join(lua_list(o, od) for o, od in zip(outs, odts))))
        w.append("}")
    w.append("return R")
    text = "\n".join(w) + "\n"
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        f.write(text)
    print("wrote %s (%d bytes)" % (OUT, len(text)), file=sys.stderr)


if __name__ == "__main__":
    main()
