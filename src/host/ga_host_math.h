/* The ga_* functions of the op table's expressions, for the host backend:
 * one static inline function per compute type (suffixes b i8 u8 i16 u16 i32
 * u32 i64 u64 f32 f64 c64 c128) and a macro of the function's name that
 * picks it by the type of its first argument (C11 _Generic, which gcc
 * accepts in gnu99).  kernels/ga_math.cuh and ga_cmath.cuh are the CUDA
 * counterparts; both follow NumPy 2's loops, special values included.  The
 * host results are the reference the GPU specs compare against.
 * Included only by ga_host_loops.c (compiled with -fwrapv: signed overflow
 * wraps, as in NumPy). */
#ifndef GA_HOST_MATH_H
#define GA_HOST_MATH_H
#include "base/ga_dtype.h"
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#define GA_PI 3.141592653589793238462643383279502884
#define GA_LN2 0.693147180559945309417232121458176568
#define GA_LN10 2.302585092994045684017991454684364208
#define GA_LOG2E 1.442695040888963407359924681001892137

/* Selecting a type the function lacks is a compile error (wrong call). */
void ga_no_such_loop(void);
#define GA__B(f) bool: f##_b,
#define GA__I(f) int8_t: f##_i8, int16_t: f##_i16, int32_t: f##_i32, int64_t: f##_i64,
#define GA__U(f) uint8_t: f##_u8, uint16_t: f##_u16, uint32_t: f##_u32, uint64_t: f##_u64,
#define GA__F(f) float: f##_f32, double: f##_f64,
#define GA__C(f) ga_c64: f##_c64, ga_c128: f##_c128,
#define GA_GEN(x, ...) _Generic((x), __VA_ARGS__ default: ga_no_such_loop)

/* Type lists: M(suffix, type, ...) */
#define GA_FOR_I(M)                                                           \
  M(i8, int8_t, uint8_t, INT8_MIN, 0) M(i16, int16_t, uint16_t, INT16_MIN, 0) \
  M(i32, int32_t, uint32_t, INT32_MIN, INT32_MIN) M(i64, int64_t, uint64_t, INT64_MIN, INT64_MIN)
#define GA_FOR_U(M) M(u8, uint8_t) M(u16, uint16_t) M(u32, uint32_t) M(u64, uint64_t)
/* floats: suffix, type, libm suffix, complex type */
#define GA_FOR_F(M) M(f32, float, f, ga_c64) M(f64, double, , ga_c128)
/* complex: suffix, type, real type, libm suffix (real), real suffix */
#define GA_FOR_C(M) M(c64, ga_c64, float, f, f32) M(c128, ga_c128, double, , f64)

/* NumPy's power_of_ten: products of 10, exact up to 1e22 (inf past ~308) */
static inline double ga_pow10_(int64_t d) {
  int n = d < -400 || d > 400 ? 400 : (int)(d < 0 ? -d : d);
  double r = 1;
  while (n-- > 0) r *= 10;
  return r;
}
/* double -> integer as a C cast does on x86-64, which is what NumPy's
 * results are: out of range or NaN gives the "integer indefinite" value;
 * narrower types go through int32 (uint32 through int64), uint64 through
 * the 2^63 split.  kernels/ga_math.cuh does the same on the GPU. */
static inline int64_t ga_cvt64_(double d) {
  return d >= -9223372036854775808.0 && d < 9223372036854775808.0 ? (int64_t)d : INT64_MIN;
}
static inline uint64_t ga_x86_d2i_(double d, int size, bool sgn) {
  if (size < 4 || (size == 4 && sgn))
    return (uint64_t)(int64_t)(d > -2147483649.0 && d < 2147483648.0 ? (int32_t)d : INT32_MIN);
  if (size == 8 && !sgn && d >= 9223372036854775808.0)
    return (uint64_t)ga_cvt64_(d - 9223372036854775808.0) ^ (1ull << 63);
  return (uint64_t)ga_cvt64_(d);
}
/* np.around for integers: x for d >= 0, else in double, cast back */
#define GA_DEF_IROUND(S, T, ...)                                              \
  static inline T ga_round_##S(T a, int64_t d) {                              \
    if (d >= 0) return a;                                                     \
    double f = ga_pow10_(d);                                                  \
    return (T)ga_x86_d2i_(rint((double)a / f) * f, (int)sizeof(T), !((T)-1 > 0)); \
  }

/* ---------------- signed integers ---------------- */
#define GA_DEF_I(S, T, UT, MIN, RECIP0)                                       \
  static inline T ga_floor_divide_##S(T a, T b) {                             \
    if (b == 0) return 0;                                                     \
    if (b == -1) return (T)(0 - (UT)a); /* MIN // -1 wraps to MIN */          \
    T q = (T)(a / b);                                                         \
    if (a % b != 0 && ((a < 0) != (b < 0))) q--;                              \
    return q;                                                                 \
  }                                                                           \
  static inline T ga_remainder_##S(T a, T b) {                                \
    if (b == 0 || b == -1) return 0;                                          \
    T r = (T)(a % b);                                                         \
    if (r != 0 && ((r < 0) != (b < 0))) r = (T)(r + b);                       \
    return r;                                                                 \
  }                                                                           \
  static inline T ga_fmod_##S(T a, T b) { return b == 0 || b == -1 ? 0 : (T)(a % b); } \
  static inline T ga_power_##S(T a, T b) {                                    \
    /* NumPy raises for a negative exponent; a kernel cannot: 1/a^-b       \
     * truncated */                                                           \
    if (b < 0) return a == 1 ? 1 : a == -1 ? ((b & 1) ? -1 : 1) : 0;          \
    UT r = 1, p = (UT)a;                                                      \
    while (b) {                                                               \
      if (b & 1) r = (UT)(r * p);                                             \
      p = (UT)(p * p);                                                        \
      b >>= 1;                                                                \
    }                                                                         \
    return (T)r;                                                              \
  }                                                                           \
  /* NumPy computes 1.0 / x and converts: 0 gives what x86 gives */           \
  static inline T ga_reciprocal_##S(T a) { return a == 0 ? (T)(RECIP0) : (T)(1 / a); } \
  static inline T ga_abs_##S(T a) { return a < 0 ? (T)(0 - (UT)a) : a; }      \
  static inline T ga_sign_##S(T a) { return (T)((a > 0) - (a < 0)); }         \
  static inline T ga_lshift_##S(T a, T b) {                                   \
    return (uint64_t)(int64_t)b < sizeof(T) * 8 ? (T)((UT)a << b) : 0;        \
  }                                                                           \
  static inline T ga_rshift_##S(T a, T b) {                                   \
    return (uint64_t)(int64_t)b < sizeof(T) * 8 ? (T)(a >> b) : (a < 0 ? -1 : 0); \
  }                                                                           \
  static inline T ga_gcd_##S(T a, T b) {                                      \
    UT x = a < 0 ? (UT)(0 - (UT)a) : (UT)a, y = b < 0 ? (UT)(0 - (UT)b) : (UT)b; \
    while (y) { UT t = (UT)(x % y); x = y; y = t; }                           \
    return (T)x;                                                              \
  }                                                                           \
  static inline T ga_lcm_##S(T a, T b) {                                      \
    UT g = (UT)ga_gcd_##S(a, b);                                              \
    UT x = a < 0 ? (UT)(0 - (UT)a) : (UT)a, y = b < 0 ? (UT)(0 - (UT)b) : (UT)b; \
    return g == 0 ? 0 : (T)(UT)(x / g * y);                                   \
  }
GA_FOR_I(GA_DEF_I)
GA_FOR_I(GA_DEF_IROUND)

/* ---------------- unsigned integers ---------------- */
#define GA_DEF_U(S, T)                                                        \
  static inline T ga_floor_divide_##S(T a, T b) { return b == 0 ? 0 : (T)(a / b); } \
  static inline T ga_remainder_##S(T a, T b) { return b == 0 ? 0 : (T)(a % b); } \
  static inline T ga_fmod_##S(T a, T b) { return b == 0 ? 0 : (T)(a % b); }   \
  static inline T ga_power_##S(T a, T b) {                                    \
    T r = 1, p = a;                                                           \
    while (b) {                                                               \
      if (b & 1) r = (T)(r * p);                                              \
      p = (T)(p * p);                                                         \
      b >>= 1;                                                                \
    }                                                                         \
    return r;                                                                 \
  }                                                                           \
  static inline T ga_reciprocal_##S(T a) { return a == 0 ? 0 : (T)(1 / a); }  \
  static inline T ga_abs_##S(T a) { return a; }                               \
  static inline T ga_sign_##S(T a) { return a > 0; }                          \
  static inline T ga_lshift_##S(T a, T b) { return b < sizeof(T) * 8 ? (T)(a << b) : 0; } \
  static inline T ga_rshift_##S(T a, T b) { return b < sizeof(T) * 8 ? (T)(a >> b) : 0; } \
  static inline T ga_gcd_##S(T a, T b) {                                      \
    while (b) { T t = (T)(a % b); a = b; b = t; }                             \
    return a;                                                                 \
  }                                                                           \
  static inline T ga_lcm_##S(T a, T b) {                                      \
    T g = ga_gcd_##S(a, b);                                                   \
    return g == 0 ? 0 : (T)(a / g * b);                                       \
  }
GA_FOR_U(GA_DEF_U)
GA_FOR_U(GA_DEF_IROUND)

/* What every real type shares: ordering, truth, no imaginary part */
#define GA_DEF_REALCMP(S, T)                                                  \
  static inline bool ga_isreal_##S(T a) { (void)a; return true; }             \
  static inline bool ga_iscomplex_##S(T a) { (void)a; return false; }         \
  static inline bool ga_truth_##S(T a) { return a != 0; }                     \
  static inline bool ga_lt_##S(T a, T b) { return a < b; }                    \
  static inline bool ga_le_##S(T a, T b) { return a <= b; }                   \
  static inline bool ga_gt_##S(T a, T b) { return a > b; }                    \
  static inline bool ga_ge_##S(T a, T b) { return a >= b; }                   \
  static inline bool ga_eq_##S(T a, T b) { return a == b; }                   \
  static inline bool ga_ne_##S(T a, T b) { return a != b; }

/* ---------------- integers and bool: the trivial ones ---------------- */
#define GA_DEF_INTLIKE(S, T, ...)                                             \
  static inline T ga_floor_##S(T a) { return a; }                             \
  static inline T ga_ceil_##S(T a) { return a; }                              \
  static inline T ga_trunc_##S(T a) { return a; }                             \
  static inline T ga_conj_##S(T a) { return a; }                              \
  static inline bool ga_isnan_##S(T a) { (void)a; return false; }             \
  static inline bool ga_isinf_##S(T a) { (void)a; return false; }             \
  static inline bool ga_isfinite_##S(T a) { (void)a; return true; }           \
  GA_DEF_REALCMP(S, T)                                                        \
  static inline T ga_maximum_##S(T a, T b) { return a > b ? a : b; }          \
  static inline T ga_minimum_##S(T a, T b) { return a < b ? a : b; }          \
  static inline T ga_fmax_##S(T a, T b) { return a > b ? a : b; }             \
  static inline T ga_fmin_##S(T a, T b) { return a < b ? a : b; }             \
  static inline T ga_clip_##S(T x, T lo, T hi) {                              \
    T t = x > lo ? x : lo;                                                    \
    return t < hi ? t : hi;                                                   \
  }
#define GA_DEF_INVERT(S, T, ...) static inline T ga_invert_##S(T a) { return (T)~a; }
GA_FOR_I(GA_DEF_INTLIKE)
GA_FOR_U(GA_DEF_INTLIKE)
GA_DEF_INTLIKE(b, bool)
GA_FOR_I(GA_DEF_INVERT)
GA_FOR_U(GA_DEF_INVERT)
static inline bool ga_invert_b(bool a) { return !a; }
static inline bool ga_abs_b(bool a) { return a; }

/* ---------------- floats ---------------- */
#define GA_DEF_F(S, T, M, CT)                                                 \
  /* NumPy's npy_divmod: Python's signs, a / b when b is 0 */                 \
  static inline T ga_divmod_##S(T a, T b, T *modulus) {                       \
    T mod = fmod##M(a, b), div, floordiv;                                     \
    if (b == 0) { *modulus = mod; return a / b; }                             \
    div = (a - mod) / b;                                                      \
    if (mod != 0) {                                                           \
      if ((b < 0) != (mod < 0)) { mod += b; div -= 1; }                       \
    } else {                                                                  \
      mod = copysign##M(0, b);                                                \
    }                                                                         \
    if (div != 0) {                                                           \
      floordiv = floor##M(div);                                               \
      if (div - floordiv > (T)0.5) floordiv += 1;                             \
    } else {                                                                  \
      floordiv = copysign##M(0, a / b);                                       \
    }                                                                         \
    *modulus = mod;                                                           \
    return floordiv;                                                          \
  }                                                                           \
  static inline T ga_floor_divide_##S(T a, T b) {                             \
    T mod;                                                                    \
    return b == 0 ? a / b : ga_divmod_##S(a, b, &mod);                        \
  }                                                                           \
  static inline T ga_remainder_##S(T a, T b) {                                \
    T mod;                                                                    \
    if (b == 0) return fmod##M(a, b);                                         \
    ga_divmod_##S(a, b, &mod);                                                \
    return mod;                                                               \
  }                                                                           \
  static inline T ga_fmod_##S(T a, T b) { return fmod##M(a, b); }             \
  static inline T ga_power_##S(T a, T b) { return pow##M(a, b); }             \
  static inline T ga_reciprocal_##S(T a) { return 1 / a; }                    \
  static inline T ga_abs_##S(T a) { return fabs##M(a); }                      \
  static inline T ga_sign_##S(T a) { return a > 0 ? 1 : a < 0 ? -1 : a == 0 ? 0 : a; } \
  static inline T ga_sqrt_##S(T a) { return sqrt##M(a); }                     \
  static inline T ga_cbrt_##S(T a) { return cbrt##M(a); }                     \
  static inline T ga_exp_##S(T a) { return exp##M(a); }                       \
  static inline T ga_exp2_##S(T a) { return exp2##M(a); }                     \
  static inline T ga_expm1_##S(T a) { return expm1##M(a); }                   \
  static inline T ga_log_##S(T a) { return log##M(a); }                       \
  static inline T ga_log2_##S(T a) { return log2##M(a); }                     \
  static inline T ga_log10_##S(T a) { return log10##M(a); }                   \
  static inline T ga_log1p_##S(T a) { return log1p##M(a); }                   \
  static inline T ga_sin_##S(T a) { return sin##M(a); }                       \
  static inline T ga_cos_##S(T a) { return cos##M(a); }                       \
  static inline T ga_tan_##S(T a) { return tan##M(a); }                       \
  static inline T ga_arcsin_##S(T a) { return asin##M(a); }                   \
  static inline T ga_arccos_##S(T a) { return acos##M(a); }                   \
  static inline T ga_arctan_##S(T a) { return atan##M(a); }                   \
  static inline T ga_sinh_##S(T a) { return sinh##M(a); }                     \
  static inline T ga_cosh_##S(T a) { return cosh##M(a); }                     \
  static inline T ga_tanh_##S(T a) { return tanh##M(a); }                     \
  static inline T ga_arcsinh_##S(T a) { return asinh##M(a); }                 \
  static inline T ga_arccosh_##S(T a) { return acosh##M(a); }                 \
  static inline T ga_arctanh_##S(T a) { return atanh##M(a); }                 \
  static inline T ga_arctan2_##S(T a, T b) { return atan2##M(a, b); }         \
  static inline T ga_hypot_##S(T a, T b) { return hypot##M(a, b); }           \
  static inline T ga_copysign_##S(T a, T b) { return copysign##M(a, b); }     \
  /* NumPy's: equal arguments (infinities too) without inf - inf */           \
  static inline T ga_logaddexp_##S(T x, T y) {                                \
    if (x == y) return x + (T)GA_LN2;                                         \
    T t = x - y;                                                              \
    return t > 0 ? x + log1p##M(exp##M(-t)) : t <= 0 ? y + log1p##M(exp##M(t)) : t; \
  }                                                                           \
  static inline T ga_logaddexp2_##S(T x, T y) {                               \
    if (x == y) return x + 1;                                                 \
    T t = x - y;                                                              \
    return t > 0 ? x + (T)GA_LOG2E * log1p##M(exp2##M(-t))                   \
         : t <= 0 ? y + (T)GA_LOG2E * log1p##M(exp2##M(t)) : t;               \
  }                                                                           \
  static inline T ga_heaviside_##S(T x, T h0) {                               \
    return isnan(x) ? (T)NAN : x == 0 ? h0 : x < 0 ? 0 : 1;                   \
  }                                                                           \
  static inline T ga_rint_##S(T a) { return rint##M(a); }                     \
  static inline T ga_floor_##S(T a) { return floor##M(a); }                   \
  static inline T ga_ceil_##S(T a) { return ceil##M(a); }                     \
  static inline T ga_trunc_##S(T a) { return trunc##M(a); }                   \
  static inline T ga_ldexp_##S(T a, int64_t n) {                              \
    return ldexp##M(a, n > INT32_MAX ? INT32_MAX : n < INT32_MIN ? INT32_MIN : (int)n); \
  }                                                                           \
  static inline T ga_frexp_##S(T a, int32_t *e) {                             \
    if (!isfinite(a) || a == 0) { *e = 0; return a; }                        \
    return frexp##M(a, e);                                                    \
  }                                                                           \
  static inline T ga_modf_##S(T a, T *ip) { return modf##M(a, ip); }          \
  static inline bool ga_signbit_##S(T a) { return signbit(a) != 0; }         \
  static inline bool ga_isnan_##S(T a) { return isnan(a); }                   \
  static inline bool ga_isinf_##S(T a) { return isinf(a); }                   \
  static inline bool ga_isfinite_##S(T a) { return isfinite(a); }             \
  GA_DEF_REALCMP(S, T)                                                        \
  /* NumPy: the first NaN wins; between equal values (±0) the second */       \
  static inline T ga_maximum_##S(T a, T b) { return isnan(a) || a > b ? a : b; } \
  static inline T ga_minimum_##S(T a, T b) { return isnan(a) || a < b ? a : b; } \
  /* NaN-ignoring; between equal values the first */                         \
  static inline T ga_fmax_##S(T a, T b) { return isnan(b) || a >= b ? a : b; } \
  static inline T ga_fmin_##S(T a, T b) { return isnan(b) || a <= b ? a : b; } \
  static inline T ga_clip_##S(T x, T lo, T hi) {                              \
    T t = isnan(x) ? x : x > lo ? x : lo;                                     \
    return isnan(t) ? t : t < hi ? t : hi;                                    \
  }                                                                           \
  static inline T ga_conj_##S(T a) { return a; }                              \
  static inline T ga_angle_##S(T a) { return atan2##M((T)0, a); }             \
  static inline T ga_deg2rad_##S(T a) { return a * (T)(GA_PI / 180.0); }      \
  static inline T ga_rad2deg_##S(T a) { return a * (T)(180.0 / GA_PI); }      \
  static inline T ga_sinc_##S(T a) {                                          \
    T y = (T)GA_PI * (a == 0 ? (T)1.0e-20 : a);                               \
    return sin##M(y) / y;                                                     \
  }                                                                           \
  /* np.around: rint(x * 10^d) / 10^d, or rint(x / 10^-d) * 10^-d */        \
  static inline T ga_round_##S(T a, int64_t d) {                              \
    if (d == 0) return rint##M(a);                                            \
    T f = (T)ga_pow10_(d);                                                    \
    return d > 0 ? rint##M(a * f) / f : rint##M(a / f) * f;                  \
  }                                                                           \
  static inline T ga_true_divide_##S(T a, T b) { return a / b; }
GA_FOR_F(GA_DEF_F)

/* nextafter in the storage type: size 2 steps between float16 values */
static inline float ga_nextafter_half_(float a, float b) {
  if (isnan(a) || isnan(b)) return NAN;
  if (a == b) return a;   /* npy_half_nextafter: x (C's nextafter gives y) */
  ga_f16 h = (ga_f16)a;
  uint16_t u;
  memcpy(&u, &h, 2);
  if (a == 0) u = (uint16_t)((b < 0 ? 0x8000u : 0) | 1u);
  else if ((a < b) == (a > 0)) u++;
  else u--;
  memcpy(&h, &u, 2);
  return (float)h;
}
static inline float ga_nextafter_f32(float a, float b, int size) {
  return size == 2 ? ga_nextafter_half_(a, b) : nextafterf(a, b);
}
static inline double ga_nextafter_f64(double a, double b, int size) { (void)size; return nextafter(a, b); }
/* NumPy's spacing: the step to the next value away from zero (toward +inf
 * for +-0), NaN for inf; float16 (npy_half_spacing) always steps toward
 * +inf, so a negative float16 gets a positive spacing */
static inline float ga_spacing_f32(float a, int size) {
  if (isinf(a)) return NAN;
  return ga_nextafter_f32(a, size == 2 || !(a < 0) ? INFINITY : -INFINITY, size) - a;
}
static inline double ga_spacing_f64(double a, int size) {
  if (isinf(a)) return NAN;
  return ga_nextafter_f64(a, !(a < 0) ? INFINITY : -INFINITY, size) - a;
}

/* The modified Bessel function of the first kind, order 0 (NumPy's i0):
 * the power series sum (x^2/4)^k / (k!)^2 (positive terms, no
 * cancellation) up to |x| = 30, above it the asymptotic series
 * e^x / sqrt(2 pi x) sum ((2k-1)!!)^2 / (k! (8x)^k), with e^x split in two
 * halves so that it overflows only where i0 does; float in double.  As
 * NumPy's (exp(x) * chbevl(32/x - 2) / sqrt(x)), +-inf gives NaN. */
static inline double ga_i0_f64(double a) {
  double x = fabs(a);
  if (isnan(x)) return a;
  if (x <= 30) {
    double q = x * x / 4, t = 1, s = 1;
    for (int k = 1; k < 200 && t > s * 1e-17; k++) {
      t *= q / ((double)k * (double)k);
      s += t;
    }
    return s;
  }
  if (isinf(x)) return NAN;
  if (x > 720) return INFINITY;   /* i0 overflows past 713.98 */
  double t = 1, s = 1;
  for (int k = 1; k < 40; k++) {
    double nt = t * (2.0 * k - 1) * (2.0 * k - 1) / ((double)k * 8 * x);
    if (nt < s * 1e-17 || nt > t) break;
    t = nt;
    s += t;
  }
  double h = exp(x / 2);
  return h * (h / sqrt(2 * GA_PI * x) * s);
}
static inline float ga_i0_f32(float a) { return (float)ga_i0_f64((double)a); }

/* int64 against uint64, exactly: a negative int64 is below every uint64 */
static inline bool ga_lt_i64u64(int64_t a, uint64_t b) { return a < 0 || (uint64_t)a < b; }
static inline bool ga_le_i64u64(int64_t a, uint64_t b) { return a < 0 || (uint64_t)a <= b; }
static inline bool ga_gt_i64u64(int64_t a, uint64_t b) { return a >= 0 && (uint64_t)a > b; }
static inline bool ga_ge_i64u64(int64_t a, uint64_t b) { return a >= 0 && (uint64_t)a >= b; }
static inline bool ga_eq_i64u64(int64_t a, uint64_t b) { return a >= 0 && (uint64_t)a == b; }
static inline bool ga_ne_i64u64(int64_t a, uint64_t b) { return !ga_eq_i64u64(a, b); }
static inline bool ga_lt_u64i64(uint64_t a, int64_t b) { return ga_gt_i64u64(b, a); }
static inline bool ga_le_u64i64(uint64_t a, int64_t b) { return ga_ge_i64u64(b, a); }
static inline bool ga_gt_u64i64(uint64_t a, int64_t b) { return ga_lt_i64u64(b, a); }
static inline bool ga_ge_u64i64(uint64_t a, int64_t b) { return ga_le_i64u64(b, a); }
static inline bool ga_eq_u64i64(uint64_t a, int64_t b) { return ga_eq_i64u64(b, a); }
static inline bool ga_ne_u64i64(uint64_t a, int64_t b) { return !ga_eq_i64u64(b, a); }

/* ---------------- complex ---------------- */
/* NumPy orders complex numbers lexicographically, NaN-aware (loops.h) */
#define GA_CLT(ar, ai, br, bi) ((ar < br && !isnan(ai) && !isnan(bi)) || (ar == br && ai < bi))
#define GA_CLE(ar, ai, br, bi) ((ar < br && !isnan(ai) && !isnan(bi)) || (ar == br && ai <= bi))
#define GA_CGT(ar, ai, br, bi) ((ar > br && !isnan(ai) && !isnan(bi)) || (ar == br && ai > bi))
#define GA_CGE(ar, ai, br, bi) ((ar > br && !isnan(ai) && !isnan(bi)) || (ar == br && ai >= bi))
#define GA_DEF_C(S, T, R, M, RS)                                              \
  static inline T ga_mk_##S(R re, R im) { return __builtin_complex(re, im); }          \
  static inline R ga_abs_##S(T a) { return cabs##M(a); }                      \
  static inline T ga_power_##S(T a, T b) {                                    \
    R ar = creal##M(a), ai = cimag##M(a), br = creal##M(b), bi = cimag##M(b); \
    if (br == 0 && bi == 0) return ga_mk_##S(1, 0);                           \
    if (ar == 0 && ai == 0) {                                                 \
      if (br > 0) return ga_mk_##S(0, 0); /* NumPy 2.4: any Re(b) > 0 */      \
      return ga_mk_##S(NAN, NAN);                                             \
    }                                                                         \
    if (bi == 0 && br == (R)(long)br && br > -100 && br < 100) {              \
      long n = (long)br;                                                      \
      if (n == 1) return a;                                                   \
      if (n == 2) return a * a;                                               \
      if (n == 3) return a * a * a;                                           \
      T acc = ga_mk_##S(1, 0), p = a;                                         \
      long m = n < 0 ? -n : n;                                                \
      for (long mask = 1;; mask <<= 1) {                                      \
        if (m & mask) acc = acc * p;                                          \
        if (m < (mask << 1)) break;                                           \
        p = p * p;                                                            \
      }                                                                       \
      return n < 0 ? ga_mk_##S(1, 0) / acc : acc;                             \
    }                                                                         \
    return cpow##M(a, b);                                                     \
  }                                                                           \
  static inline T ga_reciprocal_##S(T a) {                                    \
    R r = creal##M(a), i = cimag##M(a);                                       \
    if (fabs##M(i) <= fabs##M(r)) {                                           \
      R q = i / r, d = r + i * q;                                             \
      return ga_mk_##S(1 / d, -q / d);                                        \
    }                                                                         \
    R q = r / i, d = r * q + i;                                               \
    return ga_mk_##S(q / d, -1 / d);                                          \
  }                                                                           \
  static inline T ga_sign_##S(T a) {                                          \
    R r = creal##M(a), i = cimag##M(a);                                       \
    if (isinf(r)) return isinf(i) ? ga_mk_##S(NAN, NAN) : ga_mk_##S(copysign##M(1, r), 0); \
    if (isinf(i)) return ga_mk_##S(0, copysign##M(1, i));                     \
    if (isnan(r) || isnan(i)) return ga_mk_##S(NAN, NAN);                     \
    R m = hypot##M(r, i);                                                     \
    return m == 0 ? ga_mk_##S(0, 0) : ga_mk_##S(r / m, i / m);                \
  }                                                                           \
  static inline T ga_sqrt_##S(T a) { return csqrt##M(a); }                    \
  static inline T ga_exp_##S(T a) { return cexp##M(a); }                      \
  static inline T ga_log_##S(T a) { return clog##M(a); }                      \
  static inline T ga_sin_##S(T a) { return csin##M(a); }                      \
  static inline T ga_cos_##S(T a) { return ccos##M(a); }                      \
  static inline T ga_tan_##S(T a) { return ctan##M(a); }                      \
  static inline T ga_arcsin_##S(T a) { return casin##M(a); }                  \
  static inline T ga_arccos_##S(T a) { return cacos##M(a); }                  \
  static inline T ga_arctan_##S(T a) { return catan##M(a); }                  \
  static inline T ga_sinh_##S(T a) { return csinh##M(a); }                    \
  static inline T ga_cosh_##S(T a) { return ccosh##M(a); }                    \
  static inline T ga_tanh_##S(T a) { return ctanh##M(a); }                    \
  static inline T ga_arcsinh_##S(T a) { return casinh##M(a); }                \
  static inline T ga_arccosh_##S(T a) { return cacosh##M(a); }                \
  static inline T ga_arctanh_##S(T a) { return catanh##M(a); }                \
  /* NumPy's own formulas (funcs.inc.src) where C has no function */          \
  static inline T ga_exp2_##S(T a) { return cexp##M(a * (R)GA_LN2); }         \
  static inline T ga_log2_##S(T a) { return clog##M(a) / (R)GA_LN2; }         \
  static inline T ga_log10_##S(T a) { return clog##M(a) / (R)GA_LN10; }       \
  static inline T ga_expm1_##S(T a) {                                         \
    R x = creal##M(a), y = cimag##M(a), s = sin##M(y / 2);                    \
    return ga_mk_##S(expm1##M(x) * cos##M(y) - 2 * s * s, exp##M(x) * sin##M(y)); \
  }                                                                           \
  static inline T ga_log1p_##S(T a) {                                         \
    R x = creal##M(a), y = cimag##M(a);                                       \
    return ga_mk_##S(log##M(hypot##M(x + 1, y)), atan2##M(y, x + 1));         \
  }                                                                           \
  static inline T ga_rint_##S(T a) { return ga_mk_##S(rint##M(creal##M(a)), rint##M(cimag##M(a))); } \
  static inline T ga_conj_##S(T a) { return conj##M(a); }                     \
  static inline R ga_angle_##S(T a) { return atan2##M(cimag##M(a), creal##M(a)); } \
  static inline bool ga_isnan_##S(T a) { return isnan(creal##M(a)) || isnan(cimag##M(a)); } \
  static inline bool ga_isinf_##S(T a) { return isinf(creal##M(a)) || isinf(cimag##M(a)); } \
  static inline bool ga_isfinite_##S(T a) { return isfinite(creal##M(a)) && isfinite(cimag##M(a)); } \
  static inline bool ga_isreal_##S(T a) { return cimag##M(a) == 0; }          \
  static inline bool ga_iscomplex_##S(T a) { return cimag##M(a) != 0; }       \
  static inline bool ga_truth_##S(T a) { return creal##M(a) != 0 || cimag##M(a) != 0; } \
  static inline bool ga_lt_##S(T a, T b) { return GA_CLT(creal##M(a), cimag##M(a), creal##M(b), cimag##M(b)); } \
  static inline bool ga_le_##S(T a, T b) { return GA_CLE(creal##M(a), cimag##M(a), creal##M(b), cimag##M(b)); } \
  static inline bool ga_gt_##S(T a, T b) { return GA_CGT(creal##M(a), cimag##M(a), creal##M(b), cimag##M(b)); } \
  static inline bool ga_ge_##S(T a, T b) { return GA_CGE(creal##M(a), cimag##M(a), creal##M(b), cimag##M(b)); } \
  static inline bool ga_eq_##S(T a, T b) { return creal##M(a) == creal##M(b) && cimag##M(a) == cimag##M(b); } \
  static inline bool ga_ne_##S(T a, T b) { return !ga_eq_##S(a, b); }         \
  static inline T ga_maximum_##S(T a, T b) { return ga_isnan_##S(a) || ga_ge_##S(a, b) ? a : b; } \
  static inline T ga_minimum_##S(T a, T b) { return ga_isnan_##S(a) || ga_le_##S(a, b) ? a : b; } \
  static inline T ga_fmax_##S(T a, T b) { return ga_isnan_##S(b) || ga_ge_##S(a, b) ? a : b; } \
  static inline T ga_fmin_##S(T a, T b) { return ga_isnan_##S(b) || ga_le_##S(a, b) ? a : b; } \
  /* NumPy's complex clip keeps lo / hi between equal values (±0) */        \
  static inline T ga_clip_##S(T x, T lo, T hi) {                              \
    T t = ga_isnan_##S(x) || ga_gt_##S(x, lo) ? x : lo;                       \
    return ga_isnan_##S(t) || ga_lt_##S(t, hi) ? t : hi;                      \
  }                                                                           \
  /* NumPy's complex division (Smith's, scaled by a reciprocal; a zero    \
   * divisor gives (re/0, im/0)) */                                           \
  static inline T ga_true_divide_##S(T a, T b) {                              \
    R ar = creal##M(a), ai = cimag##M(a), br = creal##M(b), bi = cimag##M(b); \
    R abr = fabs##M(br), abi = fabs##M(bi);                                   \
    if (abr >= abi) {                                                         \
      if (abr == 0 && abi == 0) return ga_mk_##S(ar / abr, ai / abr);         \
      R rat = bi / br, scl = (R)1.0 / (br + bi * rat);                        \
      return ga_mk_##S((ar + ai * rat) * scl, (ai - ar * rat) * scl);         \
    }                                                                         \
    R rat = br / bi, scl = (R)1.0 / (bi + br * rat);                          \
    return ga_mk_##S((ar * rat + ai) * scl, (ai * rat - ar) * scl);           \
  }                                                                           \
  static inline T ga_sinc_##S(T a) {                                          \
    T y = (R)GA_PI * (creal##M(a) == 0 && cimag##M(a) == 0 ? ga_mk_##S((R)1.0e-20, 0) : a); \
    return ga_true_divide_##S(csin##M(y), y);                                 \
  }                                                                           \
  static inline T ga_round_##S(T a, int64_t d) {                              \
    return ga_mk_##S(ga_round_##RS(creal##M(a), d), ga_round_##RS(cimag##M(a), d)); \
  }
GA_FOR_C(GA_DEF_C)

/* ---------------- dispatch by the first argument's type ---------------- */
#define GA_IU(f) GA__I(f) GA__U(f)
#define ga_floor_divide(a, b) GA_GEN(a, GA_IU(ga_floor_divide) GA__F(ga_floor_divide))(a, b)
#define ga_remainder(a, b) GA_GEN(a, GA_IU(ga_remainder) GA__F(ga_remainder))(a, b)
#define ga_fmod(a, b) GA_GEN(a, GA_IU(ga_fmod) GA__F(ga_fmod))(a, b)
#define ga_power(a, b) GA_GEN(a, GA_IU(ga_power) GA__F(ga_power) GA__C(ga_power))(a, b)
#define ga_reciprocal(a) GA_GEN(a, GA_IU(ga_reciprocal) GA__F(ga_reciprocal) GA__C(ga_reciprocal))(a)
#define ga_abs(a) GA_GEN(a, GA__B(ga_abs) GA_IU(ga_abs) GA__F(ga_abs) GA__C(ga_abs))(a)
#define ga_sign(a) GA_GEN(a, GA_IU(ga_sign) GA__F(ga_sign) GA__C(ga_sign))(a)
#define GA_FC1(f, a) GA_GEN(a, GA__F(f) GA__C(f))(a)
#define ga_sqrt(a) GA_FC1(ga_sqrt, a)
#define ga_exp(a) GA_FC1(ga_exp, a)
#define ga_exp2(a) GA_FC1(ga_exp2, a)
#define ga_expm1(a) GA_FC1(ga_expm1, a)
#define ga_log(a) GA_FC1(ga_log, a)
#define ga_log2(a) GA_FC1(ga_log2, a)
#define ga_log10(a) GA_FC1(ga_log10, a)
#define ga_log1p(a) GA_FC1(ga_log1p, a)
#define ga_sin(a) GA_FC1(ga_sin, a)
#define ga_cos(a) GA_FC1(ga_cos, a)
#define ga_tan(a) GA_FC1(ga_tan, a)
#define ga_arcsin(a) GA_FC1(ga_arcsin, a)
#define ga_arccos(a) GA_FC1(ga_arccos, a)
#define ga_arctan(a) GA_FC1(ga_arctan, a)
#define ga_sinh(a) GA_FC1(ga_sinh, a)
#define ga_cosh(a) GA_FC1(ga_cosh, a)
#define ga_tanh(a) GA_FC1(ga_tanh, a)
#define ga_arcsinh(a) GA_FC1(ga_arcsinh, a)
#define ga_arccosh(a) GA_FC1(ga_arccosh, a)
#define ga_arctanh(a) GA_FC1(ga_arctanh, a)
#define ga_rint(a) GA_FC1(ga_rint, a)
#define ga_angle(a) GA_FC1(ga_angle, a)
#define ga_sinc(a) GA_FC1(ga_sinc, a)
#define ga_cbrt(a) GA_GEN(a, GA__F(ga_cbrt))(a)
#define ga_deg2rad(a) GA_GEN(a, GA__F(ga_deg2rad))(a)
#define ga_rad2deg(a) GA_GEN(a, GA__F(ga_rad2deg))(a)
#define ga_signbit(a) GA_GEN(a, GA__F(ga_signbit))(a)
#define ga_logaddexp(a, b) GA_GEN(a, GA__F(ga_logaddexp))(a, b)
#define ga_logaddexp2(a, b) GA_GEN(a, GA__F(ga_logaddexp2))(a, b)
#define ga_arctan2(a, b) GA_GEN(a, GA__F(ga_arctan2))(a, b)
#define ga_hypot(a, b) GA_GEN(a, GA__F(ga_hypot))(a, b)
#define ga_copysign(a, b) GA_GEN(a, GA__F(ga_copysign))(a, b)
#define ga_heaviside(a, b) GA_GEN(a, GA__F(ga_heaviside))(a, b)
#define ga_nextafter(a, b, size) GA_GEN(a, GA__F(ga_nextafter))(a, b, size)
#define ga_spacing(a, size) GA_GEN(a, GA__F(ga_spacing))(a, size)
#define ga_i0(a) GA_GEN(a, GA__F(ga_i0))(a)
#define ga_ldexp(a, n) GA_GEN(a, GA__F(ga_ldexp))(a, n)
#define ga_frexp(a, e) GA_GEN(a, GA__F(ga_frexp))(a, e)
#define ga_modf(a, ip) GA_GEN(a, GA__F(ga_modf))(a, ip)
#define GA_BIU(f) GA__B(f) GA__I(f) GA__U(f)
#define GA_BIUF(f) GA_BIU(f) GA__F(f)
#define GA_ALL(f) GA_BIUF(f) GA__C(f)
#define ga_floor(a) GA_GEN(a, GA_BIUF(ga_floor))(a)
#define ga_ceil(a) GA_GEN(a, GA_BIUF(ga_ceil))(a)
#define ga_trunc(a) GA_GEN(a, GA_BIUF(ga_trunc))(a)
#define ga_conj(a) GA_GEN(a, GA_ALL(ga_conj))(a)
#define ga_isnan(a) GA_GEN(a, GA_ALL(ga_isnan))(a)
#define ga_isinf(a) GA_GEN(a, GA_ALL(ga_isinf))(a)
#define ga_isfinite(a) GA_GEN(a, GA_ALL(ga_isfinite))(a)
#define ga_isreal(a) GA_GEN(a, GA_ALL(ga_isreal))(a)
#define ga_iscomplex(a) GA_GEN(a, GA_ALL(ga_iscomplex))(a)
#define ga_truth(a) GA_GEN(a, GA_ALL(ga_truth))(a)
/* Comparisons also take (int64, uint64) and (uint64, int64): NumPy's exact
 * mixed loops. */
#define GA_CMPGEN(f, a, b)                                                    \
  _Generic((a), GA__B(f) int8_t: f##_i8, int16_t: f##_i16, int32_t: f##_i32,  \
           int64_t: _Generic((b), uint64_t: f##_i64u64, default: f##_i64),    \
           uint64_t: _Generic((b), int64_t: f##_u64i64, default: f##_u64),    \
           uint8_t: f##_u8, uint16_t: f##_u16, uint32_t: f##_u32,             \
           GA__F(f) GA__C(f) default: ga_no_such_loop)
#define ga_lt(a, b) GA_CMPGEN(ga_lt, a, b)(a, b)
#define ga_le(a, b) GA_CMPGEN(ga_le, a, b)(a, b)
#define ga_gt(a, b) GA_CMPGEN(ga_gt, a, b)(a, b)
#define ga_ge(a, b) GA_CMPGEN(ga_ge, a, b)(a, b)
#define ga_eq(a, b) GA_CMPGEN(ga_eq, a, b)(a, b)
#define ga_ne(a, b) GA_CMPGEN(ga_ne, a, b)(a, b)
#define ga_maximum(a, b) GA_GEN(a, GA_ALL(ga_maximum))(a, b)
#define ga_minimum(a, b) GA_GEN(a, GA_ALL(ga_minimum))(a, b)
#define ga_fmax(a, b) GA_GEN(a, GA_ALL(ga_fmax))(a, b)
#define ga_fmin(a, b) GA_GEN(a, GA_ALL(ga_fmin))(a, b)
#define ga_clip(x, lo, hi) GA_GEN(x, GA_ALL(ga_clip))(x, lo, hi)
#define ga_invert(a) GA_GEN(a, GA_BIU(ga_invert))(a)
#define ga_lshift(a, b) GA_GEN(a, GA_IU(ga_lshift))(a, b)
#define ga_rshift(a, b) GA_GEN(a, GA_IU(ga_rshift))(a, b)
#define ga_gcd(a, b) GA_GEN(a, GA_IU(ga_gcd))(a, b)
#define ga_lcm(a, b) GA_GEN(a, GA_IU(ga_lcm))(a, b)
#define ga_round(a, d) GA_GEN(a, GA_IU(ga_round) GA__F(ga_round) GA__C(ga_round))(a, d)
#define ga_true_divide(a, b) GA_GEN(a, GA__F(ga_true_divide) GA__C(ga_true_divide))(a, b)

#endif
