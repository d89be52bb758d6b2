/* Reductions (rows in ga_reduce.def) and their call pipeline: normalise the
 * axes, resolve the dtypes, collapse dimensions, hand a ga_red_call to the
 * backend of the input's device.  No Lua. */
#ifndef GA_REDUCE_H
#define GA_REDUCE_H
#include "base/ga_array.h"
#include "base/ga_calls.h"
#include "base/ga_ops.h"
#include <stdbool.h>

/* ---- the pipeline ---- */
typedef struct ga_red_plan {
  const ga_red_op *op;
  int T;                          /* input loop dtype (the input is cast to it) */
  int acc, out_dtype;             /* accumulator dtype; the row's output dtype */
  int ndim;                       /* of the input */
  int64_t shape[GA_MAXDIM];
  bool reduced[GA_MAXDIM];        /* per input axis */
  int out_ndim;                   /* with keepdims applied */
  int64_t out_shape[GA_MAXDIM];
  int64_t nred;                   /* elements per output (1 for a 0-d reduction) */
  int device;
} ga_red_plan;

/* Resolve a reduction of x over the given 0-based axes (naxes < 0: every
 * axis; axes already normalised, checked for repeats by ga_red_axes).
 * dtype_req >= 0 (sum, prod, mean ...): the loop dtype (NumPy's dtype=).
 * Errors: the row has no loop for x's dtype; an empty reduction of a row
 * without identity (named as NumPy: "zero-size array to reduction operation
 * maximum which has no identity"). */
int ga_red_prepare(const ga_red_op *op, const ga_array *x, int naxes, const int *axes, bool keepdims,
                   int dtype_req, ga_red_plan *plan);
/* Normalise 1-based axes (negative from the end) into 0-based ones (the
 * errors of ga_axis, and "repeated axis 2"). */
int ga_red_axes(int ndim, int naxes, const int64_t *axes1, int *axes0);
/* Run: `out` has plan->out_dtype and plan->out_shape (any strides, same
 * device). */
int ga_red_run(const ga_red_plan *plan, const ga_array *x, ga_array *out, void *stream);

#endif
