/* The advanced-index plan (ga_gather.h): NumPy's rules for where the index
 * arrays' broadcast dimensions land, and the dispatch to the backends. */
#include "core/ga_gather.h"
#include "core/ga_backend.h"
#include "base/ga_checked.h"
#include <stdio.h>
#include <string.h>

static const char *const DTYPE_HINT = "arrays used as indices must be of integer (or boolean) type";

int ga_adv_prepare(const ga_array *x, const ga_index_item *items, int n, const ga_array *const *coords,
                   ga_adv *adv) {
  memset(adv, 0, sizeof *adv);
  if (n > 2 * GA_MAXDIM) return ga_err(GA_EINVAL, "too many indices");
  /* pass 1: count the axes consumed, check dtypes, find whether any array */
  int consumed = 0, ellipsis = -1, narr = 0;
  for (int k = 0; k < n; k++) {
    const ga_index_item *it = &items[k];
    if (it->kind == GA_IDX_INT || it->kind == GA_IDX_RANGE) consumed++;
    else if (it->kind == GA_IDX_ELLIPSIS) {
      if (ellipsis >= 0) return ga_err(GA_EINVAL, "an index can only have a single ellipsis");
      ellipsis = k;
    } else if (it->kind == GA_IDX_ARRAY) {
      const ga_array *a = it->arr;
      if (a->dtype == GA_BOOL) {   /* a mask is read through coords, on x's device */
        if (a->ndim == 0) return ga_err(GA_EINVAL, "a 0-d boolean index is not supported");
        if (!coords || !coords[k] || GA_DEVICE(coords[k]) != GA_DEVICE(x))
          return ga_err(GA_EINTERNAL, "mask without coordinates on the array's device");
        consumed += a->ndim;
        narr += a->ndim;
      } else if (!GA_IS_INT(a->dtype)) {
        return ga_err(GA_EINVAL, "%s, got %s", DTYPE_HINT, ga_dtypes[a->dtype].name);
      } else if (GA_DEVICE(a) != GA_DEVICE(x)) {
        return ga_err(GA_EINTERNAL, "index array on another device");
      } else {
        consumed++;
        narr++;
      }
    }
  }
  if (consumed > x->ndim)
    return ga_err(GA_EINVAL, "too many indices for array: array is %d-dimensional, but %d were indexed",
                  x->ndim, consumed);
  if (narr > GA_GATHER_MAXIDX) return ga_err(GA_EINVAL, "too many index arrays (%d at most)", GA_GATHER_MAXIDX);

  /* pass 2: basic items for the view (each array axis kept whole), the
   * view dimension of each index array, and NumPy's placement rule: the
   * advanced items (arrays, and integers when there is an array) stay in
   * place when they are adjacent in the key, else go first */
  ga_index_item basic[2 * GA_MAXDIM + GA_MAXDIM];
  memset(basic, 0, sizeof basic);
  int nb = 0, vd = 0, ax = 0, first_adv_dim = -1, status = -1;  /* -1 none, 0 in run, 1 after, 2 split */
  const ga_array *arrs[GA_GATHER_MAXIDX];
  int vdims[GA_GATHER_MAXIDX], axes[GA_GATHER_MAXIDX];
  int na = 0;
  for (int k = 0; k < n; k++) {
    const ga_index_item *it = &items[k];
    bool adv_item = it->kind == GA_IDX_ARRAY || (it->kind == GA_IDX_INT && narr > 0);
    if (adv_item) {
      if (status == -1) status = 0, first_adv_dim = vd;
      else if (status == 1) status = 2;
    } else if (status == 0) {
      status = 1;
    }
    switch (it->kind) {
    case GA_IDX_INT:
      basic[nb++] = *it;
      ax++;
      break;
    case GA_IDX_RANGE:
      basic[nb++] = *it;
      vd++, ax++;
      break;
    case GA_IDX_NEWAXIS:
      basic[nb++] = *it;
      vd++;
      break;
    case GA_IDX_ELLIPSIS: {
      basic[nb++] = *it;
      int fill = x->ndim - consumed;
      vd += fill, ax += fill;
      break;
    }
    case GA_IDX_ARRAY: {
      const ga_array *a = it->arr;
      int k_axes = a->dtype == GA_BOOL ? a->ndim : 1;
      for (int r = 0; r < k_axes; r++) {
        ga_index_item whole;
        memset(&whole, 0, sizeof whole);
        whole.kind = GA_IDX_RANGE;
        whole.step = 1;
        basic[nb++] = whole;
        if (a->dtype == GA_BOOL) {
          if (a->shape[r] != x->shape[ax])
            return ga_err(GA_EINVAL, "boolean index did not match indexed array along axis %d; size of axis is %lld "
                          "but size of corresponding boolean axis is %lld", ax + 1, (long long)x->shape[ax],
                          (long long)a->shape[r]);
          /* row r of the (k, nnz) coordinates */
          ga_array *row = &adv->rows[na];
          const ga_array *c = coords[k];
          *row = *c;
          row->ndim = 1;
          row->shape[0] = c->shape[1];
          row->strides[0] = c->strides[1];
          row->size = c->shape[1];
          row->offset = c->offset + r * c->strides[0];
          arrs[na] = row;
        } else {
          arrs[na] = a;
        }
        vdims[na] = vd, axes[na] = ax;
        na++, vd++, ax++;
      }
      break;
    }
    default:
      return ga_err(GA_EINTERNAL, "bad index item");
    }
  }
  adv->view = *x;
  int rc = ga_index_basic(x, basic, nb, &adv->view);
  if (rc) return rc;
  const ga_array *v = &adv->view;

  /* the index arrays broadcast together (NumPy's message) */
  int bnd = 0;
  int64_t bshape[GA_MAXDIM];
  for (int j = 0; j < na; j++) {
    const ga_array *a = arrs[j];
    if (a->ndim > bnd) {
      int sh = a->ndim - bnd;
      memmove(bshape + sh, bshape, sizeof(int64_t) * bnd);
      for (int d = 0; d < sh; d++) bshape[d] = 1;
      bnd = a->ndim;
    }
    for (int d = 0; d < a->ndim; d++) {
      int64_t *t = &bshape[bnd - a->ndim + d];
      if (*t == 1) *t = a->shape[d];
      else if (a->shape[d] != 1 && a->shape[d] != *t) goto mismatch;
    }
  }

  /* the selection: view dims before the block, the block, the rest */
  int nv = v->ndim;
  bool isidx[GA_MAXDIM] = {false};
  for (int j = 0; j < na; j++) isidx[vdims[j]] = true;
  int at = status == 2 || first_adv_dim < 0 ? 0 : first_adv_dim;
  if (na == 0) at = 0;
  int nd = 0;
  if (nv - na + bnd > GA_MAXDIM) return ga_err(GA_EINVAL, "the result would have more than %d dimensions", GA_MAXDIM);
  int blk = -1;
  for (int d = 0; d <= nv; d++) {
    if (d == at && na > 0) {
      blk = nd;
      for (int b = 0; b < bnd; b++) adv->shape[nd] = bshape[b], adv->xstrides[nd++] = 0;
    }
    if (d == nv) break;
    if (isidx[d]) continue;
    adv->shape[nd] = v->shape[d], adv->xstrides[nd++] = v->strides[d];
  }
  adv->ndim = nd;
  /* index arrays may be broadcast views: their block times the other
   * dims can exceed int64 */
  adv->size = 1;
  for (int d = 0; d < nd; d++)
    if (!ga_mul_i64(adv->size, adv->shape[d], &adv->size)) return ga_err(GA_EINVAL, GA_TOO_BIG);
  adv->nidx = na;
  for (int j = 0; j < na; j++) {
    ga_gather_idx *g = &adv->idx[j];
    const ga_array *a = arrs[j];
    g->data = GA_DATA(a);
    g->dtype = a->dtype;
    g->n = v->shape[vdims[j]];
    g->stride = v->strides[vdims[j]];
    g->axis = axes[j];
    for (int b = 0; b < bnd; b++) {
      int d = b - (bnd - a->ndim);
      g->strides[blk + b] = d < 0 || a->shape[d] == 1 ? 0 : a->strides[d];
    }
  }
  return GA_OK;

mismatch: {
    char msg[1024], sb[160];
    size_t len = 0;
    for (int j = 0; j < na && len < sizeof msg - 200; j++)
      len += (size_t)snprintf(msg + len, sizeof msg - len, " %s", ga_shape_str(arrs[j]->ndim, arrs[j]->shape, sb, sizeof sb));
    return ga_err(GA_EINVAL, "shape mismatch: indexing arrays could not be broadcast together with shapes%s", msg);
  }
}

static int run(const ga_gather_call *c) {
  /* the host checks the indices even when the selection is empty */
  return ga_backend_of(c->device)->gather(c);
}

int ga_adv_get(const ga_adv *adv, ga_array *out, void *stream) {
  ga_gather_call c;
  memset(&c, 0, sizeof c);
  c.adv = adv;
  c.mode = GA_GATHER_GET;
  c.x = GA_DATA(&adv->view);
  c.dtype = adv->view.dtype;
  c.v = GA_DATA(out);
  if (out->ndim != adv->ndim || out->dtype != c.dtype) return ga_err(GA_EINTERNAL, "gather: bad output");
  memcpy(c.vstrides, out->strides, sizeof(int64_t) * out->ndim);
  c.device = GA_DEVICE(&adv->view);
  c.stream = stream;
  return run(&c);
}

int ga_adv_set(const ga_adv *adv, const ga_array *v, int add, void *stream) {
  if (ga_check_writable(&adv->view)) return ga_errcode();
  ga_gather_call c;
  memset(&c, 0, sizeof c);
  c.adv = adv;
  c.mode = add ? GA_GATHER_ADD : GA_GATHER_SET;
  c.x = GA_DATA(&adv->view);
  c.dtype = adv->view.dtype;
  c.device = GA_DEVICE(&adv->view);
  c.stream = stream;
  if (v->dtype != c.dtype || GA_DEVICE(v) != c.device) return ga_err(GA_EINTERNAL, "scatter: bad value");
  /* NumPy drops the value's leading length-1 axes beyond the selection's */
  int vd = v->ndim, skip = 0;
  while (vd - skip > adv->ndim && v->shape[skip] == 1) skip++;
  bool ok = vd - skip <= adv->ndim;
  for (int d = 0; ok && d < vd - skip; d++) {
    int64_t s = v->shape[skip + d], t = adv->shape[adv->ndim - (vd - skip) + d];
    ok = s == 1 || s == t;
  }
  if (!ok) {
    char b1[160], b2[160];
    return ga_err(GA_EINVAL, "could not broadcast input array from shape %s into shape %s",
                  ga_shape_str(v->ndim, v->shape, b1, sizeof b1), ga_shape_str(adv->ndim, adv->shape, b2, sizeof b2));
  }
  for (int d = 0; d < adv->ndim; d++) {
    int e = d - (adv->ndim - (vd - skip));
    c.vstrides[d] = e < 0 || v->shape[skip + e] == 1 ? 0 : v->strides[skip + e];
  }
  c.v = GA_DATA(v);
  return run(&c);
}

/* Walk a mask in C order, calling back with each true element's index. */
int64_t ga_mask_count(const ga_array *m) {
  int64_t count = 0, coord[GA_MAXDIM] = {0};
  if (m->size == 0) return 0;
  const char *p = GA_DATA(m);
  for (int64_t i = 0; i < m->size; i++) {
    count += *p != 0;
    for (int d = m->ndim - 1; d >= 0; d--) {   /* odometer */
      p += m->strides[d];
      if (++coord[d] < m->shape[d]) break;
      p -= m->strides[d] * m->shape[d];
      coord[d] = 0;
    }
  }
  return count;
}

void ga_mask_coords(const ga_array *m, ga_array *out) {
  int64_t coord[GA_MAXDIM] = {0}, k = 0, nnz = out->shape[1];
  if (m->size == 0) return;
  const char *p = GA_DATA(m);
  int64_t *o = (int64_t *)GA_DATA(out);
  for (int64_t i = 0; i < m->size; i++) {
    if (*p && k < nnz) {
      for (int d = 0; d < m->ndim; d++) o[d * nnz + k] = coord[d] + 1;
      k++;
    }
    for (int d = m->ndim - 1; d >= 0; d--) {
      p += m->strides[d];
      if (++coord[d] < m->shape[d]) break;
      p -= m->strides[d] * m->shape[d];
      coord[d] = 0;
    }
  }
}
