/* The ga.cudnn pipeline: per operation, which arrays it takes, their
 * shapes against each other (channels, groups, output sizes), dtypes,
 * the canonical (N, C, spatial...) descriptor, private contiguous copies
 * of inputs, and the call through the backend table. */
#include "core/ga_dnn.h"
#include "core/ga_backend.h"
#include "core/ga_elementwise.h"
#include "core/ga_mem.h"
#include "base/ga_checked.h"
#include "base/ga_dtype.h"
#include "base/ga_error.h"
#include <stdio.h>
#include <string.h>

static const char *const role_name[GA_DT_N] = {"x", "y", "w", "dx", "dy", "dw", "b", "gamma", "beta",
                                               "running_mean", "running_var", "save_mean", "save_inv_var",
                                               "dgamma", "dbeta"};

/* which roles each op reads (in) and writes (out); opt: may be absent */
#define R(k) (1u << (k))
static const struct { unsigned in, out, opt; } roles[GA_DNN_NOPS] = {
  [GA_DNN_CONV_FWD] = {R(GA_DT_X) | R(GA_DT_W) | R(GA_DT_B), R(GA_DT_Y), R(GA_DT_B)},
  [GA_DNN_CONV_BWD_DATA] = {R(GA_DT_W) | R(GA_DT_DY), R(GA_DT_DX), 0},
  [GA_DNN_CONV_BWD_FILTER] = {R(GA_DT_X) | R(GA_DT_DY), R(GA_DT_DW), 0},
  [GA_DNN_CONV_BWD_BIAS] = {R(GA_DT_DY), R(GA_DT_B), 0},
  [GA_DNN_POOL_FWD] = {R(GA_DT_X), R(GA_DT_Y), 0},
  [GA_DNN_POOL_BWD] = {R(GA_DT_X) | R(GA_DT_Y) | R(GA_DT_DY), R(GA_DT_DX), 0},
  [GA_DNN_ACT_FWD] = {R(GA_DT_X), R(GA_DT_Y), 0},
  [GA_DNN_ACT_BWD] = {R(GA_DT_X) | R(GA_DT_Y) | R(GA_DT_DY), R(GA_DT_DX), 0},
  [GA_DNN_SOFTMAX_FWD] = {R(GA_DT_X), R(GA_DT_Y), 0},
  [GA_DNN_SOFTMAX_BWD] = {R(GA_DT_Y) | R(GA_DT_DY), R(GA_DT_DX), 0},
  [GA_DNN_BN_TRAIN] = {R(GA_DT_X) | R(GA_DT_SCALE) | R(GA_DT_BIAS),
                       R(GA_DT_Y) | R(GA_DT_MEAN) | R(GA_DT_VAR) | R(GA_DT_SMEAN) | R(GA_DT_SINV),
                       R(GA_DT_MEAN) | R(GA_DT_VAR)},
  [GA_DNN_BN_INFER] = {R(GA_DT_X) | R(GA_DT_SCALE) | R(GA_DT_BIAS) | R(GA_DT_MEAN) | R(GA_DT_VAR), R(GA_DT_Y), 0},
  [GA_DNN_BN_BWD] = {R(GA_DT_X) | R(GA_DT_DY) | R(GA_DT_SCALE) | R(GA_DT_SMEAN) | R(GA_DT_SINV),
                     R(GA_DT_DX) | R(GA_DT_DSCALE) | R(GA_DT_DBIAS), R(GA_DT_SMEAN) | R(GA_DT_SINV)},
  [GA_DNN_ADD] = {R(GA_DT_B) | R(GA_DT_Y), R(GA_DT_Y), 0},
};
#define PARAMS (R(GA_DT_SCALE) | R(GA_DT_BIAS) | R(GA_DT_MEAN) | R(GA_DT_VAR) | R(GA_DT_SMEAN) | R(GA_DT_SINV) | \
                R(GA_DT_DSCALE) | R(GA_DT_DBIAS))

static int is_float(int dt) { return dt == GA_FLOAT16 || dt == GA_FLOAT32 || dt == GA_FLOAT64; }

static void shape_str(const ga_array *a, char *buf, size_t n) {
  size_t k = 0;
  k += (size_t)snprintf(buf + k, n - k, "(");
  for (int d = 0; d < a->ndim && k < n; d++)
    k += (size_t)snprintf(buf + k, n - k, d ? ",%lld" : "%lld", (long long)a->shape[d]);
  if (k < n) snprintf(buf + k, n - k, a->ndim == 1 ? ",)" : ")");
}

static int want_shape(const ga_array *a, int role, int ndim, const int64_t *shape) {
  if (a->ndim == ndim && !memcmp(a->shape, shape, sizeof(int64_t) * (size_t)ndim)) return GA_OK;
  char got[160], want[160];
  ga_array w = {0};
  w.ndim = ndim;
  memcpy(w.shape, shape, sizeof(int64_t) * (size_t)ndim);
  shape_str(a, got, sizeof got);
  shape_str(&w, want, sizeof want);
  return ga_err(GA_EINVAL, "%s has shape %s where %s is expected", role_name[role], got, want);
}

/* user layout <-> canonical: the user's dim of canonical dim d (0 N, 1 C,
 * 2.. spatial) of an ndim-dim data tensor */
static int user_dim(int d, int ndim, int nhwc) {
  if (d == 0) return 0;
  if (d == 1) return nhwc ? ndim - 1 : 1;
  return nhwc ? d - 1 : d;
}

/* the user shape of a data tensor (N, C, sp) in the layout */
static void user_shape(int64_t n, int64_t c, int nsp, const int64_t *sp, int nhwc, int64_t *out) {
  int nd = nsp + 2;
  out[0] = n;
  out[user_dim(1, nd, nhwc)] = c;
  for (int i = 0; i < nsp; i++) out[user_dim(2 + i, nd, nhwc)] = sp[i];
}

/* canonical dims/strides (elements) of an ndim-dim data tensor into t with
 * cn canonical dims: spatial dims the array lacks become leading 1s */
static void canon(const ga_array *a, int nhwc, int cn, ga_dnn_tensor *t) {
  int nd = a->ndim, nsp = nd - 2;
  t->data = GA_DATA(a);
  /* every array here is C-contiguous: its dense strides (elements), which
   * are also right for size-1 dims */
  int64_t dims[GA_DNN_MAXDIM], str[GA_DNN_MAXDIM], cs[GA_MAXDIM];
  ga_strides_c(nd, a->shape, 1, cs);
  for (int d = 0; d < nd; d++) {
    int u = user_dim(d, nd, nhwc);
    dims[d] = a->shape[u];
    str[d] = cs[u];
  }
  int extra = cn - 2 - nsp;
  t->dims[0] = dims[0], t->strides[0] = str[0];
  t->dims[1] = dims[1], t->strides[1] = str[1];
  /* a missing spatial dim (size 1): the stride a dense array of the layout
   * would have there (for (N, C) arrays, 1) */
  int64_t outer = nsp > 0 ? str[2] * dims[2] : 1;
  for (int i = 0; i < extra; i++) t->dims[2 + i] = 1, t->strides[2 + i] = outer;
  for (int i = 0; i < nsp; i++) t->dims[2 + extra + i] = dims[2 + i], t->strides[2 + extra + i] = str[2 + i];
}

/* a vector of k per-channel values as (1, k, 1, ...) */
static void canon_vec(const ga_array *a, int cn, int64_t k, ga_dnn_tensor *t) {
  t->data = GA_DATA(a);
  t->dims[0] = 1, t->strides[0] = k;
  t->dims[1] = k, t->strides[1] = 1;
  for (int d = 2; d < cn; d++) t->dims[d] = 1, t->strides[d] = 1;
}

/* the filter (K, C/g, sp) or (K, sp, C/g) as canonical (K, C/g, 1s, sp) */
static void canon_filter(const ga_array *w, int nhwc, int cn, ga_dnn_tensor *t) { canon(w, nhwc, cn, t); }

static int64_t conv_out(int64_t in, int64_t k, int64_t p, int64_t s, int64_t d) {
  /* (in + 2p - d(k-1) - 1) / s + 1, floor; sizes are < 2^40, no overflow */
  int64_t span = d * (k - 1) + 1;
  int64_t num = in + 2 * p - span;
  if (num < 0) return 0;
  return num / s + 1;
}

static int check_spatial_params(const ga_dnn_args *a, int nsp, int pool) {
  for (int i = 0; i < nsp; i++) {
    if (a->pad[i] < 0) return ga_err(GA_EINVAL, "negative padding (%lld)", (long long)a->pad[i]);
    if (a->stride[i] < 1) return ga_err(GA_EINVAL, "stride must be >= 1, got %lld", (long long)a->stride[i]);
    if (!pool && a->dilation[i] < 1)
      return ga_err(GA_EINVAL, "dilation must be >= 1, got %lld", (long long)a->dilation[i]);
    if (a->pad[i] > (1 << 20) || a->stride[i] > (1 << 20) || (!pool && a->dilation[i] > (1 << 20)))
      return ga_err(GA_EINVAL, "padding, stride or dilation too large");
    if (pool) {
      if (a->window[i] < 1) return ga_err(GA_EINVAL, "window size must be >= 1, got %lld", (long long)a->window[i]);
      if (a->window[i] > (1 << 20)) return ga_err(GA_EINVAL, "window too large");
      if (2 * a->pad[i] > a->window[i])
        return ga_err(GA_EINVAL, "padding (%lld) must be at most half the window (%lld)", (long long)a->pad[i],
                      (long long)a->window[i]);
    }
  }
  return GA_OK;
}

/* the conv geometry: x (N, C, sp) with w (K, C/g, ksp) -> y (N, K, osp) */
static int conv_geometry(const ga_dnn_args *a, const ga_array *xs, const int64_t *xshape_in, const ga_array *w,
                         int64_t *yshape) {
  int nd = w->ndim, nsp = nd - 2, nhwc = a->nhwc;
  if (nd < 3 || nd > 5) return ga_err(GA_EINVAL, "w must have 3 to 5 dims (1-D to 3-D), got %d", nd);
  int64_t K = w->shape[0], Cg = w->shape[user_dim(1, nd, nhwc)];
  int64_t N = xshape_in[0], C = xshape_in[user_dim(1, nd, nhwc)];
  (void)xs;
  if (a->groups < 1) return ga_err(GA_EINVAL, "groups must be >= 1, got %lld", (long long)a->groups);
  if (K < 1 || Cg < 1) return ga_err(GA_EINVAL, "w has an empty dimension");
  if (K % a->groups) return ga_err(GA_EINVAL, "the %lld filters do not divide into %lld groups",
                                   (long long)K, (long long)a->groups);
  if (C != Cg * a->groups)
    return ga_err(GA_EINVAL, "channel mismatch: x has %lld channels but w expects %lld (%lld per group x %lld groups)",
                  (long long)C, (long long)(Cg * a->groups), (long long)Cg, (long long)a->groups);
  int rc = check_spatial_params(a, nsp, 0);
  if (rc) return rc;
  int64_t osp[3];
  for (int i = 0; i < nsp; i++) {
    int64_t in = xshape_in[user_dim(2 + i, nd, nhwc)], k = w->shape[user_dim(2 + i, nd, nhwc)];
    if (k < 1) return ga_err(GA_EINVAL, "w has an empty spatial dimension");
    osp[i] = conv_out(in, k, a->pad[i], a->stride[i], a->dilation[i]);
    if (osp[i] < 1)
      return ga_err(GA_EINVAL,
                    "output size < 1 along spatial dim %d (input %lld, pad %lld, kernel %lld, dilation %lld)", i + 1,
                    (long long)in, (long long)a->pad[i], (long long)k, (long long)a->dilation[i]);
  }
  user_shape(N, K, nsp, osp, nhwc, yshape);
  return GA_OK;
}

static int pool_geometry(const ga_dnn_args *a, const ga_array *x, int64_t *yshape) {
  int nd = x->ndim, nsp = nd - 2;
  if (nd < 3 || nd > 5) return ga_err(GA_EINVAL, "x must have 3 to 5 dims (1-D to 3-D pooling), got %d", nd);
  int rc = check_spatial_params(a, nsp, 1);
  if (rc) return rc;
  int64_t osp[3];
  for (int i = 0; i < nsp; i++) {
    int64_t in = x->shape[user_dim(2 + i, nd, a->nhwc)];
    osp[i] = conv_out(in, a->window[i], a->pad[i], a->stride[i], 1);
    if (osp[i] < 1)
      return ga_err(GA_EINVAL, "output size < 1 along spatial dim %d (input %lld, pad %lld, window %lld)", i + 1,
                    (long long)in, (long long)a->pad[i], (long long)a->window[i]);
  }
  user_shape(x->shape[0], x->shape[user_dim(1, nd, a->nhwc)], nsp, osp, a->nhwc, yshape);
  return GA_OK;
}

static int overlaps(const ga_array *p, const ga_array *q) {
  if (p->buf != q->buf) return 0;
  int64_t ps = GA_ITEMSIZE(p->dtype) * p->size, qs = GA_ITEMSIZE(q->dtype) * q->size;
  return p->offset < q->offset + qs && q->offset < p->offset + ps;
}

int ga_dnn_run(const ga_dnn_args *a);

/* the permutation that makes a channels-last array of role r channels
 * first (perm[i]: the source dim of dim i); 0 when r has no layout */
static int cf_perm(const ga_dnn_args *a, int r, int *perm) {
  const ga_array *x = a->a[r];
  int nd = x->ndim;
  if (r == GA_DT_B || nd < 2) return 0;
  if (PARAMS & R(r)) {
    if (a->mode == GA_BN_SPATIAL) return 0;
    /* (sp..., C) -> (C, sp...) */
    perm[0] = nd - 1;
    for (int i = 1; i < nd; i++) perm[i] = i - 1;
    return 1;
  }
  /* (N, sp..., C) -> (N, C, sp...), and filters (K, sp..., C/g) alike */
  perm[0] = 0, perm[1] = nd - 1;
  for (int i = 2; i < nd; i++) perm[i] = i - 1;
  return 1;
}

static void permuted_view(const ga_array *x, const int *perm, ga_array *v) {
  *v = *x;   /* no new reference: used while x lives */
  for (int i = 0; i < x->ndim; i++) v->shape[i] = x->shape[perm[i]], v->strides[i] = x->strides[perm[i]];
}

static int run_channels_first(const ga_dnn_args *a) {
  unsigned out = roles[a->op].out, in = roles[a->op].in;
  ga_dnn_args b = *a;
  b.nhwc = 0, b.channels_first = 0;
  ga_array tmp[GA_DT_N], view[GA_DT_N];
  int made[GA_DT_N] = {0}, perm[GA_MAXDIM], rc = GA_OK;
  memset(tmp, 0, sizeof tmp);
  for (int r = 0; r < GA_DT_N && !rc; r++) {
    if (!a->a[r] || !cf_perm(a, r, perm)) continue;
    permuted_view(a->a[r], perm, &view[r]);
    if ((rc = ga_array_init(&tmp[r], GA_DEVICE(a->a[r]), a->a[r]->dtype, view[r].ndim, view[r].shape, a->stream)))
      break;
    made[r] = 1;
    /* inputs, and the running statistics (updated in place) */
    if ((in & R(r)) || r == GA_DT_MEAN || r == GA_DT_VAR) rc = ga_copy(&tmp[r], &view[r], a->stream);
    b.a[r] = &tmp[r];
  }
  if (!rc) rc = ga_dnn_run(&b);
  for (int r = 0; r < GA_DT_N && !rc; r++)
    if (made[r] && (out & R(r))) rc = ga_copy(&view[r], &tmp[r], a->stream);
  for (int r = 0; r < GA_DT_N; r++)
    if (made[r]) ga_array_release(&tmp[r]);
  return rc;
}

int ga_dnn_run(const ga_dnn_args *a) {
  if (a->op < 0 || a->op >= GA_DNN_NOPS) return ga_err(GA_EINTERNAL, "unknown dnn op %d", a->op);
  unsigned in = roles[a->op].in, out = roles[a->op].out, opt = roles[a->op].opt, all = in | out;
  int dev = 0, have = 0, dtype = -1, rc;
  for (int r = 0; r < GA_DT_N; r++) {
    const ga_array *x = a->a[r];
    if (!(all & R(r))) {
      if (x) return ga_err(GA_EINTERNAL, "dnn op %d given %s", a->op, role_name[r]);
      continue;
    }
    if (!x) {
      if (opt & R(r)) continue;
      return ga_err(GA_EINVAL, "%s is missing", role_name[r]);
    }
    if (!x->buf) return ga_err(GA_EFREED, "%s has been freed", role_name[r]);
    if ((out & R(r)) && GA_READONLY(x)) return ga_err(GA_EINVAL, "%s is read-only (x.flags.writeable is false)", role_name[r]);
    if (have && GA_DEVICE(x) != dev) {
      char b1[32], b2[32];
      return ga_err(GA_EDEVICE, "%s is on %s, the other arrays on %s", role_name[r], ga_device_name(GA_DEVICE(x), b1),
                    ga_device_name(dev, b2));
    }
    dev = GA_DEVICE(x), have = 1;
    if (!is_float(x->dtype))
      return ga_err(GA_ETYPE, "%s must be float16, float32 or float64, got %s", role_name[r], ga_dtypes[x->dtype].name);
    if (!(PARAMS & R(r))) {
      if (dtype < 0) dtype = x->dtype;
      else if (x->dtype != dtype)
        return ga_err(GA_ETYPE, "%s is %s but the other arrays are %s (no mixing)", role_name[r],
                      ga_dtypes[x->dtype].name, ga_dtypes[dtype].name);
    }
    if (x->ndim > 5) return ga_err(GA_EINVAL, "%s has %d dims (at most 5)", role_name[r], x->ndim);
  }
  if (!have || dtype < 0) return ga_err(GA_EINTERNAL, "dnn call without arrays");
  int pdtype = dtype == GA_FLOAT64 ? GA_FLOAT64 : GA_FLOAT32;
  for (int r = 0; r < GA_DT_N; r++)
    if ((PARAMS & R(r)) && a->a[r] && a->a[r]->dtype != pdtype)
      return ga_err(GA_ETYPE, "%s must be %s for %s data, got %s", role_name[r], ga_dtypes[pdtype].name,
                    ga_dtypes[dtype].name, ga_dtypes[a->a[r]->dtype].name);
  /* outputs: C-contiguous, not overlapping an input */
  for (int r = 0; r < GA_DT_N; r++) {
    if (!(out & R(r)) || !a->a[r]) continue;
    if (!ga_is_c_contiguous(a->a[r])) return ga_err(GA_EINVAL, "%s (an output) must be C-contiguous", role_name[r]);
    for (int s = 0; s < GA_DT_N; s++)
      if (s != r && a->a[s] && ((in & R(s)) || (out & R(s))) && overlaps(a->a[r], a->a[s]) &&
          !(a->op == GA_DNN_ADD))
        return ga_err(GA_EINVAL, "%s (an output) overlaps %s", role_name[r], role_name[s]);
  }

  ga_array *const *A = a->a;
  ga_dnn_call c;
  memset(&c, 0, sizeof c);
  c.op = a->op, c.dtype = dtype, c.pdtype = pdtype, c.nhwc = a->nhwc;
  c.groups = (int)a->groups;
  c.algo_find = a->algo_find, c.tensor_cores = a->tensor_cores;
  c.mode = a->mode, c.mode2 = a->mode2;
  c.coef = a->coef, c.epsilon = a->epsilon, c.factor = a->factor;
  c.alpha = a->alpha, c.beta = a->beta;
  c.device = dev, c.stream = a->stream;
  int64_t shp[GA_MAXDIM];
  int nd, nsp;

  switch (a->op) {
  case GA_DNN_CONV_FWD:
  case GA_DNN_CONV_BWD_DATA:
  case GA_DNN_CONV_BWD_FILTER: {
    const ga_array *xa = a->op == GA_DNN_CONV_BWD_DATA ? A[GA_DT_DX] : A[GA_DT_X];
    const ga_array *wa = a->op == GA_DNN_CONV_BWD_FILTER ? A[GA_DT_DW] : A[GA_DT_W];
    const ga_array *ya = a->op == GA_DNN_CONV_FWD ? A[GA_DT_Y] : A[GA_DT_DY];
    nd = wa->ndim;
    if (xa->ndim != nd)
      return ga_err(GA_EINVAL, "%s has %d dims but the filter %d", role_name[a->op == GA_DNN_CONV_BWD_DATA ? GA_DT_DX : GA_DT_X],
                    xa->ndim, nd);
    if ((rc = conv_geometry(a, xa, xa->shape, wa, shp))) return rc;
    if ((rc = want_shape(ya, a->op == GA_DNN_CONV_FWD ? GA_DT_Y : GA_DT_DY, nd, shp))) return rc;
    if (A[GA_DT_B]) {
      int64_t k = wa->shape[0];
      if ((rc = want_shape(A[GA_DT_B], GA_DT_B, 1, &k))) return rc;
    }
    nsp = nd - 2;
    c.ndim = nsp == 3 ? 5 : 4;
    int extra = c.ndim - 2 - nsp;
    for (int i = 0; i < extra; i++) c.pad[i] = 0, c.stride[i] = 1, c.dilation[i] = 1;
    for (int i = 0; i < nsp; i++) {
      c.pad[extra + i] = (int)a->pad[i], c.stride[extra + i] = (int)a->stride[i];
      c.dilation[extra + i] = (int)a->dilation[i];
    }
    break;
  }
  case GA_DNN_CONV_BWD_BIAS: {
    nd = A[GA_DT_DY]->ndim;
    if (nd < 3) return ga_err(GA_EINVAL, "dy must have 3 to 5 dims, got %d", nd);
    int64_t k = A[GA_DT_DY]->shape[user_dim(1, nd, a->nhwc)];
    if ((rc = want_shape(A[GA_DT_B], GA_DT_B, 1, &k))) return rc;
    c.ndim = nd == 5 ? 5 : 4;
    break;
  }
  case GA_DNN_POOL_FWD:
  case GA_DNN_POOL_BWD: {
    nd = A[GA_DT_X]->ndim;
    if ((rc = pool_geometry(a, A[GA_DT_X], shp))) return rc;
    if ((rc = want_shape(A[GA_DT_Y], GA_DT_Y, nd, shp))) return rc;
    if (a->op == GA_DNN_POOL_BWD) {
      if ((rc = want_shape(A[GA_DT_DY], GA_DT_DY, nd, shp))) return rc;
      if ((rc = want_shape(A[GA_DT_DX], GA_DT_DX, nd, A[GA_DT_X]->shape))) return rc;
    }
    if (a->mode != GA_POOL_MAX && a->mode != GA_POOL_AVG_INCLUDE && a->mode != GA_POOL_AVG_EXCLUDE)
      return ga_err(GA_EINVAL, "unknown pooling mode %d", a->mode);
    nsp = nd - 2;
    c.ndim = nsp == 3 ? 5 : 4;
    int extra = c.ndim - 2 - nsp;
    for (int i = 0; i < extra; i++) c.pad[i] = 0, c.stride[i] = 1, c.window[i] = 1;
    for (int i = 0; i < nsp; i++)
      c.pad[extra + i] = (int)a->pad[i], c.stride[extra + i] = (int)a->stride[i], c.window[extra + i] = (int)a->window[i];
    break;
  }
  case GA_DNN_ACT_FWD:
  case GA_DNN_ACT_BWD:
  case GA_DNN_SOFTMAX_FWD:
  case GA_DNN_SOFTMAX_BWD: {
    const ga_array *ref = A[GA_DT_Y];
    nd = ref->ndim;
    int r0 = a->op == GA_DNN_ACT_FWD || a->op == GA_DNN_SOFTMAX_FWD ? GA_DT_X : GA_DT_DY;
    if ((rc = want_shape(A[r0], r0, nd, ref->shape))) return rc;
    if (a->op == GA_DNN_ACT_BWD) {
      if ((rc = want_shape(A[GA_DT_X], GA_DT_X, nd, ref->shape))) return rc;
    }
    if (a->op == GA_DNN_ACT_BWD || a->op == GA_DNN_SOFTMAX_BWD)
      if ((rc = want_shape(A[GA_DT_DX], GA_DT_DX, nd, ref->shape))) return rc;
    if (a->op == GA_DNN_SOFTMAX_FWD || a->op == GA_DNN_SOFTMAX_BWD) {
      if (nd < 2) return ga_err(GA_EINVAL, "softmax needs at least 2 dims (N, C, ...), got %d", nd);
      if (a->mode != GA_SOFTMAX_ACCURATE && a->mode != GA_SOFTMAX_LOG)
        return ga_err(GA_EINVAL, "unknown softmax algorithm %d", a->mode);
      if (a->mode2 != GA_SOFTMAX_INSTANCE && a->mode2 != GA_SOFTMAX_CHANNEL)
        return ga_err(GA_EINVAL, "unknown softmax mode %d", a->mode2);
    } else if (a->mode < GA_ACT_SIGMOID || a->mode > GA_ACT_SWISH || a->mode == 5) {
      return ga_err(GA_EINVAL, "unknown activation mode %d", a->mode);
    }
    c.ndim = 4;
    break;
  }
  case GA_DNN_BN_TRAIN:
  case GA_DNN_BN_INFER:
  case GA_DNN_BN_BWD: {
    const ga_array *x = A[GA_DT_X];
    nd = x->ndim;
    if (nd < 2) return ga_err(GA_EINVAL, "x must have 2 to 5 dims (N, C, ...), got %d", nd);
    const ga_array *o = a->op == GA_DNN_BN_BWD ? A[GA_DT_DY] : A[GA_DT_Y];
    if ((rc = want_shape(o, a->op == GA_DNN_BN_BWD ? GA_DT_DY : GA_DT_Y, nd, x->shape))) return rc;
    if (a->op == GA_DNN_BN_BWD && (rc = want_shape(A[GA_DT_DX], GA_DT_DX, nd, x->shape))) return rc;
    if (a->mode != GA_BN_SPATIAL && a->mode != GA_BN_PER_ACTIVATION)
      return ga_err(GA_EINVAL, "unknown batch normalization mode %d", a->mode);
    if (!(a->epsilon > 0)) return ga_err(GA_EINVAL, "epsilon must be > 0, got %g", a->epsilon);
    if (a->op == GA_DNN_BN_TRAIN && !(a->factor >= 0 && a->factor <= 1))
      return ga_err(GA_EINVAL, "exponential_average_factor must be in [0, 1], got %g", a->factor);
    if ((A[GA_DT_SMEAN] == NULL) != (A[GA_DT_SINV] == NULL))
      return ga_err(GA_EINVAL, "give both save_mean and save_inv_var, or neither");
    if ((A[GA_DT_MEAN] == NULL) != (A[GA_DT_VAR] == NULL))
      return ga_err(GA_EINVAL, "give both running_mean and running_var, or neither");
    int64_t pshape[GA_MAXDIM];
    int pnd;
    int64_t C = x->shape[user_dim(1, nd, a->nhwc)];
    if (a->mode == GA_BN_SPATIAL) {
      pnd = 1, pshape[0] = C;
    } else {
      pnd = nd - 1;
      memcpy(pshape, x->shape + 1, sizeof(int64_t) * (size_t)pnd);
    }
    for (int r = GA_DT_SCALE; r <= GA_DT_DBIAS; r++)
      if (A[r] && (rc = want_shape(A[r], r, pnd, pshape))) return rc;
    for (int r = GA_DT_MEAN; r <= GA_DT_VAR; r++)
      if (a->op == GA_DNN_BN_TRAIN && A[r] && !ga_is_c_contiguous(A[r]))
        return ga_err(GA_EINVAL, "%s (updated in place) must be C-contiguous", role_name[r]);
    c.ndim = nd == 5 ? 5 : 4;
    break;
  }
  case GA_DNN_ADD: {
    const ga_array *cc = A[GA_DT_Y], *aa = A[GA_DT_B];
    nd = cc->ndim;
    if (nd < 1) return ga_err(GA_EINVAL, "c must have 1 to 5 dims");
    if (aa->ndim != nd) return ga_err(GA_EINVAL, "a has %d dims but c %d (give a the same number, with 1s)", aa->ndim, nd);
    for (int d = 0; d < nd; d++)
      if (aa->shape[d] != cc->shape[d] && aa->shape[d] != 1) {
        char s1[160], s2[160];
        shape_str(aa, s1, sizeof s1), shape_str(cc, s2, sizeof s2);
        return ga_err(GA_EINVAL, "a %s does not broadcast to c %s (each dim equal or 1)", s1, s2);
      }
    c.ndim = nd == 5 ? 5 : 4;
    break;
  }
  default:
    return ga_err(GA_EINTERNAL, "unknown dnn op %d", a->op);
  }

  /* empty arrays: no work when every output is empty, else an error */
  for (int r = 0; r < GA_DT_N; r++)
    if (A[r] && A[r]->size == 0) {
      for (int o = 0; o < GA_DT_N; o++)
        if ((out & R(o)) && A[o] && A[o]->size > 0) return ga_err(GA_EINVAL, "%s is empty", role_name[r]);
      return GA_OK;
    }

  if (a->channels_first && a->nhwc) return run_channels_first(a);
  const ga_backend *be = ga_backend_of(dev);
  if (!be->dnn) return ga_err(GA_EDEVICE, "the %s backend has no cuDNN functions", be->name);
  if (dev != GA_CPU && (rc = ga_check_device(dev))) return rc;

  /* private C-contiguous copies of inputs that are not */
  ga_array tmp[GA_DT_N];
  const ga_array *use[GA_DT_N];
  int copied[GA_DT_N] = {0};
  memset(tmp, 0, sizeof tmp);
  for (int r = 0; r < GA_DT_N; r++) {
    use[r] = A[r];
    if (!A[r] || (out & R(r)) || ga_is_c_contiguous(A[r])) continue;
    if ((rc = ga_array_init(&tmp[r], dev, A[r]->dtype, A[r]->ndim, A[r]->shape, a->stream)) ||
        (copied[r] = 1, rc = ga_copy(&tmp[r], A[r], a->stream)))
      goto done;
    use[r] = &tmp[r];
  }

  for (int r = 0; r < GA_DT_N; r++) {
    const ga_array *x = use[r];
    if (!x) continue;
    ga_dnn_tensor *t = &c.t[r];
    switch (a->op) {
    case GA_DNN_ACT_FWD:
    case GA_DNN_ACT_BWD: {
      /* element-wise: the whole array as (1, 1, 1, size) */
      t->data = GA_DATA(x);
      t->dims[0] = t->dims[1] = t->dims[2] = 1, t->dims[3] = x->size;
      t->strides[0] = t->strides[1] = t->strides[2] = x->size, t->strides[3] = 1;
      break;
    }
    case GA_DNN_SOFTMAX_FWD:
    case GA_DNN_SOFTMAX_BWD: {
      /* (N, C, spatial collapsed, 1) */
      int64_t n = x->shape[0], ch = x->shape[user_dim(1, x->ndim, a->nhwc)], sp = 1;
      for (int d = 0; d < x->ndim - 2; d++) sp *= x->shape[user_dim(2 + d, x->ndim, a->nhwc)];
      t->data = GA_DATA(x);
      t->dims[0] = n, t->dims[1] = ch, t->dims[2] = sp, t->dims[3] = 1;
      t->strides[0] = ch * sp;
      if (a->nhwc) t->strides[1] = 1, t->strides[2] = ch, t->strides[3] = ch;
      else t->strides[1] = sp, t->strides[2] = 1, t->strides[3] = 1;
      break;
    }
    case GA_DNN_ADD: {
      /* user order, trailing 1s up to 4 dims */
      int64_t cs[GA_MAXDIM];
      ga_strides_c(x->ndim, x->shape, 1, cs);
      t->data = GA_DATA(x);
      for (int d = 0; d < x->ndim; d++) t->dims[d] = x->shape[d], t->strides[d] = cs[d];
      for (int d = x->ndim; d < c.ndim; d++) t->dims[d] = 1, t->strides[d] = 1;
      break;
    }
    default:
      if (r == GA_DT_W || r == GA_DT_DW) {
        canon_filter(x, a->nhwc, c.ndim, t);
      } else if (r == GA_DT_B) {
        canon_vec(x, c.ndim, x->shape[0], t);
      } else if (PARAMS & R(r)) {
        if (a->mode == GA_BN_SPATIAL) {
          canon_vec(x, c.ndim, x->shape[0], t);
        } else {
          /* (C, sp...) in the layout: a data tensor of N = 1 */
          ga_array v = *x;
          v.ndim = x->ndim + 1;
          v.shape[0] = 1, v.strides[0] = x->size * GA_ITEMSIZE(x->dtype);
          memcpy(v.shape + 1, x->shape, sizeof(int64_t) * (size_t)x->ndim);
          memcpy(v.strides + 1, x->strides, sizeof(int64_t) * (size_t)x->ndim);
          canon(&v, a->nhwc, c.ndim, t);
        }
      } else {
        canon(x, a->nhwc, c.ndim, t);
      }
    }
  }
  for (int r = 0; r < GA_DT_N; r++)
    if (c.t[r].data) {
      for (int d = 0; d < c.ndim; d++)
        if (c.t[r].strides[d] < 1) c.t[r].strides[d] = 1;   /* a size-1 dim's stride does not matter */
    }
  int unsup = 0;
  c.unsupported = &unsup;
  rc = be->dnn(&c);
  if (rc && unsup && a->nhwc) {
    /* the library has no channels-last kernel for this: run it on
     * channels-first copies (and copy the outputs back) */
    char msg[512];
    snprintf(msg, sizeof msg, "%s", ga_errmsg());
    int rc2 = run_channels_first(a);
    if (rc2 && !ga_errmsg()[0]) ga_err(rc2, "%s", msg);
    rc = rc2;
  }
done:
  for (int r = 0; r < GA_DT_N; r++)
    if (copied[r]) ga_array_release(&tmp[r]);
  return rc;
}

int ga_dnn_available(int dev, int *version) {
  const ga_backend *be = ga_backend_of(dev);
  if (!be->dnn_load) return ga_err(GA_EDEVICE, "the %s backend has no cuDNN functions", be->name);
  return be->dnn_load(version);
}
