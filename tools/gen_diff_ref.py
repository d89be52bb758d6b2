#!/usr/bin/env python3
"""Writes spec/data/diff_ref.lua: random ufunc / reduction / index / shape
programs and NumPy 2's answers, for spec/differential_spec.lua (CI has no
NumPy; the spec only reads the committed file).

    python3 tools/gen_diff_ref.py [--seed N] [--cases N]

The programs are seeded (the default seed gives the committed file), so the
same cases come back when NumPy changes; case ids ("u12", "r3", ...) are
stable and the spec's KNOWN table refers to them.

The file returns {numpy = version, seed = N, cases = {case, ...}}; a case is

  {id=, kind=, op=, args={arg...}, opts={...}, ..., want=result|"raise"}

  kind "ufunc"   ga[op](args..., opts): opts dtype=, casting=, out=(an arg)
  kind "reduce"  ga[op](args[1], axis, opts): axis 1-based (nil: all, or a
                 list); opts keepdims=, dtype=, out=, ddof=
  kind "getitem" args[1][key];  kind "setitem": args[1][key] = args[2],
                 want is args[1] afterwards
  kind "shape"   ga[op](args[1], extra...) (concatenate/stack: args is the
                 list); want may be {list = {result...}} (split)
  kind "searchsorted"  ga.searchsorted(args[1], args[2], side)
  kind "result_type"   ga.result_type(dtypes...): want = {name = dtype}

An arg is {dtype=, shape=, v={flat values, C order}} (an array), or
{lua="int"|"float"|"bool", v=value} (a Lua scalar: NumPy gets a Python int
/ float, and np.bool_ for a boolean).  An index key is a list of items:
{k="i", v=n} an integer, {k="r", a=, b=, c=} a range {a, b, c} (1-based,
inclusive, nil = open), {k="new"}, {k="ell"}, {k="arr", arg} an index array
or mask; key_bare=true means x[item] rather than x[{item}].
A result is {dtype=, shape=, v={flat values}}.  Values: integers as Lua
integers (uint64 as the int64 of the same bits), floats written to read
back exactly (0/0, 1/0, -1/0 for nan, inf, -inf), bools true/false.
"""
import argparse
import math
import os
import random
import warnings

import numpy as np

import refdata

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "spec", "data", "diff_ref.lua")

INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
FLOATS = ["float16", "float32", "float64"]
REAL = ["bool"] + INTS + FLOATS   # complex is covered by ufunc_spec; not here

BINARY = ["add", "subtract", "multiply", "true_divide", "floor_divide", "power", "remainder",
          "fmod", "maximum", "minimum", "fmax", "fmin", "arctan2", "hypot", "logaddexp",
          "copysign", "greater", "less", "equal", "not_equal", "greater_equal", "less_equal",
          "logical_and", "logical_or", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor",
          "left_shift", "right_shift", "heaviside", "float_power", "gcd", "lcm", "nextafter"]
UNARY = ["negative", "absolute", "sqrt", "exp", "log", "sin", "cos", "floor", "ceil", "rint",
         "sign", "square", "reciprocal", "logical_not", "invert", "isnan", "isfinite", "signbit",
         "trunc", "cbrt", "positive", "log1p", "tanh"]
# reductions, and those that take dtype=
HOT = ["greater", "less_equal", "equal", "not_equal", "logical_and", "logical_or", "logical_xor",
       "true_divide", "add", "subtract", "multiply", "arctan2", "hypot", "copysign", "clip",
       "maximum", "floor_divide", "logaddexp", "heaviside"]
EDGE = 0.12   # how often values_for picks a dtype's extreme values
REDUCE = ["sum", "prod", "max", "min", "mean", "argmax", "argmin", "all", "any", "cumsum",
          "cumprod", "nansum", "nanmax", "nanmin", "count_nonzero", "var", "std", "ptp"]
REDUCE_DTYPE = {"sum", "prod", "mean", "cumsum", "cumprod", "nansum", "var", "std"}
CASTINGS = ["no", "equiv", "safe", "same_kind", "unsafe"]


class R:
    """The random stream (Python's, seeded): a few helpers."""
    def __init__(self, seed):
        self.r = random.Random(seed)

    def pick(self, seq):
        return seq[self.r.randrange(len(seq))]

    def chance(self, p):
        return self.r.random() < p

    def int(self, a, b):
        return self.r.randint(a, b)


def values_for(rng, dt, n):
    if dt == "bool":
        return [rng.chance(0.5) for _ in range(n)]
    if dt in INTS:
        info = np.iinfo(dt)
        hi = min(int(info.max), 2**63 - 1)   # uint64 inputs stay below 2^63 (Lua integers)
        out = []
        for _ in range(n):
            if rng.chance(EDGE):
                out.append(rng.pick([int(info.min), hi, hi - 1, int(info.min) + 1 if info.min else 1,
                                     min(hi, 256), min(hi, 300), min(hi, 128)]))
            elif info.min < 0:
                out.append(rng.int(-9, 12))
            else:
                out.append(rng.int(0, 15))
        return out
    out = []
    for _ in range(n):
        if rng.chance(EDGE):
            out.append(rng.pick([math.nan, math.inf, -math.inf, -0.0, 1e-5, 1e-40, 0.1, 1.0 / 3,
                                 300.0, 60000.0 if dt == "float16" else 1e30]))
        else:
            out.append(rng.pick([0.0, 0.5, -1.5, 2.0, 3.25, -7.0, 10.0, 0.125, -0.75, 1.0]))
    return [float(np.array(v, dtype=dt)) for v in out]


def rand_shape(rng, maxnd=3, maxd=4, allow_empty=True):
    nd = rng.int(0, maxnd)
    return [rng.int(0 if allow_empty and rng.chance(0.15) else 1, maxd) for _ in range(nd)]


def array_arg(rng, dt=None, shape=None, dtypes=REAL):
    dt = dt or rng.pick(dtypes)
    shape = list(shape) if shape is not None else rand_shape(rng)
    n = int(np.prod(shape)) if shape else 1
    return {"dtype": dt, "shape": shape, "v": values_for(rng, dt, n)}


def lua_scalar(rng):
    k = rng.pick(["int", "int", "float", "float", "bool"])
    if k == "int":
        v = rng.pick([0, 1, 2, 3, -1, -2, 7, 100, 127, 128, 255, 256, 300, -129, 65536, -1, 300,
                      2**31 - 1, 2**31, 2**40, -2**40, 2**63 - 1, -2**63])
    elif k == "float":
        v = rng.pick([0.5, -1.5, 2.0, 1e-50, 1e300, -1e300, 3.75, 0.1, -0.0, 1e10, math.inf,
                      -math.inf, math.nan])
    else:
        v = rng.chance(0.5)
    return {"lua": k, "v": v}


def to_np(arg):
    if "lua" in arg:
        if arg["lua"] == "bool":
            return np.bool_(arg["v"])
        return arg["v"]   # a Python int or float: NEP 50 weak scalars, as Lua numbers
    a = np.array(arg["v"], dtype=arg["dtype"])
    return a.reshape(arg["shape"])


def result(x):
    x = np.asarray(x)
    if x.dtype.kind == "c":
        raise TypeError("complex result: not covered")
    return {"dtype": x.dtype.name, "shape": list(x.shape), "v": flat_values(x)}


def flat_values(x):
    x = np.asarray(x)
    flat = x.reshape(-1)
    if x.dtype == np.bool_:
        return [bool(v) for v in flat]
    if x.dtype.kind in "iu":
        return [int(np.int64(v)) if x.dtype != np.uint64 else int(v.astype(np.int64)) for v in flat]
    return [float(v) for v in flat]


class Undefined(Exception):
    """The program casts NaN, an infinity or an out-of-range float to an
    integer dtype: NumPy's answer is the C conversion's (undefined; it
    warns), gpuarray saturates (documented), so the case is not made."""


def check_cast(x, to_dt):
    """Raises Undefined when casting x to to_dt converts a NaN, an infinity
    or an out-of-range float to an integer (negative to unsigned included)."""
    x = np.asarray(x)
    if x.dtype.kind != "f" or np.dtype(to_dt).kind not in "iu":
        return
    info = np.iinfo(to_dt)
    t = np.trunc(x.astype(np.float64))
    if not np.all(np.isfinite(t)) or np.any(t < info.min) or np.any(t > float(info.max)):
        raise Undefined()


def run(f):
    """NumPy's result, or "raise"; Undefined for an invalid float cast."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with np.errstate(all="ignore", invalid="warn"):
            try:
                r = f()
                for w in caught:
                    if "invalid value encountered in cast" in str(w.message):
                        raise Undefined()
                return r
            except TypeError as e:
                if "complex result" in str(e):
                    raise
                return "raise"
            except (ValueError, OverflowError, IndexError, np.exceptions.AxisError,
                    ZeroDivisionError, np.exceptions.DTypePromotionError):
                return "raise"


def lua_axis_to_np(a):
    if a is None:
        return None
    if isinstance(a, list):
        return tuple(lua_axis_to_np(v) for v in a)
    return a - 1 if a > 0 else a


def rand_axis(rng, nd, allow_list=True):
    if nd == 0 or rng.chance(0.2):
        return None
    if allow_list and nd >= 2 and rng.chance(0.2):
        axes = rng.r.sample(range(1, nd + 1), rng.int(1, nd))
        return [a if rng.chance(0.7) else a - nd - 1 for a in axes]
    a = rng.int(1, nd)
    if rng.chance(0.3):
        a = a - nd - 1   # negative
    if rng.chance(0.05):
        a = nd + 1       # out of bounds
    return a


# --- ufuncs ----------------------------------------------------------------

def gen_ufunc(rng, i, hot=False):
    """hot: the ops and inputs where dtype resolution and Lua scalars matter
    most (comparisons, logical ops, division, clip) with edge values."""
    global EDGE
    binary = hot or rng.chance(0.7)
    op = rng.pick(HOT if hot else BINARY if binary else UNARY)
    nin = 3 if op == "clip" else 2 if binary else 1
    shape = rand_shape(rng, maxnd=2, maxd=3)
    args = []
    EDGE = 0.4 if hot else 0.12
    for j in range(nin):
        r = rng.r.random()
        if (r < 0.6 and not (hot and j > 0)) or (not binary and r < 0.85):
            sh = shape if rng.chance(0.8) else shape[1:]   # broadcasting
            args.append(array_arg(rng, shape=sh))
        elif r < 0.95:
            args.append(lua_scalar(rng))
        else:
            args.append(array_arg(rng, shape=[]))   # 0-d
    EDGE = 0.12
    opts = {}
    if rng.chance(0.5 if hot else 0.3):
        opts["dtype"] = rng.pick(REAL)
    if rng.chance(0.25):
        opts["casting"] = rng.pick(CASTINGS)
    out_arg = None
    if rng.chance(0.25):
        bshape = run(lambda: list(np.broadcast_shapes(*[np.shape(to_np(a)) for a in args])))
        if bshape != "raise":
            out_arg = array_arg(rng, shape=bshape if rng.chance(0.9) else bshape + [2])
            opts["out"] = out_arg
    case = {"id": ("h%d" if hot else "u%d") % i, "kind": "ufunc", "op": op, "args": args,
            "opts": opts}

    def f():
        kw = {}
        if "dtype" in opts:
            kw["dtype"] = opts["dtype"]
            for a in args:
                check_cast(to_np(a), opts["dtype"])
        if "casting" in opts:
            kw["casting"] = opts["casting"]
        if out_arg is not None:
            check_cast(getattr(np, op)(*[to_np(a) for a in args], **kw), out_arg["dtype"])
            kw["out"] = to_np(out_arg)
        r = getattr(np, op)(*[to_np(a) for a in args], **kw)
        return result(r)
    case["want"] = run(f)
    return case


# --- reductions --------------------------------------------------------------

def gen_reduce(rng, i):
    op = rng.pick(REDUCE)
    shape = rand_shape(rng, maxnd=3, maxd=4)
    if shape and rng.chance(0.3):   # empty reductions, some with an empty result too
        for _ in range(2 if len(shape) >= 2 and rng.chance(0.4) else 1):
            shape[rng.int(0, len(shape) - 1)] = 0
    x = array_arg(rng, shape=shape)
    nd = len(x["shape"])
    axis = rand_axis(rng, nd, allow_list=op not in ("argmax", "argmin", "cumsum", "cumprod"))
    if op in ("cumsum", "cumprod") and isinstance(axis, list):
        axis = None
    opts = {}
    if op not in ("cumsum", "cumprod") and rng.chance(0.4):
        opts["keepdims"] = rng.chance(0.5)
    if op in REDUCE_DTYPE and rng.chance(0.35):
        opts["dtype"] = rng.pick(REAL)
    if op in ("var", "std") and rng.chance(0.3):
        opts["ddof"] = rng.int(0, 2)
    case = {"id": "r%d" % i, "kind": "reduce", "op": op, "args": [x], "axis": axis, "opts": opts}
    if "dtype" in opts:
        check_cast(to_np(x), opts["dtype"])

    def np_call(out=None):
        a = to_np(x)
        kw = {}
        ax = lua_axis_to_np(axis)
        if op in ("cumsum", "cumprod"):
            if ax is None and a.ndim > 1:
                a = a.reshape(-1)   # NumPy flattens for axis=None
            kw["axis"] = ax
        else:
            kw["axis"] = ax
        if "keepdims" in opts:
            kw["keepdims"] = opts["keepdims"]
        if "dtype" in opts:
            kw["dtype"] = opts["dtype"]
        if "ddof" in opts:
            kw["ddof"] = opts["ddof"]
        if out is not None:
            kw["out"] = out
        r = getattr(np, op)(a, **kw)
        if op in ("argmax", "argmin"):
            r = np.asarray(r) + 1   # 1-based positions
        return r

    want = run(lambda: result(np_call()))
    if want != "raise" and op not in ("argmax", "argmin", "count_nonzero") and rng.chance(0.25):
        # out= of the result's shape, its dtype or another one (a float one
        # for var/std: NumPy's sqrt step refuses others, an artefact)
        odt = want["dtype"] if rng.chance(0.5) else rng.pick(FLOATS if op in ("var", "std") else REAL)
        out_arg = array_arg(rng, dt=odt, shape=want["shape"])
        opts["out"] = out_arg
        check_cast(np_call(), odt)
        want = run(lambda: result(np_call(out=to_np(out_arg))))
    case["want"] = want
    return case


# --- indexing ----------------------------------------------------------------

def range_item(rng, n):
    """A Lua range over an axis of length n, and the Python slice."""
    step = rng.pick([None, None, 1, 2, -1, -2, 3])
    def bound():
        if n == 0 or rng.chance(0.25):
            return None
        b = rng.int(1, n)
        return b if rng.chance(0.6) else b - n - 1
    a, b = bound(), bound()
    s = step or 1
    pa = None if a is None else (a - 1 if a > 0 else a)
    if b is None:
        pb = None
    elif s > 0:
        pb = b if b > 0 else (b + 1 if b != -1 else None)
    else:
        ix = b - 1 if b > 0 else n + b
        pb = None if ix - 1 < 0 else ix - 1
    return {"k": "r", "a": a, "b": b, "c": step}, slice(pa, pb, step)


def index_key(rng, shape):
    items, pyitems = [], []
    nd = len(shape)
    ax = 0
    used_ell = False
    nitems = rng.int(1, max(1, nd))
    for _ in range(nitems):
        n = shape[ax] if ax < nd else 0
        r = rng.r.random()
        if ax < nd and r < 0.3 and n > 0:
            v = rng.int(1, n)
            if rng.chance(0.3):
                v = v - n - 1
            if rng.chance(0.04):
                v = n + 1   # out of bounds
            items.append({"k": "i", "v": v})
            pyitems.append(v - 1 if v > 0 else v)
            ax += 1
        elif ax < nd and r < 0.65:
            it, sl = range_item(rng, n)
            items.append(it)
            pyitems.append(sl)
            ax += 1
        elif r < 0.72:
            items.append({"k": "new"})
            pyitems.append(None)
        elif r < 0.78 and not used_ell:
            used_ell = True
            items.append({"k": "ell"})
            pyitems.append(Ellipsis)
        elif ax < nd and r < 0.9:
            m = rng.int(0, 4)
            idx = [rng.int(1, n) if n > 0 else 1 for _ in range(m)]
            idx = [v if rng.chance(0.7) else v - n - 1 for v in idx]
            arg = {"dtype": rng.pick(["int64", "int32", "int64", "uint8", "int8"]), "shape": [m], "v": idx}
            if arg["dtype"] == "uint8":
                arg["v"] = [v if v > 0 else v + n + 1 for v in idx]
            items.append({"k": "arr", "arg": arg})
            pyitems.append(np.array([v - 1 if v > 0 else v for v in arg["v"]], dtype=np.int64))
            ax += 1
        elif ax < nd:
            arg = array_arg(rng, dt="bool", shape=[n])
            items.append({"k": "arr", "arg": arg})
            pyitems.append(to_np(arg))
            ax += 1
    return items, tuple(pyitems)


def gen_index(rng, i, setitem):
    x = array_arg(rng, shape=rand_shape(rng, maxnd=3, maxd=4))
    items, pykey = index_key(rng, x["shape"])
    bare = len(items) == 1 and items[0]["k"] in ("i", "arr") and rng.chance(0.5)
    case = {"id": ("s%d" if setitem else "g%d") % i, "kind": "setitem" if setitem else "getitem",
            "args": [x], "key": items, "key_bare": bare}
    if not setitem:
        case["want"] = run(lambda: result(to_np(x)[pykey]))
        return case
    def target_shape():
        return list(to_np(x)[pykey].shape)
    ts = run(target_shape)
    if ts == "raise" or rng.chance(0.4):
        val = lua_scalar(rng)
    else:
        sh = ts[rng.int(0, len(ts)):] if ts else []
        val = array_arg(rng, shape=sh)
    case["args"].append(val)

    def f():
        a = to_np(x).copy()
        if "lua" not in val:
            check_cast(to_np(val), x["dtype"])
        a[pykey] = to_np(val)
        return result(a)
    case["want"] = run(f)
    return case


# --- shape programs ----------------------------------------------------------

def gen_shape(rng, i):
    op = rng.pick(["reshape", "transpose", "swapaxes", "moveaxis", "flip", "roll", "repeat",
                   "tile", "concatenate", "stack", "split", "array_split", "squeeze",
                   "expand_dims", "diagonal", "tril", "triu", "broadcast_to"])
    x = array_arg(rng, shape=rand_shape(rng, maxnd=3, maxd=4, allow_empty=rng.chance(0.3)))
    nd = len(x["shape"])
    case = {"id": "p%d" % i, "kind": "shape", "op": op, "args": [x], "extra": []}
    a = to_np(x)
    ex = case["extra"]
    f = None
    if op == "reshape":
        sh = list(a.shape)
        rng.r.shuffle(sh)
        if sh and rng.chance(0.4):
            sh[rng.int(0, len(sh) - 1)] = -1
        if rng.chance(0.2):
            sh = sh + [rng.int(1, 3)]
        ex.append(sh)
        f = lambda: a.reshape(sh)
    elif op == "transpose":
        perm = list(range(nd))
        rng.r.shuffle(perm)
        ex.append([p + 1 for p in perm])
        f = lambda: np.transpose(a, perm)
    elif op in ("swapaxes", "moveaxis"):
        if nd == 0:
            return None
        p, q = rng.int(1, nd), rng.int(1, nd)
        ex += [p, q]
        f = lambda: getattr(np, op)(a, p - 1, q - 1)
    elif op == "flip":
        ax = rand_axis(rng, nd)
        ex.append(ax)
        f = lambda: np.flip(a, lua_axis_to_np(ax))
    elif op == "roll":
        sh = rng.int(-7, 9)
        ax = rand_axis(rng, nd, allow_list=False)
        ex += [sh, ax]
        f = lambda: np.roll(a, sh, lua_axis_to_np(ax))
    elif op == "repeat":
        ax = rand_axis(rng, nd, allow_list=False)
        n = a.size if ax is None else (a.shape[lua_axis_to_np(ax)] if -nd <= lua_axis_to_np(ax) < nd else 1)
        cnt = rng.int(0, 3) if rng.chance(0.5) else [rng.int(0, 3) for _ in range(n)]
        ex += [cnt, ax]
        f = lambda: np.repeat(a, cnt, lua_axis_to_np(ax))
    elif op == "tile":
        reps = [rng.int(0, 3) for _ in range(rng.int(1, 3))]
        ex.append(reps)
        f = lambda: np.tile(a, reps)
    elif op in ("concatenate", "stack"):
        k = rng.int(1, 3)
        others = []
        for _ in range(k - 1):
            sh = list(x["shape"])
            if op == "concatenate" and sh and rng.chance(0.5):
                j = rng.int(0, len(sh) - 1)
                sh[j] = rng.int(0, 3)
            others.append(array_arg(rng, shape=sh))
        case["args"] += others
        ax = rng.int(1, nd + (1 if op == "stack" else 0)) if nd or op == "stack" else None
        ex.append(ax)
        arrs = [to_np(v) for v in case["args"]]
        f = lambda: getattr(np, op)(arrs, 0 if ax is None else ax - 1)
    elif op in ("split", "array_split"):
        if nd == 0:
            return None
        ax = rng.int(1, nd)
        n = a.shape[ax - 1]
        if rng.chance(0.5):
            cnt = rng.int(1, 4)
            ex += [cnt, ax]
            f = lambda: getattr(np, op)(a, cnt, ax - 1)
        else:
            pts = sorted(rng.int(1, n + 2) for _ in range(rng.int(1, 3)))
            ex += [pts, ax]
            f = lambda: getattr(np, op)(a, [p - 1 for p in pts], ax - 1)
    elif op == "squeeze":
        ax = rand_axis(rng, nd)
        ex.append(ax)
        f = lambda: np.squeeze(a, lua_axis_to_np(ax))
    elif op == "expand_dims":
        ax = rng.int(1, nd + 1) if rng.chance(0.8) else -rng.int(1, nd + 1)
        ex.append(ax)
        f = lambda: np.expand_dims(a, ax - 1 if ax > 0 else ax)
    elif op == "diagonal":
        off = rng.int(-2, 2)
        ex.append(off)
        f = lambda: np.diagonal(a, off)
    elif op in ("tril", "triu"):
        k = rng.int(-2, 2)
        ex.append(k)
        f = lambda: getattr(np, op)(a, k)
    elif op == "broadcast_to":
        sh = [rng.int(1, 3)] * rng.int(0, 2) + list(a.shape)
        if sh and rng.chance(0.3):
            sh[-1] = rng.int(1, 3)
        ex.append(sh)
        f = lambda: np.broadcast_to(a, sh)

    def g():
        r = f()
        if isinstance(r, list):
            return {"list": [result(v) for v in r]}
        return result(r)
    case["want"] = run(g)
    return case


def gen_searchsorted(rng, i):
    dt = rng.pick(["float32", "float64", "int32", "int64", "uint8", "float16"])
    if rng.chance(0.3):
        dt = "float32"   # a Lua float equal to no float32: compared in float64 by NumPy
    n = rng.int(1, 6)
    a = values_for(rng, dt, n)
    const = None
    if dt.startswith("float") and rng.chance(0.6):
        const = rng.pick([0.1, 1.0 / 3, 0.2])   # not exact in the array's dtype
        a[0] = float(np.array(const, dtype=dt))
    a = sorted(a, key=lambda v: (math.isnan(v) if isinstance(v, float) else False, v))
    arg = {"dtype": dt, "shape": [n], "v": a}
    if const is not None and rng.chance(0.6):
        v = {"lua": "float", "v": const}
    elif rng.chance(0.6):
        v = {"lua": "float", "v": rng.pick([0.1, 0.5, 1.0 / 3, 2.0, -1.5, 1e-8, 1e10, 3.25, 0.1,
                                            1.0 / 3, 0.2])}
    elif rng.chance(0.5):
        v = {"lua": "int", "v": rng.pick([0, 1, 3, -2, 300, 2**40])}
    else:
        v = array_arg(rng, dt=rng.pick(REAL[1:]), shape=[rng.int(0, 3)])
    side = rng.pick(["left", "right"])
    case = {"id": "q%d" % i, "kind": "searchsorted", "args": [arg, v], "side": side}
    case["want"] = run(lambda: result(np.asarray(np.searchsorted(to_np(arg), to_np(v), side)) + 1))
    return case


def gen_result_type(rng, i):
    k = rng.int(2, 4)
    pool = REAL if rng.chance(0.4) else ["bool", "int8", "uint8", "int16", "uint16", "float16",
                                         "float16", "int32", "float32", "uint8", "int8"]
    dts = [rng.pick(pool) for _ in range(k)]
    if rng.chance(0.4):
        # mixed-sign integers and a small float: NumPy's rule for 3+ dtypes
        # is not the pairwise one
        dts = [rng.pick(["uint8", "uint16"]), rng.pick(["int8", "int16"]),
               rng.pick(["float16", "float32"])]
        rng.r.shuffle(dts)
    case = {"id": "t%d" % i, "kind": "result_type", "dtypes": dts}
    r = run(lambda: {"name": np.result_type(*dts).name})
    case["want"] = r
    return case


# --- writing -----------------------------------------------------------------

def lua_value(v):
    """v as Lua source (refdata.lua; a dict's nil fields left out, infinity 1/0)"""
    def strip(x):
        if isinstance(x, dict):
            return {k: strip(e) for k, e in x.items() if e is not None}
        if isinstance(x, list):
            return [strip(e) for e in x]
        return x
    return refdata.lua(strip(v), huge="1/0")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=20240610)
    ap.add_argument("--out", default=OUT)
    args = ap.parse_args()
    warnings.simplefilter("ignore")   # run() records the ones that matter
    rng = R(args.seed)
    plan = [("ufunc", 230), ("hot", 120), ("reduce", 130), ("getitem", 60), ("setitem", 45), ("shape", 80),
            ("searchsorted", 30), ("result_type", 40)]
    cases = []
    for kind, n in plan:
        made = 0
        i = 0
        while made < n:
            i += 1
            try:
                if kind == "ufunc":
                    c = gen_ufunc(rng, i)
                elif kind == "hot":
                    c = gen_ufunc(rng, i, hot=True)
                elif kind == "reduce":
                    c = gen_reduce(rng, i)
                elif kind == "getitem":
                    c = gen_index(rng, i, False)
                elif kind == "setitem":
                    c = gen_index(rng, i, True)
                elif kind == "shape":
                    c = gen_shape(rng, i)
                elif kind == "searchsorted":
                    c = gen_searchsorted(rng, i)
                else:
                    c = gen_result_type(rng, i)
            except TypeError as e:
                if "complex result" in str(e):
                    continue
                raise
            except Undefined:
                continue
            if c is None:
                continue
            cases.append(c)
            made += 1
    lines = ["-- Generated by tools/gen_diff_ref.py (seed %d) with NumPy %s: random programs"
             % (args.seed, np.__version__),
             "-- and NumPy's answers for spec/differential_spec.lua.  Do not edit.",
             "return {", "  numpy = %s, seed = %d," % (lua_value(np.__version__), args.seed),
             "  cases = {"]
    for c in cases:
        lines.append("    " + lua_value(c) + ",")
    lines += ["  },", "}", ""]
    with open(args.out, "w") as f:
        f.write("\n".join(lines))
    nraise = sum(1 for c in cases if c["want"] == "raise")
    print("%s: %d cases (%d where NumPy raises), %d bytes" %
          (os.path.relpath(args.out, ROOT), len(cases), nraise, os.path.getsize(args.out)))


if __name__ == "__main__":
    main()
