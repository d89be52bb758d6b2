/* Basic indexing (NumPy's ints, slices, newaxis, Ellipsis) as geometry: a
 * key of items applied to an array gives a view (same buffer, new shape,
 * strides, offset).  1-based indices and inclusive ranges, negatives from
 * the end (DESIGN.md).  No Lua, no backend. */
#ifndef GA_INDEX_H
#define GA_INDEX_H
#include "base/ga_array.h"

enum { GA_IDX_INT, GA_IDX_RANGE, GA_IDX_NEWAXIS, GA_IDX_ELLIPSIS, GA_IDX_ARRAY };

typedef struct ga_index_item {
  int kind;
  int64_t i;                      /* INT: 1-based, negative from the end */
  int64_t start, stop, step;      /* RANGE: inclusive bounds, step != 0 */
  bool has_start, has_stop;       /* RANGE: a missing bound is the axis end */
  const ga_array *arr;            /* ARRAY: an index array or mask (advanced) */
} ga_index_item;

/* One axis of length n under a range: first element (0-based) and count.
 * Bounds past the ends clamp, as Python slices do. */
void ga_index_range(int64_t n, const ga_index_item *r, int64_t *first, int64_t *count);
/* An integer index on an axis of length n, 0-based; error when outside. */
int ga_index_int(int64_t n, int64_t i, int axis, int64_t *out);
/* Apply n basic items (no ARRAY) to a: v gets a view's geometry (buf is not
 * touched: the caller makes v a view of a first).  At most one ELLIPSIS;
 * errors: too many indices, index out of range, a zero step. */
int ga_index_basic(const ga_array *a, const ga_index_item *items, int n, ga_array *v);

#endif
