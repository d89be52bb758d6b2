/* ga.cudnn on the host: direct implementations of every operation, the
 * reference the GPU's cuDNN results are checked against.  Each tensor of
 * the call is read into a dense float64 buffer in canonical (N, C, D, H, W)
 * order (a 2-D call has D = 1), computed in float64, and written back in
 * the array's dtype and layout (result = alpha * op + beta * old).
 * Convolutions are im2col + OpenBLAS dgemm per image and group. */
#include "host/ga_host.h"
#include "base/ga_dnn_call.h"
#include "base/ga_dtype.h"
#include "base/ga_error.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { CblasRowMajor = 101, CblasNoTrans = 111, CblasTrans = 112 };
extern void cblas_dgemm(int order, int transa, int transb, int m, int n, int k, double alpha,
                        const double *a, int lda, const double *b, int ldb, double beta,
                        double *c, int ldc);

/* a tensor as 5 canonical dims */
typedef struct hd {
  int64_t d[5], s[5];   /* dims, strides in elements */
  int64_t n;            /* elements */
} hd;

static hd dims5(const ga_dnn_call *c, int r) {
  const ga_dnn_tensor *t = &c->t[r];
  hd h;
  if (c->ndim == 5) {
    memcpy(h.d, t->dims, sizeof h.d);
    memcpy(h.s, t->strides, sizeof h.s);
  } else {
    h.d[0] = t->dims[0], h.d[1] = t->dims[1], h.d[2] = 1, h.d[3] = t->dims[2], h.d[4] = t->dims[3];
    h.s[0] = t->strides[0], h.s[1] = t->strides[1], h.s[2] = t->strides[2] * t->dims[2];
    h.s[3] = t->strides[2], h.s[4] = t->strides[3];
  }
  h.n = h.d[0] * h.d[1] * h.d[2] * h.d[3] * h.d[4];
  return h;
}

static int dtype_of(const ga_dnn_call *c, int r) {
  return r >= GA_DT_SCALE ? c->pdtype : c->dtype;
}

/* dense float64 copy of tensor r (NULL: out of memory) */
static double *load(const ga_dnn_call *c, int r) {
  hd h = dims5(c, r);
  double *b = malloc(sizeof(double) * (size_t)(h.n > 0 ? h.n : 1));
  if (!b) return NULL;
  int dt = dtype_of(c, r);
  int64_t is = GA_ITEMSIZE(dt);
  ga_cast_fn cast = ga_host_cast_fn(dt, GA_FLOAT64);
  double *p = b;
  for (int64_t i0 = 0; i0 < h.d[0]; i0++)
    for (int64_t i1 = 0; i1 < h.d[1]; i1++)
      for (int64_t i2 = 0; i2 < h.d[2]; i2++)
        for (int64_t i3 = 0; i3 < h.d[3]; i3++, p += h.d[4]) {
          const char *src = c->t[r].data + (i0 * h.s[0] + i1 * h.s[1] + i2 * h.s[2] + i3 * h.s[3]) * is;
          cast(src, h.s[4] * is, (char *)p, sizeof(double), h.d[4]);
        }
  return b;
}

/* tensor r = alpha * v + beta * tensor r */
static int store(const ga_dnn_call *c, int r, double *v, double alpha, double beta) {
  hd h = dims5(c, r);
  if (beta != 0) {
    double *old = load(c, r);
    if (!old) return ga_err(GA_ENOMEM, "out of host memory");
    for (int64_t i = 0; i < h.n; i++) v[i] = alpha * v[i] + beta * old[i];
    free(old);
  } else if (alpha != 1) {
    for (int64_t i = 0; i < h.n; i++) v[i] *= alpha;
  }
  int dt = dtype_of(c, r);
  int64_t is = GA_ITEMSIZE(dt);
  ga_cast_fn cast = ga_host_cast_fn(GA_FLOAT64, dt);
  const double *p = v;
  for (int64_t i0 = 0; i0 < h.d[0]; i0++)
    for (int64_t i1 = 0; i1 < h.d[1]; i1++)
      for (int64_t i2 = 0; i2 < h.d[2]; i2++)
        for (int64_t i3 = 0; i3 < h.d[3]; i3++, p += h.d[4]) {
          char *dst = c->t[r].data + (i0 * h.s[0] + i1 * h.s[1] + i2 * h.s[2] + i3 * h.s[3]) * is;
          cast((const char *)p, sizeof(double), dst, h.s[4] * is, h.d[4]);
        }
  return GA_OK;
}

/* the 3 spatial parameters of the call (a 2-D call's depth: 0 pad, 1 stride) */
static void sp3(const ga_dnn_call *c, const int *v, int dflt, int64_t *o) {
  if (c->ndim == 5) o[0] = v[0], o[1] = v[1], o[2] = v[2];
  else o[0] = dflt, o[1] = v[0], o[2] = v[1];
}

/* ---- convolution ---- */

typedef struct conv {
  int64_t N, C, K, G, Cg, Kg;
  int64_t in[3], k[3], o[3], p[3], s[3], dl[3];
  int64_t isp, osp, ck;   /* input spatial size, output spatial size, Cg * kernel volume */
} conv;

static conv conv_of(const ga_dnn_call *c, const hd *x, const hd *w, const hd *y) {
  conv v;
  v.N = x->d[0], v.C = x->d[1], v.K = w->d[0], v.G = c->groups, v.Cg = w->d[1], v.Kg = v.K / v.G;
  for (int i = 0; i < 3; i++) v.in[i] = x->d[2 + i], v.k[i] = w->d[2 + i], v.o[i] = y->d[2 + i];
  sp3(c, c->pad, 0, v.p), sp3(c, c->stride, 1, v.s), sp3(c, c->dilation, 1, v.dl);
  v.isp = v.in[0] * v.in[1] * v.in[2];
  v.osp = v.o[0] * v.o[1] * v.o[2];
  v.ck = v.Cg * v.k[0] * v.k[1] * v.k[2];
  return v;
}

/* col (ck, osp) of image n, group g of x (dense N C D H W) */
static void im2col(const conv *v, const double *x, int64_t n, int64_t g, double *col) {
  int64_t row = 0;
  for (int64_t ci = 0; ci < v->Cg; ci++) {
    const double *xc = x + (n * v->C + g * v->Cg + ci) * v->isp;
    for (int64_t a = 0; a < v->k[0]; a++)
      for (int64_t b = 0; b < v->k[1]; b++)
        for (int64_t e = 0; e < v->k[2]; e++, row++) {
          double *out = col + row * v->osp;
          for (int64_t od = 0; od < v->o[0]; od++) {
            int64_t id = od * v->s[0] - v->p[0] + a * v->dl[0];
            for (int64_t oh = 0; oh < v->o[1]; oh++) {
              int64_t ih = oh * v->s[1] - v->p[1] + b * v->dl[1];
              for (int64_t ow = 0; ow < v->o[2]; ow++, out++) {
                int64_t iw = ow * v->s[2] - v->p[2] + e * v->dl[2];
                *out = id >= 0 && id < v->in[0] && ih >= 0 && ih < v->in[1] && iw >= 0 && iw < v->in[2]
                           ? xc[(id * v->in[1] + ih) * v->in[2] + iw]
                           : 0.0;
              }
            }
          }
        }
  }
}

/* dx[n, group g] += col2im(col) */
static void col2im(const conv *v, const double *col, int64_t n, int64_t g, double *dx) {
  int64_t row = 0;
  for (int64_t ci = 0; ci < v->Cg; ci++) {
    double *xc = dx + (n * v->C + g * v->Cg + ci) * v->isp;
    for (int64_t a = 0; a < v->k[0]; a++)
      for (int64_t b = 0; b < v->k[1]; b++)
        for (int64_t e = 0; e < v->k[2]; e++, row++) {
          const double *in = col + row * v->osp;
          for (int64_t od = 0; od < v->o[0]; od++) {
            int64_t id = od * v->s[0] - v->p[0] + a * v->dl[0];
            for (int64_t oh = 0; oh < v->o[1]; oh++) {
              int64_t ih = oh * v->s[1] - v->p[1] + b * v->dl[1];
              for (int64_t ow = 0; ow < v->o[2]; ow++, in++) {
                int64_t iw = ow * v->s[2] - v->p[2] + e * v->dl[2];
                if (id >= 0 && id < v->in[0] && ih >= 0 && ih < v->in[1] && iw >= 0 && iw < v->in[2])
                  xc[(id * v->in[1] + ih) * v->in[2] + iw] += *in;
              }
            }
          }
        }
  }
}

static int too_big_for_blas(const conv *v) {
  return v->ck > 2147483647 || v->osp > 2147483647 || v->Kg > 2147483647;
}

static int conv_run(const ga_dnn_call *c) {
  int xr = c->op == GA_DNN_CONV_BWD_DATA ? GA_DT_DX : GA_DT_X;
  int wr = c->op == GA_DNN_CONV_BWD_FILTER ? GA_DT_DW : GA_DT_W;
  int yr = c->op == GA_DNN_CONV_FWD ? GA_DT_Y : GA_DT_DY;
  hd xh = dims5(c, xr), wh = dims5(c, wr), yh = dims5(c, yr);
  conv v = conv_of(c, &xh, &wh, &yh);
  if (too_big_for_blas(&v)) return ga_err(GA_EINVAL, "convolution too large for the host's BLAS");
  int rc = GA_OK;
  double *x = NULL, *w = NULL, *y = NULL, *col = NULL, *b = NULL;
  size_t colsz = (size_t)(v.ck * v.osp);
  col = malloc(sizeof(double) * (colsz ? colsz : 1));
  if (!col) goto oom;
  if (c->op == GA_DNN_CONV_FWD) {
    if (!(x = load(c, GA_DT_X)) || !(w = load(c, GA_DT_W))) goto oom;
    if (!(y = calloc((size_t)yh.n, sizeof(double)))) goto oom;
    for (int64_t n = 0; n < v.N; n++)
      for (int64_t g = 0; g < v.G; g++) {
        im2col(&v, x, n, g, col);
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)v.Kg, (int)v.osp, (int)v.ck, 1.0,
                    w + g * v.Kg * v.ck, (int)v.ck, col, (int)v.osp, 0.0, y + (n * v.K + g * v.Kg) * v.osp,
                    (int)v.osp);
      }
    if (c->t[GA_DT_B].data) {
      if (!(b = load(c, GA_DT_B))) goto oom;
    }
    /* y = alpha * conv + beta * y, then + bias (cuDNN's order) */
    if (b) {
      double *old = c->beta != 0 ? load(c, GA_DT_Y) : NULL;
      if (c->beta != 0 && !old) goto oom;
      for (int64_t n = 0; n < v.N; n++)
        for (int64_t k = 0; k < v.K; k++)
          for (int64_t i = 0; i < v.osp; i++) {
            int64_t j = (n * v.K + k) * v.osp + i;
            y[j] = c->alpha * y[j] + (old ? c->beta * old[j] : 0) + b[k];
          }
      free(old);
      rc = store(c, GA_DT_Y, y, 1.0, 0.0);
    } else {
      rc = store(c, GA_DT_Y, y, c->alpha, c->beta);
    }
  } else if (c->op == GA_DNN_CONV_BWD_DATA) {
    if (!(w = load(c, GA_DT_W)) || !(y = load(c, GA_DT_DY))) goto oom;
    if (!(x = calloc((size_t)xh.n, sizeof(double)))) goto oom;
    for (int64_t n = 0; n < v.N; n++)
      for (int64_t g = 0; g < v.G; g++) {
        cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, (int)v.ck, (int)v.osp, (int)v.Kg, 1.0,
                    w + g * v.Kg * v.ck, (int)v.ck, y + (n * v.K + g * v.Kg) * v.osp, (int)v.osp, 0.0, col,
                    (int)v.osp);
        col2im(&v, col, n, g, x);
      }
    rc = store(c, GA_DT_DX, x, c->alpha, c->beta);
  } else {
    if (!(x = load(c, GA_DT_X)) || !(y = load(c, GA_DT_DY))) goto oom;
    if (!(w = calloc((size_t)wh.n, sizeof(double)))) goto oom;
    for (int64_t n = 0; n < v.N; n++)
      for (int64_t g = 0; g < v.G; g++) {
        im2col(&v, x, n, g, col);
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)v.Kg, (int)v.ck, (int)v.osp, 1.0,
                    y + (n * v.K + g * v.Kg) * v.osp, (int)v.osp, col, (int)v.osp, 1.0, w + g * v.Kg * v.ck,
                    (int)v.ck);
      }
    rc = store(c, GA_DT_DW, w, c->alpha, c->beta);
  }
  goto done;
oom:
  rc = ga_err(GA_ENOMEM, "out of host memory for a convolution");
done:
  free(x), free(w), free(y), free(col), free(b);
  return rc;
}

static int conv_bias_bwd(const ga_dnn_call *c) {
  hd h = dims5(c, GA_DT_DY);
  double *dy = load(c, GA_DT_DY), *db = calloc((size_t)h.d[1], sizeof(double));
  int rc;
  if (!dy || !db) {
    rc = ga_err(GA_ENOMEM, "out of host memory");
  } else {
    int64_t sp = h.d[2] * h.d[3] * h.d[4];
    for (int64_t n = 0; n < h.d[0]; n++)
      for (int64_t k = 0; k < h.d[1]; k++)
        for (int64_t i = 0; i < sp; i++) db[k] += dy[(n * h.d[1] + k) * sp + i];
    rc = store(c, GA_DT_B, db, c->alpha, c->beta);
  }
  free(dy), free(db);
  return rc;
}

/* ---- pooling ---- */

static int pool_run(const ga_dnn_call *c) {
  hd xh = dims5(c, GA_DT_X), yh = dims5(c, GA_DT_Y);
  int64_t k[3], p[3], s[3], in[3] = {xh.d[2], xh.d[3], xh.d[4]}, o[3] = {yh.d[2], yh.d[3], yh.d[4]};
  sp3(c, c->window, 1, k), sp3(c, c->pad, 0, p), sp3(c, c->stride, 1, s);
  int64_t isp = in[0] * in[1] * in[2], osp = o[0] * o[1] * o[2], planes = xh.d[0] * xh.d[1];
  int bwd = c->op == GA_DNN_POOL_BWD;
  double *x = load(c, GA_DT_X), *y = NULL, *dy = NULL, *dx = NULL;
  int rc = GA_OK;
  if (!x) goto oom;
  if (bwd) {
    if (!(dy = load(c, GA_DT_DY)) || !(dx = calloc((size_t)xh.n, sizeof(double)))) goto oom;
  } else if (!(y = malloc(sizeof(double) * (size_t)yh.n))) {
    goto oom;
  }
  for (int64_t pl = 0; pl < planes; pl++) {
    const double *xp = x + pl * isp;
    for (int64_t od = 0; od < o[0]; od++)
      for (int64_t oh = 0; oh < o[1]; oh++)
        for (int64_t ow = 0; ow < o[2]; ow++) {
          int64_t oi = pl * osp + (od * o[1] + oh) * o[2] + ow;
          int64_t d0 = od * s[0] - p[0], h0 = oh * s[1] - p[1], w0 = ow * s[2] - p[2];
          double best = -INFINITY, sum = 0;
          int64_t arg = -1, cnt = 0;
          for (int64_t a = d0; a < d0 + k[0]; a++)
            for (int64_t b = h0; b < h0 + k[1]; b++)
              for (int64_t e = w0; e < w0 + k[2]; e++) {
                if (a < 0 || a >= in[0] || b < 0 || b >= in[1] || e < 0 || e >= in[2]) continue;
                int64_t xi = (a * in[1] + b) * in[2] + e;
                double val = xp[xi];
                cnt++;
                sum += val;
                if (arg < 0 || val > best || (val != val && best == best)) best = val, arg = xi;
              }
          double div = c->mode == GA_POOL_AVG_INCLUDE ? (double)(k[0] * k[1] * k[2]) : (double)(cnt ? cnt : 1);
          if (!bwd) {
            y[oi] = c->mode == GA_POOL_MAX ? (arg >= 0 ? best : 0.0) : sum / div;
          } else if (c->mode == GA_POOL_MAX) {
            if (arg >= 0) dx[pl * isp + arg] += dy[oi];
          } else {
            double gv = dy[oi] / div;
            for (int64_t a = d0 < 0 ? 0 : d0; a < d0 + k[0] && a < in[0]; a++)
              for (int64_t b = h0 < 0 ? 0 : h0; b < h0 + k[1] && b < in[1]; b++)
                for (int64_t e = w0 < 0 ? 0 : w0; e < w0 + k[2] && e < in[2]; e++)
                  dx[pl * isp + (a * in[1] + b) * in[2] + e] += gv;
          }
        }
  }
  rc = bwd ? store(c, GA_DT_DX, dx, c->alpha, c->beta) : store(c, GA_DT_Y, y, c->alpha, c->beta);
  goto done;
oom:
  rc = ga_err(GA_ENOMEM, "out of host memory for pooling");
done:
  free(x), free(y), free(dy), free(dx);
  return rc;
}

/* ---- activations ---- */

static double sigm(double v) { return 1.0 / (1.0 + exp(-v)); }

static int act_run(const ga_dnn_call *c) {
  hd h = dims5(c, GA_DT_X);
  int bwd = c->op == GA_DNN_ACT_BWD;
  double *x = load(c, GA_DT_X), *y = bwd ? load(c, GA_DT_Y) : NULL, *dy = bwd ? load(c, GA_DT_DY) : NULL;
  double *r = malloc(sizeof(double) * (size_t)(h.n ? h.n : 1));
  int rc;
  if (!x || !r || (bwd && (!y || !dy))) {
    rc = ga_err(GA_ENOMEM, "out of host memory");
    goto done;
  }
  double cf = c->coef;
  for (int64_t i = 0; i < h.n; i++) {
    double v = x[i];
    if (!bwd) {
      switch (c->mode) {
      case GA_ACT_SIGMOID: r[i] = sigm(v); break;
      case GA_ACT_RELU: r[i] = v > 0 ? v : 0; break;
      case GA_ACT_TANH: r[i] = tanh(v); break;
      case GA_ACT_CLIPPED_RELU: r[i] = v > 0 ? (v < cf ? v : cf) : 0; break;
      case GA_ACT_ELU: r[i] = v > 0 ? v : cf * expm1(v); break;
      default: r[i] = v * sigm(cf * v); break;   /* swish */
      }
    } else {
      double yv = y[i], g = dy[i];
      switch (c->mode) {
      case GA_ACT_SIGMOID: r[i] = g * yv * (1 - yv); break;
      case GA_ACT_RELU: r[i] = v > 0 ? g : 0; break;
      case GA_ACT_TANH: r[i] = g * (1 - yv * yv); break;
      case GA_ACT_CLIPPED_RELU: r[i] = v > 0 && v < cf ? g : 0; break;
      case GA_ACT_ELU: r[i] = v > 0 ? g : g * cf * exp(v); break;
      default: {
        double s = sigm(cf * v);
        r[i] = g * (s + cf * v * s * (1 - s));
      }
      }
    }
  }
  rc = store(c, bwd ? GA_DT_DX : GA_DT_Y, r, c->alpha, c->beta);
done:
  free(x), free(y), free(dy), free(r);
  return rc;
}

/* ---- softmax over (N, C, S, 1) ---- */

static int softmax_run(const ga_dnn_call *c) {
  int bwd = c->op == GA_DNN_SOFTMAX_BWD;
  hd h = dims5(c, GA_DT_Y);
  int64_t N = h.d[0], C = h.d[1], S = h.d[2] * h.d[3] * h.d[4];
  double *x = bwd ? load(c, GA_DT_Y) : load(c, GA_DT_X), *dy = bwd ? load(c, GA_DT_DY) : NULL;
  double *r = malloc(sizeof(double) * (size_t)(h.n ? h.n : 1));
  int rc;
  if (!x || !r || (bwd && !dy)) {
    rc = ga_err(GA_ENOMEM, "out of host memory");
    goto done;
  }
  int inst = c->mode2 == GA_SOFTMAX_INSTANCE, lg = c->mode == GA_SOFTMAX_LOG;
  /* groups: instance -> N groups of C*S contiguous; channel -> N*S groups of
   * C elements at stride S */
  int64_t ng = inst ? N : N * S, len = inst ? C * S : C, st = inst ? 1 : S;
  for (int64_t gi = 0; gi < ng; gi++) {
    int64_t base = inst ? gi * C * S : (gi / S) * C * S + gi % S;
    if (!bwd) {
      double m = -INFINITY, sum = 0;
      for (int64_t j = 0; j < len; j++) m = fmax(m, x[base + j * st]);
      for (int64_t j = 0; j < len; j++) sum += exp(x[base + j * st] - m);
      for (int64_t j = 0; j < len; j++) {
        double v = x[base + j * st] - m;
        r[base + j * st] = lg ? v - log(sum) : exp(v) / sum;
      }
    } else {
      double dot = 0;
      for (int64_t j = 0; j < len; j++)
        dot += lg ? dy[base + j * st] : dy[base + j * st] * x[base + j * st];
      for (int64_t j = 0; j < len; j++) {
        int64_t i = base + j * st;
        r[i] = lg ? dy[i] - exp(x[i]) * dot : x[i] * (dy[i] - dot);
      }
    }
  }
  rc = store(c, bwd ? GA_DT_DX : GA_DT_Y, r, c->alpha, c->beta);
done:
  free(x), free(dy), free(r);
  return rc;
}

/* ---- batch normalization ---- */

static int bn_run(const ga_dnn_call *c) {
  hd h = dims5(c, GA_DT_X);
  int64_t N = h.d[0], C = h.d[1], S = h.d[2] * h.d[3] * h.d[4];
  int spatial = c->mode == GA_BN_SPATIAL;
  int64_t ng = spatial ? C : C * S, M = spatial ? N * S : N;
  double *x = load(c, GA_DT_X), *r = malloc(sizeof(double) * (size_t)(h.n ? h.n : 1));
  double *scale = load(c, GA_DT_SCALE), *mean = calloc((size_t)ng, sizeof(double));
  double *inv = calloc((size_t)ng, sizeof(double));
  double *bias = NULL, *rm = NULL, *rv = NULL, *dy = NULL, *ds = NULL, *dbb = NULL;
  int rc = GA_OK;
  if (!x || !r || !scale || !mean || !inv) goto oom;
  /* element (n, ch, sp) -> group */
#define GRP(ch, sp) (spatial ? (ch) : (ch) * S + (sp))
  int have_saved = c->op == GA_DNN_BN_BWD && c->t[GA_DT_SMEAN].data;
  if (c->op == GA_DNN_BN_INFER) {
    double *em = load(c, GA_DT_MEAN), *ev = load(c, GA_DT_VAR);
    if (!em || !ev) {
      free(em), free(ev);
      goto oom;
    }
    for (int64_t g = 0; g < ng; g++) mean[g] = em[g], inv[g] = 1.0 / sqrt(ev[g] + c->epsilon);
    free(em), free(ev);
  } else if (have_saved) {
    double *sm = load(c, GA_DT_SMEAN), *si = load(c, GA_DT_SINV);
    if (!sm || !si) {
      free(sm), free(si);
      goto oom;
    }
    memcpy(mean, sm, sizeof(double) * (size_t)ng), memcpy(inv, si, sizeof(double) * (size_t)ng);
    free(sm), free(si);
  } else {
    double *var = calloc((size_t)ng, sizeof(double));
    if (!var) goto oom;
    for (int64_t n = 0; n < N; n++)
      for (int64_t ch = 0; ch < C; ch++)
        for (int64_t sp = 0; sp < S; sp++) mean[GRP(ch, sp)] += x[(n * C + ch) * S + sp];
    for (int64_t g = 0; g < ng; g++) mean[g] /= (double)M;
    for (int64_t n = 0; n < N; n++)
      for (int64_t ch = 0; ch < C; ch++)
        for (int64_t sp = 0; sp < S; sp++) {
          double d = x[(n * C + ch) * S + sp] - mean[GRP(ch, sp)];
          var[GRP(ch, sp)] += d * d;
        }
    for (int64_t g = 0; g < ng; g++) var[g] /= (double)M, inv[g] = 1.0 / sqrt(var[g] + c->epsilon);
    if (c->op == GA_DNN_BN_TRAIN && c->t[GA_DT_MEAN].data) {
      rm = load(c, GA_DT_MEAN), rv = load(c, GA_DT_VAR);
      if (!rm || !rv) {
        free(var);
        goto oom;
      }
      double f = c->factor, unb = M > 1 ? (double)M / (double)(M - 1) : 1.0;
      for (int64_t g = 0; g < ng; g++) {
        rm[g] = (1 - f) * rm[g] + f * mean[g];
        rv[g] = (1 - f) * rv[g] + f * var[g] * unb;
      }
      if ((rc = store(c, GA_DT_MEAN, rm, 1, 0)) || (rc = store(c, GA_DT_VAR, rv, 1, 0))) {
        free(var);
        goto done;
      }
    }
    free(var);
  }
  if (c->op != GA_DNN_BN_BWD) {
    if (!(bias = load(c, GA_DT_BIAS))) goto oom;
    for (int64_t n = 0; n < N; n++)
      for (int64_t ch = 0; ch < C; ch++)
        for (int64_t sp = 0; sp < S; sp++) {
          int64_t i = (n * C + ch) * S + sp, g = GRP(ch, sp);
          r[i] = scale[g] * (x[i] - mean[g]) * inv[g] + bias[g];
        }
    if ((rc = store(c, GA_DT_Y, r, c->alpha, c->beta))) goto done;
    if (c->op == GA_DNN_BN_TRAIN && c->t[GA_DT_SMEAN].data) {
      if ((rc = store(c, GA_DT_SMEAN, mean, 1, 0)) || (rc = store(c, GA_DT_SINV, inv, 1, 0))) goto done;
    }
  } else {
    if (!(dy = load(c, GA_DT_DY)) || !(ds = calloc((size_t)ng, sizeof(double))) ||
        !(dbb = calloc((size_t)ng, sizeof(double))))
      goto oom;
    for (int64_t n = 0; n < N; n++)
      for (int64_t ch = 0; ch < C; ch++)
        for (int64_t sp = 0; sp < S; sp++) {
          int64_t i = (n * C + ch) * S + sp, g = GRP(ch, sp);
          dbb[g] += dy[i];
          ds[g] += dy[i] * (x[i] - mean[g]) * inv[g];
        }
    for (int64_t n = 0; n < N; n++)
      for (int64_t ch = 0; ch < C; ch++)
        for (int64_t sp = 0; sp < S; sp++) {
          int64_t i = (n * C + ch) * S + sp, g = GRP(ch, sp);
          double xh = (x[i] - mean[g]) * inv[g];
          r[i] = scale[g] * inv[g] / (double)M * ((double)M * dy[i] - dbb[g] - xh * ds[g]);
        }
    if ((rc = store(c, GA_DT_DX, r, c->alpha, c->beta)) || (rc = store(c, GA_DT_DSCALE, ds, 1, 0)) ||
        (rc = store(c, GA_DT_DBIAS, dbb, 1, 0)))
      goto done;
  }
#undef GRP
  goto done;
oom:
  rc = ga_err(GA_ENOMEM, "out of host memory for batch normalization");
done:
  free(x), free(r), free(scale), free(mean), free(inv), free(bias), free(rm), free(rv), free(dy), free(ds), free(dbb);
  return rc;
}

/* ---- c = alpha * a (broadcast) + beta * c ---- */

static int add_run(const ga_dnn_call *c) {
  hd ch = dims5(c, GA_DT_Y), ah = dims5(c, GA_DT_B);
  double *a = load(c, GA_DT_B), *r = malloc(sizeof(double) * (size_t)(ch.n ? ch.n : 1));
  int rc;
  if (!a || !r) {
    rc = ga_err(GA_ENOMEM, "out of host memory");
  } else {
    int64_t i = 0, as[5];
    as[4] = 1;
    for (int d = 3; d >= 0; d--) as[d] = as[d + 1] * ah.d[d + 1];
    for (int d = 0; d < 5; d++)
      if (ah.d[d] == 1) as[d] = 0;
    for (int64_t i0 = 0; i0 < ch.d[0]; i0++)
      for (int64_t i1 = 0; i1 < ch.d[1]; i1++)
        for (int64_t i2 = 0; i2 < ch.d[2]; i2++)
          for (int64_t i3 = 0; i3 < ch.d[3]; i3++)
            for (int64_t i4 = 0; i4 < ch.d[4]; i4++)
              r[i++] = a[i0 * as[0] + i1 * as[1] + i2 * as[2] + i3 * as[3] + i4 * as[4]];
    rc = store(c, GA_DT_Y, r, c->alpha, c->beta);
  }
  free(a), free(r);
  return rc;
}

int ga_host_dnn(const ga_dnn_call *c) {
  switch (c->op) {
  case GA_DNN_CONV_FWD:
  case GA_DNN_CONV_BWD_DATA:
  case GA_DNN_CONV_BWD_FILTER: return conv_run(c);
  case GA_DNN_CONV_BWD_BIAS: return conv_bias_bwd(c);
  case GA_DNN_POOL_FWD:
  case GA_DNN_POOL_BWD: return pool_run(c);
  case GA_DNN_ACT_FWD:
  case GA_DNN_ACT_BWD: return act_run(c);
  case GA_DNN_SOFTMAX_FWD:
  case GA_DNN_SOFTMAX_BWD: return softmax_run(c);
  case GA_DNN_BN_TRAIN:
  case GA_DNN_BN_INFER:
  case GA_DNN_BN_BWD: return bn_run(c);
  case GA_DNN_ADD: return add_run(c);
  default: return ga_err(GA_EINTERNAL, "unknown dnn op %d", c->op);
  }
}

int ga_host_dnn_load(int *version) {
  *version = 0;
  return GA_OK;
}
