#!/usr/bin/env python3
"""Writes spec/data/linalg_ref.lua: NumPy 2's answers for ga.linalg (and
ga.polyfit / ga.roots), for spec/linalg_spec.lua (CI has no NumPy; the spec
reads the committed file).

    python3 tools/gen_linalg_ref.py

Only results a decomposition fixes are recorded (solutions, inverses,
determinants, Cholesky factors, eigen- and singular values, |R|, ranks,
norms): vectors with a free sign or phase are checked by identities in the
spec.  A case is {id=, fn=, args={arg...}, want=result}; an arg or a result
is an array {dtype=, shape=, re={...}, im={...}} (values flat in C order),
a number, a string, nil ({nil=true}) or {list={...}} (several results)."""
import numpy as np

from refdata import Cases

rng = np.random.default_rng(14)
REF = Cases()
case = REF.case


def rand(shape, dt):
    x = rng.standard_normal(shape)
    if np.dtype(dt).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dt)


def spd(n, dt, batch=()):
    a = rand(batch + (n, n), dt)
    return (a @ np.conj(np.swapaxes(a, -1, -2)) + n * np.eye(n)).astype(dt)


DT = ["float32", "float64", "complex64", "complex128"]
for dt in DT:
    a = rand((3, 3), dt) + 3 * np.eye(3, dtype=dt)
    b = rand((3,), dt)
    case(f"solve vec {dt}", "linalg.solve", [a, b], np.linalg.solve(a, b))
    a = rand((2, 4, 4), dt) + 4 * np.eye(4, dtype=dt)
    b = rand((2, 4, 2), dt)
    case(f"solve batch {dt}", "linalg.solve", [a, b], np.linalg.solve(a, b))
    a = rand((2, 3, 3), dt) + 3 * np.eye(3, dtype=dt)
    case(f"inv {dt}", "linalg.inv", [a], np.linalg.inv(a))
    case(f"det {dt}", "linalg.det", [a], np.linalg.det(a))
    case(f"slogdet {dt}", "linalg.slogdet", [a], list(np.linalg.slogdet(a)))
    s = spd(4, dt, (2,))
    case(f"cholesky {dt}", "linalg.cholesky", [s], np.linalg.cholesky(s))
    case(f"eigvalsh {dt}", "linalg.eigvalsh", [s], np.linalg.eigvalsh(s))
    case(f"eigvalsh U {dt}", "linalg.eigvalsh", [s, "U"], np.linalg.eigvalsh(s, "U"))
    for shape in [(4, 3), (3, 5), (2, 3, 4)]:
        x = rand(shape, dt)
        case(f"svdvals {shape} {dt}", "linalg.svdvals", [x], np.linalg.svd(x, compute_uv=False))
        case(f"qr r {shape} {dt}", "abs_qr_r", [x], np.abs(np.linalg.qr(x, mode="r")))
        case(f"pinv {shape} {dt}", "linalg.pinv", [x], np.linalg.pinv(x))
    x = rand((6, 3), dt)
    y = rand((6,), dt)
    case(f"lstsq vec {dt}", "linalg.lstsq", [x, y], list(np.linalg.lstsq(x, y)))
    y = rand((6, 2), dt)
    case(f"lstsq 2 {dt}", "linalg.lstsq", [x, y], list(np.linalg.lstsq(x, y)))
    case(f"lstsq wide {dt}", "linalg.lstsq", [x.T.copy(), y[:3]], list(np.linalg.lstsq(x.T, y[:3])))
    g = rand((3, 3), dt)
    case(f"eigvals {dt}", "sorted_eigvals", [g], np.sort_complex(np.linalg.eigvals(g).astype(complex)))

ints = np.array([[2, 1], [1, 3]])
case("inv int64", "linalg.inv", [ints], np.linalg.inv(ints))
case("det int64", "linalg.det", [ints], np.linalg.det(ints))
case("solve int64", "linalg.solve", [ints, np.array([1, 2])], np.linalg.solve(ints, np.array([1, 2])))
sing = np.array([[1.0, 2.0], [2.0, 4.0]])
case("det singular", "linalg.det", [sing], np.linalg.det(sing))
case("slogdet singular", "linalg.slogdet", [sing], list(np.linalg.slogdet(sing)))
neg = np.array([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 2.0]])
case("slogdet negative", "linalg.slogdet", [neg], list(np.linalg.slogdet(neg)))
r = rng.standard_normal((4, 2)) @ rng.standard_normal((2, 4))
case("matrix_rank deficient", "linalg.matrix_rank", [r], np.linalg.matrix_rank(r))
case("matrix_rank batch", "linalg.matrix_rank", [np.stack([r, np.eye(4)])], np.linalg.matrix_rank(np.stack([r, np.eye(4)])))
c = rng.standard_normal((3, 3))
for p in [None, 1, -1, 2, -2, "fro", np.inf]:
    case(f"cond {p}", "linalg.cond", [c, p], np.linalg.cond(c, p))
m = rng.standard_normal((3, 4))
for o in [2, -2, "nuc"]:
    case(f"norm {o}", "linalg.norm", [m, o], np.linalg.norm(m, o))
mb = rng.standard_normal((2, 3, 4))
case("norm 2 axes", "linalg.norm", [mb, 2, [2, 3]], np.linalg.norm(mb, 2, (1, 2)))
ta = rng.standard_normal((6, 2, 3))
tb = rng.standard_normal((6,))
case("tensorsolve", "linalg.tensorsolve", [ta, tb], np.linalg.tensorsolve(ta, tb))
ti = rng.standard_normal((4, 6, 8, 3))
case("tensorinv", "linalg.tensorinv", [ti, 2], np.linalg.tensorinv(ti, 2))
xs = np.linspace(0, 1, 12)
ys = 1 - 2 * xs + 3 * xs ** 3 + 0.01 * rng.standard_normal(12)
case("polyfit 3", "polyfit", [xs, ys, 3], np.polyfit(xs, ys, 3))
case("polyfit 1 2-d y", "polyfit", [xs, np.stack([ys, 2 * ys], 1), 1], np.polyfit(xs, np.stack([ys, 2 * ys], 1), 1))
case("roots cubic", "sorted_roots", [np.array([1.0, -6.0, 11.0, -6.0])],
     np.sort_complex(np.roots([1.0, -6.0, 11.0, -6.0]).astype(complex)))
case("roots zeros", "sorted_roots", [np.array([0.0, 1.0, 0.0, 1.0, 0.0])],
     np.sort_complex(np.roots([0.0, 1.0, 0.0, 1.0, 0.0]).astype(complex)))

# eig of stacks (appended last, so that the rows above keep their inputs):
# eigenvalues sorted per matrix; the vectors are checked by identities
for dt in DT:
    g = rand((2, 3, 5, 5), dt)
    case(f"eigvals stack {dt}", "sorted_eigvals_stack", [g], np.sort_complex(np.linalg.eigvals(g).astype(complex)))
    w, _ = np.linalg.eig(g[0])
    case(f"eig stack w {dt}", "sorted_eig_w_stack", [g[0]], np.sort_complex(w.astype(complex)))
jordan = np.array([[2.0, 1.0, 0.0], [0.0, 2.0, 1.0], [0.0, 0.0, 2.0]])
case("eigvals defective", "sorted_eigvals_stack", [jordan], np.sort_complex(np.linalg.eigvals(jordan).astype(complex)))
rot = np.array([[0.0, -2.0], [2.0, 0.0]], dtype=np.float32)
case("eigvals rotation float32", "sorted_eigvals_stack", [rot], np.sort_complex(np.linalg.eigvals(rot).astype(complex)))


REF.write("spec/data/linalg_ref.lua",
          "-- generated by tools/gen_linalg_ref.py (NumPy %s): do not edit\n" % np.__version__,
          numpy=False, sort_keys=False, eq="=")
