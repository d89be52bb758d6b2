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

/* ---- what a backend receives ---- */
typedef struct ga_scan_call {
  const ga_red_op *op;
  int T, acc, out_dtype;   /* input (of dtype T), accumulator, output */
  const char *in;          /* C-contiguous (outer, n, inner), dtype T */
  char *out;               /* C-contiguous (outer, n, inner), out_dtype; may be `in` when
                              T and out_dtype have one size */
  int64_t outer, n, inner; /* each > 0 */
  int device;
  void *stream;
} ga_scan_call;

int ga_host_scan(const ga_scan_call *c);
int ga_cuda_scan(const ga_scan_call *c);
/* The CUDA sources of a scan call's kernels (for the NVRTC compile specs):
 * pass 1 (chunk totals), 2 (scan of the totals), 3 (the scan); *name gets
 * the kernel's name.  NULL when the call does not use that pass. */
char *ga_cuda_scan_source(const ga_scan_call *c, int pass, const char **name);

/* ---- nonzero ---- */
/* The positions of x's true (non-zero) elements, in C order: a new int64
 * array *out (on x's device) of shape (count, ndim) when transposed is
 * false (argwhere), (ndim, count) when true (nonzero's rows); positions are
 * 1-based.  flat: positions in x flattened (ndim taken as 1).  A 0-d x
 * counts as one element and gives (count, 0) / (0, count).  Synchronises
 * x's device once (the count decides the size). */
int ga_nonzero_run(const ga_array *x, bool flat, bool transposed, void *stream, ga_array *out);

/* What a backend receives: flags (n bytes, non-zero = true, C order of the
 * shape), and either count (pass 0: *count = the number of true flags) or
 * scatter into out (pass 1: position k (1-based) of the j-th true element
 * at out + j * s0 + k * s1 bytes, int64). */
typedef struct ga_nz_call {
  const unsigned char *flags;
  int64_t n;
  int ndim;
  int64_t shape[GA_MAXDIM];
  int64_t *out;
  int64_t s0, s1;        /* byte strides of out (see above) */
  int device;
  void *stream;
} ga_nz_call;

int ga_host_nonzero_count(const ga_nz_call *c, int64_t *count);
int ga_host_nonzero_fill(const ga_nz_call *c);
/* The CUDA version keeps a per-call scratch (tile offsets) between the two
 * steps: count fills *scratch, fill consumes and frees it. */
int ga_cuda_nonzero_count(const ga_nz_call *c, int64_t *count, ga_buffer **scratch);
int ga_cuda_nonzero_fill(const ga_nz_call *c, ga_buffer *scratch);
char *ga_cuda_nonzero_source(int pass, const char **name);

#endif
