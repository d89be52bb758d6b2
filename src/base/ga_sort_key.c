/* The sort order as keys (base/ga_calls.h): each element maps to an
 * order-preserving unsigned key, NumPy's order; the host sorts the keys and
 * the CUDA radix sort reads how many of their bytes matter. */
#include "base/ga_calls.h"
#include <string.h>

int ga_sort_path = GA_SORT_PATH_AUTO, ga_sort_kpt = 0, ga_sort_minb = 0;

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
