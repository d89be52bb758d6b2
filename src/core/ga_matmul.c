/* Matrix products: NumPy's matmul rules over the backends' batched GEMM
 * slot.  1-D operands become a (1, k) row or a (k, 1) column; the batch
 * dimensions broadcast with zero strides (a broadcast operand is never
 * copied); they are collapsed together over a, b and out, the innermost
 * one becomes the backend's batch (one strided-batched GEMM) and the
 * others are walked here. */
#include "core/ga_matmul.h"
#include "core/ga_backend.h"
#include "base/ga_error.h"
#include "base/ga_shape.h"
#include <stdio.h>
#include <string.h>

#define SIG "(n?,k),(k,m?)->(n?,m?)"

static void shape_text(int nd, const int64_t *shape, char *buf, size_t n) {
  size_t o = 0;
  o += (size_t)snprintf(buf + o, n - o, "(");
  for (int d = 0; d < nd && o < n; d++)
    o += (size_t)snprintf(buf + o, n - o, d ? ",%lld" : "%lld", (long long)shape[d]);
  if (o < n) snprintf(buf + o, n - o, ")");
}

/* NumPy's "remapped shapes" text: the batch part kept, the core part newaxis. */
static void remap_text(const ga_array *x, int core, char *buf, size_t n) {
  char s[256];
  shape_text(x->ndim, x->shape, s, sizeof s);
  size_t o = (size_t)snprintf(buf, n, "%s->(", s);
  int nb = x->ndim - core;
  for (int d = 0; d < nb && o < n; d++) o += (size_t)snprintf(buf + o, n - o, "%lld,", (long long)x->shape[d]);
  for (int d = 0; d < core && o < n; d++) o += (size_t)snprintf(buf + o, n - o, d < core - 1 ? "newaxis," : "newaxis");
  if (o < n) snprintf(buf + o, n - o, ")");
}

int ga_matmul_shape(const ga_array *a, const ga_array *b, int *ndim, int64_t *shape) {
  if (a->ndim < 1 || b->ndim < 1) {
    int which = a->ndim < 1 ? 0 : 1;
    return ga_err(GA_EINVAL, "Input operand %d does not have enough dimensions (has 0, gufunc core with signature "
                  SIG " requires 1)", which);
  }
  int ca = a->ndim >= 2 ? 2 : 1, cb = b->ndim >= 2 ? 2 : 1;
  int64_t ka = a->shape[a->ndim - 1], kb = b->shape[b->ndim - cb];
  if (ka != kb)
    return ga_err(GA_EINVAL, "Input operand 1 has a mismatch in its core dimension 0, with gufunc signature " SIG
                  " (size %lld is different from %lld)", (long long)kb, (long long)ka);
  int na = a->ndim - ca, nb = b->ndim - cb, nd = na > nb ? na : nb;
  for (int i = 0; i < nd; i++) {
    int ia = na - nd + i, ib = nb - nd + i;
    int64_t sa = ia >= 0 ? a->shape[ia] : 1, sb = ib >= 0 ? b->shape[ib] : 1;
    if (sa != sb && sa != 1 && sb != 1) {
      char ra[320], rb[320], rq[64];
      int64_t req[2];
      int nr = 0;
      if (ca == 2) req[nr++] = a->shape[a->ndim - 2];
      if (cb == 2) req[nr++] = b->shape[b->ndim - 1];
      remap_text(a, ca, ra, sizeof ra);
      remap_text(b, cb, rb, sizeof rb);
      shape_text(nr, req, rq, sizeof rq);
      return ga_err(GA_EINVAL, "operands could not be broadcast together with remapped shapes [original->remapped]: "
                    "%s %s  and requested shape %s", ra, rb, rq);
    }
    shape[i] = sa == 1 ? sb : sa;
  }
  int o = nd;
  if (ca == 2) shape[o++] = a->shape[a->ndim - 2];
  if (cb == 2) shape[o++] = b->shape[b->ndim - 1];
  if (o > GA_MAXDIM) return ga_err(GA_EINVAL, "the product has more than %d dimensions", GA_MAXDIM);
  *ndim = o;
  return GA_OK;
}

static bool aligned(const ga_array *x) {
  int64_t isz = GA_ITEMSIZE(x->dtype);
  if ((uintptr_t)GA_DATA(x) % (uintptr_t)isz) return false;
  for (int d = 0; d < x->ndim; d++)
    if (x->shape[d] > 1 && x->strides[d] % isz) return false;
  return true;
}

static bool blas_dtype(int dt) { return GA_IS_FLOAT(dt) || GA_IS_COMPLEX(dt); }

bool ga_matmul_operand_ok(const ga_array *x, int dt) {
  if (x->dtype != dt || !aligned(x)) return false;
  if (!blas_dtype(dt)) return true;    /* our own kernels take any strides */
  int nd = x->ndim, trans;
  int64_t ld, isz = GA_ITEMSIZE(dt);
  if (nd == 1) return ga_matmul_layout(1, x->shape[0], 0, x->strides[0], isz, &trans, &ld);
  return ga_matmul_layout(x->shape[nd - 2], x->shape[nd - 1], x->strides[nd - 2], x->strides[nd - 1], isz, &trans, &ld);
}

/* Byte range [lo, hi) that x's elements touch. */
static void extent(const ga_array *x, uintptr_t *lo, uintptr_t *hi) {
  int64_t a = 0, b = 0;
  for (int d = 0; d < x->ndim; d++) {
    int64_t e = (x->shape[d] - 1) * x->strides[d];
    if (e < 0) a += e; else b += e;
  }
  *lo = (uintptr_t)(GA_DATA(x) + a);
  *hi = (uintptr_t)(GA_DATA(x) + b + GA_ITEMSIZE(x->dtype));
}

static bool overlap(const ga_array *x, const ga_array *y) {
  if (x->buf != y->buf) return false;
  uintptr_t xl, xh, yl, yh;
  extent(x, &xl, &xh);
  extent(y, &yl, &yh);
  return xl < yh && yl < xh;
}

bool ga_matmul_out_ok(const ga_array *out, const ga_array *a, const ga_array *b) {
  if (!aligned(out) || overlap(out, a) || overlap(out, b)) return false;
  int nd = out->ndim;
  int64_t isz = GA_ITEMSIZE(out->dtype);
  for (int d = 0; d < nd; d++)
    if (out->shape[d] > 1 && out->strides[d] <= 0) return false;
  /* the last axis is n (or m when b is 1-D): unit stride; the one before
   * (when it is m) at least the row's length: checked in ga_matmul_run's
   * terms by the same rule as for operands, rows not transposed */
  if (nd >= 1 && out->shape[nd - 1] > 1 && out->strides[nd - 1] != isz) return false;
  if (nd >= 2 && out->shape[nd - 2] > 1 && out->strides[nd - 2] < out->shape[nd - 1] * isz) return false;
  return true;
}

int ga_matmul_run(const ga_array *a, const ga_array *b, ga_array *out, void *stream) {
  if (ga_check_writable(out)) return ga_errcode();
  const ga_backend *be = ga_backend_of(GA_DEVICE(out));
  if (!be->matmul) return ga_err(GA_EINVAL, "the %s backend has no matrix product", be->name);
  int ca = a->ndim >= 2 ? 2 : 1, cb = b->ndim >= 2 ? 2 : 1;
  /* matrices: a (m, k) at (ars, acs), b (k, n) at (brs, bcs), out (m, n) */
  int64_t m = ca == 2 ? a->shape[a->ndim - 2] : 1, k = a->shape[a->ndim - 1];
  int64_t n = cb == 2 ? b->shape[b->ndim - 1] : 1;
  int64_t ars = ca == 2 ? a->strides[a->ndim - 2] : 0, acs = a->strides[a->ndim - 1];
  int64_t brs = b->strides[b->ndim - cb], bcs = cb == 2 ? b->strides[b->ndim - 1] : 0;
  int oc = (ca == 2) + (cb == 2);
  int64_t isz = GA_ITEMSIZE(out->dtype);
  int64_t ors, ocs;
  if (ca == 2 && cb == 2) ors = out->strides[out->ndim - 2], ocs = out->strides[out->ndim - 1];
  else if (ca == 2) ors = out->strides[out->ndim - 1], ocs = isz;     /* (m,) */
  else if (cb == 2) ors = n * isz, ocs = out->strides[out->ndim - 1]; /* (n,) */
  else ors = isz, ocs = isz;
  if (m > INT32_MAX || n > INT32_MAX || k > INT32_MAX)
    return ga_err(GA_EINVAL, "a matrix dimension over %d is too large", INT32_MAX);
  /* the batch: out's leading axes, a's and b's broadcast to them */
  int nb = out->ndim - oc;
  int64_t shape[GA_MAXDIM], sa[GA_MAXDIM], sb[GA_MAXDIM], so[GA_MAXDIM];
  int na = a->ndim - ca, nbb = b->ndim - cb;
  for (int i = 0; i < nb; i++) {
    int ia = na - nb + i, ib = nbb - nb + i;
    shape[i] = out->shape[i];
    sa[i] = ia >= 0 && a->shape[ia] != 1 ? a->strides[ia] : 0;
    sb[i] = ib >= 0 && b->shape[ib] != 1 ? b->strides[ib] : 0;
    so[i] = out->strides[i];
  }
  int64_t *st[3] = {sa, sb, so};
  int bd = nb ? ga_collapse(nb, shape, 3, st, true) : 0;
  ga_matmul_call c = {
    .dtype = out->dtype, .m = m, .n = n, .k = k, .batch = 1,
    .as = {0, ars, acs}, .bs = {0, brs, bcs}, .os = {0, ors, ocs},
    .device = GA_DEVICE(out), .stream = stream,
  };
  int inner = bd > 0 && !(bd == 1 && shape[0] == 1);
  if (inner && (sa[bd - 1] < 0 || sb[bd - 1] < 0 || so[bd - 1] <= 0)) inner = 0;   /* walked here */
  int outer = inner ? bd - 1 : bd;
  if (inner) {
    c.batch = shape[bd - 1];
    c.as[0] = sa[bd - 1], c.bs[0] = sb[bd - 1], c.os[0] = so[bd - 1];
  }
  int64_t idx[GA_MAXDIM] = {0};
  for (;;) {
    int64_t oa = 0, ob = 0, oo = 0;
    for (int d = 0; d < outer; d++) oa += idx[d] * sa[d], ob += idx[d] * sb[d], oo += idx[d] * so[d];
    c.a = GA_DATA(a) + oa;
    c.b = GA_DATA(b) + ob;
    c.out = GA_DATA(out) + oo;
    int rc = be->matmul(&c);
    if (rc) return rc;
    int d = outer - 1;
    while (d >= 0 && ++idx[d] == shape[d]) idx[d--] = 0;
    if (d < 0) break;
  }
  return GA_OK;
}

char *ga_matmul_source(const ga_matmul_call *c) {
  const ga_backend *be = ga_backend_of(c->device);
  if (!be->matmul_source) {
    ga_err(GA_EINVAL, "the %s backend has no matrix product kernel", be->name);
    return NULL;
  }
  return be->matmul_source(c);
}

char *ga_matmul_intmm_source(int dtype) {
  const ga_backend *be = ga_backend_of(0);
  if (!be->intmm_source) {
    ga_err(GA_EINVAL, "the %s backend has no integer tensor-core product", be->name);
    return NULL;
  }
  return be->intmm_source(dtype);
}
