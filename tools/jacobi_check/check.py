"""Runs kernels/ga_jacobi.cuh on the host (g++, one std::thread per lane of
the warp, barriers for __syncwarp and the shuffles: harness.cpp) and checks
its SVD and eigh results against NumPy, for every dtype and several sizes.
No GPU needed:  cd tools/jacobi_check && python3 check.py"""
import os
import numpy as np, subprocess, sys
HERE = os.path.dirname(os.path.abspath(__file__))
KERNEL = os.path.join(HERE, "..", "..", "kernels", "ga_jacobi.cuh")
os.chdir(HERE)
rng = np.random.default_rng(1)
def run(dt, n, mode, upper, batch=3, special=None):
    cplx = np.dtype(dt).kind == 'c'
    real = {'float32':'float','float64':'double','complex64':'float','complex128':'double'}[dt]
    eps = (1.1920928955078125e-07 if real == 'float' else 2.220446049250313e-16) * n
    hdr = f"#define GA_JN {n}\n#define GA_JNP {n + (n&1)}\n#define GA_JCPLX {int(cplx)}\n#define GA_JREAL_T {real}\n#define GA_JEPS {eps!r}\n#define GA_JMODE {mode}\n#define GA_JUPPER {upper}\n#define GA_JWPB 1\n#define GA_JMAXSWEEP {20 if real=='float' else 30}\n#define GA_JVGLOBAL {int(n > 32)}\n"
    open('kern.cuh','w').write(hdr + open(KERNEL).read())
    subprocess.check_call(['g++','-std=c++20','-O1','-w','-o','h','harness.cpp','-pthread'])
    A = rng.standard_normal((batch, n, n))
    if cplx: A = A + 1j * rng.standard_normal((batch, n, n))
    if special == 'rankdef':
        A[:, :, 0] = A[:, :, 1]; A[0] = 0 * A[0]; A[1] = np.ones((n, n))
    A = A.astype(dt)
    # column-major storage: element (i,j) at j*n+i -> store A^T row-major
    At = np.ascontiguousarray(np.swapaxes(A, -1, -2))
    At.tofile('in.bin')
    subprocess.check_call(['./h', str(batch)])
    rdt = np.float32 if real == 'float' else np.float64
    raw = np.fromfile('out.bin', dtype=rdt)
    per = n * n * (2 if cplx else 1)
    def mat(off):
        x = raw[off:off + per * batch]
        if cplx: x = x[0::2] + 1j * x[1::2]
        return np.swapaxes(x.reshape(batch, n, n), -1, -2), off + per * batch
    aout, off = mat(0)
    s = raw[off:off + n * batch].reshape(batch, n); off += n * batch
    U, off = mat(off); V, off = mat(off)
    tol = 1e-4 if real == 'float' else 1e-11
    if mode == 0:
        rec = (U * s[:, None, :]) @ np.conj(np.swapaxes(V, -1, -2))
        e1 = np.abs(rec - A).max() / max(1, np.abs(A).max())
        e2 = np.abs(np.conj(np.swapaxes(U, -1, -2)) @ U - np.eye(n)).max()
        e3 = np.abs(np.conj(np.swapaxes(V, -1, -2)) @ V - np.eye(n)).max()
        e4 = np.abs(s - np.linalg.svd(A.astype(complex), compute_uv=False)).max() / max(1, np.abs(s).max())
        ok = max(e1, e2, e3, e4) < tol
        print(dt, n, 'svd', special, 'rec %.1e UhU %.1e VhV %.1e s %.1e' % (e1, e2, e3, e4), 'OK' if ok else 'BAD')
    else:
        # NumPy's Hermitian from the chosen triangle of the row-major view: column-major upper = row-major lower
        H = A.astype(complex if cplx else np.float64)
        # A is the logical (column-major) matrix: GA_JUPPER reads i <= j
        L = np.triu(H) if upper else np.tril(H)
        Hs = L + np.conj(np.swapaxes(L, -1, -2)) - np.einsum('bii->bi', L)[:, :, None] * np.eye(n)
        Hs = Hs.copy()
        for b in range(batch): np.fill_diagonal(Hs[b], np.real(np.diag(Hs[b])))
        w = s; Vv = aout
        e1 = np.abs(Hs @ Vv - Vv * w[:, None, :]).max() / max(1, np.abs(Hs).max())
        e2 = np.abs(np.conj(np.swapaxes(Vv, -1, -2)) @ Vv - np.eye(n)).max()
        e3 = np.abs(w - np.linalg.eigvalsh(Hs)).max() / max(1, np.abs(w).max())
        ok = max(e1, e2, e3) < tol * 10
        print(dt, n, 'eigh upper' if upper else 'eigh lower', 'AV-Vw %.1e VhV %.1e w %.1e' % (e1, e2, e3), 'OK' if ok else 'BAD')
for dt in ['float32', 'float64', 'complex64', 'complex128']:
    for n in [1, 2, 3, 8, 16]:
        run(dt, n, 0, 0)
    run(dt, 5, 0, 0, special='rankdef')
    for n in [1, 3, 8, 16]:
        run(dt, n, 1, 1); run(dt, n, 1, 0)
run('float32', 32, 0, 0, batch=2); run('complex64', 32, 1, 1, batch=2)
for dt, n in [('float32', 64), ('float64', 40), ('complex64', 64), ('complex128', 48), ('float64', 33)]:
    run(dt, n, 0, 0, batch=2); run(dt, n, 1, 1, batch=2); run(dt, n, 1, 0, batch=2)
run('complex64', 37, 0, 0, batch=2, special='rankdef')
for f in ('h', 'kern.cuh', 'in.bin', 'out.bin'):
    if os.path.exists(f): os.remove(f)
