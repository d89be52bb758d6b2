/* Checked arithmetic for sizes, counts, lengths, strides and shifts that
 * come from users (issue 10): every sum or product of them goes through
 * here, so an overflow becomes "array is too big", never a wrap.  Also the
 * one checked float -> integer conversion of Lua numbers. */
#ifndef GA_CHECKED_H
#define GA_CHECKED_H
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

/* NumPy's message for a size whose bytes do not fit. */
#define GA_TOO_BIG "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size"

/* r = a op b; false (r unspecified) on int64 overflow. */
static inline bool ga_add_i64(int64_t a, int64_t b, int64_t *r) { return !__builtin_add_overflow(a, b, r); }
static inline bool ga_sub_i64(int64_t a, int64_t b, int64_t *r) { return !__builtin_sub_overflow(a, b, r); }
static inline bool ga_mul_i64(int64_t a, int64_t b, int64_t *r) { return !__builtin_mul_overflow(a, b, r); }

/* A byte count: n elements of itemsize bytes fit in int64 (and size_t). */
static inline bool ga_bytes_i64(int64_t n, int64_t itemsize, int64_t *r) {
  return n >= 0 && ga_mul_i64(n, itemsize, r);
}

/* Truncate a double toward zero into int64; false for NaN, +-inf and
 * values whose truncation is outside [INT64_MIN, INT64_MAX]. */
static inline bool ga_double_to_i64(double v, int64_t *r) {
  if (!(v >= -0x1p63 && v < 0x1p63)) return false;
  *r = (int64_t)v;
  return true;
}

/* Python's floor modulo of int64 (b != 0): the result has b's sign and no
 * intermediate overflows (INT64_MIN % -1 is 0). */
static inline int64_t ga_floor_mod_i64(int64_t a, int64_t b) {
  if (b == -1) return 0;
  int64_t m = a % b;
  return (m != 0 && ((m < 0) != (b < 0))) ? m + b : m;
}

/* The documented float -> integer cast of arrays (and of values the
 * caller has already range-checked): NaN -> 0, out of range saturates to
 * the bits-wide integer's bounds, in range truncates toward zero; never
 * C's undefined conversion.  The result's low `bits` bits are the value
 * (sign-extended for sgn). */
static inline uint64_t ga_sat_f2i(double v, int bits, bool sgn) {
  double top = ldexp(1.0, sgn ? bits - 1 : bits);          /* first value too big */
  double lo = sgn ? -top : 0.0;
  double hi = bits < 64 ? top - 1.0 : top - (sgn ? 1024.0 : 2048.0);  /* largest exact below top */
  uint64_t max = UINT64_MAX >> (64 - bits + sgn);
  v = v == v ? v : 0.0;
  double c = v < lo ? lo : v > hi ? hi : v;
  uint64_t r = bits <= 32 ? (sgn ? (uint64_t)(int64_t)(int32_t)c : (uint64_t)(uint32_t)c)
                          : (sgn ? (uint64_t)(int64_t)c : (uint64_t)c);
  return v >= top ? max : r;
}

#endif
