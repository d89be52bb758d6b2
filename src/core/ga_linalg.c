/* The dense-solver pipeline: every array a routine touches is checked
 * (device, dtype, C-contiguity, exact size) before the backend sees a
 * pointer, so that a mistake above can never make LAPACK or cuSOLVER write
 * out of bounds; then one ga_la_call through the backend's `lapack` slot,
 * and, when asked, the info flags read back. */
#include "core/ga_linalg.h"
#include "core/ga_backend.h"
#include "base/ga_checked.h"
#include "base/ga_dtype.h"
#include "base/ga_error.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>

static int real_of(int dt) { return dt == GA_COMPLEX64 ? GA_FLOAT32 : dt == GA_COMPLEX128 ? GA_FLOAT64 : dt; }
static int complex_of(int dt) { return dt == GA_FLOAT32 ? GA_COMPLEX64 : dt == GA_FLOAT64 ? GA_COMPLEX128 : dt; }

static int need(const ga_array *x, const char *what, int dev, int dtype, int64_t size) {
  if (!x) return ga_err(GA_EINTERNAL, "solver call without its %s array", what);
  if (!x->buf) return ga_err(GA_EFREED, "the %s array has been freed", what);
  if (GA_DEVICE(x) != dev) return ga_err(GA_EDEVICE, "the %s array is on another device", what);
  if (x->dtype != dtype)
    return ga_err(GA_EINTERNAL, "solver %s array of dtype %s, %s expected", what, ga_dtypes[x->dtype].name,
                  ga_dtypes[dtype].name);
  if (x->size != size)
    return ga_err(GA_EINTERNAL, "solver %s array of %lld elements, %lld expected", what, (long long)x->size,
                  (long long)size);
  if (!ga_is_c_contiguous(x)) return ga_err(GA_EINTERNAL, "solver %s array is not C-contiguous", what);
  return GA_OK;
}

int ga_linalg_start(int op, ga_array *a, ga_array *b, ga_array *u, ga_array *vt, ga_array *ipiv, ga_array *info,
                    int64_t k, int flag, int uplo, void *stream, int *pending) {
  *pending = 0;
  if (!a || !a->buf) return ga_err(GA_EFREED, "the matrix array has been freed");
  if (a->ndim < 2) return ga_err(GA_EINTERNAL, "solver matrix array of %d dimensions", a->ndim);
  int dt = a->dtype, dev = GA_DEVICE(a), rc;
  if (dt != GA_FLOAT32 && dt != GA_FLOAT64 && dt != GA_COMPLEX64 && dt != GA_COMPLEX128)
    return ga_err(GA_ETYPE, "array type %s is unsupported in linalg", ga_dtypes[dt].name);
  if (op < 0 || op >= GA_LA_NOPS) return ga_err(GA_EINVAL, "unknown solver routine %d", op);
  int64_t m = a->shape[a->ndim - 1], n = a->shape[a->ndim - 2], batch = 1;
  for (int d = 0; d < a->ndim - 2; d++) batch *= a->shape[d];   /* <= a->size unless a dim is 0 */
  for (int d = 0; d < a->ndim - 2; d++) if (a->shape[d] == 0) batch = 0;
  if (m > INT_MAX || n > INT_MAX || k > INT_MAX || k < 0)
    return ga_err(GA_EINVAL, "matrix dimensions exceed the solvers' 32-bit limit");
  int64_t mn = m * n;   /* <= a->size: no overflow */
  if ((rc = need(a, "matrix", dev, dt, batch * mn))) return rc;
  int rdt = real_of(dt), cdt = complex_of(dt);
  int64_t bsz = 0, usz = 0, vsz = 0;    /* elements of b, u, vt per matrix; ipiv: n */
  int square = op == GA_LA_GETRF || op == GA_LA_GETRS || op == GA_LA_POTRF || op == GA_LA_SYEVD || op == GA_LA_GEEV;
  if (square && m != n) return ga_err(GA_EINVAL, "Last 2 dimensions of the array must be square");
  int bdt = dt, udt = dt;
  int64_t nk;
  switch (op) {
  case GA_LA_GETRS:
    if (!ga_mul_i64(n, k, &nk)) return ga_err(GA_EINVAL, "array is too big");
    bsz = nk;
    break;
  case GA_LA_GEQRF: bsz = m < n ? m : n; break;
  case GA_LA_ORGQR:
    if (!(k <= n && n <= m)) return ga_err(GA_EINTERNAL, "orgqr needs k <= n <= m");
    bsz = k;
    break;
  case GA_LA_SYEVD: bsz = n, bdt = rdt; break;
  case GA_LA_GESVD: case GA_LA_GESVDJ:
    if (m < n) return ga_err(GA_EINTERNAL, "gesvd needs m >= n");
    /* batched Jacobi: cuSOLVER's up to 32, the GPU's own kernel up to 64 (square) */
    if (op == GA_LA_GESVDJ && (m > 64 || flag == 0)) return ga_err(GA_EINTERNAL, "gesvdj needs m <= 64 and vectors");
    bsz = n, bdt = rdt;
    if (flag) usz = m * (flag == 2 ? m : n), vsz = n * n;
    break;
  case GA_LA_GEEV:
    bsz = n, bdt = cdt, udt = cdt;
    if (flag) usz = n * n;
    break;
  default: break;
  }
  int64_t tb, tu, tv;
  if (!ga_mul_i64(batch, bsz, &tb) || !ga_mul_i64(batch, usz, &tu) || !ga_mul_i64(batch, vsz, &tv))
    return ga_err(GA_EINVAL, "array is too big");
  if (bsz && (rc = need(b, "second", dev, bdt, tb))) return rc;
  if (usz && (rc = need(u, "u", dev, udt, tu))) return rc;
  if (vsz && (rc = need(vt, "vt", dev, dt, tv))) return rc;
  if ((op == GA_LA_GETRF || op == GA_LA_GETRS) && (rc = need(ipiv, "pivot", dev, GA_INT32, batch * n))) return rc;
  if ((rc = need(info, "info", dev, GA_INT32, batch))) return rc;
  if (batch == 0) return GA_OK;
  const ga_backend *be = ga_backend_of(dev);
  if (!be->lapack) return ga_err(GA_EDEVICE, "the %s backend has no dense solvers", be->name);
  ga_la_call c;
  memset(&c, 0, sizeof c);
  c.op = op, c.dtype = dt, c.device = dev, c.stream = stream;
  c.batch = batch, c.m = m, c.n = n, c.k = k, c.flag = flag, c.uplo = uplo;
  c.a = GA_DATA(a);
  c.b = bsz ? GA_DATA(b) : NULL;
  c.u = usz ? GA_DATA(u) : NULL;
  c.vt = vsz ? GA_DATA(vt) : NULL;
  c.ipiv = (op == GA_LA_GETRF || op == GA_LA_GETRS) ? (int32_t *)GA_DATA(ipiv) : NULL;
  c.info = (int32_t *)GA_DATA(info);
  int flagless = 0;
  c.flagless = &flagless;
  if (m == 0 || n == 0) return GA_OK;   /* empty matrices: the Lua side builds their results */
  if ((rc = be->lapack(&c))) {
    if (rc != GA_LA_UNAVAILABLE) return rc;
    *pending = GA_LA_UNAVAILABLE;   /* nothing written: the caller falls back */
    return GA_OK;
  }
  *pending = !flagless;
  return GA_OK;
}

int ga_linalg_finish(int op, ga_array *info, void *stream, int *bad) {
  *bad = 0;
  int dev = info ? GA_DEVICE(info) : GA_CPU, rc = need(info, "info", dev, GA_INT32, info ? info->size : 0);
  if (rc) return rc;
  int64_t batch = info->size;
  if (batch == 0) return GA_OK;
  int32_t *h = NULL, *hinfo = (int32_t *)GA_DATA(info);
  if (dev != GA_CPU) {
    if ((uint64_t)batch > SIZE_MAX / sizeof(int32_t) || !(h = malloc((size_t)batch * sizeof(int32_t))))
      return ga_err(GA_ENOMEM, "out of host memory reading solver flags");
    if ((rc = ga_memcpy(GA_CPU, h, dev, hinfo, (size_t)batch * sizeof(int32_t), stream, 1))) {
      free(h);
      return rc;
    }
    hinfo = h;
  }
  for (int64_t i = 0; i < batch; i++) {
    if (hinfo[i] < 0) {
      rc = ga_err(GA_EINTERNAL, "solver routine %d rejected its argument %d", op, -hinfo[i]);
      break;
    }
    if (hinfo[i] > 0) {
      *bad = hinfo[i];
      break;
    }
  }
  free(h);
  return rc;
}

int ga_linalg_run(int op, ga_array *a, ga_array *b, ga_array *u, ga_array *vt, ga_array *ipiv, ga_array *info,
                  int64_t k, int flag, int uplo, int check, void *stream, int *bad) {
  int pending, rc = ga_linalg_start(op, a, b, u, vt, ipiv, info, k, flag, uplo, stream, &pending);
  *bad = 0;
  if (!rc && pending == GA_LA_UNAVAILABLE) *bad = GA_LA_UNAVAILABLE;
  if (rc || !check || pending != 1) return rc;
  return ga_linalg_finish(op, info, stream, bad);
}
