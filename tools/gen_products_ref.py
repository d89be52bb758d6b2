#!/usr/bin/env python3
"""Writes spec/data/products_ref.lua: NumPy 2's answers for ga.matmul and
the products of lua/gpuarray/products.lua, for spec/products_spec.lua (CI
has no NumPy; the spec reads the committed file).

    python3 tools/gen_products_ref.py

A case is {id=, fn=, args={arg...}, want=result}.  An arg is an array
{dtype=, shape=, re={...}, im={...}} (im only for complex; values flat in C
order; uint64 as their int64 bit patterns), a number, or {list={...}} (a
Lua table).  Axes are converted to gpuarray's 1-based ones here."""
import warnings

import numpy as np

from refdata import Cases

rng = np.random.default_rng(14)
REF = Cases(want=np.asarray)
case = REF.case


def data(shape, dt, lo=-3, hi=4):
    dt = np.dtype(dt)
    if dt == np.bool_:
        return rng.integers(0, 2, shape).astype(bool)
    if dt.kind == "u":
        lo = 0
    v = rng.integers(lo, hi, shape)
    if dt.kind == "c":
        return (v + 1j * rng.integers(lo, hi, shape)).astype(dt)
    return v.astype(dt)


DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
          "float16", "float32", "float64", "complex64", "complex128"]
SHAPES = [((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 4)), ((2, 3), (3, 4)), ((5, 2, 3), (3, 4)),
          ((2, 3), (5, 3, 4)), ((2, 1, 2, 3), (3, 3, 2)), ((4, 2, 3), (3,)), ((3,), (2, 3, 4)),
          ((1, 7), (7, 1)), ((2, 0), (0, 3)), ((0, 3), (3, 2)), ((3, 2, 5), (3, 5, 4))]
for dt in DTYPES:
    for sa, sb in SHAPES:
        a, b = data(sa, dt), data(sb, dt)
        case(f"matmul_{dt}_{sa}_{sb}", "matmul", [a, b], np.matmul(a, b))
# a larger product for every dtype: more than one tile of the small kernel
for dt in DTYPES:
    a, b = data((33, 20), dt), data((20, 40), dt)
    case(f"matmul_{dt}_33x20x40", "matmul", [a, b], np.matmul(a, b))
# integer wrap-around in the result dtype
for dt, lo, hi in [("int8", -128, 128), ("uint8", 0, 256), ("int16", -32768, 32768), ("uint16", 0, 65536),
                   ("int32", -2**31, 2**31), ("uint32", 0, 2**32), ("int64", -2**63, 2**63 - 1),
                   ("uint64", 0, 2**64 - 1)]:
    a = rng.integers(lo, hi, (9, 33), dtype=dt)
    b = rng.integers(lo, hi, (33, 6), dtype=dt)
    case(f"matmul_wrap_{dt}", "matmul", [a, b], np.matmul(a, b))
# mixed dtypes promote
for da, db in [("int8", "uint8"), ("int16", "float32"), ("int64", "float64"), ("float32", "complex64"),
               ("bool", "int32"), ("float16", "float32"), ("uint32", "int32"), ("float16", "int8")]:
    a, b = data((2, 3), da), data((3, 2), db)
    case(f"matmul_{da}_{db}", "matmul", [a, b], np.matmul(a, b))

# the other products
f64 = lambda s: data(s, "float64")
x, y = f64((2, 3, 4)), f64((4, 3, 5))
a, b = f64((2, 3, 4)), f64((3, 4, 5))
case("tensordot_int2", "tensordot", [a, b, 2], np.tensordot(a, b, 2))
a0, b0 = f64((2, 3)), f64((4,))
case("tensordot_int0", "tensordot", [a0, b0, 0], np.tensordot(a0, b0, 0))
case("tensordot_axes", "tensordot", [x, y, {"list": [{"list": [2, 3]}, {"list": [2, 1]}]}],
     np.tensordot(x, y, ([1, 2], [1, 0])))
ai = data((3, 4, 2), "int32")
bi = data((2, 3), "int32")
case("tensordot_int32", "tensordot", [ai, bi, {"list": [{"list": [3, 1]}, {"list": [1, 2]}]}],
     np.tensordot(ai, bi, ([2, 0], [0, 1])))
for sa, sb in [((3,), (3,)), ((2, 3), (3,)), ((2, 3), (3, 4)), ((2, 3, 4), (5, 4, 2)), ((), (3,)), ((2, 3), ())]:
    a, b = f64(sa), f64(sb)
    case(f"dot_{sa}_{sb}", "dot", [a, b], np.dot(a, b))
ci, cj = data((2, 3), "complex128"), data((3, 2), "complex128")
case("vdot_complex", "vdot", [ci, cj], np.vdot(ci, cj))
v1, v2 = data((2, 3), "int16"), data((6,), "int16")
case("vdot_int", "vdot", [v1, v2], np.vdot(v1, v2))
for sa, sb in [((3,), (3,)), ((2, 3), (4, 3)), ((2, 2, 3), (3,)), ((), (2, 2))]:
    a, b = f64(sa), f64(sb)
    case(f"inner_{sa}_{sb}", "inner", [a, b], np.inner(a, b))
for sa, sb in [((3,), (4,)), ((2, 2), (3,)), ((2,), (2, 3))]:
    a, b = data(sa, "int32"), data(sb, "int32")
    case(f"outer_{sa}_{sb}", "outer", [a, b], np.outer(a, b))
for sa, sb in [((2,), (3,)), ((2, 2), (2, 3)), ((2, 1, 3), (2, 2)), ((3,), (2, 2))]:
    a, b = data(sa, "int64"), data(sb, "int64")
    case(f"kron_{sa}_{sb}", "kron", [a, b], np.kron(a, b))
for sa, sb in [((3,), (3,)), ((4, 3), (3,)), ((2, 3), (2, 2))]:
    a, b = f64(sa), f64(sb)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)   # 2-element vectors
        case(f"cross_{sa}_{sb}", "cross", [a, b], np.cross(a, b))
t = data((3, 4, 5), "int8")
case("trace_2d", "trace", [t[0]], np.trace(t[0]))
case("trace_offset", "trace", [t[0], 1], np.trace(t[0], 1))
case("trace_neg_offset", "trace", [t[0], -2], np.trace(t[0], -2))
case("trace_axes", "trace", [t, 0, 2, 3], np.trace(t, 0, 1, 2))
m = [f64((3, 4)), f64((4, 2)), f64((2, 5)), f64((5, 3))]
case("multi_dot_4", "multi_dot", [{"list": m}], np.linalg.multi_dot(m))
m2 = [f64((4,)), f64((4, 2)), f64((2, 5)), f64((5,))]
case("multi_dot_vec", "multi_dot", [{"list": m2}], np.linalg.multi_dot(m2))
mp = data((2, 3, 3), "int64")
for n in [0, 1, 2, 3, 5]:
    case(f"matrix_power_{n}", "matrix_power", [mp, n], np.linalg.matrix_power(mp, n))



REF.write("spec/data/products_ref.lua",
          "-- Generated by tools/gen_products_ref.py with NumPy %s: NumPy's answers for\n"
          "-- spec/products_spec.lua (axes already 1-based).  Do not edit.\n" % np.__version__)
