/* The host FFT (host/ga_host_fft.c) against a long double DFT: relative
 * RMS error below 1e-15 log2(n) (double) and 1e-6 log2(n) (float), forward
 * and inverse complex transforms and the real ones, for every length 1 ..
 * 160 (2048 with the argument "full"; minutes) and a sample of
 * large odd and prime lengths.  Run by `make test-c`. */
#include "host/ga_host.h"
#include "base/ga_dtype.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long long rng = 88172645463325252ULL;
static double urand(void) {
  rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
  return (double)(rng >> 11) / 9007199254740992.0 * 2 - 1;
}

/* reference: X_k = sum x_j exp(sign 2 pi i jk/n), long double */
static void dft(int64_t n, const long double *xr, const long double *xi, long double *yr, long double *yi, int sign) {
  long double *c = malloc(sizeof(long double) * (size_t)n), *s = malloc(sizeof(long double) * (size_t)n);
  for (int64_t k = 0; k < n; k++) {
    long double a = 2.0L * 3.141592653589793238462643383279502884L * (long double)k / (long double)n;
    c[k] = cosl(a), s[k] = sign * sinl(a);
  }
  for (int64_t k = 0; k < n; k++) {
    long double ar = 0, ai = 0;
    int64_t t = 0;
    for (int64_t j = 0; j < n; j++) {
      ar += xr[j] * c[t] - xi[j] * s[t];
      ai += xr[j] * s[t] + xi[j] * c[t];
      t += k;
      if (t >= n) t -= n;
    }
    yr[k] = ar, yi[k] = ai;
  }
  free(c);
  free(s);
}

static int failures;

static double rel_rms(int64_t m, const long double *yr, const long double *yi, const double *gr, const double *gi) {
  long double num = 0, den = 0;
  for (int64_t k = 0; k < m; k++) {
    long double dr = gr[k] - yr[k], di = gi ? gi[k] - yi[k] : 0;
    num += dr * dr + di * di;
    den += yr[k] * yr[k] + (yi ? yi[k] * yi[k] : 0);
  }
  return den > 0 ? (double)sqrtl(num / den) : (double)sqrtl(num);
}

static void check(int64_t n, int kind, int inverse, int dbl) {
  long double *xr = calloc((size_t)n, sizeof(long double)), *xi = calloc((size_t)n, sizeof(long double));
  long double *yr = malloc(sizeof(long double) * (size_t)n), *yi = malloc(sizeof(long double) * (size_t)n);
  int64_t m = n / 2 + 1;
  int64_t in_len = kind == GA_FFT_C2R ? m : n, out_len = kind == GA_FFT_R2C ? m : n;
  char *in = malloc(16 * (size_t)n), *out = malloc(16 * (size_t)n);
  int isz = kind == GA_FFT_R2C ? (dbl ? 8 : 4) : (dbl ? 16 : 8);
  int osz = kind == GA_FFT_C2R ? (dbl ? 8 : 4) : (dbl ? 16 : 8);
  for (int64_t j = 0; j < n; j++) {
    xr[j] = urand(), xi[j] = kind == GA_FFT_C2C ? urand() : 0;
    if (!dbl) xr[j] = (float)xr[j], xi[j] = (float)xi[j];
  }
  if (kind == GA_FFT_C2R) {   /* a Hermitian spectrum: that of a real signal */
    dft(n, xr, xi, yr, yi, -1);
    for (int64_t k = 0; k < m; k++) {
      if (!dbl) yr[k] = (float)yr[k], yi[k] = (float)yi[k];
      xr[k] = yr[k], xi[k] = yi[k];
    }
    xi[0] = 0;
    if (n % 2 == 0) xi[n / 2] = 0;
    for (int64_t k = m; k < n; k++) xr[k] = xr[n - k], xi[k] = -xi[n - k];
  }
  for (int64_t j = 0; j < in_len; j++) {
    if (kind == GA_FFT_R2C) {
      if (dbl) ((double *)in)[j] = (double)xr[j];
      else ((float *)in)[j] = (float)xr[j];
    } else if (dbl) {
      ((double *)in)[2 * j] = (double)xr[j], ((double *)in)[2 * j + 1] = (double)xi[j];
    } else {
      ((float *)in)[2 * j] = (float)xr[j], ((float *)in)[2 * j + 1] = (float)xi[j];
    }
  }
  dft(n, xr, xi, yr, yi, kind == GA_FFT_C2R || inverse ? 1 : -1);
  ga_fft_call c = {0};
  c.kind = kind, c.inverse = inverse, c.n = n;
  c.dtype_in = kind == GA_FFT_R2C ? (dbl ? GA_FLOAT64 : GA_FLOAT32) : (dbl ? GA_COMPLEX128 : GA_COMPLEX64);
  c.dtype_out = kind == GA_FFT_C2R ? (dbl ? GA_FLOAT64 : GA_FLOAT32) : (dbl ? GA_COMPLEX128 : GA_COMPLEX64);
  c.in = in, c.out = out, c.in_len = in_len, c.out_len = out_len;
  c.istride = isz, c.ostride = osz, c.bndim = 1, c.bshape[0] = 1, c.batch = 1, c.scale = 1;
  c.device = -1;
  int scaled;
  if (ga_host_fft(&c, &scaled)) {
    printf("n=%lld: %s\n", (long long)n, ga_errmsg());
    failures++;
    return;
  }
  double *gr = malloc(sizeof(double) * (size_t)n), *gi = malloc(sizeof(double) * (size_t)n);
  for (int64_t k = 0; k < out_len; k++) {
    if (kind == GA_FFT_C2R) {
      gr[k] = dbl ? ((double *)out)[k] : ((float *)out)[k];
      gi[k] = 0;
    } else if (dbl) {
      gr[k] = ((double *)out)[2 * k], gi[k] = ((double *)out)[2 * k + 1];
    } else {
      gr[k] = ((float *)out)[2 * k], gi[k] = ((float *)out)[2 * k + 1];
    }
  }
  double err = rel_rms(out_len, yr, yi, gr, gi);
  double lg = n > 2 ? log2((double)n) : 1;
  double tol = (dbl ? 1e-15 : 1e-6) * lg;
  if (!(err <= tol)) {
    printf("FAIL n=%lld kind=%d inverse=%d %s: relative RMS error %.3g > %.3g\n", (long long)n, kind, inverse,
           dbl ? "double" : "float", err, tol);
    failures++;
  }
  free(xr), free(xi), free(yr), free(yi), free(in), free(out), free(gr), free(gi);
}

int main(int argc, char **argv) {
  int64_t max = argc > 1 && !strcmp(argv[1], "full") ? 2048 : 160;
  int64_t big[] = {4099, 1031 * 2, 3 * 5 * 7 * 11, 2 * 1009 * 3, 997};
  int tests = 0;
  for (int dbl = 0; dbl <= 1; dbl++) {
    for (int64_t n = 1; n <= max; n++) {
      check(n, GA_FFT_C2C, 0, dbl);
      check(n, GA_FFT_C2C, 1, dbl);
      check(n, GA_FFT_R2C, 0, dbl);
      check(n, GA_FFT_C2R, 1, dbl);
      tests += 4;
    }
    for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) {
      check(big[i], GA_FFT_C2C, 0, dbl);
      check(big[i], GA_FFT_R2C, 0, dbl);
      check(big[i], GA_FFT_C2R, 1, dbl);
      tests += 3;
    }
  }
  printf("test_fft: %d transforms, %d failures\n", tests, failures);
  return failures != 0;
}
