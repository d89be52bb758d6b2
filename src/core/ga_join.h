/* Shape helpers of joining, splitting and item selection (lga_join.c,
 * lga_select.c): non-owning views (axes: ga_axis, ga_shape.h).  No Lua.
 *
 * A "temporary view" here is a struct copy of an array with another shape,
 * strides or offset; it does not take a buffer reference, so it may only be
 * handed to ga_copy/ga_fill while the array it came from is alive. */
#ifndef GA_JOIN_H
#define GA_JOIN_H
#include "base/ga_array.h"
#include "base/ga_shape.h"

static inline int64_t ga_shape_prod(int ndim, const int64_t *shape) {
  int64_t s = 1;
  for (int i = 0; i < ndim; i++) s *= shape[i];
  return s;
}

/* Temporary view of `a` restricted to [start, start+len) along `axis`. */
static inline ga_array ga_tmp_slice(const ga_array *a, int axis, int64_t start, int64_t len) {
  ga_array v = *a;
  v.offset += start * a->strides[axis];
  v.shape[axis] = len;
  v.size = ga_shape_prod(v.ndim, v.shape);
  return v;
}

/* Temporary view of `a` at index i of `axis`, that axis removed. */
static inline ga_array ga_tmp_index(const ga_array *a, int axis, int64_t i) {
  ga_array v = *a;
  v.offset += i * a->strides[axis];
  for (int k = axis; k + 1 < a->ndim; k++) {
    v.shape[k] = a->shape[k + 1];
    v.strides[k] = a->strides[k + 1];
  }
  v.ndim = a->ndim - 1;
  v.size = ga_shape_prod(v.ndim, v.shape);
  return v;
}

/* Temporary view of 1-D `a` (any stride) seen with shape (ndim, shape) in
 * C order: the elements of a, in order, laid out as that shape. */
static inline ga_array ga_tmp_unflatten(const ga_array *a, int ndim, const int64_t *shape) {
  ga_array v = *a;
  int64_t s = a->ndim ? a->strides[0] : GA_ITEMSIZE(a->dtype);
  v.ndim = ndim;
  for (int i = ndim - 1; i >= 0; i--) {
    v.shape[i] = shape[i];
    v.strides[i] = s;
    s *= shape[i];
  }
  v.size = ga_shape_prod(ndim, shape);
  return v;
}

#endif
