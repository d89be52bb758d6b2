/* The float32 log and sin/cos of the normal draw (kernels/ga_philox.cuh)
 * against libm in double, over every input the draws can make: 2^24 each;
 * their float64 twins against long double libm over 3 million inputs.
 * The same text runs on the GPU, so this bounds the GPU's error too. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include "../../kernels/ga_philox.cuh"
#include "check.h"

/* the distance from the float f to x, in ulps of f's binade at x */
static double ulps(float f, double x) {
  if (x == 0.0) return f == 0.0f ? 0.0 : INFINITY;
  int e;
  frexp(x, &e);
  return fabs((double)f - x) / ldexp(1.0, e - 24);
}

/* the same in float64, against long double libm */
static double ulps_d(double f, long double x) {
  if (x == 0.0L) return f == 0.0 ? 0.0 : INFINITY;
  int e;
  frexpl(x, &e);
  return (double)(fabsl((long double)f - x) / ldexpl(1.0L, e - 53));
}

static uint64_t xs64(uint64_t *x) {
  *x ^= *x << 13; *x ^= *x >> 7; *x ^= *x << 17;
  return *x;
}

/* sin and cos of 2 pi j 2^-53 in long double, reduced exactly first (an
 * unreduced angle's own rounding would be several ulps near the zeros) */
static void sincos_ref(uint64_t j, long double *s, long double *c) {
  const long double twopi = 6.283185307179586476925286766559005768L;
  uint64_t q = (j + (1ull << 50)) >> 51;
  long double y = twopi * ldexpl((long double)(int64_t)(j - (q << 51)), -53), sy = sinl(y), cy = cosl(y);
  switch (q & 3) {
  case 0: *s = sy; *c = cy; break;
  case 1: *s = cy; *c = -sy; break;
  case 2: *s = -sy; *c = -cy; break;
  default: *s = -cy; *c = sy; break;
  }
}

static void test_float64(void) {
  double wl = 0, ws = 0, wc = 0, wn = 0;
  uint64_t x = 88172645463325252ull;
  for (int i = 0; i < 3000000; i++) {
    uint64_t r = xs64(&x), k;
    /* k over the whole range, and often small or near 2^53 (u near 0 or 1) */
    switch (i % 3) {
    case 0: k = (r >> 11) + 1; break;
    case 1: k = (r >> (11 + r % 50)) + 1; break;
    default: k = (1ull << 53) - (r >> (11 + r % 50)); break;
    }
    double l = ga_rng_log53(k);
    long double ref = logl(ldexpl((long double)k, -53));
    if (k != (1ull << 53)) { double u = ulps_d(l, ref); if (u > wl) wl = u; }
    else CHECK(l == 0.0, "log53(2^53) = %g", l);
    uint64_t j = k & ((1ull << 53) - 1);
    double s, c;
    ga_rng_sincos53(j, &s, &c);
    long double rs, rc;
    sincos_ref(j, &rs, &rc);
    { double u = ulps_d(s, rs); if (u > ws) ws = u; }
    { double u = ulps_d(c, rc); if (u > wc) wc = u; }
    ga_rng_w4 w = {{(uint32_t)(r >> 32), (uint32_t)r, (uint32_t)xs64(&x), (uint32_t)x}};
    double na, nb;
    ga_rng_normd(w, &na, &nb);
    long double rr = sqrtl(-2.0L * logl(ldexpl((long double)(ga_rng_bits53(w.w[0], w.w[1]) + 1), -53)));
    long double ts, tc;
    sincos_ref(ga_rng_bits53(w.w[2], w.w[3]), &ts, &tc);
    { double u = ulps_d(na, rr * tc); if (u > wn) wn = u; }
    { double u = ulps_d(nb, rr * ts); if (u > wn) wn = u; }
  }
  printf("rng poly float64: log %.3f ulp, sin %.3f, cos %.3f, normal %.3f\n", wl, ws, wc, wn);
  CHECK(wl <= 1.0, "log53 within 1 ulp: %.3f", wl);
  CHECK(ws <= 2.0, "sin53 within 2 ulp: %.3f", ws);
  CHECK(wc <= 2.0, "cos53 within 2 ulp: %.3f", wc);
  CHECK(wn <= 4.0, "normal within 4 ulp: %.3f", wn);
}

int main(void) {
  test_float64();
  double worst_log = 0, worst_sin = 0, worst_cos = 0, worst_norm = 0;
  uint32_t at_log = 0, at_sin = 0, at_cos = 0;
  for (uint32_t j = 1; j <= 0x1000000u; j++) {
    double u = ulps(ga_rng_log24(j), log(ldexp((double)j, -24)));
    if (u > worst_log) { worst_log = u; at_log = j; }
  }
  CHECK(ga_rng_log24(0x1000000u) == 0.0f, "log(1) = %g", ga_rng_log24(0x1000000u));
  /* -2 log, the normal draw's (its own, shorter polynomial) */
  double worst_m2 = 0;
  uint32_t at_m2 = 0;
  for (uint32_t j = 1; j < 0x1000000u; j++) {
    double u = ulps(ga_rng_m2log24(j), -2.0 * log(ldexp((double)j, -24)));
    if (u > worst_m2) { worst_m2 = u; at_m2 = j; }
  }
  CHECK(ga_rng_m2log24(0x1000000u) == 0.0f, "-2 log(1) = %g", ga_rng_m2log24(0x1000000u));
  printf("rng -2 log: %.3f ulp (j=%u)\n", worst_m2, at_m2);
  CHECK(worst_m2 <= 2.0, "-2 log within 2 ulp: %.3f", worst_m2);
  for (uint32_t j = 0; j < 0x1000000u; j++) {
    float s, c;
    ga_rng_sincos24(j, &s, &c);
    double a = 2.0 * 3.14159265358979323846 * ldexp((double)j, -24);
    double us = ulps(s, sin(a)), uc = ulps(c, cos(a));
    /* near a zero the double reference's own argument error dominates:
     * measure those against the exact reduction instead */
    if (j % 0x400000u == 0) { us = s == 0.0f || (j % 0x800000u && fabsf(s) == 1.0f) ? 0 : us; uc = 0; }
    if (us > worst_sin) { worst_sin = us; at_sin = j; }
    if (uc > worst_cos) { worst_cos = uc; at_cos = j; }
  }
  /* the table's sin/cos (the normal draw's), over every 24-bit angle */
  double worst_tsin = 0, worst_tcos = 0;
  uint32_t at_tsin = 0, at_tcos = 0;
  for (uint32_t j = 0; j < 0x1000000u; j++) {
    float s, c;
    ga_rng_sincos24t(j << 8 | (j & 0xff), &s, &c);   /* the low 8 bits are not used */
    double a = 2.0 * 3.14159265358979323846 * ldexp((double)j, -24);
    double us = ulps(s, sin(a)), uc = ulps(c, cos(a));
    if (j % 0x400000u == 0) { us = s == 0.0f || (j % 0x800000u && fabsf(s) == 1.0f) ? 0 : us; uc = 0; }
    if (j % 0x400000u == 0 && !(j % 0x800000u)) uc = fabsf(c) == 1.0f ? 0 : INFINITY;
    if (us > worst_tsin) { worst_tsin = us; at_tsin = j; }
    if (uc > worst_tcos) { worst_tcos = uc; at_tcos = j; }
  }
  /* whole normals from a spread of word pairs */
  uint32_t x = 2463534242u;
  for (int i = 0; i < 4000000; i++) {
    x ^= x << 13; x ^= x >> 17; x ^= x << 5;
    uint32_t w0 = x;
    x ^= x << 13; x ^= x >> 17; x ^= x << 5;
    uint32_t w1 = x;
    float a, b;
    ga_rng_normf(w0, w1, &a, &b);
    double r = sqrt(-2.0 * log(ldexp((double)((w0 >> 8) + 1), -24))), t = 2.0 * 3.14159265358979323846 * ldexp((double)(w1 >> 8), -24);
    double ua = ulps(a, r * cos(t)), ub = ulps(b, r * sin(t));
    if (fabs(r * cos(t)) > 1e-3 && ua > worst_norm) worst_norm = ua;
    if (fabs(r * sin(t)) > 1e-3 && ub > worst_norm) worst_norm = ub;
  }
  printf("rng poly: log %.3f ulp (j=%u), sin %.3f (j=%u), cos %.3f (j=%u), normal %.3f\n", worst_log, at_log,
         worst_sin, at_sin, worst_cos, at_cos, worst_norm);
  CHECK(worst_log <= 2.0, "log24 within 2 ulp: %.3f", worst_log);
  CHECK(worst_sin <= 2.0, "sin within 2 ulp: %.3f", worst_sin);
  CHECK(worst_cos <= 2.0, "cos within 2 ulp: %.3f", worst_cos);
  printf("rng table sin/cos: sin %.3f ulp (j=%u), cos %.3f (j=%u)\n", worst_tsin, at_tsin, worst_tcos, at_tcos);
  CHECK(worst_tsin <= 2.0, "table sin within 2 ulp: %.3f", worst_tsin);
  CHECK(worst_tcos <= 2.0, "table cos within 2 ulp: %.3f", worst_tcos);
  CHECK(worst_norm <= 4.0, "normal within 4 ulp: %.3f", worst_norm);
  printf("%d passed, %d failed\n", n_pass, n_fail);
  return n_fail != 0;
}
