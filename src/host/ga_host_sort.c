/* Sorting and searching on the host (ga_sort.h): each row's elements
 * become (key, position) pairs that a stable bottom-up merge sort orders;
 * binary search on the same keys.  The reference for the GPU results; the
 * keys (ga_sort_key_of) are NumPy's order, which ga_cuda_sort.c writes
 * again in CUDA C. */
#include "core/ga_sort.h"
#include <stdlib.h>
#include <string.h>

/* Floats: NaN the largest key, -0 as +0, negatives inverted, positives with
 * the sign bit set, so that unsigned order is numeric order. */
static uint64_t fkey(uint64_t bits, int width, int isnan_, int iszero) {
  uint64_t sign = (uint64_t)1 << (width - 1), all = width == 64 ? ~(uint64_t)0 : (sign << 1) - 1;
  if (isnan_) return all;
  if (iszero) bits = 0;
  return bits & sign ? ~bits & all : bits | sign;
}

static uint64_t f32key(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return fkey(u, 32, f != f, f == 0);
}

static uint64_t f64key(double f) {
  uint64_t u;
  memcpy(&u, &f, 8);
  return fkey(u, 64, f != f, f == 0);
}

/* NumPy's complex order: class (NaN in real: 2, NaN in imaginary: 1), then
 * by (real, imaginary) for finite ones, by real for R + nanj, by imaginary
 * for nan + Rj. */
static ga_sort_key ckey(double re, double im, uint64_t kre, uint64_t kim, int width) {
  ga_sort_key k = {0, 0, 0};
  int cls = (re != re) * 2 + (im != im);
  uint64_t a = cls == 0 || cls == 1 ? kre : cls == 2 ? kim : 0, b = cls == 0 ? kim : 0;
  if (width == 32) k.w1 = (uint64_t)cls, k.w0 = a << 32 | b;
  else k.w2 = (uint64_t)cls, k.w1 = a, k.w0 = b;
  return k;
}

ga_sort_key ga_sort_key_of(const void *p, int dt) {
  ga_sort_key k = {0, 0, 0};
  switch (dt) {
  case GA_BOOL: k.w0 = *(const uint8_t *)p != 0; break;
  case GA_UINT8: k.w0 = *(const uint8_t *)p; break;
  case GA_UINT16: k.w0 = *(const uint16_t *)p; break;
  case GA_UINT32: k.w0 = *(const uint32_t *)p; break;
  case GA_UINT64: k.w0 = *(const uint64_t *)p; break;
  case GA_INT8: k.w0 = (uint8_t)(*(const uint8_t *)p ^ 0x80u); break;
  case GA_INT16: k.w0 = (uint16_t)(*(const uint16_t *)p ^ 0x8000u); break;
  case GA_INT32: k.w0 = *(const uint32_t *)p ^ 0x80000000u; break;
  case GA_INT64: k.w0 = *(const uint64_t *)p ^ ((uint64_t)1 << 63); break;
  case GA_FLOAT16: {
    uint16_t u;
    memcpy(&u, p, 2);
    int nan_ = (u & 0x7c00) == 0x7c00 && (u & 0x3ff), zero = (u & 0x7fff) == 0;
    k.w0 = fkey(u, 16, nan_, zero);
    break;
  }
  case GA_FLOAT32: k.w0 = f32key(*(const float *)p); break;
  case GA_FLOAT64: k.w0 = f64key(*(const double *)p); break;
  case GA_COMPLEX64: {
    const float *f = p;
    k = ckey(f[0], f[1], f32key(f[0]), f32key(f[1]), 32);
    break;
  }
  case GA_COMPLEX128: {
    const double *f = p;
    k = ckey(f[0], f[1], f64key(f[0]), f64key(f[1]), 64);
    break;
  }
  default: break;
  }
  return k;
}

int ga_sort_key_bytes(int dt) {
  if (dt == GA_COMPLEX64) return 9;
  if (dt == GA_COMPLEX128) return 17;
  return GA_ITEMSIZE(dt);
}

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
    char *dst = c->dst + (size_t)(r * n) * isz;
    for (int64_t i = 0; i < n; i++) e[i].k = ga_sort_key_of(src + (size_t)i * isz, c->dtype), e[i].i = i;
    merge_sort(e, e + n, n);
    for (int64_t i = 0; i < n; i++) memcpy(dst + (size_t)i * isz, src + (size_t)e[i].i * isz, isz);
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
