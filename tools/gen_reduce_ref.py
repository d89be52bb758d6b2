#!/usr/bin/env python3
"""Writes spec/data/reduce_ref.lua: NumPy's answers for the reductions of
lua/gpuarray/reduce.lua, for spec/reduce_spec.lua (CI has no NumPy; the spec
only reads the generated file, which is committed).

    python3 tools/gen_reduce_ref.py            # needs numpy (2.x)

The file returns a table:
  numpy    NumPy's version
  inputs   name -> kind -> {shape=, values=} the input data (flat, C order);
           kind: bool, int (signed), uint, float, complex (values are
           (re, im) pairs)
  cases    a list of {fn, dtype, input, opts, dtype=, shape=, values=} or
           {fn, dtype, input, opts, raise=true}: NumPy's result of fn on the
           input made with that dtype, opts as the Lua call takes them
           (1-based axes); values flat in C order; complex as {re, im};
           uint64 as the int64 with the same bits.
"""
import math
import os
import warnings

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "spec", "data", "reduce_ref.lua")

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "float32", "float64", "complex64", "complex128"]
INEXACT = ["float16", "float32", "float64", "complex64", "complex128"]
nan, inf = float("nan"), float("inf")


def kind(dt):
    if dt == "bool":
        return "bool"
    if dt.startswith("int"):
        return "int"
    if dt.startswith("uint"):
        return "uint"
    if dt.startswith("float"):
        return "float"
    return "complex"


# input name -> kind -> nested data; complex entries are (re, im)
INPUTS = {
    "A": {  # 3 x 4
        "bool": [[True, False, True, True], [False, False, True, False], [True, True, True, False]],
        "int": [[3, -1, 4, 1], [-5, 9, 2, -6], [5, 3, -5, 8]],
        "uint": [[3, 1, 4, 1], [5, 9, 2, 6], [5, 3, 5, 8]],
        "float": [[0.5, -1.25, 4, 1], [-5.5, 9, 2, -6], [5, 3.25, -5, 8]],
        "complex": [[(0.5, 1), (-1.25, 0), (4, -2), (1, 1)], [(-5.5, 2), (9, 0), (2, 3), (-6, -1)],
                    [(5, 0), (3.25, 0.5), (4, -3), (8, 1)]],
    },
    "N": {  # 3 x 4 with NaN and inf (inexact dtypes)
        "float": [[0.5, nan, 4, 1], [nan, nan, nan, nan], [inf, 3.25, -inf, 8]],
        "complex": [[(0.5, 1), (nan, 0), (4, -2), (1, 1)], [(nan, 0), (0, nan), (nan, 1), (nan, nan)],
                    [(inf, 0), (3.25, 0.5), (-inf, 0), (8, 1)]],
    },
    "D": {  # 2 x 3 x 2
        "bool": [[[True, False], [True, True], [False, False]], [[True, True], [False, True], [True, False]]],
        "int": [[[1, -2], [3, 7], [-4, 0]], [[6, 2], [-1, 5], [2, -3]]],
        "uint": [[[1, 2], [3, 7], [4, 0]], [[6, 2], [1, 5], [2, 3]]],
        "float": [[[1, -2.5], [3, 7], [-4, 0.25]], [[6, 2], [-1, 5.5], [2, -3]]],
        "complex": [[[(1, 1), (-2.5, 0)], [(3, 2), (7, -1)], [(-4, 0), (0.25, 3)]],
                    [[(6, 0), (2, 2)], [(-1, 1), (5.5, 0)], [(2, -2), (-3, 0)]]],
    },
    "R": {  # a row broadcast to 3 x 4 by the spec (ga.broadcast_to)
        "bool": [True, False, False, True], "int": [2, -7, 5, 1], "uint": [2, 7, 5, 1],
        "float": [2.5, -7, 5, 1], "complex": [(2.5, 1), (-7, 0), (5, -1), (1, 0)],
    },
    "E": {  # 0 elements
        "bool": [], "int": [], "uint": [], "float": [], "complex": [],
    },
    "Z": {  # 2 x 0
        "bool": [[], []], "int": [[], []], "uint": [[], []], "float": [[], []], "complex": [[], []],
    },
    "S": {  # 0-d
        "bool": True, "int": -3, "uint": 7, "float": 2.5, "complex": (2.5, -1),
    },
}
SHAPES = {"A": (3, 4), "N": (3, 4), "D": (2, 3, 2), "R": (4,), "E": (0,), "Z": (2, 0), "S": ()}


def make(name, dt):
    data = INPUTS[name][kind(dt)]
    if kind(dt) == "complex":
        def conv(v):
            if isinstance(v, list):
                return [conv(e) for e in v]
            return complex(*v)
        a = np.array(conv(data), dtype=dt)
    else:
        a = np.array(data, dtype=dt)
    a = a.reshape(SHAPES[name])
    if name == "R":
        a = np.broadcast_to(a, (3, 4))
    return a


def flat(name, dt):
    data = INPUTS[name][kind(dt)]
    out = []

    def walk(v):
        if isinstance(v, list):
            for e in v:
                walk(e)
        elif isinstance(v, tuple):
            out.extend(v)
        else:
            out.append(v)
    walk(data)
    return out


REDS = ["sum", "prod", "nansum", "nanprod", "max", "min", "nanmax", "nanmin", "argmax", "argmin",
        "nanargmax", "nanargmin", "all", "any", "count_nonzero", "mean", "nanmean",
        "var", "std", "nanvar", "nanstd", "ptp", "median"]
ARGS = {"argmax", "argmin", "nanargmax", "nanargmin"}


def np_call(fn, a, opts):
    kw = dict(opts)
    if fn in ARGS:
        kw.pop("keepdims", None) if kw.get("keepdims") is False else None
        r = getattr(np, fn)(a, **kw)
        return np.asarray(r) + 1   # 1-based positions
    if fn == "average":
        return np.asarray(np.average(a, **kw))
    if fn == "trace":
        return np.asarray(np.trace(a, **kw))
    if fn == "norm":
        return np.asarray(np.linalg.norm(a, **kw))
    return np.asarray(getattr(np, fn)(a, **kw))


def lua_axis(ax):
    if ax is None:
        return None
    if isinstance(ax, tuple):
        return [a + 1 if a >= 0 else a for a in ax]
    return ax + 1 if ax >= 0 else ax


def lnum(v):
    if isinstance(v, (bool, np.bool_)):
        return "true" if v else "false"
    if isinstance(v, (int, np.integer)):
        v = int(v)
        if v >= 2 ** 63:
            v -= 2 ** 64
        return str(v)
    v = float(v)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    r = repr(v)
    return r


def lval(v):
    if v is None:
        return "nil"
    if isinstance(v, str):
        return '"%s"' % v
    if isinstance(v, (list, tuple)):
        return "{" + ", ".join(lval(e) for e in v) + "}"
    if isinstance(v, dict):
        return "{" + ", ".join("%s = %s" % (k, lval(v[k])) for k in sorted(v)) + "}"
    return lnum(v)


def lua_opts(opts):
    o = {}
    for k, v in opts.items():
        if k == "axis":
            o["axis"] = lua_axis(v)
        elif k in ("axis1", "axis2"):
            o[k] = lua_axis(v)
        elif k == "weights":
            o[k] = list(np.asarray(v).ravel().tolist())
            o["wshape"] = list(np.asarray(v).shape)
        elif k == "ord":
            o[k] = "inf" if v == inf else "-inf" if v == -inf else v
        else:
            o[k] = v
    return o


def result_values(r):
    r = np.asarray(r)
    vals = r.ravel().tolist()
    if r.dtype.kind == "c":
        return [(c.real, c.imag) for c in vals]
    return vals


CASES = []


def case(fn, dt, inp, opts):
    a = make(inp, dt)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            try:
                r = np_call(fn, a, opts)
            except Exception:
                CASES.append("{%s, %s, %s, %s, raise = true}" % (lval(fn), lval(dt), lval(inp), lval(lua_opts(opts))))
                return
    CASES.append("{%s, %s, %s, %s, dtype = %s, shape = %s, values = %s}" % (
        lval(fn), lval(dt), lval(inp), lval(lua_opts(opts)), lval(str(r.dtype)),
        lval(list(r.shape)), lval(result_values(r))))


AX2 = [{}, {"axis": 0}, {"axis": 1}, {"axis": -1}, {"axis": -2}, {"axis": (0, 1)}, {"axis": (1, 0)},
       {"keepdims": True}, {"axis": 1, "keepdims": True}]
AX3 = [{}, {"axis": 1}, {"axis": (0, 2)}, {"axis": (-1, 0), "keepdims": True}, {"axis": 2}]
for fn in REDS:
    for dt in DTYPES:
        for opts in AX2:
            if fn in ARGS and (isinstance(opts.get("axis"), tuple)):
                continue
            case(fn, dt, "A", opts)
        for opts in AX3:
            if fn in ARGS and (isinstance(opts.get("axis"), tuple)):
                continue
            case(fn, dt, "D", opts)
        for opts in [{}, {"axis": 0}, {"axis": 1}]:
            case(fn, dt, "R", opts)
        for opts in [{}, {"keepdims": True}]:
            case(fn, dt, "S", opts)
        if dt in ("bool", "int8", "uint16", "float32", "complex128"):
            case(fn, dt, "E", {})
            for opts in [{}, {"axis": 0}, {"axis": 1}]:
                case(fn, dt, "Z", opts)
        if dt in INEXACT:
            for opts in [{}, {"axis": 0}, {"axis": 1}, {"axis": -1, "keepdims": True}]:
                case(fn, dt, "N", opts)

# the options of the composed functions
for dt in DTYPES:
    for fn in ("var", "std", "nanvar", "nanstd"):
        for opts in [{"ddof": 1}, {"ddof": 1, "axis": 1}, {"ddof": 3, "axis": 0}, {"ddof": 4, "axis": 1}]:
            case(fn, dt, "A", opts)
    for fn in ("sum", "prod", "mean", "var", "std", "nansum", "nanmean"):
        for d in ("float32", "float64", "int32", "int8", "complex128"):
            case(fn, dt, "A", {"dtype": d})
            case(fn, dt, "A", {"dtype": d, "axis": 1})
    for opts in [{}, {"axis": 0}, {"axis": 1, "keepdims": True},
                 {"axis": 1, "weights": [1, 2, 3, 4]}, {"axis": 0, "weights": [0.5, 1, 2]},
                 {"weights": [[1, 2, 3, 4], [0, 1, 0, 1], [2, 2, 1, 1]]},
                 {"axis": (0, 1), "weights": [[1, 2, 3, 4], [0, 1, 0, 1], [2, 2, 1, 1]]},
                 {"axis": (1, 0), "weights": [[1, 0, 2], [2, 1, 2], [3, 0, 1], [4, 1, 1]]},
                 {"axis": -1, "weights": [1, -1, 1, -1]}]:
        case("average", dt, "A", opts)
    for opts in [{}, {"offset": 1}, {"offset": -1}, {"offset": 2}, {"offset": 5}, {"offset": -3},
                 {"dtype": "float32"}, {"dtype": "int8"}]:
        case("trace", dt, "A", opts)
    for opts in [{}, {"axis1": 0, "axis2": 2}, {"axis1": 2, "axis2": 1, "offset": 1}]:
        case("trace", dt, "D", opts)

NORM_V = [None, 2, inf, -inf, 0, 1, -1, 3, 0.5, -2]
for dt in ("bool", "int8", "int32", "uint8", "float16", "float32", "float64", "complex64", "complex128"):
    case("norm", dt, "A", {})
    case("norm", dt, "D", {})
    case("norm", dt, "A", {"keepdims": True})
    for o in NORM_V:
        for ax in (0, 1, -1):
            opts = {"axis": ax}
            if o is not None:
                opts["ord"] = o
            case("norm", dt, "A", opts)
        case("norm", dt, "R", {"axis": 1, "ord": o} if o is not None else {"axis": 1})
        case("norm", dt, "D", {"axis": 2, "ord": o, "keepdims": True} if o is not None else {"axis": 2})
    for o in (None, "fro", 1, -1, inf, -inf):
        for ax in ((0, 1), (1, 0)):
            opts = {"axis": ax}
            if o is not None:
                opts["ord"] = o
            case("norm", dt, "A", opts)
        case("norm", dt, "D", {"axis": (2, 0), "ord": o, "keepdims": True} if o is not None
             else {"axis": (2, 0), "keepdims": True})
        if o is not None:
            case("norm", dt, "A", {"ord": o})
    if dt in INEXACT:
        for o in (None, inf, -inf, 0, 1, 3):
            case("norm", dt, "N", {"axis": 1, "ord": o} if o is not None else {"axis": 1})

with open(OUT, "w") as f:
    f.write("-- Generated by tools/gen_reduce_ref.py from NumPy %s; do not edit.\n" % np.__version__)
    f.write("local nan, inf = 0 / 0, math.huge\n")
    f.write("return {\n  numpy = %s,\n  inputs = {\n" % lval(np.__version__))
    for name in INPUTS:
        f.write("    %s = {\n" % name)
        for k in sorted(INPUTS[name]):
            f.write("      %s = {shape = %s, values = %s},\n" % (
                k, lval(list(SHAPES[name])), lval(flat(name, {"bool": "bool", "int": "int8", "uint": "uint8",
                                                            "float": "float64", "complex": "complex128"}[k]))))
        f.write("    },\n")
    f.write("  },\n  cases = {\n")
    for c in CASES:
        f.write("    " + c + ",\n")
    f.write("  },\n}\n")
print("wrote %s: %d cases" % (OUT, len(CASES)))
