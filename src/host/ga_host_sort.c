/* Sorting and searching on the host (ga_sort.h): each row's elements
 * become (key, position) pairs that a stable bottom-up merge sort orders;
 * binary search on the same keys.  The reference for the GPU results; the
 * keys (ga_sort_key_of, base/ga_sort_key.c) are NumPy's order, which
 * ga_cuda_sort.c writes again in CUDA C. */
#include "host/ga_host.h"
#include <stdlib.h>
#include <string.h>

typedef struct entry {
  ga_sort_key k;
  int64_t i;
} entry;

static int key_lt(const ga_sort_key *a, const ga_sort_key *b) {
  if (a->w2 != b->w2) return a->w2 < b->w2;
  if (a->w1 != b->w1) return a->w1 < b->w1;
  return a->w0 < b->w0;
}

/* Stable: on equal keys the left run's element goes first. */
static void merge_sort(entry *a, entry *tmp, int64_t n) {
  entry *from = a, *to = tmp;
  for (int64_t w = 1; w < n; w *= 2) {
    for (int64_t lo = 0; lo < n; lo += 2 * w) {
      int64_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
      int64_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi) to[k++] = key_lt(&from[j].k, &from[i].k) ? from[j++] : from[i++];
      while (i < mid) to[k++] = from[i++];
      while (j < hi) to[k++] = from[j++];
    }
    entry *t = from; from = to; to = t;
  }
  if (from != a) memcpy(a, from, (size_t)n * sizeof *a);
}

int ga_host_sort(const ga_sort_call *c) {
  int64_t n = c->n;
  size_t isz = (size_t)GA_ITEMSIZE(c->dtype);
  entry *e = malloc((size_t)n * 2 * sizeof *e);
  if (!e) return ga_err(GA_ENOMEM, "out of memory sorting %lld elements on the host", (long long)n);
  for (int64_t r = 0; r < c->nrows; r++) {
    const char *src = c->src + (size_t)(r * n) * isz;
    for (int64_t i = 0; i < n; i++) e[i].k = ga_sort_key_of(src + (size_t)i * isz, c->dtype), e[i].i = i;
    merge_sort(e, e + n, n);
    if (c->dst) {   /* NULL: argsort wants the positions only */
      char *dst = c->dst + (size_t)(r * n) * isz;
      for (int64_t i = 0; i < n; i++) memcpy(dst + (size_t)i * isz, src + (size_t)e[i].i * isz, isz);
    }
    if (c->idx)
      for (int64_t i = 0; i < n; i++) c->idx[r * n + i] = e[i].i + 1;
  }
  free(e);
  return GA_OK;
}

int ga_host_searchsorted(const ga_search_call *c) {
  size_t isz = (size_t)GA_ITEMSIZE(c->dtype);
  for (int64_t j = 0; j < c->m; j++) {
    ga_sort_key kv = ga_sort_key_of(c->v + (size_t)j * isz, c->dtype);
    int64_t lo = 0, hi = c->n;   /* the answer is in [lo, hi] */
    while (lo < hi) {
      int64_t mid = lo + (hi - lo) / 2;
      ga_sort_key ka = ga_sort_key_of(c->a + (size_t)mid * isz, c->dtype);
      /* left: go right while a[mid] < v; right: while a[mid] <= v */
      int go_right = c->right ? !key_lt(&kv, &ka) : key_lt(&ka, &kv);
      if (go_right) lo = mid + 1;
      else hi = mid;
    }
    c->out[j] = lo + 1;
  }
  return GA_OK;
}
