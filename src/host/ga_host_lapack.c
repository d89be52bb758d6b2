/* Host dense solvers: LAPACK through OpenBLAS (Debian's libopenblas exports
 * the Fortran LAPACK symbols; the prototypes are declared here, 32-bit
 * integers and gfortran's trailing string lengths, so the build needs the
 * library only).  One call of a ga_la_call loops over its batch; the
 * workspace is asked for once (lwork = -1) and shared by the batch.  A
 * LAPACK failure (info > 0: singular, not positive definite, no
 * convergence) is left in c->info for the core to read. */
#include "host/ga_host_lapack.h"
#include "base/ga_dtype.h"
#include "base/ga_error.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>

typedef void V;
typedef const int CI;
#define SL size_t
#define DECL4(ret, name, args) ret s##name args; ret d##name args; ret c##name args; ret z##name args;
DECL4(void, getrf_, (CI *m, CI *n, V *a, CI *lda, int *ipiv, int *info))
DECL4(void, getrs_, (const char *tr, CI *n, CI *nrhs, const V *a, CI *lda, const int *ipiv, V *b, CI *ldb, int *info, SL))
DECL4(void, potrf_, (const char *uplo, CI *n, V *a, CI *lda, int *info, SL))
DECL4(void, geqrf_, (CI *m, CI *n, V *a, CI *lda, V *tau, V *work, CI *lwork, int *info))
void sorgqr_(CI *m, CI *n, CI *k, V *a, CI *lda, const V *tau, V *work, CI *lwork, int *info);
void dorgqr_(CI *m, CI *n, CI *k, V *a, CI *lda, const V *tau, V *work, CI *lwork, int *info);
void cungqr_(CI *m, CI *n, CI *k, V *a, CI *lda, const V *tau, V *work, CI *lwork, int *info);
void zungqr_(CI *m, CI *n, CI *k, V *a, CI *lda, const V *tau, V *work, CI *lwork, int *info);
void ssyevd_(const char *jz, const char *ul, CI *n, V *a, CI *lda, V *w, V *work, CI *lwork, int *iwork, CI *liwork,
             int *info, SL, SL);
void dsyevd_(const char *jz, const char *ul, CI *n, V *a, CI *lda, V *w, V *work, CI *lwork, int *iwork, CI *liwork,
             int *info, SL, SL);
void cheevd_(const char *jz, const char *ul, CI *n, V *a, CI *lda, V *w, V *work, CI *lwork, V *rwork, CI *lrwork,
             int *iwork, CI *liwork, int *info, SL, SL);
void zheevd_(const char *jz, const char *ul, CI *n, V *a, CI *lda, V *w, V *work, CI *lwork, V *rwork, CI *lrwork,
             int *iwork, CI *liwork, int *info, SL, SL);
void sgesdd_(const char *jz, CI *m, CI *n, V *a, CI *lda, V *s, V *u, CI *ldu, V *vt, CI *ldvt, V *work, CI *lwork,
             int *iwork, int *info, SL);
void dgesdd_(const char *jz, CI *m, CI *n, V *a, CI *lda, V *s, V *u, CI *ldu, V *vt, CI *ldvt, V *work, CI *lwork,
             int *iwork, int *info, SL);
void cgesdd_(const char *jz, CI *m, CI *n, V *a, CI *lda, V *s, V *u, CI *ldu, V *vt, CI *ldvt, V *work, CI *lwork,
             V *rwork, int *iwork, int *info, SL);
void zgesdd_(const char *jz, CI *m, CI *n, V *a, CI *lda, V *s, V *u, CI *ldu, V *vt, CI *ldvt, V *work, CI *lwork,
             V *rwork, int *iwork, int *info, SL);
void sgeev_(const char *jl, const char *jr, CI *n, V *a, CI *lda, V *wr, V *wi, V *vl, CI *ldvl, V *vr, CI *ldvr,
            V *work, CI *lwork, int *info, SL, SL);
void dgeev_(const char *jl, const char *jr, CI *n, V *a, CI *lda, V *wr, V *wi, V *vl, CI *ldvl, V *vr, CI *ldvr,
            V *work, CI *lwork, int *info, SL, SL);
void cgeev_(const char *jl, const char *jr, CI *n, V *a, CI *lda, V *w, V *vl, CI *ldvl, V *vr, CI *ldvr, V *work,
            CI *lwork, V *rwork, int *info, SL, SL);
void zgeev_(const char *jl, const char *jr, CI *n, V *a, CI *lda, V *w, V *vl, CI *ldvl, V *vr, CI *ldvr, V *work,
            CI *lwork, V *rwork, int *info, SL, SL);

/* 0 float32, 1 float64, 2 complex64, 3 complex128 */
static int type_index(int dt) {
  switch (dt) {
  case GA_FLOAT32: return 0;
  case GA_FLOAT64: return 1;
  case GA_COMPLEX64: return 2;
  case GA_COMPLEX128: return 3;
  default: return -1;
  }
}
static const size_t ISZ[4] = {4, 8, 8, 16};     /* element bytes */
static const size_t RSZ[4] = {4, 8, 4, 8};      /* its real part's */

/* a workspace size LAPACK returned in work[0] (a float or double) */
static int64_t wsize(int t, const void *w) {
  double v = (t == 0 || t == 2) ? (double)*(const float *)w : *(const double *)w;
  return v < 1 ? 1 : (int64_t)v + 1;
}

static void *xmalloc(int64_t n, size_t sz) {
  if (n < 1) n = 1;
  if ((uint64_t)n > SIZE_MAX / 2 / sz) return NULL;
  return malloc((size_t)n * sz);
}

#define OOM() ga_err(GA_ENOMEM, "out of host memory for a LAPACK workspace")

int ga_host_lapack(const ga_la_call *c) {
  int t = type_index(c->dtype);
  if (t < 0) return ga_err(GA_ETYPE, "LAPACK takes float32, float64, complex64 or complex128, got %s",
                           ga_dtypes[c->dtype].name);
  if (c->m > INT_MAX || c->n > INT_MAX || c->k > INT_MAX)
    return ga_err(GA_EINVAL, "matrix dimensions exceed LAPACK's 32-bit limit");
  int m = (int)c->m, n = (int)c->n, k = (int)c->k, lda = m > 1 ? m : 1;
  size_t isz = ISZ[t], rsz = RSZ[t];
  int cplx = t >= 2, rc = GA_OK;
  char *a = c->a;
  size_t astep = (size_t)c->m * (size_t)c->n * isz;
  unsigned char q[32];    /* a workspace query's answer */
  int lw = -1, info = 0;
  void *work = NULL, *rwork = NULL, *iw = NULL;
  switch (c->op) {
  case GA_LA_GETRF: {
    static void (*const f[4])(CI *, CI *, V *, CI *, int *, int *) = {sgetrf_, dgetrf_, cgetrf_, zgetrf_};
    for (int64_t i = 0; i < c->batch; i++) f[t](&m, &n, a + i * astep, &lda, c->ipiv + i * n, c->info + i);
    return GA_OK;
  }
  case GA_LA_GETRS: {
    static void (*const f[4])(const char *, CI *, CI *, const V *, CI *, const int *, V *, CI *, int *, SL) = {
        sgetrs_, dgetrs_, cgetrs_, zgetrs_};
    const char *tr = c->flag == 0 ? "N" : c->flag == 1 ? "T" : "C";
    int ldb = n > 1 ? n : 1;
    for (int64_t i = 0; i < c->batch; i++) {
      f[t](tr, &n, &k, a + i * astep, &lda, c->ipiv + i * n, (char *)c->b + i * (size_t)n * k * isz, &ldb, &info, 1);
      c->info[i] = info < 0 ? info : 0;
    }
    return GA_OK;
  }
  case GA_LA_POTRF: {
    static void (*const f[4])(const char *, CI *, V *, CI *, int *, SL) = {spotrf_, dpotrf_, cpotrf_, zpotrf_};
    const char *ul = c->uplo ? "U" : "L";
    for (int64_t i = 0; i < c->batch; i++) f[t](ul, &n, a + i * astep, &lda, c->info + i, 1);
    return GA_OK;
  }
  case GA_LA_GEQRF: case GA_LA_ORGQR: {
    int geqrf = c->op == GA_LA_GEQRF, kk = geqrf ? (m < n ? m : n) : k;
    static void (*const fq[4])(CI *, CI *, V *, CI *, V *, V *, CI *, int *) = {sgeqrf_, dgeqrf_, cgeqrf_, zgeqrf_};
    static void (*const fo[4])(CI *, CI *, CI *, V *, CI *, const V *, V *, CI *, int *) = {
        sorgqr_, dorgqr_, cungqr_, zungqr_};
    if (geqrf) fq[t](&m, &n, a, &lda, c->b, q, &lw, &info);
    else fo[t](&m, &n, &kk, a, &lda, c->b, q, &lw, &info);
    int64_t lwork = wsize(t, q);
    if (lwork > INT_MAX) lwork = INT_MAX;
    lw = (int)lwork;
    if (!(work = xmalloc(lwork, isz))) return OOM();
    for (int64_t i = 0; i < c->batch; i++) {
      char *tau = (char *)c->b + i * (size_t)kk * isz;
      if (geqrf) fq[t](&m, &n, a + i * astep, &lda, tau, work, &lw, c->info + i);
      else fo[t](&m, &n, &kk, a + i * astep, &lda, tau, work, &lw, c->info + i);
    }
    break;
  }
  case GA_LA_SYEVD: {
    const char *jz = c->flag ? "V" : "N", *ul = c->uplo ? "U" : "L";
    int liw = -1, lrw = -1, iq = 0;
    unsigned char rq[16];
    switch (t) {
    case 0: ssyevd_(jz, ul, &n, a, &lda, rq, q, &lw, &iq, &liw, &info, 1, 1); break;
    case 1: dsyevd_(jz, ul, &n, a, &lda, rq, q, &lw, &iq, &liw, &info, 1, 1); break;
    case 2: cheevd_(jz, ul, &n, a, &lda, rq, q, &lw, rq, &lrw, &iq, &liw, &info, 1, 1); break;
    default: zheevd_(jz, ul, &n, a, &lda, rq, q, &lw, rq, &lrw, &iq, &liw, &info, 1, 1); break;
    }
    int64_t lwork = wsize(t, q), lrwork = cplx ? wsize(t - 2, rq) : 1, liwork = iq > 1 ? iq : 1;
    if (lwork > INT_MAX || lrwork > INT_MAX) return ga_err(GA_EINVAL, "eigh: the matrix is too big for LAPACK");
    if (!(work = xmalloc(lwork, isz)) || !(rwork = xmalloc(lrwork, rsz)) || !(iw = xmalloc(liwork, sizeof(int)))) {
      rc = OOM();
      break;
    }
    int l1 = (int)lwork, l2 = (int)lrwork, l3 = (int)liwork;
    for (int64_t i = 0; i < c->batch; i++) {
      char *ai = a + i * astep, *w = (char *)c->b + i * (size_t)n * rsz;
      int *inf = c->info + i;
      switch (t) {
      case 0: ssyevd_(jz, ul, &n, ai, &lda, w, work, &l1, iw, &l3, inf, 1, 1); break;
      case 1: dsyevd_(jz, ul, &n, ai, &lda, w, work, &l1, iw, &l3, inf, 1, 1); break;
      case 2: cheevd_(jz, ul, &n, ai, &lda, w, work, &l1, rwork, &l2, iw, &l3, inf, 1, 1); break;
      default: zheevd_(jz, ul, &n, ai, &lda, w, work, &l1, rwork, &l2, iw, &l3, inf, 1, 1); break;
      }
    }
    break;
  }
  case GA_LA_GESVD: {
    if (m < n) return ga_err(GA_EINTERNAL, "gesvd call with m < n");
    const char *jz = c->flag == 0 ? "N" : c->flag == 1 ? "S" : "A";
    int ucols = c->flag == 2 ? m : n, ldu = m > 1 ? m : 1, ldvt = n > 1 ? n : 1;
    int64_t mn = n, mx = m;
    int64_t lrwork = c->flag == 0 ? 7 * mn : (5 * mn * mn + 5 * mn > 2 * mx * mn + 2 * mn * mn + mn
                                                   ? 5 * mn * mn + 5 * mn : 2 * mx * mn + 2 * mn * mn + mn);
    unsigned char dummy[16];
    void *u0 = c->flag ? c->u : dummy, *v0 = c->flag ? c->vt : dummy;
    switch (t) {
    case 0: sgesdd_(jz, &m, &n, a, &lda, dummy, u0, &ldu, v0, &ldvt, q, &lw, &info, &info, 1); break;
    case 1: dgesdd_(jz, &m, &n, a, &lda, dummy, u0, &ldu, v0, &ldvt, q, &lw, &info, &info, 1); break;
    case 2: cgesdd_(jz, &m, &n, a, &lda, dummy, u0, &ldu, v0, &ldvt, q, &lw, dummy, &info, &info, 1); break;
    default: zgesdd_(jz, &m, &n, a, &lda, dummy, u0, &ldu, v0, &ldvt, q, &lw, dummy, &info, &info, 1); break;
    }
    int64_t lwork = wsize(t, q);
    if (lwork > INT_MAX || lrwork > INT_MAX) return ga_err(GA_EINVAL, "svd: the matrix is too big for LAPACK");
    if (!(work = xmalloc(lwork, isz)) || !(rwork = xmalloc(cplx ? lrwork + 1 : 1, rsz)) ||
        !(iw = xmalloc(8 * mn + 1, sizeof(int)))) {
      rc = OOM();
      break;
    }
    int l1 = (int)lwork;
    for (int64_t i = 0; i < c->batch; i++) {
      char *ai = a + i * astep, *s = (char *)c->b + i * (size_t)n * rsz;
      char *u = c->flag ? (char *)c->u + i * (size_t)m * ucols * isz : (char *)dummy;
      char *vt = c->flag ? (char *)c->vt + i * (size_t)n * n * isz : (char *)dummy;
      int *inf = c->info + i;
      switch (t) {
      case 0: sgesdd_(jz, &m, &n, ai, &lda, s, u, &ldu, vt, &ldvt, work, &l1, iw, inf, 1); break;
      case 1: dgesdd_(jz, &m, &n, ai, &lda, s, u, &ldu, vt, &ldvt, work, &l1, iw, inf, 1); break;
      case 2: cgesdd_(jz, &m, &n, ai, &lda, s, u, &ldu, vt, &ldvt, work, &l1, rwork, iw, inf, 1); break;
      default: zgesdd_(jz, &m, &n, ai, &lda, s, u, &ldu, vt, &ldvt, work, &l1, rwork, iw, inf, 1); break;
      }
    }
    break;
  }
  case GA_LA_GEEV: {
    const char *jr = c->flag ? "V" : "N";
    int ldv = n > 1 ? n : 1;
    unsigned char dummy[32];
    /* real: wr, wi and real vectors in scratch, turned into complex after */
    void *wr = NULL, *wi = NULL, *vr = NULL;
    switch (t) {
    case 0: sgeev_("N", jr, &n, a, &lda, dummy, dummy, dummy, &ldv, dummy, &ldv, q, &lw, &info, 1, 1); break;
    case 1: dgeev_("N", jr, &n, a, &lda, dummy, dummy, dummy, &ldv, dummy, &ldv, q, &lw, &info, 1, 1); break;
    case 2: cgeev_("N", jr, &n, a, &lda, dummy, dummy, &ldv, dummy, &ldv, q, &lw, dummy, &info, 1, 1); break;
    default: zgeev_("N", jr, &n, a, &lda, dummy, dummy, &ldv, dummy, &ldv, q, &lw, dummy, &info, 1, 1); break;
    }
    int64_t lwork = wsize(t, q);
    if (lwork > INT_MAX) return ga_err(GA_EINVAL, "eig: the matrix is too big for LAPACK");
    if (!(work = xmalloc(lwork, isz)) || !(rwork = xmalloc(2 * (int64_t)n, rsz)) ||
        (!cplx && (!(wr = xmalloc(n, rsz)) || !(wi = xmalloc(n, rsz)) ||
                   !(vr = xmalloc(c->flag ? (int64_t)n * n : 1, rsz))))) {
      free(wr), free(wi), free(vr);
      rc = OOM();
      break;
    }
    int l1 = (int)lwork;
    size_t csz = 2 * rsz;   /* the complex outputs' element */
    for (int64_t i = 0; i < c->batch; i++) {
      char *ai = a + i * astep, *w = (char *)c->b + i * (size_t)n * csz;
      char *v = c->flag ? (char *)c->u + i * (size_t)n * n * csz : (char *)dummy;
      int *inf = c->info + i;
      switch (t) {
      case 0: sgeev_("N", jr, &n, ai, &lda, wr, wi, dummy, &ldv, c->flag ? vr : dummy, &ldv, work, &l1, inf, 1, 1); break;
      case 1: dgeev_("N", jr, &n, ai, &lda, wr, wi, dummy, &ldv, c->flag ? vr : dummy, &ldv, work, &l1, inf, 1, 1); break;
      case 2: cgeev_("N", jr, &n, ai, &lda, w, dummy, &ldv, v, &ldv, work, &l1, rwork, inf, 1, 1); break;
      default: zgeev_("N", jr, &n, ai, &lda, w, dummy, &ldv, v, &ldv, work, &l1, rwork, inf, 1, 1); break;
      }
      if (cplx || *inf != 0) continue;
      /* real: w = wr + i wi; a pair (wi[j] > 0, wi[j+1] < 0) has vectors
       * vr[:, j] +- i vr[:, j+1] */
      for (int j = 0; j < n; j++) {
        double re = t == 0 ? ((float *)wr)[j] : ((double *)wr)[j];
        double im = t == 0 ? ((float *)wi)[j] : ((double *)wi)[j];
        if (t == 0) ((float *)w)[2 * j] = (float)re, ((float *)w)[2 * j + 1] = (float)im;
        else ((double *)w)[2 * j] = re, ((double *)w)[2 * j + 1] = im;
      }
      if (!c->flag) continue;
      for (int j = 0; j < n; j++) {
        double wij = t == 0 ? ((float *)wi)[j] : ((double *)wi)[j];
        int pair = wij > 0 && j + 1 < n;
        for (int r = 0; r < n; r++) {
          size_t o = (size_t)j * n + r, o2 = (size_t)(j + 1) * n + r;
          double re = t == 0 ? ((float *)vr)[o] : ((double *)vr)[o], im = 0;
          if (pair) im = t == 0 ? ((float *)vr)[o2] : ((double *)vr)[o2];
          if (t == 0) {
            ((float *)v)[2 * o] = (float)re, ((float *)v)[2 * o + 1] = (float)im;
            if (pair) ((float *)v)[2 * o2] = (float)re, ((float *)v)[2 * o2 + 1] = (float)-im;
          } else {
            ((double *)v)[2 * o] = re, ((double *)v)[2 * o + 1] = im;
            if (pair) ((double *)v)[2 * o2] = re, ((double *)v)[2 * o2 + 1] = -im;
          }
        }
        if (pair) j++;
      }
    }
    free(wr), free(wi), free(vr);
    break;
  }
  default:
    return ga_err(GA_EINVAL, "the host has no solver routine %d", c->op);
  }
  free(work);
  free(rwork);
  free(iw);
  return rc;
}
