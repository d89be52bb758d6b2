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
#include "base/ga_calls.h"

/* Dispatch on the device (size 0 does nothing). */
int ga_sort_rows(const ga_sort_call *c);
int ga_searchsorted(const ga_search_call *c);

#endif
