/* Advanced indexing (NumPy's integer index arrays and boolean masks) as a
 * plan: which elements of x a key selects, in which order and shape.  The
 * plan is one loop over the selection: each selection dimension moves x (a
 * basic-indexed view) by a byte stride, and each index array by its own
 * (broadcast) stride; after the walk the index values are read, checked and
 * added as index * stride of their axis.  Gather (x[key]), scatter
 * (x[key] = v) and scatter-add (add_at) all run on that plan.  No Lua, no
 * CUDA: the backends are ga_host_gather.c and ga_cuda_gather.c. */
#ifndef GA_GATHER_H
#define GA_GATHER_H
#include "base/ga_calls.h"

/* Plan items[0..n) on x.  Each ARRAY item is an integer index array
 * (1-based, negatives from the end) or a boolean mask; for a mask at key
 * position p, coords[p] is a (k, nnz) int64 array on x's device holding the
 * 1-based coordinates of its true elements (ga_mask_coords), k = the mask's
 * ndim.  Every array must be on x's device.  Errors: a float index array,
 * a mask whose shape differs from the axes it covers, too many indices,
 * index arrays that do not broadcast, an integer out of range. */
int ga_adv_prepare(const ga_array *x, const ga_index_item *items, int n, const ga_array *const *coords,
                   ga_adv *adv);

/* out = x[key] (a new array of adv->shape, x's dtype, on x's device). */
int ga_adv_get(const ga_adv *adv, ga_array *out, void *stream);
/* x[key] = v, or x[key] += v with repeated positions accumulating (add).
 * v has x's dtype and broadcasts to the selection (NumPy drops its leading
 * length-1 axes beyond the selection's).  v must not share x's memory, nor
 * may an index array (the caller copies them). */
int ga_adv_set(const ga_adv *adv, const ga_array *v, int add, void *stream);

/* A boolean mask (host, any strides): the number of true elements, and,
 * with out != NULL, their 1-based coordinates in C order into out, a
 * C-contiguous (mask->ndim, count) int64 host array. */
int64_t ga_mask_count(const ga_array *mask);
void ga_mask_coords(const ga_array *mask, ga_array *out);

#endif
