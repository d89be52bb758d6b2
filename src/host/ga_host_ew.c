/* The host backend's elementwise driver: walks the collapsed shape of a
 * ga_ew_call in C order and calls the op's inner loop over the innermost
 * dimension.  An argument whose dtype in memory differs from its loop type
 * goes through a small buffer, a chunk at a time: inputs are cast in before
 * the loop, outputs cast out after it.  An output may be exactly one of the
 * inputs (same data and strides): each chunk reads all its inputs before it
 * writes. */
#include "host/ga_host.h"
#include <stdlib.h>
#include <string.h>

#define HE_CHUNK 512   /* elements per buffered chunk: buffers stay in L1 */

typedef struct he_arg {
  char *base;          /* element 0 */
  char *ptr;           /* element 0 of the current row */
  int64_t strides[GA_MAXDIM];
  ga_cast_fn cast;     /* memory -> loop type (input) or back (output); NULL if none */
  int lsize;           /* itemsize of the loop type */
  char *buf;           /* HE_CHUNK elements of the loop type, when cast */
} he_arg;

static int he_check(const ga_ew_call *c, ga_host_loop_fn *loop) {
  const ga_op *op = c->op;
  if (!op) return ga_err(GA_EINTERNAL, "host elementwise: no op");
  if (c->nin != op->nin || c->nout != op->nout || c->nin + c->nout > GA_MAXARGS || c->nout < 1)
    return ga_err(GA_EINTERNAL, "%s: bad argument count %d+%d", op->name, c->nin, c->nout);
  if (c->ndim < 1 || c->ndim > GA_MAXDIM)
    return ga_err(GA_EINTERNAL, "%s: bad ndim %d", op->name, c->ndim);
  /* The host loops are indexed by T (ga_ops.def). */
  /* T is the loop type of the first input whose dtype follows the loop */
  int t0 = 0;
  while (t0 < c->nin - 1 && ga_op_in_fixed(op, t0)) t0++;
  int t = c->loop_types[t0];
  bool mixed = op->sig == GA_SIG_CMP && c->nin == 2 && c->loop_types[1] != t;
  if (t < 0 || t >= GA_NDTYPES || !(*loop = mixed ? ga_host_loop_mixed(op, t) : ga_host_loop(op, t)))
    return ga_err(GA_ETYPE, "%s: no host loop for %s", op->name,
                  t >= 0 && t < GA_NDTYPES ? ga_dtypes[t].name : "?");
  for (int k = 0; k < c->nin + c->nout; k++) {
    int want = mixed && k == 1 ? (t == GA_INT64 ? GA_UINT64 : GA_INT64) : ga_op_arg_dtype(op, t, k);
    int mem = c->arg[k].dtype;
    if (c->loop_types[k] != want)
      return ga_err(GA_EINTERNAL, "%s: loop type of argument %d is %d, expected %d",
                    op->name, k + 1, c->loop_types[k], want);
    if (c->arg[k].kind != GA_AK_SCALAR && (mem < 0 || mem >= GA_NDTYPES))
      return ga_err(GA_EINTERNAL, "%s: bad dtype %d of argument %d", op->name, mem, k + 1);
    /* A broadcast output would be written many times: only one element. */
    if (k >= c->nin && (c->arg[k].kind == GA_AK_SCALAR ||
                        (c->arg[k].kind == GA_AK_BCAST && c->size > 1)))
      return ga_err(GA_EINTERNAL, "%s: output %d is not writable elementwise", op->name,
                    k - c->nin + 1);
  }
  return GA_OK;
}

/* C-order strides of a dense array. */
static void he_strides_dense(int nd, const int64_t *shape, int64_t itemsize, int64_t *st) {
  for (int d = nd - 1; d >= 0; d--) {
    st[d] = itemsize;
    itemsize *= shape[d];
  }
}

/* Strides and casts of each argument; sets *nbuf to the buffers needed. */
static void he_setup(const ga_ew_call *c, he_arg *a, int *nbuf) {
  int nargs = c->nin + c->nout;
  *nbuf = 0;
  for (int k = 0; k < nargs; k++) {
    const ga_ew_arg *g = &c->arg[k];
    int lt = c->loop_types[k];
    int mem = g->kind == GA_AK_SCALAR ? lt : g->dtype;   /* a scalar holds the loop type */
    he_arg *h = &a[k];
    h->base = h->ptr = g->kind == GA_AK_SCALAR ? (char *)&g->value : g->data;
    h->lsize = GA_ITEMSIZE(lt);
    h->buf = NULL;
    h->cast = mem == lt ? NULL : k < c->nin ? ga_host_cast_fn(mem, lt) : ga_host_cast_fn(lt, mem);
    if (h->cast) ++*nbuf;
    if (g->kind == GA_AK_SCALAR || g->kind == GA_AK_BCAST)
      memset(h->strides, 0, sizeof h->strides);
    else if (g->kind == GA_AK_CONTIG)      /* dense, C order, in its own dtype */
      he_strides_dense(c->ndim, c->shape, GA_ITEMSIZE(mem), h->strides);
    else
      memcpy(h->strides, g->strides, sizeof h->strides);
  }
}

/* One row of the innermost dimension: n elements from a[k].ptr, flat index i0. */
static void he_row(ga_host_loop_fn loop, int nin, int nargs, he_arg *a, bool buffered, int d,
                   int64_t n, int64_t i0) {
  char *args[GA_MAXARGS];
  int64_t st[GA_MAXARGS];
  if (!buffered) {
    for (int k = 0; k < nargs; k++) args[k] = a[k].ptr, st[k] = a[k].strides[d];
    loop(args, st, n, i0);
    return;
  }
  /* A broadcast input is cast once per row, and stays broadcast. */
  for (int k = 0; k < nin; k++)
    if (a[k].cast && a[k].strides[d] == 0) a[k].cast(a[k].ptr, 0, a[k].buf, 0, 1);
  for (int64_t s = 0; s < n; s += HE_CHUNK) {
    int64_t m = n - s < HE_CHUNK ? n - s : HE_CHUNK;
    for (int k = 0; k < nargs; k++) {
      char *p = a[k].ptr + s * a[k].strides[d];
      if (!a[k].cast) {
        args[k] = p, st[k] = a[k].strides[d];
      } else if (k < nin && a[k].strides[d] == 0) {
        args[k] = a[k].buf, st[k] = 0;
      } else {
        if (k < nin) a[k].cast(p, a[k].strides[d], a[k].buf, a[k].lsize, m);
        args[k] = a[k].buf, st[k] = a[k].lsize;
      }
    }
    loop(args, st, m, i0 + s);
    for (int k = nin; k < nargs; k++)
      if (a[k].cast) a[k].cast(a[k].buf, a[k].lsize, a[k].ptr + s * a[k].strides[d], a[k].strides[d], m);
  }
}

int ga_host_ew(const ga_ew_call *c) {
  ga_host_loop_fn loop = NULL;
  int rc = he_check(c, &loop);
  if (rc) return rc;
  int nd = c->ndim, nin = c->nin, nargs = c->nin + c->nout, nbuf;
  for (int d = 0; d < nd; d++)
    if (c->shape[d] <= 0) return GA_OK;           /* nothing to do */
  he_arg a[GA_MAXARGS];
  he_setup(c, a, &nbuf);

  void *mem = NULL;
  if (nbuf) {
    if (ga_host_raw_alloc(NULL, (size_t)nbuf * HE_CHUNK * 16, &mem))
      return ga_err(GA_ENOMEM, "%s: out of memory allocating %d cast buffers",
                    c->op->name, nbuf);
    char *p = mem;
    for (int k = 0; k < nargs; k++)
      if (a[k].cast) a[k].buf = p, p += HE_CHUNK * 16;
  }

  /* Outer dimensions with a counter (byte offsets, so that no pointer ever
   * steps outside its array); the innermost one in he_row. */
  int64_t inner = c->shape[nd - 1], idx[GA_MAXDIM] = {0}, off[GA_MAXARGS] = {0}, i0 = 0;
  for (;;) {
    he_row(loop, nin, nargs, a, nbuf > 0, nd - 1, inner, i0);
    i0 += inner;
    int d = nd - 2;
    for (; d >= 0; d--) {
      if (++idx[d] < c->shape[d]) {
        for (int k = 0; k < nargs; k++) off[k] += a[k].strides[d];
        break;
      }
      for (int k = 0; k < nargs; k++) off[k] -= a[k].strides[d] * (c->shape[d] - 1);
      idx[d] = 0;
    }
    if (d < 0) break;
    for (int k = 0; k < nargs; k++) a[k].ptr = a[k].base + off[k];
  }
  ga_host_raw_free(NULL, mem);
  return GA_OK;
}
