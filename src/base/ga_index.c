/* Basic indexing as view geometry (ga_index.h). */
#include "base/ga_index.h"
#include "base/ga_checked.h"

void ga_index_range(int64_t n, const ga_index_item *r, int64_t *first, int64_t *count) {
  int64_t step = r->step;
  /* 1-based inclusive bounds to 0-based; negatives count from the end */
  int64_t s = r->has_start ? (r->start > 0 ? r->start - 1 : n + r->start) : (step > 0 ? 0 : n - 1);
  int64_t e = r->has_stop ? (r->stop > 0 ? r->stop - 1 : n + r->stop) : (step > 0 ? n - 1 : 0);
  int64_t c;
  if (step > 0) {
    if (s < 0) s = 0;
    if (e > n - 1) e = n - 1;
    c = (s >= n || e < s) ? 0 : (e - s) / step + 1;
  } else {
    if (s > n - 1) s = n - 1;
    if (e < 0) e = 0;
    /* (s - e) / step, not / -step: -INT64_MIN overflows */
    c = (s < 0 || e > s) ? 0 : -((s - e) / step) + 1;
  }
  *first = c > 0 ? s : 0;
  *count = c;
}

int ga_index_int(int64_t n, int64_t i, int axis, int64_t *out) {
  int64_t j = i > 0 ? i - 1 : n + i;
  if (i == 0 || j < 0 || j >= n)
    return ga_err(GA_EINVAL, "index %lld is out of bounds for axis %d with size %lld "
                  "(indices are 1-based; negative ones count from the end)",
                  (long long)i, axis + 1, (long long)n);
  *out = j;
  return GA_OK;
}

int ga_index_basic(const ga_array *a, const ga_index_item *items, int n, ga_array *v) {
  int consumed = 0, ellipsis = -1;
  for (int k = 0; k < n; k++) {
    if (items[k].kind == GA_IDX_INT || items[k].kind == GA_IDX_RANGE) consumed++;
    else if (items[k].kind == GA_IDX_ELLIPSIS) {
      if (ellipsis >= 0) return ga_err(GA_EINVAL, "an index can only have a single ellipsis");
      ellipsis = k;
    } else if (items[k].kind == GA_IDX_ARRAY) {
      return ga_err(GA_EINTERNAL, "basic indexing given an index array");
    }
  }
  if (consumed > a->ndim)
    return ga_err(GA_EINVAL, "too many indices for array: array is %d-dimensional, but %d were indexed",
                  a->ndim, consumed);
  int64_t shape[GA_MAXDIM], strides[GA_MAXDIM], offset = a->offset;
  int nd = 0, ax = 0;
  for (int k = 0; k <= n; k++) {
    /* the ellipsis (or the end of the key) stands for the axes not indexed */
    if (k == n || k == ellipsis) {
      int fill = a->ndim - consumed;
      consumed = a->ndim;   /* only once */
      for (int f = 0; f < fill; f++, ax++) {
        if (nd >= GA_MAXDIM) goto toomany;
        shape[nd] = a->shape[ax], strides[nd++] = a->strides[ax];
      }
      continue;
    }
    const ga_index_item *it = &items[k];
    if (it->kind == GA_IDX_NEWAXIS) {
      if (nd >= GA_MAXDIM) goto toomany;
      shape[nd] = 1, strides[nd++] = 0;
    } else if (it->kind == GA_IDX_INT) {
      int64_t j = 0;   /* set by ga_index_int on success (gcc cannot see it) */
      int rc = ga_index_int(a->shape[ax], it->i, ax, &j);
      if (rc) return rc;
      offset += j * a->strides[ax++];
    } else {
      if (it->step == 0) return ga_err(GA_EINVAL, "a range's step cannot be zero");
      int64_t first, count;
      ga_index_range(a->shape[ax], it, &first, &count);
      if (nd >= GA_MAXDIM) goto toomany;
      offset += first * a->strides[ax];
      /* NumPy's stride * step.  An axis of one element or none keeps the
       * axis's own stride: any stride will do there, and a huge step's
       * product (overflowing, or far outside the buffer) would make the
       * loops' pointer steps past the last element undefined. */
      int64_t st = a->strides[ax];
      if (count > 1 && !ga_mul_i64(a->strides[ax], it->step, &st)) return ga_err(GA_EINVAL, GA_TOO_BIG);
      shape[nd] = count, strides[nd++] = st;
      ax++;
    }
  }
  v->offset = offset;
  ga_array_set_geometry(v, nd, shape, strides);
  return GA_OK;
toomany:
  return ga_err(GA_EINVAL, "the result would have more than %d dimensions", GA_MAXDIM);
}
