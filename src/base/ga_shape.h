/* Shape geometry for the views of shape manipulation (reshape, transpose,
 * flip, squeeze, expand_dims, broadcast_to): each edits a ga_array's
 * shape/strides/offset in place and never touches data.  No Lua.  Axes
 * here are 0-based; ga_axis converts the API's 1-based/negative ones. */
#ifndef GA_SHAPE_H
#define GA_SHAPE_H
#include "base/ga_array.h"

/* 1-based axis (negative from the end) of an ndim-array -> 0-based. */
int ga_axis(int64_t axis, int ndim, int *out);
/* Resolve one -1 in shape (ndim entries) so that its size is `size`; the
 * bytes (itemsize each) must fit int64 as for a new array. */
int ga_reshape_resolve(int64_t size, int itemsize, int ndim, int64_t *shape);
/* Strides that let `a` be seen with (ndim, shape) (same size) without a
 * copy, reading elements in C (fortran = false) or F order; false when
 * the strides do not allow it (NumPy's _attempt_nocopy_reshape). */
bool ga_reshape_nocopy(const ga_array *a, int ndim, const int64_t *shape, bool fortran,
                       int64_t *strides);
void ga_strides_f(int ndim, const int64_t *shape, int itemsize, int64_t *strides);
/* Reorder v's axes: new axis i is old axis perm[i]; perm must be a
 * permutation of 0..ndim-1 (else an error). */
int ga_permute(ga_array *v, const int *perm);
/* Reverse axis `axis` (negative stride, offset to the old last element). */
void ga_flip(ga_array *v, int axis);
/* Drop the axes with drop[i] set; they must have length 1. */
int ga_squeeze(ga_array *v, const bool *drop);
/* Insert length-1 axes where isnew[i] is set (i < ndim_out). */
int ga_expand(ga_array *v, int ndim_out, const bool *isnew);
/* Broadcast v to (ndim, shape) with zero strides; NumPy's one-way rule. */
int ga_broadcast_to(ga_array *v, int ndim, const int64_t *shape);

/* Dimension collapsing, for every pipeline (elementwise, ElementwiseKernel,
 * reductions, ReductionKernel): merge neighbouring axes that every operand
 * walks as one (stride[outer] == stride[inner] * shape[inner]), and drop
 * length-1 axes when drop1, so that the C-order walk of the loop stays the
 * same with fewer index divisions.  st[k] is operand k's byte strides, edited
 * in place with shape; NULL for an operand that takes no part (a scalar, a
 * raw array).  Returns the new ndim, at least 1: nothing left is one axis
 * of length 1 with zero strides.  No allocation: this runs on every call. */
int ga_collapse(int ndim, int64_t *shape, int nops, int64_t *const *st, bool drop1);

/* How an operand walks a collapsed loop (ndim, shape) with strides st. */
enum { GA_WALK_CONTIG, GA_WALK_BCAST, GA_WALK_STRIDED };
static inline int ga_walk(int ndim, const int64_t *shape, const int64_t *st, int itemsize) {
  bool zero = true;
  for (int i = 0; i < ndim; i++) zero = zero && (st[i] == 0 || shape[i] == 1);
  if (zero) return GA_WALK_BCAST;   /* one element */
  return ndim == 1 && st[0] == itemsize ? GA_WALK_CONTIG : GA_WALK_STRIDED;
}

#endif
