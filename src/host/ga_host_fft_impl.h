/* The host FFT's arithmetic for one precision, included twice by
 * host/ga_host_fft.c with R (the real type) and S(x) (a name suffix) set:
 * R = double, S(x) = x##_d and R = float, S(x) = x##_f.
 *
 * A complex transform of length n is a Stockham autosort pass sequence
 * (FFTPACK's and pocketfft's layout: cc(ido, ip, l1) -> ch(ido, l1, ip)),
 * radix 4 and 2 written out, every other radix (3, 5, 7, ... up to
 * GA_FFT_MAXRADIX) through the general radix-p butterfly with precomputed
 * roots; lengths with a larger prime factor go through Bluestein's chirp-z
 * with a power-of-2,3,5 convolution length.  Twiddles are computed in long
 * double and rounded once.  Real transforms of even length run a complex
 * transform of half the length. */

typedef struct S(cpx) { R r, i; } S(cpx);

typedef struct S(plan) {
  int64_t n;
  int nfct;
  int fct[64];
  S(cpx) *tw[64];          /* per pass: (ip-1)*(ido-1) twiddles exp(+2 pi i j l1 k / n) */
  S(cpx) *roots[64];       /* per general pass: exp(+2 pi i t / ip), t < ip */
  /* Bluestein */
  int64_t n2;
  struct S(plan) *sub;
  S(cpx) *bk, *bkf;        /* chirp exp(+i pi k^2 / n); FFT of the padded chirp / n2 */
  /* real transforms of even length: the half-length plan and exp(-2 pi i k / n) */
  struct S(plan) *half;
  S(cpx) *rtw;
  size_t bytes;
} S(plan);

static void S(plan_free)(S(plan) *p) {
  if (!p) return;
  for (int k = 0; k < p->nfct; k++) {
    free(p->tw[k]);
    free(p->roots[k]);
  }
  S(plan_free)(p->sub);
  S(plan_free)(p->half);
  free(p->bk);
  free(p->bkf);
  free(p->rtw);
  free(p);
}

/* exp(sign * 2 pi i num / den), rounded once from long double */
static S(cpx) S(unit)(int64_t num, int64_t den, int sign) {
  num %= den;
  if (num < 0) num += den;
  /* reduce to the first half turn for accuracy of the long double */
  long double a = 2.0L * 3.141592653589793238462643383279502884L * (long double)num / (long double)den;
  S(cpx) z = {(R)cosl(a), (R)(sign * sinl(a))};
  /* exact values where they are known */
  if (4 * num == den) z.r = 0;
  if (2 * num == den) z.i = 0;
  if (4 * num == 3 * den) z.r = 0;
  return z;
}

static void *S(xalloc)(S(plan) *p, size_t count) {
  void *q = calloc(count ? count : 1, sizeof(S(cpx)));
  if (q) p->bytes += count * sizeof(S(cpx));
  return q;
}

static S(plan) *S(plan_new)(int64_t n);

static int S(factor)(S(plan) *p) {
  int64_t m = p->n;
  int nf = 0;
  while (m % 4 == 0) { p->fct[nf++] = 4; m /= 4; }
  if (m % 2 == 0) {
    m /= 2;
    p->fct[nf++] = 2;
    int t = p->fct[0]; p->fct[0] = 2; p->fct[nf - 1] = t;   /* the 2 first */
  }
  for (int64_t d = 3; d * d <= m; d += 2)
    while (m % d == 0) {
      if (d > GA_FFT_MAXRADIX) return -1;
      p->fct[nf++] = (int)d;
      m /= d;
    }
  if (m > 1) {
    if (m > GA_FFT_MAXRADIX) return -1;
    p->fct[nf++] = (int)m;
  }
  p->nfct = nf;
  return 0;
}

static int S(plan_passes)(S(plan) *p) {
  int64_t n = p->n, l1 = 1;
  for (int k = 0; k < p->nfct; k++) {
    int ip = p->fct[k];
    int64_t ido = n / (l1 * ip);
    if (ido > 1) {
      p->tw[k] = S(xalloc)(p, (size_t)(ip - 1) * (size_t)(ido - 1));
      if (!p->tw[k]) return -1;
      for (int j = 1; j < ip; j++)
        for (int64_t i = 1; i < ido; i++) p->tw[k][(j - 1) * (ido - 1) + i - 1] = S(unit)(j * l1 * i, n, 1);
    }
    if (ip != 2 && ip != 4) {
      p->roots[k] = S(xalloc)(p, (size_t)ip);
      if (!p->roots[k]) return -1;
      for (int t = 0; t < ip; t++) p->roots[k][t] = S(unit)(t, ip, 1);
    }
    l1 *= ip;
  }
  return 0;
}

static int64_t S(good_size)(int64_t n) {   /* smallest 2^a 3^b 5^c >= n */
  int64_t best = 1;
  while (best < n) best *= 2;
  for (int64_t f5 = 1; f5 < best; f5 *= 5)
    for (int64_t f35 = f5; f35 < best; f35 *= 3) {
      int64_t x = f35;
      while (x < n) x *= 2;
      if (x < best) best = x;
    }
  return best;
}

static void S(pass_all)(const S(plan) *p, S(cpx) *c, S(cpx) *ch, int sign);

static S(plan) *S(plan_new)(int64_t n) {
  S(plan) *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  p->n = n;
  p->bytes = sizeof *p;
  if (n == 1) return p;
  if (S(factor)(p) == 0) {
    if (S(plan_passes)(p)) goto fail;
    return p;
  }
  /* Bluestein */
  p->nfct = 0;
  p->n2 = S(good_size)(2 * n - 1);
  p->sub = S(plan_new)(p->n2);
  if (!p->sub) goto fail;
  p->bytes += p->sub->bytes;
  p->bk = S(xalloc)(p, (size_t)n);
  p->bkf = S(xalloc)(p, (size_t)p->n2);
  S(cpx) *tmp = malloc(sizeof(S(cpx)) * (size_t)p->n2);
  if (!p->bk || !p->bkf || !tmp) { free(tmp); goto fail; }
  /* bk[k] = exp(i pi k^2 / n) = unit(k^2 mod 2n, 2n) */
  for (int64_t k = 0; k < n; k++) {
    uint64_t q = ((uint64_t)k * (uint64_t)k) % (uint64_t)(2 * n);
    p->bk[k] = S(unit)((int64_t)q, 2 * n, 1);
  }
  R inv = (R)(1.0L / (long double)p->n2);
  p->bkf[0].r = p->bk[0].r * inv; p->bkf[0].i = p->bk[0].i * inv;
  for (int64_t k = 1; k < n; k++) {
    S(cpx) v = {p->bk[k].r * inv, p->bk[k].i * inv};
    p->bkf[k] = v;
    p->bkf[p->n2 - k] = v;
  }
  S(pass_all)(p->sub, p->bkf, tmp, -1);
  free(tmp);
  return p;
fail:
  S(plan_free)(p);
  return NULL;
}

/* a * b, a * conj(b) */
#define CMUL(a, b) ((S(cpx)){(a).r * (b).r - (a).i * (b).i, (a).r * (b).i + (a).i * (b).r})
#define CMULC(a, b) ((S(cpx)){(a).r * (b).r + (a).i * (b).i, (a).i * (b).r - (a).r * (b).i})

static void S(pass2)(int64_t ido, int64_t l1, const S(cpx) *cc, S(cpx) *ch, const S(cpx) *wa, int sign) {
#define CH(a, b, c) ch[(a) + ido * ((b) + l1 * (c))]
#define CC(a, b, c) cc[(a) + ido * ((b) + 2 * (c))]
  for (int64_t k = 0; k < l1; k++) {
    for (int64_t i = 0; i < ido; i++) {
      S(cpx) a = CC(i, 0, k), b = CC(i, 1, k);
      S(cpx) s = {a.r + b.r, a.i + b.i}, d = {a.r - b.r, a.i - b.i};
      CH(i, k, 0) = s;
      if (i == 0) CH(i, k, 1) = d;
      else CH(i, k, 1) = sign > 0 ? CMUL(d, wa[i - 1]) : CMULC(d, wa[i - 1]);
    }
  }
#undef CH
#undef CC
}

static void S(pass4)(int64_t ido, int64_t l1, const S(cpx) *cc, S(cpx) *ch, const S(cpx) *wa, int sign) {
#define CH(a, b, c) ch[(a) + ido * ((b) + l1 * (c))]
#define CC(a, b, c) cc[(a) + ido * ((b) + 4 * (c))]
  for (int64_t k = 0; k < l1; k++) {
    for (int64_t i = 0; i < ido; i++) {
      S(cpx) x0 = CC(i, 0, k), x1 = CC(i, 1, k), x2 = CC(i, 2, k), x3 = CC(i, 3, k);
      S(cpx) t1 = {x0.r + x2.r, x0.i + x2.i}, t2 = {x0.r - x2.r, x0.i - x2.i};
      S(cpx) t3 = {x1.r + x3.r, x1.i + x3.i}, t4 = {x1.r - x3.r, x1.i - x3.i};
      /* t4 times omega = sign * i */
      S(cpx) w4 = sign > 0 ? (S(cpx)){-t4.i, t4.r} : (S(cpx)){t4.i, -t4.r};
      S(cpx) y0 = {t1.r + t3.r, t1.i + t3.i}, y2 = {t1.r - t3.r, t1.i - t3.i};
      S(cpx) y1 = {t2.r + w4.r, t2.i + w4.i}, y3 = {t2.r - w4.r, t2.i - w4.i};
      CH(i, k, 0) = y0;
      if (i == 0) {
        CH(i, k, 1) = y1; CH(i, k, 2) = y2; CH(i, k, 3) = y3;
      } else if (sign > 0) {
        CH(i, k, 1) = CMUL(y1, wa[i - 1]);
        CH(i, k, 2) = CMUL(y2, wa[(ido - 1) + i - 1]);
        CH(i, k, 3) = CMUL(y3, wa[2 * (ido - 1) + i - 1]);
      } else {
        CH(i, k, 1) = CMULC(y1, wa[i - 1]);
        CH(i, k, 2) = CMULC(y2, wa[(ido - 1) + i - 1]);
        CH(i, k, 3) = CMULC(y3, wa[2 * (ido - 1) + i - 1]);
      }
    }
  }
#undef CH
#undef CC
}

/* the general radix-ip butterfly: y_m = sum_j x_j omega^(j m), omega =
 * exp(sign 2 pi i / ip), then the twiddle of (m, i) */
static void S(passg)(int64_t ido, int64_t l1, int ip, const S(cpx) *cc, S(cpx) *ch, const S(cpx) *wa,
                     const S(cpx) *roots, int sign) {
#define CH(a, b, c) ch[(a) + ido * ((b) + l1 * (int64_t)(c))]
#define CC(a, b, c) cc[(a) + ido * ((int64_t)(b) + ip * (c))]
  S(cpx) x[GA_FFT_MAXRADIX], w[GA_FFT_MAXRADIX];
  for (int t = 0; t < ip; t++) w[t] = sign > 0 ? roots[t] : (S(cpx)){roots[t].r, -roots[t].i};
  for (int64_t k = 0; k < l1; k++) {
    for (int64_t i = 0; i < ido; i++) {
      for (int j = 0; j < ip; j++) x[j] = CC(i, j, k);
      for (int m = 0; m < ip; m++) {
        R sr = x[0].r, si = x[0].i;
        int t = 0;
        for (int j = 1; j < ip; j++) {
          t += m;
          if (t >= ip) t -= ip;
          sr += x[j].r * w[t].r - x[j].i * w[t].i;
          si += x[j].r * w[t].i + x[j].i * w[t].r;
        }
        S(cpx) y = {sr, si};
        if (i > 0 && m > 0) {
          const S(cpx) tw = wa[(int64_t)(m - 1) * (ido - 1) + i - 1];
          y = sign > 0 ? CMUL(y, tw) : CMULC(y, tw);
        }
        CH(i, k, m) = y;
      }
    }
  }
#undef CH
#undef CC
}

static void S(bluestein)(const S(plan) *p, S(cpx) *c, S(cpx) *work, int sign);

/* c (n values) becomes its unnormalised DFT with exp(sign 2 pi i jk/n); ch
 * is scratch of n values (Bluestein: 2 n2) */
static void S(pass_all)(const S(plan) *p, S(cpx) *c, S(cpx) *ch, int sign) {
  if (p->n == 1) return;
  if (p->sub) {
    S(bluestein)(p, c, ch, sign);
    return;
  }
  int64_t l1 = 1;
  S(cpx) *p1 = c, *p2 = ch;
  for (int k = 0; k < p->nfct; k++) {
    int ip = p->fct[k];
    int64_t l2 = ip * l1, ido = p->n / l2;
    if (ip == 4) S(pass4)(ido, l1, p1, p2, p->tw[k], sign);
    else if (ip == 2) S(pass2)(ido, l1, p1, p2, p->tw[k], sign);
    else S(passg)(ido, l1, ip, p1, p2, p->tw[k], p->roots[k], sign);
    S(cpx) *t = p1; p1 = p2; p2 = t;
    l1 = l2;
  }
  if (p1 != c) memcpy(c, p1, sizeof(S(cpx)) * (size_t)p->n);
}

/* X_k = conj(bk_k) * sum_j (x_j conj(bk_j)) bk_(k-j) for the forward sign;
 * the inverse is the forward transform of the conjugate, conjugated */
static void S(bluestein)(const S(plan) *p, S(cpx) *c, S(cpx) *work, int sign) {
  int64_t n = p->n, n2 = p->n2;
  S(cpx) *a = work, *scratch = work + n2;
  R cs = sign > 0 ? -1 : 1;   /* conjugate the input (and output) for the inverse */
  for (int64_t k = 0; k < n; k++) {
    S(cpx) x = {c[k].r, cs * c[k].i};
    a[k] = CMULC(x, p->bk[k]);
  }
  for (int64_t k = n; k < n2; k++) a[k] = (S(cpx)){0, 0};
  S(pass_all)(p->sub, a, scratch, -1);
  for (int64_t k = 0; k < n2; k++) a[k] = CMUL(a[k], p->bkf[k]);
  S(pass_all)(p->sub, a, scratch, 1);
  for (int64_t k = 0; k < n; k++) {
    S(cpx) y = CMULC(a[k], p->bk[k]);
    c[k] = (S(cpx)){y.r, cs * y.i};
  }
}

/* scratch values a plan's transform needs beside its data */
static int64_t S(scratch_len)(const S(plan) *p) {
  return p->sub ? 2 * p->n2 : p->n;
}

/* ---- real transforms ---- */

/* the real plan of n: even n keeps the complex plan of n/2 and the
 * twiddles exp(-2 pi i k / n), k <= n/4 + 1 ... n/2; odd n the complex
 * plan of n */
static S(plan) *S(rplan_new)(int64_t n) {
  if (n % 2) return S(plan_new)(n);
  S(plan) *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  p->n = n;
  p->bytes = sizeof *p;
  p->half = S(plan_new)(n / 2);
  p->rtw = S(xalloc)(p, (size_t)(n / 2 + 1));
  if (!p->half || !p->rtw) {
    S(plan_free)(p);
    return NULL;
  }
  p->bytes += p->half->bytes;
  for (int64_t k = 0; k <= n / 2; k++) p->rtw[k] = S(unit)(k, n, -1);
  return p;
}

static int64_t S(rscratch_len)(const S(plan) *p) {
  if (!p->half) return p->n + S(scratch_len)(p);         /* odd: a complex copy */
  return p->n / 2 + 1 + S(scratch_len)(p->half);
}

/* x: n reals -> out: n/2+1 complex (unnormalised, forward) */
static void S(r2c)(const S(plan) *p, const R *x, S(cpx) *out, S(cpx) *work) {
  int64_t n = p->n;
  if (!p->half) {
    S(cpx) *z = work;
    for (int64_t k = 0; k < n; k++) z[k] = (S(cpx)){x[k], 0};
    S(pass_all)(p, z, work + n, -1);
    memcpy(out, z, sizeof(S(cpx)) * (size_t)(n / 2 + 1));
    return;
  }
  int64_t h = n / 2;
  S(cpx) *z = work;
  for (int64_t j = 0; j < h; j++) z[j] = (S(cpx)){x[2 * j], x[2 * j + 1]};
  S(pass_all)(p->half, z, work + h + 1, -1);
  z[h] = z[0];
  for (int64_t k = 0; k <= h / 2; k++) {
    /* pairs (k, h-k) together so that z can be overwritten in place */
    int64_t q = h - k;
    S(cpx) zk = z[k], zq = z[q];
    /* E_k = (Z_k + conj Z_q) / 2, O_k = (Z_k - conj Z_q) / (2i) */
    S(cpx) ek = {(R)0.5 * (zk.r + zq.r), (R)0.5 * (zk.i - zq.i)};
    S(cpx) ok = {(R)0.5 * (zk.i + zq.i), (R)-0.5 * (zk.r - zq.r)};
    S(cpx) eq = {(R)0.5 * (zq.r + zk.r), (R)0.5 * (zq.i - zk.i)};
    S(cpx) oq = {(R)0.5 * (zq.i + zk.i), (R)-0.5 * (zq.r - zk.r)};
    S(cpx) wk = CMUL(ok, p->rtw[k]), wq = CMUL(oq, p->rtw[q]);
    out[k] = (S(cpx)){ek.r + wk.r, ek.i + wk.i};
    out[q] = (S(cpx)){eq.r + wq.r, eq.i + wq.i};
  }
}

/* X: n/2+1 complex -> x: n reals (unnormalised inverse); the imaginary
 * parts of X_0 (and X_(n/2), n even) are ignored, as NumPy does */
static void S(c2r)(const S(plan) *p, const S(cpx) *X, R *x, S(cpx) *work) {
  int64_t n = p->n;
  if (!p->half) {
    S(cpx) *z = work;
    int64_t m = n / 2 + 1;
    z[0] = (S(cpx)){X[0].r, 0};
    for (int64_t k = 1; k < m; k++) {
      z[k] = X[k];
      z[n - k] = (S(cpx)){X[k].r, -X[k].i};
    }
    S(pass_all)(p, z, work + n, 1);
    for (int64_t k = 0; k < n; k++) x[k] = z[k].r;
    return;
  }
  int64_t h = n / 2;
  S(cpx) *z = work;
  for (int64_t k = 0; k < h; k++) {
    S(cpx) xk = X[k], xq = X[h - k];
    if (k == 0) { xk.i = 0; xq.i = 0; }
    /* E = (X_k + conj X_q), O = (X_k - conj X_q) * conj(w_k); Z = E + i O
     * (the factor 2 of x = 2 Re/Im of the half inverse folded in) */
    S(cpx) e = {xk.r + xq.r, xk.i - xq.i};
    S(cpx) d = {xk.r - xq.r, xk.i + xq.i};
    S(cpx) o = CMULC(d, p->rtw[k]);
    z[k] = (S(cpx)){e.r - o.i, e.i + o.r};
  }
  S(pass_all)(p->half, z, work + h + 1, 1);
  for (int64_t j = 0; j < h; j++) {
    x[2 * j] = z[j].r;
    x[2 * j + 1] = z[j].i;
  }
}

#undef CMUL
#undef CMULC
