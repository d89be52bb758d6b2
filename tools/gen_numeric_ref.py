#!/usr/bin/env python3
"""Writes spec/data/numeric_ref.lua: NumPy 2's answers for the functions of
lua/gpuarray/numeric.lua, for spec/numeric_spec.lua (CI has no NumPy; the
spec reads the committed file).

    python3 tools/gen_numeric_ref.py

A case is {id=, fn=, args={arg...}, want=result}.  An arg is
{dtype=, shape=, v={flat values}} (an array), a Lua number, boolean, string,
nil ({nil=true}), or {list={arg...}} (a Lua table of args, e.g. a shape or
meshgrid's arrays).  A result is an array, a number/boolean, or {list=...}
(several results).  Positions are converted to gpuarray's 1-based ones here
(indices, unravel_index, ravel_multi_index, *_indices, take_along_axis,
digitize, intersect1d's indices), so the spec compares values as they are."""
import numpy as np

from refdata import Cases

REF = Cases(values="v")
case = REF.case


def A(x, dtype=None):
    a = np.asarray(x, dtype=dtype)
    return a


def plus1(x):
    if isinstance(x, tuple):
        return tuple(plus1(e) for e in x)
    return np.asarray(x) + 1


rng = np.random.default_rng(20261124)
f64 = rng.standard_normal(12)
f32 = rng.standard_normal(12).astype(np.float32)

# comparisons
a = np.array([1.0, 1.0 + 1e-6, 1.1, np.inf, -np.inf, np.nan, 0.0])
b = np.array([1.0, 1.0, 1.0, np.inf, np.inf, np.nan, 1e-9])
case("isclose1", "isclose", [a, b], np.isclose(a, b))
case("isclose2", "isclose", [a, b, 1e-3, 0.0, True], np.isclose(a, b, 1e-3, 0.0, True))
case("isclose3", "isclose", [A([1, 2, 3], np.int32), 2], np.isclose(A([1, 2, 3], np.int32), 2))
case("allclose1", "allclose", [f64, f64 + 1e-9], bool(np.allclose(f64, f64 + 1e-9)))
case("allclose2", "allclose", [f64, f64 + 1e-3], bool(np.allclose(f64, f64 + 1e-3)))
case("array_equal1", "array_equal", [A([[1, 2], [3, 4]]), A([[1, 2], [3, 4]])], True)
case("array_equal2", "array_equal", [A([1, 2]), A([[1, 2]])], bool(np.array_equal([1, 2], [[1, 2]])))
case("array_equal3", "array_equal", [A([1.0, np.nan]), A([1.0, np.nan]), True],
     bool(np.array_equal([1.0, np.nan], [1.0, np.nan], equal_nan=True)))
case("array_equiv1", "array_equiv", [A([[1, 2], [1, 2]]), A([1, 2])], bool(np.array_equiv([[1, 2], [1, 2]], [1, 2])))
case("array_equiv2", "array_equiv", [A([[1, 2], [1, 3]]), A([1, 2])], bool(np.array_equiv([[1, 2], [1, 3]], [1, 2])))
case("array_equiv3", "array_equiv", [A([1, 2, 3]), A([1, 2])], False)

# grids and ranges
x, y, z = A([1.0, 2.0, 3.0]), A([10, 20]), A([5, 6, 7, 8])
case("meshgrid_xy", "meshgrid", [x, y], list(np.meshgrid(x, y)))
case("meshgrid_ij3", "meshgrid", [x, y, z, {"indexing": "ij"}], list(np.meshgrid(x, y, z, indexing="ij")))
case("meshgrid_sparse", "meshgrid", [x, y, {"sparse": True}], list(np.meshgrid(x, y, sparse=True)))
case("indices", "indices", [[2, 3]], plus1(np.indices((2, 3))))
case("logspace", "logspace", [0.0, 2.0, 5], np.logspace(0, 2, 5))
case("logspace_base2", "logspace", [1.0, 4.0, 4, False, 2.0], np.logspace(1, 4, 4, endpoint=False, base=2))
case("geomspace", "geomspace", [1.0, 256.0, 9], np.geomspace(1, 256, 9))
case("geomspace_neg", "geomspace", [-1000.0, -1.0, 4], np.geomspace(-1000, -1, 4))
case("tri", "tri", [3, 4, 1], np.tri(3, 4, 1))
case("tri_neg", "tri", [4, 3, -1], np.tri(4, 3, -1))
case("vander", "vander", [A([1, 2, 3, 5])], np.vander([1, 2, 3, 5]))
case("vander_inc", "vander", [A([1.5, -2.0]), 4, True], np.vander([1.5, -2.0], 4, increasing=True))

# differences
m = rng.integers(-5, 6, (3, 4))
case("diff", "diff", [m], np.diff(m))
case("diff2_axis1", "diff", [m, 2, 1], np.diff(m, 2, axis=0))
case("diff_bool", "diff", [A([True, True, False, True])], np.diff(A([True, True, False, True])))
case("diff_pre_app", "diff", [A([1.0, 4.0, 9.0]), 1, -1, 0.0, A([20.0])],
     np.diff(A([1.0, 4.0, 9.0]), prepend=0.0, append=[20.0]))
case("diff_empty", "diff", [A([7]), 1], np.diff(A([7])))
case("ediff1d", "ediff1d", [m, A([99]), A([-1, -2])], np.ediff1d(m, to_end=[99], to_begin=[-1, -2]))
case("cumulative_sum", "cumulative_sum", [m, 2, None, True], np.cumulative_sum(m, axis=1, include_initial=True))
case("trapezoid", "trapezoid", [f64], float(np.trapezoid(f64)))
case("trapezoid_x", "trapezoid", [A([[1.0, 2.0, 4.0], [0.0, 1.0, 0.0]]), A([0.0, 0.5, 2.0])],
     np.trapezoid(A([[1.0, 2.0, 4.0], [0.0, 1.0, 0.0]]), A([0.0, 0.5, 2.0])))
case("trapezoid_dx_axis", "trapezoid", [m.astype(float), None, 0.5, 1], np.trapezoid(m.astype(float), dx=0.5, axis=0))

# positions
case("unravel", "unravel_index", [A([1, 7, 12]), [3, 4]], list(plus1(np.unravel_index([0, 6, 11], (3, 4)))))
case("unravel_F", "unravel_index", [A([1, 7, 12]), [3, 4], "F"],
     list(plus1(np.unravel_index([0, 6, 11], (3, 4), order="F"))))
case("ravel_multi", "ravel_multi_index", [[A([1, 3, 2]), A([4, 1, 2])], [3, 4]],
     np.ravel_multi_index(([0, 2, 1], [3, 0, 1]), (3, 4)) + 1)
case("ravel_multi_wrap", "ravel_multi_index", [[A([4, 0]), A([5, -1])], [3, 4], "wrap"],
     np.ravel_multi_index(([3, -1], [4, -2]), (3, 4), mode="wrap") + 1)
case("tril_indices", "tril_indices", [4, -1, 5], list(plus1(np.tril_indices(4, -1, 5))))
case("triu_indices", "triu_indices", [3, 0, 4], list(plus1(np.triu_indices(3, 0, 4))))
t = rng.integers(0, 100, (3, 5))
idx = np.argsort(t, axis=1)
case("take_along", "take_along_axis", [t, idx + 1, 2], np.take_along_axis(t, idx, axis=1))
idx0 = np.argsort(t, axis=0)[:2]
case("take_along0", "take_along_axis", [t, idx0 + 1, 1], np.take_along_axis(t, idx0, axis=0))
case("take_along_flat", "take_along_axis", [t, A([3, 1, 15]), None], np.take_along_axis(t, A([2, 0, 14]), None))
case("append", "append", [A([[1, 2], [3, 4]]), A([[5, 6]]), 1], np.append([[1, 2], [3, 4]], [[5, 6]], axis=0))

# sets
e = rng.integers(0, 10, 15)
tt = rng.integers(0, 10, 6)
case("isin", "isin", [e.reshape(3, 5), tt], np.isin(e.reshape(3, 5), tt))
case("isin_inv", "isin", [e, tt, False, True], np.isin(e, tt, invert=True))
case("isin_float", "isin", [A([1.5, np.nan, 2.0]), A([2.0, 1.5])], np.isin([1.5, np.nan, 2.0], [2.0, 1.5]))
c, i1, i2 = np.intersect1d(e, tt, return_indices=True)
case("intersect1d", "intersect1d", [e, tt, False, True], [c, i1 + 1, i2 + 1])
case("union1d", "union1d", [e, tt], np.union1d(e, tt))
case("setdiff1d", "setdiff1d", [e, tt], np.setdiff1d(e, tt))
case("setxor1d", "setxor1d", [e, tt], np.setxor1d(e, tt))

# counting
bc = rng.integers(0, 7, 30)
w = rng.random(30)
case("bincount", "bincount", [bc], np.bincount(bc))
case("bincount_w", "bincount", [bc, w, 10], np.bincount(bc, w, 10))
xs = rng.random(20) * 10 - 1
bins = A([0.0, 1.0, 2.5, 4.0, 10.0])
case("digitize", "digitize", [xs, bins], np.digitize(xs, bins) + 1)
case("digitize_right", "digitize", [A([1.0, 2.5, 4.0]), bins, True], np.digitize([1.0, 2.5, 4.0], bins, right=True) + 1)
case("digitize_dec", "digitize", [xs, bins[::-1].copy()], np.digitize(xs, bins[::-1]) + 1)
h = rng.standard_normal(200)
hh, he = np.histogram(h, 7)
case("histogram", "histogram", [h, 7], [hh, he])
hh, he = np.histogram(h, A([-2.0, -0.5, 0.0, 1.0, 3.0]), density=True)
case("histogram_edges_density", "histogram", [h, A([-2.0, -0.5, 0.0, 1.0, 3.0]), None, True], [hh, he])
hw = rng.random(200)
hh, he = np.histogram(h, 4, (-1.0, 1.0), weights=hw)
case("histogram_range_w", "histogram", [h, 4, [-1.0, 1.0], False, hw], [hh, he])
xp = np.sort(rng.random(8) * 10)
fp = rng.standard_normal(8)
xi = A([-1.0, 0.0, 2.5, 5.0, 9.9, 11.0, xp[3], np.nan])
case("interp", "interp", [xi, xp, fp], np.interp(xi, xp, fp))
case("interp_lr", "interp", [xi, xp, fp, -7.0, 7.0], np.interp(xi, xp, fp, -7.0, 7.0))
xq = A([-180.0, -170.0, -185.0, 185.0, -10.0, -5.0, 0.0, 365.0])
case("interp_period", "interp", [xq, A([190.0, -190.0, 350.0, -350.0]), A([5.0, 10.0, 3.0, 4.0]), None, None, 360.0],
     np.interp(xq, [190, -190, 350, -350], [5, 10, 3, 4], period=360))
nn = A([np.nan, np.inf, -np.inf, 1.5])
case("nan_to_num", "nan_to_num", [nn], np.nan_to_num(nn))
case("nan_to_num_vals", "nan_to_num", [nn.astype(np.float32), True, -1.0, 100.0, -100.0],
     np.nan_to_num(nn.astype(np.float32), nan=-1.0, posinf=100.0, neginf=-100.0))
case("nan_to_num_int", "nan_to_num", [A([1, 2], np.int16)], np.nan_to_num(A([1, 2], np.int16)))

# order statistics
qx = rng.standard_normal((4, 7))
qn = qx.copy(); qn[1, 2] = np.nan; qn[3, :] = np.nan
for meth in ["linear", "lower", "higher", "nearest", "midpoint", "inverted_cdf", "averaged_inverted_cdf",
             "closest_observation", "interpolated_inverted_cdf", "hazen", "weibull", "median_unbiased",
             "normal_unbiased"]:
    case("quantile_" + meth, "quantile", [qx, A([0.0, 0.1, 0.33, 0.5, 1.0]), 2, meth],
         np.quantile(qx, [0.0, 0.1, 0.33, 0.5, 1.0], axis=1, method=meth))
case("quantile_all", "quantile", [qx, 0.25], np.quantile(qx, 0.25))
case("quantile_keep", "quantile", [qx, 0.7, 1, "linear", True], np.quantile(qx, 0.7, axis=0, keepdims=True))
case("quantile_nan", "quantile", [qn, 0.5, 2], np.quantile(qn, 0.5, axis=1))
case("percentile", "percentile", [qx, A([10.0, 90.0]), -1], np.percentile(qx, [10, 90], axis=-1))
case("percentile_int", "percentile", [A([[10, 7, 4], [3, 2, 1]]), 50, 2], np.percentile([[10, 7, 4], [3, 2, 1]], 50, axis=1))
case("nanquantile", "nanquantile", [qn[:3], A([0.2, 0.8]), 2], np.nanquantile(qn[:3], [0.2, 0.8], axis=1))
case("nanquantile_lower", "nanquantile", [qn[:3], 0.6, 2, "lower"], np.nanquantile(qn[:3], 0.6, axis=1, method="lower"))
case("nanpercentile", "nanpercentile", [qn[:3], 30.0], np.nanpercentile(qn[:3], 30.0))
case("nanmedian", "nanmedian", [qn[:3], 2], np.nanmedian(qn[:3], axis=1))

# covariance, convolution, polynomials
cx = rng.standard_normal((3, 6))
cy = rng.standard_normal(6)
case("cov", "cov", [cx], np.cov(cx))
case("cov_y_bias", "cov", [cx, cy, True, True], np.cov(cx, cy, rowvar=True, bias=True))
case("cov_cols_ddof", "cov", [cx.T.copy(), None, False, False, 0], np.cov(cx.T, rowvar=False, ddof=0))
case("corrcoef", "corrcoef", [cx], np.corrcoef(cx))
sa, sv = rng.standard_normal(9), rng.standard_normal(4)
for mode in ["valid", "same", "full"]:
    case("correlate_" + mode, "correlate", [sa, sv, mode], np.correlate(sa, sv, mode))
    case("correlate_r_" + mode, "correlate", [sv, sa, mode], np.correlate(sv, sa, mode))
    case("convolve_" + mode, "convolve", [sa, sv, mode], np.convolve(sa, sv, mode))
    case("convolve_r_" + mode, "convolve", [sv, sa, mode], np.convolve(sv, sa, mode))
case("polyval", "polyval", [A([2.0, -1.0, 0.5, 3.0]), A([[0.0, 1.5], [-2.0, 3.0]])],
     np.polyval([2.0, -1.0, 0.5, 3.0], [[0.0, 1.5], [-2.0, 3.0]]))
# (complex real_if_close: hand-written rows in the spec)

# selection and editing
sx = np.arange(10)
case("select", "select", [[sx < 3, sx > 6], [sx, sx ** 2], 42], np.select([sx < 3, sx > 6], [sx, sx ** 2], 42))
ch = rng.integers(0, 3, 8)
chs = [rng.integers(-9, 9, 8) for _ in range(3)]
case("choose", "choose", [ch + 1, chs], np.choose(ch, chs))
case("choose_wrap", "choose", [A([0, 4, -1, 2]), [A([1, 2, 3, 4]), A([10, 20, 30, 40])], "wrap"],
     np.choose(A([-1, 3, -2, 1]), [A([1, 2, 3, 4]), A([10, 20, 30, 40])], mode="wrap"))
case("extract", "extract", [(qx > 0), qx], np.extract(qx > 0, qx))
case("delete", "delete", [m, A([1, 3]), 2], np.delete(m, [0, 2], axis=1))
case("delete_flat", "delete", [m, A([-1, 5])], np.delete(m, [-1, 4]))
case("delete_bool", "delete", [A([1, 2, 3]), A([True, False, True])], np.delete([1, 2, 3], [True, False, True]))
case("insert", "insert", [m, 2, 99, 1], np.insert(m, 1, 99, axis=0))
case("insert_end", "insert", [m, 5, A([7, 8, 9]), 2], np.insert(m, 4, [7, 8, 9], axis=1))
case("insert_flat", "insert", [A([1, 2, 3]), -1, A([5, 6])], np.insert([1, 2, 3], -1, [5, 6]))
case("resize", "resize", [A([[1, 2], [3, 4]]), [3, 3]], np.resize([[1, 2], [3, 4]], (3, 3)))
case("trim_zeros", "trim_zeros", [A([0, 0, 3, 0, 4, 0]), "b"], np.trim_zeros(A([0, 0, 3, 0, 4, 0]), "b"))
gf = rng.standard_normal((4, 5))
case("gradient_1d", "gradient", [gf[0]], np.gradient(gf[0]))
case("gradient_2d", "gradient", [gf], list(np.gradient(gf)))
case("gradient_axis_dx_edge2", "gradient", [gf, 0.5, 2, 2], np.gradient(gf, 0.5, axis=1, edge_order=2))

# padding
pa = rng.integers(-9, 9, (3, 4))
pf = rng.standard_normal((2, 5))
case("pad_constant", "pad", [pa, [[1, 2], [0, 3]], "constant", {"constant_values": [[-1, -2], [7, 8]]}],
     np.pad(pa, ((1, 2), (0, 3)), constant_values=((-1, -2), (7, 8))))
for mode in ["edge", "reflect", "symmetric", "wrap", "maximum", "minimum", "mean", "median"]:
    case("pad_" + mode, "pad", [pa, [[2, 5], [6, 1]], mode], np.pad(pa, ((2, 5), (6, 1)), mode))
    case("pad_f_" + mode, "pad", [pf, 3, mode], np.pad(pf, 3, mode))
case("pad_odd_reflect", "pad", [pf, [[1, 3], [7, 2]], "reflect", {"reflect_type": "odd"}],
     np.pad(pf, ((1, 3), (7, 2)), "reflect", reflect_type="odd"))
case("pad_odd_symmetric", "pad", [pf, 4, "symmetric", {"reflect_type": "odd"}],
     np.pad(pf, 4, "symmetric", reflect_type="odd"))
case("pad_linear_ramp", "pad", [pf, [2, 3], "linear_ramp", {"end_values": [[1.5, -2.0], [0.0, 4.0]]}],
     np.pad(pf, (2, 3), "linear_ramp", end_values=((1.5, -2.0), (0.0, 4.0))))
case("pad_linear_ramp_int", "pad", [pa, 2, "linear_ramp", {"end_values": 5}], np.pad(pa, 2, "linear_ramp", end_values=5))
case("pad_stat_length", "pad", [pf, [[2, 2], [3, 1]], "mean", {"stat_length": [[1, 2], [3, 2]]}],
     np.pad(pf, ((2, 2), (3, 1)), "mean", stat_length=((1, 2), (3, 2))))

# multidimensional histograms
hd = rng.standard_normal((50, 3))
hdh, hde = np.histogramdd(hd, (3, 4, 2))
case("histogramdd", "histogramdd", [hd, [3, 4, 2]], [hdh, list(hde)])
hw50 = rng.random(50)
hdh, hde = np.histogramdd(hd, 3, [(-1, 1), (-2, 2), (0, 3)], density=True, weights=hw50)
case("histogramdd_range_density_w", "histogramdd", [hd, 3, [[-1, 1], [-2, 2], [0, 3]], True, hw50],
     [hdh, list(hde)])
hx, hy = rng.standard_normal(40), rng.standard_normal(40)
h2, xe2, ye2 = np.histogram2d(hx, hy, [A([-3.0, -1.0, 0.0, 2.0]), 5])
case("histogram2d", "histogram2d", [hx, hy, [A([-3.0, -1.0, 0.0, 2.0]), 5]], [h2, xe2, ye2])



REF.write("spec/data/numeric_ref.lua",
          "-- Generated by tools/gen_numeric_ref.py with NumPy %s: NumPy's answers for\n"
          "-- spec/numeric_spec.lua (positions already 1-based).  Do not edit.\n" % np.__version__)
