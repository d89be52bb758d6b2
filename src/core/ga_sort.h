/* Sorting and searching (ga.sort, argsort, searchsorted; lexsort,
 * partition and unique are composed of these in lua/gpuarray/sort.lua).
 * No Lua.  The binding (lga_sort.c) lays the data out: the axis to sort
 * moved last and made C-contiguous, so that a call sorts `nrows` rows of
 * `n` consecutive elements.
 *
 * The order is NumPy's: stable; -0.0 and +0.0 equal; NaN after every
 * number (NaNs equal to each other); complex lexicographic (real, then
 * imaginary) with the NaN classes last in NumPy's order
 * [R + Rj, R + nanj, nan + Rj, nan + nanj].  Both backends map each element
 * to the same order-preserving unsigned key (ga_sort_key): the host sorts
 * the keys, the GPU radix-sorts their bytes, so that they agree exactly. */
#ifndef GA_SORT_H
#define GA_SORT_H
#include "base/ga_array.h"

/* Sort nrows rows of n elements of `dtype` from src into dst (both
 * C-contiguous, distinct); with idx != NULL also write, for each output
 * element, its 1-based position in its input row (int64): argsort. */
typedef struct ga_sort_call {
  int device;
  void *stream;
  int dtype;
  int64_t nrows, n;
  const char *src;
  char *dst;
  int64_t *idx;
} ga_sort_call;

/* Insertion points: for each of the m values v (C-contiguous, dtype) the
 * 1-based position in sorted a (n elements, C-contiguous, same dtype) where
 * it would go: before the first element not less than it (left) or not
 * less or equal (right); int64 into out. */
typedef struct ga_search_call {
  int device;
  void *stream;
  int dtype;
  const char *a;
  int64_t n;
  const char *v;
  int64_t m;
  int64_t *out;
  int right;
} ga_search_call;

/* Key of an element: the order of (w2, w1, w0) as unsigned integers is the
 * sort order.  Bytes of the key that matter: ga_sort_key_bytes. */
typedef struct ga_sort_key { uint64_t w2, w1, w0; } ga_sort_key;
ga_sort_key ga_sort_key_of(const void *p, int dtype);
int ga_sort_key_bytes(int dtype);

/* Dispatch on the device (size 0 does nothing). */
int ga_sort_rows(const ga_sort_call *c);
int ga_searchsorted(const ga_search_call *c);

/* Backends */
int ga_host_sort(const ga_sort_call *c);
int ga_host_searchsorted(const ga_search_call *c);
int ga_cuda_sort(const ga_sort_call *c);
int ga_cuda_searchsorted(const ga_search_call *c);

/* Kernel sources (specs compile them with NVRTC, no GPU needed).  which:
 * 0 histogram, 1 scatter, 2-4 the prefix sum's reduce / parts / down-sweep,
 * 5 searchsorted.  big: 64-bit positions,
 * counts and payloads.  pay_in: 0 none, 1 the element's position, 2 read;
 * pay_out: 0 none, 1 written, 2 final (1-based int64 position in its row). */
char *ga_cuda_sort_source(int which, int dtype, int big, int pay_in, int pay_out);

#endif
