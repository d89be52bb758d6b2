/* The scan and nonzero pipelines (ga_scan.h). */
#include "core/ga_mem.h"
#include "core/ga_scan.h"
#include "core/ga_backend.h"
#include "core/ga_elementwise.h"
#include <string.h>

int ga_scan_dtypes(const ga_red_op *op, int xdt, int dtype_req, int *T, int *acc, int *out_dtype) {
  if (!(op->flags & GA_REDF_SCAN)) return ga_err(GA_EINVAL, "%s is not a scan", op->name);
  int t = dtype_req >= 0 ? dtype_req : xdt;
  if (!(op->types & (1u << t))) return ga_err(GA_ETYPE, "no loop for dtype %s", ga_dtypes[t].name);
  *T = t;
  *acc = ga_red_acc_dtype(op, t);
  /* NumPy: dtype= is also the result's dtype (cumsum(int8, dtype=int8) wraps) */
  *out_dtype = dtype_req >= 0 ? dtype_req : ga_red_out_dtype(op, t);
  return GA_OK;
}

/* Could `out` be written directly as the C-contiguous result (dtype, no
 * partial overlap with the input `in`)? */
static bool direct_out(const ga_array *out, int odt, const ga_array *in) {
  if (out->dtype != odt || !ga_is_c_contiguous(out)) return false;
  if (out->buf != in->buf) return true;
  /* the same buffer: only the very same elements (in place), scanned in
   * order, read before written */
  return GA_DATA(out) == GA_DATA(in) && GA_ITEMSIZE(odt) == GA_ITEMSIZE(in->dtype);
}

int ga_scan_run(const ga_red_op *op, const ga_array *x, int axis, int dtype_req, ga_array *out, void *stream) {
  int T, acc, odt, rc;
  if ((rc = ga_scan_dtypes(op, x->dtype, dtype_req, &T, &acc, &odt)) || (rc = ga_check_writable(out))) return rc;
  if (GA_DEVICE(out) != GA_DEVICE(x)) return ga_err(GA_EDEVICE, "the output is on another device than the input");
  if (out->size != x->size) return ga_err(GA_EINVAL, "the output has %lld elements, the input %lld",
                                          (long long)out->size, (long long)x->size);
  if (x->size == 0) return GA_OK;
  ga_scan_call c;
  memset(&c, 0, sizeof c);
  c.op = op;
  c.T = T;
  c.acc = acc;
  c.out_dtype = odt;
  c.outer = c.inner = 1;
  c.n = x->size;
  if (axis >= 0) {
    c.n = x->shape[axis];
    for (int d = 0; d < axis; d++) c.outer *= x->shape[d];
    for (int d = axis + 1; d < x->ndim; d++) c.inner *= x->shape[d];
  }
  c.device = GA_DEVICE(x);
  c.stream = stream;
  int dev = GA_DEVICE(x);
  /* the input: C-contiguous of dtype T */
  ga_array xin, tout;
  bool xtmp = false, otmp = false;
  if (x->dtype == T && ga_is_c_contiguous(x)) {
    xin = *x;
  } else {
    if ((rc = ga_array_init(&xin, dev, T, x->ndim, x->shape, stream))) return rc;
    xtmp = true;
    if ((rc = ga_copy(&xin, x, stream))) goto done;
  }
  /* the output: directly when it is the C-contiguous result, else a
   * temporary cast into it at the end */
  if (direct_out(out, odt, &xin)) {
    tout = *out;
  } else {
    if ((rc = ga_array_init(&tout, dev, odt, out->ndim, out->shape, stream))) goto done;
    otmp = true;
  }
  c.in = GA_DATA(&xin);
  c.out = GA_DATA(&tout);
  rc = ga_backend_of(dev)->scan(&c);
  if (!rc && otmp) rc = ga_copy(out, &tout, stream);
done:
  if (xtmp) ga_array_release(&xin);
  if (otmp) ga_array_release(&tout);
  return rc;
}

int ga_nonzero_run(const ga_array *x, bool flat, bool transposed, void *stream, ga_array *out) {
  int dev = GA_DEVICE(x), rc = GA_OK;
  memset(out, 0, sizeof *out);
  ga_array f;
  bool ftmp = false;
  ga_scratch scratch = {0};
  ga_nz_call c;
  memset(&c, 0, sizeof c);
  if (x->dtype == GA_BOOL && ga_is_c_contiguous(x)) {
    f = *x;
  } else {   /* the truth values (the COPY row's cast to bool: NaN and complex as NumPy) */
    if ((rc = ga_array_init(&f, dev, GA_BOOL, x->ndim, x->shape, stream))) return rc;
    ftmp = true;
    if (x->size && (rc = ga_copy(&f, x, stream))) goto done;
  }
  c.flags = (const unsigned char *)GA_DATA(&f);
  c.n = x->size;
  c.ndim = flat ? 1 : x->ndim;
  if (flat) c.shape[0] = x->size;
  else memcpy(c.shape, x->shape, sizeof(int64_t) * x->ndim);
  c.device = dev;
  c.stream = stream;
  int64_t count = 0;
  if (c.n) rc = ga_backend_of(dev)->nonzero_count(&c, &count, &scratch);
  if (rc) goto done;
  int64_t shape[2] = {count, c.ndim};
  if (transposed) shape[0] = c.ndim, shape[1] = count;
  if ((rc = ga_array_init(out, dev, GA_INT64, 2, shape, stream))) goto done;
  if (count && c.ndim) {
    c.out = (int64_t *)(void *)GA_DATA(out);
    c.s0 = transposed ? 8 : 8 * (int64_t)c.ndim;
    c.s1 = transposed ? 8 * count : 8;
    rc = ga_backend_of(dev)->nonzero_fill(&c, &scratch);
    if (rc) ga_array_release(out);
  }
done:
  ga_scratch_put(&scratch);
  if (ftmp) ga_array_release(&f);
  return rc;
}
