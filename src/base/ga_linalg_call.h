/* The dense-solver call (the backend slot `lapack`): one LAPACK-style
 * routine over a batch of column-major matrices stored back to back.  The
 * core (core/ga_linalg.c) hands the backend C-contiguous buffers it owns
 * (fresh copies), so a backend never sees strides: matrix i of `a` starts
 * at a + i * m * n * itemsize, its leading dimension is m.  A row-major
 * (rows, cols) matrix of the Lua side is the column-major (cols, rows)
 * matrix seen here: the Lua layer (lua/gpuarray/linalg.lua) chooses the
 * transposes.  Host: LAPACK through OpenBLAS (host/ga_host_lapack.c);
 * CUDA: cuSOLVER through dlopen and cuBLAS's batched LU
 * (cuda/ga_cuda_solver.c). */
#ifndef GA_LINALG_CALL_H
#define GA_LINALG_CALL_H
#include <stdint.h>

enum {
  GA_LA_GETRF,   /* a (m=n, n) -> LU in place, ipiv[n], info */
  GA_LA_GETRS,   /* a = LU of GETRF, ipiv; b (n, k) -> op(A)^-1 b; flag: 0 N, 1 T, 2 C */
  GA_LA_POTRF,   /* a (n, n): the upper triangle -> U with A = U^H U (the other left as is) */
  GA_LA_GEQRF,   /* a (m, n) -> R and reflectors in place, tau[min(m, n)] */
  GA_LA_ORGQR,   /* a (m, n) holding k reflectors (k = c->k), tau[k] -> Q's n columns */
  GA_LA_SYEVD,   /* a (n, n) Hermitian, w[n] (real) ascending; flag 1: vectors in a; uplo */
  GA_LA_GESVD,   /* a (m, n), m >= n -> s[n] (real), u (m, m|n), vt (n, n); flag 0 N, 1 S, 2 A */
  GA_LA_GESVDJ,  /* as GESVD (flag 1 or 2 alike: m, n <= 32) but v (n, n), not vt; CUDA only */
  GA_LA_GEEV,    /* a (n, n) general -> w[n] complex, vr (n, n) complex when flag (right vectors, unit 2-norm) */
  GA_LA_NOPS
};

/* What a backend's `lapack` returns, instead of a status, for a routine it
 * cannot run on this machine (CUDA: GEEV where cuSOLVER lacks Xgeev, older
 * than CUDA 12.6 Update 2, or GPUARRAY_GEEV=0), having written nothing:
 * core/ga_linalg.c reports it as *bad = GA_LA_UNAVAILABLE and the Lua side
 * runs the routine on a host copy. */
#define GA_LA_UNAVAILABLE (-1)

typedef struct ga_la_call {
  int op;
  int dtype;          /* float32, float64, complex64, complex128: of a */
  int device;
  void *stream;
  int64_t batch;      /* matrices; >= 1 */
  int64_t m, n;       /* column-major rows and columns of a */
  int64_t k;          /* GETRS: right-hand sides; ORGQR: reflectors */
  int flag, uplo;     /* see the ops; uplo: 0 lower, 1 upper (column-major) */
  void *a;            /* batch * m * n elements */
  void *b;            /* GETRS: rhs (n, k); GEQRF/ORGQR: tau; SYEVD/GESVD: w/s (real dtype); GEEV: w */
  void *u;            /* GESVD: u; GEEV: vr */
  void *vt;           /* GESVD: vt (GESVDJ: v) */
  int32_t *ipiv;      /* GETRF/GETRS: batch * n, 1-based as LAPACK */
  int32_t *info;      /* batch; 0 = success, > 0 = LAPACK's failure (singular ...) */
  int *flagless;      /* not NULL: the backend sets *flagless = 1 when the route it took can report
                         no failure (info all 0 by construction), so no check need read info back */
} ga_la_call;

#endif
