// The ga_* functions of the op table (src/ga_ops.def) for CUDA, for the real
// compute types (bool, the 8 integer types, float, double) and the complex
// functions that are not transcendental (abs, sign, reciprocal, rint, round,
// conj, angle, classification, comparisons, min/max/clip); complex sqrt, exp,
// log, trig and power live in ga_cmath.cuh.  Follows NumPy 2.4 (x86-64),
// special values included.  Include-free (NVRTC sees only built-in math);
// needs ga_types.cuh.  Internal helpers are gam_*.
//
// Where a kernel cannot do what NumPy does:
// - integer power with a negative exponent (NumPy raises): 1 for base 1,
//   +-1 for base -1, 0 otherwise.
// - integer // and % by 0 give 0, MIN // -1 gives MIN (as NumPy 2, no warning).
// - float16 loops compute in float and round once on store; NumPy rounds
//   every step of around and sinc to float16, so those may differ (NumPy's
//   around of float16 with |decimals| >= 5 is nan: 10^5 overflows float16),
//   and maximum/minimum/fmax/fmin of +0/-0 return the second argument as
//   NumPy's float32/64 loops do (its float16 loop returns the first).
// - integer around whose result leaves the type (or is nan, decimals <=
//   -309) casts as NumPy's scalar x86-64 cast does; NumPy's own result there
//   depends on the array's length and the CPU.

#define GAM_D __device__ inline

// Traits of bool and the integer types: u = unsigned type of the same width,
// w = unsigned type at least int wide (arithmetic without promotion to a
// signed int), sgn = signed.
template <typename T> struct gam_t;
#define GAM_T(T, U, W, S)                                                      \
  template <> struct gam_t<T> {                                                \
    typedef U u;                                                               \
    typedef W w;                                                               \
    enum { sgn = S, bits = (int)sizeof(T) * 8 };                               \
  };
GAM_T(bool, unsigned char, unsigned int, 0)
GAM_T(signed char, unsigned char, unsigned int, 1)
GAM_T(unsigned char, unsigned char, unsigned int, 0)
GAM_T(short, unsigned short, unsigned int, 1)
GAM_T(unsigned short, unsigned short, unsigned int, 0)
GAM_T(int, unsigned int, unsigned int, 1)
GAM_T(unsigned int, unsigned int, unsigned int, 0)
GAM_T(long long, unsigned long long, unsigned long long, 1)
GAM_T(unsigned long long, unsigned long long, unsigned long long, 0)
#undef GAM_T

// float/double pairs of the built-in math functions
#define GAM_F1(N, F, D)                                                        \
  GAM_D float N(float x) { return F(x); }                                      \
  GAM_D double N(double x) { return D(x); }
#define GAM_F2(N, F, D)                                                        \
  GAM_D float N(float x, float y) { return F(x, y); }                          \
  GAM_D double N(double x, double y) { return D(x, y); }
GAM_F1(gam_floor, floorf, floor)
GAM_F1(gam_trunc, truncf, trunc)
GAM_F1(gam_rint, rintf, rint)
GAM_F1(gam_fabs, fabsf, fabs)
GAM_F1(gam_exp, expf, exp)
GAM_F1(gam_exp2, exp2f, exp2)
GAM_F1(gam_log1p, log1pf, log1p)
GAM_F1(gam_sin, sinf, sin)
GAM_F2(gam_fmod, fmodf, fmod)
GAM_F2(gam_copysign, copysignf, copysign)
GAM_F2(gam_atan2, atan2f, atan2)
// hypot: CUDA's double hypot overflows next to DBL_MAX (hypot(1, DBL_MAX)
// = inf); float goes through double, double is scaled by the larger side.
GAM_D float gam_hypot(float a, float b) {
  if (isinf(a) || isinf(b)) return __int_as_float(0x7f800000);
  double x = a, y = b;
  return (float)sqrt(x * x + y * y);
}
GAM_D double gam_hypot(double a, double b) {
  a = fabs(a), b = fabs(b);
  if (isinf(a) || isinf(b)) return __longlong_as_double(0x7ff0000000000000ll);
  if (a != a || b != b) return a + b;
  double m = a > b ? a : b, n = a > b ? b : a;
  if (m == 0) return 0;
  double r = n / m;
  return m * sqrt(fma(r, r, 1.0));
}

GAM_D float ga_hypot(float a, float b) { return gam_hypot(a, b); }
GAM_D double ga_hypot(double a, double b) { return gam_hypot(a, b); }

GAM_F1(ga_sqrt, sqrtf, sqrt)
GAM_F1(ga_cbrt, cbrtf, cbrt)
GAM_F1(ga_exp, expf, exp)
GAM_F1(ga_exp2, exp2f, exp2)
GAM_F1(ga_expm1, expm1f, expm1)
GAM_F1(ga_log, logf, log)
GAM_F1(ga_log2, log2f, log2)
GAM_F1(ga_log10, log10f, log10)
GAM_F1(ga_log1p, log1pf, log1p)
GAM_F1(ga_sin, sinf, sin)
GAM_F1(ga_cos, cosf, cos)
GAM_F1(ga_tan, tanf, tan)
GAM_F1(ga_arcsin, asinf, asin)
GAM_F1(ga_arccos, acosf, acos)
GAM_F1(ga_arctan, atanf, atan)
GAM_F1(ga_sinh, sinhf, sinh)
GAM_F1(ga_cosh, coshf, cosh)
GAM_F1(ga_tanh, tanhf, tanh)
GAM_F1(ga_arcsinh, asinhf, asinh)
GAM_F1(ga_arccosh, acoshf, acosh)
GAM_F1(ga_arctanh, atanhf, atanh)
GAM_F1(ga_rint, rintf, rint)
GAM_F1(ga_floor, floorf, floor)
GAM_F1(ga_ceil, ceilf, ceil)
GAM_F1(ga_trunc, truncf, trunc)
GAM_F1(ga_abs, fabsf, fabs)
GAM_F2(ga_power, powf, pow)
GAM_F2(ga_fmod, fmodf, fmod)
GAM_F2(ga_arctan2, atan2f, atan2)
GAM_F2(ga_copysign, copysignf, copysign)
#undef GAM_F1
#undef GAM_F2

GAM_D float gam_inf(float) { return __int_as_float(0x7f800000); }
GAM_D double gam_inf(double) { return __longlong_as_double(0x7ff0000000000000ll); }
GAM_D float gam_nan(float) { return __int_as_float(0x7fc00000); }
GAM_D double gam_nan(double) { return __longlong_as_double(0x7ff8000000000000ll); }
GAM_D unsigned int gam_bits(float x) { return __float_as_uint(x); }
GAM_D unsigned long long gam_bits(double x) { return (unsigned long long)__double_as_longlong(x); }
GAM_D float gam_from(unsigned int b) { return __uint_as_float(b); }
GAM_D double gam_from(unsigned long long b) { return __longlong_as_double((long long)b); }

// ---- classification (every type -> bool) ----
template <typename T> GAM_D bool ga_isnan(T) { return false; }
template <typename T> GAM_D bool ga_isinf(T) { return false; }
template <typename T> GAM_D bool ga_isfinite(T) { return true; }
GAM_D bool ga_isnan(float x) { return x != x; }
GAM_D bool ga_isnan(double x) { return x != x; }
GAM_D bool ga_isinf(float x) { return gam_fabs(x) == gam_inf(x); }
GAM_D bool ga_isinf(double x) { return gam_fabs(x) == gam_inf(x); }
GAM_D bool ga_isfinite(float x) { return gam_fabs(x) < gam_inf(x); }
GAM_D bool ga_isfinite(double x) { return gam_fabs(x) < gam_inf(x); }
template <typename T> GAM_D bool ga_isnan(ga_complex<T> z) { return ga_isnan(z.re) || ga_isnan(z.im); }
template <typename T> GAM_D bool ga_isinf(ga_complex<T> z) { return ga_isinf(z.re) || ga_isinf(z.im); }
template <typename T> GAM_D bool ga_isfinite(ga_complex<T> z) { return ga_isfinite(z.re) && ga_isfinite(z.im); }
template <typename T> GAM_D bool ga_isreal(T) { return true; }
template <typename T> GAM_D bool ga_iscomplex(T) { return false; }
template <typename T> GAM_D bool ga_isreal(ga_complex<T> z) { return z.im == T(0); }
template <typename T> GAM_D bool ga_iscomplex(ga_complex<T> z) { return z.im != T(0); }
template <typename T> GAM_D bool ga_truth(T x) { return x != T(0); }
template <typename T> GAM_D bool ga_truth(ga_complex<T> z) { return z.re != T(0) || z.im != T(0); }
GAM_D bool ga_truth(bool x) { return x; }
GAM_D bool ga_signbit(float x) { return (int)__float_as_uint(x) < 0; }
GAM_D bool ga_signbit(double x) { return __double_as_longlong(x) < 0; }

// ---- comparisons; complex is lexicographic, as NumPy's CLT/CLE/... ----
template <typename T> GAM_D bool ga_lt(T a, T b) { return a < b; }
template <typename T> GAM_D bool ga_le(T a, T b) { return a <= b; }
template <typename T> GAM_D bool ga_gt(T a, T b) { return a > b; }
template <typename T> GAM_D bool ga_ge(T a, T b) { return a >= b; }
template <typename T> GAM_D bool ga_eq(T a, T b) { return a == b; }
template <typename T> GAM_D bool ga_ne(T a, T b) { return a != b; }
// int64 against uint64, exactly (NumPy's qQ/Qq comparison loops)
GAM_D bool ga_lt(long long a, unsigned long long b) { return a < 0 || (unsigned long long)a < b; }
GAM_D bool ga_le(long long a, unsigned long long b) { return a < 0 || (unsigned long long)a <= b; }
GAM_D bool ga_gt(long long a, unsigned long long b) { return a >= 0 && (unsigned long long)a > b; }
GAM_D bool ga_ge(long long a, unsigned long long b) { return a >= 0 && (unsigned long long)a >= b; }
GAM_D bool ga_eq(long long a, unsigned long long b) { return a >= 0 && (unsigned long long)a == b; }
GAM_D bool ga_ne(long long a, unsigned long long b) { return !ga_eq(a, b); }
GAM_D bool ga_lt(unsigned long long a, long long b) { return ga_gt(b, a); }
GAM_D bool ga_le(unsigned long long a, long long b) { return ga_ge(b, a); }
GAM_D bool ga_gt(unsigned long long a, long long b) { return ga_lt(b, a); }
GAM_D bool ga_ge(unsigned long long a, long long b) { return ga_le(b, a); }
GAM_D bool ga_eq(unsigned long long a, long long b) { return ga_eq(b, a); }
GAM_D bool ga_ne(unsigned long long a, long long b) { return !ga_eq(b, a); }
#define GAM_CCMP(N, OP)                                                        \
  template <typename T> GAM_D bool N(ga_complex<T> a, ga_complex<T> b) {      \
    return (a.re OP b.re && a.im == a.im && b.im == b.im) || (a.re == b.re && a.im OP##= b.im); \
  }
#define GAM_CCMPS(N, OP)                                                       \
  template <typename T> GAM_D bool N(ga_complex<T> a, ga_complex<T> b) {      \
    return (a.re OP b.re && a.im == a.im && b.im == b.im) || (a.re == b.re && a.im OP b.im); \
  }
GAM_CCMPS(ga_lt, <)
GAM_CCMP(ga_le, <)
GAM_CCMPS(ga_gt, >)
GAM_CCMP(ga_ge, >)
#undef GAM_CCMP
#undef GAM_CCMPS
template <typename T> GAM_D bool ga_eq(ga_complex<T> a, ga_complex<T> b) { return a.re == b.re && a.im == b.im; }
template <typename T> GAM_D bool ga_ne(ga_complex<T> a, ga_complex<T> b) { return a.re != b.re || a.im != b.im; }

// ---- maximum/minimum (first NaN wins), fmax/fmin (NaN ignored), clip ----
// Ties (+0/-0): maximum/minimum give the second argument, fmax/fmin the
// first, as NumPy's float32/64 loops (and the host).
template <typename T> GAM_D T ga_maximum(T a, T b) { return (a > b || ga_isnan(a)) ? a : b; }
template <typename T> GAM_D T ga_minimum(T a, T b) { return (a < b || ga_isnan(a)) ? a : b; }
template <typename T> GAM_D T ga_fmax(T a, T b) { return (a >= b || ga_isnan(b)) ? a : b; }
template <typename T> GAM_D T ga_fmin(T a, T b) { return (a <= b || ga_isnan(b)) ? a : b; }
template <typename T> GAM_D ga_complex<T> ga_maximum(ga_complex<T> a, ga_complex<T> b) {
  return (ga_isnan(a) || ga_ge(a, b)) ? a : b;
}
template <typename T> GAM_D ga_complex<T> ga_minimum(ga_complex<T> a, ga_complex<T> b) {
  return (ga_isnan(a) || ga_le(a, b)) ? a : b;
}
template <typename T> GAM_D ga_complex<T> ga_fmax(ga_complex<T> a, ga_complex<T> b) {
  return (ga_isnan(b) || ga_ge(a, b)) ? a : b;
}
template <typename T> GAM_D ga_complex<T> ga_fmin(ga_complex<T> a, ga_complex<T> b) {
  return (ga_isnan(b) || ga_le(a, b)) ? a : b;
}
// NumPy's clip.cpp: Min(Max(x, lo), hi), Max(a, b) = isnan(a) || a > b ? a : b
template <typename T> GAM_D T ga_clip(T x, T lo, T hi) {
  x = (ga_isnan(x) || x > lo) ? x : lo;
  return (ga_isnan(x) || x < hi) ? x : hi;
}
template <typename T> GAM_D ga_complex<T> ga_clip(ga_complex<T> x, ga_complex<T> lo, ga_complex<T> hi) {
  if (!ga_isnan(x) && !(x.re == lo.re ? x.im > lo.im : x.re > lo.re)) x = lo;
  if (!ga_isnan(x) && !(x.re == hi.re ? x.im < hi.im : x.re < hi.re)) x = hi;
  return x;
}

// ---- rounding ----
template <typename T> GAM_D T ga_floor(T x) { return x; }   // bool, integers
template <typename T> GAM_D T ga_ceil(T x) { return x; }
template <typename T> GAM_D T ga_trunc(T x) { return x; }
template <typename T> GAM_D ga_complex<T> ga_rint(ga_complex<T> z) { return ga_complex<T>(gam_rint(z.re), gam_rint(z.im)); }

// double -> integer as a C cast does on x86-64 (what NumPy's results are):
// out of range or NaN gives the "integer indefinite" value, narrower types
// go through int (int64 for uint32), uint64 through the 2^63 split.
GAM_D long long gam_cvt64(double d) {
  return (d >= -9223372036854775808.0 && d < 9223372036854775808.0) ? (long long)d
                                                                    : (long long)(1ull << 63);
}
template <typename T> GAM_D T gam_d2i(double d) {
  if constexpr (sizeof(T) == 8 && !gam_t<T>::sgn)
    return d < 9223372036854775808.0 ? (T)gam_cvt64(d) : (T)gam_cvt64(d - 9223372036854775808.0) ^ (T)(1ull << 63);
  else if constexpr (sizeof(T) == 8 || (sizeof(T) == 4 && !gam_t<T>::sgn))
    return (T)gam_cvt64(d);
  else
    return (T)(d > -2147483649.0 && d < 2147483648.0 ? (int)d : (int)0x80000000u);
}
// NumPy's power_of_ten(|d|): products of 10 (exact up to 1e22), clamped
// (inf long before 400)
GAM_D double gam_pow10(long long d) {
  int n = d < -400 || d > 400 ? 400 : (int)(d < 0 ? -d : d);
  double r = 1.;
  while (n-- > 0) r *= 10.;
  return r;
}
// np.around: y = rint(x * 10^d) / 10^d, or rint(x / 10^-d) * 10^-d for d < 0,
// in the array's precision; integers: x for d >= 0, else in double, cast back.
template <typename T> GAM_D T ga_round(T x, long long d) {
  if (d >= 0) return x;
  double f = gam_pow10(d);
  return gam_d2i<T>(gam_rint((double)x / f) * f);
}
template <typename T> GAM_D T gam_fround(T x, long long d) {
  if (d == 0) return gam_rint(x);
  T f = (T)gam_pow10(d);
  return d > 0 ? gam_rint(x * f) / f : gam_rint(x / f) * f;
}
GAM_D float ga_round(float x, long long d) { return gam_fround(x, d); }
GAM_D double ga_round(double x, long long d) { return gam_fround(x, d); }
template <typename T> GAM_D ga_complex<T> ga_round(ga_complex<T> z, long long d) {
  return ga_complex<T>(gam_fround(z.re, d), gam_fround(z.im, d));
}

// ---- true division: NumPy's complex algorithm (Smith's, scaled by a
// reciprocal; a zero divisor gives (re/0, im/0)), as the host's ----
template <typename T> GAM_D T ga_true_divide(T a, T b) { return a / b; }
template <typename T> GAM_D ga_complex<T> ga_true_divide(ga_complex<T> a, ga_complex<T> b) {
  T abr = fabs(b.re), abi = fabs(b.im);   // fabs: -0.0 divisors divide by +0
  if (abr >= abi) {
    if (abr == 0 && abi == 0) return ga_complex<T>(a.re / abr, a.im / abr);
    T rat = b.im / b.re, scl = T(1) / (b.re + b.im * rat);
    return ga_complex<T>((a.re + a.im * rat) * scl, (a.im - a.re * rat) * scl);
  }
  T rat = b.re / b.im, scl = T(1) / (b.im + b.re * rat);
  return ga_complex<T>((a.re * rat + a.im) * scl, (a.im * rat - a.re) * scl);
}

// ---- integer and float division ----
template <typename T> GAM_D T ga_floor_divide(T a, T b) {
  if (b == T(0)) return T(0);
  if constexpr (gam_t<T>::sgn) {
    typedef typename gam_t<T>::w W;
    if (b == T(-1)) return (T)(W(0) - (W)a);   // MIN // -1 wraps to MIN
    T q = (T)(a / b);
    if ((T)(a % b) != T(0) && ((a < T(0)) != (b < T(0)))) q = (T)(q - 1);
    return q;
  } else {
    return (T)(a / b);
  }
}
template <typename T> GAM_D T ga_remainder(T a, T b) {
  if (b == T(0)) return T(0);
  if constexpr (gam_t<T>::sgn) {
    if (b == T(-1)) return T(0);
    T r = (T)(a % b);
    if (r != T(0) && ((r < T(0)) != (b < T(0)))) r = (T)(r + b);
    return r;
  } else {
    return (T)(a % b);
  }
}
template <typename T> GAM_D T ga_fmod(T a, T b) {
  if (b == T(0)) return T(0);
  if constexpr (gam_t<T>::sgn)
    if (b == T(-1)) return T(0);
  return (T)(a % b);
}
// NumPy's npy_divmod (b != 0)
template <typename T> GAM_D T gam_divmod(T a, T b, T *mod) {
  T m = gam_fmod(a, b), div = (a - m) / b, fl;
  if (m != T(0)) {
    if ((b < T(0)) != (m < T(0))) {
      m += b;
      div -= T(1);
    }
  } else {
    m = gam_copysign(T(0), b);
  }
  if (div != T(0)) {
    fl = gam_floor(div);
    if (div - fl > T(0.5)) fl += T(1);
  } else {
    fl = gam_copysign(T(0), a / b);
  }
  *mod = m;
  return fl;
}
GAM_D float ga_floor_divide(float a, float b) { float m; return b == 0.f ? a / b : gam_divmod(a, b, &m); }
GAM_D double ga_floor_divide(double a, double b) { double m; return b == 0. ? a / b : gam_divmod(a, b, &m); }
GAM_D float ga_remainder(float a, float b) { float m = gam_fmod(a, b); if (b != 0.f) gam_divmod(a, b, &m); return m; }
GAM_D double ga_remainder(double a, double b) { double m = gam_fmod(a, b); if (b != 0.) gam_divmod(a, b, &m); return m; }

// Integer power by squaring, wrapping.  A negative exponent (NumPy raises)
// gives 1 for base 1, +-1 for base -1 and 0 otherwise.
template <typename T> GAM_D T ga_power(T a, T b) {
  typedef typename gam_t<T>::w W;
  if constexpr (gam_t<T>::sgn) {
    if (b < T(0)) return a == T(1) ? T(1) : a == T(-1) ? ((b & 1) ? T(-1) : T(1)) : T(0);
  }
  W r = 1, x = (W)a, e = (W)b;
  while (e) {
    if (e & 1) r *= x;
    x *= x;
    e >>= 1;
  }
  return (T)r;
}

// ---- unary arithmetic ----
template <typename T> GAM_D T ga_abs(T a) {
  if constexpr (gam_t<T>::sgn) return a < T(0) ? (T)((typename gam_t<T>::w)0 - (typename gam_t<T>::w)a) : a;
  else return a;
}
template <typename T> GAM_D T ga_abs(ga_complex<T> z) { return gam_hypot(z.re, z.im); }
template <typename T> GAM_D T ga_sign(T a) {
  if constexpr (gam_t<T>::sgn) return (T)((a > T(0)) - (a < T(0)));
  else return (T)(a > T(0));
}
template <typename T> GAM_D T gam_fsign(T a) { return a > T(0) ? T(1) : a < T(0) ? T(-1) : a == T(0) ? T(0) : a; }
GAM_D float ga_sign(float a) { return gam_fsign(a); }
GAM_D double ga_sign(double a) { return gam_fsign(a); }
// NumPy 2: z / |z|; nan + nanj for nan (or both parts infinite); 0 for 0
template <typename T> GAM_D ga_complex<T> ga_sign(ga_complex<T> z) {
  T a = gam_hypot(z.re, z.im);
  if (ga_isnan(a)) return ga_complex<T>(gam_nan(a), gam_nan(a));
  if (ga_isinf(a)) {
    if (ga_isinf(z.re)) {
      if (ga_isinf(z.im)) return ga_complex<T>(gam_nan(a), gam_nan(a));
      return ga_complex<T>(z.re > T(0) ? T(1) : T(-1), T(0));
    }
    return ga_complex<T>(T(0), z.im > T(0) ? T(1) : T(-1));
  }
  if (a == T(0)) return ga_complex<T>(T(0), T(0));
  return ga_complex<T>(z.re / a, z.im / a);
}
// Integer 1/x truncated; 1/0 is NumPy's cast of inf (0, or MIN for int32/64).
template <typename T> GAM_D T ga_reciprocal(T a) {
  if (a == T(0)) return gam_d2i<T>(gam_inf(1.0));
  if (a == T(1)) return T(1);
  if constexpr (gam_t<T>::sgn)
    if (a == T(-1)) return T(-1);
  return T(0);
}
GAM_D float ga_reciprocal(float a) { return 1.f / a; }
GAM_D double ga_reciprocal(double a) { return 1. / a; }
template <typename T> GAM_D ga_complex<T> ga_reciprocal(ga_complex<T> z) {
  if (gam_fabs(z.im) <= gam_fabs(z.re)) {
    T r = z.im / z.re, d = z.re + z.im * r;
    return ga_complex<T>(T(1) / d, -r / d);
  }
  T r = z.re / z.im, d = z.re * r + z.im;
  return ga_complex<T>(r / d, T(-1) / d);
}
template <typename T> GAM_D T ga_conj(T a) { return a; }
template <typename T> GAM_D ga_complex<T> ga_conj(ga_complex<T> z) { return ga_complex<T>(z.re, -z.im); }
GAM_D float ga_angle(float x) { return gam_atan2(0.f, x); }
GAM_D double ga_angle(double x) { return gam_atan2(0., x); }
template <typename T> GAM_D T ga_angle(ga_complex<T> z) { return gam_atan2(z.im, z.re); }

// ---- float-only ----
GAM_D float ga_deg2rad(float x) { return x * (3.14159265358979323846f / 180.0f); }
GAM_D double ga_deg2rad(double x) { return x * (3.14159265358979323846 / 180.0); }
GAM_D float ga_rad2deg(float x) { return x * (180.0f / 3.14159265358979323846f); }
GAM_D double ga_rad2deg(double x) { return x * (180.0 / 3.14159265358979323846); }
// NumPy's npy_logaddexp / npy_logaddexp2
template <typename T> GAM_D T gam_logaddexp(T x, T y, T ln2) {
  if (x == y) return x + ln2;   // equal infinities
  T t = x - y;
  if (t > T(0)) return x + gam_log1p(gam_exp(-t));
  if (t <= T(0)) return y + gam_log1p(gam_exp(t));
  return t;   // nan
}
template <typename T> GAM_D T gam_logaddexp2(T x, T y, T log2e) {
  if (x == y) return x + T(1);
  T t = x - y;
  if (t > T(0)) return x + log2e * gam_log1p(gam_exp2(-t));
  if (t <= T(0)) return y + log2e * gam_log1p(gam_exp2(t));
  return t;
}
GAM_D float ga_logaddexp(float x, float y) { return gam_logaddexp(x, y, 0.693147180559945309417232121458176568f); }
GAM_D double ga_logaddexp(double x, double y) { return gam_logaddexp(x, y, 0.693147180559945309417232121458176568); }
GAM_D float ga_logaddexp2(float x, float y) { return gam_logaddexp2(x, y, 1.442695040888963407359924681001892137f); }
GAM_D double ga_logaddexp2(double x, double y) { return gam_logaddexp2(x, y, 1.442695040888963407359924681001892137); }
template <typename T> GAM_D T gam_heaviside(T x, T h0) {
  return x < T(0) ? T(0) : x > T(0) ? T(1) : x == T(0) ? h0 : x;
}
GAM_D float ga_heaviside(float x, float h0) { return gam_heaviside(x, h0); }
GAM_D double ga_heaviside(double x, double h0) { return gam_heaviside(x, h0); }
// NumPy's sinc: y = pi x; sin(y) / y, 1 at 0
template <typename T> GAM_D T gam_sinc(T x) {
  T y = T(3.14159265358979323846) * x;
  return y == T(0) ? T(1) : gam_sin(y) / y;
}
GAM_D float ga_sinc(float x) { return gam_sinc(x); }
GAM_D double ga_sinc(double x) { return gam_sinc(x); }
// NumPy's i0 (modified Bessel function of the first kind, order 0):
// CUDA's own, but NaN at +-inf as NumPy's (and the host's)
GAM_D float ga_i0(float x) { return ga_isinf(x) ? __int_as_float(0x7fc00000) : cyl_bessel_i0f(x); }
GAM_D double ga_i0(double x) { return ga_isinf(x) ? __longlong_as_double(0x7ff8000000000000LL) : cyl_bessel_i0(x); }
// Exponent clamped: any |n| > 3000 already over/underflows every finite x.
GAM_D float ga_ldexp(float x, long long n) { return ldexpf(x, (int)(n > 3000 ? 3000 : n < -3000 ? -3000 : n)); }
GAM_D double ga_ldexp(double x, long long n) { return ldexp(x, (int)(n > 3000 ? 3000 : n < -3000 ? -3000 : n)); }
GAM_D float ga_frexp(float x, int *e) {
  if (!ga_isfinite(x) || x == 0.f) { *e = 0; return x; }
  return frexpf(x, e);
}
GAM_D double ga_frexp(double x, int *e) {
  if (!ga_isfinite(x) || x == 0.) { *e = 0; return x; }
  return frexp(x, e);
}
template <typename T> GAM_D T gam_modf(T x, T *ip) {
  T i = gam_trunc(x);
  *ip = i;
  return gam_copysign(ga_isinf(x) ? T(0) : x - i, x);
}
GAM_D float ga_modf(float x, float *ip) { return gam_modf(x, ip); }
GAM_D double ga_modf(double x, double *ip) { return gam_modf(x, ip); }
// nextafter on the bits (C's for float/double: y when x == y; NumPy's
// npy_half_nextafter when the storage is float16: x when x == y).
template <typename T> GAM_D T gam_nextafter(T x, T y) {
  if (x != x || y != y) return x + y;
  if (x == y) return y;
  if (x == T(0)) return gam_copysign(gam_from(decltype(gam_bits(x))(1)), y);
  return gam_from(gam_bits(x) + ((x < y) == (x > T(0)) ? 1 : -1));
}
// float16 bits of a float holding a float16 value (finite, nonzero, or inf)
GAM_D unsigned int gam_f2h(float f) {
  unsigned int u = __float_as_uint(f), s = (u >> 16) & 0x8000u, a = u & 0x7fffffffu;
  if (a >= 0x7f800000u) return s | 0x7c00u;
  if (a < 0x38800000u) return s | (unsigned int)(__uint_as_float(a) * 16777216.0f);
  return s | (((a >> 23) - 112u) << 10) | ((a >> 13) & 0x3ffu);
}
GAM_D float gam_h2f(unsigned int h) {
  unsigned int s = (h & 0x8000u) << 16, a = h & 0x7fffu;
  if (a >= 0x7c00u) return __uint_as_float(s | 0x7f800000u);
  if (a < 0x400u) return __uint_as_float(s | __float_as_uint((float)a * 5.9604644775390625e-8f));
  return __uint_as_float(s | (((a >> 10) + 112u) << 23) | ((a & 0x3ffu) << 13));
}
GAM_D float ga_nextafter(float x, float y, int size) {
  if (size != 2) return gam_nextafter(x, y);
  if (x != x || y != y) return gam_nan(x);
  if (x == y) return x;
  if (x == 0.f) return gam_copysign(5.9604644775390625e-8f, y);
  unsigned int h = gam_f2h(x);
  return gam_h2f((x < y) == (x > 0.f) ? h + 1 : h - 1);
}
GAM_D double ga_nextafter(double x, double y, int) { return gam_nextafter(x, y); }
// NumPy's spacing: the step away from zero (toward +inf for +-0), NaN for
// inf; float16 (npy_half_spacing) always steps toward +inf
template <typename T> GAM_D T ga_spacing(T x, int size) {
  if (isinf(x)) return gam_nan(x);
  return ga_nextafter(x, size == 2 || !(x < T(0)) ? gam_inf(x) : -gam_inf(x), size) - x;
}

// ---- bool / integer bit ops ----
GAM_D bool ga_invert(bool a) { return !a; }
template <typename T> GAM_D T ga_invert(T a) { return (T)~a; }
// NumPy: a shift by >= the width (or negative) gives 0 (-1 for >> of a
// negative value).
template <typename T> GAM_D T ga_lshift(T a, T b) {
  typedef typename gam_t<T>::w W;
  return (unsigned long long)b < (unsigned long long)gam_t<T>::bits ? (T)((W)(typename gam_t<T>::u)a << (int)b) : T(0);
}
template <typename T> GAM_D T ga_rshift(T a, T b) {
  if ((unsigned long long)b < (unsigned long long)gam_t<T>::bits) return (T)(a >> (int)b);
  if constexpr (gam_t<T>::sgn)
    if (a < T(0)) return (T)-1;
  return T(0);
}
// gcd/lcm on the magnitudes as unsigned (NumPy: gcd(MIN, 0) = MIN), wrapping
template <typename T> GAM_D typename gam_t<T>::u gam_mag(T a) {
  typedef typename gam_t<T>::u U;
  if constexpr (gam_t<T>::sgn) return a < T(0) ? (U)(0 - (typename gam_t<T>::w)a) : (U)a;
  else return (U)a;
}
template <typename T> GAM_D typename gam_t<T>::u gam_gcd(T a, T b) {
  typename gam_t<T>::u x = gam_mag(a), y = gam_mag(b);
  while (y) {
    typename gam_t<T>::u t = (typename gam_t<T>::u)(x % y);
    x = y;
    y = t;
  }
  return x;
}
template <typename T> GAM_D T ga_gcd(T a, T b) { return (T)gam_gcd(a, b); }
template <typename T> GAM_D T ga_lcm(T a, T b) {
  typedef typename gam_t<T>::w W;
  W g = gam_gcd(a, b);
  return g == 0 ? T(0) : (T)((W)gam_mag(a) / g * (W)gam_mag(b));
}
#undef GAM_D
