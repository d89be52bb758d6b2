/* Scans (cumsum cumprod nancumsum nancumprod: the rows of ga_reduce.def
 * flagged GA_REDF_SCAN, run along one axis) and nonzero selection (count,
 * exclusive scan, scatter).  The call pipeline: resolve the dtypes, bring
 * the input to a C-contiguous array of the loop dtype (a copy only when it
 * is not one already), hand a ga_scan_call to the backend of its device,
 * cast into the caller's output when that is not the C-contiguous result
 * itself.  No Lua. */
#ifndef GA_SCAN_H
#define GA_SCAN_H
#include "base/ga_array.h"
#include "core/ga_reduce.h"

/* The loop (T), accumulator and output dtypes of a scan of an x of dtype
 * xdt; dtype_req >= 0 is NumPy's dtype= (then the output has that dtype,
 * the accumulator ga_red_acc_dtype's: float16 accumulates in float32).
 * Errors: the row is not a scan, or has no loop for T. */
int ga_scan_dtypes(const ga_red_op *op, int xdt, int dtype_req, int *T, int *acc, int *out_dtype);

/* out = the scan of x along 0-based `axis` (axis < 0: x flattened in C
 * order; out then is 1-D of x's size), with loop dtype dtype_req (< 0: the
 * row's default).  out has x's shape (or (size,)), any dtype and strides,
 * on x's device; it may be x itself. */
int ga_scan_run(const ga_red_op *op, const ga_array *x, int axis, int dtype_req, ga_array *out, void *stream);

/* ---- nonzero ---- */
/* The positions of x's true (non-zero) elements, in C order: a new int64
 * array *out (on x's device) of shape (count, ndim) when transposed is
 * false (argwhere), (ndim, count) when true (nonzero's rows); positions are
 * 1-based.  flat: positions in x flattened (ndim taken as 1).  A 0-d x
 * counts as one element and gives (count, 0) / (0, count).  Synchronises
 * x's device once (the count decides the size). */
int ga_nonzero_run(const ga_array *x, bool flat, bool transposed, void *stream, ga_array *out);

#endif
