/* The reduction call pipeline: axes, dtypes, dimension collapsing, backend
 * dispatch (the rows themselves: base/ga_redops.c). */
#include "core/ga_mem.h"
#include "core/ga_reduce.h"
#include "core/ga_backend.h"
#include "core/ga_elementwise.h"
#include "base/ga_shape.h"
#include <stdlib.h>
#include <string.h>

int ga_red_axes(int ndim, int naxes, const int64_t *axes1, int *axes0) {
  bool seen[GA_MAXDIM] = {false};
  for (int k = 0; k < naxes; k++) {
    int rc = ga_axis(axes1[k], ndim, &axes0[k]);
    if (rc) return rc;
    if (seen[axes0[k]]) return ga_err(GA_EINVAL, "repeated axis %lld", (long long)axes1[k]);
    seen[axes0[k]] = true;
  }
  return GA_OK;
}

/* NumPy's wording for an empty reduction without identity */
static int empty_error(const ga_red_op *op) {
  const char *np = op->id == GA_RED_MAX ? "maximum" : op->id == GA_RED_MIN ? "minimum"
                 : op->id == GA_RED_NANMAX ? "fmax" : op->id == GA_RED_NANMIN ? "fmin" : NULL;
  if (np) return ga_err(GA_EINVAL, "zero-size array to reduction operation %s which has no identity", np);
  /* nanargmax is NumPy's argmax after replacing the NaNs */
  const char *arg = op->id == GA_RED_NANARGMAX ? "argmax" : op->id == GA_RED_NANARGMIN ? "argmin" : op->name;
  return ga_err(GA_EINVAL, "attempt to get %s of an empty sequence", arg);
}

int ga_red_prepare(const ga_red_op *op, const ga_array *x, int naxes, const int *axes, bool keepdims,
                   int dtype_req, ga_red_plan *p) {
  memset(p, 0, sizeof *p);
  p->op = op;
  p->T = dtype_req >= 0 ? dtype_req : x->dtype;
  if (!(op->types & (1u << p->T)))
    return ga_err(GA_ETYPE, "no loop for dtype %s", ga_dtypes[p->T].name);
  p->acc = ga_red_acc_dtype(op, p->T);
  p->out_dtype = ga_red_out_dtype(op, p->T);
  p->ndim = x->ndim;
  p->device = GA_DEVICE(x);
  memcpy(p->shape, x->shape, sizeof(int64_t) * x->ndim);
  if (naxes < 0)
    for (int d = 0; d < x->ndim; d++) p->reduced[d] = true;
  else
    for (int k = 0; k < naxes; k++) p->reduced[axes[k]] = true;
  int64_t nred = 1;   /* a factor of x's size: no overflow */
  for (int d = 0; d < x->ndim; d++) {
    if (p->reduced[d]) {
      nred *= x->shape[d];
      if (keepdims) p->out_shape[p->out_ndim++] = 1;
    } else {
      p->out_shape[p->out_ndim++] = x->shape[d];
    }
  }
  p->nred = nred;
  /* NumPy raises even when the result is empty too (max of a (0, 0) array
   * over either axis): an empty reduced axis is the error */
  if (nred == 0 && (op->flags & GA_REDF_NOIDENT)) return empty_error(op);
  return GA_OK;
}

/* one reduced axis before sorting and collapsing */
typedef struct red_axis { int64_t n, is; } red_axis;

static int cmp_stride_desc(const void *pa, const void *pb) {
  int64_t a = llabs(((const red_axis *)pa)->is), b = llabs(((const red_axis *)pb)->is);
  return a < b ? 1 : a > b ? -1 : 0;
}

int ga_red_run(const ga_red_plan *p, const ga_array *x, ga_array *out, void *stream) {
  if (ga_check_writable(out)) return ga_errcode();
  int64_t nout = 1;
  for (int d = 0; d < p->out_ndim; d++) nout *= p->out_shape[d];
  if (nout == 0) return GA_OK;
  ga_array tmp;
  bool cast = x->dtype != p->T;
  if (cast) {   /* dtype= another loop: read the input through a cast copy */
    int rc = ga_array_init(&tmp, GA_DEVICE(x), p->T, x->ndim, x->shape, stream);
    if (rc) return rc;
    rc = ga_copy(&tmp, x, stream);
    if (rc) { ga_array_release(&tmp); return rc; }
    x = &tmp;
  }
  ga_red_call c;
  memset(&c, 0, sizeof c);
  c.op = p->op;
  c.T = p->T;
  c.acc = p->acc;
  c.out_dtype = p->out_dtype;
  c.in = GA_DATA(x);
  c.out = GA_DATA(out);
  c.device = p->device;
  c.stream = stream;
  c.nred = p->nred;
  c.nout = nout;
  /* split the input's axes; length-1 axes change no offset (nor a C-order
   * position), so they go.  Kept axes go straight into the call. */
  red_axis ro[GA_MAXDIM];
  int nk = 0, nr = 0, od = 0;
  bool keep = out->ndim == x->ndim;
  for (int d = 0; d < x->ndim; d++) {
    if (p->reduced[d]) {
      if (keep) od++;
      if (x->shape[d] != 1) ro[nr++] = (red_axis){x->shape[d], x->strides[d]};
    } else {
      if (x->shape[d] != 1) {
        c.oshape[nk] = x->shape[d];
        c.istr_o[nk] = x->strides[d];
        c.ostr[nk++] = out->strides[od];
      }
      od++;
    }
  }
  /* a position (arg*) is in C order; other rows read in memory order */
  if (!(p->op->flags & GA_REDF_ARG) && nr > 1) qsort(ro, nr, sizeof ro[0], cmp_stride_desc);
  for (int k = 0; k < nr; k++) { c.rshape[k] = ro[k].n; c.istr_r[k] = ro[k].is; }
  /* kept axes merge where both the input and the output walk them as one */
  int64_t *kst[2] = {c.istr_o, c.ostr}, *rst = c.istr_r;
  c.ondim = ga_collapse(nk, c.oshape, 2, kst, false);
  if (p->nred == 0) { c.rndim = 1; c.rshape[0] = 0; c.istr_r[0] = 0; }
  else c.rndim = ga_collapse(nr, c.rshape, 1, &rst, false);
  int rc = ga_backend_of(c.device)->reduce(&c);
  if (cast) ga_array_release(&tmp);
  return rc;
}
