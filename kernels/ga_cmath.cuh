// Complex math for generated kernels: ga_complex<T> versions (T = float,
// double) of the inexact ufuncs, agreeing with NumPy on the host (glibc's
// C99 Annex G functions, NumPy's own formulas for exp2/expm1/log2/log10/
// log1p/power/sinc).  Include-free like ga_types.cuh (which comes first):
// only NVRTC's built-in device math is used, through the gcm_* overloads
// below so that complex64 computes with the float functions throughout.
//
// The algorithms are ports (rewritten here) of FreeBSD msun, BSD licence:
//   s_csqrt.c, s_cexp.c/k_exp.c, s_ccosh.c, s_csinh.c, s_ctanh.c
//     Copyright (c) 2007, 2011 David Schultz <das@FreeBSD.ORG>,
//     Bruce D. Evans; ctanh after W. Kahan, "Branch Cuts for Complex
//     Elementary Functions", 1987;
//   catrig.c  Copyright (c) 2012 Stephen Montgomery-Smith
//     <stephen@FreeBSD.ORG>, after Hull, Fairgrieve & Tang, ACM TOMS 23(3),
//     1997.
// (Redistribution and use in source and binary forms, with or without
// modification, are permitted provided that the copyright notices above are
// retained; the software is provided "as is" without warranty of any kind.)
// clog's real part near |z| = 1 uses log1p(x*x + y*y - 1) with the squares
// split exactly by fma, so it stays accurate where log(hypot) cancels.

#define GCM_F1(n, f, d)                                                  \
  __device__ __forceinline__ float gcm_##n(float x) { return f(x); }   \
  __device__ __forceinline__ double gcm_##n(double x) { return d(x); }
#define GCM_F2(n, f, d)                                                                  \
  __device__ __forceinline__ float gcm_##n(float x, float y) { return f(x, y); }       \
  __device__ __forceinline__ double gcm_##n(double x, double y) { return d(x, y); }
GCM_F1(sqrt, sqrtf, sqrt) GCM_F1(exp, expf, exp) GCM_F1(expm1, expm1f, expm1)
GCM_F1(log, logf, log) GCM_F1(log1p, log1pf, log1p) GCM_F1(sin, sinf, sin)
GCM_F1(cos, cosf, cos) GCM_F1(tan, tanf, tan) GCM_F1(sinh, sinhf, sinh)
GCM_F1(cosh, coshf, cosh) GCM_F1(asin, asinf, asin) GCM_F1(acos, acosf, acos)
GCM_F1(atan, atanf, atan) GCM_F1(atanh, atanhf, atanh) GCM_F1(fabs, fabsf, fabs)
GCM_F2(hypot, hypotf, hypot) GCM_F2(atan2, atan2f, atan2) GCM_F2(copysign, copysignf, copysign)
#undef GCM_F1
#undef GCM_F2
__device__ __forceinline__ void gcm_sincos(float x, float *s, float *c) { sincosf(x, s, c); }
__device__ __forceinline__ void gcm_sincos(double x, double *s, double *c) { sincos(x, s, c); }
__device__ __forceinline__ float gcm_ldexp(float x, int e) { return ldexpf(x, e); }
__device__ __forceinline__ double gcm_ldexp(double x, int e) { return ldexp(x, e); }
__device__ __forceinline__ int gcm_ilogb(float x) { return ilogbf(x); }
__device__ __forceinline__ int gcm_ilogb(double x) { return ilogb(x); }
__device__ __forceinline__ float gcm_inf(float) { return __int_as_float(0x7f800000); }
__device__ __forceinline__ double gcm_inf(double) { return __longlong_as_double(0x7ff0000000000000LL); }
__device__ __forceinline__ float gcm_nan(float) { return __int_as_float(0x7fc00000); }
__device__ __forceinline__ double gcm_nan(double) { return __longlong_as_double(0x7ff8000000000000LL); }
__device__ __forceinline__ float gcm_fma(float x, float y, float z) { return fmaf(x, y, z); }
__device__ __forceinline__ double gcm_fma(double x, double y, double z) { return fma(x, y, z); }

__device__ __forceinline__ float gcm_mul_rn(float x, float y) { return __fmul_rn(x, y); }
__device__ __forceinline__ double gcm_mul_rn(double x, double y) { return __dmul_rn(x, y); }
// s + e = a + b exactly (Knuth).
template <typename T> __device__ __forceinline__ void gcm_two_sum(T a, T b, T *s, T *e) {
  T x = a + b, bv = x - a;
  *s = x, *e = (a - (x - bv)) + (b - bv);
}

// Per-type constant: GCM_K(float value, double value).
#define GCM_K(f, d) (sizeof(T) == 4 ? T(f) : T(d))
#define GCM_EPS GCM_K(0x1p-23, 0x1p-52)
#define GCM_MAX GCM_K(3.40282346638528859812e38, 1.79769313486231570815e308)
#define GCM_MIN GCM_K(0x1p-126, 0x1p-1022)
#define GCM_LN2 T(0.693147180559945309417232121458176568)
#define GCM_PI_2 T(1.57079632679489661923132169163975144)
#define GCM_INF gcm_inf(T(0))

template <typename T> __device__ __forceinline__ bool gcm_isnan(T x) { return x != x; }
template <typename T> __device__ __forceinline__ bool gcm_isinf(T x) { return gcm_fabs(x) > GCM_MAX; }
template <typename T> __device__ __forceinline__ bool gcm_isfin(T x) { return gcm_fabs(x) <= GCM_MAX; }
template <typename T> __device__ __forceinline__ bool gcm_neg(T x) { return gcm_copysign(T(1), x) < 0; }
template <typename T> __device__ __forceinline__ ga_complex<T> gcm_c(T r, T i) { return ga_complex<T>(r, i); }

// NumPy's complex product and division (reciprocal scale), for power and
// sinc.  Products are rounded separately (__*mul_rn: no FMA contraction) so
// that the GPU rounds exactly as NumPy does.
template <typename T> __device__ __forceinline__ ga_complex<T> gcm_cmul(ga_complex<T> a, ga_complex<T> b) {
  return gcm_c(gcm_mul_rn(a.re, b.re) - gcm_mul_rn(a.im, b.im), gcm_mul_rn(a.re, b.im) + gcm_mul_rn(a.im, b.re));
}
template <typename T> __device__ ga_complex<T> gcm_cdiv(ga_complex<T> a, ga_complex<T> b) {
  T abr = gcm_fabs(b.re), abi = gcm_fabs(b.im);
  if (abr >= abi) {
    if (abr == 0 && abi == 0) return gcm_c(a.re / abr, a.im / abi);
    T rat = b.im / b.re, scl = T(1) / (b.re + gcm_mul_rn(b.im, rat));
    return gcm_c(gcm_mul_rn(a.re + gcm_mul_rn(a.im, rat), scl), gcm_mul_rn(a.im - gcm_mul_rn(a.re, rat), scl));
  }
  T rat = b.re / b.im, scl = T(1) / (b.im + gcm_mul_rn(b.re, rat));
  return gcm_c(gcm_mul_rn(gcm_mul_rn(a.re, rat) + a.im, scl), gcm_mul_rn(gcm_mul_rn(a.im, rat) - a.re, scl));
}

// exp(x) * (c + i s) * 2^expt for x beyond exp's overflow threshold:
// exp(x) = exp(r) 2^k, r = x - k ln2 (Cody-Waite split, exact k*hi).
template <typename T> __device__ ga_complex<T> gcm_scaled_exp(T x, T c, T s, int expt) {
  int k = (int)(x * T(1.44269504088896340736) + T(0.5));
  T r = (x - T(k) * GCM_K(0.693145751953125, 6.93147180369123816490e-01)) -
        T(k) * GCM_K(1.4286067653e-06, 1.90821492927058770002e-10);
  T e = gcm_exp(r);
  return gcm_c(gcm_ldexp(e * c, k + expt), gcm_ldexp(e * s, k + expt));
}

// ---------------------------------------------------------------- sqrt
template <typename T> __device__ ga_complex<T> ga_sqrt(ga_complex<T> z) {
  T a = z.re, b = z.im;
  if (a == 0 && b == 0) return gcm_c(T(0), b);
  if (gcm_isinf(b)) return gcm_c(GCM_INF, b);
  if (gcm_isnan(a)) return gcm_c(a, (b - b) / (b - b));
  if (gcm_isinf(a)) {
    // sqrt(-inf + iy) = 0 + i inf*sign(y), sqrt(-inf + i nan) = nan + i inf;
    // sqrt(+inf + iy) = inf + i 0*sign(y), sqrt(+inf + i nan) = inf + i nan.
    if (a < 0) return gcm_c(gcm_fabs(b - b), gcm_copysign(a, b));
    return gcm_c(a, gcm_copysign(b - b, b));
  }
  if (gcm_isnan(b)) return gcm_c(b, b);
  // Scale to avoid overflow in a + hypot(a, b), and precision loss for
  // subnormal inputs (by an even power of two).
  T up = T(1), thresh = GCM_MAX / T(2.414213562373095048801688724209698);
  if (gcm_fabs(a) >= thresh || gcm_fabs(b) >= thresh) {
    a *= T(0.25), b *= T(0.25), up = T(2);
  } else if (gcm_fabs(a) < T(4) * GCM_MIN && gcm_fabs(b) < T(4) * GCM_MIN) {
    a *= GCM_K(0x1p24, 0x1p54), b *= GCM_K(0x1p24, 0x1p54), up = GCM_K(0x1p-12, 0x1p-27);
  }
  // Algorithm 312, CACM vol 10, Oct 1967: no cancellation in either branch.
  if (a >= 0) {
    T t = gcm_sqrt((a + gcm_hypot(a, b)) * T(0.5));
    return gcm_c(t * up, b / (2 * t) * up);
  }
  T t = gcm_sqrt((-a + gcm_hypot(a, b)) * T(0.5));
  return gcm_c(gcm_fabs(b) / (2 * t) * up, gcm_copysign(t, b) * up);
}

// ---------------------------------------------------------------- exp
template <typename T> __device__ ga_complex<T> ga_exp(ga_complex<T> z) {
  T x = z.re, y = z.im;
  if (y == 0) return gcm_c(gcm_exp(x), y);              // exp(x + i0) = exp(x) + i0
  if (!gcm_isfin(y)) {
    if (gcm_isfin(x)) return gcm_c(y - y, y - y);        // nan + i nan
    if (gcm_isnan(x)) return gcm_c(x, gcm_copysign(x, y));
    if (x > 0) return gcm_c(x, y - y);                   // +-inf + i nan
    return gcm_c(T(0), gcm_copysign(T(0), y));           // exp(-inf + i inf/nan) = +-0 +- i0
  }
  T s, c;
  gcm_sincos(y, &s, &c);
  if (x > GCM_K(88.7228317, 709.782712893384) && x < GCM_K(192.69492, 1454.9159319953251))
    return gcm_scaled_exp(x, c, s, 0);
  T e = gcm_exp(x);
  if (gcm_isnan(x)) return gcm_c(x, gcm_copysign(x, y));
  return gcm_c(e * c, e * s);
}

// ---------------------------------------------------------------- log
template <typename T> __device__ ga_complex<T> ga_log(ga_complex<T> z) {
  T x = z.re, y = z.im, ax = gcm_fabs(x), ay = gcm_fabs(y);
  T im = gcm_atan2(y, x);
  if (gcm_isnan(x) || gcm_isnan(y)) {
    T n = gcm_isnan(x) ? x : y;
    return gcm_c(gcm_isinf(x) || gcm_isinf(y) ? GCM_INF : n, n);
  }
  if (ax == 0 && ay == 0) return gcm_c(T(-1) / ax, im);
  T hi = ax > ay ? ax : ay, lo = ax > ay ? ay : ax, re;
  if (hi > GCM_MAX / 2) {
    re = gcm_log(gcm_hypot(hi * T(0.5), lo * T(0.5))) + GCM_LN2;
  } else if (hi < GCM_MIN) {
    T up = GCM_K(0x1p24, 0x1p53);
    re = gcm_log(gcm_hypot(hi * up, lo * up)) - GCM_K(24, 53) * GCM_LN2;
  } else {
    T h = gcm_hypot(hi, lo);
    if (h >= T(0.71) && h <= T(1.73)) {
      // x^2 + y^2 - 1 = p1 + e1 + p2 + e2 - 1 (squares split exactly by fma),
      // summed with error-free two-sums so that only the last rounding of
      // the tiny tail is inexact; then log1p.  (The products are __*mul_rn
      // so that FMA contraction cannot break the two-sums.)
      T p1 = gcm_mul_rn(hi, hi), e1 = gcm_fma(hi, hi, -p1);
      T p2 = gcm_mul_rn(lo, lo), e2 = gcm_fma(lo, lo, -p2);
      T s1, t1, u, t2, a, ta, b, tb, c, tc, w, tw;
      gcm_two_sum(p1, T(-1), &s1, &t1);
      gcm_two_sum(s1, p2, &u, &t2);
      gcm_two_sum(t1, e1, &a, &ta);
      gcm_two_sum(t2, e2, &b, &tb);
      gcm_two_sum(a, b, &c, &tc);
      gcm_two_sum(u, c, &w, &tw);
      re = gcm_log1p(w + (tw + (tc + (ta + tb)))) * T(0.5);
    } else {
      re = gcm_log(h);
    }
  }
  return gcm_c(re, im);
}

// ---------------------------------------------------------------- cosh / sinh
template <typename T> __device__ ga_complex<T> ga_cosh(ga_complex<T> z) {
  T x = z.re, y = z.im;
  bool xf = gcm_isfin(x), yf = gcm_isfin(y);
  if (xf && yf) {
    if (y == 0) return gcm_c(gcm_cosh(x), x * y);
    T ax = gcm_fabs(x), s, c;
    gcm_sincos(y, &s, &c);
    if (ax < GCM_K(9, 22)) return gcm_c(gcm_cosh(x) * c, gcm_sinh(x) * s);
    if (ax < GCM_K(88.7228317, 709.782712893384)) {
      T h = gcm_exp(ax) * T(0.5);
      return gcm_c(h * c, gcm_copysign(h, x) * s);
    }
    if (ax < GCM_K(192.69492, 1454.9159319953251)) {
      ga_complex<T> w = gcm_scaled_exp(ax, c, s, -1);
      return gcm_c(w.re, w.im * gcm_copysign(T(1), x));
    }
    T h = GCM_MAX * x;
    return gcm_c(h * h * c, h * s);
  }
  // (glibc's choices where Annex G leaves a sign unspecified)
  if (x == 0) return gcm_c(y - y, T(0));                      // cosh(+-0 + i inf/nan)
  if (y == 0) return gcm_c(x * x, gcm_isnan(x) ? y : gcm_copysign(T(0), x) * y);
  if (xf) return gcm_c(y - y, x * (y - y));
  if (gcm_isinf(x)) {
    if (!yf) return gcm_c(x * x, x * (y - y));
    T s, c;
    gcm_sincos(y, &s, &c);
    return gcm_c((x * x) * c, x * s);
  }
  return gcm_c((x * x) * (y - y), (x + x) * (y - y));
}

template <typename T> __device__ ga_complex<T> ga_sinh(ga_complex<T> z) {
  T x = z.re, y = z.im;
  bool xf = gcm_isfin(x), yf = gcm_isfin(y);
  if (xf && yf) {
    if (y == 0) return gcm_c(gcm_sinh(x), y);
    T ax = gcm_fabs(x), s, c;
    gcm_sincos(y, &s, &c);
    if (ax < GCM_K(9, 22)) return gcm_c(gcm_sinh(x) * c, gcm_cosh(x) * s);
    if (ax < GCM_K(88.7228317, 709.782712893384)) {
      T h = gcm_exp(ax) * T(0.5);
      return gcm_c(gcm_copysign(h, x) * c, h * s);
    }
    if (ax < GCM_K(192.69492, 1454.9159319953251)) {
      ga_complex<T> w = gcm_scaled_exp(ax, c, s, -1);
      return gcm_c(w.re * gcm_copysign(T(1), x), w.im);
    }
    T h = GCM_MAX * x;
    return gcm_c(h * c, h * h * s);
  }
  if (x == 0) return gcm_c(x, y - y);                         // sinh(+-0 + i inf/nan)
  if (y == 0) return gcm_isnan(x) ? z : gcm_c(x, gcm_copysign(T(0), y));
  if (xf) return gcm_c(y - y, x * (y - y));
  if (gcm_isinf(x)) {
    if (!yf) return gcm_c(x * x, x * (y - y));
    T s, c;
    gcm_sincos(y, &s, &c);
    return gcm_c(x * c, GCM_INF * s);
  }
  return gcm_c((x * x) * (y - y), (x + x) * (y - y));
}

// ---------------------------------------------------------------- tanh
template <typename T> __device__ ga_complex<T> ga_tanh(ga_complex<T> z) {
  T x = z.re, y = z.im;
  if (!gcm_isfin(x)) {
    if (gcm_isnan(x)) return gcm_c(x, y == 0 ? y : x * y);
    T sc = y;  // tanh(+-inf + iy) = +-1 + i0 sin(2y)
    if (gcm_isfin(y) && gcm_fabs(y) > 1) {
      T s, c;
      gcm_sincos(y, &s, &c);
      sc = s * c;
    }
    return gcm_c(gcm_copysign(T(1), x), gcm_copysign(T(0), sc));
  }
  if (!gcm_isfin(y)) return gcm_c(x == 0 ? x : y - y, y - y);
  if (gcm_fabs(x) >= GCM_K(11, 22)) {
    T em = gcm_exp(-gcm_fabs(x)), s, c;
    gcm_sincos(y, &s, &c);
    return gcm_c(gcm_copysign(T(1), x), T(4) * s * c * em * em);
  }
  if (gcm_fabs(x) >= T(0.5)) {
    // tanh z = (sinh 2x + i sin 2y) / (cosh 2x + cos 2y); the real part as
    // 1 - (exp(-2|x|) + cos 2y) / (cosh 2x + cos 2y) keeps it accurate near 1.
    T s2, c2;
    if (gcm_fabs(y) < GCM_MAX / 2) {
      gcm_sincos(2 * y, &s2, &c2);
    } else {
      gcm_sincos(y, &s2, &c2);
      T t = 2 * s2 * c2;
      c2 = (c2 - s2) * (c2 + s2), s2 = t;
    }
    T den = gcm_cosh(2 * x) + c2;
    return gcm_c(gcm_copysign(1 - (gcm_exp(-2 * gcm_fabs(x)) + c2) / den, x), s2 / den);
  }
  // Kahan: t = tan y, beta = 1/cos^2 y, s = sinh x, rho = cosh x.
  T t = gcm_tan(y), beta = T(1) + t * t, s = gcm_sinh(x);
  T rho = gcm_sqrt(T(1) + s * s), den = T(1) + beta * s * s;
  return gcm_c((beta * rho * s) / den, t / den);
}

// cos z = cosh(iz), sin z = -i sinh(iz), tan z = -i tanh(iz)
template <typename T> __device__ ga_complex<T> ga_cos(ga_complex<T> z) { return ga_cosh(gcm_c(-z.im, z.re)); }
template <typename T> __device__ ga_complex<T> ga_sin(ga_complex<T> z) {
  if (!gcm_isfin(z.re)) {  // glibc's csin: sin(inf/nan + i0) = nan + i0, sin(inf/nan + i inf) = nan + i inf
    if (z.im == 0) return gcm_c(z.re - z.re, z.im);
    if (gcm_isinf(z.im)) return gcm_c(z.re - z.re, GCM_INF);
  }
  ga_complex<T> w = ga_sinh(gcm_c(-z.im, z.re));
  return gcm_c(w.im, -w.re);
}
template <typename T> __device__ ga_complex<T> ga_tan(ga_complex<T> z) {
  ga_complex<T> w = ga_tanh(gcm_c(-z.im, z.re));
  return gcm_c(w.im, -w.re);
}

// ---------------------------------------------------------------- inverse (catrig.c)
// f(a, b, hypot(a, b)) = (hypot(a, b) - b) / 2 without cancellation.
template <typename T> __device__ __forceinline__ T gcm_f(T a, T b, T h) {
  if (b < 0) return (h - b) / 2;
  if (b == 0) return a / 2;
  return a * a / (h + b) / 2;
}

// x, y >= 0, < 1/eps.  rx = Re casinh(x + iy); either B = y/A usable for
// asin/acos, or sqrt(A*A - y*y) (scaled with ny) for atan2.
template <typename T> __device__ void gcm_hard_work(T x, T y, T *rx, bool *busable, T *B, T *sA2my2, T *ny) {
  const T eps = GCM_EPS;
  T R = gcm_hypot(x, y + 1), S = gcm_hypot(x, y - 1);
  T A = (R + S) / 2;
  if (A < 1) A = 1;
  if (A < 10) {
    if (y == 1 && x < eps * eps / 128) {
      *rx = gcm_sqrt(x);
    } else if (x >= eps * gcm_fabs(y - 1)) {
      T Am1 = gcm_f(x, 1 + y, R) + gcm_f(x, 1 - y, S);
      *rx = gcm_log1p(Am1 + gcm_sqrt(Am1 * (A + 1)));
    } else if (y < 1) {
      *rx = x / gcm_sqrt((1 - y) * (1 + y));
    } else {
      *rx = gcm_log1p((y - 1) + gcm_sqrt((y - 1) * (y + 1)));
    }
  } else {
    *rx = gcm_log(A + gcm_sqrt(A * A - 1));
  }
  *ny = y;
  if (y < GCM_K(4.3368086899420177e-19, 5.9666725849601654e-154)) {  // 4 sqrt(MIN)
    *busable = false;
    *sA2my2 = A * (2 / eps);
    *ny = y * (2 / eps);
    return;
  }
  *B = y / A;
  *busable = true;
  if (*B > T(0.6417)) {
    *busable = false;
    if (y == 1 && x < eps / 128) {
      *sA2my2 = gcm_sqrt(x) * gcm_sqrt((A + y) / 2);
    } else if (x >= eps * gcm_fabs(y - 1)) {
      T Amy = gcm_f(x, y + 1, R) + gcm_f(x, y - 1, S);
      *sA2my2 = gcm_sqrt(Amy * (A + y));
    } else if (y > 1) {
      *sA2my2 = x * (4 / eps / eps) * y / gcm_sqrt((y + 1) * (y - 1));
      *ny = y * (4 / eps / eps);
    } else {
      *sA2my2 = gcm_sqrt((1 - y) * (1 + y));
    }
  }
}

// log(x + iy) for |z| finite or infinite and > ~1/eps.
template <typename T> __device__ void gcm_clog_large(T x, T y, T *rr, T *ri) {
  T ax = gcm_fabs(x), ay = gcm_fabs(y);
  if (ax < ay) { T t = ax; ax = ay; ay = t; }
  if (ax > GCM_MAX / 2)
    *rr = gcm_log(gcm_hypot(x / T(2.718281828459045235360287), y / T(2.718281828459045235360287))) + 1;
  else if (ax > GCM_K(4.611685743549481e+18, 3.3519519824856489e+153) || ay < GCM_K(1.0842021724855044e-19, 1.4916681462400413e-154))
    *rr = gcm_log(gcm_hypot(x, y));
  else
    *rr = gcm_log(ax * ax + ay * ay) / 2;
  *ri = gcm_atan2(y, x);
}

template <typename T> __device__ ga_complex<T> ga_arcsinh(ga_complex<T> z) {
  T x = z.re, y = z.im, ax = gcm_fabs(x), ay = gcm_fabs(y), rx, ry, B, sA, ny, wx, wy;
  if (gcm_isnan(x) || gcm_isnan(y)) {
    if (gcm_isinf(x)) return gcm_c(x, y + y);
    if (gcm_isinf(y)) return gcm_c(gcm_fabs(y), x + x);
    if (y == 0) return gcm_c(x + x, y);
    return gcm_c(x + y, x + y);
  }
  if (ax > 1 / GCM_EPS || ay > 1 / GCM_EPS) {
    if (gcm_neg(x)) gcm_clog_large(-x, -y, &wx, &wy);
    else gcm_clog_large(x, y, &wx, &wy);
    return gcm_c(gcm_copysign(wx + GCM_LN2, x), gcm_copysign(wy, y));
  }
  if (x == 0 && y == 0) return z;
  T small = GCM_K(8.4572793338e-4, 3.65002414998885671e-08) / 4;  // sqrt(6 eps) / 4
  if (ax < small && ay < small) return z;
  bool bu;
  gcm_hard_work(ax, ay, &rx, &bu, &B, &sA, &ny);
  ry = bu ? gcm_asin(B) : gcm_atan2(ny, sA);
  return gcm_c(gcm_copysign(rx, x), gcm_copysign(ry, y));
}

template <typename T> __device__ ga_complex<T> ga_arccos(ga_complex<T> z) {
  T x = z.re, y = z.im, ax = gcm_fabs(x), ay = gcm_fabs(y), rx, ry, B, sA, nx, wx, wy;
  bool sx = gcm_neg(x), sy = gcm_neg(y);
  if (gcm_isnan(x) || gcm_isnan(y)) {
    if (gcm_isinf(x)) return gcm_c(y + y, -GCM_INF);
    if (gcm_isinf(y)) return gcm_c(x + x, -y);
    if (x == 0) return gcm_c(GCM_PI_2, y + y);
    return gcm_c(x + y, x + y);
  }
  if (ax > 1 / GCM_EPS || ay > 1 / GCM_EPS) {
    gcm_clog_large(x, y, &wx, &wy);
    rx = gcm_fabs(wy);
    ry = wx + GCM_LN2;
    return gcm_c(rx, sy ? ry : -ry);
  }
  if (x == 1 && y == 0) return gcm_c(T(0), -y);
  T small = GCM_K(8.4572793338e-4, 3.65002414998885671e-08) / 4;
  if (ax < small && ay < small)  // pi/2 - x, pi/2 split in hi + lo
    return gcm_c(GCM_K(1.57079637050628662109375, 1.5707963267948966) - (x - GCM_K(-4.37113900018624283e-8, 6.123233995736766e-17)), -y);
  bool bu;
  gcm_hard_work(ay, ax, &ry, &bu, &B, &sA, &nx);
  if (bu) rx = gcm_acos(sx ? -B : B);
  else rx = gcm_atan2(sA, sx ? -nx : nx);
  return gcm_c(rx, sy ? ry : -ry);
}

template <typename T> __device__ ga_complex<T> ga_arccosh(ga_complex<T> z) {
  ga_complex<T> w = ga_arccos(z);
  T rx = w.re, ry = w.im;
  if (gcm_isnan(rx) && gcm_isnan(ry)) return gcm_c(ry, rx);
  if (gcm_isnan(rx)) return gcm_c(gcm_fabs(ry), rx);
  if (gcm_isnan(ry)) return gcm_c(ry, rx);  // acosh(+-0 + i nan) = nan + i pi/2
  return gcm_c(gcm_fabs(ry), gcm_copysign(rx, z.im));
}

// asin z = i conj(asinh(i conj z)) = swap(asinh(swap z)), likewise atan.
template <typename T> __device__ ga_complex<T> ga_arcsin(ga_complex<T> z) {
  ga_complex<T> w = ga_arcsinh(gcm_c(z.im, z.re));
  return gcm_c(w.im, w.re);
}

// x / (x*x + y*y) when |x| or |y| > 1/eps, without spurious over/underflow.
template <typename T> __device__ T gcm_re_recip(T x, T y) {
  T ax = gcm_fabs(x), ay = gcm_fabs(y), cut = GCM_K(0x1p13, 0x1p27);
  if (gcm_isinf(x) || ax >= ay * cut) return 1 / x;
  if (ay >= ax * cut) return x / y / y;
  T s = gcm_ldexp(T(1), 1 - gcm_ilogb(x));
  x *= s, y *= s;
  return x / (x * x + y * y) * s;
}

template <typename T> __device__ ga_complex<T> ga_arctanh(ga_complex<T> z) {
  T x = z.re, y = z.im, ax = gcm_fabs(x), ay = gcm_fabs(y), rx, ry;
  if (y == 0 && ax <= 1) return gcm_c(gcm_atanh(x), y);
  if (x == 0) return gcm_c(x, gcm_atan(y));
  if (gcm_isnan(x) || gcm_isnan(y)) {
    if (gcm_isinf(x)) return gcm_c(gcm_copysign(T(0), x), y + y);
    if (gcm_isinf(y)) return gcm_c(gcm_copysign(T(0), x), gcm_copysign(GCM_PI_2, y));
    return gcm_c(x + y, x + y);
  }
  if (ax > 1 / GCM_EPS || ay > 1 / GCM_EPS) return gcm_c(gcm_re_recip(x, y), gcm_copysign(GCM_PI_2, y));
  T small = GCM_K(5.9801995673e-4, 2.5809568279517849e-8) / 2;  // sqrt(3 eps) / 2
  if (ax < small && ay < small) return z;
  if (ax == 1 && ay < GCM_EPS) {
    rx = (GCM_LN2 - gcm_log(ay)) / 2;
  } else {
    T d = ax - 1, ss = ay < GCM_K(1.0842021724855044e-19, 1.4916681462400413e-154) ? d * d : d * d + ay * ay;
    rx = gcm_log1p(4 * ax / ss) / 4;
  }
  if (ax == 1) ry = gcm_atan2(T(2), -ay) / 2;
  else if (ay < GCM_EPS) ry = gcm_atan2(2 * ay, (1 - ax) * (1 + ax)) / 2;
  else ry = gcm_atan2(2 * ay, (1 - ax) * (1 + ax) - ay * ay) / 2;
  return gcm_c(gcm_copysign(rx, x), gcm_copysign(ry, y));
}

template <typename T> __device__ ga_complex<T> ga_arctan(ga_complex<T> z) {
  ga_complex<T> w = ga_arctanh(gcm_c(z.im, z.re));
  return gcm_c(w.im, w.re);
}

// ---------------------------------------------------------------- NumPy's formulas
template <typename T> __device__ ga_complex<T> ga_exp2(ga_complex<T> z) {
  return ga_exp(gcm_c(z.re * GCM_LN2, z.im * GCM_LN2));
}
template <typename T> __device__ ga_complex<T> ga_expm1(ga_complex<T> z) {
  T a = gcm_sin(z.im / 2);
  return gcm_c(gcm_mul_rn(gcm_expm1(z.re), gcm_cos(z.im)) - gcm_mul_rn(2 * a, a), gcm_exp(z.re) * gcm_sin(z.im));
}
template <typename T> __device__ ga_complex<T> ga_log2(ga_complex<T> z) {
  ga_complex<T> w = ga_log(z);
  return gcm_c(w.re * T(1.442695040888963407359924681001892137), w.im * T(1.442695040888963407359924681001892137));
}
template <typename T> __device__ ga_complex<T> ga_log10(ga_complex<T> z) {
  ga_complex<T> w = ga_log(z);
  return gcm_c(w.re * T(0.434294481903251827651128918916605082), w.im * T(0.434294481903251827651128918916605082));
}
template <typename T> __device__ ga_complex<T> ga_log1p(ga_complex<T> z) {
  T xp = z.re + 1;
  return gcm_c(gcm_log(gcm_hypot(xp, z.im)), gcm_atan2(z.im, xp));
}

// npy_cpow: small integer powers by repeated multiplication, else
// exp(b log a) (glibc's cpow).
template <typename T> __device__ ga_complex<T> ga_power(ga_complex<T> a, ga_complex<T> b) {
  T ar = a.re, ai = a.im, br = b.re, bi = b.im;
  if (br == 0 && bi == 0) return gcm_c(T(1), T(0));
  if (ar == 0 && ai == 0) {
    if (br > 0) return gcm_c(T(0), T(0));
    return gcm_c(gcm_nan(T(0)), gcm_nan(T(0)));
  }
  if (bi == 0 && br > -100 && br < 100 && T((int)br) == br) {
    int n = (int)br;
    if (n == 1) return a;
    if (n == 2) return gcm_cmul(a, a);
    if (n == 3) return gcm_cmul(a, gcm_cmul(a, a));
    if (n < 0) n = -n;
    ga_complex<T> r(T(1), T(0)), p = a;
    for (int m = 1;; m <<= 1) {
      if (n & m) r = gcm_cmul(r, p);
      if (n < (m << 1)) break;
      p = gcm_cmul(p, p);
    }
    return br < 0 ? gcm_cdiv(gcm_c(T(1), T(0)), r) : r;
  }
  // b * log(a) with C99 Annex G's multiplication (recovers infinities where
  // the plain formula gives nan + i nan), as glibc's cpow does.
  ga_complex<T> l = ga_log(a);
  T c = l.re, d = l.im, ac = gcm_mul_rn(br, c), bd = gcm_mul_rn(bi, d), ad = gcm_mul_rn(br, d), bc = gcm_mul_rn(bi, c);
  T x = ac - bd, y = ad + bc;
  if (gcm_isnan(x) && gcm_isnan(y)) {
    bool re = false;
    if (gcm_isinf(br) || gcm_isinf(bi)) {
      br = gcm_copysign(gcm_isinf(br) ? T(1) : T(0), br), bi = gcm_copysign(gcm_isinf(bi) ? T(1) : T(0), bi);
      if (gcm_isnan(c)) c = gcm_copysign(T(0), c);
      if (gcm_isnan(d)) d = gcm_copysign(T(0), d);
      re = true;
    }
    if (gcm_isinf(c) || gcm_isinf(d)) {
      c = gcm_copysign(gcm_isinf(c) ? T(1) : T(0), c), d = gcm_copysign(gcm_isinf(d) ? T(1) : T(0), d);
      if (gcm_isnan(br)) br = gcm_copysign(T(0), br);
      if (gcm_isnan(bi)) bi = gcm_copysign(T(0), bi);
      re = true;
    }
    if (!re && (gcm_isinf(ac) || gcm_isinf(bd) || gcm_isinf(ad) || gcm_isinf(bc))) {
      if (gcm_isnan(br)) br = gcm_copysign(T(0), br);
      if (gcm_isnan(bi)) bi = gcm_copysign(T(0), bi);
      if (gcm_isnan(c)) c = gcm_copysign(T(0), c);
      if (gcm_isnan(d)) d = gcm_copysign(T(0), d);
      re = true;
    }
    if (re) x = GCM_INF * (br * c - bi * d), y = GCM_INF * (br * d + bi * c);
  }
  return ga_exp(gcm_c(x, y));
}

// NumPy's sinc: y = pi*z (a complex multiply by pi + 0i), 1e-20 for 0,
// sin(y) / y.
template <typename T> __device__ ga_complex<T> ga_sinc(ga_complex<T> z) {
  const T pi = T(3.14159265358979323846264338327950288);
  ga_complex<T> y = gcm_cmul(gcm_c(pi, T(0)), z);
  if (y.re == 0 && y.im == 0) y = gcm_c(T(1e-20), T(0));
  return gcm_cdiv(ga_sin(y), y);
}

#undef GCM_K
#undef GCM_EPS
#undef GCM_MAX
#undef GCM_MIN
#undef GCM_LN2
#undef GCM_PI_2
#undef GCM_INF
